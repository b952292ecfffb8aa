// SPDX-License-Identifier: GPL-2.0
/*
 * The port registry: every sluice root qdisc of a network namespace is a
 * port of that namespace's switch, found by ifindex (skb->skb_iif names the
 * port a frame came in on).  Ports are published and withdrawn under RTNL
 * and looked up under RCU by the datapath.
 *
 * A port outlives its qdisc: frames that arrived on it hold a reference
 * while they sit in any egress queue of the switch (ingress.c).  Detach
 * stops its signal sender and clears port->sch; the memory goes with the
 * last reference, after a grace period.
 */
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>

#include "sluice.h"

/* Under RCU (or RTNL): the port of @ifindex in @net, without a reference. */
struct sluice_port *sluice_port_lookup_rcu(struct net *net, int ifindex)
{
	return xa_load(&sluice_net(net)->ports, ifindex);
}

void sluice_port_put(struct sluice_port *port)
{
	if (refcount_dec_and_test(&port->refcnt))
		kfree_rcu(port, rcu);
}

/* Makes the root qdisc @sch a port of its namespace's switch. */
struct sluice_port *sluice_port_alloc(struct Qdisc *sch,
				      const struct sluice_config *cfg)
{
	struct net_device *dev = qdisc_dev(sch);
	struct sluice_net *sn = sluice_net(dev_net(dev));
	struct sluice_port *port;

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return NULL;
	refcount_set(&port->refcnt, 1);
	port->ifindex = dev->ifindex;
	port->stats = sn->stats;
	port->tagger = &sn->tagger;
	RCU_INIT_POINTER(port->sch, sch);
	/* A PortFC port says PortFC's signals, the others PFC's. */
	port->portfc = cfg->portfc;
	sluice_signal_init(&port->signal, cfg->portfc ?
			   &sluice_portfc_signal_ops : &sluice_pfc_signal_ops,
			   dev);
	return port;
}

/*
 * Publishes a fully set up port (RTNL held).  A qdisc that replaces
 * another on the same device takes its place in the table; the old one's
 * detach then leaves the entry alone, and the device stays a port.
 */
int sluice_port_publish(struct sluice_port *port, struct net_device *dev)
{
	struct net *net = dev_net(dev);
	struct sluice_net *sn = sluice_net(net);
	void *old;

	ASSERT_RTNL();
	old = xa_store(&sn->ports, port->ifindex, port, GFP_KERNEL);
	if (xa_is_err(old))
		return xa_err(old);
	WRITE_ONCE(sn->ports_gen, sn->ports_gen + 1);
	if (!old) {
		WRITE_ONCE(sn->nports, sn->nports + 1);
		sluice_genl_notify_port(net, SLUICE_EVENT_PORT_ADD, dev);
	}
	return 0;
}

/*
 * The port of the sluice qdisc that is the device's root now, if any and
 * if it is not the one going away: after a failed replace, the qdisc that
 * stays must keep its entry.
 */
static struct sluice_port *sluice_port_current(struct net_device *dev,
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
 * The qdisc is going (RTNL held): withdraw the port, resume what it
 * paused upstream (or the neighbour would wait out the pause), stop its
 * sender and drop the qdisc's reference.
 *
 * No grace period is needed for memory: pause_rcv() may still hold the
 * qdisc it found through port->sch, but the core frees a qdisc after one
 * (qdisc_free_rcu(), also when create fails late), and pause_rcv() sees
 * q->dead under the root lock first.  Lockdep is another matter: the core
 * unregisters the root lock's key right after destroy, and a pause_rcv()
 * that found the qdisc before must not take the lock after that.  Debian's
 * kernel has no lockdep, and tearing down a namespace of many ports must
 * not wait a grace period for each; a kernel with lockdep waits one.
 */
void sluice_port_detach(struct sluice_port *port, struct net_device *dev)
{
	struct net *net = dev_net(dev);
	struct sluice_net *sn = sluice_net(net);
	struct sluice_port *next = sluice_port_current(dev, port);

	ASSERT_RTNL();
	if (xa_cmpxchg(&sn->ports, port->ifindex, port, next,
		       GFP_KERNEL) == port) {
		WRITE_ONCE(sn->ports_gen, sn->ports_gen + 1);
		if (!next) {
			WRITE_ONCE(sn->nports, sn->nports - 1);
			sluice_genl_notify_port(net, SLUICE_EVENT_PORT_DEL,
						dev);
		}
	}
	RCU_INIT_POINTER(port->sch, NULL);
	if (IS_ENABLED(CONFIG_LOCKDEP))
		synchronize_net();
	sluice_signal_detach(&port->signal);
	sluice_port_put(port);
}

/* NETDEV_UP or NETDEV_CHANGE (RTNL held): the device may send again. */
void sluice_port_wake(struct net *net, int ifindex)
{
	struct sluice_port *port;

	ASSERT_RTNL();
	port = xa_load(&sluice_net(net)->ports, ifindex);
	if (port)
		sluice_signal_wake(&port->signal);
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

u32 sluice_switch_ports(struct net *net)
{
	return READ_ONCE(sluice_net(net)->nports);
}

u32 sluice_switch_ports_gen(struct net *net)
{
	return READ_ONCE(sluice_net(net)->ports_gen);
}
