// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl experiment bolt: TCP-Bolt (Practical DCB, Stephens et al.) on
 * a fabric of namespaces.
 *
 * One fabric shape serves the testbed figures: two switches x and y, one
 * link between them, four hosts on x and five on y, every port shaped to
 * --rate.  Each part runs once per transport on a fresh fabric:
 *
 *   window    Fig. 1: one flow at a time, x-h0 -> y-h0, of sizes from a
 *             quarter of the bandwidth-delay product to 16 of them; TCP
 *             (cubic, the kernel's first window of 10, tail drop) against
 *             TCP-DCB (cubic, a first window of the BDP, PFC).  The
 *             round trip is stretched by --delay on the receiver's ACKs
 *             (netem on its eth0, which sends nothing else), so that the
 *             BDP is many segments as at 10 Gbit/s and 240 us.
 *   fairness  Figs. 4, 5 and 9 (the topology of Fig. 3): B -> A and
 *             H1..H4 -> A (A, B on y; H1..H4 on x); B and H1 all along,
 *             H2, H3, H4 joining and leaving one --unit apart: 2 to 5
 *             flows share A's link.  TCP without PFC, TCP with PFC,
 *             TCP-Bolt (DCTCP, ECN at K, a BDP first window, PFC).
 *   holb      Figs. 7 and 10 (Fig. 6): A on x sends to C and to D on y,
 *             H1..H3 on y send to C; A -> C stops after two units.  A -> D
 *             under TCP with PFC is held by C's pauses; under TCP-Bolt
 *             it is not.
 *   edst      Fig. 14's question in the flow analysis: the throughput of
 *             a random permutation on Jellyfish fabrics under EDST with 1,
 *             2 and 4 lanes against ECMP (sluice_flow_theta()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sluice/experiment.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include <sluice/flow.h>
#include <sluice/flowgen.h>
#include <sluice/host.h>
#include <sluice/portfc.h>
#include <sluice/rate.h>
#include <sluice/switch.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/tcpgen.h>
#include <sluice/tcpstream.h>
#include <sluice/topo.h>
#include "cmd_experiment.h"
#include "cmd_fabric.h"
#include "jout.h"
#include "args.h"
#include "qdisc_args.h"
#include "sluicectl.h"

#define DSCP		24		/* class 3 by the default DSCP map */
#define LOSSLESS	3
#define X_HOSTS		4
#define Y_HOSTS		5
#define MTU		SLUICE_FABRIC_HOST_MTU
#define WIN_SIZES	7		/* BDP / 4 .. 16 BDP */
#define STREAM_FLOWS	5

enum part { P_WINDOW, P_FAIRNESS, P_HOLB, P_WORKLOAD, P_EDST, P_LANES,
	N_PARTS };

static const char *const part_names[N_PARTS] = {
	"window", "fairness", "holb", "workload", "edst", "lanes",
};

/* Transports: a congestion control, a first window, ECN, PFC. */
enum mode { M_TCP, M_DCTCP, M_TCP_PFC, M_TCP_DCB, M_BOLT, N_MODES };

static const char *const mode_names[N_MODES] = {
	"tcp", "dctcp", "tcp-pfc", "tcp-dcb", "bolt",
};

static const char *const mode_titles[N_MODES] = {
	"TCP (cubic, no PFC)", "DCTCP (ECN, no PFC)", "TCP with PFC",
	"TCP-DCB (cubic, BDP first window, PFC)",
	"TCP-Bolt (DCTCP, ECN, BDP first window, PFC)",
};

static bool lossless(int m)
{
	return m != M_TCP && m != M_DCTCP;
}

/* A part's modes, in the order they run. */
static const int part_modes[N_PARTS][N_MODES + 1] = {
	[P_WINDOW]	= { M_TCP, M_TCP_DCB, -1 },
	[P_FAIRNESS]	= { M_TCP, M_TCP_PFC, M_BOLT, -1 },
	[P_HOLB]	= { M_TCP_PFC, M_BOLT, -1 },
	[P_WORKLOAD]	= { M_TCP, M_DCTCP, M_TCP_PFC, M_BOLT, -1 },
	[P_EDST]	= { -1 },
	[P_LANES]	= { -1 },
};

struct stream_run {
	bool				ran;
	struct sluice_stream_opts	so;	/* the run's own */
	uint64_t			rtt_ns;
	uint32_t			initcwnd, ecn;
	struct sluice_stream_flow	fl[STREAM_FLOWS];
	uint32_t			n_flows;
	uint64_t			drops, pauses;	/* switch ports */
	uint64_t			marks;
};

struct window_run {
	bool		ran;
	uint64_t	rtt_ns;
	uint32_t	initcwnd;
	double		fct[WIN_SIZES];		/* median, s; < 0: failed */
};

/* Background flows by size before scaling: 64K-256K .. 8M-32M. */
#define WL_BUCKETS	4

struct workload_run {
	bool		ran;
	uint64_t	rtt_ns;
	uint32_t	initcwnd, ecn;
	uint32_t	flows, done, incasts, incasts_done;
	double		max_late;
	uint64_t	drops, pauses, marks;
	struct sluice_tcpgen_summary bg[WL_BUCKETS];	/* slowdowns */
	struct sluice_tcpgen_summary ict;		/* slowdowns */
};

/* The lanes part: a Jellyfish fabric, ECMP and EDST with 1, 2 lanes. */
#define LN_RUNS		3
#define LN_SWITCHES	8
#define LN_FLOWS	LN_SWITCHES

struct lanes_run {
	bool				ran;
	uint32_t			lanes;		/* 0: ECMP */
	struct sluice_stream_opts	so;
	struct sluice_stream_flow	fl[LN_FLOWS];
	double				measured;	/* sum / hosts / rate */
	double				model;		/* maxmin, 20 runs */
	double				exact;		/* these flows; < 0: n/a */
	uint64_t			drops, pauses;
};

#define EDST_SIZES	4
#define EDST_ALGOS	5	/* ecmp, edst 1, 2, 4, 8 lanes */

struct bexp {
	const char			*name;
	unsigned int			parts;
	unsigned int			modes;	/* BIT(enum mode) to run */
	uint64_t			rate;
	double				unit;		/* s */
	double				interval;	/* s */
	uint64_t			delay_ns;	/* window: ACK delay */
	uint32_t			reps;
	uint64_t			seed;
	const char			*svg;
	bool				keep, json, verbose;
	uint32_t			xoff, xon, headroom, limit;
	struct sluice_stream_opts	so;
	struct window_run		win[N_MODES];
	uint64_t			win_size[WIN_SIZES];
	struct stream_run		fair[N_MODES], holb[N_MODES];
	struct workload_run		wl[N_MODES];
	double				wl_scale, wl_load, wl_duration;
	/* edst */
	uint32_t			edst_n[EDST_SIZES];
	double				edst_theta[EDST_SIZES][EDST_ALGOS];
	double				edst_sd[EDST_SIZES][EDST_ALGOS];
	bool				edst_ran;
	/* lanes: ECMP, EDST with 1 and 2 lanes on a fabric */
	uint32_t			lane_quantum;	/* 0: strict */
	struct lanes_run		ln[LN_RUNS];
};

enum { O_NAME, O_PARTS, O_RATE, O_UNIT, O_INTERVAL, O_DELAY, O_REPS,
	O_SEED, O_SVG, O_KEEP, O_JSON, O_VERBOSE, O_MODES, N_O };

static const struct arg_opt opts[N_O] = {
	[O_NAME]	= ARG_S("--name", 0, "NAME", "the fabric, default sluice"),
	[O_PARTS]	= ARG_S("--parts", 0, "PARTS",
				"window, fairness, holb, workload, edst, lanes, comma-separated; default all"),
	[O_RATE]	= ARG_R("--rate", "RATE", 100000, 100000000,
				"the links' rate (what the VM can emulate), default 4mbit"),
	[O_UNIT]	= ARG_SEC("--unit", 1, 600, "a phase's length, default 3s"),
	[O_INTERVAL]	= ARG_MS("--interval", 50, 10000, "between samples, default 500ms"),
	[O_DELAY]	= ARG_NS("--delay", 0, 1000000000ull,
				 "the window part's ACK delay, default 100ms"),
	[O_REPS]	= ARG_N("--reps", 0, "N", 1, 99, "repetitions, default 3"),
	[O_SEED]	= ARG_N("--seed", 0, "S", 0, UINT32_MAX, "the seed, default 1"),
	[O_SVG]		= ARG_P("--svg", 0, "PREFIX", "draw each part into PREFIX-PART.svg"),
	[O_KEEP]	= ARG_F("--keep", 0, "leave the last fabric up"),
	[O_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
	[O_VERBOSE]	= ARG_F("--verbose", 'v', "say what is being done, on stderr"),
	[O_MODES]	= ARG_S("--modes", 0, "MODES",
				"tcp, dctcp, tcp-pfc, tcp-dcb, bolt, comma-separated; default all"),
};

static const struct args_spec spec = ARGS_SPEC(opts, 0, 0, NULL);

static void progress(const struct bexp *e, const char *fmt, ...)
{
	va_list ap;

	if (e->json && !e->verbose)
		return;
	va_start(ap, fmt);
	fputs("bolt: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static int parse(const struct command *cmd, struct bexp *e, int argc,
		 char **argv)
{
	const char **val;
	const uint64_t *num;
	char msg[160];
	int ret;
	ARGS_DECLARE(a, N_O);

	if (args_parse(cmd, &spec, argc, argv, &a))
		return a.exit ? a.exit : -1;
	val = a.val;
	num = a.num;
	e->name = val[O_NAME] ? val[O_NAME] : SLUICE_FABRIC_DEFAULT_NAME;
	if (sluice_fabric_name_check(e->name, msg, sizeof(msg)))
		return cmd_error(cmd, "--name: %s", msg);
	e->parts = (1u << N_PARTS) - 1;
	if (val[O_PARTS] && (ret = exp_parse_names(cmd, "--parts",
						   val[O_PARTS], part_names,
						   N_PARTS, &e->parts)))
		return ret;
	e->modes = (1u << N_MODES) - 1;
	if (val[O_MODES] && (ret = exp_parse_names(cmd, "--modes",
						   val[O_MODES], mode_names,
						   N_MODES, &e->modes)))
		return ret;
	e->rate = val[O_RATE] ? num[O_RATE] : 4000000;
	e->unit = val[O_UNIT] ? num[O_UNIT] : 3;
	e->interval = val[O_INTERVAL] ? num[O_INTERVAL] / 1000.0 : 0.5;
	e->delay_ns = val[O_DELAY] ? num[O_DELAY] : 100000000;
	e->reps = val[O_REPS] ? num[O_REPS] : 3;
	e->seed = val[O_SEED] ? num[O_SEED] : 1;
	/* a phase must keep bins after the one left out as settling */
	if (e->unit < 3 * e->interval)
		return cmd_error(cmd, "--unit %.0f s holds fewer than 3 samples of --interval %.0f ms: a phase needs some after the first",
				       e->unit, e->interval * 1000);
	e->svg = val[O_SVG];
	e->keep = val[O_KEEP];
	e->json = val[O_JSON];
	e->verbose = val[O_VERBOSE];
	return 0;
}

/* x with four hosts, y with five, one link. */
static int dumbbell(struct sluice_graph *g, char *err, size_t errlen)
{
	if (sluice_graph_init(g, 2, err, errlen))
		return -1;
	if (sluice_graph_set_node(g, 0, "x", SLUICE_NODE_SWITCH, X_HOSTS, 0,
				  err, errlen) ||
	    sluice_graph_set_node(g, 1, "y", SLUICE_NODE_SWITCH, Y_HOSTS, 0,
				  err, errlen) ||
	    sluice_graph_add_link(g, 0, 1, 0, 0, err, errlen) ||
	    sluice_graph_finalize(g, err, errlen)) {
		sluice_graph_free(g);
		return -1;
	}
	return 0;
}

/* Host index of x-hI (@y false) or y-hI in the fabric's host order. */
static uint32_t host_of(const struct sluice_fabric_state *fs, bool y, uint32_t i)
{
	return fs->f.host_first[y ? 1 : 0] + i;
}

/*
 * A fresh fabric for mode @m: up, ECMP routes, ECN and the host profile
 * of the mode, and its round trip measured end to end.  @pre runs after
 * the routes and before the measure (the window part's ACK delay).
 */
/* Three leaves of four hosts under two spines (the workload's). */
static int leafspine(struct sluice_graph *g, char *err, size_t errlen)
{
	return sluice_topo_leafspine(g, 3, 2, 1, 4, err, errlen) ? -1 : 0;
}

static int bolt_fabric(struct bexp *e, int m, struct sluice_fabric_state *fs,
		       int (*topo)(struct sluice_graph *g, char *err,
				   size_t errlen),
		       int (*pre)(struct bexp *e, struct sluice_fabric_state *fs),
		       uint64_t *rtt_ns, uint32_t *initcwnd, uint32_t *ecn)
{
	struct sluice_route_opts ro = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_compute_opts co = { 0 };
	struct sluice_fabric_qdisc q = { 0 };
	struct sluice_host_profile p;
	struct sluice_host_apply res;
	struct sluice_routes r = { 0 };
	char err[SLUICE_ERRLEN], how[256], rs[SLUICE_RATE_STRLEN];
	uint32_t done;
	int ret;

	memset(fs, 0, sizeof(*fs));
	snprintf(fs->name, sizeof(fs->name), "%s", e->name);
	snprintf(fs->topo_path, sizeof(fs->topo_path), "%s",
		 topo == leafspine ? "leafspine(3,2,4)" : "dumbbell(4,5)");
	fs->hosts_per_switch = SLUICE_FABRIC_HOSTS_DEFAULT;
	fs->qdisc = true;
	sluice_format_rate(e->rate, rs, sizeof(rs));
	if (lossless(m))
		snprintf(fs->qdisc_args, sizeof(fs->qdisc_args),
			 "rate %s pfc %d xoff %u xon %u headroom %u", rs,
			 LOSSLESS, e->xoff, e->xon, e->headroom);
	else
		snprintf(fs->qdisc_args, sizeof(fs->qdisc_args),
			 "rate %s limit %u", rs, e->limit);
	ret = qdisc_args_parse(fs->qdisc_args, &q);
	if (ret)
		return ret == EXIT_USAGE ? EXIT_RUNTIME : ret;
	if (topo(&fs->g, err, sizeof(err)))
		goto fail_plan;
	if (sluice_fabric_plan(&fs->f, &fs->g, fs->name,
			       SLUICE_FABRIC_HOSTS_DEFAULT, err, sizeof(err))) {
		sluice_graph_free(&fs->g);
		goto fail_plan;
	}
	fs->hash = sluice_graph_hash(&fs->g);
	ret = exp_fabric_up(fs, &q);
	if (ret)
		return ret;
	if (sluice_routes_compute(&fs->g, &ro, &co, &r, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		ret = EXIT_RUNTIME;
		goto fail;
	}
	ret = exp_load_routes(fs, &r);
	sluice_routes_free(&r);
	if (!ret && pre)
		ret = pre(e, fs);
	if (ret)
		goto fail;
	if (sluice_fabric_rtt(&fs->f, true, MTU, rtt_ns, how, sizeof(how),
			      err, sizeof(err)))
		goto fail_msg;
	progress(e, "  round trip %.2f ms (%s)", *rtt_ns / 1e6, how);
	*ecn = 0;
	*initcwnd = SLUICE_HOST_INIT_CWND;
	if (m == M_BOLT || m == M_DCTCP) {
		*ecn = sluice_ecn_threshold(e->rate, *rtt_ns, MTU);
		if (sluice_fabric_ecn(&fs->f, &q, *ecn, err, sizeof(err)))
			goto fail_msg;
	}
	if (m == M_BOLT || m == M_TCP_DCB || m == M_DCTCP) {
		if (sluice_host_profile_bolt(&p, e->rate, *rtt_ns, MTU, err,
					     sizeof(err)))
			goto fail_msg;
		if (m == M_DCTCP)	/* DCTCP alone: the kernel's window */
			p.initcwnd = p.initrwnd = 0;
		if (m == M_TCP_DCB) {
			/* Fig. 1's TCP-DCB: the kernel's TCP, only the window */
			p.cc[0] = '\0';
			p.cc_lock = false;
			p.ecn = false;
		}
		if (sluice_fabric_host_profile(&fs->f, NULL, NULL, 0, &p, &res,
					       &done, err,
					       sizeof(err)))
			goto fail_msg;
		*initcwnd = p.initcwnd ? p.initcwnd : SLUICE_HOST_INIT_CWND;
	}
	return 0;
fail_msg:
	fprintf(stderr, "sluicectl: fabric %s: %s\n", fs->name, err);
	ret = EXIT_RUNTIME;
fail:
	exp_fabric_down(fs);
	sluice_fabric_state_free(fs);
	return ret;
fail_plan:
	fprintf(stderr, "sluicectl: %s\n", err);
	return EXIT_RUNTIME;
}

static void bolt_fabric_down(struct bexp *e, struct sluice_fabric_state *fs)
{
	if (!e->keep)
		exp_fabric_down(fs);
	sluice_fabric_state_free(fs);
}

/* The switches' drops, pauses sent and CE marks, summed (genl stats). */
static int switch_counters(const struct sluice_fabric_state *fs, uint64_t *drops,
			   uint64_t *pauses, uint64_t *marks)
{
	struct sluice_port_info *pi;
	uint32_t u, n, k, c;
	int ret = 0;

	*drops = *pauses = *marks = 0;
	for (u = 0; !ret && u < fs->g.n_nodes; u++) {
		ret = exp_switch_stats(fs, u, &pi, &n);
		for (k = 0; !ret && k < n; k++) {
			*pauses += pi[k].port.pfc_tx;
			*drops += pi[k].port.limit_drops +
				  pi[k].port.headroom_drops;
			for (c = 0; c < pi[k].n_prio; c++)
				*marks += pi[k].prio[c].ecn_marks;
		}
		free(pi);
	}
	return ret;
}

/* ---- window (Fig. 1) ---- */

static int ack_delay(struct bexp *e, struct sluice_fabric_state *fs)
{
	char ns[SLUICE_NETNS_NAME_MAX], err[SLUICE_ERRLEN];

	/* y-h0 receives: its eth0 (ifindex 2) sends only ACKs */
	sluice_fabric_host_ns(&fs->f, 1, 0, ns, sizeof(ns));
	if (sluice_host_delay(ns, 2, e->delay_ns, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: the ACK delay: %s\n", err);
		return EXIT_RUNTIME;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int window_mode(struct bexp *e, int m)
{
	struct window_run *w = &e->win[m];
	struct sluice_tcpgen_opts o = {
		.tos = DSCP << 2, .stop = &exp_interrupted,
		.cc = m == M_TCP ? "cubic" : NULL,
	};
	struct sluice_tcpgen_host h[2] = { 0 };
	struct sluice_tcpgen t = { 0 };
	struct sluice_tcpgen_plan p = { 0 };
	struct sluice_fabric_state fs;
	char err[SLUICE_ERRLEN];
	double fct[99] = { 0 }, bdp;
	uint32_t s, k, ecn;
	int ret;

	progress(e, "window: %s", mode_titles[m]);
	ret = bolt_fabric(e, m, &fs, dumbbell, ack_delay, &w->rtt_ns,
			  &w->initcwnd, &ecn);
	if (ret)
		return ret;
	/* sizes from the first mode's round trip, the same for both */
	bdp = e->rate / 8.0 * w->rtt_ns / 1e9;
	if (!e->win_size[0])
		for (s = 0; s < WIN_SIZES; s++)
			e->win_size[s] = (uint64_t)(bdp * pow(2, s - 2.0));
	sluice_fabric_host_ns(&fs.f, 0, 0, h[0].ns, sizeof(h[0].ns));
	sluice_fabric_host_ns(&fs.f, 1, 0, h[1].ns, sizeof(h[1].ns));
	h[0].addr = sluice_fabric_host_addr(0, 0, true);
	h[1].addr = sluice_fabric_host_addr(1, 0, true);
	ret = sluice_tcpgen_init(&t, h, 2, &o, err, sizeof(err));
	if (!ret)
		ret = sluice_tcpgen_open(&t, err, sizeof(err));
	for (s = 0; !ret && s < WIN_SIZES; s++) {
		for (k = 0; k < e->reps; k++)
			fct[k] = INFINITY;
		for (k = 0; !ret && k < e->reps; k++) {
			double ideal = e->win_size[s] * 8.0 / e->rate;

			sluice_tcpgen_plan_free(&p);
			ret = sluice_tcpgen_plan_incast(&p, (uint32_t[]){ 0 }, 1,
							1, e->win_size[s], 0,
							0, err, sizeof(err));
			if (!ret)
				ret = sluice_tcpgen_run(&t, &p, sluice_now(),
							sluice_now() + 20 +
							10 * ideal, err,
							sizeof(err));
			fct[k] = !ret && p.fl[0].status == SLUICE_TCPGEN_DONE ?
				 p.fl[0].fct : INFINITY;
			if (exp_interrupted)
				ret = -EINTR;
			/* a gap: the next flow finds the queues empty */
			if (!ret)
				usleep(200000);
		}
		qsort(fct, e->reps, sizeof(*fct), cmp_double);
		w->fct[s] = isinf(fct[e->reps / 2]) ? -1 : fct[e->reps / 2];
		progress(e, "  %llu bytes (%.2f BDP): median FCT %.1f ms",
			 (unsigned long long)e->win_size[s],
			 e->win_size[s] / bdp, w->fct[s] * 1e3);
	}
	if (ret)
		fprintf(stderr, "sluicectl: window: %s\n", err);
	sluice_tcpgen_plan_free(&p);
	sluice_tcpgen_free(&t);
	bolt_fabric_down(e, &fs);
	w->ran = !ret;
	return ret ? EXIT_RUNTIME : 0;
}

/*
 * The slow-start model of Fig. 1: a flow of S bytes with a first window
 * of W segments of M bytes needs the rounds that doubling W takes to
 * cover S before the pipe is full, then S / rate.
 */
static double window_model(const struct bexp *e, uint64_t size, uint32_t w,
			   uint64_t rtt_ns)
{
	double rtt = rtt_ns / 1e9, mss = MTU - SLUICE_HOST_TCP_OVERHEAD;
	double bdp_seg = e->rate / 8.0 * rtt / mss, sent = 0, t = 0;
	/* the SYN-ACK's unscaled window bounds the first flight */
	double win = sluice_host_first_flight(w, MTU);
	double seg = ceil(size / mss);

	/* rounds while the window is below the pipe */
	while (sent + win < seg && win < bdp_seg) {
		sent += win;
		win *= 2;
		t += rtt;
	}
	return t + rtt + (seg - sent) * mss * 8 / e->rate;
}

/* ---- fairness and holb: long flows ---- */

static void set_flow(struct stream_run *s, uint32_t i, uint32_t src,
		     uint32_t dst, double start, double stop)
{
	s->fl[i].src = src;
	s->fl[i].dst = dst;
	s->fl[i].start = start;
	s->fl[i].stop = stop;
}

/* Fig. 3: B -> A, H1 -> A all along; H2, H3, H4 nested a unit apart. */
static double fairness_flows(const struct bexp *e,
			     const struct sluice_fabric_state *fs,
			     struct stream_run *s)
{
	double u = e->unit;
	uint32_t a = host_of(fs, true, 0), b = host_of(fs, true, 1);

	s->n_flows = 5;
	set_flow(s, 0, b, a, 0, 7 * u);
	set_flow(s, 1, host_of(fs, false, 0), a, 0, 7 * u);
	set_flow(s, 2, host_of(fs, false, 1), a, 1 * u, 6 * u);
	set_flow(s, 3, host_of(fs, false, 2), a, 2 * u, 5 * u);
	set_flow(s, 4, host_of(fs, false, 3), a, 3 * u, 4 * u);
	return 7 * u;
}

/* Fig. 6: A -> C (two units), A -> D, H1..H3 -> C (three). */
static double holb_flows(const struct bexp *e, const struct sluice_fabric_state *fs,
			 struct stream_run *s)
{
	double u = e->unit;
	uint32_t a = host_of(fs, false, 0), c = host_of(fs, true, 0);
	uint32_t i;

	s->n_flows = 5;
	set_flow(s, 0, a, c, 0, 2 * u);
	set_flow(s, 1, a, host_of(fs, true, 1), 0, 3 * u);
	for (i = 0; i < 3; i++)
		set_flow(s, 2 + i, host_of(fs, true, 2 + i), c, 0, 3 * u);
	return 3 * u;
}

static const char *const fair_names[STREAM_FLOWS] = {
	"B->A", "H1->A", "H2->A", "H3->A", "H4->A",
};

static const char *const holb_names[STREAM_FLOWS] = {
	"A->C", "A->D", "H1->C", "H2->C", "H3->C",
};

static int stream_mode(struct bexp *e, enum part part, int m)
{
	struct stream_run *s = part == P_FAIRNESS ? &e->fair[m] : &e->holb[m];
	struct sluice_tcpgen_host *h;
	struct sluice_fabric_state fs;
	char err[SLUICE_ERRLEN];
	uint32_t k;
	int ret;

	progress(e, "%s: %s", part_names[part], mode_titles[m]);
	ret = bolt_fabric(e, m, &fs, dumbbell, NULL, &s->rtt_ns, &s->initcwnd,
			  &s->ecn);
	if (ret)
		return ret;
	s->so = e->so;
	s->so.duration = part == P_FAIRNESS ? fairness_flows(e, &fs, s) :
			 holb_flows(e, &fs, s);
	s->so.cc = m == M_BOLT ? NULL : "cubic";
	h = calloc(fs.f.n_hosts, sizeof(*h));
	if (!h) {
		bolt_fabric_down(e, &fs);
		return EXIT_RUNTIME;
	}
	for (k = 0; k < fs.f.n_hosts; k++) {
		bool y = k >= X_HOSTS;
		uint32_t i = y ? k - X_HOSTS : k;

		sluice_fabric_host_ns(&fs.f, y, i, h[k].ns, sizeof(h[k].ns));
		h[k].addr = sluice_fabric_host_addr(y, i, true);
	}
	ret = sluice_stream_run(h, fs.f.n_hosts, s->fl, s->n_flows, &s->so,
				err, sizeof(err));
	free(h);
	if (ret)
		fprintf(stderr, "sluicectl: %s: %s\n", part_names[part], err);
	else
		ret = switch_counters(&fs, &s->drops, &s->pauses, &s->marks);
	bolt_fabric_down(e, &fs);
	s->ran = !ret;
	return ret ? EXIT_RUNTIME : 0;
}

/*
 * Bins of [@from, @to) units, less the first after a change (the flows
 * settle): the steady part of a phase.
 */
static void phase_bins(const struct bexp *e, double from, double to,
		       uint32_t *b0, uint32_t *b1)
{
	*b0 = (uint32_t)ceil(from * e->unit / e->interval - 1e-9) + 1;
	*b1 = (uint32_t)floor(to * e->unit / e->interval + 1e-9);
	if (*b1 < *b0)
		*b1 = *b0;
}

/* Per-flow means (bit/s) of phase [@from, @to) units; their sum. */
static double phase_rates(const struct bexp *e, const struct stream_run *s,
			  double from, double to, double *rate)
{
	uint32_t b0, b1, i;
	double sum = 0;

	phase_bins(e, from, to, &b0, &b1);
	for (i = 0; i < s->n_flows; i++) {
		rate[i] = sluice_stream_rate(&s->fl[i], &s->so, b0, b1);
		sum += rate[i];
	}
	return sum;
}

/* The fairness phases: [k, k + 1) units with 2 + k flows, k = 0..3. */
#define FAIR_PHASES	4

/* Jain's index of the @n active rates. */
static double jain(const double *r, uint32_t n)
{
	double s = 0, s2 = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		s += r[i];
		s2 += r[i] * r[i];
	}
	return s2 > 0 ? s * s / (n * s2) : 0;
}

/* Whether mode @m did what the paper says of it in the fairness part. */
static bool fairness_ok(const struct bexp *e, int m, double *b_share,
			double *j5)
{
	double r[STREAM_FLOWS], sum;

	sum = phase_rates(e, &e->fair[m], 3, 4, r);
	*b_share = sum > 0 ? r[0] / sum : 0;
	*j5 = jain(r, 5);
	if (m == M_TCP_PFC)	/* per-port: B keeps about half */
		return *b_share >= 0.35;
	if (m == M_BOLT)	/* per-flow: every share near a fifth */
		return *j5 >= 0.9;
	return true;		/* TCP alone: no claim beyond the numbers */
}

/*
 * A -> D while A -> C runs, and after (@after); @fair: its fair rate, A's
 * link less A -> C's quarter of C's link (the goodput C's link carried).
 */
static double holb_victim(const struct bexp *e, int m, double *after,
			  double *fair)
{
	double r[STREAM_FLOWS], v;

	phase_rates(e, &e->holb[m], 2, 3, r);
	*after = r[1];
	phase_rates(e, &e->holb[m], 0, 2, r);
	v = r[1];
	*fair = 0.75 * (r[0] + r[2] + r[3] + r[4]);
	return v;
}

/* PFC holds A -> D under 60 % of its fair rate; TCP-Bolt does not. */
static bool holb_ok(const struct bexp *e, int m)
{
	double after, fair, v = holb_victim(e, m, &after, &fair);

	return m == M_TCP_PFC ? v < 0.6 * fair : v >= 0.6 * fair;
}

/* ---- workload (Section V-B) ---- */

static const char *const wl_bucket_names[WL_BUCKETS] = {
	"64K-256K", "256K-1M", "1M-4M", "4M-32M",
};

static int workload_mode(struct bexp *e, int m)
{
	struct workload_run *w = &e->wl[m];
	struct sluice_flowgen_bolt b = {
		.scale = e->wl_scale, .duration = e->wl_duration,
		.seed = e->seed, .load = e->wl_load, .rate = e->rate,
	};
	struct sluice_tcpgen_opts o = {
		.tos = DSCP << 2, .stop = &exp_interrupted,
		.cc = m == M_TCP || m == M_TCP_PFC ? "cubic" : NULL,
	};
	struct sluice_tcpgen_filter f = { .by_tag = true };
	struct sluice_flowgen_incast *inc = NULL;
	struct sluice_tcpgen_plan p = { 0 };
	struct sluice_tcpgen t = { 0 };
	struct sluice_fabric_state fs;
	char err[SLUICE_ERRLEN];
	double *alone = NULL, t0, *ict = NULL, lo = 64 * 1024;
	uint32_t q, k, n_inc = 0, c, ecn;
	int ret;

	progress(e, "workload: %s", mode_titles[m]);
	ret = bolt_fabric(e, m, &fs, leafspine, NULL, &w->rtt_ns,
			  &w->initcwnd, &ecn);
	if (ret)
		return ret;
	w->ecn = ecn;
	b.n_hosts = fs.f.n_hosts;
	ret = sluice_flowgen_plan_bolt(&p, &b, err, sizeof(err));
	if (!ret)
		ret = sluice_tcpgen_init_fabric(&t, &fs.f, &o, err,
						sizeof(err));
	if (!ret)
		ret = sluice_tcpgen_open(&t, err, sizeof(err));
	if (!ret) {
		progress(e, "  %u flows over %.0f s", p.n_flows,
			 e->wl_duration);
		ret = sluice_tcpgen_run(&t, &p, sluice_now(), sluice_now() +
					e->wl_duration + 30, err, sizeof(err));
	}
	if (ret) {
		fprintf(stderr, "sluicectl: workload: %s\n", err);
		goto out;
	}
	/* a flow alone: 1.5 round trips, then its bytes at the rate */
	t0 = 1.5 * w->rtt_ns / 1e9;
	alone = calloc(p.n_flows ? p.n_flows : 1, sizeof(*alone));
	if (!alone || sluice_flowgen_incasts(p.fl, p.n_flows, &inc, &n_inc)) {
		ret = -ENOMEM;
		goto out;
	}
	for (q = 0; q < p.n_flows; q++) {
		alone[q] = sluice_flowgen_alone(t0, e->rate, MTU, p.fl[q].size);
		w->done += p.fl[q].status == SLUICE_TCPGEN_DONE;
		if (p.fl[q].late > w->max_late)
			w->max_late = p.fl[q].late;
	}
	w->flows = p.n_flows;
	f.tag = SLUICE_FLOWGEN_BACKGROUND;
	for (k = 0; k < WL_BUCKETS; k++) {
		f.min_size = (uint64_t)(lo * pow(4, k) * e->wl_scale);
		f.max_size = (uint64_t)(lo * pow(4, k + 1) * e->wl_scale) +
			     (k == WL_BUCKETS - 1);
		sluice_flowgen_slowdowns(p.fl, p.n_flows, alone, &f, &w->bg[k]);
	}
	/* an incast's completion against its responses' bytes alone */
	ict = calloc(n_inc ? n_inc : 1, sizeof(*ict));
	if (!ict) {
		ret = -ENOMEM;
		goto out;
	}
	for (k = 0, c = 0; k < n_inc; k++) {
		uint64_t bytes = 0;

		for (q = 0; q < p.n_flows; q++)
			if (p.fl[q].tag == SLUICE_FLOWGEN_INCAST &&
			    p.fl[q].job == inc[k].job)
				bytes += p.fl[q].size;
		w->incasts++;
		if (inc[k].ict < 0)
			continue;
		w->incasts_done++;
		ict[c++] = inc[k].ict /
			   sluice_flowgen_alone(t0, e->rate, MTU, bytes);
	}
	w->ict.count = n_inc;
	w->ict.finished = c;
	if (c) {
		double sum = 0;

		for (k = 0; k < c; k++)
			sum += ict[k];
		w->ict.mean = sum / c;
		w->ict.p50 = sluice_tcpgen_percentile(ict, c, 50);
		w->ict.p99 = sluice_tcpgen_percentile(ict, c, 99);
	}
	ret = switch_counters(&fs, &w->drops, &w->pauses, &w->marks);
	w->ran = !ret;
out:
	free(ict);
	free(inc);
	free(alone);
	sluice_tcpgen_free(&t);
	sluice_tcpgen_plan_free(&p);
	bolt_fabric_down(e, &fs);
	return ret ? EXIT_RUNTIME : 0;
}

/*
 * TCP-Bolt finishes background flows of 64 KB to 1 MB (before scaling)
 * sooner on average than TCP, the paper's 50-70 % lower average FCT for
 * 10 KB-1 MB; and in the lossless modes every flow completes.
 */
static bool workload_ok(const struct bexp *e, double *gain)
{
	const struct workload_run *b = &e->wl[M_BOLT], *t = &e->wl[M_TCP];
	double tb = t->bg[0].mean * t->bg[0].finished +
		    t->bg[1].mean * t->bg[1].finished;
	double bb = b->bg[0].mean * b->bg[0].finished +
		    b->bg[1].mean * b->bg[1].finished;
	uint32_t tn = t->bg[0].finished + t->bg[1].finished;
	uint32_t bn = b->bg[0].finished + b->bg[1].finished;

	*gain = tn && bn && tb > 0 ? 1 - (bb / bn) / (tb / tn) : 0;
	return b->ran && t->ran && *gain > 0 && b->done == b->flows &&
	       (!e->wl[M_TCP_PFC].ran ||
		e->wl[M_TCP_PFC].done == e->wl[M_TCP_PFC].flows);
}

static void print_workload(const struct bexp *e)
{
	const int *mp;
	bool any = false;
	double gain;
	uint32_t k;

	for (mp = part_modes[P_WORKLOAD]; *mp >= 0; mp++)
		any |= e->wl[*mp].ran;
	if (!any)
		return;
	printf("workload (Section V-B): 12 hosts of a leaf-spine (3 leaves, 2 spines), Poisson incasts of fan-in 10 (SRU 2/4/8 KB) and log-uniform background flows (64 KB-32 MB) at load %.2f, sizes x %g, %.0f s\n",
	       e->wl_load, e->wl_scale, e->wl_duration);
	printf("  slowdown = FCT / the flow alone (1.5 round trips + its bytes at the rate); buckets by size before scaling\n");
	printf("  predicts: TCP-Bolt best for short and medium flows (paper: 50-70%% lower average FCT for 10 KB-1 MB than TCP); DCTCP good for incasts, slow for medium flows; TCP with PFC bad for incasts\n");
	printf("  %-44s", "");
	for (k = 0; k < WL_BUCKETS; k++)
		printf(" %13s", wl_bucket_names[k]);
	printf(" %13s %s\n", "incast", "flows done, drops, pauses, marks");
	for (mp = part_modes[P_WORKLOAD]; *mp >= 0; mp++) {
		const struct workload_run *w = &e->wl[*mp];

		if (!w->ran)
			continue;
		printf("  %-44s", mode_titles[*mp]);
		for (k = 0; k < WL_BUCKETS; k++)
			printf(" %6.1f/%6.1f", w->bg[k].mean, w->bg[k].p99);
		printf(" %6.1f/%6.1f %u/%u, %llu, %llu, %llu\n", w->ict.mean,
		       w->ict.p99, w->done, w->flows,
		       (unsigned long long)w->drops,
		       (unsigned long long)w->pauses,
		       (unsigned long long)w->marks);
	}
	printf("  (mean/p99 slowdowns; incast: completion of all 10 responses against their bytes alone)\n");
	if (e->wl[M_BOLT].ran && e->wl[M_TCP].ran) {
		bool good = workload_ok(e, &gain);

		printf("  TCP-Bolt's mean slowdown of 64 KB-1 MB flows %.0f%% below TCP's: %s\n",
		       100 * gain, good ? "as predicted" : "NOT as predicted");
	}
}

/* ---- edst (Fig. 14) ---- */

/*
 * The paper's flow simulator (Section IV-B): a random permutation of
 * servers, each flow on one of its pair's shortest paths (a random tree
 * among those offering the shortest route, for EDST), max-min fair rates,
 * 20 permutations averaged (sluice_flow_maxmin()).
 */
static int edst_part(struct bexp *e)
{
	/* 64-port switches, 32 to the network: 1152 to 7200 servers */
	static const uint32_t sizes[EDST_SIZES] = { 36, 72, 144, 225 };
	static const uint32_t lanes[EDST_ALGOS] = { 0, 1, 2, 4, 8 };
	struct sluice_traffic_spec ts = {
		.kind = SLUICE_TRAFFIC_PERMUTATION, .seed = e->seed,
	};
	struct sluice_maxmin_result res;
	struct sluice_graph g;
	char err[SLUICE_ERRLEN];
	uint32_t s, a;
	int ret = 0;

	progress(e, "edst: Jellyfish of 36 to 225 switches of 64 ports (32 to the network, 32 servers), 20 random permutations");
	for (s = 0; !ret && s < EDST_SIZES; s++) {
		e->edst_n[s] = sizes[s];
		if (sluice_topo_jellyfish(&g, sizes[s], 32, 32, e->seed, err,
					  sizeof(err))) {
			fprintf(stderr, "sluicectl: edst: %s\n", err);
			return EXIT_RUNTIME;
		}
		for (a = 0; !ret && a < EDST_ALGOS; a++) {
			struct sluice_route_opts ro = {
				.algo = lanes[a] ? SLUICE_ROUTE_EDST :
				       SLUICE_ROUTE_ECMP,
				.lanes = lanes[a],
			};
			struct sluice_compute_opts co = { 0 };
			struct sluice_routes r = { 0 };

			ret = sluice_routes_compute(&g, &ro, &co, &r, err,
						    sizeof(err));
			if (!ret)
				ret = sluice_flow_maxmin(&g, &r, &ts, 20, NULL, NULL, &res,
							 err, sizeof(err));
			sluice_routes_free(&r);
			e->edst_theta[s][a] = ret ? -1 : res.throughput;
			e->edst_sd[s][a] = ret ? 0 : res.throughput_sd;
			if (!ret)
				progress(e, "  %u switches, %s%.0u%s: %.3f +- %.3f",
					 sizes[s], lanes[a] ? "edst " : "ecmp",
					 lanes[a], lanes[a] ? " lanes" : "",
					 res.throughput, res.throughput_sd);
			if (exp_interrupted)
				ret = -EINTR;
		}
		sluice_graph_free(&g);
	}
	if (ret)
		fprintf(stderr, "sluicectl: edst: %s\n", err);
	e->edst_ran = !ret;
	return ret ? EXIT_RUNTIME : 0;
}

/*
 * The model for exactly the flows that ran, where the route set fixes
 * each flow's path (one path a pair on the flow's lane: EDST with a tree
 * a lane): max-min fair rates with every link direction and host link of
 * capacity 1; -1 where a flow's lane has several paths (ECMP: the kernel's
 * hash picks, unknown here).
 */
static double lanes_exact(const struct sluice_graph *g,
			  const struct sluice_routes *r,
			  const struct sluice_stream_flow *fl, uint32_t n)
{
	uint32_t res[LN_FLOWS * (2 + 64)], nres = 0, i, lane, u, l;
	uint64_t flow_res[LN_FLOWS + 1], p, q, found, h;
	double cap[2 * 64 + 2 * LN_FLOWS], rate[LN_FLOWS], sum = 0;
	char err[SLUICE_ERRLEN];

	if (g->n_links > 64)
		return -1;
	for (i = 0; i < 2 * g->n_links + 2 * n; i++)
		cap[i] = 1;
	for (i = 0; i < n; i++) {
		flow_res[i] = nres;
		lane = fl[i].tos >> 2;
		for (p = 0; p < r->n_pairs; p++)
			if (r->pair_src[p] == fl[i].src &&
			    r->pair_dst[p] == fl[i].dst)
				break;
		if (p == r->n_pairs)
			return -1;
		found = UINT64_MAX;
		for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++)
			if (r->path_lane[q] == lane) {
				if (found != UINT64_MAX)
					return -1;
				found = q;
			}
		if (found == UINT64_MAX ||
		    r->path_hop[found + 1] - r->path_hop[found] > 64)
			return -1;
		res[nres++] = 2 * g->n_links + 2 * fl[i].src;
		u = fl[i].src;
		for (h = r->path_hop[found]; h < r->path_hop[found + 1]; h++) {
			l = r->hops[h];
			res[nres++] = 2 * l + (g->links[l].a == u ? 0 : 1);
			u = g->links[l].a == u ? g->links[l].b : g->links[l].a;
		}
		res[nres++] = 2 * g->n_links + 2 * fl[i].dst + 1;
	}
	flow_res[n] = nres;
	if (sluice_maxmin_fill(2 * g->n_links + 2 * n, cap, n, flow_res, res,
			       rate, err, sizeof(err)))
		return -1;
	for (i = 0; i < n; i++)
		sum += rate[i];
	return sum / n;
}

/*
 * Fig. 14 on a fabric: a Jellyfish of 8 switches (3 network ports, a host
 * each) at 1 Mbit/s, every host sending one long TCP flow to another (a
 * random derangement), under ECMP and under EDST with 1 and 2 lanes, each
 * flow on a random lane (its DSCP); the aggregate throughput measured
 * against the flow model's for the same routes.
 */
static int lanes_run(struct bexp *e, struct lanes_run *ln, uint32_t k)
{
	static const uint32_t lanes[LN_RUNS] = { 0, 1, 2 };
	struct sluice_route_opts ro = { 0 };
	struct sluice_compute_opts co = { 0 };
	struct sluice_traffic_spec ts = {
		.kind = SLUICE_TRAFFIC_PERMUTATION, .seed = e->seed,
	};
	struct sluice_fabric_qdisc q = { 0 };
	struct sluice_tcpgen_host h[LN_FLOWS];
	struct sluice_maxmin_result mm;
	struct sluice_routes r = { 0 };
	struct sluice_fabric_state fs;
	struct sluice_rng rng;
	char err[SLUICE_ERRLEN];
	uint32_t perm[LN_FLOWS], i, b0, b1;
	uint64_t marks;
	double sum = 0;
	int ret;

	ln->lanes = lanes[k];
	ro.algo = ln->lanes ? SLUICE_ROUTE_EDST : SLUICE_ROUTE_ECMP;
	ro.lanes = ln->lanes;
	progress(e, "lanes: %s%.0u%s", ln->lanes ? "EDST, " : "ECMP",
		 ln->lanes, ln->lanes ? " lane(s)" : "");
	memset(&fs, 0, sizeof(fs));
	snprintf(fs.name, sizeof(fs.name), "%s", e->name);
	snprintf(fs.topo_path, sizeof(fs.topo_path), "jellyfish(%u,3,1)",
		 LN_SWITCHES);
	fs.hosts_per_switch = SLUICE_FABRIC_HOSTS_DEFAULT;
	fs.qdisc = true;
	fs.fc = SLUICE_FABRIC_FC_PFC;
	fs.lanes = ln->lanes ? ln->lanes : 1;
	snprintf(fs.qdisc_args, sizeof(fs.qdisc_args),
		 "rate 1mbit xoff %u xon %u headroom %u", e->xoff, e->xon,
		 e->headroom);
	ret = qdisc_args_parse(fs.qdisc_args, &q);
	if (ret)
		return EXIT_RUNTIME;
	q.fc = fs.fc;
	q.lanes = fs.lanes;
	if (sluice_topo_jellyfish(&fs.g, LN_SWITCHES, 3, 1, e->seed, err,
				  sizeof(err)))
		goto fail_plan;
	if (sluice_fabric_plan(&fs.f, &fs.g, fs.name,
			       SLUICE_FABRIC_HOSTS_DEFAULT, err, sizeof(err)) ||
	    sluice_fabric_fc_apply(&fs.f, &q, err, sizeof(err)) ||
	    sluice_routes_compute(&fs.g, &ro, &co, &r, err, sizeof(err))) {
		sluice_fabric_free(&fs.f);
		sluice_graph_free(&fs.g);
		sluice_routes_free(&r);
		goto fail_plan;
	}
	fs.hash = sluice_graph_hash(&fs.g);
	/* what the model says of these routes */
	ret = sluice_flow_maxmin(&fs.g, &r, &ts, 20, NULL, NULL, &mm, err,
				 sizeof(err));
	ln->model = ret ? -1 : mm.throughput;
	ret = exp_fabric_up(&fs, &q);
	if (ret) {
		sluice_routes_free(&r);
		return ret;
	}
	ret = exp_load_routes(&fs, &r);
	/*
	 * The lanes' classes share a link by DWRR, equal quanta: under strict
	 * priority a higher lane's standing queue (cubic over PFC never backs
	 * off) would starve a lower one on every link they share.
	 */
	if (!ret && e->lane_quantum) {
		struct sluice_copt c = { .present = SLUICE_COPT_QUANTUM,
					 .quantum = e->lane_quantum };

		if (sluice_fabric_classes(&fs.f, &q, &c, err, sizeof(err))) {
			fprintf(stderr, "sluicectl: lanes: %s\n", err);
			ret = EXIT_RUNTIME;
		}
	}
	if (ret) {
		sluice_routes_free(&r);
		goto out;
	}
	/* a random derangement of the hosts, a random lane a flow */
	sluice_rng_seed(&rng, e->seed);
	do {
		for (i = 0; i < LN_FLOWS; i++)
			perm[i] = i;
		sluice_rng_shuffle(&rng, perm, LN_FLOWS);
		for (i = 0; i < LN_FLOWS && perm[i] != i; i++)
			;
	} while (i < LN_FLOWS);
	for (i = 0; i < LN_FLOWS; i++) {
		sluice_fabric_host_ns(&fs.f, i, 0, h[i].ns, sizeof(h[i].ns));
		h[i].addr = sluice_fabric_host_addr(i, 0, true);
		ln->fl[i] = (struct sluice_stream_flow){
			.src = i, .dst = perm[i], .start = 0,
			.stop = 4 * e->unit,
			.tos = ln->lanes > 1 ?
			       sluice_rng_below(&rng, ln->lanes) << 2 : 0,
		};
	}
	ln->exact = lanes_exact(&fs.g, &r, ln->fl, LN_FLOWS);
	sluice_routes_free(&r);
	ln->so = e->so;
	ln->so.tos = 0;
	ln->so.duration = 4 * e->unit;
	ln->so.cc = "cubic";
	ret = sluice_stream_run(h, LN_FLOWS, ln->fl, LN_FLOWS, &ln->so, err,
				sizeof(err));
	if (ret) {
		fprintf(stderr, "sluicectl: lanes: %s\n", err);
		ret = EXIT_RUNTIME;
		goto out;
	}
	/* the last three units: every flow past its start */
	b0 = (uint32_t)ceil(e->unit / e->interval - 1e-9);
	b1 = sluice_stream_bins(&ln->so);
	for (i = 0; i < LN_FLOWS; i++)
		sum += sluice_stream_rate(&ln->fl[i], &ln->so, b0, b1);
	ln->measured = sum / LN_FLOWS / 1e6;
	ret = switch_counters(&fs, &ln->drops, &ln->pauses, &marks);
	ln->ran = !ret;
out:
	bolt_fabric_down(e, &fs);
	return ret;
fail_plan:
	fprintf(stderr, "sluicectl: lanes: %s\n", err);
	return EXIT_RUNTIME;
}

static int lanes_part(struct bexp *e)
{
	uint32_t k;
	int ret = 0;

	for (k = 0; !ret && k < LN_RUNS; k++)
		ret = lanes_run(e, &e->ln[k], k);
	return ret;
}

/*
 * The fabric carries the lanes at the rates the flow model gives the same
 * flows on the same paths (within 20 %: TCP over PFC is not max-min), and
 * loses nothing.  Whether more lanes do better is the edst part's claim,
 * over 20 permutations; one permutation's random lanes may say either.
 */
static bool lanes_ok(const struct bexp *e)
{
	uint32_t k;

	for (k = 0; k < LN_RUNS; k++) {
		const struct lanes_run *ln = &e->ln[k];

		if (!ln->ran || ln->drops)
			return false;
		if (ln->exact > 0 && fabs(ln->measured / ln->exact - 1) > 0.2)
			return false;
	}
	return true;
}

static void print_lanes(const struct bexp *e)
{
	uint32_t k;

	if (!e->ln[0].ran && !e->ln[1].ran && !e->ln[2].ran)
		return;
	printf("lanes (Fig. 14 on a fabric): Jellyfish of %u switches (3 network ports, a host each) at 1 Mbit/s, a random derangement of long TCP flows (cubic over PFC), each on a random lane\n",
	       LN_SWITCHES);
	printf("  predicts: each EDST run within 20%% of the flow model for its flows' paths (the route file fixes a flow's path by its lane; ECMP's the kernel's hash picks), no drop; the lanes' classes share links by DWRR\n");
	for (k = 0; k < LN_RUNS; k++) {
		const struct lanes_run *ln = &e->ln[k];

		if (!ln->ran)
			continue;
		char ex[16];

		snprintf(ex, sizeof(ex), ln->exact > 0 ? "%.3f" : "-",
			 ln->exact);
		printf("  %-14s measured %.3f of the host rate; model %s for these flows' paths, %.3f over 20 permutations; %llu drops, %llu pauses\n",
		       ln->lanes == 0 ? "ECMP" : ln->lanes == 1 ? "EDST, 1 lane" :
		       "EDST, 2 lanes", ln->measured, ex, ln->model,
		       (unsigned long long)ln->drops,
		       (unsigned long long)ln->pauses);
	}
	if (e->ln[0].ran && e->ln[1].ran && e->ln[2].ran)
		printf("  %s\n", lanes_ok(e) ? "as predicted" :
		       "NOT as predicted");
}

/* ---- output ---- */

static double mbit(double bps)
{
	return bps / 1e6;
}

/* The speedup of size @s, measured and modelled. */
static double window_speedup(const struct bexp *e, uint32_t s, double *model)
{
	const struct window_run *t = &e->win[M_TCP], *d = &e->win[M_TCP_DCB];

	*model = window_model(e, e->win_size[s], 10, t->rtt_ns) /
		 window_model(e, e->win_size[s], d->initcwnd, d->rtt_ns);
	return t->fct[s] > 0 && d->fct[s] > 0 ? t->fct[s] / d->fct[s] : 0;
}

/* The model within a quarter at every size, and a real gain somewhere. */
static bool window_ok(const struct bexp *e, double *best)
{
	double sp, model;
	bool good = true;
	uint32_t s;

	*best = 0;
	for (s = 0; s < WIN_SIZES; s++) {
		sp = window_speedup(e, s, &model);
		if (!(fabs(sp / model - 1) < 0.25))
			good = false;
		if (sp > *best)
			*best = sp;
	}
	return good && *best >= 1.3;
}

static void print_window(const struct bexp *e)
{
	const struct window_run *t = &e->win[M_TCP], *d = &e->win[M_TCP_DCB];
	double best, sp, model, lo, hi;
	bool good;
	uint32_t s;

	if (!t->ran || !d->ran)
		return;
	printf("window (Fig. 1): one flow x-h0 -> y-h0, round trip %.1f ms with a %.0f ms ACK delay, BDP %u segments\n",
	       d->rtt_ns / 1e6, e->delay_ns / 1e6, d->initcwnd);
	window_speedup(e, 2, &lo);
	window_speedup(e, WIN_SIZES - 1, &hi);
	printf("  predicts: TCP-DCB skips slow start, %.1fx to %.1fx faster from 1 to 16 BDPs (paper: 1.5x-3x from 0.3 to 33 BDPs at 10 Gbit/s, 240 us)\n",
	       lo, hi);
	printf("  %10s %6s %12s %12s %8s %8s\n", "bytes", "BDPs", "TCP ms",
	       "TCP-DCB ms", "speedup", "model");
	for (s = 0; s < WIN_SIZES; s++) {
		sp = window_speedup(e, s, &model);
		printf("  %10llu %6.2f %12.1f %12.1f %7.2fx %7.2fx\n",
		       (unsigned long long)e->win_size[s], pow(2, s - 2.0),
		       t->fct[s] * 1e3, d->fct[s] * 1e3, sp, model);
	}
	good = window_ok(e, &best);
	printf("  %s: the largest speedup %.2fx (the model within 25%% at every size, and at least 1.3x somewhere)\n",
	       good ? "as predicted" : "NOT as predicted", best);
}

static void print_stream(const struct bexp *e, enum part part)
{
	const char *const *names = part == P_FAIRNESS ? fair_names :
				   holb_names;
	double r[STREAM_FLOWS], sum, bs, j5, fair, after, v;
	bool any = false, good;
	const int *mp;
	uint32_t i;

	for (mp = part_modes[part]; *mp >= 0; mp++)
		any |= (part == P_FAIRNESS ? e->fair : e->holb)[*mp].ran;
	if (!any)
		return;
	if (part == P_FAIRNESS) {
		printf("fairness (Figs. 4, 5, 9): B->A, H1..H4->A, 2 to 5 flows on A's link; phase means (Mbit/s), the first %.1f s of each left out\n",
		       e->interval);
		printf("  predicts: TCP-Bolt per-flow shares (1/2, 1/3, 1/4, 1/5: paper 5, 3.33, 2.5, 2 of 10 Gbit/s); TCP with PFC per port (B keeps 1/2); TCP alone about per flow, noisy\n");
	} else {
		printf("holb (Figs. 7, 10): A->C and A->D from A, H1..H3->C; A->C stops at %.0f s (Mbit/s)\n",
		       2 * e->unit);
	}
	for (mp = part_modes[part]; *mp >= 0; mp++) {
		const struct stream_run *s = part == P_FAIRNESS ?
					     &e->fair[*mp] : &e->holb[*mp];

		if (!s->ran)
			continue;
		printf("  %s: rtt %.1f ms initcwnd %u ecn %u; switches: %llu drops, %llu pauses, %llu CE marks\n",
		       mode_titles[*mp], s->rtt_ns / 1e6, s->initcwnd, s->ecn,
		       (unsigned long long)s->drops,
		       (unsigned long long)s->pauses,
		       (unsigned long long)s->marks);
		if (part == P_FAIRNESS) {
			uint32_t k;

			for (k = 0; k < FAIR_PHASES; k++) {
				sum = phase_rates(e, s, k, k + 1, r);
				printf("    %u flows:", 2 + k);
				for (i = 0; i < 2 + k; i++)
					printf(" %s %.3f", names[i],
					       mbit(r[i]));
				printf(" (sum %.3f, Jain %.3f)\n", mbit(sum),
				       jain(r, 2 + k));
			}
			good = fairness_ok(e, *mp, &bs, &j5);
			/* TCP alone is judged by nothing: say so, not "as predicted" */
			printf("    5 flows: B's share %.2f (per port 0.50, per flow 0.20), Jain %.3f: %s\n",
			       bs, j5, *mp == M_TCP ? "no prediction (TCP alone: noisy)" :
			       good ? "as predicted" : "NOT as predicted");
		} else {
			phase_rates(e, s, 0, 2, r);
			for (i = 0; i < s->n_flows; i++)
				printf("    %s %.3f", names[i], mbit(r[i]));
			printf("\n");
			v = holb_victim(e, *mp, &after, &fair);
			printf("    A->D %.3f while A->C runs (%.0f%% of its fair %.3f), %.3f after: %s\n",
			       mbit(v), fair > 0 ? 100 * v / fair : 0,
			       mbit(fair), mbit(after),
			       holb_ok(e, *mp) ? "as predicted" :
			       "NOT as predicted");
		}
	}
}

/* EDST with 8 lanes within 15 % of ECMP at the paper's largest size. */
static bool edst_ok(const struct bexp *e)
{
	const double *t = e->edst_theta[EDST_SIZES - 1];

	return t[EDST_ALGOS - 1] >= 0.85 * t[0];
}

static void print_edst(const struct bexp *e)
{
	uint32_t s, a;

	if (!e->edst_ran)
		return;
	printf("edst (Fig. 14): aggregate throughput of a random permutation (max-min fair, one shortest path a flow, 20 runs), Jellyfish of 64-port switches (32 network ports, 32 servers)\n");
	printf("  predicts: EDST within 15%% of ECMP at 7200 servers with 8 lanes (the paper: >= 85%%), fewer lanes further off as size grows\n");
	printf("  %8s %8s %8s", "switches", "servers", "ecmp");
	for (a = 1; a < EDST_ALGOS; a++)
		printf("  %8s %u lane%s", "edst", 1u << (a - 1), a > 1 ? "s" : " ");
	printf("\n");
	for (s = 0; s < EDST_SIZES; s++) {
		printf("  %8u %8u %8.3f", e->edst_n[s], 32 * e->edst_n[s],
		       e->edst_theta[s][0]);
		for (a = 1; a < EDST_ALGOS; a++)
			printf("   %6.3f (%3.0f%%)", e->edst_theta[s][a],
			       100 * e->edst_theta[s][a] / e->edst_theta[s][0]);
		printf("\n");
	}
	printf("  %s\n", edst_ok(e) ? "as predicted" : "NOT as predicted");
}

/* ---- plots ---- */

struct svg_arg {
	const struct bexp	*e;
	enum part		part;
	int			mode;
};

static int write_window_svg(const void *arg, FILE *f)
{
	const struct bexp *e = ((const struct svg_arg *)arg)->e;
	double sp[WIN_SIZES], model[WIN_SIZES];
	struct sluice_svg_series ser[2] = {
		{ "measured: TCP FCT / TCP-DCB FCT", sp, WIN_SIZES },
		{ "slow-start model", model, WIN_SIZES },
	};
	struct sluice_svg_plot p = {
		.title = "Fig. 1: speedup of a BDP first window over PFC",
		.x_label = "flow size: 2^(x - 3) bandwidth-delay products",
		.y_label = "speedup (x)",
		.x_step = 1,
		.series = ser,
		.n_series = 2,
	};
	uint32_t s;

	for (s = 0; s < WIN_SIZES; s++)
		sp[s] = window_speedup(e, s, &model[s]);
	return sluice_svg_write(&p, f) ? -EIO : 0;
}

static int write_stream_svg(const void *arg, FILE *f)
{
	const struct svg_arg *a = arg;
	const struct bexp *e = a->e;
	const struct stream_run *s = a->part == P_FAIRNESS ?
				     &e->fair[a->mode] : &e->holb[a->mode];
	const char *const *names = a->part == P_FAIRNESS ? fair_names :
				   holb_names;
	uint32_t n = sluice_stream_bins(&s->so), i, b;
	struct sluice_svg_series ser[STREAM_FLOWS];
	double *y = calloc((size_t)STREAM_FLOWS * n, sizeof(*y));
	char title[160], rs[SLUICE_RATE_STRLEN];
	struct sluice_svg_plot p = {
		.title = title,
		.x_label = "time (s)",
		.y_label = "throughput (Mbit/s)",
		.x_step = e->interval,
		.series = ser,
		.n_series = s->n_flows,
	};
	int ret;

	if (!y)
		return -ENOMEM;
	snprintf(title, sizeof(title), "%s: %s, %s links",
		 a->part == P_FAIRNESS ? "Figs. 4, 5, 9" : "Figs. 7, 10",
		 mode_titles[a->mode], sluice_format_rate(e->rate, rs,
							  sizeof(rs)));
	for (i = 0; i < s->n_flows; i++) {
		for (b = 0; b < n; b++)
			y[(size_t)i * n + b] = s->fl[i].bins[b] * 8 /
					       e->interval / 1e6;
		ser[i].name = names[i];
		ser[i].y = &y[(size_t)i * n];
		ser[i].n = n;
	}
	ret = sluice_svg_write(&p, f) ? -EIO : 0;
	free(y);
	return ret;
}

/* PREFIX-window.svg, PREFIX-fairness-MODE.svg, PREFIX-holb-MODE.svg. */
static int write_plots(const struct bexp *e)
{
	char path[PATH_MAX];
	struct svg_arg a = { .e = e };
	const int *mp;
	int ret = 0;

	if (e->win[M_TCP].ran && e->win[M_TCP_DCB].ran) {
		snprintf(path, sizeof(path), "%s-window.svg", e->svg);
		ret = write_out(path, write_window_svg, &a);
	}
	for (a.part = P_FAIRNESS; !ret && a.part <= P_HOLB; a.part++)
		for (mp = part_modes[a.part]; !ret && *mp >= 0; mp++) {
			if (!(a.part == P_FAIRNESS ? e->fair :
			      e->holb)[*mp].ran)
				continue;
			a.mode = *mp;
			snprintf(path, sizeof(path), "%s-%s-%s.svg", e->svg,
				 part_names[a.part], mode_names[*mp]);
			ret = write_out(path, write_stream_svg, &a);
		}
	return ret ? EXIT_RUNTIME : 0;
}

static json_object *jd(double v)
{
	return json_object_new_double(v);
}

static json_object *stream_json(const struct bexp *e, enum part part, int m)
{
	const struct stream_run *s = part == P_FAIRNESS ? &e->fair[m] :
				     &e->holb[m];
	json_object *o = json_object_new_object(), *ph, *row, *fl;
	double r[STREAM_FLOWS], bs, j5, after, fair, v;
	uint32_t k, i, b;
	bool ok = o != NULL, met;

	ok = ok && jadd(o, "rtt_ns", jnum(s->rtt_ns)) &&
	     jadd(o, "initcwnd", jnum(s->initcwnd)) &&
	     jadd(o, "ecn", jnum(s->ecn)) && jadd(o, "drops", jnum(s->drops)) &&
	     jadd(o, "pauses", jnum(s->pauses)) &&
	     jadd(o, "ce_marks", jnum(s->marks)) &&
	     jadd(o, "flows", fl = json_object_new_array());
	for (i = 0; ok && i < s->n_flows; i++) {
		row = json_object_new_array();
		ok = row && !json_object_array_add(fl, row);
		for (b = 0; ok && b < sluice_stream_bins(&s->so); b++)
			ok = !json_object_array_add(row,
				jd(s->fl[i].bins[b] * 8 / e->interval));
	}
	if (part == P_FAIRNESS) {
		ok = ok && jadd(o, "phases", ph = json_object_new_array());
		for (k = 0; ok && k < FAIR_PHASES; k++) {
			phase_rates(e, s, k, k + 1, r);
			row = json_object_new_array();
			ok = row && !json_object_array_add(ph, row);
			for (i = 0; ok && i < 2 + k; i++)
				ok = !json_object_array_add(row, jd(r[i]));
		}
		met = fairness_ok(e, m, &bs, &j5);
		/* TCP alone has no prediction to meet: no "as_predicted" */
		ok = ok && (m == M_TCP ||
			    jadd(o, "as_predicted",
				 json_object_new_boolean(met))) &&
		     jadd(o, "b_share_5", jd(bs)) && jadd(o, "jain_5", jd(j5));
	} else {
		v = holb_victim(e, m, &after, &fair);
		ok = ok && jadd(o, "victim", jd(v)) &&
		     jadd(o, "victim_fair", jd(fair)) &&
		     jadd(o, "victim_after", jd(after)) &&
		     jadd(o, "as_predicted",
			  json_object_new_boolean(holb_ok(e, m)));
	}
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

/* Whether every part that ran did what the paper predicts. */
static bool judge(const struct bexp *e)
{
	double x, y;
	bool ok = true;
	const int *mp;

	if (e->win[M_TCP].ran && e->win[M_TCP_DCB].ran)
		ok &= window_ok(e, &x);
	for (mp = part_modes[P_FAIRNESS]; *mp >= 0; mp++)
		if (e->fair[*mp].ran)
			ok &= fairness_ok(e, *mp, &x, &y);
	for (mp = part_modes[P_HOLB]; *mp >= 0; mp++)
		if (e->holb[*mp].ran)
			ok &= holb_ok(e, *mp);
	if (e->wl[M_BOLT].ran && e->wl[M_TCP].ran)
		ok &= workload_ok(e, &x);
	if (e->edst_ran)
		ok &= edst_ok(e);
	if (e->ln[0].ran && e->ln[1].ran && e->ln[2].ran)
		ok &= lanes_ok(e);
	return ok;
}

static int print_json(const struct bexp *e, bool all_ok)
{
	json_object *o = json_object_new_object(), *w, *a, *m;
	const int *mp;
	uint32_t s, k;
	bool ok = o != NULL;
	int p;

	ok = ok && jadd(o, "rate", jnum(e->rate)) &&
	     jadd(o, "unit_s", jd(e->unit)) &&
	     jadd(o, "interval_s", jd(e->interval));
	if (ok && e->win[M_TCP].ran && e->win[M_TCP_DCB].ran) {
		ok = jadd(o, "window", w = json_object_new_object()) &&
		     jadd(w, "rtt_ns", jnum(e->win[M_TCP_DCB].rtt_ns)) &&
		     jadd(w, "delay_ns", jnum(e->delay_ns)) &&
		     jadd(w, "initcwnd", jnum(e->win[M_TCP_DCB].initcwnd)) &&
		     jadd(w, "sizes", a = json_object_new_array());
		for (s = 0; ok && s < WIN_SIZES; s++)
			ok = !json_object_array_add(a, jnum(e->win_size[s]));
		for (k = 0; ok && k < 2; k++) {
			int mode = k ? M_TCP_DCB : M_TCP;

			ok = jadd(w, k ? "tcp_dcb_fct_s" : "tcp_fct_s",
				  a = json_object_new_array());
			for (s = 0; ok && s < WIN_SIZES; s++)
				ok = !json_object_array_add(a,
					jd(e->win[mode].fct[s]));
		}
	}
	for (p = P_FAIRNESS; ok && p <= P_HOLB; p++) {
		m = NULL;
		for (mp = part_modes[p]; ok && *mp >= 0; mp++) {
			const struct stream_run *sr = p == P_FAIRNESS ?
				&e->fair[*mp] : &e->holb[*mp];

			if (!sr->ran)
				continue;
			if (!m)
				ok = jadd(o, part_names[p],
					  m = json_object_new_object());
			ok = ok && jadd(m, mode_names[*mp],
					stream_json(e, p, *mp));
		}
	}
	m = NULL;
	for (mp = part_modes[P_WORKLOAD]; ok && *mp >= 0; mp++) {
		const struct workload_run *wr = &e->wl[*mp];
		json_object *b;

		if (!wr->ran)
			continue;
		if (!m)
			ok = jadd(o, "workload", m = json_object_new_object()) &&
			     jadd(m, "scale", jd(e->wl_scale)) &&
			     jadd(m, "load", jd(e->wl_load)) &&
			     jadd(m, "duration_s", jd(e->wl_duration));
		ok = ok && jadd(m, mode_names[*mp], w = json_object_new_object()) &&
		     jadd(w, "rtt_ns", jnum(wr->rtt_ns)) &&
		     jadd(w, "initcwnd", jnum(wr->initcwnd)) &&
		     jadd(w, "ecn", jnum(wr->ecn)) &&
		     jadd(w, "flows", jnum(wr->flows)) &&
		     jadd(w, "done", jnum(wr->done)) &&
		     jadd(w, "max_late_s", jd(wr->max_late)) &&
		     jadd(w, "drops", jnum(wr->drops)) &&
		     jadd(w, "pauses", jnum(wr->pauses)) &&
		     jadd(w, "ce_marks", jnum(wr->marks)) &&
		     jadd(w, "incast", b = json_object_new_object()) &&
		     jadd(b, "count", jnum(wr->incasts)) &&
		     jadd(b, "done", jnum(wr->incasts_done)) &&
		     jadd(b, "mean", jd(wr->ict.mean)) &&
		     jadd(b, "p50", jd(wr->ict.p50)) &&
		     jadd(b, "p99", jd(wr->ict.p99)) &&
		     jadd(w, "background", a = json_object_new_array());
		for (k = 0; ok && k < WL_BUCKETS; k++)
			ok = !json_object_array_add(a, b = json_object_new_object()) &&
			     jadd(b, "sizes", json_object_new_string(wl_bucket_names[k])) &&
			     jadd(b, "flows", jnum(wr->bg[k].finished)) &&
			     jadd(b, "mean", jd(wr->bg[k].mean)) &&
			     jadd(b, "p99", jd(wr->bg[k].p99));
	}
	if (ok && e->edst_ran) {
		ok = jadd(o, "edst", a = json_object_new_array());
		for (s = 0; ok && s < EDST_SIZES; s++) {
			ok = !json_object_array_add(a,
				w = json_object_new_object()) &&
			     jadd(w, "switches", jnum(e->edst_n[s])) &&
			     jadd(w, "model", json_object_new_string("maxmin")) &&
			     jadd(w, "ecmp", jd(e->edst_theta[s][0])) &&
			     jadd(w, "edst_1", jd(e->edst_theta[s][1])) &&
			     jadd(w, "edst_2", jd(e->edst_theta[s][2])) &&
			     jadd(w, "edst_4", jd(e->edst_theta[s][3])) &&
			     jadd(w, "edst_8", jd(e->edst_theta[s][4])) &&
			     jadd(w, "sd", json_object_new_array());
			for (k = 0; ok && k < EDST_ALGOS; k++)
				ok = !json_object_array_add(
					json_object_object_get(w, "sd"),
					jd(e->edst_sd[s][k]));
		}
	}
	for (k = 0; ok && k < LN_RUNS; k++) {
		const struct lanes_run *ln = &e->ln[k];

		if (!ln->ran)
			continue;
		if (!json_object_object_get_ex(o, "lanes", &a))
			ok = jadd(o, "lanes", a = json_object_new_array());
		ok = ok && !json_object_array_add(a,
				w = json_object_new_object()) &&
		     jadd(w, "routes", json_object_new_string(ln->lanes ?
							      "edst" : "ecmp")) &&
		     jadd(w, "lanes", jnum(ln->lanes ? ln->lanes : 1)) &&
		     jadd(w, "measured", jd(ln->measured)) &&
		     jadd(w, "model_these_paths", jd(ln->exact)) &&
		     jadd(w, "model_20_permutations", jd(ln->model)) &&
		     jadd(w, "drops", jnum(ln->drops)) &&
		     jadd(w, "pauses", jnum(ln->pauses));
	}
	ok = ok && jadd(o, "as_predicted", json_object_new_boolean(all_ok));
	return jprint(o, ok);
}

int experiment_bolt_main(const struct command *cmd, int argc, char **argv)
{
	struct bexp e = { 0 };
	bool ok = true;
	const int *mp;
	int ret, p;

	ret = parse(cmd, &e, argc, argv);
	if (ret)
		return ret < 0 ? 0 : ret;
	e.xoff = 20000;
	e.xon = 17000;
	if (exp_derive_headroom(e.rate, &e.headroom))
		return EXIT_RUNTIME;
	e.limit = e.xoff + e.headroom;
	e.wl_scale = 0.1;
	e.wl_load = 0.3;
	e.wl_duration = 20;
	e.lane_quantum = 1514;
	e.so.interval = e.interval;
	e.so.tos = DSCP << 2;
	e.so.stop = &exp_interrupted;
	signal(SIGINT, exp_on_signal);
	signal(SIGTERM, exp_on_signal);
	for (p = 0; !ret && p < N_PARTS; p++) {
		if (!(e.parts & 1u << p))
			continue;
		if (p == P_EDST || p == P_LANES) {
			ret = p == P_EDST ? edst_part(&e) : lanes_part(&e);
			continue;
		}
		for (mp = part_modes[p]; !ret && *mp >= 0; mp++)
			if (e.modes & 1u << *mp)
				ret = p == P_WINDOW ? window_mode(&e, *mp) :
				      p == P_WORKLOAD ? workload_mode(&e, *mp) :
				      stream_mode(&e, p, *mp);
	}
	if (!ret || exp_interrupted) {
		ok = judge(&e);
		if (e.json) {
			if (print_json(&e, ok))
				ret = EXIT_RUNTIME;
		} else {
			print_window(&e);
			print_stream(&e, P_FAIRNESS);
			print_stream(&e, P_HOLB);
			print_workload(&e);
			print_edst(&e);
			print_lanes(&e);
		}
	}
	if (e.svg && !ret && write_plots(&e))
		ret = EXIT_RUNTIME;
	for (p = 0; p < N_MODES; p++) {
		sluice_stream_free(e.fair[p].fl, e.fair[p].n_flows);
		sluice_stream_free(e.holb[p].fl, e.holb[p].n_flows);
	}
	if (ret)
		return ret;
	return ok ? 0 : 3;
}
