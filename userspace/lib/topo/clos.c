// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Clos fabrics: the two-tier leaf-spine and the three-tier k-ary fat-tree
 * (Al-Fares et al., SIGCOMM'08).  Nodes carry their tier (1 leaf/edge,
 * 2 spine/aggregation, 3 core) for up-down routing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sluice/topo.h>
#include "wire.h"
#include "graph/internal.h"

static int add_links(struct sluice_graph *g, uint32_t a, uint32_t b,
		     uint32_t count, char *err, size_t errlen)
{
	int ret = 0;

	while (count-- && ret >= 0)
		ret = sluice_graph_add_link(g, a, b, 0, 0, err, errlen);
	return ret < 0 ? ret : 0;
}

static int set_switch(struct sluice_graph *g, uint32_t u, uint32_t hosts,
		      uint8_t tier, char *err, size_t errlen,
		      const char *fmt, uint32_t x, uint32_t y)
{
	char name[SLUICE_NAME_MAX];

	snprintf(name, sizeof(name), fmt, x, y);
	return sluice_graph_set_node(g, u, name, SLUICE_NODE_SWITCH, hosts,
				     tier, err, errlen);
}

static int leafspine_check(uint32_t leaves, uint32_t spines, uint32_t parallel,
			   uint32_t hosts, char *err, size_t errlen)
{
	if (!leaves || !spines ||
	    (uint64_t)leaves + spines > SLUICE_NODES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "leafspine: leaves and spines must be at least 1 and together at most %u",
				     SLUICE_NODES_MAX);
	if (!parallel)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "leafspine: parallel must be at least 1");
	if ((uint64_t)leaves * spines * parallel > SLUICE_LINKS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "leafspine: more than %u links",
				     SLUICE_LINKS_MAX);
	if (hosts > SLUICE_HOSTS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "leafspine: host-ports must be at most %u, not %u",
				     SLUICE_HOSTS_MAX, hosts);
	return 0;
}

/**
 * sluice_topo_leafspine() - a two-tier Clos, every leaf to every spine
 * @g:		the graph, uninitialized
 * @leaves:	L, nodes 0..L-1 ("leaf<i>", tier 1, with the host ports)
 * @spines:	S, nodes L..L+S-1 ("spine<j>", tier 2)
 * @parallel:	links between each leaf and each spine, at least 1
 * @host_ports:	host ports of each leaf
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Links go leaf by leaf, spine by spine, the parallel ones together.
 *
 * Return: 0, -EINVAL, -E2BIG or -ENOMEM.
 */
int sluice_topo_leafspine(struct sluice_graph *g, uint32_t leaves,
			  uint32_t spines, uint32_t parallel,
			  uint32_t host_ports, char *err, size_t errlen)
{
	static const char *const names[] = {
		"leaves", "spines", "parallel", "host_ports"
	};
	uint64_t values[] = { leaves, spines, parallel, host_ports };
	uint32_t i, j;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = leafspine_check(leaves, spines, parallel, host_ports, err, errlen);
	if (ret)
		return ret;
	ret = sluice_graph_init(g, leaves + spines, err, errlen);
	for (i = 0; i < leaves && !ret; i++)
		ret = set_switch(g, i, host_ports, 1, err, errlen, "leaf%u", i, 0);
	for (j = 0; j < spines && !ret; j++)
		ret = set_switch(g, leaves + j, 0, 2, err, errlen, "spine%u", j, 0);
	for (i = 0; i < leaves && !ret; i++)
		for (j = 0; j < spines && !ret; j++)
			ret = add_links(g, i, leaves + j, parallel, err, errlen);
	return sluice_i_finish(g, ret, "leafspine", names, values, 4,
			       err, errlen);
}

/* Nodes: edge switches pod by pod, then aggregation, then core. */
static int fattree_nodes(struct sluice_graph *g, uint32_t k,
			 char *err, size_t errlen)
{
	uint32_t h = k / 2, p, i, u = 0;
	int ret = 0;

	for (p = 0; p < k && !ret; p++)
		for (i = 0; i < h && !ret; i++)
			ret = set_switch(g, u++, h, 1, err, errlen,
					 "p%u-edge%u", p, i);
	for (p = 0; p < k && !ret; p++)
		for (i = 0; i < h && !ret; i++)
			ret = set_switch(g, u++, 0, 2, err, errlen,
					 "p%u-agg%u", p, i);
	for (i = 0; i < h * h && !ret; i++)
		ret = set_switch(g, u++, 0, 3, err, errlen, "core%u", i, 0);
	return ret;
}

/*
 * In pod p every edge switch links to every aggregation switch; aggregation
 * switch i of every pod links to core switches i (k/2) .. i (k/2) + k/2 - 1.
 */
static int fattree_links(struct sluice_graph *g, uint32_t k,
			 char *err, size_t errlen)
{
	uint32_t h = k / 2, agg0 = k * h, core0 = 2 * k * h, p, i, j;
	int ret = 0;

	for (p = 0; p < k && !ret; p++)
		for (i = 0; i < h && !ret; i++)
			for (j = 0; j < h && !ret; j++)
				ret = add_links(g, p * h + i, agg0 + p * h + j,
						1, err, errlen);
	for (p = 0; p < k && !ret; p++)
		for (i = 0; i < h && !ret; i++)
			for (j = 0; j < h && !ret; j++)
				ret = add_links(g, agg0 + p * h + i,
						core0 + i * h + j, 1,
						err, errlen);
	return ret;
}

/**
 * sluice_topo_fattree() - the three-tier k-ary fat-tree
 * @g:		the graph, uninitialized
 * @k:		ports per switch and pods, even, 2 to 256
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Al-Fares et al., "A Scalable, Commodity Data Center Network
 * Architecture" (SIGCOMM'08), Section 3.2: k pods of k/2 edge ("p<p>-edge<i>",
 * tier 1, k/2 host ports each) and k/2 aggregation switches ("p<p>-agg<i>",
 * tier 2), and (k/2)^2 core switches ("core<i>", tier 3): 5k^2/4 switches,
 * k^3/2 links, k^3/4 hosts.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_topo_fattree(struct sluice_graph *g, uint32_t k,
			char *err, size_t errlen)
{
	static const char *const names[] = { "k" };
	uint64_t values[] = { k };
	int ret;

	memset(g, 0, sizeof(*g));
	if (k < 2 || k > 256 || k % 2)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fattree: k must be even and 2 to 256, not %u",
				     k);
	ret = sluice_graph_init(g, 5 * k * k / 4, err, errlen);
	if (!ret)
		ret = fattree_nodes(g, k, err, errlen);
	if (!ret)
		ret = fattree_links(g, k, err, errlen);
	return sluice_i_finish(g, ret, "fattree", names, values, 1,
			       err, errlen);
}
