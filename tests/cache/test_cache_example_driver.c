/* SPDX-License-Identifier: MIT */
/*
 * The example driver (drivers/memcpy_dma.c) on the simulated cache: correct,
 * it copies every byte on every device, single and sg; with each classic
 * bug (missing sync, wrong direction, CPU write while mapped, shared cache
 * line) the non-coherent device shows exactly the damage the bug causes and
 * the coherent one survives it.
 *
 * Every check compares bytes the device read (dmamap_device_read), bytes
 * the CPU reads through its pointer, or the memory view probed with
 * dmamap_sim_mem_read(), against patterns the test wrote: a missing clean or
 * invalidate in the library shows up as stale bytes, never as a counter.
 */
#include "../../drivers/memcpy_dma.h"
#include "../helpers.h"

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

/*
 * One mcdma_copy_buf() with @bug, from buffers whose old contents are
 * known. Every bug is silent: the driver's call returns 0.
 */
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
	CHECK_MSG(r->ret == 0, "%s: mcdma_copy_buf() with bug %d returned %d", dname, bug,
		  r->ret);
	mcdma_remove(&m);
	return true;
}

/*
 * What the driver means the CPU to read after a run with @bug: the
 * device's copy, and the stamp where the driver stamps the destination.
 */
static void meant(const struct bug_run *r, enum mcdma_bug bug, uint8_t *want)
{
	memcpy(want, r->fill, BUG_LEN);
	if (bug == MCDMA_BUG_CPU_WRITE_WHILE_MAPPED)
		memset(want, MCDMA_STAMP, MCDMA_STAMP_LEN);
}

/*
 * The same bug on dma-coh, which shares the CPU's view: the CPU reads what
 * the driver means it to and no data is lost.
 */
static void coherent_unharmed(struct dmamap_platform *p, enum mcdma_bug bug,
			      struct bug_run *r)
{
	uint8_t want[BUG_LEN];

	REQUIRE(bug_run(p, COH, bug, r));
	meant(r, bug, want);
	CHECK_MSG(!memcmp(r->seen, want, BUG_LEN), "coh, bug %d: %zu bytes wrong", bug,
		  ndiff(r->seen, want, BUG_LEN));
	CHECK_EQ(sim_losses(p), 0);
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
	CHECK_MSG(!memcmp(r.seen, r.old_dst, BUG_LEN),
		  "nc: unsynced read should see the stale destination (%zu differ)",
		  ndiff(r.seen, r.old_dst, BUG_LEN));
	CHECK_MSG(!memcmp(r.dst, r.old_src, BUG_LEN),
		  "nc: the device should have copied the stale source (%zu differ)",
		  ndiff(r.dst, r.old_src, BUG_LEN));
	CHECK(ndiff(r.seen, r.fill, BUG_LEN) == BUG_LEN);

	coherent_unharmed(p, MCDMA_BUG_MISSING_SYNC, &r);
	CHECK(!memcmp(r.dst, r.fill, BUG_LEN));
	dmamap_platform_destroy(p);
}

TEST(cache_mcdma_bug_wrong_direction)
{
	struct dmamap_platform *p = builtin_board("default");
	struct bug_run r;

	REQUIRE(p);
	/* dma-nc: a TO_DEVICE unmap does not invalidate: the CPU keeps its old copy. */
	REQUIRE(bug_run(p, NC, MCDMA_BUG_WRONG_DIRECTION, &r));
	CHECK_MSG(!memcmp(r.seen, r.old_dst, BUG_LEN),
		  "nc: CPU should see its stale copy (%zu differ)",
		  ndiff(r.seen, r.old_dst, BUG_LEN));
	CHECK_MSG(mem_is(p, r.dst, r.fill, BUG_LEN),
		  "nc: the device's bytes should be in memory, unseen by the CPU");

	coherent_unharmed(p, MCDMA_BUG_WRONG_DIRECTION, &r);
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
	meant(&r, MCDMA_BUG_CPU_WRITE_WHILE_MAPPED, want);
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

	coherent_unharmed(p, MCDMA_BUG_CPU_WRITE_WHILE_MAPPED, &r);
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
		overlay(want, r.fill, r.old_dst, BUG_LEN, edge, BUG_LEN - edge);
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

	coherent_unharmed(p, MCDMA_BUG_SHARED_CACHELINE, &r);
	CHECK_EQ(r.dst[BUG_LEN], (uint8_t)(r.field ^ 0xff));
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
