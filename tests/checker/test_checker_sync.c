/* SPDX-License-Identifier: MIT */
/*
 * The checker at dma_sync_*: a sync of memory not mapped, or running
 * outside its mapping, or in another direction than mapped; a sync for the
 * CPU of memory the device may only read, or for the device of memory it
 * may only write.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked(), checked_scene()) and calls dma_mapping_error() on
 * every handle it maps, else it would also get MAP_ERR_NOT_CHECKED;
 * device-writable mappings on non-coherent devices use line-aligned buffers,
 * else MAP_UNALIGNED; except where that is the mistake under test.
 */
#include "../helpers.h"

TEST(checker_sync_not_mapped)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 256));
	/* Never mapped (TO_DEVICE: a clean, which loses nothing). */
	dma_sync_single_for_device(s.dev, dmamap_phys_to_dma(s.dev, virt_to_phys(s.buf)), 256,
				   DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SYNC_NOT_MAPPED);
	/* After the unmap. */
	REQUIRE(scene_map(&s, 256, DMA_TO_DEVICE));
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	rec_reset();
	dma_sync_single_for_cpu(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SYNC_NOT_MAPPED);
	CHECK_EQ(rec.r[0].addr, s.h);
	scene_end_clean(&s);
}

TEST(checker_sync_outside)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 1024) && scene_map(&s, 256, DMA_TO_DEVICE));
	/* Inside, whole or part: fine. */
	dma_sync_single_for_cpu(s.dev, s.h, 256, DMA_TO_DEVICE);
	dma_sync_single_for_device(s.dev, s.h, 256, DMA_TO_DEVICE);
	dma_sync_single_for_cpu(s.dev, s.h + 64, 64, DMA_TO_DEVICE);
	dma_sync_single_for_device(s.dev, s.h + 64, 64, DMA_TO_DEVICE);
	dma_sync_single_range_for_cpu(s.dev, s.h, 128, 128, DMA_TO_DEVICE);
	dma_sync_single_range_for_device(s.dev, s.h, 128, 128, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* Starting inside, running past the end. */
	dma_sync_single_for_device(s.dev, s.h, 512, DMA_TO_DEVICE);
	EXPECT_REPORT_AT(DMAMAP_DBG_SYNC_OUTSIDE, s.h);
	EXPECT_ONLY(DMAMAP_DBG_SYNC_OUTSIDE,
		    dma_sync_single_for_cpu(s.dev, s.h + 192, 128, DMA_TO_DEVICE));
	EXPECT_ONLY(DMAMAP_DBG_SYNC_OUTSIDE,
		    dma_sync_single_range_for_device(s.dev, s.h, 192, 128, DMA_TO_DEVICE));
	EXPECT_ONLY(DMAMAP_DBG_SYNC_OUTSIDE,
		    dma_sync_single_range_for_cpu(s.dev, s.h, 255, 2, DMA_TO_DEVICE));
	rec_reset();
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	scene_end_clean(&s);
}

/* Map 256 bytes @map_dir, then sync once (@to_cpu or not) as @sync_dir. */
static bool sync_once(struct scene *s, enum dma_data_direction map_dir, bool to_cpu,
		      enum dma_data_direction sync_dir, dma_addr_t *hp)
{
	uint8_t *buf = dbuf(s->p, 256);
	dma_addr_t h;

	if (!buf)
		return false;
	h = map_ok(s->dev, buf, 256, map_dir);
	if (h == DMA_MAPPING_ERROR)
		return false;
	*hp = h;
	rec_reset();
	if (to_cpu)
		dma_sync_single_for_cpu(s->dev, h, 256, sync_dir);
	else
		dma_sync_single_for_device(s->dev, h, 256, sync_dir);
	return true;
}

static void unmap_quietly(struct scene *s, dma_addr_t h, enum dma_data_direction dir)
{
	unsigned int n = rec.n;

	dma_unmap_single(s->dev, h, 256, dir);
	CHECK_MSG(rec.n == n, "the correct unmap after a wrong sync reported");
	dmamap_kfree(s->p, dmamap_phys_to_virt(s->p, dmamap_dma_to_phys(s->dev, h)));
}

/*
 * A sync as sync_once() makes it that breaks two of dma-debug's rules:
 * both fire (the direction mismatch and @also, in either order), each
 * about the tracked mapping, and the correct unmap after it is quiet.
 */
static void sync_breaks_two_rules(struct scene *s, enum dma_data_direction map_dir,
				  bool to_cpu, enum dma_data_direction sync_dir,
				  enum dmamap_dbg_kind also)
{
	dma_addr_t h;

	REQUIRE(sync_once(s, map_dir, to_cpu, sync_dir, &h));
	EXPECT_KINDS_ANY_ORDER(DMAMAP_DBG_SYNC_WRONG_DIRECTION, also);
	CHECK_TRACKED(0);
	CHECK_TRACKED(1);
	unmap_quietly(s, h, map_dir);
}

TEST(checker_sync_wrong_direction)
{
	struct scene s;
	dma_addr_t h;

	REQUIRE(checked_scene(&s, NC, 0));
	/*
	 * FROM_DEVICE memory synced for the CPU as TO_DEVICE: the direction
	 * differs, but a device-written buffer may be read by the CPU, so it is
	 * not the read-only case. (TO_DEVICE for_cpu does no maintenance.)
	 */
	REQUIRE(sync_once(&s, DMA_FROM_DEVICE, true, DMA_TO_DEVICE, &h));
	EXPECT_REPORT_AT(DMAMAP_DBG_SYNC_WRONG_DIRECTION, h);
	CHECK_EQ(rec.r[0].direction, DMA_FROM_DEVICE);
	unmap_quietly(&s, h, DMA_FROM_DEVICE);

	/* TO_DEVICE memory synced for the device as FROM_DEVICE: likewise. */
	REQUIRE(sync_once(&s, DMA_TO_DEVICE, false, DMA_FROM_DEVICE, &h));
	EXPECT_KINDS(DMAMAP_DBG_SYNC_WRONG_DIRECTION);
	unmap_quietly(&s, h, DMA_TO_DEVICE);

	/* The same direction as mapped never reports. */
	for (int d = 0; d < 3; d++) {
		REQUIRE(sync_once(&s, dirs[d], true, dirs[d], &h));
		dma_sync_single_for_device(s.dev, h, 256, dirs[d]);
		EXPECT_NO_REPORTS();
		unmap_quietly(&s, h, dirs[d]);
	}
	scene_end_clean(&s);
}

TEST(checker_sync_readonly_for_cpu)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 0));
	/*
	 * A TO_DEVICE mapping synced for the CPU as FROM_DEVICE (or
	 * BIDIRECTIONAL) is both a direction mismatch and a sync for the CPU of
	 * memory the device may only read: dma-debug's two checks, both fire.
	 */
	sync_breaks_two_rules(&s, DMA_TO_DEVICE, true, DMA_FROM_DEVICE,
			      DMAMAP_DBG_SYNC_READONLY_FOR_CPU);
	sync_breaks_two_rules(&s, DMA_TO_DEVICE, true, DMA_BIDIRECTIONAL,
			      DMAMAP_DBG_SYNC_READONLY_FOR_CPU);
	scene_end_clean(&s);
}

TEST(checker_sync_writeonly_for_device)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 0));
	/* The mirror image: FROM_DEVICE memory handed to the device to read. */
	sync_breaks_two_rules(&s, DMA_FROM_DEVICE, false, DMA_TO_DEVICE,
			      DMAMAP_DBG_SYNC_WRITEONLY_FOR_DEVICE);
	sync_breaks_two_rules(&s, DMA_FROM_DEVICE, false, DMA_BIDIRECTIONAL,
			      DMAMAP_DBG_SYNC_WRITEONLY_FOR_DEVICE);
	scene_end_clean(&s);
}

/* dma_sync_sg_*() with another entry count than dma_map_sg(): reported once per call. */
TEST(checker_sync_sg_nents)
{
	struct scatterlist sg[3];
	struct scene s;
	uint8_t *b, *c;

	REQUIRE(checked_scene(&s, NC, 256));
	b = dbuf(s.p, 256);
	c = dbuf(s.p, 256);
	REQUIRE(b && c);
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], s.buf, 256);
	sg_set_buf(&sg[1], b, 256);
	sg_set_buf(&sg[2], c, 256);
	REQUIRE(dma_map_sg(s.dev, sg, 3, DMA_FROM_DEVICE) == 3);
	EXPECT_NO_REPORTS();
	/* The count mapped: nothing to say. */
	dma_sync_sg_for_cpu(s.dev, sg, 3, DMA_FROM_DEVICE);
	dma_sync_sg_for_device(s.dev, sg, 3, DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	dma_sync_sg_for_cpu(s.dev, sg, 2, DMA_FROM_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SG_NENTS);
	CHECK_EQ(rec.r[0].addr, sg_dma_address(&sg[0]));
	CHECK_MSG(text_has(0, "syncs") && text_has(0, "3") && text_has(0, "2"), "text: '%s'",
		  rec.r[0].text);
	rec_reset();
	dma_sync_sg_for_device(s.dev, sg, 2, DMA_FROM_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SG_NENTS);
	rec_reset();
	dma_unmap_sg(s.dev, sg, 3, DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(s.p, b);
	dmamap_kfree(s.p, c);
	scene_end(&s);
}
