// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A path the agent learned, named by a route set (sluice/faca.h): the
 * records of a fabric's link ports carry their switch's node index and
 * their link's id (sluice/fabric.h, fabric up --int-port), so a probe's
 * records spell the links its path takes, which is how a route file
 * writes a path.
 */
#include <errno.h>
#include <string.h>
#include <sluice/fabric.h>
#include <sluice/faca.h>
#include <sluice/route.h>

/* The pair (@src, @dst) of @r, or -1: pairs are sorted by (src, dst). */
static int64_t pair_find(const struct sluice_routes *r, uint32_t src,
			 uint32_t dst)
{
	uint64_t lo = 0, hi = r->n_pairs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->pair_src[mid] < src ||
		    (r->pair_src[mid] == src && r->pair_dst[mid] < dst))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->n_pairs && r->pair_src[lo] == src && r->pair_dst[lo] == dst)
		return lo;
	return -1;
}

int sluice_faca_route_of(const struct sluice_graph *g,
			 const struct sluice_routes *r,
			 const struct sluice_faca_hop *hop, unsigned int n_hops,
			 uint64_t *pair, uint64_t *path)
{
	uint32_t links[SLUICE_INT_MAX_RECS], n = 0, src = 0, at = 0;
	const struct sluice_link *l;
	uint64_t q, last;
	unsigned int i;
	int64_t p;

	for (i = 0; i < n_hops && i < SLUICE_INT_MAX_RECS; i++) {
		/* a host's cable, or no link of this topology */
		if (hop[i].link & SLUICE_FABRIC_INT_HOST ||
		    hop[i].link >= g->n_links)
			continue;
		l = &g->links[hop[i].link];
		/* each link port sends from where the walk stands */
		if (!n && hop[i].node != l->a && hop[i].node != l->b)
			return -ENOENT;
		if (!n)
			src = at = hop[i].node;
		else if (hop[i].node != at)
			return -ENOENT;
		at = l->a == at ? l->b : l->a;
		links[n++] = hop[i].link;
	}
	p = n ? pair_find(r, src, at) : -1;
	if (p < 0)
		return -ENOENT;
	last = r->pair_path[p + 1];
	for (q = r->pair_path[p]; q < last; q++)
		if (sluice_routes_path_len(r, q) == n &&
		    !memcmp(&r->hops[r->path_hop[q]], links, n * sizeof(*links))) {
			*pair = p;
			*path = q;
			return 0;
		}
	return -ENOENT;
}
