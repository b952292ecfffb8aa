// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cyclic buffer dependency check (sluice/cbd.h): FC's own examples
 * (Section 2.2.1's four switches, Fig. 11's three paths), lanes breaking a
 * cycle, up-down routing on Clos fabrics, the check against a brute force
 * (Definition 3 built naively, Floyd-Warshall) on many random path sets
 * and on the library's routing algorithms, and the errors of malformed
 * route sets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/cbd.h>
#include <sluice/graph.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "route/algo.h"
#include "ktap.h"

static char err[SLUICE_ERRLEN];

/*
 * A graph with nodes "A", "B", ... and a link for each two-letter word of
 * @links ("AB BC"), in order: link i is the i-th word.
 */
static void letters_graph(struct sluice_graph *g, uint32_t n,
			  const char *links)
{
	char nm[2] = "A";
	uint32_t u;
	int ret;

	ret = sluice_graph_init(g, n, err, sizeof(err));
	for (u = 0; u < n && !ret; u++) {
		nm[0] = 'A' + u;
		ret = sluice_graph_set_node(g, u, nm, SLUICE_NODE_SWITCH, 1, 0,
					    err, sizeof(err));
	}
	for (; *links && !ret; links++) {
		if (*links == ' ')
			continue;
		/* the new link's id, or an error */
		ret = sluice_graph_add_link(g, links[0] - 'A', links[1] - 'A',
					    0, 0, err, sizeof(err));
		ret = ret < 0 ? ret : 0;
		links++;
	}
	if (!ret)
		ret = sluice_graph_finalize(g, err, sizeof(err));
	if (ret)
		ktap_diag("letters_graph: %s", err);
}

static void *grow(void *p, uint64_t n, size_t size)
{
	p = realloc(p, n * size);
	if (!p)
		abort();
	return p;
}

/* An empty route set for @g. */
static void rs_init(struct sluice_routes *r, const struct sluice_graph *g)
{
	memset(r, 0, sizeof(*r));
	r->n_nodes = g->n_nodes;
	r->n_links = g->n_links;
	r->topo_hash = sluice_graph_hash(g);
	r->shard_count = 1;
	r->pair_path = grow(NULL, 1, sizeof(uint64_t));
	r->path_hop = grow(NULL, 1, sizeof(uint64_t));
	r->pair_path[0] = 0;
	r->path_hop[0] = 0;
}

/*
 * Appends a path over @links; a new pair unless the last one is already
 * (@src, @dst).
 */
static void rs_add(struct sluice_routes *r, uint32_t src, uint32_t dst,
		   uint8_t lane, const uint32_t *links, uint32_t n)
{
	uint64_t p = r->n_pairs;

	if (!p || r->pair_src[p - 1] != src || r->pair_dst[p - 1] != dst) {
		r->pair_src = grow(r->pair_src, p + 1, sizeof(uint32_t));
		r->pair_dst = grow(r->pair_dst, p + 1, sizeof(uint32_t));
		r->pair_path = grow(r->pair_path, p + 2, sizeof(uint64_t));
		r->pair_src[p] = src;
		r->pair_dst[p] = dst;
		r->n_pairs++;
	}
	r->path_hop = grow(r->path_hop, r->n_paths + 2, sizeof(uint64_t));
	r->path_lane = grow(r->path_lane, r->n_paths + 1, sizeof(uint8_t));
	r->hops = grow(r->hops, r->n_hops + n + 1, sizeof(uint32_t));
	memcpy(r->hops + r->n_hops, links, n * sizeof(*links));
	r->path_lane[r->n_paths] = lane;
	r->n_hops += n;
	r->n_paths++;
	r->path_hop[r->n_paths] = r->n_hops;
	r->pair_path[r->n_pairs] = r->n_paths;
}

/* The lowest-numbered link between @u and @v, or UINT32_MAX. */
static uint32_t link_between(const struct sluice_graph *g, uint32_t u,
			     uint32_t v)
{
	uint32_t x;

	for (x = g->off[u]; x < g->off[u + 1]; x++)
		if (g->adj[x].peer == v)
			return g->adj[x].link;
	return UINT32_MAX;
}

/* The @k-th link (0 first) between @u and @v, by id. */
static uint32_t nth_link(const struct sluice_graph *g, uint32_t u, uint32_t v,
			 uint32_t k)
{
	uint32_t x;

	for (x = g->off[u]; x < g->off[u + 1]; x++)
		if (g->adj[x].peer == v && !k--)
			return g->adj[x].link;
	return UINT32_MAX;
}

/* Appends the path walking the nodes @nodes[0..@n). */
static void rs_add_nodes(struct sluice_routes *r, const struct sluice_graph *g,
			 uint8_t lane, const uint32_t *nodes, uint32_t n)
{
	uint32_t links[64], i;

	for (i = 0; i + 1 < n; i++) {
		links[i] = link_between(g, nodes[i], nodes[i + 1]);
		if (links[i] == UINT32_MAX)
			ktap_diag("no link %u-%u", nodes[i], nodes[i + 1]);
	}
	rs_add(r, nodes[0], nodes[n - 1], lane, links, n - 1);
}

/* Appends the path walking letters, "ABC" being A -> B -> C. */
static void rs_add_str(struct sluice_routes *r, const struct sluice_graph *g,
		       uint8_t lane, const char *walk)
{
	uint32_t nodes[64], n = 0;

	for (; *walk; walk++)
		nodes[n++] = *walk - 'A';
	rs_add_nodes(r, g, lane, nodes, n);
}

static void rs_free(struct sluice_routes *r)
{
	free(r->pair_src);
	free(r->pair_dst);
	free(r->pair_path);
	free(r->path_hop);
	free(r->path_lane);
	free(r->hops);
	memset(r, 0, sizeof(*r));
}

/* The pair path @q belongs to. */
static uint64_t pair_of(const struct sluice_routes *r, uint64_t q)
{
	uint64_t p;

	for (p = 0; p < r->n_pairs; p++)
		if (q < r->pair_path[p + 1])
			return p;
	return UINT64_MAX;
}

/* The node link @l leads to from @u, or UINT32_MAX if it does not touch u. */
static uint32_t other(const struct sluice_graph *g, uint32_t l, uint32_t u)
{
	if (g->links[l].a == u)
		return g->links[l].b;
	if (g->links[l].b == u)
		return g->links[l].a;
	return UINT32_MAX;
}

/*
 * Whether path @q crosses @l1 from @from and then, straight after, @l2,
 * on lane @lane, by walking it.
 */
static bool path_makes(const struct sluice_graph *g,
		       const struct sluice_routes *r, uint64_t q,
		       uint32_t from, uint32_t l1, uint32_t l2, uint8_t lane)
{
	uint32_t cur = r->pair_src[pair_of(r, q)], nxt;
	uint64_t h;

	if (r->path_lane[q] != lane)
		return false;
	for (h = r->path_hop[q]; h + 1 < r->path_hop[q + 1]; h++) {
		nxt = other(g, r->hops[h], cur);
		if (cur == from && r->hops[h] == l1 && r->hops[h + 1] == l2)
			return true;
		cur = nxt;
	}
	return false;
}

/*
 * Checks a witness: a closed walk on one lane, no buffer twice, each
 * dependency made by the path it names, the lowest-numbered such path.
 */
static bool check_witness(const struct sluice_graph *g,
			  const struct sluice_routes *r,
			  const struct sluice_cbd_result *res)
{
	uint32_t i, j, n = res->n_cycle;
	uint64_t q;

	if (!KTAP_EXPECT(!res->cbd_free) || !KTAP_EXPECT(n >= 2) ||
	    !KTAP_EXPECT(res->cycle))
		return false;
	for (i = 0; i < n; i++) {
		const struct sluice_cbd_hop *a = &res->cycle[i];
		const struct sluice_cbd_hop *b = &res->cycle[(i + 1) % n];

		if (!KTAP_EXPECT(a->link < g->n_links) ||
		    !KTAP_EXPECT_INT(other(g, a->link, a->from), a->to) ||
		    !KTAP_EXPECT_INT(a->to, b->from) ||
		    !KTAP_EXPECT_INT(a->lane, b->lane) ||
		    !KTAP_EXPECT(a->path < r->n_paths))
			return false;
		for (j = 0; j < i; j++)
			if (!KTAP_EXPECT(res->cycle[j].link != a->link ||
					 res->cycle[j].from != a->from))
				return false;
		if (!KTAP_EXPECT(path_makes(g, r, a->path, a->from, a->link,
					    b->link, a->lane)))
			return false;
		for (q = 0; q < a->path; q++)
			if (!KTAP_EXPECT(!path_makes(g, r, q, a->from, a->link,
						     b->link, a->lane)))
				return false;
	}
	return true;
}

static int check(const struct sluice_graph *g, const struct sluice_routes *r,
		 struct sluice_cbd_result *res)
{
	int ret = sluice_cbd_check(g, r, res, err, sizeof(err));

	if (ret)
		ktap_diag("sluice_cbd_check: %d %s", ret, err);
	return ret;
}

/*
 * Expects a cycle over the directed links @walk (letters, closed: "ABCD"
 * is A->B->C->D->A), starting anywhere, each hop's dependency on the next
 * made by path @paths[i].
 */
static void expect_cycle(const struct sluice_graph *g,
			 const struct sluice_cbd_result *res,
			 const char *walk, const uint64_t *paths)
{
	uint32_t n = strlen(walk), i, k, s = UINT32_MAX;

	if (!KTAP_EXPECT_INT(res->n_cycle, n))
		return;
	for (k = 0; k < n; k++)
		if (res->cycle[k].from == (uint32_t)(walk[0] - 'A'))
			s = k;
	if (!KTAP_EXPECT(s != UINT32_MAX))
		return;
	for (i = 0; i < n; i++) {
		const struct sluice_cbd_hop *h = &res->cycle[(s + i) % n];
		uint32_t u = walk[i] - 'A', v = walk[(i + 1) % n] - 'A';

		KTAP_EXPECT_INT(h->from, u);
		KTAP_EXPECT_INT(h->to, v);
		KTAP_EXPECT_INT(h->link, link_between(g, u, v));
		KTAP_EXPECT_INT(h->path, paths[i]);
	}
}

static void test_fc_fig2(void)
{
	struct sluice_cbd_result res;
	struct sluice_routes r;
	struct sluice_graph g;

	/*
	 * A, B, C, D of Fig. 2 and their ring of links, with E and F for
	 * the rest of the expander.
	 */
	letters_graph(&g, 6, "AB BC CD DA AE BF CE DF EF");
	rs_init(&r, &g);
	rs_add_str(&r, &g, 0, "ABC");	/* path 0 */
	rs_add_str(&r, &g, 0, "BCD");	/* path 1 */
	rs_add_str(&r, &g, 0, "CDA");	/* path 2 */
	rs_add_str(&r, &g, 0, "DAB");	/* path 3 */
	if (!KTAP_EXPECT_INT(check(&g, &r, &res), 0))
		goto out;
	KTAP_EXPECT(!res.cbd_free);
	KTAP_EXPECT_INT(res.link_lanes, 4);
	KTAP_EXPECT_INT(res.dependencies, 4);
	KTAP_EXPECT_INT(res.lanes, 1);
	/* (A,B) waits on (B,C) through path 0, (B,C) on (C,D) through 1 ... */
	expect_cycle(&g, &res, "ABCD", (const uint64_t[]){ 0, 1, 2, 3 });
	check_witness(&g, &r, &res);
	sluice_cbd_result_free(&res);
	KTAP_EXPECT(!res.cycle && !res.n_cycle);

	/* Any three of the four flows cannot deadlock. */
	rs_free(&r);
	rs_init(&r, &g);
	rs_add_str(&r, &g, 0, "ABC");
	rs_add_str(&r, &g, 0, "BCD");
	rs_add_str(&r, &g, 0, "CDA");
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		KTAP_EXPECT(res.cbd_free);
		KTAP_EXPECT_INT(res.n_cycle, 0);
		KTAP_EXPECT(!res.cycle);
		KTAP_EXPECT_INT(res.dependencies, 3);
		sluice_cbd_result_free(&res);
	}

	/* The reverse ring's flows make the reverse cycle, on lane 3. */
	rs_add_str(&r, &g, 3, "CBA");	/* path 3 */
	rs_add_str(&r, &g, 3, "BAD");	/* path 4 */
	rs_add_str(&r, &g, 3, "ADC");	/* path 5 */
	rs_add_str(&r, &g, 3, "DCB");	/* path 6 */
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		KTAP_EXPECT_INT(res.lanes, 2);
		KTAP_EXPECT_INT(res.link_lanes, 8);
		expect_cycle(&g, &res, "DCBA",
			     (const uint64_t[]){ 6, 3, 4, 5 });
		KTAP_EXPECT_INT(res.cycle[0].lane, 3);
		check_witness(&g, &r, &res);
		sluice_cbd_result_free(&res);
	}
out:
	rs_free(&r);
	sluice_graph_free(&g);
	ktap_result("fc fig. 2: the four flows' cycle, each dependency's path");
}

static void test_fc_fig11(void)
{
	struct sluice_cbd_result res, again;
	struct sluice_routes r;
	struct sluice_graph g;
	uint32_t i;

	letters_graph(&g, 3, "AB BC CA");
	rs_init(&r, &g);
	rs_add_str(&r, &g, 0, "ABC");
	rs_add_str(&r, &g, 0, "BCA");
	rs_add_str(&r, &g, 0, "CAB");
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		KTAP_EXPECT(!res.cbd_free);
		KTAP_EXPECT_INT(res.link_lanes, 3);
		KTAP_EXPECT_INT(res.dependencies, 3);
		expect_cycle(&g, &res, "ABC", (const uint64_t[]){ 0, 1, 2 });
		check_witness(&g, &r, &res);
		/* the same input, the same witness */
		if (KTAP_EXPECT_INT(check(&g, &r, &again), 0)) {
			KTAP_EXPECT_INT(again.n_cycle, res.n_cycle);
			for (i = 0; i < res.n_cycle && i < again.n_cycle; i++)
				KTAP_EXPECT(!memcmp(&res.cycle[i],
						    &again.cycle[i],
						    sizeof(res.cycle[i])));
			sluice_cbd_result_free(&again);
		}
		sluice_cbd_result_free(&res);
	}
	/* A second path making a dependency is not a second dependency. */
	rs_add_str(&r, &g, 0, "CABC");	/* path 3: (C,A)->(A,B)->(B,C) */
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		KTAP_EXPECT_INT(res.dependencies, 3);
		expect_cycle(&g, &res, "ABC", (const uint64_t[]){ 0, 1, 2 });
		sluice_cbd_result_free(&res);
	}
	rs_free(&r);
	sluice_graph_free(&g);
	ktap_result("fc fig. 11: A->B->C, B->C->A, C->A->B have a CBD");
}

static void test_lanes(void)
{
	struct sluice_cbd_result res;
	struct sluice_routes r;
	struct sluice_graph g;

	letters_graph(&g, 4, "AB BC CD DA");
	rs_init(&r, &g);
	rs_add_str(&r, &g, 0, "ABC");
	rs_add_str(&r, &g, 0, "BCD");
	rs_add_str(&r, &g, 1, "CDA");
	rs_add_str(&r, &g, 1, "DAB");
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		KTAP_EXPECT(res.cbd_free);
		KTAP_EXPECT_INT(res.lanes, 2);
		/* (A,B) and (C,D) are on both lanes: two buffers each */
		KTAP_EXPECT_INT(res.link_lanes, 6);
		KTAP_EXPECT_INT(res.dependencies, 4);
		sluice_cbd_result_free(&res);
	}
	rs_free(&r);

	/* Fig. 11's cycle over lanes 2 and 7 */
	sluice_graph_free(&g);
	letters_graph(&g, 3, "AB BC CA");
	rs_init(&r, &g);
	rs_add_str(&r, &g, 7, "ABC");
	rs_add_str(&r, &g, 2, "BCA");
	rs_add_str(&r, &g, 2, "CAB");
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		KTAP_EXPECT(res.cbd_free);
		KTAP_EXPECT_INT(res.lanes, 2);
		sluice_cbd_result_free(&res);
	}
	/* ... and all of it again on lane 7: the cycle is on lane 7 */
	rs_add_str(&r, &g, 7, "BCA");
	rs_add_str(&r, &g, 7, "CAB");
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		expect_cycle(&g, &res, "ABC", (const uint64_t[]){ 0, 3, 4 });
		KTAP_EXPECT_INT(res.cycle[0].lane, 7);
		check_witness(&g, &r, &res);
		sluice_cbd_result_free(&res);
	}
	rs_free(&r);
	sluice_graph_free(&g);
	ktap_result("lanes: a cycle split over two lanes is CBD-free");
}

/*
 * The brute force: Definition 3 word for word, buffer (l, dir, lane) as
 * (lane * links + l) * 2 + dir, a distance matrix with the dependencies at
 * 1, then Floyd-Warshall: dist[i][i] is the shortest cycle through i.
 */
#define FAR	0xffff

struct brute {
	bool		cbd;
	uint64_t	used, deps;
	uint32_t	n;
	uint16_t	*girth;	/* shortest cycle through buffer i, or FAR */
};

static uint32_t buffer_id(const struct sluice_graph *g, uint32_t l,
			  uint32_t from, uint8_t lane)
{
	return (lane * g->n_links + l) * 2 + (g->links[l].a != from);
}

static void brute_force(const struct sluice_graph *g,
			const struct sluice_routes *r, struct brute *b)
{
	uint32_t n = 2 * g->n_links * SLUICE_LANES_MAX, i, j, k, cur, prev, id;
	uint16_t *d = malloc((size_t)n * n * sizeof(*d));
	bool *used = calloc(n, sizeof(*used));
	uint64_t p, q, h;

	memset(b, 0, sizeof(*b));
	b->n = n;
	b->girth = malloc(n * sizeof(*b->girth));
	memset(d, 0xff, (size_t)n * n * sizeof(*d));
	for (p = 0; p < r->n_pairs; p++)
		for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
			cur = r->pair_src[p];
			prev = UINT32_MAX;
			for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
				id = buffer_id(g, r->hops[h], cur,
					       r->path_lane[q]);
				used[id] = true;
				if (prev != UINT32_MAX)
					d[(size_t)prev * n + id] = 1;
				prev = id;
				cur = other(g, r->hops[h], cur);
			}
		}
	for (i = 0; i < n; i++) {
		b->used += used[i];
		for (j = 0; j < n; j++)
			b->deps += d[(size_t)i * n + j] == 1;
	}
	for (k = 0; k < n; k++) {
		if (!used[k])
			continue;
		for (i = 0; i < n; i++) {
			uint32_t ik = d[(size_t)i * n + k];

			if (ik == FAR)
				continue;
			for (j = 0; j < n; j++)
				if (ik + d[(size_t)k * n + j] <
				    d[(size_t)i * n + j])
					d[(size_t)i * n + j] =
						ik + d[(size_t)k * n + j];
		}
	}
	for (i = 0; i < n; i++) {
		b->girth[i] = d[(size_t)i * n + i];
		b->cbd |= b->girth[i] != FAR;
	}
	free(d);
	free(used);
}

/* The witness is a shortest cycle through its first buffer. */
static void expect_shortest(const struct sluice_graph *g,
			    const struct brute *b,
			    const struct sluice_cbd_result *res)
{
	const struct sluice_cbd_hop *h = res->cycle;

	if (KTAP_EXPECT(res->n_cycle && h->link < g->n_links))
		KTAP_EXPECT_INT(res->n_cycle,
				b->girth[buffer_id(g, h->link, h->from,
						   h->lane)]);
}

/* Tier of every node on the walk goes up, then down only. */
static bool valley_free(const struct sluice_graph *g, const uint32_t *nodes,
			uint32_t n)
{
	uint32_t i = 1;

	while (i < n && g->nodes[nodes[i]].tier > g->nodes[nodes[i - 1]].tier)
		i++;
	while (i < n && g->nodes[nodes[i]].tier < g->nodes[nodes[i - 1]].tier)
		i++;
	return i == n;
}

/*
 * Appends every shortest path from @u to @dst (@dist: BFS distances to
 * dst), walked so far as @nodes[0..@n), all checked to be up-down.
 */
static void all_shortest(struct sluice_routes *r, const struct sluice_graph *g,
			 const uint32_t *dist, uint32_t *nodes, uint32_t n,
			 uint32_t dst)
{
	uint32_t u = nodes[n - 1], x;

	if (u == dst) {
		KTAP_EXPECT(valley_free(g, nodes, n));
		rs_add_nodes(r, g, 0, nodes, n);
		return;
	}
	for (x = g->off[u]; x < g->off[u + 1]; x++)
		if (dist[g->adj[x].peer] + 1 == dist[u]) {
			nodes[n] = g->adj[x].peer;
			all_shortest(r, g, dist, nodes, n + 1, dst);
		}
}

static void test_updown(void)
{
	struct sluice_cbd_result res;
	struct sluice_routes r;
	struct sluice_graph g;
	struct brute b;
	uint32_t i, j, s, x, links[2], nodes[8], *dist, *queue;
	const uint32_t L = 6, S = 3, P = 2;

	/* leaf -> spine -> leaf, over every spine and parallel link */
	if (!KTAP_EXPECT_INT(sluice_topo_leafspine(&g, L, S, P, 1, err,
						   sizeof(err)), 0))
		return;
	rs_init(&r, &g);
	for (i = 0; i < L; i++)
		for (j = 0; j < L; j++)
			for (s = 0; s < S && i != j; s++)
				for (x = 0; x < P * P; x++) {
					links[0] = nth_link(&g, i, L + s,
							    x / P);
					links[1] = nth_link(&g, j, L + s,
							    x % P);
					rs_add(&r, i, j, 0, links, 2);
				}
	KTAP_EXPECT_INT(r.n_paths, L * (L - 1) * S * P * P);
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		KTAP_EXPECT(res.cbd_free);
		KTAP_EXPECT_INT(res.link_lanes, 2 * g.n_links);
		KTAP_EXPECT_INT(res.dependencies, S * L * (L - 1) * P * P);
		sluice_cbd_result_free(&res);
	}
	/* one leaf -> spine -> leaf -> spine -> leaf bounce: still no cycle */
	nodes[0] = 0;
	nodes[1] = L;
	nodes[2] = 1;
	nodes[3] = L + 1;
	nodes[4] = 2;
	rs_add_nodes(&r, &g, 0, nodes, 5);
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		KTAP_EXPECT(res.cbd_free);
		sluice_cbd_result_free(&res);
	}
	/* and its mirror closes one: leaf1 -> spine1 -> leaf2 -> spine0 */
	nodes[0] = 1;
	nodes[1] = L + 1;
	nodes[2] = 2;
	nodes[3] = L;
	nodes[4] = 0;
	rs_add_nodes(&r, &g, 0, nodes, 5);
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		check_witness(&g, &r, &res);
		sluice_cbd_result_free(&res);
	}
	rs_free(&r);
	sluice_graph_free(&g);

	/* fat-tree k=4: every shortest path between edge switches */
	if (!KTAP_EXPECT_INT(sluice_topo_fattree(&g, 4, err, sizeof(err)), 0))
		return;
	dist = calloc(g.n_nodes, sizeof(*dist));
	queue = calloc(g.n_nodes, sizeof(*queue));
	rs_init(&r, &g);
	for (i = 0; i < g.n_nodes; i++) {
		if (g.nodes[i].tier != 1)
			continue;
		for (j = 0; j < g.n_nodes; j++) {
			if (g.nodes[j].tier != 1 || i == j)
				continue;
			sluice_graph_bfs(&g, j, dist, queue);
			nodes[0] = i;
			all_shortest(&r, &g, dist, nodes, 1, j);
		}
	}
	/* 8 edges: 8 same-pod pairs of 2 paths, 48 others of 4 */
	KTAP_EXPECT_INT(r.n_pairs, 56);
	KTAP_EXPECT_INT(r.n_paths, 8 * 2 + 48 * 4);
	brute_force(&g, &r, &b);
	KTAP_EXPECT(!b.cbd);
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		KTAP_EXPECT(res.cbd_free);
		KTAP_EXPECT_INT(res.link_lanes, 2 * g.n_links);
		KTAP_EXPECT_INT(res.dependencies, b.deps);
		sluice_cbd_result_free(&res);
	}
	free(b.girth);
	free(dist);
	free(queue);
	rs_free(&r);
	sluice_graph_free(&g);
	ktap_result("up-down: leaf-spine and fat-tree k=4 are CBD-free");
}

/* A random multigraph of 2 to 7 nodes, some isolated, parallel links. */
static void random_graph(struct sluice_graph *g, struct sluice_rng *rng)
{
	uint32_t n = 2 + sluice_rng_below(rng, 6), m, i, a, b;
	char nm[16];
	int ret;

	ret = sluice_graph_init(g, n, err, sizeof(err));
	for (i = 0; i < n && !ret; i++) {
		snprintf(nm, sizeof(nm), "n%u", i);
		ret = sluice_graph_set_node(g, i, nm, SLUICE_NODE_SWITCH, 1, 0,
					    err, sizeof(err));
	}
	m = 1 + sluice_rng_below(rng, 2 * n);
	for (i = 0; i < m && !ret; i++) {
		a = sluice_rng_below(rng, n);
		b = (a + 1 + sluice_rng_below(rng, n - 1)) % n;
		ret = sluice_graph_add_link(g, a, b, 0, 0, err, sizeof(err));
		ret = ret < 0 ? ret : 0;
	}
	if (!ret)
		ret = sluice_graph_finalize(g, err, sizeof(err));
	if (ret)
		ktap_diag("random_graph: %s", err);
}

/* Random walks, U-turns and repeats allowed, on random lanes. */
static void random_paths(struct sluice_routes *r, const struct sluice_graph *g,
			 struct sluice_rng *rng, uint32_t lanes)
{
	static const uint8_t lane_set[] = { 0, 5, 1, 7 };
	uint32_t n = 1 + sluice_rng_below(rng, 7), i, len, k, cur, start, x;
	uint32_t links[8];

	for (i = 0; i < n; i++) {
		do
			start = sluice_rng_below(rng, g->n_nodes);
		while (!sluice_graph_degree(g, start));
		cur = start;
		len = 1 + sluice_rng_below(rng, 5);
		for (k = 0; k < len; k++) {
			x = g->off[cur] + sluice_rng_below(rng,
					sluice_graph_degree(g, cur));
			links[k] = g->adj[x].link;
			cur = g->adj[x].peer;
		}
		rs_add(r, start, cur, lane_set[sluice_rng_below(rng, lanes)],
		       links, len);
	}
}

static void test_brute_force(void)
{
	uint32_t trial, cbd = 0, free_ = 0, lanes;
	struct sluice_cbd_result res;
	struct sluice_routes r;
	struct sluice_graph g;
	struct sluice_rng rng;
	struct brute b;

	sluice_rng_seed(&rng, 20230417);
	for (trial = 0; trial < 4000; trial++) {
		random_graph(&g, &rng);
		rs_init(&r, &g);
		lanes = trial % 3 ? 1 : 1 + sluice_rng_below(&rng, 4);
		random_paths(&r, &g, &rng, lanes);
		brute_force(&g, &r, &b);
		if (!KTAP_EXPECT_INT(check(&g, &r, &res), 0))
			goto next;
		if (!KTAP_EXPECT_INT(res.cbd_free, !b.cbd) ||
		    !KTAP_EXPECT_INT(res.link_lanes, b.used) ||
		    !KTAP_EXPECT_INT(res.dependencies, b.deps)) {
			ktap_diag("trial %u", trial);
			sluice_cbd_result_free(&res);
			goto next;
		}
		if (res.cbd_free) {
			free_++;
			KTAP_EXPECT(!res.cycle && !res.n_cycle);
		} else {
			cbd++;
			if (!check_witness(&g, &r, &res))
				ktap_diag("trial %u", trial);
			expect_shortest(&g, &b, &res);
		}
		sluice_cbd_result_free(&res);
next:
		free(b.girth);
		rs_free(&r);
		sluice_graph_free(&g);
	}
	ktap_diag("%u sets with a CBD, %u without", cbd, free_);
	KTAP_EXPECT(cbd > 1000);
	KTAP_EXPECT(free_ > 1000);
	ktap_result("brute force: 4000 random path sets agree, witnesses real and shortest");
}

/* The neighbour of @u closer to where @dist counts from, the last one. */
static uint32_t last_closer(const struct sluice_graph *g, const uint32_t *dist,
			    uint32_t u)
{
	uint32_t x, v = UINT32_MAX;

	for (x = g->off[u]; x < g->off[u + 1]; x++)
		if (dist[g->adj[x].peer] + 1 == dist[u])
			v = g->adj[x].peer;
	return v;
}

/* One shortest path per pair on small jellyfish, against the brute force. */
static void test_jellyfish_shortest(void)
{
	uint32_t seed, s, d, *dist, *queue, nodes[32], n, cbd = 0;
	int ret;
	struct sluice_cbd_result res;
	struct sluice_routes r;
	struct sluice_graph g;
	struct brute b;

	for (seed = 0; seed < 6; seed++) {
		ret = sluice_topo_jellyfish(&g, 12, 3, 1, seed, err,
					    sizeof(err));
		if (!KTAP_EXPECT_INT(ret, 0))
			continue;
		dist = calloc(g.n_nodes, sizeof(*dist));
		queue = calloc(g.n_nodes, sizeof(*queue));
		rs_init(&r, &g);
		for (s = 0; s < g.n_nodes; s++)
			for (d = 0; d < g.n_nodes; d++) {
				if (s == d)
					continue;
				sluice_graph_bfs(&g, d, dist, queue);
				nodes[0] = s;
				for (n = 1; nodes[n - 1] != d; n++)
					nodes[n] = last_closer(&g, dist,
							       nodes[n - 1]);
				rs_add_nodes(&r, &g, 0, nodes, n);
			}
		brute_force(&g, &r, &b);
		if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
			KTAP_EXPECT_INT(res.cbd_free, !b.cbd);
			KTAP_EXPECT_INT(res.dependencies, b.deps);
			if (!res.cbd_free) {
				cbd++;
				check_witness(&g, &r, &res);
				expect_shortest(&g, &b, &res);
			}
			sluice_cbd_result_free(&res);
		}
		free(b.girth);
		free(dist);
		free(queue);
		rs_free(&r);
		sluice_graph_free(&g);
	}
	ktap_diag("%u of 6 with a CBD", cbd);
	/* Section 2.2.1.1: shortest paths on expanders nearly always do */
	KTAP_EXPECT(cbd >= 4);
	ktap_result("jellyfish shortest paths: CBDs, as FC section 2.2.1.1 finds");
}

/*
 * A random up*_/down* walk from @s to @d (@dist: BFS distances from a root,
 * up being towards lower (distance, id)): up from s to the root, then down
 * the reverse of an up walk from d.
 */
static uint32_t updown_walk(const struct sluice_graph *g, const uint32_t *dist,
			    struct sluice_rng *rng, uint32_t s, uint32_t d,
			    uint32_t *links)
{
	uint32_t n = 0, m, i, u, x, k, c, half[2][32];
	uint32_t ends[2] = { s, d }, len[2];

	for (i = 0; i < 2; i++) {
		u = ends[i];
		for (m = 0; dist[u]; m++) {
			c = 0;
			for (x = g->off[u]; x < g->off[u + 1]; x++)
				c += dist[g->adj[x].peer] + 1 == dist[u];
			k = sluice_rng_below(rng, c);
			for (x = g->off[u]; ; x++)
				if (dist[g->adj[x].peer] + 1 == dist[u] && !k--)
					break;
			half[i][m] = g->adj[x].link;
			u = g->adj[x].peer;
		}
		len[i] = m;
	}
	for (i = 0; i < len[0]; i++)
		links[n++] = half[0][i];
	for (i = len[1]; i-- > 0;)
		links[n++] = half[1][i];
	return n;
}

/*
 * Random up*_/down* paths on small jellyfish (Theorem 8: CBD-free), then
 * with a few random walks added, against the brute force.
 */
static void test_random_updown(void)
{
	uint32_t seed, i, k, s, d, n, *dist, *queue, links[64], cbd = 0;
	int ret;
	struct sluice_cbd_result res;
	struct sluice_routes r;
	struct sluice_graph g;
	struct sluice_rng rng;
	struct brute b;

	for (seed = 0; seed < 40; seed++) {
		ret = sluice_topo_jellyfish(&g, 16, 4, 1, seed, err,
					    sizeof(err));
		if (!KTAP_EXPECT_INT(ret, 0))
			continue;
		sluice_rng_seed(&rng, seed);
		dist = calloc(g.n_nodes, sizeof(*dist));
		queue = calloc(g.n_nodes, sizeof(*queue));
		sluice_graph_bfs(&g, 0, dist, queue);
		rs_init(&r, &g);
		for (i = 0; i < 60; i++) {
			s = sluice_rng_below(&rng, g.n_nodes);
			d = (s + 1 + sluice_rng_below(&rng, g.n_nodes - 1)) %
			    g.n_nodes;
			n = updown_walk(&g, dist, &rng, s, d, links);
			rs_add(&r, s, d, sluice_rng_below(&rng, 2), links, n);
		}
		brute_force(&g, &r, &b);
		KTAP_EXPECT(!b.cbd);
		if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
			KTAP_EXPECT(res.cbd_free);
			KTAP_EXPECT_INT(res.link_lanes, b.used);
			KTAP_EXPECT_INT(res.dependencies, b.deps);
			sluice_cbd_result_free(&res);
		}
		free(b.girth);
		/* a few shortcuts that ignore the orientation */
		for (i = 0; i < 3; i++) {
			s = sluice_rng_below(&rng, g.n_nodes);
			d = s;
			for (k = 0; k < 3; k++) {
				n = g.off[d] + sluice_rng_below(&rng, 4);
				links[k] = g.adj[n].link;
				d = g.adj[n].peer;
			}
			rs_add(&r, s, d, 0, links, 3);
		}
		brute_force(&g, &r, &b);
		if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
			KTAP_EXPECT_INT(res.cbd_free, !b.cbd);
			KTAP_EXPECT_INT(res.dependencies, b.deps);
			if (!res.cbd_free) {
				cbd++;
				check_witness(&g, &r, &res);
				expect_shortest(&g, &b, &res);
			}
			sluice_cbd_result_free(&res);
		}
		free(b.girth);
		free(dist);
		free(queue);
		rs_free(&r);
		sluice_graph_free(&g);
	}
	ktap_diag("%u of 40 with a CBD once the shortcuts are in", cbd);
	KTAP_EXPECT(cbd >= 5 && cbd <= 35);
	ktap_result("random up*_/down* paths are CBD-free, shortcuts agree");
}

/*
 * Runs @ops for every endpoint as a source, one worker, appending the
 * paths to @r (a pair without paths is left out).  Returns the ops' error.
 */
static int run_algo(const struct sluice_algo_ops *ops,
		    const struct sluice_graph *g,
		    const struct sluice_route_opts *o, struct sluice_routes *r)
{
	uint32_t *ep = calloc(g->n_nodes, sizeof(*ep));
	uint32_t *dsts = calloc(g->n_nodes, sizeof(*dsts));
	struct sluice_path_buf buf = { 0 };
	uint32_t n_ep, i, j, nd;
	void *ctx = NULL, *w = NULL;
	uint64_t p, q;
	int ret;

	rs_init(r, g);
	n_ep = sluice_graph_endpoints(g, ep);
	ret = ops->prepare(g, o, &ctx, err, sizeof(err));
	if (!ret)
		ret = ops->worker_init(ctx, &w);
	for (i = 0; i < n_ep && !ret; i++) {
		for (j = 0, nd = 0; j < n_ep; j++)
			if (j != i)
				dsts[nd++] = ep[j];
		sluice_path_buf_reset(&buf, ep[i]);
		ret = ops->source(ctx, w, dsts, nd, &buf, err, sizeof(err));
		for (p = 0; p < buf.n_pairs && !ret; p++) {
			uint64_t end = p + 1 < buf.n_pairs ?
				       buf.pair_path[p + 1] : buf.n_paths;

			for (q = buf.pair_path[p]; q < end; q++)
				rs_add(r, ep[i], buf.pair_dst[p],
				       buf.path_lane[q],
				       buf.hops + buf.path_hop[q],
				       (q + 1 < buf.n_paths ?
					buf.path_hop[q + 1] : buf.n_hops) -
				       buf.path_hop[q]);
		}
	}
	if (w)
		ops->worker_free(w);
	if (ctx)
		ops->release(ctx);
	sluice_path_buf_free(&buf);
	free(ep);
	free(dsts);
	return ret;
}

/*
 * Checks @r against the brute force, and against @want_free unless it is
 * -1; names the set as @what on a failure.  Returns whether it has a CBD.
 */
static bool against_brute(const struct sluice_graph *g,
			  const struct sluice_routes *r, int want_free,
			  const char *what)
{
	struct sluice_cbd_result res;
	struct brute b;
	bool cbd = false;

	brute_force(g, r, &b);
	if (KTAP_EXPECT_INT(check(g, r, &res), 0)) {
		if (!KTAP_EXPECT_INT(res.cbd_free, !b.cbd) ||
		    (want_free >= 0 &&
		     !KTAP_EXPECT_INT(res.cbd_free, want_free)) ||
		    !KTAP_EXPECT_INT(res.link_lanes, b.used) ||
		    !KTAP_EXPECT_INT(res.dependencies, b.deps))
			ktap_diag("%s", what);
		if (!res.cbd_free) {
			cbd = true;
			check_witness(g, r, &res);
			expect_shortest(g, &b, &res);
		}
		sluice_cbd_result_free(&res);
	}
	free(b.girth);
	return cbd;
}

/*
 * The library's own algorithms, driven through their ops: what theory says
 * where it says something - FC's virtual up-down routing (Lemma 4 and
 * Theorem 8), up*_/down* (Theorem 8) and edge-disjoint
 * spanning trees (a tree's paths never turn back, and trees share no link)
 * are CBD-free, and so are shortest paths on a fat-tree, which are up-down;
 * shortest paths on expanders (FC section 2.2.1) and BCube's source routes
 * (PortFC's motivation) are not - and agreement with the brute force
 * everywhere.
 */
static void test_algorithms(void)
{
	static const struct {
		const char	*topo;
		const struct sluice_algo_ops *ops;
		enum sluice_route_algo algo;
		uint32_t	lanes, paths;
		int		want_free;	/* 1, 0, or -1: unknown */
	} cases[] = {
		{ "jellyfish", &sluice_algo_updown, SLUICE_ROUTE_UPDOWN,
		  0, 0, 1 },
		{ "jellyfish", &sluice_algo_edst, SLUICE_ROUTE_EDST, 1, 0, 1 },
		{ "jellyfish", &sluice_algo_edst, SLUICE_ROUTE_EDST_SHALLOW,
		  2, 0, 1 },
		{ "jellyfish", &sluice_algo_ecmp, SLUICE_ROUTE_ECMP, 0, 0, 0 },
		{ "jellyfish", &sluice_algo_ksp, SLUICE_ROUTE_KSP, 0, 4, -1 },
		{ "fattree", &sluice_algo_ecmp, SLUICE_ROUTE_ECMP, 0, 0, 1 },
		{ "fattree", &sluice_algo_updown, SLUICE_ROUTE_UPDOWN,
		  0, 0, 1 },
		{ "fattree", &sluice_algo_ksp, SLUICE_ROUTE_KSP, 0, 8, -1 },
		{ "bcube", &sluice_algo_bcube, SLUICE_ROUTE_BCUBE, 0, 0, 0 },
		{ "fc", &sluice_algo_fc, SLUICE_ROUTE_FC, 0, 0, 1 },
		{ "fc", &sluice_algo_ecmp, SLUICE_ROUTE_ECMP, 0, 0, -1 },
	};
	struct sluice_fc_params fc = {
		.switches = 16, .inter_ports = 6, .host_ports = 1, .layers = 3,
	};
	struct sluice_route_opts o;
	struct sluice_routes r;
	struct sluice_graph g;
	uint32_t seed, i, cbd = 0, sets = 0;
	char what[64];
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		/* the seed makes the jellyfish and edst's tree sets */
		for (seed = 0; seed < (strcmp(cases[i].topo, "jellyfish") &&
					strcmp(cases[i].topo, "fc") ? 1 : 4);
		     seed++) {
			sets++;
			if (!strcmp(cases[i].topo, "jellyfish"))
				ret = sluice_topo_jellyfish(&g, 12, 3, 1, seed,
							    err, sizeof(err));
			else if (!strcmp(cases[i].topo, "fc")) {
				fc.seed = seed + 1;
				ret = sluice_topo_fc(&g, &fc, err, sizeof(err));
			} else if (!strcmp(cases[i].topo, "fattree"))
				ret = sluice_topo_fattree(&g, 4, err,
							  sizeof(err));
			else
				ret = sluice_topo_bcube(&g, 4, 1, err,
							sizeof(err));
			if (!KTAP_EXPECT_INT(ret, 0))
				continue;
			memset(&o, 0, sizeof(o));
			o.algo = cases[i].algo;
			o.lanes = cases[i].lanes;
			o.paths = cases[i].paths;
			o.seed = seed;
			ret = run_algo(cases[i].ops, &g, &o, &r);
			if (!KTAP_EXPECT_INT(ret, 0)) {
				ktap_diag("%s %s: %s", cases[i].topo,
					  sluice_route_algo_name(o.algo), err);
				rs_free(&r);
				sluice_graph_free(&g);
				continue;
			}
			snprintf(what, sizeof(what), "%s %s seed %u",
				 cases[i].topo, sluice_route_algo_name(o.algo),
				 seed);
			cbd += against_brute(&g, &r, cases[i].want_free, what);
			rs_free(&r);
			sluice_graph_free(&g);
		}
	ktap_diag("%u of %u sets with a CBD", cbd, sets);
	KTAP_EXPECT_INT(sets, 32);
	ktap_result("algorithms: updown, edst, fc free, ecmp on expanders and bcube not");
}

static void expect_error(const struct sluice_graph *g,
			 const struct sluice_routes *r, const char *want)
{
	struct sluice_cbd_result res;

	memset(&res, 0x5a, sizeof(res));
	KTAP_EXPECT_INT(sluice_cbd_check(g, r, &res, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, want);
	KTAP_EXPECT(!res.cycle && !res.n_cycle);
}

static void test_errors(void)
{
	char want[SLUICE_ERRLEN];
	struct sluice_cbd_result res;
	struct sluice_routes r;
	struct sluice_graph g;
	const uint32_t broken[] = { 0, 2 };	/* A -AB-> B, then C-D */

	letters_graph(&g, 4, "AB BC CD DA BD");
	rs_init(&r, &g);
	rs_add_str(&r, &g, 0, "ABC");		/* pair 0, path 0, hops 0-1 */
	rs_add_str(&r, &g, 0, "ABCD");		/* pair 1, path 1, hops 2-4 */
	rs_add(&r, 0, 3, 0, broken, 2);		/* pair 1, path 2, hops 5-6 */
	rs_add_str(&r, &g, 0, "BCD");		/* pair 2, path 3, hops 7-8 */
	expect_error(&g, &r,
		     "pair 1 (A to D), path 2, hop 1: link 2 (C-D) does not leave B");
	r.hops[6] = 5;
	expect_error(&g, &r,
		     "pair 1 (A to D), path 2, hop 1: link 5 is out of range (the topology has 5 links)");
	r.hops[6] = 1;
	expect_error(&g, &r, "pair 1 (A to D), path 2: ends at C");
	r.hops[6] = 0;				/* a U-turn back to A */
	expect_error(&g, &r, "pair 1 (A to D), path 2: ends at A");
	r.hops[6] = 4;				/* A -> B -> D: valid */
	r.path_lane[2] = SLUICE_LANES_MAX;
	expect_error(&g, &r, "pair 1 (A to D), path 2: lane 8 is not below 8");
	r.path_lane[2] = 0;
	r.path_hop[3] = 10;
	expect_error(&g, &r,
		     "pair 1 (A to D), path 2: hops 5 to 10 are out of range (the set has 9 hops)");
	r.path_hop[3] = 4;
	expect_error(&g, &r,
		     "pair 1 (A to D), path 2: hops 5 to 4 are out of range (the set has 9 hops)");
	r.path_hop[3] = 7;
	r.pair_path[2] = 5;
	expect_error(&g, &r,
		     "pair 1 (A to D): paths 1 to 5 are out of range (the set has 4 paths)");
	r.pair_path[2] = 3;
	r.pair_dst[0] = 9;
	expect_error(&g, &r,
		     "pair 0: node 9 is out of range (the topology has 4 nodes)");
	r.pair_dst[0] = 2;
	r.n_links = 4;
	expect_error(&g, &r,
		     "the routes are for 4 nodes and 4 links, the topology has 4 and 5");
	r.n_links = 5;
	r.topo_hash ^= 1;
	snprintf(want, sizeof(want),
		 "the routes are for another topology (hash %016llx, this one %016llx)",
		 (unsigned long long)r.topo_hash,
		 (unsigned long long)sluice_graph_hash(&g));
	expect_error(&g, &r, want);
	r.topo_hash ^= 1;
	/* back to a valid set: the errors were the changes' */
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		KTAP_EXPECT(res.cbd_free);
		KTAP_EXPECT_INT(res.dependencies, 3);
		sluice_cbd_result_free(&res);
	}
	g.finalized = false;
	expect_error(&g, &r, "the topology is not finalized");
	g.finalized = true;
	rs_free(&r);
	/* nothing to check: CBD-free */
	rs_init(&r, &g);
	if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
		KTAP_EXPECT(res.cbd_free);
		KTAP_EXPECT_INT(res.lanes, 0);
		KTAP_EXPECT_INT(res.link_lanes, 0);
		sluice_cbd_result_free(&res);
	}
	rs_free(&r);
	sluice_graph_free(&g);
	ktap_result("errors: broken walks, ranges and lanes name pair and path");
}

/* A ring's clockwise two-hop paths: every ring is one big cycle. */
static void test_ring(void)
{
	struct sluice_cbd_result res;
	struct sluice_routes r;
	struct sluice_graph g;
	uint32_t n, i, nodes[3];

	for (n = 3; n <= 40; n += 37) {
		if (!KTAP_EXPECT_INT(sluice_topo_ring(&g, n, 1, err,
						      sizeof(err)), 0))
			continue;
		rs_init(&r, &g);
		for (i = 0; i < n; i++) {
			nodes[0] = i;
			nodes[1] = (i + 1) % n;
			nodes[2] = (i + 2) % n;
			rs_add_nodes(&r, &g, 0, nodes, 3);
		}
		if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
			KTAP_EXPECT_INT(res.n_cycle, n);
			check_witness(&g, &r, &res);
			sluice_cbd_result_free(&res);
		}
		/* drop one path: the dependency chain no longer closes */
		r.n_paths--;
		r.n_pairs--;
		r.n_hops -= 2;
		if (KTAP_EXPECT_INT(check(&g, &r, &res), 0)) {
			KTAP_EXPECT(res.cbd_free);
			KTAP_EXPECT_INT(res.dependencies, n - 1);
			sluice_cbd_result_free(&res);
		}
		rs_free(&r);
		sluice_graph_free(&g);
	}
	ktap_result("ring: the clockwise paths' cycle has every link");
}

static void (*const tests[])(void) = {
	test_fc_fig2,
	test_fc_fig11,
	test_lanes,
	test_updown,
	test_ring,
	test_brute_force,
	test_jellyfish_shortest,
	test_random_updown,
	test_algorithms,
	test_errors,
};

int main(void)
{
	size_t i;

	ktap_plan(ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
