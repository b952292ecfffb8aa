// SPDX-License-Identifier: GPL-2.0
/*
 * Honouring received pause frames.  A packet_type handler for EtherType
 * 0x8808 sees every MAC control frame; on a sluice port it pauses the
 * egress classes the frame names, under the qdisc's root lock, and arms
 * the qdisc watchdog so that a resume (time 0) is acted on at once.
 * Expiry is handled by dequeue, which knows when the next class resumes.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>

#include "sluice.h"

#define PAUSE_OPCODE	0x0001		/* 802.3x: one time, every class */
#define PFC_OPCODE	0x0101		/* 802.1Qbb: enable vector, 8 times */

/* One quantum is the time to send 512 bits at the link's rate. */
u64 sluice_quanta_ns(u32 quanta, u64 rate)
{
	return div64_u64((u64)quanta * 512 * NSEC_PER_SEC, rate);
}

/* The pause ends now, or ended at paused_until if that came first. */
static void class_resume(struct sluice_class *cl, unsigned int c,
			 struct sluice_sched *q, u64 now)
{
	if (!(q->paused & BIT(c)))
		return;
	q->paused &= ~BIT(c);
	cl->paused_ns += min(now, cl->paused_until) - cl->paused_since;
}

static void class_pause(struct sluice_class *cl, unsigned int c,
			struct sluice_sched *q, u64 now, u16 quanta)
{
	if (!quanta) {
		cl->xon_rx++;
		class_resume(cl, c, q, now);
		return;
	}
	cl->pfc_rx++;
	cl->last_pause = now;
	/* A pause that ran out unnoticed ended then: this one starts anew. */
	if (cl->paused_until <= now)
		class_resume(cl, c, q, now);
	cl->paused_until = now + sluice_quanta_ns(quanta, q->cfg.rate);
	if (!(q->paused & BIT(c))) {
		q->paused |= BIT(c);
		cl->paused_since = now;
	}
}

/* Under the root lock: resume the classes whose pause has run out. */
void sluice_pause_expire(struct sluice_sched *q, u64 now)
{
	unsigned long paused = q->paused;
	unsigned int c;

	for_each_set_bit(c, &paused, TC_SLUICE_MAX_CLASSES) {
		if (q->classes[c].paused_until <= now)
			class_resume(&q->classes[c], c, q, now);
	}
}

/* When the first paused class that holds frames resumes, or 0. */
u64 sluice_pause_next_expiry(const struct sluice_sched *q)
{
	unsigned long waiting = q->paused & q->active;
	u64 next = 0;
	unsigned int c;

	for_each_set_bit(c, &waiting, TC_SLUICE_MAX_CLASSES) {
		if (!next || q->classes[c].paused_until < next)
			next = q->classes[c].paused_until;
	}
	return next;
}

/* Applies a well-formed frame's pause; payload is after the EtherType. */
static void pause_apply(struct Qdisc *sch, const __be16 *payload, bool pfc)
{
	struct sluice_sched *q = qdisc_priv(sch);
	u64 now = ktime_get_ns();
	unsigned int c;

	if (pfc) {
		u16 enable = ntohs(payload[1]);

		q->pfc_rx++;
		for (c = 0; c < min_t(unsigned int, q->cfg.nclasses,
				      SLUICE_NR_PRIOS); c++) {
			if (enable & BIT(c))
				class_pause(&q->classes[c], c, q, now,
					    ntohs(payload[2 + c]));
		}
	} else {
		q->pause_rx++;
		for (c = 0; c < q->cfg.nclasses; c++)
			class_pause(&q->classes[c], c, q, now,
				    ntohs(payload[1]));
	}
	/* Let dequeue look again if it has frames: a class may have resumed. */
	if (q->active)
		qdisc_watchdog_schedule_ns(&q->watchdog, now);
}

static void pause_handle(struct Qdisc *sch, struct sk_buff *skb)
{
	struct sluice_sched *q = qdisc_priv(sch);
	__be16 buf[2 + SLUICE_NR_PRIOS];
	const __be16 *payload;
	unsigned int opcode;

	if (q->dead)
		return;
	payload = skb_header_pointer(skb, 0, sizeof(__be16), buf);
	opcode = payload ? ntohs(payload[0]) : 0;
	if (opcode == PFC_OPCODE)
		payload = skb_header_pointer(skb, 0, sizeof(buf), buf);
	else if (opcode == PAUSE_OPCODE)
		payload = skb_header_pointer(skb, 0, 2 * sizeof(__be16), buf);
	else
		payload = NULL;

	if (!payload)
		q->pause_malformed++;
	else if (!q->cfg.pause_rx || !q->cfg.rate)
		q->pause_untrusted++;
	else
		pause_apply(sch, payload, opcode == PFC_OPCODE);
}

/* Runs in the receive softirq, under rcu_read_lock(). */
static int pause_rcv(struct sk_buff *skb, struct net_device *dev,
		     struct packet_type *pt, struct net_device *orig_dev)
{
	spinlock_t *root_lock;	/* the qdisc tree's lock */
	struct sluice_port *port;
	struct Qdisc *sch;

	port = sluice_port_lookup_rcu(dev_net(dev), dev->ifindex);
	sch = port ? rcu_dereference(port->sch) : NULL;
	if (sch) {
		/*
		 * A port's qdisc is a root, so this is its root lock; it is
		 * freed after a grace period (detach waits one out too).
		 */
		root_lock = qdisc_lock(sch);
		spin_lock(root_lock);
		pause_handle(sch, skb);
		spin_unlock(root_lock);
	}
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

static struct packet_type pause_packet_type __read_mostly = {
	.type	= cpu_to_be16(ETH_P_PAUSE),
	.func	= pause_rcv,
};

int sluice_pause_init(void)
{
	dev_add_pack(&pause_packet_type);
	return 0;
}

void sluice_pause_exit(void)
{
	dev_remove_pack(&pause_packet_type);
}
