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
 * Return: the platform, or NULL with @err set: -EINVAL for a corrupt blob or
 * a bad property (wrong cell counts, truncated, unknown phandle, no RAM,
 * overlapping RAM), -ENOMEM.
 */
DMAMAP_API struct dmamap_platform *dmamap_platform_from_fdt(const void *blob,
							    size_t size,
							    struct dmamap_error *err);

/**
 * dmamap_platform_from_file() - a board from a .dtb, or a .dts compiled with dtc
 * @path: file name; ".dts" files are compiled with dtc(1) first
 * @err: receives the reason on failure
 *
 * Return: the platform, or NULL with @err set (-ENOENT unreadable file,
 * -ENOEXEC dtc missing or failing, and the errors of dmamap_platform_from_fdt()).
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
 * Reserved regions are placed in, and checked against, the overriding RAM.
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
