/* SPDX-License-Identifier: MIT */
/*
 * Putting a device behind dmabounce and taking it away: HIGHMEM pages are
 * refused, masks go through its table (and must still reach the pools), a
 * device of our own with its needs_bounce callback, bad arguments, live
 * safe buffers reported at unregister, and a device with no large pool and
 * no callback bouncing everything.
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
	h = fill_map(dev, lo, a, LEN, DMA_BIDIRECTIONAL);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(nb.calls, 1);
	CHECK_EQ(nb.addr, virt_to_phys(lo) - RAM0);
	CHECK_EQ(nb.size, LEN);
	CHECK_EQ(h, virt_to_phys(lo) - RAM0);
	CHECK(bidir_round_trip(dev, h, lo, a, b, LEN));
	CHECK_EQ(db_stats(dev).bounced, 0);
	/* The callback says yes: a safe buffer from the large pool (256 < 1200 <= 2048). */
	h = fill_map(dev, hi, a, LEN, DMA_BIDIRECTIONAL);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(nb.calls, 2);
	CHECK_EQ(nb.addr, virt_to_phys(hi) - RAM0);
	CHECK(h != virt_to_phys(hi) - RAM0);
	CHECK_EQ(db_stats(dev).bounced, 1);
	CHECK_EQ(db_stats(dev).large_allocs, 1);
	CHECK(bidir_round_trip(dev, h, hi, a, b, LEN));

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
	h = fill_map(dev, hi, a, LEN, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
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
	h = fill_map(dev, lo, a, LEN, DMA_BIDIRECTIONAL);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK(h != virt_to_phys(lo) - RAM0);
	s = db_stats(dev);
	CHECK_EQ(s.bounced, 1);
	CHECK_EQ(s.coherent_allocs, 1);
	CHECK_EQ(s.large_allocs, 0);
	CHECK(bidir_round_trip(dev, h, lo, a, b, LEN));
	h = dma_map_single(dev, lo, 100, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(db_stats(dev).small_allocs, 1);
	dma_unmap_single(dev, h, 100, DMA_TO_DEVICE);
	CHECK_EQ(db_stats(dev).live, 0);
	dmamap_platform_destroy(p);
}
