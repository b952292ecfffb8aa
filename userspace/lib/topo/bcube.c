// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * BCube(n, k) (Guo et al., SIGCOMM'09; as restated in PortFC, ICS'25,
 * Section 3.1): n^(k+1) servers with k + 1 ports each and (k + 1) n^k
 * switches of n ports in levels 0..k.  A server's address is k + 1 base-n
 * digits d_k..d_0; the level-l switch of a server is the one shared by the
 * n servers whose addresses differ only in digit l.  Servers forward, so
 * they are nodes of the fabric like the switches.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sluice/topo.h>
#include "wire.h"
#include "graph/internal.h"

/*
 * "<prefix><d_k>...<d_0>" of @addr, leaving out digit @skip (none if it is
 * @digits): the digits run together for n <= 10, with dots between them
 * above, so that names stay short and unambiguous.
 */
static void address_name(char *buf, size_t len, const char *prefix,
			 uint32_t addr, uint32_t n, uint32_t digits,
			 uint32_t skip)
{
	uint32_t d[32], i;
	size_t used;

	for (i = 0; i < digits; i++) {
		d[i] = addr % n;
		addr /= n;
	}
	used = snprintf(buf, len, "%s", prefix);
	for (i = digits; i-- > 0;) {
		if (i == skip)
			continue;
		used += snprintf(buf + used, used < len ? len - used : 0,
				 "%s%u", n > 10 && used > strlen(prefix) ? "." : "",
				 d[i]);
	}
}

/* The index, among its level's n^k switches, of server @s's level-l one. */
static uint32_t switch_of(uint32_t s, uint32_t n, uint32_t l)
{
	uint32_t low = 1, i;

	for (i = 0; i < l; i++)
		low *= n;
	/* Drop digit l: the digits above it move down one place. */
	return s / (low * n) * low + s % low;
}

static int bcube_nodes(struct sluice_graph *g, uint32_t n, uint32_t k,
		       uint32_t servers, uint32_t nk, char *err, size_t errlen)
{
	char name[SLUICE_NAME_MAX], prefix[16];
	uint32_t s, l, i;
	int ret = 0;

	for (s = 0; s < servers && !ret; s++) {
		address_name(name, sizeof(name), "srv", s, n, k + 1, k + 1);
		ret = sluice_graph_set_node(g, s, name, SLUICE_NODE_SERVER, 0,
					    0, err, errlen);
	}
	for (l = 0; l <= k && !ret; l++) {
		snprintf(prefix, sizeof(prefix), "sw%u-", l);
		for (i = 0; i < nk && !ret; i++) {
			if (k)
				address_name(name, sizeof(name), prefix,
					     i, n, k, k);
			else
				snprintf(name, sizeof(name), "sw0");
			ret = sluice_graph_set_node(g, servers + l * nk + i,
						    name, SLUICE_NODE_SWITCH,
						    0, 0, err, errlen);
		}
	}
	return ret;
}

static int bcube_check(uint32_t n, uint32_t k, uint64_t *servers,
		       uint64_t *nk, char *err, size_t errlen)
{
	uint32_t i;

	if (n < 2 || n > SLUICE_NODES_MAX || k > 15)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "bcube: n must be at least 2 and k 0 to 15, not n %u k %u",
				     n, k);
	*nk = 1;
	for (i = 0; i < k && *nk <= SLUICE_NODES_MAX; i++)
		*nk *= n;
	*servers = *nk * n;
	if (*servers + (k + 1) * *nk > SLUICE_NODES_MAX ||
	    *servers * (k + 1) > SLUICE_LINKS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "bcube: BCube(%u,%u) has more than %u nodes",
				     n, k, SLUICE_NODES_MAX);
	return 0;
}

/**
 * sluice_topo_bcube() - BCube(n, k)
 * @g:		the graph, uninitialized
 * @n:		ports per switch, at least 2
 * @k:		the highest level, 0 to 15
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Nodes: the servers ("srv<d_k>...<d_0>", kind server, dots between digits
 * when n > 10), node id = the
 * address read in base n; then the n^k switches of each level l in turn
 * ("sw<l>-<digits>", the address without digit l).  Links go level by
 * level, server by server: server s's level-l link has id l n^(k+1) + s.
 * n^(k+1) servers, (k + 1) n^k switches, (k + 1) n^(k+1) links.
 *
 * Return: 0, -EINVAL, -E2BIG or -ENOMEM.
 */
int sluice_topo_bcube(struct sluice_graph *g, uint32_t n, uint32_t k,
		      char *err, size_t errlen)
{
	static const char *const names[] = { "n", "k" };
	uint64_t values[] = { n, k }, servers = 0, nk = 0;
	uint32_t s, l;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = bcube_check(n, k, &servers, &nk, err, errlen);
	if (ret)
		return ret;
	ret = sluice_graph_init(g, servers + (k + 1) * nk, err, errlen);
	if (!ret)
		ret = bcube_nodes(g, n, k, servers, nk, err, errlen);
	for (l = 0; l <= k && ret >= 0; l++)
		for (s = 0; s < servers && ret >= 0; s++)
			ret = sluice_graph_add_link(g, s, servers + l * nk +
						    switch_of(s, n, l),
						    0, 0, err, errlen);
	return sluice_i_finish(g, ret < 0 ? ret : 0, "bcube", names, values, 2,
			       err, errlen);
}
