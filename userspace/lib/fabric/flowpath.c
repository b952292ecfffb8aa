// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The path the kernel gives a flow at its ingress switch
 * (sluice_fabric_flow_link(), sluice/fabric_nl.h): RTM_GETROUTE with the
 * input device, the protocol and the ports, as "ip route get DST from SRC
 * iif hI ipproto tcp sport S dport D" asks.  The kernel builds a frame of
 * that flow and routes it as it would route the flow's own, through the
 * rules (exact's source-port tables) and the multipath hash of the
 * namespace's policy and fields, so the answer is the path the flow
 * takes, not one worked out beside the kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <netinet/in.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/netlink.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include "graph/internal.h"
#include "fabric/internal.h"

struct getroute {
	int	oif;
};

static int getroute_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct nlattr *tb[RTA_MAX + 1];
	struct getroute *g = arg;

	if (h->nlmsg_type != RTM_NEWROUTE ||
	    nlmsg_parse(h, sizeof(struct rtmsg), tb, RTA_MAX, NULL) < 0)
		return NL_SKIP;
	if (tb[RTA_OIF] && nla_len(tb[RTA_OIF]) >= 4)
		g->oif = nla_get_u32(tb[RTA_OIF]);
	return NL_OK;
}

/**
 * sluice_route_get_oif() - the device the kernel sends a flow out of
 * @r:		a socket in the namespace that routes the flow
 * @k:		the flow, as it arrives there
 * @oif:	set to the output device's index
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Return: 0; -ENETUNREACH (no route, or none by a device), or -EIO.
 */
int sluice_route_get_oif(struct sluice_rtnl *r, const struct sluice_flow_key *k,
			 int *oif, char *err, size_t errlen)
{
	struct nl_sock *sk = sluice_i_rtnl_sock(r);
	struct rtmsg rtm = {
		.rtm_family = AF_INET, .rtm_dst_len = 32, .rtm_src_len = 32,
	};
	struct getroute g = { 0 };
	struct nl_msg *msg;
	int ret;

	*oif = 0;
	msg = nlmsg_alloc_simple(RTM_GETROUTE, NLM_F_REQUEST);
	if (!msg || nlmsg_append(msg, &rtm, sizeof(rtm), NLMSG_ALIGNTO) < 0 ||
	    nla_put_u32(msg, RTA_DST, htonl(k->dst)) ||
	    nla_put_u32(msg, RTA_SRC, htonl(k->src)) ||
	    nla_put_u32(msg, RTA_IIF, k->iif) ||
	    nla_put_u8(msg, RTA_IP_PROTO, k->proto) ||
	    nla_put_u16(msg, RTA_SPORT, htons(k->sport)) ||
	    nla_put_u16(msg, RTA_DPORT, htons(k->dport))) {
		nlmsg_free(msg);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	/*
	 * No ack asked: the route is the answer, or an error is; an ack
	 * would come apart from the route and be read as the next answer.
	 */
	nl_complete_msg(sk, msg);
	nlmsg_hdr(msg)->nlmsg_flags &= ~NLM_F_ACK;
	ret = nl_send(sk, msg);
	nlmsg_free(msg);
	if (ret >= 0) {
		nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, getroute_cb,
				    &g);
		ret = nl_recvmsgs_default(sk);
	}
	if (ret < 0)
		return sluice_i_errf(err, errlen,
				     ret == -NLE_NOADDR || ret == -NLE_OBJ_NOTFOUND ?
				     -ENETUNREACH : -EIO,
				     "no route for %u.%u.%u.%u:%u -> %u.%u.%u.%u:%u: %s",
				     k->src >> 24, k->src >> 16 & 255,
				     k->src >> 8 & 255, k->src & 255, k->sport,
				     k->dst >> 24, k->dst >> 16 & 255,
				     k->dst >> 8 & 255, k->dst & 255, k->dport,
				     nl_geterror(ret));
	if (!g.oif)
		return sluice_i_errf(err, errlen, -ENETUNREACH,
				     "the route of %u.%u.%u.%u -> %u.%u.%u.%u names no device",
				     k->src >> 24, k->src >> 16 & 255,
				     k->src >> 8 & 255, k->src & 255,
				     k->dst >> 24, k->dst >> 16 & 255,
				     k->dst >> 8 & 255, k->dst & 255);
	*oif = g.oif;
	return 0;
}

/**
 * sluice_fabric_flow_link() - the link a host's flow leaves its switch by
 * @f:		the fabric, up
 * @r:		a socket in switch @u's namespace
 * @u:		that switch (a node that is not its own host)
 * @i:		the host, of @u's
 * @k:		the flow (@k->iif is ignored: the switch's port to the host)
 * @link:	set to the link's id
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * A switch's link ports are devices 2.. in link id order, its host ports
 * after them (sluice_fabric_up()).
 *
 * Return: 0, -EINVAL (@u or @i out of range), -ENETUNREACH (a route by
 * no link port: the flow stays on its switch), or -EIO.
 */
int sluice_fabric_flow_link(const struct sluice_fabric *f,
			    struct sluice_rtnl *r, uint32_t u, uint32_t i,
			    const struct sluice_flow_key *k, uint32_t *link,
			    char *err, size_t errlen)
{
	const struct sluice_graph *g = f->g;
	struct sluice_flow_key in = *k;
	uint32_t deg;
	int oif, ret;

	if (u >= g->n_nodes || sluice_fabric_self_hosted(f, u) ||
	    i >= f->hosts[u])
		return sluice_i_errf(err, errlen, -EINVAL,
				     "node %u has no host %u behind a switch",
				     u, i);
	deg = g->off[u + 1] - g->off[u];
	in.iif = 2 + deg + i;
	ret = sluice_route_get_oif(r, &in, &oif, err, errlen);
	if (ret)
		return ret;
	if (oif < 2 || (uint32_t)oif >= 2 + deg)
		return sluice_i_errf(err, errlen, -ENETUNREACH,
				     "%s routes the flow out of device %d, not a link port",
				     g->nodes[u].name, oif);
	*link = g->adj[g->off[u] + oif - 2].link;
	return 0;
}
