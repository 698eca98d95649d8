/* SPDX-License-Identifier: MIT */
/*
 * The checker on cache lines: live device-writable mappings that share a
 * line (once per mapping, wherever the shared line is), and device-writable
 * mappings that do not start or end on a line.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked(), checked_scene()) and calls dma_mapping_error() on
 * every handle it maps, else it would also get MAP_ERR_NOT_CHECKED;
 * device-writable mappings on non-coherent devices use line-aligned buffers,
 * else MAP_UNALIGNED; except where that is the mistake under test.
 */
#include "../helpers.h"

/* Two 32-byte kmalloc objects that share one cache line, or false. */
static bool shared_pair(struct dmamap_platform *p, uint8_t **a, uint8_t **b)
{
	unsigned int line = dmamap_cache_line_size(p);
	uint8_t *obj[16];
	bool found = false;
	int n = 0;

	*a = *b = NULL;
	while (n < 16 && !found) {
		obj[n] = dmamap_kmalloc(p, 32, DMAMAP_GFP_DMA);
		if (!obj[n])
			break;
		for (int i = 0; i < n && !found; i++) {
			if (virt_to_phys(obj[i]) / line == virt_to_phys(obj[n]) / line) {
				*a = obj[i];
				*b = obj[n];
				found = true;
			}
		}
		n++;
	}
	for (int i = 0; i < n; i++)
		if (obj[i] != *a && obj[i] != *b)
			dmamap_kfree(p, obj[i]);
	return found;
}

TEST(checker_cacheline_overlap)
{
	dma_addr_t ha, hb;
	struct scene s;
	uint8_t *a, *b;

	REQUIRE(checked_scene(&s, NC, 0) && dmamap_cache_line_size(s.p) == 64);
	REQUIRE(shared_pair(s.p, &a, &b));
	/*
	 * Each 32-byte object covers half a line, so each FROM_DEVICE mapping
	 * is also MAP_UNALIGNED; the second, while the first is live, shares
	 * its line: CACHELINE_OVERLAP as well (order not specified).
	 */
	ha = map_ok(s.dev, a, 32, DMA_FROM_DEVICE);
	REQUIRE(ha != DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_MAP_UNALIGNED);
	rec_reset();
	hb = map_ok(s.dev, b, 32, DMA_FROM_DEVICE);
	REQUIRE(hb != DMA_MAPPING_ERROR);
	EXPECT_KINDS_ANY_ORDER(DMAMAP_DBG_MAP_UNALIGNED, DMAMAP_DBG_CACHELINE_OVERLAP);
	for (unsigned int i = 0; i < rec.n && i < REC_MAX; i++) {
		if (rec.r[i].kind != DMAMAP_DBG_CACHELINE_OVERLAP)
			continue;
		CHECK(!strcmp(rec.r[i].device, NC));
		CHECK_MSG(rec.r[i].addr == hb || rec.r[i].addr == ha,
			  "overlap report names 0x%llx, not a mapping of the line",
			  (unsigned long long)rec.r[i].addr);
		CHECK_TRACKED(i);
	}
	rec_reset();
	dma_unmap_single(s.dev, hb, 32, DMA_FROM_DEVICE);
	dma_unmap_single(s.dev, ha, 32, DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(s.p, a);
	dmamap_kfree(s.p, b);
	scene_end_clean(&s);
}

/*
 * Map @len1 bytes of the scene's buffer by @dev as @dir1, then @len2 bytes
 * at @off2 as @dir2 while the first is live: the first reports nothing;
 * the second exactly one CACHELINE_OVERLAP about a tracked entry if
 * @overlap, else nothing; unmapping both (the second first) nothing.
 */
static void map_over(struct scene *s, struct device *dev, size_t len1,
		     enum dma_data_direction dir1, size_t off2, size_t len2,
		     enum dma_data_direction dir2, bool overlap)
{
	dma_addr_t h1, h2;

	rec_reset();
	h1 = map_ok(dev, s->buf, len1, dir1);
	REQUIRE(h1 != DMA_MAPPING_ERROR);
	EXPECT_NO_REPORTS();
	h2 = map_ok(dev, s->buf + off2, len2, dir2);
	REQUIRE(h2 != DMA_MAPPING_ERROR);
	if (overlap) {
		EXPECT_KINDS(DMAMAP_DBG_CACHELINE_OVERLAP);
		CHECK_TRACKED(0);
	} else {
		EXPECT_NO_REPORTS();
	}
	rec_reset();
	dma_unmap_single(dev, h2, len2, dir2);
	dma_unmap_single(dev, h1, len1, dir1);
	EXPECT_NO_REPORTS();
}

TEST(checker_cacheline_overlap_aligned)
{
	struct device *coh;
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 256));
	coh = lookup(s.p, COH);
	REQUIRE(coh);
	/* Two TO_DEVICE mappings of one line: the device only reads, fine. */
	map_over(&s, s.dev, 256, DMA_TO_DEVICE, 0, 256, DMA_TO_DEVICE, false);
	/* A coherent device has no cache lines to share. */
	map_over(&s, coh, 256, DMA_FROM_DEVICE, 0, 256, DMA_FROM_DEVICE, false);
	/* One line-aligned line mapped twice FROM_DEVICE: the overlap alone. */
	map_over(&s, s.dev, 64, DMA_FROM_DEVICE, 0, 64, DMA_FROM_DEVICE, true);
	CHECK_EQ(dmamap_debug_live(NULL, s.p), 0);
	scene_end_clean(&s);
}

/*
 * One overlapping mapping is one mistake: one report, as dma-debug gives
 * (it tracks one line per mapping), however many lines the two share.
 */
TEST(checker_cacheline_overlap_once_per_mapping)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 1024));
	map_over(&s, s.dev, 256, DMA_FROM_DEVICE, 0, 256, DMA_FROM_DEVICE, true);
	scene_end_clean(&s);
}

/* Two device-writable mappings that share only an interior line of one of them. */
TEST(checker_cacheline_overlap_interior_line)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 1024));
	map_over(&s, s.dev, 256, DMA_FROM_DEVICE, 64, 64, DMA_BIDIRECTIONAL, true);
	scene_end_clean(&s);
}

TEST(checker_map_unaligned)
{
	static const struct {
		size_t off, len;
		enum dma_data_direction dir;
		bool report;
	} cases[] = {
		{ 0, 100, DMA_FROM_DEVICE, true },	 /* end not aligned */
		{ 8, 128, DMA_FROM_DEVICE, true },	 /* start not aligned */
		{ 8, 120, DMA_BIDIRECTIONAL, true },	 /* start not aligned */
		{ 64, 200, DMA_BIDIRECTIONAL, true },	 /* end not aligned */
		{ 8, 100, DMA_TO_DEVICE, false },	 /* the device only reads */
		{ 64, 128, DMA_FROM_DEVICE, false },	 /* aligned both ends */
		{ 0, 256, DMA_BIDIRECTIONAL, false },
	};
	struct device *coh;
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 512) && dmamap_cache_line_size(s.p) == 64);
	coh = lookup(s.p, COH);
	REQUIRE(coh);
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		dma_addr_t h;

		rec_reset();
		h = map_ok(s.dev, s.buf + cases[i].off, cases[i].len, cases[i].dir);
		REQUIRE(h != DMA_MAPPING_ERROR);
		if (cases[i].report) {
			EXPECT_REPORT_AT(DMAMAP_DBG_MAP_UNALIGNED, h);
			CHECK_EQ(rec.r[0].direction, cases[i].dir);
		} else {
			EXPECT_NO_REPORTS();
		}
		rec_reset();
		dma_unmap_single(s.dev, h, cases[i].len, cases[i].dir);
		EXPECT_NO_REPORTS();
		/* The same on the coherent device: never. */
		h = map_ok(coh, s.buf + cases[i].off, cases[i].len, cases[i].dir);
		REQUIRE(h != DMA_MAPPING_ERROR);
		dma_unmap_single(coh, h, cases[i].len, cases[i].dir);
		EXPECT_NO_REPORTS();
	}
	scene_end_clean(&s);
}
