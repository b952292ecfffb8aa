// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The multigraph of a switch fabric: building, validating, the CSR
 * adjacency.  See sluice/graph.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/graph.h>
#include "internal.h"

int sluice_i_errf(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

void *sluice_i_calloc(size_t n, size_t size)
{
	if (!n || !size)
		return calloc(1, 1);
	if (n > SIZE_MAX / size)
		return NULL;
	return calloc(n, size);
}

/**
 * sluice_i_grow() - make room for @need elements in a growable array
 * @arr:	the array (NULL at first), realloc()ed
 * @size:	the size of an element
 * @cap:	the elements it has room for, updated
 * @need:	the elements it must have room for
 *
 * Doubles the capacity (from 64) until @need fits, so that appending n
 * elements one by one costs O(n) in all.
 *
 * Return: 0, or -ENOMEM with the array as it was.
 */
int sluice_i_grow(void **arr, size_t size, uint64_t *cap, uint64_t need)
{
	uint64_t n = *cap ? *cap : 64;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if (n > SIZE_MAX / size)
		return -ENOMEM;
	p = realloc(*arr, n * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

static int no_memory(char *err, size_t errlen)
{
	return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
}

static const char *const kind_names[] = {
	[SLUICE_NODE_SWITCH] = "switch",
	[SLUICE_NODE_SERVER] = "server",
};

/* See sluice/graph.h. */
int sluice_graph_node_find(const struct sluice_graph *g, const char *name,
			   size_t len, uint32_t *u)
{
	uint32_t i;

	for (i = 0; i < g->n_nodes; i++)
		if (!strncmp(g->nodes[i].name, name, len) &&
		    !g->nodes[i].name[len]) {
			*u = i;
			return 0;
		}
	return -ENOENT;
}

/**
 * sluice_node_kind_name() - the file's word for a node kind
 * @kind:	SLUICE_NODE_SWITCH or SLUICE_NODE_SERVER
 *
 * Return: "switch", "server", or "?" for anything else.
 */
const char *sluice_node_kind_name(enum sluice_node_kind kind)
{
	if ((unsigned int)kind >= sizeof(kind_names) / sizeof(kind_names[0]))
		return "?";
	return kind_names[kind];
}

/**
 * sluice_node_kind_parse() - read a node kind
 * @name:	"switch" or "server"
 *
 * Return: the enum sluice_node_kind, or -EINVAL.
 */
int sluice_node_kind_parse(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (!strcmp(name, kind_names[i]))
			return i;
	return -EINVAL;
}

/**
 * sluice_graph_init() - an empty graph of @n_nodes unnamed nodes, no links
 * @g:		the graph, overwritten
 * @n_nodes:	1 to SLUICE_NODES_MAX
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Every node must be given a name with sluice_graph_set_node() before
 * sluice_graph_finalize().  Free with sluice_graph_free(), even on failure.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_graph_init(struct sluice_graph *g, uint32_t n_nodes,
		      char *err, size_t errlen)
{
	memset(g, 0, sizeof(*g));
	if (!n_nodes || n_nodes > SLUICE_NODES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "a graph has 1 to %u nodes, not %u",
				     SLUICE_NODES_MAX, n_nodes);
	g->nodes = sluice_i_calloc(n_nodes, sizeof(*g->nodes));
	if (!g->nodes)
		return no_memory(err, errlen);
	g->n_nodes = n_nodes;
	return 0;
}

/**
 * sluice_graph_copy() - a graph of its own, equal to @src
 * @dst:	overwritten; all zeroes on failure
 * @src:	any graph, finalized or not
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * For a holder that outlives the original or frees it on its own (a
 * fabric's state keeps its own topology).  Free with sluice_graph_free().
 *
 * Return: 0 or -ENOMEM.
 */
int sluice_graph_copy(struct sluice_graph *dst, const struct sluice_graph *src,
		      char *err, size_t errlen)
{
	*dst = *src;
	dst->nodes = NULL;
	dst->links = NULL;
	dst->off = NULL;
	dst->adj = NULL;
	/* one more element than needed, so that an empty array is not NULL */
	dst->nodes = sluice_i_calloc(src->n_nodes + 1, sizeof(*dst->nodes));
	dst->links = sluice_i_calloc(src->links_cap + 1, sizeof(*dst->links));
	if (!dst->nodes || !dst->links)
		goto nomem;
	memcpy(dst->nodes, src->nodes, src->n_nodes * sizeof(*dst->nodes));
	memcpy(dst->links, src->links, src->n_links * sizeof(*dst->links));
	if (src->off) {
		dst->off = sluice_i_calloc(src->n_nodes + 1, sizeof(*dst->off));
		if (!dst->off)
			goto nomem;
		memcpy(dst->off, src->off,
		       (src->n_nodes + 1) * sizeof(*dst->off));
	}
	if (src->adj) {
		dst->adj = sluice_i_calloc(2 * (size_t)src->n_links + 1,
					   sizeof(*dst->adj));
		if (!dst->adj)
			goto nomem;
		memcpy(dst->adj, src->adj,
		       2 * (size_t)src->n_links * sizeof(*dst->adj));
	}
	return 0;
nomem:
	sluice_graph_free(dst);
	return no_memory(err, errlen);
}

/**
 * sluice_graph_free() - release what a graph holds
 * @g:		the graph; may be all zeroes; left all zeroes
 */
void sluice_graph_free(struct sluice_graph *g)
{
	free(g->nodes);
	free(g->links);
	free(g->off);
	free(g->adj);
	memset(g, 0, sizeof(*g));
}

/*
 * Names end up in files, on command lines and in Graphviz: letters, digits
 * and "-_.:/" keep them safe in all three without quoting.  The first is a
 * letter or digit, so that no name reads as an option ("-o") or as the
 * route file's "-" for no node.
 */
/**
 * sluice_node_name_valid() - whether @name can name a node
 * @name:	the name
 *
 * Return: true for 1 to SLUICE_NAME_MAX - 1 letters, digits or "-_.:/",
 * the first a letter or digit.
 */
bool sluice_node_name_valid(const char *name)
{
	size_t len = strlen(name);
	const char *p;

	if (!len || len >= SLUICE_NAME_MAX || !isalnum((unsigned char)*name))
		return false;
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("-_.:/", *p)))
			return false;
	return true;
}

/**
 * sluice_graph_set_node() - name and describe node @u
 * @g:		the graph
 * @u:		the node
 * @name:	1 to SLUICE_NAME_MAX - 1 letters, digits or "-_.:/", the first
 *		a letter or digit, unique
 *		(checked by sluice_graph_finalize())
 * @kind:	switch or server
 * @hosts:	host ports, at most SLUICE_HOSTS_MAX
 * @tier:	Clos tier (1 ToR, 2 spine/aggregation, 3 core), 0 if none
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0 or -EINVAL.
 */
int sluice_graph_set_node(struct sluice_graph *g, uint32_t u,
			  const char *name, enum sluice_node_kind kind,
			  uint32_t hosts, uint8_t tier,
			  char *err, size_t errlen)
{
	struct sluice_node *n;

	if (u >= g->n_nodes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "nodes[%u]: no such node", u);
	if (!sluice_node_name_valid(name))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "nodes[%u].name: \"%.40s\" is not 1 to %d letters, digits or -_.:/ starting with a letter or digit",
				     u, name, SLUICE_NAME_MAX - 1);
	if ((unsigned int)kind > SLUICE_NODE_SERVER)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "nodes[%u].kind: unknown kind", u);
	if (hosts > SLUICE_HOSTS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "nodes[%u].hosts: %u is more than %u",
				     u, hosts, SLUICE_HOSTS_MAX);
	if (tier > 3)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "nodes[%u].tier: %u is not 0 to 3", u, tier);
	n = &g->nodes[u];
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->kind = kind;
	n->hosts = hosts;
	n->tier = tier;
	return 0;
}

static int grow_links(struct sluice_graph *g)
{
	uint32_t cap = g->links_cap ? 2 * g->links_cap : 64;
	struct sluice_link *links;

	if (cap > SLUICE_LINKS_MAX)
		cap = SLUICE_LINKS_MAX;
	links = realloc(g->links, (size_t)cap * sizeof(*links));
	if (!links)
		return -ENOMEM;
	g->links = links;
	g->links_cap = cap;
	return 0;
}

/**
 * sluice_graph_add_link() - add a link between nodes @a and @b
 * @g:		the graph
 * @a:		one end
 * @b:		the other, not @a
 * @la:		FC virtual layer of the port at @a, 0 if none
 * @lb:		FC virtual layer of the port at @b, 0 if none
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Layers are checked against the graph's layers by sluice_graph_finalize().
 *
 * Return: the new link's id, or -EINVAL or -ENOMEM.
 */
int sluice_graph_add_link(struct sluice_graph *g, uint32_t a, uint32_t b,
			  uint8_t la, uint8_t lb, char *err, size_t errlen)
{
	uint32_t id = g->n_links;

	if (a >= g->n_nodes || b >= g->n_nodes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "links[%u]: node %u does not exist (%u nodes)",
				     id, a >= g->n_nodes ? a : b, g->n_nodes);
	if (a == b)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "links[%u]: a and b are both node %u (a loop)",
				     id, a);
	if (id >= SLUICE_LINKS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "links[%u]: more than %u links", id,
				     SLUICE_LINKS_MAX);
	if (id == g->links_cap && grow_links(g))
		return no_memory(err, errlen);
	g->links[id] = (struct sluice_link){ a, b, la, lb };
	g->n_links++;
	g->finalized = false;
	return id;
}

/**
 * sluice_graph_set_layers() - make @g an FC fabric of @n_layers virtual layers
 * @g:		the graph
 * @n_layers:	k, 2 to SLUICE_LAYERS_MAX
 * @layer_ports: ports of each layer, from layer 1 up, each at least 1
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0 or -EINVAL.
 */
int sluice_graph_set_layers(struct sluice_graph *g, uint32_t n_layers,
			    const uint32_t *layer_ports,
			    char *err, size_t errlen)
{
	uint32_t j;

	if (n_layers < 2 || n_layers > SLUICE_LAYERS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "layers: %u layers, not 2 to %u",
				     n_layers, SLUICE_LAYERS_MAX);
	for (j = 0; j < n_layers; j++)
		if (!layer_ports[j] || layer_ports[j] > SLUICE_HOSTS_MAX)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "layers[%u]: %u ports, not 1 to %u",
					     j, layer_ports[j], SLUICE_HOSTS_MAX);
	g->n_layers = n_layers;
	memcpy(g->layer_ports, layer_ports, n_layers * sizeof(*layer_ports));
	g->finalized = false;
	return 0;
}

static bool valid_word(const char *s, size_t max)
{
	size_t len = strlen(s);
	const char *p;

	if (!len || len >= max)
		return false;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '_' || *p == '-'))
			return false;
	return true;
}

/**
 * sluice_graph_set_family() - record which generator made @g
 * @g:		the graph
 * @family:	"fc", "jellyfish"...: 1 to SLUICE_FAMILY_MAX - 1 of a-z0-9_-
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0 or -EINVAL.
 */
int sluice_graph_set_family(struct sluice_graph *g, const char *family,
			    char *err, size_t errlen)
{
	if (!valid_word(family, SLUICE_FAMILY_MAX))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "generator.family: \"%.40s\" is not 1 to %d of a-z 0-9 _ -",
				     family, SLUICE_FAMILY_MAX - 1);
	snprintf(g->family, sizeof(g->family), "%s", family);
	return 0;
}

/**
 * sluice_graph_set_seed() - record the seed @g was generated from
 * @g:		the graph
 * @seed:	the seed
 */
void sluice_graph_set_seed(struct sluice_graph *g, uint64_t seed)
{
	g->has_seed = true;
	g->seed = seed;
}

/**
 * sluice_graph_add_param() - record a generator parameter
 * @g:		the graph
 * @name:	1 to SLUICE_PARAM_NAME_MAX - 1 of a-z0-9_-, not yet recorded,
 *		not "family" nor "seed"
 * @value:	its value
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL, -EEXIST, or -E2BIG past SLUICE_PARAMS_MAX.
 */
int sluice_graph_add_param(struct sluice_graph *g, const char *name,
			   uint64_t value, char *err, size_t errlen)
{
	uint32_t i;

	if (!valid_word(name, SLUICE_PARAM_NAME_MAX) ||
	    !strcmp(name, "family") || !strcmp(name, "seed"))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "generator.%.40s: not a parameter name",
				     name);
	for (i = 0; i < g->n_params; i++)
		if (!strcmp(g->params[i].name, name))
			return sluice_i_errf(err, errlen, -EEXIST,
					     "generator.%s: given twice", name);
	if (g->n_params == SLUICE_PARAMS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "generator.%s: more than %d parameters",
				     name, SLUICE_PARAMS_MAX);
	snprintf(g->params[i].name, sizeof(g->params[i].name), "%s", name);
	g->params[i].value = value;
	g->n_params++;
	return 0;
}

static const struct sluice_graph *cmp_graph;

static int cmp_node_name(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	int c = strcmp(cmp_graph->nodes[a].name, cmp_graph->nodes[b].name);

	return c ? c : (a > b) - (a < b);
}

/* Names: all set (the builder cannot leave one empty) and distinct. */
static int check_names(const struct sluice_graph *g, char *err, size_t errlen)
{
	uint32_t *order, u;
	int ret = 0;

	for (u = 0; u < g->n_nodes; u++)
		if (!g->nodes[u].name[0])
			return sluice_i_errf(err, errlen, -EINVAL,
					     "nodes[%u]: has no name", u);
	order = sluice_i_calloc(g->n_nodes, sizeof(*order));
	if (!order)
		return no_memory(err, errlen);
	for (u = 0; u < g->n_nodes; u++)
		order[u] = u;
	/* qsort() has no context argument; the library is not threaded here. */
	cmp_graph = g;
	qsort(order, g->n_nodes, sizeof(*order), cmp_node_name);
	for (u = 1; u < g->n_nodes && !ret; u++)
		if (!strcmp(g->nodes[order[u]].name, g->nodes[order[u - 1]].name))
			ret = sluice_i_errf(err, errlen, -EINVAL,
					    "nodes[%u].name: \"%s\" is already the name of nodes[%u]",
					    order[u], g->nodes[order[u]].name,
					    order[u - 1]);
	free(order);
	return ret;
}

static int check_link_layers(const struct sluice_graph *g, uint32_t id,
			     char *err, size_t errlen)
{
	const struct sluice_link *l = &g->links[id];

	if (!g->n_layers) {
		if (l->la || l->lb)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "links[%u]: has layers but the topology has none",
					     id);
		return 0;
	}
	if (!l->la || l->la > g->n_layers || !l->lb || l->lb > g->n_layers)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "links[%u].%s: layer %u is not 1 to %u", id,
				     !l->la || l->la > g->n_layers ? "la" : "lb",
				     !l->la || l->la > g->n_layers ? l->la : l->lb,
				     g->n_layers);
	if (l->la + 1 != l->lb && l->lb + 1 != l->la)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "links[%u]: joins layers %u and %u, which are not adjacent",
				     id, l->la, l->lb);
	return 0;
}

/* FC: no node uses more ports of a layer than the layer has. */
static int check_layer_ports(const struct sluice_graph *g,
			     char *err, size_t errlen)
{
	uint32_t *used, id, u, j, k = g->n_layers;
	int ret = 0;

	used = sluice_i_calloc((size_t)g->n_nodes * k, sizeof(*used));
	if (!used)
		return no_memory(err, errlen);
	for (id = 0; id < g->n_links && !ret; id++) {
		const struct sluice_link *l = &g->links[id];

		for (j = 0; j < 2 && !ret; j++) {
			u = j ? l->b : l->a;
			if (++used[(size_t)u * k + (j ? l->lb : l->la) - 1] >
			    g->layer_ports[(j ? l->lb : l->la) - 1])
				ret = sluice_i_errf(err, errlen, -EINVAL,
						    "links[%u]: nodes[%u] has only %u ports in layer %u",
						    id, u,
						    g->layer_ports[(j ? l->lb : l->la) - 1],
						    j ? l->lb : l->la);
		}
	}
	free(used);
	return ret;
}

static int check_links(const struct sluice_graph *g, char *err, size_t errlen)
{
	uint32_t id;
	int ret;

	for (id = 0; id < g->n_links; id++) {
		const struct sluice_link *l = &g->links[id];

		if (l->a >= g->n_nodes || l->b >= g->n_nodes || l->a == l->b)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "links[%u]: bad ends %u and %u",
					     id, l->a, l->b);
		ret = check_link_layers(g, id, err, errlen);
		if (ret)
			return ret;
	}
	return g->n_layers ? check_layer_ports(g, err, errlen) : 0;
}

/* Counting sort of link ends by node: each node's links in id order. */
static int build_csr(struct sluice_graph *g, char *err, size_t errlen)
{
	uint32_t *pos, u, id;

	free(g->off);
	free(g->adj);
	g->off = sluice_i_calloc((size_t)g->n_nodes + 1, sizeof(*g->off));
	g->adj = sluice_i_calloc((size_t)g->n_links * 2, sizeof(*g->adj));
	pos = sluice_i_calloc(g->n_nodes, sizeof(*pos));
	if (!g->off || !g->adj || !pos) {
		free(pos);
		return no_memory(err, errlen);
	}
	for (id = 0; id < g->n_links; id++) {
		g->off[g->links[id].a + 1]++;
		g->off[g->links[id].b + 1]++;
	}
	for (u = 0; u < g->n_nodes; u++) {
		g->off[u + 1] += g->off[u];
		pos[u] = g->off[u];
	}
	for (id = 0; id < g->n_links; id++) {
		const struct sluice_link *l = &g->links[id];

		g->adj[pos[l->a]++] = (struct sluice_adj){ id, l->b };
		g->adj[pos[l->b]++] = (struct sluice_adj){ id, l->a };
	}
	free(pos);
	return 0;
}

/**
 * sluice_graph_finalize() - validate @g and build its adjacency arrays
 * @g:		the graph
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Checks that every node is named, names are unique, links join two
 * distinct existing nodes, and, in an FC fabric, that each link joins
 * adjacent virtual layers and no node uses more ports of a layer than it has.
 *
 * Return: 0, -EINVAL or -ENOMEM; @g stays unfinalized on failure.
 */
int sluice_graph_finalize(struct sluice_graph *g, char *err, size_t errlen)
{
	int ret;

	g->finalized = false;
	ret = check_names(g, err, errlen);
	if (!ret)
		ret = check_links(g, err, errlen);
	if (!ret)
		ret = build_csr(g, err, errlen);
	if (!ret)
		g->finalized = true;
	return ret;
}
