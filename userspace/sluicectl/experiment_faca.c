// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl experiment faca: FaCa's evaluation (Sections 7.1 and 7.3),
 * part by part.
 *
 *   model   the flow-level model (sluice/faca_model.h) at a scale a
 *           fabric of namespaces cannot hold: the micro-benchmark's
 *           leaf-spine with slower and faster spines, rounds of growing
 *           load placed by every leaf at once on stale loads, under ECMP,
 *           WCMP, greedy "lightest path", Flowing&Jumping and the
 *           optimum; and the production test's one leaf of 20 elephant
 *           flows on 10 uplinks.  Numbers beside the paper's.
 *   micro   the micro-benchmark on a fabric of namespaces, scaled to
 *           what the VM fills (experiment_faca_micro.c): long TCP flows
 *           between paired leaves under ECMP, WCMP and FaCa's agents.
 *
 * Each part is a row of parts[]: how it runs, prints (text and JSON),
 * plots and judges, so that a part is added without touching the others.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sluice/experiment.h>
#include <sluice/faca_model.h>
#include "cmd_experiment.h"
#include "experiment_faca.h"
#include "jout.h"
#include "args.h"
#include "sluicectl.h"

#define P_ALL		SLUICE_FACA_POLICIES

enum part { P_MODEL, P_MICRO, N_PARTS };

static const char *const part_names[N_PARTS] = { "model", "micro" };

static const char *const policy_titles[P_ALL] = {
	"ECMP", "WCMP", "greedy", "F&J", "optimum",
};

/* A part: it runs, prints (text, JSON), plots (--svg) and judges. */
struct part_ops {
	int		(*run)(struct fexp *e);
	bool		(*ran)(const struct fexp *e);
	void		(*print)(const struct fexp *e);
	json_object	*(*json)(const struct fexp *e);
	int		(*plot)(const struct fexp *e);
	bool		(*ok)(const struct fexp *e);
	void		(*free)(struct fexp *e);
};

enum { O_PARTS, O_LEAVES, O_SPINES, O_ROUNDS, O_FLOWS, O_RUNS, O_SEED,
	O_SVG, O_JSON, O_VERBOSE, O_NAME, O_POLICIES, O_RATE, O_SLOW,
	O_DURATION, O_INTERVAL, O_STAGGER, O_THRESHOLD, O_KEEP, N_OPTS };

static const struct arg_opt opts[N_OPTS] = {
	[O_PARTS]	= ARG_S("--parts", 0, "PARTS", "model, micro, comma-separated; default all"),
	[O_LEAVES]	= ARG_N("--leaves", 0, "L", 2, SLUICE_FACA_LEAVES_MAX,
				"model: leaves, even, default 16"),
	[O_SPINES]	= ARG_N("--spines", 0, "S", 2, SLUICE_FACA_SPINES_MAX,
				"model: spines, default 8"),
	[O_ROUNDS]	= ARG_N("--rounds", 0, "R", 1, 1000,
				"rounds of flows, default 10 (model), 4 (micro)"),
	[O_FLOWS]	= ARG_N("--flows", 0, "F", 1, 1000, "flows a leaf adds each round, default 2"),
	[O_RUNS]	= ARG_N("--runs", 0, "N", 1, SLUICE_FACA_RUNS_MAX,
				"runs averaged, default 20 (model), 3 (micro)"),
	[O_SEED]	= ARG_N("--seed", 0, "S", 0, UINT32_MAX, "the seed, default 1"),
	[O_SVG]		= ARG_P("--svg", 0, "PREFIX", "draw each part into PREFIX-PART.svg"),
	[O_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
	[O_VERBOSE]	= ARG_F("--verbose", 'v', "say what is being done, on stderr"),
	[O_NAME]	= ARG_S("--name", 0, "NAME", "micro: the fabric, default sluice"),
	[O_POLICIES]	= ARG_S("--policies", 0, "POLICIES",
				"micro: ecmp, wcmp, faca, comma-separated; default all"),
	[O_RATE]	= ARG_R("--rate", "RATE", 100000, 2000000,
				"micro: a host's link rate (what the VM can emulate), default 500kbit"),
	[O_SLOW]	= ARG_S("--slow", 0, "FRACTION",
				"micro: the slow spines' share of the rate, 0.1 to 1, default 0.75"),
	[O_DURATION]	= ARG_SEC_MS("--duration", 1000, 600000, "micro: a round's length, default 12s"),
	[O_INTERVAL]	= ARG_SEC_MS("--interval", 50, 5000, "micro: between samples, default 0.25s"),
	[O_STAGGER]	= ARG_SEC_MS("--stagger", 0, 60000,
				     "micro: between a round's flows, default 3s"),
	[O_THRESHOLD]	= ARG_S("--threshold", 0, "BYTES",
				"micro: FaCa's queue threshold, at most xoff, default half of it"),
	[O_KEEP]	= ARG_F("--keep", 0, "micro: leave the last fabric up"),
};

static const struct args_spec spec = ARGS_SPEC(opts, 0, 0, NULL);

/* The options of one part only, and its name. */
static const struct {
	int		opt;
	enum part	part;
} part_opts[] = {
	{ O_LEAVES, P_MODEL }, { O_SPINES, P_MODEL },
	{ O_NAME, P_MICRO }, { O_POLICIES, P_MICRO }, { O_RATE, P_MICRO },
	{ O_SLOW, P_MICRO }, { O_DURATION, P_MICRO },
	{ O_INTERVAL, P_MICRO }, { O_STAGGER, P_MICRO },
	{ O_THRESHOLD, P_MICRO }, { O_KEEP, P_MICRO },
};

void faca_progress(const struct fexp *e, const char *fmt, ...)
{
	va_list ap;

	if (e->json && !e->verbose)
		return;
	va_start(ap, fmt);
	fputs("faca: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* An option of one part, given when that part does not run. */
static int other_part(const struct command *cmd, const struct fexp *e,
		      const char *const *val)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(part_opts); i++)
		if (val[part_opts[i].opt] &&
		    !(e->parts & 1u << part_opts[i].part))
			return cmd_error(cmd, "%s is the %s part's: give --parts %s",
					       opts[part_opts[i].opt].name,
					       part_names[part_opts[i].part],
					       part_names[part_opts[i].part]);
	return 0;
}

static int parse(const struct command *cmd, struct fexp *e, int argc,
		 char **argv)
{
	uint32_t seed = 1, rounds = 0, runs = 0;
	/* the numeric options (checked by the parser): where each goes */
	const struct {
		int		opt;
		uint32_t	*v;
	} num[] = {
		{ O_LEAVES, &e->leaves }, { O_SPINES, &e->spines },
		{ O_ROUNDS, &rounds }, { O_FLOWS, &e->flows },
		{ O_RUNS, &runs }, { O_SEED, &seed },
	};
	const char **val;
	int ret;
	size_t i;
	ARGS_DECLARE(a, N_OPTS);

	if (args_parse(cmd, &spec, argc, argv, &a))
		return a.exit ? a.exit : -1;
	val = a.val;
	e->parts = (1u << N_PARTS) - 1;
	e->leaves = 16;
	e->spines = 8;
	e->flows = 2;
	if (val[O_PARTS] && (ret = exp_parse_names(cmd, "--parts",
						   val[O_PARTS], part_names,
						   N_PARTS, &e->parts)))
		return ret;
	ret = other_part(cmd, e, val);
	for (i = 0; !ret && i < ARRAY_SIZE(num); i++)
		if (val[num[i].opt])
			*num[i].v = a.num[num[i].opt];
	if (ret)
		return ret;
	e->seed = seed;
	/* the model's 10 rounds and 20 runs; a fabric's 4 and 3 */
	e->rounds = rounds ? rounds : 10;
	e->m.rounds = rounds ? rounds : 4;
	e->runs = runs ? runs : 20;
	e->m.runs = runs ? runs : 3;
	if (e->leaves % 2)
		return cmd_error(cmd, "--leaves %u: leaves send in pairs, an even number",
				       e->leaves);
	if (e->parts & 1u << P_MODEL &&
	    (uint64_t)e->leaves * e->flows * e->rounds > SLUICE_FACA_FLOWS_MAX)
		return cmd_error(cmd, "--leaves %u x --flows %u x --rounds %u flows: at most %u in a run",
				       e->leaves, e->flows, e->rounds,
				       SLUICE_FACA_FLOWS_MAX);
	e->svg = val[O_SVG];
	e->json = val[O_JSON];
	e->verbose = val[O_VERBOSE];
	if (e->parts & 1u << P_MICRO) {
		const struct micro_args m = {
			.name = val[O_NAME], .policies = val[O_POLICIES],
			.rate = a.num[O_RATE], .slow = val[O_SLOW],
			.duration_ms = a.num[O_DURATION],
			.interval_ms = a.num[O_INTERVAL],
			.stagger_ms = a.num[O_STAGGER],
			.has_stagger = val[O_STAGGER],
			.threshold = val[O_THRESHOLD], .keep = val[O_KEEP],
		};

		return micro_parse(cmd, e, &m);
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- model ---- */

static const struct sluice_faca_point *at(const struct sluice_faca_result *r,
					  int p, uint32_t round)
{
	return sluice_faca_at(r, p, round);
}

/* A policy's congestion rate averaged over the rounds. */
static double mean_congestion(const struct sluice_faca_result *r, int p)
{
	double sum = 0;
	uint32_t k;

	for (k = 0; k < r->rounds; k++)
		sum += at(r, p, k)->congestion.mean;
	return sum / r->rounds;
}

static int model_run(struct fexp *e)
{
	struct sluice_faca_model *m = &e->micro_model;
	char err[256];
	double t0 = now_s();

	sluice_faca_micro(m, e->leaves, e->spines);
	m->rounds = e->rounds;
	m->flows = e->flows;
	/* the last round at the leaves' capacity */
	m->flow_size = m->leaf_cap / ((double)e->flows * e->rounds);
	m->runs = e->runs;
	m->seed = e->seed;
	sluice_faca_production(&e->prod);
	e->prod.runs = e->runs;
	e->prod.seed = e->seed;
	faca_progress(e, "model: micro-benchmark, %u leaves, %u spines, %u rounds of %u flows, %u runs",
		      e->leaves, e->spines, e->rounds, e->flows, e->runs);
	if (sluice_faca_model_run(m, &e->micro_res, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: model: %s\n", err);
		return EXIT_RUNTIME;
	}
	faca_progress(e, "model: production test, %u runs", e->runs);
	if (sluice_faca_model_run(&e->prod, &e->prod_res, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: model: %s\n", err);
		return EXIT_RUNTIME;
	}
	e->model_ran = true;
	faca_progress(e, "model: done in %.2f s", now_s() - t0);
	return 0;
}

static bool model_ran(const struct fexp *e)
{
	return e->model_ran;
}

/*
 * The claims judged: F&J's congestion rate over the rounds below ECMP's
 * and WCMP's (Fig. 9a); greedy piles onto the same spines, above F&J's
 * highest utilisation at full load (the competition of Section 5.5); F&J
 * balances one leaf's ports better than ECMP (Fig. 6); and no policy
 * keeps its spines below the optimum's utilisation (a check of the model).
 */
static bool model_ok(const struct fexp *e)
{
	const struct sluice_faca_result *r = &e->micro_res, *q = &e->prod_res;
	uint32_t last = r->rounds - 1, k;
	double cf = mean_congestion(r, SLUICE_FACA_FJ);
	bool ok;
	int p;

	ok = cf < mean_congestion(r, SLUICE_FACA_ECMP) &&
	     cf < mean_congestion(r, SLUICE_FACA_WCMP) &&
	     at(r, SLUICE_FACA_GREEDY, last)->max_util.mean >
	     at(r, SLUICE_FACA_FJ, last)->max_util.mean &&
	     at(q, SLUICE_FACA_FJ, 0)->port_sd.mean <
	     at(q, SLUICE_FACA_ECMP, 0)->port_sd.mean;
	/* a policy may meet the optimum: equal but for rounding */
	for (p = 0; p < SLUICE_FACA_OPTIMUM; p++)
		for (k = 0; k < r->rounds; k++)
			ok &= at(r, SLUICE_FACA_OPTIMUM, k)->max_util.mean <=
			      at(r, p, k)->max_util.mean * (1 + 1e-9);
	return ok;
}

/* One table: a row a round, a column a policy. */
static void model_table(const struct sluice_faca_result *r, const char *title,
			double (*value)(const struct sluice_faca_result *r,
					int p, uint32_t k),
			const char *fmt)
{
	uint32_t k;
	int p;

	printf("  %s:\n  %6s", title, "load");
	for (p = 0; p < P_ALL; p++)
		printf(" %8s", policy_titles[p]);
	printf("\n");
	for (k = 0; k < r->rounds; k++) {
		printf("  %5.0f%%", 100 * r->load[k]);
		for (p = 0; p < P_ALL; p++)
			printf(fmt, value(r, p, k));
		printf("\n");
	}
}

static double v_congestion(const struct sluice_faca_result *r, int p,
			   uint32_t k)
{
	return 100 * at(r, p, k)->congestion.mean;
}

static double v_max_util(const struct sluice_faca_result *r, int p,
			 uint32_t k)
{
	return at(r, p, k)->max_util.mean;
}

static double v_port_sd(const struct sluice_faca_result *r, int p, uint32_t k)
{
	return at(r, p, k)->port_sd.mean;
}

static double v_throughput(const struct sluice_faca_result *r, int p,
			   uint32_t k)
{
	return 100 * at(r, p, k)->throughput.mean / r->offered[k];
}

static void model_print(const struct fexp *e)
{
	const struct sluice_faca_model *m = &e->micro_model, *q = &e->prod;
	const struct sluice_faca_result *r = &e->micro_res, *pr = &e->prod_res;
	double ce = mean_congestion(r, SLUICE_FACA_ECMP);
	double cw = mean_congestion(r, SLUICE_FACA_WCMP);
	double cf = mean_congestion(r, SLUICE_FACA_FJ);
	double te = at(pr, SLUICE_FACA_ECMP, 0)->throughput.mean;
	double tf = at(pr, SLUICE_FACA_FJ, 0)->throughput.mean, gain;
	uint32_t last = r->rounds - 1;
	int p;

	printf("model (Section 7.3, flow level): a leaf-spine of %u leaves of %g, in pairs sending to each other, and %u spines (%u at %g, %u at %g); each round every leaf adds %u flow%s of %g, all leaves deciding at once on the spines' loads at the round's start; %u runs, seed %llu\n",
	       m->leaves, m->leaf_cap, m->spines, m->slow_spines, m->slow_cap,
	       m->spines - m->slow_spines, m->fast_cap, m->flows,
	       m->flows == 1 ? "" : "s", m->flow_size, m->runs,
	       (unsigned long long)m->seed);
	printf("  predicts: F&J's congestion rate below ECMP's and WCMP's as the load grows (the paper, Fig. 9a: about %.0f %% below ECMP's); greedy, every leaf on the lightest spine of the same stale loads, piles onto the same spines; no policy under the optimum's utilisation\n",
	       100 * PAPER_CONG_GAIN);
	model_table(r, "congestion rate, % of spine ports carrying traffic into an overloaded spine",
		    v_congestion, " %8.1f");
	model_table(r, "highest spine utilisation", v_max_util, " %8.3f");
	model_table(r, "std of per-port throughput, max-min fair sharing",
		    v_port_sd, " %8.2f");
	model_table(r, "aggregate throughput, % of offered", v_throughput,
		    " %8.1f");
	gain = ce > 0 ? 1 - cf / ce : 0;
	printf("  F&J's congestion rate over the rounds: %.2f %% against ECMP's %.2f %% (%.0f %% %s; the paper: about %.0f %% lower) and WCMP's %.2f %%\n",
	       100 * cf, 100 * ce, 100 * fabs(gain),
	       gain >= 0 ? "lower" : "higher", 100 * PAPER_CONG_GAIN, 100 * cw);
	printf("  at %.0f %% load the highest utilisation: greedy %.3f, F&J %.3f, ECMP %.3f, optimum %.3f\n",
	       100 * r->load[last],
	       at(r, SLUICE_FACA_GREEDY, last)->max_util.mean,
	       at(r, SLUICE_FACA_FJ, last)->max_util.mean,
	       at(r, SLUICE_FACA_ECMP, last)->max_util.mean,
	       at(r, SLUICE_FACA_OPTIMUM, last)->max_util.mean);
	printf("production (Section 7.1, Fig. 6, flow level): one leaf's %u flows of %g (10 RNICs, 2 each) on %u uplinks of %g (the paper gives no port speed), %u runs\n",
	       q->flows, q->flow_size, q->spines, q->fast_cap, q->runs);
	printf("  std of per-port throughput, mean +- sd over the runs, and the paper's (one run):\n");
	for (p = 0; p < P_ALL; p++) {
		const struct sluice_faca_point *x = at(pr, p, 0);

		printf("  %8s %8.2f +- %6.2f", policy_titles[p],
		       x->port_sd.mean, x->port_sd.sd);
		if (p == SLUICE_FACA_ECMP)
			printf("   the paper: %.2f", PAPER_SD_ECMP);
		else if (p == SLUICE_FACA_FJ)
			printf("   the paper (FaCa): %.2f", PAPER_SD_FACA);
		printf("\n");
	}
	gain = te > 0 ? tf / te - 1 : 0;
	printf("  aggregate throughput: F&J %.1f %% of offered, ECMP %.1f %% (F&J %.1f %% %s; the paper: FaCa's mean flow throughput %.1f %% above ECMP's)\n",
	       100 * tf / pr->offered[0], 100 * te / pr->offered[0],
	       100 * fabs(gain), gain >= 0 ? "above" : "below",
	       100 * PAPER_TPUT_GAIN);
	printf("  %s\n", model_ok(e) ? "as predicted" : "NOT as predicted");
	printf("  the model leaves out: packets, queues and PFC (a port is congested when its spine is offered more than it forwards, not when a queue crosses a threshold); probing (the loads a leaf sees are exact, one round old: no EWMA, no probe delay); flows are long-lived at their size until max-min sharing cuts them (TCP or DCQCN in the limit); the spines' capacities are the only shared resources (a leaf-spine link carries one pair); PLB is not modelled\n");
}

static json_object *jd(double v)
{
	return json_object_new_double(v);
}

static bool stat_json(json_object *o, const char *key,
		      const struct sluice_faca_stat *s)
{
	char sd[64];

	snprintf(sd, sizeof(sd), "%s_sd", key);
	return jadd(o, key, jd(s->mean)) && jadd(o, sd, jd(s->sd));
}

static json_object *result_json(const struct sluice_faca_model *m,
				const struct sluice_faca_result *r)
{
	json_object *o = json_object_new_object(), *rounds, *row, *pol;
	uint32_t k;
	bool ok;
	int p;

	ok = o && jadd(o, "leaves", jnum(m->leaves)) &&
	     jadd(o, "spines", jnum(m->spines)) &&
	     jadd(o, "slow_spines", jnum(m->slow_spines)) &&
	     jadd(o, "slow_cap", jd(m->slow_cap)) &&
	     jadd(o, "fast_cap", jd(m->fast_cap)) &&
	     jadd(o, "leaf_cap", jd(m->leaf_cap)) &&
	     jadd(o, "flow_size", jd(m->flow_size)) &&
	     jadd(o, "flows_per_round", jnum(m->flows)) &&
	     jadd(o, "one_way", json_object_new_boolean(m->one_way)) &&
	     jadd(o, "runs", jnum(m->runs)) && jadd(o, "seed", jnum(m->seed)) &&
	     jadd(o, "rounds", rounds = json_object_new_array());
	for (k = 0; ok && k < r->rounds; k++) {
		ok = !json_object_array_add(rounds,
					    row = json_object_new_object()) &&
		     jadd(row, "load", jd(r->load[k])) &&
		     jadd(row, "offered", jd(r->offered[k]));
		for (p = 0; ok && p < P_ALL; p++) {
			const struct sluice_faca_point *x = at(r, p, k);

			ok = jadd(row, sluice_faca_policy_name(p),
				  pol = json_object_new_object()) &&
			     stat_json(pol, "congestion", &x->congestion) &&
			     stat_json(pol, "overflow", &x->overflow) &&
			     stat_json(pol, "max_util", &x->max_util) &&
			     stat_json(pol, "port_sd", &x->port_sd) &&
			     stat_json(pol, "throughput", &x->throughput);
		}
	}
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

static json_object *model_json(const struct fexp *e)
{
	const struct sluice_faca_result *r = &e->micro_res;
	json_object *o = json_object_new_object(), *c, *paper;
	bool ok;
	int p;

	ok = o && jadd(o, "micro", result_json(&e->micro_model, r)) &&
	     jadd(o, "production", result_json(&e->prod, &e->prod_res)) &&
	     jadd(o, "mean_congestion", c = json_object_new_object());
	for (p = 0; ok && p < P_ALL; p++)
		ok = jadd(c, sluice_faca_policy_name(p),
			  jd(mean_congestion(r, p)));
	ok = ok && jadd(o, "paper", paper = json_object_new_object()) &&
	     jadd(paper, "port_sd_ecmp", jd(PAPER_SD_ECMP)) &&
	     jadd(paper, "port_sd_faca", jd(PAPER_SD_FACA)) &&
	     jadd(paper, "congestion_below_ecmp", jd(PAPER_CONG_GAIN)) &&
	     jadd(paper, "flow_throughput_above_ecmp", jd(PAPER_TPUT_GAIN)) &&
	     jadd(o, "as_predicted", json_object_new_boolean(model_ok(e)));
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

static int model_svg(const void *arg, FILE *f)
{
	const struct fexp *e = arg;
	const struct sluice_faca_result *r = &e->micro_res;
	struct sluice_svg_series ser[P_ALL];
	double *y = calloc((size_t)P_ALL * r->rounds, sizeof(*y));
	char title[160];
	struct sluice_svg_plot pl = {
		.title = title,
		.x_label = "load, % of a leaf's capacity",
		.y_label = "congestion rate, % of spine ports",
		.x_step = 100 * r->load[0],
		.series = ser,
		.n_series = P_ALL,
	};
	uint32_t k;
	int p, ret;

	if (!y)
		return -ENOMEM;
	snprintf(title, sizeof(title), "FaCa's micro-benchmark, flow level: %u leaves, %u spines, %u runs",
		 e->micro_model.leaves, e->micro_model.spines,
		 e->micro_model.runs);
	for (p = 0; p < P_ALL; p++) {
		for (k = 0; k < r->rounds; k++)
			y[(size_t)p * r->rounds + k] = v_congestion(r, p, k);
		ser[p].name = policy_titles[p];
		ser[p].y = &y[(size_t)p * r->rounds];
		ser[p].n = r->rounds;
	}
	ret = sluice_svg_write(&pl, f) ? -EIO : 0;
	free(y);
	return ret;
}

/* PREFIX-model.svg: congestion rate by load, a line a policy. */
static int model_plot(const struct fexp *e)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s-model.svg", e->svg);
	return write_out(path, model_svg, e) ? EXIT_RUNTIME : 0;
}

static void model_free(struct fexp *e)
{
	sluice_faca_result_free(&e->micro_res);
	sluice_faca_result_free(&e->prod_res);
}

static const struct part_ops parts[N_PARTS] = {
	[P_MODEL] = {
		.run = model_run, .ran = model_ran, .print = model_print,
		.json = model_json, .plot = model_plot, .ok = model_ok,
		.free = model_free,
	},
	[P_MICRO] = {
		.run = micro_run, .ran = micro_ran, .print = micro_print,
		.json = micro_json, .plot = micro_plot, .ok = micro_ok,
		.free = micro_free,
	},
};

static int print_json(const struct fexp *e, bool all_ok)
{
	json_object *o = json_object_new_object();
	bool ok = o != NULL;
	int p;

	for (p = 0; ok && p < N_PARTS; p++)
		if (parts[p].ran(e))
			ok = jadd(o, part_names[p], parts[p].json(e));
	ok = ok && jadd(o, "as_predicted", json_object_new_boolean(all_ok));
	return jprint(o, ok);
}

int experiment_faca_main(const struct command *cmd, int argc, char **argv)
{
	struct fexp e = { 0 };
	bool ok = true;
	int ret, p;

	ret = parse(cmd, &e, argc, argv);
	if (ret)
		return ret < 0 ? 0 : ret;
	signal(SIGINT, exp_on_signal);
	signal(SIGTERM, exp_on_signal);
	for (p = 0; !ret && p < N_PARTS; p++)
		if (e.parts & 1u << p)
			ret = parts[p].run(&e);
	for (p = 0; !ret && p < N_PARTS; p++)
		if (parts[p].ran(&e)) {
			ok &= parts[p].ok(&e);
			if (!e.json)
				parts[p].print(&e);
			if (e.svg && !ret)
				ret = parts[p].plot(&e);
		}
	if (!ret && e.json)
		ret = print_json(&e, ok);
	for (p = 0; p < N_PARTS; p++)
		parts[p].free(&e);
	if (ret)
		return ret;
	return ok ? 0 : 3;
}
