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
#include "qopt_fields.h"

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
	const struct sluice_i_qopt_field *f;
	struct enc e = { .buf = buf, .len = len };
	unsigned int tag;
	size_t i;

	*used = 0;
	/* resolving "xoff auto" sets XOFF */
	if ((o->present & (SLUICE_QOPT_XOFF_AUTO | SLUICE_QOPT_XOFF)) ==
	    SLUICE_QOPT_XOFF_AUTO)
		return -EINVAL;
	for (i = 0; i < sluice_i_qopt_n_fields; i++) {
		f = &sluice_i_qopt_fields[i];
		if (o->present & f->bit)
			put(&e, f->type, (const char *)o + f->off, f->size);
	}
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
