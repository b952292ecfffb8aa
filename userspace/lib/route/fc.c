// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FC's edge-disjoint virtual up-down routing: Zhang et al., "Flattened Clos:
 * Designing High-performance Deadlock-free Expander Data Center Networks
 * Using Graph Contraction", NSDI'23, Section 3.2 and Appendix A.1.
 *
 * The directed virtual up-down graph (Section 3.2.1, Fig. 4(c)): switch i
 * of a k-layer FC has an up node U(i,j) and a down node D(i,j) for each
 * layer j < k, and one top node for layer k, both U(i,k) and D(i,k).  A
 * link between the layer-j port of switch a and the layer-(j+1) port of
 * switch b gives two solid arcs, up U(a,j) -> U(b,j+1) (walking a to b) and
 * down D(b,j+1) -> D(a,j) (walking b to a); inside a switch the dashed arcs
 * U(i,j) -> U(i,j+1) and D(i,j+1) -> D(i,j) climb and descend.  The paths
 * of a pair (s, t) are a min-cost max-flow from U(s,1) to D(t,1), solid
 * arcs of capacity 1 and cost 1, dashed arcs of unbounded capacity and cost
 * epsilon (Algorithm 1, line 1), decomposed by Algorithm 1 and contracted
 * to the physical links of their solid arcs.
 *
 * Exact costs.  Epsilon is made exact by lexicographic costs: a solid arc
 * costs M, a dashed arc 1, M above the dashed arcs any flow can use (a path
 * has at most 2k - 3 of them and F is at most deg(s): M = (2k - 3) maxdeg
 * + 1).  Number the nodes of a switch along its chain U(i,1) .. U(i,k) =
 * D(i,k) .. D(i,1) as ranks 0 to 2k - 2: every arc, solid or dashed, climbs
 * exactly one rank.  So the graph is a layered DAG (the flow never has a
 * cycle and Algorithm 1's DFS needs no visited set), and every arc of the
 * residual network, reverse arcs included, has
 *
 *	cost_M(e) = (M - 1) cost_1(e) + rank(head) - rank(tail)
 *
 * where cost_1 is 1 on solid arcs and 0 on dashed ones (negated on reverse
 * arcs).  The lexicographic cost is a positive multiple of cost_1 plus a
 * node potential: both rank flows of equal value alike, path by path and
 * in every residual network, and a flow of value F costs
 * (M - 1) links + (2k - 2) F.  The solver works with cost_1 (small
 * integers, a bucket queue), and reports the cost in M too, so that the
 * benchmark checks it against LEMON solving the network with M and 1.
 *
 * The solve, per pair.  Only nodes on some s-t path matter (Section
 * 3.2.4): the up-cone of U(s,1), the down-cone of D(t,1), and the top nodes
 * both reach; a few hundred of the 7000 virtual nodes of N = 1000, k = 4.
 * Every switch's up-cone is found once, with the context (the virtual
 * nodes numbered rank by rank, U(i,j) at (j - 1) N + i), and the arcs out
 * of it listed switch by switch; a destination's down-cone is the mirror
 * of its own, D(y,j) reaching D(t,1) over as many links as U(t,1) reaches
 * U(y,j), over the same links, so that a pair reads two short lists, its
 * source's and its destination's, and not the graph's adjacency.  The
 * pair's nodes are found from the narrow sides: the top layer, the
 * widest, is met through the up-cone's rank k - 2 and the down-cone's
 * rank k, with a byte a switch for the top layer; the arcs a node may keep
 * are gathered without a branch (which half the time would go the wrong
 * way) and each kept one goes into its ends' slots of the residual
 * network.  A reverse arc is no arc of its own: its head's slot holds the
 * forward arc's index, and its capacity is the forward arc's flow.
 *
 * On that network, successive shortest paths with potentials (reduced
 * costs never negative, so each augmenting path of zero reduced cost is a
 * shortest one).  The first potentials are minus the exact distances to t
 * (the down-cone's, then the least over the arcs met), so that the tight
 * arcs lead to t.
 * The tight forward paths go first, all at once: their arcs form a DAG, so
 * a DFS with current-arc pointers finds a blocking flow of them without
 * ever coming back to a dead end (Dinic's, without levels).  Then, again
 * and again, a Dijkstra on reduced costs stopped at t finds the next
 * shortest path, one that needs a reverse arc or a longer one (small
 * non-negative integer keys: a bucket queue; last in first out, so that a
 * run of zero reduced cost goes depth first; a node nothing flows into has
 * no reverse arc with capacity, and is spared looking), the potentials
 * follow, and the forward paths that became tight go all at once again.
 * The last search, which misses t, proves the flow maximum - or, before
 * it, the flow fills one of two cuts that prune() counts, the solid arcs
 * out of the source's switch or into the destination's (half the pairs of
 * N = 1000), and needs no such search.  Scratch
 * memory lives in the worker, sized once for the whole graph; stamps
 * instead of clearing make a pair cost only what it touches.
 *
 * The result is checked before it is emitted: the flow is conserved, no
 * path is longer than an up-down path and all together they take as many
 * links as the flow; and, on a sample of the pairs (every pair in the
 * tests), each path is a walk from s to t, none takes a solid arc twice,
 * and no residual arc has a negative reduced cost (so the flow is of min
 * cost).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/route.h>
#include "graph/internal.h"
#include "route/algo.h"
#include "route/fc.h"

/*
 * garc of a forward dashed arc: odd, so that a down arc is its up arc | 1
 * for solid and dashed arcs alike (fc_ctx.uarc's mirror).
 */
#define DASHED		0xffffffffu
/*
 * How often the certificate (optimal(), and decompose()'s walk and
 * edge-disjoint checks) runs on a pair by default: on every pair it would
 * cost some 13% of a pair's time at N = 1000 (perf), a sample of one in 16
 * under 1%; the tests run it on every pair.
 */
#define FC_CERTIFY_EVERY	16
#define NONE		0xffffffffu

/* An arc by one of its ends: the node at the other, and the arc's id. */
struct fc_adj {
	uint32_t	node;
	uint32_t	arc;
};

/* A node of a cone: its switch, its distance from the apex in links. */
struct fc_cone {
	uint32_t	sw;
	int32_t		dist;
};

struct fc_ctx {
	const struct sluice_graph *g;
	uint32_t	k;		/* layers */
	uint32_t	vn;		/* virtual nodes per switch, 2k - 1 */
	uint32_t	n;		/* switches: a rank's virtual nodes */
	uint32_t	n_virt;
	int64_t		m;		/* lexicographic cost of a solid arc */
	/*
	 * Room for the forward and the reverse arcs of a local node: the
	 * most solid arcs out of and into any virtual node, plus its dashed
	 * one.  A dashed arc's capacity: above the highest degree, which
	 * bounds any flow (every path leaves the source's switch by a solid
	 * arc of its own).
	 */
	uint32_t	room_f, room_r;
	int32_t		dcap;
	/*
	 * The optimality certificate runs on a source's destinations 0,
	 * certify, 2 certify, ... (sluice_i_fc_certify_every()).
	 */
	uint32_t	certify;
	/*
	 * Solid arcs by tail (CSR), in arc id order: the head, and the arc
	 * id, 2 link + 1 if it walks the link down.
	 */
	uint32_t	*out_off;
	struct fc_adj	*out;
	/*
	 * Every switch's up-cone, ranks 0 to k - 2, found once: switch x's
	 * nodes of rank r are cone[cone_off[x (k - 1) + r]] up to the next
	 * offset, each a switch and its distance from U(x,1) in links.  The
	 * down side of a pair is its destination's cone in the mirror: D(y,j)
	 * reaches D(t,1) over as many links as U(t,1) reaches U(y,j), the
	 * links of one read the other way.
	 */
	uint32_t	*cone_off;
	struct fc_cone	*cone;
	/*
	 * The arcs out of every switch's up-cone, ranks 0 to k - 2: for
	 * switch x from uarc[uarc_off[x]] on, node by node of its cone in
	 * the cone's order (cone entry i's end at uarc_end[i]), the dashed
	 * one first, each the switch of its head and the arc; rank k - 2's,
	 * the arcs into the top, from utop_off[x] on.  In the mirror they
	 * are the arcs into a destination's down-cone (the same links, the
	 * down arcs: | 1), so that a pair reads its source's and its
	 * destination's lists, a few lines each, not the graph's adjacency.
	 */
	uint32_t	*uarc_off, *uarc_end, *utop_off;
	struct fc_adj	*uarc;
};

/*
 * A forward arc of the local residual network, 8 bytes as the searches
 * read nothing else: its head, and its residual capacity and its cost (1
 * or 0) packed as 8 cap + cost + 1; what it is, in garc[].  Its reverse
 * arc is no arc of its own: the reverse slot of its head holds its index,
 * and the reverse arc's capacity is the forward arc's flow, its first
 * capacity (1 if solid, dcap if dashed) less what is left, its cost minus
 * the forward arc's.  A search that takes it marks it in par[] with
 * PAR_REV.
 */
struct larc {
	uint32_t	to;
	int32_t		cc;
};

#define CC(cap, cost)		((cap) * CC_UNIT + (cost) + 1)
#define CC_UNIT			8	/* one unit of capacity */
/* par[]: the node was reached back along this forward arc */
#define PAR_REV			0x80000000u

static inline int32_t arc_cap(const struct larc *a)
{
	return a->cc >> 3;
}

static inline int32_t arc_cost(const struct larc *a)
{
	return (a->cc & 3) - 1;
}

/* The flow on forward arc @a, of first capacity 1 if solid, @dcap if not. */
static inline int32_t arc_flow(const struct larc *a, int32_t dcap)
{
	return ((a->cc & 3) == 2 ? 1 : dcap) - arc_cap(a);
}

/* An entry of search()'s bucket queue: a node, the next in its bucket. */
struct fc_qent {
	uint32_t	node;
	uint32_t	next;
};

/* A node of the pair's network, and its local id. */
struct fc_loc {
	uint32_t	stamp;
	uint32_t	lid;
};

struct fc_worker {
	/* stamps over the whole virtual graph */
	struct fc_loc	*loc;	/* .stamp == pair_stamp: in the network */
	uint32_t	*used;	/* solid arcs: == pair_stamp once emitted */
	uint32_t	pair_stamp;
	uint32_t	src;	/* whose up-cone ubuf holds */
	/*
	 * A byte a switch: its top node is in the source's up-cone, in the
	 * pair's network.
	 */
	uint8_t		*top_up, *top_net;
	uint32_t	*top_lid;	/* a top node's local id, if in top_net */
	bool		has_src;
	/* Node lists by rank r, [b[r], e[r]): the source's up-cone (u), */
	uint32_t	*ubuf;
	uint32_t	ub[2 * SLUICE_LAYERS_MAX], ue[2 * SLUICE_LAYERS_MAX];
	/*
	 * The local network: nl nodes, m forward arcs and their reverse
	 * ones.  Node u has a slot of 1 << shift entries from u << shift
	 * on: its forward arcs up to fe[u], then from the slot's room_f-th
	 * entry its reverse ones up to re[u], each in the order prune() met
	 * them.  A slot is a power of two long, so that arc e's tail is
	 * e >> shift.
	 */
	uint32_t	nl, m, ls, lt;
	uint32_t	n_solid;
	/*
	 * The lesser of two cuts: the solid arcs out of the source's
	 * switch, into the destination's.  A flow that fills one is
	 * maximum: no search needs to miss t to prove it.
	 */
	uint32_t	cut;
	uint32_t	room_f, shift;	/* a slot: 1 << shift arcs */
	uint64_t	solid;	/* links the flow takes */
	uint32_t	*fe, *re;
	/*
	 * Units of flow into u: its reverse arcs have capacity only if some
	 * do, so searches skip them when none.
	 */
	uint32_t	*inflow;
	struct larc	*arc;
	uint32_t	*rslot;	/* reverse slots: the forward arc's index */
	int32_t		dcap;	/* a dashed arc's first capacity */
	uint32_t	*garc;	/* forward arcs: solid arc id or DASHED */
	/* the solve */
	int32_t		*pi;
	/* ~search << 32 | distance: smaller is better or newer */
	uint64_t	*key;
	uint32_t	n_key;
	uint32_t	search;
	uint32_t	*popped, n_popped;	/* settled by the last search */
	uint32_t	*stack;		/* the arcs of a path */
	uint32_t	*cur_st, blocking;	/* cur[u] valid: == blocking */
	uint32_t	*par;		/* arc into a node on its shortest path */
	uint32_t	*bhead;		/* bucket queue: lists of entries */
	struct fc_qent	*q;	/* bucket queue entries */
	uint32_t	*cur;
	uint32_t	*hops;
	/*
	 * prune()'s candidates at one node, the kept ones first: a branch on
	 * each would be mispredicted half the time.
	 */
	struct fc_adj	*kept;
	bool		overflow;
};

static uint32_t link_low(const struct sluice_link *l)
{
	return l->la < l->lb ? l->a : l->b;
}

static uint32_t link_high(const struct sluice_link *l)
{
	return l->la < l->lb ? l->b : l->a;
}

/* The lower of the two port layers, 1-based. */
static uint32_t link_layer(const struct sluice_link *l)
{
	return l->la < l->lb ? l->la : l->lb;
}

/* Tail and head of solid arc @arc (2 * link + down). */
static void arc_ends(const struct fc_ctx *c, uint32_t arc, uint32_t *tail,
		     uint32_t *head)
{
	const struct sluice_link *l = &c->g->links[arc / 2];
	uint32_t j = link_layer(l), lo = link_low(l), hi = link_high(l);

	if (!(arc & 1)) {		/* U(lo,j) -> U(hi,j+1) */
		*tail = (j - 1) * c->n + lo;
		*head = j * c->n + hi;
	} else {			/* D(hi,j+1) -> D(lo,j) */
		*tail = (2 * c->k - 2 - j) * c->n + hi;
		*head = (2 * c->k - 1 - j) * c->n + lo;
	}
}

static int check_fc(const struct sluice_graph *g, char *err, size_t errlen)
{
	uint32_t id;

	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: the graph is not finalized");
	if (g->n_layers < 2)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: not an FC topology: no virtual layers");
	if (g->n_layers > SLUICE_LAYERS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: %u virtual layers, more than %u",
				     g->n_layers, SLUICE_LAYERS_MAX);
	for (id = 0; id < g->n_links; id++) {
		const struct sluice_link *l = &g->links[id];

		if (!l->la || l->la > g->n_layers)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "links[%u].la: layer %u is not one of the %u virtual layers",
					     id, l->la, g->n_layers);
		if (!l->lb || l->lb > g->n_layers)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "links[%u].lb: layer %u is not one of the %u virtual layers",
					     id, l->lb, g->n_layers);
		if (l->la + 1 != l->lb && l->lb + 1 != l->la)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "links[%u]: layers %u and %u are not adjacent",
					     id, l->la, l->lb);
	}
	return 0;
}

/**
 * fc_release() - free the context of fc_prepare()
 * @ctx:	the context, or NULL
 *
 * Time: O(1).
 */
static void fc_release(void *ctx)
{
	struct fc_ctx *c = ctx;

	if (!c)
		return;
	free(c->out_off);
	free(c->out);
	free(c->cone_off);
	free(c->cone);
	free(c->uarc_off);
	free(c->uarc_end);
	free(c->utop_off);
	free(c->uarc);
	free(c);
}

/*
 * Counting sort of the solid arcs by tail; each node's arcs in counted in
 * @in (zeroed, n_virt long), for the room of its reverse slot.
 */
static void fill_csr(struct fc_ctx *c, uint32_t *in)
{
	uint32_t n_arcs = 2 * c->g->n_links, a, tail, head, v;

	for (a = 0; a < n_arcs; a++) {
		arc_ends(c, a, &tail, &head);
		c->out_off[tail + 1]++;
		in[head]++;
	}
	for (v = 0; v < c->n_virt; v++)
		c->out_off[v + 1] += c->out_off[v];
	/* Each node's start serves as its cursor, then all shift back. */
	for (a = 0; a < n_arcs; a++) {
		arc_ends(c, a, &tail, &head);
		c->out[c->out_off[tail]++] = (struct fc_adj){ head, a };
	}
	for (v = c->n_virt; v > 0; v--)
		c->out_off[v] = c->out_off[v - 1];
	c->out_off[0] = 0;
}

/* Adds node @y of rank @r at distance @d to switch @x's cone. */
static int cone_add(struct fc_ctx *c, uint32_t *seen, uint32_t *at,
		    uint64_t *cap, uint64_t *n, uint32_t x, uint32_t r,
		    uint32_t y, int32_t d)
{
	if (seen[y] == x + 1) {
		if (d < c->cone[at[y]].dist)
			c->cone[at[y]].dist = d;
		return 0;
	}
	if (*n >= UINT32_MAX || SLUICE_I_GROW(c->cone, *cap, *n + 1))
		return -ENOMEM;
	seen[y] = x + 1;
	at[y] = *n;
	c->cone[(*n)++] = (struct fc_cone){ y - r * c->n, d };
	return 0;
}

/*
 * Every switch's up-cone, ranks 0 to k - 2, by rank, with distances, in
 * the order a search meets them (the dashed arc, then the solid ones in
 * arc order): ranks come in order as every arc climbs one.  @seen and @at
 * over the virtual graph: the switch whose cone holds a node (+ 1), and
 * where.
 */
static int fill_cones(struct fc_ctx *c, uint32_t *seen, uint32_t *at)
{
	uint32_t kr = c->k - 1, x, r, i, e, v, end;
	uint64_t cap = 0, n = 0;
	int32_t d;
	int ret = 0;

	c->cone_off = sluice_i_calloc((size_t)c->n * kr + 1, sizeof(uint32_t));
	if (!c->cone_off)
		return -ENOMEM;
	for (x = 0; x < c->n && !ret; x++) {
		c->cone_off[x * kr] = n;
		ret = cone_add(c, seen, at, &cap, &n, x, 0, x, 0);
		for (r = 0; r + 1 < kr && !ret; r++) {
			end = n;
			c->cone_off[x * kr + r + 1] = n;
			for (i = c->cone_off[x * kr + r]; i < end && !ret;
			     i++) {
				v = r * c->n + c->cone[i].sw;
				d = c->cone[i].dist;
				ret = cone_add(c, seen, at, &cap, &n, x, r + 1,
					       v + c->n, d);
				for (e = c->out_off[v];
				     e < c->out_off[v + 1] && !ret; e++)
					ret = cone_add(c, seen, at, &cap, &n, x,
						       r + 1, c->out[e].node,
						       d + 1);
			}
		}
	}
	c->cone_off[c->n * kr] = n;
	return ret;
}

/* Every switch's arcs out of its up-cone, ranks 0 to k - 2 (fc_ctx.uarc). */
static int fill_uarc(struct fc_ctx *c)
{
	uint32_t kr = c->k - 1, x, i, e, v, r;
	uint64_t n = 0;

	for (x = 0; x < c->n; x++)
		for (r = 0; r < kr; r++)
			for (i = c->cone_off[x * kr + r];
			     i < c->cone_off[x * kr + r + 1]; i++) {
				v = r * c->n + c->cone[i].sw;
				n += 1 + c->out_off[v + 1] - c->out_off[v];
			}
	if (n >= UINT32_MAX)
		return -ENOMEM;
	c->uarc_off = sluice_i_calloc((size_t)c->n + 1, sizeof(uint32_t));
	c->utop_off = sluice_i_calloc((size_t)c->n + 1, sizeof(uint32_t));
	c->uarc_end = sluice_i_calloc((size_t)c->cone_off[c->n * kr] + 1,
				      sizeof(uint32_t));
	c->uarc = sluice_i_calloc(n + 1, sizeof(*c->uarc));
	if (!c->uarc_off || !c->utop_off || !c->uarc_end || !c->uarc)
		return -ENOMEM;
	for (x = 0, n = 0; x < c->n; x++) {
		c->uarc_off[x] = n;
		for (r = 0; r < kr; r++) {
			if (r == kr - 1)
				c->utop_off[x] = n;
			for (i = c->cone_off[x * kr + r];
			     i < c->cone_off[x * kr + r + 1]; i++) {
				v = r * c->n + c->cone[i].sw;
				c->uarc[n++] = (struct fc_adj){ c->cone[i].sw,
								DASHED };
				for (e = c->out_off[v]; e < c->out_off[v + 1];
				     e++)
					c->uarc[n++] = (struct fc_adj){
						c->out[e].node - (r + 1) * c->n,
						c->out[e].arc };
				c->uarc_end[i] = n;
			}
		}
	}
	c->uarc_off[c->n] = n;
	c->utop_off[c->n] = n;
	return 0;
}

/**
 * fc_prepare() - build FC's directed virtual up-down graph
 * @g:		a finalized FC topology: k >= 2 layers, every link between
 *		adjacent layers
 * @o:		the options (FC has none)
 * @ctx:	set to the context
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (not an FC topology; @err names the link) or -ENOMEM.
 * Time: O(N k + m), memory O(N k + m) for N switches and m links.
 */
static int fc_prepare(const struct sluice_graph *g,
		      const struct sluice_route_opts *o, void **ctx,
		      char *err, size_t errlen)
{
	uint32_t u, maxdeg = 0, *seen, *at;
	struct fc_ctx *c;
	int ret;

	(void)o;
	*ctx = NULL;
	ret = check_fc(g, err, errlen);
	if (ret)
		return ret;
	c = calloc(1, sizeof(*c));
	if (!c)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	c->g = g;
	c->k = g->n_layers;
	c->vn = 2 * c->k - 1;
	c->n = g->n_nodes;
	c->n_virt = g->n_nodes * c->vn;
	for (u = 0; u < g->n_nodes; u++)
		if (sluice_graph_degree(g, u) > maxdeg)
			maxdeg = sluice_graph_degree(g, u);
	c->m = (int64_t)(2 * c->k - 3) * maxdeg + 1;
	c->out_off = sluice_i_calloc((size_t)c->n_virt + 1, sizeof(uint32_t));
	c->out = sluice_i_calloc(2 * (size_t)g->n_links + 1, sizeof(*c->out));
	if (!c->out_off || !c->out) {
		fc_release(c);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	seen = sluice_i_calloc(c->n_virt, sizeof(uint32_t));
	at = sluice_i_calloc(c->n_virt, sizeof(uint32_t));
	ret = seen && at ? 0 : -ENOMEM;
	if (!ret) {
		/* seen counts the arcs in first, then serves the cones */
		fill_csr(c, seen);
		for (u = 0; u < c->n_virt; u++) {
			if (c->out_off[u + 1] - c->out_off[u] + 1 > c->room_f)
				c->room_f = c->out_off[u + 1] - c->out_off[u] + 1;
			if (seen[u] + 1 > c->room_r)
				c->room_r = seen[u] + 1;
		}
		memset(seen, 0, c->n_virt * sizeof(uint32_t));
		ret = fill_cones(c, seen, at);
	}
	if (!ret)
		ret = fill_uarc(c);
	free(seen);
	free(at);
	if (ret) {
		fc_release(c);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	c->dcap = (int32_t)maxdeg + 1;
	c->certify = FC_CERTIFY_EVERY;
	*ctx = c;
	return 0;
}

/**
 * fc_worker_free() - free a worker of fc_worker_init()
 * @worker:	the worker, or NULL
 *
 * Time: O(1).
 */
static void fc_worker_free(void *worker)
{
	struct fc_worker *w = worker;

	if (!w)
		return;
	free(w->loc);
	free(w->used);
	free(w->top_up);
	free(w->top_net);
	free(w->top_lid);
	free(w->ubuf);
	free(w->fe);
	free(w->re);
	free(w->arc);
	free(w->rslot);
	free(w->garc);
	free(w->pi);
	free(w->key);
	free(w->inflow);
	free(w->popped);
	free(w->stack);
	free(w->cur_st);
	free(w->par);
	free(w->bhead);
	free(w->q);
	free(w->cur);
	free(w->hops);
	free(w->kept);
	free(w);
}

/**
 * fc_worker_init() - one thread's scratch memory
 * @ctx:	the context from fc_prepare()
 * @worker:	set to the worker
 *
 * Everything a pair needs, sized for the whole virtual graph so that no
 * pair allocates.
 *
 * Return: 0 or -ENOMEM.  Time and memory: O(N k + m).
 */
static int fc_worker_init(void *ctx, void **worker)
{
	const struct fc_ctx *c = ctx;
	size_t nv = (size_t)c->n_virt + 1;
	uint32_t shift = 0;
	size_t na, nb = 2 * (size_t)c->g->n_links + 2;
	struct fc_worker *w;

	/* a slot a power of two: an arc's tail is its index shifted */
	while ((1u << shift) < c->room_f + c->room_r)
		shift++;
	na = nv << shift;

	*worker = NULL;
	/* an arc's index has a bit to spare, for PAR_REV */
	if (na >= PAR_REV)
		return -ENOMEM;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->loc = sluice_i_calloc(nv, sizeof(*w->loc));
	w->used = sluice_i_calloc(nb, sizeof(uint32_t));
	w->top_up = sluice_i_calloc(c->n, sizeof(uint8_t));
	w->top_net = sluice_i_calloc(c->n, sizeof(uint8_t));
	w->top_lid = sluice_i_calloc(c->n, sizeof(uint32_t));
	w->ubuf = sluice_i_calloc(nv, sizeof(uint32_t));
	w->fe = sluice_i_calloc(nv, sizeof(uint32_t));
	w->re = sluice_i_calloc(nv, sizeof(uint32_t));
	w->arc = sluice_i_calloc(na, sizeof(struct larc));
	w->rslot = sluice_i_calloc(na, sizeof(uint32_t));
	w->garc = sluice_i_calloc(na, sizeof(uint32_t));
	w->pi = sluice_i_calloc(nv, sizeof(int32_t));
	w->key = sluice_i_calloc(nv, sizeof(uint64_t));
	w->inflow = sluice_i_calloc(nv, sizeof(uint32_t));
	w->popped = sluice_i_calloc(nv, sizeof(uint32_t));
	w->stack = sluice_i_calloc(nv, sizeof(uint32_t));
	w->cur_st = sluice_i_calloc(nv, sizeof(uint32_t));
	w->par = sluice_i_calloc(nv, sizeof(uint32_t));
	w->bhead = sluice_i_calloc(nb, sizeof(uint32_t));
	w->q = sluice_i_calloc(na + 1, sizeof(*w->q));
	w->cur = sluice_i_calloc(nv, sizeof(uint32_t));
	w->hops = sluice_i_calloc(2 * (size_t)c->k, sizeof(uint32_t));
	w->kept = sluice_i_calloc(c->room_f + c->room_r, sizeof(*w->kept));
	if (!w->loc || !w->used || !w->top_up || !w->top_net || !w->top_lid || !w->ubuf ||
	    !w->fe || !w->re ||
	    !w->arc || !w->rslot || !w->garc || !w->pi ||
	    !w->key || !w->inflow || !w->popped || !w->stack ||
	    !w->cur_st || !w->par || !w->bhead || !w->q ||
	    !w->cur || !w->hops || !w->kept) {
		fc_worker_free(w);
		return -ENOMEM;
	}
	memset(w->bhead, 0xff, nb * sizeof(uint32_t));
	memset(w->key, 0xff, nv * sizeof(uint64_t));
	w->n_key = (uint32_t)nv;
	w->shift = shift;
	w->dcap = c->dcap;
	w->room_f = c->room_f;
	*worker = w;
	return 0;
}

/* A fresh pair stamp; on wrap-around, first clears what it marks. */
static uint32_t next_pair_stamp(const struct fc_ctx *c, struct fc_worker *w)
{
	if (++w->pair_stamp == 0) {
		memset(w->loc, 0, c->n_virt * sizeof(*w->loc));
		memset(w->used, 0, (2 * (size_t)c->g->n_links + 1) *
				   sizeof(uint32_t));
		w->pair_stamp = 1;
	}
	return w->pair_stamp;
}

/*
 * The up-cone of U(src,1) from the cache, listed by rank in ubuf (ranks 0
 * to k - 2), and its top layer as bytes: the heads of rank k - 2's arcs.
 */
static void up_cone(const struct fc_ctx *c, struct fc_worker *w, uint32_t src)
{
	uint32_t kr = c->k - 1, n = 0, r, i, e;
	const uint32_t *off = c->cone_off + (size_t)src * kr;

	for (r = 0; r < kr; r++) {
		w->ub[r] = n;
		for (i = off[r]; i < off[r + 1]; i++)
			w->ubuf[n++] = r * c->n + c->cone[i].sw;
		w->ue[r] = n;
	}
	memset(w->top_up, 0, c->n);
	for (e = c->utop_off[src]; e < c->uarc_off[src + 1]; e++)
		w->top_up[c->uarc[e].node] = 1;
	w->src = src;
	w->has_src = true;
}

/*
 * The network as prune() builds it, in a local copy that the compiler
 * keeps in registers: stores to the arrays cannot change it.
 */
struct pb {
	struct fc_loc	*loc;
	uint32_t	ps, nl, m, n_solid, shift, room_f;
	uint32_t	*fe, *re, *rslot, *garc;
	struct larc	*arc;
	int32_t		*pi, dcc;	/* dcc: a dashed arc's cc */
};

/*
 * A new node of the network, with no arcs and @dist as its distance to t
 * (a bound, lowered as arcs are met, for a top node): its local id.
 */
static inline uint32_t new_node(struct pb *b, int32_t dist)
{
	uint32_t u = b->nl++;

	b->fe[u] = u << b->shift;
	b->re[u] = (u << b->shift) + b->room_f;
	b->pi[u] = -dist;
	return u;
}

/*
 * The local id of virtual node @v below or above the top layer (whose
 * nodes go by top_net and top_lid), a new one (new_node()) if it is not in
 * the network yet.
 */
static inline uint32_t local(struct pb *b, uint32_t v, int32_t dist)
{
	struct fc_loc *l = &b->loc[v];

	if (l->stamp == b->ps)
		return l->lid;
	l->stamp = b->ps;
	l->lid = new_node(b, dist);
	return l->lid;
}

/*
 * Adds forward arc @a, at its place in its tail's slot, to node @v (local
 * ids), solid (@garc its arc id) or DASHED, and its index at @r in @v's
 * reverse slot: the caller holds the cursor of the node whose arcs it
 * records one after the other in a register, and does not wait on a
 * store for each.
 */
static inline void record(struct pb *b, uint32_t v, uint32_t garc,
			  uint32_t a, uint32_t r)
{
	int32_t solid = garc != DASHED;

	/* without a branch: solid and dashed arcs come mixed */
	b->arc[a] = (struct larc){ v, solid ? CC(1, 1) : b->dcc };
	b->n_solid += solid;
	b->garc[a] = garc;
	b->rslot[r] = a;
	b->m++;
}

/* Whether virtual node @v is in the network; its local id in *@u. */
static inline bool in_net(const struct pb *b, uint32_t v, uint32_t *u)
{
	const struct fc_loc *l = &b->loc[v];

	*u = l->lid;
	return l->stamp == b->ps;
}

/*
 * Arc from top node @x (less the top layer's first) of the source's
 * up-cone to node @lv (a local id) of the down side, @dv links from t, of
 * cost @cost, its reverse at @r: the top node joins the network if it is
 * not in it yet, and its distance to t follows.
 */
static inline void meet_top(struct pb *b, uint8_t *top_net, uint32_t *top_lid,
			    uint32_t x, uint32_t lv, uint32_t garc, int32_t dv,
			    int32_t cost, uint32_t r)
{
	uint32_t lp;

	if (!top_net[x]) {
		top_net[x] = 1;
		lp = top_lid[x] = new_node(b, dv + cost);
	} else {
		lp = top_lid[x];
	}
	if (-(dv + cost) > b->pi[lp])
		b->pi[lp] = -(dv + cost);
	record(b, lv, garc, b->fe[lp]++, r);
}

/*
 * Node @v of the up side joins the network if any of its @nk arcs @kept
 * (local heads) do, and its first potential is minus its distance to t.
 */
static inline void up_node(struct pb *b, uint32_t v, const struct fc_adj *kept,
			   uint32_t nk)
{
	uint32_t lv, j, a;
	int32_t best = INT32_MIN, dv;

	if (!nk)
		return;
	lv = local(b, v, 0);
	a = b->fe[lv];
	for (j = 0; j < nk; j++) {
		record(b, kept[j].node, kept[j].arc, a + j,
		       b->re[kept[j].node]++);
		dv = b->pi[kept[j].node] - (kept[j].arc != DASHED);
		best = dv > best ? dv : best;
	}
	b->fe[lv] = a + nk;
	b->pi[lv] = best;
}

/*
 * Whether virtual node @v of rank @r is in the network, its local id in
 * *@u: a top node by the top layer's bytes, the others by their stamps.
 */
static bool in_pair(const struct fc_ctx *c, const struct fc_worker *w,
		    uint32_t v, uint32_t r, uint32_t *u)
{
	uint32_t x = v - (c->k - 1) * c->n;

	if (r == c->k - 1) {
		*u = w->top_lid[x];
		return w->top_net[x];
	}
	*u = w->loc[v].lid;
	return w->loc[v].stamp == w->pair_stamp;
}

/*
 * The solid arcs out of the nodes of switch @src and into those of @dst:
 * every arc between the nodes of one switch is dashed, so each set is a
 * cut between s and t.
 */
static uint32_t chain_cut(const struct fc_ctx *c, const struct fc_worker *w,
			  uint32_t src, uint32_t dst)
{
	uint32_t r, v, u, e, out = 0, in = 0;

	for (r = 0, v = src; r < c->vn; r++, v += c->n) {
		if (!in_pair(c, w, v, r, &u))
			continue;
		for (e = u << w->shift; e < w->fe[u]; e++)
			out += w->garc[e] != DASHED;
	}
	for (r = 0, v = dst; r < c->vn; r++, v += c->n) {
		if (!in_pair(c, w, v, r, &u))
			continue;
		for (e = (u << w->shift) + w->room_f; e < w->re[u]; e++)
			in += w->garc[w->rslot[e]] != DASHED;
	}
	return out < in ? out : in;
}

/*
 * Finds the nodes on some U(s,1) -> D(t,1) path and the arcs between them,
 * from the narrow sides of the top layer, and builds the residual network
 * on them as it goes:
 * 1. the down side, ranks 2k - 2 down to k: what reaches D(t,1), with its
 *    distance to t in links, the mirror of t's up-cone (the cache);
 * 2. the in-arcs of those rank-k nodes from top nodes of s's up-cone: the
 *    top nodes of the network, the rank-k nodes they reach;
 * 3. ranks k + 1 up: nodes of the down side with a predecessor kept;
 * 4. ranks k - 2 down to 0: nodes of s's up-cone with a successor kept.
 * Every arc of the network is met once, in step 2, 3 or 4, and goes into
 * the slots of its ends' local ids, which nodes get as they join.  Their
 * first potentials, minus the exact distance to t (the tight arcs lead to
 * t, so that a search along them does not wander), follow: from the cone
 * on the down side, as the least over the arcs kept on the top layer and the
 * up side, whose heads are all final by then.
 *
 * Return: the number of nodes, 0 if no path reaches t.
 */
static uint32_t prune(const struct fc_ctx *c, struct fc_worker *w,
		      uint32_t dst)
{
	uint32_t top = c->k - 1, rmax = 2 * c->k - 2, x;
	const uint8_t *top_up = w->top_up;
	uint8_t *top_net = w->top_net;
	uint32_t *top_lid = w->top_lid;
	struct pb b = {
		.loc = w->loc, .ps = next_pair_stamp(c, w),
		.shift = w->shift, .room_f = w->room_f, .fe = w->fe,
		.re = w->re, .rslot = w->rslot,
		.garc = w->garc, .arc = w->arc, .pi = w->pi, .dcc = CC(c->dcap, 0),
	};
	uint32_t r, i, e, v, lv, lp, nk, j, ci, ra;
	const struct fc_adj *ut = c->uarc;
	bool ok;
	struct fc_adj *kept = w->kept;
	const struct fc_cone *co;
	const uint32_t *coff;
	int32_t dv;

	w->nl = 0;
	memset(top_net, 0, c->n);
	/* 1. The down side: t's up-cone mirrored, co rank r its rmax - r. */
	co = c->cone;
	coff = c->cone_off + (size_t)dst * (c->k - 1);

	/*
	 * 2. The top nodes, and the rank-k nodes they reach: the arcs into
	 * each from the source's up-cone, gathered without a branch, then
	 * met.  A rank-k node's arcs from the top are the destination's
	 * arcs into the top in the mirror (fc_ctx.uarc), down arcs.
	 */
	for (i = coff[top - 1], e = c->utop_off[dst]; i < coff[top]; i++) {
		const uint32_t end = c->uarc_end[i];

		v = (top + 1) * c->n + co[i].sw;
		dv = co[i].dist;
		for (nk = 0; e < end; e++) {
			x = ut[e].node;
			kept[nk] = (struct fc_adj){
				x, ut[e].arc | 1 };
			nk += top_up[x];
		}
		if (!nk)
			continue;
		lv = local(&b, v, dv);
		ra = b.re[lv];
		for (j = 0; j < nk; j++)
			meet_top(&b, top_net, top_lid, kept[j].node, lv,
				 kept[j].arc, dv, kept[j].arc != DASHED, ra + j);
		b.re[lv] = ra + nk;
	}
	if (!b.nl)
		return 0;

	/*
	 * 3. Down to D(t,1): each node's arcs from the network, gathered;
	 * in the mirror, the arcs out of its twin in t's up-cone.
	 */
	for (r = top + 2; r <= rmax; r++) {
		i = coff[rmax - r];
		e = i == coff[0] ? c->uarc_off[dst] : c->uarc_end[i - 1];
		for (; i < coff[rmax - r + 1]; i++) {
			const uint32_t end = c->uarc_end[i];

			for (nk = 0; e < end; e++) {
				ok = in_net(&b, (r - 1) * c->n + ut[e].node,
					    &lp);
				kept[nk] = (struct fc_adj){ lp, ut[e].arc | 1 };
				nk += ok;
			}
			if (!nk)
				continue;
			lv = local(&b, r * c->n + co[i].sw, co[i].dist);
			ra = b.re[lv];
			for (j = 0; j < nk; j++)
				record(&b, lv, kept[j].arc,
				       b.fe[kept[j].node]++, ra + j);
			b.re[lv] = ra + nk;
		}
	}

	/*
	 * 4. Down from the top to U(s,1), within the up-cone; first rank
	 * k - 2, whose arcs into the top the bytes tell.
	 */
	r = top - 1;
	ci = c->cone_off[(size_t)w->src * (c->k - 1) + r];
	for (i = w->ub[r], e = c->utop_off[w->src]; i < w->ue[r]; i++) {
		const uint32_t end = c->uarc_end[ci++];

		for (nk = 0; e < end; e++) {
			x = ut[e].node;
			kept[nk] = (struct fc_adj){ top_lid[x], ut[e].arc };
			nk += top_net[x];
		}
		up_node(&b, w->ubuf[i], kept, nk);
	}
	while (r-- > 0) {
		ci = c->cone_off[(size_t)w->src * (c->k - 1) + r];
		e = r ? c->uarc_end[ci - 1] : c->uarc_off[w->src];
		for (i = w->ub[r]; i < w->ue[r]; i++) {
			const uint32_t end = c->uarc_end[ci++];

			for (nk = 0; e < end; e++) {
				ok = in_net(&b, (r + 1) * c->n + ut[e].node,
					    &lp);
				kept[nk] = (struct fc_adj){ lp, ut[e].arc };
				nk += ok;
			}
			up_node(&b, w->ubuf[i], kept, nk);
		}
	}
	if (!in_net(&b, rmax * c->n + dst, &w->lt) ||
	    !in_net(&b, w->src, &w->ls))
		return 0;
	memset(w->inflow, 0, b.nl * sizeof(*w->inflow));
	w->nl = b.nl;
	w->m = b.m;
	w->n_solid = b.n_solid;
	w->cut = chain_cut(c, w, w->src, dst);
	return b.nl;
}

/* search()'s bucket queue, in a local the compiler keeps in registers. */
struct fc_queue {
	uint64_t	*key, hi;
	uint32_t	*par, *bhead;
	struct fc_qent	*qe;
	uint32_t	nq, bmax, lim, lt;
};

/*
 * Node @to at reduced distance @d over arc @via (| PAR_REV for a reverse
 * one): pushed if that is better than its key.
 */
static inline void relax(struct fc_queue *q, uint32_t to, uint32_t d,
			 uint32_t via)
{
	uint64_t k = q->hi | d;

	if (k >= q->key[to])
		return;
	q->key[to] = k;
	q->par[to] = via;
	if (to == q->lt)
		q->lim = d;
	q->qe[q->nq] = (struct fc_qent){ to, q->bhead[d] };
	q->bhead[d] = q->nq++;
	if (d > q->bmax)
		q->bmax = d;
}

/*
 * Dijkstra on reduced costs from s, stopped when t is settled, with a
 * bucket queue: keys are small non-negative integers and never beyond
 * n_solid + 1 before t is settled (the distance to t is at most the number
 * of solid arcs, and the potentials of s and t differ by the last distance
 * to t, positive), so larger ones are dropped; and once t has a key, so are
 * keys not below it: such a node can neither lower t's key (that needs a
 * smaller one) nor change a potential (a node settled at t's distance moves
 * by 0), so t's path and the potentials are those of the full search.
 * Each bucket is a stack.
 * A node is pushed only when its distance improves, so an entry whose key
 * is not the node's distance is stale.  key[] holds the search's stamp,
 * inverted, above the distance: one compare tells a node seen by an older
 * search (any distance is better) from a better distance in this one.
 *
 * Return: the reduced distance to t, or -1 if t is out of reach.
 */
static int32_t search(struct fc_worker *w)
{
	/* In locals: stores to the arrays could alias the worker's fields. */
	const struct larc *arc = w->arc;
	const uint32_t *fe = w->fe, *re = w->re, *inflow = w->inflow;
	const uint32_t *rslot = w->rslot;
	uint32_t shift = w->shift, room_f = w->room_f, base;
	const int32_t *pi = w->pi;
	uint32_t *popped = w->popped;
	uint32_t st = ++w->search, n_popped = 0, u, e, h, end, b;
	int32_t d, pu, found = -1, dcap = w->dcap;
	bool overflow = false;
	struct fc_queue q = {
		.key = w->key, .par = w->par, .bhead = w->bhead, .qe = w->q,
		.lim = w->n_solid + 2, .lt = w->lt,
	};

	if (!st) {
		memset(q.key, 0xff, w->n_key * sizeof(uint64_t));
		st = w->search = 1;
	}
	q.hi = (uint64_t)~st << 32;
	q.key[w->ls] = q.hi;
	q.qe[q.nq] = (struct fc_qent){ w->ls, NONE };
	q.bhead[0] = q.nq++;
	for (b = 0; b <= q.bmax;) {
		h = q.bhead[b];
		if (h == NONE) {
			b++;
			continue;
		}
		q.bhead[b] = q.qe[h].next;
		u = q.qe[h].node;
		if (q.key[u] != (q.hi | b))
			continue;
		popped[n_popped++] = u;
		if (u == q.lt) {
			found = (int32_t)b;
			break;
		}
		pu = pi[u] + (int32_t)b;
		/* the forward arcs, then the reverse ones if any can carry */
		base = u << shift;
		for (e = base, end = fe[u]; e < end; e++) {
			const struct larc *a = &arc[e];

			if (a->cc < CC_UNIT)
				continue;
			d = pu + arc_cost(a) - pi[a->to];
			if ((uint32_t)d >= q.lim) {
				overflow |= d < 0;
				continue;
			}
			relax(&q, a->to, (uint32_t)d, e);
		}
		if (!inflow[u])
			continue;
		for (e = base + room_f, end = re[u]; e < end; e++) {
			const struct larc *a = &arc[rslot[e]];
			uint32_t to = rslot[e] >> shift;

			if (arc_flow(a, dcap) <= 0)
				continue;
			d = pu - arc_cost(a) - pi[to];
			if ((uint32_t)d >= q.lim) {
				overflow |= d < 0;
				continue;
			}
			relax(&q, to, (uint32_t)d, rslot[e] | PAR_REV);
		}
	}
	for (b = 0; b <= q.bmax; b++)
		q.bhead[b] = NONE;
	w->n_popped = n_popped;
	w->overflow |= overflow;
	return found;
}

/*
 * Pushes @bott units along the arcs of @path (forward arcs, and reverse
 * ones as their forward arc | PAR_REV), and counts the links.
 */
static void augment(struct fc_worker *w, const uint32_t *path, uint32_t n,
		    int32_t bott)
{
	int32_t links = 0, dir;
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct larc *a = &w->arc[path[i] & ~PAR_REV];

		/* +1 along a forward arc, -1 back along its reverse */
		dir = path[i] & PAR_REV ? -1 : 1;
		a->cc -= dir * bott * CC_UNIT;
		links += dir * arc_cost(a);
		w->inflow[a->to] += (uint32_t)(dir * bott);
	}
	w->solid += (int64_t)bott * links;
}

/* A fresh stamp for cur_st (cur[u] valid); on wrap-around, clears it. */
static uint32_t next_blocking_stamp(struct fc_worker *w)
{
	if (!++w->blocking) {
		memset(w->cur_st, 0, w->n_key * sizeof(uint32_t));
		w->blocking = 1;
	}
	return w->blocking;
}

/*
 * A blocking flow of tight forward arcs: every augmenting path of zero
 * reduced cost that uses no reverse arc, until each has a saturated arc.
 * Forward arcs climb the ranks, so their graph is acyclic and a DFS with
 * current-arc pointers (Dinic's, without levels) gives up on each arc at
 * most once: a dead end stays dead, as potentials are fixed and forward
 * capacities only shrink.  The paths are tight, so shortest ones: SSP's
 * invariant holds as if each came from a search.
 *
 * Return: the units pushed.
 */
static uint32_t forward_blocking(struct fc_worker *w)
{
	/* In locals: stores to the arrays could alias the worker's fields. */
	struct larc *arc = w->arc;
	const uint32_t *fe = w->fe;
	const int32_t *pi = w->pi;
	uint32_t *cur = w->cur, *cur_st = w->cur_st, *stack = w->stack;
	uint32_t ls = w->ls, lt = w->lt, shift = w->shift;
	uint32_t u = ls, depth = 0, flow = 0, st = next_blocking_stamp(w);
	uint32_t i, e, end;
	int32_t bott, pu;

	for (;;) {
		if (u == lt) {
			bott = INT32_MAX;
			for (i = 0; i < depth; i++)
				if (arc_cap(&arc[stack[i]]) < bott)
					bott = arc_cap(&arc[stack[i]]);
			augment(w, stack, depth, bott);
			flow += (uint32_t)bott;
			/* back to the tail of the first arc it saturated */
			for (i = 0; arc_cap(&arc[stack[i]]); i++)
				;
			depth = i;
			u = i ? arc[stack[i - 1]].to : ls;
			continue;
		}
		if (cur_st[u] != st) {
			cur_st[u] = st;
			cur[u] = u << shift;
		}
		end = fe[u];
		pu = pi[u];
		/* an arc with room whose reduced cost is 0 */
		for (e = cur[u]; e < end; e++)
			if (arc[e].cc >= CC_UNIT &&
			    pi[arc[e].to] == pu + arc_cost(&arc[e]))
				break;
		cur[u] = e;
		if (e < end) {
			stack[depth++] = e;
			u = arc[e].to;
			continue;
		}
		if (u == ls)
			return flow;
		/* a dead end: back to the arc's tail, past the arc */
		--depth;
		u = depth ? arc[stack[depth - 1]].to : ls;
		cur[u]++;
	}
}

/*
 * Min-cost max-flow on the local network by successive shortest paths:
 * the tight forward paths by a blocking flow (forward_blocking()), then
 * the exact search (search()), which finds the next shortest augmenting
 * path - one that needs a reverse arc, or a longer one - or proves the
 * flow maximum; and again.  The blocking flow is skipped after a search
 * that left the potentials as they were: measured, not proven, it then
 * never found a path on N = 1000, and correctness does not rest on it -
 * the next search finds any path it would have.  After a search that
 * reached t at reduced distance D > 0, the textbook pi += min(dist, D) keeps every reduced cost
 * non-negative and makes the path found tight; only differences of
 * potentials matter, so adding min(dist, D) - D instead touches only the
 * nodes settled below D.
 */
static uint32_t mcmf(struct fc_worker *w)
{
	uint32_t flow = 0, u, e, i, n;
	int32_t d = 1, bott, cap;
	const struct larc *a;

	w->solid = 0;
	for (;;) {
		if (d)
			flow += forward_blocking(w);
		if (flow >= w->cut)
			break;
		d = search(w);
		if (d < 0)
			break;
		for (i = 0; d && i < w->n_popped; i++) {
			u = w->popped[i];
			w->pi[u] += (int32_t)(uint32_t)w->key[u] - d;
		}
		bott = INT32_MAX;
		n = 0;
		for (u = w->lt; u != w->ls;) {
			e = w->par[u];
			w->stack[n++] = e;
			if (e & PAR_REV) {
				a = &w->arc[e & ~PAR_REV];
				cap = arc_flow(a, w->dcap);
				u = a->to;
			} else {
				cap = arc_cap(&w->arc[e]);
				u = e >> w->shift;
			}
			bott = cap < bott ? cap : bott;
		}
		augment(w, w->stack, n, bott);
		flow += (uint32_t)bott;
	}
	return flow;
}

/*
 * Whether no residual arc has a negative reduced cost: the flow is then of
 * min cost among flows of its value, and of max value as the last search
 * missed t or the flow fills a cut (chain_cut()).  Read pair by pair from the forward arcs: a reverse arc's
 * reduced cost is minus its forward arc's, so the forward arc must have
 * none below 0 if it has room and none above 0 if its reverse has.
 */
static bool optimal(const struct fc_worker *w)
{
	const struct larc *arc = w->arc;
	const uint32_t *fe = w->fe;
	const int32_t *pi = w->pi;
	uint32_t u, e, shift = w->shift, bad = w->overflow;
	int32_t red;

	for (u = 0; u < w->nl; u++)
		for (e = u << shift; e < fe[u]; e++) {
			red = arc_cost(&arc[e]) + pi[u] - pi[arc[e].to];
			bad |= (arc[e].cc >= CC_UNIT) & (red < 0);
			bad |= (arc_flow(&arc[e], w->dcap) > 0) & (red > 0);
		}
	return !bad;
}

static int internal(char *err, size_t errlen, uint32_t src, uint32_t dst,
		    const char *what)
{
	return sluice_i_errf(err, errlen, -EIO,
			     "fc: internal error on pair %u -> %u: %s",
			     src, dst, what);
}

/*
 * Algorithm 1: takes F paths out of the flow, each by a DFS that follows
 * arcs still carrying flow (the flow is acyclic and conserved: it never
 * backtracks), emits each as the links of its solid arcs, and checks that
 * the flow is conserved, that no path is longer than an up-down path can
 * be and that all of them together take the flow's links; if @certify too
 * (the pairs the certificate runs on, every pair in the tests), that each
 * is a walk from src to dst and that no solid arc is taken twice in the
 * pair: those read the graph's links and a stamp per solid arc, the
 * lines a pair misses most in the cache, some 4% of a pair.
 */
static int decompose(const struct fc_ctx *c, struct fc_worker *w,
		     uint32_t src, uint32_t dst, uint32_t flow,
		     uint64_t solid, bool certify, struct sluice_path_buf *b,
		     char *err, size_t errlen)
{
	uint32_t ps = w->pair_stamp, i, u, e, n, h, at, g, end;
	uint32_t st = next_blocking_stamp(w);
	uint64_t links = 0;
	int ret;

	for (i = 0; i < flow; i++) {
		for (u = w->ls, n = 0; u != w->lt; u = w->arc[e].to) {
			if (w->cur_st[u] != st) {
				w->cur_st[u] = st;
				w->cur[u] = u << w->shift;
			}
			end = w->fe[u];
			/* an arc with flow, which taking it consumes */
			for (e = w->cur[u]; e < end; e++)
				if (arc_flow(&w->arc[e], c->dcap) > 0)
					break;
			w->cur[u] = e;
			if (e == end)
				return internal(err, errlen, src, dst,
						"the flow is not conserved");
			w->arc[e].cc += CC_UNIT;
			g = w->garc[e];
			if (g == DASHED)
				continue;
			if (n == 2 * c->k - 2)
				return internal(err, errlen, src, dst,
						"a path longer than up-down");
			w->hops[n++] = g / 2;
			if (!certify)
				continue;
			if (w->used[g] == ps)
				return internal(err, errlen, src, dst,
						"a solid arc twice");
			w->used[g] = ps;
		}
		for (h = 0, at = src; certify && h < n; h++) {
			const struct sluice_link *l = &c->g->links[w->hops[h]];

			if (l->a != at && l->b != at)
				break;
			at = l->a == at ? l->b : l->a;
		}
		if (!n || (certify && (h < n || at != dst)))
			return internal(err, errlen, src, dst,
					"a path is not a walk to it");
		links += n;
		ret = sluice_path_buf_add(b, w->hops, n, 0);
		if (ret)
			return sluice_i_errf(err, errlen, ret,
					     "fc: pair %u -> %u: out of memory",
					     src, dst);
	}
	if (links != solid)
		return internal(err, errlen, src, dst,
				"the paths are not the flow");
	return 0;
}

/*
 * One pair: prune, build, solve, and the certificate if @certify.  @flow
 * and @solid 0 if t is out of reach.  -EIO if the flow fails its
 * optimality check (a bug).
 */
static int solve_pair(const struct fc_ctx *c, struct fc_worker *w,
		      uint32_t dst, bool certify, uint32_t *flow,
		      uint64_t *solid)
{
	uint32_t nl = prune(c, w, dst);

	*flow = 0;
	*solid = 0;
	if (!nl)
		return 0;
	w->overflow = false;
	*flow = mcmf(w);
	*solid = w->solid;
	return !certify || optimal(w) ? 0 : -EIO;
}

/**
 * fc_source() - the edge-disjoint virtual up-down paths from one source
 * @ctx:	the context from fc_prepare()
 * @worker:	this thread's worker
 * @dsts:	destinations, increasing, without the source
 * @n_dsts:	how many
 * @b:		the source's buffer: paths are appended to it
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * For each destination, the min-cost max-flow of Appendix A.1 from
 * U(src,1) to D(dst,1), decomposed by Algorithm 1 and contracted to the
 * links of its solid arcs, all on lane 0.  A destination out of reach gets
 * no path.  The certificate (optimal, edge-disjoint, walks) runs on the
 * first destination and every FC_CERTIFY_EVERY-th after it
 * (sluice_i_fc_certify_every()); the decomposition's other checks
 * (conserved, no longer than up-down, as many links as the flow) on every
 * one.
 *
 * Return: 0, -EINVAL (a bad destination), -ENOMEM, or -EIO if a result
 * fails its checks (a bug).  Time: O(m) for the source's up-cone, then per
 * destination O(F (n' + m')) on a local network of n' nodes and m' arcs
 * (at most F + 1 searches and blocking flows; F is at most the source's
 * degree).
 */
static int fc_source(void *ctx, void *worker, const uint32_t *dsts,
		     uint32_t n_dsts, struct sluice_path_buf *b,
		     char *err, size_t errlen)
{
	const struct fc_ctx *c = ctx;
	struct fc_worker *w = worker;
	uint32_t src = b->src, i, dst, flow;
	uint64_t solid;
	bool certify;
	int ret;

	if (src >= c->g->n_nodes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: source %u does not exist", src);
	up_cone(c, w, src);
	for (i = 0; i < n_dsts; i++) {
		dst = dsts[i];
		if (dst >= c->g->n_nodes || dst == src)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "fc: bad destination %u for source %u",
					     dst, src);
		ret = sluice_path_buf_pair(b, dst);
		if (ret)
			return sluice_i_errf(err, errlen, ret,
					     "fc: destination %u of source %u: out of order or out of memory",
					     dst, src);
		certify = !(i % c->certify);
		if (solve_pair(c, w, dst, certify, &flow, &solid))
			return internal(err, errlen, src, dst,
					"the flow is not optimal");
		if (flow) {
			ret = decompose(c, w, src, dst, flow, solid, certify,
					b, err, errlen);
			if (ret)
				return ret;
		}
	}
	return 0;
}

const struct sluice_algo_ops sluice_algo_fc = {
	.prepare	= fc_prepare,
	.worker_init	= fc_worker_init,
	.source		= fc_source,
	.worker_free	= fc_worker_free,
	.release	= fc_release,
};

/**
 * sluice_i_fc_certify_every() - how often source() checks optimality
 * @ctx:	from sluice_algo_fc.prepare()
 * @every:	1 for every pair (the tests), n for a source's destinations
 *		0, n, 2n, ...; FC_CERTIFY_EVERY by default
 */
void sluice_i_fc_certify_every(void *ctx, uint32_t every)
{
	struct fc_ctx *c = ctx;

	c->certify = every ? every : 1;
}

/**
 * sluice_i_fc_build() - the local flow network of one pair
 * @ctx:	from sluice_algo_fc.prepare()
 * @worker:	from sluice_algo_fc.worker_init()
 * @src:	source switch
 * @dst:	destination switch, not @src
 *
 * Computes @src's up-cone first unless the worker holds it already.
 *
 * Return: the number of local nodes, 0 if @dst is out of reach, or
 * -EINVAL.  Time: as fc_source() for one pair, without the solve.
 */
int sluice_i_fc_build(void *ctx, void *worker, uint32_t src, uint32_t dst)
{
	const struct fc_ctx *c = ctx;
	struct fc_worker *w = worker;
	uint32_t nl;

	if (src >= c->g->n_nodes || dst >= c->g->n_nodes || src == dst)
		return -EINVAL;
	if (!w->has_src || w->src != src)
		up_cone(c, w, src);
	nl = prune(c, w, dst);
	if (!nl)
		w->nl = 0;
	return (int)nl;
}

/* Nodes and forward arcs of the network sluice_i_fc_build() built. */
void sluice_i_fc_net_size(const void *worker, uint32_t *n_nodes,
			  uint32_t *n_arcs)
{
	const struct fc_worker *w = worker;

	*n_nodes = w->nl;
	*n_arcs = w->nl ? w->m : 0;
}

/**
 * sluice_i_fc_net_export() - the network sluice_i_fc_build() built
 * @ctx:	from sluice_algo_fc.prepare()
 * @worker:	the worker that built it
 * @lexicographic: costs M and 1 (the paper's, made exact), or 1 and 0
 * @tail:	room for the forward arcs (sluice_i_fc_net_size())
 * @head:	likewise
 * @cap:	likewise: 1 on solid arcs, more than any flow on dashed ones
 * @cost:	likewise
 * @s:		set to the local id of U(src,1)
 * @t:		set to the local id of D(dst,1)
 *
 * As built, before any solve.  Time: O(n' + m').
 */
void sluice_i_fc_net_export(const void *ctx, const void *worker,
			    bool lexicographic, uint32_t *tail,
			    uint32_t *head, int32_t *cap, int64_t *cost,
			    uint32_t *s, uint32_t *t)
{
	const struct fc_ctx *c = ctx;
	const struct fc_worker *w = worker;
	uint32_t u, e, m = 0;

	for (u = 0; u < w->nl; u++)
		for (e = u << w->shift; e < w->fe[u]; e++) {
			const struct larc *a = &w->arc[e];

			tail[m] = u;
			head[m] = a->to;
			cap[m] = arc_cap(a) + arc_flow(a, w->dcap);
			if (lexicographic)
				cost[m++] = w->garc[e] == DASHED ? 1 : c->m;
			else
				cost[m++] = arc_cost(a);
		}
	*s = w->ls;
	*t = w->lt;
}

/**
 * sluice_i_fc_solve() - min-cost max-flow on the network last built
 * @ctx:	from sluice_algo_fc.prepare()
 * @worker:	the worker that built it
 * @res:	set to F, the cost in M and 1, the links
 *
 * The solve alone; sluice_i_fc_check() then checks it.  Time: O(F (n' +
 * m')).
 */
void sluice_i_fc_solve(const void *ctx, void *worker,
		       struct sluice_i_fc_result *res)
{
	const struct fc_ctx *c = ctx;
	struct fc_worker *w = worker;

	memset(res, 0, sizeof(*res));
	if (!w->nl)
		return;
	w->overflow = false;
	res->flow = mcmf(w);
	res->solid = w->solid;
	/* the dashed arcs: (2k - 2) F - links (the ranks) */
	res->cost = (int64_t)res->solid * (c->m - 1) +
		    (int64_t)(2 * c->k - 2) * res->flow;
}

/*
 * Whether the flow sluice_i_fc_solve() found is of min cost (no residual
 * arc of negative reduced cost) and max value (its last search missed t,
 * or it fills a cut).
 */
bool sluice_i_fc_check(const void *worker)
{
	const struct fc_worker *w = worker;

	return !w->nl || optimal(w);
}

/**
 * sluice_i_fc_full_net() - the whole directed virtual up-down graph
 * @ctx:	from sluice_algo_fc.prepare()
 * @tail:	NULL to count only, or room for every arc
 * @head:	likewise
 * @cap:	likewise: 1 on solid arcs, 2 m + 1 (more than any flow) on
 *		dashed ones
 * @cost:	likewise: M and 1
 *
 * Virtual node U(i,j) is (j - 1) N + i, D(i,j) is (2k - 1 - j) N + i, for
 * N switches.  Time: O(N k + m).
 *
 * Return: the number of arcs.
 */
uint32_t sluice_i_fc_full_net(const void *ctx, uint32_t *tail,
			      uint32_t *head, int32_t *cap, int64_t *cost)
{
	const struct fc_ctx *c = ctx;
	uint32_t v, e, m = 0;

	for (v = 0; v < c->n_virt; v++) {
		if (v < c->n_virt - c->n) {
			if (tail) {
				tail[m] = v;
				head[m] = v + c->n;
				cap[m] = (int32_t)(2 * c->g->n_links + 1);
				cost[m] = 1;
			}
			m++;
		}
		for (e = c->out_off[v]; e < c->out_off[v + 1]; e++) {
			if (tail) {
				tail[m] = v;
				head[m] = c->out[e].node;
				cap[m] = 1;
				cost[m] = c->m;
			}
			m++;
		}
	}
	return m;
}

/* The virtual node of U(@u,1) and of D(@u,1) in sluice_i_fc_full_net(). */
void sluice_i_fc_full_ends(const void *ctx, uint32_t src, uint32_t dst,
			   uint32_t *s, uint32_t *t)
{
	const struct fc_ctx *c = ctx;

	*s = src;
	*t = (c->vn - 1) * c->n + dst;
}
