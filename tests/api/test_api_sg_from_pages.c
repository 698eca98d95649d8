/* SPDX-License-Identifier: MIT */
/*
 * sg_alloc_table_from_pages(): physically contiguous pages become one
 * entry, the first entry starts at the offset and the last ends with the
 * buffer; the table maps, and the device reads the buffer's bytes in
 * order. Bad arguments leave the table empty.
 */
#include "../helpers.h"

TEST(sg_from_pages_merges_contiguous_runs)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, NC);
	struct page *run = dmamap_alloc_pages(p, 2, 0), *pages[5], *lone = NULL, *spare[4];
	const unsigned int off = 100, size = 5 * PAGE_SIZE - off - 50;
	uint8_t *want = malloc(size), *seen = malloc(size);
	struct sg_table sgt;
	unsigned int got = 0, nspare = 0;

	REQUIRE(dev && run && want && seen);
	for (int i = 0; i < 4; i++)
		pages[i] = virt_to_page((char *)page_address(run) + i * PAGE_SIZE);
	/* A fifth page not right after the run. */
	while (!lone && nspare < 4) {
		spare[nspare] = dmamap_alloc_pages(p, 0, 0);
		REQUIRE(spare[nspare]);
		if (page_to_phys(spare[nspare]) != page_to_phys(pages[3]) + PAGE_SIZE)
			lone = spare[nspare];
		nspare++;
	}
	REQUIRE(lone);
	pages[4] = lone;
	fill_pattern(want, size, 3);
	memcpy((char *)page_address(pages[0]) + off, want, 4 * PAGE_SIZE - off);
	memcpy(page_address(pages[4]), want + 4 * PAGE_SIZE - off, size - (4 * PAGE_SIZE - off));

	CHECK_EQ(sg_alloc_table_from_pages(&sgt, pages, 5, off, size, GFP_KERNEL), 0);
	REQUIRE(sgt.sgl);
	CHECK_EQ(sgt.orig_nents, 2);
	CHECK(sg_page(&sgt.sgl[0]) == pages[0]);
	CHECK_EQ(sgt.sgl[0].offset, off);
	CHECK_EQ(sgt.sgl[0].length, 4 * PAGE_SIZE - off);
	CHECK(sg_page(&sgt.sgl[1]) == pages[4]);
	CHECK_EQ(sgt.sgl[1].offset, 0);
	CHECK_EQ(sgt.sgl[1].length, PAGE_SIZE - 50);
	CHECK(sg_is_last(&sgt.sgl[1]));

	/* The table maps, and the device reads the buffer in order. */
	REQUIRE(dma_map_sgtable(dev, &sgt, DMA_TO_DEVICE, 0) == 0);
	for (unsigned int i = 0; i < sgt.nents; i++) {
		struct scatterlist *s = &sgt.sgl[i];

		CHECK_EQ(dmamap_device_read(dev, sg_dma_address(s), seen + got, sg_dma_len(s)), 0);
		got += sg_dma_len(s);
	}
	CHECK_EQ(got, size);
	CHECK_MEM(seen, want, size);
	dma_unmap_sgtable(dev, &sgt, DMA_TO_DEVICE, 0);
	sg_free_table(&sgt);

	/* Out of order: nothing is contiguous, one entry a page. */
	{
		struct page *rev[4] = { pages[3], pages[2], pages[1], pages[0] };

		CHECK_EQ(sg_alloc_table_from_pages(&sgt, rev, 4, 0, 4 * PAGE_SIZE, 0), 0);
		CHECK_EQ(sgt.orig_nents, 4);
		sg_free_table(&sgt);
	}
	for (unsigned int i = 0; i < nspare; i++)
		dmamap_free_pages(p, spare[i], 0);
	dmamap_free_pages(p, run, 2);
	free(want);
	free(seen);
	dmamap_platform_destroy(p);
}

TEST(sg_from_pages_refuses_what_is_no_buffer)
{
	struct dmamap_platform *p = quiet_board();
	struct page *pg = dmamap_alloc_pages(p, 1, 0), *pages[2], *holes[2] = { NULL, NULL };
	struct sg_table sgt = { 0 };

	REQUIRE(pg);
	pages[0] = pg;
	pages[1] = virt_to_page((char *)page_address(pg) + PAGE_SIZE);
	CHECK_EQ(sg_alloc_table_from_pages(NULL, pages, 2, 0, 2 * PAGE_SIZE, 0), -EINVAL);
	CHECK_EQ(sg_alloc_table_from_pages(&sgt, NULL, 2, 0, 2 * PAGE_SIZE, 0), -EINVAL);
	CHECK_EQ(sg_alloc_table_from_pages(&sgt, pages, 0, 0, PAGE_SIZE, 0), -EINVAL);
	CHECK_EQ(sg_alloc_table_from_pages(&sgt, pages, 2, PAGE_SIZE, PAGE_SIZE, 0), -EINVAL);
	CHECK_EQ(sg_alloc_table_from_pages(&sgt, pages, 2, 0, 0, 0), -EINVAL);
	/* Longer than the pages, or ending before the last page. */
	CHECK_EQ(sg_alloc_table_from_pages(&sgt, pages, 2, 8, 2 * PAGE_SIZE, 0), -EINVAL);
	CHECK_EQ(sg_alloc_table_from_pages(&sgt, pages, 2, 0, PAGE_SIZE, 0), -EINVAL);
	CHECK_EQ(sg_alloc_table_from_pages(&sgt, holes, 2, 0, 2 * PAGE_SIZE, 0), -EINVAL);
	CHECK(sgt.sgl == NULL);
	CHECK_EQ(sgt.orig_nents, 0);
	/* The same pages, right: one entry. */
	CHECK_EQ(sg_alloc_table_from_pages(&sgt, pages, 2, 8, 2 * PAGE_SIZE - 8, 0), 0);
	CHECK_EQ(sgt.orig_nents, 1);
	CHECK_EQ(sgt.sgl[0].length, 2 * PAGE_SIZE - 8);
	sg_free_table(&sgt);
	dmamap_free_pages(p, pg, 1);
	dmamap_platform_destroy(p);
}
