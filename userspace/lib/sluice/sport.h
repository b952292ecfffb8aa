/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Source ports for new flows (lib/faca/sport.c): a range of them, and a
 * round-robin allocator over it that skips the ports a caller says are in
 * use.  The fixed policy of "sluicectl faca hook --sports A-B"; FaCa's
 * agent chooses by path instead.
 */
#ifndef _SLUICE_SPORT_H
#define _SLUICE_SPORT_H

#include <stdint.h>

struct sluice_sport_range {
	uint16_t	min, max;	/* 1 <= min <= max */
};

/*
 * Reads "A-B" (A <= B) or "A", each 1..65535, into @r.  Returns 0 or
 * -EINVAL.  Time: O(length of @s).
 */
int sluice_sport_range_parse(const char *s, struct sluice_sport_range *r);

/* Whether @port is in use: 1 yes, 0 no, or a negative errno. */
typedef int (*sluice_sport_taken_fn)(void *ctx, uint16_t port);

struct sluice_sport_rr {
	struct sluice_sport_range range;
	uint16_t	next;		/* the port the next search starts at */
};

void sluice_sport_rr_init(struct sluice_sport_rr *rr,
			  const struct sluice_sport_range *r);

/*
 * The first port of the range, in cyclic order from rr->next, that @taken
 * says is free; rr->next then moves past it, so that ports are handed out
 * in turn.  Returns the port, -EADDRINUSE if every port of the range is
 * taken (rr->next unchanged), or @taken's error.  Time: O(range size)
 * calls of @taken at worst, one when the next port is free.
 */
int sluice_sport_rr_next(struct sluice_sport_rr *rr, sluice_sport_taken_fn taken,
			 void *ctx);

#endif /* _SLUICE_SPORT_H */
