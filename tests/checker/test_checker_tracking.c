/* SPDX-License-Identifier: MIT */
/*
 * How the checker tracks mappings: the host's short path still defers every
 * mistake to the general one, live counts per device and per platform,
 * two live mappings at one address matched to the right unmap, and
 * DMAMAP_DEBUG turning it on for every platform.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked(), checked_scene()) and calls dma_mapping_error() on
 * every handle it maps, else it would also get MAP_ERR_NOT_CHECKED;
 * device-writable mappings on non-coherent devices use line-aligned buffers,
 * else MAP_UNALIGNED; except where that is the mistake under test.
 */
#include "../helpers.h"

/*
 * On the host, map and unmap of a coherent identity device take a short
 * path through the checker. Every mistake it does not judge itself must
 * still reach the general path and be reported, exactly as on a board.
 */
TEST(checker_host_short_path_defers_every_mistake)
{
	static const struct {
		size_t size;
		enum dma_data_direction dir;
		bool as_page;
		enum dmamap_dbg_kind kind;
	} wrong[] = {
		{ 128, DMA_TO_DEVICE, false, DMAMAP_DBG_WRONG_SIZE },
		{ 256, DMA_FROM_DEVICE, false, DMAMAP_DBG_WRONG_DIRECTION },
		{ 256, DMA_TO_DEVICE, true, DMAMAP_DBG_WRONG_TYPE },
	};
	struct dmamap_platform *p = host_board();
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = host_device(p, "h-short", NULL);
	buf = aligned_alloc(64, 256);
	REQUIRE(dev && buf);
	/* Correct: nothing. */
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* Error not checked. */
	h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_ERR_NOT_CHECKED);
	/* Wrong size, direction, function: 256 bytes mapped TO_DEVICE, unmapped so. */
	for (unsigned int i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		rec_reset();
		h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
		if (wrong[i].as_page)
			dma_unmap_page(dev, h, wrong[i].size, wrong[i].dir);
		else
			dma_unmap_single(dev, h, wrong[i].size, wrong[i].dir);
		EXPECT_KINDS(wrong[i].kind);
	}
	/* Twice. */
	rec_reset();
	h = map_ok(dev, buf, 256, DMA_BIDIRECTIONAL);
	dma_unmap_single(dev, h, 256, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
	dma_unmap_single(dev, h, 256, DMA_BIDIRECTIONAL);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	/* Twins at one address: each unmap takes its own, whichever order. */
	rec_reset();
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(map_ok(dev, buf, 64, DMA_FROM_DEVICE) == h);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	dma_unmap_single(dev, h, 64, DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	free(buf);
	DESTROY_CLEAN(p);
}

TEST(checker_live_counts)
{
	dma_addr_t hs, hp, hr, hc, hn;
	struct scatterlist sg[3];
	struct device *nc;
	struct scene s;
	uint8_t *b, *c;
	void *cc, *cn;

	REQUIRE(checked_scene(&s, COH, 1024));
	nc = lookup(s.p, NC);
	b = dbuf(s.p, 256);
	c = dbuf(s.p, 256);
	REQUIRE(nc && b && c);
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 0);
	hs = map_ok(s.dev, s.buf, 256, DMA_TO_DEVICE);
	hp = dma_map_page(s.dev, virt_to_page(b), offset_in_page(b), 256, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(s.dev, hp) && hs != DMA_MAPPING_ERROR);
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], s.buf + 256, 64);
	sg_set_buf(&sg[1], s.buf + 512, 64);
	sg_set_buf(&sg[2], c, 64);
	REQUIRE(dma_map_sg(s.dev, sg, 3, DMA_TO_DEVICE) == 3);
	hr = dma_map_resource(s.dev, MMIO_PHYS, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	REQUIRE(!dma_mapping_error(s.dev, hr));
	cc = dma_alloc_coherent(s.dev, PAGE_SIZE, &hc, GFP_KERNEL);
	cn = dma_alloc_noncoherent(s.dev, PAGE_SIZE, &hn, DMA_TO_DEVICE, GFP_KERNEL);
	REQUIRE(cc && cn);
	/* single + page + 3 sg entries + resource + coherent + noncoherent */
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 8);
	CHECK_EQ(dmamap_debug_live(nc, NULL), 0);
	CHECK_EQ(dmamap_debug_live(NULL, s.p), 8);
	dma_unmap_single(s.dev, hs, 256, DMA_TO_DEVICE);
	dma_unmap_page(s.dev, hp, 256, DMA_FROM_DEVICE);
	dma_unmap_sg(s.dev, sg, 3, DMA_TO_DEVICE);
	dma_unmap_resource(s.dev, hr, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	dma_free_coherent(s.dev, PAGE_SIZE, cc, hc);
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 1);
	dma_free_noncoherent(s.dev, PAGE_SIZE, cn, hn, DMA_TO_DEVICE);
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 0);
	CHECK_EQ(dmamap_debug_live(NULL, s.p), 0);
	CHECK_EQ(dmamap_debug_live(NULL, NULL), 0);
	EXPECT_NO_REPORTS();

	/* Off: nothing tracked, nothing counted; mistakes go unseen. */
	dmamap_debug_enable(s.p, false);
	CHECK(!dmamap_debug_enabled(s.p));
	rec_reset();
	check_log = false;
	hs = map_ok(s.dev, s.buf, 256, DMA_TO_DEVICE);
	REQUIRE(hs != DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 0);
	dma_unmap_single(s.dev, hs, 128, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	check_log = true;
	dmamap_kfree(s.p, b);
	dmamap_kfree(s.p, c);
	scene_end_clean(&s);
}

/*
 * Two live mappings at one device address are legal (a buffer mapped
 * single and again as the first entry of an sg list, two rings sharing a
 * buffer): each unmap and sync must be matched with the mapping it fits,
 * as dma-debug's bucket_find_exact()/bucket_find_contain() pick the best
 * match on size, type and direction, not the first entry at the address.
 */
TEST(checker_same_address_two_mappings)
{
	struct scatterlist sg[2];
	struct scene s;
	uint8_t *b;

	REQUIRE(checked_scene(&s, COH, 1024) && scene_map(&s, 1024, DMA_TO_DEVICE));
	b = dbuf(s.p, 256);
	REQUIRE(b);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], s.buf, 64);
	sg_set_buf(&sg[1], b, 64);
	REQUIRE(dma_map_sg(s.dev, sg, 2, DMA_TO_DEVICE) == 2);
	REQUIRE(sg_dma_address(&sg[0]) == s.h);
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 3);
	/* A sync of the single mapping's whole range. */
	dma_sync_single_for_cpu(s.dev, s.h, 1024, DMA_TO_DEVICE);
	dma_sync_single_for_device(s.dev, s.h, 1024, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* Unmapping the single one first, then the list. */
	rec_reset();
	dma_unmap_single(s.dev, s.h, 1024, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	rec_reset();
	dma_unmap_sg(s.dev, sg, 2, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 0);
	/* The other order. */
	rec_reset();
	REQUIRE(scene_map(&s, 1024, DMA_TO_DEVICE));
	REQUIRE(dma_map_sg(s.dev, sg, 2, DMA_TO_DEVICE) == 2);
	dma_unmap_sg(s.dev, sg, 2, DMA_TO_DEVICE);
	dma_unmap_single(s.dev, s.h, 1024, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 0);
	stop_checking(s.p);
	dmamap_kfree(s.p, b);
	scene_end(&s);
}

TEST(checker_env_enables)
{
	struct dmamap_platform *p, *h;

	setenv("DMAMAP_DEBUG", "1", 1);
	p = dmamap_platform_builtin("default", NULL);
	h = dmamap_platform_host(NULL);
	REQUIRE(p && h);
	CHECK(dmamap_debug_enabled(p));
	CHECK(dmamap_debug_enabled(h));
	dmamap_platform_destroy(p);
	dmamap_platform_destroy(h);
	setenv("DMAMAP_DEBUG", "0", 1);
	p = dmamap_platform_builtin("default", NULL);
	REQUIRE(p);
	CHECK(!dmamap_debug_enabled(p));
	dmamap_platform_destroy(p);
}
