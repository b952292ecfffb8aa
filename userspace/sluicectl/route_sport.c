// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl route sport --topo FILE ROUTES [--pair SOURCE,DESTINATION
 * [--port PORT]] [-j]
 *
 * Which source ports take which path in a fabric of multipath mode exact
 * (sluice/multipath.h): every pair's paths in the route file's order, each
 * with its range of ports and the nodes it crosses; or, for one pair and
 * one port, the path that port takes, if any (outside every range the
 * multipath hash picks).  The library maps both ways
 * (sluice_fabric_path_sport(), sluice_fabric_sport_path()); this prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/fabric.h>
#include <sluice/multipath.h>
#include "jout.h"
#include "load.h"
#include "args.h"
#include "sluicectl.h"

enum opt_id { OPT_TOPO, OPT_PAIR, OPT_PORT, OPT_JSON, N_OPTS };

static const struct arg_opt opts[] = {
	[OPT_TOPO]	= ARG_P("--topo", 0, "FILE", "the topology (sluice-topology(5))",
				.flags = ARG_REQUIRED),
	[OPT_PAIR]	= ARG_S("--pair", 0, "SOURCE,DESTINATION", "only this pair's paths"),
	[OPT_PORT]	= ARG_N("--port", 0, "PORT", 1, 65535,
				"with --pair: the path this source port takes"),
	[OPT_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
};

static const struct args_spec spec =
	ARGS_SPEC(opts, 0, 2, "ROUTES, the route file (sluice-routes(5))");

struct in {
	struct sluice_graph	g;
	struct sluice_routes	r;
	bool			json;
	json_object		*arr;
};

/* Appends @v to JSON array @arr; false if out of memory. */
static bool append(json_object *arr, json_object *v)
{
	if (v && !json_object_array_add(arr, v))
		return true;
	json_object_put(v);
	return false;
}

/* " nodes leaf0 spine0 leaf1", or a JSON array of them: path @q's nodes. */
static bool path_nodes(const struct in *in, uint64_t p, uint64_t q,
		       json_object *arr)
{
	uint32_t at = in->r.pair_src[p];
	uint64_t h = in->r.path_hop[q];
	bool ok = true;

	if (!arr)
		fputs(" nodes", stdout);
	for (;;) {
		if (arr)
			ok = append(arr, json_object_new_string(name_of(&in->g, at)));
		else
			printf(" %s", name_of(&in->g, at));
		if (!ok || h == in->r.path_hop[q + 1])
			return ok;
		at = sluice_fabric_peer(&in->g, at, in->r.hops[h++]);
	}
}

/* " links 0 2", or a JSON array of them. */
static bool path_links(const struct in *in, uint64_t q, json_object *arr)
{
	uint64_t h;
	bool ok = true;

	if (!arr)
		fputs(" links", stdout);
	for (h = in->r.path_hop[q]; ok && h < in->r.path_hop[q + 1]; h++)
		if (arr)
			ok = append(arr, jnum(in->r.hops[h]));
		else
			printf(" %u", in->r.hops[h]);
	return ok;
}

/*
 * Path @q of pair @p: "leaf0 -> leaf1 path 0 sport 20000-20063 nodes ...
 * links ..." (@port 0), or with the port that asked.
 */
static bool print_path(struct in *in, uint64_t p, uint64_t q, uint16_t port)
{
	uint32_t k = q - in->r.pair_path[p];
	json_object *o, *nodes, *links;
	uint16_t lo = 0, hi = 0;
	bool ranged;

	ranged = !sluice_fabric_path_sport(&in->r, in->r.pair_src[p],
					   in->r.pair_dst[p], k, &lo, &hi,
					   NULL, 0);
	if (!in->json) {
		printf("%s -> %s", name_of(&in->g, in->r.pair_src[p]),
		       name_of(&in->g, in->r.pair_dst[p]));
		if (port)
			printf(" sport %u", port);
		printf(" path %u", k);
		if (!port && ranged)
			printf(" sport %u-%u", lo, hi);
		else if (!port)
			fputs(" sport none", stdout);
		path_nodes(in, p, q, NULL);
		path_links(in, q, NULL);
		putchar('\n');
		return true;
	}
	o = json_object_new_object();
	if (!append(in->arr, o))
		return false;
	nodes = json_object_new_array();
	links = json_object_new_array();
	if (!nodes || !links || !path_nodes(in, p, q, nodes) ||
	    !path_links(in, q, links)) {
		json_object_put(nodes);
		json_object_put(links);
		return false;
	}
	return jadd(o, "src", json_object_new_string(name_of(&in->g, in->r.pair_src[p]))) &&
	       jadd(o, "dst", json_object_new_string(name_of(&in->g, in->r.pair_dst[p]))) &&
	       (!port || jadd(o, "sport", jnum(port))) &&
	       jadd(o, "path", jnum(k)) &&
	       (port || !ranged || (jadd(o, "sport_min", jnum(lo)) &&
				    jadd(o, "sport_max", jnum(hi)))) &&
	       jadd(o, "nodes", nodes) && jadd(o, "links", links);
}

/* --port PORT of pair @p: its path, or that the hash picks. */
static bool print_port(struct in *in, uint64_t p, uint16_t port)
{
	uint32_t k;
	json_object *o;

	if (!sluice_fabric_sport_path(&in->r, in->r.pair_src[p],
				      in->r.pair_dst[p], port, &k))
		return print_path(in, p, in->r.pair_path[p] + k, port);
	if (!in->json) {
		printf("%s -> %s sport %u path none: outside every path's range, the multipath hash picks\n",
		       name_of(&in->g, in->r.pair_src[p]),
		       name_of(&in->g, in->r.pair_dst[p]), port);
		return true;
	}
	o = json_object_new_object();
	if (!append(in->arr, o))
		return false;
	return jadd(o, "src", json_object_new_string(name_of(&in->g, in->r.pair_src[p]))) &&
	       jadd(o, "dst", json_object_new_string(name_of(&in->g, in->r.pair_dst[p]))) &&
	       jadd(o, "sport", jnum(port)) &&
	       !json_object_object_add(o, "path", NULL);
}

/* The pair --pair names, or -1 (printed). */
static int64_t find_pair(const struct in *in, const char *pair)
{
	const char *comma = strchr(pair, ',');
	uint32_t src, dst;
	uint64_t p;

	if (sluice_graph_node_find(&in->g, pair, comma - pair, &src) ||
	    sluice_graph_node_find(&in->g, comma + 1, strlen(comma + 1), &dst)) {
		fprintf(stderr, "sluicectl: --pair %s: no such node\n", pair);
		return -1;
	}
	for (p = 0; p < in->r.n_pairs; p++)
		if (in->r.pair_src[p] == src && in->r.pair_dst[p] == dst)
			return p;
	fprintf(stderr, "sluicectl: --pair %s: not a pair of the route set\n",
		pair);
	return -1;
}

static int run(struct in *in, const char *pair, uint16_t port)
{
	int64_t one = -1;
	uint64_t p, q;
	bool ok = true;

	if (pair) {
		one = find_pair(in, pair);
		if (one < 0)
			return EXIT_RUNTIME;
	}
	in->arr = in->json ? json_object_new_array() : NULL;
	if (in->json && !in->arr)
		ok = false;
	if (port)
		ok = ok && print_port(in, one, port);
	for (p = 0; !port && ok && p < in->r.n_pairs; p++)
		for (q = in->r.pair_path[p]; (one < 0 || (uint64_t)one == p) &&
		     ok && q < in->r.pair_path[p + 1]; q++)
			ok = print_path(in, p, q, 0);
	return in->json ? jprint(in->arr, ok) : 0;
}

int route_sport_main(const struct command *cmd, int argc, char **argv)
{
	struct in in = { .json = false };
	const char **val;
	char **files;
	uint64_t port;
	int n, ret;
	ARGS_DECLARE(a, N_OPTS);

	if (args_parse(cmd, &spec, argc, argv, &a))
		return a.exit;
	val = a.val;
	files = a.operands;
	n = a.n_operands;
	port = a.num[OPT_PORT];
	if (n != 1)
		return args_error(&a, n ? "one route file, not %d" :
				       "no route file given%.0d", n);
	if (val[OPT_PAIR] && !strchr(val[OPT_PAIR], ','))
		return args_error(&a, "--pair: \"%s\" is not SOURCE,DESTINATION",
				       val[OPT_PAIR]);
	if (val[OPT_PORT] && !val[OPT_PAIR])
		return args_error(&a, "--port goes with --pair SOURCE,DESTINATION");
	in.json = val[OPT_JSON];
	ret = load_topo(val[OPT_TOPO], &in.g);
	if (ret)
		return ret;
	ret = load_routes(files[0], &in.g, &in.r);
	if (!ret) {
		ret = run(&in, val[OPT_PAIR], port);
		sluice_routes_free(&in.r);
	}
	sluice_graph_free(&in.g);
	return ret;
}
