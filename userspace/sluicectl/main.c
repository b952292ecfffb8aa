// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl: configuration and status of sluice qdiscs beyond what tc says.
 *
 * usage: sluicectl { -h | --help | --version | [-n NETNS] [-p] COMMAND [ARGUMENTS] }
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sluice/fabric_nl.h>
#include <sluice/switch.h>
#include "jout.h"
#include "sluicectl.h"

static const struct command commands[] = {
	{ "help", help_main, "Show the commands, or the usage of one",
	  "[COMMAND]", NULL },
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
	  "[-n NETNS] [-j | --json] [--count N] [--timeout SECONDS]", NULL },
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

static void print_usage(FILE *f, const struct command *cmd)
{
	fprintf(f, "Usage: sluicectl %s %s\n", cmd->name, cmd->usage);
}

static void print_help(FILE *f)
{
	size_t i;

	fputs("Usage: sluicectl [-n NETNS] [-p] COMMAND [ARGUMENTS]\n"
	      "       sluicectl { -h | --help | --version }\n"
	      "\n"
	      "  -n, --netns NETNS  run the command in network namespace NETNS\n"
	      "                     (a name under /run/netns, as \"ip -n\")\n"
	      "  -p, --pretty       print the JSON of -j indented, over several lines\n"
	      "\n"
	      "Commands:\n", f);
	for (i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fputs("\nRun \"sluicectl help COMMAND\" for the usage of a command.\n", f);
}

static int unknown_command(const char *name)
{
	fprintf(stderr, "sluicectl: unknown command \"%s\"\n"
		"Run \"sluicectl --help\" for the list of commands.\n", name);
	return EXIT_USAGE;
}

/**
 * usage_error() - reject a command's arguments
 * @cmd:	the command
 * @fmt:	what is wrong, printf style
 *
 * Prints "sluicectl: <message>" and the command's usage to stderr.
 *
 * Return: EXIT_USAGE, to be returned from the command's main.
 */
int usage_error(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("sluicectl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	print_usage(stderr, cmd);
	return EXIT_USAGE;
}

int help_main(const struct command *cmd, int argc, char **argv)
{
	const struct command *about;

	if (argc == 1) {
		print_help(stdout);
		return 0;
	}
	if (argc > 2)
		return usage_error(cmd, "unexpected argument \"%s\"", argv[2]);
	/* "help --help" is about "help", as "help help" is */
	about = is_help(argv[1]) ? cmd : find_command(argv[1]);
	if (!about)
		return unknown_command(argv[1]);
	print_usage(stdout, about);
	printf("\n%s.\n", about->help);
	return 0;
}

static int run(int argc, char **argv);

/* "-n NETNS COMMAND ...": the rest runs inside NETNS, as with "ip -n". */
static int run_in_netns(int argc, char **argv)
{
	char err[SLUICE_ERRLEN];

	if (argc < 3) {
		fprintf(stderr, "sluicectl: %s needs a namespace name\n", argv[1]);
		return EXIT_USAGE;
	}
	if (sluice_netns_enter(argv[2], err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	return run(argc - 2, argv + 2);
}

static int run(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return help_main(find_command("help"), argc - 1, argv + 1);
	if (!strcmp(argv[1], "-n") || !strcmp(argv[1], "--netns"))
		return run_in_netns(argc, argv);
	if (!strcmp(argv[1], "-p") || !strcmp(argv[1], "--pretty")) {
		jout_pretty(true);
		return run(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "--version"))
		return version_main(find_command("version"), argc - 1, argv + 1);
	if (argv[1][0] == '-') {
		fprintf(stderr, "sluicectl: unknown option \"%s\"\n"
			"Run \"sluicectl --help\" for the list of commands.\n",
			argv[1]);
		return EXIT_USAGE;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	return cmd->main(cmd, argc - 1, argv + 1);
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
