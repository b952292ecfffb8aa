// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * GML (Himsolt's Graph Modelling Language), as the Internet Topology Zoo
 * and NetworkX's write_gml() write it:
 *
 *	graph [
 *	  label "Abilene"
 *	  node [ id 0 label "NewYork" Longitude -74.0 ]
 *	  edge [ source 0 target 1 LinkSpeedRaw 10000000000.0 ]
 *	]
 *
 * a list of KEY VALUE pairs, a value an integer, a real, a "string" (no
 * quote inside; it may span lines) or a [ list ]; "#" starts a comment to
 * the end of the line.  Debian packages no C library for GML, so this is a
 * small hand-written reader, strict: any byte outside that grammar, a list
 * left open, a number that does not fit, a directed graph, or a key sluice
 * reads given twice or with the wrong type, stops it with the line.  Keys
 * sluice does not read are skipped whatever their value.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define DEPTH_MAX	100

enum tok_type { T_END, T_KEY, T_INT, T_REAL, T_STRING, T_OPEN, T_CLOSE };

struct tok {
	enum tok_type	type;
	const char	*s;	/* the text (a string: inside the quotes) */
	size_t		len;
	uint64_t	line;
};

struct lexer {
	const char	*p, *end;
	uint64_t	line;
	char		*err;
	size_t		errlen;
};

#define lex_bad(lx, line, ...) IX_BAD((lx)->err, (lx)->errlen, line, __VA_ARGS__)

static bool is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Where a token may end: white space, a bracket, a comment, the end. */
static bool at_boundary(const struct lexer *lx, const char *p)
{
	return p == lx->end || strchr(" \t\r\n[]#", *p);
}

/* [+-]? (digits [. digits*] | . digits) [e [+-] digits], or [+-]? INF, NAN */
static int lex_number(struct lexer *lx, struct tok *t)
{
	const char *p = lx->p, *digits;
	bool real = false;

	if (p < lx->end && (*p == '+' || *p == '-'))
		p++;
	if (lx->end - p >= 3 && !strncmp(p, "INF", 3)) {
		p += 3;
		real = true;
	} else {
		digits = p;
		while (p < lx->end && is_digit(*p))
			p++;
		if (p < lx->end && *p == '.') {
			real = true;
			p++;
			while (p < lx->end && is_digit(*p))
				p++;
		}
		if (p - digits == (real ? 1 : 0))
			goto bad;
		if (p < lx->end && (*p == 'e' || *p == 'E')) {
			real = true;
			p++;
			if (p < lx->end && (*p == '+' || *p == '-'))
				p++;
			if (p == lx->end || !is_digit(*p))
				goto bad;
			while (p < lx->end && is_digit(*p))
				p++;
		}
	}
	if (!at_boundary(lx, p))
		goto bad;
	t->type = real ? T_REAL : T_INT;
	t->len = p - lx->p;
	lx->p = p;
	return 0;
bad:
	while (!at_boundary(lx, p))
		p++;
	return lex_bad(lx, lx->line, "\"%.*s\" is not a number",
		       (int)(p - lx->p > 40 ? 40 : p - lx->p), lx->p);
}

static int lex(struct lexer *lx, struct tok *t)
{
	const char *p;

	for (;;) {
		while (lx->p < lx->end && strchr(" \t\r\n", *lx->p) && *lx->p) {
			if (*lx->p == '\n')
				lx->line++;
			lx->p++;
		}
		if (lx->p == lx->end || *lx->p != '#')
			break;
		while (lx->p < lx->end && *lx->p != '\n') {
			if (!*lx->p)
				return lex_bad(lx, lx->line, "a NUL byte");
			lx->p++;
		}
	}
	t->s = lx->p;
	t->line = lx->line;
	t->len = 1;
	if (lx->p == lx->end) {
		t->type = T_END;
		return 0;
	}
	if (!*lx->p)
		return lex_bad(lx, lx->line, "a NUL byte");
	switch (*lx->p) {
	case '[':
		t->type = T_OPEN;
		lx->p++;
		return 0;
	case ']':
		t->type = T_CLOSE;
		lx->p++;
		return 0;
	case '"':
		p = ++lx->p;
		while (p < lx->end && *p != '"') {
			if (!*p)
				return lex_bad(lx, lx->line, "a NUL byte");
			if (*p++ == '\n')
				lx->line++;
		}
		if (p == lx->end)
			return lex_bad(lx, t->line, "a string that never ends");
		t->type = T_STRING;
		t->s = lx->p;
		t->len = p - lx->p;
		lx->p = p + 1;
		return 0;
	}
	if (is_letter(*lx->p)) {
		p = lx->p;
		while (p < lx->end && (is_letter(*p) || is_digit(*p)))
			p++;
		if (!at_boundary(lx, p))
			goto bad_char;
		t->len = p - lx->p;
		/* NetworkX writes infinities and NaNs so */
		t->type = t->len == 3 && (!strncmp(lx->p, "INF", 3) ||
					  !strncmp(lx->p, "NAN", 3)) ?
			  T_REAL : T_KEY;
		lx->p = p;
		return 0;
	}
	if (is_digit(*lx->p) || strchr("+-.", *lx->p))
		return lex_number(lx, t);
	p = lx->p;
bad_char:
	if (!*p)
		return lex_bad(lx, lx->line, "a NUL byte");
	if (*p > ' ' && *p < 127)
		return lex_bad(lx, lx->line, "unexpected '%c'", *p);
	return lex_bad(lx, lx->line, "unexpected byte 0x%02x",
		       (unsigned char)*p);
}

static bool tok_is(const struct tok *t, const char *key)
{
	return t->type == T_KEY && t->len == strlen(key) &&
	       !strncmp(t->s, key, t->len);
}

static const char *type_name(enum tok_type type)
{
	switch (type) {
	case T_INT:
		return "an integer";
	case T_REAL:
		return "a real number";
	case T_STRING:
		return "a string";
	case T_OPEN:
		return "a list";
	default:
		return "nothing";
	}
}

struct parser {
	struct lexer	lx;
	struct ix_graph	*x;
	bool		graph_seen;
};

#define bad(ps, line, ...) lex_bad(&(ps)->lx, line, __VA_ARGS__)

/* Skips the rest of a list whose "[" was just read. */
static int skip_list(struct parser *ps, uint64_t open_line, int depth)
{
	struct tok t;
	int ret;

	if (depth > DEPTH_MAX)
		return bad(ps, open_line, "lists nested more than %d deep",
			   DEPTH_MAX);
	for (;;) {
		ret = lex(&ps->lx, &t);
		if (ret)
			return ret;
		if (t.type == T_CLOSE)
			return 0;
		if (t.type == T_END)
			return bad(ps, t.line, "the file ends inside the list opened on line %" PRIu64,
				   open_line);
		if (t.type != T_KEY)
			return bad(ps, t.line, "expected a key or ']', found %s",
				   type_name(t.type));
		ret = lex(&ps->lx, &t);
		if (ret)
			return ret;
		if (t.type == T_OPEN)
			ret = skip_list(ps, t.line, depth + 1);
		else if (t.type == T_END || t.type == T_CLOSE || t.type == T_KEY)
			ret = bad(ps, t.line, "a key without a value");
		if (ret)
			return ret;
	}
}

/*
 * The next KEY VALUE of a list: 1 with @key and @val, 0 at its "]" (or,
 * at the top, the end of the file), or a negative errno.
 */
static int next_pair(struct parser *ps, bool top, uint64_t open_line,
		     struct tok *key, struct tok *val)
{
	int ret = lex(&ps->lx, key);

	if (ret)
		return ret;
	if (key->type == T_END && top)
		return 0;
	if (key->type == T_CLOSE && !top)
		return 0;
	if (key->type == T_END)
		return bad(ps, key->line, "the file ends inside the list opened on line %" PRIu64,
			   open_line);
	if (key->type == T_CLOSE)
		return bad(ps, key->line, "']' without its '['");
	if (key->type != T_KEY)
		return bad(ps, key->line, "expected a key, found %s",
			   type_name(key->type));
	ret = lex(&ps->lx, val);
	if (ret)
		return ret;
	if (val->type == T_END || val->type == T_CLOSE || val->type == T_KEY)
		return bad(ps, key->line, "\"%.*s\" has no value",
			   (int)(key->len > 40 ? 40 : key->len), key->s);
	return 1;
}

/* An integer value of @key in @what. */
static int get_int(struct parser *ps, const char *what, const struct tok *key,
		   const struct tok *val, int64_t *v)
{
	char num[32];

	if (val->type != T_INT)
		return bad(ps, val->line, "%s: %.*s is %s, not an integer",
			   what, (int)key->len, key->s, type_name(val->type));
	if (val->len >= sizeof(num))
		goto range;
	memcpy(num, val->s, val->len);
	num[val->len] = '\0';
	if (ix_int(num, v))
		return 0;
range:
	return bad(ps, val->line, "%s: %.*s %.*s does not fit in 64 bits", what,
		   (int)key->len, key->s, (int)(val->len > 40 ? 40 : val->len),
		   val->s);
}

/* A recognised key given twice. */
static int twice(struct parser *ps, const char *what, const struct tok *key)
{
	return bad(ps, key->line, "%s: a second %.*s", what, (int)key->len,
		   key->s);
}

static int get_string(struct parser *ps, const char *what,
		      const struct tok *key, const struct tok *val, char **s)
{
	if (*s)
		return twice(ps, what, key);
	if (val->type != T_STRING)
		return bad(ps, val->line, "%s: %.*s is %s, not a string", what,
			   (int)key->len, key->s, type_name(val->type));
	*s = strndup(val->s, val->len);
	return *s ? 0 : -ENOMEM;
}

/* An integer field that may be given once, kept in @v (IX_ABSENT before). */
static int get_once(struct parser *ps, const char *what, const struct tok *key,
		    const struct tok *val, int64_t *v)
{
	if (*v != IX_ABSENT)
		return twice(ps, what, key);
	return get_int(ps, what, key, val, v);
}

static char *decimal(int64_t v)
{
	char *s;

	return asprintf(&s, "%" PRId64, v) < 0 ? NULL : s;
}

static int parse_node(struct parser *ps, uint64_t line)
{
	int64_t id = IX_ABSENT;
	struct tok key, val;
	struct ix_node *n;
	char *kind = NULL;
	int ret;

	n = ix_add_node(ps->x, line);
	if (!n)
		return -ENOMEM;
	while ((ret = next_pair(ps, false, line, &key, &val)) > 0) {
		ret = 0;
		/* ix_add_node() may not move the node: no other is added */
		if (tok_is(&key, "id"))
			ret = get_once(ps, "node", &key, &val, &id);
		else if (tok_is(&key, "label"))
			ret = get_string(ps, "node", &key, &val, &n->label);
		else if (tok_is(&key, "kind"))
			ret = get_string(ps, "node", &key, &val, &kind);
		else if (tok_is(&key, "hosts"))
			ret = get_once(ps, "node", &key, &val, &n->hosts);
		else if (tok_is(&key, "tier"))
			ret = get_once(ps, "node", &key, &val, &n->tier);
		else if (val.type == T_OPEN)
			ret = skip_list(ps, val.line, 2);
		if (!ret && kind && n->kind == IX_KIND_ABSENT) {
			n->kind = ix_kind_parse(kind);
			if (n->kind < 0)
				ret = bad(ps, key.line, "node: kind \"%.40s\" is not switch, server or host",
					  kind);
		}
		if (ret)
			break;
	}
	free(kind);
	if (ret)
		return ret;
	if (id == IX_ABSENT)
		return bad(ps, line, "node without an id");
	n->id = decimal(id);
	return n->id ? 0 : -ENOMEM;
}

static int parse_edge(struct parser *ps, uint64_t line)
{
	int64_t a = IX_ABSENT, b = IX_ABSENT;
	struct tok key, val;
	struct ix_edge *e;
	int ret;

	e = ix_add_edge(ps->x, line);
	if (!e)
		return -ENOMEM;
	while ((ret = next_pair(ps, false, line, &key, &val)) > 0) {
		ret = 0;
		if (tok_is(&key, "source"))
			ret = get_once(ps, "edge", &key, &val, &a);
		else if (tok_is(&key, "target"))
			ret = get_once(ps, "edge", &key, &val, &b);
		else if (tok_is(&key, "la"))
			ret = get_once(ps, "edge", &key, &val, &e->la);
		else if (tok_is(&key, "lb"))
			ret = get_once(ps, "edge", &key, &val, &e->lb);
		else if (val.type == T_OPEN)
			ret = skip_list(ps, val.line, 2);
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	if (a == IX_ABSENT || b == IX_ABSENT)
		return bad(ps, line, "edge without a %s",
			   a == IX_ABSENT ? "source" : "target");
	e->a = decimal(a);
	e->b = decimal(b);
	return e->a && e->b ? 0 : -ENOMEM;
}

static int parse_graph(struct parser *ps, uint64_t line)
{
	struct tok key, val;
	int64_t v;
	int ret;

	while ((ret = next_pair(ps, false, line, &key, &val)) > 0) {
		ret = 0;
		if ((tok_is(&key, "node") || tok_is(&key, "edge")) &&
		    val.type != T_OPEN)
			ret = bad(ps, key.line, "%.4s is %s, not a list", key.s,
				  type_name(val.type));
		else if (tok_is(&key, "node"))
			ret = parse_node(ps, key.line);
		else if (tok_is(&key, "edge"))
			ret = parse_edge(ps, key.line);
		else if (tok_is(&key, "directed") ||
			 tok_is(&key, "multigraph")) {
			ret = get_int(ps, "graph", &key, &val, &v);
			if (!ret && (v < 0 || v > 1))
				ret = bad(ps, val.line, "graph: %.*s %" PRId64 " is not 0 or 1",
					  (int)key.len, key.s, v);
			if (!ret && v && key.s[0] == 'd')
				ret = bad(ps, val.line, "graph: directed 1: sluice links are undirected");
		} else if (tok_is(&key, "layers")) {
			ps->x->layers_line = key.line;
			ret = get_string(ps, "graph", &key, &val,
					 &ps->x->layers);
		} else if (tok_is(&key, "generator")) {
			ps->x->generator_line = key.line;
			ret = get_string(ps, "graph", &key, &val,
					 &ps->x->generator);
		} else if (val.type == T_OPEN) {
			ret = skip_list(ps, val.line, 1);
		}
		if (ret)
			return ret;
	}
	return ret;
}

int ix_read_gml(struct ix_graph *x, const char *buf, size_t len,
		char *err, size_t errlen)
{
	struct parser ps = {
		.lx = { .p = buf, .end = buf + len, .line = 1, .err = err,
			.errlen = errlen },
		.x = x,
	};
	struct tok key, val;
	int ret;

	x->by_label = true;
	while ((ret = next_pair(&ps, true, 1, &key, &val)) > 0) {
		ret = 0;
		if (tok_is(&key, "graph")) {
			if (ps.graph_seen)
				ret = bad(&ps, key.line, "a second graph: a file holds one");
			else if (val.type != T_OPEN)
				ret = bad(&ps, key.line, "graph is %s, not a list",
					  type_name(val.type));
			else
				ret = parse_graph(&ps, key.line);
			ps.graph_seen = true;
		} else if (val.type == T_OPEN) {
			ret = skip_list(&ps, val.line, 1);
		}
		if (ret)
			break;
	}
	if (!ret && !ps.graph_seen)
		ret = bad(&ps, ps.lx.line, "no \"graph [ ... ]\" in the file");
	if (ret == -ENOMEM)
		ret = sluice_i_errf(err, errlen, ret, "out of memory");
	return ret;
}

static int cmp_u64(const void *p, const void *q)
{
	uint64_t a = *(const uint64_t *)p, b = *(const uint64_t *)q;

	return (a > b) - (a < b);
}

/* Whether two links join the same two nodes (NetworkX needs multigraph). */
static bool has_parallel(const struct sluice_graph *g)
{
	uint64_t *key = sluice_i_calloc(g->n_links, sizeof(*key));
	bool found = false;
	uint32_t id, a, b;

	if (!key)
		return true;	/* saying so is harmless */
	for (id = 0; id < g->n_links; id++) {
		a = g->links[id].a;
		b = g->links[id].b;
		key[id] = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
	}
	qsort(key, g->n_links, sizeof(*key), cmp_u64);
	for (id = 1; id < g->n_links && !found; id++)
		found = key[id] == key[id - 1];
	free(key);
	return found;
}

void ix_write_gml(const struct sluice_graph *g, FILE *f)
{
	const struct sluice_node *n;
	const struct sluice_link *l;
	uint32_t u, id;

	fputs("graph [\n", f);
	if (has_parallel(g))
		fputs("  multigraph 1\n", f);
	ix_write_graph_attrs(g, f, "  generator \"%s\"\n", "  layers \"%s\"\n");
	for (u = 0; u < g->n_nodes; u++) {
		n = &g->nodes[u];
		fprintf(f, "  node [\n    id %u\n    label \"%s\"\n    kind \"%s\"\n    hosts %u\n",
			u, n->name, sluice_node_kind_name(n->kind), n->hosts);
		if (n->tier)
			fprintf(f, "    tier %u\n", n->tier);
		fputs("  ]\n", f);
	}
	for (id = 0; id < g->n_links; id++) {
		l = &g->links[id];
		fprintf(f, "  edge [\n    source %u\n    target %u\n", l->a, l->b);
		if (g->n_layers)
			fprintf(f, "    la %u\n    lb %u\n", l->la, l->lb);
		fputs("  ]\n", f);
	}
	fputs("]\n", f);
}
