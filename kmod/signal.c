// SPDX-License-Identifier: GPL-2.0
/*
 * The flow-control signal sender: one per port, shared by whatever
 * produces pause signals there.  A producer (today the ingress accounts,
 * ingress.c; PortFC's egress detection next) decides, under s->lock, that
 * a key is asserted (the upstream must stop: XOFF) or released (XON); the
 * sender says so on the wire, outside every qdisc lock:
 *
 *   - a change is sent at once, from a soft hrtimer, in one frame that
 *     names every key in force and every key just released;
 *   - keys in force are said again before the pause they set runs out
 *     upstream (ops->refresh_ns), for as long as they stay asserted;
 *   - a frame that could not be queued is retried with exponential back-off
 *     from SLUICE_MIN_REFRESH_NS to SLUICE_SIGNAL_MAX_BACKOFF_NS: a lost
 *     XON would leave the neighbour paused until its pause ran out;
 *   - while the device cannot send at all (down, or no carrier) the sender
 *     parks: nothing is built or retried until NETDEV_UP or NETDEV_CHANGE
 *     says it can (sluice_signal_wake()), then it sends the state then in
 *     force.  A parked sender costs nothing; one that retried would spin.
 *
 * The encoding is the producer's (ops->build): keys are PFC priorities,
 * or PortFC's (queue type, port index) pairs (portfc.c).  A key asserted
 * with a deadline (sluice_signal_assert_until(): a pause a PortFC server
 * relays lasts as long as the one it received) is released by the timer
 * when the deadline passes, unless asserted again first.
 *
 * Locking: s->lock nests inside any qdisc lock (producers run in enqueue
 * and dequeue) and is taken with BHs off outside them.  The frame leaves
 * through dev_queue_xmit() from the timer, never under s->lock or a qdisc
 * lock.  The counters are written by the timer callback only, which never
 * runs twice at once, and read with READ_ONCE().
 */
#include <linux/netdevice.h>

#include "sluice.h"

static void sluice_signal_count(struct sluice_signal *s, unsigned long on,
				unsigned long off)
{
	unsigned long keys = on | off;
	unsigned int key;

	WRITE_ONCE(s->tx, s->tx + 1);
	for_each_set_bit(key, &keys, SLUICE_SIGNAL_MAX_KEYS) {
		if (on & BIT(key))
			WRITE_ONCE(s->on_tx[key], s->on_tx[key] + 1);
		else
			WRITE_ONCE(s->off_tx[key], s->off_tx[key] + 1);
	}
}

/* With s->lock held: send soon, unless detached or parked. */
static void sluice_signal_kick(struct sluice_signal *s)
{
	lockdep_assert_held(&s->lock);
	if (s->dev && !s->parked)
		hrtimer_start(&s->timer, 0, HRTIMER_MODE_REL_SOFT);
}

/*
 * With s->lock held: releases the keys whose deadline has passed, and
 * returns how soon the next one passes (0: no deadline in force).
 */
static u64 sluice_signal_expire(struct sluice_signal *s, u64 now)
{
	unsigned long on = s->on;
	unsigned int key;
	u64 soonest = 0;

	lockdep_assert_held(&s->lock);
	for_each_set_bit(key, &on, SLUICE_SIGNAL_MAX_KEYS) {
		u64 until = s->until[key];

		if (!until)
			continue;
		if (until <= now) {
			WRITE_ONCE(s->on, s->on & ~BIT(key));
			s->off |= BIT(key);
			s->until[key] = 0;
		} else if (!soonest || until - now < soonest) {
			soonest = until - now;
		}
	}
	return soonest;
}

static enum hrtimer_restart sluice_signal_timer(struct hrtimer *timer)
{
	struct sluice_signal *s = container_of(timer, struct sluice_signal,
					       timer);
	unsigned long on, off;
	struct net_device *dev;
	struct sk_buff *skb;
	u64 next = 0, deadline;

	spin_lock(&s->lock);
	deadline = sluice_signal_expire(s, ktime_get_ns());
	dev = s->dev;
	on = s->on;
	off = s->off;
	if (!dev || s->parked || !(on | off)) {
		spin_unlock(&s->lock);
		return HRTIMER_NORESTART;
	}
	/*
	 * A device that is down or has no carrier runs noop_qdisc, which
	 * refuses every frame: wait for the notifier instead of retrying.
	 */
	if (!netif_running(dev) || !netif_carrier_ok(dev)) {
		s->parked = true;
		spin_unlock(&s->lock);
		return HRTIMER_NORESTART;
	}
	s->off = 0;
	spin_unlock(&s->lock);

	/* dev stays valid: detach waits for this callback to return. */
	skb = s->ops->build(s, dev, on, off);
	if (skb && dev_queue_xmit(skb) == NET_XMIT_SUCCESS) {
		sluice_signal_count(s, on, off);
		s->backoff_ns = 0;
		if (on)
			next = s->ops->refresh_ns(s);
		/* A deadline before the refresh: release the key then. */
		if (deadline && (!next || deadline < next))
			next = deadline;
	} else {
		WRITE_ONCE(s->tx_failed, s->tx_failed + 1);
		spin_lock(&s->lock);
		/* Unless asserted again meanwhile, those keys still need an XON. */
		s->off |= off & ~s->on;
		spin_unlock(&s->lock);
		s->backoff_ns = clamp_t(u64, 2 * s->backoff_ns,
					SLUICE_MIN_REFRESH_NS,
					SLUICE_SIGNAL_MAX_BACKOFF_NS);
		next = s->backoff_ns;
	}
	if (!next)
		return HRTIMER_NORESTART;
	/*
	 * A kick while the frame was sent started the timer again: that
	 * run sends what changed and refreshes.  Forwarding a queued timer
	 * would corrupt its queue; kicks hold the lock, so it is checked
	 * under it.
	 */
	spin_lock(&s->lock);
	if (hrtimer_is_queued(timer)) {
		spin_unlock(&s->lock);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(timer, ns_to_ktime(next));
	spin_unlock(&s->lock);
	return HRTIMER_RESTART;
}

void sluice_signal_init(struct sluice_signal *s,
			const struct sluice_signal_ops *ops,
			struct net_device *dev)
{
	BUILD_BUG_ON(SLUICE_SIGNAL_MAX_KEYS > BITS_PER_LONG);
	spin_lock_init(&s->lock);
	s->ops = ops;
	s->dev = dev;
	hrtimer_init(&s->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	s->timer.function = sluice_signal_timer;
}

/*
 * With s->lock held: @key is in force until released.  s->on is read
 * without the lock by producers' fast paths: its writes are marked.
 */
void sluice_signal_assert(struct sluice_signal *s, unsigned int key)
{
	lockdep_assert_held(&s->lock);
	s->until[key] = 0;
	if (s->on & BIT(key))
		return;
	WRITE_ONCE(s->on, s->on | BIT(key));
	s->off &= ~BIT(key);
	s->known |= BIT(key);
	sluice_signal_kick(s);
}

/*
 * With s->lock held: @key is in force until @until (ktime_get_ns()), or
 * until released or asserted again.  A key newly in force is said at
 * once; one that was is said again at its refresh, with the new deadline.
 */
void sluice_signal_assert_until(struct sluice_signal *s, unsigned int key,
				u64 until)
{
	lockdep_assert_held(&s->lock);
	if (s->on & BIT(key)) {
		/* A key with no deadline keeps none. */
		if (s->until[key])
			s->until[key] = until;
		return;
	}
	sluice_signal_assert(s, key);
	s->until[key] = until;
	/* The timer must be there when it passes: kick set it to now. */
}

/* With s->lock held: the keys of @keys in force are released. */
void sluice_signal_release(struct sluice_signal *s, unsigned long keys)
{
	unsigned int key;

	lockdep_assert_held(&s->lock);
	keys &= s->on;
	if (!keys)
		return;
	for_each_set_bit(key, &keys, SLUICE_SIGNAL_MAX_KEYS)
		s->until[key] = 0;
	WRITE_ONCE(s->on, s->on & ~keys);
	s->off |= keys;
	sluice_signal_kick(s);
}

/*
 * With s->lock held: the hysteresis a producer applies to a level it
 * measures for @key (bytes queued, say): asserted at @xoff or above,
 * released below @xon or once the level is 0, left as it is in between.
 * The producer reads the level under s->lock, so that its decisions are
 * taken in one order.
 */
void sluice_signal_update(struct sluice_signal *s, unsigned int key,
			  long level, u32 xoff, u32 xon)
{
	lockdep_assert_held(&s->lock);
	if (level >= xoff)
		sluice_signal_assert(s, key);
	else if (level < xon || !level)
		sluice_signal_release(s, BIT(key));
}

/*
 * The device may be able to send again (NETDEV_UP, NETDEV_CHANGE; RTNL
 * held): a parked sender says what is in force now.
 */
void sluice_signal_wake(struct sluice_signal *s)
{
	spin_lock_bh(&s->lock);
	if (s->parked) {
		s->parked = false;
		if (s->on | s->off)
			sluice_signal_kick(s);
	}
	spin_unlock_bh(&s->lock);
}

/*
 * Frames the sender had queued were thrown away unsent (the qdisc was
 * reset: the device went down or lost its carrier): which keys they said
 * is not known, so every key ever asserted that is not in force now is
 * resumed again, once the device can send.  A neighbour that was not
 * paused ignores the XON.
 */
void sluice_signal_lost(struct sluice_signal *s)
{
	spin_lock_bh(&s->lock);
	s->off |= s->known & ~s->on;
	if (s->on | s->off)
		sluice_signal_kick(s);
	spin_unlock_bh(&s->lock);
}

/*
 * Stops the sender for good (RTNL held, process context) and resumes at
 * once, bypassing the qdisc layer, what it may have left paused upstream;
 * the device's queues already point at noop_qdisc here.  A device that
 * cannot send drops the frame, counted by the core as tx_dropped.
 */
void sluice_signal_detach(struct sluice_signal *s)
{
	struct net_device *dev;
	unsigned long keys;
	struct sk_buff *skb;
	int rc;

	spin_lock_bh(&s->lock);
	dev = s->dev;
	keys = s->on | s->off;
	WRITE_ONCE(s->on, 0);
	s->off = 0;
	s->dev = NULL;
	spin_unlock_bh(&s->lock);
	hrtimer_cancel(&s->timer);
	if (!dev || !keys)
		return;
	skb = s->ops->build(s, dev, 0, keys);
	if (!skb)
		return;
	local_bh_disable();
	rc = __dev_direct_xmit(skb, 0);
	local_bh_enable();
	/* A busy queue hands the frame back instead of freeing it. */
	if (!dev_xmit_complete(rc))
		kfree_skb(skb);
}

/*
 * Refresh at half the pause time of the sender's port, so that a pause
 * never runs out upstream while it is in force.
 */
u64 sluice_signal_port_refresh_ns(const struct sluice_signal *s)
{
	const struct sluice_port *port = container_of(s, struct sluice_port,
						      signal);
	u64 rate = READ_ONCE(port->rate);

	if (!rate)
		return 0;
	return max_t(u64, sluice_quanta_ns(READ_ONCE(port->pause_time), rate) / 2,
		     SLUICE_MIN_REFRESH_NS);
}
