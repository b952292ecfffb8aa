// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FaCa's load estimate (Section 5.4, Eq. 2 and 3): an exponentially
 * weighted moving average of a path's bandwidth-delay product whose
 * weight decays with the time since the last update, as a body cools by
 * Newton's law.  See sluice/fj.h.
 */
#include <math.h>
#include <sluice/fj.h>

/**
 * sluice_faca_alpha() - the weight of the old estimate, exp(-k dt) (Eq. 3)
 * @k:		the decay constant, per second
 * @dt_s:	seconds since the last update
 *
 * A @k or @dt_s that is not above zero (negative, zero or NaN) gives 1:
 * the old estimate stands.  A clock that stepped back must not make
 * alpha exceed 1, which would amplify the estimate instead of smoothing
 * it.  exp() of a huge product underflows to 0: the probe alone.
 *
 * Return: alpha in [0, 1].
 */
double sluice_faca_alpha(double k, double dt_s)
{
	if (!(k > 0) || !(dt_s > 0))
		return 1;
	return exp(-(k * dt_s));
}

/**
 * sluice_faca_ewma() - the estimate after a probe (Eq. 2)
 * @e_prev:	the estimate at the last update; NaN: none yet
 * @beta:	the probe's bandwidth-delay product (Eq. 1)
 * @k:		the decay constant, per second
 * @dt_s:	seconds since the last update
 *
 * A path without an estimate yet (@e_prev NaN) starts at its first
 * measure, which is what the average tends to anyway.
 *
 * Return: a E(t - dt) + (1 - a) beta.
 */
double sluice_faca_ewma(double e_prev, double beta, double k, double dt_s)
{
	double a = sluice_faca_alpha(k, dt_s);

	if (isnan(e_prev))
		return beta;
	return a * e_prev + (1 - a) * beta;
}
