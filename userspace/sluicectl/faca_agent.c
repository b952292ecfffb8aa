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
#include "opts.h"
#include "sluicectl.h"

enum {
	OPT_SOCKET, OPT_PORT, OPT_SPORTS, OPT_FABRIC, OPT_ROUTES, OPT_PER_PATH,
	OPT_K, OPT_INTERVAL, OPT_TIMEOUT, OPT_LEASE, OPT_TOS, OPT_LOAD,
	OPT_DEMAND, OPT_RECORDS, OPT_SWEEP, OPT_SEED, OPT_HOOK, OPT_DST,
	OPT_QUEUE, OPT_UDP, OPT_VERBOSE, OPT_JSON,
	N_OPTS
};

static const struct opt opts[N_OPTS] = {
	[OPT_SOCKET]	= { "--socket", NULL, true },
	[OPT_PORT]	= { "--port", NULL, true },
	[OPT_SPORTS]	= { "--sports", NULL, true },
	[OPT_FABRIC]	= { "--fabric", NULL, true },
	[OPT_ROUTES]	= { "--routes", NULL, true },
	[OPT_PER_PATH]	= { "--per-path", NULL, true },
	[OPT_K]		= { "--k", NULL, true },
	[OPT_INTERVAL]	= { "--interval", NULL, true },
	[OPT_TIMEOUT]	= { "--timeout", NULL, true },
	[OPT_LEASE]	= { "--lease", NULL, true },
	[OPT_TOS]	= { "--tos", NULL, true },
	[OPT_LOAD]	= { "--load", NULL, true },
	[OPT_DEMAND]	= { "--demand", NULL, true },
	[OPT_RECORDS]	= { "--records", NULL, true },
	[OPT_SWEEP]	= { "--sweep", NULL, true },
	[OPT_SEED]	= { "--seed", NULL, true },
	[OPT_HOOK]	= { "--hook", NULL, false },
	[OPT_DST]	= { "--dst", NULL, true },
	[OPT_QUEUE]	= { "--queue", NULL, true },
	[OPT_UDP]	= { "--udp", NULL, false },
	[OPT_VERBOSE]	= { "--verbose", "-v", false },
	[OPT_JSON]	= { "--json", "-j", false },
};

/* The longest time taken: an hour. */
#define TIME_MAX_NS	3600000000000ull
#define MAX_DSTS	SLUICE_FACA_MAX_DST

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
		      struct sluice_faca_opts *o)
{
	char msg[256];
	__u64 ns;
	__u32 bytes;
	uint64_t v;

	sluice_faca_opts_default(o);
	if (val[OPT_PORT]) {
		if (!opts_number(val[OPT_PORT], 1, 65535, &v))
			return sub_usage_error(cmd, "--port: \"%s\" is not a UDP port (1..65535)",
					       val[OPT_PORT]);
		o->port = v;
	}
	if (val[OPT_SPORTS] &&
	    sluice_faca_ranges_parse(val[OPT_SPORTS], o, msg, sizeof(msg)))
		return sub_usage_error(cmd, "--sports: %s", msg);
	if (!val[OPT_FABRIC] != !val[OPT_ROUTES])
		return sub_usage_error(cmd, "--fabric NAME and --routes FILE go together: the fabric's topology and the routes it holds");
	if (val[OPT_PER_PATH] && (!val[OPT_FABRIC] || val[OPT_SPORTS]))
		return sub_usage_error(cmd, "--per-path goes with --fabric NAME, without --sports: the pool of an exact fabric");
	if (!val[OPT_HOOK] && (val[OPT_DST] || val[OPT_QUEUE] || val[OPT_UDP]))
		return sub_usage_error(cmd, "--dst, --queue and --udp go with --hook");
	if (val[OPT_K] && !parse_k(val[OPT_K], &o->k))
		return sub_usage_error(cmd, "--k: \"%s\" is not a number above 0 (per second)",
				       val[OPT_K]);
	if (val[OPT_INTERVAL]) {
		if (sluice_parse_time(val[OPT_INTERVAL], TIME_MAX_NS, &ns) ||
		    !ns)
			return sub_usage_error(cmd, "--interval: \"%s\" is not a time above 0, up to 1 hour (e.g. 100ms)",
					       val[OPT_INTERVAL]);
		o->interval_ns = ns;
	}
	if (val[OPT_TIMEOUT]) {
		if (sluice_parse_time(val[OPT_TIMEOUT], TIME_MAX_NS, &ns) ||
		    !ns)
			return sub_usage_error(cmd, "--timeout: \"%s\" is not a time above 0, up to 1 hour (e.g. 500ms)",
					       val[OPT_TIMEOUT]);
		o->timeout_ns = ns;
	}
	if (val[OPT_LEASE]) {
		if (sluice_parse_time(val[OPT_LEASE], TIME_MAX_NS, &ns) || !ns)
			return sub_usage_error(cmd, "--lease: \"%s\" is not a time above 0, up to 1 hour (e.g. 10s)",
					       val[OPT_LEASE]);
		o->lease_ns = ns;
	}
	if (val[OPT_TOS]) {
		if (!opts_number(val[OPT_TOS], 0, 255, &v))
			return sub_usage_error(cmd, "--tos: \"%s\" is not a TOS byte (0..255)",
					       val[OPT_TOS]);
		o->tos = v;
	}
	if (val[OPT_LOAD] && sluice_faca_load_parse(val[OPT_LOAD], &o->load))
		return sub_usage_error(cmd, "--load: \"%s\" is not time or bdp",
				       val[OPT_LOAD]);
	if (val[OPT_DEMAND]) {
		if (sluice_parse_size(val[OPT_DEMAND], &bytes) || !bytes)
			return sub_usage_error(cmd, "--demand: \"%s\" is not a size above 0 (e.g. 64k)",
					       val[OPT_DEMAND]);
		o->demand = bytes;
	}
	if (val[OPT_RECORDS]) {
		if (!opts_number(val[OPT_RECORDS], 1, SLUICE_INT_MAX_RECS, &v))
			return sub_usage_error(cmd, "--records: \"%s\" is not a number from 1 to %u",
					       val[OPT_RECORDS],
					       SLUICE_INT_MAX_RECS);
		o->records = v;
	}
	if (val[OPT_SWEEP]) {
		if (!opts_number(val[OPT_SWEEP], 0, 4096, &v))
			return sub_usage_error(cmd, "--sweep: \"%s\" is not a number from 0 to 4096",
					       val[OPT_SWEEP]);
		o->sweep = v;
	}
	if (val[OPT_SEED]) {
		if (!opts_number(val[OPT_SEED], 0, UINT64_MAX, &v))
			return sub_usage_error(cmd, "--seed: \"%s\" is not a whole number",
					       val[OPT_SEED]);
		o->seed = v;
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
		       struct fabric_routes *fr, struct sluice_faca_opts *o)
{
	char err[SLUICE_ERRLEN];
	uint64_t per_path = 8;
	uint32_t node;
	int ret;

	if (val[OPT_PER_PATH] &&
	    !opts_number(val[OPT_PER_PATH], 1, SLUICE_MP_SPORT_WIDTH, &per_path))
		return sub_usage_error(cmd, "--per-path: \"%s\" is not a number from 1 to %d",
				       val[OPT_PER_PATH], SLUICE_MP_SPORT_WIDTH);
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
		return sub_usage_error(cmd, "fabric %s's multipath mode is %s: the pool comes from exact's ranges; give --sports",
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
		    struct sluice_faca_hook_cfg *cfg,
		    struct sluice_faca_prefix *dst)
{
	uint64_t v;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	if (val[OPT_QUEUE]) {
		if (!opts_number(val[OPT_QUEUE], 0, UINT16_MAX, &v))
			return sub_usage_error(cmd, "--queue: \"%s\" is not a queue number (0..65535)",
					       val[OPT_QUEUE]);
		cfg->queue = v;
	}
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
	const char *val[N_OPTS], *dsts[MAX_DSTS];
	struct sluice_faca_prefix prefixes[SLUICE_FACA_HOOK_MAX_DST];
	struct sluice_faca_serve s = { .stop = &stopping };
	struct fabric_routes fr = { 0 };
	struct sluice_faca_hook_cfg hook;
	struct sluice_faca_opts o;
	struct sluice_faca a;
	struct timespec t0;
	char msg[256], err[256];
	int n_dsts, ret, i;
	uint32_t addr = 0;

	ret = opts_parse(argc, argv, opts, N_OPTS,
			 OPT_BIT(N_OPTS) - 1 - OPT_BIT(OPT_JSON), val, dsts,
			 MAX_DSTS, &n_dsts, msg, sizeof(msg));
	if (ret > 0)
		return sub_help(cmd);
	if (ret)
		return sub_usage_error(cmd, "%s", msg);
	ret = agent_opts(cmd, val, &o);
	if (!ret && val[OPT_HOOK])
		ret = hook_cfg(cmd, val, &hook, prefixes);
	for (i = 0; !ret && i < n_dsts; i++)
		if (!parse_addr(dsts[i], &addr))
			ret = sub_usage_error(cmd, "\"%s\" is not an IPv4 address",
					      dsts[i]);
	if (!ret && val[OPT_FABRIC])
		ret = fabric_load(cmd, val, &fr, &o);
	if (ret) {
		fabric_routes_free(&fr);
		return ret;
	}
	if (sluice_faca_init(&a, &o, err, sizeof(err))) {
		fabric_routes_free(&fr);
		return sub_usage_error(cmd, "%s", err);
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
			ret = sub_usage_error(cmd, "%s: %s", dsts[i],
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
	const char *val[N_OPTS];
	char msg[256], *text;
	json_object *t;
	int ret, n;

	ret = opts_parse(argc, argv, opts, N_OPTS,
			 OPT_BIT(OPT_SOCKET) | OPT_BIT(OPT_JSON), val, NULL, 0,
			 &n, msg, sizeof(msg));
	if (ret > 0)
		return sub_help(cmd);
	if (ret)
		return sub_usage_error(cmd, "%s", msg);
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
	const char *val[N_OPTS], *dst[1];
	char msg[256];
	uint16_t sport;
	uint32_t addr;
	__u64 lease = 0;
	json_object *o;
	int ret, n;

	ret = opts_parse(argc, argv, opts, N_OPTS,
			 OPT_BIT(OPT_SOCKET) | OPT_BIT(OPT_LEASE) |
			 OPT_BIT(OPT_JSON), val, dst, 1, &n, msg, sizeof(msg));
	if (ret > 0)
		return sub_help(cmd);
	if (ret)
		return sub_usage_error(cmd, "%s", msg);
	if (n != 1)
		return sub_usage_error(cmd, "DST: the destination's IPv4 address");
	if (!parse_addr(dst[0], &addr))
		return sub_usage_error(cmd, "\"%s\" is not an IPv4 address",
				       dst[0]);
	if (val[OPT_LEASE] &&
	    (sluice_parse_time(val[OPT_LEASE], TIME_MAX_NS, &lease) ||
	     lease < 1000000))
		return sub_usage_error(cmd, "--lease: \"%s\" is not a time from 1ms to 1 hour (e.g. 10s)",
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
