/* SPDX-License-Identifier: MIT */
/*
 * The function's own side on the VFIO platform, against the fake kernel:
 * BAR0 mapped once for readl()/writel(), the BARs that are not there or
 * are I/O ports, configuration space reads and writes, the reset, and
 * every entry point refusing a NULL or non-VFIO device.
 */
#include "../helpers.h"
#include "fake_kernel.h"

#define ARENA (1ULL << 20)

TEST(vfio_device_bar0_reaches_the_registers)
{
	struct dmamap_platform *p;
	struct device *dev;
	void __iomem *bar;
	volatile uint32_t *regs;
	size_t size = 0;

	p = fake_platform(NULL, ARENA, true, &dev);
	REQUIRE(p && dev);
	/* Mapped at first use, not before. */
	CHECK_EQ(fake_counts.bar_mmaps, 0);
	bar = dmamap_vfio_bar(dev, 0, &size);
	REQUIRE(bar);
	CHECK_EQ(size, FAKE_BAR0_SIZE);
	CHECK(bar == fake_vfio_bar0());
	CHECK_EQ(fake_counts.bar_mmaps, 1);
	regs = fake_vfio_bar0();
	/* The driver's writes reach the device's registers, and its reads the device's values. */
	writel(0xdeadbeef, (uint8_t __iomem *)bar + 0x100);
	CHECK_EQ(regs[0x100 / 4], 0xdeadbeef);
	writel(0x12345678, (uint8_t __iomem *)bar + FAKE_BAR0_SIZE - 4);
	CHECK_EQ(regs[FAKE_BAR0_SIZE / 4 - 1], 0x12345678);
	regs[0x200 / 4] = 0xcafef00d;
	CHECK_EQ(readl((uint8_t __iomem *)bar + 0x200), 0xcafef00d);
	writeq(0x0102030405060708ULL, (uint8_t __iomem *)bar + 0x300);
	CHECK_EQ(regs[0x300 / 4], 0x05060708);
	CHECK_EQ(regs[0x304 / 4], 0x01020304);
	/* Once: the second call is the same mapping, and the size is optional. */
	CHECK(dmamap_vfio_bar(dev, 0, NULL) == bar);
	CHECK_EQ(fake_counts.bar_mmaps, 1);
	EXPECT_NO_REPORTS();
	fake_platform_end(p);
	CHECK_EQ(fake_counts.bar_munmaps, 1);
}

/* BAR0's upper half, the I/O-port BAR, empty BARs and indexes past 5: NULL, nothing mapped. */
TEST(vfio_device_missing_and_io_bars_are_null)
{
	struct dmamap_platform *p;
	struct device *dev;
	size_t size = 77;

	p = fake_platform(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	CHECK(dmamap_vfio_bar(dev, 1, &size) == NULL);
	CHECK(dmamap_vfio_bar(dev, 2, &size) == NULL);
	CHECK(dmamap_vfio_bar(dev, 3, &size) == NULL);
	CHECK(dmamap_vfio_bar(dev, 5, &size) == NULL);
	CHECK(dmamap_vfio_bar(dev, 6, &size) == NULL);
	CHECK(dmamap_vfio_bar(dev, ~0u, &size) == NULL);
	CHECK_EQ(size, 77);
	CHECK_EQ(fake_counts.bar_mmaps, 0);
	/* BAR0 still maps after them. */
	CHECK(dmamap_vfio_bar(dev, 0, &size) != NULL);
	CHECK_EQ(size, FAKE_BAR0_SIZE);
	fake_platform_end(p);
}

/* A BAR the kernel will not map (mmap refused): NULL, and tried again at the next call. */
TEST(vfio_device_bar_map_refused)
{
	struct dmamap_platform *p;
	struct device *dev;

	p = fake_platform(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	fake_vfio_fail_call_in(1, ENOMEM);
	CHECK(dmamap_vfio_bar(dev, 0, NULL) == NULL);
	CHECK_EQ(fake_counts.injected, 1);
	CHECK(dmamap_vfio_bar(dev, 0, NULL) != NULL);
	CHECK_EQ(fake_counts.bar_mmaps, 1);
	fake_platform_end(p);
}

TEST(vfio_device_config_space)
{
	uint8_t all[FAKE_CONFIG_SIZE], b;
	struct dmamap_platform *p;
	struct device *dev;
	uint32_t id = 0, bar2 = 0;
	uint16_t cmd = 0x0006, v = 0;

	p = fake_platform(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(dmamap_vfio_config_read(dev, 0, &id, 4), 0);
	CHECK_EQ(id & 0xffff, FAKE_VENDOR);
	CHECK_EQ(id >> 16, FAKE_DEVICE);
	CHECK_EQ(dmamap_vfio_config_read(dev, 2, &v, 2), 0);
	CHECK_EQ(v, FAKE_DEVICE);
	CHECK_EQ(dmamap_vfio_config_read(dev, 0x18, &bar2, 4), 0);
	CHECK_EQ(bar2 & 1, 1);
	CHECK_EQ(dmamap_vfio_config_read(dev, 0, all, sizeof(all)), 0);
	CHECK_MEM(all, fake_vfio_config(), sizeof(all));
	CHECK_EQ(dmamap_vfio_config_read(dev, FAKE_CONFIG_SIZE - 1, &b, 1), 0);

	/* Bus mastering on: the write reaches the function, and reads back. */
	CHECK_EQ(dmamap_vfio_config_write(dev, 4, &cmd, 2), 0);
	CHECK_EQ(fake_vfio_config()[4], 0x06);
	v = 0;
	CHECK_EQ(dmamap_vfio_config_read(dev, 4, &v, 2), 0);
	CHECK_EQ(v, 0x0006);

	/* Outside the space, none, too much, no buffer: refused before the kernel. */
	{
		unsigned long r = fake_counts.config_reads, w = fake_counts.config_writes;

		CHECK_EQ(dmamap_vfio_config_read(dev, FAKE_CONFIG_SIZE, &b, 1), -EINVAL);
		CHECK_EQ(dmamap_vfio_config_read(dev, FAKE_CONFIG_SIZE - 2, &id, 4), -EINVAL);
		CHECK_EQ(dmamap_vfio_config_read(dev, ~0u, &id, 4), -EINVAL);
		CHECK_EQ(dmamap_vfio_config_read(dev, 0, &id, 0), -EINVAL);
		CHECK_EQ(dmamap_vfio_config_read(dev, 0, all, FAKE_CONFIG_SIZE + 1), -EINVAL);
		CHECK_EQ(dmamap_vfio_config_read(dev, 0, NULL, 4), -EINVAL);
		CHECK_EQ(dmamap_vfio_config_write(dev, 0, NULL, 4), -EINVAL);
		CHECK_EQ(dmamap_vfio_config_write(dev, FAKE_CONFIG_SIZE, &cmd, 2), -EINVAL);
		CHECK_EQ(dmamap_vfio_config_write(dev, 4, &cmd, 0), -EINVAL);
		CHECK_EQ(fake_counts.config_reads, r);
		CHECK_EQ(fake_counts.config_writes, w);
	}
	fake_platform_end(p);
}

/* The kernel moving less than asked: -EIO, both ways. */
TEST(vfio_device_config_short_transfer_is_eio)
{
	struct fake_vfio_cfg cfg = { .config_short = true };
	struct dmamap_platform *p;
	struct device *dev;
	uint32_t id = 0;

	p = fake_platform(&cfg, ARENA, false, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(dmamap_vfio_config_read(dev, 0, &id, 4), -EIO);
	CHECK_EQ(dmamap_vfio_config_write(dev, 4, &id, 2), -EIO);
	fake_platform_end(p);
}

TEST(vfio_device_reset)
{
	struct fake_vfio_cfg cfg = { .reset_errno = ENOTTY };
	struct dmamap_platform *p;
	struct device *dev;
	uint16_t cmd = 0x0006, v = 0;

	p = fake_platform(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(dmamap_vfio_config_write(dev, 4, &cmd, 2), 0);
	CHECK_EQ(dmamap_vfio_reset(dev), 0);
	CHECK_EQ(fake_counts.ioctl[FAKE_DEVICE_RESET], 1);
	/* The function came back as it was: its command register cleared. */
	CHECK_EQ(dmamap_vfio_config_read(dev, 4, &v, 2), 0);
	CHECK_EQ(v, 0);
	fake_platform_end(p);

	/* No reset VFIO can do: the kernel's -ENOTTY. */
	p = fake_platform(&cfg, ARENA, false, &dev);
	REQUIRE(p && dev);
	CHECK_EQ(dmamap_vfio_reset(dev), -ENOTTY);
	CHECK_EQ(fake_counts.ioctl_failed[FAKE_DEVICE_RESET], 1);
	fake_platform_end(p);
}

/* A NULL device, or one of another platform: every entry point refuses, the kernel untouched. */
TEST(vfio_device_null_and_foreign_devices_refused)
{
	struct dmamap_vfio_stats st;
	struct dmamap_platform *p, *host;
	struct device *dev, *hdev;
	uint32_t buf = 0;
	size_t size = 5;
	unsigned long calls;

	p = fake_platform(NULL, ARENA, false, &dev);
	REQUIRE(p && dev);
	host = host_platform();
	REQUIRE(host);
	hdev = host_device(host, "h0", NULL);
	REQUIRE(hdev);
	calls = fake_vfio_calls();
	for (int i = 0; i < 2; i++) {
		struct device *d = i ? hdev : NULL;

		CHECK(dmamap_vfio_bar(d, 0, &size) == NULL);
		CHECK_EQ(dmamap_vfio_config_read(d, 0, &buf, 4), -EINVAL);
		CHECK_EQ(dmamap_vfio_config_write(d, 4, &buf, 2), -EINVAL);
		CHECK_EQ(dmamap_vfio_reset(d), -EINVAL);
		CHECK_EQ(dmamap_vfio_stats(d, &st), -EINVAL);
	}
	CHECK_EQ(dmamap_vfio_stats(dev, NULL), -EINVAL);
	CHECK_EQ(size, 5);
	CHECK_EQ(fake_vfio_calls(), calls);
	CHECK_EQ(fake_counts.ioctl[FAKE_DEVICE_RESET], 0);
	dmamap_platform_destroy(host);
	fake_platform_end(p);
}
