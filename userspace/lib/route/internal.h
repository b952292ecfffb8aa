/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared inside libsluice's route code (not installed).
 */
#ifndef _SLUICE_LIB_ROUTE_INTERNAL_H
#define _SLUICE_LIB_ROUTE_INTERNAL_H

#include <sluice/route.h>

#define SLUICE_I_AT_SET		UINT64_MAX

int sluice_i_routes_check(const struct sluice_routes *r,
			  const struct sluice_graph *g, uint64_t *at,
			  char *err, size_t errlen);

/* The pairs a shard must hold, in order: (ep[si], ep[di]). */
struct sluice_i_expect {
	const uint32_t	*ep;
	uint32_t	n_ep;
	uint32_t	last;	/* sources ep[first..last) */
	uint32_t	si, di;
};

/* sluice_i_routes_check(), a chunk of pairs at a time (routes.c). */
struct sluice_i_checker {
	const struct sluice_graph	*g;
	bool				started;
	uint32_t			*ep, n_ep;
	uint64_t			*seen;
	struct sluice_i_expect		x;
	uint32_t			shard_index, shard_count;
	uint64_t			pairs, paths;	/* checked so far */
	uint32_t			last_s, last_d;
};

int sluice_i_checker_init(struct sluice_i_checker *ck,
			  const struct sluice_routes *head,
			  const struct sluice_graph *g, char *err,
			  size_t errlen);
int sluice_i_checker_add(struct sluice_i_checker *ck,
			 const struct sluice_routes *chunk, uint64_t *at,
			 char *err, size_t errlen);
int sluice_i_checker_end(struct sluice_i_checker *ck,
			 const struct sluice_routes *head, uint64_t *at,
			 char *err, size_t errlen);
void sluice_i_checker_free(struct sluice_i_checker *ck);

/* A whole route set gathered from a stream's chunks (routes.c). */
struct sluice_i_collector {
	struct sluice_routes	*r;
	uint64_t		pairs, pairs2, pairs3, paths, paths2, hops;
};

int sluice_i_collect(void *arg, const struct sluice_routes *chunk,
		     char *err, size_t errlen);
int sluice_i_collect_end(struct sluice_i_collector *col,
			 const struct sluice_routes *head, char *err,
			 size_t errlen);

#endif /* _SLUICE_LIB_ROUTE_INTERNAL_H */
