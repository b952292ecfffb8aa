// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One node's tag tables for its switch (struct sluice_switch_node): taken
 * from tables and their topology, or read from a tag file without the
 * topology.
 *
 * A switch has no topology file, and needs none: a node's section of a tag
 * file (lib/tagger/file.c) lists the node's ports - link id and peer - and
 * its entries, which is everything the switch's maps are made of.  So
 * sluice_switch_read_tags() reads the format with sluice_tagger_read()'s
 * own parser (lib/tagger/internal.h), as strictly, and checks what a
 * section says about itself (its entries name its own ports, stay
 * below the header's counts, go in order), but cannot check the header's
 * topology and route hashes: "sluicectl tag check" is what vouches for a
 * file against its routes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/switch.h>
#include "graph/internal.h"
#include "tagger/internal.h"
#include "text.h"

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

/*
 * Sections read so far: how many, the first and last names, and whether
 * the one wanted was among them.
 */
struct seen {
	uint64_t	count;
	char		first[SLUICE_NAME_MAX], last[SLUICE_NAME_MAX];
	bool		found;
};

/* The section of @t->sec, its "node" line read: kept in @node if wanted. */
static int read_node(struct sluice_i_tags *t, const char *only,
		     struct seen *seen, struct sluice_switch_node *node)
{
	struct sluice_i_tag_section *sec = &t->sec;
	/* the first section, or the one asked for, is kept */
	bool keep = only ? !strcmp(sec->name, only) : !seen->count;
	int ret;

	if (keep && seen->found)
		return text_bad(&t->rd, "node %s: a second section",
				sec->name);
	if (!seen->count)
		strcpy(seen->first, sec->name);
	strcpy(seen->last, sec->name);
	seen->count++;
	/* a port line is more than 8 bytes: a huge count is a bad file */
	if (sec->ports > 1U << 20)
		return text_bad(&t->rd, "node %s: %u ports", sec->name,
				sec->ports);
	ret = sluice_i_tags_section(t, NULL, 0, keep);
	if (ret || !keep)
		return ret;
	seen->found = true;
	strcpy(node->name, sec->name);
	node->hosts = sec->hosts;
	node->n_links = sec->ports;
	/* the section's list of links becomes the node's */
	node->links = sec->links;
	sec->links = NULL;
	sec->links_cap = 0;
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
 * Return: 0, -EINVAL (malformed), -ENOENT (no section of @only, or several
 * sections and no @only) or -ENOMEM.
 */
int sluice_switch_read_tags(struct sluice_switch_node *node, FILE *f,
			    const char *name, const char *only,
			    char *err, size_t errlen)
{
	struct seen seen = { 0 };
	struct sluice_i_tags t;
	int ret;

	memset(node, 0, sizeof(*node));
	sluice_i_tags_init(&t, f, name, err, errlen);
	ret = sluice_i_tags_header(&t, NULL);
	while (!ret && (ret = sluice_i_tags_next(&t)) > 0)
		ret = read_node(&t, only, &seen, node);
	node->n_in = t.kept.n_in;
	node->in = t.kept.in;
	node->n_out = t.kept.n_out;
	node->out = t.kept.out;
	if (!ret)
		ret = sluice_i_tags_end(&t);
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
		node->mode = t.h.mode;
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
	sluice_i_tags_close(&t);
	if (ret)
		sluice_switch_node_free(node);
	return ret;
}
