// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The plan of a fabric: which namespaces, devices, addresses and labels a
 * topology becomes (sluice/fabric.h has the scheme).  Everything here is
 * computed from the topology, the fabric's name and the host count, so
 * that every command finds the same names again without asking the kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/fabric.h>
#include "graph/internal.h"

/**
 * sluice_fabric_name_check() - whether @name can name a fabric
 * @name:	the name
 * @err:	the reason, if not
 * @errlen:	room in @err
 *
 * 1 to 31 letters, digits and "_.-", the first a letter or digit: it
 * starts every namespace name and a directory under /run/sluice.
 *
 * Return: 0 or -EINVAL.
 */
int sluice_fabric_name_check(const char *name, char *err, size_t errlen)
{
	size_t i, len = strlen(name);

	if (!len || len >= SLUICE_FABRIC_NAME_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fabric name \"%s\": 1 to %d characters",
				     name, SLUICE_FABRIC_NAME_MAX - 1);
	for (i = 0; i < len; i++) {
		char c = name[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9');

		if (!alnum && (!i || !strchr("_.-", c)))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "fabric name \"%s\": letters, digits and \"_.-\" only, the first a letter or digit",
					     name);
	}
	return 0;
}

/* "NAME-X": the namespace of switch @u (SLUICE_NETNS_NAME_MAX fits). O(1). */
void sluice_fabric_switch_ns(const struct sluice_fabric *f, uint32_t u,
			     char *buf, size_t len)
{
	snprintf(buf, len, "%s-%s", f->name, f->g->nodes[u].name);
}

/*
 * "NAME-X-hI": the namespace of host @i of switch @u; a server's own
 * ("NAME-X") for its host 0, itself. O(1).
 */
void sluice_fabric_host_ns(const struct sluice_fabric *f, uint32_t u,
			   uint32_t i, char *buf, size_t len)
{
	if (sluice_fabric_self_hosted(f, u))
		sluice_fabric_switch_ns(f, u, buf, len);
	else
		snprintf(buf, len, "%s-%s-h%u", f->name, f->g->nodes[u].name,
			 i);
}

/* "X-hI": how commands name host @i of switch @u; "X" for a server. O(1). */
void sluice_fabric_host_name(const struct sluice_fabric *f, uint32_t u,
			     uint32_t i, char *buf, size_t len)
{
	if (sluice_fabric_self_hosted(f, u))
		snprintf(buf, len, "%s", f->g->nodes[u].name);
	else
		snprintf(buf, len, "%s-h%u", f->g->nodes[u].name, i);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Namespace names must be file names and distinct: a node "a-h0" and host
 * 0 of node "a" would share one.  Sorting all names finds any such pair.
 */
static int check_names(const struct sluice_fabric *f, char *err,
		       size_t errlen)
{
	const struct sluice_graph *g = f->g;
	uint64_t n = (uint64_t)g->n_nodes + f->n_hosts, k = 0, j;
	char **names, *pool;
	uint32_t u, i;
	int ret = 0;

	for (u = 0; u < g->n_nodes; u++)
		if (strchr(g->nodes[u].name, '/'))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "node \"%s\": a namespace name cannot hold \"/\"",
					     g->nodes[u].name);
	names = sluice_i_calloc(n, sizeof(*names));
	pool = sluice_i_calloc(n, SLUICE_NETNS_NAME_MAX);
	if (!names || !pool) {
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (u = 0; u < g->n_nodes; u++) {
		names[k] = pool + k * SLUICE_NETNS_NAME_MAX;
		sluice_fabric_switch_ns(f, u, names[k++], SLUICE_NETNS_NAME_MAX);
		for (i = 0; !sluice_fabric_self_hosted(f, u) && i < f->hosts[u];
		     i++) {
			names[k] = pool + k * SLUICE_NETNS_NAME_MAX;
			sluice_fabric_host_ns(f, u, i, names[k++],
					      SLUICE_NETNS_NAME_MAX);
		}
	}
	n = k;
	qsort(names, n, sizeof(*names), cmp_str);
	for (j = 1; j < n; j++)
		if (!strcmp(names[j - 1], names[j])) {
			ret = sluice_i_errf(err, errlen, -EINVAL,
					    "two namespaces would be called \"%s\" (a node named like another node's host)",
					    names[j]);
			break;
		}
out:
	free(names);
	free(pool);
	return ret;
}

/**
 * sluice_fabric_plan() - plan a fabric of a topology
 * @f:			filled; sluice_fabric_free() it
 * @g:			a finalized topology, kept by @f (not copied)
 * @name:		the fabric's name (sluice_fabric_name_check())
 * @hosts_per_switch:	hosts of every endpoint, 0 to
 *			SLUICE_FABRIC_HOSTS_MAX, or SLUICE_FABRIC_HOSTS_DEFAULT
 * @err:		the reason, on failure
 * @errlen:		room in @err
 *
 * Refuses what the naming and addressing scheme cannot hold: more than
 * 65536 nodes or 2^19 links, more than 127 hosts on a node, more link
 * ports than labels, node names that make bad or clashing namespace names.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_fabric_plan(struct sluice_fabric *f, const struct sluice_graph *g,
		       const char *name, int hosts_per_switch,
		       char *err, size_t errlen)
{
	bool any_hosts = false, any_switch_hosts = false;
	uint32_t u, h, deg;
	int ret;

	memset(f, 0, sizeof(*f));
	ret = sluice_fabric_name_check(name, err, errlen);
	if (ret)
		return ret;
	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the topology is not finalized");
	if (g->n_nodes > SLUICE_FABRIC_NODES_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "%u nodes: a fabric addresses at most %u",
				     g->n_nodes, SLUICE_FABRIC_NODES_MAX);
	if (g->n_links > SLUICE_FABRIC_LINKS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "%u links: a fabric addresses at most %u",
				     g->n_links, SLUICE_FABRIC_LINKS_MAX);
	if (hosts_per_switch != SLUICE_FABRIC_HOSTS_DEFAULT &&
	    (hosts_per_switch < 0 ||
	     hosts_per_switch > SLUICE_FABRIC_HOSTS_MAX))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%d hosts per switch: 0 to %d",
				     hosts_per_switch, SLUICE_FABRIC_HOSTS_MAX);
	strcpy(f->name, name);
	f->g = g;
	f->hosts = sluice_i_calloc(g->n_nodes, sizeof(*f->hosts));
	f->host_first = sluice_i_calloc((size_t)g->n_nodes + 1,
					sizeof(*f->host_first));
	if (!f->hosts || !f->host_first) {
		sluice_fabric_free(f);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	for (u = 0; u < g->n_nodes; u++) {
		any_hosts |= sluice_node_is_endpoint(&g->nodes[u]);
		any_switch_hosts |= sluice_node_is_endpoint(&g->nodes[u]) &&
				    !sluice_node_self_hosted(&g->nodes[u]);
	}
	if (any_hosts && !any_switch_hosts &&
	    hosts_per_switch != SLUICE_FABRIC_HOSTS_DEFAULT) {
		sluice_fabric_free(f);
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the topology's endpoints are servers, each its own host: --hosts-per-switch does not apply");
	}
	for (u = 0; u < g->n_nodes; u++) {
		const struct sluice_node *n = &g->nodes[u];
		bool endpoint = sluice_node_is_endpoint(n) || !any_hosts;

		if (!endpoint)
			h = 0;
		else if (sluice_node_self_hosted(n))
			h = 1;
		else if (hosts_per_switch != SLUICE_FABRIC_HOSTS_DEFAULT)
			h = hosts_per_switch;
		else
			h = n->hosts ? n->hosts : 1;
		if (h > SLUICE_FABRIC_HOSTS_MAX) {
			sluice_fabric_free(f);
			return sluice_i_errf(err, errlen, -E2BIG,
					     "node %s has %u host ports: a fabric gives a switch at most %d hosts (--hosts-per-switch)",
					     n->name, h, SLUICE_FABRIC_HOSTS_MAX);
		}
		deg = sluice_graph_degree(g, u);
		if (deg > SLUICE_MPLS_LABEL_MAX - SLUICE_FABRIC_LABEL_BASE) {
			sluice_fabric_free(f);
			return sluice_i_errf(err, errlen, -E2BIG,
					     "node %s has %u links: more than MPLS labels can name",
					     n->name, deg);
		}
		if (deg > f->max_degree)
			f->max_degree = deg;
		f->hosts[u] = h;
		f->host_first[u] = f->n_hosts;
		f->n_hosts += h;
	}
	f->host_first[g->n_nodes] = f->n_hosts;
	ret = check_names(f, err, errlen);
	if (ret)
		sluice_fabric_free(f);
	return ret;
}

/* Frees the plan's arrays (not its graph). O(1). */
void sluice_fabric_free(struct sluice_fabric *f)
{
	free(f->hosts);
	free(f->host_first);
	f->hosts = NULL;
	f->host_first = NULL;
}

/**
 * sluice_fabric_find() - a switch or host of the fabric by name
 * @f:		the fabric
 * @name:	a node's name ("s1") or a host's ("s1-h0")
 * @u:		set to the node
 * @host:	set to the host's number, SLUICE_NONE for the switch
 *
 * Node names win: a node may itself be called "x-h0" (the plan refuses
 * only clashing namespace names, and then none clash).  A server is its
 * own host and is found by its name only.
 *
 * Return: 0 or -ENOENT.
 */
int sluice_fabric_find(const struct sluice_fabric *f, const char *name,
		       uint32_t *u, uint32_t *host)
{
	const struct sluice_graph *g = f->g;
	const char *dash = strrchr(name, '-');
	unsigned long i;
	size_t len;
	char *end;
	uint32_t v;

	for (v = 0; v < g->n_nodes; v++)
		if (!strcmp(g->nodes[v].name, name)) {
			*u = v;
			*host = SLUICE_NONE;
			return 0;
		}
	if (!dash || dash[1] != 'h' || dash[2] < '0' || dash[2] > '9' ||
	    (dash[2] == '0' && dash[3]))
		return -ENOENT;
	i = strtoul(dash + 2, &end, 10);
	if (*end)
		return -ENOENT;
	len = dash - name;
	for (v = 0; v < g->n_nodes; v++)
		if (strlen(g->nodes[v].name) == len &&
		    !memcmp(g->nodes[v].name, name, len) && i < f->hosts[v] &&
		    !sluice_fabric_self_hosted(f, v)) {
			*u = v;
			*host = i;
			return 0;
		}
	return -ENOENT;
}

/**
 * sluice_fabric_port_index() - which link port of node @u link @link is
 * @g:		a finalized graph
 * @u:		the node
 * @link:	a link id
 *
 * Link ports are numbered in link id order, which is the order of the
 * node's adjacency list, so a binary search finds it.  A link that joins
 * @u to itself is impossible (graph.h).
 *
 * Return: the index, or -ENOENT if @link does not end at @u.
 */
int sluice_fabric_port_index(const struct sluice_graph *g, uint32_t u,
			     uint32_t link)
{
	uint32_t lo = g->off[u], hi = g->off[u + 1], mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->adj[mid].link < link)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == g->off[u + 1] || g->adj[lo].link != link)
		return -ENOENT;
	return (int)(lo - g->off[u]);
}

/* The node at the other end of @link from @u (which must be an end). */
uint32_t sluice_fabric_peer(const struct sluice_graph *g, uint32_t u,
			    uint32_t link)
{
	return g->links[link].a == u ? g->links[link].b : g->links[link].a;
}

/* Dotted quad of a host-order address. */
void sluice_ipv4_format(uint32_t addr, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", addr >> 24, addr >> 16 & 255,
		 addr >> 8 & 255, addr & 255);
}
