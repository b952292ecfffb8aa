// SPDX-License-Identifier: GPL-2.0
/*
 * The control-frame codec: every MAC control frame sluice builds or reads
 * goes through here, so the wire format lives in one place.  Today that is
 * IEEE 802.1Qbb PFC (opcode 0x0101: a priority-enable vector and eight
 * times) and IEEE 802.3x PAUSE (opcode 0x0001: one time for the link).
 * Times are in quanta of 512 bit times.
 *
 * Both standards send to the reserved multicast address 01:80:c2:00:00:01;
 * 802.3x also lets a station be paused at its own unicast address.  Frames
 * to any other address are not control frames for this port and are
 * reported as malformed: a packet handler for EtherType 0x8808 sees every
 * frame of that type the device receives, whatever its destination.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "sluice.h"

#define SLUICE_PAUSE_OPCODE	0x0001
#define SLUICE_PFC_OPCODE	0x0101
/* Opcode, enable vector, eight times: 20 bytes of the 46 a frame carries. */
#define SLUICE_PFC_WORDS	(2 + SLUICE_NR_PRIOS)

/* PortFC's signals (portfc.c) go there too: no bridge forwards it. */
const u8 sluice_ctrl_dst[ETH_ALEN] __aligned(2) = {
	0x01, 0x80, 0xc2, 0x00, 0x00, 0x01
};

/* One quantum is the time to send 512 bits at the link's rate. */
u64 sluice_quanta_ns(u32 quanta, u64 rate)
{
	return div64_u64((u64)quanta * 512 * NSEC_PER_SEC, rate);
}

/*
 * A control frame from @dev to sluice_ctrl_dst, of EtherType @proto, with
 * @len bytes of zeroed payload after the Ethernet header (the frame at
 * least ETH_ZLEN long), ready to send; *payload points at it.  GFP_ATOMIC:
 * the signal sender's timer runs in softirq context.
 */
struct sk_buff *sluice_ctrl_alloc(struct net_device *dev, u16 proto,
				  unsigned int len, void **payload)
{
	struct sk_buff *skb;
	struct ethhdr *eth;

	len = max_t(unsigned int, len, ETH_ZLEN - ETH_HLEN);
	skb = alloc_skb(LL_RESERVED_SPACE(dev) + ETH_HLEN + len, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, sluice_ctrl_dst);
	ether_addr_copy(eth->h_source, dev->dev_addr);
	eth->h_proto = htons(proto);
	*payload = skb_put_zero(skb, len);
	skb_reset_mac_header(skb);
	skb->dev = dev;
	skb->protocol = htons(proto);
	skb->priority = TC_PRIO_CONTROL;
	return skb;
}

/*
 * A PFC frame from @dev: @enable names the priorities it speaks for,
 * @xoff those of them it pauses for @quanta (the others it resumes).
 */
struct sk_buff *sluice_ctrl_build_pfc(struct net_device *dev, u8 enable,
				      u8 xoff, u16 quanta)
{
	struct sk_buff *skb;
	unsigned int prio;
	__be16 *p;

	skb = sluice_ctrl_alloc(dev, ETH_P_PAUSE,
				SLUICE_PFC_WORDS * sizeof(*p), (void **)&p);
	if (!skb)
		return NULL;
	p[0] = htons(SLUICE_PFC_OPCODE);
	p[1] = htons(enable);
	for (prio = 0; prio < SLUICE_NR_PRIOS; prio++)
		p[2 + prio] = htons(xoff & BIT(prio) ? quanta : 0);
	return skb;
}

/*
 * Decodes a received MAC control frame (skb->data after the EtherType,
 * the MAC header set, as a packet handler gets it) arriving on @dev.
 * Returns false if it is not a well-formed PFC or PAUSE frame for this
 * port: too short, another opcode, or another destination.
 */
bool sluice_ctrl_parse(const struct sk_buff *skb, const struct net_device *dev,
		       struct sluice_ctrl *c)
{
	const u8 *dst = eth_hdr(skb)->h_dest;
	__be16 buf[SLUICE_PFC_WORDS];
	const __be16 *p;
	unsigned int prio;

	p = skb_header_pointer(skb, 0, sizeof(__be16), buf);
	if (!p)
		return false;
	switch (ntohs(p[0])) {
	case SLUICE_PFC_OPCODE:
		if (!ether_addr_equal(dst, sluice_ctrl_dst))
			return false;
		p = skb_header_pointer(skb, 0, sizeof(buf), buf);
		if (!p)
			return false;
		c->kind = SLUICE_CTRL_PFC;
		/* The vector's high octet is reserved: ignored, as 802.1Qbb says. */
		c->enable = ntohs(p[1]) & 0xff;
		for (prio = 0; prio < SLUICE_NR_PRIOS; prio++)
			c->quanta[prio] = ntohs(p[2 + prio]);
		return true;
	case SLUICE_PAUSE_OPCODE:
		if (!ether_addr_equal(dst, sluice_ctrl_dst) &&
		    !ether_addr_equal(dst, dev->dev_addr))
			return false;
		p = skb_header_pointer(skb, 0, 2 * sizeof(__be16), buf);
		if (!p)
			return false;
		c->kind = SLUICE_CTRL_PAUSE;
		c->enable = 0;
		c->quanta[0] = ntohs(p[1]);
		return true;
	default:
		return false;
	}
}

/* The slow half of sluice_ctrl_is_ctrl(): skb->protocol said 0x8808. */
bool __sluice_ctrl_is_ctrl(const struct sk_buff *skb)
{
	__be16 buf;
	const __be16 *type;

	type = skb_header_pointer(skb, offsetof(struct ethhdr, h_proto),
				  sizeof(buf), &buf);
	return type && *type == skb->protocol;
}
