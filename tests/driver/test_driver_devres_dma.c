/* SPDX-License-Identifier: MIT */
/*
 * Device-managed DMA: dmam_alloc_coherent() memory and dmam_pool_create()
 * pools freed at release (once, when dmam_free_coherent() came first), a
 * streaming mapping left behind reported once as a leak, and a dmam_
 * allocation failing at any of its points keeping nothing.
 */
#include "driver_helpers.h"

/* What a test's probe does; the driver below runs it. */
static int (*body)(struct platform_device *pdev);

static int devres_probe(struct platform_device *pdev)
{
	return body ? body(pdev) : 0;
}

static const struct of_device_id devres_ids[] = { { .compatible = "dmamap,memcpy" }, { } };
static struct platform_driver devres_drv = {
	.probe = devres_probe,
	.driver = { .name = "devres-dma", .of_match_table = devres_ids },
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

static void *cpu;
static dma_addr_t cpu_dma;
static bool free_early;

static int coherent_body(struct platform_device *pdev)
{
	cpu = dmam_alloc_coherent(&pdev->dev, 4096, &cpu_dma, GFP_KERNEL);
	if (!cpu)
		return -ENOMEM;
	if (free_early)
		dmam_free_coherent(&pdev->dev, 4096, cpu, cpu_dma);
	return 0;
}

TEST(driver_devres_dmam_coherent_freed_at_release)
{
	struct dmamap_platform *p = tree_board(NULL);
	int ret = 0;
	struct device *dev;

	REQUIRE(p);
	dmamap_debug_enable(p, true);
	dev = bind(p, NC, coherent_body, &ret);
	REQUIRE(dev && ret == 1);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 1);
	CHECK_EQ(stats_of(dev).allocs, 1);
	CHECK_EQ(stats_of(dev).frees, 0);
	device_release_driver(dev);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	CHECK_EQ(stats_of(dev).frees, 1);
	CHECK_EQ(reps.n, 0); /* freed, not reported as left behind */
	dmamap_platform_destroy(p);
}

TEST(driver_devres_dmam_free_coherent_early_is_not_freed_again)
{
	struct dmamap_platform *p = tree_board(NULL);
	int ret = 0;
	struct device *dev;
	unsigned int lines;

	REQUIRE(p);
	dmamap_debug_enable(p, true);
	free_early = true;
	dev = bind(p, NC, coherent_body, &ret);
	REQUIRE(dev && ret == 1);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	CHECK_EQ(dmamap_devres_count(dev), 0);
	CHECK_EQ(stats_of(dev).frees, 1);
	lines = logs.lines;
	dmam_free_coherent(dev, 4096, cpu, cpu_dma); /* no longer devres': logged, not freed */
	CHECK_EQ(logs.lines, lines + 1);
	CHECK(strstr(logs.last, "dmam_free_coherent()") != NULL);
	device_release_driver(dev);
	CHECK_EQ(stats_of(dev).frees, 1);
	CHECK_EQ(reps.n, 0);
	dmamap_platform_destroy(p);
}

static struct dma_pool *pool;

static int pool_body(struct platform_device *pdev)
{
	dma_addr_t h;
	void *block;

	pool = dmam_pool_create("devres-pool", &pdev->dev, 64, 64, 0);
	block = pool ? dma_pool_alloc(pool, GFP_KERNEL, &h) : NULL;
	if (!block)
		return -ENOMEM;
	dma_pool_free(pool, block, h); /* the pool keeps its chunk */
	return 0;
}

TEST(driver_devres_dmam_pool_destroyed_at_release)
{
	struct dmamap_platform *p = tree_board(NULL);
	int ret = 0;
	struct device *dev;

	REQUIRE(p);
	dmamap_debug_enable(p, true);
	dev = bind(p, NC, pool_body, &ret);
	REQUIRE(dev && ret == 1);
	CHECK_EQ(dmamap_devres_count(dev), 1);
	CHECK_EQ(stats_of(dev).allocs, 1); /* the pool's chunk */
	CHECK_EQ(stats_of(dev).frees, 0);
	device_release_driver(dev);
	CHECK_EQ(stats_of(dev).frees, 1);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	CHECK_EQ(reps.n, 0);
	dmamap_platform_destroy(p);
}

static uint8_t *leak_buf;

static int leaky_body(struct platform_device *pdev)
{
	dma_addr_t h = dma_map_single(&pdev->dev, leak_buf, 256, DMA_TO_DEVICE);

	return dma_mapping_error(&pdev->dev, h) ? -ENOMEM : 0;
}

TEST(driver_devres_mapping_left_at_release_is_reported_once_as_a_leak)
{
	struct dmamap_platform *p = tree_board(NULL);
	int ret = 0;
	struct device *dev;

	REQUIRE(p);
	dmamap_debug_enable(p, true);
	leak_buf = dbuf(p, 256);
	REQUIRE(leak_buf);
	dev = bind(p, COH, leaky_body, &ret);
	REQUIRE(dev && ret == 1);
	CHECK_EQ(reps.n, 0);
	device_release_driver(dev);
	CHECK_EQ(reps.n, 1);
	CHECK_EQ(reps.last.kind, DMAMAP_DBG_LEAK);
	CHECK(!strcmp(reps.last.device, COH));
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	dmamap_platform_destroy(p); /* forgotten at release: not reported again */
	CHECK_EQ(reps.n, 1);
}

static int points_failed, kept_after_failure;

/* Fail the 1st, 2nd... allocation point of dmam_alloc_coherent() until it succeeds. */
static int coherent_fault_body(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct dmamap_platform *p = dmamap_device_platform(dev);
	dma_addr_t h;

	for (long at = 1; at <= 64; at++) {
		unsigned long hits = dmamap_fault_injected(p);
		void *got;

		dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, at);
		got = dmam_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
		dmamap_fault_inject(p, 0, 0);
		if (got)
			return dmamap_devres_count(dev) == 1 && stats_of(dev).allocs == 1 ? 0 : -EBADE;
		if (dmamap_fault_injected(p) != hits + 1)
			return -EBADE; /* failed without an injected fault */
		points_failed++;
		if (dmamap_devres_count(dev) || stats_of(dev).allocs)
			kept_after_failure++;
	}
	return -E2BIG;
}

/* The record's allocation or the memory's: whichever fails, nothing is kept. */
TEST(driver_devres_dmam_alloc_failing_keeps_nothing)
{
	struct dmamap_platform *p = tree_board(NULL);
	int ret = 0;
	struct device *dev = bind(p, NC, coherent_fault_body, &ret);

	REQUIRE(dev);
	CHECK_EQ(ret, 1);
	CHECK(points_failed >= 2); /* the record, then the coherent memory */
	CHECK_EQ(kept_after_failure, 0);
	dmamap_bus_remove(p);
	CHECK_EQ(stats_of(dev).frees, 1);
	dmamap_platform_destroy(p);
}

TEST(driver_devres_dmam_pool_destroyed_early_leaves_nothing_for_release)
{
	struct dmamap_platform *p = tree_board(NULL);
	struct dma_pool *plain;
	int ret = 0;
	struct device *dev;

	REQUIRE(p);
	dmamap_debug_enable(p, true);
	dev = bind(p, NC, pool_body, &ret);
	REQUIRE(dev && ret == 1);
	CHECK_EQ(dmamap_devres_count(dev), 1);
	dmam_pool_destroy(pool);
	CHECK_EQ(dmamap_devres_count(dev), 0);
	CHECK_EQ(stats_of(dev).frees, 1);
	dmam_pool_destroy(NULL);
	/* A pool dma_pool_create() made is destroyed, with a warning that it was not managed. */
	plain = dma_pool_create("plain", dev, 64, 64, 0);
	REQUIRE(plain);
	logs.last[0] = '\0';
	dmam_pool_destroy(plain);
	CHECK_MSG(strstr(logs.last, "dmam_pool_destroy() of a pool dmam_pool_create() did not make"), "%s",
		  logs.last);
	device_release_driver(dev);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	CHECK_EQ(reps.n, 0);
	/* Unbound, the device has no managed resources to hold one: nothing is made. */
	REQUIRE(lookup(p, COH));
	CHECK(!dmam_pool_create("unbound", lookup(p, COH), 64, 64, 0));
	{
		dma_addr_t h;

		CHECK(!dmam_alloc_coherent(dev, 4096, &h, GFP_KERNEL));
	}
	dmamap_platform_destroy(p);
}
