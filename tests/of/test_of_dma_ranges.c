/* SPDX-License-Identifier: MIT */
/*
 * Boards from device trees: the kernel's dma-ranges walk (empty means keep
 * walking, a bus without dma-ranges above one that has them means no map,
 * the first hop may lack them), parent addresses translated up, masks and
 * limit implied by the map, contiguous entries merged, a device's own
 * dma-ranges applying to its children only, PCI hosts.
 *
 * Each tree is compiled with dtc at test time; without libfdt (NO_FDT
 * builds) or without dtc the tests skip.
 */
#include "../helpers.h"

TEST(of_parent_dma_ranges_offset_and_masks)
{
	struct dmamap_platform *p;
	uint8_t *buf, put[64];
	dma_addr_t h;
	struct device *dev = dts_device(HEAD
		"bus { " SIMPLE_BUS
		"  dma-ranges = <0x0 0x80000000 0x4000000>;"
		"  dma@1000 { compatible = \"dmamap,memcpy\"; reg = <0x1000 0x100>; }; }; };",
		"dma@1000", &p);

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
	/* inner: empty (keep walking); outer: the real map. */
	struct dmamap_platform *p = dts_board(HEAD
		"outer { " SIMPLE_BUS
		"  dma-ranges = <0x10000000 0x80000000 0x4000000>;"
		"  inner { " SIMPLE_BUS
		"    dma-ranges;"
		"    dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; };"
		/* a bus above the device's parent that lacks dma-ranges: no map */
		"nomap { " SIMPLE_BUS
		"  mid { " SIMPLE_BUS
		"    dma-ranges;"
		"    dma@2 { compatible = \"dmamap,memcpy\"; reg = <0x2 0x1>; }; }; }; };");
	struct device *a, *b;

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
	/* The inner bus's parent addresses (0x40000000..) are the outer bus's child space. */
	struct dmamap_platform *p;
	struct device *dev = dts_device(HEAD
		"outer { " SIMPLE_BUS
		"  dma-ranges = <0x40000000 0x80000000 0x2000000>;"
		"  inner { " SIMPLE_BUS
		"    dma-ranges = <0x0 0x40000000 0x1000000 0x9000000 0x70000000 0x1000000>;"
		"    dma@3 { compatible = \"dmamap,memcpy\"; reg = <0x3 0x1>; }; }; }; };",
		"dma@3", &p);

	REQUIRE(dev);
	/* Entry 1: bus 0 -> outer 0x40000000 -> CPU 0x80000000. Entry 2 (0x70000000) is
	 * outside outer's dma-ranges: dropped. */
	CHECK_EQ(dmamap_phys_to_dma(dev, 0x80000000ULL), 0);
	CHECK_EQ(dmamap_dma_to_phys(dev, 0x9000000), (phys_addr_t)-1);
	CHECK_EQ(dmamap_bus_dma_limit(dev), 0xffffff);
	dmamap_platform_destroy(p);
}

/* The parent may lack dma-ranges (first hop); the grandparent's map applies. */
TEST(of_first_hop_may_lack_dma_ranges)
{
	struct dmamap_platform *p;
	struct device *dev = dts_device(HEAD
		"soc { " SIMPLE_BUS
		"  dma-ranges = <0x20000000 0x80000000 0x4000000>;"
		"  sub { " SIMPLE_BUS
		"    dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; }; };",
		"dma@1", &p);

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
	struct dmamap_platform *p;
	dma_addr_t h[64];
	void *cpu[64];
	struct device *dev = dts_device(HEAD
		"bus { " SIMPLE_BUS
		"  dma-ranges = <0x0 0x80000000 0x3000000>;"
		"  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; };",
		"dma@1", &p);

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

/* A platform device's own dma-ranges describe its children, not itself. */
TEST(of_own_dma_ranges_do_not_apply_to_the_device)
{
	struct dmamap_platform *p;
	struct device *dev = dts_device(HEAD
		"bus { " SIMPLE_BUS
		"  dma-ranges = <0x10000000 0x80000000 0x4000000>;"
		"  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>;"
		"    #address-cells = <1>; #size-cells = <1>;"
		"    dma-ranges = <0x0 0x10000000 0x1000000>; }; }; };",
		"dma@1", &p);

	REQUIRE(dev);
	CHECK_EQ(dmamap_phys_to_dma(dev, 0x80000000ULL), 0x10000000);
	CHECK_EQ(dmamap_bus_dma_limit(dev), 0x13ffffff);
	dmamap_platform_destroy(p);
}

/* Entries contiguous in both spaces are one region; a gap keeps them apart. */
TEST(of_contiguous_dma_ranges_merge)
{
	struct dmamap_platform *p = dts_board(HEAD
		"bus { " SIMPLE_BUS
		"  dma-ranges = <0x0 0x80000000 0x1000000 0x1000000 0x81000000 0x1000000"
		"                0x3000000 0x82000000 0x1000000>;"
		"  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; };");
	struct dmamap_device_info in;

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

TEST(of_pci_host_dma_ranges_and_iommu_map)
{
	/* A PCI host: 3-cell child addresses (flags first), its own dma-ranges apply,
	 * and its iommu-map gives each function a stream id on the SMMU. */
	struct dmamap_platform *p = dts_board(HEAD
		"smmu: iommu@9000 { reg = <0x9000 0x100>; #iommu-cells = <1>; };"
		"pcie@40000000 { compatible = \"pci-host-ecam-generic\"; device_type = \"pci\"; #address-cells = <3>; #size-cells = <2>;"
		"  reg = <0x40000000 0x1000>;"
		"  dma-ranges = <0x02000000 0x0 0x0 0x80000000 0x0 0x4000000>;"
		"  iommu-map = <0x0 &smmu 0x10000 0x100>; iommu-map-mask = <0xfff8>;"
		"  dma@0,1 { compatible = \"dmamap,memcpy\"; reg = <0x0100 0 0 0 0>; }; }; };");
	struct dmamap_device_info in;

	REQUIRE(p);
	REQUIRE(dmamap_device_info(dmamap_device_lookup(p, "dma@0,1"), &in) == 0);
	CHECK_EQ(in.nr_ranges, 1);
	CHECK_EQ(in.ranges[0].cpu_start, 0x80000000ULL);
	CHECK_EQ(in.ranges[0].dma_start, 0);
	CHECK(strcmp(in.iommu, "iommu@9000") == 0);
	/* RID 0x01 (bus 0, dev 0, fn 1) masked with 0xfff8 -> 0: stream 0x10000. */
	CHECK_EQ(in.nr_iommu_ids, 1);
	CHECK_EQ(in.iommu_ids[0], 0x10000);
	CHECK(strcmp(in.ops, "iommu") == 0);
	dmamap_platform_destroy(p);
}

/* A buffer across the end of one window and into the next is no single bus run: it bounces. */
TEST(of_buffer_across_two_windows_is_never_mapped_direct)
{
	struct dmamap_platform *p;
	struct device *dev = dts_device(HEAD
		"bus { " SIMPLE_BUS
		"  dma-ranges = <0x0 0x80000000 0x2000000 0x3000000 0x82000000 0x1000000>;"
		"  dma@1000 { compatible = \"dmamap,memcpy\"; reg = <0x1000 0x100>; }; }; };",
		"dma@1000", &p);
	uint8_t want[0x2000], seen[0x2000];
	phys_addr_t phys = 0x81fff000ULL; /* the last page of the first window, the first of the next */
	uint8_t *cpu;
	dma_addr_t h;

	REQUIRE(dev);
	cpu = dmamap_phys_to_virt(p, phys);
	REQUIRE(cpu);
	pattern(want, sizeof(want), 77);
	memcpy(cpu, want, sizeof(want));
	h = dma_map_phys(dev, phys, sizeof(want), DMA_TO_DEVICE, 0);
	/* Not the direct translation of its start, which runs off the first window. */
	CHECK(h != 0x1fff000);
	if (!dma_mapping_error(dev, h)) {
		CHECK_EQ(dmamap_device_read(dev, h, seen, sizeof(seen)), 0);
		CHECK_MEM(seen, want, sizeof(want));
		dma_unmap_phys(dev, h, sizeof(want), DMA_TO_DEVICE, 0);
	}
	dmamap_platform_destroy(p);
}

/*
 * A window shorter than the bounce slot the buffer would take: the slot is
 * out of reach and the map fails, rather than handing out a handle the
 * device faults on and the unmap cannot find (found by the board fuzzer).
 */
TEST(of_bounce_slot_longer_than_the_window_is_refused)
{
	struct dmamap_platform *p;
	struct device *dev = dts_device(HEAD
		"bus { " SIMPLE_BUS
		"  dma-ranges = <0xd00000 0x80000000 0x100 0x10000000 0x83000000 0x1000000>;"
		"  dma@1000 { compatible = \"dmamap,memcpy\"; reg = <0x1000 0x100>; }; }; };",
		"dma@1000", &p);
	phys_addr_t phys = 0x81000000ULL; /* in neither window: it bounces */
	dma_addr_t h;

	REQUIRE(dev);
	dmamap_debug_enable(p, true);
	REQUIRE(dmamap_phys_to_dma(dev, phys) == DMA_MAPPING_ERROR);
	h = dma_map_phys(dev, phys, 512, DMA_TO_DEVICE, 0);
	CHECK_MSG(dma_mapping_error(dev, h), "mapped at 0x%llx", (unsigned long long)h);
	if (!dma_mapping_error(dev, h))
		dma_unmap_phys(dev, h, 512, DMA_TO_DEVICE, 0);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	dmamap_platform_destroy(p);
}

/* No #size-cells anywhere up the tree: one cell, the kernel's root default. */
TEST(of_missing_size_cells_default_to_one)
{
	struct dmamap_platform *p;
	struct device *dev = dts_device("/dts-v1/; / { #address-cells = <1>; "
		"memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; }; "
		"bus { compatible = \"simple-bus\"; #address-cells = <1>; ranges;"
		"  dma-ranges = <0x0 0x80000000 0x4000000>;"
		"  dma@1000 { compatible = \"dmamap,memcpy\"; reg = <0x1000 0x100>; }; }; };",
		"dma@1000", &p);

	REQUIRE(dev);
	CHECK_EQ(dmamap_phys_to_dma(dev, 0x80001000ULL), 0x1000);
	CHECK_EQ(dmamap_bus_dma_limit(dev), 0x3ffffff);
	dmamap_platform_destroy(p);
}

/* Two banks, 0x80000000 and 0x90000000, 64 MiB each, and a device on a bus with dma-ranges @r. */
#define TWO_BANKS(r)                                                                          \
	"/dts-v1/; / { #address-cells = <1>; #size-cells = <1>; "                             \
	"memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000 0x90000000 0x4000000>; }; " \
	"soc { " SIMPLE_BUS " dma-ranges = <" r ">;"                                          \
	"  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; };"

/* Whether the device of TWO_BANKS(@r) is addressing-limited (-1: no board). */
static int limited(const char *dts)
{
	struct dmamap_platform *p;
	struct device *dev = dts_device(dts, "dma@1", &p);
	int ret = dev ? dma_addressing_limited(dev) : -1;

	dmamap_platform_destroy(p);
	return ret;
}

/*
 * dma_addressing_limited() where the mask is no limit (the top of RAM sits
 * at the top of a bus window, 0x1fffffff, so the bus limit equals the
 * required mask): RAM that no window maps makes the device limited
 * (dma_direct_all_ram_mapped()), however many windows share the rest.
 * Linux rounds the required mask up to a power of two and compares the bus
 * limit against it, so a window ending elsewhere is limited on that alone.
 */
TEST(of_dma_ranges_that_leave_ram_unmapped_limit_the_device)
{
	CHECK_EQ(limited(TWO_BANKS("0x1c000000 0x90000000 0x4000000")), 1);
	CHECK_EQ(limited(TWO_BANKS("0x0 0x80000000 0x4000000 0x1c000000 0x90000000 0x4000000")), 0);
	/* The first bank in two windows that meet in CPU space but not in bus space. */
	CHECK_EQ(limited(TWO_BANKS("0x0 0x80000000 0x2000000 0x8000000 0x82000000 0x2000000 "
				   "0x1c000000 0x90000000 0x4000000")), 0);
	/* One page short of the first bank's end. */
	CHECK_EQ(limited(TWO_BANKS("0x0 0x80000000 0x3fff000 0x1c000000 0x90000000 0x4000000")), 1);
	/* All RAM mapped, but the window's end is not a mask: limited, as Linux says. */
	CHECK_EQ(limited(TWO_BANKS("0x0 0x80000000 0x4000000 0x10000000 0x90000000 0x4000000")), 1);
}
