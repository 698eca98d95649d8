/* SPDX-License-Identifier: MIT */
/*
 * The board's own allocators: kmalloc packs small objects, aligns to the
 * cache line when asked, serves ZONE_DMA, refuses zero and impossible
 * sizes; pages translate to physical addresses and back.
 */
#include "../helpers.h"

TEST(alloc_kmalloc_packed)
{
	struct dmamap_platform *p = default_board();
	const unsigned int line = dmamap_cache_line_size(p);
	uint8_t *obj[8];
	bool shared = false;

	REQUIRE(p);
	CHECK_EQ(line, 64);
	for (int i = 0; i < 8; i++) {
		obj[i] = dmamap_kmalloc(p, 32, 0);
		REQUIRE(obj[i]);
	}
	/* Two 32-byte objects in one 64-byte line, as the kernel packs them. */
	for (int i = 0; i < 8; i++)
		for (int j = i + 1; j < 8; j++)
			if ((uintptr_t)obj[i] / line == (uintptr_t)obj[j] / line)
				shared = true;
	CHECK(shared);
	/* They do not overlap. */
	for (int i = 0; i < 8; i++)
		for (int j = i + 1; j < 8; j++)
			CHECK(obj[i] + 32 <= obj[j] || obj[j] + 32 <= obj[i]);
	for (int i = 0; i < 8; i++)
		dmamap_kfree(p, obj[i]);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	dmamap_platform_destroy(p);
}

TEST(alloc_kmalloc_dma_align)
{
	static const size_t sizes[] = { 1, 8, 32, 33, 64, 65, 96, 100, 150, 200, 700,
					3000, 5000, 3 * PAGE_SIZE + 5 };
	struct dmamap_platform *plats[2] = { default_board(), host_platform() };

	REQUIRE(plats[0] && plats[1]);
	for (int k = 0; k < 2; k++) {
		struct dmamap_platform *p = plats[k];
		const unsigned int line = dmamap_cache_line_size(p);
		uint8_t *obj[sizeof(sizes) / sizeof(sizes[0])][2];

		for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			for (int j = 0; j < 2; j++) {
				obj[i][j] = dmamap_kmalloc(p, sizes[i],
							   DMAMAP_GFP_DMA_ALIGN | DMAMAP_GFP_DMA);
				REQUIRE(obj[i][j]);
				CHECK_MSG((uintptr_t)obj[i][j] % line == 0,
					  "%s: %zu-byte object at %p is not line aligned",
					  dmamap_platform_name(p), sizes[i], (void *)obj[i][j]);
			}
			/* Two such objects never share a line. */
			CHECK((uintptr_t)obj[i][0] / line != (uintptr_t)obj[i][1] / line);
			CHECK((uintptr_t)(obj[i][0] + sizes[i] - 1) / line !=
			      (uintptr_t)obj[i][1] / line);
			CHECK((uintptr_t)(obj[i][1] + sizes[i] - 1) / line !=
			      (uintptr_t)obj[i][0] / line);
		}
		for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			for (int j = 0; j < 2; j++)
				dmamap_kfree(p, obj[i][j]);
		CHECK_EQ(dmamap_report_count(p, 0), 0);
	}
	dmamap_platform_destroy(plats[1]);
	dmamap_platform_destroy(plats[0]);
}

TEST(alloc_kmalloc_zone_dma)
{
	struct dmamap_platform *p = default_board();
	static const size_t sizes[] = { 16, 200, 2048, 6000, 40000 };
	struct page *pg;

	REQUIRE(p);
	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int n = 0; n < 4; n++) {
			void *ptr = dmamap_kmalloc(p, sizes[i], DMAMAP_GFP_DMA);
			phys_addr_t phys;

			REQUIRE(ptr);
			phys = virt_to_phys(ptr);
			CHECK_MSG(phys >= BANK0_START && phys + sizes[i] <= ZONE_DMA_END,
				  "%zu bytes at phys 0x%llx, outside ZONE_DMA", sizes[i],
				  (unsigned long long)phys);
			/* Deliberately not freed: the next one is a different object. */
		}
	}
	for (int n = 0; n < 4; n++) {
		pg = dmamap_alloc_pages(p, (unsigned int)n, GFP_DMA);
		REQUIRE(pg);
		CHECK(page_to_phys(pg) >= BANK0_START &&
		      page_to_phys(pg) + (PAGE_SIZE << n) <= ZONE_DMA_END);
	}
	/* Without GFP_DMA the allocator prefers the zones above. */
	{
		void *ptr = dmamap_kmalloc(p, 200, 0);

		REQUIRE(ptr);
		CHECK(virt_to_phys(ptr) >= ZONE_DMA_END);
		dmamap_kfree(p, ptr);
	}
	dmamap_platform_destroy(p);
}

TEST(alloc_kmalloc_zero)
{
	static const size_t sizes[] = { 24, 200, 1000, 3 * PAGE_SIZE };
	struct dmamap_platform *plats[2] = { default_board(), host_platform() };

	REQUIRE(plats[0] && plats[1]);
	for (int k = 0; k < 2; k++) {
		struct dmamap_platform *p = plats[k];

		for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			uint8_t *a = dmamap_kmalloc(p, sizes[i], 0), *b;

			REQUIRE(a);
			memset(a, 0xff, sizes[i]);
			dmamap_kfree(p, a);
			b = dmamap_kmalloc(p, sizes[i], __GFP_ZERO);
			REQUIRE(b);
			CHECK_MSG(all_bytes(b, sizes[i], 0), "%s: %zu bytes not zeroed",
				  dmamap_platform_name(p), sizes[i]);
			dmamap_kfree(p, b);
		}
	}
	{
		struct dmamap_platform *p = plats[0];
		struct page *pg = dmamap_alloc_pages(p, 1, 0);

		REQUIRE(pg);
		memset(page_address(pg), 0xff, 2 * PAGE_SIZE);
		dmamap_free_pages(p, pg, 1);
		pg = dmamap_alloc_pages(p, 1, __GFP_ZERO);
		REQUIRE(pg);
		CHECK(all_bytes(page_address(pg), 2 * PAGE_SIZE, 0));
		dmamap_free_pages(p, pg, 1);
	}
	dmamap_platform_destroy(plats[1]);
	dmamap_platform_destroy(plats[0]);
}

TEST(alloc_page_to_phys)
{
	struct dmamap_platform *p = default_board();
	struct dmamap_platform *hp = host_platform();
	uint8_t *host_buf;
	struct page *pg;
	uint8_t *ptr;
	phys_addr_t phys;

	REQUIRE(p && hp);
	ptr = dmamap_kmalloc(p, 300, DMAMAP_GFP_DMA);
	REQUIRE(ptr);
	phys = page_to_phys(virt_to_page(ptr));
	CHECK(in_bank(phys, PAGE_SIZE));
	CHECK_EQ(phys & ~PAGE_MASK, 0);
	CHECK_EQ(virt_to_phys(ptr), phys + offset_in_page(ptr));
	CHECK(dmamap_phys_to_virt(p, phys) == page_address(virt_to_page(ptr)));
	CHECK(dmamap_phys_to_virt(p, virt_to_phys(ptr)) == ptr);
	dmamap_kfree(p, ptr);

	/* Pages from each bank. */
	pg = dmamap_alloc_pages(p, 0, GFP_DMA);
	REQUIRE(pg);
	CHECK(page_to_phys(pg) >= BANK0_START && page_to_phys(pg) < ZONE_DMA_END);
	CHECK(dmamap_phys_to_virt(p, page_to_phys(pg)) == page_address(pg));
	CHECK_EQ(page_to_phys(nth_page(pg, 1)), page_to_phys(pg) + PAGE_SIZE);
	dmamap_free_pages(p, pg, 0);
	pg = dmamap_alloc_pages(p, 0, __GFP_HIGHMEM);
	REQUIRE(pg);
	CHECK(page_to_phys(pg) >= BANK1_START &&
	      page_to_phys(pg) < BANK1_START + BANK1_SIZE);
	CHECK(dmamap_phys_to_virt(p, page_to_phys(pg)) == page_address(pg));
	dmamap_free_pages(p, pg, 0);
	CHECK(dmamap_phys_to_virt(p, 0x10000000) == NULL);

	/* Host: physical is virtual. */
	host_buf = malloc(100);
	REQUIRE(host_buf);
	CHECK_EQ(page_to_phys(virt_to_page(host_buf)), (uintptr_t)host_buf & PAGE_MASK);
	CHECK_EQ(virt_to_phys(host_buf), (uintptr_t)host_buf);
	free(host_buf);
	ptr = dmamap_kmalloc(hp, 100, 0);
	REQUIRE(ptr);
	CHECK_EQ(virt_to_phys(ptr), (uintptr_t)ptr);
	dmamap_kfree(hp, ptr);
	pg = dmamap_alloc_pages(hp, 0, 0);
	if (pg) {
		CHECK_EQ(page_to_phys(pg), (uintptr_t)pg);
		dmamap_free_pages(hp, pg, 0);
	}
	dmamap_platform_destroy(hp);
	dmamap_platform_destroy(p);
}
