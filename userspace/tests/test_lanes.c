// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * EDST lanes in the datapath (sluice/fabric.h), without a kernel: each
 * lane's routes in its own table with exactly that lane's paths, on a ring
 * by hand and on random Jellyfish fabrics against a scan of the route set;
 * one rule per lane past 0; a set of one lane built as before; a pair
 * missing a lane refused; the diff across tables and of rules; and the
 * qdisc options "fabric up --lanes" makes, with its refusals.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include <sluice/graph.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "ktap.h"

static char err[SLUICE_ERRLEN];

static int compute_edst(const struct sluice_graph *g, uint32_t lanes,
			uint64_t seed, struct sluice_routes *r)
{
	struct sluice_route_opts o = {
		.algo = SLUICE_ROUTE_EDST, .lanes = lanes, .seed = seed,
	};
	struct sluice_compute_opts c = { .threads = 1 };

	return sluice_routes_compute(g, &o, &c, r, err, sizeof(err));
}

/* The IPv4 route of @s to node @v's hosts in @table, or NULL. */
static const struct sluice_lroute *lookup(const struct sluice_lroutes *s,
					  uint32_t v, uint32_t table)
{
	uint64_t i;

	for (i = 0; i < s->n_routes; i++)
		if (s->routes[i].family == SLUICE_LR_INET &&
		    s->routes[i].table == table &&
		    s->routes[i].dst == sluice_fabric_node_prefix(v))
			return &s->routes[i];
	return NULL;
}

/*
 * Every pair of @u has, per lane, a route in the lane's table whose
 * nexthops leave by the first links of the lane's paths, in order, each
 * with one label per later hop; plus a rule per lane past 0; nothing else
 * but the label routes.
 */
static bool check_lanes(const struct sluice_graph *g,
			const struct sluice_routes *r, uint32_t u,
			const struct sluice_lroutes *s)
{
	uint32_t lanes = sluice_routes_lanes(r), lane, k, rules = 0;
	uint64_t p, q, inet = 0, i;
	const struct sluice_lroute *x;
	char dev[SLUICE_IFNAME_MAX];

	for (p = 0; p < r->n_pairs; p++) {
		if (r->pair_src[p] != u || !sluice_routes_pair_paths(r, p))
			continue;
		for (lane = 0; lane < lanes; lane++) {
			x = lookup(s, r->pair_dst[p], SLUICE_LANE_TABLE(lane));
			if (!KTAP_EXPECT(x) || !KTAP_EXPECT_INT(x->lane, lane))
				return false;
			inet++;
			k = 0;
			for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
				if (r->path_lane[q] != lane)
					continue;
				snprintf(dev, sizeof(dev), "l%u",
					 r->hops[r->path_hop[q]]);
				if (!KTAP_EXPECT(k < x->n_nh) ||
				    !KTAP_EXPECT_STR(s->nhs[x->nh + k].dev, dev) ||
				    !KTAP_EXPECT_INT(s->nhs[x->nh + k].n_labels,
						     sluice_routes_path_len(r, q) - 1))
					return false;
				k++;
			}
			if (!KTAP_EXPECT_INT(k, x->n_nh))
				return false;
		}
	}
	for (i = 0; i < s->n_routes; i++) {
		x = &s->routes[i];
		if (x->family != SLUICE_LR_RULE)
			continue;
		rules++;
		if (!KTAP_EXPECT(x->lane >= 1 && x->lane < lanes) ||
		    !KTAP_EXPECT_INT(x->dst, x->lane) ||
		    !KTAP_EXPECT_INT(x->table, SLUICE_LANE_BASE + x->lane) ||
		    !KTAP_EXPECT_INT(x->pref, SLUICE_LANE_BASE + x->lane))
			return false;
	}
	return KTAP_EXPECT_INT(rules, lanes - 1) &&
	       KTAP_EXPECT_INT(s->n_routes,
			       sluice_graph_degree(g, u) + inet + rules);
}

/* s0's routes of the ring below, formatted or described. */
static const struct {
	uint64_t	route;
	bool		describe;
	const char	*text;
} ring_text[] = {
	{ 2, false, "10.0.1.0/24 via 172.16.0.6 dev l3 labels 100/100" },
	{ 2, true, "route to s1 on lane 0 (10.0.1.0/24; paths 3 2 1)" },
	{ 5, false, "10.0.1.0/24 table 1771 via 172.16.0.1 dev l0" },
	{ 3, false, "10.0.2.0/24 via 172.16.0.6 dev l3 labels 100" },
	{ 6, false, "10.0.2.0/24 table 1771 via 172.16.0.6 dev l3 labels 100" },
	{ 6, true, "route to s2 on lane 1 (10.0.2.0/24 table 1771; paths 3 2)" },
	{ 8, false, "rule pref 1771 tos 0x04 lookup 1771" },
	{ 8, true, "rule of lane 1 (rule pref 1771 tos 0x04 lookup 1771)" },
};

/* A ring of 4, two lanes: s0 -> s2 takes 3 2 on both, s0 -> s1 differs. */
static void test_ring(void)
{
	struct sluice_lroutes s;
	struct sluice_routes r;
	struct sluice_graph g;
	char buf[512];
	uint64_t i;

	sluice_lroutes_init(&s, SLUICE_NONE);
	if (!KTAP_EXPECT_INT(sluice_topo_ring(&g, 4, 1, err, sizeof(err)), 0) ||
	    !KTAP_EXPECT_INT(compute_edst(&g, 2, 0, &r), 0)) {
		ktap_diag("%s", err);
		ktap_result("ring");
		return;
	}
	KTAP_EXPECT_INT(sluice_routes_lanes(&r), 2);
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r, 0, &s, err, sizeof(err)), 0);
	check_lanes(&g, &r, 0, &s);
	/* label routes, lane 0's (main), lane 1's (table 1771), the rule */
	if (KTAP_EXPECT_INT(s.n_routes, 2 + 3 + 3 + 1)) {
		for (i = 0; i < s.n_routes; i++)
			KTAP_EXPECT_INT(s.routes[i].family,
					i < 2 ? SLUICE_LR_MPLS : i < 8 ?
					SLUICE_LR_INET : SLUICE_LR_RULE);
		/* s3's first port is l2, s2's l1: label 100 each */
		for (i = 0; i < ARRAY_SIZE(ring_text); i++) {
			if (ring_text[i].describe)
				sluice_lroute_describe(&g, &r, &s, ring_text[i].route,
						       buf, sizeof(buf));
			else
				sluice_lroute_format(&s, ring_text[i].route, buf,
						     sizeof(buf));
			KTAP_EXPECT_STR(buf, ring_text[i].text);
		}
	}
	sluice_routes_free(&r);

	/* one lane: the main table only, no rule, as before lanes */
	KTAP_EXPECT_INT(compute_edst(&g, 1, 0, &r), 0);
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r, 0, &s, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(s.n_routes, 2 + 3);
	for (i = 0; i < s.n_routes; i++)
		KTAP_EXPECT(s.routes[i].table == SLUICE_TABLE_MAIN &&
			    s.routes[i].lane == SLUICE_NONE);
	sluice_lroute_describe(&g, &r, &s, 2, buf, sizeof(buf));
	KTAP_EXPECT(!strncmp(buf, "route to s1 (10.0.1.0/24; paths ", 32));
	sluice_lroutes_free(&s);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("ring");
}

/* Random Jellyfish fabrics, 2 to 8 lanes: every switch, every lane. */
static void test_jellyfish(void)
{
	struct sluice_lroutes s;
	struct sluice_routes r;
	struct sluice_graph g;
	uint32_t seed, u, lanes;
	bool ok = true;

	sluice_lroutes_init(&s, SLUICE_NONE);
	for (seed = 1; ok && seed <= 12; seed++) {
		lanes = 2 + seed % 7;
		ok = KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, 8 + 2 * (seed % 3), 3,
							   1, seed, err,
							   sizeof(err)), 0) &&
		     KTAP_EXPECT_INT(compute_edst(&g, lanes, seed, &r), 0);
		if (!ok) {
			ktap_diag("%s", err);
			break;
		}
		ok = KTAP_EXPECT_INT(sluice_routes_lanes(&r), lanes);
		for (u = 0; ok && u < g.n_nodes; u++)
			ok = KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r, u, &s,
								  err, sizeof(err)), 0) &&
			     check_lanes(&g, &r, u, &s);
		sluice_routes_free(&r);
		sluice_graph_free(&g);
	}
	sluice_lroutes_free(&s);
	ktap_result("jellyfish");
}

/* A pair with paths but none on some lane would leave it: refused. */
static void test_missing_lane(void)
{
	struct sluice_lroutes s;
	struct sluice_routes r;
	struct sluice_graph g;
	uint64_t q;

	sluice_lroutes_init(&s, SLUICE_NONE);
	KTAP_EXPECT_INT(sluice_topo_ring(&g, 4, 1, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(compute_edst(&g, 2, 0, &r), 0);
	/* s0 -> s1 (pair 0) loses its lane 1 */
	for (q = r.pair_path[0]; q < r.pair_path[1]; q++)
		r.path_lane[q] = 0;
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r, 0, &s, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "s0 -> s1 has no path on lane 1: its frames would take lane 0's paths in lane 1's class");
	/* other switches are fine */
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r, 1, &s, err, sizeof(err)), 0);
	sluice_lroutes_free(&s);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("missing_lane");
}

static uint64_t count(const struct sluice_ldiff *d,
		      const struct sluice_lroutes *want,
		      const struct sluice_lroutes *have,
		      enum sluice_lop_kind kind, uint8_t family)
{
	uint64_t k, n = 0;

	for (k = 0; k < d->n_ops; k++) {
		const struct sluice_lop *op = &d->ops[k];
		const struct sluice_lroute *x = op->want != UINT64_MAX ?
			&want->routes[op->want] : &have->routes[op->have];

		n += op->kind == kind && x->family == family;
	}
	return n;
}

/*
 * From one lane to two and back: tables are part of the key, rules are
 * added and deleted, never replaced, and a set against itself is
 * unchanged.
 */
static void test_diff(void)
{
	struct sluice_lroutes one, two, odd;
	struct sluice_routes r1, r2;
	struct sluice_ldiff d;
	struct sluice_graph g;
	uint64_t i;

	sluice_lroutes_init(&one, 0);
	sluice_lroutes_init(&two, 0);
	sluice_lroutes_init(&odd, 0);
	KTAP_EXPECT_INT(sluice_topo_ring(&g, 4, 1, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(compute_edst(&g, 1, 0, &r1), 0);
	KTAP_EXPECT_INT(compute_edst(&g, 2, 0, &r2), 0);
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r1, 0, &one, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_lroutes_build(&g, &r2, 0, &two, err, sizeof(err)), 0);

	/* one lane held, two wanted: lane 1's routes and rule added */
	KTAP_EXPECT_INT(sluice_lroutes_diff(&two, &one, &d, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(d.added, 3 + 1);
	KTAP_EXPECT_INT(count(&d, &two, &one, SLUICE_LOP_ADD, SLUICE_LR_RULE), 1);
	KTAP_EXPECT_INT(d.replaced + d.unchanged, 2 + 3);
	KTAP_EXPECT_INT(d.deleted, 0);
	/* in key order: the rule last, after the routes it leads to */
	KTAP_EXPECT(d.n_ops && two.routes[d.ops[d.n_ops - 1].want].family ==
		    SLUICE_LR_RULE);
	sluice_ldiff_free(&d);
	/* and back: the lane's table emptied, its rule deleted */
	KTAP_EXPECT_INT(sluice_lroutes_diff(&one, &two, &d, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(d.deleted, 3 + 1);
	KTAP_EXPECT_INT(count(&d, &one, &two, SLUICE_LOP_DELETE, SLUICE_LR_RULE), 1);
	sluice_ldiff_free(&d);
	/* unchanged against itself */
	KTAP_EXPECT_INT(sluice_lroutes_diff(&two, &two, &d, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(d.n_ops, 0);
	KTAP_EXPECT_INT(d.unchanged, two.n_routes);
	sluice_ldiff_free(&d);

	/* a rule held with another table: deleted and added, not replaced */
	sluice_lroutes_add_rule(&odd, 1, err, sizeof(err));
	odd.routes[0].table = 99;
	sluice_lroutes_add_rule(&odd, 1, err, sizeof(err));
	odd.routes[1].pref = 5;
	sluice_lroutes_sort(&odd);
	KTAP_EXPECT_INT(sluice_lroutes_diff(&two, &odd, &d, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(count(&d, &two, &odd, SLUICE_LOP_DELETE, SLUICE_LR_RULE), 2);
	KTAP_EXPECT_INT(count(&d, &two, &odd, SLUICE_LOP_ADD, SLUICE_LR_RULE), 1);
	KTAP_EXPECT_INT(d.replaced, 0);
	sluice_ldiff_free(&d);
	/* the same prefix in two tables: two keys */
	for (i = 0; i + 1 < two.n_routes; i++)
		if (two.routes[i].dst == two.routes[i + 1].dst &&
		    two.routes[i].family == SLUICE_LR_INET)
			KTAP_EXPECT(sluice_lroute_cmp_key(&two.routes[i],
							  &two.routes[i + 1]));
	sluice_lroutes_free(&one);
	sluice_lroutes_free(&two);
	sluice_lroutes_free(&odd);
	sluice_routes_free(&r1);
	sluice_routes_free(&r2);
	sluice_graph_free(&g);
	ktap_result("diff");
}

static int lanes_apply(struct sluice_fabric_qdisc *q, uint32_t lanes,
		       unsigned int fc, uint8_t pfc)
{
	memset(q, 0, sizeof(*q));
	q->enabled = true;
	q->lanes = lanes;
	q->fc = fc;
	q->link.present = q->host.present = SLUICE_QOPT_XOFF;
	if (pfc) {
		q->link.pfc = q->host.pfc = pfc;
		q->link.present |= SLUICE_QOPT_PFC;
		q->host.present |= SLUICE_QOPT_PFC;
	}
	return sluice_fabric_fc_apply(NULL, q, err, sizeof(err));
}

/* The qdisc options of "fabric up --lanes", and what they refuse. */
static void test_qdisc(void)
{
	const __u8 *map;
	struct sluice_fabric_qdisc q;
	uint32_t d;

	/* two lanes: priorities 3 and 4; DSCP d goes as d & 7 is routed */
	KTAP_EXPECT_INT(lanes_apply(&q, 2, SLUICE_FABRIC_FC_PFC, 0), 0);
	KTAP_EXPECT(q.lane_prio[0] == 3 && q.lane_prio[1] == 4);
	KTAP_EXPECT(q.link.pfc == 0x18 && q.host.pfc == 0x18);
	KTAP_EXPECT(q.link.tag == TC_SLUICE_TAG_DSCP &&
		    (q.host.present & SLUICE_QOPT_TAG));
	map = q.host.maps[TC_SLUICE_TAG_DSCP].tclass;
	KTAP_EXPECT_INT(q.host.maps[TC_SLUICE_TAG_DSCP].given, ~0ull);
	for (d = 0; d < 64; d++)
		KTAP_EXPECT_INT(map[d], (d & 7) == 1 ? 4 : 3);
	/* six lanes fit below 8 from 2; eight take every priority */
	KTAP_EXPECT_INT(lanes_apply(&q, 6, SLUICE_FABRIC_FC_NONE, 0), 0);
	KTAP_EXPECT(q.lane_prio[0] == 2 && q.lane_prio[5] == 7);
	KTAP_EXPECT_INT(lanes_apply(&q, 8, SLUICE_FABRIC_FC_PFC, 0), 0);
	KTAP_EXPECT_INT(q.link.pfc, 0xff);
	map = q.link.maps[TC_SLUICE_TAG_DSCP].tclass;
	KTAP_EXPECT(map[7] == 7 && map[15] == 7 && map[8] == 0);
	/* --pfc gives them, lowest first; more are fine without plain PFC */
	KTAP_EXPECT_INT(lanes_apply(&q, 2, SLUICE_FABRIC_FC_NONE, 0x62), 0);
	KTAP_EXPECT(q.lane_prio[0] == 1 && q.lane_prio[1] == 5);
	KTAP_EXPECT_INT(q.link.maps[TC_SLUICE_TAG_DSCP].tclass[2], 1);
	KTAP_EXPECT_INT(lanes_apply(&q, 2, SLUICE_FABRIC_FC_PFC, 0x62), -EINVAL);
	KTAP_EXPECT_STR(err, "plain PFC has one lossless priority per lane (2), not 3");
	KTAP_EXPECT_INT(lanes_apply(&q, 3, SLUICE_FABRIC_FC_NONE, 0x18), -EINVAL);
	KTAP_EXPECT_STR(err, "3 lanes need 3 lossless priorities, one each: --pfc gives 2");
	/* one lane: priority 3 for DSCP 0 to 63, plain PFC as before */
	KTAP_EXPECT_INT(lanes_apply(&q, 1, SLUICE_FABRIC_FC_PFC, 0), 0);
	KTAP_EXPECT(q.link.pfc == 8 && q.link.maps[TC_SLUICE_TAG_DSCP].tclass[63] == 3);
	/* no lanes: nothing changes */
	KTAP_EXPECT_INT(lanes_apply(&q, 0, SLUICE_FABRIC_FC_NONE, 0), 0);
	KTAP_EXPECT(!(q.link.present & (SLUICE_QOPT_TAG | SLUICE_QOPT_PFC)));

	/* what would undo the lanes */
	KTAP_EXPECT_INT(lanes_apply(&q, 9, SLUICE_FABRIC_FC_NONE, 0), -EINVAL);
	KTAP_EXPECT_STR(err, "9 lanes: at most 8 (DSCP 0 to 7, see sluicectl-fabric(8))");
	KTAP_EXPECT_INT(lanes_apply(&q, 2, SLUICE_FABRIC_FC_PFC_STAR, 0), -EINVAL);
	KTAP_EXPECT_STR(err, "lanes choose each frame's priority by its DSCP; pfc-star chooses it by other means: use --flow-control pfc or none");
	KTAP_EXPECT_INT(lanes_apply(&q, 2, SLUICE_FABRIC_FC_PORTFC, 0), -EINVAL);
	KTAP_EXPECT_STR(err, "lanes choose each frame's priority by its DSCP; portfc chooses it by other means: use --flow-control pfc or none");
	memset(&q, 0, sizeof(q));
	q.lanes = 2;
	q.link.present = q.host.present = SLUICE_QOPT_TAG;
	q.link.tag = q.host.tag = TC_SLUICE_TAG_PCP;
	KTAP_EXPECT_INT(sluice_fabric_lanes_apply(&q, err, sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "lanes are told apart by DSCP: link ports: --tag must be dscp (or left out)");
	q.link.tag = q.host.tag = TC_SLUICE_TAG_DSCP;
	KTAP_EXPECT_INT(sluice_fabric_lanes_apply(&q, err, sizeof(err)), 0);
	memset(&q, 0, sizeof(q));
	q.lanes = 2;
	q.host.present = SLUICE_QOPT_DSCP_MAP;
	KTAP_EXPECT_INT(sluice_fabric_lanes_apply(&q, err, sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "host ports: --lanes makes the DSCP map (DSCP i to lane i's priority): leave --dscp-map out");
	memset(&q, 0, sizeof(q));
	q.lanes = 2;
	q.link.present = q.host.present = SLUICE_QOPT_CLASSES;
	q.link.classes = q.host.classes = 4;
	KTAP_EXPECT_INT(sluice_fabric_lanes_apply(&q, err, sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "link ports: lane 1's priority 4 is class 4: --classes must be more than 4");
	memset(&q, 0, sizeof(q));
	q.lanes = 2;
	q.link.present = SLUICE_QOPT_PFC;
	q.link.pfc = 0x18;
	KTAP_EXPECT_INT(sluice_fabric_lanes_apply(&q, err, sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "lanes need the same lossless priorities on link and host ports");
	ktap_result("qdisc");
}

int main(void)
{
	ktap_plan(5);
	test_ring();
	test_jellyfish();
	test_missing_lane();
	test_diff();
	test_qdisc();
	return ktap_exit();
}
