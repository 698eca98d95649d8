/* SPDX-License-Identifier: MIT */
/* dmamap_run_main(): the runner's command line, shared by `dmamap run` and test programs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runner.h"

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [--board NAME|FILE] [--seeds A[-B]] [--jobs N] [--device NAME]\n"
		"           [--test NAME] [--timeout SECONDS] [--ownership] [--tap | --json] [--junit FILE]\n"
		"           [--trace FILE.json] [--trace-text FILE] [--verbose]\n"
		"\n"
		"Each seed is a fresh board; on it each device a registered driver matches is\n"
		"probed, its tests run and it is removed, in a worker process of its own.\n"
		"\n"
		"  --board NAME|FILE       a built-in board or a device tree file (default: default)\n"
		"  --seeds A[-B]           the seeds, from 1 (default: 1)\n"
		"  --jobs N, -j N          worker processes, 1-256 (default: online CPUs)\n"
		"  --device NAME           only this device\n"
		"  --test NAME             only this test\n"
		"  --timeout SECONDS       per stage, 1-86400 (default: 10); the worker is killed\n"
		"  --ownership             trap CPU accesses to buffers the device owns (slower)\n"
		"  --tap                   TAP 13 on stdout, a line per run\n"
		"  --json                  one JSON object with totals and the first failures\n"
		"  --junit FILE            also JUnit XML: a testsuite per device\n"
		"  --trace FILE.json       each run's events as Chrome trace-event JSON\n"
		"  --trace-text FILE       the same events as ftrace-like lines\n"
		"  --verbose, -v           every failure, not only the first\n",
		prog);
}

static bool takes_value(const char *opt)
{
	static const char *const with_value[] = { "--board", "--seeds", "--jobs", "-j",
						  "--timeout", "--device", "--test", "--junit",
						  "--trace", "--trace-text" };

	for (size_t i = 0; i < sizeof(with_value) / sizeof(with_value[0]); i++)
		if (!strcmp(opt, with_value[i]))
			return true;
	return false;
}

static int number(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *end || errno ? -1 : 0;
}

static int seeds(const char *s, uint64_t *a, uint64_t *b)
{
	char buf[64];
	char *dash;

	if (!s || strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	dash = strchr(buf, '-');
	if (dash)
		*dash = '\0';
	if (number(buf, a) || !*a)
		return -1;
	if (!dash) {
		*b = *a;
		return 0;
	}
	return number(dash + 1, b) || *b < *a || *b - *a >= (1ULL << 31) ? -1 : 0;
}

int dmamap_run_main(int argc, char **argv)
{
	struct dmamap_run_options o = { .board = "default" };
	const char *prog = argc > 0 && argv[0] ? argv[0] : "dmamap run";
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct dmamap_run_summary sum;
	long ret;

	o.jobs = cpus > 0 ? (unsigned int)cpus : 1;
	o.replay = prog;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n;

		if (!strcmp(a, "--board") && v) {
			o.board = v;
			i++;
		} else if (!strcmp(a, "--seeds") && v) {
			if (seeds(v, &o.first_seed, &o.last_seed)) {
				fprintf(stderr, "%s: --seeds '%s': takes A or A-B, seeds from 1\n", prog, v);
				return 2;
			}
			i++;
		} else if ((!strcmp(a, "--jobs") || !strcmp(a, "-j")) && v) {
			if (number(v, &n) || !n || n > 256) {
				fprintf(stderr, "%s: %s '%s': takes 1 to 256\n", prog, a, v);
				return 2;
			}
			o.jobs = (unsigned int)n;
			i++;
		} else if (!strcmp(a, "--timeout") && v) {
			if (number(v, &n) || !n || n > 86400) {
				fprintf(stderr, "%s: --timeout '%s': takes 1 to 86400 seconds\n", prog, v);
				return 2;
			}
			o.timeout_s = (unsigned int)n;
			i++;
		} else if (!strcmp(a, "--device") && v) {
			o.device = v;
			i++;
		} else if (!strcmp(a, "--test") && v) {
			o.test = v;
			i++;
		} else if (!strcmp(a, "--junit") && v) {
			o.junit = v;
			i++;
		} else if (!strcmp(a, "--trace") && v) {
			o.trace = v;
			i++;
		} else if (!strcmp(a, "--trace-text") && v) {
			o.trace_text = v;
			i++;
		} else if (!strcmp(a, "--tap")) {
			o.format = DMAMAP_RUN_TAP;
		} else if (!strcmp(a, "--json")) {
			o.format = DMAMAP_RUN_JSON;
		} else if (!strcmp(a, "--ownership")) {
			o.ownership = true;
		} else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
			o.verbose = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout, prog);
			return 0;
		} else {
			if (!v && takes_value(a))
				fprintf(stderr, "%s: %s needs a value (%s --help)\n", prog, a, prog);
			else
				fprintf(stderr, "%s: unknown option '%s' (%s --help)\n", prog, a, prog);
			return 2;
		}
	}
	ret = dmamap_run(&o, &sum);
	if (ret == -ENODEV) {
		fprintf(stderr, "%s: no device of board %s%s%s matches a registered driver\n", prog,
			o.board, o.device ? " named " : "", o.device ? o.device : "");
		return 2;
	}
	/* A file that could not be written has been named with its reason already. */
	if (ret == -EIO)
		return 1;
	if (ret < 0)
		return 2;
	if (o.format == DMAMAP_RUN_TEXT)
		fprintf(o.out ? o.out : stdout, "%lu runs in %.1f s: %.1f runs/s with %u job%s\n",
			sum.runs, sum.seconds, sum.runs / (sum.seconds > 0 ? sum.seconds : 1),
			o.jobs < sum.runs ? o.jobs : (unsigned int)sum.runs,
			(o.jobs < sum.runs ? o.jobs : sum.runs) == 1 ? "" : "s");
	return ret ? 1 : 0;
}
