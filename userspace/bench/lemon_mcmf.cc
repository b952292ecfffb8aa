// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reference solver of the routing benchmark, LEMON's, two ways:
 * Preflow for the max flow F, then NetworkSimplex for the min cost of
 * sending F from s to t; or NetworkSimplex alone on the circulation that
 * adds an arc t -> s, unbounded, of a cost below minus any path's.  Built
 * by the benchmark only (make bench-routing), never by libsluice.
 */
#include <stdint.h>
#include <time.h>
#include <lemon/smart_graph.h>
#include <lemon/preflow.h>
#include <lemon/network_simplex.h>
#include <lemon/capacity_scaling.h>
#include <lemon/cost_scaling.h>
#include "lemon_mcmf.h"

using namespace lemon;

/* This thread's CPU time, as the benchmark measures sluice's. */
static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

typedef NetworkSimplex<SmartDigraph, int, long long> Simplex;

/* The network as LEMON's graph and maps: built outside the timings. */
struct net {
	SmartDigraph			g;
	SmartDigraph::ArcMap<int>	upper;
	SmartDigraph::ArcMap<long long>	price;
	SmartDigraph::Node		s, t;
	long long			big;	/* above any path's cost */

	net(uint32_t n, uint32_t m, const uint32_t *tail,
	    const uint32_t *head, const int32_t *cap, const int64_t *cost,
	    uint32_t src, uint32_t dst)
		: upper(g), price(g), big(1)
	{
		uint32_t i;

		g.reserveNode(n);
		g.reserveArc(m + 1);
		for (i = 0; i < n; i++)
			g.addNode();
		for (i = 0; i < m; i++) {
			SmartDigraph::Arc a = g.addArc(g.nodeFromId(tail[i]),
						       g.nodeFromId(head[i]));
			upper[a] = cap[i];
			price[a] = cost[i];
			big += cost[i] > 0 ? cost[i] : 0;
		}
		s = g.nodeFromId(src);
		t = g.nodeFromId(dst);
	}
};

/*
 * Preflow's first phase (the max flow value), then NetworkSimplex with
 * supply F at s and -F at t, each constructed and run: that alone timed.
 */
extern "C" int lemon_mcmf(uint32_t n, uint32_t m, const uint32_t *tail,
			  const uint32_t *head, const int32_t *cap,
			  const int64_t *cost, uint32_t s, uint32_t t,
			  struct lemon_mcmf_result *res)
{
	net x(n, m, tail, head, cap, cost, s, t);
	double t0, t1;

	t0 = now_ns();
	Preflow<SmartDigraph, SmartDigraph::ArcMap<int> > pf(x.g, x.upper,
							    x.s, x.t);
	pf.runMinCut();
	int flow = pf.flowValue();
	Simplex simplex(x.g);
	simplex.upperMap(x.upper).costMap(x.price).stSupply(x.s, x.t, flow);
	Simplex::ProblemType pt = simplex.run();
	t1 = now_ns();
	if (pt != Simplex::OPTIMAL)
		return -1;
	res->flow = (uint32_t)flow;
	res->cost = simplex.totalCost<long long>();
	res->ns = t1 - t0;
	return 0;
}

/*
 * NetworkSimplex on the circulation: an arc t -> s of capacity above any
 * flow and cost -big, so that the min-cost circulation sends the max flow
 * around it at the least cost.  Constructing and running it timed.
 */
extern "C" int lemon_mcmf_circ(uint32_t n, uint32_t m, const uint32_t *tail,
			       const uint32_t *head, const int32_t *cap,
			       const int64_t *cost, uint32_t s, uint32_t t,
			       struct lemon_mcmf_result *res)
{
	net x(n, m, tail, head, cap, cost, s, t);
	SmartDigraph::Arc back = x.g.addArc(x.t, x.s);
	double t0, t1;

	x.upper[back] = (int)m + 1;
	x.price[back] = -x.big;
	t0 = now_ns();
	Simplex simplex(x.g);
	simplex.upperMap(x.upper).costMap(x.price);
	Simplex::ProblemType pt = simplex.run();
	t1 = now_ns();
	if (pt != Simplex::OPTIMAL)
		return -1;
	res->flow = (uint32_t)simplex.flow(back);
	res->cost = simplex.totalCost<long long>() + x.big * res->flow;
	res->ns = t1 - t0;
	return 0;
}

/*
 * The circulation again, by CapacityScaling (successive shortest paths
 * with capacity scaling) or CostScaling (push-relabel on epsilon-optimal
 * flows), LEMON's other min-cost flow algorithms.
 */
template <typename Algo>
static int circ_with(uint32_t n, uint32_t m, const uint32_t *tail,
		     const uint32_t *head, const int32_t *cap,
		     const int64_t *cost, uint32_t s, uint32_t t,
		     struct lemon_mcmf_result *res)
{
	net x(n, m, tail, head, cap, cost, s, t);
	SmartDigraph::Arc back = x.g.addArc(x.t, x.s);
	double t0, t1;

	x.upper[back] = (int)m + 1;
	x.price[back] = -x.big;
	t0 = now_ns();
	Algo algo(x.g);
	algo.upperMap(x.upper).costMap(x.price);
	typename Algo::ProblemType pt = algo.run();
	t1 = now_ns();
	if (pt != Algo::OPTIMAL)
		return -1;
	res->flow = (uint32_t)algo.flow(back);
	res->cost = algo.template totalCost<long long>() + x.big * res->flow;
	res->ns = t1 - t0;
	return 0;
}

extern "C" int lemon_mcmf_capscale(uint32_t n, uint32_t m,
				   const uint32_t *tail, const uint32_t *head,
				   const int32_t *cap, const int64_t *cost,
				   uint32_t s, uint32_t t,
				   struct lemon_mcmf_result *res)
{
	return circ_with<CapacityScaling<SmartDigraph, int, long long> >(
		n, m, tail, head, cap, cost, s, t, res);
}

extern "C" int lemon_mcmf_costscale(uint32_t n, uint32_t m,
				    const uint32_t *tail, const uint32_t *head,
				    const int32_t *cap, const int64_t *cost,
				    uint32_t s, uint32_t t,
				    struct lemon_mcmf_result *res)
{
	return circ_with<CostScaling<SmartDigraph, int, long long> >(
		n, m, tail, head, cap, cost, s, t, res);
}
