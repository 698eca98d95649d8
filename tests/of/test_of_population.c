/* SPDX-License-Identifier: MIT */
/*
 * Which nodes become devices, by Linux's population rules: root children
 * with a compatible, the children of simple-bus/simple-mfd/isa/
 * arm,amba-bus nodes (with or without reg), arm,primecell as AMBA, the
 * children of /firmware and the special /reserved-memory regions, PCI
 * functions below a host controller; never the clients of other buses
 * (I2C, SPI flash partitions, MDIO PHYs, power domains), disabled nodes or
 * operating-points tables. And what the tree says about each device
 * doing DMA itself.
 */
#include "../helpers.h"

#define TREE                                                                                \
	HEAD "nocompat@100 { reg = <0x100 0x10>; };"                                            \
	"smmu: iommu@9000 { compatible = \"arm,smmu-v3\"; reg = <0x9000 0x100>; #iommu-cells = <1>; };" \
	"opp-table { compatible = \"operating-points-v2\"; opp-1 { opp-hz = /bits/ 64 <1>; }; };" \
	"firmware { scmi { compatible = \"arm,scmi\"; protocol@13 { reg = <0x13>; }; }; };"  \
	"soc { " SIMPLE_BUS                                                                 \
	"  gpu { compatible = \"vendor,gpu\"; iommus = <&smmu 7>; };"                       \
	"  dma-controller@1000 { compatible = \"vendor,dma\"; reg = <0x1000 0x100>; #dma-cells = <1>; };" \
	"  uart@2000 { compatible = \"arm,pl011\", \"arm,primecell\"; reg = <0x2000 0x100>; };" \
	"  serial@3000 { compatible = \"vendor,uart\"; reg = <0x3000 0x100>; dmas = <&dmac 1>; };" \
	"  i2c@4000 { compatible = \"vendor,i2c\"; reg = <0x4000 0x100>;"                    \
	"    #address-cells = <1>; #size-cells = <0>;"                                     \
	"    eeprom@50 { compatible = \"atmel,24c02\"; reg = <0x50>; }; };"                  \
	"  spi@5000 { compatible = \"vendor,spi\"; reg = <0x5000 0x100>;"                    \
	"    #address-cells = <1>; #size-cells = <0>;"                                     \
	"    flash@0 { compatible = \"jedec,spi-nor\"; reg = <0>;"                           \
	"      partitions { compatible = \"fixed-partitions\"; #address-cells = <1>; #size-cells = <1>;" \
	"        partition@0 { reg = <0x0 0x1000>; }; }; }; };"                               \
	"  ethernet@6000 { compatible = \"vendor,eth\"; reg = <0x6000 0x100>;"               \
	"    mdio { compatible = \"snps,dwmac-mdio\"; #address-cells = <1>; #size-cells = <0>;" \
	"      phy@1 { compatible = \"ethernet-phy-ieee802.3-c22\"; reg = <1>; }; }; };"     \
	"  power-controller@7000 { compatible = \"vendor,pmu\"; reg = <0x7000 0x100>;"      \
	"    #address-cells = <1>; #size-cells = <0>;"                                     \
	"    power-domain@1 { compatible = \"vendor,pd\"; reg = <1>; }; };"                  \
	"  syscon@8000 { compatible = \"vendor,syscon\", \"simple-mfd\"; reg = <0x8000 0x100>;" \
	"    #address-cells = <1>; #size-cells = <1>;"                                     \
	"    reboot { compatible = \"syscon-reboot\"; }; };"                                 \
	"  off@9000 { compatible = \"vendor,off\"; reg = <0x9000 0x100>; status = \"disabled\"; };" \
	"  offbus { " SIMPLE_BUS " status = \"disabled\";"                                  \
	"    under@a000 { compatible = \"vendor,x\"; reg = <0xa000 0x100>; }; }; };"         \
	"dmac: dmac { compatible = \"vendor,dmac\"; #dma-cells = <1>; }; };"

static bool has(struct dmamap_platform *p, const char *name)
{
	return dmamap_device_lookup(p, name) != NULL;
}

TEST(of_devices_are_the_nodes_linux_populates)
{
	struct dmamap_platform *p = dts_board(TREE);

	REQUIRE(p);
	/* Devices: root children and simple-bus children with a compatible, reg or not. */
	CHECK(has(p, "iommu@9000"));
	CHECK(has(p, "gpu"));
	CHECK(has(p, "dma-controller@1000"));
	CHECK(has(p, "uart@2000"));
	CHECK(has(p, "i2c@4000") && has(p, "spi@5000") && has(p, "ethernet@6000"));
	CHECK(has(p, "power-controller@7000"));
	CHECK(has(p, "dmac"));
	/* simple-mfd: the node and its children. */
	CHECK(has(p, "syscon@8000") && has(p, "reboot"));
	/* /firmware: its children, not theirs. */
	CHECK(has(p, "scmi") && !has(p, "protocol@13"));
	/* Not devices: no compatible, other buses' clients, disabled, operating points, buses. */
	CHECK(!has(p, "nocompat@100"));
	CHECK(!has(p, "eeprom@50"));
	CHECK(!has(p, "flash@0") && !has(p, "partitions") && !has(p, "partition@0"));
	CHECK(!has(p, "mdio") && !has(p, "phy@1"));
	CHECK(!has(p, "power-domain@1"));
	CHECK(!has(p, "off@9000") && !has(p, "under@a000"));
	CHECK(!has(p, "opp-table") && !has(p, "opp-1"));
	CHECK(!has(p, "soc") && !has(p, "memory@80000000"));
	CHECK_EQ(dmamap_device_count(p), 13);
	dmamap_platform_destroy(p);
}

TEST(of_info_says_the_bus_and_why_a_device_is_a_dma_master)
{
	static const struct {
		const char *name, *bus, *why;
	} want[] = {
		{ "gpu", "platform", "iommus" },
		{ "dma-controller@1000", "platform", "DMA engine (#dma-cells)" },
		{ "dmac", "platform", "DMA engine (#dma-cells)" },
		{ "uart@2000", "amba", "" },
		{ "serial@3000", "platform", "" }, /* a dmas consumer does no DMA itself */
		{ "ethernet@6000", "platform", "ethernet" },
		{ "i2c@4000", "platform", "" },
	};
	struct dmamap_platform *p = dts_board(TREE);

	REQUIRE(p);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct dmamap_device_info in;

		REQUIRE_MSG(dmamap_device_info(dmamap_device_lookup(p, want[i].name), &in) == 0,
			    "%s missing", want[i].name);
		CHECK_MSG(!strcmp(in.bus, want[i].bus), "%s: bus %s", want[i].name, in.bus);
		CHECK_MSG(!strcmp(in.dma_master, want[i].why), "%s: '%s'", want[i].name,
			  in.dma_master);
	}
	dmamap_platform_destroy(p);
}

TEST(of_pci_functions_behind_bridges_are_devices)
{
	struct dmamap_platform *p = dts_board(HEAD
		"pcie@40000000 { compatible = \"pci-host-ecam-generic\"; device_type = \"pci\";"
		"  #address-cells = <3>; #size-cells = <2>; reg = <0x40000000 0x1000>;"
		"  port@0,0 { device_type = \"pci\"; reg = <0x0 0 0 0 0>;"
		"    #address-cells = <3>; #size-cells = <2>;"
		"    nvme@0,0 { reg = <0x10000 0 0 0 0>; };"
		"    off@0,1 { reg = <0x10100 0 0 0 0>; status = \"disabled\"; }; }; }; };");
	struct dmamap_device_info in;

	REQUIRE(p);
	CHECK(has(p, "pcie@40000000"));
	CHECK(!has(p, "port@0,0"));
	CHECK(!has(p, "off@0,1"));
	REQUIRE(dmamap_device_info(dmamap_device_lookup(p, "nvme@0,0"), &in) == 0);
	CHECK(strcmp(in.bus, "pci") == 0);
	CHECK(strcmp(in.dma_master, "PCI function") == 0);
	dmamap_platform_destroy(p);
}

TEST(of_special_reserved_memory_regions_are_devices)
{
	struct dmamap_platform *p = dts_board(RESV(
		"ramoops@83000000 { compatible = \"ramoops\"; reg = <0x83000000 0x100000>; };"
		"other@83100000 { compatible = \"vendor,blob\"; reg = <0x83100000 0x100000>; };") "};");

	REQUIRE(p);
	CHECK(has(p, "ramoops@83000000"));
	CHECK(!has(p, "other@83100000"));
	dmamap_platform_destroy(p);
}

TEST(of_model_on_a_node_linux_does_not_populate_is_not_used)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	const char *said;

	stderr_capture();
	p = from_dts(HEAD "plain { #address-cells = <1>; #size-cells = <1>; ranges;"
		     "  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; };", &err);
	said = stderr_text();
	SKIP_WITHOUT_FDT(err);
	REQUIRE_MSG(p != NULL, "%s", err.msg);
	CHECK(!has(p, "dma@1"));
	CHECK_MSG(said && strstr(said, "/plain/dma@1") && strstr(said, "no device"), "said: %s",
		  said ? said : "");
	dmamap_platform_destroy(p);
}

/* A simple-pm-bus's driver populates its children; the special regions are devices wherever they are. */
TEST(of_simple_pm_bus_children_and_special_regions_anywhere)
{
	struct dmamap_platform *p = dts_board(HEAD
		"pm { compatible = \"simple-pm-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  usb@1000 { compatible = \"vendor,usb\"; reg = <0x1000 0x100>; }; };"
		"glue { compatible = \"qcom,dwc3\"; #address-cells = <1>; #size-cells = <1>; ranges;"
		"  usb@2000 { compatible = \"snps,dwc3\"; reg = <0x2000 0x100>; }; };"
		"oops@3000 { compatible = \"ramoops\"; reg = <0x3000 0x100>; }; };");

	REQUIRE(p);
	CHECK(has(p, "pm") && has(p, "usb@1000"));
	/* A glue driver's children are not followed (documented). */
	CHECK(has(p, "glue") && !has(p, "usb@2000"));
	CHECK(has(p, "oops@3000"));
	dmamap_platform_destroy(p);
}

/* Fixed clocks and the GIC are claimed by of_clk_init()/of_irq_init() before population. */
TEST(of_nodes_claimed_early_are_no_devices)
{
	struct dmamap_platform *p = dts_board(HEAD
		"clk27 { compatible = \"fixed-clock\"; #clock-cells = <0>; clock-frequency = <27000000>; };"
		"gic@4000 { compatible = \"arm,gic-400\"; reg = <0x4000 0x1000>; interrupt-controller;"
		"  #interrupt-cells = <3>; };"
		"intc@5000 { compatible = \"vendor,intc\"; reg = <0x5000 0x100>; interrupt-controller; }; };");
	char out[4096];
	struct dmamap_error err = { 0 };
	const void *blob;
	size_t size;

	REQUIRE(p);
	CHECK(!has(p, "clk27") && !has(p, "gic@4000"));
	CHECK(has(p, "intc@5000")); /* an interrupt controller with a platform driver */
	blob = dmamap_platform_fdt(p, &size);
	REQUIRE(dmamap_of_explain(blob, size, NULL, "/gic@4000", out, sizeof(out), &err) == 0);
	CHECK_MSG(strstr(out, "of_irq_init()") != NULL, "%s", out);
	dmamap_platform_destroy(p);
}
