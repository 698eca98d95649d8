/* SPDX-License-Identifier: MIT */
/*
 * /reserved-memory written wrong: a property of the wrong length, a zero
 * size, an alignment that is not a power of two, a phandle that names no
 * node refuse the board and say which node and property; a pool its setup
 * refuses (a reusable restricted pool, one too many CMA areas, a pool not
 * in whole pages) is kept out of the devices' reach and says why; more
 * regions than a board keeps leave the rest unused, the board still built;
 * a /reserved-memory node unlike the root is ignored, as Linux ignores it.
 */
#include "../helpers.h"

#define DEV(props) "dma@1 { compatible = \"dmamap,memcpy\"; reg = <0x1 0x1>; " props " };"

TEST(of_reserved_region_written_wrong_is_refused_by_node_and_property)
{
	dts_refused(RESV("s@81000000 { reg = <0x81000000 0x100000 0x5>; };") "};",
		"/reserved-memory/s@81000000:reg: 12 bytes are not whole <1 1> entries");
	dts_refused(RESV("r { compatible = \"restricted-dma-pool\"; size = <0>; };") "};",
		"/reserved-memory/r:size: zero");
	dts_refused(RESV("r { compatible = \"restricted-dma-pool\"; size = <0 0x100000>; };") "};",
		"/reserved-memory/r:size: 8 bytes, not the root's 1 cells");
	dts_refused(RESV("r { compatible = \"restricted-dma-pool\"; size = <0x100000>; alignment = <0x3000>; };") "};",
		"/reserved-memory/r:alignment: 0x3000 is not a power of two");
	dts_refused(RESV("r { compatible = \"restricted-dma-pool\"; size = <0x100000>;"
		     " alloc-ranges = <0x80000000 0x1000000 0x82000000>; };") "};",
		"/reserved-memory/r:alloc-ranges: 12 bytes are not whole <1 1> entries");
	dts_refused(HEAD DEV("memory-region = <0x4242>;") "};", "/dma@1:memory-region: unknown phandle 0x4242");
}

/* The region @i of @p: its use and how it got it, as `info` shows them. */
static bool region(struct dmamap_platform *p, unsigned int i, struct dmamap_region_info *r)
{
	int ret = dmamap_region_info(p, i, r);

	CHECK_MSG(ret == 0, "region %u: %d", i, ret);
	return ret == 0;
}

TEST(of_restricted_pool_its_setup_refuses_serves_no_device)
{
	struct dmamap_region_info r;
	struct dmamap_device_info in;
	struct device *dev;
	struct dmamap_platform *p;

	/* Reusable: rmem_swiotlb_setup() refuses it, the memory goes back to RAM. */
	dev = dts_device(RESV("r: r { compatible = \"restricted-dma-pool\"; reusable; size = <0x100000>; };")
			 DEV("memory-region = <&r>;") "};", "dma@1", &p);
	REQUIRE(dev);
	if (region(p, 0, &r)) {
		CHECK_MSG(!strcmp(r.use, "released"), "%s", r.use);
		CHECK_MSG(strstr(r.how, "a restricted pool cannot be reusable, no-map or a default"), "%s", r.how);
		CHECK(dmamap_device_info(dev, &in) == 0 && in.restricted_pool_size == 0);
	}
	dmamap_platform_destroy(p);

	/* Not in whole pages: still reserved, but no device's pool (dmamap's pools are paged). */
	dev = dts_device(RESV("r: r@80100800 { compatible = \"restricted-dma-pool\"; reg = <0x80100800 0x100000>; };")
			 DEV("memory-region = <&r>;") "};", "dma@1", &p);
	REQUIRE(dev);
	if (region(p, 0, &r)) {
		CHECK_MSG(strstr(r.how, "not page aligned (a dmamap limit): no device uses it"), "%s", r.how);
		CHECK(dmamap_device_info(dev, &in) == 0 && in.restricted_pool_size == 0);
	}
	dmamap_platform_destroy(p);
}

TEST(of_more_cma_areas_than_a_board_keeps_release_the_rest)
{
	char dts[4096];
	size_t n = (size_t)snprintf(dts, sizeof(dts), "%s", HEAD "reserved-memory { #address-cells = <1>; "
					  "#size-cells = <1>; ranges; ");
	struct dmamap_platform *p;
	struct dmamap_region_info r;

	for (unsigned int i = 0; i <= DMAMAP_MAX_CMA; i++)
		n += (size_t)snprintf(dts + n, sizeof(dts) - n,
				      "c%u@%x { compatible = \"shared-dma-pool\"; reusable; reg = <0x%x 0x200000>; }; ",
				      i, 0x80000000u + i * 0x400000u, 0x80000000u + i * 0x400000u);
	snprintf(dts + n, sizeof(dts) - n, "}; };");
	p = dts_board(dts);
	REQUIRE(p);
	{
		for (unsigned int i = 0; i < DMAMAP_MAX_CMA; i++)
			if (region(p, i, &r))
				CHECK_MSG(strcmp(r.use, "released"), "region %u: %s (%s)", i, r.use, r.how);
		if (region(p, DMAMAP_MAX_CMA, &r)) {
			CHECK_MSG(!strcmp(r.use, "released"), "%s", r.use);
			CHECK_MSG(strstr(r.how, "more CMA areas than the board keeps"), "%s", r.how);
		}
	}
	dmamap_platform_destroy(p);
}

TEST(of_more_reserved_regions_than_a_board_keeps_leave_the_rest_unused)
{
	static char dts[16384];
	static struct log_capture cap;
	size_t n = (size_t)snprintf(dts, sizeof(dts), "%s", HEAD "reserved-memory { #address-cells = <1>; "
					  "#size-cells = <1>; ranges; ");
	struct dmamap_platform *p;
	struct dmamap_region_info r;

	/* One page each, a page apart, and one with no size at all (nothing to reserve). */
	for (unsigned int i = 0; i <= DMAMAP_MAX_RESERVED; i++)
		n += (size_t)snprintf(dts + n, sizeof(dts) - n, "s%u@%x { reg = <0x%x 0x1000>; }; ", i,
				      0x80000000u + i * 0x2000u, 0x80000000u + i * 0x2000u);
	snprintf(dts + n, sizeof(dts) - n, "z@83000000 { reg = <0x83000000 0>; }; }; };");
	dmamap_set_log_hook(NULL, capture_hook, &cap);
	p = dts_board(dts);
	dmamap_set_log_hook(NULL, NULL, NULL);
	REQUIRE(p);
	{
		CHECK(region(p, DMAMAP_MAX_RESERVED - 1, &r) &&
		      r.start == 0x80000000u + (DMAMAP_MAX_RESERVED - 1) * 0x2000u);
		CHECK_EQ(dmamap_region_info(p, DMAMAP_MAX_RESERVED, &r), -ENOENT);
		CHECK_MSG(strstr(cap.all, "/reserved-memory/s64@80080000: more than 64 reserved regions: not used"),
			  "%s", cap.all);
		CHECK_MSG(strstr(cap.all, "more than 64 reservations: the rest are not withheld"), "%s", cap.all);
	}
	dmamap_platform_destroy(p);
}

/*
 * fdt_scan_reserved_mem() ignores a /reserved-memory node whose cells are
 * not the root's or that has no ranges: none of its regions is reserved,
 * the board builds and says why. A disabled region is skipped.
 */
TEST(of_reserved_memory_node_unlike_the_root_is_ignored)
{
	static const char *const bodies[] = {
		"reserved-memory { #address-cells = <1>; #size-cells = <1>; "
		"  s@81000000 { reg = <0x81000000 0x100000>; }; }; };",
		"reserved-memory { #address-cells = <2>; #size-cells = <1>; ranges; "
		"  s@81000000 { reg = <0 0x81000000 0x100000>; }; }; };",
		"reserved-memory { #address-cells = <1>; ranges; s@81000000 { reg = <0x81000000 0x100000>; }; }; };",
	};
	struct dmamap_region_info r;

	for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		static struct log_capture cap;
		char dts[1024];
		struct dmamap_platform *p;

		snprintf(dts, sizeof(dts), "%s%s", HEAD, bodies[i]);
		memset(&cap, 0, sizeof(cap));
		dmamap_set_log_hook(NULL, capture_hook, &cap);
		p = dts_board(dts);
		dmamap_set_log_hook(NULL, NULL, NULL);
		CHECK_MSG(p != NULL, "body %zu: the board was refused", i);
		if (!p)
			continue;
		CHECK_MSG(dmamap_region_info(p, 0, &r) == -ENOENT, "body %zu: a region was kept", i);
		CHECK_MSG(strstr(cap.all, "/reserved-memory: ignored: its #address-cells/#size-cells differ "
					  "from the root's, or it has no ranges"), "body %zu: %s", i, cap.all);
		dmamap_platform_destroy(p);
	}
	/* Disabled: not reserved either, and nothing to say. */
	{
		struct dmamap_platform *p = dts_board(RESV("s@81000000 { reg = <0x81000000 0x100000>; status = \"disabled\"; };") "};");

		REQUIRE(p);
		CHECK_EQ(dmamap_region_info(p, 0, &r), -ENOENT);
		dmamap_platform_destroy(p);
	}
}
