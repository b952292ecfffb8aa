// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FaCa's table as JSON (sluice_faca_json()): what the agent's "show"
 * request answers and "sluicectl faca show" prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <json.h>
#include <sluice/faca.h>
#include <sluice/faca_hook.h>
#include <sluice/route.h>

#include "internal.h"

static bool add(json_object *o, const char *key, json_object *v)
{
	if (!v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		return false;
	}
	return true;
}

static bool push(json_object *arr, json_object *v)
{
	if (!v || json_object_array_add(arr, v)) {
		json_object_put(v);
		return false;
	}
	return true;
}

/* @v, or null when it is negative (not measured yet). */
static bool add_measured(json_object *o, const char *key, double v)
{
	if (v < 0)
		return !json_object_object_add(o, key, NULL);
	return add(o, key, json_object_new_double(v));
}

static json_object *num(double v)
{
	return json_object_new_double(v);
}

static json_object *u64(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

static json_object *addr_str(uint32_t addr)
{
	char buf[INET_ADDRSTRLEN];

	return json_object_new_string(inet_ntop(AF_INET, &addr, buf,
						sizeof(buf)));
}

/* Seconds from @now_ns to @t_ns (negative if before). */
static double secs(uint64_t t_ns, uint64_t now_ns)
{
	return ((double)t_ns - (double)now_ns) / 1e9;
}

static json_object *hop_json(const struct sluice_faca_hop *h)
{
	json_object *o = json_object_new_object();

	if (o && add(o, "node", u64(h->node)) &&
	    add(o, "ifindex", u64(h->ifindex)) &&
	    add(o, "link", u64(h->link)) &&
	    add(o, "rate", u64(h->rate)) &&
	    add_measured(o, "util", h->util))
		return o;
	json_object_put(o);
	return NULL;
}

/*
 * Route @q of @a's route set: its index among its pair's paths (as the
 * route file and multipath exact number them) and the nodes it walks.
 */
static json_object *route_json(const struct sluice_faca *a, uint64_t q)
{
	const struct sluice_routes *r = a->routes;
	const struct sluice_graph *g = a->g;
	json_object *o = json_object_new_object(), *nodes;
	uint64_t p = sluice_routes_path_pair(r, q), h;
	const struct sluice_link *l;
	uint32_t at = r->pair_src[p];

	if (!o || !add(o, "index", u64(q - r->pair_path[p])) ||
	    !add(o, "nodes", nodes = json_object_new_array()) ||
	    !push(nodes, json_object_new_string(g->nodes[at].name)))
		goto fail;
	for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
		l = &g->links[r->hops[h]];
		at = l->a == at ? l->b : l->a;
		if (!push(nodes, json_object_new_string(g->nodes[at].name)))
			goto fail;
	}
	return o;
fail:
	json_object_put(o);
	return NULL;
}

static json_object *flow_json(const struct sluice_faca_hooked *f)
{
	json_object *o = json_object_new_object();

	if (o && add(o, "proto", json_object_new_string(
			f->proto == IPPROTO_UDP ? "udp" : "tcp")) &&
	    add(o, "saddr", addr_str(f->saddr)) &&
	    add(o, "sport", u64(f->sport)) &&
	    add(o, "dport", u64(f->dport)))
		return o;
	json_object_put(o);
	return NULL;
}

static json_object *path_json(const struct sluice_faca *a,
			      const struct sluice_faca_dst *d, uint32_t k,
			      uint64_t now_ns)
{
	const struct sluice_faca_path *pa = &d->path[k];
	json_object *o = json_object_new_object(), *hops, *ports, *leases, *l;
	const struct sluice_faca_sport *s;
	uint32_t i;

	if (!o || !add(o, "index", u64(k)) ||
	    !add(o, "B", num(pa->B)) ||
	    !add_measured(o, "util", pa->util) ||
	    !add(o, "avail", num(pa->avail)) ||
	    !add(o, "D", num(pa->D)) ||
	    !add(o, "rtt", num(pa->rtt)) ||
	    !add(o, "beta", num(pa->beta)) ||
	    !add(o, "E", num(pa->E)) ||
	    !add(o, "age", num(-secs(pa->updated_ns, now_ns))) ||
	    !add(o, "probes", u64(pa->probes)) ||
	    !add(o, "placed", u64(pa->placed)) ||
	    !(pa->route < 0 ? !json_object_object_add(o, "route", NULL) :
	      add(o, "route", route_json(a, pa->route))) ||
	    !add(o, "hops", hops = json_object_new_array()) ||
	    !add(o, "sports", ports = json_object_new_array()) ||
	    !add(o, "leases", leases = json_object_new_array()))
		goto fail;
	for (i = 0; i < pa->n_hops; i++)
		if (!push(hops, hop_json(&pa->hop[i])))
			goto fail;
	for (i = 0; i < a->n_sports; i++) {
		s = &d->sport[i];
		if (s->path != (int32_t)k)
			continue;
		if (!push(ports, u64(a->port[i])))
			goto fail;
		if (!s->lease_until)
			continue;
		l = json_object_new_object();
		if (!push(leases, l) ||
		    !add(l, "sport", u64(a->port[i])) ||
		    !add(l, "left", num(secs(s->lease_until, now_ns))) ||
		    (s->flow.proto && !add(l, "flow", flow_json(&s->flow))))
			goto fail;
	}
	return o;
fail:
	json_object_put(o);
	return NULL;
}

static json_object *dst_json(const struct sluice_faca *a,
			     const struct sluice_faca_dst *d, uint64_t now_ns)
{
	json_object *o = json_object_new_object(), *paths, *none;
	uint32_t k;

	if (!o || !add(o, "addr", addr_str(d->addr)) ||
	    !add(o, "placed", u64(d->placed)) ||
	    !add(o, "paths", paths = json_object_new_array()) ||
	    !add(o, "unmapped", none = json_object_new_array()))
		goto fail;
	for (k = 0; k < d->n_paths; k++)
		if (!push(paths, path_json(a, d, k, now_ns)))
			goto fail;
	for (k = 0; k < a->n_sports; k++)
		if (d->sport[k].path < 0 &&
		    !push(none, u64(a->port[k])))
			goto fail;
	return o;
fail:
	json_object_put(o);
	return NULL;
}

json_object *sluice_i_faca_json(const struct sluice_faca *a, uint64_t now_ns)
{
	json_object *o = json_object_new_object(), *dsts;
	char ranges[SLUICE_FACA_RANGES_MAX * 12];
	uint32_t d;

	if (!o || !add(o, "load", json_object_new_string(
			sluice_faca_load_name(a->o.load))) ||
	    !add(o, "k", num(a->o.k)) ||
	    !add(o, "demand", num(a->o.demand)) ||
	    !add(o, "sports", json_object_new_string(
			sluice_faca_ranges_format(&a->o, ranges, sizeof(ranges)))) ||
	    !add(o, "port", u64(a->o.port)) ||
	    !add(o, "tos", u64(a->o.tos)) ||
	    !add(o, "interval", num(a->o.interval_ns / 1e9)) ||
	    !add(o, "lease", num(a->o.lease_ns / 1e9)) ||
	    !add(o, "destinations", dsts = json_object_new_array()))
		goto fail;
	for (d = 0; d < a->n_dst; d++)
		if (!push(dsts, dst_json(a, &a->dst[d], now_ns)))
			goto fail;
	return o;
fail:
	json_object_put(o);
	return NULL;
}

json_object *sluice_i_faca_hook_json(const struct sluice_faca_hook_cfg *cfg,
				     const struct sluice_faca_hook_stats *st)
{
	json_object *o = json_object_new_object(), *dst;
	char addr[INET_ADDRSTRLEN + 3];
	size_t i;

	if (!o || !add(o, "queue", u64(cfg->queue)) ||
	    !add(o, "udp", json_object_new_boolean(cfg->udp)) ||
	    !add(o, "dst", dst = json_object_new_array()) ||
	    !add(o, "queued", u64(st->queued)) ||
	    !add(o, "rewritten", u64(st->rewritten)) ||
	    !add(o, "kept", u64(st->kept)) ||
	    !add(o, "refused", u64(st->refused)) ||
	    !add(o, "failed", u64(st->failed)) ||
	    !add(o, "deferred", u64(st->deferred)) ||
	    !add(o, "waiting", u64(st->waiting)))
		goto fail;
	for (i = 0; i < cfg->n_dst; i++) {
		inet_ntop(AF_INET, &cfg->dst[i].addr, addr, sizeof(addr));
		snprintf(addr + strlen(addr), sizeof(addr) - strlen(addr),
			 "/%u", cfg->dst[i].len);
		if (!push(dst, json_object_new_string(addr)))
			goto fail;
	}
	return o;
fail:
	json_object_put(o);
	return NULL;
}

char *sluice_i_json_text(json_object *o)
{
	char *text = o ? strdup(json_object_to_json_string_ext(o,
					JSON_C_TO_STRING_PLAIN)) : NULL;

	json_object_put(o);
	return text;
}

char *sluice_faca_json(const struct sluice_faca *a, uint64_t now_ns)
{
	return sluice_i_json_text(sluice_i_faca_json(a, now_ns));
}
