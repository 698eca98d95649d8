/* SPDX-License-Identifier: MIT */
/*
 * Threads: every driver-API call may come from any thread. Two threads map,
 * drive and unmap disjoint buffers on one device at once, on the host and on
 * the simulated board, and every byte must arrive; counters must add up.
 * Run under TSan by .ci/run.
 */
#include <pthread.h>
#include <stdlib.h>
#include <dmamap/dmamap.h>
#include "../helpers.h"

#define ROUNDS 2000
#define LEN 512

struct worker {
	struct dmamap_platform *p;
	struct device *dev;
	unsigned int seed;
	long wrong;
	long errors;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	uint8_t *buf = dmamap_kmalloc(w->p, LEN, DMAMAP_GFP_DMA_ALIGN);
	uint8_t dev_view[LEN], pattern[LEN];

	if (!buf) {
		w->errors++;
		return NULL;
	}
	for (int r = 0; r < ROUNDS; r++) {
		dma_addr_t d;

		for (int i = 0; i < LEN; i++)
			pattern[i] = (uint8_t)(w->seed * 31 + r + i);
		/* CPU -> device */
		memcpy(buf, pattern, LEN);
		d = dma_map_single(w->dev, buf, LEN, DMA_TO_DEVICE);
		if (dma_mapping_error(w->dev, d) ||
		    dmamap_device_read(w->dev, d, dev_view, LEN)) {
			w->errors++;
			continue;
		}
		dma_unmap_single(w->dev, d, LEN, DMA_TO_DEVICE);
		w->wrong += memcmp(dev_view, pattern, LEN) != 0;
		/* device -> CPU */
		for (int i = 0; i < LEN; i++)
			pattern[i] = (uint8_t)~pattern[i];
		d = dma_map_single(w->dev, buf, LEN, DMA_FROM_DEVICE);
		if (dma_mapping_error(w->dev, d) ||
		    dmamap_device_write(w->dev, d, pattern, LEN)) {
			w->errors++;
			continue;
		}
		dma_unmap_single(w->dev, d, LEN, DMA_FROM_DEVICE);
		w->wrong += memcmp(buf, pattern, LEN) != 0;
	}
	dmamap_kfree(w->p, buf);
	return NULL;
}

static void run_two(struct dmamap_platform *p, struct device *dev)
{
	struct worker w[2] = { { p, dev, 1, 0, 0 }, { p, dev, 2, 0, 0 } };
	struct dmamap_device_stats s;
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		REQUIRE(pthread_create(&t[i], NULL, work, &w[i]) == 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(w[i].errors, 0);
		CHECK_EQ(w[i].wrong, 0);
	}
	CHECK_EQ(dmamap_device_stats(dev, &s), 0);
	CHECK_EQ(s.maps, 2 * 2 * ROUNDS);
	CHECK_EQ(s.unmaps, 2 * 2 * ROUNDS);
	CHECK_EQ(s.dev_bytes_read, 2 * ROUNDS * LEN);
	CHECK_EQ(s.dev_bytes_written, 2 * ROUNDS * LEN);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
}

TEST(threads_sim_noncoherent_two_threads_move_every_byte)
{
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_builtin("default", &err);

	REQUIRE(p);
	run_two(p, dmamap_device_lookup(p, "dma-nc"));
	dmamap_platform_destroy(p);
}

TEST(threads_sim_coherent_two_threads_move_every_byte)
{
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_builtin("default", &err);

	REQUIRE(p);
	run_two(p, dmamap_device_lookup(p, "dma-coh"));
	dmamap_platform_destroy(p);
}

TEST(threads_host_two_threads_move_every_byte)
{
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_host(&err);
	struct dmamap_device_desc d = { .name = "soft" };
	struct device *dev;

	REQUIRE(p);
	dev = dmamap_device_create(p, &d, &err);
	REQUIRE(dev);
	run_two(p, dev);
	dmamap_platform_destroy(p);
}
