// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Ports in use toward peers (internal.h), sorted once per round and
 * looked up once per lease that reached its time.
 */
#include <stdlib.h>

#include "internal.h"

static int peer_cmp(const void *x, const void *y)
{
	const struct sluice_i_port_peer *a = x, *b = y;

	if (a->sport != b->sport)
		return a->sport < b->sport ? -1 : 1;
	if (a->dst != b->dst)
		return a->dst < b->dst ? -1 : 1;
	return 0;
}

void sluice_i_port_peers_sort(struct sluice_i_port_peer *v, size_t n)
{
	if (n)
		qsort(v, n, sizeof(*v), peer_cmp);
}

bool sluice_i_port_peer_has(const struct sluice_i_port_peer *v, size_t n,
			    uint16_t sport, uint32_t dst)
{
	struct sluice_i_port_peer key = { .sport = sport, .dst = dst };

	return n && bsearch(&key, v, n, sizeof(*v), peer_cmp);
}
