// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict of one run of the deadlock experiment (sluice/experiment.h),
 * from the bytes delivered in each sample and what the live detector
 * found: pure, so that the unit tests pin it down.
 *
 * The fabric stopped when the last quiet_ms (rounded up to whole samples)
 * delivered nothing at all.  Stopped with a wait-for cycle (or with the
 * detector not run) is a deadlock; stopped without one is only "stopped".
 * Delivering at the end after a stop at least as long earlier is
 * "recovered" (what the PFC watchdog in drop mode does to a deadlock).
 * The judgement of a run weighs that verdict against the route set's CBD
 * check and the watchdog's work.
 */
#include <stdio.h>
#include <string.h>
#include <sluice/experiment.h>

static const char *const names[] = {
	[SLUICE_VERDICT_FLOWING]	= "flowing",
	[SLUICE_VERDICT_DEADLOCK]	= "deadlock",
	[SLUICE_VERDICT_STOPPED]	= "stopped",
	[SLUICE_VERDICT_RECOVERED]	= "recovered",
};

const char *sluice_verdict_name(enum sluice_verdict v)
{
	return (unsigned int)v < sizeof(names) / sizeof(names[0]) ?
	       names[v] : "?";
}

/**
 * sluice_verdict() - what happened, from the samples
 * @in:		the samples, their interval, the quiet time, the detector
 * @out:	the verdict and where the stop began
 */
void sluice_verdict(const struct sluice_verdict_in *in,
		    struct sluice_verdict_out *out)
{
	uint32_t iv = in->interval_ms ? in->interval_ms : 1;
	uint32_t quiet = (in->quiet_ms + iv - 1) / iv, run = 0, i;
	bool stopped;

	if (!quiet)
		quiet = 1;
	out->longest_zero = 0;
	for (i = 0; i < in->n; i++) {
		run = in->rx[i] ? 0 : run + 1;
		if (run > out->longest_zero)
			out->longest_zero = run;
	}
	out->zero_from = in->n - run;
	stopped = in->n && run >= quiet;
	out->stopped_at = stopped ? out->zero_from * (double)iv / 1000 : -1;
	if (stopped)
		out->verdict = in->cycle ? SLUICE_VERDICT_DEADLOCK :
			       SLUICE_VERDICT_STOPPED;
	else if (out->longest_zero >= quiet)
		out->verdict = SLUICE_VERDICT_RECOVERED;
	else
		out->verdict = SLUICE_VERDICT_FLOWING;
}

/* See sluice/experiment.h. */
void sluice_dl_judge(const struct sluice_dl_judge_in *in,
		     struct sluice_dl_judge_out *out)
{
	const char *wd = in->wd_action;
	bool drop = wd && strcmp(wd, "alert");
	struct sluice_verdict_out *v = &out->v;

	memset(out, 0, sizeof(*out));
	sluice_verdict(&in->run, v);
	out->wd_broke = drop && v->verdict != SLUICE_VERDICT_DEADLOCK &&
			v->verdict != SLUICE_VERDICT_STOPPED &&
			in->wd_storms && (in->wd_drops || strcmp(wd, "drop"));
	if (!in->cbd) {
		out->as_predicted = v->verdict == SLUICE_VERDICT_FLOWING;
		if (!out->as_predicted)
			snprintf(out->why, sizeof(out->why),
				 "CBD-free routes, yet delivery stopped for %.1f s: not a routing deadlock (is the machine's CPU the bottleneck?)",
				 v->longest_zero * in->run.interval_ms / 1000.0);
		return;
	}
	if (drop) {
		out->as_predicted = out->wd_broke;
		if (!out->as_predicted && v->verdict == SLUICE_VERDICT_FLOWING &&
		    !in->wd_storms)
			snprintf(out->why, sizeof(out->why),
				 "no deadlock formed in this run (no watchdog storm); a CBD makes one possible, not certain");
		else if (!out->as_predicted)
			snprintf(out->why, sizeof(out->why),
				 "the watchdog (%s) did not break the deadlock: %s, %llu storms, %llu frames dropped",
				 wd, sluice_verdict_name(v->verdict),
				 (unsigned long long)in->wd_storms,
				 (unsigned long long)in->wd_drops);
		return;
	}
	out->as_predicted = v->verdict == SLUICE_VERDICT_DEADLOCK;
	if (out->as_predicted)
		return;
	if (v->verdict == SLUICE_VERDICT_STOPPED)
		snprintf(out->why, sizeof(out->why),
			 "delivery stopped but the detector found no wait-for cycle");
	else
		snprintf(out->why, sizeof(out->why),
			 "no deadlock formed in this run; a CBD makes one possible, not certain");
}
