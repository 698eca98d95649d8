/* SPDX-License-Identifier: MIT */
/*
 * What a bound platform device offers: memory resources from its node's
 * reg (through the parent's #address-cells and #size-cells) or the model's
 * 4 KiB block at 0, interrupt resources that are its lines, the lines'
 * numbers, and the register block behind memory resource 0.
 */
#include "driver_helpers.h"

static u32 id_in_probe;
static void __iomem *base_in_probe;

static int res_probe(struct platform_device *pdev)
{
	base_in_probe = devm_platform_ioremap_resource(pdev, 0);
	if (!IS_ERR(base_in_probe))
		id_in_probe = readl(base_in_probe + MCE_REG_ID);
	return 0;
}

static const struct of_device_id res_ids[] = {
	{ .compatible = "dmamap,memcpy" },
	{ .compatible = "acme,nothing" },
	{ }
};
static struct platform_driver res_drv = {
	.probe = res_probe,
	.driver = { .name = "res", .of_match_table = res_ids },
};

#define TREE HEAD                                                                          \
	"soc { " SIMPLE_BUS                                                                \
	"  dma@10000000 { compatible = \"dmamap,memcpy\";"                                 \
	"    reg = <0x10000000 0x1000>, <0x10002000 0x200>; };"                            \
	"  thing@20000000 { compatible = \"acme,nothing\"; reg = <0x20000000 0x100>; }; };" \
	"wide { compatible = \"simple-bus\"; #address-cells = <2>; #size-cells = <2>; ranges;" \
	"  dma@130000000 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x30000000 0x0 0x4000>; }; }; };"

/* The tree's device @name, bound to res_drv: its platform_device. */
static struct platform_device *bound_pdev(struct dmamap_platform *p, const char *name)
{
	struct device *dev = p ? lookup(p, name) : NULL;

	if (!dev || device_attach(dev) != 1)
		return NULL;
	return to_platform_device(dev);
}

static bool is_mem(struct resource *r, u64 start, u64 end)
{
	if (!r) {
		printf("#   no resource\n");
		return false;
	}
	if (r->start != start || r->end != end || !(r->flags & IORESOURCE_MEM)) {
		printf("#   [%#llx, %#llx] flags %#lx\n", (unsigned long long)r->start,
		       (unsigned long long)r->end, r->flags);
		return false;
	}
	return true;
}

TEST(driver_resources_mem_from_the_nodes_reg)
{
	struct dmamap_platform *p = quiet(dts_board(TREE));
	struct platform_device *pdev, *wide;

	REQUIRE(p && platform_driver_register(&res_drv) == 0);
	pdev = bound_pdev(p, "dma@10000000");
	wide = bound_pdev(p, "dma@130000000");
	REQUIRE(pdev && wide);
	CHECK(is_mem(platform_get_resource(pdev, IORESOURCE_MEM, 0), 0x10000000, 0x10000fff));
	CHECK(is_mem(platform_get_resource(pdev, IORESOURCE_MEM, 1), 0x10002000, 0x100021ff));
	CHECK(platform_get_resource(pdev, IORESOURCE_MEM, 2) == NULL);
	CHECK_EQ(resource_size(platform_get_resource(pdev, IORESOURCE_MEM, 0)), 0x1000);
	/* Two cells of address and two of size. */
	CHECK(is_mem(platform_get_resource(wide, IORESOURCE_MEM, 0), 0x130000000ULL, 0x130003fffULL));
	CHECK(platform_get_resource(wide, IORESOURCE_MEM, 1) == NULL);
	dmamap_bus_remove(p);
	CHECK(platform_get_resource(pdev, IORESOURCE_MEM, 0) == NULL); /* unbound */
	CHECK(platform_get_resource(NULL, IORESOURCE_MEM, 0) == NULL);
	dmamap_platform_destroy(p);
}

TEST(driver_resources_model_block_at_0_for_a_node_without_reg)
{
	struct dmamap_platform *p = tree_board(NULL);
	struct platform_device *pdev;

	REQUIRE(p && platform_driver_register(&res_drv) == 0);
	pdev = bound_pdev(p, COH);
	REQUIRE(pdev);
	CHECK(is_mem(platform_get_resource(pdev, IORESOURCE_MEM, 0), 0, 0xfff));
	CHECK(platform_get_resource(pdev, IORESOURCE_MEM, 1) == NULL);
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}

TEST(driver_resources_irq_is_the_lines_number)
{
	struct dmamap_platform *p = tree_board(NULL);
	struct platform_device *pdev;
	struct resource *r;
	int irq;

	REQUIRE(p && platform_driver_register(&res_drv) == 0);
	pdev = bound_pdev(p, NC);
	REQUIRE(pdev);
	irq = platform_get_irq(pdev, 0);
	CHECK(irq > 0);
	CHECK_EQ(irq, dmamap_device_irq(&pdev->dev, 0));
	r = platform_get_resource(pdev, IORESOURCE_IRQ, 0);
	REQUIRE(r);
	CHECK(r->flags & IORESOURCE_IRQ);
	CHECK_EQ(r->start, irq);
	CHECK_EQ(r->end, irq);
	CHECK(platform_get_resource(pdev, IORESOURCE_IRQ, 1) == NULL); /* one line */
	CHECK_EQ(platform_get_irq_optional(pdev, 0), irq);
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}

TEST(driver_resources_missing_irq_is_enxio_and_logged)
{
	struct line_log l = { 0 };
	struct dmamap_platform *p = tree_board(&l);
	struct platform_device *pdev;

	REQUIRE(p && platform_driver_register(&res_drv) == 0);
	pdev = bound_pdev(p, NC);
	REQUIRE(pdev);
	CHECK_EQ(l.n, 0);
	CHECK_EQ(platform_get_irq(pdev, 5), -ENXIO);
	CHECK_EQ(l.n, 1);
	CHECK_MSG(line_with(&l, "IRQ index 5 not found") >= 0, "line: %s", l.line[0]);
	CHECK_EQ(l.level[0], DMAMAP_LOG_ERR);
	CHECK_EQ(platform_get_irq_optional(pdev, 5), -ENXIO);
	CHECK_EQ(l.n, 1); /* optional: silent */
	CHECK_EQ(platform_get_irq(NULL, 0), -EINVAL);
	CHECK_EQ(platform_get_irq_optional(NULL, 0), -EINVAL);
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}

TEST(driver_resources_ioremap_gives_the_engines_registers)
{
	struct dmamap_platform *p = tree_board(NULL);
	struct platform_device *pdev;
	void __iomem *one;

	REQUIRE(p && platform_driver_register(&res_drv) == 0);
	pdev = bound_pdev(p, COH);
	REQUIRE(pdev);
	REQUIRE(!IS_ERR(base_in_probe) && base_in_probe);
	CHECK_EQ(id_in_probe, MCE_ID);
	CHECK_EQ(readl(base_in_probe + MCE_REG_ID), MCE_ID);
	one = devm_platform_ioremap_resource(pdev, 1); /* no such resource */
	CHECK(IS_ERR(one));
	CHECK_EQ(PTR_ERR(one), -EINVAL);
	CHECK_EQ(PTR_ERR(devm_platform_ioremap_resource(NULL, 0)), -EINVAL);
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}

TEST(driver_resources_ioremap_without_registers_behind_is_enodev)
{
	struct dmamap_platform *p = quiet(dts_board(TREE));
	struct platform_device *thing, *dma;
	void __iomem *r;

	REQUIRE(p && platform_driver_register(&res_drv) == 0);
	thing = bound_pdev(p, "thing@20000000");
	REQUIRE(thing);
	/* A node with reg and no model: a device with a resource and nothing behind it. */
	CHECK_EQ(dmamap_device_model_name(&thing->dev)[0], '\0');
	CHECK(is_mem(platform_get_resource(thing, IORESOURCE_MEM, 0), 0x20000000, 0x200000ff));
	CHECK(IS_ERR(base_in_probe));
	CHECK_EQ(PTR_ERR(base_in_probe), -ENODEV);
	CHECK(platform_get_resource(thing, IORESOURCE_IRQ, 0) == NULL);
	CHECK_EQ(platform_get_irq_optional(thing, 0), -ENXIO);
	/* A second reg of a device with a model: only resource 0 has registers. */
	dma = bound_pdev(p, "dma@10000000");
	REQUIRE(dma);
	r = devm_platform_ioremap_resource(dma, 1);
	CHECK(IS_ERR(r));
	CHECK_EQ(PTR_ERR(r), -ENODEV);
	CHECK_EQ(readl(base_in_probe + MCE_REG_ID), MCE_ID);
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}
