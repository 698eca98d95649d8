/* SPDX-License-Identifier: MIT */
/*
 * The bug gallery on the default board, as `dmamap demo --bug` runs it
 * (checker in ownership mode, chaos seed 1): each mistake breaks the
 * devices it should, the coherent ones survive where the cache is the
 * only victim, and the checker names it wherever the data broke.
 */
#include <dmamap/sim.h>
#include "../../drivers/gallery.h"
#include "../helpers.h"

struct outcome {
	char name[DMAMAP_NAME_MAX];
	bool coherent, applies, broke, named;
	struct gallery_result g;
};

/*
 * Run @bug on every device of a fresh default board with memory model
 * @model: chaos seeded by @seed, and the schedule too unless @fixed (the
 * weakest memory order, as the demo runs a missing barrier).
 */
static unsigned int run_bug_with(const struct gallery_bug *bug, struct outcome *out, uint64_t seed,
				 bool fixed, enum dmamap_memory_model model)
{
	struct dmamap_platform *p = quiet(dmamap_platform_builtin("default", NULL));
	struct device *devs[32];
	unsigned int n;

	if (!p || dmamap_sim_set_memory_model(p, model)) {
		dmamap_platform_destroy(p);
		return 0;
	}
	dmamap_sim_set_chaos(p, seed, 0);
	if (!fixed)
		dmamap_sim_set_schedule(p, seed);
	n = dmamap_device_count(p);
	if (n > 32)
		n = 32;
	for (unsigned int i = 0; i < n; i++)
		devs[i] = dmamap_device_at(p, i);
	for (unsigned int i = 0; i < n; i++) {
		struct outcome *o = &out[i];

		snprintf(o->name, sizeof(o->name), "%s", dev_name(devs[i]));
		o->coherent = dev_is_dma_coherent(devs[i]);
		gallery_run(devs[i], bug, 1, seed, &o->g);
		gallery_unbind(devs[i], &o->g);
		o->applies = o->g.applies;
		o->broke = gallery_broke(&o->g);
		o->named = gallery_named(bug, &o->g);
	}
	dmamap_platform_destroy(p);
	return n;
}

static unsigned int run_bug_seeded(const struct gallery_bug *bug, struct outcome *out,
				   uint64_t seed)
{
	return run_bug_with(bug, out, seed, false, DMAMAP_MEMORY_WEAK);
}

/* As the demo runs it: seed 1, and a missing barrier in the weakest order (the fixed schedule). */
static unsigned int run_bug(const struct gallery_bug *bug, struct outcome *out)
{
	return run_bug_with(bug, out, 1, bug && bug->ordering, DMAMAP_MEMORY_WEAK);
}

static const struct outcome *find(const struct outcome *o, unsigned int n, const char *name)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(o[i].name, name))
			return &o[i];
	return NULL;
}

/* @name broke (or survived) under @bug, as it must. */
static void expect(const struct gallery_bug *bug, const struct outcome *o, unsigned int n,
		   const char *name, bool broke)
{
	const struct outcome *d = find(o, n, name);

	CHECK_MSG(d && d->applies, "%s: no %s here", bug->name, name);
	if (!d)
		return;
	CHECK_MSG(d->broke == broke, "%s on %s: %s (%lu ok, %lu corrupted, %lu lost, %llu bytes wrong)",
		  bug->name, name, d->broke ? "broke" : "survived", d->g.r.ok, d->g.r.corrupted,
		  d->g.r.lost, d->g.r.wrong_bytes);
}

/*
 * A CPU read before the sync for the CPU is named only by ownership mode's
 * trap, which takes whole host pages: on a 16K or 64K-page host the NIC
 * driver's one-page receive buffers are smaller than one, and are not
 * guarded (docs/portability.md).
 */
static bool unguardable(const struct gallery_bug *bug, const struct outcome *o)
{
	return host_page() > NICDRV_RX_BUF && !strcmp(bug->name, "missing-sync-for-cpu") &&
	       !strncmp(o->name, "nic", 3);
}

TEST(gallery_every_broken_device_is_named_by_the_checker)
{
	struct outcome o[32];

	for (const struct gallery_bug *b = gallery_bugs; b->name; b++) {
		unsigned int n, applied = 0, broke = 0;

		/* The pipeline's own (tests/dmabuf/test_dmabuf_pipeline.c). */
		if (b->pipe)
			continue;
		n = run_bug(b, o);

		REQUIRE(n == 17);
		for (unsigned int i = 0; i < n; i++) {
			if (!o[i].applies)
				continue;
			applied++;
			broke += o[i].broke;
			if (o[i].broke && !o[i].named && unguardable(b, &o[i]))
				printf("# %s broke %s, not named here: its %d-byte buffers are smaller than this host's %zu-byte page, the unit ownership mode guards\n",
				       b->name, o[i].name, NICDRV_RX_BUF, host_page());
			else if (o[i].broke)
				CHECK_MSG(o[i].named, "%s broke %s and the checker did not name it",
					  b->name, o[i].name);
		}
		CHECK_MSG(applied >= 4, "%s applies to %u devices", b->name, applied);
		CHECK_MSG(broke > 0, "%s broke nothing", b->name);
	}
}

TEST(gallery_coherent_devices_survive_what_only_the_cache_punishes)
{
	static const char *const bugs[] = { "missing-sync-for-cpu", "missing-sync-for-device",
					    "missing-sync", "wrong-direction",
					    "cpu-write-while-mapped", "shared-cacheline",
					    "rx-no-sync-for-device" };
	struct outcome o[32];

	for (unsigned int b = 0; b < sizeof(bugs) / sizeof(bugs[0]); b++) {
		const struct gallery_bug *bug = gallery_find(bugs[b]);
		unsigned int n = run_bug(bug, o);

		for (unsigned int i = 0; i < n; i++)
			if (o[i].applies && o[i].coherent)
				expect(bug, o, n, o[i].name, false);
	}
}

TEST(gallery_non_coherent_devices_break_on_missing_maintenance)
{
	struct outcome o[32];
	const struct gallery_bug *bug;
	unsigned int n;

	bug = gallery_find("missing-sync-for-cpu");
	n = run_bug(bug, o);
	for (unsigned int i = 0; i < n; i++)
		if (o[i].applies && !o[i].coherent)
			expect(bug, o, n, o[i].name, true);
	bug = gallery_find("wrong-direction");
	n = run_bug(bug, o);
	for (unsigned int i = 0; i < n; i++)
		if (o[i].applies && !o[i].coherent)
			expect(bug, o, n, o[i].name, true);
	bug = gallery_find("missing-sync-for-device");
	n = run_bug(bug, o);
	expect(bug, o, n, "dma-nc", true);
	expect(bug, o, n, "dma-24", true); /* the bounce copy was made before the CPU filled it */
	/* A bounced buffer has its own lines: sharing one with a neighbour is harmless there. */
	bug = gallery_find("shared-cacheline");
	n = run_bug(bug, o);
	expect(bug, o, n, "dma-nc", true);
	expect(bug, o, n, "dma-24", false);
	expect(bug, o, n, "ixp-pci", false);
}

TEST(gallery_early_unmap_breaks_behind_an_iommu_and_is_named_everywhere)
{
	const struct gallery_bug *bug = gallery_find("unmap-before-done");
	struct outcome o[32];
	unsigned int n = run_bug(bug, o);

	expect(bug, o, n, "dma-iommu", true);
	expect(bug, o, n, "nic-iommu", true);
	expect(bug, o, n, "blk-iommu", true);
	/* Direct and coherent: the memory is still there, only the checker knows. */
	expect(bug, o, n, "dma-coh", false);
	for (unsigned int i = 0; i < n; i++)
		if (o[i].applies)
			CHECK_MSG(o[i].g.by_kind[DMAMAP_DBG_DEVICE_ACCESS_UNMAPPED],
				  "%s: no device-access-unmapped", o[i].name);
}

TEST(gallery_physical_addresses_break_every_translated_device)
{
	const struct gallery_bug *bug = gallery_find("no-dma-api");
	struct outcome o[32];
	unsigned int n = run_bug(bug, o);

	for (unsigned int i = 0; i < n; i++) {
		if (!o[i].applies)
			continue;
		/* Only the identity-mapped coherent port takes a physical address as is. */
		expect(bug, o, n, o[i].name, !o[i].coherent);
	}
	CHECK(find(o, n, "nic-24")->g.by_kind[DMAMAP_DBG_DEVICE_FAULT] > 0);
}

TEST(gallery_nic_descriptor_and_recycling_bugs)
{
	const struct gallery_bug *bug = gallery_find("descriptor-while-device-owns");
	struct outcome o[32];
	unsigned int n = run_bug(bug, o);

	for (unsigned int i = 0; i < n; i++) {
		if (!o[i].applies)
			continue;
		CHECK_MSG(o[i].g.r.lost > 0, "%s lost no frame", o[i].name);
		CHECK(o[i].g.by_kind[DMAMAP_DBG_DESCRIPTOR_WHILE_DEVICE_OWNS] > 0);
	}
	/*
	 * A recycled buffer is named always; it breaks where an eviction
	 * writes the CPU's line back over the next frame, which takes the
	 * right seed (and memory layout): over a few seeds, some NIC breaks.
	 */
	bug = gallery_find("rx-no-sync-for-device");
	for (uint64_t seed = 1; seed <= 6; seed++) {
		bool broke = false;

		n = run_bug_seeded(bug, o, seed);
		for (unsigned int i = 0; i < n; i++) {
			if (!o[i].applies)
				continue;
			CHECK_MSG(o[i].g.by_kind[DMAMAP_DBG_DEVICE_ACCESS_CPU_OWNS] > 0,
				  "%s: recycled buffer not named", o[i].name);
			CHECK_MSG(!o[i].broke || !o[i].coherent, "%s broke", o[i].name);
			broke |= o[i].broke;
		}
		if (broke)
			break;
		CHECK_MSG(seed < 6, "no NIC broke in 6 seeds");
	}
}

TEST(gallery_leaks_and_unchecked_handles_are_named)
{
	const struct gallery_bug *bug = gallery_find("leak-at-remove");
	struct outcome o[32];
	unsigned int n = run_bug(bug, o);

	for (unsigned int i = 0; i < n; i++) {
		if (!o[i].applies)
			continue;
		CHECK_MSG(o[i].g.leaked > 0 && o[i].g.by_kind[DMAMAP_DBG_LEAK] == 1,
			  "%s: %lu left, %u leak reports", o[i].name, o[i].g.leaked,
			  o[i].g.by_kind[DMAMAP_DBG_LEAK]);
		CHECK_EQ(o[i].g.r.ok, o[i].g.r.units);
	}
	bug = gallery_find("map-error-unchecked");
	n = run_bug(bug, o);
	for (unsigned int i = 0; i < n; i++)
		if (o[i].applies && strcmp(o[i].name + 4, "iommu") && strncmp(o[i].name, "blk", 3))
			CHECK_MSG(o[i].broke && o[i].g.by_kind[DMAMAP_DBG_MAP_ERR_NOT_CHECKED],
				  "%s: unchecked failed mapping not seen", o[i].name);
}

/* The correct drivers under the gallery's conditions: nothing broke, nothing said. */
TEST(gallery_correct_drivers_are_silent)
{
	struct outcome o[32];
	unsigned int n = run_bug(NULL, o);

	for (unsigned int i = 0; i < n; i++) {
		if (!o[i].applies)
			continue;
		CHECK_MSG(!o[i].broke && o[i].g.reports == 0 && o[i].g.r.ok == o[i].g.r.units,
			  "%s: %lu of %lu ok, %u reports (%s)", o[i].name, o[i].g.r.ok,
			  o[i].g.r.units, o[i].g.reports, o[i].g.first[0]);
	}
}

/* Without a bounce path only the devices that cannot reach the buffers fail to map, and lose. */
TEST(gallery_24bit_device_without_bounce_path)
{
	const struct gallery_bug *bug = gallery_find("24bit-no-bounce");
	struct outcome o[32];
	unsigned int n = run_bug(bug, o);

	for (unsigned int i = 0; i < n; i++) {
		bool narrow = strstr(o[i].name, "-24") != NULL;

		if (!o[i].applies || !strcmp(o[i].name, "ixp-pci"))
			continue;
		CHECK_MSG(o[i].broke == narrow, "%s: %s", o[i].name, o[i].broke ? "broke" : "survived");
		/* The refused mappings are named where they happen (probe's RX buffers included). */
		if (narrow)
			CHECK_MSG(o[i].g.by_kind[DMAMAP_DBG_UNREACHABLE] > 0, "%s: no unreachable report",
				  o[i].name);
	}
}

TEST(gallery_missing_barriers_break_a_weak_board_and_hide_under_tso)
{
	struct outcome o[32];
	unsigned int bugs = 0;

	for (const struct gallery_bug *b = gallery_bugs; b->name; b++) {
		unsigned int n;

		if (!b->ordering)
			continue;
		bugs++;
		/* The weakest order (fixed schedule): every NIC breaks, and the checker says why. */
		n = run_bug_with(b, o, 1, true, DMAMAP_MEMORY_WEAK);
		REQUIRE(n == 17);
		for (unsigned int i = 0; i < n; i++) {
			if (!o[i].applies)
				continue;
			CHECK_MSG(o[i].broke && o[i].g.by_kind[b->names[0]],
				  "%s on %s: %s, %u %s reports", b->name, o[i].name,
				  o[i].broke ? "broke" : "survived", o[i].g.by_kind[b->names[0]],
				  dmamap_dbg_kind_name(b->names[0]));
		}
		/* x86's order: the same driver works, and nothing is said. */
		n = run_bug_with(b, o, 1, true, DMAMAP_MEMORY_TSO);
		REQUIRE(n == 17);
		for (unsigned int i = 0; i < n; i++)
			CHECK_MSG(!o[i].broke && !o[i].g.reports, "%s on %s under TSO: %s, %u reports",
				  b->name, o[i].name, o[i].broke ? "broke" : "survived", o[i].g.reports);
	}
	CHECK_EQ(bugs, 3);
}
