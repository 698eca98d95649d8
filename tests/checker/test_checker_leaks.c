/* SPDX-License-Identifier: MIT */
/*
 * The checker on leaks: mappings and allocations still live when their
 * device or the whole platform goes are reported, one report per device,
 * naming the count and one live entry.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked(), checked_scene()) and calls dma_mapping_error() on
 * every handle it maps, else it would also get MAP_ERR_NOT_CHECKED;
 * device-writable mappings on non-coherent devices use line-aligned buffers,
 * else MAP_UNALIGNED; except where that is the mistake under test.
 */
#include "../helpers.h"

TEST(checker_leak_device_destroy)
{
	struct dmamap_device_desc d = {
		.name = "dma-leak", .dma_mask = DMA_BIT_MASK(32), .coherent = true,
	};
	struct device *dev;
	dma_addr_t h1, h2, ch;
	struct scene s;
	uint8_t *b;
	void *cpu;

	REQUIRE(checked_scene(&s, NC, 256));
	dev = new_device(s.p, &d);
	b = dbuf(s.p, 256);
	REQUIRE(dev && b);
	h1 = map_ok(dev, s.buf, 256, DMA_TO_DEVICE);
	h2 = map_ok(dev, b, 256, DMA_BIDIRECTIONAL);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &ch, GFP_KERNEL);
	REQUIRE(h1 != DMA_MAPPING_ERROR && h2 != DMA_MAPPING_ERROR && cpu);
	/* Another device's live mapping is not this device's leak. */
	REQUIRE(scene_map(&s, 256, DMA_TO_DEVICE));
	CHECK_EQ(dmamap_debug_live(dev, NULL), 3);
	CHECK_EQ(dmamap_debug_live(NULL, s.p), 4);
	EXPECT_NO_REPORTS();

	dmamap_device_destroy(dev);
	EXPECT_KINDS(DMAMAP_DBG_LEAK);
	CHECK(!strcmp(rec.r[0].device, "dma-leak"));
	CHECK_MSG(text_has(0, "count=3"), "leak text should give [count=3]: '%s'",
		  rec.r[0].text);
	CHECK_MSG(text_has_addr(0, h1) || text_has_addr(0, h2) || text_has_addr(0, ch),
		  "leak text should name one live entry (0x%llx, 0x%llx or 0x%llx): '%s'",
		  (unsigned long long)h1, (unsigned long long)h2,
		  (unsigned long long)ch, rec.r[0].text);
	CHECK_MSG(strstr(last_line(), "dma-leak") != NULL, "log: '%s'", last_line());
	CHECK_EQ(dmamap_debug_live(NULL, s.p), 1);
	/* dma-nc's mapping is live still, and unmaps cleanly. */
	rec_reset();
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	CHECK_EQ(dmamap_debug_live(NULL, s.p), 0);
	dmamap_kfree(s.p, b);
	scene_end_clean(&s);
}

TEST(checker_leak_platform_destroy)
{
	bool seen_nc = false, seen_coh = false;
	struct scatterlist sg[2];
	struct device *coh;
	struct scene s;
	uint8_t *b;

	REQUIRE(checked_scene(&s, NC, 256) && scene_map(&s, 256, DMA_TO_DEVICE));
	coh = lookup(s.p, COH);
	b = dbuf(s.p, 256);
	REQUIRE(coh && b);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], s.buf, 128);
	sg_set_buf(&sg[1], b, 256);
	REQUIRE(dma_map_sg(coh, sg, 2, DMA_TO_DEVICE) == 2);
	CHECK_EQ(dmamap_debug_live(NULL, s.p), 3);
	cur_p = NULL; /* its counters die with it */
	rec_reset();
	dmamap_platform_destroy(s.p);
	/* One report per leaking device, whatever the order. */
	EXPECT_KINDS(DMAMAP_DBG_LEAK, DMAMAP_DBG_LEAK);
	for (unsigned int i = 0; i < rec.n && i < 2; i++) {
		if (!strcmp(rec.r[i].device, NC)) {
			seen_nc = true;
			CHECK_MSG(text_has(i, "count=1"), "text: '%s'", rec.r[i].text);
			CHECK_MSG(text_has_addr(i, s.h), "text: '%s'", rec.r[i].text);
		} else if (!strcmp(rec.r[i].device, COH)) {
			seen_coh = true;
			CHECK_MSG(text_has(i, "count=2"), "text: '%s'", rec.r[i].text);
			CHECK_MSG(text_has_addr(i, sg_dma_address(&sg[0])) ||
					  text_has_addr(i, sg_dma_address(&sg[1])),
				  "text: '%s'", rec.r[i].text);
		}
	}
	CHECK(seen_nc && seen_coh);
}
