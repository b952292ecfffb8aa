// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The baseline routing algorithms - ecmp, ksp, updown, bcube - driven
 * through their ops as the compute driver would, against brute force on
 * many random small multigraphs: every simple path enumerated by DFS, then
 * filtered and sorted by (length, link ids).  Plus exact counts on Clos
 * fabrics, the up*_/down* phase trap, BCube's parallel paths, caps and
 * errors, output independent of the order sources run in, and which
 * options each algorithm takes (sluice_route_opts_check()'s messages).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/graph.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "route/algo.h"
#include "ktap.h"

#define MAXL	32	/* longest path the brute force keeps */
#define NONE	UINT32_MAX

static char err[SLUICE_ERRLEN];

/* A graph the test builds by hand failed to build: a bug in the test. */
static void die(void)
{
	ktap_diag("cannot build a test graph: %s", err);
	abort();
}

/* ---- a whole route set, one path buffer per source endpoint ---- */

struct rset {
	uint32_t		n_ep;
	uint32_t		*ep;
	struct sluice_path_buf	*buf;
	uint64_t		truncated;
};

static void rset_free(struct rset *r)
{
	uint32_t i;

	for (i = 0; r->buf && i < r->n_ep; i++)
		sluice_path_buf_free(&r->buf[i]);
	free(r->buf);
	free(r->ep);
	memset(r, 0, sizeof(*r));
}

/*
 * Runs @ops on @g for every source endpoint, in reverse order if @reverse,
 * with one worker.  Returns prepare's or source's error, the message in err.
 */
static int compute(const struct sluice_algo_ops *ops,
		   const struct sluice_graph *g,
		   const struct sluice_route_opts *o, struct rset *r,
		   bool reverse)
{
	void *ctx = NULL, *w = NULL;
	uint32_t *dsts, idx, i, j, nd;
	int ret;

	memset(r, 0, sizeof(*r));
	r->ep = calloc(g->n_nodes, sizeof(*r->ep));
	dsts = calloc(g->n_nodes, sizeof(*dsts));
	if (!r->ep || !dsts) {
		free(dsts);
		return -ENOMEM;
	}
	r->n_ep = sluice_graph_endpoints(g, r->ep);
	r->buf = calloc(r->n_ep, sizeof(*r->buf));
	err[0] = 0;
	ret = r->buf ? ops->prepare(g, o, &ctx, err, sizeof(err)) : -ENOMEM;
	if (ret) {
		free(dsts);
		return ret;
	}
	ret = ops->worker_init(ctx, &w);
	for (idx = 0; !ret && idx < r->n_ep; idx++) {
		i = reverse ? r->n_ep - 1 - idx : idx;
		for (j = nd = 0; j < r->n_ep; j++)
			if (j != i)
				dsts[nd++] = r->ep[j];
		sluice_path_buf_reset(&r->buf[i], r->ep[i]);
		ret = ops->source(ctx, w, dsts, nd, &r->buf[i], err,
				  sizeof(err));
		r->truncated += r->buf[i].truncated_pairs;
	}
	if (w)
		ops->worker_free(w);
	ops->release(ctx);
	free(dsts);
	return ret;
}

/* compute() with the sources in increasing order. */
static int run(const struct sluice_algo_ops *ops, const struct sluice_graph *g,
	       const struct sluice_route_opts *o, struct rset *r)
{
	return compute(ops, g, o, r, false);
}

/* Index of @u among the endpoints, NONE if it is not one. */
static uint32_t ep_index(const struct rset *r, uint32_t u)
{
	uint32_t i;

	for (i = 0; i < r->n_ep; i++)
		if (r->ep[i] == u)
			return i;
	return NONE;
}

/* The pair (source endpoint @si, destination node @t): its first path. */
static bool pair_range(const struct rset *r, uint32_t si, uint32_t t,
		       uint64_t *first, uint64_t *end)
{
	const struct sluice_path_buf *b = &r->buf[si];
	uint32_t q;

	for (q = 0; q < b->n_pairs; q++)
		if (b->pair_dst[q] == t) {
			*first = b->pair_path[q];
			*end = q + 1 < b->n_pairs ? b->pair_path[q + 1] :
						    b->n_paths;
			return true;
		}
	return false;
}

static uint32_t path_at(const struct sluice_path_buf *b, uint64_t p,
			const uint32_t **hops)
{
	uint64_t end = p + 1 < b->n_paths ? b->path_hop[p + 1] : b->n_hops;

	*hops = b->hops + b->path_hop[p];
	return (uint32_t)(end - b->path_hop[p]);
}

/* ---- brute force ---- */

struct path {
	uint32_t	len;
	uint32_t	h[MAXL];
};

struct plist {
	uint32_t	n, cap;
	struct path	*p;
};

static void plist_add(struct plist *l, const uint32_t *h, uint32_t len)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->p = realloc(l->p, l->cap * sizeof(*l->p));
		if (!l->p)
			abort();
	}
	l->p[l->n].len = len;
	memcpy(l->p[l->n].h, h, len * sizeof(*h));
	l->n++;
}

static int path_cmp(const void *a, const void *b)
{
	const struct path *x = a, *y = b;
	uint32_t i;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	for (i = 0; i < x->len; i++)
		if (x->h[i] != y->h[i])
			return x->h[i] < y->h[i] ? -1 : 1;
	return 0;
}

static void simple_dfs(const struct sluice_graph *g, uint32_t u, uint32_t t,
		       uint32_t maxlen, bool *on, uint32_t *h, uint32_t len,
		       struct plist *out)
{
	uint32_t i;

	if (u == t) {
		plist_add(out, h, len);
		return;
	}
	if (len == maxlen)
		return;
	on[u] = true;
	for (i = g->off[u]; i < g->off[u + 1]; i++)
		if (!on[g->adj[i].peer]) {
			h[len] = g->adj[i].link;
			simple_dfs(g, g->adj[i].peer, t, maxlen, on, h,
				   len + 1, out);
		}
	on[u] = false;
}

/* Every simple path from @s to @t of at most @maxlen links, sorted. */
static void all_simple(const struct sluice_graph *g, uint32_t s, uint32_t t,
		       uint32_t maxlen, struct plist *out)
{
	bool on[64] = { false };
	uint32_t h[MAXL];

	out->n = 0;
	if (maxlen > MAXL)
		maxlen = MAXL;
	simple_dfs(g, s, t, maxlen, on, h, 0, out);
	if (out->n)	/* qsort(NULL, 0) is undefined */
		qsort(out->p, out->n, sizeof(*out->p), path_cmp);
}

/* Keeps the shortest paths of a sorted list. */
static void keep_shortest(struct plist *l)
{
	uint32_t i;

	for (i = 1; i < l->n && l->p[i].len == l->p[0].len; i++)
		;
	if (l->n)
		l->n = i;
}

/* Whether the pair's paths in @r are exactly @want (first @n of them). */
static bool same_paths(const struct rset *r, uint32_t si, uint32_t t,
		       const struct plist *want, uint32_t n)
{
	const struct sluice_path_buf *b = &r->buf[si];
	uint64_t first, end, p;
	const uint32_t *h;
	uint32_t len;

	if (!KTAP_EXPECT(pair_range(r, si, t, &first, &end)))
		return false;
	if (!KTAP_EXPECT_INT(end - first, n)) {
		ktap_diag("pair %u -> %u", r->ep[si], t);
		return false;
	}
	for (p = first; p < end; p++) {
		len = path_at(b, p, &h);
		if (!KTAP_EXPECT_INT(len, want->p[p - first].len) ||
		    !KTAP_EXPECT(!memcmp(h, want->p[p - first].h,
					 len * sizeof(*h)))) {
			ktap_diag("pair %u -> %u, path %llu", r->ep[si], t,
				  (unsigned long long)(p - first));
			return false;
		}
		if (!KTAP_EXPECT_INT(b->path_lane[p], 0))
			return false;
	}
	return true;
}

/* ---- graphs ---- */

/*
 * @n nodes, @m links between random distinct ends; with @tiers, never two
 * of one tier.  Some nodes get host ports half the time, so that the
 * endpoints are a subset.
 */
static void random_multigraph(struct sluice_graph *g, struct sluice_rng *r,
			      uint32_t n, uint32_t m, const uint8_t *tiers)
{
	bool hosts = sluice_rng_below(r, 2);
	char name[SLUICE_NAME_MAX];
	uint32_t u, i, tries;

	if (sluice_graph_init(g, n, err, sizeof(err)))
		die();
	for (u = 0; u < n; u++) {
		snprintf(name, sizeof(name), "s%u", u);
		uint32_t h = hosts && sluice_rng_below(r, 3) ? 1 : 0;

		if (sluice_graph_set_node(g, u, name, SLUICE_NODE_SWITCH, h,
					  tiers ? tiers[u] : 0,
					  err, sizeof(err)))
			die();
	}
	for (i = 0; i < m; i++)
		for (tries = 0; tries < 20; tries++) {
			uint32_t a = sluice_rng_below(r, n);
			uint32_t b = sluice_rng_below(r, n - 1);

			b += b >= a;
			if (tiers && tiers[a] == tiers[b])
				continue;
			if (sluice_graph_add_link(g, a, b, 0, 0, err,
						  sizeof(err)) < 0)
				die();
			break;
		}
	if (sluice_graph_finalize(g, err, sizeof(err)))
		die();
}

/* A hand-made graph: @n nodes with @tiers (or none), links @ends[2 i]. */
static void make_graph(struct sluice_graph *g, uint32_t n, const uint8_t *tiers,
		       const uint32_t *ends, uint32_t m)
{
	char name[SLUICE_NAME_MAX];
	uint32_t u, i;

	if (sluice_graph_init(g, n, err, sizeof(err)))
		die();
	for (u = 0; u < n; u++) {
		snprintf(name, sizeof(name), "s%u", u);
		if (sluice_graph_set_node(g, u, name, SLUICE_NODE_SWITCH, 0,
					  tiers ? tiers[u] : 0, err,
					  sizeof(err)))
			die();
	}
	for (i = 0; i < m; i++)
		if (sluice_graph_add_link(g, ends[2 * i], ends[2 * i + 1], 0,
					  0, err, sizeof(err)) < 0)
			die();
	if (sluice_graph_finalize(g, err, sizeof(err)))
		die();
}

/* ---- up*_/down* orientation, computed here independently ---- */

static uint32_t highest_degree(const struct sluice_graph *g,
			       const uint32_t *level)
{
	uint32_t u, best = NONE;

	for (u = 0; u < g->n_nodes; u++)
		if (level[u] == SLUICE_DIST_INF &&
		    (best == NONE ||
		     sluice_graph_degree(g, u) > sluice_graph_degree(g, best)))
			best = u;
	return best;
}

/* up_end[link]: by tier if @by_tier, else by (BFS level, id). */
static void orient(const struct sluice_graph *g, bool by_tier, bool has_root,
		   uint32_t root, uint32_t *up_end)
{
	uint32_t level[64], dist[64], queue[64], u, id;

	for (u = 0; u < g->n_nodes; u++)
		level[u] = SLUICE_DIST_INF;
	for (u = has_root ? root : highest_degree(g, level); u != NONE;
	     u = highest_degree(g, level)) {
		uint32_t v;

		sluice_graph_bfs(g, u, dist, queue);
		for (v = 0; v < g->n_nodes; v++)
			if (level[v] == SLUICE_DIST_INF)
				level[v] = dist[v];
	}
	for (id = 0; id < g->n_links; id++) {
		uint32_t a = g->links[id].a, b = g->links[id].b;

		if (by_tier)
			up_end[id] = g->nodes[a].tier > g->nodes[b].tier ?
				     a : b;
		else
			up_end[id] = level[a] < level[b] ||
				     (level[a] == level[b] && a < b) ? a : b;
	}
}

/* Whether path @h from @s never goes up after going down. */
static bool legal(const struct sluice_graph *g, const uint32_t *up_end,
		  uint32_t s, const uint32_t *h, uint32_t len)
{
	bool down = false;
	uint32_t i, u = s;

	for (i = 0; i < len; i++) {
		const struct sluice_link *l = &g->links[h[i]];
		uint32_t v = l->a == u ? l->b : l->a;

		if (l->a != u && l->b != u)
			return false;
		if (up_end[h[i]] == v) {
			if (down)
				return false;
		} else {
			down = true;
		}
		u = v;
	}
	return true;
}

/* Keeps the legal paths of @l, then the shortest of them. */
static void keep_legal_shortest(const struct sluice_graph *g,
				const uint32_t *up_end, uint32_t s,
				struct plist *l)
{
	uint32_t i, n = 0;

	for (i = 0; i < l->n; i++)
		if (legal(g, up_end, s, l->p[i].h, l->p[i].len))
			l->p[n++] = l->p[i];
	l->n = n;
	keep_shortest(l);
}

/*
 * Compares @ops on @g against the brute force, pair by pair.  @kind:
 * 'e' shortest (first @cap), 'k' first @cap (8 if 0) of all, 'u' legal
 * shortest under @up_end (first @cap); truncated_pairs must count the
 * pairs over the cap (ecmp, updown).
 */
static bool check_brute(const struct sluice_algo_ops *ops,
			const struct sluice_graph *g,
			const struct sluice_route_opts *o, char kind,
			const uint32_t *up_end)
{
	struct plist want = { 0 };
	uint64_t truncated = 0;
	struct rset r;
	uint32_t si, ti, cap = o->paths;
	bool ok = true;

	if (!KTAP_EXPECT_INT(run(ops, g, o, &r), 0)) {
		ktap_diag("%s", err);
		rset_free(&r);
		return false;
	}
	if (kind == 'k' && !cap)
		cap = 8;
	for (si = 0; ok && si < r.n_ep; si++)
		for (ti = 0; ok && ti < r.n_ep; ti++) {
			uint32_t s = r.ep[si], t = r.ep[ti], n;

			if (s == t)
				continue;
			all_simple(g, s, t, g->n_nodes, &want);
			if (kind == 'e')
				keep_shortest(&want);
			else if (kind == 'u')
				keep_legal_shortest(g, up_end, s, &want);
			n = want.n;
			if (cap && n > cap) {
				n = cap;
				if (kind != 'k')
					truncated++;
			}
			ok = same_paths(&r, si, t, &want, n);
		}
	if (ok)
		ok = KTAP_EXPECT_INT(r.truncated, truncated);
	rset_free(&r);
	free(want.p);
	return ok;
}

/* ---- tests ---- */

static void test_ecmp_brute(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_graph g;
	struct sluice_rng r;
	uint32_t seed, n, cap;
	bool ok = true;

	sluice_rng_seed(&r, 1);
	for (seed = 0; ok && seed < 400; seed++) {
		n = 2 + sluice_rng_below(&r, 7);
		random_multigraph(&g, &r, n, sluice_rng_below(&r, 3 * n + 1),
				  NULL);
		for (cap = 0; ok && cap <= 3; cap++) {
			o.paths = cap;
			ok = check_brute(&sluice_algo_ecmp, &g, &o, 'e', NULL);
		}
		sluice_graph_free(&g);
	}
	ktap_result("ecmp: exactly the shortest simple paths, in link id order, caps 0-3, on 400 random multigraphs");
}

static void test_ksp_brute(void)
{
	static const uint32_t ks[] = { 0, 1, 2, 3, 5, 13, 40 };
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_KSP };
	struct sluice_graph g;
	struct sluice_rng r;
	uint32_t seed, n;
	bool ok = true;
	size_t i;

	sluice_rng_seed(&r, 2);
	for (seed = 0; ok && seed < 300; seed++) {
		n = 2 + sluice_rng_below(&r, 7);
		random_multigraph(&g, &r, n, sluice_rng_below(&r, 3 * n + 1),
				  NULL);
		for (i = 0; ok && i < ARRAY_SIZE(ks); i++) {
			o.paths = ks[i];
			ok = check_brute(&sluice_algo_ksp, &g, &o, 'k', NULL);
		}
		sluice_graph_free(&g);
	}
	ktap_result("ksp: the first k simple paths by (length, link ids), k 1-40 and default 8, on 300 random multigraphs");
}

/*
 * Larger graphs: the simple paths up to the length of the k-th path ksp
 * returned are few enough to list; their first k must be ksp's.
 */
static bool ksp_bounded(const struct sluice_graph *g, uint32_t k)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_KSP, .paths = k };
	struct plist want = { 0 };
	uint32_t si, ti;
	struct rset r;
	bool ok = true;

	if (!KTAP_EXPECT_INT(run(&sluice_algo_ksp, g, &o, &r), 0))
		return false;
	for (si = 0; ok && si < r.n_ep; si++)
		for (ti = 0; ok && ti < r.n_ep; ti++) {
			uint64_t first, end;
			const uint32_t *h;
			uint32_t maxlen;

			if (si == ti)
				continue;
			ok = KTAP_EXPECT(pair_range(&r, si, r.ep[ti], &first,
						    &end)) &&
			     KTAP_EXPECT_INT(end - first, k);
			if (!ok)
				break;
			maxlen = path_at(&r.buf[si], end - 1, &h);
			all_simple(g, r.ep[si], r.ep[ti], maxlen, &want);
			ok = KTAP_EXPECT(want.n >= k) &&
			     same_paths(&r, si, r.ep[ti], &want, k);
		}
	rset_free(&r);
	free(want.p);
	return ok;
}

static void test_ksp_larger(void)
{
	struct sluice_graph g;
	uint64_t seed;
	bool ok = true;

	for (seed = 0; ok && seed < 3; seed++) {
		if (!KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, 16, 3, 0, seed,
							   err, sizeof(err)), 0))
			break;
		ok = ksp_bounded(&g, 16);
		sluice_graph_free(&g);
	}
	if (ok && KTAP_EXPECT_INT(sluice_topo_xpander(&g, 15, 4, 0, 5, err,
						      sizeof(err)), 0)) {
		ok = ksp_bounded(&g, 32);
		sluice_graph_free(&g);
	}
	if (ok && KTAP_EXPECT_INT(sluice_topo_leafspine(&g, 4, 3, 2, 1, err,
							sizeof(err)), 0)) {
		ok = ksp_bounded(&g, 30);
		sluice_graph_free(&g);
	}
	ktap_result("ksp: k 16-32 on jellyfish, xpander, leaf-spine with parallel links: the true first k");
}

static void test_updown_brute(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_UPDOWN };
	uint32_t up_end[64], seed, n, cap;
	struct sluice_graph g;
	struct sluice_rng r;
	uint8_t tiers[8];
	bool ok = true;

	sluice_rng_seed(&r, 3);
	for (seed = 0; ok && seed < 400; seed++) {
		n = 2 + sluice_rng_below(&r, 7);
		random_multigraph(&g, &r, n, sluice_rng_below(&r, 3 * n + 1),
				  NULL);
		o.orient = seed % 2 ? SLUICE_ORIENT_BFS : SLUICE_ORIENT_AUTO;
		o.has_root = sluice_rng_below(&r, 2);
		o.root = sluice_rng_below(&r, n);
		orient(&g, false, o.has_root, o.root, up_end);
		for (cap = 0; ok && cap <= 2; cap++) {
			o.paths = cap;
			ok = check_brute(&sluice_algo_updown, &g, &o, 'u',
					 up_end);
		}
		sluice_graph_free(&g);
	}
	ktap_result("updown bfs: exactly the legal shortest paths, default and given roots, on 400 random multigraphs");

	o.has_root = false;
	ok = true;
	for (seed = 0; ok && seed < 300; seed++) {
		uint32_t u;

		n = 2 + sluice_rng_below(&r, 7);
		for (u = 0; u < n; u++)
			tiers[u] = 1 + sluice_rng_below(&r, 3);
		random_multigraph(&g, &r, n, sluice_rng_below(&r, 3 * n + 1),
				  tiers);
		o.orient = seed % 2 ? SLUICE_ORIENT_TIER : SLUICE_ORIENT_AUTO;
		orient(&g, true, false, 0, up_end);
		for (cap = 0; ok && cap <= 2; cap++) {
			o.paths = cap;
			ok = check_brute(&sluice_algo_updown, &g, &o, 'u',
					 up_end);
		}
		sluice_graph_free(&g);
	}
	ktap_result("updown tier: exactly the legal shortest paths, none where none is legal, on 300 random tiered multigraphs");
}

/* The paths of pair @s -> @t are exactly @want (@n of @len links each). */
static bool expect_pair(const struct rset *r, uint32_t s, uint32_t t,
			const uint32_t *want, uint32_t n, uint32_t len)
{
	struct plist l = { 0 };
	uint32_t i;
	bool ok;

	for (i = 0; i < n; i++)
		plist_add(&l, want + i * len, len);
	ok = same_paths(r, ep_index(r, s), t, &l, n);
	free(l.p);
	return ok;
}

static void test_updown_phase(void)
{
	/*
	 * Root r = 0; p = 1, q = 2 on level 1; a = 3, b = 4 on level 2;
	 * c = 5 on level 3.  From a to b the shortest walk a-c-b goes down
	 * then up; the legal path is a-p-r-q-b.
	 */
	static const uint32_t ends1[] = { 0, 1, 0, 2, 1, 3, 2, 4, 3, 5, 5, 4 };
	static const uint32_t want1[] = { 2, 0, 1, 3 };
	static const uint32_t ecmp1[] = { 4, 5 };
	/*
	 * Root R = 0; t = 1, r1 = 2, r2 = 3 on level 1; a = 4, x = 5, b = 6
	 * on level 2 (a above x above b, by id); s = 7 on level 3.  From s,
	 * x is reached at distance 2 both going down (s-a-x) and going up
	 * (s-b-x), through a first; from x only an up move reaches t.  The
	 * phase-less answer is s-a-x-t (links 8 6 4: up, down, up); keeping
	 * the phase x was first reached with loses t; the legal path is
	 * s-b-x-t (links 9 7 4).
	 */
	static const uint32_t ends2[] = {
		0, 1, 0, 2, 0, 3, 2, 4, 1, 5, 3, 6, 4, 5, 6, 5, 7, 4, 7, 6,
	};
	static const uint32_t want2[] = { 9, 7, 4 };
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_UPDOWN,
				       .orient = SLUICE_ORIENT_BFS,
				       .has_root = true, .root = 0 };
	uint32_t up_end[ARRAY_SIZE(ends2) / 2];
	struct sluice_graph g;
	struct rset r;

	make_graph(&g, 6, NULL, ends1, ARRAY_SIZE(ends1) / 2);
	if (KTAP_EXPECT_INT(run(&sluice_algo_updown, &g, &o, &r), 0))
		expect_pair(&r, 3, 4, want1, 1, 4);
	rset_free(&r);
	o.algo = SLUICE_ROUTE_ECMP;
	if (KTAP_EXPECT_INT(run(&sluice_algo_ecmp, &g, &o, &r), 0))
		expect_pair(&r, 3, 4, ecmp1, 1, 2);
	rset_free(&r);
	orient(&g, false, true, 0, up_end);
	KTAP_EXPECT(!legal(&g, up_end, 3, ecmp1, 2));
	check_brute(&sluice_algo_updown, &g, &o, 'u', up_end);
	sluice_graph_free(&g);

	make_graph(&g, 8, NULL, ends2, ARRAY_SIZE(ends2) / 2);
	o = (struct sluice_route_opts){ .algo = SLUICE_ROUTE_UPDOWN };
	if (KTAP_EXPECT_INT(run(&sluice_algo_updown, &g, &o, &r), 0))
		expect_pair(&r, 7, 1, want2, 1, 3);
	rset_free(&r);
	orient(&g, false, false, 0, up_end);
	KTAP_EXPECT(!legal(&g, up_end, 7, (const uint32_t[]){ 8, 6, 4 }, 3));
	KTAP_EXPECT(legal(&g, up_end, 7, want2, 3));
	check_brute(&sluice_algo_updown, &g, &o, 'u', up_end);
	sluice_graph_free(&g);
	ktap_result("updown: no down->up turn where the phase-less search takes one, the legal path where it loses it");
}

static void test_updown_clos(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_UPDOWN };
	uint32_t up_end[64], si, ti;
	struct sluice_graph g;
	struct rset r, e;

	if (!KTAP_EXPECT_INT(sluice_topo_fattree(&g, 4, err, sizeof(err)), 0))
		return;
	if (KTAP_EXPECT_INT(run(&sluice_algo_updown, &g, &o, &r), 0) &&
	    KTAP_EXPECT_INT(r.n_ep, 8)) {
		orient(&g, true, false, 0, up_end);
		for (si = 0; si < 8; si++)
			for (ti = 0; ti < 8; ti++) {
				const struct sluice_path_buf *b = &r.buf[si];
				bool pod = r.ep[si] / 2 == r.ep[ti] / 2;
				uint64_t first, end, p;
				const uint32_t *h;

				if (si == ti ||
				    !KTAP_EXPECT(pair_range(&r, si, r.ep[ti],
							    &first, &end)))
					continue;
				KTAP_EXPECT_INT(end - first, pod ? 2 : 4);
				for (p = first; p < end; p++) {
					KTAP_EXPECT_INT(path_at(b, p, &h),
							pod ? 2 : 4);
					KTAP_EXPECT(legal(&g, up_end, r.ep[si],
							  h, pod ? 2 : 4));
				}
			}
		/* Every shortest path of a fat-tree is up-down. */
		o.algo = SLUICE_ROUTE_ECMP;
		if (KTAP_EXPECT_INT(compute(&sluice_algo_ecmp, &g, &o, &e,
					    false), 0))
			for (si = 0; si < 8; si++)
				KTAP_EXPECT(e.buf[si].n_hops ==
					    r.buf[si].n_hops &&
					    !memcmp(e.buf[si].hops,
						    r.buf[si].hops,
						    r.buf[si].n_hops * 4));
		rset_free(&e);
	}
	rset_free(&r);
	sluice_graph_free(&g);
	ktap_result("updown: fat-tree k=4 edge pairs, 4 paths of 4 links across pods, 2 of 2 inside one, all up-down");

	/* 3 leaves, 2 spines, 2 parallel links: 2 * 2 * 2 paths per pair. */
	if (!KTAP_EXPECT_INT(sluice_topo_leafspine(&g, 3, 2, 2, 1, err,
						   sizeof(err)), 0))
		return;
	o = (struct sluice_route_opts){ .algo = SLUICE_ROUTE_UPDOWN };
	orient(&g, true, false, 0, up_end);
	check_brute(&sluice_algo_updown, &g, &o, 'u', up_end);
	o.algo = SLUICE_ROUTE_ECMP;
	check_brute(&sluice_algo_ecmp, &g, &o, 'e', NULL);
	if (KTAP_EXPECT_INT(run(&sluice_algo_updown, &g, &o, &r), 0)) {
		KTAP_EXPECT_INT(r.n_ep, 3);
		for (si = 0; si < 3; si++)
			KTAP_EXPECT_INT(r.buf[si].n_paths, 2 * 8);
		KTAP_EXPECT_INT(r.truncated, 0);
	}
	rset_free(&r);
	o.paths = 3;
	if (KTAP_EXPECT_INT(run(&sluice_algo_updown, &g, &o, &r), 0)) {
		for (si = 0; si < 3; si++)
			KTAP_EXPECT_INT(r.buf[si].n_paths, 2 * 3);
		KTAP_EXPECT_INT(r.truncated, 6);
	}
	rset_free(&r);
	check_brute(&sluice_algo_updown, &g, &o, 'u', up_end);
	sluice_graph_free(&g);
	ktap_result("updown, ecmp: leaf-spine with parallel links, 8 paths per pair, cap 3 truncates all 6 pairs");
}

static void test_updown_errors(void)
{
	static const uint8_t tiers[] = { 1, 2, 2 };
	static const uint32_t ends[] = { 0, 1, 0, 2, 1, 2 };
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_UPDOWN,
				       .orient = SLUICE_ORIENT_TIER };
	struct sluice_graph g;
	struct rset r;

	if (!KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, 10, 3, 1, 1, err,
						   sizeof(err)), 0))
		return;
	KTAP_EXPECT_INT(run(&sluice_algo_updown, &g, &o, &r),
			-EINVAL);
	KTAP_EXPECT_STR(err, "updown: nodes[0] (s0) has no tier, which orient tier needs");
	rset_free(&r);
	o.orient = SLUICE_ORIENT_BFS;
	o.has_root = true;
	o.root = 10;
	KTAP_EXPECT_INT(run(&sluice_algo_updown, &g, &o, &r),
			-EINVAL);
	KTAP_EXPECT_STR(err, "updown: root 10 is not a node (0 to 9)");
	rset_free(&r);
	o.orient = 7;
	o.has_root = false;
	KTAP_EXPECT_INT(run(&sluice_algo_updown, &g, &o, &r),
			-EINVAL);
	KTAP_EXPECT_STR(err, "updown: unknown orientation 7");
	rset_free(&r);
	sluice_graph_free(&g);

	make_graph(&g, 3, tiers, ends, 3);
	o.orient = SLUICE_ORIENT_AUTO;
	KTAP_EXPECT_INT(run(&sluice_algo_updown, &g, &o, &r),
			-EINVAL);
	KTAP_EXPECT_STR(err, "updown: links[2] joins s1 and s2, both of tier 2: orient tier cannot direct it (use orient bfs)");
	rset_free(&r);
	o.has_root = true;
	o.root = 1;
	KTAP_EXPECT_INT(run(&sluice_algo_updown, &g, &o, &r),
			-EINVAL);
	KTAP_EXPECT_STR(err, "updown: a root orients by BFS, but the orientation is by tier (every node has one): ask for orient bfs");
	rset_free(&r);
	o.orient = SLUICE_ORIENT_BFS;
	KTAP_EXPECT_INT(run(&sluice_algo_updown, &g, &o, &r), 0);
	rset_free(&r);
	sluice_graph_free(&g);
	ktap_result("updown: errors name the node, link or root at fault");
}

static void test_ecmp_huge(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_ECMP };
	uint32_t ends[2 * 48], i, j;
	struct sluice_graph g;
	uint64_t first, end;
	struct rset r;

	/*
	 * 13 nodes in a line, s0 s2 s3 ... s12 s1, 4 parallel links between
	 * neighbours: 4^12 paths from s0 to s1, its first pair, which fails
	 * before anything is listed.
	 */
	for (i = 0; i < 12; i++)
		for (j = 0; j < 4; j++) {
			ends[2 * (4 * i + j)] = i ? i + 1 : 0;
			ends[2 * (4 * i + j) + 1] = i + 1 < 12 ? i + 2 : 1;
		}
	make_graph(&g, 13, NULL, ends, 48);
	KTAP_EXPECT_INT(run(&sluice_algo_ecmp, &g, &o, &r), -E2BIG);
	KTAP_EXPECT_INT(r.buf[0].n_paths, 0);
	KTAP_EXPECT_STR(err, "ecmp: s0 to s1 has 16777216 shortest paths, more than 4194304: set a cap on paths per pair");
	rset_free(&r);
	o.paths = 5;
	if (KTAP_EXPECT_INT(run(&sluice_algo_ecmp, &g, &o, &r), 0) &&
	    KTAP_EXPECT(pair_range(&r, 0, 1, &first, &end))) {
		const uint32_t *h;

		KTAP_EXPECT_INT(end - first, 5);
		/*
		 * Links 4i..4i+3 join the line's i-th and i+1-th nodes; in
		 * lexicographic order the last link varies fastest: the
		 * fifth path is 0 4 ... 36 41 44.
		 */
		KTAP_EXPECT_INT(path_at(&r.buf[0], first + 4, &h), 12);
		KTAP_EXPECT_INT(h[9], 36);
		KTAP_EXPECT_INT(h[10], 41);
		KTAP_EXPECT_INT(h[11], 44);
		/* Over 5 paths: every pair but neighbours (4 paths). */
		KTAP_EXPECT_INT(r.truncated, 13 * 12 - 2 * 12);
	}
	rset_free(&r);
	sluice_graph_free(&g);
	ktap_result("ecmp: 4^12 paths counted, not listed: an error without a cap, the first 5 with one");
}

/* ---- BCube ---- */

static uint32_t bdigit(uint32_t s, uint32_t n, uint32_t l)
{
	while (l--)
		s /= n;
	return s % n;
}

/*
 * Checks BCube(n, k)'s k + 1 paths per server pair: walks from A to B,
 * simple, no shared link nor intermediate node, the path of digit i
 * (the (k - i)-th) 2h links long if a_i != b_i, 2h + 4 if not, 2h the BFS
 * distance.
 */
static bool check_bcube(uint32_t n, uint32_t k)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_BCUBE };
	uint32_t *dist, *queue, *used, *owner, si, ti, stamp = 0;
	struct sluice_graph g;
	struct rset r;
	bool ok = true;

	if (!KTAP_EXPECT_INT(sluice_topo_bcube(&g, n, k, err, sizeof(err)), 0))
		return false;
	dist = calloc(g.n_nodes, sizeof(*dist));
	queue = calloc(g.n_nodes, sizeof(*queue));
	owner = calloc(g.n_nodes, sizeof(*owner));
	used = calloc(g.n_links, sizeof(*used));
	for (si = 0, ti = 1; si <= k; si++)
		ti *= n;
	ok = KTAP_EXPECT_INT(run(&sluice_algo_bcube, &g, &o, &r),
			     0) &&
	     KTAP_EXPECT_INT(r.n_ep, ti);
	for (si = 0; ok && si < r.n_ep; si++) {
		uint32_t a = r.ep[si];

		ok = KTAP_EXPECT_INT(a, si);
		sluice_graph_bfs(&g, a, dist, queue);
		for (ti = 0; ok && ti < r.n_ep; ti++) {
			uint32_t b = r.ep[ti], h = 0, i, shortest = 0;
			uint64_t first, end, p;

			if (a == b)
				continue;
			for (i = 0; i <= k; i++)
				h += bdigit(a, n, i) != bdigit(b, n, i);
			ok = KTAP_EXPECT_INT(dist[b], 2 * h) &&
			     KTAP_EXPECT(pair_range(&r, si, b, &first, &end)) &&
			     KTAP_EXPECT_INT(end - first, k + 1);
			stamp++;
			for (p = first; ok && p < end; p++) {
				uint32_t digit = k - (uint32_t)(p - first);
				bool differ = bdigit(a, n, digit) !=
					      bdigit(b, n, digit);
				const uint32_t *hp;
				uint32_t len = path_at(&r.buf[si], p, &hp);
				uint32_t u = a, j;

				ok = KTAP_EXPECT_INT(len, differ ? 2 * h :
							      2 * h + 4);
				shortest += len == dist[b];
				if (p == first && ok)
					ok = KTAP_EXPECT_INT(len == dist[b],
							     differ);
				for (j = 0; ok && j < len; j++) {
					const struct sluice_link *l =
						&g.links[hp[j]];

					ok = KTAP_EXPECT(l->a == u ||
							 l->b == u) &&
					     KTAP_EXPECT(used[hp[j]] != stamp);
					used[hp[j]] = stamp;
					u = l->a == u ? l->b : l->a;
					/* intermediate: not on any path yet */
					if (!ok || j + 1 == len)
						continue;
					ok = KTAP_EXPECT(u != a && u != b &&
							 owner[u] != stamp);
					owner[u] = stamp;
				}
				ok = ok && KTAP_EXPECT_INT(u, b);
			}
			ok = ok && KTAP_EXPECT_INT(shortest, h);
			if (!ok)
				ktap_diag("BCube(%u,%u) %s -> %s", n, k,
					  g.nodes[a].name, g.nodes[b].name);
		}
	}
	rset_free(&r);
	free(dist);
	free(queue);
	free(owner);
	free(used);
	sluice_graph_free(&g);
	return ok;
}

static void test_bcube(void)
{
	static const uint32_t cases[][2] = {
		{ 2, 0 }, { 5, 0 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 2, 2 },
		{ 3, 2 }, { 2, 3 }, { 4, 2 }, { 2, 4 },
	};
	bool ok = true;
	size_t i;

	for (i = 0; ok && i < ARRAY_SIZE(cases); i++)
		ok = check_bcube(cases[i][0], cases[i][1]);
	ktap_result("bcube: k+1 paths per server pair, link- and node-disjoint, h or h+2 server hops as the paper proves");
}

static void test_bcube_errors(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_BCUBE };
	struct sluice_graph g;
	struct rset r;

	if (KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, 10, 3, 1, 1, err,
						  sizeof(err)), 0)) {
		KTAP_EXPECT_INT(run(&sluice_algo_bcube, &g, &o, &r),
				-EINVAL);
		KTAP_EXPECT_STR(err, "bcube: the topology is a jellyfish fabric, not a BCube: bcube routing needs a graph from the bcube generator");
		rset_free(&r);
		/* Claiming to be a BCube does not make it one. */
		KTAP_EXPECT_INT(sluice_graph_set_family(&g, "bcube", err,
							sizeof(err)), 0);
		KTAP_EXPECT_INT(run(&sluice_algo_bcube, &g, &o, &r),
				-EINVAL);
		KTAP_EXPECT_STR(err, "bcube: the topology lacks its generator parameter n");
		rset_free(&r);
		g.n_params = 0;
		KTAP_EXPECT_INT(sluice_graph_add_param(&g, "n", 2, err,
						       sizeof(err)), 0);
		KTAP_EXPECT_INT(sluice_graph_add_param(&g, "k", 1, err,
						       sizeof(err)), 0);
		KTAP_EXPECT_INT(run(&sluice_algo_bcube, &g, &o, &r),
				-EINVAL);
		KTAP_EXPECT_STR(err, "bcube: BCube(2,1) has 8 nodes and 8 links, the topology 10 and 15");
		rset_free(&r);
		sluice_graph_free(&g);
	}
	make_graph(&g, 3, NULL, (const uint32_t[]){ 0, 1, 1, 2 }, 2);
	KTAP_EXPECT_INT(run(&sluice_algo_bcube, &g, &o, &r), -EINVAL);
	KTAP_EXPECT_STR(err, "bcube: the topology names no generator: bcube routing needs a graph from the bcube generator");
	rset_free(&r);
	sluice_graph_free(&g);
	if (KTAP_EXPECT_INT(sluice_topo_bcube(&g, 3, 1, err, sizeof(err)), 0)) {
		uint32_t t = g.links[10].b;

		/* links[10] is server 1's level-1 link; rewire it. */
		g.links[10].b = g.links[11].b;
		g.links[11].b = t;
		KTAP_EXPECT_INT(run(&sluice_algo_bcube, &g, &o, &r),
				-EINVAL);
		KTAP_EXPECT_STR(err, "bcube: links[10] should join srv01 to its level-1 switch sw1-1");
		rset_free(&r);
		sluice_graph_free(&g);
	}
	ktap_result("bcube: refuses a graph that is not the generator's BCube, saying why");
}

/* Whether two route sets hold the same pairs and paths, byte for byte. */
static bool same_rset(const struct rset *a, const struct rset *b)
{
	uint32_t i;

	if (a->n_ep != b->n_ep || a->truncated != b->truncated)
		return false;
	for (i = 0; i < a->n_ep; i++) {
		const struct sluice_path_buf *x = &a->buf[i], *y = &b->buf[i];

		if (x->n_pairs != y->n_pairs || x->n_paths != y->n_paths ||
		    x->n_hops != y->n_hops ||
		    memcmp(x->pair_dst, y->pair_dst, x->n_pairs * 4) ||
		    memcmp(x->pair_path, y->pair_path, x->n_pairs * 8) ||
		    memcmp(x->path_hop, y->path_hop, x->n_paths * 8) ||
		    memcmp(x->path_lane, y->path_lane, x->n_paths) ||
		    memcmp(x->hops, y->hops, x->n_hops * 4))
			return false;
	}
	return true;
}

static void test_order_independent(void)
{
	static const struct {
		const struct sluice_algo_ops	*ops;
		enum sluice_route_algo		algo;
		uint32_t			paths;
	} algos[] = {
		{ &sluice_algo_ecmp, SLUICE_ROUTE_ECMP, 0 },
		{ &sluice_algo_ecmp, SLUICE_ROUTE_ECMP, 2 },
		{ &sluice_algo_ksp, SLUICE_ROUTE_KSP, 12 },
		{ &sluice_algo_updown, SLUICE_ROUTE_UPDOWN, 0 },
	};
	struct sluice_graph g;
	struct rset x, y;
	size_t i;

	if (!KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, 30, 5, 0, 9, err,
						   sizeof(err)), 0))
		return;
	for (i = 0; i < ARRAY_SIZE(algos); i++) {
		struct sluice_route_opts o = { .algo = algos[i].algo,
					       .paths = algos[i].paths };

		KTAP_EXPECT_INT(run(algos[i].ops, &g, &o, &x), 0);
		KTAP_EXPECT_INT(compute(algos[i].ops, &g, &o, &y, true), 0);
		KTAP_EXPECT(x.buf[0].n_paths > 0);
		if (!KTAP_EXPECT(same_rset(&x, &y)))
			ktap_diag("algorithm %s", sluice_route_algo_name(algos[i].algo));
		rset_free(&x);
		rset_free(&y);
	}
	sluice_graph_free(&g);
	if (KTAP_EXPECT_INT(sluice_topo_bcube(&g, 3, 2, err, sizeof(err)), 0)) {
		struct sluice_route_opts o = { .algo = SLUICE_ROUTE_BCUBE };

		KTAP_EXPECT_INT(run(&sluice_algo_bcube, &g, &o, &x), 0);
		KTAP_EXPECT_INT(compute(&sluice_algo_bcube, &g, &o, &y, true),
				0);
		KTAP_EXPECT(same_rset(&x, &y));
		rset_free(&x);
		rset_free(&y);
		sluice_graph_free(&g);
	}
	ktap_result("ecmp, ksp, updown, bcube: the same paths whatever order the sources run in");
}

/* Which options each algorithm takes, said in the caller's names. */
static void test_opts_check(void)
{
	static const char *const dashed[SLUICE_ROUTE_OPT__COUNT] = {
		"--paths", "--lanes", "--route-seed", "--orient", "--root",
	};
	const unsigned int paths = 1u << SLUICE_ROUTE_OPT_PATHS;
	const unsigned int lanes = 1u << SLUICE_ROUTE_OPT_LANES;
	const unsigned int seed = 1u << SLUICE_ROUTE_OPT_SEED;
	const unsigned int orient = 1u << SLUICE_ROUTE_OPT_ORIENT;
	const unsigned int root = 1u << SLUICE_ROUTE_OPT_ROOT;
	struct sluice_route_opts o;
	int a;

	/* each option with every algorithm: taken by its own only */
	for (a = 0; a < SLUICE_ROUTE__COUNT; a++) {
		memset(&o, 0, sizeof(o));
		o.algo = a;
		KTAP_EXPECT_INT(sluice_route_opts_check(&o, 0, NULL, NULL, err,
							sizeof(err)), 0);
		KTAP_EXPECT_INT(sluice_route_opts_check(&o, paths, NULL, NULL,
							err, sizeof(err)),
				a == SLUICE_ROUTE_KSP || a == SLUICE_ROUTE_ECMP ||
				a == SLUICE_ROUTE_ECMP_CW ||
				a == SLUICE_ROUTE_UPDOWN ? 0 : -EINVAL);
		KTAP_EXPECT_INT(sluice_route_opts_check(&o, seed, NULL, NULL,
							err, sizeof(err)),
				a == SLUICE_ROUTE_EDST ||
				a == SLUICE_ROUTE_EDST_SHALLOW ? 0 : -EINVAL);
		KTAP_EXPECT_INT(sluice_route_opts_check(&o, root, NULL, NULL,
							err, sizeof(err)),
				a == SLUICE_ROUTE_UPDOWN ? 0 : -EINVAL);
	}
	/* the messages, in the fields' names or the caller's */
	memset(&o, 0, sizeof(o));
	o.algo = SLUICE_ROUTE_FC;
	KTAP_EXPECT_INT(sluice_route_opts_check(&o, paths, NULL, NULL, err,
						sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "paths applies to ksp, ecmp and updown");
	KTAP_EXPECT_INT(sluice_route_opts_check(&o, paths, NULL, dashed, err,
						sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "--paths applies to ksp, ecmp and updown");
	KTAP_EXPECT_INT(sluice_route_opts_check(&o, lanes, NULL, dashed, err,
						sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "--lanes and --route-seed apply to edst and edst-shallow");
	KTAP_EXPECT_INT(sluice_route_opts_check(&o, orient, "bfs", dashed, err,
						sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "--orient and --root apply to updown");
	/* updown: the orientation by name, a root for BFS only */
	o.algo = SLUICE_ROUTE_UPDOWN;
	KTAP_EXPECT_INT(sluice_route_opts_check(&o, orient, "up", dashed, err,
						sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "--orient: \"up\" is not auto, tier or bfs");
	KTAP_EXPECT_INT(sluice_route_opts_check(&o, orient, "tier", NULL, err,
						sizeof(err)), 0);
	KTAP_EXPECT_INT(o.orient, SLUICE_ORIENT_TIER);
	KTAP_EXPECT_INT(sluice_route_opts_check(&o, orient | root, "tier",
						dashed, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "--root is for --orient bfs");
	/* a root with "auto" (or no --orient) means BFS */
	KTAP_EXPECT_INT(sluice_route_opts_check(&o, orient | root, "auto",
						dashed, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(o.orient, SLUICE_ORIENT_BFS);
	o.orient = SLUICE_ORIENT_AUTO;
	KTAP_EXPECT_INT(sluice_route_opts_check(&o, root, NULL, dashed, err,
						sizeof(err)), 0);
	KTAP_EXPECT_INT(o.orient, SLUICE_ORIENT_BFS);
	ktap_result("opts_check");
}

static void (*const tests[])(void) = {
	test_ecmp_brute,
	test_ecmp_huge,
	test_ksp_brute,
	test_ksp_larger,
	test_updown_brute,
	test_updown_phase,
	test_updown_clos,
	test_updown_errors,
	test_bcube,
	test_bcube_errors,
	test_order_independent,
	test_opts_check,
};

int main(void)
{
	size_t i;

	/* test_updown_brute and test_updown_clos close two test points. */
	ktap_plan(ARRAY_SIZE(tests) + 2);
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
