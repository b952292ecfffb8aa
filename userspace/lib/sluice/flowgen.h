/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Workloads and FCT reports for sluice-flowgen (lib/fabric/flowgen.c), on
 * top of the TCP engine of sluice/tcpgen.h (one connection per flow):
 *
 * - TCP-Bolt's workload (Stephens et al., "Practical DCB for Improved Data
 *   Center Networks", INFOCOM 2014, Section IV-A-3): partition-aggregate
 *   incasts arrive at every host as a Poisson process (200 a second at
 *   10 Gbit/s); the host, the aggregator, asks 10 other random hosts for
 *   a server request unit (SRU) of 2, 4 or 8 KB, equally likely, each
 *   response a flow of its own; besides, every host keeps one background
 *   flow to a random host going on average, sized from 64 KB to 32 MB;
 * - a lane per flow: its DSCP, for EDST's lanes (a flow picks one);
 * - the FCT of a flow alone, the denominator of its slowdown;
 * - one line per flow in the format of HPCC's fct.txt, which HPCC's
 *   analysis/fct_analysis.py reads.
 *
 * Functions that fail return a negative errno with a message in @err.
 */
#ifndef _SLUICE_FLOWGEN_H
#define _SLUICE_FLOWGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sluice/tcpgen.h>
#include <sluice/tcpstream.h>

/* The seed's numbers, at its 10 Gbit/s. */
#define SLUICE_FLOWGEN_FAN_IN		10
#define SLUICE_FLOWGEN_INCASTS		200.0	/* per host and second */
#define SLUICE_FLOWGEN_SEED_RATE	10e9	/* bit/s */
#define SLUICE_FLOWGEN_BG_MIN		(64.0 * 1024)
#define SLUICE_FLOWGEN_BG_MAX		(32.0 * 1024 * 1024)
/* Background load for one background flow per host on average. */
#define SLUICE_FLOWGEN_BG_LOAD		0.5

/* The tags of a TCP-Bolt plan's flows. */
enum sluice_flowgen_kind {
	SLUICE_FLOWGEN_BACKGROUND,
	SLUICE_FLOWGEN_INCAST,
};

/* TCP-Bolt's workload; a zero means the seed's value (scaled). */
struct sluice_flowgen_bolt {
	uint32_t	n_hosts;	/* at least 2 */
	double		rate;		/* a host's link, bit/s */
	double		scale;		/* every size times this, > 0 */
	double		duration;	/* arrivals in [0, it) s */
	uint64_t	seed;
	uint32_t	fan_in;		/* 0: 10; at most n_hosts - 1 */
	/* incasts per host and second; 0: sluice_flowgen_incast_rate() */
	double		incast_rate;
	double		load;		/* background, of the link; 0: 0.5 */
	double		bg_min, bg_max;	/* bytes, before scaling */
};

/* O(1) each */
/* Time: O(1). */
double sluice_flowgen_incast_rate(const struct sluice_flowgen_bolt *b);
double sluice_flowgen_loguniform_mean(double min, double max);
uint64_t sluice_flowgen_loguniform(double min, double max,
				   struct sluice_rng *r);
/*
 * O(F + hosts) for F flows planned. Time: O(F + hosts) for F flows: hosts *
 * duration * (incast rate * fan-in + background load * rate / (8 * mean size)).
 */
int sluice_flowgen_plan_bolt(struct sluice_tcpgen_plan *p,
			     const struct sluice_flowgen_bolt *b,
			     char *err, size_t errlen);
/* O(flows). Time: O(flows). */
int sluice_flowgen_lanes(struct sluice_tcpgen_plan *p, uint32_t lanes,
			 uint64_t seed, char *err, size_t errlen);

/* A distribution read from a file, O(lines): sluice_flowgen_cdf_free() it. */
/* Time: O(lines). */
int sluice_flowgen_cdf_read(const char *path, struct sluice_tcpgen_dist *d,
			    char *err, size_t errlen);
void sluice_flowgen_cdf_free(struct sluice_tcpgen_dist *d);

/*
 * A flow alone: t0 + wire(size) * 8 / rate, t0 what does not depend on
 * the size (the handshake's round trip and the data's one-way delay).
 */
#define SLUICE_FLOWGEN_MTU		1500
#define SLUICE_FLOWGEN_HDRS		66	/* Ethernet, IPv4, TCP + TS */

/* O(1) each */
/* Time: O(1). */
uint64_t sluice_flowgen_wire_bytes(uint64_t size, uint32_t mtu);
/* Time: O(1). */
double sluice_flowgen_alone(double t0, double rate, uint32_t mtu,
			    uint64_t size);

/* The fixed part of a flow alone per pair of hosts, by (src, dst). */
struct sluice_flowgen_path {
	uint32_t	src, dst;
	double		t0;		/* s; negative: never measured */
};

struct sluice_flowgen_paths {
	struct sluice_flowgen_path	*p;
	uint32_t			n;
};

/* O(F log F) for F flows. Time: O(F log F) for F flows. */
int sluice_flowgen_paths_of(struct sluice_flowgen_paths *ps,
			    const struct sluice_tcpgen_plan *p, double t0,
			    char *err, size_t errlen);
/*
 * tries * paths * gap seconds; O(paths log paths) besides. Time: @tries * paths
 * * @gap seconds, and O(paths log paths).
 */
int sluice_flowgen_probe(struct sluice_tcpgen *t,
			 struct sluice_flowgen_paths *ps, double rate,
			 uint32_t mtu, uint32_t tries, double gap,
			 char *err, size_t errlen);
/* O(log paths) */
double sluice_flowgen_path_t0(const struct sluice_flowgen_paths *ps,
			      uint32_t src, uint32_t dst);
void sluice_flowgen_paths_free(struct sluice_flowgen_paths *ps);

/* Every incast of a plan, once run. */
struct sluice_flowgen_incast {
	uint32_t	job;		/* as its flows have it */
	uint32_t	dst;		/* the aggregator */
	uint32_t	responses, done;
	double		start;		/* s, planned */
	/* the last response's completion minus the start; < 0: not all */
	double		ict;
};

/* O(n + incasts). Time: O(n + jobs). */
int sluice_flowgen_incasts(const struct sluice_tcpgen_flow *fl, uint32_t n,
			   struct sluice_flowgen_incast **out,
			   uint32_t *n_out);
/* O(n log n). Time: O(n log n). */
int sluice_flowgen_slowdowns(const struct sluice_tcpgen_flow *fl, uint32_t n,
			     const double *alone,
			     const struct sluice_tcpgen_filter *f,
			     struct sluice_tcpgen_summary *s);

/* HPCC's dport: fct_analysis.py -t 0 takes 100, -t 1 (incasts) 200. */
#define SLUICE_FLOWGEN_DPORT_FLOW	100
#define SLUICE_FLOWGEN_DPORT_INCAST	200

/* sluice_flowgen_write_hpcc() flags */
#define SLUICE_FLOWGEN_SLOWDOWN		(1u << 0)	/* header, 9th column */

/* O(n). Time: O(n). */
int sluice_flowgen_write_hpcc(FILE *out, const struct sluice_tcpgen *t,
			      const struct sluice_tcpgen_flow *fl, uint32_t n,
			      const double *alone, unsigned int flags);

/*
 * FaCa's IP pairs (../shared/seeds/003, Section 6.1): host i keeps one
 * long-lived flow (sluice/tcpstream.h) to host i + n_hosts / 2, for every
 * i < n_hosts / 2, from 0 to @duration s, so that no host sends or
 * receives two flows.  Sets *@fl (calloc()ed; sluice_stream_free() and
 * free() it) and *@n.  Time: O(hosts).
 */
int sluice_flowgen_pairs(uint32_t n_hosts, double duration,
			 struct sluice_stream_flow **fl, uint32_t *n,
			 char *err, size_t errlen);

/* What long-lived flows delivered, in bit/s over each flow's life. */
struct sluice_flowgen_rates {
	uint32_t	flows, failed;	/* failed: an error, whatever came */
	uint32_t	faca;		/* ports the FaCa agent chose */
	double		aggregate;	/* the sum */
	double		min, mean, max;	/* per flow */
};

/* O(n) */
void sluice_flowgen_rates(const struct sluice_stream_flow *fl, uint32_t n,
			  double duration, struct sluice_flowgen_rates *r);
/* A flow's delivered rate, bit/s over its life within @duration. O(1). */
double sluice_flowgen_stream_rate(const struct sluice_stream_flow *f,
				  double duration);

#endif /* _SLUICE_FLOWGEN_H */
