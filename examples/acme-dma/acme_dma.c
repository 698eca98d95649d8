// SPDX-License-Identifier: MIT
/*
 * ACME copy engine: a platform driver written as for Linux, for the
 * "memcpy" engine model (docs: include/dmamap/hw/memcpy-engine.h).
 *
 * Large copies map the caller's buffers for each transfer; small ones go
 * through two bounce buffers mapped once at probe and synced around each
 * use. The descriptor ring is coherent memory; completion is an interrupt.
 *
 * Build with -DACME_BUG='"NAME"' to get a copy with one of the classic DMA
 * bugs (see the list at the end of examples/acme-dma/README.md).
 */
#include <string.h>
#include <dmamap/dma-mapping.h>
#include <dmamap/platform_device.h>
#include <dmamap/hw/memcpy-engine.h>
#include "acme_dma.h"

#ifndef ACME_BUG
#define ACME_BUG ""
#endif
#define BUG(name) (!strcmp(ACME_BUG, name))

#define RING_SIZE 16

struct acme_dma {
	struct device *dev;
	void __iomem *regs;
	struct mce_desc *ring;
	dma_addr_t ring_dma;
	unsigned int tail;
	volatile int done;
	/* Small copies: a buffer the device reads and one it writes, mapped for the driver's life. */
	void *small_in;
	dma_addr_t small_in_dma;
	void *small_out;
	dma_addr_t small_out_dma;
	unsigned long copies;
};

/* The shared-cacheline bug keeps the device-written buffer inside this struct, by a counter. */
struct acme_packed {
	struct acme_dma a;
	unsigned char out[ACME_SMALL];
	unsigned long small_copies;
};

static irqreturn_t acme_irq(int irq, void *data)
{
	struct acme_dma *a = data;
	u32 status = readl(a->regs + MCE_REG_INT_STATUS);

	(void)irq;
	if (!(status & MCE_INT_DONE))
		return IRQ_NONE;
	writel(status, a->regs + MCE_REG_INT_STATUS);
	a->done = 1;
	return IRQ_HANDLED;
}

/* One descriptor, its valid bit last; the doorbell; the interrupt. */
static int acme_transfer(struct acme_dma *a, dma_addr_t dst, dma_addr_t src, size_t len)
{
	struct mce_desc *d = &a->ring[a->tail % RING_SIZE];
	volatile u32 *status = &d->status;
	unsigned long spins = 0;

	d->src = src;
	d->dst = dst;
	d->len = (u32)len;
	d->status = 0;
	dma_wmb();
	d->ctrl = MCE_DESC_VALID;
	a->done = 0;
	a->tail++;
	writel(a->tail % RING_SIZE, a->regs + MCE_REG_TAIL);
	while (!a->done) {
		if (++spins > 10000000)
			return -ETIMEDOUT;
		cpu_relax();
	}
	dma_rmb();
	return *status & MCE_DESC_FAULT ? -EIO : 0;
}

static int acme_copy_small(struct acme_dma *a, void *dst, const void *src, size_t len)
{
	int ret;

	dma_sync_single_for_cpu(a->dev, a->small_in_dma, ACME_SMALL, DMA_TO_DEVICE);
	memcpy(a->small_in, src, len);
	if (!BUG("missing-sync-for-device") && !BUG("missing-sync"))
		dma_sync_single_for_device(a->dev, a->small_in_dma, ACME_SMALL, DMA_TO_DEVICE);
	ret = acme_transfer(a, a->small_out_dma, a->small_in_dma, len);
	if (BUG("shared-cacheline"))
		((struct acme_packed *)a)->small_copies++; /* a field by the device's buffer */
	if (!BUG("missing-sync-for-cpu") && !BUG("missing-sync"))
		dma_sync_single_for_cpu(a->dev, a->small_out_dma, ACME_SMALL, DMA_FROM_DEVICE);
	memcpy(dst, a->small_out, len);
	if (!BUG("missing-sync-for-cpu") && !BUG("missing-sync"))
		dma_sync_single_for_device(a->dev, a->small_out_dma, ACME_SMALL, DMA_FROM_DEVICE);
	return ret;
}

static dma_addr_t acme_map(struct acme_dma *a, const void *buf, size_t len,
			   enum dma_data_direction dir)
{
	if (BUG("no-dma-api"))
		return virt_to_phys(buf);
	return dma_map_single(a->dev, (void *)buf, len, dir);
}

static void acme_unmap(struct acme_dma *a, dma_addr_t h, size_t len, enum dma_data_direction dir)
{
	if (!BUG("no-dma-api"))
		dma_unmap_single(a->dev, h, len, dir);
}

static bool acme_map_failed(struct acme_dma *a, dma_addr_t h)
{
	return !BUG("map-error-unchecked") && !BUG("no-dma-api") && dma_mapping_error(a->dev, h);
}

int acme_copy(struct acme_dma *a, void *dst, const void *src, size_t len)
{
	enum dma_data_direction dst_dir = BUG("wrong-direction") ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	dma_addr_t s, d;
	int ret;

	if (!len)
		return 0;
	a->copies++;
	if (len <= ACME_SMALL)
		return acme_copy_small(a, dst, src, len);
	s = acme_map(a, src, len, DMA_TO_DEVICE);
	if (acme_map_failed(a, s))
		return -ENOMEM;
	d = acme_map(a, dst, len, dst_dir);
	if (acme_map_failed(a, d)) {
		acme_unmap(a, s, len, DMA_TO_DEVICE);
		return -ENOMEM;
	}
	if (BUG("cpu-write-while-mapped"))
		memset(dst, 0, 16); /* "clear the header" while the device owns it */
	if (BUG("unmap-before-done")) {
		acme_unmap(a, s, len, DMA_TO_DEVICE); /* the engine has not read it yet */
		ret = acme_transfer(a, d, s, len);
	} else {
		ret = acme_transfer(a, d, s, len);
		acme_unmap(a, s, len, DMA_TO_DEVICE);
	}
	acme_unmap(a, d, len, dst_dir);
	return ret;
}

static int acme_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct acme_packed *packed;
	struct acme_dma *a;
	u32 bits = 32;
	int irq, ret;

	packed = devm_kzalloc(dev, sizeof(*packed), GFP_KERNEL);
	if (!packed)
		return -ENOMEM;
	a = &packed->a;
	a->dev = dev;
	a->regs = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(a->regs))
		return PTR_ERR(a->regs);
	if (readl(a->regs + MCE_REG_ID) != MCE_ID)
		return dev_err_probe(dev, -ENODEV, "not an ACME engine");
	of_property_read_u32(dev_of_node(dev), "dmamap,dma-mask-bits", &bits);
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(bits));
	if (ret)
		return dev_err_probe(dev, ret, "no usable %u-bit DMA", bits);
	a->ring = dmam_alloc_coherent(dev, RING_SIZE * sizeof(*a->ring), &a->ring_dma, GFP_KERNEL);
	if (!a->ring)
		return -ENOMEM;
	/* Bounce buffers of whole cache lines: devm_kmalloc() aligns them for DMA. */
	a->small_in = devm_kzalloc(dev, ACME_SMALL, GFP_KERNEL);
	a->small_out = BUG("shared-cacheline") ? packed->out : devm_kzalloc(dev, ACME_SMALL, GFP_KERNEL);
	if (!a->small_in || !a->small_out)
		return -ENOMEM;
	a->small_in_dma = dma_map_single(dev, a->small_in, ACME_SMALL, DMA_TO_DEVICE);
	if (dma_mapping_error(dev, a->small_in_dma))
		return -ENOMEM;
	a->small_out_dma = dma_map_single(dev, a->small_out, ACME_SMALL, DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, a->small_out_dma)) {
		dma_unmap_single(dev, a->small_in_dma, ACME_SMALL, DMA_TO_DEVICE);
		return -ENOMEM;
	}
	irq = platform_get_irq(pdev, 0);
	ret = irq < 0 ? irq : devm_request_irq(dev, (unsigned int)irq, acme_irq, 0, "acme-dma", a);
	if (ret)
		goto unmap;
	writel(MCE_CTRL_RESET, a->regs + MCE_REG_CTRL);
	writel((u32)a->ring_dma, a->regs + MCE_REG_RING_LO);
	writel((u32)(a->ring_dma >> 32), a->regs + MCE_REG_RING_HI);
	writel(RING_SIZE, a->regs + MCE_REG_RING_SIZE);
	writel(MCE_INT_DONE, a->regs + MCE_REG_INT_ENABLE);
	writel(MCE_CTRL_ENABLE, a->regs + MCE_REG_CTRL);
	platform_set_drvdata(pdev, a);
	dev_info(dev, "ACME engine, %u-bit DMA, ring at %#llx", bits,
		 (unsigned long long)a->ring_dma);
	return 0;
unmap:
	dma_unmap_single(dev, a->small_out_dma, ACME_SMALL, DMA_FROM_DEVICE);
	dma_unmap_single(dev, a->small_in_dma, ACME_SMALL, DMA_TO_DEVICE);
	return ret;
}

static void acme_remove(struct platform_device *pdev)
{
	struct acme_dma *a = platform_get_drvdata(pdev);

	writel(0, a->regs + MCE_REG_CTRL);
	if (BUG("leak-at-remove"))
		return;
	dma_unmap_single(a->dev, a->small_out_dma, ACME_SMALL, DMA_FROM_DEVICE);
	dma_unmap_single(a->dev, a->small_in_dma, ACME_SMALL, DMA_TO_DEVICE);
}

static const struct of_device_id acme_of_match[] = {
	{ .compatible = "acme,dma-engine" },
	{ .compatible = "dmamap,memcpy" },
	{ }
};
MODULE_DEVICE_TABLE(of, acme_of_match);

static struct platform_driver acme_driver = {
	.probe = acme_probe,
	.remove = acme_remove,
	.driver = {
		.name = "acme-dma",
		.of_match_table = acme_of_match,
	},
};
module_platform_driver(acme_driver);

MODULE_DESCRIPTION("ACME copy engine");
MODULE_LICENSE("MIT");
