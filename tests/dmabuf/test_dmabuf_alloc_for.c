/* SPDX-License-Identifier: MIT */
/*
 * Where a shared buffer may lie, for a set of devices (dmamap_buf_plan(),
 * dmamap_buf_alloc_for()): contiguous as soon as one device has no IOMMU,
 * inside what every such device reaches without bouncing, aligned for the
 * most demanding; scattered pages when every device translates; and, when
 * the set cannot be met, the device and the rule that fail. Every buffer
 * handed out is then mapped by every device of its set without a byte
 * bounced.
 */
#include <dmamap/dmamap.h>
#include <dmamap/dma-heap.h>
#include <dmamap/swiotlb.h>
#include "../helpers.h"

#define LOW 0x80000000ULL /* the default board's low bank */

static struct dmamap_buf_plan plan_of(struct dmamap_platform *p, const char *const *names,
				      unsigned int n, size_t size, int *err)
{
	struct device *devs[8];
	struct dmamap_buf_plan plan;

	for (unsigned int i = 0; i < n; i++)
		devs[i] = lookup(p, names[i]);
	*err = dmamap_buf_plan(devs, n, size, &plan);
	return plan;
}

/* Every device of the set maps @buf with nothing bounced, each as one run of device addresses. */
static bool nobody_bounces(struct dmamap_platform *p, const char *const *names, unsigned int n,
			   struct dma_buf *buf)
{
	bool ok = true;

	for (unsigned int i = 0; i < n; i++) {
		struct dma_buf_attachment *a = dma_buf_attach(buf, lookup(p, names[i]));
		struct dmamap_dma_buf_stats st;
		struct sg_table *sgt;

		if (IS_ERR(a))
			return false;
		sgt = dma_buf_map_attachment(a, DMA_BIDIRECTIONAL);
		if (IS_ERR(sgt)) {
			dma_buf_detach(buf, a);
			return false;
		}
		dmamap_dma_buf_stats(buf, &st);
		ok &= st.bounced_maps == 0;
		dma_buf_unmap_attachment(a, sgt, DMA_BIDIRECTIONAL);
		dma_buf_detach(buf, a);
	}
	return ok;
}

TEST(dmabuf_alloc_for_iommu_devices_take_scattered_pages)
{
	static const char *const set[] = { "dma-iommu", "isp", "nic-iommu" };
	struct dmamap_platform *p = sim_board("default");
	struct dmamap_buf_plan plan;
	struct dma_buf *buf;
	int err;

	REQUIRE(p);
	plan = plan_of(p, set, 3, 100000, &err);
	CHECK_EQ(err, 0);
	CHECK(!plan.contiguous);
	CHECK_EQ(plan.contiguous_for[0], '\0');
	CHECK(plan.cpu_maintenance);
	CHECK(!plan.coherency_mixed);
	CHECK_EQ(plan.size % PAGE_SIZE, 0);
	CHECK(plan.size >= 100000);
	{
		struct device *devs[3] = { lookup(p, set[0]), lookup(p, set[1]), lookup(p, set[2]) };

		buf = dmamap_buf_alloc_for(devs, 3, 100000, &plan, &err);
	}
	REQUIRE_MSG(buf, "%s", plan.why);
	CHECK_MSG(!strcmp(plan.heap, "system"), "heap %s", plan.heap);
	CHECK(nobody_bounces(p, set, 3, buf));
	dma_buf_put(buf);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/*
 * One device without an IOMMU makes it contiguous; the narrowest window
 * bounds it and names its device; the memory then lies inside it.
 */
TEST(dmabuf_alloc_for_the_narrowest_window_bounds_it)
{
	static const struct {
		const char *set[3];
		unsigned int n;
		phys_addr_t hi;
		const char *limit_by;
	} cases[] = {
		/* The camera reaches both banks: the larger, low one, limited by nobody. */
		{ { "isp", "camera" }, 2, LOW + 0x08000000 - 1, "" },
		{ { "camera", "display", "isp" }, 3, LOW + 0x08000000 - 1, "display" },
		{ { "dma-nc", "isp" }, 2, LOW + 0x08000000 - 1, "dma-nc" },
		{ { "camera", "dma-24", "dma-iommu" }, 3, LOW + 0x01000000 - 1, "dma-24" },
		{ { "isp", "ixp-pci" }, 2, LOW + 0x04000000 - 1, "ixp-pci" },
	};
	struct dmamap_platform *p = sim_board("default");

	REQUIRE(p);
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device *devs[3];
		struct dmamap_buf_plan plan;
		struct dma_buf *buf;
		int err;

		for (unsigned int k = 0; k < cases[i].n; k++)
			devs[k] = lookup(p, cases[i].set[k]);
		err = dmamap_buf_plan(devs, cases[i].n, 256 * 1024, &plan);
		CHECK_MSG(err == 0, "case %u: %s", i, plan.why);
		CHECK(plan.contiguous);
		CHECK_MSG(plan.phys_lo == LOW && plan.phys_hi == cases[i].hi,
			  "case %u: window %#llx-%#llx", i, (unsigned long long)plan.phys_lo,
			  (unsigned long long)plan.phys_hi);
		CHECK_MSG(!strcmp(plan.limit_by, cases[i].limit_by), "case %u: limited by '%s'", i,
			  plan.limit_by);
		buf = dmamap_buf_alloc_for(devs, cases[i].n, 256 * 1024, &plan, &err);
		REQUIRE_MSG(buf, "case %u: %s", i, plan.why);
		CHECK_MSG(nobody_bounces(p, cases[i].set, cases[i].n, buf), "case %u bounced", i);
		dma_buf_put(buf);
	}
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/* Non-coherent devices need the CPU's brackets to maintain the cache; a coherent set does not. */
TEST(dmabuf_alloc_for_says_when_the_cpu_must_maintain_the_cache)
{
	static const char *const coherent[] = { "dma-coh", "nic-coh" };
	static const char *const mixed[] = { "dma-coh", "dma-nc" };
	struct dmamap_platform *p = sim_board("default");
	struct dmamap_buf_plan plan;
	int err;

	REQUIRE(p);
	plan = plan_of(p, coherent, 2, 4096, &err);
	CHECK_EQ(err, 0);
	CHECK(!plan.cpu_maintenance);
	CHECK(!plan.coherency_mixed);
	CHECK_EQ(plan.align_by[0], '\0');
	plan = plan_of(p, mixed, 2, 5000, &err);
	CHECK_EQ(err, 0);
	CHECK(plan.cpu_maintenance);
	CHECK(plan.coherency_mixed);
	/* The page covers the line: the size is whole pages, nothing shares the last line. */
	CHECK_EQ(plan.align, host_page());
	CHECK_EQ(plan.size, (5000 + host_page() - 1) / host_page() * host_page());
	DESTROY_CLEAN(p);
}

/* The sets that cannot be met fail with the device and the rule, and allocate nothing. */
TEST(dmabuf_alloc_for_impossible_sets_name_the_device_and_the_rule)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *d24, *nc, *cam;
	struct dmamap_buf_plan plan;
	struct dmamap_cma_stats before, after;
	struct page *pool;
	int err = 0;

	REQUIRE(p);
	d24 = lookup(p, "dma-24");
	nc = lookup(p, "dma-nc");
	cam = lookup(p, "camera");
	REQUIRE(d24 && nc && cam);
	REQUIRE(dmamap_cma_stats(p, &before) == 0);
	/* Larger than the 16 MiB a 24-bit device reaches. */
	{
		struct device *devs[2] = { cam, d24 };

		CHECK(!dmamap_buf_alloc_for(devs, 2, 32u << 20, &plan, &err));
		CHECK_EQ(err, -E2BIG);
		CHECK_MSG(strstr(plan.why, "dma-24") && strstr(plan.why, "contiguous"), "%s", plan.why);
	}
	/* A device that bounces every mapping cannot share without a copy. */
	pool = dmamap_alloc_pages(p, 7, 0);
	REQUIRE(pool);
	REQUIRE(dmamap_swiotlb_restricted_pool(nc, page_to_phys(pool), 128 * PAGE_SIZE) == 0);
	{
		struct device *devs[2] = { cam, nc };

		CHECK(!dmamap_buf_alloc_for(devs, 2, 4096, &plan, &err));
		CHECK_EQ(err, -EOPNOTSUPP);
		CHECK_MSG(strstr(plan.why, "dma-nc") && strstr(plan.why, "bounces every mapping"), "%s",
			  plan.why);
	}
	/* Arguments. */
	CHECK_EQ(dmamap_buf_plan(NULL, 1, 4096, &plan), -EINVAL);
	CHECK_EQ(dmamap_buf_plan(&cam, 0, 4096, &plan), -EINVAL);
	CHECK_EQ(dmamap_buf_plan(&cam, 65, 4096, &plan), -EINVAL);
	CHECK_EQ(dmamap_buf_plan(&cam, 1, 0, &plan), -EINVAL);
	CHECK_EQ(dmamap_buf_plan(&cam, 1, 4096, NULL), -EINVAL);
	{
		struct device *devs[2] = { cam, NULL };

		CHECK_EQ(dmamap_buf_plan(devs, 2, 4096, &plan), -EINVAL);
	}
	REQUIRE(dmamap_cma_stats(p, &after) == 0);
	CHECK_EQ(after.used_pages, before.used_pages);
	dmamap_platform_destroy(p);
}

/* Devices of two boards cannot share a buffer; windows that do not meet give -ERANGE. */
TEST(dmabuf_alloc_for_devices_that_reach_no_common_memory)
{
	struct dmamap_board board = { 0 };
	struct dmamap_device_desc descs[2] = { { 0 } };
	struct dmamap_platform *p, *q;
	struct device *devs[2];
	struct dmamap_buf_plan plan;

	board.name = "two-windows";
	board.nr_banks = 1;
	board.banks[0].start = 0x40000000;
	board.banks[0].size = 64 << 20;
	descs[0].name = "low";
	descs[0].nr_ranges = 1;
	descs[0].ranges[0] = (struct dmamap_dma_range){ 0x40000000, 0, 16 << 20 };
	descs[1].name = "high";
	descs[1].nr_ranges = 1;
	descs[1].ranges[0] = (struct dmamap_dma_range){ 0x42000000, 0, 16 << 20 };
	board.nr_devices = 2;
	board.devices = descs;
	p = quiet(dmamap_platform_create(&board, NULL));
	REQUIRE(p);
	devs[0] = lookup(p, "low");
	devs[1] = lookup(p, "high");
	REQUIRE(devs[0] && devs[1]);
	CHECK_EQ(dmamap_buf_plan(devs, 2, 4096, &plan), -ERANGE);
	CHECK_MSG(strstr(plan.why, "high"), "%s", plan.why);
	q = quiet_board();
	REQUIRE(q);
	devs[1] = lookup(q, "dma-nc");
	CHECK_EQ(dmamap_buf_plan(devs, 2, 4096, &plan), -EINVAL);
	dmamap_platform_destroy(q);
	dmamap_platform_destroy(p);
}

/*
 * A 64-bit device whose window starts at device address 0 reaches all of
 * it (a length of 2^64 does not fit in 64 bits), and two windows that
 * continue each other are one run a buffer may straddle.
 */
TEST(dmabuf_alloc_for_wide_and_adjacent_windows)
{
	struct dmamap_board board = { 0 };
	struct dmamap_device_desc descs[2] = { { 0 } };
	struct dmamap_platform *p;
	struct device *dev;
	struct dmamap_buf_plan plan;

	board.name = "windows";
	board.nr_banks = 1;
	board.banks[0].start = 0x40000000;
	board.banks[0].size = 64 << 20;
	descs[0].name = "wide";
	descs[0].dma_mask = ~0ULL;
	descs[0].nr_ranges = 1;
	descs[0].ranges[0] = (struct dmamap_dma_range){ 0x40000000, 0, 64 << 20 };
	descs[1].name = "two";
	descs[1].nr_ranges = 2;
	descs[1].ranges[0] = (struct dmamap_dma_range){ 0x40000000, 0x10000000, 16 << 20 };
	descs[1].ranges[1] = (struct dmamap_dma_range){ 0x41000000, 0x11000000, 16 << 20 };
	board.nr_devices = 2;
	board.devices = descs;
	p = quiet(dmamap_platform_create(&board, NULL));
	REQUIRE(p);
	dev = lookup(p, "wide");
	REQUIRE(dev && dma_set_mask(dev, ~0ULL) == 0);
	CHECK_MSG(dmamap_buf_plan(&dev, 1, 48 << 20, &plan) == 0, "%s", plan.why);
	CHECK_EQ(plan.phys_lo, 0x40000000);
	CHECK_EQ(plan.phys_hi, 0x40000000 + (64 << 20) - 1);
	dev = lookup(p, "two");
	REQUIRE(dev);
	CHECK_MSG(dmamap_buf_plan(&dev, 1, 24 << 20, &plan) == 0, "%s", plan.why);
	CHECK_EQ(plan.phys_lo, 0x40000000);
	CHECK_EQ(plan.phys_hi, 0x40000000 + (32 << 20) - 1);
	dmamap_platform_destroy(p);
}
