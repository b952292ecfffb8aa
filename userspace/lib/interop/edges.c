// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Edge lists, as NetworkX's write_edgelist(data=False) and
 * write_weighted_edgelist() and many tools write them: a line "A B" is a
 * link, "A B W" a link with a number (a weight, a speed) that is not kept;
 * a line "A" names a node (an isolated one, or to fix the node order,
 * which is otherwise the order names first appear in).  Words are
 * separated by spaces or tabs; "#" starts a comment to the end of the line;
 * blank lines are skipped.  Strict: a fourth column, a third that is not a
 * number, or a NUL byte stops the reader with the line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static int add_word(struct ix_graph *x, const char *w, size_t n,
		    uint64_t line, char **copy)
{
	struct ix_node *node = ix_add_node(x, line);

	if (!node)
		return -ENOMEM;
	node->id = strndup(w, n);
	if (!node->id)
		return -ENOMEM;
	if (copy) {
		*copy = strdup(node->id);
		if (!*copy)
			return -ENOMEM;
	}
	return 0;
}

/* The third column: a finite decimal number, wholly. */
static bool is_number(const char *w, size_t n)
{
	char num[64], *end;
	double v;

	if (!n || n >= sizeof(num))
		return false;
	memcpy(num, w, n);
	num[n] = '\0';
	/* strtod() also takes hex, "inf" and "nan": decimal digits only */
	if (strspn(num, "0123456789+-.eE") != n)
		return false;
	v = strtod(num, &end);
	return !*end && isfinite(v);
}

static int read_line(struct ix_graph *x, const char *s, size_t len,
		     uint64_t line, char *err, size_t errlen)
{
	const char *w[4];
	size_t n[4], i = 0, k = 0;
	struct ix_edge *e;
	int ret;

	while (i < len && s[i] != '#') {
		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i == len || s[i] == '#')
			break;
		if (k == 4)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "line %" PRIu64 ": more than three columns: \"A B\" or \"A B W\"",
					     line);
		w[k] = s + i;
		while (i < len && !strchr(" \t\r#", s[i]))
			i++;
		n[k] = s + i - w[k];
		k++;
	}
	if (k == 4)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "line %" PRIu64 ": more than three columns: \"A B\" or \"A B W\"",
				     line);
	if (k == 3 && !is_number(w[2], n[2]))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "line %" PRIu64 ": the third column \"%.*s\" is not a number",
				     line, (int)(n[2] > 40 ? 40 : n[2]), w[2]);
	if (k == 1)
		return add_word(x, w[0], n[0], line, NULL);
	if (k < 2)
		return 0;
	e = ix_add_edge(x, line);
	if (!e)
		return -ENOMEM;
	ret = add_word(x, w[0], n[0], line, &e->a);
	if (!ret)
		ret = add_word(x, w[1], n[1], line, &e->b);
	return ret;
}

int ix_read_edges(struct ix_graph *x, const char *buf, size_t len,
		  char *err, size_t errlen)
{
	const char *s = buf, *end = buf + len, *nl;
	uint64_t line = 1;
	int ret = 0;

	x->implicit = true;
	for (; s < end && !ret; line++) {
		nl = memchr(s, '\n', end - s);
		if (!nl)
			nl = end;
		if (memchr(s, '\0', nl - s))
			ret = sluice_i_errf(err, errlen, -EINVAL,
					    "line %" PRIu64 ": a NUL byte", line);
		else
			ret = read_line(x, s, nl - s, line, err, errlen);
		s = nl + 1;
	}
	if (ret == -ENOMEM)
		ret = sluice_i_errf(err, errlen, ret, "out of memory");
	return ret;
}

void ix_write_edges(const struct sluice_graph *g, FILE *f)
{
	uint32_t u, id;

	fprintf(f, "# %u nodes, then %u links (host ports, kinds, tiers and layers are not in an edge list)\n",
		g->n_nodes, g->n_links);
	for (u = 0; u < g->n_nodes; u++)
		fprintf(f, "%s\n", g->nodes[u].name);
	for (id = 0; id < g->n_links; id++)
		fprintf(f, "%s %s\n", g->nodes[g->links[id].a].name,
			g->nodes[g->links[id].b].name);
}
