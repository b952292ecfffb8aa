// SPDX-License-Identifier: GPL-2.0
/*
 * "sluicectl fabric" and "sluicectl route load/unload/show" as a user runs
 * them, as far as a host without namespaces allows (the VM selftest
 * sluice_fabric.sh does the rest): usage errors, what fabric up refuses
 * before touching the kernel, fabric show of a fabric's state (kept in a
 * scratch $SLUICE_RUN_DIR, its namespaces missing), fabric down clearing
 * it, and route load refusing a file of another topology, an unknown
 * switch or missing namespaces with nothing changed.  Nothing here writes
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

static void set_hash(void)
{
	char *routes = cli_read_all(cli_path("ring.routes")), *h, text[512];

	h = routes ? strstr(routes, " hash ") : NULL;
	if (!KTAP_EXPECT(h))
		return;
	snprintf(text, sizeof(text),
		 "sluice-fabric 1\nname t\ntopology /x/ring.json\n"
		 "hash %.16s\nhosts-per-switch 1\nqdisc yes rate 1mbit\nend\n",
		 h + 6);
	write_file("run/t/fabric", text);
	free(routes);
}

static void test_usage(void)
{
	struct run r;

	RUN(&r, "fabric");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "Usage: sluicectl fabric COMMAND"));
	RUN(&r, "fabric", "up");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: no topology given\n"));
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
	KTAP_EXPECT(strstr(r.err, "sluicectl: qdisc options: \"watchdog-action\" must be drop, forward or alert, not \"bogus\""));
	RUN(&r, "route", "load", "r", "--watchdog", "3", "--rate", "0");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: qdisc options: \"watchdog 3\" needs a \"rate\" above 0"));
	RUN(&r, "route", "load", "r", "--detection-time", "200",
	    "--watchdog-poll", "300ms");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: qdisc options: \"watchdog-poll\" must be at most \"detection-time\" (200), not \"300ms\""));
	RUN(&r, "fabric", "up", "a.json", "--restoration-time", "5");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: qdisc options: \"restoration-time\" must be 10..60000 ms"));
	RUN(&r, "fabric", "up", "a.json", "--watchdog");
	KTAP_EXPECT_INT(r.status, 2);
	RUN(&r, "route", "unload", "--rate", "10mbit");
	KTAP_EXPECT_INT(r.status, 2);
	RUN(&r, "route", "load", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "QDISC OPTIONS change the sluice qdisc of every switch port"));
	KTAP_EXPECT(strstr(r.out, "[--rate RATE] [--pfc PRIOS] [--xoff { BYTES | auto }]"));
	KTAP_EXPECT(strstr(r.out, "[--watchdog PRIOS] [--watchdog-action { drop | forward | alert }]"));
	KTAP_EXPECT(strstr(r.out, "[--detection-time MS] [--restoration-time MS] [--watchdog-poll MS]"));
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
	ktap_result("down");
}

int main(void)
{
	ktap_plan(5);
	cli_init();
	cli_mkdtemp("fabric");
	setenv("SLUICE_RUN_DIR", cli_path("run"), 1);
	test_usage();
	test_up_refusals();
	test_show();
	test_route_refusals();
	test_down();
	/* cli_rmdir() empties one level: the state directories first */
	unlink(cli_path("run/u/fabric"));
	rmdir(cli_path("run/u"));
	rmdir(cli_path("run"));
	cli_rmdir();
	return ktap_exit();
}
