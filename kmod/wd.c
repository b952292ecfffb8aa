// SPDX-License-Identifier: GPL-2.0
/*
 * The PFC watchdog, with the semantics of SONiC's pfcwd (uapi: "PFC
 * watchdog").  A delayed work polls the watched classes of a port every
 * wd_poll_ms: under the qdisc's root lock it detects storms (a class
 * paused and holding frames for the detection time) and restorations (no
 * pause for the restoration time), applies the action's state, and
 * records events; it sends them once the lock is released, with
 * GFP_KERNEL.  The datapath only reads the bitmaps wd_drop and
 * wd_forward under the root lock it holds anyway (qdisc.c), and the port
 * stops pausing upstream through port->wd_nopause (switch.c), whose
 * frames leave from the port's timer, never from here.
 */
#include <linux/jiffies.h>
#include <linux/skbuff.h>

#include "sluice.h"

/* Under the root lock: what an event reports, recorded for later. */
static void sluice_wd_record(struct sluice_sched *q, u8 event, unsigned int c,
			     u8 action, u64 now)
{
	struct sluice_wd_event *ev;

	lockdep_assert_held(qdisc_lock(q->wd.sch));
	if (WARN_ON_ONCE(q->wd.n_events >= ARRAY_SIZE(q->wd.events)))
		return;
	ev = &q->wd.events[q->wd.n_events++];
	ev->event = event;
	/*
	 * 255 on a PortFC port, which has no priorities: the stats' index
	 * names the class.
	 */
	ev->prio = q->class_prio[c];
	ev->action = action;
	sluice_prio_stats_fill(&ev->stats, q, q->port, c, now);
}

/*
 * The classes @cfg watches: watched priorities' classes, or on a PortFC
 * port, which has no priorities, every data class (HQ is never paused).
 */
static unsigned long sluice_wd_watched(const struct sluice_sched *q,
				       const struct sluice_config *cfg)
{
	unsigned long prios = cfg->wd_prios, classes = 0;
	unsigned int p;

	if (cfg->portfc)
		return prios ? BIT(cfg->nclasses - 1) - 1 : 0;
	for_each_set_bit(p, &prios, SLUICE_NR_PRIOS)
		classes |= BIT(q->prio_class[p]);
	return classes;
}

/*
 * The drop action empties the class.  Its frames are counted as drops
 * and released from their ingress accounts here, and freed by the caller
 * once the lock is released (they join *to_free).
 */
static void sluice_wd_flush(struct Qdisc *sch, unsigned int c,
			    struct sk_buff **to_free)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_class *cl = &q->classes[c];
	unsigned int n = cl->q.qlen, bytes = cl->qstats.backlog;
	struct sk_buff *skb;

	if (!n)
		return;
	if (q->peeked_cl == cl)
		q->peeked = NULL;
	for (skb = cl->q.head; skb; skb = skb->next)
		sluice_ingress_release(skb);
	cl->q.tail->next = *to_free;
	*to_free = cl->q.head;
	cl->q.head = NULL;
	cl->q.tail = NULL;
	cl->q.qlen = 0;
	cl->qstats.backlog = 0;
	cl->qstats.drops += n;
	cl->wd_drops += n;
	cl->deficit = 0;
	q->active &= ~BIT(c);
	sch->q.qlen -= n;
	sch->qstats.backlog -= bytes;
	__qdisc_qstats_drop(sch, n);
	qdisc_tree_reduce_backlog(sch, n, bytes);
	sluice_portfc_account(sch, c, -(long)bytes);
}

static void sluice_wd_storm(struct Qdisc *sch, unsigned int c, u64 now,
			    struct sk_buff **to_free)
{
	struct sluice_sched *q = qdisc_priv(sch);

	q->wd_storm |= BIT(c);
	q->classes[c].wd_storms++;
	switch (q->cfg.wd_action) {
	case TC_SLUICE_WD_DROP:
		q->wd_drop |= BIT(c);
		sluice_wd_flush(sch, c, to_free);
		if (q->port && q->class_prio[c] < SLUICE_NR_PRIOS)
			sluice_port_wd_nopause(q->port, q->class_prio[c], true);
		break;
	case TC_SLUICE_WD_FORWARD:
		q->wd_forward |= BIT(c);
		/* The class can send now: let dequeue look again. */
		if (q->active & BIT(c))
			qdisc_watchdog_schedule_ns(&q->watchdog, now);
		break;
	}
	sluice_wd_record(q, SLUICE_EVENT_STORM, c, q->cfg.wd_action, now);
}

/* The class behaves as before the storm; @action is the storm's. */
static void sluice_wd_restore(struct Qdisc *sch, unsigned int c, u8 action, u64 now)
{
	struct sluice_sched *q = qdisc_priv(sch);

	q->wd_storm &= ~BIT(c);
	q->wd_drop &= ~BIT(c);
	q->wd_forward &= ~BIT(c);
	q->classes[c].wd_restored++;
	if (q->port && q->class_prio[c] < SLUICE_NR_PRIOS)
		sluice_port_wd_nopause(q->port, q->class_prio[c], false);
	sluice_wd_record(q, SLUICE_EVENT_RESTORED, c, action, now);
}

/* One poll, under the root lock. */
static void sluice_wd_evaluate(struct Qdisc *sch, u64 now, struct sk_buff **to_free)
{
	struct sluice_sched *q = qdisc_priv(sch);
	u64 detect = (u64)q->cfg.wd_detect_ms * NSEC_PER_MSEC;
	u64 restore = (u64)q->cfg.wd_restore_ms * NSEC_PER_MSEC;
	unsigned long watched = sluice_wd_watched(q, &q->cfg);
	struct sluice_class *cl;
	unsigned int c;
	u64 onset;

	lockdep_assert_held(qdisc_lock(sch));
	if (q->paused)
		sluice_pause_expire(sch, now);
	/* The watched classes, which pauses pause. */
	for_each_set_bit(c, &watched, SLUICE_MAX_CLASSES) {
		cl = &q->classes[c];
		if (q->wd_storm & BIT(c)) {
			/*
			 * A pause in effect is a storm still going on, however
			 * rarely its XOFF is refreshed (every half pause time:
			 * seconds at a low rate).  The storm ends once the last
			 * pause ended (ran out, or an XON) that long ago.
			 */
			if (!(q->paused & BIT(c)) &&
			    now - cl->pause_end >= restore)
				sluice_wd_restore(sch, c, q->cfg.wd_action, now);
			continue;
		}
		if (!(q->paused & BIT(c)) || !cl->q.qlen)
			continue;
		/* Paused and holding frames, both since onset: nothing sent. */
		onset = max(cl->paused_since, cl->nonempty_since);
		if (now - onset >= detect)
			sluice_wd_storm(sch, c, now, to_free);
	}
}

/* Sends the recorded events; wd.lock held, no spinlock. */
void sluice_wd_notify(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct net_device *dev = qdisc_dev(sch);
	unsigned int i;

	lockdep_assert_held(&q->wd.lock);
	for (i = 0; i < q->wd.n_events; i++)
		sluice_genl_notify_wd(dev_net(dev), dev, &q->wd.events[i]);
	q->wd.n_events = 0;
}

static void sluice_wd_poll(struct work_struct *work)
{
	struct sluice_wd *wd = container_of(to_delayed_work(work),
					    struct sluice_wd, work);
	struct Qdisc *sch = wd->sch;
	struct sluice_sched *q = qdisc_priv(sch);
	struct sk_buff *to_free = NULL;
	unsigned int poll_ms = 0;

	mutex_lock(&wd->lock);
	spin_lock_bh(qdisc_lock(sch));
	if (!q->dead) {
		sluice_wd_evaluate(sch, ktime_get_ns(), &to_free);
		if (q->cfg.wd_prios)
			poll_ms = q->cfg.wd_poll_ms;
	}
	spin_unlock_bh(qdisc_lock(sch));
	kfree_skb_list(to_free);
	sluice_wd_notify(sch);
	/* Destroy cancels the work after setting dead: no requeue then. */
	if (poll_ms)
		queue_delayed_work(system_wq, &wd->work,
				   msecs_to_jiffies(poll_ms));
	mutex_unlock(&wd->lock);
}

/* First thing in init: destroy, also after a failed init, cancels it. */
void sluice_wd_init(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);

	q->wd.sch = sch;
	mutex_init(&q->wd.lock);
	INIT_DELAYED_WORK(&q->wd.work, sluice_wd_poll);
}

/*
 * After a committed configuration (RTNL held): poll if anything is
 * watched.  @restart (the watchdog was just turned on, or its poll
 * changed) starts a poll interval now; otherwise a pending poll keeps its
 * time, so that a stream of changes cannot hold polls off.
 */
void sluice_wd_start(struct Qdisc *sch, bool restart)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned long delay;

	ASSERT_RTNL();
	if (!READ_ONCE(q->cfg.wd_prios))
		return;
	delay = msecs_to_jiffies(READ_ONCE(q->cfg.wd_poll_ms));
	if (restart)
		mod_delayed_work(system_wq, &q->wd.work, delay);
	else
		queue_delayed_work(system_wq, &q->wd.work, delay);
}

/* In destroy, once dead is set under the root lock. */
void sluice_wd_stop(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);

	cancel_delayed_work_sync(&q->wd.work);
	mutex_destroy(&q->wd.lock);
}

/*
 * Under the tree lock, before @cfg becomes the qdisc's: ends the storms
 * of priorities it no longer watches, and every storm when it changes the
 * action, as restorations (counted, and notified by the caller, which
 * holds wd.lock, through sluice_wd_notify()).
 */
void sluice_wd_commit(struct Qdisc *sch, const struct sluice_config *cfg)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned long end = q->wd_storm, watched = sluice_wd_watched(q, cfg);
	u64 now = ktime_get_ns();
	unsigned int c;

	lockdep_assert_held(&q->wd.lock);
	lockdep_assert_held(qdisc_root_sleeping_lock(sch));
	for_each_set_bit(c, &end, SLUICE_MAX_CLASSES) {
		/* Still watched, with the same action: the storm goes on. */
		if (cfg->wd_action == q->cfg.wd_action && watched & BIT(c))
			continue;
		sluice_wd_restore(sch, c, q->cfg.wd_action, now);
	}
}
