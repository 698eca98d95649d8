/* SPDX-License-Identifier: MIT */
/*
 * The cache model's own reports with the checker on: CPU data discarded by
 * an invalidate, device data overwritten by a write-back, and the shared
 * partial line behind either, on a core that cleans edge lines before
 * invalidating them (arm64) and on one that discards them.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked(), checked_scene()) and calls dma_mapping_error() on
 * every handle it maps, else it would also get MAP_ERR_NOT_CHECKED;
 * device-writable mappings on non-coherent devices use line-aligned buffers,
 * else MAP_UNALIGNED; except where that is the mistake under test.
 */
#include "../helpers.h"

TEST(checker_cpu_data_lost)
{
	struct scene s;
	uint8_t *cpu;

	REQUIRE(checked_scene(&s, NC, 0));
	/*
	 * Non-coherent memory starts owned by the CPU. The driver writes it,
	 * never gives it to the device (no sync_for_device), then "takes it
	 * back" for a device-written result: the invalidate discards its bytes.
	 * Nothing here is wrong for the checker's tracking; the data is lost.
	 */
	cpu = dma_alloc_noncoherent(s.dev, PAGE_SIZE, &s.h, DMA_FROM_DEVICE, GFP_KERNEL);
	REQUIRE(cpu);
	/* 16 bytes of one line: the cache model reports once per line. */
	memset(cpu + 64, 0xab, 16);
	EXPECT_NO_REPORTS();
	dma_sync_single_for_cpu(s.dev, s.h, PAGE_SIZE, DMA_FROM_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_CPU_DATA_LOST);
	CHECK(!strcmp(rec.r[0].device, NC));
	rec_reset();
	dma_free_noncoherent(s.dev, PAGE_SIZE, cpu, s.h, DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	scene_end_clean(&s);
}

TEST(checker_device_data_lost)
{
	uint8_t dev_bytes[64];
	struct scene s;
	uint8_t *cpu;

	REQUIRE(checked_scene(&s, NC, 0));
	memset(dev_bytes, 0x11, sizeof(dev_bytes));
	/*
	 * The device writes a line the CPU also wrote (the CPU owned the
	 * buffer, so neither is wrong for the tracking); the clean at
	 * sync_for_device writes the CPU's line back over the device's bytes.
	 */
	cpu = dma_alloc_noncoherent(s.dev, PAGE_SIZE, &s.h, DMA_BIDIRECTIONAL, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK_EQ(dmamap_device_write(s.dev, s.h, dev_bytes, sizeof(dev_bytes)), 0);
	memset(cpu, 0x22, 64);
	EXPECT_NO_REPORTS();
	dma_sync_single_for_device(s.dev, s.h, PAGE_SIZE, DMA_BIDIRECTIONAL);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_DATA_LOST);
	rec_reset();
	dma_sync_single_for_cpu(s.dev, s.h, PAGE_SIZE, DMA_BIDIRECTIONAL);
	dma_free_noncoherent(s.dev, PAGE_SIZE, cpu, s.h, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
	scene_end_clean(&s);
}

/*
 * A FROM_DEVICE buffer ending 8 bytes into a line, and a CPU variable 16
 * bytes after it in that line, updated while the device owns the buffer
 * (the variable is the CPU's: writing it is not writing the buffer).
 */
static void shared_edge(struct dmamap_platform *p, enum dmamap_dbg_kind loss)
{
	unsigned int line = dmamap_cache_line_size(p);
	size_t len = 3 * line + 8, var = len + 16;
	uint8_t dev_bytes[256];
	struct device *dev;
	uint8_t *obj;
	dma_addr_t h;

	dev = lookup(p, NC);
	obj = dbuf(p, 4 * line);
	REQUIRE(dev && obj && len <= sizeof(dev_bytes));
	memset(obj, 0x11, 4 * line);
	pattern(dev_bytes, len, 3);
	h = map_ok(dev, obj, len, DMA_FROM_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	/* The root cause, reported at map: the buffer does not end on a line. */
	EXPECT_KINDS(DMAMAP_DBG_MAP_UNALIGNED);
	CHECK(dmamap_device_write(dev, h, dev_bytes, len) == 0);
	obj[var] = 0x77;
	dma_unmap_single(dev, h, len, DMA_FROM_DEVICE);
	/* ...and the consequence at unmap, as the cache model sees it. */
	EXPECT_KINDS(DMAMAP_DBG_MAP_UNALIGNED, loss);
	dmamap_kfree(p, obj);
}

TEST(checker_cpu_data_lost_shared_line)
{
	struct dmamap_platform *p = checked(discard_board());

	REQUIRE(p);
	/* A discarding invalidate loses the CPU's variable. */
	shared_edge(p, DMAMAP_DBG_CPU_DATA_LOST);
	DESTROY_CLEAN(p);
}

TEST(checker_device_data_lost_shared_line)
{
	struct dmamap_platform *p = sim_board("default");

	REQUIRE(p);
	/* arm64 cleans the partial line first: the device's bytes there are lost. */
	shared_edge(p, DMAMAP_DBG_DEVICE_DATA_LOST);
	DESTROY_CLEAN(p);
}
