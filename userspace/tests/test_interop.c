// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Other tools' formats (sluice/interop.h): every built-in generator's
 * topology through GraphML, GML and edge lists and back, foreign files as
 * NetworkX and the Topology Zoo write them (a Zoo-style GML written for
 * this test, not copied), each reader's errors with their lines, and the
 * route exports (OpenSM's LFT dump, next hops as JSON) byte for byte on a
 * chain, with their refusals.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/graph.h>
#include <sluice/interop.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "ktap.h"

static char err[SLUICE_ERRLEN];

/* What @write makes of @g in @fmt (or the topology file), malloc()ed. */
static char *text_of(const struct sluice_graph *g, int fmt)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		abort();
	ret = fmt < 0 ? sluice_graph_write(g, f, err, sizeof(err)) :
	      sluice_topo_export(g, fmt, f, err, sizeof(err));
	fclose(f);
	if (ret)
		ktap_diag("write failed: %s", err);
	return buf;
}

#define JSON	(-1)

/* Imports @text as @fmt; the topology file's text, or NULL (err set). */
static char *import(int fmt, const char *text,
		    struct sluice_topo_import_info *info)
{
	struct sluice_graph g;
	char *json;

	err[0] = 0;
	if (sluice_topo_import_buf(&g, fmt, text, strlen(text), info, err,
				   sizeof(err)))
		return NULL;
	json = text_of(&g, JSON);
	sluice_graph_free(&g);
	return json;
}

/* @g with only what an edge list keeps: names and links. */
static void bare(const struct sluice_graph *g, struct sluice_graph *b)
{
	uint32_t u, id;

	sluice_graph_init(b, g->n_nodes, err, sizeof(err));
	for (u = 0; u < g->n_nodes; u++)
		sluice_graph_set_node(b, u, g->nodes[u].name,
				      SLUICE_NODE_SWITCH, 0, 0, err,
				      sizeof(err));
	for (id = 0; id < g->n_links; id++)
		sluice_graph_add_link(b, g->links[id].a, g->links[id].b, 0, 0,
				      err, sizeof(err));
	sluice_graph_finalize(b, err, sizeof(err));
}

static bool round_trip(struct sluice_graph *g, const char *what)
{
	static const int fmts[] = {
		SLUICE_TOPO_GRAPHML, SLUICE_TOPO_GML, SLUICE_TOPO_EDGES,
	};
	struct sluice_graph b;
	bool ok = true;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fmts); i++) {
		char *out = text_of(g, fmts[i]), *back, *want;

		if (fmts[i] == SLUICE_TOPO_EDGES) {
			bare(g, &b);
			want = text_of(&b, JSON);
			sluice_graph_free(&b);
		} else {
			want = text_of(g, JSON);
		}
		back = out ? import(fmts[i], out, NULL) : NULL;
		if (!back || !want || strcmp(back, want)) {
			ktap_diag("%s through %s: %s", what,
				  sluice_topo_format_name(fmts[i]),
				  back ? "not the same topology" : err);
			ok = false;
		}
		free(out);
		free(back);
		free(want);
	}
	sluice_graph_free(g);
	return ok;
}

static void test_round_trips(void)
{
	struct sluice_fc_params p = {
		.switches = 8, .inter_ports = 6, .host_ports = 2, .seed = 3,
	};
	struct sluice_graph g;
	unsigned int right = 0;

	right += !sluice_topo_fc(&g, &p, err, sizeof(err)) &&
		 g.n_layers && round_trip(&g, "fc");
	right += !sluice_topo_jellyfish(&g, 10, 3, 1, 7, err, sizeof(err)) &&
		 round_trip(&g, "jellyfish");
	right += !sluice_topo_xpander(&g, 8, 3, 1, 7, err, sizeof(err)) &&
		 round_trip(&g, "xpander");
	right += !sluice_topo_leafspine(&g, 3, 2, 2, 1, err, sizeof(err)) &&
		 round_trip(&g, "leafspine");
	right += !sluice_topo_fattree(&g, 4, err, sizeof(err)) &&
		 round_trip(&g, "fattree");
	right += !sluice_topo_bcube(&g, 2, 1, err, sizeof(err)) &&
		 round_trip(&g, "bcube");
	right += !sluice_topo_ring(&g, 5, 1, err, sizeof(err)) &&
		 round_trip(&g, "ring");
	right += !sluice_topo_fc_testbed(&g, err, sizeof(err)) &&
		 round_trip(&g, "fc-testbed");
	if (!KTAP_EXPECT_INT(right, 8))
		ktap_diag("last error: %s", err);
	ktap_result("every generator through GraphML and GML and back, byte for byte; edge lists keep names and links");
}

static void test_format_names(void)
{
	KTAP_EXPECT_INT(sluice_topo_format_parse("graphml"), SLUICE_TOPO_GRAPHML);
	KTAP_EXPECT_INT(sluice_topo_format_parse("gml"), SLUICE_TOPO_GML);
	KTAP_EXPECT_INT(sluice_topo_format_parse("edges"), SLUICE_TOPO_EDGES);
	KTAP_EXPECT_INT(sluice_topo_format_parse("GML"), -EINVAL);
	KTAP_EXPECT_STR(sluice_topo_format_name(SLUICE_TOPO_EDGES), "edges");
	KTAP_EXPECT_STR(sluice_topo_format_name(SLUICE_TOPO__COUNT), "?");
	KTAP_EXPECT_INT(sluice_route_format_parse("lft"), SLUICE_ROUTES_LFT);
	KTAP_EXPECT_INT(sluice_route_format_parse("nexthops-json"),
			SLUICE_ROUTES_NEXTHOPS_JSON);
	KTAP_EXPECT_INT(sluice_route_format_parse("json"), -EINVAL);
	KTAP_EXPECT_STR(sluice_route_format_name(SLUICE_ROUTES_LFT), "lft");
	ktap_result("format names");
}

struct bad_case {
	const char	*text;
	const char	*want;	/* "...": libxml2's own words follow */
};

/*
 * Imports each of the @n @cases as @fmt: each must be refused with its
 * message, exactly, or starting with what comes before a final "...".
 */
static void expect_refused(int fmt, const struct bad_case *cases, size_t n)
{
	unsigned int right = 0;
	size_t i, len;
	char *json;

	for (i = 0; i < n; i++) {
		json = import(fmt, cases[i].text, NULL);
		len = strlen(cases[i].want);
		if (len > 3 && !strcmp(cases[i].want + len - 3, "..."))
			len -= 3;
		else
			len = SIZE_MAX;
		if (!json && (len == SIZE_MAX ? !strcmp(err, cases[i].want) :
			      !strncmp(err, cases[i].want, len) &&
			      strlen(err) > len))
			right++;
		else
			ktap_diag("case %zu: \"%s\"", i, json ? "accepted" : err);
		free(json);
	}
	KTAP_EXPECT_INT(right, n);
}

/* A switch, a server, a host folded into its switch's host ports. */
static const char nx_graphml[] =
	"<?xml version='1.0' encoding='utf-8'?>\n"
	"<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
	"  <key id=\"d2\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\" />\n"
	"  <key id=\"d1\" for=\"node\" attr.name=\"kind\" attr.type=\"string\" />\n"
	"  <key id=\"d0\" for=\"node\" attr.name=\"hosts\" attr.type=\"long\">\n"
	"    <default>2</default>\n"
	"  </key>\n"
	"  <key id=\"d3\" for=\"all\" attr.name=\"tier\" attr.type=\"int\" />\n"
	"  <graph edgedefault=\"undirected\">\n"
	"    <node id=\"tor1\"><data key=\"d3\">1</data></node>\n"
	"    <node id=\"srv\"><data key=\"d1\">server</data><data key=\"d0\">0</data></node>\n"
	"    <node id=\"h1\"><data key=\"d1\">host</data></node>\n"
	"    <edge source=\"tor1\" target=\"srv\"><data key=\"d2\">3.5</data></edge>\n"
	"    <edge source=\"h1\" target=\"tor1\" />\n"
	"    <edge source=\"srv\" target=\"tor1\" />\n"
	"  </graph>\n"
	"</graphml>\n";

static const char nx_json[] =
	"{\n"
	"  \"format\": \"sluice-topology\",\n"
	"  \"version\": 1,\n"
	"  \"nodes\": [\n"
	"    {\"name\":\"tor1\",\"kind\":\"switch\",\"hosts\":3,\"tier\":1},\n"
	"    {\"name\":\"srv\",\"kind\":\"server\",\"hosts\":0}\n"
	"  ],\n"
	"  \"links\": [\n"
	"    {\"id\":0,\"a\":0,\"b\":1},\n"
	"    {\"id\":1,\"a\":1,\"b\":0}\n"
	"  ]\n"
	"}\n";

/* The document around @graph (a <graph>'s inside, or "" for none). */
#define GRAPHML(keys, graph) \
	"<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n" keys \
	"<graph edgedefault=\"undirected\">\n" graph "</graph>\n</graphml>\n"
#define HOSTS_KEY "<key id=\"h\" for=\"node\" attr.name=\"hosts\"/>\n"
#define KIND_KEY "<key id=\"k\" for=\"node\" attr.name=\"kind\"/>\n"

static const struct bad_case bad_graphml[] = {
	{ "", "line 1: invalid XML: ..." },
	{ "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n<graph>\n</graphml>\n",
	  "line 4: invalid XML: ..." },
	{ "<graph/>\n", "line 1: <graph> is not <graphml> (in the GraphML namespace)" },
	{ "<graphml xmlns=\"urn:other\"/>\n",
	  "line 1: <graphml> is not <graphml> (in the GraphML namespace)" },
	{ "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"/>\n",
	  "line 1: no <graph> in <graphml>" },
	{ GRAPHML("", "") "x", "line 5: invalid XML: ..." },
	{ "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
	  "<graph edgedefault=\"directed\"/>\n</graphml>\n",
	  "line 2: edgedefault \"directed\": sluice links are undirected" },
	{ "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
	  "<graph/>\n</graphml>\n",
	  "line 2: <graph> without edgedefault=\"undirected\"" },
	{ "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
	  "<graph edgedefault=\"undirected\"/>\n<graph edgedefault=\"undirected\"/>\n</graphml>\n",
	  "line 3: a second <graph>: a file holds one" },
	{ GRAPHML("", "<node id=\"a\"/>\n<edge source=\"a\" target=\"b\"/>\n"),
	  "line 4: edge: no node \"b\"" },
	{ GRAPHML("", "<node id=\"a\"/>\n<edge source=\"a\"/>\n"),
	  "line 4: <edge> without a target" },
	{ GRAPHML("", "<node id=\"a\"/>\n<node id=\"b\"/>\n<edge source=\"a\" target=\"b\" directed=\"true\"/>\n"),
	  "line 5: a directed edge: sluice links are undirected" },
	{ GRAPHML("", "<node id=\"a\"/>\n<edge source=\"a\" target=\"a\"/>\n"),
	  "line 4: edge from \"a\" to itself: a link joins two nodes" },
	{ GRAPHML("", "<node id=\"a\"/>\n<node id=\"a\"/>\n"),
	  "line 4: node \"a\" is already on line 3" },
	{ GRAPHML("", "<node/>\n"), "line 3: <node> without an id" },
	{ GRAPHML("", "<node id=\"a b\"/>\n"),
	  "line 3: node \"a b\": not a sluice node name (1 to 31 letters, digits or -_.:/, the first a letter or digit)" },
	{ GRAPHML("", "<node id=\"a\"><port name=\"p\"/></node>\n"),
	  "line 3: a <port>: not supported" },
	{ GRAPHML("", "<node id=\"a\"><graph/></node>\n"),
	  "line 3: a nested <graph>: not supported" },
	{ GRAPHML("", "<hyperedge/>\n"), "line 3: a <hyperedge>: not supported" },
	{ GRAPHML("", "<nodes/>\n"), "line 3: unexpected <nodes> in <graph>" },
	{ GRAPHML("", "<node id=\"a\"><data key=\"h\">1</data></node>\n"),
	  "line 3: <data> key \"h\" is not declared by a <key>" },
	{ GRAPHML("<key id=\"h\" for=\"edge\" attr.name=\"hosts\"/>\n",
		  "<node id=\"a\"><data key=\"h\">1</data></node>\n"),
	  "line 4: <data> key \"h\" is not for a node" },
	{ GRAPHML(HOSTS_KEY, "<node id=\"a\"><data key=\"h\">1.5</data></node>\n"),
	  "line 4: hosts \"1.5\" is not an integer" },
	{ GRAPHML(HOSTS_KEY, "<node id=\"a\"><data key=\"h\">70000</data></node>\n"),
	  "line 4: node \"a\": hosts 70000 is not 0 to 65535" },
	{ GRAPHML(HOSTS_KEY, "<node id=\"a\"><data key=\"h\">1</data><data key=\"h\">2</data></node>\n"),
	  "line 4: a second hosts" },
	{ GRAPHML(HOSTS_KEY, "<node id=\"a\"><data key=\"h\"><b>1</b></data></node>\n"),
	  "line 4: hosts holds elements, not text" },
	{ GRAPHML(KIND_KEY, "<node id=\"a\"><data key=\"k\">router</data></node>\n"),
	  "line 4: kind \"router\" is not switch, server or host" },
	{ GRAPHML(KIND_KEY, "<node id=\"a\"/>\n<node id=\"h\"><data key=\"k\">host</data></node>\n"),
	  "line 5: host \"h\" has 0 links: a host joins exactly one node" },
	{ GRAPHML(KIND_KEY, "<node id=\"h\"><data key=\"k\">host</data></node>\n"
		  "<node id=\"g\"><data key=\"k\">host</data></node>\n"
		  "<edge source=\"h\" target=\"g\"/>\n"),
	  "line 6: edge between hosts \"h\" and \"g\": a host joins a switch or a server" },
	{ GRAPHML("<key id=\"l\" for=\"graph\" attr.name=\"layers\"/>\n",
		  "<data key=\"l\">3,x</data>\n<node id=\"a\"/>\n"),
	  "line 4: layers \"3,x\": not 2 to 16 port counts of 1 to 65535, comma-separated" },
	{ GRAPHML("<key id=\"l\" for=\"graph\" attr.name=\"layers\"/>\n",
		  "<data key=\"l\">1,1</data>\n<node id=\"a\"/>\n<node id=\"b\"/>\n"
		  "<edge source=\"a\" target=\"b\"/>\n"),
	  "line 7: edge: la and lb are needed: the graph has layers" },
	{ GRAPHML("<key id=\"g\" for=\"graph\" attr.name=\"generator\"/>\n",
		  "<data key=\"g\">ring switches=x</data>\n<node id=\"a\"/>\n"),
	  "line 4: generator: \"switches=x\" is not NAME=VALUE" },
	{ GRAPHML("<key id=\"g\" for=\"graph\" attr.name=\"generator\"/>\n",
		  "<data key=\"g\">ring switches=18446744073709551616</data>\n<node id=\"a\"/>\n"),
	  "line 4: generator: switches: not a number from 0 to 18446744073709551615" },
	{ GRAPHML("<key for=\"node\"/>\n", ""), "line 2: <key> without an id" },
	{ GRAPHML("<key id=\"x\" for=\"nodes\"/>\n", ""),
	  "line 2: <key> for \"nodes\": not graph, node, edge or all" },
};

static void test_graphml(void)
{
	struct sluice_topo_import_info info;
	char *json;

	json = import(SLUICE_TOPO_GRAPHML, nx_graphml, &info);
	if (KTAP_EXPECT(json))
		KTAP_EXPECT_STR(json, nx_json);
	else
		ktap_diag("%s", err);
	free(json);
	KTAP_EXPECT_INT(info.host_nodes, 1);
	KTAP_EXPECT(!info.named_by_id);
	expect_refused(SLUICE_TOPO_GRAPHML, bad_graphml, ARRAY_SIZE(bad_graphml));
	ktap_result("GraphML as NetworkX writes it; %zu bad files refused at their line",
		    ARRAY_SIZE(bad_graphml));
}

/*
 * In the style of the Internet Topology Zoo's files (written for this
 * test): graph attributes, PoPs with coordinates, links with speeds, a
 * label with a space (so the nodes are named by id), a comment.
 */
static const char zoo_gml[] =
	"graph [\n"
	"  DateObtained \"1/01/26\"\n"
	"  GeoLocation \"Netherlands\"\n"
	"  GeoExtent \"Country\"\n"
	"  Network \"Poldernet\"\n"
	"  Provenance \"Primary\"\n"
	"  Note \"A made-up network in the Zoo's style\"\n"
	"  Type \"REN\"\n"
	"  Backbone 1\n"
	"  Commercial 0\n"
	"  label \"Poldernet\"\n"
	"  ToolsetVersion \"0.3.34dev-20120328\"\n"
	"  Customer 0\n"
	"  IX 0\n"
	"  Layer \"IP\"\n"
	"  Creator \"Topology Zoo Toolset\"\n"
	"  Developed 1\n"
	"  Transit 0\n"
	"  # a comment, as GML allows\n"
	"  node [\n"
	"    id 0\n"
	"    label \"Amsterdam\"\n"
	"    Country \"Netherlands\"\n"
	"    Longitude 4.88969\n"
	"    Internal 1\n"
	"    Latitude 52.37403\n"
	"  ]\n"
	"  node [\n"
	"    id 1\n"
	"    label \"Den Haag\"\n"
	"    Country \"Netherlands\"\n"
	"    Longitude 4.29861\n"
	"    Internal 1\n"
	"    Latitude 52.07667\n"
	"  ]\n"
	"  node [\n"
	"    id 2\n"
	"    label \"Utrecht\"\n"
	"    Country \"Netherlands\"\n"
	"    Longitude 5.12222\n"
	"    Internal 1\n"
	"    Latitude 52.09083\n"
	"  ]\n"
	"  node [\n"
	"    id 3\n"
	"    label \"Rotterdam\"\n"
	"    Country \"Netherlands\"\n"
	"    Longitude 4.47917\n"
	"    Internal 1\n"
	"    Latitude 51.9225\n"
	"  ]\n"
	"  node [\n"
	"    id 4\n"
	"    label \"Hyperedge\"\n"
	"    hyperedge 1\n"
	"    Internal 0\n"
	"    graphics [ x 1.0E2 y -INF ]\n"
	"  ]\n"
	"  edge [\n"
	"    source 0\n"
	"    target 2\n"
	"    LinkLabel \"10GE\"\n"
	"    LinkSpeed \"10\"\n"
	"    LinkSpeedUnits \"G\"\n"
	"    LinkSpeedRaw 10000000000.0\n"
	"  ]\n"
	"  edge [\n"
	"    source 1\n"
	"    target 3\n"
	"    LinkSpeedRaw 1E9\n"
	"  ]\n"
	"  edge [\n"
	"    source 2\n"
	"    target 3\n"
	"  ]\n"
	"  edge [\n"
	"    source 0\n"
	"    target 2\n"
	"    id 7\n"
	"  ]\n"
	"  edge [\n"
	"    source 4\n"
	"    target 0\n"
	"  ]\n"
	"]\n";

static const char zoo_json[] =
	"{\n"
	"  \"format\": \"sluice-topology\",\n"
	"  \"version\": 1,\n"
	"  \"nodes\": [\n"
	"    {\"name\":\"0\",\"kind\":\"switch\",\"hosts\":0},\n"
	"    {\"name\":\"1\",\"kind\":\"switch\",\"hosts\":0},\n"
	"    {\"name\":\"2\",\"kind\":\"switch\",\"hosts\":0},\n"
	"    {\"name\":\"3\",\"kind\":\"switch\",\"hosts\":0},\n"
	"    {\"name\":\"4\",\"kind\":\"switch\",\"hosts\":0}\n"
	"  ],\n"
	"  \"links\": [\n"
	"    {\"id\":0,\"a\":0,\"b\":2},\n"
	"    {\"id\":1,\"a\":1,\"b\":3},\n"
	"    {\"id\":2,\"a\":2,\"b\":3},\n"
	"    {\"id\":3,\"a\":0,\"b\":2},\n"
	"    {\"id\":4,\"a\":4,\"b\":0}\n"
	"  ]\n"
	"}\n";

/* NetworkX's write_gml(): labels name the nodes; a host folded. */
static const char nx_gml[] =
	"graph [\n"
	"  node [\n    id 0\n    label \"tor1\"\n    tier 1\n    hosts 2\n  ]\n"
	"  node [\n    id 1\n    label \"srv\"\n    kind \"server\"\n  ]\n"
	"  node [\n    id 2\n    label \"h1\"\n    kind \"host\"\n  ]\n"
	"  edge [\n    source 0\n    target 1\n    weight 3.5\n  ]\n"
	"  edge [\n    source 2\n    target 0\n  ]\n"
	"  edge [\n    source 1\n    target 0\n    key 1\n  ]\n"
	"]\n";

static const struct bad_case bad_gml[] = {
	{ "", "line 1: no \"graph [ ... ]\" in the file" },
	{ "graph [\n", "line 2: the file ends inside the list opened on line 1" },
	{ "graph [ ]\n]\n", "line 2: ']' without its '['" },
	{ "graph [ ] graph [ ]\n", "line 1: a second graph: a file holds one" },
	{ "graph 1\n", "line 1: graph is an integer, not a list" },
	{ "graph [ node 1 ]\n", "line 1: node is an integer, not a list" },
	{ "graph [\n  directed 1\n]\n",
	  "line 2: graph: directed 1: sluice links are undirected" },
	{ "graph [\n  directed 2\n]\n", "line 2: graph: directed 2 is not 0 or 1" },
	{ "graph [\n  node [ label \"a\" ]\n]\n", "line 2: node without an id" },
	{ "graph [\n  node [ id 0 id 1 ]\n]\n", "line 2: node: a second id" },
	{ "graph [\n  node [ id \"0\" ]\n]\n",
	  "line 2: node: id is a string, not an integer" },
	{ "graph [\n  node [ id 0 ]\n  node [ id 0 ]\n]\n",
	  "line 3: node \"0\" is already on line 2" },
	{ "graph [\n  node [ id 0 hosts 1.0 ]\n]\n",
	  "line 2: node: hosts is a real number, not an integer" },
	{ "graph [\n  node [ id 99999999999999999999 ]\n]\n",
	  "line 2: node: id 99999999999999999999 does not fit in 64 bits" },
	{ "graph [\n  node [ id 0 kind \"router\" ]\n]\n",
	  "line 2: node: kind \"router\" is not switch, server or host" },
	{ "graph [\n  node [ id 0 hosts -1 ]\n]\n",
	  "line 2: node \"0\": hosts -1 is not 0 to 65535" },
	{ "graph [\n  node [ id 0 tier 4 ]\n]\n",
	  "line 2: node \"0\": tier 4 is not 0 to 3" },
	{ "graph [\n  node [ id 0 ]\n  edge [ source 0 ]\n]\n",
	  "line 3: edge without a target" },
	{ "graph [\n  node [ id 0 ]\n  edge [ source 0 target 1 ]\n]\n",
	  "line 3: edge: no node \"1\"" },
	{ "graph [\n  node [ id 0 ]\n  node [ id 1 ]\n  edge [ source 0 target 1 la 1 ]\n]\n",
	  "line 4: edge: la and lb are FC layers, but the graph has no layers" },
	{ "graph [\n  label \"unterminated\n]\n", "line 2: a string that never ends" },
	{ "graph [\n  x 12ab\n]\n", "line 2: \"12ab\" is not a number" },
	{ "graph [\n  x 1e\n]\n", "line 2: \"1e\" is not a number" },
	{ "graph [\n  x $\n]\n", "line 2: unexpected '$'" },
	{ "graph [\n  x\n]\n", "line 2: \"x\" has no value" },
	{ "graph [\n  5 5\n]\n", "line 2: expected a key, found an integer" },
	{ "graph [\n  node [ id 0 ]\n  x [ y [ z [ ]\n]\n",
	  "line 5: the file ends inside the list opened on line 3" },
};

static void test_gml(void)
{
	struct sluice_topo_import_info info;
	unsigned int i;
	char *json, deep[2100];

	json = import(SLUICE_TOPO_GML, zoo_gml, &info);
	if (KTAP_EXPECT(json))
		KTAP_EXPECT_STR(json, zoo_json);
	else
		ktap_diag("%s", err);
	free(json);
	KTAP_EXPECT(info.named_by_id);
	KTAP_EXPECT_INT(info.host_nodes, 0);
	json = import(SLUICE_TOPO_GML, nx_gml, &info);
	if (KTAP_EXPECT(json))
		KTAP_EXPECT_STR(json, nx_json);
	else
		ktap_diag("%s", err);
	free(json);
	KTAP_EXPECT(!info.named_by_id);
	KTAP_EXPECT_INT(info.host_nodes, 1);
	expect_refused(SLUICE_TOPO_GML, bad_gml, ARRAY_SIZE(bad_gml));
	/* lists nested without end do not exhaust the stack */
	strcpy(deep, "graph [ x ");
	for (i = 0; i < 500; i++)
		strcat(deep, "[ y ");
	json = import(SLUICE_TOPO_GML, deep, NULL);
	KTAP_EXPECT(!json);
	KTAP_EXPECT_STR(err, "line 1: lists nested more than 100 deep");
	free(json);
	ktap_result("GML from the Zoo and NetworkX; %zu bad files refused at their line",
		    ARRAY_SIZE(bad_gml));
}

static const char edges_in[] =
	"# a weighted edge list, as write_weighted_edgelist() writes it\n"
	"a b 1.5\n"
	"\n"
	"b\tc   # tabs, spaces, a comment\n"
	"lone\n"
	"c a -2e3\n"
	"a b\n";

static const char edges_json[] =
	"{\n"
	"  \"format\": \"sluice-topology\",\n"
	"  \"version\": 1,\n"
	"  \"nodes\": [\n"
	"    {\"name\":\"a\",\"kind\":\"switch\",\"hosts\":0},\n"
	"    {\"name\":\"b\",\"kind\":\"switch\",\"hosts\":0},\n"
	"    {\"name\":\"c\",\"kind\":\"switch\",\"hosts\":0},\n"
	"    {\"name\":\"lone\",\"kind\":\"switch\",\"hosts\":0}\n"
	"  ],\n"
	"  \"links\": [\n"
	"    {\"id\":0,\"a\":0,\"b\":1},\n"
	"    {\"id\":1,\"a\":1,\"b\":2},\n"
	"    {\"id\":2,\"a\":2,\"b\":0},\n"
	"    {\"id\":3,\"a\":0,\"b\":1}\n"
	"  ]\n"
	"}\n";

static const struct bad_case bad_edges[] = {
	{ "", "no nodes" },
	{ "# nothing\n\n", "no nodes" },
	{ "a b\na b c d\n",
	  "line 2: more than three columns: \"A B\" or \"A B W\"" },
	{ "a b w\n", "line 1: the third column \"w\" is not a number" },
	{ "a b nan\n", "line 1: the third column \"nan\" is not a number" },
	{ "a b 0x10\n", "line 1: the third column \"0x10\" is not a number" },
	{ "a a\n", "line 1: edge from \"a\" to itself: a link joins two nodes" },
	{ "a b\nc d\ne f/g!\n",
	  "line 3: node \"f/g!\": not a sluice node name (1 to 31 letters, digits or -_.:/, the first a letter or digit)" },
	{ "a b\n-c d\n",
	  "line 2: node \"-c\": not a sluice node name (1 to 31 letters, digits or -_.:/, the first a letter or digit)" },
};

static void test_edges(void)
{
	char *json, nul[] = "a b\nc\0d\n";
	struct sluice_graph g;

	json = import(SLUICE_TOPO_EDGES, edges_in, NULL);
	if (KTAP_EXPECT(json))
		KTAP_EXPECT_STR(json, edges_json);
	else
		ktap_diag("%s", err);
	free(json);
	expect_refused(SLUICE_TOPO_EDGES, bad_edges, ARRAY_SIZE(bad_edges));
	KTAP_EXPECT_INT(sluice_topo_import_buf(&g, SLUICE_TOPO_EDGES, nul,
					       sizeof(nul) - 1, NULL, err,
					       sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "line 2: a NUL byte");
	ktap_result("edge lists: words, weights, lone nodes, comments; %zu bad files refused at their line",
		    ARRAY_SIZE(bad_edges));
}

/* s1 - s2 - s3, a host port each (sluice-topology(5)'s example). */
static void chain(struct sluice_graph *g)
{
	static const char json[] =
		"{\"format\":\"sluice-topology\",\"version\":1,"
		"\"nodes\":[{\"name\":\"s1\",\"hosts\":1},{\"name\":\"s2\",\"hosts\":1},"
		"{\"name\":\"s3\",\"hosts\":1}],"
		"\"links\":[{\"a\":\"s1\",\"b\":\"s2\"},{\"a\":\"s2\",\"b\":\"s3\"}]}";

	if (sluice_graph_read_buf(g, json, strlen(json), err, sizeof(err)))
		abort();
}

static void compute(const struct sluice_graph *g, struct sluice_routes *r)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_compute_opts c = { .threads = 1 };

	if (sluice_routes_compute(g, &o, &c, r, err, sizeof(err)))
		abort();
}

/* The export of @r in @fmt, malloc()ed, or NULL (err set). */
static char *export(const struct sluice_routes *r, const struct sluice_graph *g,
		    int fmt, bool first)
{
	struct sluice_route_export_opts o = { .first = first };
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		abort();
	err[0] = 0;
	ret = sluice_routes_export(r, g, fmt, &o, f, err, sizeof(err));
	fclose(f);
	if (ret || len) {
		/* a refusal writes nothing */
		if (ret && !KTAP_EXPECT_INT(len, 0))
			ktap_diag("%s", buf);
	}
	if (!ret)
		return buf;
	free(buf);
	return NULL;
}

static const char chain_lft[] =
	"Unicast lids [0x0-0x6] of switch Lid 1 guid 0x0200000000000001 (s1):\n"
	"  Lid  Out   Destination\n"
	"       Port     Info \n"
	"0x0001 000 : (Switch portguid 0x0200000000000001: 's1')\n"
	"0x0002 001 : (Switch portguid 0x0200000000000002: 's2')\n"
	"0x0003 001 : (Switch portguid 0x0200000000000003: 's3')\n"
	"0x0004 002 : (Channel Adapter portguid 0x0200000000000004: 's1 h0')\n"
	"0x0005 001 : (Channel Adapter portguid 0x0200000000000005: 's2 h0')\n"
	"0x0006 001 : (Channel Adapter portguid 0x0200000000000006: 's3 h0')\n"
	"6 valid lids dumped \n"
	"\n"
	"Unicast lids [0x0-0x6] of switch Lid 2 guid 0x0200000000000002 (s2):\n"
	"  Lid  Out   Destination\n"
	"       Port     Info \n"
	"0x0001 001 : (Switch portguid 0x0200000000000001: 's1')\n"
	"0x0002 000 : (Switch portguid 0x0200000000000002: 's2')\n"
	"0x0003 002 : (Switch portguid 0x0200000000000003: 's3')\n"
	"0x0004 001 : (Channel Adapter portguid 0x0200000000000004: 's1 h0')\n"
	"0x0005 003 : (Channel Adapter portguid 0x0200000000000005: 's2 h0')\n"
	"0x0006 002 : (Channel Adapter portguid 0x0200000000000006: 's3 h0')\n"
	"6 valid lids dumped \n"
	"\n"
	"Unicast lids [0x0-0x6] of switch Lid 3 guid 0x0200000000000003 (s3):\n"
	"  Lid  Out   Destination\n"
	"       Port     Info \n"
	"0x0001 001 : (Switch portguid 0x0200000000000001: 's1')\n"
	"0x0002 001 : (Switch portguid 0x0200000000000002: 's2')\n"
	"0x0003 000 : (Switch portguid 0x0200000000000003: 's3')\n"
	"0x0004 001 : (Channel Adapter portguid 0x0200000000000004: 's1 h0')\n"
	"0x0005 001 : (Channel Adapter portguid 0x0200000000000005: 's2 h0')\n"
	"0x0006 002 : (Channel Adapter portguid 0x0200000000000006: 's3 h0')\n"
	"6 valid lids dumped \n";

static const char chain_nexthops[] =
	"{\n"
	"  \"format\": \"sluice-nexthops\",\n"
	"  \"version\": 1,\n"
	"  \"topology\": {\"nodes\":3,\"links\":2,\"hash\":\"eb4ac19fa24791c6\"},\n"
	"  \"algo\": \"ecmp\",\n"
	"  \"nodes\": [\n"
	"    {\"name\":\"s1\",\"ports\":[{\"port\":1,\"link\":0,\"peer\":\"s2\"},{\"port\":2,\"host\":0}],"
	"\"nexthops\":{\"s2\":[{\"port\":1,\"link\":0,\"peer\":\"s2\",\"paths\":1,\"lanes\":[0]}],"
	"\"s3\":[{\"port\":1,\"link\":0,\"peer\":\"s2\",\"paths\":1,\"lanes\":[0]}]}},\n"
	"    {\"name\":\"s2\",\"ports\":[{\"port\":1,\"link\":0,\"peer\":\"s1\"},{\"port\":2,\"link\":1,\"peer\":\"s3\"},{\"port\":3,\"host\":0}],"
	"\"nexthops\":{\"s1\":[{\"port\":1,\"link\":0,\"peer\":\"s1\",\"paths\":2,\"lanes\":[0]}],"
	"\"s3\":[{\"port\":2,\"link\":1,\"peer\":\"s3\",\"paths\":2,\"lanes\":[0]}]}},\n"
	"    {\"name\":\"s3\",\"ports\":[{\"port\":1,\"link\":1,\"peer\":\"s2\"},{\"port\":2,\"host\":0}],"
	"\"nexthops\":{\"s1\":[{\"port\":1,\"link\":1,\"peer\":\"s2\",\"paths\":1,\"lanes\":[0]}],"
	"\"s2\":[{\"port\":1,\"link\":1,\"peer\":\"s2\",\"paths\":1,\"lanes\":[0]}]}}\n"
	"  ]\n"
	"}\n";

static void test_export_chain(void)
{
	struct sluice_routes r;
	struct sluice_graph g;
	char *out;

	chain(&g);
	compute(&g, &r);
	out = export(&r, &g, SLUICE_ROUTES_LFT, false);
	KTAP_EXPECT_STR(out ? out : err, chain_lft);
	free(out);
	out = export(&r, &g, SLUICE_ROUTES_NEXTHOPS_JSON, false);
	KTAP_EXPECT_STR(out ? out : err, chain_nexthops);
	free(out);
	/* a shard holds some sources only */
	r.shard_count = 2;
	KTAP_EXPECT(!export(&r, &g, SLUICE_ROUTES_LFT, false));
	KTAP_EXPECT_STR(err, "shard 0/2 of a route set: merge the shards first (route merge)");
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("a chain's LFT dump and next hops, byte for byte; a shard refused");
}

/* A route set read from @text (its "%016llx" the topology's hash). */
static int routes_from(struct sluice_routes *r, const struct sluice_graph *g,
		       const char *text)
{
	char buf[1024];
	FILE *f;
	int ret;

	snprintf(buf, sizeof(buf), text,
		 (unsigned long long)sluice_graph_hash(g));
	f = fmemopen(buf, strlen(buf), "r");
	if (!f)
		abort();
	ret = sluice_routes_read(r, g, f, "t.routes", err, sizeof(err));
	fclose(f);
	return ret;
}

static void test_export_refusals(void)
{
	/* a triangle a b c, d off a: a's path to d goes round first */
	static const char tri[] =
		"{\"format\":\"sluice-topology\",\"version\":1,"
		"\"nodes\":[{\"name\":\"a\",\"hosts\":1},{\"name\":\"b\"},"
		"{\"name\":\"c\"},{\"name\":\"d\",\"hosts\":1}],"
		"\"links\":[{\"a\":\"a\",\"b\":\"b\"},{\"a\":\"b\",\"b\":\"c\"},"
		"{\"a\":\"c\",\"b\":\"a\"},{\"a\":\"a\",\"b\":\"d\"}]}";
	static const char tri_routes[] =
		"sluice-routes 1\n"
		"topology nodes 4 links 4 hash %016llx\n"
		"algo ecmp paths 0 lanes 0 seed 0 orient auto root -\n"
		"shard 0/1\n"
		"pairs 2 paths 2 hops 5 truncated 0\n"
		"a d: 0 1 2 3\n"
		"d a: 3\n"
		"end\n";
	struct sluice_routes r;
	struct sluice_graph g;
	char *out;

	/* a ring of 4: s0 reaches s2 both ways round */
	sluice_topo_ring(&g, 4, 1, err, sizeof(err));
	compute(&g, &r);
	KTAP_EXPECT(!export(&r, &g, SLUICE_ROUTES_LFT, false));
	KTAP_EXPECT_STR(err, "node s0 forwards destination s2 by ports 1 (path 1 of s0 s2) and 2 (path 2 of s0 s2): an LFT holds one port per destination (keep the first path's with --first)");
	out = export(&r, &g, SLUICE_ROUTES_LFT, true);
	/* s0's table: s2 and its host by the first path's port, 1 (to s1) */
	KTAP_EXPECT(out && strstr(out, "(s0):\n  Lid  Out   Destination\n       Port     Info \n"
				  "0x0001 000 : (Switch portguid 0x0200000000000001: 's0')\n"
				  "0x0002 001 : (Switch portguid 0x0200000000000002: 's1')\n"
				  "0x0003 001 : (Switch portguid 0x0200000000000003: 's2')\n"
				  "0x0004 002 : (Switch portguid 0x0200000000000004: 's3')\n"
				  "0x0005 003 : (Channel Adapter portguid 0x0200000000000005: 's0 h0')\n"
				  "0x0006 001 : (Channel Adapter portguid 0x0200000000000006: 's1 h0')\n"
				  "0x0007 001 : (Channel Adapter portguid 0x0200000000000007: 's2 h0')\n"
				  "0x0008 002 : (Channel Adapter portguid 0x0200000000000008: 's3 h0')\n"
				  "8 valid lids dumped \n"));
	free(out);
	sluice_routes_free(&r);
	sluice_graph_free(&g);

	if (sluice_graph_read_buf(&g, tri, strlen(tri), err, sizeof(err)) ||
	    !KTAP_EXPECT_INT(routes_from(&r, &g, tri_routes), 0)) {
		ktap_diag("%s", err);
		sluice_graph_free(&g);
		ktap_result("LFT refusals");
		return;
	}
	KTAP_EXPECT(!export(&r, &g, SLUICE_ROUTES_LFT, true));
	KTAP_EXPECT_STR(err, "path 1 of a d visits a twice: no destination-based table can hold it");
	/* the JSON holds it all: a forwards to d by b first, then by d */
	out = export(&r, &g, SLUICE_ROUTES_NEXTHOPS_JSON, false);
	KTAP_EXPECT(out && strstr(out, "\"nexthops\":{\"d\":[{\"port\":1,\"link\":0,\"peer\":\"b\",\"paths\":1,\"lanes\":[0]},"
				  "{\"port\":3,\"link\":3,\"peer\":\"d\",\"paths\":1,\"lanes\":[0]}]}}"));
	free(out);
	sluice_routes_free(&r);
	sluice_graph_free(&g);

	/* too many ports for a switch, too many LIDs for a subnet */
	sluice_topo_ring(&g, 3, 253, err, sizeof(err));
	compute(&g, &r);
	KTAP_EXPECT(!export(&r, &g, SLUICE_ROUTES_LFT, false));
	KTAP_EXPECT_STR(err, "node s0 has 255 ports: a switch has at most 254");
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	sluice_topo_ring(&g, 200, 250, err, sizeof(err));
	memset(&r, 0, sizeof(r));
	r.n_nodes = g.n_nodes;
	r.n_links = g.n_links;
	r.pair_path = calloc(1, sizeof(*r.pair_path));
	r.path_hop = calloc(1, sizeof(*r.path_hop));
	KTAP_EXPECT(!export(&r, &g, SLUICE_ROUTES_LFT, false));
	KTAP_EXPECT_STR(err, "50200 nodes and host ports need as many LIDs: there are 49151");
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("LFT refusals: several ports for a destination (unless first), a node visited twice, too many ports or LIDs");
}

/*
 * --first on paths that are not shortest (ksp): following the kept ports
 * from any node reaches the destination, within n hops.
 */
static void test_first_no_loop(void)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_KSP, .paths = 5 };
	struct sluice_compute_opts c = { .threads = 1 };
	uint32_t n, x, d, at, steps, lid, port, bad = 0, followed = 0;
	unsigned int l, p;
	struct sluice_routes r;
	struct sluice_graph g;
	uint8_t *tab;
	char *out, *s;
	int node = -1;

	if (sluice_topo_jellyfish(&g, 16, 3, 1, 4, err, sizeof(err)) ||
	    sluice_routes_compute(&g, &o, &c, &r, err, sizeof(err)))
		abort();
	n = g.n_nodes;
	out = export(&r, &g, SLUICE_ROUTES_LFT, true);
	tab = calloc((size_t)n * (2 * n + 1), 1);
	if (!out || !tab)
		abort();
	/* the tables, by node and LID: 0xff none */
	memset(tab, 0xff, (size_t)n * (2 * n + 1));
	for (s = out; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : s) {
		if (sscanf(s, "Unicast lids [0x0-0x%*x] of switch Lid %u", &l) == 1)
			node = l - 1;
		else if (node >= 0 && sscanf(s, "0x%x %u :", &l, &p) == 2)
			tab[(size_t)node * (2 * n + 1) + l] = p;
	}
	for (x = 0; x < n; x++)
		for (d = 0; d < n; d++) {
			lid = d + 1;
			if (x == d || tab[(size_t)x * (2 * n + 1) + lid] == 0xff)
				continue;
			followed++;
			for (at = x, steps = 0; at != d && steps <= n; steps++) {
				port = tab[(size_t)at * (2 * n + 1) + lid];
				if (!port || port > sluice_graph_degree(&g, at))
					break;
				at = g.adj[g.off[at] + port - 1].peer;
			}
			bad += at != d;
		}
	KTAP_EXPECT_INT(followed, n * (n - 1));
	KTAP_EXPECT_INT(bad, 0);
	free(tab);
	free(out);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	ktap_result("LFT --first on k shortest paths: every destination reached, no loop");
}

static void (*const tests[])(void) = {
	test_format_names,
	test_round_trips,
	test_graphml,
	test_gml,
	test_edges,
	test_export_chain,
	test_export_refusals,
	test_first_no_loop,
};

int main(void)
{
	size_t i;

	ktap_plan(ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
