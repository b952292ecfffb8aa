// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the tag a frame is classified by, and Tagger's datapath: the
 * switch's maps decide a frame's ingress priority, egress class and new
 * tag, which is then written into the frame.  A root qdisc sees the frame
 * from its Ethernet header on (__dev_queue_xmit resets the mac header to
 * skb->data), and sluice only attaches to Ethernet devices, so offsets
 * here are from skb->data.  Headers are read with skb_header_pointer:
 * nothing is assumed linear.  Only a retag writes, after making the
 * headers it writes private and linear (skb_ensure_writable).
 */
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <net/checksum.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <uapi/linux/mpls.h>

#include "sluice.h"

/* How many in-frame VLAN tags to look through for the payload type. */
#define SLUICE_VLAN_DEPTH	2

/* The EtherType after up to two VLAN tags, and the payload offset. */
__be16 sluice_payload_type(const struct sk_buff *skb, unsigned int *off)
{
	__be16 type, buf;
	const __be16 *p;
	int depth;

	p = skb_header_pointer(skb, offsetof(struct ethhdr, h_proto),
			       sizeof(buf), &buf);
	if (!p)
		return 0;
	type = *p;
	*off = ETH_HLEN;
	for (depth = 0; depth < SLUICE_VLAN_DEPTH && eth_type_vlan(type);
	     depth++) {
		p = skb_header_pointer(skb, *off + 2, sizeof(buf), &buf);
		if (!p)
			return 0;
		type = *p;
		*off += VLAN_HLEN;
	}
	return type;
}

static int sluice_pcp_read(const struct sk_buff *skb)
{
	__be16 buf[2];
	const __be16 *vh;

	if (skb_vlan_tag_present(skb))
		return skb_vlan_tag_get_prio(skb);

	/* An outer tag still in the frame: type at 12, TCI at 14. */
	vh = skb_header_pointer(skb, offsetof(struct ethhdr, h_proto),
				sizeof(buf), buf);
	if (!vh || !eth_type_vlan(vh[0]))
		return -1;
	return (ntohs(vh[1]) & VLAN_PRIO_MASK) >> VLAN_PRIO_SHIFT;
}

/*
 * Label stack entries looked through for the IP header under them: the
 * kernel pushes at most 30 (MAX_NEW_LABELS), plus a couple already there.
 */
#define SLUICE_MPLS_DEPTH	32

/*
 * The label stack at *off: its depth, its top @n entries in @top (as
 * far as it goes), and *off moved past its bottom.  -1 if it does not end
 * within the frame or SLUICE_MPLS_DEPTH entries.
 */
int sluice_mpls_stack(const struct sk_buff *skb, __be32 *top, unsigned int n,
		      unsigned int *off)
{
	const __be32 *lse;
	__be32 buf;
	int depth;

	for (depth = 0; depth < SLUICE_MPLS_DEPTH; depth++) {
		lse = skb_header_pointer(skb, *off, sizeof(buf), &buf);
		if (!lse)
			return -1;
		*off += sizeof(buf);
		if (depth < n)
			top[depth] = *lse;
		if (*lse & htonl(MPLS_LS_S_MASK))
			return depth + 1;
	}
	return -1;
}

/*
 * The IP header after up to two VLAN tags: its version (4 or 6; 0 if the
 * frame carries no IP), its offset and its first two bytes, which hold the
 * DSCP of either version.  With @labels, also under an MPLS label stack,
 * where only the version nibble tells IPv4 from IPv6: a switch that pins
 * paths with label stacks forwards the frame's DSCP untouched, and the
 * frame's class must not change on its way.  Inlined: the qdisc's own
 * DSCP classification reads every frame through it.
 */
static __always_inline int sluice_ip_header(const struct sk_buff *skb,
					    unsigned int *off, u8 *buf, bool labels)
{
	__be16 type = sluice_payload_type(skb, off);
	const u8 *h;
	int version;

	if (labels && sluice_is_mpls(type)) {
		if (sluice_mpls_stack(skb, NULL, 0, off) < 0)
			return 0;
		type = 0;
	} else if (type != htons(ETH_P_IP) && type != htons(ETH_P_IPV6)) {
		return 0;
	}
	h = skb_header_pointer(skb, *off, 2, buf);
	if (!h)
		return 0;
	version = h[0] >> 4;
	if ((version == 4 && type != htons(ETH_P_IPV6)) ||
	    (version == 6 && type != htons(ETH_P_IP))) {
		buf[0] = h[0];
		buf[1] = h[1];
		return version;
	}
	return 0;
}

/* sluice_ip_header() with labels, for the other files (int.c). */
int sluice_ip_find(const struct sk_buff *skb, unsigned int *off, u8 *buf)
{
	return sluice_ip_header(skb, off, buf, true);
}

/*
 * Under a label stack only the first nibble says IPv4 or IPv6, and an
 * Ethernet pseudowire without a control word whose destination MAC starts
 * with 4 or 6 says the same.  Reading a wrong DSCP misclassifies a frame;
 * writing one corrupts it.  So before a write, a header under labels must
 * also hold together: IPv4's length fields and checksum, IPv6's payload
 * length, within the frame.
 */
bool sluice_ip_plausible(const struct sk_buff *skb, unsigned int off,
			 int version)
{
	unsigned int room = skb->len - off;
	u8 buf[60];
	const u8 *h;

	if (version == 6) {
		h = skb_header_pointer(skb, off, sizeof(struct ipv6hdr), buf);
		return h && sizeof(struct ipv6hdr) +
			    ntohs(((const struct ipv6hdr *)h)->payload_len) <= room;
	}
	h = skb_header_pointer(skb, off, sizeof(struct iphdr), buf);
	if (!h || (h[0] & 0x0f) < 5 || (h[0] & 0x0f) * 4 > room)
		return false;
	h = skb_header_pointer(skb, off, (h[0] & 0x0f) * 4, buf);
	return h && ntohs(((const struct iphdr *)h)->tot_len) >= (h[0] & 0x0f) * 4 &&
	       ntohs(((const struct iphdr *)h)->tot_len) <= room &&
	       !ip_fast_csum(h, h[0] & 0x0f);
}

/*
 * The IP header a write may change (sluice_ip_header() with labels), or
 * 0 if there is none or, under labels, it does not hold together.
 */
static int sluice_ip_header_to_write(const struct sk_buff *skb,
				     unsigned int *off, u8 *buf)
{
	unsigned int l2;
	int version = sluice_ip_header(skb, off, buf, true);

	if (version && sluice_is_mpls(sluice_payload_type(skb, &l2)) &&
	    !sluice_ip_plausible(skb, *off, version))
		return 0;
	return version;
}

static int sluice_dscp_read(const struct sk_buff *skb)
{
	unsigned int off;
	u8 h[2];

	switch (sluice_ip_header(skb, &off, h, true)) {
	case 4:
		return h[1] >> 2;
	case 6:
		/* Version 4 bits, traffic class 8 bits across two bytes. */
		return (((h[0] & 0x0f) << 4) | (h[1] >> 4)) >> 2;
	default:
		return -1;
	}
}

/*
 * DCTCP's step marking: CE on an ECN-capable IP frame, found where
 * classification finds it (under up to two VLAN tags and an MPLS label
 * stack, which the stack's INET_ECN_set_ce() does not look through).
 * The header is made private and linear first; IPv4's checksum and an
 * IPv6 frame's CHECKSUM_COMPLETE follow the change.  Returns whether the
 * frame was marked (not: not ECT(0) or ECT(1), already CE, or no memory).
 */
bool sluice_ecn_mark(struct sk_buff *skb)
{
	unsigned int off;
	u8 h[2];

	switch (sluice_ip_header_to_write(skb, &off, h)) {
	case 4:
		/* TOS is the second byte: ECN in its low two bits. */
		if (INET_ECN_is_not_ect(h[1]) || INET_ECN_is_ce(h[1]) ||
		    skb_ensure_writable(skb, off + sizeof(struct iphdr)))
			return false;
		return IP_ECN_set_ce((struct iphdr *)(skb->data + off));
	case 6:
		/* The traffic class straddles bytes 0 and 1: ECN is 0x30 of 1. */
		if (INET_ECN_is_not_ect(h[1] >> 4) || INET_ECN_is_ce(h[1] >> 4) ||
		    skb_ensure_writable(skb, off + sizeof(struct ipv6hdr)))
			return false;
		return IP6_ECN_set_ce(skb, (struct ipv6hdr *)(skb->data + off));
	default:
		return false;
	}
}

/* IPv4 TTL or IPv6 hop limit. */
static int sluice_ip_ttl_read(const struct sk_buff *skb)
{
	unsigned int off;
	u8 buf, h2[2];
	const u8 *h;

	switch (sluice_ip_header(skb, &off, h2, false)) {
	case 4:
		off += offsetof(struct iphdr, ttl);
		break;
	case 6:
		off += offsetof(struct ipv6hdr, hop_limit);
		break;
	default:
		return -1;
	}
	h = skb_header_pointer(skb, off, sizeof(buf), &buf);
	return h ? *h : -1;
}

/*
 * The top label stack entry and its offset; false if not MPLS.  Inlined
 * for the same reason as sluice_ip_header().
 */
static __always_inline bool sluice_mpls_lse(const struct sk_buff *skb,
					    unsigned int *off, u32 *lse)
{
	__be32 buf;
	const __be32 *p;

	switch (sluice_payload_type(skb, off)) {
	case htons(ETH_P_MPLS_UC):
	case htons(ETH_P_MPLS_MC):
		p = skb_header_pointer(skb, *off, sizeof(buf), &buf);
		if (!p)
			return false;
		*lse = ntohl(*p);
		return true;
	default:
		return false;
	}
}

static int sluice_mpls_tc_read(const struct sk_buff *skb)
{
	unsigned int off;
	u32 lse;

	if (!sluice_mpls_lse(skb, &off, &lse))
		return -1;
	return (lse & MPLS_LS_TC_MASK) >> MPLS_LS_TC_SHIFT;
}

static int sluice_mpls_ttl_read(const struct sk_buff *skb)
{
	unsigned int off;
	u32 lse;

	if (!sluice_mpls_lse(skb, &off, &lse))
		return -1;
	return (lse & MPLS_LS_TTL_MASK) >> MPLS_LS_TTL_SHIFT;
}

/*
 * The depth of the label stack the frame leaves with: 0 without one, -1
 * if it does not end within the frame or SLUICE_MPLS_DEPTH entries.
 */
static int sluice_mpls_depth_read(const struct sk_buff *skb)
{
	unsigned int off;

	if (!sluice_is_mpls(sluice_payload_type(skb, &off)))
		return 0;
	return sluice_mpls_stack(skb, NULL, 0, &off);
}

/*
 * The frame's value of a tag carried in the frame (PCP, DSCP, MPLS TC),
 * or -1 if it carries none.  skb->priority is not read here: it always
 * exists and is interpreted by the qdisc (see priority_class()).
 */
int sluice_tag_read(const struct sk_buff *skb, unsigned int tag)
{
	switch (tag) {
	case TC_SLUICE_TAG_PCP:
		return sluice_pcp_read(skb);
	case TC_SLUICE_TAG_DSCP:
		return sluice_dscp_read(skb);
	case TC_SLUICE_TAG_MPLS_TC:
		return sluice_mpls_tc_read(skb);
	default:
		return -1;
	}
}

/*
 * The qdisc's tag (enum tc_sluice_tag) that is the source, or -1 (a TTL,
 * the depth).
 */
static int sluice_qdisc_tag(u8 source)
{
	switch (source) {
	case SLUICE_TAG_SOURCE_DSCP:
		return TC_SLUICE_TAG_DSCP;
	case SLUICE_TAG_SOURCE_MPLS_TC:
		return TC_SLUICE_TAG_MPLS_TC;
	case SLUICE_TAG_SOURCE_PCP:
		return TC_SLUICE_TAG_PCP;
	default:
		return -1;
	}
}

/*
 * The tag the frame had on the wire when it arrived, -1 if it has none.
 * Routing decremented the TTL of a frame that came in on a port (IPv4,
 * IPv6 and MPLS forwarding alike), also one that leaves by the port it
 * came in on - the bounce Tagger's TTL tags are for: add that back.  The
 * result may be 256 for a frame that was not routed; no table has such a
 * tag.  The label stack's depth is the one exception: it is read as the
 * frame leaves, the hops it has still to go (uapi), with no adjustment.
 */
static int sluice_wire_tag(const struct sk_buff *skb, u8 source)
{
	int tag;

	switch (source) {
	case SLUICE_TAG_SOURCE_IP_TTL:
		tag = sluice_ip_ttl_read(skb);
		break;
	case SLUICE_TAG_SOURCE_MPLS_TTL:
		tag = sluice_mpls_ttl_read(skb);
		break;
	case SLUICE_TAG_SOURCE_MPLS_DEPTH:
		return sluice_mpls_depth_read(skb);
	default:
		return sluice_tag_read(skb, sluice_qdisc_tag(source));
	}
	if (tag >= 0 && skb->skb_iif)
		tag++;
	return tag;
}

/* Only for a port: the root qdisc of a device, q->port set. */
bool sluice_tagger_classify(struct Qdisc *sch, struct sk_buff *skb,
			    struct sluice_tag_result *t)
{
	struct sluice_sched *q = qdisc_priv(sch);
	const struct sluice_config *cfg = &q->cfg;
	const struct sluice_port *port = q->port;
	const struct sluice_tagmap *map;
	struct sluice_tagmap_hit hit;
	unsigned long counters;
	unsigned int fallback;
	int tag, qtag;

	/* One table for all three lookups and the source. */
	map = rcu_dereference_bh(*port->tagger);
	if (!map)
		return false;
	t->source = sluice_tagmap_source(map);
	t->retag = false;
	tag = sluice_wire_tag(skb, t->source);
	if (tag < 0) {
		t->prio = cfg->defclass;
		t->cls = cfg->defclass;
		sluice_tagger_count(port, BIT(SLUICE_SW_UNTAGGED));
		return true;
	}

	sluice_tagmap_lookup(map, port->ifindex, skb->skb_iif, tag, &hit);
	/*
	 * A miss falls back to the qdisc's own map of the same tag, or for a
	 * TTL or the depth, which have no such map, to its default class.
	 */
	qtag = sluice_qdisc_tag(t->source);
	fallback = qtag < 0 ? cfg->defclass : cfg->map[qtag][tag];
	counters = BIT(SLUICE_SW_TAGGED);
	if (hit.in != SLUICE_TAGMAP_NONE) {
		t->prio = hit.in;
	} else {
		t->prio = fallback;
		counters |= BIT(SLUICE_SW_IN_MISS);
	}
	if (hit.eg == SLUICE_TAGMAP_NONE) {
		t->cls = fallback;
		counters |= BIT(SLUICE_SW_EG_MISS);
	} else if (hit.eg >= cfg->nclasses) {
		t->cls = cfg->defclass;
		counters |= BIT(SLUICE_SW_CLASS_INVALID);
	} else {
		t->cls = hit.eg;
	}
	/* A tag mapped to itself is left alone: no write, no count. */
	if (hit.tag == SLUICE_TAGMAP_NONE) {
		counters |= BIT(SLUICE_SW_TAG_MISS);
	} else if (hit.tag != tag) {
		t->retag = true;
		t->new_tag = hit.tag;
	}
	sluice_tagger_count(port, counters);
	return true;
}

/* DSCP, keeping ECN; IPv4's header checksum follows. */
static bool sluice_dscp_write(struct sk_buff *skb, u8 dscp)
{
	unsigned int off;
	u8 h[2];

	switch (sluice_ip_header_to_write(skb, &off, h)) {
	case 4:
		if (skb_ensure_writable(skb, off + sizeof(struct iphdr)))
			return false;
		ipv4_change_dsfield((struct iphdr *)(skb->data + off),
				    INET_ECN_MASK, dscp << 2);
		return true;
	case 6:
		if (skb_ensure_writable(skb, off + sizeof(struct ipv6hdr)))
			return false;
		ipv6_change_dsfield((struct ipv6hdr *)(skb->data + off),
				    INET_ECN_MASK, dscp << 2);
		return true;
	default:
		return false;
	}
}

static bool sluice_mpls_tc_write(struct sk_buff *skb, u8 tc)
{
	unsigned int off;
	__be32 *p;
	u32 lse;

	if (!sluice_mpls_lse(skb, &off, &lse) ||
	    skb_ensure_writable(skb, off + sizeof(*p)))
		return false;
	p = (__be32 *)(skb->data + off);
	*p = htonl((lse & ~MPLS_LS_TC_MASK) | tc << MPLS_LS_TC_SHIFT);
	return true;
}

/* The outer VLAN tag: offloaded, or the first one in the frame. */
static bool sluice_pcp_write(struct sk_buff *skb, u8 pcp)
{
	struct vlan_ethhdr *veth;
	u16 tci;

	if (skb_vlan_tag_present(skb)) {
		tci = skb_vlan_tag_get(skb) & ~VLAN_PRIO_MASK;
		__vlan_hwaccel_put_tag(skb, skb->vlan_proto,
				       tci | pcp << VLAN_PRIO_SHIFT);
		return true;
	}
	if (skb_ensure_writable(skb, VLAN_ETH_HLEN))
		return false;
	veth = (struct vlan_ethhdr *)skb->data;
	if (!eth_type_vlan(veth->h_vlan_proto))
		return false;
	tci = ntohs(veth->h_vlan_TCI) & ~VLAN_PRIO_MASK;
	veth->h_vlan_TCI = htons(tci | pcp << VLAN_PRIO_SHIFT);
	return true;
}

/*
 * Under the qdisc lock: skb_ensure_writable() may copy the headers
 * (GFP_ATOMIC) but neither sleeps nor sends.  A receive checksum that
 * covered the old tag (CHECKSUM_COMPLETE) no longer holds: it is dropped,
 * as forwarding does (skb_forward_csum).
 */
void sluice_tagger_retag(struct Qdisc *sch, struct sk_buff *skb,
			 const struct sluice_tag_result *t)
{
	const struct sluice_port *port =
		((struct sluice_sched *)qdisc_priv(sch))->port;
	bool done;

	/* Only a port classifies by the maps: its lock is the root lock. */
	lockdep_assert_held(qdisc_lock(sch));
	switch (t->source) {
	case SLUICE_TAG_SOURCE_DSCP:
		done = sluice_dscp_write(skb, t->new_tag);
		break;
	case SLUICE_TAG_SOURCE_MPLS_TC:
		done = sluice_mpls_tc_write(skb, t->new_tag);
		break;
	case SLUICE_TAG_SOURCE_PCP:
		done = sluice_pcp_write(skb, t->new_tag);
		break;
	default:
		done = false;
		break;
	}
	if (done)
		skb_forward_csum(skb);
	sluice_tagger_count(port, done ? BIT(SLUICE_SW_RETAGGED) :
					 BIT(SLUICE_SW_RETAG_FAILED));
}
