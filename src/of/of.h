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
/*
 * A new temporary file "$TMPDIR/dmamap-@stem-XXXXXX@suffix" (/tmp when
 * TMPDIR is unset or empty), its name in @path (@len bytes): its open
 * descriptor, or -1 with errno set.
 */
int dmamap__of_mktemp(char *path, size_t len, const char *stem, const char *suffix);
/*
 * @path (a .dts) through cpp and dtc into the file @dtb, with @includes
 * searched after @home (NULL: @path's own directory; a copy of standard
 * input has the current one): 0, or -ENOEXEC with the tool's words
 * (-EINVAL for more than 16 @includes, -EIO without a temporary file).
 */
int dmamap__dts_compile(const char *path, const char *home, const char *dtb,
			const char *const *includes, unsigned int nr_includes,
			struct dmamap_error *err);

/*
 * Whether libfdt may read @blob (@size bytes): its header, its size and
 * every token checked, and a format version of 16 or later. 0, or -EINVAL
 * with @err set. Nothing of libfdt may look at outside input before this.
 */
int dmamap__fdt_blob_ok(const void *blob, size_t size, struct dmamap_error *err);

/* The same boards written in C, for builds without libfdt. */
const struct dmamap_board *dmamap__builtin_board(const char *name);
extern const char *const dmamap__builtin_board_names[];

/*
 * A device's node, for its driver's property reads (<dmamap/of.h>): the
 * board's own copy of the tree and the node's offset in it, which stays
 * right as long as the board lives (the copy never changes).
 */
struct device_node {
	const void *fdt;
	int offset;
	char path[DMAMAP_PATH_MAX];
};

/* @np for the node at @path of @fdt: 0; -ENOENT if there is none; -ENOSYS without libfdt. */
int dmamap__of_node_init(struct device_node *np, const void *fdt, const char *path);
/*
 * The @i-th (address, size) pair of the node's reg, read with its
 * parent's #address-cells and #size-cells: 0, or -ENOENT when there is
 * none (or no such pair), -EINVAL for cells that do not fit 64 bits.
 */
int dmamap__of_reg(const struct device_node *np, unsigned int i, u64 *start, u64 *size);

#endif
