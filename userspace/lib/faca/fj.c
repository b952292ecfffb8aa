// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flowing&Jumping (FaCa, Section 5.5, Algorithm 1): a source's new flows
 * to one destination poured onto the ring of its paths like water, from a
 * random place each time.  sluice/fj.h states the rule precisely and why
 * it differs from the pseudo-code where that cannot terminate.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <sluice/fj.h>
#include <sluice/rng.h>

/* One placement in progress. */
struct fj {
	double		*load;
	const double	*cap;
	unsigned int	n;
	const double	*demand;
	unsigned int	nflows;
	unsigned int	next;		/* the next flow to place */
	unsigned int	*path_of;
};

static double fj_util(const struct fj *s, unsigned int p)
{
	return s->cap ? s->load[p] / s->cap[p] : s->load[p];
}

static bool fj_more(const struct fj *s)
{
	return s->next < s->nflows;
}

static void fj_put(struct fj *s, unsigned int p)
{
	s->load[p] += s->demand ? s->demand[s->next] : 1;
	s->path_of[s->next++] = p;
}

/*
 * Algorithm 1's three inner loops at path @k; @level: the ring is level,
 * and k, a lightest path, takes a flow first.  Returns the flows placed.
 */
static unsigned int fj_at(struct fj *s, unsigned int k, bool level)
{
	unsigned int l = (k + s->n - 1) % s->n, r = (k + 1) % s->n;
	unsigned int from = s->next;

	if (level && fj_more(s))
		fj_put(s, k);
	/* flowing: the water settles in k while it is the sunken place */
	while (fj_more(s) && fj_util(s, k) < fj_util(s, l) &&
	       fj_util(s, k) < fj_util(s, r))
		fj_put(s, k);
	/* jumping: a lighter neighbour is raised to k's level */
	while (fj_more(s) && fj_util(s, l) < fj_util(s, k))
		fj_put(s, l);
	while (fj_more(s) && fj_util(s, r) < fj_util(s, k))
		fj_put(s, r);
	return s->next - from;
}

/* Finite loads, capacities above zero, demands at least zero. */
static bool fj_valid(const struct sluice_fj_ring *ring, const double *demand,
		     unsigned int nflows, const unsigned int *path_of)
{
	unsigned int p, i;

	if (!ring || !ring->load || !ring->npaths || !ring->draw ||
	    (nflows && !path_of))
		return false;
	for (p = 0; p < ring->npaths; p++)
		if (!isfinite(ring->load[p]) ||
		    (ring->cap && !(isfinite(ring->cap[p]) &&
				    ring->cap[p] > 0)))
			return false;
	for (i = 0; demand && i < nflows; i++)
		if (!(isfinite(demand[i]) && demand[i] >= 0))
			return false;
	return true;
}

/**
 * sluice_fj_place_ring() - Flowing&Jumping with capacities and draws given
 * @ring:	the paths' loads (raised in place), capacities and the draws
 * @demand:	each flow's load; NULL: 1 each
 * @nflows:	flows to place, in this order
 * @path_of:	filled: each flow's path
 *
 * Each draw starts at ring->draw() modulo the paths and places at least
 * one flow (sluice/fj.h), so there are at most @nflows draws.  Loads that
 * are not finite would make a plateau that never ends: refused.  On
 * -EINVAL nothing is changed.
 *
 * Return: 0, or -EINVAL (no paths, a NULL array or draw, a load not
 * finite, a capacity not above zero, a demand below zero or NaN).
 */
int sluice_fj_place_ring(const struct sluice_fj_ring *ring,
			 const double *demand, unsigned int nflows,
			 unsigned int *path_of)
{
	struct fj s = {
		.demand = demand, .nflows = nflows, .path_of = path_of,
	};
	unsigned int k, i;

	if (!fj_valid(ring, demand, nflows, path_of))
		return -EINVAL;
	s.load = ring->load;
	s.cap = ring->cap;
	s.n = ring->npaths;
	while (fj_more(&s)) {
		k = ring->draw(ring->draw_arg) % s.n;
		/* a plateau: slide on to where the water can run */
		for (i = 0; i < s.n && !fj_at(&s, (k + i) % s.n, false); i++)
			;
		if (i == s.n)
			fj_at(&s, k, true);
	}
	return 0;
}

struct fj_rng_draw {
	struct sluice_rng	*rng;
	unsigned int		npaths;
};

static unsigned int fj_rng_draw(void *arg)
{
	struct fj_rng_draw *d = arg;

	return (unsigned int)sluice_rng_below(d->rng, d->npaths);
}

/**
 * sluice_fj_place() - Flowing&Jumping on equal paths, random draws
 * @load:	the paths' loads, raised in place
 * @npaths:	paths, at least 1
 * @demand:	each flow's load; NULL: 1 each
 * @nflows:	flows to place, in this order
 * @rng:	the draws: uniform over the paths
 * @path_of:	filled: each flow's path
 *
 * Return: 0, or -EINVAL (see sluice_fj_place_ring(); also a NULL @rng).
 */
int sluice_fj_place(double *load, unsigned int npaths, const double *demand,
		    unsigned int nflows, struct sluice_rng *rng,
		    unsigned int *path_of)
{
	struct fj_rng_draw d = { .rng = rng, .npaths = npaths };
	struct sluice_fj_ring ring = {
		.load = load, .npaths = npaths,
		.draw = fj_rng_draw, .draw_arg = &d,
	};

	if (!rng)
		return -EINVAL;
	return sluice_fj_place_ring(&ring, demand, nflows, path_of);
}
