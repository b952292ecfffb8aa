/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The experiments' parts ("sluicectl experiment deadlock" and "bcube"):
 *
 * - a traffic engine (lib/fabric/udpgen.c): every host of a fabric sends
 *   UDP to every host under another switch (or the flows it is given), all
 *   from one process, through one socket per host opened inside the
 *   host's namespace (a socket stays in the namespace it was made in).
 *   Each host is paced by a token bucket to a rate; its socket has a
 *   small send buffer, so that a host its switch pauses (PFC) gets EAGAIN
 *   and tries again at the next tick instead of dropping: the host blocks,
 *   as a paused NIC does.  A server that pushes its own label stack is
 *   held by a window of bytes in flight instead (see .window).  The same
 *   sockets receive, and count bytes per flow from a header in the payload.
 * - the verdict of one run (lib/fabric/verdict.c, pure): from a series of
 *   delivered throughput samples, whether the fabric stopped for good.
 * - a run of that engine sampled at a fixed interval, with the machine's
 *   CPU and ARP readings around it (lib/fabric/sample.c).
 * - one route set's run of the deadlock experiment, from a fresh fabric
 *   to its counters (lib/fabric/dl_run.c).
 * - a line plot as SVG, written by hand (lib/fabric/svg.c, pure).
 * - what a run leaves to read in a fabric of this machine
 *   (lib/fabric/readings.c): a switch's port statistics, every switch's
 *   counters added up, the live deadlock detector's finding as a line.
 * - the deadlock experiment's judgement of a run against its route set's
 *   CBD check (lib/fabric/verdict.c, pure).
 *
 * Functions that fail return a negative errno with a message in @err.
 */
#ifndef _SLUICE_EXPERIMENT_H
#define _SLUICE_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <sluice/fabric.h>

/* Bytes a frame adds to its UDP payload on the wire: UDP, IPv4, Ethernet. */
#define SLUICE_UDPGEN_OVERHEAD		(8 + 20 + 14)
/* The payload's header: magic, source and destination host, sequence. */
#define SLUICE_UDPGEN_HDR		16
#define SLUICE_UDPGEN_MAGIC		0x534c4458u	/* "SLDX" */

struct sluice_udpgen_host {
	char		name[SLUICE_NETNS_NAME_MAX];
	char		ns[SLUICE_NETNS_NAME_MAX];
	uint32_t	node;
	uint32_t	addr;		/* host order */
	int		fd;
	double		tokens;		/* bytes it may send now */
	uint32_t	next;		/* its next flow, round robin */
	uint64_t	eagain;		/* sends that found the socket full */
	uint64_t	held;		/* sends the window held back */
};

struct sluice_udpgen_flow {
	uint32_t	src, dst;	/* host indexes */
	uint64_t	tx_bytes, tx_frames;	/* frames on the wire */
	uint64_t	rx_bytes, rx_frames;
	uint32_t	seq;
};

struct sluice_udpgen_opts {
	uint32_t	frame;		/* bytes on the wire per frame */
	double		rate;		/* bits/s per host */
	uint8_t		tos;		/* DSCP << 2 */
	uint16_t	port;		/* UDP port every host listens on */
	int		sndbuf;		/* SO_SNDBUF asked for */
	/*
	 * Bytes a host may have in flight (sent, not yet received), over
	 * its flows; 0: no bound.  A sender that pushes its own MPLS labels
	 * is never held back by its socket: the kernel's MPLS encapsulation
	 * detaches the frame from it (skb_orphan() in mpls_iptunnel's
	 * output), so a paused port would fill its qdisc to the limit; a
	 * window holds the host instead, as a paused NIC's send queue does.
	 */
	uint64_t	window;
};

struct sluice_udpgen {
	struct sluice_udpgen_opts	o;
	uint32_t			n_hosts;
	struct sluice_udpgen_host	*h;
	uint32_t			n_flows;
	struct sluice_udpgen_flow	*fl;
	uint32_t			*flow_first;	/* per host, n_hosts + 1 */
	uint32_t			*by_pair;	/* [src * n + dst] */
	uint64_t			send_errors;	/* not EAGAIN */
	int				last_errno;
	uint64_t			rx_bad;		/* not ours */
	double				last;		/* last step */
	unsigned char			*buf;
};

/* Time: O(H^2) for H hosts. */
int sluice_udpgen_init(struct sluice_udpgen *t,
			const struct sluice_fabric *f,
			const struct sluice_udpgen_opts *o,
			char *err, size_t errlen);
void sluice_udpgen_free(struct sluice_udpgen *t);
/* Time: O(H^2 + @n) for H hosts. */
int sluice_udpgen_init_flows(struct sluice_udpgen *t,
			      const struct sluice_fabric *f,
			      const struct sluice_udpgen_opts *o,
			      const uint32_t *src, const uint32_t *dst,
			      uint32_t n, char *err, size_t errlen);
int sluice_udpgen_open(struct sluice_udpgen *t, char *err, size_t errlen);
/* One small frame per flow: neighbours resolved before measuring. */
int sluice_udpgen_warmup(struct sluice_udpgen *t, double seconds);
void sluice_udpgen_reset(struct sluice_udpgen *t, double now);
/* Sends what the hosts' buckets allow at @now, then receives until @until. */
void sluice_udpgen_step(struct sluice_udpgen *t, double now, double until);
void sluice_udpgen_run_until(struct sluice_udpgen *t, double end, double tick);
uint64_t sluice_udpgen_rx_bytes(const struct sluice_udpgen *t);
uint64_t sluice_udpgen_tx_bytes(const struct sluice_udpgen *t);
double sluice_now(void);

/*
 * A run of the engine sampled every @interval_ms (sample.c): @n samples,
 * @sample called after each with the flows' counters as they stand.
 */
struct sluice_udpgen_sample_opts {
	uint32_t		n;
	uint32_t		interval_ms;
	double			tick;		/* s between the engine's steps */
	/* set (by a signal handler, say): stop before the next sample */
	const volatile sig_atomic_t *stop;
	void			(*sample)(void *arg, uint32_t i,
					  const struct sluice_udpgen *t);
	void			*arg;
};

/* Time: @o->n * @o->interval_ms of wall time; -EINTR if stopped. */
int sluice_udpgen_sample(struct sluice_udpgen *t,
			 const struct sluice_udpgen_sample_opts *o,
			 double *cpu_busy);
/* /proc/stat's busy and total jiffies; -1 if unreadable.  Time: O(1). */
int sluice_cpu_times(uint64_t *busy, uint64_t *total);
/*
 * Frames the kernel's ARP layer discarded unresolved, machine-wide, or -1.
 * Time: O(CPUs).
 */
int64_t sluice_arp_discards(void);

/* What happened to a route set's run, from its samples (verdict.c). */
enum sluice_verdict {
	SLUICE_VERDICT_FLOWING,		/* delivering at the end */
	SLUICE_VERDICT_DEADLOCK,	/* stopped, and a wait-for cycle */
	SLUICE_VERDICT_STOPPED,		/* stopped, no cycle found */
	SLUICE_VERDICT_RECOVERED,	/* stopped for a while, then resumed */
};

struct sluice_verdict_in {
	const uint64_t	*rx;		/* bytes delivered in each sample */
	uint32_t	n;
	uint32_t	interval_ms;
	uint32_t	quiet_ms;	/* zero this long at the end: stopped */
	/* the live detector: 1 found a cycle, 0 found none, -1 not run */
	int		cycle;
};

struct sluice_verdict_out {
	enum sluice_verdict	verdict;
	/* first sample of the final run of zero samples, or n if none */
	uint32_t		zero_from;
	/* the longest run of zero samples anywhere, in samples */
	uint32_t		longest_zero;
	/* seconds from the start to the stop that lasted (-1: none) */
	double			stopped_at;
};

void sluice_verdict(const struct sluice_verdict_in *in,
		    struct sluice_verdict_out *out);
const char *sluice_verdict_name(enum sluice_verdict v);

/*
 * What a route set's run did against what its CBD check predicts
 * (verdict.c): a set with a CBD can deadlock and, without a watchdog that
 * drops, should (a run where none formed is "not as predicted", with the
 * reason: a CBD makes a deadlock possible, not certain); with a watchdog
 * that drops (drop, forward), its storms should break it; a CBD-free set
 * should deliver throughout.
 */
struct sluice_dl_judge_in {
	struct sluice_verdict_in	run;	/* the samples, the detector */
	bool				cbd;	/* the routes have a CBD */
	/* the PFC watchdog's action: "drop", "forward", "alert"; NULL none */
	const char			*wd_action;
	uint64_t			wd_storms, wd_drops;	/* its counts */
};

struct sluice_dl_judge_out {
	struct sluice_verdict_out	v;
	bool				wd_broke;	/* the watchdog broke it */
	bool				as_predicted;
	char				why[256];	/* when not: why */
};

/* Time: O(@in->run.n). */
void sluice_dl_judge(const struct sluice_dl_judge_in *in,
		     struct sluice_dl_judge_out *out);

/*
 * A fabric's switch @u's port statistics (STATS_GET in its namespace):
 * @pi malloc()ed (free() it), @n ports.  0 or a negative errno, @err
 * naming the switch.  Time: one generic netlink request.
 */
struct sluice_port_info;
int sluice_fabric_switch_stats(const struct sluice_fabric *f, uint32_t u,
			       struct sluice_port_info **pi, uint32_t *n,
			       char *err, size_t errlen);

/* What the counters of a fabric's switches add up to (experiment deadlock). */
struct sluice_fabric_totals {
	uint64_t	pfc_tx, pfc_rx;		/* every port's */
	uint64_t	headroom_drops;		/* every port's */
	/* class @prio's of every port */
	uint64_t	lossless_drops;
	uint64_t	wd_storms, wd_drops, wd_restored;
	uint32_t	paused_with_frames;	/* its queues, paused, not empty */
	char		paused[512];		/* which: "s1/l0 ..." */
	uint32_t	ingress_peak;		/* its largest ingress account */
	char		peak_port[64];		/* where: "s1/h0" */
};

/*
 * Every switch's statistics of a fabric, added up for class @prio.  0 or
 * a negative errno (@err naming the switch).  Time: one request a switch,
 * O(ports) each.
 */
int sluice_fabric_totals(const struct sluice_fabric *f, uint8_t prio,
			 struct sluice_fabric_totals *t, char *err,
			 size_t errlen);

/*
 * The live detector (sluice_deadlock_live(), two snapshots of every switch
 * SLUICE_DL_INTERVAL_MS apart) on fabric @f, as a line into @text: its
 * counts, or the first cycle switch by switch.  Returns 1 for a wait-for
 * cycle, 0 for none, -1 if it failed (@text says why).  Time: as
 * sluice_deadlock_live().
 */
int sluice_deadlock_summary(const struct sluice_fabric *f, char *text,
			    size_t len);

/*
 * One route set's run of the deadlock experiment (dl_run.c): a fresh
 * fabric of @g named @name with every port's qdisc @q (its tc words
 * @qdisc_args saved in the state), @routes loaded into every switch, every
 * host sending UDP to every host under another switch (@udp) for
 * @duration_s, sampled every @interval_ms; then, the senders stopped, the
 * live deadlock detector and the switches' counters for class @prio.
 */
struct sluice_routes;
struct sluice_fabric_qdisc;

struct sluice_dl_run_opts {
	const char			*name;		/* the fabric's */
	const char			*topo_path;	/* for its state */
	const struct sluice_graph	*g;		/* copied */
	int				hosts_per_switch;
	const char			*qdisc_args;
	const struct sluice_fabric_qdisc *q;
	const struct sluice_routes	*routes;
	struct sluice_udpgen_opts	udp;
	uint32_t			duration_s, interval_ms;
	/* a flow that delivers nothing this long at the end is stopped */
	uint32_t			quiet_ms;
	double				tick;
	uint8_t				prio;
	bool				keep;		/* leave the fabric up */
	const volatile sig_atomic_t	*stop;
	/* what it is doing, a line at a time ("fabric NAME up (...)") */
	void				(*say)(void *arg, const char *line);
	/* the route loader's messages (sluice_fabric_load_opts.say) */
	void				(*load_say)(void *arg, const char *line);
	void				*arg;
};

struct sluice_dl_run {
	uint32_t	n;		/* samples */
	uint64_t	*rx, *tx;	/* bytes per sample */
	uint32_t	*active;	/* flows delivering, per sample */
	uint32_t	zero_flows;	/* nothing over the quiet time */
	uint32_t	n_flows, n_hosts;
	uint32_t	warm;		/* flows whose warm-up arrived */
	double		cpu_busy;	/* 0..1, the machine's CPUs */
	double		t_setup;	/* s, fabric up to traffic */
	uint64_t	eagain, send_errors;
	int		last_errno;
	int64_t		neigh_discards;	/* -1: unknown */
	int		cycle;		/* the detector: 1, 0, -1 failed */
	char		cycle_text[1024];
	struct sluice_fabric_totals tot;
};

/*
 * 0, or a negative errno (-EINTR if *@o->stop was set) with @err (left ""
 * when the route loader said why through @load_say); the fabric is down
 * afterwards unless @o->keep and it succeeded.  Time: the
 * fabric's making (sluice_fabric_up()), the routes' load, @duration_s,
 * the detector and a counter request a switch.
 */
int sluice_dl_run(const struct sluice_dl_run_opts *o, struct sluice_dl_run *r,
		  char *err, size_t errlen);
/* Time: O(1). */
void sluice_dl_run_free(struct sluice_dl_run *r);

/* An SVG line plot: one series per line, same x for all (svg.c). */
struct sluice_svg_series {
	const char	*name;
	const double	*y;
	uint32_t	n;
};

struct sluice_svg_plot {
	const char			*title;
	const char			*x_label;
	const char			*y_label;
	double				x_step;		/* x of sample i is (i + 1) * x_step */
	const struct sluice_svg_series	*series;
	uint32_t			n_series;
};

int sluice_svg_write(const struct sluice_svg_plot *p, FILE *f);

#endif /* _SLUICE_EXPERIMENT_H */
