/* SPDX-License-Identifier: MIT */
/*
 * A host device that does not snoop (host_noncoherent): every map, unmap
 * and sync maintains the real data cache by line (arm64 dc cvac / dc
 * civac, x86 clflush; docs/portability.md), counted in the device's
 * cache_bytes_cleaned and cache_bytes_invalidated; the handles stay the
 * identity; coherent allocations are refused, said, since the host has no
 * uncached memory; an architecture whose user space cannot do it refuses
 * the device. Under qemu-aarch64 the arm64 instructions execute (their
 * effect on a real SoC's caches is what the docs describe).
 */
#include "../helpers.h"

#if defined(__aarch64__) || defined(__x86_64__) || defined(__i386__)
#define CAN_MAINTAIN 1
#else
#define CAN_MAINTAIN 0
#endif

static struct device *nc_device(struct dmamap_platform *p, struct dmamap_error *err)
{
	struct dmamap_device_desc d = { .name = "nc", .host_noncoherent = true };

	return dmamap_device_create(p, &d, err);
}

/* Bytes of whole lines (of the size the cleaned count comes in) that [@buf, +@len) touches. */
static uint64_t lines_bytes(const void *buf, size_t len, uint64_t line)
{
	uintptr_t a = (uintptr_t)buf;

	return ((a + len + line - 1) / line - a / line) * line;
}

TEST(host_noncoherent_maps_maintain_each_line)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = host_platform();
	struct dmamap_device_stats s0, s1;
	uint8_t want[5000], got[5000];
	struct device *dev;
	uint64_t line, cleaned;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = nc_device(p, &err);
	if (!CAN_MAINTAIN) {
		CHECK(dev == NULL);
		CHECK_EQ(err.code, -EOPNOTSUPP);
		CHECK_MSG(strstr(err.msg, "cannot clean the data cache") != NULL, "%s", err.msg);
		dmamap_platform_destroy(p);
		return;
	}
	REQUIRE_MSG(dev, "%s", err.msg);
	CHECK(!dev_is_dma_coherent(dev));
	buf = malloc(sizeof(want) + 100);
	REQUIRE(buf);
	fill_pattern(want, sizeof(want), 3);
	memcpy(buf + 7, want, sizeof(want));

	/* To the device: cleaned, line by line; nothing invalidated at the unmap. */
	REQUIRE(dmamap_device_stats(dev, &s0) == 0);
	h = dma_map_single(dev, buf + 7, sizeof(want), DMA_TO_DEVICE);
	CHECK_EQ(h, (dma_addr_t)(uintptr_t)(buf + 7));
	REQUIRE(dmamap_device_stats(dev, &s1) == 0);
	cleaned = s1.cache_bytes_cleaned - s0.cache_bytes_cleaned;
	CHECK(cleaned >= sizeof(want));
	/* The line the loop stepped by, from the count: a power of two of at least 16 bytes. */
	line = 0;
	for (uint64_t l = 16; l <= 1024 && !line; l *= 2)
		if (lines_bytes(buf + 7, sizeof(want), l) == cleaned)
			line = l;
	CHECK_MSG(line, "%llu bytes cleaned is no whole number of lines over the buffer",
		  (unsigned long long)cleaned);
	CHECK(dmamap_device_read(dev, h, got, sizeof(got)) == 0);
	CHECK_MEM(got, want, sizeof(want));
	dma_unmap_single(dev, h, sizeof(want), DMA_TO_DEVICE);
	REQUIRE(dmamap_device_stats(dev, &s0) == 0);
	CHECK_EQ(s0.cache_bytes_invalidated, s1.cache_bytes_invalidated);

	/* From the device: cleaned before, invalidated after; the CPU reads the device's bytes. */
	h = dma_map_single(dev, buf + 7, sizeof(want), DMA_FROM_DEVICE);
	fill_pattern(want, sizeof(want), 4);
	CHECK(dmamap_device_write(dev, h, want, sizeof(want)) == 0);
	dma_sync_single_for_cpu(dev, h, sizeof(want), DMA_FROM_DEVICE);
	REQUIRE(dmamap_device_stats(dev, &s1) == 0);
	CHECK_EQ(s1.cache_bytes_invalidated - s0.cache_bytes_invalidated,
		 lines_bytes(buf + 7, sizeof(want), line));
	CHECK_MEM(buf + 7, want, sizeof(want));
	dma_sync_single_for_device(dev, h, sizeof(want), DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, sizeof(want), DMA_FROM_DEVICE);
	REQUIRE(dmamap_device_stats(dev, &s0) == 0);
	CHECK_EQ(s0.cache_bytes_invalidated - s1.cache_bytes_invalidated,
		 lines_bytes(buf + 7, sizeof(want), line));
	CHECK_EQ(s0.cache_bytes_cleaned - s1.cache_bytes_cleaned,
		 lines_bytes(buf + 7, sizeof(want), line));
	CHECK_EQ(s0.errors, 0);
	free(buf);
	dmamap_platform_destroy(p);
}

TEST(host_noncoherent_coherent_memory_refused_noncoherent_given)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = checked(dmamap_platform_host(&err));
	struct device *dev;
	dma_addr_t h = 0;
	void *cpu;

	REQUIRE(p);
	dev = nc_device(p, &err);
	if (!CAN_MAINTAIN) {
		CHECK(dev == NULL);
		dmamap_platform_destroy(p);
		return;
	}
	REQUIRE(dev);
	rec_reset();
	CHECK(dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL) == NULL);
	EXPECT_KINDS(DMAMAP_DBG_ALLOC_FAILED);
	CHECK_MSG(text_has(0, "no uncached memory") && text_has(0, "dma_alloc_noncoherent"), "%s",
		  rec.r[0].text);
	{
		/* A pool's memory is coherent memory: refused the same way, when the pool asks for it. */
		struct dma_pool *pool = dma_pool_create("p", dev, 64, 64, 0);

		REQUIRE(pool);
		rec_reset();
		CHECK(dma_pool_alloc(pool, GFP_KERNEL, &h) == NULL);
		EXPECT_KINDS(DMAMAP_DBG_ALLOC_FAILED);
		dma_pool_destroy(pool);
	}
	rec_reset();
	cpu = dma_alloc_noncoherent(dev, 8192, &h, DMA_FROM_DEVICE, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK_EQ(h, (dma_addr_t)(uintptr_t)cpu);
	dma_sync_single_for_device(dev, h, 8192, DMA_FROM_DEVICE);
	CHECK_EQ(dmamap_device_write(dev, h, "device", 6), 0);
	dma_sync_single_for_cpu(dev, h, 8192, DMA_FROM_DEVICE);
	CHECK_MEM(cpu, "device", 6);
	dma_free_noncoherent(dev, 8192, cpu, h, DMA_FROM_DEVICE);
	EXPECT_KINDS();
	dmamap_platform_destroy(p);
}

/* The default host device snoops: no maintenance, the identity fast path. */
TEST(host_coherent_device_maintains_nothing)
{
	struct dmamap_platform *p = host_platform();
	struct dmamap_device_stats s;
	struct device *dev;
	uint8_t buf[3000];
	dma_addr_t h;

	REQUIRE(p);
	dev = host_device(p, "h0", NULL);
	REQUIRE(dev);
	h = dma_map_single(dev, buf, sizeof(buf), DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, sizeof(buf), DMA_FROM_DEVICE);
	REQUIRE(dmamap_device_stats(dev, &s) == 0);
	CHECK_EQ(s.cache_bytes_cleaned, 0);
	CHECK_EQ(s.cache_bytes_invalidated, 0);
	dmamap_platform_destroy(p);
}

/* An address the process has not mapped is never maintained: no fault in a cache instruction. */
TEST(host_noncoherent_unmapped_addresses_are_not_touched)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = quiet(host_platform());
	struct dmamap_device_stats s;
	void *hole = (void *)(uintptr_t)0x1000; /* below any mapping Linux allows */
	struct device *dev;
	dma_addr_t h;

	REQUIRE(p);
	dev = nc_device(p, &err);
	if (!dev) {
		CHECK(!CAN_MAINTAIN);
		dmamap_platform_destroy(p);
		return;
	}
	dmamap_arch_sync_dma_for_device(dev, 0x1000, 4096, DMA_TO_DEVICE);
	dmamap_arch_sync_dma_for_cpu(dev, 0x1000, 4096, DMA_FROM_DEVICE);
	h = dma_map_single(dev, hole, 4096, DMA_BIDIRECTIONAL);
	dma_sync_single_for_cpu(dev, 0x1000, 4096, DMA_BIDIRECTIONAL);
	if (!dma_mapping_error(dev, h))
		dma_unmap_single(dev, h, 4096, DMA_BIDIRECTIONAL);
	REQUIRE(dmamap_device_stats(dev, &s) == 0);
	CHECK_EQ(s.cache_bytes_cleaned, 0);
	CHECK_EQ(s.cache_bytes_invalidated, 0);
	dmamap_platform_destroy(p);
}
