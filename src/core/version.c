/* SPDX-License-Identifier: MIT */
/* The version the library was built as, for programs that check what they loaded. */
#include <dmamap/version.h>

const char *dmamap_version(void)
{
	return DMAMAP_VERSION;
}
