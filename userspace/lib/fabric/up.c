// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fabric brought up and down (the plan is sluice/fabric.h's).
 *
 * Up goes in phases, each a batch of requests per namespace sent through
 * lib/fabric/rtnl.c and acknowledged before the next phase starts:
 *
 *   1. namespaces, each set up from inside while the thread is there:
 *      IPv6 off (no autoconfiguration chatter on the ports), and on
 *      switches IPv4 forwarding, MPLS labels, the multipath hash of the
 *      fabric's mode (sluice/multipath.h); with
 *      lanes, TCP's replies in the lane (DSCP) of the connection's SYN
 *      (net.ipv4.tcp_reflect_tos); an rtnetlink socket opened in it for
 *      the phases below;
 *   2. veths, created up and with fixed interface indexes from the
 *      switch's side, the peer put straight into its namespace
 *      (IFLA_NET_NS_FD), so no device is ever moved or looked up;
 *      loopbacks up; every veth end to one segment a frame (see
 *      queue_one_segment());
 *   3. MPLS input on every link port (a per-device sysctl, no netlink);
 *   4. addresses, and each host's default route;
 *   5. permanent neighbours: each port's peer, its address and the fixed
 *      MAC address the plan gives every veth (sluice_fabric_link_mac());
 *   6. a sluice root qdisc on every port (both ends of every veth).
 *
 * No ARP crosses a port, then.  With ARP, a switch confirms a link
 * neighbour a few seconds after first using it (an entry the peer's
 * request created is STALE: DELAY, then PROBE 5 s later) and again
 * whenever it ages out (15 to 45 s), and its requests and the replies
 * travel in the class of untagged frames, the lowest: under strict
 * priority a lossless class that stays backlogged starves them for
 * seconds, the neighbour fails, and the frames routed to it wait in the
 * kernel's queue of unresolved frames (or are discarded from it,
 * counted nowhere but /proc/net/stat/arp_cache), outside every sluice
 * queue and ingress account, then leave in one burst when a reply gets
 * through: past XOFF and the headroom at once, as no PFC pause could
 * have stopped.
 *
 * Interface indexes are per namespace, so they are chosen: 1 is lo, a
 * switch's link ports are 2 + j in link id order, its host ports follow,
 * and a host's eth0 is 2.  A server, its own host, has no host port: its
 * address is on its lo.  Any failure takes down every namespace made.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/addr.h>
#include <netlink/msg.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/veth.h>
#include <netlink/route/neighbour.h>
#include <netlink/route/route.h>
#include <sluice/experiment.h>
#include "graph/internal.h"
#include "fabric/internal.h"

#define QOPT_MAX	4096
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* What a request was, for messages: kind in the top byte. */
enum tag_kind {
	TAG_LINK = 1,		/* a link's veth: link id */
	TAG_HOST_VETH,		/* a host's veth: host index */
	TAG_LO,			/* a namespace's lo: namespace index */
	TAG_LINK_ADDR,		/* link id * 2 + end */
	TAG_HOST_ADDR,		/* host index * 2 + host side */
	TAG_HOST_ROUTE,		/* host index */
	TAG_QDISC,		/* namespace index << 24 | ifindex */
	TAG_LINK_NEIGH,		/* link id * 2 + end */
	TAG_HOST_NEIGH,		/* host index * 2 + host side */
};

#define TAG(kind, v)	((uint64_t)(kind) << 56 | (v))
#define TAG_KIND(t)	((unsigned int)((t) >> 56))
#define TAG_VAL(t)	((t) & ((1ull << 56) - 1))

struct ns {
	char			name[SLUICE_NETNS_NAME_MAX];
	int			fd;		/* -1 until created */
	struct sluice_rtnl	*rt;
};

struct up {
	const struct sluice_fabric	*f;
	const struct sluice_fabric_qdisc *q;
	struct sluice_fabric_stats	*st;
	struct ns			*ns;	/* switches, then hosts */
	uint32_t			n_ns;
	uint32_t			*hns;	/* global host -> ns index */
	int				self;
	unsigned char			qopt_link[QOPT_MAX];
	unsigned char			qopt_host[QOPT_MAX];
	size_t				len_link, len_host;
	char				*err;
	size_t				errlen;
};

/* The namespace of host @i of node @u: a server's own for a server. */
static uint32_t host_ns(const struct up *up, uint32_t u, uint32_t i)
{
	return up->hns[up->f->host_first[u] + i];
}

/* The host (node, number) of global host index @h. O(log N). */
static void host_of(const struct sluice_fabric *f, uint32_t h, uint32_t *u,
		    uint32_t *i)
{
	uint32_t lo = 0, hi = f->g->n_nodes, mid;

	/* the last node whose first host is at most h, with hosts */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (f->host_first[mid] <= h)
			lo = mid;
		else
			hi = mid;
	}
	while (f->host_first[lo] + f->hosts[lo] <= h)
		lo++;
	*u = lo;
	*i = h - f->host_first[lo];
}

/* What a tagged request was: "link 12 (s1 l12 - s5 l12)". */
static void describe(const struct up *up, uint64_t tag, char *buf,
		     size_t len)
{
	const struct sluice_graph *g = up->f->g;
	uint64_t v = TAG_VAL(tag), kind = TAG_KIND(tag);
	char host[SLUICE_NETNS_NAME_MAX];
	uint32_t u, i;

	switch (kind) {
	case TAG_LINK:
		snprintf(buf, len, "veth of link %llu (%s l%llu - %s l%llu)",
			 (unsigned long long)v, g->nodes[g->links[v].a].name,
			 (unsigned long long)v, g->nodes[g->links[v].b].name,
			 (unsigned long long)v);
		break;
	case TAG_HOST_VETH:
	case TAG_HOST_ROUTE:
		host_of(up->f, v, &u, &i);
		sluice_fabric_host_name(up->f, u, i, host, sizeof(host));
		snprintf(buf, len, "%s of host %s",
			 TAG_KIND(tag) == TAG_HOST_VETH ? "veth" :
			 "default route", host);
		break;
	case TAG_LO:
		snprintf(buf, len, "lo of %s", up->ns[v].name);
		break;
	case TAG_LINK_ADDR:
	case TAG_LINK_NEIGH:
		snprintf(buf, len, "%s of %s l%llu",
			 kind == TAG_LINK_ADDR ? "address" : "neighbour",
			 g->nodes[v % 2 ? g->links[v / 2].b :
				  g->links[v / 2].a].name,
			 (unsigned long long)v / 2);
		break;
	case TAG_HOST_ADDR:
	case TAG_HOST_NEIGH:
		host_of(up->f, v / 2, &u, &i);
		sluice_fabric_host_name(up->f, u, i, host, sizeof(host));
		snprintf(buf, len, "%s of %s on %s",
			 kind == TAG_HOST_ADDR ? "address" : "neighbour",
			 !(v % 2) ? "its switch port" :
			 sluice_fabric_self_hosted(up->f, u) ? "lo" : "eth0",
			 host);
		break;
	case TAG_QDISC:
		snprintf(buf, len, "sluice qdisc on device %llu of %s",
			 (unsigned long long)(v & 0xffffff),
			 up->ns[v >> 24].name);
		break;
	default:
		snprintf(buf, len, "request %llx", (unsigned long long)tag);
	}
}

/* Waits for every namespace's acks; the first refusal fails the phase. */
static int wait_all(struct up *up)
{
	const struct sluice_i_nlerr *e;
	char what[160];
	uint32_t k;
	int ret;

	for (k = 0; k < up->n_ns; k++) {
		if (!up->ns[k].rt)
			continue;
		ret = sluice_i_rtnl_wait(up->ns[k].rt, up->err, up->errlen);
		if (ret)
			return ret;
		if (!sluice_i_rtnl_n_errors(up->ns[k].rt))
			continue;
		e = sluice_i_rtnl_error(up->ns[k].rt, 0);
		describe(up, e->tag, what, sizeof(what));
		return sluice_i_errf(up->err, up->errlen, e->error,
				     "%s: %s%s%s", what, strerror(-e->error),
				     e->extack[0] ? ": " : "", e->extack);
	}
	return 0;
}

static int nomem(struct up *up)
{
	return sluice_i_errf(up->err, up->errlen, -ENOMEM, "out of memory");
}

static int queue(struct up *up, struct ns *ns, struct nl_msg *msg,
		 uint64_t tag)
{
	int ret = sluice_i_rtnl_queue(ns->rt, msg, tag, up->err, up->errlen);

	nlmsg_free(msg);
	return ret;
}

/* Sets up a new namespace from inside: sysctls, a socket. */
static int ns_setup(struct up *up, struct ns *ns, int switch_degree)
{
	static const char *const sw[][2] = {
		{ "net/ipv4/ip_forward", "1" },
		{ "net/ipv4/conf/all/rp_filter", "0" },
		{ "net/ipv4/conf/default/rp_filter", "0" },
	};
	char labels[16];
	size_t k;
	int ret;

	/* no IPv6 on the ports: a kernel without it has nothing to turn off */
	if (!access("/proc/sys/net/ipv6", F_OK)) {
		ret = sluice_sysctl_write("net/ipv6/conf/default/disable_ipv6",
					  "1", up->err, up->errlen);
		if (!ret)
			ret = sluice_sysctl_write("net/ipv6/conf/all/disable_ipv6",
						  "1", up->err, up->errlen);
		if (ret)
			return ret;
		up->st->sysctls += 2;
	}
	/* hosts and servers answer in the lane asked; harmless on switches */
	if (up->q && up->q->enabled && up->q->lanes > 1) {
		ret = sluice_sysctl_write("net/ipv4/tcp_reflect_tos", "1",
					  up->err, up->errlen);
		if (ret)
			return ret;
		up->st->sysctls++;
	}
	if (switch_degree >= 0) {
		for (k = 0; k < ARRAY_SIZE(sw); k++) {
			ret = sluice_sysctl_write(sw[k][0], sw[k][1], up->err,
						  up->errlen);
			if (ret)
				return ret;
		}
		snprintf(labels, sizeof(labels), "%d",
			 SLUICE_FABRIC_LABEL_BASE + switch_degree + 1);
		ret = sluice_sysctl_write("net/mpls/platform_labels", labels,
					  up->err, up->errlen);
		if (ret == -ENOENT)
			return sluice_i_errf(up->err, up->errlen, ret,
					     "%s: no MPLS in this kernel: modprobe mpls_router mpls_iptunnel",
					     ns->name);
		if (ret)
			return ret;
		up->st->sysctls += ARRAY_SIZE(sw) + 1;
		ret = sluice_multipath_sysctls(up->f->multipath,
					       &up->st->sysctls, up->err,
					       up->errlen);
		if (ret)
			return ret;
	}
	return sluice_rtnl_open(&ns->rt, up->err, up->errlen);
}

static int make_namespaces(struct up *up)
{
	const struct sluice_graph *g = up->f->g;
	uint32_t k;
	int ret, back;

	for (k = 0; k < up->n_ns; k++) {
		struct ns *ns = &up->ns[k];

		ns->fd = sluice_netns_create(ns->name, up->err, up->errlen);
		if (ns->fd < 0)
			return ns->fd;
		up->st->namespaces++;
		ret = ns_setup(up, ns, k < g->n_nodes ?
			       (int)sluice_graph_degree(g, k) : -1);
		back = sluice_netns_enter_fd(up->self, "of sluicectl",
					  ret ? NULL : up->err,
					  ret ? 0 : up->errlen);
		if (ret || back)
			return ret ? ret : back;
	}
	return 0;
}

static int queue_veth(struct up *up, struct ns *ns, const char *name,
		      int ifindex, const uint8_t *mac, const char *peer_name,
		      int peer_ifindex, const uint8_t *peer_mac, int peer_fd,
		      uint32_t mtu, uint64_t tag)
{
	struct nl_addr *addr, *peer_addr;
	struct rtnl_link *link, *peer;
	struct nl_msg *msg = NULL;
	int ret;

	link = rtnl_link_veth_alloc();
	addr = nl_addr_build(AF_LLC, mac, SLUICE_FABRIC_MAC_LEN);
	peer_addr = nl_addr_build(AF_LLC, peer_mac, SLUICE_FABRIC_MAC_LEN);
	if (!link || !addr || !peer_addr) {
		nl_addr_put(addr);
		nl_addr_put(peer_addr);
		if (link)
			rtnl_link_veth_release(link);
		return nomem(up);
	}
	peer = rtnl_link_veth_get_peer(link);
	rtnl_link_set_name(link, name);
	rtnl_link_set_ifindex(link, ifindex);
	rtnl_link_set_addr(link, addr);
	rtnl_link_set_mtu(link, mtu);
	rtnl_link_set_flags(link, IFF_UP);
	/*
	 * Not the peer's IFF_UP: veth opens the peer before the two know
	 * each other (-ENOTCONN); it goes up from its namespace later.
	 */
	rtnl_link_set_name(peer, peer_name);
	rtnl_link_set_ifindex(peer, peer_ifindex);
	rtnl_link_set_addr(peer, peer_addr);
	rtnl_link_set_mtu(peer, mtu);
	rtnl_link_set_ns_fd(peer, peer_fd);
	ret = rtnl_link_build_add_request(link, NLM_F_CREATE | NLM_F_EXCL,
					  &msg);
	rtnl_link_put(peer);
	rtnl_link_veth_release(link);
	nl_addr_put(addr);
	nl_addr_put(peer_addr);
	if (ret < 0)
		return nomem(up);
	up->st->veths++;
	return queue(up, ns, msg, tag);
}

static int queue_link_up(struct up *up, struct ns *ns, int ifindex,
			 uint64_t tag)
{
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC,
		.ifi_index = ifindex,
		.ifi_flags = IFF_UP,
		.ifi_change = IFF_UP,
	};
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWLINK, 0);

	if (!msg || nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0) {
		nlmsg_free(msg);
		return nomem(up);
	}
	return queue(up, ns, msg, tag);
}

/*
 * One frame at a time on the wire: a device's gso_max_segs of 1 keeps TCP
 * from handing it super-frames of up to 64 KB.  A veth passes a GSO frame
 * on whole, so the next node would charge it to its ingress account at
 * once, tens of KB past XOFF with no pause able to stop it (headroom
 * drops), and PortFC and the shaper would see one frame where the wire
 * carries forty; real ports serialise frame by frame.
 */
static int queue_one_segment(struct up *up, struct ns *ns, int ifindex,
			     uint64_t tag)
{
	struct ifinfomsg ifi = {
		.ifi_family = AF_UNSPEC,
		.ifi_index = ifindex,
	};
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWLINK, 0);

	if (!msg || nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0 ||
	    nla_put_u32(msg, IFLA_GSO_MAX_SEGS, 1)) {
		nlmsg_free(msg);
		return nomem(up);
	}
	return queue(up, ns, msg, tag);
}

static int make_links(struct up *up)
{
	const struct sluice_fabric *f = up->f;
	const struct sluice_graph *g = f->g;
	uint8_t mac[SLUICE_FABRIC_MAC_LEN], peer_mac[SLUICE_FABRIC_MAC_LEN];
	char a[SLUICE_IFNAME_MAX], b[SLUICE_IFNAME_MAX];
	uint32_t l, u, i, h, deg;
	int ret = 0;

	for (l = 0; !ret && l < g->n_links; l++) {
		const struct sluice_link *lk = &g->links[l];

		snprintf(a, sizeof(a), "l%u", l);
		sluice_fabric_link_mac(l, 0, mac);
		sluice_fabric_link_mac(l, 1, peer_mac);
		ret = queue_veth(up, &up->ns[lk->a], a,
				 2 + sluice_fabric_port_index(g, lk->a, l), mac,
				 a, 2 + sluice_fabric_port_index(g, lk->b, l),
				 peer_mac, up->ns[lk->b].fd,
				 SLUICE_FABRIC_LINK_MTU, TAG(TAG_LINK, l));
	}
	for (u = 0; !ret && u < g->n_nodes; u++) {
		deg = sluice_graph_degree(g, u);
		for (i = 0; !ret && !sluice_fabric_self_hosted(f, u) &&
		     i < f->hosts[u]; i++) {
			h = host_ns(up, u, i);
			snprintf(a, sizeof(a), "h%u", i);
			snprintf(b, sizeof(b), "eth0");
			sluice_fabric_host_mac(f->host_first[u] + i, false, mac);
			sluice_fabric_host_mac(f->host_first[u] + i, true,
					       peer_mac);
			ret = queue_veth(up, &up->ns[u], a, 2 + deg + i, mac,
					 b, 2, peer_mac, up->ns[h].fd,
					 SLUICE_FABRIC_HOST_MTU,
					 TAG(TAG_HOST_VETH, f->host_first[u] + i));
		}
	}
	ret = ret ? ret : wait_all(up);
	/* the peers up, each from its own namespace, and every lo */
	for (l = 0; !ret && l < g->n_links; l++)
		ret = queue_link_up(up, &up->ns[g->links[l].b],
				    2 + sluice_fabric_port_index(g, g->links[l].b, l),
				    TAG(TAG_LINK, l));
	for (u = 0; !ret && u < g->n_nodes; u++)
		for (i = 0; !ret && !sluice_fabric_self_hosted(f, u) &&
		     i < f->hosts[u]; i++)
			ret = queue_link_up(up, &up->ns[host_ns(up, u, i)], 2,
					    TAG(TAG_HOST_VETH,
						f->host_first[u] + i));
	for (h = 0; !ret && h < up->n_ns; h++)
		ret = queue_link_up(up, &up->ns[h], 1, TAG(TAG_LO, h));
	ret = ret ? ret : wait_all(up);
	/* both ends of every link and host veth: one segment a frame */
	for (l = 0; !ret && l < g->n_links; l++) {
		const struct sluice_link *lk = &g->links[l];

		ret = queue_one_segment(up, &up->ns[lk->a],
					2 + sluice_fabric_port_index(g, lk->a, l),
					TAG(TAG_LINK, l));
		if (!ret)
			ret = queue_one_segment(up, &up->ns[lk->b],
						2 + sluice_fabric_port_index(g, lk->b, l),
						TAG(TAG_LINK, l));
	}
	for (u = 0; !ret && u < g->n_nodes; u++) {
		deg = sluice_graph_degree(g, u);
		for (i = 0; !ret && !sluice_fabric_self_hosted(f, u) &&
		     i < f->hosts[u]; i++) {
			h = f->host_first[u] + i;
			ret = queue_one_segment(up, &up->ns[u], 2 + deg + i,
						TAG(TAG_HOST_VETH, h));
			if (!ret)
				ret = queue_one_segment(up,
							&up->ns[host_ns(up, u, i)],
							2, TAG(TAG_HOST_VETH, h));
		}
	}
	return ret ? ret : wait_all(up);
}

/* MPLS input on each switch's link ports, from inside each switch. */
static int mpls_input(struct up *up)
{
	const struct sluice_graph *g = up->f->g;
	char key[64];
	uint32_t u, k;
	int ret = 0, back;

	for (u = 0; !ret && u < g->n_nodes; u++) {
		if (!sluice_graph_degree(g, u))
			continue;
		ret = sluice_netns_enter_fd(up->ns[u].fd, up->ns[u].name, up->err,
					 up->errlen);
		for (k = 0; !ret && k < sluice_graph_degree(g, u); k++) {
			snprintf(key, sizeof(key), "net/mpls/conf/l%u/input",
				 g->adj[g->off[u] + k].link);
			ret = sluice_sysctl_write(key, "1", up->err, up->errlen);
			up->st->sysctls++;
		}
		back = sluice_netns_enter_fd(up->self, "of sluicectl",
					  ret ? NULL : up->err,
					  ret ? 0 : up->errlen);
		if (!ret)
			ret = back;
	}
	return ret;
}

static struct nl_addr *ipv4(uint32_t addr, int prefixlen)
{
	uint32_t be = htonl(addr);
	struct nl_addr *a = nl_addr_build(AF_INET, &be, 4);

	if (a)
		nl_addr_set_prefixlen(a, prefixlen);
	return a;
}

static int queue_addr(struct up *up, struct ns *ns, int ifindex,
		      uint32_t addr, int prefixlen, uint64_t tag)
{
	struct rtnl_addr *a = rtnl_addr_alloc();
	struct nl_addr *local = ipv4(addr, prefixlen);
	struct nl_msg *msg = NULL;
	int ret = -1;

	if (a && local) {
		rtnl_addr_set_ifindex(a, ifindex);
		ret = rtnl_addr_set_local(a, local);
		if (!ret)
			ret = rtnl_addr_build_add_request(a, NLM_F_CREATE |
							  NLM_F_EXCL, &msg);
	}
	nl_addr_put(local);
	rtnl_addr_put(a);
	if (ret < 0)
		return nomem(up);
	return queue(up, ns, msg, tag);
}

static int queue_default_route(struct up *up, struct ns *ns, uint32_t gw,
			       uint64_t tag)
{
	struct rtnl_route *r = rtnl_route_alloc();
	struct nl_addr *dst = ipv4(0, 0), *via = ipv4(gw, 32);
	struct rtnl_nexthop *nh = rtnl_route_nh_alloc();
	struct nl_msg *msg = NULL;
	int ret = -1;

	if (r && dst && via && nh) {
		rtnl_route_set_family(r, AF_INET);
		rtnl_route_set_table(r, RT_TABLE_MAIN);
		rtnl_route_set_protocol(r, SLUICE_RTPROT);
		rtnl_route_set_scope(r, RT_SCOPE_UNIVERSE);
		rtnl_route_set_type(r, RTN_UNICAST);
		ret = rtnl_route_set_dst(r, dst);
		rtnl_route_nh_set_gateway(nh, via);
		rtnl_route_nh_set_ifindex(nh, 2);
		rtnl_route_add_nexthop(r, nh);
		nh = NULL;
		if (!ret)
			ret = rtnl_route_build_add_request(r, NLM_F_CREATE |
							   NLM_F_EXCL, &msg);
	}
	if (nh)
		rtnl_route_nh_free(nh);
	nl_addr_put(dst);
	nl_addr_put(via);
	rtnl_route_put(r);
	if (ret < 0)
		return nomem(up);
	return queue(up, ns, msg, tag);
}

static int make_addrs(struct up *up)
{
	const struct sluice_fabric *f = up->f;
	const struct sluice_graph *g = f->g;
	uint32_t l, u, i, hi, deg;
	int ret = 0, end;

	for (l = 0; !ret && l < g->n_links; l++)
		for (end = 0; !ret && end < 2; end++) {
			u = end ? g->links[l].b : g->links[l].a;
			ret = queue_addr(up, &up->ns[u],
					 2 + sluice_fabric_port_index(g, u, l),
					 sluice_fabric_link_addr(l, end), 31,
					 TAG(TAG_LINK_ADDR, 2 * (uint64_t)l + end));
		}
	for (u = 0; !ret && u < g->n_nodes; u++) {
		deg = sluice_graph_degree(g, u);
		for (i = 0; !ret && i < f->hosts[u]; i++) {
			hi = f->host_first[u] + i;
			if (sluice_fabric_self_hosted(f, u)) {
				ret = queue_addr(up, &up->ns[u], 1,
						 sluice_fabric_host_addr(u, i, true),
						 32, TAG(TAG_HOST_ADDR,
							 2 * (uint64_t)hi + 1));
				continue;
			}
			ret = queue_addr(up, &up->ns[u], 2 + deg + i,
					 sluice_fabric_host_addr(u, i, false),
					 31, TAG(TAG_HOST_ADDR, 2 * (uint64_t)hi));
			if (!ret)
				ret = queue_addr(up, &up->ns[host_ns(up, u, i)], 2,
						 sluice_fabric_host_addr(u, i, true),
						 31, TAG(TAG_HOST_ADDR, 2 * (uint64_t)hi + 1));
			if (!ret)
				ret = queue_default_route(up,
							  &up->ns[host_ns(up, u, i)],
							  sluice_fabric_host_addr(u, i, false),
							  TAG(TAG_HOST_ROUTE, hi));
		}
	}
	return ret ? ret : wait_all(up);
}

/* A permanent neighbour: @addr is at @mac, out of device @ifindex. */
static int queue_neigh(struct up *up, struct ns *ns, int ifindex,
		       uint32_t addr, const uint8_t *mac, uint64_t tag)
{
	struct rtnl_neigh *n = rtnl_neigh_alloc();
	struct nl_addr *dst = ipv4(addr, 32);
	struct nl_addr *ll = nl_addr_build(AF_LLC, mac, SLUICE_FABRIC_MAC_LEN);
	struct nl_msg *msg = NULL;
	int ret = -1;

	if (n && dst && ll) {
		rtnl_neigh_set_family(n, AF_INET);
		rtnl_neigh_set_ifindex(n, ifindex);
		rtnl_neigh_set_state(n, NUD_PERMANENT);
		rtnl_neigh_set_lladdr(n, ll);
		ret = rtnl_neigh_set_dst(n, dst);
		if (!ret)
			ret = rtnl_neigh_build_add_request(n, NLM_F_CREATE |
							   NLM_F_REPLACE, &msg);
	}
	nl_addr_put(ll);
	nl_addr_put(dst);
	rtnl_neigh_put(n);
	if (ret < 0)
		return nomem(up);
	up->st->neighbours++;
	return queue(up, ns, msg, tag);
}

/* Each port's peer, permanent: no ARP (see the top of the file). */
static int make_neighbours(struct up *up)
{
	const struct sluice_fabric *f = up->f;
	const struct sluice_graph *g = f->g;
	uint8_t mac[SLUICE_FABRIC_MAC_LEN];
	uint32_t l, u, i, hi, deg;
	int ret = 0, end;

	for (l = 0; !ret && l < g->n_links; l++)
		for (end = 0; !ret && end < 2; end++) {
			u = end ? g->links[l].b : g->links[l].a;
			sluice_fabric_link_mac(l, !end, mac);
			ret = queue_neigh(up, &up->ns[u],
					  2 + sluice_fabric_port_index(g, u, l),
					  sluice_fabric_link_addr(l, !end), mac,
					  TAG(TAG_LINK_NEIGH,
					      2 * (uint64_t)l + end));
		}
	for (u = 0; !ret && u < g->n_nodes; u++) {
		deg = sluice_graph_degree(g, u);
		for (i = 0; !ret && !sluice_fabric_self_hosted(f, u) &&
		     i < f->hosts[u]; i++) {
			hi = f->host_first[u] + i;
			sluice_fabric_host_mac(hi, true, mac);
			ret = queue_neigh(up, &up->ns[u], 2 + deg + i,
					  sluice_fabric_host_addr(u, i, true),
					  mac, TAG(TAG_HOST_NEIGH,
						   2 * (uint64_t)hi));
			if (ret)
				break;
			sluice_fabric_host_mac(hi, false, mac);
			ret = queue_neigh(up, &up->ns[host_ns(up, u, i)], 2,
					  sluice_fabric_host_addr(u, i, false),
					  mac, TAG(TAG_HOST_NEIGH,
						   2 * (uint64_t)hi + 1));
		}
	}
	return ret ? ret : wait_all(up);
}

/* RTM_NEWQDISC root handle 1: sluice, the options as tc sends them. */
static int queue_qdisc(struct up *up, uint32_t k, int ifindex,
		       const void *opts, size_t len)
{
	struct tcmsg t = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = ifindex,
		.tcm_handle = 1u << 16,
		.tcm_parent = TC_H_ROOT,
	};
	struct nl_msg *msg;

	msg = nlmsg_alloc_simple(RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL);
	if (!msg || nlmsg_append(msg, &t, sizeof(t), NLMSG_ALIGNTO) < 0 ||
	    nla_put_string(msg, TCA_KIND, "sluice") ||
	    nla_put(msg, TCA_OPTIONS | NLA_F_NESTED, len, opts)) {
		nlmsg_free(msg);
		return nomem(up);
	}
	up->st->qdiscs++;
	return queue(up, &up->ns[k], msg, TAG(TAG_QDISC, (uint64_t)k << 24 |
					       ifindex));
}

/*
 * A link port's own options, where they differ by port (PortFC, rates,
 * INT labels).
 */
static int link_qdisc(struct up *up, uint32_t u, uint32_t port)
{
	unsigned char buf[QOPT_MAX];
	struct sluice_qopt o;
	size_t len;
	int ret;

	if (up->q->fc != SLUICE_FABRIC_FC_PORTFC && !up->q->link_rate &&
	    !up->q->port_rate && !up->q->link.int_port)
		return queue_qdisc(up, u, 2 + port, up->qopt_link,
				   up->len_link);
	sluice_fabric_port_qopt(up->f, up->q, u, port, &o);
	ret = sluice_qopt_encode(&o, buf, sizeof(buf), &len);
	if (ret)
		return sluice_i_errf(up->err, up->errlen, ret,
				     "cannot encode the qdisc's options of %s l%u: %s",
				     up->f->g->nodes[u].name,
				     up->f->g->adj[up->f->g->off[u] + port].link,
				     strerror(-ret));
	return queue_qdisc(up, u, 2 + port, buf, len);
}

/*
 * Host @i of node @u's cable: the switch's port to it, or with @host_side
 * the host's eth0; their own options when they carry INT labels.
 */
static int host_qdisc(struct up *up, uint32_t u, uint32_t i, bool host_side)
{
	uint32_t deg = sluice_graph_degree(up->f->g, u);
	uint32_t k = host_side ? host_ns(up, u, i) : u;
	int ifindex = host_side ? 2 : (int)(2 + deg + i);
	unsigned char buf[QOPT_MAX];
	struct sluice_qopt o;
	size_t len;
	int ret;

	if (!up->q->host.int_port)
		return queue_qdisc(up, k, ifindex, up->qopt_host,
				   up->len_host);
	o = up->q->host;
	sluice_fabric_int_label(up->f, u, deg + i, host_side, &o);
	ret = sluice_qopt_encode(&o, buf, sizeof(buf), &len);
	if (ret)
		return sluice_i_errf(up->err, up->errlen, ret,
				     "cannot encode the qdisc's options of %s's port to host %u: %s",
				     up->f->g->nodes[u].name, i, strerror(-ret));
	return queue_qdisc(up, k, ifindex, buf, len);
}

static int make_qdiscs(struct up *up)
{
	const struct sluice_fabric *f = up->f;
	const struct sluice_graph *g = f->g;
	uint32_t u, k, deg, i;
	int ret = 0;

	for (u = 0; !ret && u < g->n_nodes; u++) {
		deg = sluice_graph_degree(g, u);
		for (k = 0; !ret && k < deg; k++)
			ret = link_qdisc(up, u, k);
		for (i = 0; !ret && !sluice_fabric_self_hosted(f, u) &&
		     i < f->hosts[u]; i++) {
			ret = host_qdisc(up, u, i, false);
			if (!ret)
				ret = host_qdisc(up, u, i, true);
		}
	}
	return ret ? ret : wait_all(up);
}

/* A number read from /proc/sys, or -1. */
static long sysctl_read(const char *key)
{
	char path[256], buf[32];
	FILE *f;
	long v = -1;

	snprintf(path, sizeof(path), "/proc/sys/%s", key);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 10);
	fclose(f);
	return v;
}

/*
 * The kernel's ARP table is one for all namespaces, its garbage collector
 * thresholds too (the "default" sysctls of any namespace set them).  Past
 * gc_thresh3 (1024 by default) no neighbour can be created and frames to
 * it are dropped without a counter; past gc_thresh2 entries in use get
 * evicted.  A fabric holds one entry per link end and two per host, so a
 * fabric of 50 switches of degree 18 with 2 hosts each needs 1100: raise
 * the thresholds above what the fabric needs (never lower them).
 */
static int neigh_limits(struct up *up)
{
	const struct sluice_graph *g = up->f->g;
	static const char *const keys[] = {
		"net/ipv4/neigh/default/gc_thresh1",
		"net/ipv4/neigh/default/gc_thresh2",
		"net/ipv4/neigh/default/gc_thresh3",
	};
	long need = 2 * (long)g->n_links + 2 * (long)up->f->n_hosts, want, cur;
	char val[32];
	size_t k;
	int ret;

	for (k = 0; k < ARRAY_SIZE(keys); k++) {
		/* in use, plus room for what else the machine resolves */
		want = need + (k == 0 ? 128 : k == 1 ? 512 : 1024);
		cur = sysctl_read(keys[k]);
		if (cur < 0 || cur >= want)
			continue;
		snprintf(val, sizeof(val), "%ld", want);
		ret = sluice_sysctl_write(keys[k], val, up->err, up->errlen);
		if (ret)
			return ret;
		up->st->sysctls++;
		up->st->neigh_raised = true;
	}
	return 0;
}

static int encode_qdiscs(struct up *up)
{
	int ret;

	if (!up->q || !up->q->enabled)
		return 0;
	ret = sluice_qopt_encode(&up->q->link, up->qopt_link,
				 sizeof(up->qopt_link), &up->len_link);
	if (!ret)
		ret = sluice_qopt_encode(&up->q->host, up->qopt_host,
					 sizeof(up->qopt_host), &up->len_host);
	if (ret)
		return sluice_i_errf(up->err, up->errlen, ret,
				     "cannot encode the qdisc's options: %s",
				     strerror(-ret));
	return 0;
}

static void free_up(struct up *up, bool remove)
{
	char ignore[SLUICE_ERRLEN];
	uint32_t k;

	for (k = 0; up->ns && k < up->n_ns; k++) {
		sluice_rtnl_close(up->ns[k].rt);
		if (up->ns[k].fd >= 0) {
			close(up->ns[k].fd);
			if (remove)
				sluice_netns_delete(up->ns[k].name, ignore,
						    sizeof(ignore));
		}
	}
	free(up->ns);
	free(up->hns);
	if (up->self >= 0)
		close(up->self);
}

/**
 * sluice_fabric_up() - create a fabric's namespaces, links and qdiscs
 * @f:		the plan
 * @q:		the qdisc of every port, or NULL for none
 * @st:		filled with counts and each phase's time
 * @err:	the first failure: what, and the kernel's reason
 * @errlen:	room in @err
 *
 * Needs CAP_SYS_ADMIN and CAP_NET_ADMIN, and the kernel's veth,
 * mpls_router and mpls_iptunnel (and sch_sluice for the qdiscs).  A
 * namespace that already exists stops it before anything is made.  On
 * failure every namespace it made is removed.  Call it from a
 * single-threaded process (it moves its thread between namespaces).
 *
 * Return: 0 or a negative errno.
 */
int sluice_fabric_up(const struct sluice_fabric *f,
		     const struct sluice_fabric_qdisc *q,
		     struct sluice_fabric_stats *st, char *err, size_t errlen)
{
	const struct sluice_graph *g = f->g;
	struct up up = {
		.f = f, .q = q, .st = st, .self = -1, .err = err,
		.errlen = errlen,
	};
	double t0 = sluice_now(), t;
	uint32_t u, i, k;
	int ret;

	memset(st, 0, sizeof(*st));
	up.n_ns = g->n_nodes;
	up.hns = sluice_i_calloc(f->n_hosts ? f->n_hosts : 1,
				 sizeof(*up.hns));
	for (u = 0; up.hns && u < g->n_nodes; u++)
		for (i = 0; i < f->hosts[u]; i++)
			up.hns[f->host_first[u] + i] =
				sluice_fabric_self_hosted(f, u) ? u : up.n_ns++;
	up.ns = up.hns ? sluice_i_calloc(up.n_ns, sizeof(*up.ns)) : NULL;
	if (!up.ns) {
		free(up.hns);
		return nomem(&up);
	}
	for (k = 0; k < up.n_ns; k++)
		up.ns[k].fd = -1;
	for (u = 0; u < g->n_nodes; u++) {
		sluice_fabric_switch_ns(f, u, up.ns[u].name,
					sizeof(up.ns[u].name));
		for (i = 0; !sluice_fabric_self_hosted(f, u) &&
		     i < f->hosts[u]; i++)
			sluice_fabric_host_ns(f, u, i,
					      up.ns[host_ns(&up, u, i)].name,
					      sizeof(up.ns[0].name));
	}
	for (k = 0; k < up.n_ns; k++)
		if (sluice_netns_exists(up.ns[k].name)) {
			free_up(&up, false);
			return sluice_i_errf(err, errlen, -EEXIST,
					     "network namespace %s exists: is fabric %s up? (sluicectl fabric down --name %s)",
					     up.ns[k].name, f->name, f->name);
		}
	ret = encode_qdiscs(&up);
	if (!ret)
		ret = neigh_limits(&up);
	if (!ret) {
		up.self = sluice_netns_self(err, errlen);
		if (up.self < 0)
			ret = up.self;
	}
	t = sluice_now();
	if (!ret)
		ret = make_namespaces(&up);
	st->t_netns = sluice_now() - t;
	t = sluice_now();
	if (!ret)
		ret = make_links(&up);
	st->t_links = sluice_now() - t;
	t = sluice_now();
	if (!ret)
		ret = mpls_input(&up);
	st->t_sysctl = sluice_now() - t;
	t = sluice_now();
	if (!ret)
		ret = make_addrs(&up);
	if (!ret)
		ret = make_neighbours(&up);
	st->t_addrs = sluice_now() - t;
	t = sluice_now();
	if (!ret && q && q->enabled)
		ret = make_qdiscs(&up);
	st->t_qdiscs = sluice_now() - t;
	for (k = 0; k < up.n_ns; k++)
		if (up.ns[k].rt)
			st->requests += sluice_i_rtnl_sent(up.ns[k].rt);
	free_up(&up, ret != 0);
	st->t_total = sluice_now() - t0;
	return ret;
}

/* Removes namespace @name if it exists; the first failure goes to @ret. */
static void remove_ns(const char *name, int *ret, uint32_t *removed,
		      char *err, size_t errlen)
{
	int r;

	if (!sluice_netns_exists(name))
		return;
	r = sluice_netns_delete(name, *ret ? NULL : err, *ret ? 0 : errlen);
	if (r && !*ret)
		*ret = r;
	if (!r)
		++*removed;
}

/**
 * sluice_fabric_down() - remove every namespace of a fabric
 * @f:		the plan
 * @removed:	set to the number of namespaces removed
 * @err:	the first failure (the others are still tried)
 * @errlen:	room in @err
 *
 * Namespaces already gone are skipped, so it finishes what a crash left.
 *
 * Return: 0 or the first failure's negative errno.
 */
int sluice_fabric_down(const struct sluice_fabric *f, uint32_t *removed,
		       char *err, size_t errlen)
{
	char name[SLUICE_NETNS_NAME_MAX];
	const struct sluice_graph *g = f->g;
	int ret = 0;
	uint32_t u, i;

	*removed = 0;
	/* hosts first: a switch's veths to them go with either end */
	for (u = 0; u < g->n_nodes; u++) {
		if (!sluice_fabric_self_hosted(f, u)) {
			for (i = 0; i < f->hosts[u]; i++) {
				sluice_fabric_host_ns(f, u, i, name, sizeof(name));
				remove_ns(name, &ret, removed, err, errlen);
			}
		} else {
			/* a server has none, but an older sluicectl made them */
			for (i = 0; i < SLUICE_FABRIC_HOSTS_MAX; i++) {
				snprintf(name, sizeof(name), "%s-%s-h%u",
					 f->name, g->nodes[u].name, i);
				if (!sluice_netns_exists(name))
					break;
				remove_ns(name, &ret, removed, err, errlen);
			}
		}
		sluice_fabric_switch_ns(f, u, name, sizeof(name));
		remove_ns(name, &ret, removed, err, errlen);
	}
	return ret;
}
