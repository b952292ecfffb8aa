// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * EDST routing (TCP-Bolt, Section III-B): pack the fabric into the largest
 * possible number T of edge-disjoint spanning trees and route every pair
 * once in each tree, over the tree's unique path.  Paths that stay in one
 * tree never depend on links of another, and a tree has no cycle to close,
 * so the route set is free of cyclic buffer dependencies.  With several
 * lanes, each lane gets a tree set of its own, computed from an edge order
 * of its own: the sets differ, and lanes keep them apart in the buffers.
 *
 * How many trees.  T is computed exactly, by matroid partitioning
 * (Edmonds; Knuth 1973; Roskind and Tarjan 1985): the links are divided
 * among k forests by augmenting paths, and k spanning trees exist iff the
 * largest union of k forests has k(n - 1) links.  The forests are added one
 * at a time: forest k is first filled greedily (Kruskal over the links no
 * forest holds, in the lane's order), then each remaining link is offered
 * to the union by an augmenting search.  A search from link e0 labels, in
 * breadth-first order, the links a newly inserted link would push out of a
 * forest: scanning a labelled link x against forest F (x not in F), x's
 * ends either lie in different trees of F - then x goes into F and the
 * labels are followed back, each link moving into the forest its labeller
 * left - or they are joined by a path of F, whose unlabelled links get
 * label x.  Breadth-first labelling gives a shortest augmenting path, which
 * has no shortcut, so every forest stays a forest (the standard exchange
 * argument for matroid union).  Links already labelled are skipped with a
 * per-forest union-find that jumps over them toward the root, so that a
 * path costs only its new labels.  A failed search leaves its labels in
 * place until the next augmentation: what it reached is closed (no
 * augmenting path leaves it), so later searches may treat it as visited.
 * A forest that stays short of n - 1 links once every remaining link has
 * been offered proves that k trees do not fit: T = k - 1.  Augmentations
 * never shrink a forest, so the first T forests are the T trees.
 *
 * Upper bounds end the rounds early: T <= m / (n - 1) and T <= the least
 * degree.  On an r-regular graph with n > r + 1 nodes, m / (n - 1) <
 * floor(r / 2) + 1, and an r-edge-connected one has floor(r / 2) trees
 * (Nash-Williams, Tutte: 2k-edge-connected graphs have k), so T is exactly
 * floor(r / 2) and found without a failing round.  (K_{r+1} with r odd
 * has (r + 1) / 2: K_4 has 2.)
 *
 * Time: a round is Kruskal (O(m a(n))) and at most one search per link; a
 * search scans each labelled link against the k forests, O(k) each, labels
 * each link at most once, and an augmentation re-roots the forests it
 * touched, O(n) each.  At most T (n - 1) searches succeed, and the failed
 * ones between two successes share their labels, so the worst case is
 * O(T^2 n (m + n)).  In practice Kruskal places almost everything: N =
 * 1000, s = 40 needs about 1800 short searches (0.03 to 0.1 s).  Memory
 * O(k n + m).
 *
 * edst-shallow.  FC (Section 4) blames EDST's long paths on tall trees:
 * nothing in the partition above keeps trees low.  edst-shallow computes
 * the same T and keeps the same guarantees (exactly T = the maximum,
 * pairwise edge-disjoint, spanning) but aims at short tree paths; how
 * short is a heuristic, measured by the sum over trees of the Wiener index
 * (the sum of tree distances over all node pairs, so the mean path length
 * over pairs and trees up to a constant factor):
 *   1. grow: the T trees grow breadth-first from T distinct roots of high
 *	degree, in turns (one node expanded per tree per turn).  Expanding
 *	node v in tree t claims free links to nodes not yet in t, but leaves
 *	v one free link for each tree v is not yet in: a node expanded early
 *	becomes a hub of one tree and a leaf of the others, as in independent
 *	spanning trees, which is what keeps trees low when the links are all
 *	spoken for (T = r / 2 uses all but r / 2 links of an r-regular graph);
 *	among candidates, nodes with the most spare links come first;
 *   2. repair: the grown forests are a valid start for matroid
 *	partitioning; augmenting searches as above complete them to T
 *	spanning trees, which always succeeds since T is the maximum;
 *   3. improve: local search over link exchanges.  Tree i may take any
 *	link e it lacks if it gives up a link f of the cycle e closes in i,
 *	and f goes where e came from: unused, or tree j, provided f
 *	reconnects j without e.  The change of the Wiener index of either
 *	tree has a closed form (removing f cuts subtree S off the rest R;
 *	W changes by |R|(D_S(a) - D_S(x)) + |S|(D_R(b) - D_R(p(x))), with
 *	D the sums of distances, kept per node), so all exchanges of e into
 *	i cost O(height) each.  Each (tree, link) pair takes its best
 *	exchange if it lowers the total; passes repeat until none does (at
 *	most LS_PASSES; about ten in practice).
 * The total Wiener index strictly decreases, so the search ends; both
 * trees of an exchange stay spanning trees, so the count stays T.  Steps
 * 2 and 3 alone (from the plain trees) end up about as short; growing
 * first halves the local search's work.  Measured (N = 500, s = 18, T = 9,
 * mean over pairs and trees): 21.2 links with edst, 6.0 with edst-shallow,
 * the fabric's mean distance being 2.5.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/rng.h>
#include "graph/internal.h"
#include "route/algo.h"
#include "route/edst.h"

#define NIL		UINT32_MAX
#define LS_PASSES	64
/* Wiener index terms reach n^3: keep them in 63 bits. */
#define LS_NODES_MAX	(1u << 20)

/*
 * Links divided among k forests.  Each forest keeps its own adjacency
 * lists (half-link 2l is link l at its end a, 2l + 1 at its end b) and a
 * rooted view rebuilt after every change: parent, parent link, depth, the
 * tree (its root), subtree size and preorder number.
 */
struct part {
	const struct sluice_graph *g;
	uint32_t	n, m;
	uint32_t	kmax;		/* forests allocated */
	uint32_t	k;		/* forests in use */
	uint32_t	*fo;		/* m: each link's forest, NIL if none */
	uint32_t	*fsize;		/* kmax: links in each forest */
	bool		*dirty;		/* kmax: rooted view out of date */
	uint32_t	*head;		/* kmax * n: first half-link at a node */
	uint32_t	*hnext, *hprev;	/* 2m */
	uint32_t	*par, *pedge, *depth, *comp, *size, *tin; /* kmax * n */
	/* The augmenting search. */
	uint32_t	*from;		/* m: the link whose scan labelled it */
	uint32_t	*seen;		/* m: == stamp if labelled */
	uint32_t	stamp;
	uint32_t	*skip;		/* kmax * n: over labelled parent links */
	uint32_t	*touched;	/* kmax * n: the skip entries set */
	size_t		n_touched;
	uint32_t	*queue;		/* m */
	uint32_t	*it, *stack;	/* n: part_root()'s DFS */
};

static void part_free(struct part *p)
{
	free(p->fo);
	free(p->fsize);
	free(p->dirty);
	free(p->head);
	free(p->hnext);
	free(p->hprev);
	free(p->par);
	free(p->pedge);
	free(p->depth);
	free(p->comp);
	free(p->size);
	free(p->tin);
	free(p->from);
	free(p->seen);
	free(p->skip);
	free(p->touched);
	free(p->queue);
	free(p->it);
	free(p->stack);
	memset(p, 0, sizeof(*p));
}

/* Room for up to @kmax forests of @g's links.  Time: O(kmax n + m). */
static int part_init(struct part *p, const struct sluice_graph *g,
		     uint32_t kmax)
{
	size_t kn = (size_t)kmax * g->n_nodes, i;
	uint32_t m = g->n_links;

	memset(p, 0, sizeof(*p));
	p->g = g;
	p->n = g->n_nodes;
	p->m = m;
	p->kmax = kmax;
	p->fo = sluice_i_calloc(m, sizeof(*p->fo));
	p->fsize = sluice_i_calloc(kmax, sizeof(*p->fsize));
	p->dirty = sluice_i_calloc(kmax, sizeof(*p->dirty));
	p->head = sluice_i_calloc(kn, sizeof(*p->head));
	p->hnext = sluice_i_calloc(2 * (size_t)m, sizeof(*p->hnext));
	p->hprev = sluice_i_calloc(2 * (size_t)m, sizeof(*p->hprev));
	p->par = sluice_i_calloc(kn, sizeof(*p->par));
	p->pedge = sluice_i_calloc(kn, sizeof(*p->pedge));
	p->depth = sluice_i_calloc(kn, sizeof(*p->depth));
	p->comp = sluice_i_calloc(kn, sizeof(*p->comp));
	p->size = sluice_i_calloc(kn, sizeof(*p->size));
	p->tin = sluice_i_calloc(kn, sizeof(*p->tin));
	p->from = sluice_i_calloc(m, sizeof(*p->from));
	p->seen = sluice_i_calloc(m, sizeof(*p->seen));
	p->skip = sluice_i_calloc(kn, sizeof(*p->skip));
	p->touched = sluice_i_calloc(kn, sizeof(*p->touched));
	p->queue = sluice_i_calloc(m, sizeof(*p->queue));
	p->it = sluice_i_calloc(p->n, sizeof(*p->it));
	p->stack = sluice_i_calloc(p->n, sizeof(*p->stack));
	if (!p->fo || !p->fsize || !p->dirty || !p->head || !p->hnext ||
	    !p->hprev || !p->par || !p->pedge || !p->depth || !p->comp ||
	    !p->size || !p->tin || !p->from || !p->seen || !p->skip ||
	    !p->touched || !p->queue || !p->it || !p->stack) {
		part_free(p);
		return -ENOMEM;
	}
	for (i = 0; i < m; i++)
		p->fo[i] = NIL;
	for (i = 0; i < kn; i++) {
		p->head[i] = NIL;
		p->skip[i] = NIL;
	}
	p->stamp = 1;
	return 0;
}

/* The node half-link @h leads to. */
static inline uint32_t half_peer(const struct part *p, uint32_t h)
{
	const struct sluice_link *l = &p->g->links[h >> 1];

	return h & 1 ? l->a : l->b;
}

static inline uint32_t half_node(const struct part *p, uint32_t h)
{
	const struct sluice_link *l = &p->g->links[h >> 1];

	return h & 1 ? l->b : l->a;
}

/* Puts unassigned link @l into forest @f.  Time: O(1). */
static void part_link(struct part *p, uint32_t l, uint32_t f)
{
	size_t base = (size_t)f * p->n;
	uint32_t h, *hd;

	for (h = 2 * l; h <= 2 * l + 1; h++) {
		hd = &p->head[base + half_node(p, h)];
		p->hprev[h] = NIL;
		p->hnext[h] = *hd;
		if (*hd != NIL)
			p->hprev[*hd] = h;
		*hd = h;
	}
	p->fo[l] = f;
	p->fsize[f]++;
	p->dirty[f] = true;
}

/* Takes link @l out of its forest.  Time: O(1). */
static void part_unlink(struct part *p, uint32_t l)
{
	uint32_t f = p->fo[l], h;
	size_t base = (size_t)f * p->n;

	for (h = 2 * l; h <= 2 * l + 1; h++) {
		if (p->hprev[h] == NIL)
			p->head[base + half_node(p, h)] = p->hnext[h];
		else
			p->hnext[p->hprev[h]] = p->hnext[h];
		if (p->hnext[h] != NIL)
			p->hprev[p->hnext[h]] = p->hprev[h];
	}
	p->fo[l] = NIL;
	p->fsize[f]--;
	p->dirty[f] = true;
}

/*
 * Rebuilds forest @f's rooted view: each tree rooted at its smallest node,
 * preorder numbers from a depth-first walk.  Time: O(n).
 */
static void part_root(struct part *p, uint32_t f)
{
	size_t base = (size_t)f * p->n;
	uint32_t *head = p->head + base, *par = p->par + base;
	uint32_t *pedge = p->pedge + base, *depth = p->depth + base;
	uint32_t *comp = p->comp + base, *size = p->size + base;
	uint32_t *tin = p->tin + base;
	uint32_t s, v, w, h, top, t = 0;

	for (v = 0; v < p->n; v++)
		comp[v] = NIL;
	for (s = 0; s < p->n; s++) {
		if (comp[s] != NIL)
			continue;
		comp[s] = s;
		par[s] = NIL;
		pedge[s] = NIL;
		depth[s] = 0;
		size[s] = 1;
		tin[s] = t++;
		p->it[s] = head[s];
		p->stack[0] = s;
		top = 1;
		while (top) {
			v = p->stack[top - 1];
			h = p->it[v];
			if (h == NIL) {
				top--;
				if (par[v] != NIL)
					size[par[v]] += size[v];
				continue;
			}
			p->it[v] = p->hnext[h];
			if (h >> 1 == pedge[v])
				continue;
			w = half_peer(p, h);
			comp[w] = s;
			par[w] = v;
			pedge[w] = h >> 1;
			depth[w] = depth[v] + 1;
			size[w] = 1;
			tin[w] = t++;
			p->it[w] = head[w];
			p->stack[top++] = w;
		}
	}
	p->dirty[f] = false;
}

static void part_root_dirty(struct part *p)
{
	uint32_t f;

	for (f = 0; f < p->k; f++)
		if (p->dirty[f])
			part_root(p, f);
}

/* Forgets all labels: after an augmentation, or with new forests. */
static void search_reset(struct part *p)
{
	size_t i;

	for (i = 0; i < p->n_touched; i++)
		p->skip[p->touched[i]] = NIL;
	p->n_touched = 0;
	if (++p->stamp == 0) {
		memset(p->seen, 0, (size_t)p->m * sizeof(*p->seen));
		p->stamp = 1;
	}
}

/* Empties every forest.  Time: O(m + kmax n). */
static void part_clear(struct part *p)
{
	uint32_t l;

	for (l = 0; l < p->m; l++)
		if (p->fo[l] != NIL)
			part_unlink(p, l);
	for (l = 0; l < p->kmax; l++)
		p->dirty[l] = true;	/* stale views: re-root when used */
	p->k = 0;
	search_reset(p);
}

/* The nearest ancestor-or-self of @v whose parent link is unlabelled. */
static uint32_t skip_find(uint32_t *sk, uint32_t v)
{
	while (sk[v] != NIL) {
		if (sk[sk[v]] != NIL)
			sk[v] = sk[sk[v]];
		v = sk[v];
	}
	return v;
}

/*
 * Labels with @x the unlabelled links of forest @f's path between @u and
 * @v (one tree), queueing them.  The labelled links of @f are skipped by
 * skip_find(): climbing from the deeper end, the walk meets the other one
 * at the lowest common ancestor or above it, and only above it over
 * labelled links, so exactly the path's unlabelled links are labelled.
 * Time: O(labels added) amortized, with path halving.
 */
static void label_path(struct part *p, uint32_t f, uint32_t x, uint32_t u,
		       uint32_t v, uint32_t *tail)
{
	size_t base = (size_t)f * p->n;
	uint32_t *sk = p->skip + base, *depth = p->depth + base;
	uint32_t *par = p->par + base, *pedge = p->pedge + base;
	uint32_t y, t;

	u = skip_find(sk, u);
	v = skip_find(sk, v);
	while (u != v) {
		if (depth[u] < depth[v]) {
			t = u;
			u = v;
			v = t;
		}
		y = pedge[u];
		p->seen[y] = p->stamp;
		p->from[y] = x;
		p->queue[(*tail)++] = y;
		sk[u] = par[u];
		p->touched[p->n_touched++] = base + u;
		u = skip_find(sk, par[u]);
	}
}

/*
 * Moves link @x into forest @f, and back along the labels each link into
 * the forest its successor left; re-roots what changed.  Time: O(path +
 * n per forest touched).
 */
static void part_augment(struct part *p, uint32_t x, uint32_t f)
{
	uint32_t old;

	for (;;) {
		old = p->fo[x];
		if (old != NIL)
			part_unlink(p, x);
		part_link(p, x, f);
		if (p->from[x] == NIL)
			break;
		f = old;
		x = p->from[x];
	}
	part_root_dirty(p);
	search_reset(p);
}

/*
 * Offers unassigned link @e0 to the union of the k forests: a breadth-first
 * augmenting search.  Return: true if @e0 (and an augmenting path) went
 * in; false if no augmenting path exists, the labels then stay (see the
 * top of the file).  Time: O(k * links labelled + n per forest changed).
 */
static bool part_search(struct part *p, uint32_t e0)
{
	const struct sluice_link *links = p->g->links;
	uint32_t head = 0, tail = 0, x, f, fx;
	size_t a, b;

	p->seen[e0] = p->stamp;
	p->from[e0] = NIL;
	p->queue[tail++] = e0;
	while (head < tail) {
		x = p->queue[head++];
		fx = p->fo[x];
		a = links[x].a;
		b = links[x].b;
		for (f = 0; f < p->k; f++)
			if (f != fx && p->comp[f * (size_t)p->n + a] !=
				       p->comp[f * (size_t)p->n + b]) {
				part_augment(p, x, f);
				return true;
			}
		for (f = 0; f < p->k; f++)
			if (f != fx)
				label_path(p, f, x, a, b, &tail);
	}
	return false;
}

static uint32_t uf_find(uint32_t *uf, uint32_t v)
{
	while (uf[v] != v) {
		uf[v] = uf[uf[v]];
		v = uf[v];
	}
	return v;
}

/*
 * The maximum number of edge-disjoint spanning trees, at most @upper:
 * forests are added one by one while they fill up (see the top of the
 * file).  On return forests 0..T-1 of @p are the trees, rooted.
 * @order is a permutation of the links, @uf and @rest scratch of n and m.
 * Return: T.
 */
static uint32_t part_max_trees(struct part *p, const uint32_t *order,
			       uint32_t upper, uint32_t *uf, uint32_t *rest)
{
	const struct sluice_link *links = p->g->links;
	uint32_t nr = p->m, i, j, f, l, ra, rb, need, v;

	part_clear(p);
	memcpy(rest, order, (size_t)p->m * sizeof(*rest));
	while (p->k < upper) {
		f = p->k++;
		search_reset(p);
		for (v = 0; v < p->n; v++)
			uf[v] = v;
		for (i = j = 0; i < nr; i++) {
			l = rest[i];
			ra = uf_find(uf, links[l].a);
			rb = uf_find(uf, links[l].b);
			if (ra != rb) {
				uf[ra] = rb;
				part_link(p, l, f);
			} else {
				rest[j++] = l;
			}
		}
		nr = j;
		part_root(p, f);
		need = p->n - 1 - p->fsize[f];
		for (i = j = 0; need && i < nr && nr - i >= need; i++) {
			if (part_search(p, rest[i]))
				need--;
			else
				rest[j++] = rest[i];
		}
		while (i < nr)
			rest[j++] = rest[i++];
		nr = j;
		if (need) {
			for (l = 0; l < p->m; l++)
				if (p->fo[l] == f)
					part_unlink(p, l);
			p->k--;
			break;
		}
	}
	search_reset(p);
	return p->k;
}

/*
 * Completes the k forests of @p to spanning trees by augmenting searches
 * over the unassigned links in @order.  Return: 0, or -EIO if they do not
 * fit (k above the maximum).
 */
static int part_fill(struct part *p, const uint32_t *order)
{
	uint64_t need = (uint64_t)p->k * (p->n - 1);
	uint32_t f, i;

	for (f = 0; f < p->k; f++)
		need -= p->fsize[f];
	part_root_dirty(p);
	search_reset(p);
	for (i = 0; need && i < p->m; i++)
		if (p->fo[order[i]] == NIL && part_search(p, order[i]))
			need--;
	search_reset(p);
	return need ? -EIO : 0;
}

/* ---- edst-shallow ---- */

struct cand {
	uint64_t	key;
	uint32_t	link;
};

static int cand_cmp(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->link < b->link ? -1 : a->link > b->link;
}

/*
 * Step 1 of edst-shallow: grows the k forests of @p (empty) breadth-first
 * from k roots, in turns, as the top of the file explains.  @rank is a
 * seeded permutation of the nodes that breaks ties.  Return: 0 or -ENOMEM.
 * Time: O(k m log d).
 */
static int shallow_grow(struct part *p, const uint32_t *rank)
{
	const struct sluice_graph *g = p->g;
	uint32_t n = p->n, k = p->k, t, v, w, i, nc, budget, c, l;
	uint32_t *free_ = sluice_i_calloc(n, sizeof(*free_));
	uint32_t *miss = sluice_i_calloc(n, sizeof(*miss));
	uint32_t *mark = sluice_i_calloc(n, sizeof(*mark));
	uint32_t *q = sluice_i_calloc((size_t)k * n, sizeof(*q));
	uint32_t *qh = sluice_i_calloc(k, sizeof(*qh));
	uint32_t *qt = sluice_i_calloc(k, sizeof(*qt));
	uint8_t *in = sluice_i_calloc((size_t)k * n, sizeof(*in));
	struct cand *cd = sluice_i_calloc(n, sizeof(*cd));
	struct cand *byd = sluice_i_calloc(n, sizeof(*byd));
	uint32_t stamp = 0, dmax = 0;
	bool active;
	int ret = -ENOMEM;

	if (!free_ || !miss || !mark || !q || !qh || !qt || !in || !cd ||
	    !byd)
		goto out;
	for (v = 0; v < n; v++) {
		free_[v] = sluice_graph_degree(g, v);
		miss[v] = k;
		if (free_[v] > dmax)
			dmax = free_[v];
	}
	/* Roots: the highest degrees, ties by rank. */
	for (v = 0; v < n; v++) {
		byd[v].key = (uint64_t)(dmax - free_[v]) << 32 | rank[v];
		byd[v].link = v;
	}
	qsort(byd, n, sizeof(*byd), cand_cmp);
	for (t = 0; t < k; t++) {
		v = byd[t % n].link;
		in[(size_t)t * n + v] = 1;
		miss[v]--;
		q[(size_t)t * n + qt[t]++] = v;
	}
	do {
		active = false;
		for (t = 0; t < k; t++) {
			if (qh[t] == qt[t])
				continue;
			active = true;
			v = q[(size_t)t * n + qh[t]++];
			budget = free_[v] - miss[v];
			if (!budget)
				continue;
			stamp++;
			nc = 0;
			for (i = g->off[v]; i < g->off[v + 1]; i++) {
				l = g->adj[i].link;
				w = g->adj[i].peer;
				if (p->fo[l] != NIL || in[(size_t)t * n + w] ||
				    mark[w] == stamp)
					continue;
				mark[w] = stamp;
				/* most spare links first, then rank */
				cd[nc].key = (uint64_t)(UINT32_MAX -
					(free_[w] - miss[w])) << 32 | rank[w];
				cd[nc++].link = l;
			}
			qsort(cd, nc, sizeof(*cd), cand_cmp);
			for (c = 0; c < nc && c < budget; c++) {
				l = cd[c].link;
				w = g->links[l].a == v ? g->links[l].b :
							 g->links[l].a;
				part_link(p, l, t);
				in[(size_t)t * n + w] = 1;
				free_[v]--;
				free_[w]--;
				miss[w]--;
				q[(size_t)t * n + qt[t]++] = w;
			}
		}
	} while (active);
	ret = 0;
out:
	free(free_);
	free(miss);
	free(mark);
	free(q);
	free(qh);
	free(qt);
	free(in);
	free(cd);
	free(byd);
	return ret;
}

/* The local search's view: sums of distances per node, per tree. */
struct ls {
	struct part	*p;
	int64_t		*dsum;	/* k * n */
	uint32_t	*pre;	/* n: scratch */
};

/* Sums of tree distances from every node of spanning tree @f.  O(n). */
static void ls_dsum(struct ls *s, uint32_t f)
{
	struct part *p = s->p;
	size_t base = (size_t)f * p->n;
	const uint32_t *par = p->par + base, *depth = p->depth + base;
	const uint32_t *size = p->size + base, *tin = p->tin + base;
	int64_t *d = s->dsum + base, root = 0;
	uint32_t v, i;

	for (v = 0; v < p->n; v++) {
		s->pre[tin[v]] = v;
		root += depth[v];
	}
	d[s->pre[0]] = root;
	for (i = 1; i < p->n; i++) {
		v = s->pre[i];
		d[v] = d[par[v]] + p->n - 2 * (int64_t)size[v];
	}
}

static uint32_t tree_lca(const uint32_t *par, const uint32_t *depth,
			 uint32_t u, uint32_t v)
{
	while (depth[u] > depth[v])
		u = par[u];
	while (depth[v] > depth[u])
		v = par[v];
	while (u != v) {
		u = par[u];
		v = par[v];
	}
	return u;
}

/*
 * The change of tree @f's Wiener index if it drops the parent link of @x
 * (cutting off S, the subtree of @x) and takes a link from @in (in S) to
 * @out (outside).  Time: O(height).
 */
static int64_t ls_delta(const struct ls *s, uint32_t f, uint32_t x,
			uint32_t in, uint32_t out)
{
	const struct part *p = s->p;
	size_t base = (size_t)f * p->n;
	const uint32_t *par = p->par + base, *depth = p->depth + base;
	const uint32_t *size = p->size + base;
	const int64_t *d = s->dsum + base;
	int64_t sz = size[x], cnt = depth[in] - depth[x], sum = 0, dist;
	uint32_t px = par[x], v;

	for (v = in; v != x; v = par[v])
		sum += size[v];
	dist = depth[out] + depth[px] - 2 * (int64_t)depth[tree_lca(par,
							depth, out, px)];
	return (p->n - sz) * (cnt * sz - 2 * sum) +
	       sz * (d[out] - d[px] - sz * dist);
}

/*
 * Tries every exchange that brings link @e into tree @i: the best one,
 * if it lowers the total Wiener index, is made.  Return: whether it was.
 * Time: O(height^2) for the evaluation, O(n) for a change.
 */
static bool ls_try(struct ls *s, uint32_t i, uint32_t e)
{
	struct part *p = s->p;
	const struct sluice_link *le = &p->g->links[e];
	size_t bi = (size_t)i * p->n, bj = 0;
	const uint32_t *par = p->par + bi, *depth = p->depth + bi;
	const uint32_t *size = p->size + bi;
	const int64_t *d = s->dsum + bi;
	uint32_t j = p->fo[e], lca, side, a, b, x, c = NIL, fa, fb, best_f = NIL;
	int64_t best = 0, cnt, sum, sz, di, dj;
	bool ina, inb;

	lca = tree_lca(par, depth, le->a, le->b);
	if (j != NIL) {
		bj = (size_t)j * p->n;
		c = p->pedge[bj + le->a] == e ? le->a : le->b;
	}
	for (side = 0; side < 2; side++) {
		a = side ? le->b : le->a;
		b = side ? le->a : le->b;
		cnt = 0;
		sum = 0;
		for (x = a; x != lca; x = par[x]) {
			uint32_t f = p->pedge[bi + x], px = par[x];

			sz = size[x];
			di = (p->n - sz) * (cnt * sz - 2 * sum) +
			     sz * (d[b] - d[px] - sz * (depth[b] + depth[px] -
						       2 * (int64_t)depth[lca]));
			cnt++;
			sum += sz;
			dj = 0;
			if (j != NIL) {
				const uint32_t *tin = p->tin + bj;
				uint32_t lo = tin[c], hi = lo + p->size[bj + c];

				fa = p->g->links[f].a;
				fb = p->g->links[f].b;
				ina = tin[fa] >= lo && tin[fa] < hi;
				inb = tin[fb] >= lo && tin[fb] < hi;
				if (ina == inb)
					continue;
				dj = ls_delta(s, j, c, ina ? fa : fb,
					      ina ? fb : fa);
			}
			if (di + dj < best) {
				best = di + dj;
				best_f = f;
			}
		}
	}
	if (best_f == NIL)
		return false;
	part_unlink(p, best_f);
	if (j != NIL)
		part_unlink(p, e);
	part_link(p, e, i);
	if (j != NIL)
		part_link(p, best_f, j);
	part_root(p, i);
	ls_dsum(s, i);
	if (j != NIL) {
		part_root(p, j);
		ls_dsum(s, j);
	}
	return true;
}

/*
 * Step 3 of edst-shallow: exchange passes over (tree, link) pairs, links
 * in @order, until a pass changes nothing or LS_PASSES.  Return: 0 or
 * -ENOMEM.
 */
static int shallow_improve(struct part *p, const uint32_t *order)
{
	struct ls s = { .p = p };
	uint32_t pass, i, e, f;
	bool changed = true;

	if (p->n > LS_NODES_MAX || p->n < 3)
		return 0;
	s.dsum = sluice_i_calloc((size_t)p->k * p->n, sizeof(*s.dsum));
	s.pre = sluice_i_calloc(p->n, sizeof(*s.pre));
	if (!s.dsum || !s.pre) {
		free(s.dsum);
		free(s.pre);
		return -ENOMEM;
	}
	for (f = 0; f < p->k; f++)
		ls_dsum(&s, f);
	for (pass = 0; changed && pass < LS_PASSES; pass++) {
		changed = false;
		for (i = 0; i < p->k; i++)
			for (e = 0; e < p->m; e++)
				if (p->fo[order[e]] != i &&
				    ls_try(&s, i, order[e]))
					changed = true;
	}
	free(s.dsum);
	free(s.pre);
	return 0;
}

/* ---- the algorithm ---- */

struct edst_ctx {
	const struct sluice_graph *g;
	uint32_t	n;
	uint32_t	trees;	/* T, per set */
	uint32_t	sets;	/* one per lane */
	/* Tree (set * trees + t), node v at [(set * trees + t) * n + v]. */
	uint32_t	*par;
	uint32_t	*pedge;
	uint32_t	*depth;
};

struct edst_worker {
	uint32_t	*path;
	uint32_t	*down;
};

static void edst_release(void *vctx)
{
	struct edst_ctx *ctx = vctx;

	if (!ctx)
		return;
	free(ctx->par);
	free(ctx->pedge);
	free(ctx->depth);
	free(ctx);
}

/* A seeded permutation of 0..n-1 for tree set @set. */
static void set_order(uint32_t *v, uint32_t n, uint64_t seed, uint32_t set,
		      uint64_t salt)
{
	struct sluice_rng r;
	uint32_t i;

	sluice_rng_seed(&r, seed ^ (0x9e3779b97f4a7c15ull * (set + 1)) ^ salt);
	for (i = 0; i < n; i++)
		v[i] = i;
	sluice_rng_shuffle(&r, v, n);
}

/* Copies the k trees of @p, as tree set @set, into @ctx.  O(k n). */
static void keep_set(struct edst_ctx *ctx, const struct part *p,
		     uint32_t set)
{
	size_t len = (size_t)ctx->trees * ctx->n;
	size_t at = set * len;

	memcpy(ctx->par + at, p->par, len * sizeof(*ctx->par));
	memcpy(ctx->pedge + at, p->pedge, len * sizeof(*ctx->pedge));
	memcpy(ctx->depth + at, p->depth, len * sizeof(*ctx->depth));
}

/* Checks the options and the fabric; fills *@sets.  O(n + m). */
static int edst_check(const struct sluice_graph *g,
		      const struct sluice_route_opts *o, uint32_t *sets,
		      char *err, size_t errlen)
{
	uint32_t *comp, *queue, nc, u;

	if (o->algo != SLUICE_ROUTE_EDST && o->algo != SLUICE_ROUTE_EDST_SHALLOW)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "edst: called for algorithm %s",
				     sluice_route_algo_name(o->algo));
	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "edst: the graph is not finalized");
	*sets = o->lanes ? o->lanes : 1;
	if (*sets > SLUICE_LANES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "edst: lanes: at most %u tree sets (one per lane), not %u",
				     SLUICE_LANES_MAX, *sets);
	comp = sluice_i_calloc(g->n_nodes, sizeof(*comp));
	queue = sluice_i_calloc(g->n_nodes, sizeof(*queue));
	if (!comp || !queue) {
		free(comp);
		free(queue);
		return sluice_i_errf(err, errlen, -ENOMEM, "edst: out of memory");
	}
	nc = g->n_nodes ? sluice_graph_components(g, comp, queue) : 0;
	for (u = 0; u < g->n_nodes && !comp[u]; u++)
		;
	free(comp);
	free(queue);
	if (nc > 1)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "edst: the fabric is not connected (%u components: %s cannot reach %s), so it has no spanning tree",
				     nc, g->nodes[0].name, g->nodes[u].name);
	return 0;
}

/**
 * edst_prepare() - the tree sets of edst or edst-shallow
 * @g:		a finalized, connected graph
 * @o:		algo (edst or edst-shallow), lanes (tree sets), seed
 * @ctxp:	the context, for source() and release()
 * @err:	why it failed
 * @errlen:	the size of @err
 *
 * Computes T, the maximum number of edge-disjoint spanning trees, exactly
 * (matroid partitioning, see the top of the file), then one set of T trees
 * per lane, each from its own seeded link order; edst-shallow then grows,
 * repairs and improves each set for short paths.
 *
 * Return: 0 or a negative errno.  Time: per set, see the top of the file;
 * edst-shallow adds up to LS_PASSES passes of O(T m height^2).
 */
static int edst_prepare(const struct sluice_graph *g,
			const struct sluice_route_opts *o, void **ctxp,
			char *err, size_t errlen)
{
	bool shallow = o->algo == SLUICE_ROUTE_EDST_SHALLOW;
	uint32_t sets = 0, upper, n = g->n_nodes, u, s, t, trees = 0;
	uint32_t *order = NULL, *rank = NULL, *uf = NULL, *rest = NULL;
	struct edst_ctx *ctx;
	struct part p = { 0 };
	size_t len;
	int ret;

	*ctxp = NULL;
	ret = edst_check(g, o, &sets, err, errlen);
	if (ret)
		return ret;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return sluice_i_errf(err, errlen, -ENOMEM, "edst: out of memory");
	ctx->g = g;
	ctx->n = n;
	ctx->sets = sets;
	if (n < 2) {
		*ctxp = ctx;	/* no pair to route */
		return 0;
	}
	upper = g->n_links / (n - 1);
	for (u = 0; u < n; u++)
		if (sluice_graph_degree(g, u) < upper)
			upper = sluice_graph_degree(g, u);
	order = sluice_i_calloc(g->n_links, sizeof(*order));
	rank = sluice_i_calloc(n, sizeof(*rank));
	uf = sluice_i_calloc(n, sizeof(*uf));
	rest = sluice_i_calloc(g->n_links, sizeof(*rest));
	ret = -ENOMEM;
	if (!order || !rank || !uf || !rest || part_init(&p, g, upper))
		goto fail;

	set_order(order, g->n_links, o->seed, 0, 0);
	ctx->trees = part_max_trees(&p, order, upper, uf, rest);
	trees = ctx->trees;
	len = (size_t)sets * ctx->trees * n;
	ctx->par = sluice_i_calloc(len, sizeof(*ctx->par));
	ctx->pedge = sluice_i_calloc(len, sizeof(*ctx->pedge));
	ctx->depth = sluice_i_calloc(len, sizeof(*ctx->depth));
	if (!ctx->par || !ctx->pedge || !ctx->depth)
		goto fail;
	for (s = 0; s < sets; s++) {
		set_order(order, g->n_links, o->seed, s, 0);
		if (shallow) {
			set_order(rank, n, o->seed, s, 1);
			part_clear(&p);
			p.k = ctx->trees;
			ret = shallow_grow(&p, rank);
			if (!ret)
				ret = part_fill(&p, order);
			if (!ret)
				ret = shallow_improve(&p, order);
			if (ret)
				goto fail;
			part_root_dirty(&p);
		} else if (s) {
			t = part_max_trees(&p, order, ctx->trees, uf, rest);
			ret = -EIO;
			if (t != ctx->trees)
				goto fail;
		}
		keep_set(ctx, &p, s);
	}
	ret = 0;
	*ctxp = ctx;
	ctx = NULL;
fail:
	part_free(&p);
	free(order);
	free(rank);
	free(uf);
	free(rest);
	edst_release(ctx);
	if (ret == -ENOMEM)
		return sluice_i_errf(err, errlen, ret, "edst: out of memory");
	if (ret)
		return sluice_i_errf(err, errlen, ret,
				     "edst: internal error: a tree set of %u trees came out short",
				     trees);
	return 0;
}

/* Per thread: room for one path.  O(n). */
static int edst_worker_init(void *vctx, void **wp)
{
	const struct edst_ctx *ctx = vctx;
	struct edst_worker *w = calloc(1, sizeof(*w));

	*wp = NULL;
	if (!w)
		return -ENOMEM;
	w->path = sluice_i_calloc(ctx->n ? ctx->n : 1, sizeof(*w->path));
	w->down = sluice_i_calloc(ctx->n ? ctx->n : 1, sizeof(*w->down));
	if (!w->path || !w->down) {
		free(w->path);
		free(w->down);
		free(w);
		return -ENOMEM;
	}
	*wp = w;
	return 0;
}

static void edst_worker_free(void *vw)
{
	struct edst_worker *w = vw;

	if (!w)
		return;
	free(w->path);
	free(w->down);
	free(w);
}

/* The links of tree @tree's path from @u to @v into @path.  O(length). */
static uint32_t tree_path(const struct edst_ctx *ctx, size_t tree, uint32_t u,
			  uint32_t v, uint32_t *path, uint32_t *down)
{
	size_t base = tree * ctx->n;
	const uint32_t *par = ctx->par + base, *pedge = ctx->pedge + base;
	const uint32_t *depth = ctx->depth + base;
	uint32_t nu = 0, nd = 0;

	while (depth[u] > depth[v]) {
		path[nu++] = pedge[u];
		u = par[u];
	}
	while (depth[v] > depth[u]) {
		down[nd++] = pedge[v];
		v = par[v];
	}
	while (u != v) {
		path[nu++] = pedge[u];
		u = par[u];
		down[nd++] = pedge[v];
		v = par[v];
	}
	while (nd)
		path[nu++] = down[--nd];
	return nu;
}

/**
 * edst_source() - a source's paths: one per tree, per tree set
 * @vctx:	the context from edst_prepare()
 * @vw:		the thread's worker
 * @dsts:	the destinations, increasing, the source left out
 * @n_dsts:	how many
 * @b:		the source's buffer
 * @err:	why it failed
 * @errlen:	the size of @err
 *
 * For each destination, the unique path of each tree in tree order, set by
 * set; set i's paths have lane i.
 *
 * Return: 0 or a negative errno.  Time: O(output).
 */
static int edst_source(void *vctx, void *vw, const uint32_t *dsts,
		       uint32_t n_dsts, struct sluice_path_buf *b,
		       char *err, size_t errlen)
{
	const struct edst_ctx *ctx = vctx;
	struct edst_worker *w = vw;
	uint32_t d, s, t, len;
	int ret;

	for (d = 0; d < n_dsts; d++) {
		ret = sluice_path_buf_pair(b, dsts[d]);
		if (ret)
			return sluice_i_errf(err, errlen, ret,
					     "edst: out of memory");
		for (s = 0; s < ctx->sets; s++)
			for (t = 0; t < ctx->trees; t++) {
				len = tree_path(ctx, (size_t)s * ctx->trees + t,
						b->src, dsts[d], w->path,
						w->down);
				if (len > SLUICE_PATH_HOPS_MAX)
					return sluice_i_errf(err, errlen, -E2BIG,
							     "edst: tree %u's path from %s to %s has %u links, more than %u",
							     t, ctx->g->nodes[b->src].name,
							     ctx->g->nodes[dsts[d]].name,
							     len, SLUICE_PATH_HOPS_MAX);
				ret = sluice_path_buf_add(b, w->path, len, s);
				if (ret)
					return sluice_i_errf(err, errlen, ret,
							     "edst: out of memory");
			}
	}
	return 0;
}

/* T, the trees in each set.  O(1). */
uint32_t sluice_i_edst_trees(const void *vctx)
{
	return ((const struct edst_ctx *)vctx)->trees;
}

/* The tree sets (lanes).  O(1). */
uint32_t sluice_i_edst_sets(const void *vctx)
{
	return ((const struct edst_ctx *)vctx)->sets;
}

/**
 * sluice_i_edst_tree_links() - the links of one tree
 * @vctx:	an edst context
 * @set:	the tree set, below sluice_i_edst_sets()
 * @tree:	the tree, below sluice_i_edst_trees()
 * @links:	room for n - 1 link ids, filled in node order
 *
 * Return: the number of links (n - 1), or -EINVAL.  Time: O(n).
 */
int sluice_i_edst_tree_links(const void *vctx, uint32_t set, uint32_t tree,
			     uint32_t *links)
{
	const struct edst_ctx *ctx = vctx;
	size_t base = ((size_t)set * ctx->trees + tree) * ctx->n;
	uint32_t v, k = 0;

	if (set >= ctx->sets || tree >= ctx->trees)
		return -EINVAL;
	for (v = 0; v < ctx->n; v++)
		if (ctx->par[base + v] != NIL)
			links[k++] = ctx->pedge[base + v];
	return k;
}

const struct sluice_algo_ops sluice_algo_edst = {
	.prepare	= edst_prepare,
	.worker_init	= edst_worker_init,
	.source		= edst_source,
	.worker_free	= edst_worker_free,
	.release	= edst_release,
};
