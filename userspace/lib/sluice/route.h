/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Route sets: for every ordered pair of distinct endpoints of a fabric, the
 * paths traffic between them may take.
 *
 * A path is a sequence of link ids (sluice/graph.h) walked from the pair's
 * source to its destination; the direction of each hop follows from the
 * walk.  A path also has a lane: the virtual lane (PFC priority) its frames
 * use, 0 unless the algorithm spreads paths over lanes (EDST with several
 * tree sets).  Buffers, and so dependencies, are per link direction and
 * lane: the CBD check (sluice/cbd.h) keeps lanes apart.
 *
 * Endpoints are the nodes that carry traffic: nodes with host ports and
 * servers, or every node if the fabric has neither (a bare ring).  The
 * pairs are ordered by (source, destination) node index; each pair is
 * present even when it has no path, so that a disconnected pair shows
 * (edst and edst-shallow refuse a disconnected fabric instead: spanning
 * trees need one component).
 *
 * Computing is done per source: an algorithm fills, for one source, the
 * paths to every destination (struct sluice_path_buf), and the driver
 * (sluice_routes_compute()) runs sources on several threads and joins them
 * in source order, so that the result does not depend on the thread count.
 * A shard "i/n" computes the i-th of n contiguous slices of the sources;
 * sluice_routes_merge() joins all n slices back into the whole set.
 */
#ifndef _SLUICE_ROUTE_H
#define _SLUICE_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sluice/graph.h>

#define SLUICE_ALGO_NAME_MAX	16
#define SLUICE_LANES_MAX	8	/* PFC priorities */
#define SLUICE_PATH_HOPS_MAX	4096	/* longest path a route set may hold */
#define SLUICE_KSP_PATHS_MAX	65536	/* the largest k of ksp */

enum sluice_route_algo {
	SLUICE_ROUTE_FC,		/* FC edge-disjoint virtual up-down */
	SLUICE_ROUTE_EDST,		/* edge-disjoint spanning trees */
	SLUICE_ROUTE_EDST_SHALLOW,	/* the same, trees kept short */
	SLUICE_ROUTE_ECMP,		/* all shortest paths */
	SLUICE_ROUTE_KSP,		/* Yen's k shortest loopless paths */
	SLUICE_ROUTE_UPDOWN,		/* up*_/down* (tiers or BFS-rooted) */
	SLUICE_ROUTE_BCUBE,		/* BCube's parallel source routes */
	SLUICE_ROUTE_ECMP_CW,		/* ecmp, clockwise paths only */
	SLUICE_ROUTE__COUNT,
};

/* How up*_/down* orients the links. */
enum sluice_updown_orient {
	SLUICE_ORIENT_AUTO,	/* tiers if every node has one, else BFS */
	SLUICE_ORIENT_TIER,	/* up is towards the higher Clos tier */
	SLUICE_ORIENT_BFS,	/* up is towards the root of a BFS */
};

/*
 * What an algorithm is asked for.  Zero means "the default" for every
 * field, so that a zeroed struct with only .algo set is valid.
 */
struct sluice_route_opts {
	enum sluice_route_algo	algo;
	/*
	 * ksp: the k of k shortest paths (default 8).  ecmp, ecmp-cw and updown: the
	 * most paths kept per pair (default 0, all of them); a pair that had
	 * more is counted in sluice_route_result.truncated_pairs.
	 */
	uint32_t		paths;
	/* edst, edst-shallow: tree sets, one per lane (default 1) */
	uint32_t		lanes;
	/* edst with lanes > 1: the seed that makes the tree sets differ */
	uint64_t		seed;
	/* updown */
	enum sluice_updown_orient orient;
	bool			has_root;
	uint32_t		root;	/* BFS root; default: lowest id of
					 * the highest degree */
};

/*
 * The paths of one source, as an algorithm produces them: for each
 * destination in increasing order, sluice_path_buf_pair() then zero or more
 * sluice_path_buf_add().
 */
struct sluice_path_buf {
	uint32_t	src;
	uint32_t	n_pairs, cap_pairs;
	uint32_t	*pair_dst;
	uint64_t	*pair_path;	/* first path of each pair */
	uint64_t	n_paths, cap_paths;
	uint64_t	*path_hop;	/* first hop of each path */
	uint8_t		*path_lane;
	uint64_t	n_hops, cap_hops;
	uint32_t	*hops;		/* link ids */
	uint64_t	truncated_pairs;
};

int sluice_path_buf_pair(struct sluice_path_buf *b, uint32_t dst);
int sluice_path_buf_add(struct sluice_path_buf *b, const uint32_t *links,
			uint32_t n_links, uint8_t lane);
void sluice_path_buf_reset(struct sluice_path_buf *b, uint32_t src);
void sluice_path_buf_free(struct sluice_path_buf *b);

/*
 * A whole route set (or one shard of it).  Pair p (0 <= p < n_pairs) goes
 * from pair_src[p] to pair_dst[p] and has the paths pair_path[p] to
 * pair_path[p + 1] - 1; path q has the hops path_hop[q] to
 * path_hop[q + 1] - 1 of hops[] and the lane path_lane[q].
 */
struct sluice_routes {
	char		algo[SLUICE_ALGO_NAME_MAX];
	struct sluice_route_opts opts;
	/* The topology the routes belong to (sluice_graph_hash()). */
	uint32_t	n_nodes;
	uint32_t	n_links;
	uint64_t	topo_hash;
	/* A shard: slice shard_index of shard_count; 0 of 1 for the whole. */
	uint32_t	shard_index;
	uint32_t	shard_count;
	uint64_t	n_pairs;
	uint32_t	*pair_src;
	uint32_t	*pair_dst;
	uint64_t	*pair_path;	/* n_pairs + 1 */
	uint64_t	n_paths;
	uint64_t	*path_hop;	/* n_paths + 1 */
	uint8_t		*path_lane;	/* n_paths */
	uint64_t	n_hops;
	uint32_t	*hops;
	uint64_t	truncated_pairs;
};

static inline uint64_t sluice_routes_pair_paths(const struct sluice_routes *r,
						uint64_t p)
{
	return r->pair_path[p + 1] - r->pair_path[p];
}

static inline uint32_t sluice_routes_path_len(const struct sluice_routes *r,
					      uint64_t q)
{
	return (uint32_t)(r->path_hop[q + 1] - r->path_hop[q]);
}

/*
 * The pair path @q (< n_paths) belongs to: the last whose first path is
 * at or before @q (pairs without a path share their successor's first).
 * Time: O(log pairs).
 */
static inline uint64_t sluice_routes_path_pair(const struct sluice_routes *r,
					       uint64_t q)
{
	uint64_t lo = 0, hi = r->n_pairs, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (r->pair_path[mid] <= q)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Called now and then from the computing threads' driver, never at once. */
typedef void (*sluice_progress_fn)(void *arg, uint32_t done, uint32_t total);

struct sluice_compute_opts {
	uint32_t		threads;	/* 0: one per online CPU */
	uint32_t		shard_index;
	uint32_t		shard_count;	/* 0 or 1: the whole set */
	sluice_progress_fn	progress;
	void			*progress_arg;
};

const char *sluice_route_algo_name(enum sluice_route_algo algo);

/* The options of struct sluice_route_opts only some algorithms take. */
enum sluice_route_opt {
	SLUICE_ROUTE_OPT_PATHS,		/* ksp, ecmp, ecmp-cw, updown */
	SLUICE_ROUTE_OPT_LANES,		/* edst, edst-shallow */
	SLUICE_ROUTE_OPT_SEED,		/* edst, edst-shallow */
	SLUICE_ROUTE_OPT_ORIENT,	/* updown */
	SLUICE_ROUTE_OPT_ROOT,		/* updown, BFS-oriented */
	SLUICE_ROUTE_OPT__COUNT,
};

/*
 * sluice_route_opts_check() - an algorithm's options, checked against it
 * @o:		.algo set, and what the user gave of .paths, .lanes, .seed;
 *		.orient set from @orient (BFS with a root and "auto")
 * @given:	bits 1 << SLUICE_ROUTE_OPT_* of the options the user gave
 * @orient:	the orientation's name ("auto", "tier" or "bfs"), or NULL
 * @names:	each option's name as the user knows it ("--paths"), by
 *		enum sluice_route_opt, for messages; NULL (or a NULL entry):
 *		the field's ("paths")
 * @err:	what does not fit, "--paths applies to ksp, ecmp and updown"
 * @errlen:	room in @err
 *
 * An option the algorithm does not take, an unknown orientation, a root
 * with tier orientation: refused.  The root itself (@o->root, a node) is
 * the caller's to find once the topology is read.  Time: O(1).
 *
 * Return: 0 or -EINVAL.
 */
int sluice_route_opts_check(struct sluice_route_opts *o, unsigned int given,
			    const char *orient, const char *const *names,
			    char *err, size_t errlen);
/* ecmp-cw's test: each hop from node i to node (i + 1) mod n (ecmp.c). */
bool sluice_route_path_clockwise(const struct sluice_graph *g, uint32_t src,
				 const uint32_t *links, uint32_t n);
int sluice_route_algo_parse(const char *name);

uint32_t sluice_graph_endpoints(const struct sluice_graph *g, uint32_t *ep);
uint64_t sluice_graph_hash(const struct sluice_graph *g);

/*
 * Time: the algorithm's preparation plus its per-source cost times the sources,
 * divided by the threads; memory: twice the route set at the end.
 */
int sluice_routes_compute(const struct sluice_graph *g,
			  const struct sluice_route_opts *o,
			  const struct sluice_compute_opts *c,
			  struct sluice_routes *r, char *err, size_t errlen);

/*
 * Streaming: a route set handed over a chunk at a time, in pair order, so
 * that it never needs to sit whole in memory.  A chunk is a struct
 * sluice_routes of some consecutive pairs (one source's, when computed):
 * its header fields those of the whole set, its counts and arrays its own
 * (index arrays with their ends, as in any set), valid only during the
 * call.  A sink returns 0, or a negative errno with a message in @err to
 * stop the stream, which then returns it.
 */
typedef int (*sluice_routes_sink_fn)(void *arg,
				     const struct sluice_routes *chunk,
				     char *err, size_t errlen);

/*
 * Time: as sluice_routes_compute(); memory: the paths of 2 T + 2 sources
 * for T threads, never the set.
 */
int sluice_routes_compute_stream(const struct sluice_graph *g,
				 const struct sluice_route_opts *o,
				 const struct sluice_compute_opts *c,
				 struct sluice_routes *head,
				 sluice_routes_sink_fn sink, void *arg,
				 char *err, size_t errlen);

/*
 * A sink on a thread of its own, fed copies of the chunks (async.c).  Time:
 * a copy of each chunk, O(its pairs + paths + hops); memory: three chunks.
 */
struct sluice_routes_async;

int sluice_routes_async_start(struct sluice_routes_async **ap,
			      sluice_routes_sink_fn sink, void *arg,
			      char *err, size_t errlen);
int sluice_routes_async_add(void *async, const struct sluice_routes *chunk,
			    char *err, size_t errlen);
int sluice_routes_async_end(struct sluice_routes_async *a, char *err,
			    size_t errlen);
void sluice_routes_free(struct sluice_routes *r);
/* Time: O(paths). */
uint32_t sluice_routes_lanes(const struct sluice_routes *r);

/*
 * Checks a route set against its topology: hashes match, pairs in order and
 * between endpoints, every path a walk from its source to its destination
 * that never uses a link twice in the same direction, lanes in range.
 * Time: O(nodes + pairs + hops), with a mark per directed link that tells paths
 * apart.
 */
int sluice_routes_validate(const struct sluice_routes *r,
			   const struct sluice_graph *g,
			   char *err, size_t errlen);

/* The route file (file.c has the format). */
/* Time: O(pairs + hops). */
int sluice_routes_write(const struct sluice_routes *r,
			const struct sluice_graph *g, FILE *f,
			char *err, size_t errlen);
/* Time: O(file size). */
int sluice_routes_read(struct sluice_routes *r, const struct sluice_graph *g,
		       FILE *f, const char *name, char *err, size_t errlen);
/*
 * The same, calling @progress (pairs read, pairs in the file) after each
 * chunk of 4096 pairs.  Time: O(file size).
 */
int sluice_routes_read_progress(struct sluice_routes *r,
				const struct sluice_graph *g, FILE *f,
				const char *name, sluice_progress_fn progress,
				void *progress_arg, char *err, size_t errlen);
/*
 * The same, piece by piece: a stream's chunks written or read.  Time:
 * O(pairs + hops) of what each call is given; the reader O(file size), in
 * memory O(one chunk of 4096 pairs).
 */
int sluice_routes_write_head(const struct sluice_routes *head,
			     const struct sluice_graph *g, FILE *f,
			     char *err, size_t errlen);
int sluice_routes_write_pairs(const struct sluice_routes *r,
			      const struct sluice_graph *g, FILE *f,
			      char *err, size_t errlen);
int sluice_routes_write_end(FILE *f, char *err, size_t errlen);
/*
 * A sluice_routes_sink_fn writing each chunk's pairs to @f (@arg a struct
 * sluice_routes_pairs_out): a stream into a route file's body.  Time: as
 * sluice_routes_write_pairs().
 */
struct sluice_routes_pairs_out {
	const struct sluice_graph	*g;
	FILE				*f;
};

int sluice_routes_pairs_sink(void *arg, const struct sluice_routes *chunk,
			     char *err, size_t errlen);
int sluice_routes_read_stream(const struct sluice_graph *g, FILE *f,
			      const char *name, struct sluice_routes *head,
			      sluice_routes_sink_fn sink, void *arg,
			      char *err, size_t errlen);
/* Time: O(total size). */
int sluice_routes_merge(struct sluice_routes *out,
			const struct sluice_routes *shards, uint32_t n,
			char *err, size_t errlen);
/* A route file's header alone, its pairs unread.  Time: O(header). */
int sluice_routes_read_head(const struct sluice_graph *g, FILE *f,
			    const char *name, struct sluice_routes *head,
			    char *err, size_t errlen);
/* Time: O(n). */
int sluice_routes_merge_plan(struct sluice_routes *out,
			     const struct sluice_routes *shards, uint32_t n,
			     uint32_t *order, char *err, size_t errlen);

/*
 * The columns of FC's Tables 1, 2 and 7, over the pairs of the set.
 * Lengths count links (hops); add one for the paper's switch counts.
 */
struct sluice_route_stats {
	uint64_t	pairs;
	uint64_t	pairs_without_path;
	uint64_t	paths;
	uint64_t	paths_min;	/* per pair */
	uint64_t	paths_max;
	double		paths_avg;
	double		path_len_avg;	/* over all paths */
	uint32_t	path_len_min;	/* 0 without a path */
	uint32_t	path_len_max;
	/* per pair with a path: its shortest path in the set, averaged */
	double		shortest_len_avg;
	/*
	 * per pair whose endpoints are connected: the fabric's shortest
	 * distance, whatever the routes
	 */
	double		distance_avg;
	uint32_t	lanes;		/* highest lane used + 1 */
	uint64_t	truncated_pairs;
};

/* Time: O(hops + sources * (nodes + links)) for the BFS distances. */
int sluice_route_stats(const struct sluice_routes *r,
		       const struct sluice_graph *g,
		       struct sluice_route_stats *st,
		       char *err, size_t errlen);

/* The same, of a set fed a chunk at a time (stats.c). */
struct sluice_route_stats_stream;

int sluice_route_stats_start(struct sluice_route_stats_stream **sp,
			     const struct sluice_graph *g,
			     const struct sluice_routes *head,
			     struct sluice_route_stats *st, char *err,
			     size_t errlen);
int sluice_route_stats_add(void *stream, const struct sluice_routes *r,
			   char *err, size_t errlen);
void sluice_route_stats_end(struct sluice_route_stats_stream *s);
void sluice_route_stats_free(struct sluice_route_stats_stream *s);

#endif /* _SLUICE_ROUTE_H */
