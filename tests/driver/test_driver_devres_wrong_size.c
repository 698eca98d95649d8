/* SPDX-License-Identifier: MIT */
/*
 * dmam_free_coherent() with a size the allocation did not have frees
 * nothing, as the kernel's match on address, handle and size: the memory
 * stays the driver's, logged, and release gives it back whole.
 */
#include "driver_helpers.h"

static void *cpu;
static dma_addr_t handle;
static unsigned int kept;

static int wrong_size_probe(struct platform_device *pdev)
{
	cpu = dmam_alloc_coherent(&pdev->dev, 4096, &handle, GFP_KERNEL);
	if (!cpu)
		return -ENOMEM;
	dmam_free_coherent(&pdev->dev, 8192, cpu, handle);
	kept = dmamap_devres_count(&pdev->dev);
	return 0;
}

static const struct of_device_id ids[] = { { .compatible = "dmamap,memcpy" }, { } };
static struct platform_driver wrong_size_drv = {
	.probe = wrong_size_probe,
	.driver = { .name = "wrong-size", .of_match_table = ids },
};

TEST(driver_dmam_free_coherent_of_the_wrong_size_frees_nothing)
{
	struct line_log l = { 0 };
	struct dmamap_platform *p = tree_board(&l);
	struct device *dev = lookup(p, NC);

	dmamap_debug_enable(p, true);
	reps.n = 0;
	CHECK(platform_driver_register(&wrong_size_drv) == 0);
	CHECK(device_attach(dev) == 1);
	CHECK(kept == 1);
	CHECK(line_with(&l, "dmam_free_coherent() of") >= 0);
	CHECK(dmamap_debug_live(dev, NULL) == 1);
	device_release_driver(dev);
	/* Freed once, at release, with its own size: no report, nothing live. */
	CHECK_MSG(reps.n == 0, "%s", reps.last.text);
	CHECK(dmamap_debug_live(dev, NULL) == 0);
	dmamap_platform_destroy(p);
}

static int deferring_probe(struct platform_device *pdev)
{
	(void)pdev;
	return -517; /* -EPROBE_DEFER */
}

static struct platform_driver deferring_drv = {
	.probe = deferring_probe,
	.driver = { .name = "deferring", .of_match_table = ids },
};

TEST(driver_probe_deferral_is_not_logged_as_a_failure)
{
	struct line_log l = { 0 };
	struct dmamap_platform *p = tree_board(&l);
	int i;

	CHECK(platform_driver_register(&deferring_drv) == 0);
	CHECK(device_attach(lookup(p, COH)) == -517);
	i = line_with(&l, "probe with driver deferring deferred");
	CHECK(i >= 0 && l.level[i] == DMAMAP_LOG_INFO);
	CHECK(line_with(&l, "failed with error") < 0);
	dmamap_platform_destroy(p);
}
