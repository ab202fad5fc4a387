/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* test.h: test_progs-style assertions for the C tests. Each binary runs its tests with
 * RUN_TEST and ends with test_summary(), whose last line run.sh adds up. */
#ifndef FLOWTOP_TEST_H
#define FLOWTOP_TEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int test_passed, test_failed, test_skipped;
static bool test_ok, test_skip;
static const char *test_name;

#define FAILF(...)                                                                                 \
	do {                                                                                       \
		printf("  %s:%d: ", __FILE__, __LINE__);                                           \
		printf(__VA_ARGS__);                                                               \
		printf("\n");                                                                      \
		test_ok = false;                                                                   \
	} while (0)

#define ASSERT_TRUE(cond)                                                                          \
	({                                                                                         \
		bool ok_ = (cond);                                                                 \
		if (!ok_)                                                                          \
			FAILF("expected true: %s", #cond);                                         \
		ok_;                                                                               \
	})

#define ASSERT_EQ(actual, expected)                                                                \
	({                                                                                         \
		long long a_ = (long long)(actual), e_ = (long long)(expected);                    \
		if (a_ != e_)                                                                      \
			FAILF("%s == %lld, expected %s == %lld", #actual, a_, #expected, e_);      \
		a_ == e_;                                                                          \
	})

#define ASSERT_STREQ(actual, expected)                                                             \
	({                                                                                         \
		const char *a_ = (actual), *e_ = (expected);                                       \
		bool ok_ = a_ && e_ && !strcmp(a_, e_);                                            \
		if (!ok_)                                                                          \
			FAILF("%s == \"%s\", expected \"%s\"", #actual, a_ ? a_ : "(null)",        \
			      e_ ? e_ : "(null)");                                                 \
		ok_;                                                                               \
	})

#define ASSERT_DBL(actual, expected)                                                               \
	({                                                                                         \
		double a_ = (actual), e_ = (expected);                                             \
		bool ok_ = a_ - e_ < 1e-9 && e_ - a_ < 1e-9;                                       \
		if (!ok_)                                                                          \
			FAILF("%s == %.9g, expected %.9g", #actual, a_, e_);                       \
		ok_;                                                                               \
	})

#define ASSERT_OK(err)                                                                             \
	({                                                                                         \
		long long r_ = (long long)(err);                                                   \
		if (r_)                                                                            \
			FAILF("%s failed: %lld", #err, r_);                                        \
		!r_;                                                                               \
	})

static inline void run_test(const char *name, void (*fn)(void))
{
	test_name = name;
	test_ok = true;
	test_skip = false;
	fn();
	if (test_skip && test_ok) {
		test_skipped++;
		printf("skip %s\n", name);
	} else if (test_ok) {
		test_passed++;
		printf("ok   %s\n", name);
	} else {
		test_failed++;
		printf("FAIL %s\n", name);
	}
	fflush(stdout);
}

#define RUN_TEST(fn) run_test(#fn, fn)

static inline bool test_ci(void)
{
	const char *ci = getenv("CI");

	return ci && !strcmp(ci, "true");
}

/* Skips the test that calls it, for `why` (the machine cannot run it), unless CI=true:
 * there it fails, as a skip would hide a test that must run. */
static inline void test_cannot_run(const char *why)
{
	printf("  %s%s\n", why, test_ci() ? ", and CI=true forbids skipping" : "");
	if (test_ci())
		test_ok = false;
	else
		test_skip = true;
}

/* Skips the rest of a binary whose tests need root, unless CI=true: there a skip
 * would hide a test that must run, so it counts as a failure. */
static inline bool test_need_root(const char *what, int count)
{
	if (geteuid() == 0)
		return true;
	if (test_ci()) {
		printf("FAIL %s: needs root, and CI=true forbids skipping\n", what);
		test_failed += count;
	} else {
		printf("skip %s: needs root and BPF (run make check as root)\n", what);
		test_skipped += count;
	}
	return false;
}

static inline int test_summary(const char *suite)
{
	printf("# %s: %d passed, %d failed, %d skipped\n", suite, test_passed, test_failed,
	       test_skipped);
	return test_failed ? 1 : 0;
}

#endif
