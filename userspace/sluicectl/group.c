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

static void group_help(FILE *f, const struct command *cmd,
		       const struct command *subs, size_t n)
{
	const char *group = cmd->name;
	int width = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if ((int)strlen(subs[i].name) > width)
			width = strlen(subs[i].name);
	fprintf(f, "Usage: sluicectl %s %s\n\n%s.\n\nCommands:\n", group,
		cmd->usage, cmd->help);
	for (i = 0; i < n; i++)
		fprintf(f, "  %-*s %s\n", width, subs[i].name, subs[i].help);
	for (i = 0; i < n; i++)
		fprintf(f, "%ssluicectl %s %s %s\n", i ? "       " : "\nUsage: ",
			group, subs[i].name, subs[i].usage);
	fprintf(f, "\nRun \"sluicectl help %s COMMAND\" for the options of one.\n",
		group);
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
/* Runs "@sub --help". */
static int sub_help_of(const struct command *sub)
{
	char name[64], help[] = "--help", *argv[] = { name, help, NULL };

	snprintf(name, sizeof(name), "%s", sub->name);
	return sub->main(sub, 2, argv);
}

int group_main(const struct command *cmd, const struct command *subs,
	       size_t n, int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		group_help(stderr, cmd, subs, n);
		return EXIT_USAGE;
	}
	/* "route help compute" as "route compute --help" */
	if (!strcmp(argv[1], "help") && argc > 2) {
		for (i = 0; i < n && strcmp(argv[2], subs[i].name); i++)
			;
		if (i == n)
			return cmd_error(cmd, "unknown %s command \"%s\"",
					   cmd->name, argv[2]);
		if (argc > 3)
			return cmd_error(cmd, "unexpected argument \"%s\"",
					   argv[3]);
		return sub_help_of(&subs[i]);
	}
	if (is_help(argv[1])) {
		group_help(stdout, cmd, subs, n);
		return 0;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(argv[1], subs[i].name))
			return subs[i].main(&subs[i], argc - 1, argv + 1);
	return cmd_error(cmd, "unknown %s command \"%s\"", cmd->name,
			   argv[1]);
}


