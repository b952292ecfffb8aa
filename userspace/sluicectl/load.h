/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading topologies and route files, node names, the routing options
 * given, dependency cycles: shared by the route, tag and analyze commands
 * (load.c).
 */
#ifndef _SLUICECTL_LOAD_H
#define _SLUICECTL_LOAD_H

#include <stdio.h>
#include <sluice/cbd.h>
#include <sluice/file.h>
#include <sluice/graph.h>
#include <sluice/route.h>
#include "jout.h"
#include "sluicectl.h"

static inline const char *name_of(const struct sluice_graph *g, uint32_t u)
{
	return g->nodes[u].name;
}

int load_topo(const char *path, struct sluice_graph *g);
FILE *open_in(const char *path, const char **name);
int load_routes(const char *path, const struct sluice_graph *g,
		struct sluice_routes *r);
int route_opts_check(struct sluice_route_opts *o, const char *paths,
		     const char *lanes, const char *seed,
		     const char *seed_name, const char *orient,
		     const char *root, char *msg, size_t len);
int load_root(const struct sluice_graph *g, const char *root,
	      const char *topo, struct sluice_route_opts *o);
uint64_t pair_of(const struct sluice_routes *r, uint64_t q, uint64_t *nth);
/* The pair and path number behind one hop of a dependency cycle. */
struct cycle_pair {
	uint32_t	src, dst;
	uint64_t	nth;
};

int cycle_pairs(const struct sluice_routes *r,
		const struct sluice_cbd_result *res, struct cycle_pair **cp);
void print_cycle_text(const struct sluice_graph *g,
		      const struct sluice_cbd_result *res, const char *lane,
		      const struct cycle_pair *cp);
json_object *cycle_json(const struct sluice_graph *g,
			const struct sluice_cbd_result *res, const char *lane,
			const struct cycle_pair *cp);

#endif /* _SLUICECTL_LOAD_H */
