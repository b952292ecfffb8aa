// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * EDST routing (lib/route/edst.c): the tree count against the
 * Nash-Williams/Tutte formula by brute force over set partitions, every
 * tree set valid (spanning, acyclic, pairwise edge-disjoint), floor(r/2)
 * trees on r-edge-connected r-regular graphs, every path the unique tree
 * path, lanes and seeds, and edst-shallow's shorter paths.
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
#include "route/edst.h"
#include "ktap.h"

#define NIL	UINT32_MAX

static char err[SLUICE_ERRLEN];

static int prepare(const struct sluice_graph *g, enum sluice_route_algo algo,
		   uint32_t lanes, uint64_t seed, void **ctx)
{
	struct sluice_route_opts o = {
		.algo = algo, .lanes = lanes, .seed = seed,
	};

	return sluice_algo_edst.prepare(g, &o, ctx, err, sizeof(err));
}

/* A graph of @n nodes "v<i>", each with @hosts host ports. */
static bool build(struct sluice_graph *g, uint32_t n, uint32_t hosts,
		  const uint32_t (*ab)[2], uint32_t m)
{
	char name[16];
	uint32_t u, i;

	if (!KTAP_EXPECT_INT(sluice_graph_init(g, n, err, sizeof(err)), 0))
		return false;
	for (u = 0; u < n; u++) {
		snprintf(name, sizeof(name), "v%u", u);
		sluice_graph_set_node(g, u, name, SLUICE_NODE_SWITCH, hosts, 0,
				      err, sizeof(err));
	}
	for (i = 0; i < m; i++)
		if (!KTAP_EXPECT(sluice_graph_add_link(g, ab[i][0], ab[i][1], 0,
						       0, err, sizeof(err)) >= 0))
			return false;
	return KTAP_EXPECT_INT(sluice_graph_finalize(g, err, sizeof(err)), 0);
}

/*
 * Nash-Williams/Tutte: the most edge-disjoint spanning trees is the least,
 * over partitions P of the nodes into at least two parts, of
 * floor(links between parts / (|P| - 1)).  All partitions are visited as
 * restricted growth strings.
 */
static void nw_visit(const struct sluice_graph *g, uint32_t *part,
		     uint32_t u, uint32_t parts, uint32_t *best)
{
	uint32_t l, cross = 0, p;

	if (u == g->n_nodes) {
		if (parts < 2)
			return;
		for (l = 0; l < g->n_links; l++)
			cross += part[g->links[l].a] != part[g->links[l].b];
		if (cross / (parts - 1) < *best)
			*best = cross / (parts - 1);
		return;
	}
	for (p = 0; p <= parts; p++) {
		part[u] = p;
		nw_visit(g, part, u + 1, p == parts ? parts + 1 : parts, best);
	}
}

static uint32_t nash_williams(const struct sluice_graph *g)
{
	uint32_t part[16], best = NIL;

	part[0] = 0;
	nw_visit(g, part, 1, 1, &best);
	return best;
}

static uint32_t uf_find(uint32_t *uf, uint32_t v)
{
	while (uf[v] != v) {
		uf[v] = uf[uf[v]];
		v = uf[v];
	}
	return v;
}

/* The links of tree (@s, @t), checked to be n - 1 of them. */
static bool tree_links(const struct sluice_graph *g, const void *ctx,
		       uint32_t s, uint32_t t, uint32_t *links)
{
	return KTAP_EXPECT_INT(sluice_i_edst_tree_links(ctx, s, t, links),
			       g->n_nodes - 1);
}

/*
 * Every set of @ctx: T trees of n - 1 links that never close a cycle (so
 * each spans the nodes), no link in two trees of a set.
 */
static bool check_sets(const struct sluice_graph *g, const void *ctx)
{
	uint32_t n = g->n_nodes, T = sluice_i_edst_trees(ctx);
	uint32_t *uf = calloc(n, sizeof(*uf));
	uint32_t *links = calloc(n, sizeof(*links));
	uint32_t *owner = calloc(g->n_links + 1, sizeof(*owner));
	uint32_t s, t, i, v, ra, rb;
	bool ok = true;

	for (s = 0; ok && s < sluice_i_edst_sets(ctx); s++) {
		for (i = 0; i < g->n_links; i++)
			owner[i] = NIL;
		for (t = 0; ok && t < T; t++) {
			ok = tree_links(g, ctx, s, t, links);
			for (v = 0; v < n; v++)
				uf[v] = v;
			for (i = 0; ok && i + 1 < n; i++) {
				const struct sluice_link *l = &g->links[links[i]];

				ok = KTAP_EXPECT(links[i] < g->n_links) &&
				     KTAP_EXPECT_INT(owner[links[i]], NIL);
				if (!ok)
					break;
				owner[links[i]] = t;
				ra = uf_find(uf, l->a);
				rb = uf_find(uf, l->b);
				ok = KTAP_EXPECT(ra != rb);	/* acyclic */
				uf[ra] = rb;
			}
		}
	}
	free(uf);
	free(links);
	free(owner);
	return ok;
}

static void test_small(void)
{
	static const uint32_t k4[][2] = {
		{ 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 2 }, { 1, 3 }, { 2, 3 },
	};
	static const uint32_t fat2[][2] = {
		{ 0, 1 }, { 0, 1 }, { 1, 0 }, { 0, 1 }, { 1, 0 },
	};
	static const uint32_t petersen[][2] = {
		{ 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 4, 0 },
		{ 0, 5 }, { 1, 6 }, { 2, 7 }, { 3, 8 }, { 4, 9 },
		{ 5, 7 }, { 7, 9 }, { 9, 6 }, { 6, 8 }, { 8, 5 },
	};
	static const uint32_t split[][2] = {
		{ 0, 1 }, { 1, 2 }, { 3, 4 },
	};
	struct sluice_graph g;
	void *ctx;

	if (build(&g, 4, 1, k4, ARRAY_SIZE(k4))) {
		KTAP_EXPECT_INT(prepare(&g, SLUICE_ROUTE_EDST, 0, 0, &ctx), 0);
		KTAP_EXPECT_INT(sluice_i_edst_trees(ctx), 2);
		KTAP_EXPECT_INT(sluice_i_edst_sets(ctx), 1);
		check_sets(&g, ctx);
		sluice_algo_edst.release(ctx);
	}
	sluice_graph_free(&g);
	if (build(&g, 2, 1, fat2, ARRAY_SIZE(fat2))) {
		KTAP_EXPECT_INT(prepare(&g, SLUICE_ROUTE_EDST_SHALLOW, 2, 0,
					&ctx), 0);
		KTAP_EXPECT_INT(sluice_i_edst_trees(ctx), 5);
		check_sets(&g, ctx);
		sluice_algo_edst.release(ctx);
	}
	sluice_graph_free(&g);
	if (build(&g, 10, 0, petersen, ARRAY_SIZE(petersen))) {
		KTAP_EXPECT_INT(prepare(&g, SLUICE_ROUTE_EDST, 0, 0, &ctx), 0);
		KTAP_EXPECT_INT(sluice_i_edst_trees(ctx), 1);
		sluice_algo_edst.release(ctx);
	}
	sluice_graph_free(&g);
	/* one node: nothing to span, nothing to route */
	if (build(&g, 1, 1, NULL, 0)) {
		KTAP_EXPECT_INT(prepare(&g, SLUICE_ROUTE_EDST, 0, 0, &ctx), 0);
		KTAP_EXPECT_INT(sluice_i_edst_trees(ctx), 0);
		sluice_algo_edst.release(ctx);
	}
	sluice_graph_free(&g);
	if (build(&g, 5, 1, split, ARRAY_SIZE(split))) {
		ctx = &g;
		KTAP_EXPECT_INT(prepare(&g, SLUICE_ROUTE_EDST, 0, 0, &ctx),
				-EINVAL);
		KTAP_EXPECT_STR(err, "edst: the fabric is not connected (2 components: v0 cannot reach v3), so it has no spanning tree");
		KTAP_EXPECT(!ctx);
		KTAP_EXPECT_INT(prepare(&g, SLUICE_ROUTE_EDST, 9, 0, &ctx),
				-EINVAL);
		KTAP_EXPECT_STR(err, "edst: lanes: at most 8 tree sets (one per lane), not 9");
		KTAP_EXPECT_INT(prepare(&g, SLUICE_ROUTE_ECMP, 0, 0, &ctx),
				-EINVAL);
		KTAP_EXPECT_STR(err, "edst: called for algorithm ecmp");
	}
	sluice_graph_free(&g);
	ktap_result("edst: K4, 5 parallel links, Petersen, one node; disconnected and bad options fail");
}

/* A random multigraph on 2..@nmax nodes, connected or not. */
static bool random_multigraph(struct sluice_graph *g, struct sluice_rng *r,
			      uint32_t nmax)
{
	uint32_t ab[64][2], n = 2 + sluice_rng_below(r, nmax - 1), m = 0, i;
	uint32_t extra = sluice_rng_below(r, 3 * n + 1);

	/* most draws start from a random tree, so that most connect */
	if (sluice_rng_below(r, 8))
		for (i = 1; i < n; i++) {
			ab[m][0] = i;
			ab[m++][1] = sluice_rng_below(r, i);
		}
	for (i = 0; i < extra && m < ARRAY_SIZE(ab); i++) {
		ab[m][0] = sluice_rng_below(r, n);
		ab[m][1] = (ab[m][0] + 1 + sluice_rng_below(r, n - 1)) % n;
		/* now and then a parallel link */
		if (m && !sluice_rng_below(r, 4)) {
			ab[m][0] = ab[m - 1][0];
			ab[m][1] = ab[m - 1][1];
		}
		m++;
	}
	return build(g, n, 1, ab, m);
}

static void test_nash_williams(void)
{
	uint32_t i, T, want, lanes, comps = 0, hist[8] = { 0 };
	uint32_t comp[16], queue[16];
	struct sluice_graph g;
	struct sluice_rng r;
	enum sluice_route_algo algo;
	void *ctx;
	int ret;

	sluice_rng_seed(&r, 7);
	for (i = 0; i < 600; i++) {
		if (!random_multigraph(&g, &r, 7))
			break;
		want = nash_williams(&g);
		lanes = 1 + i % 3;
		for (algo = SLUICE_ROUTE_EDST; algo <= SLUICE_ROUTE_EDST_SHALLOW;
		     algo++) {
			ret = prepare(&g, algo, lanes, i, &ctx);
			if (sluice_graph_components(&g, comp, queue) > 1) {
				KTAP_EXPECT_INT(ret, -EINVAL);
				comps++;
				continue;
			}
			if (!KTAP_EXPECT_INT(ret, 0)) {
				ktap_diag("%s", err);
				continue;
			}
			T = sluice_i_edst_trees(ctx);
			if (!KTAP_EXPECT_INT(T, want))
				ktap_diag("graph %u: %u nodes, %u links", i,
					  g.n_nodes, g.n_links);
			KTAP_EXPECT_INT(sluice_i_edst_sets(ctx), lanes);
			check_sets(&g, ctx);
			hist[T < 7 ? T : 7]++;
			sluice_algo_edst.release(ctx);
		}
		sluice_graph_free(&g);
	}
	ktap_diag("trees 0..7+: %u %u %u %u %u %u %u %u; %u disconnected",
		  hist[0], hist[1], hist[2], hist[3], hist[4], hist[5],
		  hist[6], hist[7], comps / 2);
	KTAP_EXPECT(comps > 0 && hist[1] && hist[2] && hist[3] && hist[4]);
	ktap_result("edst: T equals the Nash-Williams/Tutte minimum over partitions on 600 random multigraphs, sets valid");
}

/* Trees of the Clos and BCube generators, against brute force too. */
static void test_generators(void)
{
	struct sluice_graph g;
	void *ctx;
	uint32_t want;
	int i;

	for (i = 0; i < 4; i++) {
		if (i == 0)
			sluice_topo_leafspine(&g, 4, 2, 2, 4, err, sizeof(err));
		else if (i == 1)
			sluice_topo_leafspine(&g, 3, 3, 1, 4, err, sizeof(err));
		else if (i == 2)
			sluice_topo_bcube(&g, 2, 1, err, sizeof(err));
		else
			sluice_topo_ring(&g, 7, 1, err, sizeof(err));
		want = nash_williams(&g);
		if (KTAP_EXPECT_INT(prepare(&g, SLUICE_ROUTE_EDST, 2, 5, &ctx),
				    0)) {
			KTAP_EXPECT_INT(sluice_i_edst_trees(ctx), want);
			check_sets(&g, ctx);
			sluice_algo_edst.release(ctx);
		}
		if (KTAP_EXPECT_INT(prepare(&g, SLUICE_ROUTE_EDST_SHALLOW, 2, 5,
					    &ctx), 0)) {
			KTAP_EXPECT_INT(sluice_i_edst_trees(ctx), want);
			check_sets(&g, ctx);
			sluice_algo_edst.release(ctx);
		}
		sluice_graph_free(&g);
	}
	ktap_result("edst: leaf-spine (parallel links), BCube(2,1) servers and switches, ring: brute-force counts");
}

/*
 * Edge connectivity: the least, over nodes v != 0, of the maximum number
 * of link-disjoint paths from 0 to v (unit augmenting paths).
 */
static uint32_t edge_connectivity(const struct sluice_graph *g)
{
	uint32_t n = g->n_nodes, m = g->n_links, best = NIL, v, flow, i;
	uint8_t *res = calloc(2 * (size_t)m, 1);
	uint32_t *via = calloc(n, sizeof(*via)), *queue = calloc(n, sizeof(*queue));
	uint32_t head, tail, u, arc, w;

	for (v = 1; v < n; v++) {
		memset(res, 1, 2 * (size_t)m);	/* arc 2l: a to b, 2l + 1 back */
		for (flow = 0; flow < best; flow++) {
			for (u = 0; u < n; u++)
				via[u] = NIL;
			via[0] = 2 * m;
			head = 0;
			queue[0] = 0;
			tail = 1;
			while (head < tail && via[v] == NIL) {
				u = queue[head++];
				for (i = g->off[u]; i < g->off[u + 1]; i++) {
					arc = 2 * g->adj[i].link +
					      (g->links[g->adj[i].link].a != u);
					w = g->adj[i].peer;
					if (res[arc] && via[w] == NIL) {
						via[w] = arc;
						queue[tail++] = w;
					}
				}
			}
			if (via[v] == NIL)
				break;
			for (w = v; w != 0; ) {
				arc = via[w];
				res[arc]--;
				res[arc ^ 1]++;
				w = arc & 1 ? g->links[arc >> 1].b :
					      g->links[arc >> 1].a;
			}
		}
		if (flow < best)
			best = flow;
	}
	free(res);
	free(via);
	free(queue);
	return best;
}

static void test_regular(void)
{
	static const uint32_t cases[][2] = {
		{ 20, 3 }, { 20, 4 }, { 30, 5 }, { 40, 6 }, { 64, 7 },
		{ 50, 10 }, { 50, 18 }, { 100, 18 },
	};
	uint32_t i, T, lambda, r, connected = 0;
	struct sluice_graph g;
	uint64_t seed;
	void *ctx;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		for (seed = 0; seed < 3; seed++) {
			r = cases[i][1];
			if (!KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, cases[i][0],
					r, 1, seed, err, sizeof(err)), 0))
				continue;
			lambda = edge_connectivity(&g);
			if (KTAP_EXPECT_INT(prepare(&g, SLUICE_ROUTE_EDST, 1,
						    seed, &ctx), 0)) {
				T = sluice_i_edst_trees(ctx);
				/* Nash-Williams: lambda / 2 <= T <= lambda */
				KTAP_EXPECT(T >= lambda / 2 && T <= lambda);
				if (lambda == r) {
					KTAP_EXPECT_INT(T, r / 2);
					connected++;
				}
				check_sets(&g, ctx);
				sluice_algo_edst.release(ctx);
			}
			sluice_graph_free(&g);
		}
	ktap_diag("%u of %zu jellyfish draws r-edge-connected", connected,
		  3 * ARRAY_SIZE(cases));
	KTAP_EXPECT(connected >= 2 * ARRAY_SIZE(cases));
	ktap_result("edst: floor(r/2) trees on r-edge-connected r-regular graphs");
}

/* Parent links of tree (@s, @t) seen from @src, by BFS over its links. */
static void tree_bfs(const struct sluice_graph *g, const void *ctx,
		     uint32_t s, uint32_t t, uint32_t src, uint32_t *via,
		     uint32_t *links, uint32_t *queue, bool *in)
{
	uint32_t n = g->n_nodes, i, u, head = 0, tail = 0;

	tree_links(g, ctx, s, t, links);
	memset(in, 0, g->n_links * sizeof(*in));
	for (i = 0; i + 1 < n; i++)
		in[links[i]] = true;
	for (u = 0; u < n; u++)
		via[u] = NIL;
	via[src] = g->n_links;
	queue[tail++] = src;
	while (head < tail) {
		u = queue[head++];
		for (i = g->off[u]; i < g->off[u + 1]; i++)
			if (in[g->adj[i].link] && via[g->adj[i].peer] == NIL) {
				via[g->adj[i].peer] = g->adj[i].link;
				queue[tail++] = g->adj[i].peer;
			}
	}
}

/*
 * The paths of every source: per destination, sets * T paths, set by set
 * and tree by tree, lane = set, each a walk from the source to the
 * destination equal to the path BFS finds in that tree alone.
 */
static bool check_paths(const struct sluice_graph *g, const void *ctx)
{
	uint32_t n = g->n_nodes, T = sluice_i_edst_trees(ctx);
	uint32_t S = sluice_i_edst_sets(ctx), n_ep, src, d, s, t, q, h, at;
	uint32_t *ep = calloc(n, sizeof(*ep)), *dsts = calloc(n, sizeof(*dsts));
	uint32_t *via = calloc((size_t)S * T * n, sizeof(*via));
	uint32_t *links = calloc(n, sizeof(*links));
	uint32_t *queue = calloc(n, sizeof(*queue));
	uint32_t *want = calloc(n, sizeof(*want));
	bool *in = calloc(g->n_links, sizeof(*in));
	struct sluice_path_buf b = { 0 };
	uint32_t nd, len, wl, checked = 0;
	void *w = NULL;
	bool ok = KTAP_EXPECT_INT(sluice_algo_edst.worker_init((void *)ctx, &w),
				  0);

	n_ep = sluice_graph_endpoints(g, ep);
	for (src = 0; ok && src < n_ep; src++) {
		nd = 0;
		for (d = 0; d < n_ep; d++)
			if (d != src)
				dsts[nd++] = ep[d];
		for (s = 0; s < S; s++)
			for (t = 0; t < T; t++)
				tree_bfs(g, ctx, s, t, ep[src],
					 via + ((size_t)s * T + t) * n, links,
					 queue, in);
		sluice_path_buf_reset(&b, ep[src]);
		ok = KTAP_EXPECT_INT(sluice_algo_edst.source((void *)ctx, w,
					dsts, nd, &b, err, sizeof(err)), 0) &&
		     KTAP_EXPECT_INT(b.n_pairs, nd) &&
		     KTAP_EXPECT_INT(b.n_paths, (uint64_t)nd * S * T);
		for (d = 0; ok && d < nd; d++) {
			ok = KTAP_EXPECT_INT(b.pair_dst[d], dsts[d]) &&
			     KTAP_EXPECT_INT(b.pair_path[d], (uint64_t)d * S * T);
			for (q = 0; ok && q < S * T; q++) {
				uint64_t p = b.pair_path[d] + q;
				uint64_t end = p + 1 < b.n_paths ?
					       b.path_hop[p + 1] : b.n_hops;
				const uint32_t *tv = via + (size_t)q * n;

				s = q / T;
				len = end - b.path_hop[p];
				ok = KTAP_EXPECT_INT(b.path_lane[p], s);
				/* the tree's path, read backwards */
				wl = 0;
				for (at = dsts[d]; ok && at != ep[src]; ) {
					want[wl++] = tv[at];
					at = g->links[tv[at]].a == at ?
					     g->links[tv[at]].b : g->links[tv[at]].a;
				}
				ok = ok && KTAP_EXPECT_INT(len, wl);
				at = ep[src];
				for (h = 0; ok && h < len; h++) {
					const struct sluice_link *l =
						&g->links[b.hops[b.path_hop[p] + h]];

					ok = KTAP_EXPECT_INT(b.hops[b.path_hop[p] + h],
							     want[wl - 1 - h]) &&
					     KTAP_EXPECT(l->a == at || l->b == at);
					at = l->a == at ? l->b : l->a;
				}
				ok = ok && KTAP_EXPECT_INT(at, dsts[d]);
				checked++;
			}
		}
	}
	sluice_algo_edst.worker_free(w);
	sluice_path_buf_free(&b);
	free(ep);
	free(dsts);
	free(via);
	free(links);
	free(queue);
	free(want);
	free(in);
	return ok && KTAP_EXPECT(checked > 0);
}

static void test_paths(void)
{
	enum sluice_route_algo algo;
	struct sluice_graph g;
	void *ctx;
	int i;

	for (i = 0; i < 5; i++) {
		if (i == 0)
			sluice_topo_jellyfish(&g, 30, 6, 2, 3, err, sizeof(err));
		else if (i == 1)
			sluice_topo_bcube(&g, 3, 1, err, sizeof(err));
		else if (i == 2)
			sluice_topo_leafspine(&g, 5, 3, 2, 4, err, sizeof(err));
		else if (i == 3)
			sluice_topo_ring(&g, 9, 0, err, sizeof(err));
		else
			sluice_topo_fattree(&g, 4, err, sizeof(err));
		for (algo = SLUICE_ROUTE_EDST; algo <= SLUICE_ROUTE_EDST_SHALLOW;
		     algo++) {
			if (!KTAP_EXPECT_INT(prepare(&g, algo, 1 + i % 3, 11,
						     &ctx), 0))
				continue;
			check_sets(&g, ctx);
			check_paths(&g, ctx);
			sluice_algo_edst.release(ctx);
		}
		sluice_graph_free(&g);
	}
	ktap_result("edst: every path is its tree's unique path, lane = set, on jellyfish, BCube, leaf-spine, ring, fat-tree");
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/* A set's fingerprint: its trees' sorted link lists, hashed, sorted. */
static void set_sig(const struct sluice_graph *g, const void *ctx,
		    uint32_t s, uint64_t *sig)
{
	uint32_t n = g->n_nodes, t, i, *links = calloc(n, sizeof(*links));

	for (t = 0; t < sluice_i_edst_trees(ctx); t++) {
		tree_links(g, ctx, s, t, links);
		qsort(links, n - 1, sizeof(*links), cmp_u32);
		sig[t] = 0xcbf29ce484222325ull;
		for (i = 0; i + 1 < n; i++)
			sig[t] = (sig[t] ^ links[i]) * 0x100000001b3ull;
	}
	qsort(sig, sluice_i_edst_trees(ctx), sizeof(*sig), cmp_u64);
	free(links);
}

static void test_lanes(void)
{
	uint64_t sig[4][8], again[8], other[8];
	enum sluice_route_algo algo;
	struct sluice_graph g;
	uint32_t s, s2, T;
	void *ctx;

	if (!KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, 50, 16, 1, 9, err,
						   sizeof(err)), 0))
		goto out;
	for (algo = SLUICE_ROUTE_EDST; algo <= SLUICE_ROUTE_EDST_SHALLOW;
	     algo++) {
		if (!KTAP_EXPECT_INT(prepare(&g, algo, 4, 42, &ctx), 0))
			continue;
		T = sluice_i_edst_trees(ctx);
		KTAP_EXPECT_INT(T, 8);
		check_sets(&g, ctx);
		for (s = 0; s < 4; s++)
			set_sig(&g, ctx, s, sig[s]);
		for (s = 0; s < 4; s++)
			for (s2 = s + 1; s2 < 4; s2++)
				KTAP_EXPECT(memcmp(sig[s], sig[s2],
						   T * sizeof(**sig)));
		sluice_algo_edst.release(ctx);
		/* the same seed gives the same sets, another seed others */
		if (KTAP_EXPECT_INT(prepare(&g, algo, 1, 42, &ctx), 0)) {
			set_sig(&g, ctx, 0, again);
			KTAP_EXPECT(!memcmp(sig[0], again, T * sizeof(*again)));
			sluice_algo_edst.release(ctx);
		}
		if (KTAP_EXPECT_INT(prepare(&g, algo, 1, 43, &ctx), 0)) {
			set_sig(&g, ctx, 0, other);
			KTAP_EXPECT(memcmp(sig[0], other, T * sizeof(*other)));
			sluice_algo_edst.release(ctx);
		}
	}
out:
	sluice_graph_free(&g);
	ktap_result("edst: four lanes give four different maximum sets; seeds reproduce and differ");
}

/* Mean tree distance over ordered pairs and trees of set 0, in links. */
static double mean_path(const struct sluice_graph *g, const void *ctx)
{
	uint32_t n = g->n_nodes, T = sluice_i_edst_trees(ctx), t, u, v, *p;
	uint32_t *via = calloc(n, sizeof(*via)), *links = calloc(n, sizeof(*links));
	uint32_t *queue = calloc(n, sizeof(*queue)), *dist = calloc(n, sizeof(*dist));
	bool *in = calloc(g->n_links, sizeof(*in));
	uint64_t sum = 0;

	for (t = 0; t < T; t++)
		for (u = 0; u < n; u++) {
			tree_bfs(g, ctx, 0, t, u, via, links, queue, in);
			/* BFS order: parents before children */
			dist[u] = 0;
			for (p = queue + 1; p < queue + n; p++) {
				const struct sluice_link *l = &g->links[via[*p]];

				v = l->a == *p ? l->b : l->a;
				dist[*p] = dist[v] + 1;
				sum += dist[*p];
			}
		}
	free(via);
	free(links);
	free(queue);
	free(dist);
	free(in);
	return (double)sum / ((double)T * n * (n - 1));
}

static void test_shallow(void)
{
	static const uint32_t cases[][2] = { { 50, 18 }, { 100, 18 } };
	struct sluice_graph g;
	void *deep, *low;
	double dl, ll;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, cases[i][0],
				cases[i][1], 1, 1, err, sizeof(err)), 0))
			continue;
		if (KTAP_EXPECT_INT(prepare(&g, SLUICE_ROUTE_EDST, 1, 1, &deep),
				    0)) {
			if (KTAP_EXPECT_INT(prepare(&g, SLUICE_ROUTE_EDST_SHALLOW,
						    1, 1, &low), 0)) {
				KTAP_EXPECT_INT(sluice_i_edst_trees(low),
						sluice_i_edst_trees(deep));
				check_sets(&g, low);
				dl = mean_path(&g, deep);
				ll = mean_path(&g, low);
				ktap_diag("jellyfish N=%u r=%u: T=%u, mean path %.2f links (edst), %.2f (edst-shallow)",
					  cases[i][0], cases[i][1],
					  sluice_i_edst_trees(low), dl, ll);
				KTAP_EXPECT(ll < dl);
				sluice_algo_edst.release(low);
			}
			sluice_algo_edst.release(deep);
		}
		sluice_graph_free(&g);
	}
	ktap_result("edst-shallow: as many trees, valid, shorter paths than edst");
}

int main(void)
{
	ktap_plan(7);
	test_small();
	test_nash_williams();
	test_generators();
	test_regular();
	test_paths();
	test_lanes();
	test_shallow();
	return ktap_exit();
}
