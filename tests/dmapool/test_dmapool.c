/* SPDX-License-Identifier: MIT */
/*
 * DMA pools (<dmamap/dmapool.h>): blocks of the pool's size, alignment and
 * boundary, in coherent memory the device and the CPU both see without a
 * sync; zeroed on request; freed blocks come back; bad frees, double
 * frees and busy pools reported; with the checker on, a device touching a
 * freed block is seen. Bytes are compared on both sides.
 */
#include <limits.h>
#include <dmamap/dmapool.h>
#include "../helpers.h"

#define NBLK 200

static bool overlaps(dma_addr_t a, dma_addr_t b, size_t n)
{
	return a < b + n && b < a + n;
}

static void blocks_on(struct dmamap_platform *p, struct device *dev)
{
	struct dma_pool *pool = dma_pool_create("desc", dev, 40, 64, 256);
	static uint8_t *cpu[NBLK];
	static dma_addr_t h[NBLK];
	struct dmamap_dma_pool_stats s;
	uint8_t want[40], seen[40];
	uint64_t allocations;

	REQUIRE(pool);
	for (int i = 0; i < NBLK; i++) {
		cpu[i] = dma_pool_alloc(pool, GFP_KERNEL, &h[i]);
		REQUIRE(cpu[i]);
		CHECK_EQ(h[i] % 64, 0);
		CHECK_EQ((uintptr_t)cpu[i] % 64, 0);
		/* 40 bytes rounded to 64: no block crosses a 256-byte line. */
		CHECK_EQ(h[i] / 256, (h[i] + 64 - 1) / 256);
		for (int j = 0; j < i; j++)
			if (overlaps(h[i], h[j], 64) || cpu[i] == cpu[j]) {
				CHECK_MSG(0, "blocks %d and %d overlap", i, j);
				break;
			}
	}
	/* Coherent memory: what the CPU writes the device reads, and back, without a sync. */
	for (int i = 0; i < NBLK; i += 37) {
		pattern(want, sizeof(want), (unsigned int)i);
		memcpy(cpu[i], want, sizeof(want));
		CHECK_EQ(dmamap_device_read(dev, h[i], seen, sizeof(seen)), 0);
		CHECK_MEM(seen, want, sizeof(want));
		pattern(want, sizeof(want), (unsigned int)i + 1);
		CHECK_EQ(dmamap_device_write(dev, h[i], want, sizeof(want)), 0);
		CHECK_MEM(cpu[i], want, sizeof(want));
	}
	REQUIRE(dmamap_dma_pool_stats(pool, &s) == 0);
	CHECK_EQ(s.block_size, 64);
	CHECK_EQ(s.used, NBLK);
	CHECK_EQ(s.high_water, NBLK);
	CHECK_EQ(s.total, s.allocations * (PAGE_SIZE / 64));
	CHECK(s.total >= NBLK);
	allocations = s.allocations;
	for (int i = 0; i < NBLK; i++)
		dma_pool_free(pool, cpu[i], h[i]);
	/* Freed blocks come back: no new memory for as many blocks again. */
	for (int i = 0; i < NBLK; i++)
		REQUIRE((cpu[i] = dma_pool_alloc(pool, GFP_KERNEL, &h[i])));
	REQUIRE(dmamap_dma_pool_stats(pool, &s) == 0);
	CHECK_EQ(s.allocations, allocations);
	CHECK_EQ(s.allocs, 2 * NBLK);
	CHECK_EQ(s.frees, NBLK);
	for (int i = 0; i < NBLK; i++)
		dma_pool_free(pool, cpu[i], h[i]);
	REQUIRE(dmamap_dma_pool_stats(pool, &s) == 0);
	CHECK_EQ(s.used, 0);
	CHECK_EQ(s.high_water, NBLK);
	dma_pool_destroy(pool);
	CHECK_EQ(dmamap_report_count(p, 0), 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	/* Every chunk given back. */
	CHECK_EQ(stats_of(dev).allocs, stats_of(dev).frees);
}

TEST(dmapool_blocks_keep_size_alignment_and_boundary_sim)
{
	struct dmamap_platform *p = quiet_board();

	REQUIRE(p);
	blocks_on(p, lookup(p, NC));
	blocks_on(p, lookup(p, "dma-iommu"));
	dmamap_platform_destroy(p);
}

TEST(dmapool_blocks_keep_size_alignment_and_boundary_host)
{
	struct dmamap_platform *p = quiet(host_platform());

	REQUIRE(p);
	blocks_on(p, host_device(p, "h", NULL));
	dmamap_platform_destroy(p);
}

TEST(dmapool_large_blocks_and_tight_boundaries)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, NC);
	struct dma_pool *big, *tight;
	dma_addr_t h[3];
	void *v[3];

	REQUIRE(dev);
	/* Blocks larger than a page: one block an allocation. */
	big = dma_pool_create("big", dev, 3 * PAGE_SIZE, 0, 0);
	/* 96-byte blocks, never across 128 bytes: one block per 128. */
	tight = dma_pool_create("tight", dev, 96, 32, 128);
	REQUIRE(big && tight);
	for (int i = 0; i < 3; i++) {
		REQUIRE((v[i] = dma_pool_alloc(tight, GFP_KERNEL, &h[i])));
		CHECK_EQ(h[i] % 128, 0);
	}
	for (int i = 0; i < 3; i++)
		dma_pool_free(tight, v[i], h[i]);
	REQUIRE((v[0] = dma_pool_alloc(big, GFP_KERNEL, &h[0])));
	REQUIRE((v[1] = dma_pool_alloc(big, GFP_KERNEL, &h[1])));
	CHECK(!overlaps(h[0], h[1], 3 * PAGE_SIZE));
	memset(v[1], 0x3c, 3 * PAGE_SIZE);
	CHECK(dev_reads(dev, h[1] + 3 * PAGE_SIZE - 1, "\x3c", 1));
	dma_pool_free(big, v[0], h[0]);
	dma_pool_free(big, v[1], h[1]);
	dma_pool_destroy(big);
	dma_pool_destroy(tight);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

TEST(dmapool_zalloc_zeroes_a_reused_block)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, NC);
	struct dma_pool *pool = dma_pool_create("z", dev, 128, 8, 0);
	uint8_t *b, zero[128] = { 0 };
	dma_addr_t h;

	REQUIRE(pool);
	REQUIRE((b = dma_pool_alloc(pool, GFP_KERNEL, &h)));
	memset(b, 0xee, 128);
	dma_pool_free(pool, b, h);
	REQUIRE((b = dma_pool_zalloc(pool, GFP_KERNEL, &h)));
	CHECK_MEM(b, zero, 128);
	CHECK(dev_reads(dev, h, zero, 128));
	dma_pool_free(pool, b, h);
	dma_pool_destroy(pool);
	dmamap_platform_destroy(p);
}

TEST(dmapool_create_refuses_impossible_layouts)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, NC);

	REQUIRE(dev);
	reps.n = 0;
	CHECK(!dma_pool_create("a", dev, 64, 3, 0));     /* alignment not a power of two */
	CHECK(!dma_pool_create("b", dev, 0, 8, 0));      /* no size */
	CHECK(!dma_pool_create("c", dev, 256, 8, 128));  /* boundary below the size */
	CHECK(!dma_pool_create("d", dev, 64, 8, 192));   /* boundary not a power of two */
	CHECK(!dma_pool_create("e", dev, (size_t)INT_MAX + 1, 8, 0));
	CHECK_EQ(reps.n, 5);
	CHECK_EQ(reps.last.kind, DMAMAP_DBG_INVALID_ARGUMENT);
	CHECK_EQ(errk(dev, DMAMAP_ERRK_BAD_ARG), 5);
	/* Alloc and free with no pool do nothing. */
	CHECK(!dma_pool_alloc(NULL, GFP_KERNEL, &(dma_addr_t){ 0 }));
	dma_pool_free(NULL, (void *)0x1000, 0);
	dma_pool_destroy(NULL);
	dmamap_platform_destroy(p);
}

TEST(dmapool_bad_and_double_frees_are_refused_and_reported)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, NC);
	struct dma_pool *pool = dma_pool_create("rx", dev, 64, 64, 0);
	struct dmamap_dma_pool_stats s;
	uint8_t *a, *b, *other;
	dma_addr_t ha, hb, ho;

	REQUIRE(pool);
	REQUIRE((a = dma_pool_alloc(pool, GFP_KERNEL, &ha)));
	REQUIRE((b = dma_pool_alloc(pool, GFP_KERNEL, &hb)));
	other = dma_alloc_coherent(dev, 64, &ho, GFP_KERNEL);
	REQUIRE(other);
	reps.n = 0;
	dma_pool_free(pool, other, ho);   /* not a block of the pool */
	dma_pool_free(pool, a + 8, ha + 8); /* inside a block, not its start */
	dma_pool_free(pool, a, hb);       /* another block's address */
	CHECK_EQ(reps.n, 3);
	CHECK_EQ(reps.last.kind, DMAMAP_DBG_FREE_INVALID);
	CHECK_MSG(strstr(reps.last.text, "rx"), "%s", reps.last.text);
	dma_pool_free(pool, a, ha);
	dma_pool_free(pool, a, ha);       /* twice */
	CHECK_EQ(reps.n, 4);
	CHECK_MSG(strstr(reps.last.text, "already free"), "%s", reps.last.text);
	CHECK_EQ(errk(dev, DMAMAP_ERRK_BAD_HANDLE), 4);
	REQUIRE(dmamap_dma_pool_stats(pool, &s) == 0);
	CHECK_EQ(s.used, 1);
	CHECK_EQ(s.frees, 1);
	/* Destroyed with b in use: reported, its memory kept. */
	dma_pool_destroy(pool);
	CHECK_EQ(reps.n, 5);
	CHECK_EQ(reps.last.kind, DMAMAP_DBG_LEAK);
	CHECK_MSG(strstr(reps.last.text, "busy"), "%s", reps.last.text);
	b[0] = 1; /* still memory: the device may be using it */
	CHECK_EQ(stats_of(dev).frees, 0);
	dma_free_coherent(dev, 64, other, ho);
	dmamap_platform_destroy(p);
}

TEST(dmapool_checker_tracks_blocks)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev = lookup(p, NC);
	struct dma_pool *pool = dma_pool_create("cmd", dev, 256, 64, 0);
	uint8_t *a, *b, got[64];
	dma_addr_t ha, hb;

	REQUIRE(pool);
	REQUIRE((a = dma_pool_alloc(pool, GFP_KERNEL, &ha)));
	REQUIRE((b = dma_pool_alloc(pool, GFP_KERNEL, &hb)));
	rec_reset();
	/* A live block is the device's to use. */
	CHECK_EQ(dmamap_device_read(dev, ha, got, 64), 0);
	EXPECT_NO_REPORTS();
	CHECK_EQ(dmamap_debug_live(dev, NULL), 2);
	/* A freed one is not, though its memory is still the pool's. */
	dma_pool_free(pool, a, ha);
	CHECK_EQ(dmamap_debug_live(dev, NULL), 1);
	rec_reset();
	CHECK_EQ(dmamap_device_read(dev, ha, got, 64), 0);
	EXPECT_KINDS(DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED);
	/* A block left at destroy: the pool says busy; at device teardown, a leak. */
	rec_reset();
	dma_pool_destroy(pool);
	EXPECT_KINDS(DMAMAP_DBG_LEAK);
	(void)b;
	stop_checking(p);
	dmamap_platform_destroy(p);
}

TEST(dmapool_every_allocation_failure_fails_cleanly)
{
	struct dmamap_platform *p = quiet_board();
	struct device *dev = lookup(p, NC);
	struct dma_pool *pool = NULL;
	unsigned long fired = 0;
	dma_addr_t h;
	void *v = NULL;
	long n;

	REQUIRE(dev);
	/* The pool itself. */
	dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, 1);
	CHECK(!dma_pool_create("f", dev, 64, 8, 0));
	CHECK_EQ(dmamap_fault_injected(p), ++fired);
	pool = dma_pool_create("f", dev, 64, 8, 0);
	REQUIRE(pool);
	/* Each point a first block goes through, one after the other, until it succeeds. */
	for (n = 1; n < 10 && !v; n++) {
		dmamap_fault_inject(p, DMAMAP_FAULT_ALLOC, n);
		v = dma_pool_alloc(pool, GFP_KERNEL, &h);
		if (!v)
			CHECK_EQ(dmamap_fault_injected(p), ++fired);
	}
	dmamap_fault_inject(p, 0, 0);
	CHECK(n > 2); /* the chunk's bookkeeping and its memory both failed once */
	REQUIRE(v);
	dma_pool_free(pool, v, h);
	{
		struct dmamap_dma_pool_stats s;

		REQUIRE(dmamap_dma_pool_stats(pool, &s) == 0);
		CHECK_EQ(s.failures, (uint64_t)(n - 2));
		CHECK_EQ(s.allocations, 1);
		CHECK_EQ(s.used, 0);
	}
	dma_pool_destroy(pool);
	CHECK_EQ(stats_of(dev).allocs, stats_of(dev).frees);
	dmamap_platform_destroy(p);
}

/* A block freed as a coherent allocation would hand the pool's whole chunk back: refused. */
TEST(dmapool_block_freed_as_coherent_memory_is_refused)
{
	struct dmamap_platform *p = sim_board("default");
	struct device *dev = lookup(p, NC);
	struct dma_pool *pool = dma_pool_create("q", dev, 64, 64, 0);
	uint8_t *a, *b;
	dma_addr_t ha, hb, hc;
	void *c;

	REQUIRE(pool);
	REQUIRE((a = dma_pool_alloc(pool, GFP_KERNEL, &ha)));
	rec_reset();
	dma_free_coherent(dev, 64, a, ha);
	EXPECT_KINDS(DMAMAP_DBG_WRONG_TYPE);
	CHECK_MSG(text_has(0, "dma_pool_free"), "%s", rec.r[0].text);
	/* The chunk is still the pool's: a coherent allocation does not land in it. */
	c = dma_alloc_coherent(dev, PAGE_SIZE, &hc, GFP_KERNEL);
	REQUIRE((b = dma_pool_alloc(pool, GFP_KERNEL, &hb)));
	REQUIRE(c);
	CHECK(hc + PAGE_SIZE <= (ha & PAGE_MASK) || hc >= (ha & PAGE_MASK) + PAGE_SIZE);
	rec_reset();
	dma_pool_free(pool, a, ha);
	dma_pool_free(pool, b, hb);
	dma_free_coherent(dev, PAGE_SIZE, c, hc);
	dma_pool_destroy(pool);
	EXPECT_NO_REPORTS();
	dmamap_platform_destroy(p);
}
