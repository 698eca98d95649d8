/* SPDX-License-Identifier: MIT */
/*
 * dev_err() and friends: "DRIVER DEVICE: message" while a driver holds the
 * device, "DEVICE: message" otherwise, at the level asked, one trailing
 * newline dropped; dev_err_probe() returning its error and logging it,
 * except -EPROBE_DEFER.
 */
#include "driver_helpers.h"

#define EPROBE_DEFER 517

static int probe_err;

static int log_probe(struct platform_device *pdev)
{
	if (probe_err)
		return dev_err_probe(&pdev->dev, probe_err, "no clock %d", 3);
	return 0;
}

static const struct of_device_id log_ids[] = { { .compatible = "dmamap,memcpy" }, { } };
static struct platform_driver log_drv = {
	.probe = log_probe,
	.driver = { .name = "logger", .of_match_table = log_ids },
};

static bool line_is(const struct line_log *l, unsigned int i, int level, const char *want)
{
	if (i >= l->n || i >= LINES_MAX) {
		printf("#   no line %u (%u lines)\n", i, l->n);
		return false;
	}
	if (l->level[i] != level || strcmp(l->line[i], want)) {
		printf("#   line %u: level %d \"%s\", not %d \"%s\"\n", i, l->level[i], l->line[i],
		       level, want);
		return false;
	}
	return true;
}

TEST(driver_log_lines_of_a_bound_device_name_the_driver)
{
	struct line_log l = { 0 };
	struct dmamap_platform *p = tree_board(&l);
	struct device *dev = p ? lookup(p, COH) : NULL;

	REQUIRE(dev);
	REQUIRE(platform_driver_register(&log_drv) == 0);
	REQUIRE(device_attach(dev) == 1);
	REQUIRE(l.n == 0);
	dev_err(dev, "boom %d\n", 7);
	dev_warn(dev, "careful");
	dev_notice(dev, "note %s", "this");
	dev_info(dev, "fyi\n");
	CHECK(line_is(&l, 0, DMAMAP_LOG_ERR, "logger dma-coh: boom 7"));
	CHECK(line_is(&l, 1, DMAMAP_LOG_WARN, "logger dma-coh: careful"));
	CHECK(line_is(&l, 2, DMAMAP_LOG_NOTICE, "logger dma-coh: note this"));
	CHECK(line_is(&l, 3, DMAMAP_LOG_INFO, "logger dma-coh: fyi"));
	CHECK_EQ(l.n, 4);
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}

TEST(driver_log_lines_of_an_unbound_device_name_only_it)
{
	struct line_log l = { 0 };
	struct dmamap_platform *p = tree_board(&l);
	struct device *dev = p ? lookup(p, NC) : NULL;

	REQUIRE(dev);
	dev_info(dev, "hello\n");
	dev_err(dev, "two lines\n\n"); /* only the last newline goes */
	dev_dbg(dev, "not without DEBUG");
	CHECK(line_is(&l, 0, DMAMAP_LOG_INFO, "dma-nc: hello"));
	CHECK(line_is(&l, 1, DMAMAP_LOG_ERR, "dma-nc: two lines\n"));
	CHECK_EQ(l.n, 2);
	/* Bound, then released: the driver's name comes and goes. */
	REQUIRE(platform_driver_register(&log_drv) == 0);
	REQUIRE(device_attach(dev) == 1);
	dev_warn(dev, "bound");
	device_release_driver(dev);
	dev_warn(dev, "released");
	CHECK(line_is(&l, 2, DMAMAP_LOG_WARN, "logger dma-nc: bound"));
	CHECK(line_is(&l, 3, DMAMAP_LOG_WARN, "dma-nc: released"));
	dmamap_platform_destroy(p);
}

TEST(driver_log_null_device_goes_to_the_process_log)
{
	struct line_log l = { 0 };

	dmamap_set_log_hook(NULL, line_hook, &l);
	dev_err(NULL, "orphan\n");
	dmamap_set_log_hook(NULL, NULL, NULL);
	REQUIRE(l.n == 1);
	CHECK_EQ(l.level[0], DMAMAP_LOG_ERR);
	/* The kernel says "(NULL device *): orphan"; the newline dropped. */
	CHECK_MSG(strstr(l.line[0], "(NULL device") && strlen(l.line[0]) > 8 &&
			  !strcmp(l.line[0] + strlen(l.line[0]) - 8, ": orphan"),
		  "line: %s", l.line[0]);
}

TEST(driver_log_dev_err_probe_returns_and_logs_its_error)
{
	struct line_log l = { 0 };
	struct dmamap_platform *p = tree_board(&l);
	struct device *dev = p ? lookup(p, COH) : NULL;
	int i;

	REQUIRE(dev);
	REQUIRE(platform_driver_register(&log_drv) == 0);
	probe_err = -EIO;
	CHECK_EQ(device_attach(dev), -EIO);
	i = line_with(&l, "error -5: no clock 3");
	CHECK_MSG(i == 0, "line %d: %s", i, l.n ? l.line[0] : "none");
	CHECK(i < 0 || l.level[i] == DMAMAP_LOG_ERR);
	CHECK(line_is(&l, 0, DMAMAP_LOG_ERR, "logger dma-coh: error -5: no clock 3"));
	/* Outside a probe too, on an unbound device. */
	l.n = 0;
	CHECK_EQ(dev_err_probe(dev, -ENOMEM, "later %s", "on"), -ENOMEM);
	CHECK(line_is(&l, 0, DMAMAP_LOG_ERR, "dma-coh: error -12: later on"));
	dmamap_platform_destroy(p);
}

TEST(driver_log_dev_err_probe_is_silent_for_probe_defer)
{
	struct line_log l = { 0 };
	struct dmamap_platform *p = tree_board(&l);
	struct device *dev = p ? lookup(p, COH) : NULL;

	REQUIRE(dev);
	REQUIRE(platform_driver_register(&log_drv) == 0);
	probe_err = -EPROBE_DEFER;
	CHECK_EQ(device_attach(dev), -EPROBE_DEFER);
	CHECK_EQ(line_with(&l, "error -517:"), -1);
	CHECK_EQ(line_with(&l, "no clock"), -1);
	CHECK_EQ(dev_err_probe(dev, -EPROBE_DEFER, "not yet"), -EPROBE_DEFER);
	CHECK_EQ(line_with(&l, "not yet"), -1);
	CHECK_EQ(dev_err_probe(dev, -EIO, "now"), -EIO); /* the hook does hear this one */
	CHECK(line_with(&l, "error -5: now") >= 0);
	dmamap_platform_destroy(p);
}
