/* SPDX-License-Identifier: MIT */
/*
 * Physically contiguous allocations for devices: CMA for the large and
 * the contiguous-by-request ones, pages for the rest, as Linux's
 * dma_alloc_contiguous() and its fallback. The direct backend and the
 * IOMMU's contiguous buffers take them and give them back here.
 */
#include "../lib/lib.h"
#include "../lib/fault.h"
#include "cma.h"
#include "zones.h"

/* The area holding @phys, or NULL. */
static struct dmamap_cma *area_of(const struct dmamap_platform *p, phys_addr_t phys)
{
	if (dmamap__cma_contains(p->mm->cma, phys))
		return p->mm->cma;
	for (unsigned int i = 0; i < p->mm->nr_cma_areas; i++)
		if (dmamap__cma_contains(p->mm->cma_areas[i], phys))
			return p->mm->cma_areas[i];
	return NULL;
}

static struct dmamap_cma *dev_cma(const struct device *dev)
{
	return dev->cma_area ? dev->cma_area : dev->plat->mm->cma;
}

bool dmamap__in_cma(const struct dmamap_platform *p, phys_addr_t phys)
{
	return area_of(p, phys) != NULL;
}

bool dmamap__wants_cma(const struct device *dev, size_t size, gfp_t gfp, unsigned long attrs)
{
	if (!dev_cma(dev))
		return false;
	if (attrs & DMA_ATTR_FORCE_CONTIGUOUS)
		return true;
	return (gfp & __GFP_DIRECT_RECLAIM) && (dev->cma_area || size > PAGE_SIZE);
}

phys_addr_t dmamap__alloc_from_cma(struct device *dev, size_t size)
{
	struct dmamap_cma *c = dev_cma(dev);

	if (!c)
		return PHYS_NONE;
	return dmamap__cma_alloc(c, PAGE_ALIGN(size) >> PAGE_SHIFT);
}

phys_addr_t dmamap__alloc_from_board_cma(struct dmamap_platform *p, size_t size)
{
	if (!p->mm->cma || dmamap__fault(&p->fault, DMAMAP_FAULT_ALLOC))
		return PHYS_NONE;
	return dmamap__cma_alloc(p->mm->cma, PAGE_ALIGN(size) >> PAGE_SHIFT);
}

void dmamap__board_cma_range(const struct dmamap_platform *p, phys_addr_t *start, u64 *size)
{
	dmamap__cma_range(p->mm->cma, start, size);
}

int dmamap__device_cma(struct device *dev, phys_addr_t start, u64 size)
{
	struct dmamap_mm *mm = dev->plat->mm;

	for (unsigned int i = 0; i < mm->nr_cma_areas; i++) {
		phys_addr_t s;
		u64 n;

		dmamap__cma_range(mm->cma_areas[i], &s, &n);
		if (s == start && n == size) {
			dev->cma_area = mm->cma_areas[i];
			return 0;
		}
	}
	return -EINVAL;
}

void dmamap__cma_area_of(const struct device *dev, phys_addr_t *start, u64 *size)
{
	dmamap__cma_range(dev->cma_area, start, size);
}

int dmamap__free_contiguous(struct dmamap_platform *p, phys_addr_t phys, size_t size)
{
	struct dmamap_cma *c = area_of(p, phys);

	size = PAGE_ALIGN(size);
	if (c)
		return dmamap__cma_release(c, phys, size >> PAGE_SHIFT);
	return dmamap__pages_free(p, phys, dmamap__get_order(size));
}

bool dmamap__is_contiguous(struct dmamap_platform *p, phys_addr_t phys, size_t size)
{
	struct dmamap_cma *c = area_of(p, phys);

	size = PAGE_ALIGN(size);
	if (c)
		return dmamap__cma_is_run(c, phys, size >> PAGE_SHIFT);
	return dmamap__pages_is_block(p, phys, dmamap__get_order(size));
}
