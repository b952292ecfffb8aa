// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flow generator (sluice/flowgen.h) and sluice-flowgen:
 *
 * - TCP-Bolt's plan against its definition: every incast has fan-in
 *   responders, distinct, none the aggregator, one SRU of 2, 4 or 8 KB for
 *   all, each SRU a third of the incasts; incast and background counts
 *   within 5 standard deviations of a Poisson process's; background sizes
 *   in range, their mean within 5 standard errors of the log-uniform's; the
 *   fan-in shrinks to the hosts; the same seed, the same flows;
 * - lanes: DSCP = lane, every lane used;
 * - the bytes on the wire and a flow alone, worked out by hand;
 * - CDF files: a good one, and each bad line's message;
 * - HPCC's lines, byte for byte, incast completion, slowdowns;
 * - on loopback: probes measure every path, a run with a DSCP per flow
 *   completes and reports its progress;
 * - a fabric's saved state, keys of every era, read by the library, its
 *   hosts found by the binary (which then needs their namespaces: root);
 * - the binary: a short run over loopback, its files, --help, and errors
 *   that leave no file behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sluice/experiment.h>
#include <sluice/fabric_state.h>
#include <sluice/flowgen.h>
#include <sluice/graph.h>
#include <sluice/route.h>
#include <sluice/tcpgen.h>
#include "cli.h"
#include "ktap.h"

static char err[256];

#define LO(k)	((127u << 24) | ((k) + 1))	/* 127.0.0.k+1 */

/* Whether @x is within @sigmas standard deviations @sd of @want. */
static bool within(double x, double want, double sd, double sigmas)
{
	if (fabs(x - want) <= sigmas * sd)
		return true;
	ktap_diag("%g, wanted %g within %g", x, want, sigmas * sd);
	return false;
}

static bool near_rel(double x, double want)
{
	return fabs(x - want) <= 1e-9 * fabs(want);
}

/* Every incast of @p (jobs 1..n, in order) as the seed defines it. */
static void check_incasts(const struct sluice_tcpgen_plan *p,
			  uint32_t fan_in, uint32_t n_hosts, double scale,
			  uint32_t *jobs, uint32_t sru[3])
{
	uint32_t q = 0, i, k, job = 0;
	bool *seen = calloc(n_hosts, sizeof(*seen)), ok = true;
	const struct sluice_tcpgen_flow *a;

	while (q < p->n_flows && p->fl[q].tag == SLUICE_FLOWGEN_BACKGROUND)
		q++;
	for (; q < p->n_flows; q += fan_in) {
		a = &p->fl[q];
		memset(seen, 0, n_hosts * sizeof(*seen));
		ok &= a->job == ++job && q + fan_in <= p->n_flows;
		for (i = 0; ok && i < fan_in; i++) {
			ok &= a[i].job == job && a[i].dst == a->dst &&
			      a[i].size == a->size && a[i].start == a->start &&
			      a[i].src != a->dst && !seen[a[i].src] &&
			      a[i].tag == SLUICE_FLOWGEN_INCAST;
			seen[a[i].src] = true;
		}
		for (k = 0; k < 3; k++)
			sru[k] += a->size == round((2048u << k) * scale);
	}
	KTAP_EXPECT(ok);
	KTAP_EXPECT_INT(sru[0] + sru[1] + sru[2], job);
	*jobs = job;
	free(seen);
}

static void test_bolt_plan(void)
{
	struct sluice_flowgen_bolt b = {
		.n_hosts = 20, .rate = 10e9, .scale = 1, .duration = 1,
		.seed = 7,
	};
	struct sluice_tcpgen_plan p = { 0 }, p2 = { 0 };
	double lo = 65536, hi = 33554432, mean, sd, n_bg, want, sum = 0;
	uint32_t jobs, sru[3] = { 0 }, bg = 0, q, k;
	bool in_range = true;

	KTAP_EXPECT(within(sluice_flowgen_incast_rate(&b), 200, 1e-9, 1));
	if (!KTAP_EXPECT_INT(sluice_flowgen_plan_bolt(&p, &b, err,
						      sizeof(err)), 0)) {
		ktap_diag("%s", err);
		ktap_result("bolt_plan");
		return;
	}
	for (q = 0; q < p.n_flows && !p.fl[q].job; q++, bg++) {
		in_range &= p.fl[q].size >= lo && p.fl[q].size <= hi &&
			    p.fl[q].src != p.fl[q].dst;
		sum += p.fl[q].size;
	}
	KTAP_EXPECT(in_range);
	check_incasts(&p, 10, 20, 1, &jobs, sru);
	/* 200 incasts a second at each of 20 hosts: Poisson, var = mean */
	KTAP_EXPECT(within(jobs, 4000, sqrt(4000), 5));
	/* each SRU a third: binomial */
	for (k = 0; k < 3; k++)
		KTAP_EXPECT(within(sru[k], jobs / 3.0,
				   sqrt(jobs * (1 / 3.0) * (2 / 3.0)), 5));
	/* background: load 0.5 of 10 Gbit/s in flows of the log-uniform mean */
	mean = sluice_flowgen_loguniform_mean(lo, hi);
	KTAP_EXPECT(within(mean, (hi - lo) / log(512), 1e-6, 1));
	n_bg = 20 * 1 * 0.5 * 10e9 / (8 * mean);
	KTAP_EXPECT(within(bg, n_bg, sqrt(n_bg), 5));
	sd = sqrt((hi * hi - lo * lo) / (2 * log(hi / lo)) - mean * mean);
	KTAP_EXPECT(within(sum / bg, mean, sd / sqrt(bg), 5));

	/* the same seed, the same flows */
	KTAP_EXPECT_INT(sluice_flowgen_plan_bolt(&p2, &b, err, sizeof(err)), 0);
	KTAP_EXPECT(p2.n_flows == p.n_flows &&
		    !memcmp(p.fl, p2.fl, p.n_flows * sizeof(*p.fl)));
	sluice_tcpgen_plan_free(&p2);

	/* at 10 Mbit/s and a tenth of the sizes: 2 incasts a second */
	b.rate = 10e6;
	b.scale = 0.1;
	b.n_hosts = 4;
	b.duration = 100;
	KTAP_EXPECT(within(sluice_flowgen_incast_rate(&b), 2, 1e-9, 1));
	KTAP_EXPECT_INT(sluice_flowgen_plan_bolt(&p2, &b, err, sizeof(err)), 0);
	memset(sru, 0, sizeof(sru));
	check_incasts(&p2, 3, 4, 0.1, &jobs, sru);
	want = 4 * 100 * 2;
	KTAP_EXPECT(within(jobs, want, sqrt(want), 5));
	KTAP_EXPECT(sru[0] && sru[1] && sru[2]);
	sluice_tcpgen_plan_free(&p2);
	sluice_tcpgen_plan_free(&p);
	ktap_result("bolt_plan");
}

static void test_bolt_refused(void)
{
	struct sluice_flowgen_bolt b = {
		.n_hosts = 4, .rate = 1e9, .scale = 1, .duration = 1,
		.fan_in = 4,
	};
	struct sluice_tcpgen_plan p = { 0 };

	KTAP_EXPECT_INT(sluice_flowgen_plan_bolt(&p, &b, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "a fan-in of 4 needs 5 hosts, there are 4");
	b.fan_in = 0;
	b.load = 1;
	KTAP_EXPECT_INT(sluice_flowgen_plan_bolt(&p, &b, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "a background load of 1: it must be in (0, 1)");
	b.load = 0;
	b.n_hosts = 1;
	KTAP_EXPECT_INT(sluice_flowgen_plan_bolt(&p, &b, err, sizeof(err)),
			-EINVAL);
	b.n_hosts = 1000;
	b.duration = 1e6;
	KTAP_EXPECT_INT(sluice_flowgen_plan_bolt(&p, &b, err, sizeof(err)),
			-E2BIG);
	KTAP_EXPECT_INT(p.n_flows, 0);
	ktap_result("bolt_refused");
}

static void test_lanes(void)
{
	struct sluice_tcpgen_load l = {
		.n_hosts = 4, .dist = &sluice_tcpgen_hadoop, .scale = 1,
		.rate = 1e9, .load = 0.5, .duration = 0.5, .seed = 3,
	};
	struct sluice_tcpgen_plan p = { 0 };
	uint32_t used[4] = { 0 }, q;
	bool ok = true;

	KTAP_EXPECT_INT(sluice_tcpgen_plan(&p, &l, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_flowgen_lanes(&p, 4, 1, err, sizeof(err)), 0);
	for (q = 0; q < p.n_flows; q++) {
		ok &= p.fl[q].has_tos && !(p.fl[q].tos & 3) &&
		      p.fl[q].tos >> 2 < 4;
		used[(p.fl[q].tos >> 2) & 3]++;
	}
	KTAP_EXPECT(ok && p.n_flows > 100);
	KTAP_EXPECT(used[0] && used[1] && used[2] && used[3]);
	KTAP_EXPECT_INT(sluice_flowgen_lanes(&p, 0, 1, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_INT(sluice_flowgen_lanes(&p, 65, 1, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "65 lanes: 1 to 64, a DSCP each");
	sluice_tcpgen_plan_free(&p);
	ktap_result("lanes");
}

static void test_alone(void)
{
	/* 1448 bytes of payload a segment, 66 of headers */
	KTAP_EXPECT_INT(sluice_flowgen_wire_bytes(1, 0), 8 + 66);
	KTAP_EXPECT_INT(sluice_flowgen_wire_bytes(1448, 1500), 1448 + 66);
	KTAP_EXPECT_INT(sluice_flowgen_wire_bytes(1449, 1500), 1449 + 132);
	KTAP_EXPECT_INT(sluice_flowgen_wire_bytes(1000000, 1500),
			1000000 + 691 * 66);
	KTAP_EXPECT_INT(sluice_flowgen_wire_bytes(8948, 9000), 8948 + 66);
	/* 1 ms, then 1514 bytes at 1 Mbit/s */
	KTAP_EXPECT(within(sluice_flowgen_alone(1e-3, 1e6, 1500, 1448),
			   1e-3 + 1514 * 8 / 1e6, 1e-12, 1));
	ktap_result("alone");
}

static const char good_cdf[] =
	"# HPCC's format\n"
	"0 0\n"
	"\n"
	"1000 50   # half\n"
	"3000 100\n";

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

static void test_cdf(void)
{
	struct sluice_tcpgen_dist d;
	const char *path = cli_path("cdf.txt");

	write_text(path, good_cdf);
	if (KTAP_EXPECT_INT(sluice_flowgen_cdf_read(path, &d, err,
						    sizeof(err)), 0)) {
		KTAP_EXPECT_INT(d.n, 3);
		KTAP_EXPECT(d.pt[1].bytes == 1000 && d.pt[1].pct == 50);
		KTAP_EXPECT(within(sluice_tcpgen_mean(&d, 1), 1250, 1e-9, 1));
		KTAP_EXPECT_STR(d.name, path);
		sluice_flowgen_cdf_free(&d);
	}
	write_text(path, "0 0\n1000 fifty\n");
	KTAP_EXPECT_INT(sluice_flowgen_cdf_read(path, &d, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT(strstr(err, "cdf.txt:2: not \"SIZE PERCENT\""));
	write_text(path, "0 0\n1000 60\n900 100\n");
	KTAP_EXPECT_INT(sluice_flowgen_cdf_read(path, &d, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT(strstr(err, "point 2 goes back"));
	write_text(path, "0 0\n1000 90\n");
	KTAP_EXPECT_INT(sluice_flowgen_cdf_read(path, &d, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_INT(sluice_flowgen_cdf_read(cli_path("none"), &d, err,
						sizeof(err)), -ENOENT);
	unlink(path);
	ktap_result("cdf_file");
}

/* Two loopback hosts, not opened: enough for addresses. */
static int two_hosts(struct sluice_tcpgen *t)
{
	struct sluice_tcpgen_host h[2] = {
		{ .addr = LO(0) }, { .addr = LO(1) },
	};
	struct sluice_tcpgen_opts o = { 0 };

	return sluice_tcpgen_init(t, h, 2, &o, err, sizeof(err));
}

static void flow(struct sluice_tcpgen_flow *fl, uint32_t src, uint64_t size,
		 double start, double fct, uint32_t job)
{
	memset(fl, 0, sizeof(*fl));
	fl->src = src;
	fl->dst = !src;
	fl->size = size;
	fl->start = start;
	fl->fct = fct;
	fl->job = job;
	fl->tag = job ? SLUICE_FLOWGEN_INCAST : SLUICE_FLOWGEN_BACKGROUND;
	fl->status = fct >= 0 ? SLUICE_TCPGEN_DONE : SLUICE_TCPGEN_TIMEOUT;
	fl->sport = 40000 + src;
}

static void test_hpcc_lines(void)
{
	struct sluice_tcpgen_flow fl[4];
	double alone[4] = { 1e-3, 2e-3, 2e-3, 1e-3 };
	struct sluice_tcpgen_summary s;
	struct sluice_flowgen_incast *in;
	struct sluice_tcpgen t;
	uint32_t n_in;
	char buf[1024];
	FILE *f;

	if (!KTAP_EXPECT_INT(two_hosts(&t), 0)) {
		ktap_result("hpcc_lines");
		return;
	}
	flow(&fl[0], 0, 1000, 1.5, 2e-3, 0);
	flow(&fl[1], 1, 2048, 2.25, 3e-3, 1);
	flow(&fl[2], 1, 2048, 2.25, 5e-3, 1);
	flow(&fl[3], 0, 99, 3, -1, 2);		/* timed out: no line */
	f = fmemopen(buf, sizeof(buf), "w");
	KTAP_EXPECT_INT(sluice_flowgen_write_hpcc(f, &t, fl, 4, alone, 0), 0);
	fclose(f);
	KTAP_EXPECT_STR(buf,
			"7f000001 7f000002 40000 100 1000 1500000000 2000000 1000000\n"
			"7f000002 7f000001 40001 200 2048 2250000000 3000000 2000000\n"
			"7f000002 7f000001 40001 200 2048 2250000000 5000000 2000000\n");
	f = fmemopen(buf, sizeof(buf), "w");
	KTAP_EXPECT_INT(sluice_flowgen_write_hpcc(f, &t, fl, 1, alone,
						  SLUICE_FLOWGEN_SLOWDOWN), 0);
	fclose(f);
	KTAP_EXPECT_STR(buf,
			"# sip dip sport dport size start_ns fct_ns standalone_fct_ns slowdown\n"
			"7f000001 7f000002 40000 100 1000 1500000000 2000000 1000000 2.0000\n");

	/* incast 1 ends with its slower response; incast 2 never does */
	KTAP_EXPECT_INT(sluice_flowgen_incasts(fl, 4, &in, &n_in), 0);
	KTAP_EXPECT_INT(n_in, 2);
	KTAP_EXPECT(within(in[0].ict, 5e-3, 1e-12, 1));
	KTAP_EXPECT_INT(in[0].responses, 2);
	KTAP_EXPECT_INT(in[0].dst, 0);
	KTAP_EXPECT(in[1].ict < 0 && in[1].done == 0);
	free(in);

	/* slowdowns 2, 1.5, 2.5 */
	KTAP_EXPECT_INT(sluice_flowgen_slowdowns(fl, 4, alone, NULL, &s), 0);
	KTAP_EXPECT_INT(s.finished, 3);
	KTAP_EXPECT(within(s.mean, 2, 1e-9, 1));
	KTAP_EXPECT(within(s.max, 2.5, 1e-9, 1));
	sluice_tcpgen_free(&t);
	ktap_result("hpcc_lines");
}

static void count_progress(void *arg, const struct sluice_tcpgen_progress *pr)
{
	struct sluice_tcpgen_progress *last = arg;

	*last = *pr;
	last->elapsed += 1000;		/* marks a call */
}

/*
 * On loopback: the probes measure every path the plan uses; then a run
 * with a DSCP per flow completes, its ports known, its progress reported.
 */
static void test_loopback(void)
{
	struct sluice_tcpgen_progress last = { 0 };
	struct sluice_tcpgen_opts o = {
		.progress = count_progress, .progress_arg = &last,
	};
	struct sluice_tcpgen_host h[3] = {
		{ .addr = LO(0) }, { .addr = LO(1) }, { .addr = LO(2) },
	};
	struct sluice_flowgen_bolt b = {
		.n_hosts = 3, .rate = 1e9, .scale = 0.01, .duration = 0.2,
		.seed = 2, .incast_rate = 20,
	};
	struct sluice_tcpgen_plan p = { 0 };
	struct sluice_flowgen_paths ps;
	struct sluice_tcpgen t;
	uint32_t q, i;
	bool ok = true;
	double start;

	if (!KTAP_EXPECT_INT(sluice_tcpgen_init(&t, h, 3, &o, err,
						sizeof(err)), 0) ||
	    !KTAP_EXPECT_INT(sluice_tcpgen_open(&t, err, sizeof(err)), 0) ||
	    !KTAP_EXPECT_INT(sluice_flowgen_plan_bolt(&p, &b, err,
						      sizeof(err)), 0) ||
	    !KTAP_EXPECT_INT(sluice_flowgen_lanes(&p, 2, 1, err,
						  sizeof(err)), 0)) {
		ktap_diag("%s", err);
		goto out;
	}
	KTAP_EXPECT_INT(sluice_flowgen_paths_of(&ps, &p, -1, err,
						sizeof(err)), 0);
	KTAP_EXPECT(ps.n > 1 && ps.n <= 6);
	KTAP_EXPECT_INT(sluice_flowgen_probe(&t, &ps, 1e9, 1500, 2, 0.005,
					     err, sizeof(err)), 0);
	for (i = 0; i < ps.n; i++)
		ok &= ps.p[i].t0 >= 0 && ps.p[i].t0 < 0.5;
	KTAP_EXPECT(ok);
	KTAP_EXPECT(sluice_flowgen_path_t0(&ps, 0, 0) < 0);
	/* the probes reported no progress */
	KTAP_EXPECT_INT(last.total, 0);
	sluice_flowgen_paths_free(&ps);

	start = sluice_now();
	KTAP_EXPECT_INT(sluice_tcpgen_run(&t, &p, start, start + 10, err,
					  sizeof(err)), 0);
	for (q = 0; q < p.n_flows; q++)
		ok &= p.fl[q].status == SLUICE_TCPGEN_DONE && p.fl[q].sport;
	KTAP_EXPECT(ok);
	KTAP_EXPECT_INT(last.total, p.n_flows);
	KTAP_EXPECT_INT(last.done, p.n_flows);
	KTAP_EXPECT(last.elapsed >= 1000);
out:
	sluice_tcpgen_plan_free(&p);
	sluice_tcpgen_free(&t);
	ktap_result("loopback");
}

/* Lines of @text that are not comments, each with @fields fields. */
static int data_lines(const char *text, int fields)
{
	const char *s = text, *nl;
	int n = 0, k;
	char *copy;

	for (; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			return -1;
		if (*s == '#')
			continue;
		copy = strndup(s, nl - s);
		k = 0;
		for (char *t = strtok(copy, " "); t; t = strtok(NULL, " "))
			k++;
		free(copy);
		if (k != fields)
			return -1;
		n++;
	}
	return n;
}

/* Command lines refused, with their exit status and message. */
static const struct {
	const char	*args[8];
	int		status;
	const char	*err;
} bad[] = {
	{ { "--loopback", "3", "--rate", "fast" }, 2,
	  "--rate fast: out of range or not a value" },
	{ { "--loopback", "3", "--hosts", "10.0.0.1,10.0.0.3" }, 2,
	  "give one of --fabric, --hosts and --loopback" },
	{ { "--hosts", "10.0.0.1@", "--rate", "1gbit" }, 2,
	  "\"\" cannot be a namespace" },
	{ { "--hosts", "10.0.0.1", "--rate", "1gbit" }, 2,
	  "--hosts: 2 hosts or more" },
	{ { "--loopback", "3", "--tos", "3", "--lanes", "2" }, 2,
	  "--tos and --lanes: give one" },
	{ { "--loopback", "3", "--workload", "datamining" }, 2,
	  "unknown workload \"datamining\"" },
	{ { "--loopback", "3", "--workload", "hadoop", "--cdf", "x" }, 2,
	  "--cdf and --workload: give one" },
	{ { "--loopback", "3", "--load", "1" }, 2,
	  "--load 1: out of range" },
	{ { "--loopback", "3" }, 2, "give --rate" },
	{ { "--loopback", "3", "extra" }, 2, "unexpected argument \"extra\"" },
	{ { "--fabric", "nosuch", "--rate", "1gbit" }, 1,
	  "no fabric nosuch" },
	{ { "--loopback", "3", "--faca", "--sports", "1-9" }, 2,
	  "--faca and --sports: give one" },
	{ { "--loopback", "3", "--sports", "9-1" }, 2,
	  "--sports 9-1: out of range" },
	{ { "--loopback", "3", "--faca=" }, 2, "--faca : out of range" },
	{ { "--loopback", "4", "--workload", "pairs", "--hpcc", "-o", "x" }, 2,
	  "--workload pairs has no FCTs for --hpcc" },
};

static void test_cli(void)
{
	const char *out = cli_path("fct.txt"), *json = cli_path("fct.json");
	char *text, *j, msg[PATH_MAX + 64];
	struct run r;
	size_t i;

	RUN(&r, "--loopback", "3", "--rate", "100mbit", "--duration", "0.3",
	    "--scale", "0.05", "--rtt", "0.0001", "--lanes", "2",
	    "-o", out, "--hpcc", "-j", json);
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "bolt on 3 hosts at 100Mbit, 0.3 s: "));
	text = cli_read_all(out);
	j = cli_read_all(json);
	KTAP_EXPECT(text && data_lines(text, 8) > 10 && text[0] != '#');
	KTAP_EXPECT(j && strstr(j, "\"incasts\": {\"count\": "));
	free(text);
	free(j);
	unlink(out);
	unlink(json);

	/*
	 * Written as every sluice program writes (sluice_file_write()): a
	 * link's target replaced and the link kept, a directory refused,
	 * /dev/null written in place (as root, a rename would replace it)
	 */
	{
		char link[PATH_MAX + 16], target[PATH_MAX + 16], here[PATH_MAX];
		struct stat st;
		FILE *f;

		/* cli_path() takes turns over four buffers: out, json, ... */
		snprintf(here, sizeof(here), "%s", cli_path(""));
		snprintf(link, sizeof(link), "%slink", here);
		snprintf(target, sizeof(target), "%starget.json", here);
		f = fopen(target, "w");
		KTAP_EXPECT(f && fputs("old\n", f) >= 0 && !fclose(f));
		if (!KTAP_EXPECT_INT(symlink("target.json", link), 0))
			ktap_diag("symlink: %s", strerror(errno));
		RUN(&r, "--loopback", "2", "--rate", "100mbit", "--duration",
		    "0.2", "--scale", "0.05", "--rtt", "0.0001", "-j", link,
		    "-o", "/dev/null");
		KTAP_EXPECT_INT(r.status, 0);
		KTAP_EXPECT(!lstat(link, &st) && S_ISLNK(st.st_mode));
		KTAP_EXPECT(!stat("/dev/null", &st) && S_ISCHR(st.st_mode));
		j = cli_read_all(target);
		KTAP_EXPECT(j && strstr(j, "\"incasts\": {\"count\": "));
		free(j);
		unlink(link);
		unlink(target);
		RUN(&r, "--loopback", "2", "--rate", "100mbit", "--duration",
		    "0.2", "--scale", "0.05", "--rtt", "0.0001", "-j", here);
		KTAP_EXPECT_INT(r.status, 1);
		snprintf(msg, sizeof(msg), "sluice-flowgen: %s: is a directory",
			 here);
		/* strstr: valgrind may write to stderr first */
		if (!KTAP_EXPECT(strstr(r.err, msg)))
			ktap_diag("%s", r.err);
	}

	RUN(&r, "--help");
	KTAP_EXPECT_INT(r.status, 0);
	for (const char *const *o = (const char *const []){
		     "--fabric", "--hosts", "--loopback", "--workload",
		     "--cdf", "--rate", "--load", "--duration", "--seed",
		     "--scale", "--fan-in", "--incast-rate", "--cc", "--tos",
		     "--lanes", "--rtt", "--mtu", "--timeout", "--drain",
		     "--port", "--max-open", "--output", "--hpcc", "--json",
		     "--progress", "--no-progress", "--faca[=SOCKET]",
		     "--sports A-B", "pairs", NULL }; *o; o++)
		if (!strstr(r.out, *o))
			KTAP_EXPECT_STR(*o, "in --help");

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		cli_run(&r, NULL, bad[i].args);
		if (!KTAP_EXPECT_INT(r.status, bad[i].status) ||
		    !KTAP_EXPECT(strstr(r.err, bad[i].err)))
			ktap_diag("%s: %s", bad[i].args[0], r.err);
	}
	/* a failure leaves no file */
	RUN(&r, "--loopback", "3", "--rate", "1gbit", "--cdf",
	    cli_path("none"), "-o", out);
	KTAP_EXPECT_INT(r.status, 1);
	if (!KTAP_EXPECT(access(out, F_OK) && cli_files_in_dir() == 0))
		ktap_diag("left: %d files", cli_files_in_dir());
	ktap_result("cli");
}

/* "sip dip sport ..." lines' sports, in order, as one string. */
static void sports_of(const char *text, char *out, size_t len)
{
	unsigned int sip, dip, sport;
	const char *line;
	size_t used = 0;

	out[0] = '\0';
	for (line = text; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL)
		if (*line != '#' &&
		    sscanf(line, "%x %x %u", &sip, &dip, &sport) == 3 &&
		    used < len)
			used += snprintf(out + used, len - used, "%u ", sport);
}

/*
 * FaCa's pairs: the plan, the rates worked out by hand, and runs over
 * loopback with random ports from a seed (the same each run) and with an
 * agent nobody runs (every port the kernel's).
 */
static void test_pairs(void)
{
	struct sluice_stream_flow *fl = NULL, f[3] = {
		{ .start = 0, .stop = 2, .bytes = 500000 },
		{ .start = 1, .stop = 4, .bytes = 300000, .faca = true },
		{ .start = 0, .stop = 10, .bytes = 0, .error = ECONNREFUSED },
	};
	const char *out = cli_path("pairs.txt"), *json = cli_path("pairs.json");
	struct sluice_flowgen_rates r;
	char first[256], again[256];
	char *text, *j;
	struct run run;
	uint32_t n = 0;

	KTAP_EXPECT_INT(sluice_flowgen_pairs(5, 3, &fl, &n, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(n, 2);
	KTAP_EXPECT(fl && fl[0].src == 0 && fl[0].dst == 2 && fl[1].src == 1 &&
		    fl[1].dst == 3 && fl[1].start == 0 && fl[1].stop == 3);
	free(fl);
	KTAP_EXPECT_INT(sluice_flowgen_pairs(1, 3, &fl, &n, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "pairs need 2 hosts or more, not 1");
	/* 500 kB in 2 s, 300 kB in 2 of its 3 s (the run lasts 3), none */
	sluice_flowgen_rates(f, 3, 3, &r);
	KTAP_EXPECT(near_rel(sluice_flowgen_stream_rate(&f[0], 3), 2e6));
	KTAP_EXPECT(near_rel(sluice_flowgen_stream_rate(&f[1], 3), 1.2e6));
	KTAP_EXPECT(near_rel(r.aggregate, 3.2e6) && near_rel(r.max, 2e6) &&
		    r.min == 0 && near_rel(r.mean, 3.2e6 / 3));
	KTAP_EXPECT(r.flows == 3 && r.failed == 1 && r.faca == 1);

	RUN(&run, "--loopback", "4", "--workload", "pairs", "--duration",
	    "0.3", "--sports", "30000-30999", "--seed", "7", "-o", out, "-j",
	    json);
	KTAP_EXPECT_INT(run.status, 0);
	KTAP_EXPECT(strstr(run.out, "pairs on 4 hosts, 0.3 s: 2 flows, 0 failed; delivered "));
	text = cli_read_all(out);
	j = cli_read_all(json);
	KTAP_EXPECT(text && data_lines(text, 6) == 2);
	sports_of(text ? text : "", first, sizeof(first));
	KTAP_EXPECT(j && strstr(j, "\"workload\": \"pairs\"") &&
		    strstr(j, "\"failed\": 0"));
	free(text);
	free(j);
	RUN(&run, "--loopback", "4", "--workload", "pairs", "--duration",
	    "0.3", "--sports", "30000-30999", "--seed", "7", "-o", out);
	text = cli_read_all(out);
	sports_of(text ? text : "", again, sizeof(again));
	free(text);
	/* two ports of the range, the same two again */
	KTAP_EXPECT(strlen(first) >= 12 && first[0] == '3' && !strcmp(first, again));
	if (strcmp(first, again))
		ktap_diag("\"%s\" then \"%s\"", first, again);

	RUN(&run, "--loopback", "4", "--workload", "pairs", "--duration",
	    "0.3", "--faca=/nonexistent/agent.sock");
	KTAP_EXPECT_INT(run.status, 0);
	KTAP_EXPECT(strstr(run.out, "2 flows, 0 failed") &&
		    strstr(run.out, "source ports: 0 from the FaCa agents, 2 the kernel's"));
	unlink(out);
	unlink(json);
	ktap_result("pairs");
}

static const char dumbbell[] =
	"{\"format\": \"sluice-topology\", \"version\": 1,\n"
	" \"nodes\": [{\"name\": \"x\", \"kind\": \"switch\", \"hosts\": 2},\n"
	"           {\"name\": \"y\", \"kind\": \"switch\", \"hosts\": 1}],\n"
	" \"links\": [{\"id\": 0, \"a\": 0, \"b\": 1}]}\n";

/* A state as "fabric up --rate 10mbit --ecn 7500 --host-profile bolt". */
static void test_fabric_state(void)
{
	struct sluice_fabric_state st;
	struct sluice_graph g;
	char path[512], text[1024];
	struct run r;

	mkdir(cli_path("run"), 0755);
	mkdir(cli_path("run/fgt"), 0755);
	snprintf(path, sizeof(path), "%s", cli_path("run/fgt/topology.json"));
	write_text(path, dumbbell);
	if (!KTAP_EXPECT_INT(sluice_graph_read_file(&g, path, err,
						    sizeof(err)), 0)) {
		ktap_result("fabric_state");
		return;
	}
	snprintf(text, sizeof(text),
		 "sluice-fabric 1\nname fgt\ntopology %s\nhash %016llx\n"
		 "hosts-per-switch default\nqdisc yes rate 10mbit pfc 3\n"
		 "flow-control pfc\necn 7500\nhost-profile bolt initcwnd 42\n"
		 "end\n", path, (unsigned long long)sluice_graph_hash(&g));
	sluice_graph_free(&g);
	write_text(cli_path("run/fgt/fabric"), text);
	if (KTAP_EXPECT_INT(sluice_fabric_state_read("fgt", &st, err,
						     sizeof(err)), 0)) {
		KTAP_EXPECT_INT(st.f.n_hosts, 3);
		KTAP_EXPECT_INT(st.ecn, 7500);
		KTAP_EXPECT_INT(st.initcwnd, 42);
		KTAP_EXPECT_STR(st.qdisc_args, "rate 10mbit pfc 3");
		sluice_fabric_state_free(&st);
	}
	/* the rate from the state; the first host's namespace is missing */
	RUN(&r, "--fabric", "fgt");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "network namespace fgt-x-h0 does not exist"));
	write_text(cli_path("run/fgt/fabric"), "sluice-fabric 1\nname fgt\nbogus\n");
	KTAP_EXPECT_INT(sluice_fabric_state_read("fgt", &st, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT(strstr(err, "run/fgt/fabric:3: not a fabric state file"));
	unlink(cli_path("run/fgt/fabric"));
	unlink(path);
	rmdir(cli_path("run/fgt"));
	rmdir(cli_path("run"));
	ktap_result("fabric_state");
}

int main(void)
{
	cli_init_binary("FLOWGEN", "../flowgen/sluice-flowgen");
	cli_mkdtemp("flowgen");
	setenv("SLUICE_RUN_DIR", cli_path("run"), 1);
	ktap_plan(10);
	test_bolt_plan();
	test_bolt_refused();
	test_lanes();
	test_alone();
	test_cdf();
	test_hpcc_lines();
	test_loopback();
	test_fabric_state();
	test_cli();
	test_pairs();
	cli_rmdir();
	return ktap_exit();
}
