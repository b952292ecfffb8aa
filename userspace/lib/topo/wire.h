/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Random wiring shared by the random generators (not installed).
 */
#ifndef _SLUICE_LIB_TOPO_WIRE_H
#define _SLUICE_LIB_TOPO_WIRE_H

#include <stdbool.h>
#include <stdint.h>
#include <sluice/graph.h>
#include <sluice/rng.h>

/* How often a generator draws its random wiring again before giving up. */
#define SLUICE_I_ATTEMPTS	100

/*
 * The switch pairs already linked, whatever the layer: the set that keeps a
 * random fabric free of parallel links.  Each node has at most @cap
 * neighbours; lookups scan them, O(cap).
 */
struct sluice_i_pairs {
	uint32_t	n;
	uint32_t	cap;
	uint32_t	*deg;
	uint32_t	*nbr;	/* n * cap */
};

int sluice_i_pairs_init(struct sluice_i_pairs *p, uint32_t n, uint32_t cap);
void sluice_i_pairs_free(struct sluice_i_pairs *p);
bool sluice_i_pairs_has(const struct sluice_i_pairs *p, uint32_t u, uint32_t v);
void sluice_i_pairs_add(struct sluice_i_pairs *p, uint32_t u, uint32_t v);
void sluice_i_pairs_del(struct sluice_i_pairs *p, uint32_t u, uint32_t v);

int sluice_i_wire(struct sluice_rng *r, struct sluice_i_pairs *p,
		  uint32_t *eu, uint32_t *ev, uint32_t m, bool bipartite);
int sluice_i_sort_edges(uint32_t *eu, uint32_t *ev, uint32_t m, bool order);

bool sluice_i_connected(const struct sluice_graph *g);
int sluice_i_build_flat(struct sluice_graph *g, uint32_t n, uint32_t hosts,
			const uint32_t *eu, const uint32_t *ev,
			const uint8_t *layer, uint32_t m,
			char *err, size_t errlen);
int sluice_i_describe(struct sluice_graph *g, const char *family,
		      const char *const *names, const uint64_t *values,
		      uint32_t n, char *err, size_t errlen);
int sluice_i_finish(struct sluice_graph *g, int ret, const char *family,
		    const char *const *names, const uint64_t *values,
		    uint32_t n, char *err, size_t errlen);

#endif /* _SLUICE_LIB_TOPO_WIRE_H */
