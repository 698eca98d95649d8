#!/bin/sh
# The README's driver compiles as it stands and copies the bytes, on every
# memcpy engine of the default board: its code block, a main around it.
# $1: the build directory.
set -eu
build=${1:-build}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^## A driver/ { f = 1 } f && /^```c/ { c = 1; next } c && /^```/ { exit } c' README.md >"$tmp/readme.c"
[ -s "$tmp/readme.c" ] || { echo "readme.sh: no C block under '## A driver'"; exit 1; }
cat >>"$tmp/readme.c" <<'MAIN'

#include <stdio.h>
#include <string.h>
#include <dmamap/dmamap.h>

int main(void)
{
	struct dmamap_platform *p = dmamap_platform_builtin("default", NULL);
	unsigned int copied = 0;

	if (!p)
		return 1;
	dmamap_debug_enable(p, true);
	for (unsigned int i = 0; i < dmamap_device_count(p); i++) {
		struct device *dev = dmamap_device_at(p, i);
		void __iomem *regs = dmamap_device_ioremap(dev);
		dma_addr_t ring_dma;
		struct mce_desc *ring;
		uint8_t *src = dmamap_kmalloc(p, 5000, DMAMAP_GFP_DMA_ALIGN);
		uint8_t *dst = dmamap_kmalloc(p, 5000, DMAMAP_GFP_DMA_ALIGN | __GFP_ZERO);

		if (strcmp(dmamap_device_model_name(dev), "memcpy"))
			continue;
		ring = dma_alloc_coherent(dev, sizeof(*ring), &ring_dma, GFP_KERNEL);
		if (!regs || !ring || !src || !dst)
			return 1;
		writel((uint32_t)ring_dma, regs + MCE_REG_RING_LO);
		writel((uint32_t)(ring_dma >> 32), regs + MCE_REG_RING_HI);
		writel(1, regs + MCE_REG_RING_SIZE);
		writel(MCE_CTRL_ENABLE, regs + MCE_REG_CTRL);
		/* Three copies through the same ring: it must be reusable. */
		for (int round = 0; round < 3; round++) {
			for (int k = 0; k < 5000; k++)
				src[k] = (uint8_t)(k * 7 + i + round);
			if (copy(dev, regs, ring, dst, src, 5000) || memcmp(src, dst, 5000)) {
				printf("readme.sh: copy %d on %s failed\n", round, dev_name(dev));
				return 1;
			}
		}
		writel(0, regs + MCE_REG_CTRL);
		dma_free_coherent(dev, sizeof(*ring), ring, ring_dma);
		dmamap_kfree(p, src);
		dmamap_kfree(p, dst);
		copied++;
	}
	if (dmamap_report_count(p, 0) || copied != 6) {
		printf("readme.sh: %u copies, %lu reports\n", copied, dmamap_report_count(p, 0));
		return 1;
	}
	dmamap_platform_destroy(p);
	return 0;
}
MAIN
. tests/sh/lib/link_flags.sh
build_and_run "$tmp/readme.c" "$tmp/readme"
