// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Traffic matrices between the endpoints of a fabric: all-to-all, uniform
 * random, near-worst and a random permutation of the servers
 * (sluice/flow.h says what each one sends).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/flow.h>
#include <sluice/rng.h>
#include "graph/internal.h"
#include "internal.h"

/* Near-worst builds an n x n distance matrix and matches it in O(n^3). */
#define WORST_ENDPOINTS_MAX	4096

static int no_memory(char *err, size_t errlen)
{
	return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
}

/**
 * sluice_traffic_parse() - read a traffic matrix's name
 * @s:		"all2all", "uniform:P" (P destinations per source),
 *		"uniform:P%" (P percent of the other endpoints, 1 to 100),
 *		"worst" or "permutation"
 * @spec:	filled; its seed is left 0
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0 or -EINVAL.
 */
int sluice_traffic_parse(const char *s, struct sluice_traffic_spec *spec,
			 char *err, size_t errlen)
{
	unsigned long v;
	const char *p;
	char *end;

	memset(spec, 0, sizeof(*spec));
	if (!strcmp(s, "all2all")) {
		spec->kind = SLUICE_TRAFFIC_ALL2ALL;
		return 0;
	}
	if (!strcmp(s, "worst")) {
		spec->kind = SLUICE_TRAFFIC_WORST;
		return 0;
	}
	if (!strcmp(s, "permutation")) {
		spec->kind = SLUICE_TRAFFIC_PERMUTATION;
		return 0;
	}
	if (strncmp(s, "uniform:", 8))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "traffic \"%.40s\" is not all2all, uniform:P, uniform:P%%, worst or permutation",
				     s);
	p = s + 8;
	errno = 0;
	v = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
	if (!v || errno || v > UINT32_MAX ||
	    (*end && strcmp(end, "%")))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "traffic \"%.40s\": P must be a whole number of destinations from 1, or a percentage from 1%% to 100%%",
				     s);
	spec->kind = SLUICE_TRAFFIC_UNIFORM;
	spec->count = v;
	spec->percent = *end == '%';
	if (spec->percent && v > 100)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "traffic \"%.40s\": a percentage is at most 100%%",
				     s);
	return 0;
}

/**
 * sluice_traffic_servers() - the servers behind a node
 * @g:	a finalized graph
 * @u:	a node
 *
 * Its host ports; one for a server that forwards (BCube) without any.
 * A node that is not an endpoint has none - except in a fabric without
 * host ports or servers, where every node is an endpoint with one.
 *
 * Return: the count.
 */
uint32_t sluice_traffic_servers(const struct sluice_graph *g, uint32_t u)
{
	const struct sluice_node *n = &g->nodes[u];
	uint32_t v;

	if (n->hosts)
		return n->hosts;
	if (n->kind == SLUICE_NODE_SERVER)
		return 1;
	for (v = 0; v < g->n_nodes; v++)
		if (sluice_node_is_endpoint(&g->nodes[v]))
			return 0;
	return 1;
}

/**
 * sluice_traffic_free() - release a traffic matrix, leaving it empty
 * @t:	the matrix (an empty one is fine)
 */
void sluice_traffic_free(struct sluice_traffic *t)
{
	free(t->src);
	free(t->dst);
	free(t->demand);
	memset(t, 0, sizeof(*t));
}

static int traffic_alloc(struct sluice_traffic *t, uint64_t n,
			 char *err, size_t errlen)
{
	t->src = sluice_i_calloc(n, sizeof(*t->src));
	t->dst = sluice_i_calloc(n, sizeof(*t->dst));
	t->demand = sluice_i_calloc(n, sizeof(*t->demand));
	if (!t->src || !t->dst || !t->demand) {
		sluice_traffic_free(t);
		return no_memory(err, errlen);
	}
	return 0;
}

static void add_demand(struct sluice_traffic *t, uint32_t u, uint32_t v,
		       double d)
{
	t->src[t->n_dem] = u;
	t->dst[t->n_dem] = v;
	t->demand[t->n_dem++] = d;
	t->total += d;
}

/* Every server to every other: u sends w(u) w(v) / (H - 1) to v. */
static int all2all(const uint32_t *ep, const uint32_t *w, uint32_t n,
		   uint64_t servers, struct sluice_traffic *t,
		   char *err, size_t errlen)
{
	uint32_t i, j;
	int ret;

	ret = traffic_alloc(t, (uint64_t)n * (n - 1), err, errlen);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j)
				add_demand(t, ep[i], ep[j], (double)w[i] * w[j] /
					   (double)(servers - 1));
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * Each endpoint picks @k others by a partial Fisher-Yates shuffle of the
 * others, sources in order from one generator, so that the matrix depends
 * on the seed alone.
 */
static int uniform(const uint32_t *ep, const uint32_t *w, uint32_t n,
		   uint32_t k, uint64_t seed, struct sluice_traffic *t,
		   char *err, size_t errlen)
{
	uint32_t *others, *pick, i, j, x, m;
	struct sluice_rng rng;
	double sum;
	int ret;

	ret = traffic_alloc(t, (uint64_t)n * k, err, errlen);
	if (ret)
		return ret;
	others = sluice_i_calloc(n, sizeof(*others));
	pick = sluice_i_calloc(k, sizeof(*pick));
	if (!others || !pick) {
		free(others);
		free(pick);
		sluice_traffic_free(t);
		return no_memory(err, errlen);
	}
	sluice_rng_seed(&rng, seed);
	for (i = 0; i < n; i++) {
		/* the other endpoints' indices, in order, every time */
		for (j = 0, m = 0; j < n; j++)
			if (j != i)
				others[m++] = j;
		for (j = 0; j < k; j++) {
			x = j + (uint32_t)sluice_rng_below(&rng, m - j);
			pick[j] = others[x];
			others[x] = others[j];
			others[j] = pick[j];
		}
		qsort(pick, k, sizeof(*pick), cmp_u32);
		for (j = 0, sum = 0; j < k; j++)
			sum += w[pick[j]];
		for (j = 0; j < k; j++)
			add_demand(t, ep[i], ep[pick[j]],
				   (double)w[i] * w[pick[j]] / sum);
	}
	free(others);
	free(pick);
	return 0;
}

/*
 * The permutation of the endpoints with the longest total distance, never
 * an endpoint to itself: u sends all of w(u) to its image.  An unreachable
 * pair weighs more than any distance (it is the worst there is).
 */
static int worst(const struct sluice_graph *g, const uint32_t *ep,
		 const uint32_t *w, uint32_t n, struct sluice_traffic *t,
		 char *err, size_t errlen)
{
	uint32_t *dist, *queue, *match, i, j;
	int64_t *weight, total, forbid;
	int ret;

	if (n > WORST_ENDPOINTS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "traffic worst: %u endpoints; the matching is O(n^3) and allows at most %u",
				     n, WORST_ENDPOINTS_MAX);
	weight = sluice_i_calloc((size_t)n * n, sizeof(*weight));
	dist = sluice_i_calloc(g->n_nodes, sizeof(*dist));
	queue = sluice_i_calloc(g->n_nodes, sizeof(*queue));
	match = sluice_i_calloc(n, sizeof(*match));
	ret = weight && dist && queue && match ? 0 : no_memory(err, errlen);
	/* below any sum of n real weights, each at most n_nodes */
	forbid = -((int64_t)n * ((int64_t)g->n_nodes + 1) + 1);
	for (i = 0; i < n && !ret; i++) {
		sluice_graph_bfs(g, ep[i], dist, queue);
		for (j = 0; j < n; j++)
			weight[(size_t)i * n + j] = i == j ? forbid :
				dist[ep[j]] == SLUICE_DIST_INF ?
				(int64_t)g->n_nodes : (int64_t)dist[ep[j]];
	}
	if (!ret)
		ret = sluice_max_matching(n, weight, match, &total, err, errlen);
	if (!ret)
		ret = traffic_alloc(t, n, err, errlen);
	for (i = 0; i < n && !ret; i++)
		add_demand(t, ep[i], ep[match[i]], w[i]);
	free(weight);
	free(dist);
	free(queue);
	free(match);
	return ret;
}

/*
 * A uniformly random permutation of 0..@n-1 without a fixed point (@n >= 2):
 * shuffles until none is left, e (2.72) shuffles on average, since a
 * fraction 1/e of all permutations are derangements.
 */
static void derangement(struct sluice_rng *rng, uint32_t *perm, uint32_t n)
{
	uint32_t i;

	do {
		for (i = 0; i < n; i++)
			perm[i] = i;
		sluice_rng_shuffle(rng, perm, n);
		for (i = 0; i < n && perm[i] != i; i++)
			;
	} while (i < n);
}

/**
 * sluice_i_server_permutation() - a random permutation of the servers
 * @g:		a finalized graph
 * @seed:	the seed; the same seed gives the same permutation
 * @perm:	filled with the servers' count: server s sends to perm[s]
 * @owner:	filled likewise: the endpoint server s sits on
 * @servers:	the count, at least 2
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Servers are numbered in endpoint order, each endpoint's w of them in a
 * row.  No server sends to itself (a derangement, uniform over all of
 * them); two servers of one endpoint may well pair up.
 *
 * Return: 0, -EINVAL (fewer than two servers), -E2BIG or -ENOMEM; free
 * @perm and @owner.  Time: O(n + H) expected.
 */
int sluice_i_server_permutation(const struct sluice_graph *g, uint64_t seed,
				uint32_t **perm, uint32_t **owner,
				uint32_t *servers, char *err, size_t errlen)
{
	uint32_t *ep, n, i, j, k;
	struct sluice_rng rng;
	uint64_t h = 0;

	*perm = NULL;
	*owner = NULL;
	ep = sluice_i_calloc(g->n_nodes, sizeof(*ep));
	if (!ep)
		return no_memory(err, errlen);
	n = sluice_graph_endpoints(g, ep);
	for (i = 0; i < n; i++)
		h += sluice_traffic_servers(g, ep[i]);
	if (h < 2 || h > SLUICE_PERMUTATION_SERVERS_MAX) {
		free(ep);
		return sluice_i_errf(err, errlen, h < 2 ? -EINVAL : -E2BIG,
				     "a permutation needs 2 to %u servers; the fabric has %llu",
				     SLUICE_PERMUTATION_SERVERS_MAX,
				     (unsigned long long)h);
	}
	*perm = sluice_i_calloc(h, sizeof(**perm));
	*owner = sluice_i_calloc(h, sizeof(**owner));
	if (!*perm || !*owner) {
		free(ep);
		free(*perm);
		free(*owner);
		*perm = *owner = NULL;
		return no_memory(err, errlen);
	}
	for (i = 0, k = 0; i < n; i++)
		for (j = sluice_traffic_servers(g, ep[i]); j; j--)
			(*owner)[k++] = ep[i];
	free(ep);
	sluice_rng_seed(&rng, seed);
	derangement(&rng, *perm, h);
	*servers = h;
	return 0;
}

static int cmp_pair(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	if (x[0] != y[0])
		return (x[0] > y[0]) - (x[0] < y[0]);
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/*
 * Each server to its image under a random derangement of the servers;
 * u sends to v as many as its servers that drew one of v's.
 */
static int permutation(const struct sluice_graph *g, uint64_t seed,
		       struct sluice_traffic *t, char *err, size_t errlen)
{
	uint32_t *perm, *owner, *pairs, h, s, m = 0;
	int ret;

	ret = sluice_i_server_permutation(g, seed, &perm, &owner, &h, err,
					  errlen);
	if (ret)
		return ret;
	pairs = sluice_i_calloc(2 * (size_t)h, sizeof(*pairs));
	ret = pairs ? traffic_alloc(t, h, err, errlen) : no_memory(err, errlen);
	for (s = 0; s < h && !ret; s++) {
		if (owner[s] == owner[perm[s]]) {
			t->local++;
			continue;
		}
		pairs[2 * m] = owner[s];
		pairs[2 * m++ + 1] = owner[perm[s]];
	}
	if (!ret)
		qsort(pairs, m, 2 * sizeof(*pairs), cmp_pair);
	for (s = 0; s < m && !ret; s++) {
		if (s && !cmp_pair(pairs + 2 * s, pairs + 2 * (s - 1))) {
			t->demand[t->n_dem - 1] += 1;
			t->total += 1;
		} else {
			add_demand(t, pairs[2 * s], pairs[2 * s + 1], 1);
		}
	}
	free(perm);
	free(owner);
	free(pairs);
	return ret;
}

/**
 * sluice_traffic_make() - build a traffic matrix for a fabric
 * @g:		a finalized graph
 * @spec:	which matrix (sluice_traffic_parse()), and the seed of uniform
 * @t:		filled; free with sluice_traffic_free()
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Needs at least two endpoints and two servers.  uniform:P% picks
 * round(P (E - 1) / 100) of the E - 1 other endpoints, at least one.
 * permutation draws from @spec->seed as uniform does.
 *
 * Return: 0, -EINVAL (too few endpoints, P above E - 1), -E2BIG or
 * -ENOMEM.
 */
int sluice_traffic_make(const struct sluice_graph *g,
			const struct sluice_traffic_spec *spec,
			struct sluice_traffic *t, char *err, size_t errlen)
{
	uint32_t *ep, *w, n, i, k;
	uint64_t servers = 0;
	int ret;

	memset(t, 0, sizeof(*t));
	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the graph is not finalized");
	ep = sluice_i_calloc(g->n_nodes, sizeof(*ep));
	w = sluice_i_calloc(g->n_nodes, sizeof(*w));
	if (!ep || !w) {
		free(ep);
		free(w);
		return no_memory(err, errlen);
	}
	n = sluice_graph_endpoints(g, ep);
	for (i = 0; i < n; i++) {
		/* an endpoint without host ports is a server, or a bare node */
		w[i] = g->nodes[ep[i]].hosts ? g->nodes[ep[i]].hosts : 1;
		servers += w[i];
	}
	t->n_nodes = g->n_nodes;
	t->kind = spec->kind;
	if (n < 2 || servers < 2) {
		ret = sluice_i_errf(err, errlen, -EINVAL,
				    "traffic needs two endpoints and two servers; the fabric has %u and %llu",
				    n, (unsigned long long)servers);
		goto out;
	}
	switch (spec->kind) {
	case SLUICE_TRAFFIC_ALL2ALL:
		ret = all2all(ep, w, n, servers, t, err, errlen);
		break;
	case SLUICE_TRAFFIC_UNIFORM:
		k = spec->count;
		if (spec->percent) {
			k = (uint32_t)lround(spec->count * (n - 1) / 100.0);
			if (!k)
				k = 1;
		}
		if (!k || k > n - 1) {
			ret = sluice_i_errf(err, errlen, -EINVAL,
					    "traffic uniform:%u: each endpoint can pick 1 to %u others",
					    spec->count, n - 1);
			break;
		}
		ret = uniform(ep, w, n, k, spec->seed, t, err, errlen);
		if (!ret)
			t->picks = k;
		break;
	case SLUICE_TRAFFIC_WORST:
		ret = worst(g, ep, w, n, t, err, errlen);
		break;
	case SLUICE_TRAFFIC_PERMUTATION:
		ret = permutation(g, spec->seed, t, err, errlen);
		break;
	default:
		ret = sluice_i_errf(err, errlen, -EINVAL,
				    "unknown traffic kind %d", spec->kind);
	}
out:
	free(ep);
	free(w);
	if (ret)
		memset(t, 0, sizeof(*t));
	return ret;
}
