// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fabric plan and route translation (sluice/fabric.h), without a
 * kernel: names and addresses by hand; port indexes against a scan; every
 * path of fc, ksp and edst route sets on random fabrics forwarded hop by
 * hop through the label routes built for all switches, as the kernel's
 * MPLS would, and compared with the path; the diff against a brute-force
 * key-by-key comparison on random route sets, applied and checked; the
 * errors; BCube's servers as their own hosts, the flow-control
 * choices' options, and the ports' INT labels.  Files written whole
 * (sluice/file.h): new, replaced through a link, in place into a FIFO's
 * reader, refused for a directory and a dangling link, and a writer's
 * failure leaving the old file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include <sluice/fabric_ping.h>
#include <sluice/file.h>
#include <sluice/graph.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "cli.h"
#include "ktap.h"

static char err[SLUICE_ERRLEN];

/*
 * FC's testbed, Fig. 4a, as selftests/topo/fc-testbed.json has it: a ring
 * of 4 switches with every link doubled, layers 1,2,1.
 */
static const char fig4a[] =
	"{\"format\":\"sluice-topology\",\"version\":1,\"layers\":[1,2,1],"
	"\"nodes\":[{\"name\":\"s1\",\"hosts\":4},{\"name\":\"s2\",\"hosts\":4},"
	"{\"name\":\"s3\",\"hosts\":4},{\"name\":\"s4\",\"hosts\":4}],"
	"\"links\":[{\"a\":0,\"b\":1,\"la\":1,\"lb\":2},{\"a\":0,\"b\":1,\"la\":2,\"lb\":3},"
	"{\"a\":1,\"b\":2,\"la\":1,\"lb\":2},{\"a\":1,\"b\":2,\"la\":2,\"lb\":3},"
	"{\"a\":2,\"b\":3,\"la\":1,\"lb\":2},{\"a\":2,\"b\":3,\"la\":2,\"lb\":3},"
	"{\"a\":3,\"b\":0,\"la\":1,\"lb\":2},{\"a\":3,\"b\":0,\"la\":2,\"lb\":3}]}";

static int read_topo(struct sluice_graph *g, const char *json)
{
	return sluice_graph_read_buf(g, json, strlen(json), err, sizeof(err));
}

static int compute(const struct sluice_graph *g, enum sluice_route_algo algo,
		   uint32_t paths, struct sluice_routes *r)
{
	struct sluice_route_opts o = { .algo = algo, .paths = paths };
	struct sluice_compute_opts c = { .threads = 1 };

	return sluice_routes_compute(g, &o, &c, r, err, sizeof(err));
}

static void test_names(void)
{
	char buf[SLUICE_NETNS_NAME_MAX], a[16];
	struct sluice_fabric f;
	struct sluice_graph g;
	uint32_t u, h;

	if (!KTAP_EXPECT_INT(read_topo(&g, fig4a), 0)) {
		ktap_diag("%s", err);
		ktap_result("names");
		return;
	}
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "lab", SLUICE_FABRIC_HOSTS_DEFAULT,
					   err, sizeof(err)), 0);
	KTAP_EXPECT_INT(f.n_hosts, 16);
	KTAP_EXPECT_INT(f.max_degree, 4);
	KTAP_EXPECT_INT(f.host_first[2], 8);
	sluice_fabric_switch_ns(&f, 2, buf, sizeof(buf));
	KTAP_EXPECT_STR(buf, "lab-s3");
	sluice_fabric_host_ns(&f, 2, 3, buf, sizeof(buf));
	KTAP_EXPECT_STR(buf, "lab-s3-h3");
	sluice_fabric_host_name(&f, 0, 1, buf, sizeof(buf));
	KTAP_EXPECT_STR(buf, "s1-h1");
	KTAP_EXPECT_INT(sluice_fabric_find(&f, "s4", &u, &h), 0);
	KTAP_EXPECT(u == 3 && h == SLUICE_NONE);
	KTAP_EXPECT_INT(sluice_fabric_find(&f, "s2-h3", &u, &h), 0);
	KTAP_EXPECT(u == 1 && h == 3);
	KTAP_EXPECT_INT(sluice_fabric_find(&f, "s2-h4", &u, &h), -ENOENT);
	KTAP_EXPECT_INT(sluice_fabric_find(&f, "s2-h01", &u, &h), -ENOENT);
	KTAP_EXPECT_INT(sluice_fabric_find(&f, "s5", &u, &h), -ENOENT);
	KTAP_EXPECT_INT(sluice_fabric_find(&f, "s2-h", &u, &h), -ENOENT);
	/* addresses of the scheme, by hand */
	sluice_ipv4_format(sluice_fabric_link_addr(0, 0), a, sizeof(a));
	KTAP_EXPECT_STR(a, "172.16.0.0");
	sluice_ipv4_format(sluice_fabric_link_addr(7, 1), a, sizeof(a));
	KTAP_EXPECT_STR(a, "172.16.0.15");
	sluice_ipv4_format(sluice_fabric_link_addr(200, 1), a, sizeof(a));
	KTAP_EXPECT_STR(a, "172.16.1.145");
	sluice_ipv4_format(sluice_fabric_link_addr(SLUICE_FABRIC_LINKS_MAX - 1, 1),
			   a, sizeof(a));
	KTAP_EXPECT_STR(a, "172.31.255.255");
	sluice_ipv4_format(sluice_fabric_host_addr(2, 3, true), a, sizeof(a));
	KTAP_EXPECT_STR(a, "10.0.2.7");
	sluice_ipv4_format(sluice_fabric_host_addr(2, 3, false), a, sizeof(a));
	KTAP_EXPECT_STR(a, "10.0.2.6");
	sluice_ipv4_format(sluice_fabric_host_addr(65535, 126, true), a, sizeof(a));
	KTAP_EXPECT_STR(a, "10.255.255.253");
	sluice_ipv4_format(sluice_fabric_node_prefix(258), a, sizeof(a));
	KTAP_EXPECT_STR(a, "10.1.2.0");
	sluice_fabric_free(&f);

	/* --hosts-per-switch */
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "x", 2, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(f.n_hosts, 8);
	sluice_fabric_free(&f);
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "x", 0, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(f.n_hosts, 0);
	sluice_fabric_free(&f);
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "x", 128, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "128 hosts per switch: 0 to 127");
	sluice_graph_free(&g);
	ktap_result("names");
}

static void test_name_errors(void)
{
	static const char *const bad[] = { "", "-x", "a b", "a/b", ".x",
		"abcdefghijabcdefghijabcdefghij12" };
	struct sluice_fabric f;
	struct sluice_graph g;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KTAP_EXPECT_INT(sluice_fabric_name_check(bad[i], err, sizeof(err)),
				-EINVAL);
	KTAP_EXPECT_INT(sluice_fabric_name_check("a-B_9.x", err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_fabric_name_check("abcdefghijabcdefghijabcdefghij1",
						 err, sizeof(err)), 0);
	sluice_fabric_name_check("-x", err, sizeof(err));
	KTAP_EXPECT_STR(err, "fabric name \"-x\": letters, digits and \"_.-\" only, the first a letter or digit");

	/* a node named like another's host */
	KTAP_EXPECT_INT(read_topo(&g, "{\"format\":\"sluice-topology\",\"version\":1,"
			"\"nodes\":[{\"name\":\"a\",\"hosts\":1},{\"name\":\"a-h0\",\"hosts\":1}],"
			"\"links\":[{\"a\":0,\"b\":1}]}"), 0);
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "f", SLUICE_FABRIC_HOSTS_DEFAULT,
					   err, sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "two namespaces would be called \"f-a-h0\" (a node named like another node's host)");
	/* with no hosts on a, no clash */
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "f", 0, err, sizeof(err)), 0);
	sluice_fabric_free(&f);
	sluice_graph_free(&g);

	KTAP_EXPECT_INT(read_topo(&g, "{\"format\":\"sluice-topology\",\"version\":1,"
			"\"nodes\":[{\"name\":\"r/1\",\"hosts\":1},{\"name\":\"r2\",\"hosts\":200}],"
			"\"links\":[{\"a\":0,\"b\":1}]}"), 0);
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "f", 1, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "node \"r/1\": a namespace name cannot hold \"/\"");
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "f", SLUICE_FABRIC_HOSTS_DEFAULT,
					   err, sizeof(err)), -E2BIG);
	KTAP_EXPECT_STR(err, "node r2 has 200 host ports: a fabric gives a switch at most 127 hosts (--hosts-per-switch)");
	sluice_graph_free(&g);

	/* no host ports anywhere: every node gets a host by default */
	KTAP_EXPECT_INT(sluice_topo_ring(&g, 5, 0, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "f", SLUICE_FABRIC_HOSTS_DEFAULT,
					   err, sizeof(err)), 0);
	KTAP_EXPECT_INT(f.n_hosts, 5);
	sluice_fabric_free(&f);
	sluice_graph_free(&g);
	/* only endpoints get hosts */
	KTAP_EXPECT_INT(sluice_topo_fattree(&g, 4, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "f", 3, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(f.n_hosts, 8 * 3);
	sluice_fabric_free(&f);
	sluice_graph_free(&g);
	ktap_result("name_errors");
}

static void test_port_index(void)
{
	struct sluice_graph g;
	uint32_t u, l, k, seed;
	bool ok = true;
	int j, want;

	for (seed = 1; seed <= 20 && ok; seed++) {
		if (!KTAP_EXPECT_INT(sluice_topo_leafspine(&g, 3 + seed % 4, 2 + seed % 3,
							   1 + seed % 3, 1, err,
							   sizeof(err)), 0))
			break;
		for (u = 0; u < g.n_nodes && ok; u++)
			for (l = 0; l < g.n_links && ok; l++) {
				/* the scan: link ports of u in link id order */
				want = -ENOENT;
				for (j = 0, k = 0; k < g.n_links; k++) {
					if (g.links[k].a != u && g.links[k].b != u)
						continue;
					if (k == l) {
						want = j;
						break;
					}
					j++;
				}
				ok = KTAP_EXPECT_INT(sluice_fabric_port_index(&g, u, l),
						     want);
			}
		sluice_graph_free(&g);
	}
	ktap_result("port_index");
}

/* The route of @s with key (@family, @dst), or NULL. */
static const struct sluice_lroute *lookup(const struct sluice_lroutes *s,
					  uint8_t family, uint32_t dst)
{
	uint64_t i;

	for (i = 0; i < s->n_routes; i++)
		if (s->routes[i].family == family && s->routes[i].dst == dst)
			return &s->routes[i];
	return NULL;
}

/* The link a nexthop leaves @at by, checking its device and via. */
static bool out_link(const struct sluice_graph *g, uint32_t at,
		     const struct sluice_lnh *nh, uint32_t *link)
{
	char *end;

	if (!KTAP_EXPECT(nh->dev[0] == 'l'))
		return false;
	*link = strtoul(nh->dev + 1, &end, 10);
	if (!KTAP_EXPECT(!*end && *link < g->n_links) ||
	    !KTAP_EXPECT(g->links[*link].a == at || g->links[*link].b == at))
		return false;
	/* via the address of the other end */
	return KTAP_EXPECT_INT(nh->via, 0xac100000u + 2 * *link +
			       (g->links[*link].a == at));
}

/*
 * Forwards a packet from the source of pair @p along nexthop @k of its
 * route, through the label routes of every switch, as the kernel does:
 * push at the source, pop at each switch, deliver when the stack is
 * empty.  The links walked must be the path's, ending at the destination.
 */
static bool forward(const struct sluice_graph *g, const struct sluice_routes *r,
		    const struct sluice_lroutes *sets, uint64_t p, uint32_t k)
{
	uint32_t src = r->pair_src[p], dst = r->pair_dst[p], at, link, n, top;
	const struct sluice_lroute *route;
	const struct sluice_lnh *nh;
	uint32_t stack[64], walked[64];
	uint64_t q = r->pair_path[p] + k, h;
	const uint32_t *labels;
	uint32_t sp, i;

	route = lookup(&sets[src], SLUICE_LR_INET,
		       10u << 24 | (dst >> 8) << 16 | (dst & 255) << 8);
	if (!KTAP_EXPECT(route) || !KTAP_EXPECT_INT(route->dst_len, 24) ||
	    !KTAP_EXPECT_INT(route->n_nh, sluice_routes_pair_paths(r, p)))
		return false;
	nh = &sets[src].nhs[route->nh + k];
	labels = &sets[src].labels[nh->label];
	if (!out_link(g, src, nh, &link))
		return false;
	/* the stack, top at the end */
	for (sp = 0; sp < nh->n_labels; sp++)
		stack[sp] = labels[nh->n_labels - 1 - sp];
	n = 0;
	walked[n++] = link;
	at = g->links[link].a == src ? g->links[link].b : g->links[link].a;
	while (sp) {
		top = stack[--sp];
		route = lookup(&sets[at], SLUICE_LR_MPLS, top);
		if (!KTAP_EXPECT(route) || !KTAP_EXPECT_INT(route->n_nh, 1))
			return false;
		nh = &sets[at].nhs[route->nh];
		if (!KTAP_EXPECT_INT(nh->n_labels, 0) ||
		    !out_link(g, at, nh, &link) || !KTAP_EXPECT(n < 64))
			return false;
		walked[n++] = link;
		at = g->links[link].a == at ? g->links[link].b : g->links[link].a;
	}
	if (!KTAP_EXPECT_INT(at, dst) ||
	    !KTAP_EXPECT_INT(n, sluice_routes_path_len(r, q)))
		return false;
	for (i = 0, h = r->path_hop[q]; i < n; i++, h++)
		if (!KTAP_EXPECT_INT(walked[i], r->hops[h]))
			return false;
	return true;
}

/* Builds every switch's routes and forwards every path of @r. */
static bool forward_all(const struct sluice_graph *g,
			const struct sluice_routes *r, uint64_t *paths)
{
	struct sluice_lroutes *sets = calloc(g->n_nodes, sizeof(*sets));
	uint64_t p, k, n_routes = 0, want_routes = 0;
	bool ok = KTAP_EXPECT(sets);
	uint32_t u;

	for (u = 0; ok && u < g->n_nodes; u++) {
		sluice_lroutes_init(&sets[u], u);
		ok = KTAP_EXPECT_INT(sluice_lroutes_build(g, r, u, &sets[u], err,
							  sizeof(err)), 0);
		if (!ok)
			ktap_diag("%s", err);
		n_routes += sets[u].n_routes;
		want_routes += sluice_graph_degree(g, u);
	}
	for (p = 0; ok && p < r->n_pairs; p++) {
		want_routes += sluice_routes_pair_paths(r, p) > 0;
		for (k = 0; ok && k < sluice_routes_pair_paths(r, p); k++) {
			ok = forward(g, r, sets, p, k);
			++*paths;
		}
	}
	/* nothing more than label routes and routes of pairs with a path */
	ok = ok && KTAP_EXPECT_INT(n_routes, want_routes);
	for (u = 0; sets && u < g->n_nodes; u++)
		sluice_lroutes_free(&sets[u]);
	free(sets);
	return ok;
}

static void test_forwarding(void)
{
	static const enum sluice_route_algo algos[] = {
		SLUICE_ROUTE_FC, SLUICE_ROUTE_KSP, SLUICE_ROUTE_EDST,
		SLUICE_ROUTE_ECMP,
	};
	struct sluice_fc_params fp = { 0 };
	struct sluice_routes r;
	struct sluice_graph g;
	uint64_t paths = 0;
	bool ok = true;
	uint32_t seed;
	size_t a;

	KTAP_EXPECT_INT(read_topo(&g, fig4a), 0);
	for (a = 0; ok && a < ARRAY_SIZE(algos); a++) {
		ok = KTAP_EXPECT_INT(compute(&g, algos[a], 4, &r), 0) &&
		     forward_all(&g, &r, &paths);
		sluice_routes_free(&r);
	}
	sluice_graph_free(&g);
	for (seed = 1; ok && seed <= 12; seed++) {
		if (seed % 2) {
			fp.switches = 10 + seed;
			fp.inter_ports = 6;
			fp.host_ports = 1;
			fp.layers = 3;
			fp.seed = seed;
			ok = KTAP_EXPECT_INT(sluice_topo_fc(&g, &fp, err, sizeof(err)), 0);
			if (!ok)
				ktap_diag("%s", err);
		} else {
			ok = KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, 8 + seed, 3, 1, seed,
								   err, sizeof(err)), 0);
		}
		for (a = seed % 2 ? 0 : 1; ok && a < ARRAY_SIZE(algos); a++) {
			ok = KTAP_EXPECT_INT(compute(&g, algos[a], 3, &r), 0) &&
			     forward_all(&g, &r, &paths);
			sluice_routes_free(&r);
		}
		sluice_graph_free(&g);
	}
	ktap_diag("%llu paths forwarded", (unsigned long long)paths);
	ktap_result("forwarding");
}

static void test_build_by_hand(void)
{
	struct sluice_lroutes s;
	struct sluice_routes r;
	struct sluice_graph g;
	char buf[512];

	KTAP_EXPECT_INT(read_topo(&g, fig4a), 0);
	KTAP_EXPECT_INT(compute(&g, SLUICE_ROUTE_FC, 0, &r), 0);
	sluice_lroutes_init(&s, SLUICE_NONE);
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r, 0, &s, err, sizeof(err)), 0);
	/* s1: ports l0, l1 (to s2), l6, l7 (to s4): labels 100-103 */
	if (KTAP_EXPECT_INT(s.n_routes, 4 + 3)) {
		sluice_lroute_format(&s, 0, buf, sizeof(buf));
		KTAP_EXPECT_STR(buf, "label 100 via 172.16.0.1 dev l0");
		sluice_lroute_format(&s, 1, buf, sizeof(buf));
		KTAP_EXPECT_STR(buf, "label 101 via 172.16.0.3 dev l1");
		sluice_lroute_format(&s, 3, buf, sizeof(buf));
		KTAP_EXPECT_STR(buf, "label 103 via 172.16.0.14 dev l7");
		sluice_lroute_describe(&g, &r, &s, 3, buf, sizeof(buf));
		KTAP_EXPECT_STR(buf, "label 103 (port l7 to s4)");
		/*
		 * s1 -> s3: 7 4 | 0 3: s4's ports are l4 l5 l6 l7 (l4 is
		 * 100), s2's l0 l1 l2 l3 (l3 is 103).
		 */
		sluice_lroute_format(&s, 5, buf, sizeof(buf));
		KTAP_EXPECT_STR(buf, "10.0.2.0/24 nexthop via 172.16.0.14 dev l7 labels 100 nexthop via 172.16.0.1 dev l0 labels 103");
		sluice_lroute_describe(&g, &r, &s, 5, buf, sizeof(buf));
		KTAP_EXPECT_STR(buf, "route to s3 (10.0.2.0/24; paths 7 4 | 0 3)");
		/* s1 -> s4: 7 | 6 */
		sluice_lroute_format(&s, 6, buf, sizeof(buf));
		KTAP_EXPECT_STR(buf, "10.0.3.0/24 nexthop via 172.16.0.14 dev l7 nexthop via 172.16.0.12 dev l6");
	}
	/* a single nexthop has no "nexthop" */
	sluice_lroutes_free(&s);
	sluice_lroutes_add(&s, SLUICE_LR_INET, 0x0a000300, 24, err, sizeof(err));
	sluice_lroutes_add_nh(&s, 0xac100001, "l0", (uint32_t[]){ 7, 8, 9 }, 3,
			      err, sizeof(err));
	sluice_lroute_format(&s, 0, buf, sizeof(buf));
	KTAP_EXPECT_STR(buf, "10.0.3.0/24 via 172.16.0.1 dev l0 labels 7/8/9");
	KTAP_EXPECT_INT(sluice_lroute_format(&s, 0, buf, 10), 46);
	KTAP_EXPECT_STR(buf, "10.0.3.0/");
	sluice_lroutes_free(&s);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("build_by_hand");
}

static void test_build_errors(void)
{
	struct sluice_lroutes s;
	struct sluice_routes r;
	struct sluice_graph g;

	/* ksp's second path around a ring of 40 is 39 links: 38 labels */
	KTAP_EXPECT_INT(sluice_topo_ring(&g, 40, 1, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(compute(&g, SLUICE_ROUTE_KSP, 2, &r), 0);
	sluice_lroutes_init(&s, 0);
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r, 0, &s, err, sizeof(err)),
			-E2BIG);
	KTAP_EXPECT_STR(err, "s0 -> s1 path 2 has 39 links: its 38 labels are more than the kernel pushes (30)");
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r, 40, &s, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "node 40 does not exist (40 nodes)");
	sluice_lroutes_free(&s);
	sluice_routes_free(&r);
	/* 31 links (30 labels) is fine: a ring of 32, ksp's second path */
	sluice_graph_free(&g);
	KTAP_EXPECT_INT(sluice_topo_ring(&g, 32, 1, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(compute(&g, SLUICE_ROUTE_KSP, 2, &r), 0);
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r, 0, &s, err, sizeof(err)), 0);
	sluice_lroutes_free(&s);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("build_errors");
}

/* A random route set over a small key space, each key at most once. */
static void random_set(struct sluice_rng *rng, struct sluice_lroutes *s,
		       bool dup)
{
	uint32_t key, n, k, l, labels[4];
	char dev[8];

	sluice_lroutes_init(s, SLUICE_NONE);
	for (key = 0; key < 24; key++) {
		if (sluice_rng_below(rng, 3) == 0)
			continue;
		n = 1 + (dup && !sluice_rng_below(rng, 6));
		while (n--) {
			sluice_lroutes_add(s, key % 2 ? SLUICE_LR_MPLS : SLUICE_LR_INET,
					   key / 2, key % 2 ? 20 : 24, err,
					   sizeof(err));
			for (k = 1 + sluice_rng_below(rng, 2); k; k--) {
				for (l = 0; l < 2; l++)
					labels[l] = sluice_rng_below(rng, 2);
				snprintf(dev, sizeof(dev), "l%u",
					 (unsigned)sluice_rng_below(rng, 2));
				sluice_lroutes_add_nh(s, sluice_rng_below(rng, 2),
						      dev, labels,
						      sluice_rng_below(rng, 3),
						      err, sizeof(err));
			}
		}
	}
	/* shuffle by sorting a reversed copy: the diff needs sorted input */
	for (k = 0; k + 1 < s->n_routes; k += 2) {
		struct sluice_lroute t = s->routes[k];

		s->routes[k] = s->routes[k + 1];
		s->routes[k + 1] = t;
	}
	sluice_lroutes_sort(s);
}

/* The first route of @s with the key of @r's route @i, brute force. */
static int64_t find_key(const struct sluice_lroutes *s,
			const struct sluice_lroute *x)
{
	uint64_t j;

	for (j = 0; j < s->n_routes; j++)
		if (!sluice_lroute_cmp_key(&s->routes[j], x))
			return j;
	return -1;
}

static void test_diff(void)
{
	struct sluice_lroutes want, have;
	uint64_t added, replaced, deleted, unchanged, i, k, n_have_key;
	struct sluice_ldiff d;
	struct sluice_rng rng;
	bool ok = true, *gone;
	int64_t j;
	int round;

	sluice_rng_seed(&rng, 7);
	for (round = 0; round < 2000 && ok; round++) {
		random_set(&rng, &want, false);
		random_set(&rng, &have, round % 3 == 0);
		/* the brute force: per key of either set */
		added = replaced = deleted = unchanged = 0;
		for (i = 0; i < want.n_routes; i++) {
			j = find_key(&have, &want.routes[i]);
			if (j < 0)
				added++;
			else if (sluice_lroute_equal(&want, i, &have, j))
				unchanged++;
			else
				replaced++;
		}
		for (i = 0; i < have.n_routes; i++) {
			j = find_key(&want, &have.routes[i]);
			n_have_key = find_key(&have, &have.routes[i]) == (int64_t)i;
			if (j < 0 || !n_have_key)
				deleted++;
		}
		ok = KTAP_EXPECT_INT(sluice_lroutes_diff(&want, &have, &d, err,
							 sizeof(err)), 0) &&
		     KTAP_EXPECT_INT(d.added, added) &&
		     KTAP_EXPECT_INT(d.replaced, replaced) &&
		     KTAP_EXPECT_INT(d.deleted, deleted) &&
		     KTAP_EXPECT_INT(d.unchanged, unchanged) &&
		     KTAP_EXPECT_INT(d.n_ops, added + replaced + deleted);
		/* applying the operations to have gives want */
		gone = calloc(have.n_routes + 1, sizeof(*gone));
		for (k = 0; ok && k < d.n_ops; k++) {
			const struct sluice_lop *op = &d.ops[k];

			if (op->kind != SLUICE_LOP_ADD)
				gone[op->have] = true;
			if (op->kind == SLUICE_LOP_REPLACE)
				ok = KTAP_EXPECT(!sluice_lroute_cmp_key(&want.routes[op->want],
									&have.routes[op->have]));
			if (k)
				ok = ok && KTAP_EXPECT(sluice_lroute_cmp_key(
					op[-1].want != UINT64_MAX ? &want.routes[op[-1].want] : &have.routes[op[-1].have],
					op->want != UINT64_MAX ? &want.routes[op->want] : &have.routes[op->have]) <= 0);
		}
		/* what stays untouched is exactly want's unchanged routes */
		for (i = 0; ok && i < have.n_routes; i++) {
			if (gone[i])
				continue;
			j = find_key(&want, &have.routes[i]);
			ok = KTAP_EXPECT(j >= 0) &&
			     KTAP_EXPECT(sluice_lroute_equal(&want, j, &have, i));
		}
		free(gone);
		sluice_ldiff_free(&d);
		sluice_lroutes_free(&want);
		sluice_lroutes_free(&have);
	}
	/* a set against itself: nothing to do */
	random_set(&rng, &want, false);
	KTAP_EXPECT_INT(sluice_lroutes_diff(&want, &want, &d, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(d.n_ops, 0);
	KTAP_EXPECT_INT(d.unchanged, want.n_routes);
	sluice_ldiff_free(&d);
	sluice_lroutes_free(&want);
	ktap_result("diff");
}

/* BCube(4,1): servers are their own hosts and send as themselves. */
static void test_bcube_servers(void)
{
	char buf[SLUICE_NETNS_NAME_MAX], line[512];
	struct sluice_lroutes s = { 0 };
	struct sluice_routes r;
	struct sluice_fabric f;
	struct sluice_graph g;
	uint32_t u, h, inet = 0;
	uint64_t i;

	if (!KTAP_EXPECT_INT(sluice_topo_bcube(&g, 4, 1, err, sizeof(err)), 0)) {
		ktap_result("bcube_servers");
		return;
	}
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "b", SLUICE_FABRIC_HOSTS_DEFAULT,
					   err, sizeof(err)), 0);
	KTAP_EXPECT_INT(f.n_hosts, 16);
	for (u = 0; u < g.n_nodes; u++)
		KTAP_EXPECT_INT(f.hosts[u], u < 16 ? 1 : 0);
	KTAP_EXPECT(sluice_fabric_self_hosted(&f, 5) &&
		    !sluice_fabric_self_hosted(&f, 16));
	sluice_fabric_host_ns(&f, 5, 0, buf, sizeof(buf));
	KTAP_EXPECT_STR(buf, "b-srv11");
	sluice_fabric_host_name(&f, 5, 0, buf, sizeof(buf));
	KTAP_EXPECT_STR(buf, "srv11");
	KTAP_EXPECT_INT(sluice_fabric_find(&f, "srv11", &u, &h), 0);
	KTAP_EXPECT(u == 5 && h == SLUICE_NONE);
	KTAP_EXPECT_INT(sluice_fabric_find(&f, "srv11-h0", &u, &h), -ENOENT);

	/* a server's routes carry its own address as the source */
	KTAP_EXPECT_INT(compute(&g, SLUICE_ROUTE_BCUBE, 0, &r), 0);
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r, 5, &s, err, sizeof(err)), 0);
	for (i = 0; i < s.n_routes; i++) {
		if (s.routes[i].family != SLUICE_LR_INET)
			continue;
		inet++;
		KTAP_EXPECT_INT(s.routes[i].src, sluice_fabric_host_addr(5, 0, true));
	}
	KTAP_EXPECT_INT(inet, 15);
	for (i = 0; i < s.n_routes && s.routes[i].family != SLUICE_LR_INET; i++)
		;
	sluice_lroute_format(&s, i, line, sizeof(line));
	KTAP_EXPECT(!strncmp(line, "10.0.0.0/24 src 10.0.5.1 ", 25));
	/* a switch forwards only: label routes, no source */
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r, 16, &s, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(s.n_routes, 4);
	sluice_lroutes_free(&s);
	sluice_routes_free(&r);
	sluice_fabric_free(&f);

	/* hosts per switch mean nothing where every endpoint is a server */
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "b", 2, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "the topology's endpoints are servers, each its own host: --hosts-per-switch does not apply");
	sluice_graph_free(&g);
	ktap_result("bcube_servers");
}

static int fc_apply(struct sluice_fabric *f, unsigned int fc,
		    struct sluice_fabric_qdisc *q, uint64_t rate, uint64_t pfc)
{
	memset(q, 0, sizeof(*q));
	q->enabled = true;
	q->fc = fc;
	q->link.rate = q->host.rate = rate;
	q->link.present = q->host.present = SLUICE_QOPT_RATE;
	if (pfc) {
		q->link.pfc = q->host.pfc = pfc;
		q->link.present |= SLUICE_QOPT_PFC;
		q->host.present |= SLUICE_QOPT_PFC;
	}
	return sluice_fabric_fc_apply(f, q, err, sizeof(err));
}

/* The options each flow-control choice asks for, and its refusals. */
static void test_flow_control(void)
{
	struct sluice_fabric_qdisc q;
	struct sluice_fabric f, ff;
	struct sluice_graph g, fg;
	struct sluice_qopt o;

	KTAP_EXPECT_STR(sluice_fabric_fc_name(SLUICE_FABRIC_FC_PFC_STAR), "pfc-star");
	KTAP_EXPECT_INT(sluice_fabric_fc_parse("portfc"), SLUICE_FABRIC_FC_PORTFC);
	KTAP_EXPECT_INT(sluice_fabric_fc_parse("PFC"), -EINVAL);
	if (!KTAP_EXPECT_INT(sluice_topo_bcube(&g, 4, 1, err, sizeof(err)), 0) ||
	    !KTAP_EXPECT_INT(read_topo(&fg, fig4a), 0)) {
		ktap_result("flow_control");
		return;
	}
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "b", SLUICE_FABRIC_HOSTS_DEFAULT,
					   err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_fabric_plan(&ff, &fg, "c", SLUICE_FABRIC_HOSTS_DEFAULT,
					   err, sizeof(err)), 0);

	/*
	 * PortFC at 1 Mbit/s: a round trip of two 1514-byte frames is
	 * 24.224 ms, a BDP of 3028 bytes: xoff 6 BDPs, xon 4.
	 */
	KTAP_EXPECT_INT(fc_apply(&f, SLUICE_FABRIC_FC_PORTFC, &q, 1000000, 0), 0);
	KTAP_EXPECT_INT(q.link.portfc_rtt_ns, 24224000);
	KTAP_EXPECT_INT(q.link.portfc_xoff_a, 18168);
	KTAP_EXPECT_INT(q.link.portfc_xon_b, 12112);
	KTAP_EXPECT(q.link.portfc_n == 4 && q.link.portfc_k == 1);
	sluice_fabric_port_qopt(&f, &q, 5, 1, &o);
	KTAP_EXPECT(o.portfc == TC_SLUICE_PORTFC_SERVER &&
		    !(o.present & SLUICE_QOPT_PORTFC_INDEX));
	sluice_fabric_port_qopt(&f, &q, 17, 2, &o);
	KTAP_EXPECT(o.portfc == TC_SLUICE_PORTFC_SWITCH && o.portfc_index == 2 &&
		    (o.present & SLUICE_QOPT_PORTFC_INDEX));
	KTAP_EXPECT_INT(fc_apply(&ff, SLUICE_FABRIC_FC_PORTFC, &q, 1000000, 0),
			-EINVAL);
	KTAP_EXPECT_STR(err, "PortFC needs a BCube topology (sluicectl topo gen bcube), not this one");
	KTAP_EXPECT_INT(fc_apply(&f, SLUICE_FABRIC_FC_PORTFC, &q, 1000000, 8), -EINVAL);
	KTAP_EXPECT_STR(err, "PortFC replaces PFC: --pfc, --xoff, --xon and --headroom do not apply");
	KTAP_EXPECT_INT(fc_apply(&f, SLUICE_FABRIC_FC_PORTFC, &q, 0, 0), -EINVAL);
	KTAP_EXPECT_STR(err, "PortFC's thresholds are derived from the link rate: give --rate");

	/* plain PFC: priority 3 by default, one only, an xoff */
	KTAP_EXPECT_INT(fc_apply(&ff, SLUICE_FABRIC_FC_PFC, &q, 1000000, 0), -EINVAL);
	KTAP_EXPECT_STR(err, "PFC needs an xoff (--xoff BYTES, or --xoff auto with --rate)");
	KTAP_EXPECT_INT(q.link.pfc, 8);
	KTAP_EXPECT_INT(fc_apply(&ff, SLUICE_FABRIC_FC_PFC, &q, 1000000, 0x18), -EINVAL);
	KTAP_EXPECT_STR(err, "plain PFC has one lossless priority, not 2 (pfc-star gives each hop its own)");
	memset(&q, 0, sizeof(q));
	q.fc = SLUICE_FABRIC_FC_PFC;
	q.link.present = q.host.present = SLUICE_QOPT_XOFF;
	KTAP_EXPECT_INT(sluice_fabric_fc_apply(&ff, &q, err, sizeof(err)), 0);
	KTAP_EXPECT(q.link.pfc == 8 && q.host.pfc == 8);

	/* PFC*: every priority */
	memset(&q, 0, sizeof(q));
	q.fc = SLUICE_FABRIC_FC_PFC_STAR;
	q.link.present = q.host.present = SLUICE_QOPT_XOFF;
	KTAP_EXPECT_INT(sluice_fabric_fc_apply(&f, &q, err, sizeof(err)), 0);
	KTAP_EXPECT(q.link.pfc == 0xff && q.host.pfc == 0xff);
	KTAP_EXPECT_INT(fc_apply(&f, SLUICE_FABRIC_FC_PFC_STAR, &q, 1000000, 8),
			-EINVAL);
	sluice_fabric_port_qopt(&f, &q, 17, 2, &o);
	KTAP_EXPECT(!(o.present & SLUICE_QOPT_PORTFC));

	sluice_fabric_free(&f);
	sluice_fabric_free(&ff);
	sluice_graph_free(&g);
	sluice_graph_free(&fg);
	ktap_result("flow_control");
}

/*
 * INT labels (sluice/fabric.h) on fig. 4a's ring of four switches with
 * four hosts each: every link port names its switch and link (both ends
 * of a link alike), every host cable its host at both ends, the host's
 * own eth0 the host as its node; against the adjacency read directly;
 * nothing labelled without int-port.
 */
static void test_int_labels(void)
{
	struct sluice_fabric_qdisc q = { 0 };
	struct sluice_fabric f;
	struct sluice_graph g;
	struct sluice_qopt o;
	uint32_t u, k, i, deg, bad = 0;

	if (!KTAP_EXPECT_INT(read_topo(&g, fig4a), 0))
		return;
	KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "i", SLUICE_FABRIC_HOSTS_DEFAULT,
					   err, sizeof(err)), 0);
	q.link.present = SLUICE_QOPT_INT_PORT;
	q.link.int_port = 7771;
	for (u = 0; u < g.n_nodes; u++) {
		deg = sluice_graph_degree(&g, u);
		for (k = 0; k < deg; k++) {
			sluice_fabric_port_qopt(&f, &q, u, k, &o);
			bad += o.int_node != u ||
			       o.int_link != g.adj[g.off[u] + k].link ||
			       !(o.present & SLUICE_QOPT_INT_NODE) ||
			       !(o.present & SLUICE_QOPT_INT_LINK);
		}
		for (i = 0; i < f.hosts[u]; i++) {
			o = q.link;
			sluice_fabric_int_label(&f, u, deg + i, false, &o);
			bad += o.int_node != u ||
			       o.int_link != (SLUICE_FABRIC_INT_HOST | (4 * u + i));
			o = q.link;
			sluice_fabric_int_label(&f, u, deg + i, true, &o);
			bad += o.int_node != (SLUICE_FABRIC_INT_HOST | (4 * u + i)) ||
			       o.int_link != o.int_node;
		}
	}
	KTAP_EXPECT_INT(bad, 0);
	/* the last link port of s3 (node 2): link 5, to s4 */
	sluice_fabric_port_qopt(&f, &q, 2, 3, &o);
	KTAP_EXPECT(o.int_node == 2 && o.int_link == 5);
	/* stamping off: no labels */
	q.link.int_port = 0;
	sluice_fabric_port_qopt(&f, &q, 2, 3, &o);
	KTAP_EXPECT(!(o.present & (SLUICE_QOPT_INT_NODE | SLUICE_QOPT_INT_LINK)));
	q.link.present = 0;
	sluice_fabric_int_label(&f, 1, 4, true, &o);
	KTAP_EXPECT(!o.int_node && !o.int_link);
	sluice_fabric_free(&f);
	sluice_graph_free(&g);
	ktap_result("int_labels");
}

static int write_text(const void *arg, FILE *f, char *e, size_t len)
{
	(void)e;
	(void)len;
	return fputs(arg, f) < 0 ? -EIO : 0;
}

static int write_fails(const void *arg, FILE *f, char *e, size_t len)
{
	fputs(arg, f);
	snprintf(e, len, "the writer's reason");
	return -EPROTO;
}

static int write_quietly_fails(const void *arg, FILE *f, char *e, size_t len)
{
	(void)arg;
	(void)f;
	(void)e;
	(void)len;
	return 7;
}

/* The whole of @path, or "" (a static buffer). */
static const char *contents(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static void test_file_write(void)
{
	char path[4096], link[4096], fifo[4096], dir[4096], got[64] = "";
	struct stat st;
	mode_t mask;
	pid_t pid;
	int fd[2], status;
	FILE *f;

	snprintf(path, sizeof(path), "%s", cli_path("out.txt"));
	snprintf(link, sizeof(link), "%s", cli_path("link"));
	snprintf(fifo, sizeof(fifo), "%s", cli_path("fifo"));
	snprintf(dir, sizeof(dir), "%s", cli_path("dir"));
	/* new, with the mode a new file gets */
	mask = umask(022);
	KTAP_EXPECT_INT(sluice_file_write(path, write_text, "one\n", err,
					  sizeof(err)), 0);
	KTAP_EXPECT_STR(contents(path), "one\n");
	KTAP_EXPECT(!stat(path, &st) && (st.st_mode & 0777) == 0644);
	/* through a link: the link stays, its target replaced */
	KTAP_EXPECT_INT(symlink(path, link), 0);
	KTAP_EXPECT_INT(sluice_file_write(link, write_text, "two\n", err,
					  sizeof(err)), 0);
	KTAP_EXPECT(!lstat(link, &st) && S_ISLNK(st.st_mode));
	KTAP_EXPECT_STR(contents(path), "two\n");
	/* a writer that fails: its reason, its return, the old file kept */
	KTAP_EXPECT_INT(sluice_file_write(path, write_fails, "three\n", err,
					  sizeof(err)), -EPROTO);
	KTAP_EXPECT_STR(err, "the writer's reason");
	KTAP_EXPECT_STR(contents(path), "two\n");
	KTAP_EXPECT_INT(sluice_file_write(path, write_quietly_fails, NULL, err,
					  sizeof(err)), 7);
	KTAP_EXPECT_STR(err, "");
	/* a directory, a link to nothing: refused, named */
	KTAP_EXPECT_INT(mkdir(dir, 0755), 0);
	KTAP_EXPECT_INT(sluice_file_write(dir, write_text, "x", err,
					  sizeof(err)), -EISDIR);
	KTAP_EXPECT(strstr(err, "/dir: is a directory: give a file name"));
	unlink(path);
	KTAP_EXPECT_INT(sluice_file_write(link, write_text, "x", err,
					  sizeof(err)), -ENOENT);
	KTAP_EXPECT(strstr(err, "/link: a symbolic link to a missing file: give the file itself"));
	KTAP_EXPECT(access(path, F_OK));
	/* a FIFO: written into, not replaced by a file */
	KTAP_EXPECT_INT(mkfifo(fifo, 0600), 0);
	KTAP_EXPECT_INT(pipe(fd), 0);
	pid = fork();
	if (pid == 0) {
		f = fopen(fifo, "r");
		if (f && fgets(got, sizeof(got), f))
			(void)!write(fd[1], got, strlen(got));
		_exit(0);
	}
	close(fd[1]);
	KTAP_EXPECT_INT(sluice_file_write(fifo, write_text, "fifo\n", err,
					  sizeof(err)), 0);
	KTAP_EXPECT(read(fd[0], got, sizeof(got) - 1) == 5);
	KTAP_EXPECT(!strncmp(got, "fifo\n", 5));
	close(fd[0]);
	waitpid(pid, &status, 0);
	KTAP_EXPECT(!lstat(fifo, &st) && S_ISFIFO(st.st_mode));
	umask(mask);
	unlink(fifo);
	unlink(link);
	rmdir(dir);
	ktap_result("file_write");
}

static void test_ping_refusals(void)
{
	struct sluice_ping_opts o = { .count = 2, .timeout = 1 };
	struct sluice_ping_result res;
	struct sluice_fabric f;
	struct sluice_graph g;

	/* switches without hosts: nothing to ping */
	if (!KTAP_EXPECT_INT(sluice_topo_ring(&g, 3, 1, err, sizeof(err)), 0))
		return;
	if (KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "pgt", 0, err,
					       sizeof(err)), 0)) {
		KTAP_EXPECT_INT(sluice_fabric_ping(&f, &o, &res, err,
						   sizeof(err)), -EINVAL);
		KTAP_EXPECT_STR(err, "fabric pgt has 0 hosts: nothing to ping");
		KTAP_EXPECT(!res.hosts && !res.sent && !res.n_lost);
		sluice_ping_result_free(&res);
		sluice_fabric_free(&f);
	}
	sluice_graph_free(&g);
	/* three: the first host's namespace is missing, nothing sent */
	if (!KTAP_EXPECT_INT(sluice_topo_ring(&g, 3, 1, err, sizeof(err)), 0))
		return;
	if (KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "pgt", 1, err,
					       sizeof(err)), 0)) {
		KTAP_EXPECT_INT(sluice_fabric_ping(&f, NULL, &res, err,
						   sizeof(err)), -ENOENT);
		KTAP_EXPECT_STR(err, "network namespace pgt-s0-h0 does not exist");
		KTAP_EXPECT_INT(res.n_hosts, 3);
		KTAP_EXPECT_STR(res.hosts[2].name, "s2-h0");
		KTAP_EXPECT_STR(res.hosts[2].ns, "pgt-s2-h0");
		KTAP_EXPECT(!res.sent && !res.received && !res.lost);
		sluice_ping_result_free(&res);
		sluice_fabric_free(&f);
	}
	sluice_graph_free(&g);
	ktap_result("ping_refusals");
}

int main(void)
{
	ktap_plan(12);
	cli_mkdtemp("fabric");
	test_names();
	test_name_errors();
	test_port_index();
	test_forwarding();
	test_build_by_hand();
	test_build_errors();
	test_diff();
	test_bcube_servers();
	test_flow_control();
	test_int_labels();
	test_file_write();
	test_ping_refusals();
	cli_rmdir();
	return ktap_exit();
}
