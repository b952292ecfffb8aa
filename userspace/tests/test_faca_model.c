// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FaCa's flow-level model (sluice/faca_model.h) and "sluicectl experiment
 * faca": a case every policy but ECMP and WCMP must solve exactly, worked
 * out by hand; a one-flow case whose means are known in closed form for
 * every policy (over many runs, within five standard errors); the paper's
 * sizes (380 and 400) and its asymmetric micro-benchmark, where with the
 * seed fixed Flowing&Jumping's congestion rate is below ECMP's and greedy
 * herds; invariants on random small models (the optimum's utilisation
 * under every policy's and its throughput over every policy's, congestion
 * exactly when a spine is overloaded); the production test; every error;
 * the expectations the fabric's micro-benchmark predicts from, against
 * every assignment of flows to paths on small cases; and the command:
 * usage errors, JSON, text beside the paper, the plot.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>
#include <sluice/faca_model.h>
#include <sluice/rng.h>
#include "cli.h"
#include "ktap.h"

static char err[256];

static const struct sluice_faca_point *at(const struct sluice_faca_result *r,
					  int p, uint32_t k)
{
	return sluice_faca_at(r, p, k);
}

static bool run_model(const struct sluice_faca_model *m,
		      struct sluice_faca_result *r)
{
	if (sluice_faca_model_run(m, r, err, sizeof(err))) {
		ktap_diag("model: %s", err);
		return false;
	}
	return true;
}

static bool near(double a, double b, double tol)
{
	if (fabs(a - b) <= tol)
		return true;
	ktap_diag("%g, want %g within %g", a, b, tol);
	return false;
}

/*
 * One leaf's 4 flows of 10 on a spine of 10 and one of 30: the only
 * placement without overload is 1 and 3, and greedy, F&J (by capacity)
 * and the optimum all find it in every run: utilisation 1 on both, the
 * ports at 10 and 30 (std 10), all 40 delivered.
 */
static void test_hand(void)
{
	struct sluice_faca_model m = {
		.leaves = 2, .spines = 2, .slow_spines = 1, .slow_cap = 10,
		.fast_cap = 30, .leaf_cap = 40, .flow_size = 10, .flows = 4,
		.rounds = 1, .one_way = true, .runs = 50, .seed = 3,
	};
	static const int exact[] = {
		SLUICE_FACA_GREEDY, SLUICE_FACA_FJ, SLUICE_FACA_OPTIMUM,
	};
	const struct sluice_faca_point *x;
	struct sluice_faca_result r;
	unsigned int i;

	if (!KTAP_EXPECT(run_model(&m, &r))) {
		ktap_result("hand: 4 flows on spines of 10 and 30");
		return;
	}
	KTAP_EXPECT(r.load[0] == 1 && r.offered[0] == 40);
	for (i = 0; i < ARRAY_SIZE(exact); i++) {
		x = at(&r, exact[i], 0);
		KTAP_EXPECT(x->congestion.mean == 0 && x->congestion.sd == 0);
		KTAP_EXPECT(x->overflow.mean == 0);
		KTAP_EXPECT(near(x->max_util.mean, 1, 1e-12));
		KTAP_EXPECT(near(x->port_sd.mean, 10, 1e-9));
		KTAP_EXPECT(near(x->port_sd.sd, 0, 1e-9));
		KTAP_EXPECT(near(x->throughput.mean, 40, 1e-9));
	}
	/* ECMP overloads the slow spine in most runs (2 or more of 4 on it) */
	x = at(&r, SLUICE_FACA_ECMP, 0);
	KTAP_EXPECT(x->congestion.mean > 0 && x->max_util.mean > 1);
	KTAP_EXPECT(x->throughput.mean < 40);
	sluice_faca_result_free(&r);
	ktap_result("hand: 4 flows on spines of 10 and 30, greedy, F&J and the optimum exact");
}

/*
 * One flow of 10 on a spine of 5 or one of 20.  On the slow one (ECMP:
 * half the runs; WCMP: 5 / 25 of them) it is overloaded: half the
 * leaf's 2 ports congested, 5 delivered, ports at 5 and 0 (std 2.5),
 * utilisation 2; on the fast one nothing congested, 10 delivered, ports
 * at 0 and 10 (std 5), utilisation 0.5.  F&J and greedy on an empty
 * fabric see a level ring and draw as ECMP does.  The optimum: 2 and 8,
 * utilisation 0.4, std 3.
 */
static void test_one_flow(void)
{
	struct sluice_faca_model m = {
		.leaves = 2, .spines = 2, .slow_spines = 1, .slow_cap = 5,
		.fast_cap = 20, .leaf_cap = 10, .flow_size = 10, .flows = 1,
		.rounds = 1, .one_way = true, .runs = 4000, .seed = 11,
	};
	struct sluice_faca_result r;
	const struct sluice_faca_point *x;
	double slow;
	int p;

	if (!KTAP_EXPECT(run_model(&m, &r))) {
		ktap_result("one flow: means in closed form");
		return;
	}
	for (p = 0; p < SLUICE_FACA_OPTIMUM; p++) {
		slow = p == SLUICE_FACA_WCMP ? 0.2 : 0.5;
		x = at(&r, p, 0);
		/*
		 * within five standard errors of 4000 runs (at most 0.004,
		 * 0.04, 0.02, 0.012 and 0.004)
		 */
		KTAP_EXPECT(near(x->congestion.mean, 0.5 * slow, 0.02));
		KTAP_EXPECT(near(x->congestion.sd,
				 0.5 * sqrt(slow * (1 - slow)), 0.01));
		KTAP_EXPECT(near(x->throughput.mean, 5 * slow + 10 * (1 - slow),
				 0.2));
		KTAP_EXPECT(near(x->port_sd.mean, 2.5 * slow + 5 * (1 - slow),
				 0.1));
		KTAP_EXPECT(near(x->max_util.mean, 2 * slow + 0.5 * (1 - slow),
				 0.06));
		KTAP_EXPECT(near(x->overflow.mean, 0.5 * slow, 0.02));
	}
	x = at(&r, SLUICE_FACA_OPTIMUM, 0);
	KTAP_EXPECT(x->congestion.mean == 0 && x->overflow.mean == 0);
	KTAP_EXPECT(near(x->max_util.mean, 0.4, 1e-12));
	KTAP_EXPECT(near(x->port_sd.mean, 3, 1e-9));
	KTAP_EXPECT(near(x->throughput.mean, 10, 1e-9));
	sluice_faca_result_free(&r);
	ktap_result("one flow: every policy's means in closed form (4000 runs)");
}

/*
 * What holds for any model: the optimum's utilisation under every
 * policy's and its throughput over every policy's (the spines' loads
 * average to its utilisation; a policy delivers at most min(offered,
 * capacity) on each spine), throughput never above what is offered, and
 * shares in [0, 1].  With one run, congestion and overflow appear
 * exactly when a spine is overloaded.
 */
static bool invariants(const struct sluice_faca_model *m,
		       const struct sluice_faca_result *r)
{
	const struct sluice_faca_point *o, *x;
	bool ok = true, over;
	uint32_t k;
	int p;

	for (k = 0; k < r->rounds; k++) {
		o = at(r, SLUICE_FACA_OPTIMUM, k);
		for (p = 0; p < SLUICE_FACA_POLICIES; p++) {
			x = at(r, p, k);
			ok &= o->max_util.mean <= x->max_util.mean * (1 + 1e-12);
			ok &= x->throughput.mean <= o->throughput.mean *
						    (1 + 1e-12);
			ok &= x->throughput.mean <= r->offered[k] * (1 + 1e-12);
			ok &= x->congestion.mean >= 0 &&
			      x->congestion.mean <= 1;
			ok &= x->overflow.mean >= 0 && x->overflow.mean < 1;
			if (m->runs > 1)
				continue;
			over = x->max_util.mean > 1 + 1e-9;
			ok &= over == (x->congestion.mean > 0);
			ok &= over == (x->overflow.mean > 0);
		}
		if (!ok) {
			ktap_diag("round %u, policy %s", k,
				  sluice_faca_policy_name(p));
			return false;
		}
	}
	return true;
}

static void test_paper(void)
{
	struct sluice_faca_model m;
	struct sluice_faca_result r;
	double ce = 0, cw = 0, cf = 0;
	uint32_t k;

	sluice_faca_micro(&m, 16, 8);
	KTAP_EXPECT(m.slow_spines == 4 && m.slow_cap == 380 &&
		    m.fast_cap == 400 && m.leaf_cap == 200);
	KTAP_EXPECT(m.flow_size * m.flows * m.rounds == m.leaf_cap);
	if (!KTAP_EXPECT(run_model(&m, &r))) {
		ktap_result("paper: Section 7.3's micro-benchmark");
		return;
	}
	KTAP_EXPECT(invariants(&m, &r));
	for (k = 0; k < r.rounds; k++) {
		KTAP_EXPECT(near(r.load[k], 0.1 * (k + 1), 1e-12));
		ce += at(&r, SLUICE_FACA_ECMP, k)->congestion.mean;
		cw += at(&r, SLUICE_FACA_WCMP, k)->congestion.mean;
		cf += at(&r, SLUICE_FACA_FJ, k)->congestion.mean;
	}
	/* measured with seed 1 and 20 runs: F&J 6.9 %, ECMP 9.0 %, WCMP 8.3 % */
	KTAP_EXPECT(cf < ce && cf < cw);
	/* the leaves' 3200 over the spines' 3120 at full load */
	KTAP_EXPECT(near(at(&r, SLUICE_FACA_OPTIMUM, 9)->max_util.mean,
			 3200.0 / 3120, 1e-12));
	KTAP_EXPECT(at(&r, SLUICE_FACA_OPTIMUM, 9)->congestion.mean == 1);
	KTAP_EXPECT(at(&r, SLUICE_FACA_OPTIMUM, 8)->congestion.mean == 0);
	/* greedy herds onto the spines the stale loads show lightest */
	KTAP_EXPECT(at(&r, SLUICE_FACA_GREEDY, 9)->max_util.mean >
		    at(&r, SLUICE_FACA_FJ, 9)->max_util.mean);
	sluice_faca_result_free(&r);
	ktap_result("paper: Section 7.3's sizes; F&J's congestion below ECMP's and WCMP's (seed 1), greedy above F&J at full load");
}

static void test_production(void)
{
	struct sluice_faca_model m;
	struct sluice_faca_result r;
	const struct sluice_faca_point *x;
	int p;

	sluice_faca_production(&m);
	if (!KTAP_EXPECT(run_model(&m, &r))) {
		ktap_result("production: one leaf, 20 flows on 10 ports");
		return;
	}
	KTAP_EXPECT(invariants(&m, &r));
	/* F&J from a level ring: exactly 2 a port (sluice/fj.h) */
	for (p = SLUICE_FACA_GREEDY; p < SLUICE_FACA_POLICIES; p++) {
		x = at(&r, p, 0);
		KTAP_EXPECT(x->port_sd.mean == 0 && x->port_sd.sd == 0);
		KTAP_EXPECT(x->throughput.mean == 2000);
		KTAP_EXPECT(near(x->max_util.mean, 0.5, 1e-12));
	}
	/* ECMP: 20 flows hashed onto 10 ports are never that even */
	x = at(&r, SLUICE_FACA_ECMP, 0);
	KTAP_EXPECT(x->port_sd.mean > 50 && x->port_sd.sd > 0);
	KTAP_EXPECT(x->max_util.mean > 0.5);
	sluice_faca_result_free(&r);
	ktap_result("production: F&J and greedy 2 flows a port, ECMP uneven");
}

static void test_random(void)
{
	struct sluice_faca_model m;
	struct sluice_faca_result r, again;
	struct sluice_rng rng;
	unsigned int c, bad = 0, differ = 0;

	sluice_rng_seed(&rng, 23);
	for (c = 0; c < 60; c++) {
		m = (struct sluice_faca_model){
			.leaves = 2 + 2 * sluice_rng_below(&rng, 4),
			.spines = 1 + sluice_rng_below(&rng, 6),
			.slow_cap = 5 + sluice_rng_below(&rng, 40),
			.fast_cap = 5 + sluice_rng_below(&rng, 40),
			.leaf_cap = 100,
			.flows = 1 + sluice_rng_below(&rng, 4),
			.rounds = 1 + sluice_rng_below(&rng, 4),
			.one_way = sluice_rng_below(&rng, 2),
			.runs = c % 2 ? 1 : 4,
			.seed = c,
		};
		m.slow_spines = sluice_rng_below(&rng, m.spines + 1);
		m.flow_size = m.leaf_cap / (m.flows * m.rounds) *
			      (1 + sluice_rng_below(&rng, 4)) / 4;
		if (!run_model(&m, &r)) {
			bad++;
			continue;
		}
		bad += !invariants(&m, &r);
		if (run_model(&m, &again)) {
			differ += memcmp(r.p, again.p, (size_t)r.rounds *
					 SLUICE_FACA_POLICIES *
					 sizeof(*r.p)) != 0;
			sluice_faca_result_free(&again);
		}
		sluice_faca_result_free(&r);
	}
	KTAP_EXPECT_INT(bad, 0);
	KTAP_EXPECT_INT(differ, 0);
	ktap_result("random small models: the invariants, the same twice (60 models)");
}

static void test_errors(void)
{
	struct sluice_faca_model good, m;
	struct sluice_faca_result r;

	sluice_faca_micro(&good, 4, 2);
	good.runs = 1;
	m = good;
	m.leaves = 5;
	KTAP_EXPECT_INT(sluice_faca_model_run(&m, &r, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT(strstr(err, "even"));
	KTAP_EXPECT(r.p == NULL);
	m = good;
	m.spines = 0;
	KTAP_EXPECT_INT(sluice_faca_model_run(&m, &r, err, sizeof(err)),
			-EINVAL);
	m = good;
	m.slow_spines = 3;
	KTAP_EXPECT_INT(sluice_faca_model_run(&m, &r, err, sizeof(err)),
			-EINVAL);
	m = good;
	m.fast_cap = 0;
	KTAP_EXPECT_INT(sluice_faca_model_run(&m, &r, err, sizeof(err)),
			-EINVAL);
	m = good;
	m.flow_size = NAN;
	KTAP_EXPECT_INT(sluice_faca_model_run(&m, &r, err, sizeof(err)),
			-EINVAL);
	m = good;
	m.rounds = 0;
	KTAP_EXPECT_INT(sluice_faca_model_run(&m, &r, err, sizeof(err)),
			-EINVAL);
	m = good;
	m.runs = SLUICE_FACA_RUNS_MAX + 1;
	KTAP_EXPECT_INT(sluice_faca_model_run(&m, &r, err, sizeof(err)),
			-EINVAL);
	m = good;
	m.flows = 3;
	KTAP_EXPECT_INT(sluice_faca_model_run(&m, &r, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT(strstr(err, "more than a leaf's 200"));
	m = good;
	m.leaves = SLUICE_FACA_LEAVES_MAX;
	m.flows = 100;
	m.flow_size = 0.1;
	KTAP_EXPECT_INT(sluice_faca_model_run(&m, &r, err, sizeof(err)),
			-E2BIG);
	KTAP_EXPECT_STR(sluice_faca_policy_name(SLUICE_FACA_FJ), "fj");
	KTAP_EXPECT(sluice_faca_policy_name(SLUICE_FACA_POLICIES) == NULL);
	ktap_result("errors: every bound refused with its message");
}

static void expect_usage(const struct run *r, const char *msg)
{
	KTAP_EXPECT_INT(r->status, 2);
	if (!KTAP_EXPECT(!strncmp(r->err, msg, strlen(msg))))
		ktap_diag("stderr: %s", r->err);
	KTAP_EXPECT_STR(r->out, "");
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static double num(json_object *o, const char *a, const char *b)
{
	return json_object_get_double(get(get(o, a), b));
}

/* The JSON is longer than struct run's buffer: stdout to a file. */
static const char *out_file(void)
{
	const char *path = cli_path("out.json");
	FILE *f = fopen(path, "w");

	if (f)
		fclose(f);
	return path;
}

/*
 * The metrics of one assignment (@at[i]: flow i's path), worked out flow
 * by flow: the obvious version the expectations are checked against.
 */
static void brute_metrics(const double *cap, uint32_t paths,
			  const uint32_t *at, uint32_t flows, double rate,
			  double m[4])
{
	double tp[8] = { 0 }, fr[8], mean = 0, sd = 0, fmean = 0, fsd = 0;
	uint32_t on[8] = { 0 }, i, p;

	for (i = 0; i < flows; i++)
		on[at[i]]++;
	m[0] = 0;
	for (p = 0; p < paths; p++) {
		tp[p] = fmin(on[p] * rate, cap[p]);
		m[0] += on[p] * rate > cap[p] * (1 + 1e-9);
		mean += tp[p] / paths;
	}
	m[0] /= paths;
	for (p = 0; p < paths; p++)
		sd += (tp[p] - mean) * (tp[p] - mean) / paths;
	for (i = 0; i < flows; i++) {
		fr[i] = fmin(rate, cap[at[i]] / on[at[i]]);
		fmean += fr[i] / flows;
	}
	for (i = 0; i < flows; i++)
		fsd += (fr[i] - fmean) * (fr[i] - fmean) / flows;
	m[1] = mean * paths;
	m[2] = sqrt(sd);
	m[3] = flows ? sqrt(fsd) : 0;
}

/* Every one of paths^flows assignments, weighted by its probability. */
static void brute_random(const double *cap, const double *w, uint32_t paths,
			 uint32_t flows, double rate, double want[4])
{
	uint32_t at[8] = { 0 }, i, k;
	double total = 0, pr, m[4];

	for (i = 0; i < paths; i++)
		total += w ? w[i] : 1;
	memset(want, 0, 4 * sizeof(*want));
	for (;;) {
		pr = 1;
		for (i = 0; i < flows; i++)
			pr *= (w ? w[at[i]] : 1) / total;
		brute_metrics(cap, paths, at, flows, rate, m);
		for (k = 0; k < 4; k++)
			want[k] += pr * m[k];
		for (i = 0; i < flows && ++at[i] == paths; i++)
			at[i] = 0;
		if (i == flows)
			break;
	}
}

static bool expect_near(const struct sluice_faca_expect *e,
			const double want[4])
{
	return near(e->congestion, want[0], 1e-9) &&
	       near(e->throughput, want[1], 1e-9) &&
	       near(e->port_sd, want[2], 1e-9) &&
	       near(e->flow_sd, want[3], 1e-9);
}

/*
 * The micro-benchmark's expectations: by hand (2 flows on 2 equal paths:
 * ECMP puts both on one path half the time; the fabric's default spines
 * of 2, 2, 1.5 and 1.5 flows take 2 flows each when balanced), against
 * every assignment on random small cases, and the refusals.
 */
static void test_expect(void)
{
	const double two[2] = { 1, 1 }, micro[4] = { 2, 2, 1.5, 1.5 };
	double cap[4], w[4], want[4];
	struct sluice_faca_expect e;
	struct sluice_rng rng;
	uint32_t c, paths, flows, i, bad = 0;

	KTAP_EXPECT_INT(sluice_faca_expect_random(two, NULL, 2, 2, 1, &e, err,
						  sizeof(err)), 0);
	KTAP_EXPECT(expect_near(&e, (const double[]){ 0.25, 1.5, 0.25, 0 }));
	KTAP_EXPECT_INT(sluice_faca_expect_balanced(two, 2, 2, 1, &e, err,
						    sizeof(err)), 0);
	KTAP_EXPECT(expect_near(&e, (const double[]){ 0, 2, 0, 0 }));
	KTAP_EXPECT_INT(sluice_faca_expect_balanced(micro, 4, 8, 1, &e, err,
						    sizeof(err)), 0);
	KTAP_EXPECT(expect_near(&e, (const double[]){ 0.5, 7, 0.25, 0.125 }));
	KTAP_EXPECT_INT(sluice_faca_expect_balanced(micro, 4, 6, 1, &e, err,
						    sizeof(err)), 0);
	KTAP_EXPECT(expect_near(&e, (const double[]){ 0, 6, 0.5, 0 }));

	sluice_rng_seed(&rng, 31);
	for (c = 0; c < 200; c++) {
		paths = 1 + sluice_rng_below(&rng, 4);
		flows = sluice_rng_below(&rng, 8);
		for (i = 0; i < paths; i++) {
			cap[i] = 0.5 + sluice_rng_below(&rng, 8) / 2.0;
			w[i] = 1 + sluice_rng_below(&rng, 5);
		}
		brute_random(cap, c % 2 ? w : NULL, paths, flows, 1, want);
		if (sluice_faca_expect_random(cap, c % 2 ? w : NULL, paths,
					      flows, 1, &e, err, sizeof(err)) ||
		    !expect_near(&e, want)) {
			ktap_diag("case %u: %u flows on %u paths", c, flows,
				  paths);
			bad++;
		}
	}
	KTAP_EXPECT_INT(bad, 0);

	KTAP_EXPECT_INT(sluice_faca_expect_random(two, NULL, 0, 2, 1, &e, err,
						  sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "0 paths: 1 to 64");
	KTAP_EXPECT_INT(sluice_faca_expect_random(two, (const double[]){ 1, 0 },
						  2, 2, 1, &e, err,
						  sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "path 1: its capacity and weight are finite and above 0");
	KTAP_EXPECT_INT(sluice_faca_expect_balanced(two, 2, 2, 0, &e, err,
						    sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "a flow's rate is finite and above 0");
	KTAP_EXPECT_INT(sluice_faca_expect_random(micro, NULL, 4, 1000, 1, &e,
						  err, sizeof(err)), -E2BIG);
	KTAP_EXPECT_STR(err, "1000 flows split over 4 paths in more than 10000000 ways");
	ktap_result("expectations of the fabric's micro-benchmark: by hand, against every assignment (200 cases), refusals");
}

static void test_cli(void)
{
	static const char *const pol[] = { "ecmp", "wcmp", "greedy", "fj" };
	json_object *o, *model, *rounds, *row;
	char *text, *svg;
	size_t k, p, lines;
	struct run r;
	bool ok;

	RUN(&r, "experiment", "faca", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "Usage: sluicectl experiment faca"));
	RUN(&r, "experiment", "faca", "--parts", "model,vm");
	expect_usage(&r, "sluicectl experiment faca: --parts: \"vm\" is not one of model, micro");
	RUN(&r, "experiment", "faca", "--leaves", "15");
	expect_usage(&r, "sluicectl experiment faca: --leaves 15: leaves send in pairs");
	RUN(&r, "experiment", "faca", "--spines", "1");
	expect_usage(&r, "sluicectl experiment faca: --spines: \"1\" is not a number from 2");
	RUN(&r, "experiment", "faca", "--leaves", "65536", "--flows", "1000");
	expect_usage(&r, "sluicectl experiment faca: --leaves 65536 x --flows 1000 x --rounds 10 flows: at most");

	cli_mkdtemp("faca");
	cli_run(&r, out_file(),
		(const char *const[]){ "experiment", "faca", "--parts", "model",
				       "--runs", "3", "--leaves", "8",
				       "--spines", "4", "-j",
				       "--svg", cli_path("p"), NULL });
	text = cli_read_all(cli_path("out.json"));
	o = text ? json_tokener_parse(text) : NULL;
	model = get(o, "model");
	rounds = get(get(model, "micro"), "rounds");
	ok = KTAP_EXPECT(o && model && rounds &&
			 json_object_array_length(rounds) == 10);
	/* the exit status says what the JSON says */
	KTAP_EXPECT_INT(r.status, json_object_get_boolean(get(o, "as_predicted")) ?
			0 : 3);
	for (k = 0; ok && k < 10; k++) {
		row = json_object_array_get_idx(rounds, k);
		for (p = 0; p < ARRAY_SIZE(pol); p++)
			KTAP_EXPECT(num(row, "optimum", "max_util") <=
				    num(row, pol[p], "max_util"));
	}
	KTAP_EXPECT(num(model, "paper", "port_sd_ecmp") == 148.06);
	json_object_put(o);
	free(text);

	RUN(&r, "experiment", "faca", "--parts", "model", "--runs", "1",
	    "--leaves", "4", "--spines", "2", "--rounds", "2");
	KTAP_EXPECT(r.status == 0 || r.status == 3);
	KTAP_EXPECT((r.status == 0) == !strstr(r.out, "NOT as predicted"));
	KTAP_EXPECT(strstr(r.out, "4 leaves of 200") &&
		    strstr(r.out, "the paper: 148.06") &&
		    strstr(r.out, "the paper (FaCa): 2.96") &&
		    strstr(r.out, "the model leaves out"));
	svg = cli_read_all(cli_path("p-model.svg"));
	lines = 0;
	for (text = svg; text && (text = strstr(text, "<polyline")); text++)
		lines++;
	KTAP_EXPECT_INT(lines, 5);
	free(svg);
	cli_rmdir();
	ktap_result("cli: usage errors, JSON beside the exit status, text beside the paper, the plot");
}

int main(void)
{
	static void (*const tests[])(void) = {
		test_hand, test_one_flow, test_paper, test_production,
		test_random, test_errors, test_expect, test_cli,
	};
	unsigned int i;

	ktap_plan(ARRAY_SIZE(tests));
	cli_init();
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
