/* SPDX-License-Identifier: MIT */
/*
 * DMA pools: small blocks carved from coherent allocations. Each
 * allocation ("chunk") holds the same layout of blocks, none crossing the
 * pool's boundary; a chunk keeps a stack of its free blocks and a bitmap
 * of those in use, so a bad or double free is caught whatever the checker.
 * The chunks' memory is not recorded by the checker; the blocks are,
 * one by one, so a device touching a freed block is seen.
 */
#include <dmamap/dmapool.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/lib.h"
#include "../base/report.h"
#include "../debug/checker.h"
#include "core.h"
#include "../lib/mem.h"

struct chunk {
	struct chunk *next;
	uint8_t *vaddr;
	dma_addr_t dma;
	unsigned int nfree;
	uint32_t *free;  /* block indexes, a stack */
	uint64_t *used;  /* bit per block */
};

struct dma_pool {
	char name[32];
	struct device *dev;
	size_t size, allocation;
	unsigned int nblocks;
	uint32_t *offsets; /* of each block in a chunk */
	pthread_mutex_t lock;
	struct chunk *chunks;
	struct dmamap_dma_pool_stats stats;
};

static bool power_of_two(size_t v)
{
	return v && !(v & (v - 1));
}

/* Where blocks go in a chunk: one after the other, skipping to the next boundary. */
static unsigned int lay_out(size_t size, size_t allocation, size_t boundary, uint32_t *offsets)
{
	size_t offset = 0, next_boundary = boundary;
	unsigned int n = 0;

	while (offset + size <= allocation) {
		if (offset + size > next_boundary) {
			offset = next_boundary;
			next_boundary += boundary;
			continue;
		}
		if (offsets)
			offsets[n] = (uint32_t)offset;
		n++;
		offset += size;
	}
	return n;
}

static struct dma_pool *refuse(struct device *dev, const char *name, const char *why)
{
	dmamap__api_error(dev, "dma_pool_create", DMAMAP_ERRK_BAD_ARG, DMAMAP_DBG_INVALID_ARGUMENT,
			  "pool %s: %s", name ? name : "?", why);
	return NULL;
}

struct dma_pool *dma_pool_create_node(const char *name, struct device *dev, size_t size,
				      size_t align, size_t boundary, int node)
{
	struct dma_pool *pool;
	size_t allocation;

	(void)node;
	if (!dev) {
		dmamap__api_error(NULL, "dma_pool_create", DMAMAP_ERRK_NULL_ARG,
				  DMAMAP_DBG_NULL_DEVICE, "called with a NULL device");
		return NULL;
	}
	if (!align)
		align = 1;
	if (!power_of_two(align))
		return refuse(dev, name, "the alignment is not a power of two");
	if (!size || size > INT_MAX)
		return refuse(dev, name, "the block size is 0 or above INT_MAX");
	size = (size + align - 1) & ~(align - 1);
	allocation = MAX(size, PAGE_SIZE);
	if (!boundary)
		boundary = allocation;
	else if (boundary < size || !power_of_two(boundary))
		return refuse(dev, name, "the boundary is not a power of two at least the block size");
	boundary = MIN(boundary, allocation);

	if (dmamap__fault(&dev->plat->fault, DMAMAP_FAULT_ALLOC) ||
	    !(pool = dmamap__calloc(1, sizeof(*pool))))
		return NULL;
	pool->nblocks = lay_out(size, allocation, boundary, NULL);
	pool->offsets = dmamap__malloc(pool->nblocks * sizeof(*pool->offsets));
	if (!pool->offsets) {
		free(pool);
		return NULL;
	}
	lay_out(size, allocation, boundary, pool->offsets);
	snprintf(pool->name, sizeof(pool->name), "%s", name ? name : "");
	pool->dev = dev;
	pool->size = size;
	pool->allocation = allocation;
	pool->stats.block_size = size;
	pthread_mutex_init(&pool->lock, NULL);
	return pool;
}

struct dma_pool *dma_pool_create(const char *name, struct device *dev, size_t size,
				 size_t align, size_t boundary)
{
	return dma_pool_create_node(name, dev, size, align, boundary, -1);
}

static void chunk_free(struct chunk *c)
{
	free(c->free);
	free(c->used);
	free(c);
}

/* A new chunk, every block free; NULL (reported by the allocation) when memory is short. */
static struct chunk *chunk_new(struct dma_pool *pool, gfp_t gfp)
{
	struct device *dev = pool->dev;
	struct chunk *c;

	if (dmamap__fault(&dev->plat->fault, DMAMAP_FAULT_ALLOC) || !(c = dmamap__calloc(1, sizeof(*c))))
		return NULL;
	c->free = dmamap__malloc(pool->nblocks * sizeof(*c->free));
	c->used = dmamap__calloc((pool->nblocks + 63) / 64, sizeof(*c->used));
	if (!c->free || !c->used) {
		chunk_free(c);
		return NULL;
	}
	c->vaddr = dmamap__alloc_untracked(dev, pool->allocation, &c->dma, gfp, "dma_pool_alloc");
	if (!c->vaddr) {
		chunk_free(c);
		return NULL;
	}
	/* Handed out lowest first: the stack holds the last block at the bottom. */
	for (unsigned int i = 0; i < pool->nblocks; i++)
		c->free[i] = pool->nblocks - 1 - i;
	c->nfree = pool->nblocks;
	pool->stats.allocations++;
	pool->stats.total += pool->nblocks;
	return c;
}

void *dma_pool_alloc(struct dma_pool *pool, gfp_t mem_flags, dma_addr_t *handle)
{
	struct chunk *c;
	unsigned int b;
	void *block;

	if (!pool || !handle)
		return NULL;
	dmamap__api_yield(pool->dev); /* before the pool's lock: a handler may use the pool */
	pthread_mutex_lock(&pool->lock);
	for (c = pool->chunks; c && !c->nfree; c = c->next)
		;
	if (!c && (c = chunk_new(pool, mem_flags))) {
		c->next = pool->chunks;
		pool->chunks = c;
	}
	if (!c) {
		pool->stats.failures++;
		pthread_mutex_unlock(&pool->lock);
		return NULL;
	}
	b = c->free[--c->nfree];
	c->used[b / 64] |= 1ULL << (b % 64);
	block = c->vaddr + pool->offsets[b];
	*handle = c->dma + pool->offsets[b];
	pool->stats.allocs++;
	pool->stats.used++;
	pool->stats.high_water = MAX(pool->stats.high_water, pool->stats.used);
	pthread_mutex_unlock(&pool->lock);
	if (mem_flags & __GFP_ZERO)
		memset(block, 0, pool->size);
	if (dmamap__dbg_on(pool->dev)) {
		struct dbg_ref r = {
			.type = DBG_POOL, .addr = *handle, .size = pool->size,
			.dir = DMA_BIDIRECTIONAL,
			.phys = dmamap__dev_dma_to_phys(pool->dev, *handle, 1), .cpu = block,
			.caller = __builtin_return_address(0),
		};

		dmamap__dbg_map(pool->dev, &r);
	}
	return block;
}

void *dma_pool_zalloc(struct dma_pool *pool, gfp_t mem_flags, dma_addr_t *handle)
{
	return dma_pool_alloc(pool, mem_flags | __GFP_ZERO, handle);
}

/* The chunk holding @vaddr and the block's index in it, or NULL. Pool locked. */
static struct chunk *find_block(struct dma_pool *pool, const void *vaddr, unsigned int *index)
{
	for (struct chunk *c = pool->chunks; c; c = c->next) {
		uintptr_t off = (uintptr_t)vaddr - (uintptr_t)c->vaddr;

		if ((uintptr_t)vaddr < (uintptr_t)c->vaddr || off >= pool->allocation)
			continue;
		for (unsigned int i = 0; i < pool->nblocks; i++) {
			if (pool->offsets[i] == off) {
				*index = i;
				return c;
			}
		}
		return NULL;
	}
	return NULL;
}

static void free_refused(struct dma_pool *pool, void *vaddr, dma_addr_t addr, const char *why)
{
	dmamap__api_error(pool->dev, "dma_pool_free", DMAMAP_ERRK_BAD_HANDLE,
			  DMAMAP_DBG_FREE_INVALID, "pool %s: %p/0x%llx %s", pool->name, vaddr,
			  (unsigned long long)addr, why);
}

void dma_pool_free(struct dma_pool *pool, void *vaddr, dma_addr_t addr)
{
	unsigned int b = 0;
	struct chunk *c;
	const char *why = NULL;

	if (!pool || !vaddr)
		return;
	dmamap__api_yield(pool->dev);
	pthread_mutex_lock(&pool->lock);
	c = find_block(pool, vaddr, &b);
	if (!c)
		why = "is not a block of this pool";
	else if (c->dma + pool->offsets[b] != addr)
		why = "has another device address";
	else if (!(c->used[b / 64] & (1ULL << (b % 64))))
		why = "is already free";
	if (!why) {
		c->used[b / 64] &= ~(1ULL << (b % 64));
		c->free[c->nfree++] = b;
		pool->stats.frees++;
		pool->stats.used--;
	}
	pthread_mutex_unlock(&pool->lock);
	if (why) {
		free_refused(pool, vaddr, addr, why);
		return;
	}
	if (dmamap__dbg_on(pool->dev)) {
		struct dbg_ref r = {
			.type = DBG_POOL, .addr = addr, .size = pool->size,
			.dir = DMA_BIDIRECTIONAL, .phys = PHYS_NONE, .cpu = vaddr,
		};

		dmamap__dbg_unmap(pool->dev, &r);
	}
}

void dma_pool_destroy(struct dma_pool *pool)
{
	bool busy;

	if (!pool)
		return;
	busy = pool->stats.used != 0;
	if (busy)
		dmamap__report(pool->dev->plat, pool->dev, DMAMAP_DBG_LEAK,
			       "dma_pool_destroy: pool %s busy: %llu blocks still in use (its memory is kept)",
			       pool->name, (unsigned long long)pool->stats.used);
	while (pool->chunks) {
		struct chunk *c = pool->chunks;

		pool->chunks = c->next;
		if (!busy)
			dmamap__free_untracked(pool->dev, pool->allocation, c->vaddr, c->dma);
		chunk_free(c);
	}
	pthread_mutex_destroy(&pool->lock);
	free(pool->offsets);
	free(pool);
}

int dmamap_dma_pool_stats(struct dma_pool *pool, struct dmamap_dma_pool_stats *s)
{
	if (!pool || !s)
		return -EINVAL;
	pthread_mutex_lock(&pool->lock);
	*s = pool->stats;
	pthread_mutex_unlock(&pool->lock);
	return 0;
}

struct device *dmamap_dma_pool_device(const struct dma_pool *pool)
{
	return pool ? pool->dev : NULL;
}
