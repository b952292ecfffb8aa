// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The growable per-source path buffer algorithms fill (sluice/route.h),
 * the algorithm names and which options each takes, and the endpoints and
 * identity of a topology.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/route.h>
#include "graph/internal.h"

static const char *const algo_names[SLUICE_ROUTE__COUNT] = {
	[SLUICE_ROUTE_FC]		= "fc",
	[SLUICE_ROUTE_EDST]		= "edst",
	[SLUICE_ROUTE_EDST_SHALLOW]	= "edst-shallow",
	[SLUICE_ROUTE_ECMP]		= "ecmp",
	[SLUICE_ROUTE_KSP]		= "ksp",
	[SLUICE_ROUTE_UPDOWN]		= "updown",
	[SLUICE_ROUTE_BCUBE]		= "bcube",
	[SLUICE_ROUTE_ECMP_CW]		= "ecmp-cw",
};

const char *sluice_route_algo_name(enum sluice_route_algo algo)
{
	if ((unsigned int)algo >= SLUICE_ROUTE__COUNT)
		return "?";
	return algo_names[algo];
}

/* Returns the enum sluice_route_algo, or -EINVAL. */
int sluice_route_algo_parse(const char *name)
{
	int i;

	for (i = 0; i < SLUICE_ROUTE__COUNT; i++)
		if (!strcmp(name, algo_names[i]))
			return i;
	return -EINVAL;
}

/* @opt's name as the caller's user knows it, else its field's. */
static const char *opt_name(const char *const *names, unsigned int opt)
{
	static const char *const fields[SLUICE_ROUTE_OPT__COUNT] = {
		[SLUICE_ROUTE_OPT_PATHS]	= "paths",
		[SLUICE_ROUTE_OPT_LANES]	= "lanes",
		[SLUICE_ROUTE_OPT_SEED]		= "seed",
		[SLUICE_ROUTE_OPT_ORIENT]	= "orient",
		[SLUICE_ROUTE_OPT_ROOT]		= "root",
	};

	return names && names[opt] ? names[opt] : fields[opt];
}

/* See sluice/route.h. */
int sluice_route_opts_check(struct sluice_route_opts *o, unsigned int given,
			    const char *orient, const char *const *names,
			    char *err, size_t errlen)
{
	enum sluice_route_algo a = o->algo;

#define GIVEN(opt)	(given & (1u << SLUICE_ROUTE_OPT_##opt))
#define NAME(opt)	opt_name(names, SLUICE_ROUTE_OPT_##opt)
	if (GIVEN(PATHS) && a != SLUICE_ROUTE_KSP && a != SLUICE_ROUTE_ECMP &&
	    a != SLUICE_ROUTE_ECMP_CW && a != SLUICE_ROUTE_UPDOWN)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s applies to ksp, ecmp and updown",
				     NAME(PATHS));
	if ((GIVEN(LANES) || GIVEN(SEED)) && a != SLUICE_ROUTE_EDST &&
	    a != SLUICE_ROUTE_EDST_SHALLOW)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s and %s apply to edst and edst-shallow",
				     NAME(LANES), NAME(SEED));
	if ((GIVEN(ORIENT) || GIVEN(ROOT)) && a != SLUICE_ROUTE_UPDOWN)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s and %s apply to updown",
				     NAME(ORIENT), NAME(ROOT));
	if (GIVEN(ORIENT) && orient) {
		if (!strcmp(orient, "auto"))
			o->orient = SLUICE_ORIENT_AUTO;
		else if (!strcmp(orient, "tier"))
			o->orient = SLUICE_ORIENT_TIER;
		else if (!strcmp(orient, "bfs"))
			o->orient = SLUICE_ORIENT_BFS;
		else
			return sluice_i_errf(err, errlen, -EINVAL,
					     "%s: \"%s\" is not auto, tier or bfs",
					     NAME(ORIENT), orient);
	}
	if (GIVEN(ROOT) && o->orient == SLUICE_ORIENT_TIER)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s is for %s bfs", NAME(ROOT),
				     NAME(ORIENT));
	/* a root is a BFS's: auto means bfs then */
	if (GIVEN(ROOT) && o->orient == SLUICE_ORIENT_AUTO)
		o->orient = SLUICE_ORIENT_BFS;
#undef GIVEN
#undef NAME
	return 0;
}

/**
 * sluice_graph_endpoints() - the nodes routes are computed between
 * @g:	a finalized graph
 * @ep:	NULL, or room for g->n_nodes node ids, filled in increasing order
 *
 * Nodes with host ports and servers; every node if there are none.
 *
 * Return: the number of endpoints.
 */
uint32_t sluice_graph_endpoints(const struct sluice_graph *g, uint32_t *ep)
{
	uint32_t u, n = 0;

	for (u = 0; u < g->n_nodes; u++)
		if (sluice_node_is_endpoint(&g->nodes[u])) {
			if (ep)
				ep[n] = u;
			n++;
		}
	if (n)
		return n;
	for (u = 0; u < g->n_nodes; u++)
		if (ep)
			ep[u] = u;
	return g->n_nodes;
}

#define FNV_OFFSET	0xcbf29ce484222325ull
#define FNV_PRIME	0x100000001b3ull

static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const unsigned char *c = p;

	while (len--) {
		h ^= *c++;
		h *= FNV_PRIME;
	}
	return h;
}

static uint64_t fnv_u32(uint64_t h, uint32_t v)
{
	unsigned char b[4] = { v, v >> 8, v >> 16, v >> 24 };

	return fnv(h, b, sizeof(b));
}

/**
 * sluice_graph_hash() - a fingerprint of what routes depend on
 * @g:	a graph
 *
 * FNV-1a over the node names, kinds, host ports and tiers, and the links in id
 * order with their ends and layers, in a byte order of its own, so that it
 * is the same on every machine.  Where the topology came from (generator,
 * seed) is left out: two files describing the same fabric match.
 *
 * Return: the 64-bit hash.
 */
uint64_t sluice_graph_hash(const struct sluice_graph *g)
{
	uint64_t h = FNV_OFFSET;
	uint32_t i;

	h = fnv_u32(h, g->n_nodes);
	for (i = 0; i < g->n_nodes; i++) {
		const struct sluice_node *n = &g->nodes[i];

		h = fnv(h, n->name, strlen(n->name) + 1);
		h = fnv_u32(h, n->kind);
		h = fnv_u32(h, n->hosts);
		/* up-down by tiers depends on them */
		h = fnv_u32(h, n->tier);
	}
	h = fnv_u32(h, g->n_links);
	for (i = 0; i < g->n_links; i++) {
		const struct sluice_link *l = &g->links[i];

		h = fnv_u32(h, l->a);
		h = fnv_u32(h, l->b);
		h = fnv_u32(h, l->la | (uint32_t)l->lb << 8);
	}
	return h;
}

/**
 * sluice_path_buf_pair() - start the paths to destination @dst
 * @b:		the source's buffer
 * @dst:	the destination, greater than the previous one
 *
 * Return: 0, -EINVAL if @dst is out of order, or -ENOMEM.
 */
int sluice_path_buf_pair(struct sluice_path_buf *b, uint32_t dst)
{
	uint64_t cap = b->cap_pairs;
	int ret;

	if (b->n_pairs && dst <= b->pair_dst[b->n_pairs - 1])
		return -EINVAL;
	if (b->n_pairs == UINT32_MAX)
		return -ENOMEM;
	if (b->n_pairs == cap) {
		ret = SLUICE_I_GROW(b->pair_dst, cap, b->n_pairs + 1);
		if (!ret) {
			cap = b->cap_pairs;
			ret = SLUICE_I_GROW(b->pair_path, cap, b->n_pairs + 1);
		}
		if (ret)
			return ret;
		b->cap_pairs = cap;
	}
	b->pair_dst[b->n_pairs] = dst;
	b->pair_path[b->n_pairs] = b->n_paths;
	b->n_pairs++;
	return 0;
}

/**
 * sluice_path_buf_add() - one more path to the current destination
 * @b:		the source's buffer, after sluice_path_buf_pair()
 * @links:	the path's link ids from the source on
 * @n_links:	1 to SLUICE_PATH_HOPS_MAX
 * @lane:	below SLUICE_LANES_MAX
 *
 * Return: 0, -EINVAL (no pair started, bad length or lane) or -ENOMEM.
 */
int sluice_path_buf_add(struct sluice_path_buf *b, const uint32_t *links,
			uint32_t n_links, uint8_t lane)
{
	uint64_t cap;
	int ret;

	if (!b->n_pairs || !n_links || n_links > SLUICE_PATH_HOPS_MAX ||
	    lane >= SLUICE_LANES_MAX)
		return -EINVAL;
	if (b->n_paths == b->cap_paths) {
		cap = b->cap_paths;
		ret = SLUICE_I_GROW(b->path_hop, cap, b->n_paths + 1);
		if (!ret) {
			cap = b->cap_paths;
			ret = SLUICE_I_GROW(b->path_lane, cap, b->n_paths + 1);
		}
		if (ret)
			return ret;
		b->cap_paths = cap;
	}
	if (b->n_hops + n_links > b->cap_hops) {
		ret = SLUICE_I_GROW(b->hops, b->cap_hops, b->n_hops + n_links);
		if (ret)
			return ret;
	}
	b->path_hop[b->n_paths] = b->n_hops;
	b->path_lane[b->n_paths] = lane;
	b->n_paths++;
	memcpy(b->hops + b->n_hops, links, n_links * sizeof(*links));
	b->n_hops += n_links;
	return 0;
}

/* Empties @b for source @src, keeping its memory. */
void sluice_path_buf_reset(struct sluice_path_buf *b, uint32_t src)
{
	b->src = src;
	b->n_pairs = 0;
	b->n_paths = 0;
	b->n_hops = 0;
	b->truncated_pairs = 0;
}

void sluice_path_buf_free(struct sluice_path_buf *b)
{
	free(b->pair_dst);
	free(b->pair_path);
	free(b->path_hop);
	free(b->path_lane);
	free(b->hops);
	memset(b, 0, sizeof(*b));
}
