/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A port's counters under the names operators read them by
 * (lib/switch/opnames.c): SAI's (the switch abstraction SONiC and most
 * white-box switches expose), SONiC's PFC watchdog's, and OpenMetrics
 * families that Prometheus's node_exporter textfile collector takes.
 *
 *   SAI / SONiC name                           sluice's own
 *   SAI_PORT_STAT_PFC_n_RX_PKTS                pfc_rx + xon_rx of priority n
 *   SAI_PORT_STAT_PFC_n_TX_PKTS                xoff_tx + xon_tx of priority n
 *   SAI_PORT_STAT_PFC_n_RX_PAUSE_DURATION_US   paused_us of class n
 *   SAI_QUEUE_STAT_PACKETS                     packets of class n (queue n)
 *   SAI_QUEUE_STAT_BYTES                       bytes of class n
 *   SAI_QUEUE_STAT_DROPPED_PACKETS             drops of class n
 *   SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES        backlog of class n (a gauge)
 *   PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED       wd_storms of class n
 *   PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED       wd_restored of class n
 *   PFC_WD_QUEUE_STATS_TX_DROPPED_PACKETS      wd_drops of class n
 *   PFC_WD_QUEUE_STATS_RX_DROPPED_PACKETS      wd_ingress_drops of priority n
 *
 * SAI counts every PFC frame that names a priority, pause or resume, so
 * RX_PKTS and TX_PKTS add sluice's two kinds; SONiC's pfcwd counters are
 * per queue, as sluice's watchdog's are per class.
 */
#ifndef _SLUICE_OPNAMES_H
#define _SLUICE_OPNAMES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sluice/switch.h>

/* One counter kind: its names, and where sluice keeps it. */
struct sluice_opname {
	const char	*sai;		/* "%u" stands for the priority */
	const char	*family;	/* OpenMetrics, without "_total" */
	const char	*label;		/* "priority" or "queue" */
	const char	*help;
	bool		gauge;		/* else a counter */
	uint64_t	(*value)(const struct sluice_prio_stats *s);
};

extern const struct sluice_opname sluice_opnames[];
extern const unsigned int sluice_n_opnames;

/* @o's SAI name for priority (or queue) @prio into @buf. O(1). */
void sluice_opname_sai(const struct sluice_opname *o, uint32_t prio,
		       char *buf, size_t len);

/*
 * Every port's counters as OpenMetrics text (families, HELP, TYPE,
 * samples labelled netns, device and priority or queue, "# EOF"); @netns
 * may be "" (no netns label).  Only classes the port has are written.
 * O(ports x classes x families).
 *
 * Return: 0 or -EIO (the stream failed).
 */
int sluice_openmetrics_write(FILE *f, const char *netns,
			     const struct sluice_port_info *p, uint32_t n);

#endif /* _SLUICE_OPNAMES_H */
