// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Regular fabrics of alike switches: Jellyfish (random regular graphs),
 * Xpander (random lifts of a complete graph) and the ring.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/topo.h>
#include "wire.h"
#include "graph/internal.h"

struct edges {
	uint32_t	m;
	uint32_t	*eu;
	uint32_t	*ev;
};

static int edges_alloc(struct edges *e, uint32_t m)
{
	e->m = m;
	e->eu = sluice_i_calloc(m, sizeof(*e->eu));
	e->ev = sluice_i_calloc(m, sizeof(*e->ev));
	return e->eu && e->ev ? 0 : -ENOMEM;
}

static void edges_free(struct edges *e)
{
	free(e->eu);
	free(e->ev);
}

/* One graph from @e, kept only if connected (@connect) and valid. */
static int build(struct sluice_graph *g, uint32_t n, uint32_t hosts,
		 struct edges *e, bool connect, char *err, size_t errlen)
{
	int ret;

	ret = sluice_i_sort_edges(e->eu, e->ev, e->m, true);
	if (ret)
		return sluice_i_errf(err, errlen, ret, "out of memory");
	ret = sluice_i_build_flat(g, n, hosts, e->eu, e->ev, NULL, e->m,
				  err, errlen);
	if (!ret)
		ret = sluice_graph_finalize(g, err, errlen);
	if (!ret && connect && !sluice_i_connected(g))
		ret = -EAGAIN;
	if (ret)
		sluice_graph_free(g);
	return ret;
}

/* A random simple @d-regular pairing of @n nodes' stubs into @e. */
static int jellyfish_wire(struct sluice_rng *r, uint32_t n, uint32_t d,
			  struct edges *e, uint32_t *stubs)
{
	struct sluice_i_pairs p;
	uint32_t i, attempt;
	int ret;

	if (sluice_i_pairs_init(&p, n, d))
		return -ENOMEM;
	ret = -EAGAIN;
	for (attempt = 0; attempt < SLUICE_I_ATTEMPTS && ret == -EAGAIN;
	     attempt++) {
		for (i = 0; i < 2 * e->m; i++)
			stubs[i] = i / d;
		sluice_rng_shuffle(r, stubs, 2 * e->m);
		for (i = 0; i < e->m; i++) {
			e->eu[i] = stubs[2 * i];
			e->ev[i] = stubs[2 * i + 1];
		}
		ret = sluice_i_wire(r, &p, e->eu, e->ev, e->m, false);
	}
	sluice_i_pairs_free(&p);
	return ret;
}

static int jellyfish_check(uint32_t n, uint32_t d, char *err, size_t errlen)
{
	if (n < 3 || n > SLUICE_NODES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "jellyfish: switches must be 3 to %u, not %u",
				     SLUICE_NODES_MAX, n);
	if (d < 2 || d >= n)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "jellyfish: inter-ports must be 2 to switches - 1 (%u), not %u",
				     n - 1, d);
	if ((uint64_t)n * d % 2)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "jellyfish: switches * inter-ports (%u * %u) must be even: every link takes two ports",
				     n, d);
	if ((uint64_t)n * d / 2 > SLUICE_LINKS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "jellyfish: more than %u links",
				     SLUICE_LINKS_MAX);
	return 0;
}

/**
 * sluice_topo_jellyfish() - a random regular graph (Jellyfish)
 * @g:		the graph, uninitialized
 * @switches:	N, 3 to SLUICE_NODES_MAX
 * @degree:	r, links per switch, 2 to N - 1, N * r even
 * @host_ports:	host ports per switch
 * @seed:	the seed
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * A connected simple r-regular graph: no loop, no parallel link.  Stubs are
 * paired at random and invalid pairs fixed by edge swaps (wire.c, the fix of
 * Singla et al., NSDI'12, Section 3); a disconnected result (likely only for
 * r = 2) is drawn again, up to SLUICE_I_ATTEMPTS times.
 *
 * Return: 0; -EINVAL for bad parameters; -EAGAIN if no connected simple
 * graph turned up; -ENOMEM.
 */
int sluice_topo_jellyfish(struct sluice_graph *g, uint32_t switches,
			  uint32_t degree, uint32_t host_ports, uint64_t seed,
			  char *err, size_t errlen)
{
	static const char *const names[] = {
		"switches", "inter_ports", "host_ports"
	};
	uint64_t values[] = { switches, degree, host_ports };
	struct sluice_rng r;
	struct edges e = { 0 };
	uint32_t *stubs, attempt;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = jellyfish_check(switches, degree, err, errlen);
	if (ret)
		return ret;
	sluice_rng_seed(&r, seed);
	ret = edges_alloc(&e, (uint64_t)switches * degree / 2);
	stubs = sluice_i_calloc(2 * (size_t)e.m, sizeof(*stubs));
	if (!ret && stubs)
		ret = -EAGAIN;
	for (attempt = 0; attempt < SLUICE_I_ATTEMPTS && ret == -EAGAIN;
	     attempt++) {
		ret = jellyfish_wire(&r, switches, degree, &e, stubs);
		if (!ret)
			ret = build(g, switches, host_ports, &e, true,
				    err, errlen);
	}
	edges_free(&e);
	free(stubs);
	if (ret == -EAGAIN)
		return sluice_i_errf(err, errlen, ret,
				     "jellyfish: no connected simple %u-regular graph on %u switches after %d attempts; try another seed",
				     degree, switches, SLUICE_I_ATTEMPTS);
	if (ret)
		return ret == -ENOMEM ? sluice_i_errf(err, errlen, ret,
						      "out of memory") : ret;
	sluice_graph_set_seed(g, seed);
	ret = sluice_i_describe(g, "jellyfish", names, values, 3, err, errlen);
	if (ret)
		sluice_graph_free(g);
	return ret;
}

static int xpander_check(uint32_t n, uint32_t d, char *err, size_t errlen)
{
	if (d < 2 || d >= SLUICE_NODES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "xpander: inter-ports must be at least 2, not %u",
				     d);
	if (!n || n > SLUICE_NODES_MAX || n % (d + 1))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "xpander: switches (%u) must be a multiple of inter-ports + 1 (%u), at most %u",
				     n, d + 1, SLUICE_NODES_MAX);
	if ((uint64_t)n * d / 2 > SLUICE_LINKS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "xpander: more than %u links",
				     SLUICE_LINKS_MAX);
	return 0;
}

/*
 * A random lift of K_{d+1}: vertex v of the complete graph becomes switches
 * v * L .. v * L + L - 1, and each edge (v, w) a random perfect matching
 * between their copies.  Distinct edges of K_{d+1} join distinct groups and
 * a matching never repeats a pair, so the lift is simple and d-regular.
 */
static void xpander_wire(struct sluice_rng *r, uint32_t d, uint32_t lift,
			 struct edges *e, uint32_t *perm)
{
	uint32_t v, w, i, m = 0;

	for (v = 0; v <= d; v++)
		for (w = v + 1; w <= d; w++) {
			for (i = 0; i < lift; i++)
				perm[i] = i;
			sluice_rng_shuffle(r, perm, lift);
			for (i = 0; i < lift; i++) {
				e->eu[m] = v * lift + i;
				e->ev[m++] = w * lift + perm[i];
			}
		}
}

/**
 * sluice_topo_xpander() - an Xpander: a random lift of a complete graph
 * @g:		the graph, uninitialized
 * @switches:	N = L (d + 1) for a lift of L copies
 * @degree:	d, links per switch, at least 2
 * @host_ports:	host ports per switch
 * @seed:	the seed
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Valadarsky et al., "Xpander" (CoNEXT'16), Section 3: the d-regular
 * expander obtained by lifting K_{d+1}.  They build an L-lift from
 * repeated random 2-lifts; one random L-lift (a random matching per edge of
 * K_{d+1}) is the same family and works for any L.  Disconnected lifts are
 * drawn again, up to SLUICE_I_ATTEMPTS times.
 *
 * Return: 0, -EINVAL, -E2BIG, -EAGAIN or -ENOMEM.
 */
int sluice_topo_xpander(struct sluice_graph *g, uint32_t switches,
			uint32_t degree, uint32_t host_ports, uint64_t seed,
			char *err, size_t errlen)
{
	static const char *const names[] = {
		"switches", "inter_ports", "host_ports"
	};
	uint64_t values[] = { switches, degree, host_ports };
	struct sluice_rng r;
	struct edges e = { 0 };
	uint32_t *perm, attempt, lift;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = xpander_check(switches, degree, err, errlen);
	if (ret)
		return ret;
	lift = switches / (degree + 1);
	sluice_rng_seed(&r, seed);
	ret = edges_alloc(&e, (uint64_t)switches * degree / 2);
	perm = sluice_i_calloc(lift, sizeof(*perm));
	if (!ret && perm)
		ret = -EAGAIN;
	for (attempt = 0; attempt < SLUICE_I_ATTEMPTS && ret == -EAGAIN;
	     attempt++) {
		xpander_wire(&r, degree, lift, &e, perm);
		ret = build(g, switches, host_ports, &e, true, err, errlen);
	}
	edges_free(&e);
	free(perm);
	if (ret == -EAGAIN)
		return sluice_i_errf(err, errlen, ret,
				     "xpander: no connected lift after %d attempts; try another seed",
				     SLUICE_I_ATTEMPTS);
	if (ret)
		return ret == -ENOMEM ? sluice_i_errf(err, errlen, ret,
						      "out of memory") : ret;
	sluice_graph_set_seed(g, seed);
	ret = sluice_i_describe(g, "xpander", names, values, 3, err, errlen);
	if (ret)
		sluice_graph_free(g);
	return ret;
}

/**
 * sluice_topo_ring() - @switches switches in a cycle
 * @g:		the graph, uninitialized
 * @switches:	N, 3 to SLUICE_NODES_MAX
 * @host_ports:	host ports per switch
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Link i joins s<i> and s<i+1>, the last one s<N-1> and s0: the smallest
 * fabric with a cyclic buffer dependency under shortest-path routing.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_topo_ring(struct sluice_graph *g, uint32_t switches,
		     uint32_t host_ports, char *err, size_t errlen)
{
	static const char *const names[] = { "switches", "host_ports" };
	uint64_t values[] = { switches, host_ports };
	struct edges e = { 0 };
	uint32_t i;
	int ret;

	memset(g, 0, sizeof(*g));
	if (switches < 3 || switches > SLUICE_NODES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "ring: switches must be 3 to %u, not %u",
				     SLUICE_NODES_MAX, switches);
	ret = edges_alloc(&e, switches);
	if (ret) {
		edges_free(&e);
		return sluice_i_errf(err, errlen, ret, "out of memory");
	}
	for (i = 0; i < switches; i++) {
		e.eu[i] = i;
		e.ev[i] = (i + 1) % switches;
	}
	ret = sluice_i_build_flat(g, switches, host_ports, e.eu, e.ev, NULL,
				  switches, err, errlen);
	edges_free(&e);
	return sluice_i_finish(g, ret, "ring", names, values, 2,
			       err, errlen);
}
