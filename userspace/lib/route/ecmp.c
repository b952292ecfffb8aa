// SPDX-License-Identifier: GPL-2.0
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

const struct sluice_algo_ops sluice_algo_ecmp = {
	.prepare	= ecmp_prepare,
	.worker_init	= ecmp_worker_init,
	.source		= ecmp_source,
	.worker_free	= sluice_i_spdag_delete,
	.release	= ecmp_release,
};
