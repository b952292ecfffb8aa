/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The random numbers behind every seeded generator: xoshiro256** 1.0
 * (Blackman and Vigna, https://prng.di.unimi.it/), its state filled from the
 * seed by splitmix64 as its authors recommend.  It is ours, not libc's, so
 * that a topology depends on its seed alone: the same seed gives the same
 * fabric on every machine, libc and compiler.  Not for cryptography.
 */
#ifndef _SLUICE_RNG_H
#define _SLUICE_RNG_H

#include <stddef.h>
#include <stdint.h>

struct sluice_rng {
	uint64_t	s[4];
};

/* Time: O(1). */
void sluice_rng_seed(struct sluice_rng *r, uint64_t seed);
/* Time: O(1). */
uint64_t sluice_rng_next(struct sluice_rng *r);
/* Time: O(1) expected. */
uint64_t sluice_rng_below(struct sluice_rng *r, uint64_t n);
/* Time: O(n). */
void sluice_rng_shuffle(struct sluice_rng *r, uint32_t *v, size_t n);

#endif /* _SLUICE_RNG_H */
