/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "sluicectl experiment faca" (experiment_faca.c): what its parts share,
 * and the micro part's own (experiment_faca_micro.c), FaCa's
 * micro-benchmark on a fabric of namespaces.
 */
#ifndef _SLUICECTL_EXPERIMENT_FACA_H
#define _SLUICECTL_EXPERIMENT_FACA_H

#include <stdbool.h>
#include <stdint.h>
#include <json.h>
#include <sluice/faca_model.h>
#include "sluicectl.h"

/* The micro part's fabric: leaves 0 and 1 send to leaves 2 and 3. */
#define MICRO_LEAVES	4
#define MICRO_SPINES	4
#define MICRO_PAIRS	2		/* leaf pairs: leaf a -> leaf a + 2 */
#define MICRO_SLOW	2		/* spines 2 and 3 */
#define MICRO_HOSTS_MAX	12		/* hosts a leaf: rounds x flows */
#define MICRO_RUNS_MAX	10

enum micro_policy { MP_ECMP, MP_WCMP, MP_FACA, N_MICRO };

/* The paper's numbers (Sections 7.1 and 7.3), beside both parts' own. */
#define PAPER_SD_ECMP	148.06
#define PAPER_SD_FACA	2.96
#define PAPER_CONG_GAIN	0.50	/* "nearly 50% improvement" over ECMP */
#define PAPER_TPUT_GAIN	0.225	/* average flow throughput over ECMP's */

/* One policy's round, measured over its window. */
struct micro_round {
	uint32_t	flows;		/* delivering in the window, all pairs */
	double		congestion;	/* share of spine-port samples above */
	double		pauses;		/* PFC frames the spines sent */
	double		port_sd;	/* bit/s, a pair's 4 ports; mean of pairs */
	double		pair_sd;	/* bit/s, a pair's host pairs; mean */
	double		throughput;	/* goodput of all host pairs, bit/s */
	double		port_util;	/* the lowest of a congested port's
					 * throughput over its rate; -1: none
					 */
	/* flows on each spine, per leaf pair (the kernel's routes) */
	uint32_t	on_spine[MICRO_PAIRS][MICRO_SPINES];
};

/* One policy over its runs: [run * rounds + round], sums of the runs. */
struct micro_run {
	uint32_t		ran;		/* runs done */
	struct micro_round	*round;
	uint32_t		flows, failed, from_agent, unknown_path;
	int			agent_error;	/* the first fallback's errno */
	uint64_t		drops;		/* lossless frames, all switches */
	uint64_t		leaf_pauses;	/* the receiving leaves sent */
	uint32_t		paths_min, paths_max;	/* a sender's agent knew */
	double			cpu_busy;	/* share of the VM's CPUs, mean */
	double			seconds;	/* the runs, mode changes too */
};

/* The micro part: its options, the fabric's rates, what it predicts. */
struct micro {
	const char		*name;
	unsigned int		policies;	/* BIT(enum micro_policy) */
	uint32_t		rounds, flows;	/* a pair's new flows a round */
	uint32_t		runs;		/* draws of every policy */
	uint64_t		seed;		/* the first draw's */
	uint64_t		rate;		/* a host's link, bit/s */
	double			slow;		/* a slow spine's port / a fast's */
	double			duration;	/* s a round */
	double			interval;	/* s a sample */
	double			stagger;	/* s between a pair's new flows */
	uint32_t		threshold;	/* bytes: a congested port */
	bool			keep;
	/* derived */
	uint32_t		hosts;		/* a leaf's: rounds x flows */
	uint64_t		fast_rate, slow_rate, uplink_rate;
	/* the expectations, [policy][round], for one leaf pair */
	struct sluice_faca_expect *expect[N_MICRO];
	struct micro_run	run[N_MICRO];
	double			seconds;	/* the whole part */
};

struct fexp {
	unsigned int			parts;
	uint32_t			leaves, spines, rounds, flows, runs;
	uint64_t			seed;
	const char			*svg;
	bool				json, verbose;
	/* model */
	bool				model_ran;
	struct sluice_faca_model	micro_model, prod;
	struct sluice_faca_result	micro_res, prod_res;
	/* micro */
	struct micro			m;
};

/* "faca: ..." on stderr, unless -j without -v. */
__attribute__((format(printf, 2, 3)))
void faca_progress(const struct fexp *e, const char *fmt, ...);

/* The micro part's options as given (NULL: not given). */
struct micro_args {
	const char	*name, *policies, *slow, *threshold;
	/* checked by the argument layer; 0 when not given */
	uint64_t	rate, duration_ms, interval_ms, stagger_ms;
	bool		has_stagger, keep;
};

/*
 * The micro part's options into @e->m, each checked against @e's rounds
 * and flows: 0, or EXIT_USAGE (said).
 */
int micro_parse(const struct command *cmd, struct fexp *e,
		const struct micro_args *a);
int micro_run(struct fexp *e);
bool micro_ran(const struct fexp *e);
void micro_print(const struct fexp *e);
json_object *micro_json(const struct fexp *e);
int micro_plot(const struct fexp *e);
bool micro_ok(const struct fexp *e);
void micro_free(struct fexp *e);

#endif /* _SLUICECTL_EXPERIMENT_FACA_H */
