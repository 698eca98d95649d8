/* SPDX-License-Identifier: MIT */
/*
 * What swiotlb copies and when: in at every map (a partial device write
 * leaves the rest of the buffer as the CPU had it), out at unmap and
 * sync_for_cpu for FROM_DEVICE and BIDIRECTIONAL, in at sync_for_device for
 * TO_DEVICE and BIDIRECTIONAL, exactly the range of a partial sync; a
 * TO_DEVICE buffer the device scribbles on never reaches the CPU; the
 * counters add up to those copies.
 *
 * Every check compares bytes the device read (dmamap_device_read) or the CPU
 * reads through its pointer against patterns the test wrote, never a
 * counter alone.
 */
#include "../helpers.h"

TEST(swiotlb_sync_range_for_cpu_copies_exactly_the_range)
{
	enum { LEN = 6000 };
	static const enum dma_data_direction rdirs[2] = { DMA_FROM_DEVICE, DMA_BIDIRECTIONAL };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	uint8_t *buf, a[LEN], b[LEN], want[LEN];

	REQUIRE(p && dev);
	buf = hi24_buf(p, LEN);
	REQUIRE(buf);
	pat(a, LEN, 3);
	pat(b, LEN, 4);
	for (unsigned int d = 0; d < 2; d++) {
		dma_addr_t h;

		memcpy(buf, a, LEN);
		memcpy(want, a, LEN);
		h = dma_map_single(dev, buf, LEN, rdirs[d]);
		REQUIRE(!dma_mapping_error(dev, h) && dmamap_swiotlb_is_bounce(dev, h));
		CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
		/* A range inside the third slot, not on any boundary. */
		dma_sync_single_range_for_cpu(dev, h, 4100, 333, rdirs[d]);
		memcpy(want + 4100, b + 4100, 333);
		CHECK_MSG(ndiff(buf, want, LEN) == 0, "%s: %zu bytes wrong after range 4100+333",
			  dir_name(rdirs[d]), ndiff(buf, want, LEN));
		/*
		 * Back to the device (the same range: a BIDIR sync_for_device
		 * copies the CPU's bytes in), then a range across a slot
		 * boundary, and a single byte.
		 */
		dma_sync_single_range_for_device(dev, h, 4100, 333, rdirs[d]);
		dma_sync_single_range_for_cpu(dev, h, 1900, 300, rdirs[d]);
		memcpy(want + 1900, b + 1900, 300);
		dma_sync_single_range_for_device(dev, h, 1900, 300, rdirs[d]);
		dma_sync_single_range_for_cpu(dev, h, LEN - 1, 1, rdirs[d]);
		want[LEN - 1] = b[LEN - 1];
		CHECK_MSG(ndiff(buf, want, LEN) == 0, "%s: %zu bytes wrong after ranges",
			  dir_name(rdirs[d]), ndiff(buf, want, LEN));
		/* The device's bytes were all still in the bounce buffer. */
		CHECK_EQ(dev_diff(dev, h, b, LEN), 0);
		dma_unmap_single(dev, h, LEN, rdirs[d]);
		CHECK_EQ(ndiff(buf, b, LEN), 0);
	}
	dmamap_platform_destroy(p);
}

TEST(swiotlb_sync_range_for_device_copies_exactly_the_range)
{
	enum { LEN = 6000 };
	static const enum dma_data_direction rdirs[2] = { DMA_TO_DEVICE, DMA_BIDIRECTIONAL };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	uint8_t *buf, a[LEN], b[LEN], c[LEN], devsees[LEN];

	REQUIRE(p && dev);
	buf = hi24_buf(p, LEN);
	REQUIRE(buf);
	pat(a, LEN, 5);
	pat(b, LEN, 6);
	pat(c, LEN, 7);
	for (unsigned int d = 0; d < 2; d++) {
		enum dma_data_direction dir = rdirs[d];
		dma_addr_t h;

		memcpy(buf, a, LEN);
		h = dma_map_single(dev, buf, LEN, dir);
		REQUIRE(!dma_mapping_error(dev, h) && dmamap_swiotlb_is_bounce(dev, h));
		memcpy(devsees, a, LEN);
		if (dir == DMA_BIDIRECTIONAL) {
			CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
			memcpy(devsees, b, LEN);
		}
		dma_sync_single_for_cpu(dev, h, LEN, dir);
		CHECK_EQ(ndiff(buf, devsees, LEN), 0);
		memcpy(buf, c, LEN); /* the CPU owns it: new data everywhere */
		dma_sync_single_range_for_device(dev, h, 2500, 1000, dir);
		memcpy(devsees + 2500, c + 2500, 1000);
		CHECK_MSG(dev_diff(dev, h, devsees, LEN) == 0,
			  "%s: device sees %zu wrong bytes after range 2500+1000", dir_name(dir),
			  dev_diff(dev, h, devsees, LEN));
		dma_unmap_single(dev, h, LEN, dir);
		/* BIDIR copies back what the device has; TO leaves the CPU's bytes. */
		CHECK_EQ(ndiff(buf, dir == DMA_TO_DEVICE ? c : devsees, LEN), 0);
	}
	dmamap_platform_destroy(p);
}

TEST(swiotlb_from_device_partial_write_leaves_rest_of_buffer)
{
	enum { LEN = 4096 };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	uint8_t *buf, *other, a[LEN], b[LEN], z[LEN];
	dma_addr_t h;

	REQUIRE(p && dev);
	buf = hi24_buf(p, LEN);
	other = hi24_buf(p, LEN);
	REQUIRE(buf && other);
	/* An earlier user leaves its bytes in the slots. */
	pat(z, LEN, 41);
	memcpy(other, z, LEN);
	h = dma_map_single(dev, other, LEN, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	dma_unmap_single(dev, h, LEN, DMA_BIDIRECTIONAL);

	pat(a, LEN, 42);
	pat(b, LEN, 43);
	memcpy(buf, a, LEN);
	h = dma_map_single(dev, buf, LEN, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK(dmamap_swiotlb_is_bounce(dev, h));
	CHECK_EQ(dmamap_device_write(dev, h, b, LEN / 2), 0);
	dma_unmap_single(dev, h, LEN, DMA_FROM_DEVICE);
	CHECK_EQ(ndiff(buf, b, LEN / 2), 0);
	CHECK_MSG(ndiff(buf + LEN / 2, a + LEN / 2, LEN / 2) == 0,
		  "second half: %zu bytes not as the CPU left them",
		  ndiff(buf + LEN / 2, a + LEN / 2, LEN / 2));
	dmamap_platform_destroy(p);
}

TEST(swiotlb_to_device_device_write_never_reaches_cpu)
{
	enum { LEN = 3000 };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	uint8_t *buf, a[LEN], b[LEN];
	dma_addr_t h;

	REQUIRE(p && dev);
	buf = hi24_buf(p, LEN);
	REQUIRE(buf);
	pat(a, LEN, 51);
	pat(b, LEN, 52);
	/* Checker off: the device scribbles on its TO_DEVICE bounce buffer. */
	memcpy(buf, a, LEN);
	h = dma_map_single(dev, buf, LEN, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
	dma_sync_single_for_cpu(dev, h, LEN, DMA_TO_DEVICE);
	CHECK_EQ(ndiff(buf, a, LEN), 0); /* sync_for_cpu copies nothing back for TO */
	dma_sync_single_for_device(dev, h, LEN, DMA_TO_DEVICE);
	CHECK_EQ(dev_diff(dev, h, a, LEN), 0); /* ... and sync_for_device copies in again */
	CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
	dma_unmap_single(dev, h, LEN, DMA_TO_DEVICE);
	CHECK_EQ(ndiff(buf, a, LEN), 0); /* nor does unmap */
	CHECK_EQ(pool_of(p, NULL).bytes_from_device, 0);

	/* Checker on: the same write is reported, and still does not reach the CPU. */
	dmamap_debug_enable(p, true);
	memcpy(buf, a, LEN);
	h = dma_map_single(dev, buf, LEN, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(dmamap_device_write(dev, h, b, 16), 0);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_DEVICE_WRITE_READONLY), 1);
	dma_unmap_single(dev, h, LEN, DMA_TO_DEVICE);
	CHECK_EQ(ndiff(buf, a, LEN), 0);
	dmamap_debug_enable(p, false);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_syncs_copy_in_the_right_direction)
{
	enum { LEN = 2500 };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	uint8_t *buf, a[LEN], b[LEN], c[LEN];

	REQUIRE(p && dev);
	buf = hi24_buf(p, LEN);
	REQUIRE(buf);
	pat(a, LEN, 61);
	pat(b, LEN, 62);
	pat(c, LEN, 63);
	for (unsigned int d = 0; d < 3; d++) {
		enum dma_data_direction dir = dirs[d];
		dma_addr_t h;

		memcpy(buf, a, LEN);
		h = dma_map_single(dev, buf, LEN, dir);
		REQUIRE(!dma_mapping_error(dev, h));
		if (dev_writes(dir))
			CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
		/* for_cpu: FROM and BIDIR bring the device's bytes back, TO does not. */
		dma_sync_single_for_cpu(dev, h, LEN, dir);
		CHECK_MSG(ndiff(buf, dev_writes(dir) ? b : a, LEN) == 0,
			  "%s: CPU after sync_for_cpu", dir_name(dir));
		/* for_device: TO and BIDIR take the CPU's new bytes, FROM leaves the device's. */
		memcpy(buf, c, LEN);
		dma_sync_single_for_device(dev, h, LEN, dir);
		CHECK_MSG(dev_diff(dev, h, dir == DMA_FROM_DEVICE ? b : c, LEN) == 0,
			  "%s: device after sync_for_device: %zu bytes", dir_name(dir),
			  dev_diff(dev, h, dir == DMA_FROM_DEVICE ? b : c, LEN));
		dma_unmap_single(dev, h, LEN, dir);
		CHECK_MSG(ndiff(buf, dir == DMA_FROM_DEVICE ? b : c, LEN) == 0,
			  "%s: CPU after unmap", dir_name(dir));
	}
	dmamap_platform_destroy(p);
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
