/* SPDX-License-Identifier: MIT */
/*
 * The checker at dma_sync_*: a sync of memory not mapped, or running
 * outside its mapping, or in another direction than mapped; a sync for the
 * CPU of memory the device may only read, or for the device of memory it
 * may only write.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked()) and calls dma_mapping_error() on every handle it
 * maps, else it would also get MAP_ERR_NOT_CHECKED; device-writable mappings
 * on non-coherent devices use line-aligned buffers, else MAP_UNALIGNED;
 * except where that is the mistake under test.
 */
#include "../helpers.h"

TEST(checker_sync_not_mapped)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	/* Never mapped (TO_DEVICE: a clean, which loses nothing). */
	dma_sync_single_for_device(dev, dmamap_phys_to_dma(dev, virt_to_phys(buf)), 256,
				   DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SYNC_NOT_MAPPED);
	/* After the unmap. */
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	rec_reset();
	dma_sync_single_for_cpu(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SYNC_NOT_MAPPED);
	CHECK_EQ(rec.r[0].addr, h);
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

TEST(checker_sync_outside)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 1024);
	REQUIRE(dev && buf);
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	/* Inside, whole or part: fine. */
	dma_sync_single_for_cpu(dev, h, 256, DMA_TO_DEVICE);
	dma_sync_single_for_device(dev, h, 256, DMA_TO_DEVICE);
	dma_sync_single_for_cpu(dev, h + 64, 64, DMA_TO_DEVICE);
	dma_sync_single_for_device(dev, h + 64, 64, DMA_TO_DEVICE);
	dma_sync_single_range_for_cpu(dev, h, 128, 128, DMA_TO_DEVICE);
	dma_sync_single_range_for_device(dev, h, 128, 128, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* Starting inside, running past the end. */
	dma_sync_single_for_device(dev, h, 512, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SYNC_OUTSIDE);
	CHECK_EQ(rec.r[0].addr, h);
	CHECK_TRACKED(0);
	rec_reset();
	dma_sync_single_for_cpu(dev, h + 192, 128, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SYNC_OUTSIDE);
	rec_reset();
	dma_sync_single_range_for_device(dev, h, 192, 128, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SYNC_OUTSIDE);
	rec_reset();
	dma_sync_single_range_for_cpu(dev, h, 255, 2, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SYNC_OUTSIDE);
	rec_reset();
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

/* Map 256 bytes @map_dir, then sync once (@to_cpu or not) as @sync_dir. */
static bool sync_once(struct dmamap_platform *p, struct device *dev,
		      enum dma_data_direction map_dir, bool to_cpu,
		      enum dma_data_direction sync_dir, dma_addr_t *hp)
{
	uint8_t *buf = dbuf(p, 256);
	dma_addr_t h;

	if (!buf)
		return false;
	h = map_ok(dev, buf, 256, map_dir);
	if (h == DMA_MAPPING_ERROR)
		return false;
	*hp = h;
	rec_reset();
	if (to_cpu)
		dma_sync_single_for_cpu(dev, h, 256, sync_dir);
	else
		dma_sync_single_for_device(dev, h, 256, sync_dir);
	return true;
}

static void unmap_quietly(struct dmamap_platform *p, struct device *dev,
			  dma_addr_t h, enum dma_data_direction dir)
{
	unsigned int n = rec.n;

	dma_unmap_single(dev, h, 256, dir);
	CHECK_MSG(rec.n == n, "the correct unmap after a wrong sync reported");
	dmamap_kfree(p, dmamap_phys_to_virt(p, dmamap_dma_to_phys(dev, h)));
}

TEST(checker_sync_wrong_direction)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	/*
	 * FROM_DEVICE memory synced for the CPU as TO_DEVICE: the direction
	 * differs, but a device-written buffer may be read by the CPU, so it is
	 * not the read-only case. (TO_DEVICE for_cpu does no maintenance.)
	 */
	REQUIRE(sync_once(p, dev, DMA_FROM_DEVICE, true, DMA_TO_DEVICE, &h));
	EXPECT_KINDS(DMAMAP_DBG_SYNC_WRONG_DIRECTION);
	CHECK_EQ(rec.r[0].addr, h);
	CHECK_EQ(rec.r[0].direction, DMA_FROM_DEVICE);
	CHECK_TRACKED(0);
	unmap_quietly(p, dev, h, DMA_FROM_DEVICE);

	/* TO_DEVICE memory synced for the device as FROM_DEVICE: likewise. */
	REQUIRE(sync_once(p, dev, DMA_TO_DEVICE, false, DMA_FROM_DEVICE, &h));
	EXPECT_KINDS(DMAMAP_DBG_SYNC_WRONG_DIRECTION);
	unmap_quietly(p, dev, h, DMA_TO_DEVICE);

	/* The same direction as mapped never reports. */
	for (int d = 0; d < 3; d++) {
		REQUIRE(sync_once(p, dev, dirs[d], true, dirs[d], &h));
		dma_sync_single_for_device(dev, h, 256, dirs[d]);
		EXPECT_NO_REPORTS();
		unmap_quietly(p, dev, h, dirs[d]);
	}
	DESTROY_CLEAN(p);
}

TEST(checker_sync_readonly_for_cpu)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	/*
	 * A TO_DEVICE mapping synced for the CPU as FROM_DEVICE (or
	 * BIDIRECTIONAL) is both a direction mismatch and a sync for the CPU of
	 * memory the device may only read: dma-debug's two checks, both fire.
	 */
	REQUIRE(sync_once(p, dev, DMA_TO_DEVICE, true, DMA_FROM_DEVICE, &h));
	EXPECT_KINDS_ANY_ORDER(DMAMAP_DBG_SYNC_WRONG_DIRECTION,
			       DMAMAP_DBG_SYNC_READONLY_FOR_CPU);
	CHECK_TRACKED(0);
	CHECK_TRACKED(1);
	unmap_quietly(p, dev, h, DMA_TO_DEVICE);

	REQUIRE(sync_once(p, dev, DMA_TO_DEVICE, true, DMA_BIDIRECTIONAL, &h));
	EXPECT_KINDS_ANY_ORDER(DMAMAP_DBG_SYNC_WRONG_DIRECTION,
			       DMAMAP_DBG_SYNC_READONLY_FOR_CPU);
	unmap_quietly(p, dev, h, DMA_TO_DEVICE);
	DESTROY_CLEAN(p);
}

TEST(checker_sync_writeonly_for_device)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	/* The mirror image: FROM_DEVICE memory handed to the device to read. */
	REQUIRE(sync_once(p, dev, DMA_FROM_DEVICE, false, DMA_TO_DEVICE, &h));
	EXPECT_KINDS_ANY_ORDER(DMAMAP_DBG_SYNC_WRONG_DIRECTION,
			       DMAMAP_DBG_SYNC_WRITEONLY_FOR_DEVICE);
	CHECK_TRACKED(0);
	unmap_quietly(p, dev, h, DMA_FROM_DEVICE);

	REQUIRE(sync_once(p, dev, DMA_FROM_DEVICE, false, DMA_BIDIRECTIONAL, &h));
	EXPECT_KINDS_ANY_ORDER(DMAMAP_DBG_SYNC_WRONG_DIRECTION,
			       DMAMAP_DBG_SYNC_WRITEONLY_FOR_DEVICE);
	unmap_quietly(p, dev, h, DMA_FROM_DEVICE);
	DESTROY_CLEAN(p);
}
