/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FaCa's host agent (Cong et al., ../shared/seeds/003, Sections 5-6), in
 * lib/faca/: a host probes the paths to the destinations it talks to with
 * INT probes (sluice/int.h), learns which source port takes which path,
 * estimates each path's load, and places new flows with Flowing&Jumping
 * (sluice/fj.h) by handing them a source port of the chosen path.
 *
 * The table (struct sluice_faca; agent.c), driven by probes alone, so
 * that tests feed it synthetic ones:
 *
 *   destination   an IPv4 address, added when the agent starts or when a
 *                 flow first asks for it;
 *   pool          the candidate source ports (--sports A-B), each probed
 *                 toward each destination: a port whose echo comes back
 *                 belongs to the path its records name; one whose probes
 *                 go unanswered SLUICE_FACA_LOST times in a row belongs
 *                 to none until one is answered again;
 *   path          a distinct sequence of (node, ifindex, link) records;
 *                 a destination's paths are numbered in the order of that
 *                 sequence (lexicographic), whatever the order they were
 *                 found in: the ring of Flowing&Jumping; named by the
 *                 route its link records spell when a route set is given
 *                 (sluice_faca_routes());
 *   per path      B, the bandwidth: the lowest rate of its records (the
 *                 paper's Section 5.2; unshaped ports, rate 0, are left
 *                 out); util, the bottleneck utilisation: per record the
 *                 bytes the port sent between two probes of the path over
 *                 the time between their stamps (half an interval at
 *                 least: two probes back to back see only the first),
 *                 over its rate, the highest (in [0, 1]); avail, the available bandwidth, the
 *                 lowest rate * (1 - utilisation) (at least
 *                 SLUICE_FACA_AVAIL_FLOOR of the rate); D, the probe's
 *                 delay through the path: the last record's timestamp
 *                 less the sender's tx_ns; rtt, the probe's round trip;
 *                 beta, the load sample of the load metric; E(t), its
 *                 EWMA by the paper's Eq. 2-3 (sluice_faca_ewma(), dt the
 *                 time since the path's previous update, the first sample
 *                 taken as it is);
 *   leases        a pool port handed to a flow toward a destination is
 *                 not handed out again toward it until released or
 *                 expired; a lease the hook took records its flow.
 *
 * D needs one clock: the ports stamp CLOCK_REALTIME of their kernel, the
 * sender tx_ns of its own.  Every namespace of a fabric on one machine
 * shares the clock; hosts on machines of their own need their clocks
 * synchronised well below the delays measured (PTP on the NICs, to a
 * microsecond or better; NTP's milliseconds are as large as a
 * datacentre's queueing delays).  A record stamped before the probe was
 * sent reads as D = 0.
 *
 * The load metrics (enum sluice_faca_load):
 *
 *   bdp    the paper's Eq. 1 as written: beta = B * D, bits in flight.
 *          On an idle fabric D is about the same on every path (the
 *          ports' processing), so a path slowed by a lower rate has the
 *          smaller B * D and draws the flows: the opposite of what FaCa
 *          wants (docs/faca.md, "FaCa agent", has the measurement);
 *   time   (the default) beta = D + demand * 8 / avail, seconds: the time
 *          a flow of --demand bytes would take on the path, its queueing
 *          delay plus its bytes at the bandwidth left.  A path slowed by
 *          its rate costs more (less avail), one slowed by delay costs
 *          more (larger D), and flows fill the path with the most
 *          bandwidth left until what is left matches the others'.
 *
 * Placement (sluice_faca_place()): Flowing&Jumping over the destination's
 * usable paths (those with a port answering), one flow at a time: each
 * path's load is its E.  The flow's path then gets a provisional
 * increment, added to E itself so that the EWMA forgets it as probes of
 * the path come back (they show the flow by then): demand * 8 / B seconds
 * for time (the flow's bytes at the path's full rate), demand * 8 bits
 * for bdp (its bytes in flight).  The port is the path's free port
 * released longest ago (lowest port first), so that a port just given
 * back is reused last.  A hook that places flows it sees (netfilter) calls
 * the same function.
 *
 * Functions that fail return a negative errno with a message in @err.
 */
#ifndef _SLUICE_FACA_H
#define _SLUICE_FACA_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <sluice/int.h>
#include <sluice/rng.h>
#include <sluice/sport.h>

struct sluice_graph;
struct sluice_routes;
struct sluice_faca_hook_cfg;

/* Defaults of struct sluice_faca_opts. */
#define SLUICE_FACA_SPORT_LO		20000
#define SLUICE_FACA_SPORT_HI		20063
#define SLUICE_FACA_K			5.0		/* 1/s */
#define SLUICE_FACA_INTERVAL_NS		100000000ull	/* 100 ms */
#define SLUICE_FACA_TIMEOUT_NS		500000000ull	/* an echo's wait */
#define SLUICE_FACA_LEASE_NS		10000000000ull	/* 10 s */
#define SLUICE_FACA_DEMAND		65536.0		/* bytes */
#define SLUICE_FACA_RECORDS		8
#define SLUICE_FACA_SWEEP		2	/* pool ports re-probed a round */
/* Probes in a row without an echo before a port belongs to no path. */
#define SLUICE_FACA_LOST		3
/* The least share of a port's rate counted as available. */
#define SLUICE_FACA_AVAIL_FLOOR		0.05
/*
 * Two probes less apart at a port than this, or half the interval if
 * longer, give no utilisation.
 */
#define SLUICE_FACA_UTIL_MIN_NS		1000000ull
/* The most destinations one agent probes. */
#define SLUICE_FACA_MAX_DST		1024
/* The pool: at most this many ranges, of at most this many ports in all. */
#define SLUICE_FACA_RANGES_MAX		128
#define SLUICE_FACA_POOL_MAX		4096

enum sluice_faca_load {
	SLUICE_FACA_LOAD_TIME,		/* D + demand / avail, s */
	SLUICE_FACA_LOAD_BDP,		/* B * D, bits (Eq. 1) */
};

struct sluice_faca_opts {
	/* the pool: ranges in rising order, apart */
	struct sluice_sport_range	sports[SLUICE_FACA_RANGES_MAX];
	uint32_t		n_ranges;
	uint16_t		port;		/* probes go to (and are answered on) */
	uint8_t			tos;		/* the probes' IP TOS: their class */
	uint8_t			records;	/* per probe, 1..32 */
	double			k;		/* Eq. 3's k, 1/s, > 0 */
	enum sluice_faca_load	load;
	double			demand;		/* bytes, > 0 */
	uint64_t		interval_ns;	/* between probe rounds */
	uint64_t		timeout_ns;	/* an echo waited for */
	uint64_t		lease_ns;	/* a lease's least life */
	uint32_t		sweep;		/* pool ports re-probed a round */
	uint64_t		seed;		/* Flowing&Jumping's draws */
};

/* One port of a path, as its records name it. */
struct sluice_faca_hop {
	uint32_t	node;
	uint32_t	ifindex;
	uint32_t	link;
	uint64_t	rate;		/* bits/s; 0: unshaped */
	/* the last probe's, for the next one's utilisation */
	uint64_t	tx_bytes;
	uint64_t	ts_ns;
	double		util;		/* -1 until two probes */
};

struct sluice_faca_path {
	struct sluice_faca_hop	hop[SLUICE_INT_MAX_RECS];
	uint8_t			n_hops;
	/* its path in the route set (sluice_faca_routes()); -1: none */
	int64_t			route;
	uint32_t		n_sports;	/* pool ports that take it */
	uint32_t		leases;		/* of those, leased */
	double			B;		/* bits/s; 0: no shaped port */
	double			util;		/* max of the hops', -1: not yet */
	double			avail;		/* bits/s; 0 if B is */
	double			D;		/* s */
	double			rtt;		/* s */
	double			beta;		/* the last sample */
	double			E;		/* its EWMA, with increments */
	uint64_t		updated_ns;	/* the agent's clock */
	uint64_t		probes;		/* echoes taken */
	uint64_t		placed;		/* flows placed on it */
};

/*
 * A flow the netfilter hook placed (sluice/faca_hook.h): what holds its
 * lease, for "show".  The socket keeps its own port; the wire carries the
 * lease's.
 */
struct sluice_faca_hooked {
	uint32_t	saddr;		/* network order */
	uint16_t	sport;		/* host order: the socket's own */
	uint16_t	dport;
	uint8_t		proto;		/* IPPROTO_TCP, IPPROTO_UDP; 0: none */
};

/* A pool port toward one destination. */
struct sluice_faca_sport {
	int32_t		path;		/* index, -1: none known */
	uint8_t		misses;		/* unanswered probes in a row */
	bool		probed;		/* ever answered */
	uint64_t	sent_ns;	/* the last probe from it (agent's clock) */
	uint32_t	seq;		/* that probe's while out; 0: none out */
	uint64_t	lease_until;	/* the agent's clock; 0: free */
	uint64_t	released_ns;	/* when last freed (0: never leased) */
	/* the lease's flow when the hook placed it; proto 0: a client's */
	struct sluice_faca_hooked flow;
};

struct sluice_faca_dst {
	uint32_t		addr;		/* IPv4, network order */
	struct sluice_faca_path	*path;
	uint32_t		n_paths;
	uint64_t		cap;
	struct sluice_faca_sport *sport;	/* the pool's, as port[] */
	uint32_t		sweep_next;	/* the next pool port swept */
	uint32_t		probes_out;	/* sent, no echo nor timeout yet */
	/* its first round over: once, none of its probes was out */
	bool			found;
	uint64_t		added_ns;
	uint64_t		placed;
};

struct sluice_faca {
	struct sluice_faca_opts	o;
	uint16_t		*port;		/* the pool, rising */
	uint32_t		n_sports;
	struct sluice_faca_dst	*dst;
	uint32_t		n_dst;
	uint64_t		cap;
	struct sluice_rng	rng;
	/* the route set paths are matched to (sluice_faca_routes()), or NULL */
	const struct sluice_graph	*g;
	const struct sluice_routes	*routes;
};

/* The defaults above, the load metric time. Time: O(1). */
void sluice_faca_opts_default(struct sluice_faca_opts *o);

/*
 * "A-B[,C-D...]" (a port alone is a range of one) into @o's pool: up to
 * SLUICE_FACA_RANGES_MAX ranges in rising order, apart, ports from 1.
 * Returns 0 or -EINVAL with a message.  Time: O(length).
 */
int sluice_faca_ranges_parse(const char *s, struct sluice_faca_opts *o,
			     char *err, size_t errlen);
/* @o's pool as the parser takes it, into @buf. Time: O(ranges). */
char *sluice_faca_ranges_format(const struct sluice_faca_opts *o, char *buf,
				size_t len);

/*
 * An empty table with options @o, checked (a pool of 1 to
 * SLUICE_FACA_POOL_MAX ports without the probe port, k and demand above
 * 0, 1 to 32 records, an interval and a timeout).  Returns 0 or -EINVAL,
 * -ENOMEM.  Time: O(pool).
 */
int sluice_faca_init(struct sluice_faca *a, const struct sluice_faca_opts *o,
		     char *err, size_t errlen);
/* Time: O(destinations * (pool + paths)). */
void sluice_faca_free(struct sluice_faca *a);

/* "time" or "bdp"; NULL for another value. Time: O(1). */
const char *sluice_faca_load_name(enum sluice_faca_load l);
/* 0 and @l set, or -EINVAL. Time: O(1). */
int sluice_faca_load_parse(const char *s, enum sluice_faca_load *l);

/*
 * The index of destination @addr (network order), or -ENOENT.
 * Time: O(destinations).
 */
int sluice_faca_dst_find(const struct sluice_faca *a, uint32_t addr);
/*
 * Destination @addr, added if new (at @now_ns): its index, or -ENOSPC
 * beyond SLUICE_FACA_MAX_DST, -EINVAL for 0.0.0.0 or a multicast or
 * broadcast address, -ENOMEM.  Time: O(destinations + pool).
 */
int sluice_faca_dst_add(struct sluice_faca *a, uint32_t addr,
			uint64_t now_ns);

/*
 * Learns from the echo @p of a probe sent from pool port @sport to
 * destination @dst (an index) at @now_ns (the agent's clock, ns),
 * @rtt_ns after it left: the port's path (a new one is inserted in ring
 * order, the others renumbered), and that path's B, util, avail, D, rtt,
 * beta and E.  Returns the path's index; -ERANGE if @sport is not in the
 * pool; -ENODATA for a probe without records (no sluice port on the
 * way); -EINVAL for a bad @dst.  Time: O(paths * hops + pool).
 */
int sluice_faca_learn(struct sluice_faca *a, uint32_t dst, uint16_t sport,
		      const struct sluice_int_probe *p, uint64_t rtt_ns,
		      uint64_t now_ns);

/*
 * A probe from @sport to @dst went unanswered: after SLUICE_FACA_LOST in
 * a row the port belongs to no path (it is probed again; an echo puts it
 * back).  Time: O(1).
 */
void sluice_faca_miss(struct sluice_faca *a, uint32_t dst, uint16_t sport);

/* Whether @dst has a path a flow can be placed on. Time: O(pool). */
bool sluice_faca_placeable(const struct sluice_faca *a, uint32_t dst);

/*
 * Places a new flow to destination @dst: Flowing&Jumping over its usable
 * paths, the provisional increment on the path chosen, and a free port of
 * it leased until @now_ns + @lease_ns.  Sets @sport and returns the path's
 * index; -EAGAIN if no path is known (yet); -EBUSY if every port of every
 * usable path is leased.  Time: O(paths + pool) and Flowing&Jumping's.
 */
int sluice_faca_place(struct sluice_faca *a, uint32_t dst, uint64_t now_ns,
		      uint64_t lease_ns, uint16_t *sport);

/*
 * Whether pool port @sport may carry the flow being placed: for the hook,
 * whether NAT would find the flow's tuple from it free.
 */
typedef bool sluice_faca_usable_fn(void *arg, uint16_t sport);

/*
 * sluice_faca_place() for a flow the hook saw: a free port @usable refuses
 * is passed over (the next free port of the path, in the same order), a
 * path with no usable free port is left out of the ring and
 * Flowing&Jumping runs again without it; the lease records @flow (may be
 * NULL).  @usable NULL takes every free port.  Returns as
 * sluice_faca_place().  Time: O(paths * (pool + Flowing&Jumping's) + tries
 * * pool), and @usable's per port tried.
 */
int sluice_faca_place_flow(struct sluice_faca *a, uint32_t dst,
			   uint64_t now_ns, uint64_t lease_ns,
			   const struct sluice_faca_hooked *flow,
			   sluice_faca_usable_fn *usable, void *arg,
			   uint16_t *sport);

/*
 * Gives back the lease of @sport toward @addr (network order) at @now_ns.
 * Returns 0; -ENOENT if there is no such lease.  Time: O(destinations).
 */
int sluice_faca_release(struct sluice_faca *a, uint32_t addr, uint16_t sport,
			uint64_t now_ns);

/*
 * Whether the port of a lease that reached its time is still in use (a
 * socket of the namespace from it toward the address): if so the lease
 * is extended by lease_ns.  NULL: leases just expire.
 */
typedef bool sluice_faca_in_use_fn(void *arg, uint32_t addr, uint16_t sport);

/*
 * Ends the leases whose time has come at @now_ns, but those @in_use says
 * a socket still holds.  Returns how many ended.  Time: O(destinations *
 * pool), and @in_use's for each lease due.
 */
uint32_t sluice_faca_expire(struct sluice_faca *a, uint64_t now_ns,
			    sluice_faca_in_use_fn *in_use, void *arg);

struct sluice_fabric;

/*
 * A fabric in multipath mode exact (sluice/multipath.h) gives a pair's
 * path k a range of source ports: @o's pool becomes the first @per_path
 * (1..SLUICE_MP_SPORT_WIDTH) ports of each range, for as many paths as
 * @node's pair with the most paths has in @r (lib/faca/exact.c).
 * Returns 0, or -ENOENT with no pair from @node, -EINVAL.  Time: O(pairs).
 */
int sluice_faca_exact_pool(const struct sluice_routes *r, uint32_t node,
			   uint32_t per_path, struct sluice_faca_opts *o,
			   char *err, size_t errlen);
/*
 * The node of fabric @f whose host this namespace is, by its addresses.
 * 0, or -ENOENT.  Time: O(addresses * hosts).
 */
int sluice_faca_fabric_node(const struct sluice_fabric *f, uint32_t *node,
			    char *err, size_t errlen);

/*
 * Paths named by a route set (lib/faca/routes.c).  On a fabric whose ports
 * carry fabric up's INT labels (sluice/fabric.h: a switch's link port its
 * node's index and the link's id, hosts' ports SLUICE_FABRIC_INT_HOST), a
 * path's records name the links it takes: the records of link ports,
 * walked from the node of the first, are a route's link ids.
 *
 * sluice_faca_route_of() finds that route in @r (of topology @g): 0 with
 * *@pair and *@path (the route set's indexes) set, or -ENOENT when the
 * records are not such a walk (no labels: every record reads node 0 link
 * 0) or the set has no such path.  Time: O(hops + log pairs + the pair's
 * paths * hops).
 */
int sluice_faca_route_of(const struct sluice_graph *g,
			 const struct sluice_routes *r,
			 const struct sluice_faca_hop *hop, unsigned int n_hops,
			 uint64_t *pair, uint64_t *path);

/*
 * Names @a's paths, those known and those found later, by route set @r of
 * topology @g (both kept by the caller while @a lives; NULL: none).
 * Returns 0, or -EINVAL if @r is not @g's.  Time: O(paths *
 * sluice_faca_route_of()).
 */
int sluice_faca_routes(struct sluice_faca *a, const struct sluice_graph *g,
		       const struct sluice_routes *r, char *err,
		       size_t errlen);

/* @sport's index in the pool, or -1. Time: O(log pool). */
int sluice_faca_sport_index(const struct sluice_faca *a, uint16_t sport);

/* The path @sport takes to @dst, or -1. Time: O(log pool). */
int sluice_faca_path_of(const struct sluice_faca *a, uint32_t dst,
			uint16_t sport);

/*
 * The agent: a table driven by probes on the network, serving flows'
 * requests on a unix socket (lib/faca/serve.c).
 *
 * Every --interval it sends, to each destination, a probe from every pool
 * port not yet answered (until one is, or it is lost), one from a port of
 * each known path (in turn among the path's ports), and sweep more from
 * the pool in turn (to notice a port moving to another path), each from
 * a UDP socket bound to the port, with the probes' TOS.  It answers other
 * hosts' probes on its probe port, as every host runs an agent.
 *
 * The unix socket (a stream; one request per line, one reply line each;
 * addresses dotted quads, ports and numbers decimal):
 *
 *   sport ADDR [MS]      a source port for a new flow to ADDR, leased
 *                        for at least MS milliseconds (default: the
 *                        agent's --lease).  "ok PORT PATH PATHS": the
 *                        port, the index of its path and how many paths
 *                        the destination has.  A new destination (one
 *                        a request adds, or given when the agent
 *                        started) is probed first: the reply waits for
 *                        the echoes of its first round, or the probe
 *                        timeout, so that every path is known.
 *   release ADDR PORT    gives a lease back: "ok"
 *   add ADDR             probes ADDR from now on: "ok"
 *   show                 "ok JSON": the table as one line of JSON,
 *                        with the hook's settings and counters ("hook")
 *                        when it runs
 *
 * A request that fails is answered "err ERRNO MESSAGE" (ERRNO the
 * positive errno value); a line that is not a request closes the
 * connection after its "err".  Leases end when released or, after their
 * time, once no TCP socket of the agent's namespace is bound to the port
 * with the destination as its peer (sock_diag) and, with the hook, no
 * open flow conntrack has leaves from the port toward it.
 *
 * The hook (sluice/faca_hook.h, lib/faca/serve_hook.c): with @hook set,
 * the agent installs the netfilter hook in its namespace and serves its
 * queue in the same loop, so that unmodified programs' new flows are
 * placed as "sport" requests are, their source port rewritten by NAT:
 *
 *   - a flow from a pool port keeps it: the agent's probes (UDP) and
 *     flows that asked the agent for their port;
 *   - a flow to a destination not probed yet adds it, and its first
 *     packet waits in the queue for the destination's first round, as a
 *     "sport" request does, but never longer than the probe timeout nor
 *     SLUICE_FACA_HOOK_WAIT_NS (TCP sends its SYN again after 1 s); with
 *     no path known then, the flow keeps its own port (plain ECMP);
 *   - a port whose tuple toward the flow's service conntrack still holds
 *     (an earlier flow in TIME_WAIT) is passed over, as NAT could not
 *     give it (sluice_faca_place_flow());
 *   - the flow's lease records it ("show" lists it under its path), and
 *     lasts as long as conntrack has the flow open (TCP short of
 *     TIME_WAIT, UDP while its entry lives).
 *
 * The agent stopped, killed or restarted never breaks a connection: the
 * hook's queue is bypassed while nobody serves it (new flows keep their
 * own ports), and the table stays for the rewritten flows still open
 * (sluice_faca_hook_close()).
 */
/* The longest a hooked flow waits for its destination's first round. */
#define SLUICE_FACA_HOOK_WAIT_NS	500000000ull

struct sluice_faca_serve {
	const char	*socket;	/* NULL: sluice_faca_socket_path() */
	/*
	 * The netfilter hook run in the agent's loop, Flowing&Jumping its
	 * chooser (see "The hook" above; cfg->report and the ports to fill
	 * the map with are the agent's own); NULL: none
	 */
	const struct sluice_faca_hook_cfg *hook;
	/* set (by a signal handler) to stop the agent; NULL: never */
	const volatile sig_atomic_t *stop;
	/* progress and events, a line each (-v); NULL: none */
	void		(*log)(void *arg, const char *line);
	void		*log_arg;
	/*
	 * Called once every socket is open (the unix socket's path given),
	 * before the first probe goes out; NULL: never.
	 */
	void		(*ready)(void *arg, const char *socket);
	void		*ready_arg;
};

/*
 * Runs the agent on @a until *@s->stop: binds the probe port, the pool's
 * ports and the unix socket (its directory made; a stale socket of a dead
 * agent replaced, a live agent's refused with -EADDRINUSE), probes the
 * destinations already in @a and those requests add.  Returns 0 once
 * stopped, or -errno.  Time: until stopped.
 */
int sluice_faca_serve(struct sluice_faca *a, const struct sluice_faca_serve *s,
		      char *err, size_t errlen);

/*
 * The table as JSON text (malloc()ed, the caller frees): the options,
 * and per destination its paths (hops, B, util, avail, D, rtt, beta, E,
 * ports, leases) and its ports (path, leased for how long).  Times in
 * seconds from @now_ns.  NULL when out of memory.  Time: O(size).
 */
char *sluice_faca_json(const struct sluice_faca *a, uint64_t now_ns);

/*
 * An agent in every host of a fabric (lib/faca/agents.c), each a thread
 * of the calling process in its host's namespace, serving as "sluicectl
 * faca agent" would there, on its namespace's own socket, so that flows
 * from the host find it as they find a daemon; under emulation, where a
 * process start costs a tenth of a second, without a process each.  Host
 * h (the fabric's host order) probes @dst[h] (network order) from its
 * start; 0: no destination, it answers others' probes.  Each draws
 * Flowing&Jumping's paths from a stream of its own, @o's seed mixed with
 * h, as hosts deciding apart would.
 */
struct sluice_faca_agents;

/*
 * Starts the agents with options @o (@dst NULL: none probes) and waits
 * until every one serves.  Returns 0, or -errno with a message (the
 * first agent that failed, the others stopped).  Time: the threads'
 * starts, O(hosts * pool).
 */
int sluice_faca_agents_start(struct sluice_faca_agents **out,
			     const struct sluice_fabric *f,
			     const struct sluice_faca_opts *o,
			     const uint32_t *dst, char *err, size_t errlen);
/* Host @h's agent's socket; NULL if @h is not a host. Time: O(1). */
const char *sluice_faca_agents_socket(const struct sluice_faca_agents *ag,
				      uint32_t h);
/*
 * Stops every agent, waits for its thread, frees @ag (NULL: nothing).
 * Returns 0, or the first error an agent met while serving, with its
 * message.  Time: an --interval at most.
 */
int sluice_faca_agents_stop(struct sluice_faca_agents *ag, char *err,
			    size_t errlen);

/*
 * The clients' side (lib/faca/client.c).  @socket NULL means
 * sluice_faca_socket_path() of the calling thread's namespace.  Every
 * call gives up after SLUICE_FACA_CALL_MS; an agent that is not there
 * (-ENOENT, -ECONNREFUSED), that answers late (-ETIMEDOUT) or that
 * refuses (its errno) leaves the caller to fall back: a port of 0, the
 * kernel's choice, which plain ECMP hashes.
 */
#define SLUICE_FACA_CALL_MS		3000
#define SLUICE_FACA_SOCKET_DIR		"/run/sluice"

/*
 * The agent socket of the calling thread's network namespace:
 * SLUICE_FACA_SOCKET_DIR/faca-net<inode>.sock, the inode of
 * /proc/thread-self/ns/net, one agent per namespace.  Returns 0, or
 * -errno.  Time: O(1).
 */
int sluice_faca_socket_path(char *buf, size_t len, char *err, size_t errlen);

/*
 * A source port for a new flow to @dst (network order), leased for
 * @lease_ms at least (0: the agent's default).  Sets @sport and returns
 * 0, or -errno (see above).  Time: one request, at most
 * SLUICE_FACA_CALL_MS.
 */
int sluice_faca_sport(const char *socket, uint32_t dst, uint32_t lease_ms,
		      uint16_t *sport, char *err, size_t errlen);
/* Gives a lease back. 0 or -errno. Time: one request. */
int sluice_faca_release_port(const char *socket, uint32_t dst, uint16_t sport,
			     char *err, size_t errlen);
/* Asks the agent to probe @dst. 0 or -errno. Time: one request. */
int sluice_faca_add(const char *socket, uint32_t dst, char *err,
		    size_t errlen);
/* The agent's table as JSON text, malloc()ed. 0 or -errno. */
int sluice_faca_show(const char *socket, char **json, char *err,
		     size_t errlen);

/* sluice_faca_connect() flags */
#define SLUICE_FACA_FALLBACK		(1u << 0)	/* no agent: port 0 */

/*
 * A TCP socket to @to from a port the agent leases (SO_REUSEADDR, so
 * that flows to other destinations may share it), connect()ed (a
 * nonblocking socket with SOCK_NONBLOCK in @type_flags returns at
 * EINPROGRESS).  The lease lasts as long as the connection: past its
 * least life the agent keeps it while a socket of the namespace is bound
 * to the port toward @to's address (TIME_WAIT included), and a caller
 * may end it sooner with sluice_faca_release_port() after close().  If
 * connect() fails the lease is released at once.  Without an agent, with
 * SLUICE_FACA_FALLBACK, the socket connects from a port the kernel
 * chooses, *@sport is 0 and @err says why; without the flag that is an
 * error.  Returns the descriptor, or -errno.  Time: one request and a
 * connect().
 */
int sluice_faca_connect(const char *socket, const struct sockaddr_in *to,
			int type_flags, unsigned int flags, uint16_t *sport,
			char *err, size_t errlen);

#endif /* _SLUICE_FACA_H */
