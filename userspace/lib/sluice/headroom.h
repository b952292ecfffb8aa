/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PFC headroom a port needs per lossless priority: what the upstream
 * port can still send after this one decided to pause it.
 */
#ifndef _SLUICE_HEADROOM_H
#define _SLUICE_HEADROOM_H

#include <linux/types.h>

/* The size of a PFC frame on the wire, s_PFC: a minimum Ethernet frame. */
#define SLUICE_PFC_FRAME_BYTES		64
/* Propagation delay of copper cable, ns per metre (Tagger: 500 ns/100 m). */
#define SLUICE_CABLE_NS_PER_M		5
/* A pause quantum is the time to send 512 bits at the link's rate. */
#define SLUICE_QUANTUM_BITS		512
/* IEEE 802.1Qbb caps a port's reaction to a PFC frame at 60 quanta. */
#define SLUICE_PFC_RESPONSE_QUANTA	60
/* The longest cable the tools take, metres, and "xoff auto"'s default. */
#define SLUICE_CABLE_MAX_M		100000
#define SLUICE_CABLE_DEFAULT_M		100

/*
 * The inputs of eq. (1) of Tagger, which the caller sets, and its terms,
 * which sluice_headroom_bytes() fills in.  A term that is not a whole number
 * of bits is split into whole bits and billionths of a bit.
 */
struct sluice_headroom {
	__u64	rate;		/* r, the link's rate, bits/s */
	__u32	cable_m;	/* length of the link, metres */
	__u32	mtu;		/* s_MTU, the largest frame, bytes */
	__u32	response;	/* t_pro, the upstream's reaction, quanta */

	__u64	wire_ns;	/* t_wire */
	__u64	wire_bits;	/* r * t_wire, whole bits ... */
	__u32	wire_nbits;	/* ... and billionths of a bit */
	__u64	response_bits;	/* r * t_pro */
	__u64	total_bits;	/* b_hr, whole bits ... */
	__u32	total_nbits;	/* ... and billionths of a bit */
	__u64	bytes;		/* b_hr rounded up to whole bytes */
};

int sluice_headroom_bytes(struct sluice_headroom *h);
int sluice_xoff_auto(struct sluice_headroom *h, __u32 limit, __u32 *xoff,
		     __u32 *xon);

#endif /* _SLUICE_HEADROOM_H */
