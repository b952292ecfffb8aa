/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cyclic buffer dependency (CBD) check of a route set: FC (NSDI'23)
 * Appendix A.2, Definition 3, Theorem 7 and Algorithm 2.
 *
 * A lossless (PFC) switch pauses the sender of a link direction when its
 * buffer for that direction fills up, so a frame that crosses hop e1 and
 * then hop e2 makes e1's buffer wait on e2's: if e2 is paused long enough,
 * e1 is paused too.  The link dependency graph has a node for each buffer
 * some path uses - a link in one direction, on one lane (PFC priority),
 * since each lane has buffers of its own - and an edge e1 -> e2 for each
 * pair of consecutive hops of a path.  A set of paths can deadlock (has a
 * CBD) if and only if that graph has a cycle (Theorem 7).  Edges here go in
 * traffic order; the paper draws them the other way, the way pauses spread,
 * which has the same cycles.
 *
 * Paths never change lanes, so lanes split the graph: a set that has a CBD
 * on one lane becomes CBD-free when its paths are spread over lanes so that
 * no cycle stays within one.
 */
#ifndef _SLUICE_CBD_H
#define _SLUICE_CBD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/graph.h>
#include <sluice/route.h>

/*
 * One hop of a dependency cycle: traffic crosses @link from @from to @to on
 * @lane, and path @path (an index into the route set's paths) crosses this
 * hop and then, straight after it, the next hop of the cycle (for the last
 * hop, the first), so that path makes this hop's buffer wait on the next
 * one's.  It is the lowest-numbered path that does.
 */
struct sluice_cbd_hop {
	uint32_t	link;
	uint32_t	from, to;
	uint8_t		lane;
	uint64_t	path;
};

struct sluice_cbd_result {
	bool			cbd_free;
	/* the dependency graph: buffers some path uses, and its edges */
	uint64_t		link_lanes;	/* (link, direction, lane) */
	uint64_t		dependencies;	/* distinct (buffer, buffer) */
	uint32_t		lanes;		/* distinct lanes of paths */
	/*
	 * With a CBD: one cycle of the dependency graph, in traffic order,
	 * all on one lane, no buffer twice (n_cycle >= 2): a shortest one
	 * through the first hop's buffer, which is the buffer where a
	 * depth-first search in buffer order first closes a cycle.  NULL
	 * and 0 when CBD-free.
	 */
	uint32_t		n_cycle;
	struct sluice_cbd_hop	*cycle;
};

/*
 * Time: O(P + Q + H + lanes * (N + L + B)) where P, Q and H are the pairs,
 * paths and hops of @r, N and L the nodes and links, and B = sum over nodes v
 * of deg(v) * ceil(deg(v) / 64) the bitmap words per lane (deg(v)^2 / 64 bits'
 * worth); a CBD's witness takes one more O(P + Q + H) pass.  Memory: 8 *
 * lanes * B bytes of bitmap and O(lanes * L) more, nothing per path.  The
 * set as one chunk of sluice_cbd_stream_start()'s stream.
 */
int sluice_cbd_check(const struct sluice_graph *g,
		     const struct sluice_routes *r,
		     struct sluice_cbd_result *res, char *err, size_t errlen);
/* Time: O(1). */
void sluice_cbd_result_free(struct sluice_cbd_result *res);

/*
 * The same check of a set streamed a chunk at a time (sluice/route.h),
 * in cbd.c: start, add each chunk (a sluice_routes_sink_fn, the stream as
 * its arg), end for the verdict; on a CBD, feed the same chunks again to
 * sluice_cbd_stream_witness() (its arg a struct sluice_cbd_witness) and
 * call sluice_cbd_stream_witness_end() to name the cycle's paths.  Time: as
 * sluice_cbd_check() over the whole stream, each chunk O(its pairs + paths +
 * hops); memory that of the bitmaps, nothing per path.
 */
struct sluice_cbd_stream;

struct sluice_cbd_witness {
	struct sluice_cbd_stream	*s;
	struct sluice_cbd_result	*res;
};

int sluice_cbd_stream_start(struct sluice_cbd_stream **sp,
			    const struct sluice_graph *g,
			    const struct sluice_routes *head, char *err,
			    size_t errlen);
int sluice_cbd_stream_add(void *stream, const struct sluice_routes *chunk,
			  char *err, size_t errlen);
int sluice_cbd_stream_end(struct sluice_cbd_stream *s,
			  struct sluice_cbd_result *res, char *err,
			  size_t errlen);
int sluice_cbd_stream_witness(void *witness,
			      const struct sluice_routes *chunk, char *err,
			      size_t errlen);
int sluice_cbd_stream_witness_end(struct sluice_cbd_stream *s,
				  struct sluice_cbd_result *res, char *err,
				  size_t errlen);
void sluice_cbd_stream_free(struct sluice_cbd_stream *s);

#endif /* _SLUICE_CBD_H */
