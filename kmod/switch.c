// SPDX-License-Identifier: GPL-2.0
/*
 * The switch: all sluice root qdiscs of a network namespace.  Each is a
 * port, found by ifindex (skb->skb_iif names the port a frame came in on).
 * A port keeps the ingress accounts of the frames it received and sends
 * PFC frames upstream when an account crosses XOFF or falls below XON.
 *
 * Accounts are charged and released from other ports' enqueue and dequeue,
 * under those qdiscs' locks, so they are atomics and the port's own state
 * is under port->lock, which nests inside any qdisc lock.  PFC frames are
 * never sent from there: a soft hrtimer sends them, outside every qdisc
 * lock, through the port's own qdisc, which queues them ahead of data.
 *
 * The switch also holds Tagger's table (tagmap.c): always one, replaced
 * whole under RCU by writers that serialize on the switch's mutex, and
 * per-CPU counters of what the datapath did with it.
 */
#include <linux/etherdevice.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/u64_stats_sync.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "sluice.h"

struct sluice_switch_pcpu {
	u64_stats_t		counters[SLUICE_SW_NR_COUNTERS];
	struct u64_stats_sync	syncp;
};

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

static unsigned int sluice_net_id __read_mostly;

/* 802.1Qbb MAC control frame: opcode, class-enable vector, 8 times. */
#define PFC_OPCODE	0x0101
#define PFC_PAYLOAD	(2 + 2 + 2 * SLUICE_NR_PRIOS)

static const u8 pause_dst[ETH_ALEN] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

static struct sluice_net *sluice_net(struct net *net)
{
	return net_generic(net, sluice_net_id);
}

struct sluice_port *sluice_port_lookup_rcu(struct net *net, int ifindex)
{
	return xa_load(&sluice_net(net)->ports, ifindex);
}

void sluice_port_put(struct sluice_port *port)
{
	if (refcount_dec_and_test(&port->refcnt))
		kfree_rcu(port, rcu);
}

/* Builds one PFC frame: enable names the priorities it speaks for, xoff
 * those of them it pauses (the others it resumes).
 */
static struct sk_buff *pfc_build(struct net_device *dev, u8 enable, u8 xoff,
				 u16 time)
{
	struct sk_buff *skb;
	struct ethhdr *eth;
	__be16 *p;
	int prio;

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + ETH_ZLEN, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, pause_dst);
	ether_addr_copy(eth->h_source, dev->dev_addr);
	eth->h_proto = htons(ETH_P_PAUSE);
	p = skb_put_zero(skb, ETH_ZLEN - ETH_HLEN);
	p[0] = htons(PFC_OPCODE);
	p[1] = htons(enable);
	for (prio = 0; prio < SLUICE_NR_PRIOS; prio++)
		p[2 + prio] = htons(xoff & BIT(prio) ? time : 0);

	skb_reset_mac_header(skb);
	skb->dev = dev;
	skb->protocol = htons(ETH_P_PAUSE);
	skb->priority = TC_PRIO_CONTROL;
	return skb;
}

/* Through the port's qdisc, which queues it ahead of data. */
static bool pfc_send(struct net_device *dev, u8 enable, u8 xoff, u16 time)
{
	struct sk_buff *skb = pfc_build(dev, enable, xoff, time);

	return skb && dev_queue_xmit(skb) == NET_XMIT_SUCCESS;
}

static void pfc_count(struct sluice_port *port, u8 xoff, u8 xon)
{
	unsigned int prio;

	/* Only the timer callback counts: it never runs twice at once. */
	WRITE_ONCE(port->pfc_tx, port->pfc_tx + 1);
	for (prio = 0; prio < SLUICE_NR_PRIOS; prio++) {
		if (xoff & BIT(prio))
			WRITE_ONCE(port->xoff_tx[prio], port->xoff_tx[prio] + 1);
		else if (xon & BIT(prio))
			WRITE_ONCE(port->xon_tx[prio], port->xon_tx[prio] + 1);
	}
}

/*
 * Sends what changed (new XOFFs, pending XONs) in one frame, and keeps
 * refreshing the XOFFs at half their time so they never expire upstream
 * while the account stays above XON.  A frame that could not be queued
 * is retried soon: a lost XON would leave the neighbour paused.
 */
static enum hrtimer_restart port_timer(struct hrtimer *timer)
{
	struct sluice_port *port = container_of(timer, struct sluice_port,
						timer);
	struct net_device *dev;
	u64 refresh = 0;
	u8 xoff, xon;
	u16 time;

	spin_lock(&port->lock);
	dev = port->dev;
	xoff = port->xoff_state;
	xon = port->xon_pending;
	time = port->pause_time;
	port->xon_pending = 0;
	if (xoff && port->rate)
		refresh = max_t(u64, sluice_quanta_ns(time, port->rate) / 2,
				SLUICE_MIN_REFRESH_NS);
	spin_unlock(&port->lock);

	/* dev stays valid: detach waits for this callback to return. */
	if (!dev || !(xoff | xon))
		return HRTIMER_NORESTART;
	if (pfc_send(dev, xoff | xon, xoff, time)) {
		pfc_count(port, xoff, xon);
	} else {
		spin_lock(&port->lock);
		port->xon_pending |= xon & ~port->xoff_state;
		spin_unlock(&port->lock);
		refresh = SLUICE_MIN_REFRESH_NS;
	}
	if (!refresh)
		return HRTIMER_NORESTART;
	/*
	 * A kick while the frame was sent started the timer again: that
	 * run sends what changed and refreshes.  Forwarding a queued timer
	 * would corrupt its queue; kicks hold the lock, so it is checked
	 * under it.
	 */
	spin_lock(&port->lock);
	if (hrtimer_is_queued(timer)) {
		spin_unlock(&port->lock);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(timer, ns_to_ktime(refresh));
	spin_unlock(&port->lock);
	return HRTIMER_RESTART;
}

/* With port->lock held: send soon. */
static void port_kick(struct sluice_port *port)
{
	if (port->dev)
		hrtimer_start(&port->timer, 0, HRTIMER_MODE_REL_SOFT);
}

static void peak_update(atomic_t *peak, int value)
{
	int old = atomic_read(peak);

	while (value > old && !atomic_try_cmpxchg(peak, &old, value))
		;
}

/*
 * Charges a frame about to be queued to the ingress account of the port it
 * arrived on, for priority prio.  Returns the account including the frame
 * (0 if it has no sluice ingress port).  The caller queues the frame or
 * releases it.
 */
u32 sluice_ingress_charge(struct sk_buff *skb, struct net *net,
			  unsigned int prio)
{
	struct sluice_skb_cb *cb = sluice_skb_cb(skb);
	struct sluice_port *port;
	int account;

	cb->in = NULL;
	if (!skb->skb_iif || prio >= SLUICE_NR_PRIOS)
		return 0;
	port = sluice_port_lookup_rcu(net, skb->skb_iif);
	if (!port || !refcount_inc_not_zero(&port->refcnt))
		return 0;
	cb->in = port;
	cb->prio = prio;
	account = atomic_add_return(qdisc_pkt_len(skb), &port->ingress[prio]);
	peak_update(&port->ingress_peak[prio], account);

	/* No XOFF for a priority whose storm the watchdog is dropping. */
	if (account >= READ_ONCE(port->xoff) &&
	    READ_ONCE(port->pfc) & BIT(prio) &&
	    !test_bit(prio, &port->xoff_state) &&
	    !test_bit(prio, &port->wd_nopause)) {
		spin_lock_bh(&port->lock);
		if (!test_bit(prio, &port->wd_nopause) &&
		    !__test_and_set_bit(prio, &port->xoff_state)) {
			__clear_bit(prio, &port->xon_pending);
			port_kick(port);
		}
		spin_unlock_bh(&port->lock);
	}
	return account;
}

/* Releases what sluice_ingress_charge() charged, when the frame leaves. */
void sluice_ingress_release(struct sk_buff *skb)
{
	struct sluice_skb_cb *cb = sluice_skb_cb(skb);
	struct sluice_port *port = cb->in;
	int account;

	if (!port)
		return;
	cb->in = NULL;
	account = atomic_sub_return(qdisc_pkt_len(skb),
				    &port->ingress[cb->prio]);
	/* Resume below XON, and always once the account has drained. */
	if ((account < READ_ONCE(port->xon) || !account) &&
	    test_bit(cb->prio, &port->xoff_state)) {
		/* _bh: a qdisc being destroyed is reset outside its lock. */
		spin_lock_bh(&port->lock);
		if (__test_and_clear_bit(cb->prio, &port->xoff_state)) {
			__set_bit(cb->prio, &port->xon_pending);
			port_kick(port);
		}
		spin_unlock_bh(&port->lock);
	}
	sluice_port_put(port);
}

/* Called under the qdisc's tree lock whenever its configuration changes. */
void sluice_port_config(struct sluice_port *port,
			const struct sluice_config *cfg)
{
	spin_lock_bh(&port->lock);
	WRITE_ONCE(port->rate, cfg->rate);
	WRITE_ONCE(port->xoff, cfg->xoff);
	WRITE_ONCE(port->xon, cfg->xon);
	WRITE_ONCE(port->headroom, cfg->headroom);
	WRITE_ONCE(port->pause_time, cfg->pause_time);
	WRITE_ONCE(port->pfc, cfg->pfc);
	/* Priorities no longer lossless are resumed upstream at once. */
	if (port->xoff_state & ~cfg->pfc) {
		port->xon_pending |= port->xoff_state & ~cfg->pfc;
		port->xoff_state &= cfg->pfc;
		port_kick(port);
	}
	spin_unlock_bh(&port->lock);
}

/*
 * The watchdog's drop action (@stop) or its end: while a storm of
 * priority prio lasts the port does not pause its upstream for it, and
 * an XOFF it holds is resumed at once.  Under the port's qdisc lock; the
 * XON leaves from the timer.
 */
void sluice_port_wd_nopause(struct sluice_port *port, unsigned int prio,
			    bool stop)
{
	spin_lock_bh(&port->lock);
	if (!stop) {
		__clear_bit(prio, &port->wd_nopause);
	} else {
		__set_bit(prio, &port->wd_nopause);
		if (__test_and_clear_bit(prio, &port->xoff_state)) {
			__set_bit(prio, &port->xon_pending);
			port_kick(port);
		}
	}
	spin_unlock_bh(&port->lock);
}

/* Makes the root qdisc sch a port of its namespace's switch. */
struct sluice_port *sluice_port_alloc(struct Qdisc *sch)
{
	struct net_device *dev = qdisc_dev(sch);
	struct sluice_port *port;

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return NULL;
	refcount_set(&port->refcnt, 1);
	port->ifindex = dev->ifindex;
	port->stats = sluice_net(dev_net(dev))->stats;
	port->tagger = &sluice_net(dev_net(dev))->tagger;
	port->dev = dev;
	RCU_INIT_POINTER(port->sch, sch);
	spin_lock_init(&port->lock);
	hrtimer_init(&port->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	port->timer.function = port_timer;
	return port;
}

/*
 * Publishes a fully set up port (RTNL held).  A qdisc that replaces
 * another on the same device takes its place in the table; the old one's
 * detach then leaves the entry alone, and the device stays a port.
 */
int sluice_port_publish(struct sluice_port *port)
{
	struct net *net = dev_net(port->dev);
	struct sluice_net *sn = sluice_net(net);
	void *old;

	old = xa_store(&sn->ports, port->ifindex, port, GFP_KERNEL);
	if (xa_is_err(old))
		return xa_err(old);
	WRITE_ONCE(sn->ports_gen, sn->ports_gen + 1);
	if (!old) {
		WRITE_ONCE(sn->nports, sn->nports + 1);
		sluice_genl_notify_port(net, SLUICE_EVENT_PORT_ADD, port->dev);
	}
	return 0;
}

/*
 * The port of the sluice qdisc that is the device's root now, if any and
 * if it is not the one going away: after a failed replace, the qdisc that
 * stays must keep its entry.
 */
static struct sluice_port *current_port(struct net_device *dev,
					const struct sluice_port *going)
{
	struct Qdisc *root = rtnl_dereference(dev->qdisc);
	struct sluice_sched *q;

	if (!root || root->ops != &sluice_qdisc_ops)
		return NULL;
	q = qdisc_priv(root);
	return q->port != going ? q->port : NULL;
}

/*
 * The qdisc is going (RTNL held): resume what it paused upstream, or the
 * neighbour would wait out the pause, then stop sending and drop the
 * qdisc's reference.  The device's queues already point at noop_qdisc
 * here, so the XON bypasses the qdisc layer; a device that is down sends
 * nothing.
 */
void sluice_port_detach(struct sluice_port *port)
{
	struct net_device *dev = port->dev;
	struct net *net = dev_net(dev);
	struct sluice_net *sn = sluice_net(net);
	struct sluice_port *next = current_port(dev, port);
	struct sk_buff *skb;
	u8 paused;

	if (xa_cmpxchg(&sn->ports, port->ifindex, port, next,
		       GFP_KERNEL) == port) {
		WRITE_ONCE(sn->ports_gen, sn->ports_gen + 1);
		if (!next) {
			WRITE_ONCE(sn->nports, sn->nports - 1);
			sluice_genl_notify_port(net, SLUICE_EVENT_PORT_DEL,
						dev);
		}
	}
	spin_lock_bh(&port->lock);
	paused = port->xoff_state | port->xon_pending;
	port->xoff_state = 0;
	port->xon_pending = 0;
	port->dev = NULL;
	RCU_INIT_POINTER(port->sch, NULL);
	spin_unlock_bh(&port->lock);
	hrtimer_cancel(&port->timer);
	/*
	 * A qdisc whose create failed late is freed without a grace period:
	 * wait out pause_rcv() callers that may still hold it.
	 */
	synchronize_net();
	if (paused) {
		skb = pfc_build(dev, paused, 0, 0);
		if (skb) {
			local_bh_disable();
			__dev_direct_xmit(skb, 0);
			local_bh_enable();
		}
	}
	sluice_port_put(port);
}

void sluice_switch_lock(struct net *net)
{
	mutex_lock(&sluice_net(net)->lock);
}

void sluice_switch_unlock(struct net *net)
{
	mutex_unlock(&sluice_net(net)->lock);
}

const struct sluice_tagmap *sluice_switch_tagmap(struct net *net)
{
	struct sluice_net *sn = sluice_net(net);

	return rcu_dereference_protected(sn->tagmap,
					 lockdep_is_held(&sn->lock));
}

u32 sluice_switch_generation(struct net *net)
{
	return READ_ONCE(sluice_net(net)->generation);
}

/*
 * Frames that looked the old table up may still be using it: it is freed
 * after a grace period.  The generation skips 0 when it wraps, so a dump
 * can use it as its consistency sequence (0 there means "not tracked").
 */
void sluice_switch_tagmap_set(struct net *net, struct sluice_tagmap *map,
			      bool maps_changed)
{
	struct sluice_net *sn = sluice_net(net);
	struct sluice_tagmap *old;

	old = rcu_replace_pointer(sn->tagmap, map, lockdep_is_held(&sn->lock));
	rcu_assign_pointer(sn->tagger, sluice_tagmap_source(map) !=
				       SLUICE_TAG_SOURCE_NONE ? map : NULL);
	if (maps_changed)
		WRITE_ONCE(sn->generation, sn->generation + 1 ?: 1);
	sluice_tagmap_free(old);
}

void sluice_tagger_count(const struct sluice_port *port,
			 unsigned long counters)
{
	struct sluice_switch_pcpu *st = this_cpu_ptr(port->stats);

	/* Open-coded: for_each_set_bit() calls out for every bit. */
	u64_stats_update_begin(&st->syncp);
	for (; counters; counters &= counters - 1)
		u64_stats_inc(&st->counters[__ffs(counters)]);
	u64_stats_update_end(&st->syncp);
}

void sluice_switch_stats(struct net *net, struct sluice_switch_stats *st)
{
	struct sluice_net *sn = sluice_net(net);
	u64 sum[SLUICE_SW_NR_COUNTERS] = {};
	u64 v[SLUICE_SW_NR_COUNTERS];
	unsigned int start, i;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct sluice_switch_pcpu *pc = per_cpu_ptr(sn->stats, cpu);

		do {
			start = u64_stats_fetch_begin(&pc->syncp);
			for (i = 0; i < SLUICE_SW_NR_COUNTERS; i++)
				v[i] = u64_stats_read(&pc->counters[i]);
		} while (u64_stats_fetch_retry(&pc->syncp, start));
		for (i = 0; i < SLUICE_SW_NR_COUNTERS; i++)
			sum[i] += v[i];
	}
	st->tagged = sum[SLUICE_SW_TAGGED];
	st->untagged = sum[SLUICE_SW_UNTAGGED];
	st->in_miss = sum[SLUICE_SW_IN_MISS];
	st->eg_miss = sum[SLUICE_SW_EG_MISS];
	st->tag_miss = sum[SLUICE_SW_TAG_MISS];
	st->retagged = sum[SLUICE_SW_RETAGGED];
	st->retag_failed = sum[SLUICE_SW_RETAG_FAILED];
	st->class_invalid = sum[SLUICE_SW_CLASS_INVALID];
}

u32 sluice_switch_ports(struct net *net)
{
	return READ_ONCE(sluice_net(net)->nports);
}

u32 sluice_switch_ports_gen(struct net *net)
{
	return READ_ONCE(sluice_net(net)->ports_gen);
}

/*
 * The first port at *ifindex or above, with a reference, and *ifindex set
 * to it; NULL past the last.  A port whose last reference is going is
 * skipped: it has left the table already.
 */
struct sluice_port *sluice_port_next(struct net *net, unsigned long *ifindex)
{
	struct sluice_net *sn = sluice_net(net);
	struct sluice_port *port;

	rcu_read_lock();
	for (;;) {
		port = xa_find(&sn->ports, ifindex, ULONG_MAX, XA_PRESENT);
		if (!port || refcount_inc_not_zero(&port->refcnt))
			break;
		if (*ifindex == ULONG_MAX) {
			port = NULL;
			break;
		}
		(*ifindex)++;
	}
	rcu_read_unlock();
	return port;
}

static int __net_init sluice_net_init(struct net *net)
{
	struct sluice_net *sn = sluice_net(net);
	struct sluice_tagmap *map;
	int cpu;

	sn->stats = alloc_percpu(struct sluice_switch_pcpu);
	if (!sn->stats)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(sn->stats, cpu)->syncp);
	map = sluice_tagmap_build(net, SLUICE_TAG_SOURCE_NONE, NULL, 0, NULL);
	if (IS_ERR(map)) {
		free_percpu(sn->stats);
		return PTR_ERR(map);
	}
	RCU_INIT_POINTER(sn->tagmap, map);
	sn->generation = 1;
	mutex_init(&sn->lock);
	xa_init(&sn->ports);
	return 0;
}

static void __net_exit sluice_net_exit(struct net *net)
{
	struct sluice_net *sn = sluice_net(net);

	/* Every qdisc, hence every port, is gone with the namespace's devices. */
	WARN_ON_ONCE(!xa_empty(&sn->ports));
	xa_destroy(&sn->ports);
	sluice_tagmap_free(rcu_dereference_protected(sn->tagmap, true));
	free_percpu(sn->stats);
	mutex_destroy(&sn->lock);
}

static struct pernet_operations sluice_net_ops = {
	.init	= sluice_net_init,
	.exit	= sluice_net_exit,
	.id	= &sluice_net_id,
	.size	= sizeof(struct sluice_net),
};

/*
 * Map entries name ports by ifindex.  A device that leaves the namespace
 * (deleted, or moved to another one) takes its entries with it: a later
 * device given the same ifindex must not inherit them.  Runs under RTNL;
 * the switch's mutex nests inside it (no writer takes RTNL).
 */
static void forget_port(struct net *net, int ifindex)
{
	struct sluice_tagmap *map;

	sluice_switch_lock(net);
	map = sluice_tagmap_without_port(sluice_switch_tagmap(net), ifindex);
	if (IS_ERR(map)) {
		net_warn_ratelimited("sch_sluice: no memory to drop the map entries of ifindex %d\n",
				     ifindex);
	} else if (map) {
		sluice_switch_tagmap_set(net, map, true);
		sluice_genl_notify_maps(net);
	}
	sluice_switch_unlock(net);
}

/*
 * Unregistering the notifier replays NETDEV_UNREGISTER for every device;
 * the module is going then, with the genl family already gone.
 */
static bool switch_exiting;

static int sluice_netdev_event(struct notifier_block *nb,
			       unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	if (event == NETDEV_UNREGISTER && !switch_exiting)
		forget_port(dev_net(dev), dev->ifindex);
	return NOTIFY_DONE;
}

static struct notifier_block sluice_netdev_notifier = {
	.notifier_call	= sluice_netdev_event,
};

int sluice_switch_init(void)
{
	int err;

	err = register_pernet_subsys(&sluice_net_ops);
	if (err)
		return err;
	err = register_netdevice_notifier(&sluice_netdev_notifier);
	if (err)
		unregister_pernet_subsys(&sluice_net_ops);
	return err;
}

void sluice_switch_exit(void)
{
	switch_exiting = true;
	unregister_netdevice_notifier(&sluice_netdev_notifier);
	unregister_pernet_subsys(&sluice_net_ops);
}
