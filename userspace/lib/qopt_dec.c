// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sluice qdisc's options read back: the attributes of TCA_OPTIONS as
 * the kernel dumps them, decoded into a struct sluice_qopt, and that struct
 * written as tc's text dump writes it, words that sluice_qopt_parse() takes
 * back.  qopt_enc.c is the other direction.  Plain netlink attributes, no
 * libnl: the tc plugin links this file too.
 */
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/netlink.h>
#include <sluice/pfc.h>
#include <sluice/portfc.h>
#include <sluice/qopt.h>
#include <sluice/rate.h>
#include <sluice/size.h>
#include <sluice/tag.h>
#include "qopt_fields.h"

/* Not in the table: the encoder sends it after the maps. */
static const struct sluice_i_qopt_field default_maps_field = {
	TCA_SLUICE_DEFAULT_MAPS, offsetof(struct sluice_qopt, default_maps),
	sizeof(((struct sluice_qopt *)0)->default_maps),
	SLUICE_QOPT_DEFAULT_MAPS
};

/* The scalar attribute @type's entry, or NULL (a map, or a newer one). */
static const struct sluice_i_qopt_field *field_of(unsigned int type)
{
	size_t i;

	for (i = 0; i < sluice_i_qopt_n_fields; i++)
		if (sluice_i_qopt_fields[i].type == type)
			return &sluice_i_qopt_fields[i];
	return NULL;
}

static int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The tag source whose map is attribute @type, or -1. */
static int map_tag(unsigned int type)
{
	unsigned int tag;

	for (tag = 0; tag <= TC_SLUICE_TAG_MAX; tag++)
		if (sluice_tag_info(tag)->map_attr == type)
			return tag;
	return -1;
}

/* A dumped map: every value of the tag exactly once. */
static int decode_map(struct sluice_class_map *m,
		      const struct sluice_tag_info *ti, const void *data,
		      size_t len, char *err, size_t errlen)
{
	const unsigned char *p = data;
	struct tc_sluice_map_entry e;
	const struct nlattr *a;
	size_t off;

	memset(m, 0, sizeof(*m));
	for (off = 0; off < len; off += NLA_ALIGN(a->nla_len)) {
		a = (const void *)(p + off);
		if (len - off < NLA_HDRLEN || a->nla_len < NLA_HDRLEN ||
		    a->nla_len > len - off)
			return errf(err, errlen, "%s: a truncated attribute",
				    ti->map_name);
		if ((a->nla_type & NLA_TYPE_MASK) != TCA_SLUICE_MAP_ENTRY)
			continue;
		if (a->nla_len - NLA_HDRLEN != sizeof(e))
			return errf(err, errlen, "%s: an entry of %u bytes, not %zu",
				    ti->map_name, a->nla_len - NLA_HDRLEN,
				    sizeof(e));
		memcpy(&e, p + off + NLA_HDRLEN, sizeof(e));
		if (e.value >= ti->values || m->given & (1ull << e.value))
			return errf(err, errlen, "%s: value %u out of range or repeated",
				    ti->map_name, e.value);
		m->given |= 1ull << e.value;
		m->tclass[e.value] = e.tclass;
	}
	return 0;
}

/**
 * sluice_qopt_decode() - a qdisc's options as the kernel dumps them
 * @o:		set to the options; present says which the dump held
 * @opts:	the attributes inside TCA_OPTIONS
 * @len:	their length
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * A map the dump names default (TCA_SLUICE_DEFAULT_MAPS) is kept in
 * @o->maps but not marked present, as a command line that leaves it alone;
 * @o->default_maps says which.  Attributes this version does not know (a
 * newer kernel's) are skipped; a known one of the wrong size, or a map
 * that does not give every value once, is an error.
 *
 * Return: 0, or -EINVAL with @err set.
 */
int sluice_qopt_decode(struct sluice_qopt *o, const void *opts, size_t len,
		       char *err, size_t errlen)
{
	const unsigned char *p = opts;
	const struct sluice_i_qopt_field *f;
	const struct nlattr *a;
	unsigned int type;
	size_t off, plen;
	int tag, ret;

	memset(o, 0, sizeof(*o));
	for (off = 0; off < len; off += NLA_ALIGN(a->nla_len)) {
		a = (const void *)(p + off);
		if (len - off < NLA_HDRLEN || a->nla_len < NLA_HDRLEN ||
		    a->nla_len > len - off)
			return errf(err, errlen, "a truncated attribute at byte %zu",
				    off);
		type = a->nla_type & NLA_TYPE_MASK;
		plen = a->nla_len - NLA_HDRLEN;
		tag = map_tag(type);
		if (tag >= 0) {
			ret = decode_map(&o->maps[tag], sluice_tag_info(tag),
					 p + off + NLA_HDRLEN, plen, err,
					 errlen);
			if (ret)
				return ret;
			o->present |= SLUICE_QOPT_MAP(tag);
			continue;
		}
		f = type == TCA_SLUICE_DEFAULT_MAPS ?
		    &default_maps_field : field_of(type);
		if (!f)
			continue;
		if (plen != f->size)
			return errf(err, errlen, "attribute %u has %zu bytes, not %zu",
				    type, plen, f->size);
		memcpy((char *)o + f->off, p + off + NLA_HDRLEN, f->size);
		o->present |= f->bit;
	}
	/* A default map follows "classes": not the user's, as in tc's text. */
	for (tag = 0; tag <= TC_SLUICE_TAG_MAX; tag++)
		if (o->default_maps & SLUICE_DEFAULT_MAP(tag))
			o->present &= ~SLUICE_QOPT_MAP(tag);
	return 0;
}

struct out {
	char	*buf;
	size_t	len;
	size_t	at;
	int	ret;
};

static void word(struct out *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->ret)
		return;
	va_start(ap, fmt);
	n = vsnprintf(w->buf + w->at, w->len - w->at, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= w->len - w->at) {
		w->ret = -ENOSPC;
		return;
	}
	w->at += n;
}

static void size_word(struct out *w, const char *name, __u32 bytes)
{
	char buf[SLUICE_SIZE_STRLEN];

	word(w, " %s %s", name, sluice_format_size(bytes, buf, sizeof(buf)));
}

static __u64 all_values(unsigned int values)
{
	return values >= 64 ? ~0ull : (1ull << values) - 1;
}

/*
 * A map given in part (a command line's entries, merged by the kernel
 * into the map it holds): only its entries, VALUE[-VALUE]:CLASS over runs
 * of given values of one class.
 */
static void format_entries(struct out *w, const struct sluice_tag_info *ti,
			   const struct sluice_class_map *m)
{
	unsigned int v = 0, hi;

	word(w, " %s", ti->map_name);
	while (v < ti->values) {
		if (!(m->given & (1ull << v))) {
			v++;
			continue;
		}
		for (hi = v; hi + 1 < ti->values &&
		     m->given & (1ull << (hi + 1)) &&
		     m->tclass[hi + 1] == m->tclass[v]; hi++)
			;
		if (hi == v)
			word(w, " %u:%u", v, m->tclass[v]);
		else
			word(w, " %u-%u:%u", v, hi, m->tclass[v]);
		v = hi + 1;
	}
}

static void format_maps(struct out *w, const struct sluice_qopt *o)
{
	const struct sluice_tag_info *ti;
	char buf[SLUICE_MAP_STRLEN];
	unsigned int attr;
	int tag;

	/* in attribute order, as tc prints them */
	for (attr = TCA_SLUICE_PCP_MAP; attr <= TCA_SLUICE_PRIO_MAP; attr++) {
		tag = map_tag(attr);
		if (tag < 0 || !(o->present & SLUICE_QOPT_MAP(tag)))
			continue;
		ti = sluice_tag_info(tag);
		if (o->maps[tag].given != all_values(ti->values)) {
			format_entries(w, ti, &o->maps[tag]);
			continue;
		}
		if (sluice_map_format(o->maps[tag].tclass, ti->values, buf,
				      sizeof(buf))) {
			w->ret = -ENOSPC;
			return;
		}
		word(w, " %s %s", ti->map_name, buf);
	}
}

static void format_wd(struct out *w, const struct sluice_qopt *o)
{
	char buf[SLUICE_PFC_STRLEN];
	const char *action;

	if (o->present & SLUICE_QOPT_WD_PRIOS) {
		if (o->wd_prios && o->portfc)
			word(w, " watchdog all");
		else
			word(w, " watchdog %s",
			     sluice_pfc_format(o->wd_prios, buf, sizeof(buf)));
	}
	if (o->present & SLUICE_QOPT_WD_ACTION) {
		action = sluice_wd_action_name(o->wd_action);
		if (action)
			word(w, " watchdog-action %s", action);
		else
			word(w, " watchdog-action %u", o->wd_action);
	}
	if (o->present & SLUICE_QOPT_WD_DETECT)
		word(w, " detection-time %ums", o->wd_detect_ms);
	if (o->present & SLUICE_QOPT_WD_RESTORE)
		word(w, " restoration-time %ums", o->wd_restore_ms);
	if (o->present & SLUICE_QOPT_WD_POLL)
		word(w, " watchdog-poll %ums", o->wd_poll_ms);
}

static void format_portfc(struct out *w, const struct sluice_qopt *o)
{
	char buf[SLUICE_PORTFC_HQ_STRLEN];
	const char *role;

	if (!(o->present & SLUICE_QOPT_PORTFC) ||
	    o->portfc == TC_SLUICE_PORTFC_NONE)
		return;
	role = sluice_portfc_role_name(o->portfc);
	if (role)
		word(w, " portfc %s", role);
	else
		word(w, " portfc %u", o->portfc);
	if (o->present & SLUICE_QOPT_PORTFC_N)
		word(w, " portfc-n %u", o->portfc_n);
	if (o->present & SLUICE_QOPT_PORTFC_K)
		word(w, " portfc-k %u", o->portfc_k);
	if (o->present & SLUICE_QOPT_PORTFC_INDEX)
		word(w, " portfc-index %u", o->portfc_index);
	if (o->present & SLUICE_QOPT_PORTFC_LABEL_BASE)
		word(w, " portfc-label-base %u", o->portfc_label_base);
	if (o->present & SLUICE_QOPT_PORTFC_XOFF_A)
		size_word(w, "portfc-xoff-a", o->portfc_xoff_a);
	if (o->present & SLUICE_QOPT_PORTFC_XON_A)
		size_word(w, "portfc-xon-a", o->portfc_xon_a);
	if (o->present & SLUICE_QOPT_PORTFC_XOFF_B)
		size_word(w, "portfc-xoff-b", o->portfc_xoff_b);
	if (o->present & SLUICE_QOPT_PORTFC_XON_B)
		size_word(w, "portfc-xon-b", o->portfc_xon_b);
	if (o->present & SLUICE_QOPT_PORTFC_HQ)
		word(w, " portfc-hq %s",
		     sluice_portfc_hq_format(o->portfc_hq, buf, sizeof(buf)));
	if (!(o->present & SLUICE_QOPT_PORTFC_HQ_DSCP))
		return;
	if (o->portfc_hq_dscp == TC_SLUICE_PORTFC_DSCP_NONE)
		word(w, " portfc-hq-dscp none");
	else
		word(w, " portfc-hq-dscp %u", o->portfc_hq_dscp);
}

/**
 * sluice_qopt_format() - options as tc's text dump prints them
 * @o:		options, decoded (sluice_qopt_decode()) or parsed
 * @buf:	set to the words, space-separated, NUL-terminated
 * @len:	room in @buf; SLUICE_QOPT_STRLEN holds any
 *
 * The options @o->present names, in the order and the words of tc's text
 * dump ("classes 8 tag dscp ... rate 100Mbit pfc 3 ..."), so that
 * sluice_qopt_parse() reads them back to the same settings: sizes and
 * rates in their largest exact unit, maps as VALUE[-VALUE]:CLASS runs (a
 * map given in part, as a command line gives it, by its entries only), a
 * PortFC port's watchdog as "all".  Nothing of PortFC is printed for a
 * port whose role is none, as tc does.  An empty @o gives "".
 *
 * Return: 0, or -ENOSPC if @len is too small (@buf then holds a prefix).
 */
int sluice_qopt_format(const struct sluice_qopt *o, char *buf, size_t len)
{
	struct out w = { .buf = buf, .len = len };
	char tmp[SLUICE_RATE_STRLEN];
	const char *tag;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	if (o->present & SLUICE_QOPT_CLASSES)
		word(&w, " classes %u", o->classes);
	if (o->present & SLUICE_QOPT_TAG) {
		tag = sluice_tag_name(o->tag);
		if (tag)
			word(&w, " tag %s", tag);
		else
			word(&w, " tag %u", o->tag);
	}
	if (o->present & SLUICE_QOPT_DEFAULT)
		word(&w, " default %u", o->defclass);
	if (o->present & SLUICE_QOPT_LIMIT)
		size_word(&w, "limit", o->limit);
	if (o->present & SLUICE_QOPT_RATE)
		word(&w, " rate %s", sluice_format_rate(o->rate, tmp, sizeof(tmp)));
	if (o->present & SLUICE_QOPT_PFC)
		word(&w, " pfc %s", sluice_pfc_format(o->pfc, tmp, sizeof(tmp)));
	if (o->present & SLUICE_QOPT_PAUSE_RX)
		word(&w, " pause-rx %s", o->pause_rx ? "on" : "off");
	if (o->present & SLUICE_QOPT_XOFF)
		size_word(&w, "xoff", o->xoff);
	if (o->present & SLUICE_QOPT_XON)
		size_word(&w, "xon", o->xon);
	if (o->present & SLUICE_QOPT_HEADROOM)
		size_word(&w, "headroom", o->headroom);
	if (o->present & SLUICE_QOPT_PAUSE_TIME)
		word(&w, " pause-time %u", o->pause_time);
	format_maps(&w, o);
	format_wd(&w, o);
	format_portfc(&w, o);
	if (o->present & SLUICE_QOPT_INT_PORT)
		word(&w, " int-port %u", o->int_port);
	if (o->present & SLUICE_QOPT_INT_NODE)
		word(&w, " int-node %u", o->int_node);
	if (o->present & SLUICE_QOPT_INT_LINK)
		word(&w, " int-link %u", o->int_link);
	if (w.ret)
		return w.ret;
	/* every word was written with a space before it */
	if (w.at)
		memmove(buf, buf + 1, w.at);
	return 0;
}
