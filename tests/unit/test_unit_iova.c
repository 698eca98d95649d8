/* SPDX-License-Identifier: MIT */
/*
 * The IOVA allocator (src/mm/iova.h) on its own: naturally aligned ranges
 * inside [base, end), a clean failure when the space is full and recovery
 * after frees, and the per-thread magazines in front of the buddy
 * allocator: a freed small range comes back to the same thread first (a
 * hit), refills come as one aligned block of eight, a batch free feeds the
 * magazine like single frees, large ranges bypass it.
 */
#include <stdlib.h>
#include "../tap.h"
#include "../../src/mm/iova.h"

#define BASE (1ULL << 20)

static u64 counts(struct dmamap_iova *v, int which)
{
	uint64_t c[3];

	dmamap__iova_counts(v, &c[0], &c[1], &c[2]);
	return c[which];
}

#define ALLOCS(v) counts(v, 0)
#define HITS(v) counts(v, 1)
#define FAILURES(v) counts(v, 2)

TEST(unit_iova_ranges_are_aligned_and_inside_the_space)
{
	struct dmamap_iova *v = dmamap__iova_create(BASE, BASE + (16384ULL << PAGE_SHIFT));

	REQUIRE(v);
	CHECK(dmamap__iova_create(BASE, BASE) == NULL);
	for (unsigned int round = 0; round < 3; round++) {
		for (unsigned int order = 0; order <= 8; order++) {
			u64 iova = dmamap__iova_alloc(v, order);
			u64 len = (u64)PAGE_SIZE << order;

			CHECK_MSG(iova && iova % len == 0, "order %u: 0x%llx", order,
				  (unsigned long long)iova);
			CHECK(iova >= BASE && iova + len <= BASE + (16384ULL << PAGE_SHIFT));
		}
	}
	CHECK_EQ(FAILURES(v), 0);
	dmamap__iova_destroy(v);
	dmamap__iova_destroy(NULL);
}

TEST(unit_iova_full_space_fails_then_recovers)
{
	enum { N = 64 };
	struct dmamap_iova *v = dmamap__iova_create(BASE, BASE + ((u64)N << PAGE_SHIFT));
	u64 got[N];

	REQUIRE(v);
	for (int i = 0; i < N; i++) {
		got[i] = dmamap__iova_alloc(v, 0);
		REQUIRE(got[i]);
		for (int j = 0; j < i; j++)
			CHECK_MSG(got[i] != got[j], "0x%llx handed out twice",
				  (unsigned long long)got[i]);
	}
	CHECK_EQ(dmamap__iova_alloc(v, 0), 0);
	CHECK_EQ(dmamap__iova_alloc(v, 3), 0);
	CHECK_EQ(FAILURES(v), 2);
	/* Everything back: the whole space maps again, page by page. */
	for (int i = 0; i < N; i++)
		dmamap__iova_free(v, got[i], 0);
	for (int i = 0; i < N; i++)
		CHECK(dmamap__iova_alloc(v, 0) != 0);
	CHECK_EQ(dmamap__iova_alloc(v, 0), 0);
	CHECK_EQ(FAILURES(v), 3);
	dmamap__iova_destroy(v);
}

TEST(unit_iova_freed_small_range_comes_back_from_the_magazine)
{
	struct dmamap_iova *v = dmamap__iova_create(BASE, BASE + (4096ULL << PAGE_SHIFT));
	u64 a, b, hits;

	REQUIRE(v);
	for (unsigned int order = 0; order < 6; order++) {
		a = dmamap__iova_alloc(v, order);
		REQUIRE(a);
		dmamap__iova_free(v, a, order);
		hits = HITS(v);
		b = dmamap__iova_alloc(v, order);
		CHECK_MSG(b == a, "order %u: 0x%llx freed, 0x%llx handed out next", order,
			  (unsigned long long)a, (unsigned long long)b);
		CHECK_EQ(HITS(v), hits + 1);
	}
	CHECK_EQ(ALLOCS(v), 12);
	dmamap__iova_destroy(v);
}

/*
 * An empty magazine refills with one naturally aligned block of eight
 * ranges, so that a thread's IO page table entries fill cache lines of
 * their own: the next seven come from it, as hits.
 */
TEST(unit_iova_refill_is_one_aligned_block_of_eight)
{
	struct dmamap_iova *v = dmamap__iova_create(BASE, BASE + (4096ULL << PAGE_SHIFT));
	u64 first, iova;

	REQUIRE(v);
	for (unsigned int order = 0; order < 6; order += 5) {
		u64 block = (u64)PAGE_SIZE << (order + 3);
		u64 hits = HITS(v);

		first = dmamap__iova_alloc(v, order);
		REQUIRE(first);
		for (int i = 1; i < 8; i++) {
			iova = dmamap__iova_alloc(v, order);
			CHECK_MSG(iova / block == first / block,
				  "order %u range %d at 0x%llx, outside 0x%llx's block", order, i,
				  (unsigned long long)iova, (unsigned long long)first);
			CHECK(iova % ((u64)PAGE_SIZE << order) == 0);
		}
		CHECK_EQ(HITS(v), hits + 7);
	}
	dmamap__iova_destroy(v);
}

TEST(unit_iova_batch_free_feeds_the_magazine)
{
	enum { N = 20 };
	struct dmamap_iova *v = dmamap__iova_create(BASE, BASE + (4096ULL << PAGE_SHIFT));
	u64 got[N], ranges[N], again[N], hits;

	REQUIRE(v);
	for (int i = 0; i < N; i++) {
		unsigned int order = (unsigned int)(i % 3);

		got[i] = dmamap__iova_alloc(v, order);
		REQUIRE(got[i]);
		ranges[i] = dmamap__iova_range(got[i], order);
		CHECK_EQ(ranges[i] & ~(u64)(PAGE_SIZE - 1), got[i]);
	}
	dmamap__iova_free_batch(v, ranges, N);
	/* Each one comes back exactly once, every allocation a hit. */
	hits = HITS(v);
	for (int i = 0; i < N; i++)
		again[i] = dmamap__iova_alloc(v, (unsigned int)(i % 3));
	CHECK_EQ(HITS(v), hits + N);
	for (int i = 0; i < N; i++) {
		int found = 0;

		for (int j = 0; j < N; j++)
			found += again[j] == got[i] && j % 3 == i % 3;
		CHECK_MSG(found == 1, "0x%llx came back %d times", (unsigned long long)got[i],
			  found);
	}
	dmamap__iova_destroy(v);
}

/* Ranges of 64 pages and more are not kept per thread: they go back to the space. */
TEST(unit_iova_large_ranges_bypass_the_magazine)
{
	struct dmamap_iova *v = dmamap__iova_create(BASE, BASE + (256ULL << PAGE_SHIFT));
	u64 a, b, hits;

	REQUIRE(v);
	a = dmamap__iova_alloc(v, 7); /* 128 pages: half the space */
	b = dmamap__iova_alloc(v, 7);
	REQUIRE(a && b && a != b);
	CHECK_EQ(dmamap__iova_alloc(v, 7), 0);
	hits = HITS(v);
	dmamap__iova_free(v, a, 7);
	dmamap__iova_free(v, b, 7);
	/* Both halves back in the space: they merge, and the whole space fits. */
	CHECK_EQ(dmamap__iova_alloc(v, 8), BASE);
	CHECK_EQ(HITS(v), hits);
	dmamap__iova_destroy(v);
}

/*
 * Ranges a thread's magazine keeps are free space. When the space has
 * nothing else, an allocation of another size must still find them, as
 * the kernel's alloc_iova_fast() flushes its caches and retries, not fail
 * as if the space were full.
 */
TEST(unit_iova_space_kept_in_magazines_serves_other_sizes)
{
	enum { N = 64 };
	struct dmamap_iova *v = dmamap__iova_create(BASE, BASE + ((u64)N << PAGE_SHIFT));
	u64 got[N], all;

	REQUIRE(v);
	for (int i = 0; i < N; i++) {
		got[i] = dmamap__iova_alloc(v, 0);
		REQUIRE(got[i]);
	}
	for (int i = 0; i < N; i++)
		dmamap__iova_free(v, got[i], 0);
	all = dmamap__iova_alloc(v, 6);
	CHECK_MSG(all == BASE, "all %d pages are free, yet a range of all of them got 0x%llx",
		  N, (unsigned long long)all);
	dmamap__iova_destroy(v);
}
