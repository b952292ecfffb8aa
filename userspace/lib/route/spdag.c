// SPDX-License-Identifier: GPL-2.0
/*
 * All shortest paths of a source along a shortest-path DAG of states
 * (route/spdag.h): the engine behind ecmp and updown.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "route/spdag.h"
#include "graph/internal.h"

#define NO_STATE	UINT32_MAX

/*
 * The state reached from state @x over @a (a link and the node at its
 * other end), or NO_STATE if the move is not allowed: with an orientation,
 * an up move after a down move.
 */
static inline uint32_t step(const struct sluice_i_spdag *d, uint32_t x,
			    const struct sluice_adj *a)
{
	if (!d->up_end)
		return a->peer;
	if (d->up_end[a->link] == a->peer)
		return x & 1 ? NO_STATE : a->peer * 2;
	return a->peer * 2 + 1;
}

static inline uint32_t node_of(const struct sluice_i_spdag *d, uint32_t x)
{
	return d->up_end ? x >> 1 : x;
}

static inline uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/**
 * sluice_i_spdag_init() - scratch space for one thread
 * @d:		filled in
 * @g:		a finalized graph, kept (not copied)
 * @up_end:	per link, the node at its up end (up*_/down*); NULL for plain
 *		shortest paths.  Kept, not copied.
 * @algo:	the algorithm's name, for messages
 *
 * Return: 0 or -ENOMEM.  Time: O(n).
 */
int sluice_i_spdag_init(struct sluice_i_spdag *d, const struct sluice_graph *g,
			const uint32_t *up_end, const char *algo)
{
	size_t states;

	memset(d, 0, sizeof(*d));
	d->g = g;
	d->up_end = up_end;
	d->algo = algo;
	d->phases = up_end ? 2 : 1;
	states = (size_t)g->n_nodes * d->phases;
	d->dist = sluice_i_calloc(states, sizeof(*d->dist));
	d->count = sluice_i_calloc(states, sizeof(*d->count));
	d->queue = sluice_i_calloc(states, sizeof(*d->queue));
	d->mark = sluice_i_calloc(states, sizeof(*d->mark));
	/* Shortest legal paths are simple: at most n - 1 links. */
	d->stack_state = sluice_i_calloc(g->n_nodes + 1,
					 sizeof(*d->stack_state));
	d->stack_pos = sluice_i_calloc(g->n_nodes + 1, sizeof(*d->stack_pos));
	d->path = sluice_i_calloc(g->n_nodes + 1, sizeof(*d->path));
	if (!d->dist || !d->count || !d->queue || !d->mark ||
	    !d->stack_state || !d->stack_pos || !d->path) {
		sluice_i_spdag_free(d);
		return -ENOMEM;
	}
	return 0;
}

void sluice_i_spdag_free(struct sluice_i_spdag *d)
{
	free(d->dist);
	free(d->count);
	free(d->queue);
	free(d->mark);
	free(d->stack_state);
	free(d->stack_pos);
	free(d->path);
	memset(d, 0, sizeof(*d));
}

/**
 * sluice_i_spdag_from() - distances and path counts from one source
 * @d:		the thread's state
 * @src:	the source node; its state is (src, phase 0)
 *
 * A BFS over the states; each state's count is the sum of its DAG
 * predecessors' counts, saturated at UINT64_MAX.
 *
 * Time: O(p (n + m)) for p phases.
 */
void sluice_i_spdag_from(struct sluice_i_spdag *d, uint32_t src)
{
	const struct sluice_graph *g = d->g;
	uint32_t states = g->n_nodes * d->phases, head = 0, tail = 0, x, i;

	for (x = 0; x < states; x++) {
		d->dist[x] = SLUICE_DIST_INF;
		d->count[x] = 0;
	}
	d->src = src;
	x = src * d->phases;
	d->dist[x] = 0;
	d->count[x] = 1;
	d->queue[tail++] = x;
	while (head < tail) {
		uint32_t u;

		x = d->queue[head++];
		u = node_of(d, x);
		for (i = g->off[u]; i < g->off[u + 1]; i++) {
			uint32_t y = step(d, x, &g->adj[i]);

			if (y == NO_STATE)
				continue;
			if (d->dist[y] == SLUICE_DIST_INF) {
				d->dist[y] = d->dist[x] + 1;
				d->queue[tail++] = y;
			}
			if (d->dist[y] == d->dist[x] + 1)
				d->count[y] = add_sat(d->count[y], d->count[x]);
		}
	}
}

static void next_stamp(struct sluice_i_spdag *d)
{
	if (++d->stamp == 0) {
		memset(d->mark, 0, (size_t)d->g->n_nodes * d->phases *
		       sizeof(*d->mark));
		d->stamp = 1;
	}
}

/*
 * Marks the states that reach one of @dst's states at distance @len along
 * the DAG: a backward search from those, over the DAG's links reversed.
 * Time: O(p^2 (n + m)) at worst, the marked part of the DAG in practice.
 */
static void mark_dag(struct sluice_i_spdag *d, uint32_t dst, uint32_t len)
{
	const struct sluice_graph *g = d->g;
	uint32_t head = 0, tail = 0, p, i;

	next_stamp(d);
	for (p = 0; p < d->phases; p++) {
		uint32_t y = dst * d->phases + p;

		if (d->dist[y] == len) {
			d->mark[y] = d->stamp;
			d->queue[tail++] = y;
		}
	}
	while (head < tail) {
		uint32_t y = d->queue[head++], v = node_of(d, y);

		if (!d->dist[y])
			continue;
		for (i = g->off[v]; i < g->off[v + 1]; i++) {
			struct sluice_adj back = { g->adj[i].link, v };

			for (p = 0; p < d->phases; p++) {
				uint32_t x = g->adj[i].peer * d->phases + p;

				if (d->mark[x] != d->stamp &&
				    d->dist[x] + 1 == d->dist[y] &&
				    step(d, x, &back) == y) {
					d->mark[x] = d->stamp;
					d->queue[tail++] = x;
				}
			}
		}
	}
}

/*
 * Lists the first @max paths of the marked DAG, depth first from the
 * source's state, each node's links in id order: lexicographic order.
 * Every marked state reaches the destination, so no branch is wasted.
 */
static int list_paths(struct sluice_i_spdag *d, uint32_t len, uint64_t max,
		      struct sluice_path_buf *b)
{
	const struct sluice_graph *g = d->g;
	uint64_t listed = 0;
	uint32_t depth = 0;
	int ret;

	d->stack_state[0] = d->src * d->phases;
	d->stack_pos[0] = g->off[d->src];
	for (;;) {
		uint32_t x = d->stack_state[depth], u = node_of(d, x), i, y = 0;

		if (depth == len) {
			ret = sluice_path_buf_add(b, d->path, len, 0);
			if (ret)
				return ret;
			if (++listed == max)
				return 0;
			depth--;
			continue;
		}
		for (i = d->stack_pos[depth]; i < g->off[u + 1]; i++) {
			y = step(d, x, &g->adj[i]);
			if (y != NO_STATE && d->mark[y] == d->stamp &&
			    d->dist[y] == depth + 1)
				break;
		}
		if (i == g->off[u + 1]) {
			if (!depth)
				return 0;
			depth--;
			continue;
		}
		d->path[depth] = g->adj[i].link;
		d->stack_pos[depth] = i + 1;
		depth++;
		d->stack_state[depth] = y;
		d->stack_pos[depth] = g->off[node_of(d, y)];
	}
}

/**
 * sluice_i_spdag_paths() - append the shortest paths to one destination
 * @d:		the thread's state, after sluice_i_spdag_from()
 * @dst:	the destination, not the source
 * @cap:	the most paths to list, 0 for all
 * @b:		the source's buffer; the caller started @dst's pair
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Appends the shortest paths (over the allowed moves) from the source to
 * @dst in lexicographic order of their link ids, the first @cap of them if
 * there are more, and then counts the pair in @b->truncated_pairs.  None if
 * @dst cannot be reached.
 *
 * Return: 0, -E2BIG (a path too long for a route set, or more than
 * SLUICE_I_SPDAG_ALL_MAX paths and no cap) or -ENOMEM.
 * Time: O(p^2 (n + m)) to mark, then O(deg) per link listed.
 */
int sluice_i_spdag_paths(struct sluice_i_spdag *d, uint32_t dst, uint32_t cap,
			 struct sluice_path_buf *b, char *err, size_t errlen)
{
	const struct sluice_graph *g = d->g;
	uint32_t len = SLUICE_DIST_INF, p;
	uint64_t n = 0;
	int ret;

	for (p = 0; p < d->phases; p++)
		if (d->dist[dst * d->phases + p] < len)
			len = d->dist[dst * d->phases + p];
	if (len == SLUICE_DIST_INF)
		return 0;
	for (p = 0; p < d->phases; p++)
		if (d->dist[dst * d->phases + p] == len)
			n = add_sat(n, d->count[dst * d->phases + p]);
	if (len > SLUICE_PATH_HOPS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "%s: the shortest path from %s to %s has %u links, more than %u",
				     d->algo, g->nodes[d->src].name,
				     g->nodes[dst].name, len,
				     SLUICE_PATH_HOPS_MAX);
	if (cap && n > cap) {
		b->truncated_pairs++;
		n = cap;
	} else if (!cap && n > SLUICE_I_SPDAG_ALL_MAX) {
		return sluice_i_errf(err, errlen, -E2BIG,
				     "%s: %s to %s has %s%llu shortest paths, more than %u: set a cap on paths per pair",
				     d->algo, g->nodes[d->src].name,
				     g->nodes[dst].name,
				     n == UINT64_MAX ? "at least " : "",
				     (unsigned long long)n,
				     SLUICE_I_SPDAG_ALL_MAX);
	}
	mark_dag(d, dst, len);
	ret = list_paths(d, len, n, b);
	if (ret)
		return sluice_i_errf(err, errlen, ret, "%s: out of memory",
				     d->algo);
	return 0;
}

/**
 * sluice_i_spdag_new() - a worker for ecmp or updown: sluice_i_spdag_init()
 * into memory of its own
 * @g:		a finalized graph
 * @up_end:	as sluice_i_spdag_init()
 * @algo:	the algorithm's name, for messages
 * @worker:	set to the new struct sluice_i_spdag
 *
 * Return: 0 or -ENOMEM.  Time: O(n).
 */
int sluice_i_spdag_new(const struct sluice_graph *g, const uint32_t *up_end,
		       const char *algo, void **worker)
{
	struct sluice_i_spdag *d = malloc(sizeof(*d));

	if (!d)
		return -ENOMEM;
	if (sluice_i_spdag_init(d, g, up_end, algo)) {
		free(d);
		return -ENOMEM;
	}
	*worker = d;
	return 0;
}

/* Frees a worker of sluice_i_spdag_new(); NULL is fine. */
void sluice_i_spdag_delete(void *worker)
{
	if (worker)
		sluice_i_spdag_free(worker);
	free(worker);
}

/**
 * sluice_i_spdag_source() - the shortest (legal) paths from b->src to each
 * of @dsts, at most @cap a pair (0: all)
 * @d:		the thread's worker
 * @cap:	paths kept per pair
 * @dsts:	endpoints in increasing order, without the source
 * @n_dsts:	how many
 * @b:		the source's buffer
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -E2BIG or -ENOMEM.  Time: one BFS over the states, O(n + m),
 * then per destination O(n + m) to mark its part of the DAG and O(deg) per
 * link listed.
 */
int sluice_i_spdag_source(struct sluice_i_spdag *d, uint32_t cap,
			  const uint32_t *dsts, uint32_t n_dsts,
			  struct sluice_path_buf *b, char *err, size_t errlen)
{
	uint32_t i;
	int ret;

	sluice_i_spdag_from(d, b->src);
	for (i = 0; i < n_dsts; i++) {
		ret = sluice_path_buf_pair(b, dsts[i]);
		if (ret)
			return sluice_i_errf(err, errlen, ret,
					     "%s: cannot start pair %u -> %u",
					     d->algo, b->src, dsts[i]);
		ret = sluice_i_spdag_paths(d, dsts[i], cap, b, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}
