// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The route-set core: the compute driver (threads, shards, progress,
 * errors), the route file's writer and reader, merging shards, validation
 * and statistics.  Round trips with every algorithm on generated fabrics
 * (lanes, pairs without a path, names with colons), an exact file, the
 * same set for any thread count and from shards merged in any order, the
 * statistics against Floyd-Warshall and brute-force path counts on random
 * multigraphs, every error of the driver, merge, validation and the reader
 * with its message and line, and a fuzz loop over mutated files: each one
 * fails with a message and leaves nothing, or loads a valid set whose
 * written text is the file itself.
 */
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sluice/graph.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "ktap.h"

#define NAME	"t.routes"
#define NONE	UINT32_MAX

static char err[SLUICE_ERRLEN];

/* A graph or route set the test builds failed: a bug in the test. */
static void die(const char *what)
{
	ktap_diag("%s: %s", what, err);
	abort();
}

/* ---- graphs ---- */

/*
 * A hand-made graph: @n nodes named @names (or s0, s1, ...), with host
 * ports where @hosts says (or none), and @tiers (or none); links @ends[2 i].
 */
static void make_graph(struct sluice_graph *g, uint32_t n,
		       const char *const *names, const uint32_t *hosts,
		       const uint8_t *tiers, const uint32_t *ends, uint32_t m)
{
	char name[SLUICE_NAME_MAX];
	uint32_t u, i;

	if (sluice_graph_init(g, n, err, sizeof(err)))
		die("init");
	for (u = 0; u < n; u++) {
		snprintf(name, sizeof(name), "s%u", u);
		if (sluice_graph_set_node(g, u, names ? names[u] : name,
					  SLUICE_NODE_SWITCH,
					  hosts ? hosts[u] : 0,
					  tiers ? tiers[u] : 0, err,
					  sizeof(err)))
			die("set_node");
	}
	for (i = 0; i < m; i++)
		if (sluice_graph_add_link(g, ends[2 * i], ends[2 * i + 1], 0,
					  0, err, sizeof(err)) < 0)
			die("add_link");
	if (sluice_graph_finalize(g, err, sizeof(err)))
		die("finalize");
}

/*
 * The small fabric most exact checks use: s1 a transit switch, hosts on
 * s0, s2 and s3; links 0 and 2 parallel between s0 and s1.
 *
 *	s0 =0,2= s1 -1- s2 -3- s3
 */
static void small_graph(struct sluice_graph *g)
{
	static const uint32_t ends[] = { 0, 1, 1, 2, 0, 1, 2, 3 };
	static const uint32_t hosts[] = { 1, 0, 2, 1 };

	make_graph(g, 4, NULL, hosts, NULL, ends, 4);
}

/*
 * @n nodes, @m links between random distinct ends.  Half the time some
 * nodes get host ports, so that the endpoints are a subset.
 */
static void random_graph(struct sluice_graph *g, struct sluice_rng *r,
			 uint32_t n, uint32_t m)
{
	bool some = sluice_rng_below(r, 2);
	uint32_t hosts[16], ends[64], i;

	for (i = 0; i < n; i++)
		hosts[i] = some && sluice_rng_below(r, 3) ? 1 : 0;
	for (i = 0; i < m; i++) {
		ends[2 * i] = sluice_rng_below(r, n);
		ends[2 * i + 1] = sluice_rng_below(r, n - 1);
		ends[2 * i + 1] += ends[2 * i + 1] >= ends[2 * i];
	}
	make_graph(g, n, NULL, hosts, NULL, ends, m);
}

/* ---- route sets ---- */

static int compute(const struct sluice_graph *g,
		   const struct sluice_route_opts *o, uint32_t threads,
		   uint32_t si, uint32_t sc, struct sluice_routes *r)
{
	struct sluice_compute_opts c = {
		.threads = threads, .shard_index = si, .shard_count = sc,
	};

	err[0] = 0;
	return sluice_routes_compute(g, o, &c, r, err, sizeof(err));
}

static void compute_or_die(const struct sluice_graph *g,
			   const struct sluice_route_opts *o,
			   struct sluice_routes *r)
{
	if (compute(g, o, 2, 0, 1, r))
		die("compute");
}

/* The route file of @r, malloc()ed, or NULL with the message in err. */
static char *to_text(const struct sluice_routes *r,
		     const struct sluice_graph *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		abort();
	err[0] = 0;
	ret = sluice_routes_write(r, g, f, err, sizeof(err));
	fclose(f);
	if (ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Reads the @len bytes at @buf as the file NAME. */
static int from_buf(struct sluice_routes *r, const struct sluice_graph *g,
		    const char *buf, size_t len)
{
	FILE *f = len ? fmemopen((void *)buf, len, "r") :
			fopen("/dev/null", "r");
	int ret;

	if (!f)
		abort();
	err[0] = 0;
	ret = sluice_routes_read(r, g, f, NAME, err, sizeof(err));
	fclose(f);
	return ret;
}

static int from_text(struct sluice_routes *r, const struct sluice_graph *g,
		     const char *text)
{
	return from_buf(r, g, text, strlen(text));
}

static bool is_zero(const struct sluice_routes *r)
{
	static const struct sluice_routes zero;

	return !memcmp(r, &zero, sizeof(zero));
}

#define SAME(field) \
	do { \
		if (a->field != b->field) { \
			ktap_diag("routes differ in " #field ": %llu, %llu", \
				  (unsigned long long)a->field, \
				  (unsigned long long)b->field); \
			return false; \
		} \
	} while (0)

#define SAME_ARRAY(arr, n) \
	do { \
		if ((n) && memcmp(a->arr, b->arr, (n) * sizeof(*a->arr))) { \
			ktap_diag("routes differ in " #arr); \
			return false; \
		} \
	} while (0)

/* Everything a route file carries, compared; diagnoses the first change. */
static bool same_routes(const struct sluice_routes *a,
			const struct sluice_routes *b)
{
	if (strcmp(a->algo, b->algo)) {
		ktap_diag("routes differ in algo: %s, %s", a->algo, b->algo);
		return false;
	}
	SAME(opts.algo);
	SAME(opts.paths);
	SAME(opts.lanes);
	SAME(opts.seed);
	SAME(opts.orient);
	SAME(opts.has_root);
	if (a->opts.has_root)
		SAME(opts.root);
	SAME(n_nodes);
	SAME(n_links);
	SAME(topo_hash);
	SAME(shard_index);
	SAME(shard_count);
	SAME(n_pairs);
	SAME(n_paths);
	SAME(n_hops);
	SAME(truncated_pairs);
	SAME_ARRAY(pair_src, a->n_pairs);
	SAME_ARRAY(pair_dst, a->n_pairs);
	SAME_ARRAY(pair_path, a->n_pairs + 1);
	SAME_ARRAY(path_hop, a->n_paths + 1);
	SAME_ARRAY(path_lane, a->n_paths);
	SAME_ARRAY(hops, a->n_hops);
	return true;
}

/* A deep copy of @a, for validation tests to break. */
static void copy_routes(struct sluice_routes *c, const struct sluice_routes *a)
{
	*c = *a;
	c->pair_src = malloc(a->n_pairs * 4 + 1);
	c->pair_dst = malloc(a->n_pairs * 4 + 1);
	c->pair_path = malloc((a->n_pairs + 1) * 8);
	c->path_hop = malloc((a->n_paths + 1) * 8);
	c->path_lane = malloc(a->n_paths + 1);
	c->hops = malloc(a->n_hops * 4 + 1);
	if (!c->pair_src || !c->pair_dst || !c->pair_path || !c->path_hop ||
	    !c->path_lane || !c->hops)
		abort();
	memcpy(c->pair_src, a->pair_src, a->n_pairs * 4);
	memcpy(c->pair_dst, a->pair_dst, a->n_pairs * 4);
	memcpy(c->pair_path, a->pair_path, (a->n_pairs + 1) * 8);
	memcpy(c->path_hop, a->path_hop, (a->n_paths + 1) * 8);
	memcpy(c->path_lane, a->path_lane, a->n_paths);
	memcpy(c->hops, a->hops, a->n_hops * 4);
}

/* Removes pair @p of @r and its paths. */
static void drop_pair(struct sluice_routes *r, uint64_t p)
{
	uint64_t q0 = r->pair_path[p], q1 = r->pair_path[p + 1];
	uint64_t h0 = r->path_hop[q0], h1 = r->path_hop[q1], i;

	memmove(r->hops + h0, r->hops + h1, (r->n_hops - h1) * 4);
	memmove(r->path_lane + q0, r->path_lane + q1, r->n_paths - q1);
	for (i = q1; i <= r->n_paths; i++)
		r->path_hop[i - (q1 - q0)] = r->path_hop[i] - (h1 - h0);
	for (i = p + 1; i <= r->n_pairs; i++)
		r->pair_path[i - 1] = r->pair_path[i] - (q1 - q0);
	memmove(r->pair_src + p, r->pair_src + p + 1,
		(r->n_pairs - p - 1) * 4);
	memmove(r->pair_dst + p, r->pair_dst + p + 1,
		(r->n_pairs - p - 1) * 4);
	r->n_pairs--;
	r->n_paths -= q1 - q0;
	r->n_hops -= h1 - h0;
}

/*
 * Writes @r, reads it back, writes that: the two texts and the two sets
 * must be the same.  Returns the text (malloc()ed) or NULL.
 */
static char *round_trip(const struct sluice_routes *r,
			const struct sluice_graph *g)
{
	struct sluice_routes back;
	char *t1, *t2 = NULL;
	bool ok = false;

	t1 = to_text(r, g);
	if (!KTAP_EXPECT(t1))
		return NULL;
	if (KTAP_EXPECT_INT(from_text(&back, g, t1), 0)) {
		ok = KTAP_EXPECT(same_routes(r, &back));
		t2 = to_text(&back, g);
		ok = KTAP_EXPECT(t2) && KTAP_EXPECT_STR(t2, t1) && ok;
		sluice_routes_free(&back);
	}
	free(t2);
	if (!ok) {
		free(t1);
		return NULL;
	}
	return t1;
}

/* ---- round trips ---- */

enum topo { RING, JELLYFISH, LEAFSPINE, FATTREE, BCUBE, FC, TOPO__COUNT };

static const char *const topo_names[] = {
	"ring", "jellyfish", "leafspine", "fattree", "bcube", "fc",
};

static void make_topo(struct sluice_graph *g, enum topo t)
{
	int ret = -EINVAL;

	switch (t) {
	case RING:
		ret = sluice_topo_ring(g, 6, 1, err, sizeof(err));
		break;
	case JELLYFISH:
		ret = sluice_topo_jellyfish(g, 12, 4, 1, 7, err, sizeof(err));
		break;
	case LEAFSPINE:
		ret = sluice_topo_leafspine(g, 4, 2, 2, 2, err, sizeof(err));
		break;
	case FATTREE:
		ret = sluice_topo_fattree(g, 4, err, sizeof(err));
		break;
	case BCUBE:
		ret = sluice_topo_bcube(g, 3, 1, err, sizeof(err));
		break;
	case FC: {
		struct sluice_fc_params p = {
			.switches = 16, .inter_ports = 6, .host_ports = 2,
			.layers = 3, .seed = 3,
		};

		ret = sluice_topo_fc(g, &p, err, sizeof(err));
		break;
	}
	default:
		break;
	}
	if (ret)
		die(topo_names[t]);
}

static void test_round_trip(void)
{
	static const struct {
		enum topo		topo;
		struct sluice_route_opts o;
	} cases[] = {
		{ RING, { .algo = SLUICE_ROUTE_ECMP } },
		{ RING, { .algo = SLUICE_ROUTE_KSP, .paths = 3 } },
		{ RING, { .algo = SLUICE_ROUTE_UPDOWN,
			  .orient = SLUICE_ORIENT_BFS, .has_root = true,
			  .root = 2 } },
		{ JELLYFISH, { .algo = SLUICE_ROUTE_ECMP } },
		{ JELLYFISH, { .algo = SLUICE_ROUTE_ECMP, .paths = 2 } },
		{ JELLYFISH, { .algo = SLUICE_ROUTE_KSP, .paths = 4 } },
		{ JELLYFISH, { .algo = SLUICE_ROUTE_UPDOWN } },
		{ LEAFSPINE, { .algo = SLUICE_ROUTE_ECMP } },
		{ LEAFSPINE, { .algo = SLUICE_ROUTE_KSP } },
		{ LEAFSPINE, { .algo = SLUICE_ROUTE_UPDOWN } },
		{ FATTREE, { .algo = SLUICE_ROUTE_ECMP } },
		{ FATTREE, { .algo = SLUICE_ROUTE_KSP, .paths = 2 } },
		{ FATTREE, { .algo = SLUICE_ROUTE_UPDOWN,
			     .orient = SLUICE_ORIENT_TIER } },
		{ BCUBE, { .algo = SLUICE_ROUTE_BCUBE } },
		{ BCUBE, { .algo = SLUICE_ROUTE_ECMP } },
		{ BCUBE, { .algo = SLUICE_ROUTE_KSP, .paths = 3 } },
		{ FC, { .algo = SLUICE_ROUTE_FC } },
		{ FC, { .algo = SLUICE_ROUTE_ECMP } },
		{ FC, { .algo = SLUICE_ROUTE_EDST, .lanes = 3, .seed = 9 } },
		{ JELLYFISH, { .algo = SLUICE_ROUTE_EDST, .lanes = 4,
			       .seed = 1 } },
		{ JELLYFISH, { .algo = SLUICE_ROUTE_EDST_SHALLOW, .lanes = 2,
			       .seed = 77 } },
		{ FATTREE, { .algo = SLUICE_ROUTE_EDST } },
	};
	struct sluice_routes r;
	struct sluice_graph g;
	size_t i;
	char *t;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		make_topo(&g, cases[i].topo);
		if (!KTAP_EXPECT_INT(compute(&g, &cases[i].o, 2, 0, 1, &r),
				     0)) {
			ktap_diag("%s %s: %s", topo_names[cases[i].topo],
				  sluice_route_algo_name(cases[i].o.algo),
				  err);
			sluice_graph_free(&g);
			continue;
		}
		KTAP_EXPECT_INT(sluice_routes_validate(&r, &g, err,
						       sizeof(err)), 0);
		KTAP_EXPECT_INT(r.n_pairs, (uint64_t)
				sluice_graph_endpoints(&g, NULL) *
				(sluice_graph_endpoints(&g, NULL) - 1));
		KTAP_EXPECT(r.n_paths >= r.n_pairs);
		t = round_trip(&r, &g);
		if (!t)
			ktap_diag("case %zu: %s %s", i,
				  topo_names[cases[i].topo], r.algo);
		/* lanes beyond the first show as @L */
		else if (cases[i].o.lanes > 1 &&
			 !KTAP_EXPECT(strstr(t, " @1 ") &&
				      strstr(t, cases[i].o.lanes > 2 ?
					     " @2 " : " @1 ")))
			ktap_diag("case %zu: no lanes in the file", i);
		if (cases[i].topo == FC && r.algo[0] == 'f')
			KTAP_EXPECT(strstr(t ? t : "", ":\n"));
		free(t);
		sluice_routes_free(&r);
		sluice_graph_free(&g);
	}
	ktap_result("file: compute, write, read, write gives the same bytes and arrays on ring, jellyfish, leaf-spine, fat-tree, bcube, fc; all algorithms, lanes");
}

/* The small fabric's ecmp set, byte for byte. */
static void test_exact_file(void)
{
	static const char body[] =
		"algo ecmp paths 0 lanes 0 seed 0 orient auto root -\n"
		"shard 0/1\n"
		"pairs 6 paths 10 hops 22 truncated 0\n"
		"s0 s2: 0 1 | 2 1\n"
		"s0 s3: 0 1 3 | 2 1 3\n"
		"s2 s0: 1 0 | 1 2\n"
		"s2 s3: 3\n"
		"s3 s0: 3 1 0 | 3 1 2\n"
		"s3 s2: 3\n"
		"end\n";
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_routes r;
	struct sluice_graph g;
	char want[1024], *t;

	small_graph(&g);
	compute_or_die(&g, &o, &r);
	snprintf(want, sizeof(want),
		 "sluice-routes 1\ntopology nodes 4 links 4 hash %016llx\n%s",
		 (unsigned long long)sluice_graph_hash(&g), body);
	t = round_trip(&r, &g);
	KTAP_EXPECT(t && !strcmp(t, want));
	if (t && strcmp(t, want))
		ktap_diag("got:\n%s", t);
	free(t);
	/* options no computed set has are refused, not read out of range */
	r.opts.orient = 9;
	KTAP_EXPECT(!to_text(&r, &g));
	KTAP_EXPECT_STR(err, "cannot write orientation 9, root 0: not a route set's options");
	r.opts.orient = SLUICE_ORIENT_BFS;
	r.opts.has_root = true;
	r.opts.root = 4;
	KTAP_EXPECT(!to_text(&r, &g));
	KTAP_EXPECT_STR(err, "cannot write orientation 2, root 4: not a route set's options");
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("file: the small fabric's ecmp set, byte for byte");
}

/* Lanes on every path (as EDST would spread them): "@L" in the text. */
static void test_lanes(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_KSP, .paths = 3 };
	struct sluice_routes r;
	struct sluice_graph g;
	uint64_t q;
	char *t;

	make_topo(&g, LEAFSPINE);
	compute_or_die(&g, &o, &r);
	for (q = 0; q < r.n_paths; q++)
		r.path_lane[q] = q % SLUICE_LANES_MAX;
	r.opts.lanes = SLUICE_LANES_MAX;
	KTAP_EXPECT_INT(sluice_routes_validate(&r, &g, err, sizeof(err)), 0);
	t = round_trip(&r, &g);
	KTAP_EXPECT(t && strstr(t, " @7 ") && strstr(t, ": @3 ") &&
		    strstr(t, " | @1 ") && !strstr(t, "@0"));
	free(t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("file: lanes 1 to 7 written as @L and read back, lane 0 implicit");
}

/* Pairs without a path keep their line, with nothing after the colon. */
static void test_no_path(void)
{
	/* tiers 1 2 1 2 in a line: s0 and s3 have no legal up*_/down* path */
	static const uint32_t line[] = { 0, 1, 1, 2, 2, 3 };
	static const uint8_t tiers[] = { 1, 2, 1, 2 };
	/* two components, and a lone endpoint */
	static const uint32_t split[] = { 0, 1, 2, 3 };
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_UPDOWN,
				       .orient = SLUICE_ORIENT_TIER };
	struct sluice_routes r;
	struct sluice_graph g;
	char *t;

	make_graph(&g, 4, NULL, NULL, tiers, line, 3);
	compute_or_die(&g, &o, &r);
	t = round_trip(&r, &g);
	KTAP_EXPECT(t && strstr(t, "\ns0 s3:\n") && strstr(t, "\ns3 s0:\n") &&
		    strstr(t, "\ns0 s2: 0 1\n"));
	KTAP_EXPECT_INT(r.n_pairs, 12);
	KTAP_EXPECT_INT(sluice_routes_pair_paths(&r, 2), 0);
	free(t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);

	o.algo = SLUICE_ROUTE_ECMP;
	make_graph(&g, 5, NULL, NULL, NULL, split, 2);
	compute_or_die(&g, &o, &r);
	t = round_trip(&r, &g);
	KTAP_EXPECT(t && strstr(t, "\ns0 s1: 0\ns0 s2:\ns0 s3:\ns0 s4:\n"));
	KTAP_EXPECT_INT(r.n_pairs, 20);
	KTAP_EXPECT_INT(r.n_paths, 4);
	free(t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);

	/* no link at all: every pair empty, no hop anywhere */
	make_graph(&g, 3, NULL, NULL, NULL, NULL, 0);
	compute_or_die(&g, &o, &r);
	KTAP_EXPECT_INT(r.n_paths, 0);
	t = round_trip(&r, &g);
	KTAP_EXPECT(t && strstr(t, "pairs 6 paths 0 hops 0 truncated 0\n"));
	free(t);
	/* shards read from files without paths merge */
	{
		struct sluice_routes sh[3], back[3], whole;
		uint32_t i;

		for (i = 0; i < 3; i++) {
			if (compute(&g, &o, 1, i, 3, &sh[i]))
				die("shard");
			t = to_text(&sh[i], &g);
			if (!t || from_text(&back[2 - i], &g, t))
				die("shard file");
			free(t);
			sluice_routes_free(&sh[i]);
		}
		if (KTAP_EXPECT_INT(sluice_routes_merge(&whole, back, 3, err,
							sizeof(err)), 0)) {
			KTAP_EXPECT(same_routes(&r, &whole));
			sluice_routes_free(&whole);
		}
		for (i = 0; i < 3; i++)
			sluice_routes_free(&back[i]);
	}
	sluice_routes_free(&r);
	sluice_graph_free(&g);

	/* one endpoint: a set without pairs */
	{
		static const uint32_t hosts[] = { 0, 3, 0 };
		static const uint32_t ends[] = { 0, 1, 1, 2 };

		make_graph(&g, 3, NULL, hosts, NULL, ends, 2);
		compute_or_die(&g, &o, &r);
		KTAP_EXPECT_INT(r.n_pairs, 0);
		t = round_trip(&r, &g);
		KTAP_EXPECT(t && strstr(t, "pairs 0 paths 0 hops 0 truncated 0\nend\n"));
		/* read back, it merges as its only shard */
		{
			struct sluice_routes back, whole;

			if (!t || from_text(&back, &g, t))
				die("read");
			if (KTAP_EXPECT_INT(sluice_routes_merge(&whole, &back,
								1, err,
								sizeof(err)),
					    0)) {
				KTAP_EXPECT(same_routes(&r, &whole));
				sluice_routes_free(&whole);
			}
			sluice_routes_free(&back);
		}
		free(t);
		sluice_routes_free(&r);
		sluice_graph_free(&g);
	}
	ktap_result("file: pairs without a path survive (up*_/down* dead ends, components, no links, one endpoint)");
}

/* Node names may have colons, even at their end. */
static void test_colon_names(void)
{
	static const char *const names[] = {
		"leaf:0", "x:", "a:b:c", "sp/1", "9:",
	};
	static const uint32_t ends[] = { 0, 1, 1, 2, 2, 3, 3, 4, 0, 4, 1, 3 };
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_KSP, .paths = 2 };
	struct sluice_routes r, back;
	struct sluice_graph g;
	char *t;

	make_graph(&g, 5, names, NULL, NULL, ends, 6);
	compute_or_die(&g, &o, &r);
	t = round_trip(&r, &g);
	KTAP_EXPECT(t && strstr(t, "\nleaf:0 x:: 0 | ") &&
		    strstr(t, "\nx: leaf:0: 0 | ") &&
		    strstr(t, "\n9: a:b:c: ") && strstr(t, "\na:b:c 9:: "));
	if (t)
		t = realloc(t, strlen(t) + 2);
	if (t) {
		char *e = strstr(t, "\nx: leaf:0:");

		/* "x:: leaf:0:" names no node "x::" */
		memmove(e + 3, e + 2, strlen(e + 2) + 1);
		e[2] = ':';
		memset(&back, 0xff, sizeof(back));
		KTAP_EXPECT_INT(from_text(&back, &g, t), -EINVAL);
		KTAP_EXPECT(strstr(err, ": \"x::\" is not a node of the topology"));
		KTAP_EXPECT(is_zero(&back));
	}
	free(t);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("file: node names with colons (\"leaf:0\", \"x:\", \"9:\") round-trip");
}

/* ---- determinism: threads and shards ---- */

static void test_threads(void)
{
	static const struct {
		enum topo		topo;
		struct sluice_route_opts o;
	} cases[] = {
		{ TOPO__COUNT, { .algo = SLUICE_ROUTE_ECMP } },
		{ TOPO__COUNT, { .algo = SLUICE_ROUTE_KSP, .paths = 5 } },
		{ TOPO__COUNT, { .algo = SLUICE_ROUTE_UPDOWN } },
		{ TOPO__COUNT, { .algo = SLUICE_ROUTE_EDST, .lanes = 3,
				 .seed = 4 } },
		{ TOPO__COUNT, { .algo = SLUICE_ROUTE_EDST_SHALLOW } },
		{ FC, { .algo = SLUICE_ROUTE_FC } },
		{ BCUBE, { .algo = SLUICE_ROUTE_BCUBE } },
	};
	static const uint32_t threads[] = { 1, 2, 5, 0 };
	struct sluice_routes base, r;
	struct sluice_graph g;
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		/* TOPO__COUNT: a larger jellyfish than make_topo()'s */
		if (cases[i].topo != TOPO__COUNT)
			make_topo(&g, cases[i].topo);
		else if (sluice_topo_jellyfish(&g, 24, 5, 1, 3, err,
					       sizeof(err)))
			die("jellyfish");
		if (compute(&g, &cases[i].o, 1, 0, 1, &base))
			die("compute");
		for (k = 1; k < ARRAY_SIZE(threads); k++) {
			if (!KTAP_EXPECT_INT(compute(&g, &cases[i].o,
						     threads[k], 0, 1, &r), 0))
				continue;
			if (!KTAP_EXPECT(same_routes(&base, &r)))
				ktap_diag("%s, %u threads", r.algo,
					  threads[k]);
			sluice_routes_free(&r);
		}
		sluice_routes_free(&base);
		sluice_graph_free(&g);
	}
	ktap_result("compute: 1, 2, 5 and all-CPU threads give the same set, every algorithm");
}

static void test_shards(void)
{
	static const struct sluice_route_opts opts[] = {
		{ .algo = SLUICE_ROUTE_ECMP },
		{ .algo = SLUICE_ROUTE_KSP, .paths = 3 },
	};
	struct sluice_routes whole, merged, shards[4], shuffled[4];
	uint32_t n, i, ep[32], n_ep, order[4];
	struct sluice_rng rng;
	struct sluice_graph g;
	size_t a;
	char *t;

	sluice_rng_seed(&rng, 11);
	make_topo(&g, LEAFSPINE);	/* 4 leaves with hosts: 4 sources */
	n_ep = sluice_graph_endpoints(&g, ep);
	for (a = 0; a < ARRAY_SIZE(opts); a++) {
		compute_or_die(&g, &opts[a], &whole);
		for (n = 1; n <= n_ep; n++) {
			for (i = 0; i < n; i++) {
				order[i] = i;
				if (!KTAP_EXPECT_INT(compute(&g, &opts[a],
							     i % 3 + 1, i, n,
							     &shards[i]), 0))
					die("shard");
				/* the slice is ep[i E / n .. (i + 1) E / n) */
				KTAP_EXPECT_INT(shards[i].n_pairs,
						((i + 1) * n_ep / n -
						 i * n_ep / n) * (n_ep - 1));
				KTAP_EXPECT_INT(shards[i].pair_src[0],
						ep[i * n_ep / n]);
				KTAP_EXPECT_INT(sluice_routes_validate(&shards[i],
								       &g, err,
								       sizeof(err)),
						0);
				/* each shard round-trips on its own */
				t = round_trip(&shards[i], &g);
				KTAP_EXPECT(t && strstr(t, "\nshard "));
				free(t);
			}
			sluice_rng_shuffle(&rng, order, n);
			for (i = 0; i < n; i++)
				shuffled[i] = shards[order[i]];
			if (KTAP_EXPECT_INT(sluice_routes_merge(&merged,
								shuffled, n,
								err,
								sizeof(err)),
					    0)) {
				if (!KTAP_EXPECT(same_routes(&whole, &merged)))
					ktap_diag("%s, %u shards", whole.algo,
						  n);
				sluice_routes_free(&merged);
			}
			for (i = 0; i < n; i++)
				sluice_routes_free(&shards[i]);
		}
		sluice_routes_free(&whole);
	}
	sluice_graph_free(&g);
	ktap_result("shards: i/n for n = 1 to 4 (all sources), merged in shuffled order, equal the whole set");
}

static void test_shards_all(void)
{
	static const struct {
		enum topo		topo;
		struct sluice_route_opts o;
	} cases[] = {
		{ JELLYFISH, { .algo = SLUICE_ROUTE_UPDOWN } },
		{ JELLYFISH, { .algo = SLUICE_ROUTE_EDST, .lanes = 2,
			       .seed = 3 } },
		{ FC, { .algo = SLUICE_ROUTE_FC } },
		{ BCUBE, { .algo = SLUICE_ROUTE_BCUBE } },
	};
	struct sluice_routes whole, merged, shards[5], shuffled[5];
	struct sluice_rng rng;
	struct sluice_graph g;
	uint32_t n, i, order[5];
	size_t c;

	sluice_rng_seed(&rng, 5);
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		make_topo(&g, cases[c].topo);
		compute_or_die(&g, &cases[c].o, &whole);
		for (n = 1; n <= 5; n++) {
			for (i = 0; i < n; i++) {
				order[i] = i;
				if (compute(&g, &cases[c].o, 2, i, n,
					    &shards[i]))
					die("shard");
			}
			sluice_rng_shuffle(&rng, order, n);
			for (i = 0; i < n; i++)
				shuffled[i] = shards[order[i]];
			if (KTAP_EXPECT_INT(sluice_routes_merge(&merged,
								shuffled, n,
								err,
								sizeof(err)),
					    0)) {
				if (!KTAP_EXPECT(same_routes(&whole, &merged)))
					ktap_diag("%s, %u shards", whole.algo,
						  n);
				sluice_routes_free(&merged);
			}
			for (i = 0; i < n; i++)
				sluice_routes_free(&shards[i]);
		}
		sluice_routes_free(&whole);
		sluice_graph_free(&g);
	}
	ktap_result("shards: i/n for n = 1 to 5, shuffled, merge to the whole set: updown, edst with lanes, fc, bcube");
}

static void test_merge_errors(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_KSP, .paths = 2 };
	struct sluice_routes s[4], out;
	struct sluice_graph g, g2;
	uint32_t i;

	make_topo(&g, LEAFSPINE);
	make_topo(&g2, RING);
	for (i = 0; i < 3; i++)
		if (compute(&g, &o, 1, i, 3, &s[i]))
			die("shard");

	memset(&out, 0xff, sizeof(out));
	KTAP_EXPECT_INT(sluice_routes_merge(&out, s, 0, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "no shards");
	KTAP_EXPECT(is_zero(&out));

	/* one missing: 2 of 3 given */
	KTAP_EXPECT_INT(sluice_routes_merge(&out, s + 1, 2, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "shard 1/3 given with 2 shards");
	KTAP_EXPECT(is_zero(&out));

	/* a duplicate in place of the missing one */
	{
		struct sluice_routes d[3] = { s[2], s[0], s[2] };

		KTAP_EXPECT_INT(sluice_routes_merge(&out, d, 3, err,
						    sizeof(err)), -EINVAL);
		KTAP_EXPECT_STR(err, "shard 2/3 given twice");
		KTAP_EXPECT(is_zero(&out));
	}

	/* an index past the count, as a hand-made set may have */
	{
		struct sluice_routes d[3] = { s[0], s[1], s[2] };

		d[1].shard_index = 5;
		KTAP_EXPECT_INT(sluice_routes_merge(&out, d, 3, err,
						    sizeof(err)), -EINVAL);
		KTAP_EXPECT_STR(err, "shard 5/3: the index must be below the count");
		KTAP_EXPECT(is_zero(&out));
	}

	/* another algorithm, other options, another topology */
	o.algo = SLUICE_ROUTE_ECMP;
	if (compute(&g, &o, 1, 1, 3, &s[3]))
		die("shard");
	{
		struct sluice_routes d[3] = { s[0], s[3], s[2] };

		KTAP_EXPECT_INT(sluice_routes_merge(&out, d, 3, err,
						    sizeof(err)), -EINVAL);
		KTAP_EXPECT_STR(err, "shard 1/3 comes from another topology, algorithm or options than shard 0/3");
		KTAP_EXPECT(is_zero(&out));
	}
	sluice_routes_free(&s[3]);
	o.algo = SLUICE_ROUTE_KSP;
	o.paths = 3;
	if (compute(&g, &o, 1, 0, 3, &s[3]))
		die("shard");
	{
		struct sluice_routes d[3] = { s[2], s[1], s[3] };

		KTAP_EXPECT_INT(sluice_routes_merge(&out, d, 3, err,
						    sizeof(err)), -EINVAL);
		KTAP_EXPECT_STR(err, "shard 0/3 comes from another topology, algorithm or options than shard 2/3");
	}
	sluice_routes_free(&s[3]);
	o.paths = 2;
	if (compute(&g2, &o, 1, 2, 3, &s[3]))
		die("shard");
	{
		struct sluice_routes d[3] = { s[0], s[1], s[3] };

		KTAP_EXPECT_INT(sluice_routes_merge(&out, d, 3, err,
						    sizeof(err)), -EINVAL);
		KTAP_EXPECT_STR(err, "shard 2/3 comes from another topology, algorithm or options than shard 0/3");
		KTAP_EXPECT(is_zero(&out));
	}
	sluice_routes_free(&s[3]);

	/* and the right three do merge */
	KTAP_EXPECT_INT(sluice_routes_merge(&out, s, 3, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_routes_validate(&out, &g, err, sizeof(err)), 0);
	sluice_routes_free(&out);
	for (i = 0; i < 3; i++)
		sluice_routes_free(&s[i]);
	sluice_graph_free(&g);
	sluice_graph_free(&g2);
	ktap_result("merge: missing, duplicate and foreign shards rejected with their messages");
}

/* ---- the driver's errors ---- */

static void test_compute_errors(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_routes r;
	struct sluice_graph g;
	uint32_t ends[2 * 48], i, j, t;

	small_graph(&g);
	memset(&r, 0xff, sizeof(r));
	o.algo = 99;
	KTAP_EXPECT_INT(compute(&g, &o, 1, 0, 1, &r), -EINVAL);
	KTAP_EXPECT_STR(err, "unknown routing algorithm 99");
	KTAP_EXPECT(is_zero(&r));
	o.algo = SLUICE_ROUTE_ECMP;
	KTAP_EXPECT_INT(compute(&g, &o, 257, 0, 1, &r), -EINVAL);
	KTAP_EXPECT_STR(err, "threads: at most 256");
	KTAP_EXPECT_INT(compute(&g, &o, 1, 3, 3, &r), -EINVAL);
	KTAP_EXPECT_STR(err, "shard 3/3: the index must be below the count");
	KTAP_EXPECT_INT(compute(&g, &o, 1, 0, 4, &r), -EINVAL);
	KTAP_EXPECT_STR(err, "4 shards for 3 sources: at most one shard per source");
	KTAP_EXPECT(is_zero(&r));
	/* as many shards as sources is fine: one source each */
	KTAP_EXPECT_INT(compute(&g, &o, 4, 2, 3, &r), 0);
	KTAP_EXPECT_INT(r.n_pairs, 2);
	KTAP_EXPECT_INT(r.pair_src[0], 3);
	sluice_routes_free(&r);
	/* options a route file could not hold */
	o.orient = 7;
	KTAP_EXPECT_INT(compute(&g, &o, 1, 0, 1, &r), -EINVAL);
	KTAP_EXPECT_STR(err, "unknown orientation 7");
	o.orient = SLUICE_ORIENT_AUTO;
	o.has_root = true;
	o.root = 4;
	KTAP_EXPECT_INT(compute(&g, &o, 1, 0, 1, &r), -EINVAL);
	KTAP_EXPECT_STR(err, "root 4 is not a node (0 to 3)");
	o.has_root = false;
	o.lanes = SLUICE_LANES_MAX + 1;
	KTAP_EXPECT_INT(compute(&g, &o, 1, 0, 1, &r), -EINVAL);
	KTAP_EXPECT_STR(err, "lanes 9: at most 8");
	KTAP_EXPECT(is_zero(&r));
	o.lanes = SLUICE_LANES_MAX;
	KTAP_EXPECT_INT(compute(&g, &o, 1, 0, 1, &r), 0);
	sluice_routes_free(&r);
	o.lanes = 0;
	/* the algorithm's preparation fails */
	o.algo = SLUICE_ROUTE_UPDOWN;
	o.orient = SLUICE_ORIENT_TIER;
	KTAP_EXPECT_INT(compute(&g, &o, 2, 0, 1, &r), -EINVAL);
	KTAP_EXPECT_STR(err, "updown: nodes[0] (s0) has no tier, which orient tier needs");
	KTAP_EXPECT(is_zero(&r));
	sluice_graph_free(&g);

	/*
	 * Sources fail: 13 nodes in a line s0 s2 s3 ... s12 s1 with 4
	 * parallel links between neighbours, 4^12 shortest paths between s0
	 * and s1, and hosts on s0, s1 and the middle: sources 0 and 1 fail,
	 * whatever thread gets there first the message is source 0's.
	 */
	for (i = 0; i < 12; i++)
		for (j = 0; j < 4; j++) {
			ends[2 * (4 * i + j)] = i ? i + 1 : 0;
			ends[2 * (4 * i + j) + 1] = i + 1 < 12 ? i + 2 : 1;
		}
	make_graph(&g, 13, NULL, NULL, NULL, ends, 48);
	o.algo = SLUICE_ROUTE_ECMP;
	o.orient = 0;
	for (t = 1; t <= 5; t++)
		for (i = 0; i < 4; i++) {
			memset(&r, 0xff, sizeof(r));
			KTAP_EXPECT_INT(compute(&g, &o, t, 0, 1, &r), -E2BIG);
			KTAP_EXPECT_STR(err, "ecmp: s0 to s1 has 16777216 shortest paths, more than 4194304: set a cap on paths per pair");
			KTAP_EXPECT(is_zero(&r));
		}
	/* a shard without source 0 fails on source 1 */
	KTAP_EXPECT_INT(compute(&g, &o, 3, 1, 13, &r), -E2BIG);
	KTAP_EXPECT_STR(err, "ecmp: s1 to s0 has 16777216 shortest paths, more than 4194304: set a cap on paths per pair");
	/* other shards are fine */
	KTAP_EXPECT_INT(compute(&g, &o, 3, 2, 13, &r), 0);
	sluice_routes_free(&r);
	sluice_graph_free(&g);

	/* not finalized */
	if (sluice_graph_init(&g, 2, err, sizeof(err)))
		die("init");
	KTAP_EXPECT_INT(compute(&g, &o, 1, 0, 1, &r), -EINVAL);
	KTAP_EXPECT_STR(err, "the graph is not finalized");
	sluice_graph_free(&g);
	ktap_result("compute: bad options, shards, preparation and failing sources, with the lowest source's message");
}

/* ---- progress ---- */

struct progress {
	atomic_int	inside;
	bool		overlap, bad;
	uint32_t	calls, last_done, last_total;
};

static void on_progress(void *arg, uint32_t done, uint32_t total)
{
	struct progress *p = arg;

	if (atomic_fetch_add(&p->inside, 1))
		p->overlap = true;
	if (done > total || done < p->last_done ||
	    (p->calls && total != p->last_total))
		p->bad = true;
	p->calls++;
	p->last_done = done;
	p->last_total = total;
	atomic_fetch_sub(&p->inside, 1);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void test_progress(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_KSP, .paths = 4 };
	struct progress p = { 0 };
	struct sluice_compute_opts c = {
		.threads = 3, .progress = on_progress, .progress_arg = &p,
	};
	struct sluice_routes r, base;
	struct sluice_graph g;
	uint32_t ends[2 * 48], i, j;
	double t0, t1, t2;

	make_topo(&g, JELLYFISH);
	t0 = now();
	compute_or_die(&g, &o, &base);
	t1 = now();
	KTAP_EXPECT_INT(sluice_routes_compute(&g, &o, &c, &r, err,
					      sizeof(err)), 0);
	t2 = now();
	KTAP_EXPECT(same_routes(&base, &r));
	KTAP_EXPECT(p.calls >= 1);
	KTAP_EXPECT(!p.overlap);
	KTAP_EXPECT(!p.bad);
	KTAP_EXPECT_INT(p.last_done, 12);
	KTAP_EXPECT_INT(p.last_total, 12);
	/* reporting progress must not make a short job wait for a tick */
	if (!KTAP_EXPECT(t2 - t1 < (t1 - t0) + 0.1))
		ktap_diag("%.3f s with progress, %.3f s without", t2 - t1,
			  t1 - t0);
	sluice_routes_free(&r);
	sluice_routes_free(&base);
	sluice_graph_free(&g);

	/* a job that fails never reports total/total */
	for (i = 0; i < 12; i++)
		for (j = 0; j < 4; j++) {
			ends[2 * (4 * i + j)] = i ? i + 1 : 0;
			ends[2 * (4 * i + j) + 1] = i + 1 < 12 ? i + 2 : 1;
		}
	make_graph(&g, 13, NULL, NULL, NULL, ends, 48);
	memset(&p, 0, sizeof(p));
	o.algo = SLUICE_ROUTE_ECMP;
	o.paths = 0;
	KTAP_EXPECT_INT(sluice_routes_compute(&g, &o, &c, &r, err,
					      sizeof(err)), -E2BIG);
	KTAP_EXPECT(!p.overlap);
	KTAP_EXPECT(!p.bad);
	KTAP_EXPECT(!p.calls || p.last_done < 13);
	sluice_graph_free(&g);
	ktap_result("compute: progress from one thread, never at once, ending at total/total, without delaying the result");
}

/* ---- statistics against independent numbers ---- */

#define SN	8	/* nodes of the random graphs */

/* Number of simple paths (distinct link ids, no node twice) u..t, capped. */
static uint64_t simple_paths(const struct sluice_graph *g, uint32_t u,
			     uint32_t t, bool *on, uint64_t cap)
{
	uint64_t n = 0;
	uint32_t l, v;

	if (u == t)
		return 1;
	on[u] = true;
	for (l = 0; l < g->n_links && n < cap; l++) {
		if (g->links[l].a == u)
			v = g->links[l].b;
		else if (g->links[l].b == u)
			v = g->links[l].a;
		else
			continue;
		if (!on[v])
			n += simple_paths(g, v, t, on, cap - n);
	}
	on[u] = false;
	return n;
}

static bool check_stats(const struct sluice_graph *g,
			const struct sluice_route_opts *o)
{
	uint32_t d[SN][SN], ep[SN], n_ep = 0, u, v, w, l, i, j;
	uint64_t cnt[SN][SN], pairs = 0, without = 0, reach = 0, dsum = 0;
	uint64_t n_paths = 0, lsum = 0, pmin = UINT64_MAX, pmax = 0;
	uint64_t trunc = 0, ssum = 0;
	struct sluice_route_stats st;
	struct sluice_routes r;
	bool on[SN] = { false }, ok = true;

	/* endpoints and Floyd-Warshall distances, from the link list */
	for (u = 0; u < g->n_nodes; u++)
		if (g->nodes[u].hosts)
			ep[n_ep++] = u;
	if (!n_ep)
		for (u = 0; u < g->n_nodes; u++)
			ep[n_ep++] = u;
	for (u = 0; u < g->n_nodes; u++)
		for (v = 0; v < g->n_nodes; v++)
			d[u][v] = u == v ? 0 : NONE;
	for (l = 0; l < g->n_links; l++)
		d[g->links[l].a][g->links[l].b] =
			d[g->links[l].b][g->links[l].a] = 1;
	for (w = 0; w < g->n_nodes; w++)
		for (u = 0; u < g->n_nodes; u++)
			for (v = 0; v < g->n_nodes; v++)
				if (d[u][w] != NONE && d[w][v] != NONE &&
				    d[u][w] + d[w][v] < d[u][v])
					d[u][v] = d[u][w] + d[w][v];
	/* shortest-path counts over links, layer by layer */
	for (u = 0; u < g->n_nodes; u++) {
		uint32_t k;

		for (v = 0; v < g->n_nodes; v++)
			cnt[u][v] = u == v;
		for (k = 1; k < g->n_nodes; k++)
			for (l = 0; l < g->n_links; l++) {
				uint32_t a = g->links[l].a, b = g->links[l].b;

				if (d[u][a] == k - 1 && d[u][b] == k)
					cnt[u][b] += cnt[u][a];
				if (d[u][b] == k - 1 && d[u][a] == k)
					cnt[u][a] += cnt[u][b];
			}
	}

	if (compute(g, o, 2, 0, 1, &r) ||
	    sluice_route_stats(&r, g, &st, err, sizeof(err)))
		die("stats");
	for (i = 0; i < n_ep; i++)
		for (j = 0; j < n_ep; j++) {
			uint64_t np;

			if (i == j)
				continue;
			u = ep[i];
			v = ep[j];
			if (o->algo == SLUICE_ROUTE_ECMP) {
				np = d[u][v] == NONE ? 0 : cnt[u][v];
				if (o->paths && np > o->paths) {
					np = o->paths;
					trunc++;
				}
			} else {
				/* ksp: the k shortest simple paths, or all */
				np = simple_paths(g, u, v, on, o->paths);
			}
			pairs++;
			n_paths += np;
			pmin = np < pmin ? np : pmin;
			pmax = np > pmax ? np : pmax;
			if (d[u][v] == NONE) {
				without++;
				continue;
			}
			reach++;
			dsum += d[u][v];
			ssum += d[u][v];
			if (o->algo == SLUICE_ROUTE_ECMP)
				lsum += np * d[u][v];
		}
	ok = KTAP_EXPECT_INT(st.pairs, pairs) &&
	     KTAP_EXPECT_INT(st.pairs_without_path, without) &&
	     KTAP_EXPECT_INT(st.paths, n_paths) &&
	     KTAP_EXPECT_INT(st.paths_min, pairs ? pmin : 0) &&
	     KTAP_EXPECT_INT(st.paths_max, pmax) &&
	     KTAP_EXPECT_INT(st.truncated_pairs, trunc) &&
	     KTAP_EXPECT_INT(st.lanes, n_paths ? 1 : 0) &&
	     KTAP_EXPECT(fabs(st.paths_avg - (pairs ? (double)n_paths /
						   pairs : 0)) < 1e-9) &&
	     KTAP_EXPECT(fabs(st.distance_avg - (reach ? (double)dsum /
						      reach : 0)) < 1e-9) &&
	     /* ecmp's and ksp's shortest path of a pair is the distance */
	     KTAP_EXPECT(fabs(st.shortest_len_avg - (reach ? (double)ssum /
							  reach : 0)) < 1e-9);
	if (ok && o->algo == SLUICE_ROUTE_ECMP)
		ok = KTAP_EXPECT(fabs(st.path_len_avg -
				      (n_paths ? (double)lsum / n_paths : 0)) <
				 1e-9);
	/* lengths from the arrays, by hand */
	if (ok) {
		uint64_t q, sum = 0;
		uint32_t lmax = 0;

		for (q = 0; q < r.n_paths; q++) {
			uint32_t len = r.path_hop[q + 1] - r.path_hop[q];

			sum += len;
			lmax = len > lmax ? len : lmax;
		}
		ok = KTAP_EXPECT_INT(st.path_len_max, lmax) &&
		     KTAP_EXPECT(fabs(st.path_len_avg -
				      (r.n_paths ? (double)sum / r.n_paths :
						   0)) < 1e-9);
	}
	sluice_routes_free(&r);
	return ok;
}

static void test_stats(void)
{
	struct sluice_route_opts ecmp = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_route_opts ksp = { .algo = SLUICE_ROUTE_KSP };
	struct sluice_rng rng;
	struct sluice_graph g;
	uint32_t seed, n, m;
	bool ok = true;

	sluice_rng_seed(&rng, 2024);
	for (seed = 0; seed < 150 && ok; seed++) {
		n = 2 + sluice_rng_below(&rng, SN - 1);
		m = sluice_rng_below(&rng, 13);
		random_graph(&g, &rng, n, m);
		ecmp.paths = sluice_rng_below(&rng, 3) ? 0 :
			     1 + sluice_rng_below(&rng, 3);
		ksp.paths = 1 + sluice_rng_below(&rng, 4);
		ok = check_stats(&g, &ecmp) && check_stats(&g, &ksp);
		if (!ok)
			ktap_diag("graph %u: %u nodes, %u links", seed, n, m);
		sluice_graph_free(&g);
	}
	ktap_result("stats: counts, min/max, lengths and distances against Floyd-Warshall and path counts on 150 random multigraphs");
}

static void test_stats_lanes(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_route_stats st;
	struct sluice_routes r;
	struct sluice_graph g;
	uint64_t q;

	small_graph(&g);
	compute_or_die(&g, &o, &r);
	for (q = 0; q < r.n_paths; q++)
		r.path_lane[q] = q == 4 ? 5 : q % 3;
	KTAP_EXPECT_INT(sluice_route_stats(&r, &g, &st, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(st.lanes, 6);
	KTAP_EXPECT_INT(st.pairs, 6);
	KTAP_EXPECT_INT(st.paths, 10);
	KTAP_EXPECT_INT(st.paths_min, 1);
	KTAP_EXPECT_INT(st.paths_max, 2);
	KTAP_EXPECT_INT(st.path_len_max, 3);
	KTAP_EXPECT(fabs(st.path_len_avg - 2.2) < 1e-9);
	/* s0 s2 2, s0 s3 3, s2 s0 2, s2 s3 1, s3 s0 3, s3 s2 1 */
	KTAP_EXPECT(fabs(st.distance_avg - 2.0) < 1e-9);
	sluice_routes_free(&r);
	sluice_graph_free(&g);

	/* edst with 3 tree sets: every pair once per tree, over 3 lanes */
	o.algo = SLUICE_ROUTE_EDST;
	o.lanes = 3;
	make_topo(&g, JELLYFISH);
	compute_or_die(&g, &o, &r);
	KTAP_EXPECT_INT(sluice_route_stats(&r, &g, &st, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(st.lanes, 3);
	KTAP_EXPECT_INT(st.pairs, 12 * 11);
	KTAP_EXPECT_INT(st.pairs_without_path, 0);
	KTAP_EXPECT(st.paths_min == st.paths_max && st.paths_min % 3 == 0 &&
		    st.paths_min);
	KTAP_EXPECT(fabs(st.distance_avg - st.shortest_len_avg) < 1e-9 ||
		    st.distance_avg < st.shortest_len_avg);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("stats: lanes is the highest lane + 1, edst's tree sets included");
}

/* ---- validation ---- */

/* Validates @c (freed after), expecting @want. */
static bool expect_invalid(struct sluice_routes *c,
			   const struct sluice_graph *g, const char *want)
{
	bool ok;

	err[0] = 0;
	ok = KTAP_EXPECT_INT(sluice_routes_validate(c, g, err, sizeof(err)),
			     -EINVAL) &&
	     KTAP_EXPECT_STR(err, want);
	sluice_routes_free(c);
	return ok;
}

static void test_validate(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_routes r, c;
	struct sluice_graph g;
	char want[SLUICE_ERRLEN];

	small_graph(&g);
	compute_or_die(&g, &o, &r);
	/* pairs: (s0 s2) (s0 s3) (s2 s0) (s2 s3) (s3 s0) (s3 s2) */
	copy_routes(&c, &r);
	KTAP_EXPECT_INT(sluice_routes_validate(&c, &g, err, sizeof(err)), 0);
	sluice_routes_free(&c);

	copy_routes(&c, &r);
	c.topo_hash ^= 1;
	snprintf(want, sizeof(want),
		 "the routes were computed for another topology (hash %016llx, this one %016llx)",
		 (unsigned long long)(r.topo_hash ^ 1),
		 (unsigned long long)r.topo_hash);
	expect_invalid(&c, &g, want);

	copy_routes(&c, &r);
	c.pair_dst[0] = 0;
	expect_invalid(&c, &g, "pair 0: not two distinct endpoints of the topology");
	copy_routes(&c, &r);
	c.pair_src[1] = 4;
	expect_invalid(&c, &g, "pair 1: not two distinct endpoints of the topology");
	copy_routes(&c, &r);
	c.pair_dst[2] = 1;	/* s1 has no hosts */
	expect_invalid(&c, &g, "pair 2: not two distinct endpoints of the topology");
	copy_routes(&c, &r);
	c.pair_dst[1] = 2;
	expect_invalid(&c, &g, "pair s0 s2: out of order");
	copy_routes(&c, &r);
	c.path_lane[3] = SLUICE_LANES_MAX;
	expect_invalid(&c, &g, "s0 s3, path 2: lane 8 is not below 8");
	copy_routes(&c, &r);
	c.hops[0] = 3;
	expect_invalid(&c, &g, "s0 s2, path 1: link 3 does not leave s0");
	copy_routes(&c, &r);
	c.hops[1] = 99;
	expect_invalid(&c, &g, "s0 s2, path 1: link 99 does not leave s1");
	/* s0 s3 path 1 is 0 1 3; 0 2 0 walks link 0 from s0 twice */
	copy_routes(&c, &r);
	c.hops[c.path_hop[2] + 1] = 2;
	c.hops[c.path_hop[2] + 2] = 0;
	expect_invalid(&c, &g, "s0 s3, path 1: walks link 0 from s0 twice");
	/* 0 1 1 goes back over link 1, the other way: fine, but ends at s1 */
	copy_routes(&c, &r);
	c.hops[c.path_hop[2] + 2] = 1;
	expect_invalid(&c, &g, "s0 s3, path 1: ends at s1");
	/* every pair of the shard, once */
	copy_routes(&c, &r);
	drop_pair(&c, 1);
	expect_invalid(&c, &g, "pair s0 s3 is missing");
	copy_routes(&c, &r);
	drop_pair(&c, 0);
	expect_invalid(&c, &g, "pair s0 s2 is missing");
	copy_routes(&c, &r);
	drop_pair(&c, 5);
	expect_invalid(&c, &g, "pair s3 s2 is missing");
	copy_routes(&c, &r);
	drop_pair(&c, 2);
	drop_pair(&c, 2);
	expect_invalid(&c, &g, "pair s2 s0 is missing");
	copy_routes(&c, &r);
	c.n_pairs = c.n_paths = c.n_hops = 0;
	expect_invalid(&c, &g, "pair s0 s2 is missing");
	/* sources 0..3 / 2 = 1: s0 only */
	copy_routes(&c, &r);
	c.shard_count = 2;
	expect_invalid(&c, &g, "pair s2 s0: s2 is not a source of shard 0/2");
	copy_routes(&c, &r);
	c.shard_index = 1;
	c.shard_count = 2;
	expect_invalid(&c, &g, "pair s0 s2: s0 is not a source of shard 1/2");
	copy_routes(&c, &r);
	c.shard_count = 4;
	expect_invalid(&c, &g, "4 shards for 3 sources: at most one shard per source");
	copy_routes(&c, &r);
	c.shard_index = 1;
	expect_invalid(&c, &g, "shard 1/1: the index must be below the count");
	copy_routes(&c, &r);
	c.shard_count = 0;
	expect_invalid(&c, &g, "shard 0/0: the index must be below the count");
	copy_routes(&c, &r);
	c.truncated_pairs = 7;
	expect_invalid(&c, &g, "truncated pairs 7: more than the 6 pairs");
	/* indices that do not add up, as a hand-made set may have */
	copy_routes(&c, &r);
	c.pair_path[2] = 1;
	expect_invalid(&c, &g, "the path index of pair 1 is not within the 10 paths");
	copy_routes(&c, &r);
	c.pair_path[6] = 9;
	expect_invalid(&c, &g, "the path index of pair 5 is not within the 10 paths");
	copy_routes(&c, &r);
	c.pair_path[0] = 1;
	expect_invalid(&c, &g, "the path index of pair 0 is not within the 10 paths");
	copy_routes(&c, &r);
	c.path_hop[3] = 30;
	expect_invalid(&c, &g, "the hop index of path 2 is not within the 22 hops");
	copy_routes(&c, &r);
	c.path_hop[0] = 1;
	expect_invalid(&c, &g, "the hop index of path 0 is not within the 22 hops");
	copy_routes(&c, &r);
	c.path_hop[1] = 0;
	expect_invalid(&c, &g, "s0 s2, path 1: no links");
	sluice_routes_free(&r);
	sluice_graph_free(&g);

	/* a path over the length limit, on a ring walked round and round */
	{
		struct sluice_route_opts k = { .algo = SLUICE_ROUTE_ECMP };
		static const uint32_t ring[] = { 0, 1, 1, 2, 2, 0 };
		static const uint32_t hosts[] = { 1, 1, 0 };
		uint64_t h, extra = SLUICE_PATH_HOPS_MAX - 1;

		make_graph(&g, 3, NULL, hosts, NULL, ring, 3);
		compute_or_die(&g, &k, &r);
		/* s0 s1: 0; s1 s0: 0.  Make s0 s1 go round first: 2 1 0 ... */
		copy_routes(&c, &r);
		free(c.hops);
		c.hops = malloc((SLUICE_PATH_HOPS_MAX + 2) * sizeof(*c.hops));
		if (!c.hops)
			abort();
		for (h = 0; h < extra; h++)
			c.hops[h] = 2 - h % 3;
		c.hops[extra] = 0;
		c.hops[extra + 1] = 0;
		c.path_hop[1] = extra + 1;
		c.path_hop[2] = c.n_hops = extra + 2;
		/* 4096 links: the walk repeats links, but the length is fine */
		err[0] = 0;
		KTAP_EXPECT_INT(sluice_routes_validate(&c, &g, err,
						       sizeof(err)), -EINVAL);
		KTAP_EXPECT_STR(err, "s0 s1, path 1: walks link 2 from s0 twice");
		sluice_routes_free(&c);
		copy_routes(&c, &r);
		free(c.hops);
		c.hops = malloc((SLUICE_PATH_HOPS_MAX + 3) * sizeof(*c.hops));
		if (!c.hops)
			abort();
		for (h = 0; h <= extra; h++)
			c.hops[h] = 2 - h % 3;
		c.hops[extra + 1] = 0;
		c.hops[extra + 2] = 0;
		c.path_hop[1] = extra + 2;
		c.path_hop[2] = c.n_hops = extra + 3;
		expect_invalid(&c, &g, "s0 s1, path 1: more than 4096 links");
		sluice_routes_free(&r);
		sluice_graph_free(&g);
	}
	ktap_result("validate: each error names the pair, path, link and node at fault");
}

/* ---- the reader's errors ---- */

/* @text with line @n (1-based) replaced by @repl, or deleted if NULL. */
static char *edit(const char *text, unsigned int n, const char *repl)
{
	const char *start = text, *end;
	char *out;
	size_t len;

	while (--n) {
		start = strchr(start, '\n');
		if (!start)
			abort();
		start++;
	}
	end = strchr(start, '\n');
	end = end ? end + 1 : start + strlen(start);
	len = strlen(text) + (repl ? strlen(repl) + 1 : 0) + 1;
	out = malloc(len);
	if (!out)
		abort();
	memcpy(out, text, start - text);
	out[start - text] = 0;
	if (repl) {
		strcat(out, repl);
		strcat(out, "\n");
	}
	strcat(out, end);
	return out;
}

/* Reads @text with line @n replaced by @repl: it must fail with @want. */
static bool expect_bad(const struct sluice_graph *g, const char *text,
		       unsigned int n, const char *repl, const char *want)
{
	struct sluice_routes r;
	char *t = n ? edit(text, n, repl) : strdup(text);
	bool ok;

	memset(&r, 0xff, sizeof(r));
	ok = KTAP_EXPECT(from_text(&r, g, t) < 0) &&
	     KTAP_EXPECT_STR(err, want) && KTAP_EXPECT(is_zero(&r));
	if (!ok)
		ktap_diag("line %u: \"%.60s\"", n, repl ? repl : "(deleted)");
	free(t);
	return ok;
}

#define TOPOLOGY	"expected \"topology nodes N links L hash H\""
#define ALGO		"expected \"algo NAME paths N lanes N seed N orient O root NODE\""
#define SHARD		"expected \"shard I/N\" with I below N"
#define PAIRS		"expected \"pairs N paths N hops N truncated N\""
#define NOT_ROUTES	"not a route file: the first line must be \"sluice-routes 1\""

static const struct {
	unsigned int	n;
	const char	*line;	/* %016llx: the hash */
	const char	*want;
} bad_header[] = {
	{ 1, "sluice-routes 01", NOT_ROUTES },
	{ 1, "sluice-routes +1", NOT_ROUTES },
	{ 1, "sluice-routes  1", NOT_ROUTES },
	{ 1, "sluice-routes 4294967297",
	  "version 4294967297: this sluicectl reads version 1" },
	{ 1, "sluice-routes 18446744073709551616", NOT_ROUTES },
	{ 1, "sluice-routes 1 ", NOT_ROUTES },
	{ 2, "topology nodes 4294967300 links 4 hash %016llx", TOPOLOGY },
	{ 2, "topology nodes 4 links 04 hash %016llx", TOPOLOGY },
	{ 2, "topology nodes +4 links 4 hash %016llx", TOPOLOGY },
	{ 2, "topology  nodes 4 links 4 hash %016llx", TOPOLOGY },
	{ 2, "topologynodes 4 links 4 hash %016llx", TOPOLOGY },
	{ 2, "topology nodes 4 links 4 hash 0x%014llx", TOPOLOGY },
	{ 2, "topology nodes 4 links 4 hash 123456789abcdef", TOPOLOGY },
	{ 2, "topology nodes 4 links 4 hash %016llx0", TOPOLOGY },
	{ 2, "topology nodes 4 links 4 hash %016llX", TOPOLOGY },
	{ 3, "algo ecmp paths 4294967296 lanes 0 seed 0 orient auto root -", ALGO },
	{ 3, "algo ecmp paths -1 lanes 0 seed 0 orient auto root -", ALGO },
	{ 3, "algo ecmp paths 0 lanes 0 seed -1 orient auto root -", ALGO },
	{ 3, "algo ecmp paths 0 lanes 0 seed 18446744073709551616 orient auto root -", ALGO },
	{ 3, "algo ecmp paths 0 lanes 0 seed 0 orient auto root - ", ALGO },
	{ 3, "algo ecmp  paths 0 lanes 0 seed 0 orient auto root -", ALGO },
	{ 3, "algo ecmp paths 0 lanes 4294967297 seed 0 orient auto root -",
	  "lanes 4294967297: at most 8" },
	{ 4, "shard 4294967296/4294967297", SHARD },
	{ 4, "shard 0/1 ", SHARD },
	{ 4, "shard 0/+1", SHARD },
	{ 4, "shard 0 /1", SHARD },
	{ 5, "pairs +6 paths 10 hops 22 truncated 0", PAIRS },
	{ 5, "pairs 6 paths 10 hops 22 truncated -0", PAIRS },
	{ 5, "pairs 6 paths 10 hops 22 truncated 18446744073709551616", PAIRS },
	{ 5, "pairs 6 paths 10 hops 22 truncated 7",
	  "truncated 7: more than the 6 pairs" },
};

/* Where each header line starts, and what is missing when it is not there. */
static const char *const header_start[] = {
	NULL, "\ntopology", "\nalgo", "\nshard", "\npairs",
};

static const char *const header_want[] = {
	NOT_ROUTES, TOPOLOGY, ALGO, SHARD, PAIRS,
};

static void test_read_errors(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_routes r;
	struct sluice_graph g;
	char want[512], path[5 * 4100], *text, *t;
	unsigned int i;

	small_graph(&g);
	compute_or_die(&g, &o, &r);
	text = to_text(&r, &g);
	if (!text)
		die("write");
	sluice_routes_free(&r);
	/* lines: 1-5 header, 6-11 pairs, 12 end */

	expect_bad(&g, text, 1, "sluice-route 1",
		   NAME ":1: not a route file: the first line must be \"sluice-routes 1\"");
	expect_bad(&g, text, 1, "sluice-routes 2",
		   NAME ":1: version 2: this sluicectl reads version 1");
	expect_bad(&g, text, 2, "topology nodes 4 links 4",
		   NAME ":2: expected \"topology nodes N links L hash H\"");
	snprintf(want, sizeof(want),
		 NAME ":2: the routes belong to another topology (4 nodes, 5 links, hash %016llx; this one has 4, 4, %016llx)",
		 (unsigned long long)sluice_graph_hash(&g),
		 (unsigned long long)sluice_graph_hash(&g));
	snprintf(path, sizeof(path), "topology nodes 4 links 5 hash %016llx",
		 (unsigned long long)sluice_graph_hash(&g));
	expect_bad(&g, text, 2, path, want);
	expect_bad(&g, text, 3, "algo ecmp paths 0 lanes 0 seed 0 orient auto",
		   NAME ":3: expected \"algo NAME paths N lanes N seed N orient O root NODE\"");
	expect_bad(&g, text, 3, "algo ecmq paths 0 lanes 0 seed 0 orient auto root -",
		   NAME ":3: unknown algorithm \"ecmq\"");
	expect_bad(&g, text, 3, "algo ecmp paths 0 lanes 9 seed 0 orient auto root -",
		   NAME ":3: lanes 9: at most 8");
	expect_bad(&g, text, 3, "algo ecmp paths 0 lanes 0 seed 0 orient up root -",
		   NAME ":3: unknown orientation \"up\"");
	expect_bad(&g, text, 3, "algo ecmp paths 0 lanes 0 seed 0 orient auto root s4",
		   NAME ":3: root \"s4\" is not a node of the topology");
	expect_bad(&g, text, 4, "shard 1/1",
		   NAME ":4: expected \"shard I/N\" with I below N");
	expect_bad(&g, text, 4, "shard 0/0",
		   NAME ":4: expected \"shard I/N\" with I below N");
	/*
	 * Numbers are plain decimal that fit: no sign, no leading zero or
	 * space, no wrapping around 2^32 into a valid value.
	 */
	for (i = 0; i < ARRAY_SIZE(bad_header); i++) {
		snprintf(path, sizeof(path), bad_header[i].line,
			 (unsigned long long)sluice_graph_hash(&g));
		snprintf(want, sizeof(want), "%s:%u: %s", NAME,
			 bad_header[i].n, bad_header[i].want);
		expect_bad(&g, text, bad_header[i].n, path, want);
	}
	/* a file that stops in its header says so, and names the line */
	for (i = 1; i <= 5; i++) {
		char *cut = strdup(text);

		if (i == 1)
			cut[0] = 0;
		else
			strstr(cut, header_start[i - 1])[1] = 0;
		if (i == 1)
			snprintf(want, sizeof(want), "%s: the file is empty",
				 NAME);
		else
			snprintf(want, sizeof(want),
				 "%s:%u: the file ends before \"end\": truncated? (%s)",
				 NAME, i, header_want[i - 1]);
		expect_bad(&g, cut, 0, NULL, want);
		free(cut);
	}
	/* cut in the middle of a line: the line lacks its newline */
	t = strdup(text);
	strstr(t, "\ns0 s3: ")[8] = 0;
	expect_bad(&g, t, 0, NULL,
		   NAME ":7: the file ends in the middle of the line: truncated? (a space at the end of the line)");
	strstr(t, "\ns0 s3: ")[4] = 0;
	expect_bad(&g, t, 0, NULL,
		   NAME ":7: the file ends in the middle of the line: truncated? (expected \"SOURCE DESTINATION: PATH | ...\")");
	free(t);
	expect_bad(&g, text, 5, "pairs 6 paths 10 hops 22",
		   NAME ":5: expected \"pairs N paths N hops N truncated N\"");
	expect_bad(&g, text, 5, "pairs 6 paths 10 hops 21 truncated 0",
		   NAME ":12: the header promised 6 pairs, 10 paths and 21 hops; the file has 6, 10 and 22");
	expect_bad(&g, text, 7, "s0s3: 0 1 3 | 2 1 3",
		   NAME ":7: expected \"SOURCE DESTINATION: PATH | ...\"");
	expect_bad(&g, text, 7, "s0 s3 0 1 3 | 2 1 3",
		   NAME ":7: expected \"SOURCE DESTINATION: PATH | ...\"");
	expect_bad(&g, text, 7, "",
		   NAME ":7: expected \"SOURCE DESTINATION: PATH | ...\"");
	expect_bad(&g, text, 7, "s0",
		   NAME ":7: expected \"SOURCE DESTINATION: PATH | ...\"");
	expect_bad(&g, text, 7, "s9 s3: 0 1 3 | 2 1 3",
		   NAME ":7: \"s9\" is not a node of the topology");
	expect_bad(&g, text, 7, "s0 s33: 0 1 3 | 2 1 3",
		   NAME ":7: \"s33\" is not a node of the topology");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 | @0 2 1 3",
		   NAME ":7: path 2: a lane is @1 to @7, not \"@0\"");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 | @8 2 1 3",
		   NAME ":7: path 2: a lane is @1 to @7, not \"@8\"");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 | @9 2 1 3",
		   NAME ":7: path 2: a lane is @1 to @7, not \"@9\"");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 | @1x 2 1 3",
		   NAME ":7: path 2: a lane is @1 to @7, not \"@1x\"");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 | @ 2 1 3",
		   NAME ":7: path 2: a lane is @1 to @7, not \"@\"");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 | @1 @2 2 1 3",
		   NAME ":7: path 2: a lane is @1 to @7, not \"@2\"");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 | 2 @1 1 3",
		   NAME ":7: path 2: its lane comes before its links");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 | @1",
		   NAME ":7: path 2 is empty");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 | @1 | 2 1 3",
		   NAME ":7: path 2 is empty");
	expect_bad(&g, text, 7, "s0 s3: @01 0 1 3 | 2 1 3",
		   NAME ":7: path 1: a lane is @1 to @7, not \"@01\"");
	expect_bad(&g, text, 7, "s0 s3: 0 1 4 | 2 1 3",
		   NAME ":7: path 1: a link id from 0 to 3, not \"4\"");
	expect_bad(&g, text, 6, "s0 s2: 0 99 | 2 1",
		   NAME ":6: path 1: a link id from 0 to 3, not \"99\"");
	expect_bad(&g, text, 6, "s0 s2: 45545455455454544555545454444544 1 | 2 1",
		   NAME ":6: path 1: a link id from 0 to 3, not \"455454554554545445555454\"");
	expect_bad(&g, text, 6, "s0 s2: 4294967296 1 | 2 1",
		   NAME ":6: path 1: a link id from 0 to 3, not \"4294967296\"");
	expect_bad(&g, text, 7, "s0 s3: 0 01 3 | 2 1 3",
		   NAME ":7: path 1: a link id from 0 to 3, not \"01\"");
	expect_bad(&g, text, 7, "s0 s3: 0 -1 3 | 2 1 3",
		   NAME ":7: path 1: a link id from 0 to 3, not \"-1\"");
	expect_bad(&g, text, 7, "s0 s3: | 2 1 3",
		   NAME ":7: path 1 is empty");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 |",
		   NAME ":7: path 2 is empty");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 || 2 1 3",
		   NAME ":7: path 1: a link id from 0 to 3, not \"||\"");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 |2 1 3",
		   NAME ":7: path 1: a link id from 0 to 3, not \"|2\"");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3| 2 1 3",
		   NAME ":7: path 1: a link id from 0 to 3, not \"3|\"");
	/* spaces: exactly one between fields, none at the end */
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 | 2 1 3 ",
		   NAME ":7: a space at the end of the line");
	expect_bad(&g, text, 7, "s0 s3: ",
		   NAME ":7: a space at the end of the line");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3  | 2 1 3",
		   NAME ":7: two spaces in a row");
	expect_bad(&g, text, 7, "s0 s3:  0 1 3 | 2 1 3",
		   NAME ":7: two spaces in a row");
	expect_bad(&g, text, 7, "s0  s3: 0 1 3 | 2 1 3",
		   NAME ":7: expected \"SOURCE DESTINATION: PATH | ...\"");
	expect_bad(&g, text, 7, " s0 s3: 0 1 3 | 2 1 3",
		   NAME ":7: expected \"SOURCE DESTINATION: PATH | ...\"");
	expect_bad(&g, text, 7, "s0 s3:0 1 3 | 2 1 3",
		   NAME ":7: expected \"SOURCE DESTINATION: PATH | ...\"");
	expect_bad(&g, text, 7, "s0 :",
		   NAME ":7: expected \"SOURCE DESTINATION: PATH | ...\"");
	expect_bad(&g, text, 7, "s0 s3::",
		   NAME ":7: \"s3:\" is not a node of the topology");
	expect_bad(&g, text, 7, "s0 s3",
		   NAME ":7: expected \"SOURCE DESTINATION: PATH | ...\"");
	expect_bad(&g, text, 7, "s0 s3: 0 1 3 ; 2 1 3",
		   NAME ":7: path 1: a link id from 0 to 3, not \";\"");
	/* a path of 4097 links: 0 2 0 2 ... */
	strcpy(path, "s0 s2:");
	for (i = 0; i < SLUICE_PATH_HOPS_MAX + 1; i++)
		strcat(path, i % 2 ? " 2" : " 0");
	expect_bad(&g, text, 6, path, NAME ":6: path 1: more than 4096 links");
	/* 4096 are read (then validation finds the walk repeats a link) */
	path[strlen(path) - 2] = 0;
	t = edit(text, 5, "pairs 6 paths 9 hops 4114 truncated 0");
	expect_bad(&g, t, 6, path,
		   NAME ":6: s0 s2, path 1: walks link 0 from s0 twice");
	free(t);
	/* the file ends early, or goes on */
	expect_bad(&g, text, 12, NULL,
		   NAME ":12: the file ends before \"end\": truncated?");
	t = edit(text, 12, "end\ns0 s2: 0 1");
	expect_bad(&g, t, 0, NULL, NAME ":13: text after \"end\"");
	free(t);
	/* a pair repeated: the counts tell first */
	t = edit(text, 6, "s0 s2: 0 1 | 2 1\ns0 s2: 0 1 | 2 1");
	expect_bad(&g, t, 0, NULL,
		   NAME ":13: the header promised 6 pairs, 10 paths and 22 hops; the file has 7, 12 and 26");
	free(t);
	/* NUL bytes and carriage returns */
	{
		static const struct {
			unsigned int	n;
			const char	*line;
			size_t		len;
			const char	*want;
		} raw[] = {
			{ 12, "end\0junk", 8, NAME ":12: a NUL byte in the line" },
			{ 9, "s2 s3: 3\0 | 2", 14, NAME ":9: a NUL byte in the line" },
			{ 1, "\0sluice-routes 1", 16, NAME ":1: a NUL byte in the line" },
			{ 12, "end\r", 4, NAME ":12: the line ends with a carriage return (DOS line ends?)" },
			{ 4, "shard 0/1\r", 10, NAME ":4: the line ends with a carriage return (DOS line ends?)" },
			{ 9, "s2 s3: 3\r", 9, NAME ":9: the line ends with a carriage return (DOS line ends?)" },
			{ 9, "s2 s3:\r", 7, NAME ":9: the line ends with a carriage return (DOS line ends?)" },
			{ 12, "end\n\0", 5, NAME ":13: a NUL byte in the line" },
			{ 12, "end\n\r", 5, NAME ":13: the line ends with a carriage return (DOS line ends?)" },
		};
		const char *at;
		size_t k, pre;

		for (k = 0; k < ARRAY_SIZE(raw); k++) {
			char buf[1024];
			size_t n = 0;

			for (at = text, i = 1; i < raw[k].n; i++)
				at = strchr(at, '\n') + 1;
			pre = at - text;
			memcpy(buf, text, pre);
			n = pre;
			memcpy(buf + n, raw[k].line, raw[k].len);
			n += raw[k].len;
			at = strchr(at, '\n');
			memcpy(buf + n, at, strlen(at));
			n += strlen(at);
			memset(&r, 0xff, sizeof(r));
			if (!KTAP_EXPECT_INT(from_buf(&r, &g, buf, n), -EINVAL) ||
			    !KTAP_EXPECT_STR(err, raw[k].want))
				ktap_diag("raw line %zu", k);
			KTAP_EXPECT(is_zero(&r));
		}
		/* a whole file with DOS line ends */
		{
			char *dos = malloc(2 * strlen(text) + 1), *o = dos;

			if (!dos)
				abort();
			for (at = text; *at; at++) {
				if (*at == '\n')
					*o++ = '\r';
				*o++ = *at;
			}
			*o = 0;
			expect_bad(&g, dos, 0, NULL,
				   NAME ":1: the line ends with a carriage return (DOS line ends?)");
			free(dos);
		}
	}
	/* what validation finds is named too, with its line */
	expect_bad(&g, text, 6, "s0 s2: 0 1 | 3 1",
		   NAME ":6: s0 s2, path 2: link 3 does not leave s0");
	expect_bad(&g, text, 11, "s3 s2: 1",
		   NAME ":11: s3 s2, path 1: link 1 does not leave s3");
	/* a pair left out, with the counts to match */
	t = edit(text, 5, "pairs 5 paths 8 hops 16 truncated 0");
	expect_bad(&g, t, 7, NULL, NAME ":7: pair s0 s3 is missing");
	free(t);
	t = edit(text, 5, "pairs 5 paths 8 hops 18 truncated 0");
	expect_bad(&g, t, 6, NULL, NAME ":6: pair s0 s2 is missing");
	free(t);
	t = edit(text, 5, "pairs 5 paths 9 hops 21 truncated 0");
	expect_bad(&g, t, 11, NULL, NAME ":11: pair s3 s2 is missing");
	free(t);
	/* swapped: the first is missing where the second stands */
	t = edit(text, 6, "s0 s3: 0 1 3 | 2 1 3\ns0 s2: 0 1 | 2 1");
	expect_bad(&g, t, 8, NULL, NAME ":6: pair s0 s2 is missing");
	free(t);
	/* repeated, with the counts to match */
	t = edit(text, 6, "s0 s2: 0 1 | 2 1\ns0 s2: 0 1 | 2 1");
	{
		char *t2 = edit(t, 5, "pairs 7 paths 12 hops 26 truncated 0");

		expect_bad(&g, t2, 0, NULL, NAME ":7: pair s0 s2: out of order");
		free(t2);
	}
	free(t);
	/* a shard of a whole set, or more shards than sources */
	expect_bad(&g, text, 4, "shard 0/2",
		   NAME ":8: pair s2 s0: s2 is not a source of shard 0/2");
	expect_bad(&g, text, 4, "shard 1/2",
		   NAME ":6: pair s0 s2: s0 is not a source of shard 1/2");
	expect_bad(&g, text, 4, "shard 0/4",
		   NAME ":4: 4 shards for 3 sources: at most one shard per source");

	/* and the file itself reads */
	KTAP_EXPECT_INT(from_text(&r, &g, text) == 0 ? 0 : -1, 0);
	sluice_routes_free(&r);
	free(text);
	sluice_graph_free(&g);
	ktap_result("read: each error of the header, the pair lines and the end, with its line");
}

/* ---- fuzz ---- */

static const char *const huge[] = {
	"4294967295", "4294967296", "4294967297", "18446744073709551615",
	"18446744073709551616", "99999999999999999999999", "0", "00", "007",
	"-1", "+1", " ",
};

/* One random change to the @len bytes at @buf (room for 4 * len + 64). */
static size_t mutate(struct sluice_rng *r, char *buf, size_t len)
{
	static const char interesting[] = " |@:0123456789\n\r\t-/sx";
	size_t i, j, k, n;
	char tmp[256];

	if (!len)
		return len;
	i = sluice_rng_below(r, len);
	switch (sluice_rng_below(r, 9)) {
	case 0:	/* a byte flip */
		buf[i] = sluice_rng_below(r, 2) ?
			 interesting[sluice_rng_below(r, sizeof(interesting))] :
			 (char)sluice_rng_below(r, 256);
		return len;
	case 1:	/* a few bytes deleted */
		n = 1 + sluice_rng_below(r, 8);
		n = n > len - i ? len - i : n;
		memmove(buf + i, buf + i + n, len - i - n);
		return len - n;
	case 2: /* truncated */
		return i;
	case 3:	/* a line duplicated */
	case 4:	/* a line deleted */
		while (i && buf[i - 1] != '\n')
			i--;
		for (j = i; j < len && buf[j] != '\n'; j++)
			;
		j += j < len;
		if (sluice_rng_below(r, 2)) {
			memmove(buf + j + (j - i), buf + j, len - j);
			memcpy(buf + j, buf + i, j - i);
			return len + (j - i);
		}
		memmove(buf + i, buf + j, len - j);
		return len - (j - i);
	case 5:	/* two numbers swapped */
	case 6: {
		size_t a[2], al[2];

		for (k = 0; k < 2; k++) {
			size_t s = sluice_rng_below(r, len);

			while (s < len && (buf[s] < '0' || buf[s] > '9'))
				s++;
			if (s == len)
				return len;
			while (s && buf[s - 1] >= '0' && buf[s - 1] <= '9')
				s--;
			a[k] = s;
			for (al[k] = 0; s + al[k] < len &&
			     buf[s + al[k]] >= '0' && buf[s + al[k]] <= '9';
			     al[k]++)
				;
		}
		if (a[0] > a[1]) {
			size_t t = a[0], tl = al[0];

			a[0] = a[1];
			al[0] = al[1];
			a[1] = t;
			al[1] = tl;
		}
		if (a[0] == a[1] || al[0] > sizeof(tmp) ||
		    al[1] > sizeof(tmp))
			return len;
		/* rebuild: prefix, second, middle, first, rest */
		{
			char *out = malloc(len);
			size_t o = 0;

			if (!out)
				abort();
			memcpy(out, buf, a[0]);
			o = a[0];
			memcpy(out + o, buf + a[1], al[1]);
			o += al[1];
			memcpy(out + o, buf + a[0] + al[0],
			       a[1] - a[0] - al[0]);
			o += a[1] - a[0] - al[0];
			memcpy(out + o, buf + a[0], al[0]);
			o += al[0];
			memcpy(out + o, buf + a[1] + al[1],
			       len - a[1] - al[1]);
			memcpy(buf, out, len);
			free(out);
		}
		return len;
	}
	case 7: {	/* a number made huge, signed, padded */
		const char *h = huge[sluice_rng_below(r, ARRAY_SIZE(huge))];

		while (i < len && (buf[i] < '0' || buf[i] > '9'))
			i++;
		for (j = i; j < len && buf[j] >= '0' && buf[j] <= '9'; j++)
			;
		n = strlen(h);
		memmove(buf + i + n, buf + j, len - j);
		memcpy(buf + i, h, n);
		return len - (j - i) + n;
	}
	default:	/* a few random bytes inserted */
		n = 1 + sluice_rng_below(r, 4);
		memmove(buf + i + n, buf + i, len - i);
		for (k = 0; k < n; k++)
			buf[i + k] = sluice_rng_below(r, 2) ?
				     interesting[sluice_rng_below(r, sizeof(interesting) - 1)] :
				     (char)sluice_rng_below(r, 256);
		return len + n;
	}
}

#define FUZZ_ITERATIONS	3000

static void test_fuzz(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_KSP, .paths = 3 };
	uint32_t it, k, accepted = 0, rejected = 0;
	size_t base_len, len, cap;
	struct sluice_routes r;
	struct sluice_rng rng;
	struct sluice_graph g;
	char *base, *buf, *t;
	bool ok = true;
	uint64_t q;

	if (sluice_topo_leafspine(&g, 3, 2, 2, 1, err, sizeof(err)))
		die("leafspine");
	compute_or_die(&g, &o, &r);
	for (q = 0; q < r.n_paths; q++)
		r.path_lane[q] = q % 4 == 3 ? q % 7 + 1 : 0;
	base = to_text(&r, &g);
	sluice_routes_free(&r);
	if (!base)
		die("write");
	base_len = strlen(base);
	cap = 64 * base_len + 4096;
	buf = malloc(cap);
	if (!buf)
		abort();
	sluice_rng_seed(&rng, 0xf022);
	for (it = 0; it < FUZZ_ITERATIONS && ok; it++) {
		memcpy(buf, base, base_len);
		len = base_len;
		for (k = 1 + sluice_rng_below(&rng, 3); k; k--)
			if (len * 4 + 512 < cap)
				len = mutate(&rng, buf, len);
		memset(&r, 0xff, sizeof(r));
		if (from_buf(&r, &g, buf, len)) {
			rejected++;
			ok = KTAP_EXPECT(is_zero(&r)) &&
			     KTAP_EXPECT(!strncmp(err, NAME ":", strlen(NAME) + 1) ||
					 !strncmp(err, NAME ": ", strlen(NAME) + 2)) &&
			     KTAP_EXPECT(strlen(err) > strlen(NAME) + 3);
			continue;
		}
		accepted++;
		ok = KTAP_EXPECT_INT(sluice_routes_validate(&r, &g, err,
							    sizeof(err)), 0);
		/*
		 * The writer's text is the only spelling of a set: what
		 * loads is byte for byte what writing it gives (the last
		 * newline may be missing).
		 */
		t = to_text(&r, &g);
		ok = KTAP_EXPECT(t) && ok;
		if (t && (strlen(t) - (len == strlen(t) - 1) != len ||
			  memcmp(t, buf, len)))
			ok = KTAP_EXPECT(!"accepted a file the writer would not write");
		free(t);
		sluice_routes_free(&r);
		if (!ok)
			ktap_diag("iteration %u: %.*s", it, (int)len, buf);
	}
	ktap_diag("fuzz: %u files rejected, %u accepted", rejected, accepted);
	KTAP_EXPECT(rejected > FUZZ_ITERATIONS / 2);
	free(buf);
	free(base);
	sluice_graph_free(&g);
	ktap_result("read: %d mutated files each fail with a message or load a valid set", FUZZ_ITERATIONS);
}

static void (*const tests[])(void) = {
	test_round_trip,
	test_exact_file,
	test_lanes,
	test_no_path,
	test_colon_names,
	test_threads,
	test_shards,
	test_shards_all,
	test_merge_errors,
	test_compute_errors,
	test_progress,
	test_stats,
	test_stats_lanes,
	test_validate,
	test_read_errors,
	test_fuzz,
};

int main(void)
{
	size_t i;

	ktap_plan(ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
