// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sluice qdisc's options as netlink attributes: what goes inside
 * TCA_OPTIONS of an RTM_NEWQDISC.  The tc plugin sends these bytes, and
 * sluicectl's fabric builds its qdisc requests with them, without tc, so
 * the two cannot drift apart (tests/test_qopt_enc.c checks the plugin).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <linux/netlink.h>
#include <sluice/qopt.h>
#include <sluice/tag.h>

struct enc {
	unsigned char	*buf;
	size_t		len;
	size_t		at;
	int		ret;
};

static struct nlattr *put(struct enc *e, unsigned int type, const void *data,
			  size_t len)
{
	size_t total = NLA_ALIGN(NLA_HDRLEN + len);
	struct nlattr *nla;

	if (e->ret || total > 0xffff || total > e->len - e->at) {
		e->ret = -ENOSPC;
		return NULL;
	}
	nla = (struct nlattr *)(e->buf + e->at);
	nla->nla_type = type;
	nla->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy(e->buf + e->at + NLA_HDRLEN, data, len);
	memset(e->buf + e->at + NLA_HDRLEN + len, 0,
	       total - NLA_HDRLEN - len);
	e->at += total;
	return nla;
}

static void put_map(struct enc *e, const struct sluice_tag_info *ti,
		    const struct sluice_class_map *map)
{
	struct tc_sluice_map_entry ent;
	size_t start = e->at;
	unsigned int v;

	if (!put(e, ti->map_attr | NLA_F_NESTED, NULL, 0))
		return;
	for (v = 0; v < ti->values; v++) {
		if (!(map->given & (1ull << v)))
			continue;
		memset(&ent, 0, sizeof(ent));
		ent.value = v;
		ent.tclass = map->tclass[v];
		put(e, TCA_SLUICE_MAP_ENTRY, &ent, sizeof(ent));
	}
	if (!e->ret)
		((struct nlattr *)(e->buf + start))->nla_len = e->at - start;
}

/* PortFC's attributes, in attribute order ("portfc-rtt" set the four). */
static void put_portfc(struct enc *e, const struct sluice_qopt *o)
{
	static const struct {
		__u64		bit;
		unsigned int	type;
		size_t		offset, len;
	} attrs[] = {
#define PORTFC_ATTR(b, t, field) {					\
		SLUICE_QOPT_##b, TCA_SLUICE_##t,			\
		offsetof(struct sluice_qopt, field),			\
		sizeof(((struct sluice_qopt *)0)->field) }
		PORTFC_ATTR(PORTFC, PORTFC, portfc),
		PORTFC_ATTR(PORTFC_N, PORTFC_N, portfc_n),
		PORTFC_ATTR(PORTFC_K, PORTFC_K, portfc_k),
		PORTFC_ATTR(PORTFC_INDEX, PORTFC_INDEX, portfc_index),
		PORTFC_ATTR(PORTFC_LABEL_BASE, PORTFC_LABEL_BASE,
			    portfc_label_base),
		PORTFC_ATTR(PORTFC_XOFF_A, PORTFC_XOFF_A, portfc_xoff_a),
		PORTFC_ATTR(PORTFC_XON_A, PORTFC_XON_A, portfc_xon_a),
		PORTFC_ATTR(PORTFC_XOFF_B, PORTFC_XOFF_B, portfc_xoff_b),
		PORTFC_ATTR(PORTFC_XON_B, PORTFC_XON_B, portfc_xon_b),
		PORTFC_ATTR(PORTFC_HQ, PORTFC_HQ, portfc_hq),
		PORTFC_ATTR(PORTFC_HQ_DSCP, PORTFC_HQ_DSCP, portfc_hq_dscp),
#undef PORTFC_ATTR
	};
	size_t i;

	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		if (o->present & attrs[i].bit)
			put(e, attrs[i].type, (const char *)o + attrs[i].offset,
			    attrs[i].len);
}

/**
 * sluice_qopt_encode() - the attributes of TCA_OPTIONS for @o
 * @o:		parsed options; "xoff auto" already resolved
 *		(sluice_qopt_xoff_auto())
 * @buf:	where the attributes go, 4-byte aligned
 * @len:	room in @buf
 * @used:	set to the bytes written
 *
 * Only the options present are sent, in the plugin's order, so that the
 * kernel keeps the others (a change touches only what it names).  The
 * caller nests the result in TCA_OPTIONS | NLA_F_NESTED.
 *
 * Return: 0, -EINVAL for an unresolved "xoff auto", -ENOSPC.
 */
int sluice_qopt_encode(const struct sluice_qopt *o, void *buf, size_t len,
		       size_t *used)
{
	struct enc e = { .buf = buf, .len = len };
	unsigned int tag;

	*used = 0;
	/* resolving "xoff auto" sets XOFF */
	if ((o->present & (SLUICE_QOPT_XOFF_AUTO | SLUICE_QOPT_XOFF)) ==
	    SLUICE_QOPT_XOFF_AUTO)
		return -EINVAL;
	if (o->present & SLUICE_QOPT_CLASSES)
		put(&e, TCA_SLUICE_CLASSES, &o->classes, 1);
	if (o->present & SLUICE_QOPT_TAG)
		put(&e, TCA_SLUICE_TAG, &o->tag, 1);
	if (o->present & SLUICE_QOPT_DEFAULT)
		put(&e, TCA_SLUICE_DEFAULT, &o->defclass, 1);
	if (o->present & SLUICE_QOPT_LIMIT)
		put(&e, TCA_SLUICE_LIMIT, &o->limit, 4);
	if (o->present & SLUICE_QOPT_RATE)
		put(&e, TCA_SLUICE_RATE, &o->rate, 8);
	if (o->present & SLUICE_QOPT_PFC)
		put(&e, TCA_SLUICE_PFC, &o->pfc, 1);
	if (o->present & SLUICE_QOPT_PAUSE_RX)
		put(&e, TCA_SLUICE_PAUSE_RX, &o->pause_rx, 1);
	if (o->present & SLUICE_QOPT_XOFF)
		put(&e, TCA_SLUICE_XOFF, &o->xoff, 4);
	if (o->present & SLUICE_QOPT_XON)
		put(&e, TCA_SLUICE_XON, &o->xon, 4);
	if (o->present & SLUICE_QOPT_HEADROOM)
		put(&e, TCA_SLUICE_HEADROOM, &o->headroom, 4);
	if (o->present & SLUICE_QOPT_PAUSE_TIME)
		put(&e, TCA_SLUICE_PAUSE_TIME, &o->pause_time, 2);
	if (o->present & SLUICE_QOPT_WD_PRIOS)
		put(&e, TCA_SLUICE_WD_PRIOS, &o->wd_prios, 1);
	if (o->present & SLUICE_QOPT_WD_ACTION)
		put(&e, TCA_SLUICE_WD_ACTION, &o->wd_action, 1);
	if (o->present & SLUICE_QOPT_WD_DETECT)
		put(&e, TCA_SLUICE_WD_DETECT, &o->wd_detect_ms, 4);
	if (o->present & SLUICE_QOPT_WD_RESTORE)
		put(&e, TCA_SLUICE_WD_RESTORE, &o->wd_restore_ms, 4);
	if (o->present & SLUICE_QOPT_WD_POLL)
		put(&e, TCA_SLUICE_WD_POLL, &o->wd_poll_ms, 4);
	put_portfc(&e, o);
	if (o->present & SLUICE_QOPT_INT_PORT)
		put(&e, TCA_SLUICE_INT_PORT, &o->int_port, 2);
	if (o->present & SLUICE_QOPT_INT_NODE)
		put(&e, TCA_SLUICE_INT_NODE, &o->int_node, 4);
	if (o->present & SLUICE_QOPT_INT_LINK)
		put(&e, TCA_SLUICE_INT_LINK, &o->int_link, 4);
	for (tag = 0; tag <= TC_SLUICE_TAG_MAX; tag++)
		if (o->present & SLUICE_QOPT_MAP(tag))
			put_map(&e, sluice_tag_info(tag), &o->maps[tag]);
	if (o->present & SLUICE_QOPT_DEFAULT_MAPS)
		put(&e, TCA_SLUICE_DEFAULT_MAPS, &o->default_maps, 1);
	if (e.ret)
		return e.ret;
	*used = e.at;
	return 0;
}
