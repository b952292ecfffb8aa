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
#include "args.h"
#include "sluicectl.h"

enum opt_id {
	OPT_TOPO, OPT_ROUTES, OPT_ALGO, OPT_PATHS, OPT_LANES, OPT_ROUTE_SEED,
	OPT_ORIENT, OPT_ROOT, OPT_THREADS, OPT_TRAFFIC, OPT_SEED, OPT_METHOD,
	OPT_EPSILON, OPT_MAX_PHASES, OPT_JSON, OPT_PORTS, OPT_HOSTS,
	OPT_SWITCHES, OPT_OUT, OPT_MODEL, OPT_RUNS,
	N_OPTS
};

static const char *const orients[] = { "auto", "tier", "bfs", NULL };
static const char *const models[] = { "concurrent", "maxmin", NULL };

static const struct arg_opt opts[] = {
	[OPT_TOPO]	= ARG_P("--topo", 0, "FILE", "the topology (required)"),
	[OPT_ROUTES]	= ARG_P("--routes", 0, "FILE", "the route set; or --algo to compute one"),
	[OPT_ALGO]	= ARG_S("--algo", 0, "ALGO", "compute the routes with ALGO, as route compute"),
	[OPT_PATHS]	= ARG_N("--paths", 0, "K", 1, SLUICE_KSP_PATHS_MAX,
				"with --algo: as route compute's"),
	[OPT_LANES]	= ARG_N("--lanes", 0, "L", 1, SLUICE_LANES_MAX,
				"with --algo: as route compute's"),
	[OPT_ROUTE_SEED] = ARG_N("--route-seed", 0, "S", 0, UINT64_MAX,
				 "with --algo: route compute's --seed"),
	[OPT_ORIENT]	= ARG_E("--orient", 0, orients, "with --algo: as route compute's"),
	[OPT_ROOT]	= ARG_S("--root", 0, "NODE", "with --algo: as route compute's"),
	[OPT_THREADS]	= ARG_N("--threads", 0, "T", 1, 256,
				"with --algo: sources computed in parallel"),
	[OPT_TRAFFIC]	= ARG_S("--traffic", 0, "T",
				"all2all, uniform:P, uniform:P%, worst or permutation (required)"),
	[OPT_SEED]	= ARG_N("--seed", 0, "S", 0, UINT64_MAX,
				"the seed of uniform and permutation traffic"),
	[OPT_METHOD]	= ARG_S("--method", 0, "{ auto | lp | fptas }",
				"how theta is found, default auto"),
	[OPT_EPSILON]	= ARG_S("--epsilon", 0, "E",
				"fptas: how close to optimal, 0.0001 to 0.5, default 0.01"),
	[OPT_MAX_PHASES] = ARG_N("--max-phases", 0, "N", 1, UINT64_MAX,
				 "fptas: the most phases it runs"),
	[OPT_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
	[OPT_PORTS]	= ARG_N("--ports", 0, "P", 2, 1024, "clos: ports per switch (required)"),
	[OPT_HOSTS]	= ARG_N("--hosts", 0, "H", 1, UINT32_MAX, "clos: servers (required)"),
	[OPT_SWITCHES]	= ARG_N("--switches", 0, "N", 1, UINT32_MAX,
				"clos: the most switches (required)"),
	[OPT_OUT]	= ARG_OUTPUT,
	[OPT_MODEL]	= ARG_E("--model", 0, models,
				"concurrent (theta of a traffic matrix, the default) or maxmin"),
	[OPT_RUNS]	= ARG_N("--runs", 0, "R", 1, SLUICE_MAXMIN_RUNS_MAX,
				"maxmin: permutations averaged, default 1"),
};

/* The options that only make sense with --algo. */
static const int algo_opts[] = {
	OPT_PATHS, OPT_LANES, OPT_ROUTE_SEED, OPT_ORIENT, OPT_ROOT, OPT_THREADS,
};

/* The options of the concurrent flow model's solvers. */
static const int solver_opts[] = { OPT_METHOD, OPT_EPSILON, OPT_MAX_PHASES };

static const char usage_text[] =
	"Usage: sluicectl analyze --topo FILE { --routes FILE | --algo ALGO [--paths K] [--lanes L]\n"
	"\t[--route-seed S] [--orient O] [--root NODE] [--threads T] }\n"
	"\t--traffic { all2all | uniform:P | uniform:P% | worst | permutation } [--seed S]\n"
	"\t[--model concurrent] [--method { auto | lp | fptas }] [--epsilon E] [--max-phases N]\n"
	"\t[-j | --json]\n"
	"       sluicectl analyze --topo FILE { --routes FILE | --algo ALGO [...] }\n"
	"\t--traffic permutation --model maxmin [--seed S] [--runs R] [-j | --json]\n"
	"       sluicectl analyze clos --ports P --hosts H --switches N [-o FILE] [-j | --json]\n";

#define HELP_TEXT \
	"--model concurrent (the default): the throughput theta of a traffic matrix\n" \
	"on a route set: the largest theta such that theta times every demand fits\n" \
	"on the pair's own paths, split over them in any way, with each link\n" \
	"carrying at most 1 (a server's line rate) in each direction.  Each server\n" \
	"sends at most 1; theta is the rate all of them get at once.\n" \
	"\n" \
	"--model maxmin (TCP-Bolt's flow simulator; permutation traffic only): each\n" \
	"server's flow takes ONE path, drawn at random among its pair's shortest\n" \
	"paths in the set (ECMP's hash; for edst, a random tree among those giving\n" \
	"the shortest route, over all lanes), and the flows get max-min fair rates\n" \
	"(progressive filling, exact), links and each server's host link carrying\n" \
	"1 each way.  Throughput is the sum of the rates over the servers, averaged\n" \
	"over --runs R permutations (default 1; run i draws from seed + i).\n" \
	"\n" \
	"  all2all      every server to every other, evenly\n" \
	"  uniform:P    each endpoint picks P others at random (P% of them with\n" \
	"               a percent sign) and spreads its servers' traffic over them\n" \
	"  worst        the permutation of endpoints that maximises the total\n" \
	"               shortest-path distance (near-worst, Jyothi et al.)\n" \
	"  permutation  a random permutation of the servers (--seed), each sending\n" \
	"               once and receiving once, never to itself\n" \
	"\n" \
	"  --method lp      exact, by GLPK's simplex (small route sets)\n" \
	"  --method fptas   Garg-Koenemann/Fleischer, stopped when a feasible flow is\n" \
	"                   proven within epsilon (default 0.01) of optimal\n" \
	"  --method auto    lp up to 4000 paths, else fptas (the default)\n" \
	"\n" \
	"\"analyze clos\" sizes the Clos network of FC's Appendix A.3: the most\n" \
	"throughput for H servers from at most N p-port switches; -o writes it as a\n" \
	"topology file (2 and 3 layers).\n"

static const struct args_spec analyze_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 0,
	.pick = ARGS_PICK(OPT_TOPO, OPT_ROUTES, OPT_ALGO, OPT_PATHS, OPT_LANES,
			  OPT_ROUTE_SEED, OPT_ORIENT, OPT_ROOT, OPT_THREADS,
			  OPT_TRAFFIC, OPT_SEED, OPT_MODEL, OPT_METHOD,
			  OPT_EPSILON, OPT_MAX_PHASES, OPT_RUNS, OPT_JSON),
	.more = HELP_TEXT
		"\nCommands:\n"
		"  clos  The Clos baseline: the most throughput from the switches given\n",
};
static const struct args_spec clos_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 0,
	.pick = ARGS_PICK(OPT_PORTS, OPT_HOSTS, OPT_SWITCHES, OPT_OUT, OPT_JSON),
	.more = "Sizes the Clos network of FC's Appendix A.3: the most throughput for H\n"
		"servers from at most N P-port switches; -o writes it as a topology file.",
};

static const struct command clos_cmd = {
	"clos", NULL, "The Clos baseline: the most throughput from the switches given",
	"--ports P --hosts H --switches N [-o FILE] [-j | --json]", "analyze",
};

struct aargs {
	const char	**val;
	uint64_t	paths, lanes, route_seed, threads, seed, max_phases;
	uint64_t	runs;
	uint64_t	ports, hosts, switches;
	double		epsilon;
	int		algo, method;
	bool		maxmin;
	const char	*vals[N_OPTS];
	uint64_t	num[N_OPTS];
	struct args	args;
};

/* "sluicectl analyze: MESSAGE" and the usage of every form; EXIT_USAGE. */
static int usage(const char *fmt, ...)
{
	va_list ap;

	fputs("sluicectl analyze: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fputs(usage_text, stderr);
	return EXIT_USAGE;
}

static int parse_values(struct aargs *a)
{
	const char *v;
	char *end;

	a->algo = -1;
	a->method = SLUICE_FLOW_AUTO;
	a->maxmin = a->val[OPT_MODEL] && a->num[OPT_MODEL] == 1;
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
	a->paths = a->num[OPT_PATHS];
	a->lanes = a->num[OPT_LANES];
	a->route_seed = a->num[OPT_ROUTE_SEED];
	a->threads = a->num[OPT_THREADS];
	a->seed = a->num[OPT_SEED];
	a->max_phases = a->num[OPT_MAX_PHASES];
	a->runs = a->val[OPT_RUNS] ? a->num[OPT_RUNS] : 1;
	a->ports = a->num[OPT_PORTS];
	a->hosts = a->num[OPT_HOSTS];
	a->switches = a->num[OPT_SWITCHES];
	return 0;
}

/* Returns 0, EXIT_USAGE (message printed) or -1 (help printed). */
static int parse(const struct command *cmd, const struct args_spec *spec,
		 int argc, char **argv, struct aargs *a)
{
	memset(a, 0, sizeof(*a));
	a->args.val = a->vals;
	a->args.num = a->num;
	if (args_parse(cmd, spec, argc, argv, &a->args))
		return a->args.exit ? a->args.exit : -1;
	a->val = a->vals;
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
static int route_opts(const struct aargs *a, struct sluice_route_opts *o,
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
static int get_routes(const struct aargs *a, struct sluice_route_opts *o,
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
		      const struct aargs *a, const struct sluice_traffic *t,
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
		       const struct aargs *a, const struct sluice_traffic *t,
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
			     const struct sluice_routes *r, const struct aargs *a,
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
			      const struct aargs *a,
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
		       const struct sluice_routes *r, const struct aargs *a,
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
	const struct command *cmd = &clos_cmd;
	struct sluice_clos_size c;
	char err[SLUICE_ERRLEN];
	struct sluice_graph g;
	json_object *o, *arr;
	struct aargs a;
	uint32_t l;
	bool ok;
	int ret;

	ret = parse(cmd, &clos_spec, argc, argv, &a);
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
	struct aargs a;
	size_t i;
	int ret;

	if (argc >= 2 && !strcmp(argv[1], "clos"))
		return clos_main(argc - 1, argv + 1);
	ret = parse(cmd, &analyze_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (!a.val[OPT_TOPO])
		return usage("--topo FILE is required");
	if (!a.val[OPT_TRAFFIC])
		return usage("--traffic is required");
	if (!a.val[OPT_ROUTES] == (a.algo < 0))
		return usage("give one of --routes FILE and --algo ALGO");
	for (i = 0; a.algo < 0 && i < ARRAY_SIZE(algo_opts); i++)
		if (a.val[algo_opts[i]])
			return usage("%s needs --algo, not a route file",
				     opts[algo_opts[i]].name);
	if (sluice_traffic_parse(a.val[OPT_TRAFFIC], &spec, err, sizeof(err)))
		return usage("--traffic: %s", err);
	if (a.val[OPT_SEED] && spec.kind != SLUICE_TRAFFIC_UNIFORM &&
	    spec.kind != SLUICE_TRAFFIC_PERMUTATION)
		return usage("--seed applies to uniform and permutation traffic");
	if (a.maxmin && spec.kind != SLUICE_TRAFFIC_PERMUTATION)
		return usage("--model maxmin takes --traffic permutation only: it rates one flow per server, and %s is a matrix of demands",
			     a.val[OPT_TRAFFIC]);
	for (i = 0; a.maxmin && i < ARRAY_SIZE(solver_opts); i++)
		if (a.val[solver_opts[i]])
			return usage("%s applies to --model concurrent",
				     opts[solver_opts[i]].name);
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
