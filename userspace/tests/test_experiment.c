// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pure parts of "sluicectl experiment deadlock":
 *
 * - ecmp-cw: on FC's testbed, exactly the paths of Section 6.2's
 *   imbalanced allocation (checked by hand) and a CBD; on random rings with
 *   doubled links and on random regular graphs, every pair's paths are
 *   ECMP's paths kept by an independent clockwise test (a walk over node
 *   indexes), or all of ECMP's if none is clockwise;
 * - the verdict from throughput series, case by case;
 * - the judgement of a run against its CBD check and the watchdog, each
 *   reason as said; what a fabric without namespaces gives to read
 *   (sluice_fabric_totals(), sluice_deadlock_summary()): its switch named;
 * - the SVG writer: well-formed (tags balanced, one root), one polyline per
 *   series with the coordinates worked out by hand, text escaped;
 * - the command's usage errors, before anything touches the kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/cbd.h>
#include <sluice/experiment.h>
#include <sluice/fabric.h>
#include <sluice/fabric_state.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "cli.h"
#include "ktap.h"

static int compute(const struct sluice_graph *g, enum sluice_route_algo a,
		   struct sluice_routes *r)
{
	struct sluice_route_opts o = { .algo = a };
	struct sluice_compute_opts c = { .threads = 2 };
	char err[256];
	int ret = sluice_routes_compute(g, &o, &c, r, err, sizeof(err));

	if (ret)
		ktap_diag("compute %s: %s", sluice_route_algo_name(a), err);
	return ret;
}

/* Path @q as "0 2" (link ids). */
static void path_text(const struct sluice_routes *r, uint64_t q, char *buf,
		      size_t len)
{
	size_t at = 0;
	uint64_t h;

	buf[0] = '\0';
	for (h = r->path_hop[q]; h < r->path_hop[q + 1] && at < len; h++)
		at += snprintf(buf + at, len - at, "%s%u", at ? " " : "",
			       r->hops[h]);
}

/* Pair (src, dst)'s paths as "0 2|0 3". */
static void pair_text(const struct sluice_routes *r, uint32_t src,
		      uint32_t dst, char *buf, size_t len)
{
	char p[64];
	size_t at = 0;
	uint64_t i, q;

	buf[0] = '\0';
	for (i = 0; i < r->n_pairs; i++) {
		if (r->pair_src[i] != src || r->pair_dst[i] != dst)
			continue;
		for (q = r->pair_path[i]; q < r->pair_path[i + 1]; q++) {
			path_text(r, q, p, sizeof(p));
			at += snprintf(buf + at, len - at, "%s%s",
				       q > r->pair_path[i] ? "|" : "", p);
		}
	}
}

static void test_testbed(void)
{
	static const struct {
		uint32_t	src, dst;
		const char	*paths;
	} want[] = {
		{ 0, 1, "0|1" }, { 0, 2, "0 2|0 3|1 2|1 3" }, { 0, 3, "6|7" },
		{ 1, 0, "0|1" }, { 1, 2, "2|3" }, { 1, 3, "2 4|2 5|3 4|3 5" },
		{ 2, 0, "4 6|4 7|5 6|5 7" }, { 2, 1, "2|3" }, { 2, 3, "4|5" },
		{ 3, 0, "6|7" }, { 3, 1, "6 0|6 1|7 0|7 1" }, { 3, 2, "4|5" },
	};
	struct sluice_cbd_result cbd;
	struct sluice_routes r;
	struct sluice_graph g;
	char err[256], buf[256];
	size_t i;

	if (!KTAP_EXPECT_INT(sluice_topo_fc_testbed(&g, err, sizeof(err)), 0)) {
		ktap_result("ecmp-cw on FC's testbed: Section 6.2's clockwise paths, a CBD");
		return;
	}
	KTAP_EXPECT_INT(g.n_nodes, 4);
	KTAP_EXPECT_INT(g.n_links, 8);
	if (KTAP_EXPECT_INT(compute(&g, SLUICE_ROUTE_ECMP_CW, &r), 0)) {
		KTAP_EXPECT_STR(r.algo, "ecmp-cw");
		KTAP_EXPECT_INT(r.n_pairs, 12);
		KTAP_EXPECT_INT(r.n_paths, 32);
		for (i = 0; i < ARRAY_SIZE(want); i++) {
			pair_text(&r, want[i].src, want[i].dst, buf, sizeof(buf));
			KTAP_EXPECT_STR(buf, want[i].paths);
		}
		if (KTAP_EXPECT_INT(sluice_cbd_check(&g, &r, &cbd, err,
						     sizeof(err)), 0)) {
			KTAP_EXPECT(!cbd.cbd_free);
			KTAP_EXPECT_INT(cbd.n_cycle, 4);
			sluice_cbd_result_free(&cbd);
		}
		sluice_routes_free(&r);
	}
	/* FC's and EDST's routes on it are CBD-free (the experiment's control) */
	if (KTAP_EXPECT_INT(compute(&g, SLUICE_ROUTE_FC, &r), 0)) {
		KTAP_EXPECT_INT(sluice_cbd_check(&g, &r, &cbd, err, sizeof(err)), 0);
		KTAP_EXPECT(cbd.cbd_free);
		sluice_cbd_result_free(&cbd);
		sluice_routes_free(&r);
	}
	/* the helper: s1 -> s2 -> s3 is clockwise, s1 -> s4 and s3 -> s2 not */
	KTAP_EXPECT(sluice_route_path_clockwise(&g, 0, (uint32_t[]){ 1, 2 }, 2));
	KTAP_EXPECT(sluice_route_path_clockwise(&g, 3, (uint32_t[]){ 7 }, 1));
	KTAP_EXPECT(!sluice_route_path_clockwise(&g, 0, (uint32_t[]){ 6 }, 1));
	KTAP_EXPECT(!sluice_route_path_clockwise(&g, 2, (uint32_t[]){ 3 }, 1));
	KTAP_EXPECT(!sluice_route_path_clockwise(&g, 0, NULL, 0));
	KTAP_EXPECT(!sluice_route_path_clockwise(&g, 0, (uint32_t[]){ 99 }, 1));
	sluice_graph_free(&g);
	ktap_result("ecmp-cw on FC's testbed: Section 6.2's clockwise paths, a CBD");
}

/* Clockwise by walking node indexes, independently of the library. */
static bool walk_cw(const struct sluice_graph *g, uint32_t u,
		    const uint32_t *links, uint32_t n)
{
	uint32_t k, a, b;

	for (k = 0; k < n; k++) {
		a = g->links[links[k]].a;
		b = g->links[links[k]].b;
		if (a == u && b == (u + 1) % g->n_nodes)
			u = b;
		else if (b == u && a == (u + 1) % g->n_nodes)
			u = a;
		else
			return false;
	}
	return n > 0;
}

/* ecmp-cw's pairs against ECMP's, filtered here. */
static bool same_as_filtered(const struct sluice_graph *g)
{
	struct sluice_routes e, c;
	uint64_t p, q, k;
	bool ok = true, any;

	if (compute(g, SLUICE_ROUTE_ECMP, &e))
		return false;
	if (compute(g, SLUICE_ROUTE_ECMP_CW, &c)) {
		sluice_routes_free(&e);
		return false;
	}
	ok = e.n_pairs == c.n_pairs;
	for (p = 0; ok && p < e.n_pairs; p++) {
		any = false;
		for (q = e.pair_path[p]; q < e.pair_path[p + 1]; q++)
			any |= walk_cw(g, e.pair_src[p], e.hops + e.path_hop[q],
				       sluice_routes_path_len(&e, q));
		k = c.pair_path[p];
		for (q = e.pair_path[p]; ok && q < e.pair_path[p + 1]; q++) {
			if (any && !walk_cw(g, e.pair_src[p],
					    e.hops + e.path_hop[q],
					    sluice_routes_path_len(&e, q)))
				continue;
			ok = k < c.pair_path[p + 1] &&
			     sluice_routes_path_len(&e, q) ==
			     sluice_routes_path_len(&c, k) &&
			     !memcmp(e.hops + e.path_hop[q],
				     c.hops + c.path_hop[k],
				     sluice_routes_path_len(&e, q) *
				     sizeof(uint32_t));
			k++;
		}
		ok = ok && k == c.pair_path[p + 1];
		if (!ok)
			ktap_diag("pair %u -> %u differs", e.pair_src[p],
				  e.pair_dst[p]);
	}
	sluice_routes_free(&e);
	sluice_routes_free(&c);
	return ok;
}

/* A ring of @n switches, each link 1 or 2 times, in a shuffled link order. */
static int random_ring(struct sluice_graph *g, uint32_t n,
		       struct sluice_rng *rng)
{
	uint32_t ends[64][2], m = 0, i, k, order[64];
	char err[256], name[16];

	for (i = 0; i < n; i++)
		for (k = 0; k <= sluice_rng_below(rng, 2); k++) {
			/* either end first: direction is the walk's business */
			ends[m][0] = sluice_rng_below(rng, 2) ? i : (i + 1) % n;
			ends[m][1] = ends[m][0] == i ? (i + 1) % n : i;
			order[m] = m;
			m++;
		}
	sluice_rng_shuffle(rng, order, m);
	if (sluice_graph_init(g, n, err, sizeof(err)))
		goto fail;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "s%u", i);
		if (sluice_graph_set_node(g, i, name, SLUICE_NODE_SWITCH, 1, 0,
					  err, sizeof(err)))
			goto fail;
	}
	for (i = 0; i < m; i++)
		if (sluice_graph_add_link(g, ends[order[i]][0], ends[order[i]][1],
					  0, 0, err, sizeof(err)) < 0)
			goto fail;
	if (!sluice_graph_finalize(g, err, sizeof(err)))
		return 0;
fail:
	ktap_diag("ring: %s", err);
	sluice_graph_free(g);
	return -1;
}

static void test_random(void)
{
	struct sluice_rng rng;
	struct sluice_graph g;
	char err[256];
	uint32_t i, bad = 0;

	sluice_rng_seed(&rng, 8);
	for (i = 0; i < 60; i++) {
		if (random_ring(&g, 3 + sluice_rng_below(&rng, 8), &rng)) {
			bad++;
			continue;
		}
		bad += !same_as_filtered(&g);
		sluice_graph_free(&g);
	}
	for (i = 0; i < 20; i++) {
		if (sluice_topo_jellyfish(&g, 8 + 2 * (i % 5), 3 + i % 2, 1,
					  i + 1, err, sizeof(err))) {
			ktap_diag("jellyfish: %s", err);
			bad++;
			continue;
		}
		bad += !same_as_filtered(&g);
		sluice_graph_free(&g);
	}
	KTAP_EXPECT_INT(bad, 0);
	ktap_result("ecmp-cw against ECMP filtered by a clockwise walk: 60 random rings, 20 jellyfish");
}

static struct sluice_verdict_out verdict(const uint64_t *rx, uint32_t n,
					 uint32_t quiet_ms, int cycle)
{
	struct sluice_verdict_in in = {
		.rx = rx, .n = n, .interval_ms = 500, .quiet_ms = quiet_ms,
		.cycle = cycle,
	};
	struct sluice_verdict_out out;

	sluice_verdict(&in, &out);
	return out;
}

static void test_verdict(void)
{
	static const uint64_t flowing[] = { 9, 8, 7, 0, 0, 0, 6, 5 };
	static const uint64_t dead[] = { 9, 8, 7, 3, 0, 0, 0, 0 };
	static const uint64_t short_stop[] = { 9, 8, 7, 3, 5, 0, 0, 0 };
	static const uint64_t recovered[] = { 9, 0, 0, 0, 0, 0, 1, 2 };
	static const uint64_t zero[] = { 0, 0, 0 };
	struct sluice_verdict_out v;

	v = verdict(flowing, 8, 2000, 0);
	KTAP_EXPECT_INT(v.verdict, SLUICE_VERDICT_FLOWING);
	KTAP_EXPECT_INT(v.longest_zero, 3);
	KTAP_EXPECT_INT(v.zero_from, 8);
	KTAP_EXPECT(v.stopped_at < 0);
	/* the last 2 s (4 samples of 500 ms) at zero */
	v = verdict(dead, 8, 2000, 1);
	KTAP_EXPECT_INT(v.verdict, SLUICE_VERDICT_DEADLOCK);
	KTAP_EXPECT_INT(v.zero_from, 4);
	KTAP_EXPECT(v.stopped_at > 1.99 && v.stopped_at < 2.01);
	/* ... without a wait-for cycle: stopped, not a deadlock */
	KTAP_EXPECT_INT(verdict(dead, 8, 2000, 0).verdict, SLUICE_VERDICT_STOPPED);
	/* ... the detector not run: the throughput alone */
	KTAP_EXPECT_INT(verdict(dead, 8, 2000, -1).verdict, SLUICE_VERDICT_DEADLOCK);
	/* 1.5 s at zero is not 2 s; quiet time rounds up to whole samples */
	KTAP_EXPECT_INT(verdict(short_stop, 8, 2000, 1).verdict, SLUICE_VERDICT_FLOWING);
	KTAP_EXPECT_INT(verdict(short_stop, 8, 1500, 1).verdict, SLUICE_VERDICT_DEADLOCK);
	KTAP_EXPECT_INT(verdict(short_stop, 8, 1600, 1).verdict, SLUICE_VERDICT_FLOWING);
	KTAP_EXPECT_INT(verdict(dead, 8, 1900, 1).verdict, SLUICE_VERDICT_DEADLOCK);
	/* stopped for 2.5 s, then delivering again */
	v = verdict(recovered, 8, 2000, 1);
	KTAP_EXPECT_INT(v.verdict, SLUICE_VERDICT_RECOVERED);
	KTAP_EXPECT_INT(v.longest_zero, 5);
	/* fewer samples than the quiet time: never stopped */
	KTAP_EXPECT_INT(verdict(zero, 3, 2000, 1).verdict, SLUICE_VERDICT_FLOWING);
	KTAP_EXPECT_INT(verdict(zero, 3, 1500, 1).verdict, SLUICE_VERDICT_DEADLOCK);
	KTAP_EXPECT_INT(verdict(NULL, 0, 2000, 1).verdict, SLUICE_VERDICT_FLOWING);
	KTAP_EXPECT_STR(sluice_verdict_name(SLUICE_VERDICT_DEADLOCK), "deadlock");
	KTAP_EXPECT_STR(sluice_verdict_name(SLUICE_VERDICT_RECOVERED), "recovered");
	KTAP_EXPECT_STR(sluice_verdict_name(99), "?");
	ktap_result("verdict: deadlock, stopped, recovered and flowing from throughput series");
}

static struct sluice_dl_judge_out judge(const uint64_t *rx, uint32_t n,
					int cycle, bool cbd, const char *wd,
					uint64_t storms, uint64_t drops)
{
	struct sluice_dl_judge_in in = {
		.run = { .rx = rx, .n = n, .interval_ms = 500,
			 .quiet_ms = 2000, .cycle = cycle },
		.cbd = cbd, .wd_action = wd,
		.wd_storms = storms, .wd_drops = drops,
	};
	struct sluice_dl_judge_out out;

	sluice_dl_judge(&in, &out);
	return out;
}

static void test_judge(void)
{
	static const uint64_t flowing[] = { 9, 8, 7, 0, 0, 0, 6, 5 };
	static const uint64_t dead[] = { 9, 8, 7, 3, 0, 0, 0, 0 };
	static const uint64_t recovered[] = { 9, 0, 0, 0, 0, 0, 1, 2 };
	struct sluice_fabric_totals t;
	struct sluice_dl_judge_out o;
	struct sluice_fabric f;
	struct sluice_graph g;
	char err[SLUICE_ERRLEN], text[256];

	/* CBD-free: delivering throughout, or not as predicted */
	o = judge(flowing, 8, 0, false, NULL, 0, 0);
	KTAP_EXPECT(o.as_predicted && !o.wd_broke);
	KTAP_EXPECT_STR(o.why, "");
	o = judge(dead, 8, 0, false, NULL, 0, 0);
	KTAP_EXPECT(!o.as_predicted);
	KTAP_EXPECT_INT(o.v.verdict, SLUICE_VERDICT_STOPPED);
	KTAP_EXPECT_STR(o.why, "CBD-free routes, yet delivery stopped for 2.0 s: not a routing deadlock (is the machine's CPU the bottleneck?)");
	/* a CBD without a watchdog: the deadlock is what was predicted */
	o = judge(dead, 8, 1, true, NULL, 0, 0);
	KTAP_EXPECT(o.as_predicted);
	KTAP_EXPECT_INT(o.v.verdict, SLUICE_VERDICT_DEADLOCK);
	o = judge(flowing, 8, 0, true, "alert", 3, 0);
	KTAP_EXPECT(!o.as_predicted && !o.wd_broke);
	KTAP_EXPECT_STR(o.why, "no deadlock formed in this run; a CBD makes one possible, not certain");
	o = judge(dead, 8, 0, true, NULL, 0, 0);
	KTAP_EXPECT_STR(o.why, "delivery stopped but the detector found no wait-for cycle");
	/* a watchdog that drops: broken is as predicted */
	o = judge(recovered, 8, 0, true, "drop", 4, 17);
	KTAP_EXPECT(o.as_predicted && o.wd_broke);
	o = judge(recovered, 8, 0, true, "drop", 4, 0);
	KTAP_EXPECT(!o.as_predicted && !o.wd_broke);
	KTAP_EXPECT_STR(o.why, "the watchdog (drop) did not break the deadlock: recovered, 4 storms, 0 frames dropped");
	o = judge(recovered, 8, 0, true, "forward", 4, 0);
	KTAP_EXPECT(o.as_predicted && o.wd_broke);
	o = judge(flowing, 8, 0, true, "drop", 0, 0);
	KTAP_EXPECT_STR(o.why, "no deadlock formed in this run (no watchdog storm); a CBD makes one possible, not certain");
	o = judge(dead, 8, 1, true, "forward", 9, 0);
	KTAP_EXPECT(!o.as_predicted && !o.wd_broke);
	KTAP_EXPECT_STR(o.why, "the watchdog (forward) did not break the deadlock: deadlock, 9 storms, 0 frames dropped");
	/* a fabric without its namespaces: the readings name the switch */
	if (KTAP_EXPECT_INT(sluice_topo_ring(&g, 3, 1, err, sizeof(err)), 0)) {
		if (KTAP_EXPECT_INT(sluice_fabric_plan(&f, &g, "jdg", 1, err,
						       sizeof(err)), 0)) {
			KTAP_EXPECT(sluice_fabric_totals(&f, 3, &t, err,
							 sizeof(err)) < 0);
			KTAP_EXPECT(!strncmp(err, "switch s0: ", 11));
			KTAP_EXPECT_INT(sluice_deadlock_summary(&f, text,
								sizeof(text)),
					-1);
			KTAP_EXPECT(!strncmp(text, "failed: switch s0 (namespace jdg-s0): ", 38));
			sluice_fabric_free(&f);
		}
		sluice_graph_free(&g);
	}
	ktap_result("judge: each verdict against the CBD check and the watchdog, and why not");
}

/* Tags balanced, one root <svg>, nothing after it but a newline. */
static bool well_formed(const char *s)
{
	char stack[32][32], name[32];
	int depth = 0, roots = 0;
	const char *p = s, *q;
	size_t n;

	if (strncmp(p, "<?xml ", 6))
		return false;
	p = strstr(p, "?>");
	if (!p)
		return false;
	for (p += 2; *p; p++) {
		if (*p == '&') {
			if (strncmp(p, "&lt;", 4) && strncmp(p, "&gt;", 4) &&
			    strncmp(p, "&amp;", 5) && strncmp(p, "&quot;", 6) &&
			    strncmp(p, "&apos;", 6))
				return false;
			continue;
		}
		if (*p == '>')
			return false;
		if (*p != '<') {
			if (!depth && *p != '\n')
				return false;
			continue;
		}
		q = strchr(p, '>');
		if (!q || memchr(p + 1, '<', q - p - 1))
			return false;
		if (p[1] == '/') {
			n = strcspn(p + 2, " >");
			if (!depth || n >= sizeof(name) ||
			    strncmp(stack[depth - 1], p + 2, n) ||
			    stack[depth - 1][n])
				return false;
			depth--;
		} else {
			n = strcspn(p + 1, " />");
			if (!n || n >= sizeof(name) || depth == 32)
				return false;
			if (!depth)
				roots++;
			if (q[-1] != '/') {
				memcpy(stack[depth], p + 1, n);
				stack[depth++][n] = '\0';
			}
		}
		p = q;
	}
	return !depth && roots == 1;
}

/* What sluice_udpgen_sample() handed its callback. */
struct sampled {
	uint32_t	calls;
	uint32_t	order_ok;
	double		at[8];
	volatile sig_atomic_t *stop;
	uint32_t	stop_after;
};

static void on_sample(void *arg, uint32_t i, const struct sluice_udpgen *t)
{
	struct sampled *sd = arg;

	(void)t;
	sd->order_ok += i == sd->calls;
	if (sd->calls < 8)
		sd->at[sd->calls] = sluice_now();
	sd->calls++;
	if (sd->stop && sd->calls == sd->stop_after)
		*sd->stop = 1;
}

/*
 * The experiments' shared steps without a fabric: the sampling loop on
 * an engine without hosts (its clock and its stop), a graph's copy, the
 * deadlock run's refusals before anything is made, and a fabric whose
 * state is saved already refused before it is touched.
 */
static void test_run_steps(void)
{
	static volatile sig_atomic_t stop;
	struct sampled sd = { 0 };
	struct sluice_udpgen_sample_opts so = {
		.n = 4, .interval_ms = 20, .tick = 0.005, .sample = on_sample,
		.arg = &sd,
	};
	struct sluice_udpgen t = { 0 };
	struct sluice_graph g, c;
	struct sluice_dl_run_opts o = { 0 };
	struct sluice_dl_run r;
	struct sluice_fabric_state fs;
	char err[SLUICE_ERRLEN], path[4096];
	uint64_t busy, total;
	double t0, cpu;
	uint32_t i;
	FILE *f;

	t0 = sluice_now();
	KTAP_EXPECT_INT(sluice_udpgen_sample(&t, &so, &cpu), 0);
	KTAP_EXPECT_INT(sd.calls, 4);
	KTAP_EXPECT_INT(sd.order_ok, 4);
	/* sample i ends at start + (i + 1) * interval, never before */
	for (i = 0; i < 4; i++)
		KTAP_EXPECT(sd.at[i] - t0 >= (i + 1) * 0.020 - 1e-6);
	KTAP_EXPECT(cpu >= 0 && cpu <= 1);
	KTAP_EXPECT_INT(sluice_cpu_times(&busy, &total), 0);
	KTAP_EXPECT(total > 0 && busy <= total);
	memset(&sd, 0, sizeof(sd));
	sd.stop = &stop;
	sd.stop_after = 2;
	so.stop = &stop;
	KTAP_EXPECT_INT(sluice_udpgen_sample(&t, &so, &cpu), -EINTR);
	KTAP_EXPECT_INT(sd.calls, 2);

	/* a copy equal to the original, and its own */
	KTAP_EXPECT_INT(sluice_topo_fc_testbed(&g, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_graph_copy(&c, &g, err, sizeof(err)), 0);
	KTAP_EXPECT(sluice_graph_hash(&c) == sluice_graph_hash(&g));
	KTAP_EXPECT(c.finalized && c.nodes != g.nodes && c.adj != g.adj);
	KTAP_EXPECT_INT(c.n_links, g.n_links);
	KTAP_EXPECT(!memcmp(c.off, g.off, (g.n_nodes + 1) * sizeof(*g.off)));
	sluice_graph_free(&c);

	/* refused before any fabric is made */
	o.name = "t";
	o.topo_path = "fc-testbed";
	o.g = &g;
	o.qdisc_args = "rate 1mbit";
	o.duration_s = 2;
	KTAP_EXPECT_INT(sluice_dl_run(&o, &r, err, sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "a run of 2 s sampled every 0 ms");
	KTAP_EXPECT(!r.rx && !r.n);
	sluice_dl_run_free(&r);

	/* a saved state stops "up" before anything changes */
	setenv("SLUICE_RUN_DIR", cli_path("run"), 1);
	memset(&fs, 0, sizeof(fs));
	snprintf(fs.name, sizeof(fs.name), "busy");
	snprintf(fs.topo_path, sizeof(fs.topo_path), "fc-testbed");
	fs.hash = sluice_graph_hash(&g);
	KTAP_EXPECT_INT(sluice_graph_copy(&fs.g, &g, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_fabric_state_write(&fs, err, sizeof(err)), 0);
	sluice_fabric_state_path("busy", "fabric", path, sizeof(path));
	f = fopen(path, "a");
	KTAP_EXPECT(f != NULL);
	if (f) {
		fputs("# kept\n", f);
		fclose(f);
	}
	KTAP_EXPECT_INT(sluice_fabric_state_up(&fs, NULL, NULL, err,
					       sizeof(err)), -EEXIST);
	snprintf(path, sizeof(path), "fabric busy is up (%s/busy)",
		 cli_path("run"));
	KTAP_EXPECT_STR(err, path);
	/* the saved state is the one that was there */
	sluice_fabric_state_path("busy", "fabric", path, sizeof(path));
	f = fopen(path, "r");
	KTAP_EXPECT(f != NULL);
	if (f) {
		char line[256], last[256] = "";

		while (fgets(line, sizeof(line), f))
			snprintf(last, sizeof(last), "%s", line);
		fclose(f);
		KTAP_EXPECT_STR(last, "# kept\n");
	}
	KTAP_EXPECT_INT(sluice_fabric_state_remove("busy", err, sizeof(err)),
			0);
	sluice_fabric_state_free(&fs);
	sluice_graph_free(&g);
	ktap_result("run_steps");
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

static void test_svg(void)
{
	static const double a[] = { 0, 1, 2, 3 }, b[] = { 3, 3, 0, 0 };
	const struct sluice_svg_series ser[] = {
		{ "ecmp-cw", a, 4 }, { "a<b & \"c\"", b, 4 },
	};
	struct sluice_svg_plot p = {
		.title = "t", .x_label = "time (s)", .y_label = "Mbit/s",
		.x_step = 0.5, .series = ser, .n_series = 2,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	KTAP_EXPECT_INT(sluice_svg_write(&p, f), 0);
	fclose(f);
	KTAP_EXPECT(well_formed(buf));
	KTAP_EXPECT_INT(count(buf, "<polyline "), 2);
	/*
	 * The plot area is x 70..550, y 40..350; x runs 0..2 s (4 samples of
	 * 0.5 s), y 0..3: sample i at x 70 + 120 (i + 1).
	 */
	KTAP_EXPECT(strstr(buf, "points=\"190.0,350.0 310.0,246.7 430.0,143.3 550.0,40.0\""));
	KTAP_EXPECT(strstr(buf, "points=\"190.0,40.0 310.0,40.0 430.0,350.0 550.0,350.0\""));
	KTAP_EXPECT(strstr(buf, ">ecmp-cw</text>"));
	KTAP_EXPECT(strstr(buf, ">a&lt;b &amp; &quot;c&quot;</text>"));
	/* y ticks 0, 1, 2, 3; x ticks 0, 0.5, ... 2 */
	KTAP_EXPECT(strstr(buf, ">3</text>") && !strstr(buf, ">4</text>"));
	KTAP_EXPECT(strstr(buf, ">0.5</text>") && strstr(buf, ">2</text>"));
	KTAP_EXPECT(!well_formed("<?xml version=\"1.0\"?>\n<svg><g></svg>\n"));
	KTAP_EXPECT(!well_formed("<?xml version=\"1.0\"?>\n<svg/><svg/>\n"));
	KTAP_EXPECT(!well_formed("<?xml version=\"1.0\"?>\n<svg>a & b</svg>\n"));
	free(buf);
	/* nothing to plot still makes a document */
	p.n_series = 0;
	buf = NULL;
	f = open_memstream(&buf, &len);
	KTAP_EXPECT_INT(sluice_svg_write(&p, f), 0);
	fclose(f);
	KTAP_EXPECT(well_formed(buf));
	KTAP_EXPECT_INT(count(buf, "<polyline "), 0);
	free(buf);
	ktap_result("svg: well-formed, the polylines' coordinates, escaped text");
}

static void expect_usage(const struct run *r, const char *msg)
{
	KTAP_EXPECT_INT(r->status, 2);
	if (!KTAP_EXPECT(!strncmp(r->err, msg, strlen(msg))))
		ktap_diag("stderr: %s", r->err);
	KTAP_EXPECT_STR(r->out, "");
}

static void test_cli(void)
{
	struct run r;

	RUN(&r, "experiment", "deadlock", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "Usage: sluicectl experiment deadlock"));
	RUN(&r, "experiment");
	KTAP_EXPECT_INT(r.status, 2);
	RUN(&r, "experiment", "livelock");
	expect_usage(&r, "sluicectl experiment: unknown experiment command \"livelock\"\n");
	RUN(&r, "experiment", "deadlock", "--routes", "ecmp,spf");
	expect_usage(&r, "sluicectl experiment deadlock: --routes: unknown algorithm \"spf\"\n");
	RUN(&r, "experiment", "deadlock", "--routes", ",");
	expect_usage(&r, "sluicectl experiment deadlock: --routes: no route set given\n");
	RUN(&r, "experiment", "deadlock", "--duration", "0");
	expect_usage(&r, "sluicectl experiment deadlock: --duration: \"0\" is not a time from 1s to 3600s in whole seconds (a bare number is seconds)\n");
	RUN(&r, "experiment", "deadlock", "--interval", "5");
	expect_usage(&r, "sluicectl experiment deadlock: --interval: \"5\" is not a time from 10ms to 60s in whole milliseconds (a bare number is milliseconds)\n");
	RUN(&r, "experiment", "deadlock", "--duration", "1", "--interval", "2000");
	expect_usage(&r, "sluicectl experiment deadlock: --interval is longer than --duration\n");
	RUN(&r, "experiment", "deadlock", "--frame", "2000");
	expect_usage(&r, "sluicectl experiment deadlock: --frame: \"2000\" is not a number from 58 to 1514\n");
	RUN(&r, "experiment", "deadlock", "--rate", "fast");
	expect_usage(&r, "sluicectl experiment deadlock: --rate: \"fast\" is not a rate of 1bit or more, as 100mbit or 10gbit\n");
	RUN(&r, "experiment", "deadlock", "--xon", "60Kb");
	expect_usage(&r, "sluicectl experiment deadlock: --xon 61440 is above --xoff 20480\n");
	RUN(&r, "experiment", "deadlock", "--xoff", "lots");
	expect_usage(&r, "sluicectl experiment deadlock: --xoff: \"lots\" is not bytes from 0 to 4294967295, or with a unit as 64k\n");
	RUN(&r, "experiment", "deadlock", "--watchdog", "reboot");
	expect_usage(&r, "sluicectl experiment deadlock: --watchdog: \"reboot\" is not drop, forward or alert\n");
	RUN(&r, "experiment", "deadlock", "--detection-time", "200");
	expect_usage(&r, "sluicectl experiment deadlock: --detection-time and --restoration-time go with --watchdog ACTION\n");
	RUN(&r, "experiment", "deadlock", "--watchdog", "drop",
	    "--restoration-time", "0");
	expect_usage(&r, "sluicectl experiment deadlock: --restoration-time: \"0\" is not a time from 10ms to 60s in whole milliseconds (a bare number is milliseconds)\n");
	/* tc's TIME, taken as the qdisc's watchdog takes it: 200ms is 0.2s */
	RUN(&r, "experiment", "deadlock", "--watchdog", "drop",
	    "--detection-time", "200ms", "--restoration-time", "0.2s",
	    "--duration", "1", "--interval", "2s");
	expect_usage(&r, "sluicectl experiment deadlock: --interval is longer than --duration\n");
	RUN(&r, "experiment", "deadlock", "--name", "a/b");
	KTAP_EXPECT_INT(r.status, 2);
	RUN(&r, "experiment", "deadlock", "extra");
	expect_usage(&r, "sluicectl experiment deadlock: unexpected argument \"extra\"\n");
	RUN(&r, "experiment", "deadlock", "--topo", "/nonexistent/t.json");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "/nonexistent/t.json"));
	ktap_result("experiment deadlock: usage errors, exit 2, nothing on stdout");
}

static void test_bcube_cli(void)
{
	struct run r;

	RUN(&r, "experiment", "bcube", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "Usage: sluicectl experiment bcube"));
	RUN(&r, "experiment", "bcube", "--parts", "deadlock,fct");
	expect_usage(&r, "sluicectl experiment bcube: --parts: \"fct\" is not one of deadlock, holb, incast, websearch, hadoop\n");
	RUN(&r, "experiment", "bcube", "--modes", "pfc,gbn");
	expect_usage(&r, "sluicectl experiment bcube: --modes: \"gbn\" is not one of pfc, pfc-star, portfc, lossy\n");
	RUN(&r, "experiment", "bcube", "--load", "1.5");
	expect_usage(&r, "sluicectl experiment bcube: --load: \"1.5\" is not a fraction of a link above 0, at most 1 (0.5)\n");
	RUN(&r, "experiment", "bcube", "--load", "0.5x");
	expect_usage(&r, "sluicectl experiment bcube: --load: \"0.5x\" is not a fraction of a link above 0, at most 1 (0.5)\n");
	RUN(&r, "experiment", "bcube", "--fct-duration", "0");
	expect_usage(&r, "sluicectl experiment bcube: --fct-duration: \"0\" is not a time from 1s to 3600s in whole seconds (a bare number is seconds)\n");
	RUN(&r, "experiment", "bcube", "--seed", "-1");
	expect_usage(&r, "sluicectl experiment bcube: --seed: \"-1\" is not a number of 0 or more\n");
	RUN(&r, "experiment", "bcube", "--modes", ",");
	expect_usage(&r, "sluicectl experiment bcube: --modes: none given\n");
	RUN(&r, "experiment", "bcube", "--n", "3");
	expect_usage(&r, "sluicectl experiment bcube: --n: \"3\" is not a number from 4 to 16\n");
	RUN(&r, "experiment", "bcube", "--duration", "2", "--interval", "1500");
	expect_usage(&r, "sluicectl experiment bcube: --interval: at least two samples in --duration\n");
	RUN(&r, "experiment", "bcube", "--rate", "0");
	expect_usage(&r, "sluicectl experiment bcube: --rate: \"0\" is not a rate of 1bit or more, as 100mbit or 10gbit\n");
	RUN(&r, "experiment", "bcube", "extra");
	expect_usage(&r, "sluicectl experiment bcube: unexpected argument \"extra\"\n");
	ktap_result("experiment bcube: usage errors, exit 2, nothing on stdout");
}

static void test_bolt_cli(void)
{
	struct run r;

	RUN(&r, "experiment", "bolt", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "Usage: sluicectl experiment bolt"));
	RUN(&r, "experiment", "bolt", "--parts", "window,fig3");
	expect_usage(&r, "sluicectl experiment bolt: --parts: \"fig3\" is not one of window, fairness, holb, workload, edst, lanes\n");
	RUN(&r, "experiment", "bolt", "--modes", "bolt,reno");
	expect_usage(&r, "sluicectl experiment bolt: --modes: \"reno\" is not one of tcp, dctcp, tcp-pfc, tcp-dcb, bolt\n");
	RUN(&r, "experiment", "bolt", "--modes", ",");
	expect_usage(&r, "sluicectl experiment bolt: --modes: none given\n");
	RUN(&r, "experiment", "bolt", "--rate", "1gbit");
	expect_usage(&r, "sluicectl experiment bolt: --rate: \"1gbit\" is not a rate from 100Kbit to 100Mbit\n");
	RUN(&r, "experiment", "bolt", "--delay", "2s");
	expect_usage(&r, "sluicectl experiment bolt: --delay: \"2s\" is not a time from 0s to 1s (a bare number is microseconds)\n");
	RUN(&r, "experiment", "bolt", "--unit", "1", "--interval", "500");
	expect_usage(&r, "sluicectl experiment bolt: --unit 1 s holds fewer than 3 samples of --interval 500 ms: a phase needs some after the first\n");
	RUN(&r, "experiment", "bolt", "--reps", "0");
	expect_usage(&r, "sluicectl experiment bolt: --reps: \"0\" is not a number from 1 to 99\n");
	RUN(&r, "experiment", "bolt", "extra");
	expect_usage(&r, "sluicectl experiment bolt: unexpected argument \"extra\"\n");
	ktap_result("experiment bolt: usage errors, exit 2, nothing on stdout");
}

/*
 * The FaCa micro part's options, refused before a fabric is made: each
 * part's own options without it, and every bound, exit 2, nothing on
 * stdout.
 */
static void test_faca_micro_cli(void)
{
	static const struct {
		const char	*opt, *val, *msg;
	} bad[] = {
		{ "--leaves", "4", "sluicectl experiment faca: --leaves is the model part's: give --parts model\n" },
		{ "--rate", "1gbit", "sluicectl experiment faca: --rate: \"1gbit\" is not a rate from 100Kbit to 2Mbit\n" },
		{ "--rate", "50kbit", "sluicectl experiment faca: --rate: \"50kbit\" is not a rate from 100Kbit to 2Mbit\n" },
		{ "--slow", "1.5", "sluicectl experiment faca: --slow: \"1.5\" is not a fraction from 0.1 to 1" },
		{ "--slow", "0.5x", "sluicectl experiment faca: --slow: \"0.5x\" is not a fraction from 0.1 to 1" },
		{ "--rounds", "7", "sluicectl experiment faca: --rounds 7 x --flows 2: a host a flow, at most 12 hosts a leaf on a fabric\n" },
		{ "--runs", "11", "sluicectl experiment faca: --runs 11: at most 10 on a fabric" },
		{ "--duration", "4s", "sluicectl experiment faca: --duration 4.0 s: a round needs its flows in (5.0 s: --flows 2, --stagger 3.0 s, 2 s to settle)" },
		{ "--duration", "20m", "sluicectl experiment faca: --duration: \"20m\" is not a time from 1s to 600s in whole milliseconds (a bare number is seconds)\n" },
		{ "--interval", "10ms", "sluicectl experiment faca: --interval: \"10ms\" is not a time from 50ms to 5s in whole milliseconds (a bare number is seconds)\n" },
		{ "--stagger", "2min", "sluicectl experiment faca: --stagger: \"2min\" is not a time from 0s to 60s in whole milliseconds (a bare number is seconds)\n" },
		{ "--threshold", "30kb", "sluicectl experiment faca: --threshold: \"30kb\" is not a size from 1 byte to xoff, 20000 bytes" },
		{ "--threshold", "0", "sluicectl experiment faca: --threshold: \"0\" is not a size from 1 byte to xoff" },
		{ "--policies", "ecmp,plb", "sluicectl experiment faca: --policies: \"plb\" is not one of ecmp, wcmp, faca\n" },
		{ "--policies", ",", "sluicectl experiment faca: --policies: none given\n" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		RUN(&r, "experiment", "faca", "--parts", "micro", bad[i].opt,
		    bad[i].val);
		expect_usage(&r, bad[i].msg);
	}
	RUN(&r, "experiment", "faca", "--parts", "model", "--rate", "1mbit");
	expect_usage(&r, "sluicectl experiment faca: --rate is the micro part's: give --parts micro\n");
	RUN(&r, "experiment", "faca", "--parts", "model", "--keep");
	expect_usage(&r, "sluicectl experiment faca: --keep is the micro part's: give --parts micro\n");
	/* --rounds and --flows are both parts': the hosts they ask for */
	RUN(&r, "experiment", "faca", "--flows", "4", "--rounds", "4");
	expect_usage(&r, "sluicectl experiment faca: --rounds 4 x --flows 4: a host a flow");
	RUN(&r, "experiment", "faca", "--parts", "micro", "--name", "a/b");
	KTAP_EXPECT_INT(r.status, 2);
	KTAP_EXPECT_STR(r.out, "");
	RUN(&r, "experiment", "faca", "--help");
	KTAP_EXPECT(strstr(r.out, "--threshold BYTES") &&
		    strstr(r.out, "micro: a fabric NAME"));
	ktap_result("experiment faca --parts micro: usage errors, exit 2, nothing on stdout");
}

int main(void)
{
	ktap_plan(10);
	cli_init();
	test_testbed();
	test_random();
	test_verdict();
	test_judge();
	test_run_steps();
	test_svg();
	test_cli();
	test_bcube_cli();
	test_bolt_cli();
	test_faca_micro_cli();
	return ktap_exit();
}
