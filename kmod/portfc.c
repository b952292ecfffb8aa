// SPDX-License-Identifier: GPL-2.0
/*
 * PortFC: per-port multi-queue flow control for BCube, where servers
 * forward (Wang et al., ICS'25, Sections 3.2-3.4; uapi: "PortFC").
 *
 *   classes    a switch port queues a frame by the port it will leave the
 *              next-2-hop switch by (type A) or as one whose next hop is
 *              its destination (type B); a server port its own frames by
 *              hops and the next switch's egress port, and what it relays
 *              apart.  All of it is read from the label stack the fabric
 *              pins the path with, at most two entries and the stack's
 *              depth: the labels say where the frame goes next.
 *   detection  at a switch port's egress: the summed type-A backlog, or
 *              the type-B one, crossing its XOFF asserts (type, this
 *              port's index) on every other PortFC port of the switch,
 *              whose signal senders say Pause to their neighbours and
 *              refresh it while it lasts; XON releases it (Resume).
 *   reaction   a server pauses the own-traffic classes the signal names;
 *              it relays a type-B signal one hop on, for as long as the
 *              pause it received lasts; a switch pauses its type-A class
 *              for the port a relayed signal names.
 *
 * Keys of a PortFC port's signal sender are type * 16 + port index.
 *
 * Locking: detection runs in enqueue and dequeue under the port's root
 * lock and asserts keys on other ports' senders under their signal locks,
 * which nest inside any qdisc lock.  Reception takes the receiving port's
 * root lock to pause its classes, drops it, and only then relays, under
 * the other ports' signal locks: no qdisc lock but its own is ever taken
 * from the receive path, and no frame is sent under any lock (the senders'
 * timers send).
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/tcp.h>
#include <linux/xarray.h>
#include <net/ip.h>
#include <uapi/linux/mpls.h>

#include "sluice.h"

#define SLUICE_PORTFC_KEY(type, port)	((type) * TC_SLUICE_PORTFC_MAX_N + (port))

/* (k + 1) n + 2 for a server port, n + 2 for a switch port; HQ is last. */
unsigned int sluice_portfc_classes(const struct sluice_config *cfg)
{
	if (cfg->portfc == TC_SLUICE_PORTFC_SWITCH)
		return cfg->portfc_n + 2;
	return (cfg->portfc_k + 1) * cfg->portfc_n + 2;
}

/*
 * Whether another device's PortFC switch port in @sch's namespace has
 * @index: two would assert and release each other's keys.  RTNL held.
 */
static bool sluice_portfc_index_taken(struct Qdisc *sch, unsigned int index)
{
	struct net_device *dev = qdisc_dev(sch);
	struct sluice_net *sn = sluice_net(dev_net(dev));
	struct sluice_port *port;
	unsigned long ifindex;
	struct Qdisc *other;

	ASSERT_RTNL();
	xa_for_each(&sn->ports, ifindex, port) {
		other = rtnl_dereference(port->sch);
		/* The qdisc a replace takes the place of keeps its index. */
		if (!other || port->ifindex == dev->ifindex ||
		    READ_ONCE(port->portfc) != TC_SLUICE_PORTFC_SWITCH)
			continue;
		if (((struct sluice_sched *)qdisc_priv(other))->cfg.portfc_index == index)
			return true;
	}
	return false;
}

/*
 * What "tc qdisc add" and "change" must satisfy beyond the options' own
 * ranges (options.c): a root with a rate, no PFC, and a role, n, k,
 * index and label base fixed at creation (@old: the current
 * configuration of a change, NULL at init).
 */
int sluice_portfc_check(struct Qdisc *sch, const struct sluice_config *old,
			const struct sluice_config *cfg,
			struct netlink_ext_ack *extack)
{
	if (old && (old->portfc != cfg->portfc ||
		    old->portfc_n != cfg->portfc_n ||
		    old->portfc_k != cfg->portfc_k ||
		    old->portfc_index != cfg->portfc_index ||
		    old->portfc_label_base != cfg->portfc_label_base)) {
		SLUICE_ERR(extack, NULL,
			   "portfc role, n, k, index and label base are set when the qdisc is created: replace it");
		return -EOPNOTSUPP;
	}
	if (!cfg->portfc)
		return 0;
	if (sch->parent != TC_H_ROOT) {
		SLUICE_ERR(extack, NULL, "portfc needs sluice as the root qdisc");
		return -EOPNOTSUPP;
	}
	if (!cfg->rate) {
		SLUICE_ERR(extack, NULL, "portfc needs the link rate");
		return -EINVAL;
	}
	if (cfg->pfc) {
		SLUICE_ERR(extack, NULL,
			   "portfc and pfc exclude each other: PortFC is the port's flow control");
		return -EINVAL;
	}
	if (sluice_quanta_ns(cfg->pause_time, cfg->rate) < 2 * SLUICE_MIN_REFRESH_NS) {
		SLUICE_ERR(extack, NULL, "pause-time too short to refresh at this rate");
		return -EINVAL;
	}
	if (cfg->portfc != TC_SLUICE_PORTFC_SWITCH)
		return 0;
	if (!cfg->portfc_xoff[SLUICE_PORTFC_QA] ||
	    !cfg->portfc_xoff[SLUICE_PORTFC_QB]) {
		SLUICE_ERR(extack, NULL,
			   "a portfc switch port needs portfc-xoff-a and portfc-xoff-b");
		return -EINVAL;
	}
	if (!old && sluice_portfc_index_taken(sch, cfg->portfc_index)) {
		SLUICE_ERR(extack, NULL,
			   "another portfc switch port of this namespace has this portfc-index");
		return -EEXIST;
	}
	return 0;
}

/*
 * A new switch port (RTNL held, published already, so that crossings
 * from now on reach it) is told the keys in force: for each other switch
 * port, under that port's root lock, which its detection holds while it
 * decides, so no crossing falls between the look and the assert.
 */
void sluice_portfc_publish(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_net *sn = sluice_net(dev_net(qdisc_dev(sch)));
	struct sluice_port *port;
	unsigned long ifindex, xoff;
	struct sluice_sched *oq;
	struct Qdisc *other;
	unsigned int type;

	ASSERT_RTNL();
	if (q->cfg.portfc != TC_SLUICE_PORTFC_SWITCH)
		return;
	xa_for_each(&sn->ports, ifindex, port) {
		other = rtnl_dereference(port->sch);
		if (port == q->port || !other ||
		    READ_ONCE(port->portfc) != TC_SLUICE_PORTFC_SWITCH)
			continue;
		oq = qdisc_priv(other);
		spin_lock_bh(qdisc_lock(other));
		xoff = oq->portfc_xoff;
		spin_lock(&q->port->signal.lock);
		for_each_set_bit(type, &xoff, SLUICE_PORTFC_QB + 1)
			sluice_signal_assert(&q->port->signal,
					     SLUICE_PORTFC_KEY(type,
							       oq->cfg.portfc_index));
		spin_unlock(&q->port->signal.lock);
		spin_unlock_bh(qdisc_lock(other));
	}
}

/*
 * At init, before the qdisc is visible: data classes share the link by
 * DWRR, one MTU frame a round; HQ stays strict, and is the highest class,
 * so it goes first.  No class is a PFC priority.
 */
void sluice_portfc_setup(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);
	u32 quantum = max_t(u32, psched_mtu(qdisc_dev(sch)),
			    TC_SLUICE_MIN_QUANTUM);
	unsigned int c;

	for (c = 0; c < SLUICE_MAX_CLASSES; c++)
		q->class_prio[c] = SLUICE_PRIO_NONE;
	for (c = 0; c + 1 < q->cfg.nclasses; c++) {
		q->classes[c].quantum = quantum;
		q->weighted |= BIT(c);
	}
}

static u32 sluice_portfc_label(__be32 lse)
{
	return (ntohl(lse) & MPLS_LS_LABEL_MASK) >> MPLS_LS_LABEL_SHIFT;
}

/*
 * Whether an IP frame at @off (under @depth labels; type is the EtherType
 * when there are none) belongs to HQ: its DSCP is the configured one, or
 * it is a TCP segment with ACK and neither payload nor SYN, FIN or RST.
 * Fragments and IPv6 extension headers are not looked into.
 */
static bool sluice_portfc_hq_ip(const struct sluice_config *cfg,
				const struct sk_buff *skb, unsigned int off,
				__be16 type, int depth)
{
	u8 buf[sizeof(struct ipv6hdr)], tbuf[sizeof(struct tcphdr)];
	unsigned int version, hlen, payload, dscp;
	const struct tcphdr *th;
	const u8 *h;
	u8 proto;

	if (!(cfg->portfc_hq & TC_SLUICE_PORTFC_HQ_ACK) &&
	    cfg->portfc_hq_dscp == TC_SLUICE_PORTFC_DSCP_NONE)
		return false;
	if (!depth && type != htons(ETH_P_IP) && type != htons(ETH_P_IPV6))
		return false;
	h = skb_header_pointer(skb, off, sizeof(struct iphdr), buf);
	if (!h)
		return false;
	version = h[0] >> 4;
	if (version == 4 && (depth || type == htons(ETH_P_IP))) {
		hlen = (h[0] & 0x0f) * 4;
		if (hlen < sizeof(struct iphdr))
			return false;
		dscp = h[1] >> 2;
		proto = h[9];
		payload = ((h[2] << 8) | h[3]);
		if (payload < hlen)
			return false;
		payload -= hlen;
		/* A later fragment has no TCP header; a first one is data. */
		if (((h[6] << 8) | h[7]) & (IP_MF | IP_OFFSET))
			proto = 0;
	} else if (version == 6 && (depth || type == htons(ETH_P_IPV6))) {
		h = skb_header_pointer(skb, off, sizeof(struct ipv6hdr), buf);
		if (!h)
			return false;
		hlen = sizeof(struct ipv6hdr);
		dscp = (((h[0] & 0x0f) << 4) | (h[1] >> 4)) >> 2;
		proto = h[6];
		payload = (h[4] << 8) | h[5];
	} else {
		return false;
	}
	if (dscp == cfg->portfc_hq_dscp)
		return true;
	if (!(cfg->portfc_hq & TC_SLUICE_PORTFC_HQ_ACK) || proto != IPPROTO_TCP)
		return false;
	th = skb_header_pointer(skb, off + hlen, sizeof(tbuf), tbuf);
	return th && th->ack && !th->syn && !th->fin && !th->rst &&
	       payload == th->doff * 4;
}

/*
 * The class of a frame on a PortFC port (uapi: "PortFC"), counting HQ
 * frames and labelled frames whose stack says nothing usable.  Reads the
 * EtherType, at most two label stack entries and the stack's depth, and
 * for HQ the IP and TCP headers.  Under the root lock.
 */
unsigned int sluice_portfc_classify(struct Qdisc *sch, struct sk_buff *skb)
{
	struct sluice_sched *q = qdisc_priv(sch);
	const struct sluice_config *cfg = &q->cfg;
	unsigned int hq = cfg->nclasses - 1, other = cfg->nclasses - 2;
	unsigned int off, g;
	__be32 top[2];
	int depth = 0;
	__be16 type;
	u32 idx;

	type = sluice_payload_type(skb, &off);
	if (type == htons(ETH_P_ARP)) {
		if (!(cfg->portfc_hq & TC_SLUICE_PORTFC_HQ_ARP))
			return other;
		q->portfc_hq++;
		return hq;
	}
	if (sluice_is_mpls(type)) {
		depth = sluice_mpls_stack(skb, top, ARRAY_SIZE(top), &off);
		if (depth < 0)
			goto unknown;
	}
	if (sluice_portfc_hq_ip(cfg, skb, off, type, depth)) {
		q->portfc_hq++;
		return hq;
	}
	if (cfg->portfc == TC_SLUICE_PORTFC_SWITCH) {
		/* Popped to nothing: the next hop is the destination. */
		if (!depth)
			return other;
		/* The next server's label, then the next switch's port. */
		if (depth < 2)
			goto unknown;
		idx = sluice_portfc_label(top[1]) - cfg->portfc_label_base;
		if (idx >= cfg->portfc_n)
			goto unknown;
		return idx;
	}
	/* A server: what it relays, and own frames without labels. */
	if (skb->skb_iif || !depth)
		return other;
	/*
	 * 2(g + 1) hops take 2g + 1 labels: the first switch's port on top.
	 * BCube's parallel paths (BuildPathSet) can be longer than the k + 1
	 * switches of a shortest one; those go with the longest group.  Only
	 * the first switch's type-A signals pause them: congestion further
	 * on (type A, or type B relayed one hop back into a type-A queue)
	 * stops at the relay before the congested switch, whose relay queue
	 * is never paused, and does not reach this server (README, "Known
	 * limits").
	 */
	if (!(depth & 1))
		goto unknown;
	g = min_t(unsigned int, (depth - 1) / 2, cfg->portfc_k);
	idx = sluice_portfc_label(top[0]) - cfg->portfc_label_base;
	if (idx >= cfg->portfc_n)
		goto unknown;
	return g * cfg->portfc_n + idx;
unknown:
	q->portfc_unknown++;
	return other;
}

/* The queue type of switch class c, or -1 for HQ. */
static int sluice_portfc_qtype(const struct sluice_config *cfg, unsigned int c)
{
	if (c < cfg->portfc_n)
		return SLUICE_PORTFC_QA;
	return c == cfg->portfc_n ? SLUICE_PORTFC_QB : -1;
}

/*
 * The Pauses and Resumes switch class c's type caused (each said on every
 * other port), for dumps; zero elsewhere.  Under the stats lock.
 */
void sluice_portfc_class_tx(const struct sluice_sched *q, unsigned int c,
			    u64 *xoff, u64 *xon)
{
	int type;

	if (q->cfg.portfc != TC_SLUICE_PORTFC_SWITCH)
		return;
	type = sluice_portfc_qtype(&q->cfg, c);
	if (type < 0)
		return;
	*xoff = q->portfc_xoff_tx[type];
	*xon = q->portfc_xon_tx[type];
}

/*
 * Says (@type, this port's index) to, or takes it back from, the
 * neighbours on every other PortFC port of the switch.  O(ports), on a
 * crossing only.
 */
static void sluice_portfc_broadcast(struct Qdisc *sch, unsigned int type,
				    bool on)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_net *sn = sluice_net(dev_net(qdisc_dev(sch)));
	unsigned int key = SLUICE_PORTFC_KEY(type, q->cfg.portfc_index);
	struct sluice_port *port;
	unsigned long ifindex;

	rcu_read_lock();
	xa_for_each(&sn->ports, ifindex, port) {
		if (port == q->port ||
		    READ_ONCE(port->portfc) != TC_SLUICE_PORTFC_SWITCH)
			continue;
		spin_lock_bh(&port->signal.lock);
		if (on)
			sluice_signal_assert(&port->signal, key);
		else
			sluice_signal_release(&port->signal, BIT(key));
		spin_unlock_bh(&port->signal.lock);
	}
	rcu_read_unlock();
}

/* Algorithms 1 and 2: assert at XOFF or above, release at XON or below. */
static void sluice_portfc_detect(struct Qdisc *sch, unsigned int type)
{
	struct sluice_sched *q = qdisc_priv(sch);
	u32 level = q->portfc_backlog[type];

	if (!(q->portfc_xoff & BIT(type))) {
		if (level < q->cfg.portfc_xoff[type])
			return;
		q->portfc_xoff |= BIT(type);
		q->portfc_xoff_tx[type]++;
		sluice_portfc_broadcast(sch, type, true);
	} else if (level <= q->cfg.portfc_xon[type]) {
		q->portfc_xoff &= ~BIT(type);
		q->portfc_xon_tx[type]++;
		sluice_portfc_broadcast(sch, type, false);
	}
}

/* Switch class c's backlog changed by @delta bytes (root lock held). */
void __sluice_portfc_account(struct Qdisc *sch, unsigned int c, long delta)
{
	struct sluice_sched *q = qdisc_priv(sch);
	int type = sluice_portfc_qtype(&q->cfg, c);

	lockdep_assert_held(qdisc_lock(sch));
	if (type < 0)
		return;
	q->portfc_backlog[type] += delta;
	sluice_portfc_detect(sch, type);
}

/*
 * After classes were emptied wholesale (reset) or thresholds changed:
 * the levels again from the classes, and what they decide.  Under the
 * root lock, or with the qdisc out of the datapath (destroy's reset).
 */
void sluice_portfc_recount(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned int c, n = q->cfg.portfc_n;

	if (q->cfg.portfc != TC_SLUICE_PORTFC_SWITCH)
		return;
	q->portfc_backlog[SLUICE_PORTFC_QA] = 0;
	for (c = 0; c < n; c++)
		q->portfc_backlog[SLUICE_PORTFC_QA] += q->classes[c].qstats.backlog;
	q->portfc_backlog[SLUICE_PORTFC_QB] = q->classes[n].qstats.backlog;
	sluice_portfc_detect(sch, SLUICE_PORTFC_QA);
	sluice_portfc_detect(sch, SLUICE_PORTFC_QB);
}

/*
 * The qdisc is going (destroy, root lock held): what it asserted on the
 * other ports is taken back, or they would refresh it forever.
 */
void sluice_portfc_detach(struct Qdisc *sch)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned long xoff = q->portfc_xoff;
	unsigned int type;

	q->portfc_xoff = 0;
	for_each_set_bit(type, &xoff, SLUICE_PORTFC_QB + 1)
		sluice_portfc_broadcast(sch, type, false);
}

/*
 * The signal frame for the keys in @on (Pause, for the port's pause time)
 * and @off (Resume), one record each.  A server's records are relayed
 * ones: servers originate nothing.
 */
static struct sk_buff *sluice_portfc_build(struct sluice_signal *s,
					   struct net_device *dev,
					   unsigned long on, unsigned long off)
{
	struct sluice_port *port = container_of(s, struct sluice_port, signal);
	unsigned long keys = on | off;
	unsigned int count = hweight_long(keys), len, key;
	u16 quanta = READ_ONCE(port->pause_time);
	u8 flags = READ_ONCE(port->portfc) == TC_SLUICE_PORTFC_SERVER ?
		   SLUICE_PORTFC_F_RELAYED : 0;
	struct sluice_portfc_hdr *h;
	struct sluice_portfc_rec *r;
	struct sk_buff *skb;

	len = sizeof(*h) + count * sizeof(*r);
	skb = sluice_ctrl_alloc(dev, SLUICE_PORTFC_ETHERTYPE, len, (void **)&h);
	if (!skb)
		return NULL;
	h->magic = htons(SLUICE_PORTFC_MAGIC);
	h->version = SLUICE_PORTFC_VERSION;
	h->count = count;
	h->origin = htonl(dev->ifindex);
	/* The timer builds one frame at a time; detach, after it. */
	h->seq = htonl(port->portfc_seq++);
	r = (struct sluice_portfc_rec *)(h + 1);
	for_each_set_bit(key, &keys, SLUICE_SIGNAL_MAX_KEYS) {
		bool pause = on & BIT(key);

		r->opcode = pause ? SLUICE_PORTFC_PAUSE : SLUICE_PORTFC_RESUME;
		r->qtype = key / TC_SLUICE_PORTFC_MAX_N;
		r->port = key % TC_SLUICE_PORTFC_MAX_N;
		r->flags = flags;
		r->quanta = htons(pause ? quanta : 0);
		r++;
	}
	return skb;
}

const struct sluice_signal_ops sluice_portfc_signal_ops = {
	.build		= sluice_portfc_build,
	.refresh_ns	= sluice_signal_port_refresh_ns,
};

/* What a server relays of a frame it received: type-B keys. */
struct sluice_portfc_relay {
	unsigned long	on, off;
	u64		until[TC_SLUICE_PORTFC_MAX_N];	/* by port index */
};

/*
 * One record on the receiving port (root lock held): false if it acts on
 * nothing here.  A pause of 0 quanta is a resume.
 */
static bool sluice_portfc_apply(struct sluice_sched *q,
				const struct sluice_portfc_rec *r, u64 now,
				struct sluice_portfc_relay *relay)
{
	const struct sluice_config *cfg = &q->cfg;
	unsigned int p = r->port, n = cfg->portfc_n, g, key;
	u16 quanta;

	if ((r->opcode != SLUICE_PORTFC_PAUSE &&
	     r->opcode != SLUICE_PORTFC_RESUME) ||
	    r->qtype > SLUICE_PORTFC_QB || p >= n)
		return false;
	quanta = r->opcode == SLUICE_PORTFC_PAUSE ? ntohs(r->quanta) : 0;
	if (cfg->portfc == TC_SLUICE_PORTFC_SWITCH) {
		/* Algorithm 4, for the only signals a switch is sent. */
		if (r->qtype != SLUICE_PORTFC_QB ||
		    !(r->flags & SLUICE_PORTFC_F_RELAYED))
			return false;
		sluice_pause_class(q, p, now, quanta);
		return true;
	}
	/* Algorithm 3: a server. */
	if (r->qtype == SLUICE_PORTFC_QA) {
		if (!cfg->portfc_k)
			return false;
		for (g = 1; g <= cfg->portfc_k; g++)
			sluice_pause_class(q, g * n + p, now, quanta);
		return true;
	}
	sluice_pause_class(q, p, now, quanta);
	if (r->flags & SLUICE_PORTFC_F_RELAYED)
		return true;
	q->portfc_relayed++;
	q->classes[p].portfc_relayed++;
	key = SLUICE_PORTFC_KEY(SLUICE_PORTFC_QB, p);
	if (quanta) {
		relay->on |= BIT(key);
		relay->off &= ~BIT(key);
		relay->until[p] = now + sluice_quanta_ns(quanta, cfg->rate);
	} else {
		relay->off |= BIT(key);
		relay->on &= ~BIT(key);
	}
	return true;
}

/* A received frame on PortFC port @sch (root lock held). */
static void sluice_portfc_handle(struct Qdisc *sch, const struct sk_buff *skb,
				 struct sluice_portfc_relay *relay)
{
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_portfc_rec rbuf;
	const struct sluice_portfc_rec *r;
	struct sluice_portfc_hdr hbuf;
	const struct sluice_portfc_hdr *h;
	unsigned int i;
	u64 now;

	lockdep_assert_held(qdisc_lock(sch));
	if (q->dead)
		return;
	h = skb_header_pointer(skb, 0, sizeof(hbuf), &hbuf);
	if (!h || !ether_addr_equal(eth_hdr(skb)->h_dest, sluice_ctrl_dst) ||
	    h->magic != htons(SLUICE_PORTFC_MAGIC) ||
	    h->version != SLUICE_PORTFC_VERSION || !h->count ||
	    h->count > SLUICE_PORTFC_MAX_RECS ||
	    skb->len < sizeof(*h) + h->count * sizeof(*r)) {
		q->portfc_malformed++;
		return;
	}
	if (!q->cfg.pause_rx || !q->cfg.rate) {
		q->pause_untrusted++;
		return;
	}
	if (!q->cfg.portfc) {
		q->portfc_ignored += h->count;
		return;
	}
	q->portfc_rx++;
	now = ktime_get_ns();
	for (i = 0; i < h->count; i++) {
		r = skb_header_pointer(skb, sizeof(*h) + i * sizeof(*r),
				       sizeof(rbuf), &rbuf);
		if (!r || !sluice_portfc_apply(q, r, now, relay))
			q->portfc_ignored++;
	}
	/* Let dequeue look again: a class may have resumed. */
	if (q->active)
		qdisc_watchdog_schedule_ns(&q->watchdog, now);
}

/*
 * Relays type-B keys on the server's other PortFC ports, under their
 * signal locks only: their timers send.
 */
static void sluice_portfc_relay(struct net *net, const struct sluice_port *from,
				const struct sluice_portfc_relay *relay)
{
	struct sluice_net *sn = sluice_net(net);
	struct sluice_port *port;
	unsigned long ifindex;
	unsigned int key;

	xa_for_each(&sn->ports, ifindex, port) {
		if (port == from ||
		    READ_ONCE(port->portfc) != TC_SLUICE_PORTFC_SERVER)
			continue;
		spin_lock(&port->signal.lock);
		for_each_set_bit(key, &relay->on, SLUICE_SIGNAL_MAX_KEYS)
			sluice_signal_assert_until(&port->signal, key,
						   relay->until[key % TC_SLUICE_PORTFC_MAX_N]);
		if (relay->off)
			sluice_signal_release(&port->signal, relay->off);
		spin_unlock(&port->signal.lock);
	}
}

/* Runs in the receive softirq, under rcu_read_lock(). */
static int sluice_portfc_rcv(struct sk_buff *skb, struct net_device *dev,
			     struct packet_type *pt, struct net_device *orig_dev)
{
	struct sluice_portfc_relay relay = {};
	struct sluice_port *port;
	struct Qdisc *sch;

	port = sluice_port_lookup_rcu(dev_net(dev), dev->ifindex);
	sch = port ? rcu_dereference(port->sch) : NULL;
	if (sch) {
		/* A port is a root qdisc: this is its root lock (pause.c). */
		spin_lock(qdisc_lock(sch));
		sluice_portfc_handle(sch, skb, &relay);
		spin_unlock(qdisc_lock(sch));
		if (relay.on | relay.off)
			sluice_portfc_relay(dev_net(dev), port, &relay);
	}
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

static struct packet_type sluice_portfc_packet_type __read_mostly = {
	.type	= cpu_to_be16(SLUICE_PORTFC_ETHERTYPE),
	.func	= sluice_portfc_rcv,
};

int sluice_portfc_init(void)
{
	BUILD_BUG_ON(2 * TC_SLUICE_PORTFC_MAX_N > SLUICE_SIGNAL_MAX_KEYS);
	BUILD_BUG_ON(SLUICE_PORTFC_MAX_RECS < SLUICE_SIGNAL_MAX_KEYS);
	BUILD_BUG_ON((TC_SLUICE_PORTFC_MAX_K + 1) * 2 + 2 > SLUICE_MAX_CLASSES);
	dev_add_pack(&sluice_portfc_packet_type);
	return 0;
}

void sluice_portfc_exit(void)
{
	dev_remove_pack(&sluice_portfc_packet_type);
}
