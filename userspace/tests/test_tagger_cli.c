// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "sluicectl tag" as a user runs it: the tables of a ring worked out by
 * hand (see test_tagger.c), check and stats in text and JSON, a node's
 * share, tampered tables caught with exit 3, the same bytes every time,
 * and every error with its message, its exit code and nothing written.
 */
#include <json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "ktap.h"

static bool same_file(const char *a, const char *b)
{
	char *x = cli_read_all(a), *y = cli_read_all(b);
	bool same = x && y && !strcmp(x, y);

	free(x);
	free(y);
	return same;
}

/* Copies @from to @to in the scratch directory, replacing @old by @new. */
static void edit_file(const char *from, const char *to, const char *old,
		      const char *new)
{
	char *text = cli_read_all(cli_path(from)), *at;
	FILE *f;

	at = text ? strstr(text, old) : NULL;
	if (!KTAP_EXPECT(at))
		goto out;
	f = fopen(cli_path(to), "w");
	if (f) {
		fprintf(f, "%.*s%s%s", (int)(at - text), text, new,
			at + strlen(old));
		fclose(f);
	}
out:
	free(text);
}

static void setup(void)
{
	struct run r;

	RUN(&r, "topo", "gen", "ring", "--switches", "4", "-o",
	    cli_path("ring.json"));
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "route", "compute", "--topo", cli_path("ring.json"),
	    "--algo", "ecmp", "-o", cli_path("ring.routes"));
	KTAP_EXPECT_INT(r.status, 0);
}

static void test_compute(void)
{
	char *text;
	struct run r;

	setup();
	RUN(&r, "tag", "compute", "--topo", cli_path("ring.json"), "--routes",
	    cli_path("ring.routes"), "-o", cli_path("ring.tags"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.err, "");
	KTAP_EXPECT_STR(r.out, "mode greedy priorities 2 tags 3 entries 35 ingress 14 egress 21 climbs 2 conflicts 0\n");
	text = cli_read_all(cli_path("ring.tags"));
	/* s0 moves frames from s3 (tag 1) up to priority 1 towards s1 */
	KTAP_EXPECT(text && strstr(text,
		"node s0 hosts 0 ports 2 ingress 3 egress 5\n"
		"port 0 s1\nport 3 s3\n"
		"in 0 1 0\nin 3 1 0\nin host 0 0\n"
		"out 0 0 0 1\nout 0 1 1 2\nout 3 0 0 1\nout 3 1 0 1\n"
		"out host 1 0 1\nnode s1 "));
	/* stdout carries the same bytes */
	RUN(&r, "tag", "compute", "--topo", cli_path("ring.json"), "--routes",
	    cli_path("ring.routes"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, text ? text : "");
	free(text);
	RUN(&r, "tag", "compute", "--topo", cli_path("ring.json"), "--routes",
	    cli_path("ring.routes"), "--mode", "ttl", "-o",
	    cli_path("ttl.tags"), "-j");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "{\"mode\":\"ttl\",\"priorities\":2,\"tags\":3,\"entries\":44,\"ingress\":20,\"egress\":24,\"climbs\":0,\"conflicts\":0}\n");
	RUN(&r, "tag", "compute", "--topo", cli_path("ring.json"), "--routes",
	    cli_path("ring.routes"), "--mode", "depth", "-o",
	    cli_path("depth.tags"));
	KTAP_EXPECT_INT(r.status, 0);
	/* per node: in from each neighbour at 0, from the host at 0 and 1 */
	KTAP_EXPECT_STR(r.out, "mode depth priorities 2 tags 2 entries 36 ingress 16 egress 20 climbs 0 conflicts 0\n");
	RUN(&r, "tag", "check", "--topo", cli_path("ring.json"), "--routes",
	    cli_path("ring.routes"), cli_path("depth.tags"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "ok yes consistent yes cbd-free yes priorities 2 buffers 16 dependencies 0 unused-entries 0\n");
	ktap_result("compute: the ring's tables, stdout, ttl, -j, depth");
}

static void test_check(void)
{
	struct run r;

	RUN(&r, "tag", "check", "--topo", cli_path("ring.json"), "--routes",
	    cli_path("ring.routes"), cli_path("ring.tags"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "ok yes consistent yes cbd-free yes priorities 2 buffers 10 dependencies 6 unused-entries 0\n");
	RUN(&r, "tag", "check", "--topo", cli_path("ring.json"), "--routes",
	    cli_path("ring.routes"), cli_path("ttl.tags"), "-j");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "{\"ok\":true,\"consistent\":true,\"cbd_free\":true,\"priorities\":2,\"buffers\":16,\"dependencies\":0,\"unused_entries\":0}\n");
	/* s0 keeps the climbing frames at 0: the clockwise cycle is back */
	edit_file("ring.tags", "cycle.tags", "out 0 1 1 2\n", "out 0 1 0 1\n");
	RUN(&r, "tag", "check", "--topo", cli_path("ring.json"), "--routes",
	    cli_path("ring.routes"), cli_path("cycle.tags"));
	KTAP_EXPECT_INT(r.status, 3);
	KTAP_EXPECT(!strncmp(r.out, "ok no consistent yes cbd-free no priorities 2 buffers 9 dependencies 7 unused-entries 1\ncycle 4\n", 94));
	KTAP_EXPECT(strstr(r.out, "  link 0 s0 -> s1 priority 0, then by path 1 of s0 s2\n"));
	KTAP_EXPECT(strstr(r.out, "  link 3 s3 -> s0 priority 0, then by path 2 of s3 s1\n"));
	RUN(&r, "tag", "check", "--topo", cli_path("ring.json"), "--routes",
	    cli_path("ring.routes"), cli_path("cycle.tags"), "-j");
	KTAP_EXPECT_INT(r.status, 3);
	KTAP_EXPECT(!strncmp(r.out, "{\"ok\":false,\"consistent\":true,\"cbd_free\":false,", 47));
	KTAP_EXPECT(strstr(r.out, "{\"link\":3,\"from\":\"s3\",\"to\":\"s0\",\"priority\":0,\"path_src\":\"s3\",\"path_dst\":\"s1\",\"path\":2}"));
	/* the class alone: s1 would pause the wrong queue of s0 */
	edit_file("ring.tags", "queue.tags", "out 0 1 1 2\n", "out 0 1 0 2\n");
	RUN(&r, "tag", "check", "--topo", cli_path("ring.json"), "--routes",
	    cli_path("ring.routes"), cli_path("queue.tags"));
	KTAP_EXPECT_INT(r.status, 3);
	KTAP_EXPECT_STR(r.out, "ok no consistent no\nproblem path 2 of s3 s1, hop 1: queued in class 0 at s0 but charged to priority 1 at s1: a pause would stop the wrong queue\n");
	ktap_result("check: safe exit 0, a cycle and a wrong queue exit 3");
}

static void test_stats(void)
{
	struct run r;

	RUN(&r, "tag", "stats", "--topo", cli_path("ring.json"),
	    cli_path("ring.tags"), "--nodes");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out,
			"mode greedy algo ecmp priorities 2 tags 3\n"
			"entries 35 ingress 14 egress 21\n"
			"per-node min 8 max 11 avg 8.7500 bottleneck s1\n"
			"node s0 ingress 3 egress 5 entries 8\n"
			"node s1 ingress 5 egress 6 entries 11\n"
			"node s2 ingress 3 egress 5 entries 8\n"
			"node s3 ingress 3 egress 5 entries 8\n");
	RUN(&r, "tag", "stats", "--topo", cli_path("ring.json"),
	    cli_path("ring.tags"), "-j");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "{\"mode\":\"greedy\",\"algo\":\"ecmp\",\"priorities\":2,\"tags\":3,\"entries\":35,\"ingress\":14,\"egress\":21,\"nodes\":4,\"per_node\":{\"min\":8,\"max\":11,\"avg\":8.7500},\"bottleneck\":\"s1\"}\n");
	/* a node's share, on its own */
	RUN(&r, "tag", "compute", "--topo", cli_path("ring.json"), "--routes",
	    cli_path("ring.routes"), "--node", "s2", "-o",
	    cli_path("s2.tags"));
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "tag", "stats", "--topo", cli_path("ring.json"),
	    cli_path("s2.tags"), "--node", "s2");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out,
			"mode greedy algo ecmp priorities 2 tags 3\n"
			"entries 8 ingress 3 egress 5\n"
			"node s2\n");
	/* a share is not the whole */
	RUN(&r, "tag", "stats", "--topo", cli_path("ring.json"),
	    cli_path("s2.tags"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "s2.tags:5: node s0: its section is missing\n"));
	ktap_result("stats: exact counts, bottleneck, a node's share alone");
}

/* The same bytes for the same inputs; greedy never above ttl. */
static void test_deterministic(void)
{
	char topo[PATH_MAX], routes[PATH_MAX];
	json_object *a, *b, *v;
	struct run r;
	int ga;

	snprintf(topo, sizeof(topo), "%s", cli_path("jf.json"));
	snprintf(routes, sizeof(routes), "%s", cli_path("jf.routes"));
	RUN(&r, "topo", "gen", "jellyfish", "--switches", "16",
	    "--inter-ports", "4", "--seed", "5", "-o", topo);
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ksp",
	    "--paths", "3", "-o", routes);
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "tag", "compute", "--topo", topo, "--routes", routes, "-o",
	    cli_path("g1"), "-j");
	KTAP_EXPECT_INT(r.status, 0);
	a = json_tokener_parse(r.out);
	RUN(&r, "tag", "compute", "--topo", topo, "--routes", routes, "-o",
	    cli_path("g2"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(same_file(cli_path("g1"), cli_path("g2")));
	RUN(&r, "tag", "compute", "--topo", topo, "--routes", routes,
	    "--mode", "ttl", "-o", cli_path("t1"), "-j");
	KTAP_EXPECT_INT(r.status, 0);
	b = json_tokener_parse(r.out);
	if (KTAP_EXPECT(a && b)) {
		json_object_object_get_ex(a, "priorities", &v);
		ga = json_object_get_int(v);
		json_object_object_get_ex(b, "priorities", &v);
		KTAP_EXPECT(ga >= 2 && ga <= json_object_get_int(v));
	}
	json_object_put(a);
	json_object_put(b);
	RUN(&r, "tag", "check", "--topo", topo, "--routes", routes,
	    cli_path("g1"));
	KTAP_EXPECT_INT(r.status, 0);
	ktap_result("jellyfish ksp: the same bytes twice, greedy <= ttl, both safe");
}

static void test_usage_errors(void)
{
	static const struct {
		const char	*args[10];
		const char	*err;	/* the first line of stderr */
	} cases[] = {
		{ { "tag", "compute" }, "sluicectl tag compute: --topo is required\n" },
		{ { "tag", "compute", "--topo", "x" },
		  "sluicectl tag compute: --routes is required\n" },
		{ { "tag", "compute", "--topo", "x", "--routes", "y", "-j" },
		  "sluicectl tag compute: -j needs -o: without it the tags go to stdout\n" },
		{ { "tag", "compute", "--topo", "x", "--routes", "y", "--mode", "fast" },
		  "sluicectl tag compute: --mode: \"fast\" is not greedy, ttl or depth\n" },
		{ { "tag", "compute", "--topo", "x", "--routes", "y", "--max-priorities", "9" },
		  "sluicectl tag compute: --max-priorities: \"9\" is not a number from 1 to 8\n" },
		{ { "tag", "compute", "--topo", "x", "--routes", "y", "z" },
		  "sluicectl tag compute: unexpected argument \"z\"\n" },
		{ { "tag", "check", "--topo", "x", "--routes", "-", "-" },
		  "sluicectl tag check: the routes and the tags cannot both come from stdin\n" },
		{ { "tag", "check", "--topo", "x", "--mode", "ttl", "--routes", "y", "a" },
		  "sluicectl tag check: unknown option \"--mode\"\n" },
		{ { "tag", "stats", "--topo", "x", "a", "--node", "s1", "--nodes" },
		  "sluicectl tag stats: --node and --nodes do not go together\n" },
		{ { "tag", "frobnicate" },
		  "sluicectl tag: unknown tag command \"frobnicate\"\n" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		cli_run(&r, NULL, cases[i].args);
		KTAP_EXPECT_INT(r.status, 2);
		KTAP_EXPECT(!strncmp(r.err, cases[i].err,
				     strlen(cases[i].err)));
		if (strncmp(r.err, cases[i].err, strlen(cases[i].err)))
			ktap_diag("got: %s", r.err);
		KTAP_EXPECT(strstr(r.err, "Usage: sluicectl tag"));
		KTAP_EXPECT_STR(r.out, "");
	}
	RUN(&r, "tag");
	KTAP_EXPECT_INT(r.status, 2);
	ktap_result("usage errors: exit 2, the message, the usage");
}

static void test_runtime_errors(void)
{
	char topo[PATH_MAX], routes[PATH_MAX], out[PATH_MAX];
	struct run r;
	int files;

	snprintf(topo, sizeof(topo), "%s", cli_path("ring.json"));
	snprintf(routes, sizeof(routes), "%s", cli_path("ring.routes"));
	snprintf(out, sizeof(out), "%s", cli_path("none.tags"));
	files = cli_files_in_dir();
	RUN(&r, "tag", "compute", "--topo", topo, "--routes", routes,
	    "--max-priorities", "1", "-o", out);
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "ring.routes: greedy: 2 path tails still need a priority after 1 priorities (the most allowed)\n"));
	RUN(&r, "tag", "compute", "--topo", topo, "--routes", routes,
	    "--mode", "ttl", "--max-priorities", "1", "-o", out);
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "ring.routes: ttl: path 1 of s0 s2 has 2 hops, more than the 1 priorities allowed\n"));
	RUN(&r, "tag", "compute", "--topo", topo, "--routes", routes,
	    "--node", "s9", "-o", out);
	/* a bad argument, found once the topology is read: exit 2 */
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(strstr(r.err, "sluicectl: --node: no node \"s9\" in "));
	RUN(&r, "tag", "compute", "--topo", topo, "--routes",
	    cli_path("missing.routes"), "-o", out);
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "missing.routes: No such file or directory\n"));
	/* routes of another fabric */
	RUN(&r, "tag", "check", "--topo", cli_path("jf.json"), "--routes",
	    routes, cli_path("ring.tags"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "ring.routes:2: the routes belong to another topology"));
	/* tags of other routes */
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ecmp",
	    "--paths", "1", "-o", cli_path("one.routes"));
	KTAP_EXPECT_INT(r.status, 0);
	files++;
	RUN(&r, "tag", "check", "--topo", topo, "--routes",
	    cli_path("one.routes"), cli_path("ring.tags"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "ring.tags: the tag tables belong to other routes (12 pairs, 16 paths, 24 hops, hash a5ec95c3308affba; these have 12, 12, 16, "));
	RUN(&r, "tag", "stats", "--topo", topo, routes);
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "ring.routes:1: not a tag file: the first line must be \"sluice-tags 1\"\n"));
	RUN(&r, "tag", "stats", "--topo", cli_path("jf.json"),
	    cli_path("ring.tags"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "ring.tags:2: the tags belong to another topology (4 nodes, 4 links, hash 9620bf35d2278935; this one has 16, 32, "));
	/* nothing was written by the failures */
	KTAP_EXPECT(access(out, F_OK));
	KTAP_EXPECT_INT(cli_files_in_dir(), files);
	ktap_result("runtime errors: exit 1, the file and what is wrong, nothing written");
}

static void test_help(void)
{
	struct run r;

	RUN(&r, "tag", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "sluicectl tag compute --topo FILE --routes FILE"));
	KTAP_EXPECT(strstr(r.out, "sluicectl tag check --topo FILE --routes FILE TAGS"));
	KTAP_EXPECT(strstr(r.out, "sluicectl tag stats --topo FILE TAGS"));
	RUN(&r, "tag", "stats", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(!strncmp(r.out, "Usage: sluicectl tag stats --topo FILE TAGS", 43));
	RUN(&r, "--help");
	KTAP_EXPECT(strstr(r.out, "  tag "));
	ktap_result("tag --help at every level");
}

static void (*const tests[])(void) = {
	test_compute,
	test_check,
	test_stats,
	test_deterministic,
	test_usage_errors,
	test_runtime_errors,
	test_help,
};

int main(void)
{
	size_t i;

	cli_init();
	ktap_plan(ARRAY_SIZE(tests));
	cli_mkdtemp("test_tagger_cli");
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	cli_rmdir();
	return ktap_exit();
}
