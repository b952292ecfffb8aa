// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl fabric deadlock [--name NAME] [--interval MS] [-j]
 * sluicectl fabric deadlock --topo FILE --state DIR [--state-later DIR2] [-j]
 *
 * Deadlocks now: every switch's pause state (STATS_GET), twice, and the
 * cycles of the wait-for graph (sluice/deadlock.h).  On a fabric of this
 * machine the switches are read through generic netlink sockets opened in
 * their namespaces; on real hosts each switch's "sluicectl stats -j" is
 * collected into DIR/NODE.json (and, for a progress check, once more into
 * DIR2/NODE.json) and read here.  Exit 0 without a deadlock, 3 with one
 * (as "route check" on a cyclic buffer dependency), 1 on errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/deadlock.h>
#include <sluice/fabric.h>
#include <sluice/port_stats.h>
#include "cmd_fabric.h"
#include "fabric_deadlock.h"
#include "jout.h"
#include "load.h"
#include "args.h"
#include "sluicectl.h"

#define INTERVAL_MAX_MS		60000

enum opt_id {
	OPT_NAME, OPT_INTERVAL, OPT_JSON, OPT_TOPO, OPT_STATE, OPT_LATER,
	N_OPTS,
};

static const struct arg_opt opts[] = {
	[OPT_NAME]	= ARG_S("--name", 0, "NAME", "the fabric, default sluice"),
	[OPT_INTERVAL]	= ARG_MS("--interval", 1, INTERVAL_MAX_MS,
				 "how long the counters are watched, default 500ms"),
	[OPT_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
	[OPT_TOPO]	= ARG_P("--topo", 0, "FILE",
				"with --state: the topology of a fabric elsewhere"),
	[OPT_STATE]	= ARG_P("--state", 0, "DIR",
				"with --topo: the switches' stats -j files, one per switch"),
	[OPT_LATER]	= ARG_P("--state-later", 0, "DIR2",
				"the same files taken later, to see which queues moved"),
};

static const struct args_spec spec = ARGS_SPEC(opts, 0, 0, NULL);

/* Where the state came from, for the output. */
struct source {
	const char	*fabric;	/* a fabric of this machine, or NULL */
	const char	*topo, *state, *later;
	uint32_t	switches;
};

/* DIR/NODE.json, a switch's "sluicectl stats -j", read by the library. */
static int read_state(const char *dir, const char *node,
		      struct sluice_dl_snap *s)
{
	char path[4096], err[SLUICE_ERRLEN];

	s->ports = NULL;
	s->n = 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s.json", dir, node) >=
	    sizeof(path)) {
		fprintf(stderr, "sluicectl: %s: path too long\n", dir);
		return EXIT_RUNTIME;
	}
	if (!sluice_port_stats_json_read(path, &s->ports, &s->n, err,
					 sizeof(err)))
		return 0;
	fprintf(stderr, "sluicectl: %s\n", err);
	return EXIT_RUNTIME;
}

static int find_from_state(const struct sluice_graph *g, const char *dir,
			   const char *later, struct sluice_deadlock *dl)
{
	struct sluice_dl_snap *a, *b = NULL;
	char err[SLUICE_ERRLEN];
	uint32_t u;
	int ret = 0;

	a = calloc(g->n_nodes + 1, sizeof(*a));
	if (later)
		b = calloc(g->n_nodes + 1, sizeof(*b));
	if (!a || (later && !b)) {
		fputs("sluicectl: out of memory\n", stderr);
		ret = EXIT_RUNTIME;
	}
	for (u = 0; !ret && u < g->n_nodes; u++) {
		ret = read_state(dir, g->nodes[u].name, &a[u]);
		if (!ret && later)
			ret = read_state(later, g->nodes[u].name, &b[u]);
	}
	if (!ret && sluice_deadlock_find(g, a, b, dl, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		ret = EXIT_RUNTIME;
	}
	if (a)
		sluice_dl_snaps_free(a, g->n_nodes);
	if (b)
		sluice_dl_snaps_free(b, g->n_nodes);
	free(a);
	free(b);
	return ret;
}

/* --- the report --- */

/* PortFC's queue types by the paper's names. */
static char fc_type_name(uint8_t t)
{
	return t == SLUICE_PORTFC_QA ? 'A' : 'B';
}

static void vertex_state(const struct sluice_dl_vertex *v, char *buf,
			 size_t len)
{
	const char *storm = "";

	if (v->role == SLUICE_DL_EGRESS && (v->flags & SLUICE_PRIO_F_STORM))
		storm = " (the PFC watchdog: in storm)";
	if (v->role == SLUICE_DL_EGRESS)
		snprintf(buf, len, "paused%s, %u B queued in %u frame%s",
			 storm, v->backlog, v->qlen, v->qlen == 1 ? "" : "s");
	else if (v->role == SLUICE_DL_PORTFC)
		snprintf(buf, len, "(%c, %u) asserted, %u B of type %c queued in %u frame%s",
			 fc_type_name(v->prio), v->portfc_index, v->backlog,
			 fc_type_name(v->prio), v->qlen, v->qlen == 1 ? "" : "s");
	else
		snprintf(buf, len, "XOFF, %u B held", v->ingress_bytes);
}

static void print_vertex(const struct sluice_graph *g,
			 const struct sluice_dl_vertex *v, bool progress)
{
	char state[128];

	vertex_state(v, state, sizeof(state));
	if (v->role == SLUICE_DL_PORTFC)
		printf("  %-8s %-5s %-13s %c  %s%s\n", g->nodes[v->node].name,
		       v->port, sluice_dl_role_name(v->role),
		       fc_type_name(v->prio), state,
		       progress ? ", nothing sent" : "");
	else
		printf("  %-8s %-5s %-13s %u  %s%s\n", g->nodes[v->node].name, v->port, sluice_dl_role_name(v->role),
		       v->prio, state,
		       !progress ? "" : v->role == SLUICE_DL_EGRESS ?
		       ", nothing sent" : ", unchanged");
}

static void summary_text(const struct source *src,
			 const struct sluice_deadlock *dl)
{
	if (src->fabric)
		printf("fabric %s: ", src->fabric);
	else
		printf("%s: ", src->state);
	if (dl->n_cycles)
		printf("DEADLOCK: %u cycle%s of paused queues", dl->n_cycles,
		       dl->n_cycles == 1 ? "" : "s");
	else
		printf("no deadlock");
	printf(" (%u switch%s: %u stuck egress class%s, %u holding ingress account%s, ",
	       src->switches, src->switches == 1 ? "" : "es",
	       dl->stuck, dl->stuck == 1 ? "" : "es",
	       dl->holding, dl->holding == 1 ? "" : "s");
	/* PortFC's vertices only where there are PortFC ports */
	if (dl->portfc_ports)
		printf("%u PortFC port%s, %u holding PortFC congestion%s, ",
		       dl->portfc_ports, dl->portfc_ports == 1 ? "" : "s",
		       dl->congested, dl->congested == 1 ? "" : "s");
	printf("%llu wait-for edge%s)\n",
	       (unsigned long long)dl->edges, dl->edges == 1 ? "" : "s");
	if (!dl->progress_checked)
		printf("one snapshot: progress not checked (a queue that moves slowly looks stuck; give --state-later DIR2, taken a moment later, to check)\n");
	else if (src->fabric)
		printf("progress checked: two snapshots %.3f s apart\n",
		       dl->interval_s);
	else
		printf("progress checked: %s, then %s\n", src->state, src->later);
}

/**
 * deadlock_print_cycles() - a deadlock report's cycles, readably
 * @g:		the topology the report is about
 * @dl:		sluice_deadlock_find()'s or sluice_deadlock_live()'s result
 *
 * Each cycle, a vertex a line (switch, port, egress class or ingress
 * prio, its state), then what else its component holds, then the counts
 * of what is stuck but on no cycle.  Prints nothing without either.
 */
void deadlock_print_cycles(const struct sluice_graph *g,
			   const struct sluice_deadlock *dl)
{
	const struct sluice_dl_cycle *cy;
	uint32_t i, j, k, v;
	bool in_cycle;

	for (i = 0; i < dl->n_cycles; i++) {
		cy = &dl->cycles[i];
		printf("cycle %u: %u queues on %u switch%s",
		       i + 1, cy->cycle_len, cy->cycle_switches,
		       cy->cycle_switches == 1 ? "" : "es");
		if (cy->scc_len > cy->cycle_len)
			printf(" (its strongly connected component: %u queues on %u switch%s, %u more below)",
			       cy->scc_len, cy->switches,
			       cy->switches == 1 ? "" : "es",
			       cy->scc_len - cy->cycle_len);
		printf(", each waiting on the next, the last on the first:\n");
		for (k = 0; k < cy->cycle_len; k++)
			print_vertex(g, &dl->v[dl->cycle[cy->cycle_first + k]],
				     dl->progress_checked);
		if (cy->scc_len == cy->cycle_len)
			continue;
		printf(" also in its strongly connected component:\n");
		for (k = 0; k < cy->scc_len; k++) {
			v = dl->scc[cy->scc_first + k];
			in_cycle = false;
			for (j = 0; j < cy->cycle_len; j++)
				in_cycle |= dl->cycle[cy->cycle_first + j] == v;
			if (!in_cycle)
				print_vertex(g, &dl->v[v], dl->progress_checked);
		}
	}
	if (dl->host_waits)
		printf("%u stuck egress class%s of host ports (paused by a host)\n",
		       dl->host_waits, dl->host_waits == 1 ? "" : "es");
	if (dl->outside)
		printf("%u stuck egress class%s paused from outside the graph (the peer's ingress account is not holding: a PFC storm, or pauses not from the peer's buffers%s)\n",
		       dl->outside, dl->outside == 1 ? "" : "es",
		       dl->portfc_ports ? "; on a PortFC port: no congestion holds the key that pauses it" : "");
	if (dl->ignored_ports)
		printf("%u port%s not named l<LINK> or h<I> ignored\n",
		       dl->ignored_ports, dl->ignored_ports == 1 ? "" : "s");
	if (!dl->ports)
		printf("no switch has a sluice port (a sluice root qdisc): no pause state to read\n");
}

static void print_text(const struct source *src, const struct sluice_graph *g,
		       const struct sluice_deadlock *dl)
{
	summary_text(src, dl);
	deadlock_print_cycles(g, dl);
}

/* The names of @flags; bits without one as a hexadecimal string. */
static json_object *jflags(uint32_t flags)
{
	json_object *a = json_object_new_array(), *f;
	char hex[16];
	size_t i;

	for (i = 0; a && i <= sluice_n_prio_flags; i++) {
		if (i < sluice_n_prio_flags) {
			if (!(flags & sluice_prio_flags[i].bit))
				continue;
			flags &= ~sluice_prio_flags[i].bit;
			snprintf(hex, sizeof(hex), "%s", sluice_prio_flags[i].name);
		} else if (flags) {
			snprintf(hex, sizeof(hex), "%#x", flags);
		} else {
			break;
		}
		f = json_object_new_string(hex);
		if (!f || json_object_array_add(a, f)) {
			json_object_put(f);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

static json_object *jvertex(const struct sluice_graph *g,
			    const struct sluice_dl_vertex *v)
{
	json_object *o = json_object_new_object();
	bool ok;

	ok = o && jadd(o, "switch", json_object_new_string(g->nodes[v->node].name)) &&
	     jadd(o, "port", json_object_new_string(v->port)) &&
	     (v->link == SLUICE_NONE || jadd(o, "link", jnum(v->link))) &&
	     (v->host == SLUICE_NONE || jadd(o, "host", jnum(v->host))) &&
	     jadd(o, "role", json_object_new_string(v->role == SLUICE_DL_EGRESS ?
						    "egress" :
						    v->role == SLUICE_DL_INGRESS ?
						    "ingress" : "portfc")) &&
	     (v->role == SLUICE_DL_PORTFC ||
	      (jadd(o, "prio", jnum(v->prio)) &&
	       jadd(o, "flags", jflags(v->flags)))) &&
	     (!v->portfc ||
	      (jadd(o, "portfc", json_object_new_string(v->portfc == TC_SLUICE_PORTFC_SWITCH ?
							  "switch" : "server")) &&
	       jadd(o, "portfc_index", jnum(v->portfc_index))));
	if (ok && v->role == SLUICE_DL_PORTFC)
		ok = jadd(o, "type", json_object_new_string(v->prio == SLUICE_PORTFC_QA ?
							    "A" : "B")) &&
		     jadd(o, "backlog", jnum(v->backlog)) &&
		     jadd(o, "qlen", jnum(v->qlen)) &&
		     jadd(o, "bytes", jnum(v->bytes)) &&
		     jadd(o, "xoff_tx", jnum(v->xoff_tx));
	else if (ok && v->role == SLUICE_DL_EGRESS)
		ok = jadd(o, "backlog", jnum(v->backlog)) &&
		     jadd(o, "qlen", jnum(v->qlen)) &&
		     jadd(o, "bytes", jnum(v->bytes)) &&
		     jadd(o, "pfc_rx", jnum(v->pfc_rx)) &&
		     jadd(o, "paused_us", jnum(v->paused_us));
	else if (ok)
		ok = jadd(o, "ingress_bytes", jnum(v->ingress_bytes)) &&
		     jadd(o, "ingress_peak", jnum(v->ingress_peak)) &&
		     jadd(o, "xoff_tx", jnum(v->xoff_tx));
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

static bool jvertices(json_object *o, const char *key,
		      const struct sluice_graph *g,
		      const struct sluice_deadlock *dl, const uint32_t *idx,
		      uint32_t n)
{
	json_object *arr = json_object_new_array_ext(n), *v;
	uint32_t k;

	if (!jadd(o, key, arr))
		return false;
	for (k = 0; k < n; k++) {
		v = jvertex(g, &dl->v[idx[k]]);
		if (!v || json_object_array_add(arr, v)) {
			json_object_put(v);
			return false;
		}
	}
	return true;
}

/**
 * deadlock_json_add() - a deadlock report's result, into a JSON object
 * @o:		the object: gets "progress_checked", "deadlock", the counts
 *		and "cycles" (each with "switches", "scc_size", "cycle" and
 *		"scc", lists of vertices)
 * @g:		the topology the report is about
 * @dl:		the report
 *
 * Return: false when out of memory (@o may hold some of it).
 */
bool deadlock_json_add(json_object *o, const struct sluice_graph *g,
		       const struct sluice_deadlock *dl)
{
	const struct sluice_dl_cycle *cy;
	json_object *arr = NULL, *c;
	uint32_t i;
	bool ok;

	ok = jadd(o, "progress_checked",
		  json_object_new_boolean(dl->progress_checked)) &&
	     jadd(o, "deadlock", json_object_new_boolean(dl->n_cycles > 0)) &&
	     jadd(o, "stuck_egress", jnum(dl->stuck)) &&
	     jadd(o, "holding_ingress", jnum(dl->holding)) &&
	     jadd(o, "edges", jnum(dl->edges)) &&
	     jadd(o, "host_waits", jnum(dl->host_waits)) &&
	     jadd(o, "paused_from_outside", jnum(dl->outside)) &&
	     jadd(o, "ports", jnum(dl->ports)) &&
	     jadd(o, "ignored_ports", jnum(dl->ignored_ports)) &&
	     (!dl->portfc_ports ||
	      (jadd(o, "portfc_ports", jnum(dl->portfc_ports)) &&
	       jadd(o, "portfc_congested", jnum(dl->congested)))) &&
	     jadd(o, "cycles", arr = json_object_new_array_ext(dl->n_cycles));
	for (i = 0; ok && i < dl->n_cycles; i++) {
		cy = &dl->cycles[i];
		c = json_object_new_object();
		ok = c && !json_object_array_add(arr, c);
		if (!ok) {
			json_object_put(c);
			break;
		}
		ok = jadd(c, "switches", jnum(cy->switches)) &&
		     jadd(c, "scc_size", jnum(cy->scc_len)) &&
		     jadd(c, "cycle_switches", jnum(cy->cycle_switches)) &&
		     jvertices(c, "cycle", g, dl, dl->cycle + cy->cycle_first,
			       cy->cycle_len) &&
		     jvertices(c, "scc", g, dl, dl->scc + cy->scc_first,
			       cy->scc_len);
	}
	return ok;
}

static int print_json(const struct source *src, const struct sluice_graph *g,
		      const struct sluice_deadlock *dl)
{
	json_object *o = json_object_new_object();
	bool ok;

	ok = o && (src->fabric ?
		   jadd(o, "fabric", json_object_new_string(src->fabric)) :
		   jadd(o, "topology", json_object_new_string(src->topo)) &&
		   jadd(o, "state", json_object_new_string(src->state)) &&
		   (!src->later ||
		    jadd(o, "state_later", json_object_new_string(src->later)))) &&
	     jadd(o, "switches", jnum(src->switches)) &&
	     (!src->fabric || jadd(o, "interval_s", jfixed(dl->interval_s))) &&
	     deadlock_json_add(o, g, dl);
	return jprint(o, ok);
}

int fabric_deadlock_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_deadlock dl = { 0 };
	struct source src = { 0 };
	char msg[128], err[SLUICE_ERRLEN];
	struct sluice_graph g = { 0 };
	unsigned int interval = SLUICE_DL_INTERVAL_MS;
	const struct sluice_graph *gp;
	struct sluice_fabric_state s;
	bool have_state = false;
	const char **val;
	int ret;
	ARGS_DECLARE(a, N_OPTS);

	if (args_parse(cmd, &spec, argc, argv, &a))
		return a.exit;
	val = a.val;
	if (!!val[OPT_TOPO] != !!val[OPT_STATE])
		return args_error(&a, "--topo FILE and --state DIR go together");
	if (val[OPT_LATER] && !val[OPT_STATE])
		return args_error(&a, "--state-later goes with --topo FILE --state DIR");
	if (val[OPT_TOPO] && val[OPT_NAME])
		return args_error(&a, "--name is for a fabric of this machine, not with --topo");
	if (val[OPT_TOPO] && val[OPT_INTERVAL])
		return args_error(&a, "--interval is for a fabric of this machine: with --state, the time is when the files were taken");
	if (val[OPT_INTERVAL])
		interval = a.num[OPT_INTERVAL];
	if (val[OPT_TOPO]) {
		ret = load_topo(val[OPT_TOPO], &g);
		if (ret)
			return ret;
		gp = &g;
		src.topo = val[OPT_TOPO];
		src.state = val[OPT_STATE];
		src.later = val[OPT_LATER];
		ret = find_from_state(&g, src.state, src.later, &dl);
	} else {
		src.fabric = val[OPT_NAME] ? val[OPT_NAME] :
			     SLUICE_FABRIC_DEFAULT_NAME;
		if (sluice_fabric_name_check(src.fabric, msg, sizeof(msg)))
			return args_error(&a, "--name: %s", msg);
		if (fabric_state_load(src.fabric, &s, false))
			return EXIT_RUNTIME;
		have_state = true;
		gp = &s.g;
		ret = sluice_deadlock_live(&s.f, interval, &dl, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "sluicectl: fabric %s: %s\n", src.fabric,
				err);
			ret = EXIT_RUNTIME;
		}
	}
	src.switches = gp->n_nodes;
	if (!ret) {
		if (val[OPT_JSON])
			ret = print_json(&src, gp, &dl);
		else
			print_text(&src, gp, &dl);
		if (!ret && dl.n_cycles)
			ret = EXIT_DEADLOCK;
	}
	sluice_deadlock_free(&dl);
	if (have_state)
		sluice_fabric_state_free(&s);
	sluice_graph_free(&g);
	return ret;
}
