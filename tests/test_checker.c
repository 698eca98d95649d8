/* SPDX-License-Identifier: MIT */
/*
 * The DMA-API checker (SPEC §6, include/dmamap/debug.h): one test per report
 * kind that makes exactly that mistake and asserts exactly that report (or,
 * where the mistake necessarily causes a second one, both, explained where
 * it happens); correct drivers report nothing on any board; 256K live
 * mappings; the JSON form, the filter, the print limit, the report hook,
 * mapped_at; leaks at device and platform destruction.
 *
 * Every test turns the checker on before its first mapping and calls
 * dma_mapping_error() on every handle it maps (else it would also get
 * MAP_ERR_NOT_CHECKED), and uses line-aligned buffers (DMAMAP_GFP_DMA_ALIGN)
 * for device-writable mappings on non-coherent devices (else MAP_UNALIGNED),
 * except where that is the mistake under test.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dmamap/dmamap.h>
#include "../drivers/memcpy_dma.h"
#include "helpers.h"

/* ==== 1. dma-debug's checks: unmap and free ================================ */

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

/* ==== 2. dma_mapping_error() not called ===================================== */

TEST(checker_map_err_not_checked_unmap)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	EXPECT_NO_REPORTS();
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_ERR_NOT_CHECKED);
	CHECK_EQ(rec.r[0].addr, h);
	CHECK_TRACKED(0);

	/* Checked: nothing. Checked late (after the map, before use): nothing. */
	rec_reset();
	h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

/*
 * dma_mapping_error() finds the mapping this thread made last without a
 * lookup. After the checker is turned off (which frees its entries) and on
 * again, that shortcut must not reach the old checker's memory (ASan sees
 * it if it does), and the new checker judges only what it saw mapped.
 */
TEST(checker_map_err_after_checker_restart)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf, *buf2;
	dma_addr_t a, b;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	buf2 = dbuf(p, 256);
	REQUIRE(dev && buf && buf2);
	a = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(a != DMA_MAPPING_ERROR);
	dmamap_debug_enable(p, false);
	dmamap_debug_enable(p, true);
	rec_reset();
	CHECK_EQ(dma_mapping_error(dev, a), 0);
	EXPECT_NO_REPORTS();
	/* Forgotten with the old checker: the new one never saw it mapped. */
	dma_unmap_single(dev, a, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	/* And what it does see is judged as usual. */
	rec_reset();
	b = dma_map_single(dev, buf2, 256, DMA_TO_DEVICE);
	REQUIRE(b != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, b, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_ERR_NOT_CHECKED);
	CHECK_EQ(rec.r[0].addr, b);
	rec_reset();
	b = dma_map_single(dev, buf2, 256, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, b));
	dma_unmap_single(dev, b, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, buf);
	dmamap_kfree(p, buf2);
	DESTROY_CLEAN(p);
}

TEST(checker_map_err_not_checked_sync)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_sync_single_for_cpu(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_ERR_NOT_CHECKED);
	CHECK_TRACKED(0);
	/* Reported again at unmap or not: the contract does not say. */
	stop_checking(p);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

TEST(checker_map_err_not_checked_device_access)
{
	struct dmamap_platform *p = sim_board("default");
	uint8_t *buf, got[256];
	struct device *dev;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	h = dma_map_single(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_device_read(dev, h, got, sizeof(got)), 0);
	EXPECT_KINDS(DMAMAP_DBG_MAP_ERR_NOT_CHECKED);
	CHECK_TRACKED(0);
	stop_checking(p);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

/* ==== 3. syncs ================================================================= */

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

/* ==== 4. what is mapped: stack, sg segments ================================== */

TEST(checker_map_stack)
{
	struct dmamap_platform *p = host_board();
	volatile uint8_t stack_buf[256];
	uint8_t *heap;
	struct device *dev;
	dma_addr_t h;

	REQUIRE(p);
	dev = host_device(p, "h0", NULL);
	heap = malloc(256);
	REQUIRE(dev && heap);
	memset((void *)stack_buf, 1, sizeof(stack_buf));
	/* The heap is fine. */
	h = map_ok(dev, heap, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* The stack of this thread is not (as dma-debug's check_for_stack). */
	h = dma_map_single(dev, (void *)stack_buf, sizeof(stack_buf), DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_STACK);
	CHECK(!strcmp(rec.r[0].device, "h0"));
	/* dma-debug warns; the mapping itself is made. */
	CHECK(!dma_mapping_error(dev, h));
	if (h != DMA_MAPPING_ERROR)
		dma_unmap_single(dev, h, sizeof(stack_buf), DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_MAP_STACK);
	free(heap);
	DESTROY_CLEAN(p);
}

TEST(checker_map_stack_on_sim_is_not_linear)
{
	struct dmamap_platform *p = sim_board("default");
	uint8_t stack_buf[256];
	struct device *dev;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	memset(stack_buf, 1, sizeof(stack_buf));
	/* On a board, the stack is not RAM of the board: an API error only. */
	CHECK_EQ(dma_map_single(dev, stack_buf, sizeof(stack_buf), DMA_TO_DEVICE),
		 DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_NOT_LINEAR);
	DESTROY_CLEAN(p);
}

TEST(checker_sg_segment_too_long)
{
	struct dmamap_platform *p = host_board();
	struct dmamap_device_desc small = { .name = "h-seg4k", .max_segment_size = 4096 };
	struct device *def, *seg;
	struct scatterlist sg[2];
	uint8_t *buf;
	int n;

	REQUIRE(p);
	def = host_device(p, "h-default", NULL);
	seg = new_device(p, &small);
	buf = aligned_alloc(4096, 256 * 1024);
	REQUIRE(def && seg && buf);

	/* Default limit, 64 KiB: an entry of exactly 64 KiB is fine... */
	sg_init_one(sg, buf, 65536);
	n = dma_map_sg(def, sg, 1, DMA_TO_DEVICE);
	REQUIRE(n == 1);
	dma_unmap_sg(def, sg, 1, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* ...one of 64 KiB + 1 is not (dma-debug warns, the map is made). */
	sg_init_one(sg, buf, 65537);
	n = dma_map_sg(def, sg, 1, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SG_SEGMENT_TOO_LONG);
	CHECK(!strcmp(rec.r[0].device, "h-default"));
	CHECK_EQ(n, 1);
	if (n > 0)
		dma_unmap_sg(def, sg, 1, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SG_SEGMENT_TOO_LONG);

	/* The device's own limit: the second entry is 4097 bytes. */
	rec_reset();
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 4096);
	sg_set_buf(&sg[1], buf + 8192, 4097);
	n = dma_map_sg(seg, sg, 2, DMA_BIDIRECTIONAL);
	EXPECT_KINDS(DMAMAP_DBG_SG_SEGMENT_TOO_LONG);
	CHECK(!strcmp(rec.r[0].device, "h-seg4k"));
	CHECK_EQ(n, 2);
	if (n > 0)
		dma_unmap_sg(seg, sg, 2, DMA_BIDIRECTIONAL);
	EXPECT_KINDS(DMAMAP_DBG_SG_SEGMENT_TOO_LONG);
	free(buf);
	DESTROY_CLEAN(p);
}

TEST(checker_sg_segment_boundary)
{
	struct dmamap_platform *p = host_board();
	struct dmamap_device_desc d = { .name = "h-bound", .segment_boundary_mask = 0xffff };
	struct scatterlist sg[2];
	struct device *dev;
	uint8_t *buf;
	int n;

	REQUIRE(p);
	dev = new_device(p, &d);
	buf = aligned_alloc(65536, 4 * 65536);
	REQUIRE(dev && buf);
	/* Host device addresses are the pointers: 64 KiB-aligned buf is a boundary. */
	REQUIRE(((uintptr_t)buf & 0xffff) == 0);

	/* Up to the boundary, and from it: fine. */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf + 65536 - 512, 512);
	sg_set_buf(&sg[1], buf + 65536 + 1024, 512);
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	REQUIRE(n == 2);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* Across it. */
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, 512);
	sg_set_buf(&sg[1], buf + 2 * 65536 - 256, 512);
	n = dma_map_sg(dev, sg, 2, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SG_SEGMENT_BOUNDARY);
	CHECK(!strcmp(rec.r[0].device, "h-bound"));
	CHECK_EQ(n, 2);
	if (n > 0)
		dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_SG_SEGMENT_BOUNDARY);
	free(buf);
	DESTROY_CLEAN(p);
}

/* ==== 5. cache lines: overlap and alignment ================================= */

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

/* ==== 6. leaks ================================================================== */

TEST(checker_leak_device_destroy)
{
	struct dmamap_device_desc d = {
		.name = "dma-leak", .dma_mask = DMA_BIT_MASK(32), .coherent = true,
	};
	struct dmamap_platform *p = sim_board("default");
	struct device *dev, *nc;
	uint8_t *a, *b;
	dma_addr_t h1, h2, ch;
	void *cpu;

	REQUIRE(p);
	dev = new_device(p, &d);
	nc = lookup(p, NC);
	a = dbuf(p, 256);
	b = dbuf(p, 256);
	REQUIRE(dev && nc && a && b);
	h1 = map_ok(dev, a, 256, DMA_TO_DEVICE);
	h2 = map_ok(dev, b, 256, DMA_BIDIRECTIONAL);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &ch, GFP_KERNEL);
	REQUIRE(h1 != DMA_MAPPING_ERROR && h2 != DMA_MAPPING_ERROR && cpu);
	/* Another device's live mapping is not this device's leak. */
	REQUIRE(map_ok(nc, a, 256, DMA_TO_DEVICE) != DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 3);
	CHECK_EQ(dmamap_debug_live(NULL, p), 4);
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
	CHECK_EQ(dmamap_debug_live(NULL, p), 1);
	/* dma-nc's mapping is live still, and unmaps cleanly. */
	rec_reset();
	dma_unmap_single(nc, dmamap_phys_to_dma(nc, virt_to_phys(a)), 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	CHECK_EQ(dmamap_debug_live(NULL, p), 0);
	dmamap_kfree(p, a);
	dmamap_kfree(p, b);
	DESTROY_CLEAN(p);
}

TEST(checker_leak_platform_destroy)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *nc, *coh;
	struct scatterlist sg[2];
	uint8_t *a, *b;
	dma_addr_t h;
	bool seen_nc = false, seen_coh = false;

	REQUIRE(p);
	nc = lookup(p, NC);
	coh = lookup(p, COH);
	a = dbuf(p, 256);
	b = dbuf(p, 256);
	REQUIRE(nc && coh && a && b);
	h = map_ok(nc, a, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], a, 128);
	sg_set_buf(&sg[1], b, 256);
	REQUIRE(dma_map_sg(coh, sg, 2, DMA_TO_DEVICE) == 2);
	CHECK_EQ(dmamap_debug_live(NULL, p), 3);
	cur_p = NULL; /* its counters die with it */
	rec_reset();
	dmamap_platform_destroy(p);
	/* One report per leaking device, whatever the order. */
	EXPECT_KINDS(DMAMAP_DBG_LEAK, DMAMAP_DBG_LEAK);
	for (unsigned int i = 0; i < rec.n && i < 2; i++) {
		if (!strcmp(rec.r[i].device, NC)) {
			seen_nc = true;
			CHECK_MSG(text_has(i, "count=1"), "text: '%s'", rec.r[i].text);
			CHECK_MSG(text_has_addr(i, h), "text: '%s'", rec.r[i].text);
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

/* ==== 7. what only the simulator sees ========================================== */

TEST(checker_device_access_unmapped)
{
	struct dmamap_platform *p = sim_board("default");
	uint8_t *buf, *other, got[256];
	struct device *dev;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	other = dbuf(p, 256);
	REQUIRE(dev && buf && other);
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_device_read(dev, h, got, 256), 0);
	CHECK_EQ(dmamap_device_read(dev, h + 128, got, 128), 0);
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* Use after unmap: no IOMMU here to fault, the read happens, and is reported. */
	CHECK_EQ(dmamap_device_read(dev, h, got, 256), 0);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED);
	CHECK_EQ(rec.r[0].addr, h);
	CHECK(!strcmp(rec.r[0].device, NC));
	/* Never mapped at all. */
	rec_reset();
	CHECK_EQ(dmamap_device_read(dev, dmamap_phys_to_dma(dev, virt_to_phys(other)),
				    got, 64), 0);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED);
	/* Outside the window: a fault (API error), not this kind. */
	rec_reset();
	CHECK_EQ(dmamap_device_read(dev, 128 * MiB, got, 64), -EFAULT);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_FAULT);
	dmamap_kfree(p, buf);
	dmamap_kfree(p, other);
	DESTROY_CLEAN(p);
}

TEST(checker_device_access_overrun)
{
	struct dmamap_platform *p = sim_board("default");
	uint8_t *buf, got[512];
	struct device *dev;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 512);
	REQUIRE(dev && buf);
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	/* Starts in the mapping, reads 256 bytes past its end. */
	CHECK_EQ(dmamap_device_read(dev, h, got, 512), 0);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED);
	rec_reset();
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
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
	struct dmamap_platform *p = sim_board("default");
	struct device *nc, *coh;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	nc = lookup(p, NC);
	coh = lookup(p, COH);
	buf = dbuf(p, 256);
	REQUIRE(nc && coh && buf);
	memset(buf, 0x11, 256);
	/* TO_DEVICE, seen at unmap: the write is the only damage (the device read stale data). */
	h = map_ok(nc, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	buf[100] = 0x22;
	EXPECT_NO_REPORTS();
	dma_unmap_single(nc, h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS);
	CHECK_EQ(rec.r[0].addr, h);
	CHECK(!strcmp(rec.r[0].device, NC));
	CHECK_TRACKED(0);

	/* TO_DEVICE, seen at sync_for_cpu; afterwards the CPU owns it and may write. */
	rec_reset();
	h = map_ok(nc, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	buf[10] = 0x33;
	dma_sync_single_for_cpu(nc, h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS);
	rec_reset();
	buf[20] = 0x44;
	dma_sync_single_for_device(nc, h, 256, DMA_TO_DEVICE);
	dma_unmap_single(nc, h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();

	/* A coherent device shares the CPU's view: not a problem there. */
	h = map_ok(coh, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	buf[30] = 0x55;
	dma_unmap_single(coh, h, 256, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

TEST(checker_cpu_write_while_device_owns_from_device)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	memset(buf, 0x11, 256);
	h = map_ok(dev, buf, 256, DMA_FROM_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	buf[100] = 0x22;
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	/*
	 * The invalidate at unmap discards the CPU's byte: the cache model's
	 * CPU_DATA_LOST comes with the checker's report (order not specified).
	 */
	EXPECT_KINDS_ANY_ORDER(DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS,
			       DMAMAP_DBG_CPU_DATA_LOST);
	CHECK_EQ(buf[100], 0x11);
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

/* ==== 8. the cache model's own kinds, with the checker on ======================= */

TEST(checker_cpu_data_lost)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *cpu;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	/*
	 * Non-coherent memory starts owned by the CPU. The driver writes it,
	 * never gives it to the device (no sync_for_device), then "takes it
	 * back" for a device-written result: the invalidate discards its bytes.
	 * Nothing here is wrong for the checker's tracking; the data is lost.
	 */
	cpu = dma_alloc_noncoherent(dev, PAGE_SIZE, &h, DMA_FROM_DEVICE, GFP_KERNEL);
	REQUIRE(cpu);
	/* 16 bytes of one line: the cache model reports once per line. */
	memset(cpu + 64, 0xab, 16);
	EXPECT_NO_REPORTS();
	dma_sync_single_for_cpu(dev, h, PAGE_SIZE, DMA_FROM_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_CPU_DATA_LOST);
	CHECK(!strcmp(rec.r[0].device, NC));
	rec_reset();
	dma_free_noncoherent(dev, PAGE_SIZE, cpu, h, DMA_FROM_DEVICE);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

TEST(checker_device_data_lost)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t dev_bytes[64];
	uint8_t *cpu;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev);
	memset(dev_bytes, 0x11, sizeof(dev_bytes));
	/*
	 * The device writes a line the CPU also wrote (the CPU owned the
	 * buffer, so neither is wrong for the tracking); the clean at
	 * sync_for_device writes the CPU's line back over the device's bytes.
	 */
	cpu = dma_alloc_noncoherent(dev, PAGE_SIZE, &h, DMA_BIDIRECTIONAL, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK_EQ(dmamap_device_write(dev, h, dev_bytes, sizeof(dev_bytes)), 0);
	memset(cpu, 0x22, 64);
	EXPECT_NO_REPORTS();
	dma_sync_single_for_device(dev, h, PAGE_SIZE, DMA_BIDIRECTIONAL);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_DATA_LOST);
	rec_reset();
	dma_sync_single_for_cpu(dev, h, PAGE_SIZE, DMA_BIDIRECTIONAL);
	dma_free_noncoherent(dev, PAGE_SIZE, cpu, h, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

/*
 * A FROM_DEVICE buffer ending 8 bytes into a line, and a CPU variable 16
 * bytes after it in that line, updated while the device owns the buffer
 * (the variable is the CPU's: writing it is not writing the buffer).
 */
static void shared_edge(struct dmamap_platform *p, enum dmamap_dbg_kind loss)
{
	unsigned int line = dmamap_cache_line_size(p);
	size_t len = 3 * line + 8, var = len + 16;
	uint8_t dev_bytes[256];
	struct device *dev;
	uint8_t *obj;
	dma_addr_t h;

	dev = lookup(p, NC);
	obj = dbuf(p, 4 * line);
	REQUIRE(dev && obj && len <= sizeof(dev_bytes));
	memset(obj, 0x11, 4 * line);
	pattern(dev_bytes, len, 3);
	h = map_ok(dev, obj, len, DMA_FROM_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	/* The root cause, reported at map: the buffer does not end on a line. */
	EXPECT_KINDS(DMAMAP_DBG_MAP_UNALIGNED);
	CHECK(dmamap_device_write(dev, h, dev_bytes, len) == 0);
	obj[var] = 0x77;
	dma_unmap_single(dev, h, len, DMA_FROM_DEVICE);
	/* ...and the consequence at unmap, as the cache model sees it. */
	EXPECT_KINDS(DMAMAP_DBG_MAP_UNALIGNED, loss);
	dmamap_kfree(p, obj);
}

TEST(checker_cpu_data_lost_shared_line)
{
	struct dmamap_platform *p = checked(discard_board());

	REQUIRE(p);
	/* A discarding invalidate loses the CPU's variable. */
	shared_edge(p, DMAMAP_DBG_CPU_DATA_LOST);
	DESTROY_CLEAN(p);
}

TEST(checker_device_data_lost_shared_line)
{
	struct dmamap_platform *p = sim_board("default");

	REQUIRE(p);
	/* arm64 cleans the partial line first: the device's bytes there are lost. */
	shared_edge(p, DMAMAP_DBG_DEVICE_DATA_LOST);
	DESTROY_CLEAN(p);
}

/* ==== 9. API errors, with the checker on: each still reported once =========== */

TEST(checker_api_errors_once)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *nc, *d32;
	uint8_t stack_buf[64], got[64];
	unsigned long nulls;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	nc = lookup(p, NC);
	d32 = lookup(p, D32);
	buf = dbuf(p, 256);
	REQUIRE(nc && d32 && buf);

	CHECK_EQ(dma_map_single(nc, buf, 64, (enum dma_data_direction)7), DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_INVALID_DIRECTION);
	rec_reset();
	CHECK_EQ(dma_map_single(nc, buf, 0, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_ZERO_SIZE);
	rec_reset();
	CHECK_EQ(dma_map_single(nc, NULL, 64, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_INVALID_ARGUMENT);
	/* A failed mapping's handle, or one outside the window: not NOT_MAPPED too. */
	rec_reset();
	dma_unmap_single(nc, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_UNMAP_INVALID);
	rec_reset();
	dma_unmap_single(nc, 128 * MiB + 16 * PAGE_SIZE, 64, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_UNMAP_INVALID);
	rec_reset();
	dma_sync_single_for_cpu(nc, DMA_MAPPING_ERROR, 64, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_UNMAP_INVALID);
	rec_reset();
	dma_sync_single_for_device(nc, 128 * MiB + 16 * PAGE_SIZE, 64, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_UNMAP_INVALID);
	/* Unreachable: MMIO beyond dma-32's mask (a resource is never bounced). */
	rec_reset();
	CHECK_EQ(dma_map_resource(d32, 0x100000000ULL, PAGE_SIZE, DMA_TO_DEVICE, 0),
		 DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_UNREACHABLE);
	/* The stack on a board: not linear (and not MAP_STACK). */
	rec_reset();
	CHECK_EQ(dma_map_single(nc, stack_buf, sizeof(stack_buf), DMA_TO_DEVICE),
		 DMA_MAPPING_ERROR);
	EXPECT_KINDS(DMAMAP_DBG_NOT_LINEAR);
	rec_reset();
	CHECK_EQ(dma_set_mask(d32, DMA_BIT_MASK(24)), -EIO);
	EXPECT_KINDS(DMAMAP_DBG_MASK_UNSUPPORTED);
	/* More than the board has (an injected fault there is silent by design). */
	rec_reset();
	CHECK(dma_alloc_coherent(nc, 512 * MiB, &h, GFP_KERNEL) == NULL);
	EXPECT_KINDS(DMAMAP_DBG_ALLOC_FAILED);
	rec_reset();
	dmamap_kfree(p, stack_buf);
	EXPECT_KINDS(DMAMAP_DBG_FREE_INVALID);
	rec_reset();
	CHECK_EQ(dmamap_device_read(nc, 128 * MiB, got, sizeof(got)), -EFAULT);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_FAULT);
	/* No device: the NULL platform counts it; this platform's hook sees nothing. */
	rec_reset();
	nulls = dmamap_report_count(NULL, DMAMAP_DBG_NULL_DEVICE);
	dmamap_set_log_hook(NULL, log_hook, NULL);
	CHECK_EQ(dma_map_single(NULL, buf, 64, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
	dmamap_set_log_hook(NULL, NULL, NULL);
	CHECK_EQ(dmamap_report_count(NULL, DMAMAP_DBG_NULL_DEVICE), nulls + 1);
	check_log = false;
	EXPECT_NO_REPORTS();
	check_log = true;
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

/* ==== 10. correct drivers report nothing, on every board ======================= */

/* CPU memory for the device's platform: board RAM, or the heap on the host. */
static uint8_t *cbuf(struct dmamap_platform *p, size_t size)
{
	if (dmamap_platform_is_sim(p))
		return dbuf(p, size);
	return aligned_alloc(4096, (size + 4095) & ~(size_t)4095);
}

static void cfree(struct dmamap_platform *p, void *buf)
{
	if (dmamap_platform_is_sim(p))
		dmamap_kfree(p, buf);
	else
		free(buf);
}

/* The device's side of one ownership round on [h, +len): read and/or write. */
static void device_round(struct device *dev, dma_addr_t h, size_t len,
			 enum dma_data_direction dir, const uint8_t *expect,
			 const uint8_t *write)
{
	uint8_t *got = malloc(len);

	REQUIRE(got);
	if (dir != DMA_FROM_DEVICE) {
		CHECK_EQ(dmamap_device_read(dev, h, got, len), 0);
		if (expect)
			CHECK_MSG(!memcmp(got, expect, len), "%s: device read stale bytes",
				  dev_name(dev));
	}
	if (dir != DMA_TO_DEVICE)
		CHECK_EQ(dmamap_device_write(dev, h, write, len), 0);
	free(got);
}

static void correct_single(struct dmamap_platform *p, struct device *dev,
			   enum dma_data_direction dir, bool by_page)
{
	const size_t len = 1024;
	uint8_t a[1024], b[1024], c[1024], d[1024];
	struct page *pg = NULL;
	uint8_t *buf;
	dma_addr_t h;

	pattern(a, len, 1);
	pattern(b, len, 2);
	pattern(c, len, 3);
	pattern(d, len, 4);
	if (by_page && dmamap_platform_is_sim(p)) {
		pg = dmamap_alloc_pages(p, 1, GFP_DMA);
		REQUIRE(pg);
		buf = (uint8_t *)page_address(pg) + 3 * 64 + PAGE_SIZE - 512;
	} else {
		buf = cbuf(p, len);
		REQUIRE(buf);
	}
	memcpy(buf, a, len);
	if (by_page)
		h = dma_map_page(dev, virt_to_page(buf), offset_in_page(buf), len, dir);
	else
		h = dma_map_single(dev, buf, len, dir);
	REQUIRE(!dma_mapping_error(dev, h));
	device_round(dev, h, len, dir, a, b);
	dma_sync_single_for_cpu(dev, h, len, dir);
	if (dir != DMA_TO_DEVICE)
		CHECK_MSG(!memcmp(buf, b, len), "%s: CPU sees stale bytes after sync",
			  dev_name(dev));
	if (dir != DMA_FROM_DEVICE)
		memcpy(buf, c, len); /* the CPU owns it now */
	dma_sync_single_for_device(dev, h, len, dir);
	device_round(dev, h, len, dir, c, d);
	dma_sync_single_range_for_cpu(dev, h, 128, 256, dir);
	dma_sync_single_range_for_device(dev, h, 128, 256, dir);
	if (by_page)
		dma_unmap_page(dev, h, len, dir);
	else
		dma_unmap_single(dev, h, len, dir);
	CHECK_MSG(!memcmp(buf, dir == DMA_TO_DEVICE ? c : d, len),
		  "%s: CPU sees wrong bytes after unmap", dev_name(dev));
	if (pg)
		dmamap_free_pages(p, pg, 1);
	else
		cfree(p, buf);
}

static void correct_sg(struct dmamap_platform *p, struct device *dev,
		       enum dma_data_direction dir, bool table)
{
	static const size_t lens[3] = { 512, 2048, 256 };
	struct scatterlist sgl[3], *sg, *list = sgl;
	struct sg_table sgt = { 0 };
	uint8_t *buf[3], w[2048];
	int n, i;

	pattern(w, sizeof(w), 5);
	if (table) {
		REQUIRE(sg_alloc_table(&sgt, 3, GFP_KERNEL) == 0);
		list = sgt.sgl;
	} else {
		sg_init_table(sgl, 3);
	}
	for (i = 0; i < 3; i++) {
		buf[i] = cbuf(p, lens[i]);
		REQUIRE(buf[i]);
		pattern(buf[i], lens[i], 10 + i);
	}
	for (i = 0, sg = list; i < 3; i++, sg = sg_next(sg))
		sg_set_buf(sg, buf[i], (unsigned int)lens[i]);
	if (table) {
		REQUIRE(dma_map_sgtable(dev, &sgt, dir, 0) == 0);
		n = (int)sgt.nents;
	} else {
		n = dma_map_sg(dev, list, 3, dir);
		REQUIRE(n > 0);
	}
	for_each_sg(list, sg, n, i)
		device_round(dev, sg_dma_address(sg), sg_dma_len(sg), dir, NULL, w);
	if (table) {
		dma_sync_sgtable_for_cpu(dev, &sgt, dir);
		dma_sync_sgtable_for_device(dev, &sgt, dir);
	} else {
		dma_sync_sg_for_cpu(dev, list, 3, dir);
		dma_sync_sg_for_device(dev, list, 3, dir);
	}
	for_each_sg(list, sg, n, i)
		device_round(dev, sg_dma_address(sg), sg_dma_len(sg), dir, NULL, w);
	if (table) {
		dma_unmap_sgtable(dev, &sgt, dir, 0);
		sg_free_table(&sgt);
	} else {
		dma_unmap_sg(dev, list, 3, dir);
	}
	for (i = 0; i < 3; i++)
		cfree(p, buf[i]);
}

static void correct_alloc(struct device *dev)
{
	uint8_t w[512], got[512];
	dma_addr_t h;
	uint8_t *cpu;

	pattern(w, sizeof(w), 6);
	for (int wc = 0; wc < 2; wc++) {
		cpu = wc ? dma_alloc_wc(dev, 3 * PAGE_SIZE, &h, GFP_KERNEL) :
			   dma_alloc_coherent(dev, 3 * PAGE_SIZE, &h, GFP_KERNEL);
		REQUIRE(cpu);
		memcpy(cpu + PAGE_SIZE, w, sizeof(w));
		CHECK_EQ(dmamap_device_read(dev, h + PAGE_SIZE, got, sizeof(got)), 0);
		CHECK(!memcmp(got, w, sizeof(w)));
		CHECK_EQ(dmamap_device_write(dev, h + 2 * PAGE_SIZE, w, sizeof(w)), 0);
		CHECK(!memcmp(cpu + 2 * PAGE_SIZE, w, sizeof(w)));
		if (wc)
			dma_free_wc(dev, 3 * PAGE_SIZE, cpu, h);
		else
			dma_free_coherent(dev, 3 * PAGE_SIZE, cpu, h);
	}
	for (unsigned int d = 0; d < 3; d++) {
		enum dma_data_direction dir = dirs[d];

		cpu = dma_alloc_noncoherent(dev, 2 * PAGE_SIZE, &h, dir, GFP_KERNEL);
		REQUIRE(cpu);
		memcpy(cpu, w, sizeof(w));
		dma_sync_single_for_device(dev, h, 2 * PAGE_SIZE, dir);
		device_round(dev, h, sizeof(w), dir, dir == DMA_FROM_DEVICE ? NULL : w, w);
		dma_sync_single_for_cpu(dev, h, 2 * PAGE_SIZE, dir);
		CHECK(!memcmp(cpu, w, sizeof(w)));
		dma_free_noncoherent(dev, 2 * PAGE_SIZE, cpu, h, dir);
	}
}

static void correct_mcdma(struct dmamap_platform *p, struct device *dev)
{
	static const size_t lens[] = { 64, 1024, 4096 + 3 * 64 };
	static const unsigned int seg[3] = { 128, 4096, 320 };
	struct scatterlist ssg[3], dsg[3];
	uint8_t *src[3], *dst[3];
	struct mcdma m;

	REQUIRE(mcdma_probe(&m, dev, 16) == 0);
	for (unsigned int i = 0; i < 3; i++) {
		uint8_t *s = cbuf(p, lens[i]), *d = cbuf(p, lens[i]);
		uint8_t *fill = malloc(lens[i]), *seen = malloc(lens[i]);

		REQUIRE(s && d && fill && seen);
		pattern(fill, lens[i], 20 + i);
		CHECK_EQ(mcdma_copy_buf(&m, d, s, lens[i], fill, seen, MCDMA_BUG_NONE), 0);
		CHECK_MSG(!memcmp(seen, fill, lens[i]), "%s: mcdma copy of %zu wrong",
			  dev_name(dev), lens[i]);
		free(fill);
		free(seen);
		cfree(p, s);
		cfree(p, d);
	}
	sg_init_table(ssg, 3);
	sg_init_table(dsg, 3);
	for (int i = 0; i < 3; i++) {
		src[i] = cbuf(p, seg[i]);
		dst[i] = cbuf(p, seg[i]);
		REQUIRE(src[i] && dst[i]);
		pattern(src[i], seg[i], 30 + i);
		sg_set_buf(&ssg[i], src[i], seg[i]);
		sg_set_buf(&dsg[i], dst[i], seg[i]);
	}
	CHECK_EQ(mcdma_copy_sg(&m, dsg, ssg, 3), 0);
	for (int i = 0; i < 3; i++) {
		CHECK(!memcmp(src[i], dst[i], seg[i]));
		cfree(p, src[i]);
		cfree(p, dst[i]);
	}
	mcdma_remove(&m);
}

static void correct_device(struct dmamap_platform *p, struct device *dev)
{
	for (unsigned int d = 0; d < 3; d++) {
		correct_single(p, dev, dirs[d], false);
		correct_single(p, dev, dirs[d], true);
		correct_sg(p, dev, dirs[d], false);
		correct_sg(p, dev, dirs[d], true);
	}
	correct_alloc(dev);
	/* MMIO, for the devices whose bus reaches it (not dma-nc's RAM-only window). */
	/* ...and only where MMIO_PHYS is not RAM on this board. */
	if (dmamap_platform_is_sim(p) && !dmamap_phys_to_virt(p, MMIO_PHYS) &&
	    dmamap_phys_to_dma(dev, MMIO_PHYS) != DMA_MAPPING_ERROR &&
	    dmamap_dma_capable(dev, dmamap_phys_to_dma(dev, MMIO_PHYS), PAGE_SIZE, false)) {
		dma_addr_t h = dma_map_resource(dev, MMIO_PHYS, PAGE_SIZE,
						DMA_BIDIRECTIONAL, 0);

		REQUIRE(!dma_mapping_error(dev, h));
		dma_unmap_resource(dev, h, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	}
	if (!strcmp(dmamap_device_model_name(dev), "memcpy"))
		correct_mcdma(p, dev);
	CHECK_MSG(dmamap_debug_live(dev, NULL) == 0, "%s: %lu entries still live",
		  dev_name(dev), dmamap_debug_live(dev, NULL));
}

static void correct_board(struct dmamap_platform *p)
{
	unsigned int n = dmamap_device_count(p);

	REQUIRE(n > 0);
	for (unsigned int i = 0; i < n; i++) {
		struct device *dev = dmamap_device_at(p, i);

		REQUIRE(dev);
		rec_reset();
		correct_device(p, dev);
		CHECK_MSG(rec.n == 0, "%s on %s: %u reports from a correct driver",
			  dev_name(dev), dmamap_platform_name(p), rec.n);
		EXPECT_NO_REPORTS();
	}
	CHECK_EQ(dmamap_debug_live(NULL, p), 0);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
}

TEST(checker_correct_default_board)
{
	struct dmamap_platform *p = sim_board("default");

	REQUIRE(p);
	REQUIRE(lookup(p, COH) && lookup(p, NC) && lookup(p, D32));
	correct_board(p);
	DESTROY_CLEAN(p);
}

TEST(checker_correct_armv5_board)
{
	struct dmamap_platform *p = sim_board("armv5");

	REQUIRE(p);
	REQUIRE(dmamap_cache_line_size(p) == 32);
	correct_board(p);
	DESTROY_CLEAN(p);
}

TEST(checker_correct_every_builtin_board)
{
	const char *const *names = dmamap_platform_builtin_names();

	for (unsigned int i = 0; names && names[i]; i++) {
		struct dmamap_platform *p = sim_board(names[i]);

		REQUIRE(p);
		correct_board(p);
		DESTROY_CLEAN(p);
	}
}

TEST(checker_correct_host)
{
	struct dmamap_platform *p = host_board();

	REQUIRE(p);
	REQUIRE(host_device(p, "h-mc", "memcpy"));
	REQUIRE(host_device(p, "h-plain", NULL));
	correct_board(p);
	DESTROY_CLEAN(p);
}

/*
 * On the host, map and unmap of a coherent identity device take a short
 * path through the checker. Every mistake it does not judge itself must
 * still reach the general path and be reported, exactly as on a board.
 */
TEST(checker_host_short_path_defers_every_mistake)
{
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
	/* Wrong size, direction, function. */
	rec_reset();
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	dma_unmap_single(dev, h, 128, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_SIZE);
	rec_reset();
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_DIRECTION);
	rec_reset();
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	dma_unmap_page(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_TYPE);
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

/* ==== 11. scale: 256K live mappings ============================================ */

TEST(checker_256k_live_mappings)
{
	enum { N = 262144, SLICE = 64 };
	struct dmamap_platform *p = host_board();
	struct timespec t0, t1, t2;
	struct device *dev;
	dma_addr_t *h;
	uint8_t *big;
	double map_s, unmap_s;
	unsigned long bad = 0;

	REQUIRE(p);
	dev = host_device(p, "h-scale", NULL);
	big = aligned_alloc(4096, (size_t)N * SLICE);
	h = malloc(N * sizeof(*h));
	REQUIRE(dev && big && h);
	memset(big, 0, (size_t)N * SLICE);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < N; i++) {
		uint8_t *s = big + i * SLICE;

		h[i] = dma_map_page(dev, virt_to_page(s), offset_in_page(s), SLICE,
				    DMA_TO_DEVICE);
		bad += dma_mapping_error(dev, h[i]) != 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK_EQ(bad, 0);
	CHECK_EQ(dmamap_debug_live(dev, NULL), N);
	CHECK_EQ(dmamap_debug_live(NULL, p), N);
	for (size_t i = 0; i < N; i++)
		dma_unmap_page(dev, h[i], SLICE, DMA_TO_DEVICE);
	clock_gettime(CLOCK_MONOTONIC, &t2);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	CHECK_EQ(dmamap_debug_live(NULL, p), 0);
	EXPECT_NO_REPORTS();
	map_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	unmap_s = (double)(t2.tv_sec - t1.tv_sec) + (double)(t2.tv_nsec - t1.tv_nsec) / 1e9;
	printf("#   256K live: map %.0f ns, unmap %.0f ns per mapping\n",
	       map_s * 1e9 / N, unmap_s * 1e9 / N);
	CHECK_MSG(map_s + unmap_s < 5.0, "256K maps+unmaps took %.2f s", map_s + unmap_s);
	free(h);
	free(big);
	DESTROY_CLEAN(p);
}

/* ==== 12. the report, its JSON, the hook, filter and print limit =============== */

static __attribute__((noinline)) dma_addr_t map_here(struct device *dev, void *buf,
						     size_t size,
						     enum dma_data_direction dir)
{
	dma_addr_t h = dma_map_single(dev, buf, size, dir);

	__asm__ volatile("" ::: "memory"); /* no tail call: the call stays in here */
	return h;
}

TEST(checker_mapped_at)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;
	const char *fn = (const char *)(uintptr_t)map_here;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	h = map_here(dev, buf, 256, DMA_BIDIRECTIONAL);
	REQUIRE(!dma_mapping_error(dev, h));
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_DIRECTION);
	/* The driver's call site, not a frame inside the library. */
	CHECK_MSG((const char *)rec.r[0].mapped_at > fn &&
			  (const char *)rec.r[0].mapped_at < fn + 1024,
		  "mapped_at %p is not inside map_here() at %p", rec.r[0].mapped_at,
		  (const void *)fn);
	CHECK_EQ(rec.r[0].direction, DMA_BIDIRECTIONAL);
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

TEST(checker_report_json)
{
	struct dmamap_platform *p = sim_board("default");
	char json[2048], small[16], want[128];
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;
	int n;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	h = map_ok(dev, buf, 256, DMA_TO_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, h, 128, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_SIZE);
	REQUIRE(rec.n == 1);

	n = dmamap_report_json(&rec.r[0], json, sizeof(json));
	REQUIRE(n > 0);
	CHECK_EQ((size_t)n, strlen(json));
	CHECK_MSG(json_valid_object(json), "not a JSON object: %s", json);
	snprintf(want, sizeof(want), "\"kind\":\"%s\"", kname(DMAMAP_DBG_WRONG_SIZE));
	CHECK_MSG(strstr(json, want) != NULL, "no %s in %s", want, json);
	CHECK_MSG(strstr(json, "\"device\":\"dma-nc\"") != NULL, "no device in %s", json);
	CHECK_MSG(strstr(json, "wrong-size") != NULL, "kind name: %s", json);

	/* Too small: -ENOSPC, and a NUL-terminated prefix. */
	memset(small, 'x', sizeof(small));
	CHECK_EQ(dmamap_report_json(&rec.r[0], small, sizeof(small)), -ENOSPC);
	CHECK_EQ(strlen(small), sizeof(small) - 1);
	CHECK(!strncmp(small, json, sizeof(small) - 1));
	CHECK_EQ(dmamap_report_json(&rec.r[0], json, (size_t)n), -ENOSPC);
	CHECK_EQ(dmamap_report_json(&rec.r[0], json, (size_t)n + 1), n);
	CHECK_EQ(dmamap_report_json(NULL, json, sizeof(json)), -EINVAL);
	CHECK_EQ(dmamap_report_json(&rec.r[0], NULL, 100), -EINVAL);
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

TEST(checker_report_json_escapes)
{
	struct dmamap_platform *p = host_board();
	struct dmamap_report r;
	char json[2048];
	struct device *dev;
	uint8_t *buf;

	REQUIRE(p);
	dev = host_device(p, "q\"dev\\x", NULL);
	buf = malloc(256);
	REQUIRE(dev && buf);
	dma_unmap_single(dev, (dma_addr_t)(uintptr_t)buf, 256, DMA_TO_DEVICE);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	REQUIRE(rec.n == 1);
	CHECK(!strcmp(rec.r[0].device, "q\"dev\\x"));
	REQUIRE(dmamap_report_json(&rec.r[0], json, sizeof(json)) > 0);
	CHECK_MSG(json_valid_object(json), "not a JSON object: %s", json);
	CHECK_MSG(strstr(json, "\"q\\\"dev\\\\x\"") != NULL, "device not escaped: %s", json);

	/* A hand-made report with control characters and quotes in its text. */
	memset(&r, 0, sizeof(r));
	r.kind = DMAMAP_DBG_LEAK;
	snprintf(r.device, sizeof(r.device), "tab\there");
	snprintf(r.text, sizeof(r.text), "line\nbreak \"quoted\" \\ \x01 end");
	r.direction = DMA_NONE;
	REQUIRE(dmamap_report_json(&r, json, sizeof(json)) > 0);
	CHECK_MSG(json_valid_object(json), "not a JSON object: %s", json);
	free(buf);
	DESTROY_CLEAN(p);
}

TEST(checker_kind_names)
{
	for (int a = 1; a < DMAMAP_DBG_KIND_COUNT; a++) {
		const char *na = dmamap_dbg_kind_name((enum dmamap_dbg_kind)a);

		CHECK_MSG(na && *na && strcmp(na, "unknown") && strcmp(na, "none"),
			  "kind %d has no name", a);
		if (!na)
			continue;
		for (const char *c = na; *c; c++)
			CHECK_MSG((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-',
				  "kind %d name '%s' is not lower-case-with-dashes", a, na);
		for (int b = 1; b < a; b++) {
			const char *nb = dmamap_dbg_kind_name((enum dmamap_dbg_kind)b);

			CHECK_MSG(!nb || strcmp(na, nb), "kinds %d and %d share the name '%s'",
				  a, b, na);
		}
	}
	CHECK(!strcmp(kname(DMAMAP_DBG_WRONG_SIZE), "wrong-size"));
	CHECK(!strcmp(dmamap_dbg_kind_name(DMAMAP_DBG_KIND_COUNT), "unknown"));
}

/* Unmap an address of @dev that was never mapped: one NOT_MAPPED report. */
static void not_mapped_on(struct dmamap_platform *p, struct device *dev, uint8_t *buf)
{
	(void)p;
	dma_unmap_single(dev, dmamap_phys_to_dma(dev, virt_to_phys(buf)), 64,
			 DMA_TO_DEVICE);
}

TEST(checker_filter)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *nc, *d32;
	char tag[96], prefix[600];
	uint8_t *buf;

	REQUIRE(p);
	nc = lookup(p, NC);
	d32 = lookup(p, D32);
	buf = dbuf(p, 256);
	REQUIRE(nc && d32 && buf);

	/* The line: "DMA-API: <dev>: <text> [<kind>]". */
	not_mapped_on(p, nc, buf);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	snprintf(prefix, sizeof(prefix), "DMA-API: %s: %s", NC, rec.r[0].text);
	snprintf(tag, sizeof(tag), " [%s]", kname(DMAMAP_DBG_NOT_MAPPED));
	CHECK_MSG(!strncmp(last_line(), prefix, strlen(prefix)), "line '%s', text '%s'",
		  last_line(), rec.r[0].text);
	CHECK_MSG(strlen(last_line()) > strlen(tag) &&
			  !strcmp(last_line() + strlen(last_line()) - strlen(tag), tag),
		  "line '%s' does not end in '%s'", last_line(), tag);

	CHECK_EQ(dmamap_debug_set_filter(p, NC), 0);
	check_log = false;
	rec_reset();
	not_mapped_on(p, nc, buf);
	not_mapped_on(p, d32, buf);
	not_mapped_on(p, nc, buf);
	/* Logged: dma-nc's two. Counted and hooked: all three. */
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_NOT_MAPPED);
	CHECK_EQ(logc.n - log_base, 2);
	for (unsigned int i = log_base; i < logc.n && i < LOG_MAX; i++)
		CHECK_MSG(strstr(logc.line[i], "DMA-API: dma-nc: ") == logc.line[i],
			  "filtered log has '%s'", logc.line[i]);
	CHECK(!strcmp(rec.r[1].device, D32));

	/* NULL: every device again. */
	CHECK_EQ(dmamap_debug_set_filter(p, NULL), 0);
	check_log = true;
	rec_reset();
	not_mapped_on(p, d32, buf);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED);
	CHECK_MSG(strstr(last_line(), D32) != NULL, "'%s'", last_line());

	/* Bad arguments. */
	{
		char longname[DMAMAP_NAME_MAX + 8];

		memset(longname, 'n', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = 0;
		CHECK_EQ(dmamap_debug_set_filter(p, longname), -EINVAL);
		CHECK_EQ(dmamap_debug_set_filter(NULL, NC), -EINVAL);
	}
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

TEST(checker_print_limit)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 256);
	REQUIRE(dev && buf);
	dmamap_debug_set_print_limit(p, 2);
	check_log = false;
	for (int i = 0; i < 5; i++)
		not_mapped_on(p, dev, buf);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_NOT_MAPPED,
		     DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_NOT_MAPPED);
	CHECK_EQ(logc.n - log_base, 2);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_NOT_MAPPED), 5);
	/* 0: no limit. */
	dmamap_debug_set_print_limit(p, 0);
	rec_reset();
	not_mapped_on(p, dev, buf);
	not_mapped_on(p, dev, buf);
	EXPECT_KINDS(DMAMAP_DBG_NOT_MAPPED, DMAMAP_DBG_NOT_MAPPED);
	CHECK_EQ(logc.n - log_base, 2);
	check_log = true;
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

TEST(checker_report_hook)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev;
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	buf = dbuf(p, 512);
	REQUIRE(dev && buf);
	h = map_ok(dev, buf, 512, DMA_FROM_DEVICE);
	REQUIRE(h != DMA_MAPPING_ERROR);
	dma_unmap_single(dev, h, 512, DMA_BIDIRECTIONAL);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_DIRECTION);
	CHECK_EQ(rec.r[0].kind, DMAMAP_DBG_WRONG_DIRECTION);
	CHECK(!strcmp(rec.r[0].device, NC));
	CHECK_EQ(rec.r[0].addr, h);
	CHECK_EQ(rec.r[0].size, 512);
	CHECK_EQ(rec.r[0].direction, DMA_FROM_DEVICE);
	CHECK(rec.r[0].text[0] != 0);
	CHECK(memchr(rec.r[0].text, 0, sizeof(rec.r[0].text)) != NULL);
	CHECK_TRACKED(0);
	/* Unhooked: counted and logged, not delivered. */
	dmamap_set_report_hook(p, NULL, NULL);
	rec_reset();
	not_mapped_on(p, dev, buf);
	CHECK_EQ(rec.n, 0);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_NOT_MAPPED) -
			 count_base[DMAMAP_DBG_NOT_MAPPED], 1);
	CHECK_EQ(logc.n - log_base, 1);
	dmamap_set_report_hook(p, rec_hook, NULL);
	dmamap_kfree(p, buf);
	DESTROY_CLEAN(p);
}

static int hook_fd = -1;

static void pipe_hook(void *ctx, const struct dmamap_report *r)
{
	int k = (int)r->kind;

	(void)ctx;
	if (write(hook_fd, &k, sizeof(k)) != (ssize_t)sizeof(k))
		_exit(3);
}

TEST(checker_strict_calls_hook_before_abort)
{
	int fds[2], status = 0, k = 0;
	pid_t pid;

	REQUIRE(pipe(fds) == 0);
	fflush(stdout);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct dmamap_platform *p;
		struct device *dev;
		uint8_t *buf;

		signal(SIGABRT, SIG_DFL);
		if (!freopen("/dev/null", "w", stderr)) /* the abort message */
			_exit(2);
		close(fds[0]);
		hook_fd = fds[1];
		p = sim_board("default");
		if (!p)
			_exit(2);
		dmamap_set_report_hook(p, pipe_hook, NULL);
		dmamap_set_strict(p, true);
		dev = dmamap_device_lookup(p, NC);
		buf = dbuf(p, 256);
		if (!dev || !buf)
			_exit(2);
		not_mapped_on(p, dev, buf);
		_exit(0); /* strict mode should not get here */
	}
	close(fds[1]);
	CHECK_EQ(read(fds[0], &k, sizeof(k)), (ssize_t)sizeof(k));
	close(fds[0]);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		  "child did not abort (status 0x%x)", status);
	CHECK_EQ(k, DMAMAP_DBG_NOT_MAPPED);
}

TEST(checker_live_counts)
{
	struct dmamap_platform *p = sim_board("default");
	struct scatterlist sg[3];
	struct device *dev, *nc;
	dma_addr_t hs, hp, hr, hc, hn;
	uint8_t *a, *b, *c;
	void *cc, *cn;

	REQUIRE(p);
	dev = lookup(p, COH);
	nc = lookup(p, NC);
	a = dbuf(p, 1024);
	b = dbuf(p, 256);
	c = dbuf(p, 256);
	REQUIRE(dev && nc && a && b && c);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	hs = map_ok(dev, a, 256, DMA_TO_DEVICE);
	hp = dma_map_page(dev, virt_to_page(b), offset_in_page(b), 256, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, hp) && hs != DMA_MAPPING_ERROR);
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], a + 256, 64);
	sg_set_buf(&sg[1], a + 512, 64);
	sg_set_buf(&sg[2], c, 64);
	REQUIRE(dma_map_sg(dev, sg, 3, DMA_TO_DEVICE) == 3);
	hr = dma_map_resource(dev, MMIO_PHYS, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	REQUIRE(!dma_mapping_error(dev, hr));
	cc = dma_alloc_coherent(dev, PAGE_SIZE, &hc, GFP_KERNEL);
	cn = dma_alloc_noncoherent(dev, PAGE_SIZE, &hn, DMA_TO_DEVICE, GFP_KERNEL);
	REQUIRE(cc && cn);
	/* single + page + 3 sg entries + resource + coherent + noncoherent */
	CHECK_EQ(dmamap_debug_live(dev, NULL), 8);
	CHECK_EQ(dmamap_debug_live(nc, NULL), 0);
	CHECK_EQ(dmamap_debug_live(NULL, p), 8);
	dma_unmap_single(dev, hs, 256, DMA_TO_DEVICE);
	dma_unmap_page(dev, hp, 256, DMA_FROM_DEVICE);
	dma_unmap_sg(dev, sg, 3, DMA_TO_DEVICE);
	dma_unmap_resource(dev, hr, PAGE_SIZE, DMA_BIDIRECTIONAL, 0);
	dma_free_coherent(dev, PAGE_SIZE, cc, hc);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 1);
	dma_free_noncoherent(dev, PAGE_SIZE, cn, hn, DMA_TO_DEVICE);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	CHECK_EQ(dmamap_debug_live(NULL, p), 0);
	CHECK_EQ(dmamap_debug_live(NULL, NULL), 0);
	EXPECT_NO_REPORTS();

	/* Off: nothing tracked, nothing counted; mistakes go unseen. */
	dmamap_debug_enable(p, false);
	CHECK(!dmamap_debug_enabled(p));
	rec_reset();
	check_log = false;
	hs = map_ok(dev, a, 256, DMA_TO_DEVICE);
	REQUIRE(hs != DMA_MAPPING_ERROR);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	dma_unmap_single(dev, hs, 128, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	check_log = true;
	dmamap_kfree(p, a);
	dmamap_kfree(p, b);
	dmamap_kfree(p, c);
	DESTROY_CLEAN(p);
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
	struct dmamap_platform *p = sim_board("default");
	struct scatterlist sg[2];
	struct device *dev;
	uint8_t *a, *b;
	dma_addr_t hs;

	REQUIRE(p);
	dev = lookup(p, COH);
	a = dbuf(p, 1024);
	b = dbuf(p, 256);
	REQUIRE(dev && a && b);
	hs = map_ok(dev, a, 1024, DMA_TO_DEVICE);
	REQUIRE(hs != DMA_MAPPING_ERROR);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], a, 64);
	sg_set_buf(&sg[1], b, 64);
	REQUIRE(dma_map_sg(dev, sg, 2, DMA_TO_DEVICE) == 2);
	REQUIRE(sg_dma_address(&sg[0]) == hs);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 3);
	/* A sync of the single mapping's whole range. */
	dma_sync_single_for_cpu(dev, hs, 1024, DMA_TO_DEVICE);
	dma_sync_single_for_device(dev, hs, 1024, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	/* Unmapping the single one first, then the list. */
	rec_reset();
	dma_unmap_single(dev, hs, 1024, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	rec_reset();
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	/* The other order. */
	rec_reset();
	hs = map_ok(dev, a, 1024, DMA_TO_DEVICE);
	REQUIRE(hs != DMA_MAPPING_ERROR);
	REQUIRE(dma_map_sg(dev, sg, 2, DMA_TO_DEVICE) == 2);
	dma_unmap_sg(dev, sg, 2, DMA_TO_DEVICE);
	dma_unmap_single(dev, hs, 1024, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	CHECK_EQ(dmamap_debug_live(dev, NULL), 0);
	stop_checking(p);
	dmamap_kfree(p, a);
	dmamap_kfree(p, b);
	dmamap_platform_destroy(p);
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
