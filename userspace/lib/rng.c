// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xoshiro256** seeded by splitmix64; see sluice/rng.h for why we carry our
 * own.  The reference outputs are checked in tests/test_graph.c.
 */
#include <sluice/rng.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/**
 * sluice_rng_seed() - start a generator from a 64-bit seed
 * @r:		the generator
 * @seed:	any value, 0 included (splitmix64 never yields an all-zero state)
 */
void sluice_rng_seed(struct sluice_rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

/**
 * sluice_rng_next() - the next 64 random bits (xoshiro256**)
 * @r:		the generator
 */
uint64_t sluice_rng_next(struct sluice_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/**
 * sluice_rng_below() - a uniform integer in [0, @n)
 * @r:		the generator
 * @n:		the bound, at least 1
 *
 * Unbiased: draws that fall in the short last stretch of 2^64 mod @n are
 * drawn again, so the result is exactly uniform and depends only on the
 * seed.  Returns 0 for @n == 0.
 */
uint64_t sluice_rng_below(struct sluice_rng *r, uint64_t n)
{
	uint64_t threshold, x;

	if (n <= 1)
		return 0;
	threshold = -n % n;	/* 2^64 mod n */
	do {
		x = sluice_rng_next(r);
	} while (x < threshold);
	return x % n;
}

/**
 * sluice_rng_shuffle() - put @v in a uniformly random order (Fisher-Yates)
 * @r:		the generator
 * @v:		the array
 * @n:		its length
 */
void sluice_rng_shuffle(struct sluice_rng *r, uint32_t *v, size_t n)
{
	size_t i, j;
	uint32_t t;

	for (i = n; i > 1; i--) {
		j = sluice_rng_below(r, i);
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}
