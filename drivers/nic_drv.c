/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include "nic_drv.h"

static const char *const bug_names[NICDRV_BUG_COUNT] = {
	"none", "missing-sync-for-cpu", "rx-no-sync-for-device", "wrong-direction",
	"tx-unmap-at-doorbell", "descriptor-while-device-owns", "map-error-unchecked",
	"no-dma-api", "leak-at-remove", "missing-dma-wmb", "relaxed-doorbell", "missing-dma-rmb",
};

const char *nicdrv_bug_name(enum nicdrv_bug bug)
{
	return (unsigned int)bug < NICDRV_BUG_COUNT ? bug_names[bug] : "?";
}

#define READ_ONCE16(x) (*(volatile uint16_t *)&(x))
#define WRITE_ONCE16(x, v) (*(volatile uint16_t *)&(x) = (v))

static enum dma_data_direction rx_dir(const struct nicdrv *n)
{
	return n->bug == NICDRV_BUG_WRONG_DIRECTION ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
}

static bool uses_dma_api(const struct nicdrv *n)
{
	return n->bug != NICDRV_BUG_NO_DMA_API;
}

static uint32_t mask(const struct nicdrv *n)
{
	return n->ring_size - 1;
}

/* Give RX descriptor @i (with its buffer) to the device: the fields, then OWN. */
static void rx_give(struct nicdrv *n, uint32_t i)
{
	struct nic_desc *d = &n->rx_ring[i & mask(n)];

	d->addr = n->rx[i & mask(n)].dma;
	d->len = NICDRV_RX_BUF;
	if (n->bug != NICDRV_BUG_MISSING_DMA_WMB)
		dma_wmb();
	WRITE_ONCE16(d->flags, NIC_DESC_OWN);
}

static void rx_free(struct nicdrv *n, bool unmap)
{
	struct dmamap_platform *p = dmamap_device_platform(n->dev);

	for (unsigned int i = 0; i < n->ring_size && n->rx; i++) {
		if (!n->rx[i].buf)
			continue;
		if (unmap && uses_dma_api(n))
			dma_unmap_single(n->dev, n->rx[i].dma, NICDRV_RX_BUF, rx_dir(n));
		dmamap_kfree(p, n->rx[i].buf);
	}
	free(n->rx);
	n->rx = NULL;
}

static int rx_alloc(struct nicdrv *n)
{
	struct dmamap_platform *p = dmamap_device_platform(n->dev);

	n->rx = calloc(n->ring_size, sizeof(*n->rx));
	if (!n->rx)
		return -ENOMEM;
	for (unsigned int i = 0; i < n->ring_size; i++) {
		struct nicdrv_rx_slot *s = &n->rx[i];

		s->buf = dmamap_kmalloc(p, NICDRV_RX_BUF, DMAMAP_GFP_DMA_ALIGN);
		if (!s->buf)
			return -ENOMEM;
		if (!uses_dma_api(n)) {
			s->dma = virt_to_phys(s->buf);
		} else {
			/* Mapped once for the buffer's life, as page_pool keeps its pages. */
			s->dma = dma_map_single(n->dev, s->buf, NICDRV_RX_BUF, rx_dir(n));
			if (dma_mapping_error(n->dev, s->dma)) {
				dmamap_kfree(p, s->buf);
				s->buf = NULL;
				return -ENOMEM;
			}
		}
		rx_give(n, i);
	}
	return 0;
}

static void tx_unmap(struct nicdrv *n, struct nicdrv_tx_slot *s)
{
	if (s->mapped)
		dma_unmap_single(n->dev, s->dma, s->len, DMA_TO_DEVICE);
	s->mapped = false;
}

/* Reclaim what the device finished sending (lock held). */
static void tx_reclaim(struct nicdrv *n)
{
	while (n->tx_clean != n->tx_next) {
		struct nic_desc *d = &n->tx_ring[n->tx_clean & mask(n)];
		struct nicdrv_tx_slot *s = &n->tx[n->tx_clean & mask(n)];
		uint16_t flags = READ_ONCE16(d->flags);

		if ((flags & NIC_DESC_OWN) && n->bug != NICDRV_BUG_DESC_WHILE_DEVICE_OWNS)
			break;
		dma_rmb(); /* the rest of the descriptor only after OWN said it is ours */
		tx_unmap(n, s);
		if (n->bug == NICDRV_BUG_DESC_WHILE_DEVICE_OWNS)
			memset(d, 0, sizeof(*d)); /* "clean" it for reuse: the device may still own it */
		if (s->eop) {
			bool err = (flags & (NIC_DESC_ERR | NIC_DESC_OWN)) != 0;

			n->stats.tx_done++;
			n->stats.tx_errors += err;
			if (n->tx_done_fn)
				n->tx_done_fn(n->ctx, s->cookie, err);
		}
		n->tx_clean++;
	}
}

static irqreturn_t nic_irq(int irq, void *data)
{
	struct nicdrv *n = data;
	uint32_t status = readl(n->regs + NIC_REG_INT_STATUS);

	(void)irq;
	if (!status)
		return IRQ_NONE;
	n->stats.irqs++;
	writel(status, n->regs + NIC_REG_INT_STATUS);
	/* napi_schedule(): quiet until the poll has caught up. */
	writel(0, n->regs + NIC_REG_INT_MASK);
	/*
	 * Read back: the clear also wiped a completion that came after the
	 * first read, and only an ordered read makes its descriptor (written
	 * before the bit was set) visible to the poll's plain loads.
	 */
	readl(n->regs + NIC_REG_INT_STATUS);
	nicdrv_poll(n, n->napi_budget);
	return IRQ_HANDLED;
}

int nicdrv_poll(struct nicdrv *n, int budget)
{
	unsigned long flags;
	int done = 0;

	spin_lock_irqsave(&n->lock, flags);
	n->stats.polls++;
	tx_reclaim(n);
	while (done < budget) {
		uint32_t i = n->rx_clean & mask(n);
		struct nic_desc *d = &n->rx_ring[i];
		struct nicdrv_rx_slot *s = &n->rx[i];
		uint16_t dflags = READ_ONCE16(d->flags);
		bool err;
		size_t len;

		if (dflags & NIC_DESC_OWN)
			break;
		if (n->bug != NICDRV_BUG_MISSING_DMA_RMB)
			dma_rmb(); /* len only after OWN: the device wrote it before clearing OWN */
		len = d->len;
		err = dflags & NIC_DESC_ERR;
		if (uses_dma_api(n) && n->bug != NICDRV_BUG_MISSING_SYNC_FOR_CPU)
			dma_sync_single_for_cpu(n->dev, s->dma, NICDRV_RX_BUF, rx_dir(n));
		n->stats.rx_frames++;
		n->stats.rx_errors += err;
		if (n->rx_fn)
			n->rx_fn(n->ctx, s->buf, len, err);
		/* Recycled in place: the device's turn again. */
		if (uses_dma_api(n) && n->bug != NICDRV_BUG_RX_NO_SYNC_FOR_DEVICE)
			dma_sync_single_for_device(n->dev, s->dma, NICDRV_RX_BUF, rx_dir(n));
		rx_give(n, n->rx_clean);
		n->rx_clean++;
		done++;
	}
	if (done)
		writel(n->rx_clean + n->ring_size, n->regs + NIC_REG_RX_TAIL);
	n->napi_more = done == budget;
	if (!n->napi_more)
		writel(NIC_INT_TX_DONE | NIC_INT_RX_DONE, n->regs + NIC_REG_INT_MASK);
	spin_unlock_irqrestore(&n->lock, flags);
	return done;
}

int nicdrv_xmit(struct nicdrv *n, const struct nicdrv_frag *frags, unsigned int nfrags,
		void *cookie)
{
	unsigned long flags;
	uint32_t first;

	if (!nfrags || nfrags > NICDRV_MAX_FRAGS)
		return -EINVAL;
	spin_lock_irqsave(&n->lock, flags);
	if (n->bug == NICDRV_BUG_DESC_WHILE_DEVICE_OWNS)
		tx_reclaim(n);
	if (n->ring_size - (n->tx_next - n->tx_clean) < nfrags) {
		n->stats.tx_busy++;
		spin_unlock_irqrestore(&n->lock, flags);
		return -EBUSY;
	}
	first = n->tx_next;
	for (unsigned int k = 0; k < nfrags; k++) {
		struct nicdrv_tx_slot *s = &n->tx[(first + k) & mask(n)];
		struct nic_desc *d = &n->tx_ring[(first + k) & mask(n)];
		dma_addr_t dma;

		if (!frags[k].len || frags[k].len > NIC_MAX_FRAME) {
			while (k--)
				tx_unmap(n, &n->tx[(first + k) & mask(n)]);
			spin_unlock_irqrestore(&n->lock, flags);
			return -EINVAL;
		}
		if (!uses_dma_api(n))
			dma = virt_to_phys(frags[k].buf);
		else
			dma = dma_map_single(n->dev, frags[k].buf, frags[k].len, DMA_TO_DEVICE);
		if (uses_dma_api(n) && n->bug != NICDRV_BUG_MAP_ERROR_UNCHECKED &&
		    dma_mapping_error(n->dev, dma)) {
			while (k--)
				tx_unmap(n, &n->tx[(first + k) & mask(n)]);
			n->stats.tx_map_errors++;
			spin_unlock_irqrestore(&n->lock, flags);
			return -ENOMEM;
		}
		*s = (struct nicdrv_tx_slot){ .dma = dma, .buf = frags[k].buf,
					      .len = (uint32_t)frags[k].len,
					      .mapped = uses_dma_api(n),
					      .eop = k == nfrags - 1,
					      .cookie = k == nfrags - 1 ? cookie : NULL };
		d->addr = dma;
		d->len = (uint16_t)frags[k].len;
		WRITE_ONCE16(d->flags, k == nfrags - 1 ? NIC_DESC_EOP : 0);
	}
	/* OWN on the later descriptors first, the first one last: no half frame is ever the device's. */
	for (unsigned int k = nfrags; k-- > 0;) {
		struct nic_desc *d = &n->tx_ring[(first + k) & mask(n)];

		if (n->bug != NICDRV_BUG_MISSING_DMA_WMB)
			dma_wmb();
		WRITE_ONCE16(d->flags, d->flags | NIC_DESC_OWN);
	}
	n->tx_next += nfrags;
	n->stats.tx_frames++;
	if (n->bug == NICDRV_BUG_RELAXED_DOORBELL)
		writel_relaxed(n->tx_next, n->regs + NIC_REG_TX_TAIL); /* no wmb(): OWN may be late */
	else
		writel(n->tx_next, n->regs + NIC_REG_TX_TAIL); /* writel: descriptors before doorbell */
	if (n->bug == NICDRV_BUG_TX_UNMAP_AT_DOORBELL)
		for (unsigned int k = 0; k < nfrags; k++)
			tx_unmap(n, &n->tx[(first + k) & mask(n)]);
	spin_unlock_irqrestore(&n->lock, flags);
	return 0;
}

unsigned int nicdrv_tx_pending(struct nicdrv *n)
{
	unsigned long flags;
	unsigned int pending;

	spin_lock_irqsave(&n->lock, flags);
	pending = n->tx_next - n->tx_clean;
	spin_unlock_irqrestore(&n->lock, flags);
	return pending;
}

static void rings_free(struct nicdrv *n)
{
	size_t bytes = n->ring_size * sizeof(struct nic_desc);

	if (n->tx_ring)
		dma_free_coherent(n->dev, bytes, n->tx_ring, n->tx_ring_dma);
	if (n->rx_ring)
		dma_free_coherent(n->dev, bytes, n->rx_ring, n->rx_ring_dma);
	free(n->tx);
	n->tx_ring = n->rx_ring = NULL;
	n->tx = NULL;
}

int nicdrv_probe(struct nicdrv *n, struct device *dev, unsigned int ring_size, bool loopback,
		 enum nicdrv_bug bug, nicdrv_rx_fn rx, nicdrv_tx_done_fn tx_done, void *ctx)
{
	size_t bytes = ring_size * sizeof(struct nic_desc);
	int ret;

	memset(n, 0, sizeof(*n));
	if (!ring_size || (ring_size & (ring_size - 1)) || ring_size > 1024)
		return -EINVAL;
	n->dev = dev;
	n->ring_size = ring_size;
	n->napi_budget = 64;
	n->bug = bug;
	n->rx_fn = rx;
	n->tx_done_fn = tx_done;
	n->ctx = ctx;
	n->regs = dmamap_device_ioremap(dev);
	if (!n->regs || readl(n->regs + NIC_REG_ID) != NIC_ID)
		return -ENODEV;
	n->irq = dmamap_device_irq(dev, 0);
	if (n->irq < 0)
		return n->irq;
	spin_lock_init(&n->lock);
	writel(NIC_CTRL_RESET, n->regs + NIC_REG_CTRL);
	n->tx_ring = dma_alloc_coherent(dev, bytes, &n->tx_ring_dma, GFP_KERNEL);
	n->rx_ring = dma_alloc_coherent(dev, bytes, &n->rx_ring_dma, GFP_KERNEL);
	n->tx = calloc(ring_size, sizeof(*n->tx));
	if (!n->tx_ring || !n->rx_ring || !n->tx) {
		ret = -ENOMEM;
		goto fail;
	}
	memset(n->tx_ring, 0, bytes);
	memset(n->rx_ring, 0, bytes);
	ret = rx_alloc(n);
	if (ret)
		goto fail;
	writel((uint32_t)n->tx_ring_dma, n->regs + NIC_REG_TX_RING_LO);
	writel((uint32_t)(n->tx_ring_dma >> 32), n->regs + NIC_REG_TX_RING_HI);
	writel(ring_size, n->regs + NIC_REG_TX_RING_SIZE);
	writel((uint32_t)n->rx_ring_dma, n->regs + NIC_REG_RX_RING_LO);
	writel((uint32_t)(n->rx_ring_dma >> 32), n->regs + NIC_REG_RX_RING_HI);
	writel(ring_size, n->regs + NIC_REG_RX_RING_SIZE);
	writel(ring_size, n->regs + NIC_REG_RX_TAIL);
	/* Coalesce: an interrupt per 8 frames, or 50 us after the first. */
	writel(8u | 50u << 16, n->regs + NIC_REG_COALESCE);
	ret = request_irq((unsigned int)n->irq, nic_irq, 0, "nic_drv", n);
	if (ret)
		goto fail;
	writel(NIC_INT_TX_DONE | NIC_INT_RX_DONE, n->regs + NIC_REG_INT_MASK);
	/* The missing barrier bites where the device polls OWN without waiting for a doorbell. */
	writel(NIC_CTRL_ENABLE | (loopback ? NIC_CTRL_LOOPBACK : 0) |
		       (bug == NICDRV_BUG_MISSING_DMA_WMB ? NIC_CTRL_POLL : 0),
	       n->regs + NIC_REG_CTRL);
	return 0;
fail:
	writel(NIC_CTRL_RESET, n->regs + NIC_REG_CTRL);
	rx_free(n, true);
	rings_free(n);
	return ret;
}

void nicdrv_remove(struct nicdrv *n)
{
	unsigned long flags;

	if (!n->tx_ring)
		return;
	/* Stop the device first: nothing it still owns is touched after this. */
	writel(NIC_CTRL_RESET, n->regs + NIC_REG_CTRL);
	free_irq((unsigned int)n->irq, n);
	spin_lock_irqsave(&n->lock, flags);
	while (n->tx_clean != n->tx_next) {
		struct nicdrv_tx_slot *s = &n->tx[n->tx_clean & mask(n)];

		tx_unmap(n, s);
		if (s->eop && n->tx_done_fn)
			n->tx_done_fn(n->ctx, s->cookie, true);
		n->tx_clean++;
	}
	spin_unlock_irqrestore(&n->lock, flags);
	rx_free(n, n->bug != NICDRV_BUG_LEAK_AT_REMOVE);
	rings_free(n);
}
