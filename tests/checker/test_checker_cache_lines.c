/* SPDX-License-Identifier: MIT */
/*
 * The checker on cache lines: live device-writable mappings that share a
 * line (once per mapping, wherever the shared line is), and device-writable
 * mappings that do not start or end on a line.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked()) and calls dma_mapping_error() on every handle it
 * maps, else it would also get MAP_ERR_NOT_CHECKED; device-writable mappings
 * on non-coherent devices use line-aligned buffers, else MAP_UNALIGNED;
 * except where that is the mistake under test.
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
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *a, *b;
	dma_addr_t ha, hb;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev && dmamap_cache_line_size(p) == 64);
	REQUIRE(shared_pair(p, &a, &b));
	/*
	 * Each 32-byte object covers half a line, so each FROM_DEVICE mapping
	 * is also MAP_UNALIGNED; the second, while the first is live, shares
	 * its line: CACHELINE_OVERLAP as well (order not specified).
	 */
	ha = map_ok(dev, a, 32, DMA_FROM_DEVICE);
	REQUIRE(ha != DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_MAP_UNALIGNED);
	rec_reset();
	hb = map_ok(dev, b, 32, DMA_FROM_DEVICE);
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
	dma_unmap_single(dev, hb, 32, DMA_FROM_DEVICE);
	dma_unmap_single(dev, ha, 32, DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, a);
	dmamap_kfree(p, b);
	DESTROY_CLEAN(p);
}

TEST(checker_cacheline_overlap_aligned)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *nc, *coh;
	dma_addr_t h1, h2;
	uint8_t *buf;

	REQUIRE(p);
	nc = lookup(p, NC);
	coh = lookup(p, COH);
	buf = dbuf(p, 256);
	REQUIRE(nc && coh && buf);
	/* Two TO_DEVICE mappings of one line: the device only reads, fine. */
	h1 = map_ok(nc, buf, 256, DMA_TO_DEVICE);
	h2 = map_ok(nc, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h1 != DMA_MAPPING_ERROR && h2 != DMA_MAPPING_ERROR);
	dma_unmap_single(nc, h2, 256, DMA_TO_DEVICE);
	dma_unmap_single(nc, h1, 256, DMA_TO_DEVICE);
	/* A coherent device has no cache lines to share. */
	h1 = map_ok(coh, buf, 256, DMA_FROM_DEVICE);
	h2 = map_ok(coh, buf, 256, DMA_FROM_DEVICE);
	REQUIRE(h1 != DMA_MAPPING_ERROR && h2 != DMA_MAPPING_ERROR);
	dma_unmap_single(coh, h2, 256, DMA_FROM_DEVICE);
	dma_unmap_single(coh, h1, 256, DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	/* One line-aligned line mapped twice FROM_DEVICE: the overlap alone. */
	h1 = map_ok(nc, buf, 64, DMA_FROM_DEVICE);
	REQUIRE(h1 != DMA_MAPPING_ERROR);
	EXPECT_NO_REPORTS();
	h2 = map_ok(nc, buf, 64, DMA_FROM_DEVICE);
	REQUIRE(h2 != DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_CACHELINE_OVERLAP);
	CHECK_TRACKED(0);
	rec_reset();
	dma_unmap_single(nc, h2, 64, DMA_FROM_DEVICE);
	dma_unmap_single(nc, h1, 64, DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	CHECK_EQ(dmamap_debug_live(NULL, p), 0);
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

/*
 * One overlapping mapping is one mistake: one report, as dma-debug gives
 * (it tracks one line per mapping), however many lines the two share.
 */
TEST(checker_cacheline_overlap_once_per_mapping)
{
	struct dmamap_platform *p = sim_board("default");
	dma_addr_t h1, h2;
	struct device *nc;
	uint8_t *buf;

	REQUIRE(p);
	nc = lookup(p, NC);
	buf = dbuf(p, 1024);
	REQUIRE(nc && buf);
	h1 = map_ok(nc, buf, 256, DMA_FROM_DEVICE);
	REQUIRE(h1 != DMA_MAPPING_ERROR);
	h2 = map_ok(nc, buf, 256, DMA_FROM_DEVICE);
	REQUIRE(h2 != DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_CACHELINE_OVERLAP);
	rec_reset();
	dma_unmap_single(nc, h2, 256, DMA_FROM_DEVICE);
	dma_unmap_single(nc, h1, 256, DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

/* Two device-writable mappings that share only an interior line of one of them. */
TEST(checker_cacheline_overlap_interior_line)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *nc;
	dma_addr_t h1, h2;
	uint8_t *buf;

	REQUIRE(p);
	nc = lookup(p, NC);
	buf = dbuf(p, 1024);
	REQUIRE(nc && buf);
	h1 = map_ok(nc, buf, 256, DMA_FROM_DEVICE);
	REQUIRE(h1 != DMA_MAPPING_ERROR);
	h2 = map_ok(nc, buf + 64, 64, DMA_BIDIRECTIONAL);
	REQUIRE(h2 != DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_CACHELINE_OVERLAP);
	rec_reset();
	dma_unmap_single(nc, h2, 64, DMA_BIDIRECTIONAL);
	dma_unmap_single(nc, h1, 256, DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
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
	struct dmamap_platform *p = sim_board("default");
	struct device *nc, *coh;
	uint8_t *buf;

	REQUIRE(p);
	nc = lookup(p, NC);
	coh = lookup(p, COH);
	buf = dbuf(p, 512);
	REQUIRE(nc && coh && buf && dmamap_cache_line_size(p) == 64);
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		dma_addr_t h;

		rec_reset();
		h = map_ok(nc, buf + cases[i].off, cases[i].len, cases[i].dir);
		REQUIRE(h != DMA_MAPPING_ERROR);
		if (cases[i].report) {
			EXPECT_KINDS(DMAMAP_DBG_MAP_UNALIGNED);
			CHECK_EQ(rec.r[0].addr, h);
			CHECK_EQ(rec.r[0].direction, cases[i].dir);
			CHECK_TRACKED(0);
		} else {
			EXPECT_NO_REPORTS();
		}
		rec_reset();
		dma_unmap_single(nc, h, cases[i].len, cases[i].dir);
		EXPECT_NO_REPORTS();
		/* The same on the coherent device: never. */
		h = map_ok(coh, buf + cases[i].off, cases[i].len, cases[i].dir);
		REQUIRE(h != DMA_MAPPING_ERROR);
		dma_unmap_single(coh, h, cases[i].len, cases[i].dir);
		EXPECT_NO_REPORTS();
	}
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}
