/* SPDX-License-Identifier: MIT */
/*
 * Zones and the page allocator: each RAM bank is split at the zone
 * boundaries (ZONE_DMA up to the board's limit, ZONE_DMA32 up to 4 GiB,
 * ZONE_NORMAL above) into arenas, each with its own buddy allocator.
 */
#include <stdlib.h>
#include <string.h>
#include "../lib/lib.h"
#include "../base/report.h"
#include "../platform/port.h"
#include "buddy.h"
#include "cma.h"
#include "zones.h"
#include "../lib/mem.h"

static unsigned int gfp_zone(gfp_t gfp)
{
	if (gfp & __GFP_DMA)
		return ZONE_DMA_IDX;
	if (gfp & __GFP_DMA32)
		return ZONE_DMA32_IDX;
	if (gfp & __GFP_HIGHMEM)
		return ZONE_HIGHMEM_IDX;
	return ZONE_NORMAL_IDX;
}

static int add_arena(struct dmamap_platform *p, struct dmamap_bank *b,
		     phys_addr_t start, phys_addr_t end, unsigned int zone)
{
	struct dmamap_arena *a;

	start = (start + PAGE_SIZE - 1) & ~(phys_addr_t)(PAGE_SIZE - 1);
	end &= ~(phys_addr_t)(PAGE_SIZE - 1);
	if (end <= start)
		return 0;
	if (p->mm->nr_arenas >= ARRAY_SIZE(p->mm->arenas))
		return -ENOSPC;
	a = &p->mm->arenas[p->mm->nr_arenas];
	a->bank = b;
	a->start = start;
	a->npages = (unsigned long)((end - start) >> PAGE_SHIFT);
	a->zone = zone;
	a->buddy = dmamap__buddy_create(start >> PAGE_SHIFT, a->npages,
					DMAMAP_MAX_ORDER);
	a->slabs = dmamap__calloc(a->npages, sizeof(*a->slabs));
	if (!a->buddy || !a->slabs) {
		dmamap__buddy_destroy(a->buddy);
		free(a->slabs);
		return -ENOMEM;
	}
	p->mm->nr_arenas++;
	return 0;
}

/* One piece of RAM the page allocator may use, split at the zone boundaries. */
static int add_zoned(struct dmamap_platform *p, struct dmamap_bank *b,
		     phys_addr_t s, phys_addr_t e)
{
	const phys_addr_t four_g = 0x100000000ULL;
	phys_addr_t dma_end = p->mm->zone_dma_limit ? p->mm->zone_dma_limit + 1 : 0;
	int ret;

	if (dma_end > s) {
		ret = add_arena(p, b, s, MIN(e, dma_end), ZONE_DMA_IDX);
		if (ret)
			return ret;
		s = MIN(e, dma_end);
	}
	if (s < four_g && s < e) {
		ret = add_arena(p, b, s, MIN(e, four_g), ZONE_DMA32_IDX);
		if (ret)
			return ret;
		s = MIN(e, four_g);
	}
	if (p->mm->highmem_start && s < p->mm->highmem_start && s < e) {
		ret = add_arena(p, b, s, MIN(e, p->mm->highmem_start), ZONE_NORMAL_IDX);
		if (ret)
			return ret;
		s = MIN(e, p->mm->highmem_start);
	}
	if (s < e)
		return add_arena(p, b, s, e,
				 p->mm->highmem_start && s >= p->mm->highmem_start ?
					 ZONE_HIGHMEM_IDX : ZONE_NORMAL_IDX);
	return 0;
}

/*
 * The bounce pool, CMA and the board's reserved regions are carved off
 * before the page allocator sees RAM: each bank is cut around them.
 */
static int add_banks(struct dmamap_platform *p, const struct dmamap_mm_layout *l)
{
	for (unsigned int i = 0; i < p->mach.nr_banks; i++) {
		struct dmamap_bank *b = &p->mach.banks[i];
		phys_addr_t s = b->start, e = b->start + b->size;

		while (s < e) {
			phys_addr_t next = e, resume = e;
			int ret;

			/* The nearest hole at or after s cuts this piece short. */
			for (unsigned int h = 0; h < l->nr_holes; h++) {
				phys_addr_t hs = l->holes[h].start, he = hs + l->holes[h].size;

				if (he <= s || hs >= e)
					continue;
				if (MAX(hs, s) < next) {
					next = MAX(hs, s);
					resume = MIN(he, e);
				}
			}
			if (next > s) {
				ret = add_zoned(p, b, s, next);
				if (ret)
					return ret;
			}
			s = next < e ? resume : e;
		}
	}
	return 0;
}

int dmamap__mm_init(struct dmamap_platform *p, const struct dmamap_mm_layout *l)
{
	int ret;

	p->mm = dmamap__calloc(1, sizeof(*p->mm));
	if (!p->mm)
		return -ENOMEM;
	p->mm->zone_dma_limit = l->zone_dma_limit;
	p->mm->highmem_start = l->highmem_start;
	if (l->cma.size && !(p->mm->cma = dmamap__cma_create(l->cma.start, l->cma.size)))
		return -ENOMEM;
	for (unsigned int i = 0; i < l->nr_cma_areas && i < DMAMAP_MAX_CMA; i++) {
		p->mm->cma_areas[i] = dmamap__cma_create(l->cma_areas[i].start, l->cma_areas[i].size);
		if (!p->mm->cma_areas[i])
			return -ENOMEM;
		p->mm->nr_cma_areas++;
	}
	ret = add_banks(p, l);
	return ret ? ret : dmamap__slab_init(p);
}

void dmamap__mm_fini(struct dmamap_platform *p)
{
	struct dmamap_mm *mm = p->mm;

	if (!mm)
		return;
	dmamap__slab_fini(p);
	for (unsigned int i = 0; i < mm->nr_arenas; i++) {
		dmamap__buddy_destroy(mm->arenas[i].buddy);
		free(mm->arenas[i].slabs);
	}
	dmamap__cma_destroy(mm->cma);
	for (unsigned int i = 0; i < mm->nr_cma_areas; i++)
		dmamap__cma_destroy(mm->cma_areas[i]);
	free(mm);
	p->mm = NULL;
}

phys_addr_t dmamap__zone_dma_limit(const struct dmamap_platform *p)
{
	return p->mm->zone_dma_limit;
}

phys_addr_t dmamap__highmem_start(const struct dmamap_platform *p)
{
	return p->mm->highmem_start;
}

struct dmamap_arena *dmamap__arena_of(struct dmamap_platform *p,
				      phys_addr_t phys)
{
	for (unsigned int i = 0; i < p->mm->nr_arenas; i++) {
		struct dmamap_arena *a = &p->mm->arenas[i];

		if (phys >= a->start &&
		    phys - a->start < ((u64)a->npages << PAGE_SHIFT))
			return a;
	}
	return NULL;
}

phys_addr_t dmamap__pages_alloc(struct dmamap_platform *p, unsigned int order,
				unsigned int max_zone)
{
	unsigned int lowest = NR_ZONES;

	if (order > DMAMAP_MAX_ORDER || dmamap__fault(&p->fault, DMAMAP_FAULT_ALLOC))
		return PHYS_NONE;
	/* A board without the zone asked for serves it from its lowest zone, as a
	 * kernel without CONFIG_ZONE_DMA treats GFP_DMA. */
	for (unsigned int i = 0; i < p->mm->nr_arenas; i++)
		lowest = MIN(lowest, p->mm->arenas[i].zone);
	if (lowest < NR_ZONES && max_zone < lowest && lowest != ZONE_HIGHMEM_IDX)
		max_zone = lowest;
	for (int z = (int)max_zone; z >= 0; z--) {
		for (unsigned int i = 0; i < p->mm->nr_arenas; i++) {
			struct dmamap_arena *a = &p->mm->arenas[i];
			long idx;

			if (a->zone != (unsigned int)z)
				continue;
			idx = dmamap__buddy_alloc(a->buddy, order);
			if (idx >= 0)
				return a->start + ((phys_addr_t)idx << PAGE_SHIFT);
		}
	}
	return PHYS_NONE;
}

int dmamap__pages_free(struct dmamap_platform *p, phys_addr_t phys,
		       unsigned int order)
{
	struct dmamap_arena *a = dmamap__arena_of(p, phys);

	if (!a || (phys & (PAGE_SIZE - 1)))
		return -EINVAL;
	return dmamap__buddy_free(a->buddy,
				  (unsigned long)((phys - a->start) >> PAGE_SHIFT),
				  order);
}

bool dmamap__pages_is_block(struct dmamap_platform *p, phys_addr_t phys,
			    unsigned int order)
{
	struct dmamap_arena *a = dmamap__arena_of(p, phys);

	return a && !(phys & (PAGE_SIZE - 1)) &&
	       dmamap__buddy_is_block(a->buddy,
				      (unsigned long)((phys - a->start) >> PAGE_SHIFT),
				      order);
}

struct page *dmamap_alloc_pages(struct dmamap_platform *p, unsigned int order,
				gfp_t flags)
{
	phys_addr_t phys;
	void *va;

	if (!p || order > DMAMAP_MAX_ORDER)
		return NULL;
	phys = dmamap__pages_alloc(p, order, gfp_zone(flags));
	if (phys == PHYS_NONE)
		return NULL;
	va = dmamap__phys_to_view(p, phys, VIEW_CPU);
	if (flags & __GFP_ZERO)
		memset(va, 0, PAGE_SIZE << order);
	return virt_to_page(va);
}

void dmamap_free_pages(struct dmamap_platform *p, struct page *page,
		       unsigned int order)
{
	phys_addr_t phys;

	if (!p || !page)
		return;
	phys = dmamap__linear_to_phys(p, page);
	if (phys == PHYS_NONE || dmamap__pages_free(p, phys, order))
		dmamap__report(p, NULL, DMAMAP_DBG_FREE_INVALID,
			       "dmamap_free_pages: %p is not an allocated block of order %u",
			       (void *)page, order);
}
