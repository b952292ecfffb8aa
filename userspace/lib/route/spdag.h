/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * All shortest paths of one source, counted and listed in order, over the
 * links of a multigraph or over the legal turns of an up*_/down* orientation
 * (inside libsluice only: ecmp.c and updown.c share it).
 *
 * The search runs on states: a node, and for up*_/down* its phase (0 while
 * every move so far went up, 1 once one went down).  A BFS from the source's
 * state gives each state's distance and its number of shortest walks; a pair
 * then marks the states from which its destination is reached along the
 * shortest-path DAG and walks that DAG depth first, taking each node's links
 * in id order, so that the paths come out in lexicographic order of their
 * link ids.  Parallel links are distinct links: they give distinct paths.
 */
#ifndef _SLUICE_LIB_ROUTE_SPDAG_H
#define _SLUICE_LIB_ROUTE_SPDAG_H

#include <stdint.h>
#include <sluice/route.h>

/*
 * Without a cap, a pair with more shortest paths than this is refused:
 * listing them would exhaust memory before finishing.
 */
#define SLUICE_I_SPDAG_ALL_MAX	(1u << 22)

/* One thread's search state; read-only inputs and scratch space. */
struct sluice_i_spdag {
	const struct sluice_graph *g;
	/* up*_/down*: the node at the up end of each link; NULL: no turns */
	const uint32_t	*up_end;
	const char	*algo;		/* for messages */
	uint32_t	phases;		/* states per node: 1, or 2 */
	uint32_t	src;
	/* Per state: distance and shortest walks (saturated) from src. */
	uint32_t	*dist;
	uint64_t	*count;
	uint32_t	*queue;
	uint32_t	*mark;		/* == stamp: reaches the dst */
	uint32_t	stamp;
	/*
	 * The DAG's arcs into each state (CSR by state: pred_off has
	 * states + 1 entries), from the BFS, so that marking a pair walks
	 * only the arcs on its paths, not every link of every node it
	 * meets (a spine of a leaf-spine has one DAG arc in, and a link to
	 * every leaf).
	 */
	uint32_t	*pred_off;
	uint32_t	*pred_state;
	uint32_t	*pred_link;
	/*
	 * The marked sub-DAG's arcs out of each marked state, by link id:
	 * what the listing walks.  local[x] numbers the marked states.
	 */
	uint32_t	*local;
	uint32_t	*succ_off;
	uint32_t	*succ_state;
	uint32_t	*succ_link;
	/* Per depth of the listing walk: its state, next link, path. */
	uint32_t	*stack_state;
	uint32_t	*stack_pos;
	uint32_t	*path;
};

int sluice_i_spdag_init(struct sluice_i_spdag *d, const struct sluice_graph *g,
			const uint32_t *up_end, const char *algo);
void sluice_i_spdag_free(struct sluice_i_spdag *d);
void sluice_i_spdag_from(struct sluice_i_spdag *d, uint32_t src);
int sluice_i_spdag_paths(struct sluice_i_spdag *d, uint32_t dst, uint32_t cap,
			 struct sluice_path_buf *b, char *err, size_t errlen);

/* The ops of ecmp and updown, but for the context's fields. */
int sluice_i_spdag_new(const struct sluice_graph *g, const uint32_t *up_end,
		       const char *algo, void **worker);
void sluice_i_spdag_delete(void *worker);
int sluice_i_spdag_source(struct sluice_i_spdag *d, uint32_t cap,
			  const uint32_t *dsts, uint32_t n_dsts,
			  struct sluice_path_buf *b, char *err, size_t errlen);

#endif /* _SLUICE_LIB_ROUTE_SPDAG_H */
