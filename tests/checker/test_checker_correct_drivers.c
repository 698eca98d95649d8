/* SPDX-License-Identifier: MIT */
/*
 * Correct drivers report nothing: every kind of mapping, sync, allocation,
 * resource and the example driver, in every direction, on every device of
 * every built-in board and on the host, leave no report and no live entry.
 *
 * Every test turns the checker on before its first mapping (sim_board(),
 * host_board(), checked()) and calls dma_mapping_error() on every handle it
 * maps, else it would also get MAP_ERR_NOT_CHECKED; device-writable mappings
 * on non-coherent devices use line-aligned buffers, else MAP_UNALIGNED;
 * except where that is the mistake under test.
 */
#include "../../drivers/memcpy_dma.h"
#include "../helpers.h"

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
		struct dmamap_platform *p;

		if (board_too_big_for_host(names[i]))
			continue;
		p = sim_board(names[i]);
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
