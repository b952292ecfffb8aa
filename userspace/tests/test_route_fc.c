// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FC's edge-disjoint virtual up-down routing (lib/route/fc.c) against
 * brute force: for every ordered pair of many small FC topologies, the
 * number of paths F and their total length must be those of a plain
 * min-cost max-flow (successive shortest paths, Bellman-Ford, on the
 * virtual graph built here afresh with the paper's costs, M a solid arc
 * and 1 a dashed one) and, on tiny ones, of an exhaustive search over
 * sets of up-down paths.  Every path must be a walk from the source to the
 * destination whose port layers go up, then down, never the reverse; the
 * paths of a pair never share a link in one direction; F and the length
 * are symmetric.  The solver's optimality certificate runs on every pair
 * (sluice_i_fc_certify_every()), not the sample it runs on by default.
 * Plus a hand-made fabric like the paper's Fig. 4 with answers worked out
 * by hand, the errors, determinism and threads.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/graph.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "route/algo.h"
#include "route/fc.h"
#include "ktap.h"

static char err[SLUICE_ERRLEN];

/* What the brute-force comparisons covered, for the log. */
static struct {
	uint64_t	pairs, flow, links, no_path;
	uint32_t	most_paths;	/* up-down paths of one pair */
} seen;

/* The route set of one source per buffer, every endpoint a source. */
struct routed {
	uint32_t		n;	/* nodes */
	struct sluice_path_buf	*bufs;	/* by source node */
};

static void routed_free(struct routed *r)
{
	uint32_t i;

	for (i = 0; r->bufs && i < r->n; i++)
		sluice_path_buf_free(&r->bufs[i]);
	free(r->bufs);
	memset(r, 0, sizeof(*r));
}

/* Runs sources @first, @first + @step, ... with one worker. */
static int route_sources(const struct sluice_graph *g, void *ctx,
			 struct routed *r, uint32_t first, uint32_t step)
{
	uint32_t *ep = calloc(g->n_nodes, sizeof(*ep));
	uint32_t *dsts = calloc(g->n_nodes, sizeof(*dsts));
	uint32_t n_ep, i, j, n;
	void *w = NULL;
	int ret = -ENOMEM;

	if (!ep || !dsts)
		goto out;
	n_ep = sluice_graph_endpoints(g, ep);
	ret = sluice_algo_fc.worker_init(ctx, &w);
	for (i = first; !ret && i < n_ep; i += step) {
		for (j = 0, n = 0; j < n_ep; j++)
			if (ep[j] != ep[i])
				dsts[n++] = ep[j];
		sluice_path_buf_reset(&r->bufs[ep[i]], ep[i]);
		ret = sluice_algo_fc.source(ctx, w, dsts, n, &r->bufs[ep[i]],
					    err, sizeof(err));
	}
	sluice_algo_fc.worker_free(w);
out:
	free(ep);
	free(dsts);
	return ret;
}

static int route_all(const struct sluice_graph *g, struct routed *r)
{
	void *ctx;
	int ret;

	r->n = g->n_nodes;
	r->bufs = calloc(g->n_nodes, sizeof(*r->bufs));
	if (!r->bufs)
		return -ENOMEM;
	ret = sluice_algo_fc.prepare(g, NULL, &ctx, err, sizeof(err));
	if (ret)
		return ret;
	/* the optimality certificate on every pair, not a sample */
	sluice_i_fc_certify_every(ctx, 1);
	ret = route_sources(g, ctx, r, 0, 1);
	sluice_algo_fc.release(ctx);
	return ret;
}

/* The paths of pair (src, dst): [*first, *end) of bufs[src]; false if
 * the pair is missing. */
static bool pair_paths(const struct routed *r, uint32_t src, uint32_t dst,
		       uint64_t *first, uint64_t *end)
{
	const struct sluice_path_buf *b = &r->bufs[src];
	uint32_t p;

	for (p = 0; p < b->n_pairs; p++)
		if (b->pair_dst[p] == dst) {
			*first = b->pair_path[p];
			*end = p + 1 < b->n_pairs ? b->pair_path[p + 1] :
			       b->n_paths;
			return true;
		}
	return false;
}

static uint32_t path_len(const struct sluice_path_buf *b, uint64_t q)
{
	uint64_t end = q + 1 < b->n_paths ? b->path_hop[q + 1] : b->n_hops;

	return (uint32_t)(end - b->path_hop[q]);
}

/* F and the total length of pair (src, dst). */
static void pair_sum(const struct routed *r, uint32_t src, uint32_t dst,
		     uint32_t *f, uint64_t *len)
{
	uint64_t q, first = 0, end = 0;

	KTAP_EXPECT(pair_paths(r, src, dst, &first, &end));
	*f = (uint32_t)(end - first);
	*len = 0;
	for (q = first; q < end; q++)
		*len += path_len(&r->bufs[src], q);
}

/*
 * Whether @links is a virtual up-down path from @src to @dst: a walk, each
 * hop between adjacent port layers, and the port layers met on the way -
 * layer 1 at the source, then each hop's departure and arrival, then layer
 * 1 at the destination - never fall and then rise again.  (Between two
 * hops a switch climbs or descends inside itself; it turns from up to down
 * through its top layer.)  Also simple: a min-cost flow never comes back
 * to a switch, as the switch's own layers would shortcut the detour.
 */
static bool updown_path(const struct sluice_graph *g, uint32_t src,
			uint32_t dst, const uint32_t *links, uint32_t n)
{
	uint32_t at = src, prev = 1, h, dep, arr, i;
	bool fell = false, *seen;

	seen = calloc(g->n_nodes, sizeof(*seen));
	if (!seen)
		return false;
	seen[src] = true;
	for (h = 0; h < n; h++) {
		const struct sluice_link *l = &g->links[links[h]];
		uint32_t layers[2];

		if (links[h] >= g->n_links || (l->a != at && l->b != at))
			goto bad;
		dep = l->a == at ? l->la : l->lb;
		arr = l->a == at ? l->lb : l->la;
		at = l->a == at ? l->b : l->a;
		if (dep + 1 != arr && arr + 1 != dep)
			goto bad;
		layers[0] = dep;
		layers[1] = arr;
		for (i = 0; i < 2; i++) {
			if (layers[i] < prev)
				fell = true;
			else if (layers[i] > prev && fell)
				goto bad;
			prev = layers[i];
		}
		if (seen[at])
			goto bad;
		seen[at] = true;
	}
	free(seen);
	return n && at == dst;
bad:
	free(seen);
	return false;
}

/*
 * Every path of every pair is an up-down walk, the paths of a pair share no
 * link in one direction, and F and the length are symmetric.  Returns
 * whether all passed.
 */
static bool check_routes(const struct sluice_graph *g, const struct routed *r)
{
	uint32_t *used = calloc(2 * (size_t)g->n_links + 1, sizeof(*used));
	uint32_t stamp = 0, s, t = 0, f1, f2, h, at;
	uint64_t q, first, end, l1, l2;
	bool ok = used != NULL;

	for (s = 0; ok && s < r->n; s++) {
		const struct sluice_path_buf *b = &r->bufs[s];

		for (t = 0; ok && t < r->n; t++) {
			if (t == s || !pair_paths(r, s, t, &first, &end))
				continue;
			stamp++;
			for (q = first; ok && q < end; q++) {
				const uint32_t *links = b->hops +
							b->path_hop[q];
				uint32_t n = path_len(b, q);

				ok = KTAP_EXPECT(updown_path(g, s, t, links,
							     n)) &&
				     KTAP_EXPECT_INT(b->path_lane[q], 0);
				for (h = 0, at = s; ok && h < n; h++) {
					const struct sluice_link *l =
						&g->links[links[h]];
					uint32_t key = 2 * links[h] +
						       (l->a != at);

					ok = KTAP_EXPECT(used[key] != stamp);
					used[key] = stamp;
					at = l->a == at ? l->b : l->a;
				}
			}
			if (!ok || t < s)
				continue;
			pair_sum(r, s, t, &f1, &l1);
			pair_sum(r, t, s, &f2, &l2);
			ok = KTAP_EXPECT_INT(f1, f2) && KTAP_EXPECT_INT(l1, l2);
		}
	}
	if (!ok)
		ktap_diag("pair %u -> %u", s - 1, t - 1);
	free(used);
	return ok;
}

/*
 * Brute force 1: the directed virtual up-down graph built here, numbered
 * differently from fc.c (2k slots a switch: up(1..k), top = up(k), then
 * down(1..k-1)), solved by successive shortest paths with Bellman-Ford
 * and the paper's costs: M per solid arc, 1 per dashed arc.
 */
#define BF_M		100000
#define BF_INF		1000000
#define BF_DIST_INF	INT64_MAX

struct bf_arc {
	uint32_t	from, to;
	int32_t		cap;
	int64_t		cost;
};

struct bf {
	uint32_t	k, n, m;
	struct bf_arc	*a;	/* arc 2i forward, 2i + 1 its reverse */
	int64_t		*dist;
	uint32_t	*par;
};

static uint32_t bf_up(const struct bf *b, uint32_t i, uint32_t j)
{
	return i * 2 * b->k + j - 1;
}

static uint32_t bf_down(const struct bf *b, uint32_t i, uint32_t j)
{
	return j == b->k ? bf_up(b, i, j) : i * 2 * b->k + b->k + j - 1;
}

static void bf_add(struct bf *b, uint32_t from, uint32_t to, int32_t cap,
		   int64_t cost)
{
	b->a[b->m++] = (struct bf_arc){ from, to, cap, cost };
	b->a[b->m++] = (struct bf_arc){ to, from, 0, -cost };
}

static bool bf_init(struct bf *b, const struct sluice_graph *g)
{
	uint32_t i, j, id;

	b->k = g->n_layers;
	b->n = g->n_nodes * 2 * b->k;
	b->m = 0;
	b->a = calloc(2 * (2 * (size_t)g->n_links + 2 * g->n_nodes * b->k),
		      sizeof(*b->a));
	b->dist = calloc(b->n, sizeof(*b->dist));
	b->par = calloc(b->n, sizeof(*b->par));
	if (!b->a || !b->dist || !b->par)
		return false;
	for (i = 0; i < g->n_nodes; i++)
		for (j = 1; j < b->k; j++) {
			bf_add(b, bf_up(b, i, j), bf_up(b, i, j + 1), BF_INF,
			       1);
			bf_add(b, bf_down(b, i, j + 1), bf_down(b, i, j),
			       BF_INF, 1);
		}
	for (id = 0; id < g->n_links; id++) {
		const struct sluice_link *l = &g->links[id];
		uint32_t lo = l->la < l->lb ? l->a : l->b;
		uint32_t hi = l->la < l->lb ? l->b : l->a;
		uint32_t jl = l->la < l->lb ? l->la : l->lb;

		bf_add(b, bf_up(b, lo, jl), bf_up(b, hi, jl + 1), 1, BF_M);
		bf_add(b, bf_down(b, hi, jl + 1), bf_down(b, lo, jl), 1,
		       BF_M);
	}
	return true;
}

static void bf_free(struct bf *b)
{
	free(b->a);
	free(b->dist);
	free(b->par);
}

/* Min-cost max-flow from U(s,1) to D(t,1); the residual graph is reset. */
static void bf_solve(struct bf *b, uint32_t s, uint32_t t, uint32_t *flow,
		     int64_t *cost)
{
	uint32_t src = bf_up(b, s, 1), dst = bf_down(b, t, 1), e, v, r;
	int32_t bott;
	bool changed;

	*flow = 0;
	*cost = 0;
	for (;;) {
		for (v = 0; v < b->n; v++)
			b->dist[v] = BF_DIST_INF;
		b->dist[src] = 0;
		for (r = 0, changed = true; changed && r < b->n; r++) {
			changed = false;
			for (e = 0; e < b->m; e++) {
				const struct bf_arc *a = &b->a[e];

				if (a->cap > 0 && b->dist[a->from] != BF_DIST_INF &&
				    b->dist[a->from] + a->cost < b->dist[a->to]) {
					b->dist[a->to] = b->dist[a->from] + a->cost;
					b->par[a->to] = e;
					changed = true;
				}
			}
		}
		if (b->dist[dst] == BF_DIST_INF)
			break;
		bott = BF_INF;
		for (v = dst; v != src; v = b->a[b->par[v]].from)
			if (b->a[b->par[v]].cap < bott)
				bott = b->a[b->par[v]].cap;
		for (v = dst; v != src; v = b->a[b->par[v]].from) {
			b->a[b->par[v]].cap -= bott;
			b->a[b->par[v] ^ 1].cap += bott;
		}
		*flow += (uint32_t)bott;
		*cost += bott * b->dist[dst];
	}
	/* Back to no flow. */
	for (e = 0; e < b->m; e += 2) {
		b->a[e].cap += b->a[e + 1].cap;
		b->a[e + 1].cap = 0;
	}
}

/*
 * Every ordered pair against bf_solve(): F, the total length, and the
 * dashed arcs, which the ranks fix at (2k - 2) F - length.
 */
static bool check_vs_bf(const struct sluice_graph *g, const struct routed *r)
{
	uint32_t s, t, f_bf, f;
	int64_t cost;
	uint64_t len;
	struct bf b;
	bool ok = bf_init(&b, g);

	for (s = 0; ok && s < g->n_nodes; s++)
		for (t = 0; ok && t < g->n_nodes; t++) {
			if (s == t)
				continue;
			bf_solve(&b, s, t, &f_bf, &cost);
			pair_sum(r, s, t, &f, &len);
			seen.pairs++;
			seen.flow += f_bf;
			seen.links += (uint64_t)(cost / BF_M);
			seen.no_path += !f_bf;
			ok = KTAP_EXPECT_INT(f, f_bf) &&
			     KTAP_EXPECT_INT(len, cost / BF_M) &&
			     KTAP_EXPECT_INT(cost % BF_M,
					     (int64_t)f * (2 * b.k - 2) -
					     (int64_t)len);
			if (!ok)
				ktap_diag("pair %u -> %u", s, t);
		}
	bf_free(&b);
	return ok;
}

/*
 * Brute force 2: every up-down path from s to t, walked on the physical
 * graph as (switch, layer, going up or down) - climb or descend inside a
 * switch, or take a link from the current layer to the next one up (going
 * up) or down (going down), turning at the top layer - then the largest
 * set of them sharing no link in one direction, and the shortest such set.
 */
#define EX_PATHS_MAX	4096
#define EX_HOPS_MAX	(2 * SLUICE_LAYERS_MAX)

struct ex {
	const struct sluice_graph *g;
	uint32_t	t, k;
	uint32_t	n_paths;
	uint32_t	len[EX_PATHS_MAX];
	uint32_t	arcs[EX_PATHS_MAX][EX_HOPS_MAX];	/* 2 link + dir */
	uint32_t	cur[EX_HOPS_MAX], depth;
	bool		overflow;
	/* the search over sets */
	uint8_t		*taken;	/* per 2 link + dir */
	uint32_t	best_f, chosen_f;
	uint64_t	best_len, chosen_len;
};

static void ex_walk(struct ex *x, uint32_t at, uint32_t layer, bool down)
{
	const struct sluice_graph *g = x->g;
	uint32_t e;

	if (down && layer == 1 && at == x->t) {
		if (x->n_paths == EX_PATHS_MAX) {
			x->overflow = true;
			return;
		}
		x->len[x->n_paths] = x->depth;
		memcpy(x->arcs[x->n_paths++], x->cur,
		       x->depth * sizeof(*x->cur));
		return;
	}
	if (!down && layer == x->k) {
		ex_walk(x, at, layer, true);
		return;
	}
	if (!down)
		ex_walk(x, at, layer + 1, false);
	else if (layer > 1)
		ex_walk(x, at, layer - 1, true);
	for (e = g->off[at]; e < g->off[at + 1]; e++) {
		uint32_t id = g->adj[e].link;
		const struct sluice_link *l = &g->links[id];
		uint32_t mine = l->a == at ? l->la : l->lb;
		uint32_t theirs = l->a == at ? l->lb : l->la;

		if (mine != layer || theirs != (down ? layer - 1 : layer + 1))
			continue;
		x->cur[x->depth++] = 2 * id + (l->a != at);
		ex_walk(x, g->adj[e].peer, theirs, down);
		x->depth--;
	}
}

static void ex_choose(struct ex *x, uint32_t i)
{
	uint32_t h;
	bool free_arcs = true;

	if (x->chosen_f > x->best_f ||
	    (x->chosen_f == x->best_f && x->chosen_len < x->best_len)) {
		x->best_f = x->chosen_f;
		x->best_len = x->chosen_len;
	}
	if (i == x->n_paths || x->chosen_f + (x->n_paths - i) < x->best_f)
		return;
	for (h = 0; h < x->len[i]; h++)
		free_arcs &= !x->taken[x->arcs[i][h]];
	if (free_arcs) {
		for (h = 0; h < x->len[i]; h++)
			x->taken[x->arcs[i][h]] = 1;
		x->chosen_f++;
		x->chosen_len += x->len[i];
		ex_choose(x, i + 1);
		x->chosen_f--;
		x->chosen_len -= x->len[i];
		for (h = 0; h < x->len[i]; h++)
			x->taken[x->arcs[i][h]] = 0;
	}
	ex_choose(x, i + 1);
}

static bool check_vs_exhaustive(const struct sluice_graph *g,
				const struct routed *r)
{
	struct ex *x = calloc(1, sizeof(*x));
	uint32_t s, t, f;
	uint64_t len;
	bool ok = x != NULL;

	if (ok) {
		x->taken = calloc(2 * (size_t)g->n_links + 1, 1);
		ok = x->taken != NULL;
	}
	for (s = 0; ok && s < g->n_nodes; s++)
		for (t = 0; ok && t < g->n_nodes; t++) {
			if (s == t)
				continue;
			x->g = g;
			x->t = t;
			x->k = g->n_layers;
			x->n_paths = 0;
			x->depth = 0;
			ex_walk(x, s, 1, false);
			ok = KTAP_EXPECT(!x->overflow);
			if (x->n_paths > seen.most_paths)
				seen.most_paths = x->n_paths;
			x->best_f = 0;
			x->best_len = 0;
			x->chosen_f = 0;
			x->chosen_len = 0;
			ex_choose(x, 0);
			pair_sum(r, s, t, &f, &len);
			ok = ok && KTAP_EXPECT_INT(f, x->best_f) &&
			     KTAP_EXPECT_INT(len, x->best_len);
			if (!ok)
				ktap_diag("pair %u -> %u (%u up-down paths)",
					  s, t, x->n_paths);
		}
	if (x)
		free(x->taken);
	free(x);
	return ok;
}

/*
 * A graph of @n switches, no hosts, @k layers and the links
 * (a, la, b, lb) of @l, each layer with room for every link.
 */
static int hand_graph(struct sluice_graph *g, uint32_t n, uint32_t k,
		      const uint8_t (*l)[4], uint32_t n_links)
{
	uint32_t ports[SLUICE_LAYERS_MAX], i;
	char name[16];
	int ret;

	ret = sluice_graph_init(g, n, err, sizeof(err));
	for (i = 0; !ret && i < n; i++) {
		snprintf(name, sizeof(name), "s%u", i);
		ret = sluice_graph_set_node(g, i, name, SLUICE_NODE_SWITCH, 0,
					    0, err, sizeof(err));
	}
	for (i = 0; i < k; i++)
		ports[i] = n_links ? n_links : 1;
	if (!ret)
		ret = sluice_graph_set_layers(g, k, ports, err, sizeof(err));
	for (i = 0; !ret && i < n_links; i++) {
		ret = sluice_graph_add_link(g, l[i][0], l[i][2], l[i][1],
					    l[i][3], err, sizeof(err));
		ret = ret < 0 ? ret : 0;
	}
	if (!ret)
		ret = sluice_graph_finalize(g, err, sizeof(err));
	if (ret)
		ktap_diag("hand_graph: %s", err);
	return ret;
}

/*
 * A toy like Fig. 4 of the paper: 4 switches, k = 3, ports 1, 2, 1 (one
 * port in layer 1, two in layer 2, one in layer 3), layer 1 -> 2 wired i to
 * i + 1, layer 2 -> 3 wired i to i + 2 (so switches 0 and 2, and 1 and 3,
 * share two links).  By hand:
 *   0 -> 1: D(1,1) is entered only from D(1,2) and by link 1 from D(2,2).
 *	Link 0 climbs from 0 to 1 (then down inside 1); through 2, link 4 or
 *	6 and then link 1.  Nothing else reaches 1's side: F = 2, 3 links.
 *   0 -> 2: D(2,1) is entered only from D(2,2), itself entered only from
 *	2's top (by link 4 from 0) and by link 6 from 0's top, and by link 2
 *	from D(3,2), reached through link 0 and then link 7 or 5: paths [4],
 *	[6] and [0, 7, 2] or [0, 5, 2]: F = 3, 5 links.
 * The reverse pairs are the same by symmetry.
 */
static const uint8_t fig4[][4] = {
	{ 0, 1, 1, 2 },	/* 0 */
	{ 1, 1, 2, 2 },	/* 1 */
	{ 2, 1, 3, 2 },	/* 2 */
	{ 3, 1, 0, 2 },	/* 3 */
	{ 0, 2, 2, 3 },	/* 4 */
	{ 1, 2, 3, 3 },	/* 5 */
	{ 2, 2, 0, 3 },	/* 6 */
	{ 3, 2, 1, 3 },	/* 7 */
};

static bool has_path(const struct routed *r, uint32_t s, uint32_t t,
		     const uint32_t *links, uint32_t n)
{
	const struct sluice_path_buf *b = &r->bufs[s];
	uint64_t q, first, end;

	if (!pair_paths(r, s, t, &first, &end))
		return false;
	for (q = first; q < end; q++)
		if (path_len(b, q) == n &&
		    !memcmp(b->hops + b->path_hop[q], links, n * sizeof(*links)))
			return true;
	return false;
}

static void test_fig4(void)
{
	static const uint32_t p4[] = { 4 }, p6[] = { 6 }, p0[] = { 0 };
	static const uint32_t p072[] = { 0, 7, 2 }, p052[] = { 0, 5, 2 };
	static const uint32_t p41[] = { 4, 1 }, p61[] = { 6, 1 };
	static const uint32_t p01[] = { 0, 1 }, p02[] = { 0, 2 };
	static const uint32_t p04[] = { 0, 4 };
	struct sluice_graph g;
	struct routed r = { 0 };
	uint32_t f;
	uint64_t len;

	if (!KTAP_EXPECT_INT(hand_graph(&g, 4, 3, fig4, ARRAY_SIZE(fig4)), 0))
		goto out;
	/* The checker itself, on walks worked out by hand. */
	KTAP_EXPECT(updown_path(&g, 0, 1, p0, 1));
	KTAP_EXPECT(updown_path(&g, 0, 1, p41, 2));
	KTAP_EXPECT(updown_path(&g, 0, 2, p072, 3));
	KTAP_EXPECT(updown_path(&g, 0, 2, p052, 3));
	KTAP_EXPECT(!updown_path(&g, 0, 1, p4, 1));	/* ends at 2 */
	KTAP_EXPECT(!updown_path(&g, 0, 2, p02, 2));	/* not a walk */
	KTAP_EXPECT(!updown_path(&g, 0, 2, p01, 2));	/* up, down, up */
	KTAP_EXPECT(!updown_path(&g, 1, 2, p04, 2));	/* down, then up */
	if (!KTAP_EXPECT_INT(route_all(&g, &r), 0)) {
		ktap_diag("%s", err);
		goto out;
	}
	pair_sum(&r, 0, 1, &f, &len);
	KTAP_EXPECT_INT(f, 2);
	KTAP_EXPECT_INT(len, 3);
	KTAP_EXPECT(has_path(&r, 0, 1, p0, 1));
	KTAP_EXPECT(has_path(&r, 0, 1, p41, 2) || has_path(&r, 0, 1, p61, 2));
	pair_sum(&r, 1, 0, &f, &len);
	KTAP_EXPECT_INT(f, 2);
	KTAP_EXPECT_INT(len, 3);
	pair_sum(&r, 0, 2, &f, &len);
	KTAP_EXPECT_INT(f, 3);
	KTAP_EXPECT_INT(len, 5);
	KTAP_EXPECT(has_path(&r, 0, 2, p4, 1));
	KTAP_EXPECT(has_path(&r, 0, 2, p6, 1));
	KTAP_EXPECT(has_path(&r, 0, 2, p072, 3) ||
		    has_path(&r, 0, 2, p052, 3));
	pair_sum(&r, 2, 0, &f, &len);
	KTAP_EXPECT_INT(f, 3);
	KTAP_EXPECT_INT(len, 5);
	check_routes(&g, &r);
	check_vs_bf(&g, &r);
	check_vs_exhaustive(&g, &r);
out:
	routed_free(&r);
	sluice_graph_free(&g);
	ktap_result("fig4_toy");
}

/* A pair with no up-down path is present, without paths. */
static void test_unreachable(void)
{
	/* k = 2: 0 reaches the tops of 0 and 1 only; 2 is reached from 2, 3 */
	static const uint8_t l[][4] = { { 0, 1, 1, 2 }, { 2, 1, 3, 2 } };
	struct sluice_graph g;
	struct routed r = { 0 };
	uint64_t first, end;
	uint32_t f;
	uint64_t len;

	if (!KTAP_EXPECT_INT(hand_graph(&g, 4, 2, l, ARRAY_SIZE(l)), 0))
		goto out;
	if (!KTAP_EXPECT_INT(route_all(&g, &r), 0))
		goto out;
	KTAP_EXPECT(pair_paths(&r, 0, 2, &first, &end));
	KTAP_EXPECT_INT(end - first, 0);
	pair_sum(&r, 0, 1, &f, &len);
	KTAP_EXPECT_INT(f, 1);
	KTAP_EXPECT_INT(len, 1);
	/* 1 -> 0 walks link 0 down from 1's top */
	pair_sum(&r, 1, 0, &f, &len);
	KTAP_EXPECT_INT(f, 1);
	KTAP_EXPECT_INT(r.bufs[0].n_pairs, 3);
	check_routes(&g, &r);
	check_vs_bf(&g, &r);
	check_vs_exhaustive(&g, &r);
out:
	routed_free(&r);
	sluice_graph_free(&g);
	ktap_result("unreachable_pair");
}

static void test_errors(void)
{
	static const uint8_t l[][4] = { { 0, 1, 1, 2 }, { 1, 1, 2, 2 } };
	struct sluice_graph g;
	void *ctx = (void *)1;

	KTAP_EXPECT_INT(sluice_topo_ring(&g, 5, 1, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_algo_fc.prepare(&g, NULL, &ctx, err,
					       sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "fc: not an FC topology: no virtual layers");
	KTAP_EXPECT(ctx == NULL);
	sluice_graph_free(&g);

	if (!KTAP_EXPECT_INT(hand_graph(&g, 3, 3, l, ARRAY_SIZE(l)), 0))
		goto out;
	/* finalize() refuses this; prepare() must not rely on it */
	g.links[1].lb = 3;
	KTAP_EXPECT_INT(sluice_algo_fc.prepare(&g, NULL, &ctx, err,
					       sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "links[1]: layers 1 and 3 are not adjacent");
	g.links[1].lb = 0;
	KTAP_EXPECT_INT(sluice_algo_fc.prepare(&g, NULL, &ctx, err,
					       sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err,
			"links[1].lb: layer 0 is not one of the 3 virtual layers");
	g.links[1].lb = 2;
	KTAP_EXPECT_INT(sluice_algo_fc.prepare(&g, NULL, &ctx, err,
					       sizeof(err)), 0);
	sluice_algo_fc.release(ctx);
	g.finalized = false;
	KTAP_EXPECT_INT(sluice_algo_fc.prepare(&g, NULL, &ctx, err,
					       sizeof(err)), -EINVAL);
out:
	sluice_graph_free(&g);
	ktap_result("not_fc_errors");
}

/*
 * A random layered multigraph: @n switches, @k layers, @m links between
 * random switches and random adjacent layers, either end the lower one,
 * parallel links allowed.
 */
static int random_layered(struct sluice_graph *g, struct sluice_rng *rng,
			  uint32_t n, uint32_t k, uint32_t m)
{
	uint8_t (*l)[4] = calloc(m, sizeof(*l));
	uint32_t i, a, b, j;
	int ret;

	if (!l)
		return -ENOMEM;
	for (i = 0; i < m; i++) {
		a = (uint32_t)sluice_rng_below(rng, n);
		b = (uint32_t)sluice_rng_below(rng, n - 1);
		b += b >= a;
		j = 1 + (uint32_t)sluice_rng_below(rng, k - 1);
		l[i][0] = a;
		l[i][2] = b;
		l[i][1] = sluice_rng_below(rng, 2) ? j : j + 1;
		l[i][3] = l[i][1] == j ? j + 1 : j;
	}
	ret = hand_graph(g, n, k, (const uint8_t (*)[4])l, m);
	free(l);
	return ret;
}

/* Tiny graphs: exhaustive search, Bellman-Ford and the path checks. */
static void test_vs_exhaustive(void)
{
	struct sluice_rng rng;
	struct sluice_graph g;
	struct routed r;
	uint32_t i, n, k, m, graphs = 0;
	bool ok = true;

	sluice_rng_seed(&rng, 7);
	for (i = 0; ok && i < 200; i++) {
		n = 3 + (uint32_t)sluice_rng_below(&rng, 5);
		k = 2 + (uint32_t)sluice_rng_below(&rng, 3);
		m = n + (uint32_t)sluice_rng_below(&rng, 2 * n + 1);
		memset(&r, 0, sizeof(r));
		if (!KTAP_EXPECT_INT(random_layered(&g, &rng, n, k, m), 0))
			break;
		ok = KTAP_EXPECT_INT(route_all(&g, &r), 0) &&
		     check_routes(&g, &r) && check_vs_exhaustive(&g, &r) &&
		     check_vs_bf(&g, &r);
		if (!ok)
			ktap_diag("graph %u: n %u k %u m %u", i, n, k, m);
		routed_free(&r);
		sluice_graph_free(&g);
		graphs++;
	}
	KTAP_EXPECT_INT(graphs, 200);
	ktap_diag("%lu pairs, %lu without a path, up to %u up-down paths a pair",
		  (unsigned long)seen.pairs, (unsigned long)seen.no_path,
		  seen.most_paths);
	ktap_result("vs_exhaustive_tiny");
}

/* The generator's fabrics, small: Bellman-Ford on every pair. */
static void test_vs_bf_generated(void)
{
	static const struct { uint32_t n, s, k; } shapes[] = {
		{ 6, 2, 2 }, { 8, 4, 2 }, { 8, 4, 3 }, { 10, 6, 3 },
		{ 10, 6, 4 }, { 12, 8, 3 }, { 12, 8, 5 }, { 14, 6, 4 },
		{ 16, 10, 4 }, { 16, 12, 3 }, { 20, 8, 3 }, { 20, 8, 5 },
		{ 30, 10, 3 }, { 30, 12, 4 }, { 40, 8, 4 }, { 40, 16, 5 },
	};
	struct sluice_fc_params p;
	struct sluice_graph g;
	struct routed r;
	uint32_t i, seed, graphs = 0;
	bool ok = true;
	int ret;

	for (i = 0; ok && i < ARRAY_SIZE(shapes); i++)
		for (seed = 1; ok && seed <= 3; seed++) {
			memset(&p, 0, sizeof(p));
			p.switches = shapes[i].n;
			p.inter_ports = shapes[i].s;
			p.layers = shapes[i].k;
			p.host_ports = seed == 2 ? 2 : 0;
			p.seed = seed + 100 * i;
			ret = sluice_topo_fc(&g, &p, err, sizeof(err));
			if (ret == -EAGAIN)
				continue;
			if (!KTAP_EXPECT_INT(ret, 0)) {
				ktap_diag("%s", err);
				ok = false;
				break;
			}
			memset(&r, 0, sizeof(r));
			ok = KTAP_EXPECT_INT(route_all(&g, &r), 0) &&
			     check_routes(&g, &r) && check_vs_bf(&g, &r);
			if (!ok)
				ktap_diag("fc n %u s %u k %u seed %u: %s",
					  p.switches, p.inter_ports, p.layers,
					  seed, err);
			routed_free(&r);
			sluice_graph_free(&g);
			graphs++;
		}
	KTAP_EXPECT(graphs >= 40);
	ktap_diag("%u fabrics, %lu pairs in all so far, F %lu, %lu links",
		  graphs, (unsigned long)seen.pairs, (unsigned long)seen.flow,
		  (unsigned long)seen.links);
	ktap_result("vs_bellman_ford_generated");
}

/* Random layered multigraphs (both orientations, parallel links). */
static void test_vs_bf_layered(void)
{
	struct sluice_rng rng;
	struct sluice_graph g;
	struct routed r;
	uint32_t i, n, k, m;
	bool ok = true;

	sluice_rng_seed(&rng, 11);
	for (i = 0; ok && i < 100; i++) {
		n = 4 + (uint32_t)sluice_rng_below(&rng, 13);
		k = 2 + (uint32_t)sluice_rng_below(&rng, 4);
		m = n + (uint32_t)sluice_rng_below(&rng, 3 * n);
		memset(&r, 0, sizeof(r));
		if (!KTAP_EXPECT_INT(random_layered(&g, &rng, n, k, m), 0))
			break;
		ok = KTAP_EXPECT_INT(route_all(&g, &r), 0) &&
		     check_routes(&g, &r) && check_vs_bf(&g, &r);
		if (!ok)
			ktap_diag("graph %u: n %u k %u m %u", i, n, k, m);
		routed_free(&r);
		sluice_graph_free(&g);
	}
	ktap_diag("%lu pairs in all, %lu without a path",
		  (unsigned long)seen.pairs, (unsigned long)seen.no_path);
	ktap_result("vs_bellman_ford_layered");
}

static bool same_routes(const struct routed *a, const struct routed *b)
{
	uint32_t s;

	for (s = 0; s < a->n; s++) {
		const struct sluice_path_buf *x = &a->bufs[s], *y = &b->bufs[s];

		if (x->n_pairs != y->n_pairs || x->n_paths != y->n_paths ||
		    x->n_hops != y->n_hops ||
		    memcmp(x->pair_dst, y->pair_dst,
			   x->n_pairs * sizeof(*x->pair_dst)) ||
		    memcmp(x->pair_path, y->pair_path,
			   x->n_pairs * sizeof(*x->pair_path)) ||
		    memcmp(x->path_hop, y->path_hop,
			   x->n_paths * sizeof(*x->path_hop)) ||
		    memcmp(x->hops, y->hops, x->n_hops * sizeof(*x->hops)))
			return false;
	}
	return true;
}

struct thread_arg {
	const struct sluice_graph *g;
	void		*ctx;
	struct routed	*r;
	uint32_t	first;
	int		ret;
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;

	a->ret = route_sources(a->g, a->ctx, a->r, a->first, 2);
	return NULL;
}

/*
 * A bigger fabric (N = 100, s = 10, k = 3): the path checks, the same
 * paths again with the sources in another order and a fresh worker, and
 * from two threads sharing one context.
 */
static void test_medium(void)
{
	struct sluice_fc_params p = { .switches = 100, .inter_ports = 10,
				      .host_ports = 4, .layers = 3,
				      .seed = 5 };
	struct thread_arg args[2];
	struct routed r1 = { 0 }, r2 = { 0 };
	struct sluice_graph g;
	pthread_t th[2];
	uint32_t i, s;
	void *ctx;

	if (!KTAP_EXPECT_INT(sluice_topo_fc(&g, &p, err, sizeof(err)), 0))
		goto out_nograph;
	if (!KTAP_EXPECT_INT(route_all(&g, &r1), 0))
		goto out;
	check_routes(&g, &r1);
	r2.n = g.n_nodes;
	r2.bufs = calloc(g.n_nodes, sizeof(*r2.bufs));
	if (!KTAP_EXPECT(r2.bufs) ||
	    !KTAP_EXPECT_INT(sluice_algo_fc.prepare(&g, NULL, &ctx, err,
						    sizeof(err)), 0))
		goto out;
	sluice_i_fc_certify_every(ctx, 1);
	for (i = 0; i < 2; i++) {
		args[i] = (struct thread_arg){ &g, ctx, &r2, i, 0 };
		KTAP_EXPECT_INT(pthread_create(&th[i], NULL, thread_main,
					       &args[i]), 0);
	}
	for (i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		KTAP_EXPECT_INT(args[i].ret, 0);
	}
	KTAP_EXPECT(same_routes(&r1, &r2));
	/* Sources backwards, one worker: the same paths. */
	for (s = g.n_nodes; s-- > 0;)
		KTAP_EXPECT_INT(route_sources(&g, ctx, &r2, s, g.n_nodes), 0);
	KTAP_EXPECT(same_routes(&r1, &r2));
	sluice_algo_fc.release(ctx);
out:
	routed_free(&r1);
	routed_free(&r2);
	sluice_graph_free(&g);
out_nograph:
	ktap_result("medium_threads_determinism");
}

int main(void)
{
	ktap_plan(7);
	test_fig4();
	test_unreachable();
	test_errors();
	test_vs_exhaustive();
	test_vs_bf_generated();
	test_vs_bf_layered();
	test_medium();
	return ktap_exit();
}
