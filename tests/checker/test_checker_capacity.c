/* SPDX-License-Identifier: MIT */
/*
 * The checker at scale and out of memory: 256K live mappings map and unmap
 * in bounded time; when it cannot grow it reports once, turns itself off
 * and never fails a driver's mapping.
 */
#include <time.h>
#include "../helpers.h"

TEST(checker_256k_live_mappings)
{
	enum { N = 262144, SLICE = 64 };
	struct dmamap_platform *p = host_board();
	struct timespec t0, t1, t2;
	struct device *dev;
	dma_addr_t *h;
	uint8_t *big;
	double map_s, unmap_s;
	unsigned long bad = 0;

	REQUIRE(p);
	dev = host_device(p, "h-scale", NULL);
	big = aligned_alloc(4096, (size_t)N * SLICE);
	h = malloc(N * sizeof(*h));
	REQUIRE(dev && big && h);
	memset(big, 0, (size_t)N * SLICE);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < N; i++) {
		uint8_t *s = big + i * SLICE;

		h[i] = dma_map_page(dev, virt_to_page(s), offset_in_page(s), SLICE,
				    DMA_TO_DEVICE);
		bad += dma_mapping_error(dev, h[i]) != 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK_EQ(bad, 0);
	CHECK_EQ(dmamap_debug_live(dev, NULL), N);
	CHECK_EQ(dmamap_debug_live(NULL, p), N);
	for (size_t i = 0; i < N; i++)
		dma_unmap_page(dev, h[i], SLICE, DMA_TO_DEVICE);
	clock_gettime(CLOCK_MONOTONIC, &t2);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	CHECK_EQ(dmamap_debug_live(NULL, p), 0);
	EXPECT_NO_REPORTS();
	map_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	unmap_s = (double)(t2.tv_sec - t1.tv_sec) + (double)(t2.tv_nsec - t1.tv_nsec) / 1e9;
	printf("#   256K live: map %.0f ns, unmap %.0f ns per mapping\n",
	       map_s * 1e9 / N, unmap_s * 1e9 / N);
	CHECK_MSG(map_s + unmap_s < 5.0, "256K maps+unmaps took %.2f s", map_s + unmap_s);
	free(h);
	free(big);
	DESTROY_CLEAN(p);
}

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
