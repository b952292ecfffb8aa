// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The topology file: JSON, read and written with json-c.
 *
 *	{
 *	  "format": "sluice-topology",
 *	  "version": 1,
 *	  "generator": {"family":"fc","seed":1,"switches":50,...},
 *	  "layers": [3,6,6,3],
 *	  "nodes": [
 *	    {"name":"s0","kind":"switch","hosts":14},
 *	    ...
 *	  ],
 *	  "links": [
 *	    {"id":0,"a":0,"b":17,"la":1,"lb":2},
 *	    ...
 *	  ]
 *	}
 *
 * format and version are required; generator (where the topology came from:
 * its family, seed and integer parameters) and layers (FC: ports of each
 * virtual layer, from layer 1 up) are optional.  A node has a name and
 * optionally kind ("switch", the default, or "server"), hosts (host ports,
 * default 0) and tier (Clos tier 1-3, default 0: none).  A link's a and b are
 * nodes, by index or by name; id, if present, must be its index (link ids
 * are indexes: paths name them); la and lb, the FC virtual layer of the port
 * at a and at b, are required with layers and refused without.  Unknown
 * fields are errors, so that a typo is not silently ignored.
 *
 * The writer puts one node or link per line, so that files diff well, and
 * writes what the reader reads back into the same bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>
#include <sluice/file.h>
#include <sluice/graph.h>
#include "internal.h"

#define FORMAT_NAME	"sluice-topology"
#define FORMAT_VERSION	1
#define FILE_MAX	(1ull << 30)

/* A JSON path for messages: "links[17].b". */
struct where {
	const char	*array;
	uint32_t	index;
	const char	*field;
};

static int bad(char *err, size_t errlen, const struct where *w,
	       const char *what)
{
	if (w->array && w->field)
		return sluice_i_errf(err, errlen, -EINVAL, "%s[%u].%s: %s",
				     w->array, w->index, w->field, what);
	if (w->array)
		return sluice_i_errf(err, errlen, -EINVAL, "%s[%u]: %s",
				     w->array, w->index, what);
	return sluice_i_errf(err, errlen, -EINVAL, "%s: %s", w->field, what);
}

/* A JSON integer from 0 to @max: no fraction, no sign, no string. */
static int get_uint(json_object *o, uint64_t max, uint64_t *val,
		    const struct where *w, char *err, size_t errlen)
{
	char what[64];

	if (!json_object_is_type(o, json_type_int))
		return bad(err, errlen, w, "not an integer");
	if (json_object_get_int64(o) < 0)
		return bad(err, errlen, w, "negative");
	*val = json_object_get_uint64(o);
	if (*val > max) {
		snprintf(what, sizeof(what), "more than %llu",
			 (unsigned long long)max);
		return bad(err, errlen, w, what);
	}
	return 0;
}

/* Rejects any field of @o not in the NULL-terminated @known. */
static int check_fields(json_object *o, const char *const *known,
			const struct where *w, char *err, size_t errlen)
{
	const char *const *k;
	struct where at = *w;

	json_object_object_foreach(o, key, val) {
		(void)val;
		for (k = known; *k && strcmp(*k, key); k++)
			;
		if (!*k) {
			at.field = key;
			return bad(err, errlen, &at, "unknown field");
		}
	}
	return 0;
}

static json_object *field(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static int read_node(struct sluice_graph *g, json_object *o, uint32_t i,
		     char *err, size_t errlen)
{
	static const char *const known[] = {
		"name", "kind", "hosts", "tier", NULL
	};
	struct where w = { "nodes", i, NULL };
	uint64_t hosts = 0, tier = 0;
	json_object *v;
	int kind = SLUICE_NODE_SWITCH, ret;

	if (!json_object_is_type(o, json_type_object))
		return bad(err, errlen, &w, "not an object");
	ret = check_fields(o, known, &w, err, errlen);
	if (ret)
		return ret;
	w.field = "name";
	v = field(o, "name");
	if (!v)
		return bad(err, errlen, &w, "missing");
	if (!json_object_is_type(v, json_type_string))
		return bad(err, errlen, &w, "not a string");
	w.field = "kind";
	v = field(o, "kind");
	if (v && (!json_object_is_type(v, json_type_string) ||
		  (kind = sluice_node_kind_parse(json_object_get_string(v))) < 0))
		return bad(err, errlen, &w, "not \"switch\" or \"server\"");
	w.field = "hosts";
	v = field(o, "hosts");
	if (v && (ret = get_uint(v, SLUICE_HOSTS_MAX, &hosts, &w, err, errlen)))
		return ret;
	w.field = "tier";
	v = field(o, "tier");
	if (v && (ret = get_uint(v, 3, &tier, &w, err, errlen)))
		return ret;
	return sluice_graph_set_node(g, i,
				     json_object_get_string(field(o, "name")),
				     kind, hosts, tier, err, errlen);
}

static int read_nodes(struct sluice_graph *g, json_object *nodes,
		      char *err, size_t errlen)
{
	struct where w = { NULL, 0, "nodes" };
	size_t i, n;
	int ret;

	if (!nodes)
		return bad(err, errlen, &w, "missing");
	if (!json_object_is_type(nodes, json_type_array))
		return bad(err, errlen, &w, "not an array");
	n = json_object_array_length(nodes);
	if (!n || n > SLUICE_NODES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "nodes: %zu nodes, not 1 to %u", n,
				     SLUICE_NODES_MAX);
	ret = sluice_graph_init(g, n, err, errlen);
	for (i = 0; i < n && !ret; i++)
		ret = read_node(g, json_object_array_get_idx(nodes, i), i,
				err, errlen);
	return ret;
}

/* Node names sorted, for links that name their ends. */
struct by_name {
	const struct sluice_graph	*g;
	uint32_t			*order;
};

static const struct sluice_graph *sort_graph;

static int cmp_name(const void *x, const void *y)
{
	return strcmp(sort_graph->nodes[*(const uint32_t *)x].name,
		      sort_graph->nodes[*(const uint32_t *)y].name);
}

static int find_name(struct by_name *b, const char *name, uint32_t *u)
{
	uint32_t lo = 0, hi = b->g->n_nodes, mid, i;
	int c;

	if (!b->order) {
		b->order = sluice_i_calloc(b->g->n_nodes, sizeof(*b->order));
		if (!b->order)
			return -ENOMEM;
		for (i = 0; i < b->g->n_nodes; i++)
			b->order[i] = i;
		sort_graph = b->g;
		qsort(b->order, b->g->n_nodes, sizeof(*b->order), cmp_name);
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(name, b->g->nodes[b->order[mid]].name);
		if (!c) {
			*u = b->order[mid];
			return 0;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -ENOENT;
}

static int read_end(struct by_name *b, json_object *v, uint32_t *u,
		    const struct where *w, char *err, size_t errlen)
{
	uint64_t val;
	char what[80];
	int ret;

	if (!v)
		return bad(err, errlen, w, "missing");
	if (json_object_is_type(v, json_type_string)) {
		ret = find_name(b, json_object_get_string(v), u);
		if (ret == -ENOMEM)
			return sluice_i_errf(err, errlen, ret, "out of memory");
		snprintf(what, sizeof(what), "no node is named \"%.40s\"",
			 json_object_get_string(v));
		return ret ? bad(err, errlen, w, what) : 0;
	}
	ret = get_uint(v, UINT32_MAX, &val, w, err, errlen);
	if (ret)
		return ret;
	if (val >= b->g->n_nodes) {
		snprintf(what, sizeof(what), "node %llu does not exist (%u nodes)",
			 (unsigned long long)val, b->g->n_nodes);
		return bad(err, errlen, w, what);
	}
	*u = val;
	return 0;
}

static int read_layer(json_object *o, const char *key, bool layered,
		      uint64_t *layer, struct where *w, char *err, size_t errlen)
{
	json_object *v = field(o, key);

	*layer = 0;
	w->field = key;
	if (!layered)
		return v ? bad(err, errlen, w,
			       "a layer, but the topology has no layers") : 0;
	if (!v)
		return bad(err, errlen, w, "missing (the topology has layers)");
	return get_uint(v, SLUICE_LAYERS_MAX, layer, w, err, errlen);
}

static int read_link(struct by_name *b, json_object *o, uint32_t i,
		     char *err, size_t errlen)
{
	static const char *const known[] = { "id", "a", "b", "la", "lb", NULL };
	struct where w = { "links", i, NULL };
	bool layered = b->g->n_layers;
	uint64_t id, la, lb;
	uint32_t a, z;
	int ret;

	if (!json_object_is_type(o, json_type_object))
		return bad(err, errlen, &w, "not an object");
	ret = check_fields(o, known, &w, err, errlen);
	if (ret)
		return ret;
	w.field = "id";
	if (field(o, "id")) {
		ret = get_uint(field(o, "id"), UINT32_MAX, &id, &w, err, errlen);
		if (ret)
			return ret;
		if (id != i)
			return bad(err, errlen, &w,
				   "not the link's index (ids are indexes)");
	}
	w.field = "a";
	ret = read_end(b, field(o, "a"), &a, &w, err, errlen);
	w.field = "b";
	if (!ret)
		ret = read_end(b, field(o, "b"), &z, &w, err, errlen);
	if (!ret)
		ret = read_layer(o, "la", layered, &la, &w, err, errlen);
	if (!ret)
		ret = read_layer(o, "lb", layered, &lb, &w, err, errlen);
	if (ret)
		return ret;
	ret = sluice_graph_add_link((struct sluice_graph *)b->g, a, z, la, lb,
				    err, errlen);
	return ret < 0 ? ret : 0;
}

static int read_links(struct sluice_graph *g, json_object *links,
		      char *err, size_t errlen)
{
	struct where w = { NULL, 0, "links" };
	struct by_name b = { g, NULL };
	size_t i, n;
	int ret = 0;

	if (!links)
		return bad(err, errlen, &w, "missing");
	if (!json_object_is_type(links, json_type_array))
		return bad(err, errlen, &w, "not an array");
	n = json_object_array_length(links);
	if (n > SLUICE_LINKS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "links: more than %u links",
				     SLUICE_LINKS_MAX);
	for (i = 0; i < n && !ret; i++)
		ret = read_link(&b, json_object_array_get_idx(links, i), i,
				err, errlen);
	free(b.order);
	return ret;
}

static int read_layers(struct sluice_graph *g, json_object *layers,
		       char *err, size_t errlen)
{
	uint32_t ports[SLUICE_LAYERS_MAX];
	struct where w = { "layers", 0, NULL };
	uint64_t v;
	size_t i, n;
	int ret;

	if (!layers)
		return 0;
	if (!json_object_is_type(layers, json_type_array)) {
		w.array = NULL;
		w.field = "layers";
		return bad(err, errlen, &w, "not an array");
	}
	n = json_object_array_length(layers);
	if (n < 2 || n > SLUICE_LAYERS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "layers: %zu layers, not 2 to %u", n,
				     SLUICE_LAYERS_MAX);
	for (i = 0; i < n; i++) {
		w.index = i;
		ret = get_uint(json_object_array_get_idx(layers, i),
			       SLUICE_HOSTS_MAX, &v, &w, err, errlen);
		if (ret)
			return ret;
		ports[i] = v;
	}
	return sluice_graph_set_layers(g, n, ports, err, errlen);
}

static int read_generator(struct sluice_graph *g, json_object *gen,
			  char *err, size_t errlen)
{
	struct where w = { NULL, 0, "generator" };
	json_object *fam;
	uint64_t v;
	char path[64];
	int ret;

	if (!gen)
		return 0;
	if (!json_object_is_type(gen, json_type_object))
		return bad(err, errlen, &w, "not an object");
	fam = field(gen, "family");
	w.field = "generator.family";
	if (!fam)
		return bad(err, errlen, &w, "missing");
	if (!json_object_is_type(fam, json_type_string))
		return bad(err, errlen, &w, "not a string");
	ret = sluice_graph_set_family(g, json_object_get_string(fam),
				      err, errlen);
	json_object_object_foreach(gen, key, val) {
		if (ret || !strcmp(key, "family"))
			continue;
		snprintf(path, sizeof(path), "generator.%.40s", key);
		w.field = path;
		ret = get_uint(val, UINT64_MAX, &v, &w, err, errlen);
		if (ret)
			break;
		if (!strcmp(key, "seed"))
			sluice_graph_set_seed(g, v);
		else
			ret = sluice_graph_add_param(g, key, v, err, errlen);
	}
	return ret;
}

static int read_header(json_object *top, char *err, size_t errlen)
{
	static const char *const known[] = {
		"format", "version", "generator", "layers", "nodes", "links",
		NULL
	};
	struct where w = { NULL, 0, "format" };
	json_object *v;
	uint64_t version;
	int ret;

	if (!json_object_is_type(top, json_type_object))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the topology is not a JSON object");
	ret = check_fields(top, known, &(struct where){ NULL, 0, NULL },
			   err, errlen);
	if (ret)
		return ret;
	v = field(top, "format");
	if (!v || !json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), FORMAT_NAME))
		return bad(err, errlen, &w, "not \"" FORMAT_NAME "\"");
	w.field = "version";
	v = field(top, "version");
	if (!v)
		return bad(err, errlen, &w, "missing");
	ret = get_uint(v, UINT32_MAX, &version, &w, err, errlen);
	if (!ret && version != FORMAT_VERSION)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "version: %llu is not supported (only %d)",
				     (unsigned long long)version,
				     FORMAT_VERSION);
	return ret;
}

static int read_top(struct sluice_graph *g, json_object *top,
		    char *err, size_t errlen)
{
	int ret;

	ret = read_header(top, err, errlen);
	if (!ret)
		ret = read_nodes(g, field(top, "nodes"), err, errlen);
	if (!ret)
		ret = read_generator(g, field(top, "generator"), err, errlen);
	if (!ret)
		ret = read_layers(g, field(top, "layers"), err, errlen);
	if (!ret)
		ret = read_links(g, field(top, "links"), err, errlen);
	if (!ret)
		ret = sluice_graph_finalize(g, err, errlen);
	return ret;
}

/* Line and column (1-based) of byte @off of @buf. */
static void line_col(const char *buf, size_t off, unsigned int *line,
		     unsigned int *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int syntax_error(const char *buf, size_t off, const char *what,
			char *err, size_t errlen)
{
	unsigned int line, col;

	line_col(buf, off, &line, &col);
	return sluice_i_errf(err, errlen, -EINVAL,
			     "line %u column %u: invalid JSON: %s",
			     line, col, what);
}

static int parse(const char *buf, size_t len, json_object **top,
		 char *err, size_t errlen)
{
	json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	size_t end, i;

	if (!tok)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	if (len > INT32_MAX)
		len = INT32_MAX;	/* refused below: the rest is not read */
	*top = json_tokener_parse_ex(tok, buf, len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr == json_tokener_continue)
		return syntax_error(buf, len, "unexpected end of input",
				    err, errlen);
	if (jerr != json_tokener_success)
		return syntax_error(buf, end, json_tokener_error_desc(jerr),
				    err, errlen);
	for (i = end; i < len; i++)
		if (!strchr(" \t\r\n", buf[i])) {
			json_object_put(*top);
			return syntax_error(buf, i,
					    "more after the topology's object",
					    err, errlen);
		}
	return 0;
}

/**
 * sluice_graph_read_buf() - read a topology file held in memory
 * @g:		the graph, uninitialized; all zeroes on failure
 * @buf:	the file's bytes (a NUL is not needed)
 * @len:	their number
 * @err:	the message on failure: "line L column C: invalid JSON: ..."
 *		for syntax, else the field, as in "links[17].b: ..."
 * @errlen:	size of @err
 *
 * Nothing is half-loaded: @g is a finalized graph, or empty.
 *
 * Return: 0, -EINVAL, -E2BIG or -ENOMEM.
 */
int sluice_graph_read_buf(struct sluice_graph *g, const char *buf, size_t len,
			  char *err, size_t errlen)
{
	json_object *top = NULL;
	int ret;

	memset(g, 0, sizeof(*g));
	if (len > FILE_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "larger than %llu bytes", FILE_MAX);
	ret = parse(buf, len, &top, err, errlen);
	if (ret)
		return ret;
	ret = read_top(g, top, err, errlen);
	json_object_put(top);
	if (ret)
		sluice_graph_free(g);
	return ret;
}

/**
 * sluice_graph_read_file() - read a topology file
 * @g:		the graph, uninitialized; all zeroes on failure
 * @path:	the file, "-" for standard input
 * @err:	the message on failure, starting with "@path: "
 * @errlen:	size of @err
 *
 * Return: 0 or a negative errno.
 */
int sluice_graph_read_file(struct sluice_graph *g, const char *path,
			   char *err, size_t errlen)
{
	char msg[SLUICE_ERRLEN], *buf;
	size_t len;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = sluice_file_read(path, FILE_MAX, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = sluice_graph_read_buf(g, buf, len, msg, sizeof(msg));
	free(buf);
	if (ret)
		sluice_i_errf(err, errlen, ret, "%s: %s", path, msg);
	return ret;
}

static bool add_int(json_object *o, const char *key, uint64_t v)
{
	json_object *val = json_object_new_uint64(v);

	if (val && !json_object_object_add(o, key, val))
		return true;
	json_object_put(val);
	return false;
}

static bool add_str(json_object *o, const char *key, const char *s)
{
	json_object *val = json_object_new_string(s);

	if (val && !json_object_object_add(o, key, val))
		return true;
	json_object_put(val);
	return false;
}

/* Prints @o on one line and drops it; false if it could not be built. */
static bool put_line(FILE *f, json_object *o, bool ok, const char *indent,
		     const char *end)
{
	if (ok && o)
		fprintf(f, "%s%s%s\n", indent,
			json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			end);
	json_object_put(o);
	return ok && o;
}

static bool write_generator(const struct sluice_graph *g, FILE *f)
{
	json_object *o = json_object_new_object();
	bool ok = o && add_str(o, "family", g->family);
	uint32_t i;

	if (ok && g->has_seed)
		ok = add_int(o, "seed", g->seed);
	for (i = 0; i < g->n_params && ok; i++)
		ok = add_int(o, g->params[i].name, g->params[i].value);
	fputs("  \"generator\": ", f);
	return put_line(f, o, ok, "", ",");
}

static bool write_layers(const struct sluice_graph *g, FILE *f)
{
	json_object *a = json_object_new_array();
	json_object *v;
	bool ok = a;
	uint32_t j;

	for (j = 0; j < g->n_layers && ok; j++) {
		v = json_object_new_uint64(g->layer_ports[j]);
		ok = v && !json_object_array_add(a, v);
		if (!ok)
			json_object_put(v);
	}
	fputs("  \"layers\": ", f);
	return put_line(f, a, ok, "", ",");
}

static bool write_node(const struct sluice_graph *g, uint32_t u, FILE *f)
{
	const struct sluice_node *n = &g->nodes[u];
	json_object *o = json_object_new_object();
	bool ok = o && add_str(o, "name", n->name) &&
		  add_str(o, "kind", sluice_node_kind_name(n->kind)) &&
		  add_int(o, "hosts", n->hosts);

	if (ok && n->tier)
		ok = add_int(o, "tier", n->tier);
	return put_line(f, o, ok, "    ", u + 1 < g->n_nodes ? "," : "");
}

static bool write_link(const struct sluice_graph *g, uint32_t id, FILE *f)
{
	const struct sluice_link *l = &g->links[id];
	json_object *o = json_object_new_object();
	bool ok = o && add_int(o, "id", id) && add_int(o, "a", l->a) &&
		  add_int(o, "b", l->b);

	if (ok && g->n_layers)
		ok = add_int(o, "la", l->la) && add_int(o, "lb", l->lb);
	return put_line(f, o, ok, "    ", id + 1 < g->n_links ? "," : "");
}

/**
 * sluice_graph_write() - write @g as a topology file
 * @g:		a finalized graph
 * @f:		where to
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * The format is described at the top of this file and in man/sluice-topology.5
 * ("The topology file").  The caller checks @f's errors on its final flush
 * too.
 *
 * Return: 0, -EINVAL if @g is not finalized, -ENOMEM, -EIO.
 */
int sluice_graph_write(const struct sluice_graph *g, FILE *f,
		       char *err, size_t errlen)
{
	bool ok = true;
	uint32_t i;

	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the graph is not finalized");
	fprintf(f, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n",
		FORMAT_NAME, FORMAT_VERSION);
	if (g->family[0])
		ok = write_generator(g, f);
	if (ok && g->n_layers)
		ok = write_layers(g, f);
	fputs("  \"nodes\": [\n", f);
	for (i = 0; i < g->n_nodes && ok; i++)
		ok = write_node(g, i, f);
	fputs(g->n_links ? "  ],\n  \"links\": [\n" : "  ],\n  \"links\": [", f);
	for (i = 0; i < g->n_links && ok; i++)
		ok = write_link(g, i, f);
	fputs(g->n_links ? "  ]\n}\n" : "]\n}\n", f);
	if (!ok)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	if (ferror(f))
		return sluice_i_errf(err, errlen, -EIO, "cannot write: %s",
				     strerror(errno));
	return 0;
}
