/* SPDX-License-Identifier: GPL-2.0 */
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
#define SLUICE_QOPT_CLASSES	(1u << 0)
#define SLUICE_QOPT_TAG		(1u << 1)
#define SLUICE_QOPT_DEFAULT	(1u << 2)
#define SLUICE_QOPT_LIMIT	(1u << 3)
/* Entries of the map of tag source @tag (enum tc_sluice_tag), in maps[tag]. */
#define SLUICE_QOPT_MAP(tag)	(1u << (4 + (tag)))
#define SLUICE_QOPT_PRIO_MAP	SLUICE_QOPT_MAP(TC_SLUICE_TAG_PRIORITY)
#define SLUICE_QOPT_PCP_MAP	SLUICE_QOPT_MAP(TC_SLUICE_TAG_PCP)
#define SLUICE_QOPT_DSCP_MAP	SLUICE_QOPT_MAP(TC_SLUICE_TAG_DSCP)
#define SLUICE_QOPT_MPLS_TC_MAP	SLUICE_QOPT_MAP(TC_SLUICE_TAG_MPLS_TC)
/* Some maps are returned to the default: sluice_qopt.default_maps. */
#define SLUICE_QOPT_DEFAULT_MAPS	(1u << 8)
/* The link and PFC. */
#define SLUICE_QOPT_RATE	(1u << 9)
#define SLUICE_QOPT_PFC		(1u << 10)
#define SLUICE_QOPT_PAUSE_RX	(1u << 11)
#define SLUICE_QOPT_XOFF	(1u << 12)
#define SLUICE_QOPT_XON		(1u << 13)
#define SLUICE_QOPT_HEADROOM	(1u << 14)
#define SLUICE_QOPT_PAUSE_TIME	(1u << 15)
/*
 * "xoff auto [ cable METRES ] [ mtu BYTES ]": the parser collects the
 * inputs, sluice_qopt_xoff_auto() turns them into xoff, xon and headroom.
 * XOFF_AUTO is set instead of XOFF until then.
 */
#define SLUICE_QOPT_XOFF_AUTO	(1u << 16)
#define SLUICE_QOPT_CABLE	(1u << 17)
#define SLUICE_QOPT_MTU		(1u << 18)
/* The PFC watchdog. */
#define SLUICE_QOPT_WD_PRIOS	(1u << 19)
#define SLUICE_QOPT_WD_ACTION	(1u << 20)
#define SLUICE_QOPT_WD_DETECT	(1u << 21)
#define SLUICE_QOPT_WD_RESTORE	(1u << 22)
#define SLUICE_QOPT_WD_POLL	(1u << 23)

/* What a device's MTU leaves out of a frame as the qdisc counts it. */
#define SLUICE_ETH_HLEN		14

/*
 * The bit of the map of tag source @tag in sluice_qopt.default_maps, which
 * is also that of TCA_SLUICE_DEFAULT_MAPS.
 */
#define SLUICE_DEFAULT_MAP(tag)	(1u << (tag))

struct sluice_qopt {
	unsigned int		present;
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
/* The attributes inside TCA_OPTIONS, as the tc plugin sends them. */
int sluice_qopt_encode(const struct sluice_qopt *o, void *buf, size_t len,
		       size_t *used);

#endif /* _SLUICE_QOPT_H */
