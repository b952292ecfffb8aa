// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Long-lived TCP flows and their throughput over time (sluice/tcpstream.h).
 *
 * One epoll loop: a listener per destination host, a sender per flow
 * started at its time and written to whenever it is writable until its
 * stop, and the accepted sockets read as data comes, each byte counted in
 * the bin of the moment it was read.  Senders never block, so one slow
 * flow (paused by PFC, say) holds up nobody else.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sluice/fabric_nl.h>
#include <sluice/tcpstream.h>
#include <sluice/experiment.h>
#include "graph/internal.h"
#include "fabric/internal.h"

#define BUF_LEN		65536
#define MAGIC		0x534c5354u	/* "SLST" */
#define HDR		8
#define NONE		UINT32_MAX

enum { K_LISTEN, K_SEND, K_RECV };

struct recv_side {
	int		fd;
	uint32_t	flow;		/* NONE until the header is in */
	uint32_t	got_hdr;
	unsigned char	hdr[HDR];
};

struct srun {
	struct sluice_tcpgen_host	*h;
	uint32_t			n_hosts;
	struct sluice_stream_flow	*fl;
	uint32_t			n;
	const struct sluice_stream_opts	*o;
	uint32_t			n_bins;
	int				ep, self, cur;
	int				*snd;		/* per flow, -1 */
	uint16_t			*leased;	/* per flow, 0 */
	struct sluice_i_sports		sp;
	uint64_t			*sent;		/* per flow */
	bool				*done;		/* stopped */
	struct recv_side		*rx;
	uint32_t			n_rx;
	uint64_t			cap_rx;
	unsigned char			*buf;
	double				t0;
	uint32_t			next_bin;	/* to end */
	char				*err;
	size_t				errlen;
};

static uint64_t key(int kind, uint32_t i)
{
	return (uint64_t)kind << 32 | i;
}

/* O(1). */
uint32_t sluice_stream_bins(const struct sluice_stream_opts *o)
{
	return (uint32_t)ceil(o->duration / o->interval - 1e-9);
}

/* Into host @k's namespace, -1 for ours; nothing if already there. */
static int enter(struct srun *r, int k)
{
	int want = k >= 0 && r->h[k].ns_fd >= 0 ? k : -1;

	if (want == r->cur)
		return 0;
	if (sluice_netns_enter_fd(want < 0 ? r->self : r->h[want].ns_fd,
				  want < 0 ? "of this process" : r->h[want].ns,
				  r->err, r->errlen))
		return -EIO;
	r->cur = want;
	return 0;
}

static int add(struct srun *r, int fd, uint32_t events, uint64_t k)
{
	struct epoll_event ev = { .events = events, .data.u64 = k };

	if (epoll_ctl(r->ep, EPOLL_CTL_ADD, fd, &ev))
		return sluice_i_errf(r->err, r->errlen, -errno, "epoll: %s",
				     strerror(errno));
	return 0;
}

static int open_listeners(struct srun *r)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	uint32_t k, q;
	int one = 1, ret = 0;
	bool *dst = calloc(r->n_hosts, sizeof(*dst));

	if (!dst)
		return sluice_i_errf(r->err, r->errlen, -ENOMEM,
				     "out of memory");
	for (q = 0; q < r->n; q++)
		dst[r->fl[q].dst] = true;
	for (k = 0; !ret && k < r->n_hosts; k++) {
		struct sluice_tcpgen_host *h = &r->h[k];

		if (h->ns[0]) {
			ret = sluice_netns_open(h->ns, r->err, r->errlen);
			if (ret < 0)
				break;
			h->ns_fd = ret;
			ret = 0;
		}
		if (!dst[k])
			continue;
		ret = enter(r, k);
		if (ret)
			break;
		h->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK |
				      SOCK_CLOEXEC, 0);
		a.sin_port = 0;
		a.sin_addr.s_addr = htonl(h->addr);
		len = sizeof(a);
		if (h->listen_fd < 0 ||
		    setsockopt(h->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one,
			       sizeof(one)) ||
		    (r->o->tos && setsockopt(h->listen_fd, IPPROTO_IP, IP_TOS,
					     &(int){ r->o->tos }, sizeof(int))) ||
		    bind(h->listen_fd, (struct sockaddr *)&a, sizeof(a)) ||
		    listen(h->listen_fd, 64) ||
		    getsockname(h->listen_fd, (struct sockaddr *)&a, &len)) {
			ret = sluice_i_errf(r->err, r->errlen, -errno,
					    "a listener in %s: %s", h->ns,
					    strerror(errno));
			break;
		}
		h->port = ntohs(a.sin_port);
		ret = add(r, h->listen_fd, EPOLLIN, key(K_LISTEN, k));
	}
	free(dst);
	if (!ret)
		ret = enter(r, -1);
	return ret;
}

static void stop_flow(struct srun *r, uint32_t q);

/* Flow @q's connection, from its source's namespace. */
static int start_flow(struct srun *r, uint32_t q)
{
	struct sluice_stream_flow *f = &r->fl[q];
	struct sluice_tcpgen_host *d = &r->h[f->dst];
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(d->port),
		.sin_addr.s_addr = htonl(d->addr),
	};
	int fd, ret, tos;

	ret = enter(r, f->src);
	if (ret)
		return ret;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return sluice_i_errf(r->err, r->errlen, -errno,
				     "a TCP socket in %s: %s",
				     r->h[f->src].ns, strerror(errno));
	tos = f->tos ? f->tos : r->o->tos;
	if ((r->o->cc && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION,
				    r->o->cc, strlen(r->o->cc))) ||
	    (tos && setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)))) {
		ret = sluice_i_errf(r->err, r->errlen, -errno,
				    "socket options (congestion control %s) in %s: %s",
				    r->o->cc ? r->o->cc : "default",
				    r->h[f->src].ns, strerror(errno));
		close(fd);
		return ret;
	}
	r->snd[q] = fd;
	ret = sluice_i_sport_bind(&r->sp, f->src, q, d->addr, fd);
	if (ret < 0) {
		f->error = -ret;
		stop_flow(r, q);
		return 0;
	}
	r->leased[q] = ret;
	f->faca = ret > 0;
	f->faca_error = f->faca ? 0 : r->sp.why;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    errno != EINPROGRESS) {
		f->error = errno;
		stop_flow(r, q);
		return 0;
	}
	f->sport = sluice_i_local_port(fd);
	return add(r, fd, EPOLLOUT, key(K_SEND, q));
}

static void sample_cwnd(struct srun *r, uint32_t q)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (r->snd[q] >= 0 &&
	    !getsockopt(r->snd[q], IPPROTO_TCP, TCP_INFO, &ti, &len)) {
		if (ti.tcpi_snd_cwnd > r->fl[q].cwnd_max)
			r->fl[q].cwnd_max = ti.tcpi_snd_cwnd;
		r->fl[q].retrans = ti.tcpi_total_retrans;
	}
}

/*
 * A flow stops at once: closed with a reset, so that what its send buffer
 * still holds (seconds of it, for a cubic flow PFC never slowed) is not
 * delivered after its stop; what is in flight still arrives.
 */
static void stop_flow(struct srun *r, uint32_t q)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	if (r->done[q])
		return;
	r->done[q] = true;
	sample_cwnd(r, q);
	if (r->snd[q] >= 0) {
		setsockopt(r->snd[q], SOL_SOCKET, SO_LINGER, &l, sizeof(l));
		close(r->snd[q]);
	}
	r->snd[q] = -1;
	sluice_i_sport_release(&r->sp, r->fl[q].src, r->h[r->fl[q].dst].addr,
			       r->leased[q]);
	r->leased[q] = 0;
}

/* The bins that ended by @t (s from the start) told to the caller. */
static int bins_ended(struct srun *r, double t)
{
	int ret;

	if (!r->o->bin_end ||
	    (r->next_bin < r->n_bins &&
	     t < (r->next_bin + 1) * r->o->interval))
		return 0;
	ret = enter(r, -1);
	while (!ret && r->next_bin < r->n_bins &&
	       t >= (r->next_bin + 1) * r->o->interval)
		r->o->bin_end(r->o->bin_arg, r->next_bin++);
	return ret;
}

static void on_send(struct srun *r, uint32_t q)
{
	struct sluice_stream_flow *f = &r->fl[q];
	int soerr = 0;
	socklen_t sl = sizeof(soerr);
	size_t off, len;
	ssize_t n;

	if (r->snd[q] < 0)
		return;
	if (!r->sent[q] &&
	    (getsockopt(r->snd[q], SOL_SOCKET, SO_ERROR, &soerr, &sl) ||
	     soerr)) {
		f->error = soerr ? soerr : errno;
		stop_flow(r, q);
		return;
	}
	/* the header once, then the same buffer over and over */
	off = r->sent[q] < HDR ? r->sent[q] : HDR;
	if (r->sent[q] < HDR) {
		sluice_i_put32(r->buf, MAGIC);
		sluice_i_put32(r->buf + 4, q);
	}
	len = BUF_LEN - off;
	n = send(r->snd[q], r->buf + off, len, MSG_NOSIGNAL);
	if (n > 0) {
		r->sent[q] += n;
		sample_cwnd(r, q);
	} else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
		f->error = errno;
		stop_flow(r, q);
	}
}

static void count(struct srun *r, uint32_t q, uint64_t n, double t)
{
	struct sluice_stream_flow *f = &r->fl[q];
	double b = (t - r->t0) / r->o->interval;
	uint32_t bin = b < 0 ? 0 : (uint32_t)b;

	if (bin >= r->n_bins)
		bin = r->n_bins - 1;
	f->bins[bin] += n;
	f->bytes += n;
}

static void on_recv(struct srun *r, uint32_t ci)
{
	struct recv_side *c = &r->rx[ci];
	ssize_t n;
	uint32_t take;
	double t;

	for (;;) {
		n = recv(c->fd, r->buf, BUF_LEN, 0);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			epoll_ctl(r->ep, EPOLL_CTL_DEL, c->fd, NULL);
			close(c->fd);
			c->fd = -1;
			return;
		}
		t = sluice_now();
		take = 0;
		if (c->got_hdr < HDR) {
			take = HDR - c->got_hdr;
			if (take > (uint32_t)n)
				take = n;
			memcpy(c->hdr + c->got_hdr, r->buf, take);
			c->got_hdr += take;
			if (c->got_hdr == HDR &&
			    sluice_i_get32(c->hdr) == MAGIC &&
			    sluice_i_get32(c->hdr + 4) < r->n)
				c->flow = sluice_i_get32(c->hdr + 4);
		}
		if (c->flow != NONE)
			count(r, c->flow, (uint64_t)n - take +
			      (take && c->got_hdr == HDR ? HDR : 0), t);
	}
}

static int on_accept(struct srun *r, uint32_t k)
{
	int fd;

	while ((fd = accept4(r->h[k].listen_fd, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		if (SLUICE_I_GROW(r->rx, r->cap_rx, r->n_rx + 1)) {
			close(fd);
			return sluice_i_errf(r->err, r->errlen, -ENOMEM,
					     "out of memory");
		}
		r->rx[r->n_rx] = (struct recv_side){ .fd = fd, .flow = NONE };
		if (add(r, fd, EPOLLIN, key(K_RECV, r->n_rx))) {
			close(fd);
			return -EIO;
		}
		r->n_rx++;
	}
	return 0;
}

static void cleanup(struct srun *r)
{
	uint32_t k, q;

	for (q = 0; r->snd && q < r->n; q++) {
		if (r->snd[q] >= 0)
			close(r->snd[q]);
		if (r->leased)
			sluice_i_sport_release(&r->sp, r->fl[q].src,
					       r->h[r->fl[q].dst].addr,
					       r->leased[q]);
	}
	for (k = 0; k < r->n_rx; k++)
		if (r->rx[k].fd >= 0)
			close(r->rx[k].fd);
	for (k = 0; k < r->n_hosts; k++) {
		if (r->h[k].listen_fd >= 0)
			close(r->h[k].listen_fd);
		if (r->h[k].ns_fd >= 0)
			close(r->h[k].ns_fd);
		r->h[k].listen_fd = r->h[k].ns_fd = -1;
	}
	if (r->ep >= 0)
		close(r->ep);
	if (r->self >= 0)
		close(r->self);
	free(r->snd);
	free(r->leased);
	sluice_i_sports_free(&r->sp);
	free(r->sent);
	free(r->done);
	free(r->rx);
	free(r->buf);
}

int sluice_stream_run(struct sluice_tcpgen_host *hosts, uint32_t n_hosts,
		      struct sluice_stream_flow *fl, uint32_t n_flows,
		      const struct sluice_stream_opts *o, char *err,
		      size_t errlen)
{
	struct srun r = {
		.h = hosts, .n_hosts = n_hosts, .fl = fl, .n = n_flows,
		.o = o, .ep = -1, .self = -1, .cur = -1, .err = err,
		.errlen = errlen,
	};
	struct epoll_event ev[64];
	uint32_t q, k;
	int ret = 0, n, i, wait;
	double t, next;

	if (!(o->interval > 0) || !(o->duration > 0) || !n_flows)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "a run needs flows, an interval and a duration above 0");
	if (sluice_i_sport_check(&o->sport, err, errlen))
		return -EINVAL;
	r.n_bins = sluice_stream_bins(o);
	for (q = 0; q < n_flows; q++) {
		if (fl[q].src >= n_hosts || fl[q].dst >= n_hosts ||
		    fl[q].src == fl[q].dst || fl[q].stop <= fl[q].start)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "flow %u: hosts %u -> %u, %.3f s to %.3f s",
					     q, fl[q].src, fl[q].dst,
					     fl[q].start, fl[q].stop);
		fl[q].bins = NULL;
	}
	for (k = 0; k < n_hosts; k++)
		hosts[k].listen_fd = hosts[k].ns_fd = -1;
	r.snd = calloc(n_flows, sizeof(*r.snd));
	r.leased = calloc(n_flows, sizeof(*r.leased));
	r.sent = calloc(n_flows, sizeof(*r.sent));
	r.done = calloc(n_flows, sizeof(*r.done));
	r.buf = malloc(BUF_LEN);
	for (q = 0; r.snd && q < n_flows; q++) {
		r.snd[q] = -1;
		fl[q].bins = calloc(r.n_bins, sizeof(*fl[q].bins));
		fl[q].bytes = 0;
		fl[q].retrans = fl[q].cwnd_max = 0;
		fl[q].sport = 0;
		fl[q].faca = false;
		fl[q].faca_error = 0;
		fl[q].error = 0;
		if (!fl[q].bins)
			break;
	}
	if (!r.snd || !r.leased || !r.sent || !r.done || !r.buf ||
	    q < n_flows || sluice_i_sports_init(&r.sp, &o->sport, n_hosts)) {
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	memset(r.buf, 0x5a, BUF_LEN);
	r.ep = epoll_create1(EPOLL_CLOEXEC);
	r.self = sluice_netns_self(err, errlen);
	if (r.ep < 0 || r.self < 0) {
		ret = r.self < 0 ? r.self :
		      sluice_i_errf(err, errlen, -errno, "epoll: %s",
				    strerror(errno));
		goto out;
	}
	ret = open_listeners(&r);
	if (ret)
		goto out;
	r.t0 = sluice_now();
	for (;;) {
		t = sluice_now() - r.t0;
		if (o->stop && *o->stop) {
			ret = sluice_i_errf(err, errlen, -EINTR, "interrupted");
			break;
		}
		if (t >= o->duration)
			break;
		ret = bins_ended(&r, t);
		if (ret)
			goto out;
		next = o->duration;
		if (o->bin_end && (r.next_bin + 1) * o->interval < next)
			next = (r.next_bin + 1) * o->interval;
		for (q = 0; q < n_flows; q++) {
			if (!r.done[q] && r.snd[q] < 0 && fl[q].start <= t &&
			    !fl[q].error) {
				ret = start_flow(&r, q);
				if (!ret)
					ret = enter(&r, -1);
				if (ret)
					goto out;
			}
			if (!r.done[q] && fl[q].stop <= t)
				stop_flow(&r, q);
			if (!r.done[q] && r.snd[q] < 0 && fl[q].start > t &&
			    fl[q].start < next)
				next = fl[q].start;
			if (!r.done[q] && fl[q].stop > t && fl[q].stop < next)
				next = fl[q].stop;
		}
		wait = (int)((next - t) * 1000) + 1;
		if (wait > 100)
			wait = 100;
		n = epoll_wait(r.ep, ev, 64, wait);
		if (n < 0 && errno != EINTR) {
			ret = sluice_i_errf(err, errlen, -errno, "epoll: %s",
					    strerror(errno));
			break;
		}
		for (i = 0; i < n; i++) {
			uint32_t kind = ev[i].data.u64 >> 32;
			uint32_t idx = (uint32_t)ev[i].data.u64;

			if (kind == K_LISTEN)
				ret = on_accept(&r, idx);
			else if (kind == K_SEND)
				on_send(&r, idx);
			else if (r.rx[idx].fd >= 0)
				on_recv(&r, idx);
			if (ret)
				goto out;
		}
	}
	for (q = 0; q < n_flows; q++)
		stop_flow(&r, q);
	if (!ret)
		ret = bins_ended(&r, INFINITY);
out:
	enter(&r, -1);
	cleanup(&r);
	return ret;
}

void sluice_stream_free(struct sluice_stream_flow *fl, uint32_t n_flows)
{
	uint32_t q;

	for (q = 0; q < n_flows; q++) {
		free(fl[q].bins);
		fl[q].bins = NULL;
	}
}

double sluice_stream_rate(const struct sluice_stream_flow *f,
			  const struct sluice_stream_opts *o, uint32_t from,
			  uint32_t to)
{
	uint64_t sum = 0;
	uint32_t b;

	if (to > sluice_stream_bins(o))
		to = sluice_stream_bins(o);
	if (!f->bins || to <= from)
		return 0;
	for (b = from; b < to; b++)
		sum += f->bins[b];
	return sum * 8.0 / ((to - from) * o->interval);
}
