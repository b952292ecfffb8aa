// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl faca hook: FaCa for unmodified applications, with a fixed
 * policy (sluice/faca_hook.h): new flows' source ports rewritten, by
 * conntrack NAT, to the ports of a range in turn, until a signal.  The
 * group's table lists the host agent's commands too (faca_agent.c).
 *
 *   faca hook --sports A-B [--dst PREFIX[,PREFIX...]] [--queue N] [--udp]
 *             [-v] [-j]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sluice/faca_hook.h>
#include "cmd_faca.h"
#include "jout.h"
#include "args.h"
#include "sluicectl.h"

static int hook_main(const struct command *cmd, int argc, char **argv);

static const struct command faca_commands[] = {
	{ "agent", faca_agent_main, FACA_AGENT_HELP, FACA_AGENT_USAGE, "faca" },
	{ "show", faca_show_main, FACA_SHOW_HELP, FACA_SHOW_USAGE, "faca" },
	{ "sport", faca_sport_main, FACA_SPORT_HELP, FACA_SPORT_USAGE, "faca" },
	{ "hook", hook_main,
	  "Give new flows of unmodified programs source ports from a range (conntrack NAT)",
	  "--sports A-B [--dst PREFIX[,PREFIX...]] [--queue N] [--udp] [-v | --verbose]\n"
	  "\t[-j | --json]\n"
	  "\tInstalls the nftables table ip " SLUICE_FACA_HOOK_TABLE " in this network namespace\n"
	  "\t(-n NETNS: in that one), which queues the first packet of every new TCP\n"
	  "\tflow (and UDP flow, with --udp) to the destinations PREFIX (default: any\n"
	  "\tbut loopback) on NFQUEUE N (default 0), and gives each such flow the next\n"
	  "\tport of A-B that no conntrack entry to the same destination holds: NAT\n"
	  "\trewrites its source port on the way out and restores it on the way back,\n"
	  "\tso the program's socket keeps its own.  A flow keeps its own port when\n"
	  "\tevery port of the range is in use.  Runs until SIGINT, SIGTERM or SIGHUP,\n"
	  "\tthen removes the table, unless flows it rewrote are still open: their\n"
	  "\ttranslation needs it, so it stays, as it does when the hook is killed,\n"
	  "\tand the queue's bypass lets new flows through with their own ports; the\n"
	  "\tnext start replaces it.  -v prints each flow; -j prints JSON, one object\n"
	  "\ta line (start, each flow with -v, stop).",
	  "faca" },
};

int faca_main(const struct command *cmd, int argc, char **argv)
{
	return group_main(cmd, faca_commands, ARRAY_SIZE(faca_commands), argc,
			  argv);
}

enum { OPT_SPORTS, OPT_DST, OPT_QUEUE, OPT_UDP, OPT_VERBOSE, OPT_JSON, N_OPTS };

static const struct arg_opt opts[N_OPTS] = {
	[OPT_SPORTS]	= ARG_S("--sports", 0, "A-B",
				"the source ports to give new flows (required)"),
	[OPT_DST]	= ARG_S("--dst", 0, "PREFIX[,PREFIX...]",
				"only flows to these IPv4 prefixes; default every destination"),
	[OPT_QUEUE]	= ARG_N("--queue", 0, "N", 0, UINT16_MAX,
				"the NFQUEUE number, default 0"),
	[OPT_UDP]	= ARG_F("--udp", 0, "UDP flows too, not TCP's alone"),
	[OPT_VERBOSE]	= ARG_F("--verbose", 'v', "print each flow"),
	[OPT_JSON]	= ARG_F("--json", 'j', "print JSON, an object a line"),
};

static const struct args_spec spec = ARGS_SPEC(opts, 0, 0, NULL);

struct hook_args {
	struct sluice_sport_range sports;
	struct sluice_faca_prefix dst[SLUICE_FACA_HOOK_MAX_DST];
	struct sluice_faca_hook_cfg cfg;
	bool		verbose, json;
};

int faca_parse_dst(const struct command *cmd, const char *list,
		   struct sluice_faca_prefix *dst, size_t *n)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int ret = 0;

	if (!copy) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == SLUICE_FACA_HOOK_MAX_DST)
			ret = cmd_error(cmd, "--dst: more than %d prefixes",
					      SLUICE_FACA_HOOK_MAX_DST);
		else if (sluice_faca_prefix_parse(tok, &dst[(*n)++]))
			ret = cmd_error(cmd, "--dst: \"%s\" is not an IPv4 prefix (A.B.C.D/LEN, no host bits set, or A.B.C.D)",
					      tok);
	}
	if (!ret && !*n)
		ret = cmd_error(cmd, "--dst: no prefix in \"%s\"", list);
	free(copy);
	return ret;
}

static int parse(const struct command *cmd, int argc, char **argv,
		 struct hook_args *a)
{
	const char **val;
	int ret;
	ARGS_DECLARE(args, N_OPTS);

	memset(a, 0, sizeof(*a));
	if (args_parse(cmd, &spec, argc, argv, &args))
		return args.exit ? args.exit : -1;
	val = args.val;
	if (!val[OPT_SPORTS])
		return cmd_error(cmd, "--sports A-B: the source ports to give new flows");
	if (sluice_sport_range_parse(val[OPT_SPORTS], &a->sports))
		return cmd_error(cmd, "--sports: \"%s\" is not a port range (A-B, 1 <= A <= B <= 65535)",
				       val[OPT_SPORTS]);
	a->cfg.queue = args.num[OPT_QUEUE];
	a->cfg.dst = a->dst;
	if (val[OPT_DST] &&
	    (ret = faca_parse_dst(cmd, val[OPT_DST], a->dst, &a->cfg.n_dst)))
		return ret;
	a->cfg.udp = val[OPT_UDP];
	a->cfg.sport_min = a->sports.min;
	a->cfg.sport_max = a->sports.max;
	a->verbose = val[OPT_VERBOSE];
	a->json = val[OPT_JSON];
	return 0;
}

static const char *const outcome_name[] = {
	[SLUICE_FACA_REWRITTEN]	= "rewritten",
	[SLUICE_FACA_KEPT]	= "kept",
	[SLUICE_FACA_REFUSED]	= "refused",
	[SLUICE_FACA_FAILED]	= "failed",
};

struct run {
	struct sluice_faca_rr	rr;	/* first: the chooser's ctx is the run */
	const struct hook_args	*a;
};

static const char *proto_name(uint8_t proto)
{
	return proto == IPPROTO_UDP ? "udp" : "tcp";
}

static void print_flow_json(const struct sluice_faca_flow *f)
{
	char s[INET_ADDRSTRLEN], d[INET_ADDRSTRLEN];
	json_object *o = json_object_new_object();

	inet_ntop(AF_INET, &f->saddr, s, sizeof(s));
	inet_ntop(AF_INET, &f->daddr, d, sizeof(d));
	if (o && jadd(o, "event", json_object_new_string("flow")) &&
	    jadd(o, "proto", json_object_new_string(proto_name(f->proto))) &&
	    jadd(o, "saddr", json_object_new_string(s)) &&
	    jadd(o, "sport", jnum(f->sport)) &&
	    jadd(o, "daddr", json_object_new_string(d)) &&
	    jadd(o, "dport", jnum(f->dport)) &&
	    jadd(o, "new_sport", jnum(f->new_sport)) &&
	    jadd(o, "outcome", json_object_new_string(outcome_name[f->outcome])) &&
	    (!f->error || jadd(o, "error", json_object_new_string(strerror(-f->error)))))
		jprint(o, true);
	else
		jprint(o, false);
}

/* Each flow once decided, with -v. */
static void report(void *ctx, const struct sluice_faca_flow *f)
{
	const struct run *r = ctx;
	char s[INET_ADDRSTRLEN], d[INET_ADDRSTRLEN];

	if (!r->a->verbose)
		return;
	if (r->a->json) {
		print_flow_json(f);
		return;
	}
	inet_ntop(AF_INET, &f->saddr, s, sizeof(s));
	inet_ntop(AF_INET, &f->daddr, d, sizeof(d));
	printf("%s %s:%u -> %s:%u: ", proto_name(f->proto), s, f->sport, d,
	       f->dport);
	switch (f->outcome) {
	case SLUICE_FACA_REWRITTEN:
		printf("source port %u\n", f->new_sport);
		break;
	case SLUICE_FACA_KEPT:
		printf("keeps its port (chosen)\n");
		break;
	case SLUICE_FACA_REFUSED:
		printf("keeps its port (%s)\n", f->error == -EADDRINUSE ?
		       "every port of the range in use" : strerror(-f->error));
		break;
	case SLUICE_FACA_FAILED:
		printf("keeps its port (the port map: %s)\n",
		       strerror(-f->error));
		break;
	}
}

static void print_start(const struct hook_args *a)
{
	char addr[INET_ADDRSTRLEN];
	json_object *o, *dst;
	size_t i;

	if (!a->json) {
		printf("hook on NFQUEUE %u (table ip %s): new %s flows to ",
		       a->cfg.queue, SLUICE_FACA_HOOK_TABLE,
		       a->cfg.udp ? "TCP and UDP" : "TCP");
		for (i = 0; i < a->cfg.n_dst; i++) {
			inet_ntop(AF_INET, &a->dst[i].addr, addr, sizeof(addr));
			printf("%s%s/%u", i ? "," : "", addr, a->dst[i].len);
		}
		printf("%s get source ports %u-%u\n", a->cfg.n_dst ? "" : "any destination",
		       a->sports.min, a->sports.max);
		return;
	}
	o = json_object_new_object();
	dst = json_object_new_array();
	for (i = 0; dst && i < a->cfg.n_dst; i++) {
		inet_ntop(AF_INET, &a->dst[i].addr, addr, sizeof(addr));
		snprintf(addr + strlen(addr), sizeof(addr) - strlen(addr), "/%u",
			 a->dst[i].len);
		json_object_array_add(dst, json_object_new_string(addr));
	}
	jprint(o, o && jadd(o, "event", json_object_new_string("start")) &&
	       jadd(o, "queue", jnum(a->cfg.queue)) &&
	       jadd(o, "table", json_object_new_string("ip " SLUICE_FACA_HOOK_TABLE)) &&
	       jadd(o, "udp", json_object_new_boolean(a->cfg.udp)) &&
	       jadd(o, "dst", dst) &&
	       jadd(o, "sport_min", jnum(a->sports.min)) &&
	       jadd(o, "sport_max", jnum(a->sports.max)));
}

/*
 * @why: the signal's name, or "error"; @open: what closing the hook
 * returned (flows that keep the table, or -errno).
 */
static int print_stop(const struct hook_args *a,
		      const struct sluice_faca_hook_stats *st, const char *why,
		      int open)
{
	json_object *o;

	if (!a->json) {
		printf("stopped (%s): %llu flows queued, %llu rewritten, %llu kept their port (%llu chosen, %llu every port in use or refused, %llu failed)\n",
		       why, (unsigned long long)st->queued,
		       (unsigned long long)st->rewritten,
		       (unsigned long long)(st->kept + st->refused + st->failed),
		       (unsigned long long)st->kept,
		       (unsigned long long)st->refused,
		       (unsigned long long)st->failed);
		if (open > 0)
			printf("table ip %s left in place for %d rewritten flow%s still open (new flows bypass it); the next start replaces it\n",
			       SLUICE_FACA_HOOK_TABLE, open, open == 1 ? "" : "s");
		else if (open < 0)
			printf("table ip %s left in place: cannot count the rewritten flows still open (%s)\n",
			       SLUICE_FACA_HOOK_TABLE, strerror(-open));
		else
			printf("table ip %s removed\n", SLUICE_FACA_HOOK_TABLE);
		return 0;
	}
	o = json_object_new_object();
	return jprint(o, o && jadd(o, "event", json_object_new_string("stop")) &&
		      jadd(o, "why", json_object_new_string(why)) &&
		      jadd(o, "queued", jnum(st->queued)) &&
		      jadd(o, "rewritten", jnum(st->rewritten)) &&
		      jadd(o, "kept", jnum(st->kept)) &&
		      jadd(o, "refused", jnum(st->refused)) &&
		      jadd(o, "failed", jnum(st->failed)) &&
		      jadd(o, "map_ports", jnum(st->map_ports)) &&
		      jadd(o, "refused_verdicts", jnum(st->refused_verdicts)) &&
		      jadd(o, "table_removed", json_object_new_boolean(!open)) &&
		      (open <= 0 || jadd(o, "open_rewritten", jnum(open))));
}

static volatile sig_atomic_t stop_signal;

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "SIGTERM";
}

static void on_signal(int sig)
{
	stop_signal = sig;
}

/*
 * The signals that stop the hook are blocked except inside ppoll(), so
 * one that arrives while flows are decided is seen at the next wait, not
 * lost before it.
 */
static int serve(struct sluice_faca_hook *h, sigset_t *wait_mask)
{
	struct pollfd pfd = { .fd = sluice_faca_hook_fd(h), .events = POLLIN };
	char err[256];
	int ret;

	while (!stop_signal) {
		ret = ppoll(&pfd, 1, NULL, wait_mask);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0) {
			fprintf(stderr, "sluicectl: poll: %s\n", strerror(errno));
			return EXIT_RUNTIME;
		}
		ret = sluice_faca_hook_process(h, err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "sluicectl: %s\n", err);
			return EXIT_RUNTIME;
		}
	}
	return 0;
}

static int hook_main(const struct command *cmd, int argc, char **argv)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal };
	struct sluice_faca_hook_stats st;
	struct sluice_faca_hook *h;
	sigset_t block, wait_mask;
	struct run r = { 0 };
	struct hook_args a;
	char err[256];
	int ret, open;
	size_t i;

	ret = parse(cmd, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	sigemptyset(&block);
	for (i = 0; i < ARRAY_SIZE(sigs); i++) {
		sigaddset(&block, sigs[i]);
		sigaction(sigs[i], &sa, NULL);
	}
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	sigdelset(&wait_mask, SIGHUP);

	sluice_faca_rr_init(&r.rr, &a.sports);
	r.a = &a;
	a.cfg.report = report;
	ret = sluice_faca_hook_open(&h, &a.cfg, sluice_faca_rr_choose, &r, err,
				    sizeof(err));
	if (ret) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	r.rr.hook = h;
	setvbuf(stdout, NULL, _IOLBF, 0);
	print_start(&a);
	ret = serve(h, &wait_mask);
	sluice_faca_hook_stats(h, &st);
	open = sluice_faca_hook_close(h);
	if (print_stop(&a, &st, ret ? "error" : signal_name(stop_signal), open) &&
	    !ret)
		ret = EXIT_RUNTIME;
	return ret;
}
