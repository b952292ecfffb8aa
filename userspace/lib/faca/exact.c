// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agent's pool on a fabric in multipath mode exact (sluice/multipath.h,
 * sluice/faca.h): there a pair's path k takes a range of source ports,
 * TCP and UDP alike, so the agent probes a few ports of each range and
 * every port it leases takes a path the fabric names.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sluice/faca.h>
#include <sluice/fabric.h>
#include <sluice/multipath.h>

#include "../graph/internal.h"

int sluice_faca_exact_pool(const struct sluice_routes *r, uint32_t node,
			   uint32_t per_path, struct sluice_faca_opts *o,
			   char *err, size_t errlen)
{
	uint64_t p, most = 0, n;
	uint32_t k, dst = 0;
	uint16_t lo, hi;
	int ret;

	if (!per_path || per_path > SLUICE_MP_SPORT_WIDTH)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "1 to %d ports a path, not %u",
				     SLUICE_MP_SPORT_WIDTH, per_path);
	/* the pair of @node with the most paths: its ranges cover the rest */
	for (p = 0; p < r->n_pairs; p++) {
		n = sluice_routes_pair_paths(r, p);
		if (r->pair_src[p] == node && n > most) {
			most = n;
			dst = r->pair_dst[p];
		}
	}
	if (!most)
		return sluice_i_errf(err, errlen, -ENOENT,
				     "the routes have no path from node %u", node);
	if (most > SLUICE_FACA_RANGES_MAX)
		most = SLUICE_FACA_RANGES_MAX;
	for (k = 0; k < most; k++) {
		ret = sluice_fabric_path_sport(r, node, dst, k, &lo, &hi, err,
					       errlen);
		if (ret == -E2BIG)
			break;
		if (ret)
			return ret;
		o->sports[k] = (struct sluice_sport_range){
			lo, lo + per_path - 1 < hi ? lo + per_path - 1 : hi,
		};
	}
	o->n_ranges = k;
	return 0;
}

int sluice_faca_fabric_node(const struct sluice_fabric *f, uint32_t *node,
			    char *err, size_t errlen)
{
	const struct sockaddr_in *sin;
	struct ifaddrs *ifa, *i;
	uint32_t a, u, h;
	int ret = -ENOENT;

	if (getifaddrs(&ifa))
		return sluice_i_errf(err, errlen, -errno, "getifaddrs: %s",
				     strerror(errno));
	for (i = ifa; i && ret; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
			continue;
		sin = (const struct sockaddr_in *)i->ifa_addr;
		a = ntohl(sin->sin_addr.s_addr);
		for (u = 0; u < f->g->n_nodes && ret; u++)
			for (h = 0; h < f->hosts[u]; h++)
				if (a == sluice_fabric_host_addr(u, h, true)) {
					*node = u;
					ret = 0;
					break;
				}
	}
	freeifaddrs(ifa);
	if (ret)
		return sluice_i_errf(err, errlen, ret,
				     "no address here is a host of fabric %s",
				     f->name);
	return 0;
}
