// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Source-port ranges and their round-robin allocator (sluice/sport.h).
 */
#include <errno.h>
#include <sluice/sport.h>

#include "../parse.h"

static int port_parse(const char *s, char **end, uint16_t *port)
{
	unsigned long v;

	if (parse_decimal(s, end, &v) || !v || v > UINT16_MAX)
		return -EINVAL;
	*port = v;
	return 0;
}

int sluice_sport_range_parse(const char *s, struct sluice_sport_range *r)
{
	uint16_t min, max;
	char *end;

	if (port_parse(s, &end, &min))
		return -EINVAL;
	max = min;
	if (*end == '-' && port_parse(end + 1, &end, &max))
		return -EINVAL;
	if (*end || max < min)
		return -EINVAL;
	r->min = min;
	r->max = max;
	return 0;
}

void sluice_sport_rr_init(struct sluice_sport_rr *rr,
			  const struct sluice_sport_range *r)
{
	rr->range = *r;
	rr->next = r->min;
}

int sluice_sport_rr_next(struct sluice_sport_rr *rr, sluice_sport_taken_fn taken,
			 void *ctx)
{
	unsigned int n = rr->range.max - rr->range.min + 1, i, port;
	int ret;

	for (i = 0, port = rr->next; i < n; i++) {
		ret = taken(ctx, port);
		if (ret < 0)
			return ret;
		if (!ret) {
			rr->next = port == rr->range.max ? rr->range.min : port + 1;
			return port;
		}
		port = port == rr->range.max ? rr->range.min : port + 1;
	}
	return -EADDRINUSE;
}
