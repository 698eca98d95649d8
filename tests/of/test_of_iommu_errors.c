/* SPDX-License-Identifier: MIT */
/*
 * IOMMU and dma-ranges properties that do not say what they should, as
 * Linux takes them: an iommu-map that misses the function, or sends it to
 * a disabled IOMMU, leaves it without one; iommu-map-mask folds the
 * requester id first; an iommus entry whose IOMMU has no #iommu-cells ends
 * the list there (the entries before it stand); more ids than a device
 * keeps are cut with a warning; a dma-ranges entry of size 0 is skipped.
 * What is malformed (cells missing, a phandle to nothing, too many
 * windows) refuses the board, naming node and property.
 */
#include "../helpers.h"

#define IOMMUS "smmu: iommu@9000 { reg = <0x9000 0x100>; #iommu-cells = <1>; };"                 \
	       "smmu2: iommu@a000 { reg = <0xa000 0x100>; #iommu-cells = <2>; };"                \
	       "off: iommu@b000 { reg = <0xb000 0x100>; #iommu-cells = <1>; status = \"disabled\"; };" \
	       "bare: iommu@c000 { reg = <0xc000 0x100>; };"

/* A host controller with @host_props and one function behind it, requester id 0x100. */
#define PCI(host_props)                                                                         \
	HEAD IOMMUS "pcie@40000000 { compatible = \"pci-host-ecam-generic\"; device_type = \"pci\";" \
	"  #address-cells = <3>; #size-cells = <2>; reg = <0x40000000 0x1000>; " host_props        \
	"  ep@0,0 { reg = <0x10000 0 0 0 0>; }; }; };"

/* A device with @props next to the IOMMUs. */
#define DEV(props) HEAD IOMMUS "dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; " props " }; };"

static char said[16384];

/* The board @dts, which must build, its device @name in *@in and its explanation in said. */
static bool board_explained(const char *dts, const char *path, struct dmamap_device_info *in)
{
	struct dmamap_platform *p = dts_board(dts);
	struct dmamap_error err = { 0 };
	const void *blob;
	size_t size;
	int ret;

	memset(in, 0, sizeof(*in));
	said[0] = '\0';
	CHECK_MSG(p != NULL, "%s: the board was refused", path);
	if (!p)
		return false;
	blob = dmamap_platform_fdt(p, &size);
	ret = dmamap_of_explain(blob, size, NULL, path, said, sizeof(said), &err);
	CHECK_MSG(ret == 0, "%s: %d %s", path, ret, err.msg);
	CHECK(dmamap_device_info(dmamap_device_lookup(p, strrchr(path, '/') + 1), in) == 0);
	dmamap_platform_destroy(p);
	return ret == 0;
}

static bool says(const char *what)
{
	bool yes = strstr(said, what) != NULL;

	if (!yes)
		printf("#   does not say \"%s\" in:\n%s", what, said);
	return yes;
}

TEST(of_pci_iommu_map_that_misses_the_function_leaves_it_without_an_iommu)
{
	struct dmamap_device_info in;

	if (board_explained(PCI("iommu-map = <0x200 &smmu 0x1000 0x100>;"), "/pcie@40000000/ep@0,0", &in)) {
		CHECK(!strcmp(in.ops, "direct") && in.nr_iommu_ids == 0);
		CHECK(says("of_map_id(): no iommu-map entry covers requester id 0x100: no IOMMU"));
	}
	if (board_explained(PCI("iommu-map = <0x0 &off 0x1000 0x10000>;"), "/pcie@40000000/ep@0,0", &in)) {
		CHECK(!strcmp(in.ops, "direct") && in.nr_iommu_ids == 0);
		CHECK(says("of_map_id(): requester id 0x100 maps to iommu@b000, which is disabled: no IOMMU"));
	}
	/* The mask folds bus 1 onto 0: the entry for 0x0-0xff takes it. */
	if (board_explained(PCI("iommu-map = <0x0 &smmu 0x1000 0x100>; iommu-map-mask = <0xff>;"),
			    "/pcie@40000000/ep@0,0", &in)) {
		CHECK(!strcmp(in.ops, "iommu") && in.nr_iommu_ids == 1);
		CHECK_EQ(in.iommu_ids[0], 0x1000);
	}
}

TEST(of_pci_iommu_map_written_wrong_is_refused)
{
	dts_refused(PCI("iommu-map = <0x0 &smmu 0x1000>;"),
		"/pcie@40000000:iommu-map: length 12 is not a multiple of 4 cells");
	dts_refused(PCI("iommu-map = <0x0 0x4242 0x1000 0x10000>;"),
		"/pcie@40000000:iommu-map: unknown phandle 0x4242");
}

TEST(of_iommus_entry_without_iommu_cells_ends_the_list)
{
	static struct log_capture cap;
	struct dmamap_device_info in;
	bool ok;

	dmamap_set_log_hook(NULL, capture_hook, &cap);
	ok = board_explained(DEV("iommus = <&bare 0x5>;"), "/dma@1", &in);
	dmamap_set_log_hook(NULL, NULL, NULL);
	if (ok) {
		CHECK(!strcmp(in.ops, "direct") && in.nr_iommu_ids == 0);
		CHECK_MSG(strstr(cap.all, "/dma@1: iommus at cell 0: its IOMMU has no #iommu-cells: "
					  "configured without one"), "%s", cap.all);
	}
	memset(&cap, 0, sizeof(cap));
	dmamap_set_log_hook(NULL, capture_hook, &cap);
	ok = board_explained(DEV("iommus = <&smmu 0x7>, <&bare 0x5>;"), "/dma@1", &in);
	dmamap_set_log_hook(NULL, NULL, NULL);
	if (ok) {
		CHECK(!strcmp(in.ops, "iommu") && in.nr_iommu_ids == 1 && in.iommu_ids[0] == 0x7);
		CHECK_MSG(strstr(cap.all, "/dma@1: iommus at cell 2: its IOMMU has no #iommu-cells: "
					  "the entries before it stand"), "%s", cap.all);
	}
	if (board_explained(DEV("iommus = <&off 0x5>;"), "/dma@1", &in)) {
		CHECK(!strcmp(in.ops, "direct"));
		CHECK(says("of_iommu_xlate(): iommu@b000 is disabled: no IOMMU"));
	}
}

TEST(of_iommus_written_wrong_is_refused_and_too_many_ids_are_cut)
{
	static struct log_capture cap;
	char dts[2048] = DEV("iommus = ");
	struct dmamap_device_info in;
	size_t n = strlen(dts) - strlen(" }; };");
	bool ok;

	dts_refused(DEV("iommus = <&smmu2 0x5>;"), "/dma@1:iommus: fewer cells than the IOMMU's #iommu-cells (2)");
	dts_refused(DEV("iommus = <0x4242 0x5>;"), "/dma@1:iommus: unknown phandle 0x4242");
	for (unsigned int i = 0; i <= DMAMAP_MAX_IOMMU_IDS; i++)
		n += (size_t)snprintf(dts + n, sizeof(dts) - n, "%s<&smmu 0x%x>", i ? ", " : "", 0x40 + i);
	snprintf(dts + n, sizeof(dts) - n, "; }; };");
	dmamap_set_log_hook(NULL, capture_hook, &cap);
	ok = board_explained(dts, "/dma@1", &in);
	dmamap_set_log_hook(NULL, NULL, NULL);
	if (ok) {
		CHECK_EQ(in.nr_iommu_ids, DMAMAP_MAX_IOMMU_IDS);
		CHECK_EQ(in.iommu_ids[DMAMAP_MAX_IOMMU_IDS - 1], 0x40 + DMAMAP_MAX_IOMMU_IDS - 1);
		CHECK_MSG(strstr(cap.all, "/dma@1: more than 16 IOMMU ids: the rest are not recorded"), "%s",
			  cap.all);
	}
}

/* A bus with @ranges as dma-ranges, and a device on it. */
#define BUS(ranges) HEAD "soc { " SIMPLE_BUS " dma-ranges = <" ranges ">;" \
	"  dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; }; }; };"

TEST(of_dma_ranges_entry_of_size_zero_is_skipped_and_too_many_refused)
{
	struct dmamap_device_info in;

	if (board_explained(BUS("0x0 0x80000000 0x0 0x10000000 0x80000000 0x1000000"), "/soc/dma@1", &in)) {
		CHECK_EQ(in.nr_ranges, 1);
		CHECK_EQ(in.ranges[0].dma_start, 0x10000000ULL);
		CHECK(says("entry 1: size 0, skipped"));
	}
	{
		/* Nine windows with gaps between them (adjacent ones would be one). */
		char dts[1024] = BUS("");
		char *at = strstr(dts, "<>;") + 1;
		char tail[256], list[512];
		size_t n = 0;

		snprintf(tail, sizeof(tail), "%s", at);
		for (unsigned int i = 0; i <= DMAMAP_MAX_RANGES; i++)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s0x%x 0x%x 0x100000", i ? " " : "",
					      i * 0x200000u, 0x80000000u + i * 0x200000u);
		snprintf(at, sizeof(dts) - (size_t)(at - dts), "%s%s", list, tail);
		dts_refused(dts, "/soc:dma-ranges: more than 8 regions");
	}
}
