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
#include <json_tokener.h>
#include <sluice/deadlock.h>
#include <sluice/fabric.h>
#include "fabric.h"
#include "fabric_deadlock.h"
#include "jout.h"
#include "load.h"
#include "opts.h"
#include "sluicectl.h"

#define INTERVAL_MAX_MS		60000
#define STATE_FILE_MAX		(64u << 20)

enum opt_id {
	OPT_NAME, OPT_INTERVAL, OPT_JSON, OPT_TOPO, OPT_STATE, OPT_LATER,
	N_OPTS,
};

static const struct opt opts[] = {
	[OPT_NAME]	= { "--name", NULL, true },
	[OPT_INTERVAL]	= { "--interval", NULL, true },
	[OPT_JSON]	= { "--json", "-j", false },
	[OPT_TOPO]	= { "--topo", NULL, true },
	[OPT_STATE]	= { "--state", NULL, true },
	[OPT_LATER]	= { "--state-later", NULL, true },
};

/* Where the state came from, for the output. */
struct source {
	const char	*fabric;	/* a fabric of this machine, or NULL */
	const char	*topo, *state, *later;
	uint32_t	switches;
};

/* --- reading "sluicectl stats -j" --- */

static int file_error(const char *path, const char *fmt, const char *what)
{
	fprintf(stderr, "sluicectl: %s: ", path);
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	return EXIT_RUNTIME;
}

/* Field @key of @o, a number from 0 to @max. */
static bool jfield(json_object *o, const char *key, uint64_t max,
		   uint64_t *v, const char *path, const char *where)
{
	json_object *f;

	if (!json_object_object_get_ex(o, key, &f) ||
	    !json_object_is_type(f, json_type_int) ||
	    json_object_get_int64(f) < 0 ||
	    json_object_get_uint64(f) > max) {
		fprintf(stderr, "sluicectl: %s: %s: \"%s\" is %s\n", path, where,
			key, f ? "not a number in range" : "missing");
		return false;
	}
	*v = json_object_get_uint64(f);
	return true;
}

static const struct {
	const char	*name;
	uint32_t	bit;
} flag_names[] = {
	{ "class", SLUICE_PRIO_F_CLASS },
	{ "paused", SLUICE_PRIO_F_PAUSED },
	{ "xoff", SLUICE_PRIO_F_XOFF },
	{ "lossless", SLUICE_PRIO_F_LOSSLESS },
	/* the PFC watchdog's */
	{ "watched", SLUICE_PRIO_F_WATCHED },
	{ "storm", SLUICE_PRIO_F_STORM },
};

/* A "prios" row; flags a newer sluicectl knows and this one not are left. */
static bool read_prio(json_object *r, struct sluice_prio_stats *ps,
		      const char *path, const char *where)
{
	json_object *flags, *f;
	uint64_t v[10];
	size_t i, k;

	if (!json_object_is_type(r, json_type_object)) {
		fprintf(stderr, "sluicectl: %s: %s: not an object\n", path,
			where);
		return false;
	}
	if (!jfield(r, "index", TC_SLUICE_MAX_CLASSES - 1, &v[0], path, where) ||
	    !jfield(r, "packets", UINT64_MAX, &v[1], path, where) ||
	    !jfield(r, "bytes", UINT64_MAX, &v[2], path, where) ||
	    !jfield(r, "backlog", UINT32_MAX, &v[3], path, where) ||
	    !jfield(r, "qlen", UINT32_MAX, &v[4], path, where) ||
	    !jfield(r, "pfc_rx", UINT64_MAX, &v[5], path, where) ||
	    !jfield(r, "paused_us", UINT64_MAX, &v[6], path, where) ||
	    !jfield(r, "ingress_bytes", UINT32_MAX, &v[7], path, where) ||
	    !jfield(r, "ingress_peak", UINT32_MAX, &v[8], path, where) ||
	    !jfield(r, "xoff_tx", UINT64_MAX, &v[9], path, where))
		return false;
	ps->index = v[0];
	ps->packets = v[1];
	ps->bytes = v[2];
	ps->backlog = v[3];
	ps->qlen = v[4];
	ps->pfc_rx = v[5];
	ps->paused_us = v[6];
	ps->ingress_bytes = v[7];
	ps->ingress_peak = v[8];
	ps->xoff_tx = v[9];
	if (!json_object_object_get_ex(r, "flags", &flags) ||
	    !json_object_is_type(flags, json_type_array)) {
		fprintf(stderr, "sluicectl: %s: %s: \"flags\" is not an array\n",
			path, where);
		return false;
	}
	for (i = 0; i < json_object_array_length(flags); i++) {
		f = json_object_array_get_idx(flags, i);
		if (!json_object_is_type(f, json_type_string)) {
			fprintf(stderr, "sluicectl: %s: %s: flags[%zu] is not a string\n",
				path, where, i);
			return false;
		}
		for (k = 0; k < ARRAY_SIZE(flag_names); k++)
			if (!strcmp(json_object_get_string(f), flag_names[k].name))
				ps->flags |= flag_names[k].bit;
	}
	return true;
}

/*
 * A port's PortFC settings and keys, under the uapi's names as "sluicectl
 * stats -j" prints struct sluice_port_stats; each one optional, as the
 * output of a sluicectl or a kernel from before PortFC has none: absent
 * is 0, not PortFC.
 */
static bool read_portfc(json_object *o, struct sluice_port_stats *ps,
			const char *path, const char *where)
{
	static const struct {
		const char	*key;
		uint64_t	max;
	} f[] = {
		/* a role a newer kernel has is read, and acts as none */
		{ "portfc", UINT8_MAX },
		{ "portfc_n", UINT8_MAX },
		{ "portfc_k", UINT8_MAX },
		{ "portfc_index", UINT8_MAX },
		{ "portfc_keys", UINT32_MAX },
	};
	uint64_t v[ARRAY_SIZE(f)] = { 0 };
	json_object *x;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (json_object_object_get_ex(o, f[i].key, &x) &&
		    !jfield(o, f[i].key, f[i].max, &v[i], path, where))
			return false;
	ps->portfc = v[0];
	ps->portfc_n = v[1];
	ps->portfc_k = v[2];
	ps->portfc_index = v[3];
	ps->portfc_keys = v[4];
	return true;
}

static bool read_port(json_object *o, struct sluice_port_info *p,
		      const char *path, size_t i)
{
	char where[96];
	json_object *name, *prios;
	uint64_t ifindex;
	size_t k, n;

	snprintf(where, sizeof(where), "port %zu", i);
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "ifname", &name) ||
	    !json_object_is_type(name, json_type_string) ||
	    !sluice_ifname_ok(json_object_get_string(name))) {
		fprintf(stderr, "sluicectl: %s: %s: no \"ifname\" that is a device name\n",
			path, where);
		return false;
	}
	snprintf(p->ifname, sizeof(p->ifname), "%s",
		 json_object_get_string(name));
	snprintf(where, sizeof(where), "port %s", p->ifname);
	if (!jfield(o, "ifindex", UINT32_MAX, &ifindex, path, where))
		return false;
	p->ifindex = ifindex;
	if (!read_portfc(o, &p->port, path, where))
		return false;
	if (!json_object_object_get_ex(o, "prios", &prios) ||
	    !json_object_is_type(prios, json_type_array)) {
		fprintf(stderr, "sluicectl: %s: %s: \"prios\" is not an array\n",
			path, where);
		return false;
	}
	n = json_object_array_length(prios);
	if (n > TC_SLUICE_MAX_CLASSES) {
		fprintf(stderr, "sluicectl: %s: %s: %zu priorities, at most %d\n",
			path, where, n, TC_SLUICE_MAX_CLASSES);
		return false;
	}
	p->n_prio = n;
	for (k = 0; k < n; k++) {
		snprintf(where, sizeof(where), "port %s prios[%zu]", p->ifname, k);
		if (!read_prio(json_object_array_get_idx(prios, k), &p->prio[k],
			       path, where))
			return false;
	}
	return true;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0, n = 0, got;
	char *buf = NULL, *nb;

	if (!f) {
		fprintf(stderr, "sluicectl: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			nb = cap <= STATE_FILE_MAX ? realloc(buf, cap + 1) : NULL;
			if (!nb) {
				fprintf(stderr, "sluicectl: %s: %s\n", path,
					cap > STATE_FILE_MAX ? "larger than 64 MiB" :
					"out of memory");
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		fprintf(stderr, "sluicectl: %s: %s\n", path, strerror(errno));
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* DIR/NODE.json, a switch's "sluicectl stats -j", into @s. */
static int read_state(const char *dir, const char *node,
		      struct sluice_dl_snap *s)
{
	char path[4096];
	json_tokener *tok;
	json_object *top;
	enum json_tokener_error jerr;
	size_t len, end, i;
	char *buf;
	bool ok;

	s->ports = NULL;
	s->n = 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s.json", dir, node) >=
	    sizeof(path))
		return file_error(dir, "%s", "path too long");
	buf = read_all(path, &len);
	if (!buf)
		return EXIT_RUNTIME;
	tok = json_tokener_new();
	if (!tok) {
		free(buf);
		return file_error(path, "%s", "out of memory");
	}
	top = json_tokener_parse_ex(tok, buf, len > INT32_MAX ? INT32_MAX : len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr == json_tokener_success)
		for (i = end; i < len; i++)
			if (!strchr(" \t\r\n", buf[i])) {
				jerr = json_tokener_error_parse_unexpected;
				end = i;
				break;
			}
	free(buf);
	if (jerr != json_tokener_success) {
		json_object_put(top);
		fprintf(stderr, "sluicectl: %s: invalid JSON at byte %zu: %s\n",
			path, end, jerr == json_tokener_continue ?
			"unexpected end of input" : json_tokener_error_desc(jerr));
		return EXIT_RUNTIME;
	}
	if (!json_object_is_type(top, json_type_array)) {
		json_object_put(top);
		return file_error(path, "%s",
				  "not an array of ports (the output of \"sluicectl stats -j\")");
	}
	s->n = json_object_array_length(top);
	s->ports = calloc(s->n ? s->n : 1, sizeof(*s->ports));
	ok = s->ports;
	if (!ok)
		fprintf(stderr, "sluicectl: %s: out of memory\n", path);
	for (i = 0; ok && i < s->n; i++)
		ok = read_port(json_object_array_get_idx(top, i), &s->ports[i],
			       path, i);
	json_object_put(top);
	if (ok)
		return 0;
	free(s->ports);
	s->ports = NULL;
	s->n = 0;
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

	for (i = 0; a && i <= ARRAY_SIZE(flag_names); i++) {
		if (i < ARRAY_SIZE(flag_names)) {
			if (!(flags & flag_names[i].bit))
				continue;
			flags &= ~flag_names[i].bit;
			snprintf(hex, sizeof(hex), "%s", flag_names[i].name);
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
	const char *val[N_OPTS], *files[8];
	struct sluice_deadlock dl = { 0 };
	struct source src = { 0 };
	char msg[128], err[SLUICE_ERRLEN];
	struct sluice_graph g = { 0 };
	unsigned int interval = SLUICE_DL_INTERVAL_MS;
	const struct sluice_graph *gp;
	struct sluice_fabric_state s;
	bool have_state = false;
	int n_files, ret;
	uint64_t v;

	ret = opts_parse(argc, argv, opts, N_OPTS, (1u << N_OPTS) - 1, val,
			 files, ARRAY_SIZE(files), &n_files, msg, sizeof(msg));
	if (ret > 0)
		return sub_help(cmd);
	if (ret)
		return sub_usage_error(cmd, "%s", msg);
	if (n_files)
		return sub_usage_error(cmd, "unexpected argument \"%s\"",
				       files[0]);
	if (!!val[OPT_TOPO] != !!val[OPT_STATE])
		return sub_usage_error(cmd, "--topo FILE and --state DIR go together");
	if (val[OPT_LATER] && !val[OPT_STATE])
		return sub_usage_error(cmd, "--state-later goes with --topo FILE --state DIR");
	if (val[OPT_TOPO] && val[OPT_NAME])
		return sub_usage_error(cmd, "--name is for a fabric of this machine, not with --topo");
	if (val[OPT_TOPO] && val[OPT_INTERVAL])
		return sub_usage_error(cmd, "--interval is for a fabric of this machine: with --state, the time is when the files were taken");
	if (val[OPT_INTERVAL]) {
		if (!opts_number(val[OPT_INTERVAL], 1, INTERVAL_MAX_MS, &v))
			return sub_usage_error(cmd, "--interval: \"%s\" is not a number of milliseconds from 1 to %d",
					       val[OPT_INTERVAL], INTERVAL_MAX_MS);
		interval = v;
	}
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
			return sub_usage_error(cmd, "--name: %s", msg);
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
