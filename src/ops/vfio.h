/* SPDX-License-Identifier: MIT */
/*
 * The VFIO backend, as the platform's setup sees it: the IOVA space of
 * the real IOMMU, the memory registered in it, and attaching the
 * function's device to the table that maps through it.
 */
#ifndef DMAMAP_OPS_VFIO_H
#define DMAMAP_OPS_VFIO_H

#include "../base/device.h"

struct dmamap_vfio_stats;

/* The IOVA space of @p's container (p->vfio held): 0, -ENOMEM, -ENOSPC (no usable aperture). */
int dmamap__vfio_space_init(struct dmamap_platform *p);
/* Every registered range out of the IOMMU, then the space. */
void dmamap__vfio_space_fini(struct dmamap_platform *p);
/* dmamap_vfio_register(): @arena marks the coherent arena, which cannot be unregistered. */
int dmamap__vfio_register(struct dmamap_platform *p, uintptr_t va, u64 size, bool arena);
int dmamap__vfio_unregister(struct dmamap_platform *p, uintptr_t va);
/*
 * The core's short path for registered memory, when nothing watches:
 * the handle, or DMA_MAPPING_ERROR when [@ptr, +@size) is not all in one
 * registered range under the device's mask (the general path decides
 * then). Counted as a fast map.
 */
dma_addr_t dmamap__vfio_map_registered(struct device *dev, const void *ptr, size_t size);
/* Whether @addr is a handle in registered memory, whose unmap is nothing to do. */
bool dmamap__vfio_registered_handle(struct device *dev, dma_addr_t addr);
/* @dev maps through the real IOMMU from now on. */
void dmamap__vfio_attach(struct device *dev);
void dmamap__vfio_read_stats(struct dmamap_platform *p, struct dmamap_vfio_stats *st);

#endif
