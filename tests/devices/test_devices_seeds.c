/* SPDX-License-Identifier: MIT */
/*
 * A sample of the seed sweep (`make sweep` runs 10,000): the correct
 * drivers lose nothing and draw no report under seeded cache chaos and
 * device schedules, on every built-in board; and a seed replays exactly.
 */
#include <dmamap/sim.h>
#include "../../drivers/gallery.h"
#include "../helpers.h"

static bool built_in(const char *board)
{
	for (const char *const *n = dmamap_platform_builtin_names(); *n; n++)
		if (!strcmp(*n, board))
			return true;
	return false;
}

static void sweep(const char *board, uint64_t first, unsigned int n)
{
	/* Without libfdt only the boards written in C are built in. */
	if (!built_in(board) || board_too_big_for_host(board))
		return;
	for (uint64_t seed = first; seed < first + n; seed += tap_sample()) {
		struct dmamap_platform *p = quiet(dmamap_platform_builtin(board, NULL));
		struct sweep_result r;

		REQUIRE(p);
		sweep_seed(p, seed, &r);
		dmamap_platform_destroy(p);
		CHECK_MSG(r.devices > 0 && r.units > 0, "%s: nothing ran", board);
		CHECK_MSG(!r.bad_units && !r.reports,
			  "%s seed %llu: %lu units bad, %lu reports: %s (dmamap sweep --board %s --first %llu --seeds 1)",
			  board, (unsigned long long)seed, r.bad_units, r.reports, r.first_bad, board,
			  (unsigned long long)seed);
	}
}

TEST(seeds_default_board_loses_nothing)
{
	sweep("default", 1, 100);
}

TEST(seeds_every_other_board_loses_nothing)
{
	sweep("armv5", 1000, 20);
	sweep("rpi4-like", 2000, 20);
	sweep("arm64-server", 3000, 20);
	sweep("x86-like", 4000, 20);
}

/* What one seed did, to the step and the cache line. */
static void replay(uint64_t seed, struct dmamap_sched_stats *st, struct dmamap_sim_cache_stats *cs,
		   struct dmamap_sim_order_stats *os)
{
	struct dmamap_platform *p = quiet(dmamap_platform_builtin("default", NULL));
	struct sweep_result r;

	REQUIRE(p);
	sweep_seed(p, seed, &r);
	CHECK_EQ(dmamap_sim_sched_stats(p, st), 0);
	CHECK_EQ(dmamap_sim_cache_stats(p, cs), 0);
	CHECK_EQ(dmamap_sim_order_stats(p, os), 0);
	dmamap_platform_destroy(p);
}

TEST(seeds_a_seed_replays_exactly)
{
	struct dmamap_sched_stats a, b, c;
	struct dmamap_sim_cache_stats ca, cb, cc;
	struct dmamap_sim_order_stats oa, ob, oc;

	replay(77, &a, &ca, &oa);
	replay(77, &b, &cb, &ob);
	replay(78, &c, &cc, &oc);
	CHECK(!memcmp(&a, &b, sizeof(a)));
	CHECK(!memcmp(&ca, &cb, sizeof(ca)));
	/* The memory order too: the same stores held and let through at the same points. */
	CHECK(!memcmp(&oa, &ob, sizeof(oa)));
	CHECK(oa.barriers > 0 && oa.stale_reads + oa.writes_held > 0);
	CHECK(oa.stale_reads != oc.stale_reads || oa.writes_held != oc.writes_held ||
	      oa.barriers != oc.barriers);
	CHECK(a.steps != c.steps || a.yields != c.yields || ca.chaos_evictions != cc.chaos_evictions);
	CHECK(ca.chaos_evictions > 0 && a.irqs_delivered > 0);
}
