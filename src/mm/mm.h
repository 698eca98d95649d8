/* SPDX-License-Identifier: MIT */
/*
 * Memory management, as the layers above use it: zones and the page
 * allocator, contiguous allocations (CMA or pages, as Linux's
 * dma_alloc_contiguous), a device's declared coherent pool, and what
 * kmalloc knows about who shares a cache line.
 */
#ifndef DMAMAP_MM_MM_H
#define DMAMAP_MM_MM_H

#include "../base/device.h"

enum { ZONE_DMA_IDX, ZONE_DMA32_IDX, ZONE_NORMAL_IDX, ZONE_HIGHMEM_IDX, NR_ZONES };

#define DMAMAP_MAX_ORDER 12

/* What the board gives the page allocator, and what it keeps from it. */
struct dmamap_mm_layout {
	phys_addr_t zone_dma_limit; /* last byte of ZONE_DMA; 0: no DMA zone */
	phys_addr_t highmem_start;  /* first byte of high memory; 0: none */
	/* Carved off before the page allocator sees RAM: pools, CMA, reserved regions. */
	unsigned int nr_holes;
	struct dmamap_ram_bank holes[2 + DMAMAP_MAX_RESERVED + DMAMAP_MAX_CMA];
	struct dmamap_ram_bank cma; /* the default CMA area (size 0: none); also a hole */
	unsigned int nr_cma_areas;  /* per-device CMA areas; holes too */
	struct dmamap_ram_bank cma_areas[DMAMAP_MAX_CMA];
};

int dmamap__mm_init(struct dmamap_platform *p, const struct dmamap_mm_layout *layout);
void dmamap__mm_fini(struct dmamap_platform *p);

phys_addr_t dmamap__zone_dma_limit(const struct dmamap_platform *p);
phys_addr_t dmamap__highmem_start(const struct dmamap_platform *p);

/* 2^@order pages from the highest zone allowed by @max_zone (falling back lower), or PHYS_NONE. */
phys_addr_t dmamap__pages_alloc(struct dmamap_platform *p, unsigned int order,
				unsigned int max_zone);
/* 0, or -EINVAL when @phys does not head an allocated block of 2^@order pages. */
int dmamap__pages_free(struct dmamap_platform *p, phys_addr_t phys, unsigned int order);

/*
 * Whether an allocation tries CMA before pages, as dma_alloc_contiguous():
 * a blocking one, of any size when the device has its own area, else
 * larger than a page and only when the board has a default area; an
 * IOMMU's DMA_ATTR_FORCE_CONTIGUOUS one always.
 */
bool dmamap__wants_cma(const struct device *dev, size_t size, gfp_t gfp, unsigned long attrs);
/*
 * @size bytes (whole pages) from @dev's CMA area (its own, else the
 * board's default), aligned to their power-of-two size; PHYS_NONE when
 * there is no area or no room. The caller asks the fault injector first
 * (an injected failure must not fall back to pages).
 */
phys_addr_t dmamap__alloc_from_cma(struct device *dev, size_t size);
/* From the board's default area, for no device in particular (a dma-buf heap); PHYS_NONE if none. */
phys_addr_t dmamap__alloc_from_board_cma(struct dmamap_platform *p, size_t size);
/* Where the default area is (0, 0 if the board has none). */
void dmamap__board_cma_range(const struct dmamap_platform *p, phys_addr_t *start, u64 *size);
/* Give @dev the per-device CMA area at [@start, +@size): 0, or -EINVAL when the board has none there. */
int dmamap__device_cma(struct device *dev, phys_addr_t start, u64 size);
/* Where @dev's own CMA area is (size 0: it uses the default). */
void dmamap__cma_area_of(const struct device *dev, phys_addr_t *start, u64 *size);
/* Give back a contiguous allocation (CMA or pages): 0, or -EINVAL if it is not one of @size. */
int dmamap__free_contiguous(struct dmamap_platform *p, phys_addr_t phys, size_t size);
/* Whether @phys heads a contiguous allocation (pages or CMA) of @size. */
bool dmamap__is_contiguous(struct dmamap_platform *p, phys_addr_t phys, size_t size);
/* Whether @phys is in one of the board's CMA areas. */
bool dmamap__in_cma(const struct dmamap_platform *p, phys_addr_t phys);

/*
 * Whether the rest of the cache line holding byte @end - 1 holds other live
 * data: bytes the same kmalloc caller asked for, or another object.
 */
bool dmamap__kmalloc_tail_shared(struct dmamap_platform *p, phys_addr_t end);

/* A device's declared coherent pool (dma_declare_coherent_memory()). */
void *dmamap__pool_alloc(struct device *dev, size_t size, dma_addr_t *dma);
/* 1: given back to the pool (or refused, reported); 0: not pool memory. */
int dmamap__pool_free(struct device *dev, size_t size, void *vaddr);
void dmamap__pool_destroy(struct device *dev);

#endif
