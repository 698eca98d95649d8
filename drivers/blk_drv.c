/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include "blk_drv.h"
#include "patience.h"

static const char *const bug_names[BLKDRV_BUG_COUNT] = {
	"none", "wrong-direction", "cpu-write-while-mapped", "unmap-before-done",
	"map-error-unchecked", "no-dma-api", "leak-at-remove",
};

const char *blkdrv_bug_name(enum blkdrv_bug bug)
{
	return (unsigned int)bug < BLKDRV_BUG_COUNT ? bug_names[bug] : "?";
}

#define TABLE_BYTES (BLK_MAX_SEGS * sizeof(struct blk_seg))

static uint32_t mask(const struct blkdrv *b)
{
	return b->ring_size - 1;
}

static void slot_unmap(struct blkdrv *b, struct blkdrv_slot *s)
{
	if (s->mapped)
		dma_unmap_sg(b->dev, s->sg, s->nents, s->dir);
	s->mapped = 0;
}

void blkdrv_reap(struct blkdrv *b)
{
	unsigned long flags;

	spin_lock_irqsave(&b->lock, flags);
	while (b->clean != b->next) {
		struct blk_req *r = &b->ring[b->clean & mask(b)];
		struct blkdrv_slot *s = &b->slots[b->clean & mask(b)];
		uint16_t status = *(volatile uint16_t *)&r->status;
		int ret;

		if (!(status & BLK_STATUS_DONE))
			break;
		dma_rmb();
		slot_unmap(b, s);
		dma_pool_free(b->pool, s->table, s->table_dma);
		ret = status & BLK_STATUS_ERROR ? -EIO : 0;
		b->stats.completed++;
		b->stats.errors += ret != 0;
		b->clean++;
		if (s->done)
			s->done(s->ctx, ret);
	}
	spin_unlock_irqrestore(&b->lock, flags);
}

static irqreturn_t blk_irq(int irq, void *data)
{
	struct blkdrv *b = data;
	uint32_t status = readl(b->regs + BLK_REG_INT_STATUS);

	(void)irq;
	if (!status)
		return IRQ_NONE;
	b->stats.irqs++;
	writel(status, b->regs + BLK_REG_INT_STATUS);
	/*
	 * Read back: the clear also wiped a completion that came after the
	 * first read, and only an ordered read makes its status (written
	 * before the bit was set) visible to the reap's plain loads.
	 */
	readl(b->regs + BLK_REG_INT_STATUS);
	blkdrv_reap(b);
	return IRQ_HANDLED;
}

/* Map @s's pages (or not, per the bug); the number of device segments, 0 on failure. */
static int map_pages(struct blkdrv *b, struct blkdrv_slot *s)
{
	struct scatterlist *sg;
	int i;

	if (b->bug == BLKDRV_BUG_NO_DMA_API) {
		for_each_sg(s->sg, sg, s->nents, i) {
			sg->dma_address = virt_to_phys(sg_virt(sg));
			sg_dma_len(sg) = sg->length;
		}
		return s->nents;
	}
	s->mapped = (int)dma_map_sg(b->dev, s->sg, s->nents, s->dir);
	return s->mapped;
}

int blkdrv_submit(struct blkdrv *b, int op, uint64_t sector, struct scatterlist *sg, int nents,
		  blkdrv_done_fn done, void *ctx)
{
	struct blkdrv_slot *s;
	struct blk_req *r;
	struct scatterlist *it;
	unsigned long flags;
	uint64_t bytes = 0;
	int segs, i;

	if ((op != BLK_OP_READ && op != BLK_OP_WRITE) || !sg || nents <= 0 ||
	    nents > BLK_MAX_SEGS)
		return -EINVAL;
	for_each_sg(sg, it, nents, i)
		bytes += it->length;
	if (!bytes || bytes % BLK_SECTOR_SIZE)
		return -EINVAL;
	spin_lock_irqsave(&b->lock, flags);
	if (b->next - b->clean == b->ring_size) {
		b->stats.busy++;
		spin_unlock_irqrestore(&b->lock, flags);
		return -EBUSY;
	}
	s = &b->slots[b->next & mask(b)];
	r = &b->ring[b->next & mask(b)];
	*s = (struct blkdrv_slot){ .sg = sg, .nents = nents, .done = done, .ctx = ctx };
	s->dir = op == BLK_OP_WRITE || b->bug == BLKDRV_BUG_WRONG_DIRECTION ? DMA_TO_DEVICE :
									      DMA_FROM_DEVICE;
	s->table = dma_pool_alloc(b->pool, GFP_ATOMIC, &s->table_dma);
	if (!s->table) {
		b->stats.map_errors++;
		spin_unlock_irqrestore(&b->lock, flags);
		return -ENOMEM;
	}
	segs = map_pages(b, s);
	if (!segs && b->bug != BLKDRV_BUG_MAP_ERROR_UNCHECKED) {
		dma_pool_free(b->pool, s->table, s->table_dma);
		b->stats.map_errors++;
		spin_unlock_irqrestore(&b->lock, flags);
		return -ENOMEM;
	}
	if (!segs)
		segs = 1; /* the bug: describe the unmapped first entry anyway */
	for_each_sg(sg, it, segs, i) {
		s->table[i].addr = sg_dma_address(it);
		s->table[i].len = sg_dma_len(it);
		s->table[i].flags = i == segs - 1 ? BLK_SEG_END : 0;
	}
	r->sector = sector;
	r->table = s->table_dma;
	r->nsegs = (uint32_t)segs;
	r->status = 0;
	dma_wmb(); /* the request's fields before its VALID bit */
	*(volatile uint16_t *)&r->op = (uint16_t)(op | BLK_REQ_VALID);
	b->next++;
	b->stats.requests++;
	b->stats.bytes += bytes;
	writel(b->next, b->regs + BLK_REG_TAIL);
	if (b->bug == BLKDRV_BUG_UNMAP_BEFORE_DONE)
		slot_unmap(b, s);
	if (b->bug == BLKDRV_BUG_CPU_WRITE_WHILE_MAPPED && op == BLK_OP_READ)
		memset(sg_virt(sg), BLKDRV_STAMP, sg->length < 64 ? sg->length : 64);
	spin_unlock_irqrestore(&b->lock, flags);
	return 0;
}

static void rw_done(void *ctx, int status)
{
	int *st = ctx;

	__atomic_store_n(st, status, __ATOMIC_RELEASE);
}

static int load_status(int *st)
{
	return __atomic_load_n(st, __ATOMIC_ACQUIRE);
}

/* Fail what the device still holds (lock held; the device is stopped). */
static void fail_outstanding_locked(struct blkdrv *b)
{
	while (b->clean != b->next) {
		struct blkdrv_slot *s = &b->slots[b->clean & mask(b)];

		slot_unmap(b, s);
		dma_pool_free(b->pool, s->table, s->table_dma);
		b->clean++;
		b->stats.errors++;
		if (s->done)
			s->done(s->ctx, -EIO);
	}
}

/* Stop the device and fail what it still holds, as a driver's timeout handler resets the controller. */
static void fail_outstanding(struct blkdrv *b)
{
	unsigned long flags;

	writel(BLK_CTRL_RESET, b->regs + BLK_REG_CTRL);
	spin_lock_irqsave(&b->lock, flags);
	fail_outstanding_locked(b);
	spin_unlock_irqrestore(&b->lock, flags);
}

/* Reset the controller after a timeout: outstanding requests fail, the ring starts again. */
static void reset(struct blkdrv *b)
{
	unsigned long flags;

	writel(BLK_CTRL_RESET, b->regs + BLK_REG_CTRL);
	/* Under the lock: the handler (on the device thread, maybe) must not reap meanwhile. */
	spin_lock_irqsave(&b->lock, flags);
	fail_outstanding_locked(b);
	b->next = b->clean = 0;
	memset(b->ring, 0, b->ring_size * sizeof(struct blk_req));
	spin_unlock_irqrestore(&b->lock, flags);
	writel((uint32_t)b->ring_dma, b->regs + BLK_REG_RING_LO);
	writel((uint32_t)(b->ring_dma >> 32), b->regs + BLK_REG_RING_HI);
	writel(b->ring_size, b->regs + BLK_REG_RING_SIZE);
	writel(BLK_INT_DONE, b->regs + BLK_REG_INT_MASK);
	writel(BLK_CTRL_ENABLE, b->regs + BLK_REG_CTRL);
}

int blkdrv_rw(struct blkdrv *b, int op, uint64_t sector, struct scatterlist *sg, int nents)
{
	int status = 1, v, ret;

	ret = blkdrv_submit(b, op, sector, sg, nents, rw_done, &status);
	if (ret)
		return ret;
	/* wait_for_completion_timeout(): the interrupt handler reaps it. */
	ret = readx_poll_timeout(load_status, &status, v, v != 1, 10,
				 1000UL * drv_dev_patience_ms(b->dev));
	if (ret) {
		reset(b); /* the request must not outlive the caller's buffers */
		return -ETIMEDOUT;
	}
	return v;
}

int blkdrv_probe(struct blkdrv *b, struct device *dev, unsigned int ring_size,
		 enum blkdrv_bug bug)
{
	size_t bytes = ring_size * sizeof(struct blk_req);
	int ret;

	memset(b, 0, sizeof(*b));
	if (!ring_size || (ring_size & (ring_size - 1)) || ring_size > 1024)
		return -EINVAL;
	b->dev = dev;
	b->ring_size = ring_size;
	b->bug = bug;
	b->regs = dmamap_device_ioremap(dev);
	if (!b->regs || readl(b->regs + BLK_REG_ID) != BLK_ID)
		return -ENODEV;
	b->irq = dmamap_device_irq(dev, 0);
	if (b->irq < 0)
		return b->irq;
	spin_lock_init(&b->lock);
	writel(BLK_CTRL_RESET, b->regs + BLK_REG_CTRL);
	b->ring = dma_alloc_coherent(dev, bytes, &b->ring_dma, GFP_KERNEL);
	b->pool = dma_pool_create("blk_drv tables", dev, TABLE_BYTES, 16, 0);
	b->slots = calloc(ring_size, sizeof(*b->slots));
	if (!b->ring || !b->pool || !b->slots) {
		ret = -ENOMEM;
		goto fail;
	}
	memset(b->ring, 0, bytes);
	writel((uint32_t)b->ring_dma, b->regs + BLK_REG_RING_LO);
	writel((uint32_t)(b->ring_dma >> 32), b->regs + BLK_REG_RING_HI);
	writel(ring_size, b->regs + BLK_REG_RING_SIZE);
	ret = request_irq((unsigned int)b->irq, blk_irq, 0, "blk_drv", b);
	if (ret)
		goto fail;
	writel(BLK_INT_DONE, b->regs + BLK_REG_INT_MASK);
	writel(BLK_CTRL_ENABLE, b->regs + BLK_REG_CTRL);
	return 0;
fail:
	dma_pool_destroy(b->pool);
	if (b->ring)
		dma_free_coherent(dev, bytes, b->ring, b->ring_dma);
	free(b->slots);
	b->ring = NULL;
	return ret;
}

void blkdrv_remove(struct blkdrv *b)
{
	if (!b->ring)
		return;
	free_irq((unsigned int)b->irq, b);
	/* What the device never completed: unmapped and failed, as a reset does. */
	fail_outstanding(b);
	dma_pool_destroy(b->pool);
	if (b->bug != BLKDRV_BUG_LEAK_AT_REMOVE)
		dma_free_coherent(b->dev, b->ring_size * sizeof(struct blk_req), b->ring,
				  b->ring_dma);
	free(b->slots);
	b->ring = NULL;
}
