/* SPDX-License-Identifier: MIT */
/*
 * Testing a driver on boards and seeds: test cases that run after probe,
 * with assertions that say file:line, and the runner that `dmamap run`
 * is, as a library call for a project that links its own test binary.
 * docs/run.md is the guide.
 *
 *	DMAMAP_TEST(loopback)
 *	{
 *		struct acme *a = platform_get_drvdata(pdev);
 *
 *		DMAMAP_ASSERT_EQ(acme_copy(a, src, dst, 4096), 0);
 *		DMAMAP_ASSERT_MEMEQ(src, dst, 4096);
 *	}
 *
 * For each device a registered driver binds, and each seed: a fresh board
 * with the checker on, its cache chaos and device schedule seeded; probe;
 * every test, each given the bound device as pdev; remove. A test fails
 * on an assertion, on a checker report while it runs, or by crashing or
 * hanging; a run fails if its probe fails, a test fails, or a report
 * comes during probe or remove (a leak, say).
 */
#ifndef DMAMAP_RUN_H
#define DMAMAP_RUN_H

#include <stdint.h>
#include <stdio.h>
#include <dmamap/platform_device.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- test cases ------------------------------------------------------------ */

struct dmamap_test {
	const char *name;
	void (*fn)(struct platform_device *pdev);
	/* Only devices bound to this driver (NULL: every bound device). */
	const struct platform_driver *driver;
	const char *file;
	int line;
};

/**
 * dmamap_test_register() - add a test case (what DMAMAP_TEST() does at load)
 * @t: the test (must outlive the process's runs)
 *
 * Return: 0; -EINVAL for a NULL @t, name or fn; -EEXIST for a name taken;
 * -ENOSPC when 256 tests are registered.
 */
DMAMAP_API int dmamap_test_register(const struct dmamap_test *t);

#define DMAMAP_TEST__DEFINE(name_, drv_)                                          \
	static void dmamap_test_fn_##name_(struct platform_device *pdev);         \
	static const struct dmamap_test dmamap_test_##name_ = {                  \
		#name_, dmamap_test_fn_##name_, drv_, __FILE__, __LINE__ };       \
	__attribute__((constructor)) static void dmamap_test_reg_##name_(void)   \
	{                                                                        \
		dmamap_test_register(&dmamap_test_##name_);                      \
	}                                                                        \
	static void dmamap_test_fn_##name_(struct platform_device *pdev)

/* A test run on every bound device; its body sees the device as pdev. */
#define DMAMAP_TEST(name) DMAMAP_TEST__DEFINE(name, NULL)
/* A test run only on devices bound to @drv (a struct platform_driver). */
#define DMAMAP_DRIVER_TEST(drv, name) DMAMAP_TEST__DEFINE(name, &(drv))

/**
 * dmamap_test_fail() - fail the running test (what the assertions call)
 * @file: where
 * @line: where
 * @fatal: stop the test here (an assertion) or go on (an expectation)
 * @fmt: what went wrong
 *
 * A fatal failure leaves the test at once when called from the test's own
 * code; elsewhere (in an interrupt handler, on the device thread or on the
 * test's thread it interrupted) it is recorded and returns, as an
 * expectation would. The first failure of a test is the one reported.
 */
DMAMAP_API void dmamap_test_fail(const char *file, int line, int fatal, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/**
 * dmamap_test_seed() - the seed of the current run
 *
 * For a test that draws its own data: the same seed replays the same bytes.
 *
 * Return: the seed; 0 outside a run.
 */
DMAMAP_API uint64_t dmamap_test_seed(void);

#define DMAMAP__CHECK(fatal, cond)                                                 \
	do {                                                                       \
		if (!(cond))                                                       \
			dmamap_test_fail(__FILE__, __LINE__, fatal, "%s", #cond);  \
	} while (0)
#define DMAMAP__CMP(fatal, a, op, b)                                                   \
	do {                                                                           \
		long long dmamap_a_ = (long long)(a), dmamap_b_ = (long long)(b);      \
		if (!(dmamap_a_ op dmamap_b_))                                         \
			dmamap_test_fail(__FILE__, __LINE__, fatal,                    \
					 "%s %s %s: %lld vs %lld", #a, #op, #b,        \
					 dmamap_a_, dmamap_b_);                        \
	} while (0)
/* Stop the test unless @cond holds. */
#define DMAMAP_ASSERT(cond) DMAMAP__CHECK(1, cond)
#define DMAMAP_ASSERT_EQ(a, b) DMAMAP__CMP(1, a, ==, b)
#define DMAMAP_ASSERT_NE(a, b) DMAMAP__CMP(1, a, !=, b)
#define DMAMAP_ASSERT_LT(a, b) DMAMAP__CMP(1, a, <, b)
#define DMAMAP_ASSERT_LE(a, b) DMAMAP__CMP(1, a, <=, b)
/* @expr (an int call) returns 0. */
#define DMAMAP_ASSERT_OK(expr) DMAMAP__CMP(1, expr, ==, 0)
#define DMAMAP_ASSERT_NOT_NULL(ptr) DMAMAP__CHECK(1, (ptr) != NULL)
/* The @n bytes at @a and @b are equal; the failure names the first that differs. */
#define DMAMAP_ASSERT_MEMEQ(a, b, n) dmamap_test_memeq(__FILE__, __LINE__, 1, #a, a, #b, b, n)
/* Record a failure and go on unless @cond holds. */
#define DMAMAP_EXPECT(cond) DMAMAP__CHECK(0, cond)
#define DMAMAP_EXPECT_EQ(a, b) DMAMAP__CMP(0, a, ==, b)
#define DMAMAP_EXPECT_MEMEQ(a, b, n) dmamap_test_memeq(__FILE__, __LINE__, 0, #a, a, #b, b, n)

/**
 * dmamap_test_memeq() - compare bytes for DMAMAP_ASSERT_MEMEQ()
 * @file: where
 * @line: where
 * @fatal: as dmamap_test_fail()
 * @an: the text of @a
 * @a: bytes
 * @bn: the text of @b
 * @b: bytes
 * @n: how many
 *
 * Return: true if equal; otherwise fails the test (with the first
 * differing offset and both bytes) and returns false if not fatal.
 */
DMAMAP_API bool dmamap_test_memeq(const char *file, int line, int fatal, const char *an,
				  const void *a, const char *bn, const void *b, size_t n);

/* ---- the runner ------------------------------------------------------------ */

enum dmamap_run_format {
	DMAMAP_RUN_TEXT, /* the verdict table and the first failure */
	DMAMAP_RUN_TAP,  /* TAP 13: a line per device and seed, then the table on stderr */
	DMAMAP_RUN_JSON, /* one JSON object: totals, per kind, every failure */
};

struct dmamap_run_options {
	const char *board;      /* built-in name or .dts/.dtb file; NULL: "default" */
	uint64_t first_seed;    /* 0: 1 */
	uint64_t last_seed;     /* below first_seed: first_seed */
	unsigned int jobs;      /* worker processes; 0: 1 */
	const char *device;     /* only this device (its name); NULL: every bound one */
	const char *test;       /* only this test; NULL: all */
	unsigned int timeout_s; /* per test (and per probe, per remove); 0: 10 */
	enum dmamap_run_format format;
	const char *junit;      /* also write JUnit XML to this file; NULL: no */
	FILE *out;              /* NULL: stdout */
	/*
	 * What replays a run, up to the options the runner adds (--board,
	 * --device, --seeds): "dmamap run ./acme.so", or the caller's own
	 * test program. NULL: "dmamap run".
	 */
	const char *replay;
	/* Print each failure's log lines and reports, not only the first. */
	bool verbose;
	/*
	 * The checker's ownership mode (dmamap_debug_set_ownership()): a CPU
	 * access to a buffer the device owns is trapped and reported where it
	 * happens. Slower.
	 */
	bool ownership;
	/*
	 * Write every run's trace events (<dmamap/trace.h>) to this file as
	 * Chrome trace-event JSON (Perfetto UI, chrome://tracing): a process
	 * per run, a track per device and per buffer. NULL: no.
	 */
	const char *trace;
	/* The same events as ftrace-like lines. NULL: no. */
	const char *trace_text;
};

struct dmamap_run_summary {
	unsigned long runs;       /* device x seed */
	unsigned long failed;     /* runs that failed */
	unsigned long devices;    /* bound devices taken */
	unsigned long tests;      /* test cases executed */
	unsigned long tests_failed;
	double seconds;
};

/**
 * dmamap_run() - run the registered drivers' tests on a board, seed after seed
 * @o: what to run (NULL: the defaults)
 * @sum: receives the totals (may be NULL)
 *
 * Each run (device x seed) goes to one of @o->jobs worker processes
 * forked from the caller; a run that crashes its worker, or whose test
 * outlives the timeout (the worker is killed), fails alone, with its seed,
 * and a new worker takes the next. Results are written to @o->out in
 * @o->format as the runs end; the first failure comes with the command
 * that replays it.
 *
 * Return: the number of failed runs (0: all passed); -EINVAL for bad
 * options (a board that cannot be read is one, and says why on stderr);
 * -ENODEV when no device of the board is bound to a registered driver;
 * -ENOENT when @o->test names no registered test; -EEXIST when a test
 * could not be registered (its name was taken, or 256 were registered):
 * a suite missing a test is not run (both say why on stderr); -EIO when
 * the JUnit or a trace file cannot be written; -ENOMEM.
 */
DMAMAP_API long dmamap_run(const struct dmamap_run_options *o, struct dmamap_run_summary *sum);

/**
 * dmamap_run_main() - dmamap_run() from command-line arguments
 * @argc: as main()'s
 * @argv: as main()'s; argv[0] names the program in the replay line
 *
 * The options of `dmamap run` after its shared objects: --board, --seeds
 * A[-B], --jobs, --device, --test, --timeout, --ownership, --tap, --json,
 * --junit, --trace, --trace-text, --verbose. A test program's main() can be just this call.
 *
 * Return: 0 if every run passed; 1 if one failed; 2 for bad arguments or
 * a board that cannot be run.
 */
DMAMAP_API int dmamap_run_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
