/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sch_sluice internals shared by the files of the module.  The ABI lives
 * in include/uapi/linux/sluice.h; read its prose first.
 */
#ifndef _SLUICE_H
#define _SLUICE_H

#include <linux/hrtimer.h>
#include <linux/if_ether.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>
#include <uapi/linux/sluice.h>

/* A map per tag source, indexed by enum tc_sluice_tag. */
#define SLUICE_NR_MAPS		(TC_SLUICE_TAG_MAX + 1)
#define SLUICE_MAP_MAX_VALUES	TC_SLUICE_DSCP_VALUES

/*
 * PFC names 8 priorities.  Which class a priority's frames use, and which
 * priority a class's frames have, is a mapping (sluice_sched's prio_class
 * and class_prio), the identity for the first 8 classes today.
 */
#define SLUICE_NR_PRIOS		8
#define SLUICE_PRIO_NONE	0xff	/* a class no priority maps to */
#define SLUICE_PAUSE_TIME	0xffff
/*
 * Classes of a qdisc.  A set of classes is an unsigned long, so that
 * dequeue's choice is a few bit operations: the limit can grow with the
 * uapi's up to BITS_PER_LONG (checked in sluice_init()); past that, the
 * sets become bitmaps.
 */
#define SLUICE_MAX_CLASSES	TC_SLUICE_MAX_CLASSES

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
/* A signal that could not be sent is retried at most this late. */
#define SLUICE_SIGNAL_MAX_BACKOFF_NS	NSEC_PER_MSEC
/* Keys of a signal sender: PFC's 8 priorities, PortFC's queues. */
#define SLUICE_SIGNAL_MAX_KEYS	32

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
	/* The PFC watchdog */
	u8	wd_prios;	/* BIT(prio) for each watched priority */
	u8	wd_action;	/* enum tc_sluice_wd_action */
	u32	wd_detect_ms;
	u32	wd_restore_ms;
	u32	wd_poll_ms;
	/* PortFC (portfc.c): role, BCube's n and k, and this port's index */
	u8	portfc;		/* enum tc_sluice_portfc_role */
	u8	portfc_n;
	u8	portfc_k;
	u8	portfc_index;
	u8	portfc_hq;	/* TC_SLUICE_PORTFC_HQ_* */
	u8	portfc_hq_dscp;	/* TC_SLUICE_PORTFC_DSCP_NONE: none */
	u32	portfc_label_base;
	u32	portfc_xoff[2];	/* by enum sluice_portfc_qtype */
	u32	portfc_xon[2];
	/* In-band telemetry (int.c): probes' UDP port (0: off), ids */
	u16	int_port;
	u32	int_node;
	u32	int_link;
};

struct sluice_switch_pcpu;
struct sluice_tagmap;

/* ctrl.c: the control-frame codec (PFC and 802.3x PAUSE). */
enum sluice_ctrl_kind {
	SLUICE_CTRL_PAUSE,	/* 802.3x: quanta[0] for the whole link */
	SLUICE_CTRL_PFC,	/* 802.1Qbb: quanta[p] for p in enable */
};

struct sluice_ctrl {
	u8	kind;		/* enum sluice_ctrl_kind */
	u8	enable;		/* PFC: the priorities the frame names */
	u16	quanta[SLUICE_NR_PRIOS];
};

extern const u8 sluice_ctrl_dst[ETH_ALEN];
u64 sluice_quanta_ns(u32 quanta, u64 rate);
struct sk_buff *sluice_ctrl_alloc(struct net_device *dev, u16 proto,
				  unsigned int len, void **payload);
struct sk_buff *sluice_ctrl_build_pfc(struct net_device *dev, u8 enable,
				      u8 xoff, u16 quanta);
bool sluice_ctrl_parse(const struct sk_buff *skb, const struct net_device *dev,
		       struct sluice_ctrl *c);
bool __sluice_ctrl_is_ctrl(const struct sk_buff *skb);

/*
 * Whether the stack hands the qdisc a MAC control frame, or a PortFC port
 * a PortFC signal, to send: they leave ahead of data.  Elsewhere 0x88B5
 * is data like any other EtherType.
 */
static inline bool sluice_ctrl_is_ctrl(const struct sk_buff *skb, u8 portfc)
{
	if (likely(skb->protocol != htons(ETH_P_PAUSE) &&
		   (skb->protocol != htons(SLUICE_PORTFC_ETHERTYPE) || !portfc)))
		return false;
	return __sluice_ctrl_is_ctrl(skb);
}

/* signal.c: the flow-control signal sender (see there). */
struct sluice_signal;

struct sluice_signal_ops {
	/* The frame that asserts the keys in @on and releases those in @off. */
	struct sk_buff *(*build)(struct sluice_signal *s,
				 struct net_device *dev,
				 unsigned long on, unsigned long off);
	/* How soon keys in force must be said again, ns; 0: never. */
	u64 (*refresh_ns)(const struct sluice_signal *s);
};

struct sluice_signal {
	spinlock_t		lock;	/* nests inside qdisc locks */
	const struct sluice_signal_ops *ops;
	/* Under lock: */
	struct net_device	*dev;	/* NULL once detached */
	unsigned long		on;	/* keys in force; read locklessly too */
	unsigned long		off;	/* keys released, XON to send */
	unsigned long		known;	/* keys ever asserted */
	/* Until when a key asserted with a deadline stays in force; 0: none */
	u64			until[SLUICE_SIGNAL_MAX_KEYS];
	bool			parked;	/* the device cannot send: wait */
	struct hrtimer		timer;
	/* Written by the timer callback only, read with READ_ONCE(): */
	u64			backoff_ns;
	u64			tx;		/* frames sent */
	u64			tx_failed;	/* frames not queued, retried */
	u64			on_tx[SLUICE_SIGNAL_MAX_KEYS];
	u64			off_tx[SLUICE_SIGNAL_MAX_KEYS];
};

void sluice_signal_init(struct sluice_signal *s,
			const struct sluice_signal_ops *ops,
			struct net_device *dev);
void sluice_signal_assert(struct sluice_signal *s, unsigned int key);
void sluice_signal_assert_until(struct sluice_signal *s, unsigned int key,
				u64 until);
void sluice_signal_release(struct sluice_signal *s, unsigned long keys);
void sluice_signal_update(struct sluice_signal *s, unsigned int key,
			  long level, u32 xoff, u32 xon);
void sluice_signal_wake(struct sluice_signal *s);
void sluice_signal_lost(struct sluice_signal *s);
void sluice_signal_detach(struct sluice_signal *s);
u64 sluice_signal_port_refresh_ns(const struct sluice_signal *s);

/*
 * The switch's side of a port: its ingress accounts and the pause signals
 * it sends upstream (ingress.c), and the pauses its qdisc received.
 * Frames that arrived on the port hold a reference while they sit in any
 * egress queue of the switch, so it can outlive its qdisc; from then on
 * sch is NULL and its sender is detached.
 *
 * Counter discipline: the ingress accounts are atomics (charged and
 * released under other ports' qdisc locks); the settings are written
 * under signal.lock and the qdisc's tree lock and read with READ_ONCE();
 * the signal's counters are its timer's (see struct sluice_signal).
 */
struct sluice_port {
	refcount_t		refcnt;
	struct rcu_head		rcu;
	int			ifindex;
	struct sluice_switch_pcpu __percpu *stats;	/* its switch's */
	/* The switch's table while it has a tag source, else NULL. */
	struct sluice_tagmap __rcu * const *tagger;
	struct Qdisc __rcu	*sch;

	/* The qdisc's PFC settings, read without its lock. */
	u64			rate;
	u32			xoff, xon, headroom;
	u16			pause_time;
	u8			pfc;
	u8			portfc;		/* role, fixed at creation */
	bool			headroom_warned;	/* under the qdisc lock */
	/* PortFC: the sequence number of the next signal (its timer's) */
	u32			portfc_seq;

	atomic_long_t		ingress[SLUICE_NR_PRIOS];	/* bytes */
	atomic_long_t		ingress_peak[SLUICE_NR_PRIOS];

	/* PFC upstream: keys are priorities.  Its lock guards wd_nopause. */
	struct sluice_signal	signal;
	/* BIT(p): the watchdog's drop action stops pausing upstream */
	unsigned long		wd_nopause;
	atomic64_t		wd_ingress_drops[SLUICE_NR_PRIOS];

	/*
	 * Pauses received: until when each priority is paused (ktime_get_ns),
	 * written under the qdisc's root lock with WRITE_ONCE(), readable by
	 * anyone holding the port (a relay looking at its downstream) with
	 * READ_ONCE(), no other qdisc's lock needed.
	 */
	u64			rx_until[SLUICE_NR_PRIOS];
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
	/* Pause received: until when, since when, when the last one ended. */
	u64				paused_until;	/* ns */
	u64				paused_since;	/* ns */
	u64				pause_end;	/* ns */
	u64				paused_ns;
	u64				pfc_rx;
	u64				xon_rx;
	/* The PFC watchdog (wd.c): when the FIFO last became non-empty, ns,
	 * and its counters.
	 */
	u64				nonempty_since;
	u64				wd_storms;
	u64				wd_restored;
	u64				wd_drops;
	u64				wd_forwarded;
	u64				portfc_relayed;
};

/* A storm detected or ended, notified once the qdisc lock is released. */
struct sluice_wd_event {
	u8				event;	/* SLUICE_EVENT_STORM or _RESTORED */
	u8				prio;
	u8				action;	/* enum tc_sluice_wd_action */
	struct sluice_prio_stats	stats;	/* the class's, at that moment */
};

/*
 * The PFC watchdog's poll, in process context: a delayed work of the
 * qdisc, rearmed while any priority is watched and cancelled by destroy.
 * The mutex serializes the poll with configuration changes from taking
 * a decision under the qdisc lock until its events are sent, so events
 * leave in the order of the changes they report; events[] is theirs.
 */
struct sluice_wd {
	struct delayed_work		work;
	struct mutex			lock;	/* outside the qdisc lock */
	struct Qdisc			*sch;
	unsigned int			n_events;
	struct sluice_wd_event		events[SLUICE_MAX_CLASSES];
};

/*
 * Counter discipline: everything here is under the qdisc's root lock,
 * except cfg, which is also stable under RTNL (written under both).
 * Dumps take the root lock and read; they never write.
 */
struct sluice_sched {
	struct sluice_config	cfg;
	unsigned long		active;	/* BIT(class) for each non-empty class */
	/*
	 * BIT(class) for each class paused by a pause received, until
	 * dequeue or the watchdog sees it expire (a hint: a bit whose class's
	 * paused_until has passed is no longer paused).
	 */
	unsigned long		paused;
	unsigned long		weighted; /* BIT(class): has a DWRR quantum */
	unsigned int		rr;	/* the DWRR class whose turn it is */
	bool			dead;	/* destroy has begun: no more kicks */
	/* Priority p's frames are in class prio_class[p], and back. */
	u8			prio_class[SLUICE_NR_PRIOS];
	u8			class_prio[SLUICE_MAX_CLASSES];
	struct qdisc_skb_head	ctrl;	/* pause frames to send, first */
	struct qdisc_watchdog	watchdog;
	u64			t_next;	/* ns: when the link is free */
	bool			link_idle; /* nothing sendable since t_next */
	/* What the last peek chose: dequeue takes it (NULL: nothing). */
	struct sk_buff		*peeked;
	struct sluice_class	*peeked_cl;	/* its class, NULL: ctrl */
	struct sluice_port	*port;	/* NULL unless the root qdisc */
	bool			dcb;	/* its device's dcbnl ops are dcb.c's */
	u64			untagged;
	u64			limit_drops;
	u64			headroom_drops;
	u64			pause_rx;
	u64			pfc_rx;
	u64			pause_malformed;
	u64			pause_untrusted;
	u64			pause_ignored;
	/* PortFC (portfc.c) */
	u32			portfc_backlog[2];	/* bytes, by qtype */
	unsigned long		portfc_xoff;	/* BIT(qtype): asserted */
	u64			portfc_rx;
	u64			portfc_malformed;
	u64			portfc_ignored;
	u64			portfc_relayed;
	u64			portfc_unknown;
	u64			portfc_hq;
	u64			portfc_xoff_tx[2];	/* detections, by qtype */
	u64			portfc_xon_tx[2];
	/* The watchdog: BIT(class) in storm, and of those, by action. */
	unsigned long		wd_storm;
	unsigned long		wd_drop;
	unsigned long		wd_forward;
	/* In-band telemetry (int.c) */
	bool			int_keyed;	/* holds sluice_int_used */
	u64			int_stamped;
	u64			int_full;
	u64			int_malformed;
	u64			int_unwritable;
	struct sluice_wd	wd;
	struct sluice_class	classes[SLUICE_MAX_CLASSES];
};

/*
 * The lock a dump of @sch's counters takes (RTNL held).  For a port, its
 * own: pause reception and the watchdog write under it, and while the
 * port's qdisc is being replaced or deleted the tree's root lock already
 * belongs to its successor.  Otherwise the tree's root lock.
 */
static inline spinlock_t *sluice_stats_lock(struct Qdisc *sch)
{
	const struct sluice_sched *q = qdisc_priv(sch);

	return q->port ? qdisc_lock(sch) : qdisc_root_sleeping_lock(sch);
}

/* Class handles are minor numbers 1..N; class index i has minor i + 1. */
static inline struct sluice_class *sluice_class(struct sluice_sched *q,
						unsigned long arg)
{
	return &q->classes[arg - 1];
}

/*
 * Every rejection's extack: the message with the module's name in front,
 * on attribute @attr (NULL when no one attribute is to blame).
 */
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

static __always_inline bool sluice_is_mpls(__be16 type)
{
	return type == htons(ETH_P_MPLS_UC) || type == htons(ETH_P_MPLS_MC);
}

/* classify.c */
int sluice_tag_read(const struct sk_buff *skb, unsigned int tag);
int sluice_mpls_stack(const struct sk_buff *skb, __be32 *top, unsigned int n,
		      unsigned int *off);
__be16 sluice_payload_type(const struct sk_buff *skb, unsigned int *off);
int sluice_ip_find(const struct sk_buff *skb, unsigned int *off, u8 *buf);
bool sluice_ip_plausible(const struct sk_buff *skb, unsigned int off,
			 int version);
bool sluice_ecn_mark(struct sk_buff *skb);

/* switch.c: the switch of a namespace, its table and its notifier. */
struct sluice_net {
	struct xarray			ports;	/* ifindex -> sluice_port */
	/* Written under RTNL, read without it. */
	u32				nports;
	u32				ports_gen;

	struct mutex			lock;	/* writers of the table */
	struct sluice_tagmap __rcu	*tagmap;
	/* The same while it has a tag source, else NULL: ports read this. */
	struct sluice_tagmap __rcu	*tagger;
	u32				generation;	/* of the maps */
	struct sluice_switch_pcpu __percpu *stats;
};

struct sluice_net *sluice_net(struct net *net);
int sluice_switch_init(void);
void sluice_switch_exit(void);
int sluice_switch_notifier_init(void);
void sluice_switch_notifier_exit(void);

/* port.c: the port registry. */
struct sluice_port *sluice_port_alloc(struct Qdisc *sch,
				      const struct sluice_config *cfg);
int sluice_port_publish(struct sluice_port *port, struct net_device *dev);
void sluice_port_detach(struct sluice_port *port, struct net_device *dev);
void sluice_port_wake(struct net *net, int ifindex);
struct sluice_port *sluice_port_lookup_rcu(struct net *net, int ifindex);

/* ingress.c: ingress accounting, PFC's producer of pause signals. */
extern const struct sluice_signal_ops sluice_pfc_signal_ops;
long sluice_ingress_charge(struct sk_buff *skb, struct net *net,
			   unsigned int prio);
void __sluice_ingress_admitted(const struct sk_buff *skb, long account);
void sluice_ingress_release(struct sk_buff *skb);
bool __sluice_ingress_wd_drop(const struct sk_buff *skb);

/*
 * The per-frame calls, inline for what most frames are (none was charged
 * to an ingress port: sent by this host) or do (pause nobody).
 */
static inline void sluice_ingress_admitted(const struct sk_buff *skb,
					   long account)
{
	if (sluice_skb_cb(skb)->in)
		__sluice_ingress_admitted(skb, account);
}

static inline bool sluice_ingress_wd_drop(const struct sk_buff *skb)
{
	return sluice_skb_cb(skb)->in && __sluice_ingress_wd_drop(skb);
}

void sluice_port_config(struct sluice_port *port,
			const struct sluice_config *cfg);
void sluice_port_wd_nopause(struct sluice_port *port, unsigned int prio,
			    bool stop);

/* wd.c: the PFC watchdog (uapi: "PFC watchdog") */
void sluice_wd_init(struct Qdisc *sch);
void sluice_wd_start(struct Qdisc *sch, bool restart);
void sluice_wd_stop(struct Qdisc *sch);
void sluice_wd_commit(struct Qdisc *sch, const struct sluice_config *cfg);
void sluice_wd_notify(struct Qdisc *sch);

/*
 * portfc.c: PortFC (uapi: "PortFC").  Classes, detection at a switch
 * port's egress, the signal frame and its reception and relaying.
 */
extern const struct sluice_signal_ops sluice_portfc_signal_ops;
int sluice_portfc_init(void);
void sluice_portfc_exit(void);
unsigned int sluice_portfc_classes(const struct sluice_config *cfg);
int sluice_portfc_check(struct Qdisc *sch, const struct sluice_config *old,
			const struct sluice_config *cfg,
			struct netlink_ext_ack *extack);
void sluice_portfc_setup(struct Qdisc *sch);
void sluice_portfc_publish(struct Qdisc *sch);
unsigned int sluice_portfc_classify(struct Qdisc *sch, struct sk_buff *skb);
void __sluice_portfc_account(struct Qdisc *sch, unsigned int c, long delta);
void sluice_portfc_recount(struct Qdisc *sch);
void sluice_portfc_detach(struct Qdisc *sch);
void sluice_portfc_class_tx(const struct sluice_sched *q, unsigned int c,
			    u64 *xoff, u64 *xon);
bool sluice_portfc_is_signal(const struct sk_buff *skb);

/* A switch port's egress detection sees every change of a class backlog. */
static inline void sluice_portfc_account(struct Qdisc *sch, unsigned int c,
					 long delta)
{
	const struct sluice_sched *q = qdisc_priv(sch);

	if (q->cfg.portfc == TC_SLUICE_PORTFC_SWITCH)
		__sluice_portfc_account(sch, c, delta);
}

/*
 * int.c: in-band telemetry (uapi: "In-band telemetry").  The key is on
 * while any qdisc has an INT port, so that where none has, a frame's whole
 * cost is a patched-out jump; where one has, another qdisc's frames pay a
 * test of its own int_port.
 */
DECLARE_STATIC_KEY_FALSE(sluice_int_used);
int sluice_int_check(struct Qdisc *sch, const struct sluice_config *cfg,
		     struct netlink_ext_ack *extack);
void sluice_int_hold(struct Qdisc *sch, bool on);
void __sluice_int_stamp(struct Qdisc *sch, struct sluice_class *cl,
			struct sk_buff *skb);

/*
 * At dequeue, once @skb has left class @cl: stamps it if it is a probe
 * (with the class's and the qdisc's backlogs already without it, and the
 * qdisc's sent bytes not yet with it).
 */
static inline void sluice_int_stamp(struct Qdisc *sch, struct sluice_class *cl,
				    struct sk_buff *skb)
{
	const struct sluice_sched *q = qdisc_priv(sch);

	if (static_branch_unlikely(&sluice_int_used) && q->cfg.int_port)
		__sluice_int_stamp(sch, cl, skb);
}

bool __sluice_int_gso(struct Qdisc *sch, const struct sk_buff *skb);

/*
 * Whether GSO frame @skb is addressed to the INT port: it is segmented at
 * enqueue, so that each datagram it stands for is stamped as it leaves
 * (a super-packet is only split after dequeue, past every port).
 */
static inline bool sluice_int_gso(struct Qdisc *sch, const struct sk_buff *skb)
{
	const struct sluice_sched *q = qdisc_priv(sch);

	return static_branch_unlikely(&sluice_int_used) && q->cfg.int_port &&
	       __sluice_int_gso(sch, skb);
}

/* pause.c */
void sluice_pause_class(struct sluice_sched *q, unsigned int c, u64 now,
			u16 quanta);
int sluice_pause_init(void);
void sluice_pause_exit(void);
void sluice_pause_expire(struct Qdisc *sch, u64 now);
u64 sluice_pause_next_expiry(const struct sluice_sched *q);
/* Whether class c is paused at @now, and for how long in all (ns). */
bool sluice_class_paused(const struct sluice_sched *q, unsigned int c,
			 u64 now, u64 *paused_ns);

/*
 * tagmap.c: the switch's Tagger maps (uapi: "Tagger's switch model").  One
 * immutable table holds the tag source and all three maps; writers build a
 * new one and swap it in under RCU, so a frame that looked the table up
 * once sees one version of every entry.
 */
#define SLUICE_TAGMAP_NONE	0xff	/* no entry for this (port, tag) */

struct sluice_tagmap;

/* What the maps decided for one frame on one egress port. */
struct sluice_tag_result {
	u8	prio;		/* ingress priority to charge */
	u8	cls;		/* egress class */
	bool	retag;		/* write new_tag into the frame */
	u8	new_tag;
	u8	source;		/* the table's: where new_tag goes */
};

/*
 * Builds a table from n entries for tag source @source (entries may be
 * NULL with n 0: empty maps).  Validates everything the uapi lists for
 * MAP_LOAD against @net and @source; on error returns an ERR_PTR with a
 * constant extack message and extack->bad_attr pointing at the refused
 * entry of @e (not an attribute: the caller swaps it for the request's
 * attribute or clears it).
 * Process context, may sleep.
 */
struct sluice_tagmap *sluice_tagmap_build(struct net *net, u8 source,
					  const struct sluice_map_entry *e,
					  unsigned int n,
					  struct netlink_ext_ack *extack);
/* A copy of @old with another tag source, validated for it (ERR_PTR). */
struct sluice_tagmap *sluice_tagmap_with_source(const struct sluice_tagmap *old,
						u8 source,
						struct netlink_ext_ack *extack);
/*
 * A copy of @old without the entries of port @ifindex: NULL if it has
 * none, an ERR_PTR when memory runs out.
 */
struct sluice_tagmap *sluice_tagmap_without_port(const struct sluice_tagmap *old,
						 int ifindex);
void sluice_tagmap_free(struct sluice_tagmap *map);
u8 sluice_tagmap_source(const struct sluice_tagmap *map);
void sluice_tagmap_counts(const struct sluice_tagmap *map,
			  struct sluice_map_counts *counts);
/*
 * Fills up to @max entries of the pos-th port (in dump order: ifindex 0
 * first, then by ifindex), sorted by map and tag; returns the count and
 * sets *ifindex, or -ENOENT past the last port.
 */
int sluice_tagmap_port_entries(const struct sluice_tagmap *map,
			       unsigned int pos, int *ifindex,
			       struct sluice_map_entry *e, unsigned int max);

/* The entries a frame meets: SLUICE_TAGMAP_NONE where there is none. */
struct sluice_tagmap_hit {
	u8	in;		/* in(I, t), else in(0, t) */
	u8	eg;		/* eg(out E, t), else eg(I, t), else eg(0, t) */
	u8	tag;		/* tag(E, t), else tag(0, t) */
};

/* O(1): two hash probes, at most seven array reads.  Under RCU. */
void sluice_tagmap_lookup(const struct sluice_tagmap *map, int out, int in,
			  unsigned int tag, struct sluice_tagmap_hit *hit);

/*
 * The switch (switch.c) holds the current table: always one, empty maps
 * and SLUICE_TAG_SOURCE_NONE at first.  Writers serialize on the
 * switch's mutex, taken by sluice_switch_lock(); the table is then
 * sluice_switch_tagmap() and is replaced by sluice_switch_tagmap_set(),
 * which frees the old one after a grace period and bumps the generation
 * when @maps_changed.
 */
void sluice_switch_lock(struct net *net);
void sluice_switch_unlock(struct net *net);
const struct sluice_tagmap *sluice_switch_tagmap(struct net *net);
u32 sluice_switch_generation(struct net *net);
void sluice_switch_tagmap_set(struct net *net, struct sluice_tagmap *map,
			      bool maps_changed);
/* Sums the per-CPU counters. */
void sluice_switch_stats(struct net *net, struct sluice_switch_stats *st);
/* Ports of the switch, and a counter bumped when one comes or goes. */
u32 sluice_switch_ports(struct net *net);
u32 sluice_switch_ports_gen(struct net *net);
/* The pos-th port by ifindex from *ifindex on, with a reference. */
struct sluice_port *sluice_port_next(struct net *net, unsigned long *ifindex);
void sluice_port_put(struct sluice_port *port);

/*
 * What the datapath counts, per CPU: the fields of struct
 * sluice_switch_stats.  A port reaches its switch's counters and table
 * (port->tagger) directly, with no namespace lookup per frame.
 */
enum sluice_switch_counter {
	SLUICE_SW_TAGGED,
	SLUICE_SW_UNTAGGED,
	SLUICE_SW_IN_MISS,
	SLUICE_SW_EG_MISS,
	SLUICE_SW_TAG_MISS,
	SLUICE_SW_RETAGGED,
	SLUICE_SW_RETAG_FAILED,
	SLUICE_SW_CLASS_INVALID,
	SLUICE_SW_NR_COUNTERS,
};

/* Adds one to each counter whose bit is set in @counters (this CPU's). */
void sluice_tagger_count(const struct sluice_port *port,
			 unsigned long counters);

/*
 * The datapath (classify.c): with a tag source set, decides a frame's
 * ingress priority, egress class and new tag on port @sch from the table
 * under rcu_read_lock_bh, counting hits and misses.  Returns false when no
 * tag source is set: the qdisc classifies on its own.
 */
bool sluice_tagger_classify(struct Qdisc *sch, struct sk_buff *skb,
			    struct sluice_tag_result *t);
/* Writes t->new_tag into the frame's tag field (enqueue, before queueing). */
void sluice_tagger_retag(struct Qdisc *sch, struct sk_buff *skb,
			 const struct sluice_tag_result *t);

/*
 * dcb.c: dcbnl ops (IEEE 802.1Qaz: PFC and the APP table) for a device
 * that has none of its own, while a sluice root qdisc is on it.  All of it
 * under RTNL.
 */
int sluice_change_by_dcb(struct Qdisc *sch, struct nlattr *opt,
			 struct netlink_ext_ack *extack);
#if IS_ENABLED(CONFIG_DCB)
int sluice_dcb_attach(struct Qdisc *sch, struct netlink_ext_ack *extack);
void sluice_dcb_detach(struct Qdisc *sch);
int sluice_dcb_check(struct Qdisc *sch, const struct sluice_config *cfg,
		     struct netlink_ext_ack *extack);
bool sluice_dcb_differs(const struct sluice_config *old,
			const struct sluice_config *cfg);
void sluice_dcb_changed(struct Qdisc *sch, bool tc_dscp_map,
			unsigned int old_nclasses, bool news);
void sluice_dcb_netdev_event(struct net_device *dev, unsigned long event);
void sluice_dcb_exit(void);
#else
static inline int sluice_dcb_attach(struct Qdisc *sch,
				    struct netlink_ext_ack *extack)
{
	return 0;
}

static inline void sluice_dcb_detach(struct Qdisc *sch) {}

static inline int sluice_dcb_check(struct Qdisc *sch,
				   const struct sluice_config *cfg,
				   struct netlink_ext_ack *extack)
{
	return 0;
}

static inline bool sluice_dcb_differs(const struct sluice_config *old,
				      const struct sluice_config *cfg)
{
	return false;
}

static inline void sluice_dcb_changed(struct Qdisc *sch, bool tc_dscp_map,
				      unsigned int old_nclasses, bool news) {}
static inline void sluice_dcb_netdev_event(struct net_device *dev,
					   unsigned long event) {}
static inline void sluice_dcb_exit(void) {}
#endif

/* genl.c: the "sluice" generic netlink family. */
int sluice_genl_init(void);
void sluice_genl_exit(void);
/* With the switch's mutex held: SLUICE_EVENT_MAPS for the current maps. */
void sluice_genl_notify_maps(struct net *net);
/* Multicasts an event to the namespace's "events" group (may sleep). */
void sluice_genl_notify_port(struct net *net, u8 event,
			     const struct net_device *dev);
/* The same for a watchdog event of port @dev. */
void sluice_genl_notify_wd(struct net *net, const struct net_device *dev,
			   const struct sluice_wd_event *ev);
/* Class (or priority) i of a port, under the qdisc's root lock. */
void sluice_prio_stats_fill(struct sluice_prio_stats *ps,
			    const struct sluice_sched *q,
			    const struct sluice_port *port, unsigned int i,
			    u64 now);

#endif /* _SLUICE_H */
