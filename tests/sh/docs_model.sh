#!/bin/sh
# The model docs/devices.md shows compiles as it stands and works: its code
# block, registered, driven by a driver through <dmamap/io.h> and an
# interrupt, on a device of the default board; the bytes are checked.
# $1: the build directory.
set -eu
build=${1:-build}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^## Writing a model/ { f = 1 } f && /^```c/ { c = 1; next } c && /^```/ { exit } c' \
	docs/devices.md >"$tmp/model.c"
[ -s "$tmp/model.c" ] || { echo "docs_model.sh: no C block under '## Writing a model'"; exit 1; }
cat >>"$tmp/model.c" <<'MAIN'

#include <stdio.h>
#include <dmamap/dmamap.h>
#include <dmamap/interrupt.h>
#include <dmamap/io.h>

static irqreturn_t done_irq(int irq, void *dev_id)
{
	(void)irq;
	(*(int *)dev_id)++;
	return IRQ_HANDLED;
}

int main(void)
{
	struct dmamap_platform *p = dmamap_platform_builtin("default", NULL);
	struct dmamap_device_desc d = { .name = "fill0", .model = "fill",
					.dma_mask = DMA_BIT_MASK(32) };
	struct device *dev;
	void __iomem *regs;
	uint8_t *buf;
	dma_addr_t h;
	uint32_t st;
	int irqs = 0;

	if (!p || dmamap_model_register(&fill_model))
		return 1;
	dmamap_debug_enable(p, true);
	dev = dmamap_device_create(p, &d, NULL);
	regs = dev ? dmamap_device_ioremap(dev) : NULL;
	buf = dmamap_kmalloc(p, 3000, DMAMAP_GFP_DMA_ALIGN);
	if (!regs || !buf || request_irq((unsigned int)dmamap_device_irq(dev, 0), done_irq, 0,
					 "fill", &irqs))
		return 1;
	h = dma_map_single(dev, buf, 3000, DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, h))
		return 1;
	writel((uint32_t)h, regs + FILL_ADDR_LO);
	writel((uint32_t)(h >> 32), regs + FILL_ADDR_HI);
	writel(3000, regs + FILL_LEN);
	writel(0x5a, regs + FILL_BYTE);
	writel(1, regs + FILL_GO);
	if (readl_poll_timeout(regs + FILL_STATUS, st, st & FILL_DONE, 1, 1000) || st != FILL_DONE)
		return printf("docs_model.sh: status 0x%x\n", st), 1;
	dma_unmap_single(dev, h, 3000, DMA_FROM_DEVICE);
	for (int i = 0; i < 3000; i++)
		if (buf[i] != 0x5a)
			return printf("docs_model.sh: byte %d is 0x%x\n", i, buf[i]), 1;
	if (irqs != 1 || dmamap_report_count(p, 0))
		return printf("docs_model.sh: %d interrupts, %lu reports\n", irqs,
			      dmamap_report_count(p, 0)), 1;
	free_irq((unsigned int)dmamap_device_irq(dev, 0), &irqs);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
	return 0;
}
MAIN
. tests/sh/lib/link_flags.sh
build_and_run "$tmp/model.c" "$tmp/model"
