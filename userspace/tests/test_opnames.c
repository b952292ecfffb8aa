// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluice's counters under operators' names (sluice/opnames.h): every SAI
 * and SONiC name against the sluice field(s) it stands for, on a port of
 * made-up counters; the OpenMetrics text of two ports line by line
 * (families, HELP and TYPE, _total on counters only, labels escaped,
 * classes the port lacks left out, "# EOF" last).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/opnames.h>
#include "ktap.h"

static void fill(struct sluice_prio_stats *s, uint32_t index, uint64_t base)
{
	memset(s, 0, sizeof(*s));
	s->index = index;
	s->flags = SLUICE_PRIO_F_CLASS;
	s->packets = base + 1;
	s->bytes = base + 2;
	s->drops = base + 3;
	s->backlog = base + 4;
	s->pfc_rx = base + 5;
	s->xon_rx = base + 6;
	s->paused_us = base + 7;
	s->xoff_tx = base + 8;
	s->xon_tx = base + 9;
	s->wd_storms = base + 10;
	s->wd_restored = base + 11;
	s->wd_drops = base + 12;
	s->wd_ingress_drops = base + 13;
}

static uint64_t by_name(const struct sluice_prio_stats *s, const char *sai)
{
	char name[64];
	unsigned int j;

	for (j = 0; j < sluice_n_opnames; j++) {
		sluice_opname_sai(&sluice_opnames[j], s->index, name,
				  sizeof(name));
		if (!strcmp(name, sai))
			return sluice_opnames[j].value(s);
	}
	return UINT64_MAX;
}

static void test_names(void)
{
	struct sluice_prio_stats s;

	fill(&s, 3, 100);
	KTAP_EXPECT_INT(sluice_n_opnames, 11);
	KTAP_EXPECT(by_name(&s, "SAI_PORT_STAT_PFC_3_RX_PKTS") == 105 + 106);
	KTAP_EXPECT(by_name(&s, "SAI_PORT_STAT_PFC_3_TX_PKTS") == 108 + 109);
	KTAP_EXPECT(by_name(&s, "SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US") == 107);
	KTAP_EXPECT(by_name(&s, "SAI_QUEUE_STAT_PACKETS") == 101);
	KTAP_EXPECT(by_name(&s, "SAI_QUEUE_STAT_BYTES") == 102);
	KTAP_EXPECT(by_name(&s, "SAI_QUEUE_STAT_DROPPED_PACKETS") == 103);
	KTAP_EXPECT(by_name(&s, "SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES") == 104);
	KTAP_EXPECT(by_name(&s, "PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED") == 110);
	KTAP_EXPECT(by_name(&s, "PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED") == 111);
	KTAP_EXPECT(by_name(&s, "PFC_WD_QUEUE_STATS_TX_DROPPED_PACKETS") == 112);
	KTAP_EXPECT(by_name(&s, "PFC_WD_QUEUE_STATS_RX_DROPPED_PACKETS") == 113);
	KTAP_EXPECT(by_name(&s, "SAI_PORT_STAT_PFC_4_RX_PKTS") == UINT64_MAX);
	ktap_result("names");
}

static void test_openmetrics(void)
{
	struct sluice_port_info p[2];
	static const char first[] =
		"# TYPE sluice_pfc_rx_frames counter\n"
		"# HELP sluice_pfc_rx_frames PFC frames received naming the priority, pause or resume (SAI_PORT_STAT_PFC_n_RX_PKTS)\n"
		"sluice_pfc_rx_frames_total{netns=\"sw\\\\1\",device=\"l0\",priority=\"0\"} 11\n"
		"sluice_pfc_rx_frames_total{netns=\"sw\\\\1\",device=\"h\\\"0\",priority=\"3\"} 411\n"
		"# TYPE sluice_pfc_tx_frames counter\n";
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	memset(p, 0, sizeof(p));
	strcpy(p[0].ifname, "l0");
	p[0].n_prio = 2;
	fill(&p[0].prio[0], 0, 0);
	fill(&p[0].prio[1], 1, 1000);
	p[0].prio[1].flags = 0;		/* no class 1 on l0: left out */
	strcpy(p[1].ifname, "h\"0");
	p[1].n_prio = 1;
	fill(&p[1].prio[0], 3, 200);
	KTAP_EXPECT(f && !sluice_openmetrics_write(f, "sw\\1", p, 2));
	fclose(f);
	KTAP_EXPECT(!strncmp(text, first, strlen(first)));
	KTAP_EXPECT(strstr(text, "# TYPE sluice_queue_occupancy_bytes gauge\n"));
	KTAP_EXPECT(strstr(text, "sluice_queue_occupancy_bytes{netns=\"sw\\\\1\",device=\"l0\",queue=\"0\"} 4\n"));
	KTAP_EXPECT(strstr(text, "sluice_pfcwd_rx_dropped_packets_total{netns=\"sw\\\\1\",device=\"h\\\"0\",queue=\"3\"} 213\n"));
	KTAP_EXPECT(!strstr(text, "queue=\"1\"") && !strstr(text, "priority=\"1\""));
	KTAP_EXPECT(len > 6 && !strcmp(text + len - 6, "# EOF\n"));
	free(text);
	/* without a namespace, no netns label */
	text = NULL;
	f = open_memstream(&text, &len);
	KTAP_EXPECT(f && !sluice_openmetrics_write(f, "", p, 1));
	fclose(f);
	KTAP_EXPECT(strstr(text, "sluice_queue_packets_total{device=\"l0\",queue=\"0\"} 1\n"));
	free(text);
	ktap_result("openmetrics");
}

int main(void)
{
	ktap_plan(2);
	test_names();
	test_openmetrics();
	return ktap_exit();
}
