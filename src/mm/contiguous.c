/* SPDX-License-Identifier: MIT */
/*
 * Physically contiguous allocations for devices: CMA for the large and
 * the contiguous-by-request ones, pages for the rest, as Linux's
 * dma_alloc_contiguous() and its fallback. The direct backend and the
 * IOMMU's contiguous buffers take them and give them back here.
 */
#include "../lib/lib.h"
#include "cma.h"
#include "zones.h"

bool dmamap__has_cma(const struct dmamap_platform *p)
{
	return p->mm->cma != NULL;
}

bool dmamap__in_cma(const struct dmamap_platform *p, phys_addr_t phys)
{
	return dmamap__cma_contains(p->mm->cma, phys);
}

phys_addr_t dmamap__alloc_from_cma(struct dmamap_platform *p, size_t size)
{
	if (!p->mm->cma)
		return PHYS_NONE;
	return dmamap__cma_alloc(p->mm->cma, PAGE_ALIGN(size) >> PAGE_SHIFT);
}

int dmamap__free_contiguous(struct dmamap_platform *p, phys_addr_t phys, size_t size)
{
	size = PAGE_ALIGN(size);
	if (dmamap__cma_contains(p->mm->cma, phys))
		return dmamap__cma_release(p->mm->cma, phys, size >> PAGE_SHIFT);
	return dmamap__pages_free(p, phys, dmamap__get_order(size));
}

bool dmamap__is_contiguous(struct dmamap_platform *p, phys_addr_t phys, size_t size)
{
	size = PAGE_ALIGN(size);
	if (dmamap__cma_contains(p->mm->cma, phys))
		return dmamap__cma_is_run(p->mm->cma, phys, size >> PAGE_SHIFT);
	return dmamap__pages_is_block(p, phys, dmamap__get_order(size));
}
