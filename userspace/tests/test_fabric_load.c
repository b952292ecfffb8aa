// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The loader (sluice/fabric_load.h) through the library, as far as a host
 * without the fabric's namespaces allows (selftests sluice_fabric,
 * sluice_fabric_tagger, sluice_multipath and the experiments' do the
 * rest): what it refuses before asking the kernel anything, flagged as the
 * request's fault and said line by line; an unknown switch; a set of more
 * lanes than the fabric carries; every missing namespace named with
 * nothing loaded or unloaded; PortFC's warning on BCube's detours; and a
 * state left as it was.  Nothing here changes the host's network
 * configuration: every load stops before the first change.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sluice/fabric_load.h>
#include <sluice/fabric_state.h>
#include <sluice/multipath.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "cli.h"
#include "ktap.h"

static char err[SLUICE_ERRLEN];

/* What the loader said, each line ending in "\n"; warnings marked. */
static char said[8192];

static void say(void *arg, const char *line)
{
	size_t at = strlen(said);

	snprintf(said + at, sizeof(said) - at, "%s%s\n",
		 arg ? (const char *)arg : "", line);
}

static void warn(void *arg, const char *line)
{
	(void)arg;
	say("W: ", line);
}

/* Fabric "ldt" of @g saved with @fc and @lanes, read back into @s. */
static bool make_fabric(struct sluice_graph *g, uint8_t fc, uint8_t lanes,
			struct sluice_fabric_state *s)
{
	struct sluice_fabric_state w;

	memset(&w, 0, sizeof(w));
	snprintf(w.name, sizeof(w.name), "ldt");
	snprintf(w.topo_path, sizeof(w.topo_path), "/x/t.json");
	w.hash = sluice_graph_hash(g);
	w.hosts_per_switch = 1;
	w.qdisc = true;
	snprintf(w.qdisc_args, sizeof(w.qdisc_args), "rate 1mbit pfc 3");
	w.fc = fc;
	w.lanes = lanes;
	w.g = *g;
	return KTAP_EXPECT_INT(sluice_fabric_state_write(&w, err, sizeof(err)),
			       0) &&
	       KTAP_EXPECT_INT(sluice_fabric_state_read("ldt", s, err,
							sizeof(err)), 0);
}

static int routes(const struct sluice_graph *g, enum sluice_route_algo algo,
		  uint32_t lanes, struct sluice_routes *r)
{
	struct sluice_route_opts o = { .algo = algo, .lanes = lanes };
	struct sluice_compute_opts c = { .threads = 1 };

	return sluice_routes_compute(g, &o, &c, r, err, sizeof(err));
}

/* Loads with @o (callbacks set here); the result freed. */
static int load(struct sluice_fabric_load_opts *o, bool *refused,
		uint32_t *n)
{
	struct sluice_fabric_load_result res;
	int ret;

	said[0] = '\0';
	o->say = say;
	o->warn = warn;
	o->say_arg = NULL;
	ret = sluice_fabric_routes_load(o, &res, err, sizeof(err));
	*refused = res.refused;
	*n = res.n;
	sluice_fabric_load_result_free(&res);
	return ret;
}

static void test_refused(void)
{
	struct sluice_fabric_load_opts o;
	struct sluice_fabric_state s;
	struct sluice_fabric_qdisc q;
	struct sluice_graph g;
	struct sluice_routes r;
	bool refused;
	uint32_t n;

	if (!KTAP_EXPECT_INT(sluice_topo_ring(&g, 3, 1, err, sizeof(err)), 0) ||
	    !KTAP_EXPECT_INT(routes(&g, SLUICE_ROUTE_ECMP, 0, &r), 0))
		return;
	if (!make_fabric(&g, SLUICE_FABRIC_FC_PFC, 1, &s))
		return;
	/* no routes to load, no source for the tags */
	memset(&o, 0, sizeof(o));
	o.state = &s;
	KTAP_EXPECT_INT(load(&o, &refused, &n), -EINVAL);
	KTAP_EXPECT(refused);
	o.routes = &r;
	o.tags_path = "/nonexistent";
	KTAP_EXPECT_INT(load(&o, &refused, &n), -EINVAL);
	KTAP_EXPECT(refused);
	o.tags_path = NULL;
	/* another mode for one switch, exact with lanes */
	o.set_multipath = true;
	o.multipath = SLUICE_MP_HASH5;
	o.switch_name = "s1";
	KTAP_EXPECT_INT(load(&o, &refused, &n), -EINVAL);
	KTAP_EXPECT(refused);
	KTAP_EXPECT_STR(said, "--multipath hash5 makes it fabric ldt's mode (now hash) on every switch: leave --switch out\n");
	KTAP_EXPECT_STR(err, "--multipath hash5 makes it fabric ldt's mode (now hash) on every switch: leave --switch out");
	o.switch_name = NULL;
	o.multipath = SLUICE_MP_EXACT;
	KTAP_EXPECT_INT(load(&o, &refused, &n), -EINVAL);
	KTAP_EXPECT(refused);
	KTAP_EXPECT_STR(said, "fabric ldt carries lanes (fabric up --lanes): exact picks a path by source port, lanes pick one by DSCP: not both\n");
	o.set_multipath = false;
	/* qdisc options on a fabric whose flow control chose them */
	memset(&q, 0, sizeof(q));
	o.qdisc = &q;
	KTAP_EXPECT_INT(load(&o, &refused, &n), -EINVAL);
	KTAP_EXPECT(refused);
	KTAP_EXPECT_STR(said, "fabric ldt has flow control pfc, chosen at fabric up: its qdisc options are not changed by route load\n");
	o.qdisc = NULL;
	/* an unknown switch: not the request's fault, the fabric's */
	o.switch_name = "s9";
	KTAP_EXPECT_INT(load(&o, &refused, &n), -ENOENT);
	KTAP_EXPECT(!refused);
	KTAP_EXPECT_STR(said, "fabric ldt has no switch \"s9\"\n");
	sluice_fabric_state_free(&s);
	/* PFC* takes its routes with their tables */
	if (make_fabric(&g, SLUICE_FABRIC_FC_PFC_STAR, 0, &s)) {
		o.state = &s;
		o.switch_name = NULL;
		KTAP_EXPECT_INT(load(&o, &refused, &n), -EINVAL);
		KTAP_EXPECT(refused);
		KTAP_EXPECT_STR(said, "fabric ldt runs PFC*: load its routes with their tag tables (sluicectl tag compute --mode depth, then --tags FILE --tag-source mpls-depth)\n");
		sluice_fabric_state_free(&s);
	}
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("refused");
}

static void test_missing(void)
{
	struct sluice_fabric_load_opts o;
	struct sluice_fabric_state s, back;
	struct sluice_graph g;
	struct sluice_routes r, two;
	bool refused;
	uint32_t n;

	if (!KTAP_EXPECT_INT(sluice_topo_ring(&g, 3, 1, err, sizeof(err)), 0) ||
	    !KTAP_EXPECT_INT(routes(&g, SLUICE_ROUTE_ECMP, 0, &r), 0) ||
	    !KTAP_EXPECT_INT(routes(&g, SLUICE_ROUTE_EDST, 2, &two), 0))
		return;
	if (!make_fabric(&g, SLUICE_FABRIC_FC_NONE, 0, &s))
		return;
	/* two lanes on a fabric without: nothing loaded */
	memset(&o, 0, sizeof(o));
	o.state = &s;
	o.routes = &two;
	o.routes_name = "two.routes";
	KTAP_EXPECT_INT(load(&o, &refused, &n), -EINVAL);
	KTAP_EXPECT(!refused);
	KTAP_EXPECT_STR(said, "two.routes has 2 lanes; fabric ldt was brought up without lanes, so its ports would not keep them apart (fabric up --lanes 2)\n"
			"nothing loaded\n");
	/* every switch's namespace missing, each named; the first in @err */
	o.routes = &r;
	o.set_multipath = true;
	o.multipath = SLUICE_MP_HASH5;
	KTAP_EXPECT_INT(load(&o, &refused, &n), -ENOENT);
	KTAP_EXPECT(!refused);
	KTAP_EXPECT_INT(n, 3);
	KTAP_EXPECT_STR(said, "switch s0: network namespace ldt-s0 does not exist\n"
			"switch s1: network namespace ldt-s1 does not exist\n"
			"switch s2: network namespace ldt-s2 does not exist\n"
			"nothing loaded\n");
	KTAP_EXPECT_STR(err, "switch s0: network namespace ldt-s0 does not exist");
	/* the mode was not made the fabric's */
	KTAP_EXPECT_INT(s.multipath, SLUICE_MP_HASH);
	if (KTAP_EXPECT_INT(sluice_fabric_state_read("ldt", &back, err,
						     sizeof(err)), 0)) {
		KTAP_EXPECT_INT(back.multipath, SLUICE_MP_HASH);
		sluice_fabric_state_free(&back);
	}
	/* one switch, unloading */
	o.set_multipath = false;
	o.action = SLUICE_FABRIC_UNLOAD;
	o.routes = NULL;
	o.switch_name = "s2";
	KTAP_EXPECT_INT(load(&o, &refused, &n), -ENOENT);
	KTAP_EXPECT_INT(n, 1);
	KTAP_EXPECT_STR(said, "switch s2: network namespace ldt-s2 does not exist\n"
			"nothing unloaded\n");
	/* comparing says nothing more than what is missing */
	o.action = SLUICE_FABRIC_COMPARE;
	o.routes = &r;
	KTAP_EXPECT_INT(load(&o, &refused, &n), -ENOENT);
	KTAP_EXPECT_STR(said, "switch s2: network namespace ldt-s2 does not exist\n");
	sluice_fabric_state_free(&s);
	sluice_routes_free(&r);
	sluice_routes_free(&two);
	sluice_graph_free(&g);
	ktap_result("missing");
}

static void test_portfc_warning(void)
{
	struct sluice_fabric_load_opts o;
	struct sluice_fabric_state s;
	struct sluice_graph g;
	struct sluice_routes r;
	bool refused;
	uint32_t n;

	if (!KTAP_EXPECT_INT(sluice_topo_bcube(&g, 4, 1, err, sizeof(err)), 0) ||
	    !KTAP_EXPECT_INT(routes(&g, SLUICE_ROUTE_BCUBE, 0, &r), 0))
		return;
	if (!make_fabric(&g, SLUICE_FABRIC_FC_PORTFC, 0, &s))
		return;
	memset(&o, 0, sizeof(o));
	o.state = &s;
	o.routes = &r;
	o.switch_name = "srv00";
	KTAP_EXPECT_INT(load(&o, &refused, &n), -ENOENT);
	KTAP_EXPECT(!strncmp(said, "W: warning: ", 12));
	KTAP_EXPECT(strstr(said, " paths are longer than 4 hops: PortFC pauses no relay's RQ, so their frames are not lossless under congestion (docs/experiment-bcube.md)\n"
			   "switch srv00: network namespace ldt-srv00 does not exist\n"
			   "nothing loaded\n"));
	/* the refusal, not the warning, in @err */
	KTAP_EXPECT_STR(err, "switch srv00: network namespace ldt-srv00 does not exist");
	sluice_fabric_state_free(&s);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("portfc_warning");
}

int main(void)
{
	char err2[SLUICE_ERRLEN];

	ktap_plan(3);
	cli_init();
	cli_mkdtemp("fabric_load");
	setenv("SLUICE_RUN_DIR", cli_path("run"), 1);
	test_refused();
	test_missing();
	test_portfc_warning();
	sluice_fabric_state_remove("ldt", err2, sizeof(err2));
	rmdir(cli_path("run"));
	cli_rmdir();
	return ktap_exit();
}
