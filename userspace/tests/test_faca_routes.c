// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FaCa's paths named by a route set (sluice_faca_route_of(),
 * sluice_faca_routes(), sluice/faca.h), fed records labelled as fabric up
 * labels ports (sluice/fabric.h: a link port its node and link, hosts'
 * ports SLUICE_FABRIC_INT_HOST):
 *
 * - a leaf-spine of three spines: each of the three paths from leaf0 to
 *   leaf1 named by its route, as the agent learns them and as "show"
 *   prints them (the nodes walked); records without labels (every one
 *   node 0 link 0), a node that is not where the walk stands, and a path
 *   the set lacks name none; a route set of another topology is refused;
 * - random small topologies and route sets, records taken from their
 *   paths, some changed, and random walks: the same route as a brute
 *   force that walks every path of the set.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sluice/fabric.h>
#include <sluice/faca.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "ktap.h"

static char err[256];

/* The other end of link @l from node @u. */
static uint32_t across(const struct sluice_graph *g, uint32_t l, uint32_t u)
{
	return g->links[l].a == u ? g->links[l].b : g->links[l].a;
}

/*
 * The records a probe along route @q of @r gathers: the sender's eth0
 * (host 0), each link port, the last switch's port to its host (host 1).
 * Returns how many.
 */
static unsigned int records(const struct sluice_graph *g,
			    const struct sluice_routes *r, uint64_t q,
			    uint32_t src, struct sluice_faca_hop *hop)
{
	uint32_t at = src, n = 0;
	uint64_t h;

	hop[n++] = (struct sluice_faca_hop){
		.node = SLUICE_FABRIC_INT_HOST, .ifindex = 2,
		.link = SLUICE_FABRIC_INT_HOST,
	};
	for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
		hop[n++] = (struct sluice_faca_hop){
			.node = at, .ifindex = 2 + n, .link = r->hops[h],
		};
		at = across(g, r->hops[h], at);
	}
	hop[n++] = (struct sluice_faca_hop){
		.node = at, .ifindex = 9, .link = SLUICE_FABRIC_INT_HOST | 1,
	};
	return n;
}

/* The brute force: every path of @r walked against the link records. */
static int64_t brute(const struct sluice_graph *g,
		     const struct sluice_routes *r,
		     const struct sluice_faca_hop *hop, unsigned int n)
{
	uint32_t node[SLUICE_INT_MAX_RECS], link[SLUICE_INT_MAX_RECS], m = 0;
	uint64_t p, q, h;
	uint32_t at, i;
	bool ok;

	for (i = 0; i < n; i++)
		if (!(hop[i].link & SLUICE_FABRIC_INT_HOST) &&
		    hop[i].link < g->n_links) {
			node[m] = hop[i].node;
			link[m++] = hop[i].link;
		}
	for (p = 0; p < r->n_pairs; p++)
		for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
			if (!m || sluice_routes_path_len(r, q) != m)
				continue;
			at = r->pair_src[p];
			ok = true;
			for (i = 0, h = r->path_hop[q]; ok && i < m; i++, h++) {
				ok = node[i] == at && link[i] == r->hops[h];
				at = across(g, r->hops[h], at);
			}
			if (ok)
				return q;
		}
	return -1;
}

static int64_t route_of(const struct sluice_graph *g,
			const struct sluice_routes *r,
			const struct sluice_faca_hop *hop, unsigned int n)
{
	uint64_t pair, q;

	return sluice_faca_route_of(g, r, hop, n, &pair, &q) ? -1 : (int64_t)q;
}

/* An echo whose records are @hop. */
static void probe_of(struct sluice_int_probe *p,
		     const struct sluice_faca_hop *hop, unsigned int n)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->nrec = p->nused = n;
	p->flags = SLUICE_INT_F_ECHO;
	p->tx_ns = 1000;
	for (i = 0; i < n; i++) {
		p->hop[i].node = hop[i].node;
		p->hop[i].ifindex = hop[i].ifindex;
		p->hop[i].link = hop[i].link;
		p->hop[i].rate = 1000000;
		p->hop[i].ts_ns = 2000 + i;
	}
}

static void test_leafspine(void)
{
	struct sluice_route_opts ro = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_compute_opts c = { .threads = 1 };
	struct sluice_faca_hop hop[SLUICE_INT_MAX_RECS], save;
	struct sluice_routes r, one;
	struct sluice_graph g, other;
	struct sluice_faca_opts o;
	struct sluice_int_probe p;
	struct sluice_faca a;
	char want[128], *json;
	uint64_t q, first;
	unsigned int n, k;

	if (!KTAP_EXPECT_INT(sluice_topo_leafspine(&g, 2, 3, 1, 1, err,
						   sizeof(err)), 0) ||
	    !KTAP_EXPECT_INT(sluice_routes_compute(&g, &ro, &c, &r, err,
						   sizeof(err)), 0))
		return;
	sluice_faca_opts_default(&o);
	o.sports[0] = (struct sluice_sport_range){ 30000, 30002 };
	KTAP_EXPECT_INT(sluice_faca_init(&a, &o, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_faca_dst_add(&a, htonl(0x0a000101), 0), 0);
	/* a path learned before the routes are given is named then */
	first = r.pair_path[0];
	KTAP_EXPECT_INT(sluice_routes_pair_paths(&r, 0), 3);
	n = records(&g, &r, first, 0, hop);
	probe_of(&p, hop, n);
	KTAP_EXPECT_INT(sluice_faca_learn(&a, 0, 30000, &p, 1, 1), 0);
	KTAP_EXPECT_INT(a.dst[0].path[0].route, -1);
	KTAP_EXPECT_INT(sluice_faca_routes(&a, &g, &r, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(a.dst[0].path[0].route, first);
	for (k = 1; k < 3; k++) {
		n = records(&g, &r, first + k, 0, hop);
		probe_of(&p, hop, n);
		KTAP_EXPECT(sluice_faca_learn(&a, 0, 30000 + k, &p, 1, 1) >= 0);
	}
	KTAP_EXPECT_INT(a.dst[0].n_paths, 3);
	json = sluice_faca_json(&a, 1);
	for (k = 0; k < 3; k++) {
		q = a.dst[0].path[k].route;
		KTAP_EXPECT(q >= first && q < first + 3);
		snprintf(want, sizeof(want),
			 "\"route\":{\"index\":%llu,\"nodes\":[\"leaf0\",\"%s\",\"leaf1\"]}",
			 (unsigned long long)(q - first),
			 g.nodes[across(&g, r.hops[r.path_hop[q]], 0)].name);
		if (!KTAP_EXPECT(json && strstr(json, want)))
			ktap_diag("want %s in %s", want, json);
	}
	free(json);
	sluice_faca_free(&a);

	/* no labels: node 0 link 0 everywhere */
	memset(hop, 0, sizeof(hop));
	KTAP_EXPECT_INT(sluice_faca_route_of(&g, &r, hop, 4, &q, &q), -ENOENT);
	/* a spine's record with leaf1's node: not a walk */
	n = records(&g, &r, first, 0, hop);
	save = hop[2];
	hop[2].node = 1;
	KTAP_EXPECT_INT(route_of(&g, &r, hop, n), -1);
	hop[2] = save;
	KTAP_EXPECT_INT(route_of(&g, &r, hop, n), (int64_t)first);
	/* the set without that path (ecmp kept to one a pair) */
	ro.paths = 1;
	if (KTAP_EXPECT_INT(sluice_routes_compute(&g, &ro, &c, &one, err,
						  sizeof(err)), 0)) {
		n = records(&g, &r, first + 1, 0, hop);
		KTAP_EXPECT_INT(route_of(&g, &one, hop, n), -1);
		sluice_routes_free(&one);
	}
	/* routes of another topology */
	KTAP_EXPECT_INT(sluice_topo_leafspine(&other, 2, 2, 1, 1, err,
					      sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_faca_init(&a, &o, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_faca_routes(&a, &other, &r, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "the routes are not the topology's");
	sluice_faca_free(&a);
	sluice_graph_free(&other);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("leafspine");
}

/* A random small topology: a leaf-spine or a jellyfish. */
static int topology(struct sluice_graph *g, struct sluice_rng *rng)
{
	if (sluice_rng_below(rng, 2))
		return sluice_topo_leafspine(g, 2 + sluice_rng_below(rng, 3),
					     1 + sluice_rng_below(rng, 3),
					     1 + sluice_rng_below(rng, 2), 1,
					     err, sizeof(err));
	return sluice_topo_jellyfish(g, 6 + 2 * sluice_rng_below(rng, 3), 3, 1,
				     sluice_rng_below(rng, 1000), err,
				     sizeof(err));
}

static void test_brute(void)
{
	struct sluice_compute_opts c = { .threads = 1 };
	struct sluice_faca_hop hop[SLUICE_INT_MAX_RECS];
	struct sluice_route_opts ro;
	struct sluice_routes r;
	struct sluice_graph g;
	struct sluice_rng rng;
	unsigned int n, i, k, t, cases = 0, named = 0, bad = 0;
	uint64_t q;
	int kind;

	sluice_rng_seed(&rng, 31);
	for (t = 0; t < 40; t++) {
		if (topology(&g, &rng)) {
			ktap_diag("topology: %s", err);
			bad++;
			continue;
		}
		memset(&ro, 0, sizeof(ro));
		ro.algo = sluice_rng_below(&rng, 2) ? SLUICE_ROUTE_ECMP :
			  SLUICE_ROUTE_KSP;
		ro.paths = sluice_rng_below(&rng, 4);
		if (sluice_routes_compute(&g, &ro, &c, &r, err, sizeof(err))) {
			ktap_diag("routes: %s", err);
			bad++;
			sluice_graph_free(&g);
			continue;
		}
		for (i = 0; i < 200 && r.n_paths; i++, cases++) {
			q = sluice_rng_below(&rng, r.n_paths);
			if (sluice_routes_path_len(&r, q) + 2 > SLUICE_INT_MAX_RECS)
				continue;
			n = records(&g, &r, q, r.pair_src[sluice_routes_path_pair(&r, q)], hop);
			kind = sluice_rng_below(&rng, 4);
			if (kind == 1) {
				hop[1 + sluice_rng_below(&rng, n - 1)].node =
					sluice_rng_below(&rng, g.n_nodes);
			} else if (kind == 2) {
				hop[1 + sluice_rng_below(&rng, n - 1)].link =
					sluice_rng_below(&rng, g.n_links + 1);
			} else if (kind == 3) {
				n = 1 + sluice_rng_below(&rng, 6);
				for (k = 0; k < n; k++)
					hop[k] = (struct sluice_faca_hop){
						.node = sluice_rng_below(&rng, g.n_nodes),
						.link = sluice_rng_below(&rng, g.n_links),
					};
			}
			if (route_of(&g, &r, hop, n) != brute(&g, &r, hop, n))
				bad++;
			else if (route_of(&g, &r, hop, n) >= 0)
				named++;
		}
		sluice_routes_free(&r);
		sluice_graph_free(&g);
	}
	KTAP_EXPECT_INT(bad, 0);
	/* unchanged paths at least: a quarter of the cases */
	if (!KTAP_EXPECT(named * 4 >= cases))
		ktap_diag("%u of %u named", named, cases);
	ktap_result("brute_force");
}

int main(void)
{
	ktap_plan(2);
	test_leafspine();
	test_brute();
	return ktap_exit();
}
