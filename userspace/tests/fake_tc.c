// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fakes of tc's functions for the plugin test, behaving as iproute2 6.1's
 * do for every input the plugin may give, and stricter where the plugin's
 * use would be a bug in real tc (wrong color, NULL format in text mode,
 * unbalanced arrays).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "../tc/tc_abi.h"
#include "fake_tc.h"

#define DEPTH_MAX	8

static struct {
	bool	json;
	char	out[16384];
	size_t	len;
	/* JSON: at each nesting level, whether a member was written yet. */
	bool	nonempty[DEPTH_MAX];
	int	depth;
	char	misuse[256];
} fake;

void fake_tc_reset(bool json)
{
	memset(&fake, 0, sizeof(fake));
	fake.json = json;
}

const char *fake_tc_output(void)
{
	if (fake.depth)
		snprintf(fake.misuse, sizeof(fake.misuse), "unclosed JSON array");
	return fake.out;
}

const char *fake_tc_misuse(void)
{
	return fake.misuse[0] ? fake.misuse : NULL;
}

__attribute__((format(printf, 1, 2)))
static void misuse(const char *fmt, ...)
{
	va_list ap;

	if (fake.misuse[0])
		return;
	va_start(ap, fmt);
	vsnprintf(fake.misuse, sizeof(fake.misuse), fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 1, 0)))
static void vappend(const char *fmt, va_list ap)
{
	int n = vsnprintf(fake.out + fake.len, sizeof(fake.out) - fake.len,
			  fmt, ap);

	if (n < 0 || (size_t)n >= sizeof(fake.out) - fake.len)
		misuse("output buffer full");
	else
		fake.len += n;
}

__attribute__((format(printf, 1, 2)))
static void append(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(fmt, ap);
	va_end(ap);
}

/* The effect of json_print.c's _IS_JSON_CONTEXT() and _IS_FP_CONTEXT(). */
static bool prints(enum output_type t)
{
	if (fake.json)
		return t & (PRINT_JSON | PRINT_ANY);
	return t & (PRINT_FP | PRINT_ANY);
}

/* A JSON member name or array element separator, as json_writer does. */
static void json_key(const char *key)
{
	if (fake.nonempty[fake.depth])
		append(",");
	fake.nonempty[fake.depth] = true;
	if (key)
		append("\"%s\":", key);
}

/* Whether to print: real tc would, and the call is not a bug. */
static bool check_call(enum output_type t, enum color_attr color,
		       const char *fmt)
{
	/* Spelled out, not COLOR_NONE, to catch a wrong tc_abi.h too. */
	if (color != 6)
		misuse("color %d instead of iproute2 6.1's COLOR_NONE, 6", color);
	if (!prints(t))
		return false;
	if (!fake.json && !fmt) {
		misuse("no format for text output");
		return false;
	}
	return true;
}

int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value)
{
	if (!check_call(t, color, fmt))
		return 0;
	if (!fake.json) {
		append(fmt, value);
		return 0;
	}
	json_key(key);
	append("%u", value);
	return 0;
}

int print_color_u64(enum output_type t, enum color_attr color,
		    const char *key, const char *fmt, uint64_t value)
{
	if (!check_call(t, color, fmt))
		return 0;
	if (!fake.json) {
		append(fmt, value);
		return 0;
	}
	json_key(key);
	append("%llu", (unsigned long long)value);
	return 0;
}

int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value)
{
	if (!check_call(t, color, fmt))
		return 0;
	if (!fake.json) {
		append(fmt, value);
		return 0;
	}
	if (strpbrk(value, "\"\\\n"))
		misuse("string \"%s\" needs escaping, not done here", value);
	json_key(key);
	append("\"%s\"", value);
	return 0;
}

int print_color_bool(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, bool value)
{
	if (!check_call(t, color, fmt))
		return 0;
	if (!fake.json) {
		append(fmt, value ? "true" : "false");
		return 0;
	}
	json_key(key);
	append("%s", value ? "true" : "false");
	return 0;
}

void open_json_array(enum output_type type, const char *delim)
{
	if (!fake.json) {
		if (prints(type))
			append("%s", delim);
		return;
	}
	if (!prints(type))
		return;
	if (fake.depth + 1 == DEPTH_MAX) {
		misuse("JSON nested too deep");
		return;
	}
	json_key(delim);
	append("[");
	fake.nonempty[++fake.depth] = false;
}

void close_json_array(enum output_type type, const char *delim)
{
	if (!fake.json) {
		if (prints(type))
			append("%s", delim);
		return;
	}
	if (!prints(type))
		return;
	if (!fake.depth) {
		misuse("JSON array closed but not open");
		return;
	}
	fake.depth--;
	append("]");
}

/* libnetlink.c's layout: attributes at the aligned tail of the message. */
int addattr_l(struct nlmsghdr *n, int maxlen, int type, const void *data,
	      int alen)
{
	int len = RTA_LENGTH(alen);
	struct rtattr *rta;

	if ((int)(NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(len)) > maxlen)
		return -1;
	rta = (struct rtattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));
	rta->rta_type = type;
	rta->rta_len = len;
	if (alen)
		memcpy(RTA_DATA(rta), data, alen);
	/* Padding is not left to chance, unlike real tc's zeroed request. */
	memset((char *)rta + len, 0, RTA_ALIGN(len) - len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(len);
	return 0;
}

struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type)
{
	struct rtattr *nest;

	nest = (struct rtattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));
	addattr_l(n, maxlen, type, NULL, 0);
	return nest;
}

int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest)
{
	nest->rta_len = (char *)n + NLMSG_ALIGN(n->nlmsg_len) - (char *)nest;
	return n->nlmsg_len;
}

int parse_rtattr_flags(struct rtattr *tb[], int max, struct rtattr *rta,
		       int len, unsigned short flags)
{
	unsigned short type;

	memset(tb, 0, sizeof(*tb) * (max + 1));
	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		type = rta->rta_type & ~flags;
		if (type <= max && !tb[type])
			tb[type] = rta;
	}
	return 0;
}
