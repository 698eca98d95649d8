/* SPDX-License-Identifier: MIT */
/*
 * dmamap demo pipeline: one frame buffer through a camera, an ISP behind
 * an IOMMU, the CPU and a 32-bit display, allocated for its devices and
 * then naively from the system heap, the costs side by side; and the
 * gallery's pipeline bugs, each run on the correct allocation.
 */
#include <stdio.h>
#include <string.h>
#include "../drivers/gallery.h"
#include "cli.h"

#define FRAMES 8u
#define FRAME_BYTES (640u * 480u * 2u)

static void human(char *out, size_t len, uint64_t bytes)
{
	if (bytes >= 10u << 20)
		snprintf(out, len, "%.1f MiB", (double)bytes / (1 << 20));
	else if (bytes >= 10u << 10)
		snprintf(out, len, "%llu KiB", (unsigned long long)(bytes >> 10));
	else
		snprintf(out, len, "%llu B", (unsigned long long)bytes);
}

static void segments(char *out, size_t len, const struct gallery_pipe_result *g)
{
	snprintf(out, len, "%s %u (%u), %s %u (%u), %s %u (%u)", g->devices[0], g->r.ranges[0],
		 g->r.segments[0], g->devices[1], g->r.ranges[1], g->r.segments[1], g->devices[2],
		 g->r.ranges[2], g->r.segments[2]);
}

static void failed_imports(char *out, size_t len, const struct gallery_pipe_result *g)
{
	size_t at = 0;

	out[0] = 0;
	for (int i = 0; i < 3; i++)
		if (g->r.own_buffer[i])
			at += (size_t)snprintf(out + at, len - at, "%s%s", at ? ", " : "", g->devices[i]);
	if (!at)
		snprintf(out, len, "none");
}

static void checker_said(char *out, size_t len, const struct gallery_pipe_result *g)
{
	size_t at = 0;

	out[0] = 0;
	for (unsigned int k = 1; k < DMAMAP_DBG_KIND_COUNT && at < len; k++)
		if (g->by_kind[k])
			at += (size_t)snprintf(out + at, len - at, "%s%s x%u", at ? ", " : "",
					       dmamap_dbg_kind_name((enum dmamap_dbg_kind)k), g->by_kind[k]);
	if (!at)
		snprintf(out, len, "clean");
}

static void row(const char *label, const char *a, const char *b)
{
	printf("%-32s %-44s %s\n", label, a, b);
}

static void json_side(const char *name, const struct gallery_pipe_result *g)
{
	printf("\"%s\":{\"heap\":", name);
	cli_json_write(g->r.heap);
	printf(",\"segments\":[%u,%u,%u],\"ranges\":[%u,%u,%u],\"own_buffer\":[%s,%s,%s],\"frames\":%u,"
	       "\"frames_wrong\":%u,\"bytes_copied\":%llu,\"bytes_bounced\":%llu,"
	       "\"cache_bytes\":%llu,\"fence_waits\":%llu,\"reports\":%u,\"error\":",
	       g->r.segments[0], g->r.segments[1], g->r.segments[2], g->r.ranges[0], g->r.ranges[1],
	       g->r.ranges[2], g->r.own_buffer[0] ? "true" : "false", g->r.own_buffer[1] ? "true" : "false",
	       g->r.own_buffer[2] ? "true" : "false", g->r.frames, g->r.frames_wrong,
	       (unsigned long long)g->r.bytes_copied, (unsigned long long)g->r.bytes_bounced,
	       (unsigned long long)g->r.cache_bytes, (unsigned long long)g->r.fence_waits,
	       g->reports);
	cli_json_write(g->r.err ? g->r.why : "");
	printf(",\"reports_by_kind\":{");
	for (unsigned int k = 1, n = 0; k < DMAMAP_DBG_KIND_COUNT; k++)
		if (g->by_kind[k])
			printf("%s\"%s\":%u", n++ ? "," : "", dmamap_dbg_kind_name((enum dmamap_dbg_kind)k),
			       g->by_kind[k]);
	printf("}}");
}

/* Both allocations side by side. */
static int side_by_side(struct dmamap_platform *p, const char *board, uint64_t seed, bool json,
			bool brief)
{
	static struct gallery_pipe_result g[2];
	char a[400], b[400];
	int ret = 0;

	for (int i = 0; i < 2; i++) {
		int err = gallery_run_pipeline(p, NULL, i ? PIPE_ALLOC_SYSTEM_HEAP : PIPE_ALLOC_FOR_DEVICES,
					       FRAMES, seed, &g[i]);

		if (err == -ENODEV) {
			if (!brief)
				fprintf(stderr, "dmamap demo pipeline: board %s has no camera, isp and display\n",
					board);
			return brief ? 0 : 1;
		}
		if (err || g[i].r.frames_wrong)
			ret = 1;
	}
	if (json) {
		printf("{\"board\":");
		cli_json_write(board);
		printf(",\"devices\":[\"%s\",\"%s\",\"%s\"],\"frame_bytes\":%u,\"frames\":%u,",
		       g[0].devices[0], g[0].devices[1], g[0].devices[2], FRAME_BYTES, FRAMES);
		json_side("for_devices", &g[0]);
		putchar(',');
		json_side("system_heap", &g[1]);
		printf("}\n");
		return ret;
	}
	if (brief) {
		char c0[32], c1[32], b1[32];

		human(c0, sizeof(c0), g[0].r.bytes_copied + g[0].r.bytes_bounced);
		human(c1, sizeof(c1), g[1].r.bytes_copied);
		human(b1, sizeof(b1), g[1].r.bytes_bounced);
		printf("\npipeline %s -> %s -> CPU -> %s, one shared buffer (dmamap demo pipeline):\n",
		       g[0].devices[0], g[0].devices[1], g[0].devices[2]);
		printf("  allocated for its devices (%s): %u of %u frames right, %s copied or bounced\n",
		       g[0].r.heap, g[0].r.frames - g[0].r.frames_wrong, g[0].r.frames, c0);
		printf("  from the system heap:           %u of %u frames right, %s copied by the CPU, %s bounced\n",
		       g[1].r.frames - g[1].r.frames_wrong, g[1].r.frames, c1, b1);
		return ret;
	}
	printf("dmamap demo pipeline: board %s: %s -> %s -> CPU overlay -> %s, %u frames of %u KiB\n\n",
	       board, g[0].devices[0], g[0].devices[1], g[0].devices[2], FRAMES, FRAME_BYTES / 1024);
	row("", "allocated for its devices", "system heap");
	row("memory from", g[0].r.heap, g[1].r.heap);
	segments(a, sizeof(a), &g[0]);
	segments(b, sizeof(b), &g[1]);
	row("address ranges (sg entries)", a, b);
	failed_imports(a, sizeof(a), &g[0]);
	failed_imports(b, sizeof(b), &g[1]);
	row("devices on a copy of their own", a, b);
	human(a, sizeof(a), g[0].r.bytes_copied);
	human(b, sizeof(b), g[1].r.bytes_copied);
	row("bytes copied by the CPU", a, b);
	human(a, sizeof(a), g[0].r.bytes_bounced);
	human(b, sizeof(b), g[1].r.bytes_bounced);
	row("bytes bounced", a, b);
	human(a, sizeof(a), g[0].r.cache_bytes);
	human(b, sizeof(b), g[1].r.cache_bytes);
	row("cache maintenance", a, b);
	snprintf(a, sizeof(a), "%llu", (unsigned long long)g[0].r.fence_waits);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)g[1].r.fence_waits);
	row("fence waits", a, b);
	snprintf(a, sizeof(a), "%u of %u", g[0].r.frames - g[0].r.frames_wrong, g[0].r.frames);
	snprintf(b, sizeof(b), "%u of %u", g[1].r.frames - g[1].r.frames_wrong, g[1].r.frames);
	row("frames scanned out right", a, b);
	checker_said(a, sizeof(a), &g[0]);
	checker_said(b, sizeof(b), &g[1]);
	row("checker", a, b);
	for (int i = 0; i < 2; i++) {
		if (g[i].r.err)
			printf("%s: %s\n", i ? "system heap" : "for its devices", g[i].r.why);
		if (g[i].reports)
			printf("%s, first report: %s\n", i ? "system heap" : "for its devices",
			       g[i].first[0]);
	}
	return ret;
}

/* One of the gallery's pipeline bugs on the correct allocation. */
static int with_bug(struct dmamap_platform *p, const char *board, const struct gallery_bug *bug,
		    uint64_t seed, bool json)
{
	static struct gallery_pipe_result g;
	enum dmamap_dbg_kind named = 0;
	int err = gallery_run_pipeline(p, bug, PIPE_ALLOC_FOR_DEVICES, FRAMES, seed, &g);
	bool broke;

	if (err == -ENODEV) {
		fprintf(stderr, "dmamap demo: bug %s needs a board with a camera, an isp and a display\n",
			bug->name);
		return 1;
	}
	broke = err || g.r.frames_wrong;
	for (int i = 0; i < 3 && !named; i++)
		if (bug->names[i] && g.by_kind[bug->names[i]])
			named = bug->names[i];
	if (json) {
		printf("{\"board\":");
		cli_json_write(board);
		printf(",\"bug\":\"%s\",\"chaos\":%llu,\"broke\":%s,\"named_as\":\"%s\",", bug->name,
		       (unsigned long long)seed, broke ? "true" : "false",
		       named ? dmamap_dbg_kind_name(named) : "");
		json_side("pipeline", &g);
		printf("}\n");
		return 0;
	}
	printf("dmamap demo: board %s, pipeline %s -> %s -> CPU overlay -> %s, %u frames, bug %s, chaos seed %llu\n",
	       board, g.devices[0], g.devices[1], g.devices[2], FRAMES, bug->name,
	       (unsigned long long)seed);
	printf("\nbug %s: %s\n", bug->name, bug->what);
	printf("%-34s %-10s %s\n", "pipeline", "result", "checker said");
	printf("%-34s %-10s %s\n", "camera -> isp -> CPU -> display", broke ? "BROKE" : "survived",
	       named ? dmamap_dbg_kind_name(named) : "(nothing)");
	printf("  frames:   %u of %u scanned out wrong%s%s\n", g.r.frames_wrong, g.r.frames,
	       g.r.err ? "; stopped: " : "", g.r.err ? g.r.why : "");
	for (unsigned int i = 0; i < g.reports && i < 3; i++)
		printf("  checker:  %s\n", g.first[i]);
	if (g.reports > 3)
		printf("            ... %u more\n", g.reports - 3);
	printf("fix: %s\n", bug->fix);
	return 0;
}

int cli_demo_pipeline(struct dmamap_platform *p, const char *board, const struct gallery_bug *bug,
		      uint64_t seed, bool json, bool brief)
{
	if (bug)
		return with_bug(p, board, bug, seed ? seed : 1, json);
	return side_by_side(p, board, seed, json, brief);
}
