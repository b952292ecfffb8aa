/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The part of tc's plugin ABI that q_sluice.so uses, as in iproute2 6.1
 * (Debian bookworm's /sbin/tc).
 *
 * tc dlopen()s $TC_LIB_DIR/q_<kind>.so, takes its <kind>_qdisc_util, and the
 * plugin calls back into tc: /sbin/tc is linked with -Wl,-export-dynamic, so
 * its own functions resolve the plugin's undefined symbols.  iproute2 installs
 * no headers and Debian packages none, so this file declares what we use,
 * written from the 6.1 sources: struct qdisc_util (tc/tc_util.h), the netlink
 * helpers (include/libnetlink.h), the printers (include/json_print.h) and
 * enum color_attr (include/color.h).
 *
 * Nothing checks this file against tc: a wrong struct layout, prototype or
 * enum value compiles, links and loads, then misbehaves.  So declare only
 * what q_sluice.c calls, check each function is in `nm -D /sbin/tc`, and
 * re-check the whole file when moving to another iproute2 version.
 */
#ifndef _SLUICE_TC_ABI_H
#define _SLUICE_TC_ABI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/* tc/tc_util.h.  tc links loaded plugins through ->next, so not const. */
struct qdisc_util {
	struct qdisc_util *next;
	const char *id;
	int (*parse_qopt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_qopt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*print_xstats)(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats);
	int (*parse_copt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_copt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*has_block)(struct qdisc_util *qu, struct rtattr *opt,
			 __u32 block_idx, bool *p_has);
};

/*
 * include/libnetlink.h.  @maxlen bounds the whole message, headers included;
 * addattr_l() fails with -1 rather than write past it.  addattr_nest() does
 * not set NLA_F_NESTED: callers or it into the type.
 */
int addattr_l(struct nlmsghdr *n, int maxlen, int type, const void *data,
	      int alen);
struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type);
int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest);
/* Fills tb[type & ~flags] with the first attribute of each type <= max. */
int parse_rtattr_flags(struct rtattr *tb[], int max, struct rtattr *rta,
		       int len, unsigned short flags);

/*
 * include/json_print.h.  PRINT_FP prints only in text mode, PRINT_JSON only
 * under "tc -j", PRINT_ANY in both; text goes to stdout, whatever FILE * tc
 * passes the plugin.
 */
enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = 4,
};

/* include/color.h: COLOR_NONE is the last value, 6, not 0. */
enum color_attr {
	COLOR_IFNAME,
	COLOR_MAC,
	COLOR_INET,
	COLOR_INET6,
	COLOR_OPERSTATE_UP,
	COLOR_OPERSTATE_DOWN,
	COLOR_NONE,
};

void open_json_array(enum output_type type, const char *delim);
void close_json_array(enum output_type type, const char *delim);
int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value);
int print_color_u64(enum output_type t, enum color_attr color,
		    const char *key, const char *fmt, uint64_t value);
int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value);
/* JSON: true or false; text: @fmt with "true" or "false". */
int print_color_bool(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, bool value);

/* iproute2's print_uint() etc. are static inline, so not in tc's symbols. */
static inline int print_uint(enum output_type t, const char *key,
			     const char *fmt, unsigned int value)
{
	return print_color_uint(t, COLOR_NONE, key, fmt, value);
}

static inline int print_u64(enum output_type t, const char *key,
			    const char *fmt, uint64_t value)
{
	return print_color_u64(t, COLOR_NONE, key, fmt, value);
}

static inline int print_string(enum output_type t, const char *key,
			       const char *fmt, const char *value)
{
	return print_color_string(t, COLOR_NONE, key, fmt, value);
}

static inline int print_bool(enum output_type t, const char *key,
			     const char *fmt, bool value)
{
	return print_color_bool(t, COLOR_NONE, key, fmt, value);
}

#endif /* _SLUICE_TC_ABI_H */
