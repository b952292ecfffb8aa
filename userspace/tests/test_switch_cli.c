// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "sluicectl switch|map|stats|monitor" as a user runs them, on a host
 * without the sluice family: --help at every level, every usage error with
 * its message and exit code 2, files refused before any kernel is asked,
 * and the commands that need the kernel failing cleanly with exit 1.  What
 * they do against a kernel is tested in the VM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "ktap.h"

#define NO_FAMILY \
	"sluicectl: generic netlink family \"sluice\" not found (is sch_sluice loaded?)\n"

/* Whether this host has the family (sch_sluice loaded): a VM, not a CI. */
static bool family;

static void write_file(const char *name, const char *text)
{
	FILE *f = fopen(cli_path(name), "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The first line of @s equals @line. */
static bool first_line(const char *s, const char *line)
{
	size_t n = strlen(line);

	return !strncmp(s, line, n) && s[n] == '\n';
}

static void test_help(void)
{
	static const struct {
		const char	*args[8];
		const char	*first;		/* stdout's first line */
	} cases[] = {
		{ { "switch", "--help" },
		  "Usage: sluicectl switch { show | set } ..." },
		{ { "switch", "show", "--help" },
		  "Usage: sluicectl switch show [-n NETNS] [-j | --json]" },
		{ { "switch", "set", "-h" },
		  "Usage: sluicectl switch set [-n NETNS] tag-source { none | ip-ttl | mpls-ttl | dscp | mpls-tc | pcp | mpls-depth }" },
		{ { "map", "-h" }, "Usage: sluicectl map { load | show | flush } ..." },
		{ { "map", "load", "f", "--port", "1=a", "--help" },
		  "Usage: sluicectl map load [-n NETNS] FILE [--node NAME] [--port LINK=DEV]... [--initial-ttl N]" },
		{ { "map", "show", "--help" },
		  "Usage: sluicectl map show [-n NETNS] [-j | --json]" },
		{ { "map", "flush", "--help" },
		  "Usage: sluicectl map flush [-n NETNS]" },
		{ { "stats", "--help" },
		  "Usage: sluicectl stats [-n NETNS] [-j | --json | --format { text | json | sai | openmetrics }] [DEV]" },
		{ { "monitor", "--help" },
		  "Usage: sluicectl monitor [-n NETNS] [-j | --json] [--count N] [--timeout TIME]" },
		{ { "help", "map" },
		  "Usage: sluicectl map { load | show | flush } ..." },
	};
	unsigned int i, right = 0;
	struct run r;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		cli_run(&r, NULL, cases[i].args);
		if (r.status == 0 && !r.err[0] && first_line(r.out, cases[i].first))
			right++;
		else
			ktap_diag("case %u: status %d out \"%.80s\" err \"%.80s\"",
				  i, r.status, r.out, r.err);
	}
	KTAP_EXPECT_INT(right, ARRAY_SIZE(cases));
	/* the group's help lists its commands and their usage */
	RUN(&r, "map", "--help");
	KTAP_EXPECT(strstr(r.out, "\n  load  Replace the maps with a map file's, or with a node's tag tables\n"));
	KTAP_EXPECT(strstr(r.out, "\n       sluicectl map flush [-n NETNS]\n"));
	RUN(&r, "--help");
	KTAP_EXPECT(strstr(r.out, "\n  switch     The switch of a namespace: tag source, maps, Tagger counters\n"));
	KTAP_EXPECT(strstr(r.out, "\n  monitor    Print the switch's events as they arrive\n"));
	ktap_result("--help at every level");
}

static void test_usage(void)
{
	static const struct {
		const char	*args[10];
		const char	*msg;		/* stderr's first line */
	} cases[] = {
		{ { "switch" }, "Usage: sluicectl switch { show | set } ..." },
		{ { "switch", "bogus" },
		  "sluicectl switch: unknown switch command \"bogus\"" },
		{ { "switch", "show", "extra" },
		  "sluicectl switch show: unexpected argument \"extra\"" },
		{ { "switch", "set" }, "sluicectl switch set: nothing to set" },
		{ { "switch", "set", "source", "pcp" },
		  "sluicectl switch set: unknown setting \"source\"" },
		{ { "switch", "set", "tag-source" },
		  "sluicectl switch set: tag-source needs a value" },
		{ { "switch", "set", "tag-source", "ttl" },
		  "sluicectl switch set: tag-source: \"ttl\" is not none, ip-ttl, mpls-ttl, dscp, mpls-tc, pcp or mpls-depth" },
		{ { "switch", "set", "tag-source", "pcp", "dscp" },
		  "sluicectl switch set: unexpected argument \"dscp\"" },
		{ { "map", "load", "a", "b" }, "sluicectl map load: one file, not 2" },
		{ { "map", "load", "f", "--port", "3" },
		  "sluicectl map load: --port: \"3\" is not LINK=DEV (a link id and a device name)" },
		{ { "map", "load", "f", "--port", "1=a/b" },
		  "sluicectl map load: --port: \"1=a/b\" is not LINK=DEV (a link id and a device name)" },
		{ { "map", "load", "f", "--port", "1=a", "--port", "1=b" },
		  "sluicectl map load: --port: link 1 given twice" },
		{ { "map", "load", "f", "--initial-ttl", "256" },
		  "sluicectl map load: --initial-ttl: \"256\" is not a number from 1 to 255" },
		{ { "map", "load", "f", "--generation", "4294967296" },
		  "sluicectl map load: --generation: \"4294967296\" is not a number from 0 to 4294967295" },
		/* --node takes "--port" as its value, not as an option */
		{ { "map", "load", "--node", "--port", "f", "g" },
		  "sluicectl map load: one file, not 2" },
		{ { "map", "show", "f" }, "sluicectl map show: unexpected argument \"f\"" },
		{ { "stats", "a/b" }, "sluicectl stats: \"a/b\" is not a device name" },
		{ { "monitor", "x" }, "sluicectl monitor: unexpected argument \"x\"" },
		{ { "monitor", "--count", "0" },
		  "sluicectl monitor: --count: \"0\" is not a number of 1 or more" },
		{ { "monitor", "--timeout", "1." },
		  "sluicectl monitor: --timeout: \"1.\" is not a time from 1ms to 604800s in whole milliseconds (a bare number is seconds)" },
		{ { "monitor", "--timeout", "604801" },
		  "sluicectl monitor: --timeout: \"604801\" is not a time from 1ms to 604800s in whole milliseconds (a bare number is seconds)" },
		{ { "monitor", "--timeout", "0.0005" },
		  "sluicectl monitor: --timeout: \"0.0005\" is not a time from 1ms to 604800s in whole milliseconds (a bare number is seconds)" },
	};
	unsigned int i, right = 0;
	struct run r;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		cli_run(&r, NULL, cases[i].args);
		if (r.status == 2 && !r.out[0] &&
		    first_line(r.err, cases[i].msg) &&
		    strstr(r.err, "Usage: sluicectl "))
			right++;
		else
			ktap_diag("case %u: status %d err \"%.160s\"", i,
				  r.status, r.err);
	}
	KTAP_EXPECT_INT(right, ARRAY_SIZE(cases));
	/* the usage line is the command's own */
	RUN(&r, "map", "load");
	KTAP_EXPECT_STR(r.err, "sluicectl map load: no file given\n"
			"Usage: sluicectl map load [-n NETNS] FILE [--node NAME] [--port LINK=DEV]... [--initial-ttl N]\n"
			"\t[--generation G] [-j | --json]\n");
	RUN(&r, "stats", "a", "b");
	KTAP_EXPECT_STR(r.err, "sluicectl stats: unexpected argument \"b\"\n"
			"Usage: sluicectl stats [-n NETNS] [-j | --json | --format { text | json | sai | openmetrics }] [DEV]\n");
	RUN(&r, "stats", "--format", "prometheus");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(!strncmp(r.err, "sluicectl stats: --format: \"prometheus\" is not text, json, sai or openmetrics\n", 77));
	RUN(&r, "stats", "-j", "--format", "sai");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(!strncmp(r.err, "sluicectl stats: -j and --format sai: one format\n", 49));
	ktap_result("usage errors: the message, the usage, exit 2");
}

/* Map and tag files are refused before any kernel is asked. */
static void test_files(void)
{
	static const struct {
		const char	*file;
		const char	*text;
		const char	*args[4];
		int		status;
		const char	*msg;
	} cases[] = {
		{ "bad.maps", "sluice-maps 1\nin l0 1 9\nend\n", { 0 }, 1,
		  "sluicectl: %s:2: in l0 1 VALUE: VALUE must be PRIO 0 to 7" },
		{ "dup.maps", "sluice-maps 1\ntag * 1 2\ntag * 1 3\nend\n", { 0 }, 1,
		  "sluicectl: %s:3: tag * 1: given twice (first on line 2)" },
		{ "short.maps", "# cut short\nsluice-maps 1\nin l0 1 0\n", { 0 }, 1,
		  "sluicectl: %s:4: the file ends before \"end\": truncated?" },
		{ "other.txt", "hello\n", { 0 }, 1,
		  "sluicectl: %s: neither a map file (\"sluice-maps 1\") nor a tag file (\"sluice-tags 1\")" },
		{ "node.maps", "sluice-maps 1\nend\n", { "--node", "s0" }, 2,
		  "sluicectl map load: %s is a map file: --node, --port and --initial-ttl are for tag files" },
		{ "port.maps", "sluice-maps 1\nend\n", { "--port", "1=x" }, 2,
		  "sluicectl map load: %s is a map file: --node, --port and --initial-ttl are for tag files" },
	};
	char want[512], path[256];
	const char *args[8];
	unsigned int i, k, right = 0;
	struct run r;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		write_file(cases[i].file, cases[i].text);
		snprintf(path, sizeof(path), "%s", cli_path(cases[i].file));
		args[0] = "map";
		args[1] = "load";
		args[2] = path;
		for (k = 0; k < 4 && cases[i].args[k]; k++)
			args[3 + k] = cases[i].args[k];
		args[3 + k] = NULL;
		cli_run(&r, NULL, args);
		snprintf(want, sizeof(want), cases[i].msg, path);
		if (r.status == cases[i].status && !r.out[0] &&
		    first_line(r.err, want))
			right++;
		else
			ktap_diag("case %u: status %d err \"%.200s\"", i,
				  r.status, r.err);
	}
	KTAP_EXPECT_INT(right, ARRAY_SIZE(cases));
	RUN(&r, "map", "load", cli_path("missing.maps"));
	KTAP_EXPECT_INT(r.status, 1);
	snprintf(want, sizeof(want), "sluicectl: %s: No such file or directory\n",
		 cli_path("missing.maps"));
	KTAP_EXPECT_STR(r.err, want);
	ktap_result("map load checks its file before it asks the kernel");
}

static void test_no_kernel(void)
{
	static const char *const cases[][8] = {
		{ "switch", "show", "-j" },
		{ "switch", "set", "tag-source", "dscp" },
		{ "map", "show" },
		{ "map", "flush" },
		{ "map", "load", "@good.maps" },
		{ "stats" },
		{ "monitor", "--count", "1" },
		{ "monitor", "-j", "--timeout", "0.1" },
	};
	char good[256], tags[256];
	const char *args[8];
	unsigned int i, k, right = 0;
	struct run r;

	write_file("good.maps", "sluice-maps 1\nin * 0 0\nend\n");
	write_file("s0.tags", "sluice-tags 1\n");
	snprintf(good, sizeof(good), "%s", cli_path("good.maps"));
	snprintf(tags, sizeof(tags), "%s", cli_path("s0.tags"));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		for (k = 0; cases[i][k]; k++)
			args[k] = !strcmp(cases[i][k], "@good.maps") ? good :
				  !strcmp(cases[i][k], "@s0.tags") ? tags :
				  cases[i][k];
		args[k] = NULL;
		cli_run(&r, NULL, args);
		if (family) {
			/* a kernel answered: it is the VM tests' business */
			right++;
			continue;
		}
		if (r.status == 1 && !r.out[0] && !strcmp(r.err, NO_FAMILY))
			right++;
		else
			ktap_diag("case %u: status %d out \"%.80s\" err \"%.160s\"",
				  i, r.status, r.out, r.err);
	}
	KTAP_EXPECT_INT(right, ARRAY_SIZE(cases));
	ktap_result("without the family, every kernel command fails cleanly%s",
		    family ? " # SKIP sch_sluice is loaded here" : "");
}

static void test_netns(void)
{
	struct run r;

	RUN(&r, "switch", "show", "-n", "sluice-no-such-netns-4711");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: network namespace sluice-no-such-netns-4711 does not exist\n");
	RUN(&r, "monitor", "--netns", "../etc");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: \"../etc\" is not a network namespace name\n");
	RUN(&r, "stats", "-n", "..");
	KTAP_EXPECT_STR(r.err, "sluicectl: \"..\" is not a network namespace name\n");
	KTAP_EXPECT_STR(r.out, "");
	ktap_result("-n NETNS that does not exist, or is no name, fails clearly");
}

static void (*const tests[])(void) = {
	test_help,
	test_usage,
	test_files,
	test_no_kernel,
	test_netns,
};

int main(void)
{
	struct run r;
	size_t i;

	cli_init();
	cli_mkdtemp("test_switch_cli");
	RUN(&r, "switch", "show");
	family = r.status == 0;
	ktap_plan(ARRAY_SIZE(tests));
	if (family)
		ktap_diag("the sluice family is here: kernel-less checks are skipped");
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	cli_rmdir();
	return ktap_exit();
}
