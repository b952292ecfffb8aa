// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Throughput (sluice/flow.h): traffic matrices against their definitions,
 * the matching against brute force over all permutations, theta on fabrics
 * where it is known by hand, theta of single-path routes against the
 * obvious 1 / (most loaded link direction), the LP against the
 * approximation on many random small fabrics (within epsilon, and never
 * above the simple bounds), the Clos baseline, and every error; then the
 * permutation traffic and the max-min model: progressive filling against
 * a naive filling and the definition on random instances, whole runs
 * against the naive filling where paths are fixed, and by hand.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/flow.h>
#include <sluice/graph.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "ktap.h"

static char err[SLUICE_ERRLEN];

/* A graph or route set the test builds failed: a bug in the test. */
static void die(void)
{
	ktap_diag("cannot build a test input: %s", err);
	fflush(stdout);
	abort();
}

/* n switches with @hosts each, and the links a[i]-b[i]. */
static void make_graph(struct sluice_graph *g, uint32_t n,
		       const uint32_t *hosts, const uint32_t *a,
		       const uint32_t *b, uint32_t m)
{
	char name[SLUICE_NAME_MAX];
	uint32_t i;

	if (sluice_graph_init(g, n, err, sizeof(err)))
		die();
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "s%u", i);
		if (sluice_graph_set_node(g, i, name, SLUICE_NODE_SWITCH,
					  hosts ? hosts[i] : 1, 0, err,
					  sizeof(err)))
			die();
	}
	for (i = 0; i < m; i++)
		if (sluice_graph_add_link(g, a[i], b[i], 0, 0, err,
					  sizeof(err)) < 0)
			die();
	if (sluice_graph_finalize(g, err, sizeof(err)))
		die();
}

static void routes(const struct sluice_graph *g, enum sluice_route_algo algo,
		   uint32_t paths, struct sluice_routes *r)
{
	struct sluice_route_opts o = { .algo = algo, .paths = paths };
	struct sluice_compute_opts c = { .threads = 1 };

	if (sluice_routes_compute(g, &o, &c, r, err, sizeof(err)))
		die();
}

static void traffic(const struct sluice_graph *g, const char *spec,
		    uint64_t seed, struct sluice_traffic *t)
{
	struct sluice_traffic_spec s;

	if (sluice_traffic_parse(spec, &s, err, sizeof(err)))
		die();
	s.seed = seed;
	if (sluice_traffic_make(g, &s, t, err, sizeof(err)))
		die();
}

static int theta(const struct sluice_graph *g, const struct sluice_routes *r,
		 const struct sluice_traffic *t, enum sluice_flow_method m,
		 double eps, struct sluice_flow_result *res)
{
	struct sluice_flow_opts o = { .method = m, .epsilon = eps };

	err[0] = '\0';
	return sluice_flow_theta(g, r, t, &o, res, err, sizeof(err));
}

static bool near(double x, double want, double rel)
{
	return fabs(x - want) <= rel * fabs(want) + 1e-12;
}

#define EXPECT_NEAR(x, want, rel) do {					\
	double x_ = (x), w_ = (want);					\
	if (!KTAP_EXPECT(near(x_, w_, rel)))				\
		ktap_diag("  %s = %.9f, want %.9f", #x, x_, w_);	\
} while (0)

/* ---- traffic matrices ---- */

static void test_parse(void)
{
	static const char *const bad[] = {
		"", "all", "uniform", "uniform:", "uniform:0", "uniform:x",
		"uniform:-1", "uniform:5x", "uniform:5%%", "uniform:101%",
		"uniform:0%", "uniform: 5", "worst:3", "uniform:99999999999",
	};
	struct sluice_traffic_spec s;
	size_t i;

	KTAP_EXPECT_INT(sluice_traffic_parse("all2all", &s, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(s.kind, SLUICE_TRAFFIC_ALL2ALL);
	KTAP_EXPECT_INT(sluice_traffic_parse("worst", &s, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(s.kind, SLUICE_TRAFFIC_WORST);
	KTAP_EXPECT_INT(sluice_traffic_parse("uniform:5", &s, err, sizeof(err)), 0);
	KTAP_EXPECT(s.kind == SLUICE_TRAFFIC_UNIFORM && s.count == 5 &&
		    !s.percent);
	KTAP_EXPECT_INT(sluice_traffic_parse("uniform:10%", &s, err, sizeof(err)), 0);
	KTAP_EXPECT(s.kind == SLUICE_TRAFFIC_UNIFORM && s.count == 10 &&
		    s.percent);
	KTAP_EXPECT_INT(sluice_traffic_parse("uniform:100%", &s, err, sizeof(err)), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		KTAP_EXPECT_INT(sluice_traffic_parse(bad[i], &s, err,
						     sizeof(err)), -EINVAL);
		if (!KTAP_EXPECT(strstr(err, "traffic \"")))
			ktap_diag("  \"%s\": %s", bad[i], err);
	}
	KTAP_EXPECT_INT(sluice_flow_method_parse("auto"), SLUICE_FLOW_AUTO);
	KTAP_EXPECT_INT(sluice_flow_method_parse("lp"), SLUICE_FLOW_LP);
	KTAP_EXPECT_INT(sluice_flow_method_parse("fptas"), SLUICE_FLOW_FPTAS);
	KTAP_EXPECT_INT(sluice_flow_method_parse("simplex"), -EINVAL);
	KTAP_EXPECT_STR(sluice_flow_method_name(SLUICE_FLOW_FPTAS), "fptas");
	KTAP_EXPECT_STR(sluice_flow_method_name(9), "?");
	ktap_result("traffic and method names: parsed, bad ones named");
}

/*
 * s0 (2 servers) - s1 (transit) - s2 (3) - s3 (1): 6 servers, so u sends
 * w(u) w(v) / 5 to v; the transit switch is no endpoint.
 */
static void test_all2all(void)
{
	static const uint32_t hosts[] = { 2, 0, 3, 1 };
	static const uint32_t a[] = { 0, 1, 2 }, b[] = { 1, 2, 3 };
	static const uint32_t want_src[] = { 0, 0, 2, 2, 3, 3 };
	static const uint32_t want_dst[] = { 2, 3, 0, 3, 0, 2 };
	static const double want_d[] = { 1.2, 0.4, 1.2, 0.6, 0.4, 0.6 };
	struct sluice_traffic t;
	struct sluice_graph g;
	uint64_t i;

	make_graph(&g, 4, hosts, a, b, 3);
	traffic(&g, "all2all", 0, &t);
	if (KTAP_EXPECT_INT(t.n_dem, 6))
		for (i = 0; i < 6; i++) {
			KTAP_EXPECT_INT(t.src[i], want_src[i]);
			KTAP_EXPECT_INT(t.dst[i], want_dst[i]);
			EXPECT_NEAR(t.demand[i], want_d[i], 1e-12);
		}
	/* (W^2 - sum w^2) / (W - 1): what leaves the switches */
	EXPECT_NEAR(t.total, (36.0 - 14.0) / 5, 1e-12);
	KTAP_EXPECT_INT(sluice_traffic_servers(&g, 1), 0);
	KTAP_EXPECT_INT(sluice_traffic_servers(&g, 2), 3);
	sluice_traffic_free(&t);
	sluice_graph_free(&g);

	/* a bare ring: every node an endpoint with one server */
	if (sluice_topo_ring(&g, 5, 0, err, sizeof(err)))
		die();
	traffic(&g, "all2all", 0, &t);
	KTAP_EXPECT_INT(t.n_dem, 20);
	EXPECT_NEAR(t.demand[7], 0.25, 1e-12);
	KTAP_EXPECT_INT(sluice_traffic_servers(&g, 3), 1);
	sluice_traffic_free(&t);
	sluice_graph_free(&g);

	/* BCube(2,1): the 4 servers are the endpoints, one server each */
	if (sluice_topo_bcube(&g, 2, 1, err, sizeof(err)))
		die();
	traffic(&g, "all2all", 0, &t);
	KTAP_EXPECT_INT(t.n_dem, 12);
	EXPECT_NEAR(t.demand[0], 1.0 / 3, 1e-12);
	for (i = 0; i < t.n_dem; i++)
		KTAP_EXPECT(g.nodes[t.src[i]].kind == SLUICE_NODE_SERVER &&
			    g.nodes[t.dst[i]].kind == SLUICE_NODE_SERVER);
	sluice_traffic_free(&t);
	sluice_graph_free(&g);
	ktap_result("all2all: w(u) w(v) / (H - 1) between endpoints");
}

static bool same_traffic(const struct sluice_traffic *x,
			 const struct sluice_traffic *y)
{
	return x->n_dem == y->n_dem &&
	       !memcmp(x->src, y->src, x->n_dem * sizeof(*x->src)) &&
	       !memcmp(x->dst, y->dst, x->n_dem * sizeof(*x->dst)) &&
	       !memcmp(x->demand, y->demand, x->n_dem * sizeof(*x->demand));
}

static void test_uniform(void)
{
	struct sluice_traffic t, t2;
	struct sluice_traffic_spec s;
	struct sluice_graph g;
	uint32_t u, picks, hits[20] = { 0 };
	uint64_t i;
	double out;
	bool ok = true;

	if (sluice_topo_jellyfish(&g, 20, 4, 3, 1, err, sizeof(err)))
		die();
	traffic(&g, "uniform:4", 7, &t);
	KTAP_EXPECT_INT(t.picks, 4);
	KTAP_EXPECT_INT(t.n_dem, 80);
	for (u = 0, i = 0; u < 20; u++) {
		for (picks = 0, out = 0; i < t.n_dem && t.src[i] == u; i++) {
			ok &= t.dst[i] != u;
			ok &= !picks || t.dst[i] > t.dst[i - 1];
			EXPECT_NEAR(t.demand[i], 0.75, 1e-12);
			out += t.demand[i];
			hits[t.dst[i]]++;
			picks++;
		}
		ok &= picks == 4 && near(out, 3, 1e-12);
	}
	KTAP_EXPECT(ok);
	EXPECT_NEAR(t.total, 60, 1e-12);
	/* the seed alone decides */
	traffic(&g, "uniform:4", 7, &t2);
	KTAP_EXPECT(same_traffic(&t, &t2));
	sluice_traffic_free(&t2);
	traffic(&g, "uniform:4", 8, &t2);
	KTAP_EXPECT(!same_traffic(&t, &t2));
	sluice_traffic_free(&t2);
	sluice_traffic_free(&t);
	/* 10% of 19 others rounds to 2; 100% is everyone */
	traffic(&g, "uniform:10%", 1, &t);
	KTAP_EXPECT_INT(t.picks, 2);
	KTAP_EXPECT_INT(t.n_dem, 40);
	sluice_traffic_free(&t);
	traffic(&g, "uniform:100%", 1, &t);
	KTAP_EXPECT_INT(t.n_dem, 380);
	sluice_traffic_free(&t);
	traffic(&g, "uniform:1%", 1, &t);
	KTAP_EXPECT_INT(t.picks, 1);
	sluice_traffic_free(&t);
	/* more picks than others */
	if (sluice_traffic_parse("uniform:20", &s, err, sizeof(err)))
		die();
	KTAP_EXPECT_INT(sluice_traffic_make(&g, &s, &t, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "traffic uniform:20: each endpoint can pick 1 to 19 others");
	KTAP_EXPECT(!t.src && !t.n_dem);
	sluice_graph_free(&g);
	ktap_result("uniform: P distinct others each, w(u) spread, seeded");
}

/* ---- the matching ---- */

struct brute {
	uint32_t	n;
	const int64_t	*w;
	uint32_t	perm[8];
	bool		used[8];
	int64_t		best;
	bool		derange;	/* never row i to column i */
};

static void brute_rec(struct brute *b, uint32_t i, int64_t sum)
{
	uint32_t j;

	if (i == b->n) {
		if (sum > b->best)
			b->best = sum;
		return;
	}
	for (j = 0; j < b->n; j++) {
		if (b->used[j] || (b->derange && i == j))
			continue;
		b->used[j] = true;
		brute_rec(b, i + 1, sum + b->w[i * b->n + j]);
		b->used[j] = false;
	}
}

static int64_t brute_max(uint32_t n, const int64_t *w, bool derange)
{
	struct brute b = { .n = n, .w = w, .best = INT64_MIN,
			   .derange = derange };

	brute_rec(&b, 0, 0);
	return b.best;
}

static void test_matching(void)
{
	int64_t w[64], total, sum, big[4] = { 0, 0, 0, (int64_t)1 << 41 };
	struct sluice_rng rng;
	uint32_t match[8], n, i, trial;
	bool seen[8], ok = true;

	sluice_rng_seed(&rng, 42);
	for (trial = 0; trial < 400; trial++) {
		n = 1 + trial % 7;
		for (i = 0; i < n * n; i++)
			w[i] = (int64_t)sluice_rng_below(&rng, 26) - 5;
		if (sluice_max_matching(n, w, match, &total, err,
					sizeof(err))) {
			ok = false;
			break;
		}
		memset(seen, 0, sizeof(seen));
		for (i = 0, sum = 0; i < n; i++) {
			ok &= match[i] < n && !seen[match[i]];
			if (match[i] < n)
				seen[match[i]] = true;
			sum += w[i * n + match[i]];
		}
		ok &= sum == total && total == brute_max(n, w, false);
	}
	KTAP_EXPECT(ok);
	KTAP_EXPECT_INT(sluice_max_matching(0, w, match, &total, err,
					    sizeof(err)), -EINVAL);
	KTAP_EXPECT_INT(sluice_max_matching(2, big, match, &total, err,
					    sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "matching: weight[1][1] is beyond +-2^40");
	/* refused before the weights are read: none are given */
	KTAP_EXPECT_INT(sluice_max_matching(SLUICE_MATCHING_MAX + 1, NULL, match,
					    &total, err, sizeof(err)), -E2BIG);
	KTAP_EXPECT_STR(err, "matching: 65536 rows, at most 65535");
	ktap_result("matching: the brute-force maximum on 400 random matrices");
}

/* The total distance of a permutation matrix, by BFS. */
static int64_t traffic_distance(const struct sluice_graph *g,
				const struct sluice_traffic *t)
{
	uint32_t dist[64], queue[64];
	int64_t sum = 0;
	uint64_t i;

	for (i = 0; i < t->n_dem; i++) {
		sluice_graph_bfs(g, t->src[i], dist, queue);
		sum += dist[t->dst[i]] == SLUICE_DIST_INF ? g->n_nodes :
			dist[t->dst[i]];
	}
	return sum;
}

static void test_worst(void)
{
	static const uint32_t a2[] = { 0, 1, 3, 4 }, b2[] = { 1, 2, 4, 5 };
	uint32_t dist[64], queue[64], u, v, trial, n;
	struct sluice_traffic t;
	struct sluice_graph g;
	int64_t w[64];
	bool ok = true;
	uint64_t i;

	/* ring of 6: each switch to the one opposite, all 3 links away */
	if (sluice_topo_ring(&g, 6, 2, err, sizeof(err)))
		die();
	traffic(&g, "worst", 0, &t);
	KTAP_EXPECT_INT(t.n_dem, 6);
	for (i = 0; i < t.n_dem; i++) {
		KTAP_EXPECT_INT(t.src[i], i);
		KTAP_EXPECT_INT(t.dst[i], (i + 3) % 6);
		EXPECT_NEAR(t.demand[i], 2, 0);
	}
	sluice_traffic_free(&t);
	sluice_graph_free(&g);

	/* random regular fabrics: the brute-force longest derangement */
	for (trial = 0; trial < 30; trial++) {
		n = 4 + trial % 4;
		if (sluice_topo_jellyfish(&g, n, n % 2 ? 2 : 3, 1, trial + 1,
					  err, sizeof(err)))
			die();
		for (u = 0; u < n; u++) {
			sluice_graph_bfs(&g, u, dist, queue);
			for (v = 0; v < n; v++)
				w[u * n + v] = dist[v];
		}
		traffic(&g, "worst", 0, &t);
		ok &= t.n_dem == n;
		for (i = 0; i < t.n_dem; i++)
			ok &= t.src[i] == i && t.dst[i] != i;
		ok &= traffic_distance(&g, &t) == brute_max(n, w, true);
		sluice_traffic_free(&t);
		sluice_graph_free(&g);
	}
	KTAP_EXPECT(ok);

	/* two paths of 3: a pair with no route at all is the worst */
	make_graph(&g, 6, NULL, a2, b2, 4);
	traffic(&g, "worst", 0, &t);
	for (i = 0; i < t.n_dem; i++)
		KTAP_EXPECT((t.src[i] < 3) != (t.dst[i] < 3));
	sluice_traffic_free(&t);
	sluice_graph_free(&g);
	ktap_result("worst: the longest permutation (brute force), never to itself");
}

/* ---- theta known by hand ---- */

/* theta by LP, and by the approximation within 1%, against @want. */
static void expect_theta(const struct sluice_graph *g,
			 const struct sluice_routes *r,
			 const struct sluice_traffic *t, double want,
			 double bound)
{
	struct sluice_flow_result res;

	KTAP_EXPECT_INT(theta(g, r, t, SLUICE_FLOW_LP, 0, &res), 0);
	KTAP_EXPECT_INT(res.method, SLUICE_FLOW_LP);
	EXPECT_NEAR(res.theta, want, 1e-9);
	EXPECT_NEAR(res.theta_upper, want, 1e-9);
	EXPECT_NEAR(res.bound, bound, 1e-12);
	KTAP_EXPECT_INT(theta(g, r, t, SLUICE_FLOW_FPTAS, 0.01, &res), 0);
	KTAP_EXPECT(res.converged);
	KTAP_EXPECT(res.theta <= want * (1 + 1e-9));
	KTAP_EXPECT(res.theta >= 0.99 * want);
	KTAP_EXPECT(res.theta_upper >= want * (1 - 1e-9));
	KTAP_EXPECT(res.theta >= 0.99 * res.theta_upper);
}

static void test_hand(void)
{
	static const uint32_t one_a[] = { 0 }, one_b[] = { 1 };
	struct sluice_routes r;
	struct sluice_traffic t;
	struct sluice_graph g;

	/*
	 * Two switches, one link, a server each: 1 each way fills both
	 * directions, theta 1, and 2 links / (demand x distance) = 1: the
	 * bound's 2 is right (with 1 it would sit below theta).
	 */
	make_graph(&g, 2, NULL, one_a, one_b, 1);
	routes(&g, SLUICE_ROUTE_ECMP, 0, &r);
	traffic(&g, "all2all", 0, &t);
	expect_theta(&g, &r, &t, 1, 1);
	sluice_traffic_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);

	/*
	 * Ring of 6, one server each, all-to-all (1/5 a pair) on shortest
	 * paths: 54/5 link directions' worth over 12, so 10/9, met by
	 * splitting the opposite pairs evenly.
	 */
	if (sluice_topo_ring(&g, 6, 1, err, sizeof(err)))
		die();
	routes(&g, SLUICE_ROUTE_ECMP, 0, &r);
	traffic(&g, "all2all", 0, &t);
	expect_theta(&g, &r, &t, 10.0 / 9, 10.0 / 9);
	sluice_traffic_free(&t);
	/* near-worst: 1 to the opposite switch, 2 paths of 3 links: 12/18 */
	traffic(&g, "worst", 0, &t);
	expect_theta(&g, &r, &t, 2.0 / 3, 2.0 / 3);
	sluice_traffic_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);

	/*
	 * Leaf-spine, 2 leaves of 4 servers, 3 spines, 2 parallel links:
	 * 16/7 from leaf to leaf over 6 uplinks, theta 42/16; the
	 * permutation sends 4, theta 6/4.
	 */
	if (sluice_topo_leafspine(&g, 2, 3, 2, 4, err, sizeof(err)))
		die();
	routes(&g, SLUICE_ROUTE_UPDOWN, 0, &r);
	traffic(&g, "all2all", 0, &t);
	expect_theta(&g, &r, &t, 42.0 / 16, 24 / (2 * 16.0 / 7 * 2));
	sluice_traffic_free(&t);
	traffic(&g, "worst", 0, &t);
	expect_theta(&g, &r, &t, 1.5, 24 / (2 * 4.0 * 2));
	sluice_traffic_free(&t);
	sluice_routes_free(&r);
	/* one path per pair: everything on one spine link */
	routes(&g, SLUICE_ROUTE_UPDOWN, 1, &r);
	traffic(&g, "worst", 0, &t);
	expect_theta(&g, &r, &t, 0.25, 24 / (2 * 4.0 * 2));
	sluice_traffic_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("theta by hand: one link, a ring, a leaf-spine; lp and fptas");
}

/* ---- single paths: theta is 1 / the most loaded arc ---- */

static double single_path_theta(const struct sluice_graph *g,
				const struct sluice_routes *r,
				const struct sluice_traffic *t)
{
	double load[256] = { 0 }, top = 0;
	uint64_t i, p, q, h;
	uint32_t at, id, arc;

	for (i = 0, p = 0; i < t->n_dem; i++) {
		while (r->pair_src[p] != t->src[i] ||
		       r->pair_dst[p] != t->dst[i])
			p++;
		q = r->pair_path[p];
		at = t->src[i];
		for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
			id = r->hops[h];
			arc = 2 * id + (g->links[id].a != at);
			at = g->links[id].a == at ? g->links[id].b :
						    g->links[id].a;
			load[arc] += t->demand[i];
		}
	}
	for (i = 0; i < 2 * g->n_links; i++)
		if (load[i] > top)
			top = load[i];
	return 1 / top;
}

static void test_single_path(void)
{
	static const char *const tms[] = { "all2all", "uniform:2", "worst" };
	struct sluice_flow_result lp, ap;
	struct sluice_routes r;
	struct sluice_traffic t;
	struct sluice_graph g;
	uint32_t trial, n;
	double want;
	bool ok = true;

	for (trial = 0; trial < 24; trial++) {
		n = 6 + trial % 6;
		if (sluice_topo_jellyfish(&g, n, n % 2 ? 4 : 3, 1 + trial % 3,
					  trial + 100, err, sizeof(err)))
			die();
		routes(&g, SLUICE_ROUTE_KSP, 1, &r);
		traffic(&g, tms[trial % 3], trial, &t);
		want = single_path_theta(&g, &r, &t);
		ok &= !theta(&g, &r, &t, SLUICE_FLOW_LP, 0, &lp);
		ok &= near(lp.theta, want, 1e-9);
		ok &= !theta(&g, &r, &t, SLUICE_FLOW_FPTAS, 0.02, &ap);
		ok &= ap.converged && ap.theta <= want * (1 + 1e-9) &&
		      ap.theta >= 0.98 * want &&
		      ap.theta_upper >= want * (1 - 1e-9);
		if (!ok) {
			ktap_diag("trial %u: want %.9f lp %.9f fptas %.9f..%.9f",
				  trial, want, lp.theta, ap.theta,
				  ap.theta_upper);
			trial = 99;
		}
		sluice_traffic_free(&t);
		sluice_routes_free(&r);
		sluice_graph_free(&g);
	}
	KTAP_EXPECT(ok);
	ktap_result("one path a pair: lp = 1 / most loaded link direction, fptas within 2%%");
}

/* ---- the LP against the approximation ---- */

struct fabric {
	int			family;	/* 0 jellyfish, 1 fc with 3 layers */
	uint32_t		n, deg, hosts;
	enum sluice_route_algo	algo;
	uint32_t		paths;
};

static void make_fabric(const struct fabric *f, uint64_t seed,
			struct sluice_graph *g)
{
	struct sluice_fc_params p = {
		.switches = f->n, .inter_ports = f->deg,
		.host_ports = f->hosts, .layers = 3, .seed = seed,
	};

	if (f->family ? sluice_topo_fc(g, &p, err, sizeof(err)) :
	    sluice_topo_jellyfish(g, f->n, f->deg, f->hosts, seed, err,
				  sizeof(err)))
		die();
}

static void test_lp_vs_fptas(void)
{
	static const struct fabric fabs[] = {
		{ 0, 8, 3, 2, SLUICE_ROUTE_ECMP, 0 },
		{ 0, 10, 3, 1, SLUICE_ROUTE_KSP, 4 },
		{ 0, 9, 4, 3, SLUICE_ROUTE_EDST, 0 },
		{ 0, 12, 3, 2, SLUICE_ROUTE_UPDOWN, 0 },
		{ 1, 10, 6, 2, SLUICE_ROUTE_FC, 0 },
		{ 1, 12, 8, 3, SLUICE_ROUTE_FC, 0 },
	};
	static const char *const tms[] = { "all2all", "uniform:3", "worst" };
	static const double eps[] = { 0.05, 0.01 };
	struct sluice_flow_result lp, ap;
	uint32_t f, k, e, seed, cases = 0;
	struct sluice_routes r;
	struct sluice_traffic t;
	struct sluice_graph g;
	bool ok = true, one;

	for (f = 0; f < ARRAY_SIZE(fabs); f++)
		for (seed = 1; seed <= 3; seed++) {
			make_fabric(&fabs[f], seed, &g);
			routes(&g, fabs[f].algo, fabs[f].paths, &r);
			for (k = 0; k < ARRAY_SIZE(tms); k++) {
				traffic(&g, tms[k], seed, &t);
				one = !theta(&g, &r, &t, SLUICE_FLOW_LP, 0, &lp);
				/* never above the simple bounds */
				one &= lp.theta <= lp.bound * (1 + 1e-9) &&
				       lp.theta <= lp.bound_paths * (1 + 1e-9) &&
				       lp.bound_paths <= lp.bound * (1 + 1e-12) &&
				       lp.theta > 0;
				for (e = 0; e < ARRAY_SIZE(eps); e++) {
					one &= !theta(&g, &r, &t,
						      SLUICE_FLOW_FPTAS,
						      eps[e], &ap);
					one &= ap.converged &&
					       ap.theta >= (1 - eps[e]) * lp.theta &&
					       ap.theta <= lp.theta * (1 + 1e-7) &&
					       ap.theta_upper >= lp.theta * (1 - 1e-7) &&
					       ap.theta >= (1 - eps[e]) * ap.theta_upper;
					cases++;
				}
				if (!one)
					ktap_diag("fabric %u seed %u %s: lp %.9f fptas %.9f..%.9f bound %.9f: %s",
						  f, seed, tms[k], lp.theta,
						  ap.theta, ap.theta_upper,
						  lp.bound, err);
				ok &= one;
				sluice_traffic_free(&t);
			}
			sluice_routes_free(&r);
			sluice_graph_free(&g);
		}
	KTAP_EXPECT(ok);
	KTAP_EXPECT_INT(cases, 108);
	ktap_result("lp and fptas agree within epsilon on %u small cases, under the bounds",
		    cases);
}

/* The same problem gives the same bits. */
static void test_deterministic(void)
{
	struct sluice_flow_result x, y;
	struct sluice_routes r;
	struct sluice_traffic t;
	struct sluice_graph g;
	static const struct fabric f = { 1, 12, 8, 3, SLUICE_ROUTE_FC, 0 };

	make_fabric(&f, 5, &g);
	routes(&g, SLUICE_ROUTE_FC, 0, &r);
	traffic(&g, "all2all", 0, &t);
	KTAP_EXPECT_INT(theta(&g, &r, &t, SLUICE_FLOW_FPTAS, 0.005, &x), 0);
	KTAP_EXPECT_INT(theta(&g, &r, &t, SLUICE_FLOW_FPTAS, 0.005, &y), 0);
	KTAP_EXPECT(!memcmp(&x, &y, sizeof(x)));
	/* auto picks the LP for a few paths */
	KTAP_EXPECT_INT(theta(&g, &r, &t, SLUICE_FLOW_AUTO, 0, &x), 0);
	KTAP_EXPECT_INT(x.method, SLUICE_FLOW_LP);
	KTAP_EXPECT_INT(x.paths, r.n_paths);
	KTAP_EXPECT_INT(x.commodities, t.n_dem);
	/* a cap on the phases: bounds still hold, converged says no */
	{
		struct sluice_flow_opts o = {
			.method = SLUICE_FLOW_FPTAS, .epsilon = 1e-4,
			.max_phases = 3,
		};

		KTAP_EXPECT_INT(sluice_flow_theta(&g, &r, &t, &o, &y, err,
						  sizeof(err)), 0);
		KTAP_EXPECT(!y.converged && y.phases == 3);
		KTAP_EXPECT(y.theta <= x.theta * (1 + 1e-9) &&
			    y.theta_upper >= x.theta * (1 - 1e-9) &&
			    y.theta > 0);
	}
	sluice_traffic_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("fptas: the same bits twice; a phase cap keeps the bounds");
}

/* Two triangles: pairs across have no path, so theta is 0. */
static void test_unrouted(void)
{
	static const uint32_t a[] = { 0, 1, 2, 3, 4, 5 };
	static const uint32_t b[] = { 1, 2, 0, 4, 5, 3 };
	struct sluice_flow_result res;
	struct sluice_routes r;
	struct sluice_traffic t;
	struct sluice_graph g;

	make_graph(&g, 6, NULL, a, b, 6);
	routes(&g, SLUICE_ROUTE_ECMP, 0, &r);
	traffic(&g, "all2all", 0, &t);
	KTAP_EXPECT_INT(theta(&g, &r, &t, SLUICE_FLOW_AUTO, 0, &res), 0);
	KTAP_EXPECT(res.theta == 0 && res.theta_upper == 0);
	KTAP_EXPECT_INT(res.unrouted, 18);
	KTAP_EXPECT_INT(res.unrouted_src, 0);
	KTAP_EXPECT_INT(res.unrouted_dst, 3);
	KTAP_EXPECT(res.bound == 0 && res.bound_paths == 0);
	KTAP_EXPECT_INT(res.commodities, 30);
	sluice_traffic_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("pairs without a path: theta 0, the first one named");
}

static void expect_err(int ret, int want, const char *msg)
{
	KTAP_EXPECT_INT(ret, want);
	if (!KTAP_EXPECT(strstr(err, msg)))
		ktap_diag("  message: %s", err);
}

static void test_errors(void)
{
	struct sluice_compute_opts half = { .threads = 1, .shard_count = 2 };
	struct sluice_route_opts ecmp = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_flow_opts o = { 0 };
	struct sluice_graph g, g7, one;
	struct sluice_traffic t, t7, bad;
	struct sluice_traffic_spec spec = { .kind = SLUICE_TRAFFIC_ALL2ALL };
	struct sluice_flow_result res;
	struct sluice_routes r, r7, shard;
	uint32_t src[2] = { 0, 0 }, dst[2] = { 2, 1 };
	double dem[2] = { 1, 1 };

	if (sluice_topo_ring(&g, 6, 1, err, sizeof(err)) ||
	    sluice_topo_ring(&g7, 7, 1, err, sizeof(err)))
		die();
	routes(&g, SLUICE_ROUTE_ECMP, 0, &r);
	routes(&g7, SLUICE_ROUTE_ECMP, 0, &r7);
	traffic(&g, "all2all", 0, &t);
	traffic(&g7, "all2all", 0, &t7);

	expect_err(sluice_flow_theta(&g, &r7, &t, NULL, &res, err, sizeof(err)),
		   -EINVAL, "the routes are for 7 nodes and 7 links, the graph has 6 and 6");
	expect_err(sluice_flow_theta(&g, &r, &t7, NULL, &res, err, sizeof(err)),
		   -EINVAL, "the traffic matrix is for 7 nodes, the graph has 6");
	if (sluice_routes_compute(&g, &ecmp, &half, &shard, err, sizeof(err)))
		die();
	expect_err(sluice_flow_theta(&g, &shard, &t, NULL, &res, err,
				     sizeof(err)),
		   -EINVAL, "the routes are shard 0 of 2: merge the shards first");
	sluice_routes_free(&shard);
	o.epsilon = 0.9;
	expect_err(sluice_flow_theta(&g, &r, &t, &o, &res, err, sizeof(err)),
		   -EINVAL, "epsilon 0.9 is not from 0.0001 to 0.5");
	o.epsilon = 0;
	o.method = 7;
	expect_err(sluice_flow_theta(&g, &r, &t, &o, &res, err, sizeof(err)),
		   -EINVAL, "unknown flow method 7");

	/* hand-made matrices: out of order, not positive, empty */
	bad = (struct sluice_traffic){ .n_nodes = 6, .n_dem = 2, .src = src,
				       .dst = dst, .demand = dem };
	expect_err(sluice_flow_theta(&g, &r, &bad, NULL, &res, err,
				     sizeof(err)),
		   -EINVAL, "traffic demand 1 (s0 -> s1) is out of (source, destination) order");
	dst[1] = 3;
	dem[0] = -1;
	expect_err(sluice_flow_theta(&g, &r, &bad, NULL, &res, err,
				     sizeof(err)),
		   -EINVAL, "traffic demand 0 (s0 -> s2) is -1: demands are positive and finite");
	dem[0] = NAN;
	expect_err(sluice_flow_theta(&g, &r, &bad, NULL, &res, err,
				     sizeof(err)),
		   -EINVAL, "is nan: demands are positive");
	bad.n_dem = 0;
	expect_err(sluice_flow_theta(&g, &r, &bad, NULL, &res, err,
				     sizeof(err)),
		   -EINVAL, "the traffic matrix has no demand");

	/* a route set whose path is not a walk of the graph */
	r.hops[r.path_hop[1] - 1] = (r.hops[r.path_hop[1] - 1] + 3) % 6;
	expect_err(sluice_flow_theta(&g, &r, &t, NULL, &res, err, sizeof(err)),
		   -EINVAL, "path 1 of s0 -> s1 is not a walk between them in the graph");

	/* one switch: no traffic at all */
	if (sluice_topo_leafspine(&one, 1, 1, 1, 3, err, sizeof(err)))
		die();
	expect_err(sluice_traffic_make(&one, &spec, &bad, err, sizeof(err)),
		   -EINVAL, "traffic needs two endpoints and two servers; the fabric has 1 and 3");
	sluice_graph_free(&one);

	sluice_traffic_free(&t);
	sluice_traffic_free(&t7);
	sluice_routes_free(&r);
	sluice_routes_free(&r7);
	sluice_graph_free(&g);
	sluice_graph_free(&g7);
	ktap_result("bad inputs: -EINVAL and a message naming what is wrong");
}

/* ---- the Clos baseline ---- */

static void expect_size(uint32_t p, uint32_t hosts, uint32_t n,
			uint32_t layers, uint32_t h, uint32_t switches,
			const uint32_t *per)
{
	struct sluice_clos_size c;
	uint32_t l;

	KTAP_EXPECT_INT(sluice_clos_size(p, hosts, n, &c, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(c.layers, layers);
	KTAP_EXPECT_INT(c.host_ports, h);
	KTAP_EXPECT_INT(c.uplinks, p - h);
	KTAP_EXPECT_INT(c.switches, switches);
	for (l = 0; l < layers; l++)
		KTAP_EXPECT_INT(c.layer_switches[l], per[l]);
	EXPECT_NEAR(c.theta, (double)(p - h) / h, 1e-15);
}

static void test_clos_size(void)
{
	struct sluice_clos_size c;

	/* FC Section 5: 1152 servers on 148 switches, 64 + 56 + 28 */
	expect_size(32, 1152, 148, 3, 18, 148, (uint32_t[]){ 64, 56, 28 });
	/* one switch fewer: the next h */
	expect_size(32, 1152, 147, 3, 19, 139, (uint32_t[]){ 61, 52, 26 });
	/* FC 4.3: 700 servers in 2 layers, 1400 need 3 */
	expect_size(32, 700, 50, 2, 22, 42, (uint32_t[]){ 32, 10 });
	expect_size(32, 1400, 100, 3, 25, 98, (uint32_t[]){ 56, 28, 14 });
	/*
	 * 7000 servers on 500: h = 25 would need 280 ToRs in 18 pods, and
	 * 18 pods of 16 uplinks need 16 spines a plane (a divisor of 16
	 * with 18 x 16 / S <= 32): 280 + 126 + 112 = 518.  h = 26 fits.
	 */
	expect_size(32, 7000, 500, 3, 26, 468, (uint32_t[]){ 270, 102, 96 });
	/*
	 * Plenty of switches: 2 layers get h = 2 (10 ToRs > 8 ports for
	 * h = 1), 3 layers h = 1 (10 ToRs, 3 pods x 7, 7 planes x 2).
	 */
	expect_size(8, 10, 100, 3, 1, 45, (uint32_t[]){ 10, 21, 14 });

	KTAP_EXPECT_INT(sluice_clos_size(1, 10, 10, &c, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "clos: ports must be from 2 to 1024, not 1");
	KTAP_EXPECT_INT(sluice_clos_size(32, 0, 10, &c, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_INT(sluice_clos_size(32, 100000, 10, &c, err,
					 sizeof(err)), -ENOSPC);
	KTAP_EXPECT_STR(err, "clos: no Clos of at most 10 32-port switches holds 100000 servers");
	KTAP_EXPECT(!c.layers && !c.switches);
	ktap_result("clos sizes: FC's examples, the divisor rule, errors");
}

/* Degrees, servers and tiers of a built Clos against its sizes. */
static bool clos_shape(const struct sluice_graph *g,
		       const struct sluice_clos_size *c)
{
	uint32_t u, tors = c->layer_switches[0], hosts = 0;
	bool ok = g->n_nodes == c->switches;

	for (u = 0; ok && u < g->n_nodes; u++) {
		const struct sluice_node *n = &g->nodes[u];
		uint32_t deg = sluice_graph_degree(g, u);

		ok &= deg + n->hosts <= c->ports;
		if (u < tors) {
			ok &= n->tier == 1 && deg == c->uplinks &&
			      n->hosts <= c->host_ports && n->hosts >= 1;
			hosts += n->hosts;
		} else {
			ok &= !n->hosts && n->tier >= 2 &&
			      n->tier <= c->layers;
		}
	}
	return ok && hosts == c->hosts;
}

static void test_clos_build(void)
{
	struct sluice_flow_result res;
	struct sluice_clos_size c;
	struct sluice_routes r;
	struct sluice_traffic t;
	struct sluice_graph g;

	/* 3 layers: 12 ToRs of 3 in 3 pods of 4, 2 spines a plane */
	if (sluice_clos_size(8, 36, 37, &c, err, sizeof(err)))
		die();
	KTAP_EXPECT(c.layers == 3 && c.host_ports == 3 && c.switches == 37);
	KTAP_EXPECT_INT(sluice_clos_build(&c, &g, err, sizeof(err)), 0);
	KTAP_EXPECT(clos_shape(&g, &c));
	KTAP_EXPECT_STR(g.family, "clos");
	/* non-blocking: any permutation gets (p - h) / h = 5/3 */
	routes(&g, SLUICE_ROUTE_UPDOWN, 0, &r);
	traffic(&g, "worst", 0, &t);
	KTAP_EXPECT_INT(theta(&g, &r, &t, SLUICE_FLOW_LP, 0, &res), 0);
	EXPECT_NEAR(res.theta, 5.0 / 3, 1e-9);
	sluice_traffic_free(&t);
	traffic(&g, "all2all", 0, &t);
	KTAP_EXPECT_INT(theta(&g, &r, &t, SLUICE_FLOW_FPTAS, 0.01, &res), 0);
	KTAP_EXPECT(res.theta >= 0.99 * 5.0 / 3 / (1 - 2.0 / 35));
	sluice_traffic_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);

	/* 3 layers with a short pod: 13 ToRs */
	if (sluice_clos_size(8, 39, 45, &c, err, sizeof(err)))
		die();
	KTAP_EXPECT(c.layers == 3 && c.layer_switches[0] == 13);
	KTAP_EXPECT_INT(sluice_clos_build(&c, &g, err, sizeof(err)), 0);
	KTAP_EXPECT(clos_shape(&g, &c));
	routes(&g, SLUICE_ROUTE_UPDOWN, 0, &r);
	traffic(&g, "worst", 0, &t);
	KTAP_EXPECT_INT(theta(&g, &r, &t, SLUICE_FLOW_LP, 0, &res), 0);
	EXPECT_NEAR(res.theta, c.theta, 1e-9);
	sluice_traffic_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);

	/* FC Section 5's Clos, and a 2-layer one */
	if (sluice_clos_size(32, 1152, 148, &c, err, sizeof(err)))
		die();
	KTAP_EXPECT_INT(sluice_clos_build(&c, &g, err, sizeof(err)), 0);
	KTAP_EXPECT(clos_shape(&g, &c));
	sluice_graph_free(&g);
	if (sluice_clos_size(32, 700, 50, &c, err, sizeof(err)))
		die();
	KTAP_EXPECT_INT(sluice_clos_build(&c, &g, err, sizeof(err)), 0);
	KTAP_EXPECT(clos_shape(&g, &c));
	KTAP_EXPECT_INT(g.n_links, 320);
	sluice_graph_free(&g);

	/* sizes it did not make */
	c.switches++;
	KTAP_EXPECT_INT(sluice_clos_build(&c, &g, err, sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "clos: the sizes are not sluice_clos_size()'s");
	KTAP_EXPECT(!g.n_nodes && !g.nodes);
	c.layers = 4;
	KTAP_EXPECT_INT(sluice_clos_build(&c, &g, err, sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "clos: 4 layers: only 2 and 3 are built");
	ktap_result("clos built: degrees, servers, tiers; non-blocking under up-down");
}

/* ---- max-min fair rates (TCP-Bolt's flow model) ---- */

static void test_permutation(void)
{
	static const uint32_t hosts[] = { 2, 0, 3, 1 };
	static const uint32_t a[] = { 0, 1, 2 }, b[] = { 1, 2, 3 };
	uint32_t out[5], in[5], i, seed;
	struct sluice_traffic t, t2;
	struct sluice_graph g;
	bool ok = true;
	double sum;

	make_graph(&g, 4, hosts, a, b, 3);
	for (seed = 1; seed <= 50; seed++) {
		traffic(&g, "permutation", seed, &t);
		memset(out, 0, sizeof(out));
		memset(in, 0, sizeof(in));
		for (i = 0, sum = 0; i < t.n_dem; i++) {
			ok &= t.demand[i] == floor(t.demand[i]) &&
			      t.src[i] != t.dst[i];
			out[t.src[i]] += (uint32_t)t.demand[i];
			in[t.dst[i]] += (uint32_t)t.demand[i];
			sum += t.demand[i];
		}
		/* whatever a switch does not send out stays inside it */
		for (i = 0; i < 4; i++)
			ok &= out[i] <= hosts[i] && in[i] <= hosts[i] &&
			      hosts[i] - out[i] == hosts[i] - in[i];
		ok &= sum == t.total && sum + t.local == 6 &&
		      t.kind == SLUICE_TRAFFIC_PERMUTATION;
		traffic(&g, "permutation", seed, &t2);
		ok &= same_traffic(&t, &t2) && t.local == t2.local;
		sluice_traffic_free(&t);
		sluice_traffic_free(&t2);
	}
	KTAP_EXPECT(ok);
	sluice_graph_free(&g);

	/* one server a node: a derangement of the nodes */
	if (sluice_topo_ring(&g, 5, 0, err, sizeof(err)))
		die();
	traffic(&g, "permutation", 7, &t);
	KTAP_EXPECT_INT(t.n_dem, 5);
	KTAP_EXPECT_INT(t.local, 0);
	memset(in, 0, sizeof(in));
	for (i = 0; i < t.n_dem && i < 5; i++) {
		KTAP_EXPECT_INT(t.src[i], i);
		KTAP_EXPECT(t.dst[i] != i && t.dst[i] < 5 && t.demand[i] == 1);
		in[t.dst[i] % 5]++;
	}
	for (i = 0; i < 5; i++)
		KTAP_EXPECT_INT(in[i], 1);
	sluice_traffic_free(&t);
	sluice_graph_free(&g);
	ktap_result("permutation: each server sends once and receives once, never to itself");
}

/*
 * The obvious max-min filling, with no data structure: raise every
 * unfrozen flow by the least headroom per unfrozen flow of any resource,
 * then freeze the flows on every resource that is full; scan again.
 */
#define NAIVE_MAX	256

static void naive_fill(uint32_t n_res, const double *cap, uint32_t n_flows,
		       const uint64_t *off, const uint32_t *res, double *rate)
{
	static double load[NAIVE_MAX];
	static uint32_t cnt[NAIVE_MAX];
	static bool frozen[NAIVE_MAX];
	uint32_t f, j, left = n_flows;
	double delta;
	uint64_t k;

	for (f = 0; f < n_flows; f++) {
		rate[f] = 0;
		frozen[f] = false;
	}
	while (left) {
		memset(cnt, 0, sizeof(cnt));
		memset(load, 0, sizeof(load));
		for (f = 0; f < n_flows; f++)
			for (k = off[f]; k < off[f + 1]; k++) {
				load[res[k]] += rate[f];
				cnt[res[k]] += !frozen[f];
			}
		delta = INFINITY;
		for (j = 0; j < n_res; j++)
			if (cnt[j] && (cap[j] - load[j]) / cnt[j] < delta)
				delta = (cap[j] - load[j]) / cnt[j];
		memset(load, 0, sizeof(load));
		for (f = 0; f < n_flows; f++) {
			if (!frozen[f])
				rate[f] += delta;
			for (k = off[f]; k < off[f + 1]; k++)
				load[res[k]] += rate[f];
		}
		for (f = 0; f < n_flows; f++)
			for (k = off[f]; k < off[f + 1] && !frozen[f]; k++)
				if (load[res[k]] >= cap[res[k]] -
						    1e-12 * (1 + cap[res[k]])) {
					frozen[f] = true;
					left--;
				}
	}
}

/*
 * Max-min fairness checked from its definition: the rates fit, and every
 * flow crosses a full resource on which no flow has more.
 */
static bool maxmin_fair(uint32_t n_res, const double *cap, uint32_t n_flows,
			const uint64_t *off, const uint32_t *res,
			const double *rate)
{
	static double load[NAIVE_MAX], top[NAIVE_MAX];
	uint32_t f, j;
	bool bottleneck;
	uint64_t k;

	memset(load, 0, sizeof(load));
	memset(top, 0, sizeof(top));
	for (f = 0; f < n_flows; f++)
		for (k = off[f]; k < off[f + 1]; k++) {
			load[res[k]] += rate[f];
			top[res[k]] = fmax(top[res[k]], rate[f]);
		}
	for (j = 0; j < n_res; j++)
		if (load[j] > cap[j] + 1e-9)
			return false;
	for (f = 0; f < n_flows; f++) {
		bottleneck = false;
		for (k = off[f]; k < off[f + 1]; k++)
			bottleneck |= load[res[k]] >= cap[res[k]] - 1e-9 &&
				      rate[f] >= top[res[k]] - 1e-9;
		if (!bottleneck)
			return false;
	}
	return true;
}

static void fill(uint32_t n_res, const double *cap, uint32_t n_flows,
		 const uint64_t *off, const uint32_t *res, double *rate)
{
	if (sluice_maxmin_fill(n_res, cap, n_flows, off, res, rate, err,
			       sizeof(err)))
		die();
}

/* Resources 0 and 1 of capacity 1 and 2: flows {0, 1}, {0} and {1}. */
static void test_fill_hand(void)
{
	static const double cap2[] = { 1, 2 }, cap3[] = { 1, 1, 1 };
	static const double cap_db[] = { 1, 0.2, 1, 1 };
	static const uint64_t off2[] = { 0, 2, 3, 4 };
	static const uint32_t res2[] = { 0, 1, 0, 1 };
	/* parking lot: one flow over 3 links, one flow on each */
	static const uint64_t off_pl[] = { 0, 3, 4, 5, 6 };
	static const uint32_t res_pl[] = { 0, 1, 2, 0, 1, 2 };
	/* dumbbell: three flows over bottleneck 0, their access links 1-3 */
	static const uint64_t off_db[] = { 0, 2, 4, 6 };
	static const uint32_t res_db[] = { 0, 1, 0, 2, 0, 3 };
	double rate[4];

	fill(2, cap2, 3, off2, res2, rate);
	EXPECT_NEAR(rate[0], 0.5, 1e-12);
	EXPECT_NEAR(rate[1], 0.5, 1e-12);
	EXPECT_NEAR(rate[2], 1.5, 1e-12);
	fill(3, cap3, 4, off_pl, res_pl, rate);
	EXPECT_NEAR(rate[0], 0.5, 1e-12);
	EXPECT_NEAR(rate[3], 0.5, 1e-12);
	fill(4, cap_db, 3, off_db, res_db, rate);
	EXPECT_NEAR(rate[0], 0.2, 1e-12);
	EXPECT_NEAR(rate[1], 0.4, 1e-12);
	EXPECT_NEAR(rate[2], 0.4, 1e-12);
	ktap_result("max-min filling: two links, parking lot, dumbbell by hand");
}

/*
 * Random small graphs, each flow a random walk that never repeats a link
 * direction between two random servers (several flows may share one), on
 * link directions of random capacity: the filling against naive_fill()
 * and against the definition.
 */
static uint32_t random_instance(struct sluice_rng *rng, double *cap,
				uint32_t *n_res, uint64_t *off, uint32_t *res)
{
	uint32_t n = 3 + sluice_rng_below(rng, 5), m, servers, i, f, flows;
	uint32_t la[16], lb[16], at, len, l, arc, k;
	bool used[32];

	m = n - 1 + sluice_rng_below(rng, 6);
	for (i = 0; i < m; i++) {
		/* a spanning path first, then random chords */
		la[i] = i < n - 1 ? i : sluice_rng_below(rng, n);
		lb[i] = i < n - 1 ? i + 1 :
			(la[i] + 1 + sluice_rng_below(rng, n - 1)) % n;
	}
	servers = 1 + sluice_rng_below(rng, 6);
	*n_res = 2 * m + 2 * servers;
	for (i = 0; i < 2 * m; i++)
		cap[i] = sluice_rng_below(rng, 5) * 0.5;
	for (; i < *n_res; i++)
		cap[i] = 1;
	flows = 1 + sluice_rng_below(rng, 24);
	off[0] = 0;
	for (f = 0, k = 0; f < flows; f++) {
		res[k++] = 2 * m + 2 * sluice_rng_below(rng, servers);
		memset(used, 0, sizeof(used));
		at = sluice_rng_below(rng, n);
		len = sluice_rng_below(rng, 6);
		for (i = 0; i < len; i++) {
			l = sluice_rng_below(rng, m);
			if (la[l] != at && lb[l] != at)
				continue;
			arc = 2 * l + (lb[l] == at);
			if (used[arc])
				continue;
			used[arc] = true;
			res[k++] = arc;
			at = la[l] == at ? lb[l] : la[l];
		}
		res[k++] = 2 * m + 2 * sluice_rng_below(rng, servers) + 1;
		off[f + 1] = k;
	}
	return flows;
}

static void test_fill_random(void)
{
	static double cap[NAIVE_MAX], fast[NAIVE_MAX], slow[NAIVE_MAX];
	static uint64_t off[NAIVE_MAX];
	static uint32_t res[8 * NAIVE_MAX];
	uint32_t inst, n_res, flows, f, bad = 0;
	struct sluice_rng rng;

	sluice_rng_seed(&rng, 18);
	for (inst = 0; inst < 400; inst++) {
		flows = random_instance(&rng, cap, &n_res, off, res);
		fill(n_res, cap, flows, off, res, fast);
		naive_fill(n_res, cap, flows, off, res, slow);
		for (f = 0; f < flows; f++)
			if (fabs(fast[f] - slow[f]) > 1e-9)
				break;
		if (f < flows ||
		    !maxmin_fair(n_res, cap, flows, off, res, fast)) {
			if (!bad++)
				ktap_diag("instance %u flow %u: %.12f, naive %.12f",
					  inst, f, fast[f < flows ? f : 0],
					  slow[f < flows ? f : 0]);
		}
	}
	KTAP_EXPECT_INT(bad, 0);
	ktap_result("max-min filling: the naive filling's rates to 1e-9 on 400 random instances, fair by definition");
}

static int maxmin(const struct sluice_graph *g, const struct sluice_routes *r,
		  uint64_t seed, uint32_t runs, struct sluice_maxmin_result *res)
{
	struct sluice_traffic_spec s = {
		.kind = SLUICE_TRAFFIC_PERMUTATION, .seed = seed,
	};

	err[0] = '\0';
	return sluice_flow_maxmin(g, r, &s, runs, NULL, NULL, res, err,
				  sizeof(err));
}

/* Path @q of @r from @src as arcs (link 2 l from a to b, 2 l + 1 back). */
static uint32_t path_arcs(const struct sluice_graph *g,
			  const struct sluice_routes *r, uint64_t q,
			  uint32_t src, uint32_t *out)
{
	uint32_t n = 0, l;
	uint64_t h;

	for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
		l = r->hops[h];
		out[n++] = 2 * l + (g->links[l].a != src);
		src = g->links[l].a == src ? g->links[l].b : g->links[l].a;
	}
	return n;
}

/*
 * One path a pair (ksp 1) leaves no choice: the permutation's flows on
 * those paths, each with host links of its own, through naive_fill().
 */
static double naive_throughput(const struct sluice_graph *g,
			       const struct sluice_routes *r, uint64_t seed,
			       uint32_t *saturated)
{
	static double cap[NAIVE_MAX], rate[NAIVE_MAX], load[NAIVE_MAX];
	static uint64_t off[NAIVE_MAX];
	static uint32_t res[8 * NAIVE_MAX];
	uint32_t flows = 0, n_res, j, c, p;
	struct sluice_traffic t;
	double sum;
	uint64_t i, k = 0;

	traffic(g, "permutation", seed, &t);
	n_res = 2 * g->n_links + 2 * (uint32_t)(t.total + t.local);
	for (j = 0; j < n_res; j++)
		cap[j] = 1;
	for (i = 0, p = 0; i < t.n_dem; i++) {
		while (r->pair_src[p] != t.src[i] || r->pair_dst[p] != t.dst[i])
			p++;
		for (c = 0; c < t.demand[i]; c++) {
			res[k++] = 2 * g->n_links + 2 * flows;
			k += path_arcs(g, r, r->pair_path[p], t.src[i],
				       res + k);
			res[k++] = 2 * g->n_links + 2 * flows + 1;
			off[++flows] = k;
		}
	}
	naive_fill(n_res, cap, flows, off, res, rate);
	memset(load, 0, sizeof(load));
	for (c = 0, sum = t.local; c < flows; c++) {
		sum += rate[c];
		for (k = off[c]; k < off[c + 1]; k++)
			load[res[k]] += rate[c];
	}
	for (j = 0, *saturated = 0; j < 2 * g->n_links; j++)
		*saturated += load[j] >= 1 - 1e-6;
	sum /= t.total + t.local;
	sluice_traffic_free(&t);
	return sum;
}

static void test_maxmin_random(void)
{
	static const struct fabric fabrics[] = {
		{ 0, 6, 3, 1, SLUICE_ROUTE_KSP, 1 },
		{ 0, 8, 3, 2, SLUICE_ROUTE_KSP, 1 },
		{ 0, 10, 4, 3, SLUICE_ROUTE_KSP, 1 },
		{ 0, 12, 3, 4, SLUICE_ROUTE_KSP, 1 },
	};
	struct sluice_maxmin_result res;
	uint32_t f, seed, sat, cases = 0, bad = 0;
	struct sluice_routes r;
	struct sluice_graph g;
	double want;

	for (f = 0; f < ARRAY_SIZE(fabrics); f++)
		for (seed = 1; seed <= 50; seed++) {
			make_fabric(&fabrics[f], seed, &g);
			routes(&g, fabrics[f].algo, fabrics[f].paths, &r);
			want = naive_throughput(&g, &r, seed, &sat);
			if (maxmin(&g, &r, seed, 1, &res) ||
			    fabs(res.throughput - want) > 1e-9 ||
			    res.saturated != sat) {
				if (!bad++)
					ktap_diag("fabric %u seed %u: %.12f (saturated %.0f), naive %.12f (%u): %s",
						  f, seed, res.throughput,
						  res.saturated, want, sat, err);
			}
			cases++;
			sluice_routes_free(&r);
			sluice_graph_free(&g);
		}
	KTAP_EXPECT_INT(bad, 0);
	ktap_result("maxmin on %u random jellyfish with one path a pair: the naive filling's throughput to 1e-9",
		    cases);
}

/*
 * Hand-checked fabrics.  A line s0 (2 servers) - s1 - s2 (2): a direction
 * of the middle carries all its flows at 1 in total, so the rates sum to
 * the local flows plus one per direction used.  Two parallel links: ECMP
 * draws one of them per flow, a direction used adds 1.  A star of four
 * one-server leaves: every flow alone on its up and down links.
 */
static void test_maxmin_hand(void)
{
	static const uint32_t line_h[] = { 2, 0, 2 }, par_h[] = { 3, 3 };
	static const uint32_t star_h[] = { 0, 1, 1, 1, 1 };
	static const uint32_t la[] = { 0, 1 }, lb[] = { 1, 2 };
	static const uint32_t pa[] = { 0, 0 }, pb[] = { 1, 1 };
	static const uint32_t sa[] = { 0, 0, 0, 0 }, sb[] = { 1, 2, 3, 4 };
	struct sluice_maxmin_result res;
	uint32_t seed, d01, d10, spread = 0;
	struct sluice_routes r;
	struct sluice_traffic t;
	struct sluice_graph g;
	bool ok = true;
	double low, high, sum;
	uint64_t i;

	make_graph(&g, 3, line_h, la, lb, 2);
	routes(&g, SLUICE_ROUTE_ECMP, 0, &r);
	for (seed = 1; seed <= 40; seed++) {
		traffic(&g, "permutation", seed, &t);
		sum = (double)t.local + t.n_dem;	/* one per direction */
		ok &= !maxmin(&g, &r, seed, 1, &res) &&
		      near(res.throughput, sum / 4, 1e-12) &&
		      res.local == t.local && res.servers == 4;
		sluice_traffic_free(&t);
	}
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	KTAP_EXPECT(ok);

	make_graph(&g, 2, par_h, pa, pb, 2);
	routes(&g, SLUICE_ROUTE_ECMP, 0, &r);
	for (seed = 1; seed <= 40; seed++) {
		traffic(&g, "permutation", seed, &t);
		for (i = 0, d01 = d10 = 0; i < t.n_dem; i++)
			*(t.src[i] ? &d10 : &d01) = (uint32_t)t.demand[i];
		low = t.local + !!d01 + !!d10;
		high = t.local + (d01 < 2 ? d01 : 2) + (d10 < 2 ? d10 : 2);
		ok &= !maxmin(&g, &r, seed, 1, &res);
		sum = res.throughput * 6;
		ok &= sum >= low - 1e-9 && sum <= high + 1e-9 &&
		      fabs(sum - round(sum)) < 1e-9;
		spread += sum > low + 0.5;
		sluice_traffic_free(&t);
	}
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	KTAP_EXPECT(ok);
	KTAP_EXPECT(spread > 0);

	make_graph(&g, 5, star_h, sa, sb, 4);
	routes(&g, SLUICE_ROUTE_ECMP, 0, &r);
	KTAP_EXPECT_INT(maxmin(&g, &r, 3, 5, &res), 0);
	EXPECT_NEAR(res.throughput, 1, 1e-12);
	EXPECT_NEAR(res.rate_min, 1, 1e-12);
	EXPECT_NEAR(res.path_len, 2, 1e-12);
	EXPECT_NEAR(res.saturated, 8, 1e-12);
	KTAP_EXPECT(res.throughput_sd == 0 && res.runs == 5 && !res.local);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("maxmin by hand: a line, parallel links under ECMP, a star");
}

static void test_maxmin_runs(void)
{
	static const struct fabric fab = { 0, 12, 4, 2, SLUICE_ROUTE_ECMP, 0 };
	struct sluice_maxmin_result x, y, one[3];
	struct sluice_routes r;
	struct sluice_graph g;
	double mean = 0, var = 0;
	uint32_t i;

	make_fabric(&fab, 5, &g);
	routes(&g, fab.algo, 0, &r);
	KTAP_EXPECT_INT(maxmin(&g, &r, 10, 3, &x), 0);
	KTAP_EXPECT_INT(maxmin(&g, &r, 10, 3, &y), 0);
	KTAP_EXPECT(!memcmp(&x, &y, sizeof(x)));
	for (i = 0; i < 3; i++) {
		KTAP_EXPECT_INT(maxmin(&g, &r, 10 + i, 1, &one[i]), 0);
		mean += one[i].throughput / 3;
	}
	for (i = 0; i < 3; i++)
		var += (one[i].throughput - mean) * (one[i].throughput - mean);
	EXPECT_NEAR(x.throughput, mean, 1e-12);
	EXPECT_NEAR(x.throughput_sd, sqrt(var / 2), 1e-9);
	KTAP_EXPECT(x.throughput_sd > 0);
	KTAP_EXPECT(x.throughput_min <= x.throughput && x.rate_min > 0 &&
		    x.rate_min <= x.throughput_min);
	KTAP_EXPECT(one[0].throughput != one[1].throughput ||
		    one[1].throughput != one[2].throughput);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("maxmin: the same bits for a seed; runs are seeds S, S+1, ... averaged");
}

static void test_maxmin_errors(void)
{
	static const double cap[] = { 1, -1 };
	static const uint64_t off[] = { 0, 1, 1 }, off1[] = { 0, 1 };
	static const uint32_t res1[] = { 0 }, res_far[] = { 7 };
	struct sluice_traffic_spec s = { .kind = SLUICE_TRAFFIC_ALL2ALL };
	struct sluice_maxmin_result res;
	struct sluice_routes r;
	struct sluice_graph g;
	double rate[2];

	if (sluice_topo_ring(&g, 4, 1, err, sizeof(err)))
		die();
	routes(&g, SLUICE_ROUTE_ECMP, 0, &r);
	expect_err(sluice_flow_maxmin(&g, &r, &s, 1, NULL, NULL, &res, err,
				      sizeof(err)),
		   -EINVAL, "permutation traffic only");
	expect_err(maxmin(&g, &r, 1, 0, &res), -EINVAL, "0 runs");
	r.n_links++;
	expect_err(maxmin(&g, &r, 1, 1, &res), -EINVAL, "the routes are for");
	r.n_links--;
	expect_err(sluice_maxmin_fill(1, cap, 2, off, res1, rate, err,
				      sizeof(err)), -EINVAL,
		   "flow 1 crosses no resource");
	expect_err(sluice_maxmin_fill(2, cap, 1, off1, res1, rate, err,
				      sizeof(err)), -EINVAL,
		   "resource 1 has capacity -1");
	expect_err(sluice_maxmin_fill(1, cap, 1, off1, res_far, rate, err,
				      sizeof(err)), -EINVAL,
		   "flow 0 crosses resource 7 of 1");
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("maxmin: bad inputs refused with a message");
}

static void (*const tests[])(void) = {
	test_parse,
	test_all2all,
	test_uniform,
	test_matching,
	test_worst,
	test_hand,
	test_single_path,
	test_lp_vs_fptas,
	test_deterministic,
	test_unrouted,
	test_errors,
	test_clos_size,
	test_clos_build,
	test_permutation,
	test_fill_hand,
	test_fill_random,
	test_maxmin_random,
	test_maxmin_hand,
	test_maxmin_runs,
	test_maxmin_errors,
};

int main(void)
{
	size_t i;

	ktap_plan(ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
