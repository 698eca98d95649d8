/* SPDX-License-Identifier: MIT */
/*
 * The checker: dma-debug's checks at unmap and free. Memory never
 * mapped, unmapped or freed twice; a different size, type (single, page,
 * sg, resource, coherent), CPU address, sg entry count or direction. One
 * test per mistake, asserting exactly the reports it causes (and, where the
 * backend rejects the same call, its report too, in that order).
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked()) and calls dma_mapping_error() on every handle it
 * maps, else it would also get MAP_ERR_NOT_CHECKED; device-writable mappings
 * on non-coherent devices use line-aligned buffers, else MAP_UNALIGNED;
 * except where that is the mistake under test.
 */
#include "../helpers.h"

TEST(checker_not_mapped_double_unmap)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *nc, *coh;
	uint8_t *buf, *other;
	dma_addr_t h;

	REQUIRE(p);
	nc = lookup(p, NC);
	coh = lookup(p, COH);
	buf = dbuf(p, 256);
	other = dbuf(p, 256);
	REQUIRE(nc && coh && buf && other);

	h = map_ok(nc, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_unmap_single(nc, h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* The second unmap of the same handle. */
	dma_unmap_single(nc, h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	CHECK_EQ(rec.r[0].addr, h);
	CHECK(!strcmp(rec.r[0].device, NC));

	/* An address inside dma-nc's window that was never mapped. */
	rec_reset();
	dma_unmap_page(nc, dmamap_phys_to_dma(nc, virt_to_phys(other)), 256,
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

	CHECK_EQ(dmamap_debug_live(NULL, p), 0);
	dmamap_kfree(p, buf);
	dmamap_kfree(p, other);
	DESTROY_CLEAN(p);
}

TEST(checker_not_mapped_double_free_coherent)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	dma_addr_t h;
	void *cpu;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, h);
	EXPECT_NO_REPORTS();
	dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, h);
	/*
	 * The checker has no entry (NOT_MAPPED), and the backend, which checks
	 * the free against its own allocator, rejects it too (the API error
	 * FREE_INVALID, reported with or without the checker). Checker first.
	 */
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_FREE_INVALID);
	CHECK_EQ(rec.r[0].addr, h);
	DESTROY_CLEAN(p);
}

TEST(checker_not_mapped_double_free_noncoherent)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	dma_addr_t h;
	void *cpu;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	cpu = dma_alloc_noncoherent(dev, PAGE_SIZE, &h, DMA_TO_DEVICE, GFP_KERNEL);
	REQUIRE(cpu);
	dma_free_noncoherent(dev, PAGE_SIZE, cpu, h, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	dma_free_noncoherent(dev, PAGE_SIZE, cpu, h, DMA_TO_DEVICE);
	/* As for coherent memory: the checker's report, then the backend's. */
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_FREE_INVALID);
	DESTROY_CLEAN(p);
}

TEST(checker_wrong_size_unmap)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, h, 128, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_SIZE);
	CHECK(!strcmp(rec.r[0].device, NC));
	CHECK_EQ(rec.r[0].addr, h);
	CHECK_EQ(rec.r[0].direction, DMA_TO_DEVICE);
	CHECK_MSG(text_has(0, "256") && text_has(0, "128"),
		  "text should give both sizes: '%s'", rec.r[0].text);
	CHECK_MSG(text_has_addr(0, h), "text should give the address: '%s'", rec.r[0].text);
	CHECK_TRACKED(0);
	/* The unmap still ends the mapping (as dma-debug drops the entry). */
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

TEST(checker_wrong_size_free_coherent)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	dma_addr_t h;
	void *cpu;

	REQUIRE(p);
	dev = lookup(p, COH);
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	/*
	 * Same number of pages, so the backend (which rounds to pages) frees
	 * it: only the checker, which compares the sizes given, sees it.
	 */
	dma_free_coherent(dev, 2 * PAGE_SIZE - 64, cpu, h);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_SIZE);
	CHECK_EQ(rec.r[0].addr, h);
	CHECK_TRACKED(0);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	DESTROY_CLEAN(p);
}

TEST(checker_wrong_type_single_as_page)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_unmap_page(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_TYPE);
	CHECK_MSG(text_has(0, "single") && text_has(0, "page"),
		  "text should say 'mapped as single, unmapped as page': '%s'",
		  rec.r[0].text);
	CHECK_EQ(rec.r[0].addr, h);
	CHECK_TRACKED(0);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

TEST(checker_wrong_type_other_pairs)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *nc, *coh;
	struct scatterlist sg;
	struct page *pg;
	dma_addr_t h;
	void *cpu;

	REQUIRE(p);
	nc = lookup(p, NC);
	coh = lookup(p, COH);
	pg = dmamap_alloc_pages(p, 0, GFP_DMA);
	REQUIRE(nc && coh && pg);

	/* map_page, unmap_single. */
	h = dma_map_page(nc, pg, 0, 512, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(nc, h));
	dma_unmap_single(nc, h, 512, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_TYPE);
	CHECK_MSG(text_has(0, "page") && text_has(0, "single"), "text: '%s'", rec.r[0].text);

	/* map_page, unmap_sg of a one-entry list describing it. */
	rec_reset();
	h = dma_map_page(nc, pg, 1024, 512, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(nc, h));
	sg_init_table(&sg, 1);
	sg_set_page(&sg, pg, 512, 1024);
	sg_dma_address(&sg) = h;
	sg_dma_len(&sg) = 512;
	dma_unmap_sg(nc, &sg, 1, DMA_TO_DEVICE);
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
	stop_checking(p);
	dma_free_coherent(coh, PAGE_SIZE, cpu, h);
	dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

TEST(checker_wrong_cpu_addr)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	dma_addr_t h;
	uint8_t *cpu;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	dma_free_coherent(dev, PAGE_SIZE, cpu + 64, h);
	/*
	 * The checker compares the CPU address with the one allocated; the
	 * direct backend rejects the free too (FREE_INVALID, an API error).
	 * The checker's report comes first.
	 */
	EXPECT_KINDS(DMAMAP_DBG_WRONG_CPU_ADDR, DMAMAP_DBG_FREE_INVALID);
	CHECK_EQ(rec.r[0].addr, h);
	CHECK_TRACKED(0);
	/* Whether the entry survived the rejected free is not specified. */
	stop_checking(p);
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);
	dmamap_platform_destroy(p);
}

TEST(checker_sg_nents)
{
	struct dmamap_platform *p = sim_board("default");
	struct scatterlist sg[2];
	struct device *dev;
	uint8_t *a, *b;
	int n;

	REQUIRE(p);
	dev = lookup(p, NC);
	a = dbuf(p, 256);
	b = dbuf(p, 256);
	REQUIRE(dev && a && b);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], a, 256);
	sg_set_buf(&sg[1], b, 256);
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	REQUIRE(n == 2);
	EXPECT_NO_REPORTS();
	CHECK_EQ(dmamap_debug_live(dev, NULL), 2);
	/*
	 * One entry fewer than mapped. (Fewer, not more: unmapping the first
	 * entry reports once whether the checker reports per call or per entry,
	 * as dma-debug does; the second entry stays mapped.)
	 */
	dma_unmap_sg(dev, sg, 1, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SG_NENTS);
	CHECK_EQ(rec.r[0].addr, sg_dma_address(&sg[0]));
	CHECK_MSG(text_has(0, "2") && text_has(0, "1"), "text: '%s'", rec.r[0].text);
	CHECK_TRACKED(0);
	stop_checking(p);
	dmamap_kfree(p, a);
	dmamap_kfree(p, b);
	dmamap_platform_destroy(p);
}

TEST(checker_wrong_direction)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	/* The invalidate this does finds only clean lines: nothing else happens. */
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_DIRECTION);
	CHECK_EQ(rec.r[0].addr, h);
	CHECK_EQ(rec.r[0].size, 256);
	CHECK_EQ(rec.r[0].direction, DMA_TO_DEVICE);
	CHECK_TRACKED(0);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}
