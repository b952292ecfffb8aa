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

struct cbd {
	const struct sluice_graph	*g;
	const struct sluice_routes	*r;
	uint32_t	n_adj;		/* 2 * n_links: buffers per lane */
	/* at[2 * l]: link l's adjacency entry at its a end; + 1: at b */
	uint32_t	*at;
	/* first bitmap word of node v's matrix, within a lane's block */
	uint64_t	*row0;		/* n_nodes */
	uint64_t	lane_words;	/* one lane's block of the bitmap */
	uint32_t	n_lanes;
	uint8_t		lane_idx[SLUICE_LANES_MAX];	/* or NO_LANE */
	uint8_t		lane_of[SLUICE_LANES_MAX];
	uint64_t	*dep;		/* n_lanes * lane_words */
	uint64_t	*used;		/* a bit per buffer: n_lanes * n_adj */
	uint64_t	n_deps;
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
	return c->dep + li * c->lane_words + c->row0[v] +
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
	const struct sluice_link *k = &c->g->links[l];

	if (k->a == cur) {
		*tail = c->at[2 * l];
		*head = c->at[2 * l + 1];
		return k->b;
	}
	if (k->b == cur) {
		*tail = c->at[2 * l + 1];
		*head = c->at[2 * l];
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
			 (unsigned long long)q);
	return sluice_i_errf(err, errlen, -EINVAL, "pair %llu (%s to %s)%s%s",
			     (unsigned long long)p, name(c, c->r->pair_src[p]),
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
		c->lane_idx[lane] = 1;
	}
	return 0;
}

/*
 * The pairs' and paths' ranges, endpoints and lanes, before anything is
 * sized by them: the lanes used pick the bitmap's blocks.
 */
static int check_layout(struct cbd *c, char *err, size_t errlen)
{
	const struct sluice_routes *r = c->r;
	uint32_t s, d;
	uint64_t p;
	int ret;

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
	memset(c->lane_idx, NO_LANE, sizeof(c->lane_idx));
	for (p = 0; p < r->n_pairs; p++) {
		s = r->pair_src[p];
		d = r->pair_dst[p];
		if (s >= c->g->n_nodes || d >= c->g->n_nodes)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "pair %llu: node %u is out of range (the topology has %u nodes)",
					     (unsigned long long)p,
					     s >= c->g->n_nodes ? s : d,
					     c->g->n_nodes);
		ret = check_paths(c, p, err, errlen);
		if (ret)
			return ret;
	}
	/* Blocks in lane order, whatever order the paths came in. */
	for (s = 0; s < SLUICE_LANES_MAX; s++)
		if (c->lane_idx[s] != NO_LANE) {
			c->lane_of[c->n_lanes] = s;
			c->lane_idx[s] = c->n_lanes++;
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
	c->row0 = sluice_i_calloc(g->n_nodes, sizeof(*c->row0));
	if (!c->at || !c->row0)
		return -ENOMEM;
	for (v = 0; v < g->n_nodes; v++) {
		for (x = g->off[v]; x < g->off[v + 1]; x++) {
			l = g->adj[x].link;
			c->at[2 * l + (g->links[l].a != v)] = x;
		}
		c->row0[v] = words;
		words += (uint64_t)sluice_graph_degree(g, v) * row_words(g, v);
	}
	c->lane_words = words;
	if (!c->n_lanes)
		return 0;
	if (words > SIZE_MAX / c->n_lanes)
		return -ENOMEM;
	c->dep = sluice_i_calloc(c->n_lanes * words, sizeof(*c->dep));
	c->used = sluice_i_calloc(((uint64_t)c->n_lanes * c->n_adj + 63) / 64,
				  sizeof(*c->used));
	if (!c->dep || !c->used)
		return -ENOMEM;
	return 0;
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
	uint32_t li = c->lane_idx[r->path_lane[q]], cur = r->pair_src[p];
	uint32_t next, l, tail, head, prev = NONE32, out;
	uint64_t nb = (uint64_t)li * c->n_adj, h, *w, bit;

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
		c->used[(nb + head) / 64] |= 1ull << ((nb + head) % 64);
		if (prev != NONE32) {
			out = tail - g->off[cur];
			w = row(c, li, cur, prev) + out / 64;
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

/* Every path: the dependency graph. */
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
		if (col[s] != WHITE || !(c->used[s / 64] & (1ull << (s % 64))))
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
 * Names, for each dependency of the cycle, the lowest-numbered path that
 * creates it: one more walk over the paths of the cycle's lane, already
 * checked by build().
 */
static int attribute(const struct cbd *c, struct sluice_cbd_result *res)
{
	const struct sluice_graph *g = c->g;
	const struct sluice_routes *r = c->r;
	uint32_t *pos, *buf, n = res->n_cycle, left = n, i, cur, prev;
	/* set by step(): build() checked every walk */
	uint32_t tail = 0, head = 0;
	uint8_t lane = res->cycle[0].lane;
	uint64_t p, q, h;

	/* pos[x]: where buffer x is on the cycle; buf[i]: the i-th buffer */
	pos = malloc(c->n_adj * sizeof(*pos));
	buf = malloc(n * sizeof(*buf));
	if (!pos || !buf) {
		free(pos);
		free(buf);
		return -ENOMEM;
	}
	memset(pos, 0xff, c->n_adj * sizeof(*pos));
	for (i = 0; i < n; i++) {
		const struct sluice_cbd_hop *hp = &res->cycle[i];

		buf[i] = c->at[2 * hp->link + (g->links[hp->link].a != hp->to)];
		pos[buf[i]] = i;
	}
	for (p = 0; p < r->n_pairs && left; p++)
		for (q = r->pair_path[p]; q < r->pair_path[p + 1] && left;
		     q++) {
			if (r->path_lane[q] != lane)
				continue;
			cur = r->pair_src[p];
			prev = NONE32;
			for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
				cur = step(c, cur, r->hops[h], &tail, &head);
				if (prev != NONE32 && pos[prev] != NONE32) {
					i = pos[prev];
					if (buf[(i + 1) % n] == head &&
					    res->cycle[i].path == NONE64) {
						res->cycle[i].path = q;
						left--;
					}
				}
				prev = head;
			}
		}
	free(pos);
	free(buf);
	/* Every edge of the cycle came from some path. */
	return left ? -EFAULT : 0;
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
	struct cbd c = { .g = g, .r = r };
	uint32_t on_cycle;
	uint64_t i;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the topology is not finalized");
	ret = check_layout(&c, err, errlen);
	if (ret)
		return ret;
	ret = alloc_graph(&c);
	if (ret) {
		ret = no_memory(err, errlen);
		goto out;
	}
	ret = build(&c, err, errlen);
	if (ret)
		goto out;
	res->lanes = c.n_lanes;
	res->dependencies = c.n_deps;
	for (i = 0; i < ((uint64_t)c.n_lanes * c.n_adj + 63) / 64; i++)
		res->link_lanes += (uint64_t)__builtin_popcountll(c.used[i]);
	ret = find_cycle(&c, &on_cycle);
	if (!ret && on_cycle != NONE32)
		ret = shortest_cycle(&c, on_cycle, res);
	if (!ret && res->n_cycle)
		ret = attribute(&c, res);
	if (ret == -ENOMEM)
		ret = no_memory(err, errlen);
	else if (ret)
		ret = sluice_i_errf(err, errlen, ret,
				    "internal error: a dependency cycle that is not one");
	res->cbd_free = !res->n_cycle;
out:
	free(c.at);
	free(c.row0);
	free(c.dep);
	free(c.used);
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
