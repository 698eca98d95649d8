/* SPDX-License-Identifier: MIT */
/*
 * Device properties from device trees: coherency inherited and overridden,
 * iommus (a node's own, not inherited, a disabled IOMMU means none, the bus
 * still limits the IOVAs), the cpus' cache line, nodes without a model, and
 * a limit on devices that configures the live ones first.
 *
 * Each tree is compiled with dtc at test time; without libfdt (NO_FDT
 * builds) or without dtc the tests skip.
 */
#include "../helpers.h"

TEST(of_coherency_inherited_and_overridden)
{
	struct dmamap_platform *p = dts_board(HEAD
		"bus { " SIMPLE_BUS
		"  dma-coherent;"
		"  dma@4 { compatible = \"dmamap,memcpy\"; reg = <0x4 0x1>; };"
		"  dma@5 { compatible = \"dmamap,memcpy\"; reg = <0x5 0x1>; dma-noncoherent; };"
		"  dma@6 { compatible = \"dmamap,memcpy\"; reg = <0x6 0x1>; status = \"disabled\"; }; };"
		"dma@7 { compatible = \"dmamap,memcpy\"; reg = <0x7 0x1>; }; };");

	REQUIRE(p);
	CHECK(dev_is_dma_coherent(dmamap_device_lookup(p, "dma@4")));
	CHECK(!dev_is_dma_coherent(dmamap_device_lookup(p, "dma@5")));
	CHECK(dmamap_device_lookup(p, "dma@6") == NULL);
	CHECK(!dev_is_dma_coherent(dmamap_device_lookup(p, "dma@7")));
	dmamap_platform_destroy(p);
}

TEST(of_iommus_own_property_and_disabled_iommu)
{
	struct dmamap_platform *p = dts_board(HEAD
		"smmu: iommu@9000 { reg = <0x9000 0x100>; #iommu-cells = <1>; };"
		"off: iommu@a000 { reg = <0xa000 0x100>; #iommu-cells = <1>; status = \"disabled\"; };"
		"dma@8 { compatible = \"dmamap,memcpy\"; reg = <0x8 0x1>; iommus = <&smmu 3>; };"
		"dma@9 { compatible = \"dmamap,memcpy\"; reg = <0x9 0x1>; iommus = <&off 4>; }; };");
	struct dmamap_iommu_stats s;

	REQUIRE(p);
	CHECK_EQ(dmamap_iommu_stats(dmamap_device_lookup(p, "dma@8"), &s), 0);
	CHECK_EQ(dmamap_iommu_stats(dmamap_device_lookup(p, "dma@9"), &s), -ENODEV);
	dmamap_platform_destroy(p);
}

/* iommus belongs to the node that has it: a bus's does not reach its children. */
TEST(of_iommus_not_inherited)
{
	struct dmamap_platform *p = dts_board(HEAD
		"smmu: iommu@9000 { reg = <0x9000 0x100>; #iommu-cells = <1>; };"
		"bus { " SIMPLE_BUS
		"  iommus = <&smmu 1>;"
		"  dma@2 { compatible = \"dmamap,memcpy\"; reg = <0x2 0x1>; }; }; };");
	struct dmamap_device_info in;

	REQUIRE(p);
	REQUIRE(dmamap_device_info(dmamap_device_lookup(p, "dma@2"), &in) == 0);
	CHECK_EQ(in.iommu[0], '\0');
	CHECK(strcmp(in.ops, "iommu") != 0);
	dmamap_platform_destroy(p);
}

/* Behind an IOMMU the bus still limits what the device drives: every IOVA
 * stays under the dma-ranges end (16 MiB here), even with a 32-bit mask,
 * so 20 MiB of mappings cannot all fit. */
TEST(of_iommu_iova_within_bus_limit)
{
	struct dmamap_platform *p;
	struct page *pg[80];
	dma_addr_t h[80];
	int mapped = 0, refused = 0;
	struct device *dev = dts_device(HEAD
		"smmu: iommu@9000 { reg = <0x9000 0x100>; #iommu-cells = <1>; };"
		"bus { " SIMPLE_BUS
		"  dma-ranges = <0x0 0x80000000 0x1000000>;"
		"  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; iommus = <&smmu 5>; }; }; };",
		"dma@1", &p);

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

/* The cpus' d-cache-line-size is the board's line (ARCH_DMA_MINALIGN). */
TEST(of_cache_line_from_cpus)
{
	struct dmamap_platform *p = dts_board(HEAD
		"cpus { #address-cells = <1>; #size-cells = <0>;"
		"  cpu@0 { device_type = \"cpu\"; reg = <0>; d-cache-line-size = <128>; }; };"
		"dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; };");

	REQUIRE(p);
	CHECK_EQ(dmamap_cache_line_size(p), 128);
	dmamap_platform_destroy(p);
}

/* Nodes without a model are configured (info sees them); cpus, memory and
 * disabled subtrees are not devices. Names stay unique. */
TEST(of_modelless_nodes_configured)
{
	struct dmamap_platform *p = dts_board(HEAD
		"cpus { #address-cells = <1>; #size-cells = <0>; cpu@0 { device_type = \"cpu\"; reg = <0>; }; };"
		"a { " SIMPLE_BUS
		"  dma-ranges = <0x0 0x80000000 0x4000000>;"
		"  eth@10 { compatible = \"vendor,eth\"; reg = <0x10 0x10>; }; };"
		"b { " SIMPLE_BUS
		"  eth@10 { compatible = \"vendor,eth\"; reg = <0x10 0x10>; dma-coherent; }; };"
		"off { " SIMPLE_BUS
		"  status = \"disabled\"; usb@20 { reg = <0x20 0x10>; }; }; };");
	struct dmamap_device_info in;

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

/* A real SoC has hundreds of devices: the live devices are always
 * configured, model-less ones up to the limit, the rest skipped with a warning. */
TEST(of_many_nodes_live_devices_first)
{
	size_t cap = 256 << 10, n = 0;
	char *dts = malloc(cap);
	struct dmamap_platform *p;

	REQUIRE(dts);
	n += (size_t)snprintf(dts + n, cap - n, "%s", HEAD);
	for (int i = 0; i < 1100; i++)
		n += (size_t)snprintf(dts + n, cap - n, "blk@%x { compatible = \"vendor,blk\"; reg = <0x%x 0x10>; }; ",
				      0x10000 + i * 0x100, 0x10000 + i * 0x100);
	snprintf(dts + n, cap - n, "dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; };");
	p = dts_board(dts);
	free(dts);
	REQUIRE(p);
	CHECK(dmamap_device_lookup(p, "dma@1") != NULL);
	CHECK(dmamap_device_lookup(p, "blk@10000") != NULL);
	CHECK(dmamap_device_lookup(p, "blk@54b00") == NULL);
	CHECK_EQ(dmamap_device_count(p), 1024);
	dmamap_platform_destroy(p);
}
