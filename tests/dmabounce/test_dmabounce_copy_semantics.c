/* SPDX-License-Identifier: MIT */
/*
 * What dmabounce copies beyond the bounce contract all bounce backends keep
 * (tests/bounce/test_bounce_conformance.c: copies at map, unmap and the
 * syncs in every direction, partial device writes, a TO_DEVICE buffer the
 * device scribbles on): exactly the range of a partial sync (whole cache
 * lines on the direct path), and counters that add up to the copies.
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
		h = fill_map(dev, buf, a, n, DMA_BIDIRECTIONAL);
		REQUIRE(h != DMA_MAPPING_ERROR);
		CHECK_EQ(dmamap_device_write(dev, h, b, n), 0);
		/* for_cpu of a range: only that range comes back. */
		dma_sync_single_range_for_cpu(dev, h, o1, l1, DMA_BIDIRECTIONAL);
		overlay(want, a, b, n, o1, l1);
		CHECK_MSG(ndiff(buf, want, n) == 0, "%zu: CPU after range for_cpu: %zu bytes", n,
			  ndiff(buf, want, n));
		/* for_device of another range: only that range goes out. */
		memcpy(buf + o2, c + o2, l2);
		dma_sync_single_range_for_device(dev, h, o2, l2, DMA_BIDIRECTIONAL);
		overlay(want, b, c, n, o2, l2);
		CHECK_MSG(dev_diff(dev, h, want, n) == 0,
			  "%zu: device after range for_device: %zu bytes", n,
			  dev_diff(dev, h, want, n));
		dma_unmap_single(dev, h, n, DMA_BIDIRECTIONAL);
		CHECK_EQ(ndiff(buf, want, n), 0);

		/* TO_DEVICE: a range for_device takes the CPU's new bytes, nothing else. */
		h = fill_map(dev, buf, a, n, DMA_TO_DEVICE);
		REQUIRE(h != DMA_MAPPING_ERROR);
		dma_sync_single_for_cpu(dev, h, n, DMA_TO_DEVICE);
		memcpy(buf, c, n);
		dma_sync_single_range_for_device(dev, h, o2, l2, DMA_TO_DEVICE);
		overlay(want, a, c, n, o2, l2);
		CHECK_EQ(dev_diff(dev, h, want, n), 0);
		dma_unmap_single(dev, h, n, DMA_TO_DEVICE);
		CHECK_EQ(ndiff(buf, c, n), 0);

		/* FROM_DEVICE: for_cpu of a range only, the rest at unmap. */
		h = fill_map(dev, buf, a, n, DMA_FROM_DEVICE);
		REQUIRE(h != DMA_MAPPING_ERROR);
		CHECK_EQ(dmamap_device_write(dev, h, b, n), 0);
		dma_sync_single_range_for_cpu(dev, h, o2, l2, DMA_FROM_DEVICE);
		overlay(want, a, b, n, o2, l2);
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
	uint8_t a[LEN], b[LEN], want[LEN];
	unsigned int line;
	struct scene s;

	REQUIRE(quiet_scene(&s, IXP, ixp_lo_buf, LEN));
	line = dmamap_cache_line_size(s.p);
	REQUIRE(line);
	pat(a, LEN, 4);
	pat(b, LEN, 5);
	s.h = fill_map(s.dev, s.buf, a, LEN, DMA_FROM_DEVICE);
	REQUIRE(s.h != DMA_MAPPING_ERROR);
	CHECK_EQ(s.h, virt_to_phys(s.buf) - RAM0);
	CHECK_EQ(dmamap_device_write(s.dev, s.h, b, LEN), 0);
	/* Whole lines: the CPU sees the device's bytes there, its stale copy elsewhere. */
	dma_sync_single_range_for_cpu(s.dev, s.h, 8 * line, 4 * line, DMA_FROM_DEVICE);
	overlay(want, a, b, LEN, 8 * line, 4 * line);
	CHECK_MSG(ndiff(s.buf, want, LEN) == 0, "%zu bytes", ndiff(s.buf, want, LEN));
	CHECK_EQ(db_stats(s.dev).bounced, 0);
	dma_unmap_single(s.dev, s.h, LEN, DMA_FROM_DEVICE);
	CHECK_EQ(ndiff(s.buf, b, LEN), 0);
	scene_end(&s);
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
