/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared inside libsluice's Tagger code (not installed).
 */
#ifndef _SLUICE_LIB_TAGGER_INTERNAL_H
#define _SLUICE_LIB_TAGGER_INTERNAL_H

#include <sluice/tagger.h>

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

/* "3 (to s7)": a port as messages name it, into @buf. */
const char *sluice_i_tagger_port(const struct sluice_graph *g, uint32_t node,
				 uint32_t port, char *buf, size_t size);

#endif /* _SLUICE_LIB_TAGGER_INTERNAL_H */
