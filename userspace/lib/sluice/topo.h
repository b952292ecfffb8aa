/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Topology generators.  Each fills an uninitialized struct sluice_graph with
 * a finalized graph, records its family, seed and parameters in it (they
 * go into the topology file), and is reproducible: the same parameters and
 * seed give the same graph, link for link, on any machine (sluice/rng.h).
 * On failure the graph is left empty (all zeroes) and @err says why.
 *
 * Node names: "s0".."s<N-1>" for fc, jellyfish, xpander and ring;
 * "leaf<i>", "spine<j>"; "p<pod>-edge<i>", "p<pod>-agg<i>", "core<i>" for
 * the fat-tree; BCube's "srv<d_k>...<d_0>" (the server's address digits,
 * dot-separated when n > 10)
 * and "sw<level>-<digits>" (the address with the level's digit left out).
 */
#ifndef _SLUICE_TOPO_H
#define _SLUICE_TOPO_H

#include <sluice/graph.h>

/*
 * Flattened Clos (Zhang et al., NSDI'23, Section 3.1): @switches ToRs with
 * @inter_ports ports to other ToRs (s, even) and @host_ports to hosts (h).
 * Each switch is split into @layers virtual layers (k) with layer_ports[j]
 * ports in layer j + 1 (l_1..l_k, summing to s); all zero means derive them
 * from k (sluice_fc_layer_ports()); @layers 0 means choose k by the paper's
 * strategy (*) (sluice_topo_fc()).
 */
struct sluice_fc_params {
	uint32_t	switches;
	uint32_t	inter_ports;
	uint32_t	host_ports;
	uint32_t	layers;
	uint32_t	layer_ports[SLUICE_LAYERS_MAX];
	uint64_t	seed;
};

/* Time: O(k). */
uint32_t sluice_fc_kmin(uint32_t switches, uint32_t inter_ports);
/* Time: O(k). */
int sluice_fc_layer_ports(uint32_t inter_ports, uint32_t layers,
			  uint32_t *layer_ports, char *err, size_t errlen);
/* Time: O(k (N + m) N / 64 + N^3 / 64), memory 2 N^2 bits. */
int sluice_fc_updown_connected(const struct sluice_graph *g, bool *connected,
			       char *err, size_t errlen);
/*
 * Time: O(N s^2) expected to wire; the strategy (*) check adds O(k N^3 / 64) at
 * worst (bitsets).
 */
int sluice_topo_fc(struct sluice_graph *g, const struct sluice_fc_params *p,
		   char *err, size_t errlen);

/* Time: O(N r^2) expected for r much smaller than N. */
int sluice_topo_jellyfish(struct sluice_graph *g, uint32_t switches,
			  uint32_t degree, uint32_t host_ports, uint64_t seed,
			  char *err, size_t errlen);
/* Time: O(N d) expected. */
int sluice_topo_xpander(struct sluice_graph *g, uint32_t switches,
			uint32_t degree, uint32_t host_ports, uint64_t seed,
			char *err, size_t errlen);
/* Time: O(L S p). */
int sluice_topo_leafspine(struct sluice_graph *g, uint32_t leaves,
			  uint32_t spines, uint32_t parallel,
			  uint32_t host_ports, char *err, size_t errlen);
/* Time: O(k^3). */
int sluice_topo_fattree(struct sluice_graph *g, uint32_t k,
			char *err, size_t errlen);
/* Time: O(k n^(k+1)). */
int sluice_topo_bcube(struct sluice_graph *g, uint32_t n, uint32_t k,
		      char *err, size_t errlen);
/* Time: O(N). */
int sluice_topo_ring(struct sluice_graph *g, uint32_t switches,
		     uint32_t host_ports, char *err, size_t errlen);
/* FC's testbed, Fig. 4a: the ring s1..s4, links doubled, 4 hosts each */
int sluice_topo_fc_testbed(struct sluice_graph *g, char *err, size_t errlen);

#endif /* _SLUICE_TOPO_H */
