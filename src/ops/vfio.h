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

/* The physical address of each host page of a range (no IOMMU); kept until the platform goes. */
struct vfio_frames {
	struct vfio_frames *next;
	u64 pa[];
};

/* A registered range: where the CPU has it, where the device does. */
struct vfio_region {
	uintptr_t va;
	u64 size;
	u64 iova;
	unsigned int order; /* of the IOVA block: its pages, as a power of two */
	bool arena;
	const struct vfio_frames *frames; /* no IOMMU: where its pages are */
};

/* Registered ranges, replaced whole when one comes or goes (older ones kept to the end). */
struct vfio_table {
	struct vfio_table *older;
	unsigned int n;
	struct vfio_region r[]; /* sorted by va */
};

/* What the core's short path reads, at the head of the backend's state. */
struct dmamap_vfio_fast {
	const struct vfio_table *table; /* the one in force, loaded with acquire */
	u64 registered_end; /* IOVAs below it are registered memory's, above the slow path's */
};

/* The registered range holding [@va, +@size), or NULL. */
static inline const struct vfio_region *dmamap__vfio_lookup_va(const struct vfio_table *t,
							       uintptr_t va, size_t size)
{
	unsigned int lo = 0, hi = t->n;
	const struct vfio_region *r;
	u64 off;

	/* The last range starting at or before @va. */
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (t->r[mid].va <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	r = &t->r[lo - 1];
	off = va - r->va;
	return off < r->size && size <= r->size - off ? r : NULL;
}

/* The IOVA space of @p's container (p->vfio held): 0, -ENOMEM, -ENOSPC (no usable aperture). */
int dmamap__vfio_space_init(struct dmamap_platform *p);
/* Every registered range out of the IOMMU, then the space. */
void dmamap__vfio_space_fini(struct dmamap_platform *p);
/* dmamap_vfio_register(): @arena marks the coherent arena, which cannot be unregistered. */
int dmamap__vfio_register(struct dmamap_platform *p, uintptr_t va, u64 size, bool arena);
int dmamap__vfio_unregister(struct dmamap_platform *p, uintptr_t va);
/*
 * The core's short path for registered memory, when nothing watches
 * (dev->vfio_lookup: an IOMMU is there): the handle, or DMA_MAPPING_ERROR
 * when [@ptr, +@size) is not all in one registered range under the
 * device's mask (the general path decides then).
 */
static inline dma_addr_t dmamap__vfio_map_registered(struct device *dev, const void *ptr,
						     size_t size)
{
	const struct dmamap_vfio_fast *f = (const void *)dev->plat->vfio_space;
	const struct vfio_region *r =
		dmamap__vfio_lookup_va(__atomic_load_n(&f->table, __ATOMIC_ACQUIRE),
				       (uintptr_t)ptr, size);
	dma_addr_t dma;

	if (unlikely(!r))
		return DMA_MAPPING_ERROR;
	dma = r->iova + ((uintptr_t)ptr - r->va);
	return likely(dma + size - 1 <= dev->map_limit) ? dma : DMA_MAPPING_ERROR;
}

/* Whether @addr is a handle in registered memory, whose unmap is nothing to do. */
static inline bool dmamap__vfio_registered_handle(const struct device *dev, dma_addr_t addr)
{
	const struct dmamap_vfio_fast *f = (const void *)dev->plat->vfio_space;

	return addr < f->registered_end;
}
/* @dev maps through the real IOMMU from now on. */
void dmamap__vfio_attach(struct device *dev);
void dmamap__vfio_read_stats(struct device *dev, struct dmamap_vfio_stats *st);

#endif
