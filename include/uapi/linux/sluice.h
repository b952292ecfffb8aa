/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sluice: a classful qdisc for lossless Ethernet on Linux software switches.
 *
 * This is the whole userspace ABI of sch_sluice.ko.  It is read by tc's
 * q_sluice.so plugin, by libsluice and by sluicectl.  Attribute numbers and
 * struct layouts are append-only: new fields go at the end, nothing is ever
 * renumbered.
 *
 * Qdisc
 * -----
 * A sluice qdisc holds TCA_SLUICE_CLASSES traffic classes (1..16, default 8).
 * Class i is the tc class with minor number i + 1 (handle 1: gives classes
 * 1:1 .. 1:N), the convention of prio and ets.  Each class is a FIFO bounded
 * in bytes (TCA_SLUICE_LIMIT); a frame that does not fit is tail-dropped and
 * counted in the class's drops and in the limit_drops xstats.
 *
 * Dequeue is strict priority in the sense of IEEE 802.1Q: the highest
 * numbered non-empty class is served first, so with the default maps PCP 7
 * (network control) beats PCP 0 (best effort).  This is the opposite of the
 * band order of prio and ets, and is what PFC, whose class-enable vector
 * names priorities 0..7, expects.
 *
 * Classification reads one tag from each frame, chosen by TCA_SLUICE_TAG:
 *
 *   TC_SLUICE_TAG_PRIORITY  skb->priority, as prio and ets read it: a value
 *                           whose major number is the qdisc's handle names
 *                           a class directly (1:3 is class 2; a minor
 *                           beyond the classes goes to TCA_SLUICE_DEFAULT),
 *                           any other value indexes the priority map with
 *                           its low four bits
 *   TC_SLUICE_TAG_PCP       802.1Q PCP of the outer VLAN tag (offloaded tag
 *                           or in the frame)
 *   TC_SLUICE_TAG_DSCP      DSCP of an IPv4 or IPv6 header, after up to two
 *                           VLAN tags
 *   TC_SLUICE_TAG_MPLS_TC   traffic class bits of the top MPLS label
 *
 * and maps it to a class through the map of that tag source.  A frame that
 * carries no such tag (an untagged frame under PCP, ARP under DSCP, IP under
 * MPLS TC) goes to TCA_SLUICE_DEFAULT (default 0) and is counted in the
 * untagged xstats.  skb->priority always exists, so the priority source
 * never counts untagged frames.
 *
 * Maps
 * ----
 * TCA_SLUICE_{PCP,DSCP,MPLS_TC,PRIO}_MAP are nests of TCA_SLUICE_MAP_ENTRY
 * attributes, each a struct tc_sluice_map_entry (tag value -> class).  Every
 * map is kept whichever tag source is active, so switching the source with
 * "tc qdisc change" does not lose a map.  On change, the entries given are
 * merged into the current map; the others keep their value.  Dumps carry
 * every entry of every map.
 *
 * The default maps spread the tag's range over the classes in order:
 * value v of a field with R values goes to class v * N / R.  With 8 classes
 * that is PCP p -> p, MPLS TC t -> t, DSCP d -> d >> 3 (the class selector)
 * and priority p -> p / 2.  A default map follows a change of
 * TCA_SLUICE_CLASSES (it is recomputed).  Setting any entry of a map makes
 * it the user's: it is kept as it is, and a change that would leave one of
 * its entries naming a missing class is rejected.  TCA_SLUICE_DEFAULT_MAPS
 * (u8, BIT(enum tc_sluice_tag) per map) says in dumps which maps are still
 * default, and in requests which maps to return to the default; a request
 * cannot both reset a map and set its entries.  Shrinking the class count
 * drops the frames queued in the removed classes and counts them as drops
 * of the qdisc.
 *
 * Classes
 * -------
 * Classes have their own attributes, TCA_SLUICE_CLASS_*, inside the
 * TCA_OPTIONS of "tc class change" and of class dumps.  A class's limit
 * (TCA_SLUICE_CLASS_LIMIT) can be set alone; a qdisc-level TCA_SLUICE_LIMIT
 * sets every class's limit.  Lowering a limit below a class's backlog
 * drops nothing: the class takes no new frame until it drains below it.
 * A GSO frame larger than its class's limit is segmented into the frames
 * it stands for, which are queued one by one (those that do not fit are
 * tail-dropped), so a small buffer does not refuse TSO traffic outright.
 *
 * ECN: a class with TCA_SLUICE_CLASS_ECN K marks CE on every ECT frame
 * (IPv4 or IPv6) that arrives while the class holds more than K bytes:
 * DCTCP's step marking on the instantaneous queue, which TCP-Bolt uses.
 *
 * Scheduling: classes with TCA_SLUICE_CLASS_QUANTUM 0 (the default) are
 * strict, served highest first; when no strict class can send, the
 * classes with a quantum share the link by deficit weighted round robin
 * (as ets: each turn adds the quantum, in bytes, to the class's deficit;
 * 256 bytes at least).  Paused classes are skipped and keep their deficit.
 *
 * Class dumps carry the TCA_SLUICE_CLASS_* options, the standard basic and queue stats
 * (bytes, packets, drops, backlog, qlen), and struct tc_sluice_xstats with
 * type TC_SLUICE_XSTATS_CLASS.  Classes cannot be created, deleted or
 * grafted: their number is TCA_SLUICE_CLASSES and their queues are internal
 * FIFOs, which later pause and accounting logic needs to own.
 *
 * PFC (IEEE 802.1Qbb) and the link
 * --------------------------------
 * A port is a net device with a sluice root qdisc; all sluice qdiscs of a
 * network namespace form one switch.  PFC priority p is class p (p < 8).
 *
 * TCA_SLUICE_RATE is the link's rate in bits/s: the port transmits at that
 * rate (counting the frame as the qdisc sees it), so queues build as on a
 * real link, and pause times in quanta (1 quantum = 512 bit times) are
 * converted with it.  0 (the default) leaves the port unshaped; a port
 * without a rate cannot take PFC settings, and the pause frames it
 * receives are consumed and counted as untrusted: it has no time base for
 * quanta.
 *
 * Pause reception: frames with EtherType 0x8808 arriving on a port whose
 * TCA_SLUICE_PAUSE_RX is 1 (the default) pause its egress classes: PFC
 * (opcode 0x0101) the classes whose bit is set in the class-enable vector,
 * for the time given for each (0 resumes at once), 802.3x PAUSE (opcode
 * 0x0001) every class.  Each frame restarts the class's timer; expiry
 * resumes the class on its own.  A paused class never blocks another.
 * The frames are consumed.  Frames that are too short or have another
 * opcode are counted as malformed, those arriving with TCA_SLUICE_PAUSE_RX
 * 0 or no rate as untrusted; neither acts.  A class's pfc_rx counts the
 * pauses (time > 0, PFC or 802.3x) it received, xon_rx the resumes.
 *
 * Pause generation: the priority of a frame is the class its egress port
 * puts it in (ports configured alike agree on it).  A frame that arrived
 * on port I (skb->skb_iif) is charged to I's ingress account for its
 * priority while it sits in any egress queue of the same switch.  For the
 * priorities in I's TCA_SLUICE_PFC bitmap (default none; needs a root
 * qdisc, a rate and TCA_SLUICE_XOFF > 0), crossing I's TCA_SLUICE_XOFF
 * bytes sends a PFC frame on I pausing the priority for
 * TCA_SLUICE_PAUSE_TIME quanta (1..65535, default 65535), refreshed at half
 * that time while the account stays at or above TCA_SLUICE_XON (<= XOFF);
 * falling below XON, or draining to 0, sends time 0.  Control frames leave
 * ahead of data and are never paused.  A qdisc that goes away resumes what
 * it paused.
 *
 * A lossless class (its priority in the egress port's PFC bitmap) relies
 * on pauses rather than its limit: it drops a frame only when the frame's
 * ingress account would pass the ingress port's XOFF + TCA_SLUICE_HEADROOM
 * (HEADROOM 0, the default, sets no such bound) or when the class is full.
 * Such drops are counted as headroom drops and logged once per port,
 * since they mean the headroom or the limits are misconfigured.  Lossy
 * classes tail-drop at their limit (limit_drops).

 * Errors
 * ------
 * Every rejected request carries an extack message naming the offending
 * option; nothing of a rejected request is applied.
 */
#ifndef _UAPI_LINUX_SLUICE_H
#define _UAPI_LINUX_SLUICE_H

#include <linux/types.h>

#define TC_SLUICE_MAX_CLASSES		16
#define TC_SLUICE_DEFAULT_CLASSES	8

/*
 * The largest class limit in bytes: the backlog of every class full must
 * fit the kernel's 32-bit qdisc backlog counter.
 */
#define TC_SLUICE_MAX_LIMIT	(0xffffffffU / TC_SLUICE_MAX_CLASSES)

/* The smallest DWRR quantum, which bounds the rounds a large frame waits. */
#define TC_SLUICE_MIN_QUANTUM	256

/* Number of values of each tag field, i.e. the size of its map. */
#define TC_SLUICE_PCP_VALUES		8
#define TC_SLUICE_DSCP_VALUES		64
#define TC_SLUICE_MPLS_TC_VALUES	8
#define TC_SLUICE_PRIO_VALUES		16

enum tc_sluice_tag {
	TC_SLUICE_TAG_PRIORITY,
	TC_SLUICE_TAG_PCP,
	TC_SLUICE_TAG_DSCP,
	TC_SLUICE_TAG_MPLS_TC,
	__TC_SLUICE_TAG_MAX,
};

#define TC_SLUICE_TAG_MAX (__TC_SLUICE_TAG_MAX - 1)

/* Qdisc options (TCA_OPTIONS of the qdisc). */
enum {
	TCA_SLUICE_UNSPEC,
	TCA_SLUICE_CLASSES,		/* u8, 1..TC_SLUICE_MAX_CLASSES */
	TCA_SLUICE_TAG,			/* u8, enum tc_sluice_tag */
	TCA_SLUICE_DEFAULT,		/* u8, class of frames without the tag */
	TCA_SLUICE_LIMIT,		/* u32, bytes per class, 1..MAX_LIMIT */
	TCA_SLUICE_PCP_MAP,		/* nest of TCA_SLUICE_MAP_ENTRY */
	TCA_SLUICE_DSCP_MAP,		/* nest of TCA_SLUICE_MAP_ENTRY */
	TCA_SLUICE_MPLS_TC_MAP,		/* nest of TCA_SLUICE_MAP_ENTRY */
	TCA_SLUICE_PRIO_MAP,		/* nest of TCA_SLUICE_MAP_ENTRY */
	TCA_SLUICE_DEFAULT_MAPS,	/* u8, BIT(enum tc_sluice_tag) */
	TCA_SLUICE_PAD,
	TCA_SLUICE_RATE,		/* u64, bits/s; 0: unshaped */
	TCA_SLUICE_PFC,			/* u8, BIT(p): lossless priorities */
	TCA_SLUICE_PAUSE_RX,		/* u8, 1: honour received pauses */
	TCA_SLUICE_XOFF,		/* u32, bytes of ingress account */
	TCA_SLUICE_XON,			/* u32, bytes, <= XOFF */
	TCA_SLUICE_HEADROOM,		/* u32, bytes above XOFF */
	TCA_SLUICE_PAUSE_TIME,		/* u16, quanta in generated XOFF */
	__TCA_SLUICE_MAX,
};

#define TCA_SLUICE_MAX (__TCA_SLUICE_MAX - 1)

/* Class options (TCA_OPTIONS of a class). */
enum {
	TCA_SLUICE_CLASS_UNSPEC,
	TCA_SLUICE_CLASS_LIMIT,		/* u32, bytes, 1..MAX_LIMIT */
	TCA_SLUICE_CLASS_ECN,		/* u32, bytes of backlog; 0: off */
	TCA_SLUICE_CLASS_QUANTUM,	/* u32, DWRR bytes; 0: strict */
	__TCA_SLUICE_CLASS_MAX,
};

#define TCA_SLUICE_CLASS_MAX (__TCA_SLUICE_CLASS_MAX - 1)

/* Inside a map nest. */
enum {
	TCA_SLUICE_MAP_UNSPEC,
	TCA_SLUICE_MAP_ENTRY,		/* struct tc_sluice_map_entry */
	__TCA_SLUICE_MAP_MAX,
};

#define TCA_SLUICE_MAP_MAX (__TCA_SLUICE_MAP_MAX - 1)

/* value is 16 bits wide so that tag sources with more values fit. */
struct tc_sluice_map_entry {
	__u16	value;		/* tag value, below the map's size */
	__u8	tclass;		/* class index, below TCA_SLUICE_CLASSES */
	__u8	reserved;	/* must be 0 */
};

/* TCA_STATS_APP of the qdisc and of each class. */
enum {
	TC_SLUICE_XSTATS_QDISC,
	TC_SLUICE_XSTATS_CLASS,
};

struct tc_sluice_qdisc_xstats {
	__u64	untagged;	/* frames without the tag, sent to default */
	__u64	limit_drops;	/* frames tail-dropped at a class limit */
	/* Since PFC: */
	__u64	pause_rx;	/* 802.3x PAUSE frames honoured */
	__u64	pfc_rx;		/* PFC frames honoured */
	__u64	pfc_tx;		/* PFC frames sent */
	__u64	pause_malformed; /* too short or unknown opcode */
	__u64	pause_untrusted; /* arrived with TCA_SLUICE_PAUSE_RX 0 */
	__u64	headroom_drops;	/* lossless frames dropped */
};

struct tc_sluice_class_xstats {
	__u64	limit_drops;	/* frames tail-dropped at this class's limit */
	__u32	peak_backlog;	/* highest backlog seen, bytes */
	__u32	reserved;
	/* Since PFC; priority p is class p: */
	__u64	pfc_rx;		/* pause frames received for p (time > 0) */
	__u64	xon_rx;		/* pause frames received for p (time 0) */
	__u64	xoff_tx;	/* PFC frames sent pausing p (with refreshes) */
	__u64	xon_tx;		/* PFC frames sent resuming p */
	__u64	paused_us;	/* total time the class was paused */
	__u64	headroom_drops;	/* lossless frames of this class dropped */
	__u32	paused;		/* 1 while the class is paused */
	__u32	ingress_bytes;	/* this port's ingress account for p */
	__u32	ingress_peak;	/* highest ingress account for p */
	__u32	reserved2;
	/* Since ECN: */
	__u64	ecn_marks;	/* frames CE-marked */
};

struct tc_sluice_xstats {
	__u32	type;		/* TC_SLUICE_XSTATS_QDISC or _CLASS */
	__u32	reserved;
	union {
		struct tc_sluice_qdisc_xstats	qdisc;
		struct tc_sluice_class_xstats	cls;
	};
};

#endif /* _UAPI_LINUX_SLUICE_H */
