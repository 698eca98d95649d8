/* SPDX-License-Identifier: MIT */
/*
 * A board destroyed with drivers bound releases them first: each remove()
 * runs while its device is whole, devres goes back, and a driver
 * unregistered afterwards finds nothing left to release.
 */
#include "driver_helpers.h"

static unsigned int removed;
static struct device *removed_dev[8];

static int keep_probe(struct platform_device *pdev)
{
	dma_addr_t h;

	/* Something devres must give back, so a missed release would leak. */
	return dmam_alloc_coherent(&pdev->dev, 4096, &h, GFP_KERNEL) ? 0 : -ENOMEM;
}

static void keep_remove(struct platform_device *pdev)
{
	/* The device still answers: its registers are there. */
	void __iomem *regs = dmamap_device_ioremap(&pdev->dev);

	if (removed < 8 && regs && readl(regs + MCE_REG_ID) == MCE_ID)
		removed_dev[removed] = &pdev->dev;
	removed++;
}

static const struct of_device_id keep_ids[] = { { .compatible = "dmamap,memcpy" }, { } };
static struct platform_driver keep_drv = {
	.probe = keep_probe,
	.remove = keep_remove,
	.driver = { .name = "keep", .of_match_table = keep_ids },
};

TEST(driver_destroying_a_board_releases_its_bound_devices)
{
	struct dmamap_platform *p = tree_board(NULL);

	dmamap_debug_enable(p, true);
	CHECK(platform_driver_register(&keep_drv) == 0);
	CHECK(dmamap_bus_probe(p) == 6);
	reps.n = 0;
	dmamap_platform_destroy(p);
	CHECK(removed == 6);
	for (unsigned int i = 0; i < 6; i++)
		CHECK(removed_dev[i] != NULL);
	/* devres gave the coherent memory back: no leak report at destroy. */
	CHECK_MSG(reps.n == 0, "%u reports, the last: %s: %s", reps.n, dmamap_dbg_kind_name(reps.last.kind), reps.last.text);
	/* Nothing is bound any more: unregistering touches no freed board. */
	platform_driver_unregister(&keep_drv);
	CHECK(removed == 6);
}

TEST(driver_destroying_one_bound_device_releases_it)
{
	struct dmamap_platform *p = tree_board(NULL);
	struct device *dev = lookup(p, NC);

	removed = 0;
	CHECK(platform_driver_register(&keep_drv) == 0);
	CHECK(device_attach(dev) == 1);
	CHECK(dmamap_devres_count(dev) == 1);
	dmamap_device_destroy(dev);
	CHECK(removed == 1);
	dmamap_platform_destroy(p);
	CHECK(removed == 1);
}
