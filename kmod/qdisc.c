// SPDX-License-Identifier: GPL-2.0
/*
 * The sluice qdisc: per-class byte-limited FIFOs, classification by one
 * configurable tag, strict-priority dequeue (highest class first, as
 * IEEE 802.1Q) of the classes no pause holds, a link shaped to its rate,
 * pause frames sent ahead of data, lossless classes that rely on pauses
 * instead of tail drops, and configuration changes that keep queued frames.
 *
 * Enqueue and dequeue run under the qdisc root lock; configuration is
 * written under RTNL and sch_tree_lock, so both see it whole.  Received
 * pauses (pause.c) also take the root lock.
 */
#include <linux/bitops.h>
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/inet_ecn.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>

#include "sluice.h"

/*
 * As prio and ets read skb->priority: HANDLE:MINOR of this qdisc names a
 * class directly, any other value indexes the map with its low 4 bits.
 */
static unsigned int sluice_priority_class(const struct Qdisc *sch,
					  const struct sluice_config *cfg,
					  u32 prio)
{
	u32 minor = TC_H_MIN(prio);

	if (TC_H_MAJ(prio) != sch->handle)
		return cfg->map[TC_SLUICE_TAG_PRIORITY][prio & TC_PRIO_MAX];
	return minor && minor <= cfg->nclasses ? minor - 1 : cfg->defclass;
}

static unsigned int sluice_classify(struct Qdisc *sch, struct sk_buff *skb)
{
	struct sluice_sched *q = qdisc_priv(sch);
	const struct sluice_config *cfg = &q->cfg;
	int value;

	if (cfg->tag == TC_SLUICE_TAG_PRIORITY)
		return sluice_priority_class(sch, cfg, skb->priority);
	value = sluice_tag_read(skb, cfg->tag);
	if (value < 0) {
		q->untagged++;
		return cfg->defclass;
	}
	return cfg->map[cfg->tag][value];
}

/* A MAC control frame the stack sends: it leaves first, never paused. */
static int sluice_enqueue_control(struct sk_buff *skb, struct Qdisc *sch,
				  struct sk_buff **to_free)
{
	struct sluice_sched *q = qdisc_priv(sch);

	if (q->ctrl.qlen >= SLUICE_CTRL_LIMIT)
		return qdisc_drop(skb, sch, to_free);
	sluice_skb_cb(skb)->in = NULL;
	__qdisc_enqueue_tail(skb, &q->ctrl);
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	return NET_XMIT_SUCCESS;
}

/*
 * Whether the frame may be queued.  A lossy frame tail-drops at its class's
 * limit.  A lossless one relies on pauses instead: its priority is
 * lossless on the port a pause would stop, the ingress port it is charged
 * to (or, for a frame this host sends, this port).  It drops only past that
 * port's XOFF + headroom or, as a last bound, its class's limit: a headroom
 * drop, which means a misconfiguration.  Under Tagger the class and the
 * priority differ; the priority decides.
 */
static bool sluice_admit(struct Qdisc *sch, struct sluice_class *cl,
			 const struct sluice_tag_result *t, struct sk_buff *skb,
			 long account)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_port *in = sluice_skb_cb(skb)->in;
	bool over = (u64)cl->qstats.backlog + qdisc_pkt_len(skb) > cl->limit;
	u8 pfc = in ? READ_ONCE(in->pfc) : q->cfg.pfc;
	u32 headroom;

	if (t->prio >= SLUICE_NR_PRIOS || !(pfc & BIT(t->prio))) {
		if (!over)
			return true;
		cl->limit_drops++;
		q->limit_drops++;
		return false;
	}
	headroom = in ? READ_ONCE(in->headroom) : 0;
	if (headroom && account > (long)READ_ONCE(in->xoff) + headroom)
		over = true;
	if (!over)
		return true;
	cl->headroom_drops++;
	q->headroom_drops++;
	if (q->port && !q->port->headroom_warned) {
		q->port->headroom_warned = true;
		netdev_warn(qdisc_dev(sch),
			    "sch_sluice: lossless class %u dropped a frame: headroom exhausted\n",
			    t->cls);
	}
	return false;
}

/*
 * Queues a frame in class t->cls, charged to priority t->prio of its
 * ingress port; under Tagger the two differ, and the frame is retagged
 * once admitted.  The ingress port pauses its upstream only for a frame
 * that was admitted.
 */
static int sluice_enqueue_one(struct sk_buff *skb, struct Qdisc *sch,
			      const struct sluice_tag_result *t,
			      struct sk_buff **to_free)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_class *cl = &q->classes[t->cls];
	unsigned int len = qdisc_pkt_len(skb);
	long account;

	/* The watchdog's drop action: nothing joins a class in storm. */
	if (unlikely(q->wd_drop & BIT(t->cls))) {
		cl->wd_drops++;
		cl->qstats.drops++;
		return qdisc_drop(skb, sch, to_free);
	}
	/* Frames sent by this host have no ingress port to charge. */
	if (skb->skb_iif) {
		account = sluice_ingress_charge(skb, dev_net(qdisc_dev(sch)),
						t->prio);
	} else {
		sluice_skb_cb(skb)->in = NULL;
		account = 0;
	}
	/* ... nor does what arrives on a port in a dropping storm. */
	if (unlikely(sluice_ingress_wd_drop(skb)) ||
	    unlikely(!sluice_admit(sch, cl, t, skb, account))) {
		sluice_ingress_release(skb);
		cl->qstats.drops++;
		return qdisc_drop(skb, sch, to_free);
	}
	sluice_ingress_admitted(skb, account);
	if (t->retag)
		sluice_tagger_retag(sch, skb, t);

	/* DCTCP step marking on the queue the frame joins. */
	if (cl->ecn && cl->qstats.backlog > cl->ecn && sluice_ecn_mark(skb))
		cl->ecn_marks++;
	if (!cl->q.qlen)
		cl->nonempty_since = ktime_get_ns();
	__qdisc_enqueue_tail(skb, &cl->q);
	cl->qstats.backlog += len;
	cl->peak_backlog = max(cl->peak_backlog, cl->qstats.backlog);
	q->active |= BIT(t->cls);
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	sluice_portfc_account(sch, t->cls, len);
	return NET_XMIT_SUCCESS;
}

/*
 * A GSO frame bigger than its class's limit could never be queued: queue
 * the frames it stands for instead, as tbf does, and tell the ancestors
 * that one frame of prev_len bytes became nb frames of len bytes.
 */
static int sluice_enqueue_segments(struct sk_buff *skb, struct Qdisc *sch,
				   const struct sluice_tag_result *t,
				   struct sk_buff **to_free)
{
	unsigned int len = 0, prev_len = qdisc_pkt_len(skb);
	netdev_features_t features = netif_skb_features(skb);
	struct sk_buff *segs, *nskb;
	int nb = 0;

	segs = skb_gso_segment(skb, features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs))
		return qdisc_drop(skb, sch, to_free);

	skb_list_walk_safe(segs, segs, nskb) {
		skb_mark_not_on_list(segs);
		qdisc_skb_cb(segs)->pkt_len = segs->len;
		if (sluice_enqueue_one(segs, sch, t, to_free) == NET_XMIT_SUCCESS) {
			len += qdisc_pkt_len(segs);
			nb++;
		}
	}
	consume_skb(skb);
	if (!nb)
		return NET_XMIT_DROP;
	qdisc_tree_reduce_backlog(sch, 1 - nb, prev_len - len);
	return NET_XMIT_SUCCESS;
}

static int sluice_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			  struct sk_buff **to_free)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_tag_result t;

	if (!sch->q.qlen)
		q->link_idle = true;
	if (unlikely(sluice_ctrl_is_ctrl(skb, q->cfg.portfc)))
		return sluice_enqueue_control(skb, sch, to_free);
	/*
	 * A PortFC port classifies by the label stack; a port of a switch
	 * with a tag source by its maps.
	 */
	if (q->cfg.portfc) {
		t.cls = sluice_portfc_classify(sch, skb);
		t.prio = SLUICE_PRIO_NONE;
		t.retag = false;
	} else if (!q->port || !rcu_access_pointer(*q->port->tagger) ||
		   !sluice_tagger_classify(sch, skb, &t)) {
		t.cls = sluice_classify(sch, skb);
		t.prio = q->class_prio[t.cls];
		t.retag = false;
	}
	if (skb_is_gso(skb) && (qdisc_pkt_len(skb) > q->classes[t.cls].limit ||
				sluice_int_gso(sch, skb)))
		return sluice_enqueue_segments(skb, sch, &t, to_free);
	return sluice_enqueue_one(skb, sch, &t, to_free);
}

/*
 * Deficit weighted round robin among the ready classes with a quantum, as
 * ets: the class whose turn it is sends while its deficit covers its head
 * frame; otherwise it gains a quantum and the turn passes on.  Stateful but
 * idempotent: a second call (peek, then dequeue) picks the same class.
 */
static struct sluice_class *sluice_dwrr_class(struct sluice_sched *q,
					      unsigned long ready)
{
	unsigned long bits = ready;
	unsigned int c = q->rr;
	struct sluice_class *cl;

	for (;;) {
		c = find_next_bit(&bits, SLUICE_MAX_CLASSES, c);
		if (c >= SLUICE_MAX_CLASSES)
			c = find_first_bit(&bits, SLUICE_MAX_CLASSES);
		cl = &q->classes[c];
		if (cl->deficit >= qdisc_pkt_len(cl->q.head)) {
			q->rr = c;
			return cl;
		}
		cl->deficit += cl->quantum;
		c++;
	}
}

/*
 * The class served next among the non-empty classes no pause holds: the
 * highest strict one, else DWRR among those with a quantum.  A paused
 * class never blocks another.  The watchdog's forward action lets a class
 * in storm send as if it were not paused.
 */
static struct sluice_class *sluice_next_class(struct Qdisc *sch, u64 now)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned long ready, strict;

	if (q->paused)
		sluice_pause_expire(sch, now);
	ready = q->active & (~q->paused | q->wd_forward);
	strict = ready & ~q->weighted;
	if (strict)
		return &q->classes[__fls(strict)];
	return ready ? sluice_dwrr_class(q, ready) : NULL;
}

/*
 * The link is busy for the frame's bits at the port's rate.  While it has
 * had frames to send all along, the next frame starts where the previous
 * one ended, even if the watchdog woke us late (an emulated CPU stalls):
 * the wire's time is not lost, up to SLUICE_MAX_CATCHUP_NS, which bounds
 * the burst after a long stall.  After the link went idle (nothing
 * queued, or all of it paused) the next frame starts now.
 */
static void sluice_link_busy(struct sluice_sched *q, unsigned int len, u64 now)
{
	u64 start;

	if (!q->cfg.rate)
		return;
	start = q->link_idle ? max(q->t_next, now) :
			       max(q->t_next, now - min(now, SLUICE_MAX_CATCHUP_NS));
	q->link_idle = false;
	q->t_next = start + div64_u64((u64)len * 8 * NSEC_PER_SEC,
				      q->cfg.rate);
}

/*
 * The frame that goes next, left in place: a pause frame first, then the
 * head of the class strict priority picks.  NULL while the link is busy
 * or all that is queued is paused, with the watchdog armed for then.
 */
static struct sk_buff *sluice_next_skb(struct Qdisc *sch, u64 now,
				       struct sluice_class **clp)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_class *cl;

	*clp = NULL;
	if (!sch->q.qlen)
		return NULL;
	if (q->cfg.rate && now < q->t_next) {
		qdisc_watchdog_schedule_ns(&q->watchdog, q->t_next);
		return NULL;
	}
	if (q->ctrl.qlen)
		return q->ctrl.head;
	cl = sluice_next_class(sch, now);
	if (!cl) {
		/* All that is queued is paused: the link goes idle. */
		q->link_idle = true;
		qdisc_watchdog_schedule_ns(&q->watchdog,
					   sluice_pause_next_expiry(q));
		return NULL;
	}
	*clp = cl;
	return cl->q.head;
}

/* The clock, read only when shaping or a pause needs it (0 otherwise). */
static u64 sluice_now(const struct sluice_sched *q)
{
	return q->cfg.rate || q->paused ? ktime_get_ns() : 0;
}

/*
 * A parent that peeks (hfsc, drr, qfq, ets, tbf) then dequeues gets the
 * frame it peeked: the choice is made at the peek, on the clock then, and
 * kept (q->peeked, the head of its class or of the control queue) until a
 * dequeue takes it, however much later that comes: hfsc peeks when it
 * enqueues.  Unlike qdisc_peek_dequeued(), the frame stays in its class
 * until then, so the counters never show it both sent and queued.
 */
static struct sk_buff *sluice_peek(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);

	if (!q->peeked)
		q->peeked = sluice_next_skb(sch, sluice_now(q), &q->peeked_cl);
	return q->peeked;
}

static struct sk_buff *sluice_dequeue(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);
	u64 now = sluice_now(q);
	struct sluice_class *cl;
	struct sk_buff *skb;

	if (q->peeked) {
		skb = q->peeked;
		cl = q->peeked_cl;
		q->peeked = NULL;
	} else {
		skb = sluice_next_skb(sch, now, &cl);
		if (!skb)
			return NULL;
	}
	if (cl) {
		__qdisc_dequeue_head(&cl->q);
		if (cl->quantum)
			cl->deficit -= qdisc_pkt_len(skb);
		if (!cl->q.qlen) {
			/* An idle class saves no deficit, and the turn passes. */
			q->active &= ~BIT(cl - q->classes);
			cl->deficit = 0;
			q->rr = cl - q->classes + 1;
		}
		cl->qstats.backlog -= qdisc_pkt_len(skb);
		sluice_portfc_account(sch, cl - q->classes,
				      -(long)qdisc_pkt_len(skb));
		bstats_update(&cl->bstats, skb);
		if (unlikely(q->wd_forward & BIT(cl - q->classes)))
			cl->wd_forwarded++;
		sluice_ingress_release(skb);
	} else {
		__qdisc_dequeue_head(&q->ctrl);
	}
	sluice_link_busy(q, qdisc_pkt_len(skb), now);
	qdisc_qstats_backlog_dec(sch, skb);
	if (cl)
		sluice_int_stamp(sch, cl, skb);
	qdisc_bstats_update(sch, skb);
	sch->q.qlen--;
	return skb;
}

/* Frees a queue's frames, releasing their ingress charges. */
static void sluice_queue_purge(struct qdisc_skb_head *qh)
{
	struct sk_buff *skb;

	for (skb = qh->head; skb; skb = skb->next)
		sluice_ingress_release(skb);
	__qdisc_reset_queue(qh);
}

static void sluice_class_purge(struct sluice_class *cl)
{
	sluice_queue_purge(&cl->q);
	cl->qstats.backlog = 0;
}

static void sluice_reset(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned int i;

	for (i = 0; i < SLUICE_MAX_CLASSES; i++) {
		sluice_class_purge(&q->classes[i]);
		q->classes[i].deficit = 0;
	}
	/* Pause frames thrown away: their XONs are said again. */
	if (q->ctrl.qlen && q->port)
		sluice_signal_lost(&q->port->signal);
	sluice_queue_purge(&q->ctrl);
	q->peeked = NULL;
	q->active = 0;
	q->link_idle = true;
	qdisc_watchdog_cancel(&q->watchdog);
	sluice_portfc_recount(sch);
}

/*
 * Drop what the classes beyond the new count hold, count it as drops and
 * tell the ancestors.  Called under the tree lock.
 */
static void sluice_classes_remove(struct Qdisc *sch, unsigned int from,
				  unsigned int to)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned int i, qlen = 0, backlog = 0;

	lockdep_assert_held(qdisc_root_sleeping_lock(sch));
	if (q->peeked_cl && q->peeked_cl >= &q->classes[from])
		q->peeked = NULL;
	for (i = from; i < to; i++) {
		struct sluice_class *cl = &q->classes[i];

		qlen += cl->q.qlen;
		backlog += cl->qstats.backlog;
		sluice_class_purge(cl);
		q->active &= ~BIT(i);
		q->paused &= ~BIT(i);
		q->weighted &= ~BIT(i);
	}
	sch->q.qlen -= qlen;
	sch->qstats.backlog -= backlog;
	__qdisc_qstats_drop(sch, qlen);
	qdisc_tree_reduce_backlog(sch, qlen, backlog);
}

/* A class starts empty, with zeroed counters and the qdisc's limit. */
static void sluice_class_init(struct sluice_class *cl, u32 limit)
{
	memset(cl, 0, sizeof(*cl));
	gnet_stats_basic_sync_init(&cl->bstats);
	cl->limit = limit;
}

static void sluice_commit(struct Qdisc *sch, const struct sluice_config *cfg,
			  bool limit_given)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned int old = q->cfg.nclasses, i;

	sch_tree_lock(sch);
	if (cfg->nclasses < old)
		sluice_classes_remove(sch, cfg->nclasses, old);
	sluice_wd_commit(sch, cfg);
	for (i = old; i < cfg->nclasses; i++)
		sluice_class_init(&q->classes[i], cfg->limit);
	if (limit_given) {
		for (i = 0; i < cfg->nclasses; i++)
			q->classes[i].limit = cfg->limit;
	}
	q->cfg = *cfg;
	if (q->port)
		sluice_port_config(q->port, cfg);
	/* New thresholds decide on the backlog there is. */
	sluice_portfc_recount(sch);
	sch_tree_unlock(sch);
}

/* PFC settings need a port (a root qdisc) and a link rate for quanta. */
static int sluice_pfc_check(struct Qdisc *sch,
			    const struct sluice_config *cfg,
			    struct netlink_ext_ack *extack)
{
	if (!cfg->pfc)
		return 0;
	if (sch->parent != TC_H_ROOT) {
		SLUICE_ERR(extack, NULL, "pfc needs sluice as the root qdisc");
		return -EOPNOTSUPP;
	}
	if (!cfg->rate) {
		SLUICE_ERR(extack, NULL, "pfc needs the link rate");
		return -EINVAL;
	}
	if (!cfg->xoff) {
		SLUICE_ERR(extack, NULL, "pfc needs an xoff threshold");
		return -EINVAL;
	}
	if (sluice_quanta_ns(cfg->pause_time, cfg->rate) < 2 * SLUICE_MIN_REFRESH_NS) {
		SLUICE_ERR(extack, NULL, "pause-time too short to refresh at this rate");
		return -EINVAL;
	}
	return 0;
}

/* The watchdog watches a port's classes, which pauses need a rate for. */
static int sluice_wd_check(struct Qdisc *sch, const struct sluice_config *cfg,
			   struct netlink_ext_ack *extack)
{
	if (!cfg->wd_prios)
		return 0;
	if (sch->parent != TC_H_ROOT) {
		SLUICE_ERR(extack, NULL, "watchdog needs sluice as the root qdisc");
		return -EOPNOTSUPP;
	}
	if (!cfg->rate) {
		SLUICE_ERR(extack, NULL, "watchdog needs the link rate");
		return -EINVAL;
	}
	/*
	 * Only PFC-enabled priorities are ever paused (pause.c), as SONiC's;
	 * on a PortFC port the watchdog watches every data class.
	 */
	if (!cfg->portfc && cfg->wd_prios & ~cfg->pfc) {
		SLUICE_ERR(extack, NULL,
			   "watchdog watches lossless priorities only: add them to pfc");
		return -EINVAL;
	}
	return 0;
}

/*
 * "tc qdisc change", and what dcb.c asks for (@by_dcb) in the same
 * attributes, so that both are validated and applied alike.  RTNL held.
 */
static int __sluice_change(struct Qdisc *sch, struct nlattr *opt,
			   bool by_dcb, struct netlink_ext_ack *extack)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_config cfg = q->cfg;
	bool restart, tc_dscp_map, dcb_news;
	unsigned int nclasses = q->cfg.nclasses;
	int err;

	if (!opt)
		return 0;
	/* What dcb.c keeps of a change by tc: its DSCP map, news for dcbnl. */
	tc_dscp_map = !by_dcb && nla_find_nested(opt, TCA_SLUICE_DSCP_MAP);
	err = sluice_config_parse(&cfg, opt, extack);
	if (!err)
		err = sluice_pfc_check(sch, &cfg, extack) ?:
		      sluice_wd_check(sch, &cfg, extack) ?:
		      sluice_portfc_check(sch, &q->cfg, &cfg, extack) ?:
		      sluice_int_check(sch, &cfg, extack) ?:
		      (by_dcb ? 0 : sluice_dcb_check(sch, &cfg, extack));
	if (err)
		return err;
	dcb_news = !by_dcb && sluice_dcb_differs(&q->cfg, &cfg);
	/*
	 * A qdisc-level limit sets every class's limit, also when it equals
	 * the old one: a class may have been given its own since.  Storms
	 * the change ends are notified before the next poll can report on.
	 */
	restart = (!q->cfg.wd_prios && cfg.wd_prios) ||
		  q->cfg.wd_poll_ms != cfg.wd_poll_ms;
	if (cfg.int_port)
		sluice_int_hold(sch, true);
	mutex_lock(&q->wd.lock);
	sluice_commit(sch, &cfg, !!nla_find_nested(opt, TCA_SLUICE_LIMIT));
	sluice_wd_notify(sch);
	mutex_unlock(&q->wd.lock);
	if (!cfg.int_port)
		sluice_int_hold(sch, false);
	sluice_wd_start(sch, restart);
	sluice_dcb_changed(sch, tc_dscp_map, nclasses, dcb_news);
	return 0;
}

static int sluice_change(struct Qdisc *sch, struct nlattr *opt,
			 struct netlink_ext_ack *extack)
{
	return __sluice_change(sch, opt, false, extack);
}

int sluice_change_by_dcb(struct Qdisc *sch, struct nlattr *opt,
			 struct netlink_ext_ack *extack)
{
	return __sluice_change(sch, opt, true, extack);
}

static int sluice_init(struct Qdisc *sch, struct nlattr *opt,
		       struct netlink_ext_ack *extack)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_config cfg;
	struct sluice_port *port;
	unsigned int i;
	int err;

	BUILD_BUG_ON(SLUICE_MAX_CLASSES > BITS_PER_LONG);
	/* First: destroy, which runs after a failed init, cancels them. */
	qdisc_watchdog_init(&q->watchdog, sch);
	sluice_wd_init(sch);
	if (qdisc_dev(sch)->type != ARPHRD_ETHER) {
		SLUICE_ERR(extack, NULL, "sluice needs an Ethernet device");
		return -EOPNOTSUPP;
	}

	sluice_config_default(&cfg, sch);
	if (opt) {
		err = sluice_config_parse(&cfg, opt, extack);
		if (!err)
			err = sluice_pfc_check(sch, &cfg, extack) ?:
			      sluice_wd_check(sch, &cfg, extack) ?:
			      sluice_portfc_check(sch, NULL, &cfg, extack) ?:
			      sluice_int_check(sch, &cfg, extack);
		if (err)
			return err;
	}
	/* Dropped by destroy, which also follows a failed init. */
	sluice_int_hold(sch, cfg.int_port);
	/* Not yet visible to the datapath: no lock needed. */
	for (i = 0; i < SLUICE_MAX_CLASSES; i++)
		q->class_prio[i] = i < SLUICE_NR_PRIOS ? i : SLUICE_PRIO_NONE;
	for (i = 0; i < SLUICE_NR_PRIOS; i++)
		q->prio_class[i] = i;
	for (i = 0; i < cfg.nclasses; i++)
		sluice_class_init(&q->classes[i], cfg.limit);
	q->cfg = cfg;
	q->link_idle = true;
	if (cfg.portfc)
		sluice_portfc_setup(sch);
	if (sch->parent != TC_H_ROOT)
		return 0;

	/* Last: received pauses may act on the qdisc from then on. */
	port = sluice_port_alloc(sch, &cfg);
	if (!port)
		return -ENOMEM;
	sluice_port_config(port, &cfg);
	q->port = port;
	err = sluice_port_publish(port, qdisc_dev(sch));
	if (err)
		return err;
	sluice_portfc_publish(sch);
	sluice_wd_start(sch, true);
	/* After the port: the dcbnl ops act on a root that is one. */
	return sluice_dcb_attach(sch, extack);
}

/*
 * Runs after reset, and after a failed init.  Once dead is set under the
 * root lock, received pause frames no longer arm the watchdog and the
 * PFC watchdog's poll no longer rearms, so cancelling them is final.
 */
static void sluice_destroy(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);

	/* The lock pause_rcv() takes: sch's own, a port is always a root. */
	spin_lock_bh(qdisc_lock(sch));
	q->dead = true;
	sluice_portfc_detach(sch);
	spin_unlock_bh(qdisc_lock(sch));
	qdisc_watchdog_cancel(&q->watchdog);
	sluice_wd_stop(sch);
	sluice_int_hold(sch, false);
	sluice_dcb_detach(sch);
	if (q->port)
		sluice_port_detach(q->port, qdisc_dev(sch));
}

static int sluice_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct nlattr *opts;

	opts = nla_nest_start(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (sluice_config_dump(&q->cfg, skb)) {
		nla_nest_cancel(skb, opts);
		return -EMSGSIZE;
	}
	return nla_nest_end(skb, opts);
}

/*
 * Only RTNL is held here (since 5.1): the counters are read under the lock
 * their writers hold (sluice_stats_lock()), so that they agree with each
 * other, and copied out after.
 */
static int sluice_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct tc_sluice_xstats xstats;

	/* The whole union goes out: no byte of it may be left unset. */
	memset(&xstats, 0, sizeof(xstats));
	xstats.type = TC_SLUICE_XSTATS_QDISC;
	xstats.version = TC_SLUICE_XSTATS_VERSION;
	spin_lock_bh(sluice_stats_lock(sch));
	xstats.qdisc.untagged = q->untagged;
	xstats.qdisc.limit_drops = q->limit_drops;
	xstats.qdisc.pause_rx = q->pause_rx;
	xstats.qdisc.pfc_rx = q->pfc_rx;
	xstats.qdisc.pause_malformed = q->pause_malformed;
	xstats.qdisc.pause_untrusted = q->pause_untrusted;
	xstats.qdisc.headroom_drops = q->headroom_drops;
	xstats.qdisc.pause_ignored = q->pause_ignored;
	xstats.qdisc.portfc_rx = q->portfc_rx;
	xstats.qdisc.portfc_malformed = q->portfc_malformed;
	xstats.qdisc.portfc_ignored = q->portfc_ignored;
	xstats.qdisc.portfc_relayed = q->portfc_relayed;
	xstats.qdisc.portfc_unknown = q->portfc_unknown;
	xstats.qdisc.portfc_hq = q->portfc_hq;
	xstats.qdisc.portfc_xoff_a = q->portfc_xoff_tx[SLUICE_PORTFC_QA];
	xstats.qdisc.portfc_xon_a = q->portfc_xon_tx[SLUICE_PORTFC_QA];
	xstats.qdisc.portfc_xoff_b = q->portfc_xoff_tx[SLUICE_PORTFC_QB];
	xstats.qdisc.portfc_xon_b = q->portfc_xon_tx[SLUICE_PORTFC_QB];
	xstats.qdisc.int_stamped = q->int_stamped;
	xstats.qdisc.int_full = q->int_full;
	xstats.qdisc.int_malformed = q->int_malformed;
	xstats.qdisc.int_unwritable = q->int_unwritable;
	spin_unlock_bh(sluice_stats_lock(sch));
	if (q->port) {
		xstats.qdisc.pfc_tx = READ_ONCE(q->port->signal.tx);
		xstats.qdisc.pfc_tx_failed = READ_ONCE(q->port->signal.tx_failed);
	}
	return gnet_stats_copy_app(d, &xstats, sizeof(xstats));
}

struct Qdisc_ops sluice_qdisc_ops __read_mostly = {
	.id		= "sluice",
	.cl_ops		= &sluice_class_ops,
	.priv_size	= sizeof(struct sluice_sched),
	.enqueue	= sluice_enqueue,
	.dequeue	= sluice_dequeue,
	.peek		= sluice_peek,
	.init		= sluice_init,
	.reset		= sluice_reset,
	.destroy	= sluice_destroy,
	.change		= sluice_change,
	.dump		= sluice_dump,
	.dump_stats	= sluice_dump_stats,
	.owner		= THIS_MODULE,
};
