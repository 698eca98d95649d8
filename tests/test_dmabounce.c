/* SPDX-License-Identifier: MIT */
/*
 * dmabounce (SPEC §5 "bounce"): the ARM bounce layer as an ops table. The
 * default board's ixp-pci sees RAM 0x80000000.. at bus 0, but its bus
 * only works in the first 64 MiB: buffers at or above phys 0x84000000
 * bounce through safe buffers (a 512-byte pool, a 4096-byte pool, their
 * own coherent allocation when larger), all below 64 MiB on the bus;
 * buffers below take the direct path with its cache maintenance. Every
 * check compares bytes the device read or the CPU reads with patterns the
 * test wrote.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "helpers.h"

/* In test_swiotlb.c: the random-operation model. */
unsigned long bounce_random_run(const char *what, struct device *dev, uint8_t *direct,
				uint8_t *bounced, bool force, bool dmabounce,
				unsigned int seeds, unsigned int ops);

/* ---- the two paths ------------------------------------------------------------ */

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
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);
	uint8_t *buf, a[LEN], b[LEN];

	REQUIRE(p && dev);
	buf = ixp_lo_buf(p, LEN);
	REQUIRE(buf);
	pat(a, LEN, 1);
	pat(b, LEN, 2);
	for (unsigned int d = 0; d < 3; d++) {
		enum dma_data_direction dir = dirs[d];
		struct dmamap_dmabounce_stats s0 = db_stats(dev), s;
		struct dmamap_device_stats d0 = stats_of(dev), d1;
		dma_addr_t h;

		memcpy(buf, a, LEN); /* in the CPU's cache until the map cleans it */
		h = dma_map_single(dev, buf, LEN, dir);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK_EQ(h, virt_to_phys(buf) - RAM0);
		s = db_stats(dev);
		CHECK_EQ(s.map_ops, s0.map_ops + 1);
		CHECK_EQ(s.bounced, s0.bounced);
		CHECK_EQ(s.live, 0);
		d1 = stats_of(dev);
		CHECK(d1.cache_bytes_cleaned >= d0.cache_bytes_cleaned + LEN);
		CHECK_EQ(d1.bytes_bounced, d0.bytes_bounced);
		CHECK_MSG(dev_diff(dev, h, a, LEN) == 0, "%s: device read", dir_name(dir));
		if (dev_writes(dir))
			CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
		dma_unmap_single(dev, h, LEN, dir);
		if (dev_writes(dir))
			CHECK(stats_of(dev).cache_bytes_invalidated >=
			      d1.cache_bytes_invalidated + LEN);
		CHECK_MSG(ndiff(buf, dev_writes(dir) ? b : a, LEN) == 0,
			  "%s: CPU after unmap: %zu bytes", dir_name(dir),
			  ndiff(buf, dev_writes(dir) ? b : a, LEN));
		CHECK_EQ(db_stats(dev).bytes_to_device, s0.bytes_to_device);
		CHECK_EQ(db_stats(dev).bytes_from_device, s0.bytes_from_device);
	}
	dmamap_platform_destroy(p);
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
			memcpy(buf, a, n);
			h = dma_map_single(dev, buf, n, dir);
			REQUIRE(!dma_mapping_error(dev, h));
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

		sg_init_table(sgl, N);
		for (i = 0; i < N; i++) {
			memcpy(cpu[i], a[i], len[i]);
			sg_set_buf(&sgl[i], cpu[i], (unsigned int)len[i]);
		}
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
		if (dev_writes(dir)) {
			dma_sync_sg_for_cpu(dev, sgl, N, dir);
			for (i = 0; i < N; i++)
				CHECK_MSG(ndiff(cpu[i], b[i], len[i]) == 0, "%s entry %d after sync",
					  dir_name(dir), i);
			dma_sync_sg_for_device(dev, sgl, N, dir);
		}
		dma_unmap_sg(dev, sgl, N, dir);
		for (i = 0; i < N; i++)
			CHECK_MSG(ndiff(cpu[i], dev_writes(dir) ? b[i] : a[i], len[i]) == 0,
				  "%s entry %d after unmap", dir_name(dir), i);
		CHECK_EQ(db_stats(dev).live, 0);
	}
	for (i = 0; i < N; i++) {
		free(a[i]);
		free(b[i]);
	}
	dmamap_platform_destroy(p);
}

/* ---- partial syncs ---------------------------------------------------------------- */

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

/* ---- copy semantics ------------------------------------------------------------------ */

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

/* ---- counters ------------------------------------------------------------------------ */

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
	 * counts them (test_swiotlb.c), comparable with bytes_mapped.
	 */
	CHECK_EQ(d.bytes_bounced, 300 + 3000 + 5000);
	CHECK_EQ(d.errors, 0);
	dmamap_platform_destroy(p);
}

/* ---- refusals -------------------------------------------------------------------------- */

TEST(dmabounce_highmem_pages_refused)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);
	struct dmamap_dmabounce_stats s0;
	struct page *pg;
	dma_addr_t h;

	REQUIRE(p && dev);
	pg = dmamap_alloc_pages(p, 0, __GFP_HIGHMEM);
	REQUIRE(pg);
	CHECK(page_to_phys(pg) >= 0x880000000ULL);
	s0 = db_stats(dev);
	reps.n = 0;
	h = dma_map_page(dev, pg, 0, 256, DMA_TO_DEVICE);
	CHECK(h == DMA_MAPPING_ERROR);
	CHECK_EQ(dma_mapping_error(dev, h), -ENOMEM);
	CHECK_EQ(db_stats(dev).bounced, s0.bounced);
	CHECK_EQ(db_stats(dev).live, 0);
	CHECK_EQ(stats_of(dev).maps, 0);
	CHECK_EQ(stats_of(dev).errors, 1);
	CHECK_EQ(reps.n, 1);
	CHECK_MSG(strstr(reps.last.text, "HIGHMEM") != NULL, "report: %s", reps.last.text);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

TEST(dmabounce_set_mask_goes_through_its_table)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);
	uint8_t *hi, *lo;
	unsigned long r0;
	dma_addr_t h;

	REQUIRE(p && dev);
	REQUIRE(get_dma_ops(dev) && get_dma_ops(dev)->set_dma_mask);
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(32)), 0);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(32));
	/* The pools live in the first 64 MiB: 26 bits still reach them. */
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(26)), 0);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(26));
	/* 24 bits do not: refused, counted, reported; the mask stays. */
	r0 = dmamap_report_count(p, DMAMAP_DBG_MASK_UNSUPPORTED);
	CHECK_ERRK(dev, DMAMAP_ERRK_BAD_MASK, dma_set_mask(dev, DMA_BIT_MASK(24)) == -EIO);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(26));
	CHECK_EQ(dma_supported(dev, DMA_BIT_MASK(24)), 0);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_MASK_UNSUPPORTED), r0 + 1);
	CHECK_EQ(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(24)), -EIO);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(26));
	CHECK(!strcmp(get_dma_ops(dev)->name, "dmabounce"));
	/* With the 26-bit mask both paths still work. */
	hi = ixp_hi_buf(p, 1500);
	lo = ixp_lo_buf(p, 1500);
	REQUIRE(hi && lo);
	pat(hi, 1500, 1);
	pat(lo, 1500, 2);
	h = dma_map_single(dev, hi, 1500, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK(h + 1500 <= DMA_BIT_MASK(26) + 1);
	CHECK_EQ(dev_diff(dev, h, hi, 1500), 0);
	dma_unmap_single(dev, h, 1500, DMA_TO_DEVICE);
	h = dma_map_single(dev, lo, 1500, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(h, virt_to_phys(lo) - RAM0);
	CHECK_EQ(dev_diff(dev, h, lo, 1500), 0);
	dma_unmap_single(dev, h, 1500, DMA_TO_DEVICE);
	dmamap_platform_destroy(p);
}

/* ---- registering a device ----------------------------------------------------------- */

static struct {
	unsigned int calls;
	dma_addr_t addr;
	size_t size;
	dma_addr_t bounce_from; /* bounce device addresses at or above this */
} nb;

static int needs_bounce_above(struct device *dev, dma_addr_t addr, size_t size)
{
	(void)dev;
	nb.calls++;
	nb.addr = addr;
	nb.size = size;
	return addr + size > nb.bounce_from;
}

static struct device *nc_like(struct dmamap_platform *p, const char *name)
{
	struct dmamap_device_desc d = {
		.name = name,
		.dma_mask = DMA_BIT_MASK(32),
		.nr_ranges = 1,
		.ranges = { { .cpu_start = RAM0, .dma_start = 0, .size = 128 * MiB } },
	};
	struct dmamap_error err = { 0 };
	struct device *dev = dmamap_device_create(p, &d, &err);

	if (!dev)
		printf("#   device %s: %s\n", name, err.msg);
	return dev;
}

TEST(dmabounce_register_custom_device_and_unregister)
{
	enum { LEN = 1200 };
	struct dmamap_platform *p = quiet_board();
	struct device *dev;
	uint8_t *lo, *hi, a[LEN], b[LEN];
	dma_addr_t h;
	struct dmamap_dmabounce_stats s;

	REQUIRE(p);
	dev = nc_like(p, "bouncy");
	REQUIRE(dev);
	CHECK(get_dma_ops(dev) == &dmamap_direct_ops);
	CHECK_EQ(dmamap_dmabounce_stats(dev, &s), -ENODEV);
	memset(&nb, 0, sizeof(nb));
	nb.bounce_from = 32 * MiB; /* this device: only the first 32 MiB of its bus work */
	CHECK_EQ(dmabounce_register_dev(dev, 256, 2048, needs_bounce_above), 0);
	REQUIRE(get_dma_ops(dev));
	CHECK(!strcmp(get_dma_ops(dev)->name, "dmabounce"));
	CHECK_EQ(dmabounce_register_dev(dev, 256, 2048, needs_bounce_above), -EBUSY);
	CHECK_EQ(dmamap_dmabounce_stats(dev, &s), 0);

	lo = dmamap_kmalloc(p, LEN, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);
	hi = ixp_hi_buf(p, LEN);
	REQUIRE(lo && hi);
	REQUIRE(virt_to_phys(lo) + LEN <= RAM0 + 32 * MiB);
	REQUIRE(virt_to_phys(hi) >= RAM0 + 32 * MiB);
	pat(a, LEN, 1);
	pat(b, LEN, 2);
	/* The callback says no: direct, with the device address it was asked about. */
	memcpy(lo, a, LEN);
	h = dma_map_single(dev, lo, LEN, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(nb.calls, 1);
	CHECK_EQ(nb.addr, virt_to_phys(lo) - RAM0);
	CHECK_EQ(nb.size, LEN);
	CHECK_EQ(h, virt_to_phys(lo) - RAM0);
	CHECK_EQ(dev_diff(dev, h, a, LEN), 0);
	CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
	dma_unmap_single(dev, h, LEN, DMA_BIDIRECTIONAL);
	CHECK_EQ(ndiff(lo, b, LEN), 0);
	CHECK_EQ(db_stats(dev).bounced, 0);
	/* The callback says yes: a safe buffer from the large pool (256 < 1200 <= 2048). */
	memcpy(hi, a, LEN);
	h = dma_map_single(dev, hi, LEN, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(nb.calls, 2);
	CHECK_EQ(nb.addr, virt_to_phys(hi) - RAM0);
	CHECK(h != virt_to_phys(hi) - RAM0);
	CHECK_EQ(db_stats(dev).bounced, 1);
	CHECK_EQ(db_stats(dev).large_allocs, 1);
	CHECK_EQ(dev_diff(dev, h, a, LEN), 0);
	CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
	dma_unmap_single(dev, h, LEN, DMA_BIDIRECTIONAL);
	CHECK_EQ(ndiff(hi, b, LEN), 0);

	/* Unregister with a bounced mapping still live: reported, freed, direct again. */
	h = dma_map_single(dev, hi, 100, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(nb.calls, 3);
	CHECK_EQ(db_stats(dev).live, 1);
	reps.n = 0;
	dmabounce_unregister_dev(dev);
	CHECK_EQ(reps.n, 1);
	CHECK_EQ(reps.last.kind, DMAMAP_DBG_LEAK);
	CHECK(get_dma_ops(dev) == &dmamap_direct_ops);
	CHECK_EQ(dmamap_dmabounce_stats(dev, &s), -ENODEV);
	dmabounce_unregister_dev(dev); /* twice: nothing */
	dmabounce_unregister_dev(NULL);
	memcpy(hi, a, LEN);
	h = dma_map_single(dev, hi, LEN, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(h, virt_to_phys(hi) - RAM0);
	CHECK_EQ(nb.calls, 3); /* not asked any more */
	CHECK_EQ(dev_diff(dev, h, a, LEN), 0);
	dma_unmap_single(dev, h, LEN, DMA_TO_DEVICE);
	/* And it can be registered again. */
	CHECK_EQ(dmabounce_register_dev(dev, 512, 0, NULL), 0);
	CHECK(!strcmp(get_dma_ops(dev)->name, "dmabounce"));
	dmamap_platform_destroy(p);
}

TEST(dmabounce_register_bad_arguments)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev, *ixp;

	REQUIRE(p);
	dev = nc_like(p, "bouncy");
	ixp = dmamap_device_lookup(p, IXP);
	REQUIRE(dev && ixp);
	CHECK_EQ(dmabounce_register_dev(NULL, 512, 4096, NULL), -EINVAL);
	CHECK_EQ(dmabounce_register_dev(dev, 4096, 512, NULL), -EINVAL);
	CHECK(get_dma_ops(dev) == &dmamap_direct_ops);
	CHECK_EQ(dmabounce_register_dev(ixp, 512, 4096, NULL), -EBUSY);
	CHECK(!strcmp(get_dma_ops(ixp)->name, "dmabounce"));
	dmamap_platform_destroy(p);
}

/* No large pool, no callback: everything bounces; above the small size, an allocation each. */
TEST(dmabounce_register_without_large_pool_bounces_all)
{
	enum { LEN = 3000 };
	struct dmamap_platform *p = quiet_board();
	struct device *dev;
	uint8_t *lo, a[LEN], b[LEN];
	struct dmamap_dmabounce_stats s;
	dma_addr_t h;

	REQUIRE(p);
	dev = nc_like(p, "bounce-all");
	REQUIRE(dev);
	REQUIRE(dmabounce_register_dev(dev, 512, 0, NULL) == 0);
	lo = dmamap_kmalloc(p, LEN, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(lo);
	pat(a, LEN, 3);
	pat(b, LEN, 4);
	memcpy(lo, a, LEN);
	h = dma_map_single(dev, lo, LEN, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK(h != virt_to_phys(lo) - RAM0);
	s = db_stats(dev);
	CHECK_EQ(s.bounced, 1);
	CHECK_EQ(s.coherent_allocs, 1);
	CHECK_EQ(s.large_allocs, 0);
	CHECK_EQ(dev_diff(dev, h, a, LEN), 0);
	CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
	dma_unmap_single(dev, h, LEN, DMA_BIDIRECTIONAL);
	CHECK_EQ(ndiff(lo, b, LEN), 0);
	h = dma_map_single(dev, lo, 100, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(db_stats(dev).small_allocs, 1);
	dma_unmap_single(dev, h, 100, DMA_TO_DEVICE);
	CHECK_EQ(db_stats(dev).live, 0);
	dmamap_platform_destroy(p);
}

/* ---- random operations ---------------------------------------------------------------- */

TEST(dmabounce_random_ops_ixp_pci)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, IXP);
	struct dmamap_dmabounce_stats s;
	struct page *lo, *hi;

	REQUIRE(p && dev);
	lo = dmamap_alloc_pages(p, 5, DMAMAP_GFP_DMA);
	hi = dmamap_alloc_pages(p, 5, 0);
	REQUIRE(lo && hi);
	REQUIRE(page_to_phys(lo) + (PAGE_SIZE << 5) <= IXP_ABOVE && page_to_phys(hi) >= IXP_ABOVE);
	CHECK_EQ(bounce_random_run("ixp-pci", dev, page_address(lo), page_address(hi), false,
				   true, 500, 50), 0);
	s = db_stats(dev);
	CHECK_EQ(s.live, 0);
	CHECK_EQ(s.failures, 0);
	CHECK(s.bounced > 2000 && s.small_allocs && s.large_allocs && s.coherent_allocs);
	CHECK(s.map_ops > s.bounced);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}
