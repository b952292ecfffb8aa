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
 * A sluice qdisc holds TCA_SLUICE_CLASSES traffic classes (1..32, default 8).
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
 *                           VLAN tags, also under an MPLS label stack (up
 *                           to 32 entries; the header's version nibble
 *                           tells IPv4 from IPv6 there), so a frame whose
 *                           path is pinned by labels keeps its class
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
 * (opcode 0x0101) the classes of the PFC-enabled priorities (the port's
 * TCA_SLUICE_PFC bitmap) whose bit is set in the class-enable vector, for
 * the time given for each (0 resumes at once); 802.3x PAUSE (opcode
 * 0x0001) every class.  As IEEE 802.1Qbb and SONiC's PFC test plan want,
 * lossy priorities are never paused, and the two kinds exclude each other
 * on a link: a port with PFC enabled (TCA_SLUICE_PFC not 0) ignores PAUSE,
 * a port without ignores PFC.  Such frames, and PFC frames that name no
 * PFC-enabled priority, are counted as ignored (pause_ignored).  Each
 * frame restarts the class's timer; expiry resumes the class on its own.
 * A paused class never blocks another.  The frames are consumed.  Frames
 * that are too short, have another opcode, or are sent to another address
 * than 01:80:c2:00:00:01 (for 802.3x, or the port's own) are counted as
 * malformed, those arriving with TCA_SLUICE_PAUSE_RX 0 or no rate as
 * untrusted; neither acts.  A class's pfc_rx counts the pauses (time > 0,
 * PFC or 802.3x) it received, xon_rx the resumes.
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
 * it paused.  A frame is charged before it is admitted, but pauses only
 * once admitted: a frame that is dropped never pauses the upstream.  A
 * pause frame that cannot be queued is retried (counted in pfc_tx_failed)
 * with back-off; while the port's device is down or has no carrier the
 * port sends and retries nothing, and says what is in force once the
 * device is up again.
 *
 * A lossless frame (its priority in the PFC bitmap of its ingress port,
 * the port a pause would stop; for a frame this host sends, of the egress
 * port) relies on pauses rather than its class's limit: it is dropped
 * only when its ingress account would pass the ingress port's XOFF +
 * TCA_SLUICE_HEADROOM (HEADROOM 0, the default, sets no such bound) or
 * when the class is full.  Such drops are counted as headroom drops and
 * logged once per port, since they mean the headroom or the limits are
 * misconfigured.  Lossy frames tail-drop at their class's limit
 * (limit_drops).  Under Tagger the priority is the in-map's, whatever
 * class the eg-map puts the frame in.
 *
 * PFC watchdog (the semantics of SONiC's pfcwd)
 * ---------------------------------------------
 * TCA_SLUICE_WD_PRIOS (u8, BIT(p), default 0: off) names the priorities
 * whose egress class p the port watches; it needs a root qdisc and a rate,
 * each p must be below TCA_SLUICE_CLASSES and PFC-enabled (only those are
 * ever paused; SONiC watches lossless queues only).  Every TCA_SLUICE_WD_POLL ms
 * (default 100, TC_SLUICE_WD_MIN_MS at least, at most the detection time)
 * the port looks at each watched class, in process context:
 *
 *   detection    the class is paused, holds frames, and has been both
 *                (so sent nothing) for TCA_SLUICE_WD_DETECT ms (default
 *                200): counted in wd_storms, notified as
 *                SLUICE_EVENT_STORM.  A storm is thus detected within the
 *                detection time plus one poll of its start.
 *   restoration  no pause has held the class for the last
 *                TCA_SLUICE_WD_RESTORE ms (default 200): its last pause
 *                ended (ran out, or a time-0 frame resumed it) that long
 *                ago and none (time > 0) arrived since.  A pause still in
 *                effect keeps the storm going however rarely it is
 *                refreshed (every half pause time: seconds at a low
 *                rate).  The class behaves as before the storm again, a
 *                later pause pauses it; counted in wd_restored, notified
 *                as SLUICE_EVENT_RESTORED.
 *
 * While the storm lasts, TCA_SLUICE_WD_ACTION (enum tc_sluice_wd_action)
 * applies to the class:
 *
 *   DROP (default)  the class is flushed and every frame arriving for it
 *                   dropped (both counted in wd_drops and the class's
 *                   drops), and the port stops pausing its upstream for p:
 *                   an XOFF it holds for p is resumed at once (XON), and
 *                   none is sent for p until the storm ends.  As SONiC's,
 *                   the port's ingress traffic of p is dropped too:
 *                   frames of p that arrive on the port are dropped
 *                   wherever they were to be queued (counted on the
 *                   port, in wd_ingress_drops).
 *   FORWARD         pauses for the class are ignored: it is served as if
 *                   none were received; the frames it sends meanwhile are
 *                   counted in wd_forwarded.
 *   ALERT           nothing changes but the counters and the events.
 *
 * Pauses are still counted (pfc_rx) and still tracked for restoration in
 * every action.  A change that stops watching p, or that changes the
 * action, ends p's storm as a restoration does (counted and notified).
 * Times are 10 ms to 60 s (TC_SLUICE_WD_MIN_MS, TC_SLUICE_WD_MAX_MS).

 * PortFC (per-port multi-queue flow control, PortFC ICS'25, Section 3)
 * --------------------------------------------------------------------
 * TCA_SLUICE_PORTFC (u8, enum tc_sluice_portfc_role, default NONE) makes
 * the qdisc a port of a BCube(n, k) switch or server that queues by where
 * a frame goes next and detects congestion at its egress queues, as
 * PortFC does; it is set when the qdisc is created (a change cannot turn
 * it on, off or over: replace the qdisc) and needs a root qdisc and a
 * rate, and excludes TCA_SLUICE_PFC (PortFC is the port's flow control).
 * TCA_SLUICE_PORTFC_N (2..TC_SLUICE_PORTFC_MAX_N) is n, the ports of a
 * BCube switch; TCA_SLUICE_PORTFC_K (0..TC_SLUICE_PORTFC_MAX_K, default 1)
 * is k; TCA_SLUICE_PORTFC_INDEX (a switch port: below n) is the port's
 * index at its switch, the index the signals it originates name.
 *
 * Classification reads the MPLS label stack a BCube fabric pins paths
 * with: label TCA_SLUICE_PORTFC_LABEL_BASE + j (default 100, as sluicectl's
 * fabrics) at node X means "pop, leave X by its port j", one label per hop
 * still to go, top first.  Classes (tc minors are index + 1):
 *
 *   switch  0..n-1  type A: the frame is relayed by the next server and
 *                   leaves the next switch by port i (the stack's second
 *                   label).  n queues, one per port index: the one of the
 *                   relaying server itself is never used, which keeps the
 *                   index the signals carry and the queue the same.
 *           n       type B: the next hop is the destination (no label
 *                   left after the switch popped its own), and frames
 *                   whose stack says nothing usable (one label, or a
 *                   label outside base..base+n-1: counted portfc_unknown)
 *           n+1     HQ
 *   server  g*n+i   own traffic (sent by this host, skb_iif 0) of
 *                   2(g+1) hops, g = 0..k, leaving the next switch by port
 *                   i (the top label): g 0 is the paper's "2-hop" queues,
 *                   g 1 its "4-hop" ones; longer paths (BCube's parallel
 *                   paths reach 2(k+3) hops) go with g = k
 *           (k+1)n  RQ: frames this server relays (arrived on a port),
 *                   and own frames without a usable stack (no port to
 *                   index them by; counted portfc_unknown when labelled)
 *           (k+1)n+1 HQ
 *
 * TCA_SLUICE_CLASSES is set from these counts (a value given must match).
 * Data classes are served by DWRR with a quantum of one MTU frame (each
 * class's TCA_SLUICE_CLASS_QUANTUM can be changed); HQ is strict, served
 * first and never paused.  HQ holds the frames TCA_SLUICE_PORTFC_HQ names
 * (TC_SLUICE_PORTFC_HQ_* bits, default ACK | ARP: TCP segments with ACK
 * set, no payload and none of SYN, FIN and RST; ARP) and those of DSCP
 * TCA_SLUICE_PORTFC_HQ_DSCP (0..63, or 255: none, the default), under the
 * label stack too.  MAC control and PortFC signal frames leave ahead of
 * everything, as PFC's do.
 *
 * Detection (switch ports): the summed backlog of the type-A classes
 * reaching TCA_SLUICE_PORTFC_XOFF_A bytes asserts (A, index) on every
 * other PortFC port of the switch (the namespace), which says Pause to its
 * neighbour; falling to TCA_SLUICE_PORTFC_XON_A or below releases it
 * (Resume).  The type-B class does the same with XOFF_B / XON_B.  The
 * paper uses 6 and 4 BDP for both (sluicectl derives them from a rate and
 * a round trip).  A switch port created while keys are in force is given
 * them at once; two switch ports of a namespace cannot share an index.
 * Pauses carry TCA_SLUICE_PAUSE_TIME quanta of the receiver's rate and
 * are said again at half that time while the
 * congestion lasts, so a lost Resume is healed by expiry; the paper's
 * design, which has no pause time, would leave the port paused.
 *
 * Reaction:
 *   server  (A, i) pauses its own classes g*n+i for g >= 1 (traffic the
 *           next server relays on to port i); (B, i) pauses class i
 *           (g 0), and is relayed: the server asserts (B, i), marked
 *           relayed, on each of its other PortFC ports, for as long as
 *           the pause it received lasts (refreshed by the downstream's
 *           refreshes, released by its Resume, expiring with it; a
 *           refresh that shortens that time is seen at the relay's next
 *           refresh, so a relayed pause can outlast the received one by
 *           up to half the relaying port's pause time).
 *   switch  a relayed (B, i) pauses its type-A class i on that port.
 * Nothing else acts: a switch ignores A and unrelayed B, a server never
 * relays a relayed signal, so a pause travels at most three hops (paper
 * Eq. 1-2).  Ignored records are counted in portfc_ignored.  For k >= 2
 * the paper's queues are kept as they are: a server's relay queue is never
 * paused, a switch's type-A class i mixes frames for port i of
 * different next-2-hop switches, and a server relays (B, i) from two
 * downstream switches as one key, which the first Resume releases until
 * the other's next refresh.
 *
 * The PFC watchdog covers a PortFC port: TCA_SLUICE_WD_PRIOS not 0 (tc's
 * "watchdog all") watches every data class (HQ is never paused), with
 * the same detection, restoration and actions; the drop action flushes
 * the class and drops its arrivals, which a switch port's detection sees
 * as backlog gone (no signal is suppressed: PortFC has no priority to
 * stop pausing).
 *
 * The signal on the wire (struct sluice_portfc_hdr): EtherType
 * SLUICE_PORTFC_ETHERTYPE (0x88B5, IEEE 802 local experimental) sent to
 * 01:80:c2:00:00:01, the MAC control address PFC uses: no 802.1D bridge
 * forwards it (Linux's bridge cannot even be told to), so a signal stays
 * on its link as a PFC frame does, and does not collide with the MAC
 * control opcodes of EtherType 0x8808.  A header (magic, version, record
 * count, origin: the sender's ifindex, sequence: per sender), then count
 * records (struct sluice_portfc_rec: opcode pause or resume, queue type,
 * port index, flags, time in quanta).  Frames that are short, to another
 * address, of another magic or version, or whose count overruns the frame
 * are counted in portfc_malformed and ignored whole; records with an
 * unknown opcode or type, or a port index of n or more, in
 * portfc_ignored.  Frames arriving with TCA_SLUICE_PAUSE_RX 0 are counted
 * untrusted (pause_untrusted).  Every sluice qdisc consumes the frames.
 *
 * Errors
 * ------
 * Every rejected request carries an extack message naming the offending
 * option; nothing of a rejected request is applied.
 */
#ifndef _UAPI_LINUX_SLUICE_H
#define _UAPI_LINUX_SLUICE_H

#include <linux/types.h>

#define TC_SLUICE_MAX_CLASSES		32
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
	TCA_SLUICE_WD_PRIOS,		/* u8, BIT(p): watched priorities */
	TCA_SLUICE_WD_ACTION,		/* u8, enum tc_sluice_wd_action */
	TCA_SLUICE_WD_DETECT,		/* u32, ms: detection time */
	TCA_SLUICE_WD_RESTORE,		/* u32, ms: restoration time */
	TCA_SLUICE_WD_POLL,		/* u32, ms: poll interval */
	TCA_SLUICE_PORTFC,		/* u8, enum tc_sluice_portfc_role */
	TCA_SLUICE_PORTFC_N,		/* u8, ports of a BCube switch */
	TCA_SLUICE_PORTFC_K,		/* u8, BCube's k */
	TCA_SLUICE_PORTFC_INDEX,	/* u8, this port's index (switch) */
	TCA_SLUICE_PORTFC_LABEL_BASE,	/* u32, label of port index 0 */
	TCA_SLUICE_PORTFC_XOFF_A,	/* u32, bytes of type-A backlog */
	TCA_SLUICE_PORTFC_XON_A,	/* u32, bytes, <= XOFF_A */
	TCA_SLUICE_PORTFC_XOFF_B,	/* u32, bytes of type-B backlog */
	TCA_SLUICE_PORTFC_XON_B,	/* u32, bytes, <= XOFF_B */
	TCA_SLUICE_PORTFC_HQ,		/* u8, TC_SLUICE_PORTFC_HQ_* */
	TCA_SLUICE_PORTFC_HQ_DSCP,	/* u8, 0..63, 255: none */
	TCA_SLUICE_INT_PORT,		/* u16, UDP port of probes; 0: off */
	TCA_SLUICE_INT_NODE,		/* u32, node id written in records */
	TCA_SLUICE_INT_LINK,		/* u32, link label written in records */
	__TCA_SLUICE_MAX,
};

#define TCA_SLUICE_MAX (__TCA_SLUICE_MAX - 1)

/* What the PFC watchdog does to a priority in storm (TCA_SLUICE_WD_ACTION). */
enum tc_sluice_wd_action {
	TC_SLUICE_WD_DROP,	/* flush, drop arrivals, stop pausing upstream */
	TC_SLUICE_WD_FORWARD,	/* ignore the pauses: send anyway */
	TC_SLUICE_WD_ALERT,	/* count and report only */
	__TC_SLUICE_WD_ACTION_MAX,
};

#define TC_SLUICE_WD_ACTION_MAX (__TC_SLUICE_WD_ACTION_MAX - 1)

/* Watchdog times in ms: defaults (SONiC's) and bounds. */
#define TC_SLUICE_WD_DETECT_DEFAULT	200
#define TC_SLUICE_WD_RESTORE_DEFAULT	200
#define TC_SLUICE_WD_POLL_DEFAULT	100
#define TC_SLUICE_WD_MIN_MS		10
#define TC_SLUICE_WD_MAX_MS		60000

/* What a PortFC port is (TCA_SLUICE_PORTFC). */
enum tc_sluice_portfc_role {
	TC_SLUICE_PORTFC_NONE,
	TC_SLUICE_PORTFC_SWITCH,
	TC_SLUICE_PORTFC_SERVER,
	__TC_SLUICE_PORTFC_MAX,
};

#define TC_SLUICE_PORTFC_ROLE_MAX (__TC_SLUICE_PORTFC_MAX - 1)
#define TC_SLUICE_PORTFC_MAX_N		16	/* 2 types x n keys per sender */
#define TC_SLUICE_PORTFC_MAX_K		4
#define TC_SLUICE_PORTFC_LABEL_BASE_DEFAULT	100
#define TC_SLUICE_PORTFC_HQ_ACK		0x1	/* TCP pure ACKs */
#define TC_SLUICE_PORTFC_HQ_ARP		0x2
#define TC_SLUICE_PORTFC_HQ_DEFAULT	(TC_SLUICE_PORTFC_HQ_ACK | \
					 TC_SLUICE_PORTFC_HQ_ARP)
#define TC_SLUICE_PORTFC_DSCP_NONE	255

/*
 * The PortFC signal (see "PortFC" above), after the Ethernet header.
 * Multi-byte fields are big-endian.
 */
#define SLUICE_PORTFC_ETHERTYPE		0x88B5
#define SLUICE_PORTFC_MAGIC		0x534c	/* "SL" */
#define SLUICE_PORTFC_VERSION		1
#define SLUICE_PORTFC_MAX_RECS		32

struct sluice_portfc_hdr {
	__be16	magic;		/* SLUICE_PORTFC_MAGIC */
	__u8	version;	/* SLUICE_PORTFC_VERSION */
	__u8	count;		/* records that follow, 1..MAX_RECS */
	__be32	origin;		/* ifindex of the sending port, its netns */
	__be32	seq;		/* per sending port, from 0 */
};

enum sluice_portfc_opcode {
	SLUICE_PORTFC_PAUSE = 1,
	SLUICE_PORTFC_RESUME = 2,
};

enum sluice_portfc_qtype {
	SLUICE_PORTFC_QA,	/* type A: relayed by the next server */
	SLUICE_PORTFC_QB,	/* type B: the next hop is the destination */
};

#define SLUICE_PORTFC_F_RELAYED	0x1	/* a server relayed it one hop on */

struct sluice_portfc_rec {
	__u8	opcode;		/* enum sluice_portfc_opcode */
	__u8	qtype;		/* enum sluice_portfc_qtype */
	__u8	port;		/* index of the congested switch port */
	__u8	flags;		/* SLUICE_PORTFC_F_* */
	__be16	quanta;		/* pause time, 512 bit times; 0 for resume */
	__be16	reserved;	/* 0 */
};

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

/*
 * TCA_STATS_APP of the qdisc and of each class.  The payload is always the
 * whole struct tc_sluice_xstats, so its length says which class fields a
 * kernel has (they are appended) as long as the class's struct is the
 * union's longest member; the qdisc's struct may be shorter or longer
 * (since version 2 it is longer), so its appended fields are told by the
 * version instead: a field is there only in a payload of at least the
 * version given beside it (kernels before versions sent 0, and left the
 * union's tail unset).  A class field appended while the qdisc's struct is
 * the longer one is told by the version too (portfc_relayed: version 2).
 * The PortFC signal EtherType (0x88B5) is a control frame, sent ahead of
 * data, on a PortFC port only.
 */
/*
 * In-band telemetry (INT) probes, for FaCa's host-side load balancing.
 *
 * A probe is an IPv4 UDP datagram to destination port TCA_SLUICE_INT_PORT
 * (set on each port; 0, the default, turns stamping off), possibly under
 * VLAN tags or an MPLS label stack, whose payload starts with a struct
 * sluice_int_hdr followed by @nrec pre-allocated struct sluice_int_rec.
 * Every sluice port the probe leaves fills record @nused at dequeue and
 * increments @nused; a port that finds @nused == @nrec sets
 * SLUICE_INT_F_FULL and writes nothing else.  The frame's length never
 * changes, and its UDP checksum stays valid (updated incrementally when
 * not zero).  A datagram whose magic or version does not match, or whose
 * payload is shorter than its header says, is left alone (counted as
 * malformed).  Multi-byte fields are big-endian.  Timestamps are
 * CLOCK_REALTIME nanoseconds of the stamping kernel.
 *
 * In detail, what a port whose TCA_SLUICE_INT_PORT is set does with each
 * frame it dequeues (pause frames aside).  The frame is looked at when it
 * carries IPv4 after up to two VLAN tags in the frame or under an MPLS
 * label stack (as DSCP classification finds it), whose protocol is UDP and
 * whose destination port is TCA_SLUICE_INT_PORT; anything else passes
 * untouched and uncounted, as does a fragment other than the first (it has
 * no ports).  Such a frame is a probe when: it is not GSO, not a first
 * fragment, its IPv4 header holds together (length, checksum), the UDP
 * length is within the IP payload and covers the header and @nrec records,
 * @magic and @version match, @nrec is 1..SLUICE_INT_MAX_RECS and @nused is
 * at most @nrec.  Any other is malformed: counted and left alone.  @prio,
 * reserved fields, @flags and @seq are not checked: a probe echoed
 * (SLUICE_INT_F_ECHO) to the port is stamped as any other.
 *
 * A record describes the port at the moment the probe left its queue:
 * @backlog is the byte backlog (as "tc -s class show" reports it) of the
 * class PFC priority @prio (0..7) maps to on this port, or with
 * SLUICE_INT_PRIO_OWN of the probe's own class, after the probe left it;
 * @port_backlog is the qdisc's backlog after the probe left; @class is
 * that class's index (255, with @backlog and @paused 0, when the port has
 * no class for @prio, or @prio is no priority); @tx_bytes counts the
 * bytes the qdisc sent before the probe ("Sent" of "tc -s qdisc show"),
 * pause frames included.
 *
 * The UDP checksum: 0 (none) stays 0; a checksum the device or the stack
 * completes later (CHECKSUM_PARTIAL) is left to be computed over the new
 * bytes; any other is updated by the difference the written bytes make.
 * A frame whose bytes cannot be made private and writable (no memory)
 * leaves unstamped, counted as int_unwritable in the qdisc's xstats;
 * stamped probes, full stacks and malformed probes are counted as
 * int_stamped, int_full and int_malformed.
 */
#define SLUICE_INT_MAGIC	0x534c4954	/* "SLIT" */
#define SLUICE_INT_VERSION	1
#define SLUICE_INT_MAX_RECS	32
#define SLUICE_INT_PRIO_OWN	0xff	/* hdr->prio: the probe's own class */

#define SLUICE_INT_F_FULL	0x1	/* a port found no free record */
#define SLUICE_INT_F_ECHO	0x2	/* the receiver's copy sent back */

struct sluice_int_hdr {
	__be32	magic;		/* SLUICE_INT_MAGIC */
	__u8	version;	/* SLUICE_INT_VERSION */
	__u8	nrec;		/* records allocated, 1..SLUICE_INT_MAX_RECS */
	__u8	nused;		/* records filled, by the ports, in path order */
	__u8	flags;		/* SLUICE_INT_F_* */
	__u8	prio;		/* priority whose class backlog is recorded */
	__u8	reserved[3];	/* 0 */
	__be32	seq;		/* the sender's */
	__be64	tx_ns;		/* sender's clock when sent */
	__be64	echo_ns;	/* receiver's clock when echoed, 0 before */
};

struct sluice_int_rec {
	__be32	node;		/* TCA_SLUICE_INT_NODE of the port */
	__be32	ifindex;	/* the port, in its namespace */
	__be32	link;		/* TCA_SLUICE_INT_LINK of the port */
	__be32	backlog;	/* bytes queued in the class of hdr->prio */
	__be32	port_backlog;	/* bytes queued in all classes of the port */
	__u8	class;		/* that class */
	__u8	paused;		/* 1: that class is paused now */
	__be16	reserved;	/* 0 */
	__be64	tx_bytes;	/* bytes the port has sent, this one excluded */
	__be64	ts_ns;		/* when the port dequeued the probe */
	__be64	rate;		/* TCA_SLUICE_RATE, bits/s; 0: unshaped */
};

enum {
	TC_SLUICE_XSTATS_QDISC,
	TC_SLUICE_XSTATS_CLASS,
};

#define TC_SLUICE_XSTATS_VERSION	3

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
	/* Since version 1: */
	__u64	pause_ignored;	/* well-formed, but for nothing honoured here */
	__u64	pfc_tx_failed;	/* PFC frames that could not be queued */
	/*
	 * Since version 2 (PortFC; a PortFC port's pfc_tx and pfc_tx_failed
	 * count its signal frames):
	 */
	__u64	portfc_rx;	/* signal frames received, well-formed */
	__u64	portfc_malformed; /* signal frames ignored whole */
	__u64	portfc_ignored;	/* records that act on nothing here */
	__u64	portfc_relayed;	/* records relayed on (server) */
	__u64	portfc_unknown;	/* labelled frames without a usable stack */
	__u64	portfc_hq;	/* frames classified to HQ */
	__u64	portfc_xoff_a;	/* type-A backlog reached XOFF_A (switch) */
	__u64	portfc_xon_a;	/* ... and fell to XON_A */
	__u64	portfc_xoff_b;
	__u64	portfc_xon_b;
	/* Since version 3 (in-band telemetry): */
	__u64	int_stamped;	/* probes given a record */
	__u64	int_full;	/* probes whose records were all used */
	__u64	int_malformed;	/* to the INT port, but not a valid probe */
	__u64	int_unwritable;	/* probes left unstamped: no memory */
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
	/* Since the PFC watchdog: */
	__u64	wd_storms;	/* storms detected on p */
	__u64	wd_restored;	/* storms ended */
	__u64	wd_drops;	/* frames dropped by the drop action */
	__u64	wd_forwarded;	/* frames sent during a forward storm */
	__u32	storm;		/* 1 while p is in storm */
	__u32	reserved3;
	/* Since the kernel hardening: */
	__u64	wd_ingress_drops; /* arrivals of p on this port dropped in storm */
	/*
	 * Since PortFC.  On a PortFC port pfc_rx and xon_rx count the
	 * pause and resume records that acted on the class, and on a switch
	 * port xoff_tx and xon_tx the detections of the class's type (the
	 * type-A classes share theirs): each sent a Pause or Resume on every
	 * other port.
	 */
	__u64	portfc_relayed;	/* server: its records relayed upstream */
};

struct tc_sluice_xstats {
	__u32	type;		/* TC_SLUICE_XSTATS_QDISC or _CLASS */
	__u32	version;	/* TC_SLUICE_XSTATS_VERSION; was reserved, 0 */
	union {
		struct tc_sluice_qdisc_xstats	qdisc;
		struct tc_sluice_class_xstats	cls;
	};
};

/*
 * The switch and its generic netlink family
 * ==========================================
 * All sluice root qdiscs of a network namespace form one switch (see PFC
 * above).  The generic netlink family SLUICE_GENL_NAME ("sluice", version
 * SLUICE_GENL_VERSION) configures and reads that switch: each request acts
 * on the switch of the namespace of the socket it is sent on.  Requests that
 * change anything (SWITCH_SET, MAP_LOAD, MAP_FLUSH) need CAP_NET_ADMIN in
 * the user namespace that owns that network namespace; reading is open to
 * every process in the namespace, as "tc -s qdisc" is.  Every request is
 * validated strictly against its command's policy (unknown attributes,
 * trailing bytes and wrong lengths are errors); every rejection sluice
 * makes carries an extack message (the core's own refusals - EPERM for a
 * writer without the capability, EOPNOTSUPP for an unknown command - and
 * running out of memory carry none), and nothing of a rejected request is
 * applied.
 *
 * Tagger's switch model (Tagger, Section 6)
 * -----------------------------------------
 * With a tag source set (SLUICE_A_TAG_SOURCE, default SLUICE_TAG_SOURCE_NONE),
 * every port qdisc of the switch classifies by the switch's three maps
 * instead of its own TCA_SLUICE_TAG and map.  For a frame enqueued on port E
 * that arrived on port I (skb->skb_iif) carrying tag t, where t is the
 * value as it was on the wire when the frame arrived:
 *
 *   ingress priority = in(I, t)  the ingress account of I the frame is
 *                                charged to, so that the pauses I sends
 *                                upstream name the priority the upstream
 *                                queued the frame in (Section 6.3)
 *   egress class     = eg(.., t) the class of E the frame waits in
 *   new tag          = tag(E, t) written into the frame on E, when the tag
 *                                field can be written
 *
 * A map entry names one port by ifindex, or every port (ifindex 0).  An in
 * entry is keyed by the port the frame arrived on, a tag entry by the port
 * it leaves on.  An eg entry is keyed by the in port, as Tagger's ACLs set
 * the egress priority in the ingress pipeline; with SLUICE_MAP_F_OUT_PORT it
 * is keyed by the out port instead, which is what the tables of
 * "sluicectl tag compute" need (their egress priority depends on the link a
 * frame leaves on).  Lookups try the port's own entry, then the entry for
 * every port; the eg map tries (out E, t) entries, then (in I, t), then
 * (0, t).  Each lookup is O(1): per-port arrays indexed by the tag, the
 * ports found through a hash of their ifindex.  An entry for every port is
 * the same whichever port it would be keyed by, so SLUICE_MAP_F_OUT_PORT
 * with ifindex 0 is refused.  A frame the switch sends itself (skb_iif 0)
 * has no in port: it meets only the entries for every port there.
 *
 * Tag sources (enum sluice_tag_source) and what "on the wire" means:
 *
 *   IP_TTL     IPv4 TTL or IPv6 hop limit, after up to two VLAN tags
 *              (not under labels: MPLS forwarding leaves it alone)
 *   MPLS_TTL   TTL of the top MPLS label
 *   DSCP       DSCP of IPv4 or IPv6, also under a label stack, as the
 *              qdisc reads it (rewritten there, with the IPv4 checksum
 *              updated)
 *   MPLS_TC    traffic class of the top MPLS label (rewritten)
 *   PCP        PCP of the outer VLAN tag, offloaded or in the frame
 *              (rewritten)
 *   MPLS_DEPTH the depth of the MPLS label stack (after up to two VLAN
 *              tags) as the frame leaves: 0 without labels, up to 32
 *              (SLUICE_MPLS_DEPTH_VALUES values); a stack that does not
 *              end within 32 entries or the frame is untagged
 *
 * Where a fabric pins paths with label stacks (one label per hop still
 * to go, popped hop by hop), the depth a frame leaves a switch with is
 * the number of hops it has still to go after this one: Tagger's hop
 * count read backwards, where labels lose TTL tags (a pushed label takes
 * TC 0 and no inner label's TTL is decremented).  The depth is read as the
 * frame leaves, without any adjustment: the switch that pushes the stack
 * and one that pops a label see the depth the frame goes on with (so
 * unlike the other sources, t is not the value the frame arrived with).
 * The last switch of a path delivers a frame with the depth it arrived
 * with (0), one hop before the last sends it on with 0 too: an in entry
 * (I, 0) cannot tell the two apart (see "sluicectl tag compute --mode
 * depth" in README for what Tagger's tables make of that).
 *
 * A frame that arrived on a port was routed, and routing (IPv4, IPv6 and
 * MPLS alike) decremented its TTL once, also when it leaves by the port it
 * came in on: TTL sources add that one back, so t is the TTL it arrived
 * with.  A frame sent by the switch itself (skb_iif 0) is read as it is.
 * TTL and depth tags are never rewritten (the next hop's decrement or pop
 * is the rewrite): loading a tag entry, or switching to a TTL or the
 * depth source with tag entries loaded, is refused.  Switches that bridge
 * rather than route must use a tag source other than a TTL (a bridged
 * frame that arrived with TTL 255 reads as tag 256 and meets no entry).
 * Maps can be loaded with no tag source: their tags and new tags are then
 * checked against 256 values, and against the source's range when one is
 * set (SWITCH_SET is refused if an entry does not fit it: MPLS_DEPTH's
 * range is 0 to 32).
 *
 * Missing entries fall back to the egress port's own classification: the
 * qdisc's map of the same tag source (TCA_SLUICE_{DSCP,MPLS_TC,PCP}_MAP,
 * whose defaults are the plain mappings DSCP d -> d >> 3, TC t -> t,
 * PCP p -> p), or for the TTL sources its TCA_SLUICE_DEFAULT class.  A
 * missing in entry makes the ingress priority that class, a missing eg
 * entry makes it the egress class, a missing tag entry leaves the tag as
 * it is, and so does a tag entry that maps the tag to itself (nothing is
 * written, nothing counted in retagged).  Each miss is counted in struct
 * sluice_switch_stats, so a half-loaded table shows.  A frame without the
 * tag at all (ARP under DSCP) goes to the qdisc's default class, which is
 * also the priority it is charged to, and counts as untagged.  An eg entry
 * naming a class the port's qdisc does not have sends the frame to its
 * default class and counts as class_invalid; an in entry naming a
 * priority is always valid (0..7).
 *
 * The maps are one immutable table, replaced as a whole under RCU: a frame
 * does all three lookups in one table, so a reload never shows it a mix of
 * old and new entries, and the tag source is part of the same table.
 *
 * Commands
 * --------
 *   SLUICE_CMD_SWITCH_GET   do: the switch's settings and counters, in one
 *                           reply: TAG_SOURCE, GENERATION, MAP_ENTRIES,
 *                           PORTS, SWITCH_STATS.
 *   SLUICE_CMD_SWITCH_SET   TAG_SOURCE (required).  Notifies
 *                           SLUICE_EVENT_SWITCH.
 *   SLUICE_CMD_MAP_LOAD     replaces all three maps at once with exactly
 *                           the SLUICE_A_MAP_ENTRY attributes given (any
 *                           number, repeated at the top level; none makes
 *                           the maps empty).  With SLUICE_A_GENERATION,
 *                           the load happens only if the maps' generation
 *                           is still that value (-ESTALE otherwise), so
 *                           two writers cannot overwrite each other
 *                           unseen.  Rejected as a whole on a duplicate key,
 *                           an unknown map, flag or reserved bit, a value out
 *                           of range (priority > 7, class > 31, a tag or new
 *                           tag beyond the tag source's range), an ifindex
 *                           that names no device of the namespace, or more
 *                           than SLUICE_MAP_MAX_PORTS ports.  The reply and
 *                           the SLUICE_EVENT_MAPS notification carry the new
 *                           GENERATION and MAP_ENTRIES.
 *   SLUICE_CMD_MAP_GET      dump: the entries of each port that has some
 *                           (ifindex 0 first, then by ifindex), in
 *                           messages that each carry GENERATION and MAP_ENTRY
 *                           attributes of one port (a port whose entries do
 *                           not fit the reader's buffer continues in the
 *                           next message), sorted by map (in, eg keyed by
 *                           the in port, eg keyed by the out port, tag),
 *                           then tag.  A dump that spans a reload is flagged
 *                           NLM_F_DUMP_INTR.
 *   SLUICE_CMD_MAP_FLUSH    empties the maps (the tag source stays).
 *                           Notifies SLUICE_EVENT_MAPS.
 *   SLUICE_CMD_STATS_GET    dump: one message per port, by ifindex: IFINDEX,
 *                           IFNAME, PORT_STATS and one PRIO_STATS per class
 *                           (and per priority 0..7 where the port has
 *                           fewer classes).  Request IFINDEX to get one
 *                           port.  Resumable; a dump that spans a port
 *                           coming or going is flagged NLM_F_DUMP_INTR.
 *   SLUICE_CMD_EVENT        notifications only, on the multicast group
 *                           SLUICE_GENL_MCGRP_EVENTS ("events"): EVENT and
 *                           what the event names (see enum sluice_event).
 *
 * Binary structs in attributes are append-only: a reader of a reply or an
 * event takes the length the attribute has and zero-fills what it does not
 * carry.  A request's struct sluice_map_entry must have exactly this
 * version's size: a kernel cannot honour fields it does not know.
 *
 * Entries name ports by ifindex, checked when they are loaded; a device
 * that leaves the namespace (deleted or moved) takes its entries with it
 * (a new generation, notified as SLUICE_EVENT_MAPS), so a later device
 * given the same ifindex does not inherit them.  Under a
 * bridge or a VLAN device, skb_iif is that upper device, so in entries key
 * by it, not the physical port.  Counters: tagged and the misses count
 * frames as the qdisc sees them (a GSO frame once), retagged and
 * retag_failed count frames on the wire (each segment).
 */
#define SLUICE_GENL_NAME		"sluice"
#define SLUICE_GENL_VERSION		1
#define SLUICE_GENL_MCGRP_EVENTS	"events"

/* The most distinct ports (ifindex 0 included) one table may name. */
#define SLUICE_MAP_MAX_PORTS	4096
/* Tag values: a TTL has 256, the widest source. */
#define SLUICE_TAG_VALUES	256
/* Tag values of SLUICE_TAG_SOURCE_MPLS_DEPTH: a stack of 0 to 32 labels. */
#define SLUICE_MPLS_DEPTH_VALUES	33

enum sluice_tag_source {
	SLUICE_TAG_SOURCE_NONE,		/* each qdisc classifies on its own */
	SLUICE_TAG_SOURCE_IP_TTL,
	SLUICE_TAG_SOURCE_MPLS_TTL,
	SLUICE_TAG_SOURCE_DSCP,
	SLUICE_TAG_SOURCE_MPLS_TC,
	SLUICE_TAG_SOURCE_PCP,
	SLUICE_TAG_SOURCE_MPLS_DEPTH,
	__SLUICE_TAG_SOURCE_MAX,
};

#define SLUICE_TAG_SOURCE_MAX (__SLUICE_TAG_SOURCE_MAX - 1)

enum sluice_map {
	SLUICE_MAP_IN,		/* (in port, tag) -> ingress priority 0..7 */
	SLUICE_MAP_EG,		/* (in or out port, tag) -> egress class 0..31 */
	SLUICE_MAP_TAG,		/* (out port, tag) -> new tag */
	__SLUICE_MAP_MAX,
};

#define SLUICE_MAP_MAX (__SLUICE_MAP_MAX - 1)

/* An eg entry keyed by the port the frame leaves on. */
#define SLUICE_MAP_F_OUT_PORT	0x1

struct sluice_map_entry {
	__u32	ifindex;	/* the port; 0: every port */
	__u8	map;		/* enum sluice_map */
	__u8	tag;		/* the tag the frame arrived with */
	__u8	value;		/* priority, class or new tag */
	__u8	flags;		/* SLUICE_MAP_F_*; 0 except for eg entries */
};

enum sluice_cmd {
	SLUICE_CMD_UNSPEC,
	SLUICE_CMD_SWITCH_GET,
	SLUICE_CMD_SWITCH_SET,
	SLUICE_CMD_MAP_LOAD,
	SLUICE_CMD_MAP_GET,
	SLUICE_CMD_MAP_FLUSH,
	SLUICE_CMD_STATS_GET,
	SLUICE_CMD_EVENT,
	__SLUICE_CMD_MAX,
};

#define SLUICE_CMD_MAX (__SLUICE_CMD_MAX - 1)

enum sluice_attr {
	SLUICE_A_UNSPEC,
	SLUICE_A_PAD,
	SLUICE_A_TAG_SOURCE,	/* u8, enum sluice_tag_source */
	SLUICE_A_GENERATION,	/* u32, bumped by every load and flush; never 0 */
	SLUICE_A_MAP_ENTRY,	/* struct sluice_map_entry, repeated */
	SLUICE_A_MAP_ENTRIES,	/* struct sluice_map_counts */
	SLUICE_A_PORTS,		/* u32, ports of the switch */
	SLUICE_A_SWITCH_STATS,	/* struct sluice_switch_stats */
	SLUICE_A_IFINDEX,	/* u32 */
	SLUICE_A_IFNAME,	/* string */
	SLUICE_A_PORT_STATS,	/* struct sluice_port_stats */
	SLUICE_A_PRIO_STATS,	/* struct sluice_prio_stats, repeated */
	SLUICE_A_EVENT,		/* u8, enum sluice_event */
	SLUICE_A_PRIO,		/* u8, a priority (class) of a port */
	SLUICE_A_WD_ACTION,	/* u8, enum tc_sluice_wd_action */
	__SLUICE_A_MAX,
};

#define SLUICE_A_MAX (__SLUICE_A_MAX - 1)

enum sluice_event {
	SLUICE_EVENT_UNSPEC,
	SLUICE_EVENT_SWITCH,	/* settings changed: TAG_SOURCE */
	SLUICE_EVENT_MAPS,	/* loaded or flushed: GENERATION, MAP_ENTRIES */
	SLUICE_EVENT_PORT_ADD,	/* a port joined: IFINDEX, IFNAME */
	SLUICE_EVENT_PORT_DEL,	/* a port left: IFINDEX, IFNAME */
	/*
	 * The PFC watchdog: IFINDEX, IFNAME, PRIO, WD_ACTION and the class's
	 * PRIO_STATS at that moment.
	 */
	SLUICE_EVENT_STORM,	/* a storm was detected */
	SLUICE_EVENT_RESTORED,	/* it ended */
	__SLUICE_EVENT_MAX,
};

#define SLUICE_EVENT_MAX (__SLUICE_EVENT_MAX - 1)

/* Entries of each map (ifindex 0 entries included) and ports named. */
struct sluice_map_counts {
	__u32	in;
	__u32	eg;
	__u32	tag;
	__u32	ports;
};

/* Per switch, since the module was loaded in the namespace. */
struct sluice_switch_stats {
	__u64	tagged;		/* frames with the tag, through the maps */
	__u64	untagged;	/* frames without the source's tag */
	__u64	in_miss;	/* no in entry: fell back */
	__u64	eg_miss;	/* no eg entry: fell back */
	__u64	tag_miss;	/* no tag entry: tag left as it was */
	__u64	retagged;	/* frames whose tag was rewritten */
	__u64	retag_failed;	/* tag entry found, field not writable */
	__u64	class_invalid;	/* eg entry beyond the port's classes */
};

/* Per port: its link and PFC settings and frame-level counters. */
struct sluice_port_stats {
	__u64	rate;		/* bits/s, 0: unshaped */
	__u32	xoff;
	__u32	xon;
	__u32	headroom;
	__u16	pause_time;
	__u8	pfc;		/* BIT(p): lossless priorities */
	__u8	classes;
	__u64	pfc_tx;		/* PFC frames sent upstream */
	__u64	pfc_rx;		/* PFC frames honoured */
	__u64	pause_rx;	/* 802.3x PAUSE frames honoured */
	__u64	pause_malformed;
	__u64	pause_untrusted;
	__u64	limit_drops;
	__u64	headroom_drops;
	__u64	untagged;	/* the qdisc's own classification */
	__u32	backlog;	/* bytes queued, all classes */
	__u32	qlen;		/* frames queued, all classes */
	/* Since the PFC watchdog: its settings (TCA_SLUICE_WD_*) */
	__u8	wd_prios;	/* BIT(p): watched priorities */
	__u8	wd_action;	/* enum tc_sluice_wd_action */
	__u16	reserved;
	__u32	wd_detect_ms;
	__u32	wd_restore_ms;
	__u32	wd_poll_ms;
	__u32	reserved2;
	/* Since the kernel hardening: */
	__u64	pause_ignored;
	__u64	pfc_tx_failed;
	/* Since PortFC: its settings and counters (TCA_SLUICE_PORTFC_*) */
	__u8	portfc;		/* enum tc_sluice_portfc_role */
	__u8	portfc_n;
	__u8	portfc_k;
	__u8	portfc_index;
	__u32	portfc_xoff_a;
	__u32	portfc_xon_a;
	__u32	portfc_xoff_b;
	__u32	portfc_xon_b;
	__u32	portfc_keys;	/* BIT(type * 16 + index): asserted now */
	__u64	portfc_rx;	/* as in struct tc_sluice_qdisc_xstats */
	__u64	portfc_malformed;
	__u64	portfc_ignored;
	__u64	portfc_relayed;
	__u64	portfc_unknown;
	__u64	portfc_hq;
	/* Since in-band telemetry: its settings (TCA_SLUICE_INT_*) and counters */
	__u16	int_port;	/* 0: off */
	__u16	reserved3;
	__u32	int_node;
	__u32	int_link;
	__u32	reserved4;
	__u64	int_stamped;	/* as in struct tc_sluice_qdisc_xstats */
	__u64	int_full;
	__u64	int_malformed;
	__u64	int_unwritable;
};

/*
 * Index i is egress class i of the port and, for i < 8, ingress priority i
 * of the port's ingress accounts (the two are independent under Tagger).
 */
struct sluice_prio_stats {
	__u32	index;
	__u32	flags;		/* SLUICE_PRIO_F_* */
	/* egress class i (zero beyond the port's classes) */
	__u64	packets;	/* sent */
	__u64	bytes;
	__u64	drops;
	__u32	backlog;	/* bytes */
	__u32	qlen;
	__u64	pfc_rx;		/* pauses received (time > 0) */
	__u64	xon_rx;
	__u64	paused_us;
	__u64	ecn_marks;
	/* ingress priority i */
	__u32	ingress_bytes;
	__u32	ingress_peak;
	__u64	xoff_tx;	/* PFC frames sent pausing i */
	__u64	xon_tx;
	/* the PFC watchdog on egress class i (see struct tc_sluice_class_xstats) */
	__u64	wd_storms;
	__u64	wd_restored;
	__u64	wd_drops;
	__u64	wd_forwarded;
	/* Since the kernel hardening: */
	__u64	wd_ingress_drops;
	/* Since PortFC (see struct tc_sluice_class_xstats) */
	__u64	portfc_relayed;
};

#define SLUICE_PRIO_F_CLASS	0x1	/* the port has class i */
#define SLUICE_PRIO_F_PAUSED	0x2	/* class i is paused now */
#define SLUICE_PRIO_F_XOFF	0x4	/* i is paused upstream by this port */
#define SLUICE_PRIO_F_LOSSLESS	0x8	/* i is in the port's PFC bitmap */
#define SLUICE_PRIO_F_WATCHED	0x10	/* the PFC watchdog watches class i */
#define SLUICE_PRIO_F_STORM	0x20	/* class i is in storm */

#endif /* _UAPI_LINUX_SLUICE_H */
