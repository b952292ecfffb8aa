// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluice's counters under SAI's, SONiC's and OpenMetrics's names
 * (sluice/opnames.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sluice/opnames.h>

static uint64_t pfc_rx(const struct sluice_prio_stats *s)
{
	return s->pfc_rx + s->xon_rx;
}

static uint64_t pfc_tx(const struct sluice_prio_stats *s)
{
	return s->xoff_tx + s->xon_tx;
}

#define GETTER(field) \
	static uint64_t get_##field(const struct sluice_prio_stats *s) \
	{ \
		return s->field; \
	}

GETTER(paused_us)
GETTER(packets)
GETTER(bytes)
GETTER(drops)
GETTER(backlog)
GETTER(wd_storms)
GETTER(wd_restored)
GETTER(wd_drops)
GETTER(wd_ingress_drops)

const struct sluice_opname sluice_opnames[] = {
	{ "SAI_PORT_STAT_PFC_%u_RX_PKTS", "sluice_pfc_rx_frames", "priority",
	  "PFC frames received naming the priority, pause or resume", false,
	  pfc_rx },
	{ "SAI_PORT_STAT_PFC_%u_TX_PKTS", "sluice_pfc_tx_frames", "priority",
	  "PFC frames sent naming the priority, pause or resume", false,
	  pfc_tx },
	{ "SAI_PORT_STAT_PFC_%u_RX_PAUSE_DURATION_US",
	  "sluice_pfc_rx_pause_duration_microseconds", "priority",
	  "Time the queue was held by pauses received, microseconds", false,
	  get_paused_us },
	{ "SAI_QUEUE_STAT_PACKETS", "sluice_queue_packets", "queue",
	  "Frames the queue sent", false, get_packets },
	{ "SAI_QUEUE_STAT_BYTES", "sluice_queue_bytes", "queue",
	  "Bytes the queue sent", false, get_bytes },
	{ "SAI_QUEUE_STAT_DROPPED_PACKETS", "sluice_queue_dropped_packets",
	  "queue", "Frames the queue dropped", false, get_drops },
	{ "SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES", "sluice_queue_occupancy_bytes",
	  "queue", "Bytes in the queue now", true, get_backlog },
	{ "PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED",
	  "sluice_pfcwd_deadlock_detected", "queue",
	  "PFC storms the watchdog detected on the queue", false,
	  get_wd_storms },
	{ "PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED",
	  "sluice_pfcwd_deadlock_restored", "queue",
	  "PFC storms the watchdog saw end on the queue", false,
	  get_wd_restored },
	{ "PFC_WD_QUEUE_STATS_TX_DROPPED_PACKETS",
	  "sluice_pfcwd_tx_dropped_packets", "queue",
	  "Frames the watchdog dropped from the queue in a storm", false,
	  get_wd_drops },
	{ "PFC_WD_QUEUE_STATS_RX_DROPPED_PACKETS",
	  "sluice_pfcwd_rx_dropped_packets", "queue",
	  "Frames the watchdog dropped at ingress in a storm", false,
	  get_wd_ingress_drops },
};

const unsigned int sluice_n_opnames =
	sizeof(sluice_opnames) / sizeof(sluice_opnames[0]);

void sluice_opname_sai(const struct sluice_opname *o, uint32_t prio,
		       char *buf, size_t len)
{
	if (strstr(o->sai, "%u"))
		snprintf(buf, len, o->sai, prio);
	else
		snprintf(buf, len, "%s", o->sai);
}

/* A label value, quoted as OpenMetrics wants: \\, \" and \n escaped. */
static void label_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*s, f);
	}
}

int sluice_openmetrics_write(FILE *f, const char *netns,
			     const struct sluice_port_info *p, uint32_t n)
{
	const struct sluice_opname *o;
	uint32_t i, k;
	unsigned int j;

	for (j = 0; j < sluice_n_opnames; j++) {
		char sai[64], *at;

		o = &sluice_opnames[j];
		/* SAI_PORT_STAT_PFC_n_RX_PKTS, as SAI's documents write it */
		snprintf(sai, sizeof(sai), "%s", o->sai);
		at = strstr(sai, "%u");
		if (at) {
			memmove(at + 1, at + 2, strlen(at + 2) + 1);
			*at = 'n';
		}
		fprintf(f, "# TYPE %s %s\n# HELP %s %s (%s)\n", o->family,
			o->gauge ? "gauge" : "counter", o->family, o->help,
			sai);
		for (i = 0; i < n; i++)
			for (k = 0; k < p[i].n_prio; k++) {
				const struct sluice_prio_stats *s = &p[i].prio[k];

				if (!(s->flags & SLUICE_PRIO_F_CLASS))
					continue;
				fprintf(f, "%s%s{", o->family,
					o->gauge ? "" : "_total");
				if (netns && netns[0]) {
					fputs("netns=\"", f);
					label_value(f, netns);
					fputs("\",", f);
				}
				fputs("device=\"", f);
				label_value(f, p[i].ifname);
				fprintf(f, "\",%s=\"%u\"} %llu\n", o->label,
					s->index,
					(unsigned long long)o->value(s));
			}
	}
	fputs("# EOF\n", f);
	return ferror(f) ? -EIO : 0;
}
