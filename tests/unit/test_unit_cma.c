/* SPDX-License-Identifier: MIT */
/*
 * The CMA area (src/mm/cma.h) on its own: runs of pages aligned to their
 * power-of-two size (at most 1 MiB), a run's head and length known so that
 * a release with the wrong size or of the middle of a run is refused, and
 * exhaustion, fragmentation and recovery of the area.
 */
#include <errno.h>
#include "../tap.h"
#include "../../src/mm/cma.h"

#define PAGE 4096ULL
#define START 0x81000000ULL /* 16 MiB aligned, as a board would place it */
#define NONE ((phys_addr_t)-1)

TEST(unit_cma_contains_exactly_its_area)
{
	struct dmamap_cma *c = dmamap__cma_create(START, 64 * PAGE);

	REQUIRE(c);
	CHECK(dmamap__cma_contains(c, START));
	CHECK(dmamap__cma_contains(c, START + 64 * PAGE - 1));
	CHECK(!dmamap__cma_contains(c, START - 1));
	CHECK(!dmamap__cma_contains(c, START + 64 * PAGE));
	CHECK(!dmamap__cma_contains(NULL, START));
	dmamap__cma_destroy(c);
	dmamap__cma_destroy(NULL);
}

TEST(unit_cma_runs_are_aligned_to_their_power_of_two_size)
{
	static const unsigned long counts[] = { 1, 2, 3, 4, 5, 8, 9, 16, 100, 256, 300 };
	struct dmamap_cma *c = dmamap__cma_create(START, 2048 * PAGE);

	REQUIRE(c);
	for (unsigned int i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		unsigned long n = counts[i], align = 1;
		phys_addr_t phys;

		while (align < n && align < 256)
			align <<= 1;
		phys = dmamap__cma_alloc(c, n);
		CHECK_MSG(phys != NONE && phys % (align * PAGE) == 0,
			  "%lu pages at 0x%llx, not %lu-page aligned", n, (unsigned long long)phys,
			  align);
		CHECK(phys >= START && phys + n * PAGE <= START + 2048 * PAGE);
		CHECK(dmamap__cma_is_run(c, phys, n));
	}
	/* What cannot be a run. */
	CHECK_EQ(dmamap__cma_alloc(c, 0), NONE);
	CHECK_EQ(dmamap__cma_alloc(c, 2049), NONE);
	CHECK_EQ(dmamap__cma_alloc(NULL, 1), NONE);
	dmamap__cma_destroy(c);
}

TEST(unit_cma_run_is_known_by_its_head_and_length)
{
	struct dmamap_cma *c = dmamap__cma_create(START, 64 * PAGE);
	phys_addr_t run;

	REQUIRE(c);
	run = dmamap__cma_alloc(c, 4);
	REQUIRE(run != NONE);
	CHECK(dmamap__cma_is_run(c, run, 4));
	CHECK(!dmamap__cma_is_run(c, run, 3));
	CHECK(!dmamap__cma_is_run(c, run, 5));
	CHECK(!dmamap__cma_is_run(c, run + PAGE, 3));
	CHECK(!dmamap__cma_is_run(c, run + 1, 4));
	/* Wrong size, the middle, an unaligned address, a free page: refused, nothing freed. */
	CHECK_EQ(dmamap__cma_release(c, run, 2), -EINVAL);
	CHECK_EQ(dmamap__cma_release(c, run, 8), -EINVAL);
	CHECK_EQ(dmamap__cma_release(c, run + PAGE, 3), -EINVAL);
	CHECK_EQ(dmamap__cma_release(c, run + 8, 4), -EINVAL);
	CHECK_EQ(dmamap__cma_release(c, run + 4 * PAGE, 1), -EINVAL);
	CHECK(dmamap__cma_is_run(c, run, 4));
	/* The right release works once. */
	CHECK_EQ(dmamap__cma_release(c, run, 4), 0);
	CHECK(!dmamap__cma_is_run(c, run, 4));
	CHECK_EQ(dmamap__cma_release(c, run, 4), -EINVAL);
	dmamap__cma_destroy(c);
}

TEST(unit_cma_exhaustion_and_recovery)
{
	enum { N = 32 };
	struct dmamap_cma *c = dmamap__cma_create(START, N * PAGE);
	phys_addr_t page[N], again;

	REQUIRE(c);
	for (int i = 0; i < N; i++) {
		page[i] = dmamap__cma_alloc(c, 1);
		REQUIRE(page[i] != NONE);
		for (int j = 0; j < i; j++)
			CHECK(page[i] != page[j]);
	}
	CHECK_EQ(dmamap__cma_alloc(c, 1), NONE);
	/* One page back: exactly that one is given out again. */
	CHECK_EQ(dmamap__cma_release(c, page[13], 1), 0);
	again = dmamap__cma_alloc(c, 1);
	CHECK_EQ(again, page[13]);
	for (int i = 0; i < N; i++)
		CHECK_EQ(dmamap__cma_release(c, page[i], 1), 0);
	/* All back: the whole area is one run again. */
	again = dmamap__cma_alloc(c, N);
	CHECK_EQ(again, START);
	CHECK_EQ(dmamap__cma_release(c, again, N), 0);
	dmamap__cma_destroy(c);
}

TEST(unit_cma_fragmented_area_refuses_larger_runs_until_freed)
{
	enum { N = 64 };
	struct dmamap_cma *c = dmamap__cma_create(START, N * PAGE);
	phys_addr_t run[N / 2];

	REQUIRE(c);
	for (int i = 0; i < N / 2; i++) {
		run[i] = dmamap__cma_alloc(c, 2);
		REQUIRE(run[i] != NONE);
	}
	/* Every other two-page run freed: half the area is free, in pieces of two. */
	for (int i = 0; i < N / 2; i += 2)
		CHECK_EQ(dmamap__cma_release(c, run[i], 2), 0);
	CHECK_EQ(dmamap__cma_alloc(c, 4), NONE);
	CHECK_EQ(dmamap__cma_alloc(c, 3), NONE);
	/* Two pages still fit, in a hole. */
	run[0] = dmamap__cma_alloc(c, 2);
	CHECK(run[0] != NONE && run[0] % (2 * PAGE) == 0);
	for (int i = 0; i < N / 2; i++)
		if (i % 2 || i == 0)
			CHECK_EQ(dmamap__cma_release(c, run[i], 2), 0);
	CHECK_EQ(dmamap__cma_alloc(c, N), START);
	dmamap__cma_destroy(c);
}

/*
 * The alignment is of the physical address, as cma_alloc() aligns by page
 * frame number: an area placed off a power-of-two boundary (a board's
 * cma_start, a reserved-memory reg, the top of a bank whose size is not a
 * power of two; only page alignment is required) must still give
 * naturally aligned runs.
 */
TEST(unit_cma_runs_are_aligned_even_where_the_area_is_not)
{
	static const unsigned long counts[] = { 2, 4, 16 };
	struct dmamap_cma *c = dmamap__cma_create(START + PAGE, 64 * PAGE);

	REQUIRE(c);
	for (unsigned int i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		phys_addr_t phys = dmamap__cma_alloc(c, counts[i]);

		CHECK_MSG(phys != NONE && phys % (counts[i] * PAGE) == 0,
			  "%lu pages at 0x%llx in an area at 0x%llx", counts[i],
			  (unsigned long long)phys, (unsigned long long)(START + PAGE));
	}
	dmamap__cma_destroy(c);
}

/* No run has zero pages: a free page is not one, and releasing it frees nothing. */
TEST(unit_cma_zero_pages_are_no_run)
{
	struct dmamap_cma *c = dmamap__cma_create(START, 64 * PAGE);

	REQUIRE(c);
	CHECK(!dmamap__cma_is_run(c, START, 0));
	CHECK_EQ(dmamap__cma_release(c, START, 0), -EINVAL);
	dmamap__cma_destroy(c);
}

/* An address outside the area is no run of it: refused, not looked up. */
TEST(unit_cma_release_outside_the_area_is_refused)
{
	struct dmamap_cma *c = dmamap__cma_create(START, 64 * PAGE);

	REQUIRE(c);
	CHECK_EQ(dmamap__cma_release(c, START + 64 * PAGE, 1), -EINVAL);
	CHECK(!dmamap__cma_is_run(c, START + 64 * PAGE, 1));
	CHECK_EQ(dmamap__cma_release(c, START - PAGE, 1), -EINVAL);
	CHECK(!dmamap__cma_is_run(c, START - PAGE, 1));
	dmamap__cma_destroy(c);
}
