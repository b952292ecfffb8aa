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
	NL_SET_ERR_MSG_MOD(extack,
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
		NL_SET_ERR_MSG_MOD(extack,
				   "sluice classes cannot be added: set their number with the qdisc's classes option");
		return -EOPNOTSUPP;
	}
	if (tca[TCA_RATE]) {
		NL_SET_ERR_MSG_MOD(extack, "sluice classes have no rate estimator");
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
	NL_SET_ERR_MSG_MOD(extack,
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

/* Called with the qdisc root lock held. */
static int sluice_class_dump_stats(struct Qdisc *sch, unsigned long arg,
				   struct gnet_dump *d)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_class *cl = sluice_class(q, arg);
	unsigned int c = arg - 1;
	struct tc_sluice_xstats xstats;
	u64 paused_ns, now = ktime_get_ns();

	/* Pauses that ran out while the class was empty end here. */
	sluice_pause_expire(q, now);
	xstats = (struct tc_sluice_xstats) {
		.type = TC_SLUICE_XSTATS_CLASS,
		.cls = {
			.limit_drops = cl->limit_drops,
			.peak_backlog = cl->peak_backlog,
			.pfc_rx = cl->pfc_rx,
			.xon_rx = cl->xon_rx,
			.headroom_drops = cl->headroom_drops,
			.ecn_marks = cl->ecn_marks,
			.paused = !!(q->paused & BIT(c)),
			.wd_storms = cl->wd_storms,
			.wd_restored = cl->wd_restored,
			.wd_drops = cl->wd_drops,
			.wd_forwarded = cl->wd_forwarded,
			.storm = !!(q->wd_storm & BIT(c)),
		},
	};
	paused_ns = cl->paused_ns;
	if (q->paused & BIT(c))
		paused_ns += now - cl->paused_since;
	xstats.cls.paused_us = div_u64(paused_ns, NSEC_PER_USEC);
	if (q->port && c < SLUICE_NR_PRIOS) {
		xstats.cls.xoff_tx = READ_ONCE(q->port->xoff_tx[c]);
		xstats.cls.xon_tx = READ_ONCE(q->port->xon_tx[c]);
		xstats.cls.ingress_bytes = atomic_read(&q->port->ingress[c]);
		xstats.cls.ingress_peak = atomic_read(&q->port->ingress_peak[c]);
	}

	if (gnet_stats_copy_basic(d, NULL, &cl->bstats, true) < 0 ||
	    gnet_stats_copy_queue(d, NULL, &cl->qstats, cl->q.qlen) < 0)
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
