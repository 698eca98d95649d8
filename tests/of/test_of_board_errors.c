/* SPDX-License-Identifier: MIT */
/*
 * A board's own properties written wrong refuse the board, each naming the
 * node and the property as dtc would (an integer of the wrong width, an
 * architecture dmamap does not simulate, memory that does not fit its
 * cells or has more banks than a board keeps, more DMA masters than a tree
 * may hold); a memory entry of size 0 is firmware's placeholder, skipped.
 */
#include "../helpers.h"

#define ROOT "/dts-v1/; / { #address-cells = <1>; #size-cells = <1>; "
#define RAM "memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; }; "
#define DEV(props) "dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; " props " }; "

TEST(of_board_property_written_wrong_is_refused_by_node_and_property)
{
	static const struct {
		const char *dts, *what;
	} cases[] = {
		{ ROOT "dmamap,cache-arch = \"mips\"; " RAM "};", "/:dmamap,cache-arch: unknown architecture 'mips'" },
		{ ROOT "dmamap,cache-line-size = [00 40]; " RAM "};", "/:dmamap,cache-line-size: expected 1 or 2 cells, found 2 bytes" },
		{ ROOT "dmamap,zone-dma-limit = <0 0 1>; " RAM "};", "/:dmamap,zone-dma-limit: expected 1 or 2 cells, found 12 bytes" },
		{ ROOT "dmamap,highmem-start = [01]; " RAM "};", "/:dmamap,highmem-start: expected 1 or 2 cells, found 1 bytes" },
		{ ROOT "dmamap,swiotlb-size = <0 0 1>; " RAM "};", "/:dmamap,swiotlb-size: expected 1 or 2 cells, found 12 bytes" },
		{ ROOT "dmamap,cma-size = [00]; " RAM "};", "/:dmamap,cma-size: expected 1 or 2 cells, found 1 bytes" },
		{ ROOT RAM "cpus { cpu@0 { d-cache-line-size = [40]; }; }; };",
		  "/cpus/cpu@0:d-cache-line-size: expected 1 or 2 cells, found 1 bytes" },
		{ ROOT RAM DEV("dmamap,dma-mask-bits = [20];") "};",
		  "/dma@1:dmamap,dma-mask-bits: expected 1 or 2 cells, found 1 bytes" },
		{ ROOT RAM DEV("dmamap,coherent-mask-bits = <0 0 32>;") "};",
		  "/dma@1:dmamap,coherent-mask-bits: expected 1 or 2 cells, found 12 bytes" },
		{ ROOT RAM DEV("dmamap,dmabounce-above = [00 01];") "};",
		  "/dma@1:dmamap,dmabounce-above: expected 1 or 2 cells, found 2 bytes" },
		{ ROOT "memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000 0x0>; }; };",
		  "/memory@80000000:reg: 12 bytes do not fit 1+1 cells" },
		{ ROOT "memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x100000 0x81000000 0x100000"
		       " 0x82000000 0x100000 0x83000000 0x100000 0x84000000 0x100000 0x85000000 0x100000"
		       " 0x86000000 0x100000 0x87000000 0x100000 0x88000000 0x100000>; }; };",
		  "/memory@80000000:reg: more than 8 RAM banks" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		dts_refused(cases[i].dts, cases[i].what);
}

TEST(of_memory_entry_of_size_zero_is_a_placeholder)
{
	struct dmamap_platform *p = dts_board(ROOT "memory@0 { device_type = \"memory\";"
					      " reg = <0x0 0x0 0x80000000 0x4000000>; }; };");
	struct dmamap_ram_bank b;

	REQUIRE(p);
	CHECK(dmamap_ram_bank(p, 0, &b) == 0 && b.start == 0x80000000ULL && b.size == 0x4000000);
	CHECK(dmamap_ram_bank(p, 1, &b) != 0);
	dmamap_platform_destroy(p);
}

TEST(of_more_dma_masters_than_a_tree_may_hold_is_refused)
{
	static char dts[128 * 1024];
	size_t n = (size_t)snprintf(dts, sizeof(dts), "%s", ROOT RAM);

	for (unsigned int i = 0; i <= 1024; i++)
		n += (size_t)snprintf(dts + n, sizeof(dts) - n,
				      "dma@%x { compatible = \"dmamap,memcpy\"; reg = <0x%x 0x1>; }; ", i + 1, i + 1);
	snprintf(dts + n, sizeof(dts) - n, "};");
	dts_refused(dts, "more than 1024 DMA masters");
}
