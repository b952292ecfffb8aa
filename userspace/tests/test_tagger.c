// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tagger (sluice/tagger.h): the greedy pass worked out by hand on a ring,
 * against an exhaustive search for the fewest priorities on many tiny
 * random path sets, on the library's routing algorithms (CBD-free routes
 * need one priority; every result passes the checker, which is itself
 * compared with a naive per-priority cycle search), the tables and the
 * assignments they refuse, the checker's findings on tampered tables, the
 * tag file and its errors, and the statistics.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/cbd.h>
#include <sluice/graph.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/tagger.h>
#include <sluice/topo.h>
#include "ktap.h"
#include "tagfiles.h"

static char err[SLUICE_ERRLEN];

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		abort();
	return p;
}

/*
 * A graph with nodes "A", "B", ... (one host port each) and a link for
 * each two-letter word of @links ("AB BC"): link i is the i-th word.
 */
static int letters_graph(struct sluice_graph *g, uint32_t n,
			 const char *links)
{
	char nm[2] = "A";
	uint32_t u;
	int ret;

	ret = sluice_graph_init(g, n, err, sizeof(err));
	for (u = 0; u < n && !ret; u++) {
		nm[0] = 'A' + u;
		ret = sluice_graph_set_node(g, u, nm, SLUICE_NODE_SWITCH, 1, 0,
					    err, sizeof(err));
	}
	for (; *links && !ret; links++) {
		if (*links == ' ')
			continue;
		ret = sluice_graph_add_link(g, links[0] - 'A', links[1] - 'A',
					    0, 0, err, sizeof(err));
		ret = ret < 0 ? ret : 0;
		links++;
	}
	if (!ret)
		ret = sluice_graph_finalize(g, err, sizeof(err));
	if (ret)
		ktap_diag("letters_graph: %s", err);
	return ret;
}

/* A path of a hand-made route set: its pair and links. */
struct spec {
	uint32_t	src, dst, n;
	uint32_t	links[16];
};

static bool spec_before(const struct spec *x, const struct spec *y)
{
	return x->src < y->src || (x->src == y->src && x->dst < y->dst);
}

/*
 * A whole route set of @g from @n paths: every ordered pair of nodes (all
 * are endpoints here), with the paths of @s that belong to it, in the
 * order given.
 */
static void build_routes(struct sluice_routes *r, const struct sluice_graph *g,
			 struct spec *s, uint32_t n)
{
	uint32_t a, b, i, j;
	uint64_t p = 0;
	struct spec tmp;

	/* by pair, stably: the paths of a pair keep their order */
	for (i = 1; i < n; i++)
		for (j = i; j && spec_before(&s[j], &s[j - 1]); j--) {
			tmp = s[j];
			s[j] = s[j - 1];
			s[j - 1] = tmp;
		}
	i = 0;
	memset(r, 0, sizeof(*r));
	strcpy(r->algo, "ecmp");
	r->n_nodes = g->n_nodes;
	r->n_links = g->n_links;
	r->topo_hash = sluice_graph_hash(g);
	r->shard_count = 1;
	r->n_pairs = (uint64_t)g->n_nodes * (g->n_nodes - 1);
	r->pair_src = xrealloc(NULL, r->n_pairs * sizeof(uint32_t));
	r->pair_dst = xrealloc(NULL, r->n_pairs * sizeof(uint32_t));
	r->pair_path = xrealloc(NULL, (r->n_pairs + 1) * sizeof(uint64_t));
	r->path_hop = xrealloc(NULL, (n + 1) * sizeof(uint64_t));
	r->path_lane = xrealloc(NULL, n * sizeof(uint8_t));
	r->hops = xrealloc(NULL, n * 16 * sizeof(uint32_t));
	r->path_hop[0] = 0;
	for (a = 0; a < g->n_nodes; a++)
		for (b = 0; b < g->n_nodes; b++) {
			if (a == b)
				continue;
			r->pair_src[p] = a;
			r->pair_dst[p] = b;
			r->pair_path[p++] = r->n_paths;
			for (; i < n && s[i].src == a && s[i].dst == b; i++) {
				memcpy(r->hops + r->n_hops, s[i].links,
				       s[i].n * sizeof(uint32_t));
				r->n_hops += s[i].n;
				r->path_lane[r->n_paths] = 0;
				r->path_hop[++r->n_paths] = r->n_hops;
			}
		}
	r->pair_path[r->n_pairs] = r->n_paths;
}

/* The lowest-numbered link between @u and @v. */
static uint32_t link_between(const struct sluice_graph *g, uint32_t u,
			     uint32_t v)
{
	uint32_t x;

	for (x = g->off[u]; x < g->off[u + 1]; x++)
		if (g->adj[x].peer == v)
			return g->adj[x].link;
	return UINT32_MAX;
}

/* A path given as a walk over node letters: "ABC". */
static struct spec walk(const struct sluice_graph *g, const char *w)
{
	struct spec s = { .src = w[0] - 'A', .dst = w[strlen(w) - 1] - 'A' };

	for (; w[1]; w++)
		s.links[s.n++] = link_between(g, w[0] - 'A', w[1] - 'A');
	return s;
}

static int compute(const struct sluice_graph *g, enum sluice_route_algo algo,
		   uint32_t paths, struct sluice_routes *r)
{
	struct sluice_route_opts o = { .algo = algo, .paths = paths };
	struct sluice_compute_opts c = { .threads = 1 };

	if (sluice_routes_compute(g, &o, &c, r, err, sizeof(err))) {
		ktap_diag("compute: %s", err);
		return -1;
	}
	return 0;
}

static int assign(const struct sluice_graph *g, const struct sluice_routes *r,
		  enum sluice_tagger_mode mode, struct sluice_tagging *t)
{
	struct sluice_tagger_opts o = { .mode = mode };
	int ret = sluice_tagger_assign(g, r, &o, t, err, sizeof(err));

	if (ret)
		ktap_diag("assign: %s", err);
	return ret;
}

/* The tag file of @tab, malloc()ed. */
static char *file_text(const struct sluice_tagger_tables *tab,
		       const struct sluice_graph *g, const char *only)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	if (sluice_tagger_write(tab, g, f, only, err, sizeof(err)))
		ktap_diag("write: %s", err);
	fclose(f);
	return buf;
}

static int read_text(struct sluice_tagger_tables *tab,
		     const struct sluice_graph *g, const char *text,
		     const char *only)
{
	FILE *f = text_file(text);
	int ret;

	ret = sluice_tagger_read(tab, g, f, "t.tags", only, err, sizeof(err));
	fclose(f);
	return ret;
}

/*
 * A naive per-priority dependency check, for comparison with the
 * library's: the buffers (directed link, priority) and an edge for each
 * two consecutive hops of a path on one priority, then a depth-first
 * search for a cycle.  Returns true if there is none.
 */
static bool naive_cbd_free(const struct sluice_graph *g,
			   const struct sluice_routes *r, const uint8_t *prio)
{
	uint32_t nb = 2 * g->n_links * SLUICE_LANES_MAX, *stack, *pos, sp, u, w;
	uint64_t p, q, k, *off;
	uint32_t *adj, *deg, v, x, prev;
	uint8_t *col;
	bool free_ = true;

	/* edges as a list per buffer: at most one per hop */
	deg = calloc(nb, sizeof(*deg));
	off = calloc(nb + 1, sizeof(*off));
	adj = calloc(r->n_hops + 1, sizeof(*adj));
	col = calloc(nb, 1);
	stack = calloc(nb, sizeof(*stack));
	pos = calloc(nb, sizeof(*pos));
	if (!deg || !off || !adj || !col || !stack || !pos)
		abort();
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			for (u = 0; u < nb; u++)
				off[u + 1] = off[u] + deg[u];
			memset(deg, 0, nb * sizeof(*deg));
		}
		for (p = 0; p < r->n_pairs; p++)
			for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
				v = r->pair_src[p];
				prev = UINT32_MAX;
				for (k = r->path_hop[q]; k < r->path_hop[q + 1]; k++) {
					uint32_t l = r->hops[k];
					uint32_t to = g->links[l].a == v ?
						      g->links[l].b : g->links[l].a;

					x = (2 * l + (to == g->links[l].b)) *
					    SLUICE_LANES_MAX + prio[k];
					if (prev != UINT32_MAX &&
					    prio[k] == prio[k - 1]) {
						if (pass)
							adj[off[prev] + deg[prev]] = x;
						deg[prev]++;
					}
					prev = x;
					v = to;
				}
			}
	}
	/* iterative DFS, grey = 1, black = 2 */
	for (u = 0; u < nb && free_; u++) {
		if (col[u])
			continue;
		stack[0] = u;
		pos[u] = 0;
		col[u] = 1;
		sp = 1;
		while (sp && free_) {
			w = stack[sp - 1];
			if (pos[w] == deg[w]) {
				col[w] = 2;
				sp--;
				continue;
			}
			x = adj[off[w] + pos[w]++];
			if (col[x] == 1)
				free_ = false;
			else if (!col[x]) {
				col[x] = 1;
				pos[x] = 0;
				stack[sp++] = x;
			}
		}
	}
	free(deg);
	free(off);
	free(adj);
	free(col);
	free(stack);
	free(pos);
	return free_;
}

/*
 * Builds the tables of @t and checks them: they must exist and be safe,
 * with as many priorities as @t uses, every hop charged as @t says, and
 * the naive search must agree that there is no cycle.
 */
static bool tagging_safe(const struct sluice_graph *g,
			 const struct sluice_routes *r,
			 const struct sluice_tagging *t)
{
	struct sluice_tagger_tables tab;
	struct sluice_tagger_check res;
	bool ok;

	if (sluice_tagger_tables_build(g, r, t, &tab, err, sizeof(err))) {
		ktap_diag("build: %s", err);
		return false;
	}
	if (sluice_tagger_check(g, r, &tab, &res, err, sizeof(err))) {
		ktap_diag("check: %s", err);
		sluice_tagger_tables_free(&tab);
		return false;
	}
	/* depth: delivered frames are charged to 1, also after one hop */
	ok = res.ok && res.consistent && res.priorities == t->priorities &&
	     !res.entries_unused &&
	     (tab.priorities == t->priorities ||
	      (t->mode == SLUICE_TAGGER_DEPTH && t->priorities == 1 &&
	       tab.priorities == 2)) &&
	     naive_cbd_free(g, r, t->prio);
	if (!ok)
		ktap_diag("unsafe: ok %d consistent %d (%s) priorities %u/%u/%u unused %llu",
			  res.ok, res.consistent, res.problem, res.priorities,
			  tab.priorities, t->priorities,
			  (unsigned long long)res.entries_unused);
	sluice_tagger_check_free(&res);
	sluice_tagger_tables_free(&tab);
	return ok;
}

/* Priorities never decrease along any path of @r. */
static bool monotone(const struct sluice_routes *r, const uint8_t *prio)
{
	uint64_t q, k;

	for (q = 0; q < r->n_paths; q++)
		for (k = r->path_hop[q] + 1; k < r->path_hop[q + 1]; k++)
			if (prio[k] < prio[k - 1])
				return false;
	return true;
}

/* Depth mode: priorities go down by one per hop, to 0 on the last. */
static bool counts_down(const struct sluice_routes *r, const uint8_t *prio)
{
	uint64_t q, k;

	for (q = 0; q < r->n_paths; q++)
		for (k = r->path_hop[q]; k < r->path_hop[q + 1]; k++)
			if (prio[k] != r->path_hop[q + 1] - 1 - k)
				return false;
	return true;
}

/* The ring of ring4_tags (tests/tagfiles.c, which says how it comes out). */
static void ring4(struct sluice_graph *g, struct sluice_routes *r)
{
	if (sluice_topo_ring(g, 4, 0, err, sizeof(err)) ||
	    compute(g, SLUICE_ROUTE_ECMP, 0, r))
		abort();
}

static void test_ring4_greedy(void)
{
	/* per path, in route order: s3 s1 climbs on its second hop */
	static const uint8_t want[24] = {
		0,  0, 0,  0, 0,  0,	/* s0 s1, s0 s2 (2 paths), s0 s3 */
		0,  0,  0, 0,  0, 0,	/* s1 s0, s1 s2, s1 s3 (2) */
		0, 0,  0, 0,  0,  0,	/* s2 s0 (2), s2 s1, s2 s3 */
		0,  0, 1,  0, 1,  0,	/* s3 s0, s3 s1 (2), s3 s2 */
	};
	struct sluice_tagger_tables tab;
	struct sluice_tagging t;
	struct sluice_routes r;
	struct sluice_graph g;
	char *text;

	ring4(&g, &r);
	KTAP_EXPECT_INT(r.n_hops, 24);
	if (!assign(&g, &r, SLUICE_TAGGER_GREEDY, &t)) {
		KTAP_EXPECT_INT(t.priorities, 2);
		KTAP_EXPECT_INT(t.climbs, 2);
		KTAP_EXPECT_INT(t.conflicts, 0);
		KTAP_EXPECT(!memcmp(t.prio, want, sizeof(want)));
		KTAP_EXPECT(tagging_safe(&g, &r, &t));
		KTAP_EXPECT_INT(sluice_tagger_tables_build(&g, &r, &t, &tab,
							   err, sizeof(err)), 0);
		text = file_text(&tab, &g, NULL);
		KTAP_EXPECT_STR(text, ring4_tags);
		free(text);
		sluice_tagger_tables_free(&tab);
	}
	sluice_tagging_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("ring of 4, ecmp: greedy's priorities and tables by hand");
}

static void test_ring4_ttl(void)
{
	struct sluice_tagger_tables tab;
	struct sluice_tagger_stats st;
	struct sluice_tagging t;
	struct sluice_routes r;
	struct sluice_graph g;
	uint64_t q, k;
	bool hops_ok = true;

	ring4(&g, &r);
	if (!assign(&g, &r, SLUICE_TAGGER_TTL, &t)) {
		KTAP_EXPECT_INT(t.priorities, 2);
		for (q = 0; q < r.n_paths; q++)
			for (k = r.path_hop[q]; k < r.path_hop[q + 1]; k++)
				hops_ok &= t.prio[k] == k - r.path_hop[q];
		KTAP_EXPECT(hops_ok);
		KTAP_EXPECT(tagging_safe(&g, &r, &t));
		if (!sluice_tagger_tables_build(&g, &r, &t, &tab, err,
						sizeof(err))) {
			KTAP_EXPECT_INT(sluice_tagger_stats(&tab, &g, &st, err,
							    sizeof(err)), 0);
			/*
			 * Per node: in host 0; in from each neighbour at tag
			 * 1 (one-hop paths, first hops) and tag 2 (second
			 * hops); out to each neighbour at tag 0 and, from
			 * the other neighbour, tag 1; out host at tags 1, 2.
			 */
			KTAP_EXPECT_INT(st.priorities, 2);
			KTAP_EXPECT_INT(st.tags, 3);
			KTAP_EXPECT_INT(st.in_entries, 4 * 5);
			KTAP_EXPECT_INT(st.out_entries, 4 * 6);
			KTAP_EXPECT_INT(st.node_min, 11);
			KTAP_EXPECT_INT(st.node_max, 11);
			KTAP_EXPECT_INT(st.bottleneck, 0);
			sluice_tagger_tables_free(&tab);
		}
	}
	sluice_tagging_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("ring of 4, ecmp: ttl is the hop index, exact table sizes");
}

/*
 * The exhaustive search: the fewest priorities any table of the switch
 * model can give the route set.  Tag = priority + 1, so a hop's priority
 * is F(link direction, priority before) - or F(link direction, host) for
 * a first hop, which may be any priority - with F >= the priority before.
 * The search walks the paths hop by hop, choosing F for each key the
 * first time it meets it, and keeps each priority's dependency graph
 * acyclic as it goes.
 */
#define BF_BUF		32	/* directed links */
#define BF_PATHS	24	/* paths of a random set, at most */
#define BF_SETS		300	/* random path sets */
#define BF_KSP		40	/* all-pairs k shortest paths */
#define BF_STEPS	20000000ull	/* a search that goes on is a failure */
#define BF_CTX		(SLUICE_LANES_MAX + 1)

struct bf {
	uint32_t	n_paths;
	uint32_t	*len;
	uint32_t	(*hop)[16];	/* buffers */
	uint32_t	prios;		/* allowed */
	int8_t		F[BF_BUF][BF_CTX];
	uint8_t		cnt[SLUICE_LANES_MAX][BF_BUF][BF_BUF];
	uint8_t		(*prio)[16];
	uint64_t	steps;
};

/* Does @from reach @to in priority @p's graph? */
static bool bf_reach(const struct bf *s, uint32_t p, uint32_t from,
		     uint32_t to)
{
	uint32_t stack[BF_BUF], sp = 1, u, v;
	bool seen[BF_BUF] = { false };

	stack[0] = from;
	seen[from] = true;
	while (sp) {
		u = stack[--sp];
		if (u == to)
			return true;
		for (v = 0; v < BF_BUF; v++)
			if (s->cnt[p][u][v] && !seen[v]) {
				seen[v] = true;
				stack[sp++] = v;
			}
	}
	return false;
}

static bool bf_solve(struct bf *s, uint32_t i, uint32_t k, uint32_t prev);

/* Hop k of path i at priority @v. */
static bool bf_try(struct bf *s, uint32_t i, uint32_t k, uint32_t prev,
		   uint32_t v)
{
	uint32_t x = k ? s->hop[i][k - 1] : 0, y = s->hop[i][k];
	bool edge = k && v == prev, ok;

	if (edge) {
		if (!s->cnt[v][x][y] && bf_reach(s, v, y, x))
			return false;
		s->cnt[v][x][y]++;
	}
	s->prio[i][k] = v;
	ok = bf_solve(s, i, k + 1, v);
	if (edge)
		s->cnt[v][x][y]--;
	return ok;
}

static bool bf_solve(struct bf *s, uint32_t i, uint32_t k, uint32_t prev)
{
	uint32_t b, ctx, v;

	if (++s->steps > BF_STEPS)
		return false;
	if (i == s->n_paths)
		return true;
	if (k == s->len[i])
		return bf_solve(s, i + 1, 0, 0);
	b = s->hop[i][k];
	ctx = k ? prev + 1 : 0;
	if (s->F[b][ctx] >= 0)
		return bf_try(s, i, k, prev, s->F[b][ctx]);
	for (v = k ? prev : 0; v < s->prios; v++) {
		s->F[b][ctx] = v;
		if (bf_try(s, i, k, prev, v))
			return true;
	}
	s->F[b][ctx] = -1;
	return false;
}

/*
 * The fewest priorities for @r (up to @max), and a tagging that uses them
 * in @t (prio allocated by the caller).  0 if none up to @max, or if the
 * search took more than BF_STEPS steps.
 */
static uint32_t brute_force(const struct sluice_graph *g,
			    const struct sluice_routes *r, uint32_t max,
			    struct sluice_tagging *t)
{
	struct bf *s = calloc(1, sizeof(*s));
	uint32_t prios, i, k, v, found = 0;
	uint64_t p, q, h;

	if (!s || 2 * g->n_links > BF_BUF)
		abort();
	s->n_paths = r->n_paths;
	s->len = calloc(r->n_paths, sizeof(*s->len));
	s->hop = calloc(r->n_paths, sizeof(*s->hop));
	s->prio = calloc(r->n_paths, sizeof(*s->prio));
	if (!s->len || !s->hop || !s->prio)
		abort();
	for (p = 0; p < r->n_pairs; p++)
		for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
			v = r->pair_src[p];
			s->len[q] = sluice_routes_path_len(r, q);
			for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
				uint32_t l = r->hops[h];
				uint32_t to = g->links[l].a == v ?
					      g->links[l].b : g->links[l].a;

				s->hop[q][h - r->path_hop[q]] =
					2 * l + (to == g->links[l].b);
				v = to;
			}
		}
	for (prios = 1; prios <= max && !found; prios++) {
		memset(s->F, 0xff, sizeof(s->F));
		s->prios = prios;
		s->steps = 0;
		if (bf_solve(s, 0, 0, 0))
			found = prios;
		else if (s->steps > BF_STEPS)
			break;	/* not exhaustive after all: no answer */
	}
	if (found) {
		t->priorities = 0;
		for (i = 0; i < s->n_paths; i++)
			for (k = 0; k < s->len[i]; k++) {
				t->prio[r->path_hop[i] + k] = s->prio[i][k];
				if (s->prio[i][k] >= t->priorities)
					t->priorities = s->prio[i][k] + 1;
			}
	}
	free(s->len);
	free(s->hop);
	free(s->prio);
	free(s);
	return found;
}

/*
 * A random connected graph of @n nodes and @m links: a ring, so that there
 * are cycles to deadlock on, and random chords (parallel links now and
 * then).
 */
static int random_graph(struct sluice_graph *g, struct sluice_rng *rng,
			uint32_t n, uint32_t m)
{
	char nm[4];
	uint32_t u, a, b, i;
	int ret;

	ret = sluice_graph_init(g, n, err, sizeof(err));
	for (u = 0; u < n && !ret; u++) {
		snprintf(nm, sizeof(nm), "%c", 'A' + u);
		ret = sluice_graph_set_node(g, u, nm, SLUICE_NODE_SWITCH, 1, 0,
					    err, sizeof(err));
	}
	for (u = 0; u < n && !ret; u++) {
		ret = sluice_graph_add_link(g, u, (u + 1) % n, 0, 0, err,
					    sizeof(err));
		ret = ret < 0 ? ret : 0;
	}
	for (i = n; i < m && !ret; i++) {
		a = sluice_rng_below(rng, n);
		b = sluice_rng_below(rng, n - 1);
		b += b >= a;
		ret = sluice_graph_add_link(g, a, b, 0, 0, err, sizeof(err));
		ret = ret < 0 ? ret : 0;
	}
	if (!ret)
		ret = sluice_graph_finalize(g, err, sizeof(err));
	return ret;
}

/* A random simple walk from @src that stops at @dst, or 0 hops. */
static uint32_t random_path(const struct sluice_graph *g,
			    struct sluice_rng *rng, uint32_t src,
			    uint32_t dst, uint32_t *links)
{
	uint32_t v = src, n = 0, tries, x, w;
	bool seen[26] = { false };

	seen[src] = true;
	while (v != dst) {
		for (tries = 0; tries < 8; tries++) {
			x = g->off[v] + sluice_rng_below(rng,
							 sluice_graph_degree(g, v));
			w = g->adj[x].peer;
			if (!seen[w])
				break;
		}
		if (tries == 8 || n == 6)
			return 0;
		links[n++] = g->adj[x].link;
		seen[w] = true;
		v = w;
	}
	return n;
}

static void test_brute_force(void)
{
	uint32_t inst, n_paths, i, gr, bf, ttl, equal = 0, above = 0,
		 cases = 0, bad = 0, multi = 0, three = 0;
	struct sluice_tagging tg, tt, tb;
	struct spec s[BF_PATHS];
	struct sluice_routes r;
	struct sluice_graph g;
	struct sluice_rng rng;

	sluice_rng_seed(&rng, 20171212);
	for (inst = 0; inst < BF_SETS + BF_KSP; inst++) {
		/* small sets, denser ones with more paths, then all pairs */
		bool big = inst >= BF_SETS / 2, ksp = inst >= BF_SETS;
		uint32_t n = (ksp ? 5 : big ? 4 : 3) + sluice_rng_below(&rng, ksp ? 2 : 4);
		uint32_t m = n + (ksp ? 2 : 0) +
			     sluice_rng_below(&rng, ksp ? 3 : big ? 5 : 4);

		if (random_graph(&g, &rng, n, m))
			abort();
		if (ksp) {
			if (compute(&g, SLUICE_ROUTE_KSP,
				    3 + sluice_rng_below(&rng, 3), &r))
				abort();
		} else {
			n_paths = 4 + sluice_rng_below(&rng, big ? BF_PATHS - 3 : 9);
			for (i = 0; i < n_paths;) {
				s[i].src = sluice_rng_below(&rng, n);
				s[i].dst = sluice_rng_below(&rng, n - 1);
				s[i].dst += s[i].dst >= s[i].src;
				s[i].n = random_path(&g, &rng, s[i].src,
						     s[i].dst, s[i].links);
				i += !!s[i].n;
			}
			build_routes(&r, &g, s, n_paths);
		}
		if (assign(&g, &r, SLUICE_TAGGER_GREEDY, &tg) ||
		    assign(&g, &r, SLUICE_TAGGER_TTL, &tt))
			abort();
		gr = tg.priorities;
		ttl = tt.priorities;
		tb = tg;
		tb.prio = calloc(r.n_hops, 1);
		bf = brute_force(&g, &r, gr, &tb);
		cases++;
		/* greedy is valid and never beats the exhaustive minimum */
		if (!bf || bf > gr || gr > ttl || !monotone(&r, tg.prio) ||
		    !tagging_safe(&g, &r, &tg) || !tagging_safe(&g, &r, &tt) ||
		    tb.priorities != bf || !tagging_safe(&g, &r, &tb)) {
			ktap_diag("instance %u: greedy %u brute force %u ttl %u",
				  inst, gr, bf, ttl);
			bad++;
		}
		equal += bf == gr;
		above += bf < gr;
		multi += bf > 1;
		three += gr > 2;
		free(tb.prio);
		sluice_tagging_free(&tg);
		sluice_tagging_free(&tt);
		sluice_routes_free(&r);
		sluice_graph_free(&g);
	}
	KTAP_EXPECT_INT(bad, 0);
	KTAP_EXPECT_INT(cases, BF_SETS + BF_KSP);
	ktap_diag("greedy at the minimum on %u of %u path sets, above it on %u; %u need 2 or more, greedy takes 3 on %u",
		  equal, cases, above, multi, three);
	/* the path sets are not all trivial, nor is greedy always optimal */
	KTAP_EXPECT(multi >= 100 && three > 0 && above > 0);
	ktap_result("greedy against exhaustive search on %d random path sets and %d all-pairs ksp sets",
		    BF_SETS, BF_KSP);
}

/* A structured case the search must get right: the ring's one cycle. */
static void test_brute_force_ring(void)
{
	struct sluice_tagging t = { 0 }, tg;
	struct sluice_routes r;
	struct sluice_graph g;
	struct spec s[3];

	/* three two-hop paths round a triangle: one cycle, two priorities */
	if (letters_graph(&g, 3, "AB BC CA"))
		abort();
	s[0] = walk(&g, "ABC");
	s[1] = walk(&g, "BCA");
	s[2] = walk(&g, "CAB");
	build_routes(&r, &g, s, 3);
	t.n_hops = r.n_hops;
	t.prio = calloc(r.n_hops, 1);
	KTAP_EXPECT_INT(brute_force(&g, &r, 4, &t), 2);
	KTAP_EXPECT(tagging_safe(&g, &r, &t));
	if (!assign(&g, &r, SLUICE_TAGGER_GREEDY, &tg)) {
		KTAP_EXPECT_INT(tg.priorities, 2);
		/* the last path closes the cycle and climbs on its last hop */
		KTAP_EXPECT_INT(tg.prio[5], 1);
		KTAP_EXPECT_INT(tg.prio[0] + tg.prio[1] + tg.prio[2] +
				tg.prio[3] + tg.prio[4], 0);
	}
	sluice_tagging_free(&tg);
	free(t.prio);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("a triangle's cycle: two priorities by search and greedy");
}

/* Greedy and ttl on the library's routing, checked every way. */
static void check_both(const char *what, const struct sluice_graph *g,
		       const struct sluice_routes *r, uint32_t *greedy_prios)
{
	struct sluice_tagger_opts o = { .mode = SLUICE_TAGGER_TTL };
	struct sluice_tagging a, b = { 0 }, t2;
	uint32_t longest = 0;
	uint64_t q;
	bool ok;

	for (q = 0; q < r->n_paths; q++)
		if (sluice_routes_path_len(r, q) > longest)
			longest = sluice_routes_path_len(r, q);
	if (assign(g, r, SLUICE_TAGGER_GREEDY, &a)) {
		ktap_diag("%s: no tagging", what);
		KTAP_EXPECT(false);
		return;
	}
	/* ttl needs a priority per hop of the longest path */
	if (longest > SLUICE_LANES_MAX) {
		ok = sluice_tagger_assign(g, r, &o, &b, err, sizeof(err)) ==
		     -ERANGE;
		b.priorities = longest;
	} else {
		ok = !assign(g, r, SLUICE_TAGGER_TTL, &b) &&
		     tagging_safe(g, r, &b) && b.priorities == longest;
	}
	ok &= tagging_safe(g, r, &a) && monotone(r, a.prio) &&
	      a.priorities <= b.priorities;
	/* depth: as many priorities as ttl, each path counting down */
	sluice_tagging_free(&b);
	o.mode = SLUICE_TAGGER_DEPTH;
	if (longest > SLUICE_LANES_MAX) {
		ok &= sluice_tagger_assign(g, r, &o, &b, err, sizeof(err)) ==
		      -ERANGE;
		b.priorities = longest;
	} else {
		ok &= !assign(g, r, SLUICE_TAGGER_DEPTH, &b) &&
		      tagging_safe(g, r, &b) && b.priorities == longest &&
		      counts_down(r, b.prio);
	}
	/* deterministic */
	if (!assign(g, r, SLUICE_TAGGER_GREEDY, &t2)) {
		ok &= t2.priorities == a.priorities &&
		      !memcmp(t2.prio, a.prio, r->n_hops);
		sluice_tagging_free(&t2);
	}
	if (!ok)
		ktap_diag("%s: greedy %u ttl %u", what, a.priorities,
			  b.priorities);
	KTAP_EXPECT(ok);
	*greedy_prios = a.priorities;
	sluice_tagging_free(&a);
	sluice_tagging_free(&b);
}

static void test_routing(void)
{
	static const struct {
		const char		*name;
		enum sluice_route_algo	algo;
		uint32_t		paths;
	} algos[] = {
		{ "ecmp", SLUICE_ROUTE_ECMP, 0 },
		{ "ecmp one path", SLUICE_ROUTE_ECMP, 1 },
		{ "ksp 4", SLUICE_ROUTE_KSP, 4 },
		{ "updown", SLUICE_ROUTE_UPDOWN, 0 },
		{ "edst", SLUICE_ROUTE_EDST, 0 },
	};
	struct sluice_cbd_result res;
	struct sluice_routes r;
	struct sluice_graph g;
	uint32_t seed, i, prios, one = 0, several = 0;

	for (seed = 1; seed <= 3; seed++) {
		if (sluice_topo_jellyfish(&g, 24, 4, 1, seed, err,
					  sizeof(err)))
			abort();
		for (i = 0; i < ARRAY_SIZE(algos); i++) {
			if (compute(&g, algos[i].algo, algos[i].paths, &r))
				continue;
			prios = 0;
			check_both(algos[i].name, &g, &r, &prios);
			/* CBD-free routes keep one priority: nothing climbs */
			if (!sluice_cbd_check(&g, &r, &res, err, sizeof(err))) {
				if (res.cbd_free) {
					KTAP_EXPECT_INT(prios, 1);
					one++;
				} else {
					KTAP_EXPECT(prios >= 2);
					several++;
				}
			}
			sluice_cbd_result_free(&res);
			sluice_routes_free(&r);
		}
		sluice_graph_free(&g);
	}
	/* a fat-tree's up-down routes, BCube's server routes */
	if (!sluice_topo_fattree(&g, 4, err, sizeof(err))) {
		if (!compute(&g, SLUICE_ROUTE_UPDOWN, 0, &r)) {
			check_both("fattree updown", &g, &r, &prios);
			KTAP_EXPECT_INT(prios, 1);
			sluice_routes_free(&r);
		}
		if (!compute(&g, SLUICE_ROUTE_KSP, 3, &r)) {
			check_both("fattree ksp", &g, &r, &prios);
			sluice_routes_free(&r);
		}
		sluice_graph_free(&g);
	}
	if (!sluice_topo_bcube(&g, 3, 1, err, sizeof(err))) {
		if (!compute(&g, SLUICE_ROUTE_BCUBE, 0, &r)) {
			check_both("bcube", &g, &r, &prios);
			sluice_routes_free(&r);
		}
		sluice_graph_free(&g);
	}
	KTAP_EXPECT(one >= 3 && several >= 3);
	ktap_result("routing algorithms: safe, monotone, deterministic, greedy <= ttl = depth, 1 priority without CBD");
}

/*
 * At B, paths from A and from D both arrive at priority 0 and leave to
 * C.  Deciding per turn (the paper's pass) may keep one at 0 and move the
 * other to 1: no egress entry (port to C, tag 1) can do both.
 */
static void test_build_refuses(void)
{
	struct sluice_tagger_tables tab;
	struct sluice_tagging t = { 0 };
	struct sluice_routes r;
	struct sluice_graph g;
	struct spec s[2];
	int ret;

	if (letters_graph(&g, 4, "AB BC DB"))
		abort();
	s[0] = walk(&g, "ABC");
	s[1] = walk(&g, "DBC");
	build_routes(&r, &g, s, 2);
	t.n_hops = r.n_hops;
	t.prio = calloc(r.n_hops, 1);
	t.prio[3] = 1;	/* D B C: climbs at B */
	t.priorities = 2;
	ret = sluice_tagger_tables_build(&g, &r, &t, &tab, err, sizeof(err));
	KTAP_EXPECT_INT(ret, -EINVAL);
	KTAP_EXPECT_STR(err, "path 1 of D C, hop 1: leaves B by port 1 (to C) with tag 1 at priority 1, an earlier path at 0: one egress entry cannot serve both");
	/* both climbing is fine */
	t.prio[1] = 1;
	ret = sluice_tagger_tables_build(&g, &r, &t, &tab, err, sizeof(err));
	KTAP_EXPECT_INT(ret, 0);
	sluice_tagger_tables_free(&tab);
	/* going down is not */
	t.prio[0] = 1;
	t.prio[1] = 0;
	ret = sluice_tagger_tables_build(&g, &r, &t, &tab, err, sizeof(err));
	KTAP_EXPECT_INT(ret, -EINVAL);
	KTAP_EXPECT_STR(err, "path 1 of A C, hop 1: priority 0 after 1: priorities must not decrease along a path");
	t.prio[0] = 8;
	ret = sluice_tagger_tables_build(&g, &r, &t, &tab, err, sizeof(err));
	KTAP_EXPECT_INT(ret, -EINVAL);
	KTAP_EXPECT_STR(err, "path 1 of A C, hop 0: priority 8 is not below 8");
	t.n_hops = 3;
	ret = sluice_tagger_tables_build(&g, &r, &t, &tab, err, sizeof(err));
	KTAP_EXPECT_INT(ret, -EINVAL);
	KTAP_EXPECT_STR(err, "the tagging has 3 hops, the routes 4");
	free(t.prio);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("tables refuse conflicting, decreasing and out-of-range priorities");
}

/* Finds node @v's egress entry (port, tag), or NULL. */
static struct sluice_tagger_out *out_entry(struct sluice_tagger_tables *tab,
					   uint32_t v, uint32_t port,
					   uint32_t tag)
{
	uint64_t i;

	for (i = tab->out_off[v]; i < tab->out_off[v + 1]; i++)
		if (tab->out[i].port == port && tab->out[i].tag == tag)
			return &tab->out[i];
	return NULL;
}

static struct sluice_tagger_in *in_entry(struct sluice_tagger_tables *tab,
					 uint32_t v, uint32_t port,
					 uint32_t tag)
{
	uint64_t i;

	for (i = tab->in_off[v]; i < tab->in_off[v + 1]; i++)
		if (tab->in[i].port == port && tab->in[i].tag == tag)
			return &tab->in[i];
	return NULL;
}

/* Each hop of the cycle is crossed, then the next, by the path it names. */
static bool witness_ok(const struct sluice_graph *g,
		       const struct sluice_routes *r,
		       const struct sluice_cbd_result *res)
{
	uint32_t i, n = res->n_cycle;
	uint64_t k, q;

	if (n < 2)
		return false;
	for (i = 0; i < n; i++) {
		const struct sluice_cbd_hop *a = &res->cycle[i];
		const struct sluice_cbd_hop *b = &res->cycle[(i + 1) % n];
		bool found = false;

		q = a->path;
		if (q >= r->n_paths || a->lane != res->cycle[0].lane ||
		    a->to != b->from)
			return false;
		for (k = r->path_hop[q]; k + 1 < r->path_hop[q + 1]; k++)
			found |= r->hops[k] == a->link &&
				 r->hops[k + 1] == b->link;
		if (!found)
			return false;
	}
	(void)g;
	return true;
}

static void test_check_finds(void)
{
	struct sluice_tagger_tables tab;
	struct sluice_tagger_check res;
	struct sluice_tagging t;
	struct sluice_tagger_out *o, tmp;
	struct sluice_tagger_in *in;
	struct sluice_routes r, r2;
	struct sluice_graph g;
	uint64_t i;

	ring4(&g, &r);
	if (assign(&g, &r, SLUICE_TAGGER_GREEDY, &t) ||
	    sluice_tagger_tables_build(&g, &r, &t, &tab, err, sizeof(err)))
		abort();
	/* s0's egress to s1 (link 0) at tag 1 climbs: make it stay */
	o = out_entry(&tab, 0, 0, 1);
	if (!KTAP_EXPECT(o && o->cls == 1 && o->new_tag == 2))
		goto out;
	o->cls = 0;
	KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &tab, &res, err,
					    sizeof(err)), 0);
	KTAP_EXPECT(!res.ok && !res.consistent);
	KTAP_EXPECT_STR(res.problem, "path 2 of s3 s1, hop 1: queued in class 0 at s0 but charged to priority 1 at s1: a pause would stop the wrong queue");
	sluice_tagger_check_free(&res);
	/* ... and its new tag too: consistent, but the cycle is back */
	o->new_tag = 1;
	KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &tab, &res, err,
					    sizeof(err)), 0);
	KTAP_EXPECT(!res.ok && res.consistent && !res.cbd.cbd_free);
	KTAP_EXPECT_INT(res.cbd.n_cycle, 4);
	KTAP_EXPECT(witness_ok(&g, &r, &res.cbd));
	/* s1's "in 0 2 1" is no longer used */
	KTAP_EXPECT_INT(res.entries_unused, 1);
	sluice_tagger_check_free(&res);
	o->cls = 1;
	o->new_tag = 2;
	/* a missing ingress entry: s1 from s0 at tag 2, now tag 3 */
	in = in_entry(&tab, 1, 0, 2);
	if (!KTAP_EXPECT(in))
		goto out;
	in->tag = 3;
	KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &tab, &res, err,
					    sizeof(err)), 0);
	KTAP_EXPECT(!res.ok && !res.consistent);
	KTAP_EXPECT_STR(res.problem, "path 2 of s3 s1, hop 1: s1 has no ingress entry for port 0 (to s0), tag 2");
	sluice_tagger_check_free(&res);
	in->tag = 2;
	/* a missing egress entry: s0 to s3 (link 3) at tag 1, now tag 2 */
	o = out_entry(&tab, 0, 3, 1);
	if (!KTAP_EXPECT(o))
		goto out;
	o->tag = 2;
	KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &tab, &res, err,
					    sizeof(err)), 0);
	KTAP_EXPECT(!res.ok && !res.consistent);
	KTAP_EXPECT_STR(res.problem, "path 1 of s1 s3, hop 1: s0 has no egress entry for port 3 (to s3), tag 1");
	sluice_tagger_check_free(&res);
	o->tag = 1;
	/* tables out of order are malformed, not merely unsafe */
	i = tab.out_off[2];
	tmp = tab.out[i];
	tab.out[i] = tab.out[i + 1];
	tab.out[i + 1] = tmp;
	KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &tab, &res, err,
					    sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "node s2: egress entry for port 1 (to s1), tag 0: out of order");
	tab.out[i + 1] = tab.out[i];
	tab.out[i] = tmp;
	KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &tab, &res, err,
					    sizeof(err)), 0);
	KTAP_EXPECT(res.ok);
	sluice_tagger_check_free(&res);
	/* other routes */
	if (!compute(&g, SLUICE_ROUTE_ECMP, 1, &r2)) {
		KTAP_EXPECT_INT(sluice_tagger_check(&g, &r2, &tab, &res, err,
						    sizeof(err)), -EINVAL);
		{
			static const char want[] = "the tag tables belong to other routes (12 pairs, 16 paths, 24 hops, hash a5ec95c3308affba; these have 12, 12, 16, ";

			KTAP_EXPECT(!strncmp(err, want, strlen(want)));
		}
		sluice_routes_free(&r2);
	}
	/* all at one priority: the ring's own CBD, found and witnessed */
	memset(t.prio, 0, t.n_hops);
	sluice_tagger_tables_free(&tab);
	if (!sluice_tagger_tables_build(&g, &r, &t, &tab, err, sizeof(err))) {
		KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &tab, &res, err,
						    sizeof(err)), 0);
		KTAP_EXPECT(res.consistent && !res.ok && !res.cbd.cbd_free);
		KTAP_EXPECT(witness_ok(&g, &r, &res.cbd));
		KTAP_EXPECT(!naive_cbd_free(&g, &r, t.prio));
		sluice_tagger_check_free(&res);
	}
out:
	sluice_tagger_tables_free(&tab);
	sluice_tagging_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("check: wrong queue, cycle with witness, missing entry, bad tables, other routes");
}

static void test_check_random(void)
{
	uint32_t inst, agree = 0, cyclic = 0, cases = 0;
	struct sluice_tagger_tables tab;
	struct sluice_tagger_check res;
	struct sluice_tagging t;
	struct sluice_routes r;
	struct sluice_graph g;
	struct sluice_rng rng;
	uint8_t F[64][SLUICE_LANES_MAX + 1];
	uint64_t p, q, k;

	/* random tables F(link direction, context): the check vs naive */
	sluice_rng_seed(&rng, 7);
	for (inst = 0; inst < 40; inst++) {
		if (sluice_topo_jellyfish(&g, 10, 3, 1, inst + 1, err,
					  sizeof(err)) ||
		    compute(&g, inst % 2 ? SLUICE_ROUTE_KSP :
			    SLUICE_ROUTE_ECMP, 3, &r))
			abort();
		for (k = 0; k < 64; k++)
			for (p = 0; p <= SLUICE_LANES_MAX; p++)
				F[k][p] = sluice_rng_below(&rng, 4) ? 0 : 1;
		t.mode = SLUICE_TAGGER_GREEDY;
		t.n_hops = r.n_hops;
		t.prio = calloc(r.n_hops, 1);
		for (p = 0; p < r.n_pairs; p++)
			for (q = r.pair_path[p]; q < r.pair_path[p + 1]; q++) {
				uint32_t v = r.pair_src[p], prev = 0;

				for (k = r.path_hop[q]; k < r.path_hop[q + 1]; k++) {
					uint32_t l = r.hops[k];
					uint32_t to = g.links[l].a == v ?
						      g.links[l].b : g.links[l].a;
					uint32_t d = 2 * l + (to == g.links[l].b);
					uint32_t ctx = k == r.path_hop[q] ? 0 :
						       prev + 1;

					prev = (k == r.path_hop[q] ? 0 : prev) +
					       F[d][ctx];
					if (prev >= SLUICE_LANES_MAX)
						prev = SLUICE_LANES_MAX - 1;
					t.prio[k] = prev;
					v = to;
				}
			}
		if (sluice_tagger_tables_build(&g, &r, &t, &tab, err,
					       sizeof(err))) {
			ktap_diag("random tables: %s", err);
		} else if (!sluice_tagger_check(&g, &r, &tab, &res, err,
						sizeof(err))) {
			cases++;
			agree += res.consistent &&
				 res.cbd.cbd_free == naive_cbd_free(&g, &r, t.prio) &&
				 (res.cbd.cbd_free || witness_ok(&g, &r, &res.cbd));
			cyclic += !res.cbd.cbd_free;
			sluice_tagger_check_free(&res);
		}
		sluice_tagger_tables_free(&tab);
		free(t.prio);
		sluice_routes_free(&r);
		sluice_graph_free(&g);
	}
	KTAP_EXPECT_INT(cases, 40);
	KTAP_EXPECT_INT(agree, cases);
	/* both verdicts occur */
	KTAP_EXPECT(cyclic > 0 && cyclic < cases);
	ktap_result("check against a naive per-priority cycle search on 40 random tables");
}

/*
 * A chain A - B - C - D and a bounce: A B C D C B turns back at D, so it
 * crosses B -> C and C -> B, and enters C twice.  Depth mode by hand:
 * each hop at the hops still to go, C's tables entry by entry, the check
 * and the dependency graph per priority clean, the file read back.
 */
static void test_depth_bounce(void)
{
	/* pairs A B, A C, B A, C A, D B, in that order */
	static const uint8_t want[12] = {
		4, 3, 2, 1, 0,	1, 0,	0,	1, 0,	1, 0,
	};
	static const char c_section[] =
		"node C hosts 1 ports 2 ingress 4 egress 4\n"
		"port 1 B\nport 2 D\n"
		"in 1 0 1\n"	/* A C delivered, charged to 1 (tagger.h) */
		"in 1 2 3\n"	/* the bounce's first visit: on to D */
		"in 2 0 1\n"	/* the bounce's second, and D B: on to B */
		"in host 1 0\n"	/* C A from its host */
		"out 1 0 0 0\n"
		"out 1 1 1 1\n"
		"out 2 2 2 2\n"
		"out host 0 0 0\n";
	struct sluice_tagger_tables tab, back;
	struct sluice_tagger_check res;
	struct sluice_tagger_out *o;
	struct sluice_tagger_in *in;
	struct sluice_tagging t, tt;
	struct sluice_routes r;
	struct sluice_graph g;
	struct spec s[5];
	char *text, *again;

	if (letters_graph(&g, 4, "AB BC CD"))
		abort();
	s[0] = walk(&g, "ABCDCB");
	s[1] = walk(&g, "ABC");
	s[2] = walk(&g, "BA");
	s[3] = walk(&g, "CBA");
	s[4] = walk(&g, "DCB");
	build_routes(&r, &g, s, 5);
	if (assign(&g, &r, SLUICE_TAGGER_DEPTH, &t))
		abort();
	KTAP_EXPECT_INT(t.mode, SLUICE_TAGGER_DEPTH);
	KTAP_EXPECT_INT(t.priorities, 5);
	KTAP_EXPECT_INT(r.n_hops, 12);
	KTAP_EXPECT(!memcmp(t.prio, want, sizeof(want)));
	KTAP_EXPECT(tagging_safe(&g, &r, &t));
	/* ttl on the same routes: the same count, the other way round */
	if (!assign(&g, &r, SLUICE_TAGGER_TTL, &tt)) {
		KTAP_EXPECT_INT(tt.priorities, 5);
		KTAP_EXPECT_INT(tt.prio[0] + t.prio[0], 4);
		KTAP_EXPECT_INT(tt.prio[4] + t.prio[4], 4);
		sluice_tagging_free(&tt);
	}
	if (sluice_tagger_tables_build(&g, &r, &t, &tab, err, sizeof(err))) {
		ktap_diag("build: %s", err);
		KTAP_EXPECT(false);
		goto out;
	}
	KTAP_EXPECT_INT(tab.mode, SLUICE_TAGGER_DEPTH);
	KTAP_EXPECT_INT(tab.priorities, 5);
	KTAP_EXPECT_INT(tab.tags, 5);
	text = file_text(&tab, &g, NULL);
	KTAP_EXPECT(text && strstr(text, "\nmode depth priorities 5 tags 5\n"));
	KTAP_EXPECT(text && strstr(text, c_section));
	/* read back: the same tables, the same bytes, still safe */
	if (text && !read_text(&back, &g, text, NULL)) {
		again = file_text(&back, &g, NULL);
		KTAP_EXPECT_STR(again, text);
		free(again);
		KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &back, &res, err,
						    sizeof(err)), 0);
		KTAP_EXPECT(res.ok && res.consistent && res.cbd.cbd_free);
		KTAP_EXPECT_INT(res.priorities, 5);
		sluice_tagger_check_free(&res);
		sluice_tagger_tables_free(&back);
	} else {
		ktap_diag("read: %s", err);
		KTAP_EXPECT(false);
	}
	free(text);

	/* a rewritten depth: the switch cannot do that */
	o = out_entry(&tab, 2, 2, 2);
	if (KTAP_EXPECT(o && o->cls == 2 && o->new_tag == 2)) {
		o->new_tag = 3;
		KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &tab, &res, err,
						    sizeof(err)), 0);
		KTAP_EXPECT(!res.ok && !res.consistent);
		KTAP_EXPECT_STR(res.problem, "path 1 of A B, hop 2: C's egress entry for port 2 (to D), tag 2 writes tag 3: the label stack's depth is not rewritten");
		sluice_tagger_check_free(&res);
		/* a class that does not go down */
		o->new_tag = 2;
		o->cls = 3;
		KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &tab, &res, err,
						    sizeof(err)), 0);
		KTAP_EXPECT(!res.ok && !res.consistent);
		KTAP_EXPECT_STR(res.problem, "path 1 of A B, hop 2: priority 3 after 3 at C: in depth mode priorities must decrease along a path");
		sluice_tagger_check_free(&res);
		o->cls = 2;
	}
	/* a wrong charge: D charges the bounce's frames to 0, not 2 */
	in = in_entry(&tab, 3, 2, 1);
	if (KTAP_EXPECT(in && in->prio == 2)) {
		in->prio = 0;
		KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &tab, &res, err,
						    sizeof(err)), 0);
		KTAP_EXPECT(!res.ok && !res.consistent);
		KTAP_EXPECT_STR(res.problem, "path 1 of A B, hop 3: charged to priority 0 at D, not 2 (queued in class 2 at C)");
		sluice_tagger_check_free(&res);
		in->prio = 2;
	}
	KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &tab, &res, err,
					    sizeof(err)), 0);
	KTAP_EXPECT(res.ok);
	sluice_tagger_check_free(&res);
	sluice_tagger_tables_free(&tab);

	/* depth tables of ttl's priorities: the depth says otherwise */
	memcpy(t.prio, (const uint8_t[]){ 0, 1, 2, 3, 4 }, 5);
	KTAP_EXPECT_INT(sluice_tagger_tables_build(&g, &r, &t, &tab, err,
						   sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "path 1 of A B, hop 0: priority 0, but in depth mode a hop's priority is its tag, the 4 hops still to go after it");
out:
	sluice_tagging_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("depth: a bounce by hand, its tables, the check's findings, the file");
}

static void test_file(void)
{
	struct sluice_tagger_tables tab, back;
	struct sluice_tagger_stats st;
	struct sluice_graph g;
	struct sluice_routes r;
	char *text, *again, *share;
	size_t i;
	static const struct {
		const char	*from, *to, *msg;
	} bad[] = {
		{ "sluice-tags 1\n", "sluice-tag 1\n",
		  "t.tags:1: not a tag file: the first line must be \"sluice-tags 1\"" },
		{ "sluice-tags 1\n", "sluice-tags 2\n",
		  "t.tags:1: version 2: this sluicectl reads version 1" },
		{ "hash 9620bf35d2278935", "hash 9620bf35d2278936",
		  "t.tags:2: the tags belong to another topology (4 nodes, 4 links, hash 9620bf35d2278936; this one has 4, 4, 9620bf35d2278935)" },
		{ "mode greedy", "mode fast",
		  "t.tags:4: unknown mode \"fast\" (greedy, ttl or depth)" },
		{ "priorities 2 tags 3", "priorities 9 tags 3",
		  "t.tags:4: priorities 9, tags 3: at most 8 and 64" },
		{ "priorities 2 tags 3", "priorities 3 tags 3",
		  "t.tags: the header says 3 priorities and 3 tags, the entries use 2 and 3" },
		{ "node s0 hosts 0", "node s9 hosts 0",
		  "t.tags:5: \"s9\" is not a node of the topology" },
		{ "node s0 hosts 0", "node s1 hosts 0",
		  "t.tags:5: node s0: its section is missing" },
		{ "node s0 hosts 0 ports 2", "node s0 hosts 1 ports 2",
		  "t.tags:5: node s0: 1 hosts and 2 ports; the topology has 0 and 2" },
		{ "port 0 s1\n", "port 0 s2\n",
		  "t.tags:6: node s0: port 0 s2; the topology's port 0 is link 0 to s1" },
		{ "in 0 1 0\nin 3", "in 1 1 0\nin 3",
		  "t.tags:8: node s0: the port must be \"host\" or one of its links" },
		{ "in 0 1 0\nin 3", "in 0 64 0\nin 3",
		  "t.tags:8: node s0: tags are 0 to 63, priorities 0 to 7" },
		{ "in 0 1 0\nin 3", "in 0 01 0\nin 3",
		  "t.tags:8: node s0: tags are 0 to 63, priorities 0 to 7" },
		{ "in 0 1 0\nin 3", "in 0 1 2\nin 3",
		  "t.tags:8: node s0: beyond the header's 3 tags and 2 priorities" },
		{ "in 0 1 0\nin 3 1 0", "in 0 1 0\nin 0 1 0",
		  "t.tags:9: node s0: ingress entry given twice: entries go by port (links by id, host last), then tag, each once" },
		{ "out 0 1 1 2\n", "out 0 1 1 2 \n",
		  "t.tags:12: unexpected \" \" at the end of the line" },
		{ "out 0 1 1 2\n", "out 0 1 1\n",
		  "t.tags:12: node s0: the new tag must be 0 to 63" },
		{ "out host 1 0 1\nnode s1", "out host 1 0 1\nout 3 1 0 1\nnode s1",
		  "t.tags:16: expected \"node NAME hosts H ports K ingress I egress E\" or \"end\"" },
		{ "out host 1 0 1\nnode s1", "node s1",
		  "t.tags:15: expected \"out PORT TAG CLASS NEWTAG\"" },
		{ "out host 1 0 1\nend\n", "out host 1 0 1\n",
		  "t.tags:52: the file ends before \"end\": truncated?" },
		{ "end\n", "end\nend\n", "t.tags:53: something after \"end\"" },
		{ "in host 0 0\n", "in host 0 0\r\n",
		  "t.tags:10: the line ends with a carriage return (DOS line ends?)" },
	};

	if (sluice_topo_ring(&g, 4, 0, err, sizeof(err)))
		abort();
	KTAP_EXPECT_INT(read_text(&tab, &g, ring4_tags, NULL), 0);
	text = file_text(&tab, &g, NULL);
	KTAP_EXPECT_STR(text, ring4_tags);
	free(text);
	/* a share: the header, one section, "end" */
	share = file_text(&tab, &g, "s1");
	KTAP_EXPECT(share && !strncmp(share, ring4_tags, strstr(ring4_tags, "node s0") - ring4_tags));
	KTAP_EXPECT(share && strstr(share, "\nnode s1 hosts 0 ports 2 ingress 5 egress 6\n") &&
		    !strstr(share, "node s0") && !strstr(share, "node s2") &&
		    strlen(share) > 19 &&
		    !strcmp(share + strlen(share) - 19, "out host 2 1 2\nend\n"));
	/* read alone, as a node would */
	KTAP_EXPECT_INT(read_text(&back, &g, share, "s1"), 0);
	KTAP_EXPECT_INT(sluice_tagger_stats(&back, &g, &st, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(st.entries, 11);
	KTAP_EXPECT_INT(st.bottleneck, 1);
	again = file_text(&back, &g, "s1");
	KTAP_EXPECT_STR(again, share);
	free(again);
	sluice_tagger_tables_free(&back);
	/* picked out of the whole file: the same share */
	KTAP_EXPECT_INT(read_text(&back, &g, ring4_tags, "s1"), 0);
	again = file_text(&back, &g, "s1");
	KTAP_EXPECT_STR(again, share);
	free(again);
	sluice_tagger_tables_free(&back);
	/* a share is not a whole file, nor another node's share */
	KTAP_EXPECT_INT(read_text(&back, &g, share, NULL), -EINVAL);
	KTAP_EXPECT_STR(err, "t.tags:5: node s0: its section is missing");
	KTAP_EXPECT_INT(read_text(&back, &g, share, "s2"), -EINVAL);
	KTAP_EXPECT_STR(err, "t.tags:19: node s2: its section is missing");
	KTAP_EXPECT_INT(read_text(&back, &g, share, "s7"), -EINVAL);
	KTAP_EXPECT_STR(err, "no node \"s7\" in the topology");
	free(share);
	/* the tables read are those built */
	if (!compute(&g, SLUICE_ROUTE_ECMP, 0, &r)) {
		struct sluice_tagger_check res;

		KTAP_EXPECT_INT(sluice_tagger_check(&g, &r, &tab, &res, err,
						    sizeof(err)), 0);
		KTAP_EXPECT(res.ok);
		sluice_tagger_check_free(&res);
		sluice_routes_free(&r);
	}
	sluice_tagger_tables_free(&tab);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *at = strstr(ring4_tags, bad[i].from);
		char buf[2048];	/* ring4_tags is under 1 KiB */
		int n;

		if (!KTAP_EXPECT(at))
			continue;
		n = snprintf(buf, sizeof(buf), "%.*s%s%s",
			     (int)(at - ring4_tags), ring4_tags, bad[i].to,
			     at + strlen(bad[i].from));
		if (!KTAP_EXPECT(n > 0 && (size_t)n < sizeof(buf)))
			continue;
		KTAP_EXPECT_INT(read_text(&tab, &g, buf, NULL), -EINVAL);
		KTAP_EXPECT_STR(err, bad[i].msg);
	}
	KTAP_EXPECT_INT(read_text(&tab, &g, "", NULL), -EINVAL);
	KTAP_EXPECT_STR(err, "t.tags: the file is empty");
	/* cut short in a line: the file says so, not only what the line lacks */
	{
		const char *at = strstr(ring4_tags, "in 3 1 0\n");
		char buf[2048];

		if (KTAP_EXPECT(at)) {
			snprintf(buf, sizeof(buf), "%.*sin ",
				 (int)(at - ring4_tags), ring4_tags);
			KTAP_EXPECT_INT(read_text(&tab, &g, buf, NULL), -EINVAL);
			KTAP_EXPECT_STR(err, "t.tags:9: the file ends in the middle of the line: truncated? (node s0: the port must be \"host\" or one of its links)");
		}
	}
	sluice_graph_free(&g);
	ktap_result("tag file: round trip, shares, %zu malformed files named by line",
		    ARRAY_SIZE(bad));
}

static void test_limits(void)
{
	struct sluice_tagger_opts o = { .mode = SLUICE_TAGGER_GREEDY,
					.max_priorities = 1 };
	struct sluice_tagging t;
	struct sluice_routes r, half;
	struct sluice_graph g;

	ring4(&g, &r);
	KTAP_EXPECT_INT(sluice_tagger_assign(&g, &r, &o, &t, err, sizeof(err)),
			-ERANGE);
	KTAP_EXPECT_STR(err, "greedy: 2 path tails still need a priority after 1 priorities (the most allowed)");
	o.mode = SLUICE_TAGGER_TTL;
	KTAP_EXPECT_INT(sluice_tagger_assign(&g, &r, &o, &t, err, sizeof(err)),
			-ERANGE);
	KTAP_EXPECT_STR(err, "ttl: path 1 of s0 s2 has 2 hops, more than the 1 priorities allowed");
	o.mode = SLUICE_TAGGER_DEPTH;
	KTAP_EXPECT_INT(sluice_tagger_assign(&g, &r, &o, &t, err, sizeof(err)),
			-ERANGE);
	KTAP_EXPECT_STR(err, "depth: path 1 of s0 s2 has 2 hops, more than the 1 priorities allowed");
	o.max_priorities = 9;
	KTAP_EXPECT_INT(sluice_tagger_assign(&g, &r, &o, &t, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "at most 8 priorities, not 9");
	o.max_priorities = 0;
	o.mode = 7;
	KTAP_EXPECT_INT(sluice_tagger_assign(&g, &r, &o, &t, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "unknown mode 7");
	/* a shard is half a route set */
	o.mode = SLUICE_TAGGER_GREEDY;
	{
		struct sluice_route_opts ro = { .algo = SLUICE_ROUTE_ECMP };
		struct sluice_compute_opts c = { .threads = 1,
						 .shard_index = 0,
						 .shard_count = 2 };

		if (!sluice_routes_compute(&g, &ro, &c, &half, err,
					   sizeof(err))) {
			KTAP_EXPECT_INT(sluice_tagger_assign(&g, &half, &o, &t,
							     err, sizeof(err)),
					-EINVAL);
			KTAP_EXPECT_STR(err, "routes: shard 0/2 is part of a route set: tag the whole set (sluicectl route merge)");
			sluice_routes_free(&half);
		}
	}
	/* routes of another topology */
	r.topo_hash ^= 1;
	KTAP_EXPECT_INT(sluice_tagger_assign(&g, &r, &o, &t, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT(!strncmp(err, "routes: the routes were computed for another topology", 53));
	r.topo_hash ^= 1;
	KTAP_EXPECT_STR(sluice_tagger_mode_name(SLUICE_TAGGER_TTL), "ttl");
	KTAP_EXPECT_INT(sluice_tagger_mode_parse("greedy"), SLUICE_TAGGER_GREEDY);
	KTAP_EXPECT_STR(sluice_tagger_mode_name(SLUICE_TAGGER_DEPTH), "depth");
	KTAP_EXPECT_INT(sluice_tagger_mode_parse("depth"), SLUICE_TAGGER_DEPTH);
	KTAP_EXPECT_INT(sluice_tagger_mode_parse("Greedy"), -EINVAL);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("limits: too few priorities, bad options, shards, other topologies");
}

/* What a progress callback was told. */
struct heard {
	uint32_t	calls, last_done, total;
	bool		backwards, past, total_changed;
	uint32_t	ends;		/* calls with done == total */
};

static void hear(void *arg, uint32_t done, uint32_t total)
{
	struct heard *h = arg;

	if (h->calls && total != h->total)
		h->total_changed = true;
	if (h->calls && done < h->last_done)
		h->backwards = true;
	if (done > total)
		h->past = true;
	h->ends += done == total;
	h->last_done = done;
	h->total = total;
	h->calls++;
}

/*
 * sluice_tagger_compute(): the same tables as assign and build one after
 * the other, in every mode; each step's progress goes forward, over its
 * own total (hops, paths), at most once per 4096 units and once more at
 * the end, and says the end once.
 */
static void test_compute_progress(void)
{
	static const enum sluice_tagger_mode modes[] = {
		SLUICE_TAGGER_GREEDY, SLUICE_TAGGER_TTL, SLUICE_TAGGER_DEPTH,
	};
	struct sluice_tagger_tables tab, tab2;
	struct sluice_tagging t, t2;
	struct sluice_routes r;
	struct sluice_graph g;
	char *a, *b;
	size_t alen, blen;
	FILE *fa, *fb;
	uint32_t i;

	if (sluice_topo_jellyfish(&g, 40, 5, 1, 3, err, sizeof(err)) ||
	    compute(&g, SLUICE_ROUTE_KSP, 4, &r))
		abort();
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		struct heard ha = { 0 }, hb = { 0 };
		struct sluice_tagger_opts o = {
			.mode = modes[i], .progress = hear, .progress_arg = &ha,
			.tables_progress = hear, .tables_progress_arg = &hb,
		};

		KTAP_EXPECT_INT(sluice_tagger_compute(&g, &r, &o, &t, &tab, err,
						      sizeof(err)), 0);
		o.progress = o.tables_progress = NULL;
		KTAP_EXPECT_INT(sluice_tagger_assign(&g, &r, &o, &t2, err,
						     sizeof(err)), 0);
		KTAP_EXPECT_INT(sluice_tagger_tables_build(&g, &r, &t2, &tab2,
							   err, sizeof(err)), 0);
		KTAP_EXPECT(t.n_hops == t2.n_hops &&
			    !memcmp(t.prio, t2.prio, t.n_hops));
		fa = open_memstream(&a, &alen);
		fb = open_memstream(&b, &blen);
		KTAP_EXPECT_INT(sluice_tagger_write(&tab, &g, fa, NULL, err,
						    sizeof(err)), 0);
		KTAP_EXPECT_INT(sluice_tagger_write(&tab2, &g, fb, NULL, err,
						    sizeof(err)), 0);
		fclose(fa);
		fclose(fb);
		KTAP_EXPECT(alen == blen && !memcmp(a, b, alen));
		free(a);
		free(b);
		KTAP_EXPECT(ha.total == r.n_hops && hb.total == r.n_paths);
		KTAP_EXPECT(ha.ends == 1 && hb.ends == 1);
		KTAP_EXPECT(ha.last_done == ha.total &&
			    hb.last_done == hb.total);
		KTAP_EXPECT(!ha.backwards && !hb.backwards && !ha.past &&
			    !hb.past && !ha.total_changed &&
			    !hb.total_changed);
		KTAP_EXPECT(ha.calls >= 2 && hb.calls >= 2);
		/* greedy may place a tail again at the next priority */
		KTAP_EXPECT(hb.calls <= r.n_paths / 4096 + 2);
		if (modes[i] != SLUICE_TAGGER_GREEDY)
			KTAP_EXPECT(ha.calls <= r.n_hops / 4096 + 2);
		sluice_tagging_free(&t);
		sluice_tagging_free(&t2);
		sluice_tagger_tables_free(&tab);
		sluice_tagger_tables_free(&tab2);
	}
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("compute: assign and build in one, their progress");
}

static void (*const tests[])(void) = {
	test_ring4_greedy,
	test_ring4_ttl,
	test_brute_force_ring,
	test_brute_force,
	test_routing,
	test_build_refuses,
	test_check_finds,
	test_check_random,
	test_depth_bounce,
	test_file,
	test_limits,
	test_compute_progress,
};

int main(void)
{
	size_t i;

	ktap_plan(ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
