/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flow completion times over TCP (lib/fabric/tcpgen.c), for workloads like
 * PortFC's Section 5.2: flows arrive at every host as a Poisson process,
 * their sizes drawn from a datacenter distribution (WebSearch, Hadoop),
 * their destinations uniform among the other hosts; an incast adds many
 * sources sending to one destination at once.
 *
 * - a distribution is a CDF table, sampled by inverse CDF with linear
 *   interpolation, its sizes scaled by the caller to the emulated rate;
 * - a plan is the list of flows, each with a planned start: deterministic
 *   for a seed, built before anything runs;
 * - the engine runs a plan from one thread: every host listens on one TCP
 *   socket made inside its namespace; a flow is a connection made inside
 *   its source's namespace at its planned start, which writes the flow's
 *   bytes (the first SLUICE_TCPGEN_HDR of them name it) to the
 *   destination; the flow completes when the destination has read them
 *   all.  Its FCT is that moment minus the planned start, so a start the
 *   engine made late counts against the flow (the lateness is kept too).
 *   A flow under SLUICE_TCPGEN_HDR bytes sends that many.  Hosts may
 *   share a namespace: "" is the caller's, where hosts at 127.0.0.x run
 *   a plan over loopback without privileges.
 * - a summary of FCTs (mean, p50, p99) over all flows or a subset.
 *
 * Functions that fail return a negative errno with a message in @err.
 */
#ifndef _SLUICE_TCPGEN_H
#define _SLUICE_TCPGEN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/fabric.h>
#include <sluice/rng.h>
#include <sluice/sport.h>

/* A flow's first bytes: magic, then its index in the plan (big endian). */
#define SLUICE_TCPGEN_HDR		8
#define SLUICE_TCPGEN_MAGIC		0x534c5443u	/* "SLTC" */
/* Flows open at once when the caller does not say. */
#define SLUICE_TCPGEN_MAX_OPEN		1024

/* One point of a CDF: P(size <= bytes) = pct / 100. */
struct sluice_tcpgen_cdf {
	double	bytes;
	double	pct;
};

/* A flow size distribution: points by rising size, from 0 % to 100 %. */
struct sluice_tcpgen_dist {
	const char			*name;
	const struct sluice_tcpgen_cdf	*pt;
	uint32_t			n;
};

extern const struct sluice_tcpgen_dist sluice_tcpgen_websearch;
extern const struct sluice_tcpgen_dist sluice_tcpgen_hadoop;

const struct sluice_tcpgen_dist *sluice_tcpgen_dist_find(const char *name);
/* Time: O(points). */
uint64_t sluice_tcpgen_sample(const struct sluice_tcpgen_dist *d,
			      double scale, struct sluice_rng *r);
/* Time: O(points). */
double sluice_tcpgen_mean(const struct sluice_tcpgen_dist *d, double scale);
double sluice_tcpgen_uniform(struct sluice_rng *r);
/* O(points). Time: O(points). */
int sluice_tcpgen_dist_check(const struct sluice_tcpgen_dist *d, char *err,
			     size_t errlen);

enum sluice_tcpgen_status {
	SLUICE_TCPGEN_PENDING,	/* not started when the run ended */
	SLUICE_TCPGEN_OPEN,	/* started, not complete when the run ended */
	SLUICE_TCPGEN_DONE,
	SLUICE_TCPGEN_TIMEOUT,	/* not complete within the flow timeout */
	SLUICE_TCPGEN_FAILED,	/* connect, write or read failed: see error */
};

struct sluice_tcpgen_flow {
	uint32_t			src, dst;	/* host indexes */
	uint64_t			size;		/* bytes, at least 1 */
	double				start;		/* planned, s after the run's */
	uint32_t			tag;		/* the caller's class */
	/* the incast (partition-aggregate job) it answers, from 1; 0: none */
	uint32_t			job;
	/* IP_TOS of both its ends (DSCP << 2) if set, else the run's */
	bool				has_tos;
	uint8_t				tos;
	/* filled by sluice_tcpgen_run() */
	enum sluice_tcpgen_status	status;
	uint16_t			sport;		/* 0: never bound */
	int				error;		/* errno, if FAILED */
	double				fct;		/* s; negative unless DONE */
	/* connect() minus the planned start, s; negative: never started */
	double				late;
	/* connect() to the first byte read, s; negative: none read */
	double				first_byte;
};

/* Flows, in the order they were planned; a flow's id is its index. */
struct sluice_tcpgen_plan {
	struct sluice_tcpgen_flow	*fl;
	uint32_t			n_flows;
	uint64_t			cap;
};

/* Poisson arrivals of flows at every host (sluice_tcpgen_plan()). */
struct sluice_tcpgen_load {
	uint32_t			n_hosts;	/* every one a source */
	const struct sluice_tcpgen_dist	*dist;
	double				scale;		/* sizes times this */
	double				rate;		/* a host's link, bit/s */
	double				load;		/* of it, in (0, 1] */
	double				duration;	/* starts in [0, it) s */
	uint64_t			seed;
	uint32_t			tag;		/* of every flow */
};

/* Time: O(F * points) for F flows, about hosts * duration / gap. */
int sluice_tcpgen_plan(struct sluice_tcpgen_plan *p,
		       const struct sluice_tcpgen_load *l,
		       char *err, size_t errlen);
/* Time: O(@n_src). */
int sluice_tcpgen_plan_incast(struct sluice_tcpgen_plan *p,
			      const uint32_t *src, uint32_t n_src,
			      uint32_t dst, uint64_t size, double start,
			      uint32_t tag, char *err, size_t errlen);
/* O(1) amortized */
/* Time: O(1) amortized. */
struct sluice_tcpgen_flow *sluice_tcpgen_plan_add(struct sluice_tcpgen_plan *p);
void sluice_tcpgen_plan_free(struct sluice_tcpgen_plan *p);

/* A host: its namespace ("" for the caller's) and IPv4 address. */
struct sluice_tcpgen_host {
	char		ns[SLUICE_NETNS_NAME_MAX];
	uint32_t	addr;		/* host order */
	uint16_t	port;		/* its listener's, once open */
	int		listen_fd;
	int		ns_fd;		/* -1: the caller's namespace */
};

/* Where a run is, for a progress report. */
struct sluice_tcpgen_progress {
	uint32_t	total;		/* flows in the plan */
	uint32_t	closed;		/* done, timed out or failed */
	uint32_t	done;		/* of those, DONE */
	uint32_t	open;		/* started, not closed */
	double		elapsed;	/* s since the run's start */
};

typedef void sluice_tcpgen_progress_fn(void *arg,
				       const struct sluice_tcpgen_progress *pr);

/*
 * How flows get their source ports, in both engines (this one and
 * sluice/tcpstream.h): the kernel's by default; with @faca, from the FaCa
 * agent of the flow's source namespace (sluice/faca.h), the lease given
 * back when the flow closes, the kernel's port when the agent cannot
 * answer (counted); with @range, one drawn at random from that range
 * for each flow, from @seed and the flow's index, the same every run (the
 * ECMP baseline to a FaCa run: random ports the hash spreads).  A port
 * is bound with SO_REUSEADDR, so flows to other destinations may share it.
 */
struct sluice_sport_opts {
	bool		faca;
	const char	*faca_socket;	/* NULL: each namespace's own agent */
	struct sluice_sport_range range;	/* min 0: not random */
	uint64_t	seed;
};

struct sluice_tcpgen_opts {
	uint16_t	port;		/* of every listener; 0: any free */
	uint32_t	max_open;	/* flows at once; 0: the default */
	double		timeout;	/* s from planned start; 0: none */
	const char	*cc;		/* TCP_CONGESTION; NULL: default */
	uint8_t		tos;		/* DSCP << 2; a flow's own wins */
	struct sluice_sport_opts sport;
	/*
	 * Called from the run's thread every @progress_every s (0: every
	 * second) and once at its end; NULL: never.
	 */
	sluice_tcpgen_progress_fn	*progress;
	void				*progress_arg;
	double				progress_every;
	/*
	 * Set (by a signal handler) to stop a run: it ends at once with
	 * -EINTR, within a second; NULL: never.
	 */
	const volatile sig_atomic_t *stop;
};

struct sluice_tcpgen {
	struct sluice_tcpgen_opts	o;
	char				cc[16];		/* TCP_CA_NAME_MAX */
	uint32_t			n_hosts;
	struct sluice_tcpgen_host	*h;
	int				self_fd;	/* our namespace */
	int				cur;		/* host the thread is in, -1 ours */
	int				epoll_fd;
	bool				no_pwait2;	/* waits to the ms */
	unsigned char			*buf;
	/* of the last run */
	uint32_t			capped;		/* starts max_open delayed */
	uint64_t			rx_stray;	/* not of an open flow */
	uint32_t			faca;		/* ports the agent chose */
	uint32_t			faca_fallbacks;	/* it could not: the kernel's */
};

/* Time: O(@n). */
int sluice_tcpgen_init(struct sluice_tcpgen *t,
		       const struct sluice_tcpgen_host *hosts, uint32_t n,
		       const struct sluice_tcpgen_opts *o,
		       char *err, size_t errlen);
/* Time: O(nodes + hosts). */
int sluice_tcpgen_init_fabric(struct sluice_tcpgen *t,
			      const struct sluice_fabric *f,
			      const struct sluice_tcpgen_opts *o,
			      char *err, size_t errlen);
/* Time: O(hosts). */
int sluice_tcpgen_open(struct sluice_tcpgen *t, char *err, size_t errlen);
/* Time: O(F log F) for F flows, besides the traffic. */
int sluice_tcpgen_run(struct sluice_tcpgen *t, struct sluice_tcpgen_plan *p,
		      double start, double until, char *err, size_t errlen);
void sluice_tcpgen_free(struct sluice_tcpgen *t);
const char *sluice_tcpgen_status_name(enum sluice_tcpgen_status s);

/* Which flows a summary counts; a zeroed filter takes them all. */
struct sluice_tcpgen_filter {
	bool		by_tag;
	uint32_t	tag;
	uint64_t	min_size;	/* sizes in [min_size, max_size) */
	uint64_t	max_size;	/* 0: no bound */
};

struct sluice_tcpgen_summary {
	uint32_t	count;		/* flows the filter takes */
	uint32_t	finished;	/* of those, DONE */
	/* FCTs of the finished, s (0 if none) */
	double		mean, p50, p99, max;
	/* the latest of their starts: whether the engine kept up */
	double		max_late;
};

/* Time: O(n log n). */
int sluice_tcpgen_summarize(const struct sluice_tcpgen_flow *fl, uint32_t n,
			    const struct sluice_tcpgen_filter *f,
			    struct sluice_tcpgen_summary *s);
/* Time: O(n log n). */
double sluice_tcpgen_percentile(double *v, uint32_t n, double pct);

#endif /* _SLUICE_TCPGEN_H */
