/* SPDX-License-Identifier: MIT */
/*
 * Ownership mode (dmamap_debug_set_ownership): the CPU's access to the
 * whole pages of a buffer a non-coherent device owns is taken away, so a
 * CPU read or write before the buffer is handed back traps, is reported
 * against the mapping, and goes on. A driver that syncs correctly moves
 * every byte and hears nothing.
 */
#include "../../drivers/memcpy_dma.h"
#include "../helpers.h"

/*
 * The unit the CPU's access is taken in: a page of the host (mprotect's),
 * which on a 16K or 64K-page host holds several simulated ones.
 */
#define GP host_page()

static struct dmamap_platform *owned_board(void)
{
	struct dmamap_platform *p = sim_board("default");

	if (p && dmamap_debug_set_ownership(p, true)) {
		dmamap_platform_destroy(p);
		return NULL;
	}
	return p;
}

/* An ownership-mode board, dma-nc, and 2^order whole pages of it mapped @dir. */
struct owned {
	struct dmamap_platform *p;
	struct device *dev;
	struct page *pg;
	volatile uint8_t *buf;
	size_t len;
	unsigned int order;
	dma_addr_t h;
};

static bool owned_map(struct owned *o, unsigned int order, enum dma_data_direction dir,
		      int fill)
{
	o->p = owned_board();
	o->dev = o->p ? lookup(o->p, NC) : NULL;
	o->pg = o->dev ? dmamap_alloc_pages(o->p, order + host_page_order(), 0) : NULL;
	if (!o->pg)
		return false;
	o->order = order;
	o->len = GP << order;
	o->buf = page_address(o->pg);
	if (fill >= 0)
		memset((void *)o->buf, fill, o->len);
	o->h = dma_map_single(o->dev, (void *)o->buf, o->len, dir);
	return !dma_mapping_error(o->dev, o->h);
}

static void owned_end(struct owned *o)
{
	stop_checking(o->p);
	dmamap_free_pages(o->p, o->pg, o->order + host_page_order());
	dmamap_platform_destroy(o->p);
}

/* Where the trap cannot tell a read from a write (32-bit ARM: no decoder yet), the report says "touched". */
#if defined(__arm__)
#define READ_WORD "touched"
#define WRITE_WORD "touched"
#else
#define READ_WORD "read"
#define WRITE_WORD "wrote"
#endif

TEST(ownership_mode_traps_cpu_reads_and_writes)
{
	uint8_t dev_data[2 * GP];
	struct owned o;
	uint8_t seen;

	REQUIRE(owned_map(&o, 1, DMA_FROM_DEVICE, 0x11)); /* two whole pages */
	rec_reset();
	/* A read while the device owns it: trapped, said, and it goes on. */
	seen = o.buf[100];
	EXPECT_KINDS(DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS);
	CHECK_EQ(seen, 0x11);
	CHECK_EQ(rec.r[0].addr, o.h);
	CHECK(rec.r[0].mapped_at != NULL); /* where it was mapped */
	CHECK_MSG(text_has(0, READ_WORD) && text_has(0, "+100"), "%s", rec.r[0].text);
	/* A write to the other page. */
	rec_reset();
	o.buf[GP + 5] = 0x22;
	EXPECT_KINDS(DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS);
	CHECK_MSG(text_has(0, WRITE_WORD), "%s", rec.r[0].text);
	/* Once said, the page is the CPU's again: no second trap for the same page. */
	rec_reset();
	seen = o.buf[200];
	EXPECT_NO_REPORTS();
	/* The device writes, the unmap gives the buffer back: the CPU sees the device's bytes. */
	fill_pattern(dev_data, sizeof(dev_data), 70);
	CHECK_EQ(dmamap_device_write(o.dev, o.h, dev_data, sizeof(dev_data)), 0);
	rec_reset();
	dma_unmap_single(o.dev, o.h, o.len, DMA_FROM_DEVICE);
	CHECK_MEM((const void *)o.buf, dev_data, sizeof(dev_data));
	/* The trapped write was lost to the device's data: said once, at the trap. */
	for (unsigned int i = 0; i < rec.n; i++)
		CHECK(rec.r[i].kind != DMAMAP_DBG_CPU_WRITE_WHILE_DEVICE_OWNS);
	owned_end(&o);
}

TEST(ownership_mode_follows_the_syncs)
{
	struct owned o;

	REQUIRE(owned_map(&o, 0, DMA_BIDIRECTIONAL, -1));
	rec_reset();
	/* Handed to the CPU: its access is back. */
	dma_sync_single_for_cpu(o.dev, o.h, GP, DMA_BIDIRECTIONAL);
	o.buf[0] = 1;
	(void)o.buf[1];
	/* Handed back: taken again. */
	dma_sync_single_for_device(o.dev, o.h, GP, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
	o.buf[2] = 2;
	EXPECT_KINDS(DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS);
	/* The unmap's invalidate then drops that write, as hardware would: said too. */
	rec_reset();
	dma_unmap_single(o.dev, o.h, GP, DMA_BIDIRECTIONAL);
	EXPECT_KINDS(DMAMAP_DBG_CPU_DATA_LOST);
	/* Unmapped: the CPU's, no trap. */
	rec_reset();
	(void)o.buf[3];
	EXPECT_NO_REPORTS();
	owned_end(&o);
}

TEST(ownership_mode_correct_driver_moves_every_byte_and_hears_nothing)
{
	struct dmamap_platform *p = owned_board();
	struct device *dev;
	struct mcdma m = { 0 };
	uint8_t *src, *dst, fill[3 * GP], seen[3 * GP];

	REQUIRE(p);
	dev = lookup(p, NC);
	REQUIRE(dev && !mcdma_probe(&m, dev, 16));
	src = page_address(dmamap_alloc_pages(p, 2 + host_page_order(), 0));
	dst = page_address(dmamap_alloc_pages(p, 2 + host_page_order(), 0));
	for (int round = 0; round < 4; round++) {
		pattern(fill, sizeof(fill), (unsigned int)round + 80);
		CHECK_EQ(mcdma_copy_buf(&m, dst, src, sizeof(fill), fill, seen, MCDMA_BUG_NONE), 0);
		CHECK_MEM(seen, fill, sizeof(fill));
		CHECK_MEM(dst, fill, sizeof(fill));
	}
	EXPECT_NO_REPORTS();
	/* The classic bug: reading the result before the unmap. */
	CHECK_EQ(mcdma_copy_buf(&m, dst, src, sizeof(fill), fill, seen, MCDMA_BUG_MISSING_SYNC), 0);
	CHECK(dmamap_report_count(p, DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS) > 0);
	stop_checking(p);
	mcdma_remove(&m);
	dmamap_platform_destroy(p);
}

TEST(ownership_mode_guards_whole_pages_only)
{
	struct dmamap_platform *p = owned_board();
	struct device *dev;
	volatile uint8_t *small;
	dma_addr_t h;

	REQUIRE(p);
	dev = lookup(p, NC);
	small = dbuf(p, 256); /* inside a page shared with other objects */
	REQUIRE(dev && small);
	h = dma_map_single(dev, (void *)small, 256, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	rec_reset();
	(void)small[10]; /* not guarded: page granularity, documented */
	EXPECT_NO_REPORTS();
	dma_unmap_single(dev, h, 256, DMA_TO_DEVICE);
	dmamap_platform_destroy(p);
}

TEST(ownership_mode_is_for_simulated_boards)
{
	struct dmamap_platform *hp = host_platform();

	REQUIRE(hp);
	CHECK_EQ(dmamap_debug_set_ownership(hp, true), -EOPNOTSUPP);
	CHECK_EQ(dmamap_debug_set_ownership(NULL, true), -EINVAL);
	dmamap_platform_destroy(hp);
}

TEST(ownership_mode_stops_guarding_a_partially_synced_buffer)
{
	struct owned o;

	REQUIRE(owned_map(&o, 1, DMA_BIDIRECTIONAL, -1));
	dma_sync_single_for_cpu(o.dev, o.h, 2 * GP, DMA_BIDIRECTIONAL);
	o.buf[0] = 1;
	o.buf[GP] = 2;
	/* The first page back to the device; the second is still the CPU's to write. */
	dma_sync_single_range_for_device(o.dev, o.h, 0, GP, DMA_BIDIRECTIONAL);
	rec_reset();
	o.buf[GP + 1] = 3;
	EXPECT_NO_REPORTS();
	dma_sync_single_range_for_device(o.dev, o.h, GP, GP, DMA_BIDIRECTIONAL);
	dma_unmap_single(o.dev, o.h, 2 * GP, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
	owned_end(&o);
}

/* One buffer mapped for two devices at once (legal): the library's own cache work never traps. */
TEST(ownership_mode_one_buffer_two_devices)
{
	struct dmamap_platform *p = owned_board();
	struct device *nc, *d32;
	struct page *pg;
	uint8_t *buf, want[GP];
	dma_addr_t h1, h2;

	REQUIRE(p);
	nc = lookup(p, NC);
	d32 = lookup(p, "dma-32");
	pg = dmamap_alloc_pages(p, host_page_order(), 0);
	REQUIRE(nc && d32 && pg);
	buf = page_address(pg);
	pattern(want, sizeof(want), 95);
	memcpy(buf, want, sizeof(want));
	rec_reset();
	h1 = dma_map_single(nc, buf, GP, DMA_TO_DEVICE);
	h2 = dma_map_single(d32, buf, GP, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(nc, h1) && !dma_mapping_error(d32, h2));
	CHECK(dev_reads(nc, h1, want, sizeof(want)));
	CHECK(dev_reads(d32, h2, want, sizeof(want)));
	dma_unmap_single(nc, h1, GP, DMA_TO_DEVICE);
	dma_unmap_single(d32, h2, GP, DMA_TO_DEVICE);
	EXPECT_NO_REPORTS();
	CHECK_MEM(buf, want, sizeof(want));
	stop_checking(p);
	dmamap_free_pages(p, pg, host_page_order());
	dmamap_platform_destroy(p);
}

/*
 * One buffer, a non-coherent device that owns it (its pages guarded) and a
 * 24-bit one that cannot reach it and bounces: the bounce copy and the
 * checker's look at the original are the library's reads, not the CPU's
 * mistake, and trap nothing.
 */
TEST(ownership_mode_bouncing_a_buffer_another_device_owns)
{
	struct dmamap_platform *p = owned_board();
	struct device *nc, *d24;
	struct page *pg;
	uint8_t *buf, want[GP];
	dma_addr_t h1, h2;

	REQUIRE(p);
	nc = lookup(p, NC);
	d24 = lookup(p, "dma-24");
	pg = dmamap_alloc_pages(p, host_page_order(), 0);
	REQUIRE(nc && d24 && pg);
	buf = page_address(pg);
	REQUIRE(virt_to_phys(buf) >= 0x81000000ULL); /* past the 24-bit window: it bounces */
	pattern(want, sizeof(want), 96);
	memcpy(buf, want, sizeof(want));
	rec_reset();
	h1 = dma_map_single(nc, buf, GP, DMA_BIDIRECTIONAL);
	h2 = dma_map_single(d24, buf, GP, DMA_TO_DEVICE);
	REQUIRE(!dma_mapping_error(nc, h1) && !dma_mapping_error(d24, h2));
	CHECK(dev_reads(d24, h2, want, sizeof(want)));
	dma_sync_single_for_device(d24, h2, GP, DMA_TO_DEVICE);
	CHECK(dev_reads(d24, h2, want, sizeof(want)));
	dma_unmap_single(d24, h2, GP, DMA_TO_DEVICE);
	dma_unmap_single(nc, h1, GP, DMA_BIDIRECTIONAL);
	EXPECT_NO_REPORTS();
	stop_checking(p);
	dmamap_free_pages(p, pg, host_page_order());
	dmamap_platform_destroy(p);
}

/*
 * A trap looks only where a guarded mapping may be, and forgets a place
 * once nothing there is guarded: a buffer guarded again by a later
 * sync_for_device must still be found, and its report name its mapping.
 */
TEST(ownership_mode_finds_buffers_guarded_again_after_a_trap_elsewhere)
{
	enum { N = 8 };
	struct dmamap_platform *p = owned_board();
	struct device *nc;
	struct page *pg;
	uint8_t *buf;
	dma_addr_t h[N];

	REQUIRE(p);
	nc = lookup(p, NC);
	pg = dmamap_alloc_pages(p, 3 + host_page_order(), 0);
	REQUIRE(nc && pg);
	buf = page_address(pg);
	for (int i = 0; i < N; i++) {
		h[i] = dma_map_single(nc, buf + i * GP, GP, DMA_BIDIRECTIONAL);
		REQUIRE(!dma_mapping_error(nc, h[i]));
		dma_sync_single_for_cpu(nc, h[i], GP, DMA_BIDIRECTIONAL);
	}
	/* The last one the device's again, and touched: the others' places are looked at and forgotten. */
	dma_sync_single_for_device(nc, h[N - 1], GP, DMA_BIDIRECTIONAL);
	rec_reset();
	((volatile uint8_t *)buf)[(N - 1) * GP] = 1;
	EXPECT_KINDS(DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS);
	CHECK_EQ(rec.r[0].addr, h[N - 1]);
	for (int i = 0; i < N - 1; i++) {
		dma_sync_single_for_device(nc, h[i], GP, DMA_BIDIRECTIONAL);
		rec_reset();
		((volatile uint8_t *)buf)[i * GP + 1] = 2;
		EXPECT_KINDS(DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS);
		CHECK_EQ(rec.r[0].addr, h[i]);
		CHECK_MSG(text_has(0, "+1 into the buffer"), "%s", rec.r[0].text);
	}
	for (int i = 0; i < N; i++) {
		dma_sync_single_for_cpu(nc, h[i], GP, DMA_BIDIRECTIONAL);
		dma_unmap_single(nc, h[i], GP, DMA_BIDIRECTIONAL);
	}
	stop_checking(p);
	dmamap_free_pages(p, pg, 3 + host_page_order());
	dmamap_platform_destroy(p);
}

/* DMAMAP_OWNERSHIP=1 turns the mode on for every board made while it is set. */
TEST(ownership_mode_from_the_environment)
{
	struct dmamap_platform *p;
	struct device *dev;
	struct page *pg;
	volatile uint8_t *buf;
	uint8_t seen;
	dma_addr_t h;

	setenv("DMAMAP_OWNERSHIP", "1", 1);
	p = sim_board("default");
	unsetenv("DMAMAP_OWNERSHIP");
	REQUIRE(p && (dev = lookup(p, NC)) && (pg = dmamap_alloc_pages(p, host_page_order(), 0)));
	buf = page_address(pg);
	buf[0] = 0x33;
	h = dma_map_single(dev, (void *)buf, GP, DMA_FROM_DEVICE);
	REQUIRE(!dma_mapping_error(dev, h));
	rec_reset();
	seen = buf[8];
	(void)seen;
	EXPECT_KINDS(DMAMAP_DBG_CPU_ACCESS_WHILE_DEVICE_OWNS);
	dma_unmap_single(dev, h, GP, DMA_FROM_DEVICE);
	stop_checking(p);
	dmamap_free_pages(p, pg, host_page_order());
	dmamap_platform_destroy(p);
}
