// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CLI's progress line (progress.h): redrawn in place on stderr while
 * it is a terminal, throttled, so that a pipe or a log never gets it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "progress.h"

bool cli_progress_wanted(void)
{
	return isatty(STDERR_FILENO);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void cli_progress(void *arg, uint32_t done, uint32_t total)
{
	struct cli_progress *p = arg;
	double t = now_s();

	if (!p->first) {
		const char *env = getenv("SLUICECTL_PROGRESS_DELAY");
		char *end;
		double d;

		p->first = t;
		/* scripts and tests may shorten (or lengthen) the wait */
		if (p->delay > 0 && env && *env) {
			d = strtod(env, &end);
			if (!*end && d >= 0 && d <= 3600)
				p->delay = d;
		}
	}
	/* work that ends within the delay draws nothing at all */
	if (!p->open && t - p->first < p->delay)
		return;
	/* the last count is always drawn, the others ten times a second */
	if (done < total && p->open && t - p->last < 0.1)
		return;
	p->last = t;
	fprintf(stderr, "\rsluicectl: %s %u/%u %s", p->what, done, total,
		p->unit);
	p->open = true;
	if (done >= total)
		cli_progress_end(p);
}

void cli_progress_end(struct cli_progress *p)
{
	if (!p->open)
		return;
	fputc('\n', stderr);
	p->open = false;
}
