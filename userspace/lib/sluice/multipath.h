/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fabric's multipath mode: how its ingress switches spread a pair's
 * flows over the pair's paths (the IPv4 route with one nexthop per path,
 * sluice/fabric.h), chosen by "fabric up --multipath" and "route load
 * --multipath" and kept in the fabric's state (lib/fabric/multipath.c):
 *
 *   hash   net.ipv4.fib_multipath_hash_policy 1 (L4), equal nexthops: what
 *          fabrics always had.  A forwarded frame that still carries its
 *          socket's hash (TCP's, and a connected UDP socket's: a random
 *          sk_txhash) is routed by that hash, not by its ports, so a
 *          host's choice of source port picks nothing for TCP;
 *   hash5  policy 3 with fib_multipath_hash_fields = the 5-tuple (source
 *          and destination address, protocol, source and destination
 *          port): the kernel hashes the real ports whatever the socket's
 *          hash, so a source port picks a path (FaCa's path selection,
 *          Section 5.5), the same port always the same one;
 *   exact  hash5, and one table per path index k holding each pair's k-th
 *          path (in the route file's order), looked up by "ip rule"s of
 *          protocol TCP and UDP and source ports
 *          sluice_fabric_path_sport() gives: base + k * width .. + width -
 *          1.  Deterministic, for tests and for a host that must know its
 *          path; a source port outside every range of the pair falls
 *          through to the multipath route (hash5's);
 *   wcmp   hash5, the nexthops weighted by each path's bottleneck, the
 *          slowest rate of its links (fabric up's --rate and --node-rate),
 *          in the smallest whole ratio up to SLUICE_MP_WEIGHT_MAX;
 *   sport  policy 3 with the fields of the addresses and the source port
 *          only: every frame from one source port to one destination takes
 *          one path whatever its protocol and destination port, so a UDP
 *          probe from port P (FaCa's agent, sluice/faca.h) learns the path
 *          of a TCP flow from P.  Under hash5 it would not: the protocol
 *          and the destination port move the hash.
 *
 * Every switch namespace gets the mode's sysctls (they only matter where a
 * frame meets an IPv4 multipath route: at its ingress switch; transit
 * switches forward by label, and the kernel's MPLS multipath hashes labels,
 * addresses and protocol, never L4 ports).  Tables SLUICE_MP_TABLE(k) and
 * rules of priority SLUICE_MP_RULE_PREF(k) stay clear of the lanes' (1771
 * to 1777): exact and lanes are not taken together, both being policy
 * routing that picks a table.
 *
 * Functions that can fail return 0 or a negative errno with a message in
 * @err (SLUICE_ERRLEN bytes are enough).
 */
#ifndef _SLUICE_MULTIPATH_H
#define _SLUICE_MULTIPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/graph.h>
#include <sluice/route.h>

enum sluice_multipath_mode {
	SLUICE_MP_HASH,		/* the default: what fabrics always had */
	SLUICE_MP_HASH5,
	SLUICE_MP_EXACT,
	SLUICE_MP_WCMP,
	SLUICE_MP_SPORT,
	SLUICE_MP__COUNT,
};

/*
 * FIB_MULTIPATH_HASH_FIELD_SRC_IP | _DST_IP | _IP_PROTO | _SRC_PORT |
 * _DST_PORT (include/net/ip_fib.h, not in the uapi headers), and sport's
 * FIB_MULTIPATH_HASH_FIELD_SRC_IP | _DST_IP | _SRC_PORT
 */
#define SLUICE_MP_HASH_FIELDS	0x37
#define SLUICE_MP_SPORT_FIELDS	0x13

/*
 * exact: path k of a pair takes source ports SLUICE_MP_SPORT_BASE + k *
 * SLUICE_MP_SPORT_WIDTH and the SLUICE_MP_SPORT_WIDTH - 1 after it, for
 * k < SLUICE_MP_PATHS_MAX: 20000 to 28191, below Linux's ephemeral ports
 * (32768 to 60999 by default), so that connections that did not ask for a
 * path keep to the multipath hash.  64 ports a path: that many flows to
 * one destination port can share a path at once.
 */
#define SLUICE_MP_SPORT_BASE	20000
#define SLUICE_MP_SPORT_WIDTH	64
#define SLUICE_MP_PATHS_MAX	128
#define SLUICE_MP_TABLE_BASE	1800
#define SLUICE_MP_TABLE(k)	(SLUICE_MP_TABLE_BASE + (k))
#define SLUICE_MP_RULE_PREF(k)	SLUICE_MP_TABLE(k)
/* The kernel keeps a nexthop's weight in a byte: 1 to 256. */
#define SLUICE_MP_WEIGHT_MAX	256
/* "NODE=RATE,NODE=RATE...": fabric up's --node-rate, as the state keeps it */
#define SLUICE_MP_NODE_RATES_MAX	1024

/* What the routes of a mode need: the mode, and wcmp's link rates. */
struct sluice_multipath {
	uint8_t		mode;		/* enum sluice_multipath_mode */
	/* wcmp: bits/s of every link by id, each above 0; else unused */
	const uint64_t	*link_rate;
};

/* O(1) each */
const char *sluice_multipath_name(unsigned int mode);
int sluice_multipath_parse(const char *s);
int sluice_multipath_hash_policy(unsigned int mode);
/* The hash fields @mode sets under policy 3 (0: hash). O(1). */
int sluice_multipath_hash_fields(unsigned int mode);

/* exact's source ports: O(log P) for P pairs */
/* Time: O(log P) for P pairs. */
int sluice_fabric_path_sport(const struct sluice_routes *r, uint32_t src,
			     uint32_t dst, uint32_t k, uint16_t *lo,
			     uint16_t *hi, char *err, size_t errlen);
/* Time: O(log P) for P pairs. */
int sluice_fabric_sport_path(const struct sluice_routes *r, uint32_t src,
			     uint32_t dst, uint16_t sport, uint32_t *k);

/* wcmp */
/* Time: O(hops of @q). */
uint64_t sluice_path_capacity(const struct sluice_routes *r, uint64_t q,
			      const uint64_t *link_rate);
/* Time: O(n log C) for C the largest capacity. */
void sluice_wcmp_weights(const uint64_t *cap, uint32_t n, uint32_t *weight);
/* Time: O(entries * N) for N nodes. */
int sluice_node_rates_parse(const struct sluice_graph *g, const char *s,
			    uint64_t rate, uint64_t *node_rate,
			    char *err, size_t errlen);
/* Time: O(N + L + entries * N). */
int sluice_fabric_link_rates(const struct sluice_graph *g, uint64_t rate,
			     const char *node_rates, uint64_t **link_rate,
			     char *err, size_t errlen);

#endif /* _SLUICE_MULTIPATH_H */
