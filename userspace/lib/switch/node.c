// SPDX-License-Identifier: GPL-2.0
/*
 * One node's tag tables for its switch (struct sluice_switch_node): taken
 * from tables and their topology, or read from a tag file without the
 * topology.
 *
 * A switch has no topology file, and needs none: a node's section of a tag
 * file (lib/tagger/file.c) lists the node's ports - link id and peer - and
 * its entries, which is everything the switch's maps are made of.  So
 * sluice_switch_read_tags() reads the format's syntax strictly and checks
 * what a section says about itself (its entries name its own ports, stay
 * below the header's counts, go in order), but cannot check the header's
 * topology and route hashes: "sluicectl tag check" is what vouches for a
 * file against its routes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/switch.h>
#include "graph/internal.h"
#include "text.h"

#define FORMAT		"sluice-tags"
#define VERSION		1

void sluice_switch_node_free(struct sluice_switch_node *node)
{
	free(node->links);
	free(node->in);
	free(node->out);
	memset(node, 0, sizeof(*node));
}

/**
 * sluice_switch_node_of() - node @v's share of tables
 * @tab:	tables (built or read) of @g
 * @g:		their topology
 * @v:		the node
 * @node:	filled with copies; free with sluice_switch_node_free()
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * Time: O(degree + entries of @v).
 *
 * Return: 0, -EINVAL (@v not a node of the tables) or -ENOMEM.
 */
int sluice_switch_node_of(const struct sluice_tagger_tables *tab,
			  const struct sluice_graph *g, uint32_t v,
			  struct sluice_switch_node *node,
			  char *err, size_t errlen)
{
	uint64_t n_in, n_out;
	uint32_t e, deg;

	memset(node, 0, sizeof(*node));
	if (v >= g->n_nodes || tab->n_nodes != g->n_nodes || !tab->in_off ||
	    !tab->out_off)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "node %u: not a node of these tables", v);
	deg = g->off[v + 1] - g->off[v];
	n_in = tab->in_off[v + 1] - tab->in_off[v];
	n_out = tab->out_off[v + 1] - tab->out_off[v];
	node->links = sluice_i_calloc(deg ? deg : 1, sizeof(*node->links));
	node->in = sluice_i_calloc(n_in ? n_in : 1, sizeof(*node->in));
	node->out = sluice_i_calloc(n_out ? n_out : 1, sizeof(*node->out));
	if (!node->links || !node->in || !node->out) {
		sluice_switch_node_free(node);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	snprintf(node->name, sizeof(node->name), "%s", g->nodes[v].name);
	node->mode = tab->mode;
	node->hosts = g->nodes[v].hosts;
	node->n_links = deg;
	for (e = 0; e < deg; e++)
		node->links[e] = g->adj[g->off[v] + e].link;
	node->n_in = n_in;
	node->n_out = n_out;
	memcpy(node->in, tab->in + tab->in_off[v], n_in * sizeof(*node->in));
	memcpy(node->out, tab->out + tab->out_off[v],
	       n_out * sizeof(*node->out));
	return 0;
}

/* What the header says the entries stay below. */
struct header {
	int		mode;
	uint32_t	priorities, tags;
};

static int read_header(struct text_reader *rd, struct header *h)
{
	uint64_t version, x, hash;
	char word[SLUICE_ALGO_NAME_MAX];
	const char *s;

	s = text_next(rd);
	if (!s || !text_lit(&s, FORMAT " ") ||
	    !text_u64(&s, UINT64_MAX, &version) || *s)
		return text_bad(rd, "not a tag file: the first line must be \"%s %d\"",
				FORMAT, VERSION);
	if (version != VERSION)
		return text_bad(rd, "version %llu: this sluicectl reads version %d",
				(unsigned long long)version, VERSION);
	s = text_next(rd);
	if (!s || !text_lit(&s, "topology nodes ") ||
	    !text_u64(&s, UINT32_MAX, &x) || !text_lit(&s, " links ") ||
	    !text_u64(&s, UINT32_MAX, &x) || !text_lit(&s, " hash ") ||
	    !text_hash(&s, &hash) || *s)
		return text_bad(rd, "expected \"topology nodes N links L hash H\"");
	s = text_next(rd);
	if (!s || !text_lit(&s, "routes algo ") ||
	    !text_word(&s, word, sizeof(word)) ||
	    !text_lit(&s, " pairs ") || !text_u64(&s, UINT64_MAX, &x) ||
	    !text_lit(&s, " paths ") || !text_u64(&s, UINT64_MAX, &x) ||
	    !text_lit(&s, " hops ") || !text_u64(&s, UINT64_MAX, &x) ||
	    !text_lit(&s, " hash ") || !text_hash(&s, &hash) || *s)
		return text_bad(rd, "expected \"routes algo NAME pairs N paths N hops N hash H\"");
	s = text_next(rd);
	if (!s || !text_lit(&s, "mode ") || !text_word(&s, word, sizeof(word)) ||
	    !text_lit(&s, " priorities ") || !text_u32(&s, &h->priorities) ||
	    !text_lit(&s, " tags ") || !text_u32(&s, &h->tags) || *s)
		return text_bad(rd, "expected \"mode MODE priorities N tags N\"");
	h->mode = sluice_tagger_mode_parse(word);
	if (h->mode < 0)
		return text_bad(rd, "unknown mode \"%s\" (greedy or ttl)", word);
	if (h->priorities > SLUICE_LANES_MAX ||
	    h->tags > SLUICE_TAGGER_TAGS_MAX)
		return text_bad(rd, "priorities %u, tags %u: at most %d and %d",
				h->priorities, h->tags, SLUICE_LANES_MAX,
				SLUICE_TAGGER_TAGS_MAX);
	return 0;
}

/* A port: "host" or one of the section's links; advances. */
static bool get_port(const char **s, const uint32_t *links, uint32_t n,
		     uint32_t *port)
{
	uint32_t i;

	if (text_lit(s, "host")) {
		*port = SLUICE_TAGGER_HOST;
		return true;
	}
	if (!text_u32(s, port) || *port == SLUICE_TAGGER_HOST)
		return false;
	for (i = 0; i < n; i++)
		if (links[i] == *port)
			return true;
	return false;
}

/*
 * The port lines and entries of the section of @name; kept in @node if
 * @keep.  @links has room for @ports link ids.
 */
static int read_section(struct text_reader *rd, const struct header *h,
			const char *name, uint32_t ports, uint64_t n_in,
			uint64_t n_out, uint32_t *links, bool keep,
			struct sluice_switch_node *node, uint64_t *cap_in,
			uint64_t *cap_out)
{
	uint64_t i, link, tag, val, nt, key, prev = UINT64_MAX;
	char peer[SLUICE_NAME_MAX];
	const char *s;
	uint32_t p, q, port;

	for (p = 0; p < ports; p++) {
		s = text_next(rd);
		if (!s || !text_lit(&s, "port ") ||
		    !text_u64(&s, UINT32_MAX - 1, &link) ||
		    !text_lit(&s, " ") || !text_word(&s, peer, sizeof(peer)) ||
		    *s)
			return text_bad(rd, "node %s: expected %u \"port LINK PEER\" lines",
					name, ports);
		for (q = 0; q < p; q++)
			if (links[q] == link)
				return text_bad(rd, "node %s: link %llu listed twice",
						name, (unsigned long long)link);
		links[p] = link;
	}
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
					(unsigned long long)(in ? i : i - n_in));
		if (!text_lit(&s, in ? "in " : "out "))
			return text_bad(rd, in ? "expected \"in PORT TAG PRIO\"" :
					"expected \"out PORT TAG CLASS NEWTAG\"");
		if (!get_port(&s, links, ports, &port))
			return text_bad(rd, "node %s: the port must be \"host\" or one of its links",
					name);
		nt = 0;
		if (!text_lit(&s, " ") ||
		    !text_u64(&s, SLUICE_TAGGER_TAGS_MAX - 1, &tag) ||
		    !text_lit(&s, " ") ||
		    !text_u64(&s, SLUICE_LANES_MAX - 1, &val) ||
		    (!in && (!text_lit(&s, " ") ||
			     !text_u64(&s, SLUICE_TAGGER_TAGS_MAX - 1, &nt))))
			return text_bad(rd, "node %s: tags are 0 to %d, %s 0 to %d",
					name, SLUICE_TAGGER_TAGS_MAX - 1,
					in ? "priorities" : "classes",
					SLUICE_LANES_MAX - 1);
		if (*s)
			return text_bad(rd, "unexpected \"%.24s\" at the end of the line",
					s);
		if (tag >= h->tags || nt >= h->tags || val >= h->priorities)
			return text_bad(rd, "node %s: beyond the header's %u tags and %u priorities",
					name, h->tags, h->priorities);
		key = (uint64_t)port << 8 | tag;
		if (prev != UINT64_MAX && key <= prev)
			return text_bad(rd, "node %s: %s entry %s: entries go by port (links by id, host last), then tag, each once",
					name, in ? "ingress" : "egress",
					key == prev ? "given twice" : "out of order");
		prev = key;
		if (!keep)
			continue;
		if (in) {
			if (SLUICE_I_GROW(node->in, *cap_in, node->n_in + 1))
				return -ENOMEM;
			node->in[node->n_in].port = port;
			node->in[node->n_in].tag = tag;
			node->in[node->n_in++].prio = val;
		} else {
			if (SLUICE_I_GROW(node->out, *cap_out, node->n_out + 1))
				return -ENOMEM;
			node->out[node->n_out].port = port;
			node->out[node->n_out].tag = tag;
			node->out[node->n_out].cls = val;
			node->out[node->n_out++].new_tag = nt;
		}
	}
	return 0;
}

/*
 * Sections read so far: how many, the first and last names, and whether
 * the one wanted was among them.
 */
struct seen {
	uint64_t	count;
	char		first[SLUICE_NAME_MAX], last[SLUICE_NAME_MAX];
	bool		found;
};

static int read_node(struct text_reader *rd, const struct header *h,
		     const char *s, const char *only, struct seen *seen,
		     struct sluice_switch_node *node, uint64_t *cap_in,
		     uint64_t *cap_out)
{
	char name[SLUICE_NAME_MAX];
	uint64_t n_in, n_out;
	uint32_t hosts, ports, *links;
	bool keep;
	int ret;

	if (!text_lit(&s, "node ") || !text_word(&s, name, sizeof(name)) ||
	    !text_lit(&s, " hosts ") || !text_u32(&s, &hosts) ||
	    !text_lit(&s, " ports ") || !text_u32(&s, &ports) ||
	    !text_lit(&s, " ingress ") || !text_u64(&s, UINT64_MAX, &n_in) ||
	    !text_lit(&s, " egress ") || !text_u64(&s, UINT64_MAX, &n_out) ||
	    *s)
		return text_bad(rd, "expected \"node NAME hosts H ports K ingress I egress E\" or \"end\"");
	/* the first section, or the one asked for, is kept */
	keep = only ? !strcmp(name, only) : !seen->count;
	if (keep && seen->found)
		return text_bad(rd, "node %s: a second section", name);
	if (!seen->count)
		strcpy(seen->first, name);
	strcpy(seen->last, name);
	seen->count++;
	/* a port line is more than 8 bytes: a huge count is a bad file */
	if (ports > 1U << 20)
		return text_bad(rd, "node %s: %u ports", name, ports);
	links = sluice_i_calloc(ports ? ports : 1, sizeof(*links));
	if (!links)
		return -ENOMEM;
	ret = read_section(rd, h, name, ports, n_in, n_out, links, keep,
			   node, cap_in, cap_out);
	if (ret || !keep) {
		free(links);
		return ret;
	}
	seen->found = true;
	strcpy(node->name, name);
	node->hosts = hosts;
	node->n_links = ports;
	node->links = links;
	return 0;
}

/**
 * sluice_switch_read_tags() - one node's tables from a tag file alone
 * @node:	filled; free with sluice_switch_node_free(), even on an error
 * @f:		a tag file, whole or a node's share
 * @name:	its name, for messages
 * @only:	the node to read; NULL: the file must hold one node's section
 * @err:	what is wrong, "NAME:LINE: ..." for the file's contents
 * @errlen:	room in @err
 *
 * Reads every section (so that a malformed file is refused wherever it is
 * malformed) and keeps the one of @only.  See the top of this file for
 * what it cannot check without the topology.
 *
 * Time: O(lines + ports^2 of a section); memory for the node kept.
 *
 * Return: 0, -EINVAL (malformed), -ENOENT (no section of @only, or several
 * sections and no @only) or -ENOMEM.
 */
int sluice_switch_read_tags(struct sluice_switch_node *node, FILE *f,
			    const char *name, const char *only,
			    char *err, size_t errlen)
{
	struct text_reader rd = {
		.f = f, .name = name, .err = err, .errlen = errlen,
	};
	uint64_t cap_in = 0, cap_out = 0;
	struct seen seen = { 0 };
	struct header h;
	const char *s;
	int ret;

	memset(node, 0, sizeof(*node));
	ret = read_header(&rd, &h);
	while (!ret) {
		s = text_next(&rd);
		if (!s) {
			ret = text_bad(&rd, "the file ends before \"end\"");
			break;
		}
		if (!strcmp(s, "end"))
			break;
		ret = read_node(&rd, &h, s, only, &seen, node, &cap_in,
				&cap_out);
	}
	if (!ret && text_next(&rd))
		ret = text_bad(&rd, "something after \"end\"");
	if (!ret && rd.ret)
		ret = rd.ret;
	if (!ret && only && !seen.found)
		ret = sluice_i_errf(err, errlen, -ENOENT,
				    "%s: no section for node %s", name, only);
	if (!ret && !only && !seen.count)
		ret = sluice_i_errf(err, errlen, -ENOENT,
				    "%s: holds no node's tables", name);
	if (!ret && !only && seen.count > 1)
		ret = sluice_i_errf(err, errlen, -ENOENT,
				    "%s: holds the tables of %llu nodes (%s to %s): name the node",
				    name, (unsigned long long)seen.count,
				    seen.first, seen.last);
	if (!ret) {
		node->mode = h.mode;
		/* lists even when empty, as sluice_switch_node_of() makes */
		if (!node->in)
			node->in = sluice_i_calloc(1, sizeof(*node->in));
		if (!node->out)
			node->out = sluice_i_calloc(1, sizeof(*node->out));
		if (!node->in || !node->out)
			ret = -ENOMEM;
	}
	if (ret == -ENOMEM)
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	free(rd.line);
	if (ret)
		sluice_switch_node_free(node);
	return ret;
}
