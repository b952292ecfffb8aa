// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl route { load | unload | show } ...: a route set in the kernel.
 *
 * Each switch gets its share of a route file as MPLS label routes and
 * multipath IPv4 routes (sluice/fabric.h), and for a file of several
 * lanes a table of routes and a rule per lane: every switch of a fabric made
 * by "fabric up" (the default), or one switch, also on a real machine
 * ("--topo FILE --switch NODE", in this namespace or --netns NS; its
 * ports must then be named l<LINK> and addressed as a fabric's are).
 *
 * Loading checks everything first - the file against the topology, every
 * switch's namespace and devices, every path's label stack - and changes
 * nothing if anything is wrong.  Then each switch gets the difference
 * between what it holds and what it should (only routes of sluice's own
 * protocol are touched), so that loading a file twice changes nothing.
 * If the kernel refuses a route, that switch is restored at once and the
 * switches already loaded are put back too: the fabric is as before, and
 * the refused route is named.
 *
 * A fabric's routes follow its multipath mode (sluice/multipath.h), kept
 * in its state; "--multipath MODE" loads them in another mode and makes it
 * the fabric's: the state, then every switch's hash sysctls, then the
 * routes, each put back if a later step fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include <sluice/route.h>
#include "fabric.h"
#include "jout.h"
#include "load.h"
#include "opts.h"
#include "qdisc_args.h"
#include "route_tags.h"
#include "sluicectl.h"

/* "route show" when the kernel and the file differ, as "route check". */
#define EXIT_DIFFERS	3

enum opt_id {
	OPT_NAME, OPT_SWITCH, OPT_TOPO, OPT_NETNS, OPT_LOCAL, OPT_VERBOSE,
	OPT_JSON, OPT_TAGS, OPT_TAG_SOURCE, OPT_MULTIPATH,
	/* "route load": each switch port's qdisc options (qdisc_args.h) */
	OPT_Q_FIRST,
	N_OPTS = OPT_Q_FIRST + N_QOPTS,
};

/* opts_parse() takes the allowed options as bits of an unsigned int. */
_Static_assert(N_OPTS <= 64, "too many options for opts_parse()");

static const struct opt opts[] = {
	[OPT_NAME]	= { "--name", NULL, true },
	[OPT_SWITCH]	= { "--switch", NULL, true },
	[OPT_TOPO]	= { "--topo", NULL, true },
	[OPT_NETNS]	= { "--netns", "-n", true },
	[OPT_LOCAL]	= { "--local", NULL, false },
	[OPT_VERBOSE]	= { "--verbose", "-v", false },
	[OPT_JSON]	= { "--json", "-j", false },
	[OPT_TAGS]	= { "--tags", NULL, true },
	[OPT_TAG_SOURCE] = { "--tag-source", NULL, true },
	[OPT_MULTIPATH]	= { "--multipath", NULL, true },
	QDISC_OPTS(OPT_Q_FIRST),
};

struct target {
	uint32_t		node;		/* SLUICE_NONE: --local */
	char			ns[SLUICE_NETNS_NAME_MAX];	/* "": here */
	struct sluice_rtnl	*rt;
	struct sluice_lroutes	want, have;
	struct sluice_ldiff	d;
	struct sluice_port_qdisc *ports;	/* switch ports, as they were */
	uint32_t		n_ports;
	bool			q_sent;		/* changes sent: put back */
};

struct ctx {
	const struct command	*cmd;
	const char		*val[N_OPTS];
	const char		*files[4];
	int			n_files;
	bool			fabric;		/* a fabric's switches */
	struct sluice_fabric_state	s;
	struct sluice_graph	g;		/* --topo */
	const struct sluice_graph *gp;
	struct sluice_routes	r;
	bool			has_routes;
	struct target		*t;
	uint32_t		n;
	int			self;
	struct rtags		tags;
	bool			qdisc;		/* qdisc options given */
	bool			q_limit;	/* --limit among them */
	struct sluice_fabric_qdisc q;
	unsigned char		q_link[SLUICE_QOPT_DUMP_MAX];
	unsigned char		q_host[SLUICE_QOPT_DUMP_MAX];
	size_t			len_link, len_host;
	uint32_t		q_ports, q_changed;
	struct sluice_multipath	mp;		/* the routes' mode */
	uint64_t		*link_rate;	/* wcmp's */
	uint8_t			old_mode;	/* the fabric's until now */
};

static int parse(struct ctx *c, int argc, char **argv, uint64_t allowed,
		 bool routes)
{
	const struct command *cmd = c->cmd;
	char msg[128];
	int ret;

	ret = opts_parse(argc, argv, opts, N_OPTS, allowed, c->val, c->files,
			 ARRAY_SIZE(c->files), &c->n_files, msg, sizeof(msg));
	if (ret > 0) {
		sub_help(cmd);
		return -1;
	}
	if (ret)
		return sub_usage_error(cmd, "%s", msg);
	if (routes && c->n_files != 1)
		return sub_usage_error(cmd, c->n_files ?
				       "one route file, not %d" :
				       "no route file given%.0d", c->n_files);
	if (!routes && c->n_files)
		return sub_usage_error(cmd, "unexpected argument \"%s\"",
				       c->files[0]);
	if (c->val[OPT_TOPO] && !c->val[OPT_SWITCH])
		return sub_usage_error(cmd, "--topo FILE loads one switch: give --switch NODE");
	if ((c->val[OPT_TOPO] || c->val[OPT_LOCAL]) && c->val[OPT_NAME])
		return sub_usage_error(cmd, "--name is for a fabric, not with %s",
				       c->val[OPT_TOPO] ? "--topo" : "--local");
	if (c->val[OPT_NETNS] && !c->val[OPT_TOPO] && !c->val[OPT_LOCAL])
		return sub_usage_error(cmd, "--netns is for one switch outside a fabric (--topo or --local)");
	if (c->val[OPT_TAG_SOURCE] && !c->val[OPT_TAGS])
		return sub_usage_error(cmd, "--tag-source goes with --tags TAGFILE");
	if (c->val[OPT_LOCAL] && c->val[OPT_SWITCH])
		return sub_usage_error(cmd, "--local takes no --switch");
	if (c->val[OPT_MULTIPATH] && (c->val[OPT_TOPO] || c->val[OPT_LOCAL]))
		return sub_usage_error(cmd, "--multipath is a fabric's mode, kept in its state: not with %s",
				       c->val[OPT_TOPO] ? "--topo" : "--local");
	if (c->val[OPT_MULTIPATH] &&
	    sluice_multipath_parse(c->val[OPT_MULTIPATH]) < 0)
		return sub_usage_error(cmd, "--multipath: \"%s\" is not hash, hash5, exact, wcmp or sport",
				       c->val[OPT_MULTIPATH]);
	if (c->val[OPT_NAME] &&
	    sluice_fabric_name_check(c->val[OPT_NAME], msg, sizeof(msg)))
		return sub_usage_error(cmd, "--name: %s", msg);
	c->fabric = !c->val[OPT_TOPO] && !c->val[OPT_LOCAL];
	return 0;
}

static const char *fabric_name(const struct ctx *c)
{
	return c->val[OPT_NAME] ? c->val[OPT_NAME] : SLUICE_FABRIC_DEFAULT_NAME;
}

static const char *node_name(const struct ctx *c, const struct target *t)
{
	return t->node == SLUICE_NONE ? (t->ns[0] ? t->ns : "this namespace") :
	       c->gp->nodes[t->node].name;
}

/*
 * The mode a fabric's routes are built in: --multipath, else the fabric's
 * own; what the mode needs of the fabric, checked.
 */
static int setup_multipath(struct ctx *c)
{
	const char *given = c->val[OPT_MULTIPATH];
	char err[SLUICE_ERRLEN];
	unsigned int mode;

	c->old_mode = c->s.multipath;
	mode = given ? (unsigned int)sluice_multipath_parse(given) :
	       c->old_mode;
	if (mode != c->old_mode && c->val[OPT_SWITCH]) {
		fprintf(stderr, "sluicectl: --multipath %s makes it fabric %s's mode (now %s) on every switch: leave --switch out\n",
			given, c->s.name, sluice_multipath_name(c->old_mode));
		return EXIT_USAGE;
	}
	if (mode == SLUICE_MP_EXACT && c->s.lanes) {
		fprintf(stderr, "sluicectl: fabric %s carries lanes (fabric up --lanes): exact picks a path by source port, lanes pick one by DSCP: not both\n",
			c->s.name);
		return EXIT_USAGE;
	}
	if (sluice_fabric_state_multipath(&c->s, mode, &c->mp, &c->link_rate,
					  err, sizeof(err))) {
		fprintf(stderr, "sluicectl: --multipath %s: %s\n",
			sluice_multipath_name(mode), err);
		return EXIT_RUNTIME;
	}
	return 0;
}

/* The topology, the routes and the switches to work on. */
static int setup(struct ctx *c, bool routes)
{
	const char *sw = c->val[OPT_SWITCH];
	char err[SLUICE_ERRLEN];
	uint32_t u;
	int ret;

	c->self = -1;
	if (c->fabric) {
		ret = fabric_state_load(fabric_name(c), &c->s, false);
		if (ret)
			return EXIT_RUNTIME;
		c->gp = &c->s.g;
		ret = routes ? setup_multipath(c) : 0;
		if (ret)
			return ret;
	} else if (c->val[OPT_TOPO]) {
		ret = load_topo(c->val[OPT_TOPO], &c->g);
		if (ret)
			return ret;
		c->gp = &c->g;
	}
	if (routes) {
		ret = load_routes(c->files[0], c->gp, &c->r);
		if (ret)
			return ret;
		c->has_routes = true;
	}
	c->self = sluice_netns_self(err, sizeof(err));
	if (c->self < 0) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	c->n = c->fabric && !sw ? c->gp->n_nodes : 1;
	c->t = calloc(c->n, sizeof(*c->t));
	if (!c->t) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	for (u = 0; u < c->n; u++) {
		c->t[u].node = c->val[OPT_LOCAL] ? SLUICE_NONE : u;
		sluice_lroutes_init(&c->t[u].want, c->t[u].node);
		sluice_lroutes_init(&c->t[u].have, c->t[u].node);
	}
	if (sw) {
		if (find_node(c->gp, sw, strlen(sw), &c->t[0].node)) {
			if (c->fabric)
				fprintf(stderr, "sluicectl: fabric %s has no switch \"%s\"\n",
					fabric_name(c), sw);
			else
				fprintf(stderr, "sluicectl: no switch \"%s\" in %s\n",
					sw, c->val[OPT_TOPO]);
			return EXIT_RUNTIME;
		}
		c->t[0].want.node = c->t[0].have.node = c->t[0].node;
	}
	for (u = 0; u < c->n; u++) {
		if (c->fabric)
			sluice_fabric_switch_ns(&c->s.f, c->t[u].node, c->t[u].ns,
						sizeof(c->t[u].ns));
		else if (c->val[OPT_NETNS])
			snprintf(c->t[u].ns, sizeof(c->t[u].ns), "%s",
				 c->val[OPT_NETNS]);
	}
	return 0;
}

static void teardown(struct ctx *c)
{
	uint32_t u;

	for (u = 0; c->t && u < c->n; u++) {
		sluice_rtnl_close(c->t[u].rt);
		sluice_lroutes_free(&c->t[u].want);
		sluice_lroutes_free(&c->t[u].have);
		sluice_ldiff_free(&c->t[u].d);
		free(c->t[u].ports);
	}
	free(c->t);
	free(c->link_rate);
	rtags_free(&c->tags);
	if (c->self >= 0)
		close(c->self);
	if (c->has_routes)
		sluice_routes_free(&c->r);
	if (c->fabric && c->gp)
		sluice_fabric_state_free(&c->s);
	else if (c->gp)
		sluice_graph_free(&c->g);
}

/* A socket in the target's namespace. */
static int open_target(struct ctx *c, struct target *t, char *err,
		       size_t errlen)
{
	int fd, ret, back;

	if (!t->ns[0])
		return sluice_rtnl_open(&t->rt, err, errlen);
	fd = sluice_netns_open(t->ns, err, errlen);
	if (fd < 0)
		return fd;
	ret = sluice_netns_enter_fd(fd, t->ns, err, errlen);
	close(fd);
	if (ret)
		return ret;
	ret = sluice_rtnl_open(&t->rt, err, errlen);
	back = sluice_netns_enter_fd(c->self, "of sluicectl", ret ? NULL : err,
				  ret ? 0 : errlen);
	return ret ? ret : back;
}

/*
 * Everything that can be known before touching the kernel: each switch's
 * namespace, the routes it should hold (@want: from the file, or none),
 * those it holds, its devices, and the difference.
 */
static int prepare(struct ctx *c, bool want, const char *nothing)
{
	char err[SLUICE_ERRLEN];
	struct target *t;
	uint32_t u;
	int ret = 0;

	/* every namespace first: a missing switch is the thing to report */
	for (u = 0; u < c->n; u++)
		if (open_target(c, &c->t[u], err, sizeof(err))) {
			fprintf(stderr, "sluicectl: switch %s: %s\n",
				node_name(c, &c->t[u]), err);
			ret = -1;
		}
	for (u = 0; !ret && u < c->n; u++) {
		t = &c->t[u];
		if (want)
			ret = sluice_lroutes_build_mp(c->gp, &c->r, t->node,
						      &c->mp, &t->want, err,
						      sizeof(err));
		if (!ret)
			ret = sluice_kroutes_read(t->rt, &t->have, err,
						  sizeof(err));
		if (!ret && want)
			ret = sluice_kroutes_check(t->rt, &t->want, err,
						   sizeof(err));
		if (!ret)
			ret = sluice_lroutes_diff(&t->want, &t->have, &t->d, err,
						  sizeof(err));
		if (ret)
			fprintf(stderr, "sluicectl: switch %s: %s\n",
				node_name(c, t), err);
	}
	if (ret && nothing)
		fprintf(stderr, "sluicectl: nothing %s\n", nothing);
	return ret ? EXIT_RUNTIME : 0;
}

/*
 * The tag tables: with --tags, what each switch should hold (checked
 * against the topology and the routes) and what it holds; unloading
 * (@unload), what each holds, to empty it.
 */
static int prepare_tags(struct ctx *c, bool unload)
{
	const char *src = c->val[OPT_TAG_SOURCE] ? c->val[OPT_TAG_SOURCE] :
			  "dscp";
	uint32_t u;
	int ret;

	if (!unload && !c->val[OPT_TAGS])
		return 0;
	ret = rtags_init(&c->tags, c->n, unload ? NULL : src);
	if (!ret && !unload)
		ret = rtags_read(&c->tags, c->val[OPT_TAGS], c->gp, &c->r);
	for (u = 0; !ret && u < c->n; u++)
		ret = rtags_prepare(&c->tags, u, c->t[u].ns,
				    node_name(c, &c->t[u]), c->gp,
				    c->t[u].node, unload);
	if (ret && !c->has_routes)
		fputs("sluicectl: nothing unloaded\n", stderr);
	else if (ret && c->cmd->name[0] == 'l')
		fputs("sluicectl: nothing loaded\n", stderr);
	return ret;
}

/* Puts switch @t back from @t->want to @t->have (it took the diff whole). */
static bool restore(struct target *t)
{
	struct sluice_kfail fail;
	char err[SLUICE_ERRLEN];
	struct sluice_ldiff back;
	bool ok;

	if (sluice_lroutes_diff(&t->have, &t->want, &back, err, sizeof(err)))
		return false;
	ok = !sluice_kroutes_apply(t->rt, &t->have, &t->want, &back, &fail, err,
				   sizeof(err));
	sluice_ldiff_free(&back);
	return ok;
}

/* Prints which route the kernel refused on switch @t, and why. */
static void print_refusal(const struct ctx *c, const struct target *t,
			  const struct sluice_kfail *fail)
{
	const struct sluice_lop *op = &t->d.ops[fail->op];
	char what[1024];

	if (op->kind == SLUICE_LOP_DELETE) {
		strcpy(what, "removing ");
		sluice_lroute_format(&t->have, op->have, what + 9,
				     sizeof(what) - 9);
	} else {
		sluice_lroute_describe(c->gp, c->has_routes ? &c->r : NULL,
				       &t->want, op->want, what, sizeof(what));
	}
	fprintf(stderr, "sluicectl: switch %s: %s: %s%s%s\n", node_name(c, t),
		what, strerror(-fail->error), fail->extack[0] ? ": " : "",
		fail->extack);
}

/* Applies every switch's diff; on a refusal puts every switch back. */
static int apply(struct ctx *c)
{
	struct sluice_kfail fail;
	char err[SLUICE_ERRLEN];
	bool restored = true;
	uint32_t u, k;
	int ret = 0;

	for (u = 0; u < c->n; u++) {
		ret = sluice_kroutes_apply(c->t[u].rt, &c->t[u].want,
					   &c->t[u].have, &c->t[u].d, &fail,
					   err, sizeof(err));
		if (ret)
			break;
	}
	if (!ret)
		return 0;
	if (ret == -EREMOTEIO) {
		print_refusal(c, &c->t[u], &fail);
		restored = fail.restored;
	} else {
		fprintf(stderr, "sluicectl: switch %s: %s\n",
			node_name(c, &c->t[u]), err);
		restored = false;
	}
	if (!restored)
		fprintf(stderr, "sluicectl: switch %s: could not restore its routes\n",
			node_name(c, &c->t[u]));
	for (k = 0; k < u; k++)
		if (!restore(&c->t[k])) {
			fprintf(stderr, "sluicectl: switch %s: could not restore its routes\n",
				node_name(c, &c->t[k]));
			restored = false;
		}
	if (restored)
		fprintf(stderr, "sluicectl: nothing changed: %s\n",
			c->n > 1 ? "every switch holds the routes it held" :
			"the switch holds the routes it held");
	return EXIT_RUNTIME;
}


/* The qdisc options of "route load", as "fabric up" takes them. */
static int parse_qdisc(struct ctx *c)
{
	char words[FABRIC_QDISC_MAX];
	int ret;

	ret = qdisc_args_words(c->cmd, opts + OPT_Q_FIRST, c->val + OPT_Q_FIRST,
			       words, sizeof(words));
	if (ret || !words[0])
		return ret;
	ret = qdisc_args_parse(words, &c->q);
	if (ret)
		return ret;
	ret = sluice_qopt_encode(&c->q.link, c->q_link, sizeof(c->q_link),
				 &c->len_link);
	if (!ret)
		ret = sluice_qopt_encode(&c->q.host, c->q_host,
					 sizeof(c->q_host), &c->len_host);
	if (ret) {
		fprintf(stderr, "sluicectl: cannot encode the qdisc options: %s\n",
			strerror(-ret));
		return EXIT_RUNTIME;
	}
	c->qdisc = true;
	c->q_limit = c->val[OPT_Q_FIRST + QOPT_LIMIT];
	return 0;
}

/* A switch port: l<LINK> (to a switch) or h<I> (to a host). */
static int port_kind(const char *dev)
{
	size_t n;

	if (dev[0] != 'l' && dev[0] != 'h')
		return 0;
	n = strspn(dev + 1, "0123456789");
	return n && !dev[1 + n] ? dev[0] : 0;
}

/* Each switch's ports and their qdisc options as they are. */
static int prepare_qdiscs(struct ctx *c)
{
	struct sluice_port_qdisc *all;
	char err[SLUICE_ERRLEN];
	struct target *t;
	uint32_t u, k, n;

	for (u = 0; c->qdisc && u < c->n; u++) {
		t = &c->t[u];
		if (sluice_port_qdiscs_read(t->rt, &all, &n, err, sizeof(err))) {
			fprintf(stderr, "sluicectl: switch %s: %s\n",
				node_name(c, t), err);
			fputs("sluicectl: nothing loaded\n", stderr);
			return EXIT_RUNTIME;
		}
		t->ports = all;
		for (k = 0; k < n; k++)
			if (port_kind(all[k].dev))
				all[t->n_ports++] = all[k];
		if (!t->n_ports) {
			fprintf(stderr, "sluicectl: switch %s: no port has a sluice qdisc to change\n",
				node_name(c, t));
			fputs("sluicectl: nothing loaded\n", stderr);
			return EXIT_RUNTIME;
		}
		c->q_ports += t->n_ports;
	}
	return 0;
}

/* Puts every port of switch @t back as it was; false if it could not. */
static bool restore_qdiscs(struct ctx *c, struct target *t)
{
	struct sluice_qchange *ch;
	struct sluice_kfail fail;
	char err[SLUICE_ERRLEN];
	unsigned char *buf;
	uint32_t k;
	bool ok = true;
	int ret;

	ch = calloc(t->n_ports, sizeof(*ch));
	buf = malloc((size_t)t->n_ports * SLUICE_QOPT_DUMP_MAX);
	if (!ch || !buf) {
		free(ch);
		free(buf);
		return false;
	}
	for (k = 0; ok && k < t->n_ports; k++) {
		ch[k].ifindex = t->ports[k].ifindex;
		ch[k].handle = t->ports[k].handle;
		ch[k].opts = buf + (size_t)k * SLUICE_QOPT_DUMP_MAX;
		ok = !sluice_qopt_restorable(&t->ports[k], c->q_limit,
					     buf + (size_t)k * SLUICE_QOPT_DUMP_MAX,
					     SLUICE_QOPT_DUMP_MAX, &ch[k].len);
	}
	if (ok) {
		ret = sluice_port_qdiscs_change(t->rt, ch, t->n_ports, &fail,
						err, sizeof(err));
		if (ret == -EREMOTEIO)
			fprintf(stderr, "sluicectl: switch %s: port %s: putting its qdisc options back: %s%s%s\n",
				node_name(c, t), t->ports[fail.op].dev,
				strerror(-fail.error), fail.extack[0] ? ": " : "",
				fail.extack);
		else if (ret)
			fprintf(stderr, "sluicectl: switch %s: %s\n",
				node_name(c, t), err);
		ok = !ret;
	}
	free(ch);
	free(buf);
	if (ok)
		t->q_sent = false;
	else
		fprintf(stderr, "sluicectl: switch %s: could not restore its qdisc options\n",
			node_name(c, t));
	return ok;
}

static bool restore_all_qdiscs(struct ctx *c)
{
	bool ok = true;
	uint32_t u;

	for (u = 0; u < c->n; u++)
		if (c->t[u].q_sent)
			ok &= restore_qdiscs(c, &c->t[u]);
	return ok;
}

/* Every switch port gets the new options; on a refusal all are put back. */
static int apply_qdiscs(struct ctx *c)
{
	struct sluice_qchange *ch;
	struct sluice_kfail fail;
	char err[SLUICE_ERRLEN];
	struct target *t;
	uint32_t u, k;
	bool link;
	int ret = 0;

	for (u = 0; c->qdisc && !ret && u < c->n; u++) {
		t = &c->t[u];
		ch = calloc(t->n_ports, sizeof(*ch));
		if (!ch) {
			fputs("sluicectl: out of memory\n", stderr);
			ret = EXIT_RUNTIME;
			break;
		}
		for (k = 0; k < t->n_ports; k++) {
			link = port_kind(t->ports[k].dev) == 'l';
			ch[k].ifindex = t->ports[k].ifindex;
			ch[k].handle = t->ports[k].handle;
			ch[k].opts = link ? c->q_link : c->q_host;
			ch[k].len = link ? c->len_link : c->len_host;
		}
		t->q_sent = true;
		ret = sluice_port_qdiscs_change(t->rt, ch, t->n_ports, &fail,
						err, sizeof(err));
		free(ch);
		if (ret == -EREMOTEIO)
			fprintf(stderr, "sluicectl: switch %s: port %s: qdisc options refused: %s%s%s\n",
				node_name(c, t), t->ports[fail.op].dev,
				strerror(-fail.error), fail.extack[0] ? ": " : "",
				fail.extack);
		else if (ret)
			fprintf(stderr, "sluicectl: switch %s: %s\n",
				node_name(c, t), err);
		if (ret)
			ret = EXIT_RUNTIME;
	}
	if (ret && restore_all_qdiscs(c))
		fprintf(stderr, "sluicectl: nothing changed: %s\n",
			c->n > 1 ? "every switch holds the routes and qdisc options it held" :
			"the switch holds the routes and qdisc options it held");
	return ret;
}

/* The ports whose options differ from what they were. */
static int count_qdiscs(struct ctx *c)
{
	struct sluice_port_qdisc *now;
	char err[SLUICE_ERRLEN];
	struct target *t;
	uint32_t u, k, j, n;

	for (u = 0; c->qdisc && u < c->n; u++) {
		t = &c->t[u];
		if (sluice_port_qdiscs_read(t->rt, &now, &n, err, sizeof(err))) {
			fprintf(stderr, "sluicectl: switch %s: %s\n",
				node_name(c, t), err);
			return EXIT_RUNTIME;
		}
		for (k = 0; k < t->n_ports; k++) {
			for (j = 0; j < n; j++)
				if (now[j].ifindex == t->ports[k].ifindex)
					break;
			if (j == n || now[j].len != t->ports[k].len ||
			    memcmp(now[j].opts, t->ports[k].opts, now[j].len))
				c->q_changed++;
		}
		free(now);
	}
	return 0;
}

static bool mode_changes(const struct ctx *c)
{
	return c->fabric && c->mp.mode != c->old_mode;
}

/*
 * A load in another mode makes it the fabric's: the state first (as fabric
 * up writes it first), then every switch's hash; each step undone if the
 * next fails, and nothing loaded.
 */
static int set_mode(struct ctx *c)
{
	char err[SLUICE_ERRLEN];

	if (!mode_changes(c))
		return 0;
	c->s.multipath = c->mp.mode;
	if (!fabric_state_save(&c->s)) {
		if (!sluice_fabric_multipath_set(&c->s.f, c->mp.mode, err,
						 sizeof(err)))
			return 0;
		fprintf(stderr, "sluicectl: fabric %s: %s\n", c->s.name, err);
		c->s.multipath = c->old_mode;
		fabric_state_save(&c->s);
	}
	c->s.multipath = c->old_mode;
	fputs("sluicectl: nothing loaded\n", stderr);
	return EXIT_RUNTIME;
}

/* After a failed load: the fabric's mode as it was, state and switches. */
static void unset_mode(struct ctx *c)
{
	char err[SLUICE_ERRLEN];

	if (!mode_changes(c))
		return;
	c->s.multipath = c->old_mode;
	if (sluice_fabric_multipath_set(&c->s.f, c->old_mode, err, sizeof(err)))
		fprintf(stderr, "sluicectl: fabric %s: could not put its multipath mode %s back: %s\n",
			c->s.name, sluice_multipath_name(c->old_mode), err);
	if (fabric_state_save(&c->s))
		fprintf(stderr, "sluicectl: fabric %s: its state says multipath %s, its switches run %s\n",
			c->s.name, sluice_multipath_name(c->mp.mode),
			sluice_multipath_name(c->old_mode));
}

/* The tag tables, then the routes: all or nothing. */
static int apply_all(struct ctx *c)
{
	int ret = rtags_apply(&c->tags);

	if (!ret) {
		ret = apply(c);
		if (ret && !rtags_restore(&c->tags))
			fputs("sluicectl: the tag tables of some switches could not be restored\n",
			      stderr);
		return ret;
	}
	if (rtags_restore(&c->tags))
		fprintf(stderr, "sluicectl: nothing changed: %s\n",
			c->n > 1 ? "every switch holds the routes and tag tables it held" :
			"the switch holds the routes and tag tables it held");
	return ret;
}

struct totals {
	uint64_t	routes, added, replaced, deleted, unchanged;
};

static void sum(const struct ctx *c, struct totals *tot)
{
	uint32_t u;

	memset(tot, 0, sizeof(*tot));
	for (u = 0; u < c->n; u++) {
		tot->routes += c->t[u].want.n_routes;
		tot->added += c->t[u].d.added;
		tot->replaced += c->t[u].d.replaced;
		tot->deleted += c->t[u].d.deleted;
		tot->unchanged += c->t[u].d.unchanged;
	}
}

static json_object *switch_json(const struct ctx *c, const struct target *t)
{
	json_object *e = json_object_new_object();

	if (e && jadd(e, "switch", json_object_new_string(node_name(c, t))) &&
	    jadd(e, "routes", jnum(t->want.n_routes)) &&
	    (!c->qdisc || jadd(e, "qdisc_ports", jnum(t->n_ports))) &&
	    jadd(e, "added", jnum(t->d.added)) &&
	    jadd(e, "replaced", jnum(t->d.replaced)) &&
	    jadd(e, "deleted", jnum(t->d.deleted)) &&
	    jadd(e, "unchanged", jnum(t->d.unchanged)))
		return e;
	json_object_put(e);
	return NULL;
}

static int print_result(const struct ctx *c, const char *verb, bool json,
			bool verbose)
{
	json_object *o, *arr = NULL;
	struct totals tot;
	uint32_t u;
	bool ok;

	sum(c, &tot);
	if (!json) {
		for (u = 0; verbose && u < c->n; u++)
			printf("switch %s: %llu routes: %llu added, %llu replaced, %llu deleted, %llu unchanged\n",
			       node_name(c, &c->t[u]),
			       (unsigned long long)c->t[u].want.n_routes,
			       (unsigned long long)c->t[u].d.added,
			       (unsigned long long)c->t[u].d.replaced,
			       (unsigned long long)c->t[u].d.deleted,
			       (unsigned long long)c->t[u].d.unchanged);
		printf("%s %u switch%s: %llu routes, %llu changed (%llu added, %llu replaced, %llu deleted)\n",
		       verb, c->n, c->n == 1 ? "" : "es",
		       (unsigned long long)tot.routes,
		       (unsigned long long)(tot.added + tot.replaced + tot.deleted),
		       (unsigned long long)tot.added,
		       (unsigned long long)tot.replaced,
		       (unsigned long long)tot.deleted);
		if (c->qdisc)
			printf("qdisc options: %u ports, %u changed\n",
			       c->q_ports, c->q_changed);
		if (mode_changes(c))
			printf("multipath %s (was %s)\n",
			       sluice_multipath_name(c->mp.mode),
			       sluice_multipath_name(c->old_mode));
		return 0;
	}
	o = json_object_new_object();
	ok = o && jadd(o, "switches", jnum(c->n)) &&
	     jadd(o, "routes", jnum(tot.routes)) &&
	     jadd(o, "changed", jnum(tot.added + tot.replaced + tot.deleted)) &&
	     jadd(o, "added", jnum(tot.added)) &&
	     jadd(o, "replaced", jnum(tot.replaced)) &&
	     jadd(o, "deleted", jnum(tot.deleted)) &&
	     jadd(o, "unchanged", jnum(tot.unchanged)) &&
	     (!c->qdisc || jadd(o, "qdisc_ports", jnum(c->q_ports))) &&
	     (!c->qdisc || jadd(o, "qdisc_changed", jnum(c->q_changed))) &&
	     (!c->fabric || jadd(o, "multipath",
				 json_object_new_string(sluice_multipath_name(c->mp.mode)))) &&
	     jadd(o, "per_switch", arr = json_object_new_array());
	for (u = 0; ok && u < c->n; u++)
		ok = !json_object_array_add(arr, switch_json(c, &c->t[u]));
	return jprint(o, ok);
}

/*
 * PortFC keeps a BCube lossless on paths of at most 2 (k + 1) hops: a
 * longer one (BuildPathSet's detours) crosses a relay server whose RQ no
 * PortFC signal pauses, and the type-A queue of the switch after it can
 * grow to the qdisc's limit.  Loaded all the same (they are BCube's own
 * routes), with a warning that says so.
 */
static void warn_portfc_detours(const struct ctx *c)
{
	uint64_t q, longer = 0;
	uint32_t n, k;

	if (!sluice_fabric_bcube(c->gp, &n, &k))
		return;
	for (q = 0; q < c->r.n_paths; q++)
		longer += sluice_routes_path_len(&c->r, q) > 2 * (k + 1);
	if (longer)
		fprintf(stderr, "sluicectl: warning: %llu of %llu paths are longer than %u hops: PortFC pauses no relay's RQ, so their frames are not lossless under congestion (docs/experiment-bcube.md)\n",
			(unsigned long long)longer,
			(unsigned long long)c->r.n_paths, 2 * (k + 1));
}

/*
 * A route set of several lanes keeps them apart only on a fabric whose
 * ports put each lane's DSCP in its own lossless priority (fabric up
 * --lanes, sluice/fabric.h): refused on a fabric without as many.  One
 * switch outside a fabric (--topo, --local) is the user's to set up.
 */
static int check_lanes(const struct ctx *c)
{
	uint32_t lanes = sluice_routes_lanes(&c->r);

	if (!c->fabric || lanes <= 1 || c->s.lanes >= lanes)
		return 0;
	if (c->s.lanes)
		fprintf(stderr, "sluicectl: %s has %u lanes; fabric %s carries %u (fabric up --lanes %u)\n",
			c->files[0], lanes, c->s.name, c->s.lanes, lanes);
	else
		fprintf(stderr, "sluicectl: %s has %u lanes; fabric %s was brought up without lanes, so its ports would not keep them apart (fabric up --lanes %u)\n",
			c->files[0], lanes, c->s.name, lanes);
	fputs("sluicectl: nothing loaded\n", stderr);
	return EXIT_RUNTIME;
}

/*
 * What a fabric's flow control (fabric up --flow-control) asks of a load:
 * PFC* picks each hop's priority by the routes' tag tables, so routes come
 * with them; the qdisc options of a fabric with flow control were chosen
 * as a whole, per port for PortFC, and one set for every port would undo
 * that.
 */
static int check_flow_control(struct ctx *c)
{
	if (c->fabric && c->qdisc && c->s.node_rates[0]) {
		fprintf(stderr, "sluicectl: fabric %s has node rates (%s), chosen at fabric up: its qdisc options are not changed by route load\n",
			c->s.name, c->s.node_rates);
		return EXIT_USAGE;
	}
	if (!c->fabric || c->s.fc == SLUICE_FABRIC_FC_NONE)
		return 0;
	if (c->qdisc) {
		fprintf(stderr, "sluicectl: fabric %s has flow control %s, chosen at fabric up: its qdisc options are not changed by route load\n",
			c->s.name, sluice_fabric_fc_name(c->s.fc));
		return EXIT_USAGE;
	}
	if (c->s.fc == SLUICE_FABRIC_FC_PFC_STAR &&
	    (!c->val[OPT_TAGS] || !c->val[OPT_TAG_SOURCE] ||
	     strcmp(c->val[OPT_TAG_SOURCE], "mpls-depth"))) {
		fprintf(stderr, "sluicectl: fabric %s runs PFC*: load its routes with their tag tables (sluicectl tag compute --mode depth, then --tags FILE --tag-source mpls-depth)\n",
			c->s.name);
		return EXIT_USAGE;
	}
	if (c->s.fc == SLUICE_FABRIC_FC_PORTFC)
		warn_portfc_detours(c);
	return 0;
}

int route_load_main(const struct command *cmd, int argc, char **argv)
{
	struct ctx c = { .cmd = cmd };
	int ret;

	ret = parse(&c, argc, argv, OPT_BIT(OPT_NAME) | OPT_BIT(OPT_SWITCH) |
		    OPT_BIT(OPT_TOPO) | OPT_BIT(OPT_NETNS) |
		    OPT_BIT(OPT_VERBOSE) | OPT_BIT(OPT_JSON) | OPT_BIT(OPT_TAGS) |
		    OPT_BIT(OPT_TAG_SOURCE) | OPT_BIT(OPT_MULTIPATH) |
		    QDISC_OPTS_BITS(OPT_Q_FIRST), true);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = parse_qdisc(&c);
	if (ret)
		return ret;
	ret = setup(&c, true);
	if (!ret)
		ret = check_flow_control(&c);
	if (!ret)
		ret = check_lanes(&c);
	if (!ret)
		ret = prepare(&c, true, "loaded");
	if (!ret)
		ret = prepare_tags(&c, false);
	if (!ret)
		ret = prepare_qdiscs(&c);
	if (!ret)
		ret = set_mode(&c);
	/* the qdiscs first: the kernel refuses options it cannot check here */
	if (!ret) {
		ret = apply_qdiscs(&c);
		if (!ret) {
			ret = apply_all(&c);
			if (ret && !restore_all_qdiscs(&c))
				fputs("sluicectl: the qdisc options of some switches could not be restored\n",
				      stderr);
		}
		if (ret)
			unset_mode(&c);
	}
	if (!ret)
		ret = count_qdiscs(&c);
	if (!ret)
		ret = print_result(&c, "loaded", c.val[OPT_JSON],
				   c.val[OPT_VERBOSE]);
	teardown(&c);
	return ret;
}

int route_unload_main(const struct command *cmd, int argc, char **argv)
{
	struct ctx c = { .cmd = cmd };
	uint64_t removed = 0;
	uint32_t u;
	int ret;

	ret = parse(&c, argc, argv, OPT_BIT(OPT_NAME) | OPT_BIT(OPT_SWITCH) |
		    OPT_BIT(OPT_LOCAL) | OPT_BIT(OPT_NETNS) |
		    OPT_BIT(OPT_JSON), false);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = setup(&c, false);
	if (!ret)
		ret = prepare(&c, false, "unloaded");
	if (!ret)
		ret = prepare_tags(&c, true);
	if (!ret)
		ret = apply_all(&c);
	for (u = 0; !ret && u < c.n; u++)
		removed += c.t[u].d.deleted;
	if (!ret && c.val[OPT_JSON])
		printf("{\"switches\":%u,\"removed\":%llu,\"tag_tables_emptied\":%u}\n",
		       c.n, (unsigned long long)removed,
		       rtags_changed(&c.tags));
	else if (!ret)
		printf("unloaded %u switch%s: %llu routes removed\n", c.n,
		       c.n == 1 ? "" : "es", (unsigned long long)removed);
	if (!ret && !c.val[OPT_JSON] && rtags_changed(&c.tags))
		printf("tag tables emptied and tag source none on %u switch%s\n",
		       rtags_changed(&c.tags),
		       rtags_changed(&c.tags) == 1 ? "" : "es");
	teardown(&c);
	return ret;
}

static void show_switch_text(const struct ctx *c, const struct target *t)
{
	char a[1024], b[1024];
	uint64_t k;

	printf("switch %s: %llu routes in the file, %llu in the kernel: %s\n",
	       node_name(c, t), (unsigned long long)t->want.n_routes,
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

static json_object *show_switch_json(const struct ctx *c,
				     const struct target *t)
{
	json_object *e = json_object_new_object(), *arr, *d;
	static const char *const kinds[] = { "missing", "differs", "extra" };
	char buf[1024];
	uint64_t k;
	bool ok;

	ok = e && jadd(e, "switch", json_object_new_string(node_name(c, t))) &&
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

int route_show_main(const struct command *cmd, int argc, char **argv)
{
	struct ctx c = { .cmd = cmd };
	json_object *o = NULL, *arr = NULL;
	bool in_sync = true, ok = true;
	uint32_t u;
	int ret;

	ret = parse(&c, argc, argv, OPT_BIT(OPT_NAME) | OPT_BIT(OPT_SWITCH) |
		    OPT_BIT(OPT_TOPO) | OPT_BIT(OPT_NETNS) | OPT_BIT(OPT_JSON) |
		    OPT_BIT(OPT_TAGS) | OPT_BIT(OPT_TAG_SOURCE), true);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = setup(&c, true);
	if (!ret)
		ret = prepare(&c, true, NULL);
	if (!ret)
		ret = prepare_tags(&c, false);
	if (ret) {
		teardown(&c);
		return ret;
	}
	if (c.val[OPT_JSON]) {
		o = json_object_new_object();
		ok = o && jadd(o, "per_switch", arr = json_object_new_array());
	}
	for (u = 0; ok && u < c.n; u++) {
		in_sync &= !c.t[u].d.n_ops;
		if (o)
			ok = !json_object_array_add(arr, show_switch_json(&c, &c.t[u]));
		else
			show_switch_text(&c, &c.t[u]);
		if (c.val[OPT_TAGS])
			in_sync &= rtags_show(&c.tags, u, !o);
	}
	if (o && ok)
		ok = jadd(o, "in_sync", json_object_new_boolean(in_sync));
	if (o && ok)
		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	else if (!ok)
		fputs("sluicectl: out of memory\n", stderr);
	json_object_put(o);
	teardown(&c);
	return !ok ? EXIT_RUNTIME : in_sync ? 0 : EXIT_DIFFERS;
}
