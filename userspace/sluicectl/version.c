// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl version [-j | --json]
 */
#include <stdio.h>
#include <string.h>
#include <json.h>
#include "jout.h"
#include "sluicectl.h"
#include "cmd_version.h"

static int print_json(void)
{
	struct json_object *obj = json_object_new_object();
	struct json_object *ver = json_object_new_string(SLUICE_VERSION);
	int ret = EXIT_RUNTIME;

	if (obj && ver && !json_object_object_add(obj, "version", ver)) {
		ver = NULL;	/* owned by obj now */
		puts(jtext(obj));
		ret = 0;
	} else {
		fputs("sluicectl: out of memory\n", stderr);
	}
	json_object_put(ver);
	json_object_put(obj);
	return ret;
}

int version_main(const struct command *cmd, int argc, char **argv)
{
	if (argc == 1) {
		puts("sluicectl " SLUICE_VERSION);
		return 0;
	}
	if (argc == 2 && (!strcmp(argv[1], "-j") || !strcmp(argv[1], "--json")))
		return print_json();
	/* as every command takes it (sluicectl(8), CONVENTIONS) */
	if (argc == 2 && is_help(argv[1])) {
		printf("Usage: sluicectl %s %s\n\n%s.\n", cmd->name, cmd->usage,
		       cmd->help);
		return 0;
	}
	return usage_error(cmd, "unexpected argument \"%s\"", argv[1]);
}
