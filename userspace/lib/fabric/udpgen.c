// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The deadlock experiment's traffic (sluice/experiment.h): every host of a
 * fabric sends UDP to every host under another switch, from one process.
 *
 * Each host has one UDP socket, made inside its namespace, bound to the
 * same port in every host: it sends the host's flows and receives the
 * flows to the host.  A host is paced by a token bucket filled at its rate
 * (burst: two frames or 50 ms, whichever is more, so that a host that was
 * blocked does not then send a burst), its flows served round robin one
 * frame at a time.  The socket's send buffer is small: frames stay charged
 * to it while they wait in the host's own qdisc, so a host its switch
 * pauses (PFC) soon gets EAGAIN, and tries again at the next step instead
 * of dropping.  Each frame carries a header (magic, source host,
 * destination host, sequence) so that the receiver counts it against its
 * flow whatever path brought it.  Byte counts are of frames on the wire
 * (UDP payload + SLUICE_UDPGEN_OVERHEAD), comparable with link rates.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <sys/socket.h>
#include <sluice/experiment.h>
#include <sluice/fabric_nl.h>
#include "graph/internal.h"
#include "fabric/internal.h"

#define BUF_LEN		2048

double sluice_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * The hosts and flows of a fabric, no sockets yet: a flow from every host
 * to every host of another switch (of those @pairs marks, [src * H + dst],
 * if given), in order of source host, then destination host.
 */
static int init(struct sluice_udpgen *t, const struct sluice_fabric *f,
		const struct sluice_udpgen_opts *o, const bool *pairs,
		char *err, size_t errlen)
{
	const struct sluice_graph *g = f->g;
	uint32_t u, i, k, d, n;

	memset(t, 0, sizeof(*t));
	t->o = *o;
	if (o->frame < SLUICE_UDPGEN_OVERHEAD + SLUICE_UDPGEN_HDR ||
	    o->frame > SLUICE_FABRIC_HOST_MTU + 14)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "frames of %u bytes: they must be %u to %u bytes on the wire",
				     o->frame,
				     SLUICE_UDPGEN_OVERHEAD + SLUICE_UDPGEN_HDR,
				     SLUICE_FABRIC_HOST_MTU + 14);
	n = t->n_hosts = f->n_hosts;
	t->h = calloc(n ? n : 1, sizeof(*t->h));
	t->flow_first = calloc(n + 1, sizeof(*t->flow_first));
	t->by_pair = malloc((size_t)(n ? n : 1) * (n ? n : 1) *
			    sizeof(*t->by_pair));
	t->fl = calloc((size_t)(n ? n : 1) * (n ? n : 1), sizeof(*t->fl));
	t->buf = calloc(1, BUF_LEN);
	if (!t->h || !t->flow_first || !t->by_pair || !t->fl || !t->buf) {
		sluice_udpgen_free(t);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	memset(t->by_pair, 0xff, (size_t)n * n * sizeof(*t->by_pair));
	for (u = 0, k = 0; u < g->n_nodes; u++)
		for (i = 0; i < f->hosts[u]; i++, k++) {
			sluice_fabric_host_name(f, u, i, t->h[k].name,
						sizeof(t->h[k].name));
			sluice_fabric_host_ns(f, u, i, t->h[k].ns,
					      sizeof(t->h[k].ns));
			t->h[k].node = u;
			t->h[k].addr = sluice_fabric_host_addr(u, i, true);
			t->h[k].fd = -1;
		}
	for (k = 0; k < n; k++) {
		t->flow_first[k] = t->n_flows;
		for (d = 0; d < n; d++) {
			if (t->h[d].node == t->h[k].node)
				continue;
			if (pairs && !pairs[(size_t)k * n + d])
				continue;
			t->by_pair[(size_t)k * n + d] = t->n_flows;
			t->fl[t->n_flows].src = k;
			t->fl[t->n_flows++].dst = d;
		}
	}
	t->flow_first[n] = t->n_flows;
	if (!t->n_flows) {
		sluice_udpgen_free(t);
		return sluice_i_errf(err, errlen, -EINVAL,
				     "no two hosts under different switches: no flows");
	}
	return 0;
}

/**
 * sluice_udpgen_init() - every host to every host under another switch
 * @t:		filled; sluice_udpgen_free() it
 * @f:		the fabric's plan
 * @o:		frames, rate, DSCP, port
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * Return: 0, -EINVAL (bad frame size, no flows) or -ENOMEM.
 */
int sluice_udpgen_init(struct sluice_udpgen *t,
			const struct sluice_fabric *f,
			const struct sluice_udpgen_opts *o,
			char *err, size_t errlen)
{
	return init(t, f, o, NULL, err, errlen);
}

/**
 * sluice_udpgen_init_flows() - the given flows only
 * @t:		filled; sluice_udpgen_free() it
 * @f:		the fabric's plan
 * @o:		frames, rate (per sending host), DSCP, port
 * @src:	global host index of each flow's source
 * @dst:	and of its destination, a host under another node
 * @n:		the flows; a pair given twice is refused
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * Every host gets a socket (so that any may receive); a host sends its
 * flows round robin at its rate.
 *
 * Return: 0, -EINVAL (bad frame size, a host out of range, a flow within
 * one node, no flows) or -ENOMEM.
 */
int sluice_udpgen_init_flows(struct sluice_udpgen *t,
			      const struct sluice_fabric *f,
			      const struct sluice_udpgen_opts *o,
			      const uint32_t *src, const uint32_t *dst,
			      uint32_t n, char *err, size_t errlen)
{
	size_t hosts = f->n_hosts ? f->n_hosts : 1;
	bool *pairs = calloc(hosts * hosts, sizeof(*pairs));
	uint32_t k;
	int ret;

	if (!pairs)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	for (k = 0; k < n; k++) {
		if (src[k] >= f->n_hosts || dst[k] >= f->n_hosts ||
		    src[k] == dst[k]) {
			free(pairs);
			return sluice_i_errf(err, errlen, -EINVAL,
					     "flow %u: hosts %u -> %u of %u", k,
					     src[k], dst[k], f->n_hosts);
		}
		pairs[(size_t)src[k] * f->n_hosts + dst[k]] = true;
	}
	ret = init(t, f, o, pairs, err, errlen);
	free(pairs);
	if (!ret && t->n_flows != n) {
		ret = sluice_i_errf(err, errlen, -EINVAL,
				    "%u flows asked for, %u made: a pair repeated or within one node",
				    n, t->n_flows);
		sluice_udpgen_free(t);
	}
	return ret;
}

void sluice_udpgen_free(struct sluice_udpgen *t)
{
	uint32_t k;

	for (k = 0; t->h && k < t->n_hosts; k++)
		if (t->h[k].fd >= 0)
			close(t->h[k].fd);
	free(t->h);
	free(t->flow_first);
	free(t->by_pair);
	free(t->fl);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

static int host_socket(struct sluice_udpgen *t, struct sluice_udpgen_host *h,
		       char *err, size_t errlen)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(t->o.port),
	};
	int tos = t->o.tos, rcv = 1 << 20;

	h->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (h->fd < 0)
		return sluice_i_errf(err, errlen, -errno, "a UDP socket in %s: %s",
				     h->ns, strerror(errno));
	if (setsockopt(h->fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)) ||
	    (t->o.sndbuf && setsockopt(h->fd, SOL_SOCKET, SO_SNDBUF,
				       &t->o.sndbuf, sizeof(t->o.sndbuf))) ||
	    setsockopt(h->fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv)) ||
	    bind(h->fd, (struct sockaddr *)&a, sizeof(a)))
		return sluice_i_errf(err, errlen, -errno, "UDP port %u in %s: %s",
				     t->o.port, h->ns, strerror(errno));
	return 0;
}

/**
 * sluice_udpgen_open() - a socket in every host's namespace
 * @t:		from sluice_udpgen_init()
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * The thread enters each host's namespace in turn and comes back to its
 * own.
 *
 * Return: 0 or a negative errno.
 */
int sluice_udpgen_open(struct sluice_udpgen *t, char *err, size_t errlen)
{
	int self, fd, ret = 0, back;
	uint32_t k;

	self = sluice_netns_self(err, errlen);
	if (self < 0)
		return self;
	for (k = 0; !ret && k < t->n_hosts; k++) {
		fd = sluice_netns_open(t->h[k].ns, err, errlen);
		if (fd < 0) {
			ret = fd;
			break;
		}
		ret = sluice_netns_enter_fd(fd, t->h[k].ns, err, errlen);
		close(fd);
		if (!ret)
			ret = host_socket(t, &t->h[k], err, errlen);
		back = sluice_netns_enter_fd(self, "of this process",
					     ret ? NULL : err, ret ? 0 : errlen);
		if (!ret)
			ret = back;
	}
	close(self);
	return ret;
}

/* Sends one frame of flow @q with @len bytes of payload. */
static int send_one(struct sluice_udpgen *t, uint32_t q, size_t len)
{
	struct sluice_udpgen_flow *fl = &t->fl[q];
	struct sockaddr_in to = {
		.sin_family = AF_INET,
		.sin_port = htons(t->o.port),
		.sin_addr.s_addr = htonl(t->h[fl->dst].addr),
	};

	sluice_i_put32(t->buf, SLUICE_UDPGEN_MAGIC);
	sluice_i_put32(t->buf + 4, fl->src);
	sluice_i_put32(t->buf + 8, fl->dst);
	sluice_i_put32(t->buf + 12, fl->seq);
	if (sendto(t->h[fl->src].fd, t->buf, len, MSG_DONTWAIT,
		   (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno;
	fl->seq++;
	return 0;
}

/* Reads what waits on host @k's socket. */
static void receive(struct sluice_udpgen *t, uint32_t k)
{
	uint32_t src, dst, q;
	ssize_t n;

	while ((n = recv(t->h[k].fd, t->buf, BUF_LEN, MSG_DONTWAIT)) >= 0) {
		if (n < SLUICE_UDPGEN_HDR ||
		    sluice_i_get32(t->buf) != SLUICE_UDPGEN_MAGIC) {
			t->rx_bad++;
			continue;
		}
		src = sluice_i_get32(t->buf + 4);
		dst = sluice_i_get32(t->buf + 8);
		if (src >= t->n_hosts || dst != k ||
		    (q = t->by_pair[(size_t)src * t->n_hosts + dst]) ==
		    UINT32_MAX) {
			t->rx_bad++;
			continue;
		}
		t->fl[q].rx_bytes += n + SLUICE_UDPGEN_OVERHEAD;
		t->fl[q].rx_frames++;
	}
}

/* Receives on every socket until @until (CLOCK_MONOTONIC seconds). */
static void receive_until(struct sluice_udpgen *t, double until)
{
	struct pollfd pfd[256];
	uint32_t k, base;
	double left;
	int ms;

	do {
		left = until - sluice_now();
		ms = left > 0 ? (int)(left * 1000 + 0.999) : 0;
		for (base = 0; base < t->n_hosts; base += 256) {
			uint32_t m = t->n_hosts - base < 256 ?
				     t->n_hosts - base : 256;

			for (k = 0; k < m; k++) {
				pfd[k].fd = t->h[base + k].fd;
				pfd[k].events = POLLIN;
				pfd[k].revents = 0;
			}
			if (poll(pfd, m, base + m < t->n_hosts ? 0 : ms) <= 0)
				continue;
			for (k = 0; k < m; k++)
				if (pfd[k].revents & POLLIN)
					receive(t, base + k);
		}
	} while (sluice_now() < until);
}

/**
 * sluice_udpgen_warmup() - one small frame per flow, then receive
 * @t:		opened
 * @seconds:	how long to wait for them
 *
 * So that every flow is known to have a working path (and, on a fabric
 * that resolves its neighbours with ARP, every neighbour on it resolved)
 * before anything is measured.  Counters are not reset:
 * sluice_udpgen_reset() does.
 *
 * Return: how many of the flows' frames arrived.
 */
int sluice_udpgen_warmup(struct sluice_udpgen *t, double seconds)
{
	uint32_t q;
	int got = 0;

	for (q = 0; q < t->n_flows; q++)
		send_one(t, q, SLUICE_UDPGEN_HDR);
	receive_until(t, sluice_now() + seconds);
	for (q = 0; q < t->n_flows; q++)
		got += t->fl[q].rx_frames > 0;
	return got;
}

/* Counters to zero, buckets empty, the clock at @now. */
void sluice_udpgen_reset(struct sluice_udpgen *t, double now)
{
	uint32_t k, q;

	for (q = 0; q < t->n_flows; q++) {
		t->fl[q].tx_bytes = t->fl[q].tx_frames = 0;
		t->fl[q].rx_bytes = t->fl[q].rx_frames = 0;
	}
	for (k = 0; k < t->n_hosts; k++) {
		t->h[k].tokens = 0;
		t->h[k].eagain = 0;
		t->h[k].held = 0;
	}
	t->send_errors = 0;
	t->rx_bad = 0;
	t->last = now;
}

/*
 * Bytes host @k has sent that have not arrived yet, over its flows;
 * frames of before a reset that arrive after it count as nothing.
 */
static uint64_t in_flight(const struct sluice_udpgen *t, uint32_t k)
{
	uint64_t sum = 0;
	uint32_t q;

	for (q = t->flow_first[k]; q < t->flow_first[k + 1]; q++)
		if (t->fl[q].tx_bytes > t->fl[q].rx_bytes)
			sum += t->fl[q].tx_bytes - t->fl[q].rx_bytes;
	return sum;
}

/**
 * sluice_udpgen_step() - send what the buckets allow, receive until @until
 * @t:		opened
 * @now:	the time now
 * @until:	when the next step is due
 *
 * A host whose socket is full (EAGAIN, ENOBUFS) stops until the next step;
 * so does a host with a window (o.window) that much in flight (counted in
 * held).  Other send errors are counted (send_errors, last_errno) and the
 * frame skipped.
 */
void sluice_udpgen_step(struct sluice_udpgen *t, double now, double until)
{
	double dt = now - t->last, per_s = t->o.rate / 8, burst;
	size_t len = t->o.frame - SLUICE_UDPGEN_OVERHEAD;
	struct sluice_udpgen_host *h;
	uint32_t k, count;
	int ret;

	burst = per_s * 0.05;
	if (burst < 2.0 * t->o.frame)
		burst = 2.0 * t->o.frame;
	t->last = now;
	for (k = 0; k < t->n_hosts; k++) {
		h = &t->h[k];
		count = t->flow_first[k + 1] - t->flow_first[k];
		if (!count)
			continue;
		h->tokens += per_s * dt;
		if (h->tokens > burst)
			h->tokens = burst;
		while (h->tokens >= t->o.frame) {
			uint32_t q = t->flow_first[k] + h->next;

			if (t->o.window &&
			    in_flight(t, k) + t->o.frame > t->o.window) {
				h->held++;
				break;
			}

			ret = send_one(t, q, len);
			if (ret == -EAGAIN || ret == -ENOBUFS) {
				h->eagain++;
				break;
			}
			h->next = (h->next + 1) % count;
			if (ret) {
				t->send_errors++;
				t->last_errno = -ret;
				break;
			}
			h->tokens -= t->o.frame;
			t->fl[q].tx_bytes += t->o.frame;
			t->fl[q].tx_frames++;
		}
	}
	receive_until(t, until);
}

/**
 * sluice_udpgen_run_until() - send and receive until @end
 * @t:		opened
 * @end:	CLOCK_MONOTONIC seconds (sluice_now())
 * @tick:	seconds between steps (sluice_udpgen_step())
 */
void sluice_udpgen_run_until(struct sluice_udpgen *t, double end, double tick)
{
	double now, next;

	for (now = sluice_now(); now < end; now = sluice_now()) {
		next = now + tick < end ? now + tick : end;
		sluice_udpgen_step(t, now, next);
	}
}

uint64_t sluice_udpgen_rx_bytes(const struct sluice_udpgen *t)
{
	uint64_t s = 0;
	uint32_t q;

	for (q = 0; q < t->n_flows; q++)
		s += t->fl[q].rx_bytes;
	return s;
}

uint64_t sluice_udpgen_tx_bytes(const struct sluice_udpgen *t)
{
	uint64_t s = 0;
	uint32_t q;

	for (q = 0; q < t->n_flows; q++)
		s += t->fl[q].tx_bytes;
	return s;
}
