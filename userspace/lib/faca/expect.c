// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the placement alone decides of the micro-benchmark on a fabric
 * (sluice/faca_model.h, sluice_faca_expect_*()): a leaf's flows over its
 * paths to its pair, each path shared equally by its flows.  Every metric
 * depends only on how many flows each path got, so the expectation over
 * random placement is a sum over the ways to split the flows (their
 * counts per path), each weighted by its multinomial probability, instead
 * of over the paths^flows assignments.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/faca_model.h>
#include "graph/internal.h"

/* A path offered more than this over its capacity is congested. */
#define OVER		(1 + 1e-9)

struct split {
	const double		*cap;
	double			logw[SLUICE_FACA_EXPECT_PATHS];
	uint32_t		paths, flows;
	double			rate, log_fact_flows;
	uint32_t		n[SLUICE_FACA_EXPECT_PATHS];
	struct sluice_faca_expect	*e;
};

static int check(const double *cap, const double *w, uint32_t paths,
		 double rate, char *err, size_t errlen)
{
	uint32_t p;

	if (!paths || paths > SLUICE_FACA_EXPECT_PATHS)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%u paths: 1 to %u", paths,
				     SLUICE_FACA_EXPECT_PATHS);
	if (!(rate > 0) || !isfinite(rate))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "a flow's rate is finite and above 0");
	for (p = 0; p < paths; p++)
		if (!(cap[p] > 0) || !isfinite(cap[p]) ||
		    (w && (!(w[p] > 0) || !isfinite(w[p]))))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "path %u: its capacity%s finite and above 0",
					     p, w ? " and weight are" : " is");
	return 0;
}

/* The metrics of one split, @n[p] flows on path p. */
static void split_metrics(const double *cap, const uint32_t *n,
			  uint32_t paths, double rate,
			  struct sluice_faca_expect *m)
{
	double tp, sum = 0, sum2 = 0, fsum = 0, fsum2 = 0, f;
	uint32_t p, flows = 0, congested = 0;

	for (p = 0; p < paths; p++) {
		tp = n[p] * rate < cap[p] ? n[p] * rate : cap[p];
		congested += n[p] * rate > cap[p] * OVER;
		sum += tp;
		sum2 += tp * tp;
		if (!n[p])
			continue;
		f = tp / n[p];
		flows += n[p];
		fsum += n[p] * f;
		fsum2 += n[p] * f * f;
	}
	m->congestion = (double)congested / paths;
	m->throughput = sum;
	m->port_sd = sqrt(fmax(0, sum2 / paths - (sum / paths) *
			       (sum / paths)));
	m->flow_sd = flows ? sqrt(fmax(0, fsum2 / flows - (fsum / flows) *
					  (fsum / flows))) : 0;
}

/* Every split of @left flows over paths @p.., path p's count first. */
static void splits(struct split *s, uint32_t p, uint32_t left, double logpr)
{
	struct sluice_faca_expect m;
	double pr;
	uint32_t k;

	if (p == s->paths - 1) {
		s->n[p] = left;
		pr = exp(s->log_fact_flows + logpr + left * s->logw[p] -
			 lgamma(left + 1.0));
		split_metrics(s->cap, s->n, s->paths, s->rate, &m);
		s->e->congestion += pr * m.congestion;
		s->e->throughput += pr * m.throughput;
		s->e->port_sd += pr * m.port_sd;
		s->e->flow_sd += pr * m.flow_sd;
		return;
	}
	for (k = 0; k <= left; k++) {
		s->n[p] = k;
		splits(s, p + 1, left - k,
		       logpr + k * s->logw[p] - lgamma(k + 1.0));
	}
}

/**
 * sluice_faca_expect_random() - the metrics' expectations under random
 * placement
 * @cap:	per path, its capacity
 * @w:		per path, its weight (NULL: equal, ECMP)
 * @paths:	how many
 * @flows:	the leaf's flows, each offering @rate
 * @rate:	a flow's demand, its host's link
 * @e:		set to the expectations
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Return: 0, -EINVAL or -E2BIG.
 */
int sluice_faca_expect_random(const double *cap, const double *w,
			      uint32_t paths, uint32_t flows, double rate,
			      struct sluice_faca_expect *e, char *err,
			      size_t errlen)
{
	struct split s = {
		.cap = cap, .paths = paths, .flows = flows, .rate = rate, .e = e,
	};
	double ways, total = 0;
	uint32_t p;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = check(cap, w, paths, rate, err, errlen);
	if (ret)
		return ret;
	/* C(flows + paths - 1, paths - 1), growing term by term */
	ways = 1;
	for (p = 1; p < paths && ways <= SLUICE_FACA_EXPECT_WAYS; p++)
		ways = ways * (flows + p) / p;
	if (ways > SLUICE_FACA_EXPECT_WAYS)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "%u flows split over %u paths in more than %u ways",
				     flows, paths, SLUICE_FACA_EXPECT_WAYS);
	for (p = 0; p < paths; p++)
		total += w ? w[p] : 1;
	for (p = 0; p < paths; p++)
		s.logw[p] = log((w ? w[p] : 1) / total);
	s.log_fact_flows = lgamma(flows + 1.0);
	splits(&s, 0, flows, 0);
	return 0;
}

/**
 * sluice_faca_expect_balanced() - the metrics of the balanced placement
 * @cap:	per path, its capacity
 * @paths:	how many
 * @flows:	the leaf's flows, each offering @rate
 * @rate:	a flow's demand
 * @e:		set to the metrics
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Each flow in turn goes on the path whose utilisation with it, (flows +
 * 1) x @rate / capacity, is the lowest (the first of equals).
 *
 * Return: 0 or -EINVAL.
 */
int sluice_faca_expect_balanced(const double *cap, uint32_t paths,
				uint32_t flows, double rate,
				struct sluice_faca_expect *e, char *err,
				size_t errlen)
{
	uint32_t n[SLUICE_FACA_EXPECT_PATHS] = { 0 }, p, best, f;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = check(cap, NULL, paths, rate, err, errlen);
	if (ret)
		return ret;
	for (f = 0; f < flows; f++) {
		best = 0;
		for (p = 1; p < paths; p++)
			if ((n[p] + 1) / cap[p] < (n[best] + 1) / cap[best])
				best = p;
		n[best]++;
	}
	split_metrics(cap, n, paths, rate, e);
	return 0;
}
