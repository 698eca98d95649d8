/* SPDX-License-Identifier: MIT */
/*
 * Strict and lazy IOTLB invalidation differ exactly by the stale window:
 * strict faults at once after unmap; lazy keeps a cached translation until
 * the flush, faults where nothing was cached, never reuses a queued IOVA,
 * and flushes in batches.
 *
 * Every check compares bytes: what the device read at the returned IOVA,
 * what the CPU sees after unmap, or the memory view probed with
 * dmamap_sim_mem_read(). A fault must move nothing.
 */
#include "../helpers.h"

/*
 * Map a page, let the device read it (the IOTLB now caches it), unmap.
 * Returns the stale IOVA; *phys receives the page's physical address.
 */
static dma_addr_t map_touch_unmap(struct dmamap_platform *p, struct device *dev,
				  struct page *pg, const uint8_t *want, size_t len,
				  bool touch)
{
	dma_addr_t h;

	(void)p;
	memcpy(page_address(pg), want, len);
	h = dma_map_page(dev, pg, 0, len, DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dev, h))
		return DMA_MAPPING_ERROR;
	if (touch && !dev_reads(dev, h, want, len))
		return DMA_MAPPING_ERROR;
	dma_unmap_page(dev, h, len, DMA_BIDIRECTIONAL);
	return h;
}

/*
 * The default board (quiet, in *@p), its device behind smmu0 (returned),
 * lazy or strict as asked, and a page of memory in *@pg.
 */
static struct device *iommu_dev_and_page(struct dmamap_platform **p, bool lazy,
					 struct page **pg)
{
	struct device *dev;

	*p = quiet_board();
	dev = *p ? lookup(*p, IOMMU_DEV) : NULL;
	if (!dev)
		return NULL;
	if (lazy)
		CHECK_EQ(dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_LAZY), 0);
	*pg = dmamap_alloc_pages(*p, 0, 0);
	return *pg ? dev : NULL;
}

TEST(iommu_strict_unmap_faults_at_once)
{
	struct dmamap_iommu_stats s0, s1;
	uint8_t want[256], rd[256];
	struct dmamap_platform *p;
	struct page *pg;
	struct device *dev = iommu_dev_and_page(&p, false, &pg);
	dma_addr_t h;

	REQUIRE(dev);
	fill_pattern(want, sizeof(want), 11);
	s0 = istats(dev);
	h = map_touch_unmap(p, dev, pg, want, sizeof(want), true);
	REQUIRE(h != DMA_MAPPING_ERROR);
	s1 = istats(dev);
	CHECK(s1.iotlb_invalidations > s0.iotlb_invalidations);
	CHECK_EQ(s1.queued, 0);
	CHECK_EQ(s1.queue_flushes, s0.queue_flushes);
	memset(rd, 0x11, sizeof(rd));
	CHECK_MSG(dmamap_device_read(dev, h, rd, sizeof(rd)) == -EFAULT,
		  "strict: the device still reaches an unmapped IOVA");
	CHECK(all_bytes(rd, sizeof(rd), 0x11));
	CHECK_EQ(istats(dev).translation_faults, s1.translation_faults + 1);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

TEST(iommu_lazy_stale_window_until_flush)
{
	struct dmamap_iommu_stats s0, s1;
	uint8_t want[256], rd[256];
	struct dmamap_platform *p;
	unsigned long unmapped0;
	struct page *pg;
	struct device *dev = iommu_dev_and_page(&p, true, &pg);
	dma_addr_t h;

	REQUIRE(dev);
	dmamap_debug_enable(p, true);
	fill_pattern(want, sizeof(want), 12);
	s0 = istats(dev);
	h = map_touch_unmap(p, dev, pg, want, sizeof(want), true);
	REQUIRE(h != DMA_MAPPING_ERROR);
	s1 = istats(dev);
	CHECK_EQ(s1.queued, s0.queued + 1);
	CHECK_EQ(s1.queue_flushes, s0.queue_flushes);
	/* The page table no longer maps it... */
	CHECK_EQ(dmamap_iommu_iova_to_phys(dev, h), NO_PHYS);
	/* ...but the IOTLB still does: the stale window. */
	unmapped0 = dmamap_report_count(p, DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED);
	memset(rd, 0, sizeof(rd));
	CHECK_MSG(dmamap_device_read(dev, h, rd, sizeof(rd)) == 0,
		  "lazy: no stale IOTLB entry after unmap");
	CHECK_MEM(rd, want, sizeof(rd));
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED), unmapped0 + 1);
	CHECK_EQ(istats(dev).translation_faults, s1.translation_faults);

	/* Flushing the queue closes the window. */
	CHECK_EQ(dmamap_iommu_flush(dev), 0);
	s1 = istats(dev);
	CHECK_EQ(s1.queued, 0);
	CHECK_EQ(s1.queue_flushes, s0.queue_flushes + 1);
	memset(rd, 0x22, sizeof(rd));
	CHECK_EQ(dmamap_device_read(dev, h, rd, sizeof(rd)), -EFAULT);
	CHECK(all_bytes(rd, sizeof(rd), 0x22));
	CHECK_EQ(istats(dev).translation_faults, s1.translation_faults + 1);
	/* Nothing left in the queue: a second flush is not a batch. */
	CHECK_EQ(dmamap_iommu_flush(dev), 0);
	CHECK_EQ(istats(dev).queue_flushes, s1.queue_flushes);
	dmamap_debug_enable(p, false);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

/* Lazy: a translation never cached has no stale window. */
TEST(iommu_lazy_uncached_translation_faults)
{
	uint8_t want[128], rd[128];
	struct dmamap_platform *p;
	struct page *pg;
	struct device *dev = iommu_dev_and_page(&p, true, &pg);
	dma_addr_t h;

	REQUIRE(dev);
	fill_pattern(want, sizeof(want), 13);
	h = map_touch_unmap(p, dev, pg, want, sizeof(want), false);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(istats(dev).queued, 1);
	memset(rd, 0x33, sizeof(rd));
	CHECK_EQ(dmamap_device_read(dev, h, rd, sizeof(rd)), -EFAULT);
	CHECK(all_bytes(rd, sizeof(rd), 0x33));
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

/*
 * Lazy: a queued IOVA is not handed out again before its batch is
 * invalidated, or the stale IOTLB entry would send the new mapping's
 * device writes into the old buffer.
 */
TEST(iommu_lazy_queued_iova_not_reused)
{
	uint8_t a_bytes[256], b_bytes[256], dev_data[256];
	struct dmamap_platform *p;
	struct page *pa, *pb;
	struct device *dev = iommu_dev_and_page(&p, true, &pa);
	dma_addr_t ha, hb;

	REQUIRE(dev);
	pb = dmamap_alloc_pages(p, 0, 0);
	REQUIRE(pb);
	fill_pattern(a_bytes, sizeof(a_bytes), 14);
	fill_pattern(b_bytes, sizeof(b_bytes), 15);
	fill_pattern(dev_data, sizeof(dev_data), 16);
	ha = map_touch_unmap(p, dev, pa, a_bytes, sizeof(a_bytes), true);
	REQUIRE(ha != DMA_MAPPING_ERROR);
	memcpy(page_address(pb), b_bytes, sizeof(b_bytes));
	hb = dma_map_page(dev, pb, 0, sizeof(b_bytes), DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, hb));
	CHECK_MSG((ha & PAGE_MASK) != (hb & PAGE_MASK),
		  "IOVA 0x%llx reused while still queued", (unsigned long long)ha);
	CHECK_EQ(dmamap_device_write(dev, hb, dev_data, sizeof(dev_data)), 0);
	dma_unmap_page(dev, hb, sizeof(b_bytes), DMA_BIDIRECTIONAL);
	CHECK_MSG(!memcmp(page_address(pb), dev_data, sizeof(dev_data)),
		  "the device's write did not reach the new mapping's buffer");
	CHECK_MSG(!memcmp(page_address(pa), a_bytes, sizeof(a_bytes)),
		  "the device's write landed in the old (unmapped) buffer");
	CHECK(mem_is_at(p, page_to_phys(pa), a_bytes, sizeof(a_bytes)));
	dmamap_free_pages(p, pa, 0);
	dmamap_free_pages(p, pb, 0);
	dmamap_platform_destroy(p);
}

/* Lazy: the flush queue drains itself in batches; the desc flag starts lazy. */
TEST(iommu_lazy_queue_batches_and_desc_flag)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_device_desc d = {
		.name = "lazy-dev", .coherent = true, .iommu = "smmu-lazy",
		.iommu_lazy = true,
	};
	uint8_t want[64], rd[64];
	struct dmamap_iommu_stats s;
	struct device *dev;
	struct page *pg;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_create(p, &d, NULL);
	REQUIRE(dev);
	pg = dmamap_alloc_pages(p, 0, 0);
	REQUIRE(pg);
	fill_pattern(want, sizeof(want), 17);
	/* Lazy from the start: the stale window is there without set_flush. */
	h = map_touch_unmap(p, dev, pg, want, sizeof(want), true);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(istats(dev).queued, 1);
	CHECK_EQ(dmamap_device_read(dev, h, rd, sizeof(rd)), 0);
	CHECK_MEM(rd, want, sizeof(rd));
	/* Many unmaps: the queue flushes itself when full and stays bounded. */
	for (int i = 0; i < 1000; i++) {
		h = dma_map_page(dev, pg, 0, PAGE_SIZE, DMA_TO_DEVICE);
		REQUIRE(!dma_mapping_error(dev, h));
		dma_unmap_page(dev, h, PAGE_SIZE, DMA_TO_DEVICE);
	}
	s = istats(dev);
	CHECK(s.queue_flushes >= 1);
	CHECK(s.queued < 1000);
	CHECK_EQ(s.map_calls, 1001);
	CHECK_EQ(s.unmap_calls, 1001);
	CHECK_EQ(s.pages_mapped, 0);
	/* Back to strict: the queue is drained. */
	CHECK_EQ(dmamap_iommu_set_flush(dev, DMAMAP_IOMMU_STRICT), 0);
	CHECK_EQ(istats(dev).queued, 0);
	h = map_touch_unmap(p, dev, pg, want, sizeof(want), true);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_device_read(dev, h, rd, sizeof(rd)), -EFAULT);
	CHECK_EQ(dmamap_iommu_set_flush(dev, (enum dmamap_iommu_flush)7), -EINVAL);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}
