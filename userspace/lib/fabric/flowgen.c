// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Workloads and FCT reports for sluice-flowgen (sluice/flowgen.h).
 *
 * TCP-Bolt's workload, as the paper leaves it open:
 * - "KB" and "MB" are 1024-based: SRUs of 2048, 4096 and 8192 bytes,
 *   background flows from 65536 to 33554432 bytes.
 * - Background sizes are log-uniform ("sized randomly from 64 KB to
 *   32 MB"): every doubling of size is as likely, so that the short
 *   messages the paper counts among them (64-512 KB) are a third of the
 *   flows, where a uniform draw would put 98 % of the flows above 700 KB
 *   and leave the small end of Fig. 1's sizes nearly empty.  The mean is
 *   (max - min) / ln(max / min), 5.12 MiB.
 * - "Each host averages one background flow": open-loop arrivals cannot
 *   hold a number of flows, only a load.  Background flows arrive at every
 *   host as a Poisson process at a share of its link (the load); a host's
 *   link shared by its flows is a processor-sharing queue, whose mean
 *   number of flows is load / (1 - load) whatever the sizes: one at 0.5,
 *   the default.
 * - The incast rate keeps the seed's share of the link: 200 incasts a
 *   second at 10 Gbit/s, 10 responses of 4.67 KB on average, is 0.76 % of
 *   it; at another rate and size scale, 200 * rate / 10 Gbit/s / scale.
 * - Background flows and incasts draw from two generators of the seed, so
 *   that changing one leaves the other as it was.
 *
 * A flow alone: HPCC's simulator (scratch/third.cc, qp_finish()) writes
 * as a flow's standalone FCT its path's base round trip plus its bytes,
 * headers included, at the path's bottleneck rate.  A TCP flow here is a
 * new connection, timed from its planned start until its destination has
 * read the last byte: alone, a round trip for the handshake, then the
 * one-way delay, then its bytes at the bottleneck rate: t0 + wire * 8 /
 * rate.  t0 is 1.5 round trips of a small packet when the caller gives
 * the round trip, or measured: the fastest of a few flows of one segment
 * sent alone on the path, less that segment's bytes at the rate.  The
 * bytes are those the sluice qdisc counts: the payload and, per segment,
 * Ethernet's 14 bytes, IPv4's 20 and TCP's 32 with timestamps (the MPLS
 * labels a fabric path adds between switches are left out: 4 bytes each).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/file.h>
#include <sluice/flowgen.h>
#include <sluice/experiment.h>
#include "graph/internal.h"

#define MAX_FLOWS	1e8
/* A second generator of the same seed: the golden ratio's bits. */
#define INCAST_STREAM	0x9e3779b97f4a7c15ull
#define LANES_MAX	64		/* DSCP has 6 bits */
#define IP_TCP_HDRS	52		/* IPv4, TCP with timestamps */

static const double sru_bytes[] = { 2048, 4096, 8192 };

/**
 * sluice_flowgen_incast_rate() - incasts per host and second
 * @b:	the workload
 *
 * @b->incast_rate, else the seed's share of the link: 200 a second at
 * 10 Gbit/s, as many fewer as the link is slower or the sizes bigger.
 */
double sluice_flowgen_incast_rate(const struct sluice_flowgen_bolt *b)
{
	if (b->incast_rate)
		return b->incast_rate;
	return SLUICE_FLOWGEN_INCASTS * b->rate / SLUICE_FLOWGEN_SEED_RATE /
	       b->scale;
}

/* The mean of a log-uniform size in [@min, @max], @min > 0.  O(1). */
double sluice_flowgen_loguniform_mean(double min, double max)
{
	return max > min ? (max - min) / log(max / min) : min;
}

/* A log-uniform size in [@min, @max], rounded, at least 1.  O(1). */
uint64_t sluice_flowgen_loguniform(double min, double max,
				   struct sluice_rng *r)
{
	double x = round(min * pow(max / min, sluice_tcpgen_uniform(r)));

	return x < 1 ? 1 : (uint64_t)x;
}

static uint64_t scaled(double bytes, double scale)
{
	double x = round(bytes * scale);

	return x < 1 ? 1 : (uint64_t)x;
}

/* An exponential gap of mean @mean. */
static double gap(double mean, struct sluice_rng *r)
{
	return -mean * log(1 - sluice_tcpgen_uniform(r));
}

/* A flow at the end of @p; NULL: no memory. */
static struct sluice_tcpgen_flow *add(struct sluice_tcpgen_plan *p,
				      uint32_t src, uint32_t dst,
				      uint64_t size, double start,
				      uint32_t tag, uint32_t job)
{
	struct sluice_tcpgen_flow *fl = sluice_tcpgen_plan_add(p);

	if (!fl)
		return NULL;
	fl->src = src;
	fl->dst = dst;
	fl->size = size;
	fl->start = start;
	fl->tag = tag;
	fl->job = job;
	return fl;
}

/* Every host's background flows: Poisson arrivals at @load of its link. */
static int plan_background(struct sluice_tcpgen_plan *p,
			   const struct sluice_flowgen_bolt *b, double load,
			   double min, double max)
{
	double mean = sluice_flowgen_loguniform_mean(min, max) * 8 /
		      (load * b->rate), at;
	uint32_t k, d, dst;
	struct sluice_rng r;
	uint64_t size;

	sluice_rng_seed(&r, b->seed);
	for (k = 0; k < b->n_hosts; k++)
		for (at = gap(mean, &r); at < b->duration;
		     at += gap(mean, &r)) {
			d = sluice_rng_below(&r, b->n_hosts - 1);
			dst = d >= k ? d + 1 : d;
			size = sluice_flowgen_loguniform(min, max, &r);
			if (!add(p, k, dst, size, at,
				 SLUICE_FLOWGEN_BACKGROUND, 0))
				return -ENOMEM;
		}
	return 0;
}

/*
 * Every host's incasts: Poisson arrivals; each picks @fan_in responders,
 * distinct, uniform among the other hosts (a partial shuffle of @others),
 * and one SRU size for all of them.
 */
static int plan_incasts(struct sluice_tcpgen_plan *p,
			const struct sluice_flowgen_bolt *b, uint32_t fan_in,
			uint32_t *others)
{
	double mean = 1 / sluice_flowgen_incast_rate(b), at;
	uint32_t k, i, j, m = b->n_hosts - 1, tmp, job = 0;
	struct sluice_rng r;
	uint64_t size;

	sluice_rng_seed(&r, b->seed ^ INCAST_STREAM);
	for (k = 0; k < b->n_hosts; k++) {
		for (i = 0; i < m; i++)
			others[i] = i >= k ? i + 1 : i;
		for (at = gap(mean, &r); at < b->duration;
		     at += gap(mean, &r)) {
			job++;
			size = scaled(sru_bytes[sluice_rng_below(&r, 3)],
				      b->scale);
			for (i = 0; i < fan_in; i++) {
				j = i + sluice_rng_below(&r, m - i);
				tmp = others[i];
				others[i] = others[j];
				others[j] = tmp;
				if (!add(p, others[i], k, size, at,
					 SLUICE_FLOWGEN_INCAST, job))
					return -ENOMEM;
			}
		}
	}
	return 0;
}

/**
 * sluice_flowgen_plan_bolt() - TCP-Bolt's workload: incasts, background
 * @p:		flows appended to it (zeroed at first)
 * @b:		the workload; zeros are the seed's values
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * Background flows first (tag SLUICE_FLOWGEN_BACKGROUND, job 0), host by
 * host, then incasts (tag SLUICE_FLOWGEN_INCAST, jobs numbered from 1 in
 * the order planned): every response is a flow from a responder to the
 * aggregator, all of an incast planned at its arrival.  The same workload
 * and seed give the same flows.
 *
 * Return: 0, -EINVAL (a value out of range), -E2BIG (over 1e8 flows
 * expected) or -ENOMEM, with @p as it was.
 */
int sluice_flowgen_plan_bolt(struct sluice_tcpgen_plan *p,
			     const struct sluice_flowgen_bolt *b,
			     char *err, size_t errlen)
{
	double load = b->load ? b->load : SLUICE_FLOWGEN_BG_LOAD;
	double min = b->bg_min ? b->bg_min : SLUICE_FLOWGEN_BG_MIN;
	double max = b->bg_max ? b->bg_max : SLUICE_FLOWGEN_BG_MAX;
	uint32_t fan_in = b->fan_in, n0 = p->n_flows, *others;
	double expected;
	int ret;

	if (b->n_hosts < 2 || !(b->rate > 0) || !isfinite(b->rate) ||
	    !(b->scale > 0) || !isfinite(b->scale) ||
	    !(b->duration > 0) || !isfinite(b->duration))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "a workload needs 2 hosts or more, and a rate, a scale and a duration above 0");
	if (!(load > 0) || load >= 1)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "a background load of %g: it must be in (0, 1)",
				     load);
	if (!(min >= 1) || !(max >= min) || !isfinite(max))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "background sizes from %g to %g bytes",
				     min, max);
	if (b->incast_rate < 0 || !isfinite(b->incast_rate) ||
	    !(sluice_flowgen_incast_rate(b) > 0))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%g incasts a second", b->incast_rate);
	if (fan_in >= b->n_hosts)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "a fan-in of %u needs %u hosts, there are %u",
				     fan_in, fan_in + 1, b->n_hosts);
	if (!fan_in)
		fan_in = b->n_hosts > SLUICE_FLOWGEN_FAN_IN ?
			 SLUICE_FLOWGEN_FAN_IN : b->n_hosts - 1;
	min *= b->scale;
	max *= b->scale;
	expected = b->n_hosts * b->duration *
		   (sluice_flowgen_incast_rate(b) * fan_in + load * b->rate /
		    (8 * sluice_flowgen_loguniform_mean(min, max)));
	if (!(expected <= MAX_FLOWS))
		return sluice_i_errf(err, errlen, -E2BIG,
				     "about %g flows: too many, scale the sizes up or shorten the run",
				     expected);
	others = malloc(b->n_hosts * sizeof(*others));
	ret = others ? plan_background(p, b, load, min, max) : -ENOMEM;
	if (!ret)
		ret = plan_incasts(p, b, fan_in, others);
	free(others);
	if (ret) {
		p->n_flows = n0;
		return sluice_i_errf(err, errlen, ret, "out of memory");
	}
	return 0;
}

/**
 * sluice_flowgen_lanes() - a random lane for every flow: its DSCP
 * @p:		the flows; each gets DSCP = its lane
 * @lanes:	how many, 1 to 64
 * @seed:	the lanes' generator's
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * TCP-Bolt picks a tree per flow, at random: lane i is DSCP i, uniform.
 *
 * Return: 0 or -EINVAL.
 */
int sluice_flowgen_lanes(struct sluice_tcpgen_plan *p, uint32_t lanes,
			 uint64_t seed, char *err, size_t errlen)
{
	struct sluice_rng r;
	uint32_t q;

	if (!lanes || lanes > LANES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%u lanes: 1 to %u, a DSCP each", lanes,
				     LANES_MAX);
	sluice_rng_seed(&r, seed);
	for (q = 0; q < p->n_flows; q++) {
		p->fl[q].has_tos = true;
		p->fl[q].tos = sluice_rng_below(&r, lanes) << 2;
	}
	return 0;
}

static int cdf_add(struct sluice_tcpgen_cdf **pt, uint64_t *cap, uint32_t n,
		   double bytes, double pct)
{
	if (SLUICE_I_GROW(*pt, *cap, (uint64_t)n + 1))
		return -ENOMEM;
	(*pt)[n].bytes = bytes;
	(*pt)[n].pct = pct;
	return 0;
}

/**
 * sluice_flowgen_cdf_read() - a distribution in HPCC's CDF format
 * @path:	the file: per line a size in bytes and its CDF in percent,
 *		from 0 to 100, as HPCC's traffic_gen/ has them; blank lines
 *		and anything from '#' on are skipped
 * @d:		filled, named @path; sluice_flowgen_cdf_free() it
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * Return: 0, -EINVAL (a bad line or CDF), -ENOMEM or the errno of @path.
 */
int sluice_flowgen_cdf_read(const char *path, struct sluice_tcpgen_dist *d,
			    char *err, size_t errlen)
{
	struct sluice_tcpgen_cdf *pt = NULL;
	char *line = NULL, *s, *end;
	double bytes, pct;
	uint64_t cap = 0;
	size_t len = 0;
	int lineno = 0, ret = 0;
	uint32_t n = 0;
	FILE *f;

	memset(d, 0, sizeof(*d));
	ret = sluice_file_open(path, &f, err, errlen);
	if (ret)
		return ret;
	while (!ret && getline(&line, &len, f) > 0) {
		lineno++;
		line[strcspn(line, "#\n")] = '\0';
		s = line + strspn(line, " \t\r");
		if (!*s)
			continue;
		bytes = strtod(s, &end);
		pct = end != s ? strtod(end, &s) : NAN;
		if (s == end || s[strspn(s, " \t\r")] || !isfinite(bytes) ||
		    !isfinite(pct))
			ret = sluice_i_errf(err, errlen, -EINVAL,
					    "%s:%d: not \"SIZE PERCENT\"",
					    path, lineno);
		else if (cdf_add(&pt, &cap, n++, bytes, pct))
			ret = sluice_i_errf(err, errlen, -ENOMEM,
					    "out of memory");
	}
	free(line);
	sluice_file_close(f);
	d->pt = pt;
	d->n = n;
	d->name = strdup(path);
	if (!ret && !d->name)
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	if (!ret)
		ret = sluice_tcpgen_dist_check(d, err, errlen);
	if (ret)
		sluice_flowgen_cdf_free(d);
	return ret;
}

void sluice_flowgen_cdf_free(struct sluice_tcpgen_dist *d)
{
	free((void *)d->pt);
	free((void *)d->name);
	memset(d, 0, sizeof(*d));
}

/**
 * sluice_flowgen_wire_bytes() - the bytes a flow puts on a link
 * @size:	its payload (a flow sends SLUICE_TCPGEN_HDR bytes at least)
 * @mtu:	the hosts' IP MTU; 0: 1500
 *
 * The payload in segments of MTU - 52 bytes (IPv4, TCP with timestamps),
 * each with Ethernet's, IPv4's and TCP's 66 bytes of headers: what the
 * sluice qdisc counts against its rate.
 */
uint64_t sluice_flowgen_wire_bytes(uint64_t size, uint32_t mtu)
{
	uint64_t mss = (mtu ? mtu : SLUICE_FLOWGEN_MTU) - IP_TCP_HDRS;

	if (size < SLUICE_TCPGEN_HDR)
		size = SLUICE_TCPGEN_HDR;
	return size + (size + mss - 1) / mss * SLUICE_FLOWGEN_HDRS;
}

/**
 * sluice_flowgen_alone() - the FCT of a flow alone on its path
 * @t0:		the part that does not depend on the size, s
 * @rate:	the path's bottleneck, bit/s
 * @mtu:	as for sluice_flowgen_wire_bytes()
 * @size:	the flow's bytes
 *
 * @t0 + wire bytes * 8 / @rate (the top of lib/fabric/flowgen.c says why).
 */
double sluice_flowgen_alone(double t0, double rate, uint32_t mtu,
			    uint64_t size)
{
	return t0 + sluice_flowgen_wire_bytes(size, mtu) * 8.0 / rate;
}

static int cmp_path(const void *a, const void *b)
{
	const struct sluice_flowgen_path *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

/**
 * sluice_flowgen_paths_of() - the pairs of hosts a plan's flows use
 * @ps:		filled, by source then destination; paths_free() it
 * @p:		the plan
 * @t0:		every pair's t0, s (negative: to be probed)
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * Return: 0 or -ENOMEM.
 */
int sluice_flowgen_paths_of(struct sluice_flowgen_paths *ps,
			    const struct sluice_tcpgen_plan *p, double t0,
			    char *err, size_t errlen)
{
	uint32_t q, n = 0;

	memset(ps, 0, sizeof(*ps));
	ps->p = sluice_i_calloc(p->n_flows ? p->n_flows : 1, sizeof(*ps->p));
	if (!ps->p)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	for (q = 0; q < p->n_flows; q++) {
		ps->p[q].src = p->fl[q].src;
		ps->p[q].dst = p->fl[q].dst;
		ps->p[q].t0 = t0;
	}
	qsort(ps->p, p->n_flows, sizeof(*ps->p), cmp_path);
	for (q = 0; q < p->n_flows; q++)
		if (!n || cmp_path(&ps->p[n - 1], &ps->p[q]))
			ps->p[n++] = ps->p[q];
	ps->n = n;
	return 0;
}

/* The path of (@src, @dst) in @ps, or NULL.  O(log paths). */
static struct sluice_flowgen_path *path_find(
	const struct sluice_flowgen_paths *ps, uint32_t src, uint32_t dst)
{
	struct sluice_flowgen_path key = { .src = src, .dst = dst };

	return ps->n ? bsearch(&key, ps->p, ps->n, sizeof(*ps->p), cmp_path) :
		       NULL;
}

/* The t0 of (@src, @dst), negative if unknown.  O(log paths). */
double sluice_flowgen_path_t0(const struct sluice_flowgen_paths *ps,
			      uint32_t src, uint32_t dst)
{
	const struct sluice_flowgen_path *path = path_find(ps, src, dst);

	return path ? path->t0 : -1;
}

/**
 * sluice_flowgen_probe() - measure t0 on every path of @ps
 * @t:		an open engine, its hosts those of @ps
 * @ps:		the paths; each one's t0 is measured
 * @rate:	the bottleneck, bit/s: the probe's own bytes at it are
 *		taken off
 * @mtu:	as for sluice_flowgen_wire_bytes()
 * @tries:	probes per path, at least 1: the fastest counts
 * @gap:	s between probes, so that none waits for another
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * A probe is a flow of one segment (SLUICE_TCPGEN_HDR bytes) alone on its
 * path: from its connect() to its last byte read, a handshake and a
 * one-way trip.  Probes go one path after the other, @tries rounds, @gap
 * apart, with the engine's options (congestion control, DSCP) but no
 * progress reports.
 *
 * Return: 0, -ETIMEDOUT (a path none of whose probes completed), or as
 * sluice_tcpgen_run().
 */
int sluice_flowgen_probe(struct sluice_tcpgen *t,
			 struct sluice_flowgen_paths *ps, double rate,
			 uint32_t mtu, uint32_t tries, double gap,
			 char *err, size_t errlen)
{
	double own = sluice_flowgen_wire_bytes(1, mtu) * 8.0 / rate, start, x;
	sluice_tcpgen_progress_fn *report;
	struct sluice_tcpgen_plan p = { 0 };
	struct sluice_flowgen_path *path;
	uint32_t i, q;
	int ret = 0;

	if (!tries || !(gap > 0) || !isfinite(gap) || !(rate > 0))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "probes need a try, a gap and a rate above 0");
	for (i = 0; i < ps->n; i++)
		ps->p[i].t0 = -1;
	for (q = 0; !ret && q < tries * ps->n; q++)
		if (!add(&p, ps->p[q % ps->n].src, ps->p[q % ps->n].dst, 1,
			 q * gap, 0, 0))
			ret = sluice_i_errf(err, errlen, -ENOMEM,
					    "out of memory");
	/* the caller's progress is the workload's: probes report none */
	report = t->o.progress;
	t->o.progress = NULL;
	start = sluice_now() + 0.1;
	if (!ret)
		ret = sluice_tcpgen_run(t, &p, start,
					start + tries * ps->n * gap + 2, err,
					errlen);
	t->o.progress = report;
	for (q = 0; !ret && q < p.n_flows; q++) {
		if (p.fl[q].status != SLUICE_TCPGEN_DONE)
			continue;
		path = &ps->p[q % ps->n];
		x = p.fl[q].fct - p.fl[q].late - own;
		x = x > 0 ? x : 0;
		if (path->t0 < 0 || x < path->t0)
			path->t0 = x;
	}
	for (i = 0; !ret && i < ps->n; i++)
		if (ps->p[i].t0 < 0)
			ret = sluice_i_errf(err, errlen, -ETIMEDOUT,
					    "no probe from host %u to host %u completed",
					    ps->p[i].src, ps->p[i].dst);
	sluice_tcpgen_plan_free(&p);
	return ret;
}

void sluice_flowgen_paths_free(struct sluice_flowgen_paths *ps)
{
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}

/**
 * sluice_flowgen_incasts() - every incast of a run, its completion time
 * @fl:		the flows after sluice_tcpgen_run()
 * @n:		how many
 * @out:	filled, by job; free() it
 * @n_out:	how many incasts
 *
 * An incast completes when its last response does: its completion time is
 * that moment minus its planned start, negative unless every response is
 * DONE.
 *
 * Return: 0 or -ENOMEM.
 */
int sluice_flowgen_incasts(const struct sluice_tcpgen_flow *fl, uint32_t n,
			   struct sluice_flowgen_incast **out,
			   uint32_t *n_out)
{
	struct sluice_flowgen_incast *v, *c;
	uint32_t q, jobs = 0, m = 0;
	double *end;

	for (q = 0; q < n; q++)
		jobs = fl[q].job > jobs ? fl[q].job : jobs;
	v = sluice_i_calloc(jobs ? jobs : 1, sizeof(*v));
	end = sluice_i_calloc(jobs ? jobs : 1, sizeof(*end));
	if (!v || !end) {
		free(v);
		free(end);
		return -ENOMEM;
	}
	for (q = 0; q < n; q++) {
		if (!fl[q].job)
			continue;
		c = &v[fl[q].job - 1];
		c->job = fl[q].job;
		c->dst = fl[q].dst;
		c->start = fl[q].start;
		c->responses++;
		if (fl[q].status != SLUICE_TCPGEN_DONE)
			continue;
		c->done++;
		if (fl[q].start + fl[q].fct > end[fl[q].job - 1])
			end[fl[q].job - 1] = fl[q].start + fl[q].fct;
	}
	for (q = 0; q < jobs; q++) {
		if (!v[q].responses)
			continue;
		v[q].ict = v[q].done == v[q].responses ? end[q] - v[q].start :
			   -1;
		v[m++] = v[q];
	}
	free(end);
	*out = v;
	*n_out = m;
	return 0;
}

/**
 * sluice_flowgen_slowdowns() - a summary of slowdowns, not FCTs
 * @fl:		flows after sluice_tcpgen_run()
 * @n:		how many
 * @alone:	each flow's FCT alone, s, above 0
 * @f:		which to count; NULL: all
 * @s:		as sluice_tcpgen_summarize() fills it, of FCT / alone
 *
 * Return: 0 or -ENOMEM.
 */
int sluice_flowgen_slowdowns(const struct sluice_tcpgen_flow *fl, uint32_t n,
			     const double *alone,
			     const struct sluice_tcpgen_filter *f,
			     struct sluice_tcpgen_summary *s)
{
	struct sluice_tcpgen_flow *v = sluice_i_calloc(n ? n : 1, sizeof(*v));
	uint32_t q;
	int ret;

	if (!v) {
		memset(s, 0, sizeof(*s));
		return -ENOMEM;
	}
	memcpy(v, fl, n * sizeof(*v));
	for (q = 0; q < n; q++)
		if (v[q].status == SLUICE_TCPGEN_DONE)
			v[q].fct /= alone[q];
	ret = sluice_tcpgen_summarize(v, n, f, s);
	free(v);
	return ret;
}

/**
 * sluice_flowgen_write_hpcc() - one line per completed flow, as HPCC's
 * @out:	where
 * @t:		the engine the flows ran on (the hosts' addresses)
 * @fl:		the flows after sluice_tcpgen_run()
 * @n:		how many
 * @alone:	each flow's FCT alone, s
 * @flags:	SLUICE_FLOWGEN_SLOWDOWN: a header line first, from '#', and
 *		the slowdown as a 9th column
 *
 * HPCC's fct.txt: "sip dip sport dport size start_time fct standalone_fct",
 * the addresses in 8 hex digits, times in ns, start_time from the run's
 * start (the planned start).  dport is HPCC's class, not the port:
 * SLUICE_FLOWGEN_DPORT_INCAST for an incast's response, else
 * SLUICE_FLOWGEN_DPORT_FLOW, which fct_analysis.py's -t 1 and -t 0 take.
 * Flows not DONE have no line, as HPCC writes only flows that finish;
 * lines come in plan order.
 *
 * Return: 0 or -EIO.
 */
int sluice_flowgen_write_hpcc(FILE *out, const struct sluice_tcpgen *t,
			      const struct sluice_tcpgen_flow *fl, uint32_t n,
			      const double *alone, unsigned int flags)
{
	bool slowdown = flags & SLUICE_FLOWGEN_SLOWDOWN;
	uint32_t q;

	if (slowdown)
		fputs("# sip dip sport dport size start_ns fct_ns standalone_fct_ns slowdown\n",
		      out);
	for (q = 0; q < n; q++) {
		if (fl[q].status != SLUICE_TCPGEN_DONE)
			continue;
		fprintf(out, "%08x %08x %u %u %llu %llu %llu %llu",
			t->h[fl[q].src].addr, t->h[fl[q].dst].addr,
			fl[q].sport,
			fl[q].job ? SLUICE_FLOWGEN_DPORT_INCAST :
				    SLUICE_FLOWGEN_DPORT_FLOW,
			(unsigned long long)fl[q].size,
			(unsigned long long)llround(fl[q].start * 1e9),
			(unsigned long long)llround(fl[q].fct * 1e9),
			(unsigned long long)llround(alone[q] * 1e9));
		if (slowdown)
			fprintf(out, " %.4f", fl[q].fct / alone[q]);
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

int sluice_flowgen_pairs(uint32_t n_hosts, double duration,
			 struct sluice_stream_flow **fl, uint32_t *n,
			 char *err, size_t errlen)
{
	uint32_t half = n_hosts / 2, i;

	if (!half)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "pairs need 2 hosts or more, not %u",
				     n_hosts);
	if (!(duration > 0) || !isfinite(duration))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "a duration of %g s", duration);
	*fl = sluice_i_calloc(half, sizeof(**fl));
	if (!*fl)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	for (i = 0; i < half; i++)
		(*fl)[i] = (struct sluice_stream_flow){
			.src = i, .dst = i + half, .start = 0,
			.stop = duration,
		};
	*n = half;
	return 0;
}

double sluice_flowgen_stream_rate(const struct sluice_stream_flow *f,
				  double duration)
{
	double life = (f->stop < duration ? f->stop : duration) - f->start;

	return life > 0 ? f->bytes * 8.0 / life : 0;
}

void sluice_flowgen_rates(const struct sluice_stream_flow *fl, uint32_t n,
			  double duration, struct sluice_flowgen_rates *r)
{
	uint32_t q;
	double v;

	memset(r, 0, sizeof(*r));
	r->flows = n;
	for (q = 0; q < n; q++) {
		v = sluice_flowgen_stream_rate(&fl[q], duration);
		r->aggregate += v;
		if (!q || v < r->min)
			r->min = v;
		if (v > r->max)
			r->max = v;
		r->failed += !!fl[q].error;
		r->faca += fl[q].faca;
	}
	r->mean = n ? r->aggregate / n : 0;
}
