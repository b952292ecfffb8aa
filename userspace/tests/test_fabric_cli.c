// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "sluicectl fabric" and "sluicectl route load/unload/show" as a user runs
 * them, as far as a host without namespaces allows (the VM selftest
 * sluice_fabric.sh does the rest): usage errors, what fabric up refuses
 * before touching the kernel, fabric show of a fabric's state (kept in a
 * scratch $SLUICE_RUN_DIR, its namespaces missing), fabric down clearing
 * it, and route load refusing a file of another topology, an unknown
 * switch or missing namespaces with nothing changed; --lanes: what fabric
 * up refuses, the state and show, and route load refusing a file of more
 * lanes than the fabric carries; --multipath and --node-rate: what fabric
 * up and route load refuse, the state and show, and route sport's ports.
 * Nothing here writes
 * to the host's network configuration: every command that would stops
 * earlier, at the error under test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "ktap.h"

/* FC's Fig. 4a testbed (selftests/topo/fc-testbed.json). */
static const char testbed[] =
	"{\"format\":\"sluice-topology\",\"version\":1,\"layers\":[1,2,1],"
	"\"nodes\":[{\"name\":\"s1\",\"hosts\":4},{\"name\":\"s2\",\"hosts\":4},"
	"{\"name\":\"s3\",\"hosts\":4},{\"name\":\"s4\",\"hosts\":4}],"
	"\"links\":[{\"a\":0,\"b\":1,\"la\":1,\"lb\":2},{\"a\":0,\"b\":1,\"la\":2,\"lb\":3},"
	"{\"a\":1,\"b\":2,\"la\":1,\"lb\":2},{\"a\":1,\"b\":2,\"la\":2,\"lb\":3},"
	"{\"a\":2,\"b\":3,\"la\":1,\"lb\":2},{\"a\":2,\"b\":3,\"la\":2,\"lb\":3},"
	"{\"a\":3,\"b\":0,\"la\":1,\"lb\":2},{\"a\":3,\"b\":0,\"la\":2,\"lb\":3}]}";

static void write_file(const char *name, const char *text)
{
	FILE *f = fopen(cli_path(name), "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The state "fabric up --name t --hosts-per-switch 1 --rate 1mbit" leaves. */
static void make_state(void)
{
	char dir[4096];
	struct run r;

	snprintf(dir, sizeof(dir), "%s", cli_path("run/t"));
	mkdir(cli_path("run"), 0755);
	mkdir(dir, 0755);
	RUN(&r, "topo", "gen", "ring", "--switches", "3", "--host-ports", "1",
	    "-o", cli_path("run/t/topology.json"));
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "route", "compute", "--topo", cli_path("run/t/topology.json"),
	    "--algo", "ecmp", "-o", cli_path("ring.routes"));
	write_file("run/t/fabric",
		   "sluice-fabric 1\nname t\ntopology /x/ring.json\n"
		   "hash 0000000000000000\nhosts-per-switch 1\n"
		   "qdisc yes rate 1mbit\nend\n");
}

/* Writes fabric t's state, of the ring's hash, @extra lines before "end". */
static void state_with(const char *extra)
{
	char *routes = cli_read_all(cli_path("ring.routes")), *h, text[512];

	h = routes ? strstr(routes, " hash ") : NULL;
	if (!KTAP_EXPECT(h))
		return;
	snprintf(text, sizeof(text),
		 "sluice-fabric 1\nname t\ntopology /x/ring.json\n"
		 "hash %.16s\nhosts-per-switch 1\nqdisc yes rate 1mbit\n%send\n",
		 h + 6, extra);
	write_file("run/t/fabric", text);
	free(routes);
}

static void set_hash(void)
{
	state_with("");
}

static void test_usage(void)
{
	struct run r;

	RUN(&r, "fabric");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "Usage: sluicectl fabric { up TOPOLOGY"));
	RUN(&r, "fabric", "up");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl fabric up: no topology given\n"));
	RUN(&r, "fabric", "up", "a.json", "--hosts-per-switch", "128");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--hosts-per-switch: \"128\" is not a number from 0 to 127"));
	RUN(&r, "fabric", "up", "a.json", "--cable", "3");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--cable and --mtu go with --xoff auto"));
	RUN(&r, "fabric", "up", "a.json", "--no-qdisc", "--pfc", "3");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--no-qdisc takes no qdisc options"));
	RUN(&r, "fabric", "up", "a.json", "--pfc", "3", "--rate", "0");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: qdisc options: "));
	RUN(&r, "fabric", "exec", "s1");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "no command given after \"--\""));
	RUN(&r, "fabric", "exec", "--", "true");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "no NODE given"));
	RUN(&r, "route", "load", "r", "--topo", "t.json");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--topo FILE loads one switch: give --switch NODE"));
	RUN(&r, "route", "load", "r", "--topo", "t.json", "--switch", "s1",
	    "--name", "x");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--name is for a fabric, not with --topo"));
	RUN(&r, "route", "load", "r", "--netns", "x");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--netns is for one switch outside a fabric"));
	RUN(&r, "route", "unload", "--local", "--switch", "s1");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--local takes no --switch"));
	RUN(&r, "route", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "sluicectl route load ROUTES [--name NAME]"));
	/* route load's qdisc options: parsed as fabric up parses them */
	RUN(&r, "route", "load", "r", "--cable", "5");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--cable and --mtu go with --xoff auto"));
	RUN(&r, "route", "load", "r", "--xon", "2Kb", "--xoff", "1Kb");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: qdisc options: \"xon\" must be at most \"xoff\""));
	RUN(&r, "route", "load", "r", "--pfc", "3", "--rate", "0");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: qdisc options: \"pfc 3\" needs a \"rate\" above 0"));
	/* the PFC watchdog's options, in both */
	RUN(&r, "fabric", "up", "a.json", "--watchdog-action", "bogus");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl fabric up: --watchdog-action: \"bogus\" is not drop, forward or alert\n"));
	RUN(&r, "route", "load", "r", "--watchdog", "3", "--rate", "0");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: qdisc options: \"watchdog 3\" needs a \"rate\" above 0"));
	RUN(&r, "route", "load", "r", "--detection-time", "200",
	    "--watchdog-poll", "300ms");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: qdisc options: \"watchdog-poll\" must be at most \"detection-time\" (200ms), not \"300ms\""));
	/* tc's TIME: 0.2s is 200 ms */
	RUN(&r, "route", "load", "r", "--detection-time", "0.2s",
	    "--watchdog-poll", "300000usec");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: qdisc options: \"watchdog-poll\" must be at most \"detection-time\" (200ms), not \"300ms\""));
	RUN(&r, "fabric", "up", "a.json", "--restoration-time", "5");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl fabric up: --restoration-time: \"5\" is not a time from 10ms to 60s in whole milliseconds (a bare number is milliseconds)\n"));
	RUN(&r, "fabric", "up", "a.json", "--watchdog");
	KTAP_EXPECT_INT(r.status, 2);
	/* in-band telemetry's port, in both */
	RUN(&r, "fabric", "up", "a.json", "--int-port", "65536");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: qdisc options: \"int-port\" must be a UDP port, 0..65535 (0: off), not \"65536\""));
	RUN(&r, "route", "load", "r", "--int-port", "udp");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: qdisc options: \"int-port\" must be a UDP port"));
	RUN(&r, "route", "unload", "--rate", "10mbit");
	KTAP_EXPECT_INT(r.status, 2);
	RUN(&r, "route", "load", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "QDISC OPTIONS change the sluice qdisc of every switch port"));
	KTAP_EXPECT(strstr(r.out, "[--rate RATE] [--pfc PRIOS] [--xoff { BYTES | auto }]"));
	KTAP_EXPECT(strstr(r.out, "[--watchdog PRIOS] [--watchdog-action { drop | forward | alert }]"));
	KTAP_EXPECT(strstr(r.out, "[--detection-time TIME] [--restoration-time TIME] [--watchdog-poll TIME] [--int-port PORT]"));
	ktap_result("usage");
}

static void test_up_refusals(void)
{
	struct run r;

	/* a plan the addressing cannot hold: refused before the kernel */
	write_file("big.json", "{\"format\":\"sluice-topology\",\"version\":1,"
		   "\"nodes\":[{\"name\":\"a\",\"hosts\":200},{\"name\":\"b\",\"hosts\":1}],"
		   "\"links\":[{\"a\":0,\"b\":1}]}");
	RUN(&r, "fabric", "up", cli_path("big.json"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "node a has 200 host ports: a fabric gives a switch at most 127 hosts (--hosts-per-switch)"));
	KTAP_EXPECT_INT(access(cli_path("run/sluice"), F_OK), -1);
	/* a fabric of that name is up already */
	make_state();
	set_hash();
	RUN(&r, "fabric", "up", cli_path("run/t/topology.json"), "--name", "t");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "sluicectl: fabric t is up ("));
	KTAP_EXPECT(strstr(r.err, "): sluicectl fabric down --name t\n"));

	/* flow control: checked before anything is made */
	RUN(&r, "topo", "gen", "bcube", "--n", "4", "--k", "1", "-o",
	    cli_path("b41.json"));
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "fabric", "up", cli_path("b41.json"), "--name", "u",
	    "--flow-control", "lossless");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl fabric up: --flow-control: \"lossless\" is not pfc, pfc-star or portfc\n"));
	RUN(&r, "fabric", "up", cli_path("b41.json"), "--name", "u",
	    "--portfc-rtt", "1ms", "--rate", "1mbit");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--portfc-rtt goes with --flow-control portfc\n"));
	RUN(&r, "fabric", "up", cli_path("b41.json"), "--name", "u",
	    "--flow-control", "pfc", "--no-qdisc");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--no-qdisc takes no qdisc options and no flow control\n"));
	RUN(&r, "fabric", "up", cli_path("run/t/topology.json"), "--name", "u",
	    "--flow-control", "portfc", "--rate", "1mbit");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.err, "sluicectl: --flow-control portfc: PortFC needs a BCube topology (sluicectl topo gen bcube), not ring\n");
	RUN(&r, "fabric", "up", cli_path("b41.json"), "--name", "u",
	    "--flow-control", "portfc");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.err, "sluicectl: --flow-control portfc: PortFC's thresholds are derived from the link rate: give --rate\n");
	RUN(&r, "fabric", "up", cli_path("b41.json"), "--name", "u",
	    "--flow-control", "portfc", "--rate", "1mbit", "--pfc", "3");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.err, "sluicectl: --flow-control portfc: PortFC replaces PFC: --pfc, --xoff, --xon and --headroom do not apply\n");
	RUN(&r, "fabric", "up", cli_path("b41.json"), "--name", "u",
	    "--flow-control", "pfc", "--rate", "1mbit", "--pfc", "3,4",
	    "--xoff", "20000");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.err, "sluicectl: --flow-control pfc: plain PFC has one lossless priority, not 2 (pfc-star gives each hop its own)\n");
	RUN(&r, "fabric", "up", cli_path("b41.json"), "--name", "u",
	    "--hosts-per-switch", "2");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "the topology's endpoints are servers, each its own host: --hosts-per-switch does not apply\n"));
	KTAP_EXPECT_INT(access(cli_path("run/u"), F_OK), -1);
	ktap_result("up_refusals");
}

static void test_show(void)
{
	struct run r;

	RUN(&r, "fabric", "show", "--name", "none");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "sluicectl: no fabric none (no "));
	RUN(&r, "fabric", "show", "--name", "t");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "fabric t topology /x/ring.json hash "));
	KTAP_EXPECT(strstr(r.out, "\nswitches 3 hosts 3 links 3 qdisc sluice rate 1mbit\n"
			   "switch s0 netns t-s0 missing ports l0 l2 h0\n"
			   "switch s1 netns t-s1 missing ports l0 l1 h0\n"
			   "switch s2 netns t-s2 missing ports l1 l2 h0\n"
			   "host s0-h0 netns t-s0-h0 missing eth0 10.0.0.1/31 via 10.0.0.0 (s0 h0)\n"
			   "host s1-h0 netns t-s1-h0 missing eth0 10.0.1.1/31 via 10.0.1.0 (s1 h0)\n"
			   "host s2-h0 netns t-s2-h0 missing eth0 10.0.2.1/31 via 10.0.2.0 (s2 h0)\n"
			   "link 0 s0 l0 172.16.0.0/31 label 100 -- s1 l0 172.16.0.1/31 label 100\n"
			   "link 1 s1 l1 172.16.0.2/31 label 101 -- s2 l1 172.16.0.3/31 label 100\n"
			   "link 2 s2 l2 172.16.0.4/31 label 101 -- s0 l2 172.16.0.5/31 label 101\n"));
	RUN(&r, "fabric", "show", "--name", "t", "-j");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "{\"name\":\"s1-h0\",\"netns\":\"t-s1-h0\",\"up\":false,\"switch\":\"s1\",\"port\":\"h0\",\"address\":\"10.0.1.1\",\"gateway\":\"10.0.1.0\"}"));
	KTAP_EXPECT(strstr(r.out, "{\"id\":2,\"dev\":\"l2\",\"a\":\"s2\",\"a_address\":\"172.16.0.4\",\"a_label\":101,\"b\":\"s0\",\"b_address\":\"172.16.0.5\",\"b_label\":101}"));
	RUN(&r, "fabric", "exec", "--name", "t", "s7", "--", "true");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: fabric t has no switch or host \"s7\"\n");
	RUN(&r, "fabric", "stats", "--name", "t", "s0-h1");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: fabric t has no switch or host \"s0-h1\"\n");
	RUN(&r, "fabric", "exec", "--name", "t", "s0-h0", "--", "true");
	KTAP_EXPECT_INT(r.status, 127);
	KTAP_EXPECT_STR(r.err, "sluicectl: network namespace t-s0-h0 does not exist\n");
	ktap_result("show");
}

static void test_route_refusals(void)
{
	struct run r;

	/* routes of another topology */
	write_file("tb.json", testbed);
	RUN(&r, "route", "compute", "--topo", cli_path("tb.json"), "--algo",
	    "fc", "-o", cli_path("tb.routes"));
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "route", "load", cli_path("tb.routes"), "--name", "t");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "the routes belong to another topology (4 nodes, 8 links, hash 7253262d52cfd889; this one has 3, 3, "));
	/* an unknown switch */
	RUN(&r, "route", "load", cli_path("ring.routes"), "--name", "t",
	    "--switch", "s9");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: fabric t has no switch \"s9\"\n");
	RUN(&r, "route", "show", cli_path("ring.routes"), "--topo",
	    cli_path("tb.json"), "--switch", "s9");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "the routes belong to another topology"));
	RUN(&r, "route", "show", cli_path("tb.routes"), "--topo",
	    cli_path("tb.json"), "--switch", "s9");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "sluicectl: no switch \"s9\" in "));
	/* the switches' namespaces are missing: every one named, nothing loaded */
	RUN(&r, "route", "load", cli_path("ring.routes"), "--name", "t");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: switch s0: network namespace t-s0 does not exist\n"
			"sluicectl: switch s1: network namespace t-s1 does not exist\n"
			"sluicectl: switch s2: network namespace t-s2 does not exist\n"
			"sluicectl: nothing loaded\n");
	RUN(&r, "route", "unload", "--name", "t", "--switch", "s2");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: switch s2: network namespace t-s2 does not exist\n"
			"sluicectl: nothing unloaded\n");
	RUN(&r, "fabric", "ping", "--name", "t", "--timeout", "1");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "network namespace t-s0-h0 does not exist"));
	ktap_result("route_refusals");
}

/* What "fabric up TOPO --name u --lanes ..." refuses, before anything is made. */
static const struct {
	const char	*args[6];
	const char	*err;	/* in stderr (usage errors add the usage) */
} lanes_refused[] = {
	{ { "9" }, "--lanes: \"9\" is not a number from 1 to 8\n" },
	{ { "2", "--no-qdisc" },
	  "--lanes needs every port's qdisc to keep the lanes apart: not with --no-qdisc\n" },
	{ { "2", "--tag", "pcp" },
	  "sluicectl: --lanes 2: lanes are told apart by DSCP: link ports: --tag must be dscp (or left out)\n" },
	{ { "2", "--dscp-map", "1:4" },
	  "sluicectl: --lanes 2: link ports: --lanes makes the DSCP map (DSCP i to lane i's priority): leave --dscp-map out\n" },
	{ { "3", "--pfc", "3,4" },
	  "sluicectl: --lanes 3: 3 lanes need 3 lossless priorities, one each: --pfc gives 2\n" },
	{ { "2", "--flow-control", "pfc-star", "--xoff", "20000" },
	  "sluicectl: --flow-control pfc-star --lanes 2: lanes choose each frame's priority by its DSCP; pfc-star chooses it by other means: use --flow-control pfc or none\n" },
	{ { "2", "--flow-control", "pfc" },
	  "sluicectl: --flow-control pfc --lanes 2: PFC needs an xoff (--xoff BYTES, or --xoff auto with --rate)\n" },
};

static void test_lanes(void)
{
	const char *topo = cli_path("run/t/topology.json");
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lanes_refused); i++) {
		const char *const *a = lanes_refused[i].args;

		RUN(&r, "fabric", "up", topo, "--name", "u", "--lanes", a[0],
		    a[1], a[2], a[3], a[4], a[5]);
		KTAP_EXPECT_INT(r.status, 2);
		if (!KTAP_EXPECT(strstr(r.err, lanes_refused[i].err)))
			ktap_diag("stderr: %s", r.err);
	}
	KTAP_EXPECT_INT(access(cli_path("run/u"), F_OK), -1);

	/* two lanes' routes on a fabric without lanes, or with one */
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "edst",
	    "--lanes", "2", "-o", cli_path("lanes.routes"));
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "route", "load", cli_path("lanes.routes"), "--name", "t");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "lanes.routes has 2 lanes; fabric t was brought up without lanes, so its ports would not keep them apart (fabric up --lanes 2)\n"
			   "sluicectl: nothing loaded\n"));
	state_with("lanes 1\n");
	RUN(&r, "route", "load", cli_path("lanes.routes"), "--name", "t");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "lanes.routes has 2 lanes; fabric t carries 1 (fabric up --lanes 2)\n"));
	/* enough lanes: past the check, to the missing namespaces */
	state_with("flow-control pfc\nlanes 2\n");
	RUN(&r, "route", "load", cli_path("lanes.routes"), "--name", "t");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "sluicectl: switch s0: network namespace t-s0 does not exist\n"));
	RUN(&r, "fabric", "show", "--name", "t");
	KTAP_EXPECT(strstr(r.out, "\nswitches 3 hosts 3 links 3 flow-control pfc lanes 2 qdisc sluice rate 1mbit\n"));
	RUN(&r, "fabric", "show", "--name", "t", "-j");
	KTAP_EXPECT(strstr(r.out, "\"flow_control\":\"pfc\",\"lanes\":2,"));
	state_with("lanes 9\n");
	RUN(&r, "fabric", "show", "--name", "t");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "/run/t/fabric:7: not a fabric state file\n"));
	set_hash();
	unlink(cli_path("lanes.routes"));
	ktap_result("lanes");
}

/*
 * "sluicectl stats -j" of one port as a switch prints it: 8 classes,
 * priority 3 lossless; class @paused (or -1) paused with @backlog bytes
 * queued, ingress priority @xoff (or -1) in XOFF holding @held bytes.
 */
static size_t port_json(char *buf, size_t len, const char *ifname,
			int ifindex, int paused, unsigned int backlog,
			unsigned int sent, int xoff, unsigned int held)
{
	size_t n;
	int i;

	n = snprintf(buf, len,
		     "{\"ifname\":\"%s\",\"ifindex\":%d,\"classes\":8,\"rate\":1000000,"
		     "\"pfc\":8,\"xoff\":51200,\"xon\":48128,\"headroom\":20480,"
		     "\"pause_time\":65535,\"pfc_tx\":3,\"pfc_rx\":4,\"pause_rx\":0,"
		     "\"pause_malformed\":0,\"pause_untrusted\":0,\"limit_drops\":0,"
		     "\"headroom_drops\":0,\"untagged\":0,\"backlog\":%u,\"qlen\":%u,"
		     "\"prios\":[", ifname, ifindex, backlog, backlog / 1000);
	for (i = 0; i < 8; i++)
		n += snprintf(buf + n, len - n,
			      "%s{\"index\":%d,\"flags\":[\"class\"%s%s%s,\"from-a-newer-sluicectl\"],"
			      "\"packets\":%u,\"bytes\":%u,\"drops\":0,\"backlog\":%u,"
			      "\"qlen\":%u,\"pfc_rx\":%u,\"xon_rx\":0,\"paused_us\":%u,"
			      "\"ecn_marks\":0,\"ingress_bytes\":%u,\"ingress_peak\":%u,"
			      "\"xoff_tx\":%u,\"xon_tx\":0,\"wd_storms\":0}",
			      i ? "," : "", i, i == 3 ? ",\"lossless\"" : "",
			      i == paused ? ",\"paused\"" : "",
			      i == xoff ? ",\"xoff\"" : "",
			      i == paused ? sent / 1000 : 0, i == paused ? sent : 0,
			      i == paused ? backlog : 0,
			      i == paused ? backlog / 1000 : 0,
			      i == paused ? 40 : 0, i == paused ? 2000000 : 0,
			      i == xoff ? held : 0, i == xoff ? held + 200 : 0,
			      i == xoff ? 9 : 0);
	n += snprintf(buf + n, len - n, "]}");
	return n;
}

/*
 * DIR/sN.json for the testbed's four switches, deadlocked clockwise on
 * priority 3 (s1 l0 -> s2 l2 -> s3 l4 -> s4 l6 -> s1), s3's l4 having
 * sent @s3_sent bytes.
 */
static void write_state(const char *dir, unsigned int s3_sent)
{
	static const struct {
		const char	*node;
		const char	*ports[5];
		int		out;	/* index of the paused port */
		int		in;	/* index of the XOFF port */
	} sw[] = {
		{ "s1", { "l0", "l1", "l6", "l7", "h0" }, 0, 2 },
		{ "s2", { "l0", "l1", "l2", "l3", "h0" }, 2, 0 },
		{ "s3", { "l2", "l3", "l4", "l5", "h0" }, 2, 0 },
		{ "s4", { "l4", "l5", "l6", "l7", "h0" }, 2, 0 },
	};
	static char buf[65536];
	char path[256];
	size_t n;
	int i, k;

	mkdir(cli_path(dir), 0755);
	for (i = 0; i < 4; i++) {
		n = snprintf(buf, sizeof(buf), "[");
		for (k = 0; k < 5; k++) {
			n += snprintf(buf + n, sizeof(buf) - n, k ? "," : "");
			n += port_json(buf + n, sizeof(buf) - n, sw[i].ports[k],
				       k + 2, k == sw[i].out ? 3 : -1,
				       50000 + 1000 * i,
				       i == 2 ? s3_sent : 700000,
				       k == sw[i].in ? 3 : -1, 53000 + 500 * i);
		}
		snprintf(buf + n, sizeof(buf) - n, "]\n");
		snprintf(path, sizeof(path), "%s/%s.json", dir, sw[i].node);
		write_file(path, buf);
	}
}

static void test_deadlock(void)
{
	char path[256];
	struct run r;
	int i;

	RUN(&r, "fabric", "deadlock", "x");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl fabric deadlock: unexpected argument \"x\"\n"
			   "Usage: sluicectl fabric deadlock [--name NAME] [--interval TIME] [-j | --json]\n"));
	RUN(&r, "fabric", "deadlock", "x", "y");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl fabric deadlock: unexpected argument \"x\"\n"));
	RUN(&r, "fabric", "deadlock", "--interval", "0");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl fabric deadlock: --interval: \"0\" is not a time from 1ms to 60s in whole milliseconds (a bare number is milliseconds)\n"));
	RUN(&r, "fabric", "deadlock", "--interval", "60001");
	KTAP_EXPECT_INT(r.status, 2);
	RUN(&r, "fabric", "deadlock", "--topo", "t.json");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--topo FILE and --state DIR go together"));
	RUN(&r, "fabric", "deadlock", "--state", "d");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--topo FILE and --state DIR go together"));
	RUN(&r, "fabric", "deadlock", "--state-later", "d");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--state-later goes with --topo FILE --state DIR"));
	RUN(&r, "fabric", "deadlock", "--topo", "t.json", "--state", "d",
	    "--name", "t");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--name is for a fabric of this machine, not with --topo"));
	RUN(&r, "fabric", "deadlock", "--topo", "t.json", "--state", "d",
	    "--interval", "100");
	KTAP_EXPECT_INT(r.status, 2);
	RUN(&r, "fabric", "deadlock", "--name", "a/b");
	KTAP_EXPECT_INT(r.status, 2);
	RUN(&r, "fabric", "deadlock", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "--topo FILE --state DIR [--state-later DIR2]"));

	/* a fabric without its namespaces: named, exit 1 */
	RUN(&r, "fabric", "deadlock", "--name", "none");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "sluicectl: no fabric none (no "));
	RUN(&r, "fabric", "deadlock", "--name", "t", "--interval", "1");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "sluicectl: fabric t: switch s0 (namespace t-s0): "));

	/* real hosts: one snapshot per switch */
	write_file("tb.json", testbed);
	write_state("dl1", 700000);
	snprintf(path, sizeof(path), "%s", cli_path("dl1"));
	RUN(&r, "fabric", "deadlock", "--topo", cli_path("tb.json"), "--state",
	    path);
	KTAP_EXPECT_INT(r.status, 3);
	KTAP_EXPECT(strstr(r.out, ": DEADLOCK: 1 cycle of paused queues (4 switches: 4 stuck egress classes, 4 holding ingress accounts, 8 wait-for edges)\n"
			   "one snapshot: progress not checked"));
	KTAP_EXPECT(strstr(r.out, "cycle 1: 8 queues on 4 switches, each waiting on the next, the last on the first:\n"
			   "  s1       l0    egress class  3  paused, 50000 B queued in 50 frames\n"
			   "  s2       l0    ingress prio  3  XOFF, 53500 B held\n"
			   "  s2       l2    egress class  3  paused, 51000 B queued in 51 frames\n"));
	KTAP_EXPECT(strstr(r.out, "  s1       l6    ingress prio  3  XOFF, 53000 B held\n"));
	KTAP_EXPECT_STR(r.err, "");
	RUN(&r, "fabric", "deadlock", "--topo", cli_path("tb.json"), "--state",
	    path, "-j");
	KTAP_EXPECT_INT(r.status, 3);
	KTAP_EXPECT(strstr(r.out, "\"switches\":4,\"progress_checked\":false,\"deadlock\":true,"
			   "\"stuck_egress\":4,\"holding_ingress\":4,\"edges\":8,"
			   "\"host_waits\":0,\"paused_from_outside\":0,\"ports\":20,\"ignored_ports\":0,"
			   "\"cycles\":[{\"switches\":4,\"scc_size\":8,\"cycle_switches\":4,\"cycle\":["
			   "{\"switch\":\"s1\",\"port\":\"l0\",\"link\":0,\"role\":\"egress\","
			   "\"prio\":3,\"flags\":[\"class\",\"paused\",\"lossless\"],\"backlog\":50000,"
			   "\"qlen\":50,\"bytes\":700000,\"pfc_rx\":40,\"paused_us\":2000000},"
			   "{\"switch\":\"s2\",\"port\":\"l0\",\"link\":0,\"role\":\"ingress\","
			   "\"prio\":3,\"flags\":[\"class\",\"xoff\",\"lossless\"],"
			   "\"ingress_bytes\":53500,\"ingress_peak\":53700,\"xoff_tx\":9}"));

	/* two: s3's l4 moved between them, no deadlock */
	write_state("dl2", 701500);
	RUN(&r, "fabric", "deadlock", "--topo", cli_path("tb.json"), "--state",
	    path, "--state-later", cli_path("dl2"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, ": no deadlock (4 switches: 3 stuck egress classes, 4 holding ingress accounts, 6 wait-for edges)\n"
			   "progress checked: "));
	/* and the same files twice: stuck */
	RUN(&r, "fabric", "deadlock", "--topo", cli_path("tb.json"), "--state",
	    path, "--state-later", path);
	KTAP_EXPECT_INT(r.status, 3);
	KTAP_EXPECT(strstr(r.out, "  s1       l0    egress class  3  paused, 50000 B queued in 50 frames, nothing sent\n"));

	/* the errors: a switch missing, not JSON, a field missing, a wrong port */
	unlink(cli_path("dl2/s4.json"));
	RUN(&r, "fabric", "deadlock", "--topo", cli_path("tb.json"), "--state",
	    cli_path("dl2"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "dl2/s4.json: No such file or directory\n"));
	write_file("dl2/s4.json", "[{\"ifname\":\"l4\",");
	RUN(&r, "fabric", "deadlock", "--topo", cli_path("tb.json"), "--state",
	    cli_path("dl2"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "dl2/s4.json: invalid JSON at byte 16: unexpected end of input\n"));
	write_file("dl2/s4.json", "{}");
	RUN(&r, "fabric", "deadlock", "--topo", cli_path("tb.json"), "--state",
	    cli_path("dl2"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "dl2/s4.json: not an array of ports (the output of \"sluicectl stats -j\")\n"));
	write_file("dl2/s4.json", "[{\"ifname\":\"l4\",\"ifindex\":2,\"prios\":[{\"index\":0}]}]");
	RUN(&r, "fabric", "deadlock", "--topo", cli_path("tb.json"), "--state",
	    cli_path("dl2"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "dl2/s4.json: port l4 prios[0]: \"packets\" is missing\n"));
	write_file("dl2/s4.json", "[{\"ifname\":\"l0\",\"ifindex\":2,\"prios\":[]}]");
	RUN(&r, "fabric", "deadlock", "--topo", cli_path("tb.json"), "--state",
	    cli_path("dl2"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: switch s4: port l0: link 0 of the topology does not end at s4\n");
	write_file("dl2/s4.json", "[]");
	RUN(&r, "fabric", "deadlock", "--topo", cli_path("tb.json"), "--state",
	    cli_path("dl2"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "no deadlock (4 switches: 3 stuck egress classes, 3 holding ingress accounts, 5 wait-for edges)\n"));
	KTAP_EXPECT(strstr(r.out, "\n1 stuck egress class paused from outside the graph"));
	for (i = 1; i <= 4; i++) {
		snprintf(path, sizeof(path), "dl1/s%d.json", i);
		unlink(cli_path(path));
		snprintf(path, sizeof(path), "dl2/s%d.json", i);
		unlink(cli_path(path));
	}
	rmdir(cli_path("dl1"));
	rmdir(cli_path("dl2"));
	ktap_result("deadlock");
}

static void test_down(void)
{
	struct run r;

	/* a broken state file is reported, not guessed at */
	mkdir(cli_path("run/u"), 0755);
	write_file("run/u/fabric", "sluice-fabric 2\n");
	RUN(&r, "fabric", "show", "--name", "u");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "/run/u/fabric:1: not a fabric state file\n"));
	RUN(&r, "fabric", "down", "--name", "t");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "fabric t down: 0 namespaces removed\n");
	KTAP_EXPECT_INT(access(cli_path("run/t"), F_OK), -1);
	RUN(&r, "fabric", "show", "--name", "t");
	KTAP_EXPECT_INT(r.status, 1);
	/* no state, no namespaces: nothing to do, and said so */
	RUN(&r, "fabric", "down", "--name", "t", "-j");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "{\"name\":\"t\",\"namespaces_removed\":0}\n");
	/* built with json-c, so -p reaches it too */
	RUN(&r, "-p", "fabric", "down", "--name", "t", "-j");
	KTAP_EXPECT_STR(r.out, "{\n  \"name\":\"t\",\n  \"namespaces_removed\":0\n}\n");
	ktap_result("down");
}

/* TCP-Bolt's options: refused before anything is made or measured. */
static void test_bolt(void)
{
	struct run r;

	make_state();
	set_hash();
	RUN(&r, "host", "bolt", "--fabric", "t");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl host bolt: --rate RATE is needed: the hosts' link rate (as tc writes it: 10mbit, 25gbit)\n"));
	RUN(&r, "host", "bolt", "--fabric", "t", "--dev", "eth0");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--fabric and --dev exclude each other"));
	RUN(&r, "host", "bolt", "--rate", "1mbit");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "which routes? --fabric NAME (its hosts) or --dev DEV (routes out of DEV here)"));
	RUN(&r, "host", "bolt", "--fabric", "t", "--rate", "1mbit", "--rtt", "0");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl host bolt: --rtt: \"0\" is not a time from 1ns to 1s (a bare number is microseconds)\n"));
	RUN(&r, "host", "bolt", "--fabric", "t", "--rate", "1mbit", "--rtt",
	    "1ms", "--ping", "10.0.0.1");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--ping goes with --dev"));
	RUN(&r, "host", "bolt", "--fabric", "t", "s9-h0", "--rate", "1mbit",
	    "--rtt", "1ms");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: fabric t has no host s9-h0\n"));
	RUN(&r, "host", "off", "--dev", "eth0", "s0-h0");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "HOST names go with --fabric"));
	/* fabric up: the options' checks come before the topology is read */
	RUN(&r, "fabric", "up", "none.json", "--name", "u", "--ecn", "lots");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--ecn: \"lots\" is not auto, off or a size of 1 to"));
	RUN(&r, "fabric", "up", "none.json", "--name", "u", "--host-profile",
	    "reno");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--host-profile: \"reno\" is not bolt or off"));
	RUN(&r, "fabric", "up", "none.json", "--name", "u", "--host-rtt", "1ms");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--host-rtt sizes --ecn auto and --host-profile bolt: give one of them"));
	RUN(&r, "fabric", "up", "none.json", "--name", "u", "--ecn", "auto");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--ecn auto needs the links' --rate"));
	RUN(&r, "fabric", "up", "none.json", "--name", "u", "--no-qdisc",
	    "--ecn", "3000");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--ecn marks in the sluice qdisc: not with --no-qdisc"));
	/* the state's new lines, read back and shown */
	state_with("ecn 3000\nhost-profile bolt initcwnd 30\n");
	RUN(&r, "fabric", "show", "--name", "t");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, " ecn 3000 host-profile bolt initcwnd 30 qdisc sluice rate 1mbit\n"));
	RUN(&r, "fabric", "show", "--name", "t", "-j");
	KTAP_EXPECT(strstr(r.out, "\"ecn\":3000,\"host_profile\":\"bolt\",\"initcwnd\":30,"));
	state_with("host-profile bolt initcwnd 30 extra\n");
	RUN(&r, "fabric", "show", "--name", "t");
	KTAP_EXPECT_INT(r.status, 1);
	state_with("ecn 999999999999\n");
	RUN(&r, "fabric", "show", "--name", "t");
	KTAP_EXPECT_INT(r.status, 1);
	set_hash();
	ktap_result("bolt");
}

/* --multipath and --node-rate, and route sport: refused, or shown. */
static void test_multipath(void)
{
	char topo[4096];
	struct run r;

	/* cli_path()'s buffer is reused: a copy */
	snprintf(topo, sizeof(topo), "%s", cli_path("run/t/topology.json"));
	RUN(&r, "fabric", "up", "a.json", "--multipath", "ecmp");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--multipath: \"ecmp\" is not hash, hash5, exact, wcmp or sport"));
	RUN(&r, "fabric", "up", "a.json", "--multipath", "exact", "--lanes", "2");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--multipath exact: exact picks a path by source port, lanes pick one by DSCP: not both (hash5 and wcmp go with lanes)"));
	RUN(&r, "fabric", "up", "a.json", "--multipath", "wcmp", "--pfc", "3");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--multipath wcmp: wcmp weighs each path by its slowest link: give the links' --rate"));
	RUN(&r, "fabric", "up", "a.json", "--multipath", "wcmp", "--no-qdisc");
	KTAP_EXPECT_INT(r.status, 2);
	RUN(&r, "fabric", "up", "a.json", "--node-rate", "s1=1mbit", "--no-qdisc");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--node-rate shapes the nodes' ports in their qdiscs: not with --no-qdisc"));
	/* the node rates against the topology, before anything is made */
	RUN(&r, "fabric", "up", topo, "--name", "u", "--rate", "1mbit",
	    "--node-rate", "s1=500kbit,s7=1mbit");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.err, "sluicectl: --node-rate: the topology has no node \"s7\"\n");
	RUN(&r, "fabric", "up", topo, "--name", "u", "--node-rate", "s1=500kbit");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "give the fabric's --rate"));
	KTAP_EXPECT_INT(access(cli_path("run/u"), F_OK), -1);

	/* the state's lines, shown */
	state_with("multipath exact\nnode-rate s1=500kbit\n");
	RUN(&r, "fabric", "show", "--name", "t");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "\nswitches 3 hosts 3 links 3 multipath exact node-rate s1=500kbit qdisc sluice rate 1mbit\n"));
	RUN(&r, "fabric", "show", "--name", "t", "-j");
	KTAP_EXPECT(strstr(r.out, "\"lanes\":0,\"multipath\":\"exact\",\"node_rates\":{\"s1\":500000},"));
	/* route load: what --multipath asks, checked before the kernel */
	RUN(&r, "route", "load", cli_path("ring.routes"), "--name", "t",
	    "--multipath", "ecmp");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--multipath: \"ecmp\" is not hash, hash5, exact, wcmp or sport"));
	RUN(&r, "route", "load", cli_path("ring.routes"), "--topo", topo,
	    "--switch", "s1", "--multipath", "exact");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--multipath is a fabric's mode, kept in its state: not with --topo"));
	RUN(&r, "route", "load", cli_path("ring.routes"), "--name", "t",
	    "--switch", "s1", "--multipath", "hash");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.err, "sluicectl: --multipath hash makes it fabric t's mode (now exact) on every switch: leave --switch out\n");
	RUN(&r, "route", "load", cli_path("ring.routes"), "--name", "t",
	    "--pfc", "3");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.err, "sluicectl: fabric t has node rates (s1=500kbit), chosen at fabric up: its qdisc options are not changed by route load\n");
	/* past the checks, to the missing namespaces: the state keeps its mode */
	RUN(&r, "route", "load", cli_path("ring.routes"), "--name", "t",
	    "--multipath", "wcmp");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "sluicectl: switch s0: network namespace t-s0 does not exist\n"));
	RUN(&r, "fabric", "show", "--name", "t");
	KTAP_EXPECT(strstr(r.out, " multipath exact node-rate"));
	state_with("flow-control pfc\nlanes 2\n");
	RUN(&r, "route", "load", cli_path("ring.routes"), "--name", "t",
	    "--multipath", "exact");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.err, "sluicectl: fabric t carries lanes (fabric up --lanes): exact picks a path by source port, lanes pick one by DSCP: not both\n");
	state_with("node-rate s1=2mbit\n");
	RUN(&r, "fabric", "show", "--name", "t");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "node-rate: s1: 2mbit is above the fabric's --rate"));
	set_hash();

	/* route sport */
	RUN(&r, "route", "sport", cli_path("ring.routes"));
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl route sport: --topo is required\n"));
	RUN(&r, "route", "sport", cli_path("ring.routes"), "--topo", topo,
	    "--port", "20000");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "--port goes with --pair SOURCE,DESTINATION"));
	RUN(&r, "route", "sport", cli_path("ring.routes"), "--topo", topo,
	    "--pair", "s0,s1", "--port", "0");
	KTAP_EXPECT_INT(r.status, 2);
	RUN(&r, "route", "sport", cli_path("ring.routes"), "--topo", topo,
	    "--pair", "s0,s9");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: --pair s0,s9: no such node\n");
	RUN(&r, "route", "sport", cli_path("ring.routes"), "--topo", topo,
	    "--pair", "s2,s0");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "s2 -> s0 path 0 sport 20000-20063 nodes s2 s0 links 2\n");
	RUN(&r, "route", "sport", cli_path("ring.routes"), "--topo", topo,
	    "--pair", "s2,s0", "--port", "20063", "-j");
	KTAP_EXPECT_STR(r.out, "[{\"src\":\"s2\",\"dst\":\"s0\",\"sport\":20063,\"path\":0,\"nodes\":[\"s2\",\"s0\"],\"links\":[2]}]\n");
	RUN(&r, "route", "sport", cli_path("ring.routes"), "--topo", topo,
	    "--pair", "s2,s0", "--port", "20064");
	KTAP_EXPECT_STR(r.out, "s2 -> s0 sport 20064 path none: outside every path's range, the multipath hash picks\n");
	RUN(&r, "route", "sport", cli_path("ring.routes"), "--topo", topo, "-j");
	KTAP_EXPECT(strstr(r.out, "{\"src\":\"s0\",\"dst\":\"s1\",\"path\":0,\"sport_min\":20000,\"sport_max\":20063,\"nodes\":[\"s0\",\"s1\"],\"links\":[0]}"));
	ktap_result("multipath");
}

int main(void)
{
	ktap_plan(9);
	cli_init();
	cli_mkdtemp("fabric");
	setenv("SLUICE_RUN_DIR", cli_path("run"), 1);
	test_usage();
	test_up_refusals();
	test_show();
	test_route_refusals();
	test_lanes();
	test_bolt();
	test_multipath();
	test_deadlock();
	test_down();
	/* cli_rmdir() empties one level: the state directories first */
	unlink(cli_path("run/u/fabric"));
	rmdir(cli_path("run/u"));
	rmdir(cli_path("run"));
	cli_rmdir();
	return ktap_exit();
}
