/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A host's TCP profile toward a lossless fabric (lib/fabric/host.c): the
 * route metrics that make the kernel's TCP behave as TCP-Bolt (Practical
 * DCB, Section III-A) on the routes that lead into the fabric:
 *
 *   congctl lock dctcp     DCTCP, which an application cannot override
 *   features ecn           ECN negotiated on connections the host opens
 *   initcwnd N initrwnd N  a first window of the bandwidth-delay product,
 *                          in segments, so that a flow starts at line rate
 *                          (slow start is what PFC makes unnecessary:
 *                          nothing is lost, so nothing needs probing)
 *
 * Per-route metrics are the kernel's own place for this (ip-route(8)'s
 * congctl, features, initcwnd, initrwnd): they leave the host's other
 * destinations alone, as the paper's Section V-D asks.  The congestion
 * control goes down as a string (RTAX_CC_ALGO), the rest as u32; libnl's
 * route objects carry every metric as u32, so these messages are built and
 * read here attribute by attribute.
 *
 * A profile is applied by replacing each chosen route with itself plus the
 * profile's metrics (every other attribute and metric kept): applying it
 * again changes nothing, "off" removes just the profile's metrics, and a
 * refused replacement puts back the routes already changed.
 *
 * The bandwidth-delay product comes from the link rate and a round trip
 * measured with ICMP echoes of full-sized frames (sluice_echo_rtt()): the
 * frame a TCP segment fills, so the measure includes its serialization on
 * every hop, as the first window's last segment meets it.  The echo's
 * reply is full-sized too while an ACK is not, so the measure exceeds the
 * data's round trip by at most a frame time per hop: a first window that
 * is a little large, which PFC absorbs.
 *
 * Functions that fail return a negative errno with a message in @err
 * (SLUICE_ERRLEN bytes are enough).
 */
#ifndef _SLUICE_HOST_H
#define _SLUICE_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include <sluice/qopt.h>

#define SLUICE_CC_NAME_MAX	16	/* TCP_CA_NAME_MAX */
/* Linux's own first window (TCP_INIT_CWND): no profile goes below it. */
#define SLUICE_HOST_INIT_CWND	10
/* A first window beyond this is a mistake (rate or round trip wrong). */
#define SLUICE_HOST_CWND_MAX	65535
/*
 * The first flight is also bounded by the receiver's first window, which a
 * SYN-ACK carries unscaled (RFC 7323): 65535 bytes, 45 segments of 1448,
 * whatever initrwnd says.  A profile may ask for more (the window is
 * larger from the first ACK on); sluice_host_first_flight() says what the
 * first round trip carries.
 */
#define SLUICE_HOST_SYN_WINDOW	65535
/* IPv4 and TCP headers with timestamps: a segment's payload is MTU - 52 */
#define SLUICE_HOST_TCP_OVERHEAD	52

/* The metrics a profile owns; what it does not set stays as it was. */
struct sluice_host_profile {
	char		cc[SLUICE_CC_NAME_MAX];	/* "": none */
	bool		cc_lock;	/* applications cannot override it */
	bool		ecn;		/* RTAX_FEATURE_ECN */
	uint32_t	initcwnd;	/* segments, 0: none */
	uint32_t	initrwnd;	/* segments, 0: none */
};

/* Profiles by name: "bolt" (TCP-Bolt's) and "off" (no metric). */
enum sluice_host_profile_kind {
	SLUICE_HOST_PROFILE_OFF,
	SLUICE_HOST_PROFILE_BOLT,
};

const char *sluice_host_profile_name(unsigned int kind);
int sluice_host_profile_parse(const char *s);

/*
 * TCP-Bolt's profile for a link of @rate bit/s and a round trip of @rtt_ns:
 * dctcp locked, ECN, and a first window of ceil(rate * rtt / 8 / MSS)
 * segments (MSS = @mtu - SLUICE_HOST_TCP_OVERHEAD), never below
 * SLUICE_HOST_INIT_CWND.  Refuses a window over SLUICE_HOST_CWND_MAX.
 * O(1).
 */
int sluice_host_profile_bolt(struct sluice_host_profile *p, uint64_t rate,
			     uint64_t rtt_ns, uint32_t mtu, char *err,
			     size_t errlen);
/* Segments of the first round trip: min(initcwnd, 65535 / MSS). O(1). */
uint32_t sluice_host_first_flight(uint32_t initcwnd, uint32_t mtu);
bool sluice_host_profile_equal(const struct sluice_host_profile *a,
			       const struct sluice_host_profile *b);
/* "congctl lock dctcp features ecn initcwnd 40 initrwnd 40", or "none". */
size_t sluice_host_profile_format(const struct sluice_host_profile *p,
				  char *buf, size_t len);

/* A route a profile applies to, as read back. */
struct sluice_host_route {
	uint32_t			dst;		/* host order */
	uint8_t				dst_len;
	uint32_t			gateway;	/* 0: none, or multipath */
	int				oif;		/* 0: multipath */
	char				dev[SLUICE_IFNAME_MAX];
	uint8_t				protocol;
	struct sluice_host_profile	p;		/* the metrics in force */
};

struct sluice_host_routes {
	struct sluice_host_route	*r;
	uint32_t			n;
};

/*
 * The IPv4 unicast routes of the main table in @r's namespace that leave
 * by device @ifindex (0: by any device but lo), with the profile metrics
 * they carry.  O(routes of the namespace).
 */
int sluice_host_routes_read(struct sluice_rtnl *r, int ifindex,
			    struct sluice_host_routes *out, char *err,
			    size_t errlen);
void sluice_host_routes_free(struct sluice_host_routes *rs);

/* What sluice_host_profile_apply() did. */
struct sluice_host_apply {
	uint32_t	routes;		/* chosen */
	uint32_t	changed;
	uint32_t	unchanged;	/* already as asked */
};

/*
 * Gives every route sluice_host_routes_read() chooses the metrics of @p
 * (NULL: removes the profile's metrics, "off"), all or nothing: if the
 * kernel refuses one replacement, the routes already replaced are put back
 * and the refused one is named.  No chosen route is an error (nothing to
 * apply a profile to).  O(routes) requests, in one batch.
 */
int sluice_host_profile_apply(struct sluice_rtnl *r, int ifindex,
			      const struct sluice_host_profile *p,
			      struct sluice_host_apply *res, char *err,
			      size_t errlen);

/*
 * The round trip from namespace @ns ("" : ours) to @dst: @count ICMP echo
 * requests of @size bytes of IP packet, one at a time, each given @timeout
 * seconds; @rtt_ns gets the median of those answered.  Needs a raw socket
 * (root).  -ETIMEDOUT if fewer than half are answered.
 * O(@count) round trips.
 */
int sluice_echo_rtt(const char *ns, uint32_t dst, uint32_t size,
		    uint32_t count, double timeout, uint64_t *rtt_ns,
		    char *err, size_t errlen);

/* An emulated delay on what a host's device sends (netem). O(1). */
int sluice_host_delay(const char *ns, int ifindex, uint64_t delay_ns,
		      char *err, size_t errlen);

/* A fabric's round trip, and a profile on its hosts (see host.c). */
/* Time: O(N + E) plus 5 round trips. */
int sluice_fabric_rtt(const struct sluice_fabric *f, bool routed,
		      uint32_t size, uint64_t *rtt_ns, char *how,
		      size_t howlen, char *err, size_t errlen);
/* Time: O(hosts x routes). */
int sluice_fabric_host_profile(const struct sluice_fabric *f,
			       const uint32_t *node, const uint32_t *host,
			       uint32_t n, const struct sluice_host_profile *p,
			       struct sluice_host_apply *res, uint32_t *done,
			       char *err, size_t errlen);

/* The switch side (lib/fabric/ecn.c): DCTCP's K, set on every class. */
uint32_t sluice_ecn_threshold(uint64_t rate, uint64_t rtt_ns, uint32_t mtu);
/* Time: as sluice_fabric_classes(). */
int sluice_fabric_ecn(const struct sluice_fabric *f,
		      const struct sluice_fabric_qdisc *q, uint32_t ecn,
		      char *err, size_t errlen);
/*
 * Class options (limit, ecn, quantum) on every switch port's classes.  Time:
 * O(switch ports x classes) requests, one batch per switch.
 */
int sluice_fabric_classes(const struct sluice_fabric *f,
			  const struct sluice_fabric_qdisc *q,
			  const struct sluice_copt *c, char *err,
			  size_t errlen);

#endif /* _SLUICE_HOST_H */
