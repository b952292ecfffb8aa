// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-port counters of a namespace: every device's (RTM_GETLINK) and, on
 * a device with a sluice root qdisc, every class's (RTM_GETTCLASS), read
 * through libnl-route-3's caches - two dumps per device at most, from one
 * process, where `tc -s class show` would be a process per device.
 */
#include <errno.h>
#include <linux/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/cache.h>
#include <netlink/route/class.h>
#include <netlink/route/link.h>
#include <netlink/route/tc.h>
#include "graph/internal.h"
#include "fabric/internal.h"

struct walk {
	struct sluice_port_counters	*p;
	int				ret;
};

static void class_cb(struct nl_object *obj, void *arg)
{
	struct rtnl_tc *tc = (struct rtnl_tc *)obj;
	struct walk *w = arg;
	const char *kind = rtnl_tc_get_kind(tc);
	uint32_t minor = rtnl_tc_get_handle(tc) & 0xffff, k;

	/* class K of the qdisc is minor K + 1 */
	if (!kind || strcmp(kind, "sluice") || !minor ||
	    minor > SLUICE_PORT_CLASSES)
		return;
	k = minor - 1;
	w->p->cls_packets[k] = rtnl_tc_get_stat(tc, RTNL_TC_PACKETS);
	w->p->cls_bytes[k] = rtnl_tc_get_stat(tc, RTNL_TC_BYTES);
	w->p->cls_drops[k] = rtnl_tc_get_stat(tc, RTNL_TC_DROPS);
	w->p->cls_backlog[k] = rtnl_tc_get_stat(tc, RTNL_TC_BACKLOG);
	if (k + 1 > w->p->classes)
		w->p->classes = k + 1;
}

static int cmp_port(const void *a, const void *b)
{
	const struct sluice_port_counters *x = a, *y = b;

	return x->ifindex - y->ifindex;
}

/**
 * sluice_port_counters_read() - the counters of every device of a namespace
 * @r:		a socket in the namespace, nothing outstanding
 * @ports:	set to a malloc()ed array, in interface index order, lo
 *		left out; free() it
 * @n:		set to its length
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Return: 0, -ENOMEM or -EIO.
 */
int sluice_port_counters_read(struct sluice_rtnl *r,
			   struct sluice_port_counters **ports, uint32_t *n,
			   char *err, size_t errlen)
{
	struct nl_sock *sk = sluice_i_rtnl_sock(r);
	struct nl_cache *links = NULL, *classes;
	struct sluice_port_counters *p = NULL;
	struct rtnl_link *link;
	struct nl_object *obj;
	struct walk w;
	uint32_t count = 0, k;
	int ret;

	*ports = NULL;
	*n = 0;
	ret = rtnl_link_alloc_cache(sk, AF_UNSPEC, &links);
	if (ret < 0)
		return sluice_i_errf(err, errlen, -EIO,
				     "cannot list devices: %s", nl_geterror(ret));
	p = sluice_i_calloc(nl_cache_nitems(links), sizeof(*p));
	if (!p) {
		nl_cache_free(links);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	for (obj = nl_cache_get_first(links); obj; obj = nl_cache_get_next(obj)) {
		link = (struct rtnl_link *)obj;
		if (rtnl_link_get_flags(link) & IFF_LOOPBACK)
			continue;
		snprintf(p[count].dev, sizeof(p[count].dev), "%s",
			 rtnl_link_get_name(link));
		p[count].ifindex = rtnl_link_get_ifindex(link);
		p[count].tx_packets = rtnl_link_get_stat(link, RTNL_LINK_TX_PACKETS);
		p[count].tx_bytes = rtnl_link_get_stat(link, RTNL_LINK_TX_BYTES);
		p[count].tx_dropped = rtnl_link_get_stat(link, RTNL_LINK_TX_DROPPED);
		p[count].rx_packets = rtnl_link_get_stat(link, RTNL_LINK_RX_PACKETS);
		p[count].rx_bytes = rtnl_link_get_stat(link, RTNL_LINK_RX_BYTES);
		p[count].rx_dropped = rtnl_link_get_stat(link, RTNL_LINK_RX_DROPPED);
		count++;
	}
	nl_cache_free(links);
	for (k = 0; k < count; k++) {
		ret = rtnl_class_alloc_cache(sk, p[k].ifindex, &classes);
		if (ret < 0) {
			free(p);
			return sluice_i_errf(err, errlen, -EIO,
					     "cannot list the classes of %s: %s",
					     p[k].dev, nl_geterror(ret));
		}
		w.p = &p[k];
		w.ret = 0;
		nl_cache_foreach(classes, class_cb, &w);
		nl_cache_free(classes);
	}
	qsort(p, count, sizeof(*p), cmp_port);
	*ports = p;
	*n = count;
	return 0;
}
