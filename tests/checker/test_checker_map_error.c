/* SPDX-License-Identifier: MIT */
/*
 * The checker: a handle used before dma_mapping_error() was asked about it
 * (at unmap, sync or a device access) is reported; asked, it is not, even
 * across a restart of the checker.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked(), checked_scene()) and calls dma_mapping_error() on
 * every handle it maps, else it would also get MAP_ERR_NOT_CHECKED;
 * device-writable mappings on non-coherent devices use line-aligned buffers,
 * else MAP_UNALIGNED; except where that is the mistake under test.
 */
#include "../helpers.h"

/*
 * The default board, checked, and 256 bytes of dma-nc mapped TO_DEVICE
 * without asking dma_mapping_error() about the handle (in s->h).
 */
static bool map_unchecked(struct scene *s)
{
	if (!checked_scene(s, NC, 256))
		return false;
	s->h = dma_map_single(s->dev, s->buf, 256, DMA_TO_DEVICE);
	return s->h != DMA_MAPPING_ERROR;
}

/* For the mistakes after which the contract leaves the unmap's reports open. */
static void unmap_unchecked(struct scene *s)
{
	stop_checking(s->p);
	dma_unmap_single(s->dev, s->h, 256, DMA_TO_DEVICE);
	scene_end(s);
}

TEST(checker_map_err_not_checked_unmap)
{
	struct scene s;

	REQUIRE(map_unchecked(&s));
	EXPECT_NO_REPORTS();
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_REPORT_AT(DMAMAP_DBG_MAP_ERR_NOT_CHECKED, s.h);

	/* Checked: nothing. Checked late (after the map, before use): nothing. */
	rec_reset();
	s.h = dma_map_single(s.dev, s.buf, 256, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(s.dev, s.h));
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	scene_end_clean(&s);
}

/*
 * dma_mapping_error() finds the mapping this thread made last without a
 * lookup. After the checker is turned off (which frees its entries) and on
 * again, that shortcut must not reach the old checker's memory (ASan sees
 * it if it does), and the new checker judges only what it saw mapped.
 */
TEST(checker_map_err_after_checker_restart)
{
	struct scene s;
	uint8_t *buf2;
	dma_addr_t b;

	REQUIRE(map_unchecked(&s));
	buf2 = dbuf(s.p, 256);
	REQUIRE(buf2);
	dmamap_debug_enable(s.p, false);
	dmamap_debug_enable(s.p, true);
	rec_reset();
	CHECK_EQ(dma_mapping_error(s.dev, s.h), 0);
	EXPECT_NO_REPORTS();
	/* Forgotten with the old checker: the new one never saw it mapped. */
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	/* And what it does see is judged as usual. */
	rec_reset();
	b = dma_map_single(s.dev, buf2, 256, DMA_TO_DEVICE);
	REQUIRE(b != DMA_MAPPING_ERROR);
	dma_unmap_single(s.dev, b, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_ERR_NOT_CHECKED);
	CHECK_EQ(rec.r[0].addr, b);
	rec_reset();
	b = dma_map_single(s.dev, buf2, 256, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(s.dev, b));
	dma_unmap_single(s.dev, b, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(s.p, buf2);
	scene_end_clean(&s);
}

TEST(checker_map_err_not_checked_sync)
{
	struct scene s;

	REQUIRE(map_unchecked(&s));
	dma_sync_single_for_cpu(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_ERR_NOT_CHECKED);
	CHECK_TRACKED(0);
	/* Reported again at unmap or not: the contract does not say. */
	unmap_unchecked(&s);
}

TEST(checker_map_err_not_checked_device_access)
{
	uint8_t got[256];
	struct scene s;

	REQUIRE(map_unchecked(&s));
	CHECK_EQ(dmamap_device_read(s.dev, s.h, got, sizeof(got)), 0);
	EXPECT_KINDS(DMAMAP_DBG_MAP_ERR_NOT_CHECKED);
	CHECK_TRACKED(0);
	unmap_unchecked(&s);
}
