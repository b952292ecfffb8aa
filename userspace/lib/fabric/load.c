// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A route set loaded into switches, all or nothing (sluice/fabric_load.h
 * has what it does and in which order).  Everything that can be known
 * before touching the kernel is gathered per switch first (its namespace,
 * the routes it should hold, those it holds, its devices, the difference,
 * its ports' qdiscs, its tag tables); only then does anything change.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sluice/fabric_load.h>
#include <sluice/multipath.h>
#include <sluice/qopt.h>
#include "load.h"

/* The longest message: a refused route, described. */
#define MSG_MAX		2048

static void vsay(struct sluice_i_say *s, bool warning, const char *fmt,
		 va_list ap)
{
	char msg[MSG_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (!warning && !s->said && s->err && s->errlen) {
		snprintf(s->err, s->errlen, "%s", msg);
		s->said = true;
	}
	if (warning && s->o->warn)
		s->o->warn(s->o->say_arg, msg);
	else if (!warning && s->o->say)
		s->o->say(s->o->say_arg, msg);
}

void sluice_i_say(struct sluice_i_say *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(s, false, fmt, ap);
	va_end(ap);
}

void sluice_i_warn(struct sluice_i_say *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(s, true, fmt, ap);
	va_end(ap);
}

/* What only the loader keeps of a switch. */
struct target {
	struct sluice_fabric_load_switch *sw;
	struct sluice_rtnl		*rt;
	struct sluice_port_qdisc	*ports;	/* switch ports, as they were */
	uint32_t			n_ports;
	bool				q_sent;	/* changes sent: put back */
};

struct ctx {
	const struct sluice_fabric_load_opts *o;
	struct sluice_fabric_load_result *res;
	const struct sluice_routes *r;		/* NULL: unloading */
	struct sluice_i_say	say;
	bool			fabric;		/* a fabric's switches */
	struct sluice_fabric_state *s;
	const struct sluice_graph *gp;
	struct target		*t;
	uint32_t		n;
	int			self;
	struct sluice_i_ltags	tags;
	bool			has_tags;
	bool			qdisc;		/* qdisc options given */
	unsigned char		q_link[SLUICE_QOPT_DUMP_MAX];
	unsigned char		q_host[SLUICE_QOPT_DUMP_MAX];
	size_t			len_link, len_host;
	struct sluice_multipath	mp;		/* the routes' mode */
	uint64_t		*link_rate;	/* wcmp's */
	uint8_t			old_mode;	/* the fabric's until now */
};

/* The request itself is at fault: a usage error, nothing asked of the kernel. */
static int refuse(struct ctx *c)
{
	c->res->refused = true;
	return -EINVAL;
}

/*
 * The mode a fabric's routes are built in: the one asked for, else the
 * fabric's own; what the mode needs of the fabric, checked.
 */
static int setup_multipath(struct ctx *c)
{
	const struct sluice_fabric_load_opts *o = c->o;
	char err[SLUICE_ERRLEN];
	unsigned int mode;
	int ret;

	c->old_mode = c->s->multipath;
	mode = o->set_multipath ? o->multipath : c->old_mode;
	if (mode != c->old_mode && o->switch_name) {
		sluice_i_say(&c->say, "--multipath %s makes it fabric %s's mode (now %s) on every switch: leave --switch out",
			     sluice_multipath_name(mode), c->s->name,
			     sluice_multipath_name(c->old_mode));
		return refuse(c);
	}
	if (mode == SLUICE_MP_EXACT && c->s->lanes) {
		sluice_i_say(&c->say, "fabric %s carries lanes (fabric up --lanes): exact picks a path by source port, lanes pick one by DSCP: not both",
			     c->s->name);
		return refuse(c);
	}
	ret = sluice_fabric_state_multipath(c->s, mode, &c->mp, &c->link_rate,
					    err, sizeof(err));
	if (ret)
		sluice_i_say(&c->say, "--multipath %s: %s",
			     sluice_multipath_name(mode), err);
	return ret;
}

/* The switches to work on, their names and namespaces. */
static int setup(struct ctx *c)
{
	const struct sluice_fabric_load_opts *o = c->o;
	struct sluice_fabric_load_switch *sw;
	char err[SLUICE_ERRLEN];
	uint32_t u, node = 0;
	int ret;

	c->self = -1;
	c->fabric = o->state;
	c->s = o->state;
	c->gp = c->fabric ? &c->s->g : o->g;
	if (c->fabric) {
		c->old_mode = c->s->multipath;
		c->mp.mode = c->old_mode;
	}
	if (c->fabric && o->action != SLUICE_FABRIC_UNLOAD) {
		ret = setup_multipath(c);
		if (ret)
			return ret;
	}
	c->self = sluice_netns_self(err, sizeof(err));
	if (c->self < 0) {
		sluice_i_say(&c->say, "%s", err);
		return c->self;
	}
	c->n = c->fabric && !o->switch_name ? c->gp->n_nodes : 1;
	c->res->sw = calloc(c->n, sizeof(*c->res->sw));
	c->t = calloc(c->n, sizeof(*c->t));
	if (!c->res->sw || !c->t) {
		sluice_i_say(&c->say, "out of memory");
		return -ENOMEM;
	}
	c->res->n = c->n;
	if (o->switch_name &&
	    sluice_graph_node_find(c->gp, o->switch_name,
				   strlen(o->switch_name), &node)) {
		if (c->fabric)
			sluice_i_say(&c->say, "fabric %s has no switch \"%s\"",
				     c->s->name, o->switch_name);
		else
			sluice_i_say(&c->say, "no switch \"%s\" in %s",
				     o->switch_name, o->topo_name);
		return -ENOENT;
	}
	for (u = 0; u < c->n; u++) {
		sw = &c->res->sw[u];
		c->t[u].sw = sw;
		sw->node = !c->gp ? SLUICE_NONE : o->switch_name ? node : u;
		sluice_lroutes_init(&sw->want, sw->node);
		sluice_lroutes_init(&sw->have, sw->node);
		if (c->fabric)
			sluice_fabric_switch_ns(&c->s->f, sw->node, sw->ns,
						sizeof(sw->ns));
		else if (o->netns)
			snprintf(sw->ns, sizeof(sw->ns), "%s", o->netns);
		snprintf(sw->name, sizeof(sw->name), "%s",
			 sw->node != SLUICE_NONE ? c->gp->nodes[sw->node].name :
			 sw->ns[0] ? sw->ns : "this namespace");
	}
	return 0;
}

static void teardown(struct ctx *c)
{
	uint32_t u;

	for (u = 0; c->t && u < c->n; u++) {
		sluice_rtnl_close(c->t[u].rt);
		free(c->t[u].ports);
	}
	free(c->t);
	free(c->link_rate);
	if (c->has_tags)
		sluice_i_ltags_free(&c->tags);
	if (c->self >= 0)
		close(c->self);
}

/*
 * Everything that can be known before touching the kernel: each switch's
 * namespace, the routes it should hold (from the set, or none), those it
 * holds, its devices, and the difference.
 */
static int prepare(struct ctx *c, const char *nothing)
{
	const struct sluice_routes *r = c->r;
	char err[SLUICE_ERRLEN];
	struct target *t;
	uint32_t u;
	int ret = 0, fail = 0;

	/* every namespace first: a missing switch is the thing to report */
	for (u = 0; u < c->n; u++) {
		t = &c->t[u];
		ret = t->sw->ns[0] ?
		      sluice_rtnl_open_in(t->sw->ns, c->self, &t->rt, err,
					  sizeof(err)) :
		      sluice_rtnl_open(&t->rt, err, sizeof(err));
		if (ret) {
			sluice_i_say(&c->say, "switch %s: %s", t->sw->name, err);
			if (!fail)
				fail = ret;
		}
	}
	ret = fail;
	for (u = 0; !ret && u < c->n; u++) {
		t = &c->t[u];
		if (r)
			ret = sluice_lroutes_build_mp(c->gp, r, t->sw->node,
						      &c->mp, &t->sw->want, err,
						      sizeof(err));
		if (!ret)
			ret = sluice_kroutes_read(t->rt, &t->sw->have, err,
						  sizeof(err));
		if (!ret && r)
			ret = sluice_kroutes_check(t->rt, &t->sw->want, err,
						   sizeof(err));
		if (!ret)
			ret = sluice_lroutes_diff(&t->sw->want, &t->sw->have,
						  &t->sw->d, err, sizeof(err));
		if (ret)
			sluice_i_say(&c->say, "switch %s: %s", t->sw->name,
				     err);
	}
	if (ret && nothing)
		sluice_i_say(&c->say, "nothing %s", nothing);
	return ret;
}

/*
 * The tag tables: given, what each switch should hold (checked against
 * the topology and the routes) and what it holds; unloading, what each
 * holds, to empty it.
 */
static int prepare_tags(struct ctx *c)
{
	const struct sluice_fabric_load_opts *o = c->o;
	bool unload = o->action == SLUICE_FABRIC_UNLOAD;
	uint32_t u;
	int ret;

	if (!unload && !o->tags_path && !o->tags)
		return 0;
	ret = sluice_i_ltags_init(&c->tags, c->n, unload ?
				 SLUICE_TAG_SOURCE_NONE : o->tag_source,
				 &c->say);
	if (ret)
		return ret;
	c->has_tags = true;
	if (!unload && o->tags_path)
		ret = sluice_i_ltags_read(&c->tags, o->tags_path, c->gp, c->r);
	else if (!unload)
		c->tags.tab = o->tags;
	for (u = 0; !ret && u < c->n; u++)
		ret = sluice_i_ltags_prepare(&c->tags, u, c->t[u].sw->ns,
					    c->t[u].sw->name, c->gp,
					    c->t[u].sw->node, unload);
	if (ret && unload)
		sluice_i_say(&c->say, "nothing unloaded");
	else if (ret && o->action == SLUICE_FABRIC_LOAD)
		sluice_i_say(&c->say, "nothing loaded");
	return ret;
}

/* Puts switch @t back from its wanted routes to its held ones. */
static bool restore(struct target *t)
{
	struct sluice_fabric_load_switch *sw = t->sw;
	struct sluice_kfail fail;
	char err[SLUICE_ERRLEN];
	struct sluice_ldiff back;
	bool ok;

	if (sluice_lroutes_diff(&sw->have, &sw->want, &back, err, sizeof(err)))
		return false;
	ok = !sluice_kroutes_apply(t->rt, &sw->have, &sw->want, &back, &fail,
				   err, sizeof(err));
	sluice_ldiff_free(&back);
	return ok;
}

/* Says which route the kernel refused on switch @t, and why. */
static void say_refusal(struct ctx *c, const struct target *t,
			const struct sluice_kfail *fail)
{
	const struct sluice_fabric_load_switch *sw = t->sw;
	const struct sluice_lop *op = &sw->d.ops[fail->op];
	char what[1024];

	if (op->kind == SLUICE_LOP_DELETE) {
		strcpy(what, "removing ");
		sluice_lroute_format(&sw->have, op->have, what + 9,
				     sizeof(what) - 9);
	} else {
		sluice_lroute_describe(c->gp, c->r, &sw->want,
				       op->want, what, sizeof(what));
	}
	sluice_i_say(&c->say, "switch %s: %s: %s%s%s", sw->name, what,
		     strerror(-fail->error), fail->extack[0] ? ": " : "",
		     fail->extack);
}

/* Applies every switch's diff; on a refusal puts every switch back. */
static int apply(struct ctx *c)
{
	struct sluice_kfail fail;
	char err[SLUICE_ERRLEN];
	bool restored = true;
	struct target *t;
	uint32_t u, k;
	int ret = 0;

	for (u = 0; u < c->n; u++) {
		t = &c->t[u];
		ret = sluice_kroutes_apply(t->rt, &t->sw->want, &t->sw->have,
					   &t->sw->d, &fail, err, sizeof(err));
		if (ret)
			break;
	}
	if (!ret)
		return 0;
	if (ret == -EREMOTEIO) {
		say_refusal(c, &c->t[u], &fail);
		restored = fail.restored;
	} else {
		sluice_i_say(&c->say, "switch %s: %s", c->t[u].sw->name, err);
		restored = false;
	}
	if (!restored)
		sluice_i_say(&c->say, "switch %s: could not restore its routes",
			     c->t[u].sw->name);
	for (k = 0; k < u; k++)
		if (!restore(&c->t[k])) {
			sluice_i_say(&c->say, "switch %s: could not restore its routes",
				     c->t[k].sw->name);
			restored = false;
		}
	if (restored)
		sluice_i_say(&c->say, "nothing changed: %s",
			     c->n > 1 ? "every switch holds the routes it held" :
			     "the switch holds the routes it held");
	return ret;
}

/* The qdisc options to load, encoded once for every port. */
static int encode_qdisc(struct ctx *c)
{
	const struct sluice_fabric_qdisc *q = c->o->qdisc;
	int ret;

	if (!q || c->o->action != SLUICE_FABRIC_LOAD)
		return 0;
	ret = sluice_qopt_encode(&q->link, c->q_link, sizeof(c->q_link),
				 &c->len_link);
	if (!ret)
		ret = sluice_qopt_encode(&q->host, c->q_host,
					 sizeof(c->q_host), &c->len_host);
	if (ret) {
		sluice_i_say(&c->say, "cannot encode the qdisc options: %s",
			     strerror(-ret));
		return ret;
	}
	c->qdisc = true;
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

/* Switch @t's ports' sluice qdiscs as they are; 0 or the reason, said. */
static int read_qdiscs(struct ctx *c, const struct target *t,
		       struct sluice_port_qdisc **ports, uint32_t *n)
{
	char err[SLUICE_ERRLEN];
	int ret;

	ret = sluice_port_qdiscs_read(t->rt, ports, n, err, sizeof(err));
	if (ret)
		sluice_i_say(&c->say, "switch %s: %s", t->sw->name, err);
	return ret;
}

/* What a change of switch @t's qdiscs failed with (@what: the change). */
static void say_qdisc_failure(struct ctx *c, const struct target *t,
			      int ret, const struct sluice_kfail *fail,
			      const char *err, const char *what)
{
	if (ret == -EREMOTEIO)
		sluice_i_say(&c->say, "switch %s: port %s: %s: %s%s%s",
			     t->sw->name, t->ports[fail->op].dev, what,
			     strerror(-fail->error),
			     fail->extack[0] ? ": " : "", fail->extack);
	else if (ret)
		sluice_i_say(&c->say, "switch %s: %s", t->sw->name, err);
}

/* Each switch's ports and their qdisc options as they are. */
static int prepare_qdiscs(struct ctx *c)
{
	struct sluice_port_qdisc *all;
	struct target *t;
	uint32_t u, k, n;
	int ret;

	for (u = 0; c->qdisc && u < c->n; u++) {
		t = &c->t[u];
		ret = read_qdiscs(c, t, &all, &n);
		if (ret) {
			sluice_i_say(&c->say, "nothing loaded");
			return ret;
		}
		t->ports = all;
		for (k = 0; k < n; k++)
			if (port_kind(all[k].dev))
				all[t->n_ports++] = all[k];
		if (!t->n_ports) {
			sluice_i_say(&c->say, "switch %s: no port has a sluice qdisc to change",
				     t->sw->name);
			sluice_i_say(&c->say, "nothing loaded");
			return -ENOENT;
		}
		t->sw->qdisc_ports = t->n_ports;
		c->res->qdisc_ports += t->n_ports;
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
		ok = !sluice_qopt_restorable(&t->ports[k], c->o->qdisc_limit,
					     buf + (size_t)k * SLUICE_QOPT_DUMP_MAX,
					     SLUICE_QOPT_DUMP_MAX, &ch[k].len);
	}
	if (ok) {
		ret = sluice_port_qdiscs_change(t->rt, ch, t->n_ports, &fail,
						err, sizeof(err));
		say_qdisc_failure(c, t, ret, &fail, err,
				  "putting its qdisc options back");
		ok = !ret;
	}
	free(ch);
	free(buf);
	if (ok)
		t->q_sent = false;
	else
		sluice_i_say(&c->say, "switch %s: could not restore its qdisc options",
			     t->sw->name);
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
			sluice_i_say(&c->say, "out of memory");
			ret = -ENOMEM;
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
		say_qdisc_failure(c, t, ret, &fail, err,
				  "qdisc options refused");
	}
	if (ret && restore_all_qdiscs(c))
		sluice_i_say(&c->say, "nothing changed: %s",
			     c->n > 1 ? "every switch holds the routes and qdisc options it held" :
			     "the switch holds the routes and qdisc options it held");
	return ret;
}

/* The ports whose options differ from what they were. */
static int count_qdiscs(struct ctx *c)
{
	struct sluice_port_qdisc *now;
	struct target *t;
	uint32_t u, k, j, n;
	int ret;

	for (u = 0; c->qdisc && u < c->n; u++) {
		t = &c->t[u];
		ret = read_qdiscs(c, t, &now, &n);
		if (ret)
			return ret;
		for (k = 0; k < t->n_ports; k++) {
			for (j = 0; j < n; j++)
				if (now[j].ifindex == t->ports[k].ifindex)
					break;
			if (j == n || now[j].len != t->ports[k].len ||
			    memcmp(now[j].opts, t->ports[k].opts, now[j].len))
				c->res->qdisc_changed++;
		}
		free(now);
	}
	return 0;
}

static bool mode_changes(const struct ctx *c)
{
	return c->fabric && c->mp.mode != c->old_mode;
}

/* The fabric's state says multipath @mode (written back). */
static int save_mode(struct ctx *c, uint8_t mode, char *err, size_t errlen)
{
	c->s->multipath = mode;
	c->s->f.multipath = mode;
	return sluice_fabric_state_write(c->s, err, errlen);
}

/*
 * A load in another mode makes it the fabric's: the state first (as fabric
 * up writes it first), then every switch's hash; each step undone if the
 * next fails, and nothing loaded.
 */
static int set_mode(struct ctx *c)
{
	char err[SLUICE_ERRLEN];
	int ret;

	if (!mode_changes(c))
		return 0;
	ret = save_mode(c, c->mp.mode, err, sizeof(err));
	if (ret) {
		sluice_i_say(&c->say, "%s", err);
	} else {
		ret = sluice_fabric_multipath_set(&c->s->f, c->mp.mode, err,
						  sizeof(err));
		if (!ret)
			return 0;
		sluice_i_say(&c->say, "fabric %s: %s", c->s->name, err);
		if (save_mode(c, c->old_mode, err, sizeof(err)))
			sluice_i_say(&c->say, "%s", err);
	}
	c->s->multipath = c->old_mode;
	c->s->f.multipath = c->old_mode;
	sluice_i_say(&c->say, "nothing loaded");
	return ret;
}

/* After a failed load: the fabric's mode as it was, state and switches. */
static void unset_mode(struct ctx *c)
{
	char err[SLUICE_ERRLEN];

	if (!mode_changes(c))
		return;
	c->s->multipath = c->old_mode;
	c->s->f.multipath = c->old_mode;
	if (sluice_fabric_multipath_set(&c->s->f, c->old_mode, err,
					sizeof(err)))
		sluice_i_say(&c->say, "fabric %s: could not put its multipath mode %s back: %s",
			     c->s->name, sluice_multipath_name(c->old_mode),
			     err);
	if (save_mode(c, c->old_mode, err, sizeof(err))) {
		sluice_i_say(&c->say, "%s", err);
		sluice_i_say(&c->say, "fabric %s: its state says multipath %s, its switches run %s",
			     c->s->name, sluice_multipath_name(c->mp.mode),
			     sluice_multipath_name(c->old_mode));
	}
}

/* The tag tables, then the routes: all or nothing. */
static int apply_all(struct ctx *c)
{
	int ret = c->has_tags ? sluice_i_ltags_apply(&c->tags) : 0;

	if (!ret) {
		ret = apply(c);
		if (ret && c->has_tags && !sluice_i_ltags_restore(&c->tags))
			sluice_i_say(&c->say, "the tag tables of some switches could not be restored");
		return ret;
	}
	if (sluice_i_ltags_restore(&c->tags))
		sluice_i_say(&c->say, "nothing changed: %s",
			     c->n > 1 ? "every switch holds the routes and tag tables it held" :
			     "the switch holds the routes and tag tables it held");
	return ret;
}

/*
 * PortFC keeps a BCube lossless on paths of at most 2 (k + 1) hops: a
 * longer one (BuildPathSet's detours) crosses a relay server whose RQ no
 * PortFC signal pauses, and the type-A queue of the switch after it can
 * grow to the qdisc's limit.  Loaded all the same (they are BCube's own
 * routes), with a warning that says so.
 */
static void warn_portfc_detours(struct ctx *c)
{
	const struct sluice_routes *r = c->r;
	uint64_t q, longer = 0;
	uint32_t n, k;

	if (!sluice_fabric_bcube(c->gp, &n, &k))
		return;
	for (q = 0; q < r->n_paths; q++)
		longer += sluice_routes_path_len(r, q) > 2 * (k + 1);
	if (longer)
		sluice_i_warn(&c->say, "warning: %llu of %llu paths are longer than %u hops: PortFC pauses no relay's RQ, so their frames are not lossless under congestion (docs/experiment-bcube.md)",
			      (unsigned long long)longer,
			      (unsigned long long)r->n_paths, 2 * (k + 1));
}

/*
 * A route set of several lanes keeps them apart only on a fabric whose
 * ports put each lane's DSCP in its own lossless priority (fabric up
 * --lanes, sluice/fabric.h): refused on a fabric without as many.  One
 * switch outside a fabric is its user's to set up.
 */
static int check_lanes(struct ctx *c)
{
	uint32_t lanes = sluice_routes_lanes(c->r);
	const char *name = c->o->routes_name ? c->o->routes_name : "the routes";

	if (!c->fabric || lanes <= 1 || c->s->lanes >= lanes)
		return 0;
	if (c->s->lanes)
		sluice_i_say(&c->say, "%s has %u lanes; fabric %s carries %u (fabric up --lanes %u)",
			     name, lanes, c->s->name, c->s->lanes, lanes);
	else
		sluice_i_say(&c->say, "%s has %u lanes; fabric %s was brought up without lanes, so its ports would not keep them apart (fabric up --lanes %u)",
			     name, lanes, c->s->name, lanes);
	sluice_i_say(&c->say, "nothing loaded");
	return -EINVAL;
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
	const struct sluice_fabric_load_opts *o = c->o;

	if (c->fabric && c->qdisc && c->s->node_rates[0]) {
		sluice_i_say(&c->say, "fabric %s has node rates (%s), chosen at fabric up: its qdisc options are not changed by route load",
			     c->s->name, c->s->node_rates);
		return refuse(c);
	}
	if (!c->fabric || c->s->fc == SLUICE_FABRIC_FC_NONE)
		return 0;
	if (c->qdisc) {
		sluice_i_say(&c->say, "fabric %s has flow control %s, chosen at fabric up: its qdisc options are not changed by route load",
			     c->s->name, sluice_fabric_fc_name(c->s->fc));
		return refuse(c);
	}
	if (c->s->fc == SLUICE_FABRIC_FC_PFC_STAR &&
	    ((!o->tags_path && !o->tags) ||
	     o->tag_source != SLUICE_TAG_SOURCE_MPLS_DEPTH)) {
		sluice_i_say(&c->say, "fabric %s runs PFC*: load its routes with their tag tables (sluicectl tag compute --mode depth, then --tags FILE --tag-source mpls-depth)",
			     c->s->name);
		return refuse(c);
	}
	if (c->s->fc == SLUICE_FABRIC_FC_PORTFC)
		warn_portfc_detours(c);
	return 0;
}

static int load(struct ctx *c)
{
	int ret;

	ret = encode_qdisc(c);
	if (!ret)
		ret = setup(c);
	if (!ret)
		ret = check_flow_control(c);
	if (!ret)
		ret = check_lanes(c);
	if (!ret)
		ret = prepare(c, "loaded");
	if (!ret)
		ret = prepare_tags(c);
	if (!ret)
		ret = prepare_qdiscs(c);
	if (!ret)
		ret = set_mode(c);
	if (ret)
		return ret;
	/* the qdiscs first: the kernel refuses options it cannot check here */
	ret = apply_qdiscs(c);
	if (!ret) {
		ret = apply_all(c);
		if (ret && !restore_all_qdiscs(c))
			sluice_i_say(&c->say, "the qdisc options of some switches could not be restored");
	}
	if (ret) {
		unset_mode(c);
		return ret;
	}
	return count_qdiscs(c);
}

/* See sluice/fabric_load.h. */
int sluice_fabric_routes_load(const struct sluice_fabric_load_opts *o,
			      struct sluice_fabric_load_result *res,
			      char *err, size_t errlen)
{
	struct ctx c = {
		.o = o, .res = res,
		.r = o->action == SLUICE_FABRIC_UNLOAD ? NULL : o->routes,
		.say = { .o = o, .err = err, .errlen = errlen },
	};
	struct sluice_fabric_load_switch *sw;
	uint32_t u;
	int ret;

	memset(res, 0, sizeof(*res));
	if (errlen)
		err[0] = '\0';
	if ((!o->state && !o->g && (o->action != SLUICE_FABRIC_UNLOAD ||
				    o->switch_name)) ||
	    (!o->state && o->g && !o->switch_name) ||
	    (o->action != SLUICE_FABRIC_UNLOAD && !o->routes) ||
	    ((o->tags_path || o->tags) &&
	     o->tag_source == SLUICE_TAG_SOURCE_NONE)) {
		sluice_i_say(&c.say, "a load needs a fabric or a topology, and routes; tags a source");
		return refuse(&c);
	}
	if (o->action == SLUICE_FABRIC_LOAD) {
		ret = load(&c);
	} else {
		ret = setup(&c);
		if (!ret)
			ret = prepare(&c, o->action == SLUICE_FABRIC_UNLOAD ?
				      "unloaded" : NULL);
		if (!ret)
			ret = prepare_tags(&c);
		if (!ret && o->action == SLUICE_FABRIC_UNLOAD)
			ret = apply_all(&c);
	}
	res->old_multipath = c.fabric ? c.old_mode : 0;
	res->multipath = c.fabric ? (ret ? c.old_mode : c.mp.mode) : 0;
	for (u = 0; res->sw && u < res->n; u++) {
		sw = &res->sw[u];
		res->routes += sw->want.n_routes;
		res->added += sw->d.added;
		res->replaced += sw->d.replaced;
		res->deleted += sw->d.deleted;
		res->unchanged += sw->d.unchanged;
		if (c.has_tags)
			sluice_i_ltags_compare(&c.tags, u, sw);
	}
	if (c.has_tags)
		res->tags_changed = sluice_i_ltags_changed(&c.tags);
	teardown(&c);
	return ret;
}

/* See sluice/fabric_load.h. */
void sluice_fabric_load_result_free(struct sluice_fabric_load_result *res)
{
	uint32_t u;

	for (u = 0; res->sw && u < res->n; u++) {
		sluice_lroutes_free(&res->sw[u].want);
		sluice_lroutes_free(&res->sw[u].have);
		sluice_ldiff_free(&res->sw[u].d);
	}
	free(res->sw);
	memset(res, 0, sizeof(*res));
}
