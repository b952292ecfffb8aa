// SPDX-License-Identifier: GPL-2.0
/*
 * The classes of a sluice qdisc as tc classes, so that "tc -s class show"
 * lists every class with its counters and "tc class change" sets a class's
 * limit, ECN threshold and DWRR quantum.  Their number is a qdisc option:
 * classes cannot be added, deleted or given a child qdisc, because pause
 * and ingress accounting need to own every frame in them.
 */
#include <linux/module.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>

#include "sluice.h"

static unsigned long sluice_find(struct Qdisc *sch, u32 classid)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned long minor = TC_H_MIN(classid);

	return minor && minor <= q->cfg.nclasses ? minor : 0;
}

static struct Qdisc *sluice_leaf(struct Qdisc *sch, unsigned long arg)
{
	return NULL;
}

static int sluice_graft(struct Qdisc *sch, unsigned long arg,
			struct Qdisc *new, struct Qdisc **old,
			struct netlink_ext_ack *extack)
{
	SLUICE_ERR(extack, NULL,
		   "sluice classes are internal FIFOs and take no child qdisc");
	return -EOPNOTSUPP;
}

static int sluice_class_change(struct Qdisc *sch, u32 classid, u32 parentid,
			       struct nlattr **tca, unsigned long *arg,
			       struct netlink_ext_ack *extack)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_class_opts o;
	struct sluice_class *cl;
	unsigned int c;
	int err;

	if (!*arg) {
		SLUICE_ERR(extack, NULL,
			   "sluice classes cannot be added: set their number with the qdisc's classes option");
		return -EOPNOTSUPP;
	}
	if (tca[TCA_RATE]) {
		SLUICE_ERR(extack, NULL, "sluice classes have no rate estimator");
		return -EOPNOTSUPP;
	}
	if (!tca[TCA_OPTIONS])
		return 0;

	cl = sluice_class(q, *arg);
	c = *arg - 1;
	o.limit = cl->limit;
	o.ecn = cl->ecn;
	o.quantum = cl->quantum;
	err = sluice_class_opts_parse(tca[TCA_OPTIONS], &o, extack);
	if (err)
		return err;

	sch_tree_lock(sch);
	cl->limit = o.limit;
	cl->ecn = o.ecn;
	if (cl->quantum != o.quantum) {
		/*
		 * A frame a parent peeked was chosen under the old quantum;
		 * charged to the new deficit (0) it would wrap it.  Choose
		 * again at the next dequeue.
		 */
		if (q->peeked_cl == cl)
			q->peeked = NULL;
		cl->quantum = o.quantum;
		cl->deficit = 0;
		if (o.quantum)
			q->weighted |= BIT(c);
		else
			q->weighted &= ~BIT(c);
	}
	sch_tree_unlock(sch);
	return 0;
}

static int sluice_delete(struct Qdisc *sch, unsigned long arg,
			 struct netlink_ext_ack *extack)
{
	SLUICE_ERR(extack, NULL,
		   "sluice classes cannot be deleted: set their number with the qdisc's classes option");
	return -EOPNOTSUPP;
}

static void sluice_walk(struct Qdisc *sch, struct qdisc_walker *arg)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned long minor;

	if (arg->stop)
		return;
	for (minor = 1; minor <= q->cfg.nclasses; minor++) {
		if (!tc_qdisc_stats_dump(sch, minor, arg))
			break;
	}
}

static int sluice_class_dump(struct Qdisc *sch, unsigned long arg,
			     struct sk_buff *skb, struct tcmsg *tcm)
{
	struct sluice_class *cl = sluice_class(qdisc_priv(sch), arg);
	struct nlattr *opts;

	tcm->tcm_handle |= TC_H_MIN(arg);
	opts = nla_nest_start(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TCA_SLUICE_CLASS_LIMIT, cl->limit) ||
	    nla_put_u32(skb, TCA_SLUICE_CLASS_ECN, cl->ecn) ||
	    nla_put_u32(skb, TCA_SLUICE_CLASS_QUANTUM, cl->quantum)) {
		nla_nest_cancel(skb, opts);
		return -EMSGSIZE;
	}
	return nla_nest_end(skb, opts);
}

/*
 * Only RTNL is held here (since 5.1): the class is read under the lock
 * its writers hold (sluice_stats_lock()), so that its counters agree, and
 * nothing is written.  A pause that
 * ran out while the class was empty is reported as over, as dequeue would
 * find it.
 */
static int sluice_class_dump_stats(struct Qdisc *sch, unsigned long arg,
				   struct gnet_dump *d)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_class *cl = sluice_class(q, arg);
	struct gnet_stats_basic_sync bstats;
	struct gnet_stats_queue qstats;
	struct tc_sluice_xstats xstats;
	unsigned int c = arg - 1;
	u64 paused_ns;
	__u32 qlen;
	int prio;

	memset(&xstats, 0, sizeof(xstats));
	xstats.type = TC_SLUICE_XSTATS_CLASS;
	xstats.version = TC_SLUICE_XSTATS_VERSION;
	gnet_stats_basic_sync_init(&bstats);
	spin_lock_bh(sluice_stats_lock(sch));
	xstats.cls.limit_drops = cl->limit_drops;
	xstats.cls.peak_backlog = cl->peak_backlog;
	xstats.cls.pfc_rx = cl->pfc_rx;
	xstats.cls.xon_rx = cl->xon_rx;
	xstats.cls.headroom_drops = cl->headroom_drops;
	xstats.cls.ecn_marks = cl->ecn_marks;
	xstats.cls.paused = sluice_class_paused(q, c, ktime_get_ns(),
						&paused_ns);
	xstats.cls.paused_us = div_u64(paused_ns, NSEC_PER_USEC);
	xstats.cls.wd_storms = cl->wd_storms;
	xstats.cls.wd_restored = cl->wd_restored;
	xstats.cls.wd_drops = cl->wd_drops;
	xstats.cls.wd_forwarded = cl->wd_forwarded;
	xstats.cls.storm = !!(q->wd_storm & BIT(c));
	xstats.cls.portfc_relayed = cl->portfc_relayed;
	if (q->cfg.portfc)
		sluice_portfc_class_tx(q, c, &xstats.cls.xoff_tx,
				       &xstats.cls.xon_tx);
	u64_stats_set(&bstats.bytes, u64_stats_read(&cl->bstats.bytes));
	u64_stats_set(&bstats.packets, u64_stats_read(&cl->bstats.packets));
	qstats = cl->qstats;
	qlen = cl->q.qlen;
	prio = q->class_prio[c];
	spin_unlock_bh(sluice_stats_lock(sch));

	/* The port's side of priority p, kept outside the qdisc's lock. */
	if (q->port && prio < SLUICE_NR_PRIOS && !q->cfg.portfc) {
		struct sluice_port *port = q->port;

		xstats.cls.xoff_tx = READ_ONCE(port->signal.on_tx[prio]);
		xstats.cls.xon_tx = READ_ONCE(port->signal.off_tx[prio]);
		xstats.cls.ingress_bytes = atomic_long_read(&port->ingress[prio]);
		xstats.cls.ingress_peak = atomic_long_read(&port->ingress_peak[prio]);
		xstats.cls.wd_ingress_drops =
			atomic64_read(&port->wd_ingress_drops[prio]);
	}

	if (gnet_stats_copy_basic(d, NULL, &bstats, true) < 0 ||
	    gnet_stats_copy_queue(d, NULL, &qstats, qlen) < 0)
		return -1;
	return gnet_stats_copy_app(d, &xstats, sizeof(xstats));
}

const struct Qdisc_class_ops sluice_class_ops = {
	.graft		= sluice_graft,
	.leaf		= sluice_leaf,
	.find		= sluice_find,
	.change		= sluice_class_change,
	.delete		= sluice_delete,
	.walk		= sluice_walk,
	.dump		= sluice_class_dump,
	.dump_stats	= sluice_class_dump_stats,
};
