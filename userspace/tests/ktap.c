// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "ktap.h"

static struct {
	unsigned int	planned;
	unsigned int	run;
	unsigned int	failed;
	bool		current_failed;
} ktap;

void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

void ktap_plan(unsigned int tests)
{
	ktap.planned = tests;
	printf("KTAP version 1\n1..%u\n", tests);
}

void ktap_result(const char *fmt, ...)
{
	va_list ap;

	ktap.run++;
	if (ktap.current_failed)
		ktap.failed++;
	printf("%sok %u ", ktap.current_failed ? "not " : "", ktap.run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	ktap.current_failed = false;
}

int ktap_exit(void)
{
	if (ktap.run != ktap.planned)
		ktap_diag("planned %u tests but ran %u", ktap.planned, ktap.run);
	ktap_diag("totals: pass:%u fail:%u", ktap.run - ktap.failed,
		  ktap.failed);
	return ktap.failed || ktap.run != ktap.planned;
}

bool ktap_check(bool ok, const char *file, int line, const char *expr)
{
	if (!ok) {
		ktap_diag("%s:%d: expected %s", file, line, expr);
		ktap.current_failed = true;
	}
	return ok;
}

bool ktap_check_int(const char *file, int line, const char *expr,
		    long long actual, long long expected)
{
	if (actual == expected)
		return true;
	ktap_diag("%s:%d: %s is %lld, expected %lld", file, line, expr,
		  actual, expected);
	ktap.current_failed = true;
	return false;
}

bool ktap_check_str(const char *file, int line, const char *expr,
		    const char *actual, const char *expected)
{
	if (actual == expected || (actual && expected && !strcmp(actual, expected)))
		return true;
	ktap_diag("%s:%d: %s is %s%s%s, expected %s%s%s", file, line, expr,
		  actual ? "\"" : "", actual ? actual : "NULL",
		  actual ? "\"" : "", expected ? "\"" : "",
		  expected ? expected : "NULL", expected ? "\"" : "");
	ktap.current_failed = true;
	return false;
}
