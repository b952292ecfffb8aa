// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Random simple wiring: a random pairing of port stubs, then degree-keeping
 * edge swaps that remove its loops and repeated pairs.
 *
 * The stubs are paired at random (the configuration model).  A pairing
 * whose every edge is valid is taken as it is; each invalid edge (u, v) - a
 * loop, or a pair already linked - is swapped with a random valid edge
 * (x, y) into (u, y) and (x, v) when both are valid.  Every node keeps its
 * degree and a bipartite wiring keeps its sides.  This is the fix of the
 * Jellyfish paper (Singla et al., NSDI'12, Section 3: when the random
 * process is stuck, an existing link is removed and its ends joined to the
 * stuck ports), applied to all invalid edges at once.  When an edge finds no
 * partner within its budget the caller draws a new pairing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wire.h"
#include "graph/internal.h"

int sluice_i_pairs_init(struct sluice_i_pairs *p, uint32_t n, uint32_t cap)
{
	p->n = n;
	p->cap = cap;
	p->deg = sluice_i_calloc(n, sizeof(*p->deg));
	p->nbr = sluice_i_calloc((size_t)n * cap, sizeof(*p->nbr));
	if (p->deg && p->nbr)
		return 0;
	sluice_i_pairs_free(p);
	return -ENOMEM;
}

void sluice_i_pairs_free(struct sluice_i_pairs *p)
{
	free(p->deg);
	free(p->nbr);
	p->deg = p->nbr = NULL;
}

bool sluice_i_pairs_has(const struct sluice_i_pairs *p, uint32_t u, uint32_t v)
{
	const uint32_t *nbr = p->nbr + (size_t)u * p->cap;
	uint32_t i;

	for (i = 0; i < p->deg[u]; i++)
		if (nbr[i] == v)
			return true;
	return false;
}

static void add_half(struct sluice_i_pairs *p, uint32_t u, uint32_t v)
{
	p->nbr[(size_t)u * p->cap + p->deg[u]++] = v;
}

static void del_half(struct sluice_i_pairs *p, uint32_t u, uint32_t v)
{
	uint32_t *nbr = p->nbr + (size_t)u * p->cap;
	uint32_t i;

	for (i = 0; i < p->deg[u]; i++)
		if (nbr[i] == v) {
			nbr[i] = nbr[--p->deg[u]];
			return;
		}
}

/* Callers keep degrees within cap: the wiring never exceeds a node's ports. */
void sluice_i_pairs_add(struct sluice_i_pairs *p, uint32_t u, uint32_t v)
{
	add_half(p, u, v);
	add_half(p, v, u);
}

void sluice_i_pairs_del(struct sluice_i_pairs *p, uint32_t u, uint32_t v)
{
	del_half(p, u, v);
	del_half(p, v, u);
}

static bool valid(const struct sluice_i_pairs *p, uint32_t u, uint32_t v)
{
	return u != v && !sluice_i_pairs_has(p, u, v);
}

/* Swaps bad edge @i with good edge @f if that makes both valid. */
static bool try_swap(struct sluice_rng *r, struct sluice_i_pairs *p,
		     uint32_t *eu, uint32_t *ev, uint32_t i, uint32_t f,
		     bool bipartite)
{
	uint32_t u = eu[i], v = ev[i], x = eu[f], y = ev[f], t;
	bool ok;

	if (!bipartite && (sluice_rng_next(r) & 1)) {
		t = x;
		x = y;
		y = t;
	}
	if (u == y || x == v)
		return false;
	/*
	 * Added one after the other so that (u, y) and (x, v) cannot be the
	 * same pair: a repeated edge swapped with its first copy would be.
	 */
	sluice_i_pairs_del(p, x, y);
	ok = valid(p, u, y);
	if (ok) {
		sluice_i_pairs_add(p, u, y);
		ok = valid(p, x, v);
		if (ok)
			sluice_i_pairs_add(p, x, v);
		else
			sluice_i_pairs_del(p, u, y);
	}
	if (!ok) {
		sluice_i_pairs_add(p, x, y);
		return false;
	}
	ev[i] = y;
	eu[f] = x;
	ev[f] = v;
	return true;
}

static bool repair(struct sluice_rng *r, struct sluice_i_pairs *p,
		   uint32_t *eu, uint32_t *ev, uint32_t m, uint32_t i,
		   bool *good, bool bipartite)
{
	uint64_t tries = 64 + 16 * (uint64_t)m;
	uint32_t f;

	while (tries--) {
		f = sluice_rng_below(r, m);
		if (good[f] && try_swap(r, p, eu, ev, i, f, bipartite))
			return good[i] = true;
	}
	return false;
}

/**
 * sluice_i_wire() - make a random pairing simple
 * @r:		the random stream
 * @p:		pairs already linked (other layers); the new edges are added
 * @eu:		one end of each of the @m edges of the pairing
 * @ev:		the other end; the bipartite side of @ev stays in @ev
 * @m:		edges
 * @bipartite:	keep @eu and @ev on their sides
 *
 * Return: 0 with @eu/@ev valid, no loop, no pair in @p twice; or -EAGAIN
 * with @p as it was, for the caller to draw another pairing; or -ENOMEM.
 * Time: O(m c) expected on sparse graphs, c the largest degree.
 */
int sluice_i_wire(struct sluice_rng *r, struct sluice_i_pairs *p,
		  uint32_t *eu, uint32_t *ev, uint32_t m, bool bipartite)
{
	bool *good = sluice_i_calloc(m, sizeof(*good));
	uint32_t i;
	int ret = 0;

	if (!good)
		return -ENOMEM;
	for (i = 0; i < m; i++)
		if (valid(p, eu[i], ev[i])) {
			sluice_i_pairs_add(p, eu[i], ev[i]);
			good[i] = true;
		}
	for (i = 0; i < m && !ret; i++)
		if (!good[i] && !repair(r, p, eu, ev, m, i, good, bipartite))
			ret = -EAGAIN;
	if (ret)
		for (i = 0; i < m; i++)
			if (good[i])
				sluice_i_pairs_del(p, eu[i], ev[i]);
	free(good);
	return ret;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/**
 * sluice_i_sort_edges() - sort edges so that files read in a stable order
 * @eu:		one end of each edge
 * @ev:		the other
 * @m:		edges
 * @order:	first put the smaller end in @eu (undirected, non-bipartite)
 *
 * Return: 0 or -ENOMEM.  Time: O(m log m).
 */
int sluice_i_sort_edges(uint32_t *eu, uint32_t *ev, uint32_t m, bool order)
{
	uint64_t *key = sluice_i_calloc(m, sizeof(*key));
	uint32_t i, a, b;

	if (!key)
		return -ENOMEM;
	for (i = 0; i < m; i++) {
		a = eu[i];
		b = ev[i];
		if (order && a > b) {
			a = ev[i];
			b = eu[i];
		}
		key[i] = (uint64_t)a << 32 | b;
	}
	qsort(key, m, sizeof(*key), cmp_u64);
	for (i = 0; i < m; i++) {
		eu[i] = key[i] >> 32;
		ev[i] = (uint32_t)key[i];
	}
	free(key);
	return 0;
}

/**
 * sluice_i_connected() - whether a finalized graph is one component
 * @g:		the graph
 *
 * Return: false also when out of memory.  Time: O(n + m).
 */
bool sluice_i_connected(const struct sluice_graph *g)
{
	uint32_t *dist = sluice_i_calloc(g->n_nodes, sizeof(*dist));
	uint32_t *queue = sluice_i_calloc(g->n_nodes, sizeof(*queue));
	bool connected = false;
	uint32_t u;

	if (dist && queue) {
		sluice_graph_bfs(g, 0, dist, queue);
		connected = true;
		for (u = 0; u < g->n_nodes; u++)
			if (dist[u] == SLUICE_DIST_INF)
				connected = false;
	}
	free(dist);
	free(queue);
	return connected;
}

/**
 * sluice_i_build_flat() - @g from an edge list over @n alike switches
 * @g:		the graph, uninitialized
 * @n:		switches, named "s0".."s<n-1>"
 * @hosts:	host ports of each
 * @eu:		one end of each edge
 * @ev:		the other
 * @layer:	NULL, or the FC layer of each edge's @eu end (@ev is one up)
 * @m:		edges
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Leaves @g unfinalized on success (the caller adds layers, then
 * finalizes), and initialized even on failure: free it.
 *
 * Return: 0, -EINVAL or -ENOMEM.  Time: O(n + m).
 */
int sluice_i_build_flat(struct sluice_graph *g, uint32_t n, uint32_t hosts,
			const uint32_t *eu, const uint32_t *ev,
			const uint8_t *layer, uint32_t m,
			char *err, size_t errlen)
{
	char name[SLUICE_NAME_MAX];
	uint32_t u, i;
	int ret;

	ret = sluice_graph_init(g, n, err, errlen);
	for (u = 0; u < n && !ret; u++) {
		snprintf(name, sizeof(name), "s%u", u);
		ret = sluice_graph_set_node(g, u, name, SLUICE_NODE_SWITCH,
					    hosts, 0, err, errlen);
	}
	for (i = 0; i < m && ret >= 0; i++)
		ret = sluice_graph_add_link(g, eu[i], ev[i],
					    layer ? layer[i] : 0,
					    layer ? layer[i] + 1 : 0,
					    err, errlen);
	return ret < 0 ? ret : 0;
}

/**
 * sluice_i_describe() - record a generator's family and parameters in @g
 * @g:		the graph
 * @family:	its family
 * @names:	the parameters' names, in the order they are written
 * @values:	their values
 * @n:		parameters
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0 or a negative errno.  Time: O(n^2), n <= SLUICE_PARAMS_MAX.
 */
int sluice_i_describe(struct sluice_graph *g, const char *family,
		      const char *const *names, const uint64_t *values,
		      uint32_t n, char *err, size_t errlen)
{
	uint32_t i;
	int ret;

	ret = sluice_graph_set_family(g, family, err, errlen);
	for (i = 0; i < n && !ret; i++)
		ret = sluice_graph_add_param(g, names[i], values[i],
					     err, errlen);
	return ret;
}

/**
 * sluice_i_finish() - the common end of a deterministic generator
 * @g:		the graph being built
 * @ret:	0 if building succeeded, else its negative errno
 * @family, @names, @values, @n: as for sluice_i_describe()
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Records the family and parameters and finalizes @g; on any failure,
 * including @ret's, frees @g so nothing half-built is left.
 *
 * Return: 0 or a negative errno.  Time: that of sluice_graph_finalize().
 */
int sluice_i_finish(struct sluice_graph *g, int ret, const char *family,
		    const char *const *names, const uint64_t *values,
		    uint32_t n, char *err, size_t errlen)
{
	if (!ret)
		ret = sluice_i_describe(g, family, names, values, n, err, errlen);
	if (!ret)
		ret = sluice_graph_finalize(g, err, errlen);
	if (ret)
		sluice_graph_free(g);
	return ret;
}
