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
 */
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
