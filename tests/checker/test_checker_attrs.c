/* SPDX-License-Identifier: MIT */
/*
 * Attributes the checker and the mapping code honour: cache-line sharing
 * that DMA_ATTR_DEBUGGING_IGNORE_CACHELINES or DMA_ATTR_SKIP_CPU_SYNC make
 * acceptable, dma-debug's limit of overlapping mappings of one line, a
 * free whose attributes contradict the allocation, and
 * DMA_ATTR_REQUIRE_COHERENT refusing what would need cache maintenance or
 * a bounce copy.
 */
#include "../helpers.h"

/* Two FROM_DEVICE mappings of the halves of one line, with @attrs_a and @attrs_b. */
static void share_a_line(struct scene *s, unsigned long attrs_a, unsigned long attrs_b)
{
	dma_addr_t a, b;

	a = dma_map_single_attrs(s->dev, s->buf, 32, DMA_FROM_DEVICE, attrs_a);
	REQUIRE(!dma_mapping_error(s->dev, a));
	b = dma_map_single_attrs(s->dev, s->buf + 32, 32, DMA_FROM_DEVICE, attrs_b);
	REQUIRE(!dma_mapping_error(s->dev, b));
	dma_unmap_single_attrs(s->dev, b, 32, DMA_FROM_DEVICE, attrs_b);
	dma_unmap_single_attrs(s->dev, a, 32, DMA_FROM_DEVICE, attrs_a);
}

TEST(attrs_cache_clean_mappings_may_share_a_line)
{
	const unsigned long clean = DMA_ATTR_DEBUGGING_IGNORE_CACHELINES;
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 64));
	/* Both promise the CPU leaves the line alone: nothing to say. */
	share_a_line(&s, clean, clean);
	EXPECT_NO_REPORTS();
	/* One of them promises nothing: the sharing is reported, as dma-debug. */
	{
		dma_addr_t a, b;

		a = dma_map_single_attrs(s.dev, s.buf, 32, DMA_FROM_DEVICE, 0);
		REQUIRE(!dma_mapping_error(s.dev, a));
		b = dma_map_single_attrs(s.dev, s.buf + 32, 32, DMA_FROM_DEVICE, clean);
		REQUIRE(!dma_mapping_error(s.dev, b));
		EXPECT_KINDS_ANY_ORDER(DMAMAP_DBG_CACHELINE_OVERLAP, DMAMAP_DBG_MAP_UNALIGNED);
		dma_unmap_single(s.dev, b, 32, DMA_FROM_DEVICE);
		dma_unmap_single(s.dev, a, 32, DMA_FROM_DEVICE);
	}
	/* The second skips CPU syncs: dma-debug does not report it. */
	rec_reset();
	share_a_line(&s, clean, DMA_ATTR_SKIP_CPU_SYNC);
	EXPECT_KINDS(DMAMAP_DBG_MAP_UNALIGNED);
	stop_checking(s.p);
	scene_end(&s);
}

TEST(attrs_more_overlaps_of_a_line_than_dma_debug_counts)
{
	dma_addr_t h[10];
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 64));
	/* The same line nine times: eight users are the most dma-debug keeps. */
	for (int i = 0; i < 9; i++) {
		h[i] = dma_map_single_attrs(s.dev, s.buf, 64, DMA_FROM_DEVICE,
					    DMA_ATTR_SKIP_CPU_SYNC);
		REQUIRE(!dma_mapping_error(s.dev, h[i]));
		if (i < 8)
			EXPECT_NO_REPORTS();
	}
	EXPECT_KINDS(DMAMAP_DBG_CACHELINE_OVERLAP_LIMIT);
	CHECK_MSG(text_has(0, "exceeded 7 overlapping mappings"), "%s", rec.r[0].text);
	/* A tenth says nothing more: the line was said once. */
	rec_reset();
	h[9] = dma_map_single_attrs(s.dev, s.buf, 64, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	REQUIRE(!dma_mapping_error(s.dev, h[9]));
	EXPECT_NO_REPORTS();
	for (int i = 0; i < 10; i++)
		dma_unmap_single_attrs(s.dev, h[i], 64, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	EXPECT_NO_REPORTS();
	scene_end_clean(&s);
}

TEST(attrs_free_with_other_allocation_attributes)
{
	struct scene s;
	dma_addr_t h;
	void *cpu;

	REQUIRE(checked_scene(&s, NC, 0));
	cpu = dma_alloc_attrs(s.dev, PAGE_SIZE, &h, GFP_KERNEL, DMA_ATTR_WRITE_COMBINE);
	REQUIRE(cpu);
	dma_free_attrs(s.dev, PAGE_SIZE, cpu, h, DMA_ATTR_WRITE_COMBINE);
	EXPECT_NO_REPORTS();
	cpu = dma_alloc_attrs(s.dev, PAGE_SIZE, &h, GFP_KERNEL, DMA_ATTR_WRITE_COMBINE);
	REQUIRE(cpu);
	dma_free_coherent(s.dev, PAGE_SIZE, cpu, h); /* the write-combining alias, freed as cached */
	/* The checker says why; the backend, looking for a cached alias, refuses the free. */
	EXPECT_KINDS(DMAMAP_DBG_WRONG_ATTRS, DMAMAP_DBG_FREE_INVALID);
	CHECK_EQ(rec.r[0].addr, h);
	dma_free_attrs(s.dev, PAGE_SIZE, cpu, h, DMA_ATTR_WRITE_COMBINE);
	/* Attributes that only steer the call (no warning) may differ. */
	rec_reset();
	cpu = dma_alloc_attrs(s.dev, PAGE_SIZE, &h, GFP_KERNEL, DMA_ATTR_NO_WARN);
	REQUIRE(cpu);
	dma_free_attrs(s.dev, PAGE_SIZE, cpu, h, 0);
	EXPECT_NO_REPORTS();
	scene_end(&s);
}

TEST(attrs_require_coherent_refuses_maintenance_and_bouncing)
{
	struct dmamap_platform *p = quiet_board();
	struct device *nc = lookup(p, NC), *coh = lookup(p, "dma-coh"), *d24 = lookup(p, D24);
	uint8_t *buf = dbuf(p, 256), *hi = hi24_buf(p, 256);
	dma_addr_t h;

	REQUIRE(nc && coh && d24 && buf && hi);
	/* A coherent device that reaches the buffer: mapped, nothing else changes. */
	h = dma_map_single_attrs(coh, buf, 256, DMA_TO_DEVICE, DMA_ATTR_REQUIRE_COHERENT);
	REQUIRE(!dma_mapping_error(coh, h));
	CHECK_EQ(h, dmamap_phys_to_dma(coh, virt_to_phys(buf)));
	dma_unmap_single_attrs(coh, h, 256, DMA_TO_DEVICE, DMA_ATTR_REQUIRE_COHERENT);
	/* A device that needs cache maintenance: refused. */
	CHECK_ERRK(nc, DMAMAP_ERRK_UNREACHABLE,
		   dma_map_single_attrs(nc, buf, 256, DMA_TO_DEVICE, DMA_ATTR_REQUIRE_COHERENT) ==
			   DMA_MAPPING_ERROR);
	/* A buffer that would bounce: refused rather than copied. */
	CHECK_ERRK(d24, DMAMAP_ERRK_UNREACHABLE,
		   dma_map_single_attrs(d24, hi, 256, DMA_TO_DEVICE, DMA_ATTR_REQUIRE_COHERENT) ==
			   DMA_MAPPING_ERROR);
	CHECK_EQ(pool_of(p, NULL).used_slots, 0);
	/* Without it, the same buffer bounces as always. */
	h = dma_map_single(d24, hi, 256, DMA_TO_DEVICE);
	CHECK(!dma_mapping_error(d24, h) && dmamap_swiotlb_is_bounce(d24, h));
	dma_unmap_single(d24, h, 256, DMA_TO_DEVICE);
	dmamap_platform_destroy(p);
}

TEST(attrs_require_coherent_on_the_host_refuses_forced_bouncing)
{
	struct device *dev;
	struct dmamap_platform *p = host_forced(&dev);
	uint8_t *buf;

	REQUIRE(p);
	buf = dmamap_kmalloc(p, 256, 0);
	REQUIRE(buf);
	CHECK_ERRK(dev, DMAMAP_ERRK_UNREACHABLE,
		   dma_map_single_attrs(dev, buf, 256, DMA_FROM_DEVICE, DMA_ATTR_REQUIRE_COHERENT) ==
			   DMA_MAPPING_ERROR);
	CHECK_EQ(live_maps(dev), 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

/* A coherent device behind dmabounce: maps below the line, refuses what would bounce. */
TEST(attrs_require_coherent_on_dmabounce_refuses_bouncing)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_device_desc d = {
		.name = "ixp-coherent", .coherent = true, .dma_mask = DMA_BIT_MASK(32),
		.nr_ranges = 1,
		.ranges = { { .cpu_start = RAM0, .dma_start = 0, .size = 128 * MiB } },
		.dmabounce_above = IXP_ABOVE, .dmabounce_small = 512, .dmabounce_large = 4096,
	};
	struct device *dev;
	uint8_t *lo, *hi;
	dma_addr_t h;

	REQUIRE(p);
	dev = new_device(p, &d);
	lo = ixp_lo_buf(p, 256);
	hi = ixp_hi_buf(p, 256);
	REQUIRE(dev && lo && hi);
	h = dma_map_single_attrs(dev, lo, 256, DMA_TO_DEVICE, DMA_ATTR_REQUIRE_COHERENT);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK_EQ(h, dmamap_phys_to_dma(dev, virt_to_phys(lo)));
	dma_unmap_single_attrs(dev, h, 256, DMA_TO_DEVICE, DMA_ATTR_REQUIRE_COHERENT);
	CHECK_ERRK(dev, DMAMAP_ERRK_UNREACHABLE,
		   dma_map_single_attrs(dev, hi, 256, DMA_TO_DEVICE, DMA_ATTR_REQUIRE_COHERENT) ==
			   DMA_MAPPING_ERROR);
	/* Without it, the same buffer bounces. */
	h = dma_map_single(dev, hi, 256, DMA_TO_DEVICE);
	CHECK(!dma_mapping_error(dev, h) && h != dmamap_phys_to_dma(dev, virt_to_phys(hi)));
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	dmamap_platform_destroy(p);
}
