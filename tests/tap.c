/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

#define MAX_TESTS 1024

static struct {
	const char *name;
	tap_fn fn;
	bool expect_abort;
} tests[MAX_TESTS];
static int ntests;
int tap_failures;

void tap_register(const char *name, tap_fn fn, bool expect_abort)
{
	if (ntests < MAX_TESTS) {
		tests[ntests].name = name;
		tests[ntests].fn = fn;
		tests[ntests].expect_abort = expect_abort;
		ntests++;
	}
}

void tap_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_failures++;
	fprintf(stdout, "#   %s:%d: check failed: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

static bool run_one(int i)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (tests[i].expect_abort) {
			/* The abort is the point: keep the sanitizers' reports out of it. */
			signal(SIGABRT, SIG_DFL);
		}
		tap_failures = 0;
		tests[i].fn();
		fflush(stdout);
		_exit(tap_failures ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return false;
	if (tests[i].expect_abort)
		return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
	if (WIFSIGNALED(status))
		printf("#   killed by signal %d\n", WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, ran = 0;

	printf("TAP version 13\n");
	for (int i = 0; i < ntests; i++) {
		bool ok;

		if (argc > 1 && !strstr(tests[i].name, argv[1]))
			continue;
		ran++;
		ok = run_one(i);
		printf("%s %d - %s\n", ok ? "ok" : "not ok", ran, tests[i].name);
		if (ok)
			passed++;
		else
			failed++;
	}
	printf("1..%d\n", ran);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
