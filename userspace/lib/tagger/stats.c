// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The size of Tagger's tables: Section 7.3.1's resource counts - lossless
 * priorities, table entries in all ("ACL rules") and at the bottleneck
 * node, the one with the most.
 */
#include <errno.h>
#include <string.h>
#include <sluice/tagger.h>
#include "graph/internal.h"
#include "tagger/internal.h"

/**
 * sluice_tagger_stats() - priorities, tags and entries of a table set
 * @tab:	the tables (built or read; a share counts its nodes only)
 * @g:		their topology
 * @st:		filled
 * @err:	a message on an error
 * @errlen:	its size
 *
 * Priorities and tags are counted from the entries (highest + 1), not
 * taken from the header.  Per node, entries are ingress + egress; the
 * minimum and average are over all nodes of @g.
 *
 * Return: 0, or -EINVAL if @tab does not belong to @g or is malformed.
 */
int sluice_tagger_stats(const struct sluice_tagger_tables *tab,
			const struct sluice_graph *g,
			struct sluice_tagger_stats *st,
			char *err, size_t errlen)
{
	uint64_t i, n;
	uint32_t v;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = sluice_i_tagger_tables_ok(tab, g, err, errlen);
	if (ret)
		return ret;
	for (i = 0; i < tab->in_off[g->n_nodes]; i++) {
		if (tab->in[i].tag >= st->tags)
			st->tags = tab->in[i].tag + 1;
		if (tab->in[i].prio >= st->priorities)
			st->priorities = tab->in[i].prio + 1;
	}
	for (i = 0; i < tab->out_off[g->n_nodes]; i++) {
		if (tab->out[i].tag >= st->tags)
			st->tags = tab->out[i].tag + 1;
		if (tab->out[i].new_tag >= st->tags)
			st->tags = tab->out[i].new_tag + 1;
		if (tab->out[i].cls >= st->priorities)
			st->priorities = tab->out[i].cls + 1;
	}
	st->in_entries = tab->in_off[g->n_nodes];
	st->out_entries = tab->out_off[g->n_nodes];
	st->entries = st->in_entries + st->out_entries;
	st->node_min = UINT64_MAX;
	for (v = 0; v < g->n_nodes; v++) {
		n = tab->in_off[v + 1] - tab->in_off[v] +
		    tab->out_off[v + 1] - tab->out_off[v];
		if (n < st->node_min)
			st->node_min = n;
		if (n > st->node_max || !v) {
			st->node_max = n;
			st->bottleneck = v;
		}
	}
	if (!g->n_nodes)
		st->node_min = 0;
	st->node_avg = g->n_nodes ? (double)st->entries / g->n_nodes : 0;
	return 0;
}
