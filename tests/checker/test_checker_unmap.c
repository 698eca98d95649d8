/* SPDX-License-Identifier: MIT */
/*
 * The checker: dma-debug's checks at unmap and free. Memory never
 * mapped, unmapped or freed twice; a different size, type (single, page,
 * sg, resource, coherent), CPU address, sg entry count or direction. One
 * test per mistake, asserting exactly the reports it causes (and, where the
 * backend rejects the same call, its report too, in that order).
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked(), checked_scene()) and calls dma_mapping_error() on
 * every handle it maps, else it would also get MAP_ERR_NOT_CHECKED;
 * device-writable mappings on non-coherent devices use line-aligned buffers,
 * else MAP_UNALIGNED; except where that is the mistake under test.
 */
#include "../helpers.h"

/* The default board, checked, and @size bytes of @name's coherent memory: *@cpu, s->h. */
static bool checked_coherent(struct scene *s, const char *name, size_t size, void **cpu)
{
	if (!checked_scene(s, name, 0))
		return false;
	*cpu = dma_alloc_coherent(s->dev, size, &s->h, GFP_KERNEL);
	return *cpu != NULL;
}

TEST(checker_not_mapped_double_unmap)
{
	struct scene s;
	struct device *coh;
	uint8_t *other;
	dma_addr_t h;

	REQUIRE(checked_scene(&s, NC, 256));
	coh = lookup(s.p, COH);
	other = dbuf(s.p, 256);
	REQUIRE(coh && other && scene_map(&s, 256, DMA_TO_DEVICE));
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* The second unmap of the same handle. */
	dma_unmap_single(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	CHECK_EQ(rec.r[0].addr, s.h);
	CHECK(!strcmp(rec.r[0].device, NC));

	/* An address inside dma-nc's window that was never mapped. */
	rec_reset();
	dma_unmap_page(s.dev, dmamap_phys_to_dma(s.dev, virt_to_phys(other)), 256,
		       DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);

	/* A resource unmapped twice. */
	rec_reset();
	h = dma_map_resource(coh, MMIO_PHYS, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	REQUIRE(!dma_mapping_error(coh, h));
	dma_unmap_resource(coh, h, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	EXPECT_NO_REPORTS();
	dma_unmap_resource(coh, h, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);

	CHECK_EQ(dmamap_debug_live(NULL, s.p), 0);
	dmamap_kfree(s.p, other);
	scene_end_clean(&s);
}

TEST(checker_not_mapped_double_free_coherent)
{
	struct scene s;
	void *cpu;

	REQUIRE(checked_coherent(&s, NC, 2 * PAGE_SIZE, &cpu));
	dma_free_coherent(s.dev, 2 * PAGE_SIZE, cpu, s.h);
	EXPECT_NO_REPORTS();
	dma_free_coherent(s.dev, 2 * PAGE_SIZE, cpu, s.h);
	/*
	 * The checker has no entry (NOT_MAPPED), and the backend, which checks
	 * the free against its own allocator, rejects it too (the API error
	 * FREE_INVALID, reported with or without the checker). Checker first.
	 */
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_FREE_INVALID);
	CHECK_EQ(rec.r[0].addr, s.h);
	scene_end_clean(&s);
}

TEST(checker_not_mapped_double_free_noncoherent)
{
	struct scene s;
	void *cpu;

	REQUIRE(checked_scene(&s, NC, 0));
	cpu = dma_alloc_noncoherent(s.dev, PAGE_SIZE, &s.h, DMA_TO_DEVICE, GFP_KERNEL);
	REQUIRE(cpu);
	dma_free_noncoherent(s.dev, PAGE_SIZE, cpu, s.h, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	dma_free_noncoherent(s.dev, PAGE_SIZE, cpu, s.h, DMA_TO_DEVICE);
	/* As for coherent memory: the checker's report, then the backend's. */
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_FREE_INVALID);
	scene_end_clean(&s);
}

TEST(checker_wrong_size_unmap)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 256) && scene_map(&s, 256, DMA_TO_DEVICE));
	dma_unmap_single(s.dev, s.h, 128, DMA_TO_DEVICE);
	EXPECT_REPORT_AT(DMAMAP_DBG_WRONG_SIZE, s.h);
	CHECK(!strcmp(rec.r[0].device, NC));
	CHECK_EQ(rec.r[0].direction, DMA_TO_DEVICE);
	CHECK_MSG(text_has(0, "256") && text_has(0, "128"),
		  "text should give both sizes: '%s'", rec.r[0].text);
	CHECK_MSG(text_has_addr(0, s.h), "text should give the address: '%s'", rec.r[0].text);
	/* The unmap still ends the mapping (as dma-debug drops the entry). */
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 0);
	scene_end_clean(&s);
}

TEST(checker_wrong_size_free_coherent)
{
	struct scene s;
	void *cpu;

	REQUIRE(checked_coherent(&s, COH, 2 * PAGE_SIZE, &cpu));
	/*
	 * Same number of pages, so the backend (which rounds to pages) frees
	 * it: only the checker, which compares the sizes given, sees it.
	 */
	dma_free_coherent(s.dev, 2 * PAGE_SIZE - 64, cpu, s.h);
	EXPECT_REPORT_AT(DMAMAP_DBG_WRONG_SIZE, s.h);
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 0);
	scene_end_clean(&s);
}

TEST(checker_wrong_type_single_as_page)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 256) && scene_map(&s, 256, DMA_TO_DEVICE));
	dma_unmap_page(s.dev, s.h, 256, DMA_TO_DEVICE);
	EXPECT_REPORT_AT(DMAMAP_DBG_WRONG_TYPE, s.h);
	CHECK_MSG(text_has(0, "single") && text_has(0, "page"),
		  "text should say 'mapped as single, unmapped as page': '%s'",
		  rec.r[0].text);
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 0);
	scene_end_clean(&s);
}

TEST(checker_wrong_type_other_pairs)
{
	struct scatterlist sg;
	struct device *coh;
	struct scene s;
	struct page *pg;
	dma_addr_t h;
	void *cpu;

	REQUIRE(checked_scene(&s, NC, 0));
	coh = lookup(s.p, COH);
	pg = dmamap_alloc_pages(s.p, 0, GFP_DMA);
	REQUIRE(coh && pg);

	/* map_page, unmap_single. */
	h = dma_map_page(s.dev, pg, 0, 512, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(s.dev, h));
	dma_unmap_single(s.dev, h, 512, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_TYPE);
	CHECK_MSG(text_has(0, "page") && text_has(0, "single"), "text: '%s'", rec.r[0].text);

	/* map_page, unmap_sg of a one-entry list describing it. */
	rec_reset();
	h = dma_map_page(s.dev, pg, 1024, 512, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(s.dev, h));
	sg_init_table(&sg, 1);
	sg_set_page(&sg, pg, 512, 1024);
	sg_dma_address(&sg) = h;
	sg_dma_len(&sg) = 512;
	dma_unmap_sg(s.dev, &sg, 1, DMA_TO_DEVICE);
	/* No sg entry was ever mapped there: a wrong type, not an nents mismatch. */
	EXPECT_KINDS(DMAMAP_DBG_WRONG_TYPE);
	CHECK_MSG(text_has(0, "page") && (text_has(0, "sg") || text_has(0, "scatter")),
		  "text: '%s'", rec.r[0].text);

	/* map_resource, unmap_single. */
	rec_reset();
	h = dma_map_resource(coh, MMIO_PHYS, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	REQUIRE(!dma_mapping_error(coh, h));
	dma_unmap_single(coh, h, PAGE_SIZE, DMA_BIDIRECTIONAL);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_TYPE);
	CHECK_MSG(text_has(0, "resource") && text_has(0, "single"), "text: '%s'",
		  rec.r[0].text);

	/* alloc_coherent, unmap_single (coherent device: no cache work either way). */
	rec_reset();
	cpu = dma_alloc_coherent(coh, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	dma_unmap_single(coh, h, PAGE_SIZE, DMA_BIDIRECTIONAL);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_TYPE);
	CHECK_MSG(text_has(0, "coherent") && text_has(0, "single"), "text: '%s'",
		  rec.r[0].text);
	CHECK_TRACKED(0);

	/* Whether the coherent entry survived that unmap is not specified. */
	stop_checking(s.p);
	dma_free_coherent(coh, PAGE_SIZE, cpu, h);
	dmamap_free_pages(s.p, pg, 0);
	scene_end(&s);
}

TEST(checker_wrong_cpu_addr)
{
	struct scene s;
	void *cpu;

	REQUIRE(checked_coherent(&s, NC, PAGE_SIZE, &cpu));
	dma_free_coherent(s.dev, PAGE_SIZE, (uint8_t *)cpu + 64, s.h);
	/*
	 * The checker compares the CPU address with the one allocated; the
	 * direct backend rejects the free too (FREE_INVALID, an API error).
	 * The checker's report comes first.
	 */
	EXPECT_KINDS(DMAMAP_DBG_WRONG_CPU_ADDR, DMAMAP_DBG_FREE_INVALID);
	CHECK_EQ(rec.r[0].addr, s.h);
	CHECK_TRACKED(0);
	/* Whether the entry survived the rejected free is not specified. */
	stop_checking(s.p);
	dma_free_coherent(s.dev, PAGE_SIZE, cpu, s.h);
	scene_end(&s);
}

TEST(checker_sg_nents)
{
	struct scatterlist sg[2];
	struct scene s;
	uint8_t *b;

	REQUIRE(checked_scene(&s, NC, 256));
	b = dbuf(s.p, 256);
	REQUIRE(b);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], s.buf, 256);
	sg_set_buf(&sg[1], b, 256);
	REQUIRE(dma_map_sg(s.dev, sg, 2, DMA_TO_DEVICE) == 2);
	EXPECT_NO_REPORTS();
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 2);
	/*
	 * One entry fewer than mapped. (Fewer, not more: unmapping the first
	 * entry reports once whether the checker reports per call or per entry,
	 * as dma-debug does; the second entry stays mapped.)
	 */
	dma_unmap_sg(s.dev, sg, 1, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SG_NENTS);
	CHECK_EQ(rec.r[0].addr, sg_dma_address(&sg[0]));
	CHECK_MSG(text_has(0, "2") && text_has(0, "1"), "text: '%s'", rec.r[0].text);
	CHECK_TRACKED(0);
	stop_checking(s.p);
	dmamap_kfree(s.p, b);
	scene_end(&s);
}

TEST(checker_wrong_direction)
{
	struct scene s;

	REQUIRE(checked_scene(&s, NC, 256) && scene_map(&s, 256, DMA_TO_DEVICE));
	/* The invalidate this does finds only clean lines: nothing else happens. */
	dma_unmap_single(s.dev, s.h, 256, DMA_FROM_DEVICE);
	EXPECT_REPORT_AT(DMAMAP_DBG_WRONG_DIRECTION, s.h);
	CHECK_EQ(rec.r[0].size, 256);
	CHECK_EQ(rec.r[0].direction, DMA_TO_DEVICE);
	CHECK_EQ(dmamap_debug_live(s.dev, NULL), 0);
	scene_end_clean(&s);
}
