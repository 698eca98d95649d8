/* SPDX-License-Identifier: MIT */
/*
 * The checker on what only a simulator sees: the device reading or writing
 * memory it has no live mapping of (after unmap, never mapped, past the
 * end), writing a DMA_TO_DEVICE buffer, and the CPU writing a buffer the
 * device owns.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked(), checked_scene()) and calls dma_mapping_error() on
 * every handle it maps, else it would also get MAP_ERR_NOT_CHECKED;
 * device-writable mappings on non-coherent devices use line-aligned buffers,
 * else MAP_UNALIGNED; except where that is the mistake under test.
 */
#include "../helpers.h"

TEST(checker_device_access_unmapped)
{
	uint8_t *other, got[256];
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 256) && scene_map(&s, 256, DMA_TO_DEVICE));
	other = dbuf(s.p, 256);
	REQUIRE(other);
	CHECK_EQ(dmamap_device_read(s.dev, s.h, got, 256), 0);
	CHECK_EQ(dmamap_device_read(s.dev, s.h + 128, got, 128), 0);
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* Use after unmap: no IOMMU here to fault, the read happens, and is reported. */
	CHECK_EQ(dmamap_device_read(s.dev, s.h, got, 256), 0);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED);
	CHECK_EQ(rec.r[0].addr, s.h);
	CHECK(!strcmp(rec.r[0].device, NC));
	/* Never mapped at all. */
	rec_reset();
	CHECK_EQ(dmamap_device_read(s.dev, dmamap_phys_to_dma(s.dev, virt_to_phys(other)),
				    got, 64), 0);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED);
	/* Outside the window: a fault (API error), not this kind. */
	rec_reset();
	CHECK_EQ(dmamap_device_read(s.dev, 128 * MiB, got, 64), -EFAULT);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_FAULT);
	dmamap_kfree(s.p, other);
	scene_end_clean(&s);
}

TEST(checker_device_access_overrun)
{
	struct scene s;
	uint8_t got[512];

	REQUIRE(checked_scene(&s, NC, 512) && scene_map(&s, 256, DMA_TO_DEVICE));
	/* Starts in the mapping, reads 256 bytes past its end. */
	CHECK_EQ(dmamap_device_read(s.dev, s.h, got, 512), 0);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED);
	rec_reset();
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	scene_end_clean(&s);
}

TEST(checker_device_write_readonly)
{
	static const char *const devs[] = { NC, COH };
	struct dmamap_platform *p = sim_board("default");
	uint8_t junk[64];

	REQUIRE(p);
	memset(junk, 0xa5, sizeof(junk));
	for (unsigned int i = 0; i < 2; i++) {
		struct device *dev = lookup(p, devs[i]);
		uint8_t *buf = dbuf(p, 256);
		dma_addr_t h;

		REQUIRE(dev && buf);
		memset(buf, 0x11, 256);
		h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
		REQUIRE(h != DMA_MAPPING_ERROR);
		rec_reset();
		CHECK_EQ(dmamap_device_write(dev, h + 64, junk, sizeof(junk)), 0);
		EXPECT_KINDS(DMAMAP_DBG_DEVICE_WRITE_READONLY);
		CHECK_MSG(!strcmp(rec.r[0].device, devs[i]), "device '%s'", rec.r[0].device);
		CHECK_TRACKED(0);
		CHECK_EQ(rec.r[0].direction, DMA_TO_DEVICE);
		rec_reset();
		dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
		EXPECT_NO_REPORTS();
		dmamap_kfree(p, buf);
	}
	DESTROY_CLEAN(p);
}

TEST(checker_cpu_write_while_device_owns)
{
	struct device *coh;
	struct scene s;
	dma_addr_t h;

	REQUIRE(checked_scene(&s, NC, 256));
	coh = lookup(s.p, COH);
	REQUIRE(coh);
	memset(s.buf, 0x11, 256);
	/* TO_DEVICE, seen at unmap: the write is the only damage (the device read stale data). */
	REQUIRE(scene_map(&s, 256, DMA_TO_DEVICE));
	s.buf[100] = 0x22;
	EXPECT_NO_REPORTS();
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_REPORT_AT(DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS, s.h);
	CHECK(!strcmp(rec.r[0].device, NC));

	/* TO_DEVICE, seen at sync_for_cpu; afterwards the CPU owns it and may write. */
	rec_reset();
	REQUIRE(scene_map(&s, 256, DMA_TO_DEVICE));
	s.buf[10] = 0x33;
	dma_sync_single_for_cpu(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS);
	rec_reset();
	s.buf[20] = 0x44;
	dma_sync_single_for_device(s.dev, s.h, 256, DMA_TO_DEVICE);
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();

	/* A coherent device shares the CPU's view: not a problem there. */
	h = map_ok(coh, s.buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	s.buf[30] = 0x55;
	dma_unmap_single(coh, h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	scene_end_clean(&s);
}

TEST(checker_cpu_write_while_device_owns_from_device)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 256));
	memset(s.buf, 0x11, 256);
	REQUIRE(scene_map(&s, 256, DMA_FROM_DEVICE));
	s.buf[100] = 0x22;
	dma_unmap_single(s.dev, s.h, 256, DMA_FROM_DEVICE);
	/*
	 * The invalidate at unmap discards the CPU's byte: the cache model's
	 * CPU_DATA_LOST comes with the checker's report (order not specified).
	 */
	EXPECT_KINDS_ANY_ORDER(DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS,
			       DMAMAP_DBG_CPU_DATA_LOST);
	CHECK_EQ(s.buf[100], 0x11);
	scene_end_clean(&s);
}
