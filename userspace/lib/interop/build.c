// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * From what a foreign topology reader found to a sluice topology: the
 * mapping rules of sluice/interop.h, applied in one place for every format,
 * and the public entry points that pick the reader or the writer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/file.h>
#include <sluice/interop.h>
#include "internal.h"

/* A file larger than this is refused, as the topology file's reader does. */
#define IMPORT_FILE_MAX		(1ull << 30)

static const char *const topo_formats[] = {
	[SLUICE_TOPO_GRAPHML]	= "graphml",
	[SLUICE_TOPO_GML]	= "gml",
	[SLUICE_TOPO_EDGES]	= "edges",
};

_Static_assert(sizeof(topo_formats) / sizeof(topo_formats[0]) ==
	       SLUICE_TOPO__COUNT, "every topology format needs a name");

const char *ix_word(const char *const *words, int n, int i)
{
	return i >= 0 && i < n ? words[i] : "?";
}

int ix_word_parse(const char *const *words, int n, const char *w)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(w, words[i]))
			return i;
	return -EINVAL;
}

const char *sluice_topo_format_name(enum sluice_topo_format fmt)
{
	return ix_word(topo_formats, SLUICE_TOPO__COUNT, fmt);
}

int sluice_topo_format_parse(const char *name)
{
	return ix_word_parse(topo_formats, SLUICE_TOPO__COUNT, name);
}

struct ix_node *ix_add_node(struct ix_graph *x, uint64_t line)
{
	struct ix_node *n;

	if (SLUICE_I_GROW(x->nodes, x->cap_nodes, x->n_nodes + 1))
		return NULL;
	n = &x->nodes[x->n_nodes++];
	*n = (struct ix_node){
		.kind = IX_KIND_ABSENT, .hosts = IX_ABSENT, .tier = IX_ABSENT,
		.line = line,
	};
	return n;
}

struct ix_edge *ix_add_edge(struct ix_graph *x, uint64_t line)
{
	struct ix_edge *e;

	if (SLUICE_I_GROW(x->edges, x->cap_edges, x->n_edges + 1))
		return NULL;
	e = &x->edges[x->n_edges++];
	*e = (struct ix_edge){ .la = IX_ABSENT, .lb = IX_ABSENT, .line = line };
	return e;
}

void ix_free(struct ix_graph *x)
{
	uint64_t i;

	for (i = 0; i < x->n_nodes; i++) {
		free(x->nodes[i].id);
		free(x->nodes[i].label);
	}
	for (i = 0; i < x->n_edges; i++) {
		free(x->edges[i].a);
		free(x->edges[i].b);
	}
	free(x->nodes);
	free(x->edges);
	free(x->layers);
	free(x->generator);
	memset(x, 0, sizeof(*x));
}

int ix_kind_parse(const char *s)
{
	if (!strcmp(s, "switch"))
		return IX_SWITCH;
	if (!strcmp(s, "server"))
		return IX_SERVER;
	if (!strcmp(s, "host"))
		return IX_HOST;
	return -EINVAL;
}

bool ix_int(const char *s, int64_t *v)
{
	bool neg = *s == '-';
	uint64_t x = 0, max = neg ? (uint64_t)INT64_MAX + 1 : INT64_MAX;
	const char *p = s + (*s == '-' || *s == '+');

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = *p - '0';

		if (x > (max - d) / 10)
			return false;
		x = x * 10 + d;
	}
	if (*p)
		return false;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return true;
}

/* What ix_build() works with, besides the reader's graph. */
struct build {
	struct ix_graph			*x;
	struct sluice_topo_import_info	*info;
	uint64_t	*order;		/* node indexes by (id, index) */
	uint64_t	*rep;		/* each node: the first of its id */
	uint64_t	*ea, *eb;	/* each edge: its ends' rep */
	uint32_t	*links;		/* each node: its links (hosts) */
	uint64_t	*peer;		/* each host: the node it joins */
	uint32_t	*added;		/* each node: host ports folded in */
	uint32_t	*final;		/* each kept node: its index in @g */
	char		*err;
	size_t		errlen;
};

static int no_memory(struct build *b)
{
	return sluice_i_errf(b->err, b->errlen, -ENOMEM, "out of memory");
}

/* qsort_r()'s context: the nodes, or the names (by_label) to compare. */
static int by_id(const void *p, const void *q, void *arg)
{
	const struct ix_node *n = arg;
	uint64_t i = *(const uint64_t *)p, j = *(const uint64_t *)q;
	int c = strcmp(n[i].id, n[j].id);

	return c ? c : (i > j) - (i < j);
}

/* The rep of the node named @id, or UINT64_MAX. */
static uint64_t find(const struct build *b, const char *id)
{
	uint64_t lo = 0, hi = b->x->n_nodes, mid;

	/* the first of the sorted order whose id is not below @id */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(b->x->nodes[b->order[mid]].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == b->x->n_nodes || strcmp(b->x->nodes[b->order[lo]].id, id))
		return UINT64_MAX;
	return b->order[lo];
}

/* Sorts the nodes by id: repeated ids are one node (edge lists) or errors. */
static int index_nodes(struct build *b)
{
	struct ix_graph *x = b->x;
	struct ix_node *n, *first;
	uint64_t i, j, k;

	for (i = 0; i < x->n_nodes; i++)
		b->order[i] = i;
	qsort_r(b->order, x->n_nodes, sizeof(*b->order), by_id, x->nodes);
	for (i = 0; i < x->n_nodes; i = j) {
		first = &x->nodes[b->order[i]];
		for (j = i; j < x->n_nodes &&
		     !strcmp(x->nodes[b->order[j]].id, first->id); j++) {
			k = b->order[j];
			b->rep[k] = b->order[i];
			n = &x->nodes[k];
			if (j > i && !x->implicit)
				return sluice_i_errf(b->err, b->errlen, -EINVAL,
						     "line %" PRIu64 ": node \"%.40s\" is already on line %" PRIu64,
						     n->line, n->id,
						     first->line);
		}
	}
	return 0;
}

static int resolve_edges(struct build *b)
{
	struct ix_graph *x = b->x;
	uint64_t i;

	for (i = 0; i < x->n_edges; i++) {
		const struct ix_edge *e = &x->edges[i];

		b->ea[i] = find(b, e->a);
		b->eb[i] = find(b, e->b);
		if (b->ea[i] == UINT64_MAX || b->eb[i] == UINT64_MAX)
			return sluice_i_errf(b->err, b->errlen, -EINVAL,
					     "line %" PRIu64 ": edge: no node \"%.40s\"",
					     e->line,
					     b->ea[i] == UINT64_MAX ? e->a : e->b);
		if (b->ea[i] == b->eb[i])
			return sluice_i_errf(b->err, b->errlen, -EINVAL,
					     "line %" PRIu64 ": edge from \"%.40s\" to itself: a link joins two nodes",
					     e->line, e->a);
	}
	return 0;
}

static bool is_host(const struct build *b, uint64_t i)
{
	return b->x->nodes[i].kind == IX_HOST;
}

/* Hosts: each joins exactly one node that is no host, as a host port. */
static int fold_hosts(struct build *b)
{
	struct ix_graph *x = b->x;
	uint64_t i, h, other;

	for (i = 0; i < x->n_edges; i++) {
		if (is_host(b, b->ea[i]) && is_host(b, b->eb[i]))
			return sluice_i_errf(b->err, b->errlen, -EINVAL,
					     "line %" PRIu64 ": edge between hosts \"%.40s\" and \"%.40s\": a host joins a switch or a server",
					     x->edges[i].line, x->edges[i].a,
					     x->edges[i].b);
		h = is_host(b, b->ea[i]) ? b->ea[i] :
		    is_host(b, b->eb[i]) ? b->eb[i] : UINT64_MAX;
		if (h == UINT64_MAX)
			continue;
		other = h == b->ea[i] ? b->eb[i] : b->ea[i];
		b->links[h]++;
		b->peer[h] = other;
	}
	for (i = 0; i < x->n_nodes; i++) {
		const struct ix_node *n = &x->nodes[i];

		if (b->rep[i] != i || n->kind != IX_HOST)
			continue;
		if (n->hosts != IX_ABSENT || n->tier != IX_ABSENT)
			return sluice_i_errf(b->err, b->errlen, -EINVAL,
					     "line %" PRIu64 ": host \"%.40s\" has %s: a host is a port of a node, not a node",
					     n->line, n->id,
					     n->hosts != IX_ABSENT ? "hosts" : "a tier");
		if (b->links[i] != 1)
			return sluice_i_errf(b->err, b->errlen, -EINVAL,
					     "line %" PRIu64 ": host \"%.40s\" has %u links: a host joins exactly one node",
					     n->line, n->id, b->links[i]);
		b->added[b->peer[i]]++;
		b->info->host_nodes++;
	}
	return 0;
}

static int cmp_str(const void *p, const void *q)
{
	return strcmp(*(char *const *)p, *(char *const *)q);
}

/* GML: whether the labels can name the nodes (all there, valid, unique). */
static int labels_usable(struct build *b, bool *usable)
{
	struct ix_graph *x = b->x;
	uint64_t i, n = 0;
	bool any = false;
	char **names;

	*usable = true;
	for (i = 0; i < x->n_nodes; i++) {
		if (x->nodes[i].kind == IX_HOST)
			continue;
		any |= x->nodes[i].label != NULL;
		if (!x->nodes[i].label ||
		    !sluice_node_name_valid(x->nodes[i].label))
			*usable = false;
	}
	if (*usable) {
		names = sluice_i_calloc(x->n_nodes, sizeof(*names));
		if (!names)
			return no_memory(b);
		for (i = 0; i < x->n_nodes; i++)
			if (x->nodes[i].kind != IX_HOST)
				names[n++] = x->nodes[i].label;
		qsort(names, n, sizeof(*names), cmp_str);
		for (i = 1; i < n && *usable; i++)
			*usable = strcmp(names[i - 1], names[i]) != 0;
		free(names);
	}
	b->info->named_by_id = any && !*usable;
	return 0;
}

static int set_nodes(struct build *b, struct sluice_graph *g)
{
	struct ix_graph *x = b->x;
	uint32_t n_final = 0, u;
	bool labels = false;
	const char *name;
	uint64_t i, hosts;
	int ret;

	if (x->by_label) {
		ret = labels_usable(b, &labels);
		if (ret)
			return ret;
	}
	for (i = 0; i < x->n_nodes; i++) {
		if (b->rep[i] != i || x->nodes[i].kind == IX_HOST)
			continue;
		if (n_final == SLUICE_NODES_MAX)
			return sluice_i_errf(b->err, b->errlen, -E2BIG,
					     "line %" PRIu64 ": more than %u nodes",
					     x->nodes[i].line,
					     SLUICE_NODES_MAX);
		b->final[i] = n_final++;
	}
	/* a host joins a node that is none: only an empty file has none */
	if (!n_final)
		return sluice_i_errf(b->err, b->errlen, -EINVAL, "no nodes");
	ret = sluice_graph_init(g, n_final, b->err, b->errlen);
	for (i = 0; i < x->n_nodes && !ret; i++) {
		const struct ix_node *n = &x->nodes[i];

		if (b->rep[i] != i || n->kind == IX_HOST)
			continue;
		name = labels ? n->label : n->id;
		u = b->final[i];
		if (!sluice_node_name_valid(name))
			return sluice_i_errf(b->err, b->errlen, -EINVAL,
					     "line %" PRIu64 ": node \"%.40s\": not a sluice node name (1 to %d letters, digits or -_.:/, the first a letter or digit)",
					     n->line, name, SLUICE_NAME_MAX - 1);
		if (n->hosts != IX_ABSENT &&
		    (n->hosts < 0 || n->hosts > SLUICE_HOSTS_MAX))
			return sluice_i_errf(b->err, b->errlen, -EINVAL,
					     "line %" PRIu64 ": node \"%.40s\": hosts %" PRId64 " is not 0 to %u",
					     n->line, name, n->hosts,
					     SLUICE_HOSTS_MAX);
		hosts = (n->hosts == IX_ABSENT ? 0 : n->hosts) + b->added[i];
		if (hosts > SLUICE_HOSTS_MAX)
			return sluice_i_errf(b->err, b->errlen, -EINVAL,
					     "line %" PRIu64 ": node \"%.40s\": %" PRIu64 " host ports with its host nodes, more than %u",
					     n->line, name, hosts,
					     SLUICE_HOSTS_MAX);
		if (n->tier != IX_ABSENT && (n->tier < 0 || n->tier > 3))
			return sluice_i_errf(b->err, b->errlen, -EINVAL,
					     "line %" PRIu64 ": node \"%.40s\": tier %" PRId64 " is not 0 to 3",
					     n->line, name, n->tier);
		ret = sluice_graph_set_node(g, u, name,
					    n->kind == IX_SERVER ?
					    SLUICE_NODE_SERVER : SLUICE_NODE_SWITCH,
					    hosts, n->tier == IX_ABSENT ? 0 : n->tier,
					    b->err, b->errlen);
	}
	return ret;
}

/* "3,6,6,3": 2 to SLUICE_LAYERS_MAX port counts. */
static int set_layers(struct build *b, struct sluice_graph *g)
{
	const char *s = b->x->layers;
	uint32_t ports[SLUICE_LAYERS_MAX], n = 0;
	char *end;
	unsigned long v;

	if (!s)
		return 0;
	for (;;) {
		if (*s < '0' || *s > '9' || n == SLUICE_LAYERS_MAX)
			break;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || !v || v > SLUICE_HOSTS_MAX)
			break;
		ports[n++] = v;
		s = end;
		if (!*s && n >= 2)
			return sluice_graph_set_layers(g, n, ports, b->err,
						       b->errlen);
		if (*s++ != ',')
			break;
	}
	return sluice_i_errf(b->err, b->errlen, -EINVAL,
			     "line %" PRIu64 ": layers \"%.40s\": not 2 to %d port counts of 1 to %u, comma-separated",
			     b->x->layers_line, b->x->layers, SLUICE_LAYERS_MAX,
			     SLUICE_HOSTS_MAX);
}

static int layer_of(struct build *b, const struct ix_edge *e, int64_t l,
		    bool layered, uint8_t *out)
{
	*out = 0;
	if (!layered && l == IX_ABSENT)
		return 0;
	if (!layered)
		return sluice_i_errf(b->err, b->errlen, -EINVAL,
				     "line %" PRIu64 ": edge: la and lb are FC layers, but the graph has no layers",
				     e->line);
	if (l == IX_ABSENT)
		return sluice_i_errf(b->err, b->errlen, -EINVAL,
				     "line %" PRIu64 ": edge: la and lb are needed: the graph has layers",
				     e->line);
	if (l < 1 || l > SLUICE_LAYERS_MAX)
		return sluice_i_errf(b->err, b->errlen, -EINVAL,
				     "line %" PRIu64 ": edge: layer %" PRId64 " is not 1 to %d",
				     e->line, l, SLUICE_LAYERS_MAX);
	*out = l;
	return 0;
}

static int add_links(struct build *b, struct sluice_graph *g)
{
	struct ix_graph *x = b->x;
	uint8_t la, lb;
	uint64_t i;
	int ret = 0;

	for (i = 0; i < x->n_edges && !ret; i++) {
		const struct ix_edge *e = &x->edges[i];

		if (is_host(b, b->ea[i]) || is_host(b, b->eb[i]))
			continue;
		ret = layer_of(b, e, e->la, g->n_layers, &la);
		if (!ret)
			ret = layer_of(b, e, e->lb, g->n_layers, &lb);
		if (!ret)
			ret = sluice_graph_add_link(g, b->final[b->ea[i]],
						    b->final[b->eb[i]], la, lb,
						    b->err, b->errlen);
		ret = ret < 0 ? ret : 0;
	}
	return ret;
}

/* "fc seed=1 switches=50": the family, then NAME=VALUE, one space apart. */
static int set_generator(struct build *b, struct sluice_graph *g)
{
	char *s = b->x->generator, *word, *eq, *end, msg[SLUICE_ERRLEN];
	unsigned long long v;
	int ret;

	if (!s)
		return 0;
	word = strsep(&s, " ");
	ret = sluice_graph_set_family(g, word, msg, sizeof(msg));
	while (!ret && s) {
		word = strsep(&s, " ");
		eq = strchr(word, '=');
		if (!eq || eq[1] < '0' || eq[1] > '9' ||
		    (eq[1] == '0' && eq[2])) {
			snprintf(msg, sizeof(msg), "\"%.40s\" is not NAME=VALUE",
				 word);
			ret = -EINVAL;
			break;
		}
		*eq = '\0';
		errno = 0;
		v = strtoull(eq + 1, &end, 10);
		if (errno || *end) {
			snprintf(msg, sizeof(msg), "%.40s: not a number from 0 to %llu",
				 word, (unsigned long long)UINT64_MAX);
			ret = -EINVAL;
			break;
		}
		if (!strcmp(word, "seed"))
			sluice_graph_set_seed(g, v);
		else
			ret = sluice_graph_add_param(g, word, v, msg,
						     sizeof(msg));
	}
	if (ret)
		return sluice_i_errf(b->err, b->errlen, ret,
				     "line %" PRIu64 ": generator: %s",
				     b->x->generator_line, msg);
	return 0;
}

int ix_build(struct ix_graph *x, struct sluice_graph *g,
	     struct sluice_topo_import_info *info, char *err, size_t errlen)
{
	struct build b = { .x = x, .info = info, .err = err,
			   .errlen = errlen };
	uint64_t n = x->n_nodes ? x->n_nodes : 1;
	uint64_t m = x->n_edges ? x->n_edges : 1;
	int ret;

	memset(g, 0, sizeof(*g));
	memset(info, 0, sizeof(*info));
	b.order = sluice_i_calloc(n, sizeof(*b.order));
	b.rep = sluice_i_calloc(n, sizeof(*b.rep));
	b.peer = sluice_i_calloc(n, sizeof(*b.peer));
	b.links = sluice_i_calloc(n, sizeof(*b.links));
	b.added = sluice_i_calloc(n, sizeof(*b.added));
	b.final = sluice_i_calloc(n, sizeof(*b.final));
	b.ea = sluice_i_calloc(m, sizeof(*b.ea));
	b.eb = sluice_i_calloc(m, sizeof(*b.eb));
	if (!b.order || !b.rep || !b.peer || !b.links || !b.added ||
	    !b.final || !b.ea || !b.eb)
		ret = no_memory(&b);
	else
		ret = index_nodes(&b);
	if (!ret)
		ret = resolve_edges(&b);
	if (!ret)
		ret = fold_hosts(&b);
	if (!ret)
		ret = set_nodes(&b, g);
	if (!ret)
		ret = set_layers(&b, g);
	if (!ret)
		ret = add_links(&b, g);
	if (!ret)
		ret = set_generator(&b, g);
	if (!ret)
		ret = sluice_graph_finalize(g, err, errlen);
	free(b.order);
	free(b.rep);
	free(b.peer);
	free(b.links);
	free(b.added);
	free(b.final);
	free(b.ea);
	free(b.eb);
	if (ret) {
		sluice_graph_free(g);
		memset(info, 0, sizeof(*info));
	}
	return ret;
}

int sluice_topo_import_buf(struct sluice_graph *g, enum sluice_topo_format fmt,
			   const char *buf, size_t len,
			   struct sluice_topo_import_info *info,
			   char *err, size_t errlen)
{
	struct sluice_topo_import_info scratch;
	struct ix_graph x = { 0 };
	int ret;

	memset(g, 0, sizeof(*g));
	if (!info)
		info = &scratch;
	memset(info, 0, sizeof(*info));
	if (len > IMPORT_FILE_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "larger than %llu bytes", IMPORT_FILE_MAX);
	switch (fmt) {
	case SLUICE_TOPO_GRAPHML:
		ret = ix_read_graphml(&x, buf, len, err, errlen);
		break;
	case SLUICE_TOPO_GML:
		ret = ix_read_gml(&x, buf, len, err, errlen);
		break;
	case SLUICE_TOPO_EDGES:
		ret = ix_read_edges(&x, buf, len, err, errlen);
		break;
	default:
		ret = sluice_i_errf(err, errlen, -EINVAL,
				    "unknown topology format %d", fmt);
	}
	if (!ret)
		ret = ix_build(&x, g, info, err, errlen);
	ix_free(&x);
	return ret;
}

int sluice_topo_import_file(struct sluice_graph *g, enum sluice_topo_format fmt,
			    const char *path,
			    struct sluice_topo_import_info *info,
			    char *err, size_t errlen)
{
	char msg[SLUICE_ERRLEN], *buf;
	size_t len;
	int ret;

	memset(g, 0, sizeof(*g));
	if (info)
		memset(info, 0, sizeof(*info));
	ret = sluice_file_read(path, IMPORT_FILE_MAX, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = sluice_topo_import_buf(g, fmt, buf, len, info, msg, sizeof(msg));
	free(buf);
	if (ret)
		sluice_i_errf(err, errlen, ret, "%s: %s", path, msg);
	return ret;
}

void ix_write_graph_attrs(const struct sluice_graph *g, FILE *f,
			  const char *gen_fmt, const char *layers_fmt)
{
	/* the family, the seed and 8 parameters of 23 letters and 20 digits */
	char buf[SLUICE_FAMILY_MAX + 32 + SLUICE_PARAMS_MAX * 48];
	size_t n = 0, size = sizeof(buf);
	uint32_t i;

	if (g->family[0]) {
		n = snprintf(buf, size, "%s", g->family);
		if (g->has_seed)
			n += snprintf(buf + n, size - n, " seed=%" PRIu64,
				      g->seed);
		for (i = 0; i < g->n_params; i++)
			n += snprintf(buf + n, size - n, " %s=%" PRIu64,
				      g->params[i].name, g->params[i].value);
		fprintf(f, gen_fmt, buf);
	}
	if (g->n_layers) {
		for (n = 0, i = 0; i < g->n_layers; i++)
			n += snprintf(buf + n, size - n, "%s%u", i ? "," : "",
				      g->layer_ports[i]);
		fprintf(f, layers_fmt, buf);
	}
}

int sluice_topo_export(const struct sluice_graph *g,
		       enum sluice_topo_format fmt, FILE *f,
		       char *err, size_t errlen)
{
	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the graph is not finalized");
	switch (fmt) {
	case SLUICE_TOPO_GRAPHML:
		ix_write_graphml(g, f);
		break;
	case SLUICE_TOPO_GML:
		ix_write_gml(g, f);
		break;
	case SLUICE_TOPO_EDGES:
		ix_write_edges(g, f);
		break;
	default:
		return sluice_i_errf(err, errlen, -EINVAL,
				     "unknown topology format %d", fmt);
	}
	if (ferror(f))
		return sluice_i_errf(err, errlen, -EIO, "cannot write: %s",
				     strerror(errno));
	return 0;
}
