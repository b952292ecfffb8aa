// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ecmp: every shortest path (in links) between each pair of endpoints.
 *
 * Parallel links are distinct links, so two paths that differ only in which
 * of two parallel links they take are two paths.  A pair's paths come in
 * lexicographic order of their link ids (all have the same length): the
 * first path takes, at each hop, the lowest link id that still lies on a
 * shortest path.  With opts.paths = c > 0, a pair keeps its first c paths
 * and, if it had more, counts once in truncated_pairs; the counts come from
 * the BFS (saturating), so a pair with billions of paths costs no more than
 * one with c.  Without a cap, a pair with more than SLUICE_I_SPDAG_ALL_MAX
 * paths is an error (route/spdag.h).
 */
#include <errno.h>
#include <stdlib.h>
#include "route/algo.h"
#include "route/spdag.h"
#include "graph/internal.h"

struct ecmp_ctx {
	const struct sluice_graph	*g;
	uint32_t			cap;
};

/* ecmp-cw's worker: the search, and all shortest paths of a source. */
struct ecmp_cw_worker {
	void			*spdag;
	struct sluice_path_buf	all;
};

/**
 * ecmp_prepare() - keep the graph and the cap
 * @g:		a finalized graph
 * @o:		opts.paths is the cap per pair (0: all)
 * @ctx:	set to the context
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (graph not finalized) or -ENOMEM.  Time: O(1).
 */
static int ecmp_prepare(const struct sluice_graph *g,
			const struct sluice_route_opts *o, void **ctx,
			char *err, size_t errlen)
{
	struct ecmp_ctx *c;

	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "ecmp: the graph is not finalized");
	c = calloc(1, sizeof(*c));
	if (!c)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	c->g = g;
	c->cap = o->paths;
	*ctx = c;
	return 0;
}

/* One thread's BFS and listing scratch.  Time: O(n). */
static int ecmp_worker_init(void *ctx, void **worker)
{
	struct ecmp_ctx *c = ctx;

	return sluice_i_spdag_new(c->g, NULL, "ecmp", worker);
}

/* The shortest paths of b->src: sluice_i_spdag_source(). */
static int ecmp_source(void *ctx, void *worker, const uint32_t *dsts,
		       uint32_t n_dsts, struct sluice_path_buf *b,
		       char *err, size_t errlen)
{
	struct ecmp_ctx *c = ctx;

	return sluice_i_spdag_source(worker, c->cap, dsts, n_dsts, b, err,
				     errlen);
}

static void ecmp_release(void *ctx)
{
	free(ctx);
}

/**
 * sluice_route_path_clockwise() - whether a path goes round the node order
 * @g:		the graph
 * @src:	the node the path starts at
 * @links:	its links, in walking order
 * @n:		how many
 *
 * Return: true if every hop goes from node i to node (i + 1) mod
 * g->n_nodes (an empty path is not clockwise).
 */
bool sluice_route_path_clockwise(const struct sluice_graph *g, uint32_t src,
				 const uint32_t *links, uint32_t n)
{
	uint32_t u = src, v, k;

	if (!n || !g->n_nodes)
		return false;
	for (k = 0; k < n; k++) {
		if (links[k] >= g->n_links)
			return false;
		v = g->links[links[k]].a == u ? g->links[links[k]].b :
		    g->links[links[k]].a;
		if (v != (u + 1) % g->n_nodes)
			return false;
		u = v;
	}
	return true;
}

static int ecmp_cw_worker_init(void *ctx, void **worker)
{
	struct ecmp_ctx *c = ctx;
	struct ecmp_cw_worker *w = calloc(1, sizeof(*w));
	int ret;

	if (!w)
		return -ENOMEM;
	ret = sluice_i_spdag_new(c->g, NULL, "ecmp-cw", &w->spdag);
	if (ret) {
		free(w);
		return ret;
	}
	*worker = w;
	return 0;
}

static void ecmp_cw_worker_free(void *worker)
{
	struct ecmp_cw_worker *w = worker;

	if (!w)
		return;
	sluice_i_spdag_delete(w->spdag);
	sluice_path_buf_free(&w->all);
	free(w);
}

/*
 * Every shortest path of b->src (as ecmp, without a cap), then per pair
 * the clockwise ones, or all if none is; the cap applies to what is kept.
 */
static int ecmp_cw_source(void *ctx, void *worker, const uint32_t *dsts,
			  uint32_t n_dsts, struct sluice_path_buf *b,
			  char *err, size_t errlen)
{
	struct ecmp_ctx *c = ctx;
	struct ecmp_cw_worker *w = worker;
	uint64_t q, first, last, kept;
	uint32_t p, len;
	bool any, cw;
	int ret;

	sluice_path_buf_reset(&w->all, b->src);
	ret = sluice_i_spdag_source(w->spdag, 0, dsts, n_dsts, &w->all, err,
				    errlen);
	if (ret)
		return ret;
	for (p = 0; p < w->all.n_pairs; p++) {
		ret = sluice_path_buf_pair(b, w->all.pair_dst[p]);
		if (ret)
			return ret;
		first = w->all.pair_path[p];
		last = p + 1 < w->all.n_pairs ? w->all.pair_path[p + 1] :
		       w->all.n_paths;
		any = false;
		for (q = first; !any && q < last; q++) {
			len = (q + 1 < w->all.n_paths ? w->all.path_hop[q + 1] :
			       w->all.n_hops) - w->all.path_hop[q];
			any = sluice_route_path_clockwise(c->g, b->src,
					w->all.hops + w->all.path_hop[q], len);
		}
		kept = 0;
		for (q = first; q < last; q++) {
			len = (q + 1 < w->all.n_paths ? w->all.path_hop[q + 1] :
			       w->all.n_hops) - w->all.path_hop[q];
			cw = sluice_route_path_clockwise(c->g, b->src,
					w->all.hops + w->all.path_hop[q], len);
			if (any && !cw)
				continue;
			if (c->cap && kept == c->cap) {
				b->truncated_pairs++;
				break;
			}
			ret = sluice_path_buf_add(b, w->all.hops +
						  w->all.path_hop[q], len,
						  w->all.path_lane[q]);
			if (ret)
				return ret;
			kept++;
		}
	}
	return 0;
}

const struct sluice_algo_ops sluice_algo_ecmp_cw = {
	.prepare	= ecmp_prepare,
	.worker_init	= ecmp_cw_worker_init,
	.source		= ecmp_cw_source,
	.worker_free	= ecmp_cw_worker_free,
	.release	= ecmp_release,
};

const struct sluice_algo_ops sluice_algo_ecmp = {
	.prepare	= ecmp_prepare,
	.worker_init	= ecmp_worker_init,
	.source		= ecmp_source,
	.worker_free	= sluice_i_spdag_delete,
	.release	= ecmp_release,
};
