/* SPDX-License-Identifier: MIT */
/*
 * swiotlb's pool at its limits, on dma-24 and on a forced host device: a
 * full pool fails the mapping cleanly (counted, reported with the pool's
 * state, nothing lost) and works again once room is freed; a mapping over
 * 256 KiB is refused up front; dma_max_mapping_size() is a promise even
 * with min_align_mask; the host's parked runs never keep a full pool from
 * mapping.
 *
 * Every check compares bytes the device read (dmamap_device_read) or the CPU
 * reads through its pointer against patterns the test wrote, never a
 * counter alone.
 */
#include <pthread.h>
#include "../helpers.h"

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

/* @buf: 512 KiB, page aligned, that @dev must bounce. */
static void oversize_refused(struct dmamap_platform *p, struct device *dev, uint8_t **bufs)
{
	uint8_t *buf = bufs[0];
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
	on_dma24(1, 7, oversize_refused);
}

TEST(swiotlb_host_forced_oversize_refused_up_front)
{
	on_host_forced(1, 512 * KiB, oversize_refused);
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
