// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "sluicectl analyze" as a user runs it: throughput on a ring worked out
 * by hand (all-to-all 10/9, near-worst 2/3), the same answer from a route
 * file and from routes computed in memory, seeded uniform traffic, the
 * approximation's fields, the Clos baseline and its topology file, and
 * every usage and runtime error with its message.
 */
#include <json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "ktap.h"

static char topo[PATH_MAX], routes[PATH_MAX];

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static const char *field(json_object *o, const char *key)
{
	return o ? json_object_get_string(get(o, key)) : NULL;
}

static void setup(void)
{
	struct run r;

	snprintf(topo, sizeof(topo), "%s", cli_path("ring.json"));
	snprintf(routes, sizeof(routes), "%s", cli_path("ring.routes"));
	RUN(&r, "topo", "gen", "ring", "--switches", "6", "--host-ports", "1",
	    "-o", topo);
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ecmp", "-o",
	    routes);
	KTAP_EXPECT_INT(r.status, 0);
}

/*
 * Ring of 6, a server each, shortest paths: all-to-all needs 54/5 link
 * directions' worth of 12, so 10/9; each switch to the opposite one needs
 * 3 of 12 per unit, 6 of them: 2/3.  Both meet the bound.
 */
static void test_ring(void)
{
	json_object *o;
	struct run r;

	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "all2all");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.err, "");
	KTAP_EXPECT_STR(r.out,
			"traffic all2all demands 30 demand 6.000000\n"
			"routes ecmp paths 36 unrouted 0\n"
			"theta 1.111111 theta-upper 1.111111 method lp\n"
			"bound 1.111111 bound-paths 1.111111 saturated 12\n");
	/* auto picks the LP here: an fptas option given is said unused */
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "all2all", "--epsilon", "0.1");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.err,
			"sluicectl: warning: --epsilon unused: the route set is small enough for the exact LP (--method fptas to use it)\n");
	RUN(&r, "analyze", "--topo", topo, "--routes", routes, "--traffic",
	    "worst", "-j");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out,
			"{\"traffic\":\"worst\",\"demands\":6,\"demand\":6.000000,\"algo\":\"ecmp\",\"paths\":12,\"unrouted\":0,\"method\":\"lp\",\"theta\":0.666667,\"theta_upper\":0.666667,\"bound\":0.666667,\"bound_paths\":0.666667,\"saturated\":12}\n");
	/* the approximation: within 1% of 10/9, and says how it got there */
	RUN(&r, "analyze", "--topo", topo, "--routes", routes, "--traffic",
	    "all2all", "--method", "fptas", "--epsilon", "0.01", "--json");
	KTAP_EXPECT_INT(r.status, 0);
	o = json_tokener_parse(r.out);
	if (KTAP_EXPECT(o)) {
		double th = json_object_get_double(get(o, "theta"));
		double up = json_object_get_double(get(o, "theta_upper"));

		KTAP_EXPECT_STR(field(o, "method"), "fptas");
		KTAP_EXPECT_STR(field(o, "epsilon"), "0.010000");
		KTAP_EXPECT_STR(field(o, "converged"), "true");
		KTAP_EXPECT(th <= 10.0 / 9 + 1e-6 && th >= 0.99 * 10 / 9);
		KTAP_EXPECT(up >= 10.0 / 9 - 1e-6 && th >= 0.99 * up - 1e-6);
		KTAP_EXPECT(atoi(field(o, "phases")) >= 1);
	}
	json_object_put(o);
	ktap_result("analyze on a ring: 10/9 all-to-all, 2/3 near-worst, fptas within 1%%");
}

/* A route file and --algo give the same; uniform traffic by its seed. */
static void test_same_and_seeded(void)
{
	char a[sizeof(((struct run *)0)->out)];
	json_object *o;
	struct run r;

	RUN(&r, "analyze", "--topo", topo, "--routes", routes, "--traffic",
	    "uniform:2", "--seed", "3");
	KTAP_EXPECT_INT(r.status, 0);
	snprintf(a, sizeof(a), "%s", r.out);
	KTAP_EXPECT(!strncmp(a, "traffic uniform:2 seed 3 picks 2 demands 12 demand 6.000000\n", 60));
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "uniform:2", "--seed", "3", "--threads", "2");
	KTAP_EXPECT_STR(r.out, a);
	/* 40% of 5 others is 2 as well */
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "uniform:40%", "--seed", "3", "-j");
	KTAP_EXPECT_INT(r.status, 0);
	o = json_tokener_parse(r.out);
	KTAP_EXPECT_STR(field(o, "picks"), "2");
	KTAP_EXPECT_STR(field(o, "seed"), "3");
	json_object_put(o);
	/* one path a pair (ksp 1): theta is 1 / the busiest link direction */
	RUN(&r, "analyze", "--topo", topo, "--algo", "ksp", "--paths", "1",
	    "--traffic", "worst");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "theta 0.333333 theta-upper 0.333333 method lp\n"));
	ktap_result("route file or --algo: the same output; uniform by seed");
}

static void test_clos(void)
{
	char path[PATH_MAX];
	json_object *o;
	struct run r;

	RUN(&r, "analyze", "clos", "--ports", "32", "--hosts", "1152",
	    "--switches", "148");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out,
			"clos ports 32 hosts 1152 switches 148 of 148 layers 3 host-ports 18 uplinks 14 theta 0.777778\n"
			"layer-switches 64 56 28\n");
	snprintf(path, sizeof(path), "%s", cli_path("clos.json"));
	RUN(&r, "analyze", "clos", "--ports", "32", "--hosts", "700",
	    "--switches", "50", "-o", path, "-j");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out,
			"{\"ports\":32,\"hosts\":700,\"switches\":42,\"switches_max\":50,\"layers\":2,\"host_ports\":22,\"uplinks\":10,\"theta\":0.454545,\"layer_switches\":[32,10]}\n");
	RUN(&r, "topo", "show", path, "-j");
	KTAP_EXPECT_INT(r.status, 0);
	o = json_tokener_parse(r.out);
	KTAP_EXPECT_STR(field(o, "nodes"), "42");
	KTAP_EXPECT_STR(field(o, "links"), "320");
	KTAP_EXPECT_STR(field(o, "host_ports"), "700");
	json_object_put(o);
	/* near-worst on it, up-down: the 22-server ToRs get 10/22 */
	RUN(&r, "analyze", "--topo", path, "--algo", "updown", "--traffic",
	    "worst", "--method", "lp");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "theta 0.454545 theta-upper 0.454545 method lp\n"));
	RUN(&r, "analyze", "clos", "--ports", "32", "--hosts", "100000",
	    "--switches", "10");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: clos: no Clos of at most 10 32-port switches holds 100000 servers\n");
	KTAP_EXPECT_STR(r.out, "");
	ktap_result("analyze clos: FC's sizes, the topology file, non-blocking");
}

static void expect_usage(const char *msg, struct run *r)
{
	KTAP_EXPECT_INT(r->status, 2);
	if (!KTAP_EXPECT(!strncmp(r->err, msg, strlen(msg))))
		ktap_diag("got: %s", r->err);
	KTAP_EXPECT(strstr(r->err, "Usage: sluicectl analyze "));
	KTAP_EXPECT_STR(r->out, "");
}

static void test_usage_errors(void)
{
	int before = cli_files_in_dir();
	struct run r;

	RUN(&r, "analyze", "--algo", "ecmp", "--traffic", "all2all");
	expect_usage("sluicectl analyze: --topo FILE is required\n", &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp");
	expect_usage("sluicectl analyze: --traffic is required\n", &r);
	RUN(&r, "analyze", "--topo", topo, "--traffic", "all2all");
	expect_usage("sluicectl analyze: give one of --routes FILE and --algo ALGO\n", &r);
	RUN(&r, "analyze", "--topo", topo, "--routes", routes, "--algo",
	    "ecmp", "--traffic", "all2all");
	expect_usage("sluicectl analyze: give one of --routes FILE and --algo ALGO\n", &r);
	RUN(&r, "analyze", "--topo", topo, "--routes", routes, "--paths", "2",
	    "--traffic", "all2all");
	expect_usage("sluicectl analyze: --paths needs --algo, not a route file\n", &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "fc", "--paths", "2",
	    "--traffic", "all2all");
	expect_usage("sluicectl analyze: --paths applies to ksp, ecmp and updown\n", &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "spf", "--traffic",
	    "all2all");
	expect_usage("sluicectl analyze: --algo: unknown algorithm \"spf\"\n", &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "some");
	expect_usage("sluicectl analyze: --traffic: traffic \"some\" is not all2all, uniform:P, uniform:P%, worst or permutation\n",
		     &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "uniform:0");
	expect_usage("sluicectl analyze: --traffic: traffic \"uniform:0\": P must be",
		     &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "all2all", "--seed", "1");
	expect_usage("sluicectl analyze: --seed applies to uniform and permutation traffic\n",
		     &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "all2all", "--model", "maxmin");
	expect_usage("sluicectl analyze: --model maxmin takes --traffic permutation only: it rates one flow per server, and all2all is a matrix of demands\n",
		     &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "permutation", "--model", "maxmin", "--epsilon", "0.1");
	expect_usage("sluicectl analyze: --epsilon applies to --model concurrent\n", &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "permutation", "--runs", "3");
	expect_usage("sluicectl analyze: --runs applies to --model maxmin\n", &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "permutation", "--model", "fair");
	expect_usage("sluicectl analyze: --model: \"fair\" is not concurrent or maxmin\n",
		     &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "permutation", "--model", "maxmin", "--runs", "0");
	expect_usage("sluicectl analyze: --runs: \"0\" is not a number from 1 to", &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "all2all", "--method", "lp", "--epsilon", "0.1");
	expect_usage("sluicectl analyze: --epsilon and --max-phases apply to fptas (and auto)\n",
		     &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "all2all", "--epsilon", "1");
	expect_usage("sluicectl analyze: --epsilon: \"1\" is not a number from 0.0001 to 0.5\n",
		     &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "all2all", "--epsilon", "0.1x");
	expect_usage("sluicectl analyze: --epsilon: \"0.1x\" is not a number", &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "all2all", "--method", "simplex");
	expect_usage("sluicectl analyze: --method: \"simplex\" is not auto, lp or fptas\n",
		     &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "all2all", "--max-phases", "0");
	expect_usage("sluicectl analyze: --max-phases: \"0\" is not a number of 1 or more\n", &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "all2all", "--bogus");
	expect_usage("sluicectl analyze: unknown option \"--bogus\"\n", &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "all2all", "extra");
	expect_usage("sluicectl analyze: unexpected argument \"extra\"\n", &r);
	RUN(&r, "analyze", "--topo", topo, "--topo", topo);
	expect_usage("sluicectl analyze: --topo given twice\n", &r);
	RUN(&r, "analyze", "clos", "--ports", "32", "--hosts", "7");
	expect_usage("sluicectl analyze: analyze clos needs --ports, --hosts and --switches\n",
		     &r);
	RUN(&r, "analyze", "clos", "--ports", "1", "--hosts", "7",
	    "--switches", "3");
	expect_usage("sluicectl analyze clos: --ports: \"1\" is not a number from 2 to 1024\n",
		     &r);
	RUN(&r, "analyze", "clos", "--ports", "8", "--hosts", "7",
	    "--switches", "3", "--traffic", "all2all");
	expect_usage("sluicectl analyze clos: unknown option \"--traffic\"\n", &r);
	KTAP_EXPECT_INT(cli_files_in_dir(), before);
	ktap_result("usage errors: exit 2, the exact message, nothing written");
}

static void expect_runtime(const char *msg, struct run *r)
{
	KTAP_EXPECT_INT(r->status, 1);
	if (!KTAP_EXPECT(strstr(r->err, msg)))
		ktap_diag("got: %s", r->err);
	KTAP_EXPECT_STR(r->out, "");
}

static void test_runtime_errors(void)
{
	char ring7[PATH_MAX], msg[PATH_MAX + 64];
	struct run r;

	snprintf(ring7, sizeof(ring7), "%s", cli_path("ring7.json"));
	RUN(&r, "topo", "gen", "ring", "--switches", "7", "-o", ring7);
	RUN(&r, "analyze", "--topo", ring7, "--routes", routes, "--traffic",
	    "all2all");
	expect_runtime(":2: the routes belong to another topology", &r);
	RUN(&r, "analyze", "--topo", cli_path("nope.json"), "--algo", "ecmp",
	    "--traffic", "all2all");
	snprintf(msg, sizeof(msg), "sluicectl: %s: ", cli_path("nope.json"));
	expect_runtime(msg, &r);
	RUN(&r, "analyze", "--topo", topo, "--routes", cli_path("nope"),
	    "--traffic", "all2all");
	snprintf(msg, sizeof(msg), "sluicectl: %s: No such file or directory\n",
		 cli_path("nope"));
	expect_runtime(msg, &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "uniform:6");
	expect_runtime("ring.json: traffic uniform:6: each endpoint can pick 1 to 5 others\n",
		       &r);
	RUN(&r, "analyze", "--topo", topo, "--algo", "updown", "--root", "s9",
	    "--traffic", "all2all");
	/* a bad argument, found once the topology is read: exit 2 */
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: --root: no node \"s9\" in "));
	KTAP_EXPECT_STR(r.out, "");
	/* a phase cap too small: a warning, the bounds reached */
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "all2all", "--method", "fptas", "--epsilon", "0.0001",
	    "--max-phases", "2");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(!strncmp(r.err, "sluicectl: warning: fptas stopped after 2 phases with theta ", 60));
	KTAP_EXPECT(strstr(r.out, "fptas epsilon 0.000100 phases 2 converged no\n"));
	ktap_result("runtime errors: exit 1 and what is wrong; a phase cap warns");
}

/*
 * The ring's six servers: a derangement puts each flow alone on its host
 * links, and flows over the ring share its link directions.  Text and
 * JSON say the same; the default model takes the permutation too.
 */
static void test_maxmin(void)
{
	char text[64];
	json_object *o;
	struct run r;

	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "permutation", "--model", "maxmin", "--seed", "3", "--runs", "4");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.err, "");
	KTAP_EXPECT(!strncmp(r.out,
			     "traffic permutation seed 3 runs 4 servers 6 local 0.00\n"
			     "routes ecmp unrouted 0\n"
			     "maxmin throughput ", 96));
	RUN(&r, "analyze", "--topo", topo, "--routes", routes, "--traffic",
	    "permutation", "--model", "maxmin", "--seed", "3", "--runs", "4",
	    "-j");
	KTAP_EXPECT_INT(r.status, 0);
	o = json_tokener_parse(r.out);
	if (KTAP_EXPECT(o)) {
		KTAP_EXPECT_STR(field(o, "model"), "maxmin");
		KTAP_EXPECT_STR(field(o, "runs"), "4");
		snprintf(text, sizeof(text), "maxmin throughput %s sd %s",
			 field(o, "throughput"), field(o, "throughput_sd"));
	}
	json_object_put(o);
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "permutation", "--model", "maxmin", "--seed", "3", "--runs", "4");
	KTAP_EXPECT(strstr(r.out, text));
	RUN(&r, "analyze", "--topo", topo, "--algo", "ecmp", "--traffic",
	    "permutation", "--seed", "3");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(!strncmp(r.out, "traffic permutation seed 3 local 0 demands 6 demand 6.000000\n",
			     61));
	ktap_result("analyze --model maxmin: text and -j agree; permutation under both models");
}

static void test_help(void)
{
	struct run r;

	RUN(&r, "analyze", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(!strncmp(r.out, "Usage: sluicectl analyze --topo FILE", 36));
	KTAP_EXPECT(strstr(r.out, "near-worst"));
	KTAP_EXPECT(strstr(r.out, "--model maxmin (TCP-Bolt's flow simulator"));
	RUN(&r, "help", "analyze");
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "help");
	KTAP_EXPECT(strstr(r.out, "  analyze    Throughput of a traffic matrix"));
	ktap_result("analyze --help, and in the command list");
}

static void (*const tests[])(void) = {
	test_ring,
	test_same_and_seeded,
	test_clos,
	test_usage_errors,
	test_runtime_errors,
	test_maxmin,
	test_help,
};

int main(void)
{
	size_t i;

	cli_init();
	ktap_plan(ARRAY_SIZE(tests));
	cli_mkdtemp("test_flow_cli");
	setup();
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	cli_rmdir();
	return ktap_exit();
}
