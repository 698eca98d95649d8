/* SPDX-License-Identifier: MIT */
/*
 * The buddy allocator (src/mm/buddy.h) on its own, under the page
 * allocator and the IOVA space: blocks of 2^order frames aligned by frame
 * number, exhaustion and recovery, frees that do not match an allocated
 * block refused, split runs freed part by part, and every free coalescing
 * back until the largest blocks are whole again.
 */
#include <errno.h>
#include <stdlib.h>
#include "../tap.h"
#include "../../src/mm/buddy.h"

/* Whether @idx heads a block of 2^@order frames aligned by frame number. */
static bool aligned(uint64_t first_pfn, long idx, unsigned int order)
{
	return idx >= 0 && ((first_pfn + (uint64_t)idx) & ((1ULL << order) - 1)) == 0;
}

TEST(unit_buddy_create_refuses_what_it_cannot_track)
{
	struct dmamap_buddy *b;

	CHECK(dmamap__buddy_create(0, 0, 4) == NULL);
	CHECK(dmamap__buddy_create(0, 16, 31) == NULL);
	CHECK(dmamap__buddy_create(0, (unsigned long)INT32_MAX + 1, 4) == NULL);
	b = dmamap__buddy_create(0x80000, 1024, 10);
	REQUIRE(b);
	CHECK_EQ(dmamap__buddy_free_pages(b), 1024);
	dmamap__buddy_destroy(b);
	dmamap__buddy_destroy(NULL);
}

TEST(unit_buddy_blocks_are_aligned_by_frame_number)
{
	/*
	 * Frames [5, 32): the blocks are 5, 6-7, 8-15 and 16-31, whatever the
	 * index of their first frame within the allocator.
	 */
	struct dmamap_buddy *b = dmamap__buddy_create(5, 27, 4);
	long idx;

	REQUIRE(b);
	idx = dmamap__buddy_alloc(b, 4);
	CHECK_EQ(idx + 5, 16);
	CHECK_EQ(dmamap__buddy_alloc(b, 4), -1);
	CHECK_EQ(dmamap__buddy_alloc(b, 5), -1); /* above max_order */
	idx = dmamap__buddy_alloc(b, 3);
	CHECK_EQ(idx + 5, 8);
	CHECK_EQ(dmamap__buddy_alloc(b, 2), -1);
	idx = dmamap__buddy_alloc(b, 1);
	CHECK_EQ(idx + 5, 6);
	idx = dmamap__buddy_alloc(b, 0);
	CHECK_EQ(idx + 5, 5);
	CHECK_EQ(dmamap__buddy_free_pages(b), 0);
	dmamap__buddy_destroy(b);

	/* Smaller blocks split from larger ones keep the alignment. */
	b = dmamap__buddy_create(5, 27, 4);
	REQUIRE(b);
	for (unsigned int order = 0; order <= 3; order++) {
		idx = dmamap__buddy_alloc(b, order);
		CHECK_MSG(aligned(5, idx, order), "order %u: index %ld (frame %ld)", order, idx,
			  idx + 5);
		CHECK(dmamap__buddy_is_block(b, (unsigned long)idx, order));
	}
	dmamap__buddy_destroy(b);
}

TEST(unit_buddy_exhaustion_and_recovery)
{
	enum { N = 64 };
	struct dmamap_buddy *b = dmamap__buddy_create(0x1000, N, 6);
	bool seen[N] = { false };
	long idx[N];

	REQUIRE(b);
	for (int i = 0; i < N; i++) {
		idx[i] = dmamap__buddy_alloc(b, 0);
		REQUIRE(idx[i] >= 0 && idx[i] < N);
		CHECK_MSG(!seen[idx[i]], "frame %ld handed out twice", idx[i]);
		seen[idx[i]] = true;
	}
	CHECK_EQ(dmamap__buddy_free_pages(b), 0);
	CHECK_EQ(dmamap__buddy_alloc(b, 0), -1);
	/* One frame back: exactly that one is handed out again. */
	CHECK_EQ(dmamap__buddy_free(b, (unsigned long)idx[17], 0), 0);
	CHECK_EQ(dmamap__buddy_alloc(b, 0), idx[17]);
	CHECK_EQ(dmamap__buddy_alloc(b, 1), -1);
	for (int i = 0; i < N; i++)
		CHECK_EQ(dmamap__buddy_free(b, (unsigned long)idx[i], 0), 0);
	CHECK_EQ(dmamap__buddy_free_pages(b), N);
	/* Every frame back, in allocation order: one block of 64 again. */
	CHECK_EQ(dmamap__buddy_alloc(b, 6), 0);
	dmamap__buddy_destroy(b);
}

TEST(unit_buddy_frees_that_match_no_block_are_refused)
{
	struct dmamap_buddy *b = dmamap__buddy_create(0, 64, 6);
	long a, c;

	REQUIRE(b);
	a = dmamap__buddy_alloc(b, 2);
	c = dmamap__buddy_alloc(b, 0);
	REQUIRE(a >= 0 && c >= 0);
	/* The wrong order, an interior frame, a free frame, past the end. */
	CHECK_EQ(dmamap__buddy_free(b, (unsigned long)a, 1), -EINVAL);
	CHECK_EQ(dmamap__buddy_free(b, (unsigned long)a, 3), -EINVAL);
	CHECK_EQ(dmamap__buddy_free(b, (unsigned long)a + 1, 0), -EINVAL);
	CHECK_EQ(dmamap__buddy_free(b, 63, 0), -EINVAL);
	CHECK_EQ(dmamap__buddy_free(b, 64, 0), -EINVAL);
	CHECK_EQ(dmamap__buddy_free(b, ~0UL, 0), -EINVAL);
	/* None of them freed anything. */
	CHECK_EQ(dmamap__buddy_free_pages(b), 64 - 4 - 1);
	CHECK(dmamap__buddy_is_block(b, (unsigned long)a, 2));
	CHECK(!dmamap__buddy_is_block(b, (unsigned long)a, 1));
	CHECK(!dmamap__buddy_is_block(b, (unsigned long)a + 1, 0));
	CHECK(!dmamap__buddy_is_block(b, 64, 0));
	/* The right free works once; the second is refused. */
	CHECK_EQ(dmamap__buddy_free(b, (unsigned long)a, 2), 0);
	CHECK_EQ(dmamap__buddy_free(b, (unsigned long)a, 2), -EINVAL);
	CHECK_EQ(dmamap__buddy_free(b, (unsigned long)c, 0), 0);
	CHECK_EQ(dmamap__buddy_free(b, (unsigned long)c, 0), -EINVAL);
	CHECK_EQ(dmamap__buddy_free_pages(b), 64);
	CHECK_EQ(dmamap__buddy_alloc(b, 6), 0);
	dmamap__buddy_destroy(b);
}

TEST(unit_buddy_split_run_parts_are_freed_one_by_one)
{
	struct dmamap_buddy *b = dmamap__buddy_create(0x400, 256, 8);
	long run;

	REQUIRE(b);
	/* 8 blocks of 4 frames: one naturally aligned run of 32. */
	run = dmamap__buddy_alloc_split(b, 2, 3);
	REQUIRE(run >= 0);
	CHECK(aligned(0x400, run, 5));
	CHECK_EQ(dmamap__buddy_free_pages(b), 256 - 32);
	for (long k = 0; k < 8; k++)
		CHECK_MSG(dmamap__buddy_is_block(b, (unsigned long)(run + 4 * k), 2),
			  "part %ld is not a block of its own", k);
	/* The run is not one block: freeing it whole is refused. */
	CHECK_EQ(dmamap__buddy_free(b, (unsigned long)run, 5), -EINVAL);
	CHECK(!dmamap__buddy_is_block(b, (unsigned long)run, 5));
	/* Parts back in any order; each is gone once freed. */
	for (long k = 7; k >= 0; k -= 2)
		CHECK_EQ(dmamap__buddy_free(b, (unsigned long)(run + 4 * k), 2), 0);
	CHECK_EQ(dmamap__buddy_free(b, (unsigned long)(run + 4 * 7), 2), -EINVAL);
	for (long k = 0; k < 8; k += 2)
		CHECK_EQ(dmamap__buddy_free(b, (unsigned long)(run + 4 * k), 2), 0);
	CHECK_EQ(dmamap__buddy_free_pages(b), 256);
	/* Whole again. */
	CHECK_EQ(dmamap__buddy_alloc(b, 8), 0);
	CHECK_EQ(dmamap__buddy_alloc_split(b, 0, 1), -1);
	CHECK_EQ(dmamap__buddy_alloc_split(b, 6, 3), -1); /* above max_order */
	dmamap__buddy_destroy(b);
}

/* Mixed orders allocated until full, then freed in a shuffled order. */
TEST(unit_buddy_frees_coalesce_back_to_the_largest_blocks)
{
	enum { NPAGES = 512 };
	struct dmamap_buddy *b = dmamap__buddy_create(0x20000, NPAGES, 9);
	struct { long idx; unsigned int order; } got[NPAGES], t;
	unsigned int n = 0, used = 0;
	uint64_t rng = 0x9e3779b97f4a7c15ULL;

	REQUIRE(b);
	for (int miss = 0; miss < 64 && n < NPAGES;) {
		unsigned int order;
		long idx;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		order = (unsigned int)(rng % 5);
		idx = dmamap__buddy_alloc(b, order);
		if (idx < 0) {
			miss++;
			continue;
		}
		CHECK(aligned(0x20000, idx, order));
		got[n].idx = idx;
		got[n++].order = order;
		used += 1U << order;
	}
	CHECK_EQ(dmamap__buddy_free_pages(b), NPAGES - used);
	CHECK(dmamap__buddy_alloc(b, 4) < 0); /* full enough that 16 frames do not fit */
	for (unsigned int i = n - 1; i > 0; i--) {
		unsigned int k = (unsigned int)((rng >> 11) % (i + 1));

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		t = got[i];
		got[i] = got[k];
		got[k] = t;
	}
	for (unsigned int i = 0; i < n; i++)
		CHECK_EQ(dmamap__buddy_free(b, (unsigned long)got[i].idx, got[i].order), 0);
	CHECK_EQ(dmamap__buddy_free_pages(b), NPAGES);
	CHECK_EQ(dmamap__buddy_alloc(b, 9), 0);
	dmamap__buddy_destroy(b);
}
