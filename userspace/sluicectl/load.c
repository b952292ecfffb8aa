// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the route, tag and analyze commands share: loading a topology and a
 * route file with the library's message on failure, finding a node by
 * name, and printing a dependency cycle (text and JSON) with the paths
 * that make it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "load.h"

int load_topo(const char *path, struct sluice_graph *g)
{
	char err[SLUICE_ERRLEN];

	if (sluice_graph_read_file(g, path, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	return 0;
}

/* Opens @path for reading, "-" being stdin; prints why it cannot. */
FILE *open_in(const char *path, const char **name)
{
	FILE *f;

	if (!strcmp(path, "-")) {
		*name = "<stdin>";
		return stdin;
	}
	*name = path;
	f = fopen(path, "r");
	if (!f)
		fprintf(stderr, "sluicectl: %s: %s\n", path, strerror(errno));
	return f;
}

/* Loads @path ("-": stdin) as routes of @g; 0 or EXIT_RUNTIME. */
int load_routes(const char *path, const struct sluice_graph *g,
		struct sluice_routes *r)
{
	char err[SLUICE_ERRLEN];
	const char *name;
	FILE *f = open_in(path, &name);
	int ret;

	if (!f)
		return EXIT_RUNTIME;
	ret = sluice_routes_read(r, g, f, name, err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (ret) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	return 0;
}

/* The node named by the @len bytes at @name; 0 or -ENOENT. */
int find_node(const struct sluice_graph *g, const char *name, size_t len,
	      uint32_t *u)
{
	uint32_t i;

	for (i = 0; i < g->n_nodes; i++)
		if (!strncmp(g->nodes[i].name, name, len) &&
		    !g->nodes[i].name[len]) {
			*u = i;
			return 0;
		}
	return -ENOENT;
}

/* The pair path @q belongs to, and which of its paths it is (1-based). */
uint64_t pair_of(const struct sluice_routes *r, uint64_t q, uint64_t *nth)
{
	uint64_t p = sluice_routes_path_pair(r, q);

	*nth = q - r->pair_path[p] + 1;
	return p;
}

/*
 * The pair and the number (from 1) of the path behind each hop of @res's
 * cycle, from the whole set @r: *@cp, @res->n_cycle of them.  0, or
 * -ENOMEM with a message printed.
 */
int cycle_pairs(const struct sluice_routes *r,
		const struct sluice_cbd_result *res, struct cycle_pair **cp)
{
	uint64_t p, nth;
	uint32_t i;

	*cp = calloc(res->n_cycle ? res->n_cycle : 1, sizeof(**cp));
	if (!*cp) {
		fputs("sluicectl: out of memory\n", stderr);
		return -ENOMEM;
	}
	for (i = 0; i < res->n_cycle; i++) {
		p = pair_of(r, res->cycle[i].path, &nth);
		(*cp)[i] = (struct cycle_pair){ r->pair_src[p], r->pair_dst[p],
						nth };
	}
	return 0;
}

/*
 * "cycle N", then a line per hop: the link, its direction, its lane (named
 * @lane: "lane" for routes, "priority" for tag tables) and the path that
 * goes on to the next hop (@cp, cycle_pairs()).
 */
void print_cycle_text(const struct sluice_graph *g,
		      const struct sluice_cbd_result *res, const char *lane,
		      const struct cycle_pair *cp)
{
	uint32_t i;

	printf("cycle %u\n", res->n_cycle);
	for (i = 0; i < res->n_cycle; i++) {
		const struct sluice_cbd_hop *h = &res->cycle[i];

		printf("  link %u %s -> %s %s %u, then by path %llu of %s %s\n",
		       h->link, name_of(g, h->from), name_of(g, h->to), lane,
		       h->lane, (unsigned long long)cp[i].nth,
		       name_of(g, cp[i].src), name_of(g, cp[i].dst));
	}
}

/* The same as a JSON array of hops, or NULL without memory. */
json_object *cycle_json(const struct sluice_graph *g,
			const struct sluice_cbd_result *res, const char *lane,
			const struct cycle_pair *cp)
{
	json_object *cyc = json_object_new_array(), *h;
	uint32_t i;
	bool ok = cyc;

	for (i = 0; ok && i < res->n_cycle; i++) {
		const struct sluice_cbd_hop *c = &res->cycle[i];

		h = json_object_new_object();
		ok = h && !json_object_array_add(cyc, h);
		if (!ok) {
			json_object_put(h);
			break;
		}
		ok = jadd(h, "link", jnum(c->link)) &&
		     jadd(h, "from", json_object_new_string(name_of(g, c->from))) &&
		     jadd(h, "to", json_object_new_string(name_of(g, c->to))) &&
		     jadd(h, lane, jnum(c->lane)) &&
		     jadd(h, "path_src",
			  json_object_new_string(name_of(g, cp[i].src))) &&
		     jadd(h, "path_dst",
			  json_object_new_string(name_of(g, cp[i].dst))) &&
		     jadd(h, "path", jnum(cp[i].nth));
	}
	if (ok)
		return cyc;
	json_object_put(cyc);
	return NULL;
}
