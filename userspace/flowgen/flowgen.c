// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluice-flowgen: a workload of TCP flows over a fabric's hosts, one
 * connection per flow, and the completion time of every flow, in HPCC's
 * fct.txt format.  The library does the work (sluice/flowgen.h,
 * sluice/tcpgen.h); this file parses, runs and prints.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sluice/experiment.h>
#include <sluice/fabric_state.h>
#include <sluice/file.h>
#include <sluice/flowgen.h>
#include <sluice/rate.h>
#include <sluice/tcpgen.h>

#define PROG		"sluice-flowgen"
#define EXIT_RUNTIME	1
#define EXIT_USAGE	2
#define PROBE_TRIES	3
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char usage_text[] =
"usage: " PROG " { --fabric NAME | --hosts ADDR[@NETNS],... | --loopback N }\n"
"                      [--workload bolt|websearch|hadoop|pairs | --cdf FILE]\n"
"                      [--rate RATE] [--load F] [--duration S] [--seed N]\n"
"                      [--scale F] [--fan-in N] [--incast-rate R]\n"
"                      [--cc ALGO] [--tos DSCP | --lanes L] [--rtt S]\n"
"                      [--faca[=SOCKET] | --sports A-B]\n"
"                      [--mtu BYTES] [--timeout S] [--drain S] [--port N]\n"
"                      [--max-open N] [-o FILE [--hpcc]] [-j FILE]\n"
"                      [--progress | --no-progress]\n"
"\n"
"Runs a workload of TCP flows between hosts, one new connection per flow\n"
"(a persistent one would hide the first window), and writes each flow's\n"
"size, start, completion time (FCT) and FCT alone, as HPCC's fct.txt.\n"
"\n"
"Hosts (one of):\n"
"  --fabric NAME       every host of fabric NAME (sluicectl fabric up), in\n"
"                      its namespace; the rate defaults to the fabric's\n"
"  --hosts LIST        ADDR@NETNS or ADDR (this namespace), comma-separated\n"
"  --loopback N        N hosts 127.0.0.1..N in this namespace: no root\n"
"\n"
"Workload:\n"
"  --workload W        bolt (default): TCP-Bolt's (INFOCOM 2014, IV-A-3):\n"
"                      Poisson incasts at every host, each asking --fan-in\n"
"                      other hosts (10) for 2, 4 or 8 KB, plus background\n"
"                      flows of 64 KB to 32 MB (log-uniform) at --load of\n"
"                      the link (0.5: one such flow per host on average);\n"
"                      websearch, hadoop: Poisson flows at --load of the\n"
"                      link, sizes from DCTCP's web search or Facebook's\n"
"                      Hadoop mix (HPCC's tables), destinations uniform\n"
"                      pairs: FaCa's IP pairs, host i keeps one long-lived\n"
"                      flow to host i + N/2 (N hosts) for the --duration;\n"
"                      each flow's delivered rate is reported, not FCTs\n"
"  --cdf FILE          sizes from FILE, HPCC's CDF format (\"SIZE PERCENT\"\n"
"                      per line, from 0 to 100), arrivals as websearch's\n"
"  --rate RATE         a host's link (tc units: 10mbit, 1gbit); sets the\n"
"                      arrival rates and the FCT alone\n"
"  --load F            of the link, in (0, 1): bolt's background (0.5),\n"
"                      websearch's, hadoop's and --cdf's flows (0.5)\n"
"  --duration S        flows start within S seconds (default 1)\n"
"  --seed N            the plan's seed (default 1): same seed, same flows\n"
"  --scale F           every size times F (default 1), for slow links\n"
"  --fan-in N          bolt: responders per incast (default 10, or every\n"
"                      other host if fewer)\n"
"  --incast-rate R     bolt: incasts per host and second (default 200 at\n"
"                      10 Gbit/s, in proportion to --rate, over --scale)\n"
"\n"
"Flows:\n"
"  --cc ALGO           congestion control (TCP_CONGESTION) of every flow\n"
"  --tos DSCP          DSCP of every flow (0-63, default 0)\n"
"  --lanes L           a random lane per flow, DSCP = lane in 0..L-1\n"
"  --timeout S         a flow not done S s after its start times out\n"
"                      (default: none)\n"
"  --drain S           after the last start, wait S s more for flows to\n"
"                      finish (default: the duration, at least 5)\n"
"  --port N            the listeners' TCP port (default: any free)\n"
"  --max-open N        flows open at once (default 1024); a start over it\n"
"                      waits, and its FCT counts the wait\n"
"  --faca[=SOCKET]     each flow's source port from the FaCa agent of its\n"
"                      source's namespace (sluicectl faca agent; SOCKET:\n"
"                      one agent's socket instead), given back when the\n"
"                      flow closes; a flow the agent cannot answer takes\n"
"                      the kernel's port (counted)\n"
"  --sports A-B        each flow's source port drawn from A-B with --seed\n"
"                      (the same ports every run: the ECMP baseline)\n"
"\n"
"FCT alone (the slowdown's denominator): RTT * 1.5 + the flow's bytes\n"
"with headers at RATE (docs/flowgen.md says why):\n"
"  --rtt S             the round trip of a small packet, on every path;\n"
"                      default: measured, the fastest of 3 one-segment\n"
"                      flows on each path used, before the run\n"
"  --mtu BYTES         the hosts' MTU (default 1500)\n"
"\n"
"Output (pairs: \"sip dip sport bytes rate_bps faca\" lines, the rates'\n"
"summary as JSON):\n"
"  -o, --output FILE   a line per completed flow (- for stdout): \"sip dip\n"
"                      sport dport size start_ns fct_ns standalone_fct_ns slowdown\"\n"
"                      after a '#' header; dport is 200 for an incast's\n"
"                      responses and 100 for other flows, as HPCC's\n"
"                      fct_analysis.py selects them (-t 1, -t 0)\n"
"  --hpcc              exactly HPCC's fct.txt: no header, no slowdown\n"
"  -j, --json FILE     the run's summary as JSON (- for stdout)\n"
"  --progress          progress on stderr (default: if it is a terminal)\n"
"  --no-progress       none\n"
"  -h, --help          this text\n"
"\n"
"A summary goes to stdout (to stderr if -o or -j is stdout).  Files are\n"
"written once the run is over, or not at all.  Exit status: 0, also when\n"
"flows did not finish (the summary counts them); 1 on a failure; 2 on a\n"
"bad command line; 130 if interrupted.\n";

struct opts {
	const char	*fabric, *hosts, *workload, *cdf, *out, *json;
	uint32_t	loopback;
	double		rate, load, duration, scale, incast_rate, rtt;
	double		timeout, drain;
	uint64_t	seed;
	uint32_t	fan_in, lanes, mtu, max_open, port;
	int		tos;		/* -1: none given */
	const char	*cc;
	bool		faca;
	const char	*faca_socket;	/* NULL: each namespace's agent */
	struct sluice_sport_range sports;	/* min 0: none */
	bool		hpcc;
	int		progress;	/* -1: if stderr is a terminal */
};

/* Everything a run holds, freed by cleanup(). */
struct job {
	struct opts			o;
	struct sluice_tcpgen_host	*h;
	uint32_t			n_hosts;
	struct sluice_tcpgen_dist	cdf;
	const struct sluice_tcpgen_dist	*dist;
	struct sluice_tcpgen_plan	plan;
	struct sluice_tcpgen		t;
	struct sluice_flowgen_paths	paths;
	double				*alone;
	double				elapsed;
	bool				tty;
	/* --workload pairs */
	struct sluice_stream_flow	*st;
	uint32_t			n_st;
	struct sluice_flowgen_rates	rates;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(" PROG " --help explains the options)\n", stderr);
	return EXIT_USAGE;
}

static int fail(const char *what, const char *err)
{
	fprintf(stderr, PROG ": %s%s%s\n", what, what[0] ? ": " : "", err);
	return EXIT_RUNTIME;
}

/* A number in [@min, @max]; false on anything else. */
static bool num(const char *s, double min, double max, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return s[0] && !*end && !errno && isfinite(*v) && *v >= min &&
	       *v <= max;
}

static bool whole(const char *s, double min, double max, uint32_t *v)
{
	double x;

	if (!num(s, min, max, &x) || x != floor(x))
		return false;
	*v = (uint32_t)x;
	return true;
}

enum {
	O_FABRIC = 256, O_HOSTS, O_LOOPBACK, O_WORKLOAD, O_CDF, O_RATE,
	O_LOAD, O_DURATION, O_SEED, O_SCALE, O_FAN_IN, O_INCAST_RATE, O_CC,
	O_TOS, O_LANES, O_RTT, O_MTU, O_TIMEOUT, O_DRAIN, O_PORT, O_MAX_OPEN,
	O_HPCC, O_PROGRESS, O_NO_PROGRESS, O_FACA, O_SPORTS,
};

static const struct option longopts[] = {
	{ "fabric", required_argument, NULL, O_FABRIC },
	{ "hosts", required_argument, NULL, O_HOSTS },
	{ "loopback", required_argument, NULL, O_LOOPBACK },
	{ "workload", required_argument, NULL, O_WORKLOAD },
	{ "cdf", required_argument, NULL, O_CDF },
	{ "rate", required_argument, NULL, O_RATE },
	{ "load", required_argument, NULL, O_LOAD },
	{ "duration", required_argument, NULL, O_DURATION },
	{ "seed", required_argument, NULL, O_SEED },
	{ "scale", required_argument, NULL, O_SCALE },
	{ "fan-in", required_argument, NULL, O_FAN_IN },
	{ "incast-rate", required_argument, NULL, O_INCAST_RATE },
	{ "cc", required_argument, NULL, O_CC },
	{ "tos", required_argument, NULL, O_TOS },
	{ "lanes", required_argument, NULL, O_LANES },
	{ "rtt", required_argument, NULL, O_RTT },
	{ "mtu", required_argument, NULL, O_MTU },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "drain", required_argument, NULL, O_DRAIN },
	{ "port", required_argument, NULL, O_PORT },
	{ "max-open", required_argument, NULL, O_MAX_OPEN },
	{ "faca", optional_argument, NULL, O_FACA },
	{ "sports", required_argument, NULL, O_SPORTS },
	{ "output", required_argument, NULL, 'o' },
	{ "hpcc", no_argument, NULL, O_HPCC },
	{ "json", required_argument, NULL, 'j' },
	{ "progress", no_argument, NULL, O_PROGRESS },
	{ "no-progress", no_argument, NULL, O_NO_PROGRESS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* One option's value into @o; false if it is out of range. */
static bool set_opt(struct opts *o, int c, const char *arg)
{
	uint32_t u;
	__u64 bps;

	switch (c) {
	case O_FABRIC: o->fabric = arg; return true;
	case O_HOSTS: o->hosts = arg; return true;
	case O_LOOPBACK: return whole(arg, 2, 254, &o->loopback);
	case O_WORKLOAD: o->workload = arg; return true;
	case O_CDF: o->cdf = arg; return true;
	case O_RATE:
		if (sluice_parse_rate(arg, &bps) || !bps)
			return false;
		o->rate = bps;
		return true;
	case O_LOAD: return num(arg, 1e-6, 1 - 1e-9, &o->load);
	case O_DURATION: return num(arg, 1e-3, 1e6, &o->duration);
	case O_SEED:
		if (!whole(arg, 0, UINT32_MAX, &u))
			return false;
		o->seed = u;
		return true;
	case O_SCALE: return num(arg, 1e-9, 1e3, &o->scale);
	case O_FAN_IN: return whole(arg, 1, 65535, &o->fan_in);
	case O_INCAST_RATE: return num(arg, 1e-9, 1e6, &o->incast_rate);
	case O_CC: o->cc = arg; return true;
	case O_TOS:
		if (!whole(arg, 0, 63, &u))
			return false;
		o->tos = u;
		return true;
	case O_LANES: return whole(arg, 1, 64, &o->lanes);
	case O_RTT: return num(arg, 0, 10, &o->rtt);
	case O_MTU: return whole(arg, 576, 65535, &o->mtu);
	case O_TIMEOUT: return num(arg, 1e-6, 1e6, &o->timeout);
	case O_DRAIN: return num(arg, 0, 1e6, &o->drain);
	case O_PORT: return whole(arg, 1, 65535, &o->port);
	case O_MAX_OPEN: return whole(arg, 1, 1u << 20, &o->max_open);
	case 'o': o->out = arg; return true;
	case O_HPCC: o->hpcc = true; return true;
	case 'j': o->json = arg; return true;
	case O_FACA:
		o->faca = true;
		o->faca_socket = arg;
		return !arg || arg[0];
	case O_SPORTS:
		return !sluice_sport_range_parse(arg, &o->sports);
	case O_PROGRESS: o->progress = 1; return true;
	case O_NO_PROGRESS: o->progress = 0; return true;
	}
	return false;
}

static const char *opt_name(int c)
{
	const struct option *lo;

	for (lo = longopts; lo->name; lo++)
		if (lo->val == c)
			return lo->name;
	return "?";
}

static bool pairs(const struct opts *o)
{
	return o->workload && !strcmp(o->workload, "pairs");
}

static int parse(int argc, char **argv, struct opts *o)
{
	int c, idx, sources;

	memset(o, 0, sizeof(*o));
	o->duration = 1;
	o->seed = 1;
	o->scale = 1;
	o->rtt = -1;
	o->drain = -1;
	o->tos = -1;
	o->progress = -1;
	o->mtu = SLUICE_FLOWGEN_MTU;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:j:", longopts, &idx)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return -1;
		}
		if (c == '?')
			return usage_error("unknown option %s", argv[optind - 1]);
		if (c == ':')
			return usage_error("%s needs a value", argv[optind - 1]);
		if (!set_opt(o, c, optarg))
			return usage_error("--%s %s: out of range or not a value",
					   opt_name(c), optarg ? optarg : "");
	}
	if (optind < argc)
		return usage_error("unexpected argument \"%s\"", argv[optind]);
	sources = !!o->fabric + !!o->hosts + !!o->loopback;
	if (sources != 1)
		return usage_error("give one of --fabric, --hosts and --loopback");
	if (o->cdf && o->workload)
		return usage_error("--cdf and --workload: give one");
	if (!o->workload)
		o->workload = "bolt";
	if (strcmp(o->workload, "bolt") && strcmp(o->workload, "pairs") &&
	    !sluice_tcpgen_dist_find(o->workload))
		return usage_error("unknown workload \"%s\": bolt, websearch, hadoop or pairs",
				   o->workload);
	if (o->faca && o->sports.min)
		return usage_error("--faca and --sports: give one");
	if (pairs(o) && (o->hpcc || o->lanes))
		return usage_error("--workload pairs has no FCTs for --hpcc, nor lanes");
	if (o->tos >= 0 && o->lanes)
		return usage_error("--tos and --lanes: give one");
	if (o->hpcc && !o->out)
		return usage_error("--hpcc is a format of -o FILE");
	return 0;
}

/* "ADDR[@NETNS],..." into @j's hosts. */
static int parse_hosts(struct job *j, const char *list)
{
	char *copy = strdup(list), *tok, *save, *at;
	struct sluice_tcpgen_host *h;
	struct in_addr a;
	int ret = 0;

	if (!copy)
		return fail("", "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		h = realloc(j->h, (j->n_hosts + 1) * sizeof(*h));
		if (!h) {
			ret = fail("", "out of memory");
			break;
		}
		j->h = h;
		h = &h[j->n_hosts];
		memset(h, 0, sizeof(*h));
		at = strchr(tok, '@');
		if (at)
			*at++ = '\0';
		if (inet_pton(AF_INET, tok, &a) != 1)
			ret = usage_error("--hosts: \"%s\" is not an IPv4 address",
					  tok);
		else if (at && (!at[0] || strlen(at) >= sizeof(h->ns)))
			ret = usage_error("--hosts: \"%s\" cannot be a namespace",
					  at);
		h->addr = ntohl(a.s_addr);
		snprintf(h->ns, sizeof(h->ns), "%s", at ? at : "");
		j->n_hosts++;
	}
	free(copy);
	if (!ret && j->n_hosts < 2)
		ret = usage_error("--hosts: 2 hosts or more");
	return ret;
}

/* The rate of "rate RATE" among a fabric's qdisc options, or 0. */
static double fabric_rate(const char *args)
{
	char *copy = strdup(args), *tok, *save;
	__u64 bps = 0;

	for (tok = copy ? strtok_r(copy, " ", &save) : NULL; tok;
	     tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, "rate")) {
			tok = strtok_r(NULL, " ", &save);
			if (!tok || sluice_parse_rate(tok, &bps))
				bps = 0;
			break;
		}
	free(copy);
	return bps;
}

static int engine(struct job *j, const struct sluice_tcpgen_opts *to)
{
	struct sluice_fabric_state *s = calloc(1, sizeof(*s));
	char err[SLUICE_ERRLEN];
	uint32_t k;
	int ret;

	if (!s)
		return fail("", "out of memory");
	if (j->o.fabric) {
		ret = sluice_fabric_state_read(j->o.fabric, s, err,
					       sizeof(err));
		if (!ret && !j->o.rate)
			j->o.rate = fabric_rate(s->qdisc_args);
		if (!ret)
			ret = sluice_tcpgen_init_fabric(&j->t, &s->f, to, err,
							sizeof(err));
		sluice_fabric_state_free(s);
	} else {
		if (j->o.loopback) {
			j->h = calloc(j->o.loopback, sizeof(*j->h));
			if (!j->h) {
				free(s);
				return fail("", "out of memory");
			}
			j->n_hosts = j->o.loopback;
		}
		for (k = 0; j->o.loopback && k < j->n_hosts; k++)
			j->h[k].addr = 127u << 24 | (k + 1);
		ret = sluice_tcpgen_init(&j->t, j->h, j->n_hosts, to, err,
					 sizeof(err));
	}
	free(s);
	if (ret)
		return fail(j->o.fabric ? j->o.fabric : "", err);
	j->n_hosts = j->t.n_hosts;
	if (j->n_hosts < 2)
		return fail(j->o.fabric, "fewer than 2 hosts");
	if (!j->o.rate && !pairs(&j->o))
		return usage_error("give --rate%s", j->o.fabric ?
				   ": the fabric's ports have none" : "");
	return 0;
}

static int plan(struct job *j)
{
	struct sluice_flowgen_bolt b = {
		.n_hosts = j->n_hosts, .rate = j->o.rate, .scale = j->o.scale,
		.duration = j->o.duration, .seed = j->o.seed,
		.fan_in = j->o.fan_in, .incast_rate = j->o.incast_rate,
		.load = j->o.load,
	};
	struct sluice_tcpgen_load l = {
		.n_hosts = j->n_hosts, .scale = j->o.scale, .rate = j->o.rate,
		.load = j->o.load ? j->o.load : 0.5,
		.duration = j->o.duration, .seed = j->o.seed,
	};
	char err[SLUICE_ERRLEN];
	int ret;

	if (j->o.cdf) {
		ret = sluice_flowgen_cdf_read(j->o.cdf, &j->cdf, err,
					      sizeof(err));
		if (ret)
			return fail("--cdf", err);
		j->dist = &j->cdf;
	} else {
		j->dist = sluice_tcpgen_dist_find(j->o.workload);
	}
	if (j->dist) {
		l.dist = j->dist;
		ret = sluice_tcpgen_plan(&j->plan, &l, err, sizeof(err));
	} else {
		ret = sluice_flowgen_plan_bolt(&j->plan, &b, err, sizeof(err));
	}
	if (!ret && j->o.lanes)
		ret = sluice_flowgen_lanes(&j->plan, j->o.lanes, j->o.seed,
					   err, sizeof(err));
	if (ret)
		return fail("the workload", err);
	if (!j->plan.n_flows)
		return fail("the workload", "no flow starts within the duration: lengthen it");
	return 0;
}

static void on_progress(void *arg, const struct sluice_tcpgen_progress *pr)
{
	const struct job *j = arg;

	fprintf(stderr, "%s" PROG ": %u/%u flows done, %u open, %.1f s%s",
		j->tty ? "\r" : "", pr->done, pr->total, pr->open, pr->elapsed,
		j->tty ? "  " : "\n");
}

/* Each flow's FCT alone, from --rtt or probes of its path. */
static int alone(struct job *j)
{
	double t0 = j->o.rtt >= 0 ? 1.5 * j->o.rtt : -1;
	char err[SLUICE_ERRLEN];
	uint32_t q;
	int ret;

	ret = sluice_flowgen_paths_of(&j->paths, &j->plan, t0, err,
				      sizeof(err));
	if (!ret && t0 < 0) {
		if (j->tty)
			fprintf(stderr, PROG ": probing %u paths\n",
				j->paths.n);
		ret = sluice_flowgen_probe(&j->t, &j->paths, j->o.rate,
					   j->o.mtu, PROBE_TRIES, 0.01, err,
					   sizeof(err));
	}
	if (ret)
		return fail(ret == -EINTR ? "" : "measuring the paths", err);
	j->alone = calloc(j->plan.n_flows, sizeof(*j->alone));
	if (!j->alone)
		return fail("", "out of memory");
	for (q = 0; q < j->plan.n_flows; q++)
		j->alone[q] = sluice_flowgen_alone(
			sluice_flowgen_path_t0(&j->paths, j->plan.fl[q].src,
					       j->plan.fl[q].dst),
			j->o.rate, j->o.mtu, j->plan.fl[q].size);
	return 0;
}

/* FaCa's pairs: long-lived flows for the duration, their rates. */
static int run_pairs(struct job *j, const struct sluice_tcpgen_opts *to)
{
	struct sluice_stream_opts so = {
		.interval = j->o.duration, .duration = j->o.duration,
		.cc = to->cc, .tos = to->tos, .sport = to->sport,
		.stop = &interrupted,
	};
	struct sluice_tcpgen_host *h;
	char err[SLUICE_ERRLEN];
	double start;
	int ret;

	ret = sluice_flowgen_pairs(j->n_hosts, j->o.duration, &j->st,
				   &j->n_st, err, sizeof(err));
	if (ret)
		return fail("the workload", err);
	h = malloc(j->n_hosts * sizeof(*h));
	if (!h)
		return fail("", "out of memory");
	memcpy(h, j->t.h, j->n_hosts * sizeof(*h));
	start = sluice_now();
	ret = sluice_stream_run(h, j->n_hosts, j->st, j->n_st, &so, err,
				sizeof(err));
	j->elapsed = sluice_now() - start;
	free(h);
	if (ret)
		return fail("", err);
	sluice_flowgen_rates(j->st, j->n_st, j->o.duration, &j->rates);
	return 0;
}

static int run(struct job *j)
{
	struct sluice_tcpgen_opts to = {
		.port = j->o.port, .max_open = j->o.max_open,
		.timeout = j->o.timeout, .cc = j->o.cc,
		.tos = j->o.tos > 0 ? j->o.tos << 2 : 0, .stop = &interrupted,
		.progress_arg = j,
		.sport = {
			.faca = j->o.faca, .faca_socket = j->o.faca_socket,
			.range = j->o.sports,
			.seed = j->o.seed,
		},
	};
	double drain = j->o.drain >= 0 ? j->o.drain :
		       j->o.duration > 5 ? j->o.duration : 5, start;
	char err[SLUICE_ERRLEN];
	int ret;

	j->tty = isatty(STDERR_FILENO);
	if (j->o.progress > 0 || (j->o.progress < 0 && j->tty)) {
		to.progress = on_progress;
		to.progress_every = j->tty ? 1 : 10;
	}
	ret = engine(j, &to);
	if (!ret && pairs(&j->o))
		return run_pairs(j, &to);
	if (!ret)
		ret = plan(j);
	if (ret)
		return ret;
	ret = sluice_tcpgen_open(&j->t, err, sizeof(err));
	if (ret)
		return fail("", err);
	ret = alone(j);
	if (ret)
		return ret;
	start = sluice_now() + 0.5;
	ret = sluice_tcpgen_run(&j->t, &j->plan, start,
				start + j->o.duration + drain, err,
				sizeof(err));
	j->elapsed = sluice_now() - start;
	if (to.progress && j->tty)
		fputc('\n', stderr);
	if (ret)
		return fail("", err);
	return 0;
}

/* Flows by kind: all, background (or Poisson), incast responses. */
static const struct {
	const char			*name;
	struct sluice_tcpgen_filter	f;
} kinds[] = {
	{ "all", { 0 } },
	{ "background", { .by_tag = true, .tag = SLUICE_FLOWGEN_BACKGROUND } },
	{ "incast", { .by_tag = true, .tag = SLUICE_FLOWGEN_INCAST } },
};

/* Bolt's flows by kind; another workload's all alike. */
static uint32_t n_kinds(const struct job *j)
{
	return j->dist ? 1 : ARRAY_SIZE(kinds);
}

struct report {
	struct sluice_tcpgen_summary	fct[ARRAY_SIZE(kinds)];
	struct sluice_tcpgen_summary	slow[ARRAY_SIZE(kinds)];
	uint32_t			n_incasts, complete;
	double				ict_p50, ict_p99;
	double				t0_min, t0_max;	/* over the paths */
};

static int summarize(const struct job *j, struct report *r)
{
	struct sluice_flowgen_incast *in = NULL;
	double *v;
	uint32_t k, m = 0;

	memset(r, 0, sizeof(*r));
	for (k = 0; k < j->paths.n; k++) {
		if (!k || j->paths.p[k].t0 < r->t0_min)
			r->t0_min = j->paths.p[k].t0;
		if (j->paths.p[k].t0 > r->t0_max)
			r->t0_max = j->paths.p[k].t0;
	}
	for (k = 0; k < ARRAY_SIZE(kinds); k++)
		if (sluice_tcpgen_summarize(j->plan.fl, j->plan.n_flows,
					    &kinds[k].f, &r->fct[k]) ||
		    sluice_flowgen_slowdowns(j->plan.fl, j->plan.n_flows,
					     j->alone, &kinds[k].f,
					     &r->slow[k]))
			return -ENOMEM;
	if (sluice_flowgen_incasts(j->plan.fl, j->plan.n_flows, &in,
				   &r->n_incasts))
		return -ENOMEM;
	v = malloc((r->n_incasts ? r->n_incasts : 1) * sizeof(*v));
	for (k = 0; v && k < r->n_incasts; k++)
		if (in[k].ict >= 0)
			v[m++] = in[k].ict;
	r->complete = m;
	if (v) {
		r->ict_p50 = sluice_tcpgen_percentile(v, m, 50);
		r->ict_p99 = sluice_tcpgen_percentile(v, m, 99);
	}
	free(in);
	free(v);
	return v ? 0 : -ENOMEM;
}

static void print_text(FILE *f, const struct job *j, const struct report *r)
{
	char rate[32];
	uint32_t k;

	sluice_format_rate((__u64)j->o.rate, rate, sizeof(rate));
	fprintf(f, "%s on %u hosts at %s, %g s: %u flows, %u done, %u not (%u starts waited for --max-open, %llu stray connections)\n",
		j->o.cdf ? j->o.cdf : j->o.workload, j->n_hosts, rate,
		j->o.duration, r->fct[0].count, r->fct[0].finished,
		r->fct[0].count - r->fct[0].finished, j->t.capped,
		(unsigned long long)j->t.rx_stray);
	fprintf(f, "%-10s %7s %7s %9s %9s %9s %9s\n", "flows", "count",
		"done", "fct_p50", "fct_p99", "slow_p50", "slow_p99");
	for (k = 0; k < n_kinds(j); k++)
		fprintf(f, "%-10s %7u %7u %7.2fms %7.2fms %9.2f %9.2f\n",
				kinds[k].name, r->fct[k].count,
				r->fct[k].finished, r->fct[k].p50 * 1e3,
				r->fct[k].p99 * 1e3, r->slow[k].p50,
				r->slow[k].p99);
	if (r->n_incasts)
		fprintf(f, "incasts: %u, %u complete, completion p50 %.2f ms, p99 %.2f ms\n",
			r->n_incasts, r->complete, r->ict_p50 * 1e3,
			r->ict_p99 * 1e3);
	fprintf(f, "alone: %.3f to %.3f ms (%s) + bytes at %s; latest start %.1f ms late\n",
		r->t0_min * 1e3, r->t0_max * 1e3,
		j->o.rtt >= 0 ? "1.5 --rtt" : "measured", rate,
		r->fct[0].max_late * 1e3);
	if (j->o.faca)
		fprintf(f, "source ports: %u from the FaCa agents, %u the kernel's (no agent's answer)\n",
			j->t.faca, j->t.faca_fallbacks);
}

static void print_pairs(FILE *f, const struct job *j)
{
	const struct sluice_flowgen_rates *r = &j->rates;
	char agg[32], lo[32], mean[32], hi[32];

	sluice_format_rate((__u64)r->aggregate, agg, sizeof(agg));
	sluice_format_rate((__u64)r->min, lo, sizeof(lo));
	sluice_format_rate((__u64)r->mean, mean, sizeof(mean));
	sluice_format_rate((__u64)r->max, hi, sizeof(hi));
	fprintf(f, "pairs on %u hosts, %g s: %u flows, %u failed; delivered %s in all, per flow min %s mean %s max %s\n",
		j->n_hosts, j->o.duration, r->flows, r->failed, agg, lo,
		mean, hi);
	if (j->o.faca)
		fprintf(f, "source ports: %u from the FaCa agents, %u the kernel's (no agent's answer)\n",
			r->faca, r->flows - r->faca);
}

/* A line per pair: addresses in hex as HPCC's, bytes, bit/s, agent's. */
static void write_pairs(FILE *f, const struct job *j)
{
	const struct sluice_stream_flow *s;
	uint32_t q;

	fputs("# sip dip sport bytes rate_bps faca\n", f);
	for (q = 0; q < j->n_st; q++) {
		s = &j->st[q];
		fprintf(f, "%08x %08x %u %llu %.0f %d\n", j->t.h[s->src].addr,
			j->t.h[s->dst].addr, s->sport,
			(unsigned long long)s->bytes,
			sluice_flowgen_stream_rate(s, j->o.duration), s->faca);
	}
}

static void pairs_json(FILE *f, const struct job *j)
{
	const struct sluice_flowgen_rates *r = &j->rates;
	const struct sluice_stream_flow *s;
	uint32_t q;

	fprintf(f, "{\"workload\": \"pairs\", \"hosts\": %u, \"duration_s\": %g, \"elapsed_s\": %.3f, \"faca\": %s, \"flows\": %u, \"failed\": %u, \"from_agent\": %u, \"aggregate_bps\": %.0f, \"min_bps\": %.0f, \"mean_bps\": %.0f, \"max_bps\": %.0f, \"pairs\": [",
		j->n_hosts, j->o.duration, j->elapsed,
		j->o.faca ? "true" : "false", r->flows, r->failed, r->faca,
		r->aggregate, r->min, r->mean, r->max);
	for (q = 0; q < j->n_st; q++) {
		s = &j->st[q];
		fprintf(f, "%s{\"src\": %u, \"dst\": %u, \"sport\": %u, \"bytes\": %llu, \"rate_bps\": %.0f, \"faca\": %s, \"error\": %d}",
			q ? ", " : "", s->src, s->dst, s->sport,
			(unsigned long long)s->bytes,
			sluice_flowgen_stream_rate(s, j->o.duration),
			s->faca ? "true" : "false", s->error);
	}
	fputs("]}\n", f);
}

static void json_summary(FILE *f, const char *key,
			 const struct sluice_tcpgen_summary *s, bool last)
{
	fprintf(f, "\"%s\": {\"mean\": %.9g, \"p50\": %.9g, \"p99\": %.9g, \"max\": %.9g}%s",
		key, s->mean, s->p50, s->p99, s->max, last ? "" : ", ");
}

static void print_json(FILE *f, const struct job *j, const struct report *r)
{
	uint32_t k;

	fprintf(f, "{\"workload\": \"%s\", \"hosts\": %u, \"rate_bps\": %.0f, \"duration_s\": %g, \"seed\": %llu, \"scale\": %g, \"elapsed_s\": %.3f, \"capped\": %u, \"stray\": %llu, \"max_late_s\": %.6f, \"alone_t0_s\": {\"min\": %.9g, \"max\": %.9g, \"measured\": %s}, \"flows\": {",
		j->o.cdf ? "cdf" : j->o.workload, j->n_hosts, j->o.rate,
		j->o.duration, (unsigned long long)j->o.seed, j->o.scale,
		j->elapsed, j->t.capped, (unsigned long long)j->t.rx_stray,
		r->fct[0].max_late, r->t0_min, r->t0_max,
		j->o.rtt >= 0 ? "false" : "true");
	for (k = 0; k < n_kinds(j); k++) {
		fprintf(f, "%s\"%s\": {\"count\": %u, \"done\": %u, ",
			k ? ", " : "", kinds[k].name, r->fct[k].count,
			r->fct[k].finished);
		json_summary(f, "fct_s", &r->fct[k], false);
		json_summary(f, "slowdown", &r->slow[k], true);
		fputc('}', f);
	}
	fprintf(f, "}, \"incasts\": {\"count\": %u, \"complete\": %u, \"completion_p50_s\": %.9g, \"completion_p99_s\": %.9g}, \"faca\": %s, \"from_agent\": %u, \"agent_fallbacks\": %u}\n",
		r->n_incasts, r->complete, r->ict_p50, r->ict_p99,
		j->o.faca ? "true" : "false", j->t.faca, j->t.faca_fallbacks);
}

/* What one output file holds: the flows' report, or the JSON summary. */
struct out {
	const struct job	*j;
	const struct report	*r;
	bool			flows;
};

/* A sluice_write_fn: the file's contents into @f. */
static int write_out(const void *arg, FILE *f, char *err, size_t errlen)
{
	const struct out *o = arg;
	const struct job *j = o->j;
	int ret = 0;

	if (pairs(&j->o) && o->flows)
		write_pairs(f, j);
	else if (pairs(&j->o))
		pairs_json(f, j);
	else if (o->flows)
		ret = sluice_flowgen_write_hpcc(f, &j->t, j->plan.fl,
						j->plan.n_flows, j->alone,
						j->o.hpcc ? 0 :
						SLUICE_FLOWGEN_SLOWDOWN);
	else
		print_json(f, j, o->r);
	if (ret)
		snprintf(err, errlen, "%s", strerror(-ret));
	return ret;
}

/*
 * @path ("-": stdout) written as every sluice program writes a file
 * (sluice_file_write()): a regular file whole or not at all, through a
 * temporary file renamed over it; a device, a FIFO or /dev/stdout in
 * place; a symbolic link's target; a directory refused.
 */
static int write_file(const char *path, const struct job *j,
		      const struct report *r, bool flows)
{
	const struct out o = { .j = j, .r = r, .flows = flows };
	char err[SLUICE_ERRLEN] = "";

	if (!strcmp(path, "-")) {
		if (write_out(&o, stdout, err, sizeof(err)))
			return fail(path, err);
		return fflush(stdout) ? fail(path, strerror(errno)) : 0;
	}
	/* the library's reason names the file */
	if (sluice_file_write(path, write_out, &o, err, sizeof(err)))
		return err[0] ? fail("", err) : fail(path, "cannot write");
	return 0;
}

static void cleanup(struct job *j)
{
	sluice_tcpgen_free(&j->t);
	sluice_tcpgen_plan_free(&j->plan);
	sluice_flowgen_paths_free(&j->paths);
	sluice_flowgen_cdf_free(&j->cdf);
	free(j->alone);
	free(j->h);
	if (j->st)
		sluice_stream_free(j->st, j->n_st);
	free(j->st);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct report r;
	struct job j;
	bool to_stdout;
	int ret;

	memset(&j, 0, sizeof(j));
	ret = parse(argc, argv, &j.o);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (j.o.hosts) {
		ret = parse_hosts(&j, j.o.hosts);
		if (ret) {
			cleanup(&j);
			return ret;
		}
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = run(&j);
	if (!ret && interrupted)
		ret = 130;
	if (!ret && !pairs(&j.o) && summarize(&j, &r))
		ret = fail("", "out of memory");
	if (!ret && j.o.out)
		ret = write_file(j.o.out, &j, &r, true);
	if (!ret && j.o.json)
		ret = write_file(j.o.json, &j, &r, false);
	if (!ret) {
		to_stdout = !(j.o.out && !strcmp(j.o.out, "-")) &&
			    !(j.o.json && !strcmp(j.o.json, "-"));
		if (pairs(&j.o))
			print_pairs(to_stdout ? stdout : stderr, &j);
		else
			print_text(to_stdout ? stdout : stderr, &j, &r);
	}
	if (interrupted)
		ret = 130;
	cleanup(&j);
	return ret;
}
