/* SPDX-License-Identifier: MIT */
/*
 * The two-step IOVA API: one range, pieces linked into it from scattered
 * pages, one invalidation when it is torn down. The device reads the
 * pieces at their place in the range and nothing after the teardown;
 * without an IOMMU the API says no, as Linux's does.
 */
#include "../helpers.h"

#define PIECES 3

TEST(iova_api_without_iommu_says_no)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, NC);
	struct dma_iova_state st = { 0x1234, 99 };
	uint8_t *buf = dbuf(p, 64);

	REQUIRE(dev && buf);
	CHECK(!dma_iova_try_alloc(dev, &st, virt_to_phys(buf), 64));
	CHECK(!dma_use_iova(&st));
	CHECK_EQ(st.addr, 0);
	CHECK_EQ(dma_iova_size(&st), 0);
	dmamap_platform_destroy(p);
}

TEST(iova_api_links_scattered_pieces_into_one_range)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev = lookup(p, IOMMU_DEV);
	struct page *pg[PIECES], *spare[PIECES];
	static uint8_t want[PIECES * PAGE_SIZE], got[PIECES * PAGE_SIZE];
	struct dma_iova_state st;
	uint64_t inval;

	REQUIRE(dev);
	/* Pages with a hole after each: no two pieces are neighbours in RAM. */
	for (int i = 0; i < PIECES; i++) {
		REQUIRE((pg[i] = dmamap_alloc_pages(p, 0, 0)));
		REQUIRE((spare[i] = dmamap_alloc_pages(p, 0, 0)));
		fill_pattern(want + i * PAGE_SIZE, PAGE_SIZE, 40 + i);
		memcpy(page_address(pg[i]), want + i * PAGE_SIZE, PAGE_SIZE);
	}
	REQUIRE(dma_iova_try_alloc(dev, &st, page_to_phys(pg[0]), sizeof(want)));
	CHECK(dma_use_iova(&st));
	CHECK_EQ(dma_iova_size(&st), sizeof(want));
	CHECK_EQ(st.addr % PAGE_SIZE, 0);
	for (int i = 0; i < PIECES; i++)
		CHECK_EQ(dma_iova_link(dev, &st, page_to_phys(pg[i]), i * PAGE_SIZE, PAGE_SIZE,
				       DMA_TO_DEVICE, 0), 0);
	CHECK_EQ(dma_iova_sync(dev, &st, 0, sizeof(want)), 0);
	/* One range for the device, the pieces in order; the links cleaned the CPU's bytes. */
	CHECK_EQ(dmamap_device_read(dev, st.addr, got, sizeof(got)), 0);
	CHECK_MEM(got, want, sizeof(want));
	EXPECT_NO_REPORTS();
	/* Torn down in one go: one invalidation, whatever the number of links. */
	inval = istats(dev).iotlb_invalidations;
	dma_iova_destroy(dev, &st, sizeof(want), DMA_TO_DEVICE, 0);
	CHECK_EQ(istats(dev).iotlb_invalidations, inval + 1);
	CHECK(!dma_use_iova(&st));
	CHECK_EQ(istats(dev).pages_mapped, 0);
	EXPECT_NO_REPORTS();
	for (int i = 0; i < PIECES; i++) {
		dmamap_free_pages(p, pg[i], 0);
		dmamap_free_pages(p, spare[i], 0);
	}
	dmamap_platform_destroy(p);
}

TEST(iova_api_keeps_the_offset_in_the_page)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, IOMMU_DEV);
	uint8_t *buf = dbuf(p, 2 * PAGE_SIZE), want[600], got[600];
	struct dma_iova_state st;
	phys_addr_t phys;

	REQUIRE(dev && buf);
	phys = virt_to_phys(buf + 300);
	fill_pattern(want, sizeof(want), 50);
	memcpy(buf + 300, want, sizeof(want));
	REQUIRE(dma_iova_try_alloc(dev, &st, phys, sizeof(want)));
	CHECK_EQ(st.addr % PAGE_SIZE, 300);
	CHECK_EQ(dma_iova_link(dev, &st, phys, 0, sizeof(want), DMA_BIDIRECTIONAL, 0), 0);
	CHECK_EQ(dmamap_device_read(dev, st.addr, got, sizeof(got)), 0);
	CHECK_MEM(got, want, sizeof(want));
	/* Unlinked, the range stays: the device now faults there. */
	dma_iova_unlink(dev, &st, 0, sizeof(want), DMA_BIDIRECTIONAL, 0);
	CHECK(dma_use_iova(&st));
	CHECK_EQ(dmamap_device_read(dev, st.addr, got, 16), -EFAULT);
	dma_iova_free(dev, &st);
	CHECK(!dma_use_iova(&st));
	dmamap_platform_destroy(p);
}

TEST(iova_api_refuses_pieces_that_do_not_fit)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, IOMMU_DEV);
	uint8_t *buf = dbuf(p, 2 * PAGE_SIZE);
	struct dma_iova_state st;
	phys_addr_t phys;

	REQUIRE(dev && buf);
	phys = virt_to_phys(buf);
	REQUIRE(dma_iova_try_alloc(dev, &st, phys, PAGE_SIZE));
	reps.n = 0;
	/* Past the end of the range. */
	CHECK_EQ(dma_iova_link(dev, &st, phys, 0, PAGE_SIZE + 1, DMA_TO_DEVICE, 0), -EINVAL);
	CHECK_EQ(dma_iova_link(dev, &st, phys, PAGE_SIZE, 1, DMA_TO_DEVICE, 0), -EINVAL);
	/* The page offsets disagree. */
	CHECK_EQ(dma_iova_link(dev, &st, phys + 8, 0, 64, DMA_TO_DEVICE, 0), -EINVAL);
	/* Not RAM, and not said to be MMIO. */
	CHECK_EQ(dma_iova_link(dev, &st, MMIO_PHYS, 0, 64, DMA_TO_DEVICE, 0), -EINVAL);
	CHECK_EQ(dma_iova_sync(dev, &st, 0, 2 * PAGE_SIZE), -EINVAL);
	CHECK_EQ(reps.n, 5);
	CHECK_EQ(istats(dev).pages_mapped, 0);
	/* MMIO, said so: linked, no cache maintenance. */
	CHECK_EQ(dma_iova_link(dev, &st, MMIO_PHYS, 0, 64, DMA_TO_DEVICE, DMA_ATTR_MMIO), 0);
	dma_iova_destroy(dev, &st, 64, DMA_TO_DEVICE, DMA_ATTR_MMIO);
	CHECK_EQ(istats(dev).pages_mapped, 0);
	/* No range left: a fault injected at the allocation says no. */
	dmamap_fault_inject(p, DMAMAP_FAULT_MAP, 1);
	CHECK(!dma_iova_try_alloc(dev, &st, phys, PAGE_SIZE));
	CHECK_EQ(dmamap_fault_injected(p), 1);
	dmamap_platform_destroy(p);
}

TEST(iova_api_checker_tracks_links)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev = lookup(p, IOMMU_DEV);
	uint8_t *buf = dbuf(p, 2 * PAGE_SIZE);
	struct dma_iova_state st;
	phys_addr_t phys;

	REQUIRE(dev && buf);
	phys = virt_to_phys(buf);
	REQUIRE(dma_iova_try_alloc(dev, &st, phys, 2 * PAGE_SIZE));
	CHECK_EQ(dma_iova_link(dev, &st, phys, 0, PAGE_SIZE, DMA_TO_DEVICE, 0), 0);
	CHECK_EQ(dma_iova_link(dev, &st, phys + PAGE_SIZE, PAGE_SIZE, PAGE_SIZE, DMA_TO_DEVICE,
			       0), 0);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 2);
	/* One unlink takes both links. */
	dma_iova_unlink(dev, &st, 0, 2 * PAGE_SIZE, DMA_TO_DEVICE, 0);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	EXPECT_NO_REPORTS();
	/* Unlinking what is not linked is said. */
	dma_iova_unlink(dev, &st, 0, PAGE_SIZE, DMA_TO_DEVICE, 0);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	/* A range freed with a link in place: the link stays mapped, and is said. */
	rec_reset();
	CHECK_EQ(dma_iova_link(dev, &st, phys, 0, PAGE_SIZE, DMA_TO_DEVICE, 0), 0);
	dma_iova_free(dev, &st);
	EXPECT_KINDS(DMAMAP_DBG_LEAK);
	CHECK_MSG(text_has(0, "links still in place"), "%s", rec.r[0].text);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	/*
	 * A link left at device teardown is a leak. (The range comes back at
	 * the same IOVA, whose first page the leaked link still holds.)
	 */
	REQUIRE(dma_iova_try_alloc(dev, &st, phys, 2 * PAGE_SIZE));
	rec_reset();
	CHECK_EQ(dma_iova_link(dev, &st, phys + PAGE_SIZE, PAGE_SIZE, PAGE_SIZE, DMA_TO_DEVICE, 0),
		 0);
	dmamap_device_destroy(dev);
	EXPECT_KINDS(DMAMAP_DBG_LEAK);
	CHECK_MSG(text_has(0, "iova link"), "%s", rec.r[0].text);
	dmamap_platform_destroy(p);
}

TEST(iova_api_refuses_sizes_that_wrap_and_pages_linked_twice)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, IOMMU_DEV);
	uint8_t *buf = dbuf(p, 2 * PAGE_SIZE), a[64], b[64], got[64];
	struct dma_iova_state st;
	phys_addr_t phys;

	REQUIRE(dev && buf);
	phys = virt_to_phys(buf);
	/* A size that wraps with the page offset, or that carries Linux's swiotlb flag. */
	CHECK(!dma_iova_try_alloc(dev, &st, phys + 100, SIZE_MAX - 50));
	CHECK(!dma_use_iova(&st));
	if (sizeof(size_t) > 4) { /* a 32-bit size cannot carry bit 63 */
		CHECK(!dma_iova_try_alloc(dev, &st, phys, (size_t)DMA_IOVA_USE_SWIOTLB | 4096));
		CHECK(!dma_use_iova(&st));
	}
	/* Two pieces into one page: the second would take the first's page over. */
	memset(a, 0xaa, sizeof(a));
	memset(b, 0xbb, sizeof(b));
	memcpy(buf, a, 64);
	memcpy(buf + PAGE_SIZE + 64, b, 64);
	REQUIRE(dma_iova_try_alloc(dev, &st, phys, PAGE_SIZE));
	CHECK_EQ(dma_iova_link(dev, &st, phys, 0, 64, DMA_TO_DEVICE, 0), 0);
	CHECK_EQ(dma_iova_link(dev, &st, phys + PAGE_SIZE + 64, 64, 64, DMA_TO_DEVICE, 0), -EEXIST);
	CHECK_EQ(dmamap_device_read(dev, st.addr, got, 64), 0);
	CHECK_MEM(got, a, 64); /* still the first piece */
	dma_iova_destroy(dev, &st, 64, DMA_TO_DEVICE, 0);
	/* A range that starts mid-page takes links at offset 0 only, as Linux. */
	REQUIRE(dma_iova_try_alloc(dev, &st, phys + 256, 2 * PAGE_SIZE - 256));
	CHECK_EQ(dma_iova_link(dev, &st, phys + PAGE_SIZE, PAGE_SIZE - 256, 256, DMA_TO_DEVICE, 0),
		 -EIO);
	dma_iova_free(dev, &st);
	CHECK_EQ(istats(dev).pages_mapped, 0);
	dmamap_platform_destroy(p);
}

TEST(iova_api_and_sg_refuse_require_coherent_on_a_non_coherent_device)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, IOMMU_DEV), *nc = lookup(p, NC);
	uint8_t *buf = dbuf(p, PAGE_SIZE);
	struct dma_iova_state st;
	struct scatterlist sg[1];
	struct sg_table sgt = { .sgl = sg, .orig_nents = 1 };

	REQUIRE(dev && nc && buf);
	REQUIRE(!dev_is_dma_coherent(dev));
	REQUIRE(dma_iova_try_alloc(dev, &st, virt_to_phys(buf), PAGE_SIZE));
	CHECK_EQ(dma_iova_link(dev, &st, virt_to_phys(buf), 0, PAGE_SIZE, DMA_TO_DEVICE,
			       DMA_ATTR_REQUIRE_COHERENT), -EOPNOTSUPP);
	dma_iova_free(dev, &st);
	/* The IOMMU's own map_sg too, and the generic one, before any entry. */
	sg_init_one(sg, buf, 256);
	CHECK_EQ(dma_map_sgtable(dev, &sgt, DMA_TO_DEVICE, DMA_ATTR_REQUIRE_COHERENT), -EOPNOTSUPP);
	CHECK_EQ(dma_map_sg_attrs(nc, sg, 1, DMA_TO_DEVICE, DMA_ATTR_REQUIRE_COHERENT), 0);
	/* MMIO too: the attribute is about the device, whatever the memory. */
	CHECK(dma_mapping_error(nc, dma_map_phys(nc, MMIO_PHYS, 64, DMA_TO_DEVICE,
						 DMA_ATTR_MMIO | DMA_ATTR_REQUIRE_COHERENT)));
	CHECK_EQ(istats(dev).pages_mapped, 0);
	CHECK_EQ(live_maps(nc), 0);
	dmamap_platform_destroy(p);
}
