/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_sluice internals shared by the files of the module.  The ABI lives
 * in include/uapi/linux/sluice.h; read its prose first.
 */
#ifndef _SLUICE_H
#define _SLUICE_H

#include <linux/hrtimer.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>
#include <uapi/linux/sluice.h>

/* A map per tag source, indexed by enum tc_sluice_tag. */
#define SLUICE_NR_MAPS		(TC_SLUICE_TAG_MAX + 1)
#define SLUICE_MAP_MAX_VALUES	TC_SLUICE_DSCP_VALUES

/* PFC names 8 priorities; priority p is class p. */
#define SLUICE_NR_PRIOS		8
#define SLUICE_PAUSE_TIME	0xffff
/* XOFF refreshes, and retries of frames that could not be queued, at most
 * this often: a tiny pause time at a high rate must not spin a CPU.
 */
#define SLUICE_MIN_REFRESH_NS	(20 * NSEC_PER_USEC)
/* A backlogged link makes up at most this much lost wire time at once. */
#define SLUICE_MAX_CATCHUP_NS	(10 * NSEC_PER_MSEC)
/* Above this, one quantum lasts less than 1 ns. */
#define SLUICE_MAX_RATE		(512ULL * NSEC_PER_SEC)
/* Pause frames waiting to leave a port; more are dropped. */
#define SLUICE_CTRL_LIMIT	64

/*
 * Everything "tc qdisc change" can set.  A change is built in a copy of
 * this, validated as a whole, then committed under the tree lock, so a
 * rejected request leaves nothing half-applied.
 */
struct sluice_config {
	u8	nclasses;
	u8	tag;		/* enum tc_sluice_tag */
	u8	defclass;	/* class of frames without the tag */
	u8	custom_maps;	/* BIT(tag) for each map the user has set */
	u32	limit;		/* bytes per class, set for all by the qdisc */
	u8	map[SLUICE_NR_MAPS][SLUICE_MAP_MAX_VALUES];
	u64	rate;		/* bits/s of the link, 0: unshaped */
	u8	pfc;		/* BIT(prio) for each lossless priority */
	u8	pause_rx;	/* honour received pause frames */
	u16	pause_time;	/* quanta of the XOFF frames sent */
	u32	xoff;		/* ingress account that pauses upstream */
	u32	xon;		/* ingress account that resumes it */
	u32	headroom;	/* bytes above xoff a lossless priority takes */
};

/*
 * The switch's side of a port: its ingress accounts and the pause frames
 * it sends upstream.  Frames that arrived on the port hold a reference
 * while they sit in any egress queue of the switch, so it can outlive its
 * qdisc; from then on dev and sch are NULL and nothing is sent.
 */
struct sluice_port {
	refcount_t		refcnt;
	struct rcu_head		rcu;
	int			ifindex;

	/* The qdisc's PFC settings, read without its lock. */
	u64			rate;
	u32			xoff, xon, headroom;
	u16			pause_time;
	u8			pfc;

	atomic_t		ingress[SLUICE_NR_PRIOS];	/* bytes */
	atomic_t		ingress_peak[SLUICE_NR_PRIOS];

	/* Pause generation, under lock (taken inside qdisc locks). */
	spinlock_t		lock;
	struct net_device	*dev;
	struct Qdisc __rcu	*sch;
	unsigned long		xoff_state;	/* BIT(p): upstream paused */
	unsigned long		xon_pending;	/* BIT(p): resume to send */
	struct hrtimer		timer;		/* sends, then refreshes */
	u64			xoff_tx[SLUICE_NR_PRIOS];
	u64			xon_tx[SLUICE_NR_PRIOS];
	u64			pfc_tx;
	bool			headroom_warned;
};

/* What enqueue charged a frame to, so dequeue and drops can release it. */
struct sluice_skb_cb {
	struct sluice_port	*in;
	u8			prio;
};

static inline struct sluice_skb_cb *sluice_skb_cb(const struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct sluice_skb_cb));
	return (struct sluice_skb_cb *)qdisc_skb_cb(skb)->data;
}

struct sluice_class {
	struct qdisc_skb_head		q;	/* the FIFO */
	u32				limit;	/* bytes */
	u32				peak_backlog;
	u64				limit_drops;
	u64				headroom_drops;
	u32				ecn;	/* mark above, bytes; 0: off */
	u32				quantum; /* DWRR bytes; 0: strict */
	u32				deficit;
	u64				ecn_marks;
	struct gnet_stats_basic_sync	bstats;	/* sent */
	struct gnet_stats_queue		qstats;	/* backlog, drops */
	/* Pause received: until when, since when, counters. */
	u64				paused_until;	/* ns */
	u64				paused_since;	/* ns */
	u64				paused_ns;
	u64				pfc_rx;
	u64				xon_rx;
};

struct sluice_sched {
	struct sluice_config	cfg;
	u32			active;	/* BIT(class) for each non-empty class */
	u32			paused;	/* BIT(class) for each paused class */
	u32			weighted; /* BIT(class): has a DWRR quantum */
	unsigned int		rr;	/* the DWRR class whose turn it is */
	bool			dead;	/* destroy has begun: no more kicks */
	struct qdisc_skb_head	ctrl;	/* pause frames to send, first */
	struct qdisc_watchdog	watchdog;
	u64			t_next;	/* ns: when the link is free */
	bool			link_idle; /* nothing sendable since t_next */
	u64			peek_ns; /* the clock of a peek, for dequeue */
	struct sluice_port	*port;	/* NULL unless the root qdisc */
	u64			untagged;
	u64			limit_drops;
	u64			headroom_drops;
	u64			pause_rx;
	u64			pfc_rx;
	u64			pause_malformed;
	u64			pause_untrusted;
	struct sluice_class	classes[TC_SLUICE_MAX_CLASSES];
};

/* Class handles are minor numbers 1..N; class index i has minor i + 1. */
static inline struct sluice_class *sluice_class(struct sluice_sched *q,
						unsigned long arg)
{
	return &q->classes[arg - 1];
}

/* The extack message with the module's name in front, on attribute attr. */
#define SLUICE_ERR(extack, attr, msg) \
	NL_SET_ERR_MSG_ATTR(extack, attr, KBUILD_MODNAME ": " msg)

extern const struct Qdisc_class_ops sluice_class_ops;
extern struct Qdisc_ops sluice_qdisc_ops;

/* options.c */
void sluice_config_default(struct sluice_config *cfg, struct Qdisc *sch);
int sluice_config_parse(struct sluice_config *cfg, struct nlattr *opt,
			struct netlink_ext_ack *extack);
int sluice_config_dump(const struct sluice_config *cfg, struct sk_buff *skb);
/* What "tc class change" may set; the caller fills in the current values. */
struct sluice_class_opts {
	u32	limit;
	u32	ecn;
	u32	quantum;
};

int sluice_class_opts_parse(struct nlattr *opt, struct sluice_class_opts *o,
			    struct netlink_ext_ack *extack);

/* classify.c */
int sluice_tag_read(const struct sk_buff *skb, unsigned int tag);

/* switch.c */
int sluice_switch_init(void);
void sluice_switch_exit(void);
struct sluice_port *sluice_port_alloc(struct Qdisc *sch);
int sluice_port_publish(struct sluice_port *port);
void sluice_port_detach(struct sluice_port *port);
void sluice_port_config(struct sluice_port *port,
			const struct sluice_config *cfg);
struct sluice_port *sluice_port_lookup_rcu(struct net *net, int ifindex);
u32 sluice_ingress_charge(struct sk_buff *skb, struct net *net,
			  unsigned int prio);
void sluice_ingress_release(struct sk_buff *skb);

/* pause.c */
int sluice_pause_init(void);
void sluice_pause_exit(void);
u64 sluice_quanta_ns(u32 quanta, u64 rate);
void sluice_pause_expire(struct sluice_sched *q, u64 now);
u64 sluice_pause_next_expiry(const struct sluice_sched *q);

#endif /* _SLUICE_H */
