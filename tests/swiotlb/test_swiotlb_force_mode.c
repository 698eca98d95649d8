/* SPDX-License-Identifier: MIT */
/*
 * The kernel's swiotlb=force and noforce switch: force bounces every
 * direct mapping (on the board and on the host), noforce none (what a
 * device cannot reach then fails), and back; a mapping that bounced stays
 * one after force is off; a forced device whose mask no longer reaches the
 * pool fails every mapping; the checker sees a forced device's mappings.
 *
 * Every check compares bytes the device read (dmamap_device_read) or the CPU
 * reads through its pointer against patterns the test wrote, never a
 * counter alone.
 */
#include "../helpers.h"

/* Map @n bytes of @buf on @dev, check both directions of traffic, unmap. */
static void round_trip(struct device *dev, uint8_t *buf, size_t n, bool want_bounce,
		       unsigned int seed)
{
	uint8_t *a = patbuf(n, seed), *b = patbuf(n, seed + 1);
	dma_addr_t h;

	REQUIRE(a && b);
	h = fill_map(dev, buf, a, n, DMA_BIDIRECTIONAL);
	CHECK(h != DMA_MAPPING_ERROR);
	if (h != DMA_MAPPING_ERROR) {
		CHECK_MSG(dmamap_swiotlb_is_bounce(dev, h) == want_bounce, "%s: bounce %d",
			  dev_name(dev), !want_bounce);
		CHECK(bidir_round_trip(dev, h, buf, a, b, n));
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

static void beyond_the_mask(struct dmamap_platform *p, struct device *dev, uint8_t **bufs)
{
	uint8_t *buf = bufs[0];
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
	on_host_forced(1, PAGE_SIZE, beyond_the_mask);
}

/* With the checker on, a forced host device's mappings are tracked like any other. */
static void checker_sees(struct dmamap_platform *p, struct device *dev, uint8_t **bufs)
{
	uint8_t *buf = bufs[0];
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
	on_host_forced(1, PAGE_SIZE, checker_sees);
}
