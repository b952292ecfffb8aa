// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * All-pairs ping of a fabric's hosts (sluice/fabric_ping.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/icmp.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <sys/socket.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include <sluice/fabric_ping.h>
#include <sluice/experiment.h>
#include "graph/internal.h"

#define WINDOW		64
#define MAGIC		0x534c5047u	/* "SLPG" */

struct req {
	double		sent;		/* 0: not yet */
	double		rtt;		/* < 0: no reply (yet) */
	bool		expired;	/* given up on: a late reply is lost */
};

struct ping {
	struct sluice_ping_host	*h;
	int		*fd;		/* each host's socket */
	uint32_t	n;
	uint64_t	n_req;		/* pairs * count */
	uint32_t	count;
	struct req	*req;
	uint16_t	id;
	double		timeout;
	char		*err;
	size_t		errlen;
};

/* Request @q: round @q / pairs, pair @q % pairs = (src, dst != src). */
static void pair_of_req(const struct ping *p, uint64_t q, uint32_t *src,
			uint32_t *dst)
{
	uint64_t pair = q % ((uint64_t)p->n * (p->n - 1));

	*src = pair / (p->n - 1);
	*dst = pair % (p->n - 1);
	if (*dst >= *src)
		++*dst;
}

static uint16_t csum(const void *data, size_t len)
{
	const uint8_t *b = data;
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		s += b[i] << 8 | b[i + 1];
	if (len & 1)
		s += b[len - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return htons(~s & 0xffff);
}

static int send_req(struct ping *p, uint64_t q)
{
	struct {
		struct icmphdr	icmp;
		uint32_t	magic;
		uint32_t	index;
	} pkt;
	struct sockaddr_in to = { .sin_family = AF_INET };
	uint32_t src, dst;

	pair_of_req(p, q, &src, &dst);
	memset(&pkt, 0, sizeof(pkt));
	pkt.icmp.type = ICMP_ECHO;
	pkt.icmp.un.echo.id = htons(p->id);
	pkt.icmp.un.echo.sequence = htons(q & 0xffff);
	pkt.magic = htonl(MAGIC);
	pkt.index = htonl((uint32_t)q);
	pkt.icmp.checksum = csum(&pkt, sizeof(pkt));
	to.sin_addr.s_addr = htonl(p->h[dst].addr);
	p->req[q].sent = sluice_now();
	if (sendto(p->fd[src], &pkt, sizeof(pkt), 0, (void *)&to,
		   sizeof(to)) < 0 && errno != EAGAIN && errno != ENOBUFS)
		return sluice_i_errf(p->err, p->errlen, -errno,
				     "ping from %s: %s", p->h[src].name,
				     strerror(errno));
	return 0;
}

/* Reads the replies waiting on host @k's socket; returns how many were new. */
static uint32_t receive(struct ping *p, uint32_t k)
{
	unsigned char buf[256];
	const struct icmphdr *icmp;
	uint32_t src, dst, magic, index, got = 0;
	ssize_t n;
	size_t ihl;

	while ((n = recv(p->fd[k], buf, sizeof(buf), 0)) > 0) {
		ihl = (buf[0] & 15) * 4;
		if ((size_t)n < ihl + sizeof(*icmp) + 8)
			continue;
		icmp = (const void *)(buf + ihl);
		memcpy(&magic, buf + ihl + sizeof(*icmp), 4);
		memcpy(&index, buf + ihl + sizeof(*icmp) + 4, 4);
		index = ntohl(index);
		if (icmp->type != ICMP_ECHOREPLY ||
		    ntohs(icmp->un.echo.id) != p->id ||
		    ntohl(magic) != MAGIC || index >= p->n_req)
			continue;
		pair_of_req(p, index, &src, &dst);
		/* from the host it was sent to, back at the one that sent it */
		if (src != k || memcmp(buf + 12, &(uint32_t){ htonl(p->h[dst].addr) }, 4) ||
		    p->req[index].rtt >= 0 || !p->req[index].sent ||
		    p->req[index].expired)
			continue;
		p->req[index].rtt = sluice_now() - p->req[index].sent;
		got++;
	}
	return got;
}

static int run(struct ping *p)
{
	struct pollfd *pfd = calloc(p->n, sizeof(*pfd));
	uint64_t next = 0, oldest = 0, outstanding = 0;
	uint32_t k;
	double t;
	int ret;

	if (!pfd)
		return sluice_i_errf(p->err, p->errlen, -ENOMEM,
				     "out of memory");
	for (k = 0; k < p->n; k++) {
		pfd[k].fd = p->fd[k];
		pfd[k].events = POLLIN;
	}
	while (oldest < p->n_req) {
		while (next < p->n_req && outstanding < WINDOW) {
			ret = send_req(p, next++);
			if (ret) {
				free(pfd);
				return ret;
			}
			outstanding++;
		}
		if (poll(pfd, p->n, 10) > 0)
			for (k = 0; k < p->n; k++)
				if (pfd[k].revents & POLLIN)
					outstanding -= receive(p, k);
		/* the oldest request is answered or timed out: slide on */
		t = sluice_now();
		while (oldest < next && (p->req[oldest].rtt >= 0 ||
					 t - p->req[oldest].sent > p->timeout)) {
			if (p->req[oldest].rtt < 0) {
				p->req[oldest].expired = true;
				outstanding--;
			}
			oldest++;
		}
	}
	free(pfd);
	return 0;
}

/* What came back: the counts, the round trips, the pairs lost. */
static int result(const struct ping *p, struct sluice_ping_result *res)
{
	double min = 1e9, max = 0, total = 0;
	uint64_t q, lost = 0;

	for (q = 0; q < p->n_req; q++) {
		if (p->req[q].rtt < 0) {
			lost++;
			continue;
		}
		if (p->req[q].rtt < min)
			min = p->req[q].rtt;
		if (p->req[q].rtt > max)
			max = p->req[q].rtt;
		total += p->req[q].rtt;
	}
	res->pairs = p->n_req / p->count;
	res->sent = p->n_req;
	res->received = p->n_req - lost;
	if (res->received) {
		res->rtt_min = min;
		res->rtt_avg = total / res->received;
		res->rtt_max = max;
	}
	res->lost = calloc(lost ? lost : 1, sizeof(*res->lost));
	if (!res->lost)
		return sluice_i_errf(p->err, p->errlen, -ENOMEM,
				     "out of memory");
	for (q = 0; q < p->n_req; q++)
		if (p->req[q].rtt < 0) {
			pair_of_req(p, q, &res->lost[res->n_lost].src,
				    &res->lost[res->n_lost].dst);
			res->n_lost++;
		}
	return 0;
}

/* A raw ICMP socket in each host's namespace, receiving echo replies only. */
static int open_hosts(struct ping *p)
{
	struct icmp_filter filt = { .data = ~(1u << ICMP_ECHOREPLY) };
	int self, fd, ret = 0;
	uint32_t k;

	self = sluice_netns_self(p->err, p->errlen);
	if (self < 0)
		return self;
	for (k = 0; !ret && k < p->n; k++) {
		fd = sluice_netns_open(p->h[k].ns, p->err, p->errlen);
		ret = fd < 0 ? fd : sluice_netns_enter_fd(fd, p->h[k].ns,
							  p->err, p->errlen);
		if (fd >= 0)
			close(fd);
		if (!ret) {
			p->fd[k] = socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK |
					  SOCK_CLOEXEC, IPPROTO_ICMP);
			if (p->fd[k] < 0)
				ret = sluice_i_errf(p->err, p->errlen, -errno,
						    "a raw ICMP socket in %s: %s",
						    p->h[k].ns,
						    strerror(errno));
			else
				setsockopt(p->fd[k], SOL_RAW, ICMP_FILTER,
					   &filt, sizeof(filt));
		}
		if (sluice_netns_enter_fd(self, "of sluicectl", NULL, 0) &&
		    !ret)
			ret = sluice_i_errf(p->err, p->errlen, -EIO,
					    "cannot return to sluicectl's namespace");
	}
	close(self);
	return ret;
}

/* See sluice/fabric_ping.h. */
int sluice_fabric_ping(const struct sluice_fabric *f,
		       const struct sluice_ping_opts *o,
		       struct sluice_ping_result *res, char *err,
		       size_t errlen)
{
	struct ping p = {
		.count = o && o->count ? o->count : 1,
		.timeout = o && o->timeout > 0 ? o->timeout : 2,
		.id = o && o->id ? o->id : getpid() & 0xffff,
		.err = err, .errlen = errlen,
	};
	uint32_t u, i, k;
	uint64_t q;
	int ret;

	memset(res, 0, sizeof(*res));
	p.n = f->n_hosts;
	if (p.n < 2)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fabric %s has %u host%s: nothing to ping",
				     f->name, p.n, p.n == 1 ? "" : "s");
	p.n_req = (uint64_t)p.n * (p.n - 1) * p.count;
	p.h = calloc(p.n, sizeof(*p.h));
	p.fd = calloc(p.n, sizeof(*p.fd));
	p.req = calloc(p.n_req, sizeof(*p.req));
	if (!p.h || !p.fd || !p.req) {
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (u = 0, k = 0; u < f->g->n_nodes; u++)
		for (i = 0; i < f->hosts[u]; i++, k++) {
			sluice_fabric_host_name(f, u, i, p.h[k].name,
						sizeof(p.h[k].name));
			sluice_fabric_host_ns(f, u, i, p.h[k].ns,
					      sizeof(p.h[k].ns));
			p.h[k].addr = sluice_fabric_host_addr(u, i, true);
			p.fd[k] = -1;
		}
	for (q = 0; q < p.n_req; q++)
		p.req[q].rtt = -1;
	ret = open_hosts(&p);
	if (!ret)
		ret = run(&p);
	if (!ret)
		ret = result(&p, res);
out:
	for (k = 0; p.fd && k < p.n; k++)
		if (p.fd[k] >= 0)
			close(p.fd[k]);
	free(p.fd);
	free(p.req);
	res->n_hosts = p.h ? p.n : 0;
	res->hosts = p.h;
	return ret;
}

/* See sluice/fabric_ping.h. */
void sluice_ping_result_free(struct sluice_ping_result *res)
{
	free(res->hosts);
	free(res->lost);
	memset(res, 0, sizeof(*res));
}
