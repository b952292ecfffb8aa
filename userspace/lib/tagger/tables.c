// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tagger's tables (sluice/tagger.h): built from the priority of every hop,
 * and checked against the routes they were built for.
 *
 * Both go through a lookup table indexed by adjacency entry (graph.h's
 * CSR: a node's end of a link, i.e. a port) and tag, plus one row per node
 * for its hosts: a walk along a path then costs O(1) per hop, with no
 * search of the sorted entry lists.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/tagger.h>
#include "graph/internal.h"
#include "tagger/internal.h"

#define NONE32		UINT32_MAX
/* A lookup byte: value + 1 in the low bits (0: no entry), used flag. */
#define USED		0x80
#define VALUE		0x7f

/*
 * (port, tag) -> value for every port of every node.  Port e < n_adj is
 * adjacency entry e, port n_adj + v node v's hosts.
 */
struct lut {
	uint32_t	n_adj;
	uint32_t	stride;		/* tag values */
	uint8_t		*in;		/* ingress priority */
	uint8_t		*cls;		/* egress class */
	uint8_t		*new_tag;	/* egress new tag, as is */
};

static int lut_init(struct lut *t, const struct sluice_graph *g,
		    uint32_t stride)
{
	uint64_t n = (uint64_t)(2 * g->n_links + g->n_nodes) * stride;

	t->n_adj = 2 * g->n_links;
	t->stride = stride;
	t->in = sluice_i_calloc(n ? n : 1, 1);
	t->cls = sluice_i_calloc(n ? n : 1, 1);
	t->new_tag = sluice_i_calloc(n ? n : 1, 1);
	return t->in && t->cls && t->new_tag ? 0 : -ENOMEM;
}

static void lut_free(struct lut *t)
{
	free(t->in);
	free(t->cls);
	free(t->new_tag);
}

static inline uint64_t lut_at(const struct lut *t, uint32_t port,
			      uint32_t tag)
{
	return (uint64_t)port * t->stride + tag;
}

/* The adjacency entry of link @l at node @v (an end of it). */
static uint32_t entry_of(const struct sluice_graph *g, uint32_t v, uint32_t l)
{
	uint32_t lo = g->off[v], hi = g->off[v + 1], mid;

	/* a node's entries are in link id order */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->adj[mid].link < l)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static inline uint32_t other(const struct sluice_graph *g, uint32_t l,
			     uint32_t v)
{
	return g->links[l].a == v ? g->links[l].b : g->links[l].a;
}

const char *sluice_i_tagger_port(const struct sluice_graph *g, uint32_t node,
				 uint32_t port, char *buf, size_t size)
{
	if (port == SLUICE_TAGGER_HOST)
		snprintf(buf, size, "host");
	else
		snprintf(buf, size, "%u (to %s)", port,
			 g->nodes[other(g, port, node)].name);
	return buf;
}

static int no_memory(char *err, size_t errlen)
{
	return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
}

/* "path 2 of s0 s5": path @q of pair @p as messages name it. */
static const char *path_name(const struct sluice_graph *g,
			     const struct sluice_routes *r, uint64_t p,
			     uint64_t q, char *buf, size_t size)
{
	snprintf(buf, size, "path %llu of %s %s",
		 (unsigned long long)(q - r->pair_path[p] + 1),
		 g->nodes[r->pair_src[p]].name, g->nodes[r->pair_dst[p]].name);
	return buf;
}

/* Sets an ingress byte; the value is a function of the tag, never in doubt. */
static void set_in(struct lut *t, uint32_t port, uint32_t tag, uint8_t prio)
{
	t->in[lut_at(t, port, tag)] = prio + 1;
}

/*
 * Sets an egress entry (new tag @cls + 1, or @cls itself with @keep), or
 * says why it cannot be: another path already set the same (node, port,
 * tag) to another class.
 */
static int set_out(struct lut *t, const struct sluice_graph *g,
		   const struct sluice_routes *r, uint64_t p, uint64_t q,
		   uint64_t hop, uint32_t node, uint32_t port, uint32_t tag,
		   uint8_t cls, bool keep, char *err, size_t errlen)
{
	uint64_t i = lut_at(t, port < t->n_adj ? port : t->n_adj + node, tag);
	char pn[96], po[SLUICE_NAME_MAX + 24];
	uint32_t link = port < t->n_adj ? g->adj[port].link :
					  SLUICE_TAGGER_HOST;

	if (t->cls[i] && t->cls[i] != cls + 1)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s, hop %llu: leaves %s by port %s with tag %u at priority %u, an earlier path at %u: one egress entry cannot serve both",
				     path_name(g, r, p, q, pn, sizeof(pn)),
				     (unsigned long long)hop, g->nodes[node].name,
				     sluice_i_tagger_port(g, node, link, po,
							  sizeof(po)),
				     tag, cls, t->cls[i] - 1);
	t->cls[i] = cls + 1;
	t->new_tag[i] = keep ? cls : cls + 1;
	return 0;
}

/* Fills the lookup tables from the priorities of path @q of pair @p. */
static int build_path(struct lut *t, const struct sluice_graph *g,
		      const struct sluice_routes *r, const uint8_t *prio,
		      uint64_t p, uint64_t q, char *err, size_t errlen)
{
	uint32_t v = r->pair_src[p], w, l, tag = 0;
	uint64_t k, h0 = r->path_hop[q];
	uint8_t prev = 0;
	char pn[96];
	int ret;

	set_in(t, t->n_adj + v, 0, 0);
	for (k = h0; k < r->path_hop[q + 1]; k++) {
		l = r->hops[k];
		w = other(g, l, v);
		if (prio[k] >= SLUICE_LANES_MAX)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "%s, hop %llu: priority %u is not below %d",
					     path_name(g, r, p, q, pn, sizeof(pn)),
					     (unsigned long long)(k - h0), prio[k],
					     SLUICE_LANES_MAX);
		if (k > h0 && prio[k] < prev)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "%s, hop %llu: priority %u after %u: priorities must not decrease along a path",
					     path_name(g, r, p, q, pn, sizeof(pn)),
					     (unsigned long long)(k - h0), prio[k],
					     prev);
		ret = set_out(t, g, r, p, q, k - h0, v, entry_of(g, v, l), tag,
			      prio[k], false, err, errlen);
		if (ret)
			return ret;
		prev = prio[k];
		tag = prev + 1;
		set_in(t, entry_of(g, w, l), tag, prev);
		v = w;
	}
	/* to the destination's hosts: the last hop's priority, same tag */
	return set_out(t, g, r, p, q, k - h0, v, t->n_adj + v, tag, prev, false,
		       err, errlen);
}

/*
 * Depth mode (tagger.h): entries keyed by the tag a frame leaves with,
 * the label stack's depth, which the routes fix at the hops still to go:
 * the priority must be that, and so decreases by one per hop.
 */
static int build_path_depth(struct lut *t, const struct sluice_graph *g,
			    const struct sluice_routes *r, const uint8_t *prio,
			    uint64_t p, uint64_t q, char *err, size_t errlen)
{
	uint32_t v = r->pair_src[p], w, l, in = t->n_adj + v;
	uint64_t k, h0 = r->path_hop[q], end = r->path_hop[q + 1];
	char pn[96];
	int ret;

	for (k = h0; k < end; k++) {
		l = r->hops[k];
		w = other(g, l, v);
		if (prio[k] != end - 1 - k)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "%s, hop %llu: priority %u, but in depth mode a hop's priority is its tag, the %llu hops still to go after it",
					     path_name(g, r, p, q, pn, sizeof(pn)),
					     (unsigned long long)(k - h0), prio[k],
					     (unsigned long long)(end - 1 - k));
		/* charged to the priority it crossed the hop before at */
		set_in(t, in, prio[k], k > h0 ? prio[k] + 1 : 0);
		ret = set_out(t, g, r, p, q, k - h0, v, entry_of(g, v, l),
			      prio[k], prio[k], true, err, errlen);
		if (ret)
			return ret;
		in = entry_of(g, w, l);
		v = w;
	}
	/* delivered with depth 0: charged to 1, tagger.h says why */
	set_in(t, in, 0, 1);
	return set_out(t, g, r, p, q, k - h0, v, t->n_adj + v, 0, 0, true, err,
		       errlen);
}

/* Counts, allocates and fills @tab's entry lists from the lookup tables. */
static int emit(struct sluice_tagger_tables *tab, const struct sluice_graph *g,
		const struct lut *t)
{
	uint64_t ni = 0, no = 0, i;
	uint32_t v, e, tag, port;
	int pass;

	tab->in_off = sluice_i_calloc(g->n_nodes + 1, sizeof(*tab->in_off));
	tab->out_off = sluice_i_calloc(g->n_nodes + 1, sizeof(*tab->out_off));
	if (!tab->in_off || !tab->out_off)
		return -ENOMEM;
	/* the first pass counts, the second fills */
	for (pass = 0; pass < 2; pass++) {
		ni = 0;
		no = 0;
		for (v = 0; v < g->n_nodes; v++) {
			tab->in_off[v] = ni;
			tab->out_off[v] = no;
			/* links in id order, then the hosts */
			for (e = g->off[v]; e <= g->off[v + 1]; e++) {
				port = e < g->off[v + 1] ? e : t->n_adj + v;
				for (tag = 0; tag < t->stride; tag++) {
					i = lut_at(t, port, tag);
					if (t->in[i] && pass) {
						tab->in[ni].port = e < g->off[v + 1] ?
							g->adj[e].link :
							SLUICE_TAGGER_HOST;
						tab->in[ni].tag = tag;
						tab->in[ni].prio = t->in[i] - 1;
					}
					ni += !!t->in[i];
					if (t->cls[i] && pass) {
						tab->out[no].port = e < g->off[v + 1] ?
							g->adj[e].link :
							SLUICE_TAGGER_HOST;
						tab->out[no].tag = tag;
						tab->out[no].cls = t->cls[i] - 1;
						tab->out[no].new_tag = t->new_tag[i];
					}
					no += !!t->cls[i];
				}
			}
		}
		tab->in_off[g->n_nodes] = ni;
		tab->out_off[g->n_nodes] = no;
		if (!pass) {
			tab->in = sluice_i_calloc(ni ? ni : 1, sizeof(*tab->in));
			tab->out = sluice_i_calloc(no ? no : 1,
						   sizeof(*tab->out));
			if (!tab->in || !tab->out)
				return -ENOMEM;
		}
	}
	return 0;
}

/* The route set's identity, into the tables' header fields. */
static void set_routes(struct sluice_tagger_tables *tab,
		       const struct sluice_graph *g,
		       const struct sluice_routes *r)
{
	tab->n_nodes = g->n_nodes;
	tab->n_links = g->n_links;
	tab->topo_hash = sluice_graph_hash(g);
	memcpy(tab->algo, r->algo, sizeof(tab->algo));
	tab->algo[sizeof(tab->algo) - 1] = '\0';
	tab->n_pairs = r->n_pairs;
	tab->n_paths = r->n_paths;
	tab->n_hops = r->n_hops;
	tab->routes_hash = sluice_tagger_routes_hash(r);
}

/**
 * sluice_tagger_tables_build() - the tables that give every hop its priority
 * @g:		the finalized topology
 * @r:		a whole, valid route set of @g
 * @t:		a priority for every hop of @r (sluice_tagger_assign(), or
 *		any other assignment)
 * @tab:	filled; free with sluice_tagger_tables_free(), even on an
 *		error
 * @err:	a message on an error
 * @errlen:	its size
 *
 * Walks every path from its source's hosts (tag 0) and writes the entries
 * of tagger.h: at each node the path leaves, egress (out port, tag it came
 * with) -> (its priority there, that + 1); at each node it enters,
 * ingress (in port, tag) -> tag - 1; the hosts' ingress (host, 0) -> 0 at
 * its source and egress (host, tag) -> (tag - 1, tag) at its destination.
 * Only pairs some path uses become entries.
 *
 * Return: 0; -EINVAL when the priorities cannot be tables: a priority of 8
 * or more, one that decreases along a path, or two paths that would need
 * different egress entries for the same (node, out port, tag) (the error
 * names the second); -ENOMEM.
 */
int sluice_tagger_tables_build(const struct sluice_graph *g,
			       const struct sluice_routes *r,
			       const struct sluice_tagging *t,
			       struct sluice_tagger_tables *tab,
			       char *err, size_t errlen)
{
	return sluice_i_tagger_tables_build(g, r, t, tab, NULL, err, errlen);
}

int sluice_i_tagger_tables_build(const struct sluice_graph *g,
				 const struct sluice_routes *r,
				 const struct sluice_tagging *t,
				 struct sluice_tagger_tables *tab,
				 struct sluice_i_progress *pr,
				 char *err, size_t errlen)
{
	struct lut lut = { 0 };
	uint32_t prios = 0;
	uint64_t p, q, k;
	bool depth;
	int ret;

	memset(tab, 0, sizeof(*tab));
	ret = sluice_i_tagger_routes_ok(g, r, err, errlen);
	if (ret)
		return ret;
	if (t->n_hops != r->n_hops)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the tagging has %llu hops, the routes %llu",
				     (unsigned long long)t->n_hops,
				     (unsigned long long)r->n_hops);
	if ((unsigned int)t->mode >= SLUICE_TAGGER__COUNT)
		return sluice_i_errf(err, errlen, -EINVAL, "unknown mode %d",
				     t->mode);
	for (k = 0; k < r->n_hops; k++)
		if (t->prio[k] >= prios)
			prios = t->prio[k] + 1;
	if (prios > SLUICE_LANES_MAX)
		prios = SLUICE_LANES_MAX;	/* build_path() says where */
	depth = t->mode == SLUICE_TAGGER_DEPTH;
	/* depth: a delivered frame's charge is 1, also on one-hop paths */
	if (depth && r->n_hops && prios < 2)
		prios = 2;
	ret = lut_init(&lut, g, prios + 1);
	if (ret)
		goto out;
	for (p = 0; p < r->n_pairs && !ret; p++) {
		for (q = r->pair_path[p]; q < r->pair_path[p + 1] && !ret; q++)
			ret = depth ? build_path_depth(&lut, g, r, t->prio, p, q,
						       err, errlen) :
				      build_path(&lut, g, r, t->prio, p, q, err,
						 errlen);
		if (pr)
			sluice_i_progress_report(pr, r->pair_path[p + 1]);
	}
	if (ret)
		goto out;
	ret = emit(tab, g, &lut);
	if (ret)
		goto out;
	tab->mode = t->mode;
	set_routes(tab, g, r);
	/* what the entries use, which is what the paths use */
	tab->priorities = r->n_hops ? prios : 0;
	tab->tags = 0;
	for (k = 0; k < tab->out_off[g->n_nodes]; k++)
		if (tab->out[k].tag >= tab->tags)
			tab->tags = tab->out[k].tag + 1;
	if (!depth && r->n_hops)
		tab->tags = prios + 1;
out:
	if (ret == -ENOMEM)
		ret = no_memory(err, errlen);
	lut_free(&lut);
	if (ret)
		sluice_tagger_tables_free(tab);
	return ret;
}

/**
 * sluice_tagger_tables_free() - free a table set's entries
 * @tab:	built or read; left zeroed
 */
void sluice_tagger_tables_free(struct sluice_tagger_tables *tab)
{
	free(tab->in_off);
	free(tab->in);
	free(tab->out_off);
	free(tab->out);
	memset(tab, 0, sizeof(*tab));
}

/* Does node @v have link @port? */
static bool has_port(const struct sluice_graph *g, uint32_t v, uint32_t port)
{
	uint32_t e;

	if (port >= g->n_links)
		return false;
	e = entry_of(g, v, port);
	return e < g->off[v + 1] && g->adj[e].link == port;
}

int sluice_i_tagger_tables_ok(const struct sluice_tagger_tables *tab,
			      const struct sluice_graph *g,
			      char *err, size_t errlen)
{
	uint64_t i, prev;
	uint32_t v;
	char po[SLUICE_NAME_MAX + 24];

	if (tab->n_nodes != g->n_nodes || tab->n_links != g->n_links ||
	    tab->topo_hash != sluice_graph_hash(g))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the tag tables belong to another topology (%u nodes, %u links, hash %016llx; this one has %u, %u, %016llx)",
				     tab->n_nodes, tab->n_links,
				     (unsigned long long)tab->topo_hash,
				     g->n_nodes, g->n_links,
				     (unsigned long long)sluice_graph_hash(g));
	if ((unsigned int)tab->mode >= SLUICE_TAGGER__COUNT)
		return sluice_i_errf(err, errlen, -EINVAL, "unknown mode %d",
				     tab->mode);
	if (!tab->in_off || !tab->out_off)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the tag tables have no entry lists");
	if (tab->in_off[0] || tab->out_off[0])
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the entry offsets do not start at 0");
	for (v = 0; v < g->n_nodes; v++) {
		const char *name = g->nodes[v].name;

		if (tab->in_off[v + 1] < tab->in_off[v] ||
		    tab->out_off[v + 1] < tab->out_off[v])
			return sluice_i_errf(err, errlen, -EINVAL,
					     "node %s: its entry offsets go backwards",
					     name);
		prev = UINT64_MAX;
		for (i = tab->in_off[v]; i < tab->in_off[v + 1]; i++) {
			const struct sluice_tagger_in *e = &tab->in[i];
			uint64_t key = (uint64_t)e->port << 8 | e->tag;

			if (e->port != SLUICE_TAGGER_HOST &&
			    !has_port(g, v, e->port))
				return sluice_i_errf(err, errlen, -EINVAL,
						     "node %s: ingress entry for port %u: not a link of %s",
						     name, e->port, name);
			sluice_i_tagger_port(g, v, e->port, po, sizeof(po));
			if (e->tag >= SLUICE_TAGGER_TAGS_MAX ||
			    e->prio >= SLUICE_LANES_MAX)
				return sluice_i_errf(err, errlen, -EINVAL,
						     "node %s: ingress entry for port %s, tag %u: tags are below %d, priorities below %d",
						     name, po, e->tag,
						     SLUICE_TAGGER_TAGS_MAX,
						     SLUICE_LANES_MAX);
			if (prev != UINT64_MAX && key <= prev)
				return sluice_i_errf(err, errlen, -EINVAL,
						     "node %s: ingress entry for port %s, tag %u: %s",
						     name, po, e->tag,
						     key == prev ? "given twice" :
						     "out of order");
			prev = key;
		}
		prev = UINT64_MAX;
		for (i = tab->out_off[v]; i < tab->out_off[v + 1]; i++) {
			const struct sluice_tagger_out *e = &tab->out[i];
			uint64_t key = (uint64_t)e->port << 8 | e->tag;

			if (e->port != SLUICE_TAGGER_HOST &&
			    !has_port(g, v, e->port))
				return sluice_i_errf(err, errlen, -EINVAL,
						     "node %s: egress entry for port %u: not a link of %s",
						     name, e->port, name);
			sluice_i_tagger_port(g, v, e->port, po, sizeof(po));
			if (e->tag >= SLUICE_TAGGER_TAGS_MAX ||
			    e->new_tag >= SLUICE_TAGGER_TAGS_MAX ||
			    e->cls >= SLUICE_LANES_MAX)
				return sluice_i_errf(err, errlen, -EINVAL,
						     "node %s: egress entry for port %s, tag %u: tags are below %d, classes below %d",
						     name, po, e->tag,
						     SLUICE_TAGGER_TAGS_MAX,
						     SLUICE_LANES_MAX);
			if (prev != UINT64_MAX && key <= prev)
				return sluice_i_errf(err, errlen, -EINVAL,
						     "node %s: egress entry for port %s, tag %u: %s",
						     name, po, e->tag,
						     key == prev ? "given twice" :
						     "out of order");
			prev = key;
		}
	}
	return 0;
}

/* The tables of @tab as lookups, over all SLUICE_TAGGER_TAGS_MAX tags. */
static int load_lut(struct lut *t, const struct sluice_tagger_tables *tab,
		    const struct sluice_graph *g)
{
	uint32_t v, port;
	uint64_t i, x;
	int ret;

	ret = lut_init(t, g, SLUICE_TAGGER_TAGS_MAX);
	if (ret)
		return ret;
	for (v = 0; v < g->n_nodes; v++) {
		for (i = tab->in_off[v]; i < tab->in_off[v + 1]; i++) {
			port = tab->in[i].port;
			port = port == SLUICE_TAGGER_HOST ? t->n_adj + v :
							    entry_of(g, v, port);
			t->in[lut_at(t, port, tab->in[i].tag)] =
				tab->in[i].prio + 1;
		}
		for (i = tab->out_off[v]; i < tab->out_off[v + 1]; i++) {
			port = tab->out[i].port;
			port = port == SLUICE_TAGGER_HOST ? t->n_adj + v :
							    entry_of(g, v, port);
			x = lut_at(t, port, tab->out[i].tag);
			t->cls[x] = tab->out[i].cls + 1;
			t->new_tag[x] = tab->out[i].new_tag;
		}
	}
	return 0;
}

/* The first inconsistency, into res->problem. */
__attribute__((format(printf, 7, 8)))
static void problem(struct sluice_tagger_check *res,
		    const struct sluice_graph *g,
		    const struct sluice_routes *r, uint64_t p, uint64_t q,
		    uint64_t hop, const char *fmt, ...)
{
	char *s = res->problem, pn[96];
	size_t size = sizeof(res->problem), n;
	va_list ap;

	n = snprintf(s, size, "%s", path_name(g, r, p, q, pn, sizeof(pn)));
	if (hop != UINT64_MAX && n < size)
		n += snprintf(s + n, size - n, ", hop %llu",
			      (unsigned long long)hop);
	if (n + 2 < size) {
		memcpy(s + n, ": ", 3);
		va_start(ap, fmt);
		vsnprintf(s + n + 2, size - n - 2, fmt, ap);
		va_end(ap);
	}
	res->consistent = false;
}

/*
 * The egress entry @x that hop @hop of path @q (at node @v, out port @l,
 * tag @tag) uses, marked used; false, with the problem in @res, if there
 * is none.
 */
static bool egress_used(struct lut *t, const struct sluice_graph *g,
			const struct sluice_routes *r, uint64_t p, uint64_t q,
			uint64_t hop, uint32_t v, uint32_t l, uint32_t tag,
			uint64_t x, struct sluice_tagger_check *res)
{
	char po[SLUICE_NAME_MAX + 24];

	if (!t->cls[x]) {
		problem(res, g, r, p, q, hop,
			"%s has no egress entry for port %s, tag %u",
			g->nodes[v].name,
			sluice_i_tagger_port(g, v, l, po, sizeof(po)), tag);
		return false;
	}
	t->cls[x] |= USED;
	return true;
}

/*
 * Walks path @q of pair @p through the lookups, marking the entries it
 * uses and writing each hop's class into @prio.  Returns false, with the
 * problem in @res, at the first entry missing or disagreeing.
 */
static bool walk(struct lut *t, const struct sluice_graph *g,
		 const struct sluice_routes *r, uint64_t p, uint64_t q,
		 uint8_t *prio, struct sluice_tagger_check *res)
{
	uint32_t v = r->pair_src[p], w, l, tag = 0, in_port;
	uint64_t k, h0 = r->path_hop[q], x;
	char po[SLUICE_NAME_MAX + 24];
	uint8_t cls, prev = 0;

	x = lut_at(t, t->n_adj + v, 0);
	if (!t->in[x]) {
		problem(res, g, r, p, q, UINT64_MAX,
			"%s has no ingress entry for its hosts' tag 0",
			g->nodes[v].name);
		return false;
	}
	t->in[x] |= USED;
	for (k = h0; k < r->path_hop[q + 1]; k++) {
		l = r->hops[k];
		w = other(g, l, v);
		x = lut_at(t, entry_of(g, v, l), tag);
		if (!egress_used(t, g, r, p, q, k - h0, v, l, tag, x, res))
			return false;
		cls = (t->cls[x] & VALUE) - 1;
		tag = t->new_tag[x];
		if (k > h0 && cls < prev) {
			problem(res, g, r, p, q, k - h0,
				"priority %u after %u at %s: priorities must not decrease along a path",
				cls, prev, g->nodes[v].name);
			return false;
		}
		in_port = entry_of(g, w, l);
		x = lut_at(t, in_port, tag);
		if (!t->in[x]) {
			problem(res, g, r, p, q, k - h0,
				"%s has no ingress entry for port %s, tag %u",
				g->nodes[w].name,
				sluice_i_tagger_port(g, w, l, po, sizeof(po)),
				tag);
			return false;
		}
		t->in[x] |= USED;
		if ((t->in[x] & VALUE) - 1 != cls) {
			problem(res, g, r, p, q, k - h0,
				"queued in class %u at %s but charged to priority %u at %s: a pause would stop the wrong queue",
				cls, g->nodes[v].name, (t->in[x] & VALUE) - 1,
				g->nodes[w].name);
			return false;
		}
		prio[k] = cls;
		prev = cls;
		v = w;
	}
	x = lut_at(t, t->n_adj + v, tag);
	if (!t->cls[x]) {
		problem(res, g, r, p, q, UINT64_MAX,
			"%s has no egress entry to its hosts for tag %u",
			g->nodes[v].name, tag);
		return false;
	}
	t->cls[x] |= USED;
	return true;
}

/*
 * walk() in depth mode (tagger.h): the tag of each hop is the depth the
 * routes' label stack has there, the hops still to go; the switch looks
 * both entries up by it, the ingress one by the port the frame came in on.
 */
static bool walk_depth(struct lut *t, const struct sluice_graph *g,
		       const struct sluice_routes *r, uint64_t p, uint64_t q,
		       uint8_t *prio, struct sluice_tagger_check *res)
{
	uint32_t v = r->pair_src[p], u = v, w, l, tag, in = t->n_adj + v;
	uint64_t k, h0 = r->path_hop[q], end = r->path_hop[q + 1], x;
	char po[SLUICE_NAME_MAX + 24];
	uint8_t cls, prev = 0, want;

	/* The tables hold SLUICE_TAGGER_TAGS_MAX tags a port: no deeper. */
	if (end - h0 > SLUICE_TAGGER_TAGS_MAX) {
		problem(res, g, r, p, q, UINT64_MAX,
			"the path has %llu hops, more than depth tags hold (%d)",
			(unsigned long long)(end - h0), SLUICE_TAGGER_TAGS_MAX);
		return false;
	}
	for (k = h0; k <= end; k++) {
		/* k == end: delivery to the destination's hosts, depth 0 */
		l = k < end ? r->hops[k] : SLUICE_TAGGER_HOST;
		tag = k < end ? end - 1 - k : 0;
		x = lut_at(t, k < end ? entry_of(g, v, l) : t->n_adj + v, tag);
		if (!egress_used(t, g, r, p, q, k < end ? k - h0 : UINT64_MAX,
				 v, l, tag, x, res))
			return false;
		cls = (t->cls[x] & VALUE) - 1;
		if (t->new_tag[x] != tag) {
			problem(res, g, r, p, q, k < end ? k - h0 : UINT64_MAX,
				"%s's egress entry for port %s, tag %u writes tag %u: the label stack's depth is not rewritten",
				g->nodes[v].name,
				sluice_i_tagger_port(g, v, l, po, sizeof(po)),
				tag, t->new_tag[x]);
			return false;
		}
		if (k < end && k > h0 && cls >= prev) {
			problem(res, g, r, p, q, k - h0,
				"priority %u after %u at %s: in depth mode priorities must decrease along a path",
				cls, prev, g->nodes[v].name);
			return false;
		}
		x = lut_at(t, in, tag);
		if (!t->in[x]) {
			problem(res, g, r, p, q, k < end ? k - h0 : UINT64_MAX,
				"%s has no ingress entry for port %s, tag %u",
				g->nodes[v].name,
				sluice_i_tagger_port(g, v, k > h0 ? r->hops[k - 1] :
						     SLUICE_TAGGER_HOST,
						     po, sizeof(po)),
				tag);
			return false;
		}
		t->in[x] |= USED;
		/* hosts' frames: 0; delivered ones: 1 (tagger.h) */
		want = k == h0 ? 0 : k == end ? 1 : prev;
		if ((t->in[x] & VALUE) - 1 != want) {
			problem(res, g, r, p, q, k < end ? k - h0 : UINT64_MAX,
				"charged to priority %u at %s, not %u (queued in class %u at %s)",
				(t->in[x] & VALUE) - 1, g->nodes[v].name, want,
				prev, g->nodes[u].name);
			return false;
		}
		if (k == end)
			break;
		prio[k] = cls;
		prev = cls;
		w = other(g, l, v);
		in = entry_of(g, w, l);
		u = v;
		v = w;
	}
	return true;
}

/*
 * The per-priority dependency check: every path cut into runs of one
 * priority, each run a path of its own on that lane, sharing @r's hops,
 * through sluice_cbd_check().  Dependencies between two priorities are
 * left out; with priorities that never decrease along a path (walk()
 * checked) they only climb and cannot be part of a cycle, nor in depth
 * mode, where they always decrease (walk_depth()) and only descend.  The cycle's
 * hops name the runs; they are mapped back to @r's paths.
 */
static int check_runs(const struct sluice_graph *g,
		      const struct sluice_routes *r, const uint8_t *prio,
		      struct sluice_cbd_result *res, char *err, size_t errlen)
{
	struct sluice_routes rr = { 0 };
	uint64_t p, q, k, n = 0, *run_path = NULL;
	uint32_t v, i;
	int ret = 0;

	for (q = 0; q < r->n_paths; q++)
		for (k = r->path_hop[q]; k < r->path_hop[q + 1]; k++)
			n += k == r->path_hop[q] || prio[k] != prio[k - 1];
	memcpy(rr.algo, r->algo, sizeof(rr.algo));
	rr.n_nodes = r->n_nodes;
	rr.n_links = r->n_links;
	rr.topo_hash = r->topo_hash;
	rr.shard_count = 1;
	rr.n_pairs = n;
	rr.n_paths = n;
	rr.n_hops = r->n_hops;
	/* read only: sluice_cbd_check() takes the set const */
	rr.hops = r->hops;
	rr.pair_src = sluice_i_calloc(n ? n : 1, sizeof(*rr.pair_src));
	rr.pair_dst = sluice_i_calloc(n ? n : 1, sizeof(*rr.pair_dst));
	rr.pair_path = sluice_i_calloc(n + 1, sizeof(*rr.pair_path));
	rr.path_hop = sluice_i_calloc(n + 1, sizeof(*rr.path_hop));
	rr.path_lane = sluice_i_calloc(n ? n : 1, sizeof(*rr.path_lane));
	run_path = sluice_i_calloc(n ? n : 1, sizeof(*run_path));
	if (!rr.pair_src || !rr.pair_dst || !rr.pair_path || !rr.path_hop ||
	    !rr.path_lane || !run_path) {
		ret = no_memory(err, errlen);
		goto out;
	}
	n = 0;
	for (p = 0; p < r->n_pairs; p++)
		for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
			v = r->pair_src[p];
			for (k = r->path_hop[q]; k < r->path_hop[q + 1]; k++) {
				if (k == r->path_hop[q] ||
				    prio[k] != prio[k - 1]) {
					/* the run before ends here */
					if (k != r->path_hop[q])
						rr.pair_dst[n - 1] = v;
					rr.pair_src[n] = v;
					rr.pair_path[n] = n;
					rr.path_hop[n] = k;
					rr.path_lane[n] = prio[k];
					run_path[n] = q;
					n++;
				}
				v = other(g, r->hops[k], v);
			}
			if (n)
				rr.pair_dst[n - 1] = v;
		}
	rr.pair_path[n] = n;
	rr.path_hop[n] = r->n_hops;
	ret = sluice_cbd_check(g, &rr, res, err, errlen);
	for (i = 0; !ret && i < res->n_cycle; i++)
		res->cycle[i].path = run_path[res->cycle[i].path];
out:
	free(rr.pair_src);
	free(rr.pair_dst);
	free(rr.pair_path);
	free(rr.path_hop);
	free(rr.path_lane);
	free(run_path);
	return ret;
}

/**
 * sluice_tagger_check() - are these tables safe for these routes?
 * @g:		the finalized topology
 * @r:		the whole, valid route set the tables were built for
 * @tab:	the tables (built, or read from a tag file)
 * @res:	filled (see struct sluice_tagger_check); free with
 *		sluice_tagger_check_free(), even on an error
 * @err:	a message on an error
 * @errlen:	its size
 *
 * Walks every path through the tables as a frame would go, from its
 * source's hosts with tag 0: each node's egress entry for (out port, tag)
 * gives the class and the new tag, the next node's ingress entry for (in
 * port, new tag) must exist and charge the frame to that class, the class
 * must never go down, and the destination needs an egress entry to its
 * hosts.  If all paths pass, the classes they got are checked for a cyclic
 * buffer dependency within each priority (sluice_cbd_check() on the paths
 * cut into runs of one priority, see check_runs()), and the entries no
 * path used are counted.
 *
 * Return: 0 (see res->ok), -EINVAL when @tab is malformed or was built for
 * another topology or route set, or -ENOMEM.
 */
int sluice_tagger_check(const struct sluice_graph *g,
			const struct sluice_routes *r,
			const struct sluice_tagger_tables *tab,
			struct sluice_tagger_check *res,
			char *err, size_t errlen)
{
	struct lut lut = { 0 };
	uint8_t *prio = NULL;
	uint64_t p, q, i, n;
	bool ok = true;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = sluice_i_tagger_routes_ok(g, r, err, errlen);
	if (!ret)
		ret = sluice_i_tagger_tables_ok(tab, g, err, errlen);
	if (ret)
		return ret;
	if (tab->n_pairs != r->n_pairs || tab->n_paths != r->n_paths ||
	    tab->n_hops != r->n_hops ||
	    tab->routes_hash != sluice_tagger_routes_hash(r))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the tag tables belong to other routes (%llu pairs, %llu paths, %llu hops, hash %016llx; these have %llu, %llu, %llu, %016llx)",
				     (unsigned long long)tab->n_pairs,
				     (unsigned long long)tab->n_paths,
				     (unsigned long long)tab->n_hops,
				     (unsigned long long)tab->routes_hash,
				     (unsigned long long)r->n_pairs,
				     (unsigned long long)r->n_paths,
				     (unsigned long long)r->n_hops,
				     (unsigned long long)sluice_tagger_routes_hash(r));
	prio = sluice_i_calloc(r->n_hops ? r->n_hops : 1, 1);
	ret = prio ? load_lut(&lut, tab, g) : -ENOMEM;
	if (ret)
		goto out;
	res->consistent = true;
	for (p = 0; p < r->n_pairs && ok; p++)
		for (q = r->pair_path[p]; q < r->pair_path[p + 1] && ok; q++)
			ok = tab->mode == SLUICE_TAGGER_DEPTH ?
			     walk_depth(&lut, g, r, p, q, prio, res) :
			     walk(&lut, g, r, p, q, prio, res);
	if (!ok)
		goto out;
	for (i = 0; i < r->n_hops; i++)
		if (prio[i] >= res->priorities)
			res->priorities = prio[i] + 1;
	/* depth also charges delivered frames to priority 1, as compute says */
	if (tab->mode == SLUICE_TAGGER_DEPTH && r->n_hops && res->priorities < 2)
		res->priorities = 2;
	n = (uint64_t)(lut.n_adj + g->n_nodes) * lut.stride;
	for (i = 0; i < n; i++)
		res->entries_unused += (lut.in[i] && !(lut.in[i] & USED)) +
				       (lut.cls[i] && !(lut.cls[i] & USED));
	ret = check_runs(g, r, prio, &res->cbd, err, errlen);
	res->ok = !ret && res->cbd.cbd_free;
out:
	if (ret == -ENOMEM)
		ret = no_memory(err, errlen);
	lut_free(&lut);
	free(prio);
	if (ret)
		sluice_tagger_check_free(res);
	return ret;
}

/**
 * sluice_tagger_check_free() - free a check's dependency cycle
 * @res:	from sluice_tagger_check(); left zeroed
 */
void sluice_tagger_check_free(struct sluice_tagger_check *res)
{
	sluice_cbd_result_free(&res->cbd);
	memset(res, 0, sizeof(*res));
}
