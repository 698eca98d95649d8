/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the command line: the input is split at NUL bytes
 * into the arguments after "dmamap" (at most 24), and the CLI runs on them
 * in this process: help and version, every command's options, numbers in
 * every base and unit, --ram bank lists, board names and files, -I and
 * --overlay, and `dmamap run`'s own options. Each command line must end
 * with an exit status (0, 1 or 2), never a crash or a hang.
 *
 * The work a command line may ask for is bounded, so that each input ends
 * in milliseconds, and nothing outside a scratch directory is touched:
 * - `bench` is given a last "-h": every option before it is parsed, and
 *   the benchmark itself (seconds by design) never starts;
 * - `sweep` runs only when every --seeds its own parser reads as 1 or 2,
 *   and `demo` only when every --scale does (or there is none);
 * - `run` goes straight to its options (dmamap_run_main()): no shared
 *   object is loaded, and with no driver registered no run starts;
 * - an argument that is an absolute path or climbs out with ".." makes
 *   the input uninteresting (files are read and written relative to the
 *   scratch directory the target works in, emptied before each input, and
 *   TMPDIR too; standard input is /dev/null; a .dts gets 3 s per tool).
 */
#define _GNU_SOURCE /* nftw() */
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dmamap/run.h>

#define main dmamap_cli_main
#include "../tools/dmamap.c"
#undef main

#define MAX_ARGS 24

static char scratch[] = "/tmp/dmamap-cli-fuzz-XXXXXX";

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level > 0)
		remove(path);
	return 0;
}

/* The scratch directory as a fresh one: what one input wrote, the next does not read. */
static void empty_scratch(void)
{
	nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_scratch(void)
{
	empty_scratch();
	rmdir(scratch);
}

static void once(void)
{
	static bool done;
	int null;

	if (done)
		return;
	done = true;
	if (!mkdtemp(scratch))
		abort();
	atexit(remove_scratch);
	/* A runaway .dts gives up well inside libFuzzer's timeout; its files stay in the scratch. */
	setenv("DMAMAP_DTS_TIMEOUT", "3", 1);
	setenv("TMPDIR", scratch, 1);
	null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0)
		abort();
	close(null);
}

/*
 * Every value given to @opt (the parsers keep the last, and may take an
 * option's value for another option's name) reads as 1 or 2 by the
 * command's own parser; none given counts as @absent_ok.
 */
static bool small(int argc, char **argv, const char *opt, bool absent_ok)
{
	bool seen = false;
	u64 n;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], opt))
			continue;
		if (i + 1 >= argc || cli_number(argv[i + 1], 1, 2, false, &n))
			return false;
		seen = true;
	}
	return seen || absent_ok;
}

static int back_home(int home, char *copy, int ret)
{
	if (fchdir(home))
		abort();
	close(home);
	free(copy);
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *argv[MAX_ARGS + 3];
	int argc = 1, status, home;
	size_t at = 0;

	if (!copy)
		return 0;
	once();
	empty_scratch();
	/* Only while the command runs: libFuzzer reads its corpus from where it was started. */
	home = open(".", O_RDONLY | O_DIRECTORY);
	if (home < 0 || chdir(scratch))
		abort();
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[0] = "dmamap";
	while (at <= size && argc <= MAX_ARGS) {
		argv[argc++] = copy + at;
		at += strlen(copy + at) + 1;
	}
	argv[argc] = NULL;
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '/' || strstr(argv[i], ".."))
			return back_home(home, copy, -1);
	}
	if (argc > 1 && !strcmp(argv[1], "bench")) {
		argv[argc++] = "-h";
		argv[argc] = NULL;
		status = cli_bench(argc - 1, argv + 1);
	} else if (argc > 1 && !strcmp(argv[1], "run")) {
		argv[1] = "dmamap run";
		status = dmamap_run_main(argc - 1, argv + 1);
	} else if (argc > 1 && ((!strcmp(argv[1], "sweep") && !small(argc, argv, "--seeds", false)) ||
				(!strcmp(argv[1], "demo") && !small(argc, argv, "--scale", true)))) {
		return back_home(home, copy, -1);
	} else {
		status = run_command(argc, argv);
	}
	fflush(stdout);
	clearerr(stdout);
	if (status < 0 || status > 2) {
		fprintf(stderr, "cli_fuzz: exit status %d\n", status);
		abort();
	}
	return back_home(home, copy, 0);
}
