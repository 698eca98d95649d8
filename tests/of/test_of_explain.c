/* SPDX-License-Identifier: MIT */
/*
 * dmamap_of_explain(): each rule that made a node's configuration, with
 * the kernel function behind it — population, the walk and every node it
 * visits, each window, the limit and masks, coherency's deciding node,
 * the IOMMU and its ids, the pools — and for a node that is no device,
 * why.
 */
#include "../helpers.h"

#define TREE RESV("rest: rest@83000000 { compatible = \"restricted-dma-pool\"; reg = <0x83000000 0x100000>; };") \
	"smmu: iommu@9000 { compatible = \"arm,smmu-v3\"; reg = <0x9000 0x100>; #iommu-cells = <1>; };"       \
	"outer { " SIMPLE_BUS " dma-ranges = <0x10000000 0x80000000 0x4000000>; dma-coherent;"                 \
	"  inner { " SIMPLE_BUS " dma-ranges;"                                                                 \
	"    dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; memory-region = <&rest>; }; }; };"       \
	"gpu@2 { compatible = \"vendor,gpu\"; reg = <0x2 0x1>; iommus = <&smmu 4>, <&smmu 5>; };"              \
	"i2c@3 { compatible = \"vendor,i2c\"; reg = <0x3 0x1>; #address-cells = <1>; #size-cells = <0>;"      \
	"  eeprom@50 { compatible = \"atmel,24c02\"; reg = <0x50>; }; }; };"

/* The explanation of @path on TREE, or NULL (said). */
static char *explain(const char *path, int *ret)
{
	static char out[16384];
	struct dmamap_platform *p = dts_board(TREE);
	struct dmamap_error err = { 0 };
	const void *blob;
	size_t size;

	*ret = -1;
	if (!p)
		return NULL;
	blob = dmamap_platform_fdt(p, &size);
	*ret = dmamap_of_explain(blob, size, NULL, path, out, sizeof(out), &err);
	dmamap_platform_destroy(p);
	if (*ret && *ret != -ENOENT)
		printf("#   %s\n", err.msg);
	return out;
}

static bool says(const char *text, const char *what)
{
	bool yes = text && strstr(text, what);

	if (!yes)
		printf("#   does not say \"%s\" in:\n%s", what, text ? text : "(nothing)");
	return yes;
}

TEST(of_explain_tells_the_walk_translation_coherency_and_pool)
{
	int ret;
	char *t = explain("/outer/inner/dma@1", &ret);

	REQUIRE(t && ret == 0);
	CHECK(says(t, "a child of /outer/inner: of_platform_populate() makes a platform device of it"));
	CHECK(says(t, "the walk starts at its DMA parent /outer/inner"));
	CHECK(says(t, "/outer/inner has an empty dma-ranges (1:1): keep walking up"));
	CHECK(says(t, "the map comes from /outer: 1 entry"));
	CHECK(says(t, "entry 1: bus 0x10000000 = CPU 0x80000000, size 0x4000000"));
	CHECK(says(t, "bus_dma_limit 0x13ffffff"));
	CHECK(says(t, "of_dma_is_coherent(): /outer says dma-coherent"));
	CHECK(says(t, "no iommus: no IOMMU"));
	CHECK(says(t, "of_dma_set_restricted_buffer(): memory-region[0] of its node is the restricted pool rest@83000000"));
	/* One step per line, in the order the rules apply. */
	CHECK(strstr(t, "of_platform_populate") < strstr(t, "of_dma_get_range") &&
	      strstr(t, "of_dma_get_range") < strstr(t, "of_dma_is_coherent"));
}

TEST(of_explain_tells_every_iommu_id_and_no_restricted_pool_behind_it)
{
	int ret;
	char *t = explain("/gpu@2", &ret);

	REQUIRE(t && ret == 0);
	CHECK(says(t, "a DMA master by its binding: iommus"));
	CHECK(says(t, "iommus has 2 ids on iommu@9000"));
	CHECK(says(t, "the board's default, non-coherent"));
}

TEST(of_explain_says_why_a_node_is_no_device)
{
	int ret;
	char *t = explain("/i2c@3/eeprom@50", &ret);

	REQUIRE(t && ret == 0);
	CHECK(says(t, "not a device: its parent /i2c@3 is no bus of_platform_populate() descends into"));
	CHECK(!strstr(t, "of_dma_get_range"));
	t = explain("/outer", &ret);
	REQUIRE(t && ret == 0);
	CHECK(says(t, "not a device: it is a bus"));
	t = explain("/nosuch", &ret);
	CHECK_EQ(ret, -ENOENT);
}

TEST(of_explain_refuses_bad_arguments)
{
	struct dmamap_error err = { 0 };
	char out[64];

	if (dmamap_of_explain(NULL, 0, NULL, "/", out, sizeof(out), &err) == -ENOSYS)
		SKIP("built without libfdt");
	CHECK_EQ(dmamap_of_explain(NULL, 0, NULL, "/", out, sizeof(out), &err), -EINVAL);
	CHECK_EQ(dmamap_of_explain("junk", 4, NULL, NULL, out, sizeof(out), &err), -EINVAL);
	CHECK_EQ(dmamap_of_explain("junk", 4, NULL, "/", NULL, 0, &err), -EINVAL);
}

#define ODD_TREE HEAD                                                                               \
	"off@4 { compatible = \"vendor,x\"; reg = <0x4 0x1>; status = \"disabled\"; };"                  \
	"plain@5 { reg = <0x5 0x1>; };"                                                                   \
	"opp { compatible = \"operating-points-v2\"; };"                                                  \
	"bus { " SIMPLE_BUS " status = \"disabled\"; child@6 { compatible = \"vendor,y\"; reg = <0x6 0x1>; }; };" \
	"i2c@7 { compatible = \"vendor,i2c\"; reg = <0x7 0x1>; #address-cells = <1>; #size-cells = <1>;"    \
	"  sub { " SIMPLE_BUS " leaf@1 { compatible = \"vendor,z\"; reg = <0x1 0x1>; }; }; };"              \
	"uart@8 { compatible = \"arm,pl011\", \"arm,primecell\"; reg = <0x8 0x1>; };"                      \
	"gpio@9 { compatible = \"vendor,gpio\"; reg = <0x9 0x1>; };"                                      \
	"pcie@40000000 { compatible = \"pci-host-ecam-generic\"; device_type = \"pci\";"                   \
	"  #address-cells = <3>; #size-cells = <2>; reg = <0x40000000 0x1000>;"                            \
	"  ep@0,0 { reg = <0x10000 0 0 0 0>; }; }; };"

/* @path explained on ODD_TREE must say @what. */
static void odd(const char *path, const char *what)
{
	static char out[16384];
	struct dmamap_platform *p = dts_board(ODD_TREE);
	struct dmamap_error err = { 0 };
	const void *blob;
	size_t size;
	int ret;

	REQUIRE(p);
	blob = dmamap_platform_fdt(p, &size);
	ret = dmamap_of_explain(blob, size, NULL, path, out, sizeof(out), &err);
	dmamap_platform_destroy(p);
	CHECK_MSG(ret == 0, "%s: %d %s", path, ret, err.msg);
	CHECK_MSG(says(out, what), "%s", path);
}

TEST(of_explain_names_what_stops_population_and_how_each_device_is_made)
{
	odd("/", "the root is the board itself");
	odd("/off@4", "its status is \"disabled\"");
	odd("/plain@5", "it has no compatible: of_platform_bus_create() skips it");
	odd("/opp", "an operating-points table: of_skipped_node_table");
	odd("/bus/child@6", "its ancestor /bus is disabled");
	odd("/i2c@7/sub/leaf@1", "its parent /i2c@7/sub is not populated itself");
	odd("/uart@8", "arm,primecell: of_platform_bus_create() makes an AMBA device of it");
	odd("/gpio@9", "nothing in its binding says it does DMA itself");
	odd("/pcie@40000000/ep@0,0", "a PCI function below /pcie@40000000: the host controller's driver enumerates it");
}
