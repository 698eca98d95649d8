/* SPDX-License-Identifier: MIT */
/*
 * swiotlb (SPEC §5 "bounce"): what the device and the CPU actually see when
 * a mapping bounces. The default board's dma-24 sees only the first 16 MiB
 * of RAM (bus 0..16 MiB), so buffers above it bounce through the default
 * pool, which sits at the bottom of RAM; memory between the pool's end and
 * 16 MiB is mapped directly. Every check compares bytes the device read
 * (dmamap_device_read) or the CPU reads through its pointer against
 * patterns the test wrote, never a counter alone.
 *
 * Also here: the random-operation model shared with test_dmabounce.c
 * (bounce_random_run), run on dma-24 and on dma-nc in force mode.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "helpers.h"

/* ---- dma-24: buffers above its window bounce ----------------------------------- */

TEST(swiotlb_dma24_high_buffer_bounces_each_direction)
{
	static const size_t sizes[] = { 1, 63, 100, 2048, 3000, 4096, 10000, 65536 };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	struct dmamap_swiotlb_stats pool;

	REQUIRE(p && dev);
	pool = pool_of(p, NULL);
	CHECK(!strcmp(pool.name, "swiotlb"));
	CHECK_EQ(pool.start, RAM0);
	CHECK_EQ(pool.slot_size, 2048);
	for (unsigned int d = 0; d < 3; d++) {
		for (unsigned int k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			size_t n = sizes[k];
			uint8_t *buf = hi24_buf(p, n), *a = patbuf(n, k), *b = patbuf(n, k + 100);
			dma_addr_t h;

			REQUIRE(buf && a && b);
			memcpy(buf, a, n);
			h = dma_map_single(dev, buf, n, dirs[d]);
			REQUIRE(!dma_mapping_error(dev, h));
			/* A handle dma-24 can use, pointing into the pool. */
			CHECK_MSG(h + n <= 16 * MiB, "%s %zu: handle 0x%llx", dir_name(dirs[d]), n,
				  (unsigned long long)h);
			CHECK(dmamap_swiotlb_is_bounce(dev, h));
			CHECK(in_pool(&pool, dmamap_dma_to_phys(dev, h), n));
			/* The device reads what the CPU wrote before the map, whatever the direction. */
			CHECK_MSG(dev_diff(dev, h, a, n) == 0, "%s %zu: device read %zu wrong bytes",
				  dir_name(dirs[d]), n, dev_diff(dev, h, a, n));
			if (dev_writes(dirs[d]))
				CHECK_EQ(dmamap_device_write(dev, h, b, n), 0);
			/* While the device owns it, the CPU's buffer is untouched. */
			CHECK_EQ(ndiff(buf, a, n), 0);
			dma_unmap_single(dev, h, n, dirs[d]);
			CHECK_MSG(ndiff(buf, dev_writes(dirs[d]) ? b : a, n) == 0,
				  "%s %zu: CPU sees %zu wrong bytes after unmap", dir_name(dirs[d]), n,
				  ndiff(buf, dev_writes(dirs[d]) ? b : a, n));
			dmamap_kfree(p, buf);
			free(a);
			free(b);
		}
	}
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_dma24_low_buffer_is_not_bounced)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	uint8_t *buf, a[3000], b[3000];
	dma_addr_t h;

	REQUIRE(p && dev);
	buf = d24_lo_pages(p, 1);
	REQUIRE(buf);
	pat(a, sizeof(a), 1);
	pat(b, sizeof(b), 2);
	memcpy(buf + 96, a, sizeof(a));
	h = dma_map_single(dev, buf + 96, sizeof(a), DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(h, virt_to_phys(buf + 96) - RAM0);
	CHECK(!dmamap_swiotlb_is_bounce(dev, h));
	CHECK_EQ(dev_diff(dev, h, a, sizeof(a)), 0);
	CHECK_EQ(dmamap_device_write(dev, h, b, sizeof(b)), 0);
	dma_unmap_single(dev, h, sizeof(a), DMA_BIDIRECTIONAL);
	CHECK_EQ(ndiff(buf + 96, b, sizeof(b)), 0);
	CHECK_EQ(pool_of(p, NULL).bounced_maps, 0);
	CHECK_EQ(stats_of(dev).bytes_bounced, 0);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_dma24_sg_mixes_bounced_and_direct_entries)
{
	enum { N = 5 };
	static const size_t len[N] = { 3000, 4096, 700, 1000, 9000 };
	static const size_t off[N] = { 100, 0, 0, 64, 0 };
	static const bool high[N] = { true, false, true, false, true };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	uint8_t *lo, *hi[N] = { 0 }, *cpu[N], *a[N], *b[N];
	struct scatterlist sgl[N], *sg;
	int i;

	REQUIRE(p && dev);
	lo = d24_lo_pages(p, 2);
	REQUIRE(lo);
	for (i = 0; i < N; i++) {
		if (high[i]) {
			hi[i] = hi24_buf(p, off[i] + len[i]);
			REQUIRE(hi[i]);
			cpu[i] = hi[i] + off[i];
		} else {
			/* Two entries in separate pages of the low block. */
			cpu[i] = lo + (i == 1 ? 0 : 2 * PAGE_SIZE) + off[i];
		}
		a[i] = patbuf(len[i], 10 + i);
		b[i] = patbuf(len[i], 50 + i);
		REQUIRE(a[i] && b[i]);
	}
	for (unsigned int d = 0; d < 3; d++) {
		enum dma_data_direction dir = dirs[d];
		int n;

		sg_init_table(sgl, N);
		for (i = 0; i < N; i++) {
			memcpy(cpu[i], a[i], len[i]);
			sg_set_buf(&sgl[i], cpu[i], (unsigned int)len[i]);
		}
		n = dma_map_sg(dev, sgl, N, dir);
		REQUIRE(n > 0);
		CHECK_EQ(n, N); /* nothing to merge: the entries are not contiguous */
		for_each_sg(sgl, sg, N, i) {
			dma_addr_t h = sg_dma_address(sg);

			CHECK_EQ(sg_dma_len(sg), len[i]);
			CHECK_MSG(h + len[i] <= 16 * MiB, "%s entry %d: 0x%llx", dir_name(dir), i,
				  (unsigned long long)h);
			CHECK_EQ(dmamap_swiotlb_is_bounce(dev, h), high[i]);
			if (!high[i])
				CHECK_EQ(h, virt_to_phys(cpu[i]) - RAM0);
			CHECK_MSG(dev_diff(dev, h, a[i], len[i]) == 0, "%s entry %d: device read",
				  dir_name(dir), i);
			if (dev_writes(dir))
				CHECK_EQ(dmamap_device_write(dev, h, b[i], len[i]), 0);
		}
		if (dev_writes(dir)) {
			/* Every entry comes back at sync_for_cpu, bounced or not. */
			dma_sync_sg_for_cpu(dev, sgl, N, dir);
			for (i = 0; i < N; i++)
				CHECK_MSG(ndiff(cpu[i], b[i], len[i]) == 0,
					  "%s entry %d: %zu bytes wrong after sync_sg_for_cpu",
					  dir_name(dir), i, ndiff(cpu[i], b[i], len[i]));
			dma_sync_sg_for_device(dev, sgl, N, dir);
		}
		dma_unmap_sg(dev, sgl, N, dir);
		for (i = 0; i < N; i++)
			CHECK_MSG(ndiff(cpu[i], dev_writes(dir) ? b[i] : a[i], len[i]) == 0,
				  "%s entry %d: %zu bytes wrong after unmap", dir_name(dir), i,
				  ndiff(cpu[i], dev_writes(dir) ? b[i] : a[i], len[i]));
		CHECK_EQ(pool_of(p, NULL).used_slots, 0);
	}
	CHECK_EQ(pool_of(p, NULL).bounced_maps, 3 * 3);
	for (i = 0; i < N; i++) {
		free(a[i]);
		free(b[i]);
	}
	dmamap_platform_destroy(p);
}

/* ---- partial syncs ------------------------------------------------------------- */

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

/* ---- exhaustion, recovery, over-size --------------------------------------------- */

#define CHUNK (64 * KiB)

/*
 * Fill the default pool with 64 KiB mappings of @buf[0..n-1] (n from
 * chunks_in_pool(), two buffers more for after), fail, recover. @small:
 * 100 bytes that @dev must bounce too.
 */
static void exhaustion_and_recovery(struct dmamap_platform *p, struct device *dev,
				    uint8_t **buf, uint8_t *small)
{
	struct dmamap_swiotlb_stats s0, s;
	struct dmamap_device_stats d0;
	uint8_t *ref;
	dma_addr_t *h, x;
	unsigned int n = chunks_in_pool(p), i, r0;
	struct sg_table sgt;
	char num[32];

	s0 = pool_of(p, NULL);
	d0 = stats_of(dev);
	REQUIRE(n >= 4);
	h = calloc(n + 2, sizeof(*h));
	ref = malloc(CHUNK);
	REQUIRE(h && ref);
	for (i = 0; i < n + 2; i++)
		pat(buf[i], CHUNK, i);
	/* Fill the pool exactly: 64 KiB mappings pack 4 to a 128-slot segment. */
	for (i = 0; i < n; i++) {
		h[i] = dma_map_single(dev, buf[i], CHUNK, DMA_BIDIRECTIONAL);
		REQUIRE(!dma_mapping_error(dev, h[i]));
		s = pool_of(p, NULL);
		CHECK(s.high_water >= s.used_slots);
	}
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, s.total_slots);
	CHECK_EQ(s.high_water, s.total_slots);
	CHECK_EQ(s.largest_free_run, 0);
	CHECK_EQ(s.failures, s0.failures);

	/* Full: the next mapping fails, is counted and reported with the pool's state. */
	r0 = reps.n;
	x = dma_map_single(dev, buf[n], CHUNK, DMA_BIDIRECTIONAL);
	CHECK(x == DMA_MAPPING_ERROR);
	CHECK(dma_mapping_error(dev, x) == -ENOMEM);
	CHECK_EQ(pool_of(p, NULL).failures, s0.failures + 1);
	CHECK_EQ(reps.n, r0 + 1);
	CHECK_EQ(reps.last.kind, DMAMAP_DBG_ALLOC_FAILED);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_ALLOC_FAILED), 1);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)s0.total_slots);
	CHECK_MSG(strstr(reps.last.text, "swiotlb") && strstr(reps.last.text, num) &&
			  (strstr(reps.last.text, "high-water") || strstr(reps.last.text, "high water")) &&
			  strstr(reps.last.text, "largest free run"),
		  "report text: %s", reps.last.text);
	CHECK(!strcmp(reps.last.device, dev_name(dev)));
	/* A small one fails too; DMA_ATTR_NO_WARN silences the report, not the failure. */
	CHECK(dma_mapping_error(dev, dma_map_single(dev, small, 100, DMA_TO_DEVICE)));
	CHECK_EQ(reps.n, r0 + 2);
	CHECK(dma_mapping_error(dev, dma_map_single_attrs(dev, small, 100, DMA_TO_DEVICE,
							  DMA_ATTR_NO_WARN)));
	CHECK_EQ(reps.n, r0 + 2);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_ALLOC_FAILED), 2);
	CHECK_EQ(pool_of(p, NULL).failures, s0.failures + 3);
	CHECK_EQ(errk(dev, DMAMAP_ERRK_NOMEM), d0.errors_by_kind[DMAMAP_ERRK_NOMEM] + 3);
	/* An sg table that cannot get its slots: -ENOMEM, nothing stays mapped. */
	REQUIRE(sg_alloc_table(&sgt, 1, GFP_KERNEL) == 0);
	sg_set_buf(sgt.sgl, buf[n], CHUNK);
	CHECK_EQ(dma_map_sgtable(dev, &sgt, DMA_TO_DEVICE, DMA_ATTR_NO_WARN), -ENOMEM);
	CHECK_EQ(pool_of(p, NULL).used_slots, s0.total_slots);
	CHECK_EQ(pool_of(p, NULL).failures, s0.failures + 4);

	/* Nothing was lost: every earlier mapping still carries its bytes both ways. */
	for (i = 0; i < n; i++) {
		pat(ref, CHUNK, i);
		CHECK_MSG(dev_diff(dev, h[i], ref, CHUNK) == 0, "mapping %u: device read", i);
		pat(ref, CHUNK, 1000 + i);
		CHECK_EQ(dmamap_device_write(dev, h[i], ref, CHUNK), 0);
	}
	/* Free one mapping: mapping works again, into the room it left. */
	dma_unmap_single(dev, h[0], CHUNK, DMA_BIDIRECTIONAL);
	pat(ref, CHUNK, 1000);
	CHECK_EQ(ndiff(buf[0], ref, CHUNK), 0);
	h[n] = dma_map_single(dev, buf[n], CHUNK, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h[n]));
	CHECK(dmamap_swiotlb_is_bounce(dev, h[n]));
	pat(ref, CHUNK, n);
	CHECK_EQ(dev_diff(dev, h[n], ref, CHUNK), 0);
	/* The sg table too, once there is room (unmap one more). */
	dma_unmap_single(dev, h[1], CHUNK, DMA_BIDIRECTIONAL);
	CHECK_EQ(dma_map_sgtable(dev, &sgt, DMA_TO_DEVICE, 0), 0);
	pat(ref, CHUNK, n);
	CHECK_EQ(dev_diff(dev, sg_dma_address(sgt.sgl), ref, CHUNK), 0);
	dma_unmap_sgtable(dev, &sgt, DMA_TO_DEVICE, 0);
	sg_free_table(&sgt);
	dma_unmap_single(dev, h[n], CHUNK, DMA_BIDIRECTIONAL);
	for (i = 2; i < n; i++) {
		dma_unmap_single(dev, h[i], CHUNK, DMA_BIDIRECTIONAL);
		pat(ref, CHUNK, 1000 + i);
		CHECK_MSG(ndiff(buf[i], ref, CHUNK) == 0, "mapping %u: CPU after unmap", i);
	}
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, 0);
	CHECK_EQ(s.high_water, s.total_slots);
	CHECK_EQ(s.largest_free_run, 128);
	CHECK_EQ(s.failures, s0.failures + 4);
	CHECK_EQ(s.bounced_maps, s0.bounced_maps + n + 2);
	free(h);
	free(ref);
}

TEST(swiotlb_pool_exhaustion_fails_cleanly_and_recovers)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	unsigned int n, i;
	uint8_t **buf, *small;

	REQUIRE(p && dev);
	n = chunks_in_pool(p);
	buf = calloc(n + 2, sizeof(*buf));
	small = hi24_buf(p, 100);
	REQUIRE(buf && small);
	for (i = 0; i < n + 2; i++) {
		struct page *pg = dmamap_alloc_pages(p, 4, 0);

		REQUIRE(pg && page_to_phys(pg) >= WIN24_END);
		buf[i] = page_address(pg);
	}
	exhaustion_and_recovery(p, dev, buf, small);
	free(buf);
	dmamap_platform_destroy(p);
}

/* @buf: 512 KiB, page aligned, that @dev must bounce. */
static void oversize_refused(struct dmamap_platform *p, struct device *dev, uint8_t *buf)
{
	struct dmamap_swiotlb_stats s0;
	uint8_t *a;
	dma_addr_t h;
	unsigned int r0;

	CHECK_EQ(dma_max_mapping_size(dev), 256 * KiB);
	CHECK_EQ(DMAMAP_SWIOTLB_MAX_MAPPING, 256 * KiB);
	a = patbuf(256 * KiB + 1, 9);
	REQUIRE(a);
	memcpy(buf, a, 256 * KiB + 1);
	s0 = pool_of(p, NULL);
	/* Exactly the maximum bounces. */
	h = dma_map_single(dev, buf, 256 * KiB, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK(dmamap_swiotlb_is_bounce(dev, h));
	CHECK_EQ(dev_diff(dev, h, a, 256 * KiB), 0);
	dma_unmap_single(dev, h, 256 * KiB, DMA_TO_DEVICE);
	/* One byte more is refused although the pool is empty. */
	r0 = reps.n;
	h = dma_map_single(dev, buf, 256 * KiB + 1, DMA_TO_DEVICE);
	CHECK(h == DMA_MAPPING_ERROR);
	CHECK_EQ(pool_of(p, NULL).failures, s0.failures + 1);
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
	CHECK_EQ(reps.n, r0 + 1);
	CHECK_EQ(reps.last.kind, DMAMAP_DBG_ALLOC_FAILED);
	CHECK_MSG(strstr(reps.last.text, "swiotlb") != NULL, "report: %s", reps.last.text);
	/* Also with a min_align_mask offset that pushes it past 128 slots. */
	REQUIRE(dma_set_min_align_mask(dev, 0xfff) == 0);
	h = dma_map_single(dev, buf + 0x7ff, 256 * KiB - 0x7fe, DMA_TO_DEVICE);
	CHECK(h == DMA_MAPPING_ERROR);
	CHECK_EQ(pool_of(p, NULL).failures, s0.failures + 2);
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
	REQUIRE(dma_set_min_align_mask(dev, 0) == 0);
	free(a);
}

TEST(swiotlb_oversize_mapping_refused_up_front)
{
	on_dma24(7, oversize_refused);
}

/*
 * high_water is the most slots ever in use at once, whichever areas they
 * were in. Fragment the first area so a larger mapping has to go to the
 * next one, then fill the first area's holes again: the pool's peak is
 * then higher than any earlier one although the first area's is not.
 */
#define HW_NB 48

/* @buf: HW_NB + 1 buffers of 128 KiB that @dev must bounce. */
static void high_water_run(struct dmamap_platform *p, struct device *dev, uint8_t **buf)
{
	enum { NB = HW_NB };
	dma_addr_t h[NB + 1];
	uint64_t peak = 0;
	struct dmamap_swiotlb_stats s;
	unsigned int i, per_area;

	s = pool_of(p, NULL);
	REQUIRE(s.high_water == 0);
	/* 4 areas of whole 128-slot segments; 64 KiB = 32 slots. */
	per_area = (unsigned int)(s.total_slots / 4 / 32);
	REQUIRE(per_area >= 4 && per_area < NB);
	for (i = 0; i <= NB; i++)
		h[i] = DMA_MAPPING_ERROR;
#define MAP_AND_TRACK(k, len)                                                       \
	do {                                                                         \
		h[k] = dma_map_single(dev, buf[k], (len), DMA_TO_DEVICE);            \
		REQUIRE(!dma_mapping_error(dev, h[k]));                              \
		s = pool_of(p, NULL);                                                \
		peak = s.used_slots > peak ? s.used_slots : peak;                    \
		CHECK_MSG(s.high_water == peak, "high_water %llu, most used so far %llu", \
			  (unsigned long long)s.high_water, (unsigned long long)peak);  \
	} while (0)
	for (i = 0; i < per_area; i++)
		MAP_AND_TRACK(i, CHUNK);
	for (i = 0; i < per_area; i += 2) {
		dma_unmap_single(dev, h[i], CHUNK, DMA_TO_DEVICE);
		h[i] = DMA_MAPPING_ERROR;
	}
	MAP_AND_TRACK(NB, 2 * CHUNK); /* no 64-slot hole in the first area */
	for (i = 0; i < per_area; i += 2)
		MAP_AND_TRACK(i, CHUNK);
	CHECK_EQ(peak, (per_area + 2) * 32ULL);
#undef MAP_AND_TRACK
	for (i = 0; i < per_area; i++)
		dma_unmap_single(dev, h[i], CHUNK, DMA_TO_DEVICE);
	dma_unmap_single(dev, h[NB], 2 * CHUNK, DMA_TO_DEVICE);
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, 0);
	CHECK_EQ(s.high_water, peak);
}

TEST(swiotlb_high_water_is_most_slots_ever_used)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	uint8_t *buf[HW_NB + 1];

	REQUIRE(p && dev);
	for (unsigned int i = 0; i <= HW_NB; i++) {
		struct page *pg = dmamap_alloc_pages(p, 5, 0);

		REQUIRE(pg);
		buf[i] = page_address(pg);
	}
	high_water_run(p, dev, buf);
	dmamap_platform_destroy(p);
}

/* ---- min_align_mask ------------------------------------------------------------ */

/* @buf: 4 pages that @dev must bounce. */
static void min_align_run(struct dmamap_platform *p, struct device *dev, uint8_t *buf)
{
	static const size_t offs[] = { 0, 0x40, 0x123, 0x7ff, 0x800, 0x9c4, 0xfff };
	static const size_t sizes[] = { 1, 100, 2049, 5000 };
	enum { AREA = 4 * PAGE_SIZE };
	uint8_t guard[AREA], a[5000], b[5000];

	CHECK_EQ(dma_get_min_align_mask(dev), 0);
	CHECK_EQ(dma_set_min_align_mask(dev, 0xfff), 0);
	CHECK_EQ(dma_get_min_align_mask(dev), 0xfff);
	CHECK_EQ(dma_set_min_align_mask(NULL, 0xfff), -EINVAL);
	for (unsigned int o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
		for (unsigned int k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			size_t off = offs[o], n = sizes[k];
			phys_addr_t phys = virt_to_phys(buf + off);
			dma_addr_t h;

			pat(guard, AREA, o * 7 + k);
			memcpy(buf, guard, AREA);
			pat(a, n, o * 7 + k);
			pat(b, n, o * 7 + k + 100);
			memcpy(buf + off, a, n);
			memcpy(guard + off, b, n); /* what the whole area must hold at the end */
			h = dma_map_single(dev, buf + off, n, DMA_BIDIRECTIONAL);
			REQUIRE(!dma_mapping_error(dev, h));
			CHECK(dmamap_swiotlb_is_bounce(dev, h));
			CHECK_MSG((h & 0xfff) == (phys & 0xfff),
				  "offset 0x%zx size %zu: handle 0x%llx, phys 0x%llx", off, n,
				  (unsigned long long)h, (unsigned long long)phys);
			CHECK_EQ(dev_diff(dev, h, a, n), 0);
			CHECK_EQ(dmamap_device_write(dev, h, b, n), 0);
			dma_unmap_single(dev, h, n, DMA_BIDIRECTIONAL);
			/* The mapping's bytes came back, and nothing around them moved. */
			CHECK_MSG(ndiff(buf, guard, AREA) == 0, "offset 0x%zx size %zu: %zu bytes",
				  off, n, ndiff(buf, guard, AREA));
		}
	}
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
}

TEST(swiotlb_min_align_mask_keeps_low_address_bits)
{
	on_dma24(2, min_align_run);
}

/*
 * dma_max_mapping_size() is a promise: a mapping that size bounces on an
 * empty pool whatever its address. With min_align_mask the offset kept
 * inside the first slot takes room from the 128-slot segment, so the
 * kernel's swiotlb_max_mapping_size() subtracts the mask rounded up to a
 * slot (256 KiB - 4 KiB for 0xfff).
 */
TEST(swiotlb_max_mapping_size_honours_min_align_mask)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	struct page *pg;
	uint8_t *buf;
	size_t max;
	dma_addr_t h;

	REQUIRE(p && dev);
	pg = dmamap_alloc_pages(p, 7, 0);
	REQUIRE(pg && page_to_phys(pg) >= WIN24_END);
	buf = page_address(pg);
	REQUIRE(dma_set_min_align_mask(dev, 0xfff) == 0);
	max = dma_max_mapping_size(dev);
	CHECK(max <= 256 * KiB && max >= 128 * KiB);
	/* The worst offset: 0xfff keeps 0x7ff bytes of the first slot. */
	h = dma_map_single(dev, buf + 0xfff, max, DMA_TO_DEVICE);
	CHECK_MSG(!dma_mapping_error(dev, h),
		  "dma_max_mapping_size() says %zu, but %zu bytes at page offset 0xfff fail",
		  max, max);
	if (!dma_mapping_error(dev, h)) {
		CHECK_EQ(h & 0xfff, 0xfff);
		dma_unmap_single(dev, h, max, DMA_TO_DEVICE);
	}
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
	dmamap_platform_destroy(p);
}

/* ---- restricted pools ------------------------------------------------------------ */

TEST(swiotlb_restricted_pool_takes_every_mapping_of_its_device)
{
	enum { PSIZE = 512 * KiB, LEN = 3000 };
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, NC);
	struct device *coh = dmamap_device_lookup(p, COH);
	struct dmamap_swiotlb_stats def0, rs;
	struct page *pg;
	phys_addr_t base;
	uint8_t *buf, *cpu, a[LEN], b[LEN];
	dma_addr_t h, ch;
	unsigned int r0;

	REQUIRE(p && dev && coh);
	pg = dmamap_alloc_pages(p, 7, 0);
	REQUIRE(pg);
	base = page_to_phys(pg);
	def0 = pool_of(p, NULL);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, PSIZE), 0);
	rs = pool_of(NULL, dev);
	CHECK_MSG(!strcmp(rs.name, "restricted:dma-nc"), "name %s", rs.name);
	CHECK_EQ(rs.start, base);
	CHECK_EQ(rs.total_slots * rs.slot_size, PSIZE);
	CHECK_EQ(rs.used_slots, 0);
	CHECK(!strcmp(pool_of(NULL, coh).name, "swiotlb"));
	/* dma-nc reaches this buffer directly, but it bounces into its own pool. */
	buf = dmamap_kmalloc(p, LEN, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	pat(a, LEN, 21);
	pat(b, LEN, 22);
	for (int mode = 0; mode < 2; mode++) {
		/* ... whatever the swiotlb mode. */
		REQUIRE(dmamap_swiotlb_set_mode(p, mode ? DMAMAP_SWIOTLB_NOFORCE :
							  DMAMAP_SWIOTLB_ON) == 0);
		memcpy(buf, a, LEN);
		h = dma_map_single(dev, buf, LEN, DMA_BIDIRECTIONAL);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK(h != virt_to_phys(buf) - RAM0);
		CHECK(in_pool(&rs, dmamap_dma_to_phys(dev, h), LEN));
		CHECK(dmamap_swiotlb_is_bounce(dev, h));
		CHECK_EQ(dev_diff(dev, h, a, LEN), 0);
		CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
		CHECK_EQ(ndiff(buf, a, LEN), 0);
		dma_unmap_single(dev, h, LEN, DMA_BIDIRECTIONAL);
		CHECK_EQ(ndiff(buf, b, LEN), 0);
	}
	REQUIRE(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_ON) == 0);
	rs = pool_of(NULL, dev);
	CHECK_EQ(rs.bounced_maps, 2);
	CHECK_EQ(rs.used_slots, 0);
	CHECK_EQ(pool_of(p, NULL).bounced_maps, def0.bounced_maps);
	/* Other devices are not affected. */
	memcpy(buf, a, LEN);
	h = dma_map_single(coh, buf, LEN, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(coh, h));
	CHECK_EQ(h, virt_to_phys(buf));
	dma_unmap_single(coh, h, LEN, DMA_TO_DEVICE);

	/* Coherent allocations come from the pool too, and both sides share them. */
	cpu = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &ch, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(in_pool(&rs, dmamap_dma_to_phys(dev, ch), 2 * PAGE_SIZE));
	CHECK_EQ(pool_of(NULL, dev).used_slots, 4);
	CHECK(all_bytes(cpu, 2 * PAGE_SIZE, 0));
	memcpy(cpu + 100, a, LEN);
	CHECK_EQ(dev_diff(dev, ch + 100, a, LEN), 0);
	CHECK_EQ(dmamap_device_write(dev, ch + 4000, b, LEN), 0);
	CHECK_EQ(ndiff(cpu + 4000, b, LEN), 0);
	dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, ch);
	CHECK_EQ(pool_of(NULL, dev).used_slots, 0);

	/*
	 * The restricted pool runs out on its own, and says which pool it is.
	 * The slots the coherent buffer had are streaming slots again: no
	 * report about the bytes written through its uncached alias.
	 */
	{
		struct page *big = dmamap_alloc_pages(p, 6, 0);
		dma_addr_t hh[3];

		REQUIRE(big);
		r0 = reps.n;
		hh[0] = dma_map_page(dev, big, 0, 256 * KiB, DMA_TO_DEVICE);
		hh[1] = dma_map_page(dev, big, 0, 256 * KiB, DMA_TO_DEVICE);
		CHECK(!dma_mapping_error(dev, hh[0]) && !dma_mapping_error(dev, hh[1]));
		CHECK_MSG(reps.n == r0, "%u reports, the last: [%s] %s", reps.n - r0,
			  dmamap_dbg_kind_name(reps.last.kind), reps.last.text);
		CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_DEVICE_DATA_LOST), 0);
		r0 = reps.n;
		hh[2] = dma_map_page(dev, big, 0, 100, DMA_TO_DEVICE);
		CHECK(hh[2] == DMA_MAPPING_ERROR);
		CHECK_EQ(reps.n, r0 + 1);
		CHECK_MSG(strstr(reps.last.text, "restricted:dma-nc") != NULL, "report: %s",
			  reps.last.text);
		CHECK_EQ(pool_of(NULL, dev).failures, 1);
		CHECK_EQ(pool_of(p, NULL).failures, def0.failures);
		dma_unmap_page(dev, hh[0], 256 * KiB, DMA_TO_DEVICE);
		dma_unmap_page(dev, hh[1], 256 * KiB, DMA_TO_DEVICE);
		CHECK_EQ(pool_of(NULL, dev).used_slots, 0);
	}

	/* One pool per device. */
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, PSIZE), -EBUSY);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_restricted_pool_bad_arguments)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, COH);
	struct page *pg;
	phys_addr_t base;

	REQUIRE(p && dev);
	pg = dmamap_alloc_pages(p, 7, 0);
	REQUIRE(pg);
	base = page_to_phys(pg);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(NULL, base, 256 * KiB), -EINVAL);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base + 64, 256 * KiB), -EINVAL);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, 0), -EINVAL);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, 100 * KiB), -EINVAL);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, 256 * KiB + PAGE_SIZE), -EINVAL);
	/* Not RAM, or running off the end of a bank. */
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, 0x40000000ULL, 256 * KiB), -EINVAL);
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, RAM0 + 128 * MiB - 128 * KiB,
						256 * KiB), -EINVAL);
	/* None of these installed anything. */
	CHECK(!strcmp(pool_of(NULL, dev).name, "swiotlb"));
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, 256 * KiB), 0);
	CHECK(!strcmp(pool_of(NULL, dev).name, "restricted:dma-coh"));
	CHECK_EQ(dmamap_swiotlb_restricted_pool(dev, base, 256 * KiB), -EBUSY);
	/* Stats arguments. */
	{
		struct dmamap_swiotlb_stats s;

		CHECK_EQ(dmamap_swiotlb_stats(NULL, NULL, &s), -EINVAL);
		CHECK_EQ(dmamap_swiotlb_stats(p, NULL, NULL), -EINVAL);
	}
	dmamap_platform_destroy(p);
}

/* ---- force / noforce ------------------------------------------------------------- */

/* Map @n bytes of @buf on @dev, check both directions of traffic, unmap. */
static void round_trip(struct device *dev, uint8_t *buf, size_t n, bool want_bounce,
		       unsigned int seed)
{
	uint8_t *a = patbuf(n, seed), *b = patbuf(n, seed + 1);
	dma_addr_t h;

	REQUIRE(a && b);
	memcpy(buf, a, n);
	h = dma_map_single(dev, buf, n, DMA_BIDIRECTIONAL);
	CHECK(!dma_mapping_error(dev, h));
	if (!dma_mapping_error(dev, h)) {
		CHECK_MSG(dmamap_swiotlb_is_bounce(dev, h) == want_bounce, "%s: bounce %d",
			  dev_name(dev), !want_bounce);
		CHECK_EQ(dev_diff(dev, h, a, n), 0);
		CHECK_EQ(dmamap_device_write(dev, h, b, n), 0);
		dma_unmap_single(dev, h, n, DMA_BIDIRECTIONAL);
		CHECK_MSG(ndiff(buf, b, n) == 0, "%s: %zu bytes wrong", dev_name(dev),
			  ndiff(buf, b, n));
	}
	free(a);
	free(b);
}

TEST(swiotlb_force_noforce_and_back)
{
	struct dmamap_platform *p = quiet_board();
	struct device *nc = dmamap_device_lookup(p, NC);
	struct device *coh = dmamap_device_lookup(p, COH);
	struct device *d24 = dmamap_device_lookup(p, D24);
	struct dmamap_swiotlb_stats s0 = pool_of(p, NULL), s;
	uint8_t *lo, *hi, *lo24;
	dma_addr_t h;

	REQUIRE(p && nc && coh && d24);
	lo = dmamap_kmalloc(p, 5000, DMAMAP_GFP_DMA | DMAMAP_GFP_DMA_ALIGN);
	hi = hi24_buf(p, 5000);
	lo24 = d24_lo_pages(p, 1);
	REQUIRE(lo && hi && lo24);

	/* force: everything bounces, bytes still right. */
	CHECK_EQ(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_FORCE), 0);
	round_trip(nc, lo, 5000, true, 1);
	round_trip(coh, lo, 5000, true, 3);
	round_trip(coh, hi, 777, true, 5);
	round_trip(d24, lo24, 3000, true, 7);
	s = pool_of(p, NULL);
	CHECK_EQ(s.bounced_maps, s0.bounced_maps + 4);
	CHECK_EQ(s.used_slots, 0);
	h = dma_map_single(coh, lo, 5000, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(coh, h));
	CHECK(in_pool(&s0, dmamap_dma_to_phys(coh, h), 5000));
	dma_unmap_single(coh, h, 5000, DMA_TO_DEVICE);

	/* noforce: nothing bounces; what dma-24 cannot reach fails. */
	CHECK_EQ(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_NOFORCE), 0);
	CHECK_ERRK(d24, DMAMAP_ERRK_UNREACHABLE,
		   dma_map_single(d24, hi, 5000, DMA_TO_DEVICE) == DMA_MAPPING_ERROR);
	round_trip(d24, lo24, 3000, false, 9);
	round_trip(nc, lo, 5000, false, 11);
	CHECK_EQ(pool_of(p, NULL).bounced_maps, s0.bounced_maps + 5);

	/* on again: dma-24's high buffer bounces, reachable ones do not. */
	CHECK_EQ(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_ON), 0);
	round_trip(d24, hi, 5000, true, 13);
	round_trip(d24, lo24, 3000, false, 15);
	round_trip(nc, lo, 5000, false, 17);
	round_trip(coh, hi, 5000, false, 19);
	CHECK_EQ(pool_of(p, NULL).bounced_maps, s0.bounced_maps + 6);

	CHECK_EQ(dmamap_swiotlb_set_mode(NULL, DMAMAP_SWIOTLB_FORCE), -EINVAL);
	CHECK_EQ(dmamap_swiotlb_set_mode(p, (enum dmamap_swiotlb_mode)7), -EINVAL);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_force_mode_on_host)
{
	struct dmamap_platform *hp = host_platform();
	struct device *dev;
	uint8_t *buf, a[5000], b[5000];
	struct dmamap_swiotlb_stats s0;
	dma_addr_t h;

	REQUIRE(hp);
	dev = host_device(hp, "sw", NULL);
	REQUIRE(dev);
	buf = malloc(5000);
	REQUIRE(buf);
	s0 = pool_of(hp, NULL);
	CHECK(!strcmp(s0.name, "swiotlb"));
	pat(a, sizeof(a), 31);
	pat(b, sizeof(b), 32);
	/* Default: identity, no bounce. */
	memcpy(buf, a, sizeof(a));
	h = dma_map_single(dev, buf, sizeof(a), DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(h, (uintptr_t)buf);
	CHECK(!dmamap_swiotlb_is_bounce(dev, h));
	dma_unmap_single(dev, h, sizeof(a), DMA_BIDIRECTIONAL);
	/* Forced: a copy in the pool, the bytes still arrive both ways. */
	REQUIRE(dmamap_swiotlb_set_mode(hp, DMAMAP_SWIOTLB_FORCE) == 0);
	for (unsigned int d = 0; d < 3; d++) {
		memcpy(buf, a, sizeof(a));
		h = dma_map_single(dev, buf, sizeof(a), dirs[d]);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK(h != (uintptr_t)buf);
		CHECK(dmamap_swiotlb_is_bounce(dev, h));
		CHECK(in_pool(&s0, dmamap_dma_to_phys(dev, h), sizeof(a)));
		CHECK_EQ(dev_diff(dev, h, a, sizeof(a)), 0);
		if (dev_writes(dirs[d]))
			CHECK_EQ(dmamap_device_write(dev, h, b, sizeof(b)), 0);
		CHECK_EQ(ndiff(buf, a, sizeof(a)), 0);
		dma_unmap_single(dev, h, sizeof(a), dirs[d]);
		CHECK_EQ(ndiff(buf, dev_writes(dirs[d]) ? b : a, sizeof(a)), 0);
	}
	CHECK_EQ(pool_of(hp, NULL).bounced_maps, s0.bounced_maps + 3);
	CHECK_EQ(pool_of(hp, NULL).used_slots, 0);
	/* Back on: identity again. */
	REQUIRE(dmamap_swiotlb_set_mode(hp, DMAMAP_SWIOTLB_ON) == 0);
	h = dma_map_single(dev, buf, sizeof(a), DMA_TO_DEVICE);
	CHECK_EQ(h, (uintptr_t)buf);
	dma_unmap_single(dev, h, sizeof(a), DMA_TO_DEVICE);
	free(buf);
	dmamap_platform_destroy(hp);
}

/*
 * A mapping that bounced stays a bounce slot after swiotlb=force is turned
 * off: syncs on it still copy, though the device is back on the identity path.
 */
TEST(swiotlb_host_sync_of_bounced_mapping_after_unforce)
{
	struct dmamap_platform *hp = host_platform();
	struct device *dev;
	uint8_t *buf, b[4096];
	dma_addr_t h;

	REQUIRE(hp);
	dev = host_device(hp, "sw", NULL);
	REQUIRE(dev);
	buf = calloc(1, sizeof(b));
	REQUIRE(buf);
	pat(b, sizeof(b), 41);
	REQUIRE(dmamap_swiotlb_set_mode(hp, DMAMAP_SWIOTLB_FORCE) == 0);
	h = dma_map_single(dev, buf, sizeof(b), DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	REQUIRE(dmamap_swiotlb_is_bounce(dev, h));
	REQUIRE(dmamap_swiotlb_set_mode(hp, DMAMAP_SWIOTLB_ON) == 0);
	CHECK_EQ(dmamap_device_write(dev, h, b, sizeof(b)), 0);
	dma_sync_single_for_cpu(dev, h, sizeof(b), DMA_FROM_DEVICE);
	CHECK_EQ(ndiff(buf, b, sizeof(b)), 0);
	dma_unmap_single(dev, h, sizeof(b), DMA_FROM_DEVICE);
	CHECK_EQ(pool_of(hp, NULL).used_slots, 0);
	free(buf);
	dmamap_platform_destroy(hp);
}

/* ---- copy semantics -------------------------------------------------------------- */

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

/* ---- counters ---------------------------------------------------------------------- */

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

/* ---- the random-operation model ------------------------------------------------------ */

/*
 * A model of what each side must see. Per mapping: the bytes the CPU must
 * read through its pointer and the bytes the device must read at the
 * handle, each with a "known" flag (a dmabounce FROM_DEVICE safe buffer
 * holds whatever it held before until the device writes it). Only legal
 * operations are made: the device touches a mapping it owns, the CPU reads
 * one it owns, the CPU writes a buffer only before mapping it.
 *
 * Bounced mappings copy exactly the bytes asked for. Direct mappings on a
 * non-coherent device go through the cache model: an invalidate at
 * sync_for_cpu or unmap refreshes whole cache lines, so the CPU then sees
 * the device's bytes in every line the range touches (the buffer is clean
 * in the cache after the map, so nothing of the CPU's is written back).
 */
#define RSLOTS 4
#define RSLOT_BYTES (20 * KiB) /* per live mapping: buffer (<= 8 KiB + offset) and gap */
#define RMAX 8192

struct rmap {
	bool live, bounced, dev_owns;
	unsigned int region; /* 0: reachable directly, 1: must bounce */
	uint8_t *buf;
	size_t size;
	enum dma_data_direction dir;
	dma_addr_t h;
	uint8_t cpu[RMAX], dev[RMAX];
	bool cpu_k[RMAX], dev_k[RMAX];
};

struct rcfg {
	const char *what;
	struct dmamap_platform *p;
	struct device *dev;
	uint8_t *region[2];  /* RSLOTS * RSLOT_BYTES each */
	bool force;          /* everything bounces */
	bool dmabounce;      /* bounced FROM maps do not copy in; safe buffers below 64 MiB */
	unsigned int line;
};

struct rstate {
	const struct rcfg *c;
	uint64_t rng;
	unsigned int seed, op;
	unsigned long bad;
	struct rmap m[RSLOTS];
	uint8_t tmp[RMAX];
};

static uint64_t rnd(struct rstate *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 2685821657736338717ULL;
}

static size_t rsize(struct rstate *s)
{
	static const size_t edges[] = { 1, 2, 63, 64, 65, 511, 512, 513, 2047, 2048, 2049,
					4095, 4096, 4097, 6144, 8191, 8192 };

	switch (rnd(s) % 4) {
	case 0:
		return edges[rnd(s) % (sizeof(edges) / sizeof(edges[0]))];
	case 1:
		return 1 + rnd(s) % 128;
	default:
		return 1 + rnd(s) % RMAX;
	}
}

static void rbad(struct rstate *s, const struct rmap *m, const char *what, size_t nbad)
{
	if (s->bad++ < 3)
		printf("#   %s seed %u op %u: %s: %zu bytes differ (%s %s size %zu at phys 0x%llx, handle 0x%llx)\n",
		       s->c->what, s->seed, s->op, what, nbad, m->bounced ? "bounced" : "direct",
		       dir_name(m->dir), m->size, (unsigned long long)virt_to_phys(m->buf),
		       (unsigned long long)m->h);
}

/* The CPU reads the whole buffer: every byte it must know has to match. */
static void rcheck_cpu(struct rstate *s, struct rmap *m, const char *when)
{
	size_t n = 0;

	for (size_t i = 0; i < m->size; i++)
		n += m->cpu_k[i] && m->buf[i] != m->cpu[i];
	if (n)
		rbad(s, m, when, n);
}

/* The device reads [o, o+l). */
static void rcheck_dev(struct rstate *s, struct rmap *m, size_t o, size_t l)
{
	size_t n = 0;

	if (dmamap_device_read(s->c->dev, m->h + o, s->tmp, l)) {
		rbad(s, m, "device read faulted", l);
		return;
	}
	for (size_t i = 0; i < l; i++)
		n += m->dev_k[o + i] && s->tmp[i] != m->dev[o + i];
	if (n)
		rbad(s, m, "device read", n);
}

/* The CPU's view of [o, o+l) takes the device's bytes (widened to lines when direct). */
static void rto_cpu(struct rstate *s, struct rmap *m, size_t o, size_t l)
{
	size_t lo = o, hi = o + l;

	if (!m->bounced) {
		uintptr_t line = s->c->line, a = (uintptr_t)m->buf;

		lo = ((a + lo) & ~(line - 1)) - a > lo ? 0 : ((a + lo) & ~(line - 1)) - a;
		hi = ((a + hi + line - 1) & ~(line - 1)) - a;
		if (hi > m->size)
			hi = m->size;
	}
	for (size_t i = lo; i < hi; i++) {
		m->cpu[i] = m->dev[i];
		m->cpu_k[i] = m->dev_k[i];
	}
}

/*
 * A partial sync_for_device of a BIDIR bounce buffer on a non-coherent
 * device: the CPU's copy dirties the cache lines of the bounce buffer at
 * the range's edges, and their clean writes back the rest of those lines
 * as the cache held them, which may be older than what the device wrote
 * there (on hardware as in the sim). Those bytes are not predictable from
 * the simple model: the device view of them becomes unknown.
 */
static void redges_unknown(struct rstate *s, struct rmap *m, size_t o, size_t l)
{
	phys_addr_t tlb, line = s->c->line, ls, le;

	if (s->c->dmabounce || dev_is_dma_coherent(s->c->dev))
		return;
	tlb = dmamap_dma_to_phys(s->c->dev, m->h);
	ls = (tlb + o) & ~(line - 1);
	le = (tlb + o + l + line - 1) & ~(line - 1);
	for (size_t i = ls > tlb ? (size_t)(ls - tlb) : 0; i < o; i++)
		m->dev_k[i] = false;
	for (size_t i = o + l; i < m->size && tlb + i < le; i++)
		m->dev_k[i] = false;
}

static void rrange(struct rstate *s, const struct rmap *m, size_t *o, size_t *l)
{
	if (rnd(s) % 4 == 0) {
		*o = 0;
		*l = m->size;
		return;
	}
	*o = rnd(s) % m->size;
	*l = 1 + rnd(s) % (m->size - *o);
}

static void rmap_new(struct rstate *s, unsigned int k)
{
	struct rmap *m = &s->m[k];
	const struct rcfg *c = s->c;
	phys_addr_t phys;
	size_t off;

	m->size = rsize(s);
	m->dir = dirs[rnd(s) % 3];
	m->region = (unsigned int)(rnd(s) % 2);
	off = rnd(s) % (RSLOT_BYTES - RMAX - c->line);
	if (rnd(s) % 4 == 0)
		off &= ~(size_t)(c->line - 1);
	m->buf = c->region[m->region] + (size_t)k * RSLOT_BYTES + off;
	for (size_t i = 0; i < m->size; i++) {
		m->cpu[i] = (uint8_t)rnd(s);
		m->cpu_k[i] = true;
	}
	memcpy(m->buf, m->cpu, m->size);
	m->bounced = c->force || m->region == 1;
	/* The device sees the CPU's bytes (a dmabounce FROM safe buffer: not yet known). */
	memcpy(m->dev, m->cpu, m->size);
	for (size_t i = 0; i < m->size; i++)
		m->dev_k[i] = !(c->dmabounce && m->bounced && m->dir == DMA_FROM_DEVICE);
	m->h = dma_map_single(c->dev, m->buf, m->size, m->dir);
	if (dma_mapping_error(c->dev, m->h)) {
		rbad(s, m, "map failed", m->size);
		return;
	}
	phys = virt_to_phys(m->buf);
	if (c->dmabounce) {
		if (m->bounced ? m->h == phys - RAM0 || m->h + m->size > 64 * MiB :
				 m->h != phys - RAM0)
			rbad(s, m, "handle", 0);
	} else {
		if (dmamap_swiotlb_is_bounce(c->dev, m->h) != m->bounced ||
		    (!m->bounced && m->h != phys - RAM0))
			rbad(s, m, "handle", 0);
	}
	m->live = true;
	m->dev_owns = true;
	if (!c->dmabounce) {
		struct dmamap_swiotlb_stats st = pool_of(c->p, c->dev);

		if (st.high_water < st.used_slots)
			rbad(s, m, "high_water below used_slots", 0);
	}
}

static void rmap_unmap(struct rstate *s, struct rmap *m)
{
	dma_unmap_single(s->c->dev, m->h, m->size, m->dir);
	if (m->dir != DMA_TO_DEVICE)
		rto_cpu(s, m, 0, m->size);
	m->live = false;
	rcheck_cpu(s, m, "CPU after unmap");
}

static void rstep(struct rstate *s)
{
	unsigned int k = (unsigned int)(rnd(s) % RSLOTS);
	struct rmap *m = &s->m[k];
	struct device *dev = s->c->dev;
	unsigned int r = (unsigned int)(rnd(s) % 100);
	size_t o, l;

	if (!m->live) {
		rmap_new(s, k);
		return;
	}
	if (m->dev_owns) {
		if (r < 30) {
			rrange(s, m, &o, &l);
			rcheck_dev(s, m, o, l);
		} else if (r < 55 && m->dir != DMA_TO_DEVICE) {
			rrange(s, m, &o, &l);
			for (size_t i = 0; i < l; i++) {
				s->tmp[i] = (uint8_t)rnd(s);
				m->dev[o + i] = s->tmp[i];
				m->dev_k[o + i] = true;
			}
			if (dmamap_device_write(dev, m->h + o, s->tmp, l))
				rbad(s, m, "device write faulted", l);
		} else if (r < 82) {
			rrange(s, m, &o, &l);
			dma_sync_single_range_for_cpu(dev, m->h, o, l, m->dir);
			if (m->dir != DMA_TO_DEVICE)
				rto_cpu(s, m, o, l);
			m->dev_owns = false;
		} else {
			rmap_unmap(s, m);
		}
	} else {
		if (r < 35) {
			rcheck_cpu(s, m, "CPU read");
		} else if (r < 82) {
			rrange(s, m, &o, &l);
			dma_sync_single_range_for_device(dev, m->h, o, l, m->dir);
			if (m->bounced && m->dir != DMA_FROM_DEVICE) {
				for (size_t i = o; i < o + l; i++) {
					m->dev[i] = m->cpu[i];
					m->dev_k[i] = m->cpu_k[i];
				}
				if (m->dir == DMA_BIDIRECTIONAL)
					redges_unknown(s, m, o, l);
			}
			m->dev_owns = true;
		} else {
			rmap_unmap(s, m);
		}
	}
}

/*
 * Run @seeds sequences of @ops random operations on @dev (then unmap what is
 * left), with buffers in @direct (reached without bouncing unless @force)
 * and @bounced (RSLOTS * RSLOT_BYTES bytes each). @dmabounce: the device is
 * behind dmabounce. Returns the number of mismatches (the first few are
 * printed). Also used by test_dmabounce.c.
 */
unsigned long bounce_random_run(const char *what, struct device *dev, uint8_t *direct,
				uint8_t *bounced, bool force, bool dmabounce,
				unsigned int seeds, unsigned int ops);

unsigned long bounce_random_run(const char *what, struct device *dev, uint8_t *direct,
				uint8_t *bounced, bool force, bool dmabounce,
				unsigned int seeds, unsigned int ops)
{
	struct rstate *s = calloc(1, sizeof(*s));
	struct rcfg c = { .what = what, .dev = dev, .force = force, .dmabounce = dmabounce,
			  .region = { direct, bounced } };
	unsigned long bad;

	if (!s || !dev || !direct || !bounced)
		return 1;
	c.p = dmamap_device_platform(dev);
	c.line = dmamap_cache_line_size(c.p);
	s->c = &c;
	for (unsigned int seed = 1; seed <= seeds && s->bad < 3; seed++) {
		s->seed = seed;
		s->rng = 0x9e3779b97f4a7c15ULL * seed + 1;
		for (s->op = 0; s->op < ops; s->op++)
			rstep(s);
		for (unsigned int k = 0; k < RSLOTS; k++)
			if (s->m[k].live)
				rmap_unmap(s, &s->m[k]);
	}
	bad = s->bad;
	free(s);
	return bad;
}

TEST(swiotlb_random_ops_dma24)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	struct dmamap_swiotlb_stats s;
	struct page *hi;

	REQUIRE(p && dev);
	hi = dmamap_alloc_pages(p, 5, 0);
	REQUIRE(hi && page_to_phys(hi) >= WIN24_END);
	CHECK_EQ(bounce_random_run("dma-24", dev, d24_lo_pages(p, 5), page_address(hi), false,
				   false, 500, 50), 0);
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, 0);
	CHECK(s.bounced_maps > 1000);
	CHECK_EQ(s.failures, 0);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_random_ops_dma_nc_forced)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, NC);
	struct dmamap_swiotlb_stats s;
	struct page *lo, *hi;

	REQUIRE(p && dev);
	REQUIRE(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_FORCE) == 0);
	lo = dmamap_alloc_pages(p, 5, DMAMAP_GFP_DMA);
	hi = dmamap_alloc_pages(p, 5, 0);
	REQUIRE(lo && hi);
	CHECK_EQ(bounce_random_run("dma-nc forced", dev, page_address(lo), page_address(hi),
				   true, false, 500, 50), 0);
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, 0);
	CHECK(s.bounced_maps > 2000);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

/* ---- threads ------------------------------------------------------------------------- */

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

/*
 * Two threads each holding a mapping at the same moment: the pool's
 * high-water mark may overstate concurrent use but must never miss it,
 * although neither thread reads the other's area when it maps.
 */
struct holder {
	struct device *dev;
	uint8_t *buf;
	size_t len;
	pthread_barrier_t *both_mapped, *checked;
	int err;
};

static void *hold_mapping(void *arg)
{
	struct holder *h = arg;
	dma_addr_t a = dma_map_single(h->dev, h->buf, h->len, DMA_TO_DEVICE);

	h->err = dma_mapping_error(h->dev, a);
	pthread_barrier_wait(h->both_mapped);
	pthread_barrier_wait(h->checked);
	if (!h->err)
		dma_unmap_single(h->dev, a, h->len, DMA_TO_DEVICE);
	return NULL;
}

TEST(swiotlb_high_water_counts_mappings_held_by_two_threads)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	pthread_barrier_t both_mapped, checked;
	struct holder h[2];
	pthread_t t[2];
	struct dmamap_swiotlb_stats s;

	REQUIRE(p && dev);
	REQUIRE(pool_of(p, NULL).high_water == 0);
	pthread_barrier_init(&both_mapped, NULL, 3);
	pthread_barrier_init(&checked, NULL, 3);
	for (int i = 0; i < 2; i++) {
		struct page *pg = dmamap_alloc_pages(p, 4, 0);

		REQUIRE(pg && page_to_phys(pg) >= WIN24_END);
		/* 40 and 24 KiB: 20 and 12 slots, so the sum is not either alone. */
		h[i] = (struct holder){ .dev = dev, .buf = page_address(pg),
					.len = (size_t)(i ? 24 : 40) * KiB,
					.both_mapped = &both_mapped, .checked = &checked };
	}
	for (int i = 0; i < 2; i++)
		REQUIRE(pthread_create(&t[i], NULL, hold_mapping, &h[i]) == 0);
	pthread_barrier_wait(&both_mapped);
	s = pool_of(p, NULL);
	CHECK_EQ(h[0].err, 0);
	CHECK_EQ(h[1].err, 0);
	CHECK_EQ(s.used_slots, 32);
	CHECK_MSG(s.high_water >= 32, "high_water %llu with 32 slots in use at once",
		  (unsigned long long)s.high_water);
	pthread_barrier_wait(&checked);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, 0);
	CHECK(s.high_water >= 32 && s.high_water <= s.total_slots);
	pthread_barrier_destroy(&both_mapped);
	pthread_barrier_destroy(&checked);
	dmamap_platform_destroy(p);
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
	struct dmamap_platform *p = quiet_board();
	struct device *dev = dmamap_device_lookup(p, D24);
	uint8_t *region[2];

	REQUIRE(p && dev);
	for (int i = 0; i < 2; i++) {
		struct page *pg = dmamap_alloc_pages(p, 2, 0);

		REQUIRE(pg && page_to_phys(pg) >= WIN24_END);
		region[i] = page_address(pg);
	}
	two_threads_run(p, dev, region);
	dmamap_platform_destroy(p);
}

/* ---- the host: every mapping bounces (force, or a restricted pool) ------------------ */

TEST(swiotlb_host_forced_random_ops)
{
	struct device *dev;
	struct dmamap_platform *p = host_forced(&dev);
	uint8_t *direct = host_pages(RSLOTS * RSLOT_BYTES), *bounced = host_pages(RSLOTS * RSLOT_BYTES);
	struct dmamap_swiotlb_stats s;
	struct dmamap_device_stats d;

	REQUIRE(p && direct && bounced);
	CHECK_EQ(bounce_random_run("host forced", dev, direct, bounced, true, false, 300, 50), 0);
	s = pool_of(p, NULL);
	d = stats_of(dev);
	CHECK_EQ(s.used_slots, 0);
	CHECK(s.bounced_maps > 1000);
	CHECK_EQ(s.bounced_maps, d.maps);
	CHECK_EQ(d.unmaps, d.maps);
	CHECK_EQ(d.bytes_bounced, d.bytes_mapped);
	CHECK_EQ(s.failures, 0);
	CHECK_EQ(d.errors, 0);
	free(direct);
	free(bounced);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_host_forced_exhaustion_fails_cleanly_and_recovers)
{
	struct device *dev;
	struct dmamap_platform *p = host_forced(&dev);
	unsigned int n = p ? chunks_in_pool(p) : 0, i;
	uint8_t **buf = calloc(n + 2, sizeof(*buf)), *small = malloc(100);

	REQUIRE(p && buf && small);
	for (i = 0; i < n + 2; i++) {
		buf[i] = host_pages(CHUNK);
		REQUIRE(buf[i]);
	}
	exhaustion_and_recovery(p, dev, buf, small);
	for (i = 0; i < n + 2; i++)
		free(buf[i]);
	free(buf);
	free(small);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_host_forced_oversize_refused_up_front)
{
	on_host_forced(512 * KiB, oversize_refused);
}

TEST(swiotlb_host_forced_min_align_mask_keeps_low_address_bits)
{
	on_host_forced(4 * PAGE_SIZE, min_align_run);
}

TEST(swiotlb_host_forced_high_water_is_most_slots_ever_used)
{
	struct device *dev;
	struct dmamap_platform *p = host_forced(&dev);
	uint8_t *buf[HW_NB + 1];

	REQUIRE(p);
	for (unsigned int i = 0; i <= HW_NB; i++) {
		buf[i] = host_pages(2 * CHUNK);
		REQUIRE(buf[i]);
	}
	high_water_run(p, dev, buf);
	for (unsigned int i = 0; i <= HW_NB; i++)
		free(buf[i]);
	dmamap_platform_destroy(p);
}

TEST(swiotlb_host_forced_two_threads_map_unmap_concurrently)
{
	struct device *dev;
	struct dmamap_platform *p = host_forced(&dev);
	uint8_t *region[2] = { host_pages(16 * KiB), host_pages(16 * KiB) };

	REQUIRE(p && region[0] && region[1]);
	two_threads_run(p, dev, region);
	free(region[0]);
	free(region[1]);
	dmamap_platform_destroy(p);
}

/* A restricted pool on the host: its device bounces into it, the others do not bounce. */
TEST(swiotlb_host_restricted_pool_takes_every_mapping_of_its_device)
{
	enum { PSIZE = 512 * KiB, LEN = 5000 };
	struct dmamap_platform *p = host_platform();
	struct device *dev = p ? host_device(p, "rp", NULL) : NULL;
	struct device *other = p ? host_device(p, "other", NULL) : NULL;
	uint8_t *pool = host_pages(PSIZE), *buf = malloc(LEN), a[LEN], b[LEN];
	struct dmamap_swiotlb_stats rs, def0;
	struct dmamap_device_stats d;
	dma_addr_t h;

	REQUIRE(p && dev && other && pool && buf);
	def0 = pool_of(p, NULL);
	REQUIRE(dmamap_swiotlb_restricted_pool(dev, (uintptr_t)pool, PSIZE) == 0);
	rs = pool_of(NULL, dev);
	pat(a, LEN, 71);
	pat(b, LEN, 72);
	for (unsigned int k = 0; k < 3; k++) {
		memcpy(buf, a, LEN);
		h = dma_map_single(dev, buf, LEN, dirs[k]);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK(in_pool(&rs, (phys_addr_t)h, LEN));
		CHECK(dmamap_swiotlb_is_bounce(dev, h));
		CHECK_EQ(dev_diff(dev, h, a, LEN), 0);
		if (dev_writes(dirs[k]))
			CHECK_EQ(dmamap_device_write(dev, h, b, LEN), 0);
		CHECK_EQ(ndiff(buf, a, LEN), 0);
		dma_unmap_single(dev, h, LEN, dirs[k]);
		CHECK_MSG(ndiff(buf, dev_writes(dirs[k]) ? b : a, LEN) == 0, "%s: CPU after unmap",
			  dir_name(dirs[k]));
	}
	rs = pool_of(NULL, dev);
	CHECK_EQ(rs.bounced_maps, 3);
	CHECK_EQ(rs.bytes_to_device, 3 * LEN);
	CHECK_EQ(rs.bytes_from_device, 2 * LEN);
	CHECK_EQ(rs.used_slots, 0);
	CHECK_EQ(rs.high_water, (LEN + 2047) / 2048);
	d = stats_of(dev);
	CHECK_EQ(d.maps, 3);
	CHECK_EQ(d.unmaps, 3);
	CHECK_EQ(d.bytes_bounced, 3 * LEN);
	CHECK_EQ(pool_of(p, NULL).bounced_maps, def0.bounced_maps);
	/* The other device maps the same buffer where it is. */
	h = dma_map_single(other, buf, LEN, DMA_TO_DEVICE);
	CHECK_EQ(h, (uintptr_t)buf);
	dma_unmap_single(other, h, LEN, DMA_TO_DEVICE);
	free(buf);
	dmamap_platform_destroy(p);
	free(pool);
}

/*
 * On the host's short path a thread keeps the run of the mapping it
 * unmapped last for its next map. Such a run holds no mapping: the stats
 * count it free, a second unmap of the handle finds nothing, and a pool
 * that is full takes it back, whichever thread parked it.
 */
struct parker {
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;
	int err;
};

static void *park_one(void *arg)
{
	struct parker *k = arg;

	k->h = dma_map_single(k->dev, k->buf, PAGE_SIZE, DMA_TO_DEVICE);
	k->err = dma_mapping_error(k->dev, k->h);
	if (!k->err)
		dma_unmap_single(k->dev, k->h, PAGE_SIZE, DMA_TO_DEVICE);
	return NULL;
}

TEST(swiotlb_host_parked_runs_are_free_and_taken_back_when_full)
{
	struct device *dev;
	struct dmamap_platform *p = host_forced(&dev);
	unsigned int n = p ? chunks_in_pool(p) : 0, i;
	uint8_t *chunk = host_pages(CHUNK), *page = host_pages(PAGE_SIZE), *ref = malloc(CHUNK);
	dma_addr_t *h = calloc(n + 1, sizeof(*h)), x;
	struct parker k;
	struct dmamap_swiotlb_stats s;
	pthread_t th;

	REQUIRE(p && chunk && page && ref && h);
	/* Another thread parks a page-sized run and leaves. */
	k = (struct parker){ .dev = dev, .buf = page };
	REQUIRE(pthread_create(&th, NULL, park_one, &k) == 0);
	pthread_join(th, NULL);
	REQUIRE(k.err == 0);
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, 0);
	CHECK_EQ(s.largest_free_run, 128);
	/* Unmapping its handle again finds no mapping: nothing changes. */
	dma_unmap_single(dev, k.h, PAGE_SIZE, DMA_TO_DEVICE);
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
	/* The whole pool still maps, the parked run included. */
	pat(chunk, CHUNK, 5);
	for (i = 0; i < n; i++) {
		h[i] = dma_map_single(dev, chunk, CHUNK, DMA_TO_DEVICE);
		CHECK_MSG(!dma_mapping_error(dev, h[i]), "mapping %u of %u", i, n);
		if (dma_mapping_error(dev, h[i]))
			break;
	}
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, s.total_slots);
	CHECK_EQ(s.failures, 0);
	x = dma_map_single_attrs(dev, chunk, 100, DMA_TO_DEVICE, DMA_ATTR_NO_WARN);
	CHECK(dma_mapping_error(dev, x));
	for (unsigned int j = 0; j < i; j++) {
		CHECK_EQ(dev_diff(dev, h[j], chunk, CHUNK), 0);
		dma_unmap_single(dev, h[j], CHUNK, DMA_TO_DEVICE);
	}
	s = pool_of(p, NULL);
	CHECK_EQ(s.used_slots, 0);
	CHECK_EQ(s.high_water, s.total_slots);
	/* After the pool was full, mapping the page again works and carries its bytes. */
	pat(page, PAGE_SIZE, 6);
	x = dma_map_single(dev, page, PAGE_SIZE, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, x));
	CHECK_EQ(dev_diff(dev, x, page, PAGE_SIZE), 0);
	dma_unmap_single(dev, x, PAGE_SIZE, DMA_TO_DEVICE);
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
	free(h);
	free(ref);
	free(chunk);
	free(page);
	dmamap_platform_destroy(p);
}

/*
 * A thread's parked run is not in use: a mapping on the general path that
 * finds room elsewhere does not count it toward the mark. The parked run
 * is the first in its area; min_align_mask 0x1fff puts the next mapping,
 * of a buffer 0x1000 past it modulo 8 KiB, two slots further on.
 */
TEST(swiotlb_host_parked_run_not_counted_in_high_water)
{
	struct device *dev;
	struct dmamap_platform *p = host_forced(&dev);
	uint8_t *a = host_pages(PAGE_SIZE), *area = host_pages(4 * PAGE_SIZE), *b;
	dma_addr_t ha, hb;
	uint64_t want;

	REQUIRE(p && a && area);
	ha = dma_map_single(dev, a, PAGE_SIZE, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, ha));
	/* 0x1000 modulo 8 KiB from the parked run's start. */
	want = (ha + 0x1000) & 0x1fff;
	b = area + ((want - ((uintptr_t)area & 0x1fff)) & 0x1fff);
	dma_unmap_single(dev, ha, PAGE_SIZE, DMA_TO_DEVICE);
	REQUIRE(dma_set_min_align_mask(dev, 0x1fff) == 0);
	hb = dma_map_single(dev, b, PAGE_SIZE, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, hb));
	CHECK_EQ(hb & 0x1fff, want);
	CHECK_EQ(hb - ha, 2 * 2048);
	CHECK_EQ(pool_of(p, NULL).used_slots, 2);
	CHECK_EQ(pool_of(p, NULL).high_water, 2);
	dma_unmap_single(dev, hb, PAGE_SIZE, DMA_TO_DEVICE);
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
	free(a);
	free(area);
	dmamap_platform_destroy(p);
}

/*
 * A forced host device whose mask no longer reaches the pool: every
 * mapping fails (the pool is beyond its reach too), none hands out an
 * address past the mask, not even the run the thread parked before.
 */
/* Map and unmap @buf (a page) once: the thread then has that run parked. */
static bool park_page(struct device *dev, uint8_t *buf)
{
	dma_addr_t h = dma_map_single(dev, buf, PAGE_SIZE, DMA_TO_DEVICE);

	if (dma_mapping_error(dev, h))
		return false;
	dma_unmap_single(dev, h, PAGE_SIZE, DMA_TO_DEVICE);
	return true;
}

static void beyond_the_mask(struct dmamap_platform *p, struct device *dev, uint8_t *buf)
{
	struct dmamap_swiotlb_stats s;
	unsigned int bits = 0;
	dma_addr_t h;

	/* With the full mask first. */
	REQUIRE(park_page(dev, buf));
	s = pool_of(p, NULL);
	while (bits < 63 && (2ULL << bits) <= s.start)
		bits++;
	if (bits < 24 || dma_set_mask(dev, DMA_BIT_MASK(bits))) {
		printf("#   pool at 0x%llx: no smaller mask to try\n", (unsigned long long)s.start);
		return;
	}
	REQUIRE(DMA_BIT_MASK(bits) < s.start);
	for (int i = 0; i < 3; i++) {
		h = dma_map_single(dev, buf, PAGE_SIZE, DMA_TO_DEVICE);
		CHECK_MSG(dma_mapping_error(dev, h), "mapping %d: 0x%llx with mask 0x%llx", i,
			  (unsigned long long)h, (unsigned long long)DMA_BIT_MASK(bits));
		if (!dma_mapping_error(dev, h))
			dma_unmap_single(dev, h, PAGE_SIZE, DMA_TO_DEVICE);
	}
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
}

TEST(swiotlb_host_forced_pool_beyond_the_mask_fails_every_mapping)
{
	on_host_forced(PAGE_SIZE, beyond_the_mask);
}

/* With the checker on, a forced host device's mappings are tracked like any other. */
static void checker_sees(struct dmamap_platform *p, struct device *dev, uint8_t *buf)
{
	dma_addr_t h;

	/* A run parked before the checker came on changes nothing. */
	REQUIRE(park_page(dev, buf));
	dmamap_debug_enable(p, true);
	h = dma_map_single(dev, buf, PAGE_SIZE, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK(dmamap_swiotlb_is_bounce(dev, h));
	CHECK_EQ(live_maps(dev), 1);
	dma_unmap_single(dev, h, PAGE_SIZE / 2, DMA_TO_DEVICE);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_WRONG_SIZE), 1);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_NOT_MAPPED), 0);
	CHECK_EQ(live_maps(dev), 0);
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
}

TEST(swiotlb_host_forced_checker_sees_every_mapping)
{
	on_host_forced(PAGE_SIZE, checker_sees);
}

/*
 * A search that takes back a parked run in its way must still check the
 * run it returns. Restricted pool (one area): M maps slot 0; T maps 3000
 * bytes (slots 1-2), unmaps them (parked in T's shard) and exits; M maps L
 * (slot 3, stays live), unmaps slot 0 (parked in M's shard) and maps 5000
 * bytes, which must not land on L.
 */
struct park3000 {
	struct device *dev;
	uint8_t *buf;
};

static void *park_3000(void *arg)
{
	struct park3000 *k = arg;
	dma_addr_t h = dma_map_single(k->dev, k->buf, 3000, DMA_TO_DEVICE);

	if (!dma_mapping_error(k->dev, h))
		dma_unmap_single(k->dev, h, 3000, DMA_TO_DEVICE);
	return NULL;
}

TEST(swiotlb_host_unparking_search_never_overlaps_a_live_mapping)
{
	enum { PSIZE = 256 * KiB };
	struct dmamap_platform *p = host_platform();
	struct device *dev = p ? host_device(p, "rp", NULL) : NULL;
	uint8_t *pool = host_pages(PSIZE), *buf = host_pages(8 * KiB), *lbuf = host_pages(PAGE_SIZE);
	struct park3000 k;
	dma_addr_t a, l, n;
	pthread_t th;

	REQUIRE(p && dev && pool && buf && lbuf);
	REQUIRE(dmamap_swiotlb_restricted_pool(dev, (uintptr_t)pool, PSIZE) == 0);
	pat(buf, 8 * KiB, 81);
	pat(lbuf, PAGE_SIZE, 82);
	a = dma_map_single(dev, buf, 2048, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, a));
	k = (struct park3000){ .dev = dev, .buf = buf };
	REQUIRE(pthread_create(&th, NULL, park_3000, &k) == 0);
	pthread_join(th, NULL);
	l = dma_map_single(dev, lbuf, 2048, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, l));
	dma_unmap_single(dev, a, 2048, DMA_TO_DEVICE);
	n = dma_map_single(dev, buf, 5000, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, n));
	CHECK_MSG(n + 5000 <= l || l + 2048 <= n, "5000 bytes at 0x%llx overlap live 2048 at 0x%llx",
		  (unsigned long long)n, (unsigned long long)l);
	CHECK_EQ(dev_diff(dev, l, lbuf, 2048), 0);
	CHECK_EQ(dev_diff(dev, n, buf, 5000), 0);
	CHECK_EQ(pool_of(NULL, dev).used_slots, 1 + 3);
	dma_unmap_single(dev, n, 5000, DMA_TO_DEVICE);
	dma_unmap_single(dev, l, 2048, DMA_TO_DEVICE);
	CHECK_EQ(pool_of(NULL, dev).used_slots, 0);
	CHECK_EQ(pool_of(NULL, dev).largest_free_run, 128);
	free(buf);
	free(lbuf);
	dmamap_platform_destroy(p);
	free(pool);
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
