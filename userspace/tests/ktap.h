/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small KTAP (Documentation/dev-tools/ktap.rst) producer for the unit
 * tests.  A test binary announces its plan, runs checks, and closes each test
 * point with ktap_result(); a failed check prints where and what it got
 * against what it wanted, and marks the current test point "not ok".
 *
 *	ktap_plan(2);
 *	KTAP_EXPECT_INT(parse("1k"), 1024);
 *	ktap_result("parse_k");
 *	...
 *	return ktap_exit();
 */
#ifndef _SLUICE_KTAP_H
#define _SLUICE_KTAP_H

#include <stdbool.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

__attribute__((format(printf, 1, 2)))
void ktap_diag(const char *fmt, ...);
void ktap_plan(unsigned int tests);
__attribute__((format(printf, 1, 2)))
void ktap_result(const char *fmt, ...);
int ktap_exit(void);

bool ktap_check(bool ok, const char *file, int line, const char *expr);
bool ktap_check_int(const char *file, int line, const char *expr,
		    long long actual, long long expected);
bool ktap_check_str(const char *file, int line, const char *expr,
		    const char *actual, const char *expected);

/* Each returns whether the check passed, for tests that cannot go on. */
#define KTAP_EXPECT(cond) \
	ktap_check(!!(cond), __FILE__, __LINE__, #cond)
#define KTAP_EXPECT_INT(actual, expected) \
	ktap_check_int(__FILE__, __LINE__, #actual, (actual), (expected))
#define KTAP_EXPECT_STR(actual, expected) \
	ktap_check_str(__FILE__, __LINE__, #actual, (actual), (expected))

#endif /* _SLUICE_KTAP_H */
