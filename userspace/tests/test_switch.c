// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The switch's maps without a kernel (sluice/switch.h): a node's tables
 * read from a tag file alone against the same node taken from tables and
 * their topology, the conversion to maps worked out by hand for a value
 * tag source and a TTL one (port overrides, host expansion, every refusal
 * with the entry it names), and the map file: round trips and every error
 * with its file and line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/switch.h>
#include <sluice/tagger.h>
#include <sluice/topo.h>
#include "ktap.h"
#include "tagfiles.h"

static char err[SLUICE_ERRLEN];

#define HEADER \
	"sluice-tags 1\n" \
	"topology nodes 3 links 2 hash 0123456789abcdef\n" \
	"routes algo ecmp pairs 6 paths 6 hops 8 hash fedcba9876543210\n"

/*
 * A middle switch of a chain under TTL tagging: hop i at priority i, so
 * every tag goes from t to t + 1, and frames for its host keep theirs.
 */
static const char chain_ttl[] =
	HEADER
	"mode ttl priorities 3 tags 4\n"
	"node s1 hosts 1 ports 2 ingress 3 egress 4\n"
	"port 0 s0\n"
	"port 1 s2\n"
	"in 0 1 0\n"
	"in 1 2 1\n"
	"in host 0 0\n"
	"out 0 0 0 1\n"
	"out 1 1 1 2\n"
	"out 1 2 2 3\n"
	"out host 2 1 2\n"
	"end\n";

static int read_tags(struct sluice_switch_node *node, const char *text,
		     const char *only)
{
	FILE *f = text_file(text);
	int ret;

	ret = sluice_switch_read_tags(node, f, "t.tags", only, err,
				      sizeof(err));
	fclose(f);
	return ret;
}

/* The map file of @m, malloc()ed. */
static char *maps_text(const struct sluice_maps *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	if (sluice_maps_write(m, f, err, sizeof(err)))
		ktap_diag("write: %s", err);
	fclose(f);
	return buf;
}

static int read_maps(struct sluice_maps *m, const char *text)
{
	FILE *f = text_file(text);
	int ret;

	ret = sluice_maps_read(m, f, "s.maps", err, sizeof(err));
	fclose(f);
	return ret;
}

/* Field by field: the entry structs have padding. */
static bool same_node(const struct sluice_switch_node *a,
		      const struct sluice_switch_node *b)
{
	uint64_t i;

	if (strcmp(a->name, b->name) || a->mode != b->mode ||
	    a->hosts != b->hosts || a->n_links != b->n_links ||
	    a->n_in != b->n_in || a->n_out != b->n_out ||
	    memcmp(a->links, b->links, a->n_links * sizeof(*a->links)))
		return false;
	for (i = 0; i < a->n_in; i++)
		if (a->in[i].port != b->in[i].port ||
		    a->in[i].tag != b->in[i].tag ||
		    a->in[i].prio != b->in[i].prio)
			return false;
	for (i = 0; i < a->n_out; i++)
		if (a->out[i].port != b->out[i].port ||
		    a->out[i].tag != b->out[i].tag ||
		    a->out[i].cls != b->out[i].cls ||
		    a->out[i].new_tag != b->out[i].new_tag)
			return false;
	return true;
}

static void test_sources(void)
{
	static const char *const names[] = {
		"none", "ip-ttl", "mpls-ttl", "dscp", "mpls-tc", "pcp",
		"mpls-depth",
	};
	static const unsigned int values[] = { 256, 256, 256, 64, 8, 8, 33 };
	unsigned int i;

	KTAP_EXPECT_INT(ARRAY_SIZE(names), __SLUICE_TAG_SOURCE_MAX);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		KTAP_EXPECT_STR(sluice_tag_source_name(i), names[i]);
		KTAP_EXPECT_INT(sluice_tag_source_parse(names[i]), i);
		KTAP_EXPECT_INT(sluice_tag_source_values(i), values[i]);
		KTAP_EXPECT_INT(sluice_tag_source_is_ttl(i),
				i == SLUICE_TAG_SOURCE_IP_TTL ||
				i == SLUICE_TAG_SOURCE_MPLS_TTL);
	}
	KTAP_EXPECT(!sluice_tag_source_name(__SLUICE_TAG_SOURCE_MAX));
	KTAP_EXPECT_INT(sluice_tag_source_parse("DSCP"), -EINVAL);
	KTAP_EXPECT_INT(sluice_tag_source_parse("ttl"), -EINVAL);
	KTAP_EXPECT_STR(sluice_map_entry_kind(SLUICE_MAP_IN, 0), "in");
	KTAP_EXPECT_STR(sluice_map_entry_kind(SLUICE_MAP_EG, 0), "eg");
	KTAP_EXPECT_STR(sluice_map_entry_kind(SLUICE_MAP_EG,
					      SLUICE_MAP_F_OUT_PORT), "eg-out");
	KTAP_EXPECT_STR(sluice_map_entry_kind(SLUICE_MAP_TAG, 0), "tag");
	KTAP_EXPECT(!sluice_map_entry_kind(SLUICE_MAP_IN, SLUICE_MAP_F_OUT_PORT));
	KTAP_EXPECT(!sluice_map_entry_kind(SLUICE_MAP_EG, 2));
	KTAP_EXPECT(!sluice_map_entry_kind(3, 0));
	KTAP_EXPECT(sluice_ifname_ok("l12"));
	KTAP_EXPECT(sluice_ifname_ok("a234567890abcde"));
	KTAP_EXPECT(!sluice_ifname_ok("a234567890abcdef"));
	KTAP_EXPECT(!sluice_ifname_ok(""));
	KTAP_EXPECT(!sluice_ifname_ok(".."));
	KTAP_EXPECT(!sluice_ifname_ok("a/b"));
	KTAP_EXPECT(!sluice_ifname_ok("a b"));
	KTAP_EXPECT(!sluice_ifname_ok("eth0:1"));
	ktap_result("tag sources, entry kinds and device names");
}

static void test_read_share(void)
{
	static const struct sluice_tagger_in s0_in[] = {
		{ 0, 1, 0 }, { 3, 1, 0 }, { SLUICE_TAGGER_HOST, 0, 0 },
	};
	static const struct sluice_tagger_out s0_out[] = {
		{ 0, 0, 0, 1 }, { 0, 1, 1, 2 }, { 3, 0, 0, 1 }, { 3, 1, 0, 1 },
		{ SLUICE_TAGGER_HOST, 1, 0, 1 },
	};
	static const uint32_t s0_links[] = { 0, 3 };
	struct sluice_switch_node node, want = { .name = "s0" };
	char *share;
	size_t head;

	KTAP_EXPECT_INT(read_tags(&node, ring4_tags, "s0"), 0);
	KTAP_EXPECT_STR(node.name, "s0");
	KTAP_EXPECT_INT(node.mode, SLUICE_TAGGER_GREEDY);
	KTAP_EXPECT_INT(node.hosts, 0);
	KTAP_EXPECT_INT(node.n_links, 2);
	KTAP_EXPECT(node.n_links == 2 && node.links[0] == 0 &&
		    node.links[1] == 3);
	KTAP_EXPECT_INT(node.n_in, 3);
	KTAP_EXPECT_INT(node.n_out, 5);
	want.n_in = 3;
	want.in = (struct sluice_tagger_in *)s0_in;
	want.n_out = 5;
	want.out = (struct sluice_tagger_out *)s0_out;
	want.n_links = 2;
	want.links = (uint32_t *)s0_links;
	KTAP_EXPECT(same_node(&node, &want));
	sluice_switch_node_free(&node);

	/* the last section, picked out of the whole file */
	KTAP_EXPECT_INT(read_tags(&node, ring4_tags, "s3"), 0);
	KTAP_EXPECT_STR(node.name, "s3");
	KTAP_EXPECT(node.n_links == 2 && node.links[0] == 2 &&
		    node.links[1] == 3);
	sluice_switch_node_free(&node);

	/* a whole file names no node of its own */
	KTAP_EXPECT_INT(read_tags(&node, ring4_tags, NULL), -ENOENT);
	KTAP_EXPECT_STR(err, "t.tags: holds the tables of 4 nodes (s0 to s3): name the node");
	KTAP_EXPECT_INT(read_tags(&node, ring4_tags, "s9"), -ENOENT);
	KTAP_EXPECT_STR(err, "t.tags: no section for node s9");
	KTAP_EXPECT_INT(read_tags(&node, HEADER "mode ttl priorities 0 tags 0\nend\n",
				  NULL), -ENOENT);
	KTAP_EXPECT_STR(err, "t.tags: holds no node's tables");

	/* a share needs no name: the header, s1's section, "end" */
	head = strstr(ring4_tags, "node s0") - ring4_tags;
	share = malloc(strlen(ring4_tags) + 1);
	if (!share)
		abort();
	sprintf(share, "%.*s%.*send\n", (int)head, ring4_tags,
		(int)(strstr(ring4_tags, "node s2") - strstr(ring4_tags, "node s1")),
		strstr(ring4_tags, "node s1"));
	KTAP_EXPECT_INT(read_tags(&node, share, NULL), 0);
	KTAP_EXPECT_STR(node.name, "s1");
	KTAP_EXPECT_INT(node.n_in, 5);
	KTAP_EXPECT_INT(node.n_out, 6);
	sluice_switch_node_free(&node);
	KTAP_EXPECT_INT(read_tags(&node, share, "s1"), 0);
	sluice_switch_node_free(&node);
	KTAP_EXPECT_INT(read_tags(&node, share, "s0"), -ENOENT);
	free(share);

	/* empty lists are lists */
	KTAP_EXPECT_INT(read_tags(&node, HEADER "mode ttl priorities 0 tags 0\n"
				  "node x hosts 0 ports 0 ingress 0 egress 0\nend\n",
				  NULL), 0);
	KTAP_EXPECT(node.in && node.out && node.links && !node.n_in &&
		    !node.n_out && !node.n_links);
	sluice_switch_node_free(&node);
	ktap_result("a node's tables from a tag file alone: whole, share, picked, missing");
}

/* Routes, tables and their file for @g; every node read back both ways. */
static void check_both_ways(struct sluice_graph *g, enum sluice_route_algo algo,
			    enum sluice_tagger_mode mode)
{
	struct sluice_route_opts ro = { .algo = algo };
	struct sluice_compute_opts co = { .threads = 1 };
	struct sluice_tagger_opts to = { .mode = mode };
	struct sluice_tagger_tables tab = { 0 };
	struct sluice_switch_node a, b;
	struct sluice_tagging tg = { 0 };
	struct sluice_routes r;
	char *text = NULL;
	size_t len = 0;
	uint32_t v, same = 0;
	FILE *f;

	if (sluice_routes_compute(g, &ro, &co, &r, err, sizeof(err))) {
		KTAP_EXPECT_STR(err, "");
		return;
	}
	if (sluice_tagger_assign(g, &r, &to, &tg, err, sizeof(err)) ||
	    sluice_tagger_tables_build(g, &r, &tg, &tab, err, sizeof(err))) {
		KTAP_EXPECT_STR(err, "");
		goto out;
	}
	f = open_memstream(&text, &len);
	if (!f || sluice_tagger_write(&tab, g, f, NULL, err, sizeof(err)))
		abort();
	fclose(f);
	for (v = 0; v < g->n_nodes; v++) {
		if (read_tags(&a, text, g->nodes[v].name)) {
			KTAP_EXPECT_STR(err, "");
			break;
		}
		if (sluice_switch_node_of(&tab, g, v, &b, err, sizeof(err)))
			abort();
		same += same_node(&a, &b);
		sluice_switch_node_free(&a);
		sluice_switch_node_free(&b);
	}
	KTAP_EXPECT_INT(same, g->n_nodes);
	KTAP_EXPECT_INT(sluice_switch_node_of(&tab, g, g->n_nodes, &b, err,
					      sizeof(err)), -EINVAL);
	free(text);
out:
	sluice_tagger_tables_free(&tab);
	sluice_tagging_free(&tg);
	sluice_routes_free(&r);
}

static void test_read_matches_tables(void)
{
	struct sluice_switch_node a;
	struct sluice_graph g;
	uint64_t seed;

	/* the ring's file is what the library computes */
	if (sluice_topo_ring(&g, 4, 0, err, sizeof(err)))
		abort();
	check_both_ways(&g, SLUICE_ROUTE_ECMP, SLUICE_TAGGER_GREEDY);
	check_both_ways(&g, SLUICE_ROUTE_ECMP, SLUICE_TAGGER_TTL);
	KTAP_EXPECT_INT(read_tags(&a, ring4_tags, "s2"), 0);
	KTAP_EXPECT_INT(a.n_out, 5);
	sluice_switch_node_free(&a);
	sluice_graph_free(&g);
	for (seed = 1; seed <= 3; seed++) {
		if (sluice_topo_jellyfish(&g, 12, 3, 2, seed, err,
					  sizeof(err))) {
			KTAP_EXPECT_STR(err, "");
			continue;
		}
		check_both_ways(&g, SLUICE_ROUTE_ECMP, SLUICE_TAGGER_GREEDY);
		check_both_ways(&g, SLUICE_ROUTE_ECMP, SLUICE_TAGGER_TTL);
		sluice_graph_free(&g);
	}
	ktap_result("a tag file read alone gives each node what the tables and topology give");
}

static void test_read_errors(void)
{
	static const struct {
		const char	*text;
		const char	*only;
		const char	*msg;
	} cases[] = {
		{ "sluice-tags 2\n", NULL,
		  "t.tags:1: version 2: this sluicectl reads version 1" },
		{ "sluice-maps 1\n", NULL,
		  "t.tags:1: not a tag file: the first line must be \"sluice-tags 1\"" },
		{ "sluice-tags 1\ntopology nodes 3\n", NULL,
		  "t.tags:2: expected \"topology nodes N links L hash H\"" },
		{ HEADER "mode fast priorities 1 tags 2\n", NULL,
		  "t.tags:4: unknown mode \"fast\" (greedy, ttl or depth)" },
		{ HEADER "mode ttl priorities 9 tags 2\n", NULL,
		  "t.tags:4: priorities 9, tags 2: at most 8 and 64" },
		{ HEADER "mode ttl priorities 2 tags 3\nnode s1 hosts 1\n", NULL,
		  "t.tags:5: expected \"node NAME hosts H ports K ingress I egress E\" or \"end\"" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 2 ingress 0 egress 0\nport 0 s0\nin 0 1 0\n",
		  NULL, "t.tags:7: node s1: expected 2 \"port LINK PEER\" lines" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 2 ingress 0 egress 0\nport 0 s0\nport 0 s2\n",
		  NULL, "t.tags:7: node s1: link 0 listed twice" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 1 ingress 1 egress 0\nport 0 s0\nin 7 1 0\n",
		  NULL, "t.tags:7: node s1: the port must be \"host\" or one of its links" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 1 ingress 1 egress 0\nport 0 s0\nin 0 3 0\n",
		  NULL, "t.tags:7: node s1: beyond the header's 3 tags and 2 priorities" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 1 ingress 1 egress 0\nport 0 s0\nin 0 1 0 5\n",
		  NULL, "t.tags:7: unexpected \" 5\" at the end of the line" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 1 ingress 0 egress 1\nport 0 s0\nout 0 1 1\n",
		  NULL, "t.tags:7: node s1: the new tag must be 0 to 63" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 1 ingress 2 egress 0\nport 0 s0\n"
		  "in host 0 0\nin 0 1 0\n",
		  NULL, "t.tags:8: node s1: ingress entry out of order: entries go by port (links by id, host last), then tag, each once" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 1 ingress 2 egress 0\nport 0 s0\n"
		  "in 0 1 0\nin 0 1 1\n",
		  NULL, "t.tags:8: node s1: ingress entry given twice: entries go by port (links by id, host last), then tag, each once" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 1 ingress 2 egress 0\nport 0 s0\nin 0 1 0\n",
		  NULL, "t.tags:8: the file ends before \"end\": truncated? (node s1: expected 2 ingress entries, found 1)" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 0 ingress 0 egress 0\n",
		  NULL, "t.tags:6: the file ends before \"end\": truncated?" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 1 ingress 2 egress 0\nport 0 s0\nin 0 1 0\nin h",
		  NULL, "t.tags:8: the file ends in the middle of the line: truncated? (node s1: the port must be \"host\" or one of its links)" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 0 ingress 0 egress 0\nend\nnode\n",
		  NULL, "t.tags:7: something after \"end\"" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 0 ingress 0 egress 0\n"
		  "node s1 hosts 1 ports 0 ingress 0 egress 0\nend\n",
		  "s1", "t.tags:6: node s1: a second section" },
		{ HEADER "mode ttl priorities 2 tags 3\n"
		  "node s1 hosts 1 ports 0 ingress 0 egress 0\r\nend\n",
		  NULL, "t.tags:5: the line ends with a carriage return (DOS line ends?)" },
	};
	struct sluice_switch_node node;
	unsigned int i, right = 0;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&node, 0xa5, sizeof(node));
		if (read_tags(&node, cases[i].text, cases[i].only) == -EINVAL &&
		    !strcmp(err, cases[i].msg) && !node.links && !node.in)
			right++;
		else
			ktap_diag("case %u: %s", i, err);
	}
	KTAP_EXPECT_INT(right, ARRAY_SIZE(cases));
	ktap_result("malformed tag files refused at their line");
}

static int convert(const char *tags, const char *only,
		   const struct sluice_convert_opts *o, char **text)
{
	struct sluice_switch_node node;
	struct sluice_maps m;
	int ret;

	*text = NULL;
	if (read_tags(&node, tags, only)) {
		KTAP_EXPECT_STR(err, "");
		return -EIO;
	}
	ret = sluice_switch_convert(&node, o, &m, err, sizeof(err));
	if (!ret)
		*text = maps_text(&m);
	else
		KTAP_EXPECT(!m.e && !m.devs && !m.n);
	sluice_maps_free(&m);
	sluice_switch_node_free(&node);
	return ret;
}

static void test_convert_dscp(void)
{
	static const char *const hosts[] = { "h0", "h1" };
	struct sluice_convert_opts o = {
		.source = SLUICE_TAG_SOURCE_DSCP,
		.hosts = hosts,
		.n_hosts = 2,
	};
	char *text;

	/* s0: links 0 and 3 are l0 and l3; host is h0 and h1 */
	KTAP_EXPECT_INT(convert(ring4_tags, "s0", &o, &text), 0);
	KTAP_EXPECT_STR(text,
		"sluice-maps 1\n"
		"in l0 1 0\n"
		"in l3 1 0\n"
		"in h0 0 0\n"
		"in h1 0 0\n"
		"eg-out l0 0 0\n"
		"eg-out l0 1 1\n"
		"eg-out l3 0 0\n"
		"eg-out l3 1 0\n"
		"eg-out h0 1 0\n"
		"eg-out h1 1 0\n"
		"tag l0 0 1\n"
		"tag l0 1 2\n"
		"tag l3 0 1\n"
		"tag l3 1 1\n"
		"tag h0 1 1\n"
		"tag h1 1 1\n"
		"end\n");
	free(text);

	/* PCP and MPLS TC take the same tags; no hosts: host entries vanish */
	o.source = SLUICE_TAG_SOURCE_PCP;
	o.n_hosts = 0;
	KTAP_EXPECT_INT(convert(ring4_tags, "s1", &o, &text), 0);
	KTAP_EXPECT_STR(text,
		"sluice-maps 1\n"
		"in l0 1 0\n"
		"in l0 2 1\n"
		"in l1 1 0\n"
		"in l1 2 1\n"
		"eg-out l0 0 0\n"
		"eg-out l0 1 0\n"
		"eg-out l1 0 0\n"
		"eg-out l1 1 0\n"
		"tag l0 0 1\n"
		"tag l0 1 1\n"
		"tag l1 0 1\n"
		"tag l1 1 1\n"
		"end\n");
	free(text);
	ktap_result("tag tables to maps under dscp and pcp, by hand");
}

static void test_convert_ports(void)
{
	static const struct sluice_port_dev ports[] = {
		{ 3, "swp3" }, { 0, "uplink" },
	};
	static const char *const hosts[] = { "veth-h" };
	struct sluice_convert_opts o = {
		.source = SLUICE_TAG_SOURCE_MPLS_TC,
		.ports = ports,
		.n_ports = 2,
		.hosts = hosts,
		.n_hosts = 1,
	};
	char dev[SLUICE_IFNAMSIZ], *text;

	sluice_switch_link_dev(&o, 3, dev);
	KTAP_EXPECT_STR(dev, "swp3");
	sluice_switch_link_dev(&o, 12, dev);
	KTAP_EXPECT_STR(dev, "l12");
	sluice_switch_link_dev(&o, UINT32_MAX - 1, dev);
	KTAP_EXPECT_STR(dev, "l4294967294");
	KTAP_EXPECT_INT(convert(ring4_tags, "s0", &o, &text), 0);
	KTAP_EXPECT_STR(text,
		"sluice-maps 1\n"
		"in uplink 1 0\n"
		"in swp3 1 0\n"
		"in veth-h 0 0\n"
		"eg-out uplink 0 0\n"
		"eg-out uplink 1 1\n"
		"eg-out swp3 0 0\n"
		"eg-out swp3 1 0\n"
		"eg-out veth-h 1 0\n"
		"tag uplink 0 1\n"
		"tag uplink 1 2\n"
		"tag swp3 0 1\n"
		"tag swp3 1 1\n"
		"tag veth-h 1 1\n"
		"end\n");
	free(text);
	ktap_result("--port overrides name the links' devices, the others stay l<LINK>");
}

static void test_convert_ttl(void)
{
	static const struct sluice_port_dev ports[] = { { 1, "eth1" } };
	static const char *const hosts[] = { "h" };
	struct sluice_convert_opts o = {
		.source = SLUICE_TAG_SOURCE_IP_TTL,
		.ports = ports,
		.n_ports = 1,
		.hosts = hosts,
		.n_hosts = 1,
	};
	char *text;

	/* tag t is TTL 64 - t; no tag entries: routing is the rewrite */
	KTAP_EXPECT_INT(convert(chain_ttl, NULL, &o, &text), 0);
	KTAP_EXPECT_STR(text,
		"sluice-maps 1\n"
		"in l0 63 0\n"
		"in eth1 62 1\n"
		"in h 64 0\n"
		"eg-out l0 64 0\n"
		"eg-out eth1 63 1\n"
		"eg-out eth1 62 2\n"
		"eg-out h 62 1\n"
		"end\n");
	free(text);

	/* MPLS TTL alike, from another initial TTL */
	o.source = SLUICE_TAG_SOURCE_MPLS_TTL;
	o.initial_ttl = 255;
	KTAP_EXPECT_INT(convert(chain_ttl, NULL, &o, &text), 0);
	KTAP_EXPECT_STR(text,
		"sluice-maps 1\n"
		"in l0 254 0\n"
		"in eth1 253 1\n"
		"in h 255 0\n"
		"eg-out l0 255 0\n"
		"eg-out eth1 254 1\n"
		"eg-out eth1 253 2\n"
		"eg-out h 253 1\n"
		"end\n");
	free(text);

	/* the smallest initial TTL that keeps tag 3 ... is 4, and the tables'
	 * highest tag here is 3 but only on a new tag: 3 suffices */
	o.initial_ttl = 3;
	KTAP_EXPECT_INT(convert(chain_ttl, NULL, &o, &text), 0);
	KTAP_EXPECT(text && strstr(text, "in eth1 1 1\n"));
	free(text);
	o.initial_ttl = 2;
	KTAP_EXPECT_INT(convert(chain_ttl, NULL, &o, &text), -ERANGE);
	KTAP_EXPECT_STR(err, "node s1: \"in 1 2 1\": tag 2 would be TTL 0 with initial TTL 2");
	o.initial_ttl = 256;
	KTAP_EXPECT_INT(convert(chain_ttl, NULL, &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "initial TTL 256: a TTL is 1 to 255");

	/* greedy's tables keep tags between switches: no TTL can do that */
	o.initial_ttl = 0;
	o.n_ports = 0;
	KTAP_EXPECT_INT(convert(ring4_tags, "s0", &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "node s0: \"out 3 1 0 1\": under mpls-ttl the tag can only go from t to t + 1 (a routed hop), not from 1 to 1");
	KTAP_EXPECT_INT(convert(HEADER "mode ttl priorities 3 tags 4\n"
				"node s1 hosts 1 ports 1 ingress 0 egress 1\n"
				"port 0 s0\nout 0 1 0 3\nend\n", NULL, &o, &text),
			-EINVAL);
	KTAP_EXPECT_STR(err, "node s1: \"out 0 1 0 3\": under mpls-ttl the tag can only go from t to t + 1 (a routed hop), not from 1 to 3");
	/* towards hosts only, a kept tag is fine (nobody reads it) */
	KTAP_EXPECT_INT(convert(HEADER "mode ttl priorities 3 tags 4\n"
				"node s1 hosts 1 ports 1 ingress 0 egress 1\n"
				"port 0 s0\nout host 2 1 2\nend\n", NULL, &o, &text),
			0);
	KTAP_EXPECT_STR(text, "sluice-maps 1\neg-out h 62 1\nend\n");
	free(text);
	ktap_result("TTL sources: tag t is initial TTL - t, rewrites other than t -> t + 1 refused");
}

/*
 * A middle switch of a chain s0 - s1 - s2 - s3 in depth mode: tables keyed
 * by the depth a frame leaves with, which is its class, charged at 1 more
 * (0 from hosts).
 */
#define CHAIN_DEPTH(out_1_1) \
	HEADER \
	"mode depth priorities 3 tags 3\n" \
	"node s1 hosts 1 ports 2 ingress 5 egress 4\n" \
	"port 0 s0\n" \
	"port 1 s2\n" \
	"in 0 0 1\n" \
	"in 0 1 2\n" \
	"in 1 0 1\n" \
	"in host 0 0\n" \
	"in host 1 0\n" \
	"out 0 0 0 0\n" \
	"out 1 0 0 0\n" \
	out_1_1 \
	"out host 0 0 0\n" \
	"end\n"

static void test_convert_depth(void)
{
	static const struct sluice_port_dev ports[] = { { 1, "eth1" } };
	static const char *const hosts[] = { "h" };
	struct sluice_convert_opts o = {
		.source = SLUICE_TAG_SOURCE_MPLS_DEPTH,
		.ports = ports,
		.n_ports = 1,
		.hosts = hosts,
		.n_hosts = 1,
	};
	char *text;

	/* tag t is depth t; no tag entries: the next pop is the rewrite */
	KTAP_EXPECT_INT(convert(CHAIN_DEPTH("out 1 1 1 1\n"), NULL, &o, &text), 0);
	KTAP_EXPECT_STR(text,
		"sluice-maps 1\n"
		"in l0 0 1\n"
		"in l0 1 2\n"
		"in eth1 0 1\n"
		"in h 0 0\n"
		"in h 1 0\n"
		"eg-out l0 0 0\n"
		"eg-out eth1 0 0\n"
		"eg-out eth1 1 1\n"
		"eg-out h 0 0\n"
		"end\n");
	free(text);
	/* a depth cannot be rewritten */
	KTAP_EXPECT_INT(convert(CHAIN_DEPTH("out 1 1 1 2\n"), NULL, &o, &text),
			-EINVAL);
	KTAP_EXPECT_STR(err, "node s1: \"out 1 1 1 2\": under mpls-depth the tag is the label stack's depth, which the switch never rewrites (1 to 2)");
	/* 33 labels do not fit */
	KTAP_EXPECT_INT(convert(HEADER "mode depth priorities 2 tags 34\n"
				"node s1 hosts 1 ports 2 ingress 1 egress 0\n"
				"port 0 s0\nport 1 s2\nin 0 33 1\nend\n",
				NULL, &o, &text),
			-ERANGE);
	KTAP_EXPECT_STR(err, "node s1: \"in 0 33 1\": tag 33 does not fit mpls-depth (0 to 32)");
	/* other modes' tables are keyed by the tag a frame arrived with */
	KTAP_EXPECT_INT(convert(chain_ttl, NULL, &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "node s1: ttl tables under mpls-depth: the label stack's depth needs tables of mode depth (tag compute --mode depth)");
	KTAP_EXPECT_INT(convert(ring4_tags, "s0", &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "node s0: greedy tables under mpls-depth: the label stack's depth needs tables of mode depth (tag compute --mode depth)");
	/* and depth tables need the depth */
	o.source = SLUICE_TAG_SOURCE_MPLS_TTL;
	KTAP_EXPECT_INT(convert(CHAIN_DEPTH("out 1 1 1 1\n"), NULL, &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "node s1: depth tables under mpls-ttl: they are keyed by the label stack's depth, which only the mpls-depth tag source reads");
	o.source = SLUICE_TAG_SOURCE_DSCP;
	KTAP_EXPECT_INT(convert(CHAIN_DEPTH("out 1 1 1 1\n"), NULL, &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "node s1: depth tables under dscp: they are keyed by the label stack's depth, which only the mpls-depth tag source reads");
	ktap_result("mpls-depth: tag t is depth t, depth tables only, no rewrite, 0 to 32");
}

static void test_convert_errors(void)
{
	static const struct sluice_port_dev bad_link[] = { { 7, "x" } };
	static const struct sluice_port_dev same_dev[] = {
		{ 0, "x" }, { 3, "x" },
	};
	static const struct sluice_port_dev twice[] = {
		{ 0, "x" }, { 0, "y" },
	};
	static const struct sluice_port_dev bad_name[] = { { 0, "a/b" } };
	static const char *const link_host[] = { "l3" };
	static const char *const bad_host[] = { "" };
	struct sluice_convert_opts o = { .source = SLUICE_TAG_SOURCE_NONE };
	char *text;

	KTAP_EXPECT_INT(convert(ring4_tags, "s0", &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "the switch has no tag source: tag tables need one (ip-ttl, mpls-ttl, dscp, mpls-tc, pcp or mpls-depth)");
	o.source = 42;
	KTAP_EXPECT_INT(convert(ring4_tags, "s0", &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "tag source 42: unknown to this sluicectl");

	o.source = SLUICE_TAG_SOURCE_DSCP;
	o.ports = bad_link;
	o.n_ports = 1;
	KTAP_EXPECT_INT(convert(ring4_tags, "s0", &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "port 7=x: node s0 has no link 7");
	o.ports = same_dev;
	o.n_ports = 2;
	KTAP_EXPECT_INT(convert(ring4_tags, "s0", &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "node s0: two in entries for device x tag 1: two ports are one device");
	o.ports = twice;
	KTAP_EXPECT_INT(convert(ring4_tags, "s0", &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "link 0: two devices given");
	o.ports = bad_name;
	o.n_ports = 1;
	KTAP_EXPECT_INT(convert(ring4_tags, "s0", &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "port 0=a/b: not a device name");
	o.n_ports = 0;
	o.hosts = link_host;
	o.n_hosts = 1;
	KTAP_EXPECT_INT(convert(ring4_tags, "s0", &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "node s0: two eg-out entries for device l3 tag 1: two ports are one device");
	o.hosts = bad_host;
	KTAP_EXPECT_INT(convert(ring4_tags, "s0", &o, &text), -EINVAL);
	KTAP_EXPECT_STR(err, "host device \"\": not a device name");
	o.n_hosts = 0;

	/* PCP has 8 values: tag 8 cannot be carried, nor written */
	o.source = SLUICE_TAG_SOURCE_PCP;
	KTAP_EXPECT_INT(convert(HEADER "mode ttl priorities 8 tags 10\n"
				"node s1 hosts 1 ports 1 ingress 1 egress 0\n"
				"port 0 s0\nin 0 8 7\nend\n", NULL, &o, &text),
			-ERANGE);
	KTAP_EXPECT_STR(err, "node s1: \"in 0 8 7\": tag 8 does not fit pcp (0 to 7)");
	KTAP_EXPECT_INT(convert(HEADER "mode ttl priorities 8 tags 10\n"
				"node s1 hosts 1 ports 1 ingress 0 egress 1\n"
				"port 0 s0\nout 0 7 7 8\nend\n", NULL, &o, &text),
			-ERANGE);
	KTAP_EXPECT_STR(err, "node s1: \"out 0 7 7 8\": tag 8 does not fit pcp (0 to 7)");
	/* DSCP carries both */
	o.source = SLUICE_TAG_SOURCE_DSCP;
	KTAP_EXPECT_INT(convert(HEADER "mode ttl priorities 8 tags 10\n"
				"node s1 hosts 1 ports 1 ingress 1 egress 1\n"
				"port 0 s0\nin 0 8 7\nout 0 7 7 8\nend\n", NULL,
				&o, &text), 0);
	KTAP_EXPECT_STR(text, "sluice-maps 1\nin l0 8 7\neg-out l0 7 7\ntag l0 7 8\nend\n");
	free(text);
	ktap_result("tables the switch cannot take are refused, naming the entry");
}

static void test_maps_round_trip(void)
{
	static const char text[] =
		"sluice-maps 1\n"
		"in * 0 0\n"
		"eg * 0 3\n"
		"tag * 0 0\n"
		"in l0 1 7\n"
		"eg l0 1 15\n"
		"eg-out l0 1 31\n"
		"tag l0 255 255\n"
		"in a234567890abcde 200 1\n"
		"end\n";
	struct sluice_maps m, back;
	struct sluice_rng rng;
	uint32_t dev, i, round, ok = 0;
	char *out, name[SLUICE_IFNAMSIZ];
	uint64_t a, b;

	KTAP_EXPECT_INT(read_maps(&m, text), 0);
	KTAP_EXPECT_INT(m.n, 8);
	KTAP_EXPECT_INT(m.n_devs, 2);
	KTAP_EXPECT(m.n == 8 && m.e[0].dev == SLUICE_DEV_ALL &&
		    m.e[0].map == SLUICE_MAP_IN && m.e[1].map == SLUICE_MAP_EG &&
		    m.e[1].value == 3 && !m.e[1].flags &&
		    m.e[5].flags == SLUICE_MAP_F_OUT_PORT && m.e[5].dev == 0 &&
		    m.e[6].tag == 255 && m.e[6].value == 255 &&
		    m.e[7].dev == 1 && m.e[7].tag == 200);
	out = maps_text(&m);
	KTAP_EXPECT_STR(out, text);
	free(out);
	sluice_maps_free(&m);

	/* comments and blank lines go; the rest comes back the same */
	KTAP_EXPECT_INT(read_maps(&m, "# maps of s0\n\nsluice-maps 1\n# in\n"
				  "in l0 1 0\n\nend\n# done\n"), 0);
	out = maps_text(&m);
	KTAP_EXPECT_STR(out, "sluice-maps 1\nin l0 1 0\nend\n");
	free(out);
	sluice_maps_free(&m);
	KTAP_EXPECT_INT(read_maps(&m, "sluice-maps 1\nend\n"), 0);
	KTAP_EXPECT_INT(m.n, 0);
	sluice_maps_free(&m);

	/* random maps: what is written is read back, entry for entry */
	sluice_rng_seed(&rng, 6);
	for (round = 0; round < 200; round++) {
		memset(&m, 0, sizeof(m));
		for (i = 0; i < 1 + sluice_rng_below(&rng, 60); i++) {
			uint8_t map = sluice_rng_below(&rng, 3);
			uint8_t flags = map == SLUICE_MAP_EG &&
					sluice_rng_below(&rng, 2);

			dev = SLUICE_DEV_ALL;
			if (sluice_rng_below(&rng, 8)) {
				snprintf(name, sizeof(name), "p%u",
					 (unsigned int)sluice_rng_below(&rng, 5));
				if (sluice_maps_dev(&m, name, &dev))
					abort();
			}
			if (sluice_maps_add(&m, dev, map,
					    sluice_rng_below(&rng, 256),
					    sluice_rng_below(&rng, map == SLUICE_MAP_IN ? 8 :
							     map == SLUICE_MAP_EG ? 16 : 256),
					    flags))
				abort();
			/* keys are unique in a map file */
			if (sluice_maps_find_dup(&m, &a, &b))
				m.n--;
		}
		out = maps_text(&m);
		if (!read_maps(&back, out) && back.n == m.n) {
			for (i = 0; i < m.n; i++) {
				const struct sluice_maps_entry *x = &m.e[i], *y = &back.e[i];

				if (x->map != y->map || x->tag != y->tag ||
				    x->value != y->value || x->flags != y->flags ||
				    (x->dev == SLUICE_DEV_ALL) != (y->dev == SLUICE_DEV_ALL) ||
				    (x->dev != SLUICE_DEV_ALL &&
				     strcmp(m.devs[x->dev], back.devs[y->dev])))
					break;
			}
			ok += i == m.n;
		}
		free(out);
		sluice_maps_free(&back);
		sluice_maps_free(&m);
	}
	KTAP_EXPECT_INT(ok, 200);
	ktap_result("map file round trips, by hand and 200 random maps");
}

static void test_maps_dup(void)
{
	struct sluice_maps m = { 0 };
	uint32_t x, y;
	uint64_t a, b;

	KTAP_EXPECT(!sluice_maps_find_dup(&m, &a, &b));
	if (sluice_maps_dev(&m, "x", &x) || sluice_maps_dev(&m, "y", &y))
		abort();
	KTAP_EXPECT(x == 0 && y == 1);
	KTAP_EXPECT_INT(sluice_maps_dev(&m, "x", &y), 0);
	KTAP_EXPECT_INT(y, 0);
	KTAP_EXPECT_INT(m.n_devs, 2);
	KTAP_EXPECT_INT(sluice_maps_dev(&m, "a/b", &x), -EINVAL);
	/* the same tag in other maps, flags, ports: all distinct keys */
	sluice_maps_add(&m, 0, SLUICE_MAP_EG, 5, 1, 0);
	sluice_maps_add(&m, 0, SLUICE_MAP_EG, 5, 1, SLUICE_MAP_F_OUT_PORT);
	sluice_maps_add(&m, 0, SLUICE_MAP_IN, 5, 1, 0);
	sluice_maps_add(&m, 0, SLUICE_MAP_TAG, 5, 1, 0);
	sluice_maps_add(&m, 1, SLUICE_MAP_EG, 5, 1, 0);
	sluice_maps_add(&m, SLUICE_DEV_ALL, SLUICE_MAP_EG, 5, 1, 0);
	sluice_maps_add(&m, 0, SLUICE_MAP_EG, 6, 1, 0);
	KTAP_EXPECT(!sluice_maps_find_dup(&m, &a, &b));
	/* two repeats: the one whose second entry comes first is named */
	sluice_maps_add(&m, 1, SLUICE_MAP_EG, 5, 2, 0);
	sluice_maps_add(&m, 0, SLUICE_MAP_TAG, 5, 2, 0);
	KTAP_EXPECT(sluice_maps_find_dup(&m, &a, &b) && a == 4 && b == 7);
	sluice_maps_free(&m);
	KTAP_EXPECT(!m.n && !m.e && !m.devs);
	ktap_result("duplicate keys: map, flags, device and tag");
}

static void test_maps_errors(void)
{
	static const struct {
		const char	*text;
		const char	*msg;
	} cases[] = {
		{ "", "s.maps: the file is empty" },
		{ "sluice-tags 1\n", "s.maps:1: not a map file: the first line must be \"sluice-maps 1\"" },
		{ "# x\nsluice-maps 2\n", "s.maps:2: version 2: this sluicectl reads version 1" },
		{ "sluice-maps 01\n", "s.maps:1: not a map file: the first line must be \"sluice-maps 1\"" },
		{ "sluice-maps 1\n", "s.maps:2: the file ends before \"end\": truncated?" },
		{ "sluice-maps 1\nin l0 1 0\n", "s.maps:3: the file ends before \"end\": truncated?" },
		{ "sluice-maps 1\nin l0 1",
		  "s.maps:2: the file ends in the middle of the line: truncated? (in l0 1 VALUE: VALUE must be PRIO 0 to 7)" },
		{ "sluice-maps 1\nout l0 1 0\nend\n",
		  "s.maps:2: expected \"in\", \"eg\", \"eg-out\" or \"tag\" and DEV TAG VALUE, or \"end\"" },
		{ "sluice-maps 1\nin\nend\n",
		  "s.maps:2: expected \"in\", \"eg\", \"eg-out\" or \"tag\" and DEV TAG VALUE, or \"end\"" },
		{ "sluice-maps 1\nin  1 0\nend\n", "s.maps:2: in DEV TAG VALUE: no DEV" },
		{ "sluice-maps 1\neg a/b 1 0\nend\n",
		  "s.maps:2: \"a/b\" is not a device name (1 to 15 characters, no '/', ':' or space) nor \"*\"" },
		{ "sluice-maps 1\neg a234567890abcdef 1 0\nend\n",
		  "s.maps:2: \"a234567890abcdef\" is not a device name (1 to 15 characters, no '/', ':' or space) nor \"*\"" },
		{ "sluice-maps 1\nin l0 256 0\nend\n", "s.maps:2: in l0 TAG ...: TAG must be 0 to 255" },
		{ "sluice-maps 1\nin l0 -1 0\nend\n", "s.maps:2: in l0 TAG ...: TAG must be 0 to 255" },
		{ "sluice-maps 1\nin l0 01 0\nend\n", "s.maps:2: in l0 TAG ...: TAG must be 0 to 255" },
		{ "sluice-maps 1\nin l0 1 8\nend\n", "s.maps:2: in l0 1 VALUE: VALUE must be PRIO 0 to 7" },
		{ "sluice-maps 1\neg l0 1 32\nend\n", "s.maps:2: eg l0 1 VALUE: VALUE must be CLASS 0 to 31" },
		{ "sluice-maps 1\neg-out l0 1 32\nend\n", "s.maps:2: eg-out l0 1 VALUE: VALUE must be CLASS 0 to 31" },
		{ "sluice-maps 1\ntag l0 1 256\nend\n", "s.maps:2: tag l0 1 VALUE: VALUE must be NEWTAG 0 to 255" },
		{ "sluice-maps 1\ntag l0 1\nend\n", "s.maps:2: tag l0 1 VALUE: VALUE must be NEWTAG 0 to 255" },
		{ "sluice-maps 1\ntag l0 1 2 \nend\n", "s.maps:2: unexpected \" \" at the end of the line" },
		{ "sluice-maps 1\ntag l0 1 2 # two\nend\n", "s.maps:2: unexpected \" # two\" at the end of the line" },
		{ "sluice-maps 1\n in l0 1 0\nend\n",
		  "s.maps:2: expected \"in\", \"eg\", \"eg-out\" or \"tag\" and DEV TAG VALUE, or \"end\"" },
		{ "sluice-maps 1\nend\nin l0 1 0\n", "s.maps:3: something after \"end\"" },
		{ "sluice-maps 1\nin l0 1 0\r\nend\n",
		  "s.maps:2: the line ends with a carriage return (DOS line ends?)" },
		{ "sluice-maps 1\neg l0 1 0\n\n# again\neg l0 1 3\nend\n",
		  "s.maps:5: eg l0 1: given twice (first on line 2)" },
		{ "sluice-maps 1\ntag * 9 0\neg-out * 9 0\neg * 9 1\ntag * 9 1\nend\n",
		  "s.maps:5: tag * 9: given twice (first on line 2)" },
	};
	struct sluice_maps m;
	unsigned int i, right = 0;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&m, 0xa5, sizeof(m));
		if (read_maps(&m, cases[i].text) == -EINVAL &&
		    !strcmp(err, cases[i].msg) && !m.e && !m.devs && !m.n)
			right++;
		else
			ktap_diag("case %u: %s", i, err);
	}
	KTAP_EXPECT_INT(right, ARRAY_SIZE(cases));

	/* a NUL byte cannot hide the rest of a line */
	KTAP_EXPECT(read_maps(&m, "sluice-maps 1\n") == -EINVAL);
	{
		static const char nul[] = "sluice-maps 1\nin l0 1 0\0 junk\nend\n";
		FILE *f = fmemopen((void *)nul, sizeof(nul) - 1, "r");

		if (!f)
			abort();
		KTAP_EXPECT_INT(sluice_maps_read(&m, f, "s.maps", err,
						 sizeof(err)), -EINVAL);
		KTAP_EXPECT_STR(err, "s.maps:2: a NUL byte in the line");
		fclose(f);
	}
	ktap_result("malformed map files refused at their line");
}

static void test_maps_write_refuses(void)
{
	struct sluice_maps m = { 0 };
	char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	if (!f)
		abort();
	sluice_maps_add(&m, 0, SLUICE_MAP_IN, 1, 0, 0);
	KTAP_EXPECT_INT(sluice_maps_write(&m, f, err, sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "entry 0: map 0 flags 0 device 0: not a map file entry");
	sluice_maps_free(&m);
	sluice_maps_add(&m, SLUICE_DEV_ALL, SLUICE_MAP_TAG, 1, 0, 1);
	KTAP_EXPECT_INT(sluice_maps_write(&m, f, err, sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "entry 0: map 2 flags 0x1 device 4294967295: not a map file entry");
	sluice_maps_free(&m);
	fclose(f);
	ktap_result("entries no map file line can say are not written");
}

static void (*const tests[])(void) = {
	test_sources,
	test_read_share,
	test_read_matches_tables,
	test_read_errors,
	test_convert_dscp,
	test_convert_ports,
	test_convert_ttl,
	test_convert_depth,
	test_convert_errors,
	test_maps_round_trip,
	test_maps_dup,
	test_maps_errors,
	test_maps_write_refuses,
};

int main(void)
{
	size_t i;

	ktap_plan(ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
