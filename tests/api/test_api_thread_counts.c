/* SPDX-License-Identifier: MIT */
/*
 * Counters are exact at any thread count: 32 threads, all alive at once
 * (more than there are private counter shards), map and unmap on one host
 * device and on one swiotlb-forced device; the device's map and unmap
 * counts and the pool's bounce count must be exactly the sums.
 */
#include <pthread.h>
#include <stdlib.h>
#include <dmamap/dmamap.h>
#include "../helpers.h"

#define THREADS 32
#define ROUNDS 400000

struct crowd {
	struct device *dev;
	pthread_barrier_t all_alive;
	void *buf[THREADS];
	long errors;
};

struct member {
	struct crowd *c;
	int index;
};

static void *map_and_unmap(void *arg)
{
	struct member *m = arg;
	struct crowd *c = m->c;

	/* Every thread holds its shard before any counts: none has exited yet. */
	pthread_barrier_wait(&c->all_alive);
	for (int r = 0; r < ROUNDS; r++) {
		dma_addr_t d = dma_map_single(c->dev, c->buf[m->index], 64, DMA_TO_DEVICE);

		if (dma_mapping_error(c->dev, d)) {
			__atomic_fetch_add(&c->errors, 1, __ATOMIC_RELAXED);
			continue;
		}
		dma_unmap_single(c->dev, d, 64, DMA_TO_DEVICE);
	}
	return NULL;
}

static void run_crowd(struct dmamap_platform *p, struct device *dev)
{
	struct crowd c = { .dev = dev };
	struct member m[THREADS];
	struct dmamap_device_stats s;
	pthread_t t[THREADS];

	REQUIRE(pthread_barrier_init(&c.all_alive, NULL, THREADS) == 0);
	for (int i = 0; i < THREADS; i++) {
		c.buf[i] = dmamap_kmalloc(p, 64, DMAMAP_GFP_DMA_ALIGN);
		REQUIRE(c.buf[i]);
		m[i] = (struct member){ &c, i };
	}
	for (int i = 0; i < THREADS; i++)
		REQUIRE(pthread_create(&t[i], NULL, map_and_unmap, &m[i]) == 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&c.all_alive);
	CHECK_EQ(c.errors, 0);
	CHECK_EQ(dmamap_device_stats(dev, &s), 0);
	CHECK_EQ(s.maps, (uint64_t)THREADS * ROUNDS);
	CHECK_EQ(s.unmaps, (uint64_t)THREADS * ROUNDS);
	CHECK_EQ(s.bytes_mapped, (uint64_t)THREADS * ROUNDS * 64);
	for (int i = 0; i < THREADS; i++)
		dmamap_kfree(p, c.buf[i]);
}

TEST(threads_counts_are_exact_with_32_threads_direct)
{
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_host(&err);
	struct dmamap_device_desc d = { .name = "soft" };
	struct device *dev;

	REQUIRE(p);
	dev = dmamap_device_create(p, &d, &err);
	REQUIRE(dev);
	run_crowd(p, dev);
	dmamap_platform_destroy(p);
}

TEST(threads_counts_are_exact_with_32_threads_bounced)
{
	struct dmamap_error err;
	struct dmamap_platform *p = dmamap_platform_host(&err);
	struct dmamap_device_desc d = { .name = "bounced" };
	struct dmamap_swiotlb_stats ps;
	struct device *dev;

	REQUIRE(p);
	REQUIRE(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_FORCE) == 0);
	dev = dmamap_device_create(p, &d, &err);
	REQUIRE(dev);
	run_crowd(p, dev);
	CHECK_EQ(dmamap_swiotlb_stats(p, dev, &ps), 0);
	CHECK_EQ(ps.bounced_maps, (uint64_t)THREADS * ROUNDS);
	CHECK_EQ(ps.bytes_to_device, (uint64_t)THREADS * ROUNDS * 64);
	dmamap_platform_destroy(p);
}
