// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bcube: BCube's source routes (Guo et al., "BCube: A High Performance,
 * Server-centric Network Architecture for Modular Data Centers",
 * SIGCOMM'09, Section 3.3, BuildPathSet).
 *
 * In BCube(n, k) a server's address is k + 1 base-n digits a_k..a_0 and two
 * servers whose addresses differ in digit l alone hang off the same level-l
 * switch (lib/topo/bcube.c).  A server-to-server hop corrects one digit and
 * takes two links, server to switch to server.  Between servers A and B the
 * paper builds k + 1 parallel paths, one per digit position i = k..0:
 *
 *  - a_i != b_i (DCRouting): correct the differing digits in the order
 *    i, i - 1, ..., i - k (mod k + 1): h(A, B) hops, h the Hamming distance;
 *  - a_i == b_i (AltDCRouting): first hop to A's neighbour C at level i
 *    (we take c_i = a_i + 1 mod n), then from C correct the differing digits
 *    in the order i - 1, ..., i - 1 - k (mod k + 1), digit i last:
 *    h(A, B) + 2 hops.
 *
 * The paper's theorem: the k + 1 paths are parallel, that is no two share a
 * link, nor an intermediate server or switch.  Paths come in the paper's
 * order, i = k first: the first path is a shortest one exactly when
 * a_k != b_k, and the h shortest are those of the digits that differ.
 *
 * The graph must be BCube(n, k) as sluice_topo_bcube() builds it: family
 * "bcube" with parameters n and k, its node and link numbering (checked
 * link by link).  Endpoints are the servers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "route/algo.h"
#include "graph/internal.h"

#define BCUBE_K_MAX	15	/* as lib/topo/bcube.c allows */

struct bcube_route_ctx {
	const struct sluice_graph *g;
	uint32_t	n, k;
	uint32_t	servers;	/* n^(k+1): server s is node s */
	uint32_t	pow[BCUBE_K_MAX + 2];	/* n^i */
};

struct bcube_route_worker {
	uint32_t	hops[2 * (BCUBE_K_MAX + 2)];
};

static bool get_param(const struct sluice_graph *g, const char *name,
		      uint64_t *value)
{
	uint32_t i;

	for (i = 0; i < g->n_params; i++)
		if (!strcmp(g->params[i].name, name)) {
			*value = g->params[i].value;
			return true;
		}
	return false;
}

static uint32_t digit(const struct bcube_route_ctx *c, uint32_t s, uint32_t l)
{
	return s / c->pow[l] % c->n;
}

/* Node id of server @s's level-@l switch (lib/topo/bcube.c's numbering). */
static uint32_t switch_node(const struct bcube_route_ctx *c, uint32_t s,
			    uint32_t l)
{
	uint32_t nk = c->pow[c->k];

	return c->servers + l * nk +
	       s / (c->pow[l] * c->n) * c->pow[l] + s % c->pow[l];
}

/* n and k from the graph's parameters, and the sizes they imply. */
static int read_params(const struct sluice_graph *g, struct bcube_route_ctx *c,
		       char *err, size_t errlen)
{
	uint64_t n, k, size = 1;
	uint32_t i;

	if (!g->family[0])
		return sluice_i_errf(err, errlen, -EINVAL,
				     "bcube: the topology names no generator: bcube routing needs a graph from the bcube generator");
	if (strcmp(g->family, "bcube"))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "bcube: the topology is a %s fabric, not a BCube: bcube routing needs a graph from the bcube generator",
				     g->family);
	if (!get_param(g, "n", &n) || !get_param(g, "k", &k))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "bcube: the topology lacks its generator parameter %s",
				     get_param(g, "n", &n) ? "k" : "n");
	if (n < 2 || n > SLUICE_NODES_MAX || k > BCUBE_K_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "bcube: parameters n %llu and k %llu: n must be 2 to %u and k at most %u",
				     (unsigned long long)n,
				     (unsigned long long)k, SLUICE_NODES_MAX,
				     BCUBE_K_MAX);
	for (i = 0; i <= k + 1; i++) {
		if (size > SLUICE_NODES_MAX)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "bcube: BCube(%llu,%llu) is larger than any topology",
					     (unsigned long long)n,
					     (unsigned long long)k);
		c->pow[i] = size;
		size *= n;
	}
	c->n = n;
	c->k = k;
	c->servers = c->pow[k + 1];
	return 0;
}

/* Whether @g is BCube(n, k) node for node and link for link. */
static int check_graph(const struct sluice_graph *g,
		       const struct bcube_route_ctx *c,
		       char *err, size_t errlen)
{
	uint64_t nodes = c->servers + (uint64_t)(c->k + 1) * c->pow[c->k];
	uint64_t links = (uint64_t)(c->k + 1) * c->servers;
	uint32_t s, l;

	if (g->n_nodes != nodes || g->n_links != links)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "bcube: BCube(%u,%u) has %llu nodes and %llu links, the topology %u and %u",
				     c->n, c->k, (unsigned long long)nodes,
				     (unsigned long long)links, g->n_nodes,
				     g->n_links);
	for (s = 0; s < c->servers; s++)
		if (g->nodes[s].kind != SLUICE_NODE_SERVER)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "bcube: nodes[%u] (%s) should be a server",
					     s, g->nodes[s].name);
	for (l = 0; l <= c->k; l++)
		for (s = 0; s < c->servers; s++) {
			uint32_t id = l * c->servers + s;
			const struct sluice_link *e = &g->links[id];
			uint32_t sw = switch_node(c, s, l);

			if (!((e->a == s && e->b == sw) ||
			      (e->a == sw && e->b == s)))
				return sluice_i_errf(err, errlen, -EINVAL,
						     "bcube: links[%u] should join %s to its level-%u switch %s",
						     id,
						     g->nodes[s].name, l,
						     g->nodes[sw].name);
		}
	return 0;
}

/**
 * bcube_route_prepare() - read n and k and check the graph is BCube(n, k)
 * @g:		a finalized graph from sluice_topo_bcube() (or its file)
 * @o:		no option applies
 * @ctx:	set to the context
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (not a BCube, or not as the generator numbers it) or
 * -ENOMEM.  Time: O(n + m).
 */
static int bcube_route_prepare(const struct sluice_graph *g,
			       const struct sluice_route_opts *o, void **ctx,
			       char *err, size_t errlen)
{
	struct bcube_route_ctx *c;
	int ret;

	(void)o;
	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "bcube: the graph is not finalized");
	c = calloc(1, sizeof(*c));
	if (!c)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	c->g = g;
	ret = read_params(g, c, err, errlen);
	if (!ret)
		ret = check_graph(g, c, err, errlen);
	if (ret) {
		free(c);
		return ret;
	}
	*ctx = c;
	return 0;
}

/* Holds one path's links: at most 2 (k + 2).  Time: O(1). */
static int bcube_route_worker_init(void *ctx, void **worker)
{
	(void)ctx;
	*worker = malloc(sizeof(struct bcube_route_worker));
	return *worker ? 0 : -ENOMEM;
}

/*
 * BCubeRouting from @cur to @dst, correcting digits in the order @first,
 * @first - 1, ... (mod k + 1); appends two links per hop at @hops[@len].
 * Return: the new length.
 */
static uint32_t correct_digits(const struct bcube_route_ctx *c, uint32_t cur,
			       uint32_t dst, uint32_t first, uint32_t *hops,
			       uint32_t len)
{
	uint32_t j, l;

	for (j = 0; j <= c->k; j++) {
		uint32_t have, want, next;

		l = (first + c->k + 1 - j) % (c->k + 1);
		have = digit(c, cur, l);
		want = digit(c, dst, l);
		if (have == want)
			continue;
		next = cur + want * c->pow[l] - have * c->pow[l];
		hops[len++] = l * c->servers + cur;
		hops[len++] = l * c->servers + next;
		cur = next;
	}
	return len;
}

/**
 * bcube_route_source() - BuildPathSet from b->src to each of @dsts
 * @ctx:	the context
 * @worker:	this thread's path
 * @dsts:	endpoints in increasing order, without the source: servers
 * @n_dsts:	how many
 * @b:		the source's buffer
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (an endpoint that is not a server: host ports on a
 * switch) or -ENOMEM.  Time: O(k^2) per pair.
 */
static int bcube_route_source(void *ctx, void *worker, const uint32_t *dsts,
			      uint32_t n_dsts, struct sluice_path_buf *b,
			      char *err, size_t errlen)
{
	const struct bcube_route_ctx *c = ctx;
	struct bcube_route_worker *w = worker;
	uint32_t a = b->src, i, t, len, l;
	int ret;

	for (t = 0; t <= n_dsts; t++) {
		uint32_t u = t < n_dsts ? dsts[t] : a;

		if (u >= c->servers)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "bcube: endpoint %s is a switch: BCube routes run between servers",
					     c->g->nodes[u].name);
	}
	for (t = 0; t < n_dsts; t++) {
		uint32_t dst = dsts[t];

		ret = sluice_path_buf_pair(b, dst);
		for (i = c->k + 1; i-- > 0 && !ret;) {
			if (digit(c, a, i) != digit(c, dst, i)) {
				len = correct_digits(c, a, dst, i, w->hops, 0);
			} else {
				uint32_t have = digit(c, a, i);
				uint32_t next = a + ((have + 1) % c->n) *
						c->pow[i] - have * c->pow[i];

				l = i;
				w->hops[0] = l * c->servers + a;
				w->hops[1] = l * c->servers + next;
				len = correct_digits(c, next, dst,
						     (i + c->k) % (c->k + 1),
						     w->hops, 2);
			}
			ret = sluice_path_buf_add(b, w->hops, len, 0);
		}
		if (ret)
			return sluice_i_errf(err, errlen, ret,
					     "bcube: out of memory");
	}
	return 0;
}

static void bcube_route_worker_free(void *worker)
{
	free(worker);
}

static void bcube_route_release(void *ctx)
{
	free(ctx);
}

const struct sluice_algo_ops sluice_algo_bcube = {
	.prepare	= bcube_route_prepare,
	.worker_init	= bcube_route_worker_init,
	.source		= bcube_route_source,
	.worker_free	= bcube_route_worker_free,
	.release	= bcube_route_release,
};
