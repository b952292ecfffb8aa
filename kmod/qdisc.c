// SPDX-License-Identifier: GPL-2.0
/*
 * The sluice qdisc: per-class byte-limited FIFOs, classification by one
 * configurable tag, strict-priority dequeue (highest class first, as
 * IEEE 802.1Q), and configuration changes that keep queued frames.
 *
 * Enqueue and dequeue run under the qdisc root lock; configuration is
 * written under RTNL and sch_tree_lock, so both see it whole.
 */
#include <linux/bitops.h>
#include <linux/if_arp.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>

#include "sluice.h"

/*
 * As prio and ets read skb->priority: HANDLE:MINOR of this qdisc names a
 * class directly, any other value indexes the map with its low 4 bits.
 */
static unsigned int priority_class(const struct Qdisc *sch,
				   const struct sluice_config *cfg, u32 prio)
{
	u32 minor = TC_H_MIN(prio);

	if (TC_H_MAJ(prio) != sch->handle)
		return cfg->map[TC_SLUICE_TAG_PRIORITY][prio & TC_PRIO_MAX];
	return minor && minor <= cfg->nclasses ? minor - 1 : cfg->defclass;
}

static unsigned int classify(struct Qdisc *sch, struct sk_buff *skb)
{
	struct sluice_sched *q = qdisc_priv(sch);
	const struct sluice_config *cfg = &q->cfg;
	int value;

	if (cfg->tag == TC_SLUICE_TAG_PRIORITY)
		return priority_class(sch, cfg, skb->priority);
	value = sluice_tag_read(skb, cfg->tag);
	if (value < 0) {
		q->untagged++;
		return cfg->defclass;
	}
	return cfg->map[cfg->tag][value];
}

static int enqueue_one(struct sk_buff *skb, struct Qdisc *sch,
		       struct sluice_class *cl, struct sk_buff **to_free)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned int len = qdisc_pkt_len(skb);

	if (unlikely((u64)cl->qstats.backlog + len > cl->limit)) {
		cl->limit_drops++;
		cl->qstats.drops++;
		q->limit_drops++;
		return qdisc_drop(skb, sch, to_free);
	}

	__qdisc_enqueue_tail(skb, &cl->q);
	cl->qstats.backlog += len;
	cl->peak_backlog = max(cl->peak_backlog, cl->qstats.backlog);
	q->active |= BIT(cl - q->classes);
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	return NET_XMIT_SUCCESS;
}

/*
 * A GSO frame bigger than its class's limit could never be queued: queue
 * the frames it stands for instead, as tbf does, and tell the ancestors
 * that one frame of prev_len bytes became nb frames of len bytes.
 */
static int enqueue_segments(struct sk_buff *skb, struct Qdisc *sch,
			    struct sluice_class *cl, struct sk_buff **to_free)
{
	unsigned int len = 0, prev_len = qdisc_pkt_len(skb);
	netdev_features_t features = netif_skb_features(skb);
	struct sk_buff *segs, *nskb;
	int nb = 0;

	segs = skb_gso_segment(skb, features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs))
		return qdisc_drop(skb, sch, to_free);

	skb_list_walk_safe(segs, segs, nskb) {
		skb_mark_not_on_list(segs);
		qdisc_skb_cb(segs)->pkt_len = segs->len;
		if (enqueue_one(segs, sch, cl, to_free) == NET_XMIT_SUCCESS) {
			len += qdisc_pkt_len(segs);
			nb++;
		}
	}
	consume_skb(skb);
	if (!nb)
		return NET_XMIT_DROP;
	qdisc_tree_reduce_backlog(sch, 1 - nb, prev_len - len);
	return NET_XMIT_SUCCESS;
}

static int sluice_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			  struct sk_buff **to_free)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_class *cl = &q->classes[classify(sch, skb)];

	if (skb_is_gso(skb) && qdisc_pkt_len(skb) > cl->limit)
		return enqueue_segments(skb, sch, cl, to_free);
	return enqueue_one(skb, sch, cl, to_free);
}

/* The class strict priority serves next: the highest non-empty one. */
static struct sluice_class *next_class(struct sluice_sched *q)
{
	if (!q->active)
		return NULL;
	return &q->classes[__fls(q->active)];
}

static struct sk_buff *sluice_peek(struct Qdisc *sch)
{
	struct sluice_class *cl = next_class(qdisc_priv(sch));

	return cl ? cl->q.head : NULL;
}

static struct sk_buff *sluice_dequeue(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_class *cl = next_class(q);
	struct sk_buff *skb;

	if (!cl)
		return NULL;
	skb = __qdisc_dequeue_head(&cl->q);
	if (!cl->q.qlen)
		q->active &= ~BIT(cl - q->classes);

	cl->qstats.backlog -= qdisc_pkt_len(skb);
	bstats_update(&cl->bstats, skb);
	qdisc_qstats_backlog_dec(sch, skb);
	qdisc_bstats_update(sch, skb);
	sch->q.qlen--;
	return skb;
}

static void class_purge(struct sluice_class *cl)
{
	__qdisc_reset_queue(&cl->q);
	cl->qstats.backlog = 0;
}

static void sluice_reset(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned int i;

	for (i = 0; i < TC_SLUICE_MAX_CLASSES; i++)
		class_purge(&q->classes[i]);
	q->active = 0;
}

/*
 * Drop what the classes beyond the new count hold, count it as drops and
 * tell the ancestors.  Called under the tree lock.
 */
static void classes_remove(struct Qdisc *sch, unsigned int from,
			   unsigned int to)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned int i, qlen = 0, backlog = 0;

	for (i = from; i < to; i++) {
		struct sluice_class *cl = &q->classes[i];

		qlen += cl->q.qlen;
		backlog += cl->qstats.backlog;
		class_purge(cl);
		q->active &= ~BIT(i);
	}
	sch->q.qlen -= qlen;
	sch->qstats.backlog -= backlog;
	__qdisc_qstats_drop(sch, qlen);
	qdisc_tree_reduce_backlog(sch, qlen, backlog);
}

/* A class starts empty, with zeroed counters and the qdisc's limit. */
static void class_init(struct sluice_class *cl, u32 limit)
{
	memset(cl, 0, sizeof(*cl));
	gnet_stats_basic_sync_init(&cl->bstats);
	cl->limit = limit;
}

static void commit(struct Qdisc *sch, const struct sluice_config *cfg,
		   bool limit_given)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned int old = q->cfg.nclasses, i;

	sch_tree_lock(sch);
	if (cfg->nclasses < old)
		classes_remove(sch, cfg->nclasses, old);
	for (i = old; i < cfg->nclasses; i++)
		class_init(&q->classes[i], cfg->limit);
	if (limit_given) {
		for (i = 0; i < cfg->nclasses; i++)
			q->classes[i].limit = cfg->limit;
	}
	q->cfg = *cfg;
	sch_tree_unlock(sch);
}

static int sluice_change(struct Qdisc *sch, struct nlattr *opt,
			 struct netlink_ext_ack *extack)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_config cfg = q->cfg;
	int err;

	if (!opt)
		return 0;
	err = sluice_config_parse(&cfg, opt, extack);
	if (err)
		return err;
	/*
	 * A qdisc-level limit sets every class's limit, also when it equals
	 * the old one: a class may have been given its own since.
	 */
	commit(sch, &cfg, !!nla_find_nested(opt, TCA_SLUICE_LIMIT));
	return 0;
}

static int sluice_init(struct Qdisc *sch, struct nlattr *opt,
		       struct netlink_ext_ack *extack)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_config cfg;
	unsigned int i;
	int err;

	if (qdisc_dev(sch)->type != ARPHRD_ETHER) {
		NL_SET_ERR_MSG_MOD(extack, "sluice needs an Ethernet device");
		return -EOPNOTSUPP;
	}

	sluice_config_default(&cfg, sch);
	if (opt) {
		err = sluice_config_parse(&cfg, opt, extack);
		if (err)
			return err;
	}
	/* Not yet visible to the datapath: no lock needed. */
	for (i = 0; i < cfg.nclasses; i++)
		class_init(&q->classes[i], cfg.limit);
	q->cfg = cfg;
	return 0;
}

static int sluice_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct nlattr *opts;

	opts = nla_nest_start(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (sluice_config_dump(&q->cfg, skb)) {
		nla_nest_cancel(skb, opts);
		return -EMSGSIZE;
	}
	return nla_nest_end(skb, opts);
}

/* Called with the qdisc root lock held, so the counters are consistent. */
static int sluice_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct tc_sluice_xstats xstats = {
		.type = TC_SLUICE_XSTATS_QDISC,
		.qdisc = {
			.untagged = q->untagged,
			.limit_drops = q->limit_drops,
		},
	};

	return gnet_stats_copy_app(d, &xstats, sizeof(xstats));
}

struct Qdisc_ops sluice_qdisc_ops __read_mostly = {
	.id		= "sluice",
	.cl_ops		= &sluice_class_ops,
	.priv_size	= sizeof(struct sluice_sched),
	.enqueue	= sluice_enqueue,
	.dequeue	= sluice_dequeue,
	.peek		= sluice_peek,
	.init		= sluice_init,
	.reset		= sluice_reset,
	.change		= sluice_change,
	.dump		= sluice_dump,
	.dump_stats	= sluice_dump_stats,
	.owner		= THIS_MODULE,
};
