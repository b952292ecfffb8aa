// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Route sets for other tools (sluice/interop.h): the next hops of every
 * node toward every destination, worked out from the paths, then written
 * as OpenSM's LFT dump or as JSON.
 *
 * The LFT dump is what ibroute prints for a switch, and so dump_lfts.sh for
 * every switch of a subnet; OpenSM's file routing engine ("opensm -R file
 * -U FILE") reads the "Unicast lids ... guid 0x..." line of each switch and
 * its "0xLID PORT ... portguid 0x...:" lines, and skips the rest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>
#include <sluice/interop.h>
#include "internal.h"

static const char *const route_formats[] = {
	[SLUICE_ROUTES_LFT]		= "lft",
	[SLUICE_ROUTES_NEXTHOPS_JSON]	= "nexthops-json",
};

_Static_assert(sizeof(route_formats) / sizeof(route_formats[0]) ==
	       SLUICE_ROUTES__COUNT, "every route format needs a name");

const char *sluice_route_format_name(enum sluice_route_format fmt)
{
	return ix_word(route_formats, SLUICE_ROUTES__COUNT, fmt);
}

int sluice_route_format_parse(const char *name)
{
	return ix_word_parse(route_formats, SLUICE_ROUTES__COUNT, name);
}

/* One next hop: at @node, toward @dst, by @link (port @port). */
struct hop {
	uint32_t	node;
	uint32_t	dst;
	uint32_t	link;
	uint32_t	port;
	uint64_t	paths;	/* that take it */
	uint64_t	first;	/* the first of them */
	uint8_t		lanes;	/* theirs, as bits */
};

struct hops {
	struct hop	*h;
	uint64_t	n, cap;
	uint32_t	*port;	/* 2 * link + end: that end's port */
	/* the first path that visits a node twice, or UINT64_MAX */
	uint64_t	revisit_path;
	uint32_t	revisit_node;
};

static int cmp_hop(const void *p, const void *q)
{
	const struct hop *a = p, *b = q;

	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->dst != b->dst)
		return a->dst < b->dst ? -1 : 1;
	return (a->port > b->port) - (a->port < b->port);
}

/* Ports: a node's links in id order from 1 (the adjacency's order). */
static int number_ports(const struct sluice_graph *g, struct hops *hs)
{
	uint32_t u, i;

	hs->port = sluice_i_calloc((size_t)g->n_links * 2, sizeof(*hs->port));
	if (!hs->port)
		return -ENOMEM;
	for (u = 0; u < g->n_nodes; u++)
		for (i = g->off[u]; i < g->off[u + 1]; i++) {
			uint32_t l = g->adj[i].link;

			hs->port[2 * l + (g->links[l].a != u)] =
				i - g->off[u] + 1;
		}
	return 0;
}

/* The pairs by destination: @order[@start[d]..@start[d + 1]). */
static int pairs_by_dst(const struct sluice_routes *r, uint32_t n_nodes,
			uint64_t **order, uint64_t **start)
{
	uint64_t p, d, *pos;

	*order = sluice_i_calloc(r->n_pairs, sizeof(**order));
	*start = sluice_i_calloc((size_t)n_nodes + 1, sizeof(**start));
	pos = sluice_i_calloc(n_nodes, sizeof(*pos));
	if (!*order || !*start || !pos) {
		free(pos);
		return -ENOMEM;
	}
	for (p = 0; p < r->n_pairs; p++)
		(*start)[r->pair_dst[p] + 1]++;
	for (d = 0; d < n_nodes; d++) {
		(*start)[d + 1] += (*start)[d];
		pos[d] = (*start)[d];
	}
	for (p = 0; p < r->n_pairs; p++)
		(*order)[pos[r->pair_dst[p]]++] = p;
	free(pos);
	return 0;
}

/*
 * Every distinct (node, destination, link) the paths take, sorted by node,
 * destination and port.  One destination at a time: @slot maps a link end
 * to its hop of this destination, and is cleared after it.
 */
static int collect(const struct sluice_routes *r, const struct sluice_graph *g,
		   struct hops *hs)
{
	uint64_t *order = NULL, *start = NULL, *slot, *seen, stamp = 0;
	uint64_t i, q, k, first_hop;
	uint32_t d, at, l, end;
	int ret;

	hs->revisit_path = UINT64_MAX;
	ret = number_ports(g, hs);
	if (!ret)
		ret = pairs_by_dst(r, g->n_nodes, &order, &start);
	slot = sluice_i_calloc((size_t)g->n_links * 2, sizeof(*slot));
	seen = sluice_i_calloc(g->n_nodes, sizeof(*seen));
	if (ret || !slot || !seen) {
		ret = -ENOMEM;
		goto out;
	}
	/* slot holds hop index + 1: 0 is none */
	for (d = 0; d < g->n_nodes && !ret; d++) {
		first_hop = hs->n;
		for (i = start[d]; i < start[d + 1] && !ret; i++) {
			uint64_t p = order[i];

			for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
				at = r->pair_src[p];
				seen[at] = ++stamp;
				for (k = r->path_hop[q]; k < r->path_hop[q + 1];
				     k++) {
					struct hop *h;

					l = r->hops[k];
					end = g->links[l].a != at;
					if (slot[2 * l + end]) {
						h = &hs->h[slot[2 * l + end] - 1];
						h->paths++;
						h->lanes |= 1u << r->path_lane[q];
					} else {
						if (SLUICE_I_GROW(hs->h, hs->cap,
								  hs->n + 1)) {
							ret = -ENOMEM;
							break;
						}
						hs->h[hs->n] = (struct hop){
							.node = at, .dst = d,
							.link = l,
							.port = hs->port[2 * l + end],
							.paths = 1, .first = q,
							.lanes = 1u << r->path_lane[q],
						};
						slot[2 * l + end] = ++hs->n;
					}
					at = end ? g->links[l].a : g->links[l].b;
					if (seen[at] == stamp &&
					    q < hs->revisit_path) {
						hs->revisit_path = q;
						hs->revisit_node = at;
					}
					seen[at] = stamp;
				}
			}
		}
		for (k = first_hop; k < hs->n; k++)
			slot[2 * hs->h[k].link + (g->links[hs->h[k].link].a !=
						  hs->h[k].node)] = 0;
	}
	if (!ret)
		qsort(hs->h, hs->n, sizeof(*hs->h), cmp_hop);
out:
	free(order);
	free(start);
	free(slot);
	free(seen);
	return ret;
}

static const char *name(const struct sluice_graph *g, uint32_t u)
{
	return g->nodes[u].name;
}

/* "path 2 of s0 s3", for messages. */
static void path_name(const struct sluice_routes *r,
		      const struct sluice_graph *g, uint64_t q, char *buf,
		      size_t size)
{
	uint64_t p = sluice_routes_path_pair(r, q);

	snprintf(buf, size, "path %" PRIu64 " of %s %s",
		 q - r->pair_path[p] + 1, name(g, r->pair_src[p]),
		 name(g, r->pair_dst[p]));
}

/* LIDs: node u is u + 1; then the host ports, node by node. */
struct lids {
	uint32_t	*host_lid;	/* each node: its first host's LID */
	uint32_t	*owner;		/* each LID: its node */
	uint32_t	n;		/* the highest LID */
	uint8_t		*row;		/* one node's LFT, by LID */
};

static int plan_lids(const struct sluice_graph *g, struct lids *ls,
		     char *err, size_t errlen)
{
	uint64_t lid = g->n_nodes;
	uint32_t u, ports;

	for (u = 0; u < g->n_nodes; u++) {
		ports = sluice_graph_degree(g, u) + g->nodes[u].hosts;
		if (ports > SLUICE_LFT_PORTS_MAX)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "node %s has %u ports: a switch has at most %d",
					     name(g, u), ports,
					     SLUICE_LFT_PORTS_MAX);
		lid += g->nodes[u].hosts;
	}
	if (lid > SLUICE_LFT_LIDS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%" PRIu64 " nodes and host ports need as many LIDs: there are %d",
				     lid, SLUICE_LFT_LIDS_MAX);
	ls->n = lid;
	ls->host_lid = sluice_i_calloc(g->n_nodes, sizeof(*ls->host_lid));
	ls->row = sluice_i_calloc(lid + 1, sizeof(*ls->row));
	ls->owner = sluice_i_calloc(lid + 1, sizeof(*ls->owner));
	if (!ls->host_lid || !ls->row || !ls->owner)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	for (u = 0; u < g->n_nodes; u++)
		ls->owner[u + 1] = u;
	lid = g->n_nodes + 1;
	for (u = 0; u < g->n_nodes; u++) {
		ls->host_lid[u] = lid;
		for (ports = 0; ports < g->nodes[u].hosts; ports++)
			ls->owner[lid++] = u;
	}
	return 0;
}

/*
 * One port per (node, destination): refuses what an LFT cannot hold, or
 * with @first keeps each group's hop of the earliest path, moved to the
 * group's front (the rest is then ignored).
 */
static int choose(const struct sluice_routes *r, const struct sluice_graph *g,
		  struct hops *hs, bool first, char *err, size_t errlen)
{
	char a[96], b[96];
	uint64_t i, j, k, best;
	struct hop t;

	if (hs->revisit_path != UINT64_MAX) {
		path_name(r, g, hs->revisit_path, a, sizeof(a));
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s visits %s twice: no destination-based table can hold it",
				     a, name(g, hs->revisit_node));
	}
	for (i = 0; i < hs->n; i = j) {
		best = i;
		for (j = i + 1; j < hs->n && hs->h[j].node == hs->h[i].node &&
		     hs->h[j].dst == hs->h[i].dst; j++)
			if (hs->h[j].first < hs->h[best].first)
				best = j;
		if (j - i > 1 && !first) {
			k = best == i ? i + 1 : i;
			path_name(r, g, hs->h[best].first, a, sizeof(a));
			path_name(r, g, hs->h[k].first, b, sizeof(b));
			return sluice_i_errf(err, errlen, -EINVAL,
					     "node %s forwards destination %s by ports %u (%s) and %u (%s): an LFT holds one port per destination (keep the first path's with --first)",
					     name(g, hs->h[i].node),
					     name(g, hs->h[i].dst),
					     hs->h[best].port, a,
					     hs->h[k].port, b);
		}
		t = hs->h[i];
		hs->h[i] = hs->h[best];
		hs->h[best] = t;
	}
	return 0;
}

static uint64_t guid_of(const struct sluice_graph *g, uint32_t u, uint32_t lid)
{
	const char *s = u < g->n_nodes ? name(g, u) : "";
	uint64_t v = 0;
	int i;

	if (strlen(s) == 18 && s[0] == '0' && s[1] == 'x') {
		for (i = 2; i < 18; i++) {
			char c = s[i];

			if (c >= '0' && c <= '9')
				v = v << 4 | (uint64_t)(c - '0');
			else if (c >= 'a' && c <= 'f')
				v = v << 4 | (uint64_t)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				v = v << 4 | (uint64_t)(c - 'A' + 10);
			else
				break;
		}
		if (i == 18)
			return v;
	}
	return 0x0200000000000000ull | lid;
}

static void write_lft_node(const struct sluice_graph *g,
			   const struct hops *hs, uint64_t *next,
			   struct lids *ls, uint32_t x, FILE *f)
{
	uint32_t deg = sluice_graph_degree(g, x), lid, d, i, valid = 0;
	uint64_t k = *next;

	memset(ls->row, 0xff, ls->n + 1);
	ls->row[x + 1] = 0;
	for (i = 0; i < g->nodes[x].hosts; i++)
		ls->row[ls->host_lid[x] + i] = deg + 1 + i;
	/* each group's chosen hop is its first (choose()) */
	for (; k < hs->n && hs->h[k].node == x; k++) {
		if (k > *next && hs->h[k].dst == hs->h[k - 1].dst)
			continue;
		d = hs->h[k].dst;
		ls->row[d + 1] = hs->h[k].port;
		for (i = 0; i < g->nodes[d].hosts; i++)
			ls->row[ls->host_lid[d] + i] = hs->h[k].port;
	}
	*next = k;
	fprintf(f, "Unicast lids [0x0-0x%x] of switch Lid %u guid 0x%016" PRIx64 " (%s):\n"
		"  Lid  Out   Destination\n"
		"       Port     Info \n",
		ls->n, x + 1, guid_of(g, x, x + 1), name(g, x));
	for (lid = 1; lid <= ls->n; lid++) {
		if (ls->row[lid] == 0xff)
			continue;
		valid++;
		if (lid <= g->n_nodes) {
			fprintf(f, "0x%04x %03u : (Switch portguid 0x%016" PRIx64 ": '%s')\n",
				lid, ls->row[lid], guid_of(g, lid - 1, lid),
				name(g, lid - 1));
			continue;
		}
		d = ls->owner[lid];
		fprintf(f, "0x%04x %03u : (Channel Adapter portguid 0x%016" PRIx64 ": '%s h%u')\n",
			lid, ls->row[lid], guid_of(g, UINT32_MAX, lid),
			name(g, d), lid - ls->host_lid[d]);
	}
	fprintf(f, "%u valid lids dumped \n", valid);
}

static int export_lft(const struct sluice_routes *r,
		      const struct sluice_graph *g, struct hops *hs,
		      bool first, FILE *f, char *err, size_t errlen)
{
	struct lids ls = { 0 };
	uint64_t next = 0;
	uint32_t x;
	int ret;

	ret = plan_lids(g, &ls, err, errlen);
	if (!ret)
		ret = choose(r, g, hs, first, err, errlen);
	for (x = 0; x < g->n_nodes && !ret; x++) {
		if (x)
			fputc('\n', f);
		write_lft_node(g, hs, &next, &ls, x, f);
	}
	free(ls.host_lid);
	free(ls.owner);
	free(ls.row);
	return ret;
}

static bool jadd(json_object *o, const char *key, json_object *v)
{
	if (v && !json_object_object_add(o, key, v))
		return true;
	json_object_put(v);
	return false;
}

static bool jpush(json_object *a, json_object *v)
{
	if (v && !json_object_array_add(a, v))
		return true;
	json_object_put(v);
	return false;
}

static json_object *ports_json(const struct sluice_graph *g, uint32_t u)
{
	json_object *a = json_object_new_array(), *p;
	uint32_t i, deg = sluice_graph_degree(g, u);
	bool ok = a;

	for (i = 0; ok && i < deg; i++) {
		const struct sluice_adj *e = &g->adj[g->off[u] + i];

		p = json_object_new_object();
		ok = jpush(a, p) &&
		     jadd(p, "port", json_object_new_int64(i + 1)) &&
		     jadd(p, "link", json_object_new_int64(e->link)) &&
		     jadd(p, "peer", json_object_new_string(name(g, e->peer)));
	}
	for (i = 0; ok && i < g->nodes[u].hosts; i++) {
		p = json_object_new_object();
		ok = jpush(a, p) &&
		     jadd(p, "port", json_object_new_int64(deg + 1 + i)) &&
		     jadd(p, "host", json_object_new_int64(i));
	}
	if (ok)
		return a;
	json_object_put(a);
	return NULL;
}

static json_object *hop_json(const struct sluice_graph *g, const struct hop *h)
{
	json_object *o = json_object_new_object(), *lanes;
	const struct sluice_link *l = &g->links[h->link];
	bool ok;
	int i;

	lanes = json_object_new_array();
	ok = o && jadd(o, "port", json_object_new_int64(h->port)) &&
	     jadd(o, "link", json_object_new_int64(h->link)) &&
	     jadd(o, "peer", json_object_new_string(name(g, l->a == h->node ?
							  l->b : l->a))) &&
	     jadd(o, "paths", json_object_new_uint64(h->paths)) &&
	     jadd(o, "lanes", lanes);
	for (i = 0; ok && i < SLUICE_LANES_MAX; i++)
		if (h->lanes & (1u << i))
			ok = jpush(lanes, json_object_new_int64(i));
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

/* Node @u's line, malloc()ed; advances *@next past its hops. */
static char *node_json(const struct sluice_graph *g, const struct hops *hs,
		       uint64_t *next, uint32_t u)
{
	json_object *o = json_object_new_object(), *nh, *list = NULL;
	uint64_t k;
	char *s;
	bool ok;

	nh = json_object_new_object();
	ok = o && jadd(o, "name", json_object_new_string(name(g, u))) &&
	     jadd(o, "ports", ports_json(g, u)) && jadd(o, "nexthops", nh);
	for (k = *next; ok && k < hs->n && hs->h[k].node == u; k++) {
		if (k == *next || hs->h[k].dst != hs->h[k - 1].dst) {
			list = json_object_new_array();
			ok = jadd(nh, name(g, hs->h[k].dst), list);
		}
		ok = ok && jpush(list, hop_json(g, &hs->h[k]));
	}
	*next = k;
	s = ok ? strdup(json_object_to_json_string_ext(o,
					JSON_C_TO_STRING_PLAIN)) : NULL;
	json_object_put(o);
	return s;
}

static int export_json(const struct sluice_routes *r,
		       const struct sluice_graph *g, const struct hops *hs,
		       FILE *f, char *err, size_t errlen)
{
	char **lines = sluice_i_calloc(g->n_nodes, sizeof(*lines));
	json_object *algo = json_object_new_string(r->algo);
	uint64_t next = 0;
	uint32_t u;
	int ret = lines && algo ? 0 : -ENOMEM;

	for (u = 0; u < g->n_nodes && !ret; u++) {
		lines[u] = node_json(g, hs, &next, u);
		if (!lines[u])
			ret = -ENOMEM;
	}
	if (!ret) {
		fprintf(f, "{\n  \"format\": \"sluice-nexthops\",\n  \"version\": 1,\n"
			"  \"topology\": {\"nodes\":%u,\"links\":%u,\"hash\":\"%016" PRIx64 "\"},\n"
			"  \"algo\": %s,\n  \"nodes\": [\n",
			g->n_nodes, g->n_links, r->topo_hash,
			json_object_to_json_string_ext(algo,
						       JSON_C_TO_STRING_PLAIN));
		for (u = 0; u < g->n_nodes; u++)
			fprintf(f, "    %s%s\n", lines[u],
				u + 1 < g->n_nodes ? "," : "");
		fputs("  ]\n}\n", f);
	}
	for (u = 0; lines && u < g->n_nodes; u++)
		free(lines[u]);
	free(lines);
	json_object_put(algo);
	return ret ? sluice_i_errf(err, errlen, ret, "out of memory") : 0;
}

int sluice_routes_export(const struct sluice_routes *r,
			 const struct sluice_graph *g,
			 enum sluice_route_format fmt,
			 const struct sluice_route_export_opts *o, FILE *f,
			 char *err, size_t errlen)
{
	struct hops hs = { 0 };
	int ret;

	if ((unsigned int)fmt >= SLUICE_ROUTES__COUNT)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "unknown route format %d", fmt);
	if (!g->finalized || r->n_nodes != g->n_nodes ||
	    r->n_links != g->n_links)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the routes are not for this topology");
	if (r->shard_count > 1)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "shard %u/%u of a route set: merge the shards first (route merge)",
				     r->shard_index, r->shard_count);
	ret = collect(r, g, &hs);
	if (ret)
		ret = sluice_i_errf(err, errlen, ret, "out of memory");
	else if (fmt == SLUICE_ROUTES_LFT)
		ret = export_lft(r, g, &hs, o && o->first, f, err, errlen);
	else
		ret = export_json(r, g, &hs, f, err, errlen);
	if (!ret && ferror(f))
		ret = sluice_i_errf(err, errlen, -EIO, "cannot write: %s",
				     strerror(errno));
	free(hs.h);
	free(hs.port);
	return ret;
}
