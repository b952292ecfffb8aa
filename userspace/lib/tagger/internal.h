/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared inside libsluice's Tagger code (not installed).
 */
#ifndef _SLUICE_LIB_TAGGER_INTERNAL_H
#define _SLUICE_LIB_TAGGER_INTERNAL_H

#include <sluice/tagger.h>
#include "text.h"

/*
 * A route set Tagger can work on: @g finalized, @r valid for it
 * (sluice_routes_validate()) and whole (not a shard).  Time: that of
 * sluice_routes_validate().
 */
int sluice_i_tagger_routes_ok(const struct sluice_graph *g,
			      const struct sluice_routes *r,
			      char *err, size_t errlen);

/*
 * The tables' structure against @g: node and link counts, offsets that add
 * up, each entry's port one of its node's links or the hosts, tags below
 * SLUICE_TAGGER_TAGS_MAX, priorities and classes below SLUICE_LANES_MAX,
 * keys strictly increasing per node.  Time: O(nodes + entries).
 */
int sluice_i_tagger_tables_ok(const struct sluice_tagger_tables *tab,
			      const struct sluice_graph *g,
			      char *err, size_t errlen);

/*
 * A progress count handed to a sluice_progress_fn: @done of @total in 32
 * bits (a larger count scaled down), at most every 4096 units of work and
 * at the end, @done kept below @total until then.
 */
struct sluice_i_progress {
	sluice_progress_fn	fn;
	void			*arg;
	uint64_t		total;
	uint64_t		next;	/* report when done reaches it */
};

void sluice_i_progress_report(struct sluice_i_progress *p, uint64_t done);
void sluice_i_progress_end(struct sluice_i_progress *p);

/* The tables of @t (sluice_tagger_tables_build()), paths walked to @p. */
int sluice_i_tagger_tables_build(const struct sluice_graph *g,
				 const struct sluice_routes *r,
				 const struct sluice_tagging *t,
				 struct sluice_tagger_tables *tab,
				 struct sluice_i_progress *p,
				 char *err, size_t errlen);

/* "3 (to s7)": a port as messages name it, into @buf. */
const char *sluice_i_tagger_port(const struct sluice_graph *g, uint32_t node,
				 uint32_t port, char *buf, size_t size);

/*
 * Reading the tag file (lib/tagger/file.c has the format) - shared by
 * sluice_tagger_read(), which has the topology, and
 * sluice_switch_read_tags(), which reads one node's section without it.
 * Messages are "NAME:LINE: ..." through the reader (lib/text.h).
 */

/* The four header lines. */
struct sluice_i_tag_header {
	uint32_t		nodes, links;
	uint64_t		topo_hash;
	char			algo[SLUICE_ALGO_NAME_MAX];	/* "" for "-" */
	uint64_t		pairs, paths, hops;
	uint64_t		routes_hash;
	enum sluice_tagger_mode	mode;
	uint32_t		priorities, tags;
};

/*
 * A node's section as it is read: its "node" line, then its ports' link
 * ids (@links is reused from one section to the next).  @prios and @tags
 * run over every section read so far.
 */
struct sluice_i_tag_section {
	char		name[SLUICE_NAME_MAX];
	uint32_t	hosts, ports;
	uint64_t	n_in, n_out;
	uint32_t	*links;		/* @ports of them */
	uint64_t	links_cap;
	uint32_t	prios, tags;	/* in the entries, highest + 1 */
};

/* The entries of the sections kept: growable, the caller free()s them. */
struct sluice_i_tag_entries {
	struct sluice_tagger_in		*in;
	struct sluice_tagger_out	*out;
	uint64_t			n_in, n_out;
	uint64_t			cap_in, cap_out;
};

/*
 * A tag file being read: sluice_i_tags_init(), sluice_i_tags_header(),
 * then sluice_i_tags_next() and sluice_i_tags_section() until "end",
 * sluice_i_tags_end(), and sluice_i_tags_close() in any case.
 */
struct sluice_i_tags {
	struct text_reader		rd;
	struct sluice_i_tag_header	h;
	struct sluice_i_tag_section	sec;
	struct sluice_i_tag_entries	kept;
};

void sluice_i_tags_init(struct sluice_i_tags *t, FILE *f, const char *name,
			char *err, size_t errlen);
int sluice_i_tags_header(struct sluice_i_tags *t, const struct sluice_graph *g);
int sluice_i_tags_next(struct sluice_i_tags *t);
int sluice_i_tags_section(struct sluice_i_tags *t,
			  const struct sluice_graph *g, uint32_t v, bool keep);
int sluice_i_tags_end(struct sluice_i_tags *t);
void sluice_i_tags_close(struct sluice_i_tags *t);

#endif /* _SLUICE_LIB_TAGGER_INTERNAL_H */
