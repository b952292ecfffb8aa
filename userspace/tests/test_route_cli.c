// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "sluicectl route" as a user runs it: exact statistics on a ring worked
 * out by hand, the same bytes for any thread count and for a set computed
 * in shards and merged, the CBD check's exit code and witness, Graphviz
 * output, and every error with its message and nothing written.
 */
#include <json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "ktap.h"

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

/* The dotted @path ("paths_per_pair.avg") of @o as a string, for checks. */
static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static const char *field(json_object *o, const char *path)
{
	char key[64], *dot;

	snprintf(key, sizeof(key), "%s", path);
	dot = strchr(key, '.');
	if (dot) {
		*dot = '\0';
		return field(get(o, key), path + (dot - key) + 1);
	}
	return o ? json_object_get_string(get(o, key)) : NULL;
}

static bool same_file(const char *a, const char *b)
{
	char *x = cli_read_all(a), *y = cli_read_all(b);
	bool same = x && y && !strcmp(x, y);

	free(x);
	free(y);
	return same;
}

/* Writes @text to @name in the scratch directory. */
static void write_file(const char *name, const char *text)
{
	FILE *f = fopen(cli_path(name), "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void gen_ring(void)
{
	struct run r;

	RUN(&r, "topo", "gen", "ring", "--switches", "6", "-o",
	    cli_path("ring.json"));
	KTAP_EXPECT_INT(r.status, 0);
}

/*
 * A ring of 6: from each node 2 nodes at 1 link, 2 at 2 and 1 at 3 with
 * two shortest paths, so 30 pairs, 36 paths, lengths summing to 72.
 */
static void test_ring_stats(void)
{
	json_object *o;
	struct stat st;
	struct run r;
	mode_t mask;

	gen_ring();
	RUN(&r, "route", "compute", "--topo", cli_path("ring.json"),
	    "--algo", "ecmp", "-o", cli_path("ring.routes"), "-j");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.err, "");
	KTAP_EXPECT_STR(r.out,
			"{\"algo\":\"ecmp\",\"shard\":0,\"shards\":1,\"pairs\":30,\"paths\":36,\"hops\":72,\"truncated_pairs\":0}\n");
	/* written through a temporary file, yet with the usual mode */
	mask = umask(0);
	umask(mask);
	KTAP_EXPECT(!stat(cli_path("ring.routes"), &st));
	KTAP_EXPECT_INT(st.st_mode & 0777, 0666 & ~mask);
	RUN(&r, "route", "stats", "--topo", cli_path("ring.json"), "-j",
	    cli_path("ring.routes"));
	KTAP_EXPECT_INT(r.status, 0);
	o = json_tokener_parse(r.out);
	if (KTAP_EXPECT(o)) {
		KTAP_EXPECT_STR(field(o, "pairs"), "30");
		KTAP_EXPECT_STR(field(o, "paths_per_pair.min"), "1");
		KTAP_EXPECT_STR(field(o, "paths_per_pair.max"), "2");
		KTAP_EXPECT_STR(field(o, "paths_per_pair.avg"), "1.2000");
		/* the shortest path in the set, not a constant 0 */
		KTAP_EXPECT_STR(field(o, "path_length.min"), "1");
		KTAP_EXPECT_STR(field(o, "path_length.avg"), "2.0000");
		KTAP_EXPECT_STR(field(o, "path_length.max"), "3");
		KTAP_EXPECT_STR(field(o, "shortest_path_length_avg"), "1.8000");
		KTAP_EXPECT_STR(field(o, "distance_avg"), "1.8000");
		KTAP_EXPECT_STR(field(o, "pairs_without_path"), "0");
	}
	json_object_put(o);
	/* the same, computed in memory */
	RUN(&r, "route", "stats", "--topo", cli_path("ring.json"),
	    "--algo", "ecmp");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out,
			"algo ecmp pairs 30 without-path 0 truncated 0 lanes 1\n"
			"paths 36 per-pair min 1 max 2 avg 1.2000\n"
			"path-length avg 2.0000 max 3\n"
			"shortest-path-length avg 1.8000\n"
			"distance avg 1.8000\n");
	RUN(&r, "route", "stats", "--topo", cli_path("ring.json"), "--pairs",
	    cli_path("ring.routes"));
	KTAP_EXPECT(strstr(r.out, "pair s0 s3 paths 2 shortest 3 avg 3.0000\n"));
	KTAP_EXPECT(strstr(r.out, "pair s5 s0 paths 1 shortest 1 avg 1.0000\n"));
	ktap_result("ring ecmp: exact stats from a file and in memory");
}

/* All shortest paths on a ring wind round it: a CBD of the 6 links. */
static void test_ring_cbd(void)
{
	json_object *o, *cyc;
	struct run r;

	RUN(&r, "route", "check", "--topo", cli_path("ring.json"),
	    cli_path("ring.routes"));
	KTAP_EXPECT_INT(r.status, 3);
	KTAP_EXPECT(!strncmp(r.out, "cbd-free no ", 12));
	KTAP_EXPECT(strstr(r.out, "\ncycle 6\n"));
	RUN(&r, "route", "check", "--topo", cli_path("ring.json"), "-j",
	    cli_path("ring.routes"));
	KTAP_EXPECT_INT(r.status, 3);
	o = json_tokener_parse(r.out);
	cyc = get(o, "cycle");
	if (KTAP_EXPECT(o && cyc)) {
		KTAP_EXPECT_STR(field(o, "cbd_free"), "false");
		KTAP_EXPECT_INT(json_object_array_length(cyc), 6);
	}
	json_object_put(o);
	RUN(&r, "route", "dot", "--topo", cli_path("ring.json"), "--cbd",
	    cli_path("ring.routes"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "digraph routes {"));
	KTAP_EXPECT(strstr(r.out, "[color=red penwidth=3 label=\"6: l"));
	KTAP_EXPECT(!strstr(r.out, "label=\"7: l"));
	RUN(&r, "route", "dot", "--topo", cli_path("ring.json"), "--pair",
	    "s0,s3", cli_path("ring.routes"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "\"s0\" -> \"s1\" [color=blue penwidth=2 label=\"p1\"]") ||
		    strstr(r.out, "\"s0\" -> \"s5\" [color=blue penwidth=2 label=\"p1\"]"));
	KTAP_EXPECT(strstr(r.out, "color=forestgreen penwidth=2 label=\"p2\""));
	/* the cycle alone: its 6 hops in red, no grey fabric */
	RUN(&r, "route", "dot", "--topo", cli_path("ring.json"), "--cbd",
	    "--cycle-only", cli_path("ring.routes"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(!strncmp(r.out, "digraph cycle {\n", 16));
	KTAP_EXPECT(strstr(r.out, "[color=red penwidth=3 label=\"6: l"));
	KTAP_EXPECT(!strstr(r.out, "gray80"));
	ktap_result("ring ecmp: CBD, exit 3, 6-link witness, dot");
}

/* Count of the lines of @s that start with a tab and a quote and end ";". */
static unsigned int dot_nodes(const char *s)
{
	unsigned int n = 0;
	const char *nl;

	for (; (nl = strchr(s, '\n')); s = nl + 1)
		if (s[0] == '\t' && s[1] == '"' && nl[-1] == ';' &&
		    !memchr(s, '>', nl - s))
			n++;
	return n;
}

/*
 * --cycle-only on FC's 32 switches with KSP's 4 paths (the README's
 * quick start): only the switches of the cycle and of the paths that make
 * it, each hop of the check's cycle drawn, each such path labelled by its
 * pair.
 */
static void test_cycle_only(void)
{
	json_object *o, *cyc, *hop, *v;
	const char *topo = cli_path("fc32.json");
	char want[128];
	unsigned int i;
	struct run r;

	RUN(&r, "topo", "gen", "fc", "--switches", "32", "--inter-ports", "8",
	    "--host-ports", "2", "-o", topo);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ksp", "--paths",
	    "4", "-o", cli_path("fc32.ksp"));
	RUN(&r, "route", "check", "--topo", topo, "-j", cli_path("fc32.ksp"));
	KTAP_EXPECT_INT(r.status, 3);
	o = json_tokener_parse(r.out);
	cyc = get(o, "cycle");
	RUN(&r, "route", "dot", "--topo", topo, "--cbd", "--cycle-only",
	    cli_path("fc32.ksp"));
	KTAP_EXPECT_INT(r.status, 0);
	if (KTAP_EXPECT(cyc)) {
		for (i = 0; i < json_object_array_length(cyc); i++) {
			hop = json_object_array_get_idx(cyc, i);
			json_object_object_get_ex(hop, "link", &v);
			snprintf(want, sizeof(want),
				 "[color=red penwidth=3 label=\"%u: l%d@0\"]",
				 i + 1, json_object_get_int(v));
			if (!KTAP_EXPECT(strstr(r.out, want)))
				ktap_diag("no \"%s\"", want);
		}
		/* more than the cycle's own switches, far fewer than 32 */
		KTAP_EXPECT(dot_nodes(r.out) >= json_object_array_length(cyc));
		KTAP_EXPECT(dot_nodes(r.out) < 16);
	}
	KTAP_EXPECT(strstr(r.out, "penwidth=2 label=\"s"));
	KTAP_EXPECT(!strstr(r.out, "gray80"));
	json_object_put(o);
	ktap_result("dot --cbd --cycle-only: the cycle and its paths alone");
}

/* Up-down on a leaf-spine cannot deadlock. */
static void test_updown_clean(void)
{
	struct run r;

	RUN(&r, "topo", "gen", "leafspine", "--leaves", "4", "--spines",
	    "2", "--host-ports", "4", "-o", cli_path("ls.json"));
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "route", "compute", "--topo", cli_path("ls.json"), "--algo",
	    "updown", "-o", cli_path("ls.routes"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out,
			"algo updown shard 0/1 pairs 12 paths 24 hops 48 truncated 0\n");
	RUN(&r, "route", "check", "--topo", cli_path("ls.json"),
	    cli_path("ls.routes"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(!strncmp(r.out, "cbd-free yes ", 13));
	ktap_result("updown on a leaf-spine: CBD-free, exit 0");
}

/* Threads and shards change nothing in the output. */
static void test_deterministic(void)
{
	static struct run r, whole;
	char topo[PATH_MAX];
	char shard[16];
	int i;

	snprintf(topo, sizeof(topo), "%s", cli_path("jf.json"));
	RUN(&r, "topo", "gen", "jellyfish", "--switches", "16",
	    "--inter-ports", "4", "--host-ports", "1", "--seed", "3", "-o",
	    topo);
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ksp",
	    "--paths", "4", "--threads", "1", "-o", cli_path("t1"));
	KTAP_EXPECT_INT(r.status, 0);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ksp",
	    "--paths", "4", "--threads", "3", "-o", cli_path("t3"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(same_file(cli_path("t1"), cli_path("t3")));
	for (i = 0; i < 3; i++) {
		char name[16];

		snprintf(shard, sizeof(shard), "%d/3", i);
		snprintf(name, sizeof(name), "s%d", i);
		RUN(&r, "route", "compute", "--topo", topo, "--algo", "ksp",
		    "--paths", "4", "--shard", shard, "-o", cli_path(name));
		KTAP_EXPECT_INT(r.status, 0);
	}
	/* shards in any order */
	RUN(&r, "route", "merge", "--topo", topo, "-o", cli_path("merged"),
	    cli_path("s2"), cli_path("s0"), cli_path("s1"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.err, "");
	KTAP_EXPECT(!strncmp(r.out, "algo ksp shard 0/1 pairs 240 paths ", 35));
	KTAP_EXPECT(same_file(cli_path("t1"), cli_path("merged")));
	/* the shards checked in turn: the merged set's verdict and witness */
	RUN(&r, "route", "check", "--topo", topo, cli_path("merged"));
	whole = r;
	RUN(&r, "route", "check", "--topo", topo, cli_path("s1"),
	    cli_path("s2"), cli_path("s0"));
	KTAP_EXPECT_INT(r.status, whole.status);
	KTAP_EXPECT_STR(r.out, whole.out);
	KTAP_EXPECT_STR(r.err, "");
	ktap_diag("route check of the shards: exit %d, %.40s", r.status, r.out);
	RUN(&r, "route", "check", "--topo", topo, cli_path("s0"),
	    cli_path("s1"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: shard 0/3 given with 2 shards\n");
	RUN(&r, "route", "merge", "--topo", topo, "-o", cli_path("bad"),
	    cli_path("s0"), cli_path("s1"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: shard 0/3 given with 2 shards\n");
	RUN(&r, "route", "merge", "--topo", topo, "-o", cli_path("bad"),
	    cli_path("s0"), cli_path("s0"), cli_path("s1"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: shard 0/3 given twice\n");
	KTAP_EXPECT(access(cli_path("bad"), F_OK) != 0);
	ktap_result("threads 1 and 3, shards merged or checked in turn: the same bytes, the same verdict");
}

static void expect_usage(const char *msg, struct run *r)
{
	KTAP_EXPECT_INT(r->status, 2);
	if (!KTAP_EXPECT(!strncmp(r->err, msg, strlen(msg))))
		ktap_diag("got: %s", r->err);
}

static void test_usage_errors(void)
{
	int before = cli_files_in_dir();
	char topo[PATH_MAX];
	struct run r;

	snprintf(topo, sizeof(topo), "%s", cli_path("ring.json"));

	RUN(&r, "route", "compute", "--topo", topo, "-o", cli_path("x"));
	expect_usage("sluicectl route compute: --algo is required\n", &r);
	RUN(&r, "route", "compute", "--algo", "fc");
	expect_usage("sluicectl route compute: --topo is required\n", &r);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "spf");
	expect_usage("sluicectl route compute: --algo: unknown algorithm \"spf\"\n", &r);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ksp",
	    "--paths", "0");
	expect_usage("sluicectl route compute: --paths: \"0\" is not a number from 1 to 65536\n",
		     &r);
	/* the library's bound (SLUICE_KSP_PATHS_MAX), before any work */
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ksp",
	    "--paths", "70000");
	expect_usage("sluicectl route compute: --paths: \"70000\" is not a number from 1 to 65536\n",
		     &r);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "fc",
	    "--paths", "3");
	expect_usage("sluicectl route compute: --paths applies to ksp, ecmp and updown\n",
		     &r);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ecmp",
	    "--shard", "3/3");
	expect_usage("sluicectl route compute: --shard: \"3/3\" is not I/N with 0 <= I < N\n",
		     &r);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ecmp", "-j");
	expect_usage("sluicectl route compute: -j needs -o FILE: without it the routes go to stdout\n",
		     &r);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ecmp", "-j",
	    "-o", "-");
	expect_usage("sluicectl route compute: -j needs -o FILE: without it the routes go to stdout\n",
		     &r);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ecmp",
	    "--shard", "0/+2");
	expect_usage("sluicectl route compute: --shard: \"0/+2\" is not I/N with 0 <= I < N\n",
		     &r);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ecmp",
	    "--shard", "0/4294967298");
	expect_usage("sluicectl route compute: --shard: \"0/4294967298\" is not I/N with 0 <= I < N\n",
		     &r);
	RUN(&r, "route", "compute", "--topo", topo, "--algo", "ecmp",
	    "--algo", "ksp");
	expect_usage("sluicectl route compute: --algo given twice\n", &r);
	RUN(&r, "route", "check", "--topo", topo);
	expect_usage("sluicectl route check: no route file given\n", &r);
	RUN(&r, "route", "stats", "--topo", topo, "--lanes", "2",
	    cli_path("ring.routes"));
	expect_usage("sluicectl route stats: --lanes needs --algo, not a route file\n",
		     &r);
	RUN(&r, "route", "dot", "--topo", topo, cli_path("ring.routes"));
	expect_usage("sluicectl route dot: give one of --pair SOURCE,DESTINATION and --cbd\n",
		     &r);
	RUN(&r, "route", "dot", "--topo", topo, "--pair", "s0,s1",
	    "--cycle-only", cli_path("ring.routes"));
	expect_usage("sluicectl route dot: --cycle-only applies to --cbd\n", &r);
	RUN(&r, "route", "frobnicate");
	expect_usage("sluicectl route: unknown route command \"frobnicate\"\n", &r);
	KTAP_EXPECT_INT(cli_files_in_dir(), before);
	ktap_result("usage errors: exit 2, the exact message, nothing written");
}

/* A route file with @body after a valid header for the ring. */
static void routes_with(const char *name, const char *body)
{
	char *good = cli_read_all(cli_path("ring.routes"));
	char *end = good ? strstr(good, "pairs 30 ") : NULL;
	FILE *f = fopen(cli_path(name), "w");

	if (f && end) {
		fwrite(good, 1, end - good, f);
		fputs(body, f);
	}
	if (f)
		fclose(f);
	free(good);
}

static void expect_runtime(const char *msg, struct run *r)
{
	KTAP_EXPECT_INT(r->status, 1);
	KTAP_EXPECT_STR(r->err, msg);
	KTAP_EXPECT_STR(r->out, "");
}

static void test_bad_files(void)
{
	char topo[PATH_MAX], msg[PATH_MAX + 256];
	struct run r;

	snprintf(topo, sizeof(topo), "%s", cli_path("ring.json"));

	routes_with("trunc", "pairs 1 paths 1 hops 1 truncated 0\ns0 s1: 0\n");
	RUN(&r, "route", "stats", "--topo", topo, cli_path("trunc"));
	snprintf(msg, sizeof(msg),
		 "sluicectl: %s:7: the file ends before \"end\": truncated?\n",
		 cli_path("trunc"));
	expect_runtime(msg, &r);

	/* a directory for a file says so, not "Input/output error" */
	RUN(&r, "route", "check", "--topo", topo, cli_path(""));
	snprintf(msg, sizeof(msg),
		 "sluicectl: %s: is a directory, not a file\n", cli_path(""));
	expect_runtime(msg, &r);

	routes_with("count", "pairs 2 paths 1 hops 1 truncated 0\ns0 s1: 0\nend\n");
	RUN(&r, "route", "check", "--topo", topo, cli_path("count"));
	snprintf(msg, sizeof(msg),
		 "sluicectl: %s:7: the header promised 2 pairs, 1 paths and 1 hops; the file has 1, 1 and 1\n",
		 cli_path("count"));
	expect_runtime(msg, &r);

	routes_with("link", "pairs 1 paths 1 hops 1 truncated 0\ns0 s1: 6\nend\n");
	RUN(&r, "route", "check", "--topo", topo, cli_path("link"));
	snprintf(msg, sizeof(msg),
		 "sluicectl: %s:6: path 1: a link id from 0 to 5, not \"6\"\n",
		 cli_path("link"));
	expect_runtime(msg, &r);

	routes_with("walk", "pairs 1 paths 1 hops 1 truncated 0\ns0 s1: 2\nend\n");
	RUN(&r, "route", "check", "--topo", topo, cli_path("walk"));
	snprintf(msg, sizeof(msg),
		 "sluicectl: %s:6: s0 s1, path 1: link 2 does not leave s0\n",
		 cli_path("walk"));
	expect_runtime(msg, &r);

	routes_with("node", "pairs 1 paths 0 hops 0 truncated 0\ns0 s9:\nend\n");
	RUN(&r, "route", "check", "--topo", topo, cli_path("node"));
	snprintf(msg, sizeof(msg),
		 "sluicectl: %s:6: \"s9\" is not a node of the topology\n",
		 cli_path("node"));
	expect_runtime(msg, &r);

	/* the ring of 7 is another topology */
	RUN(&r, "topo", "gen", "ring", "--switches", "7", "-o",
	    cli_path("ring7.json"));
	RUN(&r, "route", "stats", "--topo", cli_path("ring7.json"),
	    cli_path("ring.routes"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, ":2: the routes belong to another topology (6 nodes, 6 links, hash "));

	write_file("junk", "hello\n");
	RUN(&r, "route", "stats", "--topo", topo, cli_path("junk"));
	snprintf(msg, sizeof(msg),
		 "sluicectl: %s:1: not a route file: the first line must be \"sluice-routes 1\"\n",
		 cli_path("junk"));
	expect_runtime(msg, &r);
	ktap_result("bad route files: exit 1, file and line named");
}

static void test_help(void)
{
	struct run r;

	RUN(&r, "route", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "sluicectl route compute --topo FILE --algo"));
	RUN(&r, "route", "check", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(!strncmp(r.out, "Usage: sluicectl route check --topo FILE ROUTES", 47));
	RUN(&r, "help", "route");
	KTAP_EXPECT_INT(r.status, 0);
	ktap_result("route --help at every level");
}

/*
 * route export on the ring of 6 (ecmp: s0 reaches s3 both ways round): the
 * LFT is refused, nothing written, unless --first; the JSON holds both.
 */
static void test_export(void)
{
	static const char *const bad[][8] = {
		{ "export", "--topo", "t.json", "r", NULL },
		{ "export", "--topo", "t.json", "r", "--to", "nexthops-json",
		  "--first", NULL },
	};
	static const char *const msg[] = {
		"sluicectl route export: --to { lft | nexthops-json } is required\n",
		"sluicectl route export: --first is for --to lft: nexthops-json holds every next hop\n",
	};
	char topo[PATH_MAX], routes[PATH_MAX], out[PATH_MAX];
	json_object *o;
	struct run r;
	size_t i;

	snprintf(topo, sizeof(topo), "%s", cli_path("ring.json"));
	snprintf(routes, sizeof(routes), "%s", cli_path("ring.routes"));
	snprintf(out, sizeof(out), "%s", cli_path("ring.lft"));
	RUN(&r, "route", "export", "--topo", topo, routes, "--to", "lft",
	    "-o", out);
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: node s0 forwards destination s3 by ports 1 (path 1 of s0 s3) and 2 (path 2 of s0 s3): an LFT holds one port per destination (keep the first path's with --first)\n");
	KTAP_EXPECT(access(out, F_OK));
	RUN(&r, "route", "export", "--topo", topo, routes, "--to", "lft",
	    "--first");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(starts_with(r.out, "Unicast lids [0x0-0x6] of switch Lid 1 guid 0x0200000000000001 (s0):\n"));
	KTAP_EXPECT(strstr(r.out, "\n0x0004 001 : (Switch portguid 0x0200000000000004: 's3')\n"));
	RUN(&r, "route", "export", "--topo", topo, routes, "--to",
	    "nexthops-json");
	KTAP_EXPECT_INT(r.status, 0);
	o = json_tokener_parse(r.out);
	KTAP_EXPECT(o && !strcmp(field(o, "format"), "sluice-nexthops"));
	json_object_put(o);
	KTAP_EXPECT(strstr(r.out, "{\"name\":\"s0\",\"ports\":[{\"port\":1,\"link\":0,\"peer\":\"s1\"},{\"port\":2,\"link\":5,\"peer\":\"s5\"}],"
			   "\"nexthops\":{\"s1\":[{\"port\":1,\"link\":0,\"peer\":\"s1\",\"paths\":3,\"lanes\":[0]}],"));
	KTAP_EXPECT(strstr(r.out, "\"s3\":[{\"port\":1,\"link\":0,\"peer\":\"s1\",\"paths\":1,\"lanes\":[0]},"
			   "{\"port\":2,\"link\":5,\"peer\":\"s5\",\"paths\":1,\"lanes\":[0]}]"));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		cli_expect_usage("route", bad[i], msg[i]);
	ktap_result("export: an LFT refused (nothing written) or --first; every next hop in JSON; usage errors");
}

static void (*const tests[])(void) = {
	test_ring_stats,
	test_ring_cbd,
	test_cycle_only,
	test_updown_clean,
	test_deterministic,
	test_usage_errors,
	test_bad_files,
	test_export,
	test_help,
};

int main(void)
{
	size_t i;

	cli_init();
	ktap_plan(ARRAY_SIZE(tests));
	cli_mkdtemp("test_route_cli");
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	cli_rmdir();
	return ktap_exit();
}
