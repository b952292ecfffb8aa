// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl topo gen FAMILY [OPTIONS] [--seed S] [-o FILE]
 *
 * One table per family lists its options, so that parsing, the usage line
 * and --help come from the same place.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/topo.h>
#include "parse.h"
#include "args.h"
#include "cmd_topo.h"

struct gen_args {
	const uint64_t	*v;		/* by option index */
	const char	**seen;		/* NULL if not given */
	uint32_t	list[SLUICE_LAYERS_MAX];
	uint32_t	list_len;
};

struct family {
	const char		*name;
	const char		*help;
	const struct arg_opt	*opts;	/* ended by -o, --output */
	size_t			n_opts;
	int			(*gen)(struct sluice_graph *g,
				       const struct gen_args *a,
				       char *err, size_t errlen);
};

/*
 * The bounds are the library's (sluice/graph.h); the library refuses the
 * rest, which depends on the family and the other options.
 */
#define NODES(l, mv, h, ...) ARG_N(l, 0, mv, 0, SLUICE_NODES_MAX, h, __VA_ARGS__)
#define HOSTS(h) ARG_N("--host-ports", 0, "H", 0, SLUICE_HOSTS_MAX, h)
#define REQ	.flags = ARG_REQUIRED
#define SEED_OPT ARG_N("--seed", 0, "S", 0, UINT64_MAX, \
		       "seed of the random wiring, default 1")

static const struct arg_opt fc_opts[] = {
	NODES("--switches", "N", "ToR switches", REQ),
	NODES("--inter-ports", "S",
	    "ports to other switches, even (or the sum of --layer-ports)"),
	HOSTS("ports to hosts, default 0"),
	ARG_N("--layers", 0, "K", 2, SLUICE_LAYERS_MAX,
	      "virtual layers, default by the paper's strategy"),
	ARG_S("--layer-ports", 0, "L1,L2,...",
	      "ports of each layer from layer 1, default derived from K"),
	SEED_OPT,
	ARG_OUTPUT,
};

static const struct arg_opt regular_opts[] = {
	NODES("--switches", "N", "switches", REQ),
	NODES("--inter-ports", "R", "ports to other switches", REQ),
	HOSTS("ports to hosts, default 0"),
	SEED_OPT,
	ARG_OUTPUT,
};

static const struct arg_opt leafspine_opts[] = {
	NODES("--leaves", "L", "leaf switches", REQ),
	NODES("--spines", "S", "spine switches", REQ),
	NODES("--parallel", "P", "links between each leaf and spine, default 1"),
	HOSTS("ports to hosts per leaf, default 0"),
	ARG_OUTPUT,
};

static const struct arg_opt fattree_opts[] = {
	ARG_N("--k", 0, "K", 0, UINT32_MAX, "ports per switch and pods, even", REQ),
	ARG_OUTPUT,
};

static const struct arg_opt bcube_opts[] = {
	ARG_N("--n", 0, "N", 0, UINT32_MAX, "ports per switch", REQ),
	ARG_N("--k", 0, "K", 0, UINT32_MAX, "highest level (k + 1 ports per server)", REQ),
	ARG_OUTPUT,
};

static const struct arg_opt ring_opts[] = {
	NODES("--switches", "N", "switches", REQ),
	HOSTS("ports to hosts, default 0"),
	ARG_OUTPUT,
};

__attribute__((format(printf, 3, 4)))
static int cli_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int parse_list(const char *s, struct gen_args *a);

static uint64_t seed_of(const struct gen_args *a, unsigned int i)
{
	return a->seen[i] ? a->v[i] : 1;
}

static int gen_fc(struct sluice_graph *g, const struct gen_args *a,
		  char *err, size_t errlen)
{
	struct sluice_fc_params p = {
		.switches = a->v[0], .inter_ports = a->v[1],
		.host_ports = a->v[2], .layers = a->v[3], .seed = seed_of(a, 5),
	};
	uint32_t j, sum = 0;

	if (a->seen[4] && parse_list(a->seen[4], (struct gen_args *)a))
		return cli_err(err, errlen,
			       "--layer-ports: \"%s\" is not a list of numbers like 3,6,6,3",
			       a->seen[4]);
	if (a->list_len) {
		for (j = 0; j < a->list_len; j++)
			sum += p.layer_ports[j] = a->list[j];
		if (a->seen[3] && p.layers != a->list_len)
			return cli_err(err, errlen,
						"fc: --layers %u but --layer-ports has %u layers",
						p.layers, a->list_len);
		p.layers = a->list_len;
		if (!a->seen[1])
			p.inter_ports = sum;
	} else if (!a->seen[1]) {
		return cli_err(err, errlen,
					"fc: give --inter-ports or --layer-ports");
	}
	return sluice_topo_fc(g, &p, err, errlen);
}

static int gen_jellyfish(struct sluice_graph *g, const struct gen_args *a,
			 char *err, size_t errlen)
{
	return sluice_topo_jellyfish(g, a->v[0], a->v[1], a->v[2],
				     seed_of(a, 3), err, errlen);
}

static int gen_xpander(struct sluice_graph *g, const struct gen_args *a,
		       char *err, size_t errlen)
{
	return sluice_topo_xpander(g, a->v[0], a->v[1], a->v[2],
				   seed_of(a, 3), err, errlen);
}

static int gen_leafspine(struct sluice_graph *g, const struct gen_args *a,
			 char *err, size_t errlen)
{
	return sluice_topo_leafspine(g, a->v[0], a->v[1],
				     a->seen[2] ? a->v[2] : 1, a->v[3],
				     err, errlen);
}

static int gen_fattree(struct sluice_graph *g, const struct gen_args *a,
		       char *err, size_t errlen)
{
	return sluice_topo_fattree(g, a->v[0], err, errlen);
}

static int gen_bcube(struct sluice_graph *g, const struct gen_args *a,
		     char *err, size_t errlen)
{
	return sluice_topo_bcube(g, a->v[0], a->v[1], err, errlen);
}

static int gen_ring(struct sluice_graph *g, const struct gen_args *a,
		    char *err, size_t errlen)
{
	return sluice_topo_ring(g, a->v[0], a->v[1], err, errlen);
}

static const struct arg_opt no_opts[] = { ARG_OUTPUT };

static int gen_fc_testbed(struct sluice_graph *g, const struct gen_args *a,
			  char *err, size_t errlen)
{
	(void)a;
	return sluice_topo_fc_testbed(g, err, errlen);
}

static const struct family families[] = {
	{ "fc", "Flattened Clos: k virtual layers, random wiring between adjacent ones",
	  fc_opts, ARRAY_SIZE(fc_opts), gen_fc },
	{ "jellyfish", "random regular graph", regular_opts, ARRAY_SIZE(regular_opts), gen_jellyfish },
	{ "xpander", "random lift of K_{R+1}; N a multiple of R + 1",
	  regular_opts, ARRAY_SIZE(regular_opts), gen_xpander },
	{ "leafspine", "two-tier Clos, every leaf to every spine",
	  leafspine_opts, ARRAY_SIZE(leafspine_opts), gen_leafspine },
	{ "fattree", "three-tier k-ary fat-tree", fattree_opts, ARRAY_SIZE(fattree_opts), gen_fattree },
	{ "bcube", "BCube(n,k): servers forward", bcube_opts, ARRAY_SIZE(bcube_opts), gen_bcube },
	{ "ring", "switches in a cycle", ring_opts, ARRAY_SIZE(ring_opts), gen_ring },
	{ "fc-testbed", "FC's 4-switch testbed (Fig. 4a): the ring s1..s4, links doubled, 4 hosts each",
	  no_opts, ARRAY_SIZE(no_opts), gen_fc_testbed },
};

#define N_FAMILIES (sizeof(families) / sizeof(families[0]))

static void gen_help(FILE *f, const struct command *cmd)
{
	size_t i;

	fprintf(f, "Usage: sluicectl topo %s %s\n\nFamilies:\n", cmd->name,
		cmd->usage);
	for (i = 0; i < N_FAMILIES; i++)
		fprintf(f, "  %-10s %s\n", families[i].name, families[i].help);
	fputs("\nRun \"sluicectl topo gen FAMILY --help\" for its options.\n", f);
}

static int parse_list(const char *s, struct gen_args *a)
{
	unsigned long v;
	char *end;

	a->list_len = 0;
	for (;;) {
		if (a->list_len == SLUICE_LAYERS_MAX ||
		    parse_decimal(s, &end, &v) || v > SLUICE_HOSTS_MAX)
			return -EINVAL;
		a->list[a->list_len++] = v;
		if (!*end)
			return 0;
		if (*end != ',')
			return -EINVAL;
		s = end + 1;
	}
}

/* write_out()'s writer of a topology file (also topo import's). */
int topo_write(const void *arg, FILE *f)
{
	const struct sluice_graph *g = arg;
	char err[SLUICE_ERRLEN];

	if (!sluice_graph_write(g, f, err, sizeof(err)))
		return 0;
	fprintf(stderr, "sluicectl: %s\n", err);
	return -EIO;
}

int topo_gen_main(const struct command *cmd, int argc, char **argv)
{
	struct command fam_cmd = { .group = "topo gen" };
	struct args_spec spec = { .max_operands = 0 };
	const struct family *fam = NULL;
	struct gen_args ga = { 0 };
	char err[SLUICE_ERRLEN];
	struct sluice_graph g;
	size_t i;
	int ret;
	ARGS_DECLARE(a, 8);

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		gen_help(argc < 2 ? stderr : stdout, cmd);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	for (i = 0; i < N_FAMILIES && !fam; i++)
		if (!strcmp(argv[1], families[i].name))
			fam = &families[i];
	if (!fam)
		return cmd_error(cmd, "unknown topology family \"%s\"",
				   argv[1]);
	fam_cmd.name = fam->name;
	fam_cmd.help = fam->help;
	spec.opts = fam->opts;
	spec.n_opts = fam->n_opts;
	if (args_parse(&fam_cmd, &spec, argc - 1, argv + 1, &a))
		return a.exit;
	ga.v = a.num;
	ga.seen = a.val;
	ret = fam->gen(&g, &ga, err, sizeof(err));
	if (ret) {
		if (ret != -EINVAL && ret != -E2BIG) {
			fprintf(stderr, "sluicectl: %s\n", err);
			return EXIT_RUNTIME;
		}
		return args_error(&a, "%s", err);
	}
	ret = write_out(a.val[fam->n_opts - 1], topo_write, &g);
	sluice_graph_free(&g);
	return ret;
}
