// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One route set's run of the deadlock experiment (sluice/experiment.h,
 * sluice_dl_run()): a fresh fabric, its routes, all-to-all UDP, samples of
 * what was delivered, then - the senders stopped, so that what is stuck
 * stays stuck - the live detector and the switches' counters.  sluicectl's
 * "experiment deadlock" runs one per route set and judges each against its
 * CBD check (sluice_dl_judge()); another program can do the same.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/experiment.h>
#include <sluice/fabric_load.h>
#include <sluice/fabric_nl.h>
#include <sluice/fabric_state.h>
#include <sluice/route.h>
#include "graph/internal.h"

static void say(const struct sluice_dl_run_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct sluice_dl_run_opts *o, const char *fmt, ...)
{
	char line[SLUICE_ERRLEN];
	va_list ap;

	if (!o->say)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	o->say(o->arg, line);
}

struct sampling {
	const struct sluice_dl_run_opts	*o;
	struct sluice_dl_run		*r;
	/* each flow's bytes at the last sample, then at the quiet time's start */
	uint64_t			*cum;
	uint32_t			quiet_from;	/* first sample of it */
	uint64_t			rx0, tx0;
};

static void sample(void *arg, uint32_t i, const struct sluice_udpgen *t)
{
	struct sampling *sm = arg;
	struct sluice_dl_run *r = sm->r;
	uint32_t k;

	for (k = 0; k < t->n_flows; k++) {
		r->active[i] += t->fl[k].rx_bytes > sm->cum[k];
		sm->cum[k] = t->fl[k].rx_bytes;
	}
	r->rx[i] = sluice_udpgen_rx_bytes(t) - sm->rx0;
	r->tx[i] = sluice_udpgen_tx_bytes(t) - sm->tx0;
	sm->rx0 += r->rx[i];
	sm->tx0 += r->tx[i];
	/* the quiet time starts with the next sample */
	if (i + 1 == sm->quiet_from)
		for (k = 0; k < t->n_flows; k++)
			sm->cum[t->n_flows + k] = t->fl[k].rx_bytes;
	say(sm->o, "%5.1f s %8.3f Mbit/s delivered, %8.3f sent, %u flows delivering",
	    (i + 1) * sm->o->interval_ms / 1000.0,
	    r->rx[i] * 8e-3 / sm->o->interval_ms,
	    r->tx[i] * 8e-3 / sm->o->interval_ms, r->active[i]);
}

/* The fabric's state, planned: its own copy of the topology. */
static int plan(const struct sluice_dl_run_opts *o,
		struct sluice_fabric_state *fs, char *err, size_t errlen)
{
	int ret;

	memset(fs, 0, sizeof(*fs));
	if (snprintf(fs->name, sizeof(fs->name), "%s", o->name) >=
	    (int)sizeof(fs->name) ||
	    snprintf(fs->topo_path, sizeof(fs->topo_path), "%s",
		     o->topo_path) >= (int)sizeof(fs->topo_path) ||
	    snprintf(fs->qdisc_args, sizeof(fs->qdisc_args), "%s",
		     o->qdisc_args) >= (int)sizeof(fs->qdisc_args))
		return sluice_i_errf(err, errlen, -ENAMETOOLONG,
				     "the fabric's name, topology path or qdisc options are too long");
	fs->hash = sluice_graph_hash(o->g);
	fs->hosts_per_switch = o->hosts_per_switch;
	fs->qdisc = true;
	ret = sluice_graph_copy(&fs->g, o->g, err, errlen);
	if (!ret)
		ret = sluice_fabric_plan(&fs->f, &fs->g, fs->name,
					 fs->hosts_per_switch, err, errlen);
	if (ret)
		sluice_fabric_state_free(fs);
	return ret;
}

/* Every switch its routes, all or nothing (the loader "route load" uses). */
static int load(const struct sluice_dl_run_opts *o,
		struct sluice_fabric_state *fs, char *err, size_t errlen)
{
	struct sluice_fabric_load_opts lo = {
		.action = SLUICE_FABRIC_LOAD, .state = fs, .routes = o->routes,
		.say = o->load_say, .say_arg = o->arg,
	};
	struct sluice_fabric_load_result res;
	int ret;

	ret = sluice_fabric_routes_load(&lo, &res, err, errlen);
	sluice_fabric_load_result_free(&res);
	/* its messages, the first one too, went to load_say already */
	if (ret && o->load_say && errlen)
		err[0] = '\0';
	return ret;
}

/* The counts and readings after the samples, the senders stopped. */
static int read_after(const struct sluice_dl_run_opts *o,
		      const struct sluice_fabric_state *fs,
		      const struct sluice_udpgen *t, const uint64_t *cum,
		      int64_t unres0, struct sluice_dl_run *r, char *err,
		      size_t errlen)
{
	int64_t unres1;
	uint32_t k;

	for (k = 0; k < t->n_flows; k++)
		r->zero_flows += t->fl[k].rx_bytes == cum[t->n_flows + k];
	for (k = 0; k < t->n_hosts; k++)
		r->eagain += t->h[k].eagain;
	r->send_errors = t->send_errors;
	r->last_errno = t->last_errno;
	unres1 = sluice_arp_discards();
	r->neigh_discards = unres0 >= 0 && unres1 >= unres0 ?
			    unres1 - unres0 : -1;
	r->cycle = sluice_deadlock_summary(&fs->f, r->cycle_text,
					   sizeof(r->cycle_text));
	return sluice_fabric_totals(&fs->f, o->prio, &r->tot, err, errlen);
}

/**
 * sluice_dl_run() - one route set's run of the deadlock experiment
 * @o:		the fabric, its routes, the traffic, the sampling
 * @r:		filled; sluice_dl_run_free() it, even on failure
 * @err:	the reason on failure; "" when the route loader refused and
 *		said why through @o->load_say
 * @errlen:	room in @err
 *
 * Needs what sluice_fabric_up() needs; call it from a single-threaded
 * process.  The fabric's state is saved while it is up (so that "fabric
 * down" finds what a crash leaves) and removed with it.
 *
 * Return: 0, -EEXIST if a fabric of that name is up, -EINTR if stopped, or
 * another negative errno.
 */
int sluice_dl_run(const struct sluice_dl_run_opts *o, struct sluice_dl_run *r,
		  char *err, size_t errlen)
{
	struct sluice_udpgen_sample_opts so = {
		.interval_ms = o->interval_ms, .tick = o->tick,
		.stop = o->stop, .sample = sample,
	};
	struct sampling sm = { .o = o, .r = r };
	int64_t unres0 = sluice_arp_discards();
	struct sluice_udpgen t = { 0 };
	struct sluice_fabric_state fs;
	char why[SLUICE_ERRLEN];
	uint32_t quiet;
	double t0;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!o->interval_ms || !o->duration_s ||
	    o->duration_s * 1000ull / o->interval_ms > UINT32_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "a run of %u s sampled every %u ms",
				     o->duration_s, o->interval_ms);
	ret = plan(o, &fs, err, errlen);
	if (ret)
		return ret;
	t0 = sluice_now();
	say(o, "fabric %s up (%s)", fs.name, fs.qdisc_args);
	ret = sluice_fabric_state_up(&fs, o->q, NULL, err, errlen);
	if (ret) {
		sluice_fabric_state_free(&fs);
		return ret;
	}
	ret = load(o, &fs, err, errlen);
	if (!ret)
		ret = sluice_udpgen_init(&t, &fs.f, &o->udp, err, errlen);
	if (!ret)
		ret = sluice_udpgen_open(&t, err, errlen);
	if (ret)
		goto out;
	r->n_flows = t.n_flows;
	r->n_hosts = t.n_hosts;
	r->warm = sluice_udpgen_warmup(&t, 1.0);
	r->t_setup = sluice_now() - t0;
	say(o, "routes loaded, %u flows, %u of them answered the warm-up, %.1f s",
	    t.n_flows, r->warm, r->t_setup);
	r->n = so.n = o->duration_s * 1000 / o->interval_ms;
	r->rx = calloc(r->n, sizeof(*r->rx));
	r->tx = calloc(r->n, sizeof(*r->tx));
	r->active = calloc(r->n, sizeof(*r->active));
	sm.cum = calloc(2 * (size_t)t.n_flows + 1, sizeof(*sm.cum));
	if (!r->rx || !r->tx || !r->active || !sm.cum) {
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	quiet = (o->quiet_ms + o->interval_ms - 1) / o->interval_ms;
	sm.quiet_from = quiet < r->n ? r->n - quiet : 0;
	so.arg = &sm;
	ret = sluice_udpgen_sample(&t, &so, &r->cpu_busy);
	if (ret) {
		sluice_i_errf(err, errlen, ret,
			      "interrupted: taking the fabric down");
		goto out;
	}
	ret = read_after(o, &fs, &t, sm.cum, unres0, r, err, errlen);
out:
	free(sm.cum);
	sluice_udpgen_free(&t);
	if ((!o->keep || ret) &&
	    sluice_fabric_state_down(&fs, NULL, why, sizeof(why)) && !ret)
		ret = sluice_i_errf(err, errlen, -EIO, "%s", why);
	sluice_fabric_state_free(&fs);
	return ret;
}

/**
 * sluice_dl_run_free() - what a run's result holds
 * @r:		filled by sluice_dl_run(), or all zeroes
 */
void sluice_dl_run_free(struct sluice_dl_run *r)
{
	free(r->rx);
	free(r->tx);
	free(r->active);
	r->rx = r->tx = NULL;
	r->active = NULL;
}
