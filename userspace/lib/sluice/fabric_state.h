/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fabric's saved state, read back (lib/fabric/state.c): what "fabric up"
 * was given, kept under $SLUICE_RUN_DIR/NAME (default /run/sluice/NAME)
 * so that later commands, and other programs, find its namespaces again:
 *
 *   fabric          "sluice-fabric 1", the name, the topology's path and
 *                   hash, the hosts per switch, the qdisc's options, the
 *                   flow control, the lanes, the multipath mode and the
 *                   node rates
 *   topology.json   the topology itself, as sluice_graph_write() writes it
 *
 * sluicectl writes it (sluice_fabric_state_write()); anyone may read it.
 * Functions that fail return a negative errno with a message in @err.
 */
#ifndef _SLUICE_FABRIC_STATE_H
#define _SLUICE_FABRIC_STATE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sluice/fabric.h>
#include <sluice/graph.h>
#include <sluice/multipath.h>

#define SLUICE_FABRIC_RUN_DIR		"/run/sluice"
#define SLUICE_FABRIC_QDISC_MAX		2048

/* The "fabric" file's fields, the topology and the fabric's plan. */
struct sluice_fabric_state {
	char		name[SLUICE_FABRIC_NAME_MAX];
	char		topo_path[PATH_MAX];
	uint64_t	hash;
	int		hosts_per_switch;	/* or _DEFAULT */
	bool		qdisc;			/* a sluice qdisc on ports */
	uint8_t		fc;			/* enum sluice_fabric_fc */
	uint32_t	ecn;			/* K of switch classes; 0: off */
	uint8_t		host_profile;		/* sluice_host_profile_kind */
	uint32_t	initcwnd;		/* of the profile, segments */
	uint8_t		lanes;			/* --lanes; 0: none */
	uint8_t		multipath;		/* sluice_multipath_mode */
	char		node_rates[SLUICE_MP_NODE_RATES_MAX];	/* or "" */
	char		qdisc_args[SLUICE_FABRIC_QDISC_MAX];
	struct sluice_graph	g;
	struct sluice_fabric	f;		/* of g, f.multipath the state's;
						 * do not move
						 */
};

/* $SLUICE_RUN_DIR (for tests), else SLUICE_FABRIC_RUN_DIR.  Time: O(1). */
const char *sluice_fabric_run_dir(void);
/* RUN_DIR/NAME/FILE (or RUN_DIR/NAME); -ENAMETOOLONG.  Time: O(1). */
int sluice_fabric_state_path(const char *name, const char *file, char *buf,
			     size_t len);
/*
 * Fabric @name's state, its topology and plan: 0, -ENOENT if the fabric
 * has no state, or another negative errno.  Time: O(the topology's size).
 */
int sluice_fabric_state_read(const char *name, struct sluice_fabric_state *s,
			     char *err, size_t errlen);
/* Time: O(the topology's size). */
void sluice_fabric_state_free(struct sluice_fabric_state *s);
/* The "fabric" file, as _read() reads it back.  Time: O(1). */
void sluice_fabric_state_print(const struct sluice_fabric_state *s, FILE *f);
/*
 * The state saved (RUN_DIR/NAME made if missing), the topology first, each
 * file whole or not at all.  Time: O(the topology's size).
 */
int sluice_fabric_state_write(const struct sluice_fabric_state *s, char *err,
			      size_t errlen);
/* The state removed; what is already gone is no error.  Time: O(1). */
int sluice_fabric_state_remove(const char *name, char *err, size_t errlen);
struct sluice_fabric_qdisc;
struct sluice_fabric_stats;
/*
 * Saves @s's state and brings the fabric up (sluice_fabric_up()), -EEXIST
 * if a state of that name is saved already; on failure nothing is left.
 * Time: as sluice_fabric_up().
 */
int sluice_fabric_state_up(struct sluice_fabric_state *s,
			   const struct sluice_fabric_qdisc *q,
			   struct sluice_fabric_stats *st, char *err,
			   size_t errlen);
/*
 * Takes the fabric down, then removes its state.  Time: as
 * sluice_fabric_down().
 */
int sluice_fabric_state_down(const struct sluice_fabric_state *s,
			     uint32_t *removed, char *err, size_t errlen);
/* Each link's rate (free() it).  Time: O(N + L + node rates * N). */
int sluice_fabric_state_link_rates(const struct sluice_fabric_state *s,
				   uint64_t **link_rate, char *err,
				   size_t errlen);
/* What mode @mode needs of the fabric.  Time: O(N + L + node rates * N). */
int sluice_fabric_state_multipath(const struct sluice_fabric_state *s,
				  unsigned int mode,
				  struct sluice_multipath *mp,
				  uint64_t **link_rate, char *err,
				  size_t errlen);

#endif /* _SLUICE_FABRIC_STATE_H */
