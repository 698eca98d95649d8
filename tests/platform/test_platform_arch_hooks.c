/* SPDX-License-Identifier: MIT */
/*
 * The arch hooks of <dmamap/dma-map-ops.h>, as a backend writer uses them:
 * a table of our own maps through the public translation helpers and asks
 * dmamap_arch_sync_dma_for_device()/_for_cpu() for the cache maintenance a
 * non-coherent device needs. The bytes the device and the CPU see prove the
 * maintenance happened, by the board's rules; coherent devices and the host
 * get none, and the device's counters say so.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "../helpers.h"

static dma_addr_t hook_map_page(struct device *dev, struct page *page, unsigned long offset,
				size_t size, enum dma_data_direction dir, unsigned long attrs)
{
	phys_addr_t phys = page_to_phys(page) + offset;

	(void)attrs;
	dmamap_arch_sync_dma_for_device(dev, phys, size, dir);
	return dmamap_phys_to_dma(dev, phys);
}

static void hook_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir, unsigned long attrs)
{
	(void)attrs;
	dmamap_arch_sync_dma_for_cpu(dev, dmamap_dma_to_phys(dev, addr), size, dir);
}

static const struct dma_map_ops hook_ops = {
	.name = "arch-hooks",
	.map_page = hook_map_page,
	.unmap_page = hook_unmap_page,
};

TEST(arch_hooks_clean_for_device_and_invalidate_for_cpu)
{
	struct dmamap_platform *p = default_board();
	uint8_t *buf, cpu_bytes[512], dev_bytes[512];
	struct device *dev;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-nc");
	buf = dmamap_kmalloc(p, sizeof(cpu_bytes), GFP_KERNEL | DMAMAP_GFP_DMA_ALIGN);
	REQUIRE(dev && buf);
	set_dma_ops(dev, &hook_ops);
	fill_pattern(cpu_bytes, sizeof(cpu_bytes), 41);
	memcpy(buf, cpu_bytes, sizeof(cpu_bytes));
	/* Written through the cache: memory does not have it yet. */
	CHECK(!mem_is(p, buf, cpu_bytes, sizeof(cpu_bytes)));
	h = dma_map_single(dev, buf, sizeof(cpu_bytes), DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	/* The clean put it there: the device reads the CPU's bytes. */
	CHECK(mem_is(p, buf, cpu_bytes, sizeof(cpu_bytes)));
	CHECK_EQ(stats_of(dev).cache_bytes_cleaned, sizeof(cpu_bytes));
	fill_pattern(dev_bytes, sizeof(dev_bytes), 42);
	CHECK_EQ(dmamap_device_write(dev, h, dev_bytes, sizeof(dev_bytes)), 0);
	/* Before the invalidate the CPU still sees its own stale copy. */
	CHECK_MEM(buf, cpu_bytes, sizeof(cpu_bytes));
	dma_unmap_single(dev, h, sizeof(dev_bytes), DMA_BIDIRECTIONAL);
	CHECK_MEM(buf, dev_bytes, sizeof(dev_bytes));
	CHECK_EQ(stats_of(dev).cache_bytes_invalidated, sizeof(dev_bytes));
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(arch_hooks_do_nothing_for_a_snooping_device)
{
	struct dmamap_platform *p = default_board();
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-coh");
	buf = dmamap_kmalloc(p, 256, GFP_KERNEL);
	REQUIRE(dev && buf);
	set_dma_ops(dev, &hook_ops);
	h = dma_map_single(dev, buf, 256, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	dma_unmap_single(dev, h, 256, DMA_BIDIRECTIONAL);
	CHECK_EQ(stats_of(dev).cache_bytes_cleaned, 0);
	CHECK_EQ(stats_of(dev).cache_bytes_invalidated, 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(arch_hooks_are_safe_on_the_host_and_with_bad_arguments)
{
	struct dmamap_platform *p = host_platform();
	struct device *dev;
	uint8_t buf[64] = { 1 };

	REQUIRE(p);
	dev = host_device(p, "hooks", NULL);
	REQUIRE(dev);
	dmamap_arch_sync_dma_for_device(dev, virt_to_phys(buf), sizeof(buf), DMA_TO_DEVICE);
	dmamap_arch_sync_dma_for_cpu(dev, virt_to_phys(buf), sizeof(buf), DMA_FROM_DEVICE);
	dmamap_arch_sync_dma_for_device(NULL, 0, 64, DMA_TO_DEVICE);
	dmamap_arch_sync_dma_for_cpu(dev, virt_to_phys(buf), 0, DMA_FROM_DEVICE);
	CHECK_EQ(buf[0], 1);
	CHECK_EQ(stats_of(dev).cache_bytes_cleaned, 0);
	dmamap_platform_destroy(p);
}
