/* SPDX-License-Identifier: MIT */
/*
 * Segment limits a driver sets (dma_set_max_seg_size, dma_set_seg_boundary)
 * and what it may ask of its device's table (cache alignment, optimal and
 * merge sizes, mmap, whether syncs and unmaps do anything), each as Linux
 * answers for the same table. Limits are checked by what they change: the
 * segments an IOMMU hands back, the checker's segment reports.
 */
#include <limits.h>
#include "../helpers.h"

TEST(limits_cache_alignment_covers_every_board)
{
	const char *boards[] = { "default", "armv5" };

	CHECK_EQ(dma_get_cache_alignment(), DMAMAP_MAX_CACHE_LINE);
	for (unsigned int i = 0; i < 2; i++) {
		struct dmamap_platform *p = builtin_board(boards[i]);

		REQUIRE(p);
		CHECK((unsigned int)dma_get_cache_alignment() >= dmamap_cache_line_size(p));
		CHECK_EQ(dma_get_cache_alignment() % (int)dmamap_cache_line_size(p), 0);
		dmamap_platform_destroy(p);
	}
}

TEST(limits_segment_size_and_boundary_set_and_read)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, NC);

	REQUIRE(dev);
	/* Linux's defaults: 64 KiB, no boundary. */
	CHECK_EQ(dma_get_max_seg_size(dev), 65536);
	CHECK_EQ(dma_get_seg_boundary(dev), ULONG_MAX);
	CHECK_EQ(dma_get_seg_boundary_nr_pages(dev, PAGE_SHIFT), (ULONG_MAX >> PAGE_SHIFT) + 1);
	CHECK_EQ(dma_set_max_seg_size(dev, 8192), 0);
	CHECK_EQ(dma_get_max_seg_size(dev), 8192);
	CHECK_EQ(dma_set_seg_boundary(dev, 0xffff), 0);
	CHECK_EQ(dma_get_seg_boundary(dev), 0xffff);
	CHECK_EQ(dma_get_seg_boundary_nr_pages(dev, PAGE_SHIFT), 16);
	CHECK_EQ(dma_get_seg_boundary_nr_pages(NULL, PAGE_SHIFT), (UINT32_MAX >> PAGE_SHIFT) + 1);
	CHECK_EQ(dma_get_max_seg_size(NULL), 65536);
	CHECK_EQ(dma_get_seg_boundary(NULL), ULONG_MAX);
	CHECK_EQ(dma_set_max_seg_size(NULL, 4096), -EINVAL);
	CHECK_EQ(dma_set_max_seg_size(dev, 0), -EINVAL);
	CHECK_EQ(dma_get_max_seg_size(dev), 8192);
	CHECK_EQ(dma_set_seg_boundary(NULL, 0xfff), -EINVAL);
	dmamap_platform_destroy(p);
}

/* Four physically contiguous pages as four entries: an IOMMU merges what its limits allow. */
static int iommu_segments(struct device *dev, struct page *pg, struct scatterlist *sg)
{
	int n;

	sg_init_table(sg, 4);
	for (int i = 0; i < 4; i++)
		sg_set_page(&sg[i], virt_to_page((char *)page_address(pg) + i * PAGE_SIZE),
			    PAGE_SIZE, 0);
	n = dma_map_sg(dev, sg, 4, DMA_TO_DEVICE);
	return n;
}

TEST(limits_segment_size_set_by_the_driver_bounds_iommu_merging)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, "dma-iommu");
	struct page *pg = dmamap_alloc_pages(p, 2, 0);
	struct scatterlist sg[4];
	int n;

	REQUIRE(dev && pg);
	n = iommu_segments(dev, pg, sg);
	CHECK_EQ(n, 1); /* 16 KiB under the default 64 KiB: one segment */
	dma_unmap_sg(dev, sg, 4, DMA_TO_DEVICE);
	CHECK_EQ(dma_set_max_seg_size(dev, 2 * PAGE_SIZE), 0);
	n = iommu_segments(dev, pg, sg);
	CHECK_EQ(n, 2);
	for (int i = 0; i < n; i++)
		CHECK(sg_dma_len(&sg[i]) <= 2 * PAGE_SIZE);
	dma_unmap_sg(dev, sg, 4, DMA_TO_DEVICE);
	/* A 4 KiB boundary: no segment may cross one, so none merges. */
	CHECK_EQ(dma_set_max_seg_size(dev, 65536), 0);
	CHECK_EQ(dma_set_seg_boundary(dev, PAGE_SIZE - 1), 0);
	n = iommu_segments(dev, pg, sg);
	CHECK_EQ(n, 4);
	dma_unmap_sg(dev, sg, 4, DMA_TO_DEVICE);
	CHECK(iommu_left_clean(dev));
	dmamap_free_pages(p, pg, 2);
	dmamap_platform_destroy(p);
}

TEST(limits_segment_size_set_by_the_driver_is_checked)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev = lookup(p, NC);
	uint8_t *buf = dbuf(p, 4096);
	struct scatterlist sg[1];

	REQUIRE(dev && buf);
	CHECK_EQ(dma_set_max_seg_size(dev, 1024), 0);
	sg_init_one(sg, buf, 2048);
	rec_reset();
	CHECK_EQ(dma_map_sg(dev, sg, 1, DMA_TO_DEVICE), 1);
	EXPECT_KINDS(DMAMAP_DBG_SG_SEGMENT_TOO_LONG);
	dma_unmap_sg(dev, sg, 1, DMA_TO_DEVICE);
	dmamap_platform_destroy(p);
}

TEST(limits_optimal_and_merge_sizes_follow_the_table)
{
	struct dmamap_platform *p = quiet_board();
	struct device *iommu = lookup(p, "dma-iommu"), *coh = lookup(p, "dma-coh");
	struct device *d24 = lookup(p, "dma-24");

	REQUIRE(iommu && coh && d24);
	/* Behind the IOMMU: the sizes its IOVA caches keep; segments merge within a page. */
	CHECK_EQ(dma_opt_mapping_size(iommu), 32 * PAGE_SIZE);
	CHECK_EQ(dma_get_merge_boundary(iommu), PAGE_SIZE - 1);
	/* Direct: no optimum below the largest mapping, no merging. */
	CHECK_EQ(dma_opt_mapping_size(coh), SIZE_MAX);
	CHECK_EQ(dma_opt_mapping_size(d24), dma_max_mapping_size(d24));
	CHECK(dma_opt_mapping_size(d24) < SIZE_MAX);
	CHECK_EQ(dma_get_merge_boundary(coh), 0);
	CHECK_EQ(dma_opt_mapping_size(NULL), 0);
	CHECK_EQ(dma_get_merge_boundary(NULL), 0);
	dmamap_platform_destroy(p);
}

static dma_addr_t fixed_map_page(struct device *dev, struct page *page, unsigned long offset,
				 size_t size, enum dma_data_direction dir, unsigned long attrs)
{
	(void)dev, (void)size, (void)dir, (void)attrs;
	return (dma_addr_t)(uintptr_t)page + offset;
}

TEST(limits_can_mmap_follows_the_table)
{
	struct dmamap_platform *p = quiet_board();
	struct device *nc = lookup(p, NC), *iommu = lookup(p, "dma-iommu");
	struct device *ixp = lookup(p, "ixp-pci");
	const struct dma_map_ops ops = { .name = "no-mmap", .map_page = fixed_map_page };

	REQUIRE(nc && iommu && ixp);
	CHECK(dma_can_mmap(nc));
	CHECK(dma_can_mmap(iommu));
	CHECK(dma_can_mmap(ixp));
	set_dma_ops(nc, &ops);
	CHECK(get_dma_ops(nc) == &ops);
	CHECK(!dma_can_mmap(nc));
	set_dma_ops(nc, NULL);
	CHECK(!dma_can_mmap(NULL));
	dmamap_platform_destroy(p);
}

TEST(limits_need_sync_and_need_unmap)
{
	struct dmamap_platform *p = quiet_board(), *hp = quiet(host_platform());
	struct device *nc = lookup(p, NC), *coh = lookup(p, "dma-coh"), *hb, *hd;
	struct device *iommu = lookup(p, "dma-iommu");
	uint8_t *buf = dbuf(p, 256), *hbuf;
	dma_addr_t h;

	REQUIRE(hp && nc && coh && iommu && buf);
	hd = host_device(hp, "plain", NULL);
	hbuf = dmamap_kmalloc(hp, 256, 0);
	REQUIRE(hd && hbuf);
	/* Non-coherent: every sync does cache maintenance. */
	h = dma_map_single(nc, buf, 256, DMA_FROM_DEVICE);
	CHECK(dma_need_sync(nc, h));
	dma_unmap_single(nc, h, 256, DMA_FROM_DEVICE);
	/* Coherent and not bounced: nothing to do. */
	h = dma_map_single(coh, buf, 256, DMA_FROM_DEVICE);
	CHECK(!dma_need_sync(coh, h));
	dma_unmap_single(coh, h, 256, DMA_FROM_DEVICE);
	CHECK(dma_need_sync(iommu, 0x1000)); /* another table: always */

	/* A coherent host device that never bounces need not unmap... */
	CHECK(!dma_need_unmap(hd));
	/* ...unless the checker watches, or it may bounce. */
	dmamap_debug_enable(hp, true);
	CHECK(dma_need_unmap(hd));
	dmamap_debug_enable(hp, false);
	CHECK(dma_need_unmap(nc));
	CHECK(dma_need_unmap(iommu));
	CHECK(dma_need_unmap(NULL));
	REQUIRE(dmamap_swiotlb_set_mode(hp, DMAMAP_SWIOTLB_FORCE) == 0);
	hb = host_device(hp, "forced", NULL);
	REQUIRE(hb);
	CHECK(dma_need_unmap(hb));
	h = dma_map_single(hb, hbuf, 256, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(hb, h));
	CHECK(dma_need_sync(hb, h)); /* bounced: the sync copies */
	dma_unmap_single(hb, h, 256, DMA_FROM_DEVICE);
	dmamap_kfree(hp, hbuf);
	dmamap_platform_destroy(hp);
	dmamap_platform_destroy(p);
}

/* What a driver keeps for unmap, with the kernel's macros. */
struct rx_slot {
	void *buf;
	DEFINE_DMA_UNMAP_ADDR(addr);
	DEFINE_DMA_UNMAP_LEN(len);
};

TEST(limits_unmap_state_macros_and_coerced_masks)
{
	struct dmamap_platform *p = quiet_board();
	struct device *coh = lookup(p, "dma-coh");
	struct rx_slot slot = { 0 };
	dma_addr_t h;

	REQUIRE(coh);
	slot.buf = dbuf(p, 512);
	REQUIRE(slot.buf);
	h = dma_map_single(coh, slot.buf, 512, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(coh, h));
	dma_unmap_addr_set(&slot, addr, h);
	dma_unmap_len_set(&slot, len, 512);
	CHECK_EQ(dma_unmap_addr(&slot, addr), h);
	CHECK_EQ(dma_unmap_len(&slot, len), 512);
	dma_unmap_single(coh, dma_unmap_addr(&slot, addr), dma_unmap_len(&slot, len),
			 DMA_FROM_DEVICE);
	CHECK_EQ(live_maps(coh), 0);

	CHECK_EQ(dma_coerce_mask_and_coherent(coh, DMA_BIT_MASK(36)), 0);
	CHECK_EQ(dma_get_mask(coh), DMA_BIT_MASK(36));
	dmamap_platform_destroy(p);
}
