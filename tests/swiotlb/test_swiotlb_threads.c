/* SPDX-License-Identifier: MIT */
/*
 * swiotlb from several threads: two threads bounce through the default
 * pool at once (dma-24 and a forced host device) with every byte and
 * counter right; many threads holding mappings of mixed sizes in a small
 * restricted pool never share a slot, and the pool is whole afterwards.
 *
 * Every check compares bytes the device read (dmamap_device_read) or the CPU
 * reads through its pointer against patterns the test wrote, never a
 * counter alone.
 */
#include <pthread.h>
#include "../helpers.h"

/* The largest mapping a worker makes. */
#define RMAX 8192

#define TROUNDS 600

struct tworker {
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *region; /* 16 KiB of its own, above dma-24's window */
	unsigned int seed;
	unsigned long wrong, errors, maps, bytes, bytes_in, bytes_out;
};

static void *tworker_run(void *arg)
{
	struct tworker *w = arg;
	uint64_t rng = 0x2545f4914f6cdd1dULL * w->seed;
	uint8_t *a = malloc(RMAX), *b = malloc(RMAX), *got = malloc(RMAX);

	if (!a || !b || !got) {
		w->errors++;
		goto out;
	}
	for (unsigned int r = 0; r < TROUNDS; r++) {
		enum dma_data_direction dir = dirs[r % 3];
		size_t n, off;
		uint8_t *buf;
		dma_addr_t h;

		rng ^= rng >> 12;
		rng ^= rng << 25;
		rng ^= rng >> 27;
		n = 1 + (size_t)((rng * 2685821657736338717ULL) >> 40) % RMAX;
		off = (size_t)(rng >> 50) % (16 * KiB - RMAX);
		buf = w->region + off;
		pat(a, n, w->seed * 1000 + r);
		pat(b, n, w->seed * 1000 + r + 500);
		memcpy(buf, a, n);
		h = dma_map_single(w->dev, buf, n, dir);
		if (dma_mapping_error(w->dev, h)) {
			w->errors++;
			continue;
		}
		w->maps++;
		w->bytes += n;
		w->bytes_in += n;
		w->wrong += !dmamap_swiotlb_is_bounce(w->dev, h);
		if (dmamap_device_read(w->dev, h, got, n) || memcmp(got, a, n))
			w->wrong++;
		if (dir != DMA_TO_DEVICE) {
			w->bytes_out += n;
			if (dmamap_device_write(w->dev, h, b, n))
				w->errors++;
		}
		dma_unmap_single(w->dev, h, n, dir);
		if (memcmp(buf, dir == DMA_TO_DEVICE ? a : b, n))
			w->wrong++;
	}
out:
	free(a);
	free(b);
	free(got);
	return NULL;
}

/* Two threads bounce through the default pool, each in its own 16 KiB @region. */
static void two_threads_run(struct dmamap_platform *p, struct device *dev, uint8_t **region)
{
	struct tworker w[2];
	pthread_t t[2];
	struct dmamap_swiotlb_stats s0, s;
	struct dmamap_device_stats d0, d;
	unsigned long maps = 0, bytes = 0, in = 0, out = 0;

	s0 = pool_of(p, NULL);
	d0 = stats_of(dev);
	for (int i = 0; i < 2; i++)
		w[i] = (struct tworker){ .p = p, .dev = dev, .region = region[i],
					 .seed = (unsigned int)i + 1 };
	for (int i = 0; i < 2; i++)
		REQUIRE(pthread_create(&t[i], NULL, tworker_run, &w[i]) == 0);
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		CHECK_EQ(w[i].errors, 0);
		CHECK_EQ(w[i].wrong, 0);
		maps += w[i].maps;
		bytes += w[i].bytes;
		in += w[i].bytes_in;
		out += w[i].bytes_out;
	}
	CHECK_EQ(maps, 2 * TROUNDS);
	s = pool_of(p, NULL);
	CHECK_EQ(s.bounced_maps - s0.bounced_maps, maps);
	CHECK_EQ(s.bytes_to_device - s0.bytes_to_device, in);
	CHECK_EQ(s.bytes_from_device - s0.bytes_from_device, out);
	CHECK_EQ(s.used_slots, 0);
	CHECK(s.high_water >= 1 && s.high_water <= 2 * (RMAX / 2048 + 1));
	CHECK_EQ(s.failures, 0);
	d = stats_of(dev);
	CHECK_EQ(d.maps - d0.maps, maps);
	CHECK_EQ(d.unmaps - d0.unmaps, maps);
	CHECK_EQ(d.bytes_mapped - d0.bytes_mapped, bytes);
	CHECK_EQ(d.bytes_bounced - d0.bytes_bounced, bytes);
	CHECK_EQ(d.errors, 0);
}

TEST(swiotlb_two_threads_map_unmap_concurrently)
{
	on_dma24(2, 2, two_threads_run);
}

TEST(swiotlb_host_forced_two_threads_map_unmap_concurrently)
{
	on_host_forced(2, 16 * KiB, two_threads_run);
}

/*
 * Many threads (more than there are shards, so some share one), each
 * holding up to three mappings of mixed sizes and directions in a small
 * restricted pool, so searches keep meeting other threads' parked runs.
 * The device tags each bounce buffer when the mapping starts and must find
 * its tag intact at unmap; copies back must carry it. Afterwards nothing
 * is held and the whole pool maps again.
 */
#define MT_THREADS 20
#define MT_ROUNDS 1500
#define MT_HOLD 3

struct mt_worker {
	struct device *dev;
	unsigned int id;
	unsigned long wrong;
};

static const size_t mt_sizes[] = { 100, 2048, 2049, 4096, 6000, 8192, 20000, 65536 };

static void mt_fill(uint8_t *b, size_t n, uint32_t tag)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(tag * 131 + i * 7);
}

static void *mt_run(void *arg)
{
	struct mt_worker *w = arg;
	uint64_t rng = 0x9e3779b97f4a7c15ULL * (w->id + 1);
	struct { dma_addr_t h; size_t size; enum dma_data_direction dir; uint8_t *buf; uint32_t tag; }
		l[MT_HOLD] = { { 0 } };
	uint8_t *base[MT_HOLD], *want = malloc(65536), *got = malloc(65536);

	for (int k = 0; k < MT_HOLD; k++)
		base[k] = malloc(65536 + 512);
	for (unsigned int r = 0; r < MT_ROUNDS; r++) {
		unsigned int k;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		k = (unsigned int)(rng % MT_HOLD);
		if (l[k].h) {
			mt_fill(want, l[k].size, l[k].tag ^ 0xabcdef);
			if (dmamap_device_read(w->dev, l[k].h, got, l[k].size) ||
			    memcmp(got, want, l[k].size))
				w->wrong++;
			dma_unmap_single(w->dev, l[k].h, l[k].size, l[k].dir);
			if (l[k].dir != DMA_TO_DEVICE && memcmp(l[k].buf, want, l[k].size))
				w->wrong++;
			l[k].h = 0;
		} else {
			size_t n = mt_sizes[(rng >> 8) % (sizeof(mt_sizes) / sizeof(mt_sizes[0]))];
			enum dma_data_direction dir = (rng >> 16) % 4 ? DMA_TO_DEVICE : dirs[(rng >> 20) % 3];
			uint32_t tag = w->id * 1000003u + r;
			dma_addr_t h;

			l[k].buf = base[k] + ((rng >> 24) % 2 ? 0 : ((rng >> 28) % 64) * 8);
			mt_fill(l[k].buf, n, tag);
			h = dma_map_single_attrs(w->dev, l[k].buf, n, dir,
						 (rng >> 40) % 8 ? 0 : DMA_ATTR_NO_WARN);
			if (dma_mapping_error(w->dev, h))
				continue; /* the pool is small: full is fine */
			mt_fill(want, n, tag);
			if (dmamap_device_read(w->dev, h, got, n) || memcmp(got, want, n))
				w->wrong++;
			mt_fill(want, n, tag ^ 0xabcdef);
			if (dmamap_device_write(w->dev, h, want, n))
				w->wrong++;
			l[k].h = h;
			l[k].size = n;
			l[k].dir = dir;
			l[k].tag = tag;
		}
	}
	for (int k = 0; k < MT_HOLD; k++) {
		if (l[k].h)
			dma_unmap_single(w->dev, l[k].h, l[k].size, l[k].dir);
		free(base[k]);
	}
	free(want);
	free(got);
	return NULL;
}

/* Reports from many threads at once: only counted (the capture hooks are not thread-safe). */
static void count_hook(void *ctx, const struct dmamap_report *r)
{
	(void)r;
	__atomic_add_fetch((unsigned long *)ctx, 1, __ATOMIC_RELAXED);
}

TEST(swiotlb_host_many_threads_never_share_a_slot)
{
	unsigned long nreports = 0;
	enum { PSIZE = 1 << 20 };
	struct dmamap_platform *p = host_platform();
	struct device *dev = p ? host_device(p, "mt", NULL) : NULL;
	uint8_t *pool = host_pages(PSIZE), *chunk = host_pages(256 * KiB);
	struct mt_worker w[MT_THREADS];
	pthread_t th[MT_THREADS];
	struct dmamap_swiotlb_stats s;
	dma_addr_t h[PSIZE / (256 * KiB)];
	unsigned int i;

	REQUIRE(p && dev && pool && chunk);
	dmamap_set_log_hook(p, drop_log, NULL);
	dmamap_set_report_hook(p, count_hook, &nreports);
	REQUIRE(dmamap_swiotlb_restricted_pool(dev, (uintptr_t)pool, PSIZE) == 0);
	for (i = 0; i < MT_THREADS; i++) {
		w[i] = (struct mt_worker){ .dev = dev, .id = i };
		REQUIRE(pthread_create(&th[i], NULL, mt_run, &w[i]) == 0);
	}
	for (i = 0; i < MT_THREADS; i++) {
		pthread_join(th[i], NULL);
		CHECK_MSG(w[i].wrong == 0, "thread %u: %lu wrong", i, w[i].wrong);
	}
	s = pool_of(NULL, dev);
	CHECK_EQ(s.used_slots, 0);
	CHECK_EQ(s.largest_free_run, 128);
	CHECK(s.high_water <= s.total_slots);
	/* Every report was of a full pool, one per failed mapping without NO_WARN. */
	CHECK(nreports <= s.failures);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_ALLOC_FAILED), nreports);
	/* Nothing was lost: the whole pool maps again, in its largest pieces. */
	for (i = 0; i < PSIZE / (256 * KiB); i++) {
		h[i] = dma_map_single(dev, chunk, 256 * KiB, DMA_TO_DEVICE);
		CHECK_MSG(!dma_mapping_error(dev, h[i]), "chunk %u", i);
	}
	CHECK_EQ(pool_of(NULL, dev).used_slots, s.total_slots);
	for (i = 0; i < PSIZE / (256 * KiB); i++)
		if (!dma_mapping_error(dev, h[i]))
			dma_unmap_single(dev, h[i], 256 * KiB, DMA_TO_DEVICE);
	free(chunk);
	dmamap_platform_destroy(p);
	free(pool);
}
