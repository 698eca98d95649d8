/* SPDX-License-Identifier: MIT */
#include <string.h>
#include "memcpy_dma.h"

static const char *const bug_names[MCDMA_BUG_COUNT] = {
	"none", "missing-sync", "wrong-direction", "cpu-write-while-mapped",
	"shared-cacheline",
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

static int kick_and_wait(struct mcdma *m, volatile struct mce_desc *first,
			 unsigned int n)
{
	uint32_t head;
	int ret;

	/* writel: the descriptors are visible to the engine before the doorbell. */
	writel(m->tail, m->regs + MCE_REG_TAIL);
	/* Wait for the engine to pass them all, then check every status word. */
	ret = readl_poll_timeout(m->regs + MCE_REG_HEAD, head, head == m->tail, 0, 1000000);
	if (ret)
		return ret;
	for (unsigned int i = 0; i < n; i++) {
		volatile struct mce_desc *d =
			&m->ring[((uint32_t)(first - m->ring) + i) & (m->ring_size - 1)];

		if (!(d->status & MCE_DESC_DONE) || (d->status & MCE_DESC_FAULT))
			ret = -EIO;
	}
	return ret;
}

int mcdma_copy_dma(struct mcdma *m, dma_addr_t dst, dma_addr_t src, uint32_t len)
{
	return kick_and_wait(m, queue(m, dst, src, len), 1);
}

int mcdma_copy_buf(struct mcdma *m, void *dst, void *src, size_t len,
		   const void *fill, void *seen, enum mcdma_bug bug)
{
	enum dma_data_direction dst_dir =
		bug == MCDMA_BUG_WRONG_DIRECTION ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	dma_addr_t s, d;
	int ret;

	if (fill && bug != MCDMA_BUG_MISSING_SYNC)
		memcpy(src, fill, len);
	s = dma_map_single(m->dev, src, len, DMA_TO_DEVICE);
	if (dma_mapping_error(m->dev, s))
		return -ENOMEM;
	d = dma_map_single(m->dev, dst, len, dst_dir);
	if (dma_mapping_error(m->dev, d)) {
		dma_unmap_single(m->dev, s, len, DMA_TO_DEVICE);
		return -ENOMEM;
	}
	if (fill && bug == MCDMA_BUG_MISSING_SYNC)
		memcpy(src, fill, len); /* ...and no dma_sync_single_for_device() */
	ret = mcdma_copy_dma(m, d, s, (uint32_t)len);
	if (bug == MCDMA_BUG_CPU_WRITE_WHILE_MAPPED)
		memset(dst, MCDMA_STAMP, len < MCDMA_STAMP_LEN ? len : MCDMA_STAMP_LEN);
	if (bug == MCDMA_BUG_SHARED_CACHELINE)
		((volatile uint8_t *)dst)[len] ^= 0xff; /* a field of ours next to dst */
	if (bug == MCDMA_BUG_MISSING_SYNC && seen)
		memcpy(seen, dst, len); /* consumed with no dma_sync_single_for_cpu() */
	dma_unmap_single(m->dev, d, len, dst_dir);
	dma_unmap_single(m->dev, s, len, DMA_TO_DEVICE);
	if (bug != MCDMA_BUG_MISSING_SYNC && seen)
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
