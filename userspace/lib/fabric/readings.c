// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What an experiment reads of a fabric of this machine after a run
 * (sluice/experiment.h): a switch's port statistics, the counters of every
 * switch added up for the lossless class, and the live deadlock
 * detector's finding as a line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/deadlock.h>
#include <sluice/experiment.h>
#include <sluice/switch.h>
#include "graph/internal.h"

/* See sluice/experiment.h. */
int sluice_fabric_switch_stats(const struct sluice_fabric *f, uint32_t u,
			       struct sluice_port_info **pi, uint32_t *n,
			       char *err, size_t errlen)
{
	char why[SLUICE_ERRLEN], ns[SLUICE_NETNS_NAME_MAX];
	struct sluice_nl *nl;
	int ret;

	*pi = NULL;
	*n = 0;
	sluice_fabric_switch_ns(f, u, ns, sizeof(ns));
	ret = sluice_nl_open(&nl, ns, why, sizeof(why));
	if (!ret) {
		ret = sluice_nl_stats_get(nl, 0, pi, n, why, sizeof(why));
		sluice_nl_close(nl);
	}
	if (ret)
		sluice_i_errf(err, errlen, ret, "switch %s: %s",
			      f->g->nodes[u].name, why);
	return ret;
}

/* See sluice/experiment.h. */
int sluice_fabric_totals(const struct sluice_fabric *f, uint8_t prio,
			 struct sluice_fabric_totals *t, char *err,
			 size_t errlen)
{
	struct sluice_port_info *p = NULL;
	const struct sluice_prio_stats *c;
	size_t at = 0;
	uint32_t u, n, k;
	int ret;

	memset(t, 0, sizeof(*t));
	for (u = 0; u < f->g->n_nodes; u++) {
		ret = sluice_fabric_switch_stats(f, u, &p, &n, err, errlen);
		if (ret)
			return ret;
		for (k = 0; k < n; k++) {
			t->pfc_tx += p[k].port.pfc_tx;
			t->pfc_rx += p[k].port.pfc_rx;
			/* a subset of the class drops below */
			t->headroom_drops += p[k].port.headroom_drops;
			if (p[k].n_prio <= prio)
				continue;
			c = &p[k].prio[prio];
			t->lossless_drops += c->drops;
			if (c->ingress_peak > t->ingress_peak) {
				t->ingress_peak = c->ingress_peak;
				snprintf(t->peak_port, sizeof(t->peak_port),
					 "%s/%s", f->g->nodes[u].name,
					 p[k].ifname);
			}
			t->wd_storms += c->wd_storms;
			t->wd_drops += c->wd_drops;
			t->wd_restored += c->wd_restored;
			if ((c->flags & SLUICE_PRIO_F_PAUSED) && c->backlog) {
				t->paused_with_frames++;
				if (at < sizeof(t->paused))
					at += snprintf(t->paused + at,
						       sizeof(t->paused) - at,
						       "%s%s/%s", at ? " " : "",
						       f->g->nodes[u].name,
						       p[k].ifname);
			}
		}
		free(p);
		p = NULL;
	}
	return 0;
}

/* See sluice/experiment.h. */
int sluice_deadlock_summary(const struct sluice_fabric *f, char *text,
			    size_t len)
{
	char err[SLUICE_ERRLEN];
	struct sluice_deadlock dl;
	const struct sluice_dl_cycle *c;
	const struct sluice_dl_vertex *v;
	size_t at;
	uint32_t k;
	int ret;

	memset(&dl, 0, sizeof(dl));
	ret = sluice_deadlock_live(f, SLUICE_DL_INTERVAL_MS, &dl, err,
				   sizeof(err));
	if (ret) {
		snprintf(text, len, "failed: %s", err);
		sluice_deadlock_free(&dl);
		return -1;
	}
	if (!dl.n_cycles) {
		snprintf(text, len, "no wait-for cycle (%u paused queues stuck, %u ingress accounts holding)",
			 dl.stuck, dl.holding);
		sluice_deadlock_free(&dl);
		return 0;
	}
	c = &dl.cycles[0];
	at = snprintf(text, len, "%u cycle%s; %u switches, %u queues and accounts in the first:",
		      dl.n_cycles, dl.n_cycles == 1 ? "" : "s", c->switches,
		      c->scc_len);
	for (k = 0; k < c->cycle_len && at < len; k++) {
		v = &dl.v[dl.cycle[c->cycle_first + k]];
		at += snprintf(text + at, len - at, "%s%s/%s %s %u",
			       k ? " -> " : " ", f->g->nodes[v->node].name,
			       v->port, v->role == SLUICE_DL_EGRESS ?
			       "egress" : v->role == SLUICE_DL_INGRESS ?
			       "ingress" : "portfc", v->prio);
	}
	sluice_deadlock_free(&dl);
	return 1;
}
