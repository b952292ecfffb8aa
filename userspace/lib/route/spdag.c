// SPDX-License-Identifier: GPL-2.0-or-later
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
 * Return: 0 or -ENOMEM.  Time: O(n + m).
 */
int sluice_i_spdag_init(struct sluice_i_spdag *d, const struct sluice_graph *g,
			const uint32_t *up_end, const char *algo)
{
	size_t states, arcs;

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
	/* every DAG arc is a link walked one way, in one phase */
	arcs = (size_t)g->n_links * 2 * d->phases;
	d->pred_off = sluice_i_calloc(states + 1, sizeof(*d->pred_off));
	d->pred_state = sluice_i_calloc(arcs, sizeof(*d->pred_state));
	d->pred_link = sluice_i_calloc(arcs, sizeof(*d->pred_link));
	d->local = sluice_i_calloc(states, sizeof(*d->local));
	d->succ_off = sluice_i_calloc(states + 1, sizeof(*d->succ_off));
	d->succ_state = sluice_i_calloc(arcs, sizeof(*d->succ_state));
	d->succ_link = sluice_i_calloc(arcs, sizeof(*d->succ_link));
	if (!d->dist || !d->count || !d->queue || !d->mark ||
	    !d->stack_state || !d->stack_pos || !d->path || !d->pred_off ||
	    !d->pred_state || !d->pred_link || !d->local || !d->succ_off ||
	    !d->succ_state || !d->succ_link) {
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
	free(d->pred_off);
	free(d->pred_state);
	free(d->pred_link);
	free(d->local);
	free(d->succ_off);
	free(d->succ_state);
	free(d->succ_link);
	memset(d, 0, sizeof(*d));
}

/**
 * sluice_i_spdag_from() - distances and path counts from one source
 * @d:		the thread's state
 * @src:	the source node; its state is (src, phase 0)
 *
 * A BFS over the states; each state's count is the sum of its DAG
 * predecessors' counts, saturated at UINT64_MAX; and each state's DAG
 * arcs in (pred_off, pred_state, pred_link).
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
	memset(d->pred_off, 0, (states + 1) * sizeof(*d->pred_off));
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
			if (d->dist[y] == d->dist[x] + 1) {
				d->count[y] = add_sat(d->count[y], d->count[x]);
				d->pred_off[y + 1]++;
			}
		}
	}
	/* the DAG's arcs into each state, again in BFS order */
	for (x = 0; x < states; x++)
		d->pred_off[x + 1] += d->pred_off[x];
	for (head = 0; head < tail; head++) {
		uint32_t u;

		x = d->queue[head];
		u = node_of(d, x);
		for (i = g->off[u]; i < g->off[u + 1]; i++) {
			uint32_t y = step(d, x, &g->adj[i]), k;

			if (y == NO_STATE || d->dist[y] != d->dist[x] + 1)
				continue;
			/* pred_off[y] counts up to pred_off[y + 1]: undone below */
			k = d->pred_off[y]++;
			d->pred_state[k] = x;
			d->pred_link[k] = g->adj[i].link;
		}
	}
	for (x = states; x > 0; x--)
		d->pred_off[x] = d->pred_off[x - 1];
	d->pred_off[0] = 0;
}

static void next_stamp(struct sluice_i_spdag *d)
{
	if (++d->stamp == 0) {
		memset(d->mark, 0, (size_t)d->g->n_nodes * d->phases *
		       sizeof(*d->mark));
		d->stamp = 1;
	}
}

/* Sorts the arcs of one marked state by link id: the listing's order. */
static void sort_arcs(uint32_t *link, uint32_t *state, uint32_t n)
{
	uint32_t i, j, l, y;

	for (i = 1; i < n; i++) {
		l = link[i];
		y = state[i];
		for (j = i; j && link[j - 1] > l; j--) {
			link[j] = link[j - 1];
			state[j] = state[j - 1];
		}
		link[j] = l;
		state[j] = y;
	}
}

/*
 * Marks the states that reach one of @dst's states at distance @len along
 * the DAG - a backward search over the DAG's arcs in - and gathers the
 * marked sub-DAG's arcs out of each marked state, sorted by link id.
 * Returns the marked states.  Time: O(a + s d) for a marked arcs and s
 * marked states of out-degree at most d in the sub-DAG (the sort).
 */
static uint32_t mark_dag(struct sluice_i_spdag *d, uint32_t dst, uint32_t len)
{
	uint32_t head, tail = 0, p, k, x, y;

	next_stamp(d);
	for (p = 0; p < d->phases; p++) {
		y = dst * d->phases + p;
		if (d->dist[y] == len) {
			d->mark[y] = d->stamp;
			d->local[y] = tail;
			d->queue[tail++] = y;
		}
	}
	for (head = 0; head < tail; head++) {
		y = d->queue[head];
		for (k = d->pred_off[y]; k < d->pred_off[y + 1]; k++) {
			x = d->pred_state[k];
			if (d->mark[x] != d->stamp) {
				d->mark[x] = d->stamp;
				d->local[x] = tail;
				d->queue[tail++] = x;
			}
		}
	}
	/* every arc into a marked state comes from a marked state */
	memset(d->succ_off, 0, (tail + 1) * sizeof(*d->succ_off));
	for (head = 0; head < tail; head++) {
		y = d->queue[head];
		for (k = d->pred_off[y]; k < d->pred_off[y + 1]; k++)
			d->succ_off[d->local[d->pred_state[k]] + 1]++;
	}
	for (head = 0; head < tail; head++)
		d->succ_off[head + 1] += d->succ_off[head];
	for (head = 0; head < tail; head++) {
		y = d->queue[head];
		for (k = d->pred_off[y]; k < d->pred_off[y + 1]; k++) {
			uint32_t at = d->succ_off[d->local[d->pred_state[k]]]++;

			d->succ_state[at] = y;
			d->succ_link[at] = d->pred_link[k];
		}
	}
	/* the fill moved each start to the next one's: move them back */
	for (head = tail; head > 0; head--)
		d->succ_off[head] = d->succ_off[head - 1];
	d->succ_off[0] = 0;
	for (head = 0; head < tail; head++)
		sort_arcs(d->succ_link + d->succ_off[head],
			  d->succ_state + d->succ_off[head],
			  d->succ_off[head + 1] - d->succ_off[head]);
	return tail;
}

/*
 * Lists the first @max paths of the marked sub-DAG, depth first from the
 * source's state, each state's arcs in link id order: lexicographic order.
 * Every marked state reaches the destination, so no branch is wasted:
 * O(len) per path listed.
 */
static int list_paths(struct sluice_i_spdag *d, uint32_t len, uint64_t max,
		      struct sluice_path_buf *b)
{
	uint64_t listed = 0;
	uint32_t depth = 0, x, i;
	int ret;

	x = d->src * d->phases;
	d->stack_state[0] = x;
	d->stack_pos[0] = d->succ_off[d->local[x]];
	for (;;) {
		x = d->stack_state[depth];
		if (depth == len) {
			ret = sluice_path_buf_add(b, d->path, len, 0);
			if (ret)
				return ret;
			if (++listed == max)
				return 0;
			depth--;
			continue;
		}
		if (d->stack_pos[depth] == d->succ_off[d->local[x] + 1]) {
			if (!depth)
				return 0;
			depth--;
			continue;
		}
		i = d->stack_pos[depth]++;
		d->path[depth] = d->succ_link[i];
		depth++;
		x = d->succ_state[i];
		d->stack_state[depth] = x;
		d->stack_pos[depth] = d->succ_off[d->local[x]];
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
 * Time: O(a + s d) to mark the a arcs and s states on the pair's paths
 * (mark_dag()), then O(len) per path listed.
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
