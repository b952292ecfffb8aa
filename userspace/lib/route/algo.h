/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a routing algorithm provides to the compute driver (routes.c).
 * Inside libsluice only.
 *
 * The driver calls prepare() once (global work: FC's virtual up-down graph,
 * the spanning trees, the up*_/down* orientation), then worker_init() once
 * per thread, then source() for each source, from any thread, each call
 * with its thread's worker, then worker_free() and release().  source()
 * must not change the context: threads share it.
 *
 * source() appends to @b (whose src is the source) the paths to each of
 * @dsts[0..@n_dsts) - endpoints in increasing order, the source left out -
 * with sluice_path_buf_pair(b, dst) before each destination's paths.  The
 * same inputs must give the same paths in the same order whatever thread
 * runs them: no randomness except from the options' seed, no shared state.
 */
#ifndef _SLUICE_LIB_ROUTE_ALGO_H
#define _SLUICE_LIB_ROUTE_ALGO_H

#include <sluice/route.h>

struct sluice_algo_ops {
	int	(*prepare)(const struct sluice_graph *g,
			   const struct sluice_route_opts *o, void **ctx,
			   char *err, size_t errlen);
	int	(*worker_init)(void *ctx, void **worker);
	int	(*source)(void *ctx, void *worker, const uint32_t *dsts,
			  uint32_t n_dsts, struct sluice_path_buf *b,
			  char *err, size_t errlen);
	void	(*worker_free)(void *worker);
	void	(*release)(void *ctx);
};

extern const struct sluice_algo_ops sluice_algo_fc;
extern const struct sluice_algo_ops sluice_algo_edst;	/* and edst-shallow */
extern const struct sluice_algo_ops sluice_algo_ecmp;
extern const struct sluice_algo_ops sluice_algo_ecmp_cw;
extern const struct sluice_algo_ops sluice_algo_ksp;
extern const struct sluice_algo_ops sluice_algo_updown;
extern const struct sluice_algo_ops sluice_algo_bcube;

#endif /* _SLUICE_LIB_ROUTE_ALGO_H */
