/* SPDX-License-Identifier: MIT */
/*
 * A binary buddy allocator over a run of page frames. Its bookkeeping lives
 * beside the memory, never inside it: on a simulated board a free-list
 * pointer written into RAM would dirty cache lines the model watches.
 */
#ifndef DMAMAP_MM_BUDDY_H
#define DMAMAP_MM_BUDDY_H

#include <stdbool.h>
#include <stdint.h>

struct dmamap_buddy;

/* Frames [first_pfn, first_pfn + npages); blocks are aligned by pfn. */
struct dmamap_buddy *dmamap__buddy_create(uint64_t first_pfn,
					  unsigned long npages,
					  unsigned int max_order);
void dmamap__buddy_destroy(struct dmamap_buddy *b);
/* Index (from the first frame) of a free 2^order block, or -1. */
long dmamap__buddy_alloc(struct dmamap_buddy *b, unsigned int order);
/*
 * A naturally aligned run of 2^split blocks of 2^order frames, each
 * allocated (and to be freed) on its own: index of the first, or -1.
 */
long dmamap__buddy_alloc_split(struct dmamap_buddy *b, unsigned int order,
			       unsigned int split);
/* 0, or -EINVAL when @idx is not the head of an allocated 2^order block. */
int dmamap__buddy_free(struct dmamap_buddy *b, unsigned long idx,
		       unsigned int order);
unsigned long dmamap__buddy_free_pages(struct dmamap_buddy *b);
/* Whether @idx heads an allocated block of exactly 2^order pages. */
bool dmamap__buddy_is_block(struct dmamap_buddy *b, unsigned long idx,
			    unsigned int order);

#endif
