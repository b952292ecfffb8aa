// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl route { load | unload | show } ...: a route set in the kernel.
 *
 * The library loads it (sluice/fabric_load.h: all or nothing, into every
 * switch of a fabric made by "fabric up" (the default), or one switch,
 * also on a real machine ("--topo FILE --switch NODE", in this namespace
 * or --netns NS; its ports must then be named l<LINK> and addressed as a
 * fabric's are), with Tagger's tables (--tags), qdisc options and a
 * multipath mode (--multipath); the order and what is put back are
 * there.  This file reads the arguments, the fabric's state, the
 * topology and the route file, and prints what the library says and did.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sluice/fabric.h>
#include <sluice/fabric_load.h>
#include <sluice/fabric_nl.h>
#include <sluice/multipath.h>
#include <sluice/route.h>
#include <sluice/switch.h>
#include "cmd_fabric.h"
#include "jout.h"
#include "load.h"
#include "args.h"
#include "qdisc_args.h"
#include "sluicectl.h"
#include "sw.h"

/* "route show" when the kernel and the file differ, as "route check". */
#define EXIT_DIFFERS	3

enum opt_id {
	OPT_NAME, OPT_SWITCH, OPT_TOPO, OPT_NETNS, OPT_LOCAL, OPT_VERBOSE,
	OPT_JSON, OPT_TAGS, OPT_TAG_SOURCE, OPT_MULTIPATH,
	/* "route load": each switch port's qdisc options (qdisc_args.h) */
	OPT_Q_FIRST,
	N_OPTS = OPT_Q_FIRST + N_QOPTS,
};

static const struct arg_opt opts[] = {
	[OPT_NAME]	= ARG_S("--name", 0, "NAME", "the fabric, default sluice"),
	[OPT_SWITCH]	= ARG_S("--switch", 0, "NODE",
				"only this switch of the fabric, or with --topo the switch this namespace is"),
	[OPT_TOPO]	= ARG_P("--topo", 0, "FILE",
				"load one switch outside a fabric: the topology the routes are of"),
	[OPT_NETNS]	= ARG_S("--netns", 'n', "NS",
				"with --topo or --local: the switch's namespace, default sluicectl's"),
	[OPT_LOCAL]	= ARG_F("--local", 0,
				"remove sluice's routes from this namespace (or --netns), no fabric"),
	[OPT_VERBOSE]	= ARG_F("--verbose", 'v', "a line per switch too"),
	[OPT_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
	[OPT_TAGS]	= ARG_P("--tags", 0, "TAGFILE",
				"Tagger's tables (sluice-tags(5)) loaded with the routes"),
	[OPT_TAG_SOURCE] = ARG_S("--tag-source", 0, "SOURCE",
				 "with --tags: what the switches read the tag from, default dscp"),
	[OPT_MULTIPATH]	= ARG_S("--multipath", 0, "MODE",
				"load in this mode (hash, hash5, exact, wcmp, sport) and make it the fabric's"),
	QDISC_OPTS(OPT_Q_FIRST),
};

static const struct args_spec load_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 4,
	.operands = "ROUTES, the route file (sluice-routes(5))",
	.pick = ARGS_PICK(OPT_NAME, OPT_SWITCH, OPT_TOPO, OPT_NETNS, OPT_TAGS,
			  OPT_TAG_SOURCE, OPT_MULTIPATH, OPT_VERBOSE, OPT_JSON,
			  QDISC_PICKS(OPT_Q_FIRST)),
};
static const struct args_spec unload_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 0,
	.pick = ARGS_PICK(OPT_NAME, OPT_SWITCH, OPT_LOCAL, OPT_NETNS, OPT_JSON),
};
static const struct args_spec show_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 4,
	.operands = "ROUTES, the route file (sluice-routes(5))",
	.pick = ARGS_PICK(OPT_NAME, OPT_SWITCH, OPT_TOPO, OPT_NETNS, OPT_TAGS,
			  OPT_TAG_SOURCE, OPT_JSON),
};

struct ctx {
	const struct command	*cmd;
	const char		**val;
	char			**files;
	int			n_files;
	const char		*vals[N_OPTS];
	uint64_t		num[N_OPTS];
	struct args		args;
	bool			fabric;		/* a fabric's switches */
	struct sluice_fabric_state s;
	bool			has_state;
	struct sluice_graph	g;		/* --topo */
	bool			has_topo;
	struct sluice_routes	r;
	bool			has_routes;
	bool			qdisc;		/* qdisc options given */
	struct sluice_fabric_qdisc q;
	uint8_t			tag_source;
	struct sluice_fabric_load_opts o;
	struct sluice_fabric_load_result res;
};

/* --tag-source: a source's name, "dscp" without it. */
static int parse_tag_source(struct ctx *c)
{
	const char *src = c->val[OPT_TAG_SOURCE] ? c->val[OPT_TAG_SOURCE] :
			  "dscp";
	int s = sluice_tag_source_parse(src);

	if (s < 0 || s == SLUICE_TAG_SOURCE_NONE)
		return cmd_error(c->cmd, "--tag-source: \"%s\" is not a tag source (ip-ttl, mpls-ttl, dscp, mpls-tc, pcp or mpls-depth)",
				 src);
	c->tag_source = s;
	return 0;
}

static int parse(struct ctx *c, const struct args_spec *spec, int argc,
		 char **argv, bool routes)
{
	const struct command *cmd = c->cmd;
	char msg[128];

	c->args.val = c->vals;
	c->args.num = c->num;
	if (args_parse(cmd, spec, argc, argv, &c->args))
		return c->args.exit ? c->args.exit : -1;
	c->val = c->vals;
	c->files = c->args.operands;
	c->n_files = c->args.n_operands;
	if (routes && c->n_files != 1)
		return cmd_error(cmd, c->n_files ?
				 "one route file, not %d" :
				 "no route file given%.0d", c->n_files);
	if (c->val[OPT_TOPO] && !c->val[OPT_SWITCH])
		return cmd_error(cmd, "--topo FILE loads one switch: give --switch NODE");
	if ((c->val[OPT_TOPO] || c->val[OPT_LOCAL]) && c->val[OPT_NAME])
		return cmd_error(cmd, "--name is for a fabric, not with %s",
				       c->val[OPT_TOPO] ? "--topo" : "--local");
	if (c->val[OPT_NETNS] && !c->val[OPT_TOPO] && !c->val[OPT_LOCAL])
		return cmd_error(cmd, "--netns is for one switch outside a fabric (--topo or --local)");
	if (c->val[OPT_TAG_SOURCE] && !c->val[OPT_TAGS])
		return cmd_error(cmd, "--tag-source goes with --tags TAGFILE");
	if (c->val[OPT_LOCAL] && c->val[OPT_SWITCH])
		return cmd_error(cmd, "--local takes no --switch");
	if (c->val[OPT_MULTIPATH] && (c->val[OPT_TOPO] || c->val[OPT_LOCAL]))
		return cmd_error(cmd, "--multipath is a fabric's mode, kept in its state: not with %s",
				       c->val[OPT_TOPO] ? "--topo" : "--local");
	if (c->val[OPT_MULTIPATH] &&
	    sluice_multipath_parse(c->val[OPT_MULTIPATH]) < 0)
		return cmd_error(cmd, "--multipath: \"%s\" is not hash, hash5, exact, wcmp or sport",
				       c->val[OPT_MULTIPATH]);
	if (c->val[OPT_NAME] &&
	    sluice_fabric_name_check(c->val[OPT_NAME], msg, sizeof(msg)))
		return cmd_error(cmd, "--name: %s", msg);
	c->fabric = !c->val[OPT_TOPO] && !c->val[OPT_LOCAL];
	return c->val[OPT_TAGS] ? parse_tag_source(c) : 0;
}

static const char *fabric_name(const struct ctx *c)
{
	return c->val[OPT_NAME] ? c->val[OPT_NAME] : SLUICE_FABRIC_DEFAULT_NAME;
}

/* The library's messages, as sluicectl's. */
static void say(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "sluicectl: %s\n", line);
}

/* The qdisc options of "route load", as "fabric up" takes them. */
static int parse_qdisc(struct ctx *c)
{
	char words[FABRIC_QDISC_MAX];
	int ret;

	ret = qdisc_args_words(c->cmd, opts + OPT_Q_FIRST, c->val + OPT_Q_FIRST,
			       c->num + OPT_Q_FIRST, words, sizeof(words));
	if (ret || !words[0])
		return ret;
	ret = qdisc_args_parse(words, &c->q);
	if (ret)
		return ret;
	c->qdisc = true;
	return 0;
}

/* The fabric's state or the topology, and the routes; the load's options. */
static int setup(struct ctx *c, enum sluice_fabric_load_action action)
{
	struct sluice_fabric_load_opts *o = &c->o;
	const struct sluice_graph *g = NULL;
	int ret;

	if (c->fabric) {
		ret = fabric_state_load(fabric_name(c), &c->s, false);
		if (ret)
			return EXIT_RUNTIME;
		c->has_state = true;
		g = &c->s.g;
		o->state = &c->s;
	} else if (c->val[OPT_TOPO]) {
		ret = load_topo(c->val[OPT_TOPO], &c->g);
		if (ret)
			return ret;
		c->has_topo = true;
		g = &c->g;
		o->g = g;
		o->topo_name = c->val[OPT_TOPO];
	}
	if (action != SLUICE_FABRIC_UNLOAD) {
		ret = load_routes(c->files[0], g, &c->r);
		if (ret)
			return ret;
		c->has_routes = true;
		o->routes = &c->r;
		o->routes_name = c->files[0];
	}
	o->action = action;
	o->switch_name = c->val[OPT_SWITCH];
	o->netns = c->val[OPT_NETNS];
	o->set_multipath = c->val[OPT_MULTIPATH];
	o->multipath = c->val[OPT_MULTIPATH] ?
		       sluice_multipath_parse(c->val[OPT_MULTIPATH]) : 0;
	o->tags_path = c->val[OPT_TAGS];
	o->tag_source = c->tag_source;
	o->qdisc = c->qdisc ? &c->q : NULL;
	o->qdisc_limit = c->val[OPT_Q_FIRST + QOPT_LIMIT];
	o->say = say;
	o->warn = say;
	return 0;
}

/* Loads, unloads or compares as the options say; 0 or an exit code. */
static int run(struct ctx *c, enum sluice_fabric_load_action action)
{
	char err[SLUICE_ERRLEN];
	int ret;

	ret = setup(c, action);
	if (ret)
		return ret;
	ret = sluice_fabric_routes_load(&c->o, &c->res, err, sizeof(err));
	if (!ret)
		return 0;
	return c->res.refused ? EXIT_USAGE : EXIT_RUNTIME;
}

static void teardown(struct ctx *c)
{
	sluice_fabric_load_result_free(&c->res);
	if (c->has_routes)
		sluice_routes_free(&c->r);
	if (c->has_state)
		sluice_fabric_state_free(&c->s);
	if (c->has_topo)
		sluice_graph_free(&c->g);
}

static json_object *switch_json(const struct ctx *c,
				const struct sluice_fabric_load_switch *sw)
{
	json_object *e = json_object_new_object();

	if (e && jadd(e, "switch", json_object_new_string(sw->name)) &&
	    jadd(e, "routes", jnum(sw->want.n_routes)) &&
	    (!c->qdisc || jadd(e, "qdisc_ports", jnum(sw->qdisc_ports))) &&
	    jadd(e, "added", jnum(sw->d.added)) &&
	    jadd(e, "replaced", jnum(sw->d.replaced)) &&
	    jadd(e, "deleted", jnum(sw->d.deleted)) &&
	    jadd(e, "unchanged", jnum(sw->d.unchanged)))
		return e;
	json_object_put(e);
	return NULL;
}

static int print_result(const struct ctx *c, const char *verb, bool json,
			bool verbose)
{
	const struct sluice_fabric_load_result *res = &c->res;
	const struct sluice_fabric_load_switch *sw;
	bool mode_changed = c->fabric && res->multipath != res->old_multipath;
	json_object *o, *arr = NULL;
	uint32_t u;
	bool ok;

	if (!json) {
		for (u = 0; verbose && u < res->n; u++) {
			sw = &res->sw[u];
			printf("switch %s: %llu routes: %llu added, %llu replaced, %llu deleted, %llu unchanged\n",
			       sw->name, (unsigned long long)sw->want.n_routes,
			       (unsigned long long)sw->d.added,
			       (unsigned long long)sw->d.replaced,
			       (unsigned long long)sw->d.deleted,
			       (unsigned long long)sw->d.unchanged);
		}
		printf("%s %u switch%s: %llu routes, %llu changed (%llu added, %llu replaced, %llu deleted)\n",
		       verb, res->n, res->n == 1 ? "" : "es",
		       (unsigned long long)res->routes,
		       (unsigned long long)(res->added + res->replaced +
					    res->deleted),
		       (unsigned long long)res->added,
		       (unsigned long long)res->replaced,
		       (unsigned long long)res->deleted);
		if (c->qdisc)
			printf("qdisc options: %u ports, %u changed\n",
			       res->qdisc_ports, res->qdisc_changed);
		if (mode_changed)
			printf("multipath %s (was %s)\n",
			       sluice_multipath_name(res->multipath),
			       sluice_multipath_name(res->old_multipath));
		return 0;
	}
	o = json_object_new_object();
	ok = o && jadd(o, "switches", jnum(res->n)) &&
	     jadd(o, "routes", jnum(res->routes)) &&
	     jadd(o, "changed", jnum(res->added + res->replaced +
				     res->deleted)) &&
	     jadd(o, "added", jnum(res->added)) &&
	     jadd(o, "replaced", jnum(res->replaced)) &&
	     jadd(o, "deleted", jnum(res->deleted)) &&
	     jadd(o, "unchanged", jnum(res->unchanged)) &&
	     (!c->qdisc || jadd(o, "qdisc_ports", jnum(res->qdisc_ports))) &&
	     (!c->qdisc || jadd(o, "qdisc_changed", jnum(res->qdisc_changed))) &&
	     (!c->fabric || jadd(o, "multipath",
				 json_object_new_string(sluice_multipath_name(res->multipath)))) &&
	     jadd(o, "per_switch", arr = json_object_new_array());
	for (u = 0; ok && u < res->n; u++)
		ok = !json_object_array_add(arr, switch_json(c, &res->sw[u]));
	return jprint(o, ok);
}

int route_load_main(const struct command *cmd, int argc, char **argv)
{
	struct ctx c = { .cmd = cmd };
	int ret;

	ret = parse(&c, &load_spec, argc, argv, true);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = parse_qdisc(&c);
	if (!ret)
		ret = run(&c, SLUICE_FABRIC_LOAD);
	if (!ret)
		ret = print_result(&c, "loaded", c.val[OPT_JSON],
				   c.val[OPT_VERBOSE]);
	teardown(&c);
	return ret;
}

int route_unload_main(const struct command *cmd, int argc, char **argv)
{
	struct ctx c = { .cmd = cmd };
	uint64_t removed;
	uint32_t changed;
	int ret;

	ret = parse(&c, &unload_spec, argc, argv, false);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = run(&c, SLUICE_FABRIC_UNLOAD);
	removed = c.res.deleted;
	changed = c.res.tags_changed;
	if (!ret && c.val[OPT_JSON]) {
		json_object *o = json_object_new_object();

		ret = jprint(o, o && jadd(o, "switches", jnum(c.res.n)) &&
			     jadd(o, "removed", jnum(removed)) &&
			     jadd(o, "tag_tables_emptied", jnum(changed)));
	} else if (!ret)
		printf("unloaded %u switch%s: %llu routes removed\n", c.res.n,
		       c.res.n == 1 ? "" : "es", (unsigned long long)removed);
	if (!ret && !c.val[OPT_JSON] && changed)
		printf("tag tables emptied and tag source none on %u switch%s\n",
		       changed, changed == 1 ? "" : "es");
	teardown(&c);
	return ret;
}

static void show_switch_text(const struct sluice_fabric_load_switch *t)
{
	char a[1024], b[1024];
	uint64_t k;

	printf("switch %s: %llu routes in the file, %llu in the kernel: %s\n",
	       t->name, (unsigned long long)t->want.n_routes,
	       (unsigned long long)t->have.n_routes,
	       t->d.n_ops ? "differ" : "in sync");
	for (k = 0; k < t->d.n_ops; k++) {
		const struct sluice_lop *op = &t->d.ops[k];

		if (op->kind != SLUICE_LOP_DELETE)
			sluice_lroute_format(&t->want, op->want, a, sizeof(a));
		if (op->kind != SLUICE_LOP_ADD)
			sluice_lroute_format(&t->have, op->have, b, sizeof(b));
		if (op->kind == SLUICE_LOP_ADD)
			printf("  missing %s\n", a);
		else if (op->kind == SLUICE_LOP_DELETE)
			printf("  extra   %s\n", b);
		else
			printf("  kernel  %s\n  file    %s\n", b, a);
	}
}

static json_object *show_switch_json(const struct sluice_fabric_load_switch *t)
{
	json_object *e = json_object_new_object(), *arr, *d;
	static const char *const kinds[] = { "missing", "differs", "extra" };
	char buf[1024];
	uint64_t k;
	bool ok;

	ok = e && jadd(e, "switch", json_object_new_string(t->name)) &&
	     jadd(e, "file_routes", jnum(t->want.n_routes)) &&
	     jadd(e, "kernel_routes", jnum(t->have.n_routes)) &&
	     jadd(e, "in_sync", json_object_new_boolean(!t->d.n_ops)) &&
	     jadd(e, "differences", arr = json_object_new_array());
	for (k = 0; ok && k < t->d.n_ops; k++) {
		const struct sluice_lop *op = &t->d.ops[k];

		d = json_object_new_object();
		ok = d && !json_object_array_add(arr, d) &&
		     jadd(d, "kind", json_object_new_string(kinds[op->kind]));
		if (ok && op->kind != SLUICE_LOP_DELETE) {
			sluice_lroute_format(&t->want, op->want, buf, sizeof(buf));
			ok = jadd(d, "file", json_object_new_string(buf));
		}
		if (ok && op->kind != SLUICE_LOP_ADD) {
			sluice_lroute_format(&t->have, op->have, buf, sizeof(buf));
			ok = jadd(d, "kernel", json_object_new_string(buf));
		}
	}
	if (ok)
		return e;
	json_object_put(e);
	return NULL;
}

/* Whether switch @sw holds its tag tables; with @print, says how it differs. */
static bool show_tags(const struct sluice_fabric_load_switch *sw, bool print)
{
	bool same = !sw->tags_missing && !sw->tags_extra &&
		    sw->tag_source == sw->tag_source_want;
	char a[16], b[16];

	if (!sw->tags)
		return true;
	if (print && !same)
		printf("switch %s: tag tables differ: tag source %s (the file wants %s), %llu map entries missing, %llu extra\n",
		       sw->name, sw_source(sw->tag_source, a),
		       sw_source(sw->tag_source_want, b),
		       (unsigned long long)sw->tags_missing,
		       (unsigned long long)sw->tags_extra);
	else if (print)
		printf("switch %s: tag tables in sync: tag source %s, %llu map entries\n",
		       sw->name, sw_source(sw->tag_source_want, a),
		       (unsigned long long)sw->tag_entries);
	return same;
}

int route_show_main(const struct command *cmd, int argc, char **argv)
{
	struct ctx c = { .cmd = cmd };
	json_object *o = NULL, *arr = NULL;
	bool in_sync = true, ok = true;
	uint32_t u;
	int ret;

	ret = parse(&c, &show_spec, argc, argv, true);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = run(&c, SLUICE_FABRIC_COMPARE);
	if (ret) {
		teardown(&c);
		return ret;
	}
	if (c.val[OPT_JSON]) {
		o = json_object_new_object();
		ok = o && jadd(o, "per_switch", arr = json_object_new_array());
	}
	for (u = 0; ok && u < c.res.n; u++) {
		in_sync &= !c.res.sw[u].d.n_ops;
		if (o)
			ok = !json_object_array_add(arr, show_switch_json(&c.res.sw[u]));
		else
			show_switch_text(&c.res.sw[u]);
		if (c.val[OPT_TAGS])
			in_sync &= show_tags(&c.res.sw[u], !o);
	}
	if (o && ok)
		ok = jadd(o, "in_sync", json_object_new_boolean(in_sync));
	if (o && ok)
		puts(jtext(o));
	else if (!ok)
		fputs("sluicectl: out of memory\n", stderr);
	json_object_put(o);
	teardown(&c);
	return !ok ? EXIT_RUNTIME : in_sync ? 0 : EXIT_DIFFERS;
}
