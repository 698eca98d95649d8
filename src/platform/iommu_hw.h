/* SPDX-License-Identifier: MIT */
#ifndef DMAMAP_PLATFORM_IOMMU_HW_H
#define DMAMAP_PLATFORM_IOMMU_HW_H

#include "../internal.h"

/* One domain's IO page table and IOTLB, as the hardware holds them. */
struct dmamap_iopt {
	int lock;     /* page-table updates and walks */
	int tlb_lock; /* the IOTLB */
	void *root;
	void *iotlb;
	u64 mapped;   /* leaf entries live */
	u64 hits, misses, invalidations;
	u64 translation_faults, permission_faults;
};

int dmamap__iopt_init(struct dmamap_iopt *pt);
void dmamap__iopt_fini(struct dmamap_iopt *pt);
int dmamap__iopt_map(struct dmamap_iopt *pt, u64 iova, phys_addr_t phys,
		     u64 npages, bool read, bool write);
void dmamap__iopt_unmap(struct dmamap_iopt *pt, u64 iova, u64 npages);
phys_addr_t dmamap__iopt_walk(struct dmamap_iopt *pt, u64 iova);
void dmamap__iotlb_invalidate(struct dmamap_iopt *pt, u64 iova, u64 npages);
phys_addr_t dmamap__iommu_translate(struct dmamap_iopt *pt, u64 iova, bool write,
				    const char **why);

#endif
