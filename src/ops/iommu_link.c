/* SPDX-License-Identifier: MIT */
/*
 * The IOMMU's side of Linux's two-step IOVA API: one IOVA range taken
 * first, physical ranges linked into it and unlinked from it one by one,
 * each unlink invalidating the IOTLB for its whole range at once.
 */
#include "../base/report.h"
#include "iommu.h"
#include "iommu_int.h"

int dmamap__iommu_iova_alloc(struct device *dev, size_t size, dma_addr_t *iova)
{
	struct dmamap_iommu_domain *d = dev->iommu_domain;
	u64 npages = pages_spanned(0, size), at;

	if (range_too_big(0, size))
		return -ENOMEM;
	at = dmamap__iova_alloc(d->iova, order_of(npages));
	if (!at)
		return -ENOMEM;
	/* As for a mapping: the device must be able to drive every address of it. */
	if (at + (npages << PAGE_SHIFT) - 1 > *dev->dma_mask) {
		dmamap__iova_free(d->iova, at, order_of(npages));
		return -ENOMEM;
	}
	*iova = at;
	return 0;
}

void dmamap__iommu_iova_free(struct device *dev, dma_addr_t iova, size_t size)
{
	struct dmamap_iommu_domain *d = dev->iommu_domain;

	dmamap__iova_free(d->iova, iova & PAGE_MASK, order_of(pages_spanned(iova, size)));
}

int dmamap__iommu_iova_link(struct device *dev, dma_addr_t iova, phys_addr_t phys, size_t size,
			    enum dma_data_direction dir, unsigned long attrs)
{
	struct dmamap_iommu_domain *d = dev->iommu_domain;
	u64 npages = pages_spanned(phys, size);

	/* A page linked twice would point at the second piece only: refused, as iommu_map() does. */
	for (u64 i = 0; i < npages; i++)
		if (dmamap__iopt_walk(&d->pt, (iova & PAGE_MASK) + (i << PAGE_SHIFT)) != PHYS_NONE)
			return -EEXIST;
	if (dmamap__iopt_map(&d->pt, iova & PAGE_MASK, phys & PAGE_MASK, npages,
			     iommu_prot(dir, attrs)))
		return -ENOMEM;
	IOPT_COUNT(&d->pt, map_calls, 1);
	dmamap__stat_add(dev, ST_IOMMU_PAGES, npages);
	if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmamap__iommu_sync_iova(dev, iova, size, dir, false);
	return 0;
}

void dmamap__iommu_iova_unlink(struct device *dev, dma_addr_t iova, size_t size,
			       enum dma_data_direction dir, unsigned long attrs)
{
	struct dmamap_iommu_domain *d = dev->iommu_domain;
	u64 npages = pages_spanned(iova, size);

	if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		dmamap__iommu_sync_iova(dev, iova, size, dir, true);
	dmamap__iopt_unmap(&d->pt, iova & PAGE_MASK, npages);
	IOPT_COUNT(&d->pt, unmap_calls, 1);
	/* One invalidation for the whole range, however many links it held. */
	dmamap__iotlb_invalidate(&d->pt, iova & PAGE_MASK, npages);
}
