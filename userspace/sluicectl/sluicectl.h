/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sluicectl's command table.  Each command lives in its own file as a
 * *_main() and is listed once in commands[] (main.c); "sluicectl help" is
 * generated from that list, so help and commands cannot drift apart.
 */
#ifndef _SLUICECTL_H
#define _SLUICECTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Exit codes: a command that could not be understood, and one that failed. */
#define EXIT_USAGE	2
#define EXIT_RUNTIME	1

struct command {
	const char	*name;
	/* argv[0] is the command's name; returns the exit code. */
	int		(*main)(const struct command *cmd, int argc, char **argv);
	const char	*help;	/* one line, for the command list */
	const char	*usage;	/* the arguments, after "sluicectl NAME" */
	const char	*group;	/* a group's command: the group's name */
};

/* "sluicectl CMD: MESSAGE" and the usage (args.c); EXIT_USAGE */
__attribute__((format(printf, 2, 3)))
int cmd_error(const struct command *cmd, const char *fmt, ...);

/* Groups of commands (group.c). */
bool is_help(const char *arg);
int group_main(const struct command *cmd, const struct command *subs,
	       size_t n, int argc, char **argv);

int write_out(const char *path, int (*write)(const void *arg, FILE *f),
	      const void *arg);

int help_main(const struct command *cmd, int argc, char **argv);
int version_main(const struct command *cmd, int argc, char **argv);
int topo_main(const struct command *cmd, int argc, char **argv);
int route_main(const struct command *cmd, int argc, char **argv);
int tag_main(const struct command *cmd, int argc, char **argv);
int analyze_main(const struct command *cmd, int argc, char **argv);
int headroom_main(const struct command *cmd, int argc, char **argv);
int switch_main(const struct command *cmd, int argc, char **argv);
int map_main(const struct command *cmd, int argc, char **argv);
int port_stats_main(const struct command *cmd, int argc, char **argv);
int monitor_main(const struct command *cmd, int argc, char **argv);
int fabric_main(const struct command *cmd, int argc, char **argv);
int host_main(const struct command *cmd, int argc, char **argv);
int experiment_main(const struct command *cmd, int argc, char **argv);
int int_main(const struct command *cmd, int argc, char **argv);
int faca_main(const struct command *cmd, int argc, char **argv);
int fabric_ping_main(const struct command *cmd, int argc, char **argv);
int fabric_deadlock_main(const struct command *cmd, int argc, char **argv);
/*
 * route load, unload and show (route_kernel.c, over the library's loader,
 * sluice/fabric_load.h), in route.c's table
 */
#define ROUTE_LOAD_USAGE \
	"ROUTES [--name NAME] [--switch NODE] [--tags TAGFILE [--tag-source SOURCE]]\n" \
	"\t[--multipath { hash | hash5 | exact | wcmp }] [-v | --verbose] [-j | --json]\n" \
	"\t[QDISC OPTIONS]\n" \
	"\tROUTES --topo FILE --switch NODE [--netns NS] [--tags TAGFILE [--tag-source SOURCE]]\n" \
	"\t[-v | --verbose] [-j | --json] [QDISC OPTIONS]\n" \
	"--multipath loads the routes in that mode and makes it the fabric's (fabric up\n" \
	"--multipath has the modes); without it, the routes follow the fabric's mode.\n" \
	"QDISC OPTIONS change the sluice qdisc of every switch port (l<LINK>, h<I>;\n" \
	"not the hosts'), as \"fabric up\" takes them, all put back if anything fails:\n" \
	QDISC_OPTS_USAGE
#define ROUTE_UNLOAD_USAGE \
	"[--name NAME] [--switch NODE] [-j | --json] | --local [--netns NS] [-j | --json]"
#define ROUTE_SHOW_USAGE \
	"ROUTES [--name NAME] [--switch NODE] [--tags TAGFILE [--tag-source SOURCE]] [-j | --json]\n" \
	"\tROUTES --topo FILE --switch NODE [--netns NS] [--tags TAGFILE [--tag-source SOURCE]] [-j | --json]"
int route_load_main(const struct command *cmd, int argc, char **argv);
int route_unload_main(const struct command *cmd, int argc, char **argv);
int route_show_main(const struct command *cmd, int argc, char **argv);
int route_sport_main(const struct command *cmd, int argc, char **argv);

#endif /* _SLUICECTL_H */
