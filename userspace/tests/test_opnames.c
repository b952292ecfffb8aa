// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluice's counters under operators' names (sluice/opnames.h): every SAI
 * and SONiC name against the sluice field(s) it stands for, on a port of
 * made-up counters; the OpenMetrics text of two ports line by line
 * (families, HELP and TYPE, _total on counters only, labels escaped,
 * classes the port lacks left out, "# EOF" last).  The ports as
 * "sluicectl stats" writes them (sluice/port_stats.h): text line by line,
 * and JSON read back field by field, PortFC's fields only on a PortFC
 * port, an unknown flag left out; what the reader refuses, each named.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sluice/opnames.h>
#include <sluice/port_stats.h>
#include "cli.h"
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

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (KTAP_EXPECT(f)) {
		fputs(text, f);
		fclose(f);
	}
}

/* The JSON read back: what the deadlock detector reads of each port. */
static void test_port_stats(void)
{
	struct sluice_port_info p[2], *back = NULL;
	char path[4096], err[SLUICE_ERRLEN], *text = NULL;
	size_t len = 0;
	uint32_t n = 0, k;
	FILE *f;

	memset(p, 0, sizeof(p));
	strcpy(p[0].ifname, "l0");
	p[0].ifindex = 7;
	p[0].port.rate = 1000000;
	p[0].n_prio = 2;
	fill(&p[0].prio[0], 0, 0);
	fill(&p[0].prio[1], 3, 1000);
	p[0].prio[1].flags |= SLUICE_PRIO_F_PAUSED | SLUICE_PRIO_F_LOSSLESS |
			      0x8000;
	p[0].prio[1].qlen = 5;
	p[0].prio[1].ingress_bytes = 4321;
	p[0].prio[1].ingress_peak = 5432;
	strcpy(p[1].ifname, "h0");
	p[1].ifindex = 9;
	p[1].port.portfc = TC_SLUICE_PORTFC_SWITCH;
	p[1].port.portfc_n = 4;
	p[1].port.portfc_k = 1;
	p[1].port.portfc_index = 2;
	p[1].port.portfc_keys = 0x10004;
	/* text: settings, counters, a line a row, flags by name */
	f = open_memstream(&text, &len);
	if (KTAP_EXPECT(f)) {
		sluice_port_stats_text(f, p, 2);
		fclose(f);
		KTAP_EXPECT(!strncmp(text, "port l0 ifindex 7 classes 0 rate 1000000 pfc 0 ", 47));
		KTAP_EXPECT(strstr(text, "\n  prio 3 flags class,paused,lossless,0x8000 packets 1001 bytes 1002 drops 1003 backlog 1004 qlen 5 pfc_rx 1005 xon_rx 1006 paused_us 1007 "));
		KTAP_EXPECT(strstr(text, "\nport h0 ifindex 9 classes 0 ") &&
			    strstr(text, " portfc 1 portfc_n 4 portfc_k 1 portfc_index 2 "));
		KTAP_EXPECT(!strstr(text, "port l0 ifindex 7 classes 0 rate 1000000 pfc 0 xoff 0 xon 0 headroom 0 pause_time 0 wd_prios 0 wd_action 0 wd_detect_ms 0 wd_restore_ms 0 wd_poll_ms 0 portfc"));
	}
	free(text);
	/* JSON, one line; read back */
	text = sluice_port_stats_json(p, 2, false);
	if (!KTAP_EXPECT(text))
		return;
	KTAP_EXPECT(!strchr(text, '\n'));
	KTAP_EXPECT(strstr(text, "\"flags\":[\"class\",\"paused\",\"lossless\"],"));
	KTAP_EXPECT(strstr(text, "\"sai\":{"));
	KTAP_EXPECT(!strstr(text, "\"ifname\":\"l0\",\"ifindex\":7,\"classes\":0,\"rate\":1000000,\"pfc\":0,\"xoff\":0,\"xon\":0,\"headroom\":0,\"pause_time\":0,\"wd_prios\":0,\"wd_action\":0,\"wd_detect_ms\":0,\"wd_restore_ms\":0,\"wd_poll_ms\":0,\"pfc_tx\":0,\"pfc_rx\":0,\"pause_rx\":0,\"pause_malformed\":0,\"pause_untrusted\":0,\"pause_ignored\":0,\"pfc_tx_failed\":0,\"limit_drops\":0,\"headroom_drops\":0,\"untagged\":0,\"backlog\":0,\"qlen\":0,\"portfc"));
	snprintf(path, sizeof(path), "%s", cli_path("s1.json"));
	write_file(path, text);
	free(text);
	/* indented on request, the same JSON */
	text = sluice_port_stats_json(p, 1, true);
	KTAP_EXPECT(text && strstr(text, "[\n  {\n    \"ifname\":\"l0\",\n"));
	free(text);
	if (KTAP_EXPECT_INT(sluice_port_stats_json_read(path, &back, &n, err,
							sizeof(err)), 0) &&
	    KTAP_EXPECT_INT(n, 2)) {
		KTAP_EXPECT_STR(back[0].ifname, "l0");
		KTAP_EXPECT_INT(back[0].ifindex, 7);
		KTAP_EXPECT_INT(back[0].n_prio, 2);
		KTAP_EXPECT_INT(back[0].port.portfc, TC_SLUICE_PORTFC_NONE);
		for (k = 0; k < 2; k++) {
			const struct sluice_prio_stats *a = &p[0].prio[k];
			const struct sluice_prio_stats *b = &back[0].prio[k];

			KTAP_EXPECT_INT(b->index, a->index);
			KTAP_EXPECT_INT(b->packets, a->packets);
			KTAP_EXPECT_INT(b->bytes, a->bytes);
			KTAP_EXPECT_INT(b->backlog, a->backlog);
			KTAP_EXPECT_INT(b->qlen, a->qlen);
			KTAP_EXPECT_INT(b->pfc_rx, a->pfc_rx);
			KTAP_EXPECT_INT(b->paused_us, a->paused_us);
			KTAP_EXPECT_INT(b->ingress_bytes, a->ingress_bytes);
			KTAP_EXPECT_INT(b->ingress_peak, a->ingress_peak);
			KTAP_EXPECT_INT(b->xoff_tx, a->xoff_tx);
			/* the unknown bit is not written, so not read */
			KTAP_EXPECT_INT(b->flags, a->flags & ~0x8000u);
			/* not read: what the detector does not need */
			KTAP_EXPECT_INT(b->drops, 0);
		}
		KTAP_EXPECT_STR(back[1].ifname, "h0");
		KTAP_EXPECT_INT(back[1].port.portfc, TC_SLUICE_PORTFC_SWITCH);
		KTAP_EXPECT_INT(back[1].port.portfc_n, 4);
		KTAP_EXPECT_INT(back[1].port.portfc_k, 1);
		KTAP_EXPECT_INT(back[1].port.portfc_index, 2);
		KTAP_EXPECT_INT(back[1].port.portfc_keys, 0x10004);
	}
	free(back);
	/* what is refused, named */
	write_file(path, "[{\"ifname\":\"l4\",\"ifindex\":2,\"prios\":[{\"index\":0,\"packets\":-1}]}]");
	KTAP_EXPECT_INT(sluice_port_stats_json_read(path, &back, &n, err,
						    sizeof(err)), -EINVAL);
	KTAP_EXPECT(back == NULL && n == 0);
	KTAP_EXPECT(strstr(err, "s1.json: port l4 prios[0]: \"packets\" is not a number in range"));
	write_file(path, "[{\"ifname\":\"l/4\"}]");
	KTAP_EXPECT_INT(sluice_port_stats_json_read(path, &back, &n, err,
						    sizeof(err)), -EINVAL);
	KTAP_EXPECT(strstr(err, "s1.json: port 0: no \"ifname\" that is a device name"));
	write_file(path, "[] x");
	KTAP_EXPECT_INT(sluice_port_stats_json_read(path, &back, &n, err,
						    sizeof(err)), -EINVAL);
	KTAP_EXPECT(strstr(err, "s1.json: invalid JSON at byte 3: "));
	write_file(path, "[{\"ifname\":\"l4\",\"ifindex\":2,\"portfc\":256,\"prios\":[]}]");
	KTAP_EXPECT_INT(sluice_port_stats_json_read(path, &back, &n, err,
						    sizeof(err)), -EINVAL);
	KTAP_EXPECT(strstr(err, "s1.json: port l4: \"portfc\" is not a number in range"));
	unlink(path);
	KTAP_EXPECT_INT(sluice_port_stats_json_read(path, &back, &n, err,
						    sizeof(err)), -ENOENT);
	KTAP_EXPECT(strstr(err, "s1.json: No such file or directory"));
	ktap_result("port_stats");
}

int main(void)
{
	ktap_plan(3);
	cli_mkdtemp("opnames");
	test_names();
	test_openmetrics();
	test_port_stats();
	cli_rmdir();
	return ktap_exit();
}
