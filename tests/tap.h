/* SPDX-License-Identifier: MIT */
/*
 * A small test runner: TEST(name) registers a test; each runs in its own
 * child process so a crash or abort() fails only that test. Checks print
 * TAP-style lines on failure; the run ends with "N passed, N failed".
 */
#ifndef DMAMAP_TESTS_TAP_H
#define DMAMAP_TESTS_TAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*tap_fn)(void);
void tap_register(const char *name, tap_fn fn, bool expect_abort);
void tap_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
extern int tap_failures;

#define TEST_(name, abort_expected)                                          \
	static void test_##name(void);                                       \
	__attribute__((constructor)) static void reg_##name(void)            \
	{                                                                    \
		tap_register(#name, test_##name, abort_expected);            \
	}                                                                    \
	static void test_##name(void)

/* A test that passes when its body returns normally with no failed check. */
#define TEST(name) TEST_(name, false)
/* A test that passes only if its body calls abort() (strict mode). */
#define TEST_ABORTS(name) TEST_(name, true)

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

#endif
