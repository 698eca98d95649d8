/* SPDX-License-Identifier: MIT */
/*
 * Binding: a platform driver bound by its of_match_table to the nodes that
 * name one of its compatibles (the node's first listed compatible winning),
 * by name to a device not from a tree; a probe saying -ENODEV passes the
 * device on, another error leaves it unbound; remove on release, bus
 * removal last device first, unregistering releases; driver data.
 * test_driver_register.c has registration's refusals.
 */
#include "driver_helpers.h"

#define MAXREC 32

static struct platform_device *probed[MAXREC], *removed[MAXREC];
static const void *probed_data[MAXREC];
static void *drvdata_in_remove;
static int nprobed, nremoved, probe_ret;
static int cookie;

static int rec_probe(struct platform_device *pdev)
{
	if (nprobed < MAXREC) {
		probed[nprobed] = pdev;
		probed_data[nprobed] = device_get_match_data(&pdev->dev);
	}
	nprobed++;
	platform_set_drvdata(pdev, &cookie);
	return probe_ret;
}

static void rec_remove(struct platform_device *pdev)
{
	if (nremoved < MAXREC)
		removed[nremoved] = pdev;
	nremoved++;
	drvdata_in_remove = platform_get_drvdata(pdev);
}

static const int line_memcpy = 1, line_acme = 2;
static const struct of_device_id rec_ids[] = {
	{ .compatible = "dmamap,memcpy", .data = &line_memcpy },
	{ .compatible = "acme,x", .data = &line_acme },
	{ }
};

static struct platform_driver rec_drv = {
	.probe = rec_probe,
	.remove = rec_remove,
	.driver = { .name = "rec", .of_match_table = rec_ids },
};

/* Registered after rec_drv: tried when it passes a device on. */
static int nsecond;
static int second_probe(struct platform_device *pdev)
{
	(void)pdev;
	nsecond++;
	return 0;
}
static struct platform_driver second_drv = {
	.probe = second_probe,
	.driver = { .name = "second", .of_match_table = rec_ids },
};

static const char *const memcpy_devs[] = { COH, NC, D32, D24, IXP, IOMMU_DEV };

TEST(driver_binds_every_memcpy_node_by_compatible)
{
	struct line_log l = { 0 };
	struct dmamap_platform *p = tree_board(&l);

	REQUIRE(p);
	REQUIRE(platform_driver_register(&rec_drv) == 0);
	CHECK_EQ(dmamap_bus_probe(p), 6);
	CHECK_EQ(nprobed, 6);
	for (int i = 0; i < 6 && i < nprobed; i++) {
		struct device *dev = &probed[i]->dev;

		CHECK(dmamap_device_lookup(p, dev_name(dev)) == dev);
		CHECK(to_platform_device(dev) == probed[i]);
		CHECK(probed_data[i] == &line_memcpy);
		CHECK(device_get_match_data(dev) == &line_memcpy);
	}
	for (int i = 0; i < 6; i++) {
		struct device *dev = lookup(p, memcpy_devs[i]);

		CHECK_MSG(dev && !strcmp(dev_driver_string(dev), "rec"), "%s not bound", memcpy_devs[i]);
	}
	/* The NIC and disk nodes name other compatibles: nothing binds them. */
	CHECK_EQ(device_attach(lookup(p, "nic-coh")), 0);
	CHECK_EQ(device_attach(lookup(p, "blk-nc")), 0);
	CHECK_EQ(nprobed, 6);
	CHECK_EQ(dev_driver_string(lookup(p, "nic-coh"))[0], '\0');
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}

/* The best line is the node's most specific compatible, not the table's first. */
TEST(driver_match_follows_the_nodes_compatible_order)
{
	struct dmamap_platform *p = quiet(dts_board(HEAD
		"dma@1000 { compatible = \"acme,x\", \"dmamap,memcpy\"; reg = <0x1000 0x100>; };"
		"dma@2000 { compatible = \"dmamap,memcpy\"; reg = <0x2000 0x100>; }; };"));

	REQUIRE(p);
	REQUIRE(platform_driver_register(&rec_drv) == 0);
	CHECK_EQ(dmamap_bus_probe(p), 2);
	CHECK(device_get_match_data(lookup(p, "dma@1000")) == &line_acme);
	CHECK(device_get_match_data(lookup(p, "dma@2000")) == &line_memcpy);
	dmamap_bus_remove(p);
	CHECK(device_get_match_data(lookup(p, "dma@1000")) == NULL);
	dmamap_platform_destroy(p);
}

TEST(driver_probe_enodev_or_enxio_lets_the_next_driver_try)
{
	const int errs[] = { -ENODEV, -ENXIO };
	struct dmamap_platform *p = tree_board(NULL);
	struct device *dev = p ? lookup(p, COH) : NULL;

	REQUIRE(dev);
	REQUIRE(platform_driver_register(&rec_drv) == 0);
	REQUIRE(platform_driver_register(&second_drv) == 0);
	for (int i = 0; i < 2; i++) {
		probe_ret = errs[i];
		nprobed = nsecond = 0;
		CHECK_EQ(device_attach(dev), 1);
		CHECK_EQ(nprobed, 1);
		CHECK_EQ(nsecond, 1);
		CHECK(!strcmp(dev_driver_string(dev), "second"));
		/* rec's drvdata went with its refused probe. */
		CHECK(dev_get_drvdata(dev) == NULL);
		device_release_driver(dev);
		CHECK_EQ(nremoved, 0); /* rec was never bound: no remove */
	}
	dmamap_platform_destroy(p);
}

TEST(driver_probe_error_leaves_the_device_unbound_and_logged)
{
	struct line_log l = { 0 };
	struct dmamap_platform *p = tree_board(&l);
	struct device *dev = p ? lookup(p, COH) : NULL;

	REQUIRE(dev);
	REQUIRE(platform_driver_register(&rec_drv) == 0);
	REQUIRE(platform_driver_register(&second_drv) == 0);
	probe_ret = -EIO;
	CHECK_EQ(device_attach(dev), -EIO);
	CHECK_EQ(nprobed, 1);
	CHECK_EQ(nsecond, 0); /* an error is no "not mine": nobody else tries */
	CHECK_EQ(dev_driver_string(dev)[0], '\0');
	CHECK(dev_get_drvdata(dev) == NULL);
	CHECK(device_get_match_data(dev) == NULL);
	CHECK(platform_get_resource(to_platform_device(dev), IORESOURCE_MEM, 0) == NULL);
	CHECK_MSG(line_with(&l, "probe with driver rec failed with error -5") >= 0,
		  "no probe failure line (last: %s)", l.n ? l.line[0] : "none");
	/* The other five fail the same way, and the bus counts none of them bound. */
	CHECK_EQ(dmamap_bus_probe(p), 0);
	CHECK_EQ(nprobed, 7);
	CHECK_EQ(nremoved, 0);
	dmamap_platform_destroy(p);
}

TEST(driver_remove_on_release_and_bus_remove_last_device_first)
{
	struct dmamap_platform *p = tree_board(NULL);
	struct device *nc = p ? lookup(p, NC) : NULL;

	REQUIRE(nc);
	REQUIRE(platform_driver_register(&rec_drv) == 0);
	CHECK_EQ(dmamap_bus_probe(p), 6);
	device_release_driver(nc);
	CHECK_EQ(nremoved, 1);
	CHECK(removed[0] == to_platform_device(nc));
	CHECK(drvdata_in_remove == &cookie); /* still there for remove */
	CHECK(dev_get_drvdata(nc) == NULL);  /* gone after it */
	CHECK_EQ(dev_driver_string(nc)[0], '\0');
	device_release_driver(nc); /* unbound: nothing */
	device_release_driver(NULL);
	CHECK_EQ(nremoved, 1);
	dmamap_bus_remove(p);
	REQUIRE(nremoved == 6);
	for (int i = 2; i < 6; i++)
		CHECK_MSG(device_index(p, &removed[i]->dev) < device_index(p, &removed[i - 1]->dev),
			  "remove %d (%s) came after a device before it", i, dev_name(&removed[i]->dev));
	CHECK_EQ(dmamap_bus_probe(p), 6); /* unbound devices bind again */
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}

TEST(driver_attach_of_a_bound_device_does_not_probe_again)
{
	struct dmamap_platform *p = tree_board(NULL);
	struct device *dev = p ? lookup(p, D32) : NULL;

	REQUIRE(dev);
	REQUIRE(platform_driver_register(&rec_drv) == 0);
	CHECK_EQ(device_attach(dev), 1);
	CHECK_EQ(device_attach(dev), 1);
	CHECK_EQ(nprobed, 1);
	CHECK_EQ(dmamap_bus_probe(p), 6);
	CHECK_EQ(nprobed, 6);
	CHECK_EQ(device_attach(NULL), -EINVAL);
	CHECK_EQ(dmamap_bus_probe(NULL), -EINVAL);
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}

TEST(driver_unregister_releases_the_devices_still_bound)
{
	struct dmamap_platform *p = tree_board(NULL);

	REQUIRE(p);
	REQUIRE(platform_driver_register(&rec_drv) == 0);
	CHECK_EQ(dmamap_bus_probe(p), 6);
	platform_driver_unregister(&rec_drv);
	CHECK_EQ(nremoved, 6);
	for (int i = 0; i < 6; i++)
		CHECK_EQ(dev_driver_string(lookup(p, memcpy_devs[i]))[0], '\0');
	CHECK_EQ(dmamap_bus_probe(p), 0); /* no longer registered */
	CHECK_EQ(nprobed, 6);
	platform_driver_unregister(&rec_drv); /* not registered: ignored */
	CHECK_EQ(platform_driver_register(&rec_drv), 0);
	dmamap_platform_destroy(p);
}

TEST(driver_data_and_driver_name)
{
	struct dmamap_platform *p = tree_board(NULL);
	struct device *dev = p ? lookup(p, COH) : NULL;

	REQUIRE(dev);
	CHECK_EQ(dev_driver_string(dev)[0], '\0');
	CHECK_EQ(dev_driver_string(NULL)[0], '\0');
	CHECK(dev_get_drvdata(NULL) == NULL);
	REQUIRE(platform_driver_register(&rec_drv) == 0);
	CHECK_EQ(device_attach(dev), 1);
	CHECK(!strcmp(dev_driver_string(dev), "rec"));
	CHECK(dev_get_drvdata(dev) == &cookie);
	CHECK(platform_get_drvdata(to_platform_device(dev)) == &cookie);
	dev_set_drvdata(dev, &nprobed);
	CHECK(platform_get_drvdata(to_platform_device(dev)) == &nprobed);
	device_release_driver(dev);
	CHECK(drvdata_in_remove == &nprobed);
	CHECK(dev_get_drvdata(dev) == NULL);
	CHECK_EQ(dev_driver_string(dev)[0], '\0');
	dmamap_platform_destroy(p);
}

/* A device made by the program has no node: a driver of its name binds it. */
static struct platform_driver named_drv = { .probe = rec_probe, .driver = { .name = "acme-dev" } };
static struct platform_driver coh_named_drv = { .probe = rec_probe, .driver = { .name = COH } };

TEST(driver_binds_by_name_a_device_not_from_a_tree)
{
	struct dmamap_platform *p = tree_board(NULL);
	struct dmamap_device_desc d = { .name = "acme-dev", .model = "memcpy" };
	struct device *dev = p ? new_device(p, &d) : NULL;

	REQUIRE(dev);
	REQUIRE(platform_driver_register(&named_drv) == 0);
	REQUIRE(platform_driver_register(&coh_named_drv) == 0);
	CHECK_EQ(device_attach(dev), 1);
	CHECK(!strcmp(dev_driver_string(dev), "acme-dev"));
	CHECK(device_get_match_data(dev) == NULL);
	/* A device from a tree is matched by its compatibles, never its name. */
	CHECK_EQ(device_attach(lookup(p, COH)), 0);
	CHECK_EQ(nprobed, 1);
	dmamap_bus_remove(p);
	dmamap_platform_destroy(p);
}
