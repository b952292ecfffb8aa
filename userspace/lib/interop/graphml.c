// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * GraphML (http://graphml.graphdrawing.org/), read with libxml2:
 *
 *	<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
 *	  <key id="d0" for="node" attr.name="hosts" attr.type="int"/>
 *	  <graph edgedefault="undirected">
 *	    <node id="s0"><data key="d0">4</data></node>
 *	    <edge source="s0" target="s1"/>
 *	  </graph>
 *	</graphml>
 *
 * Attributes are found by their key's attr.name (NetworkX numbers the key
 * ids, "d0", "d1"...), a key's <default> applying where an element has no
 * <data> for it.  Strict: one <graph>, undirected (edgedefault is needed),
 * no hyperedge, port or nested graph, no element GraphML does not have
 * where the structure is, no <data> whose key is not declared for that
 * kind of element, and a value sluice reads must be what it should be.
 * The XML itself is libxml2's to check: no network, no external entity.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include "internal.h"

#define GRAPHML_NS	"http://graphml.graphdrawing.org/xmlns"

/* What a <key> is for, as bits. */
enum {
	FOR_GRAPH	= 1 << 0,
	FOR_NODE	= 1 << 1,
	FOR_EDGE	= 1 << 2,
	FOR_OTHER	= 1 << 3,	/* graphml, hyperedge, port, endpoint */
};

/* The attributes sluice reads. */
enum attr {
	A_NONE, A_KIND, A_HOSTS, A_TIER, A_LA, A_LB, A_LAYERS, A_GENERATOR,
	A__COUNT,
};

static const struct {
	const char	*name;
	unsigned int	domain;
} attrs[] = {
	[A_KIND]	= { "kind", FOR_NODE },
	[A_HOSTS]	= { "hosts", FOR_NODE },
	[A_TIER]	= { "tier", FOR_NODE },
	[A_LA]		= { "la", FOR_EDGE },
	[A_LB]		= { "lb", FOR_EDGE },
	[A_LAYERS]	= { "layers", FOR_GRAPH },
	[A_GENERATOR]	= { "generator", FOR_GRAPH },
};

struct key {
	xmlChar		*id;
	unsigned int	domain;
	xmlChar		*name;		/* attr.name, or NULL */
	xmlChar		*def;		/* <default>, or NULL */
	long		line;
};

struct reader {
	struct ix_graph	*x;
	struct key	*keys;
	uint64_t	n_keys, cap_keys;
	char		*err;
	size_t		errlen;
};

#define bad(rd, at, ...) \
	IX_BAD((rd)->err, (rd)->errlen, xmlGetLineNo(at), __VA_ARGS__)

static int no_memory(struct reader *rd)
{
	return sluice_i_errf(rd->err, rd->errlen, -ENOMEM, "out of memory");
}

static bool is(const xmlNode *n, const char *name)
{
	return !xmlStrcmp(n->name, (const xmlChar *)name);
}

/* An element of GraphML's (its namespace, or none) named @name. */
static bool is_gml(const xmlNode *n, const char *name)
{
	return is(n, name) &&
	       (!n->ns || !xmlStrcmp(n->ns->href, (const xmlChar *)GRAPHML_NS));
}

static const char *elem_name(const xmlNode *n)
{
	return (const char *)n->name;
}

/* The next element among @n and its siblings, or NULL. */
static xmlNode *element(xmlNode *n)
{
	while (n && n->type != XML_ELEMENT_NODE)
		n = n->next;
	return n;
}

#define for_each_element(c, parent) \
	for ((c) = element((parent)->children); (c); (c) = element((c)->next))

static unsigned int domain_of(const xmlChar *f)
{
	if (!f || !xmlStrcmp(f, (const xmlChar *)"all"))
		return FOR_GRAPH | FOR_NODE | FOR_EDGE | FOR_OTHER;
	if (!xmlStrcmp(f, (const xmlChar *)"graph"))
		return FOR_GRAPH;
	if (!xmlStrcmp(f, (const xmlChar *)"node"))
		return FOR_NODE;
	if (!xmlStrcmp(f, (const xmlChar *)"edge"))
		return FOR_EDGE;
	if (!xmlStrcmp(f, (const xmlChar *)"graphml") ||
	    !xmlStrcmp(f, (const xmlChar *)"hyperedge") ||
	    !xmlStrcmp(f, (const xmlChar *)"port") ||
	    !xmlStrcmp(f, (const xmlChar *)"endpoint"))
		return FOR_OTHER;
	return 0;
}

static const char *domain_name(unsigned int domain)
{
	return domain == FOR_GRAPH ? "graph" : domain == FOR_NODE ? "node" :
	       domain == FOR_EDGE ? "edge" : "other";
}

/* The attribute sluice reads that @k names in @domain, or A_NONE. */
static enum attr attr_of(const struct key *k, unsigned int domain)
{
	int a;

	if (!k->name || !(k->domain & domain))
		return A_NONE;
	for (a = A_NONE + 1; a < A__COUNT; a++)
		if (attrs[a].domain == domain &&
		    !xmlStrcmp(k->name, (const xmlChar *)attrs[a].name))
			return a;
	return A_NONE;
}

static int read_key(struct reader *rd, xmlNode *e)
{
	xmlChar *f = xmlGetProp(e, (const xmlChar *)"for");
	struct key *k;
	xmlNode *c;
	uint64_t i;
	int ret = 0;

	if (SLUICE_I_GROW(rd->keys, rd->cap_keys, rd->n_keys + 1)) {
		xmlFree(f);
		return no_memory(rd);
	}
	k = &rd->keys[rd->n_keys++];
	memset(k, 0, sizeof(*k));
	k->line = xmlGetLineNo(e);
	k->id = xmlGetProp(e, (const xmlChar *)"id");
	k->name = xmlGetProp(e, (const xmlChar *)"attr.name");
	k->domain = domain_of(f);
	if (!k->id)
		ret = bad(rd, e, "<key> without an id");
	else if (!k->domain)
		ret = bad(rd, e, "<key> for \"%.40s\": not graph, node, edge or all",
			  (const char *)f);
	xmlFree(f);
	for (i = 0; i + 1 < rd->n_keys && !ret; i++)
		if (!xmlStrcmp(rd->keys[i].id, k->id))
			ret = bad(rd, e, "<key> \"%.40s\" is already on line %ld",
				  (const char *)k->id, rd->keys[i].line);
	for_each_element(c, e) {
		if (ret)
			break;
		if (is_gml(c, "desc"))
			continue;
		if (!is_gml(c, "default"))
			ret = bad(rd, c, "unexpected <%.40s> in <key>",
				  elem_name(c));
		else if (k->def)
			ret = bad(rd, c, "a second <default>");
		else if (!(k->def = xmlNodeGetContent(c)))
			ret = no_memory(rd);
	}
	return ret;
}

static const struct key *find_key(const struct reader *rd, const xmlChar *id)
{
	uint64_t i;

	for (i = 0; i < rd->n_keys; i++)
		if (!xmlStrcmp(rd->keys[i].id, id))
			return &rd->keys[i];
	return NULL;
}

/* Where one element's values go, for whichever of node, edge or graph. */
struct values {
	struct ix_node	*node;
	struct ix_edge	*edge;
	bool		set[A__COUNT];
};

/* @text, without the white space around it, in @buf; false if too long. */
static bool trimmed(const char *text, char *buf, size_t size)
{
	size_t n;

	text += strspn(text, " \t\r\n");
	n = strlen(text);
	while (n && strchr(" \t\r\n", text[n - 1]))
		n--;
	if (n >= size)
		return false;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return true;
}

static int set_value(struct reader *rd, const xmlNode *at, enum attr a,
		     const char *text, struct values *v)
{
	char val[512];
	int64_t *num = NULL;
	char **str = NULL;

	if (!trimmed(text, val, sizeof(val)))
		return bad(rd, at, "%s: more than %zu characters",
			   attrs[a].name, sizeof(val) - 1);
	switch (a) {
	case A_KIND:
		v->node->kind = ix_kind_parse(val);
		if (v->node->kind < 0)
			return bad(rd, at, "kind \"%.40s\" is not switch, server or host",
				   val);
		return 0;
	case A_HOSTS:
		num = &v->node->hosts;
		break;
	case A_TIER:
		num = &v->node->tier;
		break;
	case A_LA:
		num = &v->edge->la;
		break;
	case A_LB:
		num = &v->edge->lb;
		break;
	case A_LAYERS:
		str = &rd->x->layers;
		rd->x->layers_line = xmlGetLineNo(at);
		break;
	case A_GENERATOR:
		str = &rd->x->generator;
		rd->x->generator_line = xmlGetLineNo(at);
		break;
	default:
		return 0;
	}
	if (num && !ix_int(val, num))
		return bad(rd, at, "%s \"%.40s\" is not an integer",
			   attrs[a].name, val);
	if (str) {
		free(*str);
		*str = strdup(val);
		if (!*str)
			return no_memory(rd);
	}
	return 0;
}

/*
 * The keys' defaults where element @e (of @domain) has no <data>: kind
 * first, so that a host, a port rather than a node, takes no default
 * host ports or tier.
 */
static int set_defaults(struct reader *rd, xmlNode *e, unsigned int domain,
			struct values *v)
{
	uint64_t i;
	int a, ret = 0;

	for (a = A_NONE + 1; a < A__COUNT && !ret; a++) {
		if (v->set[a] || ((a == A_HOSTS || a == A_TIER) &&
				  v->node && v->node->kind == IX_HOST))
			continue;
		for (i = 0; i < rd->n_keys && !ret; i++)
			if (attr_of(&rd->keys[i], domain) == (enum attr)a &&
			    rd->keys[i].def)
				ret = set_value(rd, e, a,
						(const char *)rd->keys[i].def, v);
	}
	return ret;
}

/* The <data> of element @e (of @domain), then the keys' defaults. */
static int read_data(struct reader *rd, xmlNode *e, unsigned int domain,
		     struct values *v)
{
	const struct key *k;
	xmlChar *id, *text;
	enum attr a;
	xmlNode *c;
	int ret = 0;

	for_each_element(c, e) {
		if (ret || !is_gml(c, "data"))
			continue;
		id = xmlGetProp(c, (const xmlChar *)"key");
		k = id ? find_key(rd, id) : NULL;
		if (!id)
			ret = bad(rd, c, "<data> without a key");
		else if (!k)
			ret = bad(rd, c, "<data> key \"%.40s\" is not declared by a <key>",
				  (const char *)id);
		else if (!(k->domain & domain))
			ret = bad(rd, c, "<data> key \"%.40s\" is not for a %s",
				  (const char *)id, domain_name(domain));
		xmlFree(id);
		if (ret)
			break;
		a = attr_of(k, domain);
		if (a == A_NONE)
			continue;
		if (v->set[a])
			ret = bad(rd, c, "a second %s", attrs[a].name);
		else if (element(c->children))
			ret = bad(rd, c, "%s holds elements, not text",
				  attrs[a].name);
		if (ret)
			break;
		v->set[a] = true;
		text = xmlNodeGetContent(c);
		ret = text ? set_value(rd, c, a, (const char *)text, v) :
			     no_memory(rd);
		xmlFree(text);
	}
	return ret ? ret : set_defaults(rd, e, domain, v);
}

/* The children an element may have: <data>, <desc>, and none other. */
static int check_children(struct reader *rd, xmlNode *e)
{
	xmlNode *c;

	for_each_element(c, e) {
		if (is_gml(c, "data") || is_gml(c, "desc"))
			continue;
		if (is_gml(c, "graph"))
			return bad(rd, c, "a nested <graph>: not supported");
		if (is_gml(c, "port"))
			return bad(rd, c, "a <port>: not supported");
		return bad(rd, c, "unexpected <%.40s> in <%s>", elem_name(c),
			   elem_name(e));
	}
	return 0;
}

static int read_node(struct reader *rd, xmlNode *e)
{
	struct values v = { 0 };
	xmlChar *id;
	int ret;

	v.node = ix_add_node(rd->x, xmlGetLineNo(e));
	if (!v.node)
		return no_memory(rd);
	id = xmlGetProp(e, (const xmlChar *)"id");
	if (!id)
		return bad(rd, e, "<node> without an id");
	v.node->id = strdup((const char *)id);
	xmlFree(id);
	if (!v.node->id)
		return no_memory(rd);
	ret = check_children(rd, e);
	return ret ? ret : read_data(rd, e, FOR_NODE, &v);
}

static int read_edge(struct reader *rd, xmlNode *e)
{
	static const char *const refused[] = { "sourceport", "targetport" };
	struct values v = { 0 };
	xmlChar *p;
	size_t i;
	int ret;

	v.edge = ix_add_edge(rd->x, xmlGetLineNo(e));
	if (!v.edge)
		return no_memory(rd);
	p = xmlGetProp(e, (const xmlChar *)"directed");
	ret = p && xmlStrcmp(p, (const xmlChar *)"false") ?
	      bad(rd, e, "a directed edge: sluice links are undirected") : 0;
	xmlFree(p);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]) && !ret; i++)
		if (xmlHasProp(e, (const xmlChar *)refused[i]))
			ret = bad(rd, e, "%s: ports are not supported",
				  refused[i]);
	if (ret)
		return ret;
	p = xmlGetProp(e, (const xmlChar *)"source");
	v.edge->a = p ? strdup((const char *)p) : NULL;
	xmlFree(p);
	p = xmlGetProp(e, (const xmlChar *)"target");
	v.edge->b = p ? strdup((const char *)p) : NULL;
	xmlFree(p);
	if (!xmlHasProp(e, (const xmlChar *)"source") ||
	    !xmlHasProp(e, (const xmlChar *)"target"))
		return bad(rd, e, "<edge> without a %s",
			   v.edge->a ? "target" : "source");
	if (!v.edge->a || !v.edge->b)
		return no_memory(rd);
	ret = check_children(rd, e);
	return ret ? ret : read_data(rd, e, FOR_EDGE, &v);
}

static int read_graph(struct reader *rd, xmlNode *g)
{
	struct values v = { 0 };
	xmlChar *dir;
	xmlNode *c;
	int ret;

	dir = xmlGetProp(g, (const xmlChar *)"edgedefault");
	ret = !dir ? bad(rd, g, "<graph> without edgedefault=\"undirected\"") :
	      xmlStrcmp(dir, (const xmlChar *)"undirected") ?
	      bad(rd, g, "edgedefault \"%.40s\": sluice links are undirected",
		  (const char *)dir) : 0;
	xmlFree(dir);
	for_each_element(c, g) {
		if (ret)
			break;
		if (is_gml(c, "node"))
			ret = read_node(rd, c);
		else if (is_gml(c, "edge"))
			ret = read_edge(rd, c);
		else if (is_gml(c, "hyperedge"))
			ret = bad(rd, c, "a <hyperedge>: not supported");
		else if (!is_gml(c, "data") && !is_gml(c, "desc"))
			ret = bad(rd, c, "unexpected <%.40s> in <graph>",
				  elem_name(c));
	}
	return ret ? ret : read_data(rd, g, FOR_GRAPH, &v);
}

static int read_doc(struct reader *rd, xmlNode *root)
{
	xmlNode *c, *graph = NULL;
	int ret = 0;

	if (!is_gml(root, "graphml"))
		return bad(rd, root, "<%.40s> is not <graphml> (in the GraphML namespace)",
			   elem_name(root));
	for_each_element(c, root) {
		if (ret)
			break;
		if (is_gml(c, "key"))
			ret = read_key(rd, c);
		else if (is_gml(c, "graph") && graph)
			ret = bad(rd, c, "a second <graph>: a file holds one");
		else if (is_gml(c, "graph"))
			graph = c;
		else if (!is_gml(c, "data") && !is_gml(c, "desc"))
			ret = bad(rd, c, "unexpected <%.40s> in <graphml>",
				  elem_name(c));
	}
	if (!ret && !graph)
		ret = bad(rd, root, "no <graph> in <graphml>");
	return ret ? ret : read_graph(rd, graph);
}

int ix_read_graphml(struct ix_graph *x, const char *buf, size_t len,
		    char *err, size_t errlen)
{
	struct reader rd = { .x = x, .err = err, .errlen = errlen };
	xmlParserCtxt *ctxt;
	const xmlError *e;
	xmlDoc *doc;
	uint64_t i;
	int ret;

	if (len > INT_MAX)
		return sluice_i_errf(err, errlen, -E2BIG, "larger than %d bytes",
				     INT_MAX);
	ctxt = xmlNewParserCtxt();
	if (!ctxt)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	doc = xmlCtxtReadMemory(ctxt, buf, len, NULL, NULL,
				XML_PARSE_NONET | XML_PARSE_NOERROR |
				XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES);
	if (!doc) {
		e = xmlCtxtGetLastError(ctxt);
		ret = sluice_i_errf(err, errlen, -EINVAL,
				    "line %d: invalid XML: %.*s",
				    e ? e->line : 1,
				    e && e->message ?
				    (int)strcspn(e->message, "\n") : 7,
				    e && e->message ? e->message : "unknown");
	} else if (!xmlDocGetRootElement(doc)) {
		ret = sluice_i_errf(err, errlen, -EINVAL, "line 1: no element");
	} else {
		ret = read_doc(&rd, xmlDocGetRootElement(doc));
	}
	for (i = 0; i < rd.n_keys; i++) {
		xmlFree(rd.keys[i].id);
		xmlFree(rd.keys[i].name);
		xmlFree(rd.keys[i].def);
	}
	free(rd.keys);
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
	return ret;
}

void ix_write_graphml(const struct sluice_graph *g, FILE *f)
{
	static const char *const node_keys[] = { "kind", "hosts", "tier" };
	const struct sluice_node *n;
	const struct sluice_link *l;
	uint32_t u, id, i;

	/* names, kinds and generator words need no escaping (graph.c) */
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<graphml xmlns=\"" GRAPHML_NS "\">\n", f);
	if (g->family[0])
		fputs("  <key id=\"generator\" for=\"graph\" attr.name=\"generator\" attr.type=\"string\"/>\n",
		      f);
	if (g->n_layers)
		fputs("  <key id=\"layers\" for=\"graph\" attr.name=\"layers\" attr.type=\"string\"/>\n",
		      f);
	for (i = 0; i < 3; i++)
		fprintf(f, "  <key id=\"%s\" for=\"node\" attr.name=\"%s\" attr.type=\"%s\"/>\n",
			node_keys[i], node_keys[i], i ? "int" : "string");
	if (g->n_layers)
		fputs("  <key id=\"la\" for=\"edge\" attr.name=\"la\" attr.type=\"int\"/>\n"
		      "  <key id=\"lb\" for=\"edge\" attr.name=\"lb\" attr.type=\"int\"/>\n",
		      f);
	fputs("  <graph edgedefault=\"undirected\">\n", f);
	ix_write_graph_attrs(g, f, "    <data key=\"generator\">%s</data>\n",
			     "    <data key=\"layers\">%s</data>\n");
	for (u = 0; u < g->n_nodes; u++) {
		n = &g->nodes[u];
		fprintf(f, "    <node id=\"%s\"><data key=\"kind\">%s</data><data key=\"hosts\">%u</data>",
			n->name, sluice_node_kind_name(n->kind), n->hosts);
		if (n->tier)
			fprintf(f, "<data key=\"tier\">%u</data>", n->tier);
		fputs("</node>\n", f);
	}
	for (id = 0; id < g->n_links; id++) {
		l = &g->links[id];
		fprintf(f, "    <edge id=\"l%u\" source=\"%s\" target=\"%s\"", id,
			g->nodes[l->a].name, g->nodes[l->b].name);
		if (g->n_layers)
			fprintf(f, "><data key=\"la\">%u</data><data key=\"lb\">%u</data></edge>\n",
				l->la, l->lb);
		else
			fputs("/>\n", f);
	}
	fputs("  </graph>\n</graphml>\n", f);
}
