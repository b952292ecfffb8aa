/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "sluicectl experiment bcube": what its parts share (experiment_bcube.c
 * runs the fabric and the UDP parts, experiment_fct.c the flow completion
 * parts over TCP).
 */
#ifndef _SLUICECTL_EXPERIMENT_BCUBE_H
#define _SLUICECTL_EXPERIMENT_BCUBE_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include <sluice/cbd.h>
#include <sluice/experiment.h>
#include <sluice/fabric_nl.h>
#include <sluice/graph.h>
#include <sluice/route.h>
#include <sluice/tcpgen.h>
#include "cmd_fabric.h"

#define EXIT_UNEXPECTED	3
#define DSCP		24	/* priority 3 under plain PFC */
#define UDP_PORT	4791
#define TCP_PORT	4792
#define TICK		0.01
#define SAMPLES_MAX	10000
#define FLOWS_MAX	16
#define QPORTS_MAX	2
/*
 * What a server may have in flight: a server pushes its own labels, and
 * Linux's MPLS encapsulation orphans the frame, so no socket buffer holds
 * it back when its port is paused (sluice/experiment.h).  64 KB is 45
 * frames of 1442 bytes: a flowing sender keeps its link busy with far
 * less (a round trip is a few frames), and a stuck one stops there.  Not
 * for lossy runs, where a lost frame would stay in flight for ever.
 */
#define WINDOW		65536
/* The FCT parts' percentiles plotted: 1 % to 100 %. */
#define FCT_POINTS	100

enum part {
	PART_DEADLOCK, PART_HOLB, PART_INCAST, PART_WEBSEARCH, PART_HADOOP,
	N_PARTS
};

static inline bool part_is_fct(int p)
{
	return p == PART_WEBSEARCH || p == PART_HADOOP;
}

/* The modes, in the order they run: SLUICE_FABRIC_FC_NONE is "lossy". */
#define N_MODES	4
extern const uint8_t modes_all[N_MODES];
extern const char *const part_names[N_PARTS];
extern const char *const part_titles[N_PARTS];
const char *mode_name(uint8_t fc);
int mode_index(uint8_t fc);

enum opt_id {
	OPT_NAME, OPT_N, OPT_PARTS, OPT_MODES, OPT_RATE, OPT_DURATION,
	OPT_INTERVAL, OPT_FRAME, OPT_QUIET, OPT_LOAD, OPT_FCT_DURATION,
	OPT_SEED, OPT_SVG, OPT_KEEP, OPT_JSON, OPT_VERBOSE,
	N_OPTS,
};

/* A flow: its servers, and its pinned path (no links: the route set's). */
struct bflow {
	uint32_t	src, dst;	/* nodes */
	uint32_t	links[4];
	uint32_t	n_links;
	const char	*role;		/* "ring", "congested", "victim", ... */
};

struct scenario {
	enum part	part;
	uint32_t	n_flows;
	struct bflow	fl[FLOWS_MAX];
	bool		pinned;		/* the flows' own paths only */
	uint32_t	victim;		/* holb: the victim's flow */
	double		victim_fair;	/* holb: its fair share, of a link */
	uint32_t	receiver;	/* incast */
	uint32_t	n_qports;	/* incast: the receiver's switch ports */
	uint32_t	qnode[QPORTS_MAX];
	char		qdev[QPORTS_MAX][SLUICE_IFNAME_MAX];
	char		qname[QPORTS_MAX][48];
	struct sluice_routes r;		/* what is loaded */
	/* of the loaded routes: the flows' own paths when pinned */
	struct sluice_cbd_result cbd;
	uint32_t	star_prios;	/* PFC*: priorities Tagger needs */
	/* FCT parts: the same flows for every mode */
	const struct sluice_tcpgen_dist *dist;
	struct sluice_tcpgen_plan plan;
	uint32_t	n_incast;	/* the plan's last flows, tag 1 */
	uint64_t	incast_size;
};

/* What an FCT run measured, over a subset of its flows. */
struct fct_stats {
	struct sluice_tcpgen_summary s;
	double		goodput;	/* mean of size / FCT, Mbit/s */
};

struct brun {
	enum part	part;
	uint8_t		fc;
	bool		ran;
	uint32_t	n;		/* samples */
	uint64_t	*rx;		/* [i * n_flows + f] bytes */
	uint64_t	*q;		/* [i * QPORTS_MAX + p] bytes queued */
	uint64_t	q_peak[QPORTS_MAX];
	uint64_t	drops;		/* every sluice class of every port */
	uint64_t	limit_drops, headroom_drops;	/* of them */
	char		drop_port[64];	/* the port that dropped most */
	uint64_t	drop_port_n;
	/* PFC frames sent, or on PortFC ports its signals; signals received */
	uint64_t	pfc_tx, portfc_rx;
	uint64_t	eagain, held;	/* sends the socket, the window held */
	int64_t		neigh_discards;
	double		cpu_busy;
	int		cycle;		/* detector: 1, 0, -1 */
	char		cycle_text[1024];
	struct sluice_verdict_out v;
	double		mean[FLOWS_MAX];	/* Mbit/s over the run */
	double		tail[FLOWS_MAX];	/* over the last half */
	double		total_mean, total_final;
	/* FCT parts */
	struct sluice_tcpgen_flow *fl;	/* the plan's flows, as they ran */
	struct fct_stats fct_all, fct_poisson, fct_incast;
	uint32_t	unfinished;
	double		fct_pct[FCT_POINTS];	/* ms, of the finished */
	bool		as_predicted;
	char		why[256];
};

struct bexp {
	const char		*val[N_OPTS];
	uint64_t		num[N_OPTS];
	const char		*name;
	uint32_t		n;
	struct sluice_graph	g;
	uint64_t		rate;
	uint32_t		frame, duration_s, interval_ms, quiet_ms;
	uint32_t		xoff, xon, headroom;
	uint32_t		lossy_limit;	/* the lossy mode's per-class limit */
	uint64_t		portfc_rtt_ns;
	uint32_t		portfc_xoff, portfc_xon;
	/* FCT parts */
	double			load, fct_duration, scale;
	uint64_t		seed;
	bool			parts[N_PARTS];
	bool			modes[N_MODES];
	struct scenario		sc[N_PARTS];
	struct brun		runs[N_PARTS][N_MODES];
	bool			verbose;
};

void progress(const struct bexp *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void drops_why(struct brun *run);

/* experiment_fct.c */
int fct_plan(struct bexp *e, struct scenario *sc, char *err, size_t errlen);
int fct_run(const struct bexp *e, const struct scenario *sc,
	    const struct sluice_fabric_state *fs, struct brun *run);
void fct_judge(const struct bexp *e, const struct scenario *sc,
	       struct brun *run);
void fct_print_prediction(const struct bexp *e, const struct scenario *sc);
void fct_print_run(const struct bexp *e, const struct brun *run);
void fct_print_compare(const struct bexp *e, int part);
bool fct_json(json_object *o, const struct brun *run);
void fct_free(struct scenario *sc, struct brun *runs);

#endif /* _SLUICECTL_EXPERIMENT_BCUBE_H */
