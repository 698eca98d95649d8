/* SPDX-License-Identifier: MIT */
/*
 * Device-managed resources, the driver's own: devm_kzalloc memory zeroed
 * and aligned to the cache line, actions run after remove newest first
 * (after a failed probe too), devm_kfree of foreign memory refused,
 * devm_request_irq handlers freed at release, and a probe failing on an
 * injected allocation fault leaving nothing behind.
 * test_driver_devres_dma.c has the DMA API's dmam_ calls.
 */
#include "driver_helpers.h"

/* What a test's probe does; the driver below runs it. */
static int (*body)(struct platform_device *pdev);
static int order[16], norder;

static void record(void *data)
{
	if (norder < 16)
		order[norder] = (int)(intptr_t)data;
	norder++;
}

static int devres_probe(struct platform_device *pdev)
{
	return body ? body(pdev) : 0;
}

static void devres_remove(struct platform_device *pdev)
{
	(void)pdev;
	record((void *)0);
}

static const struct of_device_id devres_ids[] = { { .compatible = "dmamap,memcpy" }, { } };
static struct platform_driver devres_drv = {
	.probe = devres_probe,
	.remove = devres_remove,
	.driver = { .name = "devres", .of_match_table = devres_ids },
};

/* @p's device @name bound to devres_drv running @fn; the attach's result in *@ret. */
static struct device *bind(struct dmamap_platform *p, const char *name,
			   int (*fn)(struct platform_device *), int *ret)
{
	struct device *dev = p ? lookup(p, name) : NULL;

	body = fn;
	if (dev && platform_driver_register(&devres_drv) == 0)
		*ret = device_attach(dev);
	else
		dev = NULL;
	return dev;
}

static void *zbuf[4];
static const size_t zsize[4] = { 1, 24, 100, 333 };

static int kzalloc_body(struct platform_device *pdev)
{
	void *dirty = devm_kmalloc(&pdev->dev, 333, GFP_KERNEL);

	if (!dirty)
		return -ENOMEM;
	memset(dirty, 0xa5, 333);
	devm_kfree(&pdev->dev, dirty); /* its memory may come back below: still zeroed */
	for (int i = 0; i < 4; i++)
		zbuf[i] = devm_kzalloc(&pdev->dev, zsize[i], GFP_KERNEL);
	return 0;
}

TEST(driver_devres_kzalloc_is_zeroed_and_cache_line_aligned)
{
	/* A 128-byte line: more than any allocator aligns by chance. */
	struct dmamap_platform *p = quiet(dts_board(HEAD
		"cpus { #address-cells = <1>; #size-cells = <0>;"
		"  cpu@0 { device_type = \"cpu\"; reg = <0>; d-cache-line-size = <128>; }; };"
		"dma@1000 { compatible = \"dmamap,memcpy\"; reg = <0x1000 0x100>; }; };"));
	int ret = 0;
	struct device *dev = bind(p, "dma@1000", kzalloc_body, &ret);

	REQUIRE(dev && ret == 1);
	REQUIRE(dmamap_cache_line_size(p) == 128);
	for (int i = 0; i < 4; i++) {
		REQUIRE(zbuf[i]);
		CHECK_MSG((uintptr_t)zbuf[i] % 128 == 0, "%zu bytes at %p", zsize[i], zbuf[i]);
		CHECK(all_bytes(zbuf[i], zsize[i], 0));
	}
	CHECK_EQ(dmamap_devres_count(dev), 4);
	CHECK(devm_kzalloc(dev, 0, GFP_KERNEL) == NULL);
	CHECK(devm_kzalloc(NULL, 8, GFP_KERNEL) == NULL);
	device_release_driver(dev);
	CHECK_EQ(dmamap_devres_count(dev), 0);
	CHECK(devm_kzalloc(dev, 8, GFP_KERNEL) == NULL); /* unbound: no devres */
	dmamap_platform_destroy(p);
}

static int actions_body(struct platform_device *pdev)
{
	for (intptr_t i = 1; i <= 3; i++)
		if (devm_add_action(&pdev->dev, record, (void *)i))
			return -ENOMEM;
	return 0;
}

TEST(driver_devres_actions_run_after_remove_newest_first)
{
	struct dmamap_platform *p = tree_board(NULL);
	int ret = 0;
	struct device *dev = bind(p, COH, actions_body, &ret);

	REQUIRE(dev && ret == 1);
	CHECK_EQ(dmamap_devres_count(dev), 3);
	CHECK_EQ(norder, 0);
	CHECK_EQ(devm_add_action(dev, NULL, NULL), -EINVAL);
	CHECK_EQ(devm_add_action(NULL, record, NULL), -EINVAL);
	device_release_driver(dev);
	REQUIRE(norder == 4);
	CHECK_EQ(order[0], 0); /* remove */
	CHECK_EQ(order[1], 3);
	CHECK_EQ(order[2], 2);
	CHECK_EQ(order[3], 1);
	dmamap_platform_destroy(p);
}

static int failing_body(struct platform_device *pdev)
{
	actions_body(pdev);
	devm_kzalloc(&pdev->dev, 64, GFP_KERNEL);
	return -EIO;
}

TEST(driver_devres_released_after_a_failed_probe)
{
	struct dmamap_platform *p = tree_board(NULL);
	int ret = 0;
	struct device *dev = bind(p, COH, failing_body, &ret);

	REQUIRE(dev);
	CHECK_EQ(ret, -EIO);
	REQUIRE(norder == 3); /* no remove: the probe failed */
	CHECK_EQ(order[0], 3);
	CHECK_EQ(order[1], 2);
	CHECK_EQ(order[2], 1);
	CHECK_EQ(dmamap_devres_count(dev), 0);
	dmamap_platform_destroy(p);
}

static unsigned int lines_before, lines_after, count_before, count_after;
static int stranger;

static int kfree_body(struct platform_device *pdev)
{
	void *mine = devm_kmalloc(&pdev->dev, 32, GFP_KERNEL);

	count_before = dmamap_devres_count(&pdev->dev);
	lines_before = logs.lines;
	devm_kfree(&pdev->dev, &stranger);
	devm_kfree(&pdev->dev, NULL); /* ignored */
	lines_after = logs.lines;
	count_after = dmamap_devres_count(&pdev->dev);
	devm_kfree(&pdev->dev, mine);
	devm_kfree(&pdev->dev, mine); /* twice: the second is a stranger too */
	return 0;
}

TEST(driver_devres_kfree_of_memory_it_did_not_give_is_logged)
{
	struct dmamap_platform *p = tree_board(NULL);
	int ret = 0;
	struct device *dev = bind(p, COH, kfree_body, &ret);

	REQUIRE(dev && ret == 1);
	CHECK_EQ(lines_after, lines_before + 1);
	CHECK(strstr(logs.all, "devm_kfree()") != NULL);
	CHECK_EQ(count_before, 1);
	CHECK_EQ(count_after, 1);
	CHECK_EQ(dmamap_devres_count(dev), 0);
	CHECK_EQ(logs.lines, lines_before + 2);
	device_release_driver(dev);
	dmamap_platform_destroy(p);
}

static irqreturn_t nop_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQ_HANDLED;
}

static int irq_body(struct platform_device *pdev)
{
	int irq = platform_get_irq(pdev, 0);

	if (irq <= 0)
		return irq ? irq : -ENXIO;
	return devm_request_irq(&pdev->dev, (unsigned int)irq, nop_handler, 0, NULL, pdev);
}

TEST(driver_devres_request_irq_freed_at_release)
{
	struct dmamap_platform *p = tree_board(NULL);
	int ret = 0, other;
	struct device *dev = bind(p, COH, irq_body, &ret);
	int irq = dev ? dmamap_device_irq(dev, 0) : -1;

	REQUIRE(dev && ret == 1 && irq > 0);
	CHECK_EQ(dmamap_devres_count(dev), 1);
	CHECK_EQ(request_irq((unsigned int)irq, nop_handler, 0, "other", &other), -EBUSY);
	device_release_driver(dev);
	CHECK_EQ(request_irq((unsigned int)irq, nop_handler, 0, "other", &other), 0);
	free_irq((unsigned int)irq, &other);
	dmamap_platform_destroy(p);
}

static void *after_fault;
static unsigned int held_at_fault;
static int reset_ret;

static int faulty_body(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	dma_addr_t h;

	if (!devm_kzalloc(dev, 64, GFP_KERNEL) || !dmam_alloc_coherent(dev, 4096, &h, GFP_KERNEL) ||
	    devm_add_action(dev, record, (void *)7))
		return -EINVAL; /* not what the test expects */
	dmamap_fault_inject(dmamap_device_platform(dev), DMAMAP_FAULT_ALLOC, 1);
	reset_ret = devm_add_action_or_reset(dev, record, (void *)8); /* fails: runs it at once */
	dmamap_fault_inject(dmamap_device_platform(dev), DMAMAP_FAULT_ALLOC, 1);
	after_fault = devm_kzalloc(dev, 64, GFP_KERNEL);
	held_at_fault = dmamap_devres_count(dev);
	if (!after_fault)
		return dev_err_probe(dev, -ENOMEM, "out of memory");
	return 0;
}

TEST(driver_devres_probe_failing_on_an_injected_fault_leaves_nothing)
{
	struct dmamap_platform *p = tree_board(NULL);
	int ret = 0;
	struct device *dev;

	REQUIRE(p);
	dmamap_debug_enable(p, true);
	dev = bind(p, NC, faulty_body, &ret);
	REQUIRE(dev);
	CHECK_EQ(ret, -ENOMEM);
	CHECK(after_fault == NULL);
	CHECK_EQ(dmamap_fault_injected(p), 2);
	CHECK_EQ(reset_ret, -ENOMEM);
	CHECK_EQ(held_at_fault, 3);
	REQUIRE(norder == 2);
	CHECK_EQ(order[0], 8); /* devm_add_action_or_reset's own call */
	CHECK_EQ(order[1], 7); /* the release */
	CHECK_EQ(dmamap_devres_count(dev), 0);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	CHECK_EQ(stats_of(dev).frees, stats_of(dev).allocs);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_LEAK), 0);
	dmamap_platform_destroy(p);
}
