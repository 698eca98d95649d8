/* SPDX-License-Identifier: MIT */
/*
 * DMA pools, as Linux's <linux/dmapool.h>: many small blocks of coherent
 * memory (descriptors, command buffers) carved from whole coherent
 * allocations, each block of one size and alignment and never crossing a
 * boundary the device cannot cross within one transfer.
 *
 * Blocks are coherent memory: no syncs. With the checker on, each block
 * is tracked as an allocation of its own (a "pool block"): a device that
 * touches a block after it was freed is reported (device-access-unmapped),
 * as is a block freed with dma_free_coherent() (wrong-type). Whatever the
 * checker, a free of memory that is not a block of the pool, or of a block
 * already free, is refused and reported (free-invalid), and a pool
 * destroyed with blocks in use is reported (leak).
 */
#ifndef DMAMAP_DMAPOOL_H
#define DMAMAP_DMAPOOL_H

#include <dmamap/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct dma_pool;

/**
 * dma_pool_create_node() - a pool of blocks of coherent memory
 * @name: for reports (a copy is kept; longer names are cut at 31 bytes)
 * @dev: the device that will use the blocks
 * @size: bytes in a block (rounded up to @align)
 * @align: alignment of each block's device address, and of its CPU
 *         address up to PAGE_SIZE (the allocations blocks come from are
 *         page aligned for the CPU); a power of two, 0 meaning 1
 * @boundary: a power of two no block may cross (0: none beyond the
 *            allocation the block comes from); at least @size
 * @node: NUMA node (ignored: boards have one)
 *
 * Blocks come from dma_alloc_coherent() allocations of max(@size,
 * PAGE_SIZE) bytes, made as needed, so they honour the device's coherent
 * mask and window and keep what its pools and IOMMU give.
 *
 * Return: the pool; NULL for a NULL @dev, a zero @size or one above
 * INT_MAX, an @align that is not a power of two, a @boundary that is not a
 * power of two or is below @size (each reported as invalid-argument on
 * @dev), or when the pool's own memory cannot be had (an injected
 * DMAMAP_FAULT_ALLOC included).
 */
DMAMAP_API struct dma_pool *dma_pool_create_node(const char *name, struct device *dev,
						 size_t size, size_t align, size_t boundary,
						 int node);

/**
 * dma_pool_create() - dma_pool_create_node() on any node
 * @name: for reports
 * @dev: the device that will use the blocks
 * @size: bytes in a block
 * @align: alignment, a power of two (0: 1)
 * @boundary: a power of two no block may cross (0: none)
 *
 * Return: as dma_pool_create_node().
 */
DMAMAP_API struct dma_pool *dma_pool_create(const char *name, struct device *dev, size_t size,
					    size_t align, size_t boundary);

/**
 * dma_pool_destroy() - free a pool and its memory
 * @pool: pool, or NULL (nothing happens)
 *
 * If blocks are still in use, the pool is reported (leak: "busy") and, as
 * in Linux, its coherent memory is not given back (a device may still
 * use it); the pool itself is freed either way.
 */
DMAMAP_API void dma_pool_destroy(struct dma_pool *pool);
/**
 * dmamap_dma_pool_device() - the device a pool serves
 * @pool: a pool
 *
 * Return: the device given to dma_pool_create(); NULL for a NULL @pool.
 */
DMAMAP_API struct device *dmamap_dma_pool_device(const struct dma_pool *pool);

/**
 * dmam_pool_create() - dma_pool_create() destroyed with the driver (devres)
 * @name: for reports
 * @dev: the device being probed (or bound to a driver)
 * @size: bytes in a block
 * @align: alignment of each block (power of two, 0 meaning 1)
 * @boundary: a power of two no block may cross (0: none)
 *
 * Return: the pool, or NULL as dma_pool_create() (also when the
 * device-managed record cannot be allocated).
 */
DMAMAP_API struct dma_pool *dmam_pool_create(const char *name, struct device *dev, size_t size,
					     size_t align, size_t boundary);
/**
 * dmam_pool_destroy() - destroy a dmam_pool_create() pool early
 * @pool: the pool (NULL is ignored)
 */
DMAMAP_API void dmam_pool_destroy(struct dma_pool *pool);

/**
 * dma_pool_alloc() - a block from the pool
 * @pool: pool
 * @mem_flags: GFP_KERNEL, GFP_ATOMIC..., __GFP_ZERO to zero the block
 * @handle: receives the block's device address
 *
 * Return: the block's CPU address, or NULL for a NULL @pool or @handle, or
 * when a new allocation for the pool fails (dma_alloc_coherent() reports
 * it as it always does).
 */
DMAMAP_API void *dma_pool_alloc(struct dma_pool *pool, gfp_t mem_flags, dma_addr_t *handle);

/**
 * dma_pool_zalloc() - dma_pool_alloc() of a zeroed block
 * @pool: pool
 * @mem_flags: GFP_KERNEL, GFP_ATOMIC...
 * @handle: receives the block's device address
 *
 * Return: as dma_pool_alloc().
 */
DMAMAP_API void *dma_pool_zalloc(struct dma_pool *pool, gfp_t mem_flags, dma_addr_t *handle);

/**
 * dma_pool_free() - give a block back
 * @pool: pool
 * @vaddr: the block's CPU address, or NULL (nothing happens)
 * @addr: the block's device address
 *
 * A @vaddr that is not a block of @pool, an @addr that is not its device
 * address, and a block already free are refused (nothing changes) and
 * reported (free-invalid, counted as BAD_HANDLE on the pool's device).
 */
DMAMAP_API void dma_pool_free(struct dma_pool *pool, void *vaddr, dma_addr_t addr);

/* A pool's counters, as the other pools export theirs. */
struct dmamap_dma_pool_stats {
	uint64_t block_size;  /* @size rounded up to @align */
	uint64_t allocations; /* coherent allocations the pool holds */
	uint64_t total;       /* blocks in those allocations */
	uint64_t used;        /* blocks handed out and not freed */
	uint64_t high_water;  /* most blocks in use at once */
	uint64_t allocs, frees, failures; /* calls: succeeded, succeeded, failed */
};

/**
 * dmamap_dma_pool_stats() - a pool's counters
 * @pool: pool
 * @s: receives them
 *
 * Return: 0; -EINVAL for a NULL @pool or @s.
 */
DMAMAP_API int dmamap_dma_pool_stats(struct dma_pool *pool, struct dmamap_dma_pool_stats *s);

#ifdef __cplusplus
}
#endif
#endif
