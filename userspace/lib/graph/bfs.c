// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Breadth-first search and the summary numbers of a fabric: components,
 * degrees, diameter and average shortest path length.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/graph.h>
#include "internal.h"

/**
 * sluice_graph_bfs() - hop distances from one node
 * @g:		a finalized graph
 * @src:	the source node
 * @dist:	n_nodes entries: the links on a shortest path from @src, or
 *		SLUICE_DIST_INF where there is none
 * @queue:	n_nodes entries of scratch space
 */
void sluice_graph_bfs(const struct sluice_graph *g, uint32_t src,
		      uint32_t *dist, uint32_t *queue)
{
	uint32_t head = 0, tail = 0, u, i;

	for (u = 0; u < g->n_nodes; u++)
		dist[u] = SLUICE_DIST_INF;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		u = queue[head++];
		for (i = g->off[u]; i < g->off[u + 1]; i++) {
			uint32_t v = g->adj[i].peer;

			if (dist[v] == SLUICE_DIST_INF) {
				dist[v] = dist[u] + 1;
				queue[tail++] = v;
			}
		}
	}
}

/**
 * sluice_graph_components() - label the connected components
 * @g:		a finalized graph
 * @comp:	n_nodes entries: each node's component, numbered from 0 in
 *		the order of their smallest node
 * @queue:	n_nodes entries of scratch space
 *
 * Return: the number of components.
 */
uint32_t sluice_graph_components(const struct sluice_graph *g,
				 uint32_t *comp, uint32_t *queue)
{
	uint32_t n = 0, s, head, tail, u, i;

	for (u = 0; u < g->n_nodes; u++)
		comp[u] = SLUICE_DIST_INF;
	for (s = 0; s < g->n_nodes; s++) {
		if (comp[s] != SLUICE_DIST_INF)
			continue;
		head = tail = 0;
		comp[s] = n;
		queue[tail++] = s;
		while (head < tail) {
			u = queue[head++];
			for (i = g->off[u]; i < g->off[u + 1]; i++)
				if (comp[g->adj[i].peer] == SLUICE_DIST_INF) {
					comp[g->adj[i].peer] = n;
					queue[tail++] = g->adj[i].peer;
				}
		}
		n++;
	}
	return n;
}

static void degree_stats(const struct sluice_graph *g,
			 struct sluice_graph_stats *st)
{
	uint32_t u, d;

	st->degree_min = UINT32_MAX;
	for (u = 0; u < g->n_nodes; u++) {
		const struct sluice_node *n = &g->nodes[u];

		d = sluice_graph_degree(g, u);
		if (d < st->degree_min)
			st->degree_min = d;
		if (d > st->degree_max)
			st->degree_max = d;
		if (n->kind == SLUICE_NODE_SERVER)
			st->servers++;
		else
			st->switches++;
		st->host_ports += n->hosts;
		if (sluice_node_is_endpoint(n))
			st->endpoints++;
	}
	st->degree_avg = 2.0 * g->n_links / g->n_nodes;
}

/* Links whose node pair an earlier link already joins. */
static uint32_t count_parallel(const struct sluice_graph *g, uint32_t *seen)
{
	uint32_t u, i, n = 0;

	for (u = 0; u < g->n_nodes; u++)
		seen[u] = SLUICE_DIST_INF;
	for (u = 0; u < g->n_nodes; u++)
		for (i = g->off[u]; i < g->off[u + 1]; i++) {
			uint32_t v = g->adj[i].peer;

			if (v < u)
				continue;	/* counted from the other end */
			if (seen[v] == u)
				n++;
			seen[v] = u;
		}
	return n;
}

static void path_stats(const struct sluice_graph *g,
		       struct sluice_graph_stats *st,
		       uint32_t *dist, uint32_t *queue)
{
	bool all = !st->endpoints;
	uint64_t sum = 0;
	uint32_t s, t;

	for (s = 0; s < g->n_nodes; s++) {
		if (!all && !sluice_node_is_endpoint(&g->nodes[s]))
			continue;
		sluice_graph_bfs(g, s, dist, queue);
		for (t = 0; t < g->n_nodes; t++) {
			if (t == s ||
			    (!all && !sluice_node_is_endpoint(&g->nodes[t])))
				continue;
			if (dist[t] == SLUICE_DIST_INF) {
				st->unreachable_pairs++;
				continue;
			}
			st->pairs++;
			sum += dist[t];
			if (dist[t] > st->diameter)
				st->diameter = dist[t];
		}
	}
	st->avg_shortest_path = st->pairs ? (double)sum / st->pairs : 0;
}

/**
 * sluice_graph_stats() - the summary of a fabric
 * @g:		a finalized graph
 * @st:		filled in
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Diameter and average shortest path length are over ordered pairs of
 * distinct endpoints that are connected (see struct sluice_graph_stats); the
 * paper's "average shortest path length" counts links between ToRs the
 * same way.
 *
 * Return: 0, -EINVAL if @g is not finalized, or -ENOMEM.
 */
int sluice_graph_stats(const struct sluice_graph *g,
		       struct sluice_graph_stats *st, char *err, size_t errlen)
{
	uint32_t *dist, *queue;

	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the graph is not finalized");
	memset(st, 0, sizeof(*st));
	dist = sluice_i_calloc(g->n_nodes, sizeof(*dist));
	queue = sluice_i_calloc(g->n_nodes, sizeof(*queue));
	if (!dist || !queue) {
		free(dist);
		free(queue);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	st->links = g->n_links;
	degree_stats(g, st);
	st->parallel_links = count_parallel(g, dist);
	st->components = sluice_graph_components(g, dist, queue);
	path_stats(g, st, dist, queue);
	free(dist);
	free(queue);
	return 0;
}
