/* SPDX-License-Identifier: MIT */
/*
 * A buffer must be RAM from its first byte to its last: a mapping that
 * starts in a RAM bank and runs past its end, or a page and offset that
 * wrap the address space, fail at map time (refused, counted as BAD_ARG
 * and reported) on every backend, where before the device faulted later
 * or, on the host, mapped whatever the wrapped address named.
 */
#include <stdint.h>
#include "../helpers.h"

/* The last page of the board's first RAM bank. */
static uint8_t *last_page(struct dmamap_platform *p)
{
	struct dmamap_ram_bank b;

	if (dmamap_ram_bank(p, 0, &b))
		return NULL;
	return dmamap_phys_to_virt(p, b.start + b.size - PAGE_SIZE);
}

static void refused_past_the_bank(struct dmamap_platform *p, const char *name)
{
	struct device *dev = lookup(p, name);
	uint8_t *tail = last_page(p);
	struct scatterlist sg[2];
	uint64_t before, outside;
	dma_addr_t h;

	REQUIRE(dev && tail);
	before = errk(dev, DMAMAP_ERRK_BAD_ARG);
	outside = errk(dev, DMAMAP_ERRK_NOT_LINEAR);
	/* The last page alone is fine: the range is not refused for being at the end. */
	h = dma_map_single(dev, tail, PAGE_SIZE, DMA_TO_DEVICE);
	CHECK_MSG(!dma_mapping_error(dev, h), "%s: the bank's last page", name);
	if (!dma_mapping_error(dev, h))
		dma_unmap_single(dev, h, PAGE_SIZE, DMA_TO_DEVICE);

	reps.n = 0;
	h = dma_map_single(dev, tail, PAGE_SIZE + 1, DMA_TO_DEVICE);
	CHECK_MSG(dma_mapping_error(dev, h), "%s: one byte past the bank", name);
	CHECK_EQ(reps.n, 1);
	CHECK_EQ(reps.last.kind, DMAMAP_DBG_INVALID_ARGUMENT);
	CHECK_MSG(strstr(reps.last.text, "past the end of its RAM bank"), "%s", reps.last.text);
	h = dma_map_page(dev, virt_to_page(tail), 64, PAGE_SIZE, DMA_FROM_DEVICE);
	CHECK_MSG(dma_mapping_error(dev, h), "%s: page + offset past the bank", name);
	/* An offset that leaves the bank entirely: memory that is no RAM. */
	h = dma_map_page(dev, virt_to_page(tail), 3 * PAGE_SIZE, 64, DMA_FROM_DEVICE);
	CHECK_MSG(dma_mapping_error(dev, h), "%s: offset beyond the bank", name);
	CHECK_EQ(errk(dev, DMAMAP_ERRK_NOT_LINEAR), outside + 1);

	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], tail, 64);
	sg_set_page(&sg[1], virt_to_page(tail), PAGE_SIZE, 128);
	CHECK_MSG(dma_map_sg(dev, sg, 2, DMA_TO_DEVICE) == 0, "%s: sg entry past the bank",
		  name);
	CHECK_EQ(errk(dev, DMAMAP_ERRK_BAD_ARG), before + 3);
	CHECK_EQ(live_maps(dev), 0);
}

TEST(api_buffer_past_the_end_of_ram_is_refused)
{
	struct dmamap_platform *p = quiet(default_board());

	REQUIRE(p);
	refused_past_the_bank(p, "dma-coh");   /* direct, identity */
	refused_past_the_bank(p, "dma-32");    /* direct, non-coherent */
	refused_past_the_bank(p, "dma-iommu"); /* IOMMU, its own map_sg */
	refused_past_the_bank(p, "ixp-pci");   /* dmabounce: the offset beyond the bank is its report */
	dmamap_platform_destroy(p);
}

TEST(api_page_offset_that_wraps_is_refused)
{
	struct dmamap_platform *hp = quiet(host_platform());
	struct dmamap_platform *sp = quiet(default_board());
	struct device *devs[2];
	uint8_t *bufs[2];

	REQUIRE(hp && sp);
	devs[0] = host_device(hp, "h", NULL);
	devs[1] = lookup(sp, "dma-coh");
	bufs[0] = dmamap_kmalloc(hp, PAGE_SIZE, 0);
	bufs[1] = dbuf(sp, PAGE_SIZE);
	for (int i = 0; i < 2; i++) {
		/* The page after the buffer, and an offset that wraps back onto the buffer. */
		size_t wrap = (size_t)0 - PAGE_SIZE;

		REQUIRE(devs[i] && bufs[i]);
		reps.n = 0;
		CHECK(dma_mapping_error(devs[i],
					dma_map_page_attrs(devs[i], virt_to_page(bufs[i] + PAGE_SIZE),
							   wrap, 64, DMA_TO_DEVICE, 0)));
		CHECK_EQ(reps.n, 1);
		CHECK_MSG(strstr(reps.last.text, "wraps"), "%s", reps.last.text);
		CHECK_EQ(errk(devs[i], DMAMAP_ERRK_BAD_ARG), 1);
		CHECK_EQ(live_maps(devs[i]), 0);
	}
	dmamap_kfree(hp, bufs[0]);
	dmamap_platform_destroy(hp);
	dmamap_platform_destroy(sp);
}
