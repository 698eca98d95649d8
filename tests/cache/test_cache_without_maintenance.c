/* SPDX-License-Identifier: MIT */
/*
 * When no cache maintenance happens: DMA_ATTR_SKIP_CPU_SYNC really skips it
 * (the device reads stale bytes, the CPU keeps stale bytes) until the
 * driver syncs itself; coherent and write-combined allocations need none
 * on either kind of device.
 *
 * Every check compares bytes the device read (dmamap_device_read), bytes
 * the CPU reads through its pointer, or the memory view probed with
 * dmamap_sim_mem_read(), against patterns the test wrote: a missing clean or
 * invalidate in the library shows up as stale bytes, never as a counter.
 */
#include "../helpers.h"

TEST(cache_skip_cpu_sync)
{
	struct dmamap_platform *p = builtin_board("default");
	struct dmamap_device_stats s0, s1;
	struct device *nc, *coh;
	uint8_t a[512], b[512], c[512];
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	nc = dmamap_device_lookup(p, NC);
	coh = dmamap_device_lookup(p, COH);
	buf = dbuf(p, 512);
	REQUIRE(nc && coh && buf);
	pattern(a, 512, 130);
	pattern(b, 512, 131);
	pattern(c, 512, 132);

	/* Memory holds A; the CPU's cache holds B. */
	memcpy(buf, a, 512);
	h = dma_map_single(nc, buf, 512, DMA_TO_DEVICE);
	dma_unmap_single(nc, h, 512, DMA_TO_DEVICE);
	memcpy(buf, b, 512);

	s0 = stats_of(nc);
	h = dma_map_single_attrs(nc, buf, 512, DMA_TO_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	REQUIRE(!dma_mapping_error(nc, h));
	s1 = stats_of(nc);
	CHECK_EQ(s1.cache_bytes_cleaned, s0.cache_bytes_cleaned);
	CHECK_EQ(s1.maps, s0.maps + 1);
	CHECK_MSG(dev_reads(nc, h, a, 512), "skipped clean: device should read stale A");
	/* The driver that skips does the sync itself. */
	dma_sync_single_for_device(nc, h, 512, DMA_TO_DEVICE);
	CHECK(stats_of(nc).cache_bytes_cleaned > s1.cache_bytes_cleaned);
	CHECK(dev_reads(nc, h, b, 512));
	dma_unmap_single_attrs(nc, h, 512, DMA_TO_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);

	/* FROM_DEVICE with a skipped invalidate at unmap: the CPU keeps B. */
	h = dma_map_single(nc, buf, 512, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(nc, h));
	CHECK_EQ(dmamap_device_write(nc, h, c, 512), 0);
	s0 = stats_of(nc);
	dma_unmap_single_attrs(nc, h, 512, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	s1 = stats_of(nc);
	CHECK_EQ(s1.cache_bytes_invalidated, s0.cache_bytes_invalidated);
	CHECK_EQ(s1.unmaps, s0.unmaps + 1);
	CHECK_MSG(!memcmp(buf, b, 512), "skipped invalidate: CPU should see stale B");
	CHECK(mem_is(p, buf, c, 512));

	/* A coherent device needs no maintenance: skipping changes nothing. */
	memcpy(buf, a, 512);
	h = dma_map_single_attrs(coh, buf, 512, DMA_TO_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	REQUIRE(!dma_mapping_error(coh, h));
	CHECK(dev_reads(coh, h, a, 512));
	dma_unmap_single_attrs(coh, h, 512, DMA_TO_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	CHECK_EQ(sim_losses(p), 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(cache_alloc_coherent_no_sync)
{
	struct dmamap_platform *p = builtin_board("default");
	uint8_t a[8192], b[300];

	REQUIRE(p);
	pattern(a, sizeof(a), 140);
	pattern(b, sizeof(b), 141);
	for (unsigned int d = 0; d < 2; d++) {
		for (unsigned int wc = 0; wc < 2; wc++) {
			struct device *dev = dmamap_device_lookup(p, both_devs[d]);
			struct dmamap_device_stats s0, s1;
			uint8_t zero[8192] = { 0 };
			dma_addr_t h;
			uint8_t *cpu;

			REQUIRE(dev);
			s0 = stats_of(dev);
			cpu = wc ? dma_alloc_wc(dev, 8192, &h, GFP_KERNEL) :
				   dma_alloc_coherent(dev, 8192, &h, GFP_KERNEL);
			REQUIRE(cpu);
			CHECK(!memcmp(cpu, zero, 8192));
			CHECK(dev_reads(dev, h, zero, 8192));
			/* CPU writes: the device sees them with no sync at all. */
			memcpy(cpu, a, 8192);
			CHECK_MSG(dev_reads(dev, h, a, 8192),
				  "%s%s: device does not see the CPU's writes",
				  both_devs[d], wc ? " (wc)" : "");
			/* Device writes: the CPU sees them at once. */
			CHECK_EQ(dmamap_device_write(dev, h + 100, b, 300), 0);
			CHECK_MSG(!memcmp(cpu + 100, b, 300),
				  "%s%s: CPU does not see the device's writes",
				  both_devs[d], wc ? " (wc)" : "");
			CHECK(!memcmp(cpu, a, 100));
			CHECK(!memcmp(cpu + 400, a + 400, 8192 - 400));
			/* Back and forth once more, still without maintenance. */
			cpu[5000] ^= 0xff;
			CHECK(dev_reads(dev, h + 5000, &cpu[5000], 1));
			s1 = stats_of(dev);
			CHECK_EQ(s1.cache_bytes_cleaned, s0.cache_bytes_cleaned);
			CHECK_EQ(s1.cache_bytes_invalidated, s0.cache_bytes_invalidated);
			if (wc)
				dma_free_wc(dev, 8192, cpu, h);
			else
				dma_free_coherent(dev, 8192, cpu, h);
		}
	}
	CHECK_EQ(sim_losses(p), 0);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	dmamap_platform_destroy(p);
}
