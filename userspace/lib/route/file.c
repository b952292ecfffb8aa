// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The route file: text, one line per pair, written and read here.
 *
 *	sluice-routes 1
 *	topology nodes 50 links 450 hash 8c2a4f0e3b1d9a77
 *	algo fc paths 0 lanes 1 seed 0 orient auto root -
 *	shard 0/1
 *	pairs 2450 paths 19650 hops 75843 truncated 0
 *	s0 s1: 17 402 | 3 220 96 | @1 5 88
 *	s0 s2:
 *	...
 *	end
 *
 * The header names the topology the routes belong to (its node and link
 * counts and sluice_graph_hash()), the algorithm and its options, the shard
 * ("i/n", 0/1 for a whole set) and the totals.  Then a line per pair, in
 * (source, destination) order, with the node names: its paths separated by
 * "|", each a list of link ids from the source, "@L" first for a path on
 * lane L other than 0.  A pair without a path has nothing after its colon.
 * Fields are separated by exactly one space, with none at the end of a
 * line.  Node names have no spaces but may have colons ("leaf:0" reads
 * "leaf:0 x:: 3" for the pair leaf:0, x:), so the colon that counts is the
 * one ending the second word.
 * "end" closes the file, so a truncated file is an error, not a smaller
 * route set.
 *
 * JSON would be the obvious format, but an all-pairs set of a 1000-switch
 * FC has 10^6 pairs, 1.4 * 10^7 paths and 7 * 10^7 hops: json-c would build
 * a tree of some 10^8 objects to read it.  This format reads in one pass
 * into the flat arrays of struct sluice_routes, and stays greppable.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/route.h>
#include "graph/internal.h"
#include "route/internal.h"
#include "text.h"

#define FORMAT		"sluice-routes"
#define VERSION		1
/* the header's lines: the pair lines follow */
#define HEADER_LINES	5

static const char *const orient_names[] = {
	[SLUICE_ORIENT_AUTO]	= "auto",
	[SLUICE_ORIENT_TIER]	= "tier",
	[SLUICE_ORIENT_BFS]	= "bfs",
};

/* Formats @v at the end of @buf (room for 20 digits), returns the end. */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/**
 * sluice_routes_write_head() - a route file's header
 * @head:	the set's header fields and totals (those of a whole set,
 *		or of a stream's head once it ended)
 * @g:		its topology, for the root's name
 * @f:		where to write
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * Then sluice_routes_write_pairs() for the pairs, in order, and
 * sluice_routes_write_end().
 *
 * Return: 0 or -EINVAL (options out of range).
 */
int sluice_routes_write_head(const struct sluice_routes *head,
			     const struct sluice_graph *g, FILE *f,
			     char *err, size_t errlen)
{
	/* a hand-made set could index past these arrays */
	if ((unsigned int)head->opts.orient > SLUICE_ORIENT_BFS ||
	    (head->opts.has_root && head->opts.root >= g->n_nodes))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "cannot write orientation %d, root %u: not a route set's options",
				     head->opts.orient, head->opts.root);
	fprintf(f, "%s %d\n", FORMAT, VERSION);
	fprintf(f, "topology nodes %u links %u hash %016llx\n",
		head->n_nodes, head->n_links,
		(unsigned long long)head->topo_hash);
	fprintf(f, "algo %s paths %u lanes %u seed %llu orient %s root %s\n",
		head->algo, head->opts.paths, head->opts.lanes,
		(unsigned long long)head->opts.seed,
		orient_names[head->opts.orient],
		head->opts.has_root ? g->nodes[head->opts.root].name : "-");
	fprintf(f, "shard %u/%u\n", head->shard_index, head->shard_count);
	fprintf(f, "pairs %llu paths %llu hops %llu truncated %llu\n",
		(unsigned long long)head->n_pairs,
		(unsigned long long)head->n_paths,
		(unsigned long long)head->n_hops,
		(unsigned long long)head->truncated_pairs);
	return 0;
}

/**
 * sluice_routes_write_pairs() - the lines of some pairs of a route file
 * @r:		a route set, or a chunk of one
 * @g:		its topology, for the node names
 * @f:		where to write
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int sluice_routes_write_pairs(const struct sluice_routes *r,
			      const struct sluice_graph *g, FILE *f,
			      char *err, size_t errlen)
{
	char *line = NULL, *p;
	size_t cap = 0, need;
	uint64_t i, q, h;
	int ret = 0;

	for (i = 0; i < r->n_pairs && !ret; i++) {
		/* names, then at most "| @L " and 11 bytes a hop */
		need = 2 * SLUICE_NAME_MAX + 8 +
		       (r->pair_path[i + 1] - r->pair_path[i]) * 8 +
		       (r->path_hop[r->pair_path[i + 1]] -
			r->path_hop[r->pair_path[i]]) * 11;
		if (need > cap) {
			free(line);
			cap = need * 2;
			line = malloc(cap);
			if (!line)
				return sluice_i_errf(err, errlen, -ENOMEM,
						     "out of memory");
		}
		p = line;
		p = stpcpy(p, g->nodes[r->pair_src[i]].name);
		*p++ = ' ';
		p = stpcpy(p, g->nodes[r->pair_dst[i]].name);
		*p++ = ':';
		for (q = r->pair_path[i]; q < r->pair_path[i + 1]; q++) {
			if (q != r->pair_path[i])
				p = stpcpy(p, " |");
			if (r->path_lane[q]) {
				p = stpcpy(p, " @");
				p = put_u64(p, r->path_lane[q]);
			}
			for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
				*p++ = ' ';
				p = put_u64(p, r->hops[h]);
			}
		}
		*p++ = '\n';
		if (fwrite(line, 1, p - line, f) != (size_t)(p - line))
			ret = -EIO;
	}
	free(line);
	if (ret)
		return sluice_i_errf(err, errlen, -EIO, "cannot write: %s",
				     strerror(errno));
	return 0;
}

/* The last line of a route file, and whether all of it was written. */
int sluice_routes_write_end(FILE *f, char *err, size_t errlen)
{
	fputs("end\n", f);
	if (fflush(f) || ferror(f))
		return sluice_i_errf(err, errlen, -EIO, "cannot write: %s",
				     strerror(errno));
	return 0;
}

/* See sluice/route.h. */
int sluice_routes_pairs_sink(void *arg, const struct sluice_routes *chunk,
			     char *err, size_t errlen)
{
	const struct sluice_routes_pairs_out *o = arg;

	return sluice_routes_write_pairs(chunk, o->g, o->f, err, errlen);
}

/**
 * sluice_routes_write() - the route file of @r
 * @r:		a route set
 * @g:		its topology, for the node names
 * @f:		where to write
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * Return: 0, -EINVAL (options out of range), -ENOMEM or -EIO.
 */
int sluice_routes_write(const struct sluice_routes *r,
			const struct sluice_graph *g, FILE *f,
			char *err, size_t errlen)
{
	int ret = sluice_routes_write_head(r, g, f, err, errlen);

	if (!ret)
		ret = sluice_routes_write_pairs(r, g, f, err, errlen);
	if (ret == -ENOMEM)
		return ret;
	/* the end even after a failure, as the file stops there */
	if (ret != -EINVAL) {
		int end = sluice_routes_write_end(f, err, errlen);

		ret = ret ? ret : end;
	}
	return ret;
}

/* Node names to ids: open addressing over a power of two. */
struct names {
	uint32_t	*slot;	/* node id + 1, 0 empty */
	uint32_t	mask;
};

static uint32_t name_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	while (len--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int names_init(struct names *n, const struct sluice_graph *g)
{
	uint32_t size = 16, u, h;

	while (size < 2 * g->n_nodes)
		size *= 2;
	n->slot = sluice_i_calloc(size, sizeof(*n->slot));
	if (!n->slot)
		return -ENOMEM;
	n->mask = size - 1;
	for (u = 0; u < g->n_nodes; u++) {
		const char *s = g->nodes[u].name;

		h = name_hash(s, strlen(s)) & n->mask;
		while (n->slot[h])
			h = (h + 1) & n->mask;
		n->slot[h] = u + 1;
	}
	return 0;
}

static int64_t names_find(const struct names *n, const struct sluice_graph *g,
			  const char *s, size_t len)
{
	uint32_t h = name_hash(s, len) & n->mask;
	const char *name;

	while (n->slot[h]) {
		name = g->nodes[n->slot[h] - 1].name;
		if (!strncmp(name, s, len) && !name[len])
			return n->slot[h] - 1;
		h = (h + 1) & n->mask;
	}
	return -1;
}

struct caps {
	uint64_t	pairs, pairs2, pairs3, paths, paths2, hops;
};

/* Reads the header into @r, checking it against @g. */
static int read_header(struct text_reader *rd, struct sluice_routes *r,
		       const struct sluice_graph *g, const struct names *nm,
		       uint64_t *pairs, uint64_t *paths, uint64_t *hops)
{
	uint64_t version, hash, lanes, seed, truncated;
	char algo[32], orient[8], root[SLUICE_NAME_MAX];
	uint32_t nodes, links, si, sc, paths_opt, i, n_ep;
	const char *s;
	int alg;

	s = text_next(rd);
	if (!s || !text_lit(&s, FORMAT " ") ||
	    !text_u64(&s, UINT64_MAX, &version) || *s)
		return text_bad(rd, "not a route file: the first line must be \"%s %d\"",
				FORMAT, VERSION);
	if (version != VERSION)
		return text_bad(rd, "version %llu: this sluicectl reads version %d",
				(unsigned long long)version, VERSION);
	s = text_next(rd);
	if (!s || !text_lit(&s, "topology nodes ") || !text_u32(&s, &nodes) ||
	    !text_lit(&s, " links ") || !text_u32(&s, &links) ||
	    !text_lit(&s, " hash ") || !text_hash(&s, &hash) || *s)
		return text_bad(rd, "expected \"topology nodes N links L hash H\"");
	if (nodes != g->n_nodes || links != g->n_links ||
	    hash != sluice_graph_hash(g))
		return text_bad(rd, "the routes belong to another topology (%u nodes, %u links, hash %016llx; this one has %u, %u, %016llx)",
				nodes, links, (unsigned long long)hash,
				g->n_nodes, g->n_links,
				(unsigned long long)sluice_graph_hash(g));
	s = text_next(rd);
	if (!s || !text_lit(&s, "algo ") || !text_word(&s, algo, sizeof(algo)) ||
	    !text_lit(&s, " paths ") || !text_u32(&s, &paths_opt) ||
	    !text_lit(&s, " lanes ") || !text_u64(&s, UINT64_MAX, &lanes) ||
	    !text_lit(&s, " seed ") || !text_u64(&s, UINT64_MAX, &seed) ||
	    !text_lit(&s, " orient ") ||
	    !text_word(&s, orient, sizeof(orient)) ||
	    !text_lit(&s, " root ") || !text_word(&s, root, sizeof(root)) || *s)
		return text_bad(rd, "expected \"algo NAME paths N lanes N seed N orient O root NODE\"");
	alg = sluice_route_algo_parse(algo);
	if (alg < 0)
		return text_bad(rd, "unknown algorithm \"%s\"", algo);
	if (lanes > SLUICE_LANES_MAX)
		return text_bad(rd, "lanes %llu: at most %d",
				(unsigned long long)lanes, SLUICE_LANES_MAX);
	strcpy(r->algo, sluice_route_algo_name(alg));
	r->opts.algo = alg;
	r->opts.paths = paths_opt;
	r->opts.lanes = lanes;
	r->opts.seed = seed;
	for (i = 0; i < 3; i++)
		if (!strcmp(orient, orient_names[i]))
			break;
	if (i == 3)
		return text_bad(rd, "unknown orientation \"%s\"", orient);
	r->opts.orient = i;
	if (strcmp(root, "-")) {
		int64_t u = names_find(nm, g, root, strlen(root));

		if (u < 0)
			return text_bad(rd, "root \"%s\" is not a node of the topology",
					root);
		r->opts.has_root = true;
		r->opts.root = u;
	}
	s = text_next(rd);
	if (!s || !text_lit(&s, "shard ") || !text_u32(&s, &si) ||
	    !text_lit(&s, "/") || !text_u32(&s, &sc) || *s || !sc || si >= sc)
		return text_bad(rd, "expected \"shard I/N\" with I below N");
	n_ep = sluice_graph_endpoints(g, NULL);
	if (sc > n_ep)
		return text_bad(rd, "%u shards for %u sources: at most one shard per source",
				sc, n_ep);
	r->shard_index = si;
	r->shard_count = sc;
	s = text_next(rd);
	if (!s || !text_lit(&s, "pairs ") || !text_u64(&s, UINT64_MAX, pairs) ||
	    !text_lit(&s, " paths ") || !text_u64(&s, UINT64_MAX, paths) ||
	    !text_lit(&s, " hops ") || !text_u64(&s, UINT64_MAX, hops) ||
	    !text_lit(&s, " truncated ") ||
	    !text_u64(&s, UINT64_MAX, &truncated) || *s)
		return text_bad(rd, "expected \"pairs N paths N hops N truncated N\"");
	if (truncated > *pairs)
		return text_bad(rd, "truncated %llu: more than the %llu pairs",
				(unsigned long long)truncated,
				(unsigned long long)*pairs);
	r->truncated_pairs = truncated;
	r->n_nodes = nodes;
	r->n_links = links;
	r->topo_hash = hash;
	return 0;
}

/* The path being read, counted from 1 within its pair. */
static unsigned long long path_no(const struct sluice_routes *r)
{
	return r->n_paths - r->pair_path[r->n_pairs - 1] + 1;
}

/* At most this much of a bad token goes into a message. */
#define TOKEN_SHOWN	24

/*
 * Parses one pair line into @r, growing its arrays.  The line is
 * "SOURCE DESTINATION:" then, for each path, " |" before all but the
 * first, an optional " @L" and " ID" for each link.  Node names have no
 * space but may have colons ("leaf:0"): the destination is the second
 * word, less the colon that ends it.
 */
static int read_pair(struct text_reader *rd, struct sluice_routes *r,
		     const struct sluice_graph *g, const struct names *nm,
		     struct caps *cap, const char *s)
{
	const char *sp = strchr(s, ' '), *end, *tok;
	uint64_t v, start = 0, rest;
	bool in_path = false;
	int64_t src, dst;
	size_t len;

	end = sp ? sp + 1 + strcspn(sp + 1, " ") : NULL;
	if (!sp || sp == s || end - sp < 3 || end[-1] != ':')
		return text_bad(rd, "expected \"SOURCE DESTINATION: PATH | ...\"");
	src = names_find(nm, g, s, sp - s);
	dst = names_find(nm, g, sp + 1, end - sp - 2);
	if (src < 0 || dst < 0)
		return text_bad(rd, "\"%.*s\" is not a node of the topology",
				(int)(src < 0 ? sp - s : end - sp - 2),
				src < 0 ? s : sp + 1);
	if (SLUICE_I_GROW(r->pair_src, cap->pairs, r->n_pairs + 1) ||
	    SLUICE_I_GROW(r->pair_dst, cap->pairs2, r->n_pairs + 1) ||
	    SLUICE_I_GROW(r->pair_path, cap->pairs3, r->n_pairs + 2))
		return -ENOMEM;
	r->pair_src[r->n_pairs] = src;
	r->pair_dst[r->n_pairs] = dst;
	r->pair_path[r->n_pairs] = r->n_paths;
	r->n_pairs++;
	/* room for as many paths and hops as the line has tokens, or more */
	rest = strlen(end) / 2 + 1;
	if (SLUICE_I_GROW(r->path_hop, cap->paths, r->n_paths + rest + 1) ||
	    SLUICE_I_GROW(r->path_lane, cap->paths2, r->n_paths + rest) ||
	    SLUICE_I_GROW(r->hops, cap->hops, r->n_hops + rest))
		return -ENOMEM;
	for (s = end; *s; s = tok + len) {
		/* *s is the space before the next token */
		if (s[1] == '\0')
			return text_bad(rd, "a space at the end of the line");
		if (s[1] == ' ')
			return text_bad(rd, "two spaces in a row");
		tok = s + 1;
		if (*tok >= '0' && *tok <= '9' && in_path) {
			/* the common case, a link id, without strcspn() */
			const char *p = tok;

			if (!g->n_links || !text_u64(&p, g->n_links - 1, &v) ||
			    (*p != ' ' && *p))
				goto bad_link;
			len = p - tok;
			if (r->n_hops - start == SLUICE_PATH_HOPS_MAX)
				return text_bad(rd, "path %llu: more than %d links",
						path_no(r),
						SLUICE_PATH_HOPS_MAX);
			r->hops[r->n_hops++] = v;
			continue;
		}
		len = strcspn(tok, " ");
		if (len == 1 && *tok == '|') {
			if (!in_path || r->n_hops == start)
				return text_bad(rd, "path %llu is empty",
						path_no(r));
			r->n_paths++;
			in_path = false;
			continue;
		}
		if (!in_path) {
			r->path_hop[r->n_paths] = r->n_hops;
			r->path_lane[r->n_paths] = 0;
			start = r->n_hops;
			in_path = true;
		}
		if (*tok == '@') {
			const char *p = tok + 1;

			if (r->n_hops != start)
				return text_bad(rd, "path %llu: its lane comes before its links",
						path_no(r));
			if (r->path_lane[r->n_paths] ||
			    !text_u64(&p, SLUICE_LANES_MAX - 1, &v) || !v ||
			    p != tok + len)
				return text_bad(rd, "path %llu: a lane is @1 to @%d, not \"%.*s\"",
						path_no(r),
						SLUICE_LANES_MAX - 1,
						(int)(len < TOKEN_SHOWN ? len :
						 TOKEN_SHOWN), tok);
			r->path_lane[r->n_paths] = v;
			continue;
		}
		{
			const char *p = tok;

			if (!g->n_links || !text_u64(&p, g->n_links - 1, &v) ||
			    p != tok + len) {
bad_link:
				len = strcspn(tok, " ");
				return text_bad(rd, "path %llu: a link id from 0 to %lld, not \"%.*s\"",
						path_no(r),
						(long long)g->n_links - 1,
						(int)(len < TOKEN_SHOWN ? len :
						 TOKEN_SHOWN), tok);
			}
		}
		if (r->n_hops - start == SLUICE_PATH_HOPS_MAX)
			return text_bad(rd, "path %llu: more than %d links",
					path_no(r), SLUICE_PATH_HOPS_MAX);
		r->hops[r->n_hops++] = v;
	}
	if (in_path && r->n_hops == start)
		return text_bad(rd, "path %llu is empty", path_no(r));
	if (in_path)
		r->n_paths++;
	else if (r->n_paths != r->pair_path[r->n_pairs - 1])
		return text_bad(rd, "path %llu is empty", path_no(r));
	return 0;
}

/* Pairs a chunk of a read holds before it goes to the sink. */
#define CHUNK_PAIRS	4096

/*
 * A read in progress: the chunk being filled, and the first problem that
 * validation found, kept for the end: a file that does not parse, or does
 * not add up, says so first, as when the checks came after the reading.
 */
struct reading {
	struct text_reader		rd;
	const struct sluice_graph	*g;
	struct sluice_routes		chunk;
	struct caps			cap;
	struct sluice_i_checker		ck;
	sluice_routes_sink_fn		sink;
	void				*arg;
	uint64_t			pairs, paths, hops;	/* read */
	int				bad;	/* validation's verdict */
	uint64_t			bad_at;
	char				bad_msg[SLUICE_ERRLEN];
};

/*
 * The chunk read so far goes through validation and, while all is well,
 * to the sink; then it starts over.  0, or what stops the read at once
 * (-ENOMEM, the sink's error).
 */
static int flush(struct reading *rdg)
{
	struct sluice_routes *c = &rdg->chunk;
	uint64_t at;
	int ret;

	if (SLUICE_I_GROW(c->pair_path, rdg->cap.pairs3, c->n_pairs + 1) ||
	    SLUICE_I_GROW(c->path_hop, rdg->cap.paths, c->n_paths + 1))
		return -ENOMEM;
	c->pair_path[c->n_pairs] = c->n_paths;
	c->path_hop[c->n_paths] = c->n_hops;
	rdg->pairs += c->n_pairs;
	rdg->paths += c->n_paths;
	rdg->hops += c->n_hops;
	if (!rdg->bad) {
		ret = sluice_i_checker_add(&rdg->ck, c, &at, rdg->bad_msg,
					   sizeof(rdg->bad_msg));
		if (ret == -ENOMEM)
			return ret;
		if (ret) {
			rdg->bad = ret;
			rdg->bad_at = at;
		}
	}
	if (!rdg->bad && rdg->sink) {
		ret = rdg->sink(rdg->arg, c, rdg->rd.err, rdg->rd.errlen);
		if (ret)
			return ret;
	}
	c->n_pairs = c->n_paths = c->n_hops = 0;
	c->truncated_pairs = 0;
	return 0;
}

/* Validation's verdict, as "NAME:LINE: problem" or "NAME: problem". */
static int bad_verdict(struct reading *rdg, const char *name)
{
	if (rdg->bad_at == SLUICE_I_AT_SET)
		return sluice_i_errf(rdg->rd.err, rdg->rd.errlen, rdg->bad,
				     "%s: %s", name, rdg->bad_msg);
	/* pair p is on the line after the totals, plus p */
	return sluice_i_errf(rdg->rd.err, rdg->rd.errlen, rdg->bad,
			     "%s:%llu: %s", name,
			     (unsigned long long)(HEADER_LINES + 1 +
						  rdg->bad_at), rdg->bad_msg);
}

/**
 * sluice_routes_read_stream() - read a route file a chunk at a time
 * @g:		the topology the routes belong to, finalized
 * @f:		the file
 * @name:	its name, for messages
 * @head:	filled with the header: the set's fields and the totals it
 *		promises
 * @sink:	called with each chunk of pairs, in order, once validated
 *		(NULL: validate only)
 * @arg:	@sink's
 * @err:	"NAME:LINE: what is wrong", or the sink's message
 * @errlen:	room in @err
 *
 * What sluice_routes_read() accepts and refuses, with the same messages,
 * holding a few thousand pairs at a time: the sink never gets a pair that
 * fails validation or any after it, but a file that does not read to its
 * end or does not add up is refused for that, as a whole read would.
 * The sink has had every pair only when this returns 0.
 *
 * Return: 0, -EINVAL, -ENOMEM, -EIO or the sink's error.
 */
int sluice_routes_read_stream(const struct sluice_graph *g, FILE *f,
			      const char *name, struct sluice_routes *head,
			      sluice_routes_sink_fn sink, void *arg,
			      char *err, size_t errlen)
{
	struct reading rdg = {
		.rd = { .f = f, .name = name, .err = err, .errlen = errlen },
		.g = g, .sink = sink, .arg = arg,
	};
	uint64_t pairs = 0, paths = 0, hops = 0, at;
	struct names nm;
	char *s;
	int ret;

	memset(head, 0, sizeof(*head));
	if (names_init(&nm, g))
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	ret = read_header(&rdg.rd, head, g, &nm, &pairs, &paths, &hops);
	if (!ret) {
		head->n_pairs = pairs;
		head->n_paths = paths;
		head->n_hops = hops;
		rdg.chunk = *head;
		rdg.chunk.n_pairs = rdg.chunk.n_paths = rdg.chunk.n_hops = 0;
		rdg.chunk.truncated_pairs = 0;
		rdg.bad = sluice_i_checker_init(&rdg.ck, head, g, rdg.bad_msg,
						sizeof(rdg.bad_msg));
		rdg.bad_at = SLUICE_I_AT_SET;
	}
	while (!ret) {
		s = text_next(&rdg.rd);
		if (!s) {
			ret = ferror(f) ? sluice_i_errf(err, errlen, -EIO,
							 "%s: cannot read: %s",
							 name, strerror(errno)) :
			      text_truncated(&rdg.rd, NULL);
			break;
		}
		if (!strcmp(s, "end"))
			break;
		ret = read_pair(&rdg.rd, &rdg.chunk, g, &nm, &rdg.cap, s);
		if (!ret && rdg.chunk.n_pairs == CHUNK_PAIRS)
			ret = flush(&rdg);
	}
	if (!ret)
		ret = flush(&rdg);
	if (ret == -ENOMEM)
		sluice_i_errf(err, errlen, ret, "out of memory");
	/* on the "end" line, where the counts are known */
	if (!ret && (rdg.pairs != pairs || rdg.paths != paths ||
		     rdg.hops != hops))
		ret = text_bad(&rdg.rd, "the header promised %llu pairs, %llu paths and %llu hops; the file has %llu, %llu and %llu",
			       (unsigned long long)pairs,
			       (unsigned long long)paths,
			       (unsigned long long)hops,
			       (unsigned long long)rdg.pairs,
			       (unsigned long long)rdg.paths,
			       (unsigned long long)rdg.hops);
	if (!ret && (text_next(&rdg.rd) || rdg.rd.ret))
		ret = text_bad(&rdg.rd, "text after \"end\"");
	if (!ret && !rdg.bad) {
		rdg.bad = sluice_i_checker_end(&rdg.ck, head, &at, rdg.bad_msg,
					       sizeof(rdg.bad_msg));
		rdg.bad_at = at;
	}
	if (!ret && rdg.bad == -ENOMEM)
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	else if (!ret && rdg.bad)
		ret = bad_verdict(&rdg, name);
	sluice_i_checker_free(&rdg.ck);
	free(rdg.chunk.pair_src);
	free(rdg.chunk.pair_dst);
	free(rdg.chunk.pair_path);
	free(rdg.chunk.path_hop);
	free(rdg.chunk.path_lane);
	free(rdg.chunk.hops);
	free(rdg.rd.line);
	free(nm.slot);
	return ret;
}

/**
 * sluice_routes_read_head() - a route file's header alone
 * @g:		the topology the routes belong to, finalized
 * @f:		the file, left after its header
 * @name:	its name, for messages
 * @head:	filled: the set's fields and the totals it promises
 * @err:	"NAME:LINE: what is wrong"
 * @errlen:	room in @err
 *
 * Checks the header as sluice_routes_read() does, no more: to plan work
 * on files before reading them through.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_routes_read_head(const struct sluice_graph *g, FILE *f,
			    const char *name, struct sluice_routes *head,
			    char *err, size_t errlen)
{
	struct text_reader rd = { .f = f, .name = name, .err = err,
			     .errlen = errlen };
	uint64_t pairs, paths, hops;
	struct names nm;
	int ret;

	memset(head, 0, sizeof(*head));
	if (names_init(&nm, g))
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	ret = read_header(&rd, head, g, &nm, &pairs, &paths, &hops);
	head->n_pairs = pairs;
	head->n_paths = paths;
	head->n_hops = hops;
	free(rd.line);
	free(nm.slot);
	if (ret)
		memset(head, 0, sizeof(*head));
	return ret;
}

/* The whole-set reader's sink: collect, then say how far it got. */
struct collecting {
	struct sluice_i_collector	col;
	const struct sluice_routes	*head;	/* the pairs promised */
	sluice_progress_fn		progress;
	void				*progress_arg;
	uint64_t			pairs;
};

static int collect(void *arg, const struct sluice_routes *chunk, char *err,
		   size_t errlen)
{
	struct collecting *c = arg;
	uint64_t total = c->head->n_pairs, done;
	int ret;

	ret = sluice_i_collect(&c->col, chunk, err, errlen);
	c->pairs += chunk->n_pairs;
	done = c->pairs < total ? c->pairs : total;
	if (!ret && c->progress) {
		/* the callback counts in 32 bits: scale a larger set down */
		while (total > UINT32_MAX) {
			total >>= 1;
			done >>= 1;
		}
		c->progress(c->progress_arg, done, total);
	}
	return ret;
}

/**
 * sluice_routes_read_progress() - load a route file, saying how far
 * @r:		filled on success; all zeroes on failure
 * @g:		the topology the routes belong to, finalized
 * @f:		the file
 * @name:	its name, for messages
 * @progress:	called after each chunk of pairs with the pairs read and
 *		those the header promises; NULL: none
 * @progress_arg: @progress's
 * @err:	"NAME:LINE: what is wrong"
 * @errlen:	room in @err
 *
 * Validates everything (sluice_routes_validate()), so a loaded route set
 * is whole and consistent; nothing is kept of a bad file.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_routes_read_progress(struct sluice_routes *r,
				const struct sluice_graph *g, FILE *f,
				const char *name, sluice_progress_fn progress,
				void *progress_arg, char *err, size_t errlen)
{
	struct sluice_routes head;
	struct collecting c = {
		.col = { .r = r }, .head = &head, .progress = progress,
		.progress_arg = progress_arg,
	};
	int ret;

	memset(r, 0, sizeof(*r));
	ret = sluice_routes_read_stream(g, f, name, &head, collect, &c, err,
					errlen);
	if (!ret)
		ret = sluice_i_collect_end(&c.col, &head, err, errlen);
	if (ret)
		sluice_routes_free(r);
	return ret;
}

/**
 * sluice_routes_read() - load a route file
 * @r:		filled on success; all zeroes on failure
 * @g:		the topology the routes belong to, finalized
 * @f:		the file
 * @name:	its name, for messages
 * @err:	"NAME:LINE: what is wrong"
 * @errlen:	room in @err
 *
 * sluice_routes_read_progress() without the progress.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_routes_read(struct sluice_routes *r, const struct sluice_graph *g,
		       FILE *f, const char *name, char *err, size_t errlen)
{
	return sluice_routes_read_progress(r, g, f, name, NULL, NULL, err,
					   errlen);
}

static bool same_opts(const struct sluice_route_opts *a,
		      const struct sluice_route_opts *b)
{
	return a->algo == b->algo && a->paths == b->paths &&
	       a->lanes == b->lanes && a->seed == b->seed &&
	       a->orient == b->orient && a->has_root == b->has_root &&
	       (!a->has_root || a->root == b->root);
}

/**
 * sluice_routes_merge_plan() - how the shards of a route set join
 * @out:	the whole set's header: shard 0/1, the totals of the shards
 * @shards:	@n route sets, or their headers alone, shards 0/n to n-1/n
 *		in any order
 * @n:		the shard count
 * @order:	room for @n: set to the index in @shards of shard 0, 1, ...
 * @err:	why they do not join
 * @errlen:	room in @err
 *
 * The shards must come from the same topology, algorithm and options.
 *
 * Return: 0 or -EINVAL.
 */
int sluice_routes_merge_plan(struct sluice_routes *out,
			     const struct sluice_routes *shards, uint32_t n,
			     uint32_t *order, char *err, size_t errlen)
{
	uint32_t i;

	memset(out, 0, sizeof(*out));
	if (!n)
		return sluice_i_errf(err, errlen, -EINVAL, "no shards");
	for (i = 0; i < n; i++)
		order[i] = UINT32_MAX;
	for (i = 0; i < n; i++) {
		const struct sluice_routes *s = &shards[i];

		if (s->shard_count != n)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "shard %u/%u given with %u shards",
					     s->shard_index, s->shard_count, n);
		if (s->shard_index >= n)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "shard %u/%u: the index must be below the count",
					     s->shard_index, n);
		if (order[s->shard_index] != UINT32_MAX)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "shard %u/%u given twice",
					     s->shard_index, n);
		if (s->topo_hash != shards[0].topo_hash ||
		    strcmp(s->algo, shards[0].algo) ||
		    !same_opts(&s->opts, &shards[0].opts))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "shard %u/%u comes from another topology, algorithm or options than shard %u/%u",
					     s->shard_index, n,
					     shards[0].shard_index, n);
		order[s->shard_index] = i;
		out->n_pairs += s->n_pairs;
		out->n_paths += s->n_paths;
		out->n_hops += s->n_hops;
		out->truncated_pairs += s->truncated_pairs;
	}
	memcpy(out->algo, shards[0].algo, sizeof(out->algo));
	out->opts = shards[0].opts;
	out->n_nodes = shards[0].n_nodes;
	out->n_links = shards[0].n_links;
	out->topo_hash = shards[0].topo_hash;
	out->shard_index = 0;
	out->shard_count = 1;
	return 0;
}

/**
 * sluice_routes_merge() - join the shards of a route set
 * @out:	the whole set; all zeroes on failure
 * @shards:	@n route sets, shards 0/n to n-1/n in any order
 * @n:		the shard count
 * @err:	why they do not join
 * @errlen:	room in @err
 *
 * The shards must come from the same topology, algorithm and options
 * (sluice_routes_merge_plan()).
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_routes_merge(struct sluice_routes *out,
			const struct sluice_routes *shards, uint32_t n,
			char *err, size_t errlen)
{
	struct sluice_routes head;
	uint32_t *order, i;
	uint64_t k;
	int ret;

	memset(out, 0, sizeof(*out));
	order = sluice_i_calloc(n ? n : 1, sizeof(*order));
	if (!order)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	ret = sluice_routes_merge_plan(&head, shards, n, order, err, errlen);
	if (ret)
		goto out;
	*out = head;
	out->n_pairs = out->n_paths = out->n_hops = 0;
	out->pair_src = sluice_i_calloc(head.n_pairs, sizeof(*out->pair_src));
	out->pair_dst = sluice_i_calloc(head.n_pairs, sizeof(*out->pair_dst));
	out->pair_path = sluice_i_calloc(head.n_pairs + 1,
					 sizeof(*out->pair_path));
	out->path_hop = sluice_i_calloc(head.n_paths + 1,
					sizeof(*out->path_hop));
	out->path_lane = sluice_i_calloc(head.n_paths, sizeof(*out->path_lane));
	out->hops = sluice_i_calloc(head.n_hops, sizeof(*out->hops));
	if (!out->pair_src || !out->pair_dst || !out->pair_path ||
	    !out->path_hop || !out->path_lane || !out->hops) {
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct sluice_routes *s = &shards[order[i]];

		/* a read set without pairs or paths has NULL arrays */
		if (s->n_pairs) {
			memcpy(out->pair_src + out->n_pairs, s->pair_src,
			       s->n_pairs * sizeof(*s->pair_src));
			memcpy(out->pair_dst + out->n_pairs, s->pair_dst,
			       s->n_pairs * sizeof(*s->pair_dst));
		}
		for (k = 0; k < s->n_pairs; k++)
			out->pair_path[out->n_pairs + k] = out->n_paths +
							   s->pair_path[k];
		for (k = 0; k < s->n_paths; k++)
			out->path_hop[out->n_paths + k] = out->n_hops +
							  s->path_hop[k];
		if (s->n_paths) {
			memcpy(out->path_lane + out->n_paths, s->path_lane,
			       s->n_paths);
			memcpy(out->hops + out->n_hops, s->hops,
			       s->n_hops * sizeof(*s->hops));
		}
		out->n_pairs += s->n_pairs;
		out->n_paths += s->n_paths;
		out->n_hops += s->n_hops;
	}
	out->pair_path[out->n_pairs] = out->n_paths;
	out->path_hop[out->n_paths] = out->n_hops;
out:
	free(order);
	if (ret)
		sluice_routes_free(out);
	return ret;
}
