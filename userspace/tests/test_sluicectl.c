// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sluicectl binary as a user runs it: exit codes, where messages go,
 * and the JSON it prints.  The binary is $SLUICECTL, or the one built next
 * to this test.
 */
#include <fcntl.h>
#include <json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../sluicectl/cmd_version.h"
#include "cli.h"
#include "ktap.h"

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void test_help(void)
{
	static const char *const forms[] = { "--help", "-h", "help" };
	char first[sizeof(((struct run *)0)->out)] = "";
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		RUN(&r, forms[i]);
		KTAP_EXPECT_INT(r.status, 0);
		KTAP_EXPECT_STR(r.err, "");
		KTAP_EXPECT(starts_with(r.out, "Usage: sluicectl [-n NETNS] [-p] COMMAND"));
		KTAP_EXPECT(strstr(r.out, "\n  help "));
		KTAP_EXPECT(strstr(r.out, "\n  version "));
		if (i == 0)
			snprintf(first, sizeof(first), "%s", r.out);
		else
			KTAP_EXPECT_STR(r.out, first);
	}
	ktap_result("--help, -h and help list the commands");
}

static void test_help_command(void)
{
	struct run r;

	RUN(&r, "help", "version");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "Usage: sluicectl version [-j | --json]\n\n"
			"Print the version of sluicectl.\n");
	RUN(&r, "help", "frobnicate");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(starts_with(r.err, "sluicectl: unknown command \"frobnicate\"\n"));
	ktap_result("help COMMAND");
}

static void test_unknown_command(void)
{
	struct run r;

	RUN(&r, "frobnicate");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.out, "");
	KTAP_EXPECT_STR(r.err, "sluicectl: unknown command \"frobnicate\"\n"
			"Run \"sluicectl --help\" for the list of commands.\n");
	RUN(&r, "--frobnicate");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(starts_with(r.err, "sluicectl: unknown option \"--frobnicate\"\n"));
	ktap_result("unknown command or option exits 2");
}

static void test_no_command(void)
{
	struct run r;

	cli_run(&r, NULL, (const char *const []){ NULL });
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.out, "");
	KTAP_EXPECT(starts_with(r.err, "Usage: sluicectl [-n NETNS] [-p] COMMAND"));
	ktap_result("no command exits 2 with the usage");
}

/* -n NETNS before the command: errors before any command runs. */
static void test_netns_option(void)
{
	struct run r;

	RUN(&r, "-n");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.err, "sluicectl: -n needs a namespace name\n");
	RUN(&r, "--netns", "sluice-test-no-such-netns", "version");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.out, "");
	KTAP_EXPECT_STR(r.err, "sluicectl: network namespace sluice-test-no-such-netns does not exist\n");
	RUN(&r, "-n", "../etc", "version");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT_STR(r.err, "sluicectl: \"../etc\" is not a network namespace name\n");
	ktap_result("-n NETNS: a missing name, a missing namespace, a path");
}

static void test_version(void)
{
	struct run r;

	RUN(&r, "version");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "sluicectl " SLUICE_VERSION "\n");
	RUN(&r, "--version");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "sluicectl " SLUICE_VERSION "\n");
	RUN(&r, "version", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "Usage: sluicectl version [-j | --json]\n\n"
			"Print the version of sluicectl.\n");
	RUN(&r, "version", "extra");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.err, "sluicectl: unexpected argument \"extra\"\n"
			"Usage: sluicectl version [-j | --json]\n");
	ktap_result("version");
}

static void expect_version_json(const char *text)
{
	json_object *obj, *ver;

	obj = json_tokener_parse(text);
	if (!KTAP_EXPECT(obj && json_object_is_type(obj, json_type_object))) {
		ktap_diag("not a JSON object: %s", text);
		json_object_put(obj);
		return;
	}
	KTAP_EXPECT_INT(json_object_object_length(obj), 1);
	if (KTAP_EXPECT(json_object_object_get_ex(obj, "version", &ver)) &&
	    KTAP_EXPECT(json_object_is_type(ver, json_type_string)))
		KTAP_EXPECT_STR(json_object_get_string(ver), SLUICE_VERSION);
	json_object_put(obj);
}

static void test_version_json(void)
{
	struct run r;

	RUN(&r, "version", "-j");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.err, "");
	KTAP_EXPECT_STR(r.out, "{\"version\":\"" SLUICE_VERSION "\"}\n");
	expect_version_json(r.out);
	RUN(&r, "version", "--json");
	KTAP_EXPECT_INT(r.status, 0);
	expect_version_json(r.out);
	RUN(&r, "--version", "-j");
	KTAP_EXPECT_INT(r.status, 0);
	expect_version_json(r.out);
	/* -p before the command: the same JSON, indented */
	RUN(&r, "-p", "version", "-j");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, "{\n  \"version\":\"" SLUICE_VERSION "\"\n}\n");
	expect_version_json(r.out);
	RUN(&r, "--pretty");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT(starts_with(r.err, "Usage: sluicectl [-n NETNS] [-p] COMMAND"));
	ktap_result("version -j is JSON, -p makes it pretty");
}

/* Output that cannot be written is a runtime error, not a silent success. */
static void test_write_error(void)
{
	struct run r;

	if (access("/dev/full", W_OK)) {
		ktap_result("write error exits 1 # SKIP no /dev/full");
		return;
	}
	cli_run(&r, "/dev/full", (const char *const []){ "--help", NULL });
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(starts_with(r.err, "sluicectl: cannot write output: "));
	ktap_result("write error exits 1");
}

#define HEADROOM_USAGE \
	"Usage: sluicectl headroom --rate RATE --cable METRES --mtu BYTES " \
	"[--response QUANTA] [-j | --json]\n"

/* The Tagger paper's example, 21968 bytes, and how it adds up. */
static void test_headroom(void)
{
	static const char want[] =
		"headroom 21968 bytes\n"
		"  b_hr = 2 * (s_MTU + s_PFC + r * t_wire) + r * t_pro   (Tagger, eq. 1)\n"
		"       = 2 * (12000 + 512 + 60000) + 30720 bits\n"
		"       = 175744 bits\n"
		"  s_MTU      1500 bytes (--mtu)\n"
		"  s_PFC      64 bytes, a PFC frame\n"
		"  r          40Gbit (--rate)\n"
		"  t_wire     1500 ns: 300 m (--cable) at 5 ns/m\n"
		"  r * t_pro  30720 bits: 60 quanta (--response) of 512 bits\n";
	struct run r;

	RUN(&r, "headroom", "--rate", "40gbit", "--cable", "300", "--mtu", "1500");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.err, "");
	KTAP_EXPECT_STR(r.out, want);
	/* Any order, "--opt=VALUE", the default response given explicitly. */
	RUN(&r, "headroom", "--mtu=1500", "--response", "60", "--cable=300",
	    "--rate", "40Gbit");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, want);
	ktap_result("headroom: Tagger's example");
}

static void expect_json_number(json_object *obj, const char *key,
			       const char *want)
{
	json_object *val;

	if (!KTAP_EXPECT(json_object_object_get_ex(obj, key, &val)) ||
	    !KTAP_EXPECT(json_object_is_type(val, json_type_int) ||
			 json_object_is_type(val, json_type_double)) ||
	    !KTAP_EXPECT_STR(json_object_to_json_string(val), want))
		ktap_diag("for key \"%s\"", key);
}

/* Every input and term in JSON, exact: a fraction of a bit included. */
static void test_headroom_json(void)
{
	static const char *const paper[][2] = {
		{ "rate", "40000000000" }, { "cable_m", "300" },
		{ "mtu", "1500" }, { "response_quanta", "60" },
		{ "pfc_frame", "64" }, { "wire_ns", "1500" },
		{ "wire_bits", "60000" }, { "response_bits", "30720" },
		{ "headroom_bits", "175744" }, { "headroom_bytes", "21968" },
	};
	json_object *obj;
	struct run r;
	size_t i;

	RUN(&r, "headroom", "-j", "--rate", "40gbit", "--cable", "300",
	    "--mtu", "1500");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.err, "");
	obj = json_tokener_parse(r.out);
	if (KTAP_EXPECT(obj && json_object_is_type(obj, json_type_object))) {
		KTAP_EXPECT_INT(json_object_object_length(obj),
				ARRAY_SIZE(paper));
		for (i = 0; i < ARRAY_SIZE(paper); i++)
			expect_json_number(obj, paper[i][0], paper[i][1]);
	} else {
		ktap_diag("not a JSON object: %s", r.out);
	}
	json_object_put(obj);

	/* 100e6 b/s * 15 ns = 1.5 bits; 55971 bits = 6996.375 bytes */
	RUN(&r, "headroom", "--rate", "100mbit", "--cable", "3", "--mtu",
	    "1514", "--json");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out,
			"{\"rate\":100000000,\"cable_m\":3,\"mtu\":1514,"
			"\"response_quanta\":60,\"pfc_frame\":64,\"wire_ns\":15,"
			"\"wire_bits\":1.5,\"response_bits\":30720,"
			"\"headroom_bits\":55971,\"headroom_bytes\":6997}\n");
	obj = json_tokener_parse(r.out);
	if (KTAP_EXPECT(obj))
		expect_json_number(obj, "wire_bits", "1.5");
	json_object_put(obj);
	ktap_result("headroom -j");
}

static void test_headroom_help(void)
{
	struct run r;

	RUN(&r, "headroom", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.err, "");
	KTAP_EXPECT(starts_with(r.out, HEADROOM_USAGE "\n"));
	KTAP_EXPECT(strstr(r.out, "b_hr = 2 * (s_MTU + s_PFC + r * t_wire) + r * t_pro"));
	RUN(&r, "headroom", "--rate", "1gbit", "-h");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(starts_with(r.out, HEADROOM_USAGE));
	RUN(&r, "help", "headroom");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT_STR(r.out, HEADROOM_USAGE "\n"
			"The PFC headroom a port needs per lossless priority.\n");
	RUN(&r, "--help");
	KTAP_EXPECT(strstr(r.out, "\n  headroom "));
	ktap_result("headroom --help");
}

/* Each rejected command line: its message, the usage, exit 2. */
static void test_headroom_errors(void)
{
	static const struct {
		const char	*args[8];
		const char	*msg;
	} cases[] = {
		{ { NULL }, "missing option \"--rate\"" },
		{ { "--cable", "1", "--mtu", "1500" },
		  "missing option \"--rate\"" },
		{ { "--rate", "1gbit", "--mtu", "1500" },
		  "missing option \"--cable\"" },
		{ { "--rate", "1gbit", "--cable", "1" },
		  "missing option \"--mtu\"" },
		{ { "--rate" }, "missing value after \"--rate\"" },
		{ { "--rate", "1gbit", "--mtu" }, "missing value after \"--mtu\"" },
		{ { "--rate", "1gbit", "--rate", "2gbit" },
		  "duplicate option \"--rate\"" },
		{ { "--cable=1", "--cable", "1" }, "duplicate option \"--cable\"" },
		{ { "--frobnicate" }, "unknown option \"--frobnicate\"" },
		{ { "--ra", "1gbit" }, "unknown option \"--ra\"" },
		{ { "-r", "1gbit" }, "unknown option \"-r\"" },
		{ { "--json=yes" }, "unknown option \"--json=yes\"" },
		{ { "40gbit" }, "unexpected argument \"40gbit\"" },
		{ { "--rate", "0" },
		  "\"--rate\" must be a rate above 0 such as 100mbit or 40gbit, not \"0\"" },
		{ { "--rate", "fast" },
		  "\"--rate\" must be a rate above 0 such as 100mbit or 40gbit, not \"fast\"" },
		{ { "--rate=" },
		  "\"--rate\" must be a rate above 0 such as 100mbit or 40gbit, not \"\"" },
		{ { "--rate", "1.5bit" },
		  "\"--rate\" must be a whole number of bits/s, not \"1.5bit\"" },
		{ { "--rate", "18446744073709551616" },
		  "\"--rate\" must be at most 18446744073709551615bit, not \"18446744073709551616\"" },
		{ { "--cable", "100001" },
		  "\"--cable\" must be 0..100000 metres, not \"100001\"" },
		{ { "--cable", "1.5" },
		  "\"--cable\" must be 0..100000 metres, not \"1.5\"" },
		{ { "--cable", "-1" },
		  "\"--cable\" must be 0..100000 metres, not \"-1\"" },
		{ { "--mtu", "0" },
		  "\"--mtu\" must be 1..134217727 bytes, not \"0\"" },
		{ { "--mtu", "128m" },
		  "\"--mtu\" must be 1..134217727 bytes, not \"128m\"" },
		{ { "--mtu", "1500 bytes" },
		  "\"--mtu\" must be 1..134217727 bytes, not \"1500 bytes\"" },
		{ { "--response", "65536" },
		  "\"--response\" must be 0..65535 quanta, not \"65536\"" },
		{ { "--response", "x" },
		  "\"--response\" must be 0..65535 quanta, not \"x\"" },
	};
	const char *argv[10];
	char want[512];
	struct run r;
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		argv[0] = "headroom";
		for (n = 0; cases[i].args[n]; n++)
			argv[n + 1] = cases[i].args[n];
		argv[n + 1] = NULL;
		cli_run(&r, NULL, argv);
		snprintf(want, sizeof(want), "sluicectl: %s\n" HEADROOM_USAGE,
			 cases[i].msg);
		if (!KTAP_EXPECT_INT(r.status, 2) ||
		    !KTAP_EXPECT_STR(r.out, "") ||
		    !KTAP_EXPECT_STR(r.err, want))
			ktap_diag("for case %zu", i);
	}
	ktap_result("headroom: bad arguments exit 2");
}

static void (*const tests[])(void) = {
	test_help,
	test_help_command,
	test_unknown_command,
	test_no_command,
	test_netns_option,
	test_version,
	test_version_json,
	test_write_error,
	test_headroom,
	test_headroom_json,
	test_headroom_help,
	test_headroom_errors,
};

int main(void)
{
	size_t i;

	cli_init();
	ktap_plan(ARRAY_SIZE(tests));
	if (access(sluicectl, X_OK))
		ktap_diag("cannot run %s", sluicectl);
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
