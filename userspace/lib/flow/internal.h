/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared inside libsluice's throughput code (not installed): the
 * path-restricted concurrent flow problem both solvers read.
 */
#ifndef _SLUICE_LIB_FLOW_INTERNAL_H
#define _SLUICE_LIB_FLOW_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/flow.h>

/*
 * Commodities (the demands of a traffic matrix that have at least one
 * path) with their paths as arc lists.  Arc 2 l is link l walked from its
 * end a to its end b, arc 2 l + 1 the other way; each has capacity 1.
 * Commodity j has demand[j] and the paths com_path[j] to com_path[j + 1] - 1;
 * path q has the arcs arcs[path_arc[q]] to arcs[path_arc[q + 1] - 1].
 */
struct sluice_i_mcf {
	uint32_t	n_arcs;
	uint64_t	n_com;
	double		*demand;
	uint64_t	*com_path;	/* n_com + 1 */
	uint64_t	n_paths;
	uint64_t	*path_arc;	/* n_paths + 1 */
	uint64_t	n_hops;
	uint32_t	*arcs;
	double		min_len_demand;	/* sum of demand * shortest path */
};

int sluice_i_mcf_build(const struct sluice_graph *g,
		       const struct sluice_routes *r,
		       const struct sluice_traffic *t, struct sluice_i_mcf *m,
		       struct sluice_flow_result *res, char *err, size_t errlen);
void sluice_i_mcf_free(struct sluice_i_mcf *m);

/*
 * The solvers: fill res->theta, theta_upper, saturated (and the fptas
 * fields) for a problem with at least one commodity.
 */
int sluice_i_flow_lp(const struct sluice_i_mcf *m,
		     struct sluice_flow_result *res, char *err, size_t errlen);
int sluice_i_flow_fptas(const struct sluice_i_mcf *m,
			const struct sluice_flow_opts *o,
			struct sluice_flow_result *res,
			char *err, size_t errlen);

int sluice_i_flow_routes_check(const struct sluice_graph *g,
			       const struct sluice_routes *r,
			       char *err, size_t errlen);
int64_t sluice_i_find_pair(const struct sluice_routes *r, uint32_t u,
			   uint32_t v, uint64_t from);
bool sluice_i_walk(const struct sluice_graph *g, const struct sluice_routes *r,
		   uint64_t q, uint32_t src, uint32_t dst, uint32_t *out);

/* traffic.c: the servers in endpoint order, and a random derangement. */
int sluice_i_server_permutation(const struct sluice_graph *g, uint64_t seed,
				uint32_t **perm, uint32_t **owner,
				uint32_t *servers, char *err, size_t errlen);

/* Arcs loaded to within this of their capacity count as saturated. */
#define SLUICE_I_SATURATED	1e-6

#endif /* _SLUICE_LIB_FLOW_INTERNAL_H */
