/* SPDX-License-Identifier: MIT */
/*
 * What dmabounce copies and when: in at every map (a partial device write
 * leaves the rest of the buffer as the CPU had it, not another buffer's
 * bytes), out at unmap and sync_for_cpu for FROM_DEVICE and BIDIRECTIONAL,
 * in at sync_for_device for TO_DEVICE and BIDIRECTIONAL, exactly the range
 * of a partial sync (whole cache lines on the direct path); the counters
 * add up to those copies.
 *
 * The default board's ixp-pci sees RAM 0x80000000.. at bus 0, but its bus
 * only works in the first 64 MiB: buffers at or above phys 0x84000000
 * bounce through safe buffers (a 512-byte pool, a 4096-byte pool, their own
 * coherent allocation when larger), all below 64 MiB on the bus; buffers
 * below take the direct path with its cache maintenance. Every check
 * compares bytes the device read or the CPU reads with patterns the test
 * wrote.
 */
#include "../helpers.h"

TEST(dmabounce_partial_syncs_copy_exactly_the_range)
{
	static const size_t lens[] = { 400, 3000, 9000 }; /* small, large, own allocation */
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);

	REQUIRE(p && dev);
	for (unsigned int k = 0; k < 3; k++) {
		size_t n = lens[k], o1 = n / 3 + 1, l1 = n / 5, o2 = n / 2 + 3, l2 = n / 7;
		uint8_t *buf = ixp_hi_buf(p, n), *a = patbuf(n, 1), *b = patbuf(n, 2),
			*c = patbuf(n, 3), *want = malloc(n);
		dma_addr_t h;

		REQUIRE(buf && a && b && c && want);
		memcpy(buf, a, n);
		h = dma_map_single(dev, buf, n, DMA_BIDIRECTIONAL);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK_EQ(dmamap_device_write(dev, h, b, n), 0);
		/* for_cpu of a range: only that range comes back. */
		dma_sync_single_range_for_cpu(dev, h, o1, l1, DMA_BIDIRECTIONAL);
		memcpy(want, a, n);
		memcpy(want + o1, b + o1, l1);
		CHECK_MSG(ndiff(buf, want, n) == 0, "%zu: CPU after range for_cpu: %zu bytes", n,
			  ndiff(buf, want, n));
		/* for_device of another range: only that range goes out. */
		memcpy(buf + o2, c + o2, l2);
		dma_sync_single_range_for_device(dev, h, o2, l2, DMA_BIDIRECTIONAL);
		memcpy(want, b, n);
		memcpy(want + o2, c + o2, l2);
		CHECK_MSG(dev_diff(dev, h, want, n) == 0,
			  "%zu: device after range for_device: %zu bytes", n,
			  dev_diff(dev, h, want, n));
		dma_unmap_single(dev, h, n, DMA_BIDIRECTIONAL);
		CHECK_EQ(ndiff(buf, want, n), 0);

		/* TO_DEVICE: a range for_device takes the CPU's new bytes, nothing else. */
		memcpy(buf, a, n);
		h = dma_map_single(dev, buf, n, DMA_TO_DEVICE);
		REQUIRE(!dma_mapping_error(dev, h));
		dma_sync_single_for_cpu(dev, h, n, DMA_TO_DEVICE);
		memcpy(buf, c, n);
		dma_sync_single_range_for_device(dev, h, o2, l2, DMA_TO_DEVICE);
		memcpy(want, a, n);
		memcpy(want + o2, c + o2, l2);
		CHECK_EQ(dev_diff(dev, h, want, n), 0);
		dma_unmap_single(dev, h, n, DMA_TO_DEVICE);
		CHECK_EQ(ndiff(buf, c, n), 0);

		/* FROM_DEVICE: for_cpu of a range only, the rest at unmap. */
		memcpy(buf, a, n);
		h = dma_map_single(dev, buf, n, DMA_FROM_DEVICE);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK_EQ(dmamap_device_write(dev, h, b, n), 0);
		dma_sync_single_range_for_cpu(dev, h, o2, l2, DMA_FROM_DEVICE);
		memcpy(want, a, n);
		memcpy(want + o2, b + o2, l2);
		CHECK_EQ(ndiff(buf, want, n), 0);
		dma_sync_single_range_for_device(dev, h, o2, l2, DMA_FROM_DEVICE);
		dma_unmap_single(dev, h, n, DMA_FROM_DEVICE);
		CHECK_EQ(ndiff(buf, b, n), 0);
		free(a);
		free(b);
		free(c);
		free(want);
	}
	CHECK_EQ(db_stats(dev).live, 0);
	dmamap_platform_destroy(p);
}

TEST(dmabounce_partial_syncs_on_the_direct_path)
{
	enum { LEN = 4096 };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);
	unsigned int line;
	uint8_t *buf, a[LEN], b[LEN], want[LEN];
	dma_addr_t h;

	REQUIRE(p && dev);
	line = dmamap_cache_line_size(p);
	buf = ixp_lo_buf(p, LEN);
	REQUIRE(buf && line);
	pat(a, LEN, 4);
	pat(b, LEN, 5);
	memcpy(buf, a, LEN);
	h = dma_map_single(dev, buf, LEN, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(h, virt_to_phys(buf) - RAM0);
	CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
	/* Whole lines: the CPU sees the device's bytes there, its stale copy elsewhere. */
	dma_sync_single_range_for_cpu(dev, h, 8 * line, 4 * line, DMA_FROM_DEVICE);
	memcpy(want, a, LEN);
	memcpy(want + 8 * line, b + 8 * line, 4 * line);
	CHECK_MSG(ndiff(buf, want, LEN) == 0, "%zu bytes", ndiff(buf, want, LEN));
	CHECK_EQ(db_stats(dev).bounced, 0);
	dma_unmap_single(dev, h, LEN, DMA_FROM_DEVICE);
	CHECK_EQ(ndiff(buf, b, LEN), 0);
	dmamap_platform_destroy(p);
}

/*
 * A FROM_DEVICE map whose device writes only part of the buffer must leave
 * the rest as the CPU had it, not as the safe buffer's last user left it
 * (another buffer's bytes: the leak current kernels close by copying in
 * for every direction).
 */
TEST(dmabounce_from_device_partial_write_leaves_rest_of_buffer)
{
	enum { LEN = 2048 }; /* large pool */
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);
	uint8_t *buf, *other, a[LEN], b[LEN], z[LEN];
	dma_addr_t h;

	REQUIRE(p && dev);
	buf = ixp_hi_buf(p, LEN);
	other = ixp_hi_buf(p, LEN);
	REQUIRE(buf && other);
	pat(z, LEN, 7);
	memcpy(other, z, LEN);
	h = dma_map_single(dev, other, LEN, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	dma_unmap_single(dev, h, LEN, DMA_TO_DEVICE);

	pat(a, LEN, 8);
	pat(b, LEN, 9);
	memcpy(buf, a, LEN);
	h = dma_map_single(dev, buf, LEN, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(dmamap_device_write(dev, h, b, LEN / 2), 0);
	dma_unmap_single(dev, h, LEN, DMA_FROM_DEVICE);
	CHECK_EQ(ndiff(buf, b, LEN / 2), 0);
	CHECK_MSG(ndiff(buf + LEN / 2, a + LEN / 2, LEN / 2) == 0,
		  "second half: %zu bytes not as the CPU left them (%zu are the other buffer's)",
		  ndiff(buf + LEN / 2, a + LEN / 2, LEN / 2),
		  LEN / 2 - ndiff(buf + LEN / 2, z + LEN / 2, LEN / 2));
	dmamap_platform_destroy(p);
}

TEST(dmabounce_syncs_copy_in_the_right_direction)
{
	enum { LEN = 1000 };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);
	uint8_t *buf, a[LEN], b[LEN], c[LEN];

	REQUIRE(p && dev);
	buf = ixp_hi_buf(p, LEN);
	REQUIRE(buf);
	pat(a, LEN, 11);
	pat(b, LEN, 12);
	pat(c, LEN, 13);
	for (unsigned int d = 0; d < 3; d++) {
		enum dma_data_direction dir = dirs[d];
		dma_addr_t h;

		memcpy(buf, a, LEN);
		h = dma_map_single(dev, buf, LEN, dir);
		REQUIRE(!dma_mapping_error(dev, h));
		/* Even TO: the device scribbles (checker off); nothing may come back. */
		CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
		dma_sync_single_for_cpu(dev, h, LEN, dir);
		CHECK_MSG(ndiff(buf, dev_writes(dir) ? b : a, LEN) == 0, "%s: after for_cpu",
			  dir_name(dir));
		memcpy(buf, c, LEN);
		dma_sync_single_for_device(dev, h, LEN, dir);
		CHECK_MSG(dev_diff(dev, h, dir == DMA_FROM_DEVICE ? b : c, LEN) == 0,
			  "%s: device after for_device", dir_name(dir));
		dma_unmap_single(dev, h, LEN, dir);
		CHECK_MSG(ndiff(buf, dir == DMA_FROM_DEVICE ? b : c, LEN) == 0,
			  "%s: CPU after unmap", dir_name(dir));
	}
	dmamap_platform_destroy(p);
}

TEST(dmabounce_counters_add_up)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);
	struct dmamap_dmabounce_stats s;
	struct dmamap_device_stats d;
	uint8_t *t, *f, *bi, *lo;
	dma_addr_t ht, hf, hb, hl;

	REQUIRE(p && dev);
	t = ixp_hi_buf(p, 300);
	f = ixp_hi_buf(p, 3000);
	bi = ixp_hi_buf(p, 5000);
	lo = ixp_lo_buf(p, 700);
	REQUIRE(t && f && bi && lo);
	ht = dma_map_single(dev, t, 300, DMA_TO_DEVICE);          /* small, in 300 */
	hf = dma_map_single(dev, f, 3000, DMA_FROM_DEVICE);       /* large */
	hb = dma_map_single(dev, bi, 5000, DMA_BIDIRECTIONAL);    /* own, in 5000 */
	hl = dma_map_single(dev, lo, 700, DMA_BIDIRECTIONAL);     /* direct */
	REQUIRE(!dma_mapping_error(dev, ht) && !dma_mapping_error(dev, hf) &&
		!dma_mapping_error(dev, hb) && !dma_mapping_error(dev, hl));
	s = db_stats(dev);
	CHECK_EQ(s.map_ops, 4);
	CHECK_EQ(s.bounced, 3);
	CHECK_EQ(s.small_allocs, 1);
	CHECK_EQ(s.large_allocs, 1);
	CHECK_EQ(s.coherent_allocs, 1);
	CHECK_EQ(s.live, 3);
	dma_sync_single_range_for_cpu(dev, hf, 100, 200, DMA_FROM_DEVICE);  /* out 200 */
	dma_sync_single_for_cpu(dev, hb, 5000, DMA_BIDIRECTIONAL);          /* out 5000 */
	dma_sync_single_for_device(dev, hb, 5000, DMA_BIDIRECTIONAL);       /* in 5000 */
	dma_sync_single_for_device(dev, hf, 3000, DMA_FROM_DEVICE);         /* nothing */
	dma_sync_single_for_cpu(dev, hl, 700, DMA_BIDIRECTIONAL);           /* direct */
	dma_unmap_single(dev, ht, 300, DMA_TO_DEVICE);                      /* nothing */
	dma_unmap_single(dev, hf, 3000, DMA_FROM_DEVICE);                   /* out 3000 */
	dma_unmap_single(dev, hb, 5000, DMA_BIDIRECTIONAL);                 /* out 5000 */
	dma_unmap_single(dev, hl, 700, DMA_BIDIRECTIONAL);
	s = db_stats(dev);
	CHECK_EQ(s.bytes_to_device, 300 + 3000 + 5000 + 5000); /* every map copies in */
	CHECK_EQ(s.bytes_from_device, 200 + 5000 + 3000 + 5000);
	CHECK_EQ(s.live, 0);
	CHECK_EQ(s.failures, 0);
	d = stats_of(dev);
	CHECK_EQ(d.maps, 4);
	CHECK_EQ(d.unmaps, 4);
	CHECK_EQ(d.bytes_mapped, 300 + 3000 + 5000 + 700);
	/*
	 * Bytes bounced: the bytes of the mappings that bounced, as swiotlb
	 * counts them (tests/swiotlb/), comparable with bytes_mapped.
	 */
	CHECK_EQ(d.bytes_bounced, 300 + 3000 + 5000);
	CHECK_EQ(d.errors, 0);
	dmamap_platform_destroy(p);
}
