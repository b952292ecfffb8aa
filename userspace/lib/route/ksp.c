// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ksp: the k shortest loopless paths of each pair (Yen, 1971), every link of
 * length one, parallel links distinct.
 *
 * Paths are totally ordered by (length in links, then their link ids
 * lexicographically), and a pair gets the first k loopless paths (no node
 * twice) in that order, fewer if it has fewer: the output is the true k
 * shortest list, ties included, not one of the many lists Yen's algorithm
 * may return when ties are broken arbitrarily.  That holds because every
 * step below picks the least path in this same order:
 *
 *  - the spur path from a spur node v to t, in the graph without the root's
 *    other nodes and without the links the root's accepted paths leave v by,
 *    is the least in the order: a BFS from t gives distances, then a walk
 *    from v takes at each hop the lowest link id that stays on a shortest
 *    path (so the walk is the lexicographically least shortest path);
 *  - a candidate is root + spur, and root + X < root + Y iff X < Y, so it
 *    is the least path with that root avoiding those links;
 *  - the candidates wait in a heap ordered the same way.
 *
 * Yen's argument then goes through unchanged: the next path P deviates from
 * the accepted path sharing its longest prefix R, after R; the last accepted
 * path that added a new first link after R spurred at R with every accepted
 * first link after R removed, so the least candidate it found is <= P and
 * is not accepted, so it is P.  Lawler's refinement holds for the same
 * reason: a path found by spurring at index d only adds a new first link
 * after its prefixes of d or more links, so it is spurred from index d on.
 *
 * No candidate is ever found twice, so none is looked up.  First, an
 * accepted path P shares its first dev(P) + 1 links with no path accepted
 * before it: one accepted before P was found would have excluded P's link
 * after its root; one accepted after would have come before P while
 * avoiding the same exclusions, so P would not have been the least.  Now
 * say C is found at root R (r links) spurring Q, and later at root R'
 * spurring Q'.  C is not accepted by then, or its own link after R' would
 * be excluded; so Q' < C.  If R' is shorter than R, Q is accepted and
 * leaves R' by C's link: excluded.  If R' = R, Q' leaves R by a link the
 * first search did not exclude (by the above, as dev(Q') <= r), and if R'
 * is longer, by C's own link: either way the first search would have
 * returned Q', not C.
 *
 * opts.paths is k (0 means 8).  A spur search stops its BFS once the
 * level holding the spur node's nearest neighbour is complete.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "route/algo.h"
#include "graph/internal.h"

#define KSP_DEFAULT	8
#define NONE		UINT32_MAX

struct ksp_ctx {
	const struct sluice_graph	*g;
	uint32_t			k;
};

/* A path found for the current pair: hops in the arena. */
struct cand {
	uint64_t	off;
	uint32_t	len;
	uint32_t	dev;	/* index of the node it was spurred at */
};

struct ksp_worker {
	const struct sluice_graph *g;
	uint32_t	k;
	/*
	 * Spur search: per node seen (dist set), dist (links to t), blocked
	 * (in the root), near (an allowed first hop); per link excl (not
	 * allowed as the first link).  An entry counts only when it holds
	 * the current stamp.
	 */
	uint32_t	stamp;
	uint32_t	*seen;
	uint32_t	*dist;
	uint32_t	*blocked;
	uint32_t	*near;
	uint32_t	*excl;
	uint32_t	*queue;
	uint32_t	*spur;		/* the spur path found */
	uint32_t	*nodes;		/* the nodes of the path spurred */
	/* The current pair's paths: all candidates, accepted or waiting. */
	uint32_t	*arena;
	uint64_t	n_arena, cap_arena;
	struct cand	*cand;
	uint32_t	n_cand, cap_cand;
	uint32_t	*heap;		/* waiting candidates, cap_cand */
	uint32_t	n_heap;
	uint32_t	*accepted;	/* k candidate ids */
};

static void next_stamp(struct ksp_worker *w)
{
	const struct sluice_graph *g = w->g;

	if (++w->stamp)
		return;
	memset(w->seen, 0, g->n_nodes * sizeof(*w->seen));
	memset(w->blocked, 0, g->n_nodes * sizeof(*w->blocked));
	memset(w->near, 0, g->n_nodes * sizeof(*w->near));
	memset(w->excl, 0, g->n_links * sizeof(*w->excl));
	w->stamp = 1;
}

/*
 * The least spur path from @v to @t (see the top of the file), avoiding the
 * blocked nodes and, as its first link, the excluded links; both marked
 * with the current stamp.  Leaves it in w->spur.
 * Return: its length, 0 if there is none.  Time: O(n + m).
 */
static uint32_t spur_path(struct ksp_worker *w, uint32_t v, uint32_t t)
{
	const struct sluice_graph *g = w->g;
	uint32_t st = w->stamp, best = NONE, head = 0, tail = 0, len = 0;
	uint32_t u, i;

	for (i = g->off[v]; i < g->off[v + 1]; i++) {
		const struct sluice_adj *a = &g->adj[i];

		if (w->excl[a->link] == st || w->blocked[a->peer] == st)
			continue;
		if (a->peer == t) {
			w->spur[0] = a->link;
			return 1;
		}
		w->near[a->peer] = st;
	}
	/* The BFS must not go through v: the spur path leaves it once. */
	w->blocked[v] = st;
	w->seen[t] = st;
	w->dist[t] = 0;
	w->queue[tail++] = t;
	while (head < tail) {
		u = w->queue[head++];
		/* Levels up to best are complete: all the walk reads. */
		if (w->dist[u] >= best)
			break;
		for (i = g->off[u]; i < g->off[u + 1]; i++) {
			uint32_t x = g->adj[i].peer;

			if (w->seen[x] == st || w->blocked[x] == st)
				continue;
			w->seen[x] = st;
			w->dist[x] = w->dist[u] + 1;
			w->queue[tail++] = x;
			if (w->near[x] == st && best == NONE)
				best = w->dist[x];
		}
	}
	if (best == NONE)
		return 0;
	u = v;
	while (u != t) {
		uint32_t want = u == v ? best : w->dist[u] - 1;

		for (i = g->off[u]; i < g->off[u + 1]; i++) {
			const struct sluice_adj *a = &g->adj[i];

			if (w->seen[a->peer] == st &&
			    w->dist[a->peer] == want &&
			    (u != v || w->excl[a->link] != st))
				break;
		}
		/* Cannot fail: a node at distance d has one at d - 1. */
		w->spur[len++] = g->adj[i].link;
		u = g->adj[i].peer;
	}
	return len;
}

/* Whether candidate @a comes before @b: (length, link ids). */
static bool cand_less(const struct ksp_worker *w, uint32_t a, uint32_t b)
{
	const struct cand *ca = &w->cand[a], *cb = &w->cand[b];
	const uint32_t *pa = w->arena + ca->off, *pb = w->arena + cb->off;
	uint32_t i;

	if (ca->len != cb->len)
		return ca->len < cb->len;
	for (i = 0; i < ca->len; i++)
		if (pa[i] != pb[i])
			return pa[i] < pb[i];
	return false;
}

static void heap_push(struct ksp_worker *w, uint32_t c)
{
	uint32_t i = w->n_heap++;

	while (i && cand_less(w, c, w->heap[(i - 1) / 2])) {
		w->heap[i] = w->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	w->heap[i] = c;
}

static uint32_t heap_pop(struct ksp_worker *w)
{
	uint32_t top = w->heap[0], last = w->heap[--w->n_heap], i = 0;

	for (;;) {
		uint32_t l = 2 * i + 1, m;

		if (l >= w->n_heap)
			break;
		m = l + 1 < w->n_heap && cand_less(w, w->heap[l + 1],
						   w->heap[l]) ? l + 1 : l;
		if (!cand_less(w, w->heap[m], last))
			break;
		w->heap[i] = w->heap[m];
		i = m;
	}
	if (w->n_heap)
		w->heap[i] = last;
	return top;
}

/*
 * Adds the first @root links of candidate @from (NONE: no root) followed
 * by w->spur[0..@spur_len) as a waiting candidate spurred at index @root.
 * Return: 0 or -ENOMEM.
 */
static int add_cand(struct ksp_worker *w, uint32_t from, uint32_t root,
		    uint32_t spur_len)
{
	uint32_t len = root + spur_len;
	uint64_t cap = w->cap_cand, off = w->n_arena;
	uint32_t *p;
	int ret;

	ret = SLUICE_I_GROW(w->arena, w->cap_arena, off + len);
	if (!ret && w->n_cand == w->cap_cand) {
		ret = SLUICE_I_GROW(w->cand, cap, w->n_cand + 1);
		if (!ret) {
			void *heap = realloc(w->heap, cap * sizeof(*w->heap));

			if (heap) {
				w->heap = heap;
				w->cap_cand = cap;
			} else {
				ret = -ENOMEM;
			}
		}
	}
	if (ret)
		return ret;
	p = w->arena + off;
	if (root)
		memcpy(p, w->arena + w->cand[from].off, root * sizeof(*p));
	memcpy(p + root, w->spur, spur_len * sizeof(*p));
	w->n_arena += len;
	w->cand[w->n_cand] = (struct cand){ off, len, root };
	heap_push(w, w->n_cand);
	w->n_cand++;
	return 0;
}

/* Spurs accepted path number @j at each node from its deviation index on. */
static int spur_all(struct ksp_worker *w, uint32_t s, uint32_t t, uint32_t j)
{
	const struct sluice_graph *g = w->g;
	uint32_t c = w->accepted[j], len = w->cand[c].len, i, r, q;
	const uint32_t *hops;
	int ret;

	w->nodes[0] = s;
	for (i = 0; i < len; i++) {
		const struct sluice_link *l =
			&g->links[w->arena[w->cand[c].off + i]];

		w->nodes[i + 1] = l->a == w->nodes[i] ? l->b : l->a;
	}
	for (i = w->cand[c].dev; i < len; i++) {
		next_stamp(w);
		for (r = 0; r < i; r++)
			w->blocked[w->nodes[r]] = w->stamp;
		hops = w->arena + w->cand[c].off;
		for (q = 0; q <= j; q++) {
			const struct cand *a = &w->cand[w->accepted[q]];

			if (a->len > i &&
			    !memcmp(w->arena + a->off, hops, i * sizeof(*hops)))
				w->excl[w->arena[a->off + i]] = w->stamp;
		}
		r = spur_path(w, w->nodes[i], t);
		if (!r)
			continue;
		ret = add_cand(w, c, i, r);
		if (ret)
			return ret;
	}
	return 0;
}

/* The k shortest paths from @s to @t, appended to @b. */
static int ksp_pair(struct ksp_worker *w, uint32_t s, uint32_t t,
		    struct sluice_path_buf *b, char *err, size_t errlen)
{
	const struct sluice_graph *g = w->g;
	uint32_t j, len, c;
	int ret;

	w->n_arena = 0;
	w->n_cand = 0;
	w->n_heap = 0;
	next_stamp(w);
	len = spur_path(w, s, t);
	if (!len)
		return 0;
	ret = add_cand(w, NONE, 0, len);
	for (j = 0; !ret && j < w->k && w->n_heap; j++) {
		c = heap_pop(w);
		w->accepted[j] = c;
		if (w->cand[c].len > SLUICE_PATH_HOPS_MAX)
			return sluice_i_errf(err, errlen, -E2BIG,
					     "ksp: a path from %s to %s has %u links, more than %u",
					     g->nodes[s].name, g->nodes[t].name,
					     w->cand[c].len,
					     SLUICE_PATH_HOPS_MAX);
		ret = sluice_path_buf_add(b, w->arena + w->cand[c].off,
					  w->cand[c].len, 0);
		if (!ret && j + 1 < w->k)
			ret = spur_all(w, s, t, j);
	}
	if (ret)
		return sluice_i_errf(err, errlen, ret, "ksp: out of memory");
	return 0;
}

/**
 * ksp_prepare() - keep the graph and k
 * @g:		a finalized graph
 * @o:		opts.paths is k (0: 8)
 * @ctx:	set to the context
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (graph not finalized) or -ENOMEM.  Time: O(1).
 */
static int ksp_prepare(const struct sluice_graph *g,
		       const struct sluice_route_opts *o, void **ctx,
		       char *err, size_t errlen)
{
	struct ksp_ctx *c;

	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "ksp: the graph is not finalized");
	c = calloc(1, sizeof(*c));
	if (!c)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	c->g = g;
	c->k = o->paths ? o->paths : KSP_DEFAULT;
	*ctx = c;
	return 0;
}

static void ksp_worker_free(void *worker)
{
	struct ksp_worker *w = worker;

	if (!w)
		return;
	free(w->seen);
	free(w->dist);
	free(w->blocked);
	free(w->near);
	free(w->excl);
	free(w->queue);
	free(w->spur);
	free(w->nodes);
	free(w->arena);
	free(w->cand);
	free(w->heap);
	free(w->accepted);
	free(w);
}

/* One thread's spur search and candidate store.  Time: O(n + m + k). */
static int ksp_worker_init(void *ctx, void **worker)
{
	struct ksp_ctx *c = ctx;
	const struct sluice_graph *g = c->g;
	struct ksp_worker *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->g = g;
	w->k = c->k;
	w->seen = sluice_i_calloc(g->n_nodes, sizeof(*w->seen));
	w->dist = sluice_i_calloc(g->n_nodes, sizeof(*w->dist));
	w->blocked = sluice_i_calloc(g->n_nodes, sizeof(*w->blocked));
	w->near = sluice_i_calloc(g->n_nodes, sizeof(*w->near));
	w->excl = sluice_i_calloc(g->n_links, sizeof(*w->excl));
	w->queue = sluice_i_calloc(g->n_nodes, sizeof(*w->queue));
	w->spur = sluice_i_calloc(g->n_nodes, sizeof(*w->spur));
	w->nodes = sluice_i_calloc(g->n_nodes + 1, sizeof(*w->nodes));
	w->accepted = sluice_i_calloc(w->k, sizeof(*w->accepted));
	if (!w->seen || !w->dist || !w->blocked || !w->near || !w->excl ||
	    !w->queue || !w->spur || !w->nodes || !w->accepted) {
		ksp_worker_free(w);
		return -ENOMEM;
	}
	*worker = w;
	return 0;
}

/**
 * ksp_source() - the k shortest loopless paths from b->src to each of @dsts
 * @ctx:	the context
 * @worker:	this thread's scratch
 * @dsts:	endpoints in increasing order, without the source
 * @n_dsts:	how many
 * @b:		the source's buffer
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -E2BIG (a path too long for a route set) or -ENOMEM.
 * Time: per pair O(k L) spur searches of O(n + m) for paths of L links,
 * plus O(k^2 L^2) for the root comparisons and O(k L log(k L) L) for the
 * heap.
 */
static int ksp_source(void *ctx, void *worker, const uint32_t *dsts,
		      uint32_t n_dsts, struct sluice_path_buf *b,
		      char *err, size_t errlen)
{
	struct ksp_worker *w = worker;
	uint32_t i;
	int ret;

	(void)ctx;
	for (i = 0; i < n_dsts; i++) {
		ret = sluice_path_buf_pair(b, dsts[i]);
		if (ret)
			return sluice_i_errf(err, errlen, ret,
					     "ksp: cannot start pair %u -> %u",
					     b->src, dsts[i]);
		ret = ksp_pair(w, b->src, dsts[i], b, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

static void ksp_release(void *ctx)
{
	free(ctx);
}

const struct sluice_algo_ops sluice_algo_ksp = {
	.prepare	= ksp_prepare,
	.worker_init	= ksp_worker_init,
	.source		= ksp_source,
	.worker_free	= ksp_worker_free,
	.release	= ksp_release,
};
