/* SPDX-License-Identifier: MIT */
/*
 * Chaos mode with threads: a correct program whose threads each drive
 * their own buffers, side by side in the same pages, loses no byte while
 * chaos evicts and prefetches around every access. A speculative fill or
 * an eviction must never land on a line another thread is writing at that
 * moment. Run under TSan by .ci/run.
 */
#include <pthread.h>
#include "../helpers.h"

#define THREADS 2
#define ROUNDS 3000
#define LEN 448 /* seven lines: whole lines, neighbours in the same page */

struct lane {
	struct device *dev;
	uint8_t *buf;
	unsigned int seed;
	long wrong, failed;
};

static void *drive(void *arg)
{
	struct lane *l = arg;
	uint8_t want[LEN], seen[LEN];

	for (unsigned int r = 0; r < ROUNDS; r++) {
		dma_addr_t h;

		/* The CPU owns the buffer: it writes it over and over. */
		for (unsigned int k = 0; k < 8; k++) {
			pattern(want, LEN, l->seed * 100003 + r * 8 + k);
			memcpy(l->buf, want, LEN);
		}
		h = dma_map_single(l->dev, l->buf, LEN, DMA_TO_DEVICE);
		if (dma_mapping_error(l->dev, h) || dmamap_device_read(l->dev, h, seen, LEN)) {
			l->failed++;
			continue;
		}
		dma_unmap_single(l->dev, h, LEN, DMA_TO_DEVICE);
		l->wrong += ndiff(seen, want, LEN);

		pattern(want, LEN, l->seed * 7919 + r);
		h = dma_map_single(l->dev, l->buf, LEN, DMA_FROM_DEVICE);
		if (dma_mapping_error(l->dev, h) || dmamap_device_write(l->dev, h, want, LEN)) {
			l->failed++;
			continue;
		}
		dma_unmap_single(l->dev, h, LEN, DMA_FROM_DEVICE);
		l->wrong += ndiff(l->buf, want, LEN);
	}
	return NULL;
}

TEST(cache_chaos_threads_lose_no_byte)
{
	struct dmamap_platform *p = builtin_board("default");
	struct lane lanes[THREADS];
	struct dmamap_sim_cache_stats cs;
	pthread_t t[THREADS];
	struct device *nc;

	REQUIRE(p);
	nc = dmamap_device_lookup(p, NC);
	REQUIRE(nc);
	for (int i = 0; i < THREADS; i++) {
		lanes[i] = (struct lane){ nc, dbuf(p, LEN), (unsigned int)i + 1, 0, 0 };
		REQUIRE(lanes[i].buf);
	}
	REQUIRE(dmamap_sim_set_chaos(p, 12345, 1000) == 0);
	for (int i = 0; i < THREADS; i++)
		REQUIRE(pthread_create(&t[i], NULL, drive, &lanes[i]) == 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	dmamap_sim_set_chaos(p, 0, 0);
	for (int i = 0; i < THREADS; i++) {
		CHECK_EQ(lanes[i].failed, 0);
		CHECK_EQ(lanes[i].wrong, 0);
	}
	CHECK_EQ(sim_losses(p), 0);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	REQUIRE(dmamap_sim_cache_stats(p, &cs) == 0);
	CHECK_MSG(cs.chaos_evictions + cs.chaos_prefetches > 0, "chaos did nothing");
	dmamap_platform_destroy(p);
}
