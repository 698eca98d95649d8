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
