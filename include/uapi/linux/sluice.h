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
 * Class dumps carry TCA_SLUICE_CLASS_LIMIT, the standard basic and queue stats
 * (bytes, packets, drops, backlog, qlen), and struct tc_sluice_xstats with
 * type TC_SLUICE_XSTATS_CLASS.  Classes cannot be created, deleted or
 * grafted: their number is TCA_SLUICE_CLASSES and their queues are internal
 * FIFOs, which later pause and accounting logic needs to own.
 *
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
	__TCA_SLUICE_MAX,
};

#define TCA_SLUICE_MAX (__TCA_SLUICE_MAX - 1)

/* Class options (TCA_OPTIONS of a class). */
enum {
	TCA_SLUICE_CLASS_UNSPEC,
	TCA_SLUICE_CLASS_LIMIT,		/* u32, bytes, 1..MAX_LIMIT */
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
};

struct tc_sluice_class_xstats {
	__u64	limit_drops;	/* frames tail-dropped at this class's limit */
	__u32	peak_backlog;	/* highest backlog seen, bytes */
	__u32	reserved;
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
