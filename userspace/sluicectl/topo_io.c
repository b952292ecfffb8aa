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
#include "opts.h"
#include "cmd_topo.h"

enum { IO_FROM, IO_TO, IO_OUT };

static const struct opt io_opts[] = {
	[IO_FROM]	= { "--from", NULL, true },
	[IO_TO]		= { "--to", NULL, true },
	[IO_OUT]	= { "--output", "-o", true },
};

struct io_args {
	const char	*val[ARRAY_SIZE(io_opts)];
	const char	*file;
	const char	*format;
};

/* FILE, -o FILE and the format option @fmt (IO_FROM or IO_TO). */
static int parse_io(const struct command *cmd, int argc, char **argv,
		    int fmt, struct io_args *a)
{
	char msg[128];
	int n, ret;

	ret = opts_parse(argc, argv, io_opts, ARRAY_SIZE(io_opts),
			 OPT_BIT(fmt) | OPT_BIT(IO_OUT), a->val, &a->file, 1,
			 &n, msg, sizeof(msg));
	if (ret > 0) {
		sub_help(cmd);
		return -1;
	}
	if (ret)
		return sub_usage_error(cmd, "%s", msg);
	a->format = a->val[fmt];
	if (!a->format)
		return sub_usage_error(cmd, "%s FORMAT is required",
				       io_opts[fmt].name);
	if (!n)
		return sub_usage_error(cmd, "no file given");
	return 0;
}

int topo_import_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_topo_import_info info;
	char err[SLUICE_ERRLEN];
	struct sluice_graph g;
	struct io_args a;
	int fmt, ret;

	ret = parse_io(cmd, argc, argv, IO_FROM, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	fmt = sluice_topo_format_parse(a.format);
	if (fmt < 0)
		return sub_usage_error(cmd, "--from: \"%s\" is not graphml, gml or edges",
				       a.format);
	if (sluice_topo_import_file(&g, fmt, a.file, &info, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	if (info.named_by_id)
		fprintf(stderr, "sluicectl: %s: the labels are not all sluice names (letters, digits, -_.:/), or repeat: the nodes are named by their ids\n",
			a.file);
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
	struct io_args a;
	int ret;

	ret = parse_io(cmd, argc, argv, IO_TO, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	o.fmt = sluice_topo_format_parse(a.format);
	if (o.fmt < 0)
		return sub_usage_error(cmd, "--to: \"%s\" is not graphml, gml or edges",
				       a.format);
	if (sluice_graph_read_file(&g, a.file, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	o.g = &g;
	ret = write_out(a.val[IO_OUT], write_export, &o);
	sluice_graph_free(&g);
	return ret;
}
