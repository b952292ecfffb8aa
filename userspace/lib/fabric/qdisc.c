// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The root sluice qdiscs of a namespace's ports: their options read
 * (RTM_GETQDISC dump, TCA_OPTIONS as the kernel dumps them), changed
 * ("tc qdisc change": RTM_NEWQDISC without NLM_F_CREATE on the existing
 * handle) and put back from what was read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <linux/sluice.h>
#include <sluice/tag.h>
#include "graph/internal.h"
#include "fabric/internal.h"

struct qwalk {
	struct sluice_rtnl	*r;
	struct sluice_port_qdisc *p;
	uint32_t		n, cap;
	int			ret;
};

static int qdisc_cb(struct nl_msg *msg, void *arg)
{
	struct qwalk *w = arg;
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct nlattr *tb[TCA_MAX + 1];
	struct sluice_port_qdisc *p, *grown;
	const struct tcmsg *t;
	const char *dev;

	if (h->nlmsg_type != RTM_NEWQDISC ||
	    nlmsg_parse(h, sizeof(*t), tb, TCA_MAX, NULL) < 0 ||
	    !tb[TCA_KIND] || !tb[TCA_OPTIONS])
		return NL_SKIP;
	t = nlmsg_data(h);
	if (t->tcm_parent != TC_H_ROOT ||
	    strcmp(nla_get_string(tb[TCA_KIND]), "sluice"))
		return NL_SKIP;
	if ((size_t)nla_len(tb[TCA_OPTIONS]) > sizeof(p->opts)) {
		w->ret = -EMSGSIZE;
		return NL_STOP;
	}
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		grown = realloc(w->p, w->cap * sizeof(*w->p));
		if (!grown) {
			w->ret = -ENOMEM;
			return NL_STOP;
		}
		w->p = grown;
	}
	p = &w->p[w->n++];
	memset(p, 0, sizeof(*p));
	p->ifindex = t->tcm_ifindex;
	p->handle = t->tcm_handle;
	dev = sluice_i_rtnl_ifname(w->r, t->tcm_ifindex);
	snprintf(p->dev, sizeof(p->dev), "%s", dev ? dev : "?");
	p->len = nla_len(tb[TCA_OPTIONS]);
	memcpy(p->opts, nla_data(tb[TCA_OPTIONS]), p->len);
	return NL_OK;
}

/**
 * sluice_port_qdiscs_read() - the root sluice qdiscs of a namespace
 * @r:		a socket in the namespace, nothing outstanding
 * @ports:	set to a malloc()ed array, in the kernel's order; free() it
 * @n:		set to its length
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Return: 0, -ENOMEM, -EMSGSIZE or -EIO.
 */
int sluice_port_qdiscs_read(struct sluice_rtnl *r,
			    struct sluice_port_qdisc **ports, uint32_t *n,
			    char *err, size_t errlen)
{
	struct nl_sock *sk = sluice_i_rtnl_sock(r);
	struct tcmsg t = { .tcm_family = AF_UNSPEC };
	struct qwalk w = { .r = r };
	int ret;

	*ports = NULL;
	*n = 0;
	ret = sluice_i_rtnl_links(r, err, errlen);
	if (ret)
		return ret;
	ret = nl_send_simple(sk, RTM_GETQDISC, NLM_F_DUMP, &t, sizeof(t));
	if (ret >= 0) {
		nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, qdisc_cb, &w);
		ret = nl_recvmsgs_default(sk);
	}
	if (w.ret) {
		free(w.p);
		return sluice_i_errf(err, errlen, w.ret, "cannot list qdiscs: %s",
				     strerror(-w.ret));
	}
	if (ret < 0) {
		free(w.p);
		return sluice_i_errf(err, errlen, -EIO, "cannot list qdiscs: %s",
				     nl_geterror(ret));
	}
	*ports = w.p;
	*n = w.n;
	return 0;
}

/**
 * sluice_qopt_restorable() - options read back, as a change request takes them
 * @p:		a port's options as dumped
 * @with_limit:	keep TCA_SLUICE_LIMIT (it also resets every class's own
 *		limit: only when the change being undone set it)
 * @buf:	the attributes to nest in TCA_OPTIONS
 * @len:	room in @buf
 * @used:	set to the bytes written
 *
 * A dump names every map and, in TCA_SLUICE_DEFAULT_MAPS, those that
 * follow the class count: a request may not do both for one map, so the
 * default ones are left out (the reset brings them back).
 *
 * Return: 0 or -ENOSPC.
 */
int sluice_qopt_restorable(const struct sluice_port_qdisc *p, bool with_limit,
			   void *buf, size_t len, size_t *used)
{
	const struct nlattr *a;
	unsigned int type, tag, defaults = 0;
	size_t off, at = 0, alen;
	bool skip;

	for (off = 0; off + NLA_HDRLEN <= p->len; off += NLA_ALIGN(a->nla_len)) {
		a = (const void *)(p->opts + off);
		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > p->len)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == TCA_SLUICE_DEFAULT_MAPS &&
		    a->nla_len >= NLA_HDRLEN + 1)
			defaults = *((const uint8_t *)a + NLA_HDRLEN);
	}
	for (off = 0; off + NLA_HDRLEN <= p->len; off += NLA_ALIGN(a->nla_len)) {
		a = (const void *)(p->opts + off);
		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > p->len)
			break;
		type = a->nla_type & NLA_TYPE_MASK;
		skip = type == TCA_SLUICE_PAD ||
		       (type == TCA_SLUICE_LIMIT && !with_limit);
		for (tag = 0; tag <= TC_SLUICE_TAG_MAX; tag++)
			if (type == sluice_tag_info(tag)->map_attr &&
			    defaults & (1u << tag))
				skip = true;
		if (skip)
			continue;
		alen = NLA_ALIGN(a->nla_len);
		if (at + alen > len || off + alen > p->len)
			return -ENOSPC;
		memcpy((char *)buf + at, a, alen);
		at += alen;
	}
	*used = at;
	return 0;
}

/**
 * sluice_port_qdiscs_change() - "tc qdisc change" on ports of a namespace
 * @r:		a socket in the namespace, nothing outstanding
 * @c:		the changes: each port's root qdisc and its new options
 * @n:		how many
 * @fail:	on -EREMOTEIO, the first change refused (@fail->op), its
 *		errno and extended ack
 * @err:	the reason of any other failure
 * @errlen:	room in @err
 *
 * Every change is sent, also after a refusal: the kernel handles each on
 * its own, so the caller puts back all of them.
 *
 * Return: 0, -EREMOTEIO (refused), or another negative errno.
 */
int sluice_port_qdiscs_change(struct sluice_rtnl *r,
			      const struct sluice_qchange *c, uint32_t n,
			      struct sluice_kfail *fail, char *err,
			      size_t errlen)
{
	const struct sluice_i_nlerr *e;
	struct nl_msg *msg;
	uint32_t k;
	int ret = 0;

	sluice_i_rtnl_clear_errors(r);
	for (k = 0; !ret && k < n; k++) {
		struct tcmsg t = {
			.tcm_family = AF_UNSPEC,
			.tcm_ifindex = c[k].ifindex,
			.tcm_handle = c[k].handle,
			.tcm_parent = TC_H_ROOT,
		};

		msg = nlmsg_alloc_simple(RTM_NEWQDISC, 0);
		if (!msg || nlmsg_append(msg, &t, sizeof(t), NLMSG_ALIGNTO) < 0 ||
		    nla_put_string(msg, TCA_KIND, "sluice") ||
		    nla_put(msg, TCA_OPTIONS | NLA_F_NESTED, c[k].len,
			    c[k].opts)) {
			nlmsg_free(msg);
			return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
		}
		ret = sluice_i_rtnl_queue(r, msg, k, err, errlen);
		nlmsg_free(msg);
	}
	if (!ret)
		ret = sluice_i_rtnl_wait(r, err, errlen);
	if (ret)
		return ret;
	if (!sluice_i_rtnl_n_errors(r))
		return 0;
	e = sluice_i_rtnl_error(r, 0);
	memset(fail, 0, sizeof(*fail));
	fail->op = e->tag;
	fail->error = e->error;
	snprintf(fail->extack, sizeof(fail->extack), "%s", e->extack);
	sluice_i_rtnl_clear_errors(r);
	return -EREMOTEIO;
}

/* Appends switch @u's ports to @out, grown as needed. */
static int node_qopts(const struct sluice_fabric *f, uint32_t u, int self,
		      struct sluice_fabric_port_qopt **out, uint32_t *n,
		      char *err, size_t errlen)
{
	struct sluice_fabric_port_qopt *grown;
	char ns[SLUICE_NETNS_NAME_MAX], why[SLUICE_ERRLEN];
	struct sluice_port_qdisc *p = NULL;
	struct sluice_rtnl *r;
	uint32_t k, count = 0;
	int ret;

	sluice_fabric_switch_ns(f, u, ns, sizeof(ns));
	if (!sluice_netns_exists(ns))
		return 0;
	ret = sluice_rtnl_open_in(ns, self, &r, err, errlen);
	if (ret)
		return ret;
	ret = sluice_port_qdiscs_read(r, &p, &count, err, errlen);
	sluice_rtnl_close(r);
	if (ret)
		return ret;
	grown = count ? realloc(*out, (*n + count) * sizeof(**out)) : *out;
	if (!grown) {
		free(p);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	*out = grown;
	for (k = 0; k < count; k++) {
		grown[*n].node = u;
		snprintf(grown[*n].dev, sizeof(grown[*n].dev), "%s", p[k].dev);
		ret = sluice_qopt_decode(&grown[*n].o, p[k].opts, p[k].len,
					 why, sizeof(why));
		if (ret) {
			free(p);
			return sluice_i_errf(err, errlen, ret, "%s: %s: %s",
					     f->g->nodes[u].name, p[k].dev, why);
		}
		(*n)++;
	}
	free(p);
	return 0;
}

/**
 * sluice_fabric_port_qopts() - the options every switch port's qdisc holds
 * @f:		the fabric
 * @out:	set to a malloc()ed array, by node, then in the kernel's
 *		order of each node's ports; free() it
 * @n:		set to its length
 * @err:	which switch failed, and why
 * @errlen:	room in @err
 *
 * What the root sluice qdiscs of the switches' (and servers') ports hold
 * now, decoded from the kernel's dumps: what "fabric up" set, as "route
 * load" or "tc qdisc change" changed it since.  A switch whose namespace
 * is gone is skipped (fabric show says it is missing); a port without a
 * sluice root qdisc is not listed.
 *
 * Return: 0, or a negative errno with @err set.
 */
int sluice_fabric_port_qopts(const struct sluice_fabric *f,
			     struct sluice_fabric_port_qopt **out,
			     uint32_t *n, char *err, size_t errlen)
{
	int self, ret = 0;
	uint32_t u;

	*out = NULL;
	*n = 0;
	self = sluice_netns_self(err, errlen);
	if (self < 0)
		return self;
	for (u = 0; !ret && u < f->g->n_nodes; u++)
		ret = node_qopts(f, u, self, out, n, err, errlen);
	close(self);
	if (ret) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return ret;
}
