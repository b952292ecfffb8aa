// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl: configuration and status of sluice qdiscs beyond what tc says.
 *
 * usage: sluicectl { -h | --help | -V | --version | [-j] [-p] [-v] [-n NETNS] COMMAND [ARGUMENTS] }
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sluice/fabric_nl.h>
#include <sluice/switch.h>
#include "args.h"
#include "jout.h"
#include "sluicectl.h"

static const struct command commands[] = {
	{ "help", help_main, "Show the commands, or the usage and options of one",
	  "[COMMAND [SUBCOMMAND]]", NULL },
	{ "version", version_main, "Print the version of sluicectl",
	  "[-j | --json]", NULL },
	{ "topo", topo_main, "Generate, summarise, draw, import and export fabric topologies",
	  "{ gen FAMILY [OPTIONS] | show FILE [-j] | dot FILE | import --from F FILE | export --to F FILE } ...",
	  NULL },
	{ "route", route_main, "Compute, check, summarise, draw, export and load route sets",
	  "{ compute | check | stats | dot | merge | export | sport | load | unload | show } ...", NULL },
	{ "tag", tag_main,
	  "Tagger priorities for routes: compute, check and count tag tables",
	  "{ compute | check | stats } ...", NULL },
	{ "analyze", analyze_main, "Throughput of a traffic matrix on a route set; the Clos baseline",
	  "--topo FILE { --routes FILE | --algo ALGO } --traffic T [OPTIONS] | clos ...", NULL },
	{ "switch", switch_main,
	  "The switch of a namespace: tag source, maps, Tagger counters",
	  "{ show | set } ...", NULL },
	{ "map", map_main, "Load, show and flush the switch's Tagger maps",
	  "{ load | show | flush } ...", NULL },
	{ "stats", port_stats_main,
	  "Settings and counters of the switch's ports, per class and priority",
	  "[-n NETNS] [-j | --json | --format { text | json | sai | openmetrics }] [DEV]",
	  NULL },
	{ "monitor", monitor_main, "Print the switch's events as they arrive",
	  "[-n NETNS] [-j | --json] [--count N] [--timeout TIME]", NULL },
	{ "fabric", fabric_main, "A fabric of namespaces on this machine, its counters and connectivity",
	  "{ up TOPOLOGY [OPTIONS] | down | show | exec NODE -- COMMAND | stats [NODE...] | ping | deadlock }\n"
	  "\t[--name NAME]",
	  NULL },
	{ "host", host_main,
	  "A host's TCP profile toward the fabric: TCP-Bolt's route metrics, shown and removed",
	  "{ bolt | show | off } ...", NULL },
	{ "experiment", experiment_main,
	  "Run an experiment: deadlock (FC's Section 6), bolt (TCP-Bolt's), bcube (PortFC's), faca (FaCa's)",
	  "{ deadlock | bolt | bcube | faca } [OPTIONS]", NULL },
	{ "int", int_main,
	  "In-band telemetry probes: send them down a path, answer them, read them in captures",
	  "{ probe | echo | decode } [ARGUMENTS]", NULL },
	{ "faca", faca_main,
	  "FaCa on hosts: the agent that probes paths and leases source ports, and the hook",
	  "{ agent | show | sport | hook } [ARGUMENTS]", NULL },
	{ "headroom", headroom_main,
	  "The PFC headroom a port needs per lossless priority",
	  "--rate RATE --cable METRES --mtu BYTES [--response QUANTA] [-j | --json]",
	  NULL },
};

#define N_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < N_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

static void print_help(FILE *f)
{
	size_t i;

	fputs("Usage: sluicectl [-j] [-p] [-v] [-n NETNS] COMMAND [ARGUMENTS]\n"
	      "       sluicectl { -h | --help | -V | --version }\n"
	      "       sluicectl help [COMMAND [SUBCOMMAND]]\n"
	      "\n"
	      "Options, before the command:\n"
	      "  -j, --json          print JSON, as the command's own -j\n"
	      "  -p, --pretty        print the JSON of -j indented, over several lines\n"
	      "  -v, --verbose       as the command's own -v: say what is being done\n"
	      "  -n, --netns NETNS   run the command in network namespace NETNS\n"
	      "                      (a name under /run/netns, as \"ip -n\")\n"
	      "  -V, --version       print the version and exit\n"
	      "  -h, --help          print this help and exit\n"
	      "\n"
	      "Commands:\n", f);
	for (i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fputs("\nRun \"sluicectl help COMMAND [SUBCOMMAND]\" for the usage and options of one.\n",
	      f);
}

static int unknown_command(const char *name)
{
	fprintf(stderr, "sluicectl: unknown command \"%s\"\n"
		"Run \"sluicectl --help\" for the list of commands.\n", name);
	return EXIT_USAGE;
}

/* A group's usage is its commands, "{ compute | check | ... }". */
static bool is_group(const struct command *cmd)
{
	return cmd->usage[0] == '{';
}

/*
 * "help COMMAND" is "COMMAND --help" and "help COMMAND SUBCOMMAND" is
 * "COMMAND SUBCOMMAND --help": one help, generated from the tables.
 */
int help_main(const struct command *cmd, int argc, char **argv)
{
	static const struct args_spec spec = {
		.max_operands = 2, .operands = "COMMAND [SUBCOMMAND]",
	};
	char *sub_argv[4], help[] = "--help";
	const struct command *about;
	const char *val[1];
	uint64_t num[1];
	struct args a = { .val = val, .num = num };

	if (args_parse(cmd, &spec, argc, argv, &a))
		return a.exit;
	if (!a.n_operands) {
		print_help(stdout);
		return 0;
	}
	about = find_command(a.operands[0]);
	if (!about)
		return unknown_command(a.operands[0]);
	if (a.n_operands == 2 && !is_group(about))
		return cmd_error(cmd, "\"%s\" has no subcommands, so no \"%s\"",
				   about->name, a.operands[1]);
	sub_argv[0] = (char *)about->name;
	sub_argv[1] = a.n_operands == 2 ? a.operands[1] : help;
	sub_argv[2] = a.n_operands == 2 ? help : NULL;
	sub_argv[3] = NULL;
	return about->main(about, a.n_operands + 1, sub_argv);
}

enum main_opt { M_JSON, M_PRETTY, M_VERBOSE, M_NETNS, M_VERSION, N_MAIN };

static const struct arg_opt main_opts[] = {
	[M_JSON]	= ARG_JSON,
	[M_PRETTY]	= ARG_F("--pretty", 'p', "print the JSON of -j indented"),
	[M_VERBOSE]	= ARG_VERBOSE,
	[M_NETNS]	= ARG_S("--netns", 'n', "NETNS", "run the command in network namespace NETNS"),
	[M_VERSION]	= ARG_F("--version", 'V', "print the version and exit"),
};

static int run(int argc, char **argv)
{
	static const struct command self = {
		"", NULL, "", "[-j] [-p] [-v] [-n NETNS] COMMAND [ARGUMENTS]", NULL,
	};
	static const struct args_spec spec = {
		.opts = main_opts, .n_opts = N_MAIN, .max_operands = -1,
		.in_order = true, .help = print_help,
	};
	char err[SLUICE_ERRLEN], *version[] = { "version", NULL };
	const struct command *cmd;
	const char *val[N_MAIN];
	uint64_t num[N_MAIN];
	struct args a = { .val = val, .num = num };

	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (args_parse(&self, &spec, argc, argv, &a))
		return a.exit;
	args_global_json = val[M_JSON];
	args_global_verbose = val[M_VERBOSE];
	if (val[M_PRETTY])
		jout_pretty(true);
	if (val[M_VERSION]) {
		cmd = find_command("version");
		return cmd->main(cmd, 1, version);
	}
	if (!a.n_operands) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (val[M_NETNS] && sluice_netns_enter(val[M_NETNS], err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	cmd = find_command(a.operands[0]);
	if (!cmd)
		return unknown_command(a.operands[0]);
	return cmd->main(cmd, a.n_operands, a.operands);
}

int main(int argc, char **argv)
{
	int ret = run(argc, argv);

	/* Output that never arrived (a full disk, a closed pipe) is a failure. */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "sluicectl: cannot write output: %s\n",
			strerror(errno));
		return EXIT_RUNTIME;
	}
	return ret;
}
