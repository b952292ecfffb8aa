// SPDX-License-Identifier: GPL-2.0
/*
 * The reference solver of the routing benchmark: LEMON's Preflow for the
 * max flow F, then its NetworkSimplex for the min cost of sending F from s
 * to t.  Built by the benchmark only (make bench-routing), never by
 * libsluice.
 */
#include <stdint.h>
#include <time.h>
#include <lemon/smart_graph.h>
#include <lemon/preflow.h>
#include <lemon/network_simplex.h>
#include "lemon_mcmf.h"

using namespace lemon;

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/*
 * Builds the network (not timed), then times the solve alone: Preflow's
 * first phase (the max flow value) and NetworkSimplex with supply F at s
 * and -F at t, each constructed and run.
 */
extern "C" int lemon_mcmf(uint32_t n, uint32_t m, const uint32_t *tail,
			  const uint32_t *head, const int32_t *cap,
			  const int64_t *cost, uint32_t s, uint32_t t,
			  struct lemon_mcmf_result *res)
{
	typedef NetworkSimplex<SmartDigraph, int, long long> Simplex;
	SmartDigraph g;
	double t0, t1;
	uint32_t i;

	g.reserveNode(n);
	g.reserveArc(m);
	for (i = 0; i < n; i++)
		g.addNode();
	SmartDigraph::ArcMap<int> upper(g);
	SmartDigraph::ArcMap<long long> price(g);
	for (i = 0; i < m; i++) {
		SmartDigraph::Arc a = g.addArc(g.nodeFromId(tail[i]),
					       g.nodeFromId(head[i]));
		upper[a] = cap[i];
		price[a] = cost[i];
	}
	SmartDigraph::Node ns = g.nodeFromId(s), nt = g.nodeFromId(t);

	t0 = now_ns();
	Preflow<SmartDigraph, SmartDigraph::ArcMap<int> > pf(g, upper, ns, nt);
	pf.runMinCut();
	int flow = pf.flowValue();
	Simplex simplex(g);
	simplex.upperMap(upper).costMap(price).stSupply(ns, nt, flow);
	Simplex::ProblemType pt = simplex.run();
	t1 = now_ns();
	if (pt != Simplex::OPTIMAL)
		return -1;
	res->flow = (uint32_t)flow;
	res->cost = simplex.totalCost<long long>();
	res->ns = t1 - t0;
	return 0;
}
