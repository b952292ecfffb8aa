/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FaCa for unmodified applications (lib/faca/hook*.c): a netfilter hook
 * that shows a program (FaCa's agent, or sluicectl faca hook) the first
 * packet of each new IPv4 flow and lets it choose the flow's source port,
 * which conntrack's NAT then rewrites on the way out and restores on the
 * way back.  The application's socket keeps its own port; the network,
 * and so ECMP's 5-tuple hash, sees the chosen one.
 *
 * The hook is one nftables table of its own, "ip sluice_faca", in the
 * network namespace of the process that opens it:
 *
 *   output, priority filter:  the first packet of a new flow (a conntrack
 *       entry not yet confirmed) to a configured destination, unmarked,
 *       not on loopback: NFQUEUE num N with "bypass", so that when no
 *       program listens on the queue the packet goes on untouched;
 *   the program's verdict: accept, with the packet mark
 *       SLUICE_FACA_HOOK_MARK | port when it chose another port;
 *   postrouting, priority srcnat:  a packet so marked gets "snat to its
 *       own address : the port the map ports gives its mark"; conntrack
 *       keeps that binding for the flow's life, every later packet of the
 *       flow is translated without being queued;
 *   postrouting, priority srcnat + 1:  the mark is cleared again.
 *
 * The map holds one element per port (mark -> port), not one per flow: a
 * binding lives in the conntrack entry, so nothing is left to remove when
 * a flow ends.  Elements are added the first time a port is chosen (or all
 * at once for the range the configuration names).
 *
 * Failure keeps connectivity: a program that is absent, killed or slow
 * (queue full: the queue is fail-open) leaves new flows their own port,
 * plain ECMP.  A packet waiting for a verdict when the program dies is
 * dropped by the kernel; TCP sends its SYN again after its first
 * retransmission timeout (1 s), and that one passes bypassed.  The table a killed program
 * leaves behind keeps translating the flows it rewrote; the next open
 * replaces it in one transaction, so their translation never stops.
 * Closing removes the table only once no rewritten flow is open (see
 * sluice_faca_hook_close()): removing the last NAT chain of a namespace
 * removes NAT's hooks, and a flow still open would leave with its own
 * port, which its peer answers with a reset.
 *
 * Limits: IPv4 only; TCP, and UDP when asked (a UDP "flow" is a conntrack
 * entry: after its timeout, 30 s without replies, the next datagram starts
 * a new flow and is placed anew); packets already marked (SO_MARK, other
 * rules) are left alone, so as not to clobber another user of the mark.
 */
#ifndef _SLUICE_FACA_HOOK_H
#define _SLUICE_FACA_HOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/sport.h>

/* The nftables table: family ip, this name. */
#define SLUICE_FACA_HOOK_TABLE	"sluice_faca"
/* The upper 16 bits of the mark a rewritten flow's first packet carries. */
#define SLUICE_FACA_HOOK_MARK	0x5fac0000u
#define SLUICE_FACA_HOOK_MARK_MASK	0xffff0000u
/* Most destination prefixes a hook takes. */
#define SLUICE_FACA_HOOK_MAX_DST	64
/* Most flows a chooser may decide later (-EINPROGRESS) at once. */
#define SLUICE_FACA_HOOK_WAITING_MAX	256

/* An IPv4 prefix: @addr in network order, host bits zero. */
struct sluice_faca_prefix {
	uint32_t	addr;
	uint8_t		len;	/* 0..32 */
};

/*
 * Reads "A.B.C.D/LEN" or "A.B.C.D" (/32) into @p.  Host bits set under the
 * prefix are refused (198.18.2.1/24 is a typo for one or the other).
 * Returns 0 or -EINVAL.  Time: O(length of @s).
 */
int sluice_faca_prefix_parse(const char *s, struct sluice_faca_prefix *p);

/* What a flow's first packet led to. */
enum sluice_faca_outcome {
	SLUICE_FACA_REWRITTEN,	/* the chosen port is the flow's on the wire */
	SLUICE_FACA_KEPT,	/* the chooser chose the flow's own port */
	SLUICE_FACA_REFUSED,	/* the chooser returned an error: own port */
	SLUICE_FACA_FAILED,	/* the map could not take the port: own port */
};

/* A new flow as its first packet shows it, and what became of it. */
struct sluice_faca_flow {
	uint32_t	saddr, daddr;	/* network order */
	uint16_t	sport, dport;	/* host order; sport the socket's own */
	uint8_t		proto;		/* IPPROTO_TCP or IPPROTO_UDP */
	uint16_t	new_sport;	/* host order; sport unless rewritten */
	enum sluice_faca_outcome outcome;
	int		error;		/* the chooser's or the map's, -errno */
};

/*
 * Chooses a new flow's source port: returns 0 with *@new_sport set, or a
 * negative errno (the flow then keeps its own port).  Addresses in network
 * order, ports in host order.  Called for each new flow from
 * sluice_faca_hook_process(); the flow's first packet waits meanwhile.
 * -EINPROGRESS decides later: the packet keeps waiting in the kernel's
 * queue and sluice_faca_hook_retry() asks again, until the chooser
 * answers otherwise.  A chooser that waits must answer well within TCP's
 * first retransmission timeout (1 s): a SYN sent again while the first
 * waits is a second new flow.  Beyond SLUICE_FACA_HOOK_WAITING_MAX
 * waiting flows, the next that would wait keeps its own port (refused,
 * -ENOBUFS).
 */
typedef int (*sluice_faca_choose_fn)(void *ctx, uint32_t saddr,
				     uint32_t daddr, uint16_t sport,
				     uint16_t dport, uint8_t proto,
				     uint16_t *new_sport);

struct sluice_faca_hook_cfg {
	uint16_t	queue;		/* the NFQUEUE number */
	bool		udp;		/* UDP flows too (TCP always) */
	/* Destinations whose flows are queued; none: every one but loopback. */
	const struct sluice_faca_prefix *dst;
	size_t		n_dst;
	/* Ports put in the map at open (0, 0: none); others when chosen. */
	uint16_t	sport_min, sport_max;
	/* Told each flow once decided, may be NULL; gets the chooser's ctx. */
	void		(*report)(void *ctx, const struct sluice_faca_flow *f);
};

struct sluice_faca_hook_stats {
	uint64_t	queued;		/* first packets seen */
	uint64_t	rewritten;
	uint64_t	kept;		/* the chooser kept the own port */
	uint64_t	refused;	/* the chooser failed */
	uint64_t	failed;		/* the map failed, or not TCP/UDP over IPv4 */
	uint64_t	map_ports;	/* ports the map holds */
	/* verdicts the kernel refused: their packets were gone (dropped
	 * with their device, say) */
	uint64_t	refused_verdicts;
	uint64_t	deferred;	/* flows the chooser decided later */
	uint32_t	waiting;	/* of those, not decided yet */
};

struct sluice_faca_hook;

/*
 * The nftables text that installs the hook for @cfg: the table replaced in
 * one transaction (a stale one from a killed hook goes, its NAT users
 * never drop to none), sets, map and chains.  Into @buf (@len bytes);
 * returns the length, or -ENOSPC / -EINVAL (bad cfg).  Time: O(n_dst +
 * ports prefilled).
 */
int sluice_faca_hook_ruleset(const struct sluice_faca_hook_cfg *cfg,
			     char *buf, size_t len);

/*
 * Binds NFQUEUE cfg->queue (fails if another program holds it, or holds
 * the table on another queue), then installs the table.  On failure
 * nothing is left installed and @err says why.  Returns 0 or -errno.
 * Needs CAP_NET_ADMIN.  Time: O(sluice_faca_hook_ruleset()).
 */
int sluice_faca_hook_open(struct sluice_faca_hook **h,
			  const struct sluice_faca_hook_cfg *cfg,
			  sluice_faca_choose_fn choose, void *ctx, char *err,
			  size_t errlen);

/* The descriptor to poll() for POLLIN: flows are waiting. */
int sluice_faca_hook_fd(const struct sluice_faca_hook *h);

/*
 * Decides every flow queued now, without blocking: choose, add the port to
 * the map when new, give the verdict.  Returns how many were decided, or
 * -errno with @err set (the hook stays usable unless the socket is gone).
 * Time: O(flows queued) choices and verdicts.
 */
int sluice_faca_hook_process(struct sluice_faca_hook *h, char *err,
			     size_t errlen);

/*
 * Asks the chooser again about every flow it decided to decide later, in
 * the order they came, and gives the verdict of each it now decides.
 * Returns how many were decided, or -errno with @err set.  Time:
 * O(waiting) choices.
 */
int sluice_faca_hook_retry(struct sluice_faca_hook *h, char *err,
			   size_t errlen);

/*
 * Whether the flow @proto @saddr:@sport -> @daddr:@dport would clash with
 * a conntrack entry (in either direction), i.e. whether NAT could not give
 * a new flow to @daddr:@dport the source port @sport: 1 taken, 0 free, or
 * -errno.  For choosers that skip ports in use.  Time: one conntrack
 * lookup.
 */
int sluice_faca_hook_port_taken(struct sluice_faca_hook *h, uint32_t saddr,
				uint32_t daddr, uint16_t sport, uint16_t dport,
				uint8_t proto);

void sluice_faca_hook_stats(const struct sluice_faca_hook *h,
			    struct sluice_faca_hook_stats *st);

/*
 * Stops the hook and frees @h (NULL: a no-op); flows still waiting for a
 * decision go on with their own ports.  The table goes if it is still
 * this hook's (its comment names our queue) and no flow it rewrote is
 * open: TCP before TIME_WAIT, or UDP with a conntrack entry.  While one
 * is, the table stays as a killed hook leaves it: new flows pass bypassed
 * with their own ports, the open ones keep their translation, and the
 * next sluice_faca_hook_open() replaces it.  Returns 0 (table removed, or
 * not ours), the number of open rewritten flows it was left for, or -errno
 * if they could not be counted (the table is then left too).
 */
int sluice_faca_hook_close(struct sluice_faca_hook *h);

/*
 * A fixed policy for the hook (sluicectl faca hook --sports): the ports of
 * a range in turn, skipping those NAT would find taken for the flow
 * (sluice_faca_hook_port_taken()).  Open the hook with
 * sluice_faca_rr_choose and a struct sluice_faca_rr as its ctx, then set
 * its hook before the first sluice_faca_hook_process().
 */
struct sluice_faca_rr {
	struct sluice_sport_rr	rr;
	struct sluice_faca_hook	*hook;
	/* the flow being placed, for the lookups */
	uint32_t		saddr, daddr;
	uint16_t		dport;
	uint8_t			proto;
};

void sluice_faca_rr_init(struct sluice_faca_rr *c,
			 const struct sluice_sport_range *r);
/*
 * A sluice_faca_choose_fn: -EADDRINUSE when every port of the range is
 * taken.  Time: O(range size) conntrack lookups at worst, one when the
 * next port is free.
 */
int sluice_faca_rr_choose(void *ctx, uint32_t saddr, uint32_t daddr,
			  uint16_t sport, uint16_t dport, uint8_t proto,
			  uint16_t *new_sport);

#endif /* _SLUICE_FACA_HOOK_H */
