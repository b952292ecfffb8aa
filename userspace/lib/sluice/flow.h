/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Throughput of a fabric under a traffic matrix, restricted to a route set:
 * the maximum concurrent flow of FC (Zhang et al., NSDI'23), Section 4.
 *
 * Units.  Demands are between endpoints (sluice_graph_endpoints()), in
 * units of a server's line rate, and a link carries 1 in each direction:
 * it is full duplex and as fast as a host port.  A node's servers are its
 * host ports (a BCube server, or a node of a fabric without host ports, is
 * one).  Each server sends at most 1 in total:
 *
 *  - all-to-all: every server sends to every other server of the fabric,
 *    1 / (H - 1) to each (H servers in all); u sends w(u) w(v) / (H - 1)
 *    to v.  Traffic between two servers of one switch never enters the
 *    fabric and is left out.
 *  - uniform random (FC's "each ToR picks 10% of ToRs"): each endpoint u
 *    picks P of the other endpoints at random, and each of its servers
 *    sends 1 spread evenly over the servers of those: u sends
 *    w(u) w(v) / (sum of w over the picked) to each picked v.
 *  - near-worst (Jyothi et al., "Measuring and Understanding Throughput of
 *    Network Topologies", SC'16; FC Section 4): the permutation of the
 *    endpoints that maximises the total shortest-path distance between
 *    each endpoint and its image (a maximum-weight perfect matching of the
 *    complete bipartite graph, never an endpoint to itself); u sends w(u),
 *    all its servers at line rate, to its image.
 *  - permutation (TCP-Bolt, Section IV-B): a random permutation of the
 *    servers drawn from the seed, each server sending once and receiving
 *    once at line rate; never a server to itself (a derangement, uniform
 *    over all of them, so a fabric needs two servers).  u sends to v as
 *    many as its servers drew one of v's; a server that drew another
 *    server of its own switch stays off the fabric (counted in local).
 *
 * Throughput theta(T) is the largest theta such that theta T can be routed
 * on the paths of the route set - any split of each pair's demand over its
 * own paths - with no link direction above 1.  So theta is the fraction of
 * line rate every server can send at at once: FC's Fig. 7 y-axis (its
 * Table 3 has Clos at (p - h) / h = 14/18 = 0.78 and FC at 1.49).  Host
 * links are not modelled: theta above 1 means the fabric has more capacity
 * than the servers can use (FC Appendix A.3 says the same of Clos).
 *
 * Two solvers: an exact linear program (GLPK's simplex) for small route
 * sets, and Garg and Koenemann's multiplicative-weights approximation with
 * Fleischer's approximate shortest paths for large ones, stopped when a
 * feasible flow and a dual (length) bound are within epsilon of each other,
 * so its answer carries a proof of its accuracy.
 *
 * Every function that can fail returns 0 or a negative errno with a message
 * in @err (@errlen bytes; SLUICE_ERRLEN is enough).
 */
#ifndef _SLUICE_FLOW_H
#define _SLUICE_FLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/graph.h>
#include <sluice/route.h>

/* ---- traffic matrices ---- */

enum sluice_traffic_kind {
	SLUICE_TRAFFIC_ALL2ALL,
	SLUICE_TRAFFIC_UNIFORM,
	SLUICE_TRAFFIC_WORST,
	SLUICE_TRAFFIC_PERMUTATION,
};

/* The most servers a permutation takes. */
#define SLUICE_PERMUTATION_SERVERS_MAX	(1u << 24)

/*
 * Which matrix: "all2all", "uniform:P", "uniform:P%", "worst" or
 * "permutation".
 */
struct sluice_traffic_spec {
	enum sluice_traffic_kind	kind;
	/* uniform: P destinations per source, or P percent of the others */
	uint32_t			count;
	bool				percent;
	uint64_t			seed;	/* uniform, permutation */
};

/*
 * A traffic matrix: n_dem demands src[i] -> dst[i] of demand[i] > 0, in
 * increasing (src, dst) order, between distinct endpoints.
 */
struct sluice_traffic {
	enum sluice_traffic_kind kind;
	uint32_t	n_nodes;
	uint64_t	n_dem;
	uint32_t	*src;
	uint32_t	*dst;
	double		*demand;
	double		total;		/* sum of demand[] */
	uint32_t	picks;		/* uniform: destinations per source */
	uint64_t	local;		/* permutation: flows inside a switch */
};

/* Time: O(length of @s). */
int sluice_traffic_parse(const char *s, struct sluice_traffic_spec *spec,
			 char *err, size_t errlen);
/*
 * Time: O(E^2) for all2all, O(E^2) for uniform, O(E (n + m) + E^3) for worst
 * (one BFS per endpoint, then the matching), O(n + H log H) for permutation (H
 * servers).
 */
int sluice_traffic_make(const struct sluice_graph *g,
			const struct sluice_traffic_spec *spec,
			struct sluice_traffic *t, char *err, size_t errlen);
/* Time: O(1). */
void sluice_traffic_free(struct sluice_traffic *t);
/* Time: O(1), O(n) for a fabric without endpoints. */
uint32_t sluice_traffic_servers(const struct sluice_graph *g, uint32_t u);
/* The most rows sluice_max_matching() takes: n^2 weights must fit memory. */
#define SLUICE_MATCHING_MAX	65535
/* Time: O(n^3); memory O(n^2) for the costs. */
int sluice_max_matching(uint32_t n, const int64_t *weight, uint32_t *match,
			int64_t *total, char *err, size_t errlen);

/* ---- maximum concurrent flow over a route set ---- */

enum sluice_flow_method {
	SLUICE_FLOW_AUTO,	/* lp up to SLUICE_FLOW_LP_AUTO paths, else fptas */
	SLUICE_FLOW_LP,
	SLUICE_FLOW_FPTAS,
};

/* The most paths (with demand) "auto" gives the LP. */
#define SLUICE_FLOW_LP_AUTO		4000
#define SLUICE_FLOW_EPSILON_DEFAULT	0.01
#define SLUICE_FLOW_EPSILON_MIN		1e-4
#define SLUICE_FLOW_EPSILON_MAX		0.5

/* Zero is the default for every field. */
struct sluice_flow_opts {
	enum sluice_flow_method	method;
	/*
	 * fptas: stop once theta >= (1 - epsilon) theta_upper, so that theta
	 * is within epsilon of the optimum (default 0.01).
	 */
	double			epsilon;
	/* fptas: give up after this many phases (default 1000000) */
	uint64_t		max_phases;
	/*
	 * fptas: called now and then with the phases run and max_phases
	 * (which it may stop well before); NULL: not called.
	 */
	sluice_progress_fn	progress;
	void			*progress_arg;
};

struct sluice_flow_result {
	enum sluice_flow_method	method;		/* the one that ran */
	/* A flow of theta T exists on the paths; none above theta_upper. */
	double			theta;
	double			theta_upper;
	/*
	 * The simple upper bound whatever the routes: every link direction
	 * carries at most 1, and a unit of u -> v crosses at least dist(u, v)
	 * of them, so theta <= 2 links / sum of demand * dist (0 when a
	 * demand's endpoints are not connected).
	 */
	double			bound;
	/* The same with each pair's shortest path in the set for dist. */
	double			bound_paths;
	uint64_t		commodities;	/* demands */
	uint64_t		paths;		/* their paths */
	/* demands whose pair has no path (theta is then 0); the first one */
	uint64_t		unrouted;
	uint32_t		unrouted_src, unrouted_dst;
	/* fptas */
	double			epsilon;
	uint64_t		phases;
	bool			converged;	/* the gap closed to epsilon */
	/* link directions loaded to within 1e-6 of 1 by the flow found */
	uint64_t		saturated;
};

/* Time: O(S (n + m) + D) for S sources and D demands. */
int sluice_flow_bound(const struct sluice_graph *g,
		      const struct sluice_traffic *t, double *bound,
		      char *err, size_t errlen);
/*
 * Time: O(S (n + m)) for the bound, O(D log P + hops) to build the problem,
 * then the solver's (lp.c, fptas.c).
 */
int sluice_flow_theta(const struct sluice_graph *g,
		      const struct sluice_routes *r,
		      const struct sluice_traffic *t,
		      const struct sluice_flow_opts *o,
		      struct sluice_flow_result *res, char *err, size_t errlen);
/* Time: O(1). */
const char *sluice_flow_method_name(enum sluice_flow_method m);
/* Time: O(1). */
int sluice_flow_method_parse(const char *name);

/* ---- the Clos baseline (FC Appendix A.3) ---- */

#define SLUICE_CLOS_LAYERS_MAX	8

/*
 * The Clos network with the most throughput for @hosts servers built from
 * at most @switches switches of @ports ports.  ToRs have h host ports and
 * u = p - h uplinks; every layer above the ToRs is non-blocking, so the
 * throughput is (p - h) / h, and the best Clos has the least h.
 *
 *  - 2 layers (FC's Eq. 5): T = ceil(H / h) <= p ToRs, each linked once to
 *    each of the u spines.
 *  - 3 layers: pods of p/2 ToRs (the last may be short), each pod with its
 *    own u aggregation switches, linked once to each of the pod's ToRs and
 *    with as many uplinks.  Plane i is the aggregation switches i of all
 *    pods and S spines, S the least divisor of p/2 with pods * (p/2) / S
 *    <= p: a full pod's switch has (p/2) / S links to each spine of its
 *    plane.  Equal links to every spine are what makes the layer
 *    non-blocking; FC's Section 5 Clos (64 ToRs, 56 + 28 switches) is
 *    one.  At most p^2 / 2 ToRs.
 *  - 4 layers and more are counted by ports only (each middle layer p/2
 *    down, the top p down: a lower bound on a real build, enough to see
 *    that they lose to 3 layers here) and not built.
 *
 * L goes up from 2 until the least feasible h stops falling (FC's
 * h(L) < h(L + 1)), and the best L and h are kept.  ToRs get the servers
 * as evenly as can be (at most h each).
 */
struct sluice_clos_size {
	uint32_t	ports;		/* p */
	uint32_t	hosts;		/* H */
	uint32_t	switches_max;	/* N */
	uint32_t	layers;		/* L */
	uint32_t	host_ports;	/* h: the most servers on one ToR */
	uint32_t	uplinks;	/* p - h */
	uint32_t	switches;	/* used, at most N */
	uint32_t	layer_switches[SLUICE_CLOS_LAYERS_MAX];	/* [0]: ToRs */
	double		theta;		/* (p - h) / h */
};

/* Time: O(p L). */
int sluice_clos_size(uint32_t ports, uint32_t hosts, uint32_t switches,
		     struct sluice_clos_size *c, char *err, size_t errlen);
/* Time: O(T p). */
int sluice_clos_build(const struct sluice_clos_size *c, struct sluice_graph *g,
		      char *err, size_t errlen);

/* ---- max-min fair rates (TCP-Bolt's flow simulator) ---- */

/*
 * The model of TCP-Bolt's EDST analysis (Sections IV-B and V-C, Fig. 14),
 * as against the concurrent flow above: each server's flow takes ONE path,
 * and the flows share the links max-min fairly, as TCP would.
 *
 * A flow of a permutation (the traffic kind above, one flow per server)
 * from a server of u to a server of v != u takes one path of the pair
 * (u, v) of the route set, drawn uniformly among the pair's shortest paths
 * in the set (fewest links).  That is ECMP's per-flow hash on an ecmp
 * route set, and TCP-Bolt's "randomly selects a tree from among the trees
 * that offer the shortest routes" on an edst one: the trees of every lane
 * compete, each with its own path.  A flow between two servers of one
 * switch crosses only host links.
 *
 * Capacities are 1 for each link direction and for each server's own up
 * and down host link; rates are max-min fair, found by progressive
 * filling: all flows rise together, and a flow stops when a link it
 * crosses fills.  For fixed paths that is exact (it is the unique max-min
 * fair allocation).  Aggregate throughput is the sum of the rates over
 * the servers H - the mean rate, 1 with no contention - and is averaged
 * over runs, each a new permutation and new path draws: run i draws its
 * permutation from seed + i (so it is the matrix sluice_traffic_make()
 * makes with that seed) and its paths from a generator of its own.
 */

/* The most runs sluice_flow_maxmin() averages over. */
#define SLUICE_MAXMIN_RUNS_MAX	100000

struct sluice_maxmin_result {
	uint32_t	runs;
	uint32_t	servers;	/* H, and the flows of each run */
	/* mean over runs of (sum of rates) / H, and its standard deviation */
	double		throughput;
	double		throughput_sd;	/* sample (n - 1); 0 for one run */
	double		throughput_min;	/* the worst run */
	double		rate_min;	/* the least rate of any flow, any run */
	/* per run, averaged over runs */
	double		local;		/* flows inside one switch */
	double		fabric_rate;	/* mean rate of the other flows */
	double		path_len;	/* mean links of their paths */
	double		saturated;	/* link directions loaded to 1 */
	/* flows whose pair has no path (rate 0), all runs; the first one */
	uint64_t	unrouted;
	uint32_t	unrouted_src, unrouted_dst;
};

/*
 * @runs permutations of @spec (kind permutation, else -EINVAL) on @r.
 * Time: per run O(n + H (log P + K) + (L + H l) log(L + H l)) for n nodes,
 * H servers, P pairs, K paths a pair, L links and paths of l links.
 */
int sluice_flow_maxmin(const struct sluice_graph *g,
		       const struct sluice_routes *r,
		       const struct sluice_traffic_spec *spec, uint32_t runs,
		       sluice_progress_fn progress, void *progress_arg,
		       struct sluice_maxmin_result *res,
		       char *err, size_t errlen);

/*
 * The max-min fair rates of flows on resources, by progressive filling:
 * resource j has capacity cap[j] >= 0; flow f crosses the resources
 * res[flow_res[f]] to res[flow_res[f + 1] - 1] (at least one; a resource
 * listed twice counts twice).  Time: O((R + I) log(R + I)) for R
 * resources and I incidences (the length of @res).
 */
int sluice_maxmin_fill(uint32_t n_res, const double *cap, uint64_t n_flows,
		       const uint64_t *flow_res, const uint32_t *res,
		       double *rate, char *err, size_t errlen);

#endif /* _SLUICE_FLOW_H */
