/* SPDX-License-Identifier: MIT */
/*
 * The syncs: without sync_for_cpu the CPU reads stale data, without
 * sync_for_device the device does, on the non-coherent device only; a
 * partial sync hands over exactly the lines of its range.
 *
 * Every check compares bytes the device read (dmamap_device_read), bytes
 * the CPU reads through its pointer, or the memory view probed with
 * dmamap_sim_mem_read(), against patterns the test wrote: a missing clean or
 * invalidate in the library shows up as stale bytes, never as a counter.
 */
#include "../helpers.h"

/* One round: a device, a direction, a fresh buffer holding a, mapped at h. */
struct sync_round {
	struct device *dev;
	const char *name;
	enum dma_data_direction dir;
	bool nc; /* the device does not see the CPU's cache */
	uint8_t *buf;
	dma_addr_t h;
	uint8_t a[512], b[512], c[512]; /* three patterns */
};

/*
 * Run @round for dma-coh and dma-nc, each in both @two_dirs, on the
 * default board (patterns from @seed); no data may be lost by them all.
 */
static void each_device_and_dir(const enum dma_data_direction two_dirs[2], unsigned int seed,
				void (*round)(struct sync_round *r))
{
	struct dmamap_platform *p = builtin_board("default");
	struct sync_round r;

	REQUIRE(p);
	pattern(r.a, sizeof(r.a), seed);
	pattern(r.b, sizeof(r.b), seed + 1);
	pattern(r.c, sizeof(r.c), seed + 2);
	for (unsigned int d = 0; d < 2; d++) {
		r.name = both_devs[d];
		r.dev = dmamap_device_lookup(p, r.name);
		r.nc = !dev_is_dma_coherent(r.dev);
		for (unsigned int i = 0; i < 2; i++) {
			r.dir = two_dirs[i];
			r.buf = dbuf(p, 512);
			REQUIRE(r.buf);
			r.h = fill_map(r.dev, r.buf, r.a, 512, r.dir);
			REQUIRE(r.h != DMA_MAPPING_ERROR);
			round(&r);
			dmamap_kfree(p, r.buf);
		}
	}
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

static void missing_sync_for_cpu_round(struct sync_round *r)
{
	CHECK_EQ(dmamap_device_write(r->dev, r->h, r->b, 512), 0);
	/* The bug: the CPU consumes the buffer without taking it back. */
	CHECK_MSG(!memcmp(r->buf, r->nc ? r->a : r->b, 512),
		  "%s %s: unsynced CPU read should see %s data (%zu bytes differ)", r->name,
		  dir_name(r->dir), r->nc ? "stale" : "the device's",
		  ndiff(r->buf, r->nc ? r->a : r->b, 512));
	/* Done right: sync for the CPU, then it sees the device's bytes. */
	dma_sync_single_for_cpu(r->dev, r->h, 512, r->dir);
	CHECK_MSG(!memcmp(r->buf, r->b, 512), "%s %s: after sync_for_cpu %zu bytes stale",
		  r->name, dir_name(r->dir), ndiff(r->buf, r->b, 512));
	/* And a second round of ownership, as a ring buffer does. */
	dma_sync_single_for_device(r->dev, r->h, 512, r->dir);
	CHECK_EQ(dmamap_device_write(r->dev, r->h, r->c, 512), 0);
	dma_sync_single_for_cpu(r->dev, r->h, 512, r->dir);
	CHECK_MSG(!memcmp(r->buf, r->c, 512), "%s %s: second round %zu bytes stale", r->name,
		  dir_name(r->dir), ndiff(r->buf, r->c, 512));
	dma_sync_single_for_device(r->dev, r->h, 512, r->dir);
	dma_unmap_single(r->dev, r->h, 512, r->dir);
	CHECK(!memcmp(r->buf, r->c, 512));
}

TEST(cache_missing_sync_for_cpu)
{
	static const enum dma_data_direction rx_dirs[] = { DMA_FROM_DEVICE,
							DMA_BIDIRECTIONAL };

	each_device_and_dir(rx_dirs, 1, missing_sync_for_cpu_round);
}

static void missing_sync_for_device_round(struct sync_round *r)
{
	/* The bug: the CPU changes the buffer and does not give it back. */
	memcpy(r->buf, r->b, 512);
	CHECK_MSG(dev_reads(r->dev, r->h, r->nc ? r->a : r->b, 512),
		  "%s %s: without sync_for_device the device should read %s data", r->name,
		  dir_name(r->dir), r->nc ? "stale" : "the CPU's");
	dma_sync_single_for_device(r->dev, r->h, 512, r->dir);
	CHECK_MSG(dev_reads(r->dev, r->h, r->b, 512),
		  "%s %s: after sync_for_device the device reads stale data", r->name,
		  dir_name(r->dir));
	/* Done right: take it back, write, give it back. */
	dma_sync_single_for_cpu(r->dev, r->h, 512, r->dir);
	memcpy(r->buf, r->c, 512);
	dma_sync_single_for_device(r->dev, r->h, 512, r->dir);
	CHECK_MSG(dev_reads(r->dev, r->h, r->c, 512), "%s %s: second round: device reads stale data",
		  r->name, dir_name(r->dir));
	dma_unmap_single(r->dev, r->h, 512, r->dir);
	CHECK(!memcmp(r->buf, r->c, 512));
}

TEST(cache_missing_sync_for_device)
{
	static const enum dma_data_direction tx_dirs[] = { DMA_TO_DEVICE,
							DMA_BIDIRECTIONAL };

	each_device_and_dir(tx_dirs, 4, missing_sync_for_device_round);
}

/* dma_sync_single_range_*: exactly the lines of the range change hands. */
TEST(cache_sync_range)
{
	struct dmamap_platform *p = builtin_board("default");
	unsigned int line;
	size_t size, off, rlen;
	uint8_t *a, *b, *want;

	REQUIRE(p);
	line = dmamap_cache_line_size(p);
	size = 8 * line;
	off = 2 * line;
	rlen = 3 * line;
	a = malloc(size);
	b = malloc(size);
	want = malloc(size);
	REQUIRE(a && b && want);
	pattern(a, size, 10);
	pattern(b, size, 11);
	for (unsigned int d = 0; d < 2; d++) {
		struct device *dev = dmamap_device_lookup(p, both_devs[d]);
		bool nc = !dev_is_dma_coherent(dev);
		uint8_t *buf = dbuf(p, size);
		dma_addr_t h;

		REQUIRE(buf);
		/* What a partial sync should leave: the range new, the rest as before. */
		overlay(want, nc ? a : b, b, size, off, rlen);

		h = fill_map(dev, buf, a, size, DMA_FROM_DEVICE);
		REQUIRE(h != DMA_MAPPING_ERROR);
		CHECK_EQ(dmamap_device_write(dev, h, b, size), 0);
		dma_sync_single_range_for_cpu(dev, h, off, rlen, DMA_FROM_DEVICE);
		CHECK_MSG(!memcmp(buf, want, size),
			  "%s: range_for_cpu [%zu,+%zu): %zu bytes unexpected", both_devs[d],
			  off, rlen, ndiff(buf, want, size));
		dma_sync_single_range_for_device(dev, h, off, rlen, DMA_FROM_DEVICE);
		dma_unmap_single(dev, h, size, DMA_FROM_DEVICE);
		CHECK(!memcmp(buf, b, size));

		h = fill_map(dev, buf, a, size, DMA_TO_DEVICE);
		REQUIRE(h != DMA_MAPPING_ERROR);
		dma_sync_single_for_cpu(dev, h, size, DMA_TO_DEVICE);
		memcpy(buf, b, size);
		dma_sync_single_range_for_device(dev, h, off, rlen, DMA_TO_DEVICE);
		CHECK_MSG(dev_reads(dev, h, want, size),
			  "%s: range_for_device [%zu,+%zu): device read unexpected bytes",
			  both_devs[d], off, rlen);
		dma_unmap_single(dev, h, size, DMA_TO_DEVICE);
		dmamap_kfree(p, buf);
	}
	CHECK_EQ(sim_losses(p), 0);
	free(a);
	free(b);
	free(want);
	dmamap_platform_destroy(p);
}
