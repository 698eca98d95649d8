/* SPDX-License-Identifier: MIT */
/*
 * dmabounce, the ARM bounce layer as an ops table: which
 * path a mapping takes, which pool a safe buffer comes from, live safe
 * buffers kept apart, sg lists bouncing entry by entry.
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

TEST(dmabounce_ixp_pci_is_behind_dmabounce)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);
	struct dmamap_dmabounce_stats s;

	REQUIRE(p && dev);
	REQUIRE(get_dma_ops(dev));
	CHECK(!strcmp(get_dma_ops(dev)->name, "dmabounce"));
	CHECK_EQ(dmamap_dmabounce_stats(dev, &s), 0);
	CHECK_EQ(s.map_ops, 0);
	CHECK_EQ(s.live, 0);
	CHECK_EQ(dmamap_dmabounce_stats(dmamap_device_lookup(p, "dma-nc"), &s), -ENODEV);
	CHECK_EQ(dmamap_dmabounce_stats(NULL, &s), -EINVAL);
	CHECK_EQ(dmamap_dmabounce_stats(dev, NULL), -EINVAL);
	dmamap_platform_destroy(p);
}

TEST(dmabounce_low_buffer_takes_the_direct_path)
{
	enum { LEN = 3000 };
	uint8_t a[LEN], b[LEN];
	struct scene sc;

	REQUIRE(quiet_scene(&sc, IXP, ixp_lo_buf, LEN));
	pat(a, LEN, 1);
	pat(b, LEN, 2);
	for (unsigned int d = 0; d < 3; d++) {
		enum dma_data_direction dir = dirs[d];
		struct dmamap_dmabounce_stats s0 = db_stats(sc.dev), s;
		struct dmamap_device_stats d0 = stats_of(sc.dev), d1;
		/* In the CPU's cache until the map cleans it. */
		dma_addr_t h = fill_map(sc.dev, sc.buf, a, LEN, dir);

		REQUIRE(h != DMA_MAPPING_ERROR);
		CHECK_EQ(h, virt_to_phys(sc.buf) - RAM0);
		s = db_stats(sc.dev);
		CHECK_EQ(s.map_ops, s0.map_ops + 1);
		CHECK_EQ(s.bounced, s0.bounced);
		CHECK_EQ(s.live, 0);
		d1 = stats_of(sc.dev);
		CHECK(d1.cache_bytes_cleaned >= d0.cache_bytes_cleaned + LEN);
		CHECK_EQ(d1.bytes_bounced, d0.bytes_bounced);
		CHECK_MSG(dev_diff(sc.dev, h, a, LEN) == 0, "%s: device read", dir_name(dir));
		if (dev_writes(dir))
			CHECK_EQ(dmamap_device_write(sc.dev, h, b, LEN), 0);
		dma_unmap_single(sc.dev, h, LEN, dir);
		if (dev_writes(dir))
			CHECK(stats_of(sc.dev).cache_bytes_invalidated >=
			      d1.cache_bytes_invalidated + LEN);
		CHECK_MSG(ndiff(sc.buf, dev_writes(dir) ? b : a, LEN) == 0,
			  "%s: CPU after unmap: %zu bytes", dir_name(dir),
			  ndiff(sc.buf, dev_writes(dir) ? b : a, LEN));
		CHECK_EQ(db_stats(sc.dev).bytes_to_device, s0.bytes_to_device);
		CHECK_EQ(db_stats(sc.dev).bytes_from_device, s0.bytes_from_device);
	}
	scene_end(&sc);
}

TEST(dmabounce_high_buffer_bounces_through_the_right_pool)
{
	static const struct {
		size_t len;
		int pool; /* 0 small, 1 large, 2 own coherent allocation */
	} cases[] = {
		{ 1, 0 }, { 100, 0 }, { 512, 0 }, { 513, 1 }, { 2000, 1 }, { 4096, 1 },
		{ 4097, 2 }, { 20000, 2 },
	};
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);

	REQUIRE(p && dev);
	for (unsigned int d = 0; d < 3; d++) {
		for (unsigned int k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
			enum dma_data_direction dir = dirs[d];
			size_t n = cases[k].len;
			uint8_t *buf = ixp_hi_buf(p, n), *a = patbuf(n, k), *b = patbuf(n, k + 50);
			struct dmamap_dmabounce_stats s0 = db_stats(dev), s;
			dma_addr_t h;

			REQUIRE(buf && a && b);
			h = fill_map(dev, buf, a, n, dir);
			REQUIRE(h != DMA_MAPPING_ERROR);
			/* A safe buffer inside the bus's first 64 MiB, not the buffer itself. */
			CHECK_MSG(h + n <= 64 * MiB, "%s %zu: handle 0x%llx", dir_name(dir), n,
				  (unsigned long long)h);
			CHECK(h != virt_to_phys(buf) - RAM0);
			s = db_stats(dev);
			CHECK_EQ(s.map_ops, s0.map_ops + 1);
			CHECK_EQ(s.bounced, s0.bounced + 1);
			CHECK_EQ(s.live, 1);
			CHECK_EQ(s.small_allocs, s0.small_allocs + (cases[k].pool == 0));
			CHECK_EQ(s.large_allocs, s0.large_allocs + (cases[k].pool == 1));
			CHECK_EQ(s.coherent_allocs, s0.coherent_allocs + (cases[k].pool == 2));
			if (dir != DMA_FROM_DEVICE)
				CHECK_MSG(dev_diff(dev, h, a, n) == 0, "%s %zu: device read",
					  dir_name(dir), n);
			if (dev_writes(dir))
				CHECK_EQ(dmamap_device_write(dev, h, b, n), 0);
			CHECK_EQ(ndiff(buf, a, n), 0);
			dma_unmap_single(dev, h, n, dir);
			CHECK_MSG(ndiff(buf, dev_writes(dir) ? b : a, n) == 0,
				  "%s %zu: CPU after unmap: %zu bytes", dir_name(dir), n,
				  ndiff(buf, dev_writes(dir) ? b : a, n));
			s = db_stats(dev);
			CHECK_EQ(s.live, 0);
			CHECK_EQ(s.failures, 0);
			/* Copied in at map for every direction (no stale safe-buffer bytes). */
			CHECK_EQ(s.bytes_to_device, s0.bytes_to_device + n);
			CHECK_EQ(s.bytes_from_device,
				 s0.bytes_from_device + (dir != DMA_TO_DEVICE ? n : 0));
			dmamap_kfree(p, buf);
			free(a);
			free(b);
		}
	}
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

TEST(dmabounce_many_live_safe_buffers_are_distinct)
{
	enum { N = 20, LEN = 300 }; /* more small blocks than one pool page holds */
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);
	uint8_t *buf[N], a[LEN];
	dma_addr_t h[N];
	int i, j;

	REQUIRE(p && dev);
	for (i = 0; i < N; i++) {
		buf[i] = ixp_hi_buf(p, LEN);
		REQUIRE(buf[i]);
		pat(buf[i], LEN, (unsigned int)i);
		h[i] = dma_map_single(dev, buf[i], LEN, DMA_BIDIRECTIONAL);
		REQUIRE(!dma_mapping_error(dev, h[i]));
	}
	CHECK_EQ(db_stats(dev).live, N);
	for (i = 0; i < N; i++)
		for (j = 0; j < i; j++)
			CHECK(h[i] + LEN <= h[j] || h[j] + LEN <= h[i]);
	for (i = 0; i < N; i++) {
		pat(a, LEN, (unsigned int)i);
		CHECK_MSG(dev_diff(dev, h[i], a, LEN) == 0, "buffer %d", i);
		pat(a, LEN, 100u + (unsigned int)i);
		CHECK_EQ(dmamap_device_write(dev, h[i], a, LEN), 0);
	}
	for (i = N - 1; i >= 0; i -= 2)
		dma_unmap_single(dev, h[i], LEN, DMA_BIDIRECTIONAL);
	for (i = N - 2; i >= 0; i -= 2)
		dma_unmap_single(dev, h[i], LEN, DMA_BIDIRECTIONAL);
	for (i = 0; i < N; i++) {
		pat(a, LEN, 100u + (unsigned int)i);
		CHECK_MSG(ndiff(buf[i], a, LEN) == 0, "buffer %d after unmap", i);
	}
	CHECK_EQ(db_stats(dev).live, 0);
	CHECK_EQ(db_stats(dev).small_allocs, N);
	dmamap_platform_destroy(p);
}

TEST(dmabounce_sg_mixes_bounced_and_direct_entries)
{
	enum { N = 4 };
	static const size_t len[N] = { 400, 3000, 1000, 6000 };
	static const bool high[N] = { true, false, true, true };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);
	uint8_t *cpu[N], *a[N], *b[N];
	struct scatterlist sgl[N], *sg;
	int i;

	REQUIRE(p && dev);
	for (i = 0; i < N; i++) {
		cpu[i] = high[i] ? ixp_hi_buf(p, len[i]) : ixp_lo_buf(p, len[i]);
		a[i] = patbuf(len[i], 10u + (unsigned int)i);
		b[i] = patbuf(len[i], 20u + (unsigned int)i);
		REQUIRE(cpu[i] && a[i] && b[i]);
	}
	for (unsigned int d = 0; d < 3; d++) {
		enum dma_data_direction dir = dirs[d];
		uint64_t bounced0 = db_stats(dev).bounced;

		sg_fill(sgl, N, cpu, a, len);
		REQUIRE(dma_map_sg(dev, sgl, N, dir) == N);
		CHECK_EQ(db_stats(dev).bounced, bounced0 + 3);
		for_each_sg(sgl, sg, N, i) {
			dma_addr_t h = sg_dma_address(sg);

			CHECK(h + len[i] <= 64 * MiB);
			CHECK_EQ(h == virt_to_phys(cpu[i]) - RAM0, !high[i]);
			if (dir != DMA_FROM_DEVICE || !high[i])
				CHECK_MSG(dev_diff(dev, h, a[i], len[i]) == 0, "%s entry %d",
					  dir_name(dir), i);
			if (dev_writes(dir))
				CHECK_EQ(dmamap_device_write(dev, h, b[i], len[i]), 0);
		}
		sg_round_end(dev, sgl, N, cpu, a, b, len, dir);
		CHECK_EQ(db_stats(dev).live, 0);
	}
	for (i = 0; i < N; i++) {
		free(a[i]);
		free(b[i]);
	}
	dmamap_platform_destroy(p);
}

/* The rule is "at or above": a buffer whose last byte is the first one out of reach bounces. */
TEST(dmabounce_threshold_is_the_first_unreachable_byte)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = p ? dmamap_device_lookup(p, IXP) : NULL;
	const phys_addr_t above = 0x84000000ULL; /* dmamap,dmabounce-above of ixp-pci */

	REQUIRE(dev);
	for (size_t len = 64; len <= 65; len++) {
		struct dmamap_dmabounce_stats s0, s;
		dma_addr_t h;

		dmamap_dmabounce_stats(dev, &s0);
		h = dma_map_phys(dev, above - 64, len, DMA_TO_DEVICE, 0);
		REQUIRE(!dma_mapping_error(dev, h));
		dmamap_dmabounce_stats(dev, &s);
		CHECK_MSG(s.bounced == s0.bounced + (len == 65), "%zu bytes: bounced %llu -> %llu", len,
			  (unsigned long long)s0.bounced, (unsigned long long)s.bounced);
		dma_unmap_phys(dev, h, len, DMA_TO_DEVICE, 0);
	}
	dmamap_platform_destroy(p);
}
