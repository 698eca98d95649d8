/* SPDX-License-Identifier: MIT */
/*
 * Small helpers every layer uses: branch hints, sizes, the "no physical
 * address" sentinel and memory aligned to cache lines. Nothing here knows
 * about devices or platforms.
 */
#ifndef DMAMAP_LIB_LIB_H
#define DMAMAP_LIB_LIB_H

#include <stdlib.h>
#include <string.h>
#include <dmamap/types.h>
#include <dmamap/page.h>
#include "mem.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
/* "No physical address": what lookups return for memory that is not there. */
#define PHYS_NONE (~(phys_addr_t)0)

/*
 * Zeroed memory on a cache-line boundary, for structures whose per-thread
 * parts are aligned to lines: calloc promises only 16 bytes, and a shard
 * straddling two lines would share one with its neighbour. Freed with free().
 */
static inline void *dmamap__zalloc_lines(size_t size)
{
	size_t rounded = (size + 63) & ~(size_t)63;
	void *m = rounded >= size ? dmamap__aligned_alloc(64, rounded) : NULL;

	if (m)
		memset(m, 0, rounded);
	return m;
}

/* The order of the smallest block of pages holding @size bytes (0 for a page or less). */
static inline unsigned int dmamap__get_order(u64 size)
{
	u64 pages = (size - 1) >> PAGE_SHIFT;

	return pages ? 64 - (unsigned int)__builtin_clzll(pages) : 0;
}

#endif
