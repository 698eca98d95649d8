/* SPDX-License-Identifier: MIT */
/*
 * Where /reserved-memory regions land, with the numbers Linux's
 * of_reserved_mem.c gives: static regions first, then each dynamic one in
 * RAM only, never over an earlier reservation (a /memreserve/ entry
 * included), each alloc-range in order, top-down unless the range starts
 * against a dynamic region placed before, CMA aligned to 2 MiB, from every bank when
 * there are no alloc-ranges; a region that finds no room is not reserved
 * and the board still builds. A reusable pool without linux,cma-default
 * serves only the devices whose memory-region names it.
 *
 * The restricted pool's start is where its region landed: the probe.
 */
#include "../helpers.h"

/* Where the restricted pool of dma@1 (memory-region = <&r>) starts on the board @dts. */
static phys_addr_t restricted_pool_at(const char *dts)
{
	struct dmamap_platform *p = dts_board(dts);
	struct dmamap_device_info in;
	phys_addr_t at = 0;

	if (p && dmamap_device_info(dmamap_device_lookup(p, "dma@1"), &in) == 0)
		at = in.restricted_pool_size ? in.restricted_pool : 1;
	dmamap_platform_destroy(p);
	return at;
}

#define DEV "dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; memory-region = <&r>; };"
/* A restricted pool of 1 MiB with @props, in a board with a static region @fixed. */
#define POOL(fixed, props)                                                              \
	RESV(fixed "r: r { compatible = \"restricted-dma-pool\"; size = <0x100000>; " props \
		   " };") DEV "};"

TEST(of_dynamic_regions_are_placed_after_every_static_one)
{
	/* The dynamic node comes first in the tree; the static one at the top still wins. */
	CHECK_EQ(restricted_pool_at(RESV("r: r { compatible = \"restricted-dma-pool\"; size = <0x100000>; };"
			      "top@83f00000 { reg = <0x83f00000 0x100000>; };") DEV "};"),
		 0x83e00000ULL);
	/* Without alloc-ranges: the top of RAM, top-down. */
	CHECK_EQ(restricted_pool_at(POOL("", "")), 0x83f00000ULL);
}

TEST(of_dynamic_region_tries_each_alloc_range_in_order)
{
	/* The first range is all taken by a static region; the second one, top-down. */
	CHECK_EQ(restricted_pool_at(POOL("s@81000000 { reg = <0x81000000 0x100000>; };",
			      "alloc-ranges = <0x81000000 0x100000 0x82000000 0x400000>;")),
		 0x82300000ULL);
	/* A range outside RAM holds nothing; the next one does. */
	CHECK_EQ(restricted_pool_at(POOL("", "alloc-ranges = <0x10000000 0x1000000 0x81000000 0x200000>;")),
		 0x81100000ULL);
}

/* A restricted pool r placed after a dynamic region a whose alloc-ranges pin it. */
#define AFTER(a_range, props)                                                          \
	RESV("a: a { compatible = \"vendor,blob\"; size = <0x100000>; alloc-ranges = <" a_range ">; };" \
	     "r: r { compatible = \"restricted-dma-pool\"; size = <0x100000>; " props " };") DEV "};"

TEST(of_dynamic_region_sits_next_to_an_earlier_dynamic_one)
{
	/* The range starts where the earlier dynamic region ends: bottom-up, against it. */
	CHECK_EQ(restricted_pool_at(AFTER("0x81000000 0x100000", "alloc-ranges = <0x81100000 0x800000>;")),
		 0x81100000ULL);
	/* It starts and ends against one: memblock's own direction, top-down. */
	CHECK_EQ(restricted_pool_at(RESV(
			 "a: a { compatible = \"vendor,blob\"; size = <0x100000>; alloc-ranges = <0x81000000 0x100000>; };"
			 "b: b { compatible = \"vendor,blob\"; size = <0x100000>; alloc-ranges = <0x81900000 0x100000>; };"
			 "r: r { compatible = \"restricted-dma-pool\"; size = <0x100000>;"
			 "  alloc-ranges = <0x81100000 0x800000>; };") DEV "};"),
		 0x81800000ULL);
	/* The alignment is honoured from either end. */
	CHECK_EQ(restricted_pool_at(AFTER("0x81000000 0x100000",
					  "alloc-ranges = <0x81100000 0x800000>; alignment = <0x400000>;")),
		 0x81400000ULL);
	/* A static region does not count (Linux 6.12 records it after): top-down. */
	CHECK_EQ(restricted_pool_at(POOL("s@81000000 { reg = <0x81000000 0x100000>; };",
					 "alloc-ranges = <0x81100000 0x800000>;")),
		 0x81800000ULL);
}

TEST(of_dynamic_region_avoids_memreserve_and_uses_every_bank)
{
	CHECK_EQ(restricted_pool_at("/dts-v1/; /memreserve/ 0x83f00000 0x100000; / { #address-cells = <1>;"
			 " #size-cells = <1>;"
			 " memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; };"
			 " reserved-memory { #address-cells = <1>; #size-cells = <1>; ranges;"
			 "   r: r { compatible = \"restricted-dma-pool\"; size = <0x100000>; }; };" DEV
			 "};"),
		 0x83e00000ULL);
	/* Two banks, the higher one second in the tree: the region goes to the top of RAM. */
	CHECK_EQ(restricted_pool_at("/dts-v1/; / { #address-cells = <1>; #size-cells = <1>;"
			 " memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000"
			 "   0x40000000 0x1000000 0x90000000 0x1000000>; };"
			 " reserved-memory { #address-cells = <1>; #size-cells = <1>; ranges;"
			 "   r: r { compatible = \"restricted-dma-pool\"; size = <0x100000>; }; };" DEV
			 "};"),
		 0x90f00000ULL);
}

TEST(of_cma_region_is_aligned_to_a_pageblock)
{
	struct dmamap_region_info r;
	struct dmamap_cma_stats cs;
	struct dmamap_platform *p = dts_board(RESV(
		"top@83f00000 { reg = <0x83f00000 0x100000>; };"
		"cma { compatible = \"shared-dma-pool\"; reusable; size = <0x200000>;"
		"  linux,cma-default; };") "};");

	REQUIRE(p);
	REQUIRE(dmamap_cma_stats(p, &cs) == 0);
	/* Highest fit below the static region is 0x83d00000; 2 MiB alignment makes it 0x83c00000. */
	CHECK_EQ(cs.start, 0x83c00000ULL);
	CHECK_EQ(cs.total_pages, 0x200000 >> PAGE_SHIFT);
	/* The board says where each region landed and why. */
	REQUIRE(dmamap_region_info(p, 0, &r) == 0);
	CHECK(strcmp(r.name, "/reserved-memory/top@83f00000") == 0);
	CHECK(strcmp(r.use, "reserved") == 0 && strcmp(r.how, "reg") == 0);
	REQUIRE(dmamap_region_info(p, 1, &r) == 0);
	CHECK(strcmp(r.name, "/reserved-memory/cma") == 0);
	CHECK_EQ(r.start, 0x83c00000ULL);
	CHECK(strcmp(r.use, "default CMA") == 0);
	CHECK_MSG(strstr(r.how, "top-down") && strstr(r.how, "aligned to 0x200000"), "%s", r.how);
	CHECK_EQ(dmamap_region_info(p, 2, &r), -ENOENT);
	dmamap_platform_destroy(p);
	/* A static CMA region off a 2 MiB boundary is refused by its setup: no CMA. */
	p = dts_board(RESV("cma@83f00000 { compatible = \"shared-dma-pool\"; reusable;"
			   "  reg = <0x83f00000 0x100000>; linux,cma-default; };") "};");
	REQUIRE(p);
	CHECK_EQ(dmamap_cma_stats(p, &cs), -ENODEV);
	REQUIRE(dmamap_region_info(p, 0, &r) == 0);
	CHECK(strcmp(r.use, "released") == 0);
	CHECK_MSG(strstr(r.how, "aligned to 2 MiB") != NULL, "%s", r.how);
	dmamap_platform_destroy(p);
}

TEST(of_region_without_room_is_not_reserved)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	struct dmamap_device_info in;
	struct dmamap_region_info r;

	/* 64 KiB do not fit a 4 KiB range: Linux boots on without the region. */
	p = from_dts(RESV("r: r { compatible = \"restricted-dma-pool\"; size = <0x10000>;"
			  "  alloc-ranges = <0x80000000 0x1000>; };") DEV "};",
		     &err);
	SKIP_WITHOUT_FDT(err);
	REQUIRE_MSG(p != NULL, "%s", err.msg);
	REQUIRE(dmamap_device_info(dmamap_device_lookup(p, "dma@1"), &in) == 0);
	CHECK_EQ(in.restricted_pool_size, 0);
	CHECK(strcmp(in.ops, "direct") == 0);
	REQUIRE(dmamap_region_info(p, 0, &r) == 0);
	CHECK(strcmp(r.use, "not placed") == 0 && r.size == 0);
	CHECK_MSG(strstr(r.how, "no room") != NULL, "%s", r.how);
	dmamap_platform_destroy(p);
}

TEST(of_reusable_pool_without_default_serves_only_its_devices)
{
	struct dmamap_platform *p = dts_board(RESV(
		"own: own@82000000 { compatible = \"shared-dma-pool\"; reusable;"
		"  reg = <0x82000000 0x400000>; };")
		"dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; memory-region = <&own>; };"
		"dma@2 { compatible = \"dmamap,memcpy\"; reg = <0x2 0x1>; }; };");
	struct device *mine, *other;
	struct dmamap_device_info in;
	struct dmamap_cma_stats cs;
	void *a, *b;
	dma_addr_t ha, hb;

	REQUIRE(p);
	/* Not the board's default area. */
	CHECK_EQ(dmamap_cma_stats(p, &cs), -ENODEV);
	mine = dmamap_device_lookup(p, "dma@1");
	other = dmamap_device_lookup(p, "dma@2");
	REQUIRE(mine && other);
	REQUIRE(dmamap_device_info(mine, &in) == 0);
	CHECK_EQ(in.cma, 0x82000000ULL);
	CHECK_EQ(in.cma_size, 0x400000ULL);
	/* Its device's allocations come from it, even a single page (dma_alloc_contiguous). */
	a = dma_alloc_coherent(mine, PAGE_SIZE, &ha, GFP_KERNEL);
	REQUIRE(a);
	CHECK(ha >= 0x82000000ULL && ha < 0x82400000ULL);
	/* Another device's never do, and neither does the page allocator. */
	b = dma_alloc_coherent(other, 64 << 10, &hb, GFP_KERNEL);
	REQUIRE(b);
	CHECK(hb + (64 << 10) <= 0x82000000ULL || hb >= 0x82400000ULL);
	for (int i = 0; i < 256; i++) {
		struct page *pg = dmamap_alloc_pages(p, 4, 0);

		if (!pg)
			break;
		CHECK(page_to_phys(pg) + 16 * PAGE_SIZE <= 0x82000000ULL ||
		      page_to_phys(pg) >= 0x82400000ULL);
	}
	dma_free_coherent(mine, PAGE_SIZE, a, ha);
	dma_free_coherent(other, 64 << 10, b, hb);
	dmamap_platform_destroy(p);
}

TEST(board_device_cma_area_must_be_one_of_the_boards)
{
	struct dmamap_device_desc d = { .name = "dev", .cma_start = 0x82000000ULL,
					.cma_size = 0x400000 };
	struct dmamap_board b = {
		.name = "cma-areas",
		.nr_banks = 1,
		.banks = { { 0x80000000ULL, 64ULL << 20 } },
		.nr_cma_areas = 1,
		.cma_areas = { { 0x82000000ULL, 0x400000 } },
		.nr_devices = 1,
		.devices = &d,
	};
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_create(&b, &err);
	struct dmamap_device_info in;

	REQUIRE_MSG(p != NULL, "%s", err.msg);
	REQUIRE(dmamap_device_info(dmamap_device_lookup(p, "dev"), &in) == 0);
	CHECK_EQ(in.cma, 0x82000000ULL);
	dmamap_platform_destroy(p);
	/* A device naming an area the board does not have. */
	d.cma_start = 0x83000000ULL;
	CHECK(dmamap_platform_create(&b, &err) == NULL);
	CHECK_EQ(err.code, -EINVAL);
	CHECK_MSG(strstr(err.msg, "CMA") != NULL, "%s", err.msg);
	/* Areas that are not RAM or overlap are refused. */
	d.cma_start = 0x82000000ULL;
	b.cma_areas[0].start = 0x90000000ULL;
	CHECK(dmamap_platform_create(&b, &err) == NULL);
	CHECK_MSG(strstr(err.msg, "CMA area 0") != NULL, "%s", err.msg);
	b.cma_areas[0].start = 0x82000000ULL;
	b.nr_cma_areas = 2;
	b.cma_areas[1] = (struct dmamap_ram_bank){ 0x82200000ULL, 0x400000 };
	CHECK(dmamap_platform_create(&b, &err) == NULL);
	CHECK_MSG(strstr(err.msg, "CMA area 1") != NULL, "%s", err.msg);
	/* An area over the default CMA area. */
	b.nr_cma_areas = 1;
	b.cma_size = 0x800000;
	b.cma_start = 0x82000000ULL;
	CHECK(dmamap_platform_create(&b, &err) == NULL);
	CHECK_MSG(strstr(err.msg, "CMA area 0") != NULL, "%s", err.msg);
	/* More areas than a board keeps. */
	b.cma_size = 0;
	b.cma_start = 0;
	b.nr_cma_areas = DMAMAP_MAX_CMA + 1;
	CHECK(dmamap_platform_create(&b, &err) == NULL);
	CHECK_MSG(err.code == -EINVAL && strstr(err.msg, "board cma-areas: 9 CMA areas (at most 8)"), "%s", err.msg);
	/* The default area where there is no RAM, or not on a page. */
	b.nr_cma_areas = 0;
	b.nr_devices = 0;
	b.cma_size = 0x400000;
	b.cma_start = 0x90000000ULL;
	CHECK(dmamap_platform_create(&b, &err) == NULL);
	CHECK_MSG(strstr(err.msg, "board cma-areas: CMA area at 0x90000000 is not RAM"), "%s", err.msg);
	b.cma_start = 0x82000800ULL;
	CHECK(dmamap_platform_create(&b, &err) == NULL);
	CHECK_MSG(strstr(err.msg, "CMA area at 0x82000800 is not page aligned"), "%s", err.msg);
}

/* The boot allocations that come after /reserved-memory keep clear of it. */
TEST(of_bounce_pool_and_default_cma_keep_clear_of_reserved_regions)
{
	struct dmamap_platform *p = dts_board(
		"/dts-v1/; / { #address-cells = <1>; #size-cells = <1>; dmamap,cma-size = <0x400000>;"
		" memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; };"
		" reserved-memory { #address-cells = <1>; #size-cells = <1>; ranges;"
		"   low@80000000 { reg = <0x80000000 0x100000>; no-map; };"
		"   high@83f00000 { reg = <0x83f00000 0x100000>; }; }; };");
	struct dmamap_swiotlb_stats ss;
	struct dmamap_cma_stats cs;

	REQUIRE(p);
	REQUIRE(dmamap_swiotlb_stats(p, NULL, &ss) == 0);
	CHECK_EQ(ss.start, 0x80100000ULL);
	REQUIRE(dmamap_cma_stats(p, &cs) == 0);
	CHECK_EQ(cs.start, 0x83b00000ULL);
	CHECK_EQ(dmamap_region_info(p, 1, &(struct dmamap_region_info){ 0 }), 0);
	CHECK_EQ(dmamap_region_info(p, 0, NULL), -EINVAL);
	dmamap_platform_destroy(p);
}

/* memblock_mark_nomap() refuses memory already reserved, not memory already no-map. */
TEST(of_no_map_over_a_reservation_is_refused_over_no_map_it_is_not)
{
	struct dmamap_platform *p = dts_board(RESV(
		"a@82000000 { reg = <0x82000000 0x100000>; no-map; };"
		"b@82000000 { reg = <0x82000000 0x100000>; no-map; };"
		"r@83000000 { reg = <0x83000000 0x100000>; };"
		"n@83000000 { reg = <0x83000000 0x100000>; no-map; };") "};");
	struct dmamap_region_info r;
	unsigned int n = 0;

	REQUIRE(p);
	while (!dmamap_region_info(p, n, &r)) {
		CHECK_MSG(strcmp(r.name, "/reserved-memory/n@83000000") != 0, "n@83000000 was reserved");
		n++;
	}
	CHECK_EQ(n, 3);
	REQUIRE(dmamap_region_info(p, 1, &r) == 0);
	CHECK(strcmp(r.name, "/reserved-memory/b@82000000") == 0 && strcmp(r.use, "no-map") == 0);
	dmamap_platform_destroy(p);
}
