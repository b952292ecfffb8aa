// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flow completion times over TCP (sluice/tcpgen.h): flow size
 * distributions, a plan of flows, the engine that runs it, and the
 * summary of its FCTs.
 *
 * The engine is one thread and one epoll set.  Every host listens on one
 * socket made inside its namespace, bound to its own address (so that
 * hosts sharing a namespace, loopback ones for instance, share a port).
 * A flow is a nonblocking connection made inside its source's namespace
 * at its planned start - a socket stays in the namespace it was made in,
 * so the thread enters a namespace only to make sockets, and stays there
 * until it needs another.  The sender writes the flow's bytes, its first
 * SLUICE_TCPGEN_HDR naming it; the listener's side accepts, learns the
 * flow from them and reads until it has the whole flow, and then both
 * ends close.  At most max_open flows are open at once: a flow due while
 * they are is started when one closes, and its FCT counts the wait.
 *
 * Flows are started in order of planned start, so their deadlines (the
 * planned start plus the timeout) come in the order they were started:
 * the oldest open flow is the only one whose deadline needs watching.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sluice/experiment.h>
#include <sluice/fabric_nl.h>
#include <sluice/tcpgen.h>
#include "graph/internal.h"
#include "fabric/internal.h"

#define BUF_LEN		(64 * 1024)
/*
 * Bytes one event may move: loopback or a fast veth drains a socket as
 * fast as it is written, so a big flow would keep the thread from the
 * flows due meanwhile.  The level-triggered event comes back for the rest.
 */
#define EVENT_BYTES	(4 * BUF_LEN)
#define EV_BATCH	256
#define BACKLOG		4096
/* Accepted connections beyond one per open flow: strays, or the late. */
#define SPARE_CONNS	64
/* Descriptors beyond the flows': stdio, epoll, our namespace, the caller's. */
#define SPARE_FDS	32
#define NONE		UINT32_MAX
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * The web search workload of DCTCP (Alizadeh et al., SIGCOMM 2010), as the
 * traffic generator of HPCC (Li et al., SIGCOMM 2019) has it:
 * github.com/alibaba-edu/High-Precision-Congestion-Control,
 * traffic_gen/WebSearch_distribution.txt (bytes, CDF %).  Mean 1.71 MB.
 */
static const struct sluice_tcpgen_cdf websearch[] = {
	{ 0, 0 }, { 10000, 15 }, { 20000, 20 }, { 30000, 30 },
	{ 50000, 40 }, { 80000, 53 }, { 200000, 60 }, { 1000000, 70 },
	{ 2000000, 80 }, { 5000000, 90 }, { 10000000, 97 },
	{ 30000000, 100 },
};

/*
 * Facebook's Hadoop cluster (Roy et al., "Inside the Social Network's
 * (Datacenter) Network", SIGCOMM 2015), as HPCC's traffic generator has
 * it: traffic_gen/FbHdp_distribution.txt of the same repository.  Mean
 * 120 KB: half the flows are under 700 bytes, 1 % over 2 MB.
 */
static const struct sluice_tcpgen_cdf hadoop[] = {
	{ 0, 0 }, { 100, 1 }, { 200, 2 }, { 300, 5 }, { 350, 15 },
	{ 400, 20 }, { 500, 30 }, { 600, 40 }, { 700, 50 }, { 1000, 60 },
	{ 2000, 67 }, { 7000, 70 }, { 30000, 72 }, { 50000, 82 },
	{ 80000, 87 }, { 120000, 90 }, { 300000, 95 }, { 1000000, 97.5 },
	{ 2000000, 99 }, { 10000000, 100 },
};

const struct sluice_tcpgen_dist sluice_tcpgen_websearch = {
	.name = "websearch",
	.pt = websearch,
	.n = ARRAY_SIZE(websearch),
};

const struct sluice_tcpgen_dist sluice_tcpgen_hadoop = {
	.name = "hadoop",
	.pt = hadoop,
	.n = ARRAY_SIZE(hadoop),
};

/* By name ("websearch", "hadoop"), or NULL.  O(1). */
const struct sluice_tcpgen_dist *sluice_tcpgen_dist_find(const char *name)
{
	if (!strcmp(name, sluice_tcpgen_websearch.name))
		return &sluice_tcpgen_websearch;
	if (!strcmp(name, sluice_tcpgen_hadoop.name))
		return &sluice_tcpgen_hadoop;
	return NULL;
}

/* A uniform double in [0, 1): the top 53 bits of the generator.  O(1). */
double sluice_tcpgen_uniform(struct sluice_rng *r)
{
	return (sluice_rng_next(r) >> 11) * 0x1.0p-53;
}

/**
 * sluice_tcpgen_sample() - a flow size drawn from a distribution
 * @d:		the distribution, its points checked (a plan checks them)
 * @scale:	sizes times this, > 0
 * @r:		the generator, one draw
 *
 * The inverse of the CDF, linear between its points: a uniform u in
 * [0, 100) falls between two points' percentages, and the size lies as far
 * between their sizes.  Rounded to the nearest byte, at least 1.
 */
uint64_t sluice_tcpgen_sample(const struct sluice_tcpgen_dist *d,
			      double scale, struct sluice_rng *r)
{
	double u = sluice_tcpgen_uniform(r) * 100, x;
	const struct sluice_tcpgen_cdf *a, *b;
	uint32_t i;

	/* the first point above u: the last point is 100 %, above any u */
	for (i = 1; i < d->n - 1 && d->pt[i].pct <= u; i++)
		;
	a = &d->pt[i - 1];
	b = &d->pt[i];
	x = a->bytes + (u - a->pct) / (b->pct - a->pct) * (b->bytes - a->bytes);
	x = round(x * scale);
	return x < 1 ? 1 : (uint64_t)x;
}

/**
 * sluice_tcpgen_mean() - the mean size of a distribution, scaled
 * @d:		the distribution
 * @scale:	sizes times this
 *
 * Of the piecewise linear CDF: each segment is uniform, its mean the
 * midpoint of its sizes.  The rounding and the 1-byte minimum of
 * sluice_tcpgen_sample() are left out: they move it by under a byte.
 */
double sluice_tcpgen_mean(const struct sluice_tcpgen_dist *d, double scale)
{
	double s = 0;
	uint32_t i;

	for (i = 1; i < d->n; i++)
		s += (d->pt[i].pct - d->pt[i - 1].pct) / 100 *
		     (d->pt[i].bytes + d->pt[i - 1].bytes) / 2;
	return s * scale;
}

/**
 * sluice_tcpgen_dist_check() - whether @d is a CDF a plan can draw from
 * @d:		the distribution
 * @err:	the message if not
 * @errlen:	room in @err
 *
 * Points from 0 % to 100 %, neither sizes nor percentages going back,
 * sizes not negative.
 *
 * Return: 0 or -EINVAL.
 */
int sluice_tcpgen_dist_check(const struct sluice_tcpgen_dist *d, char *err,
			     size_t errlen)
{
	uint32_t i;

	if (!d || !d->pt || d->n < 2 || d->pt[0].pct != 0 ||
	    d->pt[d->n - 1].pct != 100 || d->pt[0].bytes < 0)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "a distribution needs points from 0 %% to 100 %%");
	for (i = 1; i < d->n; i++)
		if (d->pt[i].pct < d->pt[i - 1].pct ||
		    d->pt[i].bytes < d->pt[i - 1].bytes)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "distribution %s: point %u goes back",
					     d->name ? d->name : "", i);
	return 0;
}

/**
 * sluice_tcpgen_plan_add() - a new flow at the end of a plan
 * @p:		the plan
 *
 * Zeroed, its results blank (negative FCT, lateness and first byte).
 *
 * Return: the flow, or NULL if out of memory.
 */
struct sluice_tcpgen_flow *sluice_tcpgen_plan_add(struct sluice_tcpgen_plan *p)
{
	struct sluice_tcpgen_flow *fl;

	if (p->n_flows == UINT32_MAX ||
	    SLUICE_I_GROW(p->fl, p->cap, (uint64_t)p->n_flows + 1))
		return NULL;
	fl = &p->fl[p->n_flows++];
	memset(fl, 0, sizeof(*fl));
	fl->fct = -1;
	fl->late = -1;
	fl->first_byte = -1;
	return fl;
}

/**
 * sluice_tcpgen_plan() - Poisson arrivals of flows at every host
 * @p:		flows appended to it; zeroed at first
 * @l:		hosts, sizes, load, duration, seed
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * Each host starts flows as a Poisson process: the times between them are
 * exponential with mean (mean size * 8) / (load * rate), so that a host
 * sends @l->load of its link on average.  A flow's destination is uniform
 * among the other hosts, its size drawn from the distribution.  Hosts are
 * planned in turn, each flow drawing its gap, destination and size in that
 * order, from one generator seeded with @l->seed: the same load and seed
 * give the same flows.
 *
 * Return: 0, -EINVAL (a value out of range), -E2BIG (over 1e8 flows
 * expected) or -ENOMEM, with @p as it was.
 */
int sluice_tcpgen_plan(struct sluice_tcpgen_plan *p,
		       const struct sluice_tcpgen_load *l,
		       char *err, size_t errlen)
{
	uint32_t k, d, n0 = p->n_flows;
	struct sluice_tcpgen_flow *fl;
	struct sluice_rng r;
	double gap, at;
	int ret;

	ret = sluice_tcpgen_dist_check(l->dist, err, errlen);
	if (ret)
		return ret;
	if (l->n_hosts < 2 || !(l->scale > 0) || !isfinite(l->scale) ||
	    !(l->rate > 0) || !isfinite(l->rate) || !(l->load > 0) ||
	    l->load > 1 || !(l->duration > 0) || !isfinite(l->duration))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "a load needs 2 hosts or more, a scale and rate above 0, a load in (0, 1] and a duration above 0");
	gap = sluice_tcpgen_mean(l->dist, l->scale) * 8 / (l->load * l->rate);
	if (!(gap > 0) || l->n_hosts * l->duration / gap > 1e8)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "about %g flows: too many, scale the sizes up or shorten the run",
				     l->n_hosts * l->duration / gap);
	sluice_rng_seed(&r, l->seed);
	for (k = 0; k < l->n_hosts; k++) {
		at = -gap * log(1 - sluice_tcpgen_uniform(&r));
		for (; at < l->duration;
		     at += -gap * log(1 - sluice_tcpgen_uniform(&r))) {
			fl = sluice_tcpgen_plan_add(p);
			if (!fl) {
				p->n_flows = n0;
				return sluice_i_errf(err, errlen, -ENOMEM,
						     "out of memory");
			}
			d = sluice_rng_below(&r, l->n_hosts - 1);
			fl->src = k;
			fl->dst = d >= k ? d + 1 : d;
			fl->size = sluice_tcpgen_sample(l->dist, l->scale, &r);
			fl->start = at;
			fl->tag = l->tag;
		}
	}
	return 0;
}

/**
 * sluice_tcpgen_plan_incast() - many sources to one destination at once
 * @p:		flows appended to it
 * @src:	the sources' host indexes
 * @n_src:	how many, at least 1
 * @dst:	the destination, not among @src
 * @size:	bytes of every flow, at least 1
 * @start:	planned start of every flow, s after the run's start
 * @tag:	given to every flow
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * Return: 0, -EINVAL or -ENOMEM, with @p as it was.
 */
int sluice_tcpgen_plan_incast(struct sluice_tcpgen_plan *p,
			      const uint32_t *src, uint32_t n_src,
			      uint32_t dst, uint64_t size, double start,
			      uint32_t tag, char *err, size_t errlen)
{
	uint32_t i, n0 = p->n_flows;
	struct sluice_tcpgen_flow *fl;

	if (!n_src || !size || !(start >= 0) || !isfinite(start))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "an incast needs a source, a size of 1 byte or more and a start of 0 s or later");
	for (i = 0; i < n_src; i++)
		if (src[i] == dst)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "incast to host %u from itself",
					     dst);
	for (i = 0; i < n_src; i++) {
		fl = sluice_tcpgen_plan_add(p);
		if (!fl) {
			p->n_flows = n0;
			return sluice_i_errf(err, errlen, -ENOMEM,
					     "out of memory");
		}
		fl->src = src[i];
		fl->dst = dst;
		fl->size = size;
		fl->start = start;
		fl->tag = tag;
	}
	return 0;
}

void sluice_tcpgen_plan_free(struct sluice_tcpgen_plan *p)
{
	free(p->fl);
	memset(p, 0, sizeof(*p));
}

const char *sluice_tcpgen_status_name(enum sluice_tcpgen_status s)
{
	switch (s) {
	case SLUICE_TCPGEN_PENDING:
		return "pending";
	case SLUICE_TCPGEN_OPEN:
		return "open";
	case SLUICE_TCPGEN_DONE:
		return "done";
	case SLUICE_TCPGEN_TIMEOUT:
		return "timeout";
	case SLUICE_TCPGEN_FAILED:
		return "failed";
	}
	return "?";
}

/**
 * sluice_tcpgen_init() - an engine for the given hosts, no sockets yet
 * @t:		filled; sluice_tcpgen_free() it
 * @hosts:	namespace ("" for the caller's) and address of each; copied
 * @n:		how many, at least 1
 * @o:		port, open flows, timeout, congestion control, DSCP
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * Return: 0, -EINVAL (no hosts, a bad option) or -ENOMEM.
 */
int sluice_tcpgen_init(struct sluice_tcpgen *t,
		       const struct sluice_tcpgen_host *hosts, uint32_t n,
		       const struct sluice_tcpgen_opts *o,
		       char *err, size_t errlen)
{
	uint32_t k;

	memset(t, 0, sizeof(*t));
	t->self_fd = t->epoll_fd = -1;
	t->cur = -1;
	if (!n || n > INT32_MAX)
		return sluice_i_errf(err, errlen, -EINVAL, "%u hosts", n);
	if (o->timeout < 0 || !isfinite(o->timeout))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "a flow timeout of %g s", o->timeout);
	if (o->progress_every < 0 || !isfinite(o->progress_every))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "progress every %g s", o->progress_every);
	if (o->cc && (!o->cc[0] || strlen(o->cc) >= sizeof(t->cc)))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "\"%s\" cannot be a congestion control's name",
				     o->cc);
	if (sluice_i_sport_check(&o->sport, err, errlen))
		return -EINVAL;
	t->o = *o;
	if (!t->o.max_open)
		t->o.max_open = SLUICE_TCPGEN_MAX_OPEN;
	if (t->o.max_open > (1u << 20))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%u flows open at once: at most %u",
				     t->o.max_open, 1u << 20);
	if (o->cc)
		strcpy(t->cc, o->cc);
	t->o.cc = o->cc ? t->cc : NULL;
	t->h = calloc(n, sizeof(*t->h));
	if (!t->h)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	t->n_hosts = n;
	for (k = 0; k < n; k++) {
		t->h[k] = hosts[k];
		t->h[k].ns[sizeof(t->h[k].ns) - 1] = '\0';
		t->h[k].port = 0;
		t->h[k].listen_fd = t->h[k].ns_fd = -1;
	}
	return 0;
}

/**
 * sluice_tcpgen_init_fabric() - an engine for every host of a fabric
 * @t:		filled; sluice_tcpgen_free() it
 * @f:		the fabric's plan; host k is its k-th host, as in udpgen
 * @o:		as for sluice_tcpgen_init()
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * Return: as sluice_tcpgen_init().
 */
int sluice_tcpgen_init_fabric(struct sluice_tcpgen *t,
			      const struct sluice_fabric *f,
			      const struct sluice_tcpgen_opts *o,
			      char *err, size_t errlen)
{
	struct sluice_tcpgen_host *h;
	uint32_t u, i, k;
	int ret;

	h = calloc(f->n_hosts ? f->n_hosts : 1, sizeof(*h));
	if (!h)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	for (u = 0, k = 0; u < f->g->n_nodes; u++)
		for (i = 0; i < f->hosts[u]; i++, k++) {
			sluice_fabric_host_ns(f, u, i, h[k].ns,
					      sizeof(h[k].ns));
			h[k].addr = sluice_fabric_host_addr(u, i, true);
		}
	ret = sluice_tcpgen_init(t, h, f->n_hosts, o, err, errlen);
	free(h);
	return ret;
}

void sluice_tcpgen_free(struct sluice_tcpgen *t)
{
	uint32_t k;

	for (k = 0; t->h && k < t->n_hosts; k++) {
		if (t->h[k].listen_fd >= 0)
			close(t->h[k].listen_fd);
		if (t->h[k].ns_fd >= 0)
			close(t->h[k].ns_fd);
	}
	if (t->self_fd >= 0)
		close(t->self_fd);
	if (t->epoll_fd >= 0)
		close(t->epoll_fd);
	free(t->h);
	free(t->buf);
	memset(t, 0, sizeof(*t));
	t->self_fd = t->epoll_fd = -1;
	t->cur = -1;
}

static const char *ns_label(const struct sluice_tcpgen_host *h)
{
	return h->ns[0] ? h->ns : "this namespace";
}

/*
 * Into host @k's namespace (-1: the caller's), unless the thread is there
 * already: consecutive sockets of one namespace cost no setns().
 */
static int enter(struct sluice_tcpgen *t, int k, char *err, size_t errlen)
{
	int want = k >= 0 && t->h[k].ns_fd >= 0 ? k : -1, ret;

	if (want == t->cur)
		return 0;
	ret = sluice_netns_enter_fd(want < 0 ? t->self_fd : t->h[want].ns_fd,
				    want < 0 ? "of this process" :
				    t->h[want].ns, err, errlen);
	if (!ret)
		t->cur = want;
	return ret;
}

/*
 * The descriptors a run may hold at once: a listener and a namespace per
 * host, a sender and an accepted socket per open flow, stray accepts.
 */
static uint64_t fds_needed(const struct sluice_tcpgen *t)
{
	return 2 * (uint64_t)t->n_hosts + 2 * (uint64_t)t->o.max_open +
	       SPARE_CONNS + SPARE_FDS;
}

/*
 * The soft limit on descriptors raised to the hard one: a run holds two
 * per open flow, and the default soft limit (1024) is below what the
 * default max_open needs.
 */
static int raise_nofile(const struct sluice_tcpgen *t, char *err,
			size_t errlen)
{
	uint64_t need = fds_needed(t);
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return sluice_i_errf(err, errlen, -errno, "RLIMIT_NOFILE: %s",
				     strerror(errno));
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			return sluice_i_errf(err, errlen, -errno,
					     "raising RLIMIT_NOFILE to %llu: %s",
					     (unsigned long long)rl.rlim_max,
					     strerror(errno));
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need)
		return sluice_i_errf(err, errlen, -EMFILE,
				     "%u hosts and %u flows open at once need %llu descriptors, the hard limit is %llu: lower the flows open at once or raise the limit (ulimit -Hn)",
				     t->n_hosts, t->o.max_open,
				     (unsigned long long)need,
				     (unsigned long long)rl.rlim_cur);
	return 0;
}

static int set_cc(const struct sluice_tcpgen *t, int fd)
{
	if (t->o.cc && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, t->o.cc,
				  strlen(t->o.cc)))
		return -errno;
	return 0;
}

/* What an epoll event is about: the kind above an index. */
enum { K_LISTEN, K_SEND, K_RECV };

static uint64_t key(int kind, uint32_t i)
{
	return (uint64_t)kind << 32 | i;
}

/* Host @k's listener, made in the namespace the thread is in. */
static int listener(struct sluice_tcpgen *t, uint32_t k, char *err,
		    size_t errlen)
{
	struct sluice_tcpgen_host *h = &t->h[k];
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(t->o.port),
		.sin_addr.s_addr = htonl(h->addr),
	};
	struct epoll_event ev = {
		.events = EPOLLIN,
		.data.u64 = key(K_LISTEN, k),
	};
	socklen_t len = sizeof(a);
	int one = 1, tos = t->o.tos, ret;
	char ip[INET_ADDRSTRLEN];

	h->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK |
			      SOCK_CLOEXEC, 0);
	if (h->listen_fd < 0)
		return sluice_i_errf(err, errlen, -errno, "a TCP socket in %s: %s",
				     ns_label(h), strerror(errno));
	/* accepted sockets inherit these: the receiver's ACKs go alike */
	if (setsockopt(h->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one,
		       sizeof(one)) ||
	    setsockopt(h->listen_fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)))
		return sluice_i_errf(err, errlen, -errno, "socket options in %s: %s",
				     ns_label(h), strerror(errno));
	ret = set_cc(t, h->listen_fd);
	if (ret)
		return sluice_i_errf(err, errlen, ret,
				     "congestion control %s in %s: %s (see net.ipv4.tcp_available_congestion_control)",
				     t->o.cc, ns_label(h), strerror(-ret));
	inet_ntop(AF_INET, &a.sin_addr, ip, sizeof(ip));
	if (bind(h->listen_fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(h->listen_fd, BACKLOG) ||
	    getsockname(h->listen_fd, (struct sockaddr *)&a, &len))
		return sluice_i_errf(err, errlen, -errno,
				     "listening on %s port %u in %s: %s", ip,
				     t->o.port, ns_label(h), strerror(errno));
	h->port = ntohs(a.sin_port);
	if (epoll_ctl(t->epoll_fd, EPOLL_CTL_ADD, h->listen_fd, &ev))
		return sluice_i_errf(err, errlen, -errno, "epoll: %s",
				     strerror(errno));
	return 0;
}

/**
 * sluice_tcpgen_open() - a listener in every host's namespace
 * @t:		from sluice_tcpgen_init()
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * Raises the soft limit on open files to the hard one, and fails if even
 * that is too low for max_open flows; keeps each host's namespace open
 * for the flows to come.  The thread ends in its own namespace.
 *
 * Return: 0 or a negative errno (-EMFILE: too few descriptors; the
 * congestion control or a port refused).
 */
int sluice_tcpgen_open(struct sluice_tcpgen *t, char *err, size_t errlen)
{
	uint32_t k;
	int ret, back;

	ret = raise_nofile(t, err, errlen);
	if (ret)
		return ret;
	t->buf = calloc(1, BUF_LEN);
	if (!t->buf)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	t->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (t->epoll_fd < 0)
		return sluice_i_errf(err, errlen, -errno, "epoll: %s",
				     strerror(errno));
	t->self_fd = sluice_netns_self(err, errlen);
	if (t->self_fd < 0)
		return t->self_fd;
	for (k = 0; !ret && k < t->n_hosts; k++) {
		if (t->h[k].ns[0]) {
			ret = sluice_netns_open(t->h[k].ns, err, errlen);
			if (ret < 0)
				break;
			t->h[k].ns_fd = ret;
		}
		ret = enter(t, k, err, errlen);
		if (!ret)
			ret = listener(t, k, err, errlen);
	}
	back = enter(t, -1, ret ? NULL : err, ret ? 0 : errlen);
	return ret ? ret : back;
}

/* A connection a listener accepted; its flow is known from its header. */
struct conn {
	int		fd;
	uint32_t	host;
	uint32_t	flow;		/* NONE until the header is in */
	uint32_t	next_free;
	uint64_t	got;
	double		t_first;	/* its first bytes read */
	unsigned char	hdr[SLUICE_TCPGEN_HDR];
};

/* A flow's sending side. */
struct sender {
	int		fd;
	uint16_t	leased;		/* the agent's port, given back at close */
	uint32_t	conn;		/* its receiving side, or NONE */
	bool		connected;
	bool		capped;
	uint64_t	sent;
	double		t_connect;
};

struct run {
	struct sluice_tcpgen		*t;
	struct sluice_tcpgen_flow	*fl;
	uint32_t			n;
	double				start;
	struct sender			*s;	/* per flow */
	struct sluice_i_sports		sp;
	uint32_t			*order;	/* flows by planned start */
	uint32_t			launched; /* into order: started */
	uint32_t			oldest;	/* into order: none older open */
	uint32_t			n_open, n_closed, n_done;
	double				next_progress;
	struct conn			*c;
	uint32_t			free_conn;
};

/* Bytes a flow puts on its connection: it names itself in its first. */
static uint64_t wire_bytes(const struct sluice_tcpgen_flow *fl)
{
	return fl->size < SLUICE_TCPGEN_HDR ? SLUICE_TCPGEN_HDR : fl->size;
}

static double due(const struct run *r, uint32_t q)
{
	return r->start + r->fl[q].start;
}

/*
 * Closes a flow's socket with a reset: a flow that completed has had every
 * byte read, so its ends have nothing left to say, and neither lingers in
 * TIME_WAIT (thousands of flows a second between two hosts would use up
 * the ephemeral ports); a flow that did not complete stops sending into
 * the fabric at once instead of from an orphaned socket.
 */
static void abort_close(int fd)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	close(fd);
}

static void conn_free(struct run *r, uint32_t ci)
{
	struct conn *c = &r->c[ci];

	if (c->fd >= 0)
		abort_close(c->fd);
	c->fd = -1;
	c->next_free = r->free_conn;
	r->free_conn = ci;
}

/* Flow @q ends with @status: both its ends closed. */
static void flow_close(struct run *r, uint32_t q,
		       enum sluice_tcpgen_status status, int error, double now)
{
	struct sluice_tcpgen_flow *fl = &r->fl[q];
	struct sender *s = &r->s[q];

	if (s->fd >= 0)
		abort_close(s->fd);
	s->fd = -1;
	sluice_i_sport_release(&r->sp, fl->src, r->t->h[fl->dst].addr,
			       s->leased);
	s->leased = 0;
	if (s->conn != NONE)
		conn_free(r, s->conn);
	s->conn = NONE;
	fl->status = status;
	fl->error = error;
	if (status == SLUICE_TCPGEN_DONE) {
		fl->fct = now - due(r, q);
		r->n_done++;
	}
	r->n_open--;
	r->n_closed++;
}

/* A flow's own DSCP, or the run's. */
static int flow_tos(const struct sluice_tcpgen *t,
		    const struct sluice_tcpgen_flow *fl)
{
	return fl->has_tos ? fl->tos : t->o.tos;
}

static int sender_socket(struct run *r, uint32_t q)
{
	const struct sluice_tcpgen_host *d = &r->t->h[r->fl[q].dst];
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(d->port),
		.sin_addr.s_addr = htonl(d->addr),
	};
	struct epoll_event ev = {
		.events = EPOLLOUT,
		.data.u64 = key(K_SEND, q),
	};
	int one = 1, tos = flow_tos(r->t, &r->fl[q]), fd, ret;
	struct sender *s = &r->s[q];

	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	s->fd = fd;
	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)))
		return -errno;
	ret = set_cc(r->t, fd);
	if (ret)
		return ret;
	ret = sluice_i_sport_bind(&r->sp, r->fl[q].src, q, d->addr, fd);
	if (ret < 0)
		return ret;
	s->leased = ret;
	s->t_connect = sluice_now();
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    errno != EINPROGRESS)
		return -errno;
	if (epoll_ctl(r->t->epoll_fd, EPOLL_CTL_ADD, fd, &ev))
		return -errno;
	return 0;
}

/*
 * Starts flow @q: its socket made in its source's namespace.  A flow that
 * cannot start fails on its own; only a namespace the thread cannot enter
 * ends the run.
 */
static int launch(struct run *r, uint32_t q, char *err, size_t errlen)
{
	int ret;

	ret = enter(r->t, r->fl[q].src, err, errlen);
	if (ret)
		return ret;
	r->fl[q].status = SLUICE_TCPGEN_OPEN;
	r->fl[q].late = sluice_now() - due(r, q);
	r->n_open++;
	ret = sender_socket(r, q);
	if (ret)
		flow_close(r, q, SLUICE_TCPGEN_FAILED, -ret, sluice_now());
	return 0;
}

/* Starts the flows due by @now, as many as max_open lets open. */
static int launch_due(struct run *r, double now, char *err, size_t errlen)
{
	uint32_t q;
	int ret;

	while (r->launched < r->n) {
		q = r->order[r->launched];
		if (due(r, q) > now)
			break;
		if (r->n_open >= r->t->o.max_open) {
			if (!r->s[q].capped)
				r->t->capped++;
			r->s[q].capped = true;
			break;
		}
		ret = launch(r, q, err, errlen);
		if (ret)
			return ret;
		r->launched++;
	}
	return 0;
}

/* Times out the open flows past their deadline, oldest first. */
static void expire(struct run *r, double now)
{
	double timeout = r->t->o.timeout;
	uint32_t q;

	while (r->oldest < r->launched) {
		q = r->order[r->oldest];
		if (r->fl[q].status == SLUICE_TCPGEN_OPEN) {
			if (!timeout || now < due(r, q) + timeout)
				return;
			flow_close(r, q, SLUICE_TCPGEN_TIMEOUT, ETIMEDOUT, now);
		}
		r->oldest++;
	}
}

/* The next moment something is due: a start, a deadline, the end. */
static double next_due(const struct run *r, double until)
{
	double next = until, at;

	if (r->launched < r->n && r->n_open < r->t->o.max_open) {
		at = due(r, r->order[r->launched]);
		next = at < next ? at : next;
	}
	if (r->t->o.timeout && r->oldest < r->launched) {
		at = due(r, r->order[r->oldest]) + r->t->o.timeout;
		next = at < next ? at : next;
	}
	return next;
}

/* Flow @q's connection is writable (or failed): writes what it takes. */
static void sender_ready(struct run *r, uint32_t q, uint32_t events)
{
	uint64_t wire = wire_bytes(&r->fl[q]), len;
	unsigned char *buf = r->t->buf;
	unsigned char hdr[SLUICE_TCPGEN_HDR];
	struct sender *s = &r->s[q];
	socklen_t sl = sizeof(int);
	uint64_t moved = 0;
	int soerr = 0;
	ssize_t n;

	if (!s->connected) {
		if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &soerr, &sl))
			soerr = errno;
		if (!soerr && !(events & EPOLLOUT))
			soerr = ECONNABORTED;
		if (soerr) {
			flow_close(r, q, SLUICE_TCPGEN_FAILED, soerr,
				   sluice_now());
			return;
		}
		s->connected = true;
		r->fl[q].sport = sluice_i_local_port(s->fd);
	}
	sluice_i_put32(hdr, SLUICE_TCPGEN_MAGIC);
	sluice_i_put32(hdr + 4, q);
	while (s->sent < wire) {
		if (moved >= EVENT_BYTES)
			return;
		len = wire - s->sent < BUF_LEN ? wire - s->sent : BUF_LEN;
		/* the rest of the buffer is whatever it was: nobody reads it */
		if (s->sent < SLUICE_TCPGEN_HDR)
			memcpy(buf, hdr + s->sent,
			       SLUICE_TCPGEN_HDR - s->sent);
		n = send(s->fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n < 0) {
			flow_close(r, q, SLUICE_TCPGEN_FAILED, errno,
				   sluice_now());
			return;
		}
		s->sent += n;
		moved += n;
	}
	/* all in the socket: the receiver says when it has arrived */
	epoll_ctl(r->t->epoll_fd, EPOLL_CTL_DEL, s->fd, NULL);
}

/* Host @k's listener has connections waiting. */
static void accept_all(struct run *r, uint32_t k)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct conn *c;
	uint32_t ci;
	int fd;

	for (;;) {
		fd = accept4(r->t->h[k].listen_fd, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && (errno == EINTR || errno == ECONNABORTED))
			continue;
		if (fd < 0)
			return;
		if (r->free_conn == NONE) {
			close(fd);
			r->t->rx_stray++;
			continue;
		}
		ci = r->free_conn;
		c = &r->c[ci];
		r->free_conn = c->next_free;
		memset(c, 0, sizeof(*c));
		c->fd = fd;
		c->host = k;
		c->flow = NONE;
		ev.data.u64 = key(K_RECV, ci);
		if (epoll_ctl(r->t->epoll_fd, EPOLL_CTL_ADD, fd, &ev)) {
			conn_free(r, ci);
			r->t->rx_stray++;
		}
	}
}

/* Whether @c's header names an open flow to its host without a reader. */
static bool conn_claim(struct run *r, uint32_t ci)
{
	struct conn *c = &r->c[ci];
	uint32_t q = sluice_i_get32(c->hdr + 4);
	int tos;

	if (sluice_i_get32(c->hdr) != SLUICE_TCPGEN_MAGIC || q >= r->n ||
	    r->fl[q].dst != c->host ||
	    r->fl[q].status != SLUICE_TCPGEN_OPEN || r->s[q].conn != NONE)
		return false;
	/*
	 * The receiver's ACKs take the flow's lane from now on; its SYN-ACK
	 * and first ACKs went with the listener's (the run's) DSCP.
	 */
	tos = flow_tos(r->t, &r->fl[q]);
	if (r->fl[q].has_tos)
		setsockopt(c->fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos));
	c->flow = q;
	r->s[q].conn = ci;
	r->fl[q].first_byte = c->t_first - r->s[q].t_connect;
	return true;
}

/* Connection @ci has bytes (or an end): reads them all. */
static void conn_ready(struct run *r, uint32_t ci)
{
	struct conn *c = &r->c[ci];
	uint64_t take, moved = 0;
	double now;
	ssize_t n;
	int error;

	while (moved < EVENT_BYTES) {
		n = recv(c->fd, r->t->buf, BUF_LEN, MSG_DONTWAIT);
		error = n < 0 ? errno : EPIPE;
		if (n < 0 && error == EINTR)
			continue;
		if (n < 0 && error == EAGAIN)
			return;
		now = sluice_now();
		if (n <= 0) {
			/* an end before the whole flow */
			if (c->flow != NONE)
				flow_close(r, c->flow, SLUICE_TCPGEN_FAILED,
					   error, now);
			else
				conn_free(r, ci);
			return;
		}
		if (!c->got)
			c->t_first = now;
		if (c->got < SLUICE_TCPGEN_HDR) {
			take = SLUICE_TCPGEN_HDR - c->got;
			take = (uint64_t)n < take ? (uint64_t)n : take;
			memcpy(c->hdr + c->got, r->t->buf, take);
		}
		c->got += n;
		moved += n;
		if (c->flow == NONE && c->got >= SLUICE_TCPGEN_HDR &&
		    !conn_claim(r, ci)) {
			r->t->rx_stray++;
			conn_free(r, ci);
			return;
		}
		if (c->flow != NONE && c->got >= wire_bytes(&r->fl[c->flow])) {
			flow_close(r, c->flow, SLUICE_TCPGEN_DONE, 0, now);
			return;
		}
	}
}

static void dispatch(struct run *r, uint64_t k, uint32_t events)
{
	uint32_t i = (uint32_t)k;

	switch (k >> 32) {
	case K_LISTEN:
		accept_all(r, i);
		break;
	case K_SEND:
		/* closed earlier in this batch by its receiver */
		if (r->s[i].fd >= 0)
			sender_ready(r, i, events);
		break;
	case K_RECV:
		if (r->c[i].fd >= 0)
			conn_ready(r, i);
		break;
	}
}

/*
 * Events, waiting @wait seconds at most: to the nanosecond with
 * epoll_pwait2() (Linux 5.11), else rounded up to the millisecond, as
 * under valgrind, which does not know it; a late start shows in @late.
 */
static int wait_events(struct sluice_tcpgen *t, struct epoll_event *ev,
		       double wait)
{
	struct timespec ts = {
		.tv_sec = (time_t)wait,
		.tv_nsec = (long)((wait - (time_t)wait) * 1e9),
	};
	int n;

	if (!t->no_pwait2) {
		n = epoll_pwait2(t->epoll_fd, ev, EV_BATCH, &ts, NULL);
		if (n >= 0 || errno != ENOSYS)
			return n;
		t->no_pwait2 = true;
	}
	return epoll_wait(t->epoll_fd, ev, EV_BATCH, (int)ceil(wait * 1e3));
}

static int by_start(const void *a, const void *b, void *arg)
{
	const struct sluice_tcpgen_flow *fl = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (fl[x].start != fl[y].start)
		return fl[x].start < fl[y].start ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int run_init(struct run *r, struct sluice_tcpgen *t,
		    struct sluice_tcpgen_plan *p, double start, char *err,
		    size_t errlen)
{
	uint32_t q, n_conns = t->o.max_open + SPARE_CONNS, i;
	struct sluice_tcpgen_flow *fl;

	memset(r, 0, sizeof(*r));
	r->t = t;
	r->fl = p->fl;
	r->n = p->n_flows;
	r->start = start;
	for (q = 0; q < r->n; q++) {
		fl = &p->fl[q];
		if (fl->src >= t->n_hosts || fl->dst >= t->n_hosts ||
		    fl->src == fl->dst || !fl->size || !(fl->start >= 0) ||
		    !isfinite(fl->start))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "flow %u: hosts %u -> %u of %u, %llu bytes at %g s",
					     q, fl->src, fl->dst, t->n_hosts,
					     (unsigned long long)fl->size,
					     fl->start);
	}
	r->s = sluice_i_calloc(r->n, sizeof(*r->s));
	r->order = sluice_i_calloc(r->n, sizeof(*r->order));
	r->c = sluice_i_calloc(n_conns, sizeof(*r->c));
	if (!r->s || !r->order || !r->c ||
	    sluice_i_sports_init(&r->sp, &t->o.sport, t->n_hosts)) {
		/* nothing to close in them: their descriptors are not set */
		free(r->s);
		free(r->order);
		free(r->c);
		r->s = NULL;
		r->order = NULL;
		r->c = NULL;
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	for (q = 0; q < r->n; q++) {
		fl = &p->fl[q];
		fl->status = SLUICE_TCPGEN_PENDING;
		fl->error = 0;
		fl->fct = fl->late = fl->first_byte = -1;
		fl->sport = 0;
		r->s[q].fd = -1;
		r->s[q].conn = NONE;
		r->order[q] = q;
	}
	qsort_r(r->order, r->n, sizeof(*r->order), by_start, p->fl);
	for (i = 0; i < n_conns; i++) {
		r->c[i].fd = -1;
		r->c[i].next_free = i + 1 < n_conns ? i + 1 : NONE;
	}
	t->capped = 0;
	t->rx_stray = 0;
	r->next_progress = start;
	return 0;
}

/* Calls the progress callback if one is due (@last: the run's end). */
static void report(struct run *r, double now, bool last)
{
	const struct sluice_tcpgen_opts *o = &r->t->o;
	struct sluice_tcpgen_progress pr;

	if (!o->progress || (!last && now < r->next_progress))
		return;
	r->next_progress = now + (o->progress_every > 0 ?
				  o->progress_every : 1);
	pr.total = r->n;
	pr.closed = r->n_closed;
	pr.done = r->n_done;
	pr.open = r->n_open;
	pr.elapsed = now > r->start ? now - r->start : 0;
	o->progress(o->progress_arg, &pr);
}

/* The flows still open stay OPEN, unfinished; every socket is closed. */
static void run_end(struct run *r)
{
	uint32_t q, i;

	for (q = 0; r->s && q < r->n; q++) {
		if (r->s[q].fd >= 0)
			abort_close(r->s[q].fd);
		sluice_i_sport_release(&r->sp, r->fl[q].src,
				       r->t->h[r->fl[q].dst].addr,
				       r->s[q].leased);
	}
	for (i = 0; r->c && i < r->t->o.max_open + SPARE_CONNS; i++)
		if (r->c[i].fd >= 0)
			abort_close(r->c[i].fd);
	free(r->s);
	free(r->order);
	free(r->c);
	r->t->faca = r->sp.faca;
	r->t->faca_fallbacks = r->sp.fallbacks;
	sluice_i_sports_free(&r->sp);
}

/**
 * sluice_tcpgen_run() - run a plan's flows, measure their FCTs
 * @t:		opened
 * @p:		the flows; their results are filled
 * @start:	the moment flows' starts count from (sluice_now() seconds)
 * @until:	the run ends then, or once every flow is done or timed out
 * @err:	the message on failure
 * @errlen:	room in @err
 *
 * A flow completes when its destination has read all of it: its FCT is
 * that moment minus its planned start.  A flow that cannot connect or
 * whose connection breaks is FAILED with the errno; one not complete
 * within the timeout is TIMEOUT; when the run ends, one started is OPEN
 * and one not started PENDING: every flow ends with a status.  Flows
 * under SLUICE_TCPGEN_HDR bytes send that many.  A flow's source port is
 * kept once it connects; a flow with its own DSCP sends with it, and its
 * receiver acknowledges with it once the flow's header is in.  The
 * progress callback, if any, is called as the options say.
 *
 * Return: 0 (whatever became of the flows), -EINVAL (a flow with hosts
 * out of range, or none), -ENOMEM, or the errno of a namespace the thread
 * could not enter.
 */
int sluice_tcpgen_run(struct sluice_tcpgen *t, struct sluice_tcpgen_plan *p,
		      double start, double until, char *err, size_t errlen)
{
	struct epoll_event ev[EV_BATCH];
	double now, wait;
	struct run r;
	int ret, back, n, i;

	if (t->epoll_fd < 0)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the engine is not open");
	ret = run_init(&r, t, p, start, err, errlen);
	while (!ret && r.n_closed < r.n) {
		now = sluice_now();
		if (now >= until)
			break;
		if (t->o.stop && *t->o.stop) {
			ret = sluice_i_errf(err, errlen, -EINTR,
					    "interrupted");
			break;
		}
		ret = launch_due(&r, now, err, errlen);
		if (ret)
			break;
		expire(&r, now);
		report(&r, now, false);
		/* a second at most, so that a far @until cannot overflow */
		wait = next_due(&r, t->o.progress &&
				r.next_progress < until ?
				r.next_progress : until) - sluice_now();
		wait = wait > 0 ? (wait < 1 ? wait : 1) : 0;
		n = wait_events(t, ev, wait);
		if (n < 0 && errno != EINTR) {
			ret = sluice_i_errf(err, errlen, -errno, "epoll: %s",
					    strerror(errno));
			break;
		}
		for (i = 0; i < n; i++)
			dispatch(&r, ev[i].data.u64, ev[i].events);
	}
	if (r.s)
		report(&r, sluice_now(), true);
	run_end(&r);
	back = enter(t, -1, ret ? NULL : err, ret ? 0 : errlen);
	return ret ? ret : back;
}

/* Whether @f takes @fl (a NULL filter takes every flow). */
static bool picked(const struct sluice_tcpgen_filter *f,
		   const struct sluice_tcpgen_flow *fl)
{
	if (!f)
		return true;
	if (f->by_tag && fl->tag != f->tag)
		return false;
	return fl->size >= f->min_size &&
	       (!f->max_size || fl->size < f->max_size);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank percentile of sorted @v: the ceil(pct n / 100)-th. */
static double rank(const double *v, uint32_t n, double pct)
{
	double k = ceil(pct * n / 100);

	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[(uint32_t)k - 1];
}

/**
 * sluice_tcpgen_percentile() - the nearest-rank percentile
 * @v:		values, sorted in place
 * @n:		how many, at least 1 (0 gives 0)
 * @pct:	in [0, 100]
 *
 * The smallest value with at least @pct % of the values at or below it
 * (the minimum for 0).
 */
double sluice_tcpgen_percentile(double *v, uint32_t n, double pct)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return rank(v, n, pct);
}

/**
 * sluice_tcpgen_summarize() - FCTs of the flows a filter takes
 * @fl:		flows after sluice_tcpgen_run()
 * @n:		how many
 * @f:		which to count; NULL: all
 * @s:		count, finished, and mean, p50, p99 and max FCT of the
 *		finished (0 if none), and the latest of their starts
 *
 * Flows not DONE count in @s->count and nowhere else: compare it with
 * @s->finished.
 *
 * Return: 0 or -ENOMEM.
 */
int sluice_tcpgen_summarize(const struct sluice_tcpgen_flow *fl, uint32_t n,
			    const struct sluice_tcpgen_filter *f,
			    struct sluice_tcpgen_summary *s)
{
	double *v = sluice_i_calloc(n, sizeof(*v)), sum = 0;
	uint32_t q;

	memset(s, 0, sizeof(*s));
	if (!v)
		return -ENOMEM;
	for (q = 0; q < n; q++) {
		if (!picked(f, &fl[q]))
			continue;
		s->count++;
		if (fl[q].status != SLUICE_TCPGEN_DONE)
			continue;
		v[s->finished++] = fl[q].fct;
		sum += fl[q].fct;
		if (fl[q].late > s->max_late)
			s->max_late = fl[q].late;
	}
	if (s->finished) {
		qsort(v, s->finished, sizeof(*v), cmp_double);
		s->mean = sum / s->finished;
		s->p50 = rank(v, s->finished, 50);
		s->p99 = rank(v, s->finished, 99);
		s->max = v[s->finished - 1];
	}
	free(v);
	return 0;
}
