/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Other tools' formats: topologies as GraphML, GML and edge lists, read
 * into a sluice topology and written from one.
 *
 * What a foreign topology maps to (sluice-topology(5) has the rest):
 *
 * Nodes.  A node's name is its GraphML id, its GML label (NetworkX's
 * convention; the GML id when any label is missing, not a valid sluice
 * name, or repeated: struct sluice_topo_import_info says so), or its word
 * in an edge list.  The node attribute "kind" says what it is: "switch"
 * (the default when absent) or "server" become such nodes, "host" is folded
 * into a host port of the one node it links to (a host has exactly one
 * link, to a node that is not a host).  "hosts" (host ports, default 0) and
 * "tier" (1 to 3) are read as the topology file has them.
 *
 * Links.  Every edge is a link, in file order (link ids are that order,
 * host edges left out), parallel edges included; a loop is refused, and
 * so is a directed graph.  "la" and "lb" are the FC virtual layers of the
 * ends, needed when the graph has "layers".
 *
 * The graph.  "layers" ("3,6,6,3") and "generator" ("fc seed=1
 * switches=50 ...": the family, then NAME=VALUE) are graph attributes.
 *
 * Everything else is not kept: coordinates, labels once used as names,
 * link speeds (a sluice topology has no link rates: every link is alike,
 * fabric up gives them all one --rate, analyze one capacity).  An edge
 * list holds names and links only: a line "A B" or "A B W" is a link (the
 * third column, a number such as a weight or a speed, is not kept), a line
 * "A" a node, so that isolated nodes and the node order survive; "#" starts
 * a comment.  Exported, it loses host ports, kinds, tiers, layers and the
 * generator.
 *
 * Readers are strict: the first problem is reported as "line N: reason",
 * and nothing is returned from a bad file (the graph is left all zeroes).
 * Writers write what their reader reads back into the same topology
 * (GraphML and GML: the same topology file, byte for byte).
 */
#ifndef _SLUICE_INTEROP_H
#define _SLUICE_INTEROP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sluice/graph.h>

enum sluice_topo_format {
	SLUICE_TOPO_GRAPHML,	/* read with libxml2 */
	SLUICE_TOPO_GML,	/* as the Topology Zoo and NetworkX write it */
	SLUICE_TOPO_EDGES,	/* "A B [W]" a line */
	SLUICE_TOPO__COUNT,
};

/* "graphml", "gml", "edges"; "?" out of range.  Time: O(1). */
const char *sluice_topo_format_name(enum sluice_topo_format fmt);
/* The enum sluice_topo_format of @name, or -EINVAL.  Time: O(1). */
int sluice_topo_format_parse(const char *name);

/* What an import did that the file did not say outright. */
struct sluice_topo_import_info {
	uint32_t	host_nodes;	/* "host" nodes made host ports */
	/* GML: labels were present but unusable: nodes are named by id */
	bool		named_by_id;
};

/*
 * Reads @len bytes at @buf as @fmt into @g (uninitialized; a finalized
 * graph, or all zeroes on failure).  @info may be NULL.  Errors are
 * "line N: ...", or name a link as the topology file does ("links[3]")
 * for what only the whole graph shows (an FC layer over-used).
 * Return: 0, -EINVAL, -E2BIG or -ENOMEM.
 * Time: O(len + (n + m) log(n + m)) for n nodes and m edges.
 */
int sluice_topo_import_buf(struct sluice_graph *g, enum sluice_topo_format fmt,
			   const char *buf, size_t len,
			   struct sluice_topo_import_info *info,
			   char *err, size_t errlen);
/*
 * The same from the file @path ("-": standard input); messages start with
 * "@path: ".  Time: as sluice_topo_import_buf().
 */
int sluice_topo_import_file(struct sluice_graph *g, enum sluice_topo_format fmt,
			    const char *path,
			    struct sluice_topo_import_info *info,
			    char *err, size_t errlen);
/*
 * Writes the finalized @g to @f as @fmt.  The caller checks @f's errors on
 * its final flush too.  Return: 0, -EINVAL (not finalized) or -EIO.
 * Time: O(n + m).
 */
int sluice_topo_export(const struct sluice_graph *g,
		       enum sluice_topo_format fmt, FILE *f,
		       char *err, size_t errlen);

#endif /* _SLUICE_INTEROP_H */
