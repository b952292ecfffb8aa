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
#include "opts.h"
#include "sw.h"

enum opt_id { OPT_NETNS, OPT_JSON, OPT_FORMAT };

static const struct opt opts[] = {
	[OPT_NETNS]	= { "--netns", "-n", true },
	[OPT_JSON]	= { "--json", "-j", false },
	[OPT_FORMAT]	= { "--format", NULL, true },
};

enum format { FMT_TEXT, FMT_JSON, FMT_SAI, FMT_OPENMETRICS };

static const char *const formats[] = {
	[FMT_TEXT] = "text", [FMT_JSON] = "json", [FMT_SAI] = "sai",
	[FMT_OPENMETRICS] = "openmetrics",
};

#define N_OPTS	ARRAY_SIZE(opts)

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

static void print_help(const struct command *cmd)
{
	printf("Usage: sluicectl %s %s\n\n%s.\n", cmd->name, cmd->usage,
	       cmd->help);
}

int port_stats_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_port_info *ports = NULL;
	const char *val[N_OPTS], *dev[8];
	char err[SLUICE_ERRLEN];
	struct sluice_nl *nl;
	uint32_t ifindex = 0, n;
	unsigned int fmt;
	int n_dev, ret;

	ret = opts_parse(argc, argv, opts, N_OPTS,
			 OPT_BIT(OPT_NETNS) | OPT_BIT(OPT_JSON) |
			 OPT_BIT(OPT_FORMAT), val, dev,
			 ARRAY_SIZE(dev), &n_dev, err, sizeof(err));
	if (ret > 0) {
		print_help(cmd);
		return 0;
	}
	if (ret)
		return usage_error(cmd, "%s", err);
	fmt = val[OPT_JSON] ? FMT_JSON : FMT_TEXT;
	if (val[OPT_FORMAT]) {
		for (fmt = 0; fmt < ARRAY_SIZE(formats) &&
		     strcmp(val[OPT_FORMAT], formats[fmt]); fmt++)
			;
		if (fmt == ARRAY_SIZE(formats))
			return usage_error(cmd, "--format: \"%s\" is not text, json, sai or openmetrics",
					   val[OPT_FORMAT]);
		if (val[OPT_JSON] && fmt != FMT_JSON)
			return usage_error(cmd, "-j and --format %s: one format",
					   val[OPT_FORMAT]);
	}
	if (n_dev > 1)
		return usage_error(cmd, "one device at most, not %d", n_dev);
	if (n_dev && !sluice_ifname_ok(dev[0]))
		return usage_error(cmd, "\"%s\" is not a device name", dev[0]);
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
