/* SPDX-License-Identifier: MIT */
/*
 * Trees laid out as the kernel's are: a board .dts including its SoC's
 * .dtsi, dt-bindings headers found through an include directory (here
 * test-local stand-ins), labels with &label { } overrides,
 * /delete-property/, dtc's own /include/; a missing header named with
 * where it comes from; overlays applied in order, refused as a base.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../helpers.h"

static char dir[] = "/tmp/dmamap-ksrc-XXXXXX";

static void put(const char *name, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s/%s')\"", dir, name);
	REQUIRE(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	REQUIRE(f);
	fputs(text, f);
	fclose(f);
}

static void clean(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf \"%s\"", dir);
	CHECK(system(cmd) == 0);
}

/* The tree: an SoC .dtsi, its board, two stand-in dt-bindings headers. */
static void kernel_tree(void)
{
	put("include/dt-bindings/interrupt-controller/arm-gic.h",
	    "#define GIC_SPI 0\n#define IRQ_TYPE_LEVEL_HIGH 4\n");
	put("include/dt-bindings/memory/acme-window.h",
	    "#define ACME_DMA_BASE 0x10000000\n#define ACME_DMA_SIZE 0x4000000\n");
	put("arch/acme/acme-soc.dtsi",
	    "#include <dt-bindings/interrupt-controller/arm-gic.h>\n"
	    "#include <dt-bindings/memory/acme-window.h>\n"
	    "/ { #address-cells = <1>; #size-cells = <1>;\n"
	    "  memory@80000000 { device_type = \"memory\"; reg = <0x80000000 0x4000000>; };\n"
	    "  soc: soc { compatible = \"simple-bus\"; #address-cells = <1>; #size-cells = <1>; ranges;\n"
	    "    dma-ranges = <ACME_DMA_BASE 0x80000000 ACME_DMA_SIZE>;\n"
	    "    dmac: dma-controller@1000 { compatible = \"dmamap,memcpy\"; reg = <0x1000 0x100>;\n"
	    "      interrupts = <GIC_SPI 5 IRQ_TYPE_LEVEL_HIGH>; status = \"disabled\"; };\n"
	    "    eth: ethernet@2000 { compatible = \"dmamap,nic\"; reg = <0x2000 0x100>; dma-coherent; };\n"
	    "  };\n};\n"
	    "/include/ \"acme-extra.dtsi\"\n");
	put("arch/acme/acme-extra.dtsi",
	    "/ { model = \"acme board\"; };\n");
	put("arch/acme/acme-board.dts",
	    "/dts-v1/;\n#include \"acme-soc.dtsi\"\n"
	    "&dmac { status = \"okay\"; };\n"
	    "&eth { /delete-property/ dma-coherent; };\n");
}

static struct dmamap_platform *open_with(const char *name, const char *const *inc,
					 unsigned int ninc, const char *const *ov, unsigned int nov,
					 struct dmamap_error *err)
{
	struct dmamap_of_options opts = { NULL, 0, inc, ninc, ov, nov };
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return dmamap_platform_from_file_opts(path, &opts, err);
}

TEST(of_kernel_tree_with_bindings_labels_and_overrides)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	struct device *dmac, *eth;
	char inc[300];
	const char *incs[] = { inc };

	need_dts_support();
	REQUIRE(mkdtemp(dir));
	kernel_tree();
	snprintf(inc, sizeof(inc), "%s/include", dir);
	p = open_with("arch/acme/acme-board.dts", incs, 1, NULL, 0, &err);
	CHECK_MSG(p, "%s", err.msg);
	if (p) {
		CHECK(strcmp(dmamap_platform_name(p), "acme board") == 0); /* from /include/ */
		dmac = dmamap_device_lookup(p, "dma-controller@1000");
		eth = dmamap_device_lookup(p, "ethernet@2000");
		CHECK(dmac != NULL); /* &dmac { status = "okay"; } */
		CHECK(eth && !dev_is_dma_coherent(eth)); /* /delete-property/ */
		if (dmac)
			CHECK_EQ(dmamap_phys_to_dma(dmac, 0x80001000ULL), 0x10001000); /* the header's macro */
		dmamap_platform_destroy(p);
	}
	/* Without the include directory: the header is named, and where it comes from. */
	CHECK(!open_with("arch/acme/acme-board.dts", NULL, 0, NULL, 0, &err));
	CHECK_EQ(err.code, -ENOEXEC);
	CHECK_MSG(strstr(err.msg, "acme-soc.dtsi:1:") &&
		  strstr(err.msg, "dt-bindings/interrupt-controller/arm-gic.h") &&
		  strstr(err.msg, "-I"), "%s", err.msg);
	/* Another architecture's .dtsi, as arm64 trees include arm/ ones: where those come from. */
	put("arch/acme/cross.dts", "/dts-v1/;\n#include \"arm/broadcom/soc.dtsi\"\n/ { };\n");
	CHECK(!open_with("arch/acme/cross.dts", incs, 1, NULL, 0, &err));
	CHECK_MSG(strstr(err.msg, "scripts/dtc/include-prefixes") && strstr(err.msg, "arm/broadcom/soc.dtsi"),
		  "%s", err.msg);
	clean();
}

TEST(of_overlays_apply_in_order_and_are_no_base)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p;
	struct device *dmac;
	char inc[300];
	const char *incs[] = { inc };
	const char *ovs[] = { NULL, NULL };
	char ov1[300], ov2[300];

	need_dts_support();
	REQUIRE(mkdtemp(dir));
	kernel_tree();
	snprintf(inc, sizeof(inc), "%s/include", dir);
	put("coherent.dts", "/dts-v1/;\n/plugin/;\n&dmac { dma-coherent; };\n"
			    "&soc { extra@3000 { compatible = \"dmamap,memcpy\"; reg = <0x3000 0x100>; }; };\n");
	put("off.dtso", "/dts-v1/;\n/plugin/;\n&dmac { status = \"disabled\"; };\n");
	put("nolabel.dts", "/dts-v1/;\n/plugin/;\n&nosuch { status = \"disabled\"; };\n");
	snprintf(ov1, sizeof(ov1), "%s/coherent.dts", dir);
	snprintf(ov2, sizeof(ov2), "%s/off.dtso", dir); /* the kernel's name for overlay sources */
	ovs[0] = ov1;
	p = open_with("arch/acme/acme-board.dts", incs, 1, ovs, 1, &err);
	REQUIRE_MSG(p, "%s", err.msg);
	dmac = dmamap_device_lookup(p, "dma-controller@1000");
	CHECK(dmac && dev_is_dma_coherent(dmac));
	CHECK(dmamap_device_lookup(p, "extra@3000") != NULL);
	dmamap_platform_destroy(p);
	/* The second overlay comes after the first: the controller ends disabled. */
	ovs[1] = ov2;
	p = open_with("arch/acme/acme-board.dts", incs, 1, ovs, 2, &err);
	REQUIRE_MSG(p, "%s", err.msg);
	CHECK(dmamap_device_lookup(p, "dma-controller@1000") == NULL);
	CHECK(dmamap_device_lookup(p, "extra@3000") != NULL);
	dmamap_platform_destroy(p);
	/* A label the base does not have: libfdt's reason. */
	snprintf(ov1, sizeof(ov1), "%s/nolabel.dts", dir);
	CHECK(!open_with("arch/acme/acme-board.dts", incs, 1, ovs, 1, &err));
	CHECK_EQ(err.code, -ENOEXEC);
	CHECK_MSG(strstr(err.msg, "nolabel.dts: cannot apply: "), "%s", err.msg);
	/* An overlay is no board; a base is no overlay. */
	CHECK(!open_with("off.dtso", NULL, 0, NULL, 0, &err));
	CHECK_EQ(err.code, -EINVAL);
	CHECK_MSG(strstr(err.msg, "an overlay, not a board"), "%s", err.msg);
	snprintf(ov1, sizeof(ov1), "%s/arch/acme/acme-board.dts", dir);
	CHECK(!open_with("arch/acme/acme-board.dts", incs, 1, ovs, 1, &err));
	CHECK_MSG(strstr(err.msg, "not an overlay"), "%s", err.msg);
	clean();
}
