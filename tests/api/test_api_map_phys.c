/* SPDX-License-Identifier: MIT */
/*
 * dma_map_phys()/dma_unmap_phys() (Linux 6.18): a RAM address maps as the
 * page holding it would, cache maintenance included; with DMA_ATTR_MMIO
 * the address is MMIO and maps as a resource, untouched by the cache.
 */
#include "../helpers.h"

TEST(map_phys_of_ram_cleans_and_maps_as_a_page)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, NC);
	uint8_t *buf = dbuf(p, 512), want[512];
	dma_addr_t h;

	REQUIRE(dev && buf);
	pattern(want, sizeof(want), 5);
	memcpy(buf, want, sizeof(want)); /* dirty in the CPU's cache */
	h = dma_map_phys(dev, virt_to_phys(buf), 512, DMA_TO_DEVICE, 0);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(h, dmamap_phys_to_dma(dev, virt_to_phys(buf)));
	/* The device reads the CPU's bytes: the map cleaned the lines. */
	CHECK(dev_reads(dev, h, want, sizeof(want)));
	CHECK(stats_of(dev).cache_bytes_cleaned >= 512);
	dma_unmap_phys(dev, h, 512, DMA_TO_DEVICE, 0);
	CHECK_EQ(live_maps(dev), 0);
	/* Not RAM, and no DMA_ATTR_MMIO: refused. */
	CHECK_ERRK(dev, DMAMAP_ERRK_NOT_LINEAR,
		   dma_map_phys(dev, MMIO_PHYS, 64, DMA_TO_DEVICE, 0) == DMA_MAPPING_ERROR);
	dmamap_platform_destroy(p);
}

TEST(map_phys_mmio_is_a_resource)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, NC);
	uint8_t *buf = dbuf(p, 64);
	uint64_t cleaned;
	dma_addr_t h;

	REQUIRE(dev && buf);
	cleaned = stats_of(dev).cache_bytes_cleaned;
	h = dma_map_phys(dev, MMIO_PHYS, 4096, DMA_BIDIRECTIONAL, DMA_ATTR_MMIO);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(h, dma_map_resource(dev, MMIO_PHYS, 4096, DMA_BIDIRECTIONAL, 0));
	CHECK_EQ(stats_of(dev).cache_bytes_cleaned, cleaned); /* MMIO is not cached */
	dma_unmap_phys(dev, h, 4096, DMA_BIDIRECTIONAL, DMA_ATTR_MMIO);
	dma_unmap_resource(dev, h, 4096, DMA_BIDIRECTIONAL, 0);
	/* RAM is no MMIO. */
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_ARG,
		   dma_map_phys(dev, virt_to_phys(buf), 64, DMA_TO_DEVICE, DMA_ATTR_MMIO) ==
			   DMA_MAPPING_ERROR);
	dmamap_platform_destroy(p);
}

TEST(map_phys_checker_sees_the_kind_of_mapping)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev = lookup(p, "dma-32"); /* no window: the checker judges */
	uint8_t *buf = dbuf(p, 128);
	dma_addr_t h;

	REQUIRE(dev && buf);
	h = dma_map_phys(dev, virt_to_phys(buf), 128, DMA_TO_DEVICE, 0);
	REQUIRE(!dma_mapping_error(dev, h));
	rec_reset();
	dma_unmap_page(dev, h, 128, DMA_TO_DEVICE); /* a RAM mapping is a page mapping */
	EXPECT_NO_REPORTS();
	h = dma_map_phys(dev, MMIO_PHYS, 128, DMA_TO_DEVICE, DMA_ATTR_MMIO);
	REQUIRE(!dma_mapping_error(dev, h));
	rec_reset();
	dma_unmap_phys(dev, h, 128, DMA_TO_DEVICE, 0); /* DMA_ATTR_MMIO forgotten */
	EXPECT_KINDS(DMAMAP_DBG_WRONG_TYPE);
	stop_checking(p);
	dmamap_platform_destroy(p);
}
