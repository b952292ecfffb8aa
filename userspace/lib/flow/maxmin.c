// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Max-min fair rates of a random server permutation, one path per flow:
 * TCP-Bolt's flow simulator (sluice/flow.h says the model).
 *
 * Progressive filling with a heap: at water level t every unfrozen flow
 * has rate t, and resource j, with load F_j from its frozen flows and n_j
 * unfrozen ones, fills at t_j = (cap_j - F_j) / n_j.  The resource of the
 * least t_j fills first; its unfrozen flows freeze at t_j, which raises
 * F and lowers n on their other resources.  Such a resource's t_j never
 * falls (t_j was at least t, so (cap - F - t) / (n - 1) >= t_j), so each
 * change pushes a new heap entry and the old one, now stale, is skipped
 * when it comes up.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/flow.h>
#include <sluice/rng.h>
#include "graph/internal.h"
#include "internal.h"

/* Path draws of run i come from seed + i mixed with this ("paths"). */
#define PATH_STREAM	0x7061746873ull

static int no_memory(char *err, size_t errlen)
{
	return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
}

struct fill_entry {
	double		level;
	uint32_t	res;
};

/* A binary min-heap of entries, by level. */
struct fill_heap {
	struct fill_entry	*e;
	uint64_t		n;
};

static void heap_push(struct fill_heap *h, double level, uint32_t res)
{
	uint64_t i = h->n++, up;

	while (i && h->e[up = (i - 1) / 2].level > level) {
		h->e[i] = h->e[up];
		i = up;
	}
	h->e[i].level = level;
	h->e[i].res = res;
}

static struct fill_entry heap_pop(struct fill_heap *h)
{
	struct fill_entry top = h->e[0], last = h->e[--h->n];
	uint64_t i = 0, c;

	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && h->e[c + 1].level < h->e[c].level)
			c++;
		if (h->e[c].level >= last.level)
			break;
		h->e[i] = h->e[c];
		i = c;
	}
	if (h->n)
		h->e[i] = last;
	return top;
}

/* The working state of one filling. */
struct fill {
	const double	*cap;
	const uint64_t	*flow_res;
	const uint32_t	*res;
	double		*frozen_load;	/* F_j */
	uint64_t	*unfrozen;	/* n_j */
	double		*share;		/* t_j as last pushed */
	uint64_t	*res_flow_off;	/* the flows on each resource (CSR) */
	uint64_t	*res_flow;
	bool		*done;
	struct fill_heap heap;
};

static void fill_free(struct fill *f)
{
	free(f->frozen_load);
	free(f->unfrozen);
	free(f->share);
	free(f->res_flow_off);
	free(f->res_flow);
	free(f->done);
	free(f->heap.e);
}

static int fill_alloc(struct fill *f, uint32_t n_res, uint64_t n_flows,
		      uint64_t n_inc)
{
	f->frozen_load = sluice_i_calloc(n_res, sizeof(*f->frozen_load));
	f->unfrozen = sluice_i_calloc(n_res, sizeof(*f->unfrozen));
	f->share = sluice_i_calloc(n_res, sizeof(*f->share));
	f->res_flow_off = sluice_i_calloc((size_t)n_res + 1,
					  sizeof(*f->res_flow_off));
	f->res_flow = sluice_i_calloc(n_inc, sizeof(*f->res_flow));
	f->done = sluice_i_calloc(n_flows, sizeof(*f->done));
	/* one entry per resource, then at most one per incidence freed */
	f->heap.e = sluice_i_calloc(n_res + n_inc, sizeof(*f->heap.e));
	return f->frozen_load && f->unfrozen && f->share && f->res_flow_off &&
	       (f->res_flow || !n_inc) && (f->done || !n_flows) &&
	       (f->heap.e || !(n_res + n_inc)) ? 0 : -ENOMEM;
}

/* Freezes flow @fl at @level on every resource it crosses. */
static void freeze(struct fill *f, uint64_t fl, double level, double *rate)
{
	uint64_t k;
	uint32_t j;

	rate[fl] = level;
	f->done[fl] = true;
	for (k = f->flow_res[fl]; k < f->flow_res[fl + 1]; k++) {
		j = f->res[k];
		f->frozen_load[j] += level;
		if (--f->unfrozen[j]) {
			f->share[j] = (f->cap[j] - f->frozen_load[j]) /
				      (double)f->unfrozen[j];
			heap_push(&f->heap, f->share[j], j);
		}
	}
}

static void fill_run(struct fill *f, uint32_t n_res, uint64_t n_flows,
		     double *rate)
{
	struct fill_entry e;
	double level = 0;
	uint64_t fl, k;
	uint32_t j;

	/* the incidences, transposed by counting */
	for (fl = 0; fl < n_flows; fl++)
		for (k = f->flow_res[fl]; k < f->flow_res[fl + 1]; k++)
			f->unfrozen[f->res[k]]++;
	for (j = 0; j < n_res; j++)
		f->res_flow_off[j + 1] = f->res_flow_off[j] + f->unfrozen[j];
	for (fl = 0; fl < n_flows; fl++)
		for (k = f->flow_res[fl]; k < f->flow_res[fl + 1]; k++)
			f->res_flow[f->res_flow_off[f->res[k]]++] = fl;
	for (j = n_res; j; j--)
		f->res_flow_off[j] = f->res_flow_off[j - 1];
	f->res_flow_off[0] = 0;
	for (j = 0; j < n_res; j++) {
		if (!f->unfrozen[j])
			continue;
		f->share[j] = f->cap[j] / (double)f->unfrozen[j];
		heap_push(&f->heap, f->share[j], j);
	}
	while (f->heap.n) {
		e = heap_pop(&f->heap);
		j = e.res;
		if (!f->unfrozen[j] || e.level != f->share[j])
			continue;	/* stale */
		/* never below the last level: only rounding could do that */
		if (e.level > level)
			level = e.level;
		for (k = f->res_flow_off[j]; k < f->res_flow_off[j + 1]; k++)
			if (!f->done[f->res_flow[k]])
				freeze(f, f->res_flow[k], level, rate);
	}
}

/**
 * sluice_maxmin_fill() - max-min fair rates by progressive filling
 * @n_res:	resources
 * @cap:	their capacities, finite and at least 0
 * @n_flows:	flows
 * @flow_res:	n_flows + 1 offsets into @res
 * @res:	the resources of each flow, each below @n_res
 * @rate:	filled: each flow's rate
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (a flow without a resource, a resource out of range,
 * a bad capacity) or -ENOMEM.
 */
int sluice_maxmin_fill(uint32_t n_res, const double *cap, uint64_t n_flows,
		       const uint64_t *flow_res, const uint32_t *res,
		       double *rate, char *err, size_t errlen)
{
	struct fill f = { .cap = cap, .flow_res = flow_res, .res = res };
	uint64_t fl, k, n_inc = flow_res[n_flows] - flow_res[0];
	uint32_t j;

	for (j = 0; j < n_res; j++)
		if (!(cap[j] >= 0 && cap[j] <= 1e300))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "resource %u has capacity %g: capacities are finite and at least 0",
					     j, cap[j]);
	for (fl = 0; fl < n_flows; fl++) {
		if (flow_res[fl + 1] <= flow_res[fl])
			return sluice_i_errf(err, errlen, -EINVAL,
					     "flow %llu crosses no resource: its rate would be unbounded",
					     (unsigned long long)fl);
		for (k = flow_res[fl]; k < flow_res[fl + 1]; k++)
			if (res[k] >= n_res)
				return sluice_i_errf(err, errlen, -EINVAL,
						     "flow %llu crosses resource %u of %u",
						     (unsigned long long)fl,
						     res[k], n_res);
	}
	if (fill_alloc(&f, n_res, n_flows, n_inc)) {
		fill_free(&f);
		return no_memory(err, errlen);
	}
	fill_run(&f, n_res, n_flows, rate);
	fill_free(&f);
	return 0;
}

/*
 * One run's flows: server s sends to perm[s] up its host link (resource
 * 2 m + 2 s), along its path's arcs, and down the receiver's host link
 * (2 m + 2 perm[s] + 1).  A flow without a path is left out (rate 0).
 */
struct run {
	uint32_t	servers;
	uint32_t	*perm, *owner;
	uint64_t	*path;		/* per server: its path, or UINT64_MAX */
	uint64_t	n_flows;
	uint32_t	*flow_server;	/* the server of each flow kept */
	uint64_t	*flow_res;
	uint32_t	*res;
	double		*cap, *rate;
};

static void run_free(struct run *ru)
{
	free(ru->perm);
	free(ru->owner);
	free(ru->path);
	free(ru->flow_server);
	free(ru->flow_res);
	free(ru->res);
	free(ru->cap);
	free(ru->rate);
	memset(ru, 0, sizeof(*ru));
}

/* A path of pair @p drawn uniformly among its fewest-link ones. */
static uint64_t draw_path(const struct sluice_routes *r, uint64_t p,
			  struct sluice_rng *rng)
{
	uint64_t q, ties = 0, pick;
	uint32_t best = UINT32_MAX, len;

	for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
		len = sluice_routes_path_len(r, q);
		if (len < best) {
			best = len;
			ties = 0;
		}
		ties += len == best;
	}
	pick = sluice_rng_below(rng, ties);
	for (q = r->pair_path[p];; q++)
		if (sluice_routes_path_len(r, q) == best && !pick--)
			return q;
}

/* Draws each server's path and counts what the flow arrays need. */
static int run_paths(const struct sluice_graph *g,
		     const struct sluice_routes *r, struct run *ru,
		     uint64_t seed, struct sluice_maxmin_result *res,
		     uint64_t *n_inc, char *err, size_t errlen)
{
	uint32_t s, u, v;
	struct sluice_rng rng;
	int64_t p;

	sluice_rng_seed(&rng, seed ^ PATH_STREAM);
	*n_inc = 0;
	for (s = 0; s < ru->servers; s++) {
		u = ru->owner[s];
		v = ru->owner[ru->perm[s]];
		ru->path[s] = UINT64_MAX;
		if (u != v) {
			p = sluice_i_find_pair(r, u, v, 0);
			if (p < 0)
				return sluice_i_errf(err, errlen, -EINVAL,
						     "traffic %s -> %s has no pair in the route set (not between its endpoints?)",
						     g->nodes[u].name,
						     g->nodes[v].name);
			if (!sluice_routes_pair_paths(r, p)) {
				if (!res->unrouted++) {
					res->unrouted_src = u;
					res->unrouted_dst = v;
				}
				continue;
			}
			ru->path[s] = draw_path(r, p, &rng);
			*n_inc += sluice_routes_path_len(r, ru->path[s]);
		}
		ru->n_flows++;
		*n_inc += 2;
	}
	return 0;
}

static int run_flows(const struct sluice_graph *g,
		     const struct sluice_routes *r, struct run *ru,
		     uint64_t n_inc, char *err, size_t errlen)
{
	uint32_t n_arcs = 2 * g->n_links, s, d, j;
	uint64_t f = 0, at = 0, q;

	ru->flow_server = sluice_i_calloc(ru->n_flows,
					  sizeof(*ru->flow_server));
	ru->flow_res = sluice_i_calloc(ru->n_flows + 1, sizeof(*ru->flow_res));
	ru->res = sluice_i_calloc(n_inc, sizeof(*ru->res));
	ru->cap = sluice_i_calloc(n_arcs + 2 * (size_t)ru->servers,
				  sizeof(*ru->cap));
	ru->rate = sluice_i_calloc(ru->n_flows, sizeof(*ru->rate));
	if (!ru->flow_server || !ru->flow_res || !ru->res || !ru->cap ||
	    !ru->rate)
		return no_memory(err, errlen);
	for (j = 0; j < n_arcs + 2 * ru->servers; j++)
		ru->cap[j] = 1;
	for (s = 0; s < ru->servers; s++) {
		d = ru->perm[s];
		q = ru->path[s];
		if (ru->owner[s] != ru->owner[d] && q == UINT64_MAX)
			continue;
		ru->flow_server[f] = s;
		ru->res[at++] = n_arcs + 2 * s;
		if (q != UINT64_MAX) {
			if (!sluice_i_walk(g, r, q, ru->owner[s],
					   ru->owner[d], ru->res + at))
				return sluice_i_errf(err, errlen, -EINVAL,
						     "a path of %s -> %s is not a walk between them in the graph",
						     g->nodes[ru->owner[s]].name,
						     g->nodes[ru->owner[d]].name);
			at += sluice_routes_path_len(r, q);
		}
		ru->res[at++] = n_arcs + 2 * d + 1;
		ru->flow_res[++f] = at;
	}
	return 0;
}

/* What one run adds to the result; its throughput goes to @tput. */
static void run_tally(const struct sluice_graph *g,
		      const struct sluice_routes *r, const struct run *ru,
		      struct sluice_maxmin_result *res, double *tput)
{
	uint64_t f, k, fabric = 0, hops = 0;
	double sum = 0, fabric_sum = 0, *load;
	uint32_t n_arcs = 2 * g->n_links, j, s, sat = 0;

	/* the host link resources' capacity is spent on loads now */
	load = ru->cap;
	memset(load, 0, n_arcs * sizeof(*load));
	if (ru->n_flows < ru->servers)
		res->rate_min = 0;
	for (f = 0; f < ru->n_flows; f++) {
		s = ru->flow_server[f];
		sum += ru->rate[f];
		if (ru->rate[f] < res->rate_min)
			res->rate_min = ru->rate[f];
		if (ru->path[s] == UINT64_MAX) {
			res->local += 1;
			continue;
		}
		fabric++;
		fabric_sum += ru->rate[f];
		hops += sluice_routes_path_len(r, ru->path[s]);
		for (k = ru->flow_res[f] + 1; k < ru->flow_res[f + 1] - 1; k++)
			load[ru->res[k]] += ru->rate[f];
	}
	for (j = 0; j < n_arcs; j++)
		sat += load[j] >= 1 - SLUICE_I_SATURATED;
	res->saturated += sat;
	if (fabric) {
		res->fabric_rate += fabric_sum / (double)fabric;
		res->path_len += (double)hops / (double)fabric;
	}
	*tput = sum / ru->servers;
}

static int one_run(const struct sluice_graph *g,
		   const struct sluice_routes *r, uint64_t seed,
		   struct sluice_maxmin_result *res, double *tput,
		   char *err, size_t errlen)
{
	struct run ru = { 0 };
	uint64_t n_inc = 0;
	int ret;

	ret = sluice_i_server_permutation(g, seed, &ru.perm, &ru.owner,
					  &ru.servers, err, errlen);
	if (ret)
		return ret;
	if ((uint64_t)2 * g->n_links + 2ull * ru.servers > UINT32_MAX) {
		ret = sluice_i_errf(err, errlen, -E2BIG,
				    "%u links and %u servers: too many resources",
				    g->n_links, ru.servers);
		goto out;
	}
	ru.path = sluice_i_calloc(ru.servers, sizeof(*ru.path));
	ret = ru.path ? run_paths(g, r, &ru, seed, res, &n_inc, err, errlen) :
			no_memory(err, errlen);
	if (!ret)
		ret = run_flows(g, r, &ru, n_inc, err, errlen);
	if (!ret)
		ret = sluice_maxmin_fill(2 * g->n_links + 2 * ru.servers,
					 ru.cap, ru.n_flows, ru.flow_res,
					 ru.res, ru.rate, err, errlen);
	if (!ret) {
		res->servers = ru.servers;
		run_tally(g, r, &ru, res, tput);
	}
out:
	run_free(&ru);
	return ret;
}

/**
 * sluice_flow_maxmin() - max-min fair throughput of random permutations
 * @g:		a finalized graph
 * @r:		a whole route set of @g
 * @spec:	the traffic: permutation only; run i draws from seed + i
 * @runs:	permutations averaged, 1 to SLUICE_MAXMIN_RUNS_MAX
 * @progress:	called after each run with the runs done and @runs; may be NULL
 * @progress_arg: its first argument
 * @res:	the result (sluice/flow.h says the model)
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (another traffic kind, a bad run count, mismatched
 * inputs, a route set that is not a walk in @g), -E2BIG or -ENOMEM.
 */
int sluice_flow_maxmin(const struct sluice_graph *g,
		       const struct sluice_routes *r,
		       const struct sluice_traffic_spec *spec, uint32_t runs,
		       sluice_progress_fn progress, void *progress_arg,
		       struct sluice_maxmin_result *res,
		       char *err, size_t errlen)
{
	double *tput, sum = 0, var = 0;
	uint32_t i;
	int ret;

	memset(res, 0, sizeof(*res));
	if (spec->kind != SLUICE_TRAFFIC_PERMUTATION)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the max-min model takes permutation traffic only: one flow per server");
	if (!runs || runs > SLUICE_MAXMIN_RUNS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%u runs: from 1 to %u", runs,
				     SLUICE_MAXMIN_RUNS_MAX);
	ret = sluice_i_flow_routes_check(g, r, err, errlen);
	if (ret)
		return ret;
	tput = sluice_i_calloc(runs, sizeof(*tput));
	if (!tput)
		return no_memory(err, errlen);
	res->rate_min = INFINITY;
	for (i = 0; i < runs && !ret; i++) {
		ret = one_run(g, r, spec->seed + i, res, &tput[i], err, errlen);
		if (!ret && progress)
			progress(progress_arg, i + 1, runs);
	}
	if (ret) {
		free(tput);
		memset(res, 0, sizeof(*res));
		return ret;
	}
	res->runs = runs;
	res->throughput_min = tput[0];
	for (i = 0; i < runs; i++) {
		sum += tput[i];
		if (tput[i] < res->throughput_min)
			res->throughput_min = tput[i];
	}
	res->throughput = sum / runs;
	for (i = 0; i < runs; i++)
		var += (tput[i] - res->throughput) * (tput[i] - res->throughput);
	res->throughput_sd = runs > 1 ? sqrt(var / (runs - 1)) : 0;
	res->local /= runs;
	res->fabric_rate /= runs;
	res->path_len /= runs;
	res->saturated /= runs;
	free(tput);
	return 0;
}
