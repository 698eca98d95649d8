/* SPDX-License-Identifier: MIT */
/*
 * Test cases: the registry DMAMAP_TEST() fills at load time, and the
 * running test, which an assertion leaves by jumping back to the runner
 * on the test's own thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "../lib/lib.h"
#include "runner.h"

static pthread_mutex_t tests_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct dmamap_test *tests[RUN_MAX_TESTS];
static unsigned int nr_tests;

/* The test running on this thread, and where its assertions jump. */
static __thread jmp_buf *test_jmp;
static __thread struct test_outcome *test_out;
/* Any thread's failures land in the one running test (one per worker process). */
static struct test_outcome *volatile current_out;
static pthread_mutex_t outcome_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t current_seed;
static unsigned int register_failures;

int dmamap_test_register(const struct dmamap_test *t)
{
	int ret = 0;

	if (!t || !t->name || !t->fn)
		return -EINVAL;
	pthread_mutex_lock(&tests_lock);
	for (unsigned int i = 0; i < nr_tests; i++)
		if (!strcmp(tests[i]->name, t->name))
			ret = -EEXIST;
	if (!ret && nr_tests == RUN_MAX_TESTS)
		ret = -ENOSPC;
	if (!ret)
		tests[nr_tests++] = t;
	else
		register_failures++;
	pthread_mutex_unlock(&tests_lock);
	if (ret)
		fprintf(stderr, "dmamap: cannot register test %s: error %d\n", t->name, ret);
	return ret;
}

unsigned int dmamap__run_register_failures(void)
{
	unsigned int n;

	pthread_mutex_lock(&tests_lock);
	n = register_failures;
	pthread_mutex_unlock(&tests_lock);
	return n;
}

unsigned int dmamap__run_nr_tests(void)
{
	unsigned int n;

	pthread_mutex_lock(&tests_lock);
	n = nr_tests;
	pthread_mutex_unlock(&tests_lock);
	return n;
}

const struct dmamap_test *dmamap__run_test(unsigned int i)
{
	const struct dmamap_test *t;

	pthread_mutex_lock(&tests_lock);
	t = i < nr_tests ? tests[i] : NULL;
	pthread_mutex_unlock(&tests_lock);
	return t;
}

static void vrecord(const char *file, int line, const char *fmt, va_list ap)
{
	struct test_outcome *o = test_out ? test_out : current_out;

	if (!o) {
		/* No test runs: say it where a person will see it. */
		fprintf(stderr, "%s:%d: ", file, line);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		return;
	}
	pthread_mutex_lock(&outcome_lock);
	if (!o->failed) {
		const char *base = strrchr(file, '/');

		o->failed = true;
		snprintf(o->where, sizeof(o->where), "%s:%d", base ? base + 1 : file, line);
		vsnprintf(o->msg, sizeof(o->msg), fmt, ap);
	}
	pthread_mutex_unlock(&outcome_lock);
}

void dmamap_test_fail(const char *file, int line, int fatal, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vrecord(file ? file : "?", line, fmt ? fmt : "failed", ap);
	va_end(ap);
	/*
	 * A handler that interrupted the test runs on its thread, inside the
	 * library's delivery: jumping out of it would leave interrupts off on
	 * the thread for good. It fails the test and returns instead.
	 */
	if (fatal && test_jmp && !dmamap_in_interrupt())
		longjmp(*test_jmp, 1);
}

bool dmamap_test_memeq(const char *file, int line, int fatal, const char *an, const void *a,
		       const char *bn, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	if (!a || !b) {
		dmamap_test_fail(file, line, fatal, "memeq(%s, %s): a NULL buffer", an, bn);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		if (x[i] == y[i])
			continue;
		dmamap_test_fail(file, line, fatal,
				 "%s and %s differ at byte %zu of %zu: 0x%02x vs 0x%02x", an, bn, i,
				 n, x[i], y[i]);
		return false;
	}
	return true;
}

uint64_t dmamap_test_seed(void)
{
	return __atomic_load_n(&current_seed, __ATOMIC_RELAXED);
}

void dmamap__run_set_seed(uint64_t seed)
{
	__atomic_store_n(&current_seed, seed, __ATOMIC_RELAXED);
}

void dmamap__run_one(const struct dmamap_test *t, struct platform_device *pdev, uint64_t seed,
		     struct test_outcome *out)
{
	jmp_buf jb;

	memset(out, 0, sizeof(*out));
	dmamap__run_set_seed(seed);
	current_out = out;
	test_out = out;
	test_jmp = &jb;
	if (!setjmp(jb))
		t->fn(pdev);
	test_jmp = NULL;
	test_out = NULL;
	current_out = NULL;
}
