// SPDX-License-Identifier: GPL-2.0
/*
 * q_sluice.so: tc's plugin for the sluice qdisc.
 *
 * tc loads it as $TC_LIB_DIR/q_sluice.so and uses sluice_qdisc_util to turn
 * "tc qdisc/class ... sluice OPTIONS" into TCA_OPTIONS and dumps back into
 * text or JSON.  The option syntax and its checks live in libsluice, so tc
 * and sluicectl agree on them; this file only speaks netlink.
 *
 * The text printed by "tc qdisc show" is itself valid input: it can be pasted
 * back after "tc qdisc replace ... sluice" and gives the same configuration.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sluice.h>
#include <sluice/map.h>
#include <sluice/qopt.h>
#include <sluice/size.h>
#include <sluice/tag.h>
#include "tc_abi.h"

/*
 * Bounds for addattr_l().  tc does not pass the size of its request buffer;
 * tc_qdisc_modify()'s has 64 KiB after the headers and tc_class_modify()'s
 * 4 KiB.  The largest qdisc request, every option and every map entry, is
 * under 1 KiB.
 */
#define QDISC_MSG_MAX	16384
#define CLASS_MSG_MAX	4096

static void usage(void)
{
	fprintf(stderr,
		"Usage: ... sluice [ classes N ] [ tag { priority | pcp | dscp | mpls-tc } ]\n"
		"                  [ default CLASS ] [ limit BYTES ] [ pcp-map MAP ]\n"
		"                  [ dscp-map MAP ] [ mpls-tc-map MAP ] [ prio-map MAP ]\n"
		"       MAP := ENTRY [ ENTRY ... ] | default    ENTRY := VALUE[-VALUE]:CLASS\n"
		"       N is 1..%u, CLASS is 0..N-1, BYTES is 1..%u, e.g. 1500, 64k, 1m\n"
		"       VALUE is pcp 0-7, dscp 0-63, mpls-tc 0-7, prio 0-15\n"
		"       a MAP of \"default\" resets the map to its default, which follows N\n",
		TC_SLUICE_MAX_CLASSES, TC_SLUICE_MAX_LIMIT);
}

static void class_usage(void)
{
	fputs("Usage: ... sluice [ limit BYTES ]\n", stderr);
}

/*
 * addattr_nest() cannot report that the message is full: it returns the
 * tail even when addattr_l() failed.  Only the length tells.
 */
static struct rtattr *begin_nest(struct nlmsghdr *n, int maxlen, int type)
{
	__u32 len = n->nlmsg_len;
	struct rtattr *nest = addattr_nest(n, maxlen, type | NLA_F_NESTED);

	return n->nlmsg_len == len ? NULL : nest;
}

static int put_map(struct nlmsghdr *n, const struct sluice_tag_info *ti,
		   const struct sluice_map *map)
{
	struct tc_sluice_map_entry e = {};
	struct rtattr *nest;
	unsigned int v;

	nest = begin_nest(n, QDISC_MSG_MAX, ti->map_attr);
	if (!nest)
		return -1;
	for (v = 0; v < ti->values; v++) {
		if (!(map->given & (1ull << v)))
			continue;
		e.value = v;
		e.tclass = map->tclass[v];
		if (addattr_l(n, QDISC_MSG_MAX, TCA_SLUICE_MAP_ENTRY, &e, sizeof(e)))
			return -1;
	}
	addattr_nest_end(n, nest);
	return 0;
}

static int put_qopt(struct nlmsghdr *n, const struct sluice_qopt *o)
{
	const struct sluice_tag_info *ti;
	struct rtattr *nest;
	unsigned int tag;

	nest = begin_nest(n, QDISC_MSG_MAX, TCA_OPTIONS);
	if (!nest)
		return -1;
	if ((o->present & SLUICE_QOPT_CLASSES &&
	     addattr_l(n, QDISC_MSG_MAX, TCA_SLUICE_CLASSES, &o->classes, 1)) ||
	    (o->present & SLUICE_QOPT_TAG &&
	     addattr_l(n, QDISC_MSG_MAX, TCA_SLUICE_TAG, &o->tag, 1)) ||
	    (o->present & SLUICE_QOPT_DEFAULT &&
	     addattr_l(n, QDISC_MSG_MAX, TCA_SLUICE_DEFAULT, &o->defclass, 1)) ||
	    (o->present & SLUICE_QOPT_LIMIT &&
	     addattr_l(n, QDISC_MSG_MAX, TCA_SLUICE_LIMIT, &o->limit, 4)))
		return -1;
	for (tag = 0; tag <= TC_SLUICE_TAG_MAX; tag++) {
		ti = sluice_tag_info(tag);
		if (o->present & SLUICE_QOPT_MAP(tag) &&
		    put_map(n, ti, &o->maps[tag]))
			return -1;
	}
	/* The parser's bits are the attribute's: BIT(enum tc_sluice_tag). */
	if (o->present & SLUICE_QOPT_DEFAULT_MAPS &&
	    addattr_l(n, QDISC_MSG_MAX, TCA_SLUICE_DEFAULT_MAPS,
		      &o->default_maps, 1))
		return -1;
	addattr_nest_end(n, nest);
	return 0;
}

static int parse_opt(struct qdisc_util *qu, int argc, char **argv,
		     struct nlmsghdr *n, const char *dev)
{
	char err[SLUICE_ERRLEN];
	struct sluice_qopt o;
	int ret;

	(void)qu;
	(void)dev;
	ret = sluice_qopt_parse(&o, argc, argv, err, sizeof(err));
	if (ret) {
		if (ret != SLUICE_PARSE_HELP)
			fprintf(stderr, "sluice: %s\n", err);
		usage();
		return -1;
	}
	return put_qopt(n, &o);
}

static int parse_class_opt(struct qdisc_util *qu, int argc, char **argv,
			   struct nlmsghdr *n, const char *dev)
{
	char err[SLUICE_ERRLEN];
	struct sluice_copt o;
	struct rtattr *nest;
	int ret;

	(void)qu;
	(void)dev;
	ret = sluice_copt_parse(&o, argc, argv, err, sizeof(err));
	if (ret) {
		if (ret != SLUICE_PARSE_HELP)
			fprintf(stderr, "sluice: %s\n", err);
		class_usage();
		return -1;
	}
	nest = begin_nest(n, CLASS_MSG_MAX, TCA_OPTIONS);
	if (!nest)
		return -1;
	if (o.present & SLUICE_COPT_LIMIT &&
	    addattr_l(n, CLASS_MSG_MAX, TCA_SLUICE_CLASS_LIMIT, &o.limit, 4))
		return -1;
	addattr_nest_end(n, nest);
	return 0;
}

/*
 * Readers of dumped attributes.  A payload shorter than the type means a
 * broken or foreign message: the attribute is skipped, not misread.
 */
static int get_u8(const struct rtattr *rta, __u8 *val)
{
	if (!rta || RTA_PAYLOAD(rta) < (int)sizeof(*val))
		return -1;
	memcpy(val, RTA_DATA(rta), sizeof(*val));
	return 0;
}

static int get_u32(const struct rtattr *rta, __u32 *val)
{
	if (!rta || RTA_PAYLOAD(rta) < (int)sizeof(*val))
		return -1;
	memcpy(val, RTA_DATA(rta), sizeof(*val));
	return 0;
}

static void print_tag(const struct rtattr *rta)
{
	const char *name;
	__u8 tag;

	if (get_u8(rta, &tag))
		return;
	name = sluice_tag_name(tag);
	if (name)
		print_string(PRINT_ANY, "tag", "tag %s ", name);
	else	/* a source newer than this plugin */
		print_uint(PRINT_ANY, "tag", "tag %u ", tag);
}

static void print_limit(const struct rtattr *rta)
{
	char buf[SLUICE_SIZE_STRLEN];
	__u32 limit;

	if (get_u32(rta, &limit))
		return;
	print_uint(PRINT_JSON, "limit", NULL, limit);
	print_string(PRINT_FP, NULL, "limit %s ",
		     sluice_format_size(limit, buf, sizeof(buf)));
}

/*
 * Reads a dumped map into @tclass.  The kernel dumps every entry; anything
 * else (a missing, repeated or out-of-range value) cannot be printed as a
 * map that re-parses to the same thing, so the map is left out.
 */
static int get_map(const struct rtattr *nest, unsigned int values,
		   __u8 *tclass)
{
	struct tc_sluice_map_entry e;
	const struct rtattr *rta;
	__u64 seen = 0;
	int len;

	len = RTA_PAYLOAD(nest);
	for (rta = RTA_DATA(nest); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if ((rta->rta_type & NLA_TYPE_MASK) != TCA_SLUICE_MAP_ENTRY)
			continue;
		if (RTA_PAYLOAD(rta) < (int)sizeof(e))
			return -1;
		memcpy(&e, RTA_DATA(rta), sizeof(e));
		if (e.value >= values || seen & (1ull << e.value))
			return -1;
		seen |= 1ull << e.value;
		tclass[e.value] = e.tclass;
	}
	return seen == (values == 64 ? ~0ull : (1ull << values) - 1) ? 0 : -1;
}

/*
 * JSON prints every map; text leaves out a map the kernel says is still
 * default (@is_default).  Typed back in, the text then leaves that map
 * default, still following "classes", instead of making it the user's.
 */
static void print_map(const struct rtattr *nest,
		      const struct sluice_tag_info *ti, bool is_default)
{
	__u8 tclass[SLUICE_MAP_MAX_VALUES];
	char buf[SLUICE_MAP_STRLEN];
	unsigned int v;

	if (!nest || get_map(nest, ti->values, tclass))
		return;
	open_json_array(PRINT_JSON, ti->map_json);
	for (v = 0; v < ti->values; v++)
		print_uint(PRINT_JSON, NULL, NULL, tclass[v]);
	close_json_array(PRINT_JSON, NULL);

	if (is_default ||
	    sluice_map_format(tclass, ti->values, buf, sizeof(buf)))
		return;
	print_string(PRINT_FP, NULL, "%s ", ti->map_name);
	print_string(PRINT_FP, NULL, "%s ", buf);
}

/* The tag source whose map is dumped as @attr, or -1. */
static int tag_of_map_attr(unsigned int attr)
{
	unsigned int tag;

	for (tag = 0; tag <= TC_SLUICE_TAG_MAX; tag++)
		if (sluice_tag_info(tag)->map_attr == attr)
			return tag;
	return -1;
}

/*
 * "default_maps" names the tag sources whose map is default.  A bit of a
 * source this plugin does not know is skipped, as that source's map is.
 */
static void print_default_maps(__u8 defaults)
{
	const char *name;
	unsigned int tag;

	open_json_array(PRINT_JSON, "default_maps");
	for (tag = 0; tag < 8 * sizeof(defaults); tag++) {
		name = sluice_tag_name(tag);
		if (defaults & SLUICE_DEFAULT_MAP(tag) && name)
			print_string(PRINT_JSON, NULL, NULL, name);
	}
	close_json_array(PRINT_JSON, NULL);
}

/*
 * A kernel older than TCA_SLUICE_DEFAULT_MAPS does not say which maps are
 * default: all of them are printed, as the user's.
 */
static void print_maps(struct rtattr *tb[])
{
	unsigned int attr;
	__u8 defaults = 0;
	bool known;
	int tag;

	known = !get_u8(tb[TCA_SLUICE_DEFAULT_MAPS], &defaults);
	/* In attribute order, which is the order of the usage. */
	for (attr = TCA_SLUICE_PCP_MAP; attr <= TCA_SLUICE_PRIO_MAP; attr++) {
		tag = tag_of_map_attr(attr);
		if (tag >= 0)
			print_map(tb[attr], sluice_tag_info(tag),
				  defaults & SLUICE_DEFAULT_MAP(tag));
	}
	if (known)
		print_default_maps(defaults);
}

static int print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_SLUICE_MAX + 1];
	__u8 val;

	(void)qu;
	(void)f;
	if (!opt)
		return 0;
	parse_rtattr_flags(tb, TCA_SLUICE_MAX, RTA_DATA(opt), RTA_PAYLOAD(opt),
			   NLA_F_NESTED);
	if (!get_u8(tb[TCA_SLUICE_CLASSES], &val))
		print_uint(PRINT_ANY, "classes", "classes %u ", val);
	print_tag(tb[TCA_SLUICE_TAG]);
	if (!get_u8(tb[TCA_SLUICE_DEFAULT], &val))
		print_uint(PRINT_ANY, "default", "default %u ", val);
	print_limit(tb[TCA_SLUICE_LIMIT]);
	print_maps(tb);
	return 0;
}

static int print_class_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_SLUICE_CLASS_MAX + 1];

	(void)qu;
	(void)f;
	if (!opt)
		return 0;
	parse_rtattr_flags(tb, TCA_SLUICE_CLASS_MAX, RTA_DATA(opt),
			   RTA_PAYLOAD(opt), NLA_F_NESTED);
	print_limit(tb[TCA_SLUICE_CLASS_LIMIT]);
	return 0;
}

/*
 * Where a field of the xstats ends.  Kernels append fields, so a type is
 * printed when its first release's fields are there; a field appended
 * later must be printed only if the payload reaches its end.
 */
#define XSTATS_END(field)						\
	((int)(offsetof(struct tc_sluice_xstats, field) +		\
	       sizeof(((struct tc_sluice_xstats *)0)->field)))

/*
 * tc calls this for "tc -s qdisc show" and "tc -s class show" alike; the
 * type says which struct the kernel filled.  Unknown types are a newer
 * kernel's and are skipped.
 */
static int print_xstats(struct qdisc_util *qu, FILE *f, struct rtattr *xstats)
{
	struct tc_sluice_xstats st = {};
	int len;

	(void)qu;
	(void)f;
	if (!xstats)
		return 0;
	len = RTA_PAYLOAD(xstats);
	if (len < (int)sizeof(st.type))
		return -1;
	memcpy(&st, RTA_DATA(xstats), len < (int)sizeof(st) ? len : (int)sizeof(st));

	switch (st.type) {
	case TC_SLUICE_XSTATS_QDISC:
		if (len < XSTATS_END(qdisc.limit_drops))
			return -1;
		print_u64(PRINT_ANY, "untagged", " untagged %" PRIu64,
			  st.qdisc.untagged);
		print_u64(PRINT_ANY, "limit_drops", " limit_drops %" PRIu64,
			  st.qdisc.limit_drops);
		break;
	case TC_SLUICE_XSTATS_CLASS:
		if (len < XSTATS_END(cls.peak_backlog))
			return -1;
		print_u64(PRINT_ANY, "limit_drops", " limit_drops %" PRIu64,
			  st.cls.limit_drops);
		print_uint(PRINT_ANY, "peak_backlog", " peak_backlog %ub",
			   st.cls.peak_backlog);
		break;
	}
	return 0;
}

struct qdisc_util sluice_qdisc_util = {
	.id		= "sluice",
	.parse_qopt	= parse_opt,
	.print_qopt	= print_opt,
	.print_xstats	= print_xstats,
	.parse_copt	= parse_class_opt,
	.print_copt	= print_class_opt,
};
