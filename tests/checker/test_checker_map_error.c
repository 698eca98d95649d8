/* SPDX-License-Identifier: MIT */
/*
 * The checker: a handle used before dma_mapping_error() was asked about it
 * (at unmap, sync or a device access) is reported; asked, it is not, even
 * across a restart of the checker.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked()) and calls dma_mapping_error() on every handle it
 * maps, else it would also get MAP_ERR_NOT_CHECKED; device-writable mappings
 * on non-coherent devices use line-aligned buffers, else MAP_UNALIGNED;
 * except where that is the mistake under test.
 */
#include "../helpers.h"

TEST(checker_map_err_not_checked_unmap)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	EXPECT_NO_REPORTS();
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_ERR_NOT_CHECKED);
	CHECK_EQ(rec.r[0].addr, h);
	CHECK_TRACKED(0);

	/* Checked: nothing. Checked late (after the map, before use): nothing. */
	rec_reset();
	h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

/*
 * dma_mapping_error() finds the mapping this thread made last without a
 * lookup. After the checker is turned off (which frees its entries) and on
 * again, that shortcut must not reach the old checker's memory (ASan sees
 * it if it does), and the new checker judges only what it saw mapped.
 */
TEST(checker_map_err_after_checker_restart)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf, *buf2;
	dma_addr_t a, b;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	buf2 = dbuf(p, 256);
	REQUIRE(dev && buf && buf2);
	a = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(a != DMA_MAPPING_ERROR);
	dmamap_debug_enable(p, false);
	dmamap_debug_enable(p, true);
	rec_reset();
	CHECK_EQ(dma_mapping_error(dev, a), 0);
	EXPECT_NO_REPORTS();
	/* Forgotten with the old checker: the new one never saw it mapped. */
	dma_unmap_single(dev, a, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	/* And what it does see is judged as usual. */
	rec_reset();
	b = dma_map_single(dev, buf2, 256, DMA_TO_DEVICE);
	REQUIRE(b != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, b, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_ERR_NOT_CHECKED);
	CHECK_EQ(rec.r[0].addr, b);
	rec_reset();
	b = dma_map_single(dev, buf2, 256, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, b));
	dma_unmap_single(dev, b, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, buf);
	dmamap_kfree(p, buf2);
	DESTROY_CLEAN(p);
}

TEST(checker_map_err_not_checked_sync)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_sync_single_for_cpu(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_ERR_NOT_CHECKED);
	CHECK_TRACKED(0);
	/* Reported again at unmap or not: the contract does not say. */
	stop_checking(p);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(checker_map_err_not_checked_device_access)
{
	struct dmamap_platform *p = sim_board("default");
	uint8_t *buf, got[256];
	struct device *dev;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_device_read(dev, h, got, sizeof(got)), 0);
	EXPECT_KINDS(DMAMAP_DBG_MAP_ERR_NOT_CHECKED);
	CHECK_TRACKED(0);
	stop_checking(p);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}
