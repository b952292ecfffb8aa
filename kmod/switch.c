// SPDX-License-Identifier: GPL-2.0
/*
 * The switch: the state all sluice root qdiscs (ports) of a network
 * namespace share.  The ports themselves are in port.c, their ingress
 * accounts in ingress.c and the pause signals they send in signal.c.
 *
 * The switch holds Tagger's table (tagmap.c): always one, replaced whole
 * under RCU by writers that serialize on the switch's mutex, and per-CPU
 * counters of what the datapath did with it.  Its netdevice notifier
 * drops the map entries of devices that leave and wakes the signal
 * sender of a port whose device can send again.
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

static unsigned int sluice_net_id __read_mostly;

struct sluice_net *sluice_net(struct net *net)
{
	return net_generic(net, sluice_net_id);
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
static void sluice_forget_port(struct net *net, int ifindex)
{
	struct sluice_tagmap *map;

	ASSERT_RTNL();
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
 * the module is going then, and the maps go with the namespaces.
 */
static bool sluice_switch_exiting;

static int sluice_netdev_event(struct notifier_block *nb,
			       unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	switch (event) {
	case NETDEV_REGISTER:
		sluice_dcb_netdev_event(dev, event);
		break;
	case NETDEV_UNREGISTER:
		sluice_dcb_netdev_event(dev, event);
		if (!sluice_switch_exiting)
			sluice_forget_port(dev_net(dev), dev->ifindex);
		break;
	case NETDEV_UP:
	case NETDEV_CHANGE:	/* carrier */
		sluice_port_wake(dev_net(dev), dev->ifindex);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block sluice_netdev_notifier = {
	.notifier_call	= sluice_netdev_event,
};

int sluice_switch_init(void)
{
	return register_pernet_subsys(&sluice_net_ops);
}

void sluice_switch_exit(void)
{
	unregister_pernet_subsys(&sluice_net_ops);
}

/*
 * After the switch and before the genl family, whose events the
 * notifier sends: module exit unregisters it before the family goes.
 */
int sluice_switch_notifier_init(void)
{
	return register_netdevice_notifier(&sluice_netdev_notifier);
}

void sluice_switch_notifier_exit(void)
{
	sluice_switch_exiting = true;
	unregister_netdevice_notifier(&sluice_netdev_notifier);
}
