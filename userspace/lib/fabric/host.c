// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A host's TCP profile as route metrics (sluice/host.h), and the round
 * trip it is sized by.
 *
 * Routes are dumped, and each chosen one is kept as the kernel sent it:
 * its replacement is that message with RTA_METRICS rebuilt, so that no
 * attribute sluice does not know of (an encap, a preference, a flow) is
 * lost.  The kernel dumps RTAX_CC_ALGO as the algorithm's name and every
 * other metric as u32, RTAX_FEATURES without its internal bits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/icmp.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <sys/socket.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <sluice/host.h>
#include "graph/internal.h"
#include "fabric/internal.h"

static const char *const profile_names[] = {
	[SLUICE_HOST_PROFILE_OFF]	= "off",
	[SLUICE_HOST_PROFILE_BOLT]	= "bolt",
};

/* "off", "bolt"; NULL for another value. O(1). */
const char *sluice_host_profile_name(unsigned int kind)
{
	return kind < sizeof(profile_names) / sizeof(profile_names[0]) ?
	       profile_names[kind] : NULL;
}

/* The kind named @s, or -EINVAL. O(1). */
int sluice_host_profile_parse(const char *s)
{
	unsigned int k;

	for (k = 0; k < sizeof(profile_names) / sizeof(profile_names[0]); k++)
		if (!strcmp(s, profile_names[k]))
			return k;
	return -EINVAL;
}

int sluice_host_profile_bolt(struct sluice_host_profile *p, uint64_t rate,
			     uint64_t rtt_ns, uint32_t mtu, char *err,
			     size_t errlen)
{
	unsigned __int128 bits = (unsigned __int128)rate * rtt_ns;
	uint64_t bytes, mss, cwnd;

	memset(p, 0, sizeof(*p));
	if (!rate || !rtt_ns)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the bandwidth-delay product needs a rate and a round trip above 0");
	if (mtu <= SLUICE_HOST_TCP_OVERHEAD + 16)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "an MTU of %u bytes leaves no TCP segment",
				     mtu);
	mss = mtu - SLUICE_HOST_TCP_OVERHEAD;
	/* bits / 8e9, rounded up: whole bytes in flight */
	bits = (bits + 8000000000ull - 1) / 8000000000ull;
	if (bits > (unsigned __int128)SLUICE_HOST_CWND_MAX * mss)
		return sluice_i_errf(err, errlen, -ERANGE,
				     "the bandwidth-delay product exceeds %u segments of %llu bytes: check the rate and the round trip",
				     SLUICE_HOST_CWND_MAX,
				     (unsigned long long)mss);
	bytes = (uint64_t)bits;
	cwnd = (bytes + mss - 1) / mss;
	if (cwnd < SLUICE_HOST_INIT_CWND)
		cwnd = SLUICE_HOST_INIT_CWND;
	strcpy(p->cc, "dctcp");
	p->cc_lock = true;
	p->ecn = true;
	p->initcwnd = cwnd;
	p->initrwnd = cwnd;
	return 0;
}

uint32_t sluice_host_first_flight(uint32_t initcwnd, uint32_t mtu)
{
	uint32_t cap = SLUICE_HOST_SYN_WINDOW /
		       (mtu > SLUICE_HOST_TCP_OVERHEAD ?
			mtu - SLUICE_HOST_TCP_OVERHEAD : 1);

	return initcwnd < cap ? initcwnd : cap;
}

/* O(1). */
bool sluice_host_profile_equal(const struct sluice_host_profile *a,
			       const struct sluice_host_profile *b)
{
	return !strcmp(a->cc, b->cc) && a->cc_lock == b->cc_lock &&
	       a->ecn == b->ecn && a->initcwnd == b->initcwnd &&
	       a->initrwnd == b->initrwnd;
}

/* As ip-route(8) prints them; "none" without any. O(1). */
size_t sluice_host_profile_format(const struct sluice_host_profile *p,
				  char *buf, size_t len)
{
	size_t n = 0;

#define APPEND(...) \
	(n += snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, \
		       __VA_ARGS__))
	if (p->cc[0])
		APPEND("%scongctl %s%s", n ? " " : "",
		       p->cc_lock ? "lock " : "", p->cc);
	if (p->ecn)
		APPEND("%sfeatures ecn", n ? " " : "");
	if (p->initcwnd)
		APPEND("%sinitcwnd %u", n ? " " : "", p->initcwnd);
	if (p->initrwnd)
		APPEND("%sinitrwnd %u", n ? " " : "", p->initrwnd);
	if (!n)
		APPEND("none");
#undef APPEND
	return n;
}

/* A route as dumped: its message, and what it says. */
struct hroute {
	struct nlmsghdr			*msg;		/* a copy */
	uint32_t			metric[RTAX_MAX + 1];
	bool				has[RTAX_MAX + 1];
	struct sluice_host_route	view;
};

struct hreader {
	struct sluice_rtnl	*r;
	int			ifindex;
	struct hroute		*rt;
	uint32_t		n;
	uint64_t		cap;
	int			ret;
	char			*err;
	size_t			errlen;
};

/* The profile a route's metrics carry. O(RTAX_MAX). */
static void profile_of(const struct hroute *h, const char *cc,
		       struct sluice_host_profile *p)
{
	memset(p, 0, sizeof(*p));
	if (cc)
		snprintf(p->cc, sizeof(p->cc), "%s", cc);
	p->cc_lock = cc && h->has[RTAX_LOCK] &&
		     (h->metric[RTAX_LOCK] & 1u << RTAX_CC_ALGO);
	p->ecn = h->has[RTAX_FEATURES] &&
		 (h->metric[RTAX_FEATURES] & RTAX_FEATURE_ECN);
	p->initcwnd = h->has[RTAX_INITCWND] ? h->metric[RTAX_INITCWND] : 0;
	p->initrwnd = h->has[RTAX_INITRWND] ? h->metric[RTAX_INITRWND] : 0;
}

static uint32_t get_addr(const struct nlattr *a)
{
	uint32_t be = 0;

	if (a && nla_len(a) == 4)
		memcpy(&be, nla_data(a), 4);
	return ntohl(be);
}

/*
 * Whether a dumped route is one a profile is for: IPv4, main table,
 * unicast, and out of the device asked (every nexthop, if multipath).
 */
static bool chosen(const struct nlmsghdr *h, struct nlattr **tb, int ifindex,
		   int *oif)
{
	const struct rtmsg *rtm = nlmsg_data(h);
	uint32_t table = tb[RTA_TABLE] ? nla_get_u32(tb[RTA_TABLE]) :
			 rtm->rtm_table;
	const struct rtnexthop *nh;
	int left;

	if (rtm->rtm_family != AF_INET || table != RT_TABLE_MAIN ||
	    rtm->rtm_type != RTN_UNICAST || (rtm->rtm_flags & RTM_F_CLONED))
		return false;
	*oif = tb[RTA_OIF] ? (int)nla_get_u32(tb[RTA_OIF]) : 0;
	if (*oif)
		return ifindex ? *oif == ifindex : *oif != 1;
	if (!tb[RTA_MULTIPATH])
		return false;
	nh = nla_data(tb[RTA_MULTIPATH]);
	left = nla_len(tb[RTA_MULTIPATH]);
	if (left < (int)sizeof(*nh))
		return false;
	for (; RTNH_OK(nh, left); left -= NLMSG_ALIGN(nh->rtnh_len),
	     nh = RTNH_NEXT(nh))
		if (ifindex ? nh->rtnh_ifindex != ifindex :
		    nh->rtnh_ifindex == 1)
			return false;
	return true;
}

static int hroute_cb(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct nlattr *tb[RTA_MAX + 1], *m;
	struct hreader *rd = arg;
	const char *cc = NULL, *dev;
	const struct rtmsg *rtm;
	struct hroute *hr;
	int oif, rem;

	if (h->nlmsg_type != RTM_NEWROUTE ||
	    nlmsg_parse(h, sizeof(struct rtmsg), tb, RTA_MAX, NULL) < 0 ||
	    !chosen(h, tb, rd->ifindex, &oif))
		return NL_OK;
	if (SLUICE_I_GROW(rd->rt, rd->cap, rd->n + 1)) {
		rd->ret = sluice_i_errf(rd->err, rd->errlen, -ENOMEM,
					"out of memory");
		return NL_STOP;
	}
	hr = &rd->rt[rd->n];
	memset(hr, 0, sizeof(*hr));
	hr->msg = malloc(h->nlmsg_len);
	if (!hr->msg) {
		rd->ret = sluice_i_errf(rd->err, rd->errlen, -ENOMEM,
					"out of memory");
		return NL_STOP;
	}
	memcpy(hr->msg, h, h->nlmsg_len);
	rd->n++;
	if (tb[RTA_METRICS])
		nla_for_each_nested(m, tb[RTA_METRICS], rem) {
			int t = nla_type(m);

			if (t <= 0 || t > RTAX_MAX)
				continue;
			if (t == RTAX_CC_ALGO) {
				/* the kernel dumps the name */
				if (nla_len(m) > 0 &&
				    memchr(nla_data(m), 0, nla_len(m)))
					cc = nla_data(m);
				hr->has[t] = cc != NULL;
			} else if (nla_len(m) >= 4) {
				hr->metric[t] = nla_get_u32(m);
				hr->has[t] = true;
			}
		}
	rtm = nlmsg_data(h);
	hr->view.dst = get_addr(tb[RTA_DST]);
	hr->view.dst_len = rtm->rtm_dst_len;
	hr->view.gateway = get_addr(tb[RTA_GATEWAY]);
	hr->view.oif = oif;
	hr->view.protocol = rtm->rtm_protocol;
	dev = oif ? sluice_i_rtnl_ifname(rd->r, oif) : NULL;
	snprintf(hr->view.dev, sizeof(hr->view.dev), "%s",
		 dev ? dev : oif ? "?" : "");
	profile_of(hr, cc, &hr->view.p);
	return NL_OK;
}

static void hroutes_free(struct hroute *rt, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		free(rt[i].msg);
	free(rt);
}

static int hroutes_dump(struct hreader *rd)
{
	struct nl_sock *sk = sluice_i_rtnl_sock(rd->r);
	struct rtmsg rtm = { .rtm_family = AF_INET };
	int ret;

	ret = sluice_i_rtnl_links(rd->r, rd->err, rd->errlen);
	if (ret)
		return ret;
	ret = nl_send_simple(sk, RTM_GETROUTE, NLM_F_DUMP, &rtm, sizeof(rtm));
	if (ret >= 0) {
		nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, hroute_cb,
				    rd);
		ret = nl_recvmsgs_default(sk);
	}
	if (rd->ret)
		return rd->ret;
	if (ret < 0)
		return sluice_i_errf(rd->err, rd->errlen, -EIO,
				     "cannot read the IPv4 routes: %s",
				     nl_geterror(ret));
	return 0;
}

int sluice_host_routes_read(struct sluice_rtnl *r, int ifindex,
			    struct sluice_host_routes *out, char *err,
			    size_t errlen)
{
	struct hreader rd = { .r = r, .ifindex = ifindex, .err = err,
			      .errlen = errlen };
	uint32_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = hroutes_dump(&rd);
	if (!ret && rd.n) {
		out->r = calloc(rd.n, sizeof(*out->r));
		if (!out->r)
			ret = sluice_i_errf(err, errlen, -ENOMEM,
					    "out of memory");
	}
	for (i = 0; !ret && i < rd.n; i++)
		out->r[i] = rd.rt[i].view;
	if (!ret)
		out->n = rd.n;
	hroutes_free(rd.rt, rd.n);
	return ret;
}

void sluice_host_routes_free(struct sluice_host_routes *rs)
{
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

/* Attributes a replacement keeps: the route's identity and its paths. */
static bool kept_attr(int type)
{
	switch (type) {
	case RTA_DST: case RTA_SRC: case RTA_OIF: case RTA_GATEWAY:
	case RTA_PRIORITY: case RTA_PREFSRC: case RTA_MULTIPATH:
	case RTA_FLOW: case RTA_TABLE: case RTA_VIA: case RTA_ENCAP_TYPE:
	case RTA_ENCAP: case RTA_PREF: case RTA_NH_ID:
		return true;
	default:
		return false;
	}
}

/*
 * What a route through a nexthop object (RTA_NH_ID) must not repeat: the
 * kernel dumps both (nexthop_compat_mode) and refuses both in a request.
 */
static bool nh_only(int type)
{
	return type == RTA_OIF || type == RTA_GATEWAY ||
	       type == RTA_MULTIPATH || type == RTA_VIA ||
	       type == RTA_ENCAP || type == RTA_ENCAP_TYPE;
}

/* RTA_MULTIPATH again, each nexthop's state flags left out (onlink kept). */
static int put_multipath(struct nl_msg *msg, const struct nlattr *a)
{
	int left = nla_len(a), ret;
	unsigned char *copy = malloc(left ? left : 1);
	struct rtnexthop *nh = (struct rtnexthop *)copy;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, nla_data(a), left);
	for (; RTNH_OK(nh, left); left -= NLMSG_ALIGN(nh->rtnh_len),
	     nh = RTNH_NEXT(nh))
		nh->rtnh_flags &= RTNH_F_ONLINK;
	ret = nla_put(msg, RTA_MULTIPATH, nla_len(a), copy);
	free(copy);
	return ret;
}

/*
 * RTM_NEWROUTE (replace) of route @h with profile @p in place of the
 * metrics it owns (@p NULL: without them), every other metric kept.
 * O(size of the route).
 */
static struct nl_msg *replacement(const struct hroute *h,
				  const struct sluice_host_profile *p)
{
	const uint32_t owned_lock = 1u << RTAX_CC_ALGO;
	const struct rtmsg *src = nlmsg_data(h->msg);
	struct rtmsg rtm = *src;
	struct nlattr *a, *nest, *nh_id;
	uint32_t features, lock;
	struct nl_msg *msg;
	int rem, t;

	msg = nlmsg_alloc_simple(RTM_NEWROUTE, NLM_F_REPLACE);
	if (!msg)
		return NULL;
	/*
	 * A dump's rtm_flags carry the nexthop's state (dead, linkdown),
	 * which a request must not: only onlink is the route's own.
	 */
	rtm.rtm_flags &= RTNH_F_ONLINK;
	if (nlmsg_append(msg, &rtm, sizeof(rtm), NLMSG_ALIGNTO) < 0)
		goto fail;
	nh_id = nlmsg_find_attr(h->msg, sizeof(struct rtmsg), RTA_NH_ID);
	nlmsg_for_each_attr(a, h->msg, sizeof(struct rtmsg), rem) {
		t = nla_type(a);
		if (!kept_attr(t) || (nh_id && nh_only(t)))
			continue;
		if (t == RTA_MULTIPATH) {
			if (put_multipath(msg, a))
				goto fail;
		} else if (nla_put(msg, t, nla_len(a), nla_data(a))) {
			goto fail;
		}
	}
	nest = nla_nest_start(msg, RTA_METRICS);
	if (!nest)
		goto fail;
	for (t = 1; t <= RTAX_MAX; t++) {
		if (!h->has[t] || t == RTAX_CC_ALGO || t == RTAX_LOCK ||
		    t == RTAX_FEATURES || t == RTAX_INITCWND ||
		    t == RTAX_INITRWND)
			continue;
		if (nla_put_u32(msg, t, h->metric[t]))
			goto fail;
	}
	lock = h->has[RTAX_LOCK] ? h->metric[RTAX_LOCK] & ~owned_lock : 0;
	features = h->has[RTAX_FEATURES] ?
		   h->metric[RTAX_FEATURES] & ~RTAX_FEATURE_ECN : 0;
	if (p && p->cc_lock && p->cc[0])
		lock |= owned_lock;
	if (p && p->ecn)
		features |= RTAX_FEATURE_ECN;
	if ((lock && nla_put_u32(msg, RTAX_LOCK, lock)) ||
	    (features && nla_put_u32(msg, RTAX_FEATURES, features)) ||
	    (p && p->cc[0] && nla_put_string(msg, RTAX_CC_ALGO, p->cc)) ||
	    (p && p->initcwnd &&
	     nla_put_u32(msg, RTAX_INITCWND, p->initcwnd)) ||
	    (p && p->initrwnd &&
	     nla_put_u32(msg, RTAX_INITRWND, p->initrwnd)))
		goto fail;
	nla_nest_end(msg, nest);
	return msg;
fail:
	nlmsg_free(msg);
	return NULL;
}

/* "10.0.1.0/24 via 10.0.0.2 dev eth0", "default via ..." */
static void describe(const struct sluice_host_route *v, char *buf,
		     size_t len)
{
	char d[24], g[16];

	sluice_ipv4_format(v->dst, d, sizeof(d));
	if (v->dst_len)
		snprintf(d + strlen(d), sizeof(d) - strlen(d), "/%u",
			 v->dst_len);
	else
		strcpy(d, "default");
	sluice_ipv4_format(v->gateway, g, sizeof(g));
	snprintf(buf, len, "%s%s%s%s%s", d, v->gateway ? " via " : "",
		 v->gateway ? g : "", v->dev[0] ? " dev " : "", v->dev);
}

/* Queues replacements of @rt[i] for every i with @which[i]; waits. */
static int replace_all(struct sluice_rtnl *r, const struct hroute *rt,
		       const bool *which, uint32_t n,
		       const struct sluice_host_profile *p,
		       const bool *restore, char *err, size_t errlen)
{
	struct sluice_host_profile old;
	struct nl_msg *msg;
	uint32_t i;
	int ret = 0;

	for (i = 0; !ret && i < n; i++) {
		if (!which[i])
			continue;
		if (restore && restore[i]) {
			old = rt[i].view.p;
			msg = replacement(&rt[i], &old);
		} else {
			msg = replacement(&rt[i], p);
		}
		if (!msg)
			return sluice_i_errf(err, errlen, -ENOMEM,
					     "out of memory");
		ret = sluice_i_rtnl_queue(r, msg, i, err, errlen);
		nlmsg_free(msg);
	}
	return ret ? ret : sluice_i_rtnl_wait(r, err, errlen);
}

int sluice_host_profile_apply(struct sluice_rtnl *r, int ifindex,
			      const struct sluice_host_profile *p,
			      struct sluice_host_apply *res, char *err,
			      size_t errlen)
{
	struct hreader rd = { .r = r, .ifindex = ifindex, .err = err,
			      .errlen = errlen };
	static const struct sluice_host_profile none;
	const struct sluice_i_nlerr *e;
	bool *want = NULL, *back = NULL;
	char what[96];
	uint32_t i;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = hroutes_dump(&rd);
	if (ret)
		goto out;
	if (!rd.n) {
		ret = sluice_i_errf(err, errlen, -ENOENT,
				    "no IPv4 unicast route of the main table leaves by %s",
				    ifindex ? sluice_i_rtnl_ifname(r, ifindex) :
				    "any device");
		goto out;
	}
	want = calloc(rd.n, sizeof(*want));
	back = calloc(rd.n, sizeof(*back));
	if (!want || !back) {
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	res->routes = rd.n;
	for (i = 0; i < rd.n; i++) {
		want[i] = !sluice_host_profile_equal(&rd.rt[i].view.p,
						     p ? p : &none);
		if (want[i])
			res->changed++;
		else
			res->unchanged++;
	}
	sluice_i_rtnl_clear_errors(r);
	ret = replace_all(r, rd.rt, want, rd.n, p, NULL, err, errlen);
	if (ret || !sluice_i_rtnl_n_errors(r))
		goto out;
	/* put back every replacement the kernel took */
	e = sluice_i_rtnl_error(r, 0);
	describe(&rd.rt[e->tag].view, what, sizeof(what));
	ret = sluice_i_errf(err, errlen, e->error,
			    "the kernel refused to change route %s: %s%s%s",
			    what, strerror(-e->error),
			    e->extack[0] ? ": " : "", e->extack);
	memcpy(back, want, rd.n * sizeof(*back));
	for (i = 0; i < sluice_i_rtnl_n_errors(r); i++)
		back[sluice_i_rtnl_error(r, i)->tag] = false;
	sluice_i_rtnl_clear_errors(r);
	res->changed = 0;
	if (replace_all(r, rd.rt, back, rd.n, NULL, back, NULL, 0) ||
	    sluice_i_rtnl_n_errors(r))
		snprintf(err + strlen(err), errlen - strlen(err),
			 "; and routes already changed could not all be put back");
out:
	free(want);
	free(back);
	hroutes_free(rd.rt, rd.n);
	return ret;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint16_t csum(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons(~sum & 0xffff);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Waits for echo reply @seq of @id until @deadline; its arrival time. */
static double await_reply(int fd, uint16_t id, uint16_t seq, double deadline)
{
	unsigned char buf[65536];
	struct icmphdr ic;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	double t;
	ssize_t n;
	size_t ihl;

	while ((t = now_s()) < deadline) {
		if (poll(&pfd, 1, (int)((deadline - t) * 1000) + 1) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < (ssize_t)sizeof(struct iphdr))
			continue;
		ihl = (buf[0] & 15) * 4;
		if ((size_t)n < ihl + sizeof(ic))
			continue;
		memcpy(&ic, buf + ihl, sizeof(ic));
		if (ic.type == ICMP_ECHOREPLY && ntohs(ic.un.echo.id) == id &&
		    ntohs(ic.un.echo.sequence) == seq)
			return now_s();
	}
	return -1;
}

int sluice_echo_rtt(const char *ns, uint32_t dst, uint32_t size,
		    uint32_t count, double timeout, uint64_t *rtt_ns,
		    char *err, size_t errlen)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(dst) };
	uint16_t id = (uint16_t)(getpid() ^ (uintptr_t)&to);
	uint32_t len, i, got = 0;
	unsigned char *pkt = NULL;
	uint64_t *rtt = NULL;
	int fd = -1, self = -1, ret = 0;
	struct icmphdr ic;
	double t0, t1;

	if (size < sizeof(struct iphdr) + sizeof(ic) || size > 65535 ||
	    !count)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "an echo of %u bytes, %u times, cannot be sent",
				     size, count);
	len = size - sizeof(struct iphdr);
	pkt = calloc(1, len);
	rtt = calloc(count, sizeof(*rtt));
	if (!pkt || !rtt) {
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	if (ns && ns[0]) {
		self = sluice_netns_self(err, errlen);
		if (self < 0) {
			ret = self;
			self = -1;
			goto out;
		}
		ret = sluice_netns_enter(ns, err, errlen);
		if (ret)
			goto out;
	}
	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
	if (fd < 0)
		ret = sluice_i_errf(err, errlen, -errno,
				    "cannot open an ICMP socket%s%s: %s",
				    ns && ns[0] ? " in " : "", ns ? ns : "",
				    strerror(errno));
	/* back, whatever happened: a thread left in @ns is worse than any */
	if (self >= 0 && sluice_netns_enter_fd(self, "of this process",
					       ret ? NULL : err,
					       ret ? 0 : errlen)) {
		if (ret)
			snprintf(err, errlen, "cannot return from %s", ns);
		ret = -EIO;
	}
	if (ret)
		goto out;
	for (i = 0; i < count; i++) {
		memset(&ic, 0, sizeof(ic));
		ic.type = ICMP_ECHO;
		ic.un.echo.id = htons(id);
		ic.un.echo.sequence = htons(i);
		memcpy(pkt, &ic, sizeof(ic));
		memset(pkt + sizeof(ic), 0xa5, len - sizeof(ic));
		ic.checksum = csum(pkt, len);
		memcpy(pkt, &ic, sizeof(ic));
		t0 = now_s();
		if (sendto(fd, pkt, len, 0, (struct sockaddr *)&to,
			   sizeof(to)) < 0) {
			ret = sluice_i_errf(err, errlen, -errno,
					    "cannot send an echo request: %s",
					    strerror(errno));
			goto out;
		}
		t1 = await_reply(fd, id, i, t0 + timeout);
		if (t1 >= 0)
			rtt[got++] = (uint64_t)((t1 - t0) * 1e9);
	}
	if (got * 2 < count) {
		char a[16];

		sluice_ipv4_format(dst, a, sizeof(a));
		ret = sluice_i_errf(err, errlen, -ETIMEDOUT,
				    "%u of %u echoes of %u bytes to %s answered%s%s",
				    got, count, size, a, ns && ns[0] ? " from " : "",
				    ns ? ns : "");
		goto out;
	}
	qsort(rtt, got, sizeof(*rtt), cmp_u64);
	*rtt_ns = got & 1 ? rtt[got / 2] :
		  (rtt[got / 2 - 1] + rtt[got / 2]) / 2;
out:
	if (fd >= 0)
		close(fd);
	if (self >= 0)
		close(self);
	free(pkt);
	free(rtt);
	return ret;
}

/*
 * The farthest node with hosts (as the plan gave them) from @src, and its
 * distance in links. O(N + E).
 */
static uint32_t farthest(const struct sluice_fabric *f, uint32_t src,
			 uint32_t *dist, uint32_t *queue, uint32_t *d)
{
	const struct sluice_graph *g = f->g;
	uint32_t u, best = src;

	sluice_graph_bfs(g, src, dist, queue);
	*d = 0;
	for (u = 0; u < g->n_nodes; u++)
		if (dist[u] != UINT32_MAX && dist[u] > *d && f->hosts[u]) {
			*d = dist[u];
			best = u;
		}
	return best;
}

static uint32_t first_endpoint(const struct sluice_fabric *f)
{
	uint32_t u;

	for (u = 0; u < f->g->n_nodes; u++)
		if (f->hosts[u])
			return u;
	return 0;
}

/**
 * sluice_fabric_rtt() - a fabric's round trip, measured
 * @f:		the fabric, up
 * @routed:	routes are loaded: measure end to end; else hop by hop
 * @size:	bytes of the echoes' IP packets (the MTU: a full segment)
 * @rtt_ns:	the round trip of the fabric's longest host-to-host path
 * @how:	what was measured, for the user: "median of 5 echoes ..."
 * @howlen:	room in @how
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * The longest path is found by a double sweep (the farthest endpoint a
 * from the first one, then the farthest b from a), which finds the
 * diameter of trees and of the symmetric topologies sluice generates and
 * a path close to it otherwise.  Routed, the echoes go from a's host to
 * b's; not routed (right after "fabric up", before "route load"), from
 * a's host to its own switch, one link each way, and the round trip is
 * that times the links of the host-to-host path (its switch hops plus
 * the two host links): hops in a fabric of equal links cost the same.
 *
 * Return: 0 or a negative errno.
 */
int sluice_fabric_rtt(const struct sluice_fabric *f, bool routed,
		      uint32_t size, uint64_t *rtt_ns, char *how,
		      size_t howlen, char *err, size_t errlen)
{
	const struct sluice_graph *g = f->g;
	char ns[SLUICE_NETNS_NAME_MAX], from[SLUICE_NETNS_NAME_MAX];
	char to[SLUICE_NETNS_NAME_MAX];
	uint32_t *dist, *queue, a, b, d, links, dst;
	uint64_t one;
	int ret;

	if (!f->n_hosts)
		return sluice_i_errf(err, errlen, -ENOENT,
				     "fabric %s has no host", f->name);
	dist = sluice_i_calloc(g->n_nodes, sizeof(*dist));
	queue = sluice_i_calloc(g->n_nodes, sizeof(*queue));
	if (!dist || !queue) {
		free(dist);
		free(queue);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	a = farthest(f, first_endpoint(f), dist, queue, &d);
	b = farthest(f, a, dist, queue, &d);
	free(dist);
	free(queue);
	/* a server is its own host: no host link at either end */
	links = d + (sluice_fabric_self_hosted(f, a) ? 0 : 1) +
		(sluice_fabric_self_hosted(f, b) ? 0 : 1);
	sluice_fabric_host_ns(f, a, 0, ns, sizeof(ns));
	sluice_fabric_host_name(f, a, 0, from, sizeof(from));
	if (routed) {
		sluice_fabric_host_name(f, b, 0, to, sizeof(to));
		dst = sluice_fabric_self_hosted(f, b) ?
		      sluice_fabric_node_prefix(b) | 1 :
		      sluice_fabric_host_addr(b, 0, true);
	} else if (sluice_fabric_self_hosted(f, a)) {
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s is a server, with no switch of its own to measure a hop to: load routes first",
				     from);
	} else {
		snprintf(to, sizeof(to), "its switch %s",
			 g->nodes[a].name);
		dst = sluice_fabric_host_addr(a, 0, false);
	}
	ret = sluice_echo_rtt(ns, dst, size, 5, 2.0, &one, err, errlen);
	if (ret)
		return ret;
	*rtt_ns = routed ? one : one * links;
	if (routed)
		snprintf(how, howlen,
			 "median of 5 echoes of %u bytes from %s to %s (%u links)",
			 size, from, to, links);
	else
		snprintf(how, howlen,
			 "median of 5 echoes of %u bytes from %s to %s, %.3f ms, times the %u links of the longest path",
			 size, from, to, one / 1e6, links);
	return 0;
}

/**
 * sluice_fabric_host_profile() - a profile on a fabric's hosts
 * @f:		the fabric, up
 * @node:	the hosts' nodes, @n of them with @host; NULL: every host
 * @host:	each one's number at its node
 * @n:		how many (ignored when @node is NULL)
 * @p:		the profile, or NULL to remove it ("off")
 * @res:	summed over the hosts
 * @done:	set to the hosts changed before a failure (or all)
 * @err:	which host failed, and why
 * @errlen:	room in @err
 *
 * Each host's routes out of its eth0 (a server's: all its routes, out of
 * any link); host by host, each all or nothing.  A failure stops at the
 * host that failed: the hosts before it keep the profile (@done, and the
 * message, say how many), which applying again completes.
 *
 * Return: 0 or a negative errno.
 */
int sluice_fabric_host_profile(const struct sluice_fabric *f,
			       const uint32_t *node, const uint32_t *host,
			       uint32_t n, const struct sluice_host_profile *p,
			       struct sluice_host_apply *res, uint32_t *done,
			       char *err, size_t errlen)
{
	char ns[SLUICE_NETNS_NAME_MAX], name[SLUICE_NETNS_NAME_MAX];
	char why[SLUICE_ERRLEN];
	struct sluice_host_apply one;
	struct sluice_rtnl *r;
	uint32_t k, u = 0, i = 0;
	int self, ret = 0;

	memset(res, 0, sizeof(*res));
	*done = 0;
	if (!node)
		n = f->n_hosts;
	self = sluice_netns_self(err, errlen);
	if (self < 0)
		return self;
	for (k = 0; k < n; k++) {
		if (node) {
			u = node[k];
			i = host[k];
		} else {
			/* every host in turn: the next node that has one */
			for (; i >= f->hosts[u]; u++, i = 0)
				;
		}
		sluice_fabric_host_ns(f, u, i, ns, sizeof(ns));
		ret = sluice_rtnl_open_in(ns, self, &r, why, sizeof(why));
		if (!ret) {
			ret = sluice_host_profile_apply(r,
				sluice_fabric_self_hosted(f, u) ? 0 : 2, p,
				&one, why, sizeof(why));
			sluice_rtnl_close(r);
		}
		if (ret) {
			sluice_fabric_host_name(f, u, i, name, sizeof(name));
			snprintf(err, errlen, "%s: %s", name, why);
			if (*done)
				snprintf(err + strlen(err), errlen - strlen(err),
					 " (the %u host%s before it have the change: apply again once fixed)",
					 *done, *done == 1 ? "" : "s");
			break;
		}
		res->routes += one.routes;
		res->changed += one.changed;
		res->unchanged += one.unchanged;
		++*done;
		i++;
	}
	close(self);
	return ret;
}

/**
 * sluice_host_delay() - delay what a host's device sends (netem)
 * @ns:		the host's namespace ("": ours)
 * @ifindex:	its device
 * @delay_ns:	the delay
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Replaces the device's root qdisc with netem delaying every frame by
 * @delay_ns (10000 frames of queue), as "tc qdisc replace dev X root netem
 * delay T limit 10000" does: an emulated propagation delay, put on a
 * receiver's ACKs so that the round trip (and with it the bandwidth-delay
 * product) is long while the data path keeps its lossless qdiscs.  The
 * device then honours no pause: use it on a port that sends only ACKs.
 * Needs sch_netem.  O(1).
 *
 * Return: 0 or a negative errno.
 */
int sluice_host_delay(const char *ns, int ifindex, uint64_t delay_ns,
		      char *err, size_t errlen)
{
	struct tcmsg t = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = ifindex,
		.tcm_parent = TC_H_ROOT,
	};
	struct tc_netem_qopt qopt = { .limit = 10000 };
	const struct sluice_i_nlerr *e;
	struct sluice_rtnl *r = NULL;
	struct nl_msg *msg;
	int64_t latency = (int64_t)delay_ns;
	int self = -1, ret;

	msg = nlmsg_alloc_simple(RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE);
	if (!msg || nlmsg_append(msg, &t, sizeof(t), NLMSG_ALIGNTO) < 0 ||
	    nla_put_string(msg, TCA_KIND, "netem")) {
		nlmsg_free(msg);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	/* netem's options: the struct, then its attributes, not nested */
	{
		struct nlattr *opts = nla_reserve(msg, TCA_OPTIONS,
						  NLA_ALIGN(sizeof(qopt)) +
						  nla_total_size(8));
		struct nlattr *lat;

		if (!opts) {
			nlmsg_free(msg);
			return sluice_i_errf(err, errlen, -ENOMEM,
					     "out of memory");
		}
		memset(nla_data(opts), 0, nla_len(opts));
		memcpy(nla_data(opts), &qopt, sizeof(qopt));
		lat = (struct nlattr *)((char *)nla_data(opts) +
					NLA_ALIGN(sizeof(qopt)));
		lat->nla_type = TCA_NETEM_LATENCY64;
		lat->nla_len = nla_attr_size(8);
		memcpy(nla_data(lat), &latency, 8);
	}
	if (ns && ns[0]) {
		self = sluice_netns_self(err, errlen);
		ret = self < 0 ? self :
		      sluice_rtnl_open_in(ns, self, &r, err, errlen);
	} else {
		ret = sluice_rtnl_open(&r, err, errlen);
	}
	if (!ret) {
		sluice_i_rtnl_clear_errors(r);
		ret = sluice_i_rtnl_queue(r, msg, 0, err, errlen);
	}
	if (!ret)
		ret = sluice_i_rtnl_wait(r, err, errlen);
	if (!ret && sluice_i_rtnl_n_errors(r)) {
		e = sluice_i_rtnl_error(r, 0);
		ret = sluice_i_errf(err, errlen, e->error,
				    "netem on device %d%s%s: %s%s%s (is sch_netem available?)",
				    ifindex, ns && ns[0] ? " of " : "",
				    ns ? ns : "", strerror(-e->error),
				    e->extack[0] ? ": " : "", e->extack);
	}
	nlmsg_free(msg);
	if (r)
		sluice_rtnl_close(r);
	if (self >= 0)
		close(self);
	return ret;
}
