// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A switch's routes in the kernel: read back (IPv4 routes of the main
 * table, of the lanes' tables and of exact mode's path tables, MPLS label
 * routes and the lanes' and exact's IPv4 rules, only those of protocol
 * SLUICE_RTPROT, as struct sluice_lroutes),
 * and changed by a diff (sluice/fabric.h) in one batch through
 * libnl-route-3.  Rules are written and read as plain messages (struct
 * fib_rule_hdr and FRA_* attributes): they are a handful of fields, and
 * libnl's rule object has no parser to read a dump with.
 *
 * A change is transactional: if the kernel refuses any operation, every
 * operation it took is undone (an added route deleted, a replaced one put
 * back, a deleted one re-added) so that the switch holds what it held
 * before, and the refused one is named.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>
#include <netlink/addr.h>
#include <netlink/msg.h>
#include <netlink/route/nexthop.h>
#include <netlink/route/route.h>
#include "graph/internal.h"
#include "fabric/internal.h"

#ifndef AF_MPLS
#define AF_MPLS		28
#endif

#define MPLS_LS_LABEL_SHIFT	12
#define MPLS_LS_S_MASK		0x100

struct reader {
	struct sluice_rtnl	*r;
	struct sluice_lroutes	*have;
	int			ret;
	char			*err;
	size_t			errlen;
};

static uint32_t addr4(struct nl_addr *a)
{
	uint32_t be;

	if (!a || nl_addr_get_family(a) != AF_INET ||
	    nl_addr_get_len(a) != 4)
		return 0;
	memcpy(&be, nl_addr_get_binary_addr(a), 4);
	return ntohl(be);
}

/* Labels of an MPLS address, top first; their count, or -1 if too many. */
static int labels_of(struct nl_addr *a, uint32_t *labels)
{
	const unsigned char *p;
	unsigned int n, i;
	uint32_t be;

	if (!a)
		return 0;
	n = nl_addr_get_len(a) / 4;
	if (n > SLUICE_FABRIC_LABELS_MAX)
		return -1;
	p = nl_addr_get_binary_addr(a);
	for (i = 0; i < n; i++) {
		memcpy(&be, p + 4 * i, 4);
		labels[i] = ntohl(be) >> MPLS_LS_LABEL_SHIFT;
	}
	return n;
}

/*
 * Whether IPv4 routes of table @table are sluice's: main, a lane's or an
 * exact path's.
 */
static bool sluice_table(uint32_t table)
{
	return table == SLUICE_TABLE_MAIN ||
	       (table > SLUICE_LANE_BASE &&
		table < SLUICE_LANE_TABLE(SLUICE_LANES_MAX)) ||
	       (table >= SLUICE_MP_TABLE(0) &&
		table < SLUICE_MP_TABLE(SLUICE_MP_PATHS_MAX));
}

static void route_cb(struct nl_object *obj, void *arg)
{
	uint32_t labels[SLUICE_FABRIC_LABELS_MAX], dst = 0;
	struct rtnl_route *route = (struct rtnl_route *)obj;
	struct reader *rd = arg;
	struct rtnl_nexthop *nh;
	const char *dev;
	struct nl_addr *a;
	int family = rtnl_route_get_family(route), k, n;

	if (rd->ret || rtnl_route_get_protocol(route) != SLUICE_RTPROT ||
	    (family == AF_INET && !sluice_table(rtnl_route_get_table(route))))
		return;
	a = rtnl_route_get_dst(route);
	if (family == AF_INET) {
		dst = addr4(a);
	} else if (a && nl_addr_get_len(a) == 4) {
		labels_of(a, labels);
		dst = labels[0];
	}
	rd->ret = sluice_lroutes_add(rd->have, family == AF_MPLS ?
				     SLUICE_LR_MPLS : SLUICE_LR_INET, dst,
				     family == AF_MPLS ? 20 :
				     nl_addr_get_prefixlen(a), rd->err,
				     rd->errlen);
	if (!rd->ret && family == AF_INET) {
		rd->have->routes[rd->have->n_routes - 1].src =
			addr4(rtnl_route_get_pref_src(route));
		rd->have->routes[rd->have->n_routes - 1].table =
			rtnl_route_get_table(route);
	}
	for (k = 0; !rd->ret && k < rtnl_route_get_nnexthops(route); k++) {
		nh = rtnl_route_nexthop_n(route, k);
		dev = sluice_i_rtnl_ifname(rd->r, rtnl_route_nh_get_ifindex(nh));
		n = family == AF_MPLS ? 0 :
		    labels_of(rtnl_route_nh_get_encap_mpls_dst(nh), labels);
		/* more labels than sluice pushes: never equal to a wanted route */
		if (n < 0)
			n = 0, dev = "?";
		rd->ret = sluice_lroutes_add_nh(rd->have,
						addr4(family == AF_MPLS ?
						      rtnl_route_nh_get_via(nh) :
						      rtnl_route_nh_get_gateway(nh)),
						dev ? dev : "?", labels, n,
						rd->err, rd->errlen);
		/* libnl's weight is the kernel's rtnh_hops: weight - 1 */
		if (!rd->ret)
			rd->have->nhs[rd->have->n_nhs - 1].weight =
				rtnl_route_nh_get_weight(nh) + 1;
	}
}

/* A rule of sluice's (protocol SLUICE_RTPROT), as a route of family RULE. */
static int rule_cb(struct reader *rd, struct nlmsghdr *h)
{
	const struct fib_rule_hdr *frh = nlmsg_data(h);
	struct fib_rule_port_range range;
	struct nlattr *tb[FRA_MAX + 1];
	struct sluice_lroute *x;
	int ret;

	ret = nlmsg_parse(h, sizeof(*frh), tb, FRA_MAX, NULL);
	if (ret < 0) {
		rd->ret = sluice_i_errf(rd->err, rd->errlen, -EIO,
					"cannot parse a rule: %s",
					nl_geterror(ret));
		return NL_STOP;
	}
	if (frh->family != AF_INET || !tb[FRA_PROTOCOL] ||
	    nla_get_u8(tb[FRA_PROTOCOL]) != SLUICE_RTPROT)
		return NL_OK;
	rd->ret = sluice_lroutes_add(rd->have, SLUICE_LR_RULE, frh->tos >> 2, 0,
				     rd->err, rd->errlen);
	if (rd->ret)
		return NL_STOP;
	x = &rd->have->routes[rd->have->n_routes - 1];
	x->table = tb[FRA_TABLE] ? nla_get_u32(tb[FRA_TABLE]) : frh->table;
	x->pref = tb[FRA_PRIORITY] ? nla_get_u32(tb[FRA_PRIORITY]) : 0;
	x->ip_proto = tb[FRA_IP_PROTO] ? nla_get_u8(tb[FRA_IP_PROTO]) : 0;
	if (tb[FRA_SPORT_RANGE] &&
	    nla_len(tb[FRA_SPORT_RANGE]) >= (int)sizeof(range)) {
		memcpy(&range, nla_data(tb[FRA_SPORT_RANGE]), sizeof(range));
		x->sport_lo = range.start;
		x->sport_hi = range.end;
	}
	return NL_OK;
}

static int parse_cb(struct nl_msg *msg, void *arg)
{
	struct rtnl_route *route = NULL;
	struct reader *rd = arg;
	int ret;

	if (nlmsg_hdr(msg)->nlmsg_type == RTM_NEWRULE)
		return rule_cb(rd, nlmsg_hdr(msg));
	if (nlmsg_hdr(msg)->nlmsg_type != RTM_NEWROUTE)
		return NL_SKIP;
	ret = rtnl_route_parse(nlmsg_hdr(msg), &route);
	if (ret < 0) {
		rd->ret = sluice_i_errf(rd->err, rd->errlen, -EIO,
					"cannot parse a route: %s",
					nl_geterror(ret));
		return NL_STOP;
	}
	route_cb((struct nl_object *)route, rd);
	rtnl_route_put(route);
	return rd->ret ? NL_STOP : NL_OK;
}

/* Dumps @family's routes (@type RTM_GETROUTE) or rules (RTM_GETRULE). */
static int dump(struct reader *rd, int type, int family)
{
	struct nl_sock *sk = sluice_i_rtnl_sock(rd->r);
	struct rtmsg rtm = { .rtm_family = family };
	int ret;

	/* struct fib_rule_hdr is the size of struct rtmsg, family first */
	ret = nl_send_simple(sk, type, NLM_F_DUMP, &rtm, sizeof(rtm));
	if (ret >= 0) {
		nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, parse_cb, rd);
		ret = nl_recvmsgs_default(sk);
	}
	if (rd->ret)
		return rd->ret;
	/* no MPLS in the kernel: there are no label routes to read */
	if (ret == -NLE_OPNOTSUPP || ret == -NLE_AF_NOSUPPORT)
		return 0;
	if (ret < 0)
		return sluice_i_errf(rd->err, rd->errlen, -EIO,
				     "cannot read the %s %s: %s",
				     family == AF_MPLS ? "MPLS" : "IPv4",
				     type == RTM_GETRULE ? "rules" : "routes",
				     nl_geterror(ret));
	return 0;
}

/**
 * sluice_kroutes_read() - the routes sluice installed in a namespace
 * @r:		a socket in the switch's namespace, nothing outstanding
 * @have:	emptied, filled with the IPv4 (main and lane tables) and
 *		MPLS routes and the IPv4 rules of protocol SLUICE_RTPROT,
 *		and sorted; devices by name
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Also reads the namespace's devices, for sluice_kroutes_check() and
 * sluice_kroutes_apply().
 *
 * Return: 0 or a negative errno.
 */
int sluice_kroutes_read(struct sluice_rtnl *r, struct sluice_lroutes *have,
			char *err, size_t errlen)
{
	struct reader rd = { .r = r, .have = have, .err = err,
			     .errlen = errlen };
	int ret;

	sluice_lroutes_free(have);
	ret = sluice_i_rtnl_links(r, err, errlen);
	if (!ret)
		ret = dump(&rd, RTM_GETROUTE, AF_MPLS);
	if (!ret)
		ret = dump(&rd, RTM_GETROUTE, AF_INET);
	if (!ret)
		ret = dump(&rd, RTM_GETRULE, AF_INET);
	if (!ret)
		sluice_lroutes_sort(have);
	return ret;
}

/**
 * sluice_kroutes_check() - whether every device @want names exists
 * @r:		the switch's socket, devices read (sluice_kroutes_read())
 * @want:	the routes
 * @err:	"no device l12 for label 103 via 172.16.0.25 dev l12"
 * @errlen:	room in @err
 *
 * Return: 0 or -ENODEV.
 */
int sluice_kroutes_check(struct sluice_rtnl *r,
			 const struct sluice_lroutes *want,
			 char *err, size_t errlen)
{
	char text[256];
	uint64_t i;
	uint32_t k;

	for (i = 0; i < want->n_routes; i++)
		for (k = 0; k < want->routes[i].n_nh; k++) {
			const struct sluice_lnh *nh =
				&want->nhs[want->routes[i].nh + k];

			if (sluice_rtnl_ifindex(r, nh->dev, NULL, 0) >= 0)
				continue;
			sluice_lroute_format(want, i, text, sizeof(text));
			return sluice_i_errf(err, errlen, -ENODEV,
					     "no device %s for %s", nh->dev,
					     text);
		}
	return 0;
}

static struct nl_addr *ipv4(uint32_t addr, int prefixlen)
{
	uint32_t be = htonl(addr);
	struct nl_addr *a = nl_addr_build(AF_INET, &be, 4);

	if (a)
		nl_addr_set_prefixlen(a, prefixlen);
	return a;
}

/* A label stack as the kernel takes it: bottom of stack on the last. */
static struct nl_addr *mpls(const uint32_t *labels, uint32_t n)
{
	uint32_t be[SLUICE_FABRIC_LABELS_MAX];
	struct nl_addr *a;
	uint32_t i;

	for (i = 0; i < n; i++)
		be[i] = htonl(labels[i] << MPLS_LS_LABEL_SHIFT |
			      (i == n - 1 ? MPLS_LS_S_MASK : 0));
	a = nl_addr_build(AF_MPLS, be, 4 * n);
	if (a)
		nl_addr_set_prefixlen(a, 20);
	return a;
}

/*
 * A rule added (@cmd RTM_NEWROUTE) or deleted: a lane's, "ip rule add pref
 * P tos T lookup TABLE proto 177", or exact's, "ip rule add pref P ipproto
 * PROTO sport LO-HI lookup TABLE proto 177"; deleted by the same fields.
 */
static int build_rule(const struct sluice_lroute *x, int cmd, int flags,
		      struct nl_msg **msg)
{
	struct fib_rule_hdr frh = {
		.family = AF_INET,
		.tos = x->dst << 2,
		.table = x->table < 256 ? x->table : RT_TABLE_UNSPEC,
		.action = FR_ACT_TO_TBL,
	};
	struct fib_rule_port_range range = {
		.start = x->sport_lo,
		.end = x->sport_hi,
	};

	*msg = nlmsg_alloc_simple(cmd == RTM_NEWROUTE ? RTM_NEWRULE :
				  RTM_DELRULE, cmd == RTM_NEWROUTE ?
				  flags & ~NLM_F_REPLACE : 0);
	if (!*msg)
		return -ENOMEM;
	if (nlmsg_append(*msg, &frh, sizeof(frh), NLMSG_ALIGNTO) < 0 ||
	    nla_put_u32(*msg, FRA_TABLE, x->table) < 0 ||
	    nla_put_u32(*msg, FRA_PRIORITY, x->pref) < 0 ||
	    nla_put_u8(*msg, FRA_PROTOCOL, SLUICE_RTPROT) < 0 ||
	    (x->ip_proto &&
	     (nla_put_u8(*msg, FRA_IP_PROTO, x->ip_proto) < 0 ||
	      nla_put(*msg, FRA_SPORT_RANGE, sizeof(range), &range) < 0))) {
		nlmsg_free(*msg);
		*msg = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* The request that adds, replaces (@cmd RTM_NEWROUTE) or deletes a route. */
static int build(struct sluice_rtnl *r, const struct sluice_lroutes *s,
		 uint64_t i, int cmd, int flags, struct nl_msg **msg)
{
	const struct sluice_lroute *x = &s->routes[i];
	bool is_mpls = x->family == SLUICE_LR_MPLS;
	struct rtnl_route *route;
	struct rtnl_nexthop *nh;
	struct nl_addr *a;
	uint32_t k;
	int ret;

	*msg = NULL;
	if (x->family == SLUICE_LR_RULE)
		return build_rule(x, cmd, flags, msg);
	route = rtnl_route_alloc();
	if (!route)
		return -ENOMEM;
	rtnl_route_set_family(route, is_mpls ? AF_MPLS : AF_INET);
	rtnl_route_set_table(route, is_mpls ? RT_TABLE_MAIN : x->table);
	rtnl_route_set_protocol(route, SLUICE_RTPROT);
	rtnl_route_set_scope(route, RT_SCOPE_UNIVERSE);
	rtnl_route_set_type(route, RTN_UNICAST);
	a = is_mpls ? mpls(&x->dst, 1) : ipv4(x->dst, x->dst_len);
	ret = a ? rtnl_route_set_dst(route, a) : -ENOMEM;
	nl_addr_put(a);
	if (!ret && x->src && cmd == RTM_NEWROUTE) {
		a = ipv4(x->src, 32);
		ret = a ? rtnl_route_set_pref_src(route, a) : -ENOMEM;
		nl_addr_put(a);
	}
	for (k = 0; !ret && cmd == RTM_NEWROUTE && k < x->n_nh; k++) {
		const struct sluice_lnh *lnh = &s->nhs[x->nh + k];

		nh = rtnl_route_nh_alloc();
		if (!nh) {
			ret = -ENOMEM;
			break;
		}
		rtnl_route_nh_set_ifindex(nh, sluice_rtnl_ifindex(r, lnh->dev,
								   NULL, 0));
		a = ipv4(lnh->via, 32);
		if (a && is_mpls)
			ret = rtnl_route_nh_set_via(nh, a);
		else if (a)
			rtnl_route_nh_set_gateway(nh, a);
		else
			ret = -ENOMEM;
		nl_addr_put(a);
		if (!ret && lnh->n_labels) {
			a = mpls(&s->labels[lnh->label], lnh->n_labels);
			ret = a ? rtnl_route_nh_encap_mpls(nh, a, 0) : -ENOMEM;
			nl_addr_put(a);
		}
		rtnl_route_nh_set_weight(nh, lnh->weight - 1);
		rtnl_route_add_nexthop(route, nh);
	}
	if (!ret)
		ret = cmd == RTM_NEWROUTE ?
		      rtnl_route_build_add_request(route, flags, msg) :
		      rtnl_route_build_del_request(route, 0, msg);
	rtnl_route_put(route);
	return ret < 0 ? -ENOMEM : 0;
}

/* Queues operation @k of @d, or its inverse (@undo). */
static int queue_op(struct sluice_rtnl *r, const struct sluice_lroutes *want,
		    const struct sluice_lroutes *have,
		    const struct sluice_ldiff *d, uint64_t k, bool undo,
		    char *err, size_t errlen)
{
	const struct sluice_lop *op = &d->ops[k];
	const struct sluice_lroutes *s;
	struct nl_msg *msg;
	int ret, cmd = RTM_NEWROUTE, flags = NLM_F_CREATE | NLM_F_REPLACE;
	uint64_t i;

	switch (op->kind) {
	case SLUICE_LOP_ADD:
		s = want;
		i = op->want;
		if (undo)
			cmd = RTM_DELROUTE;
		else
			flags = NLM_F_CREATE | NLM_F_EXCL;
		break;
	case SLUICE_LOP_REPLACE:
		s = undo ? have : want;
		i = undo ? op->have : op->want;
		break;
	default:
		s = have;
		i = op->have;
		if (!undo)
			cmd = RTM_DELROUTE;
	}
	ret = build(r, s, i, cmd, flags, &msg);
	if (ret)
		return sluice_i_errf(err, errlen, ret, "out of memory");
	ret = sluice_i_rtnl_queue(r, msg, k, err, errlen);
	nlmsg_free(msg);
	return ret;
}

/**
 * sluice_kroutes_apply() - change a switch's routes, all or nothing
 * @r:		the switch's socket, devices read (sluice_kroutes_read())
 * @want:	the routes wanted, sorted
 * @have:	the routes held (as read), sorted
 * @d:		sluice_lroutes_diff(@want, @have)
 * @fail:	if the kernel refused an operation: the first refused (in
 *		the diff's order), its error and extended ack, and whether
 *		everything else was undone
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * One batch of requests (adds, replaces, deletes), then, if any was
 * refused, one batch undoing those that were taken.  Devices must exist
 * (sluice_kroutes_check()).
 *
 * Return: 0; -EREMOTEIO if the kernel refused an operation (see @fail); a
 * negative errno if the socket failed.
 */
int sluice_kroutes_apply(struct sluice_rtnl *r,
			 const struct sluice_lroutes *want,
			 const struct sluice_lroutes *have,
			 const struct sluice_ldiff *d, struct sluice_kfail *fail,
			 char *err, size_t errlen)
{
	const struct sluice_i_nlerr *e;
	uint64_t k, n, first = 0;
	char *refused = NULL;
	int ret = 0;

	memset(fail, 0, sizeof(*fail));
	sluice_i_rtnl_clear_errors(r);
	for (k = 0; !ret && k < d->n_ops; k++)
		ret = queue_op(r, want, have, d, k, false, err, errlen);
	if (!ret)
		ret = sluice_i_rtnl_wait(r, err, errlen);
	if (ret)
		return ret;
	n = sluice_i_rtnl_n_errors(r);
	if (!n)
		return 0;
	refused = sluice_i_calloc(d->n_ops, 1);
	if (!refused)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	for (k = 0; k < n; k++) {
		e = sluice_i_rtnl_error(r, k);
		refused[e->tag] = 1;
		if (!k || e->tag < first) {
			first = e->tag;
			fail->error = e->error;
			snprintf(fail->extack, sizeof(fail->extack), "%s",
				 e->extack);
		}
	}
	fail->op = first;
	sluice_i_rtnl_clear_errors(r);
	for (k = 0; !ret && k < d->n_ops; k++)
		if (!refused[k])
			ret = queue_op(r, want, have, d, k, true, err, errlen);
	if (!ret)
		ret = sluice_i_rtnl_wait(r, err, errlen);
	fail->restored = !ret && !sluice_i_rtnl_n_errors(r);
	sluice_i_rtnl_clear_errors(r);
	free(refused);
	return ret ? ret : -EREMOTEIO;
}
