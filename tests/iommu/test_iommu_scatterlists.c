/* SPDX-License-Identifier: MIT */
/*
 * Scatterlists behind an IOMMU become one IOVA range: scattered pages are
 * one segment for the device, split at the max segment size and at the
 * segment boundary, and syncs of merged segments report nothing.
 *
 * Every check compares bytes: what the device read at the returned IOVA,
 * what the CPU sees after unmap, or the memory view probed with
 * dmamap_sim_mem_read(). A fault must move nothing.
 */
#include "../helpers.h"

#define SG_PAGES 8

/* @n pages of which no two consecutive ones are physically adjacent. */
static bool scattered_pages(struct dmamap_platform *p, struct page **out, int n,
			    struct page **pool, int npool)
{
	int got = 0;

	for (int i = 0; i < npool; i++) {
		pool[i] = dmamap_alloc_pages(p, 0, 0);
		if (!pool[i])
			return false;
	}
	for (int i = 0; i < npool && got < n; i++) {
		if (got && page_to_phys(pool[i]) == page_to_phys(out[got - 1]) + PAGE_SIZE)
			continue;
		if (got && page_to_phys(pool[i]) + PAGE_SIZE == page_to_phys(out[got - 1]))
			continue;
		out[got++] = pool[i];
	}
	return got == n;
}

/* @sg over @pg, a whole page an entry; each page first filled from @fill unless NULL. */
static void sg_over_pages(struct scatterlist *sg, struct page **pg, const uint8_t *fill)
{
	sg_init_table(sg, SG_PAGES);
	for (int i = 0; i < SG_PAGES; i++) {
		if (fill)
			memcpy(page_address(pg[i]), fill + i * PAGE_SIZE, PAGE_SIZE);
		sg_set_page(&sg[i], pg[i], PAGE_SIZE, 0);
	}
}

static void free_pool(struct dmamap_platform *p, struct page **pool)
{
	for (int i = 0; i < 32; i++)
		dmamap_free_pages(p, pool[i], 0);
}

TEST(iommu_sg_scattered_pages_one_segment)
{
	struct dmamap_platform *p = quiet_board();
	const size_t total = SG_PAGES * PAGE_SIZE;
	struct page *pool[32], *pg[SG_PAGES];
	struct scatterlist sg[SG_PAGES];
	uint8_t *want = malloc(total), *dev_data = malloc(total);
	struct device *dev;

	REQUIRE(p && want && dev_data);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	REQUIRE(scattered_pages(p, pg, SG_PAGES, pool, 32));
	for (unsigned int k = 0; k < 3; k++) {
		enum dma_data_direction dir = dirs[k];
		dma_addr_t seg;
		int n;

		fill_pattern(want, total, 30 + k);
		sg_over_pages(sg, pg, want);
		n = dma_map_sg(dev, sg, SG_PAGES, dir);
		CHECK_MSG(n == 1, "dir %d: %d device segments, want 1", dir, n);
		REQUIRE(n >= 1);
		seg = sg_dma_address(&sg[0]);
		CHECK_EQ(sg_dma_len(&sg[0]), total);
		/* One IOVA range whose pages are the list's pages, in order. */
		for (int i = 0; i < SG_PAGES; i++)
			CHECK_EQ(dmamap_iommu_iova_to_phys(dev, seg + i * PAGE_SIZE),
				 page_to_phys(pg[i]));
		if (n == 1 && dir != DMA_FROM_DEVICE)
			CHECK_MSG(dev_reads(dev, seg, want, total),
				  "dir %d: device read of the merged segment", dir);
		if (n == 1 && dir != DMA_TO_DEVICE) {
			fill_pattern(dev_data, total, 70 + k);
			CHECK_EQ(dmamap_device_write(dev, seg, dev_data, total), 0);
		}
		dma_unmap_sg(dev, sg, SG_PAGES, dir);
		for (int i = 0; i < SG_PAGES; i++) {
			const uint8_t *exp = (dir != DMA_TO_DEVICE ? dev_data : want) +
					     i * PAGE_SIZE;

			CHECK_MSG(!memcmp(page_address(pg[i]), exp, PAGE_SIZE),
				  "dir %d: page %d after unmap", dir, i);
		}
		CHECK_EQ(dmamap_iommu_iova_to_phys(dev, seg), NO_PHYS);
	}
	CHECK(iommu_left_clean(dev));
	free_pool(p, pool);
	free(want);
	free(dev_data);
	dmamap_platform_destroy(p);
}

TEST(iommu_sg_split_at_max_segment_size)
{
	struct dmamap_platform *p = quiet_board();
	const size_t total = SG_PAGES * PAGE_SIZE, max_seg = 2 * PAGE_SIZE;
	struct page *pool[32], *pg[SG_PAGES];
	struct scatterlist sg[SG_PAGES];
	uint8_t *want = malloc(total), *dev_data = malloc(total);
	struct device *dev;
	size_t seen = 0;
	int n;

	REQUIRE(p && want && dev_data);
	dev = iommu_device(p, "smmux-dev", "smmuX", 0, (unsigned int)max_seg, false);
	REQUIRE(dev);
	REQUIRE(scattered_pages(p, pg, SG_PAGES, pool, 32));
	fill_pattern(want, total, 5);
	sg_over_pages(sg, pg, want);
	n = dma_map_sg(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	CHECK_EQ(n, (int)(total / max_seg));
	REQUIRE(n > 0);
	fill_pattern(dev_data, total, 6);
	for (int i = 0; i < n; i++) {
		size_t l = sg_dma_len(&sg[i]);

		CHECK_MSG(l <= max_seg, "segment %d is %zu bytes, max %zu", i, l, max_seg);
		CHECK(l > 0);
		if (!l || seen + l > total)
			break;
		CHECK_MSG(dev_reads(dev, sg_dma_address(&sg[i]), want + seen, l),
			  "segment %d: device read", i);
		CHECK_EQ(dmamap_device_write(dev, sg_dma_address(&sg[i]), dev_data + seen, l), 0);
		seen += l;
	}
	CHECK_EQ(seen, total);
	dma_unmap_sg(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	for (int i = 0; i < SG_PAGES; i++)
		CHECK_MSG(!memcmp(page_address(pg[i]), dev_data + i * PAGE_SIZE, PAGE_SIZE),
			  "page %d after unmap", i);
	CHECK(iommu_left_clean(dev));
	free_pool(p, pool);
	free(want);
	free(dev_data);
	dmamap_platform_destroy(p);
}

/*
 * dma_sync_sg_*() take the nents given to dma_map_sg(), not the segment
 * count: a correct driver syncing a merged list must get the device's
 * bytes and no checker report about the entries that were merged away.
 */
TEST(iommu_sg_merged_sync_no_false_reports)
{
	struct dmamap_platform *p = quiet_board();
	const size_t total = SG_PAGES * PAGE_SIZE;
	struct page *pool[32], *pg[SG_PAGES];
	struct scatterlist sg[SG_PAGES];
	uint8_t *dev_data = malloc(total);
	struct device *dev;
	dma_addr_t seg;
	int n;

	REQUIRE(p && dev_data);
	dev = dmamap_device_lookup(p, IOMMU_DEV);
	REQUIRE(dev);
	REQUIRE(scattered_pages(p, pg, SG_PAGES, pool, 32));
	dmamap_debug_enable(p, true);
	sg_over_pages(sg, pg, NULL);
	n = dma_map_sg(dev, sg, SG_PAGES, DMA_FROM_DEVICE);
	REQUIRE(n == 1);
	seg = sg_dma_address(&sg[0]);
	REQUIRE(!dma_mapping_error(dev, seg));
	fill_pattern(dev_data, total, 80);
	CHECK_EQ(dmamap_device_write(dev, seg, dev_data, total), 0);
	dma_sync_sg_for_cpu(dev, sg, SG_PAGES, DMA_FROM_DEVICE);
	for (int i = 0; i < SG_PAGES; i++)
		CHECK_MSG(!memcmp(page_address(pg[i]), dev_data + i * PAGE_SIZE, PAGE_SIZE),
			  "page %d after dma_sync_sg_for_cpu", i);
	CHECK_MSG(dmamap_report_count(p, 0) == 0,
		  "syncing a merged list (nents %d, 1 segment): %lu reports, last: %s",
		  SG_PAGES, dmamap_report_count(p, 0), logs.last);
	dma_sync_sg_for_device(dev, sg, SG_PAGES, DMA_FROM_DEVICE);
	fill_pattern(dev_data, total, 81);
	CHECK_EQ(dmamap_device_write(dev, seg, dev_data, total), 0);
	dma_unmap_sg(dev, sg, SG_PAGES, DMA_FROM_DEVICE);
	for (int i = 0; i < SG_PAGES; i++)
		CHECK(!memcmp(page_address(pg[i]), dev_data + i * PAGE_SIZE, PAGE_SIZE));
	CHECK_EQ(dmamap_report_count(p, 0), 0);

	/* The same list, first mapped as 8 segments, then remapped as one. */
	dmamap_report_reset(p);
	for (int i = 0; i < SG_PAGES; i++)
		sg_set_page(&sg[i], pg[i], 100, 0);
	n = dma_map_sg(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	CHECK_EQ(n, SG_PAGES);
	if (n)
		dma_unmap_sg(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	for (int i = 0; i < SG_PAGES; i++)
		sg_set_page(&sg[i], pg[i], PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	REQUIRE(n == 1);
	dma_mapping_error(dev, sg_dma_address(&sg[0]));
	dma_sync_sg_for_cpu(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	dma_sync_sg_for_device(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	dma_unmap_sg(dev, sg, SG_PAGES, DMA_BIDIRECTIONAL);
	CHECK_MSG(dmamap_report_count(p, 0) == 0,
		  "remapped list: %lu reports, last: %s", dmamap_report_count(p, 0),
		  logs.last);
	dmamap_debug_enable(p, false);
	free_pool(p, pool);
	free(dev_data);
	dmamap_platform_destroy(p);
}

/* Merged segments never cross the device's segment boundary. */
TEST(iommu_sg_merge_respects_segment_boundary)
{
	struct dmamap_platform *p = quiet_board();
	const unsigned long boundary = 4 * PAGE_SIZE - 1; /* 16 KiB windows */
	const size_t total = SG_PAGES * PAGE_SIZE;
	struct dmamap_device_desc d = {
		.name = "smmu-bound", .iommu = "smmuB",
		.segment_boundary_mask = boundary,
	};
	struct page *pool[32], *pg[SG_PAGES];
	struct scatterlist sg[SG_PAGES];
	uint8_t *want = malloc(total);
	struct device *dev;
	size_t seen = 0;
	int n;

	REQUIRE(p && want);
	dev = dmamap_device_create(p, &d, NULL);
	REQUIRE(dev);
	REQUIRE(scattered_pages(p, pg, SG_PAGES, pool, 32));
	dmamap_debug_enable(p, true);
	fill_pattern(want, total, 82);
	sg_over_pages(sg, pg, want);
	n = dma_map_sg(dev, sg, SG_PAGES, DMA_TO_DEVICE);
	REQUIRE(n > 0);
	for (int i = 0; i < n; i++) {
		dma_addr_t a = sg_dma_address(&sg[i]);
		size_t l = sg_dma_len(&sg[i]);

		dma_mapping_error(dev, a);
		CHECK_MSG((a & ~(dma_addr_t)boundary) == ((a + l - 1) & ~(dma_addr_t)boundary),
			  "segment %d [0x%llx +%zu] crosses the 16 KiB boundary", i,
			  (unsigned long long)a, l);
		if (seen + l <= total)
			CHECK(dev_reads(dev, a, want + seen, l));
		seen += l;
	}
	CHECK_EQ(seen, total);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_SG_SEGMENT_BOUNDARY), 0);
	dma_unmap_sg(dev, sg, SG_PAGES, DMA_TO_DEVICE);
	CHECK_EQ(istats(dev).pages_mapped, 0);
	dmamap_debug_enable(p, false);
	free_pool(p, pool);
	free(want);
	dmamap_platform_destroy(p);
}
