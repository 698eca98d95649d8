/* SPDX-License-Identifier: MIT */
/*
 * Boards from device trees, read with libfdt the way the kernel learns a
 * board: RAM from /memory nodes, the cache line from the cpus, and for each
 * DMA master its dma-ranges (through the parent buses), dma-coherent and
 * iommus, as of_dma_configure() derives them.
 */
#ifndef DMAMAP_OF_H
#define DMAMAP_OF_H

#include <dmamap/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * dmamap_platform_from_fdt() - a simulated board from a flattened device tree
 * @blob: the .dtb in memory
 * @size: its size in bytes (the blob is never read past it)
 * @err: receives what was wrong and where (node path, property) on failure
 *
 * Nodes compatible with "dmamap,memcpy" become devices with the memcpy
 * engine model, named after their node (e.g. "dma@10000000").
 *
 * Return: the platform, or NULL with @err set:
 *
 * - -EINVAL: a NULL @blob or one shorter than a header; a corrupt or
 *   truncated blob, or one whose header claims more than @size; a format
 *   version below 16; a bad property: cells that do not fit, a truncated
 *   value, an unknown phandle, dma-ranges or reserved regions that do not
 *   fit, an unknown dmamap,cache-arch; no memory node; more RAM banks,
 *   reserved regions or DMA masters with a model than dmamap holds;
 * - -ENOMEM: out of memory;
 * - the errors of dmamap_platform_create() for the board the tree
 *   describes (overlapping RAM is its -EINVAL);
 * - -ENOSYS in a build without libfdt.
 */
DMAMAP_API struct dmamap_platform *dmamap_platform_from_fdt(const void *blob,
							    size_t size,
							    struct dmamap_error *err);

/**
 * dmamap_platform_from_file() - a board from a .dtb, or a .dts compiled with dtc
 * @path: file name; ".dts" files are compiled with dtc(1) first
 * @err: receives the reason on failure
 *
 * Return: the platform, or NULL with @err set: -EINVAL for a NULL @path;
 * -ENOEXEC for a ".dts" dtc does not compile (dtc missing, a syntax
 * error, a file that does not exist), a path with a quote in it, or no
 * temporary file for the result; -ENOENT for a .dtb that cannot be
 * opened; -ENOMEM; and the errors of dmamap_platform_from_fdt() (a file
 * over 1 MiB is read in part, and refused as truncated: -EINVAL). -ENOSYS
 * in a build without libfdt.
 */
DMAMAP_API struct dmamap_platform *dmamap_platform_from_file(const char *path,
							     struct dmamap_error *err);

/**
 * struct dmamap_of_options - what the caller knows better than the tree
 * @ram: RAM banks that replace the tree's /memory nodes, which firmware
 *       usually fills in at boot (a .dts often carries placeholders);
 *       NULL: use the tree's
 * @nr_ram: how many, 1..%DMAMAP_MAX_BANKS when @ram is set
 */
struct dmamap_of_options {
	const struct dmamap_ram_bank *ram;
	unsigned int nr_ram;
};

/**
 * dmamap_platform_from_fdt_opts() - dmamap_platform_from_fdt() with overrides
 * @blob: the .dtb in memory
 * @size: its size in bytes
 * @opts: overrides (may be NULL: none)
 * @err: receives the reason on failure
 *
 * Reserved regions are placed in, and checked against, the overriding
 * RAM, whose banks dmamap_platform_create() checks as any board's.
 *
 * Return: the platform, or NULL with @err set: -EINVAL for a bad @opts
 * (@nr_ram 0 or above %DMAMAP_MAX_BANKS with @ram set) and the errors of
 * dmamap_platform_from_fdt().
 */
DMAMAP_API struct dmamap_platform *
dmamap_platform_from_fdt_opts(const void *blob, size_t size,
			      const struct dmamap_of_options *opts,
			      struct dmamap_error *err);

/**
 * dmamap_platform_from_file_opts() - dmamap_platform_from_file() with overrides
 * @path: file name (.dtb, or .dts compiled with dtc)
 * @opts: overrides (may be NULL: none)
 * @err: receives the reason on failure
 *
 * Return: the platform, or NULL with @err set: the errors of
 * dmamap_platform_from_file() and dmamap_platform_from_fdt_opts().
 */
DMAMAP_API struct dmamap_platform *
dmamap_platform_from_file_opts(const char *path, const struct dmamap_of_options *opts,
			       struct dmamap_error *err);

#ifdef __cplusplus
}
#endif
#endif
