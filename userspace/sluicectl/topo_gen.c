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
#include "cmd_topo.h"

enum opt_type { OPT_U32, OPT_U64, OPT_LIST };

struct opt {
	const char	*name;		/* "--switches" */
	const char	*arg;		/* "N", for the usage */
	enum opt_type	type;
	bool		required;
	const char	*help;
};

struct gen_args {
	uint64_t	v[8];		/* by option index */
	bool		seen[8];
	uint32_t	list[SLUICE_LAYERS_MAX];
	uint32_t	list_len;
	const char	*out;
};

struct family {
	const char		*name;
	const char		*help;
	const struct opt	*opts;	/* NULL-terminated by name */
	int			(*gen)(struct sluice_graph *g,
				       const struct gen_args *a,
				       char *err, size_t errlen);
};

#define SEED_OPT { "--seed", "S", OPT_U64, false, \
		   "seed of the random wiring, default 1" }

static const struct opt fc_opts[] = {
	{ "--switches", "N", OPT_U32, true, "ToR switches" },
	{ "--inter-ports", "S", OPT_U32, false,
	  "ports to other switches, even (or the sum of --layer-ports)" },
	{ "--host-ports", "H", OPT_U32, false, "ports to hosts, default 0" },
	{ "--layers", "K", OPT_U32, false,
	  "virtual layers, default by the paper's strategy (*)" },
	{ "--layer-ports", "L1,L2,...", OPT_LIST, false,
	  "ports of each layer from layer 1, default derived from K" },
	SEED_OPT,
	{ NULL }
};

static const struct opt regular_opts[] = {
	{ "--switches", "N", OPT_U32, true, "switches" },
	{ "--inter-ports", "R", OPT_U32, true, "ports to other switches" },
	{ "--host-ports", "H", OPT_U32, false, "ports to hosts, default 0" },
	SEED_OPT,
	{ NULL }
};

static const struct opt leafspine_opts[] = {
	{ "--leaves", "L", OPT_U32, true, "leaf switches" },
	{ "--spines", "S", OPT_U32, true, "spine switches" },
	{ "--parallel", "P", OPT_U32, false,
	  "links between each leaf and spine, default 1" },
	{ "--host-ports", "H", OPT_U32, false,
	  "ports to hosts per leaf, default 0" },
	{ NULL }
};

static const struct opt fattree_opts[] = {
	{ "--k", "K", OPT_U32, true, "ports per switch and pods, even" },
	{ NULL }
};

static const struct opt bcube_opts[] = {
	{ "--n", "N", OPT_U32, true, "ports per switch" },
	{ "--k", "K", OPT_U32, true, "highest level (k + 1 ports per server)" },
	{ NULL }
};

static const struct opt ring_opts[] = {
	{ "--switches", "N", OPT_U32, true, "switches" },
	{ "--host-ports", "H", OPT_U32, false, "ports to hosts, default 0" },
	{ NULL }
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

	if (a->seen[3] && !p.layers)
		return cli_err(err, errlen, "fc: --layers must be 2 to %u, not 0",
			       SLUICE_LAYERS_MAX);
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

static const struct opt no_opts[] = {
	{ NULL }
};

static int gen_fc_testbed(struct sluice_graph *g, const struct gen_args *a,
			  char *err, size_t errlen)
{
	(void)a;
	return sluice_topo_fc_testbed(g, err, errlen);
}

static const struct family families[] = {
	{ "fc", "Flattened Clos: k virtual layers, random wiring between adjacent ones",
	  fc_opts, gen_fc },
	{ "jellyfish", "random regular graph", regular_opts, gen_jellyfish },
	{ "xpander", "random lift of K_{R+1}; N a multiple of R + 1",
	  regular_opts, gen_xpander },
	{ "leafspine", "two-tier Clos, every leaf to every spine",
	  leafspine_opts, gen_leafspine },
	{ "fattree", "three-tier k-ary fat-tree", fattree_opts, gen_fattree },
	{ "bcube", "BCube(n,k): servers forward", bcube_opts, gen_bcube },
	{ "ring", "switches in a cycle", ring_opts, gen_ring },
	{ "fc-testbed", "FC's 4-switch testbed (Fig. 4a): the ring s1..s4, links doubled, 4 hosts each",
	  no_opts, gen_fc_testbed },
};

#define N_FAMILIES (sizeof(families) / sizeof(families[0]))

static void family_usage(FILE *f, const struct family *fam)
{
	const struct opt *o;

	fprintf(f, "Usage: sluicectl topo gen %s", fam->name);
	for (o = fam->opts; o->name; o++)
		fprintf(f, " %s%s %s%s", o->required ? "" : "[", o->name,
			o->arg, o->required ? "" : "]");
	fputs(" [-o FILE]\n", f);
}

static void family_help(const struct family *fam)
{
	const struct opt *o;

	family_usage(stdout, fam);
	printf("\n%s.\n\n", fam->help);
	for (o = fam->opts; o->name; o++)
		printf("  %-14s %-10s %s\n", o->name, o->arg, o->help);
	printf("  %-14s %-10s %s\n", "-o, --output", "FILE",
	       "write there (whole or not at all), default stdout");
}

static void gen_help(FILE *f, const struct command *cmd)
{
	size_t i;

	fprintf(f, "Usage: sluicectl topo %s %s\n\nFamilies:\n", cmd->name,
		cmd->usage);
	for (i = 0; i < N_FAMILIES; i++)
		fprintf(f, "  %-10s %s\n", families[i].name, families[i].help);
	fputs("\nRun \"sluicectl topo gen FAMILY --help\" for its options.\n", f);
}

static int fam_error(const struct family *fam, const char *fmt,
		     const char *arg)
{
	fputs("sluicectl: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	family_usage(stderr, fam);
	return EXIT_USAGE;
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

static int parse_value(const struct opt *o, const char *s, struct gen_args *a,
		       unsigned int i)
{
	unsigned long v;
	char *end;

	if (o->type == OPT_LIST)
		return parse_list(s, a);
	if (parse_decimal(s, &end, &v) || *end ||
	    (o->type == OPT_U32 && v > UINT32_MAX))
		return -EINVAL;
	a->v[i] = v;
	return 0;
}

static int parse_opts(const struct family *fam, int argc, char **argv,
		      struct gen_args *a)
{
	const struct opt *o;
	unsigned int i;
	int k;

	for (k = 2; k < argc; k++) {
		if (!strcmp(argv[k], "-o") || !strcmp(argv[k], "--output")) {
			if (++k == argc)
				return fam_error(fam, "%s needs a file", argv[k - 1]);
			a->out = argv[k];
			continue;
		}
		for (o = fam->opts, i = 0; o->name && strcmp(o->name, argv[k]); o++)
			i++;
		if (!o->name)
			return fam_error(fam, "unknown option \"%s\"", argv[k]);
		if (a->seen[i])
			return fam_error(fam, "%s given twice", o->name);
		if (++k == argc)
			return fam_error(fam, "%s needs a value", o->name);
		if (parse_value(o, argv[k], a, i))
			return fam_error(fam, o->type == OPT_LIST ?
					 "\"%s\" is not a list of numbers like 3,6,6,3" :
					 "\"%s\" is not a number", argv[k]);
		a->seen[i] = true;
	}
	for (o = fam->opts, i = 0; o->name; o++, i++)
		if (o->required && !a->seen[i])
			return fam_error(fam, "%s is required", o->name);
	return 0;
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
	struct gen_args a;
	const struct family *fam = NULL;
	char err[SLUICE_ERRLEN];
	struct sluice_graph g;
	size_t i;
	int ret;

	memset(&a, 0, sizeof(a));
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		gen_help(argc < 2 ? stderr : stdout, cmd);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	for (i = 0; i < N_FAMILIES && !fam; i++)
		if (!strcmp(argv[1], families[i].name))
			fam = &families[i];
	if (!fam) {
		fprintf(stderr, "sluicectl: unknown topology family \"%s\"\n",
			argv[1]);
		gen_help(stderr, cmd);
		return EXIT_USAGE;
	}
	for (ret = 2; ret < argc; ret++)
		if (!strcmp(argv[ret], "-h") || !strcmp(argv[ret], "--help")) {
			family_help(fam);
			return 0;
		}
	ret = parse_opts(fam, argc, argv, &a);
	if (ret)
		return ret;
	ret = fam->gen(&g, &a, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "sluicectl: %s\n", err);
		if (ret != -EINVAL && ret != -E2BIG)
			return EXIT_RUNTIME;
		family_usage(stderr, fam);
		return EXIT_USAGE;
	}
	ret = write_out(a.out, topo_write, &g);
	sluice_graph_free(&g);
	return ret;
}
