// SPDX-License-Identifier: GPL-2.0
/*
 * Ingress accounting, PFC's producer of pause signals.  A frame that
 * arrived on port I (skb->skb_iif) is charged to I's account for its
 * priority while it sits in any egress queue of the switch; for I's
 * lossless priorities, an account that reaches XOFF asserts the priority
 * on I's signal sender (an XOFF upstream), and one that falls below XON,
 * or drains, releases it (an XON).
 *
 * Accounts are charged and released from other ports' enqueue and dequeue,
 * under those qdiscs' locks, so they are atomics; the decisions are taken
 * under I's signal lock, on the account read again there
 * (sluice_ingress_decide()), so that racing charges and releases cannot
 * leave I paused with nothing queued.  Enqueue charges a frame first and
 * asks for a pause only once the frame is admitted
 * (sluice_ingress_admitted()): a frame that is dropped never pauses anyone.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>

#include "sluice.h"

static struct sluice_port *sluice_signal_port(const struct sluice_signal *s)
{
	return container_of(s, struct sluice_port, signal);
}

/* PFC's encoding: keys are priorities. */
static struct sk_buff *sluice_pfc_build(struct sluice_signal *s,
					struct net_device *dev,
					unsigned long on, unsigned long off)
{
	const struct sluice_port *port = sluice_signal_port(s);

	return sluice_ctrl_build_pfc(dev, on | off, on,
				     READ_ONCE(port->pause_time));
}

const struct sluice_signal_ops sluice_pfc_signal_ops = {
	.build		= sluice_pfc_build,
	.refresh_ns	= sluice_signal_port_refresh_ns,
};

static void sluice_peak_update(atomic_long_t *peak, long value)
{
	long old = atomic_long_read(peak);

	while (value > old && !atomic_long_try_cmpxchg(peak, &old, value))
		;
}

/*
 * Charges a frame about to be queued to the ingress account of the port it
 * arrived on, for priority @prio, and takes a reference on that port
 * (cb->in).  Returns the account including the frame, 0 if the frame has
 * no sluice ingress port.  The caller then queues the frame and calls
 * sluice_ingress_admitted(), or drops it and calls sluice_ingress_release().
 */
long sluice_ingress_charge(struct sk_buff *skb, struct net *net,
			   unsigned int prio)
{
	struct sluice_skb_cb *cb = sluice_skb_cb(skb);
	struct sluice_port *port;
	long account;

	cb->in = NULL;
	if (!skb->skb_iif || prio >= SLUICE_NR_PRIOS)
		return 0;
	port = sluice_port_lookup_rcu(net, skb->skb_iif);
	/*
	 * A PortFC port has no ingress accounts: its sender's keys are
	 * PortFC's, which PFC's decisions must not touch.
	 */
	if (!port || READ_ONCE(port->portfc) ||
	    !refcount_inc_not_zero(&port->refcnt))
		return 0;
	cb->in = port;
	cb->prio = prio;
	account = atomic_long_add_return(qdisc_pkt_len(skb),
					 &port->ingress[prio]);
	sluice_peak_update(&port->ingress_peak[prio], account);
	return account;
}

/* Whether the ingress port pauses upstream for @prio at all. */
static bool sluice_ingress_pauses(const struct sluice_port *port,
				  unsigned int prio)
{
	return READ_ONCE(port->pfc) & BIT(prio) &&
	       !test_bit(prio, &port->wd_nopause);
}

/*
 * With the signal's lock held: @prio's pause, decided on the account as it
 * is now (hysteresis between XON and XOFF), or released if the port does
 * not pause for @prio (any more).
 *
 * What keeps a pause from sticking with nothing queued: whoever holds the
 * bit set reads the account again after a full barrier, and a release
 * that leaves the account below XON reads the bit after its subtraction
 * (atomic_long_sub_return() is fully ordered).  Either the release sees
 * the bit and comes here, or the read here sees the release.  The bit is
 * never cleared and set again in passing: a release that saw it clear
 * would leave the decision to a reader with an older account.
 *
 * A charge that finds the bit set takes no lock.  If a release clears it
 * meanwhile on an account read before the charge, the account may stand
 * at XOFF with no pause in force until the next admitted frame, which
 * finds the bit clear and comes here: one frame late, which the headroom
 * covers.
 */
static void sluice_ingress_decide(struct sluice_port *port, unsigned int prio)
{
	struct sluice_signal *s = &port->signal;
	long account;

	lockdep_assert_held(&s->lock);
	if (!sluice_ingress_pauses(port, prio)) {
		sluice_signal_release(s, BIT(prio));
		return;
	}
	account = atomic_long_read(&port->ingress[prio]);
	sluice_signal_update(s, prio, account, port->xoff, port->xon);
	if (!test_bit(prio, &s->on))
		return;
	/* Pairs with the subtraction in sluice_ingress_release(). */
	smp_mb();
	account = atomic_long_read(&port->ingress[prio]);
	if (account < port->xon || !account)
		sluice_signal_release(s, BIT(prio));
}

/*
 * The frame charged with @account is queued: pause its ingress port's
 * upstream if the account reached XOFF.  The fast path reads the signal's
 * state without the lock (see sluice_ingress_decide()).
 */
void __sluice_ingress_admitted(const struct sk_buff *skb, long account)
{
	const struct sluice_skb_cb *cb = sluice_skb_cb(skb);
	struct sluice_port *port = cb->in;
	unsigned int prio = cb->prio;

	if (account < READ_ONCE(port->xoff) ||
	    test_bit(prio, &port->signal.on) ||
	    !sluice_ingress_pauses(port, prio))
		return;
	spin_lock_bh(&port->signal.lock);
	sluice_ingress_decide(port, prio);
	spin_unlock_bh(&port->signal.lock);
}

/* Releases what sluice_ingress_charge() charged, when the frame leaves. */
void sluice_ingress_release(struct sk_buff *skb)
{
	struct sluice_skb_cb *cb = sluice_skb_cb(skb);
	struct sluice_port *port = cb->in;
	unsigned int prio = cb->prio;
	long account;

	if (!port)
		return;
	cb->in = NULL;
	account = atomic_long_sub_return(qdisc_pkt_len(skb),
					 &port->ingress[prio]);
	/*
	 * Resume below XON, and always once the account has drained.  The
	 * bit is read after the (fully ordered) subtraction: see
	 * sluice_ingress_decide().
	 */
	if ((account < READ_ONCE(port->xon) || !account) &&
	    test_bit(prio, &port->signal.on)) {
		/* _bh: a qdisc being destroyed is reset outside its lock. */
		spin_lock_bh(&port->signal.lock);
		sluice_ingress_decide(port, prio);
		spin_unlock_bh(&port->signal.lock);
	}
	sluice_port_put(port);
}

/*
 * The watchdog's drop action (wd.c) ends the priority's ingress traffic
 * too, as SONiC's pfcwd does: a frame that arrived on a port while the
 * port's class of its priority is in a dropping storm is dropped wherever
 * it was to be queued, and counted on that port.
 */
bool __sluice_ingress_wd_drop(const struct sk_buff *skb)
{
	const struct sluice_skb_cb *cb = sluice_skb_cb(skb);
	struct sluice_port *port = cb->in;

	if (likely(!test_bit(cb->prio, &port->wd_nopause)))
		return false;
	atomic64_inc(&port->wd_ingress_drops[cb->prio]);
	return true;
}

/*
 * Called under the qdisc's tree lock whenever its configuration changes.
 * Every priority is decided anew on its account: those no longer lossless
 * are resumed upstream at once, and a lower XOFF, or a priority made
 * lossless, pauses an account already above it without waiting for the
 * next frame.
 */
void sluice_port_config(struct sluice_port *port,
			const struct sluice_config *cfg)
{
	unsigned int prio;

	spin_lock_bh(&port->signal.lock);
	WRITE_ONCE(port->rate, cfg->rate);
	WRITE_ONCE(port->xoff, cfg->xoff);
	WRITE_ONCE(port->xon, cfg->xon);
	WRITE_ONCE(port->headroom, cfg->headroom);
	WRITE_ONCE(port->pause_time, cfg->pause_time);
	WRITE_ONCE(port->pfc, cfg->pfc);
	/* A PortFC port's keys are not priorities (see charge()). */
	for (prio = 0; prio < SLUICE_NR_PRIOS && !port->portfc; prio++)
		sluice_ingress_decide(port, prio);
	spin_unlock_bh(&port->signal.lock);
}

/*
 * The watchdog's drop action (@stop) or its end: while a storm of
 * priority prio lasts the port does not pause its upstream for it, and
 * an XOFF it holds is resumed at once.  Under the port's qdisc lock; the
 * XON leaves from the signal's timer.
 */
void sluice_port_wd_nopause(struct sluice_port *port, unsigned int prio,
			    bool stop)
{
	spin_lock_bh(&port->signal.lock);
	if (stop)
		set_bit(prio, &port->wd_nopause);
	else
		clear_bit(prio, &port->wd_nopause);
	/* The storm's end pauses an account that is above XOFF now. */
	sluice_ingress_decide(port, prio);
	spin_unlock_bh(&port->signal.lock);
}
