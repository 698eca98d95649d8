/* SPDX-License-Identifier: MIT */
/*
 * Example driver for the "blk" block device (<dmamap/hw/blk.h>), written
 * as a kernel block driver is: a request ring in coherent memory, one
 * scatter-gather table per request from a dma_pool, the request's pages
 * mapped with dma_map_sg() at submit and unmapped at completion, which the
 * interrupt handler reaps. Each bug switch is a one-line variation.
 */
#ifndef DMAMAP_DRIVERS_BLK_DRV_H
#define DMAMAP_DRIVERS_BLK_DRV_H

#include <dmamap/dma-mapping.h>
#include <dmamap/dmapool.h>
#include <dmamap/interrupt.h>
#include <dmamap/io.h>
#include <dmamap/hw/blk.h>

enum blkdrv_bug {
	BLKDRV_BUG_NONE = 0,
	/* Map a read's pages DMA_TO_DEVICE. */
	BLKDRV_BUG_WRONG_DIRECTION,
	/* Write into a read's buffer while the device fills it. */
	BLKDRV_BUG_CPU_WRITE_WHILE_MAPPED,
	/* Unmap the pages at submit, not at completion. */
	BLKDRV_BUG_UNMAP_BEFORE_DONE,
	/* Ignore a dma_map_sg() that returned 0. */
	BLKDRV_BUG_MAP_ERROR_UNCHECKED,
	/* Give the device CPU physical addresses (virt_to_phys) instead of mapping. */
	BLKDRV_BUG_NO_DMA_API,
	/* remove() forgets to free the request ring (coherent memory). */
	BLKDRV_BUG_LEAK_AT_REMOVE,
	BLKDRV_BUG_COUNT
};

#define BLKDRV_STAMP 0xa5

typedef void (*blkdrv_done_fn)(void *ctx, int status);

struct blkdrv_slot {
	struct scatterlist *sg;
	int nents, mapped;
	enum dma_data_direction dir;
	struct blk_seg *table;
	dma_addr_t table_dma;
	blkdrv_done_fn done;
	void *ctx;
};

struct blkdrv_stats {
	unsigned long requests, completed, errors, busy, map_errors, irqs;
	unsigned long long bytes;
};

struct blkdrv {
	struct device *dev;
	void __iomem *regs;
	int irq;
	unsigned int ring_size;
	struct blk_req *ring;
	dma_addr_t ring_dma;
	struct dma_pool *pool;
	struct blkdrv_slot *slots;
	uint32_t next, clean;
	spinlock_t lock;
	enum blkdrv_bug bug;
	struct blkdrv_stats stats;
};

/* Ring of @ring_size requests (a power of two up to 1024), pool, interrupt. 0 or -errno. */
int blkdrv_probe(struct blkdrv *b, struct device *dev, unsigned int ring_size,
		 enum blkdrv_bug bug);
void blkdrv_remove(struct blkdrv *b);

/*
 * Queue a read or write (BLK_OP_*) of the bytes of @sg (@nents entries,
 * whole sectors in all) at @sector; @done(@ctx, 0 or -EIO) when the
 * device completes it. 0; -EBUSY when the ring is full; -ENOMEM if the
 * pages or the table cannot be mapped; -EINVAL for a bad request.
 */
int blkdrv_submit(struct blkdrv *b, int op, uint64_t sector, struct scatterlist *sg, int nents,
		  blkdrv_done_fn done, void *ctx);

/* The same, waiting for completion: 0, -EIO, -ETIMEDOUT, or submit's error. */
int blkdrv_rw(struct blkdrv *b, int op, uint64_t sector, struct scatterlist *sg, int nents);

/* Reap completed requests (the interrupt handler does; polling callers may). */
void blkdrv_reap(struct blkdrv *b);

const char *blkdrv_bug_name(enum blkdrv_bug bug);

#endif
