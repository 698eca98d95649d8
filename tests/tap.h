/* SPDX-License-Identifier: MIT */
/*
 * A small test runner: TEST(name) registers a test; each runs in its own
 * child process so a crash, an abort() or a hang fails only that test.
 * Checks print TAP-style lines on failure; the run ends with
 * "N passed, N failed, N skipped".
 *
 * A test that runs longer than its timeout is killed and reported as
 * "not ok N - name # timeout after Ss": 120 s unless the environment sets
 * DMAMAP_TEST_TIMEOUT (seconds); TEST_TIMEOUT(name, secs) asks for more.
 * SKIP("reason") inside a test ends it as "ok N - name # SKIP reason", for
 * what cannot run in this build or on this machine.
 */
#ifndef DMAMAP_TESTS_TAP_H
#define DMAMAP_TESTS_TAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*tap_fn)(void);
/* @timeout: seconds the test needs at least; 0 for the run's default. */
void tap_register(const char *name, tap_fn fn, bool expect_abort,
		  unsigned int timeout);
void tap_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tap_skip(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
extern int tap_failures;
/*
 * The stride of the long loops (seed sweeps, failure-point walks,
 * corrupted-blob rounds): DMAMAP_TEST_SAMPLE, 1 (every case) when unset.
 * The cross-architecture runs under an emulator set it, so that every
 * test still runs there at a fraction of its native cost; natively each
 * loop takes every case.
 */
unsigned int tap_sample(void);

#define TEST_(name, abort_expected, timeout)                                 \
	static void test_##name(void);                                       \
	__attribute__((constructor)) static void reg_##name(void)            \
	{                                                                    \
		tap_register(#name, test_##name, abort_expected, timeout);   \
	}                                                                    \
	static void test_##name(void)

/* A test that passes when its body returns normally with no failed check. */
#define TEST(name) TEST_(name, false, 0)
/* A test that passes only if its body calls abort() (strict mode). */
#define TEST_ABORTS(name) TEST_(name, true, 0)
/* A test that needs at least @secs seconds (more than the default allows). */
#define TEST_TIMEOUT(name, secs) TEST_(name, false, secs)

/* End the test here as skipped, with the reason (printf format). */
#define SKIP(...) tap_skip(__FILE__, __LINE__, __VA_ARGS__)

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond))                                                 \
			tap_fail(__FILE__, __LINE__, "%s", #cond);           \
	} while (0)

#define CHECK_MSG(cond, ...)                                                 \
	do {                                                                 \
		if (!(cond))                                                 \
			tap_fail(__FILE__, __LINE__, __VA_ARGS__);           \
	} while (0)

#define CHECK_EQ(a, b)                                                       \
	do {                                                                 \
		long long a_ = (long long)(a), b_ = (long long)(b);          \
		if (a_ != b_)                                                \
			tap_fail(__FILE__, __LINE__, "%s == %s (%lld != %lld)", \
				 #a, #b, a_, b_);                            \
	} while (0)

#define CHECK_MEM(a, b, n)                                                   \
	do {                                                                 \
		if (memcmp((a), (b), (n)) != 0)                              \
			tap_fail(__FILE__, __LINE__, "bytes of %s != %s", #a, #b); \
	} while (0)

/* Stop the test here (after a failed precondition). */
#define REQUIRE(cond)                                                        \
	do {                                                                 \
		if (!(cond)) {                                               \
			tap_fail(__FILE__, __LINE__, "required: %s", #cond); \
			return;                                              \
		}                                                            \
	} while (0)

#define REQUIRE_MSG(cond, ...)                                               \
	do {                                                                 \
		if (!(cond)) {                                               \
			tap_fail(__FILE__, __LINE__, __VA_ARGS__);           \
			return;                                              \
		}                                                            \
	} while (0)

#endif
