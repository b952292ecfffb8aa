/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FaCa's host-side decisions (FaCa, Sections 5.4 and 5.5): the load
 * estimate of a path and Flowing&Jumping, which places a source's new
 * flows on the paths to one destination.  Pure: no I/O, no clock; the host
 * agent feeds them what its probes measured.
 *
 * Load estimate (lib/faca/estimate.c).  A probe gives a path's bandwidth B
 * and delay D; their product beta = B D (Eq. 1) is the path's load as
 * measured, and the estimate at time t smooths it with the estimate of the
 * previous update, dt seconds before (Eq. 2, 3):
 *
 *	E(t) = a E(t - dt) + (1 - a) beta,	a = exp(-k dt)
 *
 * k (per second) sets how fast old measures fade (Newton's cooling law):
 * k = 0 keeps the old estimate for ever, a large k follows the probe.
 *
 * Flowing&Jumping (lib/faca/fj.c).  The paths to a destination are
 * numbered 0 .. n - 1 and read as a ring: path k's neighbours are k - 1
 * and k + 1 modulo n.  The paper's Algorithm 1 compares loads against
 * a neighbour's load that changes as flows are placed, and as written
 * spins for ever when a path equals its neighbours.  This is the precise
 * rule implemented, in the paper's words where it has them ("the load of
 * paths is not allowed to exceed the adjacent ones", Fig. 4's walk):
 *
 *  - flows are taken in their given order; u(p) is path p's load, or its
 *    load over its capacity when capacities are given (a utilisation, so
 *    that a slower path at the same load ranks as heavier);
 *  - each outer iteration draws a path k at random;
 *  - flowing: while u(k) is strictly below both neighbours', the next
 *    flow goes on k;
 *  - jumping: then, while u(k - 1) < u(k), the next flow goes on k - 1;
 *    then, while u(k + 1) < u(k), on k + 1 (u(k) does not change in
 *    either loop: only the neighbour is raised, to k's level);
 *  - a drawn k where none of the three loops places anything (k is no
 *    heavier than its neighbours and level with one of them: a plateau)
 *    moves on to k + 1, k + 2, ... until one does; if none does, every
 *    path has the same u (the ring is level) and the drawn k, a lightest
 *    path like any, takes the next flow before the two jumping loops run.
 *    So every draw places at least one flow, and the algorithm ends after
 *    at most @nflows draws.
 *
 * A flow is compared before it is placed, so a path may end above a
 * neighbour by less than one flow.  What always holds: every flow goes on
 * a path strictly lighter than one of its neighbours at that moment,
 * unless all paths are level.  With unit flows on integer loads and no
 * capacities this never raises the heaviest path above max(its initial
 * load, ceil(total / n)), which is the best any placement does; from
 * equal loads, n m unit flows end with every path at m more.  The randomness is the point
 * (Section 5.5): sources deciding at once on the same stale loads start
 * from different paths instead of all piling onto the lightest one.
 */
#ifndef _SLUICE_FJ_H
#define _SLUICE_FJ_H

#include <stdint.h>

struct sluice_rng;

/* Eq. 1-3: E(t) = a E(t - dt) + (1 - a) beta, a = exp(-k dt); beta = B * D. */
/* Time: O(1). */
double sluice_faca_alpha(double k, double dt_s);
/* Time: O(1). */
double sluice_faca_ewma(double e_prev, double beta, double k, double dt_s);
/*
 * Algorithm 1 for one source-destination pair: places @nflows flow demands
 * (demand[i] load units each; NULL: 1 each) on @npaths paths numbered as a
 * ring, whose loads are @load (updated in place as flows are placed);
 * path_of[i] receives flow i's path.  Returns 0, or -EINVAL.
 * Time: as sluice_fj_place_ring().
 */
int sluice_fj_place(double *load, unsigned int npaths, const double *demand,
		    unsigned int nflows, struct sluice_rng *rng,
		    unsigned int *path_of);

/*
 * The same with every choice open: capacities, and where the draws come
 * from (so that a test can replay the paper's Fig. 4, whose draws were
 * path 1, then 61 + 1 = 62, path 6).
 */
struct sluice_fj_ring {
	double		*load;		/* per path, raised as flows are placed */
	/* per path, finite and > 0: compare load / cap; NULL: load */
	const double	*cap;
	unsigned int	npaths;
	/* each outer iteration's path: any number, taken modulo @npaths */
	unsigned int	(*draw)(void *arg);
	void		*draw_arg;
};

/*
 * Time: O(@nflows @npaths) at worst, O(@nflows + draws) when no draw lands on a
 * plateau.
 */
int sluice_fj_place_ring(const struct sluice_fj_ring *ring,
			 const double *demand, unsigned int nflows,
			 unsigned int *path_of);

#endif /* _SLUICE_FJ_H */
