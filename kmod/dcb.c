// SPDX-License-Identifier: GPL-2.0
/*
 * DCB on software ports: dcbnl ops (IEEE 802.1Qaz's PFC and APP table,
 * what "dcb pfc" and "dcb app" use) for a device that has none of its
 * own, while a sluice root qdisc is on it.
 *
 *   dcb pfc show    pfc-cap 8, prio-pfc the lossless priorities (the
 *                   qdisc's pfc), delay the headroom's cable allowance,
 *                   and with -s the PFC frames sent (requests) and
 *                   received (indications) per priority: the xoff_tx +
 *                   xon_tx and pfc_rx + xon_rx of "tc -s class show"
 *   dcb pfc set     prio-pfc and delay, as "tc qdisc change" of pfc and
 *                   headroom: the same attributes through the same
 *                   validation and commit (sluice_change_by_dcb())
 *   dcb app         DSCP entries (dscp-prio) set the DSCP map's entry to
 *                   the class of the priority; deleting the last entry of
 *                   a DSCP gives it back the class it had before
 *
 * Locking: dcbnl's doit runs under RTNL (rtnl_register() without
 * RTNL_FLAG_DOIT_UNLOCKED, net/dcb/dcbnl.c), and so do qdisc init and
 * destroy (qdisc_put() callers hold it, qdisc_put_unlocked() takes it) and
 * the netdevice notifier.  RTNL alone guards dev->dcbnl_ops (no reader in
 * 6.1 goes without it: dcbnl, fcoe_dcb_create(), and drivers for their own
 * devices), the table of ports here, and each port's APP state; a
 * configuration change takes the qdisc's tree lock as tc's does.
 *
 * Which qdisc acts: the device's root, if it is a sluice qdisc that
 * joined (q->dcb).  Ownership of the ops is the device's, not a qdisc's:
 * a sluice root replacing another keeps them, and a qdisc the core
 * destroys after it left the device (a tc filter request held it) gives
 * them up only if no sluice root holds them then.
 *
 * dcbnl keeps the APP table itself, one list for all namespaces, keyed by
 * ifindex alone (struct dcb_app_type): two devices of the same ifindex in
 * two namespaces would share entries.  So a device gets these ops only if
 * no other device of its ifindex, in any namespace (one being dismantled
 * too), has DCB ops, and loses them if one such registers later.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/netdevice.h>
#include <linux/ratelimit.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>
#include <net/dcbnl.h>
#include <net/net_namespace.h>
#include <net/netlink.h>

#include "sluice.h"

/*
 * The headroom's terms other than the cable, from eq. (1) of Tagger
 * (userspace/lib/headroom.c, "xoff auto"):
 *
 *   b_hr = 2 (s_MTU + s_PFC + r t_wire) + r t_pro
 *
 * s_PFC is 64 bytes, r t_pro 60 quanta of 512 bits (3840 bytes), and s_MTU
 * the device's MTU plus its Ethernet header, as "xoff auto" takes it by
 * default.  IEEE 802.1Qaz's PFC delay is "the allowance made for a
 * round-trip propagation delay of the link in bits" (bit times): the
 * 2 r t_wire of eq. (1).  So
 *
 *   headroom = 2 (MTU + 14 + 64) + 3840 + ceil(delay / 8)    bytes
 *
 * and dcb shows delay = 8 (headroom - the rest), 0 if the headroom is not
 * above the rest (headroom 0, no bound, shows 0), 65535 at most.  A delay
 * whose headroom would be above tc's bound for one is refused.
 */
#define SLUICE_DCB_PFC_FRAME_BYTES	64
#define SLUICE_DCB_RESPONSE_BYTES	(60 * 512 / 8)

/* The APP state of a device with these ops, in sluice_dcb_ports. */
struct sluice_dcb_port {
	struct net_device	*dev;
	int			ifindex;	/* its key */
	/* The qdisc whose DSCP map the entries set: NULL while none. */
	struct Qdisc		*owner;
	/* BIT(dscp): dcbnl's list holds entries for it (all of them ours). */
	DECLARE_BITMAP(held, TC_SLUICE_DSCP_VALUES);
	u8			prios[TC_SLUICE_DSCP_VALUES];	/* BIT(prio) */
	/* The class a held DSCP had before its first entry (!was_default). */
	u8			saved[TC_SLUICE_DSCP_VALUES];
	/*
	 * The DSCP map was a default map when dcb took its first entry, and
	 * tc has set none of it, nor the classes, since: what a DSCP goes
	 * back to is the default's, and the last entry gone, the map is a
	 * default again.
	 */
	bool			was_default;
};

/* ifindex -> struct sluice_dcb_port; unique across namespaces. */
static DEFINE_XARRAY(sluice_dcb_ports);
static const struct dcbnl_rtnl_ops sluice_dcbnl_ops;
/* Refusals and "no dcb" logged: their own budget, not net_ratelimit()'s. */
static DEFINE_RATELIMIT_STATE(sluice_dcb_ratelimit, 5 * HZ, 10);

static struct sluice_dcb_port *sluice_dcb_port(const struct net_device *dev)
{
	struct sluice_dcb_port *p;

	ASSERT_RTNL();
	p = xa_load(&sluice_dcb_ports, dev->ifindex);
	return p && p->dev == dev ? p : NULL;
}

static struct sluice_sched *sluice_dcb_sched(struct Qdisc *sch)
{
	return sch && sch->ops == &sluice_qdisc_ops ? qdisc_priv(sch) : NULL;
}

/* Removes the port's entries from dcbnl's list; they set no map now. */
static void sluice_dcb_purge(struct sluice_dcb_port *p)
{
	struct dcb_app app = { .selector = IEEE_8021QAZ_APP_SEL_DSCP };
	unsigned int d, prio;

	for_each_set_bit(d, p->held, TC_SLUICE_DSCP_VALUES) {
		app.protocol = d;
		for (prio = 0; prio < IEEE_8021QAZ_MAX_TCS; prio++) {
			if (!(p->prios[d] & BIT(prio)))
				continue;
			app.priority = prio;
			/* -ENOENT: dcbnl flushed them (NETDEV_UNREGISTER). */
			dcb_ieee_delapp(p->dev, &app);
		}
		p->prios[d] = 0;
	}
	bitmap_zero(p->held, TC_SLUICE_DSCP_VALUES);
	p->owner = NULL;
}

/*
 * The device gives the ops up.  Its root qdisc, if a sluice one, keeps
 * its configuration: a DSCP map entry dcb app set stays, as tc's.
 */
static void sluice_dcb_release(struct sluice_dcb_port *p)
{
	struct net_device *dev = p->dev;
	struct sluice_sched *root;

	ASSERT_RTNL();
	/* dcb_ieee_delapp() calls the device's getdcbx: ops first. */
	sluice_dcb_purge(p);
	root = sluice_dcb_sched(rtnl_dereference(dev->qdisc));
	if (root)
		root->dcb = false;
	if (dev->dcbnl_ops == &sluice_dcbnl_ops)
		dev->dcbnl_ops = NULL;
	xa_erase(&sluice_dcb_ports, p->ifindex);
	kfree(p);
}

/*
 * Whether another device of @dev's ifindex, in any namespace, has ops
 * (@dev has none: the caller checked).
 */
static bool sluice_dcb_aliased(struct net_device *dev)
{
	struct dcb_ieee_app_dscp_map dscp;
	struct net_device *other;
	bool aliased = false;
	struct net *net;
	unsigned int d;

	/*
	 * A port of this ifindex first: the walk below cannot see them all.
	 * cleanup_net() takes a dying namespace off net_namespace_list before
	 * it unregisters the namespace's devices (under RTNL, later), so for
	 * a while a device there still has its root qdisc, and its port
	 * here, while no for_each_net() finds it.
	 */
	if (xa_load(&sluice_dcb_ports, dev->ifindex))
		return true;
	rcu_read_lock();
	for_each_net_rcu(net) {
		other = dev_get_by_index_rcu(net, dev->ifindex);
		if (other && other != dev && READ_ONCE(other->dcbnl_ops)) {
			aliased = true;
			break;
		}
	}
	rcu_read_unlock();
	if (aliased)
		return true;
	/* Entries only such a device can have made; check what can be seen. */
	dcb_ieee_getapp_dscp_prio_mask_map(dev, &dscp);
	for (d = 0; d < TC_SLUICE_DSCP_VALUES; d++) {
		if (dscp.map[d])
			return true;
	}
	return !!dcb_ieee_getapp_default_prio_mask(dev);
}

/*
 * Once a root sluice qdisc is a port (the end of its init, RTNL held):
 * the device's dcbnl ops become these, unless it has its own, or these
 * already (a sluice root it replaces holds them: this one joins).
 */
int sluice_dcb_attach(struct Qdisc *sch, struct netlink_ext_ack *extack)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct net_device *dev = qdisc_dev(sch);
	struct sluice_dcb_port *p;
	int err;

	ASSERT_RTNL();
	/* PortFC ports have no priorities: PortFC is their flow control. */
	if (!q->port || q->cfg.portfc)
		return 0;
	if (dev->dcbnl_ops == &sluice_dcbnl_ops) {
		q->dcb = !WARN_ON_ONCE(!sluice_dcb_port(dev));
		return 0;
	}
	/* The device's own ops are never taken over. */
	if (dev->dcbnl_ops)
		return 0;
	if (sluice_dcb_aliased(dev)) {
		/* A line per qdisc created: any namespace's user could flood. */
		if (__ratelimit(&sluice_dcb_ratelimit))
			netdev_info(dev,
				    "sch_sluice: no dcb: a device of ifindex %d in another namespace has DCB ops, and dcbnl's APP table is keyed by ifindex alone\n",
				    dev->ifindex);
		return 0;
	}
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p) {
		SLUICE_ERR(extack, NULL, "no memory for the port's DCB state");
		return -ENOMEM;
	}
	p->dev = dev;
	p->ifindex = dev->ifindex;
	err = xa_insert(&sluice_dcb_ports, p->ifindex, p, GFP_KERNEL);
	if (err) {
		kfree(p);
		/*
		 * -EBUSY: a port of this ifindex, which sluice_dcb_aliased()
		 * looked for under the same RTNL; aliased all the same.
		 */
		if (err == -EBUSY)
			return 0;
		SLUICE_ERR(extack, NULL, "no memory for the port's DCB state");
		return err;
	}
	dev->dcbnl_ops = &sluice_dcbnl_ops;
	q->dcb = true;
	return 0;
}

/*
 * The qdisc is being destroyed (RTNL held; after a failed init too): its
 * APP entries go, and the ops go unless a sluice root that joined holds
 * them (it replaced this one).  While the device is unregistered or moved
 * to another namespace, the core destroys its root qdisc before
 * NETDEV_UNREGISTER (dev_shutdown()), so dcbnl_flush_dev() finds no ops.
 */
void sluice_dcb_detach(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch), *root;
	struct net_device *dev = qdisc_dev(sch);
	struct sluice_dcb_port *p;
	struct Qdisc *rsch;

	ASSERT_RTNL();
	if (!q->dcb)
		return;
	q->dcb = false;
	p = sluice_dcb_port(dev);
	if (!p)
		return;
	if (p->owner == sch)
		sluice_dcb_purge(p);
	rsch = rtnl_dereference(dev->qdisc);
	root = sluice_dcb_sched(rsch);
	if (rsch != sch && root && root->dcb)
		return;
	sluice_dcb_release(p);
}

/* NETDEV_REGISTER and NETDEV_UNREGISTER, from switch.c's notifier. */
void sluice_dcb_netdev_event(struct net_device *dev, unsigned long event)
{
	struct sluice_dcb_port *p;

	ASSERT_RTNL();
	switch (event) {
	case NETDEV_REGISTER:
		/* Also after a move between namespaces, with its new ifindex. */
		if (!dev->dcbnl_ops || dev->dcbnl_ops == &sluice_dcbnl_ops)
			return;
		p = xa_load(&sluice_dcb_ports, dev->ifindex);
		if (!p || p->dev == dev)
			return;
		netdev_warn(p->dev,
			    "sch_sluice: dcb withdrawn: %s, in another namespace, has ifindex %d and DCB ops of its own; the DSCP map keeps what dcb app set\n",
			    dev->name, dev->ifindex);
		sluice_dcb_release(p);
		break;
	case NETDEV_UNREGISTER:
		/* Only if a qdisc that left the device outlived it. */
		p = sluice_dcb_port(dev);
		if (p)
			sluice_dcb_release(p);
		break;
	}
}

/* Module exit: qdiscs hold the module, so no device can have the ops. */
void sluice_dcb_exit(void)
{
	WARN_ON(!xa_empty(&sluice_dcb_ports));
	xa_destroy(&sluice_dcb_ports);
}

/*
 * The qdisc the ops act on: the device's root, if a sluice qdisc that
 * joined.  Another root (the qdisc that held the ops has left the device
 * and is waiting for its destroy) makes every op -EOPNOTSUPP.
 */
static struct Qdisc *sluice_dcb_root(struct net_device *dev,
				     struct sluice_dcb_port **pp)
{
	struct Qdisc *sch = rtnl_dereference(dev->qdisc);
	struct sluice_sched *q = sluice_dcb_sched(sch);

	ASSERT_RTNL();
	*pp = sluice_dcb_port(dev);
	if (!*pp || !q || !q->dcb)
		return NULL;
	return sch;
}

/* DSCP @d's class in the default map of @nclasses, as options.c's. */
static unsigned int sluice_dcb_default_class(unsigned int d,
					     unsigned int nclasses)
{
	return d * nclasses / TC_SLUICE_DSCP_VALUES;
}

/* The class a DSCP goes back to when its last entry goes. */
static unsigned int sluice_dcb_underlying(const struct sluice_dcb_port *p,
					  const struct sluice_config *cfg,
					  unsigned int d)
{
	if (p->was_default)
		return sluice_dcb_default_class(d, cfg->nclasses);
	return p->saved[d];
}

/*
 * A request in the attributes of "tc qdisc change", applied by
 * sluice_change_by_dcb(): the same validation, the same commit.
 */
struct sluice_dcb_req {
	struct sk_buff	*skb;
	struct nlattr	*opts;
};

static int sluice_dcb_req_start(struct sluice_dcb_req *r)
{
	r->skb = alloc_skb(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!r->skb)
		return -ENOMEM;
	r->opts = nla_nest_start(r->skb, TCA_OPTIONS);
	if (!r->opts) {
		kfree_skb(r->skb);
		return -EMSGSIZE;
	}
	return 0;
}

static int sluice_dcb_req_dscp(struct sluice_dcb_req *r, unsigned int d,
			       unsigned int cls)
{
	struct tc_sluice_map_entry e = { .value = d, .tclass = cls };
	struct nlattr *map;

	map = nla_nest_start(r->skb, TCA_SLUICE_DSCP_MAP);
	if (!map || nla_put(r->skb, TCA_SLUICE_MAP_ENTRY, sizeof(e), &e))
		return -EMSGSIZE;
	nla_nest_end(r->skb, map);
	return 0;
}

/*
 * A refusal, and why.  dcbnl ops have no extack: dcbnl answers a set with
 * the op's errno in a u8 (DCB_ATTR_IEEE), which is all the dcb tool can
 * show.  So the reason, the message tc would have given, goes to the log.
 */
static int sluice_dcb_refuse(struct net_device *dev, const char *what,
			     const char *why, int err)
{
	/* SLUICE_ERR()'s messages start with the prefix this line has. */
	if (why)
		why += str_has_prefix(why, KBUILD_MODNAME ": ");
	if (__ratelimit(&sluice_dcb_ratelimit))
		netdev_info(dev, "sch_sluice: %s refused: %s (%d)\n", what,
			    why ?: "no reason given", err);
	return err;
}

/* Applies and frees the request. */
static int sluice_dcb_req_apply(struct Qdisc *sch, struct sluice_dcb_req *r,
				const char *what)
{
	struct netlink_ext_ack extack = {};
	int err;

	nla_nest_end(r->skb, r->opts);
	err = sluice_change_by_dcb(sch, r->opts, &extack);
	kfree_skb(r->skb);
	if (err)
		sluice_dcb_refuse(qdisc_dev(sch), what, extack._msg, err);
	return err;
}

/*
 * The headroom's terms other than the cable, in u64: a device may have no
 * maximum MTU (dummy), and 2 (MTU + 78) wraps a u32 above 2^31 - 78.
 */
static u64 sluice_dcb_base(const struct net_device *dev)
{
	return 2 * ((u64)READ_ONCE(dev->mtu) + ETH_HLEN +
		    SLUICE_DCB_PFC_FRAME_BYTES) + SLUICE_DCB_RESPONSE_BYTES;
}

static u16 sluice_dcb_delay(struct Qdisc *sch)
{
	const struct sluice_sched *q = qdisc_priv(sch);
	u64 base = sluice_dcb_base(qdisc_dev(sch));

	if (q->cfg.headroom <= base)
		return 0;
	return min_t(u64, (u64)(q->cfg.headroom - base) * 8, U16_MAX);
}

static u8 sluice_dcb_getdcbx(struct net_device *dev)
{
	return DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
}

/*
 * The counters as "tc -s class show" reads them: a class's under the
 * qdisc's stats lock, the port's sender's with READ_ONCE().
 */
static int sluice_dcb_getpfc(struct net_device *dev, struct ieee_pfc *pfc)
{
	struct sluice_dcb_port *p;
	struct Qdisc *sch = sluice_dcb_root(dev, &p);
	struct sluice_sched *q;
	unsigned int prio, c;

	if (!sch)
		return -EOPNOTSUPP;
	q = qdisc_priv(sch);
	pfc->pfc_cap = IEEE_8021QAZ_MAX_TCS;
	pfc->pfc_en = q->cfg.pfc;
	pfc->mbc = 0;
	pfc->delay = sluice_dcb_delay(sch);
	spin_lock_bh(sluice_stats_lock(sch));
	for (prio = 0; prio < IEEE_8021QAZ_MAX_TCS; prio++) {
		c = q->prio_class[prio];
		if (c < q->cfg.nclasses)
			pfc->indications[prio] = q->classes[c].pfc_rx +
						 q->classes[c].xon_rx;
	}
	spin_unlock_bh(sluice_stats_lock(sch));
	for (prio = 0; prio < IEEE_8021QAZ_MAX_TCS; prio++)
		pfc->requests[prio] = READ_ONCE(q->port->signal.on_tx[prio]) +
				      READ_ONCE(q->port->signal.off_tx[prio]);
	return 0;
}

/*
 * "dcb pfc set" sends back what it read with its changes: pfc_cap and the
 * counters are read-only and ignored, a delay that is what getpfc shows
 * leaves the headroom as it is (so setting prio-pfc alone never sets a
 * headroom).
 */
static int sluice_dcb_setpfc(struct net_device *dev, struct ieee_pfc *pfc)
{
	struct sluice_dcb_port *p;
	struct Qdisc *sch = sluice_dcb_root(dev, &p);
	struct sluice_dcb_req r;
	struct sluice_sched *q;
	u64 headroom;
	bool delay;
	int err;

	if (!sch)
		return -EOPNOTSUPP;
	q = qdisc_priv(sch);
	if (pfc->mbc)
		return sluice_dcb_refuse(dev, "dcb pfc set",
					 "macsec-bypass is not supported",
					 -EOPNOTSUPP);
	delay = pfc->delay != sluice_dcb_delay(sch);
	if (pfc->pfc_en == q->cfg.pfc && !delay)
		return 0;
	headroom = sluice_dcb_base(dev) + DIV_ROUND_UP(pfc->delay, 8);
	/* tc's bound for a headroom (options.c), before it is a u32. */
	if (delay && headroom > TC_SLUICE_MAX_LIMIT)
		return sluice_dcb_refuse(dev, "dcb pfc set",
					 "the headroom of that delay at this MTU is above 128 MiB",
					 -EINVAL);
	err = sluice_dcb_req_start(&r);
	if (err)
		return err;
	if (nla_put_u8(r.skb, TCA_SLUICE_PFC, pfc->pfc_en) ||
	    (delay && nla_put_u32(r.skb, TCA_SLUICE_HEADROOM, headroom))) {
		kfree_skb(r.skb);
		return -EMSGSIZE;
	}
	return sluice_dcb_req_apply(sch, &r, "dcb pfc set");
}

/*
 * The APP ops act on the root's map.  The port's entries may still be
 * those of a qdisc that left the device and is waiting for its destroy
 * (p->owner another qdisc).  The root has none of them (a delete of one
 * is -ENOENT), and they go from dcbnl's list when the root's first entry
 * is accepted, or when that qdisc is destroyed: a refused op leaves them.
 */
static bool sluice_dcb_stale(const struct sluice_dcb_port *p,
			     const struct Qdisc *sch)
{
	return p->owner && p->owner != sch;
}

static u8 sluice_dcb_prios(const struct sluice_dcb_port *p,
			   const struct Qdisc *sch, unsigned int d)
{
	return sluice_dcb_stale(p, sch) ? 0 : p->prios[d];
}

static bool sluice_dcb_app_valid(const struct dcb_app *app)
{
	return app->selector == IEEE_8021QAZ_APP_SEL_DSCP &&
	       app->protocol < TC_SLUICE_DSCP_VALUES &&
	       app->priority < IEEE_8021QAZ_MAX_TCS;
}

/*
 * A DSCP with entries goes to the class of its highest priority, as mlxsw
 * reads a DSCP with several ("dcb app replace" adds the new entry before
 * it deletes the old one).
 */
static int sluice_dcb_setapp(struct net_device *dev, struct dcb_app *app)
{
	struct sluice_dcb_port *p;
	struct Qdisc *sch = sluice_dcb_root(dev, &p);
	unsigned int d = app->protocol, cls, old;
	bool was_default, stale, taken;
	struct sluice_dcb_req r;
	struct sluice_sched *q;
	u8 prios;
	int err;

	if (!sch)
		return -EOPNOTSUPP;
	q = qdisc_priv(sch);
	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP)
		return sluice_dcb_refuse(dev, "dcb app add",
					 "only DSCP entries (dscp-prio) are supported",
					 -EOPNOTSUPP);
	if (!sluice_dcb_app_valid(app))
		return -EINVAL;
	prios = sluice_dcb_prios(p, sch, d);
	if (prios & BIT(app->priority))
		return -EEXIST;
	prios |= BIT(app->priority);
	cls = q->prio_class[fls(prios) - 1];
	/* Everything that can fail before dcbnl's list changes. */
	if (cls >= q->cfg.nclasses)
		return sluice_dcb_refuse(dev, "dcb app add",
					 "the priority's class is beyond the number of classes",
					 -EINVAL);
	err = sluice_dcb_req_start(&r);
	if (err)
		return err;
	err = sluice_dcb_req_dscp(&r, d, cls);
	if (err) {
		kfree_skb(r.skb);
		return err;
	}
	old = q->cfg.map[TC_SLUICE_TAG_DSCP][d];
	was_default = !(q->cfg.custom_maps & BIT(TC_SLUICE_TAG_DSCP));
	/* The old qdisc's same entry is on dcbnl's list: this op takes it. */
	stale = sluice_dcb_stale(p, sch);
	taken = stale && (p->prios[d] & BIT(app->priority));
	err = taken ? 0 : dcb_ieee_setapp(dev, app);
	if (err) {
		kfree_skb(r.skb);
		return err;
	}
	err = sluice_dcb_req_apply(sch, &r, "dcb app add");
	if (err) {
		if (!taken)
			dcb_ieee_delapp(dev, app);
		return err;
	}
	if (stale) {
		p->prios[d] &= ~BIT(app->priority);
		sluice_dcb_purge(p);
	}
	if (bitmap_empty(p->held, TC_SLUICE_DSCP_VALUES))
		p->was_default = was_default;
	if (!__test_and_set_bit(d, p->held))
		p->saved[d] = old;
	p->prios[d] = prios;
	p->owner = sch;
	return 0;
}

static int sluice_dcb_delapp(struct net_device *dev, struct dcb_app *app)
{
	struct sluice_dcb_port *p;
	struct Qdisc *sch = sluice_dcb_root(dev, &p);
	unsigned int d = app->protocol;
	struct sluice_dcb_req r;
	struct sluice_sched *q;
	u8 prios;
	int err;

	if (!sch)
		return -EOPNOTSUPP;
	q = qdisc_priv(sch);
	/* dcbnl's answer for an entry that is not there (the root's). */
	if (!sluice_dcb_app_valid(app) ||
	    !(sluice_dcb_prios(p, sch, d) & BIT(app->priority)))
		return -ENOENT;
	prios = p->prios[d] & ~BIT(app->priority);
	err = sluice_dcb_req_start(&r);
	if (err)
		return err;
	if (prios)
		err = sluice_dcb_req_dscp(&r, d, q->prio_class[fls(prios) - 1]);
	else if (p->was_default &&
		 bitmap_weight(p->held, TC_SLUICE_DSCP_VALUES) == 1)
		err = nla_put_u8(r.skb, TCA_SLUICE_DEFAULT_MAPS,
				 BIT(TC_SLUICE_TAG_DSCP));
	else
		err = sluice_dcb_req_dscp(&r, d,
					  sluice_dcb_underlying(p, &q->cfg, d));
	if (err) {
		kfree_skb(r.skb);
		return -EMSGSIZE;
	}
	err = sluice_dcb_req_apply(sch, &r, "dcb app del");
	if (err)
		return err;
	dcb_ieee_delapp(dev, app);
	p->prios[d] = prios;
	if (!prios)
		__clear_bit(d, p->held);
	if (bitmap_empty(p->held, TC_SLUICE_DSCP_VALUES))
		p->owner = NULL;
	return 0;
}

/*
 * CEE's APP set would write dcbnl's list without the IEEE ops
 * (dcbnl_setapp() falls back to dcb_setapp()): refused, so that every
 * entry of this device's ifindex is one the IEEE ops made.
 */
static int sluice_dcb_cee_setapp(struct net_device *dev, u8 idtype, u16 id,
				 u8 up)
{
	return -EOPNOTSUPP;
}

static const struct dcbnl_rtnl_ops sluice_dcbnl_ops = {
	.ieee_getpfc	= sluice_dcb_getpfc,
	.ieee_setpfc	= sluice_dcb_setpfc,
	.ieee_setapp	= sluice_dcb_setapp,
	.ieee_delapp	= sluice_dcb_delapp,
	.getdcbx	= sluice_dcb_getdcbx,
	.setapp		= sluice_dcb_cee_setapp,
};

/*
 * A change by tc (RTNL held, before its commit; @cfg is what it would
 * commit, q->cfg what is): the DSCP map's entries that dcb app sets are
 * dcb's, and what they go back to must stay a class.
 */
int sluice_dcb_check(struct Qdisc *sch, const struct sluice_config *cfg,
		     struct netlink_ext_ack *extack)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_dcb_port *p;
	unsigned int d;

	if (!q->dcb)
		return 0;
	p = sluice_dcb_port(qdisc_dev(sch));
	if (!p || p->owner != sch)
		return 0;
	if (!(cfg->custom_maps & BIT(TC_SLUICE_TAG_DSCP))) {
		SLUICE_ERR(extack, NULL,
			   "dcb app entries set the dscp-map: it cannot return to the default");
		return -EBUSY;
	}
	for_each_set_bit(d, p->held, TC_SLUICE_DSCP_VALUES) {
		if (cfg->map[TC_SLUICE_TAG_DSCP][d] !=
		    q->cfg.map[TC_SLUICE_TAG_DSCP][d]) {
			SLUICE_ERR(extack, NULL,
				   "a dscp-map entry that dcb app sets changes only with dcb app");
			return -EBUSY;
		}
		/* As of q->cfg: a change of classes freezes it there. */
		if (sluice_dcb_underlying(p, &q->cfg, d) >= cfg->nclasses) {
			SLUICE_ERR(extack, NULL,
				   "a dscp-map entry that dcb app sets would go back to a class beyond the number of classes");
			return -EINVAL;
		}
	}
	return 0;
}

/* Whether a change is one dcbnl's listeners would see. */
bool sluice_dcb_differs(const struct sluice_config *old,
			const struct sluice_config *cfg)
{
	return old->pfc != cfg->pfc || old->headroom != cfg->headroom ||
	       memcmp(old->map[TC_SLUICE_TAG_DSCP], cfg->map[TC_SLUICE_TAG_DSCP],
		      TC_SLUICE_DSCP_VALUES);
}

/*
 * After a committed change (RTNL held; @old_nclasses the classes before
 * it).  tc set DSCP map entries or changed the classes: the map is the
 * user's now, as it is, and a DSCP dcb app holds goes back to its class
 * in the default map the map was until now (of @old_nclasses): frozen, so
 * that a delete never mixes the defaults of two class counts.  @news:
 * dcbnl's listeners are told.
 */
void sluice_dcb_changed(struct Qdisc *sch, bool tc_dscp_map,
			unsigned int old_nclasses, bool news)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct net_device *dev = qdisc_dev(sch);
	struct sluice_dcb_port *p;
	unsigned int d;

	if (!q->dcb)
		return;
	p = sluice_dcb_port(dev);
	if (!p)
		return;
	if (p->owner == sch && p->was_default &&
	    (tc_dscp_map || q->cfg.nclasses != old_nclasses)) {
		for_each_set_bit(d, p->held, TC_SLUICE_DSCP_VALUES)
			p->saved[d] = sluice_dcb_default_class(d, old_nclasses);
		p->was_default = false;
	}
	if (news && rtnl_dereference(dev->qdisc) == sch)
		dcbnl_ieee_notify(dev, RTM_SETDCB, DCB_CMD_IEEE_SET, 0, 0);
}
