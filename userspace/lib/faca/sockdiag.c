// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The TCP sockets of a namespace, by sock_diag (NETLINK_SOCK_DIAG's
 * inet_diag dump): how the agent tells that a lease's flow still lives
 * after the lease's time, so that its port is not handed to another flow
 * to the same destination while the first one (or its TIME_WAIT, which
 * still holds the 4-tuple) is there.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "../graph/internal.h"
#include "internal.h"

static int sock_cmp(const void *x, const void *y)
{
	const struct sluice_i_tcp_sock *a = x, *b = y;

	if (a->sport != b->sport)
		return a->sport < b->sport ? -1 : 1;
	if (a->dst != b->dst)
		return a->dst < b->dst ? -1 : 1;
	return 0;
}

static int dump_request(int fd)
{
	struct {
		struct nlmsghdr			nlh;
		struct inet_diag_req_v2		req;
	} msg = {
		.nlh = {
			.nlmsg_len = sizeof(msg),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		},
		.req = {
			.sdiag_family = AF_INET,
			.sdiag_protocol = IPPROTO_TCP,
			.idiag_states = ~(1u << TCP_LISTEN),
		},
	};
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };

	if (sendto(fd, &msg, sizeof(msg), 0, (struct sockaddr *)&nl,
		   sizeof(nl)) != sizeof(msg))
		return -errno;
	return 0;
}

/* Adds the sockets of one datagram; 1 at the dump's end. */
static int take(const void *buf, ssize_t len, struct sluice_i_tcp_sock **v,
		uint64_t *n, uint64_t *cap)
{
	const struct nlmsghdr *h;
	const struct inet_diag_msg *m;
	const struct nlmsgerr *e;

	for (h = buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR) {
			e = NLMSG_DATA(h);
			return e->error ? e->error : -EPROTO;
		}
		if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
		    h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)))
			continue;
		m = NLMSG_DATA(h);
		if (SLUICE_I_GROW(*v, *cap, *n + 1))
			return -ENOMEM;
		(*v)[*n].sport = ntohs(m->id.idiag_sport);
		(*v)[*n].dst = m->id.idiag_dst[0];
		(*n)++;
	}
	return 0;
}

int sluice_i_tcp_socks(struct sluice_i_tcp_sock **out)
{
	struct sluice_i_tcp_sock *v = NULL;
	uint64_t n = 0, cap = 0;
	char buf[16384];
	ssize_t len;
	int fd, ret;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return -errno;
	ret = dump_request(fd);
	while (!ret) {
		len = recv(fd, buf, sizeof(buf), 0);
		if (len < 0 && errno == EINTR)
			continue;
		ret = len < 0 ? -errno : take(buf, len, &v, &n, &cap);
	}
	close(fd);
	if (ret < 0) {
		free(v);
		return ret;
	}
	if (n)
		qsort(v, n, sizeof(*v), sock_cmp);
	*out = v;
	return (int)n;
}

bool sluice_i_tcp_sock_has(const struct sluice_i_tcp_sock *v, size_t n,
			   uint16_t sport, uint32_t dst)
{
	struct sluice_i_tcp_sock key = { .sport = sport, .dst = dst };

	return n && bsearch(&key, v, n, sizeof(*v), sock_cmp);
}
