/* SPDX-License-Identifier: MIT */
/*
 * dmabounce as its own ops table, as the 2011 series moved it. A mapping
 * the device cannot use (its needs_bounce callback says so) is given a
 * safe buffer from a small or a large pool of coherent memory, or a
 * coherent allocation of its own when it is larger; the CPU copies in at
 * map and out at unmap and at each sync, in the right direction. Mappings
 * that need no bounce, and every allocation, go to the direct table.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmabounce.h>
#include "../lib/lib.h"
#include "../base/report.h"
#include "../mm/mm.h"
#include "../platform/port.h"
#include "direct.h"
#include "dmabounce.h"
#include "../lib/mem.h"

struct safe_buffer {
	struct safe_buffer *next;
	phys_addr_t orig;       /* the driver's buffer */
	size_t size;
	enum dma_data_direction dir;
	uint8_t *safe;          /* CPU address of the safe buffer (coherent) */
	dma_addr_t safe_dma;
	struct bounce_pool *pool; /* NULL: its own coherent allocation */
	size_t alloc_size;
};

/* A page (or more) of coherent memory cut into equal blocks. */
struct pool_chunk {
	struct pool_chunk *next;
	uint8_t *cpu;
	dma_addr_t dma;
	size_t bytes;
	unsigned int nblocks;
	uint8_t used[];
};

struct bounce_pool {
	unsigned long size; /* block size; 0: no pool */
	struct pool_chunk *chunks;
};

struct dmamap_dmabounce {
	pthread_mutex_t lock;
	dmabounce_needs_bounce_fn needs_bounce;
	phys_addr_t above; /* the built-in rule: bounce at or above this address */
	struct bounce_pool small, large;
	struct safe_buffer *live;
	struct dmamap_dmabounce_stats st;
};

static const struct dma_map_ops *const direct = &dmamap_direct_ops;

/* ---- pools of safe buffers (lock held) ------------------------------------ */

static int pool_block(struct device *dev, struct bounce_pool *pool, uint8_t **cpu,
		      dma_addr_t *dma)
{
	struct pool_chunk *c;
	size_t bytes = MAX((size_t)PAGE_SIZE, (size_t)pool->size);
	unsigned int n = (unsigned int)(bytes / pool->size);

	for (c = pool->chunks; c; c = c->next) {
		for (unsigned int i = 0; i < c->nblocks; i++) {
			if (!c->used[i]) {
				c->used[i] = 1;
				*cpu = c->cpu + (size_t)i * pool->size;
				*dma = c->dma + (dma_addr_t)i * pool->size;
				return 0;
			}
		}
	}
	c = dmamap__calloc(1, sizeof(*c) + n);
	if (!c)
		return -ENOMEM;
	c->cpu = direct->alloc(dev, bytes, &c->dma, GFP_ATOMIC, 0);
	if (!c->cpu) {
		free(c);
		return -ENOMEM;
	}
	c->bytes = bytes;
	c->nblocks = n;
	c->next = pool->chunks;
	pool->chunks = c;
	c->used[0] = 1;
	*cpu = c->cpu;
	*dma = c->dma;
	return 0;
}

static void pool_put(struct bounce_pool *pool, const uint8_t *cpu)
{
	for (struct pool_chunk *c = pool->chunks; c; c = c->next) {
		if (cpu >= c->cpu && cpu < c->cpu + c->bytes) {
			c->used[(size_t)(cpu - c->cpu) / pool->size] = 0;
			return;
		}
	}
}

static void pool_destroy(struct device *dev, struct bounce_pool *pool)
{
	while (pool->chunks) {
		struct pool_chunk *c = pool->chunks;

		pool->chunks = c->next;
		direct->free(dev, c->bytes, c->cpu, c->dma, 0);
		free(c);
	}
}

/* ---- safe buffers ----------------------------------------------------------- */

static struct safe_buffer *safe_get(struct device *dev, struct dmamap_dmabounce *db,
				    phys_addr_t orig, size_t size,
				    enum dma_data_direction dir)
{
	struct safe_buffer *b = dmamap__calloc(1, sizeof(*b));
	int ret = -ENOMEM;

	if (!b)
		return NULL;
	b->orig = orig;
	b->size = size;
	b->dir = dir;
	pthread_mutex_lock(&db->lock);
	if (db->small.size && size <= db->small.size) {
		b->pool = &db->small;
		db->st.small_allocs++;
	} else if (db->large.size && size <= db->large.size) {
		b->pool = &db->large;
		db->st.large_allocs++;
	}
	if (b->pool) {
		ret = pool_block(dev, b->pool, &b->safe, &b->safe_dma);
	} else {
		b->alloc_size = PAGE_ALIGN(size);
		b->safe = direct->alloc(dev, b->alloc_size, &b->safe_dma, GFP_ATOMIC, 0);
		ret = b->safe ? 0 : -ENOMEM;
		db->st.coherent_allocs += !ret;
	}
	if (!ret) {
		b->next = db->live;
		db->live = b;
		db->st.live++;
	} else {
		db->st.failures++;
	}
	pthread_mutex_unlock(&db->lock);
	if (ret) {
		free(b);
		return NULL;
	}
	return b;
}

/* The safe buffer holding device address @dma (lock held), and unlink it if asked. */
static struct safe_buffer *safe_find(struct dmamap_dmabounce *db, dma_addr_t dma,
				     bool unlink)
{
	for (struct safe_buffer **pp = &db->live; *pp; pp = &(*pp)->next) {
		struct safe_buffer *b = *pp;

		if (dma >= b->safe_dma && dma - b->safe_dma < b->size) {
			if (unlink) {
				*pp = b->next;
				db->st.live--;
			}
			return b;
		}
	}
	return NULL;
}

static void safe_put(struct device *dev, struct dmamap_dmabounce *db,
		     struct safe_buffer *b)
{
	pthread_mutex_lock(&db->lock);
	if (b->pool)
		pool_put(b->pool, b->safe);
	pthread_mutex_unlock(&db->lock);
	if (!b->pool)
		direct->free(dev, b->alloc_size, b->safe, b->safe_dma, 0);
	free(b);
}

/* CPU copies between the driver's buffer and the safe one (coherent memory). */
static void copy(struct device *dev, struct dmamap_dmabounce *db,
		 struct safe_buffer *b, size_t off, size_t len, bool to_device)
{
	uint8_t *orig = dmamap__phys_to_view(dev->plat, b->orig + off, VIEW_CPU);

	if (!orig || off >= b->size)
		return;
	len = MIN(len, b->size - off);
	if (to_device) {
		memcpy(b->safe + off, orig, len);
		__atomic_fetch_add(&db->st.bytes_to_device, len, __ATOMIC_RELAXED);
	} else {
		memcpy(orig, b->safe + off, len);
		__atomic_fetch_add(&db->st.bytes_from_device, len, __ATOMIC_RELAXED);
	}
}

/* ---- the ops table -------------------------------------------------------------- */

static dma_addr_t db_map_page(struct device *dev, struct page *page,
			      unsigned long offset, size_t size,
			      enum dma_data_direction dir, unsigned long attrs)
{
	struct dmamap_dmabounce *db = dev->dmabounce;
	phys_addr_t phys = dmamap__linear_to_phys(dev->plat, page);
	struct safe_buffer *b;
	dma_addr_t dma;

	__atomic_fetch_add(&db->st.map_ops, 1, __ATOMIC_RELAXED);
	if (phys == PHYS_NONE) {
		dmamap__api_error(dev, "dma_map_page", DMAMAP_ERRK_NOT_LINEAR, DMAMAP_DBG_NOT_LINEAR,
				  "buffer %p is not in this board's linear map (stack, alias or foreign memory)",
				  (void *)((char *)page + offset));
		return DMA_MAPPING_ERROR;
	}
	phys += offset;
	if (dmamap__highmem_start(dev->plat) && phys + size > dmamap__highmem_start(dev->plat)) {
		dmamap__api_error(dev, "dmabounce", DMAMAP_ERRK_BAD_ARG,
				  DMAMAP_DBG_INVALID_ARGUMENT,
				  "DMA buffer bouncing of HIGHMEM pages is not supported [phys=0x%llx]",
				  (unsigned long long)phys);
		return DMA_MAPPING_ERROR;
	}
	dma = dmamap_phys_to_dma(dev, phys);
	if (dma != DMA_MAPPING_ERROR && !db->needs_bounce(dev, dma, size))
		return direct->map_page(dev, page, offset, size, dir, attrs);
	if (attrs & DMA_ATTR_REQUIRE_COHERENT) {
		dmamap__api_error(dev, "dmabounce", DMAMAP_ERRK_UNREACHABLE, DMAMAP_DBG_UNREACHABLE,
				  "DMA_ATTR_REQUIRE_COHERENT, but [phys=0x%llx] must bounce",
				  (unsigned long long)phys);
		return DMA_MAPPING_ERROR;
	}
	b = safe_get(dev, db, phys, size, dir);
	if (!b) {
		/* Out of memory, counted as swiotlb counts a full pool. */
		dmamap__stat_add(dev, ST_ERR0 + DMAMAP_ERRK_NOMEM, 1);
		if (!(attrs & DMA_ATTR_NO_WARN))
			dmamap__report(dev->plat, dev, DMAMAP_DBG_ALLOC_FAILED,
				       "dmabounce: no safe buffer for %zu bytes", size);
		return DMA_MAPPING_ERROR;
	}
	__atomic_fetch_add(&db->st.bounced, 1, __ATOMIC_RELAXED);
	dmamap__stat_add(dev, ST_BYTES_BOUNCED, size);
	/*
	 * Copied in whatever the direction, as swiotlb does since the kernel's
	 * info-leak fix: a device that writes part of a FROM_DEVICE buffer must
	 * not hand the rest of another user's safe buffer back to this one.
	 */
	copy(dev, db, b, 0, size, true);
	return b->safe_dma;
}

static void db_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir, unsigned long attrs)
{
	struct dmamap_dmabounce *db = dev->dmabounce;
	struct safe_buffer *b;

	pthread_mutex_lock(&db->lock);
	b = safe_find(db, addr, true);
	pthread_mutex_unlock(&db->lock);
	if (!b) {
		direct->unmap_page(dev, addr, size, dir, attrs);
		return;
	}
	if (dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL)
		copy(dev, db, b, 0, b->size, false);
	safe_put(dev, db, b);
}

static void db_sync(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir, bool for_cpu)
{
	struct dmamap_dmabounce *db = dev->dmabounce;
	struct safe_buffer *b;

	pthread_mutex_lock(&db->lock);
	b = safe_find(db, addr, false);
	if (b) {
		size_t off = (size_t)(addr - b->safe_dma);

		if (for_cpu && (dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL))
			copy(dev, db, b, off, size, false);
		else if (!for_cpu && (dir == DMA_TO_DEVICE || dir == DMA_BIDIRECTIONAL))
			copy(dev, db, b, off, size, true);
	}
	pthread_mutex_unlock(&db->lock);
	/* Not bounced: the direct table's cache maintenance, as the seeds fall back. */
	if (!b) {
		if (for_cpu)
			direct->sync_single_for_cpu(dev, addr, size, dir);
		else
			direct->sync_single_for_device(dev, addr, size, dir);
	}
}

static void db_sync_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir)
{
	db_sync(dev, addr, size, dir, true);
}

static void db_sync_for_device(struct device *dev, dma_addr_t addr, size_t size,
			       enum dma_data_direction dir)
{
	db_sync(dev, addr, size, dir, false);
}

/* Masks that still reach the DMA zone are fine: the pools live there. */
static int db_set_dma_mask(struct device *dev, u64 mask)
{
	if (!direct->dma_supported(dev, mask))
		return -EIO;
	*dev->dma_mask = mask;
	dmamap__device_refresh(dev);
	return 0;
}

static const struct dma_map_ops dmabounce_ops = {
	.name = "dmabounce",
	.alloc = dmamap__direct_alloc,
	.free = dmamap__direct_free,
	.mmap = dmamap__direct_mmap,
	.get_sgtable = dmamap__direct_get_sgtable,
	.alloc_noncoherent = dmamap__direct_alloc_noncoherent,
	.free_noncoherent = dmamap__direct_free_noncoherent,
	.map_page = db_map_page,
	.unmap_page = db_unmap_page,
	.sync_single_for_cpu = db_sync_for_cpu,
	.sync_single_for_device = db_sync_for_device,
	.dma_supported = dmamap__direct_supported,
	.set_dma_mask = db_set_dma_mask,
	.get_required_mask = dmamap__direct_required_mask,
};

static int bounce_everything(struct device *dev, dma_addr_t addr, size_t size)
{
	(void)dev;
	(void)addr;
	(void)size;
	return 1;
}

/* The board's rule: memory at or above a physical address cannot be reached. */
static int bounce_above(struct device *dev, dma_addr_t addr, size_t size)
{
	phys_addr_t last = dmamap_dma_to_phys(dev, addr + size - 1);

	return last == PHYS_NONE || last >= dev->dmabounce->above;
}

static int registered(struct device *dev, unsigned long small, unsigned long large,
		      dmabounce_needs_bounce_fn fn, phys_addr_t above)
{
	struct dmamap_dmabounce *db;

	if (!dev || !small || (large && small > large))
		return -EINVAL;
	if (dev->dmabounce)
		return -EBUSY;
	if (dmamap__fault(&dev->plat->fault, DMAMAP_FAULT_ALLOC) ||
	    !(db = dmamap__calloc(1, sizeof(*db))))
		return -ENOMEM;
	pthread_mutex_init(&db->lock, NULL);
	db->needs_bounce = fn ? fn : bounce_everything;
	db->above = above;
	db->small.size = small;
	db->large.size = large;
	dev->dmabounce = db;
	dev->dma_ops = &dmabounce_ops;
	dmamap__device_refresh(dev);
	return 0;
}

int dmabounce_register_dev(struct device *dev, unsigned long small_buffer_size,
			   unsigned long large_buffer_size,
			   dmabounce_needs_bounce_fn needs_bounce)
{
	return registered(dev, small_buffer_size, large_buffer_size, needs_bounce, 0);
}

int dmamap__dmabounce_register_above(struct device *dev, unsigned long small,
				     unsigned long large, phys_addr_t above)
{
	return registered(dev, small, large, bounce_above, above);
}

bool dmamap__dmabounce_would_bounce(struct device *dev, phys_addr_t phys, size_t size)
{
	dma_addr_t dma = dmamap_phys_to_dma(dev, phys);

	return !dev->dmabounce || dma == DMA_MAPPING_ERROR ||
	       dev->dmabounce->needs_bounce(dev, dma, size) != 0;
}

phys_addr_t dmamap__dmabounce_above(const struct device *dev)
{
	return dev->dmabounce && dev->dmabounce->needs_bounce == bounce_above ? dev->dmabounce->above
									       : 0;
}

void dmamap__dmabounce_release(struct device *dev)
{
	struct dmamap_dmabounce *db = dev->dmabounce;
	unsigned long leaked = 0;

	if (!db)
		return;
	while (db->live) {
		struct safe_buffer *b = db->live;

		db->live = b->next;
		if (!b->pool)
			direct->free(dev, b->alloc_size, b->safe, b->safe_dma, 0);
		free(b);
		leaked++;
	}
	if (leaked)
		dmamap__report(dev->plat, dev, DMAMAP_DBG_LEAK,
			       "dmabounce: %lu safe buffers still mapped at unregister", leaked);
	pool_destroy(dev, &db->small);
	pool_destroy(dev, &db->large);
	pthread_mutex_destroy(&db->lock);
	free(db);
	dev->dmabounce = NULL;
}

void dmabounce_unregister_dev(struct device *dev)
{
	if (!dev || !dev->dmabounce)
		return;
	dmamap__dmabounce_release(dev);
	dev->dma_ops = NULL;
	dmamap__device_refresh(dev);
}

int dmamap_dmabounce_stats(struct device *dev, struct dmamap_dmabounce_stats *s)
{
	if (!dev || !s)
		return -EINVAL;
	if (!dev->dmabounce)
		return -ENODEV;
	pthread_mutex_lock(&dev->dmabounce->lock);
	*s = dev->dmabounce->st;
	s->map_ops = __atomic_load_n(&dev->dmabounce->st.map_ops, __ATOMIC_RELAXED);
	s->bounced = __atomic_load_n(&dev->dmabounce->st.bounced, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&dev->dmabounce->lock);
	return 0;
}
