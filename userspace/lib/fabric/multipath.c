// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fabric's multipath mode as data (sluice/multipath.h has the modes):
 * names, exact's source port ranges and their inverse, wcmp's weights from
 * the links' rates, and the per-node rates that make some links slower
 * ("fabric up --node-rate spine0=380mbit,spine1=380mbit").  Nothing here
 * touches the kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/fabric_nl.h>
#include <sluice/multipath.h>
#include <sluice/rate.h>
#include "flow/internal.h"
#include "graph/internal.h"

static const char *const mp_names[] = {
	[SLUICE_MP_HASH]	= "hash",
	[SLUICE_MP_HASH5]	= "hash5",
	[SLUICE_MP_EXACT]	= "exact",
	[SLUICE_MP_WCMP]	= "wcmp",
	[SLUICE_MP_SPORT]	= "sport",
};

_Static_assert(sizeof(mp_names) / sizeof(mp_names[0]) == SLUICE_MP__COUNT,
	       "a name per mode");

/* The name of mode @mode ("hash" ... "wcmp"), "?" if none.  O(1). */
const char *sluice_multipath_name(unsigned int mode)
{
	return mode < SLUICE_MP__COUNT ? mp_names[mode] : "?";
}

/* The mode named @s, or -EINVAL.  O(1). */
int sluice_multipath_parse(const char *s)
{
	unsigned int mode;

	for (mode = 0; mode < SLUICE_MP__COUNT; mode++)
		if (!strcmp(s, mp_names[mode]))
			return mode;
	return -EINVAL;
}

/*
 * net.ipv4.fib_multipath_hash_policy of @mode: 1 (L4, the socket's hash
 * first) for hash, 3 (the fields of SLUICE_MP_HASH_FIELDS) for the others.
 * O(1).
 */
int sluice_multipath_hash_policy(unsigned int mode)
{
	return mode == SLUICE_MP_HASH ? 1 : 3;
}

/*
 * net.ipv4.fib_multipath_hash_fields of @mode under policy 3: the
 * addresses and the source port for sport, the 5-tuple for the others;
 * 0 for hash, which leaves the fields alone.  O(1).
 */
int sluice_multipath_hash_fields(unsigned int mode)
{
	if (mode == SLUICE_MP_HASH)
		return 0;
	return mode == SLUICE_MP_SPORT ? SLUICE_MP_SPORT_FIELDS :
					 SLUICE_MP_HASH_FIELDS;
}

/* Pair (@src, @dst) of @r, or -ENOENT with a message. */
static int64_t find_pair(const struct sluice_routes *r, uint32_t src,
			 uint32_t dst, char *err, size_t errlen)
{
	int64_t p = sluice_i_find_pair(r, src, dst, 0);

	if (p < 0)
		sluice_i_errf(err, errlen, -ENOENT,
			      "the route set has no pair of nodes %u and %u",
			      src, dst);
	return p < 0 ? -ENOENT : p;
}

/**
 * sluice_fabric_path_sport() - the source ports that take a pair's path k
 * in exact mode
 * @r:		the route set
 * @src:	the pair's source node
 * @dst:	its destination
 * @k:		the path's index among the pair's, in the route file's order
 * @lo:		set to the first port
 * @hi:		set to the last (@lo + SLUICE_MP_SPORT_WIDTH - 1)
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Return: 0; -ENOENT if @r has no such pair, -ERANGE if the pair has no
 * path @k, -E2BIG if @k is past the last range (SLUICE_MP_PATHS_MAX).
 */
int sluice_fabric_path_sport(const struct sluice_routes *r, uint32_t src,
			     uint32_t dst, uint32_t k, uint16_t *lo,
			     uint16_t *hi, char *err, size_t errlen)
{
	int64_t p = find_pair(r, src, dst, err, errlen);
	uint64_t n;

	if (p < 0)
		return p;
	n = sluice_routes_pair_paths(r, p);
	if (k >= n)
		return sluice_i_errf(err, errlen, -ERANGE,
				     "the pair has %llu paths: no path %u",
				     (unsigned long long)n, k);
	if (k >= SLUICE_MP_PATHS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "exact mode gives source ports to paths 0 to %d only, not %u",
				     SLUICE_MP_PATHS_MAX - 1, k);
	*lo = SLUICE_MP_SPORT_BASE + k * SLUICE_MP_SPORT_WIDTH;
	*hi = *lo + SLUICE_MP_SPORT_WIDTH - 1;
	return 0;
}

/**
 * sluice_fabric_sport_path() - the path source port @sport takes in exact
 * mode, the inverse of sluice_fabric_path_sport()
 * @r:		the route set
 * @src:	the pair's source node
 * @dst:	its destination
 * @sport:	a source port
 * @k:		set to the path's index among the pair's
 *
 * Return: 0; -ENOENT if @r has no such pair; -ERANGE if @sport is in no
 * range of the pair's paths (the multipath hash picks its path).
 */
int sluice_fabric_sport_path(const struct sluice_routes *r, uint32_t src,
			     uint32_t dst, uint16_t sport, uint32_t *k)
{
	int64_t p = sluice_i_find_pair(r, src, dst, 0);
	uint32_t i;

	if (p < 0)
		return -ENOENT;
	if (sport < SLUICE_MP_SPORT_BASE)
		return -ERANGE;
	i = (sport - SLUICE_MP_SPORT_BASE) / SLUICE_MP_SPORT_WIDTH;
	if (i >= SLUICE_MP_PATHS_MAX || i >= sluice_routes_pair_paths(r, p))
		return -ERANGE;
	*k = i;
	return 0;
}

/*
 * sluice_path_capacity() - path @q's bottleneck: its slowest link's rate
 * @r:		the route set
 * @q:		a path of @r
 * @link_rate:	bits/s by link id
 *
 * Return: the lowest @link_rate of its links.
 */
uint64_t sluice_path_capacity(const struct sluice_routes *r, uint64_t q,
			      const uint64_t *link_rate)
{
	uint64_t h, cap = UINT64_MAX;

	for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++)
		if (link_rate[r->hops[h]] < cap)
			cap = link_rate[r->hops[h]];
	return cap;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/**
 * sluice_wcmp_weights() - nexthop weights in proportion to capacities
 * @cap:	the paths' capacities, each above 0
 * @n:		how many
 * @weight:	set to each path's weight, 1 to SLUICE_MP_WEIGHT_MAX
 *
 * The capacities divided by their greatest common divisor when that fits
 * in the kernel's weights (380 and 400 give 19 and 20: exact), else scaled
 * so that the largest is SLUICE_MP_WEIGHT_MAX, each rounded to the nearest
 * and at least 1.
 */
void sluice_wcmp_weights(const uint64_t *cap, uint32_t n, uint32_t *weight)
{
	uint64_t g = 0, max = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		g = gcd(cap[i], g);
		if (cap[i] > max)
			max = cap[i];
	}
	for (i = 0; i < n; i++) {
		if (max / g <= SLUICE_MP_WEIGHT_MAX) {
			weight[i] = cap[i] / g;
			continue;
		}
		weight[i] = ((unsigned __int128)cap[i] * SLUICE_MP_WEIGHT_MAX +
			     max / 2) / max;
		if (!weight[i])
			weight[i] = 1;
	}
}

/* One "NODE=RATE" of a list: the node and its rate, checked. */
static int node_rate_one(const struct sluice_graph *g, const char *item,
			 size_t len, uint64_t rate, uint64_t *node_rate,
			 char *err, size_t errlen)
{
	const char *eq = memchr(item, '=', len);
	char word[64], name[SLUICE_NAME_MAX];
	__u64 bps;
	uint32_t u;

	if (!eq || eq == item || len >= sizeof(word))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "\"%.*s\" is not NODE=RATE", (int)len,
				     item);
	snprintf(name, sizeof(name), "%.*s", (int)(eq - item), item);
	snprintf(word, sizeof(word), "%.*s", (int)(len - (eq + 1 - item)),
		 eq + 1);
	for (u = 0; u < g->n_nodes; u++)
		if (!strcmp(g->nodes[u].name, name) &&
		    strlen(name) == (size_t)(eq - item))
			break;
	if (u == g->n_nodes)
		return sluice_i_errf(err, errlen, -ENOENT,
				     "the topology has no node \"%.*s\"",
				     (int)(eq - item), item);
	if (sluice_parse_rate(word, &bps) || !bps)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s: \"%s\" is not a rate above 0 (380mbit, 1gbit)",
				     name, word);
	if (bps > rate)
		return sluice_i_errf(err, errlen, -ERANGE,
				     "%s: %s is above the fabric's --rate: a node rate slows a node's links, whose thresholds --rate sized",
				     name, word);
	if (node_rate[u])
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s is given twice", name);
	node_rate[u] = bps;
	return 0;
}

/**
 * sluice_node_rates_parse() - read "NODE=RATE[,NODE=RATE...]"
 * @g:		the topology, finalized
 * @s:		the list (fabric up's --node-rate)
 * @rate:	the fabric's link rate, bits/s (--rate; 0: none, refused)
 * @node_rate:	n_nodes entries, zeroed by the caller; set to each named
 *		node's rate, bits/s
 * @err:	the reason, naming the entry
 * @errlen:	room in @err
 *
 * A node rate slows every link of the node (both its ports) to it; it may
 * not be above @rate: the qdisc's thresholds (xoff auto, headroom, ECN,
 * PortFC's) are sized for --rate, and stay safe at a lower rate only.
 *
 * Return: 0, -EINVAL, -ENOENT or -ERANGE.
 */
int sluice_node_rates_parse(const struct sluice_graph *g, const char *s,
			    uint64_t rate, uint64_t *node_rate,
			    char *err, size_t errlen)
{
	const char *at = s, *end;
	int ret;

	if (!rate)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "node rates slow some links below the others': give the fabric's --rate");
	if (!*s)
		return sluice_i_errf(err, errlen, -EINVAL, "no NODE=RATE");
	for (;;) {
		end = strchr(at, ',');
		if (!end)
			end = at + strlen(at);
		ret = node_rate_one(g, at, end - at, rate, node_rate, err,
				    errlen);
		if (ret || !*end)
			return ret;
		at = end + 1;
	}
}

/**
 * sluice_fabric_link_rates() - every link's rate
 * @g:		the topology, finalized
 * @rate:	the fabric's link rate, bits/s (0: unshaped)
 * @node_rates:	fabric up's --node-rate, or NULL or "" for none
 * @link_rate:	set to n_links rates by link id (0: unshaped); free() it
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * A link runs at the lowest node rate of its two ends, else at @rate.
 *
 * Return: 0, -ENOMEM or what sluice_node_rates_parse() returns.
 */
int sluice_fabric_link_rates(const struct sluice_graph *g, uint64_t rate,
			     const char *node_rates, uint64_t **link_rate,
			     char *err, size_t errlen)
{
	uint64_t *node = sluice_i_calloc(g->n_nodes ? g->n_nodes : 1,
					 sizeof(*node));
	uint64_t *link = sluice_i_calloc(g->n_links ? g->n_links : 1,
					 sizeof(*link));
	uint64_t a, b;
	uint32_t l;
	int ret = 0;

	*link_rate = NULL;
	if (!node || !link)
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	else if (node_rates && *node_rates)
		ret = sluice_node_rates_parse(g, node_rates, rate, node, err,
					      errlen);
	for (l = 0; !ret && l < g->n_links; l++) {
		a = node[g->links[l].a] ? node[g->links[l].a] : rate;
		b = node[g->links[l].b] ? node[g->links[l].b] : rate;
		link[l] = a < b ? a : b;
	}
	free(node);
	if (ret)
		free(link);
	else
		*link_rate = link;
	return ret;
}

/**
 * sluice_fabric_multipath_check() - whether mode @mode fits a fabric's
 * options
 * @mode:	enum sluice_multipath_mode
 * @q:		the fabric's qdisc options, or NULL (no qdisc)
 * @err:	the reason, if it does not
 * @errlen:	room in @err
 *
 * exact does not go with lanes (each picks a table by its own rules: the
 * source port or the DSCP); wcmp needs the links' rates.
 *
 * Return: 0 or -EINVAL.
 */
int sluice_fabric_multipath_check(unsigned int mode,
				  const struct sluice_fabric_qdisc *q,
				  char *err, size_t errlen)
{
	if (mode >= SLUICE_MP__COUNT)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "multipath mode %u unknown", mode);
	if (mode == SLUICE_MP_EXACT && q && q->lanes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "exact picks a path by source port, lanes pick one by DSCP: not both (hash5 and wcmp go with lanes)");
	if (mode == SLUICE_MP_WCMP &&
	    (!q || !(q->link.present & SLUICE_QOPT_RATE) || !q->link.rate))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "wcmp weighs each path by its slowest link: give the links' --rate (and --node-rate for slower nodes)");
	return 0;
}
