/* SPDX-License-Identifier: MIT */
/*
 * What the runner prints: a TAP line per run as it ends, the verdict
 * table per kind of device, the first failure with the command that
 * replays it, a JSON document, and JUnit XML.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../lib/json.h"
#include "../lib/lib.h"
#include "runner.h"

static const char *const kind_order[] = { "coherent", "non-coherent", "bounced", "IOMMU", "?" };

static const char *const status_names[] = {
	[RUN_PASSED] = "passed", [RUN_FAILED] = "failed", [RUN_CRASHED] = "crashed",
	[RUN_TIMEOUT] = "timeout", [RUN_BOARD] = "board",
};

const char *dmamap__run_stage_name(const struct run_state *rs, int stage, char *buf, size_t len)
{
	const struct dmamap_test *t;

	if (stage == STAGE_PROBE)
		snprintf(buf, len, "probe");
	else if (stage >= (int)rs->plan.nr_tests)
		snprintf(buf, len, "remove");
	else if (stage >= 0 && (t = dmamap__run_test((unsigned int)stage)))
		snprintf(buf, len, "test %s", t->name);
	else
		snprintf(buf, len, "stage %d", stage);
	return buf;
}

void dmamap__run_stage_msg(const char *msgs, int stage, char *buf, size_t len)
{
	buf[0] = '\0';
	for (const char *l = msgs; l && *l;) {
		const char *nl = strchr(l, '\n');
		char *end;
		long s = strtol(l, &end, 10);
		size_t n = nl ? (size_t)(nl - end) : strlen(end);

		if (s == stage && *end == '\t') {
			char *tab;

			n = MIN(n - 1, len - 1);
			memcpy(buf, end + 1, n);
			buf[n] = '\0';
			tab = strchr(buf, '\t');
			if (tab == buf) {
				/* No WHERE: the stage's name is where. */
				memmove(buf, buf + 1, strlen(buf));
			} else if (tab && tab + 1 - buf + 1 < (long)len) {
				/* "WHERE\tTEXT" -> "WHERE: TEXT" */
				memmove(tab + 2, tab + 1, strlen(tab + 1) + 1);
				tab[0] = ':';
				tab[1] = ' ';
				buf[len - 1] = '\0';
			}
			return;
		}
		l = nl ? nl + 1 : NULL;
	}
}

void dmamap__run_replay(const struct run_state *rs, unsigned long task, char *buf, size_t len)
{
	const struct dmamap_run_options *o = rs->plan.o;

	const char *dev = rs->plan.devices[plan_device(&rs->plan, task)];
	unsigned long long seed = (unsigned long long)plan_seed(&rs->plan, task);

	snprintf(buf, len, "%s --board %s --device %s --seeds %llu%s --trace %s-%llu.json",
		 o->replay ? o->replay : "dmamap run", o->board ? o->board : "default", dev, seed,
		 o->ownership ? " --ownership" : "", dev, seed);
}

/* The first failure: the lowest seed, then the first device. */
static long first_failure(const struct run_state *rs)
{
	for (unsigned long t = 0; t < rs->nr_tasks; t++)
		if (rs->results[t].done && rs->results[t].status != RUN_PASSED)
			return (long)t;
	return -1;
}

static void tap_escape_line(FILE *f, const char *s)
{
	for (; *s && *s != '\n'; s++)
		fputc(*s == '#' ? '_' : *s, f);
}

void dmamap__run_emit_one(struct run_state *rs, unsigned long task)
{
	const struct run_result *r = &rs->results[task];
	const char *dev = rs->plan.devices[plan_device(&rs->plan, task)];
	unsigned long long seed = (unsigned long long)plan_seed(&rs->plan, task);
	char stage[80], msg[600], replay[400];

	if (rs->plan.o->format != DMAMAP_RUN_TAP) {
		if (isatty(2) && (rs->done % 50 == 0 || rs->done == rs->nr_tasks))
			fprintf(stderr, "\r  %lu/%lu runs, %lu failed", rs->done, rs->nr_tasks, rs->failed);
		if (isatty(2) && rs->done == rs->nr_tasks)
			fprintf(stderr, "\r%60s\r", "");
		return;
	}
	rs->tap_n++;
	if (r->status == RUN_PASSED) {
		fprintf(rs->out, "ok %lu - %s seed %llu (%u tests)\n", rs->tap_n, dev, seed, r->tests_run);
		return;
	}
	dmamap__run_stage_name(rs, r->fail_stage, stage, sizeof(stage));
	dmamap__run_stage_msg(r->msgs, r->fail_stage, msg, sizeof(msg));
	dmamap__run_replay(rs, task, replay, sizeof(replay));
	fprintf(rs->out, "not ok %lu - %s seed %llu: %s %s\n", rs->tap_n, dev, seed, stage,
		status_names[r->status]);
	fprintf(rs->out, "  ---\n  message: \"");
	for (const char *c = msg; *c; c++)
		fprintf(rs->out, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
	fprintf(rs->out, "\"\n  replay: '");
	tap_escape_line(rs->out, replay);
	fprintf(rs->out, "'\n  ...\n");
	fflush(rs->out);
}

struct kind_row {
	unsigned long runs, failed;
	char devices[200];
	uint64_t seed[8];
	unsigned int nseeds;
	bool more;
};

/* The first failing seeds of a row, each once; more than fit make "...". */
static void add_seed(struct kind_row *row, uint64_t seed)
{
	for (unsigned int i = 0; i < row->nseeds; i++)
		if (row->seed[i] == seed)
			return;
	if (row->nseeds == ARRAY_SIZE(row->seed))
		row->more = true;
	else
		row->seed[row->nseeds++] = seed;
}

static const char *seeds_text(const struct kind_row *row, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < row->nseeds && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%llu", i ? " " : "",
				      (unsigned long long)row->seed[i]);
	if (row->more && n < len)
		snprintf(buf + n, len - n, " ...");
	return row->nseeds ? buf : "-";
}

static void kind_rows(const struct run_state *rs, struct kind_row rows[5])
{
	memset(rows, 0, 5 * sizeof(*rows));
	for (unsigned int d = 0; d < rs->plan.nr_devices; d++) {
		unsigned int k = 0;

		while (k < 4 && strcmp(kind_order[k], rs->plan.kinds[d]))
			k++;
		snprintf(rows[k].devices + strlen(rows[k].devices),
			 sizeof(rows[k].devices) - strlen(rows[k].devices), "%s%s",
			 rows[k].devices[0] ? " " : "", rs->plan.devices[d]);
	}
	for (unsigned long t = 0; t < rs->nr_tasks; t++) {
		const char *kind = rs->plan.kinds[plan_device(&rs->plan, t)];
		unsigned int k = 0;
		struct kind_row *row;

		while (k < 4 && strcmp(kind_order[k], kind))
			k++;
		row = &rows[k];
		row->runs++;
		if (rs->results[t].status == RUN_PASSED)
			continue;
		row->failed++;
		/* The failing seeds, each once, the first few. */
		add_seed(row, plan_seed(&rs->plan, t));
	}
}

/* A failed run: where, every stage that failed, its log's last lines, the replay; @first says so. */
static void print_failure(const struct run_state *rs, FILE *f, unsigned long task, bool first)
{
	const struct run_result *r = &rs->results[task];
	char stage[80], msg[600], replay[400];

	dmamap__run_stage_name(rs, r->fail_stage, stage, sizeof(stage));
	dmamap__run_replay(rs, task, replay, sizeof(replay));
	fprintf(f, "%s: %s, seed %llu, %s (%s)\n", first ? "first failure" : "failure",
		rs->plan.devices[plan_device(&rs->plan, task)],
		(unsigned long long)plan_seed(&rs->plan, task), stage, status_names[r->status]);
	/* Every stage that failed in that run, in order. */
	for (int s = STAGE_PROBE; s <= (int)rs->plan.nr_tests; s++) {
		dmamap__run_stage_msg(r->msgs, s, msg, sizeof(msg));
		if (msg[0])
			fprintf(f, "  %s: %s\n", dmamap__run_stage_name(rs, s, stage, sizeof(stage)), msg);
	}
	if (r->msgs) {
		const char *lines = r->msgs + strlen(r->msgs) + 1;

		if (*lines) {
			fprintf(f, "  log (last lines):\n");
			for (const char *l = lines; *l;) {
				const char *nl = strchr(l, '\n');
				int n = nl ? (int)(nl - l) : (int)strlen(l);

				fprintf(f, "    %.*s\n", n, l);
				l = nl ? nl + 1 : l + n;
			}
		}
	}
	fprintf(f, "replay: %s\n", replay);
}

static void emit_json(const struct run_state *rs, const struct kind_row rows[5], double secs)
{
	FILE *f = rs->out;
	unsigned int listed = 0;
	bool first = true;

	fprintf(f, "{\"board\":");
	dmamap__json_write(f, rs->plan.o->board ? rs->plan.o->board : "default");
	fprintf(f, ",\"seeds\":[%llu,%llu],\"runs\":%lu,\"failed\":%lu,\"seconds\":%.3f,\"kinds\":[",
		(unsigned long long)rs->plan.first, (unsigned long long)rs->plan.last, rs->nr_tasks,
		rs->failed, secs);
	for (unsigned int k = 0; k < 5; k++) {
		if (!rows[k].runs)
			continue;
		fprintf(f, "%s{\"kind\":\"%s\",\"devices\":", first ? "" : ",", kind_order[k]);
		dmamap__json_write(f, rows[k].devices);
		fprintf(f, ",\"runs\":%lu,\"passed\":%lu,\"failed\":%lu}", rows[k].runs,
			rows[k].runs - rows[k].failed, rows[k].failed);
		first = false;
	}
	fprintf(f, "],\"failures\":[");
	for (unsigned long t = 0; t < rs->nr_tasks && listed < 100; t++) {
		const struct run_result *r = &rs->results[t];
		char stage[80], msg[600], replay[400];

		if (r->status == RUN_PASSED)
			continue;
		dmamap__run_stage_name(rs, r->fail_stage, stage, sizeof(stage));
		dmamap__run_stage_msg(r->msgs, r->fail_stage, msg, sizeof(msg));
		dmamap__run_replay(rs, t, replay, sizeof(replay));
		fprintf(f, "%s{\"device\":", listed ? "," : "");
		dmamap__json_write(f, rs->plan.devices[plan_device(&rs->plan, t)]);
		fprintf(f, ",\"kind\":\"%s\",\"seed\":%llu,\"status\":\"%s\",\"stage\":",
			rs->plan.kinds[plan_device(&rs->plan, t)],
			(unsigned long long)plan_seed(&rs->plan, t), status_names[r->status]);
		dmamap__json_write(f, stage);
		fprintf(f, ",\"message\":");
		dmamap__json_write(f, msg);
		fprintf(f, ",\"replay\":");
		dmamap__json_write(f, replay);
		fputc('}', f);
		listed++;
	}
	fprintf(f, "]}\n");
}

void dmamap__run_emit_end(struct run_state *rs)
{
	const struct dmamap_run_options *o = rs->plan.o;
	FILE *f = o->format == DMAMAP_RUN_TAP ? stderr : rs->out;
	struct kind_row rows[5];
	double secs = 0;
	long first;

	for (unsigned long t = 0; t < rs->nr_tasks; t++)
		secs += rs->results[t].seconds;
	kind_rows(rs, rows);
	if (o->format == DMAMAP_RUN_JSON) {
		emit_json(rs, rows, secs);
		return;
	}
	fprintf(f, "board %s, seeds %llu-%llu, %u devices, %u tests\n",
		o->board ? o->board : "default", (unsigned long long)rs->plan.first,
		(unsigned long long)rs->plan.last, rs->plan.nr_devices, rs->plan.nr_applied);
	fprintf(f, "%-13s %-32s %7s %7s %7s  %s\n", "kind", "devices", "runs", "passed", "failed",
		"failing seeds");
	for (unsigned int k = 0; k < 5; k++) {
		char seeds[200];

		if (rows[k].runs)
			fprintf(f, "%-13s %-32s %7lu %7lu %7lu  %s\n", kind_order[k], rows[k].devices,
				rows[k].runs, rows[k].runs - rows[k].failed, rows[k].failed,
				seeds_text(&rows[k], seeds, sizeof(seeds)));
	}
	fprintf(f, "%s: %lu of %lu runs failed\n", rs->failed ? "FAIL" : "PASS", rs->failed,
		rs->nr_tasks);
	first = first_failure(rs);
	if (first < 0)
		return;
	print_failure(rs, f, (unsigned long)first, true);
	if (!o->verbose)
		return;
	for (unsigned long t = (unsigned long)first + 1; t < rs->nr_tasks; t++)
		if (rs->results[t].status != RUN_PASSED)
			print_failure(rs, f, t, false);
}

static void xml_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c < 0x20 && c != '\n' && c != '\t')
			fputc('?', f);
		else
			fputc(c, f);
	}
}

struct junit_counts {
	unsigned long tests, failures, errors;
	double seconds;
};

static bool bit(const uint8_t *map, unsigned int i)
{
	return map[i / 8] >> (i % 8) & 1;
}

/* A failure of the run's own status (failure, or error for a crash or a hang). */
/* The stage a worker died in is an error; a stage that failed before it, a failure. */
static bool died_in(const struct run_result *r, int stage)
{
	return r->status != RUN_FAILED && stage == r->fail_stage;
}

static void count_case(struct junit_counts *c, const struct run_result *r, int stage, bool failed)
{
	c->tests++;
	if (failed && !died_in(r, stage))
		c->failures++;
	else if (failed)
		c->errors++;
}

/*
 * The test cases of one run: "probe" and "remove" when they failed, each
 * test that ran. With @f NULL, only counted.
 */
static void junit_run(FILE *f, const struct run_state *rs, unsigned long t,
		      struct junit_counts *c)
{
	const struct run_result *r = &rs->results[t];
	const char *dev = rs->plan.devices[plan_device(&rs->plan, t)];
	unsigned int nt = rs->plan.nr_tests;
	char msg[600], replay[400];

	c->seconds += r->seconds;
	for (int s = STAGE_PROBE; s <= (int)nt; s++) {
		bool failed = s == STAGE_PROBE ? r->probe_failed :
			      s == (int)nt ? r->remove_failed : bit(r->failed, (unsigned int)s);
		const char *el = died_in(r, s) ? "error" : "failure";

		if ((s == STAGE_PROBE || s == (int)nt) ? !failed : !bit(r->ran, (unsigned int)s))
			continue;
		count_case(c, r, s, failed);
		if (!f)
			continue;
		fprintf(f, "    <testcase classname=\"");
		xml_str(f, dev);
		fprintf(f, "\" name=\"");
		xml_str(f, s == STAGE_PROBE ? "probe" : s == (int)nt ? "remove" :
			   dmamap__run_test((unsigned int)s)->name);
		fprintf(f, " seed %llu\"", (unsigned long long)plan_seed(&rs->plan, t));
		if (!failed) {
			fprintf(f, "/>\n");
			continue;
		}
		dmamap__run_stage_msg(r->msgs, s, msg, sizeof(msg));
		dmamap__run_replay(rs, t, replay, sizeof(replay));
		fprintf(f, ">\n      <%s message=\"", el);
		xml_str(f, msg);
		fprintf(f, "\" type=\"%s\">", status_names[died_in(r, s) ? r->status : RUN_FAILED]);
		xml_str(f, msg);
		fprintf(f, "\nreplay: ");
		xml_str(f, replay);
		fprintf(f, "</%s>\n    </testcase>\n", el);
	}
}

int dmamap__run_write_junit(const struct run_state *rs, const char *path)
{
	FILE *f = fopen(path, "w");
	struct junit_counts all = { 0 };
	unsigned int nd = rs->plan.nr_devices;

	if (!f)
		return -1;
	for (unsigned long t = 0; t < rs->nr_tasks; t++)
		junit_run(NULL, rs, t, &all);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"dmamap run\" tests=\"%lu\" failures=\"%lu\" errors=\"%lu\" time=\"%.3f\">\n",
		all.tests, all.failures, all.errors, all.seconds);
	for (unsigned int d = 0; d < nd; d++) {
		struct junit_counts c = { 0 };

		for (unsigned long t = d; t < rs->nr_tasks; t += nd)
			junit_run(NULL, rs, t, &c);
		fprintf(f, "  <testsuite name=\"");
		xml_str(f, rs->plan.devices[d]);
		fprintf(f, " (%s)\" tests=\"%lu\" failures=\"%lu\" errors=\"%lu\" skipped=\"0\" time=\"%.3f\">\n",
			rs->plan.kinds[d], c.tests, c.failures, c.errors, c.seconds);
		for (unsigned long t = d; t < rs->nr_tasks; t += nd)
			junit_run(f, rs, t, &c);
		fprintf(f, "  </testsuite>\n");
	}
	fprintf(f, "</testsuites>\n");
	return fclose(f) ? -1 : 0;
}
