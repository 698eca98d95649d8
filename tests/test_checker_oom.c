/* SPDX-License-Identifier: MIT */
/*
 * The checker never fails a mapping for want of its own memory: when it
 * cannot grow, it reports once and turns itself off, and the driver's
 * mappings carry on.
 */
#include <stdlib.h>
#include <dmamap/dmamap.h>
#include "helpers.h"

#define N 10000

TEST(checker_out_of_memory_disables_itself_once)
{
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_host(&err);
	struct dmamap_device_desc d = { .name = "soft" };
	struct device *dev;
	uint8_t *buf = malloc(N * 64);
	dma_addr_t *h = malloc(N * sizeof(*h));
	int failed = 0;

	REQUIRE(p && buf && h);
	dev = dmamap_device_create(p, &d, &err);
	REQUIRE(dev);
	dmamap_debug_enable(p, true);
	REQUIRE(dmamap_debug_enabled(p));
	/* The next time the checker needs a chunk of entries, there is none. */
	dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, 1);
	for (int i = 0; i < N; i++) {
		h[i] = dma_map_single(dev, buf + i * 64, 64, DMA_TO_DEVICE);
		failed += dma_mapping_error(dev, h[i]) != 0;
	}
	CHECK_EQ(failed, 0);
	CHECK_EQ(dmamap_fault_injected(p), 1);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_CHECKER_DISABLED), 1);
	CHECK(!dmamap_debug_enabled(p));
	for (int i = 0; i < N; i++)
		dma_unmap_single(dev, h[i], 64, DMA_TO_DEVICE);
	/* Off means off: nothing else was reported, nothing leaked at destroy. */
	CHECK_EQ(dmamap_report_count(p, 0), 1);
	dmamap_platform_destroy(p);
	free(buf);
	free(h);
}

TEST(checker_reenabled_after_oom_starts_clean)
{
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_host(&err);
	struct dmamap_device_desc d = { .name = "soft" };
	struct device *dev;
	static uint8_t buf[256]; /* not on the stack: that would be a report too */
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_create(p, &d, &err);
	REQUIRE(dev);
	dmamap_debug_enable(p, true);
	h = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(dmamap_debug_live(dev, NULL), 1);
	/* Off forgets; on again tracks only what is mapped from then on. */
	dmamap_debug_enable(p, false);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	dmamap_debug_enable(p, true);
	dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_NOT_MAPPED), 1);
	dmamap_platform_destroy(p);
}
