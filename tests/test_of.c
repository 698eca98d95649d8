/* SPDX-License-Identifier: MIT */
/*
 * Boards from device trees: the kernel's dma-ranges walk, the masks and
 * limit a map implies, coherency inheritance, iommus, errors that name the
 * node and property, and a corrupt-blob fuzz. Each tree is compiled with
 * dtc at test time; without libfdt (NO_FDT builds) the tests skip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <dmamap/dmamap.h>
#include "helpers.h"

TEST(of_parent_dma_ranges_offset_and_masks)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(HEAD
		"bus { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  dma-ranges = <0x0 0x80000000 0x4000000>;"
		"  dma@1000 { compatible = \"dmamap,memcpy\"; reg = <0x1000 0x100>; }; }; };", &err);
	struct device *dev;
	uint8_t *buf, put[64];
	dma_addr_t h;

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma@1000");
	REQUIRE(dev);
	CHECK(!dev_is_dma_coherent(dev));
	CHECK_EQ(dmamap_phys_to_dma(dev, 0x80001000ULL), 0x1000);
	CHECK_EQ(dmamap_bus_dma_limit(dev), 0x3ffffff);
	/* The map narrows the default 32-bit masks to 26 bits. */
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(26));
	buf = dmamap_kmalloc(p, 64, DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	h = dma_map_single(dev, buf, 64, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	CHECK(h < 0x4000000);
	memset(put, 0xa5, sizeof(put));
	CHECK_EQ(dmamap_device_write(dev, h, put, 64), 0);
	dma_unmap_single(dev, h, 64, DMA_FROM_DEVICE);
	CHECK_MEM(buf, put, 64);
	dmamap_platform_destroy(p);
}

TEST(of_empty_dma_ranges_keeps_walking_missing_stops)
{
	struct dmamap_error err = { 0 };
	/* inner: empty (keep walking); outer: the real map. */
	struct dmamap_platform *p = from_dts(HEAD
		"outer { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  dma-ranges = <0x10000000 0x80000000 0x4000000>;"
		"  inner { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"    dma-ranges;"
		"    dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; };"
		/* a bus above the device's parent that lacks dma-ranges: no map */
		"nomap { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  mid { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"    dma-ranges;"
		"    dma@2 { compatible = \"dmamap,memcpy\"; reg = <0x2 0x1>; }; }; }; };", &err);
	struct device *a, *b;

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	a = dmamap_device_lookup(p, "dma@1");
	b = dmamap_device_lookup(p, "dma@2");
	REQUIRE(a && b);
	CHECK_EQ(dmamap_phys_to_dma(a, 0x80000000ULL), 0x10000000);
	/* mid's dma-ranges is empty, nomap has none after it: identity, no limit. */
	CHECK_EQ(dmamap_phys_to_dma(b, 0x80000000ULL), 0x80000000ULL);
	CHECK_EQ(dmamap_bus_dma_limit(b), 0);
	CHECK_EQ(dma_get_mask(b), DMA_BIT_MASK(32));
	dmamap_platform_destroy(p);
}

TEST(of_parent_address_translated_up_and_unreachable_dropped)
{
	struct dmamap_error err = { 0 };
	/* The inner bus's parent addresses (0x40000000..) are the outer bus's child space. */
	struct dmamap_platform *p = from_dts(HEAD
		"outer { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  dma-ranges = <0x40000000 0x80000000 0x2000000>;"
		"  inner { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"    dma-ranges = <0x0 0x40000000 0x1000000 0x9000000 0x70000000 0x1000000>;"
		"    dma@3 { compatible = \"dmamap,memcpy\"; reg = <0x3 0x1>; }; }; }; };", &err);
	struct device *dev;

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma@3");
	REQUIRE(dev);
	/* Entry 1: bus 0 -> outer 0x40000000 -> CPU 0x80000000. Entry 2 (0x70000000) is
	 * outside outer's dma-ranges: dropped. */
	CHECK_EQ(dmamap_phys_to_dma(dev, 0x80000000ULL), 0);
	CHECK_EQ(dmamap_dma_to_phys(dev, 0x9000000), (phys_addr_t)-1);
	CHECK_EQ(dmamap_bus_dma_limit(dev), 0xffffff);
	dmamap_platform_destroy(p);
}

TEST(of_coherency_inherited_and_overridden)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(HEAD
		"bus { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  dma-coherent;"
		"  dma@4 { compatible = \"dmamap,memcpy\"; reg = <0x4 0x1>; };"
		"  dma@5 { compatible = \"dmamap,memcpy\"; reg = <0x5 0x1>; dma-noncoherent; };"
		"  dma@6 { compatible = \"dmamap,memcpy\"; reg = <0x6 0x1>; status = \"disabled\"; }; };"
		"dma@7 { compatible = \"dmamap,memcpy\"; reg = <0x7 0x1>; }; };", &err);

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	CHECK(dev_is_dma_coherent(dmamap_device_lookup(p, "dma@4")));
	CHECK(!dev_is_dma_coherent(dmamap_device_lookup(p, "dma@5")));
	CHECK(dmamap_device_lookup(p, "dma@6") == NULL);
	CHECK(!dev_is_dma_coherent(dmamap_device_lookup(p, "dma@7")));
	dmamap_platform_destroy(p);
}

TEST(of_iommus_own_property_and_disabled_iommu)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(HEAD
		"smmu: iommu@9000 { reg = <0x9000 0x100>; #iommu-cells = <1>; };"
		"off: iommu@a000 { reg = <0xa000 0x100>; #iommu-cells = <1>; status = \"disabled\"; };"
		"dma@8 { compatible = \"dmamap,memcpy\"; reg = <0x8 0x1>; iommus = <&smmu 3>; };"
		"dma@9 { compatible = \"dmamap,memcpy\"; reg = <0x9 0x1>; iommus = <&off 4>; }; };", &err);
	struct dmamap_iommu_stats s;

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	CHECK_EQ(dmamap_iommu_stats(dmamap_device_lookup(p, "dma@8"), &s), 0);
	CHECK_EQ(dmamap_iommu_stats(dmamap_device_lookup(p, "dma@9"), &s), -ENODEV);
	dmamap_platform_destroy(p);
}

TEST(of_errors_name_node_and_property)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;

	p = from_dts(HEAD "bus { #address-cells = <1>; #size-cells = <1>; ranges;"
		     "  dma-ranges = <0x0 0x80000000>;"
		     "  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; };", &err);
	SKIP_WITHOUT_FDT(err);
	CHECK(p == NULL);
	CHECK_EQ(err.code, -EINVAL);
	CHECK_MSG(strstr(err.msg, "/bus") && strstr(err.msg, "dma-ranges"), "msg: %s", err.msg);

	p = from_dts(HEAD "dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>;"
		     " iommus = <0x77 1>; }; };", &err);
	CHECK(p == NULL);
	CHECK_MSG(strstr(err.msg, "/dma@1") && strstr(err.msg, "iommus"), "msg: %s", err.msg);

	p = from_dts("/dts-v1/; / { #address-cells = <1>; #size-cells = <1>; };", &err);
	CHECK(p == NULL);
	CHECK_MSG(strstr(err.msg, "memory") != NULL, "msg: %s", err.msg);

	p = from_dts(HEAD "memory@81000000 { device_type = \"memory\"; reg = <0x81000000 0x1000000>; }; };",
		     &err);
	CHECK(p == NULL);
	CHECK_MSG(strstr(err.msg, "overlap") != NULL, "msg: %s", err.msg);

	CHECK(dmamap_platform_from_file("/nonexistent/board.dtb", &err) == NULL);
	CHECK_EQ(err.code, -ENOENT);
	CHECK(dmamap_platform_from_fdt(NULL, 0, &err) == NULL);
	CHECK_EQ(err.code, -EINVAL);
}

/* Flip, truncate and scribble over a valid blob: errors, never a crash. */
TEST(of_fuzz_corrupt_blobs_never_crash)
{
	struct dmamap_error err = { 0 };
	uint8_t blob[8192], bad[8192];
	uint64_t s = 12345;
	size_t n = board_blob(blob, sizeof(blob));
	int made = 0;

	if (!n)
		return;
	{
		struct dmamap_platform *p = dmamap_platform_from_fdt(blob, n, &err);

		SKIP_WITHOUT_FDT(err);
		REQUIRE(p);
		dmamap_platform_destroy(p);
	}
	for (int i = 0; i < 3000; i++) {
		size_t len = n;
		struct dmamap_platform *p;

		memcpy(bad, blob, n);
		for (int k = 0; k < 1 + i % 8; k++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			bad[s % n] ^= (uint8_t)(1u << (s >> 60 & 7));
		}
		if (i % 5 == 0)
			len = s % n;
		p = dmamap_platform_from_fdt(bad, len, &err);
		if (p) {
			made++;
			dmamap_platform_destroy(p);
		} else {
			CHECK(err.code < 0);
		}
	}
	printf("# %d of 3000 corrupted blobs still described a board\n", made);
}

/* Old format versions are refused by name (libfdt's full check crashed on some). */
TEST(of_old_format_versions_refused)
{
	struct dmamap_error err = { 0 };
	uint8_t blob[8192], old[8192];
	size_t n = board_blob(blob, sizeof(blob));

	if (!n)
		return;
	for (uint8_t v = 2; v <= 17; v++) {
		struct dmamap_platform *p;

		memcpy(old, blob, n);
		old[0x17] = v; /* version, big-endian */
		old[0x1b] = v < 16 ? v : 16; /* last compatible version */
		p = dmamap_platform_from_fdt(old, n, &err);
		SKIP_WITHOUT_FDT(err);
		if (v < 16) {
			CHECK_MSG(p == NULL, "version %u accepted", v);
			CHECK_EQ(err.code, -EINVAL);
			CHECK_MSG(strstr(err.msg, "version") != NULL, "version %u: %s", v, err.msg);
		} else {
			CHECK_MSG(p != NULL, "version %u: %s", v, err.msg);
		}
		dmamap_platform_destroy(p);
	}
}

TEST(of_reserved_memory_cma_pool_and_restricted)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(RESV(
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
		"  iommus = <&smmu 1>; }; };", &err);
	struct dmamap_cma_stats cs;
	struct dmamap_swiotlb_stats ss;
	struct device *pooled, *restricted, *behind;
	dma_addr_t h;
	uint8_t *buf;
	void *cpu;

	SKIP_WITHOUT_FDT(err);
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

	p = from_dts(RESV("bad: cma { compatible = \"shared-dma-pool\"; reusable; no-map;"
			  "  reg = <0x83000000 0x100000>; };") "};", &err);
	SKIP_WITHOUT_FDT(err);
	CHECK(p == NULL);
	CHECK_MSG(strstr(err.msg, "/reserved-memory/cma") && strstr(err.msg, "no-map"),
		  "msg: %s", err.msg);
	/* Cells that differ from the root's: the node is ignored, the board still builds. */
	p = from_dts(HEAD "reserved-memory { #address-cells = <2>; #size-cells = <2>; ranges;"
		     "  c { compatible = \"shared-dma-pool\"; reusable; reg = <0 0x83000000 0 0x100000>; }; }; };",
		     &err);
	REQUIRE(p);
	CHECK_EQ(dmamap_cma_stats(p, &cs), -ENODEV);
	dmamap_platform_destroy(p);
	/* 32-bit ARM: a device pool without no-map is refused; with it, accepted. */
	p = from_dts("/dts-v1/; / { #address-cells = <1>; #size-cells = <1>; dmamap,cache-arch = \"armv5\";"
		     " memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; };"
		     " reserved-memory { #address-cells = <1>; #size-cells = <1>; ranges;"
		     "   pool { compatible = \"shared-dma-pool\"; reg = <0x82000000 0x100000>; }; }; };", &err);
	CHECK(p == NULL);
	CHECK_MSG(strstr(err.msg, "/reserved-memory/pool") && strstr(err.msg, "no-map"),
		  "msg: %s", err.msg);
	p = from_dts("/dts-v1/; / { #address-cells = <1>; #size-cells = <1>; dmamap,cache-arch = \"armv5\";"
		     " memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; };"
		     " reserved-memory { #address-cells = <1>; #size-cells = <1>; ranges;"
		     "   pool { compatible = \"shared-dma-pool\"; no-map; reg = <0x82000000 0x100000>; }; }; };", &err);
	CHECK_MSG(p != NULL, "msg: %s", err.msg);
	dmamap_platform_destroy(p);
	/* A disabled region does not exist. */
	p = from_dts(RESV("c { compatible = \"shared-dma-pool\"; reusable; status = \"disabled\";"
			  "  reg = <0x83000000 0x100000>; };") "};", &err);
	REQUIRE(p);
	CHECK_EQ(dmamap_cma_stats(p, &cs), -ENODEV);
	dmamap_platform_destroy(p);
}

/* The boards/ .dts files are compiled at build time and embedded: no files needed. */
TEST(of_builtin_boards_from_embedded_dts)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_builtin("rpi4-like", &err);
	bool listed = false;
	struct device *dev;

	SKIP_WITHOUT_FDT(err);
	if (!p && err.code == -ENOENT) {
		printf("# skipped: built without embedded boards\n");
		return;
	}
	REQUIRE(p);
	for (const char *const *n = dmamap_platform_builtin_names(); *n; n++)
		listed |= !strcmp(*n, "rpi4-like");
	CHECK(listed);
	/* RAM at 0 is seen at 0xc0000000 through the soc bus's 30-bit window. */
	dev = dmamap_device_lookup(p, "dma@7e007000");
	REQUIRE(dev);
	CHECK_EQ(dmamap_phys_to_dma(dev, 0x1000), 0xc0001000ULL);
	CHECK(!dev_is_dma_coherent(dev));
	dev = dmamap_device_lookup(p, "dma@7e800000");
	REQUIRE(dev);
	CHECK(dev_is_dma_coherent(dev));
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(30));
	dmamap_platform_destroy(p);
}

TEST(of_builtin_server_and_x86_boards)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = dmamap_platform_builtin("arm64-server", &err);
	struct dmamap_cma_stats cs;
	struct dmamap_iommu_stats is;

	SKIP_WITHOUT_FDT(err);
	if (!p && err.code == -ENOENT)
		return;
	REQUIRE(p);
	/* Coherent from the root's dma-coherent; the SMMU master gets the iommu ops. */
	CHECK(dev_is_dma_coherent(dmamap_device_lookup(p, "dma@50000000")));
	CHECK_EQ(dmamap_iommu_stats(dmamap_device_lookup(p, "pcie-dma@40000000"), &is), 0);
	CHECK_EQ(dmamap_iommu_stats(dmamap_device_lookup(p, "dma@50000000"), &is), -ENODEV);
	/* The dynamic CMA region was placed in RAM, 16 MiB. */
	REQUIRE(dmamap_cma_stats(p, &cs) == 0);
	CHECK_EQ(cs.total_pages, (16 << 20) >> PAGE_SHIFT);
	CHECK(dmamap_phys_to_virt(p, cs.start) != NULL);
	dmamap_platform_destroy(p);

	p = dmamap_platform_builtin("x86-like", &err);
	REQUIRE(p);
	{
		struct device *dev = dmamap_device_lookup(p, "dma@fe000000");
		struct page *hi = dmamap_alloc_pages(p, 0, 0);
		dma_addr_t h;

		REQUIRE(dev && hi);
		/* A page above 4 GiB bounces for the 32-bit master. */
		if (page_to_phys(hi) >= 0x100000000ULL) {
			h = dma_map_page(dev, hi, 0, 64, DMA_TO_DEVICE);
			REQUIRE(!dma_mapping_error(dev, h));
			CHECK(h < 0x100000000ULL);
			CHECK(dmamap_swiotlb_is_bounce(dev, h));
			dma_unmap_page(dev, h, 64, DMA_TO_DEVICE);
		}
		dmamap_free_pages(p, hi, 0);
	}
	dmamap_platform_destroy(p);
}

TEST(of_pci_host_dma_ranges_and_iommu_map)
{
	struct dmamap_error err = { 0 };
	/* A PCI host: 3-cell child addresses (flags first), its own dma-ranges apply,
	 * and its iommu-map gives each function a stream id on the SMMU. */
	struct dmamap_platform *p = from_dts(HEAD
		"smmu: iommu@9000 { reg = <0x9000 0x100>; #iommu-cells = <1>; };"
		"pcie@40000000 { device_type = \"pci\"; #address-cells = <3>; #size-cells = <2>;"
		"  reg = <0x40000000 0x1000>;"
		"  dma-ranges = <0x02000000 0x0 0x0 0x80000000 0x0 0x4000000>;"
		"  iommu-map = <0x0 &smmu 0x10000 0x100>; iommu-map-mask = <0xfff8>;"
		"  dma@0,1 { compatible = \"dmamap,memcpy\"; reg = <0x0100 0 0 0 0>; }; }; };",
		&err);
	struct dmamap_device_info in;

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	REQUIRE(dmamap_device_info(dmamap_device_lookup(p, "dma@0,1"), &in) == 0);
	CHECK_EQ(in.nr_ranges, 1);
	CHECK_EQ(in.ranges[0].cpu_start, 0x80000000ULL);
	CHECK_EQ(in.ranges[0].dma_start, 0);
	CHECK(strcmp(in.iommu, "iommu@9000") == 0);
	/* RID 0x01 (bus 0, dev 0, fn 1) masked with 0xfff8 -> 0: stream 0x10000. */
	CHECK_EQ(in.iommu_stream, 0x10000);
	CHECK(strcmp(in.ops, "iommu") == 0);
	dmamap_platform_destroy(p);
}

/* Entries contiguous in both spaces are one region; a gap keeps them apart. */
TEST(of_contiguous_dma_ranges_merge)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(HEAD
		"bus { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  dma-ranges = <0x0 0x80000000 0x1000000 0x1000000 0x81000000 0x1000000"
		"                0x3000000 0x82000000 0x1000000>;"
		"  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; };", &err);
	struct dmamap_device_info in;

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	REQUIRE(dmamap_device_info(dmamap_device_lookup(p, "dma@1"), &in) == 0);
	CHECK_EQ(in.nr_ranges, 2);
	CHECK_EQ(in.ranges[0].size, 0x2000000);
	CHECK_EQ(in.ranges[1].dma_start, 0x3000000);
	/* The limit is the highest bus address any entry reaches. */
	CHECK_EQ(in.bus_dma_limit, 0x3ffffff);
	CHECK_EQ(dmamap_phys_to_dma(dmamap_device_lookup(p, "dma@1"), 0x82000000ULL), 0x3000000);
	dmamap_platform_destroy(p);
}

/* iommus belongs to the node that has it: a bus's does not reach its children. */
TEST(of_iommus_not_inherited)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(HEAD
		"smmu: iommu@9000 { reg = <0x9000 0x100>; #iommu-cells = <1>; };"
		"bus { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  iommus = <&smmu 1>;"
		"  dma@2 { compatible = \"dmamap,memcpy\"; reg = <0x2 0x1>; }; }; };", &err);
	struct dmamap_device_info in;

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	REQUIRE(dmamap_device_info(dmamap_device_lookup(p, "dma@2"), &in) == 0);
	CHECK_EQ(in.iommu[0], '\0');
	CHECK(strcmp(in.ops, "iommu") != 0);
	dmamap_platform_destroy(p);
}

/* Nodes without a model are configured (info sees them); cpus, memory and
 * disabled subtrees are not devices. Names stay unique. */
TEST(of_modelless_nodes_configured)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(HEAD
		"cpus { #address-cells = <1>; #size-cells = <0>; cpu@0 { device_type = \"cpu\"; reg = <0>; }; };"
		"a { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  dma-ranges = <0x0 0x80000000 0x4000000>;"
		"  eth@10 { compatible = \"vendor,eth\"; reg = <0x10 0x10>; }; };"
		"b { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  eth@10 { compatible = \"vendor,eth\"; reg = <0x10 0x10>; dma-coherent; }; };"
		"off { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  status = \"disabled\"; usb@20 { reg = <0x20 0x10>; }; }; };", &err);
	struct dmamap_device_info in;

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	REQUIRE(dmamap_device_info(dmamap_device_lookup(p, "eth@10"), &in) == 0);
	CHECK_EQ(in.model[0], '\0');
	CHECK_EQ(in.bus_dma_limit, 0x3ffffff);
	CHECK(strcmp(in.path, "/a/eth@10") == 0);
	REQUIRE(dmamap_device_info(dmamap_device_lookup(p, "/b/eth@10"), &in) == 0);
	CHECK(in.coherent);
	CHECK(strcmp(in.path, "/b/eth@10") == 0);
	CHECK(dmamap_device_lookup(p, "usb@20") == NULL);
	CHECK(dmamap_device_lookup(p, "cpu@0") == NULL);
	CHECK(dmamap_device_lookup(p, "memory@80000000") == NULL);
	dmamap_platform_destroy(p);
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

/* The parent may lack dma-ranges (first hop); the grandparent's map applies. */
TEST(of_first_hop_may_lack_dma_ranges)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(HEAD
		"soc { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  dma-ranges = <0x20000000 0x80000000 0x4000000>;"
		"  sub { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"    dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; }; };", &err);
	struct device *dev;

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma@1");
	REQUIRE(dev);
	CHECK_EQ(dmamap_phys_to_dma(dev, 0x80002000ULL), 0x20002000);
	CHECK_EQ(dmamap_bus_dma_limit(dev), 0x23ffffff);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(30));
	dmamap_platform_destroy(p);
}

/* end = 0x2ffffff: mask = DMA_BIT_MASK(ilog2(end) + 1) = 26 bits, limit = end;
 * a wider dma_set_mask() is accepted but allocations stay under the limit. */
TEST(of_limit_and_mask_arithmetic_and_widening)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(HEAD
		"bus { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  dma-ranges = <0x0 0x80000000 0x3000000>;"
		"  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; };", &err);
	struct device *dev;
	dma_addr_t h[64];
	void *cpu[64];

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma@1");
	REQUIRE(dev);
	CHECK_EQ(dmamap_bus_dma_limit(dev), 0x2ffffff);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(26));
	CHECK_EQ(dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64)), 0);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(64));
	CHECK_EQ(dmamap_bus_dma_limit(dev), 0x2ffffff);
	/* 64 x 256 KiB = 16 MiB: more than the low half, all under the limit. */
	for (int i = 0; i < 64; i++) {
		cpu[i] = dma_alloc_coherent(dev, 256 << 10, &h[i], GFP_KERNEL);
		if (cpu[i])
			CHECK_MSG(h[i] + (256 << 10) - 1 <= 0x2ffffff, "h 0x%llx", (unsigned long long)h[i]);
	}
	for (int i = 0; i < 64; i++)
		if (cpu[i])
			dma_free_coherent(dev, 256 << 10, cpu[i], h[i]);
	dmamap_platform_destroy(p);
}

/* The cpus' d-cache-line-size is the board's line (ARCH_DMA_MINALIGN). */
TEST(of_cache_line_from_cpus)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(HEAD
		"cpus { #address-cells = <1>; #size-cells = <0>;"
		"  cpu@0 { device_type = \"cpu\"; reg = <0>; d-cache-line-size = <128>; }; };"
		"dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; };", &err);

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	CHECK_EQ(dmamap_cache_line_size(p), 128);
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

/* A platform device's own dma-ranges describe its children, not itself. */
TEST(of_own_dma_ranges_do_not_apply_to_the_device)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(HEAD
		"bus { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  dma-ranges = <0x10000000 0x80000000 0x4000000>;"
		"  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>;"
		"    #address-cells = <1>; #size-cells = <1>;"
		"    dma-ranges = <0x0 0x10000000 0x1000000>; }; }; };", &err);
	struct device *dev;

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma@1");
	REQUIRE(dev);
	CHECK_EQ(dmamap_phys_to_dma(dev, 0x80000000ULL), 0x10000000);
	CHECK_EQ(dmamap_bus_dma_limit(dev), 0x13ffffff);
	dmamap_platform_destroy(p);
}

/* Behind an IOMMU the bus still limits what the device drives: every IOVA
 * stays under the dma-ranges end (16 MiB here), even with a 32-bit mask,
 * so 20 MiB of mappings cannot all fit. */
TEST(of_iommu_iova_within_bus_limit)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = from_dts(HEAD
		"smmu: iommu@9000 { reg = <0x9000 0x100>; #iommu-cells = <1>; };"
		"bus { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  dma-ranges = <0x0 0x80000000 0x1000000>;"
		"  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; iommus = <&smmu 5>; }; }; };",
		&err);
	struct device *dev;
	struct page *pg[80];
	dma_addr_t h[80];
	int mapped = 0, refused = 0;

	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma@1");
	REQUIRE(dev);
	CHECK_EQ(dmamap_bus_dma_limit(dev), 0xffffff);
	CHECK_EQ(dma_get_mask(dev), DMA_BIT_MASK(24));
	REQUIRE(dma_set_mask(dev, DMA_BIT_MASK(32)) == 0);
	for (int i = 0; i < 80; i++) {
		pg[i] = dmamap_alloc_pages(p, 6, 0);
		REQUIRE(pg[i]);
		h[i] = dma_map_page(dev, pg[i], 0, 256 << 10, DMA_TO_DEVICE);
		if (dma_mapping_error(dev, h[i])) {
			refused++;
			continue;
		}
		CHECK_MSG(h[i] + (256 << 10) - 1 <= 0xffffff, "iova 0x%llx", (unsigned long long)h[i]);
		mapped++;
	}
	CHECK(mapped >= 56);
	CHECK(refused > 0);
	for (int i = 0; i < 80; i++) {
		if (!dma_mapping_error(dev, h[i]))
			dma_unmap_page(dev, h[i], 256 << 10, DMA_TO_DEVICE);
		dmamap_free_pages(p, pg[i], 6);
	}
	dmamap_platform_destroy(p);
}

/* A real SoC has hundreds of register blocks: the live devices are always
 * configured, model-less ones up to the limit, the rest skipped with a warning. */
TEST(of_many_nodes_live_devices_first)
{
	struct dmamap_error err = { 0 };
	size_t cap = 64 << 10, n = 0;
	char *dts = malloc(cap);
	struct dmamap_platform *p;

	REQUIRE(dts);
	n += (size_t)snprintf(dts + n, cap - n, "%s", HEAD);
	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(dts + n, cap - n, "blk@%x { reg = <0x%x 0x10>; }; ",
				      0x10000 + i * 0x100, 0x10000 + i * 0x100);
	snprintf(dts + n, cap - n, "dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; };");
	p = from_dts(dts, &err);
	free(dts);
	SKIP_WITHOUT_FDT(err);
	REQUIRE(p);
	CHECK(dmamap_device_lookup(p, "dma@1") != NULL);
	CHECK(dmamap_device_lookup(p, "blk@10000") != NULL);
	CHECK(dmamap_device_lookup(p, "blk@1ff00") == NULL);
	CHECK_EQ(dmamap_device_count(p), 256);
	dmamap_platform_destroy(p);
}
