// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the tag a frame is classified by.  A root qdisc sees the frame
 * from its Ethernet header on (__dev_queue_xmit resets the mac header to
 * skb->data), and sluice only attaches to Ethernet devices, so offsets
 * here are from skb->data.  Headers are read with skb_header_pointer:
 * nothing is assumed linear and nothing is written.
 */
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <uapi/linux/mpls.h>

#include "sluice.h"

/* How many in-frame VLAN tags to look through for the payload type. */
#define SLUICE_VLAN_DEPTH	2

/* The EtherType after up to two VLAN tags, and the payload offset. */
static __be16 payload_type(const struct sk_buff *skb, unsigned int *off)
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

static int pcp_read(const struct sk_buff *skb)
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

static int dscp_read(const struct sk_buff *skb)
{
	unsigned int off;
	u8 buf[2];
	const u8 *h;

	switch (payload_type(skb, &off)) {
	case htons(ETH_P_IP):
		h = skb_header_pointer(skb, off, sizeof(buf), buf);
		if (!h || h[0] >> 4 != 4)
			return -1;
		return h[1] >> 2;
	case htons(ETH_P_IPV6):
		/* Version 4 bits, traffic class 8 bits across two bytes. */
		h = skb_header_pointer(skb, off, sizeof(buf), buf);
		if (!h || h[0] >> 4 != 6)
			return -1;
		return (((h[0] & 0x0f) << 4) | (h[1] >> 4)) >> 2;
	default:
		return -1;
	}
}

static int mpls_tc_read(const struct sk_buff *skb)
{
	unsigned int off;
	__be32 buf;
	const __be32 *lse;

	switch (payload_type(skb, &off)) {
	case htons(ETH_P_MPLS_UC):
	case htons(ETH_P_MPLS_MC):
		lse = skb_header_pointer(skb, off, sizeof(buf), &buf);
		if (!lse)
			return -1;
		return (ntohl(*lse) & MPLS_LS_TC_MASK) >> MPLS_LS_TC_SHIFT;
	default:
		return -1;
	}
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
		return pcp_read(skb);
	case TC_SLUICE_TAG_DSCP:
		return dscp_read(skb);
	case TC_SLUICE_TAG_MPLS_TC:
		return mpls_tc_read(skb);
	default:
		return -1;
	}
}
