// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The netfilter hook in the agent's loop (sluice_faca_serve() with a hook,
 * sluice/faca.h): unmodified programs' new flows placed by
 * Flowing&Jumping, as a "sport" request would place them.  The table is
 * single-threaded, so the hook is one more descriptor of the agent's
 * poll() and its chooser runs there, between two probes' echoes.
 *
 *   - A flow from a port of the pool keeps it: the agent's own probes
 *     (with --udp), and flows that asked the agent for their port.
 *   - A flow to a destination the agent has not probed yet adds it and
 *     waits, its first packet held in the queue, for the echoes of its
 *     first round (as a "sport" request waits), at most the probe timeout
 *     and never past SLUICE_FACA_HOOK_WAIT_NS; then Flowing&Jumping
 *     places it, or, with no path known, it keeps its own port.
 *   - The lease of the port it gets records the flow, and lasts while
 *     conntrack has the flow open (TCP short of TIME_WAIT, UDP while its
 *     entry lives): the program's socket has its own port, which
 *     sock_diag cannot tie to the lease.  A port whose tuple toward the
 *     flow's service conntrack still holds (a flow in TIME_WAIT) is passed
 *     over: NAT could not give it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sluice/faca.h>
#include <sluice/faca_hook.h>

#include "../graph/internal.h"
#include "hook.h"
#include "internal.h"

struct sluice_i_agent_hook {
	struct sluice_faca		*a;
	struct sluice_faca_hook		*h;
	struct sluice_faca_hook_cfg	cfg;
	const struct sluice_faca_serve	*s;
	void				(*added)(void *arg, uint32_t dst,
						 uint64_t now_ns);
	void				*arg;
	uint64_t			now;	/* the loop's clock */
	/* the flow being placed: what its lease and its report need */
	uint32_t			dst;
	int				path;	/* -1: no port leased */
	uint16_t			sport;
};

__attribute__((format(printf, 2, 3)))
static void say(const struct sluice_i_agent_hook *k, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!k->s->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	k->s->log(k->s->log_arg, line);
}

/* How long a flow to a new destination may wait for its first round. */
static uint64_t wait_ns(const struct sluice_i_agent_hook *k)
{
	return k->a->o.timeout_ns < SLUICE_FACA_HOOK_WAIT_NS ?
	       k->a->o.timeout_ns : SLUICE_FACA_HOOK_WAIT_NS;
}

/* Whether @dst's first round is still out, and may be waited for. */
static bool first_round(const struct sluice_i_agent_hook *k, uint32_t dst)
{
	const struct sluice_faca_dst *d = &k->a->dst[dst];

	return !d->found && k->now < d->added_ns + wait_ns(k);
}

/* The flow being placed, for the usable ports' lookups. */
struct flow {
	struct sluice_i_agent_hook	*k;
	uint32_t			saddr, daddr;
	uint16_t			dport;
	uint8_t				proto;
};

/* A lookup that fails passes the port over: a clash would drop the SYN. */
static bool usable(void *arg, uint16_t sport)
{
	const struct flow *f = arg;

	return !sluice_faca_hook_port_taken(f->k->h, f->saddr, f->daddr, sport,
					    f->dport, f->proto);
}

static int choose(void *ctx, uint32_t saddr, uint32_t daddr, uint16_t sport,
		  uint16_t dport, uint8_t proto, uint16_t *new_sport)
{
	struct sluice_i_agent_hook *k = ctx;
	struct sluice_faca *a = k->a;
	const struct sluice_faca_hooked hooked = {
		.saddr = saddr, .sport = sport, .dport = dport, .proto = proto,
	};
	struct flow f = {
		.k = k, .saddr = saddr, .daddr = daddr, .dport = dport,
		.proto = proto,
	};
	char addr[INET_ADDRSTRLEN];
	int dst, known;

	k->path = -1;
	if (sluice_faca_sport_index(a, sport) >= 0) {
		*new_sport = sport;
		return 0;
	}
	known = sluice_faca_dst_find(a, daddr);
	dst = sluice_faca_dst_add(a, daddr, k->now);
	if (dst < 0)
		return dst;
	if (known < 0) {
		say(k, "%s: new destination (a hooked flow)",
		    inet_ntop(AF_INET, &daddr, addr, sizeof(addr)));
		k->added(k->arg, dst, k->now);
	}
	if (first_round(k, dst))
		return -EINPROGRESS;
	k->dst = dst;
	k->path = sluice_faca_place_flow(a, dst, k->now, a->o.lease_ns,
					 &hooked, usable, &f, new_sport);
	if (k->path < 0)
		return k->path;
	k->sport = *new_sport;
	return 0;
}

static const char *why(int error)
{
	switch (error) {
	case -EAGAIN:
		return "no path known";
	case -EBUSY:
		return "every port of every path leased or held";
	case -ENOSPC:
		return "too many destinations";
	case -EINVAL:
		return "not a unicast destination";
	}
	return strerror(-error);
}

/* A flow decided: a lease its packet did not get back, and -v's line. */
static void report(void *ctx, const struct sluice_faca_flow *f)
{
	struct sluice_i_agent_hook *k = ctx;
	char s[INET_ADDRSTRLEN], d[INET_ADDRSTRLEN], line[160];
	const char *proto = f->proto == IPPROTO_UDP ? "udp" : "tcp";

	if (k->path >= 0 && f->outcome != SLUICE_FACA_REWRITTEN)
		sluice_faca_release(k->a, k->a->dst[k->dst].addr, k->sport,
				    k->now);
	if (!k->s->log)
		return;
	inet_ntop(AF_INET, &f->saddr, s, sizeof(s));
	inet_ntop(AF_INET, &f->daddr, d, sizeof(d));
	switch (f->outcome) {
	case SLUICE_FACA_REWRITTEN:
		snprintf(line, sizeof(line), "port %u, path %d", f->new_sport,
			 k->path);
		break;
	case SLUICE_FACA_KEPT:
		snprintf(line, sizeof(line), "keeps its port (the pool's)");
		break;
	case SLUICE_FACA_REFUSED:
		snprintf(line, sizeof(line), "keeps its port (%s)",
			 why(f->error));
		break;
	case SLUICE_FACA_FAILED:
		snprintf(line, sizeof(line), "keeps its port (the port map: %s)",
			 strerror(-f->error));
		break;
	}
	say(k, "hook: %s %s:%u -> %s:%u: %s", proto, s, f->sport, d, f->dport,
	    line);
}

int sluice_i_agent_hook_open(struct sluice_i_agent_hook **out,
			     struct sluice_faca *a,
			     const struct sluice_faca_serve *s,
			     void (*added)(void *arg, uint32_t dst,
					   uint64_t now_ns),
			     void *arg, char *err, size_t errlen)
{
	struct sluice_i_agent_hook *k = calloc(1, sizeof(*k));
	int ret;

	*out = NULL;
	if (!k)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	k->a = a;
	k->s = s;
	k->added = added;
	k->arg = arg;
	k->cfg = *s->hook;
	k->cfg.report = report;
	/* the map takes the ports as they are first given */
	k->cfg.sport_min = k->cfg.sport_max = 0;
	ret = sluice_faca_hook_open(&k->h, &k->cfg, choose, k, err, errlen);
	if (ret) {
		free(k);
		return ret;
	}
	*out = k;
	return 0;
}

int sluice_i_agent_hook_fd(const struct sluice_i_agent_hook *k)
{
	return sluice_faca_hook_fd(k->h);
}

int sluice_i_agent_hook_run(struct sluice_i_agent_hook *k, bool queued,
			    uint64_t now_ns, char *err, size_t errlen)
{
	int ret;

	k->now = now_ns;
	ret = sluice_faca_hook_retry(k->h, err, errlen);
	if (ret >= 0 && queued)
		ret = sluice_faca_hook_process(k->h, err, errlen);
	return ret < 0 ? ret : 0;
}

uint64_t sluice_i_agent_hook_wake(const struct sluice_i_agent_hook *k,
				  uint64_t until)
{
	struct sluice_faca_hook_stats st;
	const struct sluice_faca_dst *d;
	uint32_t i;

	sluice_faca_hook_stats(k->h, &st);
	for (i = 0; st.waiting && i < k->a->n_dst; i++) {
		d = &k->a->dst[i];
		if (!d->found && d->added_ns + wait_ns(k) < until)
			until = d->added_ns + wait_ns(k);
	}
	return until;
}

int sluice_i_agent_hook_flows(struct sluice_i_agent_hook *k,
			      struct sluice_i_port_peer **out)
{
	return faca_hook_open_flows(k->h, out);
}

struct json_object *
sluice_i_agent_hook_json(const struct sluice_i_agent_hook *k)
{
	struct sluice_faca_hook_stats st;

	sluice_faca_hook_stats(k->h, &st);
	return sluice_i_faca_hook_json(&k->cfg, &st);
}

int sluice_i_agent_hook_close(struct sluice_i_agent_hook *k)
{
	int open;

	if (!k)
		return 0;
	open = sluice_faca_hook_close(k->h);
	free(k);
	return open;
}
