// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * INT probes (sluice/int.h): the datagram sch_sluice's ports stamp, read
 * and written field by field in network order (no struct is cast onto a
 * buffer: a UDP payload has no alignment to rely on), and the two socket
 * ends, the prober and the echo responder.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sluice/int.h>

#include "../graph/internal.h"

#define HDR_LEN		sizeof(struct sluice_int_hdr)
#define REC_LEN		sizeof(struct sluice_int_rec)

/* The largest datagram a probe can be: a bigger one is not a probe of ours. */
#define PROBE_MAX	(HDR_LEN + SLUICE_INT_MAX_RECS * REC_LEN)

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return ntohl(v);
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, sizeof(v));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, (uint32_t)v);
}

size_t sluice_int_probe_size(unsigned int nrec)
{
	if (!nrec || nrec > SLUICE_INT_MAX_RECS)
		return 0;
	return HDR_LEN + nrec * REC_LEN;
}

int sluice_int_probe_build(void *buf, size_t len, unsigned int nrec,
			   uint8_t prio, uint32_t seq, uint64_t tx_ns)
{
	size_t size = sluice_int_probe_size(nrec);
	uint8_t *b = buf;

	if (!size || len < size)
		return -EINVAL;
	memset(b, 0, size);
	put32(b + offsetof(struct sluice_int_hdr, magic), SLUICE_INT_MAGIC);
	b[offsetof(struct sluice_int_hdr, version)] = SLUICE_INT_VERSION;
	b[offsetof(struct sluice_int_hdr, nrec)] = nrec;
	b[offsetof(struct sluice_int_hdr, prio)] = prio;
	put32(b + offsetof(struct sluice_int_hdr, seq), seq);
	put64(b + offsetof(struct sluice_int_hdr, tx_ns), tx_ns);
	return (int)size;
}

static void hop_read(const uint8_t *r, struct sluice_int_hop *h)
{
	h->node = get32(r + offsetof(struct sluice_int_rec, node));
	h->ifindex = get32(r + offsetof(struct sluice_int_rec, ifindex));
	h->link = get32(r + offsetof(struct sluice_int_rec, link));
	h->backlog = get32(r + offsetof(struct sluice_int_rec, backlog));
	h->port_backlog = get32(r + offsetof(struct sluice_int_rec,
					     port_backlog));
	h->class = r[offsetof(struct sluice_int_rec, class)];
	h->paused = r[offsetof(struct sluice_int_rec, paused)];
	h->tx_bytes = get64(r + offsetof(struct sluice_int_rec, tx_bytes));
	h->ts_ns = get64(r + offsetof(struct sluice_int_rec, ts_ns));
	h->rate = get64(r + offsetof(struct sluice_int_rec, rate));
}

/* The header's counts, checked; 0 or the parse error. */
static int hdr_check(const uint8_t *b, size_t len)
{
	unsigned int nrec, nused;

	if (len < HDR_LEN ||
	    get32(b + offsetof(struct sluice_int_hdr, magic)) != SLUICE_INT_MAGIC)
		return -EBADMSG;
	if (b[offsetof(struct sluice_int_hdr, version)] != SLUICE_INT_VERSION)
		return -EPROTO;
	nrec = b[offsetof(struct sluice_int_hdr, nrec)];
	nused = b[offsetof(struct sluice_int_hdr, nused)];
	if (!sluice_int_probe_size(nrec) || nused > nrec ||
	    len < sluice_int_probe_size(nrec))
		return -EINVAL;
	return 0;
}

int sluice_int_probe_parse(const void *buf, size_t len,
			   struct sluice_int_probe *p)
{
	const uint8_t *b = buf;
	unsigned int i;
	int ret;

	ret = hdr_check(b, len);
	if (ret)
		return ret;
	memset(p, 0, sizeof(*p));
	p->nrec = b[offsetof(struct sluice_int_hdr, nrec)];
	p->nused = b[offsetof(struct sluice_int_hdr, nused)];
	p->flags = b[offsetof(struct sluice_int_hdr, flags)];
	p->prio = b[offsetof(struct sluice_int_hdr, prio)];
	p->seq = get32(b + offsetof(struct sluice_int_hdr, seq));
	p->tx_ns = get64(b + offsetof(struct sluice_int_hdr, tx_ns));
	p->echo_ns = get64(b + offsetof(struct sluice_int_hdr, echo_ns));
	for (i = 0; i < p->nused; i++)
		hop_read(b + HDR_LEN + i * REC_LEN, &p->hop[i]);
	return 0;
}

int sluice_int_probe_echo(void *buf, size_t len, uint64_t echo_ns)
{
	uint8_t *b = buf;
	int ret = hdr_check(b, len);

	if (ret)
		return ret;
	b[offsetof(struct sluice_int_hdr, flags)] |= SLUICE_INT_F_ECHO;
	put64(b + offsetof(struct sluice_int_hdr, echo_ns), echo_ns);
	return 0;
}

uint64_t sluice_int_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int sluice_int_socket(uint16_t port, uint8_t tos, char *err, size_t errlen)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int fd, v = tos, ret;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return sluice_i_errf(err, errlen, -errno, "socket: %s",
				     strerror(errno));
	if (setsockopt(fd, IPPROTO_IP, IP_TOS, &v, sizeof(v))) {
		ret = sluice_i_errf(err, errlen, -errno, "IP_TOS %u: %s", tos,
				    strerror(errno));
		goto fail;
	}
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		ret = sluice_i_errf(err, errlen, -errno, "bind to UDP port %u: %s",
				    port, strerror(errno));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return ret;
}

/* Waits until @fd is readable or @deadline (CLOCK_MONOTONIC ns; 0: never). */
static int wait_readable(int fd, uint64_t deadline, char *err, size_t errlen)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint64_t now;
	int ms, n;

	for (;;) {
		ms = -1;
		if (deadline) {
			now = mono_ns();
			if (now >= deadline)
				return -ETIMEDOUT;
			/* rounded up: a 0 ms poll spins instead of waiting */
			ms = (int)((deadline - now + 999999) / 1000000);
		}
		n = poll(&pfd, 1, ms);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return sluice_i_errf(err, errlen, -errno, "poll: %s",
					     strerror(errno));
	}
}

int sluice_int_ping(int fd, const struct sluice_int_req *req,
		    struct sluice_int_probe *p, uint64_t *rtt_ns, char *err,
		    size_t errlen)
{
	struct sockaddr_in to = {
		.sin_family = AF_INET,
		.sin_port = htons(req->port),
		.sin_addr.s_addr = req->dst,
	}, from;
	socklen_t flen;
	uint8_t buf[PROBE_MAX + 1];
	uint64_t start, deadline;
	ssize_t n;
	int len, ret;

	len = sluice_int_probe_build(buf, sizeof(buf), req->nrec, req->prio,
				     req->seq, sluice_int_now());
	if (len < 0)
		return sluice_i_errf(err, errlen, len,
				     "a probe has 1 to %u records, not %u",
				     SLUICE_INT_MAX_RECS, req->nrec);
	start = mono_ns();
	deadline = start + req->timeout_ns;
	if (sendto(fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to)) != len)
		return sluice_i_errf(err, errlen, -errno, "sendto: %s",
				     strerror(errno));
	for (;;) {
		ret = wait_readable(fd, deadline, err, errlen);
		if (ret)
			return ret;
		flen = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT,
			     (struct sockaddr *)&from, &flen);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			/* an ICMP error for an earlier datagram: not ours to judge */
			if (errno == ECONNREFUSED || errno == EHOSTUNREACH)
				continue;
			return sluice_i_errf(err, errlen, -errno, "recvfrom: %s",
					     strerror(errno));
		}
		if (from.sin_addr.s_addr != req->dst ||
		    from.sin_port != htons(req->port))
			continue;
		if (sluice_int_probe_parse(buf, n, p) || p->seq != req->seq ||
		    !(p->flags & SLUICE_INT_F_ECHO))
			continue;
		*rtt_ns = mono_ns() - start;
		return 0;
	}
}

int sluice_int_echo_one(int fd, uint64_t timeout_ns,
			struct sluice_int_probe *p, uint32_t *from_addr,
			uint16_t *from_port, char *err, size_t errlen)
{
	uint64_t deadline = timeout_ns ? mono_ns() + timeout_ns : 0;
	uint8_t buf[PROBE_MAX + 1];
	struct sockaddr_in from;
	socklen_t flen;
	uint64_t now;
	ssize_t n;
	int ret;

	for (;;) {
		ret = wait_readable(fd, deadline, err, errlen);
		if (ret)
			return ret;
		flen = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT,
			     (struct sockaddr *)&from, &flen);
		if (n >= 0)
			break;
		if (errno != EAGAIN && errno != EINTR)
			return sluice_i_errf(err, errlen, -errno,
					     "recvfrom: %s", strerror(errno));
	}
	now = sluice_int_now();
	ret = sluice_int_probe_echo(buf, n, now);
	if (ret)
		return ret;
	/* the probe as it arrived, with the time it did */
	sluice_int_probe_parse(buf, n, p);
	if (from_addr)
		*from_addr = from.sin_addr.s_addr;
	if (from_port)
		*from_port = from.sin_port;
	if (sendto(fd, buf, n, 0, (struct sockaddr *)&from, flen) != n)
		return sluice_i_errf(err, errlen, -errno, "sendto: %s",
				     strerror(errno));
	return 0;
}

/* Frames as tcpdump captures them on a sluice port (sluice/int.h). */
#define ETH_HDR		14
#define ETH_P_8021Q	0x8100
#define ETH_P_8021AD	0x88a8
#define ETH_P_IPV4	0x0800
#define ETH_P_MPLS	0x8847
#define ETH_P_MPLS_MC	0x8848
#define MPLS_DEPTH	32	/* as the ports look: the kernel pushes 30 */
#define IPPROTO_UDP_	17

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

int sluice_int_frame_find(const uint8_t *frame, size_t len, uint16_t port,
			  struct sluice_int_frame *f)
{
	size_t off = ETH_HDR, ihl, ulen;
	uint16_t type;

	memset(f, 0, sizeof(*f));
	if (len < ETH_HDR)
		return -ENOENT;
	type = get16(frame + 12);
	while ((type == ETH_P_8021Q || type == ETH_P_8021AD) && f->vlans < 2) {
		if (len < off + 4)
			return -ENOENT;
		type = get16(frame + off + 2);
		off += 4;
		f->vlans++;
	}
	if (type == ETH_P_MPLS || type == ETH_P_MPLS_MC) {
		for (;;) {
			if (len < off + 4 || f->labels == MPLS_DEPTH)
				return -ENOENT;
			f->labels++;
			off += 4;
			if (frame[off - 2] & 0x1)	/* bottom of stack */
				break;
		}
		/* what is under the labels says what it is: IPv4's nibble */
		if (len < off + 1 || frame[off] >> 4 != 4)
			return -ENOENT;
	} else if (type != ETH_P_IPV4) {
		return -ENOENT;
	}
	if (len < off + 20 || frame[off] >> 4 != 4)
		return -ENOENT;
	ihl = (size_t)(frame[off] & 0xf) * 4;
	/* not UDP, or a later fragment: no UDP header there */
	if (ihl < 20 || frame[off + 9] != IPPROTO_UDP_ ||
	    (get16(frame + off + 6) & 0x1fff))
		return -ENOENT;
	memcpy(&f->saddr, frame + off + 12, 4);
	memcpy(&f->daddr, frame + off + 16, 4);
	off += ihl;
	if (len < off + 8)
		return -ENOENT;
	f->sport = get16(frame + off);
	f->dport = get16(frame + off + 2);
	if (f->dport != port)
		return -ENOENT;
	ulen = get16(frame + off + 4);
	if (ulen < 8 || len < off + ulen)
		return -EINVAL;
	f->offset = off + 8;
	f->len = ulen - 8;
	return 0;
}
