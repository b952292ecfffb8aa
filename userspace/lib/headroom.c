// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PFC headroom, after eq. (1) of the Tagger paper, "Practical PFC Deadlock
 * Prevention in Datacenter Networks", section 3.3 "Limited Number of
 * Lossless Queues".
 */
#include <errno.h>
#include <stdint.h>
#include <sluice/headroom.h>

typedef unsigned __int128 u128;

#define NS_PER_S	1000000000u

/**
 * sluice_headroom_bytes() - the PFC headroom of one port and priority
 * @h:		the inputs rate, cable_m, mtu and response; the terms and the
 *		result are filled in
 *
 * When a port decides to pause its upstream neighbour for a priority, that
 * neighbour keeps sending for a while; the port must have room for all of
 * it, the headroom, or lose frames of a lossless priority.  Tagger adds up
 * the time until the last of it has arrived, with r the link's rate:
 *
 *   t_snd   = (s_MTU + s_PFC) / r  the PFC frame waits behind a frame of
 *                                  MTU size that has just started to leave,
 *                                  then is sent itself;
 *   t_wire                         it propagates over the cable;
 *   t_rev   = s_PFC / r            the neighbour receives it;
 *   t_pro                          the neighbour processes it, at most 60
 *                                  quanta of 512 bit times (IEEE 802.1Qbb);
 *   t_stop  = s_MTU / r            the neighbour stops only at a frame's end,
 *                                  and may just have started an MTU frame;
 *   t_wire                         what it sent last is still on the cable.
 *
 * The headroom is what the port receives meanwhile, r times their sum:
 *
 *   b_hr = 2 * (s_MTU + s_PFC + r * t_wire) + r * t_pro          (1)
 *
 * with s_PFC = 64 bytes, t_wire = 5 ns per metre of copper cable ("every
 * 100 meters of link delays the reception of a packet by about 500ns") and
 * r * t_pro = response * 512 bits.  The paper's example, 40 Gbit/s, 300 m
 * and an MTU of 1500 bytes, gives 2 * (1500 + 64 + 7500) + 3840 = 21968
 * bytes.  Every term is kept exact, in billionths of a bit; the result is
 * rounded up to whole bytes.
 *
 * The formula counts what a port receives, not its buffer's overheads:
 * @mtu is the largest frame as the buffer counts it.
 *
 * Return: 0, or -ERANGE if the headroom does not fit 64 bits.
 */
int sluice_headroom_bytes(struct sluice_headroom *h)
{
	u128 wire, total, bytes;

	h->wire_ns = (__u64)h->cable_m * SLUICE_CABLE_NS_PER_M;
	/* r * t_wire in billionths of a bit: bits/s times ns. */
	wire = (u128)h->rate * h->wire_ns;
	h->response_bits = (__u64)h->response * SLUICE_QUANTUM_BITS;
	total = 2 * ((u128)8 * ((u128)h->mtu + SLUICE_PFC_FRAME_BYTES) *
		     NS_PER_S + wire) +
		(u128)h->response_bits * NS_PER_S;
	bytes = (total + (u128)8 * NS_PER_S - 1) / ((u128)8 * NS_PER_S);
	if (wire / NS_PER_S > UINT64_MAX || total / NS_PER_S > UINT64_MAX)
		return -ERANGE;
	h->wire_bits = wire / NS_PER_S;
	h->wire_nbits = wire % NS_PER_S;
	h->total_bits = total / NS_PER_S;
	h->total_nbits = total % NS_PER_S;
	h->bytes = bytes;
	return 0;
}

/**
 * sluice_xoff_auto() - PFC thresholds that leave room for the headroom
 * @h:		the inputs of sluice_headroom_bytes(), which is called on it
 * @limit:	the class limit, bytes
 * @xoff:	set to @limit - headroom
 * @xon:	set to *@xoff - @h->mtu, or 0 if that is less
 *
 * A lossless class must not lose what its upstream neighbour still sends
 * after being paused: up to the headroom, h->bytes.  The port pauses when
 * a priority's ingress account crosses xoff and drops only past xoff +
 * headroom or at the class limit, so the largest xoff that can never
 * drop is the one at which what is left of the limit still covers the
 * headroom, the bytes in flight during one pause round trip:
 *
 *   xoff = limit - b_hr
 *
 * A smaller xoff pauses earlier than needed and wastes buffer; a larger
 * one loses frames when the class is full.  xon sits one largest frame
 * below xoff, so that one frame leaving does not resume the neighbour only
 * for the next arriving one to pause it again.
 *
 * Return: 0; -ENOSPC if @limit is not above the headroom (h->bytes is set,
 * *@xoff and *@xon are not), or -ERANGE from sluice_headroom_bytes().
 */
int sluice_xoff_auto(struct sluice_headroom *h, __u32 limit, __u32 *xoff,
		     __u32 *xon)
{
	int ret;

	ret = sluice_headroom_bytes(h);
	if (ret)
		return ret;
	if (h->bytes >= limit)
		return -ENOSPC;
	*xoff = limit - h->bytes;
	*xon = *xoff > h->mtu ? *xoff - h->mtu : 0;
	return 0;
}
