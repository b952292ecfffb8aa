/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the foreign topology readers (not installed): what a reader
 * found, before it becomes a sluice topology (build.c).  Each reader only
 * checks its own syntax and fills a struct ix_graph; the mapping rules of
 * sluice/interop.h are applied once, in ix_build().
 */
#ifndef _SLUICE_LIB_INTEROP_INTERNAL_H
#define _SLUICE_LIB_INTEROP_INTERNAL_H

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sluice/graph.h>
#include <sluice/interop.h>
#include "../graph/internal.h"

/*
 * "line N: ..." in @err, returning -EINVAL: every reader's refusal.  A
 * macro, so that the compiler checks each format.
 */
#define IX_BAD(err, errlen, line, fmt, ...) \
	sluice_i_errf((err), (errlen), -EINVAL, "line %" PRIu64 ": " fmt, \
		      (uint64_t)(line), ##__VA_ARGS__)

#define IX_ABSENT	INT64_MIN	/* a number the file does not give */
#define IX_KIND_ABSENT	(-1)

enum ix_kind {
	IX_SWITCH,
	IX_SERVER,
	IX_HOST,
};

struct ix_node {
	char		*id;	/* GraphML id, GML id in decimal, edge list word */
	char		*label;	/* GML label, or NULL */
	int		kind;	/* enum ix_kind, or IX_KIND_ABSENT */
	int64_t		hosts;	/* or IX_ABSENT */
	int64_t		tier;	/* or IX_ABSENT */
	uint64_t	line;
};

struct ix_edge {
	char		*a, *b;	/* node ids */
	int64_t		la, lb;	/* or IX_ABSENT */
	uint64_t	line;
};

struct ix_graph {
	struct ix_node	*nodes;
	uint64_t	n_nodes, cap_nodes;
	struct ix_edge	*edges;
	uint64_t	n_edges, cap_edges;
	char		*layers;	/* "3,6,6,3", or NULL */
	uint64_t	layers_line;
	char		*generator;	/* "fc seed=1 switches=50", or NULL */
	uint64_t	generator_line;
	bool		by_label;	/* GML: labels name the nodes if usable */
	bool		implicit;	/* edge list: an edge's ends are nodes */
};

/* A new node or edge at the end, its fields absent; NULL without memory. */
struct ix_node *ix_add_node(struct ix_graph *x, uint64_t line);
struct ix_edge *ix_add_edge(struct ix_graph *x, uint64_t line);
void ix_free(struct ix_graph *x);

/* @words[@i] (@n of them), or "?". */
const char *ix_word(const char *const *words, int n, int i);
/* The index of @w in @words, or -EINVAL. */
int ix_word_parse(const char *const *words, int n, const char *w);
/*
 * The graph attributes "generator" ("fc seed=1 switches=50") and "layers"
 * ("3,6,6,3") as @gen_fmt and @layers_fmt (each with one %s) print them;
 * nothing for what @g lacks.
 */
void ix_write_graph_attrs(const struct sluice_graph *g, FILE *f,
			  const char *gen_fmt, const char *layers_fmt);

/* "switch", "server" or "host" as enum ix_kind, or -EINVAL. */
int ix_kind_parse(const char *s);
/* A whole decimal integer, optionally signed; false if not or too large. */
bool ix_int(const char *s, int64_t *v);

/*
 * The sluice topology of what a reader found (sluice/interop.h has the
 * rules); @g is finalized, or all zeroes on failure.  Frees nothing of @x.
 */
int ix_build(struct ix_graph *x, struct sluice_graph *g,
	     struct sluice_topo_import_info *info, char *err, size_t errlen);

/* The readers: fill @x from @len bytes at @buf; "line N: ..." on error. */
int ix_read_graphml(struct ix_graph *x, const char *buf, size_t len,
		    char *err, size_t errlen);
int ix_read_gml(struct ix_graph *x, const char *buf, size_t len,
		char *err, size_t errlen);
int ix_read_edges(struct ix_graph *x, const char *buf, size_t len,
		  char *err, size_t errlen);

/* The writers; the graph is finalized. */
void ix_write_graphml(const struct sluice_graph *g, FILE *f);
void ix_write_gml(const struct sluice_graph *g, FILE *f);
void ix_write_edges(const struct sluice_graph *g, FILE *f);

#endif /* _SLUICE_LIB_INTEROP_INTERNAL_H */
