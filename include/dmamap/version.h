/* SPDX-License-Identifier: MIT */
/* Which dmamap this is: the headers' version, and the library's at run time. */
#ifndef DMAMAP_VERSION_H
#define DMAMAP_VERSION_H

#include <dmamap/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DMAMAP_VERSION_MAJOR 0
#define DMAMAP_VERSION_MINOR 2
#define DMAMAP_VERSION_PATCH 0
#define DMAMAP_VERSION "0.2.0"

/**
 * dmamap_version() - the version of the library a program runs with
 *
 * Compare it with %DMAMAP_VERSION, the headers' version, to tell a
 * program built against other headers than the library it loaded.
 *
 * Return: "MAJOR.MINOR.PATCH", static; never fails.
 */
DMAMAP_API const char *dmamap_version(void);

#ifdef __cplusplus
}
#endif

#endif
