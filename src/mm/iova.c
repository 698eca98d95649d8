/* SPDX-License-Identifier: MIT */
/*
 * IOVA space: a buddy allocator over IO page frames (naturally aligned
 * ranges, as the kernel's size-aligned IOVAs), fronted by per-thread-shard
 * magazines of freed ranges for the small orders, so map/unmap reach the
 * shared allocator only when a magazine runs empty or full.
 */
#include <stdlib.h>
#include <pthread.h>
#include "../lib/lib.h"
#include "../lib/shard.h"
#include "../lib/spinlock.h"
#include "buddy.h"
#include "iova.h"

#define CACHE_ORDERS DMAMAP_IOVA_CACHE_ORDERS
#define MAG 256
#define REFILL 7
#define REFILL_ORDER 3 /* a block of REFILL + 1 ranges */

/* Lock, counts and counters share the first line: one line per hit besides the pfn. */
struct iova_shard {
	int lock;
	unsigned int n[CACHE_ORDERS];
	uint64_t allocs, hits, failures;
	u64 pfn[CACHE_ORDERS][MAG];
} __attribute__((aligned(64)));

struct dmamap_iova {
	u64 base_pfn;
	unsigned long npages;
	struct dmamap_buddy *buddy;
	struct iova_shard shards[DMAMAP_STAT_SHARDS];
};

struct dmamap_iova *dmamap__iova_create_order(u64 base, u64 end, unsigned int max_order)
{
	struct dmamap_iova *v = dmamap__zalloc_lines(sizeof(*v));

	if (!v)
		return NULL;
	v->base_pfn = base >> PAGE_SHIFT;
	v->npages = (unsigned long)((end - base) >> PAGE_SHIFT);
	v->buddy = dmamap__buddy_create(v->base_pfn, v->npages, max_order);
	if (!v->buddy) {
		free(v);
		return NULL;
	}
	return v;
}

void dmamap__iova_destroy(struct dmamap_iova *v)
{
	if (!v)
		return;
	dmamap__buddy_destroy(v->buddy);
	free(v);
}

/* With @s locked: keep a free range in the magazine, or give it back to the buddy. */
static inline void stash(struct dmamap_iova *v, struct iova_shard *s, u64 pfn, unsigned int order)
{
	if (order < CACHE_ORDERS && s->n[order] < MAG)
		s->pfn[order][s->n[order]++] = pfn;
	else
		dmamap__buddy_free(v->buddy, (unsigned long)(pfn - v->base_pfn), order);
}

/*
 * Every shard's kept ranges back to the buddy, so they can merge and serve
 * other sizes (as the kernel frees its CPU caches of IOVAs when the space
 * runs out).
 */
static __attribute__((noinline)) void flush_magazines(struct dmamap_iova *v)
{
	for (unsigned int k = 0; k < DMAMAP_STAT_SHARDS; k++) {
		struct iova_shard *t = &v->shards[k];

		dmamap__spin_lock(&t->lock);
		for (unsigned int order = 0; order < CACHE_ORDERS; order++)
			while (t->n[order])
				dmamap__buddy_free(v->buddy,
						   (unsigned long)(t->pfn[order][--t->n[order]] -
								   v->base_pfn),
						   order);
		dmamap__spin_unlock(&t->lock);
	}
}

/* The magazine was empty or the order too big: the buddy, and a refill. */
static __attribute__((noinline)) u64 iova_alloc_slow(struct dmamap_iova *v,
						     struct iova_shard *s,
						     unsigned int order)
{
	long idx = -1;

	if (order < CACHE_ORDERS) {
		/*
		 * A naturally aligned block of REFILL + 1 ranges, split here:
		 * this thread's IO page table entries then fill whole cache
		 * lines (8 entries a line) that no other thread's share. Ranges
		 * picked one by one from a fragmented space could interleave
		 * with another thread's and make every map and unmap bounce a
		 * line between the two.
		 */
		long blk = dmamap__buddy_alloc_split(v->buddy, order, REFILL_ORDER);

		if (blk >= 0) {
			dmamap__spin_lock(&s->lock);
			for (unsigned int i = REFILL; i >= 1; i--) {
				stash(v, s, v->base_pfn + (u64)blk + ((u64)i << order), order);
			}
			dmamap__spin_unlock(&s->lock);
			return (v->base_pfn + (u64)blk) << PAGE_SHIFT;
		}
	}
	idx = dmamap__buddy_alloc(v->buddy, order);
	if (idx >= 0 && order < CACHE_ORDERS) {
		/* No aligned block left: a few single ranges, neighbours if we are lucky. */
		dmamap__spin_lock(&s->lock);
		for (unsigned int i = 0; i < REFILL && s->n[order] < MAG; i++) {
			long more = dmamap__buddy_alloc(v->buddy, order);

			if (more < 0)
				break;
			s->pfn[order][s->n[order]++] = v->base_pfn + (u64)more;
		}
		dmamap__spin_unlock(&s->lock);
	}
	if (idx < 0) {
		/* What the magazines keep may be what is missing: give it back and try again. */
		flush_magazines(v);
		idx = dmamap__buddy_alloc(v->buddy, order);
	}
	if (idx < 0) {
		dmamap__spin_lock(&s->lock);
		s->failures++;
		dmamap__spin_unlock(&s->lock);
		return 0;
	}
	return (v->base_pfn + (u64)idx) << PAGE_SHIFT;
}

u64 dmamap__iova_alloc(struct dmamap_iova *v, unsigned int order)
{
	struct iova_shard *s = &v->shards[dmamap__my_shard()];

	if (likely(order < CACHE_ORDERS)) {
		u64 pfn = 0;

		dmamap__spin_lock(&s->lock);
		s->allocs++;
		if (likely(s->n[order])) {
			pfn = s->pfn[order][--s->n[order]];
			s->hits++;
		}
		dmamap__spin_unlock(&s->lock);
		if (likely(pfn))
			return pfn << PAGE_SHIFT;
	}
	return iova_alloc_slow(v, s, order);
}

void dmamap__iova_free(struct dmamap_iova *v, u64 iova, unsigned int order)
{
	struct iova_shard *s = &v->shards[dmamap__my_shard()];

	dmamap__spin_lock(&s->lock);
	stash(v, s, iova >> PAGE_SHIFT, order);
	dmamap__spin_unlock(&s->lock);
}

void dmamap__iova_free_batch(struct dmamap_iova *v, const u64 *ranges, unsigned int n)
{
	struct iova_shard *s = &v->shards[dmamap__my_shard()];

	/* The buddy's lock nests inside a shard's, as in the refill above. */
	dmamap__spin_lock(&s->lock);
	for (unsigned int i = 0; i < n; i++)
		stash(v, s, ranges[i] >> PAGE_SHIFT, (unsigned int)(ranges[i] & (PAGE_SIZE - 1)));
	dmamap__spin_unlock(&s->lock);
}

void dmamap__iova_counts(struct dmamap_iova *v, uint64_t *allocs, uint64_t *hits,
			 uint64_t *failures)
{
	*allocs = *hits = *failures = 0;
	for (unsigned int i = 0; i < DMAMAP_STAT_SHARDS; i++) {
		struct iova_shard *s = &v->shards[i];

		dmamap__spin_lock(&s->lock);
		*allocs += s->allocs;
		*hits += s->hits;
		*failures += s->failures;
		dmamap__spin_unlock(&s->lock);
	}
}
