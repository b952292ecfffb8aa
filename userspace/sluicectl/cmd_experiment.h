/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "sluicectl experiment deadlock" (experiment.c) and the others
 * (experiment_bcube.c, experiment_bolt.c, experiment_faca.c): their
 * usages, shared with the command table, and the steps they share.
 */
#ifndef _SLUICECTL_CMD_EXPERIMENT_H
#define _SLUICECTL_CMD_EXPERIMENT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/fabric_nl.h>
#include <sluice/route.h>
#include "cmd_fabric.h"
#include "sluicectl.h"

#define EXPERIMENT_DEADLOCK_USAGE \
	"[--name NAME] [--topo FILE] [--routes SETS] [--duration TIME] [--interval TIME]\n" \
	"\t[--hosts-per-switch H] [--rate RATE] [--send-rate RATE] [--frame BYTES]\n" \
	"\t[--xoff BYTES] [--xon BYTES] [--headroom BYTES] [--quiet TIME]\n" \
	"\t[--watchdog { drop | forward | alert } [--detection-time TIME] [--restoration-time TIME]]\n" \
	"\t[--svg FILE] [--keep] [-j | --json] [-v | --verbose]\n" \
	"SETS: route algorithms, comma-separated (default ecmp-cw,fc,edst); each runs on a\n" \
	"fresh fabric NAME (default sluice) of FC's testbed (or --topo), priority 3 lossless,\n" \
	"links shaped to --rate (default 1mbit), every host sending UDP DSCP 24 to every host\n" \
	"under another switch at --send-rate (default twice the link rate) in frames of --frame\n" \
	"bytes (default 1442), for --duration (default 20s), sampled every --interval\n" \
	"(default 500ms).  xoff/xon default 20Kb/17Kb; headroom default Tagger's eq. 1 at\n" \
	"--rate plus 10 ms of it (8486 bytes at 1mbit).  A deadlock: nothing delivered for\n" \
	"the last --quiet (default 2000ms) and a wait-for cycle.  Exit 0 when every set\n" \
	"did what its CBD check predicts, 3 when not, 1 on errors."

#define EXPERIMENT_BCUBE_USAGE \
	"[--name NAME] [--n N] [--parts PARTS] [--modes MODES] [--rate RATE]\n" \
	"\t[--duration TIME] [--interval TIME] [--frame BYTES] [--quiet TIME]\n" \
	"\t[--load FRACTION] [--fct-duration TIME] [--seed N] [--svg PREFIX]\n" \
	"\t[--keep] [-j | --json] [-v | --verbose]\n" \
	"PARTS, comma-separated (default all): deadlock (Fig. 5's ring), holb (Fig. 4's victim),\n" \
	"incast (8 servers to 1), websearch and hadoop (Section 5.2's flow completion times over\n" \
	"TCP).  MODES (default all): pfc, pfc-star, portfc, lossy (tail drop).  Each part runs\n" \
	"once per mode on a fresh fabric NAME (default sluice) of BCube(N,1) (N default 4, 4 to\n" \
	"16), every port shaped to --rate (default 1mbit).  deadlock, holb and incast: servers\n" \
	"send UDP (DSCP 24) at the link rate in frames of --frame bytes (default 1442) for --duration\n" \
	"seconds (default 10), sampled every --interval ms (default 500).  websearch and hadoop:\n" \
	"Poisson arrivals at --load of each link (default 0.5) for --fct-duration seconds\n" \
	"(default 10), sizes scaled by the ratio of bandwidth-delay products, drawn from --seed\n" \
	"(default 1), and an incast halfway.  PortFC's thresholds are 6 and 4 bandwidth-delay\n" \
	"products of a round trip of two MTU frames at the rate; PFC and PFC* take the same xoff\n" \
	"and xon and Tagger's headroom; lossy drops past xoff + headroom.  --svg PREFIX writes\n" \
	"PREFIX-PART.svg plots.  Exit 0 when every run did what its mode predicts, 3 when not,\n" \
	"1 on errors."

#define EXPERIMENT_BOLT_USAGE \
	"[--name NAME] [--parts PARTS] [--modes MODES] [--rate RATE] [--unit TIME] [--interval TIME]\n" \
	"\t[--delay TIME] [--reps N] [--seed N] [--svg PREFIX] [--keep] [-j | --json] [-v | --verbose]\n" \
	"PARTS, comma-separated (default all): window (Fig. 1: one flow's FCT with a BDP first\n" \
	"window over PFC against TCP's 10), fairness (Figs. 4, 5, 9: B->A and H1..H4->A, 2 to 5\n" \
	"flows), holb (Figs. 7, 10: A->D behind A->C's congestion), edst (Fig. 14: EDST with 1, 2,\n" \
	"4 and 8 lanes against ECMP on Jellyfish, flow analysis), lanes (the same on a fabric: a\n" \
	"Jellyfish of 8 switches, ECMP and EDST with 1 and 2 lanes carried in the datapath, against\n" \
	"the flow model for the same paths), workload (Section V-B: TCP-Bolt's workload of incasts\n" \
	"and background flows, slowdowns).  MODES (default all): tcp (cubic, tail\n" \
	"drop), dctcp (DCTCP and ECN, tail drop), tcp-pfc, tcp-dcb (cubic with a BDP first\n" \
	"window, PFC; window only), bolt.  Each fabric part runs once per mode on a fresh\n" \
	"fabric NAME (default sluice): switches x (4 hosts) and y (5 hosts),\n" \
	"one link, every port shaped to --rate (default 4mbit), DSCP 24 on priority 3 (PFC at\n" \
	"xoff 20000, xon 17000 in the lossless modes, tail drop past xoff + headroom otherwise).\n" \
	"window: sizes 1/4 to 16 BDPs, --reps each (default 3, the median kept), the receiver's ACKs\n" \
	"delayed --delay (default 100ms, netem).  fairness and holb: flows join and leave one --unit\n" \
	"apart (default 3 s), throughput sampled every --interval (default 500ms).  TCP-Bolt: DCTCP\n" \
	"locked on the hosts' routes, ECN at DCTCP's K on every switch class, a first window of the\n" \
	"measured BDP.  --seed N (default 1) draws the workload, edst and lanes parts.  --svg PREFIX\n" \
	"writes PREFIX-window.svg, PREFIX-fairness-MODE.svg and PREFIX-holb-MODE.svg.  Exit 0 when\n" \
	"every part did what the paper predicts, 3 when not, 1 on errors."

#define EXPERIMENT_FACA_USAGE \
	"[--parts PARTS] [--rounds R] [--flows F] [--seed N] [--svg PREFIX] [-j | --json] [-v | --verbose]\n" \
	"\t[--leaves L] [--spines S] [--runs N]\n" \
	"\t[--name NAME] [--policies POLICIES] [--rate RATE] [--slow FRACTION] [--duration TIME]\n" \
	"\t[--interval TIME] [--stagger TIME] [--threshold BYTES] [--keep]\n" \
	"PARTS, comma-separated (default all): model (Sections 7.1 and 7.3 in a flow-level model,\n" \
	"no fabric: ECMP, WCMP, greedy \"lightest path\", Flowing&Jumping and the optimum), micro\n" \
	"(Section 7.3 on a fabric of namespaces: ECMP, WCMP and FaCa's agents).\n" \
	"model: a leaf-spine of L leaves (default 16, even) of capacity 200 in pairs sending to\n" \
	"each other, and S spines (default 8), half at 0.95 of an even share of the leaves' load and\n" \
	"half at a full share (380 and 400 at the defaults); R rounds (default 10), in each every\n" \
	"leaf adds F flows (default 2) sized so that the last round fills the leaf, every leaf\n" \
	"deciding at once on the spines' loads at the round's start; per round and policy the\n" \
	"congestion rate (spine ports into an overloaded spine), the highest utilisation, the std of\n" \
	"per-port throughput and the aggregate throughput under max-min sharing, averaged over N runs\n" \
	"(default 20) drawn from --seed (default 1).  Then the production test of Section 7.1: one\n" \
	"leaf's 20 flows of 100 on 10 uplinks of 400.  Hundreds of switches take a second\n" \
	"(--leaves 256 --spines 64).  --leaves and --spines are the model's.\n" \
	"micro: a fabric NAME (default sluice) of 4 leaves and 4 spines; leaf0's and leaf1's R x F\n" \
	"hosts (R default 4, F default 2, 12 at most) each keep a long TCP flow (cubic over PFC,\n" \
	"DSCP 24) to their partner on leaf2 and leaf3, F more a leaf pair each round of --duration\n" \
	"(default 12s), --stagger apart (default 3s); host links at RATE (default 500kbit); the\n" \
	"spines' ports down carry 97.5 % of a leaf's full load (the paper's 3120 of 3200),\n" \
	"spine2 and spine3's at --slow (default 0.75) of spine0 and spine1's; the leaves' uplinks\n" \
	"at twice a fast port.\n" \
	"POLICIES (default all): ecmp (multipath hash5, random source ports from --seed), wcmp\n" \
	"(nexthops weighted by rate, the same ports), faca (multipath sport, an agent in every host,\n" \
	"each flow's port from its host's).  Every --interval (default 250ms) the spines' ports down\n" \
	"are sampled: a port is congested when its lossless class holds more than --threshold bytes\n" \
	"(default 10000, half of xoff); per round, over its last part, the congestion rate, the PFC\n" \
	"pauses the spines sent, the std of per-port and per-host-pair throughput, the goodput, the\n" \
	"flows on each spine (the kernel's routes), beside what placement alone predicts; each\n" \
	"policy N times (--runs, default 3 on a fabric), seed, seed + 1, ..., the means printed.\n" \
	"About 8 minutes at the defaults; --keep leaves the fabric up.  --svg PREFIX writes\n" \
	"PREFIX-model.svg (congestion rate by load), PREFIX-micro.svg and PREFIX-micro-goodput.svg.\n" \
	"Exit 0 when every part did what the paper predicts, 3 when not, 1 on errors."

/* Shared steps (experiment.c). */
extern volatile sig_atomic_t exp_interrupted;
void exp_on_signal(int sig);
int exp_derive_headroom(uint64_t rate, uint32_t *headroom);
int exp_parse_names(const struct command *cmd, const char *opt, const char *s,
		    const char *const *names, int n, unsigned int *mask);
struct sluice_fabric_load_opts;
int exp_load(struct sluice_fabric_load_opts *o);
int exp_load_routes(struct sluice_fabric_state *fs,
		    const struct sluice_routes *r);
int exp_fabric_up(struct sluice_fabric_state *fs, const struct sluice_fabric_qdisc *q);
struct sluice_port_info;
int exp_switch_stats(const struct sluice_fabric_state *fs, uint32_t u,
		     struct sluice_port_info **pi, uint32_t *n);
void exp_fabric_down(const struct sluice_fabric_state *fs);

int experiment_bolt_main(const struct command *cmd, int argc, char **argv);
int experiment_bcube_main(const struct command *cmd, int argc, char **argv);
int experiment_faca_main(const struct command *cmd, int argc, char **argv);

#endif /* _SLUICECTL_CMD_EXPERIMENT_H */
