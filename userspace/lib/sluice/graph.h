/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Switch fabrics as multigraphs.
 *
 * A graph has nodes (switches, and BCube's servers, which forward too) and
 * links between them.  A node is its index, 0 to n_nodes - 1; a link is its
 * index too, its id: two nodes may share several links (leaf-spine with
 * parallel links), so paths are sequences of link ids, not of node pairs.
 * Links are undirected and never loop on one node.
 *
 * Build a graph with sluice_graph_init(), sluice_graph_set_node() for every
 * node and sluice_graph_add_link(), then sluice_graph_finalize(): it
 * validates everything and builds the adjacency arrays (CSR: node u's links
 * are adj[off[u]] to adj[off[u + 1] - 1], in link id order).  Traversals need
 * a finalized graph; adding a link unfinalizes it.
 *
 * FC (Flattened Clos) fabrics also carry their virtual layers: the number of
 * ports of each virtual layer (layer_ports, "3,6,6,3") and, for each link,
 * the layer of the port at each end (la, lb, 1-based; 0 outside FC).
 *
 * Every function that can fail returns 0 (or a non-negative value) or a
 * negative errno, with a message in @err (@errlen bytes; SLUICE_ERRLEN is
 * enough) that names the offending field the way the topology file does,
 * e.g. "links[17].b".
 */
#ifndef _SLUICE_GRAPH_H
#define _SLUICE_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef SLUICE_ERRLEN
#define SLUICE_ERRLEN		256
#endif

#define SLUICE_NAME_MAX		32	/* a node name, with its NUL */
#define SLUICE_LAYERS_MAX	16	/* FC virtual layers */
#define SLUICE_PARAMS_MAX	8	/* generator parameters kept */
#define SLUICE_PARAM_NAME_MAX	24
#define SLUICE_FAMILY_MAX	16
#define SLUICE_NODES_MAX	(1u << 22)
#define SLUICE_LINKS_MAX	(1u << 26)
#define SLUICE_HOSTS_MAX	65535	/* host ports of one node */
#define SLUICE_DIST_INF		UINT32_MAX

enum sluice_node_kind {
	SLUICE_NODE_SWITCH,
	SLUICE_NODE_SERVER,	/* a host that forwards (BCube) */
};

struct sluice_node {
	char		name[SLUICE_NAME_MAX];
	uint32_t	hosts;	/* host ports */
	uint8_t		kind;	/* enum sluice_node_kind */
	/* Clos tier: 1 ToR/leaf/edge, 2 spine/aggregation, 3 core; 0 none */
	uint8_t		tier;
};

struct sluice_link {
	uint32_t	a, b;	/* node ids, a != b */
	uint8_t		la, lb;	/* FC virtual layer of the port at a and at b */
};

struct sluice_adj {
	uint32_t	link;	/* link id */
	uint32_t	peer;	/* the node at its other end */
};

struct sluice_param {
	char		name[SLUICE_PARAM_NAME_MAX];
	uint64_t	value;
};

struct sluice_graph {
	uint32_t		n_nodes;
	uint32_t		n_links;
	struct sluice_node	*nodes;
	struct sluice_link	*links;
	uint32_t		links_cap;
	bool			finalized;
	uint32_t		*off;	/* n_nodes + 1 */
	struct sluice_adj	*adj;	/* 2 * n_links */
	/* FC: ports of each virtual layer, layer_ports[0] is layer 1 */
	uint32_t		n_layers;
	uint32_t		layer_ports[SLUICE_LAYERS_MAX];
	/* Where the topology came from; kept and written as it is. */
	char			family[SLUICE_FAMILY_MAX];
	bool			has_seed;
	uint64_t		seed;
	uint32_t		n_params;
	struct sluice_param	params[SLUICE_PARAMS_MAX];
};

struct sluice_graph_stats {
	uint32_t	switches;
	uint32_t	servers;
	uint32_t	links;
	uint32_t	parallel_links;	/* links repeating an earlier node pair */
	uint64_t	host_ports;
	uint32_t	degree_min;	/* links per node */
	uint32_t	degree_max;
	double		degree_avg;
	uint32_t	components;
	/*
	 * Over ordered pairs of distinct endpoints (nodes with host ports, and
	 * servers; every node if there are none) that are connected: the
	 * longest and the mean shortest path, in links.
	 */
	uint32_t	endpoints;
	uint64_t	pairs;
	uint64_t	unreachable_pairs;
	uint32_t	diameter;
	double		avg_shortest_path;
};

/* Time: O(n_nodes). */
int sluice_graph_init(struct sluice_graph *g, uint32_t n_nodes,
		      char *err, size_t errlen);
/* A deep copy of @src (graph.c).  Time: O(nodes + links). */
int sluice_graph_copy(struct sluice_graph *dst, const struct sluice_graph *src,
		      char *err, size_t errlen);
/* Time: O(1). */
void sluice_graph_free(struct sluice_graph *g);
/* Time: O(1). */
int sluice_graph_set_node(struct sluice_graph *g, uint32_t u,
			  const char *name, enum sluice_node_kind kind,
			  uint32_t hosts, uint8_t tier,
			  char *err, size_t errlen);
/* Time: O(1) amortized. */
int sluice_graph_add_link(struct sluice_graph *g, uint32_t a, uint32_t b,
			  uint8_t la, uint8_t lb, char *err, size_t errlen);
/* Time: O(k). */
int sluice_graph_set_layers(struct sluice_graph *g, uint32_t n_layers,
			    const uint32_t *layer_ports,
			    char *err, size_t errlen);
/* Time: O(1). */
int sluice_graph_set_family(struct sluice_graph *g, const char *family,
			    char *err, size_t errlen);
/* Time: O(1). */
void sluice_graph_set_seed(struct sluice_graph *g, uint64_t seed);
/* Time: O(1). */
int sluice_graph_add_param(struct sluice_graph *g, const char *name,
			   uint64_t value, char *err, size_t errlen);
/* Time: O(n log n + m) for n nodes and m links. */
int sluice_graph_finalize(struct sluice_graph *g, char *err, size_t errlen);

/* Links at node @u of a finalized graph. Time: O(1). */
static inline uint32_t sluice_graph_degree(const struct sluice_graph *g,
					   uint32_t u)
{
	return g->off[u + 1] - g->off[u];
}

static inline bool sluice_node_is_endpoint(const struct sluice_node *n)
{
	return n->hosts || n->kind == SLUICE_NODE_SERVER;
}

/* Time: O(1). */
const char *sluice_node_kind_name(enum sluice_node_kind kind);
/* Time: O(1). */
/*
 * A valid node name: 1 to 31 letters, digits or -_.:/, the first a letter
 * or digit.  Time: O(length).
 */
bool sluice_node_name_valid(const char *name);
int sluice_node_kind_parse(const char *name);
/*
 * The node named by the @len bytes at @name into *@u: 0, or -ENOENT if
 * no node has that name.  Time: O(N).
 */
int sluice_graph_node_find(const struct sluice_graph *g, const char *name,
			   size_t len, uint32_t *u);

/* Time: O(n + m). */
void sluice_graph_bfs(const struct sluice_graph *g, uint32_t src,
		      uint32_t *dist, uint32_t *queue);
/* Time: O(n + m). */
uint32_t sluice_graph_components(const struct sluice_graph *g,
				 uint32_t *comp, uint32_t *queue);
/* Time: O(e (n + m)) for e endpoints: one BFS from each. */
int sluice_graph_stats(const struct sluice_graph *g,
		       struct sluice_graph_stats *st, char *err, size_t errlen);

/* Time: O(len + n log n + m). */
int sluice_graph_read_buf(struct sluice_graph *g, const char *buf, size_t len,
			  char *err, size_t errlen);
/* Time: as sluice_graph_read_buf(). */
int sluice_graph_read_file(struct sluice_graph *g, const char *path,
			   char *err, size_t errlen);
/* Time: O(n + m). */
int sluice_graph_write(const struct sluice_graph *g, FILE *f,
		       char *err, size_t errlen);

#endif /* _SLUICE_GRAPH_H */
