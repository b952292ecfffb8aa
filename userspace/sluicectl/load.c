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
#include "progress.h"

int load_topo(const char *path, struct sluice_graph *g)
{
	char err[SLUICE_ERRLEN];

	if (sluice_graph_read_file(g, path, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	return 0;
}

/*
 * Opens @path for reading, "-" being stdin (named "<stdin>" in messages);
 * prints why it cannot (a directory is no file: sluice_file_open()).
 * Close it with sluice_file_close().
 */
FILE *open_in(const char *path, const char **name)
{
	char err[SLUICE_ERRLEN];
	FILE *f;

	*name = strcmp(path, "-") ? path : "<stdin>";
	if (sluice_file_open(path, &f, err, sizeof(err)))
		fprintf(stderr, "sluicectl: %s\n", err);
	return f;
}

/* Loads @path ("-": stdin) as routes of @g; 0 or EXIT_RUNTIME. */
int load_routes(const char *path, const struct sluice_graph *g,
		struct sluice_routes *r)
{
	struct cli_progress p = { .unit = "pairs", .delay = 0.5 };
	char err[SLUICE_ERRLEN];
	const char *name;
	FILE *f = open_in(path, &name);
	int ret;

	if (!f)
		return EXIT_RUNTIME;
	/* "sluicectl: routes.txt 4096/999000 pairs", on a terminal */
	p.what = name;
	ret = sluice_routes_read_progress(r, g, f, name,
					  cli_progress_wanted() ? cli_progress :
					  NULL, &p, err, sizeof(err));
	sluice_file_close(f);
	cli_progress_end(&p);
	if (ret) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	return 0;
}

/*
 * The routing options given (each one's value, or NULL; the seed's named
 * @seed_name), checked by the library against @o->algo (set, with the
 * paths, lanes and seed given): 0, or -EINVAL with the message in @msg.
 */
int route_opts_check(struct sluice_route_opts *o, const char *paths,
		     const char *lanes, const char *seed,
		     const char *seed_name, const char *orient,
		     const char *root, char *msg, size_t len)
{
	const char *const names[SLUICE_ROUTE_OPT__COUNT] = {
		[SLUICE_ROUTE_OPT_PATHS]	= "--paths",
		[SLUICE_ROUTE_OPT_LANES]	= "--lanes",
		[SLUICE_ROUTE_OPT_SEED]		= seed_name,
		[SLUICE_ROUTE_OPT_ORIENT]	= "--orient",
		[SLUICE_ROUTE_OPT_ROOT]		= "--root",
	};
	const char *const given[SLUICE_ROUTE_OPT__COUNT] = {
		[SLUICE_ROUTE_OPT_PATHS]	= paths,
		[SLUICE_ROUTE_OPT_LANES]	= lanes,
		[SLUICE_ROUTE_OPT_SEED]		= seed,
		[SLUICE_ROUTE_OPT_ORIENT]	= orient,
		[SLUICE_ROUTE_OPT_ROOT]		= root,
	};
	unsigned int k, bits = 0;

	for (k = 0; k < SLUICE_ROUTE_OPT__COUNT; k++)
		if (given[k])
			bits |= 1u << k;
	return sluice_route_opts_check(o, bits, orient, names, msg, len);
}

/*
 * --root NODE (NULL: none) of topology @topo into @o; 0, or EXIT_USAGE for
 * a node the topology lacks: a bad argument, as --node-rate's.
 */
int load_root(const struct sluice_graph *g, const char *root,
	      const char *topo, struct sluice_route_opts *o)
{
	if (!root)
		return 0;
	if (sluice_graph_node_find(g, root, strlen(root), &o->root)) {
		fprintf(stderr, "sluicectl: --root: no node \"%s\" in %s\n",
			root, topo);
		return EXIT_USAGE;
	}
	o->has_root = true;
	return 0;
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
