/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Other tools' formats: topologies as GraphML, GML and edge lists, read
 * into a sluice topology and written from one; route sets as OpenSM's
 * unicast forwarding tables (the dump dump_lfts.sh prints, which
 * "opensm -R file -U FILE" loads) and as next hops per switch in JSON.
 *
 * What a foreign topology maps to (sluicectl-topo(8) has it for users):
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
#include <sluice/route.h>

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

/*
 * Route sets for other tools.  Ports are numbered per node as a switch
 * numbers them: its links in link id order are ports 1 to D (D its
 * degree), its host ports D+1 to D+H; port 0 is the node itself.
 *
 * SLUICE_ROUTES_LFT: one destination-based table per node (servers
 * included: they forward), as ibroute and dump_lfts.sh print them.  LIDs
 * are assigned in node order: node u has LID u+1, then the host ports of
 * every node in turn (at most 49151 LIDs, 254 ports a node).  A GUID is the
 * node's name when that is one ("0x" and 16 hex digits, as ibnetdiscover
 * prints them), else 0x02 (a locally administered EUI-64) followed by the
 * LID.  A node's own LID leaves by port 0, its hosts' by their ports.  For
 * a destination node d, a node x forwards to the next hop of the paths to
 * d that cross x; an LFT holds one port per destination, so when those
 * paths leave x by several ports the export is refused (naming the node,
 * the destination and two of the ports), unless @first: then x keeps the
 * next hop of the first such path in the file's order (pairs by source
 * then destination, a pair's paths in order), which never makes a
 * forwarding loop.  A path that visits a node twice cannot be held by any
 * destination-based table and is refused.  Lanes (PFC priorities) are not
 * part of an LFT: the SL-to-VL tables carry them.  Nodes that are no
 * endpoint are reached by no path: only their own LID is in their table.
 *
 * SLUICE_ROUTES_NEXTHOPS_JSON: every next hop, all of them:
 *
 *	{
 *	  "format": "sluice-nexthops",
 *	  "version": 1,
 *	  "topology": {"nodes":3,"links":2,"hash":"eb4ac19fa24791c6"},
 *	  "algo": "ecmp",
 *	  "nodes": [
 *	    {"name":"s1","ports":[{"port":1,"link":0,"peer":"s2"},
 *	     {"port":2,"host":0}],"nexthops":{"s2":[{"port":1,"link":0,
 *	     "peer":"s2","paths":1,"lanes":[0]}],...}},
 *	    ...
 *	  ]
 *	}
 *
 * one node a line, nodes in node order, destinations in node order, a
 * destination's next hops by port; "paths" counts the paths of the set
 * that take that next hop at that node toward that destination (a weight
 * for weighted multipath), "lanes" their lanes.
 */
enum sluice_route_format {
	SLUICE_ROUTES_LFT,
	SLUICE_ROUTES_NEXTHOPS_JSON,
	SLUICE_ROUTES__COUNT,
};

#define SLUICE_LFT_LIDS_MAX	0xbfff	/* the highest unicast LID */
#define SLUICE_LFT_PORTS_MAX	254	/* ports of a switch, 0 not counted */

/* "lft", "nexthops-json"; "?" out of range.  Time: O(1). */
const char *sluice_route_format_name(enum sluice_route_format fmt);
/* The enum sluice_route_format of @name, or -EINVAL.  Time: O(1). */
int sluice_route_format_parse(const char *name);

struct sluice_route_export_opts {
	bool	first;	/* LFT: keep the first path's port, not refuse */
};

/*
 * Writes the whole route set @r (validated against @g, which it belongs
 * to; not a shard) to @f as @fmt.  Everything is worked out before the
 * first byte is written, so a refusal writes nothing.  @o may be NULL.
 * Return: 0, -EINVAL (a shard, a conflict, a path an LFT cannot hold, too
 * many LIDs or ports), -ENOMEM or -EIO.
 * Time: O(H + T log T) for H hops in the set and T distinct next hops;
 * the LFT also O(n * L) for n nodes and L LIDs.
 */
int sluice_routes_export(const struct sluice_routes *r,
			 const struct sluice_graph *g,
			 enum sluice_route_format fmt,
			 const struct sluice_route_export_opts *o, FILE *f,
			 char *err, size_t errlen);

#endif /* _SLUICE_INTEROP_H */
