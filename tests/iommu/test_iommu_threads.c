/* SPDX-License-Identifier: MIT */
/*
 * Two threads map, drive and unmap through one IOMMU domain at once, in
 * strict and lazy mode: every byte arrives, no fault, the counters add up.
 *
 * Every check compares bytes: what the device read at the returned IOVA,
 * what the CPU sees after unmap, or the memory view probed with
 * dmamap_sim_mem_read(). A fault must move nothing.
 */
#include <pthread.h>
#include "../helpers.h"

#define T_ROUNDS 2000

struct iworker {
	struct dmamap_platform *p;
	struct device *dev;
	unsigned int seed;
	long wrong, errors;
};

static void *iommu_work(void *arg)
{
	struct iworker *w = arg;
	struct page *pg = dmamap_alloc_pages(w->p, 0, 0);
	uint8_t pat[PAGE_SIZE], back[PAGE_SIZE];
	uint8_t *buf;

	if (!pg) {
		w->errors++;
		return NULL;
	}
	buf = page_address(pg);
	for (int r = 0; r < T_ROUNDS; r++) {
		size_t len = 64 + (size_t)((r * 97 + w->seed * 13) % (PAGE_SIZE - 64));
		dma_addr_t d;

		for (size_t i = 0; i < len; i++)
			pat[i] = (uint8_t)(w->seed * 31 + r + i);
		memcpy(buf, pat, len);
		d = dma_map_single(w->dev, buf, len, DMA_BIDIRECTIONAL);
		if (dma_mapping_error(w->dev, d)) {
			w->errors++;
			continue;
		}
		/* The device reads what the CPU wrote, then writes its own bytes. */
		if (dmamap_device_read(w->dev, d, back, len))
			w->errors++;
		else
			w->wrong += memcmp(back, pat, len) != 0;
		for (size_t i = 0; i < len; i++)
			pat[i] = (uint8_t)~pat[i];
		if (dmamap_device_write(w->dev, d, pat, len))
			w->errors++;
		dma_unmap_single(w->dev, d, len, DMA_BIDIRECTIONAL);
		w->wrong += memcmp(buf, pat, len) != 0;
	}
	dmamap_free_pages(w->p, pg, 0);
	return NULL;
}

static void iommu_threads(bool lazy)
{
	struct dmamap_platform *p = quiet_board();
	struct iworker w[2];
	struct dmamap_iommu_stats s0, s1;
	struct device *dev;
	pthread_t t[2];

	REQUIRE(p);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	if (lazy)
		CHECK_EQ(dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_LAZY), 0);
	s0 = istats(dev);
	for (int i = 0; i < 2; i++)
		w[i] = (struct iworker){ p, dev, (unsigned int)i + 1, 0, 0 };
	for (int i = 0; i < 2; i++)
		REQUIRE(pthread_create(&t[i], NULL, iommu_work, &w[i]) == 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(w[i].errors, 0);
		CHECK_EQ(w[i].wrong, 0);
	}
	s1 = istats(dev);
	CHECK_EQ(s1.map_calls - s0.map_calls, 2 * T_ROUNDS);
	CHECK_EQ(s1.unmap_calls - s0.unmap_calls, 2 * T_ROUNDS);
	CHECK_EQ(s1.map_calls, s1.unmap_calls);
	CHECK_EQ(s1.pages_mapped, s0.pages_mapped);
	CHECK_EQ(s1.translation_faults, s0.translation_faults);
	CHECK_EQ(s1.permission_faults, s0.permission_faults);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	CHECK_EQ(stats_of(dev).faults, 0);
	if (lazy) {
		CHECK(s1.queue_flushes > s0.queue_flushes);
		CHECK_EQ(dmamap_iommu_flush(dev), 0);
		CHECK_EQ(istats(dev).queued, 0);
	}
	dmamap_platform_destroy(p);
}

TEST(iommu_threads_map_unmap_strict)
{
	iommu_threads(false);
}

TEST(iommu_threads_map_unmap_lazy)
{
	iommu_threads(true);
}
