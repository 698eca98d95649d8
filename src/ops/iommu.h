/* SPDX-License-Identifier: MIT */
/* The IOMMU backend, as the platform's setup sees it: domains and attaching a device. */
#ifndef DMAMAP_OPS_IOMMU_H
#define DMAMAP_OPS_IOMMU_H

#include "../base/device.h"

int dmamap__iommu_init(struct dmamap_platform *p);
void dmamap__iommu_fini(struct dmamap_platform *p);
/*
 * Put @dev behind IOMMU @iommu: its group's domain (a new one for group 0
 * or a group not seen yet), starting in lazy flush mode if @lazy; its ops
 * become the IOMMU's. The caller refreshes the device. 0 or -ENOMEM.
 */
int dmamap__iommu_attach(struct device *dev, const char *iommu, unsigned int group, bool lazy);
void dmamap__iommu_detach(struct device *dev);
/* The name of the IOMMU @dev is behind, "" if none. */
const char *dmamap__iommu_name(const struct device *dev);
/* Whether @dev maps through its IOMMU (attached, and the IOMMU's table in force). */
bool dmamap__iommu_in_use(const struct device *dev);

/*
 * The two-step IOVA API's backend (iommu_link.c), for a device in use of
 * its IOMMU. An IOVA range of @size bytes, mapped to nothing yet (0, or
 * -ENOMEM when the space or the mask has none); given back.
 */
int dmamap__iommu_iova_alloc(struct device *dev, size_t size, dma_addr_t *iova);
void dmamap__iommu_iova_free(struct device *dev, dma_addr_t iova, size_t size);
/*
 * Map the pages of [@phys, +@size) at @iova (same offset in the page), with
 * the permissions @dir allows, cleaned for the device unless
 * DMA_ATTR_SKIP_CPU_SYNC. 0; -EEXIST when a page is already mapped;
 * -ENOMEM when the page table cannot grow.
 */
int dmamap__iommu_iova_link(struct device *dev, dma_addr_t iova, phys_addr_t phys, size_t size,
			    enum dma_data_direction dir, unsigned long attrs);
/* The CPU side of the maintenance, then unmap [@iova, +@size) with one IOTLB invalidation. */
void dmamap__iommu_iova_unlink(struct device *dev, dma_addr_t iova, size_t size,
			       enum dma_data_direction dir, unsigned long attrs);

#endif
