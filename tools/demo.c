/* SPDX-License-Identifier: MIT */
/*
 * dmamap demo: run every example driver on every device of a board that
 * has its model (memcpy engines, NICs, block devices), check every byte,
 * and show what the DMA layer did for each device (ops and why, traffic,
 * bouncing, cache maintenance, IOMMU pages, interrupts, faults, reports).
 * With --bug the drivers make one classic mistake (the gallery, --bug
 * list) and the demo shows what it costs on each kind of device, what the
 * checker said, and the one-line fix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dmamap/sim.h>
#include "../drivers/gallery.h"
#include "cli.h"

#define MAX_DEVS 256

static void human(char *out, size_t len, uint64_t v)
{
	if (v >= 10ULL << 20)
		snprintf(out, len, "%.1f MiB", v / 1048576.0);
	else if (v >= 10ULL << 10)
		snprintf(out, len, "%.1f KiB", v / 1024.0);
	else
		snprintf(out, len, "%llu B", (unsigned long long)v);
}

struct row {
	char name[DMAMAP_NAME_MAX];
	const char *model, *unit;
	bool coherent;
	char ops[256];
	struct gallery_result g;
	struct dmamap_dmabounce_stats db;
	struct dmamap_iommu_stats io;
	bool has_db, has_io;
	bool tso, threaded; /* the board's memory order, and whether the devices ran threaded */
	bool chaos;        /* what the seeded cache did while this device ran */
	uint64_t chaos_evictions, chaos_prefetches;
};

static bool broke(const struct row *r)
{
	return gallery_broke(&r->g);
}

static bool lost_cpu_bytes(const struct row *r)
{
	return r->g.by_kind[DMAMAP_DBG_CPU_DATA_LOST] || r->g.by_kind[DMAMAP_DBG_DEVICE_DATA_LOST];
}

/* Why a device came through a bug with its data intact: the bug's own reason first. */
static const char *why_survived(const struct row *r, const struct gallery_bug *bug)
{
	bool bounced = r->g.st.bytes_bounced || r->has_db;

	if (bug->ordering && r->tso)
		return "x86's memory order (TSO) on this board: stores reach the device in program order and loads see its writes in order, so no barrier is missed";
	if (bug->ordering && r->threaded)
		return "the devices ran on their own thread, on the host's own memory order: the model of weak ordering steps aside";
	if (bug->ordering)
		return "the device never read those bytes while the store (or its own write) was still on its way: timing; other devices and seeds (--chaos N) show it";

	if (!strcmp(bug->name, "map-error-unchecked") && !r->g.by_kind[DMAMAP_DBG_MAP_ERR_NOT_CHECKED])
		return "no single mapping failed on its path (an IOMMU maps a whole list at once)";
	if (!strcmp(bug->name, "24bit-no-bounce"))
		return "it reaches every buffer: nothing needed a bounce, so no mapping failed";
	if (!strcmp(bug->name, "unmap-before-done"))
		return bounced ? "the bounce slot was not reused before the device's late read" :
				 "a direct mapping leaves the memory where it was: the late read found the bytes (only the checker knows)";
	if (!strcmp(bug->name, "no-dma-api"))
		return "its port is identity-mapped and coherent: the physical address is the device address and no cache is in the way";
	if (r->coherent)
		return "cache-coherent: no cache maintenance to miss, the CPU and device see the same bytes";
	if (bounced)
		return "bounced: the device worked on a copy of its own, made at the map or sync";
	if (lost_cpu_bytes(r))
		return "the device's data was intact; what was lost were the CPU's own bytes";
	return "the memory happened to hold the right bytes here; another board or seed breaks it";
}

/* What the bug did to the data, in one word. */
static const char *damage(const struct row *r)
{
	const struct exercise_result *x = &r->g.r;

	if (x->corrupted || x->wrong_bytes)
		return "CORRUPTED by the bug";
	if (x->lost || x->probe_error)
		return "LOST to the bug";
	return "LEAKED by the bug";
}

static void print_text(const struct row *r, const struct gallery_bug *bug)
{
	char moved[32], mapped[32], bounced[32], cl[32], inv[32];
	const struct dmamap_device_stats *s = &r->g.st;
	const struct exercise_result *x = &r->g.r;

	human(moved, sizeof(moved), s->dev_bytes_written + s->dev_bytes_read);
	human(mapped, sizeof(mapped), s->bytes_mapped);
	human(bounced, sizeof(bounced), s->bytes_bounced);
	human(cl, sizeof(cl), s->cache_bytes_cleaned);
	human(inv, sizeof(inv), s->cache_bytes_invalidated);
	printf("%s  (%s model, driver %s)\n", r->name, r->model,
	       !strcmp(r->model, "nic") ? "nic_drv" : !strcmp(r->model, "blk") ? "blk_drv" :
										"memcpy_dma");
	printf("  ops:      %s\n", r->ops);
	if (x->probe_error) {
		printf("  probe:    failed (%d)\n", x->probe_error);
	}
	printf("  traffic:  %lu %s, %s moved by the device, %s mapped, %s bounced, %llu IOMMU pages, %lu IRQs\n",
	       x->units, r->unit, moved, mapped, bounced,
	       (unsigned long long)s->iommu_pages_mapped, x->irqs);
	printf("  cache:    %s cleaned, %s invalidated", cl, inv);
	if (r->chaos)
		printf("; chaos: %llu dirty lines evicted, %llu lines prefetched",
		       (unsigned long long)r->chaos_evictions, (unsigned long long)r->chaos_prefetches);
	putchar('\n');
	if (r->has_db)
		printf("  dmabounce: %llu of %llu maps bounced (small pool %llu, large %llu, own %llu), %llu B in, %llu B out, %llu failed\n",
		       (unsigned long long)r->db.bounced, (unsigned long long)r->db.map_ops,
		       (unsigned long long)r->db.small_allocs, (unsigned long long)r->db.large_allocs,
		       (unsigned long long)r->db.coherent_allocs,
		       (unsigned long long)r->db.bytes_to_device,
		       (unsigned long long)r->db.bytes_from_device, (unsigned long long)r->db.failures);
	if (r->has_io)
		printf("  iommu:    %llu map / %llu unmap calls, IOTLB %llu hits %llu misses %llu invalidations, %llu queue flushes, %llu translation + %llu permission faults\n",
		       (unsigned long long)r->io.map_calls, (unsigned long long)r->io.unmap_calls,
		       (unsigned long long)r->io.iotlb_hits, (unsigned long long)r->io.iotlb_misses,
		       (unsigned long long)r->io.iotlb_invalidations,
		       (unsigned long long)r->io.queue_flushes,
		       (unsigned long long)r->io.translation_faults,
		       (unsigned long long)r->io.permission_faults);
	printf("  faults:   %llu   checker reports: %u   errors: %llu\n",
	       (unsigned long long)s->faults, r->g.reports, (unsigned long long)s->errors);
	for (unsigned int i = 0; i < r->g.reports && i < 3; i++)
		printf("    %s\n", r->g.first[i]);
	if (r->g.reports > 3)
		printf("    ... %u more\n", r->g.reports - 3);
	printf("  data:     %llu bytes verified, %llu wrong; %lu of %lu %s intact, %lu corrupted, %lu lost%s  [%s]\n",
	       x->bytes, x->wrong_bytes, x->ok, x->units, r->unit, x->corrupted, x->lost,
	       r->g.leaked ? ", mappings left after remove" : "",
	       broke(r) ? (bug ? damage(r) : "FAILED") :
			  (bug ? "survived the bug on this device" : "OK"));
	if (bug && !broke(r))
		printf("  why:      %s\n", why_survived(r, bug));
}

/* A JSON string, through the library's one writer: whole, however long. */
static void json_str(const char *s)
{
	cli_json_write(s);
}

static void print_json(const struct row *r, bool first, const struct gallery_bug *bug)
{
	const struct dmamap_device_stats *s = &r->g.st;
	const struct exercise_result *x = &r->g.r;
	enum dmamap_dbg_kind named = gallery_main_kind(bug, &r->g);
	bool comma = false;

	printf("%s{\"device\":", first ? "" : ",");
	json_str(r->name);
	printf(",\"model\":");
	json_str(r->model);
	printf(",\"ops\":");
	json_str(r->ops);
	printf(",\"applies\":%s,\"broke\":%s,\"named_as\":\"%s\"",
	       r->g.applies ? "true" : "false", broke(r) ? "true" : "false",
	       named ? dmamap_dbg_kind_name(named) : "");
	printf(",\"coherent\":%s,\"unit\":\"%s\",\"transfers\":%lu,\"ok\":%lu,\"corrupted\":%lu,"
	       "\"lost\":%lu,\"failed\":%lu,\"irqs\":%lu,"
	       "\"bytes_moved\":%llu,\"bytes_mapped\":%llu,\"bytes_bounced\":%llu,"
	       "\"cache_bytes_cleaned\":%llu,\"cache_bytes_invalidated\":%llu,"
	       "\"iommu_pages\":%llu,\"faults\":%llu,\"errors\":%llu,"
	       "\"verified\":%llu,\"wrong\":%llu,\"leaked\":%lu,\"reports_by_kind\":{",
	       r->coherent ? "true" : "false", r->unit, x->units, x->ok, x->corrupted, x->lost,
	       x->lost + (x->probe_error != 0), x->irqs,
	       (unsigned long long)(s->dev_bytes_written + s->dev_bytes_read),
	       (unsigned long long)s->bytes_mapped, (unsigned long long)s->bytes_bounced,
	       (unsigned long long)s->cache_bytes_cleaned,
	       (unsigned long long)s->cache_bytes_invalidated,
	       (unsigned long long)s->iommu_pages_mapped, (unsigned long long)s->faults,
	       (unsigned long long)s->errors, x->bytes, x->wrong_bytes, r->g.leaked);
	for (unsigned int k = 1; k < DMAMAP_DBG_KIND_COUNT; k++) {
		if (!r->g.by_kind[k])
			continue;
		printf("%s\"%s\":%u", comma ? "," : "", dmamap_dbg_kind_name((enum dmamap_dbg_kind)k),
		       r->g.by_kind[k]);
		comma = true;
	}
	printf("},\"reports\":[");
	for (unsigned int i = 0; i < r->g.reports && i < 3; i++) {
		if (i)
			putchar(',');
		json_str(r->g.first[i]);
	}
	printf("],\"reports_total\":%u", r->g.reports);
	if (r->chaos)
		printf(",\"chaos_evictions\":%llu,\"chaos_prefetches\":%llu",
		       (unsigned long long)r->chaos_evictions, (unsigned long long)r->chaos_prefetches);
	putchar('}');
}

static void list_bugs(bool json)
{
	if (json) {
		printf("[");
		for (const struct gallery_bug *b = gallery_bugs; b->name; b++) {
			printf("%s{\"name\":", b == gallery_bugs ? "" : ",");
			json_str(b->name);
			printf(",\"what\":");
			json_str(b->what);
			printf(",\"fix\":");
			json_str(b->fix);
			printf(",\"drivers\":[%s%s%s%s%s%s]}", b->mcdma ? "\"memcpy_dma\"" : "",
			       b->mcdma && (b->nic || b->blk) ? "," : "", b->nic ? "\"nic_drv\"" : "",
			       b->nic && b->blk ? "," : "", b->blk ? "\"blk_drv\"" : "",
			       b->pipe ? "\"pipeline\"" : "");
		}
		printf("]\n");
		return;
	}
	printf("The bug gallery: dmamap demo --bug KIND\n\n");
	for (const struct gallery_bug *b = gallery_bugs; b->name; b++) {
		printf("%-30s %s\n", b->name, b->what);
		printf("%-30s drivers: %s%s%s%s\n", "", b->mcdma ? "memcpy_dma " : "",
		       b->nic ? "nic_drv " : "", b->blk ? "blk_drv" : "",
		       b->pipe ? "pipeline (camera, isp, display)" : "");
		printf("%-30s fix: %s\n", "", b->fix);
	}
}

static void print_summary(const struct row *rows, unsigned int n, const struct gallery_bug *bug,
			  bool head)
{
	if (head)
		printf("\nbug %s: %s\n", bug->name, bug->what);
	printf("%-18s %-7s %-10s %-10s %s\n", "device", "model", "coherent", "result", "checker said");
	for (unsigned int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		enum dmamap_dbg_kind k = gallery_main_kind(bug, &r->g);

		if (!r->g.applies)
			continue;
		printf("%-18s %-7s %-10s %-10s %s\n", r->name, r->model, r->coherent ? "yes" : "no",
		       broke(r) ? "BROKE" : "survived",
		       k ? dmamap_dbg_kind_name(k) : "(nothing)");
	}
	if (head)
		printf("fix: %s\n", bug->fix);
}

struct opts {
	struct cli_board board;
	const struct gallery_bug *bug;
	uint64_t chaos;
	bool chaos_given, json, threaded, verbose, list, pipeline;
	unsigned int scale;
};

static int parse(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i < argc; i++) {
		int took;

		if (i == 1 && !strcmp(argv[i], "pipeline")) {
			o->pipeline = true;
			continue;
		}
		took = cli_board_option(&o->board, argc, argv, &i);

		if (took < 0)
			return 2;
		if (took)
			continue;
		if (!strcmp(argv[i], "--json")) {
			o->json = true;
		} else if (!strcmp(argv[i], "--verbose")) {
			o->verbose = true;
		} else if (!strcmp(argv[i], "--threaded")) {
			o->threaded = true;
		} else if (!strcmp(argv[i], "--board") && i + 1 < argc) {
			o->board.name = argv[++i];
		} else if (!strcmp(argv[i], "--bug") && i + 1 < argc) {
			if (!strcmp(argv[++i], "list")) {
				o->list = true; /* after the other options: --json may follow */
				continue;
			}
			o->bug = gallery_find(argv[i]);
			if (!o->bug) {
				fprintf(stderr, "dmamap demo: unknown bug '%s' (bugs:", argv[i]);
				for (const struct gallery_bug *b = gallery_bugs; b->name; b++)
					fprintf(stderr, " %s", b->name);
				fprintf(stderr, ")\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--scale") && i + 1 < argc) {
			u64 v;

			if (cli_number(argv[++i], 1, 1000, false, &v)) {
				fprintf(stderr, "dmamap demo: --scale '%s': needs a number from 1 to 1000\n",
					argv[i]);
				return 2;
			}
			o->scale = (unsigned int)v;
		} else if (!strcmp(argv[i], "--chaos") && i + 1 < argc) {
			if (cli_number(argv[++i], 1, ~0ULL, false, &o->chaos)) {
				fprintf(stderr, "dmamap demo: --chaos '%s': needs a seed from 1 to 2^64-1\n",
					argv[i]);
				return 2;
			}
			o->chaos_given = true;
		} else if (i + 1 == argc && (!strcmp(argv[i], "--board") || !strcmp(argv[i], "--bug") ||
					     !strcmp(argv[i], "--scale") || !strcmp(argv[i], "--chaos"))) {
			fprintf(stderr, "dmamap demo: %s needs a value (dmamap demo --help)\n", argv[i]);
			return 2;
		} else {
			fprintf(stderr, "dmamap demo: unknown option %s (dmamap demo --help)\n", argv[i]);
			return 2;
		}
	}
	if (o->list) {
		list_bugs(o->json);
		return 1;
	}
	return 0;
}

/* Run every device of @p that has a driver here into @rows; the number of rows. */
static unsigned int run_devices(struct dmamap_platform *p, const struct opts *o, struct row *rows,
				bool print, unsigned long *bad)
{
	bool progress = isatty(2);
	double start = cli_now_s();
	unsigned int n = dmamap_device_count(p), nrows = 0;
	struct device *devs[MAX_DEVS];

	if (n > MAX_DEVS)
		n = MAX_DEVS;
	/* Unbinding destroys a device: take them all first. */
	for (unsigned int d = 0; d < n; d++)
		devs[d] = dmamap_device_at(p, d);
	for (unsigned int d = 0; d < n; d++) {
		struct device *dev = devs[d];
		struct row *r = &rows[nrows];

		if (!gallery_driver(dev))
			continue;
		snprintf(r->name, sizeof(r->name), "%s", dev_name(dev));
		r->model = dmamap_device_model_name(dev);
		r->unit = gallery_unit(dev);
		r->coherent = dev_is_dma_coherent(dev);
		r->tso = dmamap_sim_memory_model(p) == DMAMAP_MEMORY_TSO;
		r->threaded = o->threaded;
		cli_describe_ops(dev, r->ops, sizeof(r->ops));
		if (progress && cli_now_s() - start > 1)
			fprintf(stderr, "\r  %s: running %s...%20s", r->name, gallery_driver(dev), "");
		struct dmamap_sim_cache_stats before, after;
		bool counted = !dmamap_sim_cache_stats(p, &before);

		gallery_run(dev, o->bug, o->scale, o->chaos ? o->chaos : 1, &r->g);
		if (o->chaos && counted && !dmamap_sim_cache_stats(p, &after)) {
			r->chaos = true;
			r->chaos_evictions = after.chaos_evictions - before.chaos_evictions;
			r->chaos_prefetches = after.chaos_prefetches - before.chaos_prefetches;
		}
		r->has_db = !dmamap_dmabounce_stats(dev, &r->db);
		r->has_io = !dmamap_iommu_stats(dev, &r->io);
		gallery_unbind(dev, &r->g);
		if (!o->bug || r->g.applies)
			*bad += broke(r);
		nrows++;
		if (!print)
			continue;
		if (o->json)
			print_json(r, nrows == 1, o->bug);
		else if (!o->bug || r->g.applies)
			print_text(r, o->bug), putchar('\n');
	}
	if (progress && cli_now_s() - start > 1)
		fprintf(stderr, "\r%60s\r", "");
	return nrows;
}

static struct dmamap_platform *open_board(const struct opts *o, int *status)
{
	struct dmamap_platform *p = cli_open_board(&o->board, status);

	if (!p)
		return NULL;
	/* Each device's reports are summed up below; --verbose keeps every line on stderr too. */
	if (!o->verbose)
		dmamap_set_log_hook(p, cli_drop_line, NULL);
	if (o->chaos)
		dmamap_sim_set_chaos(p, o->chaos, 0);
	/*
	 * A missing barrier shows on every run in the model's weakest order,
	 * the fixed schedule's; a seed asks for a random (realistic) one.
	 */
	if (o->chaos && (o->chaos_given || !o->bug || !o->bug->ordering))
		dmamap_sim_set_schedule(p, o->chaos);
	return p;
}

/*
 * The point of an ordering bug: the same board with x86's memory order
 * (TSO: stores in program order, loads too), where it stays hidden.
 */
static void compare_tso(const struct opts *o, unsigned int ndevs)
{
	int status;
	struct dmamap_platform *p = open_board(o, &status);
	struct row *rows = calloc(ndevs ? ndevs : 1, sizeof(*rows));
	unsigned long bad = 0;
	unsigned int n;

	if (!p || !rows || dmamap_sim_set_memory_model(p, DMAMAP_MEMORY_TSO)) {
		free(rows);
		if (p)
			dmamap_platform_destroy(p);
		return;
	}
	n = run_devices(p, o, rows, false, &bad);
	if (o->json) {
		printf(",\"tso\":[");
		for (unsigned int i = 0, first = 1; i < n; i++) {
			enum dmamap_dbg_kind k = gallery_main_kind(o->bug, &rows[i].g);

			if (!rows[i].g.applies)
				continue;
			printf("%s{\"name\":", first ? "" : ",");
			json_str(rows[i].name);
			printf(",\"broke\":%s,\"checker\":\"%s\"}", broke(&rows[i]) ? "true" : "false",
			       k ? dmamap_dbg_kind_name(k) : "");
			first = 0;
		}
		printf("]");
	} else {
		printf("\nthe same board with x86's memory order (TSO: every store reaches the device in program order, loads see its writes in order):\n");
		print_summary(rows, n, o->bug, false);
	}
	free(rows);
	dmamap_platform_destroy(p);
}

/* The board line: which devices run (those with a demo driver) and what else is on. */
static void print_header(struct dmamap_platform *p, const struct opts *o, unsigned int n)
{
	unsigned int driven = 0;

	for (unsigned int d = 0; d < n; d++)
		driven += gallery_driver(dmamap_device_at(p, d)) != NULL;
	printf("dmamap demo: board %s, %u devices", o->board.name, n);
	if (driven != n) {
		const char *sep = "";

		printf(", %u with a demo driver (none for ", driven);
		for (unsigned int d = 0; d < n; d++) {
			struct device *dev = dmamap_device_at(p, d);

			if (gallery_driver(dev))
				continue;
			printf("%s%s", sep, dev_name(dev));
			sep = ", ";
		}
		printf(")");
	}
	if (o->bug)
		printf(", bug %s", o->bug->name);
	if (o->chaos)
		printf(", chaos seed %llu", (unsigned long long)o->chaos);
	printf("%s\n\n", o->threaded ? ", device thread" : "");
}

int cli_demo(int argc, char **argv)
{
	struct opts o = { .board = { .name = "default" }, .scale = 1 };
	struct row *rows;
	struct dmamap_platform *p;
	unsigned int n, nrows;
	unsigned long bad = 0;
	int ret = parse(argc, argv, &o);

	if (ret)
		return ret == 1 ? 0 : ret;
	/* A real cache evicts: the gallery runs with seeded evictions unless told a seed. */
	if (o.bug && !o.chaos_given)
		o.chaos = 1;
	p = open_board(&o, &ret);
	if (!p)
		return ret;
	if (o.threaded && dmamap_sim_set_threaded(p, true)) {
		fprintf(stderr, "dmamap demo: cannot start the device thread\n");
		dmamap_platform_destroy(p);
		return 1;
	}
	if (o.pipeline || (o.bug && o.bug->pipe)) {
		ret = cli_demo_pipeline(p, o.board.name, o.bug, o.chaos, o.json, false);
		dmamap_platform_destroy(p);
		return ret;
	}
	n = dmamap_device_count(p);
	if (n > MAX_DEVS)
		n = MAX_DEVS;
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows) {
		dmamap_platform_destroy(p);
		return 1;
	}
	if (o.json)
	{
		/* The board's name may be any file name: escaped like every other string. */
		printf("{\"board\":");
		json_str(o.board.name);
		printf(",\"bug\":\"%s\",\"chaos\":%llu,\"devices\":[", o.bug ? o.bug->name : "none",
		       (unsigned long long)o.chaos);
	}
	else
		print_header(p, &o, n);
	nrows = run_devices(p, &o, rows, true, &bad);
	if (o.json) {
		struct dmamap_swiotlb_stats sw;

		printf("]");
		if (!dmamap_swiotlb_stats(p, NULL, &sw))
			printf(",\"swiotlb\":{\"slots\":%llu,\"used\":%llu,\"high_water\":%llu,"
			       "\"bounced_maps\":%llu,\"bytes_to_device\":%llu,"
			       "\"bytes_from_device\":%llu,\"failures\":%llu}",
			       (unsigned long long)sw.total_slots, (unsigned long long)sw.used_slots,
			       (unsigned long long)sw.high_water, (unsigned long long)sw.bounced_maps,
			       (unsigned long long)sw.bytes_to_device,
			       (unsigned long long)sw.bytes_from_device,
			       (unsigned long long)sw.failures);
		if (o.bug && o.bug->ordering && !o.threaded &&
		    dmamap_sim_memory_model(p) == DMAMAP_MEMORY_WEAK)
			compare_tso(&o, n);
		printf("}\n");
	} else {
		struct dmamap_swiotlb_stats sw;
		struct dmamap_cma_stats cs;

		if (!dmamap_swiotlb_stats(p, NULL, &sw))
			printf("swiotlb: %llu slots of %llu B at 0x%llx, %llu used now, high-water %llu; %llu maps bounced, %llu B copied in, %llu B out, %llu refused\n",
			       (unsigned long long)sw.total_slots, (unsigned long long)sw.slot_size,
			       (unsigned long long)sw.start, (unsigned long long)sw.used_slots,
			       (unsigned long long)sw.high_water, (unsigned long long)sw.bounced_maps,
			       (unsigned long long)sw.bytes_to_device,
			       (unsigned long long)sw.bytes_from_device,
			       (unsigned long long)sw.failures);
		if (!dmamap_cma_stats(p, &cs))
			printf("cma: %llu pages at 0x%llx, %llu used now, high-water %llu, %llu allocations, largest free run %llu pages\n",
			       (unsigned long long)cs.total_pages, (unsigned long long)cs.start,
			       (unsigned long long)cs.used_pages, (unsigned long long)cs.high_water,
			       (unsigned long long)cs.allocs, (unsigned long long)cs.largest_free_run);
		if (o.bug) {
			print_summary(rows, nrows, o.bug, true);
			/* Shown on a weak board only: on TSO (or the host) the first table already is. */
			if (o.bug->ordering && !o.threaded &&
			    dmamap_sim_memory_model(p) == DMAMAP_MEMORY_WEAK)
				compare_tso(&o, n);
		} else {
			if (!o.threaded && cli_demo_pipeline(p, o.board.name, NULL, o.chaos, false, true))
				bad++;
			printf("\n%s\n", bad ? "FAILED: some bytes were wrong" :
					      "all bytes verified on every device");
		}
	}
	free(rows);
	dmamap_platform_destroy(p);
	return bad && !o.bug ? 1 : 0;
}
