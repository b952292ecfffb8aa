// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl fabric ping [--name NAME] [--count N] [--timeout SECONDS] [-j]
 *
 * All-pairs connectivity of a fabric's hosts from one process: a raw ICMP
 * socket opened inside every host's namespace (a socket stays in the
 * namespace it was made in), echo requests from every host to every other,
 * at most WINDOW unanswered at a time so that no queue overflows, and each
 * reply matched to its request by a tag in the payload.  Under emulation a
 * process costs more than a hundred pings, so this is what makes checking
 * thousands of pairs practical.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/icmp.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <sys/socket.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include "fabric.h"
#include "jout.h"
#include "opts.h"
#include "sluicectl.h"

#define WINDOW		64
#define MAGIC		0x534c5047u	/* "SLPG" */

struct host {
	char		name[SLUICE_NETNS_NAME_MAX];
	char		ns[SLUICE_NETNS_NAME_MAX];
	uint32_t	addr;
	int		fd;
};

struct req {
	double		sent;		/* 0: not yet */
	double		rtt;		/* < 0: no reply (yet) */
	bool		expired;	/* given up on: a late reply is lost */
};

struct ping {
	struct host	*h;
	uint32_t	n;
	uint64_t	n_req;		/* pairs * count */
	uint32_t	count;
	struct req	*req;
	uint16_t	id;
	double		timeout;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

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
	p->req[q].sent = now();
	if (sendto(p->h[src].fd, &pkt, sizeof(pkt), 0, (void *)&to,
		   sizeof(to)) < 0 && errno != EAGAIN && errno != ENOBUFS) {
		fprintf(stderr, "sluicectl: ping from %s: %s\n", p->h[src].name,
			strerror(errno));
		return -1;
	}
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

	while ((n = recv(p->h[k].fd, buf, sizeof(buf), 0)) > 0) {
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
		p->req[index].rtt = now() - p->req[index].sent;
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

	if (!pfd) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	for (k = 0; k < p->n; k++) {
		pfd[k].fd = p->h[k].fd;
		pfd[k].events = POLLIN;
	}
	while (oldest < p->n_req) {
		while (next < p->n_req && outstanding < WINDOW) {
			if (send_req(p, next++)) {
				free(pfd);
				return EXIT_RUNTIME;
			}
			outstanding++;
		}
		if (poll(pfd, p->n, 10) > 0)
			for (k = 0; k < p->n; k++)
				if (pfd[k].revents & POLLIN)
					outstanding -= receive(p, k);
		/* the oldest request is answered or timed out: slide on */
		t = now();
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

static void report(const struct ping *p, bool json)
{
	uint64_t q, lost = 0, per_pair = 0;
	double min = 1e9, max = 0, total = 0;
	uint32_t src, dst;
	json_object *o, *arr = NULL, *e;
	bool ok;

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
	per_pair = p->n_req / p->count;
	if (!json) {
		printf("ping %u hosts: %llu pairs, %llu sent, %llu received, %llu lost",
		       p->n, (unsigned long long)per_pair,
		       (unsigned long long)p->n_req,
		       (unsigned long long)(p->n_req - lost),
		       (unsigned long long)lost);
		if (p->n_req > lost)
			printf("; rtt min/avg/max %.3f/%.3f/%.3f ms",
			       min * 1e3, total * 1e3 / (p->n_req - lost),
			       max * 1e3);
		putchar('\n');
		for (q = 0; q < p->n_req; q++)
			if (p->req[q].rtt < 0) {
				pair_of_req(p, q, &src, &dst);
				printf("lost %s -> %s\n", p->h[src].name,
				       p->h[dst].name);
			}
		return;
	}
	o = json_object_new_object();
	ok = o && jadd(o, "hosts", jnum(p->n)) &&
	     jadd(o, "pairs", jnum(per_pair)) &&
	     jadd(o, "sent", jnum(p->n_req)) &&
	     jadd(o, "received", jnum(p->n_req - lost)) &&
	     jadd(o, "lost", jnum(lost)) &&
	     jadd(o, "lost_pairs", arr = json_object_new_array());
	if (ok && p->n_req > lost) {
		e = json_object_new_object();
		ok = e && jadd(e, "min", jfixed(min * 1e3)) &&
		     jadd(e, "avg", jfixed(total * 1e3 / (p->n_req - lost))) &&
		     jadd(e, "max", jfixed(max * 1e3));
		ok = jadd(o, "rtt_ms", ok ? e : NULL) && ok;
	}
	for (q = 0; ok && q < p->n_req; q++) {
		if (p->req[q].rtt >= 0)
			continue;
		pair_of_req(p, q, &src, &dst);
		e = json_object_new_object();
		ok = e && !json_object_array_add(arr, e) &&
		     jadd(e, "src", json_object_new_string(p->h[src].name)) &&
		     jadd(e, "dst", json_object_new_string(p->h[dst].name));
	}
	if (ok)
		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	else
		fputs("sluicectl: out of memory\n", stderr);
	json_object_put(o);
}

/* A raw ICMP socket in each host's namespace, receiving echo replies only. */
static int open_hosts(struct ping *p)
{
	char err[SLUICE_ERRLEN];
	struct icmp_filter filt = { .data = ~(1u << ICMP_ECHOREPLY) };
	int self, fd, ret = 0;
	uint32_t k;

	self = sluice_netns_self(err, sizeof(err));
	if (self < 0) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	for (k = 0; !ret && k < p->n; k++) {
		fd = sluice_netns_open(p->h[k].ns, err, sizeof(err));
		ret = fd < 0 ? fd : sluice_netns_enter_fd(fd, p->h[k].ns, err,
						       sizeof(err));
		if (fd >= 0)
			close(fd);
		if (!ret) {
			p->h[k].fd = socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK |
					    SOCK_CLOEXEC, IPPROTO_ICMP);
			if (p->h[k].fd < 0) {
				snprintf(err, sizeof(err),
					 "a raw ICMP socket in %s: %s",
					 p->h[k].ns, strerror(errno));
				ret = -1;
			} else {
				setsockopt(p->h[k].fd, SOL_RAW, ICMP_FILTER,
					   &filt, sizeof(filt));
			}
		}
		if (sluice_netns_enter_fd(self, "of sluicectl", NULL, 0) && !ret) {
			snprintf(err, sizeof(err), "cannot return to sluicectl's namespace");
			ret = -1;
		}
	}
	close(self);
	if (ret) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	return 0;
}

int fabric_ping_main(const struct command *cmd, int argc, char **argv)
{
	static const struct opt opts[] = {
		{ "--name", NULL, true }, { "--count", "-c", true },
		{ "--timeout", "-W", true }, { "--json", "-j", false },
	};
	const char *val[ARRAY_SIZE(opts)];
	struct ping p = { .count = 1, .timeout = 2 };
	const char *name = SLUICE_FABRIC_DEFAULT_NAME;
	struct sluice_fabric_state s;
	char msg[128];
	uint32_t u, i, k;
	uint64_t v, q;
	int n_files, ret;

	ret = opts_parse(argc, argv, opts, ARRAY_SIZE(opts), 0xf, val, NULL, 0,
			 &n_files, msg, sizeof(msg));
	if (ret > 0)
		return sub_help(cmd);
	if (ret)
		return sub_usage_error(cmd, "%s", msg);
	if (val[0])
		name = val[0];
	if (val[1]) {
		if (!opts_number(val[1], 1, 1000, &v))
			return sub_usage_error(cmd, "--count: \"%s\" is not a number from 1 to 1000",
					       val[1]);
		p.count = v;
	}
	if (val[2]) {
		if (!opts_number(val[2], 1, 3600, &v))
			return sub_usage_error(cmd, "--timeout: \"%s\" is not a number of seconds from 1 to 3600",
					       val[2]);
		p.timeout = v;
	}
	if (sluice_fabric_name_check(name, msg, sizeof(msg)))
		return sub_usage_error(cmd, "--name: %s", msg);
	if (fabric_state_load(name, &s, false))
		return EXIT_RUNTIME;
	p.n = s.f.n_hosts;
	if (p.n < 2) {
		fprintf(stderr, "sluicectl: fabric %s has %u host%s: nothing to ping\n",
			name, p.n, p.n == 1 ? "" : "s");
		sluice_fabric_state_free(&s);
		return EXIT_RUNTIME;
	}
	p.n_req = (uint64_t)p.n * (p.n - 1) * p.count;
	p.h = calloc(p.n, sizeof(*p.h));
	p.req = calloc(p.n_req, sizeof(*p.req));
	if (!p.h || !p.req) {
		fputs("sluicectl: out of memory\n", stderr);
		ret = EXIT_RUNTIME;
		goto out;
	}
	for (u = 0, k = 0; u < s.g.n_nodes; u++)
		for (i = 0; i < s.f.hosts[u]; i++, k++) {
			sluice_fabric_host_name(&s.f, u, i, p.h[k].name,
						sizeof(p.h[k].name));
			sluice_fabric_host_ns(&s.f, u, i, p.h[k].ns,
					      sizeof(p.h[k].ns));
			p.h[k].addr = sluice_fabric_host_addr(u, i, true);
			p.h[k].fd = -1;
		}
	for (q = 0; q < p.n_req; q++)
		p.req[q].rtt = -1;
	p.id = getpid() & 0xffff;
	ret = open_hosts(&p);
	if (!ret)
		ret = run(&p);
	if (!ret) {
		report(&p, val[3]);
		for (q = 0; q < p.n_req && p.req[q].rtt >= 0; q++)
			;
		ret = q < p.n_req ? EXIT_RUNTIME : 0;
	}
out:
	for (k = 0; p.h && k < p.n; k++)
		if (p.h[k].fd >= 0)
			close(p.h[k].fd);
	free(p.h);
	free(p.req);
	sluice_fabric_state_free(&s);
	return ret;
}
