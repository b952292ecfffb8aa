// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tag file: Tagger's tables (sluice/tagger.h) as text, written and read
 * here - read by one parser (sluice_i_tags_*(), lib/tagger/internal.h)
 * that sluice_tagger_read() drives with the topology and
 * sluice_switch_read_tags() without it.
 *
 *	sluice-tags 1
 *	topology nodes 4 links 4 hash 8c2a4f0e3b1d9a77
 *	routes algo ecmp pairs 12 paths 16 hops 24 hash 0f3e5d7c9b1a2846
 *	mode greedy priorities 2 tags 3
 *	node s0 hosts 1 ports 2 ingress 3 egress 4
 *	port 0 s1
 *	port 3 s3
 *	in 0 1 0
 *	in 3 1 0
 *	in host 0 0
 *	out 0 0 0 1
 *	out 0 1 1 2
 *	out 3 0 0 1
 *	out host 1 0 1
 *	node s1 hosts 1 ports 2 ingress 3 egress 4
 *	...
 *	end
 *
 * The header names the topology (node and link counts, sluice_graph_hash())
 * and the route set (its algorithm, counts and sluice_tagger_routes_hash())
 * the tables were computed for, the mode, and the priorities and tag values
 * the entries use (highest + 1).  Then a section per node, in node order:
 *
 *	node NAME hosts H ports K ingress I egress E
 *	port LINK PEER		K lines: the node's links by id, and the
 *				node at the other end of each
 *	in PORT TAG PRIO	I lines: ingress (PORT, TAG) -> PRIO
 *	out PORT TAG CLASS NEWTAG
 *				E lines: egress (PORT, TAG) -> (CLASS, NEWTAG)
 *
 * PORT is a link id (one of the node's port lines) or "host", all of the
 * node's host ports.  Entries are sorted by port (links by id, host last)
 * and tag, each (port, tag) once.  TAG is the tag a frame arrives with
 * (mode depth: the tag it leaves with, the label stack's depth); see
 * tagger.h for what the tables mean.  "end" closes the file, so that a
 * truncated file is an error rather than fewer tables.  Fields are
 * separated by one space; numbers are decimal without leading zeros, hashes
 * 16 lower-case hex digits, names node names (shorter than SLUICE_NAME_MAX)
 * and link ids below SLUICE_TAGGER_HOST.
 *
 * A node's section holds everything the node needs - its ports and their
 * peers, the counts that delimit it - so that one node's share can be
 * loaded alone: the four header lines, the node's section and "end" make a
 * valid file for that node (sluice_tagger_write() with @only writes one,
 * sluice_tagger_read() with @only reads it, or picks the node out of a
 * whole file).  The writer's output depends on nothing but the tables and
 * the topology: the same inputs give the same bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/tagger.h>
#include "graph/internal.h"
#include "tagger/internal.h"
#include "text.h"

#define FORMAT		"sluice-tags"
#define VERSION		1

/* The node named @only, or -1 (no such node); n_nodes for NULL. */
static int64_t find_only(const struct sluice_graph *g, const char *only)
{
	uint32_t u;

	if (!only)
		return g->n_nodes;
	for (u = 0; u < g->n_nodes; u++)
		if (!strcmp(g->nodes[u].name, only))
			return u;
	return -1;
}

static void write_port(FILE *f, uint32_t port)
{
	if (port == SLUICE_TAGGER_HOST)
		fputs("host", f);
	else
		fprintf(f, "%u", port);
}

/**
 * sluice_tagger_write() - the tag file of @tab
 * @tab:	tables (built or read)
 * @g:		their topology, for the names and ports
 * @f:		where to write
 * @only:	NULL for every node, or the name of the one node whose
 *		share (header, its section, "end") to write
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * Return: 0, -EINVAL (tables not of @g, or no node @only) or -EIO.
 */
int sluice_tagger_write(const struct sluice_tagger_tables *tab,
			const struct sluice_graph *g, FILE *f,
			const char *only, char *err, size_t errlen)
{
	int64_t one = find_only(g, only);
	uint32_t v, e;
	uint64_t i;
	int ret;

	ret = sluice_i_tagger_tables_ok(tab, g, err, errlen);
	if (ret)
		return ret;
	if (one < 0)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "no node \"%s\" in the topology", only);
	fprintf(f, "%s %d\n", FORMAT, VERSION);
	fprintf(f, "topology nodes %u links %u hash %016llx\n", tab->n_nodes,
		tab->n_links, (unsigned long long)tab->topo_hash);
	fprintf(f, "routes algo %s pairs %llu paths %llu hops %llu hash %016llx\n",
		tab->algo[0] ? tab->algo : "-",
		(unsigned long long)tab->n_pairs,
		(unsigned long long)tab->n_paths,
		(unsigned long long)tab->n_hops,
		(unsigned long long)tab->routes_hash);
	fprintf(f, "mode %s priorities %u tags %u\n",
		sluice_tagger_mode_name(tab->mode), tab->priorities, tab->tags);
	for (v = 0; v < g->n_nodes; v++) {
		if (only && v != one)
			continue;
		fprintf(f, "node %s hosts %u ports %u ingress %llu egress %llu\n",
			g->nodes[v].name, g->nodes[v].hosts,
			sluice_graph_degree(g, v),
			(unsigned long long)(tab->in_off[v + 1] - tab->in_off[v]),
			(unsigned long long)(tab->out_off[v + 1] -
					     tab->out_off[v]));
		for (e = g->off[v]; e < g->off[v + 1]; e++)
			fprintf(f, "port %u %s\n", g->adj[e].link,
				g->nodes[g->adj[e].peer].name);
		for (i = tab->in_off[v]; i < tab->in_off[v + 1]; i++) {
			fputs("in ", f);
			write_port(f, tab->in[i].port);
			fprintf(f, " %u %u\n", tab->in[i].tag, tab->in[i].prio);
		}
		for (i = tab->out_off[v]; i < tab->out_off[v + 1]; i++) {
			fputs("out ", f);
			write_port(f, tab->out[i].port);
			fprintf(f, " %u %u %u\n", tab->out[i].tag,
				tab->out[i].cls, tab->out[i].new_tag);
		}
	}
	fputs("end\n", f);
	if (fflush(f) || ferror(f))
		return sluice_i_errf(err, errlen, -EIO, "cannot write: %s",
				     strerror(errno));
	return 0;
}

/**
 * sluice_i_tags_init() - start reading a tag file
 * @t:		the reading's state
 * @f:		the file
 * @name:	its name, for messages
 * @err:	where messages go, "NAME:LINE: ..."
 * @errlen:	room in @err
 *
 * Time: O(1).
 */
void sluice_i_tags_init(struct sluice_i_tags *t, FILE *f, const char *name,
			char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	t->rd.f = f;
	t->rd.name = name;
	t->rd.err = err;
	t->rd.errlen = errlen;
}

/**
 * sluice_i_tags_close() - what the reading holds, freed
 * @t:		initialized; the entries kept are the caller's
 *
 * Time: O(1).
 */
void sluice_i_tags_close(struct sluice_i_tags *t)
{
	free(t->rd.line);
	free(t->sec.links);
	t->rd.line = NULL;
	t->sec.links = NULL;
}

/**
 * sluice_i_tags_header() - the four header lines into @t->h
 * @t:		at the file's first line
 * @g:		the topology the file must belong to, or NULL (then only
 *		the lines' syntax is checked)
 *
 * The topology is checked before the next line is read, so that the
 * message names the topology line.
 *
 * Time: O(1).
 *
 * Return: 0 or -EINVAL.
 */
int sluice_i_tags_header(struct sluice_i_tags *t, const struct sluice_graph *g)
{
	struct sluice_i_tag_header *h = &t->h;
	struct text_reader *rd = &t->rd;
	uint64_t version;
	char word[32];
	const char *s;
	int mode;

	s = text_next(rd);
	if (!s || !text_lit(&s, FORMAT " ") ||
	    !text_u64(&s, UINT64_MAX, &version) || *s)
		return text_bad(rd, "not a tag file: the first line must be \"%s %d\"",
				FORMAT, VERSION);
	if (version != VERSION)
		return text_bad(rd, "version %llu: this sluicectl reads version %d",
				(unsigned long long)version, VERSION);
	s = text_next(rd);
	if (!s || !text_lit(&s, "topology nodes ") || !text_u32(&s, &h->nodes) ||
	    !text_lit(&s, " links ") || !text_u32(&s, &h->links) ||
	    !text_lit(&s, " hash ") || !text_hash(&s, &h->topo_hash) || *s)
		return text_bad(rd, "expected \"topology nodes N links L hash H\"");
	if (g && (h->nodes != g->n_nodes || h->links != g->n_links ||
		  h->topo_hash != sluice_graph_hash(g)))
		return text_bad(rd, "the tags belong to another topology (%u nodes, %u links, hash %016llx; this one has %u, %u, %016llx)",
				h->nodes, h->links,
				(unsigned long long)h->topo_hash,
				g->n_nodes, g->n_links,
				(unsigned long long)sluice_graph_hash(g));
	s = text_next(rd);
	if (!s || !text_lit(&s, "routes algo ") ||
	    !text_word(&s, h->algo, sizeof(h->algo)) ||
	    !text_lit(&s, " pairs ") || !text_u64(&s, UINT64_MAX, &h->pairs) ||
	    !text_lit(&s, " paths ") || !text_u64(&s, UINT64_MAX, &h->paths) ||
	    !text_lit(&s, " hops ") || !text_u64(&s, UINT64_MAX, &h->hops) ||
	    !text_lit(&s, " hash ") || !text_hash(&s, &h->routes_hash) || *s)
		return text_bad(rd, "expected \"routes algo NAME pairs N paths N hops N hash H\"");
	if (!strcmp(h->algo, "-"))
		h->algo[0] = '\0';
	s = text_next(rd);
	if (!s || !text_lit(&s, "mode ") || !text_word(&s, word, sizeof(word)) ||
	    !text_lit(&s, " priorities ") || !text_u32(&s, &h->priorities) ||
	    !text_lit(&s, " tags ") || !text_u32(&s, &h->tags) || *s)
		return text_bad(rd, "expected \"mode MODE priorities N tags N\"");
	mode = sluice_tagger_mode_parse(word);
	if (mode < 0)
		return text_bad(rd, "unknown mode \"%s\" (greedy, ttl or depth)", word);
	h->mode = mode;
	if (h->priorities > SLUICE_LANES_MAX || h->tags > SLUICE_TAGGER_TAGS_MAX)
		return text_bad(rd, "priorities %u, tags %u: at most %d and %d",
				h->priorities, h->tags, SLUICE_LANES_MAX,
				SLUICE_TAGGER_TAGS_MAX);
	return 0;
}

/**
 * sluice_i_tags_next() - the next section's "node" line, or "end"
 * @t:		past the header or the previous section; the "node" line
 *		goes into @t->sec
 *
 * Time: O(1).
 *
 * Return: 1 (a section: read it with sluice_i_tags_section()), 0 ("end")
 * or -EINVAL.
 */
int sluice_i_tags_next(struct sluice_i_tags *t)
{
	struct sluice_i_tag_section *sec = &t->sec;
	const char *s = text_next(&t->rd);

	if (!s)
		return text_truncated(&t->rd, NULL);
	if (!strcmp(s, "end"))
		return 0;
	if (!text_lit(&s, "node ") ||
	    !text_word(&s, sec->name, sizeof(sec->name)) ||
	    !text_lit(&s, " hosts ") || !text_u32(&s, &sec->hosts) ||
	    !text_lit(&s, " ports ") || !text_u32(&s, &sec->ports) ||
	    !text_lit(&s, " ingress ") || !text_u64(&s, UINT64_MAX, &sec->n_in) ||
	    !text_lit(&s, " egress ") || !text_u64(&s, UINT64_MAX, &sec->n_out) ||
	    *s)
		return text_bad(&t->rd, "expected \"node NAME hosts H ports K ingress I egress E\" or \"end\"");
	return 1;
}

/* A port: "host" or one of the section's links; advances. */
static bool get_port(const char **s, const struct sluice_i_tag_section *sec,
		     uint32_t *port)
{
	uint32_t i;

	if (text_lit(s, "host")) {
		*port = SLUICE_TAGGER_HOST;
		return true;
	}
	if (!text_u32(s, port))
		return false;
	for (i = 0; i < sec->ports; i++)
		if (sec->links[i] == *port)
			return true;
	return false;
}

/* The section's "port" lines, against node @v of @g if there is @g. */
static int read_ports(struct sluice_i_tags *t, const struct sluice_graph *g,
		      uint32_t v)
{
	struct sluice_i_tag_section *sec = &t->sec;
	struct text_reader *rd = &t->rd;
	char peer[SLUICE_NAME_MAX];
	const struct sluice_adj *a;
	uint64_t link;
	const char *s;
	uint32_t p, q;

	if (SLUICE_I_GROW(sec->links, sec->links_cap,
			  sec->ports ? sec->ports : 1))
		return -ENOMEM;
	for (p = 0; p < sec->ports; p++) {
		s = text_next(rd);
		if (!s || !text_lit(&s, "port ") ||
		    !text_u64(&s, SLUICE_TAGGER_HOST - 1, &link) ||
		    !text_lit(&s, " ") || !text_word(&s, peer, sizeof(peer)) ||
		    *s)
			return text_bad(rd, "node %s: expected %u \"port LINK PEER\" lines",
					sec->name, sec->ports);
		if (g) {
			/* the topology's ports, so that the share matches */
			a = &g->adj[g->off[v] + p];
			if (link != a->link ||
			    strcmp(peer, g->nodes[a->peer].name))
				return text_bad(rd, "node %s: port %llu %s; the topology's port %u is link %u to %s",
						sec->name,
						(unsigned long long)link, peer,
						p, a->link,
						g->nodes[a->peer].name);
		} else {
			/* what the topology would have said: no link twice */
			for (q = 0; q < p; q++)
				if (sec->links[q] == link)
					return text_bad(rd, "node %s: link %llu listed twice",
							sec->name,
							(unsigned long long)link);
		}
		sec->links[p] = link;
	}
	return 0;
}

/* The section's "in" lines then its "out" lines, appended if @keep. */
static int read_entries(struct sluice_i_tags *t, bool keep)
{
	struct sluice_i_tag_section *sec = &t->sec;
	struct sluice_i_tag_entries *kept = &t->kept;
	const struct sluice_i_tag_header *h = &t->h;
	uint64_t i, key, prev = UINT64_MAX, tag, val, nt;
	uint64_t n_in = sec->n_in, n_out = sec->n_out;
	struct text_reader *rd = &t->rd;
	const char *name = sec->name, *s;
	uint32_t port;

	for (i = 0; i < n_in + n_out; i++) {
		bool in = i < n_in;

		if (i == n_in)
			prev = UINT64_MAX;
		s = text_next(rd);
		if (!s)
			return text_bad(rd, "node %s: expected %llu %s entries, found %llu",
					name,
					(unsigned long long)(in ? n_in : n_out),
					in ? "ingress" : "egress",
					(unsigned long long)(in ? i :
							     i - n_in));
		if (!text_lit(&s, in ? "in " : "out "))
			return text_bad(rd, in ? "expected \"in PORT TAG PRIO\"" :
					"expected \"out PORT TAG CLASS NEWTAG\"");
		if (!get_port(&s, sec, &port))
			return text_bad(rd, "node %s: the port must be \"host\" or one of its links",
					name);
		if (!text_lit(&s, " ") ||
		    !text_u64(&s, SLUICE_TAGGER_TAGS_MAX - 1, &tag) ||
		    !text_lit(&s, " ") ||
		    !text_u64(&s, SLUICE_LANES_MAX - 1, &val))
			return text_bad(rd, "node %s: tags are 0 to %d, %s 0 to %d",
					name, SLUICE_TAGGER_TAGS_MAX - 1,
					in ? "priorities" : "classes",
					SLUICE_LANES_MAX - 1);
		nt = 0;
		if (!in && (!text_lit(&s, " ") ||
			    !text_u64(&s, SLUICE_TAGGER_TAGS_MAX - 1, &nt)))
			return text_bad(rd, "node %s: the new tag must be 0 to %d",
					name, SLUICE_TAGGER_TAGS_MAX - 1);
		if (*s)
			return text_bad(rd, "unexpected \"%.24s\" at the end of the line",
					s);
		if (tag >= h->tags || nt >= h->tags || val >= h->priorities)
			return text_bad(rd, "node %s: beyond the header's %u tags and %u priorities",
					name, h->tags, h->priorities);
		if (tag >= sec->tags)
			sec->tags = tag + 1;
		if (nt >= sec->tags)
			sec->tags = nt + 1;
		if (val >= sec->prios)
			sec->prios = val + 1;
		key = (uint64_t)port << 8 | tag;
		if (prev != UINT64_MAX && key <= prev)
			return text_bad(rd, "node %s: %s entry %s: entries go by port (links by id, host last), then tag, each once",
					name, in ? "ingress" : "egress",
					key == prev ? "given twice" : "out of order");
		prev = key;
		if (!keep)
			continue;
		if (in) {
			if (SLUICE_I_GROW(kept->in, kept->cap_in,
					  kept->n_in + 1))
				return -ENOMEM;
			kept->in[kept->n_in].port = port;
			kept->in[kept->n_in].tag = tag;
			kept->in[kept->n_in++].prio = val;
		} else {
			if (SLUICE_I_GROW(kept->out, kept->cap_out,
					  kept->n_out + 1))
				return -ENOMEM;
			kept->out[kept->n_out].port = port;
			kept->out[kept->n_out].tag = tag;
			kept->out[kept->n_out].cls = val;
			kept->out[kept->n_out++].new_tag = nt;
		}
	}
	return 0;
}

/**
 * sluice_i_tags_section() - the rest of a section: port lines and entries
 * @t:		past the section's "node" line (sluice_i_tags_next());
 *		@t->sec.links are set to its ports, @t->sec.prios and tags
 *		grow with its entries
 * @g:		NULL, or the topology: then the port lines must be node
 *		@v's links and peers in order, and the caller has checked
 *		that the section's ports are @v's degree
 * @v:		with @g, the section's node
 * @keep:	append the entries to @t->kept, rather than only check them
 *
 * Without @g, only what a section says about itself is checked: no link
 * listed twice, entries on its own ports.  Either way the entries must stay
 * below the header's tags and priorities and go by (port, tag), each once.
 *
 * Time: O(ports + entries), O(ports^2) without @g; memory for the entries
 * kept.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_i_tags_section(struct sluice_i_tags *t,
			  const struct sluice_graph *g, uint32_t v, bool keep)
{
	int ret = read_ports(t, g, v);

	return ret ? ret : read_entries(t, keep);
}

/**
 * sluice_i_tags_end() - nothing after "end"
 * @t:		past "end"
 *
 * Time: O(1).
 *
 * Return: 0 or -EINVAL: a line after "end", or one text_next() refused.
 */
int sluice_i_tags_end(struct sluice_i_tags *t)
{
	if (text_next(&t->rd))
		return text_bad(&t->rd, "something after \"end\"");
	return t->rd.ret;
}

/* The node of a "node NAME ..." line, from @from on, or -1. */
static int64_t node_named(const struct sluice_graph *g, uint32_t from,
			  const char *name)
{
	uint32_t u;

	for (u = from; u < g->n_nodes; u++)
		if (!strcmp(g->nodes[u].name, name))
			return u;
	return -1;
}

/*
 * The section of @t->sec, its "node" line read, into @tab.  *@next is the
 * lowest node the section may be for (sections go in node order); set past
 * it.  @one is the node whose entries are kept, n_nodes for all (then no
 * section may be left out); *@found is set when its section is read.
 */
static int read_node(struct sluice_i_tags *t, struct sluice_tagger_tables *tab,
		     const struct sluice_graph *g, uint32_t *next, int64_t one,
		     bool *found)
{
	const struct sluice_i_tag_section *sec = &t->sec;
	const char *name = sec->name;
	int64_t v = node_named(g, *next, name);
	uint32_t u;

	if (v < 0)
		return text_bad(&t->rd, node_named(g, 0, name) < 0 ?
				"\"%s\" is not a node of the topology" :
				"node %s: out of order (sections go in node order, each once)",
				name);
	/* a whole file has every section */
	if (one == g->n_nodes && v != *next)
		return text_bad(&t->rd, "node %s: its section is missing",
				g->nodes[*next].name);
	*found |= v == one;
	/* the ports of the topology, so that the share matches the fabric */
	if (sec->hosts != g->nodes[v].hosts ||
	    sec->ports != sluice_graph_degree(g, v))
		return text_bad(&t->rd, "node %s: %u hosts and %u ports; the topology has %u and %u",
				name, sec->hosts, sec->ports, g->nodes[v].hosts,
				sluice_graph_degree(g, v));
	/* nodes without a section (a share) keep no entries */
	for (u = *next; u <= v; u++) {
		tab->in_off[u] = t->kept.n_in;
		tab->out_off[u] = t->kept.n_out;
	}
	*next = v + 1;
	return sluice_i_tags_section(t, g, v, one == g->n_nodes || one == v);
}

/**
 * sluice_tagger_read() - tables from a tag file
 * @tab:	filled; free with sluice_tagger_tables_free(), even on an
 *		error
 * @g:		the topology the file must belong to
 * @f:		the file
 * @name:	its name, for messages
 * @only:	NULL: the file must have every node's section, all kept; a
 *		node's name: the file may be a share with only some sections,
 *		must have that node's, and only its entries are kept (the
 *		others are read and checked, not kept)
 * @err:	what is wrong, "NAME:LINE: ..."
 * @errlen:	room in @err
 *
 * Checks the header against @g, each section's hosts and ports against the
 * topology, every entry's port, ranges and order.  Whether the tables suit
 * a route set is sluice_tagger_check()'s business.
 *
 * Return: 0, -EINVAL (malformed, another topology, no node @only) or
 * -ENOMEM.
 */
int sluice_tagger_read(struct sluice_tagger_tables *tab,
		       const struct sluice_graph *g, FILE *f,
		       const char *name, const char *only,
		       char *err, size_t errlen)
{
	const struct sluice_i_tag_header *h;
	int64_t one = find_only(g, only);
	struct sluice_i_tags t;
	uint32_t next = 0, u;
	bool found = false;
	int ret;

	memset(tab, 0, sizeof(*tab));
	if (one < 0)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "no node \"%s\" in the topology", only);
	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the topology is not finalized");
	sluice_i_tags_init(&t, f, name, err, errlen);
	h = &t.h;
	tab->in_off = sluice_i_calloc(g->n_nodes + 1, sizeof(*tab->in_off));
	tab->out_off = sluice_i_calloc(g->n_nodes + 1, sizeof(*tab->out_off));
	if (!tab->in_off || !tab->out_off) {
		ret = -ENOMEM;
		goto out;
	}
	ret = sluice_i_tags_header(&t, g);
	while (!ret && (ret = sluice_i_tags_next(&t)) > 0)
		ret = read_node(&t, tab, g, &next, one, &found);
	tab->in = t.kept.in;
	tab->out = t.kept.out;
	if (!ret && !only && next < g->n_nodes)
		ret = text_bad(&t.rd, "node %s: its section is missing",
			       g->nodes[next].name);
	if (!ret && only && !found)
		ret = text_bad(&t.rd, "node %s: its section is missing", only);
	if (!ret && !only &&
	    (t.sec.prios != h->priorities || t.sec.tags != h->tags))
		ret = sluice_i_errf(err, errlen, -EINVAL,
				    "%s: the header says %u priorities and %u tags, the entries use %u and %u",
				    name, h->priorities, h->tags,
				    t.sec.prios, t.sec.tags);
	if (!ret)
		ret = sluice_i_tags_end(&t);
	if (ret)
		goto out;
	tab->mode = h->mode;
	tab->priorities = h->priorities;
	tab->tags = h->tags;
	tab->n_nodes = h->nodes;
	tab->n_links = h->links;
	tab->topo_hash = h->topo_hash;
	memcpy(tab->algo, h->algo, sizeof(tab->algo));
	tab->n_pairs = h->pairs;
	tab->n_paths = h->paths;
	tab->n_hops = h->hops;
	tab->routes_hash = h->routes_hash;
	for (u = next; u <= g->n_nodes; u++) {
		tab->in_off[u] = t.kept.n_in;
		tab->out_off[u] = t.kept.n_out;
	}
	/* no entries kept: still lists, as the built tables have */
	if (!tab->in)
		tab->in = sluice_i_calloc(1, sizeof(*tab->in));
	if (!tab->out)
		tab->out = sluice_i_calloc(1, sizeof(*tab->out));
	if (!tab->in || !tab->out)
		ret = -ENOMEM;
	if (!ret)
		ret = sluice_i_tagger_tables_ok(tab, g, err, errlen);
out:
	if (ret == -ENOMEM)
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	sluice_i_tags_close(&t);
	if (ret)
		sluice_tagger_tables_free(tab);
	return ret;
}
