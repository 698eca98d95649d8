/* SPDX-License-Identifier: MIT */
/*
 * IOMMU hardware: a domain's IO page table and IOTLB, as the hardware holds
 * them. The IOMMU driver (ops/iommu) programs it; a bus master behind the
 * IOMMU reaches memory only through dmamap__iommu_translate().
 */
#ifndef DMAMAP_HW_IOPT_H
#define DMAMAP_HW_IOPT_H

#include <stddef.h>
#include <dmamap/iommu.h>
#include "../base/device.h"

/* Counters by thread shard, so the hot paths never share a written line. */
struct dmamap_iopt_counts {
	uint64_t hits, misses, invalidations;
	uint64_t translation_faults, permission_faults;
	uint64_t map_calls, unmap_calls;
} __attribute__((aligned(64)));

/* One domain's IO page table and IOTLB, and whom the IOMMU tells of a fault. */
struct dmamap_iopt {
	unsigned long id; /* never reused: names this table in per-thread caches */
	void *root;
	void *iotlb;
	dmamap_iommu_fault_fn fault_fn;
	void *fault_ctx;
	struct dmamap_iopt_counts counts[DMAMAP_STAT_SHARDS];
};

/* Inline: several counters move on every map and unmap. */
#define IOPT_COUNT_SHARD(pt, shard, f, n) \
	dmamap__count_add((uint64_t *)&(pt)->counts[(shard)].f, (uint64_t)(n))
#define IOPT_COUNT(pt, f, n) IOPT_COUNT_SHARD(pt, dmamap__my_shard(), f, n)
#define IOPT_TOTAL(pt, f) dmamap__iopt_count((pt), offsetof(struct dmamap_iopt_counts, f))

int dmamap__iopt_init(struct dmamap_iopt *pt);
void dmamap__iopt_fini(struct dmamap_iopt *pt);
/* What a mapping lets a device do: IOPT_READ, IOPT_WRITE, IOPT_PRIV (privileged accesses only). */
#define IOPT_READ 0x1u
#define IOPT_WRITE 0x2u
#define IOPT_PRIV 0x4u

int dmamap__iopt_map(struct dmamap_iopt *pt, u64 iova, phys_addr_t phys,
		     u64 npages, unsigned int prot);
/* Leaf entries now valid: a walk of the whole table. */
u64 dmamap__iopt_mapped(struct dmamap_iopt *pt);
/* Returns the number of entries that were mapped. */
u64 dmamap__iopt_unmap(struct dmamap_iopt *pt, u64 iova, u64 npages);
phys_addr_t dmamap__iopt_walk(struct dmamap_iopt *pt, u64 iova);
void dmamap__iotlb_invalidate(struct dmamap_iopt *pt, u64 iova, u64 npages);
/* @privileged: the access is a privileged transaction, which alone may use IOPT_PRIV mappings. */
phys_addr_t dmamap__iommu_translate(struct dmamap_iopt *pt, u64 iova, bool write,
				    bool privileged, const char **why);
uint64_t dmamap__iopt_count(struct dmamap_iopt *pt, size_t field);

#endif
