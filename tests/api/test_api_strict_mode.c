/* SPDX-License-Identifier: MIT */
/*
 * Strict mode and the checker's log: DMAMAP_STRICT=1 or dmamap_set_strict()
 * make the first report abort(), for a platform and for calls with no
 * device; off, nothing aborts; the checker's lines reach the log hook.
 */
#include "../helpers.h"

TEST_ABORTS(api_strict_platform_aborts)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	void *buf;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	buf = dmamap_kmalloc(p, 64, DMAMAP_GFP_DMA);
	REQUIRE(dev && buf);
	dmamap_set_strict(p, true);
	/* A good call does not abort... */
	dma_unmap_single(dev, dma_map_single(dev, buf, 64, DMA_TO_DEVICE), 64,
			 DMA_TO_DEVICE);
	/* ...a bad one does. */
	dma_map_single(dev, buf, 64, (enum dma_data_direction)7);
}

TEST_ABORTS(api_strict_env_aborts)
{
	struct dmamap_platform *p;
	struct device *dev;

	setenv("DMAMAP_STRICT", "1", 1);
	p = default_board();
	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	dma_unmap_single(dev, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
}

TEST_ABORTS(api_strict_null_device_aborts)
{
	uint8_t buf[64];

	dmamap_set_strict(NULL, true);
	dma_map_single(NULL, buf, sizeof(buf), DMA_TO_DEVICE);
}

TEST(api_strict_off_does_not_abort)
{
	struct dmamap_platform *p;
	struct device *dev;

	/* The platform's own setting wins over the process's. */
	setenv("DMAMAP_STRICT", "1", 1);
	p = default_board();
	REQUIRE(p);
	dmamap_set_strict(p, false);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	dma_unmap_single(dev, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_UNMAP_INVALID), 1);
	dmamap_platform_destroy(p);
}

TEST(api_checker_logs)
{
	struct log_capture cap = { 0 };
	struct dmamap_platform *p = default_board();
	struct scatterlist sg[2];
	struct device *dev;
	dma_addr_t h, ch;
	void *buf, *cpu;
	int n;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	REQUIRE(dev);
	dmamap_set_log_hook(p, capture_hook, &cap);
	dmamap_debug_enable(p, true);
	CHECK(dmamap_debug_enabled(p));

	/* A correct driver: nothing is logged. */
	buf = dmamap_kmalloc(p, 1024, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	memset(buf, 0x11, 1024);
	h = dma_map_single(dev, buf, 1024, DMA_BIDIRECTIONAL);
	CHECK(!dma_mapping_error(dev, h));
	dma_sync_single_for_cpu(dev, h, 1024, DMA_BIDIRECTIONAL);
	dma_sync_single_for_device(dev, h, 1024, DMA_BIDIRECTIONAL);
	dma_unmap_single(dev, h, 1024, DMA_BIDIRECTIONAL);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 512);
	sg_set_buf(&sg[1], (char *)buf + 512, 512);
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	CHECK_EQ(n, 2);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &ch, GFP_KERNEL);
	CHECK(cpu != NULL);
	dma_free_coherent(dev, PAGE_SIZE, cpu, ch);
	dmamap_kfree(p, buf);
	CHECK_EQ(cap.lines, 0);
	CHECK_EQ(dmamap_report_count(p, 0), 0);

	/* A bad call: one kernel-like line naming the device. */
	dma_unmap_single(dev, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
	CHECK_EQ(cap.lines, 1);
	CHECK(strstr(cap.last, "DMA-API:") != NULL);
	CHECK(strstr(cap.last, "dma-nc") != NULL);

	/* Checker off: still counted, not logged. */
	dmamap_debug_enable(p, false);
	dma_unmap_single(dev, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
	CHECK_EQ(cap.lines, 1);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_UNMAP_INVALID), 2);
	dmamap_platform_destroy(p);
}
