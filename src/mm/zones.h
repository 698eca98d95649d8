/* SPDX-License-Identifier: MIT */
/* The page allocator's own state: arenas per zone, slab caches, CMA. Private to src/mm/. */
#ifndef DMAMAP_MM_ZONES_H
#define DMAMAP_MM_ZONES_H

#include "mm.h"

#define KMALLOC_CLASSES 13

struct dmamap_buddy;
struct dmamap_slab;
struct dmamap_slab_cache;
struct dmamap_cma;

/* A physically contiguous piece of one bank inside one zone. */
struct dmamap_arena {
	struct dmamap_bank *bank;
	phys_addr_t start;
	unsigned long npages;
	struct dmamap_buddy *buddy;
	struct dmamap_slab **slabs; /* per page: the kmalloc slab it holds */
	unsigned int zone;
};

struct dmamap_mm {
	phys_addr_t zone_dma_limit;
	phys_addr_t highmem_start;
	unsigned int nr_arenas;
	/* Every bank, cut by every hole, in every zone. */
	struct dmamap_arena arenas[(DMAMAP_MAX_BANKS + 2 + DMAMAP_MAX_RESERVED + DMAMAP_MAX_CMA) * NR_ZONES];
	struct dmamap_slab_cache *kmalloc[NR_ZONES][KMALLOC_CLASSES];
	struct dmamap_cma *cma; /* the default area */
	unsigned int nr_cma_areas;
	struct dmamap_cma *cma_areas[DMAMAP_MAX_CMA];
};

/* Whether @phys heads an allocated block of exactly 2^@order pages. */
bool dmamap__pages_is_block(struct dmamap_platform *p, phys_addr_t phys, unsigned int order);
struct dmamap_arena *dmamap__arena_of(struct dmamap_platform *p, phys_addr_t phys);
int dmamap__slab_init(struct dmamap_platform *p);
void dmamap__slab_fini(struct dmamap_platform *p);

#endif
