// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl experiment deadlock [OPTIONS]
 *
 * FC's Section 6 in software (NSDI'23, "Formation and Impact of
 * Deadlocks"): on the 4-switch testbed of Fig. 4a, under PFC with low
 * thresholds and no congestion control, every host sends to every host
 * under another switch, once per route set, each on a fresh fabric.  A
 * route set with a cyclic buffer dependency (ecmp-cw, Section 6.2's
 * imbalanced allocation: the clockwise ring links get twice what they can
 * send) can deadlock; FC's and EDST's routes cannot.  Per set: the CBD
 * check's prediction, delivered throughput over time, the switches' pause
 * and watchdog counters, and the verdict: a deadlock is delivered
 * throughput at zero for the last --quiet milliseconds while the lossless
 * queues wait on each other in a cycle.
 *
 * Everything is done in this process: the fabric through lib/fabric (as
 * "fabric up" and "route load"), the traffic through lib/fabric/udpgen.c
 * (one UDP socket per host made inside the host's namespace), the counters
 * through the sluice generic netlink family.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sluice/cbd.h>
#include <sluice/deadlock.h>
#include <sluice/experiment.h>
#include <sluice/fabric.h>
#include <sluice/fabric_load.h>
#include <sluice/fabric_nl.h>
#include <sluice/headroom.h>
#include <sluice/rate.h>
#include <sluice/route.h>
#include <sluice/size.h>
#include <sluice/switch.h>
#include <sluice/topo.h>
#include "cmd_experiment.h"
#include "cmd_fabric.h"
#include "jout.h"
#include "load.h"
#include "args.h"
#include "qdisc_args.h"
#include "progress.h"
#include "sluicectl.h"

/* "Not as predicted", as "route check" exits on a CBD. */
#define EXIT_UNEXPECTED	3
#define LOSSLESS	3	/* the priority and class; DSCP 24 */
#define DSCP		24
#define UDP_PORT	4791	/* RoCEv2's, for the flavour */
#define TICK		0.01	/* seconds between sends */
#define SAMPLES_MAX	100000
#define SETS_MAX	8

static int deadlock_main(const struct command *cmd, int argc, char **argv);

/* SIGINT or SIGTERM: stop, take the fabric down, exit 1. */
volatile sig_atomic_t exp_interrupted;

void exp_on_signal(int sig)
{
	(void)sig;
	exp_interrupted = 1;
}

static const struct command experiment_commands[] = {
	{ "deadlock", deadlock_main,
	  "FC's Section 6: route sets with and without a CBD under PFC, throughput over time, deadlocks",
	  EXPERIMENT_DEADLOCK_USAGE, "experiment" },
	{ "bolt", experiment_bolt_main,
	  "TCP-Bolt (Practical DCB): the BDP first window (Fig. 1), fairness (Figs. 4, 5, 9), HoLB (Figs. 7, 10), EDST (Fig. 14)",
	  EXPERIMENT_BOLT_USAGE, "experiment" },
	{ "bcube", experiment_bcube_main,
	  "PortFC's Sections 2.2, 5.1 and 5.2: deadlock, head-of-line blocking, incast and flow completion times on BCube under PFC, PFC*, PortFC and tail drop",
	  EXPERIMENT_BCUBE_USAGE, "experiment" },
	{ "faca", experiment_faca_main,
	  "FaCa's Sections 7.1 and 7.3: Flowing&Jumping against ECMP, WCMP, greedy and the optimum, congestion and port balance (flow-level model); ECMP, WCMP and FaCa's agents on a fabric of namespaces",
	  EXPERIMENT_FACA_USAGE, "experiment" },
};

int experiment_main(const struct command *cmd, int argc, char **argv)
{
	return group_main(cmd, experiment_commands,
			  ARRAY_SIZE(experiment_commands), argc, argv);
}

enum opt_id {
	OPT_NAME, OPT_TOPO, OPT_ROUTES, OPT_DURATION, OPT_INTERVAL, OPT_HOSTS,
	OPT_RATE, OPT_SEND_RATE, OPT_FRAME, OPT_XOFF, OPT_XON, OPT_HEADROOM,
	OPT_WATCHDOG, OPT_DETECT, OPT_RESTORE, OPT_QUIET, OPT_SVG, OPT_KEEP,
	OPT_JSON, OPT_VERBOSE,
	N_OPTS,
};

static const char *const wd_actions[] = { "drop", "forward", "alert", NULL };

static const struct arg_opt opts[] = {
	[OPT_NAME]	= ARG_S("--name", 0, "NAME", "the fabric, default sluice"),
	[OPT_TOPO]	= ARG_P("--topo", 0, "FILE", "the topology, default FC's testbed"),
	[OPT_ROUTES]	= ARG_S("--routes", 0, "SETS",
				"route algorithms, comma-separated, default ecmp-cw,fc,edst"),
	[OPT_DURATION]	= ARG_SEC("--duration", 1, 3600, "how long each set runs, default 20s"),
	[OPT_INTERVAL]	= ARG_MS("--interval", 10, 60000, "between samples, default 500ms"),
	[OPT_HOSTS]	= ARG_N("--hosts-per-switch", 0, "H", 1, SLUICE_FABRIC_HOSTS_MAX,
				"hosts of every switch"),
	[OPT_RATE]	= ARG_R("--rate", "RATE", 1, UINT64_MAX, "the links' rate, default 1mbit"),
	[OPT_SEND_RATE]	= ARG_R("--send-rate", "RATE", 1, UINT64_MAX,
				"each host's sending rate, default twice --rate"),
	[OPT_FRAME]	= ARG_N("--frame", 0, "BYTES", SLUICE_UDPGEN_OVERHEAD + SLUICE_UDPGEN_HDR,
				SLUICE_FABRIC_HOST_MTU + 14, "the frames' size, default 1442"),
	[OPT_XOFF]	= ARG_Z("--xoff", "BYTES", 0, UINT32_MAX, "PFC's xoff, default 20Kb"),
	[OPT_XON]	= ARG_Z("--xon", "BYTES", 0, UINT32_MAX, "PFC's xon, default 17Kb"),
	[OPT_HEADROOM]	= ARG_Z("--headroom", "BYTES", 0, UINT32_MAX,
				"default Tagger's eq. 1 at --rate plus 10 ms of it"),
	[OPT_WATCHDOG]	= ARG_E("--watchdog", 0, wd_actions,
				"the PFC watchdog on the lossless priority, with this action"),
	[OPT_DETECT]	= ARG_MS("--detection-time", TC_SLUICE_WD_MIN_MS, TC_SLUICE_WD_MAX_MS,
				 "with --watchdog: paused this long is a storm"),
	[OPT_RESTORE]	= ARG_MS("--restoration-time", TC_SLUICE_WD_MIN_MS, TC_SLUICE_WD_MAX_MS,
				 "with --watchdog: unpaused this long ends it"),
	[OPT_QUIET]	= ARG_MS("--quiet", 1, 3600000,
				 "nothing delivered this long is a deadlock, default 2s"),
	[OPT_SVG]	= ARG_P("--svg", 0, "FILE", "draw throughput over time into FILE"),
	[OPT_KEEP]	= ARG_F("--keep", 0, "leave the last set's fabric up"),
	[OPT_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
	[OPT_VERBOSE]	= ARG_F("--verbose", 'v', "say what is being done, on stderr"),
};

static const struct args_spec spec = ARGS_SPEC(opts, 0, 0, NULL);

struct set {
	enum sluice_route_algo	algo;
	struct sluice_routes	r;
	struct sluice_cbd_result cbd;
	bool			ran;
	struct sluice_dl_run	run;	/* the samples, the counters */
	struct sluice_verdict_out v;
	bool			wd_broke;	/* the watchdog broke it */
	bool			as_predicted;
	char			why[256];
};

struct exp;

/* Whose progress a run reports. */
struct set_ctx {
	const struct exp	*e;
	const struct set	*s;
};

struct exp {
	const char		**val;
	const char		*vals[N_OPTS];
	uint64_t		num[N_OPTS];
	struct args		args;
	const char		*name;
	struct sluice_graph	g;
	char			topo_name[PATH_MAX];
	int			hosts_per_switch;
	__u64			rate, send_rate;
	uint32_t		frame, xoff, xon, headroom;
	bool			headroom_derived;	/* not --headroom */
	uint32_t		duration_s, interval_ms, quiet_ms;
	const char		*wd_action;
	char			words[FABRIC_QDISC_MAX];
	struct sluice_set_list {
		uint32_t	n;
		struct set	s[SETS_MAX];
	} sets;
	uint32_t		n_flows, n_hosts;
	bool			verbose;
};

static void progress(const struct exp *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void progress(const struct exp *e, const char *fmt, ...)
{
	va_list ap;

	if (!e->verbose)
		return;
	fputs("experiment: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * The headroom of every port when --headroom is not given: eq. (1) of
 * Tagger (sluice_headroom_bytes(), "sluicectl headroom") for the link's
 * rate, a veth (no cable), the largest frame a link port carries and the
 * standard's 60-quantum response, plus what a software-shaped link may
 * send at once: a port woken late sends the wire time it lost back to
 * back, up to the qdisc's catch-up bound (SLUICE_MAX_CATCHUP_NS, 10 ms),
 * and a pause decided meanwhile finds those frames sent.  1 Mbit/s:
 * 2 * (1634 + 64) + 3840 + 1250 = 8486 bytes.
 */
#define EXP_CATCHUP_NS	10000000ull

int exp_derive_headroom(uint64_t rate, uint32_t *headroom)
{
	struct sluice_headroom h = {
		.rate = rate,
		.cable_m = 0,
		.mtu = SLUICE_FABRIC_LINK_MTU + 14,
		.response = SLUICE_PFC_RESPONSE_QUANTA,
	};
	unsigned __int128 catchup;

	if (sluice_headroom_bytes(&h))
		return -ERANGE;
	catchup = ((unsigned __int128)rate * EXP_CATCHUP_NS + 8000000000ull - 1) /
		  8000000000ull;
	if (h.bytes + catchup > UINT32_MAX)
		return -ERANGE;
	*headroom = h.bytes + catchup;
	return 0;
}

/*
 * A comma-separated list of @names (an experiment's --parts or --modes)
 * into a bit mask; EXIT_USAGE, said on stderr, on a word not among them.
 */
int exp_parse_names(const struct command *cmd, const char *opt, const char *s,
		    const char *const *names, int n, unsigned int *mask)
{
	char *list = strdup(s), *tok, *save;
	int k;

	if (!list)
		return EXIT_RUNTIME;
	*mask = 0;
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < n && strcmp(tok, names[k]); k++)
			;
		if (k == n) {
			char all[128] = "";

			for (k = 0; k < n; k++)
				snprintf(all + strlen(all),
					 sizeof(all) - strlen(all), "%s%s",
					 k ? ", " : "", names[k]);
			cmd_error(cmd, "%s: \"%s\" is not one of %s", opt,
					tok, all);
			free(list);
			return EXIT_USAGE;
		}
		*mask |= 1u << k;
	}
	free(list);
	if (!*mask)
		return cmd_error(cmd, "%s: none given", opt);
	return 0;
}

static int parse_routes(const struct command *cmd, struct exp *e,
			const char *list)
{
	char buf[256], *tok, *save;
	int a;

	if (strlen(list) >= sizeof(buf))
		return cmd_error(cmd, "--routes: too long");
	snprintf(buf, sizeof(buf), "%s", list);
	e->sets.n = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		a = sluice_route_algo_parse(tok);
		if (a < 0)
			return cmd_error(cmd, "--routes: unknown algorithm \"%s\"",
					       tok);
		if (e->sets.n == SETS_MAX)
			return cmd_error(cmd, "--routes: at most %d sets",
					       SETS_MAX);
		e->sets.s[e->sets.n++].algo = a;
	}
	if (!e->sets.n)
		return cmd_error(cmd, "--routes: no route set given");
	return 0;
}

/* Every option's meaning; EXIT_USAGE (printed) if one is wrong. */
static int parse(const struct command *cmd, struct exp *e, int argc,
		 char **argv)
{
	const uint64_t *num = e->num;
	char msg[128], r[SLUICE_RATE_STRLEN];
	const char **val;
	int ret;

	e->args.val = e->vals;
	e->args.num = e->num;
	if (args_parse(cmd, &spec, argc, argv, &e->args))
		return e->args.exit ? e->args.exit : -1;
	val = e->val = e->vals;
	e->name = val[OPT_NAME] ? val[OPT_NAME] : SLUICE_FABRIC_DEFAULT_NAME;
	if (sluice_fabric_name_check(e->name, msg, sizeof(msg)))
		return cmd_error(cmd, "--name: %s", msg);
	ret = parse_routes(cmd, e, val[OPT_ROUTES] ? val[OPT_ROUTES] :
			   "ecmp-cw,fc,edst");
	if (ret)
		return ret;
	e->duration_s = val[OPT_DURATION] ? num[OPT_DURATION] : 20;
	e->interval_ms = val[OPT_INTERVAL] ? num[OPT_INTERVAL] : 500;
	e->quiet_ms = val[OPT_QUIET] ? num[OPT_QUIET] : 2000;
	e->frame = val[OPT_FRAME] ? num[OPT_FRAME] : 1442;
	/*
	 * The paper's XOFF/XON (50 KB / 47 KB at 50 Gbit/s) cannot scale
	 * with the rate to 1 Mbit/s (a byte); low thresholds are the point
	 * ("misconfigured" switches), and at 20 KB / 17 KB - the same 3 KB
	 * between them - the ring locked in every run measured (docs/experiment-deadlock.md).
	 */
	e->xoff = val[OPT_XOFF] ? num[OPT_XOFF] : 20480;
	e->xon = val[OPT_XON] ? num[OPT_XON] : 17408;
	e->headroom = num[OPT_HEADROOM];
	e->hosts_per_switch = val[OPT_HOSTS] ? (int)num[OPT_HOSTS] :
			      SLUICE_FABRIC_HOSTS_DEFAULT;
	if (e->xon > e->xoff)
		return cmd_error(cmd, "--xon %u is above --xoff %u",
				 e->xon, e->xoff);
	if ((uint64_t)e->duration_s * 1000 / e->interval_ms > SAMPLES_MAX)
		return cmd_error(cmd, "--duration / --interval: more than %d samples",
				 SAMPLES_MAX);
	if (e->duration_s * 1000ull < e->interval_ms)
		return cmd_error(cmd, "--interval is longer than --duration");
	e->rate = val[OPT_RATE] ? num[OPT_RATE] : 1000000;
	/*
	 * Greedy senders, as the paper's ib_write_bw without congestion
	 * control: offered at twice the link rate, a host always has a
	 * frame ready and its shaped NIC, paused or not, sets the pace.
	 */
	e->send_rate = val[OPT_SEND_RATE] ? num[OPT_SEND_RATE] : 2 * e->rate;
	if (!val[OPT_HEADROOM]) {
		if (exp_derive_headroom(e->rate, &e->headroom))
			return cmd_error(cmd, "--rate %s: too fast for a derived headroom, give --headroom",
					 sluice_format_rate(e->rate, r,
							    sizeof(r)));
		e->headroom_derived = true;
	}
	if ((val[OPT_DETECT] || val[OPT_RESTORE]) && !val[OPT_WATCHDOG])
		return cmd_error(cmd, "--detection-time and --restoration-time go with --watchdog ACTION");
	e->wd_action = val[OPT_WATCHDOG];
	/* the qdisc of every port, as tc words */
	snprintf(e->words, sizeof(e->words),
		 "rate %s pfc %d xoff %u xon %u headroom %u",
		 sluice_format_rate(e->rate, r, sizeof(r)), LOSSLESS, e->xoff,
		 e->xon, e->headroom);
	if (e->wd_action) {
		size_t at = strlen(e->words);

		at += snprintf(e->words + at, sizeof(e->words) - at,
			       " watchdog %d watchdog-action %s", LOSSLESS,
			       e->wd_action);
		if (val[OPT_DETECT])
			at += snprintf(e->words + at, sizeof(e->words) - at,
				       " detection-time %llums",
				       (unsigned long long)num[OPT_DETECT]);
		if (val[OPT_RESTORE])
			snprintf(e->words + at, sizeof(e->words) - at,
				 " restoration-time %llums",
				 (unsigned long long)num[OPT_RESTORE]);
	}
	e->verbose = val[OPT_VERBOSE] || cli_progress_wanted();
	return 0;
}

/* The topology into @g: --topo FILE, or FC's testbed built in. */
static int load_topology_into(struct exp *e, struct sluice_graph *g)
{
	char err[SLUICE_ERRLEN], *real;

	if (e->val[OPT_TOPO]) {
		if (load_topo(e->val[OPT_TOPO], g))
			return EXIT_RUNTIME;
		real = realpath(e->val[OPT_TOPO], NULL);
		snprintf(e->topo_name, sizeof(e->topo_name), "%s",
			 real ? real : e->val[OPT_TOPO]);
		free(real);
		return 0;
	}
	if (sluice_topo_fc_testbed(g, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	snprintf(e->topo_name, sizeof(e->topo_name), "fc-testbed");
	return 0;
}

/* Each set's routes and their CBD check. */
static int compute(struct exp *e)
{
	struct sluice_compute_opts co = { .threads = 1 };
	char err[SLUICE_ERRLEN];
	struct set *s;
	uint32_t i;

	for (i = 0; i < e->sets.n; i++) {
		struct sluice_route_opts o = { .algo = e->sets.s[i].algo };

		s = &e->sets.s[i];
		if (sluice_routes_compute(&e->g, &o, &co, &s->r, err,
					  sizeof(err)) ||
		    sluice_cbd_check(&e->g, &s->r, &s->cbd, err, sizeof(err))) {
			fprintf(stderr, "sluicectl: %s routes: %s\n",
				sluice_route_algo_name(s->algo), err);
			return EXIT_RUNTIME;
		}
	}
	return 0;
}

/* "s4 -> s1 -> s2 -> s3 -> s4": the CBD check's cycle, by switch. */
static void cbd_text(const struct exp *e, const struct set *s, char *buf,
		     size_t len)
{
	size_t at = 0;
	uint32_t k;

	buf[0] = '\0';
	for (k = 0; k < s->cbd.n_cycle && at < len; k++)
		at += snprintf(buf + at, len - at, "%s%s", k ? " -> " : "",
			       e->g.nodes[s->cbd.cycle[k].from].name);
	if (s->cbd.n_cycle && at < len)
		snprintf(buf + at, len - at, " -> %s",
			 e->g.nodes[s->cbd.cycle[0].from].name);
}

/* The library's messages, as sluicectl's. */
static void exp_say(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "sluicectl: %s\n", line);
}

/*
 * Loads as @o says (its action, messages and state set here): every
 * switch of fabric @o->state its routes, all or nothing, the one loader
 * "route load" goes through (sluice_fabric_routes_load()).  Its warnings
 * are left out: an experiment loads what it means to.  0 or EXIT_RUNTIME
 * (the reason printed).
 */
int exp_load(struct sluice_fabric_load_opts *o)
{
	struct sluice_fabric_load_result res;
	char err[SLUICE_ERRLEN];
	int ret;

	o->action = SLUICE_FABRIC_LOAD;
	o->say = exp_say;
	o->warn = NULL;
	ret = sluice_fabric_routes_load(o, &res, err, sizeof(err));
	sluice_fabric_load_result_free(&res);
	return ret ? EXIT_RUNTIME : 0;
}

/* Every switch of @fs gets its routes of @r, in the fabric's mode. */
int exp_load_routes(struct sluice_fabric_state *fs,
		    const struct sluice_routes *r)
{
	struct sluice_fabric_load_opts o = { .state = fs, .routes = r };

	return exp_load(&o);
}

/*
 * A fabric's switch @u's port statistics (sluice_fabric_switch_stats()):
 * 0, or EXIT_RUNTIME with the reason printed.
 */
int exp_switch_stats(const struct sluice_fabric_state *fs, uint32_t u,
		     struct sluice_port_info **pi, uint32_t *n)
{
	char err[SLUICE_ERRLEN];

	if (!sluice_fabric_switch_stats(&fs->f, u, pi, n, err, sizeof(err)))
		return 0;
	fprintf(stderr, "sluicectl: %s\n", err);
	return EXIT_RUNTIME;
}

/**
 * exp_fabric_up() - bring planned fabric @fs up with qdisc @q
 * @fs:	planned; freed on failure
 * @q:	every port's qdisc
 *
 * sluice_fabric_state_up(): the state saved first, so that "fabric down"
 * finds what a crash leaves; nothing left on failure.
 *
 * Return: 0 or an exit status (printed).
 */
int exp_fabric_up(struct sluice_fabric_state *fs,
		  const struct sluice_fabric_qdisc *q)
{
	char err[SLUICE_ERRLEN];
	int ret;

	ret = sluice_fabric_state_up(fs, q, NULL, err, sizeof(err));
	if (!ret)
		return 0;
	fprintf(stderr, "sluicectl: %s%s%s\n", err,
		ret == -EEXIST ? ": sluicectl fabric down --name " : "",
		ret == -EEXIST ? fs->name : "");
	sluice_fabric_state_free(fs);
	return EXIT_RUNTIME;
}

/* Takes fabric @fs down and removes its state; a failure is printed. */
void exp_fabric_down(const struct sluice_fabric_state *fs)
{
	char err[SLUICE_ERRLEN];

	if (sluice_fabric_state_down(fs, NULL, err, sizeof(err)))
		fprintf(stderr, "sluicectl: %s\n", err);
}

/* The library's progress lines, as -v prints them. */
static void set_say(void *arg, const char *line)
{
	const struct set_ctx *c = arg;

	progress(c->e, "%s: %s", sluice_route_algo_name(c->s->algo), line);
}

/* One route set: a fresh fabric, its routes, the traffic, the counters. */
static int run_set(struct exp *e, struct set *s, bool keep)
{
	struct set_ctx c = { .e = e, .s = s };
	struct sluice_dl_run_opts o = {
		.name = e->name, .topo_path = e->topo_name, .g = &e->g,
		.hosts_per_switch = e->hosts_per_switch,
		.qdisc_args = e->words, .routes = &s->r,
		.udp = {
			.frame = e->frame, .rate = e->send_rate,
			.tos = DSCP << 2, .port = UDP_PORT, .sndbuf = 4096,
		},
		.duration_s = e->duration_s, .interval_ms = e->interval_ms,
		.quiet_ms = e->quiet_ms, .tick = TICK, .prio = LOSSLESS,
		.keep = keep, .stop = &exp_interrupted,
		.say = set_say, .load_say = exp_say, .arg = &c,
	};
	struct sluice_fabric_qdisc q = { 0 };
	char err[SLUICE_ERRLEN];
	int ret;

	ret = qdisc_args_parse(e->words, &q);
	if (ret)
		return ret == EXIT_USAGE ? EXIT_RUNTIME : ret;
	o.q = &q;
	ret = sluice_dl_run(&o, &s->run, err, sizeof(err));
	if (ret) {
		if (err[0])
			fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	e->n_flows = s->run.n_flows;
	e->n_hosts = s->run.n_hosts;
	s->ran = true;
	return 0;
}

/* Whether the set did what its CBD check predicts, and why not. */
static void judge(const struct exp *e, struct set *s)
{
	struct sluice_dl_judge_in in = {
		.run = {
			.rx = s->run.rx, .n = s->run.n,
			.interval_ms = e->interval_ms,
			.quiet_ms = e->quiet_ms, .cycle = s->run.cycle,
		},
		.cbd = !s->cbd.cbd_free,
		.wd_action = e->wd_action,
		.wd_storms = s->run.tot.wd_storms,
		.wd_drops = s->run.tot.wd_drops,
	};
	struct sluice_dl_judge_out out;

	sluice_dl_judge(&in, &out);
	s->v = out.v;
	s->wd_broke = out.wd_broke;
	s->as_predicted = out.as_predicted;
	snprintf(s->why, sizeof(s->why), "%s", out.why);
}

static double mbps(const struct exp *e, uint64_t bytes)
{
	return bytes * 8e-3 / e->interval_ms;
}

static void set_means(const struct exp *e, const struct set *s, double *mean,
		      double *final)
{
	uint32_t quiet = (e->quiet_ms + e->interval_ms - 1) / e->interval_ms;
	uint64_t all = 0, last = 0;
	uint32_t i;

	if (quiet > s->run.n)
		quiet = s->run.n;
	for (i = 0; i < s->run.n; i++) {
		all += s->run.rx[i];
		if (i >= s->run.n - quiet)
			last += s->run.rx[i];
	}
	*mean = s->run.n ? mbps(e, all) / s->run.n : 0;
	*final = quiet ? mbps(e, last) / quiet : 0;
}

static const char *verdict_text(const struct exp *e, const struct set *s)
{
	if (s->wd_broke)
		return "deadlock broken by the watchdog";
	switch (s->v.verdict) {
	case SLUICE_VERDICT_DEADLOCK:
		return e->wd_action ? "deadlock (the watchdog reported it, and it persists)" :
		       "deadlock";
	case SLUICE_VERDICT_STOPPED:
		return "stopped, no wait-for cycle found";
	case SLUICE_VERDICT_RECOVERED:
		return "stopped, then delivered again";
	default:
		return "no deadlock: delivered throughout";
	}
}

static void print_text(const struct exp *e)
{
	char cyc[256], r[SLUICE_RATE_STRLEN], r2[SLUICE_RATE_STRLEN];
	double mean, final;
	const struct set *s;
	uint32_t i, k, n = 0;

	printf("experiment deadlock: %s, %u hosts, %u flows (every host to every host under another switch), UDP DSCP %d (priority %d, lossless)\n",
	       e->topo_name, e->n_hosts, e->n_flows, DSCP, LOSSLESS);
	printf("links %s, each host sends %s in %u-byte frames; xoff %u xon %u headroom %u bytes%s%s%s\n",
	       sluice_format_rate(e->rate, r, sizeof(r)),
	       sluice_format_rate(e->send_rate, r2, sizeof(r2)), e->frame,
	       e->xoff, e->xon, e->headroom,
	       e->headroom_derived ? " (Tagger's eq. 1 at the link rate + 10 ms of catch-up)" : "",
	       e->wd_action ? "; PFC watchdog " : "",
	       e->wd_action ? e->wd_action : "");
	for (k = 0; k < e->sets.n; k++) {
		s = &e->sets.s[k];
		cbd_text(e, s, cyc, sizeof(cyc));
		printf("routes %-8s %s\n", sluice_route_algo_name(s->algo),
		       s->cbd.cbd_free ? "CBD-free: cannot deadlock" :
		       "CBD: can deadlock");
		if (!s->cbd.cbd_free)
			printf("         dependency cycle %s\n", cyc);
		if (s->run.n > n)
			n = s->run.n;
	}
	printf("\nMbit/s delivered (frames on the wire), every %u ms\n%7s",
	       e->interval_ms, "time_s");
	for (k = 0; k < e->sets.n; k++)
		printf(" %9s", sluice_route_algo_name(e->sets.s[k].algo));
	putchar('\n');
	for (i = 0; i < n; i++) {
		printf("%7.1f", (i + 1) * e->interval_ms / 1000.0);
		for (k = 0; k < e->sets.n; k++) {
			s = &e->sets.s[k];
			if (i < s->run.n)
				printf(" %9.3f", mbps(e, s->run.rx[i]));
			else
				printf(" %9s", "-");
		}
		putchar('\n');
	}
	for (k = 0; k < e->sets.n; k++) {
		s = &e->sets.s[k];
		if (!s->ran)
			continue;
		set_means(e, s, &mean, &final);
		printf("\n%s: %s\n", sluice_route_algo_name(s->algo),
		       verdict_text(e, s));
		printf("  mean %.3f Mbit/s, last %.1f s %.3f Mbit/s; flows delivering nothing in the last %.1f s: %u of %u\n",
		       mean, e->quiet_ms / 1000.0, final, e->quiet_ms / 1000.0,
		       s->run.zero_flows, e->n_flows);
		if (s->v.stopped_at >= 0)
			printf("  delivery stopped at %.1f s and never resumed\n",
			       s->v.stopped_at);
		printf("  pfc frames sent %llu received %llu; lossless frames dropped %llu (headroom drops %llu, watchdog drops %llu)\n",
		       (unsigned long long)s->run.tot.pfc_tx,
		       (unsigned long long)s->run.tot.pfc_rx,
		       (unsigned long long)s->run.tot.lossless_drops,
		       (unsigned long long)s->run.tot.headroom_drops,
		       (unsigned long long)s->run.tot.wd_drops);
		if (e->wd_action)
			printf("  watchdog storms %llu restored %llu frames dropped %llu\n",
			       (unsigned long long)s->run.tot.wd_storms,
			       (unsigned long long)s->run.tot.wd_restored,
			       (unsigned long long)s->run.tot.wd_drops);
		printf("  largest lossless ingress account %u bytes at %s (xoff %u, headroom %u); frames the ARP layer discarded unresolved: %lld\n",
		       s->run.tot.ingress_peak,
		       s->run.tot.peak_port[0] ? s->run.tot.peak_port : "-", e->xoff,
		       e->headroom, (long long)s->run.neigh_discards);
		printf("  paused lossless queues holding frames at the end: %u%s%s\n",
		       s->run.tot.paused_with_frames,
		       s->run.tot.paused_with_frames ? ": " : "", s->run.tot.paused);
		printf("  detector: %s\n", s->run.cycle_text);
		printf("  hosts blocked by a full socket (paused) %llu times; machine CPU busy %.0f%%; set-up %.1f s\n",
		       (unsigned long long)s->run.eagain, s->run.cpu_busy * 100,
		       s->run.t_setup);
		if (s->run.cpu_busy > 0.8)
			printf("  the machine's CPUs were %.0f%% busy: the links may not have been the bottleneck\n",
			       s->run.cpu_busy * 100);
		if (s->run.send_errors)
			printf("  send errors %llu (last: %s)\n",
			       (unsigned long long)s->run.send_errors,
			       strerror(s->run.last_errno));
		if (s->as_predicted)
			printf("  as its CBD check predicts\n");
		else
			printf("  NOT as predicted: %s\n", s->why);
	}
}

static json_object *jstr(const char *s)
{
	return json_object_new_string(s);
}

static json_object *set_json(const struct exp *e, const struct set *s)
{
	json_object *o = json_object_new_object(), *arr, *x;
	char cyc[256];
	double mean = 0, final = 0;
	uint32_t i;
	bool ok;

	cbd_text(e, s, cyc, sizeof(cyc));
	if (s->ran)
		set_means(e, s, &mean, &final);
	ok = o && jadd(o, "routes", jstr(sluice_route_algo_name(s->algo))) &&
	     jadd(o, "paths", jnum(s->r.n_paths)) &&
	     jadd(o, "cbd", json_object_new_boolean(!s->cbd.cbd_free)) &&
	     jadd(o, "cbd_cycle", jstr(cyc)) &&
	     jadd(o, "ran", json_object_new_boolean(s->ran));
	if (!ok || !s->ran)
		goto out;
	ok = jadd(o, "verdict", jstr(s->wd_broke ? "broken by watchdog" :
				    sluice_verdict_name(s->v.verdict))) &&
	     jadd(o, "deadlock", json_object_new_boolean(
			s->v.verdict == SLUICE_VERDICT_DEADLOCK)) &&
	     jadd(o, "watchdog_broke", json_object_new_boolean(s->wd_broke)) &&
	     jadd(o, "as_predicted", json_object_new_boolean(s->as_predicted)) &&
	     jadd(o, "why", jstr(s->why)) &&
	     jadd(o, "stopped_at_s", jfixed(s->v.stopped_at)) &&
	     jadd(o, "longest_zero_s",
		  jfixed(s->v.longest_zero * e->interval_ms / 1000.0)) &&
	     jadd(o, "mean_mbps", jfixed(mean)) &&
	     jadd(o, "final_mbps", jfixed(final)) &&
	     jadd(o, "zero_flows", jnum(s->run.zero_flows)) &&
	     jadd(o, "flows", jnum(e->n_flows)) &&
	     jadd(o, "warmup_flows", jnum(s->run.warm)) &&
	     jadd(o, "pfc_tx", jnum(s->run.tot.pfc_tx)) &&
	     jadd(o, "pfc_rx", jnum(s->run.tot.pfc_rx)) &&
	     jadd(o, "lossless_drops", jnum(s->run.tot.lossless_drops)) &&
	     jadd(o, "headroom_drops", jnum(s->run.tot.headroom_drops)) &&
	     jadd(o, "wd_storms", jnum(s->run.tot.wd_storms)) &&
	     jadd(o, "wd_restored", jnum(s->run.tot.wd_restored)) &&
	     jadd(o, "wd_drops", jnum(s->run.tot.wd_drops)) &&
	     jadd(o, "paused_with_frames", jnum(s->run.tot.paused_with_frames)) &&
	     jadd(o, "paused", jstr(s->run.tot.paused)) &&
	     jadd(o, "ingress_peak", jnum(s->run.tot.ingress_peak)) &&
	     jadd(o, "ingress_peak_port", jstr(s->run.tot.peak_port)) &&
	     jadd(o, "neigh_discards",
		  json_object_new_int64(s->run.neigh_discards)) &&
	     jadd(o, "detector", json_object_new_int(s->run.cycle)) &&
	     jadd(o, "detector_text", jstr(s->run.cycle_text)) &&
	     jadd(o, "host_blocked", jnum(s->run.eagain)) &&
	     jadd(o, "send_errors", jnum(s->run.send_errors)) &&
	     jadd(o, "cpu_busy", jfixed(s->run.cpu_busy)) &&
	     jadd(o, "setup_s", jfixed(s->run.t_setup)) &&
	     jadd(o, "samples", arr = json_object_new_array());
	for (i = 0; ok && i < s->run.n; i++) {
		x = json_object_new_object();
		ok = x && !json_object_array_add(arr, x) &&
		     jadd(x, "t", jfixed((i + 1) * e->interval_ms / 1000.0)) &&
		     jadd(x, "mbps", jfixed(mbps(e, s->run.rx[i]))) &&
		     jadd(x, "sent_mbps", jfixed(mbps(e, s->run.tx[i]))) &&
		     jadd(x, "rx_bytes", jnum(s->run.rx[i])) &&
		     jadd(x, "flows_delivering", jnum(s->run.active[i]));
		if (!x)
			break;
	}
out:
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

static int print_json(const struct exp *e, bool all_ok)
{
	json_object *o = json_object_new_object(), *arr;
	uint32_t k;
	bool ok;

	ok = o && jadd(o, "topology", jstr(e->topo_name)) &&
	     jadd(o, "hosts", jnum(e->n_hosts)) &&
	     jadd(o, "flows", jnum(e->n_flows)) &&
	     jadd(o, "rate", jnum(e->rate)) &&
	     jadd(o, "send_rate", jnum(e->send_rate)) &&
	     jadd(o, "frame", jnum(e->frame)) &&
	     jadd(o, "xoff", jnum(e->xoff)) && jadd(o, "xon", jnum(e->xon)) &&
	     jadd(o, "headroom", jnum(e->headroom)) &&
	     jadd(o, "headroom_derived",
		  json_object_new_boolean(e->headroom_derived)) &&
	     jadd(o, "duration_s", jnum(e->duration_s)) &&
	     jadd(o, "interval_ms", jnum(e->interval_ms)) &&
	     jadd(o, "quiet_ms", jnum(e->quiet_ms)) &&
	     jadd(o, "qdisc", jstr(e->words)) &&
	     (e->wd_action ? jadd(o, "watchdog", jstr(e->wd_action)) :
	      !json_object_object_add(o, "watchdog", NULL)) &&
	     jadd(o, "as_predicted", json_object_new_boolean(all_ok)) &&
	     jadd(o, "sets", arr = json_object_new_array());
	for (k = 0; ok && k < e->sets.n; k++) {
		json_object *x = set_json(e, &e->sets.s[k]);

		ok = x && !json_object_array_add(arr, x);
		if (!ok)
			json_object_put(x);
	}
	return jprint(o, ok);
}

static int write_svg(const void *arg, FILE *f)
{
	const struct exp *e = arg;
	struct sluice_svg_series ser[SETS_MAX];
	double *y[SETS_MAX] = { NULL };
	char title[PATH_MAX + 160], rate[SLUICE_RATE_STRLEN];
	struct sluice_svg_plot p = {
		.title = title,
		.x_label = "time (s)",
		.y_label = "delivered (Mbit/s)",
		.x_step = e->interval_ms / 1000.0,
		.series = ser,
	};
	uint32_t k, i;
	int ret = 0;

	snprintf(title, sizeof(title), "%s, %u flows, %s links, PFC xoff %u%s%s",
		 e->topo_name, e->n_flows,
		 sluice_format_rate(e->rate, rate, sizeof(rate)), e->xoff,
		 e->wd_action ? ", watchdog " : "",
		 e->wd_action ? e->wd_action : "");
	for (k = 0; k < e->sets.n && !ret; k++) {
		const struct set *s = &e->sets.s[k];

		if (!s->ran)
			continue;
		y[p.n_series] = calloc(s->run.n ? s->run.n : 1, sizeof(double));
		if (!y[p.n_series]) {
			ret = -ENOMEM;
			break;
		}
		for (i = 0; i < s->run.n; i++)
			y[p.n_series][i] = mbps(e, s->run.rx[i]);
		ser[p.n_series].name = sluice_route_algo_name(s->algo);
		ser[p.n_series].y = y[p.n_series];
		ser[p.n_series].n = s->run.n;
		p.n_series++;
	}
	if (!ret && sluice_svg_write(&p, f))
		ret = -EIO;
	for (k = 0; k < SETS_MAX; k++)
		free(y[k]);
	return ret;
}

static int deadlock_main(const struct command *cmd, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = exp_on_signal }, old_int, old_term;
	bool handlers = false;
	struct sluice_fabric_state old;
	struct exp *e = calloc(1, sizeof(*e));
	bool all_ok = true;
	uint32_t k;
	int ret;

	if (!e) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	ret = parse(cmd, e, argc, argv);
	if (ret) {
		free(e);
		return ret < 0 ? 0 : ret;
	}
	ret = load_topology_into(e, &e->g);
	if (ret)
		goto out_free;
	ret = compute(e);
	if (ret)
		goto out;
	if (!fabric_state_load(e->name, &old, true)) {
		sluice_fabric_state_free(&old);
		fprintf(stderr, "sluicectl: fabric %s is up: take it down first (sluicectl fabric down --name %s) or give another --name\n",
			e->name, e->name);
		ret = EXIT_RUNTIME;
		goto out;
	}
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	handlers = true;
	for (k = 0; k < e->sets.n; k++) {
		ret = run_set(e, &e->sets.s[k], e->val[OPT_KEEP] &&
			      k == e->sets.n - 1);
		if (!ret && exp_interrupted) {
			fputs("sluicectl: interrupted\n", stderr);
			if (e->val[OPT_KEEP] && k == e->sets.n - 1)
				break;
			ret = EXIT_RUNTIME;
		}
		if (ret)
			goto out;
		judge(e, &e->sets.s[k]);
		all_ok &= e->sets.s[k].as_predicted;
	}
	if (e->val[OPT_SVG] && write_out(e->val[OPT_SVG], write_svg, e)) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (e->val[OPT_JSON])
		ret = print_json(e, all_ok);
	else
		print_text(e);
	if (!ret && e->val[OPT_KEEP] && !e->val[OPT_JSON])
		printf("\nfabric %s left up with the %s routes: sluicectl fabric deadlock --name %s; sluicectl fabric down --name %s\n",
		       e->name,
		       sluice_route_algo_name(e->sets.s[e->sets.n - 1].algo),
		       e->name, e->name);
	if (!ret && !all_ok)
		ret = EXIT_UNEXPECTED;
out:
	if (handlers) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	for (k = 0; k < e->sets.n; k++) {
		sluice_routes_free(&e->sets.s[k].r);
		sluice_cbd_result_free(&e->sets.s[k].cbd);
		sluice_dl_run_free(&e->sets.s[k].run);
	}
	sluice_graph_free(&e->g);
out_free:
	free(e);
	return ret;
}
