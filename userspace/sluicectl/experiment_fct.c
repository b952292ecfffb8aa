// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "sluicectl experiment bcube", parts websearch and hadoop: PortFC's
 * Section 5.2 in software.  Every server starts TCP flows as a Poisson
 * process at a share of its link (--load), sizes drawn from the WebSearch
 * or the Hadoop distribution (sluice/tcpgen.h has the tables and their
 * sources), destinations uniform among the other servers; halfway, 8
 * servers send 1 MB each to one (Section 5.1's incast).  Sizes are scaled
 * by the ratio of the bandwidth-delay products (ours over the paper's), so
 * that a flow spans as many round trips here as there.  One plan, drawn
 * from --seed, runs under every mode, on a fresh fabric each time; flow
 * completion times (FCT: the last byte read minus the planned start) are
 * summarised per mode and compared with PortFC's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_experiment.h"
#include "experiment_bcube.h"
#include "jout.h"

#define INCAST_SOURCES	8
#define INCAST_BYTES	1000000.0	/* per source, before scaling */

/**
 * fct_plan() - the flows of an FCT part, the same for every mode
 * @e:		the experiment (its load, duration, scale, seed)
 * @sc:		the part; its plan is filled
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Return: 0 or a negative errno.
 */
int fct_plan(struct bexp *e, struct scenario *sc, char *err, size_t errlen)
{
	struct sluice_tcpgen_load l = {
		.n_hosts = e->n * e->n,
		.dist = sc->dist,
		.scale = e->scale,
		.rate = e->rate,
		.load = e->load,
		.duration = e->fct_duration,
		.seed = e->seed * N_PARTS + sc->part,
		.tag = 0,
	};
	uint32_t src[INCAST_SOURCES], k;
	int ret;

	ret = sluice_tcpgen_plan(&sc->plan, &l, err, errlen);
	if (ret)
		return ret;
	/* servers 1..8 to server 0, as the incast part does */
	for (k = 0; k < INCAST_SOURCES; k++)
		src[k] = k + 1;
	sc->incast_size = (uint64_t)(INCAST_BYTES * e->scale);
	if (!sc->incast_size)
		sc->incast_size = 1;
	sc->n_incast = INCAST_SOURCES;
	return sluice_tcpgen_plan_incast(&sc->plan, src, INCAST_SOURCES, 0,
					 sc->incast_size,
					 e->fct_duration / 2, 1, err, errlen);
}

/* The summary of the flows @f takes, and their mean goodput. */
static void stats(const struct brun *run, uint32_t n,
		  const struct sluice_tcpgen_filter *f, struct fct_stats *st)
{
	uint32_t k, done = 0;
	double sum = 0;

	memset(st, 0, sizeof(*st));
	sluice_tcpgen_summarize(run->fl, n, f, &st->s);
	for (k = 0; k < n; k++) {
		const struct sluice_tcpgen_flow *fl = &run->fl[k];

		if (fl->status != SLUICE_TCPGEN_DONE || fl->fct <= 0 ||
		    (f->by_tag && fl->tag != f->tag))
			continue;
		sum += fl->size * 8 / fl->fct / 1e6;
		done++;
	}
	st->goodput = done ? sum / done : 0;
}

/* FCT at percentiles 1..100 of the finished flows, in ms (nearest rank). */
static void percentiles(struct brun *run, uint32_t n)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));
	uint32_t k, m = 0;

	if (!v)
		return;
	for (k = 0; k < n; k++)
		if (run->fl[k].status == SLUICE_TCPGEN_DONE)
			v[m++] = run->fl[k].fct * 1000;
	for (k = 0; m && k < FCT_POINTS; k++)
		run->fct_pct[k] = sluice_tcpgen_percentile(v, m,
							   100.0 * (k + 1) / FCT_POINTS);
	free(v);
}

/**
 * fct_run() - the part's plan on the fabric @fs (up, its routes loaded)
 * @e:		the experiment
 * @sc:		the part
 * @fs:		the fabric
 * @run:	filled: each flow's outcome and the summaries
 *
 * Flows start half a second after every listener is up and run until
 * every one is done or the plan's duration plus as long again (at least
 * 20 s) has passed: the flows left then are unfinished, and counted.
 *
 * Return: 0 or EXIT_RUNTIME (printed).
 */
int fct_run(const struct bexp *e, const struct scenario *sc,
	    const struct sluice_fabric_state *fs, struct brun *run)
{
	struct sluice_tcpgen_opts o = {
		.port = TCP_PORT, .tos = DSCP << 2, .stop = &exp_interrupted,
	};
	struct sluice_tcpgen_filter all = { 0 }, poisson = {
		.by_tag = true, .tag = 0,
	}, incast = { .by_tag = true, .tag = 1 };
	uint32_t n = sc->plan.n_flows;
	struct sluice_tcpgen_plan p = { .n_flows = n, .cap = n };
	uint64_t busy0 = 0, total0 = 0, busy1, total1;
	struct sluice_tcpgen t = { 0 };
	char err[SLUICE_ERRLEN];
	double start, drain;
	int ret;

	run->fl = malloc((n ? n : 1) * sizeof(*run->fl));
	if (!run->fl) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	memcpy(run->fl, sc->plan.fl, n * sizeof(*run->fl));
	p.fl = run->fl;
	ret = sluice_tcpgen_init_fabric(&t, &fs->f, &o, err, sizeof(err));
	if (!ret)
		ret = sluice_tcpgen_open(&t, err, sizeof(err));
	drain = e->fct_duration > 20 ? e->fct_duration : 20;
	sluice_cpu_times(&busy0, &total0);
	start = sluice_now() + 0.5;
	progress(e, "%s, %s: %u flows for %.0f s, %.0f s more to finish",
		 part_names[sc->part], mode_name(run->fc), n, e->fct_duration,
		 drain);
	if (!ret)
		ret = sluice_tcpgen_run(&t, &p, start,
					start + e->fct_duration + drain, err,
					sizeof(err));
	sluice_tcpgen_free(&t);
	if (ret) {
		fprintf(stderr, "sluicectl: %s, %s: %s\n", part_names[sc->part],
			mode_name(run->fc), err);
		return EXIT_RUNTIME;
	}
	if (!sluice_cpu_times(&busy1, &total1) && total1 > total0)
		run->cpu_busy = (double)(busy1 - busy0) / (total1 - total0);
	stats(run, n, &all, &run->fct_all);
	stats(run, n, &poisson, &run->fct_poisson);
	stats(run, n, &incast, &run->fct_incast);
	run->unfinished = run->fct_all.s.count - run->fct_all.s.finished;
	percentiles(run, n);
	return 0;
}

/**
 * fct_judge() - whether the mode did what it should
 * @e:		the experiment
 * @sc:		the part
 * @run:	a run of it, judged once the modes before it have run
 *
 * A lossless mode drops nothing; PFC* and PortFC finish every flow; plain
 * PFC may deadlock (BuildPathSet's routes have CBDs) and leave flows
 * unfinished, which is said, not failed; lossy finishes every flow, TCP
 * recovering what was dropped.  PortFC's mean FCT is the lowest of the
 * lossless modes that ran (they run before it).  Against lossy nothing is
 * predicted: TCP without ECN has no congestion signal in a lossless
 * fabric, where the paper ran DCQCN (docs/experiment-bcube.md, "Experiment: PortFC on
 * BCube").
 */
void fct_judge(const struct bexp *e, const struct scenario *sc,
	       struct brun *run)
{
	const struct brun *o;
	int m;

	run->as_predicted = true;
	if (run->fc != SLUICE_FABRIC_FC_NONE && run->drops) {
		drops_why(run);
		return;
	}
	if (run->fc != SLUICE_FABRIC_FC_PFC && run->unfinished) {
		run->as_predicted = false;
		snprintf(run->why, sizeof(run->why),
			 "%u of %u flows unfinished", run->unfinished,
			 run->fct_all.s.count);
		return;
	}
	if (run->fc != SLUICE_FABRIC_FC_PORTFC)
		return;
	for (m = 0; m < N_MODES; m++) {
		o = &e->runs[sc->part][m];
		if (!o->ran || o->fc == SLUICE_FABRIC_FC_NONE ||
		    o->fc == SLUICE_FABRIC_FC_PORTFC ||
		    o->fct_all.s.mean > run->fct_all.s.mean)
			continue;
		run->as_predicted = false;
		snprintf(run->why, sizeof(run->why),
			 "%s's mean FCT, %.1f ms, is not above PortFC's, %.1f ms",
			 mode_name(o->fc), o->fct_all.s.mean * 1000,
			 run->fct_all.s.mean * 1000);
		return;
	}
}

void fct_print_prediction(const struct bexp *e, const struct scenario *sc)
{
	printf("flows: %u, Poisson at %.0f%% of each server's link for %.0f s, %s sizes x %.4f (mean %.1f KB),\n"
	       "  and 8 servers to %s at %.1f s, %.1f KB each; TCP (the kernel's default congestion control)\n",
	       sc->plan.n_flows - sc->n_incast, 100 * e->load,
	       e->fct_duration, sc->dist->name, e->scale,
	       sluice_tcpgen_mean(sc->dist, e->scale) / 1000,
	       e->g.nodes[0].name, e->fct_duration / 2,
	       sc->incast_size / 1000.0);
	printf("predict: portfc the lowest mean FCT of the lossless modes; pfc-star behind it (head-of-line\n"
	       "  blocking at relays and switches); pfc may deadlock: BuildPathSet's routes have %s.\n"
	       "  lossy: nothing predicted against portfc: TCP without ECN has no congestion signal in a\n"
	       "  lossless fabric, so its queues sit at the thresholds, while tail drop signals it.\n"
	       "  paper (BCube(4,1), 100 Gbit/s, DCQCN): PortFC's mean FCT 11.7-69.2%% below IRN's and\n"
	       "  49.9-87.3%% below PFC*'s, p99 16.9-41.3%% and 53.3-87.7%% below; throughput 2x PFC*'s\n"
	       "  (8x on Storage), 1.7-2.3x IRN's, 2.4-3.9x Go-Back-N's\n",
	       sc->cbd.cbd_free ? "no CBD" : "a CBD");
}

void fct_print_run(const struct bexp *e, const struct brun *run)
{
	const struct fct_stats *a = &run->fct_all, *in = &run->fct_incast;

	(void)e;
	printf("%-8s %s: %u flows, %u finished; FCT mean %.1f ms, p50 %.1f, p99 %.1f, max %.1f; goodput %.3f Mbit/s a flow\n",
	       mode_name(run->fc),
	       run->as_predicted ? "as predicted" : "NOT as predicted",
	       a->s.count, a->s.finished, a->s.mean * 1000,
	       a->s.p50 * 1000, a->s.p99 * 1000, a->s.max * 1000,
	       a->goodput);
	printf("         incast: %u of %u finished, FCT mean %.1f ms, p99 %.1f; drops %llu; pause frames sent %llu; starts late by %.1f ms at most\n",
	       in->s.finished, in->s.count, in->s.mean * 1000,
	       in->s.p99 * 1000, (unsigned long long)run->drops,
	       (unsigned long long)run->pfc_tx, a->s.max_late * 1000);
	if (run->cycle > 0)
		printf("         detector: %s\n", run->cycle_text);
	if (run->cpu_busy > 0.9)
		printf("         warning: the machine's CPUs were %.0f%% busy: the emulation may be the bottleneck\n",
		       100 * run->cpu_busy);
	if (!run->as_predicted)
		printf("         why: %s\n", run->why);
}

/* 100 (1 - ours / theirs): how much lower ours is, in percent. */
static double lower_pct(double ours, double theirs)
{
	return theirs > 0 ? 100 * (1 - ours / theirs) : NAN;
}

void fct_print_compare(const struct bexp *e, int part)
{
	const struct brun *pf = &e->runs[part][mode_index(SLUICE_FABRIC_FC_PORTFC)];
	const struct brun *o;
	int m;

	if (!pf->ran)
		return;
	for (m = 0; m < N_MODES; m++) {
		o = &e->runs[part][m];
		if (!o->ran || o == pf)
			continue;
		printf("portfc against %s: mean FCT %.1f%% lower, p99 %.1f%% lower, goodput %.2fx%s\n",
		       mode_name(o->fc),
		       lower_pct(pf->fct_all.s.mean, o->fct_all.s.mean),
		       lower_pct(pf->fct_all.s.p99, o->fct_all.s.p99),
		       o->fct_all.goodput > 0 ?
		       pf->fct_all.goodput / o->fct_all.goodput : NAN,
		       o->unfinished ? " (its unfinished flows not counted)" :
		       "");
	}
}

static json_object *stats_json(const struct fct_stats *st)
{
	json_object *o = json_object_new_object();

	if (o && jadd(o, "flows", jnum(st->s.count)) &&
	    jadd(o, "finished", jnum(st->s.finished)) &&
	    jadd(o, "mean_ms", json_object_new_double(st->s.mean * 1000)) &&
	    jadd(o, "p50_ms", json_object_new_double(st->s.p50 * 1000)) &&
	    jadd(o, "p99_ms", json_object_new_double(st->s.p99 * 1000)) &&
	    jadd(o, "max_ms", json_object_new_double(st->s.max * 1000)) &&
	    jadd(o, "max_late_ms", json_object_new_double(st->s.max_late * 1000)) &&
	    jadd(o, "goodput_mbps", json_object_new_double(st->goodput)))
		return o;
	json_object_put(o);
	return NULL;
}

/* The FCT part's numbers, added to a run's JSON object @o. */
bool fct_json(json_object *o, const struct brun *run)
{
	json_object *pct;
	uint32_t k;
	bool ok;

	ok = jadd(o, "fct", stats_json(&run->fct_all)) &&
	     jadd(o, "fct_poisson", stats_json(&run->fct_poisson)) &&
	     jadd(o, "fct_incast", stats_json(&run->fct_incast)) &&
	     jadd(o, "unfinished", jnum(run->unfinished)) &&
	     jadd(o, "fct_percentiles_ms", pct = json_object_new_array());
	for (k = 0; ok && k < FCT_POINTS; k++)
		ok = !json_object_array_add(pct, json_object_new_double(run->fct_pct[k]));
	return ok;
}

void fct_free(struct scenario *sc, struct brun *runs)
{
	int m;

	sluice_tcpgen_plan_free(&sc->plan);
	for (m = 0; m < N_MODES; m++) {
		free(runs[m].fl);
		runs[m].fl = NULL;
	}
}
