/* SPDX-License-Identifier: MIT */
/*
 * Memory from device trees: /reserved-memory as the kernel reads it (CMA,
 * a device's own pool, a restricted pool, the rules on no-map, reusable and
 * cells), RAM given by the caller instead of /memory, and more RAM than the
 * simulator backs refused.
 *
 * Each tree is compiled with dtc at test time; without libfdt (NO_FDT
 * builds) or without dtc the tests skip.
 */
#include <unistd.h>
#include "../helpers.h"

/* Whether the page allocator hands out the page at @phys (it takes every free page it has). */
static bool page_allocator_reaches(struct dmamap_platform *p, phys_addr_t phys)
{
	struct page *pages[1 << 14];
	unsigned int n = 0;
	bool hit = false;

	while (n < sizeof(pages) / sizeof(pages[0]) && (pages[n] = dmamap_alloc_pages(p, 0, 0)) != NULL)
		hit |= page_to_phys(pages[n++]) == phys;
	while (n)
		dmamap_free_pages(p, pages[--n], 0);
	return hit;
}

TEST(of_reserved_memory_cma_pool_and_restricted)
{
	struct dmamap_platform *p = dts_board(RESV(
		"cma: linux,cma@83000000 { compatible = \"shared-dma-pool\"; reusable;"
		"  reg = <0x83000000 0x400000>; linux,cma-default; };"
		"pool: pool@82000000 { compatible = \"shared-dma-pool\"; no-map;"
		"  reg = <0x82000000 0x100000>; };"
		"rest: restricted { compatible = \"restricted-dma-pool\"; size = <0x100000>;"
		"  alignment = <0x100000>; };")
		"smmu: iommu@9000 { reg = <0x9000 0x100>; #iommu-cells = <1>; };"
		"dma@10 { compatible = \"dmamap,memcpy\"; reg = <0x10 0x1>; memory-region = <&pool>; };"
		"dma@11 { compatible = \"dmamap,memcpy\"; reg = <0x11 0x1>; memory-region = <&rest>; };"
		"dma@12 { compatible = \"dmamap,memcpy\"; reg = <0x12 0x1>; memory-region = <&rest>;"
		"  iommus = <&smmu 1>; }; };");
	struct dmamap_cma_stats cs;
	struct dmamap_swiotlb_stats ss;
	struct device *pooled, *restricted, *behind;
	dma_addr_t h;
	uint8_t *buf;
	void *cpu;

	REQUIRE(p);
	/* CMA where the tree put it. */
	REQUIRE(dmamap_cma_stats(p, &cs) == 0);
	CHECK_EQ(cs.start, 0x83000000ULL);
	CHECK_EQ(cs.total_pages, 0x400000 >> PAGE_SHIFT);
	/* The device's own pool serves its coherent allocations first. */
	pooled = dmamap_device_lookup(p, "dma@10");
	REQUIRE(pooled);
	cpu = dma_alloc_coherent(pooled, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(h >= 0x82000000ULL && h < 0x82100000ULL);
	dma_free_coherent(pooled, PAGE_SIZE, cpu, h);
	/* The page allocator never hands out the reserved pool. */
	for (int i = 0; i < 512; i++) {
		struct page *pg = dmamap_alloc_pages(p, 4, 0);

		if (!pg)
			break;
		CHECK(page_to_phys(pg) + (16 * PAGE_SIZE) <= 0x82000000ULL ||
		      page_to_phys(pg) >= 0x82100000ULL);
	}
	/* The restricted pool: every mapping of that device bounces into it. */
	restricted = dmamap_device_lookup(p, "dma@11");
	behind = dmamap_device_lookup(p, "dma@12");
	REQUIRE(restricted && behind);
	REQUIRE(dmamap_swiotlb_stats(NULL, restricted, &ss) == 0);
	CHECK(strstr(ss.name, "restricted") != NULL);
	CHECK_EQ(ss.start & 0xfffff, 0);
	buf = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	h = dma_map_single(restricted, buf, 256, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(restricted, h));
	CHECK(dmamap_swiotlb_is_bounce(restricted, h));
	CHECK(h >= ss.start && h < ss.start + ss.total_slots * ss.slot_size);
	dma_unmap_single(restricted, h, 256, DMA_TO_DEVICE);
	/* Behind an IOMMU, the memory-region does not restrict the device. */
	h = dma_map_single(behind, buf, 256, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(behind, h));
	CHECK(!dmamap_swiotlb_is_bounce(behind, h));
	dma_unmap_single(behind, h, 256, DMA_TO_DEVICE);
	dmamap_platform_destroy(p);
}

TEST(of_reserved_memory_rules)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	struct dmamap_cma_stats cs;

	/* A reusable pool cannot be no-map: its setup refuses it and the memory goes back. */
	p = from_dts(RESV("bad: cma { compatible = \"shared-dma-pool\"; reusable; no-map;"
			  "  reg = <0x83000000 0x200000>; linux,cma-default; };") "};", &err);
	SKIP_WITHOUT_FDT(err);
	REQUIRE_MSG(p != NULL, "%s", err.msg);
	CHECK_EQ(dmamap_cma_stats(p, &cs), -ENODEV);
	CHECK(page_allocator_reaches(p, 0x83000000ULL));
	dmamap_platform_destroy(p);
	/* Cells that differ from the root's: the node is ignored, the board still builds. */
	p = from_dts(HEAD "reserved-memory { #address-cells = <2>; #size-cells = <2>; ranges;"
		     "  c { compatible = \"shared-dma-pool\"; reusable; reg = <0 0x83000000 0 0x100000>; }; }; };",
		     &err);
	REQUIRE(p);
	CHECK_EQ(dmamap_cma_stats(p, &cs), -ENODEV);
	dmamap_platform_destroy(p);
	/* 32-bit ARM: a device pool without no-map is refused by its setup; with it, used. */
	for (int nomap = 0; nomap < 2; nomap++) {
		struct dmamap_device_info in;
		char dts[1024];

		snprintf(dts, sizeof(dts),
			 "/dts-v1/; / { #address-cells = <1>; #size-cells = <1>; dmamap,cache-arch = \"armv5\";"
			 " memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; };"
			 " reserved-memory { #address-cells = <1>; #size-cells = <1>; ranges;"
			 "   pool: pool { compatible = \"shared-dma-pool\"; %s reg = <0x82000000 0x100000>; }; };"
			 " dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; memory-region = <&pool>; }; };",
			 nomap ? "no-map;" : "");
		p = from_dts(dts, &err);
		REQUIRE_MSG(p != NULL, "%s", err.msg);
		REQUIRE(dmamap_device_info(dmamap_device_lookup(p, "dma@1"), &in) == 0);
		CHECK_EQ(in.coherent_pool, nomap == 1);
		CHECK_EQ(page_allocator_reaches(p, 0x82000000ULL), nomap == 0);
		dmamap_platform_destroy(p);
	}
	/* A disabled region does not exist. */
	p = from_dts(RESV("c { compatible = \"shared-dma-pool\"; reusable; status = \"disabled\";"
			  "  reg = <0x83000000 0x100000>; };") "};", &err);
	REQUIRE(p);
	CHECK_EQ(dmamap_cma_stats(p, &cs), -ENODEV);
	dmamap_platform_destroy(p);
}

/* Firmware fills /memory at boot: the caller's RAM replaces the tree's
 * placeholder, and reserved regions are placed in it. */
TEST(of_ram_override_replaces_memory_nodes)
{
	static const char dts[] =
		"/dts-v1/; / { #address-cells = <1>; #size-cells = <1>;"
		" memory@0 { device_type = \"memory\"; reg = <0x0 0x0>; };"
		" reserved-memory { #address-cells = <1>; #size-cells = <1>; ranges;"
		"   cma { compatible = \"shared-dma-pool\"; reusable; size = <0x400000>;"
		"     linux,cma-default; }; };"
		" dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; };";
	struct dmamap_ram_bank ram[2] = { { 0x40000000, 0x2000000 }, { 0x60000000, 0x1000000 } };
	struct dmamap_of_options opts = { ram, 2 };
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	struct dmamap_ram_bank got;
	struct dmamap_cma_stats cs;
	char path[] = "/tmp/dmamap-test-XXXXXX.dts";
	int fd = mkstemps(path, 4);
	FILE *f;

	need_dts_support();
	REQUIRE(fd >= 0);
	f = fdopen(fd, "w");
	fputs(dts, f);
	fclose(f);
	p = dmamap_platform_from_file(path, &err);
	if (err.code == -ENOSYS) {
		unlink(path);
		SKIP_WITHOUT_FDT(err);
	}
	CHECK(p == NULL); /* the placeholder alone is no RAM */
	CHECK_MSG(strstr(err.msg, "no RAM") && strstr(err.msg, "--ram"), "%s", err.msg);
	p = dmamap_platform_from_file_opts(path, &opts, &err);
	REQUIRE(p);
	REQUIRE(dmamap_ram_bank(p, 1, &got) == 0);
	CHECK_EQ(got.start, 0x60000000ULL);
	CHECK_EQ(got.size, 0x1000000ULL);
	REQUIRE(dmamap_cma_stats(p, &cs) == 0);
	CHECK(cs.start >= 0x40000000ULL && cs.start + (cs.total_pages << PAGE_SHIFT) <= 0x62000000ULL);
	CHECK_EQ(cs.total_pages, 0x400000 >> PAGE_SHIFT);
	dmamap_platform_destroy(p);
	opts.nr_ram = 0;
	CHECK(dmamap_platform_from_file_opts(path, &opts, &err) == NULL);
	CHECK_EQ(err.code, -EINVAL);
	opts.nr_ram = DMAMAP_MAX_BANKS + 1;
	CHECK(dmamap_platform_from_file_opts(path, &opts, &err) == NULL);
	CHECK_EQ(err.code, -EINVAL);
	unlink(path);
}

/* More RAM than the simulator backs is a clean error, in one bank or split. */
TEST(of_ram_beyond_simulator_limit_rejected)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;

	p = from_dts("/dts-v1/; / { #address-cells = <2>; #size-cells = <2>;"
		     " memory@0 { device_type = \"memory\"; reg = <0x0 0x0 0x4400 0x0>; }; };", &err);
	SKIP_WITHOUT_FDT(err);
	CHECK(p == NULL);
	CHECK_EQ(err.code, -EINVAL);
	CHECK_MSG(strstr(err.msg, "MiB of RAM") != NULL, "msg: %s", err.msg);
	p = from_dts("/dts-v1/; / { #address-cells = <2>; #size-cells = <2>;"
		     " memory@0 { device_type = \"memory\"; reg = <0x0 0x0 0xc 0x0"
		     "   0x100 0x0 0xc 0x0>; }; };", &err);
	CHECK(p == NULL);
	CHECK_EQ(err.code, -EINVAL);
	CHECK_MSG(strstr(err.msg, "MiB of RAM") != NULL, "msg: %s", err.msg);
}

/* A board of two-cell addresses and sizes, with a /reserved-memory holding @body. */
#define WIDE_RESV(body)                                                                 \
	"/dts-v1/; / { #address-cells = <2>; #size-cells = <2>;"                        \
	" memory@80000000 { device_type = \"memory\"; reg = <0 0x80000000 0 0x4000000>; };" \
	" reserved-memory { #address-cells = <2>; #size-cells = <2>; ranges; " body " }; };"

/*
 * Sizes from a tree are sums the reader must not let wrap: a CMA size
 * near 2^64 (it wrapped the fit check and asked calloc for ~2^54 bytes), a
 * reserved region or an alloc-ranges that wraps the address space. Each is
 * refused, naming what is wrong; nothing huge is allocated.
 */
TEST(of_sizes_that_wrap_are_refused)
{
	static const char *const trees[] = {
		"/dts-v1/; / { #address-cells = <2>; #size-cells = <2>;"
		" dmamap,cma-size = <0xffffffff 0xffff0468>;"
		" memory@80000000 { device_type = \"memory\"; reg = <0 0x80000000 0 0x4000000>; }; };",
		WIDE_RESV("r { reg = <0xffffffff 0xfffff000 0 0x2000>; };"),
		WIDE_RESV("r { compatible = \"shared-dma-pool\"; size = <0 0x2000>;"
			  "  alloc-ranges = <0xffffffff 0xfffff000 0 0x2000>; };"),
	};
	static const char *const why[] = { "CMA", "wraps", "wraps" };

	for (unsigned int i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		struct dmamap_error err = { 0 };
		struct dmamap_platform *p = from_dts(trees[i], &err);

		SKIP_WITHOUT_FDT(err);
		CHECK_MSG(p == NULL, "tree %u built a board", i);
		CHECK_EQ(err.code, -EINVAL);
		CHECK_MSG(strstr(err.msg, why[i]) != NULL, "tree %u: %s", i, err.msg);
		dmamap_platform_destroy(p);
	}
}

/* The same CMA size through the C board description. */
TEST(board_cma_size_near_the_top_is_refused)
{
	struct dmamap_board b = {
		.name = "cma-wrap",
		.nr_banks = 1,
		.banks = { { 0x80000000ULL, 64ULL << 20 } },
		.cma_size = 0xffffffffffff0468ULL,
	};
	struct dmamap_error err = { 0 };

	CHECK(dmamap_platform_create(&b, &err) == NULL);
	CHECK_EQ(err.code, -EINVAL);
	CHECK_MSG(strstr(err.msg, "CMA") != NULL, "%s", err.msg);
}

/*
 * ZONE_DMA from the tree when the board does not say: the lowest CPU end of
 * any dma-ranges (of_dma_get_max_cpu_address()), at most 4 GiB while RAM
 * starts below it, as arm64's zone_sizes_init().
 */
TEST(of_zone_dma_sized_from_the_narrowest_dma_ranges)
{
	struct dmamap_platform *p = dts_board(
		"/dts-v1/; / { #address-cells = <1>; #size-cells = <1>;"
		" memory@0 { device_type = \"memory\"; reg = <0x0 0x10000000>; };"
		" wide { " SIMPLE_BUS " dma-ranges = <0x0 0x0 0x8000000>; };"
		" isa { " SIMPLE_BUS " dma-ranges = <0x0 0x0 0x1000000>; };"
		" dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; };");
	struct device *dev;
	struct page *pg;

	REQUIRE(p);
	CHECK_EQ(dmamap_zone_dma_limit(p), 0xffffffULL);
	dev = dmamap_device_lookup(p, "dma@1");
	REQUIRE(dev);
	/* A 24-bit mask reaches the top of ZONE_DMA (16 MiB), where its fallback memory is. */
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(24)), 0);
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(23)), -EIO);
	pg = dmamap_alloc_pages(p, 0, __GFP_DMA);
	REQUIRE(pg);
	CHECK(page_to_phys(pg) < 0x1000000ULL);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
	/* Without dma-ranges: the low 4 GiB, here all of RAM; a 24-bit mask no longer reaches it. */
	p = dts_board("/dts-v1/; / { #address-cells = <1>; #size-cells = <1>;"
		      " memory@0 { device_type = \"memory\"; reg = <0x0 0x10000000>; };"
		      " dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; };");
	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma@1");
	REQUIRE(dev);
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(24)), -EIO);
	CHECK_EQ(dma_set_mask(dev, DMA_BIT_MASK(28)), 0);
	CHECK_EQ(dmamap_zone_dma_limit(p), 0xfffffffULL);
	dmamap_platform_destroy(p);
}

/*
 * Two devices naming the same restricted-dma-pool share one pool (one
 * io_tlb_mem per region, as Linux): their bounce slots never collide, and
 * the pool outlives the first device to go.
 */
TEST(of_devices_sharing_a_restricted_pool_share_its_slots)
{
	struct dmamap_platform *p = dts_board(RESV(
		"rest: rest@83000000 { compatible = \"restricted-dma-pool\"; reg = <0x83000000 0x100000>; };")
		"dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; memory-region = <&rest>; };"
		"dma@2 { compatible = \"dmamap,memcpy\"; reg = <0x2 0x1>; memory-region = <&rest>; }; };");
	struct dmamap_swiotlb_stats a, b;
	struct device *d1, *d2;
	uint8_t *x, *y, got[256];
	dma_addr_t h1, h2;

	REQUIRE(p);
	d1 = dmamap_device_lookup(p, "dma@1");
	d2 = dmamap_device_lookup(p, "dma@2");
	REQUIRE(d1 && d2);
	REQUIRE(dmamap_swiotlb_stats(NULL, d1, &a) == 0 && dmamap_swiotlb_stats(NULL, d2, &b) == 0);
	CHECK_EQ(a.start, b.start);
	x = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA_ALIGN);
	y = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(x && y);
	memset(x, 0x11, 256);
	memset(y, 0x22, 256);
	h1 = dma_map_single(d1, x, 256, DMA_TO_DEVICE);
	h2 = dma_map_single(d2, y, 256, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(d1, h1) && !dma_mapping_error(d2, h2));
	CHECK(h1 != h2);
	REQUIRE(dmamap_device_read(d1, h1, got, 256) == 0);
	CHECK_EQ(got[0], 0x11);
	REQUIRE(dmamap_device_read(d2, h2, got, 256) == 0);
	CHECK_EQ(got[255], 0x22);
	REQUIRE(dmamap_swiotlb_stats(NULL, d2, &b) == 0);
	CHECK_EQ(b.used_slots, 2); /* one slot each, in one pool */
	dma_unmap_single(d1, h1, 256, DMA_TO_DEVICE);
	dmamap_device_destroy(d1);
	/* The pool stays for the other device. */
	dma_unmap_single(d2, h2, 256, DMA_TO_DEVICE);
	h2 = dma_map_single(d2, y, 256, DMA_TO_DEVICE);
	CHECK(!dma_mapping_error(d2, h2) && dmamap_swiotlb_is_bounce(d2, h2));
	dma_unmap_single(d2, h2, 256, DMA_TO_DEVICE);
	dmamap_kfree(p, x);
	dmamap_kfree(p, y);
	dmamap_platform_destroy(p);
}
