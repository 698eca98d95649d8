/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

/* Sanitizer builds run some tests ten times slower than plain ones. */
#define DEFAULT_TIMEOUT 120
#define SKIP_STATUS 77

struct tap_test {
	const char *name;
	tap_fn fn;
	bool expect_abort;
	unsigned int timeout;
};

static struct tap_test *tests;
static size_t ntests, cap;
int tap_failures;

/*
 * A page shared with the children: an exit status alone cannot carry the
 * reason of a skip, and a test could exit with any status by accident.
 */
static struct {
	int skipped;
	char reason[500];
} *shared;

/* The signal mask the tests run with (the runner blocks SIGCHLD to wait for them). */
static sigset_t test_mask;

/*
 * libgcov's, when built with --coverage. A child leaves by _exit(), which
 * skips the atexit handler that writes the counters: without the dump a
 * coverage run would count only what the runner itself executed.
 */
extern void __gcov_dump(void) __attribute__((weak));
extern void __gcov_reset(void) __attribute__((weak));

void tap_register(const char *name, tap_fn fn, bool expect_abort,
		  unsigned int timeout)
{
	if (ntests == cap) {
		size_t ncap = cap ? 2 * cap : 256;
		struct tap_test *t = realloc(tests, ncap * sizeof(*t));

		/* A test dropped here would never be missed: stop instead. */
		if (!t) {
			fprintf(stderr, "tap: no memory to register test %zu (%s)\n",
				ntests + 1, name);
			abort();
		}
		tests = t;
		cap = ncap;
	}
	tests[ntests++] = (struct tap_test){ name, fn, expect_abort, timeout };
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

static __attribute__((noreturn)) void child_exit(int status)
{
	fflush(stdout);
	if (__gcov_dump)
		__gcov_dump();
	_exit(status);
}

void tap_skip(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	/* What already failed must not be hidden by the skip. */
	if (tap_failures) {
		printf("#   %s:%d: skip after %d failed checks\n", file, line,
		       tap_failures);
		child_exit(1);
	}
	va_start(ap, fmt);
	vsnprintf(shared->reason, sizeof(shared->reason), fmt, ap);
	va_end(ap);
	shared->skipped = 1;
	child_exit(SKIP_STATUS);
}

/* Time until @deadline in *@left; false once it has passed. */
static bool time_left(const struct timespec *deadline, struct timespec *left)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	left->tv_sec = deadline->tv_sec - now.tv_sec;
	left->tv_nsec = deadline->tv_nsec - now.tv_nsec;
	if (left->tv_nsec < 0) {
		left->tv_nsec += 1000000000L;
		left->tv_sec--;
	}
	return left->tv_sec >= 0;
}

/*
 * Wait for @pid for at most @secs seconds. On time: true with *status.
 * Late: the child and whatever it forked (its process group) are killed.
 */
static bool wait_for(pid_t pid, unsigned int secs, int *status)
{
	struct timespec deadline, left;
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += secs;
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR) {
			/* Nothing to wait for: report it as the test's failure. */
			printf("#   waitpid: %s\n", strerror(errno));
			*status = 0x100; /* as if it had exited with status 1 */
			return true;
		}
		if (!time_left(&deadline, &left))
			break;
		/* SIGCHLD is blocked: it stays pending until this takes it. */
		sigtimedwait(&chld, NULL, &left);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	waitpid(pid, status, 0);
	return false;
}

enum outcome { PASSED, FAILED, SKIPPED, TIMED_OUT };

/*
 * What a test writes to stderr (the library's warnings, the checker's
 * reports it expects) is its log: kept in a file, shown as "#" lines only
 * when the test fails, or always with DMAMAP_TEST_STDERR=1.
 */
static int log_fd = -1;

static void show_log(bool failed)
{
	static const char *always;
	char buf[4096];
	bool start = true;
	ssize_t n;

	if (log_fd < 0)
		return;
	if (!always)
		always = getenv("DMAMAP_TEST_STDERR") ? getenv("DMAMAP_TEST_STDERR") : "";
	if ((failed || !strcmp(always, "1")) && lseek(log_fd, 0, SEEK_SET) == 0) {
		while ((n = read(log_fd, buf, sizeof(buf))) > 0) {
			for (ssize_t i = 0; i < n; i++) {
				if (start)
					fputs("#   stderr: ", stdout);
				putchar(buf[i]);
				start = buf[i] == '\n';
			}
		}
		if (!start)
			putchar('\n');
	}
	if (ftruncate(log_fd, 0) || lseek(log_fd, 0, SEEK_SET))
		log_fd = -1; /* cannot reuse it: later tests write to the real stderr */
}

static enum outcome run_one(const struct tap_test *t, unsigned int limit)
{
	pid_t pid;
	int status;

	fflush(stdout);
	fflush(stderr);
	shared->skipped = 0;
	shared->reason[0] = 0;
	pid = fork();
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &test_mask, NULL);
		/* Its own group, so that a timeout also ends what it forked. */
		setpgid(0, 0);
		/* Count only this test: the runner writes its own counters at exit. */
		if (__gcov_reset)
			__gcov_reset();
		if (t->expect_abort) {
			/* The abort is the point: keep the sanitizers' reports out of it. */
			signal(SIGABRT, SIG_DFL);
		}
		if (log_fd >= 0)
			dup2(log_fd, 2);
		tap_failures = 0;
		t->fn();
		child_exit(tap_failures ? 1 : 0);
	}
	if (pid < 0) {
		printf("#   fork: %s\n", strerror(errno));
		return FAILED;
	}
	setpgid(pid, pid); /* as the child does: whichever runs first */
	if (!wait_for(pid, limit, &status))
		return TIMED_OUT;
	if (WIFEXITED(status) && WEXITSTATUS(status) == SKIP_STATUS && shared->skipped)
		return SKIPPED;
	if (t->expect_abort)
		return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT ? PASSED : FAILED;
	if (WIFSIGNALED(status))
		printf("#   killed by signal %d\n", WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? PASSED : FAILED;
}

unsigned int tap_sample(void)
{
	static unsigned int stride;
	const char *env;
	unsigned long n;
	char *end;

	if (stride)
		return stride;
	env = getenv("DMAMAP_TEST_SAMPLE");
	stride = 1;
	if (env && *env) {
		errno = 0;
		n = strtoul(env, &end, 10);
		if (errno || *end || !n || n > 1000) {
			fprintf(stderr, "tap: DMAMAP_TEST_SAMPLE=%s is not a stride (1-1000)\n", env);
			exit(2);
		}
		stride = (unsigned int)n;
	}
	return stride;
}

/* The run's default timeout: DMAMAP_TEST_TIMEOUT seconds, else DEFAULT_TIMEOUT. */
static unsigned int default_timeout(void)
{
	const char *env = getenv("DMAMAP_TEST_TIMEOUT");
	unsigned long secs;
	char *end;

	if (!env || !*env)
		return DEFAULT_TIMEOUT;
	errno = 0;
	secs = strtoul(env, &end, 10);
	if (errno || *end || !secs || secs > 86400) {
		fprintf(stderr, "tap: DMAMAP_TEST_TIMEOUT=%s is not a number of seconds (1-86400)\n",
			env);
		exit(2);
	}
	return (unsigned int)secs;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, skipped = 0, ran = 0;
	unsigned int base = default_timeout();
	/* A bad stride stops the run before any test, as a bad timeout does. */
	unsigned int stride = tap_sample();
	/* DMAMAP_TEST_TIMES: each test's wall time, to find what a slow machine spends its run on. */
	bool times = getenv("DMAMAP_TEST_TIMES") != NULL;
	struct timespec t0, t1;
	sigset_t chld;

	/* Whole lines at once: a test that hangs has still shown what it printed. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		fprintf(stderr, "tap: mmap: %s\n", strerror(errno));
		return 2;
	}
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &test_mask);
	{
		/* The tests' stderr log: a file nobody else sees (unlinked at once). */
		char path[] = "/tmp/dmamap-test-stderr-XXXXXX";

		log_fd = mkstemp(path);
		if (log_fd >= 0)
			unlink(path);
	}
	printf("TAP version 13\n");
	if (stride > 1)
		printf("# DMAMAP_TEST_SAMPLE=%u: the long loops take one case in %u\n", stride, stride);
	for (size_t i = 0; i < ntests; i++) {
		const struct tap_test *t = &tests[i];
		unsigned int limit = t->timeout > base ? t->timeout : base;

		if (argc > 1 && !strstr(t->name, argv[1]))
			continue;
		ran++;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		enum outcome o = run_one(t, limit);

		if (times) {
			clock_gettime(CLOCK_MONOTONIC, &t1);
			printf("# %ld ms %s\n", (long)((t1.tv_sec - t0.tv_sec) * 1000 +
						      (t1.tv_nsec - t0.tv_nsec) / 1000000), t->name);
		}

		show_log(o == FAILED || o == TIMED_OUT);
		switch (o) {
		case PASSED:
			printf("ok %d - %s\n", ran, t->name);
			passed++;
			break;
		case SKIPPED:
			printf("ok %d - %s # SKIP %s\n", ran, t->name, shared->reason);
			skipped++;
			break;
		case TIMED_OUT:
			printf("not ok %d - %s # timeout after %us\n", ran, t->name, limit);
			failed++;
			break;
		case FAILED:
			printf("not ok %d - %s\n", ran, t->name);
			failed++;
			break;
		}
	}
	printf("1..%d\n", ran);
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
