// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fabric's multipath modes (sluice/multipath.h), without a kernel: the
 * names; exact's source ports both ways against a scan of every range; the
 * weights of wcmp against the smallest whole ratio found by trying every
 * weight of the largest path, and against rounding when none fits; node
 * rates and the link rates they give; the routes each mode builds (hash5
 * as hash, wcmp's weights, exact's tables and rules checked against the
 * main route's nexthops on random fabrics) and what they refuse; the
 * fabric's check of a mode against its options; and the state file's new
 * lines written and read back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include <sluice/fabric_state.h>
#include <sluice/graph.h>
#include <sluice/multipath.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "cli.h"
#include "ktap.h"

static char err[SLUICE_ERRLEN];

static int compute(const struct sluice_graph *g, enum sluice_route_algo algo,
		   uint32_t paths, uint32_t lanes, struct sluice_routes *r)
{
	struct sluice_route_opts o = {
		.algo = algo, .paths = paths, .lanes = lanes,
	};
	struct sluice_compute_opts c = { .threads = 1 };

	return sluice_routes_compute(g, &o, &c, r, err, sizeof(err));
}

static void test_names(void)
{
	unsigned int m;

	for (m = 0; m < SLUICE_MP__COUNT; m++)
		KTAP_EXPECT_INT(sluice_multipath_parse(sluice_multipath_name(m)),
				m);
	KTAP_EXPECT_STR(sluice_multipath_name(SLUICE_MP_HASH), "hash");
	KTAP_EXPECT_STR(sluice_multipath_name(SLUICE_MP_HASH5), "hash5");
	KTAP_EXPECT_STR(sluice_multipath_name(SLUICE_MP_EXACT), "exact");
	KTAP_EXPECT_STR(sluice_multipath_name(SLUICE_MP_WCMP), "wcmp");
	KTAP_EXPECT_STR(sluice_multipath_name(SLUICE_MP_SPORT), "sport");
	/* the addresses and the source port; hash5 adds protocol and dport */
	KTAP_EXPECT_INT(sluice_multipath_hash_fields(SLUICE_MP_SPORT), 0x13);
	KTAP_EXPECT_INT(sluice_multipath_hash_fields(SLUICE_MP_HASH5), 0x37);
	KTAP_EXPECT_INT(sluice_multipath_hash_fields(SLUICE_MP_EXACT), 0x37);
	KTAP_EXPECT_INT(sluice_multipath_hash_fields(SLUICE_MP_HASH), 0);
	KTAP_EXPECT_STR(sluice_multipath_name(SLUICE_MP__COUNT), "?");
	KTAP_EXPECT_INT(sluice_multipath_parse("HASH"), -EINVAL);
	KTAP_EXPECT_INT(sluice_multipath_parse(""), -EINVAL);
	KTAP_EXPECT_INT(sluice_multipath_hash_policy(SLUICE_MP_HASH), 1);
	for (m = SLUICE_MP_HASH5; m < SLUICE_MP__COUNT; m++)
		KTAP_EXPECT_INT(sluice_multipath_hash_policy(m), 3);
	ktap_result("names");
}

/*
 * Every pair of @r: each path's range from sluice_fabric_path_sport(), and
 * for every port around them the path sluice_fabric_sport_path() gives,
 * against the one whose range holds the port (a scan).
 */
static bool check_sports(const struct sluice_routes *r)
{
	uint32_t k, n, got, want, port;
	uint16_t lo[SLUICE_MP_PATHS_MAX], hi[SLUICE_MP_PATHS_MAX];
	uint64_t p;
	int ret;

	for (p = 0; p < r->n_pairs; p++) {
		n = sluice_routes_pair_paths(r, p);
		for (k = 0; k <= n; k++) {
			ret = sluice_fabric_path_sport(r, r->pair_src[p],
						       r->pair_dst[p], k,
						       &lo[k < SLUICE_MP_PATHS_MAX ? k : 0],
						       &hi[k < SLUICE_MP_PATHS_MAX ? k : 0],
						       err, sizeof(err));
			if (!KTAP_EXPECT_INT(ret, k == n ? -ERANGE :
					     k >= SLUICE_MP_PATHS_MAX ? -E2BIG : 0))
				return false;
			if (ret)
				continue;
			/* contiguous, one width each, below the ephemeral ports */
			if (!KTAP_EXPECT_INT(hi[k] - lo[k] + 1, SLUICE_MP_SPORT_WIDTH) ||
			    !KTAP_EXPECT_INT(lo[k], k ? hi[k - 1] + 1 :
					     SLUICE_MP_SPORT_BASE) ||
			    !KTAP_EXPECT(hi[k] < 32768))
				return false;
		}
		if (n > SLUICE_MP_PATHS_MAX)
			n = SLUICE_MP_PATHS_MAX;
		for (port = SLUICE_MP_SPORT_BASE - 2;
		     port < SLUICE_MP_SPORT_BASE + (n + 2) * SLUICE_MP_SPORT_WIDTH;
		     port++) {
			want = UINT32_MAX;
			for (k = 0; k < n; k++)
				if (port >= lo[k] && port <= hi[k])
					want = k;
			ret = sluice_fabric_sport_path(r, r->pair_src[p],
						       r->pair_dst[p], port,
						       &got);
			if (!KTAP_EXPECT_INT(ret, want == UINT32_MAX ? -ERANGE : 0) ||
			    (!ret && !KTAP_EXPECT_INT(got, want)))
				return false;
		}
	}
	return true;
}

static void test_sports(void)
{
	struct sluice_routes r;
	struct sluice_graph g;
	uint16_t lo, hi;
	uint32_t k;

	/* 3 paths a pair */
	if (!KTAP_EXPECT_INT(sluice_topo_leafspine(&g, 2, 3, 1, 1, err, sizeof(err)), 0) ||
	    !KTAP_EXPECT_INT(compute(&g, SLUICE_ROUTE_ECMP, 0, 0, &r), 0))
		goto out;
	check_sports(&r);
	KTAP_EXPECT_INT(sluice_fabric_path_sport(&r, 0, 1, 2, &lo, &hi, err,
						 sizeof(err)), 0);
	KTAP_EXPECT_INT(lo, 20128);
	KTAP_EXPECT_INT(hi, 20191);
	KTAP_EXPECT_INT(sluice_fabric_path_sport(&r, 0, 1, 3, &lo, &hi, err,
						 sizeof(err)), -ERANGE);
	KTAP_EXPECT_STR(err, "the pair has 3 paths: no path 3");
	/* a spine is no endpoint: not a pair */
	KTAP_EXPECT_INT(sluice_fabric_path_sport(&r, 0, 2, 0, &lo, &hi, err,
						 sizeof(err)), -ENOENT);
	KTAP_EXPECT_INT(sluice_fabric_sport_path(&r, 0, 2, 20000, &k), -ENOENT);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	/* 12 parallel links each way: 144 paths, past the last range */
	if (!KTAP_EXPECT_INT(sluice_topo_leafspine(&g, 2, 1, 12, 1, err, sizeof(err)), 0) ||
	    !KTAP_EXPECT_INT(compute(&g, SLUICE_ROUTE_ECMP, 0, 0, &r), 0))
		goto out;
	KTAP_EXPECT_INT(sluice_routes_pair_paths(&r, 0), 144);
	check_sports(&r);
	KTAP_EXPECT_INT(sluice_fabric_path_sport(&r, 0, 1, 127, &lo, &hi, err,
						 sizeof(err)), 0);
	KTAP_EXPECT_INT(hi, 28191);
	KTAP_EXPECT_INT(sluice_fabric_path_sport(&r, 0, 1, 128, &lo, &hi, err,
						 sizeof(err)), -E2BIG);
	KTAP_EXPECT_INT(sluice_fabric_sport_path(&r, 0, 1, 28192, &k), -ERANGE);
	sluice_routes_free(&r);
out:
	sluice_graph_free(&g);
	ktap_result("sport_ranges");
}

/*
 * The weights of @cap by brute force: the smallest weight t of the
 * largest capacity that makes every other weight cap * t / max whole;
 * false if no t up to SLUICE_MP_WEIGHT_MAX does.
 */
static bool brute_weights(const uint64_t *cap, uint32_t n, uint32_t *w)
{
	uint64_t max = 0;
	uint32_t t, i;

	for (i = 0; i < n; i++)
		max = cap[i] > max ? cap[i] : max;
	for (t = 1; t <= SLUICE_MP_WEIGHT_MAX; t++) {
		for (i = 0; i < n && cap[i] * t % max == 0; i++)
			w[i] = cap[i] * t / max;
		if (i == n)
			return true;
	}
	return false;
}

static void test_weights(void)
{
	uint64_t faca[] = { 380, 380, 380, 380, 400, 400, 400, 400 };
	uint64_t cap[8], max;
	uint32_t w[8], want[8], n, i, trial;
	struct sluice_rng rng;
	double ideal;
	bool ok = true;

	sluice_wcmp_weights(faca, 8, w);
	KTAP_EXPECT_INT(w[0], 19);
	KTAP_EXPECT_INT(w[7], 20);
	sluice_rng_seed(&rng, 19);
	for (trial = 0; ok && trial < 2000; trial++) {
		n = 1 + sluice_rng_below(&rng, 8);
		max = 0;
		for (i = 0; i < n; i++) {
			/* half the trials in a range where whole ratios fit */
			cap[i] = 1 + sluice_rng_below(&rng, trial % 2 ? 40 : 1000);
			cap[i] *= trial % 3 ? 1000000 : 1;
			max = cap[i] > max ? cap[i] : max;
		}
		sluice_wcmp_weights(cap, n, w);
		if (brute_weights(cap, n, want)) {
			for (i = 0; ok && i < n; i++)
				ok = KTAP_EXPECT_INT(w[i], want[i]);
			continue;
		}
		for (i = 0; ok && i < n; i++) {
			ideal = (double)cap[i] * SLUICE_MP_WEIGHT_MAX / max;
			/* the nearest whole weight, 1 for what rounds to 0 */
			ok = KTAP_EXPECT(w[i] >= 1 && w[i] <= SLUICE_MP_WEIGHT_MAX) &&
			     KTAP_EXPECT((w[i] == 1 && ideal < 1) ||
					 (w[i] - ideal <= 0.5 + 1e-9 &&
					  ideal - w[i] <= 0.5 + 1e-9));
			if (cap[i] == max)
				ok = ok && KTAP_EXPECT_INT(w[i], SLUICE_MP_WEIGHT_MAX);
		}
	}
	ktap_result("wcmp_weights");
}

static const struct {
	const char	*list;
	uint64_t	rate;
	int		ret;
	const char	*err;
} bad_rates[] = {
	{ "spine0=3mbit", 0, -EINVAL, "node rates slow some links below the others': give the fabric's --rate" },
	{ "", 4000000, -EINVAL, "no NODE=RATE" },
	{ "spine0", 4000000, -EINVAL, "\"spine0\" is not NODE=RATE" },
	{ "=3mbit", 4000000, -EINVAL, "\"=3mbit\" is not NODE=RATE" },
	{ "spine9=3mbit", 4000000, -ENOENT, "the topology has no node \"spine9\"" },
	{ "spine=3mbit", 4000000, -ENOENT, "the topology has no node \"spine\"" },
	{ "spine0=fast", 4000000, -EINVAL, "spine0: \"fast\" is not a rate above 0 (380mbit, 1gbit)" },
	{ "spine0=0", 4000000, -EINVAL, "spine0: \"0\" is not a rate above 0 (380mbit, 1gbit)" },
	{ "spine0=5mbit", 4000000, -ERANGE, "spine0: 5mbit is above the fabric's --rate: a node rate slows a node's links, whose thresholds --rate sized" },
	{ "spine0=3mbit,spine0=2mbit", 4000000, -EINVAL, "spine0 is given twice" },
	{ "spine0=3mbit,", 4000000, -EINVAL, "\"\" is not NODE=RATE" },
};

/*
 * A port's own rate before its link's: leaf0's uplink to spine1 (adjacency
 * 1) at 4 Mbit/s while spine1's end of that link (adjacency 6) keeps
 * the link's 2 Mbit/s; a port without one keeps its link's.
 */
static void port_rates(const struct sluice_graph *g)
{
	uint64_t link_rate[4] = { 4000000, 2000000, 4000000, 2000000 };
	uint64_t port_rate[8] = { 0, 4000000 };
	struct sluice_fabric_qdisc q = {
		.link = { .present = SLUICE_QOPT_RATE, .rate = 4000000 },
		.link_rate = link_rate, .port_rate = port_rate,
	};
	struct sluice_fabric f;
	struct sluice_qopt o;

	if (!KTAP_EXPECT_INT(sluice_fabric_plan(&f, g, "p",
						SLUICE_FABRIC_HOSTS_DEFAULT,
						err, sizeof(err)), 0))
		return;
	KTAP_EXPECT_INT(g->off[3], 6);
	sluice_fabric_port_qopt(&f, &q, 0, 1, &o);
	KTAP_EXPECT_INT(o.rate, 4000000);
	KTAP_EXPECT(o.present & SLUICE_QOPT_RATE);
	sluice_fabric_port_qopt(&f, &q, 3, 0, &o);
	KTAP_EXPECT_INT(o.rate, 2000000);
	sluice_fabric_port_qopt(&f, &q, 1, 1, &o);
	KTAP_EXPECT_INT(o.rate, 2000000);
	q.link_rate = NULL;
	sluice_fabric_port_qopt(&f, &q, 1, 1, &o);
	KTAP_EXPECT_INT(o.rate, 4000000);
	sluice_fabric_free(&f);
}

static void test_node_rates(void)
{
	struct sluice_graph g;
	uint64_t node[4], *link;
	uint32_t i;

	if (!KTAP_EXPECT_INT(sluice_topo_leafspine(&g, 2, 2, 1, 1, err, sizeof(err)), 0))
		return;
	for (i = 0; i < ARRAY_SIZE(bad_rates); i++) {
		memset(node, 0, sizeof(node));
		err[0] = '\0';
		if (!KTAP_EXPECT_INT(sluice_node_rates_parse(&g, bad_rates[i].list,
							     bad_rates[i].rate,
							     node, err, sizeof(err)),
				     bad_rates[i].ret) ||
		    !KTAP_EXPECT_STR(err, bad_rates[i].err))
			ktap_diag("node rates \"%s\"", bad_rates[i].list);
	}
	memset(node, 0, sizeof(node));
	KTAP_EXPECT_INT(sluice_node_rates_parse(&g, "spine1=2mbit,leaf1=3800kbit",
						4000000, node, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(node[0], 0);
	KTAP_EXPECT_INT(node[1], 3800000);
	KTAP_EXPECT_INT(node[3], 2000000);
	/* links: leaf0-spine0, leaf0-spine1, leaf1-spine0, leaf1-spine1 */
	if (KTAP_EXPECT_INT(sluice_fabric_link_rates(&g, 4000000,
						     "spine1=2mbit,leaf1=3800kbit",
						     &link, err, sizeof(err)), 0)) {
		KTAP_EXPECT_INT(link[0], 4000000);
		KTAP_EXPECT_INT(link[1], 2000000);
		KTAP_EXPECT_INT(link[2], 3800000);
		KTAP_EXPECT_INT(link[3], 2000000);
		free(link);
	}
	KTAP_EXPECT_INT(sluice_fabric_link_rates(&g, 0, NULL, &link, err,
						 sizeof(err)), 0);
	KTAP_EXPECT(link && !link[0] && !link[3]);
	free(link);
	KTAP_EXPECT_INT(sluice_fabric_link_rates(&g, 4000000, "x=1mbit", &link,
						 err, sizeof(err)), -ENOENT);
	KTAP_EXPECT(!link);
	port_rates(&g);
	sluice_graph_free(&g);
	ktap_result("node_rates");
}

/* The text of every route of @s, one a line. */
static void routes_text(const struct sluice_lroutes *s, char *buf, size_t len)
{
	size_t at = 0;
	uint64_t i;

	buf[0] = '\0';
	for (i = 0; i < s->n_routes && at < len; i++) {
		at += sluice_lroute_format(s, i, buf + at, len - at);
		if (at < len - 1)
			buf[at++] = '\n';
		buf[at < len ? at : len - 1] = '\0';
	}
}

/* leaf0's routes of a 2 x 2 leaf-spine in each mode. */
static const char *const leaf0[] = {
	[SLUICE_MP_HASH] =
	"label 100 via 172.16.0.1 dev l0\n"
	"label 101 via 172.16.0.3 dev l1\n"
	"10.0.1.0/24 nexthop via 172.16.0.1 dev l0 labels 101 nexthop via 172.16.0.3 dev l1 labels 101\n",
	[SLUICE_MP_WCMP] =
	"label 100 via 172.16.0.1 dev l0\n"
	"label 101 via 172.16.0.3 dev l1\n"
	"10.0.1.0/24 nexthop via 172.16.0.1 dev l0 labels 101 weight 19 nexthop via 172.16.0.3 dev l1 labels 101 weight 20\n",
	[SLUICE_MP_EXACT] =
	"label 100 via 172.16.0.1 dev l0\n"
	"label 101 via 172.16.0.3 dev l1\n"
	"10.0.1.0/24 nexthop via 172.16.0.1 dev l0 labels 101 nexthop via 172.16.0.3 dev l1 labels 101\n"
	"10.0.1.0/24 table 1800 via 172.16.0.1 dev l0 labels 101\n"
	"10.0.1.0/24 table 1801 via 172.16.0.3 dev l1 labels 101\n"
	"rule pref 1800 ipproto tcp sport 20000-20063 lookup 1800\n"
	"rule pref 1800 ipproto udp sport 20000-20063 lookup 1800\n"
	"rule pref 1801 ipproto tcp sport 20064-20127 lookup 1801\n"
	"rule pref 1801 ipproto udp sport 20064-20127 lookup 1801\n",
};

static void test_build_leafspine(void)
{
	uint64_t rates[4] = { 3800000, 4000000, 3800000, 4000000 };
	struct sluice_multipath mp = { .link_rate = rates };
	struct sluice_lroutes s, h;
	struct sluice_routes r;
	struct sluice_graph g;
	struct sluice_ldiff d;
	char buf[2048];

	sluice_lroutes_init(&s, SLUICE_NONE);
	sluice_lroutes_init(&h, SLUICE_NONE);
	if (!KTAP_EXPECT_INT(sluice_topo_leafspine(&g, 2, 2, 1, 1, err, sizeof(err)), 0))
		return;
	if (!KTAP_EXPECT_INT(compute(&g, SLUICE_ROUTE_ECMP, 0, 0, &r), 0))
		goto out;
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r, 0, &h, err, sizeof(err)), 0);
	routes_text(&h, buf, sizeof(buf));
	KTAP_EXPECT_STR(buf, leaf0[SLUICE_MP_HASH]);
	for (mp.mode = 0; mp.mode < SLUICE_MP__COUNT; mp.mode++) {
		if (!KTAP_EXPECT_INT(sluice_lroutes_build_mp(&g, &r, 0, &mp, &s, err,
							     sizeof(err)), 0))
			continue;
		routes_text(&s, buf, sizeof(buf));
		/* hash5 and sport are hash's routes: only the hash differs */
		KTAP_EXPECT_STR(buf, leaf0[mp.mode == SLUICE_MP_HASH5 ||
					   mp.mode == SLUICE_MP_SPORT ?
					   SLUICE_MP_HASH : mp.mode]);
	}
	/* exact's routes and rules, described for messages */
	mp.mode = SLUICE_MP_EXACT;
	KTAP_EXPECT_INT(sluice_lroutes_build_mp(&g, &r, 0, &mp, &s, err,
						sizeof(err)), 0);
	KTAP_EXPECT_INT(s.n_routes, 9);
	sluice_lroute_describe(&g, &r, &s, 3, buf, sizeof(buf));
	KTAP_EXPECT_STR(buf, "route to leaf1 on path 0 (10.0.1.0/24 table 1800; paths 0 2)");
	sluice_lroute_describe(&g, &r, &s, 8, buf, sizeof(buf));
	KTAP_EXPECT_STR(buf, "rule of path 1 (rule pref 1801 ipproto udp sport 20064-20127 lookup 1801)");
	/* hash to exact: 2 routes and 4 rules added; the rules keyed apart */
	KTAP_EXPECT_INT(sluice_lroutes_diff(&s, &h, &d, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(d.added, 6);
	KTAP_EXPECT_INT(d.unchanged, 3);
	KTAP_EXPECT_INT(d.replaced + d.deleted, 0);
	sluice_ldiff_free(&d);
	KTAP_EXPECT(sluice_lroute_cmp_key(&s.routes[5], &s.routes[6]) < 0);
	/* wcmp and hash differ by weight alone: a replace */
	mp.mode = SLUICE_MP_WCMP;
	sluice_lroutes_build_mp(&g, &r, 0, &mp, &s, err, sizeof(err));
	KTAP_EXPECT_INT(sluice_lroutes_diff(&s, &h, &d, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(d.replaced, 1);
	KTAP_EXPECT_INT(d.unchanged, 2);
	sluice_ldiff_free(&d);
	/* wcmp without a link's rate */
	rates[3] = 0;
	KTAP_EXPECT_INT(sluice_lroutes_build_mp(&g, &r, 0, &mp, &s, err,
						sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "wcmp weighs paths by their links' rates: link 3 has none");
	mp.link_rate = NULL;
	KTAP_EXPECT_INT(sluice_lroutes_build_mp(&g, &r, 0, &mp, &s, err,
						sizeof(err)), -EINVAL);
	sluice_routes_free(&r);
out:
	sluice_lroutes_free(&s);
	sluice_lroutes_free(&h);
	sluice_graph_free(&g);
	ktap_result("build_leafspine");
}

/*
 * Exact's routes of @u: for each pair and path index k, table k's route to
 * the destination has one nexthop, the main route's k-th (same device,
 * address and labels); a rule per protocol and index below the most paths
 * of a pair; nothing else but the label routes and the main routes.
 */
static bool check_exact(const struct sluice_graph *g,
			const struct sluice_routes *r, uint32_t u,
			const struct sluice_lroutes *s)
{
	uint64_t p, i, j, counted = 0;
	uint32_t k, n, most = 0, rules = 0;
	const struct sluice_lroute *x = NULL, *main;

	for (p = 0; p < r->n_pairs; p++) {
		n = sluice_routes_pair_paths(r, p);
		if (r->pair_src[p] != u || !n)
			continue;
		most = n > most ? n : most;
		main = NULL;
		for (i = 0; i < s->n_routes; i++)
			if (s->routes[i].family == SLUICE_LR_INET &&
			    s->routes[i].table == SLUICE_TABLE_MAIN &&
			    s->routes[i].dst == sluice_fabric_node_prefix(r->pair_dst[p]))
				main = &s->routes[i];
		if (!KTAP_EXPECT(main) || !KTAP_EXPECT_INT(main->n_nh, n))
			return false;
		counted++;
		for (k = 0; k < n; k++) {
			for (j = 0; j < s->n_routes; j++) {
				x = &s->routes[j];
				if (x->family == SLUICE_LR_INET &&
				    x->table == SLUICE_MP_TABLE(k) &&
				    x->dst == main->dst)
					break;
			}
			if (!KTAP_EXPECT(j < s->n_routes) ||
			    !KTAP_EXPECT_INT(x->n_nh, 1) ||
			    !KTAP_EXPECT_INT(x->path, k) ||
			    !KTAP_EXPECT_STR(s->nhs[x->nh].dev,
					     s->nhs[main->nh + k].dev) ||
			    !KTAP_EXPECT_INT(s->nhs[x->nh].via,
					     s->nhs[main->nh + k].via) ||
			    !KTAP_EXPECT_INT(s->nhs[x->nh].n_labels,
					     s->nhs[main->nh + k].n_labels) ||
			    !KTAP_EXPECT(!s->nhs[x->nh].n_labels ||
					 !memcmp(&s->labels[s->nhs[x->nh].label],
						 &s->labels[s->nhs[main->nh + k].label],
						 4 * s->nhs[x->nh].n_labels)))
				return false;
			counted++;
		}
	}
	for (i = 0; i < s->n_routes; i++) {
		x = &s->routes[i];
		if (x->family != SLUICE_LR_RULE)
			continue;
		if (!KTAP_EXPECT(x->path < most) ||
		    !KTAP_EXPECT(x->ip_proto == IPPROTO_TCP ||
				 x->ip_proto == IPPROTO_UDP) ||
		    !KTAP_EXPECT_INT(x->sport_lo, SLUICE_MP_SPORT_BASE +
				     x->path * SLUICE_MP_SPORT_WIDTH) ||
		    !KTAP_EXPECT_INT(x->table, SLUICE_MP_TABLE(x->path)))
			return false;
		rules++;
	}
	return KTAP_EXPECT_INT(rules, 2 * most) &&
	       KTAP_EXPECT_INT(s->n_routes, sluice_graph_degree(g, u) +
			       counted + rules);
}

/* Random Jellyfish fabrics, up to 4 paths a pair: exact against its rule. */
static void test_build_exact(void)
{
	struct sluice_multipath mp = { .mode = SLUICE_MP_EXACT };
	struct sluice_lroutes s;
	struct sluice_routes r;
	struct sluice_graph g;
	uint64_t seed;
	uint32_t u;
	bool ok = true;

	sluice_lroutes_init(&s, SLUICE_NONE);
	for (seed = 1; ok && seed <= 20; seed++) {
		if (!KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, 8, 3, 1, seed, err,
							   sizeof(err)), 0))
			break;
		ok = KTAP_EXPECT_INT(compute(&g, SLUICE_ROUTE_KSP, 1 + seed % 4,
					     0, &r), 0);
		for (u = 0; ok && u < g.n_nodes; u++)
			ok = KTAP_EXPECT_INT(sluice_lroutes_build_mp(&g, &r, u, &mp,
								     &s, err,
								     sizeof(err)),
					     0) &&
			     check_exact(&g, &r, u, &s);
		if (!ok)
			ktap_diag("jellyfish seed %llu", (unsigned long long)seed);
		sluice_routes_free(&r);
		sluice_graph_free(&g);
	}
	sluice_lroutes_free(&s);
	ktap_result("build_exact");
}

/* What exact refuses: lanes, and more paths than it has ranges. */
static void test_exact_refusals(void)
{
	struct sluice_multipath mp = { .mode = SLUICE_MP_EXACT };
	struct sluice_lroutes s;
	struct sluice_routes r;
	struct sluice_graph g;

	sluice_lroutes_init(&s, SLUICE_NONE);
	if (KTAP_EXPECT_INT(sluice_topo_ring(&g, 4, 1, err, sizeof(err)), 0) &&
	    KTAP_EXPECT_INT(compute(&g, SLUICE_ROUTE_EDST, 0, 2, &r), 0)) {
		KTAP_EXPECT_INT(sluice_lroutes_build_mp(&g, &r, 0, &mp, &s, err,
							sizeof(err)), -EINVAL);
		KTAP_EXPECT_STR(err, "exact mode picks a pair's path by source port, a route set of 2 lanes picks it by DSCP: not both");
		mp.mode = SLUICE_MP_HASH5;
		KTAP_EXPECT_INT(sluice_lroutes_build_mp(&g, &r, 0, &mp, &s, err,
							sizeof(err)), 0);
		sluice_routes_free(&r);
	}
	sluice_graph_free(&g);
	mp.mode = SLUICE_MP_EXACT;
	if (KTAP_EXPECT_INT(sluice_topo_leafspine(&g, 2, 1, 12, 1, err, sizeof(err)), 0) &&
	    KTAP_EXPECT_INT(compute(&g, SLUICE_ROUTE_ECMP, 0, 0, &r), 0)) {
		KTAP_EXPECT_INT(sluice_lroutes_build_mp(&g, &r, 0, &mp, &s, err,
							sizeof(err)), -E2BIG);
		KTAP_EXPECT_STR(err, "leaf0 -> leaf1 has 144 paths: exact mode gives source ports to 128 at most (route compute --paths 128)");
		/* the spine has no pair: nothing to refuse there */
		KTAP_EXPECT_INT(sluice_lroutes_build_mp(&g, &r, 2, &mp, &s, err,
							sizeof(err)), 0);
		sluice_routes_free(&r);
	}
	sluice_graph_free(&g);
	sluice_lroutes_free(&s);
	ktap_result("exact_refusals");
}

static void test_check(void)
{
	struct sluice_fabric_qdisc q = { .enabled = true };

	KTAP_EXPECT_INT(sluice_fabric_multipath_check(SLUICE_MP_WCMP, NULL, err,
						      sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "wcmp weighs each path by its slowest link: give the links' --rate (and --node-rate for slower nodes)");
	KTAP_EXPECT_INT(sluice_fabric_multipath_check(SLUICE_MP_WCMP, &q, err,
						      sizeof(err)), -EINVAL);
	q.link.present = SLUICE_QOPT_RATE;
	q.link.rate = 1000000;
	KTAP_EXPECT_INT(sluice_fabric_multipath_check(SLUICE_MP_WCMP, &q, err,
						      sizeof(err)), 0);
	q.lanes = 2;
	KTAP_EXPECT_INT(sluice_fabric_multipath_check(SLUICE_MP_EXACT, &q, err,
						      sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "exact picks a path by source port, lanes pick one by DSCP: not both (hash5 and wcmp go with lanes)");
	KTAP_EXPECT_INT(sluice_fabric_multipath_check(SLUICE_MP_HASH5, &q, err,
						      sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_fabric_multipath_check(SLUICE_MP_EXACT, NULL, err,
						      sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_fabric_multipath_check(SLUICE_MP__COUNT, NULL,
						      err, sizeof(err)), -EINVAL);
	ktap_result("mode_check");
}

/* Writes @s's state and topology under $SLUICE_RUN_DIR, as sluicectl does. */
static bool write_state(const struct sluice_fabric_state *s)
{
	return KTAP_EXPECT_INT(sluice_fabric_state_write(s, err, sizeof(err)),
			       0);
}

static void test_state(void)
{
	struct sluice_fabric_state s, back;
	struct sluice_multipath mp;
	uint64_t *rates;
	char path[4096];
	FILE *f;

	memset(&s, 0, sizeof(s));
	snprintf(s.name, sizeof(s.name), "mp");
	snprintf(s.topo_path, sizeof(s.topo_path), "/x/ls.json");
	s.hosts_per_switch = SLUICE_FABRIC_HOSTS_DEFAULT;
	s.qdisc = true;
	snprintf(s.qdisc_args, sizeof(s.qdisc_args), "rate 4mbit pfc 3");
	s.multipath = SLUICE_MP_WCMP;
	snprintf(s.node_rates, sizeof(s.node_rates), "spine0=3800kbit");
	if (!KTAP_EXPECT_INT(sluice_topo_leafspine(&s.g, 2, 2, 1, 1, err,
						   sizeof(err)), 0))
		return;
	s.hash = sluice_graph_hash(&s.g);
	if (write_state(&s) &&
	    KTAP_EXPECT_INT(sluice_fabric_state_read("mp", &back, err,
						     sizeof(err)), 0)) {
		KTAP_EXPECT_INT(back.multipath, SLUICE_MP_WCMP);
		KTAP_EXPECT_INT(back.f.multipath, SLUICE_MP_WCMP);
		KTAP_EXPECT_STR(back.node_rates, "spine0=3800kbit");
		KTAP_EXPECT_STR(back.qdisc_args, "rate 4mbit pfc 3");
		KTAP_EXPECT_INT(back.lanes, 0);
		if (KTAP_EXPECT_INT(sluice_fabric_state_multipath(&back, back.multipath,
								  &mp, &rates, err,
								  sizeof(err)), 0)) {
			KTAP_EXPECT_INT(mp.mode, SLUICE_MP_WCMP);
			KTAP_EXPECT(mp.link_rate == rates);
			KTAP_EXPECT_INT(rates[0], 3800000);
			KTAP_EXPECT_INT(rates[1], 4000000);
			free(rates);
		}
		/* the other modes need no rates */
		KTAP_EXPECT_INT(sluice_fabric_state_multipath(&back, SLUICE_MP_EXACT,
							      &mp, &rates, err,
							      sizeof(err)), 0);
		KTAP_EXPECT(!rates && !mp.link_rate);
		sluice_fabric_state_free(&back);
	}
	/* hash and no node rate: no line of either, as older states */
	s.multipath = SLUICE_MP_HASH;
	s.node_rates[0] = '\0';
	snprintf(s.qdisc_args, sizeof(s.qdisc_args), "pfc 3");
	if (write_state(&s) &&
	    KTAP_EXPECT_INT(sluice_fabric_state_read("mp", &back, err,
						     sizeof(err)), 0)) {
		KTAP_EXPECT_INT(back.multipath, SLUICE_MP_HASH);
		KTAP_EXPECT_INT(sluice_fabric_state_multipath(&back, SLUICE_MP_WCMP,
							      &mp, &rates, err,
							      sizeof(err)), -EINVAL);
		KTAP_EXPECT_STR(err, "wcmp weighs each path by its slowest link: fabric mp's links have no rate (fabric up --rate)");
		sluice_fabric_state_free(&back);
	}
	snprintf(path, sizeof(path), "%s/mp/fabric", cli_path("run"));
	f = fopen(path, "r");
	if (KTAP_EXPECT(f)) {
		char text[512] = "";

		KTAP_EXPECT(fread(text, 1, sizeof(text) - 1, f) > 0);
		fclose(f);
		KTAP_EXPECT(!strstr(text, "multipath") && !strstr(text, "node-rate"));
	}
	/* a node rate naming no node, a mode unknown: not a state */
	snprintf(s.node_rates, sizeof(s.node_rates), "spine7=1mbit");
	snprintf(s.qdisc_args, sizeof(s.qdisc_args), "rate 4mbit");
	if (write_state(&s)) {
		KTAP_EXPECT_INT(sluice_fabric_state_read("mp", &back, err,
							 sizeof(err)), -ENOENT);
		KTAP_EXPECT_STR(err, "fabric mp: node-rate: the topology has no node \"spine7\"");
	}
	f = fopen(path, "w");
	if (KTAP_EXPECT(f)) {
		fprintf(f, "sluice-fabric 1\nname mp\ntopology /x\nhash %016llx\nmultipath ecmp\nend\n",
			(unsigned long long)s.hash);
		fclose(f);
		KTAP_EXPECT_INT(sluice_fabric_state_read("mp", &back, err,
							 sizeof(err)), -EINVAL);
		KTAP_EXPECT(strstr(err, "/mp/fabric:5: not a fabric state file"));
	}
	/* removed whole, and removing what is gone is no error */
	KTAP_EXPECT_INT(sluice_fabric_state_remove("mp", err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/mp", cli_path("run"));
	KTAP_EXPECT(access(path, F_OK) && errno == ENOENT);
	KTAP_EXPECT_INT(sluice_fabric_state_remove("mp", err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_fabric_state_read("mp", &back, err,
						 sizeof(err)), -ENOENT);
	rmdir(cli_path("run"));
	sluice_graph_free(&s.g);
	ktap_result("state_round_trip");
}

int main(void)
{
	ktap_plan(9);
	cli_init();
	cli_mkdtemp("multipath");
	setenv("SLUICE_RUN_DIR", cli_path("run"), 1);
	test_names();
	test_sports();
	test_weights();
	test_node_rates();
	test_build_leafspine();
	test_build_exact();
	test_exact_refusals();
	test_check();
	test_state();
	cli_rmdir();
	return ktap_exit();
}
