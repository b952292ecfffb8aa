/* SPDX-License-Identifier: GPL-2.0-or-later */
/* LEMON's min-cost max-flow, for the routing benchmark (lemon_mcmf.cc). */
#ifndef _SLUICE_BENCH_LEMON_MCMF_H
#define _SLUICE_BENCH_LEMON_MCMF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct lemon_mcmf_result {
	uint32_t	flow;
	int64_t		cost;
	double		ns;	/* the solve alone */
};

/*
 * Min-cost max-flow from @s to @t on nodes 0..@n-1 and arcs
 * @tail[i] -> @head[i] of capacity @cap[i] and cost @cost[i], by Preflow
 * then NetworkSimplex (lemon_mcmf()) or by NetworkSimplex on the
 * circulation with an arc t -> s (lemon_mcmf_circ()).  Each returns 0, or
 * -1 if NetworkSimplex found no optimum.
 */
int lemon_mcmf(uint32_t n, uint32_t m, const uint32_t *tail,
	       const uint32_t *head, const int32_t *cap, const int64_t *cost,
	       uint32_t s, uint32_t t, struct lemon_mcmf_result *res);
int lemon_mcmf_circ(uint32_t n, uint32_t m, const uint32_t *tail,
		    const uint32_t *head, const int32_t *cap,
		    const int64_t *cost, uint32_t s, uint32_t t,
		    struct lemon_mcmf_result *res);
int lemon_mcmf_capscale(uint32_t n, uint32_t m, const uint32_t *tail,
			const uint32_t *head, const int32_t *cap,
			const int64_t *cost, uint32_t s, uint32_t t,
			struct lemon_mcmf_result *res);
int lemon_mcmf_costscale(uint32_t n, uint32_t m, const uint32_t *tail,
			 const uint32_t *head, const int32_t *cap,
			 const int64_t *cost, uint32_t s, uint32_t t,
			 struct lemon_mcmf_result *res);

#ifdef __cplusplus
}
#endif

#endif /* _SLUICE_BENCH_LEMON_MCMF_H */
