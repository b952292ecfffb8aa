// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * updown: up*_/down* routing (Autonet, Schroeder et al., 1991).
 *
 * Every link gets a direction, "up" towards one of its ends, such that the
 * up directions form no cycle.  A legal path makes zero or more up moves,
 * then zero or more down moves, never an up move after a down move: no
 * cycle of buffer dependencies can form, so PFC cannot deadlock.
 *
 * Orientation (opts.orient):
 *  - tier: up is towards the higher Clos tier (struct sluice_node.tier, set
 *    by the leaf-spine and fat-tree generators).  Every node needs a tier
 *    and no link may join two nodes of one tier.
 *  - bfs: a BFS from the root (opts.root if has_root, else the lowest id
 *    among the nodes of highest degree) gives each node a level; a link's
 *    up end is the end with the smaller (level, node id), the Autonet rule.
 *    Each component the root does not reach gets its own root, picked the
 *    same way among its nodes, so that every connected pair has a path.
 *  - auto: tier if every node has a tier, else bfs.
 *
 * Paths: all the shortest legal paths of each pair (opts.paths caps them,
 * with truncated_pairs counted as for ecmp), in lexicographic order of
 * their link ids.  The search runs on (node, phase) states, the phase
 * recording whether a down move was made (route/spdag.h): a search on nodes
 * alone either lets a down move be followed by an up one or, keeping the
 * first phase a node was reached with, loses legal paths through a node
 * reached first going down.  Shortest legal paths are simple: cutting the
 * cycle out of a legal walk that repeats a node leaves a legal walk.  A pair
 * with no legal path (possible with tiers: two leaves of a spine-less
 * fabric) has none.
 */
#include <errno.h>
#include <stdlib.h>
#include "route/algo.h"
#include "route/spdag.h"
#include "graph/internal.h"

struct updown_ctx {
	const struct sluice_graph	*g;
	uint32_t			cap;
	uint32_t			*up_end;	/* per link */
};

static int orient_tier(const struct sluice_graph *g, uint32_t *up_end,
		       char *err, size_t errlen)
{
	uint32_t id;

	for (id = 0; id < g->n_nodes; id++)
		if (!g->nodes[id].tier)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "updown: nodes[%u] (%s) has no tier, which orient tier needs",
					     id, g->nodes[id].name);
	for (id = 0; id < g->n_links; id++) {
		const struct sluice_link *l = &g->links[id];
		uint8_t ta = g->nodes[l->a].tier, tb = g->nodes[l->b].tier;

		if (ta == tb)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "updown: links[%u] joins %s and %s, both of tier %u: orient tier cannot direct it (use orient bfs)",
					     id, g->nodes[l->a].name,
					     g->nodes[l->b].name, ta);
		up_end[id] = ta > tb ? l->a : l->b;
	}
	return 0;
}

/* The lowest id among the unlevelled nodes of highest degree. */
static uint32_t pick_root(const struct sluice_graph *g, const uint32_t *level)
{
	uint32_t u, best = SLUICE_DIST_INF;

	for (u = 0; u < g->n_nodes; u++)
		if (level[u] == SLUICE_DIST_INF &&
		    (best == SLUICE_DIST_INF ||
		     sluice_graph_degree(g, u) > sluice_graph_degree(g, best)))
			best = u;
	return best;
}

/* BFS levels from @root over the nodes not levelled yet. */
static void level_from(const struct sluice_graph *g, uint32_t root,
		       uint32_t *level, uint32_t *queue)
{
	uint32_t head = 0, tail = 0, i;

	level[root] = 0;
	queue[tail++] = root;
	while (head < tail) {
		uint32_t u = queue[head++];

		for (i = g->off[u]; i < g->off[u + 1]; i++) {
			uint32_t v = g->adj[i].peer;

			if (level[v] == SLUICE_DIST_INF) {
				level[v] = level[u] + 1;
				queue[tail++] = v;
			}
		}
	}
}

static int orient_bfs(const struct sluice_graph *g,
		      const struct sluice_route_opts *o, uint32_t *up_end,
		      char *err, size_t errlen)
{
	uint32_t *level, *queue, u, id;

	level = sluice_i_calloc(g->n_nodes, sizeof(*level));
	queue = sluice_i_calloc(g->n_nodes, sizeof(*queue));
	if (!level || !queue) {
		free(level);
		free(queue);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	for (u = 0; u < g->n_nodes; u++)
		level[u] = SLUICE_DIST_INF;
	u = o->has_root ? o->root : pick_root(g, level);
	while (u != SLUICE_DIST_INF) {
		level_from(g, u, level, queue);
		u = pick_root(g, level);
	}
	for (id = 0; id < g->n_links; id++) {
		const struct sluice_link *l = &g->links[id];

		up_end[id] = level[l->a] < level[l->b] ||
			     (level[l->a] == level[l->b] && l->a < l->b) ?
			     l->a : l->b;
	}
	free(level);
	free(queue);
	return 0;
}

/* Whether every node has a tier, which orient auto reads as "a Clos". */
static bool all_tiered(const struct sluice_graph *g)
{
	uint32_t u;

	for (u = 0; u < g->n_nodes; u++)
		if (!g->nodes[u].tier)
			return false;
	return true;
}

/**
 * updown_prepare() - orient every link
 * @g:		a finalized graph
 * @o:		orient, has_root, root; paths caps the paths per pair
 * @ctx:	set to the context
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (graph not finalized, bad orientation or root, a node
 * without a tier or a link inside a tier under orient tier, a root with
 * orient tier) or -ENOMEM.  Time: O(n + m) for tier, O(c n + m) for bfs
 * with c components.
 */
static int updown_prepare(const struct sluice_graph *g,
			  const struct sluice_route_opts *o, void **ctx,
			  char *err, size_t errlen)
{
	enum sluice_updown_orient orient = o->orient;
	struct updown_ctx *c;
	int ret;

	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "updown: the graph is not finalized");
	if (orient != SLUICE_ORIENT_AUTO && orient != SLUICE_ORIENT_TIER &&
	    orient != SLUICE_ORIENT_BFS)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "updown: unknown orientation %d", orient);
	if (o->has_root && o->root >= g->n_nodes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "updown: root %u is not a node (0 to %u)",
				     o->root, g->n_nodes - 1);
	if (orient == SLUICE_ORIENT_AUTO)
		orient = g->n_nodes && all_tiered(g) ? SLUICE_ORIENT_TIER :
						       SLUICE_ORIENT_BFS;
	if (orient == SLUICE_ORIENT_TIER && o->has_root)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "updown: a root orients by BFS, but the orientation is by tier%s",
				     o->orient == SLUICE_ORIENT_AUTO ?
				     " (every node has one): ask for orient bfs" : "");
	c = calloc(1, sizeof(*c));
	if (c)
		c->up_end = sluice_i_calloc(g->n_links, sizeof(*c->up_end));
	if (!c || !c->up_end) {
		free(c);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	c->g = g;
	c->cap = o->paths;
	if (orient == SLUICE_ORIENT_TIER)
		ret = orient_tier(g, c->up_end, err, errlen);
	else
		ret = orient_bfs(g, o, c->up_end, err, errlen);
	if (ret) {
		free(c->up_end);
		free(c);
		return ret;
	}
	*ctx = c;
	return 0;
}

/* One thread's BFS and listing scratch.  Time: O(n). */
static int updown_worker_init(void *ctx, void **worker)
{
	struct updown_ctx *c = ctx;

	return sluice_i_spdag_new(c->g, c->up_end, "updown", worker);
}

/* The shortest legal paths of b->src: sluice_i_spdag_source(). */
static int updown_source(void *ctx, void *worker, const uint32_t *dsts,
			 uint32_t n_dsts, struct sluice_path_buf *b,
			 char *err, size_t errlen)
{
	struct updown_ctx *c = ctx;

	return sluice_i_spdag_source(worker, c->cap, dsts, n_dsts, b, err,
				     errlen);
}

static void updown_release(void *ctx)
{
	struct updown_ctx *c = ctx;

	if (c)
		free(c->up_end);
	free(c);
}

const struct sluice_algo_ops sluice_algo_updown = {
	.prepare	= updown_prepare,
	.worker_init	= updown_worker_init,
	.source		= updown_source,
	.worker_free	= sluice_i_spdag_delete,
	.release	= updown_release,
};
