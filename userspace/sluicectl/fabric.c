// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl fabric { up | down | show | exec | ping } ...
 *
 * A whole fabric on one machine: a network namespace per switch and per
 * host, veths as the topology says, addresses, MPLS forwarding and a
 * sluice qdisc on every port (lib/fabric, sluice/fabric.h has the names
 * and addresses), all through rtnetlink.  The fabric's state stays under
 * /run/sluice/NAME (fabric.h), so that the other commands, and "route
 * load", find it again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include <sluice/host.h>
#include <sluice/portfc.h>
#include <sluice/size.h>
#include <sluice/qopt.h>
#include <sluice/route.h>
#include "cmd_fabric.h"
#include "jout.h"
#include "load.h"
#include "args.h"
#include "qdisc_args.h"
#include "sluicectl.h"

static int up_main(const struct command *cmd, int argc, char **argv);
static int down_main(const struct command *cmd, int argc, char **argv);
static int show_main(const struct command *cmd, int argc, char **argv);
static int exec_main(const struct command *cmd, int argc, char **argv);
static int stats_main(const struct command *cmd, int argc, char **argv);

static const struct command fabric_commands[] = {
	{ "up", up_main, "Bring a fabric of namespaces up from a topology",
	  "TOPOLOGY [--name NAME] [--hosts-per-switch H] [--no-qdisc]\n"
	  "\t[--flow-control { pfc | pfc-star | portfc }] [--portfc-rtt TIME] [--lanes L]\n"
	  "\t[--ecn { BYTES | auto | off }] [--host-profile { bolt | off }] [--host-rtt TIME]\n"
	  "\t[--multipath { hash | hash5 | exact | wcmp | sport }] [--node-rate NODE=RATE[,NODE=RATE...]]\n"
	  QDISC_OPTS_USAGE " [-v | --verbose] [-j | --json]\n"
	  "\t--multipath: how ingress switches spread a pair's flows over its paths: hash (the\n"
	  "\tdefault) by the L4 hash, which for TCP is the socket's own, random; hash5 by the\n"
	  "\t5-tuple, so that a source port picks a path; exact: each path of a pair takes its\n"
	  "\town range of source ports (sluicectl route sport lists them), other ports hash5;\n"
	  "\twcmp: hash5 weighted by each path's slowest link; sport: by the addresses and the\n"
	  "\tsource port alone, so that a UDP probe from a port takes the path of a TCP flow\n"
	  "\tfrom it (FaCa's agent learns paths so).  --node-rate: every link of NODE\n"
	  "\tat RATE, at most --rate (a leaf-spine with slower spines).\n"
	  "\t--ecn: every class of every switch port marks ECT frames CE above BYTES of\n"
	  "\tbacklog; auto: DCTCP's C x RTT / 7 (at least two frames).  --host-profile bolt:\n"
	  "\tTCP-Bolt on every host's routes (sluicectl host bolt), its first window the\n"
	  "\tbandwidth-delay product.  Both need --rate, and the fabric's round trip: --host-rtt,\n"
	  "\tor measured (5 full-sized echoes host-switch, times the links of the longest path).",
	  "fabric" },
	{ "down", down_main, "Remove a fabric's namespaces, also after a crash",
	  "[--name NAME] [-j | --json]", "fabric" },
	{ "show", show_main, "List a fabric's switches, hosts and links",
	  "[--name NAME] [-j | --json]", "fabric" },
	{ "exec", exec_main, "Run a command in a switch's or a host's namespace",
	  "[--name NAME] NODE -- COMMAND [ARGUMENTS]", "fabric" },
	{ "stats", stats_main, "Per-port and per-class counters of switches and hosts",
	  "[--name NAME] [NODE...] [-j | --json]", "fabric" },
	{ "ping", fabric_ping_main, "Ping every host from every other host",
	  "[--name NAME] [--count N] [--timeout TIME] [-j | --json]", "fabric" },
	{ "deadlock", fabric_deadlock_main,
	  "Find deadlocks now: cycles of paused queues in the switches (exit 3 if one)",
	  "[--name NAME] [--interval TIME] [-j | --json]\n"
	  "\t--topo FILE --state DIR [--state-later DIR2] [-j | --json]", "fabric" },
};

int fabric_main(const struct command *cmd, int argc, char **argv)
{
	return group_main(cmd, fabric_commands, ARRAY_SIZE(fabric_commands),
			  argc, argv);
}

enum opt_id {
	OPT_NAME, OPT_HOSTS, OPT_NO_QDISC, OPT_VERBOSE, OPT_JSON, OPT_FC,
	OPT_PORTFC_RTT, OPT_ECN, OPT_HOST_PROFILE, OPT_HOST_RTT, OPT_LANES,
	OPT_MULTIPATH, OPT_NODE_RATE,
	/* the qdisc's options (qdisc_args.h) */
	OPT_Q_FIRST,
	N_OPTS = OPT_Q_FIRST + N_QOPTS,
};

static const char *const fc_words[] = { "pfc", "pfc-star", "portfc", NULL };

static const struct arg_opt opts[] = {
	[OPT_NAME]		= ARG_S("--name", 0, "NAME", "the fabric, default sluice"),
	[OPT_HOSTS]		= ARG_N("--hosts-per-switch", 0, "H", 0,
					SLUICE_FABRIC_HOSTS_MAX,
					"hosts of every endpoint"),
	[OPT_NO_QDISC]		= ARG_F("--no-qdisc", 0, "no sluice qdisc on the ports"),
	[OPT_VERBOSE]		= ARG_F("--verbose", 'v', "what was made, step by step"),
	[OPT_JSON]		= ARG_F("--json", 'j', "print JSON instead of text"),
	[OPT_FC]		= ARG_E("--flow-control", 0, fc_words,
					"one flow control for the whole fabric, kept in its state"),
	[OPT_PORTFC_RTT]	= ARG_RTT("--portfc-rtt", SLUICE_PORTFC_RTT_MAX_NS,
					  "with --flow-control portfc: another round trip for its thresholds"),
	[OPT_ECN]		= ARG_S("--ecn", 0, "{ BYTES | auto | off }",
					"switch ports mark ECT frames CE above this backlog; auto: DCTCP's"),
	[OPT_HOST_PROFILE]	= ARG_S("--host-profile", 0, "{ bolt | off }",
					"bolt: TCP-Bolt on every host's routes"),
	[OPT_HOST_RTT]		= ARG_RTT("--host-rtt", SLUICE_PORTFC_RTT_MAX_NS,
					  "the round trip for --ecn auto and --host-profile, else measured"),
	[OPT_LANES]		= ARG_N("--lanes", 0, "L", 1, SLUICE_LANES_MAX,
					"carry L lanes of an EDST route set"),
	[OPT_MULTIPATH]		= ARG_S("--multipath", 0, "MODE",
					"how ingress switches spread a pair's flows: hash, hash5, exact, wcmp, sport"),
	[OPT_NODE_RATE]		= ARG_S("--node-rate", 0, "NODE=RATE[,NODE=RATE...]",
					"every link of NODE at RATE, at most --rate"),
	QDISC_OPTS(OPT_Q_FIRST),
};

static const struct args_spec up_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 256,
	.operands = "TOPOLOGY, the topology file",
	.pick = ARGS_PICK(OPT_NAME, OPT_HOSTS, OPT_NO_QDISC, OPT_FC,
			  OPT_PORTFC_RTT, OPT_LANES, OPT_ECN, OPT_HOST_PROFILE,
			  OPT_HOST_RTT, OPT_MULTIPATH, OPT_NODE_RATE, QDISC_PICKS(OPT_Q_FIRST),
			  OPT_VERBOSE, OPT_JSON),
};
static const struct args_spec name_json_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 0,
	.pick = ARGS_PICK(OPT_NAME, OPT_JSON),
};
static const struct args_spec exec_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 256,
	.operands = "NODE, a switch or a host, then -- and the command",
	.pick = ARGS_PICK(OPT_NAME),
};
static const struct args_spec stats_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 256,
	.operands = "NODE..., only these switches and hosts",
	.pick = ARGS_PICK(OPT_NAME, OPT_JSON),
};

struct fargs {
	const char	**val;
	char		**files;
	int		n_files;
	const char	*name;
	const char	*vals[N_OPTS];
	uint64_t	num[N_OPTS];
	struct args	args;
};

static int parse(const struct command *cmd, const struct args_spec *spec,
		 int argc, char **argv, struct fargs *a)
{
	char msg[128];

	memset(a, 0, sizeof(*a));
	a->args.val = a->vals;
	a->args.num = a->num;
	if (args_parse(cmd, spec, argc, argv, &a->args))
		return a->args.exit ? a->args.exit : -1;
	a->val = a->vals;
	a->files = a->args.operands;
	a->n_files = a->args.n_operands;
	a->name = a->val[OPT_NAME] ? a->val[OPT_NAME] :
		  SLUICE_FABRIC_DEFAULT_NAME;
	if (sluice_fabric_name_check(a->name, msg, sizeof(msg)))
		return args_error(&a->args, "--name: %s", msg);
	return 0;
}

static void print_up(const struct sluice_fabric_state *s,
		     const struct sluice_fabric_stats *st, bool json,
		     bool verbose)
{
	uint32_t servers = 0, u;
	json_object *o, *t;

	for (u = 0; u < s->g.n_nodes; u++)
		servers += sluice_fabric_self_hosted(&s->f, u);
	if (!json) {
		if (servers)
			printf("fabric %s up: %u switches, %u servers (each its own host), %u links, %u qdiscs",
			       s->name, s->g.n_nodes - servers, servers,
			       s->g.n_links, st->qdiscs);
		else
			printf("fabric %s up: %u switches, %u hosts, %u links, %u qdiscs",
			       s->name, s->g.n_nodes, s->f.n_hosts,
			       s->g.n_links, st->qdiscs);
		if (s->fc != SLUICE_FABRIC_FC_NONE)
			printf(", flow control %s", sluice_fabric_fc_name(s->fc));
		if (s->lanes)
			printf(", %u lane%s", s->lanes, s->lanes == 1 ? "" : "s");
		if (s->multipath != SLUICE_MP_HASH)
			printf(", multipath %s",
			       sluice_multipath_name(s->multipath));
		printf(" in %.1f s\n", st->t_total);
		if (st->neigh_raised)
			puts("raised net.ipv4.neigh.default.gc_thresh1-3: the kernel's ARP table is shared by all namespaces");
		if (verbose)
			printf("namespaces %u in %.2f s, veths %u in %.2f s, mpls input in %.2f s, addresses and %u neighbours in %.2f s, qdiscs %u in %.2f s; %u rtnetlink requests, %u sysctl writes\n",
			       st->namespaces, st->t_netns, st->veths,
			       st->t_links, st->t_sysctl, st->neighbours,
			       st->t_addrs,
			       st->qdiscs, st->t_qdiscs, st->requests,
			       st->sysctls);
		return;
	}
	o = json_object_new_object();
	t = json_object_new_object();
	if (o && t && jadd(o, "name", json_object_new_string(s->name)) &&
	    jadd(o, "switches", jnum(s->g.n_nodes - servers)) &&
	    jadd(o, "servers", jnum(servers)) &&
	    jadd(o, "hosts", jnum(s->f.n_hosts)) &&
	    jadd(o, "flow_control", json_object_new_string(sluice_fabric_fc_name(s->fc))) &&
	    jadd(o, "lanes", jnum(s->lanes)) &&
	    jadd(o, "multipath",
		 json_object_new_string(sluice_multipath_name(s->multipath))) &&
	    jadd(o, "links", jnum(s->g.n_links)) &&
	    jadd(o, "namespaces", jnum(st->namespaces)) &&
	    jadd(o, "veths", jnum(st->veths)) &&
	    jadd(o, "qdiscs", jnum(st->qdiscs)) &&
	    jadd(o, "neighbours", jnum(st->neighbours)) &&
	    jadd(o, "requests", jnum(st->requests)) &&
	    jadd(o, "sysctls", jnum(st->sysctls)) &&
	    jadd(o, "neigh_thresholds_raised",
		 json_object_new_boolean(st->neigh_raised)) &&
	    jadd(t, "namespaces", jfixed(st->t_netns)) &&
	    jadd(t, "links", jfixed(st->t_links)) &&
	    jadd(t, "mpls_input", jfixed(st->t_sysctl)) &&
	    jadd(t, "addresses", jfixed(st->t_addrs)) &&
	    jadd(t, "qdiscs", jfixed(st->t_qdiscs)) &&
	    jadd(t, "total", jfixed(st->t_total)) && jadd(o, "seconds", t)) {
		puts(jtext(o));
		t = NULL;
	} else {
		fputs("sluicectl: out of memory\n", stderr);
	}
	json_object_put(t);
	json_object_put(o);
}

/* --multipath and --node-rate, checked against the qdisc options @q. */
static int parse_multipath(const struct command *cmd, const struct fargs *a,
			   struct sluice_fabric_state *s,
			   const struct sluice_fabric_qdisc *q)
{
	const char *mp = a->val[OPT_MULTIPATH], *nr = a->val[OPT_NODE_RATE];
	char err[SLUICE_ERRLEN];
	int mode;

	if (mp) {
		mode = sluice_multipath_parse(mp);
		if (mode < 0)
			return cmd_error(cmd, "--multipath: \"%s\" is not hash, hash5, exact, wcmp or sport",
					       mp);
		s->multipath = mode;
	}
	if (sluice_fabric_multipath_check(s->multipath, s->qdisc ? q : NULL,
					  err, sizeof(err)))
		return cmd_error(cmd, "--multipath %s: %s",
				       sluice_multipath_name(s->multipath),
				       err);
	if (!nr)
		return 0;
	if (!s->qdisc)
		return cmd_error(cmd, "--node-rate shapes the nodes' ports in their qdiscs: not with --no-qdisc");
	if (!*nr || snprintf(s->node_rates, sizeof(s->node_rates), "%s", nr) >=
	    (int)sizeof(s->node_rates))
		return cmd_error(cmd, "--node-rate: give NODE=RATE[,NODE=RATE...] in fewer than %d characters",
				       SLUICE_MP_NODE_RATES_MAX);
	return 0;
}

/* What "fabric up" does for TCP after the ports are made. */
struct tcp_opts {
	bool		ecn_auto;
	uint64_t	rtt_ns;		/* --host-rtt, or measured */
	char		how[256];	/* how the round trip was had */
};

static int parse_tcp(const struct command *cmd, const struct fargs *a,
		     struct sluice_fabric_state *s,
		     const struct sluice_fabric_qdisc *q, struct tcp_opts *t)
{
	const char *ecn = a->val[OPT_ECN], *hp = a->val[OPT_HOST_PROFILE];
	__u64 rtt;
	__u32 k;
	int kind;

	memset(t, 0, sizeof(*t));
	if (ecn && !s->qdisc)
		return cmd_error(cmd, "--ecn marks in the sluice qdisc: not with --no-qdisc");
	if (ecn && !strcmp(ecn, "auto"))
		t->ecn_auto = true;
	else if (ecn && strcmp(ecn, "off") &&
		 (sluice_parse_size(ecn, &k) || !k ||
		  k > TC_SLUICE_MAX_LIMIT))
		return cmd_error(cmd, "--ecn: \"%s\" is not auto, off or a size of 1 to %u bytes (30kb, 7500)",
				       ecn, TC_SLUICE_MAX_LIMIT);
	else if (ecn && strcmp(ecn, "off"))
		s->ecn = k;
	if (hp) {
		kind = sluice_host_profile_parse(hp);
		if (kind < 0)
			return cmd_error(cmd, "--host-profile: \"%s\" is not bolt or off",
					       hp);
		s->host_profile = kind;
	}
	if (a->val[OPT_HOST_RTT]) {
		rtt = a->num[OPT_HOST_RTT];
		if (!t->ecn_auto && !s->host_profile)
			return cmd_error(cmd, "--host-rtt sizes --ecn auto and --host-profile bolt: give one of them");
		t->rtt_ns = rtt;
		snprintf(t->how, sizeof(t->how), "given");
	}
	if ((t->ecn_auto || s->host_profile) &&
	    (!s->qdisc || !(q->link.present & SLUICE_QOPT_RATE) ||
	     !q->link.rate))
		return cmd_error(cmd, "--%s needs the links' --rate: the bandwidth-delay product is its product with the round trip",
				       t->ecn_auto ? "ecn auto" : "host-profile bolt");
	return 0;
}

/* The fabric's round trip when needed, then ECN, then the host profile. */
static int tcp_up(struct sluice_fabric_state *s,
		  const struct sluice_fabric_qdisc *q, struct tcp_opts *t)
{
	char err[SLUICE_ERRLEN];
	struct sluice_host_profile p;
	struct sluice_host_apply res;
	uint32_t done;

	for (uint32_t u = 0; s->host_profile && u < s->g.n_nodes; u++)
		if (sluice_fabric_self_hosted(&s->f, u)) {
			snprintf(err, sizeof(err),
				 "--host-profile: %s is a server, whose routes route load replaces: load the routes, then sluicectl host bolt --fabric %s",
				 s->g.nodes[u].name, s->name);
			goto fail;
		}
	/*
	 * Lanes share each link by DWRR, equal quanta: under strict priority
	 * a higher lane's standing queue (TCP over PFC does not back off)
	 * starves a lower lane on every link they share (experiment bolt's
	 * lanes part measured 31 % of the aggregate lost).
	 */
	if (q->lanes > 1) {
		struct sluice_copt c = {
			.present = SLUICE_COPT_QUANTUM,
			.quantum = SLUICE_FABRIC_HOST_MTU + 14,
		};

		if (sluice_fabric_classes(&s->f, q, &c, err, sizeof(err)))
			goto fail;
	}
	if ((t->ecn_auto || s->host_profile) && !t->rtt_ns &&
	    sluice_fabric_rtt(&s->f, false, SLUICE_FABRIC_HOST_MTU,
			      &t->rtt_ns, t->how, sizeof(t->how), err,
			      sizeof(err)))
		goto fail;
	if (t->ecn_auto)
		s->ecn = sluice_ecn_threshold(q->link.rate, t->rtt_ns,
					      SLUICE_FABRIC_HOST_MTU);
	if (s->ecn && sluice_fabric_ecn(&s->f, q, s->ecn, err, sizeof(err)))
		goto fail;
	if (s->host_profile) {
		if (sluice_host_profile_bolt(&p, q->link.rate, t->rtt_ns,
					     SLUICE_FABRIC_HOST_MTU, err,
					     sizeof(err)) ||
		    sluice_fabric_host_profile(&s->f, NULL, NULL, 0, &p, &res,
					       &done, err,
					       sizeof(err)))
			goto fail;
		s->initcwnd = p.initcwnd;
	}
	return s->ecn || s->host_profile ? fabric_state_save(s) : 0;
fail:
	fprintf(stderr, "sluicectl: fabric %s: %s\n", s->name, err);
	return EXIT_RUNTIME;
}

static int up_main(const struct command *cmd, int argc, char **argv)
{
	struct tcp_opts tcp;
	struct sluice_fabric_stats st;
	struct sluice_fabric_qdisc q = { 0 };
	struct sluice_fabric_state s, old;
	char err[SLUICE_ERRLEN], *real;
	uint64_t h, *link_rate = NULL;
	struct fargs a;
	int ret;

	ret = parse(cmd, &up_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (a.n_files != 1)
		return cmd_error(cmd, a.n_files ? "one topology, not %d" :
				       "no topology given%.0d", a.n_files);
	memset(&s, 0, sizeof(s));
	snprintf(s.name, sizeof(s.name), "%s", a.name);
	s.hosts_per_switch = SLUICE_FABRIC_HOSTS_DEFAULT;
	if (a.val[OPT_HOSTS])
		s.hosts_per_switch = a.num[OPT_HOSTS];
	if (a.val[OPT_FC]) {
		ret = sluice_fabric_fc_parse(a.val[OPT_FC]);
		if (ret <= SLUICE_FABRIC_FC_NONE)
			return cmd_error(cmd, "--flow-control: \"%s\" is not pfc, pfc-star or portfc",
					 a.val[OPT_FC]);
		s.fc = ret;
	}
	if (a.val[OPT_PORTFC_RTT] && s.fc != SLUICE_FABRIC_FC_PORTFC)
		return cmd_error(cmd, "--portfc-rtt goes with --flow-control portfc");
	if (a.val[OPT_LANES]) {
		h = a.num[OPT_LANES];
		if (a.val[OPT_NO_QDISC])
			return cmd_error(cmd, "--lanes needs every port's qdisc to keep the lanes apart: not with --no-qdisc");
		s.lanes = h;
	}
	ret = qdisc_args_words(cmd, opts + OPT_Q_FIRST, a.val + OPT_Q_FIRST,
			       a.num + OPT_Q_FIRST, s.qdisc_args,
			       sizeof(s.qdisc_args));
	if (ret)
		return ret;
	if (a.val[OPT_NO_QDISC] && (s.qdisc_args[0] || s.fc))
		return cmd_error(cmd, "--no-qdisc takes no qdisc options and no flow control");
	if (a.val[OPT_PORTFC_RTT]) {
		char rtt[32];

		snprintf(rtt, sizeof(rtt), "%lluns",
			 (unsigned long long)a.num[OPT_PORTFC_RTT]);
		if (qdisc_args_add(cmd, s.qdisc_args, sizeof(s.qdisc_args),
				   "portfc-rtt", rtt))
			return EXIT_USAGE;
	}
	s.qdisc = !a.val[OPT_NO_QDISC];
	if (s.qdisc) {
		ret = qdisc_args_parse(s.qdisc_args, &q);
		if (ret)
			return ret;
		q.fc = s.fc;
		q.lanes = s.lanes;
	}
	ret = parse_multipath(cmd, &a, &s, &q);
	if (ret)
		return ret;
	ret = parse_tcp(cmd, &a, &s, &q, &tcp);
	if (ret)
		return ret;
	ret = load_topo(a.files[0], &s.g);
	if (ret)
		return ret;
	real = realpath(a.files[0], NULL);
	snprintf(s.topo_path, sizeof(s.topo_path), "%s",
		 real ? real : a.files[0]);
	free(real);
	s.hash = sluice_graph_hash(&s.g);
	if (sluice_fabric_plan(&s.f, &s.g, s.name, s.hosts_per_switch, err,
			       sizeof(err))) {
		fprintf(stderr, "sluicectl: %s: %s\n", a.files[0], err);
		sluice_graph_free(&s.g);
		return EXIT_RUNTIME;
	}
	s.f.multipath = s.multipath;
	if (s.node_rates[0] &&
	    sluice_fabric_link_rates(&s.g, q.link.rate, s.node_rates,
				     &link_rate, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: --node-rate: %s\n", err);
		ret = EXIT_USAGE;
		goto out;
	}
	q.link_rate = link_rate;
	if (s.qdisc && sluice_fabric_fc_apply(&s.f, &q, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: ");
		if (s.fc || !s.lanes)
			fprintf(stderr, "--flow-control %s%s",
				sluice_fabric_fc_name(s.fc), s.lanes ? " " : "");
		if (s.lanes)
			fprintf(stderr, "--lanes %u", s.lanes);
		fprintf(stderr, ": %s\n", err);
		ret = EXIT_USAGE;
		goto out;
	}
	ret = fabric_state_load(s.name, &old, true);
	if (!ret) {
		sluice_fabric_state_free(&old);
		fprintf(stderr, "sluicectl: fabric %s is up (%s/%s): sluicectl fabric down --name %s\n",
			s.name, sluice_fabric_run_dir(), s.name, s.name);
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (ret != -ENOENT) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	/* the state first: "fabric down" must find what a crash leaves */
	ret = sluice_fabric_state_up(&s, s.qdisc ? &q : NULL, &st, err,
				     sizeof(err));
	if (ret) {
		fprintf(stderr, "sluicectl: %s\n", err);
		ret = EXIT_RUNTIME;
		goto out;
	}
	ret = tcp_up(&s, &q, &tcp);
	if (ret) {
		if (sluice_fabric_state_down(&s, NULL, err, sizeof(err)))
			fprintf(stderr, "sluicectl: %s\n", err);
		goto out;
	}
	print_up(&s, &st, a.val[OPT_JSON], a.val[OPT_VERBOSE]);
	if (tcp.how[0] && !a.val[OPT_JSON])
		printf("round trip %.3f ms (%s)%s%.0u%s%s%.0u\n",
		       tcp.rtt_ns / 1e6, tcp.how,
		       s.ecn ? "; ecn " : "", s.ecn, s.ecn ? " bytes" : "",
		       s.host_profile ? "; host profile bolt, initcwnd " : "",
		       s.initcwnd);
out:
	free(link_rate);
	sluice_fabric_state_free(&s);
	return ret;
}

/*
 * Without a state, the namespaces named NAME-... that no other fabric's
 * state claims: what a fabric whose state was lost left behind.
 */
static int down_orphans(const char *name, uint32_t *removed)
{
	char prefix[SLUICE_FABRIC_NAME_MAX + 1], err[SLUICE_ERRLEN];
	char ns[SLUICE_NETNS_NAME_MAX], **names, **others;
	struct sluice_fabric_state other;
	size_t n, n_others, i, j;
	uint32_t u, hi;
	bool theirs;
	int ret = 0;

	*removed = 0;
	snprintf(prefix, sizeof(prefix), "%s-", name);
	if (sluice_netns_list(prefix, &names, &n, err, sizeof(err)) ||
	    sluice_netns_list("", &others, &n_others, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	sluice_netns_list_free(others, n_others);
	for (i = 0; i < n; i++) {
		theirs = false;
		/* a fabric "a-b" owns "a-b-s1", not fabric "a" */
		for (j = strlen(prefix); !theirs && names[i][j]; j++) {
			char other_name[SLUICE_FABRIC_NAME_MAX];

			if (names[i][j] != '-' || j >= sizeof(other_name))
				continue;
			memcpy(other_name, names[i], j);
			other_name[j] = '\0';
			if (fabric_state_load(other_name, &other, true))
				continue;
			for (u = 0; !theirs && u < other.g.n_nodes; u++) {
				sluice_fabric_switch_ns(&other.f, u, ns, sizeof(ns));
				theirs = !strcmp(ns, names[i]);
				for (hi = 0; !theirs && hi < other.f.hosts[u]; hi++) {
					sluice_fabric_host_ns(&other.f, u, hi, ns,
							      sizeof(ns));
					theirs = !strcmp(ns, names[i]);
				}
			}
			sluice_fabric_state_free(&other);
		}
		if (theirs)
			continue;
		if (sluice_netns_delete(names[i], err, sizeof(err))) {
			fprintf(stderr, "sluicectl: %s\n", err);
			ret = EXIT_RUNTIME;
		} else {
			++*removed;
		}
	}
	sluice_netns_list_free(names, n);
	return ret;
}

static int down_main(const struct command *cmd, int argc, char **argv)
{
	char err[SLUICE_ERRLEN];
	struct sluice_fabric_state s;
	uint32_t removed = 0;
	json_object *o;
	struct fargs a;
	int ret;

	ret = parse(cmd, &name_json_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (a.n_files)
		return cmd_error(cmd, "unexpected argument \"%s\"",
				       a.files[0]);
	ret = fabric_state_load(a.name, &s, true);
	if (ret == -ENOENT) {
		ret = down_orphans(a.name, &removed);
	} else if (!ret) {
		if (sluice_fabric_state_down(&s, &removed, err,
					     sizeof(err))) {
			fprintf(stderr, "sluicectl: %s\n", err);
			ret = EXIT_RUNTIME;
		}
		sluice_fabric_state_free(&s);
	}
	if (ret)
		return ret;
	if (a.val[OPT_JSON]) {
		/* json-c escapes the name, which printf did not */
		o = json_object_new_object();
		return jprint(o, o && jadd(o, "name",
					   json_object_new_string(a.name)) &&
			      jadd(o, "namespaces_removed", jnum(removed)));
	}
	printf("fabric %s down: %u namespaces removed\n", a.name, removed);
	return 0;
}

static void addr_text(uint32_t addr, int len, char *buf, size_t size)
{
	char a[16];

	sluice_ipv4_format(addr, a, sizeof(a));
	if (len >= 0)
		snprintf(buf, size, "%s/%d", a, len);
	else
		snprintf(buf, size, "%s", a);
}

/* Each port's options as text, SLUICE_QOPT_STRLEN apart; NULL: no memory. */
static char *port_texts(const struct sluice_fabric_port_qopt *p, uint32_t n)
{
	char *t = calloc(n ? n : 1, SLUICE_QOPT_STRLEN);
	uint32_t k;

	for (k = 0; t && k < n; k++)
		if (sluice_qopt_format(&p[k].o, t + (size_t)k * SLUICE_QOPT_STRLEN,
				       SLUICE_QOPT_STRLEN))
			snprintf(t + (size_t)k * SLUICE_QOPT_STRLEN,
				 SLUICE_QOPT_STRLEN, "?");
	return t;
}

/*
 * "ports N qdisc OPTIONS" for each set of options the ports hold, the most
 * common first; the others name their ports ("on s1/l0 s2/h1").
 */
static void show_port_qdiscs(const struct sluice_fabric_state *s,
			     const struct sluice_fabric_port_qopt *p,
			     uint32_t n, const char *texts)
{
	uint32_t *group = calloc(n ? n : 1, sizeof(*group));
	uint32_t *count = calloc(n ? n : 1, sizeof(*count));
	uint32_t k, j, best = 0;

	if (!group || !count) {
		fputs("sluicectl: out of memory\n", stderr);
		goto out;
	}
	/* group[k]: the first port with k's text */
	for (k = 0; k < n; k++) {
		for (j = 0; j < k && strcmp(texts + (size_t)j * SLUICE_QOPT_STRLEN,
					    texts + (size_t)k * SLUICE_QOPT_STRLEN); j++)
			;
		group[k] = j;
		count[j]++;
		if (count[j] > count[best])
			best = j;
	}
	if (n)
		printf("ports %u qdisc sluice %s\n", count[best],
		       texts + (size_t)best * SLUICE_QOPT_STRLEN);
	for (k = 0; k < n; k++) {
		if (group[k] != k || k == best)
			continue;
		printf("ports %u qdisc sluice %s on", count[k],
		       texts + (size_t)k * SLUICE_QOPT_STRLEN);
		for (j = k; j < n; j++)
			if (group[j] == k)
				printf(" %s/%s", s->g.nodes[p[j].node].name,
				       p[j].dev);
		putchar('\n');
	}
out:
	free(group);
	free(count);
}

static void show_text(const struct sluice_fabric_state *s,
		      const struct sluice_fabric_port_qopt *p, uint32_t n,
		      const char *texts)
{
	const struct sluice_graph *g = &s->g;
	char ns[SLUICE_NETNS_NAME_MAX], name[SLUICE_NETNS_NAME_MAX];
	char a[24], b[24];
	uint32_t u, i, k, l, servers = 0;

	printf("fabric %s topology %s hash %016llx\n", s->name, s->topo_path,
	       (unsigned long long)s->hash);
	for (u = 0; u < g->n_nodes; u++)
		servers += sluice_fabric_self_hosted(&s->f, u);
	/* as before for fabrics of switches: servers, flow control if any */
	printf("switches %u", g->n_nodes - servers);
	if (servers)
		printf(" servers %u", servers);
	printf(" hosts %u links %u", s->f.n_hosts, g->n_links);
	if (s->fc != SLUICE_FABRIC_FC_NONE)
		printf(" flow-control %s", sluice_fabric_fc_name(s->fc));
	if (s->ecn)
		printf(" ecn %u", s->ecn);
	if (s->host_profile)
		printf(" host-profile %s initcwnd %u",
		       sluice_host_profile_name(s->host_profile), s->initcwnd);
	if (s->lanes)
		printf(" lanes %u", s->lanes);
	if (s->multipath != SLUICE_MP_HASH)
		printf(" multipath %s", sluice_multipath_name(s->multipath));
	if (s->node_rates[0])
		printf(" node-rate %s", s->node_rates);
	printf(" qdisc %s%s%s\n", s->qdisc ? "sluice" : "none",
	       s->qdisc_args[0] ? " " : "", s->qdisc_args);
	if (texts)
		show_port_qdiscs(s, p, n, texts);
	for (u = 0; u < g->n_nodes; u++) {
		bool self = sluice_fabric_self_hosted(&s->f, u);

		sluice_fabric_switch_ns(&s->f, u, ns, sizeof(ns));
		printf("%s %s netns %s %s ports", self ? "server" : "switch",
		       g->nodes[u].name, ns,
		       sluice_netns_exists(ns) ? "up" : "missing");
		for (k = 0; k < sluice_graph_degree(g, u); k++)
			printf(" l%u", g->adj[g->off[u] + k].link);
		for (i = 0; !self && i < s->f.hosts[u]; i++)
			printf(" h%u", i);
		if (self) {
			addr_text(sluice_fabric_host_addr(u, 0, true), 32, a,
				  sizeof(a));
			printf(" address %s (lo: its own host)", a);
		}
		putchar('\n');
	}
	for (u = 0; u < g->n_nodes; u++)
		for (i = 0; !sluice_fabric_self_hosted(&s->f, u) &&
		     i < s->f.hosts[u]; i++) {
			sluice_fabric_host_ns(&s->f, u, i, ns, sizeof(ns));
			sluice_fabric_host_name(&s->f, u, i, name, sizeof(name));
			addr_text(sluice_fabric_host_addr(u, i, true), 31, a,
				  sizeof(a));
			addr_text(sluice_fabric_host_addr(u, i, false), -1, b,
				  sizeof(b));
			printf("host %s netns %s %s eth0 %s via %s (%s h%u)\n",
			       name, ns, sluice_netns_exists(ns) ? "up" : "missing",
			       a, b, g->nodes[u].name, i);
		}
	for (l = 0; l < g->n_links; l++) {
		addr_text(sluice_fabric_link_addr(l, 0), 31, a, sizeof(a));
		addr_text(sluice_fabric_link_addr(l, 1), 31, b, sizeof(b));
		printf("link %u %s l%u %s label %d -- %s l%u %s label %d\n", l,
		       g->nodes[g->links[l].a].name, l, a,
		       SLUICE_FABRIC_LABEL_BASE +
		       sluice_fabric_port_index(g, g->links[l].a, l),
		       g->nodes[g->links[l].b].name, l, b,
		       SLUICE_FABRIC_LABEL_BASE +
		       sluice_fabric_port_index(g, g->links[l].b, l));
	}
}

static json_object *jstr(const char *s)
{
	return json_object_new_string(s);
}

/* {"spine0": 380000000, ...}: each --node-rate in bits/s; {} if none. */
static json_object *node_rates_json(const struct sluice_fabric_state *s)
{
	json_object *o = json_object_new_object();
	char err[SLUICE_ERRLEN];
	uint64_t *rate;
	uint32_t u;
	bool ok = o;

	if (!o || !s->node_rates[0])
		return o;
	rate = calloc(s->g.n_nodes, sizeof(*rate));
	/* the state's rates were checked as it was read */
	ok = rate && !sluice_node_rates_parse(&s->g, s->node_rates, UINT64_MAX,
					      rate, err, sizeof(err));
	for (u = 0; ok && u < s->g.n_nodes; u++)
		ok = !rate[u] || jadd(o, s->g.nodes[u].name, jnum(rate[u]));
	free(rate);
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

/* [{"node": "s1", "dev": "l0", "options": "classes 8 ..."}, ...] */
static json_object *port_qdiscs_json(const struct sluice_fabric_state *s,
				     const struct sluice_fabric_port_qopt *p,
				     uint32_t n, const char *texts)
{
	json_object *arr = json_object_new_array(), *e;
	bool ok = arr;
	uint32_t k;

	for (k = 0; ok && k < n; k++) {
		e = json_object_new_object();
		if (!e || json_object_array_add(arr, e)) {
			json_object_put(e);
			ok = false;
			break;
		}
		ok = jadd(e, "node", jstr(s->g.nodes[p[k].node].name)) &&
		     jadd(e, "dev", jstr(p[k].dev)) &&
		     jadd(e, "options",
			  jstr(texts + (size_t)k * SLUICE_QOPT_STRLEN));
	}
	if (ok)
		return arr;
	json_object_put(arr);
	return NULL;
}

static json_object *show_json(const struct sluice_fabric_state *s,
			      const struct sluice_fabric_port_qopt *p,
			      uint32_t n, const char *texts)
{
	const struct sluice_graph *g = &s->g;
	char ns[SLUICE_NETNS_NAME_MAX], name[SLUICE_NETNS_NAME_MAX], a[24];
	json_object *o = json_object_new_object(), *arr, *e, *ports;
	uint32_t u, i, k, l;
	bool ok;
	int end;

	ok = o && jadd(o, "name", jstr(s->name)) &&
	     jadd(o, "topology", jstr(s->topo_path)) &&
	     jadd(o, "hash", json_object_new_string_len(a,
			snprintf(a, sizeof(a), "%016llx",
				 (unsigned long long)s->hash))) &&
	     jadd(o, "qdisc", json_object_new_boolean(s->qdisc)) &&
	     jadd(o, "qdisc_options", jstr(s->qdisc_args)) &&
	     (!texts || jadd(o, "port_qdiscs",
			     port_qdiscs_json(s, p, n, texts))) &&
	     jadd(o, "flow_control", jstr(sluice_fabric_fc_name(s->fc))) &&
	     jadd(o, "lanes", jnum(s->lanes)) &&
	     jadd(o, "multipath", jstr(sluice_multipath_name(s->multipath))) &&
	     jadd(o, "node_rates", node_rates_json(s)) &&
	     jadd(o, "ecn", jnum(s->ecn)) &&
	     jadd(o, "host_profile",
		  jstr(sluice_host_profile_name(s->host_profile))) &&
	     jadd(o, "initcwnd", jnum(s->initcwnd)) &&
	     jadd(o, "switches", arr = json_object_new_array());
	for (u = 0; ok && u < g->n_nodes; u++) {
		sluice_fabric_switch_ns(&s->f, u, ns, sizeof(ns));
		e = json_object_new_object();
		ok = e && !json_object_array_add(arr, e) &&
		     jadd(e, "name", jstr(g->nodes[u].name)) &&
		     jadd(e, "netns", jstr(ns)) &&
		     jadd(e, "up", json_object_new_boolean(sluice_netns_exists(ns))) &&
		     jadd(e, "server", json_object_new_boolean(sluice_fabric_self_hosted(&s->f, u))) &&
		     jadd(e, "ports", ports = json_object_new_array());
		for (k = 0; ok && k < sluice_graph_degree(g, u); k++) {
			l = g->adj[g->off[u] + k].link;
			snprintf(name, sizeof(name), "l%u", l);
			ok = !json_object_array_add(ports, jstr(name));
		}
		for (i = 0; ok && !sluice_fabric_self_hosted(&s->f, u) &&
		     i < s->f.hosts[u]; i++) {
			snprintf(name, sizeof(name), "h%u", i);
			ok = !json_object_array_add(ports, jstr(name));
		}
	}
	ok = ok && jadd(o, "hosts", arr = json_object_new_array());
	for (u = 0; ok && u < g->n_nodes; u++)
		for (i = 0; ok && i < s->f.hosts[u]; i++) {
			sluice_fabric_host_ns(&s->f, u, i, ns, sizeof(ns));
			sluice_fabric_host_name(&s->f, u, i, name, sizeof(name));
			e = json_object_new_object();
			ok = e && !json_object_array_add(arr, e) &&
			     jadd(e, "name", jstr(name)) &&
			     jadd(e, "netns", jstr(ns)) &&
			     jadd(e, "up", json_object_new_boolean(sluice_netns_exists(ns))) &&
			     jadd(e, "switch", jstr(g->nodes[u].name)) &&
			     jadd(e, "port", json_object_new_string_len(a,
					sluice_fabric_self_hosted(&s->f, u) ?
					snprintf(a, sizeof(a), "lo") :
					snprintf(a, sizeof(a), "h%u", i)));
			if (!ok)
				break;
			addr_text(sluice_fabric_host_addr(u, i, true), -1, a,
				  sizeof(a));
			ok = jadd(e, "address", jstr(a));
			if (sluice_fabric_self_hosted(&s->f, u)) {
				/* a server is its own host: no gateway */
				ok = ok && !json_object_object_add(e, "gateway", NULL);
				continue;
			}
			addr_text(sluice_fabric_host_addr(u, i, false), -1, a,
				  sizeof(a));
			ok = ok && jadd(e, "gateway", jstr(a));
		}
	ok = ok && jadd(o, "links", arr = json_object_new_array());
	for (l = 0; ok && l < g->n_links; l++) {
		e = json_object_new_object();
		ok = e && !json_object_array_add(arr, e) &&
		     jadd(e, "id", jnum(l)) &&
		     jadd(e, "dev", json_object_new_string_len(a,
				snprintf(a, sizeof(a), "l%u", l)));
		for (end = 0; ok && end < 2; end++) {
			u = end ? g->links[l].b : g->links[l].a;
			ok = jadd(e, end ? "b" : "a", jstr(g->nodes[u].name));
			addr_text(sluice_fabric_link_addr(l, end), -1, a,
				  sizeof(a));
			ok = ok && jadd(e, end ? "b_address" : "a_address",
					jstr(a)) &&
			     jadd(e, end ? "b_label" : "a_label",
				  jnum(SLUICE_FABRIC_LABEL_BASE +
				       sluice_fabric_port_index(g, u, l)));
		}
	}
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

static int show_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_fabric_port_qopt *ports = NULL;
	char err[SLUICE_ERRLEN], *texts = NULL;
	struct sluice_fabric_state s;
	uint32_t n_ports = 0;
	json_object *o;
	struct fargs a;
	int ret;

	ret = parse(cmd, &name_json_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (a.n_files)
		return cmd_error(cmd, "unexpected argument \"%s\"",
				       a.files[0]);
	ret = fabric_state_load(a.name, &s, false);
	if (ret)
		return EXIT_RUNTIME;
	/*
	 * What the ports hold now; without it (no root, say) the rest is
	 * still shown, and the exit status says it is incomplete.
	 */
	if (sluice_fabric_port_qopts(&s.f, &ports, &n_ports, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: fabric %s: the ports' qdiscs: %s\n",
			s.name, err);
		ret = EXIT_RUNTIME;
	} else if (!(texts = port_texts(ports, n_ports))) {
		fputs("sluicectl: out of memory\n", stderr);
		ret = EXIT_RUNTIME;
	}
	if (a.val[OPT_JSON]) {
		o = show_json(&s, ports, n_ports, texts);
		if (o)
			puts(jtext(o));
		else
			fputs("sluicectl: out of memory\n", stderr);
		if (!o)
			ret = EXIT_RUNTIME;
		json_object_put(o);
	} else {
		show_text(&s, ports, n_ports, texts);
	}
	free(texts);
	free(ports);
	sluice_fabric_state_free(&s);
	return ret;
}

/* exec takes its options before NODE; everything after "--" is the command. */
static int exec_main(const struct command *cmd, int argc, char **argv)
{
	char err[SLUICE_ERRLEN], ns[SLUICE_NETNS_NAME_MAX];
	struct sluice_fabric_state s;
	int dash, ret;
	uint32_t u, h;
	struct fargs a;

	for (dash = 1; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	ret = parse(cmd, &exec_spec, dash, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (a.n_files != 1)
		return cmd_error(cmd, a.n_files ? "one NODE, not %d" :
				       "no NODE given%.0d", a.n_files);
	if (dash >= argc - 1)
		return cmd_error(cmd, "no command given after \"--\"");
	ret = fabric_state_load(a.name, &s, false);
	if (ret)
		return EXIT_RUNTIME;
	if (sluice_fabric_find(&s.f, a.files[0], &u, &h)) {
		fprintf(stderr, "sluicectl: fabric %s has no switch or host \"%s\"\n",
			a.name, a.files[0]);
		sluice_fabric_state_free(&s);
		return EXIT_RUNTIME;
	}
	if (h == SLUICE_NONE)
		sluice_fabric_switch_ns(&s.f, u, ns, sizeof(ns));
	else
		sluice_fabric_host_ns(&s.f, u, h, ns, sizeof(ns));
	sluice_fabric_state_free(&s);
	fflush(stdout);
	ret = sluice_netns_exec(ns, argv + dash + 1, err, sizeof(err));
	fprintf(stderr, "sluicectl: %s\n", err);
	/* as a shell: 127 for a command not found, 126 if it cannot run */
	return ret == -ENOENT ? 127 : 126;
}

static void stats_text(const char *node, const struct sluice_port_counters *p,
		       uint32_t n)
{
	uint32_t k, c;
	bool drops;

	for (k = 0; k < n; k++) {
		printf("%s %s tx %llu rx %llu", node, p[k].dev,
		       (unsigned long long)p[k].tx_packets,
		       (unsigned long long)p[k].rx_packets);
		if (p[k].tx_dropped || p[k].rx_dropped)
			printf(" dropped tx %llu rx %llu",
			       (unsigned long long)p[k].tx_dropped,
			       (unsigned long long)p[k].rx_dropped);
		drops = false;
		for (c = 0; c < p[k].classes; c++) {
			drops |= p[k].cls_drops[c] != 0;
			if (p[k].cls_packets[c])
				printf(" class%u %llu", c,
				       (unsigned long long)p[k].cls_packets[c]);
		}
		for (c = 0; drops && c < p[k].classes; c++)
			if (p[k].cls_drops[c])
				printf(" class%u-drops %llu", c,
				       (unsigned long long)p[k].cls_drops[c]);
		putchar('\n');
	}
}

static bool stats_json(json_object *arr, const char *node,
		       const struct sluice_port_counters *p, uint32_t n)
{
	json_object *e, *cls, *ce;
	uint32_t k, c;
	bool ok = true;

	for (k = 0; ok && k < n; k++) {
		e = json_object_new_object();
		ok = e && !json_object_array_add(arr, e) &&
		     jadd(e, "node", jstr(node)) &&
		     jadd(e, "dev", jstr(p[k].dev)) &&
		     jadd(e, "tx_packets", jnum(p[k].tx_packets)) &&
		     jadd(e, "tx_bytes", jnum(p[k].tx_bytes)) &&
		     jadd(e, "tx_dropped", jnum(p[k].tx_dropped)) &&
		     jadd(e, "rx_packets", jnum(p[k].rx_packets)) &&
		     jadd(e, "rx_bytes", jnum(p[k].rx_bytes)) &&
		     jadd(e, "rx_dropped", jnum(p[k].rx_dropped)) &&
		     jadd(e, "classes", cls = json_object_new_array());
		for (c = 0; ok && c < p[k].classes; c++) {
			ce = json_object_new_object();
			ok = ce && !json_object_array_add(cls, ce) &&
			     jadd(ce, "class", jnum(c)) &&
			     jadd(ce, "packets", jnum(p[k].cls_packets[c])) &&
			     jadd(ce, "bytes", jnum(p[k].cls_bytes[c])) &&
			     jadd(ce, "drops", jnum(p[k].cls_drops[c])) &&
			     jadd(ce, "backlog", jnum(p[k].cls_backlog[c]));
		}
	}
	return ok;
}

static int stats_main(const struct command *cmd, int argc, char **argv)
{
	char err[SLUICE_ERRLEN], ns[SLUICE_NETNS_NAME_MAX];
	char node[SLUICE_NETNS_NAME_MAX];
	struct sluice_port_counters *p;
	json_object *arr = NULL;
	struct sluice_rtnl *rt;
	struct sluice_fabric_state s;
	uint32_t u, h, n, k, count;
	struct fargs a;
	int ret, self;

	ret = parse(cmd, &stats_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (fabric_state_load(a.name, &s, false))
		return EXIT_RUNTIME;
	for (k = 0; k < (uint32_t)a.n_files; k++)
		if (sluice_fabric_find(&s.f, a.files[k], &u, &h)) {
			fprintf(stderr, "sluicectl: fabric %s has no switch or host \"%s\"\n",
				a.name, a.files[k]);
			sluice_fabric_state_free(&s);
			return EXIT_RUNTIME;
		}
	self = sluice_netns_self(err, sizeof(err));
	if (self < 0) {
		fprintf(stderr, "sluicectl: %s\n", err);
		sluice_fabric_state_free(&s);
		return EXIT_RUNTIME;
	}
	if (a.val[OPT_JSON])
		arr = json_object_new_array();
	count = a.n_files ? (uint32_t)a.n_files : s.g.n_nodes;
	for (k = 0; !ret && k < count; k++) {
		if (a.n_files) {
			sluice_fabric_find(&s.f, a.files[k], &u, &h);
			snprintf(node, sizeof(node), "%s", a.files[k]);
		} else {
			u = k;
			h = SLUICE_NONE;
			snprintf(node, sizeof(node), "%s", s.g.nodes[u].name);
		}
		if (h == SLUICE_NONE)
			sluice_fabric_switch_ns(&s.f, u, ns, sizeof(ns));
		else
			sluice_fabric_host_ns(&s.f, u, h, ns, sizeof(ns));
		ret = sluice_rtnl_open_in(ns, self, &rt, err, sizeof(err));
		if (!ret) {
			ret = sluice_port_counters_read(rt, &p, &n, err,
							sizeof(err));
			sluice_rtnl_close(rt);
		}
		if (ret) {
			fprintf(stderr, "sluicectl: %s: %s\n", node, err);
			ret = EXIT_RUNTIME;
			break;
		}
		if (arr && !stats_json(arr, node, p, n)) {
			fputs("sluicectl: out of memory\n", stderr);
			ret = EXIT_RUNTIME;
		} else if (!arr) {
			stats_text(node, p, n);
		}
		free(p);
	}
	if (arr && !ret)
		puts(jtext(arr));
	json_object_put(arr);
	close(self);
	sluice_fabric_state_free(&s);
	return ret;
}
