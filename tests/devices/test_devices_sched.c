/* SPDX-License-Identifier: MIT */
/*
 * Device time: a model steps at the CPU's yield points, one step per
 * point on the fixed schedule, in a replayable seeded order otherwise, or
 * on its own thread.
 */
#include <dmamap/interrupt.h>
#include <dmamap/io.h>
#include <dmamap/sim.h>
#include "../../drivers/memcpy_dma.h"
#include "../helpers.h"

static struct dmamap_platform *board_with_ticker(struct device **t, void __iomem **regs)
{
	struct dmamap_platform *p = quiet_board();

	if (!p)
		return NULL;
	*t = add_ticker(p, "ticker");
	*regs = *t ? dmamap_device_ioremap(*t) : NULL;
	return p;
}

TEST(sched_fixed_schedule_one_step_per_register_access)
{
	struct device *t;
	void __iomem *r;
	struct dmamap_platform *p = board_with_ticker(&t, &r);

	REQUIRE(p && r);
	writel(10, r + TICK_TODO); /* busy from here: steps come with the next yield points */
	for (uint32_t k = 1; k <= 10; k++)
		CHECK_EQ(readl(r + TICK_DONE), k);
	CHECK_EQ(readl(r + TICK_DONE), 10); /* idle: nothing more to do */
	CHECK_EQ(readl(r + TICK_TODO), 0);
	dmamap_platform_destroy(p);
}

TEST(sched_dma_api_calls_barriers_and_delays_are_yield_points)
{
	struct device *t, *dev;
	void __iomem *r;
	struct dmamap_platform *p = board_with_ticker(&t, &r);
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p && r && (dev = lookup(p, "dma-nc")));
	buf = dmamap_kmalloc(p, 256, DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	writel(100, r + TICK_TODO);
	h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);          /* 1 */
	REQUIRE(!dma_mapping_error(dev, h));
	dma_sync_single_for_device(dev, h, 256, DMA_TO_DEVICE);    /* 2 */
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);              /* 3 */
	dma_wmb();                                                 /* 4 */
	cpu_relax();                                               /* 5 */
	udelay(7);                                                 /* 12 */
	mb();                                                      /* 13 */
	CHECK_EQ(readl(r + TICK_DONE), 14);                        /* the read is one too */
	msleep(1);                                                 /* 1000 more: idle at 100 */
	CHECK_EQ(readl(r + TICK_DONE), 100);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

/* What the CPU sees of the ticker's progress over 200 register reads. */
static void observe(uint64_t seed, uint32_t *seen, unsigned int n)
{
	struct device *t;
	void __iomem *r;
	struct dmamap_platform *p = board_with_ticker(&t, &r);

	REQUIRE(p && r);
	dmamap_sim_set_schedule(p, seed);
	writel(100000, r + TICK_TODO);
	for (unsigned int i = 0; i < n; i++)
		seen[i] = readl(r + TICK_DONE);
	dmamap_platform_destroy(p);
}

TEST(sched_a_seed_varies_progress_and_replays_exactly)
{
	uint32_t a[200], b[200], c[200], fixed[200];
	bool stalled = false, raced = false;

	observe(0, fixed, 200);
	observe(42, a, 200);
	observe(42, b, 200);
	observe(43, c, 200);
	CHECK(!memcmp(a, b, sizeof(a)));
	CHECK(memcmp(a, c, sizeof(a)) != 0);
	CHECK(memcmp(a, fixed, sizeof(a)) != 0);
	for (unsigned int i = 1; i < 200; i++) {
		CHECK_EQ(fixed[i] - fixed[i - 1], 1);
		stalled |= a[i] == a[i - 1];
		raced |= a[i] - a[i - 1] > 4;
	}
	CHECK_MSG(stalled && raced, "seed 42: the device never stalled (%d) or ran ahead (%d)",
		  stalled, raced);
}

TEST(sched_run_devices_drains_and_gives_up_on_a_device_that_never_idles)
{
	struct device *t;
	void __iomem *r;
	struct dmamap_platform *p = board_with_ticker(&t, &r);
	struct dmamap_sched_stats st;

	REQUIRE(p && r);
	CHECK_EQ(dmamap_sim_run_devices(NULL, 0), -EINVAL);
	writel(500, r + TICK_TODO);
	CHECK_EQ(dmamap_sim_run_devices(p, 0), 500 + 1); /* the last step finds nothing to do */
	CHECK_EQ(dmamap_sim_run_devices(p, 0), 0);
	writel(1, r + TICK_FOREVER);
	CHECK_EQ(dmamap_sim_run_devices(p, 1000), -EBUSY);
	writel(0, r + TICK_FOREVER);
	CHECK(dmamap_sim_run_devices(p, 0) >= 1);
	CHECK_EQ(dmamap_sim_sched_stats(p, &st), 0);
	CHECK(st.steps >= 1500);
	CHECK_EQ(dmamap_sim_sched_stats(p, NULL), -EINVAL);
	dmamap_platform_destroy(p);
}

/* A hundred map+unmap pairs of @buf: two hundred DMA API calls, each a yield point. */
static void map_unmap_100(struct device *dev, uint8_t *buf)
{
	for (int i = 0; i < 100; i++) {
		dma_addr_t h = dma_map_single(dev, buf, 64, DMA_TO_DEVICE);

		REQUIRE(!dma_mapping_error(dev, h));
		dma_unmap_single(dev, h, 64, DMA_TO_DEVICE);
	}
}

/* An idle board costs the DMA API nothing: no yield is taken. */
TEST(sched_idle_devices_are_not_stepped)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_sched_stats before, after;
	struct device *dev;
	uint8_t *buf;

	REQUIRE(p && (dev = lookup(p, "dma-nc")));
	buf = dmamap_kmalloc(p, 64, DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	CHECK_EQ(dmamap_sim_sched_stats(p, &before), 0);
	map_unmap_100(dev, buf);
	CHECK_EQ(dmamap_sim_sched_stats(p, &after), 0);
	CHECK_EQ(after.yields, before.yields);
	CHECK_EQ(after.steps, before.steps);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

static uint32_t done_of(void __iomem *r)
{
	return readl(r + TICK_DONE);
}

TEST(sched_threaded_mode_steps_on_the_device_thread)
{
	struct device *t;
	void __iomem *r;
	struct dmamap_platform *p = board_with_ticker(&t, &r);
	uint32_t v;

	REQUIRE(p && r);
	CHECK_EQ(dmamap_sim_set_threaded(NULL, true), -EINVAL);
	CHECK(!dmamap_sim_threaded(p));
	CHECK(!dmamap_sim_threaded(NULL));
	CHECK_EQ(dmamap_sim_set_threaded(p, true), 0);
	CHECK(dmamap_sim_threaded(p));
	CHECK_EQ(dmamap_sim_set_threaded(p, true), 0); /* already on */
	writel(5000, r + TICK_TODO);
	CHECK_EQ(readx_poll_timeout(done_of, r, v, v == 5000, 10, 100000000), 0);
	CHECK_EQ(dmamap_sim_set_threaded(p, false), 0);
	CHECK(!dmamap_sim_threaded(p));
	/* Back on the schedule: the yield points step it again. */
	writel(3, r + TICK_TODO);
	CHECK_EQ(readl(r + TICK_DONE), 5001);
	dmamap_platform_destroy(p); /* with the thread running too: */
	p = board_with_ticker(&t, &r);
	REQUIRE(p && r);
	CHECK_EQ(dmamap_sim_set_threaded(p, true), 0);
	writel(1, r + TICK_FOREVER);
	dmamap_platform_destroy(p);
}

static struct device *hook_dev;
static uint8_t *hook_buf;
static unsigned int hook_calls;

/* A report hook that maps and unmaps: the reports a model's step sets off reach it inside the step. */
static void mapping_hook(void *ctx, const struct dmamap_report *r)
{
	dma_addr_t h;

	(void)ctx;
	(void)r;
	hook_calls++;
	h = dma_map_single(hook_dev, hook_buf, 64, DMA_TO_DEVICE);
	if (!dma_mapping_error(hook_dev, h))
		dma_unmap_single(hook_dev, h, 64, DMA_TO_DEVICE);
}

TEST(sched_a_report_hook_may_call_the_dma_api_from_a_model_step)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev;
	struct mcdma m;

	REQUIRE(p && (dev = lookup(p, "dma-iommu")) && (hook_dev = lookup(p, "dma-nc")));
	hook_buf = dmamap_kmalloc(p, 64, DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(hook_buf && mcdma_probe(&m, dev, 8) == 0);
	dmamap_set_report_hook(p, mapping_hook, NULL);
	/* The engine's read of an IOVA nobody mapped faults in its step: a report. */
	CHECK_EQ(mcdma_copy_dma(&m, 0x7000000, 0x7001000, 64), -EIO);
	CHECK(hook_calls > 0);
	dmamap_set_report_hook(p, NULL, NULL);
	mcdma_remove(&m);
	dmamap_kfree(p, hook_buf);
	dmamap_platform_destroy(p);
}

/* An interrupt nobody handles does not keep the board's DMA API on its slow path. */
TEST(sched_an_unhandled_interrupt_costs_nothing)
{
	struct device *t, *dev;
	void __iomem *r;
	struct dmamap_platform *p = board_with_ticker(&t, &r);
	struct dmamap_sched_stats before, after;
	uint8_t *buf;

	REQUIRE(p && r && (dev = lookup(p, "dma-nc")));
	buf = dmamap_kmalloc(p, 64, DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(buf);
	writel(0, r + TICK_RAISE); /* line 0, no handler: it waits for one */
	readl(r + TICK_DONE);      /* the write woke the ticker: its one idle step */
	CHECK_EQ(dmamap_sim_sched_stats(p, &before), 0);
	map_unmap_100(dev, buf);
	CHECK_EQ(dmamap_sim_sched_stats(p, &after), 0);
	CHECK_EQ(after.yields, before.yields);
	CHECK_EQ(after.irqs_raised, 1);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

/* No process-wide cap on boards with devices, or on interrupt numbers (100 x 8 x 2 of them). */
TEST(sched_a_hundred_live_boards)
{
	const struct dmamap_board b = {
		.name = "small",
		.swiotlb_size = ~0ULL,
		.nr_banks = 1,
		.banks = { { RAM0, 4 * MiB } },
	};
	struct dmamap_platform *p[100];
	struct device *t = NULL;

	for (int i = 0; i < 100; i++) {
		p[i] = quiet(dmamap_platform_create(&b, NULL));
		REQUIRE(p[i]);
		for (int k = 0; k < 8; k++) {
			char name[16];

			snprintf(name, sizeof(name), "t%d", k);
			t = add_ticker(p[i], name);
			REQUIRE(t);
		}
	}
	CHECK(dmamap_device_irq(t, 1) > 1024);
	CHECK(dmamap_device_ioremap(t) != NULL);
	CHECK_EQ(dmamap_sim_set_schedule(p[99], 3), 0);
	for (int i = 0; i < 100; i++)
		dmamap_platform_destroy(p[i]);
}

/* Work that arrives with no register write is stepped only once the model says so. */
TEST(sched_a_woken_device_steps_again)
{
	struct device *t;
	void __iomem *r;
	struct dmamap_platform *p = board_with_ticker(&t, &r);
	struct dmamap_sched_stats before, after;

	REQUIRE(p && r);
	CHECK(dmamap_sim_run_devices(p, 0) >= 0); /* idle */
	ticker_outside_work = 3;
	CHECK_EQ(dmamap_sim_sched_stats(p, &before), 0);
	cpu_relax();
	CHECK_EQ(dmamap_sim_sched_stats(p, &after), 0);
	CHECK_EQ(after.steps, before.steps); /* idle devices are not looked at */
	dmamap_model_wake(t);
	dmamap_model_wake(NULL);
	CHECK_EQ(dmamap_sim_run_devices(p, 0), 3 + 1);
	CHECK_EQ(ticker_outside_work, 0);
	CHECK_EQ(readl(r + TICK_DONE), 3);
	dmamap_platform_destroy(p);
}
