/* SPDX-License-Identifier: MIT */
#include <string.h>
#include "memcpy_dma.h"
#include "patience.h"

static const char *const bug_names[MCDMA_BUG_COUNT] = {
	"none", "missing-sync", "wrong-direction", "cpu-write-while-mapped",
	"shared-cacheline", "missing-sync-for-cpu", "missing-sync-for-device",
	"unmap-before-done", "map-error-unchecked", "no-dma-api", "leak-at-remove",
};

const char *mcdma_bug_name(enum mcdma_bug bug)
{
	return (unsigned int)bug < MCDMA_BUG_COUNT ? bug_names[bug] : "?";
}

int mcdma_bug_parse(const char *name, enum mcdma_bug *bug)
{
	for (unsigned int i = 0; i < MCDMA_BUG_COUNT; i++) {
		if (!strcmp(name, bug_names[i])) {
			*bug = (enum mcdma_bug)i;
			return 0;
		}
	}
	return -EINVAL;
}

int mcdma_probe(struct mcdma *m, struct device *dev, unsigned int ring_size)
{
	memset(m, 0, sizeof(*m));
	if (!ring_size || (ring_size & (ring_size - 1)))
		return -EINVAL;
	m->regs = dmamap_device_ioremap(dev);
	if (!m->regs || readl(m->regs + MCE_REG_ID) != MCE_ID)
		return -ENODEV;
	m->ring = dma_alloc_coherent(dev, ring_size * sizeof(struct mce_desc),
				     &m->ring_dma, GFP_KERNEL);
	if (!m->ring)
		return -ENOMEM;
	m->dev = dev;
	m->ring_size = ring_size;
	writel(MCE_CTRL_RESET, m->regs + MCE_REG_CTRL);
	writel((uint32_t)m->ring_dma, m->regs + MCE_REG_RING_LO);
	writel((uint32_t)(m->ring_dma >> 32), m->regs + MCE_REG_RING_HI);
	writel(ring_size, m->regs + MCE_REG_RING_SIZE);
	writel(MCE_CTRL_ENABLE, m->regs + MCE_REG_CTRL);
	return 0;
}

void mcdma_remove(struct mcdma *m)
{
	if (!m->ring)
		return;
	writel(0, m->regs + MCE_REG_CTRL);
	if (m->bug == MCDMA_BUG_LEAK_AT_REMOVE) {
		m->ring = NULL;
		return;
	}
	dma_free_coherent(m->dev, m->ring_size * sizeof(struct mce_desc), m->ring,
			  m->ring_dma);
	m->ring = NULL;
}

/*
 * Queue one descriptor; the ring is coherent, so no sync is needed for it,
 * only the order: the valid bit last, after the fields it vouches for.
 */
static volatile struct mce_desc *queue(struct mcdma *m, dma_addr_t dst,
				       dma_addr_t src, uint32_t len)
{
	volatile struct mce_desc *d = &m->ring[m->tail & (m->ring_size - 1)];

	d->src = src;
	d->dst = dst;
	d->len = len;
	d->status = 0;
	dma_wmb();
	d->ctrl = MCE_DESC_VALID;
	m->tail++;
	return d;
}

static void kick(struct mcdma *m)
{
	/* writel: the descriptors are visible to the engine before the doorbell. */
	writel(m->tail, m->regs + MCE_REG_TAIL);
}

static int wait_done(struct mcdma *m, volatile struct mce_desc *first, unsigned int n)
{
	uint32_t head;
	int ret;

	/* Wait for the engine to pass them all, then check every status word. */
	ret = readl_poll_timeout(m->regs + MCE_REG_HEAD, head, head == m->tail, 0,
				 1000UL * drv_dev_patience_ms(m->dev));
	if (ret) {
		/* Reset it: nothing may touch the buffers once the caller unmaps them. */
		writel(MCE_CTRL_RESET, m->regs + MCE_REG_CTRL);
		writel(m->ring_size, m->regs + MCE_REG_RING_SIZE);
		writel(MCE_CTRL_ENABLE, m->regs + MCE_REG_CTRL);
		m->tail = 0;
		return ret;
	}
	for (unsigned int i = 0; i < n; i++) {
		volatile struct mce_desc *d =
			&m->ring[((uint32_t)(first - m->ring) + i) & (m->ring_size - 1)];

		if (!(d->status & MCE_DESC_DONE) || (d->status & MCE_DESC_FAULT))
			ret = -EIO;
	}
	return ret;
}

static int kick_and_wait(struct mcdma *m, volatile struct mce_desc *first, unsigned int n)
{
	kick(m);
	return wait_done(m, first, n);
}

int mcdma_copy_dma(struct mcdma *m, dma_addr_t dst, dma_addr_t src, uint32_t len)
{
	return kick_and_wait(m, queue(m, dst, src, len), 1);
}

/* The buggy variants' own mapping: the DMA API, or not. */
static dma_addr_t map(struct mcdma *m, void *buf, size_t len, enum dma_data_direction dir,
		      enum mcdma_bug bug)
{
	if (bug == MCDMA_BUG_NO_DMA_API)
		return virt_to_phys(buf);
	return dma_map_single(m->dev, buf, len, dir);
}

static bool map_failed(struct mcdma *m, dma_addr_t h, enum mcdma_bug bug)
{
	if (bug == MCDMA_BUG_NO_DMA_API || bug == MCDMA_BUG_MAP_ERROR_UNCHECKED)
		return false;
	return dma_mapping_error(m->dev, h) != 0;
}

static void unmap(struct mcdma *m, dma_addr_t h, size_t len, enum dma_data_direction dir,
		  enum mcdma_bug bug)
{
	if (bug != MCDMA_BUG_NO_DMA_API)
		dma_unmap_single(m->dev, h, len, dir);
}

int mcdma_copy_buf(struct mcdma *m, void *dst, void *src, size_t len,
		   const void *fill, void *seen, enum mcdma_bug bug)
{
	enum dma_data_direction dst_dir =
		bug == MCDMA_BUG_WRONG_DIRECTION ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	bool fill_late = bug == MCDMA_BUG_MISSING_SYNC || bug == MCDMA_BUG_MISSING_SYNC_FOR_DEVICE;
	bool read_early = bug == MCDMA_BUG_MISSING_SYNC || bug == MCDMA_BUG_MISSING_SYNC_FOR_CPU;
	dma_addr_t s, d;
	int ret;

	if (fill && !fill_late)
		memcpy(src, fill, len);
	s = map(m, src, len, DMA_TO_DEVICE, bug);
	if (map_failed(m, s, bug))
		return -ENOMEM;
	d = map(m, dst, len, dst_dir, bug);
	if (map_failed(m, d, bug)) {
		unmap(m, s, len, DMA_TO_DEVICE, bug);
		return -ENOMEM;
	}
	if (fill && fill_late)
		memcpy(src, fill, len); /* ...and no dma_sync_single_for_device() */
	if (bug == MCDMA_BUG_UNMAP_BEFORE_DONE) {
		volatile struct mce_desc *q = queue(m, d, s, (uint32_t)len);

		kick(m);
		unmap(m, s, len, DMA_TO_DEVICE, bug); /* the engine has not read it yet */
		ret = wait_done(m, q, 1);
	} else {
		ret = mcdma_copy_dma(m, d, s, (uint32_t)len);
	}
	if (bug == MCDMA_BUG_CPU_WRITE_WHILE_MAPPED)
		memset(dst, MCDMA_STAMP, len < MCDMA_STAMP_LEN ? len : MCDMA_STAMP_LEN);
	if (bug == MCDMA_BUG_SHARED_CACHELINE)
		((volatile uint8_t *)dst)[len] ^= 0xff; /* a field of ours next to dst */
	if (read_early && seen)
		memcpy(seen, dst, len); /* consumed with no dma_sync_single_for_cpu() */
	unmap(m, d, len, dst_dir, bug);
	if (bug != MCDMA_BUG_UNMAP_BEFORE_DONE)
		unmap(m, s, len, DMA_TO_DEVICE, bug);
	if (!read_early && seen)
		memcpy(seen, dst, len);
	return ret;
}

/*
 * The two lists may map to different device segments (an IOMMU merges
 * entries), so walk both segment lists at once and queue one descriptor per
 * piece where they overlap.
 */
int mcdma_copy_sg(struct mcdma *m, struct scatterlist *dst,
		  struct scatterlist *src, int nents)
{
	volatile struct mce_desc *first = NULL;
	struct scatterlist *ds, *ss;
	unsigned int queued = 0, doff = 0, soff = 0;
	int nd, ns, di = 0, si = 0, ret = 0;

	ns = dma_map_sg(m->dev, src, nents, DMA_TO_DEVICE);
	if (!ns)
		return -ENOMEM;
	nd = dma_map_sg(m->dev, dst, nents, DMA_FROM_DEVICE);
	if (!nd) {
		dma_unmap_sg(m->dev, src, nents, DMA_TO_DEVICE);
		return -ENOMEM;
	}
	ds = dst;
	ss = src;
	while (di < nd && si < ns) {
		unsigned int n = sg_dma_len(ds) - doff;
		volatile struct mce_desc *q;

		if (sg_dma_len(ss) - soff < n)
			n = sg_dma_len(ss) - soff;
		if (queued == m->ring_size) {
			ret = -ENOSPC;
			break;
		}
		q = queue(m, sg_dma_address(ds) + doff, sg_dma_address(ss) + soff, n);
		if (!first)
			first = q;
		queued++;
		doff += n;
		soff += n;
		if (doff == sg_dma_len(ds)) {
			ds = sg_next(ds);
			di++;
			doff = 0;
		}
		if (soff == sg_dma_len(ss)) {
			ss = sg_next(ss);
			si++;
			soff = 0;
		}
	}
	if (!ret && (di < nd || si < ns))
		ret = -EINVAL; /* the lists hold different byte counts */
	if (queued) {
		int r = kick_and_wait(m, first, queued);

		if (!ret)
			ret = r;
	}
	dma_unmap_sg(m->dev, dst, nents, DMA_FROM_DEVICE);
	dma_unmap_sg(m->dev, src, nents, DMA_TO_DEVICE);
	return ret;
}
