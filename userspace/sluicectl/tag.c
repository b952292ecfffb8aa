// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl tag { compute | check | stats } ...
 *
 * Tagger's priorities as tag files (the format is in lib/tagger/file.c,
 * the tables' meaning in lib/sluice/tagger.h): compute the tables for a
 * route file, re-verify them against it, and count what they cost.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/cbd.h>
#include <sluice/route.h>
#include <sluice/tagger.h>
#include "jout.h"
#include "load.h"
#include "args.h"
#include "progress.h"
#include "sluicectl.h"

/* Exit code of "tag check" when the tables are not safe for the routes. */
#define EXIT_UNSAFE	3

static int compute_main(const struct command *cmd, int argc, char **argv);
static int check_main(const struct command *cmd, int argc, char **argv);
static int stats_main(const struct command *cmd, int argc, char **argv);

static const struct command tag_commands[] = {
	{ "compute", compute_main,
	  "Assign Tagger priorities to routes and write the tag tables",
	  "--topo FILE --routes FILE [--mode { greedy | ttl | depth }] [--max-priorities N]\n"
	  "\t[--node NODE] [-o FILE] [-j | --json]", "tag" },
	{ "check", check_main,
	  "Re-verify tag tables against their routes (exit 3 if unsafe)",
	  "--topo FILE --routes FILE TAGS [-j | --json]", "tag" },
	{ "stats", stats_main,
	  "Priorities, tags and table entries in all and per node",
	  "--topo FILE TAGS [--node NODE] [--nodes] [-j | --json]", "tag" },
};

#define N_TAG (sizeof(tag_commands) / sizeof(tag_commands[0]))

int tag_main(const struct command *cmd, int argc, char **argv)
{
	return group_main(cmd, tag_commands, N_TAG, argc, argv);
}

enum opt_id {
	OPT_TOPO, OPT_ROUTES, OPT_OUT, OPT_JSON, OPT_MODE, OPT_MAX, OPT_NODE,
	OPT_NODES, N_OPTS
};

/* in enum sluice_tagger_mode's order */
static const char *const modes[] = { "greedy", "ttl", "depth", NULL };

static const struct arg_opt opts[] = {
	[OPT_TOPO]	= ARG_P("--topo", 0, "FILE", "the topology (sluice-topology(5))",
				.flags = ARG_REQUIRED),
	[OPT_ROUTES]	= ARG_P("--routes", 0, "FILE", "the route set (sluice-routes(5)); \"-\": stdin",
				.flags = ARG_REQUIRED),
	[OPT_OUT]	= ARG_OUTPUT,
	[OPT_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
	[OPT_MODE]	= ARG_E("--mode", 0, modes, "how priorities are assigned, default greedy"),
	[OPT_MAX]	= ARG_N("--max-priorities", 0, "N", 1, SLUICE_LANES_MAX,
				"the most priorities the assignment may use, default 8"),
	[OPT_NODE]	= ARG_S("--node", 0, "NODE", "only this node's tables"),
	[OPT_NODES]	= ARG_F("--nodes", 0, "a line per node too"),
};

static const struct args_spec compute_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 0,
	.pick = ARGS_PICK(OPT_TOPO, OPT_ROUTES, OPT_MODE, OPT_MAX, OPT_NODE,
			  OPT_OUT, OPT_JSON),
};
static const struct args_spec check_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 8,
	.operands = "TAGS, the tag file (sluice-tags(5)); \"-\": stdin",
	.pick = ARGS_PICK(OPT_TOPO, OPT_ROUTES, OPT_JSON),
};
static const struct args_spec stats_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 8,
	.operands = "TAGS, the tag file (sluice-tags(5)); \"-\": stdin",
	.pick = ARGS_PICK(OPT_TOPO, OPT_NODE, OPT_NODES, OPT_JSON),
};

struct targs {
	const char	**val;		/* NULL: not given; "" for flags */
	char		**files;
	int		n_files;
	struct sluice_tagger_opts topts;
	const char	*vals[N_OPTS];
	uint64_t	num[N_OPTS];
	struct args	args;
};

/*
 * Parses argv as @spec says.  Returns 0, EXIT_USAGE (the message
 * printed), or -1 after printing --help.
 */
static int parse(const struct command *cmd, const struct args_spec *spec,
		 int argc, char **argv, struct targs *a)
{
	memset(a, 0, sizeof(*a));
	a->args.val = a->vals;
	a->args.num = a->num;
	if (args_parse(cmd, spec, argc, argv, &a->args))
		return a->args.exit ? a->args.exit : -1;
	a->val = a->vals;
	a->files = a->args.operands;
	a->n_files = a->args.n_operands;
	a->topts.mode = a->num[OPT_MODE];
	a->topts.max_priorities = a->num[OPT_MAX];
	return 0;
}

static int load_tags(const char *path, const struct sluice_graph *g,
		     const char *only, struct sluice_tagger_tables *t)
{
	char err[SLUICE_ERRLEN];
	const char *name;
	FILE *f = open_in(path, &name);
	int ret;

	if (!f)
		return EXIT_RUNTIME;
	ret = sluice_tagger_read(t, g, f, name, only, err, sizeof(err));
	sluice_file_close(f);
	if (ret) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	return 0;
}

/*
 * --node NODE: a node of @g, or a bad argument (exit 2) naming the
 * topology file.
 */
static int check_node(const struct targs *a, const struct sluice_graph *g)
{
	const char *node = a->val[OPT_NODE];
	uint32_t u;

	if (!node)
		return 0;
	for (u = 0; u < g->n_nodes; u++)
		if (!strcmp(g->nodes[u].name, node))
			return 0;
	fprintf(stderr, "sluicectl: --node: no node \"%s\" in %s\n", node,
		a->val[OPT_TOPO]);
	return EXIT_USAGE;
}

struct tags_out {
	const struct sluice_tagger_tables	*t;
	const struct sluice_graph		*g;
	const char				*only;
};

static int write_tags(const void *arg, FILE *f)
{
	const struct tags_out *o = arg;
	char err[SLUICE_ERRLEN];

	if (!sluice_tagger_write(o->t, o->g, f, o->only, err, sizeof(err)))
		return 0;
	fprintf(stderr, "sluicectl: %s\n", err);
	return -EIO;
}

static int print_compute(const struct sluice_tagger_tables *t,
			 const struct sluice_tagging *tg,
			 const struct sluice_graph *g, bool json)
{
	struct sluice_tagger_stats st;
	char err[SLUICE_ERRLEN];
	json_object *o;
	bool ok;

	if (sluice_tagger_stats(t, g, &st, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	if (!json) {
		printf("mode %s priorities %u tags %u entries %llu ingress %llu egress %llu climbs %llu conflicts %llu\n",
		       sluice_tagger_mode_name(t->mode), st.priorities, st.tags,
		       (unsigned long long)st.entries,
		       (unsigned long long)st.in_entries,
		       (unsigned long long)st.out_entries,
		       (unsigned long long)tg->climbs,
		       (unsigned long long)tg->conflicts);
		return 0;
	}
	o = json_object_new_object();
	ok = o && jadd(o, "mode", json_object_new_string(sluice_tagger_mode_name(t->mode))) &&
	     jadd(o, "priorities", jnum(st.priorities)) &&
	     jadd(o, "tags", jnum(st.tags)) &&
	     jadd(o, "entries", jnum(st.entries)) &&
	     jadd(o, "ingress", jnum(st.in_entries)) &&
	     jadd(o, "egress", jnum(st.out_entries)) &&
	     jadd(o, "climbs", jnum(tg->climbs)) &&
	     jadd(o, "conflicts", jnum(tg->conflicts));
	return jprint(o, ok);
}

static int compute_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_tagger_tables t = { 0 };
	struct sluice_tagging tg = { 0 };
	char err[SLUICE_ERRLEN];
	struct sluice_routes r;
	struct sluice_graph g;
	struct cli_progress assigning = {
		.what = "priorities", .unit = "hops", .delay = 0.5,
	};
	struct cli_progress building = {
		.what = "tables", .unit = "paths", .delay = 0.5,
	};
	struct tags_out out;
	struct targs a;
	int ret;

	ret = parse(cmd, &compute_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (a.val[OPT_JSON] && !a.val[OPT_OUT])
		return cmd_error(cmd, "-j needs -o: without it the tags go to stdout");
	ret = load_topo(a.val[OPT_TOPO], &g);
	if (ret)
		return ret;
	ret = check_node(&a, &g);
	if (!ret)
		ret = load_routes(a.val[OPT_ROUTES], &g, &r);
	if (ret) {
		sluice_graph_free(&g);
		return ret;
	}
	if (cli_progress_wanted()) {
		a.topts.progress = cli_progress;
		a.topts.progress_arg = &assigning;
		a.topts.tables_progress = cli_progress;
		a.topts.tables_progress_arg = &building;
	}
	ret = sluice_tagger_compute(&g, &r, &a.topts, &tg, &t, err,
				    sizeof(err));
	cli_progress_end(&assigning);
	cli_progress_end(&building);
	if (ret) {
		fprintf(stderr, "sluicectl: %s: %s\n", a.val[OPT_ROUTES], err);
		ret = EXIT_RUNTIME;
		goto out;
	}
	out.t = &t;
	out.g = &g;
	out.only = a.val[OPT_NODE];
	ret = write_out(a.val[OPT_OUT], write_tags, &out);
	if (!ret && a.val[OPT_OUT])
		ret = print_compute(&t, &tg, &g, a.val[OPT_JSON]);
out:
	sluice_tagger_tables_free(&t);
	sluice_tagging_free(&tg);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	return ret;
}

/* Which path of its pair path @q is, 1-based, and the pair. */
static void print_check_text(const struct sluice_graph *g,
			     const struct sluice_routes *r,
			     const struct sluice_tagger_check *res)
{
	struct cycle_pair *cp;

	if (!res->consistent) {
		printf("ok no consistent no\nproblem %s\n", res->problem);
		return;
	}
	printf("ok %s consistent yes cbd-free %s priorities %u buffers %llu dependencies %llu unused-entries %llu\n",
	       res->ok ? "yes" : "no", res->cbd.cbd_free ? "yes" : "no",
	       res->priorities, (unsigned long long)res->cbd.link_lanes,
	       (unsigned long long)res->cbd.dependencies,
	       (unsigned long long)res->entries_unused);
	if (!res->cbd.cbd_free && !cycle_pairs(r, &res->cbd, &cp)) {
		print_cycle_text(g, &res->cbd, "priority", cp);
		free(cp);
	}
}

static int print_check_json(const struct sluice_graph *g,
			    const struct sluice_routes *r,
			    const struct sluice_tagger_check *res)
{
	json_object *o = json_object_new_object();
	struct cycle_pair *cp = NULL;
	bool ok;

	ok = o && jadd(o, "ok", json_object_new_boolean(res->ok)) &&
	     jadd(o, "consistent", json_object_new_boolean(res->consistent));
	if (ok && !res->consistent)
		ok = jadd(o, "problem", json_object_new_string(res->problem));
	if (ok && res->consistent)
		ok = jadd(o, "cbd_free", json_object_new_boolean(res->cbd.cbd_free)) &&
		     jadd(o, "priorities", jnum(res->priorities)) &&
		     jadd(o, "buffers", jnum(res->cbd.link_lanes)) &&
		     jadd(o, "dependencies", jnum(res->cbd.dependencies)) &&
		     jadd(o, "unused_entries", jnum(res->entries_unused));
	if (ok && res->consistent && !res->cbd.cbd_free) {
		ok = !cycle_pairs(r, &res->cbd, &cp);
		if (ok)
			ok = jadd(o, "cycle",
				  cycle_json(g, &res->cbd, "priority", cp));
		free(cp);
	}
	return jprint(o, ok);
}

static int check_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_tagger_tables t = { 0 };
	struct sluice_tagger_check res;
	char err[SLUICE_ERRLEN];
	struct sluice_routes r;
	struct sluice_graph g;
	struct targs a;
	int ret;

	ret = parse(cmd, &check_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (a.n_files != 1)
		return cmd_error(cmd, a.n_files ?
				       "one tag file, not %d" :
				       "no tag file given%.0d", a.n_files);
	if (!strcmp(a.files[0], "-") && !strcmp(a.val[OPT_ROUTES], "-"))
		return cmd_error(cmd, "the routes and the tags cannot both come from stdin");
	ret = load_topo(a.val[OPT_TOPO], &g);
	if (ret)
		return ret;
	ret = load_routes(a.val[OPT_ROUTES], &g, &r);
	if (ret) {
		sluice_graph_free(&g);
		return ret;
	}
	ret = load_tags(a.files[0], &g, NULL, &t);
	if (ret)
		goto out;
	if (sluice_tagger_check(&g, &r, &t, &res, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s: %s\n", a.files[0], err);
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (a.val[OPT_JSON])
		ret = print_check_json(&g, &r, &res);
	else
		print_check_text(&g, &r, &res);
	if (!ret && !res.ok)
		ret = EXIT_UNSAFE;
	sluice_tagger_check_free(&res);
out:
	sluice_tagger_tables_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	return ret;
}

static uint64_t node_entries(const struct sluice_tagger_tables *t,
			     uint32_t v, bool in)
{
	return in ? t->in_off[v + 1] - t->in_off[v] :
		    t->out_off[v + 1] - t->out_off[v];
}

static int print_stats_json(const struct sluice_tagger_stats *st,
			    const struct sluice_tagger_tables *t,
			    const struct sluice_graph *g, int64_t node,
			    bool nodes)
{
	json_object *o = json_object_new_object(), *arr, *e;
	uint32_t v;
	bool ok;

	ok = o && jadd(o, "mode", json_object_new_string(sluice_tagger_mode_name(t->mode))) &&
	     jadd(o, "algo", json_object_new_string(t->algo)) &&
	     jadd(o, "priorities", jnum(st->priorities)) &&
	     jadd(o, "tags", jnum(st->tags)) &&
	     jadd(o, "entries", jnum(st->entries)) &&
	     jadd(o, "ingress", jnum(st->in_entries)) &&
	     jadd(o, "egress", jnum(st->out_entries));
	if (ok && node < 0)
		ok = jadd(o, "nodes", jnum(g->n_nodes)) &&
		     jadd(o, "per_node", jrange(st->node_min, st->node_max,
						jfixed(st->node_avg))) &&
		     jadd(o, "bottleneck", json_object_new_string(name_of(g, st->bottleneck)));
	else if (ok)
		ok = jadd(o, "node", json_object_new_string(name_of(g, node)));
	if (ok && nodes) {
		arr = json_object_new_array_ext(g->n_nodes);
		ok = jadd(o, "per_node_entries", arr);
		for (v = 0; ok && v < g->n_nodes; v++) {
			e = json_object_new_object();
			ok = e && !json_object_array_add(arr, e);
			if (!ok) {
				json_object_put(e);
				break;
			}
			ok = jadd(e, "node", json_object_new_string(name_of(g, v))) &&
			     jadd(e, "ingress", jnum(node_entries(t, v, true))) &&
			     jadd(e, "egress", jnum(node_entries(t, v, false))) &&
			     jadd(e, "entries", jnum(node_entries(t, v, true) +
						     node_entries(t, v, false)));
		}
	}
	return jprint(o, ok);
}

static int stats_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_tagger_tables t = { 0 };
	struct sluice_tagger_stats st;
	char err[SLUICE_ERRLEN];
	const char *node;
	struct sluice_graph g;
	int64_t one = -1;
	struct targs a;
	uint32_t v;
	int ret;

	ret = parse(cmd, &stats_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (a.n_files != 1)
		return cmd_error(cmd, a.n_files ?
				       "one tag file, not %d" :
				       "no tag file given%.0d", a.n_files);
	node = a.val[OPT_NODE];
	if (node && a.val[OPT_NODES])
		return cmd_error(cmd, "--node and --nodes do not go together");
	ret = load_topo(a.val[OPT_TOPO], &g);
	if (ret)
		return ret;
	ret = check_node(&a, &g);
	if (!ret)
		ret = load_tags(a.files[0], &g, node, &t);
	if (ret)
		goto out;
	for (v = 0; node && v < g.n_nodes; v++)
		if (!strcmp(g.nodes[v].name, node))
			one = v;
	if (sluice_tagger_stats(&t, &g, &st, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (a.val[OPT_JSON]) {
		ret = print_stats_json(&st, &t, &g, one, a.val[OPT_NODES]);
		goto out;
	}
	printf("mode %s algo %s priorities %u tags %u\n",
	       sluice_tagger_mode_name(t.mode), t.algo[0] ? t.algo : "-",
	       st.priorities, st.tags);
	printf("entries %llu ingress %llu egress %llu\n",
	       (unsigned long long)st.entries,
	       (unsigned long long)st.in_entries,
	       (unsigned long long)st.out_entries);
	if (one < 0)
		printf("per-node min %llu max %llu avg %.4f bottleneck %s\n",
		       (unsigned long long)st.node_min,
		       (unsigned long long)st.node_max, st.node_avg,
		       name_of(&g, st.bottleneck));
	else
		printf("node %s\n", node);
	for (v = 0; a.val[OPT_NODES] && v < g.n_nodes; v++)
		printf("node %s ingress %llu egress %llu entries %llu\n",
		       name_of(&g, v),
		       (unsigned long long)node_entries(&t, v, true),
		       (unsigned long long)node_entries(&t, v, false),
		       (unsigned long long)(node_entries(&t, v, true) +
					    node_entries(&t, v, false)));
out:
	sluice_tagger_tables_free(&t);
	sluice_graph_free(&g);
	return ret;
}
