/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel side of a fabric (lib/fabric/{netns,rtnl,up,kroute}.c):
 * network namespaces kept as `ip netns` keeps them, rtnetlink through
 * libnl-route-3 with requests batched and acknowledged in bulk, a fabric
 * brought up and down, and a switch's routes read, diffed and replaced.
 *
 * No libnl type shows here: callers see opaque handles.  Functions that
 * can fail return 0 (or a non-negative value) or a negative errno with a
 * message in @err naming what failed, with the kernel's extended ack when
 * it gave one.
 */
#ifndef _SLUICE_FABRIC_NL_H
#define _SLUICE_FABRIC_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/fabric.h>
#include <sluice/qopt.h>
#include <sluice/route.h>

#define SLUICE_NETNS_DIR	"/run/netns"

/* Network namespaces, named as ip-netns(8) names them. */
/* Time: O(1). */
int sluice_netns_self(char *err, size_t errlen);
/* Time: O(1). */
int sluice_netns_open(const char *name, char *err, size_t errlen);
/* Time: O(1). */
int sluice_netns_enter_fd(int fd, const char *name, char *err, size_t errlen);
/* Time: O(1). */
int sluice_netns_enter(const char *name, char *err, size_t errlen);
/* Time: O(1) system calls; the kernel's namespace setup dominates. */
int sluice_netns_create(const char *name, char *err, size_t errlen);
/* Time: O(1) system calls. */
int sluice_netns_delete(const char *name, char *err, size_t errlen);
bool sluice_netns_exists(const char *name);
/* Time: O(E log E) for E entries. */
int sluice_netns_list(const char *prefix, char ***names, size_t *n,
		      char *err, size_t errlen);
void sluice_netns_list_free(char **names, size_t n);
/* Time: O(1) system calls. */
int sluice_netns_exec(const char *name, char *const argv[], char *err,
		      size_t errlen);
/* Time: O(1) system calls. */
int sluice_sysctl_write(const char *key, const char *value, char *err,
			size_t errlen);

/* An rtnetlink socket, in the namespace it was opened in. */
struct sluice_rtnl;

/* Time: O(1). */
int sluice_rtnl_open(struct sluice_rtnl **out, char *err, size_t errlen);
int sluice_rtnl_open_in(const char *ns, int self, struct sluice_rtnl **out,
			char *err, size_t errlen);
void sluice_rtnl_close(struct sluice_rtnl *r);
/* Time: O(devices). */
int sluice_rtnl_ifindex(struct sluice_rtnl *r, const char *dev,
			char *err, size_t errlen);

/* Fabric up, with what each phase took (seconds). */
struct sluice_fabric_stats {
	uint32_t	namespaces;
	uint32_t	veths;
	uint32_t	qdiscs;
	uint32_t	neighbours;	/* permanent ARP entries */
	uint32_t	requests;	/* rtnetlink requests sent */
	uint32_t	sysctls;	/* /proc/sys writes */
	bool		neigh_raised;	/* ARP table thresholds raised */
	double		t_netns;	/* namespaces and their sysctls */
	double		t_links;	/* veths, loopbacks up */
	double		t_sysctl;	/* per-device MPLS input */
	double		t_addrs;	/* addresses, host default routes,
					 * neighbours
					 */
	double		t_qdiscs;
	double		t_total;
};

/*
 * The qdisc of every port: options for link ports and for host ports
 * (encoded with their MTUs), or no qdisc at all (@enabled false).
 */
struct sluice_fabric_qdisc {
	bool			enabled;
	uint8_t			fc;	/* enum sluice_fabric_fc */
	/* lanes (0: none; sluice_fabric_lanes_apply()) and their priorities */
	uint8_t			lanes;
	uint8_t			lane_prio[SLUICE_LANES_MAX];
	struct sluice_qopt	link;	/* "xoff auto" resolved */
	struct sluice_qopt	host;
	/*
	 * Every class of every switch port (not the hosts' own) marks ECT
	 * frames CE above this many bytes (the class option "ecn"); 0: off.
	 */
	uint32_t		ecn;
	/*
	 * Each link's rate by link id, bits/s, both its ports shaped to it
	 * (fabric up's --node-rate: sluice_fabric_link_rates()); NULL: every
	 * link port at @link's rate
	 */
	const uint64_t		*link_rate;
	/*
	 * A link port's own rate, bits/s, by its adjacency index (g->off[u]
	 * + port), before @link_rate; 0: its link's.  The ends of a link may
	 * differ: a leaf's uplink faster than its spine's port down, so that
	 * the spine is where the link's traffic queues.  NULL: none.
	 */
	const uint64_t		*port_rate;
};

/* A fabric's flow control, one for all its ports (lib/fabric/fc.c). */
enum sluice_fabric_fc {
	SLUICE_FABRIC_FC_NONE,		/* the qdisc options as given */
	SLUICE_FABRIC_FC_PFC,		/* one lossless priority */
	SLUICE_FABRIC_FC_PFC_STAR,	/* Tagger's cut-over per hop */
	SLUICE_FABRIC_FC_PORTFC,	/* PortFC, on a BCube */
};

const char *sluice_fabric_fc_name(unsigned int fc);
int sluice_fabric_fc_parse(const char *s);
/* Time: O(parameters). */
bool sluice_fabric_bcube(const struct sluice_graph *g, uint32_t *n,
			 uint32_t *k);
/* Time: O(parameters). */
int sluice_fabric_fc_apply(const struct sluice_fabric *f,
			   struct sluice_fabric_qdisc *q, char *err,
			   size_t errlen);
/* Time: O(DSCP values). */
int sluice_fabric_lanes_apply(struct sluice_fabric_qdisc *q, char *err,
			      size_t errlen);
/* Time: O(1). */
void sluice_fabric_port_qopt(const struct sluice_fabric *f,
			     const struct sluice_fabric_qdisc *q, uint32_t u,
			     uint32_t port, struct sluice_qopt *o);
/*
 * A port's INT labels, when @o stamps probes (lib/fabric/int.c).  Time: O(1).
 */
void sluice_fabric_int_label(const struct sluice_fabric *f, uint32_t u,
			     uint32_t port, bool host_side,
			     struct sluice_qopt *o);

/*
 * Time: O(N + H + L) requests and sysctl writes, in O(N + H) batches per phase,
 * for N switches, H hosts and L links.
 */
int sluice_fabric_up(const struct sluice_fabric *f,
		     const struct sluice_fabric_qdisc *q,
		     struct sluice_fabric_stats *st, char *err, size_t errlen);
/*
 * Time: O(N + H) system calls; the kernel frees the namespaces and their
 * devices afterwards, on its own.
 */
int sluice_fabric_down(const struct sluice_fabric *f, uint32_t *removed,
		       char *err, size_t errlen);

/*
 * The path the kernel gives a flow (lib/fabric/flowpath.c): what "ip route
 * get DST from SRC iif DEV ipproto P sport S dport D" answers, through
 * the rules and the multipath hash of the namespace.
 */
struct sluice_flow_key {
	uint32_t	src, dst;	/* IPv4, host order */
	uint8_t		proto;		/* IPPROTO_TCP, IPPROTO_UDP */
	uint16_t	sport, dport;
	int		iif;		/* the device it arrives by */
};

/* Time: one request. */
int sluice_route_get_oif(struct sluice_rtnl *r, const struct sluice_flow_key *k,
			 int *oif, char *err, size_t errlen);
/* Time: one request. */
int sluice_fabric_flow_link(const struct sluice_fabric *f,
			    struct sluice_rtnl *r, uint32_t u, uint32_t i,
			    const struct sluice_flow_key *k, uint32_t *link,
			    char *err, size_t errlen);

/* The multipath mode's hash (sluice/multipath.h, lib/fabric/multipath_ns.c) */
/* Time: O(1). */
int sluice_multipath_sysctls(unsigned int mode, uint32_t *written, char *err,
			     size_t errlen);
/* Time: O(N) namespace changes and sysctl writes for N switches. */
int sluice_fabric_multipath_set(const struct sluice_fabric *f,
				unsigned int mode, char *err, size_t errlen);
/* Time: O(1). */
int sluice_fabric_multipath_check(unsigned int mode,
				  const struct sluice_fabric_qdisc *q,
				  char *err, size_t errlen);

/* A switch's routes in the kernel (only those of protocol SLUICE_RTPROT). */
/* Time: O(routes of the namespace) plus the dumps. */
int sluice_kroutes_read(struct sluice_rtnl *r, struct sluice_lroutes *have,
			char *err, size_t errlen);
/* Time: O(nexthops * devices). */
int sluice_kroutes_check(struct sluice_rtnl *r,
			 const struct sluice_lroutes *want,
			 char *err, size_t errlen);

/* Which operation of a diff the kernel refused, and how. */
struct sluice_kfail {
	uint64_t	op;		/* index in the diff's ops */
	int		error;		/* negative errno */
	char		extack[SLUICE_ERRLEN];
	bool		restored;	/* the held routes are back */
};

/* Time: O(routes changed) requests. */
int sluice_kroutes_apply(struct sluice_rtnl *r,
			 const struct sluice_lroutes *want,
			 const struct sluice_lroutes *have,
			 const struct sluice_ldiff *d, struct sluice_kfail *fail,
			 char *err, size_t errlen);

/* A port's counters: the device's, and each sluice class's. */
#define SLUICE_PORT_CLASSES	TC_SLUICE_MAX_CLASSES

struct sluice_port_counters {
	char		dev[SLUICE_IFNAME_MAX];
	int		ifindex;
	uint64_t	tx_packets, tx_bytes, tx_dropped;
	uint64_t	rx_packets, rx_bytes, rx_dropped;
	uint32_t	classes;	/* sluice classes; 0: no sluice qdisc */
	uint64_t	cls_packets[SLUICE_PORT_CLASSES];
	uint64_t	cls_bytes[SLUICE_PORT_CLASSES];
	uint64_t	cls_drops[SLUICE_PORT_CLASSES];
	uint64_t	cls_backlog[SLUICE_PORT_CLASSES];	/* bytes */
};

/* Time: O(devices + classes), one link dump and a class dump per device. */
int sluice_port_counters_read(struct sluice_rtnl *r,
			   struct sluice_port_counters **ports, uint32_t *n,
			   char *err, size_t errlen);

/* A port's root sluice qdisc and its options, as the kernel dumps them. */
#define SLUICE_QOPT_DUMP_MAX	2048

struct sluice_port_qdisc {
	char		dev[SLUICE_IFNAME_MAX];
	int		ifindex;
	uint32_t	handle;
	size_t		len;
	unsigned char	opts[SLUICE_QOPT_DUMP_MAX];	/* inside TCA_OPTIONS */
};

/* A switch port's qdisc options as it holds them (sluice_fabric_port_qopts()). */
struct sluice_fabric_port_qopt {
	uint32_t		node;		/* in the fabric's topology */
	char			dev[SLUICE_IFNAME_MAX];
	struct sluice_qopt	o;		/* sluice_qopt_decode() */
};

/* A "tc qdisc change": the attributes to nest in TCA_OPTIONS. */
struct sluice_qchange {
	int		ifindex;
	uint32_t	handle;
	const void	*opts;
	size_t		len;
};

/* Time: O(devices + qdiscs), a link dump and a qdisc dump. */
int sluice_port_qdiscs_read(struct sluice_rtnl *r,
			    struct sluice_port_qdisc **ports, uint32_t *n,
			    char *err, size_t errlen);
/* Time: O(size of the options). */
int sluice_qopt_restorable(const struct sluice_port_qdisc *p, bool with_limit,
			   void *buf, size_t len, size_t *used);
/*
 * Every switch (and server) port's root sluice qdisc options, read from the
 * kernel.  Time: O(ports), two dumps per switch.
 */
int sluice_fabric_port_qopts(const struct sluice_fabric *f,
			     struct sluice_fabric_port_qopt **out,
			     uint32_t *n, char *err, size_t errlen);
/* Time: O(@n) plus the kernel's work. */
int sluice_port_qdiscs_change(struct sluice_rtnl *r,
			      const struct sluice_qchange *c, uint32_t n,
			      struct sluice_kfail *fail, char *err,
			      size_t errlen);

#endif /* _SLUICE_FABRIC_NL_H */
