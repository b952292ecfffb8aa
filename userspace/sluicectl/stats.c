// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl stats [-n NETNS] [-j | --json | --format FORMAT] [DEV]
 *
 * FORMAT: text (the default), json (-j), sai (a line per counter under
 * SAI's and SONiC's names: "DEV NAME VALUE"), openmetrics (Prometheus's
 * node_exporter textfile collector takes it).  JSON's rows carry the SAI
 * names too ("sai"), beside sluice's own (sluice/opnames.h).
 *
 * The ports of the switch, each one's settings and counters, then a row
 * per egress class and ingress priority: the library writes text and JSON
 * (sluice/port_stats.h has the format), as it reads the JSON back.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/opnames.h>
#include <sluice/port_stats.h>
#include "args.h"
#include "sw.h"

enum opt_id { OPT_NETNS, OPT_JSON, OPT_FORMAT, N_OPTS };

enum format { FMT_TEXT, FMT_JSON, FMT_SAI, FMT_OPENMETRICS };

static const char *const formats[] = {
	[FMT_TEXT] = "text", [FMT_JSON] = "json", [FMT_SAI] = "sai",
	[FMT_OPENMETRICS] = "openmetrics", NULL,
};

static const struct arg_opt opts[] = {
	[OPT_NETNS]	= ARG_S("--netns", 'n', "NETNS",
				"the switch of namespace NETNS (default sluicectl's own)"),
	[OPT_JSON]	= ARG_F("--json", 'j', "the same as --format json"),
	[OPT_FORMAT]	= ARG_E("--format", 0, formats,
				"text (default), json, sai (a line per counter under SAI's names) or openmetrics"),
};

static const struct args_spec spec = ARGS_SPEC(opts, 0, 1, "DEV, one port only");

/* "DEV NAME VALUE", a line per counter of every class a port has. */
static void print_sai(const struct sluice_port_info *p, uint32_t n)
{
	char name[64];
	uint32_t i, k;
	unsigned int j;

	for (i = 0; i < n; i++)
		for (k = 0; k < p[i].n_prio; k++) {
			if (!(p[i].prio[k].flags & SLUICE_PRIO_F_CLASS))
				continue;
			for (j = 0; j < sluice_n_opnames; j++) {
				sluice_opname_sai(&sluice_opnames[j],
						  p[i].prio[k].index, name,
						  sizeof(name));
				/* a port counter's name holds its priority */
				if (!strstr(sluice_opnames[j].sai, "%u"))
					snprintf(name + strlen(name),
						 sizeof(name) - strlen(name),
						 ":%u", p[i].prio[k].index);
				printf("%s %s %llu\n", p[i].ifname, name,
				       (unsigned long long)
				       sluice_opnames[j].value(&p[i].prio[k]));
			}
		}
}

static int print_json(const struct sluice_port_info *p, uint32_t n)
{
	char *text = sluice_port_stats_json(p, n, jout_is_pretty());

	if (!text) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	puts(text);
	free(text);
	return 0;
}

int port_stats_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_port_info *ports = NULL;
	const char *val[N_OPTS], **dev;
	uint64_t num[N_OPTS];
	struct args a = { .val = val, .num = num };
	char err[SLUICE_ERRLEN];
	struct sluice_nl *nl;
	uint32_t ifindex = 0, n;
	unsigned int fmt;
	int n_dev, ret;

	if (args_parse(cmd, &spec, argc, argv, &a))
		return a.exit;
	dev = (const char **)a.operands;
	n_dev = a.n_operands;
	fmt = val[OPT_JSON] ? FMT_JSON : FMT_TEXT;
	if (val[OPT_FORMAT]) {
		fmt = num[OPT_FORMAT];
		if (val[OPT_JSON] && fmt != FMT_JSON)
			return args_error(&a, "-j and --format %s: one format",
					  val[OPT_FORMAT]);
	}
	if (n_dev && !sluice_ifname_ok(dev[0]))
		return args_error(&a, "\"%s\" is not a device name", dev[0]);
	ret = sw_open(val[OPT_NETNS], &nl);
	if (ret)
		return ret;
	if (n_dev) {
		ret = sluice_nl_ifindex(nl, dev[0], &ifindex);
		if (ret) {
			fprintf(stderr, "sluicectl: stats: device \"%s\": %s\n",
				dev[0], strerror(-ret));
			sluice_nl_close(nl);
			return EXIT_RUNTIME;
		}
	}
	ret = sluice_nl_stats_get(nl, ifindex, &ports, &n, err, sizeof(err));
	sluice_nl_close(nl);
	if (ret)
		return sw_fail(err);
	if (n_dev && !n) {
		fprintf(stderr, "sluicectl: stats: %s is not a port of the switch (no sluice root qdisc)\n",
			dev[0]);
		ret = EXIT_RUNTIME;
	} else if (fmt == FMT_JSON) {
		ret = print_json(ports, n);
	} else if (fmt == FMT_SAI) {
		print_sai(ports, n);
	} else if (fmt == FMT_OPENMETRICS) {
		if (sluice_openmetrics_write(stdout, val[OPT_NETNS] ?
					     val[OPT_NETNS] : "", ports, n))
			ret = EXIT_RUNTIME;
	} else {
		sluice_port_stats_text(stdout, ports, n);
	}
	free(ports);
	return ret;
}
