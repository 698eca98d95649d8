/* SPDX-License-Identifier: MIT */
#ifndef DMAMAP_MM_IOVA_H
#define DMAMAP_MM_IOVA_H

#include <dmamap/types.h>

struct dmamap_iova;

/* Ranges below this order are kept in per-thread caches: the cheap sizes. */
#define DMAMAP_IOVA_CACHE_ORDERS 6

/* IOVA space [base, end), page aligned; its largest range 2^@max_order pages. */
struct dmamap_iova *dmamap__iova_create_order(u64 base, u64 end, unsigned int max_order);
/* The same, ranges up to 2^16 pages (256 MiB): what one mapping of the simulated IOMMU needs. */
static inline struct dmamap_iova *dmamap__iova_create(u64 base, u64 end)
{
	return dmamap__iova_create_order(base, end, 16);
}
void dmamap__iova_destroy(struct dmamap_iova *v);
/* A naturally aligned range of 2^order pages; 0 when the space is full. */
u64 dmamap__iova_alloc(struct dmamap_iova *v, unsigned int order);
void dmamap__iova_free(struct dmamap_iova *v, u64 iova, unsigned int order);
/* A range in one word: its page-aligned IOVA, its order in the low bits. */
static inline u64 dmamap__iova_range(u64 iova, unsigned int order)
{
	return iova | order;
}

/* Free @n ranges (dmamap__iova_range()) at once, under one lock. */
void dmamap__iova_free_batch(struct dmamap_iova *v, const u64 *ranges, unsigned int n);
void dmamap__iova_counts(struct dmamap_iova *v, uint64_t *allocs, uint64_t *hits,
			 uint64_t *failures);

#endif
