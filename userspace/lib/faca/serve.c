// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FaCa's agent on the network (sluice_faca_serve(), sluice/faca.h): one
 * thread, one poll() over the probe port (answering other hosts), the
 * unix socket applications ask on, the netfilter hook's queue when it
 * runs (serve_hook.c), a UDP socket per pool port (its probes and their
 * echoes) and the clients.  The table (agent.c) does the thinking; this
 * file sends, receives, times out and answers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <json.h>
#include <sluice/faca.h>
#include <sluice/faca_hook.h>

#include "../graph/internal.h"
#include "internal.h"

/* The largest datagram a probe can be, and one byte to see more. */
#define PROBE_BUF	(sizeof(struct sluice_int_hdr) + \
			 SLUICE_INT_MAX_RECS * sizeof(struct sluice_int_rec) + 1)
#define LINE_MAX_LEN	256
#define CLIENTS_MAX	256
/* A client that says nothing for this long is closed. */
#define CLIENT_IDLE_NS	60000000000ull
/* How long a reply may wait for room in the client's socket. */
#define SEND_TIMEOUT_MS	500
/* poll()'s first descriptors: the probe port, the unix socket, the hook */
enum { PFD_ECHO, PFD_LISTEN, PFD_HOOK, PFD_POOL };

/*
 * A probe sent, in the order sent: its echo or its timeout ends it.  An
 * answered probe's entry stays until its time comes (its port's seq has
 * moved on by then), so that the queue need not be searched.
 */
struct outstanding {
	uint32_t	seq;
	uint32_t	dst;		/* index */
	uint32_t	k;		/* the pool port's */
	uint64_t	sent_ns;
};

struct client {
	int		fd;
	char		buf[LINE_MAX_LEN];
	size_t		len;
	uint64_t	seen_ns;
	/* a "sport" waiting for its destination's first round */
	bool		waiting;
	uint32_t	dst;		/* index */
	uint64_t	lease_ns;
	uint64_t	deadline_ns;
};

struct srv {
	struct sluice_faca		*a;
	const struct sluice_faca_serve	*s;
	char				path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int				echo_fd, listen_fd;
	int				*pool_fd;	/* by pool index; -1 */
	struct sluice_i_agent_hook	*hook;		/* NULL: none */
	struct outstanding		*out;	/* out[head .. n_out) */
	uint64_t			head, n_out, cap_out;
	struct client			cl[CLIENTS_MAX];
	uint32_t			n_cl;
	struct pollfd			*pfd;
	uint32_t			seq;
	uint64_t			next_round;
	bool				told_no_records;
	char				*err;
	size_t				errlen;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

__attribute__((format(printf, 2, 3)))
static void say(struct srv *v, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!v->s->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	v->s->log(v->s->log_arg, line);
}

static const char *ntoa(uint32_t addr, char *buf)
{
	return inet_ntop(AF_INET, &addr, buf, INET_ADDRSTRLEN);
}

/* ------------------------------------------------------------ probes */

static void probe(struct srv *v, uint32_t dst, uint32_t k, uint64_t now)
{
	const struct sluice_faca_opts *o = &v->a->o;
	struct sluice_faca_dst *d = &v->a->dst[dst];
	struct sluice_faca_sport *s = &d->sport[k];
	struct sockaddr_in to = {
		.sin_family = AF_INET,
		.sin_port = htons(o->port),
		.sin_addr.s_addr = d->addr,
	};
	uint8_t buf[PROBE_BUF];
	int len;

	if (v->pool_fd[k] < 0 || s->sent_ns == now || s->seq ||
	    SLUICE_I_GROW(v->out, v->cap_out, v->n_out + 1))
		return;
	/* 0 means none out */
	if (!++v->seq)
		++v->seq;
	len = sluice_int_probe_build(buf, sizeof(buf), o->records,
				     SLUICE_INT_PRIO_OWN, v->seq,
				     sluice_int_now());
	s->sent_ns = now;
	if (len < 0 || sendto(v->pool_fd[k], buf, len, MSG_DONTWAIT,
			      (struct sockaddr *)&to, sizeof(to)) != len) {
		/* no route, a full buffer: as good as lost */
		sluice_faca_miss(v->a, dst, v->a->port[k]);
		return;
	}
	s->seq = v->seq;
	d->probes_out++;
	v->out[v->n_out++] = (struct outstanding){
		.seq = v->seq, .dst = dst, .k = k, .sent_ns = now,
	};
}

/* The port of path @p probed longest ago. */
static int path_port(const struct sluice_faca *a,
		     const struct sluice_faca_dst *d, int32_t p)
{
	int best = -1;
	uint32_t k;

	for (k = 0; k < a->n_sports; k++)
		if (d->sport[k].path == p &&
		    (best < 0 || d->sport[k].sent_ns < d->sport[best].sent_ns))
			best = k;
	return best;
}

/*
 * One round to destination @dst: ports still being found, a port of each
 * path, and the sweep.
 */
static void probe_dst(struct srv *v, uint32_t dst, uint64_t now)
{
	struct sluice_faca *a = v->a;
	struct sluice_faca_dst *d = &a->dst[dst];
	uint32_t k, n;
	int port;

	for (k = 0; k < a->n_sports; k++)
		if (d->sport[k].path < 0 &&
		    d->sport[k].misses < SLUICE_FACA_LOST)
			probe(v, dst, k, now);
	for (k = 0; k < d->n_paths; k++) {
		port = path_port(a, d, k);
		if (port >= 0)
			probe(v, dst, port, now);
	}
	for (n = 0; n < a->o.sweep && n < a->n_sports; n++) {
		probe(v, dst, d->sweep_next, now);
		d->sweep_next = (d->sweep_next + 1) % a->n_sports;
	}
	/* none could be sent: nothing to wait for */
	if (!d->probes_out)
		d->found = true;
}

/*
 * The probe out from port @k to @dst is over: echoed or timed out.  The
 * first time none is out, the destination's first round is.
 */
static void probe_done(struct sluice_faca_dst *d, uint32_t k)
{
	d->sport[k].seq = 0;
	if (!--d->probes_out)
		d->found = true;
}

/* Echoes not back within the timeout: misses. */
static void time_out(struct srv *v, uint64_t now)
{
	const struct outstanding *o;
	struct sluice_faca_dst *d;
	char addr[INET_ADDRSTRLEN];
	uint16_t sport;
	int before;

	for (; v->head < v->n_out; v->head++) {
		o = &v->out[v->head];
		if (now < o->sent_ns + v->a->o.timeout_ns)
			break;
		d = &v->a->dst[o->dst];
		if (d->sport[o->k].seq != o->seq)
			continue;	/* answered */
		probe_done(d, o->k);
		sport = v->a->port[o->k];
		before = d->sport[o->k].path;
		sluice_faca_miss(v->a, o->dst, sport);
		if (before >= 0 && d->sport[o->k].path < 0)
			say(v, "%s: port %u lost (path %d): %u probes unanswered",
			    ntoa(d->addr, addr), sport, before,
			    SLUICE_FACA_LOST);
	}
	/* the queue's front gone: move the rest down now and then */
	if (v->head > 1024 && v->head * 2 > v->n_out) {
		memmove(v->out, v->out + v->head,
			(v->n_out - v->head) * sizeof(*v->out));
		v->n_out -= v->head;
		v->head = 0;
	} else if (v->head == v->n_out) {
		v->head = v->n_out = 0;
	}
}

/* The echo @p of the probe out from pool port @k to @dst. */
static void learn(struct srv *v, uint32_t dst, uint32_t k,
		  const struct sluice_int_probe *p, uint64_t now)
{
	struct sluice_faca_dst *d = &v->a->dst[dst];
	struct sluice_faca_sport *s = &d->sport[k];
	uint16_t sport = v->a->port[k];
	uint32_t paths = d->n_paths;
	char addr[INET_ADDRSTRLEN];
	int before = s->path, idx;

	probe_done(d, k);
	idx = sluice_faca_learn(v->a, dst, sport, p, now - s->sent_ns, now);
	if (idx == -ENODATA) {
		/* answered, so not lost, but nothing to learn */
		s->misses = 0;
		if (!v->told_no_records)
			say(v, "%s: probes come back without records: no sluice port with int-port %u on the way",
			    ntoa(d->addr, addr), v->a->o.port);
		v->told_no_records = true;
		return;
	}
	if (idx < 0) {
		say(v, "%s: port %u: %s", ntoa(d->addr, addr), sport,
		    strerror(-idx));
		return;
	}
	if (d->n_paths != paths)
		say(v, "%s: path %d found (%u hops, B %.0f bit/s), %u paths",
		    ntoa(d->addr, addr), idx, d->path[idx].n_hops,
		    d->path[idx].B, d->n_paths);
	else if (before >= 0 && before != idx)
		say(v, "%s: port %u moved from path %d to %d",
		    ntoa(d->addr, addr), sport, before, idx);
}

/* Every datagram waiting on pool port @k's socket. */
static void receive(struct srv *v, uint32_t k, uint64_t now)
{
	struct sluice_int_probe p;
	struct sockaddr_in from;
	uint8_t buf[PROBE_BUF];
	socklen_t flen;
	ssize_t n;
	int dst;

	for (;;) {
		flen = sizeof(from);
		n = recvfrom(v->pool_fd[k], buf, sizeof(buf), MSG_DONTWAIT,
			     (struct sockaddr *)&from, &flen);
		if (n < 0 && errno != EINTR && errno != ECONNREFUSED &&
		    errno != EHOSTUNREACH)
			return;
		if (n < 0 || from.sin_port != htons(v->a->o.port) ||
		    sluice_int_probe_parse(buf, n, &p) ||
		    !(p.flags & SLUICE_INT_F_ECHO))
			continue;
		dst = sluice_faca_dst_find(v->a, from.sin_addr.s_addr);
		if (dst >= 0 && p.seq && v->a->dst[dst].sport[k].seq == p.seq)
			learn(v, dst, k, &p, now);
	}
}

/*
 * Other hosts' probes, each sent back with its arrival time (as
 * sluice_int_echo_one() does, without its wait) from the address it was
 * sent to (IP_PKTINFO), which the prober expects on a host of several
 * addresses; datagrams that are not probes are dropped.
 */
static void answer_probes(struct srv *v)
{
	char cbuf[CMSG_SPACE(sizeof(struct in_pktinfo))];
	struct in_pktinfo *pi = NULL;
	struct sockaddr_in from;
	uint8_t buf[PROBE_BUF];
	struct iovec iov;
	struct msghdr m;
	struct cmsghdr *c;
	ssize_t n;

	for (;;) {
		iov = (struct iovec){ .iov_base = buf, .iov_len = sizeof(buf) };
		m = (struct msghdr){
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		n = recvmsg(v->echo_fd, &m, MSG_DONTWAIT);
		if (n < 0 && errno != EINTR && errno != ECONNREFUSED)
			return;
		if (n < 0 || sluice_int_probe_echo(buf, n, sluice_int_now()))
			continue;
		pi = NULL;
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
			if (c->cmsg_level == IPPROTO_IP &&
			    c->cmsg_type == IP_PKTINFO)
				pi = (struct in_pktinfo *)CMSG_DATA(c);
		iov.iov_len = n;
		if (pi) {
			/* from the address it came to, by whatever device */
			pi->ipi_spec_dst = pi->ipi_addr;
			pi->ipi_ifindex = 0;
		} else {
			m.msg_control = NULL;
			m.msg_controllen = 0;
		}
		sendmsg(v->echo_fd, &m, MSG_DONTWAIT);
	}
}

/* ------------------------------------------------------------ leases */

/*
 * The ports in use, read once a round when a lease is due: the sockets'
 * (sock_diag) and, with the hook, the open flows conntrack has (a hooked
 * flow's socket has a port of its own).
 */
struct in_use {
	struct srv			*v;
	struct sluice_i_port_peer	*socks, *flows;
	int				n_socks, n_flows;	/* -1: not read */
};

static bool in_use(void *arg, uint32_t addr, uint16_t sport)
{
	struct in_use *u = arg;

	if (u->n_socks < 0) {
		u->n_socks = sluice_i_tcp_socks(&u->socks);
		if (u->n_socks < 0) {
			say(u->v, "sock_diag: %s: leases end at their time",
			     strerror(-u->n_socks));
			u->n_socks = 0;
			u->socks = NULL;
		}
	}
	if (u->n_flows < 0 && u->v->hook) {
		u->n_flows = sluice_i_agent_hook_flows(u->v->hook, &u->flows);
		if (u->n_flows < 0) {
			say(u->v, "conntrack: %s: hooked flows' leases end at their time",
			     strerror(-u->n_flows));
			u->n_flows = 0;
			u->flows = NULL;
		}
	}
	return sluice_i_port_peer_has(u->socks, u->n_socks, sport, addr) ||
	       (u->n_flows > 0 &&
		sluice_i_port_peer_has(u->flows, u->n_flows, sport, addr));
}

static void round_all(struct srv *v, uint64_t now)
{
	struct in_use u = { .v = v, .n_socks = -1, .n_flows = -1 };
	uint32_t d, ended;

	for (d = 0; d < v->a->n_dst; d++)
		probe_dst(v, d, now);
	ended = sluice_faca_expire(v->a, now, in_use, &u);
	free(u.socks);
	free(u.flows);
	if (ended)
		say(v, "%u lease%s expired", ended, ended == 1 ? "" : "s");
}

/* ------------------------------------------------------------ clients */

static void reply(struct client *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reply(struct client *c, const char *fmt, ...)
{
	char line[LINE_MAX_LEN + 64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	send(c->fd, line, n, MSG_NOSIGNAL);
}

static void reply_err(struct client *c, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void reply_err(struct client *c, int error, const char *fmt, ...)
{
	char msg[LINE_MAX_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	reply(c, "err %d %s", error, msg);
}

static void place(struct srv *v, struct client *c, uint64_t now)
{
	struct sluice_faca_dst *d = &v->a->dst[c->dst];
	char addr[INET_ADDRSTRLEN];
	uint16_t sport;
	int idx;

	c->waiting = false;
	ntoa(d->addr, addr);
	idx = sluice_faca_place(v->a, c->dst, now, c->lease_ns, &sport);
	if (idx == -EAGAIN) {
		reply_err(c, EHOSTUNREACH,
			  "no probe to %s came back with a path", addr);
		return;
	}
	if (idx == -EBUSY) {
		reply_err(c, EBUSY,
			  "every port of every path to %s is leased", addr);
		return;
	}
	if (idx < 0) {
		reply_err(c, -idx, "%s", strerror(-idx));
		return;
	}
	reply(c, "ok %u %d %u", sport, idx, d->n_paths);
	say(v, "%s: port %u on path %d (E %.6g) leased", addr, sport, idx,
	     d->path[idx].E);
}

/* Whether @dst's first round is over: nothing of it outstanding. */
static bool found(const struct srv *v, uint32_t dst)
{
	return v->a->dst[dst].found;
}

/* A destination named in a request, added (and probed) if new. */
static int dst_of(struct srv *v, struct client *c, const char *word,
		  uint64_t now)
{
	struct in_addr in;
	int idx, known;

	if (!word || inet_pton(AF_INET, word, &in) != 1) {
		reply_err(c, EINVAL, "\"%s\" is not an IPv4 address",
			  word ? word : "");
		return -EINVAL;
	}
	known = sluice_faca_dst_find(v->a, in.s_addr);
	idx = sluice_faca_dst_add(v->a, in.s_addr, now);
	if (idx < 0) {
		reply_err(c, -idx, "%s: %s", word,
			  idx == -ENOSPC ? "too many destinations" :
			  idx == -EINVAL ? "not a unicast address" :
			  strerror(-idx));
		return idx;
	}
	if (known < 0) {
		say(v, "%s: new destination", word);
		probe_dst(v, idx, now);
	}
	return idx;
}

static bool number(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return !errno && !*end && *v <= max;
}

/* The table, and the hook's settings and counters when it runs. */
static char *show(const struct srv *v, uint64_t now)
{
	json_object *o = sluice_i_faca_json(v->a, now), *h;

	if (o && v->hook) {
		h = sluice_i_agent_hook_json(v->hook);
		if (!h || json_object_object_add(o, "hook", h)) {
			json_object_put(h);
			json_object_put(o);
			return NULL;
		}
	}
	return sluice_i_json_text(o);
}

/* One request line; false if the client is to be closed. */
static bool handle(struct srv *v, struct client *c, char *line, uint64_t now)
{
	char *save, *cmd, *w1, *w2, *json;
	unsigned long n;
	struct in_addr in;
	int idx;

	cmd = strtok_r(line, " \t", &save);
	w1 = strtok_r(NULL, " \t", &save);
	w2 = strtok_r(NULL, " \t", &save);
	if (cmd && !strcmp(cmd, "sport")) {
		if (w2 && !number(w2, UINT32_MAX, &n)) {
			reply_err(c, EINVAL, "\"%s\" is not a lease in ms", w2);
			return true;
		}
		idx = dst_of(v, c, w1, now);
		if (idx < 0)
			return true;
		c->dst = idx;
		c->lease_ns = w2 ? n * 1000000ull : v->a->o.lease_ns;
		/*
		 * a destination found a moment ago: the answer waits for the
		 * echoes of its first probes (up to the timeout), so that
		 * Flowing&Jumping sees all its paths
		 */
		c->waiting = true;
		c->deadline_ns = v->a->dst[idx].added_ns + v->a->o.timeout_ns;
		if (found(v, idx) || now >= c->deadline_ns)
			place(v, c, now);
		return true;
	}
	if (cmd && !strcmp(cmd, "release")) {
		if (!w1 || inet_pton(AF_INET, w1, &in) != 1 ||
		    !number(w2, UINT16_MAX, &n))
			reply_err(c, EINVAL, "release ADDR PORT");
		else if (sluice_faca_release(v->a, in.s_addr, n, now))
			reply_err(c, ENOENT, "no lease of port %lu to %s", n,
				  w1);
		else
			reply(c, "ok");
		return true;
	}
	if (cmd && !strcmp(cmd, "add")) {
		if (dst_of(v, c, w1, now) >= 0)
			reply(c, "ok");
		return true;
	}
	if (cmd && !strcmp(cmd, "show") && !w1) {
		json = show(v, now);
		if (!json) {
			reply_err(c, ENOMEM, "out of memory");
			return true;
		}
		send(c->fd, "ok ", 3, MSG_NOSIGNAL);
		send(c->fd, json, strlen(json), MSG_NOSIGNAL);
		send(c->fd, "\n", 1, MSG_NOSIGNAL);
		free(json);
		return true;
	}
	reply_err(c, EINVAL, "unknown request (sport, release, add, show)");
	return false;
}

static void client_close(struct srv *v, uint32_t i)
{
	close(v->cl[i].fd);
	v->cl[i] = v->cl[--v->n_cl];
}

/* The requests client @i has sent whole; false if it was closed. */
static bool client_lines(struct srv *v, uint32_t i, uint64_t now)
{
	struct client *c = &v->cl[i];
	char *nl;

	/* a request at a time: the next waits for the last one's reply */
	while (!c->waiting && (nl = strchr(c->buf, '\n'))) {
		*nl = '\0';
		if (nl > c->buf && nl[-1] == '\r')
			nl[-1] = '\0';
		if (!handle(v, c, c->buf, now)) {
			client_close(v, i);
			return false;
		}
		c->len -= nl + 1 - c->buf;
		memmove(c->buf, nl + 1, c->len + 1);
	}
	if (c->len == sizeof(c->buf) - 1 && !strchr(c->buf, '\n')) {
		reply_err(c, EMSGSIZE, "a request is one line of at most %d bytes",
			  LINE_MAX_LEN - 2);
		client_close(v, i);
		return false;
	}
	return true;
}

/* What client @i sent; false if it is gone. */
static bool client_read(struct srv *v, uint32_t i, uint64_t now)
{
	struct client *c = &v->cl[i];
	ssize_t n;

	n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len,
		 MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return true;
	if (n <= 0) {
		client_close(v, i);
		return false;
	}
	c->seen_ns = now;
	c->len += n;
	c->buf[c->len] = '\0';
	return client_lines(v, i, now);
}

static void client_accept(struct srv *v, uint64_t now)
{
	struct timeval tv = { .tv_usec = SEND_TIMEOUT_MS * 1000 };
	int fd;

	for (;;) {
		fd = accept4(v->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			return;
		if (v->n_cl == CLIENTS_MAX) {
			close(fd);
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		v->cl[v->n_cl++] = (struct client){ .fd = fd, .seen_ns = now };
	}
}

/* Answers the "sport" requests whose destination's round is over. */
static void clients_due(struct srv *v, uint64_t now)
{
	struct client *c;
	uint32_t i = 0;

	while (i < v->n_cl) {
		c = &v->cl[i];
		if (c->waiting && (found(v, c->dst) || now >= c->deadline_ns)) {
			place(v, c, now);
			/* the requests that waited behind it */
			if (!client_lines(v, i, now))
				continue;
		}
		if (!c->waiting && now > c->seen_ns + CLIENT_IDLE_NS) {
			client_close(v, i);
			continue;
		}
		i++;
	}
}

/* ------------------------------------------------------------ setup */

/*
 * The unix socket, replacing a dead agent's; -EADDRINUSE for a live one.
 * It is bound and listening under a name of its own ("PATH~") and only
 * then renamed to @path: a client that sees @path can connect at once
 * (bound but not yet listening, it would be refused).
 */
static int listen_unix(struct srv *v, const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char tmp[sizeof(sun.sun_path)];
	int fd, ret;

	if (strlen(path) + 1 >= sizeof(sun.sun_path))
		return sluice_i_errf(v->err, v->errlen, -ENAMETOOLONG,
				     "%s: too long for a unix socket", path);
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return sluice_i_errf(v->err, v->errlen, -errno, "socket: %s",
				     strerror(errno));
	if (!connect(fd, (struct sockaddr *)&sun, sizeof(sun)) ||
	    errno == EAGAIN) {
		close(fd);
		return sluice_i_errf(v->err, v->errlen, -EADDRINUSE,
				     "an agent already serves %s", path);
	}
	/* a dead agent's socket, and a half-made one */
	if (errno == ECONNREFUSED)
		unlink(path);
	snprintf(tmp, sizeof(tmp), "%s~", path);
	unlink(tmp);
	strcpy(sun.sun_path, tmp);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) ||
	    chmod(tmp, 0666) || listen(fd, 64) || rename(tmp, path)) {
		ret = sluice_i_errf(v->err, v->errlen, -errno, "%s: %s", path,
				    strerror(errno));
		unlink(tmp);
		close(fd);
		return ret;
	}
	snprintf(v->path, sizeof(v->path), "%s", path);
	v->listen_fd = fd;
	return 0;
}

/* A destination a hooked flow added: probed at once, as a request's is. */
static void hook_added(void *arg, uint32_t dst, uint64_t now)
{
	probe_dst(arg, dst, now);
}

static int open_hook(struct srv *v)
{
	int ret;

	ret = sluice_i_agent_hook_open(&v->hook, v->a, v->s, hook_added, v,
				       v->err, v->errlen);
	if (!ret)
		say(v, "hook on NFQUEUE %u (table ip sluice_faca): new %s flows placed",
		    v->s->hook->queue, v->s->hook->udp ? "TCP and UDP" : "TCP");
	return ret;
}

static int open_sockets(struct srv *v)
{
	const struct sluice_faca_opts *o = &v->a->o;
	char path[sizeof(v->path)], msg[256];
	char ranges[SLUICE_FACA_RANGES_MAX * 12];
	uint32_t k, bound = 0;
	int ret;

	v->echo_fd = sluice_int_socket(o->port, o->tos, v->err, v->errlen);
	if (v->echo_fd < 0)
		return v->echo_fd;
	if (setsockopt(v->echo_fd, IPPROTO_IP, IP_PKTINFO, &(int){ 1 },
		       sizeof(int)))
		return sluice_i_errf(v->err, v->errlen, -errno,
				     "IP_PKTINFO: %s", strerror(errno));
	v->pool_fd = malloc(v->a->n_sports * sizeof(*v->pool_fd));
	if (!v->pool_fd)
		return sluice_i_errf(v->err, v->errlen, -ENOMEM,
				     "out of memory");
	for (k = 0; k < v->a->n_sports; k++) {
		v->pool_fd[k] = sluice_int_socket(v->a->port[k], o->tos, msg,
						  sizeof(msg));
		if (v->pool_fd[k] < 0)
			say(v, "source port %u left out: %s", v->a->port[k],
			     msg);
		else
			bound++;
	}
	sluice_faca_ranges_format(o, ranges, sizeof(ranges));
	if (!bound)
		return sluice_i_errf(v->err, v->errlen, -EADDRINUSE,
				     "no source port of %s could be bound",
				     ranges);
	if (!v->s->socket) {
		ret = sluice_faca_socket_path(path, sizeof(path), v->err,
					      v->errlen);
		if (ret)
			return ret;
		if (mkdir(SLUICE_FACA_SOCKET_DIR, 0755) && errno != EEXIST)
			return sluice_i_errf(v->err, v->errlen, -errno,
					     "%s: %s", SLUICE_FACA_SOCKET_DIR,
					     strerror(errno));
	}
	ret = listen_unix(v, v->s->socket ? v->s->socket : path);
	if (ret)
		return ret;
	say(v, "serving %s; probes to UDP port %u from %s (%u bound), every %.3f s",
	    v->path, o->port, ranges, bound, o->interval_ns / 1e9);
	if (v->s->hook) {
		ret = open_hook(v);
		if (ret)
			return ret;
	}
	/* ready once every socket, the hook's too, is open */
	if (v->s->ready)
		v->s->ready(v->s->ready_arg, v->path);
	return 0;
}

static void close_all(struct srv *v)
{
	uint32_t k;
	int open;

	/* the hook first: packets waiting for a verdict go on at once */
	open = sluice_i_agent_hook_close(v->hook);
	if (open > 0)
		say(v, "hook: table ip sluice_faca left for %d rewritten flow%s still open (new flows bypass it)",
		    open, open == 1 ? "" : "s");
	else if (open < 0)
		say(v, "hook: table ip sluice_faca left: the rewritten flows cannot be counted (%s)",
		    strerror(-open));

	while (v->n_cl)
		client_close(v, 0);
	if (v->listen_fd >= 0) {
		close(v->listen_fd);
		unlink(v->path);
	}
	if (v->echo_fd >= 0)
		close(v->echo_fd);
	for (k = 0; v->pool_fd && k < v->a->n_sports; k++)
		if (v->pool_fd[k] >= 0)
			close(v->pool_fd[k]);
	free(v->pool_fd);
	free(v->out);
	free(v->pfd);
}

/* ------------------------------------------------------------ the loop */

/* How long poll() may sleep, in ms (rounded up). */
static int sleep_ms(const struct srv *v, uint64_t now)
{
	uint64_t until = v->next_round, i;

	/* the oldest probe out times out first */
	if (v->head < v->n_out &&
	    v->out[v->head].sent_ns + v->a->o.timeout_ns < until)
		until = v->out[v->head].sent_ns + v->a->o.timeout_ns;
	for (i = 0; i < v->n_cl; i++)
		if (v->cl[i].waiting && v->cl[i].deadline_ns < until)
			until = v->cl[i].deadline_ns;
	if (v->hook)
		until = sluice_i_agent_hook_wake(v->hook, until);
	if (until <= now)
		return 0;
	return (int)((until - now + 999999) / 1000000);
}

/* poll()s once and handles what is ready. */
static int step(struct srv *v)
{
	uint32_t n_pool = v->a->n_sports, k, n, i;
	uint64_t now = mono_ns();
	int ret;

	if (now >= v->next_round) {
		round_all(v, now);
		v->next_round += v->a->o.interval_ns;
		if (v->next_round <= now)
			v->next_round = now + v->a->o.interval_ns;
	}
	time_out(v, now);
	clients_due(v, now);
	/* hooked flows that wait for a round: the echoes taken may end it */
	if (v->hook) {
		ret = sluice_i_agent_hook_run(v->hook, false, now, v->err,
					      v->errlen);
		if (ret)
			return ret;
	}
	v->pfd[PFD_ECHO] = (struct pollfd){ .fd = v->echo_fd, .events = POLLIN };
	v->pfd[PFD_LISTEN] = (struct pollfd){ .fd = v->listen_fd,
					      .events = POLLIN };
	/* a negative descriptor is left out */
	v->pfd[PFD_HOOK] = (struct pollfd){
		.fd = v->hook ? sluice_i_agent_hook_fd(v->hook) : -1,
		.events = POLLIN,
	};
	for (k = 0; k < n_pool; k++)
		v->pfd[PFD_POOL + k] = (struct pollfd){ .fd = v->pool_fd[k],
							.events = POLLIN };
	for (i = 0; i < v->n_cl; i++)
		v->pfd[PFD_POOL + n_pool + i] = (struct pollfd){
			.fd = v->cl[i].fd, .events = POLLIN,
		};
	n = PFD_POOL + n_pool + v->n_cl;
	ret = poll(v->pfd, n, sleep_ms(v, now));
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	now = mono_ns();
	if (v->pfd[PFD_ECHO].revents)
		answer_probes(v);
	for (k = 0; k < n_pool; k++)
		if (v->pfd[PFD_POOL + k].revents)
			receive(v, k, now);
	if (v->pfd[PFD_HOOK].revents) {
		ret = sluice_i_agent_hook_run(v->hook, true, now, v->err,
					      v->errlen);
		if (ret)
			return ret;
	}
	/* backwards: a client closed moves the last one into its place */
	for (i = n - PFD_POOL - n_pool; i-- > 0;)
		if (v->pfd[PFD_POOL + n_pool + i].revents)
			client_read(v, i, now);
	if (v->pfd[PFD_LISTEN].revents)
		client_accept(v, now);
	return 0;
}

int sluice_faca_serve(struct sluice_faca *a, const struct sluice_faca_serve *s,
		      char *err, size_t errlen)
{
	struct srv v = {
		.a = a, .s = s, .echo_fd = -1, .listen_fd = -1,
		.err = err, .errlen = errlen,
	};
	uint32_t d;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	v.pfd = sluice_i_calloc(PFD_POOL + a->n_sports + CLIENTS_MAX,
				sizeof(*v.pfd));
	ret = v.pfd ? open_sockets(&v) :
	      sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	v.next_round = mono_ns();
	/* destinations given before: new now, their first round ahead */
	for (d = 0; d < a->n_dst; d++)
		a->dst[d].added_ns = v.next_round;
	while (!ret && !(s->stop && *s->stop))
		ret = step(&v);
	if (ret && err && !err[0])
		sluice_i_errf(err, errlen, ret, "%s", strerror(-ret));
	close_all(&v);
	return ret;
}
