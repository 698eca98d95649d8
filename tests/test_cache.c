/* SPDX-License-Identifier: MIT */
/*
 * Scenario tests of the simulated non-coherent cache (SPEC §4) through the
 * driver API: what a device and the CPU actually see after each mapping,
 * sync and unmap, with and without the maintenance the API owes them.
 *
 * Every check compares bytes the device read (dmamap_device_read), bytes
 * the CPU reads through its pointer, or the memory view probed with
 * dmamap_sim_mem_read(), against patterns the test wrote: a missing clean or
 * invalidate in the library shows up as stale bytes, never as a counter.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "../drivers/memcpy_dma.h"
#include "helpers.h"

/* ---- helpers ------------------------------------------------------------ */

/* Did the checker's last line name @kind and @dev? */
static bool logged(enum dmamap_dbg_kind kind, const char *dev)
{
	return strstr(logs.last, dmamap_dbg_kind_name(kind)) && strstr(logs.last, dev);
}

/* ---- one transfer, by any of the three mapping calls --------------------- */

enum how { BY_SINGLE, BY_PAGE, BY_SG };

static const char *how_name(enum how how)
{
	return how == BY_SINGLE ? "map_single" : how == BY_PAGE ? "map_page" : "map_sg";
}

/*
 * The CPU sees the buffer as up to three pieces; the device as up to three
 * segments (an sg list may be merged). Both are compared as one stream.
 */
struct xfer {
	enum how how;
	int npieces;
	uint8_t *cpu[3];
	size_t len[3];
	int nsegs;
	dma_addr_t dma[3];
	size_t dlen[3];
	struct scatterlist sgl[3];
	uint8_t *k0, *k2;
	struct page *pg;
	size_t total;
};

static bool xfer_setup(struct dmamap_platform *p, struct xfer *x, enum how how)
{
	memset(x, 0, sizeof(*x));
	x->how = how;
	switch (how) {
	case BY_SINGLE:
		x->k0 = dbuf(p, 1000);
		x->cpu[0] = x->k0;
		x->len[0] = 1000;
		x->npieces = 1;
		break;
	case BY_PAGE:
		/* Not line-aligned at either end, and across a page boundary. */
		x->pg = dmamap_alloc_pages(p, 1, GFP_DMA);
		if (x->pg)
			x->cpu[0] = (uint8_t *)page_address(x->pg) + 192;
		x->len[0] = 5000;
		x->npieces = 1;
		break;
	case BY_SG:
		x->k0 = dbuf(p, 100);
		x->pg = dmamap_alloc_pages(p, 1, GFP_DMA);
		x->k2 = dbuf(p, 256);
		x->cpu[0] = x->k0;
		x->len[0] = 100;
		if (x->pg)
			x->cpu[1] = (uint8_t *)page_address(x->pg) + 64;
		x->len[1] = 6000;
		x->cpu[2] = x->k2;
		x->len[2] = 256;
		x->npieces = 3;
		sg_init_table(x->sgl, 3);
		if (x->k0 && x->pg && x->k2) {
			sg_set_buf(&x->sgl[0], x->k0, 100);
			sg_set_page(&x->sgl[1], x->pg, 6000, 64);
			sg_set_buf(&x->sgl[2], x->k2, 256);
		}
		break;
	}
	for (int i = 0; i < x->npieces; i++) {
		if (!x->cpu[i])
			return false;
		x->total += x->len[i];
	}
	return true;
}

static void xfer_free(struct dmamap_platform *p, struct xfer *x)
{
	dmamap_kfree(p, x->k0);
	dmamap_kfree(p, x->k2);
	if (x->pg)
		dmamap_free_pages(p, x->pg, 1);
}

static int xfer_map(struct device *dev, struct xfer *x,
		    enum dma_data_direction dir)
{
	struct scatterlist *sg;
	int i, n;

	switch (x->how) {
	case BY_SINGLE:
		x->dma[0] = dma_map_single(dev, x->cpu[0], x->len[0], dir);
		break;
	case BY_PAGE:
		x->dma[0] = dma_map_page(dev, x->pg, 192, x->len[0], dir);
		break;
	case BY_SG:
		n = dma_map_sg(dev, x->sgl, 3, dir);
		if (n <= 0 || n > 3)
			return -1;
		x->nsegs = n;
		for_each_sg(x->sgl, sg, n, i) {
			x->dma[i] = sg_dma_address(sg);
			x->dlen[i] = sg_dma_len(sg);
		}
		return 0;
	}
	if (dma_mapping_error(dev, x->dma[0]))
		return -1;
	x->nsegs = 1;
	x->dlen[0] = x->len[0];
	return 0;
}

static void xfer_unmap(struct device *dev, struct xfer *x,
		       enum dma_data_direction dir)
{
	switch (x->how) {
	case BY_SINGLE:
		dma_unmap_single(dev, x->dma[0], x->len[0], dir);
		break;
	case BY_PAGE:
		dma_unmap_page(dev, x->dma[0], x->len[0], dir);
		break;
	case BY_SG:
		dma_unmap_sg(dev, x->sgl, 3, dir); /* nents as mapped, not the result */
		break;
	}
}

static void cpu_put(struct xfer *x, const uint8_t *src)
{
	for (int i = 0; i < x->npieces; src += x->len[i], i++)
		memcpy(x->cpu[i], src, x->len[i]);
}

static void cpu_get(struct xfer *x, uint8_t *dst)
{
	for (int i = 0; i < x->npieces; dst += x->len[i], i++)
		memcpy(dst, x->cpu[i], x->len[i]);
}

static bool mem_get(struct dmamap_platform *p, struct xfer *x, uint8_t *dst)
{
	for (int i = 0; i < x->npieces; dst += x->len[i], i++)
		if (dmamap_sim_mem_read(p, virt_to_phys(x->cpu[i]), dst, x->len[i]))
			return false;
	return true;
}

static int dev_get(struct device *dev, struct xfer *x, uint8_t *dst)
{
	for (int i = 0; i < x->nsegs; dst += x->dlen[i], i++)
		if (dmamap_device_read(dev, x->dma[i], dst, x->dlen[i]))
			return -1;
	return 0;
}

static int dev_put(struct device *dev, struct xfer *x, const uint8_t *src)
{
	for (int i = 0; i < x->nsegs; src += x->dlen[i], i++)
		if (dmamap_device_write(dev, x->dma[i], src, x->dlen[i]))
			return -1;
	return 0;
}

/* ---- 1. correct use delivers the right bytes both ways ------------------- */

/*
 * The CPU writes A, maps; the device reads (TO/BIDIR: must be A) and writes
 * B (FROM/BIDIR); after unmap the CPU must see B (or still A for TO). On a
 * non-coherent device A reaches the device only through the clean at map,
 * and B reaches the CPU only through the invalidate at unmap.
 */
static void roundtrip(struct dmamap_platform *p, const char *dname,
		      enum dma_data_direction dir, enum how how,
		      unsigned int seed)
{
	struct device *dev = dmamap_device_lookup(p, dname);
	uint8_t *a, *b, *got;
	const uint8_t *want;
	struct xfer x;

	REQUIRE(dev);
	REQUIRE(xfer_setup(p, &x, how));
	a = malloc(x.total);
	b = malloc(x.total);
	got = malloc(x.total);
	REQUIRE(a && b && got);
	pattern(a, x.total, seed);
	pattern(b, x.total, seed + 128);
	cpu_put(&x, a);
	REQUIRE(xfer_map(dev, &x, dir) == 0);
	if (dir != DMA_FROM_DEVICE) {
		CHECK_EQ(dev_get(dev, &x, got), 0);
		CHECK_MSG(!memcmp(got, a, x.total),
			  "%s %s %s: device read %zu stale bytes of %zu", dname,
			  how_name(how), dir_name(dir), ndiff(got, a, x.total),
			  x.total);
	}
	if (dir != DMA_TO_DEVICE)
		CHECK_EQ(dev_put(dev, &x, b), 0);
	xfer_unmap(dev, &x, dir);
	want = dir == DMA_TO_DEVICE ? a : b;
	cpu_get(&x, got);
	CHECK_MSG(!memcmp(got, want, x.total),
		  "%s %s %s: CPU sees %zu wrong bytes of %zu after unmap", dname,
		  how_name(how), dir_name(dir), ndiff(got, want, x.total), x.total);
	/*
	 * What a non-coherent device would read next. (A coherent device's
	 * TO_DEVICE bytes may stay in the CPU cache: it snoops them there.)
	 */
	if (!dev_is_dma_coherent(dev)) {
		CHECK(mem_get(p, &x, got));
		CHECK_MSG(!memcmp(got, want, x.total),
			  "%s %s %s: memory holds %zu wrong bytes of %zu after unmap",
			  dname, how_name(how), dir_name(dir),
			  ndiff(got, want, x.total), x.total);
	}
	free(a);
	free(b);
	free(got);
	xfer_free(p, &x);
}

static void roundtrip_all(enum how how)
{
	struct dmamap_platform *p = builtin_board("default");
	unsigned int seed = 1;

	REQUIRE(p);
	for (unsigned int d = 0; d < 2; d++)
		for (unsigned int i = 0; i < 3; i++, seed += 3)
			roundtrip(p, both_devs[d], dirs[i], how, seed);
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

TEST(cache_roundtrip_map_single)
{
	roundtrip_all(BY_SINGLE);
}

TEST(cache_roundtrip_map_page)
{
	roundtrip_all(BY_PAGE);
}

TEST(cache_roundtrip_map_sg)
{
	roundtrip_all(BY_SG);
}

/* ---- 2. the syncs: missing ones read stale data on dma-nc only ------------ */

TEST(cache_missing_sync_for_cpu)
{
	static const enum dma_data_direction rx_dirs[] = { DMA_FROM_DEVICE,
							DMA_BIDIRECTIONAL };
	struct dmamap_platform *p = builtin_board("default");
	uint8_t a[512], b[512], c[512];

	REQUIRE(p);
	pattern(a, sizeof(a), 1);
	pattern(b, sizeof(b), 2);
	pattern(c, sizeof(c), 3);
	for (unsigned int d = 0; d < 2; d++) {
		struct device *dev = dmamap_device_lookup(p, both_devs[d]);
		bool nc = !dev_is_dma_coherent(dev);

		for (unsigned int i = 0; i < 2; i++) {
			enum dma_data_direction dir = rx_dirs[i];
			uint8_t *buf = dbuf(p, 512);
			dma_addr_t h;

			REQUIRE(buf);
			memcpy(buf, a, 512);
			h = dma_map_single(dev, buf, 512, dir);
			REQUIRE(!dma_mapping_error(dev, h));
			CHECK_EQ(dmamap_device_write(dev, h, b, 512), 0);
			/* The bug: the CPU consumes the buffer without taking it back. */
			CHECK_MSG(!memcmp(buf, nc ? a : b, 512),
				  "%s %s: unsynced CPU read should see %s data (%zu bytes differ)",
				  both_devs[d], dir_name(dir), nc ? "stale" : "the device's",
				  ndiff(buf, nc ? a : b, 512));
			/* Done right: sync for the CPU, then it sees the device's bytes. */
			dma_sync_single_for_cpu(dev, h, 512, dir);
			CHECK_MSG(!memcmp(buf, b, 512), "%s %s: after sync_for_cpu %zu bytes stale",
				  both_devs[d], dir_name(dir), ndiff(buf, b, 512));
			/* And a second round of ownership, as a ring buffer does. */
			dma_sync_single_for_device(dev, h, 512, dir);
			CHECK_EQ(dmamap_device_write(dev, h, c, 512), 0);
			dma_sync_single_for_cpu(dev, h, 512, dir);
			CHECK_MSG(!memcmp(buf, c, 512), "%s %s: second round %zu bytes stale",
				  both_devs[d], dir_name(dir), ndiff(buf, c, 512));
			dma_sync_single_for_device(dev, h, 512, dir);
			dma_unmap_single(dev, h, 512, dir);
			CHECK(!memcmp(buf, c, 512));
			dmamap_kfree(p, buf);
		}
	}
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

TEST(cache_missing_sync_for_device)
{
	static const enum dma_data_direction tx_dirs[] = { DMA_TO_DEVICE,
							DMA_BIDIRECTIONAL };
	struct dmamap_platform *p = builtin_board("default");
	uint8_t a[512], b[512], c[512];

	REQUIRE(p);
	pattern(a, sizeof(a), 4);
	pattern(b, sizeof(b), 5);
	pattern(c, sizeof(c), 6);
	for (unsigned int d = 0; d < 2; d++) {
		struct device *dev = dmamap_device_lookup(p, both_devs[d]);
		bool nc = !dev_is_dma_coherent(dev);

		for (unsigned int i = 0; i < 2; i++) {
			enum dma_data_direction dir = tx_dirs[i];
			uint8_t *buf = dbuf(p, 512);
			dma_addr_t h;

			REQUIRE(buf);
			memcpy(buf, a, 512);
			h = dma_map_single(dev, buf, 512, dir);
			REQUIRE(!dma_mapping_error(dev, h));
			/* The bug: the CPU changes the buffer and does not give it back. */
			memcpy(buf, b, 512);
			CHECK_MSG(dev_reads(dev, h, nc ? a : b, 512),
				  "%s %s: without sync_for_device the device should read %s data",
				  both_devs[d], dir_name(dir), nc ? "stale" : "the CPU's");
			dma_sync_single_for_device(dev, h, 512, dir);
			CHECK_MSG(dev_reads(dev, h, b, 512),
				  "%s %s: after sync_for_device the device reads stale data",
				  both_devs[d], dir_name(dir));
			/* Done right: take it back, write, give it back. */
			dma_sync_single_for_cpu(dev, h, 512, dir);
			memcpy(buf, c, 512);
			dma_sync_single_for_device(dev, h, 512, dir);
			CHECK_MSG(dev_reads(dev, h, c, 512),
				  "%s %s: second round: device reads stale data",
				  both_devs[d], dir_name(dir));
			dma_unmap_single(dev, h, 512, dir);
			CHECK(!memcmp(buf, c, 512));
			dmamap_kfree(p, buf);
		}
	}
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

TEST(cache_sync_sg)
{
	struct dmamap_platform *p = builtin_board("default");

	REQUIRE(p);
	for (unsigned int d = 0; d < 2; d++) {
		struct device *dev = dmamap_device_lookup(p, both_devs[d]);
		bool nc = !dev_is_dma_coherent(dev);
		uint8_t *a, *b, *c, *got;
		struct xfer x;

		REQUIRE(xfer_setup(p, &x, BY_SG));
		a = malloc(x.total);
		b = malloc(x.total);
		c = malloc(x.total);
		got = malloc(x.total);
		REQUIRE(a && b && c && got);
		pattern(a, x.total, 7);
		pattern(b, x.total, 8);
		pattern(c, x.total, 9);

		/* FROM_DEVICE: the device fills all three entries. */
		cpu_put(&x, a);
		REQUIRE(xfer_map(dev, &x, DMA_FROM_DEVICE) == 0);
		CHECK_EQ(dev_put(dev, &x, b), 0);
		cpu_get(&x, got);
		CHECK_MSG(!memcmp(got, nc ? a : b, x.total),
			  "%s: sg read without sync_sg_for_cpu: %zu bytes unexpected",
			  both_devs[d], ndiff(got, nc ? a : b, x.total));
		dma_sync_sg_for_cpu(dev, x.sgl, 3, DMA_FROM_DEVICE);
		cpu_get(&x, got);
		CHECK_MSG(!memcmp(got, b, x.total), "%s: after sync_sg_for_cpu %zu bytes stale",
			  both_devs[d], ndiff(got, b, x.total));
		dma_sync_sg_for_device(dev, x.sgl, 3, DMA_FROM_DEVICE);
		CHECK_EQ(dev_put(dev, &x, c), 0);
		dma_sync_sg_for_cpu(dev, x.sgl, 3, DMA_FROM_DEVICE);
		cpu_get(&x, got);
		CHECK_MSG(!memcmp(got, c, x.total), "%s: second sg round %zu bytes stale",
			  both_devs[d], ndiff(got, c, x.total));
		xfer_unmap(dev, &x, DMA_FROM_DEVICE);

		/* TO_DEVICE: the CPU refills all three entries while mapped. */
		cpu_put(&x, a);
		REQUIRE(xfer_map(dev, &x, DMA_TO_DEVICE) == 0);
		dma_sync_sg_for_cpu(dev, x.sgl, 3, DMA_TO_DEVICE);
		cpu_put(&x, b);
		CHECK_EQ(dev_get(dev, &x, got), 0);
		CHECK_MSG(!memcmp(got, nc ? a : b, x.total),
			  "%s: sg device read without sync_sg_for_device: %zu bytes unexpected",
			  both_devs[d], ndiff(got, nc ? a : b, x.total));
		dma_sync_sg_for_device(dev, x.sgl, 3, DMA_TO_DEVICE);
		CHECK_EQ(dev_get(dev, &x, got), 0);
		CHECK_MSG(!memcmp(got, b, x.total),
			  "%s: after sync_sg_for_device the device read %zu stale bytes",
			  both_devs[d], ndiff(got, b, x.total));
		xfer_unmap(dev, &x, DMA_TO_DEVICE);

		free(a);
		free(b);
		free(c);
		free(got);
		xfer_free(p, &x);
	}
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

/* dma_sync_single_range_*: exactly the lines of the range change hands. */
TEST(cache_sync_range)
{
	struct dmamap_platform *p = builtin_board("default");
	unsigned int line;
	size_t size, off, rlen;
	uint8_t *a, *b, *want;

	REQUIRE(p);
	line = dmamap_cache_line_size(p);
	size = 8 * line;
	off = 2 * line;
	rlen = 3 * line;
	a = malloc(size);
	b = malloc(size);
	want = malloc(size);
	REQUIRE(a && b && want);
	pattern(a, size, 10);
	pattern(b, size, 11);
	for (unsigned int d = 0; d < 2; d++) {
		struct device *dev = dmamap_device_lookup(p, both_devs[d]);
		bool nc = !dev_is_dma_coherent(dev);
		uint8_t *buf = dbuf(p, size);
		dma_addr_t h;

		REQUIRE(buf);
		/* What a partial sync should leave: the range new, the rest as before. */
		memcpy(want, nc ? a : b, size);
		memcpy(want + off, b + off, rlen);

		memcpy(buf, a, size);
		h = dma_map_single(dev, buf, size, DMA_FROM_DEVICE);
		REQUIRE(!dma_mapping_error(dev, h));
		CHECK_EQ(dmamap_device_write(dev, h, b, size), 0);
		dma_sync_single_range_for_cpu(dev, h, off, rlen, DMA_FROM_DEVICE);
		CHECK_MSG(!memcmp(buf, want, size),
			  "%s: range_for_cpu [%zu,+%zu): %zu bytes unexpected", both_devs[d],
			  off, rlen, ndiff(buf, want, size));
		dma_sync_single_range_for_device(dev, h, off, rlen, DMA_FROM_DEVICE);
		dma_unmap_single(dev, h, size, DMA_FROM_DEVICE);
		CHECK(!memcmp(buf, b, size));

		memcpy(buf, a, size);
		h = dma_map_single(dev, buf, size, DMA_TO_DEVICE);
		REQUIRE(!dma_mapping_error(dev, h));
		dma_sync_single_for_cpu(dev, h, size, DMA_TO_DEVICE);
		memcpy(buf, b, size);
		dma_sync_single_range_for_device(dev, h, off, rlen, DMA_TO_DEVICE);
		CHECK_MSG(dev_reads(dev, h, want, size),
			  "%s: range_for_device [%zu,+%zu): device read unexpected bytes",
			  both_devs[d], off, rlen);
		dma_unmap_single(dev, h, size, DMA_TO_DEVICE);
		dmamap_kfree(p, buf);
	}
	CHECK_EQ(sim_losses(p), 0);
	free(a);
	free(b);
	free(want);
	dmamap_platform_destroy(p);
}

/* ---- 3. a FROM_DEVICE buffer sharing its last line with a CPU variable --- */

struct shared_result {
	uint8_t *obj;      /* buffer [0, len) then the variable at var_off */
	size_t len, var_off;
	phys_addr_t line;  /* physical address of the shared line */
	uint8_t old_var, new_var;
};

/*
 * The CPU fills the buffer with @a, maps it FROM_DEVICE, the device writes
 * @b, and the CPU updates its variable in the buffer's last line before the
 * unmap: the line is CPU-dirty and device-written at once.
 */
static bool shared_line(struct dmamap_platform *p, struct device *dev,
			const uint8_t *a, const uint8_t *b,
			struct shared_result *r)
{
	unsigned int line = dmamap_cache_line_size(p);
	dma_addr_t h;

	r->len = 3 * line + 8;
	r->var_off = r->len + 16;
	r->obj = dbuf(p, 4 * line);
	if (!r->obj)
		return false;
	r->line = virt_to_phys(r->obj) + 3 * line;
	r->old_var = 0x11;
	r->new_var = 0x22;
	memcpy(r->obj, a, r->len);
	r->obj[r->var_off] = r->old_var;
	h = dma_map_single(dev, r->obj, r->len, DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, h))
		return false;
	dmamap_sim_events_clear(p);
	dmamap_report_reset(p);
	logs.last[0] = 0;
	if (dmamap_device_write(dev, h, b, r->len))
		return false;
	r->obj[r->var_off] = r->new_var;
	dma_unmap_single(dev, h, r->len, DMA_FROM_DEVICE);
	return true;
}

TEST(cache_shared_line_discard_loses_cpu_write)
{
	struct dmamap_platform *p = discard_board();
	struct shared_result r;
	struct dmamap_sim_event ev;
	uint8_t a[256], b[256];
	unsigned int line;

	REQUIRE(p);
	dmamap_debug_enable(p, true);
	line = dmamap_cache_line_size(p);
	pattern(a, sizeof(a), 12);
	pattern(b, sizeof(b), 13);

	/* dma-nc: the invalidate at unmap discards the CPU's variable. */
	REQUIRE(shared_line(p, dmamap_device_lookup(p, NC), a, b, &r));
	CHECK_MSG(!memcmp(r.obj, b, r.len), "device bytes damaged: %zu",
		  ndiff(r.obj, b, r.len));
	CHECK_MSG(r.obj[r.var_off] == r.old_var,
		  "the CPU's write to the shared line survived a discarding invalidate (0x%x)",
		  r.obj[r.var_off]);
	CHECK(mem_is(p, r.obj, b, r.len));
	CHECK_EQ(count_events(p, DMAMAP_SIM_CPU_DATA_LOST, r.line, &ev), 1);
	CHECK_EQ(ev.first_byte, r.var_off - 3 * line);
	CHECK_EQ(ev.nbytes, 1);
	CHECK(ev.conflict);
	CHECK_MSG(!strcmp(ev.device, NC), "event names device '%s'", ev.device);
	CHECK_EQ(count_events(p, DMAMAP_SIM_DEVICE_DATA_LOST, 0, NULL), 0);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_CPU_DATA_LOST), 1);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_DEVICE_DATA_LOST), 0);
	CHECK_MSG(logged(DMAMAP_DBG_CPU_DATA_LOST, NC), "checker said: '%s'", logs.last);

	/* dma-coh: nothing to invalidate, nothing lost. */
	REQUIRE(shared_line(p, dmamap_device_lookup(p, COH), a, b, &r));
	CHECK(!memcmp(r.obj, b, r.len));
	CHECK_EQ(r.obj[r.var_off], r.new_var);
	CHECK_EQ(sim_losses(p), 0);
	CHECK_EQ(dmamap_sim_events(p, &ev, 1), 0);
	dmamap_platform_destroy(p);
}

TEST(cache_shared_line_clean_invalidate_loses_device_bytes)
{
	struct dmamap_platform *p = builtin_board("default");
	struct shared_result r;
	struct dmamap_sim_event ev;
	uint8_t a[256], b[256], want[256];
	unsigned int line;

	REQUIRE(p);
	dmamap_debug_enable(p, true);
	line = dmamap_cache_line_size(p);
	pattern(a, sizeof(a), 14);
	pattern(b, sizeof(b), 15);

	/*
	 * dma-nc on arm64: the partial edge line is cleaned before it is
	 * invalidated, so the CPU's stale copy of the device's bytes in that
	 * line goes back over them.
	 */
	REQUIRE(shared_line(p, dmamap_device_lookup(p, NC), a, b, &r));
	memcpy(want, b, 3 * line);
	memcpy(want + 3 * line, a + 3 * line, r.len - 3 * line);
	CHECK_MSG(!memcmp(r.obj, want, r.len),
		  "buffer should hold the device's bytes except the shared line's (%zu differ)",
		  ndiff(r.obj, want, r.len));
	CHECK_EQ(r.obj[r.var_off], r.new_var);
	CHECK(mem_is(p, r.obj, want, r.len));
	CHECK_EQ(count_events(p, DMAMAP_SIM_DEVICE_DATA_LOST, r.line, &ev), 1);
	CHECK_MSG(!strcmp(ev.device, NC), "event names device '%s'", ev.device);
	CHECK_EQ(ev.first_byte, 0);
	CHECK_EQ(ev.nbytes, r.len - 3 * line);
	CHECK(ev.conflict);
	CHECK_EQ(count_events(p, DMAMAP_SIM_CPU_DATA_LOST, 0, NULL), 0);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_DEVICE_DATA_LOST), 1);
	CHECK_EQ(dmamap_report_count(p, DMAMAP_DBG_CPU_DATA_LOST), 0);
	CHECK_MSG(logged(DMAMAP_DBG_DEVICE_DATA_LOST, NC), "checker said: '%s'", logs.last);

	REQUIRE(shared_line(p, dmamap_device_lookup(p, COH), a, b, &r));
	CHECK(!memcmp(r.obj, b, r.len));
	CHECK_EQ(r.obj[r.var_off], r.new_var);
	CHECK_EQ(sim_losses(p), 0);
	CHECK_EQ(dmamap_sim_events(p, &ev, 1), 0);
	dmamap_platform_destroy(p);
}

/* ---- 4. chaos: a correct driver loses nothing under any seed ------------- */

TEST(cache_chaos_correct_driver)
{
	enum { SEEDS = 1000, PER_BOARD = 250, LEN = 1000, FLEN = 704 };
	uint8_t fill[LEN], seen[LEN], old[FLEN], neu[FLEN];
	struct dmamap_platform *p = NULL;
	struct device *nc = NULL;
	struct mcdma m = { 0 };
	uint8_t *src = NULL, *dst = NULL, *buf = NULL;
	uint64_t wrong = 0, failed = 0, lost = 0, chaos = 0;
	struct dmamap_sim_cache_stats cs;

	for (unsigned int seed = 1; seed <= SEEDS + 1; seed++) {
		dma_addr_t h;

		if ((seed - 1) % PER_BOARD == 0) {
			if (p) {
				/* Chaos off: the totals of this board. */
				dmamap_sim_set_chaos(p, 0, 0);
				lost += sim_losses(p);
				if (!dmamap_sim_cache_stats(p, &cs))
					chaos += cs.chaos_evictions + cs.chaos_prefetches;
				mcdma_remove(&m);
				dmamap_platform_destroy(p);
				p = NULL;
			}
			if (seed > SEEDS)
				break;
			p = builtin_board("default");
			REQUIRE(p);
			nc = dmamap_device_lookup(p, NC);
			REQUIRE(nc && !mcdma_probe(&m, nc, 16));
			src = dbuf(p, LEN);
			dst = dbuf(p, LEN);
			buf = dbuf(p, FLEN);
			REQUIRE(src && dst && buf);
		}
		dmamap_sim_set_chaos(p, seed, 0);

		pattern(fill, LEN, seed);
		if (mcdma_copy_buf(&m, dst, src, LEN, fill, seen, MCDMA_BUG_NONE))
			failed++;
		wrong += ndiff(seen, fill, LEN) + ndiff(dst, fill, LEN);

		/* A receive: stale CPU data in the buffer, the device overwrites it. */
		pattern(old, FLEN, seed + 85);
		pattern(neu, FLEN, seed + 170);
		memcpy(buf, old, FLEN);
		h = dma_map_single(nc, buf, FLEN, DMA_FROM_DEVICE);
		if (dma_mapping_error(nc, h)) {
			failed++;
			continue;
		}
		if (dmamap_device_write(nc, h, neu, FLEN))
			failed++;
		dma_unmap_single(nc, h, FLEN, DMA_FROM_DEVICE);
		wrong += ndiff(buf, neu, FLEN);
	}
	CHECK_EQ(failed, 0);
	CHECK_EQ(wrong, 0);
	CHECK_EQ(lost, 0);
	CHECK_MSG(chaos > 0, "chaos mode evicted and prefetched nothing");
	printf("#   chaos: %llu evictions+prefetches over %d seeds\n",
	       (unsigned long long)chaos, SEEDS);
}

/* ---- 5. armv5: all the work at map, none at unmap ------------------------ */

struct rx_stats {
	uint64_t map_inv, map_clean, unmap_inv, unmap_clean;
	bool cpu_ok;
};

/* One FROM_DEVICE (or BIDIRECTIONAL) receive; what maintenance each step did. */
static struct rx_stats rx_round(struct dmamap_platform *p, struct device *dev,
				enum dma_data_direction dir, size_t size,
				unsigned int seed)
{
	struct rx_stats r = { 0 };
	struct dmamap_device_stats s0, s1, s2;
	uint8_t *buf = dbuf(p, size), *a = malloc(size), *b = malloc(size);
	dma_addr_t h;

	if (!buf || !a || !b)
		goto out;
	pattern(a, size, seed);
	pattern(b, size, seed + 128);
	/*
	 * Give the CPU's bytes to memory first, so that an invalidate at map
	 * (armv5) finds clean lines: the CPU's copy differs from what the
	 * device will write, but nothing of the CPU's is thrown away.
	 */
	memcpy(buf, a, size);
	h = dma_map_single(dev, buf, size, DMA_TO_DEVICE);
	dma_unmap_single(dev, h, size, DMA_TO_DEVICE);
	s0 = stats_of(dev);
	h = dma_map_single(dev, buf, size, dir);
	if (dma_mapping_error(dev, h))
		goto out;
	s1 = stats_of(dev);
	dmamap_device_write(dev, h, b, size);
	dma_unmap_single(dev, h, size, dir);
	s2 = stats_of(dev);
	r.map_inv = s1.cache_bytes_invalidated - s0.cache_bytes_invalidated;
	r.map_clean = s1.cache_bytes_cleaned - s0.cache_bytes_cleaned;
	r.unmap_inv = s2.cache_bytes_invalidated - s1.cache_bytes_invalidated;
	r.unmap_clean = s2.cache_bytes_cleaned - s1.cache_bytes_cleaned;
	r.cpu_ok = !memcmp(buf, b, size);
out:
	free(a);
	free(b);
	dmamap_kfree(p, buf);
	return r;
}

TEST(cache_armv5_rules)
{
	struct dmamap_platform *v5 = builtin_board("armv5"), *v8 = builtin_board("default");
	struct device *nc5, *nc8;
	struct rx_stats r;
	size_t size;

	REQUIRE(v5 && v8);
	nc5 = dmamap_device_lookup(v5, NC);
	nc8 = dmamap_device_lookup(v8, NC);
	REQUIRE(nc5 && nc8);
	CHECK_EQ(dmamap_cache_line_size(v5), 32);

	/* The correct driver works on every device of the armv5 board. */
	for (unsigned int i = 0; i < 3; i++) {
		static const char *const devs[] = { COH, NC, D32 };

		mcdma_copy_ok(v5, devs[i], 1000, 20 + i);
		mcdma_copy_ok(v5, devs[i], 4096 + 96, 30 + i);
	}

	/* armv5 FROM_DEVICE: invalidate at map, nothing at unmap. */
	size = 16 * dmamap_cache_line_size(v5) + 8;
	r = rx_round(v5, nc5, DMA_FROM_DEVICE, size, 40);
	CHECK_MSG(r.cpu_ok, "armv5: the CPU does not see the device's bytes after unmap");
	CHECK_EQ(r.map_inv, 17 * dmamap_cache_line_size(v5));
	CHECK_EQ(r.map_clean, 0);
	CHECK_EQ(r.unmap_inv, 0);
	CHECK_EQ(r.unmap_clean, 0);
	/* armv5 BIDIRECTIONAL: clean+invalidate at map, nothing at unmap. */
	r = rx_round(v5, nc5, DMA_BIDIRECTIONAL, size, 41);
	CHECK(r.cpu_ok);
	CHECK_EQ(r.map_inv, 17 * dmamap_cache_line_size(v5));
	CHECK_EQ(r.map_clean, 17 * dmamap_cache_line_size(v5));
	CHECK_EQ(r.unmap_inv, 0);

	/* arm64 (default board) FROM_DEVICE: clean at map, invalidate at unmap. */
	size = 16 * dmamap_cache_line_size(v8) + 8;
	r = rx_round(v8, nc8, DMA_FROM_DEVICE, size, 42);
	CHECK(r.cpu_ok);
	CHECK_EQ(r.map_inv, 0);
	CHECK_EQ(r.map_clean, 17 * dmamap_cache_line_size(v8));
	CHECK_EQ(r.unmap_inv, 17 * dmamap_cache_line_size(v8));

	CHECK_EQ(sim_losses(v5), 0);
	CHECK_EQ(sim_losses(v8), 0);
	dmamap_platform_destroy(v5);
	dmamap_platform_destroy(v8);
}

/* ---- 6. dma-nc's window: offsets, faults, bus master --------------------- */

TEST(cache_nc_window_offsets)
{
	struct dmamap_platform *p = builtin_board("default");
	struct device *nc;
	uint8_t a[300], b[300];
	struct page *hi;

	REQUIRE(p);
	nc = dmamap_device_lookup(p, NC);
	REQUIRE(nc);
	pattern(a, sizeof(a), 50);
	pattern(b, sizeof(b), 51);
	hi = dmamap_alloc_pages(p, 0, GFP_DMA32);
	/* A buffer low in the window (ZONE_DMA) and one high in it (ZONE_DMA32). */
	for (unsigned int i = 0; i < 2; i++) {
		uint8_t *buf = i ? (uint8_t *)page_address(hi) + 300 : dbuf(p, 300);
		phys_addr_t phys;
		dma_addr_t h;

		REQUIRE(buf);
		phys = virt_to_phys(buf);
		REQUIRE(phys >= RAM0 && phys + 300 <= RAM0 + 128 * MiB);
		memcpy(buf, a, 300);
		h = dma_map_single(nc, buf, 300, DMA_BIDIRECTIONAL);
		CHECK_EQ(h, phys - RAM0);
		CHECK_EQ(dmamap_phys_to_dma(nc, phys), phys - RAM0);
		CHECK_EQ(dmamap_dma_to_phys(nc, h), phys);
		CHECK(dev_reads(nc, h, a, 300));
		CHECK_EQ(dmamap_device_write(nc, h, b, 300), 0);
		/* The device's bytes are in RAM at P at once, the CPU's copy is stale. */
		CHECK(mem_is(p, buf, b, 300));
		CHECK(!memcmp(buf, a, 300));
		dma_unmap_single(nc, h, 300, DMA_BIDIRECTIONAL);
		CHECK(!memcmp(buf, b, 300));
		if (!i)
			dmamap_kfree(p, buf);
	}
	dmamap_free_pages(p, hi, 0);
	dmamap_platform_destroy(p);
}

TEST(cache_device_faults)
{
	static const struct dmamap_device_desc small = {
		.name = "dma-small",
		.dma_mask = DMA_BIT_MASK(32),
		.nr_ranges = 1,
		.ranges = { { .cpu_start = RAM0, .dma_start = 0, .size = 1 * MiB } },
	};
	struct dmamap_platform *p = builtin_board("default");
	struct dmamap_device_stats s0, s1;
	struct dmamap_fault f;
	struct device *nc, *sm;
	uint8_t before[64], after[64], junk[64], rd[64], sentinel[64];
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	nc = dmamap_device_lookup(p, NC);
	sm = dmamap_device_create(p, &small, NULL);
	REQUIRE(nc && sm);
	pattern(junk, sizeof(junk), 60);
	CHECK_EQ(dmamap_device_last_fault(nc, &f), -ENOENT);

	/* Straddling the end of the 128 MiB window: the in-window half stays untouched. */
	s0 = stats_of(nc);
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 128 * MiB - 32, before, 32));
	CHECK_EQ(dmamap_device_write(nc, 128 * MiB - 32, junk, 64), -EFAULT);
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 128 * MiB - 32, after, 32));
	CHECK(!memcmp(before, after, 32));
	s1 = stats_of(nc);
	CHECK_EQ(s1.faults, s0.faults + 1);
	CHECK_EQ(s1.dev_bytes_written, s0.dev_bytes_written);
	REQUIRE(dmamap_device_last_fault(nc, &f) == 0);
	CHECK_EQ(f.addr, 128 * MiB - 32);
	CHECK_EQ(f.len, 64);
	CHECK(f.write);
	CHECK(!strcmp(f.device, NC));

	/* Entirely past the window, and far past it. */
	CHECK_EQ(dmamap_device_write(nc, 128 * MiB, junk, 64), -EFAULT);
	CHECK_EQ(dmamap_device_last_fault(nc, &f), 0);
	CHECK_EQ(f.addr, 128 * MiB);
	memset(sentinel, 0xa5, sizeof(sentinel));
	memcpy(rd, sentinel, sizeof(rd));
	CHECK_EQ(dmamap_device_read(nc, 0xF0000000ULL, rd, 64), -EFAULT);
	CHECK(!memcmp(rd, sentinel, 64));
	CHECK_EQ(dmamap_device_last_fault(nc, &f), 0);
	CHECK_EQ(f.addr, 0xF0000000ULL);
	CHECK(!f.write);
	CHECK_EQ(stats_of(nc).faults, s0.faults + 3);

	/*
	 * A 1 MiB window over RAM: device address 1 MiB would be RAM at
	 * 0x80100000 if the window were not enforced. Nothing may land there.
	 */
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 1 * MiB, before, 64));
	CHECK_EQ(dmamap_device_write(sm, 1 * MiB, junk, 64), -EFAULT);
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 1 * MiB, after, 64));
	CHECK(!memcmp(before, after, 64));
	CHECK_EQ(stats_of(sm).faults, 1);
	/* Straddling its end, with RAM on both sides: not even the first half. */
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 1 * MiB - 32, before, 64));
	CHECK_EQ(dmamap_device_write(sm, 1 * MiB - 32, junk, 64), -EFAULT);
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 1 * MiB - 32, after, 64));
	CHECK(!memcmp(before, after, 64));
	CHECK_EQ(stats_of(sm).faults, 2);
	CHECK_EQ(dmamap_device_write(sm, 1 * MiB - 64, junk, 64), 0);
	REQUIRE(!dmamap_sim_mem_read(p, RAM0 + 1 * MiB - 64, after, 64));
	CHECK(!memcmp(after, junk, 64));

	/* A disabled bus master faults on a mapped, valid address. */
	buf = dbuf(p, 64);
	REQUIRE(buf);
	memset(buf, 0x3c, 64);
	h = dma_map_single(nc, buf, 64, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(nc, h));
	REQUIRE(!dmamap_sim_mem_read(p, virt_to_phys(buf), before, 64));
	s0 = stats_of(nc);
	dmamap_device_set_bus_master(nc, false);
	CHECK_EQ(dmamap_device_write(nc, h, junk, 64), -EFAULT);
	CHECK_EQ(dmamap_device_read(nc, h, rd, 64), -EFAULT);
	CHECK(mem_is(p, buf, before, 64));
	CHECK_EQ(stats_of(nc).faults, s0.faults + 2);
	CHECK_EQ(dmamap_device_last_fault(nc, &f), 0);
	CHECK_EQ(f.addr, h);
	dmamap_device_set_bus_master(nc, true);
	CHECK_EQ(dmamap_device_write(nc, h, junk, 64), 0);
	dma_unmap_single(nc, h, 64, DMA_FROM_DEVICE);
	CHECK(!memcmp(buf, junk, 64));
	CHECK(dmamap_report_count(p, DMAMAP_DBG_DEVICE_FAULT) >= 6);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

/* ---- 7. dma-32 cannot reach the bank above 4 GiB ------------------------- */

TEST(cache_dma32_high_bank)
{
	struct dmamap_platform *p = builtin_board("default");
	struct device *d32, *coh, *nc;
	struct dmamap_device_stats s0, s1;
	struct scatterlist sg;
	struct page *pg;
	bool owned = true;
	uint8_t a[256], b[256];
	phys_addr_t phys;
	dma_addr_t h;

	REQUIRE(p);
	d32 = dmamap_device_lookup(p, D32);
	coh = dmamap_device_lookup(p, COH);
	nc = dmamap_device_lookup(p, NC);
	REQUIRE(d32 && coh && nc);
	/* Pages from the high bank: ask the allocator, else take one by address. */
	pg = dmamap_alloc_pages(p, 0, __GFP_HIGHMEM);
	if (pg && page_to_phys(pg) < HIGH_BANK) {
		dmamap_free_pages(p, pg, 0);
		pg = NULL;
	}
	if (!pg) {
		pg = virt_to_page(dmamap_phys_to_virt(p, HIGH_BANK + 0x10000));
		owned = false;
	}
	REQUIRE(pg);
	phys = page_to_phys(pg);
	REQUIRE(phys >= HIGH_BANK);
	/* This test is about reach: nothing may bounce (bouncing: test_swiotlb.c). */
	REQUIRE(dmamap_swiotlb_set_mode(p, DMAMAP_SWIOTLB_NOFORCE) == 0);
	pattern(a, sizeof(a), 70);
	pattern(b, sizeof(b), 71);
	memcpy(page_address(pg), a, 256);

	s0 = stats_of(d32);
	h = dma_map_page(d32, pg, 0, 256, DMA_TO_DEVICE);
	CHECK_EQ(h, DMA_MAPPING_ERROR);
	CHECK(dma_mapping_error(d32, h) != 0);
	h = dma_map_single(d32, (uint8_t *)page_address(pg) + 512, 256, DMA_FROM_DEVICE);
	CHECK_EQ(h, DMA_MAPPING_ERROR);
	sg_init_one(&sg, page_address(pg), 256);
	CHECK_EQ(dma_map_sg(d32, &sg, 1, DMA_BIDIRECTIONAL), 0);
	s1 = stats_of(d32);
	CHECK_EQ(s1.errors_by_kind[DMAMAP_ERRK_UNREACHABLE],
		 s0.errors_by_kind[DMAMAP_ERRK_UNREACHABLE] + 3);
	CHECK_EQ(s1.maps, s0.maps);
	CHECK(dmamap_report_count(p, DMAMAP_DBG_UNREACHABLE) >= 3);
	/* dma-nc's window does not cover it either. */
	CHECK_EQ(dma_map_page(nc, pg, 0, 256, DMA_TO_DEVICE), DMA_MAPPING_ERROR);

	/* The 40-bit coherent device reaches it, identity-mapped. */
	h = dma_map_page(coh, pg, 0, 256, DMA_BIDIRECTIONAL);
	CHECK_EQ(h, phys);
	if (!dma_mapping_error(coh, h)) {
		CHECK(dev_reads(coh, h, a, 256));
		CHECK_EQ(dmamap_device_write(coh, h, b, 256), 0);
		dma_unmap_page(coh, h, 256, DMA_BIDIRECTIONAL);
		CHECK(!memcmp(page_address(pg), b, 256));
	}
	if (owned)
		dmamap_free_pages(p, pg, 0);
	dmamap_platform_destroy(p);
}

/* ---- 8. the example driver, correct and with each bug -------------------- */

TEST(cache_mcdma_correct_all_devices)
{
	static const char *const devs[] = { COH, NC, D32 };
	static const size_t lens[] = { 64, 1000, 4096, 10000 };
	struct dmamap_platform *p = builtin_board("default");
	unsigned int seed = 80;

	REQUIRE(p);
	for (unsigned int d = 0; d < 3; d++)
		for (unsigned int i = 0; i < 4; i++)
			mcdma_copy_ok(p, devs[d], lens[i], seed++);
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

TEST(cache_mcdma_sg_all_devices)
{
	static const char *const devs[] = { COH, NC, D32 };
	static const unsigned int seg[3] = { 100, 5000, 300 };
	struct dmamap_platform *p = builtin_board("default");

	REQUIRE(p);
	for (unsigned int d = 0; d < 3; d++) {
		struct device *dev = dmamap_device_lookup(p, devs[d]);
		struct scatterlist ssg[3], dsg[3];
		uint8_t *src[3], *dst[3], want[3][5000];
		struct mcdma m;

		REQUIRE(dev && mcdma_probe(&m, dev, 16) == 0);
		sg_init_table(ssg, 3);
		sg_init_table(dsg, 3);
		for (int i = 0; i < 3; i++) {
			src[i] = dbuf(p, seg[i]);
			dst[i] = dbuf(p, seg[i]);
			REQUIRE(src[i] && dst[i]);
			pattern(want[i], seg[i], 90 + d * 3 + i);
			pattern(dst[i], seg[i], 190 + d * 3 + i);
			memcpy(src[i], want[i], seg[i]);
			sg_set_buf(&ssg[i], src[i], seg[i]);
			sg_set_buf(&dsg[i], dst[i], seg[i]);
		}
		CHECK_EQ(mcdma_copy_sg(&m, dsg, ssg, 3), 0);
		for (int i = 0; i < 3; i++) {
			CHECK_MSG(!memcmp(dst[i], want[i], seg[i]),
				  "%s sg entry %d: %zu bytes wrong", devs[d], i,
				  ndiff(dst[i], want[i], seg[i]));
			dmamap_kfree(p, src[i]);
			dmamap_kfree(p, dst[i]);
		}
		mcdma_remove(&m);
	}
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

enum { BUG_LEN = 1000 };	/* not a multiple of the line: dst[len] shares a line */

struct bug_run {
	uint8_t *src, *dst;
	uint8_t fill[BUG_LEN], seen[BUG_LEN], old_src[BUG_LEN], old_dst[BUG_LEN];
	uint8_t field;		/* dst[BUG_LEN] before the run */
	int ret;
};

/* One mcdma_copy_buf() with @bug, from buffers whose old contents are known. */
static bool bug_run(struct dmamap_platform *p, const char *dname,
		    enum mcdma_bug bug, struct bug_run *r)
{
	struct device *dev = dmamap_device_lookup(p, dname);
	struct mcdma m;

	memset(r, 0, sizeof(*r));
	r->src = dbuf(p, BUG_LEN);
	r->dst = dbuf(p, BUG_LEN + 1);
	if (!dev || !r->src || !r->dst || mcdma_probe(&m, dev, 16))
		return false;
	pattern(r->fill, BUG_LEN, 100 + bug);
	pattern(r->old_src, BUG_LEN, 110 + bug);
	pattern(r->old_dst, BUG_LEN, 120 + bug);
	memcpy(r->src, r->old_src, BUG_LEN);
	memcpy(r->dst, r->old_dst, BUG_LEN);
	r->field = 0x42;
	r->dst[BUG_LEN] = r->field;
	dmamap_sim_events_clear(p);
	dmamap_report_reset(p);
	r->ret = mcdma_copy_buf(&m, r->dst, r->src, BUG_LEN, r->fill, r->seen, bug);
	mcdma_remove(&m);
	return true;
}

TEST(cache_mcdma_bug_missing_sync)
{
	struct dmamap_platform *p = builtin_board("default");
	struct bug_run r;

	REQUIRE(p);
	/*
	 * dma-nc: the device copies the source as it was cleaned at map (the
	 * old bytes), and the CPU reads the destination as it was at map.
	 */
	REQUIRE(bug_run(p, NC, MCDMA_BUG_MISSING_SYNC, &r));
	CHECK_EQ(r.ret, 0);
	CHECK_MSG(!memcmp(r.seen, r.old_dst, BUG_LEN),
		  "nc: unsynced read should see the stale destination (%zu differ)",
		  ndiff(r.seen, r.old_dst, BUG_LEN));
	CHECK_MSG(!memcmp(r.dst, r.old_src, BUG_LEN),
		  "nc: the device should have copied the stale source (%zu differ)",
		  ndiff(r.dst, r.old_src, BUG_LEN));
	CHECK(ndiff(r.seen, r.fill, BUG_LEN) == BUG_LEN);

	REQUIRE(bug_run(p, COH, MCDMA_BUG_MISSING_SYNC, &r));
	CHECK_EQ(r.ret, 0);
	CHECK(!memcmp(r.seen, r.fill, BUG_LEN));
	CHECK(!memcmp(r.dst, r.fill, BUG_LEN));
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

TEST(cache_mcdma_bug_wrong_direction)
{
	struct dmamap_platform *p = builtin_board("default");
	struct bug_run r;

	REQUIRE(p);
	/* dma-nc: a TO_DEVICE unmap does not invalidate: the CPU keeps its old copy. */
	REQUIRE(bug_run(p, NC, MCDMA_BUG_WRONG_DIRECTION, &r));
	CHECK_EQ(r.ret, 0);
	CHECK_MSG(!memcmp(r.seen, r.old_dst, BUG_LEN),
		  "nc: CPU should see its stale copy (%zu differ)",
		  ndiff(r.seen, r.old_dst, BUG_LEN));
	CHECK_MSG(mem_is(p, r.dst, r.fill, BUG_LEN),
		  "nc: the device's bytes should be in memory, unseen by the CPU");

	REQUIRE(bug_run(p, COH, MCDMA_BUG_WRONG_DIRECTION, &r));
	CHECK_EQ(r.ret, 0);
	CHECK(!memcmp(r.seen, r.fill, BUG_LEN));
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

TEST(cache_mcdma_bug_cpu_write_while_mapped)
{
	struct dmamap_platform *p = builtin_board("default");
	struct dmamap_sim_event ev;
	uint8_t want[BUG_LEN];
	struct bug_run r;

	REQUIRE(p);
	/*
	 * The driver stamps the start of the (device-owned) destination and
	 * means the stamp to be part of the result. On dma-nc the invalidate
	 * at unmap discards that CPU-dirty line.
	 */
	REQUIRE(bug_run(p, NC, MCDMA_BUG_CPU_WRITE_WHILE_MAPPED, &r));
	CHECK_EQ(r.ret, 0);
	memcpy(want, r.fill, BUG_LEN);
	memset(want, MCDMA_STAMP, MCDMA_STAMP_LEN);
	CHECK_MSG(ndiff(r.seen, want, BUG_LEN) == MCDMA_STAMP_LEN,
		  "nc: the stamp should be lost, the copy intact (%zu differ)",
		  ndiff(r.seen, want, BUG_LEN));
	CHECK(!memcmp(r.seen, r.fill, BUG_LEN));
	CHECK_EQ(count_events(p, DMAMAP_SIM_CPU_DATA_LOST, virt_to_phys(r.dst), &ev), 1);
	CHECK_EQ(ev.first_byte, 0);
	CHECK_EQ(ev.nbytes, MCDMA_STAMP_LEN);
	CHECK(ev.conflict);
	CHECK_MSG(!strcmp(ev.device, NC), "event names device '%s'", ev.device);
	CHECK(dmamap_report_count(p, DMAMAP_DBG_CPU_DATA_LOST) >= 1);

	REQUIRE(bug_run(p, COH, MCDMA_BUG_CPU_WRITE_WHILE_MAPPED, &r));
	CHECK_EQ(r.ret, 0);
	memcpy(want, r.fill, BUG_LEN);
	memset(want, MCDMA_STAMP, MCDMA_STAMP_LEN);
	CHECK(!memcmp(r.seen, want, BUG_LEN));
	CHECK_EQ(sim_losses(p), 0);
	dmamap_platform_destroy(p);
}

static void check_shared_bug(struct dmamap_platform *p, bool discard)
{
	unsigned int line = dmamap_cache_line_size(p);
	size_t edge = BUG_LEN / line * line; /* first byte of the shared line */
	struct dmamap_sim_event ev;
	uint8_t want[BUG_LEN];
	struct bug_run r;

	REQUIRE(BUG_LEN % line);
	REQUIRE(bug_run(p, NC, MCDMA_BUG_SHARED_CACHELINE, &r));
	CHECK_EQ(r.ret, 0);
	if (discard) {
		/* The device's bytes survive; the driver's field update is lost. */
		CHECK(!memcmp(r.seen, r.fill, BUG_LEN));
		CHECK_EQ(r.dst[BUG_LEN], r.field);
		CHECK_EQ(count_events(p, DMAMAP_SIM_CPU_DATA_LOST, virt_to_phys(r.dst) + edge,
				&ev), 1);
		CHECK_EQ(ev.first_byte, BUG_LEN - edge);
		CHECK_EQ(ev.nbytes, 1);
		CHECK(dmamap_report_count(p, DMAMAP_DBG_CPU_DATA_LOST) >= 1);
	} else {
		/* The field update survives; the device's bytes in that line do not. */
		memcpy(want, r.fill, edge);
		memcpy(want + edge, r.old_dst + edge, BUG_LEN - edge);
		CHECK_MSG(!memcmp(r.seen, want, BUG_LEN), "nc: %zu bytes unexpected",
			  ndiff(r.seen, want, BUG_LEN));
		CHECK_EQ(r.dst[BUG_LEN], (uint8_t)(r.field ^ 0xff));
		CHECK_EQ(count_events(p, DMAMAP_SIM_DEVICE_DATA_LOST,
				virt_to_phys(r.dst) + edge, &ev), 1);
		CHECK_EQ(ev.first_byte, 0);
		CHECK_EQ(ev.nbytes, BUG_LEN - edge);
		CHECK(dmamap_report_count(p, DMAMAP_DBG_DEVICE_DATA_LOST) >= 1);
	}
	CHECK(ev.conflict);
	CHECK_MSG(!strcmp(ev.device, NC), "event names device '%s'", ev.device);

	REQUIRE(bug_run(p, COH, MCDMA_BUG_SHARED_CACHELINE, &r));
	CHECK_EQ(r.ret, 0);
	CHECK(!memcmp(r.seen, r.fill, BUG_LEN));
	CHECK_EQ(r.dst[BUG_LEN], (uint8_t)(r.field ^ 0xff));
	CHECK_EQ(sim_losses(p), 0);
}

TEST(cache_mcdma_bug_shared_cacheline)
{
	struct dmamap_platform *p = builtin_board("default");

	REQUIRE(p);
	check_shared_bug(p, false);
	dmamap_platform_destroy(p);
	p = discard_board();
	REQUIRE(p);
	check_shared_bug(p, true);
	dmamap_platform_destroy(p);
}

/* ---- 9. DMA_ATTR_SKIP_CPU_SYNC ------------------------------------------- */

TEST(cache_skip_cpu_sync)
{
	struct dmamap_platform *p = builtin_board("default");
	struct dmamap_device_stats s0, s1;
	struct device *nc, *coh;
	uint8_t a[512], b[512], c[512];
	uint8_t *buf;
	dma_addr_t h;

	REQUIRE(p);
	nc = dmamap_device_lookup(p, NC);
	coh = dmamap_device_lookup(p, COH);
	buf = dbuf(p, 512);
	REQUIRE(nc && coh && buf);
	pattern(a, 512, 130);
	pattern(b, 512, 131);
	pattern(c, 512, 132);

	/* Memory holds A; the CPU's cache holds B. */
	memcpy(buf, a, 512);
	h = dma_map_single(nc, buf, 512, DMA_TO_DEVICE);
	dma_unmap_single(nc, h, 512, DMA_TO_DEVICE);
	memcpy(buf, b, 512);

	s0 = stats_of(nc);
	h = dma_map_single_attrs(nc, buf, 512, DMA_TO_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	REQUIRE(!dma_mapping_error(nc, h));
	s1 = stats_of(nc);
	CHECK_EQ(s1.cache_bytes_cleaned, s0.cache_bytes_cleaned);
	CHECK_EQ(s1.maps, s0.maps + 1);
	CHECK_MSG(dev_reads(nc, h, a, 512), "skipped clean: device should read stale A");
	/* The driver that skips does the sync itself. */
	dma_sync_single_for_device(nc, h, 512, DMA_TO_DEVICE);
	CHECK(stats_of(nc).cache_bytes_cleaned > s1.cache_bytes_cleaned);
	CHECK(dev_reads(nc, h, b, 512));
	dma_unmap_single_attrs(nc, h, 512, DMA_TO_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);

	/* FROM_DEVICE with a skipped invalidate at unmap: the CPU keeps B. */
	h = dma_map_single(nc, buf, 512, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(nc, h));
	CHECK_EQ(dmamap_device_write(nc, h, c, 512), 0);
	s0 = stats_of(nc);
	dma_unmap_single_attrs(nc, h, 512, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	s1 = stats_of(nc);
	CHECK_EQ(s1.cache_bytes_invalidated, s0.cache_bytes_invalidated);
	CHECK_EQ(s1.unmaps, s0.unmaps + 1);
	CHECK_MSG(!memcmp(buf, b, 512), "skipped invalidate: CPU should see stale B");
	CHECK(mem_is(p, buf, c, 512));

	/* A coherent device needs no maintenance: skipping changes nothing. */
	memcpy(buf, a, 512);
	h = dma_map_single_attrs(coh, buf, 512, DMA_TO_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	REQUIRE(!dma_mapping_error(coh, h));
	CHECK(dev_reads(coh, h, a, 512));
	dma_unmap_single_attrs(coh, h, 512, DMA_TO_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	CHECK_EQ(sim_losses(p), 0);
	dmamap_kfree(p, buf);
	dmamap_platform_destroy(p);
}

/* ---- 10. coherent allocations need no sync, on either kind of device ----- */

TEST(cache_alloc_coherent_no_sync)
{
	struct dmamap_platform *p = builtin_board("default");
	uint8_t a[8192], b[300];

	REQUIRE(p);
	pattern(a, sizeof(a), 140);
	pattern(b, sizeof(b), 141);
	for (unsigned int d = 0; d < 2; d++) {
		for (unsigned int wc = 0; wc < 2; wc++) {
			struct device *dev = dmamap_device_lookup(p, both_devs[d]);
			struct dmamap_device_stats s0, s1;
			uint8_t zero[8192] = { 0 };
			dma_addr_t h;
			uint8_t *cpu;

			REQUIRE(dev);
			s0 = stats_of(dev);
			cpu = wc ? dma_alloc_wc(dev, 8192, &h, GFP_KERNEL) :
				   dma_alloc_coherent(dev, 8192, &h, GFP_KERNEL);
			REQUIRE(cpu);
			CHECK(!memcmp(cpu, zero, 8192));
			CHECK(dev_reads(dev, h, zero, 8192));
			/* CPU writes: the device sees them with no sync at all. */
			memcpy(cpu, a, 8192);
			CHECK_MSG(dev_reads(dev, h, a, 8192),
				  "%s%s: device does not see the CPU's writes",
				  both_devs[d], wc ? " (wc)" : "");
			/* Device writes: the CPU sees them at once. */
			CHECK_EQ(dmamap_device_write(dev, h + 100, b, 300), 0);
			CHECK_MSG(!memcmp(cpu + 100, b, 300),
				  "%s%s: CPU does not see the device's writes",
				  both_devs[d], wc ? " (wc)" : "");
			CHECK(!memcmp(cpu, a, 100));
			CHECK(!memcmp(cpu + 400, a + 400, 8192 - 400));
			/* Back and forth once more, still without maintenance. */
			cpu[5000] ^= 0xff;
			CHECK(dev_reads(dev, h + 5000, &cpu[5000], 1));
			s1 = stats_of(dev);
			CHECK_EQ(s1.cache_bytes_cleaned, s0.cache_bytes_cleaned);
			CHECK_EQ(s1.cache_bytes_invalidated, s0.cache_bytes_invalidated);
			if (wc)
				dma_free_wc(dev, 8192, cpu, h);
			else
				dma_free_coherent(dev, 8192, cpu, h);
		}
	}
	CHECK_EQ(sim_losses(p), 0);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	dmamap_platform_destroy(p);
}
