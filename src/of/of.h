/* SPDX-License-Identifier: MIT */
/* The boards built into the library, by name. Private to src/of/. */
#ifndef DMAMAP_OF_OF_H
#define DMAMAP_OF_OF_H

#include <dmamap/platform.h>

/* The boards/NAME.dts files embedded at build time (mk/embed.sh). */
struct dmamap__dt_board {
	const char *name;
	const unsigned char *dtb;
	size_t size;
};
extern const struct dmamap__dt_board dmamap__dt_boards[];

/* An embedded device-tree board: a platform, or NULL if none has that name (or @err says why). */
struct dmamap_platform *dmamap__dt_builtin(const char *name, struct dmamap_error *err);
const char *dmamap__dt_builtin_name(unsigned int i);

/*
 * Whether the structure block of @fdt (@size bytes, header already
 * checked) is a well-formed run of tokens inside its bounds. Always ends.
 */
bool dmamap__fdt_walk_ok(const void *fdt, size_t size);

/* The same boards written in C, for builds without libfdt. */
const struct dmamap_board *dmamap__builtin_board(const char *name);
extern const char *const dmamap__builtin_board_names[];

#endif
