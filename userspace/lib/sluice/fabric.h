/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fabric on one machine, and the routes that pin paths through it.
 *
 * The plan (pure, no kernel): every node of a topology is a switch in its
 * own network namespace, each with some hosts, each host in a namespace
 * too.  Names, addresses and labels follow from the topology alone, so
 * that "fabric down" and "route load" find everything again:
 *
 *   namespace of node X                NAME-X
 *   namespace of host i of X           NAME-X-hI        host name X-hI
 *   switch port of link L              l<L> (both ends, each in its switch)
 *   switch port to its host i          h<I>; the host's device is eth0
 *   link L's addresses                 172.16.0.0/12 + 2L (end a), + 2L + 1
 *                                      (end b), /31
 *   host i of node u                   10.(u >> 8).(u & 255).(2i + 1)/31,
 *                                      the switch side .(2i), the host's
 *                                      default route via it
 *   node u's hosts, from elsewhere     10.(u >> 8).(u & 255).0/24
 *
 * A server (a node that both forwards and is an endpoint: BCube's) is its
 * own one host: traffic starts and ends in the server's namespace, which
 * forwards too, so that the relay is the server itself and no host
 * namespace hides it.  Its host 0 is the node: namespace NAME-X, host name
 * X, address 10.(u >> 8).(u & 255).1/32 on its lo, and its routes carry
 * that address as their preferred source (so that replies come back to
 * it, not to a link address no other node routes).
 *
 * The forwarding plane is the kernel's own MPLS (mpls_router,
 * mpls_iptunnel): label 100 + j at a switch means "pop, and send out of
 * its j-th link port" (link ports in link id order), as a label route
 * "via inet <peer's link address> dev l<L>".  A path s_0 s_1 ... s_n from
 * switch u = s_0 to v = s_n is the label stack of the out ports of s_1 ..
 * s_(n-1), pushed at u and sent out of the path's first link; s_n gets
 * plain IPv4 and delivers it to its host.  Each switch u holds, per
 * destination switch v, one IPv4 route to v's /24 with one nexthop per
 * path of the pair (u, v), so that the kernel's multipath hash spreads
 * flows over the paths.
 *
 * Lanes (a route set of "--algo edst --lanes L", sluice/route.h): lane
 * i's trees stay apart from the others' only if its frames use their own
 * lossless priority on every hop, so a frame carries its lane from the
 * host to the last switch, in its DSCP:
 *
 *   - the host marks a flow's lane as its DSCP (IP_TOS: DSCP i for lane
 *     i; TCP's replies keep it with net.ipv4.tcp_reflect_tos, ICMP's
 *     echo replies copy the request's);
 *   - the ingress switch picks the lane's paths by policy routing: lane
 *     0's IPv4 routes stay in the main table (unmarked traffic takes lane
 *     0), lane i's go to table SLUICE_LANE_TABLE(i), and a rule "tos
 *     (i << 2) lookup SLUICE_LANE_TABLE(i)" (protocol SLUICE_RTPROT, so
 *     that sluice finds its own) sends lane i's frames there.  A lookup
 *     that finds nothing in a lane's table falls through to the main
 *     table: the last switch delivers to its hosts by its connected
 *     routes, whatever the lane;
 *   - transit switches never look at IPv4 (label routes pop and forward),
 *     and MPLS leaves the inner DSCP alone;
 *   - every port, link and host ports alike, classifies by DSCP (the
 *     qdisc reads it under label stacks too) with a map that sends lane
 *     i's DSCP to lane i's lossless priority (sluice_fabric_lanes_apply()).
 *
 * Why DSCP, and why lanes are DSCP 0 to 7: DSCP survives every hop (MPLS
 * does not touch it, and no switch rewrites it), the host sets it per
 * socket, and the kernel's rules can select a table by it, which is what
 * the ingress switch needs: MPLS TC would be lost when the last label is
 * popped and PCP would need VLANs.  But the 6.1 kernel's IPv4 rules take
 * only TOS values inside IPTOS_TOS_MASK (0x1e, fib4_rule_configure():
 * "Invalid tos"), and match forwarded frames on their TOS masked with
 * IPTOS_RT_MASK (0x1c, ip_route_input_noref()): only DSCP 0 to 7 can be
 * told apart, and a frame of DSCP d is routed as DSCP d & 7.  That is
 * SLUICE_LANES_MAX (8) lanes; the DSCP map follows the same d & 7, so
 * that a frame's class is always that of the lane it is routed on.
 *
 * A switch's routes as data (struct sluice_lroutes) are what
 * sluice_lroutes_build() wants from a route set, what the kernel holds when
 * read back (lib/fabric/kroute.c), and what sluice_lroutes_diff() compares.
 *
 * Functions that can fail return 0 or a negative errno with a message in
 * @err (SLUICE_ERRLEN bytes are enough).
 */
#ifndef _SLUICE_FABRIC_H
#define _SLUICE_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/graph.h>
#include <sluice/multipath.h>
#include <sluice/route.h>

#define SLUICE_FABRIC_DEFAULT_NAME	"sluice"
#define SLUICE_FABRIC_NAME_MAX		32	/* with its NUL */
/* NAME-X-hI: name, node name, "-h", host number, two dashes, NUL */
#define SLUICE_NETNS_NAME_MAX		(SLUICE_FABRIC_NAME_MAX + \
					 SLUICE_NAME_MAX + 8)
#define SLUICE_IFNAME_MAX		16	/* IFNAMSIZ */
/* Host i of a node is .2i+1 of a /24: 127 hosts at most. */
#define SLUICE_FABRIC_HOSTS_MAX		127
/* Nodes get 10.(u >> 8).(u & 255).0/24 */
#define SLUICE_FABRIC_NODES_MAX		65536
/* 172.16.0.0/12 holds 2^19 /31s. */
#define SLUICE_FABRIC_LINKS_MAX		(1u << 19)
/* The label of a switch's first link port; 0-15 are reserved. */
#define SLUICE_FABRIC_LABEL_BASE	100
#define SLUICE_MPLS_LABEL_MAX		((1u << 20) - 1)
/* The most labels the kernel pushes (MAX_NEW_LABELS in af_mpls). */
#define SLUICE_FABRIC_LABELS_MAX	30
/*
 * rtm_protocol of every route sluice installs (iproute2 prints it as
 * "proto 177"), so that reading back, unloading and reloading touch only
 * sluice's routes.
 */
#define SLUICE_RTPROT			0xb1
/*
 * Lane i >= 1's IPv4 routes: table SLUICE_LANE_TABLE(i), selected by a rule
 * of priority SLUICE_LANE_RULE_PREF(i) (before the main table's 32766) for
 * DSCP SLUICE_LANE_DSCP(i).  Lane 0 is the main table: no rule.
 */
#define SLUICE_TABLE_MAIN		254	/* RT_TABLE_MAIN */
#define SLUICE_LANE_BASE		1770
#define SLUICE_LANE_TABLE(lane)		((lane) ? SLUICE_LANE_BASE + (lane) : \
					 SLUICE_TABLE_MAIN)
#define SLUICE_LANE_RULE_PREF(lane)	(SLUICE_LANE_BASE + (lane))
#define SLUICE_LANE_DSCP(lane)		(lane)
/*
 * In-band telemetry (sluice/int.h): with "fabric up --int-port", every
 * port's records name it by the topology, so that a probe's records spell
 * its path's links (FaCa's agent matches them to a route set:
 * sluice_faca_route_of()):
 *
 *   a switch's port of link L     int-node: the switch's node index
 *                                 int-link: L
 *   a switch's port to host h     int-node: the switch's node index
 *                                 int-link: SLUICE_FABRIC_INT_HOST | h
 *   host h's eth0                 int-node and int-link:
 *                                 SLUICE_FABRIC_INT_HOST | h
 *
 * h is the fabric's host index (host i of node u is host_first[u] + i); a
 * host's cable is labelled at both ends as a link is, and the flag keeps
 * it apart from every link id (fewer than SLUICE_FABRIC_LINKS_MAX).
 */
#define SLUICE_FABRIC_INT_HOST		0x80000000u

/* Hosts keep Ethernet's MTU; links carry it plus a full label stack. */
#define SLUICE_FABRIC_HOST_MTU		1500
#define SLUICE_FABRIC_LINK_MTU		(SLUICE_FABRIC_HOST_MTU + \
					 4 * SLUICE_FABRIC_LABELS_MAX)

/* The plan of a fabric: a topology and its hosts. */
struct sluice_fabric {
	char				name[SLUICE_FABRIC_NAME_MAX];
	/* hosts[u] of a server (sluice_fabric_self_hosted()) is 1: itself */
	const struct sluice_graph	*g;
	uint32_t			*hosts;		/* per node */
	uint32_t			*host_first;	/* n_nodes + 1 */
	uint32_t			n_hosts;
	uint32_t			max_degree;	/* link ports */
	/*
	 * enum sluice_multipath_mode (sluice/multipath.h): the hash every
	 * switch namespace gets from sluice_fabric_up(); the plan leaves it
	 * hash, the caller may set another before bringing the fabric up
	 */
	uint8_t				multipath;
};

/*
 * How many hosts each node gets: the topology's host ports, or 1 for an
 * endpoint without any (a node of a fabric without host ports), unless
 * every endpoint is given @hosts_per_switch.  A server is its own host,
 * whatever @hosts_per_switch says (a topology of servers only refuses it).
 */
#define SLUICE_FABRIC_HOSTS_DEFAULT	(-1)

/* Time: O((N + H) log(N + H) + L) for N nodes, H hosts and L links. */
int sluice_fabric_plan(struct sluice_fabric *f, const struct sluice_graph *g,
		       const char *name, int hosts_per_switch,
		       char *err, size_t errlen);
void sluice_fabric_free(struct sluice_fabric *f);
/* Time: O(length). */
int sluice_fabric_name_check(const char *name, char *err, size_t errlen);

/* Whether node @u is its own host (a server, see the top of the file). */
static inline bool sluice_node_self_hosted(const struct sluice_node *n)
{
	return n->kind == SLUICE_NODE_SERVER;
}

static inline bool sluice_fabric_self_hosted(const struct sluice_fabric *f,
					     uint32_t u)
{
	return sluice_node_self_hosted(&f->g->nodes[u]);
}

void sluice_fabric_switch_ns(const struct sluice_fabric *f, uint32_t u,
			     char *buf, size_t len);
void sluice_fabric_host_ns(const struct sluice_fabric *f, uint32_t u,
			   uint32_t i, char *buf, size_t len);
void sluice_fabric_host_name(const struct sluice_fabric *f, uint32_t u,
			     uint32_t i, char *buf, size_t len);
/* Time: O(N) string compares. */
int sluice_fabric_find(const struct sluice_fabric *f, const char *name,
		       uint32_t *u, uint32_t *host);

/* The address of link @link's end at its node a (@end 0) or b (@end 1). */
static inline uint32_t sluice_fabric_link_addr(uint32_t link, int end)
{
	return (172u << 24 | 16u << 16) + 2 * link + (end ? 1 : 0);
}

/* The /24 of node @u's hosts. */
static inline uint32_t sluice_fabric_node_prefix(uint32_t u)
{
	return 10u << 24 | (u >> 8 & 255) << 16 | (u & 255) << 8;
}

/* Host @i of node @u's address (@host_side) or its switch port's. */
static inline uint32_t sluice_fabric_host_addr(uint32_t u, uint32_t i,
					       bool host_side)
{
	return sluice_fabric_node_prefix(u) | (2 * i + (host_side ? 1 : 0));
}

/*
 * The fixed MAC addresses of a fabric's veths, so that every neighbour is
 * known from the plan and installed permanent (sluice_fabric_up()): the
 * end of link @link at its node a (@end 0) or b (@end 1), and the switch
 * port (@host_side false) or eth0 of global host index @h.  Locally
 * administered unicast: 02, a byte naming the kind and end, the index in
 * the last four bytes.  Two fabrics may share addresses: veths are
 * point-to-point, no two ends of a fabric do.
 */
#define SLUICE_FABRIC_MAC_LEN		6

static inline void sluice_fabric_mac(uint8_t kind, uint32_t index,
				     uint8_t mac[SLUICE_FABRIC_MAC_LEN])
{
	mac[0] = 0x02;
	mac[1] = kind;
	mac[2] = index >> 24;
	mac[3] = index >> 16;
	mac[4] = index >> 8;
	mac[5] = index;
}

static inline void sluice_fabric_link_mac(uint32_t link, int end,
					  uint8_t mac[SLUICE_FABRIC_MAC_LEN])
{
	sluice_fabric_mac(end ? 0x11 : 0x10, link, mac);
}

static inline void sluice_fabric_host_mac(uint32_t h, bool host_side,
					  uint8_t mac[SLUICE_FABRIC_MAC_LEN])
{
	sluice_fabric_mac(host_side ? 0x21 : 0x20, h, mac);
}

/* Time: O(log degree). */
int sluice_fabric_port_index(const struct sluice_graph *g, uint32_t u,
			     uint32_t link);
uint32_t sluice_fabric_peer(const struct sluice_graph *g, uint32_t u,
			    uint32_t link);
void sluice_ipv4_format(uint32_t addr, char *buf, size_t len);

/* A switch's routes. */
enum sluice_lroute_family {
	SLUICE_LR_INET,		/* an IPv4 prefix */
	SLUICE_LR_MPLS,		/* a label */
	SLUICE_LR_RULE,		/* a lane's rule: DSCP to its table, or
				 * exact's: protocol and source ports to a
				 * path's table
				 */
};

/*
 * A nexthop: via an IPv4 address out of a device, pushing labels (IPv4
 * routes) or popping the route's own (label routes), with its share of a
 * multipath route's flows (wcmp's weights; 1 otherwise, as the kernel
 * reads back a nexthop given none).
 */
struct sluice_lnh {
	uint32_t	via;		/* host order */
	char		dev[SLUICE_IFNAME_MAX];
	uint32_t	label;		/* first of n_labels in labels[] */
	uint32_t	n_labels;	/* top of the stack first */
	uint32_t	weight;		/* 1 to SLUICE_MP_WEIGHT_MAX */
};

/* Where a route came from, for messages: SLUICE_NONE if not known. */
#define SLUICE_NONE	UINT32_MAX

/*
 * A route, or a rule: family SLUICE_LR_RULE, @dst the DSCP it matches (a
 * lane's; 0 for exact's, which match @ip_proto and the source ports
 * @sport_lo to @sport_hi instead), @table the table it looks up, @pref its
 * priority, no nexthop.
 */
struct sluice_lroute {
	uint8_t		family;		/* enum sluice_lroute_family */
	uint8_t		dst_len;	/* prefix length; 20 for labels */
	uint32_t	dst;		/* IPv4 address, host order, label or
					 * DSCP
					 */
	uint32_t	table;		/* IPv4 and rules; SLUICE_TABLE_MAIN */
	uint32_t	pref;		/* rules: priority; else 0 */
	uint32_t	nh;		/* first of n_nh in nhs[] */
	uint32_t	n_nh;
	uint32_t	dst_node;	/* IPv4: the destination switch */
	uint32_t	src;		/* IPv4: preferred source, 0 none */
	uint32_t	link;		/* MPLS: the port's link */
	uint32_t	lane;		/* IPv4 and rules: of a route set of
					 * several lanes; SLUICE_NONE
					 */
	uint32_t	path;		/* IPv4 and rules: exact's path index
					 * k; SLUICE_NONE
					 */
	uint64_t	pair;		/* IPv4: the route set's pair */
	uint8_t		ip_proto;	/* rules: exact's; 0 for a lane's */
	uint16_t	sport_lo;	/* rules with @ip_proto */
	uint16_t	sport_hi;
};

struct sluice_lroutes {
	uint32_t		node;		/* the switch; SLUICE_NONE */
	uint64_t		n_routes, cap_routes;
	struct sluice_lroute	*routes;
	uint64_t		n_nhs, cap_nhs;
	struct sluice_lnh	*nhs;
	uint64_t		n_labels, cap_labels;
	uint32_t		*labels;
};

/* Time: O(1). */
void sluice_lroutes_init(struct sluice_lroutes *s, uint32_t node);
void sluice_lroutes_free(struct sluice_lroutes *s);
/* Time: O(1) amortized. */
int sluice_lroutes_add(struct sluice_lroutes *s,
		       enum sluice_lroute_family family, uint32_t dst,
		       uint8_t dst_len, char *err, size_t errlen);
/* Time: O(@n_labels) amortized. */
int sluice_lroutes_add_nh(struct sluice_lroutes *s, uint32_t via,
			  const char *dev, const uint32_t *labels,
			  uint32_t n_labels, char *err, size_t errlen);
/* Time: O(1) amortized. */
int sluice_lroutes_add_rule(struct sluice_lroutes *s, uint32_t lane,
			    char *err, size_t errlen);
/* Time: O(1) amortized. */
int sluice_lroutes_add_sport_rule(struct sluice_lroutes *s, uint32_t k,
				  uint8_t ip_proto, char *err, size_t errlen);
/* Time: O(R log R) for R routes. */
void sluice_lroutes_sort(struct sluice_lroutes *s);
int sluice_lroutes_build(const struct sluice_graph *g,
			 const struct sluice_routes *r, uint32_t u,
			 struct sluice_lroutes *s, char *err, size_t errlen);
/*
 * Time: O(log P + D + L * H_u + R_u log R_u + Q) for P pairs, D the degree of
 * @u, H_u the hops of @u's paths, R_u its routes and Q the set's paths (exact:
 * twice H_u).
 */
int sluice_lroutes_build_mp(const struct sluice_graph *g,
			    const struct sluice_routes *r, uint32_t u,
			    const struct sluice_multipath *mp,
			    struct sluice_lroutes *s, char *err,
			    size_t errlen);
/* Time: O(nexthops + labels). */
bool sluice_lroute_equal(const struct sluice_lroutes *a, uint64_t i,
			 const struct sluice_lroutes *b, uint64_t j);
int sluice_lroute_cmp_key(const struct sluice_lroute *a,
			  const struct sluice_lroute *b);
/* Time: O(nexthops + labels). */
size_t sluice_lroute_format(const struct sluice_lroutes *s, uint64_t i,
			    char *buf, size_t len);
/* Time: O(hops of the pair's paths). */
size_t sluice_lroute_describe(const struct sluice_graph *g,
			      const struct sluice_routes *r,
			      const struct sluice_lroutes *s, uint64_t i,
			      char *buf, size_t len);

/* What turns the routes a switch holds into the routes it should. */
enum sluice_lop_kind {
	SLUICE_LOP_ADD,		/* want[want] is missing */
	SLUICE_LOP_REPLACE,	/* have[have] becomes want[want] */
	SLUICE_LOP_DELETE,	/* have[have] goes */
};

struct sluice_lop {
	uint8_t		kind;	/* enum sluice_lop_kind */
	uint64_t	want;	/* index in the wanted set, or UINT64_MAX */
	uint64_t	have;	/* index in the held set, or UINT64_MAX */
};

struct sluice_ldiff {
	uint64_t		n_ops;
	struct sluice_lop	*ops;
	uint64_t		added, replaced, deleted, unchanged;
};

/* Time: O(R + nexthops + labels). */
int sluice_lroutes_diff(const struct sluice_lroutes *want,
			const struct sluice_lroutes *have,
			struct sluice_ldiff *d, char *err, size_t errlen);
void sluice_ldiff_free(struct sluice_ldiff *d);

#endif /* _SLUICE_FABRIC_H */
