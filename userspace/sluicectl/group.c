// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Command groups ("sluicectl topo ...", "sluicectl route ..."): the list of
 * a group's commands, their usage lines and the dispatch, from the group's
 * table of struct command, so that help and commands cannot drift apart.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "sluicectl.h"

bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help") ||
	       !strcmp(arg, "help");
}

static void group_help(FILE *f, const char *group,
		       const struct command *subs, size_t n)
{
	int width = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if ((int)strlen(subs[i].name) > width)
			width = strlen(subs[i].name);
	fprintf(f, "Usage: sluicectl %s COMMAND [ARGUMENTS]\n\nCommands:\n",
		group);
	for (i = 0; i < n; i++)
		fprintf(f, "  %-*s %s\n", width, subs[i].name, subs[i].help);
	for (i = 0; i < n; i++)
		fprintf(f, "%ssluicectl %s %s %s\n", i ? "       " : "\nUsage: ",
			group, subs[i].name, subs[i].usage);
}

/**
 * group_main() - run the command of group @cmd that argv[1] names
 * @cmd:	the group, e.g. "route"
 * @subs:	its commands, each with .group set to the group's name
 * @n:		how many
 * @argc:	arguments, argv[0] the group's name
 * @argv:	the arguments
 *
 * Return: the command's exit code; EXIT_USAGE without a command or with an
 * unknown one, 0 after printing the group's help.
 */
int group_main(const struct command *cmd, const struct command *subs,
	       size_t n, int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		group_help(stderr, cmd->name, subs, n);
		return EXIT_USAGE;
	}
	if (is_help(argv[1])) {
		group_help(stdout, cmd->name, subs, n);
		return 0;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(argv[1], subs[i].name))
			return subs[i].main(&subs[i], argc - 1, argv + 1);
	return usage_error(cmd, "unknown %s command \"%s\"", cmd->name,
			   argv[1]);
}

/* Prints "sluicectl: <message>" and the command's usage; EXIT_USAGE. */
int sub_usage_error(const struct command *sub, const char *fmt, ...)
{
	va_list ap;

	fputs("sluicectl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nUsage: sluicectl %s %s %s\n", sub->group, sub->name,
		sub->usage);
	return EXIT_USAGE;
}

/* A command's --help: its usage and what it does. */
int sub_help(const struct command *sub)
{
	printf("Usage: sluicectl %s %s %s\n\n%s.\n", sub->group, sub->name,
	       sub->usage, sub->help);
	return 0;
}
