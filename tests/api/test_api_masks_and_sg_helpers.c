/* SPDX-License-Identifier: MIT */
/*
 * DMA masks (what is accepted, what a mask does to mappings) and the
 * scatterlist helpers (tables, chaining, iteration, sg_dma_* accessors).
 */
#include "../helpers.h"

TEST(api_masks)
{
	struct dmamap_platform *p = default_board();
	struct dmamap_platform *hp = host_platform();
	struct dmamap_device_desc d = { .name = "plain" };
	struct device *plain, *coh, *d32, *hdev;
	u64 req;

	REQUIRE(p && hp);
	plain = dmamap_device_create(p, &d, NULL);
	coh = dmamap_device_lookup(p, "dma-coh");
	d32 = dmamap_device_lookup(p, "dma-32");
	hdev = host_device(hp, "h0", NULL);
	REQUIRE(plain && coh && d32 && hdev);

	/* Defaults: 32 bits on the sim, 64 on the host. */
	CHECK_EQ(dma_get_mask(plain), DMA_BIT_MASK(32));
	CHECK_EQ(dma_get_mask(d32), DMA_BIT_MASK(32));
	CHECK_EQ(dma_get_mask(hdev), DMA_BIT_MASK(64));

	CHECK_EQ(dma_supported(plain, DMA_BIT_MASK(64)), 1);
	CHECK_EQ(dma_supported(plain, DMA_BIT_MASK(32)), 1);
	CHECK_EQ(dma_supported(plain, DMA_BIT_MASK(16)), 0);
	CHECK_EQ(dma_set_mask_and_coherent(plain, DMA_BIT_MASK(64)), 0);
	CHECK_EQ(dma_get_mask(plain), DMA_BIT_MASK(64));
	CHECK_EQ(dma_set_mask(plain, DMA_BIT_MASK(36)), 0);
	CHECK_EQ(dma_get_mask(plain), DMA_BIT_MASK(36));
	CHECK_EQ(stats_of(plain).errors, 0);

	/* dma-coh reaches the whole board: the bank above 4 GiB needs 36 bits. */
	req = dma_get_required_mask(coh);
	CHECK(req >= BANK1_START + BANK1_SIZE - 1);
	CHECK(req >= DMA_BIT_MASK(36));
	CHECK_EQ(req & (req + 1), 0); /* a mask: 2^n - 1 */
	req = dma_get_required_mask(hdev);
	CHECK_EQ(req & (req + 1), 0);
	CHECK(req >= (u64)(uintptr_t)&req);

	/*
	 * As Linux: a device that reaches all RAM never bounces, so no size
	 * bound; one that may bounce is bound by the pool's largest mapping.
	 */
	CHECK(!dma_addressing_limited(coh));
	CHECK(!dma_addressing_limited(hdev));
	CHECK_EQ(dma_max_mapping_size(coh), SIZE_MAX);
	CHECK_EQ(dma_max_mapping_size(hdev), SIZE_MAX);
	/* The window misses RAM (dma-24: 16 MiB), or the mask does (32 bits, a bank above 4 GiB). */
	CHECK(dma_addressing_limited(lookup(p, "dma-24")));
	CHECK_EQ(dma_max_mapping_size(lookup(p, "dma-24")), DMAMAP_SWIOTLB_MAX_MAPPING);
	CHECK_EQ(dma_get_required_mask(lookup(p, "dma-24")), DMA_BIT_MASK(64));
	CHECK_EQ(dma_set_mask(coh, DMA_BIT_MASK(32)), 0);
	CHECK(dma_addressing_limited(coh));
	CHECK_EQ(dma_max_mapping_size(coh), DMAMAP_SWIOTLB_MAX_MAPPING);
	/* An IOMMU reaches whatever it maps: never limited, 32 bits required, no bound. */
	CHECK(!dma_addressing_limited(lookup(p, "dma-iommu")));
	CHECK_EQ(dma_get_required_mask(lookup(p, "dma-iommu")), DMA_BIT_MASK(32));
	CHECK_EQ(dma_max_mapping_size(lookup(p, "dma-iommu")), SIZE_MAX);
	/* Forced bouncing bounds every mapping... */
	CHECK_EQ(dmamap_swiotlb_set_mode(hp, DMAMAP_SWIOTLB_FORCE), 0);
	CHECK_EQ(dma_max_mapping_size(hdev), DMAMAP_SWIOTLB_MAX_MAPPING);
	/* ...and with bouncing off nothing is bound. */
	CHECK_EQ(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_NOFORCE), 0);
	CHECK_EQ(dmamap_swiotlb_set_mode(hp, DMAMAP_SWIOTLB_NOFORCE), 0);
	CHECK_EQ(dma_max_mapping_size(coh), SIZE_MAX);
	CHECK_EQ(dma_max_mapping_size(hdev), SIZE_MAX);
	dmamap_platform_destroy(hp);
	dmamap_platform_destroy(p);
}

TEST(api_mask_limits_mapping)
{
	struct dmamap_platform *p = default_board();
	struct device *coh;
	struct page *pg;
	dma_addr_t h;

	REQUIRE(p);
	coh = dmamap_device_lookup(p, "dma-coh");
	REQUIRE(coh);
	/* A page of the bank above 4 GiB. */
	pg = dmamap_alloc_pages(p, 0, __GFP_HIGHMEM);
	REQUIRE(pg);
	REQUIRE(page_to_phys(pg) >= BANK1_START);
	h = dma_map_page(coh, pg, 16, 256, DMA_TO_DEVICE);
	CHECK_EQ(h, page_to_phys(pg) + 16);
	dma_unmap_page(coh, h, 256, DMA_TO_DEVICE);
	/* With a 32-bit mask the same buffer is beyond reach (when nothing bounces). */
	CHECK_EQ(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_NOFORCE), 0);
	CHECK_EQ(dma_set_mask(coh, DMA_BIT_MASK(32)), 0);
	CHECK_ERRK(coh, DMAMAP_ERRK_UNREACHABLE,
		   dma_map_page(coh, pg, 16, 256, DMA_TO_DEVICE) == DMA_MAPPING_ERROR);
	CHECK_EQ(live_maps(coh), 0);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

TEST(api_sg_helpers)
{
	struct dmamap_platform *p = default_board();
	/* b has a spare slot: gcc cannot see that sg_next() stops at b[2]. */
	struct scatterlist a[4], b[4], *sg;
	struct sg_table t;
	struct device *dev;
	uint8_t *buf, *expect[6];
	int ui; /* as kernel drivers count */
	int i, n;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	buf = dmamap_kmalloc(p, 6 * 600, DMAMAP_GFP_DMA);
	REQUIRE(dev && buf);

	memset(a, 0xff, sizeof(a));
	sg_init_table(a, 4);
	CHECK(!sg_is_last(&a[0]) && !sg_is_last(&a[2]));
	CHECK(sg_is_last(&a[3]));
	CHECK_EQ(a[1].length, 0);
	CHECK_EQ(sg_nents(a), 4);
	sg_init_table(b, 3);

	/* a[0..2] and b[0..2] hold data; a[3] is the link to b. */
	for (i = 0; i < 6; i++) {
		expect[i] = buf + i * 600;
		sg_set_buf(i < 3 ? &a[i] : &b[i - 3], expect[i], 600 - i);
	}
	sg_chain(a, 4, b);
	CHECK(sg_is_chain(&a[3]));
	CHECK(sg_chain_ptr(&a[3]) == b);
	CHECK(sg_next(&a[2]) == &b[0]);
	CHECK(sg_next(&b[1]) == &b[2]);
	CHECK(sg_next(&b[2]) == NULL);
	CHECK_EQ(sg_nents(a), 6);
	CHECK_EQ(sg_nents(NULL), 0);

	n = 0;
	for_each_sg(a, sg, 6, i) {
		CHECK(sg_virt(sg) == expect[i]);
		CHECK(sg_page(sg) == virt_to_page(expect[i]));
		CHECK_EQ(sg->offset, offset_in_page(expect[i]));
		CHECK_EQ(sg->length, 600 - i);
		n++;
	}
	CHECK_EQ(n, 6);

	/* The device sees the chained list as six segments. */
	n = dma_map_sg(dev, a, 6, DMA_TO_DEVICE);
	CHECK_EQ(n, 6);
	for_each_sg(a, sg, 6, i) {
		CHECK_EQ(sg_dma_address(sg), dmamap_phys_to_dma(dev, virt_to_phys(expect[i])));
		CHECK_EQ(sg_dma_len(sg), 600 - i);
	}
	dma_sync_sg_for_cpu(dev, a, 6, DMA_TO_DEVICE);
	dma_sync_sg_for_device(dev, a, 6, DMA_TO_DEVICE);
	CHECK_EQ(stats_of(dev).syncs_for_cpu, 6);
	CHECK_EQ(stats_of(dev).syncs_for_device, 6);
	dma_unmap_sg(dev, a, 6, DMA_TO_DEVICE);
	CHECK_EQ(live_maps(dev), 0);

	/* sg_init_one: a one-entry list. */
	sg_init_one(&a[0], buf + 10, 77);
	CHECK(sg_is_last(&a[0]));
	CHECK(sg_virt(&a[0]) == buf + 10);
	CHECK_EQ(a[0].length, 77);
	CHECK_EQ(sg_nents(a), 1);

	/* Tables. */
	CHECK_EQ(sg_alloc_table(&t, 5, GFP_KERNEL), 0);
	CHECK(t.sgl != NULL);
	CHECK_EQ(t.orig_nents, 5);
	CHECK_EQ(sg_nents(t.sgl), 5);
	CHECK(sg_is_last(&t.sgl[4]));
	n = 0;
	/* The table walkers compare with unsigned counts. */
	for_each_sgtable_sg(&t, sg, ui) {
		sg_set_buf(sg, buf + ui * 600, 600);
		n++;
	}
	CHECK_EQ(n, 5);
	CHECK_EQ(dma_map_sgtable(dev, &t, DMA_FROM_DEVICE, 0), 0);
	CHECK_EQ(t.nents, 5);
	n = 0;
	for_each_sgtable_dma_sg(&t, sg, ui) {
		CHECK_EQ(sg_dma_address(sg),
			 dmamap_phys_to_dma(dev, virt_to_phys(buf + ui * 600)));
		n++;
	}
	CHECK_EQ(n, 5);
	dma_sync_sgtable_for_cpu(dev, &t, DMA_FROM_DEVICE);
	dma_sync_sgtable_for_device(dev, &t, DMA_FROM_DEVICE);
	dma_unmap_sgtable(dev, &t, DMA_FROM_DEVICE, 0);
	CHECK_EQ(live_maps(dev), 0);
	sg_free_table(&t);
	CHECK(t.sgl == NULL);
	CHECK_EQ(t.orig_nents, 0);
	sg_free_table(&t); /* empty: fine */
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}
