/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FC routing's per-pair min-cost max-flow, taken apart for the routing
 * benchmark (userspace/bench), which times it against another solver on
 * the very same flow networks.  Inside libsluice only; sluice_algo_fc is
 * the interface everything else uses.
 *
 * With a context from sluice_algo_fc.prepare() and a worker from its
 * worker_init():
 *
 *	sluice_i_fc_build(ctx, w, src, dst);	the pair's flow network
 *	sluice_i_fc_net_size(w, &n, &m);	export it (optional)
 *	sluice_i_fc_net_export(ctx, w, true, tail, head, cap, cost, &s, &t);
 *	sluice_i_fc_solve(ctx, w, &res);	min-cost max-flow on it
 *	sluice_i_fc_check(w);			its optimality certificate
 *
 * source() runs the certificate on a sample of the pairs; after
 * sluice_i_fc_certify_every(ctx, 1), on every one.
 */
#ifndef _SLUICE_LIB_ROUTE_FC_H
#define _SLUICE_LIB_ROUTE_FC_H

#include <stdbool.h>
#include <stdint.h>

struct sluice_i_fc_result {
	uint32_t	flow;	/* F, the most edge-disjoint up-down paths */
	int64_t		cost;	/* in the paper's costs: M a solid arc,
				 * 1 a dashed one */
	uint64_t	solid;	/* the paths' links, all told */
};

int sluice_i_fc_build(void *ctx, void *worker, uint32_t src, uint32_t dst);
void sluice_i_fc_net_size(const void *worker, uint32_t *n_nodes,
			  uint32_t *n_arcs);
void sluice_i_fc_net_export(const void *ctx, const void *worker,
			    bool lexicographic, uint32_t *tail,
			    uint32_t *head, int32_t *cap, int64_t *cost,
			    uint32_t *s, uint32_t *t);
void sluice_i_fc_solve(const void *ctx, void *worker,
		       struct sluice_i_fc_result *res);
bool sluice_i_fc_check(const void *worker);
void sluice_i_fc_certify_every(void *ctx, uint32_t every);
uint32_t sluice_i_fc_full_net(const void *ctx, uint32_t *tail,
			      uint32_t *head, int32_t *cap, int64_t *cost);
void sluice_i_fc_full_ends(const void *ctx, uint32_t src, uint32_t dst,
			   uint32_t *s, uint32_t *t);

#endif /* _SLUICE_LIB_ROUTE_FC_H */
