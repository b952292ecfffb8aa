// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The concurrent flow problem of a traffic matrix on a route set: each
 * demand joined to its pair's paths, each path turned into arcs (link and
 * direction), and the two simple upper bounds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/flow.h>
#include "graph/internal.h"
#include "internal.h"

static int no_memory(char *err, size_t errlen)
{
	return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
}

/**
 * sluice_flow_bound() - 2 links / sum of demand * distance
 * @g:		a finalized graph
 * @t:		a traffic matrix of @g
 * @bound:	the bound; 0 if a demand's endpoints are not connected
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Each link carries at most 1 in each direction (2 in all) and a unit of
 * demand from u to v occupies at least dist(u, v) link directions, so no
 * routing gets theta above this.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_flow_bound(const struct sluice_graph *g,
		      const struct sluice_traffic *t, double *bound,
		      char *err, size_t errlen)
{
	uint32_t *dist, *queue, last = UINT32_MAX;
	double sum = 0;
	uint64_t i;

	*bound = 0;
	if (!g->finalized || t->n_nodes != g->n_nodes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the traffic matrix is for %u nodes, the graph has %u",
				     t->n_nodes, g->n_nodes);
	dist = sluice_i_calloc(g->n_nodes, sizeof(*dist));
	queue = sluice_i_calloc(g->n_nodes, sizeof(*queue));
	if (!dist || !queue) {
		free(dist);
		free(queue);
		return no_memory(err, errlen);
	}
	for (i = 0; i < t->n_dem; i++) {
		if (t->src[i] != last) {
			last = t->src[i];
			sluice_graph_bfs(g, last, dist, queue);
		}
		if (dist[t->dst[i]] == SLUICE_DIST_INF) {
			sum = 0;
			break;
		}
		sum += t->demand[i] * dist[t->dst[i]];
	}
	free(dist);
	free(queue);
	if (sum > 0)
		*bound = 2.0 * g->n_links / sum;
	return 0;
}

/**
 * sluice_i_mcf_free() - release a problem, leaving it empty
 * @m:	the problem (an empty one is fine)
 *
 * Time: O(1).
 */
void sluice_i_mcf_free(struct sluice_i_mcf *m)
{
	free(m->demand);
	free(m->com_path);
	free(m->path_arc);
	free(m->arcs);
	memset(m, 0, sizeof(*m));
}

/**
 * sluice_i_find_pair() - the pair (u, v) of a route set
 * @r:		a route set
 * @u:		source node
 * @v:		destination node
 * @from:	the first pair index to look at (pairs are sorted)
 *
 * Return: its index, or -1.  Time: O(log P).
 */
int64_t sluice_i_find_pair(const struct sluice_routes *r, uint32_t u,
			   uint32_t v, uint64_t from)
{
	uint64_t lo = from, hi = r->n_pairs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->pair_src[mid] < u ||
		    (r->pair_src[mid] == u && r->pair_dst[mid] < v))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->n_pairs && r->pair_src[lo] == u && r->pair_dst[lo] == v)
		return (int64_t)lo;
	return -1;
}

/**
 * sluice_i_walk() - a path as arcs
 * @g:		a finalized graph
 * @r:		a route set of @g
 * @q:		a path of @r
 * @src:	where it starts
 * @dst:	where it must end
 * @out:	its arcs, as many as its hops
 *
 * Return: false if a hop does not start where the walk stands or the walk
 * does not end at @dst (a route set that does not belong to the graph).
 * Time: O(hops).
 */
bool sluice_i_walk(const struct sluice_graph *g, const struct sluice_routes *r,
		   uint64_t q, uint32_t src, uint32_t dst, uint32_t *out)
{
	uint32_t at = src, id;
	uint64_t h;

	for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
		id = r->hops[h];
		if (id >= g->n_links)
			return false;
		if (g->links[id].a == at) {
			*out++ = 2 * id;
			at = g->links[id].b;
		} else if (g->links[id].b == at) {
			*out++ = 2 * id + 1;
			at = g->links[id].a;
		} else {
			return false;
		}
	}
	return at == dst;
}

/**
 * sluice_i_flow_routes_check() - a whole route set that belongs to a graph
 * @g:		the graph
 * @r:		the route set
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL or -E2BIG (too many link directions for arc ids).
 * Time: O(1).
 */
int sluice_i_flow_routes_check(const struct sluice_graph *g,
			       const struct sluice_routes *r,
			       char *err, size_t errlen)
{
	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the graph is not finalized");
	if (r->n_nodes != g->n_nodes || r->n_links != g->n_links)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the routes are for %u nodes and %u links, the graph has %u and %u",
				     r->n_nodes, r->n_links, g->n_nodes,
				     g->n_links);
	if (r->shard_count > 1)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the routes are shard %u of %u: merge the shards first",
				     r->shard_index, r->shard_count);
	if (2ull * g->n_links > UINT32_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "%u links: too many link directions",
				     g->n_links);
	return 0;
}

static int check_inputs(const struct sluice_graph *g,
			const struct sluice_routes *r,
			const struct sluice_traffic *t, char *err, size_t errlen)
{
	uint64_t i;
	int ret;

	ret = sluice_i_flow_routes_check(g, r, err, errlen);
	if (ret)
		return ret;
	if (t->n_nodes != g->n_nodes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the traffic matrix is for %u nodes, the graph has %u",
				     t->n_nodes, g->n_nodes);
	for (i = 0; i < t->n_dem; i++) {
		if (!(t->demand[i] > 0) || t->demand[i] > 1e12)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "traffic demand %llu (%s -> %s) is %g: demands are positive and finite",
					     (unsigned long long)i,
					     g->nodes[t->src[i]].name,
					     g->nodes[t->dst[i]].name,
					     t->demand[i]);
		if (i && (t->src[i] < t->src[i - 1] ||
			  (t->src[i] == t->src[i - 1] &&
			   t->dst[i] <= t->dst[i - 1])))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "traffic demand %llu (%s -> %s) is out of (source, destination) order",
					     (unsigned long long)i,
					     g->nodes[t->src[i]].name,
					     g->nodes[t->dst[i]].name);
	}
	return 0;
}

/**
 * sluice_i_mcf_build() - the commodities of @t on the paths of @r
 * @g:		a finalized graph
 * @r:		a whole route set of @g
 * @t:		a traffic matrix of @g, at least one demand
 * @m:		filled; free with sluice_i_mcf_free()
 * @res:	commodities, paths, unrouted (demands without a path) and
 *		bound_paths are set
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * A demand whose pair has no path is left out of @m and counted in
 * @res->unrouted (its throughput is 0, and so is theta).  A demand whose
 * pair is not in the route set at all is an error.
 *
 * Return: 0, -EINVAL, -E2BIG or -ENOMEM.  Time: O(D log P + hops) for D
 * demands and P pairs; memory: the arcs of the demands' paths.
 */
int sluice_i_mcf_build(const struct sluice_graph *g,
		       const struct sluice_routes *r,
		       const struct sluice_traffic *t, struct sluice_i_mcf *m,
		       struct sluice_flow_result *res, char *err, size_t errlen)
{
	uint64_t i, q, nc = 0, np = 0, nh = 0, from = 0, ph, lenq, best;
	int64_t *pair;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = check_inputs(g, r, t, err, errlen);
	if (ret)
		return ret;
	pair = sluice_i_calloc(t->n_dem, sizeof(*pair));
	if (!pair)
		return no_memory(err, errlen);
	/* join, and count what the arrays need */
	for (i = 0; i < t->n_dem; i++) {
		pair[i] = sluice_i_find_pair(r, t->src[i], t->dst[i], from);
		if (pair[i] < 0) {
			ret = sluice_i_errf(err, errlen, -EINVAL,
					    "traffic %s -> %s has no pair in the route set (not between its endpoints?)",
					    g->nodes[t->src[i]].name,
					    g->nodes[t->dst[i]].name);
			goto fail;
		}
		from = (uint64_t)pair[i];
		if (!sluice_routes_pair_paths(r, from)) {
			if (!res->unrouted++) {
				res->unrouted_src = t->src[i];
				res->unrouted_dst = t->dst[i];
			}
			continue;
		}
		nc++;
		np += sluice_routes_pair_paths(r, from);
		nh += r->path_hop[r->pair_path[from + 1]] -
		      r->path_hop[r->pair_path[from]];
	}
	m->n_arcs = 2 * g->n_links;
	m->demand = sluice_i_calloc(nc, sizeof(*m->demand));
	m->com_path = sluice_i_calloc(nc + 1, sizeof(*m->com_path));
	m->path_arc = sluice_i_calloc(np + 1, sizeof(*m->path_arc));
	m->arcs = sluice_i_calloc(nh, sizeof(*m->arcs));
	if (!m->demand || !m->com_path || !m->path_arc || !m->arcs) {
		ret = no_memory(err, errlen);
		goto fail;
	}
	for (i = 0; i < t->n_dem; i++) {
		uint64_t p = (uint64_t)pair[i];

		if (!sluice_routes_pair_paths(r, p))
			continue;
		m->demand[m->n_com] = t->demand[i];
		best = UINT64_MAX;
		for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
			ph = m->n_hops;
			lenq = sluice_routes_path_len(r, q);
			if (!lenq || !sluice_i_walk(g, r, q, t->src[i], t->dst[i],
						   m->arcs + ph)) {
				ret = sluice_i_errf(err, errlen, -EINVAL,
						    "path %llu of %s -> %s is not a walk between them in the graph",
						    (unsigned long long)(q - r->pair_path[p] + 1),
						    g->nodes[t->src[i]].name,
						    g->nodes[t->dst[i]].name);
				goto fail;
			}
			m->n_hops += lenq;
			m->path_arc[++m->n_paths] = m->n_hops;
			if (lenq < best)
				best = lenq;
		}
		m->min_len_demand += t->demand[i] * (double)best;
		m->com_path[++m->n_com] = m->n_paths;
	}
	res->commodities = t->n_dem;
	res->paths = m->n_paths;
	if (!res->unrouted && m->min_len_demand > 0)
		res->bound_paths = m->n_arcs / m->min_len_demand;
	free(pair);
	return 0;
fail:
	free(pair);
	sluice_i_mcf_free(m);
	return ret;
}
