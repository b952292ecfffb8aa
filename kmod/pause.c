// SPDX-License-Identifier: GPL-2.0
/*
 * Honouring received pause frames.  A packet_type handler for EtherType
 * 0x8808 sees every MAC control frame; on a sluice port it pauses the
 * egress classes the frame names, under the qdisc's root lock, and arms
 * the qdisc watchdog so that a resume (time 0) is acted on at once.
 * Expiry is handled by dequeue, which knows when the next class resumes.
 *
 * As IEEE 802.1Qbb and SONiC's PFC test plan want: a PFC frame acts only
 * on the port's PFC-enabled priorities (its pfc set); lossy priorities are
 * never paused.  802.3x PAUSE and PFC exclude each other on a link: a port
 * with PFC enabled ignores PAUSE, one without ignores PFC; a PortFC port
 * ignores both (its signals are portfc.c's).  Both count
 * what they ignored in pause_ignored.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>

#include "sluice.h"

/* The pause ends now, or ended at paused_until if that came first. */
static void sluice_class_resume(struct sluice_class *cl, unsigned int c,
				struct sluice_sched *q, u64 now)
{
	if (!(q->paused & BIT(c)))
		return;
	q->paused &= ~BIT(c);
	cl->pause_end = min(now, cl->paused_until);
	cl->paused_ns += cl->pause_end - cl->paused_since;
}

static void sluice_class_pause(struct sluice_class *cl, unsigned int c,
			       struct sluice_sched *q, u64 now, u16 quanta)
{
	if (!quanta) {
		cl->xon_rx++;
		sluice_class_resume(cl, c, q, now);
		return;
	}
	cl->pfc_rx++;
	/* A pause that ran out unnoticed ended then: this one starts anew. */
	if (cl->paused_until <= now)
		sluice_class_resume(cl, c, q, now);
	cl->paused_until = now + sluice_quanta_ns(quanta, q->cfg.rate);
	if (!(q->paused & BIT(c))) {
		q->paused |= BIT(c);
		cl->paused_since = now;
	}
}

/*
 * Under the root lock: resume the classes whose pause has run out.  Only
 * a port is ever paused, and a port is a root qdisc: its lock is the root
 * lock.
 */
void sluice_pause_expire(struct Qdisc *sch, u64 now)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned long paused = q->paused;
	unsigned int c;

	lockdep_assert_held(qdisc_lock(sch));
	for_each_set_bit(c, &paused, SLUICE_MAX_CLASSES) {
		if (q->classes[c].paused_until <= now)
			sluice_class_resume(&q->classes[c], c, q, now);
	}
}

/*
 * Under the root lock, for readers (dumps, events): whether class c is
 * paused at @now and the time it has been paused in all, as if
 * sluice_pause_expire() had run, without writing anything.
 */
bool sluice_class_paused(const struct sluice_sched *q, unsigned int c,
			 u64 now, u64 *paused_ns)
{
	const struct sluice_class *cl = &q->classes[c];

	*paused_ns = cl->paused_ns;
	if (!(q->paused & BIT(c)))
		return false;
	*paused_ns += min(now, cl->paused_until) - cl->paused_since;
	return cl->paused_until > now;
}

/* When the first paused class that holds frames resumes, or 0. */
u64 sluice_pause_next_expiry(const struct sluice_sched *q)
{
	unsigned long waiting = q->paused & q->active;
	u64 next = 0;
	unsigned int c;

	for_each_set_bit(c, &waiting, SLUICE_MAX_CLASSES) {
		if (!next || q->classes[c].paused_until < next)
			next = q->classes[c].paused_until;
	}
	return next;
}

/* Under the root lock: class c paused for @quanta, resumed if 0. */
void sluice_pause_class(struct sluice_sched *q, unsigned int c, u64 now,
			u16 quanta)
{
	if (c < q->cfg.nclasses)
		sluice_class_pause(&q->classes[c], c, q, now, quanta);
}

/*
 * Priority p's pause for @quanta, on its class and in the port's view of
 * what it received.
 */
static void sluice_prio_pause(struct sluice_sched *q, unsigned int prio,
			      u64 now, u16 quanta)
{
	unsigned int c = q->prio_class[prio];

	if (c < q->cfg.nclasses)
		sluice_class_pause(&q->classes[c], c, q, now, quanta);
	WRITE_ONCE(q->port->rx_until[prio],
		   quanta ? now + sluice_quanta_ns(quanta, q->cfg.rate) : now);
}

/* Applies a well-formed frame's pause, or counts it as ignored. */
static void sluice_pause_apply(struct Qdisc *sch, const struct sluice_ctrl *f)
{
	struct sluice_sched *q = qdisc_priv(sch);
	u64 now = ktime_get_ns();
	unsigned long prios;
	unsigned int p, c;

	if (f->kind == SLUICE_CTRL_PFC) {
		prios = f->enable & q->cfg.pfc;
		if (!prios) {
			q->pause_ignored++;
			return;
		}
		q->pfc_rx++;
		for_each_set_bit(p, &prios, SLUICE_NR_PRIOS)
			sluice_prio_pause(q, p, now, f->quanta[p]);
	} else {
		/* PortFC's signals are the port's flow control: HQ never stops. */
		if (q->cfg.pfc || q->cfg.portfc) {
			q->pause_ignored++;
			return;
		}
		q->pause_rx++;
		for (c = 0; c < q->cfg.nclasses; c++)
			sluice_class_pause(&q->classes[c], c, q, now, f->quanta[0]);
		for (p = 0; p < SLUICE_NR_PRIOS; p++)
			WRITE_ONCE(q->port->rx_until[p], f->quanta[0] ?
				   now + sluice_quanta_ns(f->quanta[0], q->cfg.rate) :
				   now);
	}
	/* Let dequeue look again if it has frames: a class may have resumed. */
	if (q->active)
		qdisc_watchdog_schedule_ns(&q->watchdog, now);
}

static void sluice_pause_handle(struct Qdisc *sch, struct sk_buff *skb)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_ctrl f;

	if (q->dead)
		return;
	if (!sluice_ctrl_parse(skb, qdisc_dev(sch), &f))
		q->pause_malformed++;
	else if (!q->cfg.pause_rx || !q->cfg.rate)
		q->pause_untrusted++;
	else
		sluice_pause_apply(sch, &f);
}

/* Runs in the receive softirq, under rcu_read_lock(). */
static int sluice_pause_rcv(struct sk_buff *skb, struct net_device *dev,
			    struct packet_type *pt, struct net_device *orig_dev)
{
	spinlock_t *root_lock;	/* the qdisc tree's lock */
	struct sluice_port *port;
	struct Qdisc *sch;

	port = sluice_port_lookup_rcu(dev_net(dev), dev->ifindex);
	sch = port ? rcu_dereference(port->sch) : NULL;
	if (sch) {
		/*
		 * A port's qdisc is a root, so this is its root lock; the
		 * core frees a qdisc only after a grace period.
		 */
		root_lock = qdisc_lock(sch);
		spin_lock(root_lock);
		sluice_pause_handle(sch, skb);
		spin_unlock(root_lock);
	}
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

static struct packet_type sluice_pause_packet_type __read_mostly = {
	.type	= cpu_to_be16(ETH_P_PAUSE),
	.func	= sluice_pause_rcv,
};

int sluice_pause_init(void)
{
	dev_add_pack(&sluice_pause_packet_type);
	return 0;
}

void sluice_pause_exit(void)
{
	dev_remove_pack(&sluice_pause_packet_type);
}
