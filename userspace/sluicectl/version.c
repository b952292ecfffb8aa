// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl version [-j | --json]
 */
#include <stdio.h>
#include <json.h>
#include "args.h"
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

static const struct arg_opt opts[] = {
	ARG_F("--json", 'j', "print {\"version\":\"...\"} instead of the text"),
};

static const struct args_spec spec = ARGS_SPEC(opts, 0, 0, NULL);

int version_main(const struct command *cmd, int argc, char **argv)
{
	const char *val[ARRAY_SIZE(opts)];
	uint64_t num[ARRAY_SIZE(opts)];
	struct args a = { .val = val, .num = num };

	if (args_parse(cmd, &spec, argc, argv, &a))
		return a.exit;
	if (val[0])
		return print_json();
	puts("sluicectl " SLUICE_VERSION);
	return 0;
}
