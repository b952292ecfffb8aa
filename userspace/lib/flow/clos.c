// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Clos baseline FC compares against (Appendix A.3): the folded Clos with
 * the most throughput for H servers from at most N switches of p ports, and
 * the fabric itself, to route with up*_/down* and measure.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sluice/flow.h>
#include "graph/internal.h"
#include "topo/wire.h"

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/*
 * Three layers: the spines of each plane.  A full pod's aggregation switch
 * has p/2 uplinks and must reach every spine of its plane equally, or two
 * pods whose links lean to different spines could not exchange a full
 * load: so the spines per plane divide p/2, and each takes p/2 / S links
 * from every pod, at most p in all.  0 if no count fits.
 */
static uint64_t plane_spines(uint64_t p, uint64_t pods)
{
	uint64_t half = p / 2, s;

	for (s = 1; s <= half; s++)
		if (half % s == 0 && pods * (half / s) <= p)
			return s;
	return 0;
}

/*
 * Fills @c's layer counts for L layers and h host ports per ToR; returns
 * false if such a Clos cannot reach the ToRs (or exceeds 32 bits).
 */
static bool count(struct sluice_clos_size *c, uint32_t layers, uint32_t h)
{
	uint64_t p = c->ports, half = p / 2, tors, u = p - h, reach, sum, n;
	uint64_t pods;
	uint32_t l;

	tors = div_up(c->hosts, h);
	memset(c->layer_switches, 0, sizeof(c->layer_switches));
	if (tors > UINT32_MAX)
		return false;
	c->layer_switches[0] = (uint32_t)tors;
	if (layers == 2) {
		/* FC's Eq. 5: each ToR once to each of the p - h spines */
		if (tors > p)
			return false;
		c->layer_switches[1] = (uint32_t)u;
		sum = tors + u;
	} else {
		if (p < 4 || p % 2)
			return false;
		/* at most 2 (p/2)^(L-1) ToRs */
		reach = 2;
		for (l = 1; l < layers && reach < tors; l++)
			reach *= half;
		if (reach < tors)
			return false;
		/* pods of p/2 ToRs, each with its own u aggregation switches */
		pods = div_up(tors, half);
		n = pods * u;
		c->layer_switches[1] = (uint32_t)n;
		sum = tors + n;
		/* 4 layers and more: by ports, p/2 down in the middle */
		for (l = 2; l + 1 < layers; l++) {
			n = div_up(tors * u, half);
			c->layer_switches[l] = (uint32_t)n;
			sum += n;
		}
		n = layers == 3 ? u * plane_spines(p, pods) :
				  div_up(tors * u, p);
		if (!n)
			return false;
		c->layer_switches[layers - 1] = (uint32_t)n;
		sum += n;
	}
	if (sum > UINT32_MAX)
		return false;
	c->layers = layers;
	c->host_ports = h;
	c->uplinks = (uint32_t)u;
	c->switches = (uint32_t)sum;
	c->theta = (double)u / h;
	return true;
}

/* The least h for L layers within the switches, or 0 if there is none. */
static uint32_t least_h(struct sluice_clos_size *c, uint32_t layers)
{
	uint32_t h;

	for (h = 1; h < c->ports; h++)
		if (count(c, layers, h) && c->switches <= c->switches_max)
			return h;
	return 0;
}

/**
 * sluice_clos_size() - the best Clos for H servers from N p-port switches
 * @ports:	p, 2 to 1024
 * @hosts:	H, at least 1
 * @switches:	N, the most switches to use
 * @c:		filled (sluice/flow.h says how the layers are built)
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * For L = 2, 3, ... the least h that fits (FC's trial and error), until
 * h(L) grows; the least h wins, the fewer layers on a tie.  The counts of
 * 4 layers and more are those of the ports (ceil(links / ports) per
 * layer); sluice_clos_build() builds 2 and 3 layers.
 *
 * Return: 0, -EINVAL or -ENOSPC (no Clos fits).
 */
int sluice_clos_size(uint32_t ports, uint32_t hosts, uint32_t switches,
		     struct sluice_clos_size *c, char *err, size_t errlen)
{
	struct sluice_clos_size best = { 0 };
	uint32_t layers, h;

	memset(c, 0, sizeof(*c));
	if (ports < 2 || ports > 1024)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "clos: ports must be from 2 to 1024, not %u",
				     ports);
	if (!hosts)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "clos: hosts must be at least 1");
	c->ports = ports;
	c->hosts = hosts;
	c->switches_max = switches;
	for (layers = 2; layers <= SLUICE_CLOS_LAYERS_MAX; layers++) {
		h = least_h(c, layers);
		if (!h)
			continue;
		if (best.host_ports && h > best.host_ports)
			break;	/* h(L) < h(L + 1): FC's stop */
		if (!best.host_ports || h < best.host_ports) {
			count(c, layers, h);
			best = *c;
		}
	}
	if (!best.host_ports) {
		memset(c, 0, sizeof(*c));
		return sluice_i_errf(err, errlen, -ENOSPC,
				     "clos: no Clos of at most %u %u-port switches holds %u servers",
				     switches, ports, hosts);
	}
	*c = best;
	return 0;
}

static int add_link(struct sluice_graph *g, uint32_t a, uint32_t b,
		    char *err, size_t errlen)
{
	int ret = sluice_graph_add_link(g, a, b, 0, 0, err, errlen);

	return ret < 0 ? ret : 0;
}

static int set_switch(struct sluice_graph *g, uint32_t u, const char *name,
		      uint32_t hosts, uint8_t tier, char *err, size_t errlen)
{
	return sluice_graph_set_node(g, u, name, SLUICE_NODE_SWITCH, hosts,
				     tier, err, errlen);
}

/* ToRs 0..T-1 ("tor<i>", tier 1), the servers spread as evenly as can be. */
static int tors(struct sluice_graph *g, const struct sluice_clos_size *c,
		char *err, size_t errlen)
{
	uint32_t t = c->layer_switches[0], i;
	char name[SLUICE_NAME_MAX];
	int ret = 0;

	for (i = 0; i < t && !ret; i++) {
		snprintf(name, sizeof(name), "tor%u", i);
		ret = set_switch(g, i, name, c->hosts / t + (i < c->hosts % t),
				 1, err, errlen);
	}
	return ret;
}

/* Two layers: spine j ("spine<j>", tier 2) once to every ToR. */
static int two_layers(struct sluice_graph *g, const struct sluice_clos_size *c,
		      char *err, size_t errlen)
{
	uint32_t t = c->layer_switches[0], i, j;
	char name[SLUICE_NAME_MAX];
	int ret = 0;

	for (j = 0; j < c->uplinks && !ret; j++) {
		snprintf(name, sizeof(name), "spine%u", j);
		ret = set_switch(g, t + j, name, 0, 2, err, errlen);
	}
	for (i = 0; i < t && !ret; i++)
		for (j = 0; j < c->uplinks && !ret; j++)
			ret = add_link(g, i, t + j, err, errlen);
	return ret;
}

/*
 * Three layers: pod k holds ToRs k p/2 .. and aggregation switches
 * "p<k>-agg<i>" (tier 2), i < u, each linked once to every ToR of its pod
 * and with as many uplinks.  Plane i is the aggregation switches i of all
 * pods and S spines "spine<i>-<j>" (tier 3, plane_spines()): a full pod's
 * switch has p/2 / S links to each, a short pod's switch spreads its fewer
 * uplinks round-robin (never more than p/2 / S to one spine).
 */
static int three_layers(struct sluice_graph *g,
			const struct sluice_clos_size *c,
			char *err, size_t errlen)
{
	uint32_t t = c->layer_switches[0], u = c->uplinks, half = c->ports / 2;
	uint32_t pods = (t + half - 1) / half, per = c->layer_switches[2] / u;
	uint32_t agg0 = t, spine0 = t + pods * u, k, i, j, x, first, size;
	char name[SLUICE_NAME_MAX];
	int ret = 0;

	for (k = 0; k < pods && !ret; k++)
		for (i = 0; i < u && !ret; i++) {
			snprintf(name, sizeof(name), "p%u-agg%u", k, i);
			ret = set_switch(g, agg0 + k * u + i, name, 0, 2,
					 err, errlen);
		}
	for (i = 0; i < u && !ret; i++)
		for (j = 0; j < per && !ret; j++) {
			snprintf(name, sizeof(name), "spine%u-%u", i, j);
			ret = set_switch(g, spine0 + i * per + j, name, 0, 3,
					 err, errlen);
		}
	for (k = 0; k < pods && !ret; k++) {
		first = k * half;
		size = first + half < t ? half : t - first;
		for (x = first; x < first + size && !ret; x++)
			for (i = 0; i < u && !ret; i++)
				ret = add_link(g, x, agg0 + k * u + i,
					       err, errlen);
		/* uplink x of the pod's switch i goes to spine x mod S */
		for (i = 0; i < u && !ret; i++)
			for (x = 0; x < size && !ret; x++)
				ret = add_link(g, agg0 + k * u + i,
					       spine0 + i * per + x % per,
					       err, errlen);
	}
	return ret;
}

/**
 * sluice_clos_build() - the fabric of a sized Clos
 * @c:		from sluice_clos_size()
 * @g:		the graph, uninitialized; on failure left empty
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Nodes carry their tier (1 ToR, 2 spine or aggregation, 3 spine of three
 * layers) for up*_/down* routing by tier; the family is "clos" with the
 * parameters ports, hosts, switches (the most allowed), layers and
 * host_ports.
 *
 * Return: 0, -EINVAL (not 2 or 3 layers, or counts sluice_clos_size()
 * would not give) or -ENOMEM.
 */
int sluice_clos_build(const struct sluice_clos_size *c, struct sluice_graph *g,
		      char *err, size_t errlen)
{
	static const char *const names[] = {
		"ports", "hosts", "switches", "layers", "host_ports",
	};
	uint64_t values[] = {
		c->ports, c->hosts, c->switches_max, c->layers, c->host_ports,
	};
	struct sluice_clos_size check = *c;
	int ret;

	memset(g, 0, sizeof(*g));
	if (c->layers != 2 && c->layers != 3)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "clos: %u layers: only 2 and 3 are built",
				     c->layers);
	if (!c->ports || !c->host_ports || c->host_ports >= c->ports ||
	    !count(&check, c->layers, c->host_ports) ||
	    memcmp(&check, c, sizeof(check)))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "clos: the sizes are not sluice_clos_size()'s");
	ret = sluice_graph_init(g, c->switches, err, errlen);
	if (!ret)
		ret = tors(g, c, err, errlen);
	if (!ret)
		ret = c->layers == 2 ? two_layers(g, c, err, errlen) :
				       three_layers(g, c, err, errlen);
	return sluice_i_finish(g, ret, "clos", names, values, 5, err, errlen);
}
