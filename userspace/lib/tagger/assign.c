// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tagger's priority per hop (sluice/tagger.h): ttl, and the greedy pass by
 * levels with Pearce and Kelly's dynamic topological order.
 *
 * A buffer (a link direction) is named as in route/cbd.c: by the adjacency
 * entry (graph.h's CSR) of its link at the node it enters.  A dependency
 * from buffer x, entering node v, to buffer y, leaving v, is a turn at v:
 * one byte of v's deg(v) x deg(v) matrix, row x's position at v, column
 * the position at v of y's link.  Adding or testing one is O(1); the
 * out-edges of x are its row, the in-edges of y its column, so neither
 * search of the dynamic order needs an edge list.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/tagger.h>
#include "graph/internal.h"
#include "tagger/internal.h"

#define NONE32		UINT32_MAX

/* What a link direction does at the current level. */
enum { OPEN, STAY, CLIMB };

/* A path from one of its hops on: the hop, and the node it leaves. */
struct seg {
	uint64_t	path;
	uint64_t	hop;	/* index into r->hops */
	uint32_t	node;
};

struct segs {
	struct seg	*v;
	uint64_t	n, cap;
};

struct greedy {
	const struct sluice_graph	*g;
	const struct sluice_routes	*r;
	uint32_t	n_adj;		/* buffers: 2 * links */
	uint32_t	*at;		/* at[2l]: l's entry at a; + 1: at b */
	uint32_t	*far;		/* the same link's entry at the other end */
	uint32_t	*owner;		/* the node an entry belongs to */
	uint64_t	*mat0;		/* first byte of each node's matrix */
	uint8_t		*turn;
	uint64_t	turn_bytes;
	uint8_t		*state;		/* per buffer, at this level */
	uint64_t	*weight;	/* dependencies into it that stayed */
	/* the dynamic topological order */
	uint32_t	*ord;		/* ord[b]: b's place */
	uint32_t	*mark, stamp;
	uint32_t	*parent;	/* forward search's tree */
	uint32_t	*stack;
	uint32_t	*fwd, *bwd;	/* the buffers each search visited */
	uint64_t	*keys;		/* scratch for the reordering */
	uint32_t	*path_buf;	/* the buffers of the current segment */
	uint64_t	conflicts, climbs;
	/*
	 * Per buffer, the segments of the level that climb there first:
	 * a list through cuts.next, and how many.  The reclaim order.
	 */
	uint64_t	*head, *count, *order;
	/* turns set by a reclaim attempt, to undo if it fails */
	uint8_t		**undo;
	uint64_t	n_undo, cap_undo;
};

/*
 * Where each segment of a level climbs first: the hop (UINT64_MAX: never)
 * and the node it leaves, and the next segment climbing at the same
 * buffer.
 */
struct cuts {
	uint64_t	*hop;
	uint32_t	*node;
	uint64_t	*next;
	uint64_t	cap;
};

static int no_memory(char *err, size_t errlen)
{
	return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
}

/**
 * sluice_tagger_routes_hash() - a fingerprint of a route set's paths
 * @r:		the route set
 *
 * Over the pairs' nodes and the paths' links (not their lanes, which
 * Tagger ignores), so that a tag file names the routes it was computed
 * for.  Not cryptographic.
 *
 * Return: the hash.
 */
uint64_t sluice_tagger_routes_hash(const struct sluice_routes *r)
{
	uint64_t h = 0x6a09e667f3bcc909ull, p, q, k;

/* FNV-1a's step on whole words, then a multiply-xorshift round */
#define MIX(v)	do {							\
		h = (h ^ (uint64_t)(v)) * 0x100000001b3ull;		\
		h ^= h >> 29;						\
	} while (0)
	MIX(r->n_pairs);
	for (p = 0; p < r->n_pairs; p++) {
		MIX(r->pair_src[p]);
		MIX(r->pair_dst[p]);
		MIX(r->pair_path[p + 1] - r->pair_path[p]);
		for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
			MIX(r->path_hop[q + 1] - r->path_hop[q]);
			for (k = r->path_hop[q]; k < r->path_hop[q + 1]; k++)
				MIX(r->hops[k]);
		}
	}
#undef MIX
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static const char *const mode_names[] = {
	[SLUICE_TAGGER_GREEDY]	= "greedy",
	[SLUICE_TAGGER_TTL]	= "ttl",
	[SLUICE_TAGGER_DEPTH]	= "depth",
};

/**
 * sluice_tagger_mode_name() - the keyword of a mode
 * @mode:	enum sluice_tagger_mode
 *
 * Return: "greedy", "ttl" or "depth"; NULL for an unknown mode.
 */
const char *sluice_tagger_mode_name(enum sluice_tagger_mode mode)
{
	return (unsigned int)mode < SLUICE_TAGGER__COUNT ? mode_names[mode] :
							   NULL;
}

/**
 * sluice_tagger_mode_parse() - the mode named by a keyword
 * @name:	"greedy", "ttl" or "depth", exactly
 *
 * Return: the enum sluice_tagger_mode, or -EINVAL.
 */
int sluice_tagger_mode_parse(const char *name)
{
	int i;

	for (i = 0; i < SLUICE_TAGGER__COUNT; i++)
		if (!strcmp(name, mode_names[i]))
			return i;
	return -EINVAL;
}

/* The node at the other end of link @l from @v. */
static inline uint32_t other(const struct sluice_graph *g, uint32_t l,
			     uint32_t v)
{
	return g->links[l].a == v ? g->links[l].b : g->links[l].a;
}

/* The buffer of link @l entering node @v. */
static inline uint32_t entering(const struct greedy *c, uint32_t l,
				uint32_t v)
{
	return c->at[2 * l + (c->g->links[l].a != v)];
}

/* The byte of turn (x -> y) at node @v, x entering and y leaving v. */
static inline uint8_t *turn_at(const struct greedy *c, uint32_t v,
			       uint32_t x, uint32_t y)
{
	uint32_t d = sluice_graph_degree(c->g, v);

	return c->turn + c->mat0[v] + (uint64_t)(x - c->g->off[v]) * d +
	       (c->far[y] - c->g->off[v]);
}

static int greedy_init(struct greedy *c, const struct sluice_graph *g,
		       const struct sluice_routes *r)
{
	uint32_t v, x, l, d;
	uint64_t bytes = 0;

	memset(c, 0, sizeof(*c));
	c->g = g;
	c->r = r;
	c->n_adj = 2 * g->n_links;
	c->at = sluice_i_calloc(c->n_adj, sizeof(*c->at));
	c->far = sluice_i_calloc(c->n_adj, sizeof(*c->far));
	c->owner = sluice_i_calloc(c->n_adj, sizeof(*c->owner));
	c->mat0 = sluice_i_calloc(g->n_nodes, sizeof(*c->mat0));
	c->state = sluice_i_calloc(c->n_adj, sizeof(*c->state));
	c->weight = sluice_i_calloc(c->n_adj, sizeof(*c->weight));
	c->ord = sluice_i_calloc(c->n_adj, sizeof(*c->ord));
	c->mark = sluice_i_calloc(c->n_adj, sizeof(*c->mark));
	c->parent = sluice_i_calloc(c->n_adj, sizeof(*c->parent));
	c->stack = sluice_i_calloc(c->n_adj, sizeof(*c->stack));
	c->fwd = sluice_i_calloc(c->n_adj, sizeof(*c->fwd));
	c->bwd = sluice_i_calloc(c->n_adj, sizeof(*c->bwd));
	c->keys = sluice_i_calloc(c->n_adj, sizeof(*c->keys));
	c->path_buf = sluice_i_calloc(SLUICE_PATH_HOPS_MAX,
				      sizeof(*c->path_buf));
	c->head = sluice_i_calloc(c->n_adj, sizeof(*c->head));
	c->count = sluice_i_calloc(c->n_adj, sizeof(*c->count));
	c->order = sluice_i_calloc(c->n_adj, sizeof(*c->order));
	if (!c->at || !c->far || !c->owner || !c->mat0 || !c->state ||
	    !c->weight || !c->ord || !c->mark || !c->parent || !c->stack ||
	    !c->fwd || !c->bwd || !c->keys || !c->path_buf || !c->head ||
	    !c->count || !c->order)
		return -ENOMEM;
	for (v = 0; v < g->n_nodes; v++) {
		for (x = g->off[v]; x < g->off[v + 1]; x++) {
			l = g->adj[x].link;
			c->at[2 * l + (g->links[l].a != v)] = x;
			c->owner[x] = v;
		}
		d = sluice_graph_degree(g, v);
		c->mat0[v] = bytes;
		bytes += (uint64_t)d * d;
	}
	for (l = 0; l < g->n_links; l++) {
		c->far[c->at[2 * l]] = c->at[2 * l + 1];
		c->far[c->at[2 * l + 1]] = c->at[2 * l];
	}
	c->turn_bytes = bytes;
	c->turn = sluice_i_calloc(bytes ? bytes : 1, 1);
	return c->turn ? 0 : -ENOMEM;
}

static void greedy_free(struct greedy *c)
{
	free(c->at);
	free(c->far);
	free(c->owner);
	free(c->mat0);
	free(c->turn);
	free(c->state);
	free(c->weight);
	free(c->ord);
	free(c->mark);
	free(c->parent);
	free(c->stack);
	free(c->fwd);
	free(c->bwd);
	free(c->keys);
	free(c->path_buf);
	free(c->head);
	free(c->count);
	free(c->order);
	free(c->undo);
}

/* A fresh level: no dependency, every buffer open, any order. */
static void level_reset(struct greedy *c)
{
	uint32_t b;

	memset(c->turn, 0, c->turn_bytes);
	memset(c->state, OPEN, c->n_adj);
	memset(c->weight, 0, c->n_adj * sizeof(*c->weight));
	for (b = 0; b < c->n_adj; b++)
		c->ord[b] = b;
}

/* A new search stamp; wrapping clears the marks. */
static uint32_t new_stamp(struct greedy *c)
{
	if (++c->stamp == 0) {
		memset(c->mark, 0, c->n_adj * sizeof(*c->mark));
		c->stamp = 1;
	}
	return c->stamp;
}

static void swap_u64(uint64_t *a, uint64_t *b)
{
	uint64_t t = *a;

	*a = *b;
	*b = t;
}

/*
 * Sorts @v ascending: quicksort with a median of three, insertion sort
 * below 16, recursing into the smaller part so the stack stays
 * O(log n).  Inline compares: the reordering sorts often, mostly small
 * sets, and qsort()'s callback was most of its cost.
 */
static void sort_u64(uint64_t *v, uint64_t n)
{
	uint64_t i, j, pivot;

	while (n > 16) {
		uint64_t m = n / 2;

		if (v[m] < v[0])
			swap_u64(&v[m], &v[0]);
		if (v[n - 1] < v[0])
			swap_u64(&v[n - 1], &v[0]);
		if (v[n - 1] < v[m])
			swap_u64(&v[n - 1], &v[m]);
		pivot = v[m];
		i = 0;
		j = n - 1;
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			swap_u64(&v[i++], &v[j--]);
		}
		/* [0, j] <= pivot <= [j + 1, n) */
		if (j + 1 < n - j - 1) {
			sort_u64(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_u64(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (i = 1; i < n; i++) {
		pivot = v[i];
		for (j = i; j && v[j - 1] > pivot; j--)
			v[j] = v[j - 1];
		v[j] = pivot;
	}
}

/*
 * Pearce-Kelly's reordering after the searches: the places of the
 * buffers both visited, in order, go first to those that reach x (bwd)
 * then to those y reaches (fwd), each group keeping its relative order.
 * The two groups are sorted by place, and their places merged.
 */
static void reorder(struct greedy *c, uint32_t n_fwd, uint32_t n_bwd)
{
	uint64_t *kb = c->keys, *kf = c->keys + n_bwd;
	uint32_t i, a = 0, f = 0, n = n_fwd + n_bwd, *places = c->stack;

	for (i = 0; i < n_bwd; i++)
		kb[i] = (uint64_t)c->ord[c->bwd[i]] << 32 | c->bwd[i];
	for (i = 0; i < n_fwd; i++)
		kf[i] = (uint64_t)c->ord[c->fwd[i]] << 32 | c->fwd[i];
	sort_u64(kb, n_bwd);
	sort_u64(kf, n_fwd);
	for (i = 0; i < n; i++)
		places[i] = f == n_fwd || (a < n_bwd && kb[a] < kf[f]) ?
			    kb[a++] >> 32 : kf[f++] >> 32;
	for (i = 0; i < n; i++)
		c->ord[(uint32_t)c->keys[i]] = places[i];
}

/*
 * Adds dependency x -> y (x enters node @v, y leaves it) unless it closes
 * a cycle.  Returns true if it is (or already was) in the graph; false if
 * it would close a cycle, with c->parent leading back from x to y along
 * the cycle's path y -> ... -> x.  Time: O(1) when the order already
 * agrees, else O(the buffers placed between y and x and their turns).
 */
static bool try_add(struct greedy *c, uint32_t v, uint32_t x, uint32_t y)
{
	const struct sluice_graph *g = c->g;
	uint8_t *t = turn_at(c, v, x, y);
	uint32_t lb = c->ord[y], ub = c->ord[x], s, sp, n_fwd = 0, n_bwd = 0;
	uint32_t w, u, j, d, z, col;

	if (*t)
		return true;
	if (lb > ub) {
		*t = 1;
		return true;
	}
	/* forward from y through buffers placed before x */
	s = new_stamp(c);
	c->mark[y] = s;
	c->parent[y] = NONE32;
	c->stack[0] = y;
	sp = 1;
	while (sp) {
		w = c->stack[--sp];
		c->fwd[n_fwd++] = w;
		u = c->owner[w];
		d = sluice_graph_degree(g, u);
		for (j = 0; j < d; j++) {
			if (!c->turn[c->mat0[u] + (uint64_t)(w - g->off[u]) * d +
				     j])
				continue;
			z = c->far[g->off[u] + j];
			if (z == x) {
				c->parent[x] = w;
				return false;
			}
			if (c->mark[z] != s && c->ord[z] < ub) {
				c->mark[z] = s;
				c->parent[z] = w;
				c->stack[sp++] = z;
			}
		}
	}
	/* backward from x through buffers placed after y */
	s = new_stamp(c);
	c->mark[x] = s;
	c->stack[0] = x;
	sp = 1;
	while (sp) {
		w = c->stack[--sp];
		c->bwd[n_bwd++] = w;
		/* into w: turns at the node w leaves, w's column there */
		u = c->owner[c->far[w]];
		d = sluice_graph_degree(g, u);
		col = c->far[w] - g->off[u];
		for (j = 0; j < d; j++) {
			if (!c->turn[c->mat0[u] + (uint64_t)j * d + col])
				continue;
			z = g->off[u] + j;
			if (c->mark[z] != s && c->ord[z] > lb) {
				c->mark[z] = s;
				c->stack[sp++] = z;
			}
		}
	}
	reorder(c, n_fwd, n_bwd);
	*t = 1;
	return true;
}

/* Marks buffer @b climbing and drops the dependencies into it. */
static void climb(struct greedy *c, uint32_t b)
{
	uint32_t u = c->owner[c->far[b]], d = sluice_graph_degree(c->g, u);
	uint32_t col = c->far[b] - c->g->off[u], j;

	for (j = 0; j < d; j++)
		c->turn[c->mat0[u] + (uint64_t)j * d + col] = 0;
	c->state[b] = CLIMB;
	c->climbs++;
}

/*
 * The buffer to climb on the cycle that x -> y would close: the one with
 * the fewest dependencies into it so far (then the lowest id), so that
 * the fewest segments move up.
 */
static uint32_t cheapest_on_cycle(const struct greedy *c, uint32_t x)
{
	uint32_t b = x, best = x;

	for (b = x; b != NONE32; b = c->parent[b])
		if (c->weight[b] < c->weight[best] ||
		    (c->weight[b] == c->weight[best] && b < best))
			best = b;
	return best;
}

/*
 * Walks segment @sg at the current level, adding its dependencies while
 * they keep the graph acyclic.  Stops where the segment climbs, or where
 * a buffer it crossed was made to climb by a conflict (the final cut
 * pass finds both).
 */
static void pass_segment(struct greedy *c, const struct seg *sg)
{
	const struct sluice_graph *g = c->g;
	const struct sluice_routes *r = c->r;
	uint64_t k, end = r->path_hop[sg->path + 1];
	uint32_t v = other(g, r->hops[sg->hop], sg->node), l, w, x, y, b, i;
	uint32_t n = 0;

	x = entering(c, r->hops[sg->hop], v);
	for (k = sg->hop + 1; k < end; k++) {
		l = r->hops[k];
		w = other(g, l, v);
		y = entering(c, l, w);
		if (c->state[y] == CLIMB)
			return;
		while (!try_add(c, v, x, y)) {
			if (c->state[y] == OPEN) {
				climb(c, y);
				return;
			}
			b = cheapest_on_cycle(c, x);
			climb(c, b);
			c->conflicts++;
			if (b == y)
				return;
			/* a buffer this segment crossed at this level */
			for (i = 0; i < n; i++)
				if (c->path_buf[i] == b)
					return;
		}
		c->state[y] = STAY;
		c->weight[y]++;
		c->path_buf[n++] = y;
		x = y;
		v = w;
	}
}

static int segs_push(struct segs *s, uint64_t path, uint64_t hop,
		     uint32_t node)
{
	if (SLUICE_I_GROW(s->v, s->cap, s->n + 1))
		return -ENOMEM;
	s->v[s->n].path = path;
	s->v[s->n].hop = hop;
	s->v[s->n].node = node;
	s->n++;
	return 0;
}

/*
 * The first climbing buffer of segment @i of @cur after its first hop,
 * from hop @k on, the walk being at node @v (having entered it by hop
 * k - 1): recorded in @cu and in that buffer's list.  Time: O(the hops
 * walked).
 */
static void find_cut(struct greedy *c, const struct segs *cur,
		     struct cuts *cu, uint64_t i, uint64_t k, uint32_t v)
{
	const struct sluice_graph *g = c->g;
	const struct sluice_routes *r = c->r;
	uint64_t end = r->path_hop[cur->v[i].path + 1];
	uint32_t l, w, y;

	cu->hop[i] = UINT64_MAX;
	for (; k < end; k++) {
		l = r->hops[k];
		w = other(g, l, v);
		y = entering(c, l, w);
		if (c->state[y] == CLIMB) {
			cu->hop[i] = k;
			cu->node[i] = v;
			cu->next[i] = c->head[y];
			c->head[y] = i;
			c->count[y]++;
			return;
		}
		v = w;
	}
}

static int cuts_init(struct greedy *c, const struct segs *cur,
		     struct cuts *cu)
{
	uint64_t i, cap = cur->n ? cur->n : 1;
	void *a, *b, *d;

	if (cap > cu->cap) {
		a = realloc(cu->hop, cap * sizeof(*cu->hop));
		if (a)
			cu->hop = a;
		b = realloc(cu->node, cap * sizeof(*cu->node));
		if (b)
			cu->node = b;
		d = realloc(cu->next, cap * sizeof(*cu->next));
		if (d)
			cu->next = d;
		if (!a || !b || !d)
			return -ENOMEM;
		cu->cap = cap;
	}
	memset(c->head, 0xff, c->n_adj * sizeof(*c->head));
	memset(c->count, 0, c->n_adj * sizeof(*c->count));
	for (i = 0; i < cur->n; i++)
		find_cut(c, cur, cu, i, cur->v[i].hop + 1,
			 other(c->g, c->r->hops[cur->v[i].hop],
			       cur->v[i].node));
	return 0;
}

/* try_add(), remembering a turn it sets so that undo_turns() can drop it. */
static int add_undoable(struct greedy *c, uint32_t v, uint32_t x, uint32_t y,
			bool *added)
{
	uint8_t *t = turn_at(c, v, x, y);

	*added = true;
	if (*t)
		return 0;
	if (SLUICE_I_GROW(c->undo, c->cap_undo, c->n_undo + 1))
		return -ENOMEM;
	*added = try_add(c, v, x, y);
	if (*added)
		c->undo[c->n_undo++] = t;
	return 0;
}

/*
 * Tries to make climbing buffer @b stay: the segments that climb there
 * first go on at this level, up to their next climbing buffer, if all
 * their dependencies fit the acyclic graph.  If one does not, the turns
 * added are dropped again (dropping keeps the order valid) and @b climbs.
 * Returns 1 if @b stays, 0 if not, -ENOMEM.
 */
static int reclaim_one(struct greedy *c, const struct segs *cur,
		       struct cuts *cu, uint32_t b)
{
	const struct sluice_graph *g = c->g;
	const struct sluice_routes *r = c->r;
	uint64_t i, k, end, nx;
	uint32_t v, w, l, x, y;
	bool added = true;
	int ret;

	c->n_undo = 0;
	c->state[b] = STAY;
	for (i = c->head[b]; i != UINT64_MAX && added; i = cu->next[i]) {
		end = r->path_hop[cur->v[i].path + 1];
		v = cu->node[i];
		x = entering(c, r->hops[cu->hop[i] - 1], v);
		for (k = cu->hop[i]; k < end && added; k++) {
			l = r->hops[k];
			w = other(g, l, v);
			y = entering(c, l, w);
			if (c->state[y] == CLIMB)
				break;
			ret = add_undoable(c, v, x, y, &added);
			if (ret)
				return ret;
			x = y;
			v = w;
		}
	}
	if (!added) {
		for (i = 0; i < c->n_undo; i++)
			*c->undo[i] = 0;
		c->state[b] = CLIMB;
		return 0;
	}
	/* the segments now climb further on, or not at all */
	for (i = c->head[b]; i != UINT64_MAX; i = nx) {
		nx = cu->next[i];
		find_cut(c, cur, cu, i, cu->hop[i], cu->node[i]);
	}
	c->head[b] = UINT64_MAX;
	c->count[b] = 0;
	c->climbs--;
	return 1;
}

/*
 * The pass decides online, and a buffer made to climb early may no longer
 * close any cycle once later climbs dropped dependencies.  So, in sweeps
 * until nothing changes (at most RECLAIM_SWEEPS), each climbing buffer,
 * the one that moves the most segments up first, is offered its segments
 * back: fewer segments at the next level leave fewer cycles to break
 * there.  Time: O(the level's hops) and the order's searches per sweep.
 */
#define RECLAIM_SWEEPS	8

static int reclaim(struct greedy *c, const struct segs *cur, struct cuts *cu)
{
	uint32_t b, n, i, sweep;
	uint64_t cnt;
	int ret, changed = 1;

	for (sweep = 0; sweep < RECLAIM_SWEEPS && changed; sweep++) {
		changed = 0;
		for (b = 0, n = 0; b < c->n_adj; b++) {
			if (c->state[b] != CLIMB || !c->count[b])
				continue;
			cnt = c->count[b] < UINT32_MAX ? c->count[b] :
							 UINT32_MAX;
			/* the most segments first, then the lowest id */
			c->order[n++] = (uint64_t)(UINT32_MAX - cnt) << 32 | b;
		}
		sort_u64(c->order, n);
		for (i = 0; i < n; i++) {
			ret = reclaim_one(c, cur, cu, (uint32_t)c->order[i]);
			if (ret < 0)
				return ret;
			changed |= ret;
		}
	}
	return 0;
}

/*
 * The cut: each segment of level @q keeps its hops up to its first
 * climbing buffer (their priority is q), the rest is a segment of the
 * next level.  Time: O(the level's hops).
 */
static int cut(struct greedy *c, const struct segs *cur,
	       const struct cuts *cu, struct segs *next, uint8_t q,
	       uint8_t *prio)
{
	const struct sluice_routes *r = c->r;
	uint64_t i, k, end;
	int ret;

	next->n = 0;
	for (i = 0; i < cur->n; i++) {
		const struct seg *sg = &cur->v[i];

		end = cu->hop[i] == UINT64_MAX ? r->path_hop[sg->path + 1] :
						 cu->hop[i];
		for (k = sg->hop; k < end; k++)
			prio[k] = q;
		if (cu->hop[i] == UINT64_MAX)
			continue;
		ret = segs_push(next, sg->path, cu->hop[i], cu->node[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int greedy(const struct sluice_graph *g, const struct sluice_routes *r,
		  uint32_t max, struct sluice_tagging *t,
		  struct sluice_i_progress *pr, char *err, size_t errlen)
{
	uint64_t placed = 0;
	struct segs a = { 0 }, b = { 0 }, *cur = &a, *next = &b, *tmp;
	struct cuts cu = { 0 };
	struct greedy c;
	uint64_t p, q, i;
	uint32_t level;
	int ret;

	ret = greedy_init(&c, g, r);
	for (p = 0; p < r->n_pairs && !ret; p++)
		for (q = r->pair_path[p]; q < r->pair_path[p + 1] && !ret; q++)
			ret = segs_push(cur, q, r->path_hop[q],
					r->pair_src[p]);
	for (level = 0; !ret && cur->n; level++) {
		if (level == max) {
			ret = sluice_i_errf(err, errlen, -ERANGE,
					    "greedy: %llu path tails still need a priority after %u priorities (the most allowed)",
					    (unsigned long long)cur->n, max);
			goto out;
		}
		level_reset(&c);
		for (i = 0; i < cur->n; i++) {
			pass_segment(&c, &cur->v[i]);
			placed += r->path_hop[cur->v[i].path + 1] -
				  cur->v[i].hop;
			sluice_i_progress_report(pr, placed);
		}
		ret = cuts_init(&c, cur, &cu);
		if (!ret)
			ret = reclaim(&c, cur, &cu);
		if (!ret)
			ret = cut(&c, cur, &cu, next, level, t->prio);
		tmp = cur;
		cur = next;
		next = tmp;
	}
	if (ret)
		ret = no_memory(err, errlen);
	t->priorities = level;
	t->climbs = c.climbs;
	t->conflicts = c.conflicts;
out:
	greedy_free(&c);
	free(a.v);
	free(b.v);
	free(cu.hop);
	free(cu.node);
	free(cu.next);
	return ret;
}

/*
 * ttl: hop i of a path at priority i.  depth (@down): hop i of a path of
 * L hops at L - 1 - i, the hops still to go after it.  Both change by one
 * at every hop of every path, ttl up, depth down, so no dependency
 * (h_i, p_i) -> (h_i+1, p_i+1) stays within a priority: each goes from a
 * priority to the next higher one (ttl) or the next lower one (depth),
 * and a cycle of them would have to come back to the priority it started
 * from, which a walk that only climbs, or only descends, never does.
 */
static int ttl(const struct sluice_graph *g, const struct sluice_routes *r,
	       uint32_t max, bool down, struct sluice_tagging *t,
	       struct sluice_i_progress *pr, char *err, size_t errlen)
{
	uint32_t len, longest = 0;
	uint64_t p, q, k;

	for (p = 0; p < r->n_pairs; p++)
		for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
			len = sluice_routes_path_len(r, q);
			if (len > max)
				return sluice_i_errf(err, errlen, -ERANGE,
						     "%s: path %llu of %s %s has %u hops, more than the %u priorities allowed",
						     down ? "depth" : "ttl",
						     (unsigned long long)(q - r->pair_path[p] + 1),
						     g->nodes[r->pair_src[p]].name,
						     g->nodes[r->pair_dst[p]].name,
						     len, max);
			if (len > longest)
				longest = len;
			for (k = r->path_hop[q]; k < r->path_hop[q + 1]; k++)
				t->prio[k] = down ? r->path_hop[q + 1] - 1 - k :
						    k - r->path_hop[q];
			sluice_i_progress_report(pr, r->path_hop[q + 1]);
		}
	/*
	 * depth charges a frame delivered to the destination's hosts to
	 * priority 1 (sluice/tagger.h), also when every path is one hop.
	 */
	if (down && longest == 1) {
		if (max < 2)
			return sluice_i_errf(err, errlen, -ERANGE,
					     "depth: frames delivered to hosts are charged to priority 1: 2 priorities are needed, more than the %u allowed",
					     max);
		longest = 2;
	}
	t->priorities = longest;
	return 0;
}

int sluice_i_tagger_routes_ok(const struct sluice_graph *g,
			      const struct sluice_routes *r,
			      char *err, size_t errlen)
{
	char why[SLUICE_ERRLEN];
	int ret;

	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the topology is not finalized");
	ret = sluice_routes_validate(r, g, why, sizeof(why));
	if (ret)
		return sluice_i_errf(err, errlen, ret, "routes: %s", why);
	if (r->shard_count != 1)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "routes: shard %u/%u is part of a route set: tag the whole set (sluicectl route merge)",
				     r->shard_index, r->shard_count);
	return 0;
}

/**
 * sluice_tagger_assign() - a priority for every hop of a route set
 * @g:		the finalized topology
 * @r:		a whole, valid route set of @g (its lanes are ignored)
 * @o:		the mode and the most priorities allowed
 * @t:		filled; free with sluice_tagging_free(), even on an error
 * @err:	a message on an error
 * @errlen:	its size
 *
 * ttl gives hop i of every path priority i, depth hop i of a path of L
 * hops L - 1 - i (the hops still to go).  greedy runs the pass of
 * tagger.h level by level; its result never decreases along a path, has
 * no dependency cycle within a priority, and gives the same priority to
 * every hop with the same link direction and the same priority before it
 * (a first hop: 0), so that the tables of sluice_tagger_tables_build()
 * exist.
 *
 * On all-pairs ECMP over a 256-switch, degree-10 jellyfish (6 * 10^5 hops)
 * it takes about 0.4 s.  Memory: O(links + sum of deg(v)^2 bytes + paths).
 * Checking @r costs O(nodes + pairs + hops) more.
 *
 * Return: 0, -EINVAL (bad input), -ERANGE (more priorities needed than
 * allowed) or -ENOMEM.
 */
int sluice_tagger_assign(const struct sluice_graph *g,
			 const struct sluice_routes *r,
			 const struct sluice_tagger_opts *o,
			 struct sluice_tagging *t, char *err, size_t errlen)
{
	uint32_t max = o->max_priorities ? o->max_priorities :
					   SLUICE_LANES_MAX;
	struct sluice_i_progress pr = {
		.fn = o->progress, .arg = o->progress_arg, .total = r->n_hops,
	};
	int ret;

	memset(t, 0, sizeof(*t));
	if ((unsigned int)o->mode >= SLUICE_TAGGER__COUNT)
		return sluice_i_errf(err, errlen, -EINVAL, "unknown mode %d",
				     o->mode);
	if (max > SLUICE_LANES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "at most %d priorities, not %u",
				     SLUICE_LANES_MAX, max);
	ret = sluice_i_tagger_routes_ok(g, r, err, errlen);
	if (ret)
		return ret;
	t->mode = o->mode;
	t->n_hops = r->n_hops;
	t->prio = sluice_i_calloc(r->n_hops ? r->n_hops : 1, 1);
	if (!t->prio)
		return no_memory(err, errlen);
	if (o->mode == SLUICE_TAGGER_TTL || o->mode == SLUICE_TAGGER_DEPTH)
		ret = ttl(g, r, max, o->mode == SLUICE_TAGGER_DEPTH, t, &pr,
			  err, errlen);
	else
		ret = greedy(g, r, max, t, &pr, err, errlen);
	if (ret)
		sluice_tagging_free(t);
	else
		sluice_i_progress_end(&pr);
	return ret;
}

/**
 * sluice_tagger_compute() - priorities, then the tables that give them
 * @g:		the finalized topology
 * @r:		a whole, valid route set of @g
 * @o:		the mode, the bound, and the progress of both steps
 * @t:		filled with every hop's priority
 * @tab:	filled with the tables
 * @err:	a message on an error
 * @errlen:	its size
 *
 * Return: what sluice_tagger_assign() or sluice_tagger_tables_build()
 * returned; free @t and @tab either way.
 */
int sluice_tagger_compute(const struct sluice_graph *g,
			  const struct sluice_routes *r,
			  const struct sluice_tagger_opts *o,
			  struct sluice_tagging *t,
			  struct sluice_tagger_tables *tab,
			  char *err, size_t errlen)
{
	struct sluice_i_progress pr = {
		.fn = o->tables_progress, .arg = o->tables_progress_arg,
		.total = r->n_paths,
	};
	int ret;

	memset(tab, 0, sizeof(*tab));
	ret = sluice_tagger_assign(g, r, o, t, err, errlen);
	if (!ret)
		ret = sluice_i_tagger_tables_build(g, r, t, tab, &pr, err,
						   errlen);
	if (!ret)
		sluice_i_progress_end(&pr);
	return ret;
}

/**
 * sluice_i_progress_report() - hand a count to a progress callback
 * @p:		the callback and the total; @p->fn NULL: nothing
 * @done:	the work done so far
 *
 * Calls at most once per 4096 units of work, and holds @done below the
 * total: only sluice_i_progress_end() says the work is over.
 */
void sluice_i_progress_report(struct sluice_i_progress *p, uint64_t done)
{
	uint64_t total = p->total;

	if (!p->fn || done < p->next)
		return;
	p->next = done + 4096;
	if (done >= total)
		done = total ? total - 1 : 0;
	/* the callback counts in 32 bits: scale a larger count down */
	while (total > UINT32_MAX) {
		total >>= 1;
		done >>= 1;
	}
	p->fn(p->arg, done, total);
}

/* The work is over: the total, of the total. */
void sluice_i_progress_end(struct sluice_i_progress *p)
{
	uint64_t total = p->total;

	while (total > UINT32_MAX)
		total >>= 1;
	if (p->fn)
		p->fn(p->arg, total, total);
}

/**
 * sluice_tagging_free() - free a tagging's priorities
 * @t:		from sluice_tagger_assign(); left zeroed
 */
void sluice_tagging_free(struct sluice_tagging *t)
{
	free(t->prio);
	memset(t, 0, sizeof(*t));
}
