// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl analyze: the throughput of a fabric under a traffic matrix on a
 * route set (FC, NSDI'23, Section 4; sluice/flow.h), and the Clos baseline
 * FC compares against (Appendix A.3).
 *
 *   sluicectl analyze --topo FILE { --routes FILE | --algo ALGO [...] }
 *	--traffic { all2all | uniform:P | uniform:P% | worst | permutation }
 *	[--seed S] [--model concurrent] [--method { auto | lp | fptas }]
 *	[--epsilon E] [--max-phases N] [-j]
 *   sluicectl analyze ... --traffic permutation --model maxmin [--runs R]
 *   sluicectl analyze clos --ports P --hosts H --switches N [-o FILE] [-j]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sluice/flow.h>
#include <sluice/route.h>
#include "jout.h"
#include "load.h"
#include "progress.h"
#include "opts.h"
#include "sluicectl.h"

enum opt_id {
	OPT_TOPO, OPT_ROUTES, OPT_ALGO, OPT_PATHS, OPT_LANES, OPT_ROUTE_SEED,
	OPT_ORIENT, OPT_ROOT, OPT_THREADS, OPT_TRAFFIC, OPT_SEED, OPT_METHOD,
	OPT_EPSILON, OPT_MAX_PHASES, OPT_JSON, OPT_PORTS, OPT_HOSTS,
	OPT_SWITCHES, OPT_OUT, OPT_MODEL, OPT_RUNS,
};

static const struct opt opts[] = {
	[OPT_TOPO]	= { "--topo", NULL, true },
	[OPT_ROUTES]	= { "--routes", NULL, true },
	[OPT_ALGO]	= { "--algo", NULL, true },
	[OPT_PATHS]	= { "--paths", NULL, true },
	[OPT_LANES]	= { "--lanes", NULL, true },
	[OPT_ROUTE_SEED] = { "--route-seed", NULL, true },
	[OPT_ORIENT]	= { "--orient", NULL, true },
	[OPT_ROOT]	= { "--root", NULL, true },
	[OPT_THREADS]	= { "--threads", NULL, true },
	[OPT_TRAFFIC]	= { "--traffic", NULL, true },
	[OPT_SEED]	= { "--seed", NULL, true },
	[OPT_METHOD]	= { "--method", NULL, true },
	[OPT_EPSILON]	= { "--epsilon", NULL, true },
	[OPT_MAX_PHASES] = { "--max-phases", NULL, true },
	[OPT_JSON]	= { "--json", "-j", false },
	[OPT_PORTS]	= { "--ports", NULL, true },
	[OPT_HOSTS]	= { "--hosts", NULL, true },
	[OPT_SWITCHES]	= { "--switches", NULL, true },
	[OPT_OUT]	= { "--output", "-o", true },
	[OPT_MODEL]	= { "--model", NULL, true },
	[OPT_RUNS]	= { "--runs", NULL, true },
};

#define N_OPTS (sizeof(opts) / sizeof(opts[0]))

/* The options that only make sense with --algo. */
#define ALGO_OPTS	(OPT_BIT(OPT_PATHS) | OPT_BIT(OPT_LANES) | \
			 OPT_BIT(OPT_ROUTE_SEED) | OPT_BIT(OPT_ORIENT) | \
			 OPT_BIT(OPT_ROOT) | OPT_BIT(OPT_THREADS))

#define ANALYZE_OPTS	(OPT_BIT(OPT_TOPO) | OPT_BIT(OPT_ROUTES) | OPT_BIT(OPT_ALGO) | \
			 ALGO_OPTS | OPT_BIT(OPT_TRAFFIC) | OPT_BIT(OPT_SEED) | \
			 OPT_BIT(OPT_METHOD) | OPT_BIT(OPT_EPSILON) | \
			 OPT_BIT(OPT_MAX_PHASES) | OPT_BIT(OPT_JSON) | \
			 OPT_BIT(OPT_MODEL) | OPT_BIT(OPT_RUNS))

/* The options of the concurrent flow model's solvers. */
#define SOLVER_OPTS	(OPT_BIT(OPT_METHOD) | OPT_BIT(OPT_EPSILON) | \
			 OPT_BIT(OPT_MAX_PHASES))

#define CLOS_OPTS	(OPT_BIT(OPT_PORTS) | OPT_BIT(OPT_HOSTS) | \
			 OPT_BIT(OPT_SWITCHES) | OPT_BIT(OPT_OUT) | OPT_BIT(OPT_JSON))

static const char usage_text[] =
	"Usage: sluicectl analyze --topo FILE { --routes FILE | --algo ALGO [--paths K] [--lanes L]\n"
	"\t[--route-seed S] [--orient O] [--root NODE] [--threads T] }\n"
	"\t--traffic { all2all | uniform:P | uniform:P% | worst | permutation } [--seed S]\n"
	"\t[--model concurrent] [--method { auto | lp | fptas }] [--epsilon E] [--max-phases N]\n"
	"\t[-j | --json]\n"
	"       sluicectl analyze --topo FILE { --routes FILE | --algo ALGO [...] }\n"
	"\t--traffic permutation --model maxmin [--seed S] [--runs R] [-j | --json]\n"
	"       sluicectl analyze clos --ports P --hosts H --switches N [-o FILE] [-j | --json]\n";

static const char help_text[] =
	"\n--model concurrent (the default): the throughput theta of a traffic matrix\n"
	"on a route set: the largest theta such that theta times every demand fits\n"
	"on the pair's own paths, split over them in any way, with each link\n"
	"carrying at most 1 (a server's line rate) in each direction.  Each server\n"
	"sends at most 1; theta is the rate all of them get at once.\n"
	"\n"
	"--model maxmin (TCP-Bolt's flow simulator; permutation traffic only): each\n"
	"server's flow takes ONE path, drawn at random among its pair's shortest\n"
	"paths in the set (ECMP's hash; for edst, a random tree among those giving\n"
	"the shortest route, over all lanes), and the flows get max-min fair rates\n"
	"(progressive filling, exact), links and each server's host link carrying\n"
	"1 each way.  Throughput is the sum of the rates over the servers, averaged\n"
	"over --runs R permutations (default 1; run i draws from seed + i).\n"
	"\n"
	"  all2all      every server to every other, evenly\n"
	"  uniform:P    each endpoint picks P others at random (P% of them with\n"
	"               a percent sign) and spreads its servers' traffic over them\n"
	"  worst        the permutation of endpoints that maximises the total\n"
	"               shortest-path distance (near-worst, Jyothi et al.)\n"
	"  permutation  a random permutation of the servers (--seed), each sending\n"
	"               once and receiving once, never to itself\n"
	"\n"
	"  --method lp      exact, by GLPK's simplex (small route sets)\n"
	"  --method fptas   Garg-Koenemann/Fleischer, stopped when a feasible flow is\n"
	"                   proven within epsilon (default 0.01) of optimal\n"
	"  --method auto    lp up to 4000 paths, else fptas (the default)\n"
	"\n"
	"\"analyze clos\" sizes the Clos network of FC's Appendix A.3: the most\n"
	"throughput for H servers from at most N p-port switches; -o writes it as a\n"
	"topology file (2 and 3 layers).\n";

struct args {
	const char	*val[N_OPTS];
	uint64_t	paths, lanes, route_seed, threads, seed, max_phases;
	uint64_t	runs;
	uint64_t	ports, hosts, switches;
	double		epsilon;
	int		algo, method;
	bool		maxmin;
};

static int usage(const char *fmt, ...)
{
	va_list ap;

	fputs("sluicectl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fputs(usage_text, stderr);
	return EXIT_USAGE;
}

static int parse_number(struct args *a, enum opt_id id, uint64_t min,
			uint64_t max, uint64_t *v)
{
	const char *s = a->val[id];

	if (s && !opts_number(s, min, max, v))
		return usage("%s: \"%s\" is not a number from %llu to %llu",
			     opts[id].name, s, (unsigned long long)min,
			     (unsigned long long)max);
	return 0;
}

static int parse_values(struct args *a)
{
	const char *v;
	char *end;
	int ret;

	a->algo = -1;
	a->method = SLUICE_FLOW_AUTO;
	a->runs = 1;
	v = a->val[OPT_MODEL];
	if (v && strcmp(v, "concurrent") && strcmp(v, "maxmin"))
		return usage("--model: \"%s\" is not concurrent or maxmin", v);
	a->maxmin = v && !strcmp(v, "maxmin");
	v = a->val[OPT_ALGO];
	if (v) {
		a->algo = sluice_route_algo_parse(v);
		if (a->algo < 0)
			return usage("--algo: unknown algorithm \"%s\"", v);
	}
	v = a->val[OPT_METHOD];
	if (v) {
		a->method = sluice_flow_method_parse(v);
		if (a->method < 0)
			return usage("--method: \"%s\" is not auto, lp or fptas",
				     v);
	}
	v = a->val[OPT_EPSILON];
	if (v) {
		errno = 0;
		a->epsilon = strtod(v, &end);
		if (errno || end == v || *end ||
		    !(a->epsilon >= SLUICE_FLOW_EPSILON_MIN &&
		      a->epsilon <= SLUICE_FLOW_EPSILON_MAX))
			return usage("--epsilon: \"%s\" is not a number from %g to %g",
				     v, SLUICE_FLOW_EPSILON_MIN,
				     SLUICE_FLOW_EPSILON_MAX);
	}
	ret = parse_number(a, OPT_PATHS, 1, UINT32_MAX, &a->paths);
	if (!ret)
		ret = parse_number(a, OPT_LANES, 1, SLUICE_LANES_MAX, &a->lanes);
	if (!ret)
		ret = parse_number(a, OPT_ROUTE_SEED, 0, UINT64_MAX,
				   &a->route_seed);
	if (!ret)
		ret = parse_number(a, OPT_THREADS, 1, 256, &a->threads);
	if (!ret)
		ret = parse_number(a, OPT_SEED, 0, UINT64_MAX, &a->seed);
	if (!ret)
		ret = parse_number(a, OPT_MAX_PHASES, 1, UINT64_MAX,
				   &a->max_phases);
	if (!ret)
		ret = parse_number(a, OPT_RUNS, 1, SLUICE_MAXMIN_RUNS_MAX,
				   &a->runs);
	if (!ret)
		ret = parse_number(a, OPT_PORTS, 2, 1024, &a->ports);
	if (!ret)
		ret = parse_number(a, OPT_HOSTS, 1, UINT32_MAX, &a->hosts);
	if (!ret)
		ret = parse_number(a, OPT_SWITCHES, 1, UINT32_MAX,
				   &a->switches);
	return ret;
}

/* Returns 0, EXIT_USAGE (message printed) or -1 (help printed). */
static int parse(int argc, char **argv, uint64_t allowed, struct args *a)
{
	char msg[128];
	int n, ret;

	memset(a, 0, sizeof(*a));
	ret = opts_parse(argc, argv, opts, N_OPTS, allowed, a->val, NULL, 0,
			 &n, msg, sizeof(msg));
	if (ret > 0) {
		fputs(usage_text, stdout);
		fputs(help_text, stdout);
		return -1;
	}
	if (ret)
		return usage("%s", msg);
	return parse_values(a);
}

/*
 * On a terminal: "routing 120/1000 sources" while --algo computes, then
 * fptas's phases against its cap (--max-phases), which it may stop well
 * before.
 */
static struct cli_progress routing_progress = {
	.what = "routing", .unit = "sources",
};
static struct cli_progress phases_progress = {
	.what = "fptas", .unit = "phases (at most)",
};

/* The routing options, checked against the algorithm as "route" does. */
static int route_opts(const struct args *a, struct sluice_route_opts *o,
		      struct sluice_compute_opts *c)
{
	const char *orient = a->val[OPT_ORIENT];
	char msg[SLUICE_ERRLEN];

	memset(o, 0, sizeof(*o));
	memset(c, 0, sizeof(*c));
	o->algo = a->algo;
	o->paths = a->paths;
	o->lanes = a->lanes;
	o->seed = a->route_seed;
	if (route_opts_check(o, a->val[OPT_PATHS], a->val[OPT_LANES],
			     a->val[OPT_ROUTE_SEED], "--route-seed", orient, a->val[OPT_ROOT],
			     msg, sizeof(msg)))
		return usage("%s", msg);
	c->threads = a->threads;
	if (cli_progress_wanted()) {
		c->progress = cli_progress;
		c->progress_arg = &routing_progress;
	}
	return 0;
}

/* The routes: read from --routes, or computed in memory by --algo. */
static int get_routes(const struct args *a, struct sluice_route_opts *o,
		      const struct sluice_compute_opts *c,
		      const struct sluice_graph *g, struct sluice_routes *r)
{
	char err[SLUICE_ERRLEN];
	int ret;

	if (a->algo >= 0) {
		ret = load_root(g, a->val[OPT_ROOT], a->val[OPT_TOPO], o);
		if (ret)
			return ret;
		if (sluice_routes_compute(g, o, c, r, err, sizeof(err))) {
			cli_progress_end(&routing_progress);
			fprintf(stderr, "sluicectl: %s: %s\n", a->val[OPT_TOPO],
				err);
			return EXIT_RUNTIME;
		}
		return 0;
	}
	return load_routes(a->val[OPT_ROUTES], g, r);
}

/* Six decimals: theta is compared across methods and papers. */
static json_object *j6(double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.6f", v);
	return json_object_new_double_s(v, buf);
}

/* "unrouted" and, if there are any, the first pair without a path. */
static bool jadd_unrouted(json_object *o, const struct sluice_graph *g,
			  uint64_t unrouted, uint32_t src, uint32_t dst)
{
	return jadd(o, "unrouted", jnum(unrouted)) &&
	       (!unrouted ||
		(jadd(o, "unrouted_src", json_object_new_string(g->nodes[src].name)) &&
		 jadd(o, "unrouted_dst", json_object_new_string(g->nodes[dst].name))));
}

static int print_json(const struct sluice_graph *g,
		      const struct sluice_routes *r, const char *traffic,
		      const struct args *a, const struct sluice_traffic *t,
		      const struct sluice_flow_result *res)
{
	json_object *o = json_object_new_object();
	bool ok, fptas = res->method == SLUICE_FLOW_FPTAS;

	ok = o && jadd(o, "traffic", json_object_new_string(traffic)) &&
	     (t->kind != SLUICE_TRAFFIC_PERMUTATION ||
	      (jadd(o, "seed", jnum(a->seed)) &&
	       jadd(o, "local", jnum(t->local)))) &&
	     (!t->picks || (jadd(o, "seed", jnum(a->seed)) &&
			    jadd(o, "picks", jnum(t->picks)))) &&
	     jadd(o, "demands", jnum(t->n_dem)) &&
	     jadd(o, "demand", j6(t->total)) &&
	     jadd(o, "algo", json_object_new_string(r->algo)) &&
	     jadd(o, "paths", jnum(res->paths)) &&
	     jadd_unrouted(o, g, res->unrouted, res->unrouted_src,
			   res->unrouted_dst) &&
	     jadd(o, "method", json_object_new_string(sluice_flow_method_name(res->method))) &&
	     jadd(o, "theta", j6(res->theta)) &&
	     jadd(o, "theta_upper", j6(res->theta_upper)) &&
	     jadd(o, "bound", j6(res->bound)) &&
	     jadd(o, "bound_paths", j6(res->bound_paths)) &&
	     jadd(o, "saturated", jnum(res->saturated)) &&
	     (!fptas || (jadd(o, "epsilon", j6(res->epsilon)) &&
			 jadd(o, "phases", jnum(res->phases)) &&
			 jadd(o, "converged", json_object_new_boolean(res->converged))));
	return jprint(o, ok);
}

static void print_text(const struct sluice_graph *g,
		       const struct sluice_routes *r, const char *traffic,
		       const struct args *a, const struct sluice_traffic *t,
		       const struct sluice_flow_result *res)
{
	printf("traffic %s", traffic);
	if (t->kind == SLUICE_TRAFFIC_PERMUTATION)
		printf(" seed %llu local %llu", (unsigned long long)a->seed,
		       (unsigned long long)t->local);
	if (t->picks)
		printf(" seed %llu picks %u", (unsigned long long)a->seed,
		       t->picks);
	printf(" demands %llu demand %.6f\n", (unsigned long long)t->n_dem,
	       t->total);
	printf("routes %s paths %llu unrouted %llu", r->algo,
	       (unsigned long long)res->paths,
	       (unsigned long long)res->unrouted);
	if (res->unrouted)
		printf(" first %s %s", g->nodes[res->unrouted_src].name,
		       g->nodes[res->unrouted_dst].name);
	printf("\ntheta %.6f theta-upper %.6f method %s\n", res->theta,
	       res->theta_upper, sluice_flow_method_name(res->method));
	printf("bound %.6f bound-paths %.6f saturated %llu\n", res->bound,
	       res->bound_paths, (unsigned long long)res->saturated);
	if (res->method == SLUICE_FLOW_FPTAS)
		printf("fptas epsilon %.6f phases %llu converged %s\n",
		       res->epsilon, (unsigned long long)res->phases,
		       res->converged ? "yes" : "no");
}

static int print_maxmin_json(const struct sluice_graph *g,
			     const struct sluice_routes *r, const struct args *a,
			     const struct sluice_maxmin_result *res)
{
	json_object *o = json_object_new_object();
	bool ok;

	ok = o && jadd(o, "traffic", json_object_new_string("permutation")) &&
	     jadd(o, "seed", jnum(a->seed)) &&
	     jadd(o, "runs", jnum(res->runs)) &&
	     jadd(o, "servers", jnum(res->servers)) &&
	     jadd(o, "local", j6(res->local)) &&
	     jadd(o, "algo", json_object_new_string(r->algo)) &&
	     jadd_unrouted(o, g, res->unrouted, res->unrouted_src,
			   res->unrouted_dst) &&
	     jadd(o, "model", json_object_new_string("maxmin")) &&
	     jadd(o, "throughput", j6(res->throughput)) &&
	     jadd(o, "throughput_sd", j6(res->throughput_sd)) &&
	     jadd(o, "throughput_min", j6(res->throughput_min)) &&
	     jadd(o, "rate_min", j6(res->rate_min)) &&
	     jadd(o, "fabric_rate", j6(res->fabric_rate)) &&
	     jadd(o, "path_len", j6(res->path_len)) &&
	     jadd(o, "saturated", j6(res->saturated));
	return jprint(o, ok);
}

static void print_maxmin_text(const struct sluice_graph *g,
			      const struct sluice_routes *r,
			      const struct args *a,
			      const struct sluice_maxmin_result *res)
{
	printf("traffic permutation seed %llu runs %u servers %u local %.2f\n",
	       (unsigned long long)a->seed, res->runs, res->servers,
	       res->local);
	printf("routes %s unrouted %llu", r->algo,
	       (unsigned long long)res->unrouted);
	if (res->unrouted)
		printf(" first %s %s", g->nodes[res->unrouted_src].name,
		       g->nodes[res->unrouted_dst].name);
	printf("\nmaxmin throughput %.6f sd %.6f min %.6f\n", res->throughput,
	       res->throughput_sd, res->throughput_min);
	printf("rate-min %.6f fabric-rate %.6f path-length %.4f saturated %.2f\n",
	       res->rate_min, res->fabric_rate, res->path_len,
	       res->saturated);
}

/* --model maxmin: the routes are in @r, the traffic spec checked. */
static int maxmin_main(const struct sluice_graph *g,
		       const struct sluice_routes *r, const struct args *a,
		       const struct sluice_traffic_spec *spec)
{
	struct cli_progress runs_progress = { .what = "max-min", .unit = "runs" };
	struct sluice_maxmin_result res;
	char err[SLUICE_ERRLEN];
	int ret;

	ret = sluice_flow_maxmin(g, r, spec, a->runs,
				 cli_progress_wanted() ? cli_progress : NULL,
				 &runs_progress, &res, err, sizeof(err));
	cli_progress_end(&runs_progress);
	if (ret) {
		fprintf(stderr, "sluicectl: %s: %s\n", a->val[OPT_TOPO], err);
		return EXIT_RUNTIME;
	}
	if (a->val[OPT_JSON])
		return print_maxmin_json(g, r, a, &res);
	print_maxmin_text(g, r, a, &res);
	return 0;
}

static int clos_write(const void *arg, FILE *f)
{
	char err[SLUICE_ERRLEN];

	if (!sluice_graph_write(arg, f, err, sizeof(err)))
		return 0;
	fprintf(stderr, "sluicectl: %s\n", err);
	return -EIO;
}

static int clos_main(int argc, char **argv)
{
	struct sluice_clos_size c;
	char err[SLUICE_ERRLEN];
	struct sluice_graph g;
	json_object *o, *arr;
	struct args a;
	uint32_t l;
	bool ok;
	int ret;

	ret = parse(argc, argv, CLOS_OPTS, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (!a.val[OPT_PORTS] || !a.val[OPT_HOSTS] || !a.val[OPT_SWITCHES])
		return usage("analyze clos needs --ports, --hosts and --switches");
	if (sluice_clos_size(a.ports, a.hosts, a.switches, &c, err,
			     sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	if (a.val[OPT_OUT]) {
		if (sluice_clos_build(&c, &g, err, sizeof(err))) {
			fprintf(stderr, "sluicectl: %s\n", err);
			return EXIT_RUNTIME;
		}
		ret = write_out(a.val[OPT_OUT], clos_write, &g);
		sluice_graph_free(&g);
		if (ret)
			return ret;
	}
	if (!a.val[OPT_JSON]) {
		printf("clos ports %u hosts %u switches %u of %u layers %u host-ports %u uplinks %u theta %.6f\n",
		       c.ports, c.hosts, c.switches, c.switches_max, c.layers,
		       c.host_ports, c.uplinks, c.theta);
		printf("layer-switches");
		for (l = 0; l < c.layers; l++)
			printf(" %u", c.layer_switches[l]);
		putchar('\n');
		return 0;
	}
	o = json_object_new_object();
	arr = json_object_new_array();
	ok = o && arr;
	for (l = 0; ok && l < c.layers; l++)
		ok = !json_object_array_add(arr, jnum(c.layer_switches[l]));
	ok = ok && jadd(o, "ports", jnum(c.ports)) &&
	     jadd(o, "hosts", jnum(c.hosts)) &&
	     jadd(o, "switches", jnum(c.switches)) &&
	     jadd(o, "switches_max", jnum(c.switches_max)) &&
	     jadd(o, "layers", jnum(c.layers)) &&
	     jadd(o, "host_ports", jnum(c.host_ports)) &&
	     jadd(o, "uplinks", jnum(c.uplinks)) &&
	     jadd(o, "theta", j6(c.theta));
	/* jadd() takes arr whether it succeeds or not */
	ok = ok ? jadd(o, "layer_switches", arr) :
		  (json_object_put(arr), false);
	return jprint(o, ok);
}

/**
 * analyze_main() - "sluicectl analyze": throughput, or "analyze clos"
 * @cmd:	the command
 * @argc:	arguments, argv[0] the command's name
 * @argv:	the arguments
 *
 * Return: 0, EXIT_USAGE or EXIT_RUNTIME.
 */
int analyze_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_traffic_spec spec;
	struct sluice_flow_result res;
	struct sluice_route_opts ro;
	struct sluice_compute_opts co;
	struct sluice_flow_opts fo = { 0 };
	struct sluice_traffic t = { 0 };
	struct sluice_routes r = { 0 };
	char err[SLUICE_ERRLEN];
	struct sluice_graph g;
	struct args a;
	size_t i;
	int ret;

	(void)cmd;
	if (argc >= 2 && !strcmp(argv[1], "clos"))
		return clos_main(argc - 1, argv + 1);
	ret = parse(argc, argv, ANALYZE_OPTS, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (!a.val[OPT_TOPO])
		return usage("--topo FILE is required");
	if (!a.val[OPT_TRAFFIC])
		return usage("--traffic is required");
	if (!a.val[OPT_ROUTES] == (a.algo < 0))
		return usage("give one of --routes FILE and --algo ALGO");
	for (i = 0; a.algo < 0 && i < N_OPTS; i++)
		if ((ALGO_OPTS & OPT_BIT(i)) && a.val[i])
			return usage("%s needs --algo, not a route file",
				     opts[i].name);
	if (sluice_traffic_parse(a.val[OPT_TRAFFIC], &spec, err, sizeof(err)))
		return usage("--traffic: %s", err);
	if (a.val[OPT_SEED] && spec.kind != SLUICE_TRAFFIC_UNIFORM &&
	    spec.kind != SLUICE_TRAFFIC_PERMUTATION)
		return usage("--seed applies to uniform and permutation traffic");
	if (a.maxmin && spec.kind != SLUICE_TRAFFIC_PERMUTATION)
		return usage("--model maxmin takes --traffic permutation only: it rates one flow per server, and %s is a matrix of demands",
			     a.val[OPT_TRAFFIC]);
	for (i = 0; a.maxmin && i < N_OPTS; i++)
		if ((SOLVER_OPTS & OPT_BIT(i)) && a.val[i])
			return usage("%s applies to --model concurrent",
				     opts[i].name);
	if (!a.maxmin && a.val[OPT_RUNS])
		return usage("--runs applies to --model maxmin");
	if ((a.val[OPT_EPSILON] || a.val[OPT_MAX_PHASES]) &&
	    a.method == SLUICE_FLOW_LP)
		return usage("--epsilon and --max-phases apply to fptas (and auto)");
	spec.seed = a.seed;
	fo.method = a.method;
	fo.epsilon = a.epsilon;
	fo.max_phases = a.max_phases;
	if (cli_progress_wanted()) {
		fo.progress = cli_progress;
		fo.progress_arg = &phases_progress;
	}
	if (a.algo >= 0) {
		ret = route_opts(&a, &ro, &co);
		if (ret)
			return ret;
	}
	if (sluice_graph_read_file(&g, a.val[OPT_TOPO], err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	ret = get_routes(&a, &ro, &co, &g, &r);
	if (ret)
		goto out;
	if (a.maxmin) {
		ret = maxmin_main(&g, &r, &a, &spec);
		goto out;
	}
	ret = sluice_traffic_make(&g, &spec, &t, err, sizeof(err)) ?:
	      sluice_flow_theta(&g, &r, &t, &fo, &res, err, sizeof(err));
	/* fptas may stop well before its phase cap: end the line */
	cli_progress_end(&phases_progress);
	if (ret) {
		fprintf(stderr, "sluicectl: %s: %s\n", a.val[OPT_TOPO], err);
		ret = EXIT_RUNTIME;
		goto out;
	}
	/* auto chose the exact LP: say that the fptas options went unused */
	if (res.method == SLUICE_FLOW_LP &&
	    (a.val[OPT_EPSILON] || a.val[OPT_MAX_PHASES]))
		fprintf(stderr, "sluicectl: warning: %s unused: the route set is small enough for the exact LP (--method fptas to use it)\n",
			a.val[OPT_EPSILON] ? "--epsilon" : "--max-phases");
	if (res.method == SLUICE_FLOW_FPTAS && !res.converged)
		fprintf(stderr, "sluicectl: warning: fptas stopped after %llu phases with theta %.6f..%.6f, not within epsilon %g\n",
			(unsigned long long)res.phases, res.theta,
			res.theta_upper, res.epsilon);
	if (a.val[OPT_JSON])
		ret = print_json(&g, &r, a.val[OPT_TRAFFIC], &a, &t, &res);
	else
		print_text(&g, &r, a.val[OPT_TRAFFIC], &a, &t, &res);
out:
	sluice_traffic_free(&t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	return ret;
}
