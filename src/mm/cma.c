/* SPDX-License-Identifier: MIT */
/*
 * CMA: a physically contiguous area reserved at boot, handed out in
 * aligned runs of pages (aligned to the allocation's power-of-two size, up
 * to 1 MiB, as cma_alloc does with its order alignment). Each run's length
 * is kept at its first page so a release with the wrong size is caught.
 */
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "../lib/lib.h"
#include "cma.h"
#include "zones.h"
#include "../lib/mem.h"

#define CMA_MAX_ALIGN_ORDER 8 /* 1 MiB with 4 KiB pages */

struct dmamap_cma {
	pthread_mutex_t lock;
	phys_addr_t start;
	unsigned long npages;
	uint32_t *run; /* per page: 0 free; at a run's head its length; else ~0 */
	unsigned long used, high_water, allocs, failures;
};

struct dmamap_cma *dmamap__cma_create(phys_addr_t start, u64 size)
{
	struct dmamap_cma *c = dmamap__calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->npages = (unsigned long)(size >> PAGE_SHIFT);
	c->run = dmamap__calloc(c->npages, sizeof(*c->run));
	if (!c->run) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->start = start;
	return c;
}

void dmamap__cma_destroy(struct dmamap_cma *c)
{
	if (!c)
		return;
	pthread_mutex_destroy(&c->lock);
	free(c->run);
	free(c);
}

bool dmamap__cma_contains(const struct dmamap_cma *c, phys_addr_t phys)
{
	return c && phys >= c->start && phys - c->start < ((u64)c->npages << PAGE_SHIFT);
}

phys_addr_t dmamap__cma_alloc(struct dmamap_cma *c, unsigned long count)
{
	unsigned int order = dmamap__get_order(count << PAGE_SHIFT);
	unsigned long align = 1UL << MIN(order, (unsigned int)CMA_MAX_ALIGN_ORDER);
	/* Aligned in physical memory, wherever the area itself starts. */
	unsigned long first;
	phys_addr_t phys = PHYS_NONE;

	if (!c || !count || count > c->npages)
		return PHYS_NONE;
	first = (unsigned long)((align - ((c->start >> PAGE_SHIFT) % align)) % align);
	pthread_mutex_lock(&c->lock);
	for (unsigned long i = first; i + count <= c->npages; i += align) {
		unsigned long j;

		for (j = 0; j < count && !c->run[i + j]; j++)
			;
		if (j < count)
			continue;
		c->run[i] = (uint32_t)count;
		for (j = 1; j < count; j++)
			c->run[i + j] = ~0u;
		c->used += count;
		c->high_water = MAX(c->high_water, c->used);
		c->allocs++;
		phys = c->start + ((phys_addr_t)i << PAGE_SHIFT);
		break;
	}
	if (phys == PHYS_NONE)
		c->failures++;
	pthread_mutex_unlock(&c->lock);
	return phys;
}

/* The page index of @phys heading @count pages inside the area, or -1. */
static long run_index(const struct dmamap_cma *c, phys_addr_t phys, unsigned long count)
{
	u64 i;

	if (!count || !dmamap__cma_contains(c, phys) || (phys & (PAGE_SIZE - 1)))
		return -1;
	i = (phys - c->start) >> PAGE_SHIFT;
	return count <= c->npages - i ? (long)i : -1;
}

bool dmamap__cma_is_run(struct dmamap_cma *c, phys_addr_t phys, unsigned long count)
{
	long i = run_index(c, phys, count);
	bool ok;

	if (i < 0)
		return false;
	pthread_mutex_lock(&c->lock);
	ok = c->run[i] == count;
	pthread_mutex_unlock(&c->lock);
	return ok;
}

int dmamap__cma_release(struct dmamap_cma *c, phys_addr_t phys, unsigned long count)
{
	long i = run_index(c, phys, count);
	int ret = 0;

	if (i < 0)
		return -EINVAL;
	pthread_mutex_lock(&c->lock);
	if (c->run[i] != count) {
		ret = -EINVAL;
	} else {
		memset(c->run + i, 0, count * sizeof(*c->run));
		c->used -= count;
	}
	pthread_mutex_unlock(&c->lock);
	return ret;
}

int dmamap_cma_stats(struct dmamap_platform *p, struct dmamap_cma_stats *s)
{
	struct dmamap_cma *c;
	unsigned long run = 0;

	if (!p || !s)
		return -EINVAL;
	if (!(c = p->mm->cma))
		return -ENODEV;
	memset(s, 0, sizeof(*s));
	pthread_mutex_lock(&c->lock);
	s->start = c->start;
	s->total_pages = c->npages;
	s->used_pages = c->used;
	s->high_water = c->high_water;
	s->allocs = c->allocs;
	s->failures = c->failures;
	for (unsigned long i = 0; i < c->npages; i++) {
		run = c->run[i] ? 0 : run + 1;
		s->largest_free_run = MAX(s->largest_free_run, run);
	}
	pthread_mutex_unlock(&c->lock);
	return 0;
}

void dmamap__cma_range(const struct dmamap_cma *c, phys_addr_t *start, u64 *size)
{
	*start = c ? c->start : 0;
	*size = c ? (u64)c->npages << PAGE_SHIFT : 0;
}
