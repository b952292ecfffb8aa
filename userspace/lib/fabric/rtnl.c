// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An rtnetlink socket that sends requests in bulk.
 *
 * libnl-route-3 builds each request (a veth, an address, a route); here
 * they are completed (port, sequence number, NLM_F_ACK), packed many to a
 * sendmsg() - the kernel handles every message of a datagram in turn - and
 * their acknowledgements read back in bulk too, each error matched to the
 * caller's tag by sequence number, with the kernel's extended ack.  A
 * fabric of a thousand devices is then a few dozen system calls per
 * namespace instead of two per object, which counts under emulation.
 *
 * At most WINDOW requests are unacknowledged at a time, so that the acks
 * always fit the (enlarged) receive buffer: an ack the kernel cannot queue
 * is lost, and a wait for it would never end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/socket.h>
#include <netlink/route/link.h>
#include "graph/internal.h"
#include "fabric/internal.h"

#define SEND_BUF	(64 * 1024)
#define RECV_BUF	(64 * 1024)
#define WINDOW		256
#define SOCK_BUF	(4 * 1024 * 1024)

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

struct link_name {
	int	ifindex;
	char	name[SLUICE_IFNAME_MAX];
};

struct sluice_rtnl {
	struct nl_sock		*sk;
	int			fd;
	unsigned char		*sbuf;		/* requests not sent yet */
	size_t			slen;
	unsigned char		*rbuf;
	uint32_t		base_seq;	/* tags[i]: sequence base + i */
	uint64_t		*tags;
	uint64_t		n_tags, cap_tags;
	uint64_t		acked;		/* tags[] answered so far */
	uint32_t		sent;
	struct sluice_i_nlerr	*errs;
	uint64_t		n_errs, cap_errs;
	struct link_name	*links;
	uint64_t		n_links, cap_links;
	bool			oom;		/* in a dump's callback */
};

static void setsockint(int fd, int level, int opt, int val)
{
	setsockopt(fd, level, opt, &val, sizeof(val));
}

/**
 * sluice_rtnl_open() - an rtnetlink socket in the calling thread's namespace
 * @out:	set to the socket; sluice_rtnl_close() it
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * The socket stays in this namespace whatever the thread does next.
 *
 * Return: 0, -ENOMEM or another negative errno.
 */
int sluice_rtnl_open(struct sluice_rtnl **out, char *err, size_t errlen)
{
	struct sluice_rtnl *r = calloc(1, sizeof(*r));
	int ret;

	*out = NULL;
	if (!r)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	r->sk = nl_socket_alloc();
	r->sbuf = malloc(SEND_BUF);
	r->rbuf = malloc(RECV_BUF);
	if (!r->sk || !r->sbuf || !r->rbuf) {
		sluice_rtnl_close(r);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	ret = nl_connect(r->sk, NETLINK_ROUTE);
	if (ret) {
		sluice_rtnl_close(r);
		return sluice_i_errf(err, errlen, -EIO,
				     "cannot open an rtnetlink socket: %s",
				     nl_geterror(ret));
	}
	/* acks are matched by tag here, not by libnl's sequence check */
	nl_socket_disable_seq_check(r->sk);
	r->fd = nl_socket_get_fd(r->sk);
	setsockint(r->fd, SOL_NETLINK, NETLINK_EXT_ACK, 1);
	setsockint(r->fd, SOL_NETLINK, NETLINK_CAP_ACK, 1);
	if (setsockopt(r->fd, SOL_SOCKET, SO_RCVBUFFORCE,
		       &(int){ SOCK_BUF }, sizeof(int)))
		setsockint(r->fd, SOL_SOCKET, SO_RCVBUF, SOCK_BUF);
	if (setsockopt(r->fd, SOL_SOCKET, SO_SNDBUFFORCE,
		       &(int){ SOCK_BUF }, sizeof(int)))
		setsockint(r->fd, SOL_SOCKET, SO_SNDBUF, SOCK_BUF);
	*out = r;
	return 0;
}

/**
 * sluice_rtnl_open_in() - an rtnetlink socket in namespace @ns
 * @ns:		the namespace's name
 * @self:	an fd of the caller's namespace (sluice_netns_self()), which
 *		the thread is back in on return, also on failure
 * @out:	the socket, NULL on failure
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * A socket stays in the namespace it was opened in, so one process can
 * talk to every switch of a fabric.
 *
 * Return: 0 or a negative errno.
 */
int sluice_rtnl_open_in(const char *ns, int self, struct sluice_rtnl **out,
			char *err, size_t errlen)
{
	int fd = sluice_netns_open(ns, err, errlen), ret, back;

	*out = NULL;
	if (fd < 0)
		return fd;
	ret = sluice_netns_enter_fd(fd, ns, err, errlen);
	close(fd);
	if (ret)
		return ret;
	ret = sluice_rtnl_open(out, err, errlen);
	/* the first failure's message is the one kept */
	back = sluice_netns_enter_fd(self, "of sluicectl", ret ? NULL : err,
				     ret ? 0 : errlen);
	if (!ret && back) {
		sluice_rtnl_close(*out);
		*out = NULL;
	}
	return ret ? ret : back;
}

/* Closes the socket and frees everything. O(1). */
void sluice_rtnl_close(struct sluice_rtnl *r)
{
	if (!r)
		return;
	if (r->sk)
		nl_socket_free(r->sk);
	free(r->sbuf);
	free(r->rbuf);
	free(r->tags);
	free(r->errs);
	free(r->links);
	free(r);
}

/* The libnl socket, for dumps (nothing may be outstanding). O(1). */
struct nl_sock *sluice_i_rtnl_sock(struct sluice_rtnl *r)
{
	return r->sk;
}

/* Requests sent since the socket was opened. O(1). */
uint32_t sluice_i_rtnl_sent(const struct sluice_rtnl *r)
{
	return r->sent;
}

static int flush(struct sluice_rtnl *r, char *err, size_t errlen)
{
	int ret;

	if (!r->slen)
		return 0;
	ret = nl_sendto(r->sk, r->sbuf, r->slen);
	r->slen = 0;
	if (ret < 0)
		return sluice_i_errf(err, errlen, -EIO,
				     "cannot send to rtnetlink: %s",
				     nl_geterror(ret));
	return 0;
}

/* The extended ack's message of an error, if the kernel gave one. */
static void extack_of(const struct nlmsghdr *h, char *buf, size_t len)
{
	const struct nlmsgerr *e = NLMSG_DATA(h);
	size_t off = sizeof(*e), total = h->nlmsg_len - NLMSG_HDRLEN;
	const struct nlattr *a;

	buf[0] = '\0';
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	while (off + NLA_HDRLEN <= total) {
		a = (const void *)((const char *)e + off);
		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > total)
			return;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG) {
			snprintf(buf, len, "%.*s",
				 (int)(a->nla_len - NLA_HDRLEN),
				 (const char *)a + NLA_HDRLEN);
			return;
		}
		off += NLA_ALIGN(a->nla_len);
	}
}

static int record_error(struct sluice_rtnl *r, const struct nlmsghdr *h,
			uint64_t tag, int error)
{
	struct sluice_i_nlerr *e;

	if (SLUICE_I_GROW(r->errs, r->cap_errs, r->n_errs + 1))
		return -ENOMEM;
	e = &r->errs[r->n_errs++];
	e->tag = tag;
	e->error = error;
	extack_of(h, e->extack, sizeof(e->extack));
	return 0;
}

/* Reads acks until at most @keep requests are unanswered. */
static int drain(struct sluice_rtnl *r, uint64_t keep, char *err,
		 size_t errlen)
{
	const struct nlmsghdr *h;
	const struct nlmsgerr *e;
	uint64_t i;
	ssize_t n;
	int len, ret;

	ret = flush(r, err, errlen);
	if (ret)
		return ret;
	while (r->n_tags - r->acked > keep) {
		n = recv(r->fd, r->rbuf, RECV_BUF, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sluice_i_errf(err, errlen, -errno,
					     "rtnetlink: %s%s", strerror(errno),
					     errno == ENOBUFS ?
					     " (acknowledgements lost)" : "");
		len = n;
		for (h = (void *)r->rbuf; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type != NLMSG_ERROR)
				continue;
			e = NLMSG_DATA(h);
			i = (uint32_t)(h->nlmsg_seq - r->base_seq);
			if (i >= r->n_tags)
				continue;	/* not ours: an old dump's */
			r->acked++;
			if (e->error && record_error(r, h, r->tags[i], e->error))
				return sluice_i_errf(err, errlen, -ENOMEM,
						     "out of memory");
		}
	}
	return 0;
}

/**
 * sluice_i_rtnl_queue() - send a request, acknowledged later
 * @r:		the socket
 * @msg:	the request, built by libnl; the caller still frees it
 * @tag:	the caller's name for it, given back with its error
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * The request may sit in the send buffer until the next wait.
 * Time: O(size of @msg) amortized.
 *
 * Return: 0 or a negative errno (the socket failed, not the request).
 */
int sluice_i_rtnl_queue(struct sluice_rtnl *r, struct nl_msg *msg,
			uint64_t tag, char *err, size_t errlen)
{
	struct nlmsghdr *h;
	int ret;

	if (r->n_tags - r->acked >= WINDOW) {
		ret = drain(r, WINDOW / 2, err, errlen);
		if (ret)
			return ret;
	}
	nl_complete_msg(r->sk, msg);
	h = nlmsg_hdr(msg);
	if (h->nlmsg_len > SEND_BUF)
		return sluice_i_errf(err, errlen, -EMSGSIZE,
				     "a request of %u bytes", h->nlmsg_len);
	if (r->slen + NLMSG_ALIGN(h->nlmsg_len) > SEND_BUF) {
		ret = flush(r, err, errlen);
		if (ret)
			return ret;
	}
	if (!r->n_tags)
		r->base_seq = h->nlmsg_seq;
	if ((uint32_t)(h->nlmsg_seq - r->base_seq) != r->n_tags)
		return sluice_i_errf(err, errlen, -EPROTO,
				     "rtnetlink: sequence numbers out of step");
	if (SLUICE_I_GROW(r->tags, r->cap_tags, r->n_tags + 1))
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	r->tags[r->n_tags++] = tag;
	memcpy(r->sbuf + r->slen, h, h->nlmsg_len);
	memset(r->sbuf + r->slen + h->nlmsg_len, 0,
	       NLMSG_ALIGN(h->nlmsg_len) - h->nlmsg_len);
	r->slen += NLMSG_ALIGN(h->nlmsg_len);
	r->sent++;
	return 0;
}

/**
 * sluice_i_rtnl_wait() - send what is queued and read every ack
 * @r:		the socket
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * The requests refused are then sluice_i_rtnl_error(r, 0 ..
 * sluice_i_rtnl_n_errors(r) - 1), in the order the kernel answered.
 * Time: O(requests outstanding) plus the kernel's work.
 *
 * Return: 0 or a negative errno (the socket failed).
 */
int sluice_i_rtnl_wait(struct sluice_rtnl *r, char *err, size_t errlen)
{
	int ret = drain(r, 0, err, errlen);

	if (!ret) {
		/* all answered: the next request starts the tags afresh */
		r->n_tags = 0;
		r->acked = 0;
	}
	return ret;
}

/* Requests refused since the errors were last cleared. O(1). */
uint64_t sluice_i_rtnl_n_errors(const struct sluice_rtnl *r)
{
	return r->n_errs;
}

/* Refusal @i, 0 <= i < sluice_i_rtnl_n_errors(). O(1). */
const struct sluice_i_nlerr *sluice_i_rtnl_error(const struct sluice_rtnl *r,
						 uint64_t i)
{
	return &r->errs[i];
}

/* Forgets the refusals read so far. O(1). */
void sluice_i_rtnl_clear_errors(struct sluice_rtnl *r)
{
	r->n_errs = 0;
}

static int link_cb(struct nl_msg *msg, void *arg)
{
	struct sluice_rtnl *r = arg;
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct nlattr *tb[IFLA_MAX + 1];
	struct ifinfomsg *ifi;
	struct link_name *l;

	if (h->nlmsg_type != RTM_NEWLINK ||
	    nlmsg_parse(h, sizeof(*ifi), tb, IFLA_MAX, NULL) < 0 ||
	    !tb[IFLA_IFNAME])
		return NL_SKIP;
	ifi = nlmsg_data(h);
	if (SLUICE_I_GROW(r->links, r->cap_links, r->n_links + 1)) {
		r->oom = true;
		return NL_STOP;
	}
	l = &r->links[r->n_links++];
	l->ifindex = ifi->ifi_index;
	nla_strlcpy(l->name, tb[IFLA_IFNAME], sizeof(l->name));
	return NL_OK;
}

/**
 * sluice_i_rtnl_links() - read the namespace's devices (names, indexes)
 * @r:		the socket, with nothing outstanding
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Time: O(devices) plus the dump.
 *
 * Return: 0 or a negative errno.
 */
int sluice_i_rtnl_links(struct sluice_rtnl *r, char *err, size_t errlen)
{
	struct rtgenmsg gen = { .rtgen_family = AF_UNSPEC };
	int ret;

	r->n_links = 0;
	r->oom = false;
	ret = nl_send_simple(r->sk, RTM_GETLINK, NLM_F_DUMP, &gen, sizeof(gen));
	if (ret >= 0) {
		nl_socket_modify_cb(r->sk, NL_CB_VALID, NL_CB_CUSTOM, link_cb, r);
		ret = nl_recvmsgs_default(r->sk);
		if (!ret && r->oom)
			ret = -NLE_NOMEM;
	}
	if (ret < 0)
		return sluice_i_errf(err, errlen, -EIO, "cannot list devices: %s",
				     nl_geterror(ret));
	return 0;
}

/* The name of device @ifindex as last read, or NULL. O(devices). */
const char *sluice_i_rtnl_ifname(struct sluice_rtnl *r, int ifindex)
{
	uint64_t i;

	for (i = 0; i < r->n_links; i++)
		if (r->links[i].ifindex == ifindex)
			return r->links[i].name;
	return NULL;
}

/**
 * sluice_rtnl_ifindex() - the index of device @dev, as last read
 * @r:		the socket (devices read with sluice_i_rtnl_links())
 * @dev:	the device's name
 * @err:	"no device DEV", on failure
 * @errlen:	room in @err
 *
 * Return: the index or -ENODEV.
 */
int sluice_rtnl_ifindex(struct sluice_rtnl *r, const char *dev,
			char *err, size_t errlen)
{
	uint64_t i;

	for (i = 0; i < r->n_links; i++)
		if (!strcmp(r->links[i].name, dev))
			return r->links[i].ifindex;
	return sluice_i_errf(err, errlen, -ENODEV, "no device %s", dev);
}
