/* SPDX-License-Identifier: MIT */
/*
 * The rest of of_dma_configure_id(): every iommus entry recorded (and an
 * entry list naming two IOMMUs leaves the device without one), a
 * restricted pool at any memory-region index, a PCI function configured
 * from its host controller's node (its dma-ranges walk, coherency,
 * iommu-map and restricted pool, whatever the bridges between say), and
 * the DMA parent an interconnect named "dma-mem" gives.
 */
#include <unistd.h>
#include "../helpers.h"

static struct dmamap_device_info info_of(struct dmamap_platform *p, const char *name)
{
	struct dmamap_device_info in;

	memset(&in, 0, sizeof(in));
	if (dmamap_device_info(dmamap_device_lookup(p, name), &in))
		snprintf(in.ops, sizeof(in.ops), "missing");
	return in;
}

#define SMMU "smmu: iommu@9000 { reg = <0x9000 0x100>; #iommu-cells = <1>; };" \
	     "smmu2: iommu@a000 { reg = <0xa000 0x100>; #iommu-cells = <2>; };"

TEST(of_every_iommus_entry_is_recorded)
{
	struct dmamap_platform *p = dts_board(HEAD SMMU
		"dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>;"
		"  iommus = <&smmu 0x10>, <&smmu 0x11>, <&smmu 0x12>; };"
		"dma@2 { compatible = \"dmamap,memcpy\"; reg = <0x2 0x1>;"
		"  iommus = <&smmu2 0x20 0x7f00>, <&smmu2 0x21 0x0>; }; };");
	struct dmamap_device_info in;

	REQUIRE(p);
	in = info_of(p, "dma@1");
	CHECK(strcmp(in.ops, "iommu") == 0);
	CHECK(strcmp(in.iommu, "iommu@9000") == 0);
	CHECK_EQ(in.nr_iommu_ids, 3);
	CHECK_EQ(in.iommu_ids[0], 0x10);
	CHECK_EQ(in.iommu_ids[2], 0x12);
	/* Two cells per entry (stream id, mask): the id is the first. */
	in = info_of(p, "dma@2");
	CHECK(strcmp(in.iommu, "iommu@a000") == 0);
	CHECK_EQ(in.nr_iommu_ids, 2);
	CHECK_EQ(in.iommu_ids[0], 0x20);
	CHECK_EQ(in.iommu_ids[1], 0x21);
	dmamap_platform_destroy(p);
}

TEST(of_iommus_naming_two_iommus_leave_the_device_without_one)
{
	struct dmamap_platform *p = dts_board(HEAD SMMU
		"dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>;"
		"  iommus = <&smmu 0x10>, <&smmu2 0x20 0x0>; }; };");
	struct dmamap_device_info in;

	REQUIRE(p);
	in = info_of(p, "dma@1");
	CHECK(strcmp(in.ops, "direct") == 0);
	CHECK_EQ(in.iommu[0], '\0');
	CHECK_EQ(in.nr_iommu_ids, 0);
	dmamap_platform_destroy(p);
}

TEST(of_restricted_pool_at_any_memory_region_index)
{
	struct dmamap_platform *p = dts_board(RESV(
		"pool: pool@82000000 { compatible = \"shared-dma-pool\"; no-map;"
		"  reg = <0x82000000 0x100000>; };"
		"rest: rest@83000000 { compatible = \"restricted-dma-pool\"; reg = <0x83000000 0x100000>; };")
		"dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; memory-region = <&pool &rest>; }; };");
	struct dmamap_device_info in;

	REQUIRE(p);
	in = info_of(p, "dma@1");
	CHECK(in.coherent_pool);
	CHECK_EQ(in.restricted_pool, 0x83000000ULL);
	CHECK_EQ(in.restricted_pool_size, 0x100000);
	dmamap_platform_destroy(p);
}

/* A host controller under a bus with a map; a root port and an endpoint behind it. */
#define PCI_TREE(host_props, ep_props)                                                          \
	HEAD SMMU "soc { " SIMPLE_BUS " dma-ranges = <0x0 0x80000000 0x4000000>;"               \
	"  pcie@40000000 { compatible = \"pci-host-ecam-generic\"; device_type = \"pci\";"    \
	"    #address-cells = <3>; #size-cells = <2>;"                                         \
	"    reg = <0x40000000 0x1000>; " host_props                                             \
	"    port@0,0 { device_type = \"pci\"; reg = <0x0 0 0 0 0>;"                             \
	"      #address-cells = <3>; #size-cells = <2>;"                                         \
	"      ep@0,0 { reg = <0x10000 0 0 0 0>; " ep_props " }; }; }; }; };"

TEST(of_pci_function_is_configured_from_its_host_controller)
{
	/* The host has no dma-ranges: the walk starts there and finds the soc's. */
	struct dmamap_platform *p = dts_board(PCI_TREE(
		"dma-coherent; iommu-map = <0x0 &smmu 0x1000 0x10000>;",
		"iommus = <&smmu2 0x5 0x0>; dma-noncoherent;"));
	struct dmamap_device_info in;

	REQUIRE(p);
	in = info_of(p, "ep@0,0");
	REQUIRE(in.nr_ranges == 1);
	CHECK_EQ(in.ranges[0].cpu_start, 0x80000000ULL);
	CHECK_EQ(in.ranges[0].dma_start, 0);
	CHECK_EQ(in.bus_dma_limit, 0x3ffffff);
	/* Coherency is the host's; its own property does not count. */
	CHECK(in.coherent);
	/* The host's iommu-map, by requester id 0x100 (bus 1): its own iommus do not count. */
	CHECK(strcmp(in.iommu, "iommu@9000") == 0);
	CHECK_EQ(in.nr_iommu_ids, 1);
	CHECK_EQ(in.iommu_ids[0], 0x1100);
	dmamap_platform_destroy(p);
}

TEST(of_pci_host_restricted_pool_serves_its_functions)
{
	struct dmamap_platform *p = dts_board(
		"/dts-v1/; / { #address-cells = <1>; #size-cells = <1>;"
		" memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; };"
		" reserved-memory { #address-cells = <1>; #size-cells = <1>; ranges;"
		"   rest: rest@83000000 { compatible = \"restricted-dma-pool\"; reg = <0x83000000 0x100000>; }; };"
		" pcie@40000000 { compatible = \"pci-host-ecam-generic\"; device_type = \"pci\"; #address-cells = <3>; #size-cells = <2>;"
		"   reg = <0x40000000 0x1000>; memory-region = <&rest>;"
		"   ep@0,0 { reg = <0x0 0 0 0 0>; }; }; };");
	struct dmamap_device_info in;

	REQUIRE(p);
	in = info_of(p, "ep@0,0");
	CHECK_EQ(in.restricted_pool, 0x83000000ULL);
	CHECK(strcmp(in.ops, "direct") == 0);
	dmamap_platform_destroy(p);
}

TEST(of_dma_parent_is_the_interconnect_named_dma_mem)
{
	/* Tegra-style: the memory controller's dma-ranges and coherency apply, not the parent's. */
	struct dmamap_platform *p = dts_board(HEAD
		"mc: memory-controller@7000 { reg = <0x7000 0x100>; #interconnect-cells = <1>;"
		"  #address-cells = <1>; #size-cells = <1>; dma-coherent;"
		"  dma-ranges = <0x0 0x80000000 0x1000000>; };"
		"soc { " SIMPLE_BUS " dma-ranges = <0x10000000 0x80000000 0x4000000>;"
		"  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>;"
		"    interconnects = <&mc 3>, <&mc 4>; interconnect-names = \"write\", \"dma-mem\"; };"
		"  dma@2 { compatible = \"dmamap,memcpy\"; reg = <0x2 0x1>; }; }; };");
	struct device *via_mc, *plain;

	REQUIRE(p);
	via_mc = dmamap_device_lookup(p, "dma@1");
	plain = dmamap_device_lookup(p, "dma@2");
	REQUIRE(via_mc && plain);
	CHECK_EQ(dmamap_phys_to_dma(via_mc, 0x80001000ULL), 0x1000);
	CHECK_EQ(dmamap_bus_dma_limit(via_mc), 0xffffff);
	CHECK(dev_is_dma_coherent(via_mc));
	CHECK_EQ(dmamap_phys_to_dma(plain, 0x80001000ULL), 0x10001000);
	CHECK(!dev_is_dma_coherent(plain));
	dmamap_platform_destroy(p);
}

/* Interconnects that make the DMA parents a loop, or claim absurd cells: refused or ignored, never a hang. */
TEST(of_dma_parent_loops_and_huge_interconnect_cells_end)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;

	alarm(20);
	p = from_dts(HEAD
		     "a: a { compatible = \"vendor,a\"; #interconnect-cells = <0>; dma-ranges;"
		     "  interconnects = <&b>; interconnect-names = \"dma-mem\"; };"
		     "b: b { compatible = \"vendor,b\"; #interconnect-cells = <0>; dma-ranges;"
		     "  interconnects = <&a>; interconnect-names = \"dma-mem\"; }; };", &err);
	SKIP_WITHOUT_FDT(err);
	CHECK(p == NULL);
	CHECK_MSG(strstr(err.msg, "loop") != NULL, "%s", err.msg);
	p = from_dts(HEAD
		     "mc: mc { compatible = \"vendor,mc\"; #interconnect-cells = <0x7fffffff>;"
		     "  dma-ranges = <0x0 0x80000000 0x1000000>; #address-cells = <1>; #size-cells = <1>; };"
		     "dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>;"
		     "  interconnects = <&mc 1>, <&mc 2>; interconnect-names = \"x\", \"dma-mem\"; }; };", &err);
	REQUIRE_MSG(p != NULL, "%s", err.msg);
	/* The broken interconnect is no DMA parent: the root's identity. */
	CHECK_EQ(dmamap_phys_to_dma(dmamap_device_lookup(p, "dma@1"), 0x80001000ULL), 0x80001000ULL);
	dmamap_platform_destroy(p);
	alarm(0);
}
