// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a route set offers, in the columns of FC's Tables 1, 2 and 7: over
 * a whole set, or over a stream of its chunks (sluice/route.h), with the
 * same sums either way.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/route.h>
#include "graph/internal.h"

struct sluice_route_stats_stream {
	const struct sluice_graph	*g;
	struct sluice_route_stats	*st;
	uint32_t			*dist, *queue, src;
	uint64_t			len_sum, short_sum, dist_sum;
	uint64_t			with_path, reachable;
};

/**
 * sluice_route_stats_start() - the statistics of a set fed in chunks
 * @sp:		set to the stream; sluice_route_stats_free() it in any case
 * @g:		the set's topology
 * @head:	the set's header (its topology, its truncated pairs)
 * @st:		filled as the chunks come; whole after sluice_route_stats_end()
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * Then sluice_route_stats_add() for each chunk (a sluice_routes_sink_fn
 * with the stream as its arg), in order, of a valid set.  Memory: two
 * arrays over the nodes.
 *
 * Return: 0, -EINVAL (another topology) or -ENOMEM.
 */
int sluice_route_stats_start(struct sluice_route_stats_stream **sp,
			     const struct sluice_graph *g,
			     const struct sluice_routes *head,
			     struct sluice_route_stats *st, char *err,
			     size_t errlen)
{
	struct sluice_route_stats_stream *s;

	memset(st, 0, sizeof(*st));
	*sp = s = calloc(1, sizeof(*s));
	if (!s)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	if (!g->finalized || head->n_nodes != g->n_nodes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the routes are not for this topology");
	s->dist = sluice_i_calloc(g->n_nodes, sizeof(*s->dist));
	s->queue = sluice_i_calloc(g->n_nodes, sizeof(*s->queue));
	if (!s->dist || !s->queue)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	s->g = g;
	s->st = st;
	s->src = UINT32_MAX;
	st->truncated_pairs = head->truncated_pairs;
	st->paths_min = UINT64_MAX;
	st->path_len_min = UINT32_MAX;
	return 0;
}

/* The next chunk's pairs into the sums.  Always 0. */
int sluice_route_stats_add(void *stream, const struct sluice_routes *r,
			   char *err, size_t errlen)
{
	struct sluice_route_stats_stream *s = stream;
	struct sluice_route_stats *st = s->st;
	uint32_t len, shortest;
	uint64_t p, q, n;

	(void)err;
	(void)errlen;
	st->pairs += r->n_pairs;
	st->paths += r->n_paths;
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
			s->len_sum += len;
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
			s->short_sum += shortest;
			s->with_path++;
		}
		/* pairs come grouped by source: one BFS per source */
		if (r->pair_src[p] != s->src) {
			s->src = r->pair_src[p];
			sluice_graph_bfs(s->g, s->src, s->dist, s->queue);
		}
		if (s->dist[r->pair_dst[p]] != SLUICE_DIST_INF) {
			s->dist_sum += s->dist[r->pair_dst[p]];
			s->reachable++;
		}
	}
	return 0;
}

/* The averages, once every chunk is in. */
void sluice_route_stats_end(struct sluice_route_stats_stream *s)
{
	struct sluice_route_stats *st = s->st;

	if (!st->pairs)
		st->paths_min = 0;
	if (!st->paths)
		st->path_len_min = 0;
	if (st->pairs)
		st->paths_avg = (double)st->paths / st->pairs;
	if (st->paths)
		st->path_len_avg = (double)s->len_sum / st->paths;
	if (s->with_path)
		st->shortest_len_avg = (double)s->short_sum / s->with_path;
	if (s->reachable)
		st->distance_avg = (double)s->dist_sum / s->reachable;
}

void sluice_route_stats_free(struct sluice_route_stats_stream *s)
{
	if (!s)
		return;
	free(s->dist);
	free(s->queue);
	free(s);
}

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
	struct sluice_route_stats_stream *s;
	int ret;

	ret = sluice_route_stats_start(&s, g, r, st, err, errlen);
	if (!ret) {
		sluice_route_stats_add(s, r, err, errlen);
		sluice_route_stats_end(s);
	} else {
		memset(st, 0, sizeof(*st));
	}
	sluice_route_stats_free(s);
	return ret;
}
