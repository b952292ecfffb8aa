// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl topo { import --from FORMAT FILE | export --to FORMAT FILE }
 * [-o OUT]: topologies from and to the formats other tools speak
 * (sluice/interop.h has the formats and how they map to a topology).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/interop.h>
#include "args.h"
#include "cmd_topo.h"

enum { IO_FORMAT, IO_OUT, N_IO };

/* in enum sluice_topo_format's order */
static const char *const formats[] = { "graphml", "gml", "edges", NULL };

static const struct arg_opt import_opts[] = {
	[IO_FORMAT]	= ARG_E("--from", 0, formats,
				"the format of the file read (required)"),
	[IO_OUT]	= ARG_OUTPUT,
};

static const struct arg_opt export_opts[] = {
	[IO_FORMAT]	= ARG_E("--to", 0, formats,
				"the format written (required)"),
	[IO_OUT]	= ARG_OUTPUT,
};

static const struct args_spec import_spec =
	ARGS_SPEC(import_opts, 1, 1, "FILE, the file to read");
static const struct args_spec export_spec =
	ARGS_SPEC(export_opts, 1, 1, "FILE, the topology to write");

/* FILE, -o FILE and the format option, which is required. */
static bool parse_io(const struct command *cmd, const struct args_spec *spec,
		     int argc, char **argv, struct args *a)
{
	if (args_parse(cmd, spec, argc, argv, a))
		return true;
	if (!a->val[IO_FORMAT]) {
		a->exit = args_error(a, "%s FORMAT is required",
				     spec->opts[IO_FORMAT].name);
		return true;
	}
	return false;
}

int topo_import_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_topo_import_info info;
	char err[SLUICE_ERRLEN];
	struct sluice_graph g;
	int ret;
	ARGS_DECLARE(a, N_IO);

	if (parse_io(cmd, &import_spec, argc, argv, &a))
		return a.exit;
	if (sluice_topo_import_file(&g, a.num[IO_FORMAT], a.operands[0], &info,
				    err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	if (info.named_by_id)
		fprintf(stderr, "sluicectl: %s: the labels are not all sluice names (letters, digits, -_.:/), or repeat: the nodes are named by their ids\n",
			a.operands[0]);
	ret = write_out(a.val[IO_OUT], topo_write, &g);
	sluice_graph_free(&g);
	return ret;
}

struct export_out {
	const struct sluice_graph	*g;
	int				fmt;
};

static int write_export(const void *arg, FILE *f)
{
	const struct export_out *o = arg;
	char err[SLUICE_ERRLEN];

	if (!sluice_topo_export(o->g, o->fmt, f, err, sizeof(err)))
		return 0;
	fprintf(stderr, "sluicectl: %s\n", err);
	return -EIO;
}

int topo_export_main(const struct command *cmd, int argc, char **argv)
{
	char err[SLUICE_ERRLEN];
	struct export_out o;
	struct sluice_graph g;
	int ret;
	ARGS_DECLARE(a, N_IO);

	if (parse_io(cmd, &export_spec, argc, argv, &a))
		return a.exit;
	o.fmt = a.num[IO_FORMAT];
	if (sluice_graph_read_file(&g, a.operands[0], err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	o.g = &g;
	ret = write_out(a.val[IO_OUT], write_export, &o);
	sluice_graph_free(&g);
	return ret;
}
