/* SPDX-License-Identifier: MIT */
/*
 * <dmamap/io.h>: register blocks behind ioremap cookies, accessors of
 * every width, bus aborts on refused registers, plain memory, and polling
 * that keeps device time.
 */
#include <time.h>
#include <dmamap/io.h>
#include <dmamap/hw/memcpy-engine.h>
#include "../helpers.h"

TEST(io_cookies_reach_the_models_registers)
{
	struct dmamap_platform *p = checked(quiet_board());
	struct device *nc, *coh;
	void __iomem *a, *b;

	REQUIRE(p && (nc = lookup(p, "dma-nc")) && (coh = lookup(p, "dma-coh")));
	a = dmamap_device_ioremap(nc);
	b = dmamap_device_ioremap(coh);
	REQUIRE(a && b && a != b);
	CHECK(dmamap_device_ioremap(nc) == a);
	CHECK(dmamap_device_ioremap(NULL) == NULL);
	CHECK_EQ(readl(a + MCE_REG_ID), MCE_ID);
	writel(0x12345678, a + MCE_REG_RING_LO);
	writel(0x9abcdef0, b + MCE_REG_RING_LO);
	CHECK_EQ(readl_relaxed(a + MCE_REG_RING_LO), 0x12345678);
	CHECK_EQ(ioread32(b + MCE_REG_RING_LO), 0x9abcdef0);
	CHECK_EQ(readb(a + MCE_REG_RING_LO + 1), 0x56);
	CHECK_EQ(readw(a + MCE_REG_RING_LO + 2), 0x1234);
	writeb(0xaa, a + MCE_REG_RING_LO + 2);
	CHECK_EQ(readl(a + MCE_REG_RING_LO), 0x12aa5678);
	writew(0xbeef, a + MCE_REG_RING_LO);
	CHECK_EQ(readl(a + MCE_REG_RING_LO), 0x12aabeef);
	writeq(0x1122334455667788ULL, a + MCE_REG_RING_LO); /* LO then HI */
	CHECK_EQ(readl(a + MCE_REG_RING_HI), 0x11223344);
	CHECK_EQ(readq(a + MCE_REG_RING_LO), 0x1122334455667788ULL);
	iowrite32(7, a + MCE_REG_RING_LO);
	CHECK_EQ(dmamap_mmio_read32(nc, MCE_REG_RING_LO, &(uint32_t){ 0 }), 0);
	EXPECT_NO_REPORTS();
	dmamap_platform_destroy(p);
}

TEST(io_refused_registers_read_all_ones_and_are_reported)
{
	struct dmamap_platform *p = checked(quiet_board());
	struct device *nc;
	void __iomem *a;

	REQUIRE(p && (nc = lookup(p, "dma-nc")) && (a = dmamap_device_ioremap(nc)));
	rec_reset();
	CHECK_EQ(readl(a + 0x400), 0xffffffffu);
	EXPECT_KINDS(DMAMAP_DBG_MMIO_ERROR);
	EXPECT_ONLY(DMAMAP_DBG_MMIO_ERROR, writel(1, a + MCE_REG_HEAD)); /* read-only */
	EXPECT_ONLY(DMAMAP_DBG_MMIO_ERROR, dmamap_io_read(a, 3, true));
	CHECK_EQ(dmamap_io_read(a, 3, true), ~0ULL);
	dmamap_platform_destroy(p);
}

TEST(io_accessors_on_plain_memory_are_volatile_accesses)
{
	uint64_t word = 0;

	writel(0xdeadbeef, &word);
	CHECK_EQ(readl(&word), 0xdeadbeef);
	writeq(0x0102030405060708ULL, &word);
	CHECK_EQ(readq(&word), 0x0102030405060708ULL);
	writeb(0xff, &word);
	CHECK_EQ(readb(&word), 0xff);
	writew(0x1234, &word);
	CHECK_EQ(readw_relaxed(&word), 0x1234);
	CHECK_EQ(dmamap_io_read(&word, 5, false), ~0ULL);
}

static uint32_t done_of(void __iomem *r)
{
	return readl(r + TICK_DONE);
}

TEST(io_poll_timeout_counts_device_time)
{
	struct dmamap_platform *p = quiet_board();
	struct device *t;
	void __iomem *r;
	uint32_t v;
	uint64_t start = 0;

	REQUIRE(p && (t = add_ticker(p, "ticker")) && (r = dmamap_device_ioremap(t)));
	writel(300, r + TICK_TODO);
	/* 10 us between reads: ten steps each, so 300 steps take 30 reads. */
	CHECK_EQ(readx_poll_timeout(done_of, r, v, v == 300, 10, 1000), 0);
	CHECK_EQ(v, 300);
	writel(300, r + TICK_TODO);
	CHECK_EQ(readl_poll_timeout(r + TICK_DONE, v, v == 600, 10, 100), -ETIMEDOUT);
	CHECK(v > 300 && v < 600);
	CHECK_EQ(dmamap_poll_elapsed(&start, 5), 5);
	CHECK_EQ(dmamap_poll_elapsed(&start, 0), 6);
	CHECK_EQ(dmamap_poll_elapsed(NULL, 1), 0);
	dmamap_platform_destroy(p);
}

/* With no board stepping devices, polls keep the real clock. */
TEST(io_poll_elapsed_is_real_time_without_device_time)
{
	uint64_t start = 0, e;
	struct timespec ts = { 0, 2000000 };

	CHECK_EQ(dmamap_poll_elapsed(&start, 0), 0);
	nanosleep(&ts, NULL);
	e = dmamap_poll_elapsed(&start, 0);
	CHECK_MSG(e >= 1500 && e < 1000000, "2 ms measured as %llu us", (unsigned long long)e);
	udelay(3000);
	CHECK(dmamap_poll_elapsed(&start, 0) >= e + 2900);
}

/* Without device time, ndelay(), usleep_range() and msleep() take real time (at least what they say). */
TEST(io_delays_and_sleeps_take_real_time_without_device_time)
{
	struct timespec t0, t1;
	long us;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ndelay(1500000);
	usleep_range(2000, 4000);
	msleep(3);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	us = (long)((t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000);
	CHECK_MSG(us >= 6500, "1.5 + 2 + 3 ms took %ld us", us);
}

/* A register block whose device is gone: reads all ones, and both accesses are reported. */
TEST(io_register_block_of_a_destroyed_device_is_refused)
{
	struct dmamap_platform *p = checked(quiet_board());
	struct dmamap_device_desc d = { .name = "gone", .model = "memcpy" };
	struct device *dev;
	void __iomem *regs;
	const char *said;

	REQUIRE(p && (dev = dmamap_device_create(p, &d, NULL)) && (regs = dmamap_device_ioremap(dev)));
	CHECK_EQ(readl(regs + MCE_REG_ID), MCE_ID);
	dmamap_device_destroy(dev);
	stderr_capture();
	CHECK_EQ(readl(regs + MCE_REG_ID), 0xffffffffu);
	writel(1, regs + MCE_REG_RING_LO);
	said = stderr_text();
	CHECK_MSG(strstr(said, "read at ") && strstr(said, "no device's register block is there (removed?)") &&
		  strstr(said, "write at "), "%s", said);
	dmamap_platform_destroy(p);
}
