/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Live deadlock detection: the wait-for graph of a fabric's switches from
 * their pause state (lib/fabric/deadlock.c, pure; deadlock_nl.c reads it
 * from the switches of a fabric on this machine).
 *
 * The input is, per switch of a topology, its STATS_GET dump (struct
 * sluice_port_info, one per sluice port, ports named l<LINK> and h<I> as a
 * fabric names them) taken twice, some time apart, or once.
 *
 * Vertices, per switch s, port P and priority p:
 *
 *   E(s, P, p)  egress class p of P, "stuck": paused (SLUICE_PRIO_F_PAUSED)
 *               in both snapshots, frames queued (backlog > 0) and not one
 *               byte sent between the two;
 *   I(s, P, p)  ingress account p of P, "holding": XOFF sent upstream
 *               (SLUICE_PRIO_F_XOFF) in both snapshots and the bytes it holds
 *               unchanged between them (nothing left, nothing arrived).
 *
 * With one snapshot there is no progress to check: stuck is paused with
 * frames queued, holding is XOFF.
 *
 * Edges, between stuck and holding vertices only:
 *
 *   E(s, l<L>, p) -> I(n, l<L>, p)   n is link L's other end: the pause that
 *       stops class p is the PFC frame for priority p that n's port sends
 *       while its ingress account p is in XOFF (the qdisc maps PFC
 *       priority p to egress class p, with or without Tagger's maps);
 *   I(n, P', p') -> E(n, Q, q)       for every stuck class q of every port
 *       Q != P' of n: the frames an ingress account holds wait in some
 *       egress queue of its switch (which one is not known; a frame never
 *       leaves by the port it came in, paths being simple).  Under Tagger
 *       p' and q differ: the graph follows the priority each hop changes.
 *
 * A cycle of stuck and holding vertices is a deadlock: nothing on it can
 * move until something on it moves.  Strongly connected components (an
 * iterative Tarjan, linear in the graph; the I -> E edges of a switch are
 * relayed by per-port prefix and suffix chains, so the graph stays linear
 * in the number of vertices too) with a cycle are reported, each with its
 * vertices and one example cycle through its first egress vertex (found
 * breadth first, so a short one).
 *
 * A stuck egress class of a host port (h<I>) waits on a host; one of a
 * link port whose peer account is not holding (or beyond priority 7) was
 * paused from outside the graph (a PFC storm, a pause that did not come
 * from an ingress account): both are counted, neither can be on a cycle.
 *
 * PortFC ports (struct sluice_port_stats' portfc not NONE; a kernel
 * without PortFC sends a shorter struct, read as NONE) have no priorities
 * and no ingress accounts: the pause that stops a PortFC class names a
 * congested egress port of a switch, (type, index), and the graph follows
 * it there (uapi "PortFC", the paper's Algorithms 1-4).  One more vertex:
 *
 *   C(s, Q, t)  the type-t congestion (t 0: A, the classes 0..n-1 summed;
 *               t 1: B, class n) of PortFC switch port Q of s, "holding":
 *               frames of type t queued, the key (t, index of Q) asserted
 *               on some other PortFC switch port of s (its sender says
 *               Pause), in both snapshots, and not one byte of type t
 *               sent between them.  Its prio is t.
 *
 * Edges of a stuck PortFC class c of port P of node X, P linking X to Y
 * (n and k are P's; "Y's port R asserts (t, i)": key t * 16 + i in R's
 * portfc_keys, in both snapshots, R the port of Y facing X):
 *
 *   X a server, c = g * n + i below (k + 1) n: g >= 1 waits on (A, i),
 *       g 0 on (B, i) (Algorithm 3);
 *   X a switch, c = i below n (type A): waits on (B, i), relayed by the
 *       server Y (Algorithm 4).
 *
 *   then, if R asserts that key:
 *   Y a switch: E(X, P, c) -> C(Y, Q, t) for Q the ports of Y with index
 *       i other than R (Algorithms 1-2: the detection at Q asserts its
 *       key on every other port);
 *   Y a server and t B (a relay): E(X, P, c) -> C(S, Q, B) for every other
 *       PortFC port R' of Y, S the switch at its other end, whose port
 *       facing Y asserts (B, i), and Q the ports of S with index i other
 *       than that one (a server relays only what a switch said to it);
 *   C(s, Q, t) -> E(s, Q, q)  for every stuck class q of type t of Q: the
 *       frames that keep the congestion up wait there.
 *
 * A server's relay class ((k + 1) n) and HQ are never paused, nor is a
 * switch's type-B class (n): a stuck one, or one whose key is not
 * asserted, was paused from outside (counted as PFC's are).  A switch's
 * paused class waits only on a relayed type-B key, and a type-B
 * congestion only on switch classes of type B, which nothing pauses: a
 * wait goes at most server -> switch -> server -> switch (the paper's
 * three hops, Eq. 1-2) and a PortFC fabric has no cycle, while the same
 * fabric under PFC can.
 *
 * Functions that can fail return 0 or a negative errno with a message in
 * @err (SLUICE_ERRLEN bytes are enough).
 */
#ifndef _SLUICE_DEADLOCK_H
#define _SLUICE_DEADLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/fabric.h>
#include <sluice/graph.h>
#include <sluice/switch.h>

/* The default time between the two snapshots of "fabric deadlock". */
#define SLUICE_DL_INTERVAL_MS	500

/* One switch's STATS_GET dump at one time (malloc()ed by the live path). */
struct sluice_dl_snap {
	struct sluice_port_info	*ports;
	uint32_t		n;
};

enum sluice_dl_role {
	SLUICE_DL_EGRESS,	/* an egress class, paused */
	SLUICE_DL_INGRESS,	/* an ingress account, in XOFF */
	SLUICE_DL_PORTFC,	/* a PortFC switch port's congestion, asserted */
};

/*
 * A vertex: a stuck egress class, a holding ingress account or a holding
 * PortFC congestion.
 */
struct sluice_dl_vertex {
	uint32_t	node;		/* the switch */
	uint32_t	link;		/* l<LINK>, or SLUICE_NONE */
	uint32_t	host;		/* h<I>, or SLUICE_NONE */
	char		port[SLUICE_IFNAMSIZ];
	uint8_t		role;		/* enum sluice_dl_role */
	uint8_t		prio;		/* egress class or ingress priority;
					 * PortFC: the type, 0 A, 1 B */
	/* the port's PortFC role (enum tc_sluice_portfc_role) and index */
	uint8_t		portfc;
	uint8_t		portfc_index;
	/* from the last snapshot */
	uint32_t	flags;		/* SLUICE_PRIO_F_*; PortFC: 0 */
	uint32_t	backlog;	/* egress, PortFC: bytes queued */
	uint32_t	qlen;		/* egress, PortFC: frames queued */
	uint64_t	bytes;		/* egress, PortFC: bytes sent, ever */
	uint64_t	pfc_rx;		/* egress: pauses received */
	uint64_t	paused_us;	/* egress: time paused, ever */
	uint32_t	ingress_bytes;	/* ingress: bytes held */
	uint32_t	ingress_peak;
	uint64_t	xoff_tx;	/* ingress: PFC frames sent pausing it;
					 * PortFC: the detections of the type */
};

/*
 * A strongly connected component with a cycle: its vertices are
 * scc[scc_first .. scc_first + scc_len - 1], one cycle through them
 * cycle[cycle_first .. cycle_first + cycle_len - 1], each vertex waiting on
 * the next and the last on the first (indexes into v[]).
 */
struct sluice_dl_cycle {
	uint32_t	scc_first, scc_len;
	uint32_t	cycle_first, cycle_len;
	uint32_t	switches;	/* distinct switches in the component */
	uint32_t	cycle_switches;	/* ... and on the cycle */
};

struct sluice_deadlock {
	bool			progress_checked;	/* two snapshots */
	uint32_t		n_v;
	/*
	 * by switch and port (in dump order): stuck classes, then holding
	 * accounts, then holding PortFC congestions (A, then B)
	 */
	struct sluice_dl_vertex	*v;
	uint32_t		stuck;		/* egress vertices */
	uint32_t		holding;	/* ingress vertices */
	uint32_t		congested;	/* PortFC vertices */
	uint32_t		portfc_ports;	/* PortFC ports in the dumps */
	uint64_t		edges;		/* of the wait-for graph */
	uint32_t		host_waits;	/* stuck egress of host ports */
	uint32_t		outside;	/* stuck, paused from outside */
	uint32_t		ports;		/* sluice ports in the dumps */
	uint32_t		ignored_ports;	/* not named l<LINK> or h<I> */
	uint32_t		n_cycles;
	struct sluice_dl_cycle	*cycles;
	uint32_t		*scc;
	uint32_t		*cycle;
	/* the live path: the time between the snapshots, measured */
	double			interval_s;
};

/*
 * The wait-for graph of @g's switches from @a (n_nodes dumps, one per
 * node) and, if not NULL, @b, taken later; *@dl is filled (free it with
 * sluice_deadlock_free(), also after a failure).  Fails on a port named
 * l<L> where link L does not end at that switch, on a port or a priority
 * twice in a dump, on PortFC settings out of the uapi's ranges (-EINVAL).
 */
int sluice_deadlock_find(const struct sluice_graph *g,
			 const struct sluice_dl_snap *a,
			 const struct sluice_dl_snap *b,
			 struct sluice_deadlock *dl, char *err, size_t errlen);
void sluice_deadlock_free(struct sluice_deadlock *dl);

/* "egress class 3", "ingress prio 3" or "portfc type 0" */
const char *sluice_dl_role_name(enum sluice_dl_role role);

/*
 * Strongly connected components of a directed graph in CSR form (vertex
 * u's successors are adj[off[u] .. off[u + 1] - 1]), iteratively: comp[u]
 * is u's component (numbered in the order Tarjan completes them, a sink
 * first), the return value the number of components, or -ENOMEM.  The
 * building block of sluice_deadlock_find(), exposed for its tests.
 */
int64_t sluice_scc(uint32_t n, const uint32_t *off, const uint32_t *adj,
		   uint32_t *comp);

/*
 * Live (lib/fabric/deadlock_nl.c): a generic netlink connection to every
 * switch of fabric @f (in its namespace NAME-X; *@nl gets f->g->n_nodes of
 * them), and every switch's STATS_GET through them into @snap (n_nodes
 * dumps, each freed by sluice_dl_snaps_free()).
 */
int sluice_dl_open(const struct sluice_fabric *f, struct sluice_nl ***nl,
		   char *err, size_t errlen);
void sluice_dl_close(struct sluice_nl **nl, uint32_t n);
int sluice_dl_snapshot(const struct sluice_fabric *f, struct sluice_nl **nl,
		       struct sluice_dl_snap *snap, char *err, size_t errlen);
void sluice_dl_snaps_free(struct sluice_dl_snap *snap, uint32_t n);
/*
 * Two snapshots of fabric @f, @interval_ms apart (at least 1), and
 * sluice_deadlock_find() on them: the whole of "sluicectl fabric
 * deadlock".  Return: 0 (look at dl->n_cycles) or a negative errno.
 */
int sluice_deadlock_live(const struct sluice_fabric *f,
			 unsigned int interval_ms, struct sluice_deadlock *dl,
			 char *err, size_t errlen);

#endif /* _SLUICE_DEADLOCK_H */
