// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The path-restricted maximum concurrent flow, approximately: Garg and
 * Koenemann's multiplicative-weights method ("Faster and simpler algorithms
 * for multicommodity flow and other fractional packing problems", FOCS'98,
 * Section 5), with Fleischer's approximate shortest paths ("Approximating
 * fractional multicommodity flow independent of the number of
 * commodities", SIAM J. Discrete Math. 2000).
 *
 * Every arc (link direction, capacity 1) has a length, 1 at first.  A
 * phase routes every commodity's demand, times a scale s, on the shortest
 * of its own paths under the current lengths, and multiplies the length of
 * each arc it uses by 1 + eps u for u routed (u at most the capacity, 1):
 * congested arcs grow long and later flow avoids them.
 *
 * Finding a commodity's shortest path means reading all of its paths, which
 * for KSP's 32 paths a pair is most of the work.  Lengths only grow, so the
 * length of the shortest path found last time is a lower bound on the
 * shortest now: while the path found last time is within 1 + eps of that
 * bound it is a (1 + eps)-shortest path and is used again without reading
 * the others - Fleischer's observation, per commodity.
 *
 * Instead of Garg and Koenemann's fixed number of phases, the method stops
 * on a certificate, checked now and then:
 *
 *  - primal: the flow routed since a snapshot, scaled down by its most
 *    loaded arc, is feasible and routes (R - R0) / (max load - its load
 *    at the snapshot) times every demand, R being the sum of the scales
 *    of the phases; so that is a lower bound on theta, and the best over
 *    the snapshots kept (the best suffix of the run) is taken;
 *  - dual: for any lengths y >= 0, theta <= sum of y over the arcs paths
 *    use / sum over commodities of demand * shortest path under y (weak
 *    duality of the path LP);
 *
 * and once the best primal is within (1 - epsilon) of the best dual, the
 * flow is within epsilon of the optimum, proven.
 *
 * A fixed step e needs about 1 / e^2 phases to settle, most of them
 * spent moving lengths away from their start.  So the run goes in stages:
 * the step starts at 1/4 and halves whenever the gap is within twice the
 * step, down to epsilon / 2, and each stage restarts the flow but keeps
 * the lengths, which are by then close to the optimal dual.  The scale s is
 * the best primal so far (Garg and Koenemann's scaling, which wants s at
 * most the optimum yet close to it); when it is off by half, a new stage
 * starts too.
 *
 * Everything is sequential and in commodity order: the same problem gives
 * the same bits on every run.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "graph/internal.h"
#include "internal.h"

#define MAX_PHASES_DEFAULT	1000000
/*
 * The step starts coarse and halves, down to epsilon / 2, each time the
 * gap falls below twice the step (a run at step e settles within about
 * 2 e); a check comes after every eighth more phases of a stage.
 */
#define STEP_START	0.25
#define STEP_MIN	0.5
#define STEP_GAP	2.0
#define CHECK_EVERY	8
/* Lengths are rescaled (ratios kept) before they can overflow. */
#define LEN_RESCALE		1e100

struct gk {
	const struct sluice_i_mcf	*m;
	double		eps;		/* the step: lengths grow by 1 + eps u */
	double		*len;		/* per arc */
	double		*load;		/* per arc: flow since the last restart */
	uint32_t	*used;		/* the arcs some path uses */
	uint32_t	n_used;
	uint64_t	*cache;		/* per commodity: its last shortest */
	double		*low;		/* per commodity: a lower bound on it */
	double		scale;
	double		routed;		/* sum of scales since the restart */
	uint64_t	scans;		/* full reads of a commodity's paths */
};

static inline double path_len(const struct sluice_i_mcf *m, const double *len,
			      uint64_t q)
{
	uint64_t h, end = m->path_arc[q + 1];
	double l = 0;

	for (h = m->path_arc[q]; h < end; h++)
		l += len[m->arcs[h]];
	return l;
}

/* The shortest path of commodity @j, and its length in @best. */
static uint64_t shortest(const struct sluice_i_mcf *m, const double *len,
			 uint64_t j, double *best)
{
	uint64_t q, arg = m->com_path[j];
	double l;

	*best = INFINITY;
	for (q = m->com_path[j]; q < m->com_path[j + 1]; q++) {
		l = path_len(m, len, q);
		if (l < *best) {
			*best = l;
			arg = q;
		}
	}
	return arg;
}

/* One phase: every commodity's demand times the scale.  O(hops used). */
static void phase(struct gk *k)
{
	const struct sluice_i_mcf *m = k->m;
	double rem, l, u, f;
	uint64_t j, q, h;

	for (j = 0; j < m->n_com; j++) {
		rem = k->scale * m->demand[j];
		while (rem > 0) {
			q = k->cache[j];
			l = path_len(m, k->len, q);
			if (l > (1 + k->eps) * k->low[j]) {
				q = shortest(m, k->len, j, &l);
				k->cache[j] = q;
				k->low[j] = l;
				k->scans++;
			}
			u = rem < 1 ? rem : 1;
			f = 1 + k->eps * u;
			for (h = m->path_arc[q]; h < m->path_arc[q + 1]; h++) {
				k->len[m->arcs[h]] *= f;
				k->load[m->arcs[h]] += u;
			}
			rem -= u;
		}
	}
	k->routed += k->scale;
}

/*
 * The dual bound of the current lengths, refreshing every commodity's
 * shortest path on the way; rescales the lengths when they grow large.
 * O(hops).
 */
static double dual(struct gk *k)
{
	const struct sluice_i_mcf *m = k->m;
	double sum_len = 0, alpha = 0, l, f;
	uint64_t j;
	uint32_t i;

	for (i = 0; i < k->n_used; i++)
		sum_len += k->len[k->used[i]];
	if (sum_len > LEN_RESCALE) {
		/* only ratios matter; keep the smallest from underflowing */
		f = 1 / sum_len;
		for (i = 0; i < k->n_used; i++) {
			k->len[k->used[i]] *= f;
			if (k->len[k->used[i]] < 1e-250)
				k->len[k->used[i]] = 1e-250;
		}
		sum_len = 0;
		for (i = 0; i < k->n_used; i++)
			sum_len += k->len[k->used[i]];
	}
	for (j = 0; j < m->n_com; j++) {
		k->cache[j] = shortest(m, k->len, j, &l);
		k->low[j] = l;
		alpha += m->demand[j] * l;
	}
	k->scans += m->n_com;
	return sum_len / alpha;
}

static void gk_free(struct gk *k)
{
	free(k->len);
	free(k->load);
	free(k->used);
	free(k->cache);
	free(k->low);
}

static int gk_init(struct gk *k, const struct sluice_i_mcf *m, double eps)
{
	uint64_t h;
	uint32_t a;

	memset(k, 0, sizeof(*k));
	k->m = m;
	k->eps = eps;
	k->len = sluice_i_calloc(m->n_arcs, sizeof(*k->len));
	k->load = sluice_i_calloc(m->n_arcs, sizeof(*k->load));
	k->used = sluice_i_calloc(m->n_arcs, sizeof(*k->used));
	k->cache = sluice_i_calloc(m->n_com, sizeof(*k->cache));
	k->low = sluice_i_calloc(m->n_com, sizeof(*k->low));
	if (!k->len || !k->load || !k->used || !k->cache || !k->low) {
		gk_free(k);
		return -ENOMEM;
	}
	/* len doubles as the "seen" mark until it is set to 1 */
	for (h = 0; h < m->n_hops; h++)
		k->len[m->arcs[h]] = 1;
	for (a = 0; a < m->n_arcs; a++)
		if (k->len[a] > 0)
			k->used[k->n_used++] = a;
	return 0;
}

/* Snapshots of the flow, for the best suffix average. */
#define SNAPS_MAX	24

struct snaps {
	uint32_t	n;
	double		routed[SNAPS_MAX];
	double		*load;		/* SNAPS_MAX x n_used */
};

static void snap_take(struct snaps *sn, const struct gk *k)
{
	uint32_t i, j;

	if (sn->n == SNAPS_MAX) {
		/* keep every other one: suffixes still start all along */
		for (i = 0, j = 0; i < SNAPS_MAX; i += 2, j++) {
			sn->routed[j] = sn->routed[i];
			memcpy(sn->load + (size_t)j * k->n_used,
			       sn->load + (size_t)i * k->n_used,
			       k->n_used * sizeof(double));
		}
		sn->n = j;
	}
	sn->routed[sn->n] = k->routed;
	for (i = 0; i < k->n_used; i++)
		sn->load[(size_t)sn->n * k->n_used + i] = k->load[k->used[i]];
	sn->n++;
}

/* The best of the flows routed since each snapshot, each made feasible. */
static double snap_best(const struct snaps *sn, const struct gk *k,
			uint64_t *saturated)
{
	double best = 0, top, x, lb;
	const double *base;
	uint32_t s, i, sat;

	*saturated = 0;
	for (s = 0; s < sn->n; s++) {
		base = sn->load + (size_t)s * k->n_used;
		top = 0;
		for (i = 0; i < k->n_used; i++) {
			x = k->load[k->used[i]] - base[i];
			if (x > top)
				top = x;
		}
		if (!(top > 0))
			continue;
		lb = (k->routed - sn->routed[s]) / top;
		if (lb <= best)
			continue;
		best = lb;
		for (i = 0, sat = 0; i < k->n_used; i++)
			if (k->load[k->used[i]] - base[i] >=
			    top * (1 - SLUICE_I_SATURATED))
				sat++;
		*saturated = sat;
	}
	return best;
}

/**
 * sluice_i_flow_fptas() - theta within epsilon, with a certificate
 * @m:		the problem, at least one commodity
 * @o:		epsilon (default SLUICE_FLOW_EPSILON_DEFAULT) and max_phases
 * @res:	theta (a feasible flow's), theta_upper (a dual bound),
 *		epsilon, phases, converged and saturated are set
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * If max_phases pass first, converged is false and theta, theta_upper are
 * the bounds reached.
 *
 * Return: 0 or -ENOMEM.  Time: O(phases x commodities x (hops of a path))
 * for the phases, plus O(hops) per check; memory O(arcs + commodities).
 */
int sluice_i_flow_fptas(const struct sluice_i_mcf *m,
			const struct sluice_flow_opts *o,
			struct sluice_flow_result *res,
			char *err, size_t errlen)
{
	double eps = o->epsilon > 0 ? o->epsilon : SLUICE_FLOW_EPSILON_DEFAULT;
	uint64_t max_phases = o->max_phases ? o->max_phases :
			      MAX_PHASES_DEFAULT;
	double lb, ub, up, best_lb = 0, step_min = eps * STEP_MIN;
	uint64_t phases = 0, stage = 0, next = 1, sat = 0, best_sat = 0;
	struct snaps sn = { 0 };
	struct gk k;

	if (gk_init(&k, m, STEP_START > step_min ? STEP_START : step_min))
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	sn.load = sluice_i_calloc((size_t)SNAPS_MAX * k.n_used, sizeof(double));
	if (!sn.load) {
		gk_free(&k);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	/* lengths all 1: the path-length bound, an upper bound to start */
	ub = dual(&k);
	k.scale = ub;
	snap_take(&sn, &k);
	res->converged = false;
	while (phases < max_phases) {
		phase(&k);
		phases++;
		stage++;
		if (stage < next)
			continue;
		if (o->progress)
			o->progress(o->progress_arg,
				    phases > UINT32_MAX ? UINT32_MAX : phases,
				    max_phases > UINT32_MAX ? UINT32_MAX :
				    max_phases);
		next = stage + 1 + stage / CHECK_EVERY;
		lb = snap_best(&sn, &k, &sat);
		up = dual(&k);
		if (up < ub)
			ub = up;
		if (lb > best_lb) {
			best_lb = lb;
			best_sat = sat;
		}
		if (best_lb >= (1 - eps) * ub) {
			res->converged = true;
			break;
		}
		if (best_lb > 1.5 * k.scale || best_lb < k.scale / 1.5 ||
		    (k.eps > step_min && 1 - best_lb / ub < STEP_GAP * k.eps)) {
			/*
			 * A new stage: a better scale, or a finer step once
			 * the gap is down to what this one can do.  The flow
			 * starts again from the current lengths.
			 */
			k.scale = best_lb;
			if (k.eps > step_min && 1 - best_lb / ub < STEP_GAP * k.eps)
				k.eps = k.eps / 2 > step_min ? k.eps / 2 :
							      step_min;
			k.routed = 0;
			memset(k.load, 0, m->n_arcs * sizeof(*k.load));
			sn.n = 0;
			stage = 0;
			next = 1;
		}
		snap_take(&sn, &k);
	}
	res->theta = best_lb;
	res->theta_upper = ub;
	res->epsilon = eps;
	res->phases = phases;
	res->saturated = best_sat;
	free(sn.load);
	gk_free(&k);
	return 0;
}
