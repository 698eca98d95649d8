/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "buddy.h"
#include "../lib/mem.h"

#define ST_FREE 0x80
#define ST_HEAD 0x40
#define ORDER_BITS 0x3f

struct dmamap_buddy {
	pthread_mutex_t lock;
	uint64_t first_pfn;
	unsigned long npages;
	unsigned int max_order;
	unsigned long nfree;
	uint8_t *state;  /* per frame: head flags | order */
	int32_t *next, *prev;
	int32_t head[32];
};

/*
 * The per-frame arrays of a large buddy (an IOMMU domain's IOVA space is up
 * to 4 GiB, a million frames, of which a run touches a few) are zero pages
 * mapped for it and committed as touched: on 64-bit glibc calloc clears
 * them in full once frees have raised its mmap threshold, which was most
 * of the cost of making a board. They hold indices only, no pointers a
 * leak checker would need to scan.
 */
#define BUDDY_MAPPED_MIN (64 * 1024)

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

/* The mapping's bytes past the array, which a heap block's redzone would have caught. */
static size_t frames_slack(size_t len)
{
	return dmamap__host_pages_of(len) - len;
}

static void *frames_alloc(unsigned long npages, size_t size)
{
	size_t len = npages * size;
	void *m;

#if SIZE_MAX / 4 < INT32_MAX
	/* A 32-bit host: more frames than its address space holds arrays for. */
	if (npages > SIZE_MAX / size)
		return NULL;
#endif
	if (len < BUDDY_MAPPED_MIN)
		return dmamap__calloc(npages, size);
	m = dmamap__zeroed_pages(len);
	if (!m)
		return NULL;
	/* A transparent huge page would commit 2 MiB at each sparse touch. */
	(void)madvise(m, len, MADV_NOHUGEPAGE);
	ASAN_POISON_MEMORY_REGION((char *)m + len, frames_slack(len));
	return m;
}

static void frames_free(void *m, unsigned long npages, size_t size)
{
	size_t len = npages * size;

	if (!m)
		return;
	if (len < BUDDY_MAPPED_MIN) {
		free(m);
		return;
	}
	/* Whatever is mapped here next must not inherit the poison. */
	ASAN_UNPOISON_MEMORY_REGION((char *)m + len, frames_slack(len));
	dmamap__munmap(m, len);
}

static void list_add(struct dmamap_buddy *b, long i, unsigned int order)
{
	b->state[i] = ST_FREE | ST_HEAD | order;
	b->prev[i] = -1;
	b->next[i] = b->head[order];
	if (b->head[order] >= 0)
		b->prev[b->head[order]] = (int32_t)i;
	b->head[order] = (int32_t)i;
}

static void list_del(struct dmamap_buddy *b, long i, unsigned int order)
{
	if (b->prev[i] >= 0)
		b->next[b->prev[i]] = b->next[i];
	else
		b->head[order] = b->next[i];
	if (b->next[i] >= 0)
		b->prev[b->next[i]] = b->prev[i];
	b->state[i] = 0;
}

struct dmamap_buddy *dmamap__buddy_create(uint64_t first_pfn,
					  unsigned long npages,
					  unsigned int max_order)
{
	struct dmamap_buddy *b;
	unsigned long i = 0;

	if (!npages || npages > INT32_MAX || max_order > 30)
		return NULL;
	b = dmamap__calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->npages = npages;
	b->state = frames_alloc(npages, 1);
	b->next = frames_alloc(npages, sizeof(int32_t));
	b->prev = frames_alloc(npages, sizeof(int32_t));
	if (!b->state || !b->next || !b->prev) {
		dmamap__buddy_destroy(b);
		return NULL;
	}
	pthread_mutex_init(&b->lock, NULL);
	b->first_pfn = first_pfn;
	b->max_order = max_order;
	for (unsigned int o = 0; o < 32; o++)
		b->head[o] = -1;
	while (i < npages) {
		unsigned int o = max_order;

		while (o && (((first_pfn + i) & ((1UL << o) - 1)) ||
			     i + (1UL << o) > npages))
			o--;
		list_add(b, (long)i, o);
		i += 1UL << o;
	}
	b->nfree = npages;
	return b;
}

void dmamap__buddy_destroy(struct dmamap_buddy *b)
{
	if (!b)
		return;
	frames_free(b->state, b->npages, 1);
	frames_free(b->next, b->npages, sizeof(int32_t));
	frames_free(b->prev, b->npages, sizeof(int32_t));
	free(b);
}

/* With the lock held: a free 2^order block, marked allocated, or -1. */
static long alloc_locked(struct dmamap_buddy *b, unsigned int order)
{
	unsigned int o = order;
	long i;

	while (o <= b->max_order && b->head[o] < 0)
		o++;
	if (o > b->max_order)
		return -1;
	i = b->head[o];
	list_del(b, i, o);
	while (o > order) {
		o--;
		list_add(b, i + (1L << o), o);
	}
	b->state[i] = ST_HEAD | order;
	b->nfree -= 1UL << order;
	return i;
}

long dmamap__buddy_alloc(struct dmamap_buddy *b, unsigned int order)
{
	long i;

	if (order > b->max_order)
		return -1;
	pthread_mutex_lock(&b->lock);
	i = alloc_locked(b, order);
	pthread_mutex_unlock(&b->lock);
	return i;
}

long dmamap__buddy_alloc_split(struct dmamap_buddy *b, unsigned int order,
			       unsigned int split)
{
	long i;

	if (order + split > b->max_order)
		return -1;
	pthread_mutex_lock(&b->lock);
	i = alloc_locked(b, order + split);
	/* Each part is then a block of its own, freed (and merged) one by one. */
	for (unsigned long k = 0; i >= 0 && k < (1UL << split); k++)
		b->state[i + (long)(k << order)] = ST_HEAD | order;
	pthread_mutex_unlock(&b->lock);
	return i;
}

int dmamap__buddy_free(struct dmamap_buddy *b, unsigned long idx,
		       unsigned int order)
{
	unsigned long i = idx;
	unsigned int o = order;

	if (idx >= b->npages)
		return -EINVAL;
	pthread_mutex_lock(&b->lock);
	if (b->state[idx] != (ST_HEAD | order)) {
		pthread_mutex_unlock(&b->lock);
		return -EINVAL;
	}
	b->state[idx] = 0;
	b->nfree += 1UL << order;
	while (o < b->max_order) {
		uint64_t pfn = b->first_pfn + i;
		uint64_t bpfn = pfn ^ (1ULL << o);
		unsigned long bi;

		if (bpfn < b->first_pfn)
			break;
		bi = (unsigned long)(bpfn - b->first_pfn);
		if (bi + (1UL << o) > b->npages ||
		    b->state[bi] != (ST_FREE | ST_HEAD | o))
			break;
		list_del(b, (long)bi, o);
		if (bi < i)
			i = bi;
		o++;
	}
	list_add(b, (long)i, o);
	pthread_mutex_unlock(&b->lock);
	return 0;
}

bool dmamap__buddy_is_block(struct dmamap_buddy *b, unsigned long idx,
			    unsigned int order)
{
	bool ret;

	if (idx >= b->npages)
		return false;
	pthread_mutex_lock(&b->lock);
	ret = b->state[idx] == (ST_HEAD | order);
	pthread_mutex_unlock(&b->lock);
	return ret;
}

unsigned long dmamap__buddy_free_pages(struct dmamap_buddy *b)
{
	unsigned long n;

	pthread_mutex_lock(&b->lock);
	n = b->nfree;
	pthread_mutex_unlock(&b->lock);
	return n;
}
