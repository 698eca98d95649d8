/* SPDX-License-Identifier: MIT */
/*
 * The media pipeline on the default board (drivers/pipeline.c): camera,
 * ISP behind the SMMU, CPU overlay, 32-bit display, one shared buffer.
 * Allocated for its devices, every frame the display scans out is right,
 * nothing is copied or bounced and the checker says nothing; allocated
 * from the system heap, the frames are still right but the camera and the
 * display each need a CPU copy per frame and the display's mapping
 * bounced. Each pipeline bug is caught by name, whatever the seed.
 */
#include <dmamap/dmamap.h>
#include "../helpers.h"
#include "../../drivers/gallery.h"

#define FRAME (96 * 1024)
#define FRAMES 4

static int run(struct dmamap_platform *p, enum pipe_alloc alloc, enum pipe_bug bug,
	       struct pipe_result *r)
{
	return pipe_run(p, "camera", "isp", "display", FRAME, FRAMES, alloc, bug, r);
}

TEST(dmabuf_pipeline_allocated_for_its_devices_copies_nothing)
{
	struct dmamap_platform *p = sim_board("default");
	struct pipe_result r;

	REQUIRE(p);
	REQUIRE_MSG(run(p, PIPE_ALLOC_FOR_DEVICES, PIPE_BUG_NONE, &r) == 0, "%s", r.why);
	CHECK_EQ(r.frames, FRAMES);
	CHECK_EQ(r.frames_wrong, 0);
	CHECK_EQ(r.bytes_copied, 0);
	CHECK_EQ(r.bytes_bounced, 0);
	for (int i = 0; i < 3; i++)
		CHECK(!r.own_buffer[i]);
	/* The CPU's bracket is the only maintenance: a clean and an invalidate per frame at most. */
	CHECK(r.cache_bytes > 0);
	CHECK(r.fence_waits > 0);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}

TEST(dmabuf_pipeline_system_heap_costs_copies_and_bounces)
{
	struct dmamap_platform *p = sim_board("default");
	struct pipe_result r;

	REQUIRE(p);
	REQUIRE_MSG(run(p, PIPE_ALLOC_SYSTEM_HEAP, PIPE_BUG_NONE, &r) == 0, "%s", r.why);
	CHECK_EQ(r.frames, FRAMES);
	CHECK_EQ(r.frames_wrong, 0);
	CHECK(r.own_buffer[2]);
	CHECK(!r.own_buffer[1]);
	CHECK(r.bytes_bounced >= FRAME);
	CHECK(r.bytes_copied >= (uint64_t)FRAMES * FRAME);
	printf("# system heap: copied %llu, bounced %llu, cache %llu; segments %u %u %u\n",
	       (unsigned long long)r.bytes_copied, (unsigned long long)r.bytes_bounced,
	       (unsigned long long)r.cache_bytes, r.segments[0], r.segments[1], r.segments[2]);
	DESTROY_CLEAN(p);
}

/* Each pipeline bug of the gallery breaks frames on some seed, and every run that breaks is named. */
TEST(dmabuf_pipeline_gallery_bugs_break_and_are_named)
{
	for (const struct gallery_bug *b = gallery_bugs; b->name; b++) {
		unsigned int broke = 0, named = 0;

		if (!b->pipe)
			continue;
		for (uint64_t seed = 1; seed <= 4; seed++) {
			struct dmamap_platform *p = quiet_board();
			struct gallery_pipe_result g;
			bool is_named = false;

			REQUIRE(p);
			dmamap_sim_set_chaos(p, seed, 0);
			REQUIRE(gallery_run_pipeline(p, b, PIPE_ALLOC_FOR_DEVICES, 4, seed, &g) == 0);
			for (int k = 0; k < 3; k++)
				is_named |= b->names[k] && g.by_kind[b->names[k]];
			broke += g.r.frames_wrong != 0;
			named += is_named;
			CHECK_MSG(!g.r.frames_wrong || is_named, "%s, seed %llu: frames wrong, nothing named",
				  b->name, (unsigned long long)seed);
			dmamap_platform_destroy(p);
		}
		CHECK_MSG(broke > 0, "%s broke no frame in 4 seeds", b->name);
		CHECK_MSG(named > 0, "%s was never named", b->name);
	}
}

/* The correct pipeline under the gallery's conditions (ownership mode, chaos, seeded schedule): silent. */
TEST(dmabuf_pipeline_correct_is_silent_under_seeds)
{
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct dmamap_platform *p = quiet_board();
		struct gallery_pipe_result g;

		REQUIRE(p);
		dmamap_sim_set_chaos(p, seed, 0);
		REQUIRE(gallery_run_pipeline(p, NULL, PIPE_ALLOC_FOR_DEVICES, 4, seed, &g) == 0);
		CHECK_EQ(g.r.frames_wrong, 0);
		CHECK_MSG(g.reports == 0, "seed %llu: %s", (unsigned long long)seed, g.first[0]);
		dmamap_platform_destroy(p);
	}
}

/*
 * Fences under seeded schedules: one board, a small frame through the
 * pipeline under each of 10,000 device schedules. With the waits, no frame
 * is ever wrong and nothing is reported; without the ISP's wait, the
 * checker names every run whose frame came out wrong, and some do.
 */
#define SEEDS 10000

TEST(dmabuf_pipeline_fences_hold_under_10000_seeds)
{
	struct dmamap_platform *p = quiet_board();
	unsigned long wrong = 0, wrong_named = 0, named = 0, correct_bad = 0;
	const struct gallery_bug *bug = gallery_find("missing-fence-wait");

	REQUIRE(p && bug);
	for (uint64_t seed = 1; seed <= SEEDS; seed += tap_sample()) {
		struct gallery_pipe_result g;

		REQUIRE(gallery_run_pipeline_sized(p, NULL, 8192, 1, seed, &g) == 0);
		correct_bad += g.r.frames_wrong || g.reports;
		REQUIRE(gallery_run_pipeline_sized(p, bug, 8192, 1, seed, &g) == 0);
		wrong += g.r.frames_wrong != 0;
		named += g.by_kind[DMAMAP_DBG_DMABUF_FENCE_NOT_WAITED] != 0;
		wrong_named += g.r.frames_wrong && g.by_kind[DMAMAP_DBG_DMABUF_FENCE_NOT_WAITED];
	}
	printf("# %d seeds, every %u: correct pipeline %lu bad; without the wait %lu frames wrong, %lu runs named\n",
	       SEEDS, tap_sample(), correct_bad, wrong, named);
	CHECK_EQ(correct_bad, 0);
	CHECK(wrong > 0);
	CHECK_EQ(wrong_named, wrong);
	dmamap_platform_destroy(p);
}

/* On the device thread: interrupts there signal the fences, the waits are real; every frame right. */
TEST(dmabuf_pipeline_on_the_device_thread)
{
	struct dmamap_platform *p = sim_board("default");
	struct pipe_result r;

	REQUIRE(p);
	REQUIRE(dmamap_sim_set_threaded(p, true) == 0);
	REQUIRE_MSG(run(p, PIPE_ALLOC_FOR_DEVICES, PIPE_BUG_NONE, &r) == 0, "%s", r.why);
	CHECK_EQ(r.frames, FRAMES);
	CHECK_EQ(r.frames_wrong, 0);
	CHECK_EQ(r.bytes_copied + r.bytes_bounced, 0);
	dmamap_sim_set_threaded(p, false);
	EXPECT_NO_REPORTS();
	DESTROY_CLEAN(p);
}
