/* SPDX-License-Identifier: MIT */
/*
 * Mappings larger than the checker's per-page span (256 KiB) are kept on
 * a list of their own: the device reading or writing deep inside one, a
 * partial sync in its middle and the CPU's view after it are all found
 * there and pass; an access one byte past its end, a partial sync that
 * runs past it and a CPU write while the device owns it are still
 * reported.
 */
#include "../helpers.h"

#define BIG (1u << 20)
#define DEEP (700u << 10)

TEST(checker_large_mapping_is_found_deep_inside_and_not_past_its_end)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev = lookup(p, NC);
	struct page *pg = dmamap_alloc_pages(p, 8, 0); /* 1 MiB */
	uint8_t *buf = pg ? page_address(pg) : NULL, want[4096], got[64];
	dma_addr_t h;

	REQUIRE(dev && buf);
	h = dma_map_single(dev, buf, BIG, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	fill_pattern(want, sizeof(want), 7);
	CHECK_EQ(dmamap_device_write(dev, h + DEEP, want, sizeof(want)), 0);
	CHECK_EQ(dmamap_device_read(dev, h + BIG - 64, got, 64), 0);
	dma_sync_single_range_for_cpu(dev, h, DEEP, sizeof(want), DMA_FROM_DEVICE);
	CHECK_MEM(buf + DEEP, want, sizeof(want));
	dma_sync_single_range_for_device(dev, h, DEEP, sizeof(want), DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	/* One byte past the end: no mapping holds it. */
	CHECK_EQ(dmamap_device_read(dev, h + BIG, got, 1), 0);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED);
	/* A partial sync that runs past the end. */
	rec_reset();
	dma_sync_single_range_for_cpu(dev, h, BIG - 2048, 4096, DMA_FROM_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SYNC_OUTSIDE);
	dma_unmap_single(dev, h, BIG, DMA_FROM_DEVICE);
	/* The CPU writes deep inside while the device owns it: the unmap's invalidate loses it, both said. */
	h = dma_map_single(dev, buf, BIG, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	rec_reset();
	buf[DEEP + 10] ^= 0xff;
	dma_unmap_single(dev, h, BIG, DMA_FROM_DEVICE);
	EXPECT_KINDS_ANY_ORDER(DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS, DMAMAP_DBG_CPU_DATA_LOST);
	rec_reset();
	CHECK_EQ(dmamap_device_read(dev, h + DEEP, got, 64), 0);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED);
	dmamap_free_pages(p, pg, 8);
	dmamap_platform_destroy(p);
}
