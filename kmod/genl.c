// SPDX-License-Identifier: GPL-2.0
/*
 * The "sluice" generic netlink family: the switch of a network namespace
 * seen from userspace (uapi: "The switch and its generic netlink family").
 *
 * Every request acts on the switch of its socket's namespace.  Writers
 * (SWITCH_SET, MAP_LOAD, MAP_FLUSH) need CAP_NET_ADMIN in the user
 * namespace that owns it, checked by the core (GENL_UNS_ADMIN_PERM), and
 * serialize on the switch's mutex: the family runs its operations in
 * parallel.  A writer builds the new table in full before it swaps it in,
 * so a rejected request changes nothing, and notifies the "events" group
 * before it lets the next writer in, so events arrive in the order of the
 * changes.
 *
 * Policies give types and lengths only; every other rejection is checked
 * here or in tagmap.c and carries an extack message with the module's
 * name in front.
 *
 * Dumps hold nothing between calls: each call looks the table (MAP_GET) or
 * the port (STATS_GET) up again and stamps its messages with the current
 * generation, so a dump that spans a change is flagged NLM_F_DUMP_INTR.
 */
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "sluice.h"

/* The family's multicast groups, by offset. */
enum {
	SLUICE_MCGRP_EVENTS_ID,
};

/* The most entries a port can have: in, eg by in and by out port, tag. */
#define SLUICE_PORT_MAX_ENTRIES	(4 * SLUICE_TAG_VALUES)

static struct genl_family sluice_genl_family;

/*
 * A dump's sequence number for a generation: never 0, since the core
 * only compares once it has seen a nonzero one.
 */
static unsigned int sluice_dump_seq(u32 generation)
{
	return generation << 1 | 1;
}

/*
 * Policies: every command sees every attribute number, so that an
 * attribute it does not take is "Unsupported" rather than "Unknown".
 */
static const struct nla_policy sluice_none_policy[SLUICE_A_MAX + 1] = {
};

static const struct nla_policy sluice_switch_set_policy[SLUICE_A_MAX + 1] = {
	[SLUICE_A_TAG_SOURCE]	= { .type = NLA_U8 },
};

static const struct nla_policy sluice_map_load_policy[SLUICE_A_MAX + 1] = {
	[SLUICE_A_GENERATION]	= { .type = NLA_U32 },
	[SLUICE_A_MAP_ENTRY]	=
		NLA_POLICY_EXACT_LEN(sizeof(struct sluice_map_entry)),
};

static const struct nla_policy sluice_stats_get_policy[SLUICE_A_MAX + 1] = {
	[SLUICE_A_IFINDEX]	= { .type = NLA_U32 },
};

/* GENERATION and MAP_ENTRIES, as MAP_LOAD's reply and the MAPS event. */
static size_t sluice_maps_size(void)
{
	return nla_total_size(sizeof(u32)) +
	       nla_total_size(sizeof(struct sluice_map_counts));
}

static int sluice_maps_put(struct sk_buff *skb, u32 generation,
			   const struct sluice_map_counts *counts)
{
	if (nla_put_u32(skb, SLUICE_A_GENERATION, generation) ||
	    nla_put(skb, SLUICE_A_MAP_ENTRIES, sizeof(*counts), counts))
		return -EMSGSIZE;
	return 0;
}

/*
 * Events.  The caller holds the switch's mutex (or RTNL, for ports), so
 * the events of one switch leave in the order of its changes.  An event
 * that cannot be allocated is lost, as rtnetlink's are.
 */
static struct sk_buff *sluice_event_new(struct net *net, u8 event, size_t payload,
					void **hdr)
{
	struct sk_buff *msg;

	if (!genl_has_listeners(&sluice_genl_family, net,
				SLUICE_MCGRP_EVENTS_ID))
		return NULL;
	msg = genlmsg_new(nla_total_size(sizeof(u8)) + payload, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &sluice_genl_family, 0, SLUICE_CMD_EVENT);
	if (!*hdr || nla_put_u8(msg, SLUICE_A_EVENT, event)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static void sluice_event_send(struct net *net, struct sk_buff *msg, void *hdr)
{
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&sluice_genl_family, net, msg, 0,
				SLUICE_MCGRP_EVENTS_ID, GFP_KERNEL);
}

static void sluice_notify_switch(struct net *net, u8 source)
{
	struct sk_buff *msg;
	void *hdr;

	msg = sluice_event_new(net, SLUICE_EVENT_SWITCH, nla_total_size(sizeof(u8)),
			       &hdr);
	if (!msg)
		return;
	if (nla_put_u8(msg, SLUICE_A_TAG_SOURCE, source)) {
		nlmsg_free(msg);
		return;
	}
	sluice_event_send(net, msg, hdr);
}

static void sluice_notify_maps(struct net *net, u32 generation,
			       const struct sluice_map_counts *counts)
{
	struct sk_buff *msg;
	void *hdr;

	msg = sluice_event_new(net, SLUICE_EVENT_MAPS, sluice_maps_size(), &hdr);
	if (!msg)
		return;
	if (sluice_maps_put(msg, generation, counts)) {
		nlmsg_free(msg);
		return;
	}
	sluice_event_send(net, msg, hdr);
}

void sluice_genl_notify_maps(struct net *net)
{
	struct sluice_map_counts counts;

	lockdep_assert_held(&sluice_net(net)->lock);
	sluice_tagmap_counts(sluice_switch_tagmap(net), &counts);
	sluice_notify_maps(net, sluice_switch_generation(net), &counts);
}

void sluice_genl_notify_port(struct net *net, u8 event,
			     const struct net_device *dev)
{
	struct sk_buff *msg;
	void *hdr;

	msg = sluice_event_new(net, event, nla_total_size(sizeof(u32)) +
			nla_total_size(IFNAMSIZ), &hdr);
	if (!msg)
		return;
	if (nla_put_u32(msg, SLUICE_A_IFINDEX, dev->ifindex) ||
	    nla_put_string(msg, SLUICE_A_IFNAME, dev->name)) {
		nlmsg_free(msg);
		return;
	}
	sluice_event_send(net, msg, hdr);
}

/*
 * STORM and RESTORED, from the watchdog's poll or a configuration change,
 * serialized by the qdisc's wd.lock.
 */
void sluice_genl_notify_wd(struct net *net, const struct net_device *dev,
			   const struct sluice_wd_event *ev)
{
	struct sk_buff *msg;
	void *hdr;

	msg = sluice_event_new(net, ev->event, nla_total_size(sizeof(u32)) +
			nla_total_size(IFNAMSIZ) +
			2 * nla_total_size(sizeof(u8)) +
			nla_total_size_64bit(sizeof(ev->stats)), &hdr);
	if (!msg)
		return;
	if (nla_put_u32(msg, SLUICE_A_IFINDEX, dev->ifindex) ||
	    nla_put_string(msg, SLUICE_A_IFNAME, dev->name) ||
	    nla_put_u8(msg, SLUICE_A_PRIO, ev->prio) ||
	    nla_put_u8(msg, SLUICE_A_WD_ACTION, ev->action) ||
	    nla_put_64bit(msg, SLUICE_A_PRIO_STATS, sizeof(ev->stats),
			  &ev->stats, SLUICE_A_PAD)) {
		nlmsg_free(msg);
		return;
	}
	sluice_event_send(net, msg, hdr);
}

/* SWITCH_GET: settings, generation, map counts, ports and counters. */
static int sluice_switch_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	const struct sluice_tagmap *map;
	struct sluice_switch_stats st;
	struct sluice_map_counts counts;
	struct sk_buff *msg;
	u32 generation;
	void *hdr;
	u8 source;

	msg = genlmsg_new(nla_total_size(sizeof(u8)) + sluice_maps_size() +
			  nla_total_size(sizeof(u32)) +
			  nla_total_size_64bit(sizeof(st)), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	sluice_switch_lock(net);
	map = sluice_switch_tagmap(net);
	source = sluice_tagmap_source(map);
	sluice_tagmap_counts(map, &counts);
	generation = sluice_switch_generation(net);
	sluice_switch_unlock(net);
	sluice_switch_stats(net, &st);

	hdr = genlmsg_put_reply(msg, info, &sluice_genl_family, 0,
				SLUICE_CMD_SWITCH_GET);
	if (!hdr ||
	    nla_put_u8(msg, SLUICE_A_TAG_SOURCE, source) ||
	    sluice_maps_put(msg, generation, &counts) ||
	    nla_put_u32(msg, SLUICE_A_PORTS, sluice_switch_ports(net)) ||
	    nla_put_64bit(msg, SLUICE_A_SWITCH_STATS, sizeof(st), &st,
			  SLUICE_A_PAD)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* SWITCH_SET: the tag source, kept with the maps in one table. */
static int sluice_switch_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[SLUICE_A_TAG_SOURCE];
	struct net *net = genl_info_net(info);
	const struct sluice_tagmap *old;
	struct sluice_tagmap *map;
	u8 source;

	if (!attr) {
		SLUICE_ERR(info->extack, NULL, "tag source missing");
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, SLUICE_A_TAG_SOURCE);
		return -EINVAL;
	}
	source = nla_get_u8(attr);
	if (source > SLUICE_TAG_SOURCE_MAX) {
		SLUICE_ERR(info->extack, attr, "unknown tag source");
		return -EINVAL;
	}

	sluice_switch_lock(net);
	old = sluice_switch_tagmap(net);
	if (sluice_tagmap_source(old) != source) {
		map = sluice_tagmap_with_source(old, source, info->extack);
		if (IS_ERR(map)) {
			sluice_switch_unlock(net);
			/* tagmap.c names tag entries the source cannot use */
			if (!info->extack->_msg)
				SLUICE_ERR(info->extack, attr,
					   "the maps do not fit this tag source");
			else
				NL_SET_BAD_ATTR(info->extack, attr);
			return PTR_ERR(map);
		}
		sluice_switch_tagmap_set(net, map, false);
	}
	sluice_notify_switch(net, source);
	sluice_switch_unlock(net);
	return 0;
}

/*
 * tagmap.c may name a bad entry by pointing extack->bad_attr at it in the
 * array it was given; the reply must name the message's attribute (an
 * offset outside the request is a bug the core warns about).
 */
static void sluice_bad_entry_attr(struct genl_info *info,
				  const struct sluice_map_entry *e, unsigned int n)
{
	const void *bad = info->extack->bad_attr;
	unsigned int i, idx;
	struct nlattr *attr;
	int rem;

	if (!bad)
		return;
	info->extack->bad_attr = NULL;
	if (!n || bad < (const void *)e || bad >= (const void *)(e + n))
		return;
	idx = ((const struct sluice_map_entry *)bad - e);
	i = 0;
	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(attr) != SLUICE_A_MAP_ENTRY)
			continue;
		if (i++ == idx) {
			info->extack->bad_attr = attr;
			return;
		}
	}
}

/* The request's MAP_ENTRY attributes, in order, in one array. */
static int sluice_entries_collect(struct genl_info *info,
				  struct sluice_map_entry **ep, unsigned int *np)
{
	struct sluice_map_entry *e;
	unsigned int n = 0, i = 0;
	struct nlattr *attr;
	int rem;

	*ep = NULL;
	*np = 0;
	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem)
		if (nla_type(attr) == SLUICE_A_MAP_ENTRY)
			n++;
	if (!n)
		return 0;
	/* More cannot all be distinct keys of at most SLUICE_MAP_MAX_PORTS. */
	if (n > SLUICE_MAP_MAX_PORTS * SLUICE_PORT_MAX_ENTRIES) {
		SLUICE_ERR(info->extack, NULL,
			   "more map entries than the maps can hold");
		return -E2BIG;
	}
	/* The message holds them already: this costs less than it does. */
	e = kvmalloc_array(n, sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e)
		return -ENOMEM;
	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(attr) == SLUICE_A_MAP_ENTRY && i < n)
			memcpy(&e[i++], nla_data(attr), sizeof(*e));
	}
	*ep = e;
	*np = i;
	return 0;
}

/*
 * Builds a table of the current tag source with entries e (none: empty
 * maps) and swaps it in, if the generation is still the one the request
 * names.  Called with the switch's mutex held; *generation and *counts
 * describe the new table.
 */
static int sluice_maps_replace(struct genl_info *info,
			       const struct sluice_map_entry *e, unsigned int n,
			u32 *generation, struct sluice_map_counts *counts)
{
	struct nlattr *gen_attr = info->attrs[SLUICE_A_GENERATION];
	struct net *net = genl_info_net(info);
	struct sluice_tagmap *map;

	lockdep_assert_held(&sluice_net(net)->lock);
	if (gen_attr &&
	    nla_get_u32(gen_attr) != sluice_switch_generation(net)) {
		SLUICE_ERR(info->extack, gen_attr,
			   "the maps changed since that generation");
		return -ESTALE;
	}
	map = sluice_tagmap_build(net,
				  sluice_tagmap_source(sluice_switch_tagmap(net)),
				  e, n, info->extack);
	if (IS_ERR(map)) {
		sluice_bad_entry_attr(info, e, n);
		if (!info->extack->_msg)
			SLUICE_ERR(info->extack, NULL, "map entries rejected");
		return PTR_ERR(map);
	}
	sluice_tagmap_counts(map, counts);
	sluice_switch_tagmap_set(net, map, true);
	*generation = sluice_switch_generation(net);
	sluice_notify_maps(net, *generation, counts);
	return 0;
}

/* MAP_LOAD: all three maps at once, from every top-level MAP_ENTRY. */
static int sluice_map_load_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct sluice_map_counts counts;
	struct sluice_map_entry *e;
	struct sk_buff *msg;
	u32 generation;
	unsigned int n;
	void *hdr;
	int err;

	err = sluice_entries_collect(info, &e, &n);
	if (err)
		return err;
	msg = genlmsg_new(sluice_maps_size(), GFP_KERNEL);
	if (!msg) {
		kvfree(e);
		return -ENOMEM;
	}

	sluice_switch_lock(net);
	err = sluice_maps_replace(info, e, n, &generation, &counts);
	sluice_switch_unlock(net);
	kvfree(e);
	if (err)
		goto err_free;

	hdr = genlmsg_put_reply(msg, info, &sluice_genl_family, 0,
				SLUICE_CMD_MAP_LOAD);
	if (!hdr || sluice_maps_put(msg, generation, &counts)) {
		err = -EMSGSIZE;
		goto err_free;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	return err;
}

/* MAP_FLUSH: empty maps, the tag source kept. */
static int sluice_map_flush_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct sluice_map_counts counts;
	u32 generation;
	int err;

	sluice_switch_lock(net);
	err = sluice_maps_replace(info, NULL, 0, &generation, &counts);
	sluice_switch_unlock(net);
	return err;
}

/*
 * MAP_GET: one message per port in the table's order, split over several
 * only when a port has more entries than one message can carry.  Where the
 * dump is, between calls: the port's position and how many of its entries
 * went out.
 */
struct map_dump {
	struct sluice_map_entry	*buf;	/* one port's entries */
	unsigned int		pos;
	unsigned int		sent;
};

static struct map_dump *sluice_map_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct map_dump) > sizeof(cb->ctx));
	return (struct map_dump *)cb->ctx;
}

static int sluice_map_get_start(struct netlink_callback *cb)
{
	struct map_dump *ctx = sluice_map_dump_ctx(cb);

	ctx->buf = kvmalloc_array(SLUICE_PORT_MAX_ENTRIES, sizeof(*ctx->buf),
				  GFP_KERNEL);
	return ctx->buf ? 0 : -ENOMEM;
}

static int sluice_map_get_done(struct netlink_callback *cb)
{
	kvfree(sluice_map_dump_ctx(cb)->buf);
	return 0;
}

/*
 * Puts entries [from, n) of a port in one message, as many as fit, or
 * only all of them if @whole.  Returns how many went out.
 */
static unsigned int sluice_map_port_put(struct sk_buff *skb,
					struct netlink_callback *cb, u32 generation,
				 const struct sluice_map_entry *e,
				 unsigned int from, unsigned int n, bool whole)
{
	unsigned int i;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &sluice_genl_family, NLM_F_MULTI, SLUICE_CMD_MAP_GET);
	if (!hdr)
		return 0;
	genl_dump_check_consistent(cb, hdr);
	if (nla_put_u32(skb, SLUICE_A_GENERATION, generation))
		goto cancel;
	for (i = from; i < n; i++) {
		if (nla_put(skb, SLUICE_A_MAP_ENTRY, sizeof(e[i]), &e[i]))
			break;
	}
	if (i == from || (whole && i < n))
		goto cancel;
	genlmsg_end(skb, hdr);
	return i - from;

cancel:
	genlmsg_cancel(skb, hdr);
	return 0;
}

static int sluice_map_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct map_dump *ctx = sluice_map_dump_ctx(cb);
	struct net *net = sock_net(cb->skb->sk);
	const struct sluice_tagmap *map;
	int n, ifindex, err = 0;
	u32 generation;

	sluice_switch_lock(net);
	map = sluice_switch_tagmap(net);
	generation = sluice_switch_generation(net);
	cb->seq = sluice_dump_seq(generation);
	for (;;) {
		n = sluice_tagmap_port_entries(map, ctx->pos, &ifindex,
					       ctx->buf,
					       SLUICE_PORT_MAX_ENTRIES);
		if (n < 0)
			break;
		/* A reload since the last call may have shrunk the port. */
		if (ctx->sent < (unsigned int)n) {
			/*
			 * A port that does not fit goes whole in the next
			 * message, unless it would not fit there either.
			 */
			ctx->sent += sluice_map_port_put(skb, cb, generation, ctx->buf,
						  ctx->sent, n, skb->len);
			if (ctx->sent < (unsigned int)n) {
				if (!skb->len)
					err = -EMSGSIZE;
				break;
			}
		}
		ctx->pos++;
		ctx->sent = 0;
	}
	sluice_switch_unlock(net);
	return err ?: skb->len;
}

/*
 * STATS_GET: one message per port by ifindex, optionally only the port
 * the request's IFINDEX names.  Between calls, the dump keeps only the
 * next ifindex to look at.
 */
struct stats_dump {
	unsigned long	ifindex;
	bool		one;		/* the request names a port */
	bool		done;
};

static struct stats_dump *sluice_stats_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct stats_dump) > sizeof(cb->ctx));
	return (struct stats_dump *)cb->ctx;
}

/*
 * Room for the message of the namespace's port with the most classes:
 * its name and ifindex, its stats and a prio stats attribute per class
 * (at least 8), each padded for 64 bits.
 */
static unsigned int sluice_stats_port_size(struct net *net)
{
	struct sluice_port *port;
	unsigned int classes = SLUICE_NR_PRIOS;
	unsigned long ifindex;
	struct Qdisc *sch;

	rcu_read_lock();
	xa_for_each(&sluice_net(net)->ports, ifindex, port) {
		sch = rcu_dereference(port->sch);
		if (sch)
			classes = max_t(unsigned int, classes,
					READ_ONCE(((struct sluice_sched *)
						   qdisc_priv(sch))->cfg.nclasses));
	}
	rcu_read_unlock();
	return NLMSG_SPACE(GENL_HDRLEN + nla_total_size(IFNAMSIZ) +
			   nla_total_size(sizeof(u32)) +
			   nla_total_size_64bit(sizeof(struct sluice_port_stats)) +
			   classes * nla_total_size_64bit(sizeof(struct sluice_prio_stats)));
}

static int sluice_stats_get_start(struct netlink_callback *cb)
{
	const struct genl_dumpit_info *info = genl_dumpit_info(cb);
	struct nlattr *attr = info->attrs[SLUICE_A_IFINDEX];
	struct stats_dump *ctx = sluice_stats_dump_ctx(cb);
	unsigned int size;

	/*
	 * A port is never split across messages, and one of more than
	 * about 20 classes is more than NLMSG_GOODSIZE: only then ask for
	 * room for the largest (readers with page-sized buffers keep
	 * working with every other switch).
	 */
	size = sluice_stats_port_size(sock_net(cb->skb->sk));
	if (size > NLMSG_GOODSIZE)
		cb->min_dump_alloc = size;
	/* 6.1 passes no extack to start: the first dump call checks it. */
	if (attr) {
		ctx->one = true;
		ctx->ifindex = nla_get_u32(attr);
	} else {
		ctx->ifindex = 1;
	}
	return 0;
}

/* Class (or priority) i of the port, under the qdisc's root lock. */
void sluice_prio_stats_fill(struct sluice_prio_stats *ps,
			    const struct sluice_sched *q,
			    const struct sluice_port *port, unsigned int i,
			    u64 now)
{
	/* A port's qdisc is a root: its lock is the root lock. */
	lockdep_assert_held(qdisc_lock(q->wd.sch));
	memset(ps, 0, sizeof(*ps));
	ps->index = i;
	if (i < q->cfg.nclasses) {
		const struct sluice_class *cl = &q->classes[i];
		u64 paused_ns;

		ps->flags |= SLUICE_PRIO_F_CLASS;
		if (sluice_class_paused(q, i, now, &paused_ns))
			ps->flags |= SLUICE_PRIO_F_PAUSED;
		ps->packets = u64_stats_read(&cl->bstats.packets);
		ps->bytes = u64_stats_read(&cl->bstats.bytes);
		ps->drops = cl->qstats.drops;
		ps->backlog = cl->qstats.backlog;
		ps->qlen = cl->q.qlen;
		ps->pfc_rx = cl->pfc_rx;
		ps->xon_rx = cl->xon_rx;
		ps->paused_us = div_u64(paused_ns, NSEC_PER_USEC);
		ps->ecn_marks = cl->ecn_marks;
		ps->wd_storms = cl->wd_storms;
		ps->wd_restored = cl->wd_restored;
		ps->wd_drops = cl->wd_drops;
		ps->wd_forwarded = cl->wd_forwarded;
		if (q->wd_storm & BIT(i))
			ps->flags |= SLUICE_PRIO_F_STORM;
		ps->portfc_relayed = cl->portfc_relayed;
	}
	/* A PortFC port has no priorities: its sender's keys are not. */
	if (q->cfg.portfc) {
		if (i < q->cfg.nclasses)
			sluice_portfc_class_tx(q, i, &ps->xoff_tx, &ps->xon_tx);
		if (q->cfg.wd_prios && i + 1 < q->cfg.nclasses)
			ps->flags |= SLUICE_PRIO_F_WATCHED;
	} else if (i < SLUICE_NR_PRIOS) {
		if (q->cfg.pfc & BIT(i))
			ps->flags |= SLUICE_PRIO_F_LOSSLESS;
		if (q->cfg.wd_prios & BIT(i))
			ps->flags |= SLUICE_PRIO_F_WATCHED;
		if (test_bit(i, &port->signal.on))
			ps->flags |= SLUICE_PRIO_F_XOFF;
		ps->ingress_bytes = atomic_long_read(&port->ingress[i]);
		ps->ingress_peak = atomic_long_read(&port->ingress_peak[i]);
		ps->xoff_tx = READ_ONCE(port->signal.on_tx[i]);
		ps->xon_tx = READ_ONCE(port->signal.off_tx[i]);
		ps->wd_ingress_drops = atomic64_read(&port->wd_ingress_drops[i]);
	}
}

static void sluice_port_stats_fill(struct sluice_port_stats *ps,
				   const struct Qdisc *sch,
			    const struct sluice_sched *q,
			    const struct sluice_port *port)
{
	memset(ps, 0, sizeof(*ps));
	ps->rate = q->cfg.rate;
	ps->xoff = q->cfg.xoff;
	ps->xon = q->cfg.xon;
	ps->headroom = q->cfg.headroom;
	ps->pause_time = q->cfg.pause_time;
	ps->pfc = q->cfg.pfc;
	ps->classes = q->cfg.nclasses;
	ps->pfc_tx = READ_ONCE(port->signal.tx);
	ps->pfc_tx_failed = READ_ONCE(port->signal.tx_failed);
	ps->pause_ignored = q->pause_ignored;
	ps->pfc_rx = q->pfc_rx;
	ps->pause_rx = q->pause_rx;
	ps->pause_malformed = q->pause_malformed;
	ps->pause_untrusted = q->pause_untrusted;
	ps->limit_drops = q->limit_drops;
	ps->headroom_drops = q->headroom_drops;
	ps->untagged = q->untagged;
	ps->backlog = sch->qstats.backlog;
	ps->qlen = sch->q.qlen;
	ps->wd_prios = q->cfg.wd_prios;
	ps->wd_action = q->cfg.wd_action;
	ps->wd_detect_ms = q->cfg.wd_detect_ms;
	ps->wd_restore_ms = q->cfg.wd_restore_ms;
	ps->wd_poll_ms = q->cfg.wd_poll_ms;
	ps->portfc = q->cfg.portfc;
	ps->portfc_n = q->cfg.portfc_n;
	ps->portfc_k = q->cfg.portfc_k;
	ps->portfc_index = q->cfg.portfc_index;
	ps->portfc_xoff_a = q->cfg.portfc_xoff[SLUICE_PORTFC_QA];
	ps->portfc_xon_a = q->cfg.portfc_xon[SLUICE_PORTFC_QA];
	ps->portfc_xoff_b = q->cfg.portfc_xoff[SLUICE_PORTFC_QB];
	ps->portfc_xon_b = q->cfg.portfc_xon[SLUICE_PORTFC_QB];
	ps->portfc_keys = q->cfg.portfc ? READ_ONCE(port->signal.on) : 0;
	ps->portfc_rx = q->portfc_rx;
	ps->portfc_malformed = q->portfc_malformed;
	ps->portfc_ignored = q->portfc_ignored;
	ps->portfc_relayed = q->portfc_relayed;
	ps->portfc_unknown = q->portfc_unknown;
	ps->portfc_hq = q->portfc_hq;
	ps->int_port = q->cfg.int_port;
	ps->int_node = q->cfg.int_node;
	ps->int_link = q->cfg.int_link;
	ps->int_stamped = q->int_stamped;
	ps->int_full = q->int_full;
	ps->int_malformed = q->int_malformed;
	ps->int_unwritable = q->int_unwritable;
}

/* Under the root lock: the port's attributes, read in one go. */
static int sluice_port_stats_put(struct sk_buff *skb, struct Qdisc *sch,
				 const struct sluice_port *port)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_port_stats pst;
	struct sluice_prio_stats ps;
	u64 now = ktime_get_ns();
	unsigned int i, n;

	lockdep_assert_held(qdisc_lock(sch));
	sluice_port_stats_fill(&pst, sch, q, port);
	if (nla_put_64bit(skb, SLUICE_A_PORT_STATS, sizeof(pst), &pst,
			  SLUICE_A_PAD))
		return -EMSGSIZE;
	n = max_t(unsigned int, q->cfg.nclasses, SLUICE_NR_PRIOS);
	for (i = 0; i < n; i++) {
		sluice_prio_stats_fill(&ps, q, port, i, now);
		if (nla_put_64bit(skb, SLUICE_A_PRIO_STATS, sizeof(ps), &ps,
				  SLUICE_A_PAD))
			return -EMSGSIZE;
	}
	return 0;
}

/*
 * One port's message.  Returns 0 if it went out or was skipped (its qdisc
 * is going away), -EMSGSIZE if it did not fit.
 */
static int sluice_port_msg_put(struct sk_buff *skb, struct netlink_callback *cb,
			       struct sluice_port *port)
{
	char name[IFNAMSIZ];
	struct Qdisc *sch;
	void *hdr;
	int err;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &sluice_genl_family, NLM_F_MULTI,
			  SLUICE_CMD_STATS_GET);
	if (!hdr)
		return -EMSGSIZE;

	/* The qdisc and its device live until detach's grace period. */
	rcu_read_lock();
	sch = rcu_dereference(port->sch);
	if (!sch) {
		rcu_read_unlock();
		genlmsg_cancel(skb, hdr);
		return 0;
	}
	strscpy(name, qdisc_dev(sch)->name, sizeof(name));
	err = -EMSGSIZE;
	if (nla_put_u32(skb, SLUICE_A_IFINDEX, port->ifindex) ||
	    nla_put_string(skb, SLUICE_A_IFNAME, name))
		goto unlock;
	spin_lock_bh(qdisc_lock(sch));
	if (((struct sluice_sched *)qdisc_priv(sch))->dead)
		err = 0;	/* skipped, as if it had gone already */
	else
		err = sluice_port_stats_put(skb, sch, port) ?: 1;
	spin_unlock_bh(qdisc_lock(sch));
unlock:
	rcu_read_unlock();
	if (err <= 0) {
		genlmsg_cancel(skb, hdr);
		return err;
	}
	genl_dump_check_consistent(cb, hdr);
	genlmsg_end(skb, hdr);
	return 0;
}

static int sluice_stats_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct stats_dump *ctx = sluice_stats_dump_ctx(cb);
	struct net *net = sock_net(cb->skb->sk);
	struct sluice_port *port;
	unsigned long want;
	int err = 0;

	cb->seq = sluice_dump_seq(sluice_switch_ports_gen(net));
	if (ctx->done)
		return 0;
	want = ctx->ifindex;
	if (ctx->one && (!want || want > INT_MAX)) {
		SLUICE_ERR(cb->extack,
			   genl_dumpit_info(cb)->attrs[SLUICE_A_IFINDEX],
			   "ifindex out of range");
		return -EINVAL;
	}
	while ((port = sluice_port_next(net, &ctx->ifindex))) {
		if (ctx->one && ctx->ifindex != want) {
			sluice_port_put(port);
			break;
		}
		err = sluice_port_msg_put(skb, cb, port);
		sluice_port_put(port);
		if (err)
			break;
		ctx->ifindex++;
		if (ctx->one) {
			ctx->done = true;
			break;
		}
	}
	if (ctx->one && !ctx->done && !err) {
		SLUICE_ERR(cb->extack,
			   genl_dumpit_info(cb)->attrs[SLUICE_A_IFINDEX],
			   "no port has this ifindex");
		return -ENODEV;
	}
	/* A port too big for an empty message would end the dump early. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

static const struct genl_ops sluice_genl_ops[] = {
	{
		.cmd		= SLUICE_CMD_SWITCH_GET,
		.doit		= sluice_switch_get_doit,
		.policy		= sluice_none_policy,
		.maxattr	= SLUICE_A_MAX,
	},
	{
		.cmd		= SLUICE_CMD_SWITCH_SET,
		.flags		= GENL_UNS_ADMIN_PERM,
		.doit		= sluice_switch_set_doit,
		.policy		= sluice_switch_set_policy,
		.maxattr	= SLUICE_A_MAX,
	},
	{
		.cmd		= SLUICE_CMD_MAP_LOAD,
		.flags		= GENL_UNS_ADMIN_PERM,
		.doit		= sluice_map_load_doit,
		.policy		= sluice_map_load_policy,
		.maxattr	= SLUICE_A_MAX,
	},
	{
		.cmd		= SLUICE_CMD_MAP_GET,
		.start		= sluice_map_get_start,
		.dumpit		= sluice_map_get_dumpit,
		.done		= sluice_map_get_done,
		.policy		= sluice_none_policy,
		.maxattr	= SLUICE_A_MAX,
	},
	{
		.cmd		= SLUICE_CMD_MAP_FLUSH,
		.flags		= GENL_UNS_ADMIN_PERM,
		.doit		= sluice_map_flush_doit,
		.policy		= sluice_none_policy,
		.maxattr	= SLUICE_A_MAX,
	},
	{
		.cmd		= SLUICE_CMD_STATS_GET,
		.start		= sluice_stats_get_start,
		.dumpit		= sluice_stats_get_dumpit,
		.policy		= sluice_stats_get_policy,
		.maxattr	= SLUICE_A_MAX,
	},
};

static const struct genl_multicast_group sluice_genl_mcgrps[] = {
	[SLUICE_MCGRP_EVENTS_ID] = { .name = SLUICE_GENL_MCGRP_EVENTS },
};

/*
 * resv_start_op stays 0: every command is new, so the core checks the
 * reserved header byte and the request flags of all of them.
 */
static struct genl_family sluice_genl_family __ro_after_init = {
	.name		= SLUICE_GENL_NAME,
	.version	= SLUICE_GENL_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= sluice_genl_ops,
	.n_ops		= ARRAY_SIZE(sluice_genl_ops),
	.resv_start_op	= 0,
	.mcgrps		= sluice_genl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(sluice_genl_mcgrps),
};

int __init sluice_genl_init(void)
{
	return genl_register_family(&sluice_genl_family);
}

void sluice_genl_exit(void)
{
	genl_unregister_family(&sluice_genl_family);
}
