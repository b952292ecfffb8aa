// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The switch side of TCP-Bolt: every class of every switch port marks ECT
 * frames CE above K bytes of backlog ("tc class change ... sluice ecn K"),
 * the step marking DCTCP reacts to, and the K a rate and round trip call
 * for; class options on every switch port in general.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <linux/sluice.h>
#include <sluice/host.h>
#include "graph/internal.h"
#include "fabric/internal.h"

/**
 * sluice_ecn_threshold() - DCTCP's marking threshold K for a link
 * @rate:	the link's rate, bit/s
 * @rtt_ns:	the fabric's round trip
 * @mtu:	its largest frame, bytes
 *
 * DCTCP (Alizadeh et al., SIGCOMM 2010, Section 3.4) keeps the link busy
 * when K > C x RTT / 7 for flows in step; TCP-Bolt's simulations used
 * 22.5 KB at 10 Gbit/s and 240 us (C x RTT / 13, below the bound, chosen
 * for short queues).  sluice takes the bound, rounded up, and never less
 * than two frames: below that a single back-to-back pair is marked, and
 * at the low rates of an emulated fabric C x RTT / 7 can be under a frame.
 * O(1).
 *
 * Return: K in bytes, at most TC_SLUICE_MAX_LIMIT.
 */
uint32_t sluice_ecn_threshold(uint64_t rate, uint64_t rtt_ns, uint32_t mtu)
{
	unsigned __int128 k = (unsigned __int128)rate * rtt_ns;

	k = (k + 56000000000ull - 1) / 56000000000ull;	/* / 8e9 / 7 */
	if (k < 2ull * mtu)
		k = 2ull * mtu;
	return k > TC_SLUICE_MAX_LIMIT ? TC_SLUICE_MAX_LIMIT : (uint32_t)k;
}

static int queue_classes(struct sluice_rtnl *r, int ifindex,
			 uint32_t classes, const struct sluice_copt *c,
			 char *err, size_t errlen)
{
	struct tcmsg t = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = ifindex,
		.tcm_parent = 1u << 16,
	};
	struct nl_msg *msg;
	struct nlattr *opts;
	uint32_t k;
	int ret = 0;

	for (k = 0; !ret && k < classes; k++) {
		t.tcm_handle = 1u << 16 | (k + 1);
		msg = nlmsg_alloc_simple(RTM_NEWTCLASS, 0);
		opts = NULL;
		if (msg && nlmsg_append(msg, &t, sizeof(t), NLMSG_ALIGNTO) >= 0 &&
		    !nla_put_string(msg, TCA_KIND, "sluice"))
			opts = nla_nest_start(msg, TCA_OPTIONS | NLA_F_NESTED);
		if (!opts ||
		    ((c->present & SLUICE_COPT_LIMIT) &&
		     nla_put_u32(msg, TCA_SLUICE_CLASS_LIMIT, c->limit)) ||
		    ((c->present & SLUICE_COPT_ECN) &&
		     nla_put_u32(msg, TCA_SLUICE_CLASS_ECN, c->ecn)) ||
		    ((c->present & SLUICE_COPT_QUANTUM) &&
		     nla_put_u32(msg, TCA_SLUICE_CLASS_QUANTUM, c->quantum))) {
			nlmsg_free(msg);
			return sluice_i_errf(err, errlen, -ENOMEM,
					     "out of memory");
		}
		nla_nest_end(msg, opts);
		ret = sluice_i_rtnl_queue(r, msg, (uint64_t)ifindex << 8 | k,
					  err, errlen);
		nlmsg_free(msg);
	}
	return ret;
}

static uint32_t classes_of(const struct sluice_qopt *o)
{
	return o->present & SLUICE_QOPT_CLASSES ? o->classes :
	       TC_SLUICE_DEFAULT_CLASSES;
}

/* Switch @u's ports, through @r. O(ports x classes). */
static int switch_classes(const struct sluice_fabric *f,
			  const struct sluice_fabric_qdisc *q, uint32_t u,
			  struct sluice_rtnl *r, const struct sluice_copt *c,
			  char *err, size_t errlen)
{
	uint32_t deg = sluice_graph_degree(f->g, u), k, i;
	const struct sluice_i_nlerr *e;
	struct sluice_qopt o;
	int ret = 0;

	sluice_i_rtnl_clear_errors(r);
	for (k = 0; !ret && k < deg; k++) {
		sluice_fabric_port_qopt(f, q, u, k, &o);
		ret = queue_classes(r, 2 + k, classes_of(&o), c, err, errlen);
	}
	for (i = 0; !ret && !sluice_fabric_self_hosted(f, u) &&
	     i < f->hosts[u]; i++)
		ret = queue_classes(r, 2 + deg + i, classes_of(&q->host), c,
				    err, errlen);
	if (!ret)
		ret = sluice_i_rtnl_wait(r, err, errlen);
	if (ret || !sluice_i_rtnl_n_errors(r))
		return ret;
	e = sluice_i_rtnl_error(r, 0);
	return sluice_i_errf(err, errlen, e->error,
			     "%s: the kernel refused the options of class 1:%u of %s: %s%s%s",
			     f->g->nodes[u].name, (unsigned int)(e->tag & 255) + 1,
			     sluice_i_rtnl_ifname(r, (int)(e->tag >> 8)) ?: "?",
			     strerror(-e->error), e->extack[0] ? ": " : "",
			     e->extack);
}

/**
 * sluice_fabric_classes() - class options on every switch port
 * @f:		the fabric, up with qdiscs @q
 * @q:		its qdiscs' options (for each port's class count)
 * @c:		the options (limit, ecn, quantum: those present)
 * @err:	which switch and class failed, and why
 * @errlen:	room in @err
 *
 * Every class of every switch port (link ports and the ports to hosts;
 * not the hosts' own ends) gets @c, as "tc class change" gives one.
 * Setting them again is harmless, so a failure is repaired by calling
 * again.
 *
 * Return: 0 or a negative errno.
 */
int sluice_fabric_classes(const struct sluice_fabric *f,
			  const struct sluice_fabric_qdisc *q,
			  const struct sluice_copt *c, char *err,
			  size_t errlen)
{
	char ns[SLUICE_NETNS_NAME_MAX];
	struct sluice_rtnl *r;
	int self, ret = 0;
	uint32_t u;

	self = sluice_netns_self(err, errlen);
	if (self < 0)
		return self;
	for (u = 0; !ret && u < f->g->n_nodes; u++) {
		sluice_fabric_switch_ns(f, u, ns, sizeof(ns));
		ret = sluice_rtnl_open_in(ns, self, &r, err, errlen);
		if (ret)
			break;
		ret = sluice_i_rtnl_links(r, err, errlen);
		if (!ret)
			ret = switch_classes(f, q, u, r, c, err, errlen);
		sluice_rtnl_close(r);
	}
	close(self);
	return ret;
}

/**
 * sluice_fabric_ecn() - DCTCP's marking threshold on every switch port
 * @f:		the fabric, up with qdiscs @q
 * @q:		its qdiscs' options (for each port's class count)
 * @ecn:	K in bytes; 0 turns marking off
 * @err:	which switch and class failed, and why
 * @errlen:	room in @err
 *
 * "ecn K" on every class of every switch port (sluice_fabric_classes()).
 *
 * Return: 0 or a negative errno.
 */
int sluice_fabric_ecn(const struct sluice_fabric *f,
		      const struct sluice_fabric_qdisc *q, uint32_t ecn,
		      char *err, size_t errlen)
{
	struct sluice_copt c = { .present = SLUICE_COPT_ECN, .ecn = ecn };

	return sluice_fabric_classes(f, q, &c, err, errlen);
}
