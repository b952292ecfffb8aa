// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FaCa's load estimate and Flowing&Jumping (sluice/fj.h): the estimate
 * against values worked out by hand; Flowing&Jumping on the paper's Fig. 4
 * walk-through and on small cases worked out by hand (the ring's wrap, a
 * plateau, a level ring); then on many random cases against a checker that
 * replays every placement (each flow on a path strictly lighter than one
 * of its neighbours, unless all are level), against brute force over every
 * assignment (with unit flows on integer loads the heaviest path ends
 * where the best placement puts it), and from equal loads (spread within
 * one flow, exactly even for a multiple of the paths); and every error.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <sluice/fj.h>
#include <sluice/rng.h>
#include "ktap.h"

#define N_MAX	64
#define F_MAX	256

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-12 * (1 + fabs(b));
}

static void test_estimate(void)
{
	/* k = 0 or dt = 0: the old estimate stands */
	KTAP_EXPECT(sluice_faca_alpha(0, 5) == 1);
	KTAP_EXPECT(sluice_faca_alpha(3, 0) == 1);
	KTAP_EXPECT(sluice_faca_ewma(7, 100, 0, 1) == 7);
	/* a clock that stepped back, or nonsense, does not amplify */
	KTAP_EXPECT(sluice_faca_alpha(2, -1) == 1);
	KTAP_EXPECT(sluice_faca_alpha(-2, 1) == 1);
	KTAP_EXPECT(sluice_faca_alpha(NAN, 1) == 1);
	/* k dt = 1: 1/e; k dt = ln 2: a half */
	KTAP_EXPECT(near(sluice_faca_alpha(2, 0.5), 0.36787944117144233));
	KTAP_EXPECT(near(sluice_faca_alpha(log(2), 1), 0.5));
	KTAP_EXPECT(near(sluice_faca_ewma(10, 20, log(2), 1), 15));
	/* k dt = ln 4: a quarter of the old, three quarters of the probe */
	KTAP_EXPECT(near(sluice_faca_ewma(8, 4, log(4) / 0.25, 0.25), 5));
	/* a large k follows the probe */
	KTAP_EXPECT(sluice_faca_alpha(1e6, 1) == 0);
	KTAP_EXPECT(sluice_faca_ewma(1000, 3, 1e6, 1) == 3);
	/* no estimate yet: the first measure */
	KTAP_EXPECT(sluice_faca_ewma(NAN, 42, 0.1, 0.01) == 42);
	ktap_result("estimate: alpha and the EWMA of Eq. 2, 3 by hand");
}

/* Draws from an array, counted. */
struct seq {
	const unsigned int	*v;
	unsigned int		n, used;
};

static unsigned int seq_draw(void *arg)
{
	struct seq *s = arg;

	/* a draw past the end would be a bug: a path out of any range */
	return s->used < s->n ? s->v[s->used++] : (s->used++, 1000003);
}

static int place_seq(double *load, unsigned int n, const double *demand,
		     unsigned int nflows, const unsigned int *draws,
		     unsigned int ndraws, unsigned int *path_of,
		     unsigned int *used)
{
	struct seq s = { .v = draws, .n = ndraws };
	struct sluice_fj_ring ring = {
		.load = load, .npaths = n, .draw = seq_draw, .draw_arg = &s,
	};
	int ret = sluice_fj_place_ring(&ring, demand, nflows, path_of);

	*used = s.used;
	return ret;
}

static bool loads_are(const double *load, const double *want, unsigned int n)
{
	unsigned int p;

	for (p = 0; p < n; p++)
		if (load[p] != want[p]) {
			ktap_diag("path %u: load %g, want %g", p, load[p],
				  want[p]);
			return false;
		}
	return true;
}

/*
 * Fig. 4: 8 paths of bandwidth 10, six unit flows, draws path 1 then
 * (61 + 1) mod 8 = 6.  The text fixes the comparisons, not the loads:
 * load(0) > load(1) > load(2); path 2 takes flows until it reaches path
 * 1's level; load(6) above load(5) and load(7), which take flows until
 * they reach path 6's; and the six flows are used up exactly then.  The
 * figure's numbers are not in the text; these loads are ours, chosen to
 * fit: 2 flows to path 2 (4 -> 6), 2 to path 5 and 2 to path 7 (4 -> 6).
 * Paths 3 and 4 are never compared.
 */
static void test_fig4(void)
{
	double load[8] = { 8, 6, 4, 5, 7, 4, 6, 4 };
	static const double after[8] = { 8, 6, 6, 5, 7, 6, 6, 6 };
	static const unsigned int draws[] = { 1, 61 + 1, 3 };
	static const unsigned int want[6] = { 2, 2, 5, 5, 7, 7 };
	unsigned int path_of[6], used, i;

	KTAP_EXPECT_INT(place_seq(load, 8, NULL, 6, draws, 3, path_of, &used),
			0);
	for (i = 0; i < 6; i++)
		KTAP_EXPECT_INT(path_of[i], want[i]);
	KTAP_EXPECT(loads_are(load, after, 8));
	/* two draws and no third: the flows ran out at path 7 */
	KTAP_EXPECT_INT(used, 2);
	ktap_result("fig4: the paper's walk-through, draws 1 and 61 + 1");
}

static void test_hand(void)
{
	double wrap[8] = { 5, 6, 6, 6, 6, 6, 6, 3 };
	static const double wrap_after[8] = { 5, 6, 6, 6, 6, 6, 6, 5 };
	double plateau[4] = { 1, 1, 1, 2 };
	static const double plateau_after[4] = { 1, 1, 2, 2 };
	double shelf[4] = { 3, 3, 5, 9 };
	double level[3] = { 3, 3, 3 };
	static const double level_after[3] = { 4, 4, 4 };
	double valley[5] = { 9, 2, 9, 9, 9 };
	double sized[3] = { 4, 1, 4 }, cap[3] = { 1, 1, 1 };
	static const double sizes[3] = { 2.5, 0, 1 };
	double one = 7;
	unsigned int path_of[8], used;
	struct seq s = { .v = (const unsigned int[]){ 2 }, .n = 1 };
	struct sluice_fj_ring ring = {
		.load = sized, .cap = cap, .npaths = 3, .draw = seq_draw,
		.draw_arg = &s,
	};

	/* path 0's left neighbour is path 7: the ring wraps */
	KTAP_EXPECT_INT(place_seq(wrap, 8, NULL, 2, (const unsigned int[]){ 0 },
				  1, path_of, &used), 0);
	KTAP_EXPECT_INT(path_of[0], 7);
	KTAP_EXPECT_INT(path_of[1], 7);
	KTAP_EXPECT(loads_are(wrap, wrap_after, 8));
	/*
	 * A plateau: nothing runs at 0, 1 or 2; at 3 the water runs left
	 * onto 2, the plateau's edge.
	 */
	KTAP_EXPECT_INT(place_seq(plateau, 4, NULL, 1,
				  (const unsigned int[]){ 0 }, 1, path_of,
				  &used), 0);
	KTAP_EXPECT_INT(path_of[0], 2);
	KTAP_EXPECT(loads_are(plateau, plateau_after, 4));
	/*
	 * Level with one neighbour is not "lighter than both": 1 takes
	 * nothing as the drawn path, and both flows as path 2's lighter
	 * left neighbour (0 would take the second if 1 had flowed).
	 */
	KTAP_EXPECT_INT(place_seq(shelf, 4, NULL, 2,
				  (const unsigned int[]){ 1 }, 1, path_of,
				  &used), 0);
	KTAP_EXPECT_INT(path_of[0], 1);
	KTAP_EXPECT_INT(path_of[1], 1);
	/* level: the drawn path, then its left and right neighbours */
	KTAP_EXPECT_INT(place_seq(level, 3, NULL, 3,
				  (const unsigned int[]){ 1 }, 1, path_of,
				  &used), 0);
	KTAP_EXPECT_INT(path_of[0], 1);
	KTAP_EXPECT_INT(path_of[1], 0);
	KTAP_EXPECT_INT(path_of[2], 2);
	KTAP_EXPECT(loads_are(level, level_after, 3));
	/* flowing: a valley takes flows until it is level with a neighbour */
	KTAP_EXPECT_INT(place_seq(valley, 5, NULL, 8,
				  (const unsigned int[]){ 1, 4 }, 2, path_of,
				  &used), 0);
	KTAP_EXPECT_INT(path_of[0], 1);
	KTAP_EXPECT_INT(path_of[6], 1);
	KTAP_EXPECT(valley[1] == 9);
	/* then the ring is level: the drawn path takes the last flow */
	KTAP_EXPECT_INT(path_of[7], 4);
	KTAP_EXPECT_INT(used, 2);
	/*
	 * A flow is compared before it is placed: 2.5 lands on path 1 (1 <
	 * 4), the empty flow too (3.5 < 4), then 1 on it (3.5 < 4): 4.5.
	 */
	KTAP_EXPECT_INT(sluice_fj_place_ring(&ring, sizes, 3, path_of), 0);
	KTAP_EXPECT_INT(path_of[0], 1);
	KTAP_EXPECT_INT(path_of[1], 1);
	KTAP_EXPECT_INT(path_of[2], 1);
	KTAP_EXPECT(sized[1] == 4.5);
	/* one path: every flow on it */
	KTAP_EXPECT_INT(place_seq(&one, 1, NULL, 3,
				  (const unsigned int[]){ 5, 6, 7 }, 3, path_of,
				  &used), 0);
	KTAP_EXPECT(one == 10);
	KTAP_EXPECT_INT(used, 3);
	ktap_result("hand: the ring's wrap, a plateau, a level ring, flowing, sizes, one path");
}

/*
 * The checker: replays @path_of from @init and fails unless every flow went
 * on a path strictly lighter than one of its neighbours, or all paths
 * were level when it was placed; @load must be where the replay ends.
 */
static bool replay_ok(const double *init, const double *cap, unsigned int n,
		      const double *demand, unsigned int nflows,
		      const unsigned int *path_of, const double *load)
{
	double u[N_MAX], cur[N_MAX];
	unsigned int i, p, q;
	bool level;

	memcpy(cur, init, n * sizeof(*cur));
	for (i = 0; i < nflows; i++) {
		p = path_of[i];
		if (p >= n) {
			ktap_diag("flow %u on path %u of %u", i, p, n);
			return false;
		}
		for (q = 0; q < n; q++)
			u[q] = cap ? cur[q] / cap[q] : cur[q];
		level = true;
		for (q = 1; q < n; q++)
			level &= u[q] == u[0];
		if (!level && !(u[p] < u[(p + n - 1) % n] ||
				u[p] < u[(p + 1) % n])) {
			ktap_diag("flow %u on path %u at %g, neighbours %g and %g",
				  i, p, u[p], u[(p + n - 1) % n],
				  u[(p + 1) % n]);
			return false;
		}
		cur[p] += demand ? demand[i] : 1;
	}
	for (q = 0; q < n; q++)
		if (cur[q] != load[q]) {
			ktap_diag("path %u: load %g, the replay %g", q, load[q],
				  cur[q]);
			return false;
		}
	return true;
}

static double max_of(const double *v, unsigned int n)
{
	double m = v[0];
	unsigned int p;

	for (p = 1; p < n; p++)
		m = v[p] > m ? v[p] : m;
	return m;
}

/* The least heaviest load of any placement of @f unit flows: all n^f. */
static double brute_best_max(const double *init, unsigned int n,
			     unsigned int f)
{
	unsigned int pick[8] = { 0 }, i;
	double cur[8], best = INFINITY, m;

	for (;;) {
		memcpy(cur, init, n * sizeof(*cur));
		for (i = 0; i < f; i++)
			cur[pick[i]] += 1;
		m = max_of(cur, n);
		best = m < best ? m : best;
		/* the next assignment, as a number in base n */
		for (i = 0; i < f && ++pick[i] == n; i++)
			pick[i] = 0;
		if (i == f)
			return best;
	}
}

static void test_random_unit(void)
{
	struct sluice_rng rng, draws;
	double init[8], load[8];
	unsigned int path_of[8], n, f, p, c, bad = 0, worse = 0;

	sluice_rng_seed(&rng, 4);
	for (c = 0; c < 300; c++) {
		n = 1 + sluice_rng_below(&rng, 5);
		f = sluice_rng_below(&rng, 6);
		for (p = 0; p < n; p++)
			init[p] = load[p] = sluice_rng_below(&rng, 5);
		sluice_rng_seed(&draws, c);
		if (sluice_fj_place(load, n, NULL, f, &draws, path_of) ||
		    !replay_ok(init, NULL, n, NULL, f, path_of, load))
			bad++;
		if (max_of(load, n) != brute_best_max(init, n, f))
			worse++;
	}
	KTAP_EXPECT_INT(bad, 0);
	KTAP_EXPECT_INT(worse, 0);
	ktap_result("random unit flows on integer loads: the checker, and the heaviest path as low as brute force gets it (300 cases)");
}

/* Counts the draws: each must place at least one flow. */
struct counted {
	struct sluice_rng	*rng;
	unsigned int		n, used;
};

static unsigned int counted_draw(void *arg)
{
	struct counted *c = arg;

	c->used++;
	/* any number: the ring takes it modulo the paths */
	return (unsigned int)sluice_rng_next(c->rng);
}

static void test_random_sized(void)
{
	static double init[N_MAX], load[N_MAX], cap[N_MAX], demand[F_MAX];
	static unsigned int path_of[F_MAX];
	struct sluice_rng rng;
	struct counted cd = { .rng = &rng };
	struct sluice_fj_ring ring = {
		.load = load, .draw = counted_draw, .draw_arg = &cd,
	};
	unsigned int n, f, p, i, c, bad = 0, many = 0;
	bool caps;

	sluice_rng_seed(&rng, 19);
	for (c = 0; c < 400; c++) {
		n = 1 + sluice_rng_below(&rng, 12);
		f = sluice_rng_below(&rng, 40);
		caps = sluice_rng_below(&rng, 2);
		for (p = 0; p < n; p++) {
			/* some ties: loads on a coarse grid half the time */
			init[p] = load[p] = c % 2 ?
				sluice_rng_below(&rng, 1000) / 100.0 :
				(double)sluice_rng_below(&rng, 4);
			cap[p] = 0.5 + sluice_rng_below(&rng, 4) / 2.0;
		}
		for (i = 0; i < f; i++)
			demand[i] = sluice_rng_below(&rng, 7) / 2.0;
		ring.cap = caps ? cap : NULL;
		ring.npaths = n;
		cd.used = 0;
		if (sluice_fj_place_ring(&ring, demand, f, path_of) ||
		    !replay_ok(init, ring.cap, n, demand, f, path_of, load))
			bad++;
		many += cd.used > f;
	}
	KTAP_EXPECT_INT(bad, 0);
	KTAP_EXPECT_INT(many, 0);
	ktap_result("random sizes and capacities: the checker, at most one draw a flow (400 cases)");
}

static void test_equal(void)
{
	static double load[N_MAX];
	static unsigned int path_of[N_MAX * 8];
	struct sluice_rng rng, draws;
	unsigned int n, m, f, p, c, uneven = 0, spread = 0;
	double lo, hi;

	sluice_rng_seed(&rng, 77);
	for (c = 0; c < 200; c++) {
		n = 1 + sluice_rng_below(&rng, N_MAX);
		m = sluice_rng_below(&rng, 8);
		/* a multiple of the paths, or any count */
		f = c % 2 ? n * m : sluice_rng_below(&rng, n * 8);
		for (p = 0; p < n; p++)
			load[p] = 5;
		sluice_rng_seed(&draws, 1000 + c);
		if (sluice_fj_place(load, n, NULL, f, &draws, path_of)) {
			spread++;
			continue;
		}
		lo = hi = load[0];
		for (p = 1; p < n; p++) {
			lo = load[p] < lo ? load[p] : lo;
			hi = load[p] > hi ? load[p] : hi;
		}
		spread += hi - lo > 1;
		uneven += c % 2 && (lo != 5 + m || hi != 5 + m);
	}
	KTAP_EXPECT_INT(spread, 0);
	KTAP_EXPECT_INT(uneven, 0);
	ktap_result("equal loads: any count within one flow, n m flows m each (200 cases, up to 64 paths)");
}

static void test_errors(void)
{
	struct sluice_rng rng;
	double load[3] = { 1, 2, 3 }, bad_cap[3] = { 1, 0, 1 };
	unsigned int path_of[2];
	struct sluice_fj_ring ring = {
		.load = load, .npaths = 3, .draw = seq_draw,
		.draw_arg = &(struct seq){ .v = (const unsigned int[]){ 0 },
					   .n = 1 },
	};

	sluice_rng_seed(&rng, 1);
	KTAP_EXPECT_INT(sluice_fj_place(load, 0, NULL, 1, &rng, path_of),
			-EINVAL);
	KTAP_EXPECT_INT(sluice_fj_place(NULL, 3, NULL, 1, &rng, path_of),
			-EINVAL);
	KTAP_EXPECT_INT(sluice_fj_place(load, 3, NULL, 1, NULL, path_of),
			-EINVAL);
	KTAP_EXPECT_INT(sluice_fj_place(load, 3, NULL, 1, &rng, NULL),
			-EINVAL);
	KTAP_EXPECT_INT(sluice_fj_place(load, 3, (const double[]){ -1 }, 1,
					&rng, path_of), -EINVAL);
	KTAP_EXPECT_INT(sluice_fj_place(load, 3, (const double[]){ NAN }, 1,
					&rng, path_of), -EINVAL);
	load[1] = INFINITY;
	KTAP_EXPECT_INT(sluice_fj_place(load, 3, NULL, 1, &rng, path_of),
			-EINVAL);
	load[1] = 2;
	ring.cap = bad_cap;
	KTAP_EXPECT_INT(sluice_fj_place_ring(&ring, NULL, 1, path_of),
			-EINVAL);
	ring.cap = NULL;
	ring.draw = NULL;
	KTAP_EXPECT_INT(sluice_fj_place_ring(&ring, NULL, 1, path_of),
			-EINVAL);
	KTAP_EXPECT_INT(sluice_fj_place_ring(NULL, NULL, 1, path_of),
			-EINVAL);
	/* nothing changed by the refusals */
	KTAP_EXPECT(load[0] == 1 && load[1] == 2 && load[2] == 3);
	/* no flows: nothing to do, no array needed */
	KTAP_EXPECT_INT(sluice_fj_place(load, 3, NULL, 0, &rng, NULL), 0);
	ktap_result("errors: -EINVAL, nothing changed");
}

int main(void)
{
	static void (*const tests[])(void) = {
		test_estimate, test_fig4, test_hand, test_random_unit,
		test_random_sized, test_equal, test_errors,
	};
	unsigned int i;

	ktap_plan(ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
