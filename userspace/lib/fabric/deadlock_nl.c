// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pause state of a fabric's switches, live: every switch's STATS_GET
 * through a generic netlink socket opened in its namespace (the sockets
 * stay there, this process does not), twice, and the wait-for graph of
 * lib/fabric/deadlock.c on the two.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sluice/deadlock.h>
#include <sluice/experiment.h>
#include "graph/internal.h"

/**
 * sluice_dl_open() - connect to the switch of every node of a fabric
 * @f:		the fabric's plan
 * @nl:		set to f->g->n_nodes connections; sluice_dl_close() them
 * @err:	the reason, naming the switch and its namespace
 * @errlen:	room in @err
 *
 * Return: 0 or a negative errno (-ENOENT: a namespace is missing or the
 * sch_sluice module is not loaded).
 */
int sluice_dl_open(const struct sluice_fabric *f, struct sluice_nl ***nl,
		   char *err, size_t errlen)
{
	uint32_t n = f->g->n_nodes, u;
	char ns[SLUICE_NETNS_NAME_MAX], why[SLUICE_ERRLEN];
	struct sluice_nl **c = sluice_i_calloc((size_t)n + 1, sizeof(*c));
	int ret;

	*nl = NULL;
	if (!c)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	for (u = 0; u < n; u++) {
		sluice_fabric_switch_ns(f, u, ns, sizeof(ns));
		ret = sluice_nl_open(&c[u], ns, why, sizeof(why));
		if (ret) {
			sluice_dl_close(c, u);
			return sluice_i_errf(err, errlen, ret,
					     "switch %s (namespace %s): %s",
					     f->g->nodes[u].name, ns, why);
		}
	}
	*nl = c;
	return 0;
}

void sluice_dl_close(struct sluice_nl **nl, uint32_t n)
{
	uint32_t u;

	for (u = 0; nl && u < n; u++)
		sluice_nl_close(nl[u]);
	free(nl);
}

void sluice_dl_snaps_free(struct sluice_dl_snap *snap, uint32_t n)
{
	uint32_t u;

	for (u = 0; snap && u < n; u++) {
		free(snap[u].ports);
		snap[u].ports = NULL;
		snap[u].n = 0;
	}
}

/**
 * sluice_dl_snapshot() - every switch's STATS_GET, one after the other
 * @f:		the fabric's plan
 * @nl:		sluice_dl_open()'s connections
 * @snap:	f->g->n_nodes dumps, filled; sluice_dl_snaps_free() them
 *		(on failure they are freed already)
 * @err:	the reason, naming the switch
 * @errlen:	room in @err
 *
 * Return: 0 or a negative errno.
 */
int sluice_dl_snapshot(const struct sluice_fabric *f, struct sluice_nl **nl,
		       struct sluice_dl_snap *snap, char *err, size_t errlen)
{
	char why[SLUICE_ERRLEN];
	uint32_t u;
	int ret;

	for (u = 0; u < f->g->n_nodes; u++) {
		snap[u].ports = NULL;
		snap[u].n = 0;
	}
	for (u = 0; u < f->g->n_nodes; u++) {
		ret = sluice_nl_stats_get(nl[u], 0, &snap[u].ports, &snap[u].n,
					  why, sizeof(why));
		if (ret) {
			sluice_dl_snaps_free(snap, u);
			return sluice_i_errf(err, errlen, ret,
					     "switch %s: stats: %s",
					     f->g->nodes[u].name, why);
		}
	}
	return 0;
}

/**
 * sluice_deadlock_live() - the deadlocks of a fabric on this machine, now
 * @f:		the fabric's plan (its switches' namespaces are NAME-X)
 * @interval_ms: the time between the two snapshots, at least 1
 * @dl:		filled (dl->interval_s: between the starts of the two
 *		snapshots, measured); sluice_deadlock_free() it, also after
 *		a failure
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Return: 0 (dl->n_cycles says whether there is a deadlock) or a
 * negative errno.
 */
int sluice_deadlock_live(const struct sluice_fabric *f,
			 unsigned int interval_ms, struct sluice_deadlock *dl,
			 char *err, size_t errlen)
{
	uint32_t n = f->g->n_nodes;
	struct sluice_dl_snap *a, *b;
	struct timespec ts;
	struct sluice_nl **nl;
	double t0, t1;
	int ret;

	memset(dl, 0, sizeof(*dl));
	if (!interval_ms)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the interval must be at least 1 ms");
	a = sluice_i_calloc((size_t)n + 1, sizeof(*a));
	b = sluice_i_calloc((size_t)n + 1, sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	ret = sluice_dl_open(f, &nl, err, errlen);
	if (ret)
		goto out;
	t0 = sluice_now();
	ret = sluice_dl_snapshot(f, nl, a, err, errlen);
	if (ret)
		goto close;
	ts.tv_sec = interval_ms / 1000;
	ts.tv_nsec = (long)(interval_ms % 1000) * 1000000;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	t1 = sluice_now();
	ret = sluice_dl_snapshot(f, nl, b, err, errlen);
	if (!ret) {
		ret = sluice_deadlock_find(f->g, a, b, dl, err, errlen);
		dl->interval_s = t1 - t0;
	}
	sluice_dl_snaps_free(a, n);
	sluice_dl_snaps_free(b, n);
close:
	sluice_dl_close(nl, n);
out:
	free(a);
	free(b);
	return ret;
}
