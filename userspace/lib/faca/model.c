// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flow-level model of FaCa's evaluation (sluice/faca_model.h says
 * what it models and what it measures): a leaf-spine, rounds of flows
 * placed by every source at once on the loads of the round's start, and
 * max-min fair sharing of the spines (lib/flow/maxmin.c) to turn offered
 * load into throughput.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/faca_model.h>
#include <sluice/fj.h>
#include <sluice/flow.h>
#include <sluice/rng.h>
#include "graph/internal.h"

/* A spine offered more than this over its capacity is overloaded. */
#define OVER		(1 + 1e-9)
/* Policy p of run i draws from seed + i mixed with this times p + 1. */
#define POLICY_STREAM	0x9e3779b97f4a7c15ull

enum metric { M_CONGESTION, M_OVERFLOW, M_MAX_UTIL, M_PORT_SD, M_THROUGHPUT,
	N_METRICS };

static const char *const policy_names[SLUICE_FACA_POLICIES] = {
	"ecmp", "wcmp", "greedy", "fj", "optimum",
};

/**
 * sluice_faca_policy_name() - a policy's name in tables and JSON
 * @p:	the policy
 *
 * Return: "ecmp", "wcmp", "greedy", "fj" or "optimum"; NULL out of range.
 */
const char *sluice_faca_policy_name(enum sluice_faca_policy p)
{
	return (unsigned int)p < SLUICE_FACA_POLICIES ? policy_names[p] : NULL;
}

/**
 * sluice_faca_micro() - Section 7.3's micro-benchmark, scaled
 * @m:		filled
 * @leaves:	leaves (the paper: 16)
 * @spines:	spines (the paper: 8)
 */
void sluice_faca_micro(struct sluice_faca_model *m, uint32_t leaves,
		       uint32_t spines)
{
	/* the spines' even share of what all leaves can send */
	double share = spines ? 200.0 * leaves / spines : 0;

	*m = (struct sluice_faca_model){
		.leaves = leaves, .spines = spines, .slow_spines = spines / 2,
		.slow_cap = 0.95 * share, .fast_cap = share, .leaf_cap = 200,
		.flow_size = 10, .flows = 2, .rounds = 10, .runs = 20,
		.seed = 1,
	};
}

/**
 * sluice_faca_production() - Section 7.1's test on one leaf's uplinks
 * @m:		filled
 */
void sluice_faca_production(struct sluice_faca_model *m)
{
	*m = (struct sluice_faca_model){
		.leaves = 2, .spines = 10, .slow_spines = 0, .fast_cap = 400,
		.slow_cap = 400, .leaf_cap = 2000, .flow_size = 100,
		.flows = 20, .rounds = 1, .one_way = true, .runs = 20,
		.seed = 1,
	};
}

static bool positive(double v)
{
	return isfinite(v) && v > 0;
}

static int model_check(const struct sluice_faca_model *m, char *err,
		       size_t errlen)
{
	uint64_t senders, flows;

	if (m->leaves < 2 || m->leaves % 2 || m->leaves > SLUICE_FACA_LEAVES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%u leaves: an even number from 2 to %u (leaves send in pairs)",
				     m->leaves, SLUICE_FACA_LEAVES_MAX);
	if (!m->spines || m->spines > SLUICE_FACA_SPINES_MAX ||
	    m->slow_spines > m->spines)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%u spines, %u of them slow: 1 to %u spines, no more slow ones than spines",
				     m->spines, m->slow_spines,
				     SLUICE_FACA_SPINES_MAX);
	if (!positive(m->slow_cap) || !positive(m->fast_cap) ||
	    !positive(m->leaf_cap) || !positive(m->flow_size))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "capacities and the flow size are finite and above 0");
	if (!m->flows || !m->rounds || !m->runs ||
	    m->runs > SLUICE_FACA_RUNS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "flows a round, rounds and runs (up to %u) are at least 1",
				     SLUICE_FACA_RUNS_MAX);
	if ((double)m->flows * m->rounds * m->flow_size > m->leaf_cap * OVER)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%u rounds of %u flows of %g offer more than a leaf's %g",
				     m->rounds, m->flows, m->flow_size,
				     m->leaf_cap);
	senders = m->one_way ? m->leaves / 2 : m->leaves;
	flows = senders * m->flows * m->rounds;
	if (flows > SLUICE_FACA_FLOWS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "%llu flows in a run: at most %u",
				     (unsigned long long)flows,
				     SLUICE_FACA_FLOWS_MAX);
	return 0;
}

/* The working state of one run of one policy. */
struct frun {
	const struct sluice_faca_model	*m;
	uint32_t	senders, spines;
	uint32_t	n;		/* flows placed so far */
	uint32_t	round;
	double		*cap, cap_total;
	double		*off;		/* offered per spine */
	double		*snap;		/* offered at the round's start */
	double		*view;		/* a source's view */
	double		*port_off;	/* [sender * spines + spine] */
	double		*port_tput;
	uint32_t	*flow_spine, *flow_sender;
	unsigned int	*path_of;	/* a source's flows of the round */
	double		*demand;
	/* max-min: spines, then one resource per flow, its size */
	double		*mm_cap, *rate;
	uint64_t	*flow_res;
	uint32_t	*res;
	struct sluice_rng rng;
	double		metric[N_METRICS];
};

static void frun_free(struct frun *r)
{
	free(r->cap);
	free(r->off);
	free(r->snap);
	free(r->view);
	free(r->port_off);
	free(r->port_tput);
	free(r->flow_spine);
	free(r->flow_sender);
	free(r->path_of);
	free(r->demand);
	free(r->mm_cap);
	free(r->rate);
	free(r->flow_res);
	free(r->res);
}

static int frun_alloc(struct frun *r, const struct sluice_faca_model *m)
{
	size_t s, ports, nmax;
	uint32_t k;

	r->m = m;
	r->senders = m->one_way ? m->leaves / 2 : m->leaves;
	r->spines = m->spines;
	s = m->spines;
	ports = (size_t)r->senders * s;
	nmax = (size_t)r->senders * m->flows * m->rounds;
	r->cap = sluice_i_calloc(s, sizeof(*r->cap));
	r->off = sluice_i_calloc(s, sizeof(*r->off));
	r->snap = sluice_i_calloc(s, sizeof(*r->snap));
	r->view = sluice_i_calloc(s, sizeof(*r->view));
	r->port_off = sluice_i_calloc(ports, sizeof(*r->port_off));
	r->port_tput = sluice_i_calloc(ports, sizeof(*r->port_tput));
	r->flow_spine = sluice_i_calloc(nmax, sizeof(*r->flow_spine));
	r->flow_sender = sluice_i_calloc(nmax, sizeof(*r->flow_sender));
	r->path_of = sluice_i_calloc(m->flows, sizeof(*r->path_of));
	r->demand = sluice_i_calloc(m->flows, sizeof(*r->demand));
	r->mm_cap = sluice_i_calloc(s + nmax, sizeof(*r->mm_cap));
	r->rate = sluice_i_calloc(nmax, sizeof(*r->rate));
	r->flow_res = sluice_i_calloc(nmax + 1, sizeof(*r->flow_res));
	r->res = sluice_i_calloc(2 * nmax, sizeof(*r->res));
	if (!r->cap || !r->off || !r->snap || !r->view || !r->port_off ||
	    !r->port_tput || !r->flow_spine || !r->flow_sender ||
	    !r->path_of || !r->demand || !r->mm_cap || !r->rate ||
	    !r->flow_res || !r->res)
		return -ENOMEM;
	for (k = 0; k < m->spines; k++) {
		r->cap[k] = k < m->slow_spines ? m->slow_cap : m->fast_cap;
		r->cap_total += r->cap[k];
	}
	for (k = 0; k < m->flows; k++)
		r->demand[k] = m->flow_size;
	return 0;
}

/* A fresh run of policy @p: nothing placed, its own random stream. */
static void frun_start(struct frun *r, uint64_t seed, enum sluice_faca_policy p)
{
	size_t ports = (size_t)r->senders * r->spines;

	r->n = 0;
	memset(r->off, 0, r->spines * sizeof(*r->off));
	memset(r->port_off, 0, ports * sizeof(*r->port_off));
	sluice_rng_seed(&r->rng, seed ^ (POLICY_STREAM * (p + 1)));
}

/* A uniform double in [0, 1), from the top 53 bits. */
static double uniform(struct sluice_rng *rng)
{
	return (double)(sluice_rng_next(rng) >> 11) * 0x1p-53;
}

static uint32_t pick_wcmp(struct frun *r)
{
	double x = uniform(&r->rng) * r->cap_total;
	uint32_t k;

	for (k = 0; k + 1 < r->spines; k++) {
		x -= r->cap[k];
		if (x < 0)
			break;
	}
	return k;
}

/* The lightest spine of the source's view, ties broken at random. */
static uint32_t pick_greedy(struct frun *r)
{
	double best = INFINITY, u;
	uint32_t k, ties = 0, pick;

	for (k = 0; k < r->spines; k++) {
		u = r->view[k] / r->cap[k];
		if (u < best) {
			best = u;
			ties = 0;
		}
		ties += u == best;
	}
	pick = (uint32_t)sluice_rng_below(&r->rng, ties);
	for (k = 0;; k++)
		if (r->view[k] / r->cap[k] == best && !pick--)
			return k;
}

static unsigned int fj_draw(void *arg)
{
	struct frun *r = arg;

	return (unsigned int)sluice_rng_below(&r->rng, r->spines);
}

/* Sender @s's flows of the round, on the source's own view. */
static void place(struct frun *r, enum sluice_faca_policy p, uint32_t s)
{
	struct sluice_fj_ring ring = {
		.load = r->view, .cap = r->cap, .npaths = r->spines,
		.draw = fj_draw, .draw_arg = r,
	};
	const struct sluice_faca_model *m = r->m;
	uint32_t j, k;

	memcpy(r->view, r->snap, r->spines * sizeof(*r->view));
	/* the ring was checked with the model: it cannot refuse */
	if (p == SLUICE_FACA_FJ)
		sluice_fj_place_ring(&ring, r->demand, m->flows, r->path_of);
	for (j = 0; j < m->flows; j++) {
		if (p == SLUICE_FACA_ECMP)
			k = (uint32_t)sluice_rng_below(&r->rng, r->spines);
		else if (p == SLUICE_FACA_WCMP)
			k = pick_wcmp(r);
		else if (p == SLUICE_FACA_GREEDY)
			k = pick_greedy(r);
		else
			k = r->path_of[j];
		if (p == SLUICE_FACA_GREEDY)
			r->view[k] += m->flow_size;
		r->flow_spine[r->n] = k;
		r->flow_sender[r->n++] = s;
		r->off[k] += m->flow_size;
		r->port_off[(size_t)s * r->spines + k] += m->flow_size;
	}
}

/* The population standard deviation of @v. */
static double pop_sd(const double *v, size_t n)
{
	double mean = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		mean += v[i];
	mean /= (double)n;
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (double)n);
}

/* Offered load: congestion, overflow, the highest utilisation. */
static void measure_offered(struct frun *r)
{
	uint64_t congested = 0;
	double total = 0, over = 0, u, max_util = 0;
	uint32_t s, k;

	for (k = 0; k < r->spines; k++) {
		total += r->off[k];
		u = r->off[k] / r->cap[k];
		max_util = u > max_util ? u : max_util;
		if (r->off[k] <= r->cap[k] * OVER)
			continue;
		over += r->off[k] - r->cap[k];
		for (s = 0; s < r->senders; s++)
			congested += r->port_off[(size_t)s * r->spines + k] > 0;
	}
	r->metric[M_CONGESTION] = (double)congested /
				  ((double)r->senders * r->spines);
	r->metric[M_OVERFLOW] = over / total;
	r->metric[M_MAX_UTIL] = max_util;
}

/* Max-min fair rates of the flows placed: port throughput, aggregate. */
static int measure_maxmin(struct frun *r, char *err, size_t errlen)
{
	size_t ports = (size_t)r->senders * r->spines;
	double sum = 0;
	uint32_t f, k;
	int ret;

	for (k = 0; k < r->spines; k++)
		r->mm_cap[k] = r->cap[k];
	for (f = 0; f < r->n; f++) {
		r->mm_cap[r->spines + f] = r->m->flow_size;
		r->flow_res[f] = 2 * (uint64_t)f;
		r->res[2 * f] = r->flow_spine[f];
		r->res[2 * f + 1] = r->spines + f;
	}
	r->flow_res[r->n] = 2 * (uint64_t)r->n;
	ret = sluice_maxmin_fill(r->spines + r->n, r->mm_cap, r->n,
				 r->flow_res, r->res, r->rate, err, errlen);
	if (ret)
		return ret;
	memset(r->port_tput, 0, ports * sizeof(*r->port_tput));
	for (f = 0; f < r->n; f++) {
		r->port_tput[(size_t)r->flow_sender[f] * r->spines +
			     r->flow_spine[f]] += r->rate[f];
		sum += r->rate[f];
	}
	r->metric[M_PORT_SD] = pop_sd(r->port_tput, ports);
	r->metric[M_THROUGHPUT] = sum;
	return 0;
}

/*
 * The optimum after round @round: each sender's load D split over the
 * spines in proportion to capacity, every spine at utilisation u.
 */
static void measure_optimum(struct frun *r, uint32_t round)
{
	const struct sluice_faca_model *m = r->m;
	double d = (double)(round + 1) * m->flows * m->flow_size;
	double total = d * r->senders, u = total / r->cap_total;
	double scale = u > 1 ? 1 / u : 1;
	uint32_t k;

	r->metric[M_CONGESTION] = u > OVER ? 1 : 0;
	r->metric[M_OVERFLOW] = u > OVER ? (u - 1) / u : 0;
	r->metric[M_MAX_UTIL] = u;
	/*
	 * every sender's ports alike: the spread is the spines' (in the
	 * view, which the optimum, placing nothing, leaves free)
	 */
	for (k = 0; k < r->spines; k++)
		r->view[k] = d * r->cap[k] / r->cap_total * scale;
	r->metric[M_PORT_SD] = pop_sd(r->view, r->spines);
	r->metric[M_THROUGHPUT] = total * scale;
}

/* Welford's running mean and sum of squared deviations, per metric. */
struct acc {
	uint32_t	n;
	double		mean[N_METRICS];
	double		m2[N_METRICS];
};

static void acc_add(struct acc *a, const double *v)
{
	double d;
	int i;

	a->n++;
	for (i = 0; i < N_METRICS; i++) {
		d = v[i] - a->mean[i];
		a->mean[i] += d / a->n;
		a->m2[i] += d * (v[i] - a->mean[i]);
	}
}

static struct sluice_faca_stat acc_stat(const struct acc *a, int i)
{
	struct sluice_faca_stat s = { .mean = a->mean[i] };

	if (a->n > 1 && a->m2[i] > 0)
		s.sd = sqrt(a->m2[i] / (a->n - 1));
	return s;
}

static int one_run(struct frun *r, uint64_t seed, enum sluice_faca_policy p,
		   struct acc *acc, char *err, size_t errlen)
{
	uint32_t round, s;
	int ret;

	frun_start(r, seed, p);
	for (round = 0; round < r->m->rounds; round++) {
		if (p == SLUICE_FACA_OPTIMUM) {
			measure_optimum(r, round);
		} else {
			memcpy(r->snap, r->off, r->spines * sizeof(*r->snap));
			for (s = 0; s < r->senders; s++)
				place(r, p, s);
			measure_offered(r);
			ret = measure_maxmin(r, err, errlen);
			if (ret)
				return ret;
		}
		acc_add(&acc[round], r->metric);
	}
	return 0;
}

static void result_fill(const struct sluice_faca_model *m,
			const struct acc *acc, uint32_t senders,
			struct sluice_faca_result *res)
{
	struct sluice_faca_point *pt;
	uint32_t p, round;

	for (round = 0; round < m->rounds; round++) {
		res->load[round] = (double)(round + 1) * m->flows *
				   m->flow_size / m->leaf_cap;
		res->offered[round] = res->load[round] * m->leaf_cap * senders;
	}
	for (p = 0; p < SLUICE_FACA_POLICIES; p++)
		for (round = 0; round < m->rounds; round++) {
			const struct acc *a = &acc[p * m->rounds + round];

			pt = &res->p[p * m->rounds + round];
			pt->congestion = acc_stat(a, M_CONGESTION);
			pt->overflow = acc_stat(a, M_OVERFLOW);
			pt->max_util = acc_stat(a, M_MAX_UTIL);
			pt->port_sd = acc_stat(a, M_PORT_SD);
			pt->throughput = acc_stat(a, M_THROUGHPUT);
		}
}

/**
 * sluice_faca_model_run() - every policy, every round, over the runs
 * @m:		the model
 * @res:	filled (sluice_faca_result_free() it)
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (a model out of sluice/faca_model.h's bounds), -E2BIG
 * (too many flows) or -ENOMEM.
 */
int sluice_faca_model_run(const struct sluice_faca_model *m,
			  struct sluice_faca_result *res,
			  char *err, size_t errlen)
{
	struct frun r = { 0 };
	struct acc *acc = NULL;
	uint32_t run, p;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = model_check(m, err, errlen);
	if (ret)
		return ret;
	res->rounds = m->rounds;
	res->load = sluice_i_calloc(m->rounds, sizeof(*res->load));
	res->offered = sluice_i_calloc(m->rounds, sizeof(*res->offered));
	res->p = sluice_i_calloc((size_t)SLUICE_FACA_POLICIES * m->rounds,
				 sizeof(*res->p));
	acc = sluice_i_calloc((size_t)SLUICE_FACA_POLICIES * m->rounds,
			      sizeof(*acc));
	if (!res->load || !res->offered || !res->p || !acc ||
	    frun_alloc(&r, m)) {
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (run = 0; run < m->runs; run++)
		for (p = 0; p < SLUICE_FACA_POLICIES; p++) {
			ret = one_run(&r, m->seed + run, p,
				      &acc[p * m->rounds], err, errlen);
			if (ret)
				goto out;
		}
	result_fill(m, acc, r.senders, res);
out:
	frun_free(&r);
	free(acc);
	if (ret)
		sluice_faca_result_free(res);
	return ret;
}

/**
 * sluice_faca_result_free() - what sluice_faca_model_run() allocated
 * @res:	the result; zeroed
 */
void sluice_faca_result_free(struct sluice_faca_result *res)
{
	free(res->load);
	free(res->offered);
	free(res->p);
	memset(res, 0, sizeof(*res));
}
