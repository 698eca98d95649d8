/* SPDX-License-Identifier: MIT */
/*
 * What swiotlb copies beyond the bounce contract all bounce backends keep
 * (tests/bounce/test_bounce_conformance.c: copies at map, unmap and the
 * syncs in every direction, partial device writes, a TO_DEVICE buffer the
 * device scribbles on): exactly the range of a partial sync, across slot
 * boundaries and down to one byte, and counters that add up to the copies.
 *
 * Every check compares bytes the device read (dmamap_device_read) or the CPU
 * reads through its pointer against patterns the test wrote, never a
 * counter alone.
 */
#include "../helpers.h"

/*
 * A far buffer of @len bytes holding @a, mapped @dir: it must bounce
 * (in s->h).
 */
static bool bounced_map(struct scene *s, const uint8_t *a, size_t len,
			enum dma_data_direction dir)
{
	s->h = fill_map(s->dev, s->buf, a, len, dir);
	return s->h != DMA_MAPPING_ERROR && dmamap_swiotlb_is_bounce(s->dev, s->h);
}

TEST(swiotlb_sync_range_for_cpu_copies_exactly_the_range)
{
	enum { LEN = 6000 };
	static const enum dma_data_direction rdirs[2] = { DMA_FROM_DEVICE, DMA_BIDIRECTIONAL };
	uint8_t a[LEN], b[LEN], want[LEN];
	struct scene s;

	REQUIRE(quiet_scene(&s, D24, hi24_buf, LEN));
	pat(a, LEN, 3);
	pat(b, LEN, 4);
	for (unsigned int d = 0; d < 2; d++) {
		REQUIRE(bounced_map(&s, a, LEN, rdirs[d]));
		CHECK_EQ(dmamap_device_write(s.dev, s.h, b, LEN), 0);
		/* A range inside the third slot, not on any boundary. */
		dma_sync_single_range_for_cpu(s.dev, s.h, 4100, 333, rdirs[d]);
		overlay(want, a, b, LEN, 4100, 333);
		CHECK_MSG(ndiff(s.buf, want, LEN) == 0, "%s: %zu bytes wrong after range 4100+333",
			  dir_name(rdirs[d]), ndiff(s.buf, want, LEN));
		/*
		 * Back to the device (the same range: a BIDIR sync_for_device
		 * copies the CPU's bytes in), then a range across a slot
		 * boundary, and a single byte.
		 */
		dma_sync_single_range_for_device(s.dev, s.h, 4100, 333, rdirs[d]);
		dma_sync_single_range_for_cpu(s.dev, s.h, 1900, 300, rdirs[d]);
		overlay(want, want, b, LEN, 1900, 300);
		dma_sync_single_range_for_device(s.dev, s.h, 1900, 300, rdirs[d]);
		dma_sync_single_range_for_cpu(s.dev, s.h, LEN - 1, 1, rdirs[d]);
		overlay(want, want, b, LEN, LEN - 1, 1);
		CHECK_MSG(ndiff(s.buf, want, LEN) == 0, "%s: %zu bytes wrong after ranges",
			  dir_name(rdirs[d]), ndiff(s.buf, want, LEN));
		/* The device's bytes were all still in the bounce buffer. */
		CHECK_EQ(dev_diff(s.dev, s.h, b, LEN), 0);
		dma_unmap_single(s.dev, s.h, LEN, rdirs[d]);
		CHECK_EQ(ndiff(s.buf, b, LEN), 0);
	}
	scene_end(&s);
}

TEST(swiotlb_sync_range_for_device_copies_exactly_the_range)
{
	enum { LEN = 6000 };
	static const enum dma_data_direction rdirs[2] = { DMA_TO_DEVICE, DMA_BIDIRECTIONAL };
	uint8_t a[LEN], b[LEN], c[LEN], devsees[LEN];
	struct scene s;

	REQUIRE(quiet_scene(&s, D24, hi24_buf, LEN));
	pat(a, LEN, 5);
	pat(b, LEN, 6);
	pat(c, LEN, 7);
	for (unsigned int d = 0; d < 2; d++) {
		enum dma_data_direction dir = rdirs[d];

		REQUIRE(bounced_map(&s, a, LEN, dir));
		memcpy(devsees, a, LEN);
		if (dir == DMA_BIDIRECTIONAL) {
			CHECK_EQ(dmamap_device_write(s.dev, s.h, b, LEN), 0);
			memcpy(devsees, b, LEN);
		}
		dma_sync_single_for_cpu(s.dev, s.h, LEN, dir);
		CHECK_EQ(ndiff(s.buf, devsees, LEN), 0);
		memcpy(s.buf, c, LEN); /* the CPU owns it: new data everywhere */
		dma_sync_single_range_for_device(s.dev, s.h, 2500, 1000, dir);
		overlay(devsees, devsees, c, LEN, 2500, 1000);
		CHECK_MSG(dev_diff(s.dev, s.h, devsees, LEN) == 0,
			  "%s: device sees %zu wrong bytes after range 2500+1000", dir_name(dir),
			  dev_diff(s.dev, s.h, devsees, LEN));
		dma_unmap_single(s.dev, s.h, LEN, dir);
		/* BIDIR copies back what the device has; TO leaves the CPU's bytes. */
		CHECK_EQ(ndiff(s.buf, dir == DMA_TO_DEVICE ? c : devsees, LEN), 0);
	}
	scene_end(&s);
}

TEST(swiotlb_counters_add_up)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	struct dmamap_swiotlb_stats s0, s;
	struct dmamap_device_stats d;
	uint8_t *t, *f, *bi, *lo;
	dma_addr_t ht, hf, hb, hl;

	REQUIRE(p && dev);
	t = hi24_buf(p, 1000);
	f = hi24_buf(p, 3000);
	bi = hi24_buf(p, 500);
	lo = d24_lo_pages(p, 0);
	REQUIRE(t && f && bi && lo);
	dmamap_device_stats_reset(dev);
	s0 = pool_of(p, NULL);
	ht = dma_map_single(dev, t, 1000, DMA_TO_DEVICE);        /* in 1000 */
	hf = dma_map_single(dev, f, 3000, DMA_FROM_DEVICE);      /* in 3000 */
	hb = dma_map_single(dev, bi, 500, DMA_BIDIRECTIONAL);    /* in 500 */
	hl = dma_map_single(dev, lo, 700, DMA_BIDIRECTIONAL);    /* direct */
	REQUIRE(!dma_mapping_error(dev, ht) && !dma_mapping_error(dev, hf) &&
		!dma_mapping_error(dev, hb) && !dma_mapping_error(dev, hl));
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, s0.used_slots + 1 + 2 + 1);
	dma_sync_single_range_for_cpu(dev, hf, 100, 200, DMA_FROM_DEVICE); /* out 200 */
	dma_sync_single_for_cpu(dev, ht, 1000, DMA_TO_DEVICE);             /* nothing */
	dma_sync_single_for_cpu(dev, hb, 500, DMA_BIDIRECTIONAL);          /* out 500 */
	dma_sync_single_for_device(dev, hb, 500, DMA_BIDIRECTIONAL);       /* in 500 */
	dma_sync_single_for_device(dev, hf, 3000, DMA_FROM_DEVICE);        /* nothing */
	dma_sync_single_for_device(dev, ht, 1000, DMA_TO_DEVICE);          /* in 1000 */
	dma_sync_single_for_cpu(dev, hl, 700, DMA_BIDIRECTIONAL);          /* direct */
	dma_unmap_single(dev, ht, 1000, DMA_TO_DEVICE);                    /* nothing */
	dma_unmap_single(dev, hf, 3000, DMA_FROM_DEVICE);                  /* out 3000 */
	dma_unmap_single(dev, hb, 500, DMA_BIDIRECTIONAL);                 /* out 500 */
	dma_unmap_single(dev, hl, 700, DMA_BIDIRECTIONAL);
	s = pool_of(p, NULL);
	CHECK_EQ(s.bounced_maps - s0.bounced_maps, 3);
	CHECK_EQ(s.bytes_to_device - s0.bytes_to_device, 1000 + 3000 + 500 + 500 + 1000);
	CHECK_EQ(s.bytes_from_device - s0.bytes_from_device, 200 + 500 + 3000 + 500);
	CHECK_EQ(s.used_slots, 0);
	CHECK_EQ(s.failures, s0.failures);
	d = stats_of(dev);
	CHECK_EQ(d.maps, 4);
	CHECK_EQ(d.unmaps, 4);
	CHECK_EQ(d.bytes_mapped, 1000 + 3000 + 500 + 700);
	/* Bytes bounced: the bytes of the mappings that went through the pool. */
	CHECK_EQ(d.bytes_bounced, 1000 + 3000 + 500);
	CHECK_EQ(d.syncs_for_cpu, 4);
	CHECK_EQ(d.syncs_for_device, 3);
	CHECK_EQ(d.errors, 0);
	dmamap_platform_destroy(p);
}
