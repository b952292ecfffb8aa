// SPDX-License-Identifier: GPL-2.0
/*
 * In-band telemetry (uapi: "In-band telemetry"): a port whose INT port is
 * set writes its state into the next free record of every probe it
 * dequeues, for FaCa's hosts to read the load of the path the probe took.
 * The probe keeps its length, and its UDP checksum follows the bytes
 * written.  Stamping runs at dequeue under the port's qdisc lock: the frame
 * is made private and writable with GFP_ATOMIC (skb_ensure_writable), and
 * nothing here sleeps or sends.
 */
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/checksum.h>
#include <net/ip.h>
#include <asm/unaligned.h>

#include "sluice.h"

DEFINE_STATIC_KEY_FALSE(sluice_int_used);

/* The header's bytes a port changes: version, nrec, nused, flags. */
#define SLUICE_INT_HDR_WORD	offsetof(struct sluice_int_hdr, version)

/* A probe found in a frame: offsets from skb->data, and its header. */
struct sluice_int_probe {
	unsigned int		ip;
	unsigned int		udp;
	unsigned int		hdr;
	struct sluice_int_hdr	h;
};

/* The IPv4 header's bytes up to its protocol: all the filter reads. */
#define SLUICE_INT_IP_PART	(offsetof(struct iphdr, protocol) + 1)

/*
 * Whether @skb is UDP over IPv4 to @port, and where its IP and UDP headers
 * are: the EtherType, the IPv4 version, protocol and fragment offset (a
 * later fragment has no UDP header), then the port.  What every frame of
 * an INT port pays, so an untagged frame is read in place; a tagged or
 * labelled one where DSCP classification finds its IP header.
 */
static bool sluice_int_to_port(const struct sk_buff *skb, u16 port,
			       unsigned int *ip, unsigned int *udp)
{
	u8 iph_buf[SLUICE_INT_IP_PART], first[2];
	const __be16 *word;
	const u8 *iph;
	__be16 buf;

	word = skb_header_pointer(skb, offsetof(struct ethhdr, h_proto), 2, &buf);
	if (!word)
		return false;
	*ip = ETH_HLEN;
	if (*word != htons(ETH_P_IP) &&
	    ((!eth_type_vlan(*word) && !sluice_is_mpls(*word)) ||
	     sluice_ip_find(skb, ip, first) != 4))
		return false;
	iph = skb_header_pointer(skb, *ip, sizeof(iph_buf), iph_buf);
	if (!iph || iph[0] >> 4 != 4 || (iph[0] & 0x0f) < 5 ||
	    iph[offsetof(struct iphdr, protocol)] != IPPROTO_UDP ||
	    get_unaligned((__be16 *)&iph[offsetof(struct iphdr, frag_off)]) &
	    htons(IP_OFFSET))
		return false;
	*udp = *ip + (iph[0] & 0x0f) * 4;
	word = skb_header_pointer(skb, *udp + offsetof(struct udphdr, dest),
				  2, &buf);
	return word && *word == htons(port);
}

/*
 * Whether a frame to the INT port is a probe (uapi), its header then in
 * @p->h.  The IPv4 header must hold together before its lengths are
 * trusted: under labels, what looked like one may be something else.
 */
static bool sluice_int_valid(const struct sk_buff *skb,
			     struct sluice_int_probe *p)
{
	const struct sluice_int_hdr *h = &p->h;
	const struct udphdr *uh;
	const struct iphdr *iph;
	struct udphdr uh_buf;
	struct iphdr iph_buf;
	unsigned int len;

	iph = skb_header_pointer(skb, p->ip, sizeof(iph_buf), &iph_buf);
	uh = skb_header_pointer(skb, p->udp, sizeof(uh_buf), &uh_buf);
	if (!iph || !uh || skb_is_gso(skb) || iph->frag_off & htons(IP_MF) ||
	    !sluice_ip_plausible(skb, p->ip, 4))
		return false;
	len = ntohs(uh->len);
	p->hdr = p->udp + sizeof(*uh);
	if (len < sizeof(*uh) + sizeof(*h) ||
	    len > ntohs(iph->tot_len) - iph->ihl * 4 ||
	    skb_copy_bits(skb, p->hdr, &p->h, sizeof(p->h)))
		return false;
	return h->magic == htonl(SLUICE_INT_MAGIC) &&
	       h->version == SLUICE_INT_VERSION &&
	       h->nrec && h->nrec <= SLUICE_INT_MAX_RECS && h->nused <= h->nrec &&
	       len >= sizeof(*uh) + sizeof(*h) +
		      h->nrec * sizeof(struct sluice_int_rec);
}

/*
 * The record port @sch writes for a probe that has just left class @cl:
 * backlogs without it, the bytes sent before it.
 */
static void sluice_int_record(struct Qdisc *sch, const struct sluice_class *cl,
			      const struct sluice_int_hdr *h,
			      struct sluice_int_rec *rec)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned int c;
	u64 paused_ns;

	if (h->prio == SLUICE_INT_PRIO_OWN)
		c = cl - q->classes;
	else
		c = h->prio < SLUICE_NR_PRIOS ? q->prio_class[h->prio] :
						SLUICE_PRIO_NONE;
	memset(rec, 0, sizeof(*rec));
	rec->node = htonl(q->cfg.int_node);
	rec->ifindex = htonl(qdisc_dev(sch)->ifindex);
	rec->link = htonl(q->cfg.int_link);
	rec->port_backlog = htonl(sch->qstats.backlog);
	/* No class for the priority here (or no such priority): class 255. */
	rec->class = SLUICE_PRIO_NONE;
	if (c < q->cfg.nclasses) {
		rec->class = c;
		rec->backlog = htonl(q->classes[c].qstats.backlog);
		rec->paused = q->paused & BIT(c) &&
			      sluice_class_paused(q, c, ktime_get_ns(),
						  &paused_ns);
	}
	rec->tx_bytes = cpu_to_be64(u64_stats_read(&sch->bstats.bytes));
	rec->ts_ns = cpu_to_be64(ktime_get_real_ns());
	rec->rate = cpu_to_be64(q->cfg.rate);
}

/*
 * Copies @len bytes from @data over the writable frame at @off, and
 * returns what that changes in the ones' complement sum of the datagram.
 * Every place written starts at an even offset from the UDP header, so
 * the sums of the old and new bytes are in step with the datagram's.
 */
static __wsum sluice_int_write(struct sk_buff *skb, unsigned int off,
			       const void *data, unsigned int len)
{
	u8 *at = skb->data + off;
	__wsum diff = csum_sub(csum_partial(data, len, 0),
			       csum_partial(at, len, 0));

	memcpy(at, data, len);
	return diff;
}

/*
 * The UDP checksum after bytes of the datagram changed by @diff.  With
 * CHECKSUM_PARTIAL the checksum is yet to be computed, over the bytes as
 * they leave: nothing to do.  A checksum of 0 says there is none, and
 * stays.  Otherwise it moves against @diff, so that the datagram's sum is
 * unchanged, and so is a CHECKSUM_COMPLETE skb->csum over it (a frame
 * mirred from an ingress can carry one); without a checksum the datagram's
 * sum, and skb->csum with it, moves by @diff.
 */
static void sluice_int_csum(struct sk_buff *skb, struct udphdr *uh,
			    __wsum diff)
{
	if (skb->ip_summed == CHECKSUM_PARTIAL)
		return;
	if (!uh->check) {
		if (skb->ip_summed == CHECKSUM_COMPLETE)
			skb->csum = csum_add(skb->csum, diff);
		return;
	}
	csum_replace_by_diff(&uh->check, diff);
	if (!uh->check)
		uh->check = CSUM_MANGLED_0;
}

/*
 * A frame to the INT port, its IP and UDP headers at @ip and @udp: stamped
 * if it is a probe.  Apart, and not inlined, so that its buffers cost only
 * such frames.
 */
static noinline void sluice_int_probe(struct Qdisc *sch,
				      struct sluice_class *cl,
				      struct sk_buff *skb, unsigned int ip,
				      unsigned int udp)
{
	struct sluice_int_probe probe = { .ip = ip, .udp = udp }, *p = &probe;
	struct sluice_sched *q = qdisc_priv(sch);
	struct sluice_int_hdr *h = &p->h;
	struct sluice_int_rec rec;
	unsigned int rec_off;
	bool full;
	__wsum diff;

	BUILD_BUG_ON(offsetofend(struct sluice_int_hdr, flags) -
		     SLUICE_INT_HDR_WORD != 4);
	if (!sluice_int_valid(skb, p)) {
		q->int_malformed++;
		return;
	}
	full = h->nused == h->nrec;
	if (full && h->flags & SLUICE_INT_F_FULL) {
		q->int_full++;
		return;
	}
	/* A full stack gets its flag, and nothing else is written. */
	rec_off = p->hdr + sizeof(*h) + h->nused * sizeof(rec);
	if (skb_ensure_writable(skb, full ? p->hdr + sizeof(*h) :
					    rec_off + sizeof(rec))) {
		q->int_unwritable++;
		return;
	}
	if (full) {
		h->flags |= SLUICE_INT_F_FULL;
		q->int_full++;
	} else {
		sluice_int_record(sch, cl, h, &rec);
		h->nused++;
		q->int_stamped++;
	}
	diff = sluice_int_write(skb, p->hdr + SLUICE_INT_HDR_WORD,
				(u8 *)h + SLUICE_INT_HDR_WORD, 4);
	if (!full)
		diff = csum_add(diff, sluice_int_write(skb, rec_off, &rec,
						       sizeof(rec)));
	sluice_int_csum(skb, (struct udphdr *)(skb->data + p->udp), diff);
}

void __sluice_int_stamp(struct Qdisc *sch, struct sluice_class *cl,
			struct sk_buff *skb)
{
	struct sluice_sched *q = qdisc_priv(sch);
	unsigned int ip, udp;

	/* Only a port stamps (sluice_int_check()): its lock is the root lock. */
	lockdep_assert_held(qdisc_lock(sch));
	if (sluice_int_to_port(skb, q->cfg.int_port, &ip, &udp))
		sluice_int_probe(sch, cl, skb, ip, udp);
}

/* What INT needs of the qdisc: a port, so records name a device's egress. */
int sluice_int_check(struct Qdisc *sch, const struct sluice_config *cfg,
		     struct netlink_ext_ack *extack)
{
	if (cfg->int_port && sch->parent != TC_H_ROOT) {
		SLUICE_ERR(extack, NULL, "int-port needs sluice as the root qdisc");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * Takes (@on) or drops @sch's hold on sluice_int_used; idempotent.
 * Switching a static key patches code and may sleep: init, change and
 * destroy call it under RTNL, never under the qdisc's lock.  A change
 * takes the hold before its INT port is committed and drops it after, so
 * the datapath never finds a port set with the key off.
 */
void sluice_int_hold(struct Qdisc *sch, bool on)
{
	struct sluice_sched *q = qdisc_priv(sch);

	ASSERT_RTNL();
	if (on == q->int_keyed)
		return;
	if (on)
		static_branch_inc(&sluice_int_used);
	else
		static_branch_dec(&sluice_int_used);
	q->int_keyed = on;
}
