// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cyclic buffer dependency check (sluice/cbd.h): FC's Algorithm 2 -
 * build the link dependency graph of Definition 3, then look for a cycle
 * with a depth-first search (Theorem 7).
 *
 * A route set for a thousand switches holds up to 10^8 hops but at most a
 * few million distinct dependencies, so the graph is kept as a bitmap that
 * stays in cache.  A buffer (a link direction on a lane) is named by the
 * adjacency entry (graph.h's CSR) of its link at the node it enters, v:
 * a dependency on the next hop is then a pair of adjacency positions at v,
 * (in, out), one bit of a deg(v) x deg(v) matrix of v's.  Adding a hop's
 * dependency is O(1), with no hashing and no list to sort and dedup; the
 * bitmap's rows are the out-edges the search walks.
 *
 * The bitmap says which dependencies exist, not which path made them: a
 * CBD's witness takes one more pass over the paths, looking only for the
 * few dependencies of the cycle found.  A depth-first search finds some
 * cycle, often a long one; the witness is a shortest cycle through one of
 * its buffers instead, which a user can read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/cbd.h>
#include "graph/internal.h"

#define NONE32		UINT32_MAX
#define NONE64		UINT64_MAX
#define NO_LANE		0xff

struct cbd_link {
	uint32_t	a, b;
	uint32_t	at_a, at_b;
};

struct cbd {
	const struct sluice_graph	*g;
	const struct sluice_routes	*r;	/* the chunk at hand */
	uint64_t	base_pair, base_path;	/* its first's, in the set */
	uint32_t	n_adj;		/* 2 * n_links: buffers per lane */
	/* at[2 * l]: link l's adjacency entry at its a end; + 1: at b */
	uint32_t	*at;
	/*
	 * Each link's ends and their entries, side by side: a walk reads
	 * one cache line a hop where the links and at[] took two.
	 */
	struct cbd_link	*link;
	/* first bitmap word of node v's matrix, within a lane's block */
	uint64_t	*row0;		/* n_nodes */
	uint64_t	lane_words;	/* one lane's block of the bitmap */
	/*
	 * Each lane's block and its bits a buffer, made when a path first
	 * uses the lane; once the paths are all in, the lanes used in
	 * order, which name the search's nodes: lane index * n_adj +
	 * adjacency entry.
	 */
	uint64_t	*dep_of[SLUICE_LANES_MAX];
	uint64_t	*used_of[SLUICE_LANES_MAX];
	uint32_t	n_lanes;
	uint8_t		lane_idx[SLUICE_LANES_MAX];	/* or NO_LANE */
	uint8_t		lane_of[SLUICE_LANES_MAX];
	uint64_t	*dep[SLUICE_LANES_MAX];		/* by lane index */
	uint64_t	*used[SLUICE_LANES_MAX];
	uint64_t	n_deps;
	/* the witness's pass: where each buffer is on the cycle */
	uint32_t	*pos, *buf, left;
};

/* 64-bit words in one row of node @v's matrix. */
static inline uint32_t row_words(const struct sluice_graph *g, uint32_t v)
{
	return (sluice_graph_degree(g, v) + 63) / 64;
}

/* The first word of the row of buffer @x (entering @v) on lane @li. */
static inline uint64_t *row(const struct cbd *c, uint32_t li, uint32_t v,
			    uint32_t x)
{
	return c->dep[li] + c->row0[v] +
	       (uint64_t)(x - c->g->off[v]) * row_words(c->g, v);
}

/*
 * Crosses link @l from node @cur: sets the adjacency entries of @l at its
 * tail (@cur) and at its head, and returns the head, or NONE32 if @l does
 * not touch @cur.
 */
static inline uint32_t step(const struct cbd *c, uint32_t cur, uint32_t l,
			    uint32_t *tail, uint32_t *head)
{
	const struct cbd_link *k = &c->link[l];

	if (k->a == cur) {
		*tail = k->at_a;
		*head = k->at_b;
		return k->b;
	}
	if (k->b == cur) {
		*tail = k->at_b;
		*head = k->at_a;
		return k->a;
	}
	return NONE32;
}

static int no_memory(char *err, size_t errlen)
{
	return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
}

static const char *name(const struct cbd *c, uint32_t v)
{
	return c->g->nodes[v].name;
}

/*
 * An -EINVAL whose message starts with pair @p and, unless it is NONE64,
 * path @q: "pair 3 (s0 to s7), path 12".
 */
__attribute__((format(printf, 6, 7)))
static int path_err(const struct cbd *c, uint64_t p, uint64_t q,
		    char *err, size_t errlen, const char *fmt, ...)
{
	char what[SLUICE_ERRLEN], path[48] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (q != NONE64)
		snprintf(path, sizeof(path), ", path %llu",
			 (unsigned long long)(c->base_path + q));
	return sluice_i_errf(err, errlen, -EINVAL, "pair %llu (%s to %s)%s%s",
			     (unsigned long long)(c->base_pair + p),
			     name(c, c->r->pair_src[p]),
			     name(c, c->r->pair_dst[p]), path, what);
}

/* The paths of pair @p: ranges and lanes. */
static int check_paths(struct cbd *c, uint64_t p, char *err, size_t errlen)
{
	const struct sluice_routes *r = c->r;
	uint64_t q, h0, h1;
	uint8_t lane;

	if (r->pair_path[p] > r->pair_path[p + 1] ||
	    r->pair_path[p + 1] > r->n_paths)
		return path_err(c, p, NONE64, err, errlen,
				": paths %llu to %llu are out of range (the set has %llu paths)",
				(unsigned long long)r->pair_path[p],
				(unsigned long long)r->pair_path[p + 1],
				(unsigned long long)r->n_paths);
	for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
		lane = r->path_lane[q];
		h0 = r->path_hop[q];
		h1 = r->path_hop[q + 1];
		if (lane >= SLUICE_LANES_MAX)
			return path_err(c, p, q, err, errlen,
					": lane %u is not below %d",
					lane, SLUICE_LANES_MAX);
		if (h0 > h1 || h1 > r->n_hops)
			return path_err(c, p, q, err, errlen,
					": hops %llu to %llu are out of range (the set has %llu hops)",
					(unsigned long long)h0,
					(unsigned long long)h1,
					(unsigned long long)r->n_hops);
	}
	return 0;
}

/* The set's topology is @g. */
static int check_topology(const struct cbd *c, const struct sluice_routes *r,
			  char *err, size_t errlen)
{
	if (r->n_nodes != c->g->n_nodes || r->n_links != c->g->n_links)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the routes are for %u nodes and %u links, the topology has %u and %u",
				     r->n_nodes, r->n_links, c->g->n_nodes,
				     c->g->n_links);
	if (r->topo_hash != sluice_graph_hash(c->g))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the routes are for another topology (hash %016llx, this one %016llx)",
				     (unsigned long long)r->topo_hash,
				     (unsigned long long)sluice_graph_hash(c->g));
	return 0;
}

/*
 * The pairs' and paths' ranges, endpoints and lanes of the chunk at hand,
 * before any is walked: its index arrays may come from anywhere.
 */
static int check_layout(struct cbd *c, char *err, size_t errlen)
{
	const struct sluice_routes *r = c->r;
	uint32_t s, d;
	uint64_t p;
	int ret;

	for (p = 0; p < r->n_pairs; p++) {
		s = r->pair_src[p];
		d = r->pair_dst[p];
		if (s >= c->g->n_nodes || d >= c->g->n_nodes)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "pair %llu: node %u is out of range (the topology has %u nodes)",
					     (unsigned long long)(c->base_pair + p),
					     s >= c->g->n_nodes ? s : d,
					     c->g->n_nodes);
		ret = check_paths(c, p, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/* at[] and row0[], and the bitmaps. */
static int alloc_graph(struct cbd *c)
{
	const struct sluice_graph *g = c->g;
	uint64_t words = 0;
	uint32_t v, x, l;

	c->n_adj = 2 * g->n_links;
	c->at = sluice_i_calloc(c->n_adj, sizeof(*c->at));
	c->link = sluice_i_calloc(g->n_links, sizeof(*c->link));
	c->row0 = sluice_i_calloc(g->n_nodes, sizeof(*c->row0));
	if (!c->at || !c->link || !c->row0)
		return -ENOMEM;
	for (v = 0; v < g->n_nodes; v++) {
		for (x = g->off[v]; x < g->off[v + 1]; x++) {
			l = g->adj[x].link;
			c->at[2 * l + (g->links[l].a != v)] = x;
		}
		c->row0[v] = words;
		words += (uint64_t)sluice_graph_degree(g, v) * row_words(g, v);
	}
	for (l = 0; l < g->n_links; l++)
		c->link[l] = (struct cbd_link){ g->links[l].a, g->links[l].b,
						c->at[2 * l], c->at[2 * l + 1] };
	c->lane_words = words;
	return 0;
}

/* Lane @lane's block and bits, made on its first path. */
static int lane_block(struct cbd *c, uint8_t lane)
{
	if (c->dep_of[lane])
		return 0;
	c->dep_of[lane] = sluice_i_calloc(c->lane_words, sizeof(uint64_t));
	c->used_of[lane] = sluice_i_calloc((c->n_adj + 63) / 64,
					   sizeof(uint64_t));
	return c->dep_of[lane] && c->used_of[lane] ? 0 : -ENOMEM;
}

/* Hop @h of the set as a hop of path @q, for messages. */
static unsigned long long hop_no(const struct sluice_routes *r, uint64_t q,
				 uint64_t h)
{
	return h - r->path_hop[q];
}

/*
 * Walks path @q of pair @p, checking it, and sets the bits of its buffers
 * and of its dependencies.  The hot loop: O(1) per hop.
 */
static int walk(struct cbd *c, uint64_t p, uint64_t q, char *err,
		size_t errlen)
{
	const struct sluice_graph *g = c->g;
	const struct sluice_routes *r = c->r;
	uint8_t lane = r->path_lane[q];
	uint32_t cur = r->pair_src[p], next, l, tail, head, prev = NONE32, out;
	uint64_t h, *w, bit, *dep, *used;

	if (lane_block(c, lane))
		return -ENOMEM;
	dep = c->dep_of[lane];
	used = c->used_of[lane];

	for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
		l = r->hops[h];
		if (l >= g->n_links)
			return path_err(c, p, q, err, errlen,
					", hop %llu: link %u is out of range (the topology has %u links)",
					hop_no(r, q, h), l, g->n_links);
		next = step(c, cur, l, &tail, &head);
		if (next == NONE32)
			return path_err(c, p, q, err, errlen,
					", hop %llu: link %u (%s-%s) does not leave %s",
					hop_no(r, q, h), l,
					name(c, g->links[l].a),
					name(c, g->links[l].b), name(c, cur));
		used[head / 64] |= 1ull << (head % 64);
		if (prev != NONE32) {
			out = tail - g->off[cur];
			w = dep + c->row0[cur] + (uint64_t)(prev - g->off[cur]) *
			    row_words(g, cur) + out / 64;
			bit = 1ull << (out % 64);
			c->n_deps += !(*w & bit);
			*w |= bit;
		}
		prev = head;
		cur = next;
	}
	if (cur != r->pair_dst[p])
		return path_err(c, p, q, err, errlen, ": ends at %s",
				name(c, cur));
	return 0;
}

/* Every path of the chunk at hand: the dependency graph. */
static int build(struct cbd *c, char *err, size_t errlen)
{
	const struct sluice_routes *r = c->r;
	uint64_t p, q;
	int ret;

	for (p = 0; p < r->n_pairs; p++)
		for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
			ret = walk(c, p, q, err, errlen);
			if (ret)
				return ret;
		}
	return 0;
}

struct frame {
	uint32_t	node;	/* lane index * n_adj + adjacency entry */
	uint32_t	head;	/* the graph node the buffer's link enters */
	uint32_t	next;	/* the first out position not tried yet */
};

enum { WHITE, GREY, BLACK };

/*
 * The next set bit at or after @from in a row of @n words, or NONE32.
 * Bits past the degree are never set.
 */
static uint32_t next_bit(const uint64_t *rw, uint32_t n, uint32_t from)
{
	uint32_t i = from / 64;
	uint64_t m;

	if (i >= n)
		return NONE32;
	m = rw[i] & (~0ull << (from % 64));
	while (!m) {
		if (++i == n)
			return NONE32;
		m = rw[i];
	}
	return i * 64 + (uint32_t)__builtin_ctzll(m);
}

/*
 * The graph node buffer @node (lane index * n_adj + adjacency entry)
 * enters: the far end of its link from the peer its entry names.
 */
static uint32_t head_of(const struct cbd *c, uint32_t node)
{
	const struct sluice_adj *e = &c->g->adj[node % c->n_adj];
	const struct sluice_link *k = &c->g->links[e->link];

	return k->a == e->peer ? k->b : k->a;
}

/*
 * Out-edge @j of a buffer of lane @li entering @v: the buffer of the
 * j-th link at v, leaving v, which is named by the link's entry at its
 * far end.
 */
static uint32_t out_node(const struct cbd *c, uint32_t li, uint32_t v,
			 uint32_t j)
{
	uint32_t l = c->g->adj[c->g->off[v] + j].link;

	return li * c->n_adj + c->at[2 * l + (c->g->links[l].a == v)];
}

/*
 * Iterative DFS over the used buffers, in buffer order, each one's
 * out-edges in adjacency order, so that what is found depends on nothing
 * but the input.  Sets *@on_cycle to a buffer on a cycle (the first one
 * the search meets again while it is still on the stack), or to NONE32 if
 * there is no cycle.  Returns 0 or -ENOMEM.  Time: O(lanes * (links + B)
 * + dependencies).
 */
static int find_cycle(const struct cbd *c, uint32_t *on_cycle)
{
	const struct sluice_graph *g = c->g;
	uint64_t n = (uint64_t)c->n_lanes * c->n_adj;
	uint32_t s, sp, j, y, li;
	struct frame *st, *f;
	uint8_t *col;

	*on_cycle = NONE32;
	col = sluice_i_calloc(n, sizeof(*col));
	st = sluice_i_calloc(n, sizeof(*st));
	if (!col || !st) {
		free(col);
		free(st);
		return -ENOMEM;
	}
	for (s = 0; s < n && *on_cycle == NONE32; s++) {
		if (col[s] != WHITE || !(c->used[s / c->n_adj][s % c->n_adj / 64] &
					 (1ull << (s % c->n_adj % 64))))
			continue;
		st[0].node = s;
		st[0].head = head_of(c, s);
		st[0].next = 0;
		col[s] = GREY;
		sp = 1;
		while (sp) {
			f = &st[sp - 1];
			li = f->node / c->n_adj;
			j = next_bit(row(c, li, f->head, f->node % c->n_adj),
				     row_words(g, f->head), f->next);
			if (j == NONE32) {
				col[f->node] = BLACK;
				sp--;
				continue;
			}
			f->next = j + 1;
			y = out_node(c, li, f->head, j);
			if (col[y] == GREY) {
				*on_cycle = y;
				break;
			}
			if (col[y] == BLACK)
				continue;
			col[y] = GREY;
			st[sp].node = y;
			st[sp].head = g->adj[g->off[f->head] + j].peer;
			st[sp].next = 0;
			sp++;
		}
	}
	free(col);
	free(st);
	return 0;
}

/*
 * The witness: a shortest cycle through buffer @s, by a BFS from it, into
 * res->cycle from @s on (paths left NONE64).  A shortest cycle repeats no
 * buffer.  Returns 0, -ENOMEM, or -EFAULT if @s is on no cycle.  Time:
 * O(links + B + dependencies) of @s's lane.
 */
static int shortest_cycle(const struct cbd *c, uint32_t s,
			  struct sluice_cbd_result *res)
{
	const struct sluice_graph *g = c->g;
	uint32_t li = s / c->n_adj, base = li * c->n_adj, *parent, *head,
		 *queue, qh = 0, qt = 0, x, y, v, j, n, last = NONE32;
	int ret = 0;

	/* all indexed by adjacency entry: the lane is s's */
	parent = malloc(c->n_adj * sizeof(*parent));
	head = malloc(c->n_adj * sizeof(*head));
	queue = malloc(c->n_adj * sizeof(*queue));
	if (!parent || !head || !queue) {
		ret = -ENOMEM;
		goto out;
	}
	memset(parent, 0xff, c->n_adj * sizeof(*parent));
	x = s - base;
	head[x] = head_of(c, s);
	parent[x] = x;
	queue[qt++] = x;
	while (qh < qt && last == NONE32) {
		x = queue[qh++];
		v = head[x];
		for (j = next_bit(row(c, li, v, x), row_words(g, v), 0);
		     j != NONE32;
		     j = next_bit(row(c, li, v, x), row_words(g, v), j + 1)) {
			y = out_node(c, li, v, j) - base;
			if (y == s - base) {
				last = x;
				break;
			}
			if (parent[y] != NONE32)
				continue;
			parent[y] = x;
			head[y] = g->adj[g->off[v] + j].peer;
			queue[qt++] = y;
		}
	}
	if (last == NONE32) {
		ret = -EFAULT;
		goto out;
	}
	for (n = 1, x = last; x != s - base; x = parent[x])
		n++;
	res->cycle = sluice_i_calloc(n, sizeof(*res->cycle));
	if (!res->cycle) {
		ret = -ENOMEM;
		goto out;
	}
	res->n_cycle = n;
	for (x = last; n--; x = parent[x]) {
		struct sluice_cbd_hop *hp = &res->cycle[n];

		hp->link = g->adj[x].link;
		hp->from = g->adj[x].peer;
		hp->to = head[x];
		hp->lane = c->lane_of[li];
		hp->path = NONE64;
	}
out:
	free(parent);
	free(head);
	free(queue);
	return ret;
}

/*
 * The witness's pass, ready: where each buffer of the cycle is on it, so
 * that a second pass over the paths can name, for each dependency of the
 * cycle, the lowest-numbered path that creates it.
 */
static int attribute_start(struct cbd *c, const struct sluice_cbd_result *res)
{
	const struct sluice_graph *g = c->g;
	uint32_t n = res->n_cycle, i;

	/* pos[x]: where buffer x is on the cycle; buf[i]: the i-th buffer */
	c->pos = malloc(c->n_adj * sizeof(*c->pos));
	c->buf = malloc(n * sizeof(*c->buf));
	if (!c->pos || !c->buf)
		return -ENOMEM;
	memset(c->pos, 0xff, c->n_adj * sizeof(*c->pos));
	for (i = 0; i < n; i++) {
		const struct sluice_cbd_hop *hp = &res->cycle[i];

		c->buf[i] = c->at[2 * hp->link +
				  (g->links[hp->link].a != hp->to)];
		c->pos[c->buf[i]] = i;
	}
	c->left = n;
	return 0;
}

/*
 * One more walk over the chunk at hand's paths of the cycle's lane, which
 * build() checked, naming each dependency of the cycle not named yet.
 */
static void attribute(struct cbd *c, struct sluice_cbd_result *res)
{
	const struct sluice_routes *r = c->r;
	uint32_t n = res->n_cycle, i, cur, prev;
	/* set by step(): build() checked every walk */
	uint32_t tail = 0, head = 0;
	uint8_t lane = res->cycle[0].lane;
	uint64_t p, q, h;

	for (p = 0; p < r->n_pairs && c->left; p++)
		for (q = r->pair_path[p]; q < r->pair_path[p + 1] && c->left;
		     q++) {
			if (r->path_lane[q] != lane)
				continue;
			cur = r->pair_src[p];
			prev = NONE32;
			for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
				cur = step(c, cur, r->hops[h], &tail, &head);
				if (prev != NONE32 && c->pos[prev] != NONE32) {
					i = c->pos[prev];
					if (c->buf[(i + 1) % n] == head &&
					    res->cycle[i].path == NONE64) {
						res->cycle[i].path =
							c->base_path + q;
						c->left--;
					}
				}
				prev = head;
			}
		}
}

struct sluice_cbd_stream {
	struct cbd	c;
	int		ret;	/* a chunk's error: the stream is over */
	bool		ended;
};

/**
 * sluice_cbd_stream_start() - the CBD check of a route set fed in chunks
 * @sp:		set to the stream; sluice_cbd_stream_free() it in any case
 * @g:		the finalized topology the routes belong to
 * @head:	the set's header: its topology
 * @err:	a message on an error
 * @errlen:	its size
 *
 * sluice_cbd_check() with the paths fed a chunk at a time, in order, by
 * sluice_cbd_stream_add() (a sluice_routes_sink_fn, with the stream as
 * its arg), and the verdict from sluice_cbd_stream_end().  A CBD's witness
 * then names its cycle's paths only after the same chunks are fed again,
 * through sluice_cbd_stream_witness(), to sluice_cbd_stream_witness_end().
 * Memory: the bitmaps, 8 * lanes * B bytes (sluice_cbd_check()), and
 * nothing per path.
 *
 * Return: 0, -EINVAL (another topology, or not finalized) or -ENOMEM.
 */
int sluice_cbd_stream_start(struct sluice_cbd_stream **sp,
			    const struct sluice_graph *g,
			    const struct sluice_routes *head, char *err,
			    size_t errlen)
{
	struct sluice_cbd_stream *s;
	int ret;

	*sp = s = calloc(1, sizeof(*s));
	if (!s)
		return no_memory(err, errlen);
	s->c.g = g;
	if (!g->finalized)
		ret = sluice_i_errf(err, errlen, -EINVAL,
				    "the topology is not finalized");
	else
		ret = check_topology(&s->c, head, err, errlen);
	if (!ret && alloc_graph(&s->c))
		ret = no_memory(err, errlen);
	s->ret = ret;
	return ret;
}

/*
 * sluice_cbd_stream_add() - the next chunk's paths into the dependency
 * graph, each checked (ranges, lanes, walks; errors name pairs and paths
 * by their index in the whole set).  0, -EINVAL or -ENOMEM.
 */
int sluice_cbd_stream_add(void *stream, const struct sluice_routes *chunk,
			  char *err, size_t errlen)
{
	struct sluice_cbd_stream *s = stream;
	struct cbd *c = &s->c;
	int ret;

	if (s->ret || s->ended)
		return s->ret ? s->ret : -EINVAL;
	c->r = chunk;
	ret = check_layout(c, err, errlen);
	if (!ret)
		ret = build(c, err, errlen);
	if (ret == -ENOMEM)
		ret = no_memory(err, errlen);
	c->base_pair += chunk->n_pairs;
	c->base_path += chunk->n_paths;
	c->r = NULL;
	s->ret = ret;
	return ret;
}

/*
 * sluice_cbd_stream_end() - the verdict once every chunk is in: @res as
 * sluice_cbd_check() fills it, but a cycle's paths NONE64 until the
 * witness's pass.  0 or -ENOMEM.
 */
int sluice_cbd_stream_end(struct sluice_cbd_stream *s,
			  struct sluice_cbd_result *res, char *err,
			  size_t errlen)
{
	struct cbd *c = &s->c;
	uint32_t on_cycle, l;
	uint64_t i;
	int ret;

	memset(res, 0, sizeof(*res));
	if (s->ret || s->ended)
		return s->ret ? s->ret : -EINVAL;
	s->ended = true;
	/* Blocks in lane order, whatever order the paths came in. */
	memset(c->lane_idx, NO_LANE, sizeof(c->lane_idx));
	for (l = 0; l < SLUICE_LANES_MAX; l++)
		if (c->dep_of[l]) {
			c->dep[c->n_lanes] = c->dep_of[l];
			c->used[c->n_lanes] = c->used_of[l];
			c->lane_of[c->n_lanes] = l;
			c->lane_idx[l] = c->n_lanes++;
		}
	res->lanes = c->n_lanes;
	res->dependencies = c->n_deps;
	for (l = 0; l < c->n_lanes; l++)
		for (i = 0; i < (c->n_adj + 63) / 64; i++)
			res->link_lanes +=
				(uint64_t)__builtin_popcountll(c->used[l][i]);
	ret = find_cycle(c, &on_cycle);
	if (!ret && on_cycle != NONE32)
		ret = shortest_cycle(c, on_cycle, res);
	if (!ret && res->n_cycle)
		ret = attribute_start(c, res);
	/* the witness's pass counts the paths again */
	c->base_pair = c->base_path = 0;
	if (ret == -ENOMEM)
		ret = no_memory(err, errlen);
	else if (ret)
		ret = sluice_i_errf(err, errlen, ret,
				    "internal error: a dependency cycle that is not one");
	res->cbd_free = !res->n_cycle;
	s->ret = ret;
	if (ret)
		sluice_cbd_result_free(res);
	return ret;
}

/*
 * sluice_cbd_stream_witness() - the same chunks again, in the same order,
 * after sluice_cbd_stream_end() found a cycle: @stream is a struct
 * { struct sluice_cbd_stream *; struct sluice_cbd_result *; } pair as
 * struct sluice_cbd_witness.  Always 0: the chunks were checked.
 */
int sluice_cbd_stream_witness(void *witness, const struct sluice_routes *chunk,
			      char *err, size_t errlen)
{
	struct sluice_cbd_witness *wt = witness;
	struct cbd *c = &wt->s->c;

	(void)err;
	(void)errlen;
	if (!c->pos || !chunk->n_pairs)
		return 0;
	if (!c->left) {
		c->base_path += chunk->n_paths;
		return 0;
	}
	c->r = chunk;
	attribute(c, wt->res);
	c->base_path += chunk->n_paths;
	c->r = NULL;
	return 0;
}

/*
 * sluice_cbd_stream_witness_end() - every dependency of the cycle has its
 * path; 0, or -EFAULT (an internal error, with its message) and @res
 * freed.
 */
int sluice_cbd_stream_witness_end(struct sluice_cbd_stream *s,
				  struct sluice_cbd_result *res, char *err,
				  size_t errlen)
{
	/* Every edge of the cycle came from some path. */
	if (!s->c.pos || !s->c.left)
		return 0;
	sluice_cbd_result_free(res);
	return sluice_i_errf(err, errlen, -EFAULT,
			     "internal error: a dependency cycle that is not one");
}

void sluice_cbd_stream_free(struct sluice_cbd_stream *s)
{
	uint32_t l;

	if (!s)
		return;
	free(s->c.at);
	free(s->c.link);
	free(s->c.row0);
	for (l = 0; l < SLUICE_LANES_MAX; l++) {
		free(s->c.dep_of[l]);
		free(s->c.used_of[l]);
	}
	free(s->c.pos);
	free(s->c.buf);
	free(s);
}

/**
 * sluice_cbd_check() - does a route set have a cyclic buffer dependency?
 * @g:		the finalized topology the routes belong to
 * @r:		the route set (or one shard of it)
 * @res:	filled: whether it is CBD-free, the dependency graph's size,
 *		and on a CBD one dependency cycle with the paths behind it;
 *		free with sluice_cbd_result_free(), even on an error
 * @err:	a message on an error
 * @errlen:	its size
 *
 * Builds FC's link dependency graph (Definition 3) per lane and searches it
 * for a cycle (Theorem 7, Algorithm 2): a depth-first search finds a buffer
 * on a cycle, a breadth-first search from it a shortest cycle through it,
 * and a last pass over the paths the first path behind each of its
 * dependencies.  Checks the route set as it goes: node, path and hop
 * ranges, lanes, and that every path is a walk over the topology's links
 * from its pair's source to its destination; an error names the pair, path
 * and hop (0-based indices into @r, hops within their path).
 *
 * Memory: 8 * lanes * B bytes of bitmap and O(lanes * L) more, nothing per
 * path: an all-pairs set of 7 * 10^7 hops on a thousand 40-port switches
 * takes under a megabyte and about 0.6 s.
 *
 * Return: 0 (see res->cbd_free), -EINVAL on a malformed route set or an
 * unfinalized graph, or -ENOMEM.
 */
int sluice_cbd_check(const struct sluice_graph *g,
		     const struct sluice_routes *r,
		     struct sluice_cbd_result *res, char *err, size_t errlen)
{
	struct sluice_cbd_stream *s;
	struct sluice_cbd_witness wt;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = sluice_cbd_stream_start(&s, g, r, err, errlen);
	if (!ret)
		ret = sluice_cbd_stream_add(s, r, err, errlen);
	if (!ret)
		ret = sluice_cbd_stream_end(s, res, err, errlen);
	if (!ret && res->n_cycle) {
		wt.s = s;
		wt.res = res;
		ret = sluice_cbd_stream_witness(&wt, r, err, errlen);
		if (!ret)
			ret = sluice_cbd_stream_witness_end(s, res, err,
							    errlen);
	}
	sluice_cbd_stream_free(s);
	if (ret)
		sluice_cbd_result_free(res);
	return ret;
}

/**
 * sluice_cbd_result_free() - free a result's cycle
 * @res:	from sluice_cbd_check(); left zeroed
 */
void sluice_cbd_result_free(struct sluice_cbd_result *res)
{
	free(res->cycle);
	memset(res, 0, sizeof(*res));
}
