// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libsluice's graphs and topology generators: structural properties on many
 * seeds, exact counts from the formulas, determinism, the file format's
 * round trip and its errors, and BFS against Floyd-Warshall.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/graph.h>
#include <sluice/rng.h>
#include <sluice/topo.h>
#include "ktap.h"

static char err[SLUICE_ERRLEN];

/* The JSON text of @g, malloc()ed. */
static char *to_json(const struct sluice_graph *g)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	if (!f || sluice_graph_write(g, f, err, sizeof(err)))
		ktap_diag("write failed: %s", err);
	if (f)
		fclose(f);
	return buf;
}

/* Checks no loop, no repeated pair (unless @parallel_ok), and the degrees. */
static bool check_simple(const struct sluice_graph *g, bool parallel_ok)
{
	struct sluice_graph_stats st;
	uint32_t id;

	for (id = 0; id < g->n_links; id++)
		if (!KTAP_EXPECT(g->links[id].a != g->links[id].b))
			return false;
	if (!KTAP_EXPECT_INT(sluice_graph_stats(g, &st, err, sizeof(err)), 0))
		return false;
	return (parallel_ok || KTAP_EXPECT_INT(st.parallel_links, 0)) &&
	       KTAP_EXPECT_INT(st.components, 1);
}

static bool check_regular(const struct sluice_graph *g, uint32_t d)
{
	uint32_t u;

	for (u = 0; u < g->n_nodes; u++)
		if (!KTAP_EXPECT_INT(sluice_graph_degree(g, u), d))
			return false;
	return check_simple(g, false);
}

static void test_rng(void)
{
	struct sluice_rng r;
	uint32_t v[100], i, hist[7] = { 0 };
	bool seen[100] = { false };

	/* splitmix64's published first output for seed 0. */
	sluice_rng_seed(&r, 0);
	KTAP_EXPECT(r.s[0] == 0xe220a8397b1dcdafull);
	/* xoshiro256** from seed 1, as an independent implementation gives. */
	sluice_rng_seed(&r, 1);
	KTAP_EXPECT(sluice_rng_next(&r) == 0xb3f2af6d0fc710c5ull);
	KTAP_EXPECT(sluice_rng_next(&r) == 0x853b559647364ceaull);
	KTAP_EXPECT(sluice_rng_next(&r) == 0x92f89756082a4514ull);
	for (i = 0; i < 70000; i++)
		hist[sluice_rng_below(&r, 7)]++;
	for (i = 0; i < 7; i++)
		KTAP_EXPECT(hist[i] > 9500 && hist[i] < 10500);
	for (i = 0; i < 100; i++)
		v[i] = i;
	sluice_rng_shuffle(&r, v, 100);
	for (i = 0; i < 100; i++)
		seen[v[i]] = true;
	for (i = 0; i < 100; i++)
		KTAP_EXPECT(seen[i]);
	ktap_result("rng: xoshiro256** reference outputs, uniform below(), shuffle");
}

static void test_jellyfish(void)
{
	static const uint32_t cases[][2] = {
		{ 3, 2 }, { 10, 3 }, { 10, 8 }, { 12, 11 }, { 50, 5 },
		{ 64, 7 }, { 200, 18 }, { 9, 8 }, { 11, 6 },
	};
	struct sluice_graph g;
	uint64_t seed;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		for (seed = 0; seed < 20; seed++) {
			if (!KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, cases[i][0],
					cases[i][1], 2, seed, err, sizeof(err)), 0)) {
				ktap_diag("%s", err);
				continue;
			}
			KTAP_EXPECT_INT(g.n_nodes, cases[i][0]);
			KTAP_EXPECT_INT(g.n_links, cases[i][0] * cases[i][1] / 2);
			check_regular(&g, cases[i][1]);
			sluice_graph_free(&g);
		}
	KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, 5, 3, 0, 1, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "jellyfish: switches * inter-ports (5 * 3) must be even: every link takes two ports");
	KTAP_EXPECT_INT(sluice_topo_jellyfish(&g, 5, 5, 0, 1, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "jellyfish: inter-ports must be 2 to switches - 1 (4), not 5");
	ktap_result("jellyfish: simple, connected, r-regular on 180 draws");
}

static void test_xpander(void)
{
	static const uint32_t cases[][2] = {
		{ 4, 3 }, { 20, 4 }, { 60, 5 }, { 120, 7 }, { 9, 2 },
	};
	struct sluice_graph g;
	uint64_t seed;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		for (seed = 0; seed < 20; seed++) {
			if (!KTAP_EXPECT_INT(sluice_topo_xpander(&g, cases[i][0],
					cases[i][1], 0, seed, err, sizeof(err)), 0)) {
				ktap_diag("%s", err);
				continue;
			}
			check_regular(&g, cases[i][1]);
			sluice_graph_free(&g);
		}
	KTAP_EXPECT_INT(sluice_topo_xpander(&g, 21, 4, 0, 1, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "xpander: switches (21) must be a multiple of inter-ports + 1 (5), at most 4194304");
	ktap_result("xpander: simple, connected, d-regular lifts");
}

/* Every node has exactly l_j link ends in layer j, links join j and j+1. */
static void check_fc(const struct sluice_graph *g, uint32_t s)
{
	uint32_t *used = calloc((size_t)g->n_nodes * g->n_layers, sizeof(*used));
	uint32_t u, j, id;

	for (id = 0; id < g->n_links; id++) {
		const struct sluice_link *l = &g->links[id];

		KTAP_EXPECT_INT(l->lb, l->la + 1);
		used[l->a * g->n_layers + l->la - 1]++;
		used[l->b * g->n_layers + l->lb - 1]++;
	}
	for (u = 0; u < g->n_nodes; u++)
		for (j = 0; j < g->n_layers; j++)
			if (!KTAP_EXPECT_INT(used[u * g->n_layers + j],
					     g->layer_ports[j]))
				break;
	free(used);
	check_regular(g, s);
}

static void test_fc_kmin(void)
{
	/* Section 3.2.3 and Tables 1, 2, 7. */
	KTAP_EXPECT_INT(sluice_fc_kmin(500, 40), 3);
	KTAP_EXPECT_INT(sluice_fc_kmin(1000, 40), 3);
	KTAP_EXPECT_INT(sluice_fc_kmin(2000, 40), 4);
	KTAP_EXPECT_INT(sluice_fc_kmin(3000, 40), 4);
	KTAP_EXPECT_INT(sluice_fc_kmin(5000, 40), 4);
	KTAP_EXPECT_INT(sluice_fc_kmin(50, 18), 3);
	KTAP_EXPECT_INT(sluice_fc_kmin(100, 18), 4);
	KTAP_EXPECT_INT(sluice_fc_kmin(200, 18), 4);
	KTAP_EXPECT_INT(sluice_fc_kmin(300, 18), 4);
	KTAP_EXPECT_INT(sluice_fc_kmin(500, 18), 5);
	KTAP_EXPECT_INT(sluice_fc_kmin(1000000, 4), 0);
	ktap_result("fc: k_min from Eq. 4 matches the paper's tables");
}

static void expect_ports(uint32_t s, uint32_t k, const char *want)
{
	uint32_t l[SLUICE_LAYERS_MAX], j;
	char got[128] = "";
	size_t n = 0;

	if (!KTAP_EXPECT_INT(sluice_fc_layer_ports(s, k, l, err, sizeof(err)), 0))
		return;
	for (j = 0; j < k; j++)
		n += snprintf(got + n, sizeof(got) - n, "%s%u", j ? "," : "", l[j]);
	KTAP_EXPECT_STR(got, want);
}

static void test_fc_layer_ports(void)
{
	uint32_t l[SLUICE_LAYERS_MAX];

	expect_ports(18, 4, "3,6,6,3");
	expect_ports(18, 5, "2,4,4,5,3");
	expect_ports(40, 4, "7,13,13,7");
	expect_ports(40, 5, "5,10,10,10,5");
	expect_ports(40, 3, "10,20,10");
	expect_ports(4, 3, "1,2,1");
	KTAP_EXPECT_INT(sluice_fc_layer_ports(4, 4, l, err, sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "fc: layers must be 2 to 3 with 4 inter-ports, not 4");
	KTAP_EXPECT_INT(sluice_fc_layer_ports(7, 3, l, err, sizeof(err)), -EINVAL);
	ktap_result("fc: layer ports derived from k as in Tables 2, 6, 7");
}

static void test_fc_props(void)
{
	static const struct { uint32_t n, s, k; } cases[] = {
		{ 20, 6, 3 }, { 30, 8, 4 }, { 50, 18, 4 }, { 100, 18, 5 },
		{ 12, 10, 3 }, { 200, 40, 4 }, { 9, 8, 2 },
	};
	struct sluice_fc_params p;
	struct sluice_graph g;
	uint64_t seed;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		for (seed = 0; seed < 15; seed++) {
			memset(&p, 0, sizeof(p));
			p.switches = cases[i].n;
			p.inter_ports = cases[i].s;
			p.layers = cases[i].k;
			p.seed = seed;
			if (!KTAP_EXPECT_INT(sluice_topo_fc(&g, &p, err, sizeof(err)), 0)) {
				ktap_diag("%s", err);
				continue;
			}
			KTAP_EXPECT_INT(g.n_layers, cases[i].k);
			check_fc(&g, cases[i].s);
			sluice_graph_free(&g);
		}
	ktap_result("fc: per-layer ports exact, adjacent layers only, simple");
}

static void test_fc_auto(void)
{
	struct sluice_fc_params p = { .switches = 100, .inter_ports = 18 };
	struct sluice_graph g, h;
	char *a, *b;
	bool ok;

	KTAP_EXPECT_INT(sluice_topo_fc(&g, &p, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(g.n_layers, 4);
	KTAP_EXPECT_INT(sluice_fc_updown_connected(&g, &ok, err, sizeof(err)), 0);
	KTAP_EXPECT(ok);
	/* The chosen k gives the topology --layers k gives. */
	p.layers = 4;
	KTAP_EXPECT_INT(sluice_topo_fc(&h, &p, err, sizeof(err)), 0);
	a = to_json(&g);
	b = to_json(&h);
	KTAP_EXPECT(a && b && !strcmp(a, b));
	free(a);
	free(b);
	sluice_graph_free(&g);
	sluice_graph_free(&h);
	/* k = 2 on 40 switches: 9 top-layer ancestors each cannot cover. */
	p = (struct sluice_fc_params){ .switches = 40, .inter_ports = 16, .layers = 2 };
	KTAP_EXPECT_INT(sluice_topo_fc(&g, &p, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_fc_updown_connected(&g, &ok, err, sizeof(err)), 0);
	KTAP_EXPECT(!ok);
	sluice_graph_free(&g);
	ktap_result("fc: strategy (*) picks k and checks up-down reachability");
}

static void test_fc_errors(void)
{
	static const struct {
		struct sluice_fc_params p;
		const char *msg;
	} cases[] = {
		{ { 50, 17, 0, 0, { 0 }, 1 },
		  "fc: inter-ports must be even and at least 2, not 17: each link between two layers takes a port in both" },
		{ { 10, 10, 0, 0, { 0 }, 1 },
		  "fc: inter-ports (10) must be less than switches (10): no two switches share two links" },
		{ { 50, 18, 0, 4, { 3, 6, 5, 4 }, 1 },
		  "fc: the top layer 4 has 4 ports but the links from layer 3 take 2 (l_k = a_{k-1}, Eq. 2)" },
		{ { 50, 18, 0, 4, { 3, 3, 6, 6 }, 1 },
		  "fc: layer 2 has 3 ports and links to layer 1 take 3: none go up to layer 3 (Eq. 2)" },
		{ { 50, 20, 0, 4, { 3, 6, 6, 3 }, 1 },
		  "fc: the layer ports add up to 18, not inter-ports 20 (Eq. 1)" },
		{ { 1, 2, 0, 0, { 0 }, 1 }, "fc: switches must be 2 to 4194304, not 1" },
	};
	struct sluice_graph g;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KTAP_EXPECT_INT(sluice_topo_fc(&g, &cases[i].p, err, sizeof(err)),
				-EINVAL);
		KTAP_EXPECT_STR(err, cases[i].msg);
		KTAP_EXPECT_INT(g.n_nodes, 0);
	}
	ktap_result("fc: bad parameters, exact messages");
}

static void test_clos_counts(void)
{
	struct sluice_graph_stats st;
	struct sluice_graph g;
	uint32_t k, l, s, p;

	for (k = 2; k <= 16; k += 2) {
		KTAP_EXPECT_INT(sluice_topo_fattree(&g, k, err, sizeof(err)), 0);
		KTAP_EXPECT_INT(sluice_graph_stats(&g, &st, err, sizeof(err)), 0);
		KTAP_EXPECT_INT(g.n_nodes, 5 * k * k / 4);
		KTAP_EXPECT_INT(g.n_links, k * k * k / 2);
		KTAP_EXPECT_INT(st.host_ports, k * k * k / 4);
		KTAP_EXPECT_INT(st.degree_max, k);
		KTAP_EXPECT_INT(st.diameter, 4);
		check_simple(&g, false);
		sluice_graph_free(&g);
	}
	for (l = 1; l <= 6; l++)
		for (s = 1; s <= 4; s++)
			for (p = 1; p <= 3; p++) {
				KTAP_EXPECT_INT(sluice_topo_leafspine(&g, l, s, p, 4,
						err, sizeof(err)), 0);
				KTAP_EXPECT_INT(g.n_links, l * s * p);
				KTAP_EXPECT_INT(sluice_graph_degree(&g, 0), s * p);
				KTAP_EXPECT_INT(sluice_graph_degree(&g, l), l * p);
				check_simple(&g, p > 1);
				sluice_graph_free(&g);
			}
	KTAP_EXPECT_INT(sluice_topo_fattree(&g, 5, err, sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "fattree: k must be even and 2 to 256, not 5");
	ktap_result("fattree and leafspine: counts from their formulas");
}

static uint32_t ipow(uint32_t b, uint32_t e)
{
	uint32_t r = 1;

	while (e--)
		r *= b;
	return r;
}

static void test_bcube(void)
{
	struct sluice_graph_stats st;
	struct sluice_graph g;
	uint32_t n, k, u, servers;

	for (n = 2; n <= 5; n++)
		for (k = 0; k <= 3; k++) {
			servers = ipow(n, k + 1);
			KTAP_EXPECT_INT(sluice_topo_bcube(&g, n, k, err, sizeof(err)), 0);
			KTAP_EXPECT_INT(sluice_graph_stats(&g, &st, err, sizeof(err)), 0);
			KTAP_EXPECT_INT(st.servers, servers);
			KTAP_EXPECT_INT(st.switches, (k + 1) * ipow(n, k));
			KTAP_EXPECT_INT(g.n_links, (k + 1) * servers);
			for (u = 0; u < g.n_nodes; u++)
				KTAP_EXPECT_INT(sluice_graph_degree(&g, u),
						u < servers ? k + 1 : n);
			/* Servers an address digit apart: 2 links each. */
			KTAP_EXPECT_INT(st.diameter, 2 * (k + 1));
			check_simple(&g, false);
			sluice_graph_free(&g);
		}
	KTAP_EXPECT_INT(sluice_topo_bcube(&g, 4, 1, err, sizeof(err)), 0);
	KTAP_EXPECT_STR(g.nodes[6].name, "srv12");
	KTAP_EXPECT_STR(g.nodes[16 + 4 + 2].name, "sw1-2");
	sluice_graph_free(&g);
	ktap_result("bcube: n^(k+1) servers, (k+1) n^k switches, degrees");
}

static void test_determinism(void)
{
	struct sluice_fc_params p = { .switches = 60, .inter_ports = 10, .layers = 3 };
	struct sluice_graph g1, g2;
	char *a, *b;

	p.seed = 7;
	sluice_topo_fc(&g1, &p, err, sizeof(err));
	sluice_topo_fc(&g2, &p, err, sizeof(err));
	a = to_json(&g1);
	b = to_json(&g2);
	KTAP_EXPECT(a && b && !strcmp(a, b));
	free(b);
	sluice_graph_free(&g2);
	p.seed = 8;
	sluice_topo_fc(&g2, &p, err, sizeof(err));
	b = to_json(&g2);
	KTAP_EXPECT(a && b && strcmp(a, b));
	free(a);
	free(b);
	sluice_graph_free(&g1);
	sluice_graph_free(&g2);
	sluice_topo_jellyfish(&g1, 40, 5, 1, 3, err, sizeof(err));
	sluice_topo_jellyfish(&g2, 40, 5, 1, 3, err, sizeof(err));
	a = to_json(&g1);
	b = to_json(&g2);
	KTAP_EXPECT(a && b && !strcmp(a, b));
	free(a);
	free(b);
	sluice_graph_free(&g1);
	sluice_graph_free(&g2);
	ktap_result("same seed, same bytes; another seed, another fabric");
}

static void round_trip(struct sluice_graph *g, const char *what)
{
	struct sluice_graph back;
	char *a = to_json(g), *b = NULL;

	if (KTAP_EXPECT_INT(sluice_graph_read_buf(&back, a, strlen(a), err,
						  sizeof(err)), 0)) {
		b = to_json(&back);
		if (!KTAP_EXPECT(b && !strcmp(a, b)))
			ktap_diag("%s differs after a round trip", what);
		sluice_graph_free(&back);
	} else {
		ktap_diag("%s: %s", what, err);
	}
	free(a);
	free(b);
	sluice_graph_free(g);
}

static void test_round_trip(void)
{
	struct sluice_fc_params p = { .switches = 30, .inter_ports = 8, .host_ports = 3, .seed = UINT64_MAX };
	struct sluice_graph g;

	sluice_topo_fc(&g, &p, err, sizeof(err));
	round_trip(&g, "fc");
	sluice_topo_jellyfish(&g, 16, 3, 2, 5, err, sizeof(err));
	round_trip(&g, "jellyfish");
	sluice_topo_xpander(&g, 12, 3, 2, 5, err, sizeof(err));
	round_trip(&g, "xpander");
	sluice_topo_leafspine(&g, 3, 2, 2, 4, err, sizeof(err));
	round_trip(&g, "leafspine");
	sluice_topo_fattree(&g, 4, err, sizeof(err));
	round_trip(&g, "fattree");
	sluice_topo_bcube(&g, 3, 1, err, sizeof(err));
	round_trip(&g, "bcube");
	sluice_topo_ring(&g, 3, 0, err, sizeof(err));
	round_trip(&g, "ring");
	ktap_result("write, read, write: the same bytes for every family");
}

#define HDR "{\"format\":\"sluice-topology\",\"version\":1,"

static const struct {
	const char *json;
	const char *msg;
} bad_files[] = {
	{ "", "line 1 column 1: invalid JSON: unexpected end of input" },
	{ "{\n  \"format\": \"sluice-topology\",\n  \"version\": 1,,\n}",
	  "line 3 column 16: invalid JSON: quoted object property name expected" },
	{ "{} x", "line 1 column 4: invalid JSON: more after the topology's object" },
	{ "[]", "the topology is not a JSON object" },
	{ "{\"version\":1}", "format: not \"sluice-topology\"" },
	{ "{\"format\":\"sluice-topology\",\"version\":2}",
	  "version: 2 is not supported (only 1)" },
	{ HDR "\"links\":[]}", "nodes: missing" },
	{ HDR "\"nodes\":[],\"links\":[]}", "nodes: 0 nodes, not 1 to 4194304" },
	{ HDR "\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}]}", "links: missing" },
	{ HDR "\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"links\":[],\"x\":1}",
	  "x: unknown field" },
	{ HDR "\"nodes\":[{\"name\":\"a\"},{\"nam\":\"b\"}],\"links\":[]}",
	  "nodes[1].nam: unknown field" },
	{ HDR "\"nodes\":[{\"name\":\"a\"},{\"name\":\"a\"}],\"links\":[]}",
	  "nodes[1].name: \"a\" is already the name of nodes[0]" },
	{ HDR "\"nodes\":[{\"name\":\"a b\"}],\"links\":[]}",
	  "nodes[0].name: \"a b\" is not 1 to 31 letters, digits or -_.:/ starting with a letter or digit" },
	{ HDR "\"nodes\":[{\"name\":\"-\"}],\"links\":[]}",
	  "nodes[0].name: \"-\" is not 1 to 31 letters, digits or -_.:/ starting with a letter or digit" },
	{ HDR "\"nodes\":[{\"name\":\"a\",\"hosts\":-1}],\"links\":[]}",
	  "nodes[0].hosts: negative" },
	{ HDR "\"nodes\":[{\"name\":\"a\",\"hosts\":1.5}],\"links\":[]}",
	  "nodes[0].hosts: not an integer" },
	{ HDR "\"nodes\":[{\"name\":\"a\",\"kind\":\"router\"}],\"links\":[]}",
	  "nodes[0].kind: not \"switch\" or \"server\"" },
	{ HDR "\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"links\":[{\"a\":0,\"b\":1},{\"a\":0,\"b\":2}]}",
	  "links[1].b: node 2 does not exist (2 nodes)" },
	{ HDR "\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"links\":[{\"a\":0,\"b\":\"c\"}]}",
	  "links[0].b: no node is named \"c\"" },
	{ HDR "\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"links\":[{\"a\":\"a\",\"b\":\"a\"}]}",
	  "links[0]: a and b are both node 0 (a loop)" },
	{ HDR "\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"links\":[{\"id\":3,\"a\":0,\"b\":1}]}",
	  "links[0].id: not the link's index (ids are indexes)" },
	{ HDR "\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"links\":[{\"a\":0}]}",
	  "links[0].b: missing" },
	{ HDR "\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"links\":[{\"a\":0,\"b\":1,\"la\":1,\"lb\":2}]}",
	  "links[0].la: a layer, but the topology has no layers" },
	{ HDR "\"layers\":[1,1],\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"links\":[{\"a\":0,\"b\":1,\"la\":1}]}",
	  "links[0].lb: missing (the topology has layers)" },
	{ HDR "\"layers\":[1,1],\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"links\":[{\"a\":0,\"b\":1,\"la\":1,\"lb\":3}]}",
	  "links[0].lb: layer 3 is not 1 to 2" },
	{ HDR "\"layers\":[1,2,1],\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"links\":[{\"a\":0,\"b\":1,\"la\":1,\"lb\":3}]}",
	  "links[0]: joins layers 1 and 3, which are not adjacent" },
	{ HDR "\"layers\":[1,1],\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}],\"links\":[{\"a\":0,\"b\":1,\"la\":1,\"lb\":2},{\"a\":0,\"b\":2,\"la\":1,\"lb\":2}]}",
	  "links[1]: nodes[0] has only 1 ports in layer 1" },
	{ HDR "\"layers\":[3],\"nodes\":[{\"name\":\"a\"}],\"links\":[]}",
	  "layers: 1 layers, not 2 to 16" },
	{ HDR "\"generator\":{\"seed\":1},\"nodes\":[{\"name\":\"a\"}],\"links\":[]}",
	  "generator.family: missing" },
	{ HDR "\"generator\":{\"family\":\"x\",\"k\":\"4\"},\"nodes\":[{\"name\":\"a\"}],\"links\":[]}",
	  "generator.k: not an integer" },
};

static void test_bad_files(void)
{
	struct sluice_graph g;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad_files); i++) {
		memset(&g, 0xff, sizeof(g));
		KTAP_EXPECT_INT(sluice_graph_read_buf(&g, bad_files[i].json,
						      strlen(bad_files[i].json),
						      err, sizeof(err)), -EINVAL);
		if (!KTAP_EXPECT_STR(err, bad_files[i].msg))
			ktap_diag("file %zu: %s", i, bad_files[i].json);
		KTAP_EXPECT(!g.nodes && !g.links && !g.n_nodes);
	}
	ktap_result("bad files: the field named, nothing loaded");
}

static void test_names_as_ends(void)
{
	static const char json[] = HDR "\"nodes\":[{\"name\":\"x\"},{\"name\":\"y\",\"kind\":\"server\",\"tier\":2}],"
		"\"links\":[{\"a\":\"y\",\"b\":\"x\"},{\"a\":0,\"b\":1}]}";
	struct sluice_graph g;

	if (!KTAP_EXPECT_INT(sluice_graph_read_buf(&g, json, strlen(json), err,
						   sizeof(err)), 0)) {
		ktap_diag("%s", err);
	} else {
		KTAP_EXPECT_INT(g.links[0].a, 1);
		KTAP_EXPECT_INT(g.links[0].b, 0);
		KTAP_EXPECT_INT(g.nodes[1].kind, SLUICE_NODE_SERVER);
		KTAP_EXPECT_INT(g.nodes[1].tier, 2);
		KTAP_EXPECT_INT(sluice_graph_degree(&g, 0), 2);
		sluice_graph_free(&g);
	}
	ktap_result("links name their ends by index or by name");
}

/* Random multigraphs, possibly disconnected: BFS against Floyd-Warshall. */
static void test_bfs_vs_floyd(void)
{
	uint32_t d[16][16], dist[16], queue[16], n, m, i, j, k, u, v;
	struct sluice_rng r;
	struct sluice_graph g;
	char name[8];
	int trial;

	sluice_rng_seed(&r, 42);
	for (trial = 0; trial < 300; trial++) {
		n = 1 + sluice_rng_below(&r, 16);
		m = sluice_rng_below(&r, 3 * n);
		sluice_graph_init(&g, n, err, sizeof(err));
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "n%u", i);
			sluice_graph_set_node(&g, i, name, SLUICE_NODE_SWITCH, 1, 0,
					      err, sizeof(err));
			for (j = 0; j < n; j++)
				d[i][j] = i == j ? 0 : SLUICE_DIST_INF;
		}
		for (i = 0; i < m && n > 1; i++) {
			u = sluice_rng_below(&r, n);
			v = sluice_rng_below(&r, n);
			if (u == v)
				continue;
			sluice_graph_add_link(&g, u, v, 0, 0, err, sizeof(err));
			d[u][v] = d[v][u] = 1;
		}
		KTAP_EXPECT_INT(sluice_graph_finalize(&g, err, sizeof(err)), 0);
		for (k = 0; k < n; k++)
			for (i = 0; i < n; i++)
				for (j = 0; j < n; j++)
					if (d[i][k] != SLUICE_DIST_INF &&
					    d[k][j] != SLUICE_DIST_INF &&
					    d[i][k] + d[k][j] < d[i][j])
						d[i][j] = d[i][k] + d[k][j];
		for (i = 0; i < n; i++) {
			sluice_graph_bfs(&g, i, dist, queue);
			for (j = 0; j < n; j++)
				if (!KTAP_EXPECT_INT(dist[j], d[i][j]))
					break;
		}
		sluice_graph_free(&g);
	}
	ktap_result("bfs matches Floyd-Warshall on 300 random multigraphs");
}

static void (*const tests[])(void) = {
	test_rng,
	test_jellyfish,
	test_xpander,
	test_fc_kmin,
	test_fc_layer_ports,
	test_fc_props,
	test_fc_auto,
	test_fc_errors,
	test_clos_counts,
	test_bcube,
	test_determinism,
	test_round_trip,
	test_bad_files,
	test_names_as_ends,
	test_bfs_vs_floyd,
};

int main(void)
{
	size_t i;

	ktap_plan(ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
