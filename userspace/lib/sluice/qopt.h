/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options of the sluice qdisc and of its classes, as tc and sluicectl
 * take them on the command line.  Parsing checks everything that can be known
 * from the command alone; the kernel checks the rest against its state.
 */
#ifndef _SLUICE_QOPT_H
#define _SLUICE_QOPT_H

#include <stddef.h>
#include <linux/types.h>
#include <linux/sluice.h>
#include <sluice/map.h>

/* Room for any message of sluice_qopt_parse() and sluice_copt_parse(). */
#define SLUICE_ERRLEN		256

/* Returned by the parsers when the command asks for "help". */
#define SLUICE_PARSE_HELP	1

/* Bits of sluice_qopt.present: the options the command gave. */
#define SLUICE_QOPT_CLASSES	(1ull << 0)
#define SLUICE_QOPT_TAG		(1ull << 1)
#define SLUICE_QOPT_DEFAULT	(1ull << 2)
#define SLUICE_QOPT_LIMIT	(1ull << 3)
/* Entries of the map of tag source @tag (enum tc_sluice_tag), in maps[tag]. */
#define SLUICE_QOPT_MAP(tag)	(1ull << (4 + (tag)))
#define SLUICE_QOPT_PRIO_MAP	SLUICE_QOPT_MAP(TC_SLUICE_TAG_PRIORITY)
#define SLUICE_QOPT_PCP_MAP	SLUICE_QOPT_MAP(TC_SLUICE_TAG_PCP)
#define SLUICE_QOPT_DSCP_MAP	SLUICE_QOPT_MAP(TC_SLUICE_TAG_DSCP)
#define SLUICE_QOPT_MPLS_TC_MAP	SLUICE_QOPT_MAP(TC_SLUICE_TAG_MPLS_TC)
/* Some maps are returned to the default: sluice_qopt.default_maps. */
#define SLUICE_QOPT_DEFAULT_MAPS	(1ull << 8)
/* The link and PFC. */
#define SLUICE_QOPT_RATE	(1ull << 9)
#define SLUICE_QOPT_PFC		(1ull << 10)
#define SLUICE_QOPT_PAUSE_RX	(1ull << 11)
#define SLUICE_QOPT_XOFF	(1ull << 12)
#define SLUICE_QOPT_XON		(1ull << 13)
#define SLUICE_QOPT_HEADROOM	(1ull << 14)
#define SLUICE_QOPT_PAUSE_TIME	(1ull << 15)
/*
 * "xoff auto [ cable METRES ] [ mtu BYTES ]": the parser collects the
 * inputs, sluice_qopt_xoff_auto() turns them into xoff, xon and headroom.
 * XOFF_AUTO is set instead of XOFF until then.
 */
#define SLUICE_QOPT_XOFF_AUTO	(1ull << 16)
#define SLUICE_QOPT_CABLE	(1ull << 17)
#define SLUICE_QOPT_MTU		(1ull << 18)
/* The PFC watchdog. */
#define SLUICE_QOPT_WD_PRIOS	(1ull << 19)
#define SLUICE_QOPT_WD_ACTION	(1ull << 20)
#define SLUICE_QOPT_WD_DETECT	(1ull << 21)
#define SLUICE_QOPT_WD_RESTORE	(1ull << 22)
#define SLUICE_QOPT_WD_POLL	(1ull << 23)
/* PortFC: "portfc" and the "portfc-*" options. */
#define SLUICE_QOPT_PORTFC		(1ull << 24)
#define SLUICE_QOPT_PORTFC_N		(1ull << 25)
#define SLUICE_QOPT_PORTFC_K		(1ull << 26)
#define SLUICE_QOPT_PORTFC_INDEX	(1ull << 27)
#define SLUICE_QOPT_PORTFC_LABEL_BASE	(1ull << 28)
#define SLUICE_QOPT_PORTFC_XOFF_A	(1ull << 29)
#define SLUICE_QOPT_PORTFC_XON_A	(1ull << 30)
#define SLUICE_QOPT_PORTFC_XOFF_B	(1ull << 31)
#define SLUICE_QOPT_PORTFC_XON_B	(1ull << 32)
#define SLUICE_QOPT_PORTFC_THRESHOLDS	(SLUICE_QOPT_PORTFC_XOFF_A | \
					 SLUICE_QOPT_PORTFC_XON_A | \
					 SLUICE_QOPT_PORTFC_XOFF_B | \
					 SLUICE_QOPT_PORTFC_XON_B)
/*
 * "portfc-rtt TIME": the parser sets the four thresholds from it and the
 * command's rate, with their bits; this bit stays to say where they came
 * from.
 */
#define SLUICE_QOPT_PORTFC_RTT		(1ull << 33)
#define SLUICE_QOPT_PORTFC_HQ		(1ull << 34)
#define SLUICE_QOPT_PORTFC_HQ_DSCP	(1ull << 35)
/* In-band telemetry: "int-port", "int-node", "int-link". */
#define SLUICE_QOPT_INT_PORT		(1ull << 36)
#define SLUICE_QOPT_INT_NODE		(1ull << 37)
#define SLUICE_QOPT_INT_LINK		(1ull << 38)

/* What a device's MTU leaves out of a frame as the qdisc counts it. */
#define SLUICE_ETH_HLEN		14

/*
 * The bit of the map of tag source @tag in sluice_qopt.default_maps, which
 * is also that of TCA_SLUICE_DEFAULT_MAPS.
 */
#define SLUICE_DEFAULT_MAP(tag)	(1u << (tag))

struct sluice_qopt {
	__u64			present;
	__u8			classes;
	__u8			tag;		/* enum tc_sluice_tag */
	__u8			defclass;
	__u32			limit;		/* bytes */
	/*
	 * SLUICE_DEFAULT_MAP() of each map given as "MAP-KEYWORD default".  A
	 * map is either reset here or given entries in maps[], never both.
	 */
	__u8			default_maps;
	/* Indexed by enum tc_sluice_tag: maps[TC_SLUICE_TAG_DSCP] is dscp-map. */
	struct sluice_class_map	maps[__TC_SLUICE_TAG_MAX];
	__u64			rate;		/* bits/s, 0: unshaped */
	__u8			pfc;		/* BIT(p): lossless priorities */
	__u8			pause_rx;	/* 0 or 1 */
	__u16			pause_time;	/* quanta, 1..65535 */
	__u32			xoff;		/* bytes */
	__u32			xon;		/* bytes, <= xoff if both given */
	__u32			headroom;	/* bytes */
	/* The inputs of "xoff auto". */
	__u32			cable_m;	/* metres, 0..SLUICE_CABLE_MAX_M */
	__u32			mtu;		/* largest frame, bytes */
	/* The PFC watchdog: "watchdog", "watchdog-action", the times. */
	__u8			wd_prios;	/* BIT(p): watched priorities */
	__u8			wd_action;	/* enum tc_sluice_wd_action */
	__u32			wd_detect_ms;	/* "detection-time" */
	__u32			wd_restore_ms;	/* "restoration-time" */
	__u32			wd_poll_ms;	/* "watchdog-poll" */
	/* PortFC */
	__u8			portfc;		/* enum tc_sluice_portfc_role */
	__u8			portfc_n;	/* 2..TC_SLUICE_PORTFC_MAX_N */
	__u8			portfc_k;	/* 0..TC_SLUICE_PORTFC_MAX_K */
	__u8			portfc_index;	/* below TC_SLUICE_PORTFC_MAX_N */
	__u32			portfc_label_base; /* an MPLS label */
	__u32			portfc_xoff_a;	/* bytes */
	__u32			portfc_xon_a;
	__u32			portfc_xoff_b;
	__u32			portfc_xon_b;
	__u64			portfc_rtt_ns;	/* "portfc-rtt" */
	__u8			portfc_hq;	/* TC_SLUICE_PORTFC_HQ_* */
	__u8			portfc_hq_dscp;	/* 0..63, TC_SLUICE_PORTFC_DSCP_NONE */
	/* In-band telemetry (uapi: "In-band telemetry") */
	__u16			int_port;	/* UDP port of probes, 0: off */
	__u32			int_node;	/* written in each record */
	__u32			int_link;
};

/* "drop", "forward", "alert"; NULL for an action this version lacks. */
const char *sluice_wd_action_name(unsigned int action);

/* Bits of sluice_copt.present. */
#define SLUICE_COPT_LIMIT	(1u << 0)
#define SLUICE_COPT_ECN		(1u << 1)
#define SLUICE_COPT_QUANTUM	(1u << 2)

struct sluice_copt {
	unsigned int	present;
	__u32		limit;		/* bytes */
	__u32		ecn;		/* bytes of backlog; 0: off */
	__u32		quantum;	/* DWRR bytes; 0: strict */
};

int sluice_qopt_parse(struct sluice_qopt *o, int argc, char *const argv[],
		      char *err, size_t errlen);
int sluice_qopt_xoff_auto(struct sluice_qopt *o, const char *dev,
			  __u32 dev_mtu, char *err, size_t errlen);
int sluice_copt_parse(struct sluice_copt *o, int argc, char *const argv[],
		      char *err, size_t errlen);
/*
 * The attributes inside TCA_OPTIONS, as the tc plugin sends them.  Time: O(map
 * entries).
 */
int sluice_qopt_encode(const struct sluice_qopt *o, void *buf, size_t len,
		       size_t *used);

/* Room for sluice_qopt_format() of any options: four maps of 64 values. */
#define SLUICE_QOPT_STRLEN	4096

/*
 * The options a qdisc holds, from the attributes inside TCA_OPTIONS of its
 * dump (default maps kept but not present), and options as tc's text dump
 * prints them, words sluice_qopt_parse() reads back (qopt_dec.c).
 * Time: O(@len) and O(output).
 */
int sluice_qopt_decode(struct sluice_qopt *o, const void *opts, size_t len,
		       char *err, size_t errlen);
/* Time: O(size of the output). */
int sluice_qopt_format(const struct sluice_qopt *o, char *buf, size_t len);

#endif /* _SLUICE_QOPT_H */
