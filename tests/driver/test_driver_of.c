/* SPDX-License-Identifier: MIT */
/*
 * A bound device's node and its properties, as <linux/of.h> reads them:
 * values (cells converted from big-endian, strings, string lists, flags),
 * the kernel's errors (-EINVAL missing, -ENODATA empty, -EOVERFLOW too
 * short, -EILSEQ not NUL-terminated), NULL arguments, the node's path, and
 * no node for a device no driver holds.
 */
#include "driver_helpers.h"

static int of_probe(struct platform_device *pdev)
{
	(void)pdev;
	return 0;
}

static const struct of_device_id of_ids[] = { { .compatible = "acme,dma" }, { } };
static struct platform_driver of_drv = {
	.probe = of_probe,
	.driver = { .name = "of-test", .of_match_table = of_ids },
};

#define TREE HEAD                                                                          \
	"dma@1000 { compatible = \"acme,dma\", \"dmamap,memcpy\"; reg = <0x1000 0x100>;"  \
	"  acme,u32 = <0x12345678>; acme,cells = <1 2 3>; acme,u64 = <0x1 0x23456789>;"   \
	"  acme,str = \"hello\"; acme,list = \"a\", \"bb\", \"ccc\"; acme,flag;"          \
	"  acme,short = [00 01]; acme,bytes = [61 62]; };"                                 \
	"soc { " SIMPLE_BUS                                                                \
	"  dma@2000 { compatible = \"acme,dma\"; reg = <0x2000 0x100>; }; }; };"

/* The node of dts_board(TREE)'s device @name, bound to of_drv; the board in *@p. */
static struct device_node *node_of(const char *name, struct dmamap_platform **p,
				   struct device **dev)
{
	*p = quiet(dts_board(TREE));
	*dev = *p ? lookup(*p, name) : NULL;
	if (!*dev || platform_driver_register(&of_drv) || device_attach(*dev) != 1)
		return NULL;
	return dev_of_node(*dev);
}

TEST(driver_of_property_values)
{
	struct dmamap_platform *p;
	struct device *dev;
	struct device_node *np = node_of("dma@1000", &p, &dev);
	uint32_t v = 0, a[3] = { 0 };
	uint64_t w = 0;
	const char *s = NULL;
	int len = -1;

	REQUIRE(np);
	CHECK_EQ(of_property_read_u32(np, "acme,u32", &v), 0);
	CHECK_EQ(v, 0x12345678);
	CHECK_EQ(of_property_read_u32(np, "acme,cells", &v), 0); /* the first of them */
	CHECK_EQ(v, 1);
	CHECK_EQ(of_property_read_u32_array(np, "acme,cells", a, 3), 0);
	CHECK(a[0] == 1 && a[1] == 2 && a[2] == 3);
	CHECK_EQ(of_property_read_u64(np, "acme,u64", &w), 0);
	CHECK_EQ(w, 0x123456789ULL);
	CHECK_EQ(of_property_read_string(np, "acme,str", &s), 0);
	CHECK(s && !strcmp(s, "hello"));
	CHECK_EQ(of_property_read_string(np, "acme,list", &s), 0);
	CHECK(s && !strcmp(s, "a"));
	CHECK_EQ(of_property_match_string(np, "acme,list", "a"), 0);
	CHECK_EQ(of_property_match_string(np, "acme,list", "bb"), 1);
	CHECK_EQ(of_property_match_string(np, "acme,list", "ccc"), 2);
	CHECK_EQ(of_property_match_string(np, "compatible", "dmamap,memcpy"), 1);
	CHECK(of_device_is_compatible(np, "acme,dma"));
	CHECK(!of_device_is_compatible(np, "acme,other"));
	CHECK(of_property_read_bool(np, "acme,flag"));
	CHECK(of_property_present(np, "acme,str"));
	CHECK(!of_property_read_bool(np, "acme,missing"));
	CHECK(of_get_property(np, "acme,cells", &len) != NULL);
	CHECK_EQ(len, 12);
	v = 0;
	CHECK_EQ(device_property_read_u32(dev, "acme,u32", &v), 0);
	CHECK_EQ(v, 0x12345678);
	CHECK(device_property_read_bool(dev, "acme,flag"));
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}

TEST(driver_of_property_errors_as_the_kernels)
{
	struct dmamap_platform *p;
	struct device *dev;
	struct device_node *np = node_of("dma@1000", &p, &dev);
	uint32_t v = 7, a[4] = { 9, 9, 9, 9 };
	uint64_t w = 7;
	const char *s = "untouched";
	int len = -1;

	REQUIRE(np);
	CHECK_EQ(of_property_read_u32(np, "acme,missing", &v), -EINVAL);
	CHECK_EQ(of_property_read_u32(np, "acme,flag", &v), -ENODATA);
	CHECK_EQ(of_property_read_u32(np, "acme,short", &v), -EOVERFLOW);
	CHECK_EQ(v, 7);
	CHECK_EQ(of_property_read_u32_array(np, "acme,cells", a, 4), -EOVERFLOW);
	CHECK(a[0] == 9 && a[3] == 9); /* left alone */
	CHECK_EQ(of_property_read_u64(np, "acme,u32", &w), -EOVERFLOW);
	CHECK_EQ(of_property_read_u64(np, "acme,missing", &w), -EINVAL);
	CHECK_EQ(w, 7);
	CHECK_EQ(of_property_read_string(np, "acme,missing", &s), -EINVAL);
	CHECK_EQ(of_property_read_string(np, "acme,flag", &s), -ENODATA);
	CHECK_EQ(of_property_read_string(np, "acme,bytes", &s), -EILSEQ);
	CHECK(!strcmp(s, "untouched"));
	CHECK_EQ(of_property_match_string(np, "acme,list", "zz"), -ENODATA);
	CHECK_EQ(of_property_match_string(np, "acme,missing", "a"), -EINVAL);
	CHECK_EQ(of_property_match_string(np, "acme,bytes", "zz"), -EILSEQ);
	CHECK(of_get_property(np, "acme,missing", &len) == NULL);
	CHECK_EQ(len, 0);
	CHECK_EQ(device_property_read_u32(dev, "acme,missing", &v), -EINVAL);
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}

TEST(driver_of_null_arguments_are_einval)
{
	struct dmamap_platform *p;
	struct device *dev;
	struct device_node *np = node_of("dma@1000", &p, &dev);
	uint32_t v = 0;
	uint64_t w = 0;
	const char *s = NULL;

	REQUIRE(np);
	CHECK_EQ(of_property_read_u32(NULL, "acme,u32", &v), -EINVAL);
	CHECK_EQ(of_property_read_u32_array(NULL, "acme,cells", &v, 1), -EINVAL);
	CHECK_EQ(of_property_read_u64(NULL, "acme,u64", &w), -EINVAL);
	CHECK_EQ(of_property_read_string(NULL, "acme,str", &s), -EINVAL);
	CHECK_EQ(of_property_match_string(NULL, "acme,list", "a"), -EINVAL);
	CHECK(!of_property_present(NULL, "acme,flag"));
	CHECK(of_get_property(NULL, "acme,flag", NULL) == NULL);
	/* A NULL name or destination on a real node. */
	CHECK_EQ(of_property_read_u32(np, NULL, &v), -EINVAL);
	CHECK_EQ(of_property_read_u32_array(np, "acme,cells", NULL, 1), -EINVAL);
	CHECK_EQ(of_property_read_u64(np, "acme,u64", NULL), -EINVAL);
	CHECK_EQ(of_property_read_string(np, "acme,str", NULL), -EINVAL);
	CHECK_EQ(of_property_match_string(np, "acme,list", NULL), -EINVAL);
	CHECK(!of_property_present(np, NULL));
	CHECK(dev_of_node(NULL) == NULL);
	CHECK_EQ(of_node_full_name(NULL)[0], '\0');
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}

TEST(driver_of_node_path_and_no_node_without_a_driver)
{
	struct dmamap_platform *p;
	struct device *dev, *nested;
	struct device_node *np = node_of("dma@1000", &p, &dev);
	uint32_t v = 0;

	REQUIRE(np);
	CHECK(!strcmp(of_node_full_name(np), "/dma@1000"));
	nested = lookup(p, "dma@2000");
	REQUIRE(nested);
	CHECK(dev_of_node(nested) == NULL); /* not bound yet */
	CHECK_EQ(device_property_read_u32(nested, "reg", &v), -EINVAL);
	REQUIRE(device_attach(nested) == 1);
	CHECK(dev_of_node(nested) && !strcmp(of_node_full_name(dev_of_node(nested)), "/soc/dma@2000"));
	CHECK_EQ(device_property_read_u32(nested, "reg", &v), 0);
	CHECK_EQ(v, 0x2000);
	device_release_driver(dev);
	CHECK(dev_of_node(dev) == NULL);
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}
