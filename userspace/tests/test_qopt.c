// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libsluice's option model: the qdisc and class parsers, sizes, tags and
 * maps.  Expected results are written out by hand, never computed by the
 * code under test.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sluice/headroom.h>
#include <sluice/map.h>
#include <sluice/pfc.h>
#include <sluice/portfc.h>
#include <sluice/qopt.h>
#include <sluice/rate.h>
#include <sluice/size.h>
#include <sluice/tag.h>
#include "ktap.h"
#include "words.h"

#define PCP	TC_SLUICE_TAG_PCP
#define DSCP	TC_SLUICE_TAG_DSCP
#define MPLS	TC_SLUICE_TAG_MPLS_TC
#define PRIO	TC_SLUICE_TAG_PRIORITY

#define THRESHOLDS	(SLUICE_QOPT_XOFF | SLUICE_QOPT_XON | SLUICE_QOPT_HEADROOM)

static const struct valid_case {
	const char		*line;
	struct sluice_qopt	want;
} valid_cases[] = {
	{ "", { 0 } },
	{ "classes 1", { .present = SLUICE_QOPT_CLASSES, .classes = 1 } },
	{ "classes 16", { .present = SLUICE_QOPT_CLASSES, .classes = 16 } },
	{ "classes 32", { .present = SLUICE_QOPT_CLASSES, .classes = 32 } },
	{ "classes 08", { .present = SLUICE_QOPT_CLASSES, .classes = 8 } },
	{ "tag priority", { .present = SLUICE_QOPT_TAG, .tag = 0 } },
	{ "tag pcp", { .present = SLUICE_QOPT_TAG, .tag = 1 } },
	{ "tag dscp", { .present = SLUICE_QOPT_TAG, .tag = 2 } },
	{ "tag mpls-tc", { .present = SLUICE_QOPT_TAG, .tag = 3 } },
	{ "default 0", { .present = SLUICE_QOPT_DEFAULT, .defclass = 0 } },
	{ "default 15", { .present = SLUICE_QOPT_DEFAULT, .defclass = 15 } },
	{ "default 31", { .present = SLUICE_QOPT_DEFAULT, .defclass = 31 } },
	{ "classes 4 default 3", {
		.present = SLUICE_QOPT_CLASSES | SLUICE_QOPT_DEFAULT,
		.classes = 4, .defclass = 3 } },
	{ "default 3 classes 4", {
		.present = SLUICE_QOPT_CLASSES | SLUICE_QOPT_DEFAULT,
		.classes = 4, .defclass = 3 } },
	{ "limit 1", { .present = SLUICE_QOPT_LIMIT, .limit = 1 } },
	{ "limit 1500b", { .present = SLUICE_QOPT_LIMIT, .limit = 1500 } },
	{ "limit 64k", { .present = SLUICE_QOPT_LIMIT, .limit = 65536 } },
	{ "limit 64KB", { .present = SLUICE_QOPT_LIMIT, .limit = 65536 } },
	{ "limit 2m", { .present = SLUICE_QOPT_LIMIT, .limit = 2097152 } },
	{ "limit 2Mb", { .present = SLUICE_QOPT_LIMIT, .limit = 2097152 } },
	{ "limit 127m", { .present = SLUICE_QOPT_LIMIT, .limit = 133169152 } },
	{ "limit 127MB", { .present = SLUICE_QOPT_LIMIT, .limit = 133169152 } },
	{ "limit 131071k", {
		.present = SLUICE_QOPT_LIMIT, .limit = 134216704 } },
	{ "limit 8kbit", { .present = SLUICE_QOPT_LIMIT, .limit = 1024 } },
	{ "limit 8mbit", { .present = SLUICE_QOPT_LIMIT, .limit = 1048576 } },
	{ "limit 512mbit", { .present = SLUICE_QOPT_LIMIT, .limit = 67108864 } },
	/* TC_SLUICE_MAX_LIMIT, 0xffffffff / 32 */
	{ "limit 134217727", {
		.present = SLUICE_QOPT_LIMIT, .limit = 134217727 } },
	{ "pcp-map 3:5", {
		.present = SLUICE_QOPT_PCP_MAP,
		.maps[PCP] = { .given = 1u << 3, .tclass[3] = 5 } } },
	{ "pcp-map 0-7:2", {
		.present = SLUICE_QOPT_PCP_MAP,
		.maps[PCP] = { .given = 0xff,
			       .tclass = { 2, 2, 2, 2, 2, 2, 2, 2 } } } },
	{ "dscp-map 0-2:0 8-9:1 46:5 63:15", {
		.present = SLUICE_QOPT_DSCP_MAP,
		.maps[DSCP] = {
			.given = 0x7 | 0x300 | 1ull << 46 | 1ull << 63,
			.tclass = { [8] = 1, [9] = 1, [46] = 5, [63] = 15 } } } },
	{ "mpls-tc-map 7-7:1 0:3", {
		.present = SLUICE_QOPT_MPLS_TC_MAP,
		.maps[MPLS] = { .given = 0x81,
				.tclass = { [0] = 3, [7] = 1 } } } },
	{ "prio-map 0-15:15", {
		.present = SLUICE_QOPT_PRIO_MAP,
		.maps[PRIO] = { .given = 0xffff, .tclass = {
			15, 15, 15, 15, 15, 15, 15, 15,
			15, 15, 15, 15, 15, 15, 15, 15 } } } },
	{ "pcp-map 1:1 classes 2", {
		.present = SLUICE_QOPT_PCP_MAP | SLUICE_QOPT_CLASSES,
		.classes = 2,
		.maps[PCP] = { .given = 0x2, .tclass[1] = 1 } } },
	{ "classes 16 prio-map 0:15 1:0", {
		.present = SLUICE_QOPT_CLASSES | SLUICE_QOPT_PRIO_MAP,
		.classes = 16,
		.maps[PRIO] = { .given = 0x3, .tclass[0] = 15 } } },
	{ "classes 32 pcp-map 0:31 1:16", {
		.present = SLUICE_QOPT_CLASSES | SLUICE_QOPT_PCP_MAP,
		.classes = 32,
		.maps[PCP] = { .given = 0x3, .tclass = { 31, 16 } } } },
	{ "classes 8 tag dscp default 7 limit 1m pcp-map 0:0 7:7 "
	  "dscp-map 0-63:7 mpls-tc-map 0-3:1 4-7:2 prio-map 15:6", {
		.present = SLUICE_QOPT_CLASSES | SLUICE_QOPT_TAG |
			   SLUICE_QOPT_DEFAULT | SLUICE_QOPT_LIMIT |
			   SLUICE_QOPT_PCP_MAP | SLUICE_QOPT_DSCP_MAP |
			   SLUICE_QOPT_MPLS_TC_MAP | SLUICE_QOPT_PRIO_MAP,
		.classes = 8, .tag = 2, .defclass = 7, .limit = 1048576,
		.maps[PCP] = { .given = 0x81, .tclass[7] = 7 },
		.maps[DSCP] = { .given = ~0ull, .tclass = {
			7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
			7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
			7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
			7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7 } },
		.maps[MPLS] = { .given = 0xff,
				.tclass = { 1, 1, 1, 1, 2, 2, 2, 2 } },
		.maps[PRIO] = { .given = 1u << 15, .tclass[15] = 6 } } },
	/* Maps returned to the default: a bit each, no entries. */
	{ "prio-map default", {
		.present = SLUICE_QOPT_DEFAULT_MAPS, .default_maps = 0x1 } },
	{ "pcp-map default", {
		.present = SLUICE_QOPT_DEFAULT_MAPS, .default_maps = 0x2 } },
	{ "dscp-map default", {
		.present = SLUICE_QOPT_DEFAULT_MAPS, .default_maps = 0x4 } },
	{ "mpls-tc-map default", {
		.present = SLUICE_QOPT_DEFAULT_MAPS, .default_maps = 0x8 } },
	{ "pcp-map default dscp-map default", {
		.present = SLUICE_QOPT_DEFAULT_MAPS, .default_maps = 0x6 } },
	{ "mpls-tc-map default prio-map default dscp-map default "
	  "pcp-map default", {
		.present = SLUICE_QOPT_DEFAULT_MAPS, .default_maps = 0xf } },
	/* "default" after a reset, or after entries, is the default class. */
	{ "pcp-map default default 3", {
		.present = SLUICE_QOPT_DEFAULT_MAPS | SLUICE_QOPT_DEFAULT,
		.defclass = 3, .default_maps = 0x2 } },
	{ "default 3 pcp-map default", {
		.present = SLUICE_QOPT_DEFAULT_MAPS | SLUICE_QOPT_DEFAULT,
		.defclass = 3, .default_maps = 0x2 } },
	{ "pcp-map 1:1 default 2 dscp-map default", {
		.present = SLUICE_QOPT_PCP_MAP | SLUICE_QOPT_DEFAULT |
			   SLUICE_QOPT_DEFAULT_MAPS,
		.defclass = 2, .default_maps = 0x4,
		.maps[PCP] = { .given = 0x2, .tclass[1] = 1 } } },
	/* Resetting one map and setting another's entries. */
	{ "classes 2 prio-map default dscp-map 46:1 tag dscp", {
		.present = SLUICE_QOPT_CLASSES | SLUICE_QOPT_TAG |
			   SLUICE_QOPT_DEFAULT_MAPS | SLUICE_QOPT_DSCP_MAP,
		.classes = 2, .tag = 2, .default_maps = 0x1,
		.maps[DSCP] = { .given = 1ull << 46, .tclass[46] = 1 } } },
	/* The link: tc's units, 1000-based, "bps" bytes/s; 0 is unshaped. */
	{ "rate 0", { .present = SLUICE_QOPT_RATE, .rate = 0 } },
	{ "rate 0bit", { .present = SLUICE_QOPT_RATE, .rate = 0 } },
	{ "rate 12345", { .present = SLUICE_QOPT_RATE, .rate = 12345 } },
	{ "rate 100mbit", { .present = SLUICE_QOPT_RATE, .rate = 100000000 } },
	{ "rate 100Mbit", { .present = SLUICE_QOPT_RATE, .rate = 100000000 } },
	{ "rate 2.5gbit", { .present = SLUICE_QOPT_RATE, .rate = 2500000000ull } },
	{ "rate 40Gbit", { .present = SLUICE_QOPT_RATE, .rate = 40000000000ull } },
	{ "rate 1tbit", { .present = SLUICE_QOPT_RATE, .rate = 1000000000000ull } },
	{ "rate 1kibit", { .present = SLUICE_QOPT_RATE, .rate = 1024 } },
	{ "rate 125mbps", { .present = SLUICE_QOPT_RATE, .rate = 1000000000 } },
	{ "rate 18446744073709551615", {
		.present = SLUICE_QOPT_RATE, .rate = 18446744073709551615ull } },
	/* PFC priorities, pause reception and the thresholds. */
	{ "pfc none", { .present = SLUICE_QOPT_PFC, .pfc = 0 } },
	{ "pfc 3", { .present = SLUICE_QOPT_PFC, .pfc = 0x08 } },
	{ "pfc 3,4", { .present = SLUICE_QOPT_PFC, .pfc = 0x18 } },
	{ "pfc 0-2,5", { .present = SLUICE_QOPT_PFC, .pfc = 0x27 } },
	{ "pfc 7,0", { .present = SLUICE_QOPT_PFC, .pfc = 0x81 } },
	{ "pfc 0-7", { .present = SLUICE_QOPT_PFC, .pfc = 0xff } },
	{ "pfc 6-6,03", { .present = SLUICE_QOPT_PFC, .pfc = 0x48 } },
	{ "pause-rx on", { .present = SLUICE_QOPT_PAUSE_RX, .pause_rx = 1 } },
	{ "pause-rx off", { .present = SLUICE_QOPT_PAUSE_RX, .pause_rx = 0 } },
	{ "xoff 50Kb xon 47Kb headroom 20Kb", {
		.present = THRESHOLDS,
		.xoff = 51200, .xon = 48128, .headroom = 20480 } },
	{ "xoff 0 xon 0b headroom 0", { .present = THRESHOLDS } },
	{ "xon 10k xoff 10240", {
		.present = SLUICE_QOPT_XON | SLUICE_QOPT_XOFF,
		.xoff = 10240, .xon = 10240 } },
	{ "xon 1m", { .present = SLUICE_QOPT_XON, .xon = 1048576 } },
	{ "headroom 134217727", {
		.present = SLUICE_QOPT_HEADROOM, .headroom = 134217727 } },
	{ "pause-time 1", { .present = SLUICE_QOPT_PAUSE_TIME, .pause_time = 1 } },
	{ "pause-time 65535", {
		.present = SLUICE_QOPT_PAUSE_TIME, .pause_time = 65535 } },
	{ "rate 0 pfc none", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_PFC } },
	{ "pfc 3 rate 1", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_PFC,
		.rate = 1, .pfc = 0x08 } },
	/* A switch port, and a keyword that ends a map. */
	{ "rate 100mbit pfc 3 xoff 50Kb xon 47Kb headroom 20Kb pause-time 1000", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_PFC | THRESHOLDS |
			   SLUICE_QOPT_PAUSE_TIME,
		.rate = 100000000, .pfc = 0x08, .xoff = 51200, .xon = 48128,
		.headroom = 20480, .pause_time = 1000 } },
	{ "pcp-map 3:3 pfc 3 pause-rx off", {
		.present = SLUICE_QOPT_PCP_MAP | SLUICE_QOPT_PFC |
			   SLUICE_QOPT_PAUSE_RX,
		.pfc = 0x08, .maps[PCP] = { .given = 0x8, .tclass[3] = 3 } } },
	/*
	 * "xoff auto": the parser only collects; cable defaults to 100 m, and
	 * xoff, xon and headroom wait for sluice_qopt_xoff_auto().
	 */
	{ "rate 10mbit limit 200Kb xoff auto", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_LIMIT |
			   SLUICE_QOPT_XOFF_AUTO,
		.rate = 10000000, .limit = 204800, .cable_m = 100 } },
	{ "xoff auto cable 3 mtu 9k rate 1gbit limit 1m", {
		.present = SLUICE_QOPT_XOFF_AUTO | SLUICE_QOPT_CABLE |
			   SLUICE_QOPT_MTU | SLUICE_QOPT_RATE |
			   SLUICE_QOPT_LIMIT,
		.rate = 1000000000, .limit = 1048576, .cable_m = 3,
		.mtu = 9216 } },
	{ "limit 64k rate 1mbit xoff auto mtu 1514 cable 0 xon 1k pfc 3", {
		.present = SLUICE_QOPT_LIMIT | SLUICE_QOPT_RATE |
			   SLUICE_QOPT_XOFF_AUTO | SLUICE_QOPT_MTU |
			   SLUICE_QOPT_CABLE | SLUICE_QOPT_XON |
			   SLUICE_QOPT_PFC,
		.limit = 65536, .rate = 1000000, .cable_m = 0, .mtu = 1514,
		.xon = 1024, .pfc = 0x08 } },
	{ "rate 1 limit 1 xoff auto cable 100000 mtu 134217727", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_LIMIT |
			   SLUICE_QOPT_XOFF_AUTO | SLUICE_QOPT_CABLE |
			   SLUICE_QOPT_MTU,
		.rate = 1, .limit = 1, .cable_m = 100000, .mtu = 134217727 } },
	/* "cable" ends a map, and "xoff auto" may follow one. */
	{ "pcp-map 3:3 xoff auto cable 007 rate 1 limit 1", {
		.present = SLUICE_QOPT_PCP_MAP | SLUICE_QOPT_XOFF_AUTO |
			   SLUICE_QOPT_CABLE | SLUICE_QOPT_RATE |
			   SLUICE_QOPT_LIMIT,
		.rate = 1, .limit = 1, .cable_m = 7,
		.maps[PCP] = { .given = 0x8, .tclass[3] = 3 } } },
	/* The PFC watchdog: TIME in ms, "ms" or "s", 10 ms to 60 s. */
	{ "watchdog 3", { .present = SLUICE_QOPT_WD_PRIOS, .wd_prios = 0x08 } },
	{ "watchdog all", { .present = SLUICE_QOPT_WD_PRIOS, .wd_prios = 0xff } },
	/* A PortFC port watches its data classes: no priority or pfc check. */
	{ "portfc switch portfc-n 4 classes 6 watchdog all pfc none", {
		.present = SLUICE_QOPT_PORTFC | SLUICE_QOPT_PORTFC_N |
			   SLUICE_QOPT_CLASSES | SLUICE_QOPT_WD_PRIOS |
			   SLUICE_QOPT_PFC,
		.portfc = TC_SLUICE_PORTFC_SWITCH, .portfc_n = 4,
		.classes = 6, .wd_prios = 0xff } },
	{ "watchdog none", { .present = SLUICE_QOPT_WD_PRIOS } },
	{ "watchdog 0-2,7", {
		.present = SLUICE_QOPT_WD_PRIOS, .wd_prios = 0x87 } },
	{ "watchdog-action drop", { .present = SLUICE_QOPT_WD_ACTION,
				    .wd_action = TC_SLUICE_WD_DROP } },
	{ "watchdog-action forward", { .present = SLUICE_QOPT_WD_ACTION,
				       .wd_action = TC_SLUICE_WD_FORWARD } },
	{ "watchdog-action alert", { .present = SLUICE_QOPT_WD_ACTION,
				     .wd_action = TC_SLUICE_WD_ALERT } },
	{ "detection-time 200", {
		.present = SLUICE_QOPT_WD_DETECT, .wd_detect_ms = 200 } },
	{ "detection-time 10ms", {
		.present = SLUICE_QOPT_WD_DETECT, .wd_detect_ms = 10 } },
	{ "restoration-time 60s", {
		.present = SLUICE_QOPT_WD_RESTORE, .wd_restore_ms = 60000 } },
	{ "restoration-time 0.25s", {
		.present = SLUICE_QOPT_WD_RESTORE, .wd_restore_ms = 250 } },
	{ "watchdog-poll 1.5s", {
		.present = SLUICE_QOPT_WD_POLL, .wd_poll_ms = 1500 } },
	{ "watchdog-poll 0.010s", {
		.present = SLUICE_QOPT_WD_POLL, .wd_poll_ms = 10 } },
	{ "watchdog-poll 100 detection-time 100ms", {
		.present = SLUICE_QOPT_WD_POLL | SLUICE_QOPT_WD_DETECT,
		.wd_poll_ms = 100, .wd_detect_ms = 100 } },
	/* "watchdog" ends a map; the bound follows "classes" if given. */
	{ "classes 4 pcp-map 3:3 watchdog 0-3 rate 1mbit", {
		.present = SLUICE_QOPT_CLASSES | SLUICE_QOPT_PCP_MAP |
			   SLUICE_QOPT_WD_PRIOS | SLUICE_QOPT_RATE,
		.classes = 4, .wd_prios = 0x0f, .rate = 1000000,
		.maps[PCP] = { .given = 0x8, .tclass[3] = 3 } } },
	{ "rate 0 watchdog none", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_WD_PRIOS } },
	/* PortFC: each option alone, at both ends of its range. */
	{ "portfc switch", {
		.present = SLUICE_QOPT_PORTFC,
		.portfc = TC_SLUICE_PORTFC_SWITCH } },
	{ "portfc server", {
		.present = SLUICE_QOPT_PORTFC,
		.portfc = TC_SLUICE_PORTFC_SERVER } },
	{ "portfc-n 2", { .present = SLUICE_QOPT_PORTFC_N, .portfc_n = 2 } },
	{ "portfc-n 16", { .present = SLUICE_QOPT_PORTFC_N, .portfc_n = 16 } },
	{ "portfc-k 0", { .present = SLUICE_QOPT_PORTFC_K } },
	{ "portfc-k 4", { .present = SLUICE_QOPT_PORTFC_K, .portfc_k = 4 } },
	{ "portfc-index 0", { .present = SLUICE_QOPT_PORTFC_INDEX } },
	{ "portfc-index 15", {
		.present = SLUICE_QOPT_PORTFC_INDEX, .portfc_index = 15 } },
	{ "portfc-label-base 0", { .present = SLUICE_QOPT_PORTFC_LABEL_BASE } },
	{ "portfc-label-base 1048575", {
		.present = SLUICE_QOPT_PORTFC_LABEL_BASE,
		.portfc_label_base = 1048575 } },
	{ "portfc-label-base 1048560 portfc-n 16", {
		.present = SLUICE_QOPT_PORTFC_LABEL_BASE | SLUICE_QOPT_PORTFC_N,
		.portfc_label_base = 1048560, .portfc_n = 16 } },
	{ "portfc-xoff-a 50Kb portfc-xon-a 47Kb portfc-xoff-b 1m portfc-xon-b 0", {
		.present = SLUICE_QOPT_PORTFC_THRESHOLDS,
		.portfc_xoff_a = 51200, .portfc_xon_a = 48128,
		.portfc_xoff_b = 1048576 } },
	{ "portfc-xoff-a 134217727 portfc-xon-a 134217727", {
		.present = SLUICE_QOPT_PORTFC_XOFF_A | SLUICE_QOPT_PORTFC_XON_A,
		.portfc_xoff_a = 134217727, .portfc_xon_a = 134217727 } },
	/* xon of one type is not bound by the other type's xoff */
	{ "portfc-xon-a 11k portfc-xoff-b 10k", {
		.present = SLUICE_QOPT_PORTFC_XON_A | SLUICE_QOPT_PORTFC_XOFF_B,
		.portfc_xon_a = 11264, .portfc_xoff_b = 10240 } },
	{ "portfc-hq none", { .present = SLUICE_QOPT_PORTFC_HQ } },
	{ "portfc-hq ack", {
		.present = SLUICE_QOPT_PORTFC_HQ,
		.portfc_hq = TC_SLUICE_PORTFC_HQ_ACK } },
	{ "portfc-hq arp", {
		.present = SLUICE_QOPT_PORTFC_HQ,
		.portfc_hq = TC_SLUICE_PORTFC_HQ_ARP } },
	{ "portfc-hq arp,ack", {
		.present = SLUICE_QOPT_PORTFC_HQ, .portfc_hq = 0x3 } },
	{ "portfc-hq-dscp 0", { .present = SLUICE_QOPT_PORTFC_HQ_DSCP } },
	{ "portfc-hq-dscp 63", {
		.present = SLUICE_QOPT_PORTFC_HQ_DSCP, .portfc_hq_dscp = 63 } },
	{ "portfc-hq-dscp none", {
		.present = SLUICE_QOPT_PORTFC_HQ_DSCP, .portfc_hq_dscp = 255 } },
	/*
	 * "portfc-rtt": BDP = rate * rtt / 8 bytes, rounded up; xoff is 6 and
	 * xon 4 of them, type A and B alike.  100 Mbit/s for 200 us is 2500
	 * bytes.
	 */
	{ "rate 100mbit portfc switch portfc-n 4 portfc-index 1 portfc-rtt 200us", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_PORTFC |
			   SLUICE_QOPT_PORTFC_N | SLUICE_QOPT_PORTFC_INDEX |
			   SLUICE_QOPT_PORTFC_RTT | SLUICE_QOPT_PORTFC_THRESHOLDS,
		.rate = 100000000, .portfc = TC_SLUICE_PORTFC_SWITCH,
		.portfc_n = 4, .portfc_index = 1, .portfc_rtt_ns = 200000,
		.portfc_xoff_a = 15000, .portfc_xon_a = 10000,
		.portfc_xoff_b = 15000, .portfc_xon_b = 10000 } },
	/* 1 Gbit/s for 1.5 ms: 187500 bytes */
	{ "portfc-rtt 1.5ms rate 1gbit", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_PORTFC_RTT |
			   SLUICE_QOPT_PORTFC_THRESHOLDS,
		.rate = 1000000000, .portfc_rtt_ns = 1500000,
		.portfc_xoff_a = 1125000, .portfc_xon_a = 750000,
		.portfc_xoff_b = 1125000, .portfc_xon_b = 750000 } },
	/* 100 Mbit/s for 2 ms: 25000 bytes */
	{ "rate 100mbit portfc-rtt 0.002s", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_PORTFC_RTT |
			   SLUICE_QOPT_PORTFC_THRESHOLDS,
		.rate = 100000000, .portfc_rtt_ns = 2000000,
		.portfc_xoff_a = 150000, .portfc_xon_a = 100000,
		.portfc_xoff_b = 150000, .portfc_xon_b = 100000 } },
	/* 6.25 bytes round up to 7; 0.000125 bytes to 1 */
	{ "rate 100mbit portfc-rtt 500ns", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_PORTFC_RTT |
			   SLUICE_QOPT_PORTFC_THRESHOLDS,
		.rate = 100000000, .portfc_rtt_ns = 500,
		.portfc_xoff_a = 42, .portfc_xon_a = 28,
		.portfc_xoff_b = 42, .portfc_xon_b = 28 } },
	{ "rate 1mbit portfc-rtt 1ns", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_PORTFC_RTT |
			   SLUICE_QOPT_PORTFC_THRESHOLDS,
		.rate = 1000000, .portfc_rtt_ns = 1,
		.portfc_xoff_a = 6, .portfc_xon_a = 4,
		.portfc_xoff_b = 6, .portfc_xon_b = 4 } },
	/* 125.000125 bytes round up to 126 */
	{ "rate 1000001 portfc-rtt 1ms", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_PORTFC_RTT |
			   SLUICE_QOPT_PORTFC_THRESHOLDS,
		.rate = 1000001, .portfc_rtt_ns = 1000000,
		.portfc_xoff_a = 756, .portfc_xon_a = 504,
		.portfc_xoff_b = 756, .portfc_xon_b = 504 } },
	/* The largest: a BDP of 22369621 bytes, xoff 134217726 */
	{ "rate 178956968 portfc-rtt 1s", {
		.present = SLUICE_QOPT_RATE | SLUICE_QOPT_PORTFC_RTT |
			   SLUICE_QOPT_PORTFC_THRESHOLDS,
		.rate = 178956968, .portfc_rtt_ns = 1000000000,
		.portfc_xoff_a = 134217726, .portfc_xon_a = 89478484,
		.portfc_xoff_b = 134217726, .portfc_xon_b = 89478484 } },
	/* The classes of each role: n + 2 and (k + 1) n + 2, k 1 by default. */
	{ "portfc switch portfc-n 4 classes 6 rate 100mbit pfc none", {
		.present = SLUICE_QOPT_PORTFC | SLUICE_QOPT_PORTFC_N |
			   SLUICE_QOPT_CLASSES | SLUICE_QOPT_RATE |
			   SLUICE_QOPT_PFC,
		.portfc = TC_SLUICE_PORTFC_SWITCH, .portfc_n = 4,
		.classes = 6, .rate = 100000000 } },
	{ "portfc switch portfc-n 16 portfc-k 4 classes 18", {
		.present = SLUICE_QOPT_PORTFC | SLUICE_QOPT_PORTFC_N |
			   SLUICE_QOPT_PORTFC_K | SLUICE_QOPT_CLASSES,
		.portfc = TC_SLUICE_PORTFC_SWITCH, .portfc_n = 16,
		.portfc_k = 4, .classes = 18 } },
	{ "classes 10 portfc server portfc-n 4", {
		.present = SLUICE_QOPT_PORTFC | SLUICE_QOPT_PORTFC_N |
			   SLUICE_QOPT_CLASSES,
		.portfc = TC_SLUICE_PORTFC_SERVER, .portfc_n = 4,
		.classes = 10 } },
	{ "portfc server portfc-n 6 portfc-k 4 classes 32", {
		.present = SLUICE_QOPT_PORTFC | SLUICE_QOPT_PORTFC_N |
			   SLUICE_QOPT_PORTFC_K | SLUICE_QOPT_CLASSES,
		.portfc = TC_SLUICE_PORTFC_SERVER, .portfc_n = 6,
		.portfc_k = 4, .classes = 32 } },
	{ "portfc server portfc-n 15 portfc-k 0", {
		.present = SLUICE_QOPT_PORTFC | SLUICE_QOPT_PORTFC_N |
			   SLUICE_QOPT_PORTFC_K,
		.portfc = TC_SLUICE_PORTFC_SERVER, .portfc_n = 15 } },
	/* "portfc" ends a map. */
	{ "pcp-map 1:1 portfc switch portfc-hq ack portfc-hq-dscp 46", {
		.present = SLUICE_QOPT_PCP_MAP | SLUICE_QOPT_PORTFC |
			   SLUICE_QOPT_PORTFC_HQ | SLUICE_QOPT_PORTFC_HQ_DSCP,
		.portfc = TC_SLUICE_PORTFC_SWITCH, .portfc_hq = 0x1,
		.portfc_hq_dscp = 46,
		.maps[PCP] = { .given = 0x2, .tclass[1] = 1 } } },
	{ "int-port 0", { .present = SLUICE_QOPT_INT_PORT } },
	{ "int-port 65535", {
		.present = SLUICE_QOPT_INT_PORT, .int_port = 65535 } },
	{ "int-port 5555 int-node 4294967295 int-link 0", {
		.present = SLUICE_QOPT_INT_PORT | SLUICE_QOPT_INT_NODE |
			   SLUICE_QOPT_INT_LINK,
		.int_port = 5555, .int_node = 4294967295u } },
	/* "int-link" ends a map; node and link alone (the port set later). */
	{ "dscp-map 46:5 int-link 12 int-node 3", {
		.present = SLUICE_QOPT_DSCP_MAP | SLUICE_QOPT_INT_NODE |
			   SLUICE_QOPT_INT_LINK,
		.int_node = 3, .int_link = 12,
		.maps[DSCP] = { .given = 1ull << 46, .tclass[46] = 5 } } },
};

/* Each rule of the parser, with the exact message it must give. */
static const struct invalid_case {
	const char	*line;
	const char	*msg;
} invalid_cases[] = {
	{ "foo", "unknown option \"foo\"" },
	{ "watchdog 3 watchdog 4", "duplicate option \"watchdog\"" },
	{ "watchdog", "missing value after \"watchdog\"" },
	{ "watchdog 8", "\"watchdog\" item \"8\": priority must be 0..7" },
	{ "watchdog 4-2", "\"watchdog\" item \"4-2\": range is reversed" },
	{ "watchdog 3,3", "\"watchdog\" item \"3\": priority already given" },
	{ "watchdog x",
	  "\"watchdog\" must be none or priorities such as 3,4 or 0-2,5, not \"x\"" },
	{ "classes 4 watchdog 3,4",
	  "\"watchdog 3,4\": priorities must be 0..3 with classes 4" },
	{ "watchdog 3 rate 0",
	  "\"watchdog 3\" needs a \"rate\" above 0: pauses are honoured only with one" },
	{ "pfc 3 watchdog 3,4",
	  "\"watchdog 3,4\" watches lossless priorities only, not all in \"pfc 3\"" },
	{ "watchdog-action Drop",
	  "\"watchdog-action\" must be drop, forward or alert, not \"Drop\"" },
	{ "watchdog-action", "missing value after \"watchdog-action\"" },
	{ "detection-time 9",
	  "\"detection-time\" must be 10..60000 ms (e.g. 200, 200ms or 0.2s), not \"9\"" },
	{ "detection-time 60001ms",
	  "\"detection-time\" must be 10..60000 ms (e.g. 200, 200ms or 0.2s), not \"60001ms\"" },
	{ "restoration-time 61s",
	  "\"restoration-time\" must be 10..60000 ms (e.g. 200, 200ms or 0.2s), not \"61s\"" },
	{ "restoration-time 0.0001s",
	  "\"restoration-time\" must be 10..60000 ms (e.g. 200, 200ms or 0.2s), not \"0.0001s\"" },
	{ "restoration-time 1.5ms",
	  "\"restoration-time\" must be 10..60000 ms (e.g. 200, 200ms or 0.2s), not \"1.5ms\"" },
	{ "watchdog-poll 1m",
	  "\"watchdog-poll\" must be 10..60000 ms (e.g. 200, 200ms or 0.2s), not \"1m\"" },
	{ "watchdog-poll -100",
	  "\"watchdog-poll\" must be 10..60000 ms (e.g. 200, 200ms or 0.2s), not \"-100\"" },
	{ "watchdog-poll 99999999999999999999",
	  "\"watchdog-poll\" must be 10..60000 ms (e.g. 200, 200ms or 0.2s), not \"99999999999999999999\"" },
	{ "watchdog-poll 1. ",
	  "\"watchdog-poll\" must be 10..60000 ms (e.g. 200, 200ms or 0.2s), not \"1.\"" },
	{ "detection-time 0.1s watchdog-poll 101",
	  "\"watchdog-poll\" must be at most \"detection-time\" (0.1s), not \"101\"" },
	{ "classes 4 bar 1", "unknown option \"bar\"" },
	{ "Classes 4", "unknown option \"Classes\"" },
	{ "class 4", "unknown option \"class\"" },
	{ "classes 4 classes 4", "duplicate option \"classes\"" },
	{ "tag pcp tag dscp", "duplicate option \"tag\"" },
	{ "limit 1k default 1 limit 2k", "duplicate option \"limit\"" },
	{ "pcp-map 1:1 pcp-map 2:2", "duplicate option \"pcp-map\"" },
	{ "classes", "missing value after \"classes\"" },
	{ "tag", "missing value after \"tag\"" },
	{ "classes 4 default", "missing value after \"default\"" },
	{ "limit", "missing value after \"limit\"" },
	{ "pcp-map", "missing entries after \"pcp-map\"" },
	{ "dscp-map classes 4", "missing entries after \"dscp-map\"" },
	{ "mpls-tc-map prio-map 0:0", "missing entries after \"mpls-tc-map\"" },
	{ "classes 0", "\"classes\" must be 1..32, not \"0\"" },
	{ "classes 33", "\"classes\" must be 1..32, not \"33\"" },
	{ "classes abc", "\"classes\" must be 1..32, not \"abc\"" },
	{ "classes -1", "\"classes\" must be 1..32, not \"-1\"" },
	{ "classes +4", "\"classes\" must be 1..32, not \"+4\"" },
	{ "classes 4x", "\"classes\" must be 1..32, not \"4x\"" },
	{ "classes 99999999999999999999",
	  "\"classes\" must be 1..32, not \"99999999999999999999\"" },
	{ "tag vlan",
	  "\"tag\" must be priority, pcp, dscp or mpls-tc, not \"vlan\"" },
	{ "tag PCP",
	  "\"tag\" must be priority, pcp, dscp or mpls-tc, not \"PCP\"" },
	{ "default 32", "\"default\" must be 0..31, not \"32\"" },
	{ "default x", "\"default\" must be 0..31, not \"x\"" },
	{ "classes 4 default 4",
	  "\"default\" must be 0..3 with classes 4, not \"4\"" },
	{ "default 5 classes 2",
	  "\"default\" must be 0..1 with classes 2, not \"5\"" },
	{ "limit 0", "\"limit\" must be 1..134217727 bytes, not \"0\"" },
	{ "limit 134217728",
	  "\"limit\" must be 1..134217727 bytes, not \"134217728\"" },
	{ "limit 128m", "\"limit\" must be 1..134217727 bytes, not \"128m\"" },
	{ "limit 1gbit", "\"limit\" must be 1..134217727 bytes, not \"1gbit\"" },
	{ "limit 2gbit", "\"limit\" must be 1..134217727 bytes, not \"2gbit\"" },
	{ "limit 3g", "\"limit\" must be 1..134217727 bytes, not \"3g\"" },
	{ "limit 4294967295",
	  "\"limit\" must be 1..134217727 bytes, not \"4294967295\"" },
	{ "limit 4294967296",
	  "\"limit\" must be 1..134217727 bytes, not \"4294967296\"" },
	{ "limit 4g", "\"limit\" must be 1..134217727 bytes, not \"4g\"" },
	{ "limit 1.5k", "\"limit\" must be 1..134217727 bytes, not \"1.5k\"" },
	{ "limit -1", "\"limit\" must be 1..134217727 bytes, not \"-1\"" },
	{ "limit 10q", "\"limit\" must be 1..134217727 bytes, not \"10q\"" },
	{ "pcp-map 8:1", "\"pcp-map\" entry \"8:1\": value must be 0..7" },
	{ "dscp-map 64:1", "\"dscp-map\" entry \"64:1\": value must be 0..63" },
	{ "mpls-tc-map 0-8:1",
	  "\"mpls-tc-map\" entry \"0-8:1\": value must be 0..7" },
	{ "prio-map 16:0", "\"prio-map\" entry \"16:0\": value must be 0..15" },
	{ "pcp-map 99999999999999999999:1",
	  "\"pcp-map\" entry \"99999999999999999999:1\": value must be 0..7" },
	{ "pcp-map 5-3:1", "\"pcp-map\" entry \"5-3:1\": range 5-3 is reversed" },
	{ "pcp-map 1:32", "\"pcp-map\" entry \"1:32\": class must be 0..31" },
	{ "classes 4 pcp-map 1:4",
	  "\"pcp-map\" entry \"1:4\": class must be 0..3 with classes 4" },
	{ "prio-map 0:1 1-3:7 classes 4",
	  "\"prio-map\" entry \"1-3:7\": class must be 0..3 with classes 4" },
	{ "pcp-map 3:1 2-4:0",
	  "\"pcp-map\" entry \"2-4:0\": value 3 is already mapped by \"3:1\"" },
	{ "dscp-map 46:5 46:5",
	  "\"dscp-map\" entry \"46:5\": value 46 is already mapped by \"46:5\"" },
	{ "pcp-map 1", "\"pcp-map\" entry \"1\" is not VALUE[-VALUE]:CLASS" },
	{ "pcp-map 1:", "\"pcp-map\" entry \"1:\" is not VALUE[-VALUE]:CLASS" },
	{ "pcp-map :1", "\"pcp-map\" entry \":1\" is not VALUE[-VALUE]:CLASS" },
	{ "pcp-map 1-:2", "\"pcp-map\" entry \"1-:2\" is not VALUE[-VALUE]:CLASS" },
	{ "pcp-map 1:2:3",
	  "\"pcp-map\" entry \"1:2:3\" is not VALUE[-VALUE]:CLASS" },
	{ "pcp-map 0:0 defualt 1",
	  "\"pcp-map\" entry \"defualt\" is not VALUE[-VALUE]:CLASS" },
	{ "pcp-map default 3:1",
	  "\"pcp-map default\" takes no entries, not \"3:1\"" },
	{ "dscp-map default 46:5 10:1",
	  "\"dscp-map default\" takes no entries, not \"46:5\"" },
	{ "classes 4 prio-map default bogus",
	  "\"prio-map default\" takes no entries, not \"bogus\"" },
	{ "pcp-map default pcp-map 1:1",
	  "\"pcp-map\" cannot be both reset to \"default\" and given entries" },
	{ "mpls-tc-map 0:1 classes 4 mpls-tc-map default",
	  "\"mpls-tc-map\" cannot be both reset to \"default\" and given entries" },
	{ "dscp-map default dscp-map",
	  "\"dscp-map\" cannot be both reset to \"default\" and given entries" },
	{ "pcp-map default pcp-map default", "duplicate option \"pcp-map\"" },
	{ "pcp-map default default", "missing value after \"default\"" },
	{ "pcp-map 1:1 default", "missing value after \"default\"" },
	{ "pcp-map Default",
	  "\"pcp-map\" entry \"Default\" is not VALUE[-VALUE]:CLASS" },
	/* rate */
	{ "rate", "missing value after \"rate\"" },
	{ "rate 1gbit rate 2gbit", "duplicate option \"rate\"" },
	{ "rate fast",
	  "\"rate\" must be a rate such as 0, 100mbit or 2.5gbit, not \"fast\"" },
	{ "rate -1",
	  "\"rate\" must be a rate such as 0, 100mbit or 2.5gbit, not \"-1\"" },
	{ "rate 10gbits",
	  "\"rate\" must be a rate such as 0, 100mbit or 2.5gbit, not \"10gbits\"" },
	{ "rate 1.",
	  "\"rate\" must be a rate such as 0, 100mbit or 2.5gbit, not \"1.\"" },
	{ "rate .5gbit",
	  "\"rate\" must be a rate such as 0, 100mbit or 2.5gbit, not \".5gbit\"" },
	{ "rate 1e9",
	  "\"rate\" must be a rate such as 0, 100mbit or 2.5gbit, not \"1e9\"" },
	{ "rate 1.5bit", "\"rate\" must be a whole number of bits/s, not \"1.5bit\"" },
	{ "rate 1.0001kbit",
	  "\"rate\" must be a whole number of bits/s, not \"1.0001kbit\"" },
	{ "rate 18446744073709551616",
	  "\"rate\" must be at most 18446744073709551615bit, not \"18446744073709551616\"" },
	{ "rate 20000000tbit",
	  "\"rate\" must be at most 18446744073709551615bit, not \"20000000tbit\"" },
	/* pfc */
	{ "pfc", "missing value after \"pfc\"" },
	{ "pfc 3 pfc 4", "duplicate option \"pfc\"" },
	{ "pfc all",
	  "\"pfc\" must be none or priorities such as 3,4 or 0-2,5, not \"all\"" },
	{ "pfc 3,,4",
	  "\"pfc\" must be none or priorities such as 3,4 or 0-2,5, not \"3,,4\"" },
	{ "pfc 3,",
	  "\"pfc\" must be none or priorities such as 3,4 or 0-2,5, not \"3,\"" },
	{ "pfc none,3",
	  "\"pfc\" must be none or priorities such as 3,4 or 0-2,5, not \"none,3\"" },
	{ "pfc 1-2-3",
	  "\"pfc\" must be none or priorities such as 3,4 or 0-2,5, not \"1-2-3\"" },
	{ "pfc 3,x9",
	  "\"pfc\" must be none or priorities such as 3,4 or 0-2,5, not \"3,x9\"" },
	{ "pfc 3 4", "unknown option \"4\"" },
	{ "pfc 8", "\"pfc\" item \"8\": priority must be 0..7" },
	{ "pfc 3,6-9,1", "\"pfc\" item \"6-9\": priority must be 0..7" },
	{ "pfc 99999999999999999999",
	  "\"pfc\" item \"99999999999999999999\": priority must be 0..7" },
	{ "pfc 1,5-3", "\"pfc\" item \"5-3\": range is reversed" },
	{ "pfc 3,3", "\"pfc\" item \"3\": priority already given" },
	{ "pfc 0-3,2-4", "\"pfc\" item \"2-4\": priority already given" },
	/* pause-rx */
	{ "pause-rx", "missing value after \"pause-rx\"" },
	{ "pause-rx yes", "\"pause-rx\" must be on or off, not \"yes\"" },
	{ "pause-rx ON", "\"pause-rx\" must be on or off, not \"ON\"" },
	{ "pause-rx 1", "\"pause-rx\" must be on or off, not \"1\"" },
	/* xoff, xon, headroom */
	{ "xoff", "missing value after \"xoff\"" },
	{ "xon 1k xon 1k", "duplicate option \"xon\"" },
	{ "xoff -1", "\"xoff\" must be auto or 0..134217727 bytes, not \"-1\"" },
	{ "xoff 128m",
	  "\"xoff\" must be auto or 0..134217727 bytes, not \"128m\"" },
	{ "xoff Auto",
	  "\"xoff\" must be auto or 0..134217727 bytes, not \"Auto\"" },
	{ "xon 1.5k", "\"xon\" must be 0..134217727 bytes, not \"1.5k\"" },
	{ "headroom 4g", "\"headroom\" must be 0..134217727 bytes, not \"4g\"" },
	{ "headroom 134217728",
	  "\"headroom\" must be 0..134217727 bytes, not \"134217728\"" },
	{ "xoff 10k xon 11k",
	  "\"xon\" must be at most \"xoff\" (10k), not \"11k\"" },
	{ "xon 50Kb headroom 1k xoff 51199",
	  "\"xon\" must be at most \"xoff\" (51199), not \"50Kb\"" },
	/* pause-time */
	{ "pause-time", "missing value after \"pause-time\"" },
	{ "pause-time 0", "\"pause-time\" must be 1..65535 quanta, not \"0\"" },
	{ "pause-time 65536",
	  "\"pause-time\" must be 1..65535 quanta, not \"65536\"" },
	{ "pause-time 0x10",
	  "\"pause-time\" must be 1..65535 quanta, not \"0x10\"" },
	/* PFC on a port without a rate */
	{ "rate 0 pfc 3",
	  "\"pfc 3\" needs a \"rate\" above 0: pause quanta are bit times" },
	{ "pfc 0-2,5 xoff 1k rate 0kbit",
	  "\"pfc 0-2,5\" needs a \"rate\" above 0: pause quanta are bit times" },
	/* xoff auto: what it needs from the same command */
	{ "xoff auto",
	  "\"xoff auto\" needs \"rate\" in the same command: the headroom follows the link's rate" },
	{ "limit 1m xoff auto mtu 1514",
	  "\"xoff auto\" needs \"rate\" in the same command: the headroom follows the link's rate" },
	{ "rate 0bit limit 1m xoff auto",
	  "\"xoff auto\" needs a \"rate\" above 0, not \"0bit\"" },
	{ "rate 0 pfc 3 limit 1m xoff auto",
	  "\"pfc 3\" needs a \"rate\" above 0: pause quanta are bit times" },
	{ "rate 10mbit xoff auto cable 0",
	  "\"xoff auto\" needs \"limit\" in the same command: xoff is the limit less the headroom" },
	{ "rate 10mbit limit 1m xoff auto headroom 10k",
	  "\"headroom\" and \"xoff auto\" conflict: \"xoff auto\" computes the headroom" },
	{ "headroom 0 xoff auto rate 10mbit limit 1m",
	  "\"headroom\" and \"xoff auto\" conflict: \"xoff auto\" computes the headroom" },
	{ "xoff auto xoff 1k", "duplicate option \"xoff\"" },
	{ "xoff 1k xoff auto", "duplicate option \"xoff\"" },
	{ "xoff auto xoff auto", "duplicate option \"xoff\"" },
	/* cable and mtu: right after "xoff auto" only, once each */
	{ "cable 100", "\"cable\" is only valid right after \"xoff auto\"" },
	{ "mtu 1514 xoff auto",
	  "\"mtu\" is only valid right after \"xoff auto\"" },
	{ "xoff auto rate 10mbit cable 5",
	  "\"cable\" is only valid right after \"xoff auto\"" },
	{ "xoff 10k mtu 1514",
	  "\"mtu\" is only valid right after \"xoff auto\"" },
	{ "pcp-map 1:1 mtu 1500",
	  "\"mtu\" is only valid right after \"xoff auto\"" },
	{ "xoff auto cable 5 cable 6", "duplicate option \"cable\"" },
	{ "xoff auto mtu 1k cable 5 mtu 1k", "duplicate option \"mtu\"" },
	{ "xoff auto cable", "missing value after \"cable\"" },
	{ "xoff auto cable 1 mtu", "missing value after \"mtu\"" },
	{ "xoff auto cable 100001",
	  "\"cable\" must be 0..100000 metres, not \"100001\"" },
	{ "xoff auto cable -1", "\"cable\" must be 0..100000 metres, not \"-1\"" },
	{ "xoff auto cable 1.5",
	  "\"cable\" must be 0..100000 metres, not \"1.5\"" },
	{ "xoff auto cable 10m",
	  "\"cable\" must be 0..100000 metres, not \"10m\"" },
	{ "xoff auto cable rate",
	  "\"cable\" must be 0..100000 metres, not \"rate\"" },
	{ "xoff auto mtu 0", "\"mtu\" must be 1..134217727 bytes, not \"0\"" },
	{ "xoff auto mtu 128m",
	  "\"mtu\" must be 1..134217727 bytes, not \"128m\"" },
	{ "xoff auto mtu jumbo",
	  "\"mtu\" must be 1..134217727 bytes, not \"jumbo\"" },
	/* PortFC: each option's values */
	{ "portfc", "missing value after \"portfc\"" },
	{ "portfc switch portfc server", "duplicate option \"portfc\"" },
	{ "portfc none", "\"portfc\" must be switch or server, not \"none\"" },
	{ "portfc Switch",
	  "\"portfc\" must be switch or server, not \"Switch\"" },
	{ "portfc-n 1", "\"portfc-n\" must be 2..16, not \"1\"" },
	{ "portfc-n 17", "\"portfc-n\" must be 2..16, not \"17\"" },
	{ "portfc-n four", "\"portfc-n\" must be 2..16, not \"four\"" },
	{ "portfc-k 5", "\"portfc-k\" must be 0..4, not \"5\"" },
	{ "portfc-k -1", "\"portfc-k\" must be 0..4, not \"-1\"" },
	{ "portfc-index 16", "\"portfc-index\" must be 0..15, not \"16\"" },
	{ "portfc-index", "missing value after \"portfc-index\"" },
	{ "portfc-label-base 1048576",
	  "\"portfc-label-base\" must be an MPLS label, 0..1048575, not \"1048576\"" },
	{ "portfc-label-base 0x64",
	  "\"portfc-label-base\" must be an MPLS label, 0..1048575, not \"0x64\"" },
	{ "portfc-xoff-a 128m",
	  "\"portfc-xoff-a\" must be 0..134217727 bytes, not \"128m\"" },
	{ "portfc-xon-a 1.5k",
	  "\"portfc-xon-a\" must be 0..134217727 bytes, not \"1.5k\"" },
	{ "portfc-xoff-b auto",
	  "\"portfc-xoff-b\" must be 0..134217727 bytes, not \"auto\"" },
	{ "portfc-xon-b -1",
	  "\"portfc-xon-b\" must be 0..134217727 bytes, not \"-1\"" },
	{ "portfc-hq", "missing value after \"portfc-hq\"" },
	{ "portfc-hq syn", "\"portfc-hq\" item \"syn\": must be ack or arp" },
	{ "portfc-hq ack,ARP",
	  "\"portfc-hq\" item \"ARP\": must be ack or arp" },
	{ "portfc-hq none,ack",
	  "\"portfc-hq\" item \"none\": must be ack or arp" },
	{ "portfc-hq arp,ack,arp",
	  "\"portfc-hq\" item \"arp\": already given" },
	{ "portfc-hq ack,",
	  "\"portfc-hq\" must be none or a list of ack and arp such as ack,arp, not \"ack,\"" },
	{ "portfc-hq ,arp",
	  "\"portfc-hq\" must be none or a list of ack and arp such as ack,arp, not \",arp\"" },
	{ "portfc-hq-dscp 64",
	  "\"portfc-hq-dscp\" must be none or a DSCP, 0..63, not \"64\"" },
	{ "portfc-hq-dscp 255",
	  "\"portfc-hq-dscp\" must be none or a DSCP, 0..63, not \"255\"" },
	{ "portfc-hq-dscp off",
	  "\"portfc-hq-dscp\" must be none or a DSCP, 0..63, not \"off\"" },
	{ "int-port 65536",
	  "\"int-port\" must be a UDP port, 0..65535 (0: off), not \"65536\"" },
	{ "int-port -1",
	  "\"int-port\" must be a UDP port, 0..65535 (0: off), not \"-1\"" },
	{ "int-port 0x15b3",
	  "\"int-port\" must be a UDP port, 0..65535 (0: off), not \"0x15b3\"" },
	{ "int-node 4294967296",
	  "\"int-node\" must be 0..4294967295, not \"4294967296\"" },
	{ "int-link spine1",
	  "\"int-link\" must be 0..4294967295, not \"spine1\"" },
	{ "int-port 5555 int-port 5556", "duplicate option \"int-port\"" },
	{ "int-node", "missing value after \"int-node\"" },
	{ "portfc-rtt 200",
	  "\"portfc-rtt\" must be a time from 1ns to 1s such as 200us, 1.5ms or 0.2s, not \"200\"" },
	{ "portfc-rtt 0us",
	  "\"portfc-rtt\" must be a time from 1ns to 1s such as 200us, 1.5ms or 0.2s, not \"0us\"" },
	{ "portfc-rtt 2s",
	  "\"portfc-rtt\" must be a time from 1ns to 1s such as 200us, 1.5ms or 0.2s, not \"2s\"" },
	{ "portfc-rtt 1.000000001s",
	  "\"portfc-rtt\" must be a time from 1ns to 1s such as 200us, 1.5ms or 0.2s, not \"1.000000001s\"" },
	{ "portfc-rtt 0.5ns",
	  "\"portfc-rtt\" must be a time from 1ns to 1s such as 200us, 1.5ms or 0.2s, not \"0.5ns\"" },
	{ "portfc-rtt 1.us",
	  "\"portfc-rtt\" must be a time from 1ns to 1s such as 200us, 1.5ms or 0.2s, not \"1.us\"" },
	{ "portfc-rtt 200US",
	  "\"portfc-rtt\" must be a time from 1ns to 1s such as 200us, 1.5ms or 0.2s, not \"200US\"" },
	{ "portfc-rtt 1ms portfc-rtt 2ms", "duplicate option \"portfc-rtt\"" },
	/* PortFC: between options */
	{ "portfc-xoff-a 10k portfc-xon-a 11k",
	  "\"portfc-xon-a\" must be at most \"portfc-xoff-a\" (10k), not \"11k\"" },
	{ "portfc-xon-b 2m portfc-xoff-b 1m",
	  "\"portfc-xon-b\" must be at most \"portfc-xoff-b\" (1m), not \"2m\"" },
	{ "portfc-index 4 portfc-n 4",
	  "\"portfc-index\" must be below \"portfc-n\" (4), not \"4\"" },
	{ "portfc-n 16 portfc-label-base 1048561",
	  "\"portfc-label-base 1048561\" with portfc-n 16: port 15's label would be above 1048575" },
	{ "portfc switch rate 0",
	  "\"portfc switch\" needs a \"rate\" above 0: pause quanta are bit times" },
	{ "rate 1mbit pfc 3 portfc server",
	  "\"pfc 3\" and \"portfc server\" conflict: PortFC is the port's flow control" },
	{ "portfc switch portfc-n 4 classes 8",
	  "\"classes\" must be 6 for \"portfc switch\" with portfc-n 4, not \"8\"" },
	{ "classes 8 portfc server portfc-n 4 portfc-k 1",
	  "\"classes\" must be 10 for \"portfc server\" with portfc-n 4 and portfc-k 1, not \"8\"" },
	{ "portfc server portfc-n 16 portfc-k 1",
	  "\"portfc server\" with portfc-n 16 and portfc-k 1 needs 34 classes, more than 32" },
	{ "portfc server portfc-n 7 portfc-k 4 classes 32",
	  "\"portfc server\" with portfc-n 7 and portfc-k 4 needs 37 classes, more than 32" },
	/* portfc-rtt: what it needs from the same command, what it excludes */
	{ "portfc-rtt 200us",
	  "\"portfc-rtt\" needs \"rate\" in the same command: the thresholds are bandwidth-delay products of the link's rate" },
	{ "rate 0bit portfc-rtt 200us",
	  "\"portfc-rtt\" needs a \"rate\" above 0, not \"0bit\"" },
	{ "rate 1gbit portfc-rtt 200us portfc-xoff-b 1k",
	  "\"portfc-xoff-b\" and \"portfc-rtt\" conflict: \"portfc-rtt\" sets xoff and xon of both queue types" },
	{ "portfc-xon-a 0 rate 1gbit portfc-rtt 200us",
	  "\"portfc-xon-a\" and \"portfc-rtt\" conflict: \"portfc-rtt\" sets xoff and xon of both queue types" },
	/* 25 MB: 6 of them are above 128 MiB */
	{ "rate 100gbit portfc-rtt 2ms",
	  "\"portfc-rtt 2ms\" at \"rate 100gbit\": xoff, 6 times the bandwidth-delay product of 25000000 bytes, would be above 134217727 bytes" },
	/* One bit/s more than the largest: 22369621.125 bytes round up */
	{ "rate 178956969 portfc-rtt 1s",
	  "\"portfc-rtt 1s\" at \"rate 178956969\": xoff, 6 times the bandwidth-delay product of 22369622 bytes, would be above 134217727 bytes" },
	/* rate x rtt past 64 bits of bit-nanoseconds: still the real BDP */
	{ "rate 20gbit portfc-rtt 1s",
	  "\"portfc-rtt 1s\" at \"rate 20gbit\": xoff, 6 times the bandwidth-delay product of 2500000000 bytes, would be above 134217727 bytes" },
};

/*
 * sluice_qopt_xoff_auto() after a parse.  The headroom is eq. (1) of
 * Tagger, b_hr = 2 * (s_MTU + s_PFC + r * t_wire) + r * t_pro, worked out
 * here by hand with s_PFC = 64 bytes = 512 bits, t_wire = 5 ns/m and
 * r * t_pro = 60 quanta * 512 bits = 30720 bits; xoff = limit - headroom,
 * xon = xoff - s_MTU unless given.
 */
#define AUTO_SET	(SLUICE_QOPT_XOFF_AUTO | THRESHOLDS)

static const struct auto_case {
	const char	*line;
	const char	*dev;
	__u32		dev_mtu;
	int		ret;
	/* expected: present, xoff, xon, headroom, mtu; or the message */
	unsigned int	present;
	__u32		xoff, xon, headroom, mtu;
	const char	*msg;
} auto_cases[] = {
	/*
	 * 10 Mbit/s over 100 m (the default): r * t_wire = 1e7 * 500e-9 = 5
	 * bits; b_hr = 2 * (1514 * 8 + 512 + 5) + 30720 = 2 * 12629 + 30720
	 * = 55978 bits = 6997.25 bytes, 6998 rounded up.  xoff = 204800 -
	 * 6998 = 197802, xon = 197802 - 1514 = 196288.
	 */
	{ "rate 10mbit limit 200Kb xoff auto mtu 1514", "eth0", 0, 0,
	  SLUICE_QOPT_RATE | SLUICE_QOPT_LIMIT | SLUICE_QOPT_MTU | AUTO_SET,
	  197802, 196288, 6998, 1514, "" },
	/* The same from the device's MTU, 1500 + 14. */
	{ "rate 10mbit limit 200Kb xoff auto cable 100", "eth0", 1500, 0,
	  SLUICE_QOPT_RATE | SLUICE_QOPT_LIMIT | SLUICE_QOPT_CABLE | AUTO_SET,
	  197802, 196288, 6998, 1514, "" },
	/* "mtu" wins over the device's. */
	{ "rate 10mbit limit 200Kb xoff auto mtu 1514", "eth0", 9000, 0,
	  SLUICE_QOPT_RATE | SLUICE_QOPT_LIMIT | SLUICE_QOPT_MTU | AUTO_SET,
	  197802, 196288, 6998, 1514, "" },
	/*
	 * A veth pair, no cable: b_hr = 2 * (12112 + 512) + 30720 = 55968
	 * bits = 6996 bytes; xoff = 65536 - 6996 = 58540, xon = 58540 - 1514
	 * = 57026.
	 */
	{ "rate 100mbit limit 64k xoff auto cable 0 mtu 1514", NULL, 0, 0,
	  SLUICE_QOPT_RATE | SLUICE_QOPT_LIMIT | SLUICE_QOPT_CABLE |
	  SLUICE_QOPT_MTU | AUTO_SET, 58540, 57026, 6996, 1514, "" },
	/*
	 * Tagger's example, 40 Gbit/s over 300 m with 1500-byte frames:
	 * 21968 bytes; xoff = 1048576 - 21968 = 1026608, xon = 1026608 -
	 * 1500 = 1025108.
	 */
	{ "rate 40gbit limit 1m xoff auto cable 300 mtu 1500", NULL, 0, 0,
	  SLUICE_QOPT_RATE | SLUICE_QOPT_LIMIT | SLUICE_QOPT_CABLE |
	  SLUICE_QOPT_MTU | AUTO_SET, 1026608, 1025108, 21968, 1500, "" },
	/* A given xon is kept, up to xoff itself. */
	{ "rate 10mbit limit 200Kb xoff auto mtu 1514 xon 100k", NULL, 0, 0,
	  SLUICE_QOPT_RATE | SLUICE_QOPT_LIMIT | SLUICE_QOPT_MTU | AUTO_SET,
	  197802, 102400, 6998, 1514, "" },
	{ "xon 197802 rate 10mbit limit 200Kb xoff auto mtu 1514", NULL, 0, 0,
	  SLUICE_QOPT_RATE | SLUICE_QOPT_LIMIT | SLUICE_QOPT_MTU | AUTO_SET,
	  197802, 197802, 6998, 1514, "" },
	/* A limit just above the headroom: xoff 1, xon floored at 0. */
	{ "rate 100mbit limit 6997 xoff auto cable 0 mtu 1514", NULL, 0, 0,
	  SLUICE_QOPT_RATE | SLUICE_QOPT_LIMIT | SLUICE_QOPT_CABLE |
	  SLUICE_QOPT_MTU | AUTO_SET, 1, 0, 6996, 1514, "" },
	{ "rate 100mbit limit 8510 xoff auto cable 0 mtu 1514", NULL, 0, 0,
	  SLUICE_QOPT_RATE | SLUICE_QOPT_LIMIT | SLUICE_QOPT_CABLE |
	  SLUICE_QOPT_MTU | AUTO_SET, 1514, 0, 6996, 1514, "" },
	/* Without "xoff auto", nothing changes. */
	{ "xoff 1k limit 2k", NULL, 0, 0,
	  SLUICE_QOPT_XOFF | SLUICE_QOPT_LIMIT, 1024, 0, 0, 0, "" },
	/* The limit must exceed the headroom: xoff would be 0 or less. */
	{ "rate 100mbit limit 6996 xoff auto cable 0 mtu 1514", NULL, 0,
	  -EINVAL, 0, 0, 0, 0, 0,
	  "\"limit\" 6996 bytes is too small for \"xoff auto\": the headroom alone is 6996 bytes" },
	{ "rate 10mbit limit 6k xoff auto", "eth0", 1500, -EINVAL, 0, 0, 0, 0, 0,
	  "\"limit\" 6144 bytes is too small for \"xoff auto\": the headroom alone is 6998 bytes" },
	{ "rate 10mbit limit 200Kb xoff auto mtu 1514 xon 197803", NULL, 0,
	  -EINVAL, 0, 0, 0, 0, 0,
	  "\"xon\" 197803 bytes must be at most the xoff of \"xoff auto\", 197802 bytes" },
	/* No "mtu" and no device's MTU. */
	{ "rate 10mbit limit 200Kb xoff auto", "nosuch0", 0, -EINVAL,
	  0, 0, 0, 0, 0,
	  "\"xoff auto\" needs \"mtu\": cannot read the MTU of \"nosuch0\"" },
	{ "rate 10mbit limit 200Kb xoff auto", NULL, 0, -EINVAL, 0, 0, 0, 0, 0,
	  "\"xoff auto\" needs \"mtu\": no device to read the MTU of" },
	/* 134217727 - 14 is the largest MTU whose frame is a size. */
	{ "rate 10mbit limit 200Kb xoff auto", "big0", 134217714, -EINVAL,
	  0, 0, 0, 0, 0,
	  "\"xoff auto\" needs \"mtu\": the MTU of \"big0\", 134217714, is above 134217713" },
};

static void test_auto(const struct auto_case *c)
{
	char err[SLUICE_ERRLEN] = "untouched";
	struct sluice_qopt got, before;
	struct words w;

	words_split(&w, c->line);
	if (!KTAP_EXPECT_INT(sluice_qopt_parse(&got, w.argc, w.argv, err,
					       sizeof(err)), 0)) {
		ktap_diag("message: %s", err);
		ktap_result("xoff auto \"%s\"", c->line);
		return;
	}
	memcpy(&before, &got, sizeof(got));
	strcpy(err, "untouched");
	KTAP_EXPECT_INT(sluice_qopt_xoff_auto(&got, c->dev, c->dev_mtu, err,
					      sizeof(err)), c->ret);
	KTAP_EXPECT_STR(err, c->msg);
	if (c->ret) {
		KTAP_EXPECT(!memcmp(&got, &before, sizeof(got)));
	} else {
		KTAP_EXPECT_INT(got.present, c->present);
		KTAP_EXPECT_INT(got.xoff, c->xoff);
		KTAP_EXPECT_INT(got.xon, c->xon);
		KTAP_EXPECT_INT(got.headroom, c->headroom);
		KTAP_EXPECT_INT(got.mtu, c->mtu);
	}
	ktap_result("xoff auto \"%s\" on %s", c->line, c->dev ? c->dev : "none");
}

#define CL	SLUICE_COPT_LIMIT
#define CE	SLUICE_COPT_ECN
#define CQ	SLUICE_COPT_QUANTUM

static const struct copt_case {
	const char	*line;
	int		ret;
	unsigned int	present;
	__u32		limit, ecn, quantum;
	const char	*msg;
} copt_cases[] = {
	{ "", 0, 0, 0, 0, 0, "" },
	{ "limit 50k", 0, CL, 51200, 0, 0, "" },
	{ "limit 1", 0, CL, 1, 0, 0, "" },
	{ "limit 134217727", 0, CL, 134217727, 0, 0, "" },
	{ "help", SLUICE_PARSE_HELP, 0, 0, 0, 0, "" },
	{ "limit", -EINVAL, 0, 0, 0, 0, "missing value after \"limit\"" },
	{ "limit 0", -EINVAL, 0, 0, 0, 0,
	  "\"limit\" must be 1..134217727 bytes, not \"0\"" },
	{ "limit 134217728", -EINVAL, 0, 0, 0, 0,
	  "\"limit\" must be 1..134217727 bytes, not \"134217728\"" },
	{ "limit 4g", -EINVAL, 0, 0, 0, 0,
	  "\"limit\" must be 1..134217727 bytes, not \"4g\"" },
	{ "limit 1k limit 2k", -EINVAL, 0, 0, 0, 0,
	  "duplicate option \"limit\"" },
	{ "classes 4", -EINVAL, 0, 0, 0, 0, "unknown option \"classes\"" },
	/* ecn */
	{ "ecn 30Kb", 0, CE, 0, 30720, 0, "" },
	{ "ecn 1", 0, CE, 0, 1, 0, "" },
	{ "ecn 134217727", 0, CE, 0, 134217727, 0, "" },
	{ "ecn off", 0, CE, 0, 0, 0, "" },
	{ "ecn 0", 0, CE, 0, 0, 0, "" },
	{ "ecn", -EINVAL, 0, 0, 0, 0, "missing value after \"ecn\"" },
	{ "ecn 134217728", -EINVAL, 0, 0, 0, 0,
	  "\"ecn\" must be off (0) or 1..134217727 bytes, not \"134217728\"" },
	{ "ecn 128m", -EINVAL, 0, 0, 0, 0,
	  "\"ecn\" must be off (0) or 1..134217727 bytes, not \"128m\"" },
	{ "ecn on", -EINVAL, 0, 0, 0, 0,
	  "\"ecn\" must be off (0) or 1..134217727 bytes, not \"on\"" },
	{ "ecn OFF", -EINVAL, 0, 0, 0, 0,
	  "\"ecn\" must be off (0) or 1..134217727 bytes, not \"OFF\"" },
	{ "ecn strict", -EINVAL, 0, 0, 0, 0,
	  "\"ecn\" must be off (0) or 1..134217727 bytes, not \"strict\"" },
	{ "ecn -1", -EINVAL, 0, 0, 0, 0,
	  "\"ecn\" must be off (0) or 1..134217727 bytes, not \"-1\"" },
	{ "ecn 1k ecn off", -EINVAL, 0, 0, 0, 0, "duplicate option \"ecn\"" },
	/* quantum */
	{ "quantum 1514", 0, CQ, 0, 0, 1514, "" },
	{ "quantum 256", 0, CQ, 0, 0, 256, "" },
	{ "quantum 134217727", 0, CQ, 0, 0, 134217727, "" },
	{ "quantum 3k", 0, CQ, 0, 0, 3072, "" },
	{ "quantum strict", 0, CQ, 0, 0, 0, "" },
	{ "quantum 0", 0, CQ, 0, 0, 0, "" },
	{ "quantum", -EINVAL, 0, 0, 0, 0, "missing value after \"quantum\"" },
	{ "quantum 100", -EINVAL, 0, 0, 0, 0,
	  "\"quantum\" must be strict (0) or 256..134217727 bytes, not \"100\"" },
	{ "quantum 255", -EINVAL, 0, 0, 0, 0,
	  "\"quantum\" must be strict (0) or 256..134217727 bytes, not \"255\"" },
	{ "quantum 1", -EINVAL, 0, 0, 0, 0,
	  "\"quantum\" must be strict (0) or 256..134217727 bytes, not \"1\"" },
	{ "quantum 134217728", -EINVAL, 0, 0, 0, 0,
	  "\"quantum\" must be strict (0) or 256..134217727 bytes, not \"134217728\"" },
	{ "quantum 2gbit", -EINVAL, 0, 0, 0, 0,
	  "\"quantum\" must be strict (0) or 256..134217727 bytes, not \"2gbit\"" },
	{ "quantum off", -EINVAL, 0, 0, 0, 0,
	  "\"quantum\" must be strict (0) or 256..134217727 bytes, not \"off\"" },
	{ "quantum 1.5k", -EINVAL, 0, 0, 0, 0,
	  "\"quantum\" must be strict (0) or 256..134217727 bytes, not \"1.5k\"" },
	{ "quantum strict quantum 1514", -EINVAL, 0, 0, 0, 0,
	  "duplicate option \"quantum\"" },
	/* together, in any order */
	{ "limit 50Kb ecn 30Kb quantum 1514b", 0, CL | CE | CQ,
	  51200, 30720, 1514, "" },
	{ "quantum 3028 ecn off limit 1m", 0, CL | CE | CQ,
	  1048576, 0, 3028, "" },
	{ "limit 50Kb ecn off quantum strict", 0, CL | CE | CQ, 51200, 0, 0, "" },
	{ "ecn 30k quantum 1514 help", SLUICE_PARSE_HELP, 0, 0, 0, 0, "" },
	{ "ecn 30k quantum 100 limit 0", -EINVAL, 0, 0, 0, 0,
	  "\"quantum\" must be strict (0) or 256..134217727 bytes, not \"100\"" },
	{ "limit 50k ecn 30k limit 1m", -EINVAL, 0, 0, 0, 0,
	  "duplicate option \"limit\"" },
	{ "ecn 30k tag pcp", -EINVAL, 0, 0, 0, 0, "unknown option \"tag\"" },
	{ "ecn 30k 1514", -EINVAL, 0, 0, 0, 0, "unknown option \"1514\"" },
	{ "Quantum 1514", -EINVAL, 0, 0, 0, 0, "unknown option \"Quantum\"" },
	{ "quant 1514", -EINVAL, 0, 0, 0, 0, "unknown option \"quant\"" },
};

#undef CL
#undef CE
#undef CQ

static const struct size_case {
	const char	*str;
	int		ret;
	__u32		bytes;
} size_cases[] = {
	{ "0", 0, 0 },
	{ "1", 0, 1 },
	{ "007", 0, 7 },
	{ "1b", 0, 1 },
	{ "1B", 0, 1 },
	{ "1023", 0, 1023 },
	{ "1025b", 0, 1025 },
	{ "1k", 0, 1024 },
	{ "1K", 0, 1024 },
	{ "1kb", 0, 1024 },
	{ "1Kb", 0, 1024 },
	{ "1KB", 0, 1024 },
	{ "1m", 0, 1048576 },
	{ "1mb", 0, 1048576 },
	{ "1MB", 0, 1048576 },
	{ "1g", 0, 1073741824 },
	{ "1gb", 0, 1073741824 },
	{ "3Gb", 0, 3221225472u },
	{ "4294967295", 0, 4294967295u },
	{ "4194303k", 0, 4294966272u },
	{ "4095m", 0, 4293918720u },
	{ "1kbit", 0, 128 },
	{ "1KBIT", 0, 128 },
	{ "1mbit", 0, 131072 },
	{ "1gbit", 0, 134217728 },
	{ "31gbit", 0, 4160749568u },
	{ "", -EINVAL, 0 },
	{ "k", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ "1.5k", -EINVAL, 0 },
	{ "1kk", -EINVAL, 0 },
	{ "1kbits", -EINVAL, 0 },
	{ "1bit", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "99999999999999999999999x", -EINVAL, 0 },
	{ "4294967296", -ERANGE, 0 },
	{ "4g", -ERANGE, 0 },
	{ "4194304k", -ERANGE, 0 },
	{ "4096m", -ERANGE, 0 },
	{ "32gbit", -ERANGE, 0 },
	{ "99999999999999999999999", -ERANGE, 0 },
	{ "99999999999999999999999k", -ERANGE, 0 },
};

static const struct format_case {
	__u32		bytes;
	const char	*str;
} format_cases[] = {
	{ 0, "0b" },
	{ 1, "1b" },
	{ 1023, "1023b" },
	{ 1024, "1Kb" },
	{ 1025, "1025b" },
	{ 1500, "1500b" },
	{ 1536, "1536b" },
	{ 2048, "2Kb" },
	{ 51200, "50Kb" },
	{ 1048576, "1Mb" },
	{ 1049600, "1025Kb" },
	{ 2147483648u, "2Gb" },
	{ 3221225472u, "3Gb" },
	{ 4294966272u, "4194303Kb" },
	{ 4293918720u, "4095Mb" },
	{ 4294967295u, "4294967295b" },
};

static const struct rate_case {
	const char	*str;
	int		ret;
	__u64		bps;
} rate_cases[] = {
	{ "0", 0, 0 },
	{ "1", 0, 1 },
	{ "007mbit", 0, 7000000 },
	{ "1bit", 0, 1 },
	{ "1BIT", 0, 1 },
	{ "1kbit", 0, 1000 },
	{ "1Kbit", 0, 1000 },
	{ "1mbit", 0, 1000000 },
	{ "1gbit", 0, 1000000000 },
	{ "1tbit", 0, 1000000000000ull },
	{ "1kibit", 0, 1024 },
	{ "1mibit", 0, 1048576 },
	{ "1gibit", 0, 1073741824 },
	{ "1tibit", 0, 1099511627776ull },
	{ "1bps", 0, 8 },
	{ "1Bps", 0, 8 },
	{ "1kbps", 0, 8000 },
	{ "1KBps", 0, 8000 },
	{ "1mbps", 0, 8000000 },
	{ "1gbps", 0, 8000000000ull },
	{ "1tbps", 0, 8000000000000ull },
	{ "1kibps", 0, 8192 },
	{ "1mibps", 0, 8388608 },
	{ "1gibps", 0, 8589934592ull },
	{ "1tibps", 0, 8796093022208ull },
	{ "2.5gbit", 0, 2500000000ull },
	{ "2.50gbit", 0, 2500000000ull },
	{ "0.5bps", 0, 4 },
	{ "0.001kbit", 0, 1 },
	{ "0.000000000001tbit", 0, 1 },
	{ "1.000000000000000000000gbit", 0, 1000000000 },
	{ "00000000000000000000000001", 0, 1 },
	{ "18446744073709551615", 0, 18446744073709551615ull },
	{ "18446744073709551.615kbit", 0, 18446744073709551615ull },
	{ "", -EINVAL, 0 },
	{ "bit", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ "1.", -EINVAL, 0 },
	{ ".5", -EINVAL, 0 },
	{ "1.5.5", -EINVAL, 0 },
	{ "1e9", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "1kbits", -EINVAL, 0 },
	{ "1kb", -EINVAL, 0 },
	{ "1k", -EINVAL, 0 },
	{ "1.0000000000000000001gbit", -EINVAL, 0 },
	{ "100000000000000000000x", -EINVAL, 0 },
	{ "1.5bit", -EDOM, 0 },
	{ "0.1bps", -EDOM, 0 },
	{ "1.0001kbit", -EDOM, 0 },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "18446744073.709551616gbit", -ERANGE, 0 },
	{ "2305843009213693952bps", -ERANGE, 0 },
	{ "100000000000000000000", -ERANGE, 0 },
	{ "99999999999999999999tbps", -ERANGE, 0 },
	{ "99999999999999999999.999999999999999999tibps", -ERANGE, 0 },
};

static const struct rate_format_case {
	__u64		bps;
	const char	*str;
} rate_format_cases[] = {
	{ 0, "0bit" },
	{ 1, "1bit" },
	{ 999, "999bit" },
	{ 1000, "1Kbit" },
	{ 1024, "1024bit" },
	{ 1500, "1500bit" },
	{ 64000, "64Kbit" },
	{ 1000000, "1Mbit" },
	{ 100000000, "100Mbit" },
	{ 2500000000ull, "2500Mbit" },
	{ 40000000000ull, "40Gbit" },
	{ 1000000000000ull, "1Tbit" },
	{ 18446744073709551000ull, "18446744073709551Kbit" },
	{ 18446744073709551615ull, "18446744073709551615bit" },
};

static const struct pfc_case {
	const char	*str;
	int		ret;
	__u8		prios;
	int		item;	/* offset of the item at fault, or -1 */
} pfc_cases[] = {
	{ "none", 0, 0x00, -1 },
	{ "0", 0, 0x01, -1 },
	{ "7", 0, 0x80, -1 },
	{ "3,4", 0, 0x18, -1 },
	{ "4,3", 0, 0x18, -1 },
	{ "0-2,5", 0, 0x27, -1 },
	{ "0-7", 0, 0xff, -1 },
	{ "1-1", 0, 0x02, -1 },
	{ "0,1,2,3,4,5,6,7", 0, 0xff, -1 },
	{ "", -EINVAL, 0, -1 },
	{ "None", -EINVAL, 0, -1 },
	{ "none,1", -EINVAL, 0, -1 },
	{ ",1", -EINVAL, 0, -1 },
	{ "1,", -EINVAL, 0, -1 },
	{ "1,,2", -EINVAL, 0, -1 },
	{ "1-", -EINVAL, 0, -1 },
	{ "-1", -EINVAL, 0, -1 },
	{ "1 ,2", -EINVAL, 0, -1 },
	{ "1;2", -EINVAL, 0, -1 },
	{ "+1", -EINVAL, 0, -1 },
	{ "1-2-3", -EINVAL, 0, -1 },
	/* Syntax is checked first: "9" is never reported before "x". */
	{ "9,x", -EINVAL, 0, -1 },
	{ "8", -ERANGE, 0, 0 },
	{ "1,2,8", -ERANGE, 0, 4 },
	{ "0-8", -ERANGE, 0, 0 },
	{ "99999999999999999999", -ERANGE, 0, 0 },
	{ "3-1", -EDOM, 0, 0 },
	{ "0,7-6", -EDOM, 0, 2 },
	{ "1,1", -EEXIST, 0, 2 },
	{ "0-3,5,3-4", -EEXIST, 0, 6 },
};

static const struct entry_case {
	const char	*str;
	int		ret;
	unsigned int	low, high, tclass;
} entry_cases[] = {
	{ "3:5", 0, 3, 3, 5 },
	{ "0-7:2", 0, 0, 7, 2 },
	{ "10-20:3", 0, 10, 20, 3 },
	{ "5-3:1", 0, 5, 3, 1 },
	{ "4294967296:1", 0, 4294967295u, 4294967295u, 1 },
	{ "", -EINVAL, 0, 0, 0 },
	{ "3", -EINVAL, 0, 0, 0 },
	{ "3:", -EINVAL, 0, 0, 0 },
	{ ":3", -EINVAL, 0, 0, 0 },
	{ "3-:1", -EINVAL, 0, 0, 0 },
	{ "-3:1", -EINVAL, 0, 0, 0 },
	{ "3-4-5:1", -EINVAL, 0, 0, 0 },
	{ "3:1x", -EINVAL, 0, 0, 0 },
	{ "3 :1", -EINVAL, 0, 0, 0 },
	{ "a:1", -EINVAL, 0, 0, 0 },
	{ "3:+1", -EINVAL, 0, 0, 0 },
};

static __u8 identity8[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
static __u8 same64[64];
static __u8 dscp_cs[64];	/* d >> 3 */
static __u8 ef64[64];		/* 46 -> 5, the rest 0 */
static __u8 prio_half[16];	/* p / 2 */
static __u8 alternate64[64];	/* no two neighbours equal: every entry single */

static void init_maps(void)
{
	unsigned int v;

	for (v = 0; v < 64; v++) {
		dscp_cs[v] = v >> 3;
		alternate64[v] = v % 2 ? 15 : 10;
	}
	ef64[46] = 5;
	for (v = 0; v < 16; v++)
		prio_half[v] = v / 2;
}

static const struct map_case {
	const char	*map_name;
	const __u8	*tclass;
	unsigned int	values;
	const char	*str;
} map_cases[] = {
	{ "pcp-map", identity8, 8, "0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7" },
	{ "dscp-map", same64, 64, "0-63:0" },
	{ "dscp-map", dscp_cs, 64,
	  "0-7:0 8-15:1 16-23:2 24-31:3 32-39:4 40-47:5 48-55:6 56-63:7" },
	{ "dscp-map", ef64, 64, "0-45:0 46:5 47-63:0" },
	{ "prio-map", prio_half, 16,
	  "0-1:0 2-3:1 4-5:2 6-7:3 8-9:4 10-11:5 12-13:6 14-15:7" },
	{ "dscp-map", alternate64, 64,
	  "0:10 1:15 2:10 3:15 4:10 5:15 6:10 7:15 8:10 9:15 10:10 11:15 "
	  "12:10 13:15 14:10 15:15 16:10 17:15 18:10 19:15 20:10 21:15 "
	  "22:10 23:15 24:10 25:15 26:10 27:15 28:10 29:15 30:10 31:15 "
	  "32:10 33:15 34:10 35:15 36:10 37:15 38:10 39:15 40:10 41:15 "
	  "42:10 43:15 44:10 45:15 46:10 47:15 48:10 49:15 50:10 51:15 "
	  "52:10 53:15 54:10 55:15 56:10 57:15 58:10 59:15 60:10 61:15 "
	  "62:10 63:15" },
};

static void expect_qopt(const struct sluice_qopt *got,
			const struct sluice_qopt *want)
{
	unsigned int tag, v;

	KTAP_EXPECT_INT(got->present, want->present);
	KTAP_EXPECT_INT(got->classes, want->classes);
	KTAP_EXPECT_INT(got->tag, want->tag);
	KTAP_EXPECT_INT(got->defclass, want->defclass);
	KTAP_EXPECT_INT(got->limit, want->limit);
	KTAP_EXPECT_INT(got->default_maps, want->default_maps);
	if (!KTAP_EXPECT(got->rate == want->rate))
		ktap_diag("rate %llu, expected %llu",
			  (unsigned long long)got->rate,
			  (unsigned long long)want->rate);
	KTAP_EXPECT_INT(got->pfc, want->pfc);
	KTAP_EXPECT_INT(got->pause_rx, want->pause_rx);
	KTAP_EXPECT_INT(got->xoff, want->xoff);
	KTAP_EXPECT_INT(got->xon, want->xon);
	KTAP_EXPECT_INT(got->headroom, want->headroom);
	KTAP_EXPECT_INT(got->pause_time, want->pause_time);
	KTAP_EXPECT_INT(got->cable_m, want->cable_m);
	KTAP_EXPECT_INT(got->mtu, want->mtu);
	KTAP_EXPECT_INT(got->wd_prios, want->wd_prios);
	KTAP_EXPECT_INT(got->wd_action, want->wd_action);
	KTAP_EXPECT_INT(got->wd_detect_ms, want->wd_detect_ms);
	KTAP_EXPECT_INT(got->wd_restore_ms, want->wd_restore_ms);
	KTAP_EXPECT_INT(got->wd_poll_ms, want->wd_poll_ms);
	KTAP_EXPECT_INT(got->portfc, want->portfc);
	KTAP_EXPECT_INT(got->portfc_n, want->portfc_n);
	KTAP_EXPECT_INT(got->portfc_k, want->portfc_k);
	KTAP_EXPECT_INT(got->portfc_index, want->portfc_index);
	KTAP_EXPECT_INT(got->portfc_label_base, want->portfc_label_base);
	KTAP_EXPECT_INT(got->portfc_xoff_a, want->portfc_xoff_a);
	KTAP_EXPECT_INT(got->portfc_xon_a, want->portfc_xon_a);
	KTAP_EXPECT_INT(got->portfc_xoff_b, want->portfc_xoff_b);
	KTAP_EXPECT_INT(got->portfc_xon_b, want->portfc_xon_b);
	KTAP_EXPECT_INT(got->portfc_rtt_ns, want->portfc_rtt_ns);
	KTAP_EXPECT_INT(got->portfc_hq, want->portfc_hq);
	KTAP_EXPECT_INT(got->portfc_hq_dscp, want->portfc_hq_dscp);
	KTAP_EXPECT_INT(got->int_port, want->int_port);
	KTAP_EXPECT_INT(got->int_node, want->int_node);
	KTAP_EXPECT_INT(got->int_link, want->int_link);
	for (tag = 0; tag <= TC_SLUICE_TAG_MAX; tag++) {
		if (!KTAP_EXPECT_INT(got->maps[tag].given, want->maps[tag].given))
			ktap_diag("in map of tag %u", tag);
		for (v = 0; v < SLUICE_MAP_MAX_VALUES; v++)
			if (!KTAP_EXPECT_INT(got->maps[tag].tclass[v],
					     want->maps[tag].tclass[v]))
				ktap_diag("in map of tag %u, value %u", tag, v);
	}
}

static void test_valid(const struct valid_case *c)
{
	char err[SLUICE_ERRLEN] = "untouched";
	struct sluice_qopt got;
	struct words w;

	words_split(&w, c->line);
	if (KTAP_EXPECT_INT(sluice_qopt_parse(&got, w.argc, w.argv, err,
					      sizeof(err)), 0))
		expect_qopt(&got, &c->want);
	else
		ktap_diag("message: %s", err);
	KTAP_EXPECT_STR(err, "");
	ktap_result("valid \"%s\"", c->line);
}

static void test_invalid(const struct invalid_case *c)
{
	char err[SLUICE_ERRLEN] = "";
	struct sluice_qopt got;
	struct words w;

	words_split(&w, c->line);
	KTAP_EXPECT_INT(sluice_qopt_parse(&got, w.argc, w.argv, err,
					  sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, c->msg);
	ktap_result("invalid \"%s\"", c->line);
}

static void test_help(void)
{
	static const char *const lines[] = {
		"help", "classes 4 help", "pcp-map 1:1 help", "help foo",
		"pcp-map default help", "rate 10gbit pfc 3 help",
	};
	char err[SLUICE_ERRLEN];
	struct sluice_qopt got;
	struct sluice_copt cgot;
	struct words w;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		words_split(&w, lines[i]);
		if (!KTAP_EXPECT_INT(sluice_qopt_parse(&got, w.argc, w.argv, err,
						       sizeof(err)),
				     SLUICE_PARSE_HELP))
			ktap_diag("for \"%s\"", lines[i]);
	}
	words_split(&w, "limit 1k help");
	KTAP_EXPECT_INT(sluice_copt_parse(&cgot, w.argc, w.argv, err,
					  sizeof(err)), SLUICE_PARSE_HELP);
	ktap_result("help");
}

/* Messages are optional and truncated, never overflowed. */
static void test_err_buffer(void)
{
	char small[12] = "";
	struct sluice_qopt got;
	struct words w;

	words_split(&w, "classes 99");
	KTAP_EXPECT_INT(sluice_qopt_parse(&got, w.argc, w.argv, NULL, 0),
			-EINVAL);
	KTAP_EXPECT_INT(sluice_qopt_parse(&got, w.argc, w.argv, small,
					  sizeof(small)), -EINVAL);
	KTAP_EXPECT_STR(small, "\"classes\" m");
	ktap_result("error buffer");
}

static void test_copt(const struct copt_case *c)
{
	char err[SLUICE_ERRLEN] = "untouched";
	struct sluice_copt got;
	struct words w;

	words_split(&w, c->line);
	KTAP_EXPECT_INT(sluice_copt_parse(&got, w.argc, w.argv, err,
					  sizeof(err)), c->ret);
	KTAP_EXPECT_STR(err, c->msg);
	if (!c->ret) {
		KTAP_EXPECT_INT(got.present, c->present);
		KTAP_EXPECT_INT(got.limit, c->limit);
		KTAP_EXPECT_INT(got.ecn, c->ecn);
		KTAP_EXPECT_INT(got.quantum, c->quantum);
	}
	ktap_result("class \"%s\"", c->line);
}

static void test_size_parse(void)
{
	const struct size_case *c;
	__u32 bytes;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(size_cases); i++) {
		c = &size_cases[i];
		bytes = 0xdeadbeef;
		if (!KTAP_EXPECT_INT(sluice_parse_size(c->str, &bytes), c->ret) ||
		    !KTAP_EXPECT_INT(bytes, c->ret ? 0xdeadbeef : c->bytes))
			ktap_diag("for \"%s\"", c->str);
	}
	ktap_result("size parse");
}

static void test_size_format(void)
{
	char buf[SLUICE_SIZE_STRLEN];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(format_cases); i++)
		KTAP_EXPECT_STR(sluice_format_size(format_cases[i].bytes, buf,
						   sizeof(buf)),
				format_cases[i].str);
	ktap_result("size format");
}

static int round_trips(__u32 bytes)
{
	char buf[SLUICE_SIZE_STRLEN];
	__u32 back = ~bytes;

	sluice_format_size(bytes, buf, sizeof(buf));
	if (KTAP_EXPECT(strlen(buf) < sizeof(buf) - 1) &&
	    KTAP_EXPECT_INT(sluice_parse_size(buf, &back), 0) &&
	    KTAP_EXPECT_INT(back, bytes))
		return 1;
	ktap_diag("for %u, formatted \"%s\"", bytes, buf);
	return 0;
}

/* Edges, every unit's multiples and neighbours, and a spread of others. */
static void test_size_round_trip(void)
{
	static const __u32 edges[] = {
		0, 1, 1023, 1024, 1025, 4294967295u, 4294967294u,
		4294966272u, 4293918720u, 3221225472u,
	};
	static const __u32 scales[] = { 1, 1u << 10, 1u << 20, 1u << 30 };
	unsigned int checked = 0, passed = 0, i, k;
	__u32 x = 12345;

	for (i = 0; i < ARRAY_SIZE(edges); i++, checked++)
		passed += round_trips(edges[i]);
	for (i = 0; i < ARRAY_SIZE(scales); i++) {
		for (k = 1; k <= 3; k++, checked += 3) {
			passed += round_trips(k * scales[i]);
			passed += round_trips(k * scales[i] - 1);
			passed += round_trips(k * scales[i] + 1);
		}
	}
	for (i = 0; i < 32; i++, checked++)
		passed += round_trips(1u << i);
	for (i = 0; i < 10000; i++, checked++) {
		x = x * 1664525u + 1013904223u;
		passed += round_trips(i % 2 ? x : x & ~0x3ffu);
	}
	ktap_diag("%u of %u sizes round-trip", passed, checked);
	ktap_result("size round trip");
}

static void test_rate_parse(void)
{
	const struct rate_case *c;
	__u64 bps;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rate_cases); i++) {
		c = &rate_cases[i];
		bps = 0xdeadbeef;
		if (!KTAP_EXPECT_INT(sluice_parse_rate(c->str, &bps), c->ret) ||
		    !KTAP_EXPECT(bps == (c->ret ? 0xdeadbeef : c->bps)))
			ktap_diag("for \"%s\": %llu", c->str,
				  (unsigned long long)bps);
	}
	ktap_result("rate parse");
}

static void test_rate_format(void)
{
	char buf[SLUICE_RATE_STRLEN];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rate_format_cases); i++)
		KTAP_EXPECT_STR(sluice_format_rate(rate_format_cases[i].bps, buf,
						   sizeof(buf)),
				rate_format_cases[i].str);
	ktap_result("rate format");
}

static int rate_round_trips(__u64 bps)
{
	char buf[SLUICE_RATE_STRLEN];
	__u64 back = ~bps;

	sluice_format_rate(bps, buf, sizeof(buf));
	if (KTAP_EXPECT(strlen(buf) < sizeof(buf) - 1) &&
	    KTAP_EXPECT_INT(sluice_parse_rate(buf, &back), 0) &&
	    KTAP_EXPECT(back == bps))
		return 1;
	ktap_diag("for %llu, formatted \"%s\"", (unsigned long long)bps, buf);
	return 0;
}

/* Every unit's multiples and neighbours, the edges, and a spread of others. */
static void test_rate_round_trip(void)
{
	static const __u64 scales[] = {
		1, 1000, 1000000, 1000000000, 1000000000000ull,
	};
	unsigned int checked = 0, passed = 0, i, k;
	__u64 x = 12345;

	for (i = 0; i < ARRAY_SIZE(scales); i++) {
		for (k = 1; k <= 3; k++, checked += 3) {
			passed += rate_round_trips(k * scales[i]);
			passed += rate_round_trips(k * scales[i] - 1);
			passed += rate_round_trips(k * scales[i] + 1);
		}
	}
	for (i = 0; i < 64; i++, checked += 2) {
		passed += rate_round_trips(1ull << i);
		passed += rate_round_trips(~0ull >> i);
	}
	passed += rate_round_trips(0);
	checked++;
	for (i = 0; i < 10000; i++, checked++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		passed += rate_round_trips(i % 2 ? x : x / 1000000 * 1000000);
	}
	ktap_diag("%u of %u rates round-trip", passed, checked);
	ktap_result("rate round trip");
}

static void test_pfc_parse(void)
{
	const struct pfc_case *c;
	const char *item;
	__u8 prios;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pfc_cases); i++) {
		c = &pfc_cases[i];
		prios = 0x5a;
		item = NULL;
		if (!KTAP_EXPECT_INT(sluice_pfc_parse(c->str, &prios, &item),
				     c->ret) ||
		    !KTAP_EXPECT_INT(prios, c->ret ? 0x5a : c->prios) ||
		    !KTAP_EXPECT_INT(item ? item - c->str : -1, c->item))
			ktap_diag("for \"%s\"", c->str);
	}
	/* @item is optional. */
	KTAP_EXPECT_INT(sluice_pfc_parse("3,3", &prios, NULL), -EEXIST);
	ktap_result("pfc parse");
}

/* Every set of priorities formats as expected and reads back. */
static void test_pfc_format(void)
{
	static const struct {
		__u8		prios;
		const char	*str;
	} cases[] = {
		{ 0x00, "none" }, { 0x01, "0" }, { 0x18, "3,4" },
		{ 0x27, "0,1,2,5" }, { 0x81, "0,7" },
		{ 0xff, "0,1,2,3,4,5,6,7" },
	};
	char buf[SLUICE_PFC_STRLEN], small[4];
	unsigned int prios, bad = 0;
	__u8 back;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KTAP_EXPECT_STR(sluice_pfc_format(cases[i].prios, buf,
						  sizeof(buf)), cases[i].str);
	for (prios = 0; prios < 256; prios++) {
		sluice_pfc_format(prios, buf, sizeof(buf));
		if (strlen(buf) >= sizeof(buf) - 0 ||
		    sluice_pfc_parse(buf, &back, NULL) || back != prios) {
			ktap_diag("%#x formats as \"%s\"", prios, buf);
			bad++;
		}
	}
	KTAP_EXPECT_INT(bad, 0);
	/* A short buffer holds whole priorities only, terminated. */
	KTAP_EXPECT_STR(sluice_pfc_format(0xff, small, sizeof(small)), "0,1");
	ktap_result("pfc format");
}

static void test_tags(void)
{
	static const char *const names[] = {
		[TC_SLUICE_TAG_PRIORITY] = "priority",
		[TC_SLUICE_TAG_PCP] = "pcp",
		[TC_SLUICE_TAG_DSCP] = "dscp",
		[TC_SLUICE_TAG_MPLS_TC] = "mpls-tc",
	};
	unsigned int tag;
	__u8 back;

	for (tag = 0; tag <= TC_SLUICE_TAG_MAX; tag++) {
		KTAP_EXPECT_STR(sluice_tag_name(tag), names[tag]);
		back = 0xff;
		KTAP_EXPECT_INT(sluice_tag_parse(names[tag], &back), 0);
		KTAP_EXPECT_INT(back, tag);
	}
	KTAP_EXPECT(!sluice_tag_name(TC_SLUICE_TAG_MAX + 1));
	KTAP_EXPECT(!sluice_tag_info(TC_SLUICE_TAG_MAX + 1));
	KTAP_EXPECT_INT(sluice_tag_parse("PCP", &back), -EINVAL);
	KTAP_EXPECT_INT(sluice_tag_parse("", &back), -EINVAL);
	KTAP_EXPECT_INT(sluice_tag_parse("mpls", &back), -EINVAL);
	ktap_result("tag names");
}

static void test_tag_maps(void)
{
	static const struct {
		unsigned int	tag;
		const char	*map_name, *map_json;
		unsigned int	values, attr;
	} want[] = {
		{ TC_SLUICE_TAG_PRIORITY, "prio-map", "prio_map", 16,
		  TCA_SLUICE_PRIO_MAP },
		{ TC_SLUICE_TAG_PCP, "pcp-map", "pcp_map", 8,
		  TCA_SLUICE_PCP_MAP },
		{ TC_SLUICE_TAG_DSCP, "dscp-map", "dscp_map", 64,
		  TCA_SLUICE_DSCP_MAP },
		{ TC_SLUICE_TAG_MPLS_TC, "mpls-tc-map", "mpls_tc_map", 8,
		  TCA_SLUICE_MPLS_TC_MAP },
	};
	const struct sluice_tag_info *ti;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		ti = sluice_tag_info(want[i].tag);
		if (!KTAP_EXPECT(ti))
			continue;
		KTAP_EXPECT_STR(ti->map_name, want[i].map_name);
		KTAP_EXPECT_STR(ti->map_json, want[i].map_json);
		KTAP_EXPECT_INT(ti->values, want[i].values);
		KTAP_EXPECT_INT(ti->map_attr, want[i].attr);
		KTAP_EXPECT(ti->values <= SLUICE_MAP_MAX_VALUES);
	}
	ktap_result("tag maps");
}

static void test_entry_parse(void)
{
	const struct entry_case *c;
	struct sluice_map_range r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(entry_cases); i++) {
		c = &entry_cases[i];
		if (!KTAP_EXPECT_INT(sluice_map_entry_parse(c->str, &r), c->ret)) {
			ktap_diag("for \"%s\"", c->str);
			continue;
		}
		if (c->ret)
			continue;
		if (!KTAP_EXPECT_INT(r.low, c->low) ||
		    !KTAP_EXPECT_INT(r.high, c->high) ||
		    !KTAP_EXPECT_INT(r.tclass, c->tclass))
			ktap_diag("for \"%s\"", c->str);
	}
	ktap_result("map entry parse");
}

/* Formats, and re-parses the text as the map it came from. */
static void test_map_format(const struct map_case *c)
{
	char buf[SLUICE_MAP_STRLEN], line[SLUICE_MAP_STRLEN + 32];
	char err[SLUICE_ERRLEN] = "";
	struct sluice_qopt o;
	unsigned int tag, v;
	struct words w;
	__u64 full;

	KTAP_EXPECT_INT(sluice_map_format(c->tclass, c->values, buf,
					  sizeof(buf)), 0);
	KTAP_EXPECT_STR(buf, c->str);

	snprintf(line, sizeof(line), "%s %s", c->map_name, buf);
	words_split(&w, line);
	if (KTAP_EXPECT_INT(sluice_qopt_parse(&o, w.argc, w.argv, err,
					      sizeof(err)), 0)) {
		for (tag = 0; tag <= TC_SLUICE_TAG_MAX; tag++)
			if (o.present == SLUICE_QOPT_MAP(tag))
				break;
		full = c->values == 64 ? ~0ull : (1ull << c->values) - 1;
		KTAP_EXPECT(tag <= TC_SLUICE_TAG_MAX);
		if (tag <= TC_SLUICE_TAG_MAX) {
			KTAP_EXPECT_INT(o.maps[tag].given, full);
			for (v = 0; v < c->values; v++)
				KTAP_EXPECT_INT(o.maps[tag].tclass[v],
						c->tclass[v]);
		}
	} else {
		ktap_diag("message: %s", err);
	}
	ktap_result("map format %s \"%.24s\"", c->map_name, c->str);
}

static void test_map_format_edges(void)
{
	char buf[SLUICE_MAP_STRLEN];

	KTAP_EXPECT_INT(sluice_map_format(identity8, 0, buf, sizeof(buf)), 0);
	KTAP_EXPECT_STR(buf, "");
	KTAP_EXPECT_INT(sluice_map_format(identity8, 8, buf, 10), -ENOSPC);
	KTAP_EXPECT(strlen(buf) < 10);
	KTAP_EXPECT_INT(sluice_map_format(identity8, 8, buf, 0), -ENOSPC);
	/* Exactly long enough: "0-63:0" and its terminator. */
	KTAP_EXPECT_INT(sluice_map_format(same64, 64, buf, 7), 0);
	KTAP_EXPECT_INT(sluice_map_format(same64, 64, buf, 6), -ENOSPC);
	ktap_result("map format buffer");
}

/* Random maps of every tag source survive format and parse. */
static void test_map_random(void)
{
	char buf[SLUICE_MAP_STRLEN], line[SLUICE_MAP_STRLEN + 32];
	char err[SLUICE_ERRLEN];
	const struct sluice_tag_info *ti;
	__u8 tclass[SLUICE_MAP_MAX_VALUES];
	unsigned int tag, round, v, bad = 0;
	struct sluice_qopt o;
	struct words w;
	__u32 x = 1;

	for (round = 0; round < 200; round++) {
		tag = round % (TC_SLUICE_TAG_MAX + 1);
		ti = sluice_tag_info(tag);
		for (v = 0; v < ti->values; v++) {
			x = x * 1103515245u + 12345u;
			/* Few classes, so that runs form. */
			tclass[v] = (x >> 16) % (round % 16 + 1);
		}
		if (sluice_map_format(tclass, ti->values, buf, sizeof(buf)))
			bad++;
		snprintf(line, sizeof(line), "classes 16 %s %s", ti->map_name,
			 buf);
		words_split(&w, line);
		if (sluice_qopt_parse(&o, w.argc, w.argv, err, sizeof(err)) ||
		    memcmp(o.maps[tag].tclass, tclass, ti->values)) {
			ktap_diag("round %u: \"%s\" does not round-trip: %s",
				  round, line, err);
			bad++;
		}
	}
	KTAP_EXPECT_INT(bad, 0);
	ktap_result("map random round trip");
}

/* The tests that are one test point each. */
/* PortFC's words and numbers, as the printers use them. */
static void test_portfc_words(void)
{
	static const struct {
		__u8		hq;
		const char	*text;
	} hq[] = {
		{ 0, "none" }, { 1, "ack" }, { 2, "arp" }, { 3, "ack,arp" },
		/* a newer kernel's bit is left out: it could not be read back */
		{ 4, "none" }, { 0xff, "ack,arp" },
	};
	char buf[SLUICE_PORTFC_HQ_STRLEN];
	__u64 ns = 7;
	size_t i;
	__u8 v;

	KTAP_EXPECT(!sluice_portfc_role_name(TC_SLUICE_PORTFC_NONE));
	KTAP_EXPECT_STR(sluice_portfc_role_name(TC_SLUICE_PORTFC_SWITCH),
			"switch");
	KTAP_EXPECT_STR(sluice_portfc_role_name(TC_SLUICE_PORTFC_SERVER),
			"server");
	KTAP_EXPECT(!sluice_portfc_role_name(3));
	for (i = 0; i < ARRAY_SIZE(hq); i++) {
		if (!KTAP_EXPECT_STR(sluice_portfc_hq_format(hq[i].hq, buf,
							     sizeof(buf)),
				     hq[i].text))
			ktap_diag("hq 0x%x", hq[i].hq);
		if (hq[i].hq <= 3 &&
		    KTAP_EXPECT_INT(sluice_portfc_hq_parse(hq[i].text, &v,
							   NULL), 0))
			KTAP_EXPECT_INT(v, hq[i].hq);
	}
	/* too small a buffer: what fits, never an overrun */
	KTAP_EXPECT_STR(sluice_portfc_hq_format(3, buf, 4), "ack");
	KTAP_EXPECT_INT(sluice_portfc_classes(TC_SLUICE_PORTFC_SWITCH, 8, 3), 10);
	KTAP_EXPECT_INT(sluice_portfc_classes(TC_SLUICE_PORTFC_SERVER, 8, 1), 18);
	KTAP_EXPECT_INT(sluice_portfc_classes(TC_SLUICE_PORTFC_SERVER, 2, 0), 4);
	KTAP_EXPECT_INT(sluice_portfc_classes(TC_SLUICE_PORTFC_NONE, 8, 1), 0);
	/* times: each unit, and what is refused leaves the value alone */
	KTAP_EXPECT_INT(sluice_parse_ns("3s", &ns), -ERANGE);
	KTAP_EXPECT_INT(ns, 7);
	KTAP_EXPECT(!sluice_parse_ns("1s", &ns) && ns == 1000000000ull);
	KTAP_EXPECT(!sluice_parse_ns("0.000000001s", &ns) && ns == 1);
	KTAP_EXPECT(!sluice_parse_ns("2.5us", &ns) && ns == 2500);
	KTAP_EXPECT(!sluice_parse_ns("999999999ns", &ns) && ns == 999999999);
	KTAP_EXPECT_INT(sluice_parse_ns("1000000001ns", &ns), -ERANGE);
	KTAP_EXPECT_INT(sluice_parse_ns("99999999999999999999ns", &ns),
			-EINVAL);
	KTAP_EXPECT_INT(sluice_parse_ns("1.0000000001ms", &ns), -EINVAL);
	KTAP_EXPECT_INT(sluice_parse_ns("1m", &ns), -EINVAL);
	KTAP_EXPECT_INT(ns, 999999999);
	ktap_result("portfc words");
}

static void (*const single_tests[])(void) = {
	test_help,
	test_err_buffer,
	test_size_parse,
	test_size_format,
	test_size_round_trip,
	test_rate_parse,
	test_rate_format,
	test_rate_round_trip,
	test_pfc_parse,
	test_pfc_format,
	test_tags,
	test_tag_maps,
	test_entry_parse,
	test_map_format_edges,
	test_map_random,
	test_portfc_words,
};

int main(void)
{
	size_t i;

	init_maps();
	ktap_plan(ARRAY_SIZE(valid_cases) + ARRAY_SIZE(invalid_cases) +
		  ARRAY_SIZE(auto_cases) +
		  ARRAY_SIZE(copt_cases) + ARRAY_SIZE(map_cases) +
		  ARRAY_SIZE(single_tests));
	for (i = 0; i < ARRAY_SIZE(valid_cases); i++)
		test_valid(&valid_cases[i]);
	for (i = 0; i < ARRAY_SIZE(invalid_cases); i++)
		test_invalid(&invalid_cases[i]);
	for (i = 0; i < ARRAY_SIZE(auto_cases); i++)
		test_auto(&auto_cases[i]);
	for (i = 0; i < ARRAY_SIZE(copt_cases); i++)
		test_copt(&copt_cases[i]);
	for (i = 0; i < ARRAY_SIZE(map_cases); i++)
		test_map_format(&map_cases[i]);
	for (i = 0; i < ARRAY_SIZE(single_tests); i++)
		single_tests[i]();
	return ktap_exit();
}
