// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A switch's routes as data: built from a route set (what the switch
 * should hold), read from the kernel (lib/fabric/kroute.c: what it holds),
 * compared (sluice_lroutes_diff()) and printed.
 *
 * A route set's pair (u, v) becomes, at u, one IPv4 route to v's /24 whose
 * nexthops are the pair's paths in the file's order: path l_0 l_1 ...
 * l_(n-1) through switches s_0 = u, s_1, ..., s_n = v leaves u by l_0 via
 * s_1's address on l_0, pushing the labels of l_1 at s_1, ..., l_(n-1) at
 * s_(n-1) (the top label first).  Every switch also holds a label route per
 * link port, whatever the route set: label 100 + j pops and sends out of
 * port j via the peer's address, so that any stack a neighbour pushes
 * finds its way.
 *
 * A route set of several lanes gives the pair one IPv4 route per lane,
 * each with that lane's paths only, lane 0's in the main table and lane
 * i's in table SLUICE_LANE_TABLE(i), and every switch a rule per lane i >=
 * 1 that sends the lane's DSCP to its table (sluice/fabric.h has why).  A
 * pair with paths must have some on every lane: a lane without would fall
 * through to lane 0's routes with its own DSCP, in the wrong class on every
 * hop.  A set of one lane is built as it always was.
 *
 * The fabric's multipath mode (sluice/multipath.h) changes two things:
 * wcmp weighs each nexthop by its path's bottleneck; exact adds, per path
 * index k of the switch's pairs, a table SLUICE_MP_TABLE(k) holding each
 * pair's k-th path as a route of one nexthop, and two rules (TCP and UDP)
 * that send the source ports of path k there.  A port of a range the pair
 * has no path for finds nothing in the table and goes on to the main
 * table's multipath route, as every port outside the ranges does.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sluice/fabric.h>
#include "graph/internal.h"

/**
 * sluice_lroutes_init() - an empty route set of switch @node
 * @s:		the set
 * @node:	the switch, or SLUICE_NONE
 */
void sluice_lroutes_init(struct sluice_lroutes *s, uint32_t node)
{
	memset(s, 0, sizeof(*s));
	s->node = node;
}

/* Frees what the set holds; it is empty (and reusable) afterwards. O(1). */
void sluice_lroutes_free(struct sluice_lroutes *s)
{
	uint32_t node = s->node;

	free(s->routes);
	free(s->nhs);
	free(s->labels);
	sluice_lroutes_init(s, node);
}

/**
 * sluice_lroutes_add() - start a route; its nexthops follow
 * @s:		the set
 * @family:	SLUICE_LR_INET or SLUICE_LR_MPLS
 * @dst:	the IPv4 prefix (host order) or the label
 * @dst_len:	the prefix length (20 for a label)
 * @err:	"out of memory"
 * @errlen:	room in @err
 *
 * The route's provenance (dst_node, link, pair) starts unknown.
 *
 * Return: 0 or -ENOMEM.
 */
int sluice_lroutes_add(struct sluice_lroutes *s,
		       enum sluice_lroute_family family, uint32_t dst,
		       uint8_t dst_len, char *err, size_t errlen)
{
	struct sluice_lroute *r;

	if (SLUICE_I_GROW(s->routes, s->cap_routes, s->n_routes + 1))
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	r = &s->routes[s->n_routes++];
	memset(r, 0, sizeof(*r));
	r->family = family;
	r->dst = dst;
	r->dst_len = dst_len;
	r->nh = s->n_nhs;
	r->table = SLUICE_TABLE_MAIN;
	r->dst_node = SLUICE_NONE;
	r->link = SLUICE_NONE;
	r->lane = SLUICE_NONE;
	r->path = SLUICE_NONE;
	r->pair = UINT64_MAX;
	return 0;
}

/**
 * sluice_lroutes_add_rule() - the rule of lane @lane: its DSCP to its table
 * @s:		the set
 * @lane:	1 to SLUICE_LANES_MAX - 1
 * @err:	"out of memory"
 * @errlen:	room in @err
 *
 * Return: 0 or -ENOMEM.
 */
int sluice_lroutes_add_rule(struct sluice_lroutes *s, uint32_t lane,
			    char *err, size_t errlen)
{
	struct sluice_lroute *r;
	int ret;

	ret = sluice_lroutes_add(s, SLUICE_LR_RULE, SLUICE_LANE_DSCP(lane), 0,
				 err, errlen);
	if (ret)
		return ret;
	r = &s->routes[s->n_routes - 1];
	r->table = SLUICE_LANE_TABLE(lane);
	r->pref = SLUICE_LANE_RULE_PREF(lane);
	r->lane = lane;
	return 0;
}

/**
 * sluice_lroutes_add_sport_rule() - exact's rule of path index @k for one
 * protocol: its source ports to its table
 * @s:		the set
 * @k:		below SLUICE_MP_PATHS_MAX
 * @ip_proto:	IPPROTO_TCP or IPPROTO_UDP
 * @err:	"out of memory"
 * @errlen:	room in @err
 *
 * "ip rule add pref SLUICE_MP_RULE_PREF(k) ipproto PROTO sport LO-HI
 * lookup SLUICE_MP_TABLE(k)", the ports of sluice/multipath.h.
 *
 * Return: 0 or -ENOMEM.
 */
int sluice_lroutes_add_sport_rule(struct sluice_lroutes *s, uint32_t k,
				  uint8_t ip_proto, char *err, size_t errlen)
{
	struct sluice_lroute *r;
	int ret;

	ret = sluice_lroutes_add(s, SLUICE_LR_RULE, 0, 0, err, errlen);
	if (ret)
		return ret;
	r = &s->routes[s->n_routes - 1];
	r->table = SLUICE_MP_TABLE(k);
	r->pref = SLUICE_MP_RULE_PREF(k);
	r->path = k;
	r->ip_proto = ip_proto;
	r->sport_lo = SLUICE_MP_SPORT_BASE + k * SLUICE_MP_SPORT_WIDTH;
	r->sport_hi = r->sport_lo + SLUICE_MP_SPORT_WIDTH - 1;
	return 0;
}

/**
 * sluice_lroutes_add_nh() - a nexthop of the last route added
 * @s:		the set, with a route
 * @via:	the next hop's IPv4 address, host order (0: none)
 * @dev:	the device out
 * @labels:	the labels pushed, top first
 * @n_labels:	how many
 * @err:	"out of memory"
 * @errlen:	room in @err
 *
 * Return: 0 or -ENOMEM.
 */
int sluice_lroutes_add_nh(struct sluice_lroutes *s, uint32_t via,
			  const char *dev, const uint32_t *labels,
			  uint32_t n_labels, char *err, size_t errlen)
{
	struct sluice_lnh *nh;

	if (SLUICE_I_GROW(s->nhs, s->cap_nhs, s->n_nhs + 1) ||
	    SLUICE_I_GROW(s->labels, s->cap_labels, s->n_labels + n_labels))
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	nh = &s->nhs[s->n_nhs++];
	memset(nh, 0, sizeof(*nh));
	nh->via = via;
	snprintf(nh->dev, sizeof(nh->dev), "%s", dev);
	nh->label = s->n_labels;
	nh->n_labels = n_labels;
	nh->weight = 1;
	if (n_labels)
		memcpy(&s->labels[s->n_labels], labels,
		       n_labels * sizeof(*labels));
	s->n_labels += n_labels;
	s->routes[s->n_routes - 1].n_nh++;
	return 0;
}

/* Label routes first, then IPv4 routes, then rules (see below). */
static int family_rank(uint8_t family)
{
	return family == SLUICE_LR_MPLS ? 0 : family == SLUICE_LR_INET ? 1 : 2;
}

static int cmp_u32(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

/*
 * The key routes are sorted and matched by: label routes first (they do
 * not depend on anything), then IPv4 by table, address and prefix length,
 * then rules, last, so that a lane's routes are in before the rule that
 * leads to them.  A rule's key is all of it (DSCP, table, priority): two
 * rules of one key are equal, so a diff never replaces a rule (the kernel
 * has no replace for rules), it deletes one and adds another.  Exact's
 * rules add their protocol and source ports to the key.
 */
int sluice_lroute_cmp_key(const struct sluice_lroute *a,
			  const struct sluice_lroute *b)
{
	int c = family_rank(a->family) - family_rank(b->family);

	if (c)
		return c < 0 ? -1 : 1;
	if (a->family == SLUICE_LR_INET && (c = cmp_u32(a->table, b->table)))
		return c;
	if ((c = cmp_u32(a->dst, b->dst)))
		return c;
	if (a->family != SLUICE_LR_RULE)
		return cmp_u32(a->dst_len, b->dst_len);
	if ((c = cmp_u32(a->table, b->table)) ||
	    (c = cmp_u32(a->pref, b->pref)) ||
	    (c = cmp_u32(a->ip_proto, b->ip_proto)) ||
	    (c = cmp_u32(a->sport_lo, b->sport_lo)))
		return c;
	return cmp_u32(a->sport_hi, b->sport_hi);
}

static int cmp_route(const void *a, const void *b)
{
	return sluice_lroute_cmp_key(a, b);
}

/*
 * sluice_lroutes_sort() - order the routes by their key
 * @s:	the set
 *
 * Nexthops stay where they are (routes point at them), in their order
 * within each route.  Routes with the same key keep no particular order.
 */
void sluice_lroutes_sort(struct sluice_lroutes *s)
{
	if (s->n_routes > 1)
		qsort(s->routes, s->n_routes, sizeof(*s->routes), cmp_route);
}

/* Pairs are sorted by (source, destination): the first with source @u. */
static uint64_t first_pair(const struct sluice_routes *r, uint32_t u)
{
	uint64_t lo = 0, hi = r->n_pairs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->pair_src[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void dev_of_link(uint32_t link, char *buf)
{
	snprintf(buf, SLUICE_IFNAME_MAX, "l%u", link);
}

/* Which of a pair's paths a route holds, and how it weighs them. */
struct pick {
	uint32_t			lane;	/* SLUICE_NONE: any lane */
	uint32_t			path;	/* exact's k; SLUICE_NONE: all */
	const struct sluice_multipath	*mp;
};

static bool picked(const struct sluice_routes *r, uint64_t p, uint64_t q,
		   const struct pick *pk)
{
	return (pk->lane == SLUICE_NONE || r->path_lane[q] == pk->lane) &&
	       (pk->path == SLUICE_NONE || q - r->pair_path[p] == pk->path);
}

/* Path @q of pair @p as a nexthop of the last route added. */
static int path_nh(const struct sluice_graph *g,
		   const struct sluice_routes *r, uint64_t p, uint64_t q,
		   uint32_t weight, struct sluice_lroutes *s, char *err,
		   size_t errlen)
{
	uint32_t labels[SLUICE_FABRIC_LABELS_MAX], u = r->pair_src[p];
	uint32_t v = r->pair_dst[p], at, next, len, k, link;
	char dev[SLUICE_IFNAME_MAX];
	uint64_t h = r->path_hop[q];
	int ret, j;

	len = sluice_routes_path_len(r, q);
	if (len - 1 > SLUICE_FABRIC_LABELS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "%s -> %s path %llu has %u links: its %u labels are more than the kernel pushes (%d)",
				     g->nodes[u].name, g->nodes[v].name,
				     (unsigned long long)(q - r->pair_path[p] + 1),
				     len, len - 1, SLUICE_FABRIC_LABELS_MAX);
	link = r->hops[h];
	at = sluice_fabric_peer(g, u, link);
	for (k = 1; k < len; k++) {
		next = r->hops[h + k];
		j = sluice_fabric_port_index(g, at, next);
		if (j < 0)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "%s -> %s path %llu: link %u does not leave %s",
					     g->nodes[u].name, g->nodes[v].name,
					     (unsigned long long)(q - r->pair_path[p] + 1),
					     next, g->nodes[at].name);
		labels[k - 1] = SLUICE_FABRIC_LABEL_BASE + j;
		at = sluice_fabric_peer(g, at, next);
	}
	dev_of_link(link, dev);
	ret = sluice_lroutes_add_nh(s, sluice_fabric_link_addr(link, g->links[link].a == u),
				    dev, labels, len - 1, err, errlen);
	if (!ret)
		s->nhs[s->n_nhs - 1].weight = weight;
	return ret;
}

/*
 * wcmp's weights of the paths @pk picks of pair @p, in their order: each
 * path's bottleneck in proportion (sluice_wcmp_weights()).  *@weight is
 * set to an array to free(); left NULL in the other modes, whose weights
 * are all 1.
 */
static int pick_weights(const struct sluice_routes *r, uint64_t p,
			const struct pick *pk, uint32_t **weight, char *err,
			size_t errlen)
{
	uint64_t q, *cap;
	uint32_t n = 0;

	*weight = NULL;
	if (pk->mp->mode != SLUICE_MP_WCMP)
		return 0;
	*weight = sluice_i_calloc(sluice_routes_pair_paths(r, p) + 1,
				  sizeof(**weight));
	cap = sluice_i_calloc(sluice_routes_pair_paths(r, p) + 1,
			      sizeof(*cap));
	if (!*weight || !cap) {
		free(*weight);
		free(cap);
		*weight = NULL;
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++)
		if (picked(r, p, q, pk))
			cap[n++] = sluice_path_capacity(r, q, pk->mp->link_rate);
	sluice_wcmp_weights(cap, n, *weight);
	free(cap);
	return 0;
}

/*
 * The IPv4 route of pair @p at its source: one nexthop per path @pk picks
 * (those of a lane, in the lane's table; exact's path k, in its table;
 * or all of them, in the main table).
 */
static int pair_route(const struct sluice_graph *g,
		      const struct sluice_routes *r, uint64_t p,
		      const struct pick *pk, struct sluice_lroutes *s,
		      char *err, size_t errlen)
{
	uint32_t u = r->pair_src[p], v = r->pair_dst[p], *weight, n = 0;
	struct sluice_lroute *route;
	uint64_t q;
	int ret;

	ret = sluice_lroutes_add(s, SLUICE_LR_INET,
				 sluice_fabric_node_prefix(v), 24, err, errlen);
	if (!ret)
		ret = pick_weights(r, p, pk, &weight, err, errlen);
	if (ret)
		return ret;
	route = &s->routes[s->n_routes - 1];
	route->dst_node = v;
	route->pair = p;
	route->lane = pk->lane;
	route->path = pk->path;
	if (pk->lane != SLUICE_NONE)
		route->table = SLUICE_LANE_TABLE(pk->lane);
	else if (pk->path != SLUICE_NONE)
		route->table = SLUICE_MP_TABLE(pk->path);
	/* a server sends as itself: replies find it (sluice/fabric.h) */
	if (sluice_node_self_hosted(&g->nodes[u]))
		route->src = sluice_fabric_host_addr(u, 0, true);
	for (q = r->pair_path[p]; !ret && q < r->pair_path[p + 1]; q++)
		if (picked(r, p, q, pk))
			ret = path_nh(g, r, p, q, weight ? weight[n++] : 1, s,
				      err, errlen);
	free(weight);
	if (ret || s->routes[s->n_routes - 1].n_nh)
		return ret;
	/* a pair without a path gets no route at all */
	s->n_routes--;
	if (pk->lane != SLUICE_NONE && sluice_routes_pair_paths(r, p))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s -> %s has no path on lane %u: its frames would take lane 0's paths in lane %u's class",
				     g->nodes[u].name, g->nodes[v].name,
				     pk->lane, pk->lane);
	return 0;
}

/*
 * Pair @p's routes: one, or one per lane of a set of @lanes > 1; in exact
 * mode also one per path, each in its path index's table.
 */
static int pair_routes(const struct sluice_graph *g,
		       const struct sluice_routes *r, uint64_t p,
		       uint32_t lanes, const struct sluice_multipath *mp,
		       struct sluice_lroutes *s, char *err, size_t errlen)
{
	struct pick pk = { .lane = SLUICE_NONE, .path = SLUICE_NONE, .mp = mp };
	uint64_t k;
	int ret = 0;

	if (lanes == 1)
		ret = pair_route(g, r, p, &pk, s, err, errlen);
	for (pk.lane = 0; !ret && lanes > 1 && pk.lane < lanes; pk.lane++)
		ret = pair_route(g, r, p, &pk, s, err, errlen);
	pk.lane = SLUICE_NONE;
	for (k = 0; !ret && mp->mode == SLUICE_MP_EXACT &&
	     k < sluice_routes_pair_paths(r, p); k++) {
		pk.path = k;
		ret = pair_route(g, r, p, &pk, s, err, errlen);
	}
	return ret;
}

/* What a mode asks of switch @u's pairs, checked before anything is built. */
static int check_mode(const struct sluice_graph *g,
		      const struct sluice_routes *r, uint32_t u,
		      const struct sluice_multipath *mp, uint32_t lanes,
		      uint32_t *max_paths, char *err, size_t errlen)
{
	uint64_t p, n;
	uint32_t l;

	*max_paths = 0;
	if (mp->mode >= SLUICE_MP__COUNT)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "multipath mode %u unknown", mp->mode);
	if (mp->mode == SLUICE_MP_EXACT && lanes > 1)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "exact mode picks a pair's path by source port, a route set of %u lanes picks it by DSCP: not both",
				     lanes);
	for (l = 0; mp->mode == SLUICE_MP_WCMP && l < g->n_links; l++)
		if (!mp->link_rate || !mp->link_rate[l])
			return sluice_i_errf(err, errlen, -EINVAL,
					     "wcmp weighs paths by their links' rates: link %u has none",
					     l);
	for (p = first_pair(r, u); mp->mode == SLUICE_MP_EXACT &&
	     p < r->n_pairs && r->pair_src[p] == u; p++) {
		n = sluice_routes_pair_paths(r, p);
		if (n > SLUICE_MP_PATHS_MAX)
			return sluice_i_errf(err, errlen, -E2BIG,
					     "%s -> %s has %llu paths: exact mode gives source ports to %d at most (route compute --paths %d)",
					     g->nodes[u].name,
					     g->nodes[r->pair_dst[p]].name,
					     (unsigned long long)n,
					     SLUICE_MP_PATHS_MAX,
					     SLUICE_MP_PATHS_MAX);
		if (n > *max_paths)
			*max_paths = n;
	}
	return 0;
}

/**
 * sluice_lroutes_build() - the routes switch @u should hold, in hash mode
 * @g:		the topology, finalized
 * @r:		a route set of @g (validated, e.g. as read)
 * @u:		the switch
 * @s:		emptied, then filled and sorted (sluice_lroutes_sort())
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * sluice_lroutes_build_mp() with mode hash, the fabric's default.
 *
 * Return: 0, -E2BIG, -EINVAL or -ENOMEM.
 */
int sluice_lroutes_build(const struct sluice_graph *g,
			 const struct sluice_routes *r, uint32_t u,
			 struct sluice_lroutes *s, char *err, size_t errlen)
{
	static const struct sluice_multipath hash = { .mode = SLUICE_MP_HASH };

	return sluice_lroutes_build_mp(g, r, u, &hash, s, err, errlen);
}

/**
 * sluice_lroutes_build_mp() - the routes switch @u should hold
 * @g:		the topology, finalized
 * @r:		a route set of @g (validated, e.g. as read)
 * @u:		the switch
 * @mp:		the fabric's multipath mode (and wcmp's link rates)
 * @s:		emptied, then filled and sorted (sluice_lroutes_sort())
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * A label route per link port of @u, and an IPv4 route per destination
 * of @u's pairs that has a path; for a set of L > 1 lanes, one per lane and
 * destination, and L - 1 rules (see the top of the file).  wcmp weighs the
 * nexthops; exact adds a route per path and two rules per path index.  A
 * path of more than 31 links needs more labels than the kernel pushes and
 * is refused, naming it, as is a pair with paths but none on some lane;
 * exact refuses a set of lanes and a pair of more than SLUICE_MP_PATHS_MAX
 * paths, wcmp a link without a rate.
 *
 * Return: 0, -E2BIG, -EINVAL or -ENOMEM.
 */
int sluice_lroutes_build_mp(const struct sluice_graph *g,
			    const struct sluice_routes *r, uint32_t u,
			    const struct sluice_multipath *mp,
			    struct sluice_lroutes *s, char *err,
			    size_t errlen)
{
	uint32_t k, link, lanes = sluice_routes_lanes(r), max_paths;
	char dev[SLUICE_IFNAME_MAX];
	uint64_t p;
	int ret;

	sluice_lroutes_free(s);
	s->node = u;
	if (u >= g->n_nodes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "node %u does not exist (%u nodes)", u,
				     g->n_nodes);
	ret = check_mode(g, r, u, mp, lanes, &max_paths, err, errlen);
	if (ret)
		return ret;
	for (k = 0; k < sluice_graph_degree(g, u); k++) {
		link = g->adj[g->off[u] + k].link;
		ret = sluice_lroutes_add(s, SLUICE_LR_MPLS,
					 SLUICE_FABRIC_LABEL_BASE + k, 20,
					 err, errlen);
		if (ret)
			return ret;
		s->routes[s->n_routes - 1].link = link;
		dev_of_link(link, dev);
		ret = sluice_lroutes_add_nh(s,
					    sluice_fabric_link_addr(link, g->links[link].a == u),
					    dev, NULL, 0, err, errlen);
		if (ret)
			return ret;
	}
	for (p = first_pair(r, u); p < r->n_pairs && r->pair_src[p] == u;
	     p++) {
		ret = pair_routes(g, r, p, lanes, mp, s, err, errlen);
		if (ret)
			return ret;
	}
	for (k = 1; k < lanes; k++) {
		ret = sluice_lroutes_add_rule(s, k, err, errlen);
		if (ret)
			return ret;
	}
	for (k = 0; mp->mode == SLUICE_MP_EXACT && k < max_paths; k++) {
		ret = sluice_lroutes_add_sport_rule(s, k, IPPROTO_TCP, err,
						    errlen);
		if (!ret)
			ret = sluice_lroutes_add_sport_rule(s, k, IPPROTO_UDP,
							    err, errlen);
		if (ret)
			return ret;
	}
	sluice_lroutes_sort(s);
	return 0;
}

static bool nh_equal(const struct sluice_lroutes *a,
		     const struct sluice_lnh *x,
		     const struct sluice_lroutes *b,
		     const struct sluice_lnh *y)
{
	return x->via == y->via && !strcmp(x->dev, y->dev) &&
	       x->weight == y->weight && x->n_labels == y->n_labels &&
	       (!x->n_labels ||
		!memcmp(&a->labels[x->label], &b->labels[y->label],
			x->n_labels * sizeof(*a->labels)));
}

/**
 * sluice_lroute_equal() - whether two routes forward alike
 * @a:	a set
 * @i:	a route of @a
 * @b:	another set
 * @j:	a route of @b
 *
 * Same key and the same nexthops, weights included, in the same order (the
 * kernel keeps the order of an IPv4 route's nexthops).  Provenance does
 * not count.
 */
bool sluice_lroute_equal(const struct sluice_lroutes *a, uint64_t i,
			 const struct sluice_lroutes *b, uint64_t j)
{
	const struct sluice_lroute *x = &a->routes[i], *y = &b->routes[j];
	uint32_t k;

	if (sluice_lroute_cmp_key(x, y) || x->n_nh != y->n_nh ||
	    x->src != y->src)
		return false;
	for (k = 0; k < x->n_nh; k++)
		if (!nh_equal(a, &a->nhs[x->nh + k], b, &b->nhs[y->nh + k]))
			return false;
	return true;
}

static int add_op(struct sluice_ldiff *d, uint64_t *cap,
		  enum sluice_lop_kind kind, uint64_t want, uint64_t have)
{
	if (SLUICE_I_GROW(d->ops, *cap, d->n_ops + 1))
		return -ENOMEM;
	d->ops[d->n_ops].kind = kind;
	d->ops[d->n_ops].want = want;
	d->ops[d->n_ops].have = have;
	d->n_ops++;
	return 0;
}

/**
 * sluice_lroutes_diff() - what turns @have into @want
 * @want:	the routes wanted, sorted
 * @have:	the routes held, sorted
 * @d:		filled: the operations, in key order, and their counts;
 *		sluice_ldiff_free() it
 * @err:	"out of memory"
 * @errlen:	room in @err
 *
 * A merge of the two sorted sets: a key only in @want is added, only in
 * @have deleted, in both with other nexthops replaced.  A key held twice
 * (added by hand with another metric, say) keeps its first route matched
 * and has the others deleted.
 *
 * Return: 0 or -ENOMEM.
 */
int sluice_lroutes_diff(const struct sluice_lroutes *want,
			const struct sluice_lroutes *have,
			struct sluice_ldiff *d, char *err, size_t errlen)
{
	uint64_t i = 0, j = 0, cap = 0;
	int c, ret = 0;

	memset(d, 0, sizeof(*d));
	while (!ret && (i < want->n_routes || j < have->n_routes)) {
		if (i == want->n_routes)
			c = 1;
		else if (j == have->n_routes)
			c = -1;
		else
			c = sluice_lroute_cmp_key(&want->routes[i],
						  &have->routes[j]);
		if (c < 0) {
			ret = add_op(d, &cap, SLUICE_LOP_ADD, i++, UINT64_MAX);
			d->added++;
		} else if (c > 0) {
			ret = add_op(d, &cap, SLUICE_LOP_DELETE, UINT64_MAX,
				     j++);
			d->deleted++;
		} else {
			if (sluice_lroute_equal(want, i, have, j)) {
				d->unchanged++;
			} else {
				ret = add_op(d, &cap, SLUICE_LOP_REPLACE, i, j);
				d->replaced++;
			}
			i++;
			j++;
			/* the same key held again: extra routes go */
			while (!ret && j < have->n_routes &&
			       !sluice_lroute_cmp_key(&want->routes[i - 1],
						      &have->routes[j])) {
				ret = add_op(d, &cap, SLUICE_LOP_DELETE,
					     UINT64_MAX, j++);
				d->deleted++;
			}
		}
	}
	if (ret) {
		sluice_ldiff_free(d);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	return 0;
}

/* Frees the operations. O(1). */
void sluice_ldiff_free(struct sluice_ldiff *d)
{
	free(d->ops);
	memset(d, 0, sizeof(*d));
}

/* Appends to a buffer, truncating; returns the new length wanted. */
__attribute__((format(printf, 4, 5)))
static size_t put(char *buf, size_t len, size_t at, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(at < len ? buf + at : NULL, at < len ? len - at : 0,
		      fmt, ap);
	va_end(ap);
	return n < 0 ? at : at + n;
}

/**
 * sluice_lroute_format() - a route as iproute2 would show it, one line
 * @s:		the set
 * @i:		the route
 * @buf:	the text, NUL-terminated (truncated if @len is short)
 * @len:	room in @buf
 *
 * "10.0.3.0/24 nexthop via 172.16.0.1 dev l0 labels 101/102 nexthop ..."
 * (a single nexthop without the word "nexthop"; " table 1771" after the
 * prefix outside the main table; " weight 19" after a nexthop of another
 * weight than 1), "label 101 via 172.16.0.5 dev l3", "rule pref 1771 tos
 * 0x04 lookup 1771", "rule pref 1800 ipproto tcp sport 20000-20063 lookup
 * 1800" (as "ip rule add" takes them).
 *
 * Return: the length of the whole text, as snprintf().
 */
size_t sluice_lroute_format(const struct sluice_lroutes *s, uint64_t i,
			    char *buf, size_t len)
{
	const struct sluice_lroute *r = &s->routes[i];
	char addr[16];
	size_t at = 0;
	uint32_t k, l;

	if (len)
		buf[0] = '\0';
	if (r->family == SLUICE_LR_RULE && r->ip_proto)
		return put(buf, len, at,
			   "rule pref %u ipproto %s sport %u-%u lookup %u",
			   r->pref, r->ip_proto == IPPROTO_TCP ? "tcp" :
			   r->ip_proto == IPPROTO_UDP ? "udp" : "?",
			   r->sport_lo, r->sport_hi, r->table);
	if (r->family == SLUICE_LR_RULE)
		return put(buf, len, at, "rule pref %u tos 0x%02x lookup %u",
			   r->pref, r->dst << 2, r->table);
	if (r->family == SLUICE_LR_MPLS) {
		at = put(buf, len, at, "label %u", r->dst);
	} else {
		sluice_ipv4_format(r->dst, addr, sizeof(addr));
		at = put(buf, len, at, "%s/%u", addr, r->dst_len);
		if (r->table != SLUICE_TABLE_MAIN)
			at = put(buf, len, at, " table %u", r->table);
		if (r->src) {
			sluice_ipv4_format(r->src, addr, sizeof(addr));
			at = put(buf, len, at, " src %s", addr);
		}
	}
	for (k = 0; k < r->n_nh; k++) {
		const struct sluice_lnh *nh = &s->nhs[r->nh + k];

		if (r->n_nh > 1)
			at = put(buf, len, at, " nexthop");
		if (nh->via) {
			sluice_ipv4_format(nh->via, addr, sizeof(addr));
			at = put(buf, len, at, " via %s", addr);
		}
		at = put(buf, len, at, " dev %s", nh->dev[0] ? nh->dev : "?");
		for (l = 0; l < nh->n_labels; l++)
			at = put(buf, len, at, "%s%u", l ? "/" : " labels ",
				 s->labels[nh->label + l]);
		if (nh->weight != 1)
			at = put(buf, len, at, " weight %u", nh->weight);
	}
	return at;
}

/**
 * sluice_lroute_describe() - what a route is for, for messages
 * @g:		the topology
 * @r:		the route set it was built from (or NULL)
 * @s:		the set
 * @i:		the route
 * @buf:	"route to s3 (10.0.3.0/24; paths 0 5 2 | 4)", "route to s3 on
 *		lane 1 (10.0.3.0/24 table 1771; paths 1 3)" (that lane's
 *		paths), "route to s3 on path 1 (10.0.3.0/24 table 1801; paths
 *		4)" (exact's), "rule of lane 1 (rule pref ...)", "rule of path
 *		1 (rule pref ...)" or "label 101 (port l5 to s4)"
 * @len:	room in @buf
 *
 * Routes read from the kernel know no provenance: they are formatted as
 * sluice_lroute_format() does.
 *
 * Return: the length of the whole text, as snprintf().
 */
size_t sluice_lroute_describe(const struct sluice_graph *g,
			      const struct sluice_routes *r,
			      const struct sluice_lroutes *s, uint64_t i,
			      char *buf, size_t len)
{
	const struct sluice_lroute *x = &s->routes[i];
	uint64_t q, h;
	char addr[16];
	size_t at = 0;

	if (x->family == SLUICE_LR_MPLS && x->link != SLUICE_NONE &&
	    s->node != SLUICE_NONE)
		return put(buf, len, 0, "label %u (port l%u to %s)", x->dst,
			   x->link,
			   g->nodes[sluice_fabric_peer(g, s->node, x->link)].name);
	if (x->family == SLUICE_LR_RULE &&
	    (x->lane != SLUICE_NONE || x->path != SLUICE_NONE)) {
		at = put(buf, len, 0, "rule of %s %u (",
			 x->lane != SLUICE_NONE ? "lane" : "path",
			 x->lane != SLUICE_NONE ? x->lane : x->path);
		at += sluice_lroute_format(s, i, at < len ? buf + at : NULL,
					   at < len ? len - at : 0);
		return put(buf, len, at, ")");
	}
	if (x->family != SLUICE_LR_INET || x->dst_node == SLUICE_NONE)
		return sluice_lroute_format(s, i, buf, len);
	sluice_ipv4_format(x->dst, addr, sizeof(addr));
	at = put(buf, len, at, "route to %s", g->nodes[x->dst_node].name);
	if (x->lane != SLUICE_NONE)
		at = put(buf, len, at, " on lane %u", x->lane);
	if (x->path != SLUICE_NONE)
		at = put(buf, len, at, " on path %u", x->path);
	at = put(buf, len, at, " (%s/%u", addr, x->dst_len);
	if (x->table != SLUICE_TABLE_MAIN)
		at = put(buf, len, at, " table %u", x->table);
	if (r && x->pair != UINT64_MAX) {
		bool first = true;

		for (q = r->pair_path[x->pair]; q < r->pair_path[x->pair + 1];
		     q++) {
			if ((x->lane != SLUICE_NONE &&
			     r->path_lane[q] != x->lane) ||
			    (x->path != SLUICE_NONE &&
			     q - r->pair_path[x->pair] != x->path))
				continue;
			at = put(buf, len, at, first ? "; paths" : " |");
			first = false;
			for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++)
				at = put(buf, len, at, " %u", r->hops[h]);
		}
	}
	return put(buf, len, at, ")");
}
