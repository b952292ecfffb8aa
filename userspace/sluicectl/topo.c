// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl topo { gen FAMILY [OPTIONS] | show FILE [-j] | dot FILE [-o OUT] |
 *		   import --from FORMAT FILE [-o OUT] | export --to FORMAT FILE [-o OUT] }
 *
 * Topologies as files (the format is in lib/graph/json.c and man/sluice-topology.5):
 * generate one, summarise it, draw it with Graphviz.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json.h>
#include "jout.h"
#include "cmd_topo.h"

static int show_main(const struct command *cmd, int argc, char **argv);
static int dot_main(const struct command *cmd, int argc, char **argv);

static const struct command topo_commands[] = {
	{ "gen", topo_gen_main, "Generate a topology file",
	  "{ fc | jellyfish | xpander | leafspine | fattree | bcube | ring | fc-testbed }\n"
	  "\t[OPTIONS] [-o FILE]",
	  "topo" },
	{ "show", show_main, "Summarise a topology: sizes, degrees, diameter, average shortest path",
	  "FILE [-j | --json]", "topo" },
	{ "dot", dot_main, "Draw a topology in Graphviz's language",
	  "FILE [-o FILE]", "topo" },
	{ "import", topo_import_main,
	  "Read a topology from GraphML, GML (Topology Zoo, NetworkX) or an edge list",
	  "--from { graphml | gml | edges } FILE [-o FILE]\n"
	  "\tNodes are switches unless their \"kind\" attribute says server or host (a host\n"
	  "\tbecomes a host port of the node it links to); \"hosts\" and \"tier\" are read too.", "topo" },
	{ "export", topo_export_main,
	  "Write a topology as GraphML, GML or an edge list",
	  "--to { graphml | gml | edges } FILE [-o FILE]\n"
	  "\tAn edge list keeps names and links only.", "topo" },
};

#define N_TOPO (sizeof(topo_commands) / sizeof(topo_commands[0]))

int topo_main(const struct command *cmd, int argc, char **argv)
{
	return group_main(cmd, topo_commands, N_TOPO, argc, argv);
}

static int load(const char *path, struct sluice_graph *g)
{
	char err[SLUICE_ERRLEN];

	if (sluice_graph_read_file(g, path, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	return 0;
}

struct ports {
	uint32_t	min;
	uint32_t	max;
};

/* Ports per node: links plus host ports. */
static struct ports port_range(const struct sluice_graph *g)
{
	struct ports p = { UINT32_MAX, 0 };
	uint32_t u, n;

	for (u = 0; u < g->n_nodes; u++) {
		n = sluice_graph_degree(g, u) + g->nodes[u].hosts;
		if (n < p.min)
			p.min = n;
		if (n > p.max)
			p.max = n;
	}
	return p;
}

static void print_text(const struct sluice_graph *g,
		       const struct sluice_graph_stats *st)
{
	struct ports p = port_range(g);
	uint32_t i;

	if (g->family[0]) {
		printf("generator %s", g->family);
		if (g->has_seed)
			printf(" seed %llu", (unsigned long long)g->seed);
		for (i = 0; i < g->n_params; i++)
			printf(" %s %llu", g->params[i].name,
			       (unsigned long long)g->params[i].value);
		putchar('\n');
	}
	if (g->n_layers) {
		printf("layers %u ports", g->n_layers);
		for (i = 0; i < g->n_layers; i++)
			printf("%c%u", i ? ',' : ' ', g->layer_ports[i]);
		putchar('\n');
	}
	printf("nodes %u switches %u servers %u host-ports %llu\n",
	       g->n_nodes, st->switches, st->servers,
	       (unsigned long long)st->host_ports);
	printf("links %u parallel %u\n", st->links, st->parallel_links);
	printf("degree min %u max %u avg %.2f\n", st->degree_min,
	       st->degree_max, st->degree_avg);
	printf("ports min %u max %u\n", p.min, p.max);
	printf("connected %s components %u\n",
	       st->components == 1 ? "yes" : "no", st->components);
	printf("endpoints %u pairs %llu unreachable %llu\n", st->endpoints,
	       (unsigned long long)st->pairs,
	       (unsigned long long)st->unreachable_pairs);
	printf("diameter %u avg-shortest-path %.4f\n", st->diameter,
	       st->avg_shortest_path);
}

static bool json_generator(json_object *o, const struct sluice_graph *g)
{
	json_object *gen, *layers;
	bool ok = true;
	uint32_t i;

	if (g->family[0]) {
		gen = json_object_new_object();
		ok = jadd(o, "generator", gen) &&
		     jadd(gen, "family", json_object_new_string(g->family));
		if (ok && g->has_seed)
			ok = jadd(gen, "seed", jnum(g->seed));
		for (i = 0; i < g->n_params && ok; i++)
			ok = jadd(gen, g->params[i].name,
				  jnum(g->params[i].value));
	}
	if (ok && g->n_layers) {
		layers = json_object_new_array();
		ok = jadd(o, "layers", layers);
		for (i = 0; i < g->n_layers && ok; i++)
			ok = !json_object_array_add(layers,
						    jnum(g->layer_ports[i]));
	}
	return ok;
}

static int print_json(const struct sluice_graph *g,
		      const struct sluice_graph_stats *st)
{
	json_object *o = json_object_new_object();
	struct ports p = port_range(g);
	bool ok;

	ok = o && json_generator(o, g) &&
	     jadd(o, "nodes", jnum(g->n_nodes)) &&
	     jadd(o, "switches", jnum(st->switches)) &&
	     jadd(o, "servers", jnum(st->servers)) &&
	     jadd(o, "host_ports", jnum(st->host_ports)) &&
	     jadd(o, "links", jnum(st->links)) &&
	     jadd(o, "parallel_links", jnum(st->parallel_links)) &&
	     jadd(o, "degree", jrange(st->degree_min, st->degree_max,
				      jfixed(st->degree_avg))) &&
	     jadd(o, "ports", jrange(p.min, p.max, NULL)) &&
	     jadd(o, "connected", json_object_new_boolean(st->components == 1)) &&
	     jadd(o, "components", jnum(st->components)) &&
	     jadd(o, "endpoints", jnum(st->endpoints)) &&
	     jadd(o, "pairs", jnum(st->pairs)) &&
	     jadd(o, "unreachable_pairs", jnum(st->unreachable_pairs)) &&
	     jadd(o, "diameter", jnum(st->diameter)) &&
	     jadd(o, "avg_shortest_path", jfixed(st->avg_shortest_path));
	return jprint(o, ok);
}

static int show_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_graph_stats st;
	struct sluice_graph g;
	char err[SLUICE_ERRLEN];
	const char *path = NULL;
	bool json = false;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			return sub_help(cmd);
		}
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			json = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return sub_usage_error(cmd, "unknown option \"%s\"",
					       argv[i]);
		else if (path)
			return sub_usage_error(cmd, "unexpected argument \"%s\"",
					       argv[i]);
		else
			path = argv[i];
	}
	if (!path)
		return sub_usage_error(cmd, "%s", "no topology file given");
	ret = load(path, &g);
	if (ret)
		return ret;
	if (sluice_graph_stats(&g, &st, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		ret = EXIT_RUNTIME;
	} else if (json) {
		ret = print_json(&g, &st);
	} else {
		print_text(&g, &st);
	}
	sluice_graph_free(&g);
	return ret;
}

/*
 * Graphviz: switches are boxes and servers ellipses; each tier of a Clos
 * shares a rank; each edge's id ("l17") is its link id, so that a path's
 * links can be picked out of an SVG.  Names need no escaping (graph.c).
 */
static int write_dot(const void *arg, FILE *f)
{
	const struct sluice_graph *g = arg;
	const char *fam = g->family[0] ? g->family : "topology";
	uint32_t u, id, tier;

	fprintf(f, "graph \"%s\" {\n\tnode [shape=box];\n", fam);
	for (u = 0; u < g->n_nodes; u++)
		fprintf(f, "\t\"%s\"%s;\n", g->nodes[u].name,
			g->nodes[u].kind == SLUICE_NODE_SERVER ?
			" [shape=ellipse]" : "");
	for (tier = 1; tier <= 3; tier++) {
		bool any = false;

		for (u = 0; u < g->n_nodes; u++) {
			if (g->nodes[u].tier != tier)
				continue;
			fprintf(f, "%s \"%s\";", any ? "" : "\t{ rank=same;",
				g->nodes[u].name);
			any = true;
		}
		if (any)
			fputs(" }\n", f);
	}
	for (id = 0; id < g->n_links; id++)
		fprintf(f, "\t\"%s\" -- \"%s\" [id=\"l%u\"];\n",
			g->nodes[g->links[id].a].name,
			g->nodes[g->links[id].b].name, id);
	fputs("}\n", f);
	return 0;
}

static int dot_main(const struct command *cmd, int argc, char **argv)
{
	const char *path = NULL, *out = NULL;
	struct sluice_graph g;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (is_help(argv[i])) {
			return sub_help(cmd);
		}
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) {
			if (++i == argc)
				return sub_usage_error(cmd, "%s needs a file",
						       argv[i - 1]);
			out = argv[i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return sub_usage_error(cmd, "unknown option \"%s\"",
					       argv[i]);
		} else if (path) {
			return sub_usage_error(cmd, "unexpected argument \"%s\"",
					       argv[i]);
		} else {
			path = argv[i];
		}
	}
	if (!path)
		return sub_usage_error(cmd, "%s", "no topology file given");
	ret = load(path, &g);
	if (!ret)
		ret = write_out(out, write_dot, &g);
	sluice_graph_free(&g);
	return ret;
}
