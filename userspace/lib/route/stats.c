// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a route set offers, in the columns of FC's Tables 1, 2 and 7.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/route.h>
#include "graph/internal.h"

/**
 * sluice_route_stats() - path counts and lengths of a route set
 * @r:		a valid route set (sluice_routes_validate())
 * @g:		its topology
 * @st:		filled
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * Averages are over the pairs of the set (paths per pair, the shortest
 * path of each pair that has one, the fabric distance of each pair) or
 * over all its paths (path length).  Lengths are in links.
 *
 * Return: 0, -EINVAL (another topology) or -ENOMEM.
 */
int sluice_route_stats(const struct sluice_routes *r,
		       const struct sluice_graph *g,
		       struct sluice_route_stats *st,
		       char *err, size_t errlen)
{
	uint64_t p, q, n, len_sum = 0, short_sum = 0, dist_sum = 0;
	uint64_t with_path = 0, reachable = 0;
	uint32_t *dist, *queue, len, shortest, src = UINT32_MAX;

	memset(st, 0, sizeof(*st));
	if (!g->finalized || r->n_nodes != g->n_nodes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the routes are not for this topology");
	dist = sluice_i_calloc(g->n_nodes, sizeof(*dist));
	queue = sluice_i_calloc(g->n_nodes, sizeof(*queue));
	if (!dist || !queue) {
		free(dist);
		free(queue);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	st->pairs = r->n_pairs;
	st->paths = r->n_paths;
	st->truncated_pairs = r->truncated_pairs;
	st->paths_min = r->n_pairs ? UINT64_MAX : 0;
	st->path_len_min = r->n_paths ? UINT32_MAX : 0;
	for (p = 0; p < r->n_pairs; p++) {
		n = sluice_routes_pair_paths(r, p);
		if (n < st->paths_min)
			st->paths_min = n;
		if (n > st->paths_max)
			st->paths_max = n;
		if (!n)
			st->pairs_without_path++;
		shortest = UINT32_MAX;
		for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
			len = sluice_routes_path_len(r, q);
			len_sum += len;
			if (len < shortest)
				shortest = len;
			if (len < st->path_len_min)
				st->path_len_min = len;
			if (len > st->path_len_max)
				st->path_len_max = len;
			if (r->path_lane[q] + 1u > st->lanes)
				st->lanes = r->path_lane[q] + 1;
		}
		if (n) {
			short_sum += shortest;
			with_path++;
		}
		/* pairs come grouped by source: one BFS per source */
		if (r->pair_src[p] != src) {
			src = r->pair_src[p];
			sluice_graph_bfs(g, src, dist, queue);
		}
		if (dist[r->pair_dst[p]] != SLUICE_DIST_INF) {
			dist_sum += dist[r->pair_dst[p]];
			reachable++;
		}
	}
	if (r->n_pairs)
		st->paths_avg = (double)r->n_paths / r->n_pairs;
	if (r->n_paths)
		st->path_len_avg = (double)len_sum / r->n_paths;
	if (with_path)
		st->shortest_len_avg = (double)short_sum / with_path;
	if (reachable)
		st->distance_avg = (double)dist_sum / reachable;
	free(dist);
	free(queue);
	return 0;
}
