/* SPDX-License-Identifier: MIT */
/*
 * Chaos with eight threads on every backend at once: each thread drives
 * its own buffers through one device of the default board (direct
 * coherent and not, 32-bit and 24-bit bounce buffers, dmabounce, the
 * IOMMU), to the device and back, while chaos evicts and prefetches lines
 * around every access. No byte may be lost, and nothing reported. `make
 * test` runs it for a second (under TSan in .ci/run); `make soak` for as
 * long as DMAMAP_SOAK_SECONDS says.
 */
#include <pthread.h>
#include "../helpers.h"

#define THREADS 8
#define LEN 448 /* seven lines */

static const char *const devices[] = { "dma-coh", "dma-nc", "dma-32", "dma-24", "ixp-pci",
					 "dma-iommu" };

struct lane {
	struct device *dev;
	uint8_t *buf;
	unsigned int seed;
	double until;
	long rounds, wrong, failed;
};

static void *drive(void *arg)
{
	struct lane *l = arg;
	uint8_t want[LEN], seen[LEN];

	/* One round at least: a loaded machine may start a lane after its window closed. */
	for (unsigned int r = 0; !r || now_s() < l->until; r++, l->rounds++) {
		dma_addr_t h;

		pattern(want, LEN, l->seed * 100003 + r);
		memcpy(l->buf, want, LEN);
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

TEST_TIMEOUT(cache_chaos_threads_every_backend, 7200)
{
	const char *env = getenv("DMAMAP_SOAK_SECONDS");
	double seconds = env && atof(env) > 0 ? atof(env) : 1;
	struct dmamap_platform *p = builtin_board("default");
	struct lane lanes[THREADS];
	pthread_t t[THREADS];
	long rounds = 0, wrong = 0;

	REQUIRE(p);
	for (int i = 0; i < THREADS; i++) {
		struct device *dev = dmamap_device_lookup(p, devices[i % 6]);

		REQUIRE(dev);
		lanes[i] = (struct lane){ dev, dbuf(p, LEN), (unsigned int)i + 1, 0, 0, 0, 0 };
		REQUIRE(lanes[i].buf);
	}
	REQUIRE(dmamap_sim_set_chaos(p, 4242, 1000) == 0);
	for (int i = 0; i < THREADS; i++) {
		lanes[i].until = now_s() + seconds;
		REQUIRE(pthread_create(&t[i], NULL, drive, &lanes[i]) == 0);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	dmamap_sim_set_chaos(p, 0, 0);
	for (int i = 0; i < THREADS; i++) {
		CHECK_MSG(!lanes[i].failed && !lanes[i].wrong, "%s: %ld rounds, %ld failed, %ld bytes wrong",
			  devices[i % 6], lanes[i].rounds, lanes[i].failed, lanes[i].wrong);
		rounds += lanes[i].rounds;
		wrong += lanes[i].wrong;
	}
	CHECK_EQ(sim_losses(p), 0);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	printf("# %d threads on %zu backends, chaos on: %ld round trips in %.0f s, %ld bytes wrong\n",
	       THREADS, sizeof(devices) / sizeof(devices[0]), rounds, seconds, wrong);
	dmamap_platform_destroy(p);
}
