// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FaCa's table (sluice/faca.h): the paths a host's probes found to each
 * destination, their load estimates, and the leases of the ports that
 * choose them.  Nothing here touches the network: the agent's loop
 * (serve.c) feeds echoes in, and tests feed synthetic ones.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sluice/faca.h>
#include <sluice/fj.h>

#include "../graph/internal.h"

void sluice_faca_opts_default(struct sluice_faca_opts *o)
{
	*o = (struct sluice_faca_opts){
		.sports = { { SLUICE_FACA_SPORT_LO, SLUICE_FACA_SPORT_HI } },
		.n_ranges = 1,
		.port = SLUICE_INT_PORT_DEFAULT,
		.records = SLUICE_FACA_RECORDS,
		.k = SLUICE_FACA_K,
		.load = SLUICE_FACA_LOAD_TIME,
		.demand = SLUICE_FACA_DEMAND,
		.interval_ns = SLUICE_FACA_INTERVAL_NS,
		.timeout_ns = SLUICE_FACA_TIMEOUT_NS,
		.lease_ns = SLUICE_FACA_LEASE_NS,
		.sweep = SLUICE_FACA_SWEEP,
		.seed = 1,
	};
}

const char *sluice_faca_load_name(enum sluice_faca_load l)
{
	switch (l) {
	case SLUICE_FACA_LOAD_TIME:
		return "time";
	case SLUICE_FACA_LOAD_BDP:
		return "bdp";
	}
	return NULL;
}

int sluice_faca_load_parse(const char *s, enum sluice_faca_load *l)
{
	if (!strcmp(s, "time"))
		*l = SLUICE_FACA_LOAD_TIME;
	else if (!strcmp(s, "bdp"))
		*l = SLUICE_FACA_LOAD_BDP;
	else
		return -EINVAL;
	return 0;
}

int sluice_faca_ranges_parse(const char *s, struct sluice_faca_opts *o,
			     char *err, size_t errlen)
{
	struct sluice_sport_range r[SLUICE_FACA_RANGES_MAX];
	char buf[SLUICE_FACA_RANGES_MAX * 12], *tok, *save;
	uint32_t n = 0;

	if (strlen(s) >= sizeof(buf) || !s[0] || s[0] == ',' ||
	    s[strlen(s) - 1] == ',' || strstr(s, ",,"))
		goto bad;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == SLUICE_FACA_RANGES_MAX)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "\"%s\": more than %u ranges", s,
					     SLUICE_FACA_RANGES_MAX);
		if (sluice_sport_range_parse(tok, &r[n]) ||
		    (n && r[n].min <= r[n - 1].max))
			goto bad;
		n++;
	}
	/* all or nothing */
	memcpy(o->sports, r, n * sizeof(*r));
	o->n_ranges = n;
	return 0;
bad:
	return sluice_i_errf(err, errlen, -EINVAL,
			     "\"%s\" is not ranges of ports A-B[,C-D...] (1 to 65535, rising, apart)",
			     s);
}

char *sluice_faca_ranges_format(const struct sluice_faca_opts *o, char *buf,
				size_t len)
{
	size_t used = 0;
	uint32_t k;
	int n;

	buf[0] = '\0';
	for (k = 0; k < o->n_ranges && used < len; k++) {
		if (o->sports[k].min == o->sports[k].max)
			n = snprintf(buf + used, len - used, "%s%u", k ? "," : "",
				     o->sports[k].min);
		else
			n = snprintf(buf + used, len - used, "%s%u-%u",
				     k ? "," : "", o->sports[k].min,
				     o->sports[k].max);
		if (n < 0)
			break;
		used += n;
	}
	return buf;
}

/* The pool's ports, checked: rising, apart, not the probe port. */
static int pool(struct sluice_faca *a, const struct sluice_faca_opts *o,
		char *err, size_t errlen)
{
	const struct sluice_sport_range *r;
	uint32_t k, n = 0, p;

	if (!o->n_ranges || o->n_ranges > SLUICE_FACA_RANGES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "1 to %u ranges of source ports, not %u",
				     SLUICE_FACA_RANGES_MAX, o->n_ranges);
	for (k = 0; k < o->n_ranges; k++) {
		r = &o->sports[k];
		if (!r->min || r->max < r->min ||
		    (k && r->min <= o->sports[k - 1].max))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "source ports %u-%u: ranges rise from 1, apart",
					     r->min, r->max);
		if (o->port >= r->min && o->port <= r->max)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "the probe port %u is among the source ports %u-%u",
					     o->port, r->min, r->max);
		n += r->max - r->min + 1;
	}
	if (n > SLUICE_FACA_POOL_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%u source ports: at most %u", n,
				     SLUICE_FACA_POOL_MAX);
	a->port = sluice_i_calloc(n, sizeof(*a->port));
	if (!a->port)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	a->n_sports = 0;
	for (k = 0; k < o->n_ranges; k++)
		for (p = o->sports[k].min; p <= o->sports[k].max; p++)
			a->port[a->n_sports++] = p;
	return 0;
}

int sluice_faca_init(struct sluice_faca *a, const struct sluice_faca_opts *o,
		     char *err, size_t errlen)
{
	int ret;

	memset(a, 0, sizeof(*a));
	if (!o->port)
		return sluice_i_errf(err, errlen, -EINVAL, "no probe port");
	if (!(o->k > 0) || !isfinite(o->k))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "k must be above 0, not %g", o->k);
	if (!(o->demand > 0) || !isfinite(o->demand))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the demand must be above 0 bytes, not %g",
				     o->demand);
	if (!sluice_int_probe_size(o->records))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "a probe has 1 to %u records, not %u",
				     SLUICE_INT_MAX_RECS, o->records);
	if (!o->interval_ns || !o->timeout_ns)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the interval and the timeout must be above 0");
	if (!sluice_faca_load_name(o->load))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "unknown load metric %d", o->load);
	ret = pool(a, o, err, errlen);
	if (ret)
		return ret;
	a->o = *o;
	sluice_rng_seed(&a->rng, o->seed);
	return 0;
}

void sluice_faca_free(struct sluice_faca *a)
{
	uint32_t d;

	for (d = 0; d < a->n_dst; d++) {
		free(a->dst[d].path);
		free(a->dst[d].sport);
	}
	free(a->dst);
	free(a->port);
	memset(a, 0, sizeof(*a));
}

int sluice_faca_dst_find(const struct sluice_faca *a, uint32_t addr)
{
	uint32_t d;

	for (d = 0; d < a->n_dst; d++)
		if (a->dst[d].addr == addr)
			return d;
	return -ENOENT;
}

int sluice_faca_dst_add(struct sluice_faca *a, uint32_t addr, uint64_t now_ns)
{
	uint32_t h = ntohl(addr), k;
	struct sluice_faca_dst *d;
	int idx;

	idx = sluice_faca_dst_find(a, addr);
	if (idx >= 0)
		return idx;
	if (!h || h == INADDR_BROADCAST || IN_MULTICAST(h))
		return -EINVAL;
	if (a->n_dst == SLUICE_FACA_MAX_DST)
		return -ENOSPC;
	if (SLUICE_I_GROW(a->dst, a->cap, a->n_dst + 1))
		return -ENOMEM;
	d = &a->dst[a->n_dst];
	memset(d, 0, sizeof(*d));
	d->sport = sluice_i_calloc(a->n_sports, sizeof(*d->sport));
	if (!d->sport)
		return -ENOMEM;
	for (k = 0; k < a->n_sports; k++)
		d->sport[k].path = -1;
	d->addr = addr;
	d->added_ns = now_ns;
	return a->n_dst++;
}

/* The order of the ring: records compared in path order, then length. */
static int path_cmp(const struct sluice_faca_hop *x, unsigned int nx,
		    const struct sluice_faca_hop *y, unsigned int ny)
{
	unsigned int i;

	for (i = 0; i < nx && i < ny; i++) {
		if (x[i].node != y[i].node)
			return x[i].node < y[i].node ? -1 : 1;
		if (x[i].link != y[i].link)
			return x[i].link < y[i].link ? -1 : 1;
		if (x[i].ifindex != y[i].ifindex)
			return x[i].ifindex < y[i].ifindex ? -1 : 1;
	}
	return nx == ny ? 0 : nx < ny ? -1 : 1;
}

/*
 * The index of @p's path in @d, inserted if new: the ring stays sorted,
 * so the ports of the paths after it move up by one.
 */
static int path_find_or_add(struct sluice_faca_dst *d,
			    const struct sluice_int_probe *p,
			    uint32_t n_sports)
{
	struct sluice_faca_hop key[SLUICE_INT_MAX_RECS];
	struct sluice_faca_path *np;
	uint32_t lo = 0, hi = d->n_paths, mid, k;
	unsigned int i;
	int c;

	for (i = 0; i < p->nused; i++)
		key[i] = (struct sluice_faca_hop){
			.node = p->hop[i].node,
			.ifindex = p->hop[i].ifindex,
			.link = p->hop[i].link,
		};
	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = path_cmp(key, p->nused, d->path[mid].hop,
			     d->path[mid].n_hops);
		if (!c)
			return mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (SLUICE_I_GROW(d->path, d->cap, d->n_paths + 1))
		return -ENOMEM;
	memmove(&d->path[lo + 1], &d->path[lo],
		(d->n_paths - lo) * sizeof(*d->path));
	d->n_paths++;
	np = &d->path[lo];
	memset(np, 0, sizeof(*np));
	np->n_hops = p->nused;
	np->util = -1;
	for (i = 0; i < p->nused; i++) {
		np->hop[i] = key[i];
		np->hop[i].util = -1;
	}
	for (k = 0; k < n_sports; k++)
		if (d->sport[k].path >= (int32_t)lo)
			d->sport[k].path++;
	return lo;
}

/*
 * Utilisation of every hop from the bytes it sent since the path's last
 * probe, and the path's bandwidth, bottleneck utilisation and available
 * bandwidth from them.
 */
static void path_rates(const struct sluice_faca *a,
		       struct sluice_faca_path *pa,
		       const struct sluice_int_probe *p)
{
	/*
	 * Two probes of a path sent in one round (its own and the sweep's)
	 * meet a port one after the other: between them the port sent the
	 * first, and nothing else is seen.  A utilisation needs a window as
	 * long as half a round at least.
	 */
	uint64_t window = a->o.interval_ns / 2 > SLUICE_FACA_UTIL_MIN_NS ?
			  a->o.interval_ns / 2 : SLUICE_FACA_UTIL_MIN_NS;
	double u, left, avail = INFINITY, B = INFINITY;
	const struct sluice_int_hop *r;
	struct sluice_faca_hop *h;
	unsigned int i;

	pa->util = -1;
	for (i = 0; i < pa->n_hops; i++) {
		h = &pa->hop[i];
		r = &p->hop[i];
		h->rate = r->rate;
		if (!r->rate || !h->ts_ns) {
			h->util = -1;
			h->tx_bytes = r->tx_bytes;
			h->ts_ns = r->ts_ns;
		} else if (r->ts_ns < h->ts_ns + window) {
			/*
			 * too close to the last probe, or older than it (two
			 * probes of the path out at once, their echoes taken
			 * in another order): both kept as they were
			 */
		} else if (r->tx_bytes < h->tx_bytes) {
			/* a counter gone back: a new qdisc, start again */
			h->util = -1;
			h->tx_bytes = r->tx_bytes;
			h->ts_ns = r->ts_ns;
		} else {
			u = (double)(r->tx_bytes - h->tx_bytes) * 8e9 /
			    (double)(r->ts_ns - h->ts_ns) / (double)r->rate;
			h->util = u > 1 ? 1 : u;
			h->tx_bytes = r->tx_bytes;
			h->ts_ns = r->ts_ns;
		}
		if (!r->rate)
			continue;
		if (r->rate < B)
			B = r->rate;
		if (h->util > pa->util)
			pa->util = h->util;
		left = 1 - (h->util < 0 ? 0 : h->util);
		if (left < SLUICE_FACA_AVAIL_FLOOR)
			left = SLUICE_FACA_AVAIL_FLOOR;
		if (r->rate * left < avail)
			avail = r->rate * left;
	}
	pa->B = isinf(B) ? 0 : B;
	pa->avail = isinf(avail) ? 0 : avail;
}

/* The load sample of the metric chosen. */
static double path_beta(const struct sluice_faca *a,
			const struct sluice_faca_path *pa)
{
	if (a->o.load == SLUICE_FACA_LOAD_BDP)
		return pa->B * pa->D;
	/* unshaped all the way: as fast as anything, no bytes term */
	return pa->D + (pa->avail > 0 ? a->o.demand * 8 / pa->avail : 0);
}

/* What a flow placed on @pa adds to its E until probes show it. */
static double path_increment(const struct sluice_faca *a,
			     const struct sluice_faca_path *pa)
{
	if (a->o.load == SLUICE_FACA_LOAD_BDP)
		return a->o.demand * 8;
	return pa->B > 0 ? a->o.demand * 8 / pa->B : 0;
}

static void path_update(struct sluice_faca *a, struct sluice_faca_path *pa,
			const struct sluice_int_probe *p, uint64_t rtt_ns,
			uint64_t now_ns)
{
	uint64_t last = p->hop[p->nused - 1].ts_ns;
	double dt;

	path_rates(a, pa, p);
	pa->D = last > p->tx_ns ? (double)(last - p->tx_ns) / 1e9 : 0;
	pa->rtt = (double)rtt_ns / 1e9;
	pa->beta = path_beta(a, pa);
	if (!pa->probes) {
		pa->E = pa->beta;
	} else {
		dt = now_ns > pa->updated_ns ?
		     (double)(now_ns - pa->updated_ns) / 1e9 : 0;
		pa->E = sluice_faca_ewma(pa->E, pa->beta, a->o.k, dt);
	}
	pa->updated_ns = now_ns;
	pa->probes++;
}

int sluice_faca_sport_index(const struct sluice_faca *a, uint16_t sport)
{
	uint32_t lo = 0, hi = a->n_sports, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (a->port[mid] == sport)
			return mid;
		if (a->port[mid] < sport)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static struct sluice_faca_sport *sport_of(const struct sluice_faca *a,
					  uint32_t dst, uint16_t sport)
{
	int k = sluice_faca_sport_index(a, sport);

	return dst < a->n_dst && k >= 0 ? &a->dst[dst].sport[k] : NULL;
}

/* Moves port @s (of @d) to path @to (-1: none), keeping counts. */
static void sport_move(struct sluice_faca_dst *d, struct sluice_faca_sport *s,
		       int32_t to)
{
	if (s->path == to)
		return;
	if (s->path >= 0) {
		d->path[s->path].n_sports--;
		if (s->lease_until)
			d->path[s->path].leases--;
	}
	s->path = to;
	if (to >= 0) {
		d->path[to].n_sports++;
		if (s->lease_until)
			d->path[to].leases++;
	}
}

int sluice_faca_learn(struct sluice_faca *a, uint32_t dst, uint16_t sport,
		      const struct sluice_int_probe *p, uint64_t rtt_ns,
		      uint64_t now_ns)
{
	struct sluice_faca_sport *s;
	struct sluice_faca_dst *d;
	int idx;

	if (dst >= a->n_dst)
		return -EINVAL;
	s = sport_of(a, dst, sport);
	if (!s)
		return -ERANGE;
	if (!p->nused)
		return -ENODATA;
	d = &a->dst[dst];
	idx = path_find_or_add(d, p, a->n_sports);
	if (idx < 0)
		return idx;
	sport_move(d, s, idx);
	s->misses = 0;
	s->probed = true;
	path_update(a, &d->path[idx], p, rtt_ns, now_ns);
	return idx;
}

void sluice_faca_miss(struct sluice_faca *a, uint32_t dst, uint16_t sport)
{
	struct sluice_faca_sport *s = sport_of(a, dst, sport);

	if (!s)
		return;
	if (s->misses < UINT8_MAX)
		s->misses++;
	if (s->misses >= SLUICE_FACA_LOST)
		sport_move(&a->dst[dst], s, -1);
}

int sluice_faca_path_of(const struct sluice_faca *a, uint32_t dst,
			uint16_t sport)
{
	const struct sluice_faca_sport *s = sport_of(a, dst, sport);

	return s ? s->path : -1;
}

bool sluice_faca_placeable(const struct sluice_faca *a, uint32_t dst)
{
	uint32_t k;

	if (dst >= a->n_dst)
		return false;
	for (k = 0; k < a->dst[dst].n_paths; k++)
		if (a->dst[dst].path[k].n_sports)
			return true;
	return false;
}

/*
 * The free port of path @path released longest ago, lowest first among
 * equals; -1 if every one is leased.
 */
static int free_port(const struct sluice_faca *a,
		     const struct sluice_faca_dst *d, int32_t path)
{
	const struct sluice_faca_sport *s;
	int best = -1;
	uint32_t k;

	for (k = 0; k < a->n_sports; k++) {
		s = &d->sport[k];
		if (s->path != path || s->lease_until)
			continue;
		if (best < 0 || s->released_ns < d->sport[best].released_ns)
			best = k;
	}
	return best;
}

int sluice_faca_place(struct sluice_faca *a, uint32_t dst, uint64_t now_ns,
		      uint64_t lease_ns, uint16_t *sport)
{
	double demand = a->o.demand, *load;
	struct sluice_faca_path *pa;
	struct sluice_faca_dst *d;
	unsigned int n = 0, k, chosen;
	uint32_t *ring;
	int port, ret;

	if (dst >= a->n_dst)
		return -EINVAL;
	d = &a->dst[dst];
	load = sluice_i_calloc(d->n_paths + 1, sizeof(*load));
	ring = sluice_i_calloc(d->n_paths + 1, sizeof(*ring));
	ret = -ENOMEM;
	if (!load || !ring)
		goto out;
	/* the paths with a free port, in ring order */
	for (k = 0; k < d->n_paths; k++)
		if (d->path[k].n_sports > d->path[k].leases) {
			ring[n] = k;
			load[n++] = d->path[k].E;
		}
	ret = sluice_faca_placeable(a, dst) ? -EBUSY : -EAGAIN;
	if (!n)
		goto out;
	ret = sluice_fj_place(load, n, &demand, 1, &a->rng, &chosen);
	if (!ret && chosen >= n)
		ret = -EINVAL;
	if (ret)
		goto out;
	pa = &d->path[ring[chosen]];
	port = free_port(a, d, ring[chosen]);
	pa->E += path_increment(a, pa);
	pa->placed++;
	pa->leases++;
	d->placed++;
	d->sport[port].lease_until = now_ns + (lease_ns ? lease_ns : 1);
	*sport = a->port[port];
	ret = ring[chosen];
out:
	free(load);
	free(ring);
	return ret;
}

static void lease_end(struct sluice_faca_dst *d, struct sluice_faca_sport *s,
		      uint64_t now_ns)
{
	if (s->path >= 0)
		d->path[s->path].leases--;
	s->lease_until = 0;
	s->released_ns = now_ns;
}

int sluice_faca_release(struct sluice_faca *a, uint32_t addr, uint16_t sport,
			uint64_t now_ns)
{
	struct sluice_faca_sport *s;
	int d = sluice_faca_dst_find(a, addr);

	s = d < 0 ? NULL : sport_of(a, d, sport);
	if (!s || !s->lease_until)
		return -ENOENT;
	lease_end(&a->dst[d], s, now_ns);
	return 0;
}

uint32_t sluice_faca_expire(struct sluice_faca *a, uint64_t now_ns,
			    sluice_faca_in_use_fn *in_use, void *arg)
{
	struct sluice_faca_sport *s;
	struct sluice_faca_dst *d;
	uint32_t i, k, ended = 0;

	for (i = 0; i < a->n_dst; i++) {
		d = &a->dst[i];
		for (k = 0; k < a->n_sports; k++) {
			s = &d->sport[k];
			if (!s->lease_until || s->lease_until > now_ns)
				continue;
			if (in_use && in_use(arg, d->addr, a->port[k])) {
				s->lease_until = now_ns + a->o.lease_ns;
				continue;
			}
			lease_end(d, s, now_ns);
			ended++;
		}
	}
	return ended;
}
