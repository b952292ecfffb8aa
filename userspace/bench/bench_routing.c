// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make bench-routing: what FC's routing costs at the size of the paper's
 * Table 1 (N = 1000 ToRs, s = 40, h = 24, k = 4, layers 7,13,13,7).
 *
 * 1. All pairs: the whole route set through sluice_routes_compute() on
 *    two threads, wall and CPU time; the paths per pair and their length
 *    next to Table 1's; the CBD check of the set (cbd_spot()).
 * 2. End to end: a few sources drawn with a fixed seed, each routed to
 *    every destination by sluice_algo_fc.source() on one thread, its CPU
 *    time divided by its pairs: everything a pair costs (the source's
 *    up-cone shared by its destinations, the pruning and the network
 *    build, the solve, the optimality certificate, the decomposition into
 *    paths and their copy into the source's buffer).  Then LEMON on every
 *    one of those pairs' networks (below), its CPU time each, checked
 *    against sluice's F and cost, and each pair solved alone against the
 *    source's paths; a pass's ratio is LEMON's fastest formulation, mean
 *    over the same pairs, against sluice's mean, and the headline RATIO
 *    end to end is the median of three passes' (E2E_PASSES).
 * 3. Per pair, the solve alone: ~300 pairs drawn with a fixed seed, each
 *    pair's flow network (the nodes on some s-t path of the directed
 *    virtual up-down graph, solid arcs capacity 1, dashed arcs more than
 *    any flow) solved by sluice's solver and by LEMON, the solve alone
 *    timed on both sides (building the network is not), medians, and
 *    checked: same F, same cost.  sluice's optimality certificate and its
 *    pruning and build are timed apart.  For context, a few pairs on the
 *    whole virtual graph, as a solver without the pruning would see them.
 *
 * LEMON runs eight ways: Preflow for F then NetworkSimplex sending F from
 * s to t, or NetworkSimplex, CapacityScaling or CostScaling alone on the
 * circulation with an arc t -> s of large negative cost; each with the
 * paper's exact costs (M a solid arc, 1 a dashed one) and with the 1/0
 * costs (links only) that sluice's solver uses internally, which rank
 * flows alike (lib/route/fc.c).  Every time is the thread's CPU time, so
 * that a loaded machine's other jobs add to neither side.
 *
 * Usage: bench_routing [-AL] [-n switches] [-k layers] [-p pairs]
 *		       [-S sources] [-t threads] [-s seed]
 * (-A: no all-pairs part; -L: no LEMON, sluice's end to end alone, for
 * profiling: make -C userspace/bench profile)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "route/algo.h"
#include "route/fc.h"
#include "lemon_mcmf.h"

#if __has_include(<sluice/cbd.h>)
#include <sluice/cbd.h>
#define HAVE_CBD	1
#endif

#define FULL_PAIRS	10	/* pairs also solved on the whole graph */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char err[SLUICE_ERRLEN];

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* This thread's CPU time: what a loaded machine's other jobs do not add. */
static double thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * ---- The CBD check of the route set goes here. ----
 * sluice_cbd_check() (sluice/cbd.h) is used as soon as it is in the tree.
 */
static void cbd_spot(const struct sluice_graph *g,
		     const struct sluice_routes *r)
{
#ifdef HAVE_CBD
	struct sluice_cbd_result res;
	double t0 = now_ns();
	int ret = sluice_cbd_check(g, r, &res, err, sizeof(err));
	double t1 = now_ns();

	if (ret) {
		printf("cbd check: failed after %.2f s: %s\n",
		       (t1 - t0) * 1e-9, err);
		return;
	}
	printf("cbd check: %.2f s: %s\n", (t1 - t0) * 1e-9,
	       res.cbd_free ? "CBD-free" : "HAS A CBD");
	sluice_cbd_result_free(&res);
#else
	(void)g;
	(void)r;
	printf("cbd check: sluice/cbd.h is not in the tree yet\n");
#endif
}

static int all_pairs(const struct sluice_graph *g, uint32_t threads)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_FC };
	struct sluice_compute_opts c = { .threads = threads };
	struct sluice_route_stats st;
	struct sluice_routes r;
	double t0, t1, c0, c1;
	int ret;

	printf("== all pairs, %u threads\n", threads);
	c0 = cpu_s();
	t0 = now_ns();
	ret = sluice_routes_compute(g, &o, &c, &r, err, sizeof(err));
	t1 = now_ns();
	c1 = cpu_s();
	if (ret) {
		fprintf(stderr, "bench_routing: %s\n", err);
		return ret;
	}
	printf("routes: %.2f s wall, %.2f s CPU, %lu pairs (%.1f us CPU a pair)\n",
	       (t1 - t0) * 1e-9, c1 - c0, (unsigned long)r.n_pairs,
	       (c1 - c0) * 1e6 / (double)r.n_pairs);
	t0 = now_ns();
	ret = sluice_routes_validate(&r, g, err, sizeof(err));
	if (!ret)
		ret = sluice_route_stats(&r, g, &st, err, sizeof(err));
	t1 = now_ns();
	if (ret) {
		fprintf(stderr, "bench_routing: %s\n", err);
		sluice_routes_free(&r);
		return ret;
	}
	printf("validate + stats: %.2f s\n", (t1 - t0) * 1e-9);
	printf("paths a pair: avg %.3f, min %lu, max %lu (Table 1: 14.01, 9)\n",
	       st.paths_avg, (unsigned long)st.paths_min,
	       (unsigned long)st.paths_max);
	printf("path length: avg %.3f links = %.3f switches (Table 1: 4.86); "
	       "longest %u links; %lu pairs without a path\n",
	       st.path_len_avg, st.path_len_avg + 1, st.path_len_max,
	       (unsigned long)st.pairs_without_path);
	printf("shortest path of a pair: avg %.3f links; fabric distance %.3f\n",
	       st.shortest_len_avg, st.distance_avg);
	cbd_spot(g, &r);
	sluice_routes_free(&r);
	return 0;
}

/* The pair's network, exported by fc.c, in both cost systems. */
struct net {
	uint32_t	n, m, s, t, cap_m;
	uint32_t	*tail, *head;
	int32_t		*cap;
	int64_t		*cost_lex, *cost_unit;
};

static int net_alloc(struct net *x, uint32_t m)
{
	x->cap_m = m;
	x->tail = calloc(m, sizeof(*x->tail));
	x->head = calloc(m, sizeof(*x->head));
	x->cap = calloc(m, sizeof(*x->cap));
	x->cost_lex = calloc(m, sizeof(*x->cost_lex));
	x->cost_unit = calloc(m, sizeof(*x->cost_unit));
	return x->tail && x->head && x->cap && x->cost_lex && x->cost_unit ?
	       0 : -ENOMEM;
}

static void net_free(struct net *x)
{
	free(x->tail);
	free(x->head);
	free(x->cap);
	free(x->cost_lex);
	free(x->cost_unit);
}

static void pair_draw(struct sluice_rng *rng, uint32_t n, uint32_t *s,
		      uint32_t *t)
{
	*s = (uint32_t)sluice_rng_below(rng, n);
	*t = (uint32_t)sluice_rng_below(rng, n - 1);
	*t += *t >= *s;
}

typedef int (*lemon_fn)(uint32_t n, uint32_t m, const uint32_t *tail,
			const uint32_t *head, const int32_t *cap,
			const int64_t *cost, uint32_t s, uint32_t t,
			struct lemon_mcmf_result *res);

/* LEMON, each way, each cost system. */
static const struct {
	const char	*name;
	lemon_fn	fn;
	bool		lexicographic;
} lemons[] = {
	{ "Preflow + NetworkSimplex, costs M/1", lemon_mcmf, true },
	{ "Preflow + NetworkSimplex, costs 1/0", lemon_mcmf, false },
	{ "NetworkSimplex circulation, costs M/1", lemon_mcmf_circ, true },
	{ "NetworkSimplex circulation, costs 1/0", lemon_mcmf_circ, false },
	{ "CapacityScaling circulation, costs M/1", lemon_mcmf_capscale, true },
	{ "CapacityScaling circulation, costs 1/0", lemon_mcmf_capscale, false },
	{ "CostScaling circulation, costs M/1", lemon_mcmf_costscale, true },
	{ "CostScaling circulation, costs 1/0", lemon_mcmf_costscale, false },
};
#define N_LEMONS	ARRAY_SIZE(lemons)

/* Runs LEMON variant @i on @x; -EDOM unless it agrees with @res. */
static int lemon_agrees(uint32_t i, const struct net *x,
			const struct sluice_i_fc_result *res, uint32_t s,
			uint32_t t, double *ns)
{
	int64_t want = lemons[i].lexicographic ? res->cost :
			(int64_t)res->solid;
	struct lemon_mcmf_result lr;

	if (lemons[i].fn(x->n, x->m, x->tail, x->head, x->cap,
			 lemons[i].lexicographic ? x->cost_lex : x->cost_unit,
			 x->s, x->t, &lr) ||
	    lr.flow != res->flow || lr.cost != want) {
		fprintf(stderr, "bench_routing: pair %u -> %u: LEMON (%s) F %u cost %ld, sluice F %u cost %ld\n",
			s, t, lemons[i].name, lr.flow, (long)lr.cost,
			res->flow, (long)want);
		return -EDOM;
	}
	*ns = lr.ns;
	return 0;
}

static double mean(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / n : 0;
}

/*
 * Sluice's F and total links for each destination of @src, from the
 * source's buffer, against a solve of the pair alone; -EDOM if they
 * differ.
 */
static int source_pair(void *ctx, void *w, const struct sluice_path_buf *b,
		       uint32_t k, struct sluice_i_fc_result *res)
{
	uint64_t end = k + 1 < b->n_pairs ? b->pair_path[k + 1] : b->n_paths;
	uint64_t hops = (end < b->n_paths ? b->path_hop[end] : b->n_hops) -
			(b->pair_path[k] < b->n_paths ?
			 b->path_hop[b->pair_path[k]] : b->n_hops);

	if (sluice_i_fc_build(ctx, w, b->src, b->pair_dst[k]) < 0)
		return -EINVAL;
	sluice_i_fc_solve(ctx, w, res);
	if (!sluice_i_fc_check(w) || res->flow != end - b->pair_path[k] ||
	    res->solid != hops) {
		fprintf(stderr, "bench_routing: pair %u -> %u: source() gave %lu paths of %lu links, the pair alone F %u, %lu links\n",
			b->src, b->pair_dst[k],
			(unsigned long)(end - b->pair_path[k]),
			(unsigned long)hops, res->flow,
			(unsigned long)res->solid);
		return -EDOM;
	}
	return 0;
}

/* How often the end to end part runs, both sides: its ratio is their median. */
#define E2E_PASSES	3

/* What end_to_end() holds from pass to pass. */
struct e2e {
	const struct sluice_graph *g;
	uint32_t		sources, pairs, *dsts;
	uint64_t		seed;
	bool			no_lemon;
	void			*ctx, *w;
	struct sluice_path_buf	b;
	struct net		x;
	double			*lemon[N_LEMONS];
};

/*
 * One pass: the sources through sluice_algo_fc.source(), then, unless
 * no_lemon, LEMON on each of their pairs' networks.  *@ours: sluice's CPU
 * time a pair; @r->lemon: LEMON's, each way, pair by pair.
 */
static int e2e_pass(struct e2e *r, double *ours, uint64_t *paths,
		    uint64_t *hops)
{
	uint32_t n = r->g->n_nodes, i, j, k, p = 0;
	struct sluice_i_fc_result res;
	struct sluice_rng rng;
	double t0;
	int ret;

	*ours = 0;
	*paths = *hops = 0;
	sluice_rng_seed(&rng, r->seed);
	for (i = 0; i < r->sources; i++) {
		uint32_t src = (uint32_t)sluice_rng_below(&rng, n);

		for (j = 0, k = 0; j < n; j++)
			if (j != src)
				r->dsts[k++] = j;
		sluice_path_buf_reset(&r->b, src);
		t0 = thread_ns();
		ret = sluice_algo_fc.source(r->ctx, r->w, r->dsts, n - 1, &r->b,
					    err, sizeof(err));
		*ours += thread_ns() - t0;
		if (ret) {
			fprintf(stderr, "bench_routing: %s\n", err);
			return ret;
		}
		*paths += r->b.n_paths;
		*hops += r->b.n_hops;
		for (k = 0; !r->no_lemon && k < r->b.n_pairs; k++, p++) {
			ret = source_pair(r->ctx, r->w, &r->b, k, &res);
			if (ret)
				return ret;
			sluice_i_fc_net_size(r->w, &r->x.n, &r->x.m);
			sluice_i_fc_net_export(r->ctx, r->w, true, r->x.tail,
					       r->x.head, r->x.cap,
					       r->x.cost_lex, &r->x.s,
					       &r->x.t);
			sluice_i_fc_net_export(r->ctx, r->w, false, r->x.tail,
					       r->x.head, r->x.cap,
					       r->x.cost_unit, &r->x.s,
					       &r->x.t);
			for (j = 0; j < N_LEMONS; j++) {
				ret = lemon_agrees(j, &r->x, &res, src,
						   r->b.pair_dst[k],
						   &r->lemon[j][p]);
				if (ret)
					return ret;
			}
		}
	}
	*ours /= r->pairs;
	return 0;
}

/*
 * End to end: @sources sources, each to every other node, through
 * sluice_algo_fc.source() as the compute driver runs it; then, unless
 * @no_lemon, LEMON on each of those pairs' networks.  With LEMON, all of
 * it E2E_PASSES times, both sides timed in each pass, and the headline is
 * the median of the passes' ratios: a pass is some 35 ms of sluice's CPU,
 * which one interruption can move by a few percent, on either side.
 * Without LEMON (profiling), once.
 */
static int end_to_end(const struct sluice_graph *g, uint32_t sources,
		      uint64_t seed, bool no_lemon)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_FC };
	struct e2e r = {
		.g = g, .sources = sources, .pairs = sources * (g->n_nodes - 1),
		.seed = seed, .no_lemon = no_lemon,
	};
	uint32_t passes = no_lemon ? 1 : E2E_PASSES, pass, j, best, mt;
	double ours, best_mean, ratio[E2E_PASSES], sorted[E2E_PASSES], mid;
	uint64_t paths, hops;
	int ret = -ENOMEM;

	r.dsts = calloc(g->n_nodes, sizeof(*r.dsts));
	for (j = 0; !no_lemon && j < N_LEMONS; j++)
		if (!(r.lemon[j] = calloc(r.pairs, sizeof(double))))
			goto out;
	if (!r.dsts)
		goto out;
	ret = sluice_algo_fc.prepare(g, &o, &r.ctx, err, sizeof(err));
	if (!ret)
		ret = sluice_algo_fc.worker_init(r.ctx, &r.w);
	mt = r.ctx ? sluice_i_fc_full_net(r.ctx, NULL, NULL, NULL, NULL) : 0;
	if (!ret && !no_lemon)
		ret = net_alloc(&r.x, mt);
	if (ret)
		goto out;
	printf("== end to end: %u sources (seed %lu), each to all %u others, one thread",
	       sources, (unsigned long)seed, g->n_nodes - 1);
	if (passes > 1)
		printf("; both sides timed in each of %u passes", passes);
	printf("\n");
	for (pass = 0; pass < passes; pass++) {
		ret = e2e_pass(&r, &ours, &paths, &hops);
		if (ret)
			goto out;
		if (passes > 1)
			printf("-- pass %u of %u\n", pass + 1, passes);
		printf("sluice: %.2f us CPU a pair, end to end (%u pairs, %.3f paths and %.3f links a pair)\n",
		       ours * 1e-3, r.pairs, (double)paths / r.pairs,
		       (double)hops / r.pairs);
		if (no_lemon)
			goto out;
		printf("all %u pairs: the source's paths are the pair's min-cost max-flow; F and cost the same as each LEMON's\n",
		       r.pairs);
		best = 0;
		best_mean = 0;
		for (j = 0; j < N_LEMONS; j++) {
			double m = mean(r.lemon[j], r.pairs);

			if (!j || m < best_mean) {
				best_mean = m;
				best = j;
			}
			printf("LEMON, %-38s mean %6.1f us, median %6.1f us CPU a pair: %5.2fx sluice's end to end\n",
			       lemons[j].name, m * 1e-3,
			       median(r.lemon[j], r.pairs) * 1e-3, m / ours);
		}
		ratio[pass] = sorted[pass] = best_mean / ours;
		printf("pass %u: fastest LEMON (%s) %.1f us / sluice %.2f us = %.2fx\n",
		       pass + 1, lemons[best].name, best_mean * 1e-3,
		       ours * 1e-3, ratio[pass]);
	}
	mid = median(sorted, passes);
	printf("RATIO end to end: fastest LEMON (mean over the same pairs, the solve alone) / sluice (everything a pair costs), median of %u passes: %.2fx (",
	       passes, mid);
	for (pass = 0; pass < passes; pass++)
		printf("%s%.2fx", pass ? ", " : "", ratio[pass]);
	printf(")\n");
	if (mid < 5)
		printf("WARNING: sluice end to end is less than 5x the fastest LEMON's solve\n");
out:
	net_free(&r.x);
	sluice_path_buf_free(&r.b);
	sluice_algo_fc.worker_free(r.w);
	sluice_algo_fc.release(r.ctx);
	free(r.dsts);
	for (j = 0; j < N_LEMONS; j++)
		free(r.lemon[j]);
	return ret;
}

static int per_pair(const struct sluice_graph *g, uint32_t pairs,
		    uint64_t seed)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_FC };
	double *build = calloc(pairs, sizeof(double));
	double *solve = calloc(pairs, sizeof(double));
	double *check = calloc(pairs, sizeof(double));
	double *lemon[N_LEMONS] = { NULL }, med[N_LEMONS];
	double ours_full[FULL_PAIRS], lemon_full[2][FULL_PAIRS];
	struct sluice_i_fc_result res;
	struct sluice_rng rng;
	struct net x = { 0 };
	uint64_t nodes = 0, arcs = 0;
	uint32_t i, j, s, t, mt, nt, best = 0;
	void *ctx = NULL, *w = NULL;
	double t0, t1, mb, ms, mc;
	int ret = -ENOMEM;

	for (j = 0; j < N_LEMONS; j++)
		if (!(lemon[j] = calloc(pairs, sizeof(double))))
			goto out;
	if (!build || !solve || !check)
		goto out;
	ret = sluice_algo_fc.prepare(g, &o, &ctx, err, sizeof(err));
	if (!ret)
		ret = sluice_algo_fc.worker_init(ctx, &w);
	/* Room for the whole virtual graph, which bounds any pair's. */
	mt = ctx ? sluice_i_fc_full_net(ctx, NULL, NULL, NULL, NULL) : 0;
	nt = g->n_nodes * (2 * g->n_layers - 1);
	if (!ret)
		ret = net_alloc(&x, mt);
	if (ret)
		goto out;

	printf("== per pair: %u pairs (seed %lu), each solve alone timed\n",
	       pairs, (unsigned long)seed);
	sluice_rng_seed(&rng, seed);
	for (i = 0; i < pairs; i++) {
		pair_draw(&rng, g->n_nodes, &s, &t);
		/* the source's up-cone first, outside the timing */
		sluice_i_fc_build(ctx, w, s, (s + 1) % g->n_nodes);
		t0 = now_ns();
		ret = sluice_i_fc_build(ctx, w, s, t);
		build[i] = now_ns() - t0;
		if (ret <= 0) {
			fprintf(stderr, "bench_routing: pair %u -> %u: %s\n", s,
				t, ret ? "bad pair" : "no path");
			ret = ret ? ret : -EINVAL;
			goto out;
		}
		sluice_i_fc_net_size(w, &x.n, &x.m);
		sluice_i_fc_net_export(ctx, w, true, x.tail, x.head, x.cap,
				       x.cost_lex, &x.s, &x.t);
		sluice_i_fc_net_export(ctx, w, false, x.tail, x.head, x.cap,
				       x.cost_unit, &x.s, &x.t);
		t0 = now_ns();
		sluice_i_fc_solve(ctx, w, &res);
		t1 = now_ns();
		solve[i] = t1 - t0;
		if (!sluice_i_fc_check(w)) {
			fprintf(stderr, "bench_routing: pair %u -> %u: not optimal\n",
				s, t);
			ret = -EIO;
			goto out;
		}
		check[i] = now_ns() - t1;
		nodes += x.n;
		arcs += x.m;
		for (j = 0; j < N_LEMONS; j++) {
			ret = lemon_agrees(j, &x, &res, s, t, &lemon[j][i]);
			if (ret)
				goto out;
		}
	}
	printf("network: avg %.1f nodes, %.1f arcs (the whole graph: %u nodes, %u arcs)\n",
	       (double)nodes / pairs, (double)arcs / pairs, nt, mt);
	printf("all %u pairs: F and cost the same as each LEMON's\n", pairs);
	mb = median(build, pairs);
	ms = median(solve, pairs);
	mc = median(check, pairs);
	printf("median sluice: solve %.1f us; certificate %.1f us, pruning and build %.1f us more\n",
	       ms * 1e-3, mc * 1e-3, mb * 1e-3);
	for (j = 0; j < N_LEMONS; j++) {
		med[j] = median(lemon[j], pairs);
		if (med[j] < med[best])
			best = j;
		printf("median LEMON, %-38s %6.1f us: %4.1fx sluice's solve\n",
		       lemons[j].name, med[j] * 1e-3, med[j] / ms);
	}
	printf("RATIO fastest LEMON / sluice solve: %.1fx (%s); "
	       "/ sluice prune + build + solve + certificate: %.1fx\n",
	       med[best] / ms, lemons[best].name,
	       med[best] / (ms + mb + mc));
	if (med[best] / ms < 5)
		printf("WARNING: sluice's solve is less than 5x the fastest LEMON's\n");

	/* The whole virtual graph, a few pairs, costs M/1. */
	mt = sluice_i_fc_full_net(ctx, x.tail, x.head, x.cap, x.cost_lex);
	sluice_rng_seed(&rng, seed);
	for (i = 0; i < FULL_PAIRS; i++) {
		struct lemon_mcmf_result lr[2];
		uint32_t fs, ft;

		pair_draw(&rng, g->n_nodes, &s, &t);
		t0 = now_ns();
		sluice_i_fc_build(ctx, w, s, t);
		sluice_i_fc_solve(ctx, w, &res);
		ret = sluice_i_fc_check(w) ? 0 : -EIO;
		ours_full[i] = now_ns() - t0;
		sluice_i_fc_full_ends(ctx, s, t, &fs, &ft);
		for (j = 0; !ret && j < 2; j++) {
			ret = (j ? lemon_mcmf_circ : lemon_mcmf)(nt, mt, x.tail,
				x.head, x.cap, x.cost_lex, fs, ft, &lr[j]);
			if (!ret && (lr[j].flow != res.flow ||
				     lr[j].cost != res.cost))
				ret = -EDOM;
			lemon_full[j][i] = lr[j].ns;
		}
		if (ret) {
			fprintf(stderr, "bench_routing: pair %u -> %u on the whole graph: LEMON and sluice differ\n",
				s, t);
			goto out;
		}
	}
	printf("whole virtual graph, %u pairs: LEMON median %.0f us (Preflow + NetworkSimplex), %.0f us (circulation); "
	       "sluice %.1f us (source's up-cone, prune, build, solve, certificate)\n",
	       FULL_PAIRS, median(lemon_full[0], FULL_PAIRS) * 1e-3,
	       median(lemon_full[1], FULL_PAIRS) * 1e-3,
	       median(ours_full, FULL_PAIRS) * 1e-3);
	ret = 0;
out:
	net_free(&x);
	sluice_algo_fc.worker_free(w);
	sluice_algo_fc.release(ctx);
	free(build);
	free(solve);
	free(check);
	for (j = 0; j < N_LEMONS; j++)
		free(lemon[j]);
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_routing [-AL] [-n switches] [-k layers] [-p pairs] [-S sources] [-t threads] [-s seed]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sluice_fc_params p = {
		.switches = 1000, .inter_ports = 40, .host_ports = 24,
		.layers = 4, .seed = 1,
	};
	uint32_t pairs = 300, threads = 2, sources = 3, j;
	bool skip_all = false, no_lemon = false;
	uint64_t seed = 2023;
	struct sluice_graph g;
	char layers[64];
	size_t len = 0;
	double t0;
	int opt, ret;

	while ((opt = getopt(argc, argv, "ALn:k:p:S:t:s:")) != -1) {
		switch (opt) {
		case 'A':
			skip_all = true;
			break;
		case 'L':
			no_lemon = true;
			break;
		case 'n':
			p.switches = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'k':
			p.layers = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'p':
			pairs = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'S':
			sources = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 't':
			threads = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (optind != argc || !pairs || p.switches < 2)
		usage();
	/* s = 40, k = 4 gives the paper's 7,13,13,7 */
	if (sluice_fc_layer_ports(p.inter_ports, p.layers, p.layer_ports, err,
				  sizeof(err))) {
		fprintf(stderr, "bench_routing: %s\n", err);
		return 1;
	}
	for (j = 0; j < p.layers; j++)
		len += snprintf(layers + len, sizeof(layers) - len, "%s%u",
				j ? "," : "", p.layer_ports[j]);
	t0 = now_ns();
	ret = sluice_topo_fc(&g, &p, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "bench_routing: %s\n", err);
		return 1;
	}
	printf("FC: N %u, s %u, h %u, k %u, layers %s, seed %lu (%.2f s to generate)\n",
	       p.switches, p.inter_ports, p.host_ports, p.layers, layers,
	       (unsigned long)p.seed, (now_ns() - t0) * 1e-9);
	ret = skip_all ? 0 : all_pairs(&g, threads);
	if (!ret && sources)
		ret = end_to_end(&g, sources, seed, no_lemon);
	if (!ret && !no_lemon)
		ret = per_pair(&g, pairs, seed);
	sluice_graph_free(&g);
	return ret ? 1 : 0;
}
