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

#ifdef __cplusplus
}
#endif
#endif
