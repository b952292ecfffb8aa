// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl faca { agent | show | sport }: FaCa's host agent
 * (sluice/faca.h) run as a daemon, its table printed, and a source port
 * asked for as an application would (their usage in faca.h, the group's
 * table in faca.c).
 *
 *   faca agent [--socket PATH] [--port PORT] [--sports A-B[,C-D...]]
 *              [--fabric NAME --routes FILE [--per-path N]] [--k K]
 *              [--interval TIME] [--timeout TIME] [--lease TIME]
 *              [--tos TOS] [--load { time | bdp }] [--demand BYTES]
 *              [--records N] [--sweep N] [--seed N]
 *              [--hook [--dst PREFIX[,PREFIX...]] [--queue N] [--udp]]
 *              [-v] [DST...]
 *   faca show  [--socket PATH] [-j]
 *   faca sport DST [--socket PATH] [--lease TIME] [-j]
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/random.h>
#include <sluice/faca.h>
#include <sluice/faca_hook.h>
#include <sluice/fabric_state.h>
#include <sluice/multipath.h>
#include <sluice/portfc.h>
#include <sluice/rate.h>
#include <sluice/size.h>
#include "cmd_faca.h"
#include "jout.h"
#include "load.h"
#include "args.h"
#include "sluicectl.h"

enum {
	OPT_SOCKET, OPT_PORT, OPT_SPORTS, OPT_FABRIC, OPT_ROUTES, OPT_PER_PATH,
	OPT_K, OPT_INTERVAL, OPT_TIMEOUT, OPT_LEASE, OPT_TOS, OPT_LOAD,
	OPT_DEMAND, OPT_RECORDS, OPT_SWEEP, OPT_SEED, OPT_HOOK, OPT_DST,
	OPT_QUEUE, OPT_UDP, OPT_VERBOSE, OPT_JSON,
	N_OPTS
};

/* The longest time taken: an hour. */
#define TIME_MAX_NS	3600000000000ull
#define MAX_DSTS	SLUICE_FACA_MAX_DST

static const struct arg_opt opts[N_OPTS] = {
	[OPT_SOCKET]	= ARG_P("--socket", 0, "PATH",
				"the agent's socket, default this namespace's"),
	[OPT_PORT]	= ARG_N("--port", 0, "PORT", 1, 65535,
				"the probes' UDP port, default 7771"),
	[OPT_SPORTS]	= ARG_S("--sports", 0, "A-B[,C-D...]",
				"the source ports to probe from and lease, default 20000-20063"),
	[OPT_FABRIC]	= ARG_S("--fabric", 0, "NAME",
				"with --routes: name each path by the fabric's route it matches"),
	[OPT_ROUTES]	= ARG_P("--routes", 0, "FILE", "with --fabric: the routes it holds"),
	[OPT_PER_PATH]	= ARG_N("--per-path", 0, "N", 1, SLUICE_MP_SPORT_WIDTH,
				"an exact fabric without --sports: ports of each path's range, default 8"),
	[OPT_K]		= ARG_S("--k", 0, "K",
				"Flowing&Jumping's rate of decisions, per second (above 0)"),
	[OPT_INTERVAL]	= ARG_NS("--interval", 1, TIME_MAX_NS,
				 "between probes, default 100ms"),
	[OPT_TIMEOUT]	= ARG_NS("--timeout", 1, TIME_MAX_NS,
				 "a probe's wait for its echo"),
	[OPT_LEASE]	= ARG_NS("--lease", 1, TIME_MAX_NS, "how long a port is leased"),
	[OPT_TOS]	= ARG_N("--tos", 0, "TOS", 0, 255, "the probes' IP TOS byte"),
	[OPT_LOAD]	= ARG_S("--load", 0, "{ time | bdp }", "how a path's load E is counted"),
	[OPT_DEMAND]	= ARG_Z("--demand", "BYTES", 1, UINT32_MAX,
				"a flow's demand when it does not say"),
	[OPT_RECORDS]	= ARG_N("--records", 0, "N", 1, SLUICE_INT_MAX_RECS,
				"room for N records in a probe"),
	[OPT_SWEEP]	= ARG_N("--sweep", 0, "N", 0, 4096,
				"source ports probed per sweep"),
	[OPT_SEED]	= ARG_N("--seed", 0, "N", 0, UINT64_MAX,
				"the seed of Flowing&Jumping's choices, default random"),
	[OPT_HOOK]	= ARG_F("--hook", 0,
				"give ports to programs that do not ask, by netfilter and NAT"),
	[OPT_DST]	= ARG_S("--dst", 0, "PREFIX[,PREFIX...]",
				"with --hook: only flows to these IPv4 prefixes"),
	[OPT_QUEUE]	= ARG_N("--queue", 0, "N", 0, UINT16_MAX,
				"with --hook: the NFQUEUE number, default 0"),
	[OPT_UDP]	= ARG_F("--udp", 0, "with --hook: UDP flows too"),
	[OPT_VERBOSE]	= ARG_F("--verbose", 'v', "log what the agent does, on stderr"),
	[OPT_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
};

static const struct args_spec agent_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = MAX_DSTS,
	.operands = "DST..., IPv4 addresses to probe from the start",
	.pick = ARGS_PICK(OPT_SOCKET, OPT_PORT, OPT_SPORTS, OPT_FABRIC,
			  OPT_ROUTES, OPT_PER_PATH, OPT_K, OPT_INTERVAL,
			  OPT_TIMEOUT, OPT_LEASE, OPT_TOS, OPT_LOAD, OPT_DEMAND,
			  OPT_RECORDS, OPT_SWEEP, OPT_SEED, OPT_HOOK, OPT_DST,
			  OPT_QUEUE, OPT_UDP, OPT_VERBOSE),
};
static const struct args_spec show_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 0,
	.pick = ARGS_PICK(OPT_SOCKET, OPT_JSON),
};
static const struct args_spec sport_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 1,
	.operands = "DST, the destination's IPv4 address",
	.pick = ARGS_PICK(OPT_SOCKET, OPT_LEASE, OPT_JSON),
};


static bool parse_addr(const char *s, uint32_t *addr)
{
	struct in_addr in;

	if (inet_pton(AF_INET, s, &in) != 1)
		return false;
	*addr = in.s_addr;
	return true;
}

static bool parse_k(const char *s, double *k)
{
	char *end;

	errno = 0;
	*k = strtod(s, &end);
	return s[0] && !*end && !errno && isfinite(*k) && *k > 0 && *k <= 1e6;
}

/* The agent's options, each checked; usage errors are printed. */
static int agent_opts(const struct command *cmd, const char **val,
		      const uint64_t *num, struct sluice_faca_opts *o)
{
	char msg[256];

	sluice_faca_opts_default(o);
	if (val[OPT_PORT])
		o->port = num[OPT_PORT];
	if (val[OPT_SPORTS] &&
	    sluice_faca_ranges_parse(val[OPT_SPORTS], o, msg, sizeof(msg)))
		return cmd_error(cmd, "--sports: %s", msg);
	if (!val[OPT_FABRIC] != !val[OPT_ROUTES])
		return cmd_error(cmd, "--fabric NAME and --routes FILE go together: the fabric's topology and the routes it holds");
	if (val[OPT_PER_PATH] && (!val[OPT_FABRIC] || val[OPT_SPORTS]))
		return cmd_error(cmd, "--per-path goes with --fabric NAME, without --sports: the pool of an exact fabric");
	if (!val[OPT_HOOK] && (val[OPT_DST] || val[OPT_QUEUE] || val[OPT_UDP]))
		return cmd_error(cmd, "--dst, --queue and --udp go with --hook");
	if (val[OPT_K] && !parse_k(val[OPT_K], &o->k))
		return cmd_error(cmd, "--k: \"%s\" is not a number above 0 (per second)",
				       val[OPT_K]);
	if (val[OPT_INTERVAL])
		o->interval_ns = num[OPT_INTERVAL];
	if (val[OPT_TIMEOUT])
		o->timeout_ns = num[OPT_TIMEOUT];
	if (val[OPT_LEASE])
		o->lease_ns = num[OPT_LEASE];
	if (val[OPT_TOS])
		o->tos = num[OPT_TOS];
	if (val[OPT_LOAD] && sluice_faca_load_parse(val[OPT_LOAD], &o->load))
		return cmd_error(cmd, "--load: \"%s\" is not time or bdp",
				 val[OPT_LOAD]);
	if (val[OPT_DEMAND])
		o->demand = num[OPT_DEMAND];
	if (val[OPT_RECORDS])
		o->records = num[OPT_RECORDS];
	if (val[OPT_SWEEP])
		o->sweep = num[OPT_SWEEP];
	if (val[OPT_SEED]) {
		o->seed = num[OPT_SEED];
	} else if (getrandom(&o->seed, sizeof(o->seed), 0) !=
		   sizeof(o->seed)) {
		/*
		 * Hosts must not draw alike: Flowing&Jumping's randomness is
		 * what keeps agents deciding at once apart (Section 5.5).
		 */
		o->seed = (uint64_t)time(NULL) << 20 ^ (uint64_t)getpid();
	}
	return 0;
}

/* What --fabric NAME --routes FILE load, kept while the agent runs. */
struct fabric_routes {
	struct sluice_fabric_state	*st;
	struct sluice_routes		r;
};

static void fabric_routes_free(struct fabric_routes *fr)
{
	sluice_routes_free(&fr->r);
	if (fr->st)
		sluice_fabric_state_free(fr->st);
	free(fr->st);
}

/*
 * The fabric's topology and routes, which name the paths; without
 * --sports, on a fabric in multipath mode exact, the pool too: --per-path
 * ports (default 8) of each path's range from this host's switch.
 */
static int fabric_load(const struct command *cmd, const char **val,
		       const uint64_t *num, struct fabric_routes *fr,
		       struct sluice_faca_opts *o)
{
	uint64_t per_path = val[OPT_PER_PATH] ? num[OPT_PER_PATH] : 8;
	char err[SLUICE_ERRLEN];
	uint32_t node;
	int ret;

	fr->st = calloc(1, sizeof(*fr->st));
	if (!fr->st) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	ret = sluice_fabric_state_read(val[OPT_FABRIC], fr->st, err,
				       sizeof(err));
	if (ret) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	if (!val[OPT_SPORTS] && fr->st->multipath != SLUICE_MP_EXACT)
		return cmd_error(cmd, "fabric %s's multipath mode is %s: the pool comes from exact's ranges; give --sports",
				       val[OPT_FABRIC],
				       sluice_multipath_name(fr->st->multipath));
	if (load_routes(val[OPT_ROUTES], &fr->st->g, &fr->r))
		return EXIT_RUNTIME;
	if (val[OPT_SPORTS])
		return 0;
	ret = sluice_faca_fabric_node(&fr->st->f, &node, err, sizeof(err));
	if (!ret)
		ret = sluice_faca_exact_pool(&fr->r, node, per_path, o, err,
					     sizeof(err));
	if (ret)
		fprintf(stderr, "sluicectl: %s\n", err);
	return ret ? EXIT_RUNTIME : 0;
}

/* --hook's settings: the queue, UDP, the destinations it queues. */
static int hook_cfg(const struct command *cmd, const char **val,
		    const uint64_t *num, struct sluice_faca_hook_cfg *cfg,
		    struct sluice_faca_prefix *dst)
{
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	cfg->queue = num[OPT_QUEUE];
	cfg->udp = val[OPT_UDP];
	cfg->dst = dst;
	if (val[OPT_DST]) {
		ret = faca_parse_dst(cmd, val[OPT_DST], dst, &cfg->n_dst);
		if (ret)
			return ret;
	}
	return 0;
}

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static void agent_log(void *arg, const char *line)
{
	const struct timespec *t0 = arg;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	fprintf(stderr, "faca %.3f: %s\n", (double)(now.tv_sec - t0->tv_sec) +
		(now.tv_nsec - t0->tv_nsec) / 1e9, line);
}

int faca_agent_main(const struct command *cmd, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	const char **val, **dsts;
	struct sluice_faca_prefix prefixes[SLUICE_FACA_HOOK_MAX_DST];
	struct sluice_faca_serve s = { .stop = &stopping };
	struct fabric_routes fr = { 0 };
	struct sluice_faca_hook_cfg hook;
	struct sluice_faca_opts o;
	struct sluice_faca a;
	struct timespec t0;
	char err[256];
	int n_dsts, ret, i;
	uint32_t addr = 0;
	ARGS_DECLARE(args, N_OPTS);

	if (args_parse(cmd, &agent_spec, argc, argv, &args))
		return args.exit;
	val = args.val;
	dsts = (const char **)args.operands;
	n_dsts = args.n_operands;
	ret = agent_opts(cmd, val, args.num, &o);
	if (!ret && val[OPT_HOOK])
		ret = hook_cfg(cmd, val, args.num, &hook, prefixes);
	for (i = 0; !ret && i < n_dsts; i++)
		if (!parse_addr(dsts[i], &addr))
			ret = cmd_error(cmd, "\"%s\" is not an IPv4 address",
					      dsts[i]);
	if (!ret && val[OPT_FABRIC])
		ret = fabric_load(cmd, val, args.num, &fr, &o);
	if (ret) {
		fabric_routes_free(&fr);
		return ret;
	}
	if (sluice_faca_init(&a, &o, err, sizeof(err))) {
		fabric_routes_free(&fr);
		return cmd_error(cmd, "%s", err);
	}
	ret = fr.st ? sluice_faca_routes(&a, &fr.st->g, &fr.r, err, sizeof(err)) : 0;
	if (ret) {
		fprintf(stderr, "sluicectl: %s: %s\n", val[OPT_ROUTES], err);
		ret = EXIT_RUNTIME;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; !ret && i < n_dsts; i++) {
		parse_addr(dsts[i], &addr);
		ret = sluice_faca_dst_add(&a, addr, 0);
		if (ret < 0)
			ret = cmd_error(cmd, "%s: %s", dsts[i],
					      ret == -EINVAL ? "not a unicast address" :
					      strerror(-ret));
		else
			ret = 0;
	}
	if (ret) {
		sluice_faca_free(&a);
		fabric_routes_free(&fr);
		return ret;
	}
	s.socket = val[OPT_SOCKET];
	s.hook = val[OPT_HOOK] ? &hook : NULL;
	if (val[OPT_VERBOSE]) {
		s.log = agent_log;
		s.log_arg = &t0;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = sluice_faca_serve(&a, &s, err, sizeof(err));
	sluice_faca_free(&a);
	fabric_routes_free(&fr);
	if (ret) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	return 0;
}

static double jdouble(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && v ?
	       json_object_get_double(v) : -1;
}

static json_object *jget(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static const char *rate_str(double bps, char *buf, size_t len)
{
	if (bps <= 0)
		return "-";
	return sluice_format_rate((__u64)llround(bps), buf, len);
}

/* " = leaf0 spine0 leaf1 (route 1)": the route a path matched, if any. */
static void print_route(json_object *route)
{
	json_object *nodes = jget(route, "nodes");
	size_t i, n = nodes ? json_object_array_length(nodes) : 0;

	if (!route)
		return;
	printf(" =");
	for (i = 0; i < n; i++)
		printf(" %s", json_object_get_string(json_object_array_get_idx(nodes, i)));
	printf(" (route %.0f)", jdouble(route, "index"));
}

/* A lease: its port, and the flow the hook placed on it. */
static void print_lease(json_object *l, const char *dst)
{
	json_object *f = jget(l, "flow");

	printf(" %.0f (%.1f s left", jdouble(l, "sport"), jdouble(l, "left"));
	if (f)
		printf(": %s %s:%.0f -> %s:%.0f",
		       json_object_get_string(jget(f, "proto")),
		       json_object_get_string(jget(f, "saddr")),
		       jdouble(f, "sport"), dst, jdouble(f, "dport"));
	putchar(')');
}

static void print_path(json_object *p, bool bdp, const char *dst)
{
	char r1[SLUICE_RATE_STRLEN], r2[SLUICE_RATE_STRLEN];
	json_object *hops = jget(p, "hops"), *l;
	size_t i, n;
	double u = jdouble(p, "util");

	printf("  path %d", (int)jdouble(p, "index"));
	print_route(jget(p, "route"));
	printf(": B %s util %s%.2f avail %s D %.3f ms rtt %.3f ms",
	       rate_str(jdouble(p, "B"), r1, sizeof(r1)),
	       u < 0 ? "-" : "", u < 0 ? 0 : u,
	       rate_str(jdouble(p, "avail"), r2, sizeof(r2)),
	       jdouble(p, "D") * 1e3, jdouble(p, "rtt") * 1e3);
	if (bdp)
		printf(" beta %.0f bit E %.0f bit", jdouble(p, "beta"),
		       jdouble(p, "E"));
	else
		printf(" beta %.4f s E %.4f s", jdouble(p, "beta"),
		       jdouble(p, "E"));
	printf(" (%.1f s ago, %.0f probes, %.0f placed)\n", jdouble(p, "age"),
	       jdouble(p, "probes"), jdouble(p, "placed"));
	printf("    records:");
	n = hops ? json_object_array_length(hops) : 0;
	for (i = 0; i < n; i++) {
		l = json_object_array_get_idx(hops, i);
		printf(" %.0f/%.0f/%.0f", jdouble(l, "node"),
		       jdouble(l, "ifindex"), jdouble(l, "link"));
	}
	printf("\n    ports:");
	l = jget(p, "sports");
	n = l ? json_object_array_length(l) : 0;
	for (i = 0; i < n; i++)
		printf(" %d", json_object_get_int(json_object_array_get_idx(l, i)));
	l = jget(p, "leases");
	n = l ? json_object_array_length(l) : 0;
	if (n)
		printf("\n    leased:");
	for (i = 0; i < n; i++)
		print_lease(json_object_array_get_idx(l, i), dst);
	putchar('\n');
}

/* The hook's settings and counters, when the agent runs it. */
static void print_hook(json_object *h)
{
	json_object *dst = jget(h, "dst");
	size_t i, n = dst ? json_object_array_length(dst) : 0;

	printf("hook on NFQUEUE %.0f: new %s flows to ", jdouble(h, "queue"),
	       json_object_get_boolean(jget(h, "udp")) ? "TCP and UDP" : "TCP");
	for (i = 0; i < n; i++)
		printf("%s%s", i ? "," : "",
		       json_object_get_string(json_object_array_get_idx(dst, i)));
	printf("%s: %.0f queued, %.0f rewritten, %.0f kept their port (%.0f of the pool, %.0f refused, %.0f failed), %.0f waited for a first round, %.0f waiting\n",
	       n ? "" : "any destination", jdouble(h, "queued"),
	       jdouble(h, "rewritten"),
	       jdouble(h, "kept") + jdouble(h, "refused") + jdouble(h, "failed"),
	       jdouble(h, "kept"), jdouble(h, "refused"), jdouble(h, "failed"),
	       jdouble(h, "deferred"), jdouble(h, "waiting"));
}

static void print_table(json_object *t)
{
	json_object *dsts = jget(t, "destinations"), *d, *paths, *none;
	const char *load = json_object_get_string(jget(t, "load"));
	size_t i, k, n = dsts ? json_object_array_length(dsts) : 0;
	bool bdp = load && !strcmp(load, "bdp");

	printf("load %s k %g demand %.0f bytes ports %s probe port %.0f tos %.0f interval %g s lease %g s\n",
	       load ? load : "?", jdouble(t, "k"), jdouble(t, "demand"),
	       json_object_get_string(jget(t, "sports")),
	       jdouble(t, "port"), jdouble(t, "tos"),
	       jdouble(t, "interval"), jdouble(t, "lease"));
	if (jget(t, "hook"))
		print_hook(jget(t, "hook"));
	for (i = 0; i < n; i++) {
		d = json_object_array_get_idx(dsts, i);
		paths = jget(d, "paths");
		none = jget(d, "unmapped");
		printf("%s: %zu path%s, %.0f flows placed, %zu ports without a path\n",
		       json_object_get_string(jget(d, "addr")),
		       paths ? json_object_array_length(paths) : 0,
		       paths && json_object_array_length(paths) == 1 ? "" : "s",
		       jdouble(d, "placed"),
		       none ? json_object_array_length(none) : 0);
		for (k = 0; paths && k < json_object_array_length(paths); k++)
			print_path(json_object_array_get_idx(paths, k), bdp,
				   json_object_get_string(jget(d, "addr")));
	}
}

int faca_show_main(const struct command *cmd, int argc, char **argv)
{
	char msg[256], *text;
	const char **val;
	json_object *t;
	int ret;
	ARGS_DECLARE(args, N_OPTS);

	if (args_parse(cmd, &show_spec, argc, argv, &args))
		return args.exit;
	val = args.val;
	ret = sluice_faca_show(val[OPT_SOCKET], &text, msg, sizeof(msg));
	if (ret) {
		fprintf(stderr, "sluicectl: %s\n", msg);
		return EXIT_RUNTIME;
	}
	t = json_tokener_parse(text);
	if (!t) {
		fprintf(stderr, "sluicectl: the agent's table is not JSON\n");
		free(text);
		return EXIT_RUNTIME;
	}
	free(text);
	if (val[OPT_JSON])
		return jprint(t, true);
	print_table(t);
	json_object_put(t);
	return 0;
}

int faca_sport_main(const struct command *cmd, int argc, char **argv)
{
	const char **val, **dst;
	char msg[256];
	uint16_t sport;
	uint32_t addr;
	__u64 lease;
	json_object *o;
	int ret, n;
	ARGS_DECLARE(args, N_OPTS);

	if (args_parse(cmd, &sport_spec, argc, argv, &args))
		return args.exit;
	val = args.val;
	dst = (const char **)args.operands;
	n = args.n_operands;
	lease = args.num[OPT_LEASE];
	if (n != 1)
		return cmd_error(cmd, "DST: the destination's IPv4 address");
	if (!parse_addr(dst[0], &addr))
		return cmd_error(cmd, "\"%s\" is not an IPv4 address",
				       dst[0]);
	if (val[OPT_LEASE] && lease < 1000000)
		return cmd_error(cmd, "--lease: \"%s\" is not a time from 1ms to 3600s",
				 val[OPT_LEASE]);
	ret = sluice_faca_sport(val[OPT_SOCKET], addr, lease / 1000000, &sport,
				msg, sizeof(msg));
	if (ret) {
		fprintf(stderr, "sluicectl: %s\n", msg);
		return EXIT_RUNTIME;
	}
	if (!val[OPT_JSON]) {
		printf("%u\n", sport);
		return 0;
	}
	o = json_object_new_object();
	return jprint(o, o && jadd(o, "dst", json_object_new_string(dst[0])) &&
		      jadd(o, "sport", jnum(sport)));
}
