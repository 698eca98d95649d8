/* SPDX-License-Identifier: MIT */
/*
 * CMA: the default board reserves a
 * contiguous area at the top of its lowest bank; coherent allocations of
 * more than a page that may block, and DMA_ATTR_FORCE_CONTIGUOUS ones,
 * come from it, in runs aligned to their power-of-two size. When the area
 * cannot serve a request the allocation falls back to ordinary pages.
 *
 * Where an allocation landed is read from its handle (identity devices),
 * through the device's window (dmamap_dma_to_phys) or the IO page tables;
 * bytes are checked through the CPU pointer and by the device.
 */
#include <stdlib.h>
#include <string.h>
#include <dmamap/dmamap.h>
#include "../helpers.h"

#define CMA_SIZE (16 * MiB) /* default board */

/*
 * The simulated pages a coherent allocation of @len holds: it is made of
 * whole host pages (several simulated ones on a 16K or 64K-page host, so
 * that it can be mapped again), and CMA counts them all.
 */
static u64 held(size_t len)
{
	return (u64)((len + host_page() - 1) & ~(host_page() - 1)) >> PAGE_SHIFT;
}

static struct dmamap_cma_stats cstats(struct dmamap_platform *p)
{
	struct dmamap_cma_stats s;

	memset(&s, 0, sizeof(s));
	if (dmamap_cma_stats(p, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

static bool in_cma(const struct dmamap_cma_stats *s, phys_addr_t phys, size_t len)
{
	u64 end = s->start + (s->total_pages << PAGE_SHIFT);

	return phys >= s->start && phys < end && len <= end - phys;
}

/* The physical address behind a coherent allocation's handle. */
static phys_addr_t phys_of(struct device *dev, dma_addr_t h)
{
	struct dmamap_iommu_stats is;

	if (dmamap_iommu_stats(dev, &is) == 0)
		return dmamap_iommu_iova_to_phys(dev, h);
	return dmamap_dma_to_phys(dev, h);
}

/* The CPU and the device agree on the buffer's bytes, both ways. */
static bool bytes_shared(struct device *dev, uint8_t *cpu, dma_addr_t h,
			 size_t len, unsigned int seed)
{
	uint8_t *want = malloc(len), *rd = malloc(len);
	bool ok = want && rd;

	if (ok) {
		fill_pattern(want, len, seed);
		memcpy(cpu, want, len);
		ok = !dmamap_device_read(dev, h, rd, len) && !memcmp(rd, want, len);
		fill_pattern(want, len, seed + 1);
		ok = ok && !dmamap_device_write(dev, h, want, len) &&
		     !memcmp(cpu, want, len);
	}
	free(want);
	free(rd);
	return ok;
}

/* ---- 1. which allocations come from CMA ----------------------------------- */

TEST(cma_default_board_area)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_cma_stats s;

	REQUIRE(p);
	REQUIRE(dmamap_cma_stats(p, &s) == 0);
	CHECK_EQ(s.total_pages, CMA_SIZE >> PAGE_SHIFT);
	/* At the top of the lowest bank. */
	CHECK_EQ(s.start, BANK0_START + BANK0_SIZE - CMA_SIZE);
	CHECK_EQ(s.used_pages, 0);
	CHECK_EQ(s.high_water, 0);
	CHECK_EQ(s.allocs, 0);
	CHECK_EQ(s.failures, 0);
	CHECK_EQ(s.largest_free_run, s.total_pages);
	CHECK_EQ(dmamap_cma_stats(NULL, &s), -EINVAL);
	CHECK_EQ(dmamap_cma_stats(p, NULL), -EINVAL);
	dmamap_platform_destroy(p);
}

TEST(cma_multi_page_coherent_comes_from_cma)
{
	/*
	 * Behind an IOMMU, as in the kernel, only FORCE_CONTIGUOUS takes CMA:
	 * other buffers are scattered pages (tests/iommu/ covers that).
	 */
	static const char *const devs[] = { "dma-coh", "dma-32", "dma-nc" };
	struct dmamap_platform *p = quiet_board();
	const size_t len = 3 * PAGE_SIZE;

	REQUIRE(p);
	for (unsigned int i = 0; i < 3; i++) {
		struct device *dev = dmamap_device_lookup(p, devs[i]);
		struct dmamap_cma_stats s0, s1;
		phys_addr_t phys;
		dma_addr_t h = 0;
		uint8_t *cpu;

		REQUIRE(dev);
		s0 = cstats(p);
		cpu = dma_alloc_coherent(dev, len, &h, GFP_KERNEL);
		REQUIRE(cpu);
		phys = phys_of(dev, h);
		if (i < 2)
			CHECK_EQ(h, phys); /* identity devices */
		CHECK_MSG(in_cma(&s0, phys, len), "%s: 3 pages at 0x%llx, CMA is 0x%llx+%llu pages",
			  devs[i], (unsigned long long)phys, (unsigned long long)s0.start,
			  (unsigned long long)s0.total_pages);
		s1 = cstats(p);
		CHECK_EQ(s1.used_pages, s0.used_pages + held(len));
		CHECK_EQ(s1.allocs, s0.allocs + 1);
		CHECK(s1.high_water >= s1.used_pages);
		CHECK_EQ(s1.failures, s0.failures);
		CHECK(all_bytes(cpu, len, 0));
		CHECK_MSG(bytes_shared(dev, cpu, h, len, 40 + i), "%s: bytes", devs[i]);
		dma_free_coherent(dev, len, cpu, h);
		s1 = cstats(p);
		CHECK_EQ(s1.used_pages, s0.used_pages);
		CHECK_EQ(stats_of(dev).errors, 0);
	}
	CHECK_EQ(cstats(p).used_pages, 0);
	CHECK(cstats(p).high_water >= held(len));
	CHECK_EQ(cstats(p).allocs, 3);
	dmamap_platform_destroy(p);
}

TEST(cma_force_contiguous_single_page_atomic_not)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_cma_stats s0, s1;
	struct device *dev;
	phys_addr_t phys;
	dma_addr_t h = 0;
	uint8_t *cpu;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-coh");
	REQUIRE(dev);

	/* One page, no attribute: ordinary pages. */
	s0 = cstats(p);
	cpu = dma_alloc_coherent(dev, PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK_MSG(!in_cma(&s0, h, 1), "one page from CMA at 0x%llx (host page %zu bytes)",
		  (unsigned long long)h, host_page());
	CHECK_EQ(cstats(p).allocs, s0.allocs);
	dma_free_coherent(dev, PAGE_SIZE, cpu, h);

	/* One page, DMA_ATTR_FORCE_CONTIGUOUS: CMA. */
	cpu = dma_alloc_attrs(dev, PAGE_SIZE, &h, GFP_KERNEL, DMA_ATTR_FORCE_CONTIGUOUS);
	REQUIRE(cpu);
	CHECK_MSG(in_cma(&s0, h, PAGE_SIZE), "FORCE_CONTIGUOUS page at 0x%llx",
		  (unsigned long long)h);
	s1 = cstats(p);
	CHECK_EQ(s1.used_pages, s0.used_pages + held(PAGE_SIZE));
	CHECK_EQ(s1.allocs, s0.allocs + 1);
	CHECK(bytes_shared(dev, cpu, h, PAGE_SIZE, 3));
	dma_free_attrs(dev, PAGE_SIZE, cpu, h, DMA_ATTR_FORCE_CONTIGUOUS);
	CHECK_EQ(cstats(p).used_pages, s0.used_pages);

	/* FORCE_CONTIGUOUS even when the caller may not block. */
	cpu = dma_alloc_attrs(dev, 2 * PAGE_SIZE, &h, GFP_ATOMIC, DMA_ATTR_FORCE_CONTIGUOUS);
	REQUIRE(cpu);
	CHECK(in_cma(&s0, h, 2 * PAGE_SIZE));
	dma_free_attrs(dev, 2 * PAGE_SIZE, cpu, h, DMA_ATTR_FORCE_CONTIGUOUS);

	/* Many pages, but atomic (or no-wait): not CMA. */
	s0 = cstats(p);
	cpu = dma_alloc_coherent(dev, 8 * PAGE_SIZE, &h, GFP_ATOMIC);
	REQUIRE(cpu);
	phys = h;
	CHECK_MSG(!in_cma(&s0, phys, 1), "GFP_ATOMIC allocation from CMA at 0x%llx",
		  (unsigned long long)phys);
	CHECK_EQ(cstats(p).allocs, s0.allocs);
	CHECK_EQ(cstats(p).used_pages, s0.used_pages);
	CHECK(bytes_shared(dev, cpu, h, 8 * PAGE_SIZE, 4));
	dma_free_coherent(dev, 8 * PAGE_SIZE, cpu, h);
	cpu = dma_alloc_coherent(dev, 8 * PAGE_SIZE, &h, GFP_NOWAIT);
	REQUIRE(cpu);
	CHECK(!in_cma(&s0, h, 1));
	CHECK_EQ(cstats(p).allocs, s0.allocs);
	dma_free_coherent(dev, 8 * PAGE_SIZE, cpu, h);

	s1 = cstats(p);
	CHECK_EQ(s1.used_pages, 0);
	CHECK_EQ(s1.high_water, held(2 * PAGE_SIZE));
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

/* A device whose window does not reach the area gets ordinary pages. */
TEST(cma_unreachable_area_not_used)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_cma_stats s0;
	struct device *dev;
	dma_addr_t h = 0;
	uint8_t *cpu;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-24"); /* sees the first 16 MiB of RAM */
	REQUIRE(dev);
	s0 = cstats(p);
	REQUIRE(s0.start >= BANK0_START + 16 * MiB);
	cpu = dma_alloc_coherent(dev, 4 * PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(h + 4 * PAGE_SIZE - 1 <= DMA_BIT_MASK(24));
	CHECK(!in_cma(&s0, dmamap_dma_to_phys(dev, h), 1));
	CHECK_EQ(cstats(p).used_pages, 0);
	CHECK(bytes_shared(dev, cpu, h, 4 * PAGE_SIZE, 5));
	dma_free_coherent(dev, 4 * PAGE_SIZE, cpu, h);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

/* ---- 2. alignment --------------------------------------------------------- */

TEST(cma_power_of_two_alignment)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_cma_stats s0;
	void *cpu[10];
	dma_addr_t h[10];
	size_t len[10];
	struct device *dev;
	u64 used = 0;
	int n = 0;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-coh");
	REQUIRE(dev);
	s0 = cstats(p);
	/*
	 * 1 page first, then 2, 4, ... 256: a first-fit allocator would put
	 * each right after the previous one, unaligned.
	 */
	for (unsigned int k = 0; k <= 8; k++, n++) {
		size_t pages = 1UL << k;

		len[n] = pages * PAGE_SIZE;
		cpu[n] = dma_alloc_attrs(dev, len[n], &h[n], GFP_KERNEL,
					 DMA_ATTR_FORCE_CONTIGUOUS);
		REQUIRE(cpu[n]);
		used += held(len[n]);
		CHECK(in_cma(&s0, h[n], len[n]));
		CHECK_MSG((h[n] & (len[n] - 1)) == 0,
			  "%zu pages at 0x%llx: not aligned to their size", pages,
			  (unsigned long long)h[n]);
		CHECK_MSG(((h[n] - s0.start) & (len[n] - 1)) == 0,
			  "%zu pages at CMA offset 0x%llx", pages,
			  (unsigned long long)(h[n] - s0.start));
	}
	/* 3 pages: aligned as the 4 pages they round up to. */
	len[n] = 3 * PAGE_SIZE;
	cpu[n] = dma_alloc_attrs(dev, len[n], &h[n], GFP_KERNEL, DMA_ATTR_FORCE_CONTIGUOUS);
	REQUIRE(cpu[n]);
	used += held(len[n]);
	CHECK(in_cma(&s0, h[n], len[n]));
	CHECK_MSG((h[n] & (4 * PAGE_SIZE - 1)) == 0, "3 pages at 0x%llx",
		  (unsigned long long)h[n]);
	n++;
	/* 511 + 3 on a 4K host; the small runs fill whole host pages on a larger one. */
	CHECK_EQ(cstats(p).used_pages, used);
	/* No two runs overlap: each keeps its own bytes. */
	for (int i = 0; i < n; i++)
		fill_pattern(cpu[i], len[i], (unsigned int)i);
	for (int i = 0; i < n; i++) {
		uint8_t *want = malloc(len[i]);

		REQUIRE(want);
		fill_pattern(want, len[i], (unsigned int)i);
		CHECK_MSG(!memcmp(cpu[i], want, len[i]), "run %d was overwritten", i);
		free(want);
	}
	for (int i = 0; i < n; i++)
		dma_free_attrs(dev, len[i], cpu[i], h[i], DMA_ATTR_FORCE_CONTIGUOUS);
	CHECK_EQ(cstats(p).used_pages, 0);
	CHECK_EQ(cstats(p).largest_free_run, s0.total_pages);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

/* ---- 3. exhaustion -------------------------------------------------------- */

#define CHUNK (1 * MiB)
#define MAX_CHUNKS 64

TEST(cma_exhaustion_falls_back_then_recovers)
{
	struct dmamap_platform *p = quiet_board();
	struct dmamap_cma_stats s0, s1;
	void *cpu[MAX_CHUNKS];
	dma_addr_t h[MAX_CHUNKS];
	struct device *dev;
	dma_addr_t fh = 0, gh = 0;
	uint8_t *fb, *gb;
	int n = 0;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-coh");
	REQUIRE(dev);
	s0 = cstats(p);
	while (n < MAX_CHUNKS && cstats(p).used_pages < s0.total_pages) {
		cpu[n] = dma_alloc_attrs(dev, CHUNK, &h[n], GFP_KERNEL,
					 DMA_ATTR_FORCE_CONTIGUOUS);
		REQUIRE(cpu[n]);
		CHECK(in_cma(&s0, h[n], CHUNK));
		fill_pattern(cpu[n], 256, (unsigned int)n);
		n++;
	}
	CHECK_EQ(n, (int)(CMA_SIZE / CHUNK));
	s1 = cstats(p);
	CHECK_EQ(s1.used_pages, s1.total_pages);
	CHECK_EQ(s1.high_water, s1.total_pages);
	CHECK_EQ(s1.largest_free_run, 0);
	CHECK_EQ(s1.failures, 0);

	/*
	 * The area is full: src/ops/direct_alloc.c falls back to ordinary
	 * pages (contiguous, from the buddy allocator) rather than failing.
	 */
	fb = dma_alloc_attrs(dev, PAGE_SIZE, &fh, GFP_KERNEL, DMA_ATTR_FORCE_CONTIGUOUS);
	CHECK(fb != NULL);
	if (fb) {
		CHECK(!in_cma(&s0, fh, 1));
		CHECK(all_bytes(fb, PAGE_SIZE, 0));
		CHECK(bytes_shared(dev, fb, fh, PAGE_SIZE, 6));
	}
	gb = dma_alloc_coherent(dev, 4 * PAGE_SIZE, &gh, GFP_KERNEL);
	CHECK(gb != NULL);
	if (gb) {
		CHECK(!in_cma(&s0, gh, 1));
		CHECK(bytes_shared(dev, gb, gh, 4 * PAGE_SIZE, 7));
	}
	s1 = cstats(p);
	CHECK_EQ(s1.failures, 2);
	CHECK_EQ(s1.allocs, (uint64_t)n);
	CHECK_EQ(s1.used_pages, s1.total_pages);
	/* Nothing in the area was touched. */
	for (int i = 0; i < n; i++) {
		uint8_t want[256];

		fill_pattern(want, sizeof(want), (unsigned int)i);
		CHECK_MSG(!memcmp(cpu[i], want, sizeof(want)), "chunk %d overwritten", i);
	}
	/* The fallback memory goes back to the page allocator, not to CMA. */
	if (fb)
		dma_free_attrs(dev, PAGE_SIZE, fb, fh, DMA_ATTR_FORCE_CONTIGUOUS);
	if (gb)
		dma_free_coherent(dev, 4 * PAGE_SIZE, gb, gh);
	CHECK_EQ(cstats(p).used_pages, s1.total_pages);
	CHECK_EQ(stats_of(dev).errors, 0);

	for (int i = 0; i < n; i++)
		dma_free_attrs(dev, CHUNK, cpu[i], h[i], DMA_ATTR_FORCE_CONTIGUOUS);
	s1 = cstats(p);
	CHECK_EQ(s1.used_pages, 0);
	CHECK_EQ(s1.largest_free_run, s1.total_pages);
	/* The area works again. */
	fb = dma_alloc_attrs(dev, 2 * PAGE_SIZE, &fh, GFP_KERNEL, DMA_ATTR_FORCE_CONTIGUOUS);
	REQUIRE(fb);
	CHECK(in_cma(&s0, fh, 2 * PAGE_SIZE));
	CHECK(all_bytes(fb, 2 * PAGE_SIZE, 0));
	CHECK_EQ(cstats(p).used_pages, held(2 * PAGE_SIZE));
	dma_free_attrs(dev, 2 * PAGE_SIZE, fb, fh, DMA_ATTR_FORCE_CONTIGUOUS);
	CHECK_EQ(cstats(p).used_pages, 0);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

/* ---- 4. fragmentation ----------------------------------------------------- */

#define RUN_PAGES 256
#define NRUNS (CMA_SIZE / (RUN_PAGES * PAGE_SIZE))

TEST(cma_fragmentation_largest_free_run)
{
	struct dmamap_platform *p = quiet_board();
	const size_t run = RUN_PAGES * PAGE_SIZE;
	struct dmamap_cma_stats s0, s1;
	void *cpu[NRUNS];
	dma_addr_t h[NRUNS], bh = 0;
	struct device *dev;
	uint8_t *big;

	REQUIRE(p);
	dev = dmamap_device_lookup(p, "dma-coh");
	REQUIRE(dev);
	s0 = cstats(p);
	for (unsigned int i = 0; i < NRUNS; i++) {
		cpu[i] = dma_alloc_attrs(dev, run, &h[i], GFP_KERNEL, DMA_ATTR_FORCE_CONTIGUOUS);
		REQUIRE(cpu[i]);
		/* Aligned runs fill the area in order. */
		CHECK_EQ(h[i], s0.start + i * run);
	}
	CHECK_EQ(cstats(p).largest_free_run, 0);
	/* Free every other run: holes of one run each. */
	for (unsigned int i = 1; i < NRUNS; i += 2) {
		dma_free_attrs(dev, run, cpu[i], h[i], DMA_ATTR_FORCE_CONTIGUOUS);
		cpu[i] = NULL;
	}
	s1 = cstats(p);
	CHECK_EQ(s1.used_pages, s1.total_pages / 2);
	CHECK_EQ(s1.largest_free_run, RUN_PAGES);
	/* Join three: runs 1, 2 and 3 are one hole. */
	dma_free_attrs(dev, run, cpu[2], h[2], DMA_ATTR_FORCE_CONTIGUOUS);
	cpu[2] = NULL;
	s1 = cstats(p);
	CHECK_EQ(s1.largest_free_run, 3 * RUN_PAGES);
	CHECK_EQ(s1.used_pages, s1.total_pages / 2 - RUN_PAGES);

	/* More than the largest run: half the area is free, but not from CMA. */
	big = dma_alloc_attrs(dev, 4 * run, &bh, GFP_KERNEL, DMA_ATTR_FORCE_CONTIGUOUS);
	CHECK(big != NULL); /* ordinary pages, as when the area is full */
	if (big) {
		CHECK_MSG(!in_cma(&s0, bh, 1), "4 runs from CMA at 0x%llx with 3 free in a row",
			  (unsigned long long)bh);
		dma_free_attrs(dev, 4 * run, big, bh, DMA_ATTR_FORCE_CONTIGUOUS);
	}
	CHECK_EQ(cstats(p).failures, s1.failures + 1);
	CHECK_EQ(cstats(p).used_pages, s1.used_pages);
	/* Exactly the largest run: from the hole. */
	big = dma_alloc_attrs(dev, 3 * run, &bh, GFP_KERNEL, DMA_ATTR_FORCE_CONTIGUOUS);
	REQUIRE(big);
	CHECK_EQ(bh, h[1]);
	s1 = cstats(p);
	CHECK_EQ(s1.largest_free_run, RUN_PAGES);
	dma_free_attrs(dev, 3 * run, big, bh, DMA_ATTR_FORCE_CONTIGUOUS);
	for (unsigned int i = 0; i < NRUNS; i++)
		if (cpu[i])
			dma_free_attrs(dev, run, cpu[i], h[i], DMA_ATTR_FORCE_CONTIGUOUS);
	s1 = cstats(p);
	CHECK_EQ(s1.used_pages, 0);
	CHECK_EQ(s1.largest_free_run, s1.total_pages);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);
}

/* ---- 5. a free with the wrong size ---------------------------------------- */

/*
 * Sizes in host pages: the allocation is rounded up to them, and so is a
 * free's size, so only a size naming another number of host pages is wrong.
 */
#define PG host_page()

static void wrong_size_free(const char *name)
{
	struct dmamap_platform *p = quiet_board();
	const size_t len = 4 * PG;
	const size_t wrong[] = { 2 * PG, 8 * PG, 5 * PG };
	uint8_t *want = malloc(len), *rd = malloc(len);
	struct dmamap_cma_stats s0, s1;
	struct device *dev;
	dma_addr_t h = 0, h2 = 0;
	uint8_t *cpu, *cpu2;

	REQUIRE(p && want && rd);
	dev = dmamap_device_lookup(p, name);
	REQUIRE(dev);
	/* FORCE_CONTIGUOUS: the IOMMU device takes CMA only when asked to. */
	cpu = dma_alloc_attrs(dev, len, &h, GFP_KERNEL, DMA_ATTR_FORCE_CONTIGUOUS);
	REQUIRE(cpu);
	s0 = cstats(p);
	REQUIRE(in_cma(&s0, phys_of(dev, h), len));
	fill_pattern(want, len, 8);
	memcpy(cpu, want, len);
	for (unsigned int i = 0; i < 3; i++) {
		unsigned long rep = dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID);
		uint64_t bad = errk(dev, DMAMAP_ERRK_BAD_HANDLE);

		dma_free_coherent(dev, wrong[i], cpu, h);
		CHECK_MSG(dmamap_report_count(p, DMAMAP_DBG_FREE_INVALID) == rep + 1,
			  "%s: free of %zu bytes of a %zu-byte CMA allocation not reported",
			  name, wrong[i], len);
		CHECK_EQ(errk(dev, DMAMAP_ERRK_BAD_HANDLE), bad + 1);
		s1 = cstats(p);
		CHECK_EQ(s1.used_pages, s0.used_pages);
		CHECK_EQ(s1.allocs, s0.allocs);
		CHECK_EQ(s1.largest_free_run, s0.largest_free_run);
		CHECK_MSG(!memcmp(cpu, want, len), "%s: bytes changed by a wrong free", name);
		CHECK_MSG(!dmamap_device_read(dev, h, rd, len) && !memcmp(rd, want, len),
			  "%s: device sees other bytes after a wrong free", name);
	}
	/* Still allocated: a new allocation does not get the same memory. */
	cpu2 = dma_alloc_coherent(dev, len, &h2, GFP_KERNEL);
	REQUIRE(cpu2);
	CHECK(h2 != h);
	memset(cpu2, 0xcc, len);
	CHECK_MEM(cpu, want, len);
	dma_free_coherent(dev, len, cpu2, h2);
	/* The right size frees it. */
	dma_free_coherent(dev, len, cpu, h);
	CHECK_EQ(cstats(p).used_pages, 0);
	CHECK_EQ(stats_of(dev).errors, 3);
	free(want);
	free(rd);
	dmamap_platform_destroy(p);
}

TEST(cma_free_wrong_size_coherent_dev)
{
	wrong_size_free("dma-coh");
}

TEST(cma_free_wrong_size_noncoherent_dev)
{
	wrong_size_free("dma-nc");
}

/* Behind an IOMMU the IOVA mapping must survive the bad free too. */
TEST(cma_free_wrong_size_iommu_dev)
{
	wrong_size_free("dma-iommu");
}

/* ---- 6. boards built in code ----------------------------------------------- */

static const struct dmamap_device_desc code_devices[] = {
	{ .name = "d0", .coherent = true, .dma_mask = DMA_BIT_MASK(32) },
};

static struct dmamap_platform *code_board(u64 cma_size, struct dmamap_error *err)
{
	struct dmamap_board b = {
		.name = "cma-board",
		.cache_line_size = 64,
		.nr_banks = 1,
		.banks = { { BANK0_START, 64 * MiB } },
		.cma_size = cma_size,
		.nr_devices = 1,
		.devices = code_devices,
	};
	struct dmamap_platform *p = dmamap_platform_create(&b, err);

	if (p)
		dmamap_set_log_hook(p, capture_hook, &logs);
	return p;
}

TEST(cma_board_without_cma)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = code_board(0, &err);
	struct dmamap_cma_stats s;
	struct device *dev;
	dma_addr_t h = 0;
	uint8_t *cpu;

	REQUIRE(p);
	CHECK_EQ(dmamap_cma_stats(p, &s), -ENODEV);
	dev = dmamap_device_lookup(p, "d0");
	REQUIRE(dev);
	/* Large and contiguous-by-request allocations still work, from pages. */
	cpu = dma_alloc_coherent(dev, 16 * PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(bytes_shared(dev, cpu, h, 16 * PAGE_SIZE, 9));
	dma_free_coherent(dev, 16 * PAGE_SIZE, cpu, h);
	cpu = dma_alloc_attrs(dev, PAGE_SIZE, &h, GFP_KERNEL, DMA_ATTR_FORCE_CONTIGUOUS);
	REQUIRE(cpu);
	CHECK(bytes_shared(dev, cpu, h, PAGE_SIZE, 10));
	dma_free_attrs(dev, PAGE_SIZE, cpu, h, DMA_ATTR_FORCE_CONTIGUOUS);
	CHECK_EQ(stats_of(dev).errors, 0);
	dmamap_platform_destroy(p);

	/* The host has no CMA area either. */
	p = host_platform();
	REQUIRE(p);
	CHECK_EQ(dmamap_cma_stats(p, &s), -ENODEV);
	dmamap_platform_destroy(p);
}

TEST(cma_board_sized_in_code)
{
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = code_board(4 * MiB, &err);
	struct dmamap_cma_stats s;
	struct device *dev;
	dma_addr_t h = 0;
	uint8_t *cpu;

	REQUIRE(p);
	REQUIRE(dmamap_cma_stats(p, &s) == 0);
	CHECK_EQ(s.total_pages, (4 * MiB) >> PAGE_SHIFT);
	CHECK_EQ(s.start, BANK0_START + 64 * MiB - 4 * MiB);
	dev = dmamap_device_lookup(p, "d0");
	REQUIRE(dev);
	cpu = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h, GFP_KERNEL);
	REQUIRE(cpu);
	CHECK(in_cma(&s, h, 2 * PAGE_SIZE));
	CHECK_EQ(cstats(p).used_pages, held(2 * PAGE_SIZE));
	dma_free_coherent(dev, 2 * PAGE_SIZE, cpu, h);
	dmamap_platform_destroy(p);

	/* An area as large as the bank does not fit. */
	memset(&err, 0, sizeof(err));
	p = code_board(64 * MiB, &err);
	CHECK(p == NULL);
	CHECK_EQ(err.code, -EINVAL);
	CHECK_MSG(strstr(err.msg, "CMA"), "error: %s", err.msg);
	dmamap_platform_destroy(p);
}

/*
 * A board may place the area at any page (cma_start, a reserved-memory
 * reg): runs are still aligned to their power-of-two size in physical
 * memory, the "naturally aligned runs" the README promises.
 */
TEST(cma_runs_naturally_aligned_wherever_the_area_starts)
{
	static const unsigned long pages[] = { 2, 4, 16 };
	const struct dmamap_board b = {
		.name = "cma-off-boundary",
		.cache_line_size = 64,
		.nr_banks = 1,
		.banks = { { BANK0_START, 64 * MiB } },
		.cma_size = 4 * MiB,
		.cma_start = BANK0_START + 32 * MiB + PAGE_SIZE,
		.nr_devices = 1,
		.devices = code_devices,
	};
	struct dmamap_error err = { 0 };
	struct dmamap_platform *p = quiet(dmamap_platform_create(&b, &err));
	struct dmamap_cma_stats s;
	struct device *dev;

	REQUIRE(p);
	REQUIRE(dmamap_cma_stats(p, &s) == 0);
	CHECK_EQ(s.start, b.cma_start);
	dev = dmamap_device_lookup(p, "d0");
	REQUIRE(dev);
	for (unsigned int i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		size_t len = pages[i] * PAGE_SIZE;
		dma_addr_t h = 0;
		uint8_t *cpu = dma_alloc_attrs(dev, len, &h, GFP_KERNEL, DMA_ATTR_FORCE_CONTIGUOUS);

		REQUIRE(cpu);
		CHECK(in_cma(&s, h, len));
		CHECK_MSG(h % len == 0, "%lu pages at 0x%llx", pages[i], (unsigned long long)h);
		dma_free_attrs(dev, len, cpu, h, DMA_ATTR_FORCE_CONTIGUOUS);
	}
	dmamap_platform_destroy(p);
}
