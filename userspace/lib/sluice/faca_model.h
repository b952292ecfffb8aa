/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A flow-level model of FaCa's evaluation (Sections 7.1 and 7.3) at any
 * scale (lib/faca/model.c): how Flowing&Jumping's randomness fares
 * against ECMP, WCMP, a greedy "lightest path" and the optimum when every
 * source decides at once on the same stale loads.
 *
 * The fabric is a leaf-spine: L leaves, S spines, every leaf linked to
 * every spine, so a pair of leaves has S paths, one through each spine.
 * Capacities are the paper's, per switch (Section 7.3: leaves of 200,
 * spines of 380 and 400): a spine forwards at most its capacity over all
 * its ports, and the spines' capacities are the only resources sources
 * share.  Leaves are paired (2i and 2i + 1) and each sends to its pair
 * (one way: only the even ones), so a link between a leaf and a spine
 * carries one pair's traffic alone and adds no competition between
 * sources: links are not modelled, and a leaf never offers more than it
 * can send.
 *
 * A run is rounds of growing load.  In each round every sending leaf
 * adds @flows long-lived flows of @flow_size to its pair, placed by the
 * policy; flows stay for the rest of the run.  All leaves decide at once:
 * the loads a policy sees are the spines' at the round's start (each
 * spine's offered load over its capacity: a utilisation, which is what a
 * path's delay tells of it), plus the source's own flows of the round as
 * it places them, never another source's.  The policies:
 *
 *   ecmp     each flow on a uniformly random spine (a 5-tuple hash)
 *   wcmp     each flow on a random spine, chosen in proportion to its
 *            capacity (weighted ECMP)
 *   greedy   each flow on the lightest path of the source's view (ties
 *            broken at random): what sources without randomness do
 *   fj       Flowing&Jumping on the source's view (sluice/fj.h, with the
 *            spines' capacities, spines numbered as the ring)
 *   optimum  every flow split over all spines in proportion to their
 *            capacities: every spine at the same utilisation, total
 *            offered / total capacity, which no placement can keep below
 *            (the spines' loads average to it, weighted by capacity), so
 *            it is the least maximum utilisation, exactly
 *
 * After each round, for each policy:
 *
 *   congestion   the share of spine ports (the L' S links of the sending
 *                leaves) that carry traffic into a spine offered more than
 *                its capacity
 *   overflow     the offered load beyond capacity, summed over spines,
 *                as a share of all offered load
 *   max_util     the highest spine utilisation
 *   port_sd      the population standard deviation of the spine ports'
 *                throughput once the flows share the spines max-min
 *                fairly (sluice_maxmin_fill(): each flow capped at its
 *                size, TCP's sharing in the limit); the optimum's ports
 *                carry their share, scaled down alike when the spines
 *                are overloaded
 *   throughput   the aggregate delivered load under the same sharing
 *
 * each as a mean over @runs runs and its sample standard deviation.  Run
 * i draws from @seed + i, each policy from a stream of its own.
 *
 * Functions that fail return a negative errno with a message in @err.
 */
#ifndef _SLUICE_FACA_MODEL_H
#define _SLUICE_FACA_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sluice_faca_policy {
	SLUICE_FACA_ECMP,
	SLUICE_FACA_WCMP,
	SLUICE_FACA_GREEDY,
	SLUICE_FACA_FJ,
	SLUICE_FACA_OPTIMUM,
	SLUICE_FACA_POLICIES,
};

/* Bounds on a model's size: its arrays must fit memory. */
#define SLUICE_FACA_LEAVES_MAX	65536
#define SLUICE_FACA_SPINES_MAX	4096
#define SLUICE_FACA_FLOWS_MAX	(1u << 22)	/* in a run, all leaves */
#define SLUICE_FACA_RUNS_MAX	100000

struct sluice_faca_model {
	uint32_t	leaves;		/* even, at least 2 */
	uint32_t	spines;		/* at least 1 */
	uint32_t	slow_spines;	/* spines 0 .. slow_spines - 1 */
	double		slow_cap, fast_cap;	/* a spine's, > 0 */
	double		leaf_cap;	/* what a leaf can send */
	double		flow_size;
	uint32_t	flows;		/* a sending leaf's new flows a round */
	uint32_t	rounds;
	bool		one_way;	/* only the even leaves send */
	uint32_t	runs;
	uint64_t	seed;
};

/*
 * Section 7.3's micro-benchmark with @leaves and @spines (the paper: 16
 * and 8): leaves of 200, half the spines (rounded down) at 0.95 of an even
 * share of the leaves' load and the others at a full share (380 and 400
 * with the paper's sizes), 10 rounds of 2 flows of 10 a leaf (the last
 * round at the leaves' capacity), 20 runs, seed 1.
 * Time: O(1).
 */
void sluice_faca_micro(struct sluice_faca_model *m, uint32_t leaves,
		       uint32_t spines);
/*
 * Section 7.1's production test: one leaf's 10 RNICs send 2 flows of 100
 * each (the leaf's capacity 2000) over 10 uplinks to the core, one round,
 * 20 runs.  The paper does not give the ports' speed; 400 is assumed
 * (Fig. 6 shows a port carrying four flows of 100).
 * Time: O(1).
 */
void sluice_faca_production(struct sluice_faca_model *m);

struct sluice_faca_stat {
	double	mean;
	double	sd;		/* sample (n - 1); 0 for one run */
};

/* One policy after one round, over the runs. */
struct sluice_faca_point {
	struct sluice_faca_stat	congestion;
	struct sluice_faca_stat	overflow;
	struct sluice_faca_stat	max_util;
	struct sluice_faca_stat	port_sd;
	struct sluice_faca_stat	throughput;
};

struct sluice_faca_result {
	uint32_t			rounds;
	double				*load;	/* a sending leaf's, / leaf_cap */
	double				*offered;	/* all leaves' */
	struct sluice_faca_point	*p;	/* [policy * rounds + round] */
};

/*
 * Time: O(runs P R (N log N + L' f S)) for P policies, R rounds, N flows
 * in a run, L' sending leaves, f flows a round and S spines; memory
 * O(N + L' S).
 */
int sluice_faca_model_run(const struct sluice_faca_model *m,
			  struct sluice_faca_result *res,
			  char *err, size_t errlen);
/* Time: O(1). */
void sluice_faca_result_free(struct sluice_faca_result *res);

static inline const struct sluice_faca_point *
sluice_faca_at(const struct sluice_faca_result *res,
	       enum sluice_faca_policy p, uint32_t round)
{
	return &res->p[(size_t)p * res->rounds + round];
}

/* "ecmp", "wcmp", "greedy", "fj", "optimum"; NULL out of range.  Time: O(1). */
const char *sluice_faca_policy_name(enum sluice_faca_policy p);

/*
 * The micro-benchmark on a fabric of namespaces ("sluicectl experiment
 * faca --parts micro"), at flow level, for its prediction
 * (lib/faca/expect.c): one leaf's @flows flows to its pair, each offering
 * @rate (its host's link), over @paths paths, path p of capacity cap[p]
 * (its spine's port down to the pair).  A path's flows share it equally,
 * each capped at @rate (max-min fairness, TCP's sharing in the limit);
 * what only the placement decides:
 *
 *   congestion   the share of paths offered more than their capacity
 *   throughput   what the paths carry in all: the sum of min(offered,
 *                capacity)
 *   port_sd      the population standard deviation of the paths'
 *                throughputs
 *   flow_sd      the population standard deviation of the flows'
 *
 * For random placement (ECMP: equal weights; WCMP: weights by capacity)
 * each is an exact expectation over the flows' independent draws; for
 * the balanced placement, the one placement that puts each flow in turn
 * on the path it leaves least utilised (ties to the lowest), which is
 * what FaCa's agents aim at when their probes see every flow placed
 * before.
 */
struct sluice_faca_expect {
	double	congestion;
	double	throughput;
	double	port_sd;
	double	flow_sd;
};

/* The most paths, and of ways @flows flows fall on them, computed. */
#define SLUICE_FACA_EXPECT_PATHS	64
#define SLUICE_FACA_EXPECT_WAYS		10000000

/*
 * Random placement, each flow on path p with probability w[p] / sum(w)
 * (w NULL: equal).  Returns 0, or -EINVAL (no path, more than
 * SLUICE_FACA_EXPECT_PATHS, a capacity, weight or rate not above 0) or
 * -E2BIG (more than SLUICE_FACA_EXPECT_WAYS ways to split the flows over
 * the paths) with a message.  Time: O(C(flows + paths - 1, paths - 1) *
 * paths), the ways to split them.
 */
int sluice_faca_expect_random(const double *cap, const double *w,
			      uint32_t paths, uint32_t flows, double rate,
			      struct sluice_faca_expect *e, char *err,
			      size_t errlen);
/*
 * The balanced placement; errors as above but -E2BIG. O(flows * paths).  Time:
 * O(flows * paths).
 */
int sluice_faca_expect_balanced(const double *cap, uint32_t paths,
				uint32_t flows, double rate,
				struct sluice_faca_expect *e, char *err,
				size_t errlen);

#endif /* _SLUICE_FACA_MODEL_H */
