// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command-line options of the sluice qdisc and of its classes:
 *
 *   sluice [ classes N ] [ tag { priority | pcp | dscp | mpls-tc } ]
 *          [ default CLASS ] [ limit BYTES ] [ rate RATE ] [ pfc PRIOS ]
 *          [ pause-rx { on | off } ] [ xoff { BYTES | AUTO } ]
 *          [ xon BYTES ] [ headroom BYTES ] [ pause-time QUANTA ]
 *          [ pcp-map MAP ] [ dscp-map MAP ] [ mpls-tc-map MAP ]
 *          [ prio-map MAP ] [ watchdog { PRIOS | all } ]
 *          [ watchdog-action { drop | forward | alert } ]
 *          [ detection-time TIME ] [ restoration-time TIME ]
 *          [ watchdog-poll TIME ] [ portfc { switch | server } ]
 *          [ portfc-n N ] [ portfc-k K ] [ portfc-index I ]
 *          [ portfc-label-base LABEL ] [ portfc-xoff-a BYTES ]
 *          [ portfc-xon-a BYTES ] [ portfc-xoff-b BYTES ]
 *          [ portfc-xon-b BYTES ] [ portfc-rtt RTT ]
 *          [ portfc-hq { none | KIND[,KIND] } ] [ portfc-hq-dscp { DSCP | none } ]
 *          [ int-port PORT ] [ int-node NODE ] [ int-link LINK ]
 *   MAP := ENTRY [ ENTRY ... ] | default    ENTRY := VALUE[-VALUE]:CLASS
 *   PRIOS := none | P[-P][,P[-P]...]
 *   TIME := MS | MSms | Ss        (10 ms to 60 s, whole milliseconds)
 *   AUTO := auto [ cable METRES ] [ mtu BYTES ]
 *   RTT := NUMBER{ns|us|ms|s}     (1 ns to 1 s)    KIND := ack | arp
 *   PORT := 0..65535 (0: off)     NODE, LINK := 0..4294967295
 *
 *   class: sluice [ limit BYTES ] [ ecn { BYTES | off } ]
 *                 [ quantum { BYTES | strict } ]
 *
 * "xoff auto" computes xoff, xon and headroom from the PFC headroom of
 * sluice_xoff_auto(); it needs "rate" and "limit" in the same command, as
 * the kernel's current values are not known here, and excludes "headroom".
 * "cable" and "mtu" are its inputs, valid right after it only (in either
 * order).  The parser collects them; sluice_qopt_xoff_auto() computes, once
 * the caller knows the device's MTU.  The kernel sees plain numbers.
 *
 * "portfc-rtt" sets the four PortFC thresholds by the paper's rule, 6 and
 * 4 bandwidth-delay products of the "rate" in the same command, so it
 * excludes them; unlike "xoff auto" it needs nothing of the device and is
 * resolved here.  What the parser cannot know (whether the qdisc is being
 * created, its current role) is the kernel's to check.
 *
 * A class's "ecn 0" is "ecn off" and "quantum 0" is "quantum strict", as
 * the kernel takes them; the words are for reading and printing.
 *
 * A map takes every word up to the next keyword.  "default" right after a
 * map keyword returns that map to the default (TCA_SLUICE_DEFAULT_MAPS)
 * instead: it is a keyword, so a map's entries end before it, and no map
 * entry can be spelt "default", so the two meanings cannot be confused.
 * Keywords match exactly (no abbreviations): "default" and "dscp-map" share
 * prefixes, and a script that spells an option out today must not change
 * meaning when one is added.
 *
 * Every rejected command gets one message that names the option and the
 * word at fault.  Nothing is printed here: tc and sluicectl decide where
 * messages go.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sluice/headroom.h>
#include <sluice/pfc.h>
#include <sluice/portfc.h>
#include <sluice/qopt.h>
#include <sluice/rate.h>
#include <sluice/size.h>
#include <sluice/tag.h>
#include "parse.h"

/* Entry bits and the reset bit must not collide, and a reset fits a u8. */
_Static_assert(SLUICE_QOPT_MAP(TC_SLUICE_TAG_MAX) < SLUICE_QOPT_DEFAULT_MAPS,
	       "SLUICE_QOPT_DEFAULT_MAPS overlaps a map's bit");
_Static_assert(TC_SLUICE_TAG_MAX < 8, "TCA_SLUICE_DEFAULT_MAPS is a u8");

/* Where a parser is in argv, and where its message goes. */
struct cursor {
	int		argc;
	char *const	*argv;
	int		pos;
	char		*err;
	size_t		errlen;
};

/*
 * The qdisc parser remembers the words that set the default class, each
 * map value, PFC and the thresholds: whether they fit "classes", "rate" or
 * each other is known only once the whole command is read, and the message
 * must quote them.
 */
struct qopt_parser {
	struct cursor		c;
	struct sluice_qopt	*o;
	const char		*default_word;
	const char		*entry_word[__TC_SLUICE_TAG_MAX][SLUICE_MAP_MAX_VALUES];
	const char		*rate_word;
	const char		*pfc_word;
	const char		*xoff_word;
	const char		*xon_word;
	const char		*wd_word;
	const char		*detect_word;
	const char		*poll_word;
	const char		*classes_word;
	const char		*portfc_n_word;
	const char		*portfc_index_word;
	const char		*portfc_label_word;
	const char		*portfc_rtt_word;
	/* The four thresholds' words, in the order of SLUICE_QOPT_PORTFC_*. */
	const char		*portfc_thresh_word[4];
};

__attribute__((format(printf, 2, 3)))
static int fail(struct cursor *c, const char *fmt, ...)
{
	va_list ap;

	if (c->err && c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The word after keyword argv[pos]; moves past both. */
static const char *take_value(struct cursor *c)
{
	const char *value;

	if (c->pos + 1 >= c->argc)
		return NULL;
	value = c->argv[c->pos + 1];
	c->pos += 2;
	return value;
}

/* A whole word of decimal digits, at most @max. */
static int parse_uint(const char *word, unsigned long max, unsigned long *val)
{
	char *end;

	if (parse_decimal(word, &end, val) || *end || *val > max)
		return -EINVAL;
	return 0;
}

static int parse_limit(struct cursor *c, const char *word, __u32 *limit)
{
	if (sluice_parse_size(word, limit) || *limit < 1 ||
	    *limit > TC_SLUICE_MAX_LIMIT)
		return fail(c, "\"limit\" must be 1..%u bytes, not \"%s\"",
			    TC_SLUICE_MAX_LIMIT, word);
	return 0;
}

static int parse_classes(struct qopt_parser *p, const char *word)
{
	unsigned long n;

	p->classes_word = word;
	if (parse_uint(word, TC_SLUICE_MAX_CLASSES, &n) || n < 1)
		return fail(&p->c, "\"classes\" must be 1..%u, not \"%s\"",
			    TC_SLUICE_MAX_CLASSES, word);
	p->o->classes = n;
	return 0;
}

static int parse_tag(struct qopt_parser *p, const char *word)
{
	if (sluice_tag_parse(word, &p->o->tag))
		return fail(&p->c,
			    "\"tag\" must be priority, pcp, dscp or mpls-tc, not \"%s\"",
			    word);
	return 0;
}

static int parse_default(struct qopt_parser *p, const char *word)
{
	unsigned long n;

	if (parse_uint(word, TC_SLUICE_MAX_CLASSES - 1, &n))
		return fail(&p->c, "\"default\" must be 0..%u, not \"%s\"",
			    TC_SLUICE_MAX_CLASSES - 1, word);
	p->o->defclass = n;
	p->default_word = word;
	return 0;
}

static int parse_qdisc_limit(struct qopt_parser *p, const char *word)
{
	return parse_limit(&p->c, word, &p->o->limit);
}

static int parse_rate(struct qopt_parser *p, const char *word)
{
	p->rate_word = word;
	switch (sluice_parse_rate(word, &p->o->rate)) {
	case 0:
		return 0;
	case -EDOM:
		return fail(&p->c,
			    "\"rate\" must be a whole number of bits/s, not \"%s\"",
			    word);
	case -ERANGE:
		return fail(&p->c,
			    "\"rate\" must be at most %llubit, not \"%s\"",
			    (unsigned long long)UINT64_MAX, word);
	default:
		return fail(&p->c,
			    "\"rate\" must be a rate such as 0, 100mbit or 2.5gbit, not \"%s\"",
			    word);
	}
}

/*
 * A set of priorities, as "pfc" and "watchdog" take them; @name is the
 * option, for the message.
 */
static int parse_prios(struct qopt_parser *p, const char *name,
		       const char *word, __u8 *prios)
{
	const char *item = word;
	int ret, len;

	ret = sluice_pfc_parse(word, prios, &item);
	if (!ret)
		return 0;
	if (ret == -EINVAL)
		return fail(&p->c,
			    "\"%s\" must be none or priorities such as 3,4 or 0-2,5, not \"%s\"",
			    name, word);
	len = strcspn(item, ",");
	if (ret == -ERANGE)
		return fail(&p->c, "\"%s\" item \"%.*s\": priority must be 0..%u",
			    name, len, item, SLUICE_PFC_PRIOS - 1);
	if (ret == -EDOM)
		return fail(&p->c, "\"%s\" item \"%.*s\": range is reversed",
			    name, len, item);
	return fail(&p->c, "\"%s\" item \"%.*s\": priority already given",
		    name, len, item);
}

static int parse_pfc(struct qopt_parser *p, const char *word)
{
	p->pfc_word = word;
	return parse_prios(p, "pfc", word, &p->o->pfc);
}

static int parse_pause_rx(struct qopt_parser *p, const char *word)
{
	if (!strcmp(word, "on"))
		p->o->pause_rx = 1;
	else if (!strcmp(word, "off"))
		p->o->pause_rx = 0;
	else
		return fail(&p->c, "\"pause-rx\" must be on or off, not \"%s\"",
			    word);
	return 0;
}

/* A threshold of the ingress account: like a limit, but 0 is allowed. */
static int parse_threshold(struct qopt_parser *p, const char *name,
			   const char *word, __u32 *bytes)
{
	if (sluice_parse_size(word, bytes) || *bytes > TC_SLUICE_MAX_LIMIT)
		return fail(&p->c, "\"%s\" must be 0..%u bytes, not \"%s\"",
			    name, TC_SLUICE_MAX_LIMIT, word);
	return 0;
}

static int parse_cable(struct qopt_parser *p, const char *word)
{
	unsigned long n;

	if (parse_uint(word, SLUICE_CABLE_MAX_M, &n))
		return fail(&p->c, "\"cable\" must be 0..%u metres, not \"%s\"",
			    SLUICE_CABLE_MAX_M, word);
	p->o->cable_m = n;
	return 0;
}

static int parse_mtu(struct qopt_parser *p, const char *word)
{
	if (sluice_parse_size(word, &p->o->mtu) || !p->o->mtu ||
	    p->o->mtu > TC_SLUICE_MAX_LIMIT)
		return fail(&p->c, "\"mtu\" must be 1..%u bytes, not \"%s\"",
			    TC_SLUICE_MAX_LIMIT, word);
	return 0;
}

/* The options of "xoff auto", which only follow it. */
static const struct auto_opt {
	const char	*name;
	__u64		bit;
	int		(*parse)(struct qopt_parser *p, const char *word);
} auto_opts[] = {
	{ "cable",	SLUICE_QOPT_CABLE,	parse_cable },
	{ "mtu",	SLUICE_QOPT_MTU,	parse_mtu },
};

#define N_AUTO_OPTS	(sizeof(auto_opts) / sizeof(auto_opts[0]))

static const struct auto_opt *find_auto_opt(const char *word)
{
	size_t i;

	for (i = 0; i < N_AUTO_OPTS; i++)
		if (!strcmp(word, auto_opts[i].name))
			return &auto_opts[i];
	return NULL;
}

/*
 * "xoff auto", with the cursor after "auto": takes the "cable" and "mtu"
 * that follow.  XOFF_AUTO stands for XOFF until sluice_qopt_xoff_auto().
 */
static int parse_xoff_auto(struct qopt_parser *p)
{
	struct cursor *c = &p->c;
	const struct auto_opt *a;
	const char *value;
	int ret;

	p->o->present &= ~SLUICE_QOPT_XOFF;
	p->o->present |= SLUICE_QOPT_XOFF_AUTO;
	p->o->cable_m = SLUICE_CABLE_DEFAULT_M;
	while (c->pos < c->argc && (a = find_auto_opt(c->argv[c->pos]))) {
		if (p->o->present & a->bit)
			return fail(c, "duplicate option \"%s\"", a->name);
		p->o->present |= a->bit;
		value = take_value(c);
		if (!value)
			return fail(c, "missing value after \"%s\"", a->name);
		ret = a->parse(p, value);
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_xoff(struct qopt_parser *p, const char *word)
{
	if (!strcmp(word, "auto"))
		return parse_xoff_auto(p);
	p->xoff_word = word;
	if (sluice_parse_size(word, &p->o->xoff) ||
	    p->o->xoff > TC_SLUICE_MAX_LIMIT)
		return fail(&p->c,
			    "\"xoff\" must be auto or 0..%u bytes, not \"%s\"",
			    TC_SLUICE_MAX_LIMIT, word);
	return 0;
}

static int parse_xon(struct qopt_parser *p, const char *word)
{
	p->xon_word = word;
	return parse_threshold(p, "xon", word, &p->o->xon);
}

static int parse_headroom(struct qopt_parser *p, const char *word)
{
	return parse_threshold(p, "headroom", word, &p->o->headroom);
}

static int parse_pause_time(struct qopt_parser *p, const char *word)
{
	unsigned long n;

	if (parse_uint(word, 0xffff, &n) || n < 1)
		return fail(&p->c,
			    "\"pause-time\" must be 1..65535 quanta, not \"%s\"",
			    word);
	p->o->pause_time = n;
	return 0;
}

/*
 * "all" watches every priority; on a PortFC port, which has no priorities,
 * any watchdog watches all its data classes, and "all" says so.
 */
static int parse_watchdog(struct qopt_parser *p, const char *word)
{
	p->wd_word = word;
	if (!strcmp(word, "all")) {
		p->o->wd_prios = 0xff;
		return 0;
	}
	return parse_prios(p, "watchdog", word, &p->o->wd_prios);
}

static const char *const wd_actions[] = {
	[TC_SLUICE_WD_DROP]	= "drop",
	[TC_SLUICE_WD_FORWARD]	= "forward",
	[TC_SLUICE_WD_ALERT]	= "alert",
};

_Static_assert(sizeof(wd_actions) / sizeof(wd_actions[0]) ==
	       TC_SLUICE_WD_ACTION_MAX + 1, "a watchdog action has no name");

const char *sluice_wd_action_name(unsigned int action)
{
	return action <= TC_SLUICE_WD_ACTION_MAX ? wd_actions[action] : NULL;
}

static int parse_wd_action(struct qopt_parser *p, const char *word)
{
	unsigned int a;

	for (a = 0; a <= TC_SLUICE_WD_ACTION_MAX; a++)
		if (!strcmp(word, wd_actions[a])) {
			p->o->wd_action = a;
			return 0;
		}
	return fail(&p->c,
		    "\"watchdog-action\" must be drop, forward or alert, not \"%s\"",
		    word);
}

/*
 * TIME: whole milliseconds, "200" or "200ms", or seconds, "2s" or "0.5s"
 * (at most three decimals).  -EINVAL if it is none of these.
 */
static int parse_ms(const char *word, unsigned long *ms)
{
	unsigned long whole = 0, frac = 0, scale = 1000;
	const char *p = word;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		whole = whole * 10 + (*p - '0');
		if (whole > 1000UL * TC_SLUICE_WD_MAX_MS)
			return -EINVAL;
	}
	if (!*p || !strcmp(p, "ms")) {
		*ms = whole;
		return 0;
	}
	if (*p == '.') {
		if (p[1] < '0' || p[1] > '9')
			return -EINVAL;
		for (p++; *p >= '0' && *p <= '9'; p++) {
			scale /= 10;
			if (!scale)
				return -EINVAL;
			frac += (*p - '0') * scale;
		}
	}
	if (strcmp(p, "s"))
		return -EINVAL;
	*ms = whole * 1000 + frac;
	return 0;
}

static int parse_wd_time(struct qopt_parser *p, const char *name,
			 const char *word, __u32 *ms)
{
	unsigned long n;

	if (parse_ms(word, &n) || n < TC_SLUICE_WD_MIN_MS ||
	    n > TC_SLUICE_WD_MAX_MS)
		return fail(&p->c,
			    "\"%s\" must be %u..%u ms (e.g. 200, 200ms or 0.2s), not \"%s\"",
			    name, TC_SLUICE_WD_MIN_MS, TC_SLUICE_WD_MAX_MS,
			    word);
	*ms = n;
	return 0;
}

static int parse_wd_detect(struct qopt_parser *p, const char *word)
{
	p->detect_word = word;
	return parse_wd_time(p, "detection-time", word, &p->o->wd_detect_ms);
}

static int parse_wd_restore(struct qopt_parser *p, const char *word)
{
	return parse_wd_time(p, "restoration-time", word,
			     &p->o->wd_restore_ms);
}

static int parse_wd_poll(struct qopt_parser *p, const char *word)
{
	p->poll_word = word;
	return parse_wd_time(p, "watchdog-poll", word, &p->o->wd_poll_ms);
}

static int parse_portfc(struct qopt_parser *p, const char *word)
{
	if (sluice_portfc_role_parse(word, &p->o->portfc))
		return fail(&p->c, "\"portfc\" must be switch or server, not \"%s\"",
			    word);
	return 0;
}

/* A small number from @min to @max, the option @name's. */
static int parse_range_u8(struct qopt_parser *p, const char *name,
			  const char *word, unsigned int min, unsigned int max,
			  __u8 *val)
{
	unsigned long n;

	if (parse_uint(word, max, &n) || n < min)
		return fail(&p->c, "\"%s\" must be %u..%u, not \"%s\"", name,
			    min, max, word);
	*val = n;
	return 0;
}

static int parse_portfc_n(struct qopt_parser *p, const char *word)
{
	p->portfc_n_word = word;
	return parse_range_u8(p, "portfc-n", word, 2, TC_SLUICE_PORTFC_MAX_N,
			      &p->o->portfc_n);
}

static int parse_portfc_k(struct qopt_parser *p, const char *word)
{
	return parse_range_u8(p, "portfc-k", word, 0, TC_SLUICE_PORTFC_MAX_K,
			      &p->o->portfc_k);
}

static int parse_portfc_index(struct qopt_parser *p, const char *word)
{
	p->portfc_index_word = word;
	return parse_range_u8(p, "portfc-index", word, 0,
			      TC_SLUICE_PORTFC_MAX_N - 1, &p->o->portfc_index);
}

static int parse_portfc_label_base(struct qopt_parser *p, const char *word)
{
	unsigned long n;

	p->portfc_label_word = word;
	if (parse_uint(word, SLUICE_MPLS_LABEL_MAX, &n))
		return fail(&p->c,
			    "\"portfc-label-base\" must be an MPLS label, 0..%u, not \"%s\"",
			    SLUICE_MPLS_LABEL_MAX, word);
	p->o->portfc_label_base = n;
	return 0;
}

/* The names of the four thresholds, in the order of their bits. */
static const char *const portfc_thresh_names[] = {
	"portfc-xoff-a", "portfc-xon-a", "portfc-xoff-b", "portfc-xon-b",
};

static int parse_portfc_thresh(struct qopt_parser *p, unsigned int i,
			       const char *word, __u32 *bytes)
{
	p->portfc_thresh_word[i] = word;
	return parse_threshold(p, portfc_thresh_names[i], word, bytes);
}

static int parse_portfc_xoff_a(struct qopt_parser *p, const char *word)
{
	return parse_portfc_thresh(p, 0, word, &p->o->portfc_xoff_a);
}

static int parse_portfc_xon_a(struct qopt_parser *p, const char *word)
{
	return parse_portfc_thresh(p, 1, word, &p->o->portfc_xon_a);
}

static int parse_portfc_xoff_b(struct qopt_parser *p, const char *word)
{
	return parse_portfc_thresh(p, 2, word, &p->o->portfc_xoff_b);
}

static int parse_portfc_xon_b(struct qopt_parser *p, const char *word)
{
	return parse_portfc_thresh(p, 3, word, &p->o->portfc_xon_b);
}

static int parse_portfc_rtt(struct qopt_parser *p, const char *word)
{
	p->portfc_rtt_word = word;
	if (sluice_parse_ns(word, &p->o->portfc_rtt_ns) ||
	    !p->o->portfc_rtt_ns)
		return fail(&p->c,
			    "\"portfc-rtt\" must be a time from 1ns to 1s such as 200us, 1.5ms or 0.2s, not \"%s\"",
			    word);
	return 0;
}

static int parse_portfc_hq(struct qopt_parser *p, const char *word)
{
	const char *item = word;
	int len;

	switch (sluice_portfc_hq_parse(word, &p->o->portfc_hq, &item)) {
	case 0:
		return 0;
	case -ENOENT:
		len = strcspn(item, ",");
		return fail(&p->c,
			    "\"portfc-hq\" item \"%.*s\": must be ack or arp",
			    len, item);
	case -EEXIST:
		len = strcspn(item, ",");
		return fail(&p->c, "\"portfc-hq\" item \"%.*s\": already given",
			    len, item);
	default:
		return fail(&p->c,
			    "\"portfc-hq\" must be none or a list of ack and arp such as ack,arp, not \"%s\"",
			    word);
	}
}

static int parse_portfc_hq_dscp(struct qopt_parser *p, const char *word)
{
	unsigned long n;

	if (!strcmp(word, "none")) {
		p->o->portfc_hq_dscp = TC_SLUICE_PORTFC_DSCP_NONE;
		return 0;
	}
	if (parse_uint(word, TC_SLUICE_DSCP_VALUES - 1, &n))
		return fail(&p->c,
			    "\"portfc-hq-dscp\" must be none or a DSCP, 0..%u, not \"%s\"",
			    TC_SLUICE_DSCP_VALUES - 1, word);
	p->o->portfc_hq_dscp = n;
	return 0;
}

/* In-band telemetry: the probes' UDP port, and the ids records carry. */
static int parse_int_port(struct qopt_parser *p, const char *word)
{
	unsigned long n;

	if (parse_uint(word, UINT16_MAX, &n))
		return fail(&p->c,
			    "\"int-port\" must be a UDP port, 0..%u (0: off), not \"%s\"",
			    UINT16_MAX, word);
	p->o->int_port = n;
	return 0;
}

static int parse_int_id(struct qopt_parser *p, const char *name,
			const char *word, __u32 *id)
{
	unsigned long n;

	if (parse_uint(word, UINT32_MAX, &n))
		return fail(&p->c, "\"%s\" must be 0..%u, not \"%s\"",
			    name, UINT32_MAX, word);
	*id = n;
	return 0;
}

static int parse_int_node(struct qopt_parser *p, const char *word)
{
	return parse_int_id(p, "int-node", word, &p->o->int_node);
}

static int parse_int_link(struct qopt_parser *p, const char *word)
{
	return parse_int_id(p, "int-link", word, &p->o->int_link);
}

/* The options that take one value. */
static const struct scalar {
	const char	*name;
	__u64		bit;
	int		(*parse)(struct qopt_parser *p, const char *word);
} scalars[] = {
	{ "classes",	SLUICE_QOPT_CLASSES,	parse_classes },
	{ "tag",	SLUICE_QOPT_TAG,	parse_tag },
	{ "default",	SLUICE_QOPT_DEFAULT,	parse_default },
	{ "limit",	SLUICE_QOPT_LIMIT,	parse_qdisc_limit },
	{ "rate",	SLUICE_QOPT_RATE,	parse_rate },
	{ "pfc",	SLUICE_QOPT_PFC,	parse_pfc },
	{ "pause-rx",	SLUICE_QOPT_PAUSE_RX,	parse_pause_rx },
	{ "xoff",	SLUICE_QOPT_XOFF,	parse_xoff },
	{ "xon",	SLUICE_QOPT_XON,	parse_xon },
	{ "headroom",	SLUICE_QOPT_HEADROOM,	parse_headroom },
	{ "pause-time",	SLUICE_QOPT_PAUSE_TIME,	parse_pause_time },
	{ "watchdog",	SLUICE_QOPT_WD_PRIOS,	parse_watchdog },
	{ "watchdog-action", SLUICE_QOPT_WD_ACTION, parse_wd_action },
	{ "detection-time", SLUICE_QOPT_WD_DETECT, parse_wd_detect },
	{ "restoration-time", SLUICE_QOPT_WD_RESTORE, parse_wd_restore },
	{ "watchdog-poll", SLUICE_QOPT_WD_POLL,	parse_wd_poll },
	{ "portfc",	SLUICE_QOPT_PORTFC,	parse_portfc },
	{ "portfc-n",	SLUICE_QOPT_PORTFC_N,	parse_portfc_n },
	{ "portfc-k",	SLUICE_QOPT_PORTFC_K,	parse_portfc_k },
	{ "portfc-index", SLUICE_QOPT_PORTFC_INDEX, parse_portfc_index },
	{ "portfc-label-base", SLUICE_QOPT_PORTFC_LABEL_BASE,
	  parse_portfc_label_base },
	{ "portfc-xoff-a", SLUICE_QOPT_PORTFC_XOFF_A, parse_portfc_xoff_a },
	{ "portfc-xon-a", SLUICE_QOPT_PORTFC_XON_A, parse_portfc_xon_a },
	{ "portfc-xoff-b", SLUICE_QOPT_PORTFC_XOFF_B, parse_portfc_xoff_b },
	{ "portfc-xon-b", SLUICE_QOPT_PORTFC_XON_B, parse_portfc_xon_b },
	{ "portfc-rtt",	SLUICE_QOPT_PORTFC_RTT,	parse_portfc_rtt },
	{ "portfc-hq",	SLUICE_QOPT_PORTFC_HQ,	parse_portfc_hq },
	{ "portfc-hq-dscp", SLUICE_QOPT_PORTFC_HQ_DSCP, parse_portfc_hq_dscp },
	{ "int-port",	SLUICE_QOPT_INT_PORT,	parse_int_port },
	{ "int-node",	SLUICE_QOPT_INT_NODE,	parse_int_node },
	{ "int-link",	SLUICE_QOPT_INT_LINK,	parse_int_link },
};

#define N_SCALARS	(sizeof(scalars) / sizeof(scalars[0]))

static const struct scalar *find_scalar(const char *word)
{
	size_t i;

	for (i = 0; i < N_SCALARS; i++)
		if (!strcmp(word, scalars[i].name))
			return &scalars[i];
	return NULL;
}

/* The tag source whose map @word names, or -1. */
static int find_map(const char *word)
{
	unsigned int tag;

	for (tag = 0; tag <= TC_SLUICE_TAG_MAX; tag++)
		if (!strcmp(word, sluice_tag_info(tag)->map_name))
			return tag;
	return -1;
}

static int is_keyword(const char *word)
{
	return !strcmp(word, "help") || find_scalar(word) ||
	       find_map(word) >= 0 || find_auto_opt(word);
}

static int parse_entry(struct qopt_parser *p, unsigned int tag, const char *word)
{
	const struct sluice_tag_info *ti = sluice_tag_info(tag);
	struct sluice_class_map *map = &p->o->maps[tag];
	struct sluice_map_range r;
	unsigned int v;

	if (sluice_map_entry_parse(word, &r))
		return fail(&p->c, "\"%s\" entry \"%s\" is not VALUE[-VALUE]:CLASS",
			    ti->map_name, word);
	if (r.low >= ti->values || r.high >= ti->values)
		return fail(&p->c, "\"%s\" entry \"%s\": value must be 0..%u",
			    ti->map_name, word, ti->values - 1);
	if (r.low > r.high)
		return fail(&p->c, "\"%s\" entry \"%s\": range %u-%u is reversed",
			    ti->map_name, word, r.low, r.high);
	if (r.tclass >= TC_SLUICE_MAX_CLASSES)
		return fail(&p->c, "\"%s\" entry \"%s\": class must be 0..%u",
			    ti->map_name, word, TC_SLUICE_MAX_CLASSES - 1);
	for (v = r.low; v <= r.high; v++) {
		if (map->given & (1ull << v))
			return fail(&p->c,
				    "\"%s\" entry \"%s\": value %u is already mapped by \"%s\"",
				    ti->map_name, word, v, p->entry_word[tag][v]);
		map->given |= 1ull << v;
		map->tclass[v] = r.tclass;
		p->entry_word[tag][v] = word;
	}
	return 0;
}

static int parse_map(struct qopt_parser *p, unsigned int tag)
{
	struct cursor *c = &p->c;
	int first = ++c->pos;
	int ret;

	for (; c->pos < c->argc && !is_keyword(c->argv[c->pos]); c->pos++) {
		ret = parse_entry(p, tag, c->argv[c->pos]);
		if (ret)
			return ret;
	}
	if (c->pos == first)
		return fail(c, "missing entries after \"%s\"",
			    sluice_tag_info(tag)->map_name);
	return 0;
}

/*
 * "MAP-KEYWORD default" at argv[pos].  A word after it that is not a
 * keyword would be an entry, which a map being reset cannot have; it is
 * named rather than called an unknown option.
 */
static int parse_map_default(struct qopt_parser *p, unsigned int tag)
{
	struct cursor *c = &p->c;

	c->pos += 2;
	if (c->pos < c->argc && !is_keyword(c->argv[c->pos]))
		return fail(c, "\"%s default\" takes no entries, not \"%s\"",
			    sluice_tag_info(tag)->map_name, c->argv[c->pos]);
	p->o->present |= SLUICE_QOPT_DEFAULT_MAPS;
	p->o->default_maps |= SLUICE_DEFAULT_MAP(tag);
	return 0;
}

/*
 * A map keyword at argv[pos], followed by "default" or by entries.  The
 * kernel refuses a request that both resets a map and sets its entries, so
 * a map given twice gets a message that says which of the two it mixes.
 */
static int parse_map_keyword(struct qopt_parser *p, unsigned int tag)
{
	const char *name = sluice_tag_info(tag)->map_name;
	struct cursor *c = &p->c;
	bool reset, was_reset, had_entries;

	reset = c->pos + 1 < c->argc && !strcmp(c->argv[c->pos + 1], "default");
	was_reset = p->o->default_maps & SLUICE_DEFAULT_MAP(tag);
	had_entries = p->o->present & SLUICE_QOPT_MAP(tag);
	if (was_reset || had_entries) {
		if (reset != was_reset)
			return fail(c,
				    "\"%s\" cannot be both reset to \"default\" and given entries",
				    name);
		return fail(c, "duplicate option \"%s\"", name);
	}
	if (reset)
		return parse_map_default(p, tag);
	p->o->present |= SLUICE_QOPT_MAP(tag);
	return parse_map(p, tag);
}

static int parse_keyword(struct qopt_parser *p)
{
	const char *word = p->c.argv[p->c.pos];
	const struct scalar *s;
	const char *value;
	int tag;

	if (!strcmp(word, "help"))
		return SLUICE_PARSE_HELP;
	if (find_auto_opt(word))
		return fail(&p->c, "\"%s\" is only valid right after \"xoff auto\"",
			    word);
	s = find_scalar(word);
	tag = find_map(word);
	if (!s && tag < 0)
		return fail(&p->c, "unknown option \"%s\"", word);

	if (!s)
		return parse_map_keyword(p, tag);
	if (p->o->present & s->bit ||
	    (s->bit == SLUICE_QOPT_XOFF &&
	     p->o->present & SLUICE_QOPT_XOFF_AUTO))
		return fail(&p->c, "duplicate option \"%s\"", word);
	p->o->present |= s->bit;

	value = take_value(&p->c);
	if (!value)
		return fail(&p->c, "missing value after \"%s\"", word);
	return s->parse(p, value);
}

/* The checks that need "classes", which may come after what it bounds. */
static int check_classes(struct qopt_parser *p)
{
	const struct sluice_qopt *o = p->o;
	unsigned int tag, v, top;

	if (!(o->present & SLUICE_QOPT_CLASSES))
		return 0;
	top = o->classes - 1;
	if (o->present & SLUICE_QOPT_WD_PRIOS && top < SLUICE_PFC_PRIOS - 1 &&
	    o->wd_prios >> (top + 1) &&
	    !(o->present & SLUICE_QOPT_PORTFC && o->portfc))
		return fail(&p->c,
			    "\"watchdog %s\": priorities must be 0..%u with classes %u",
			    p->wd_word, top, o->classes);
	if (o->present & SLUICE_QOPT_DEFAULT && o->defclass > top)
		return fail(&p->c,
			    "\"default\" must be 0..%u with classes %u, not \"%s\"",
			    top, o->classes, p->default_word);
	for (tag = 0; tag <= TC_SLUICE_TAG_MAX; tag++) {
		for (v = 0; v < SLUICE_MAP_MAX_VALUES; v++) {
			if (!(o->maps[tag].given & (1ull << v)) ||
			    o->maps[tag].tclass[v] <= top)
				continue;
			return fail(&p->c,
				    "\"%s\" entry \"%s\": class must be 0..%u with classes %u",
				    sluice_tag_info(tag)->map_name,
				    p->entry_word[tag][v], top, o->classes);
		}
	}
	return 0;
}

/*
 * The checks between PFC options.  The kernel checks them against the
 * qdisc's current settings too; here only what one command gives is known.
 */
static int check_pfc(struct qopt_parser *p)
{
	const struct sluice_qopt *o = p->o;

	if (o->present & SLUICE_QOPT_XON && o->present & SLUICE_QOPT_XOFF &&
	    o->xon > o->xoff)
		return fail(&p->c,
			    "\"xon\" must be at most \"xoff\" (%s), not \"%s\"",
			    p->xoff_word, p->xon_word);
	if (o->present & SLUICE_QOPT_PFC && o->pfc &&
	    o->present & SLUICE_QOPT_RATE && !o->rate)
		return fail(&p->c,
			    "\"pfc %s\" needs a \"rate\" above 0: pause quanta are bit times",
			    p->pfc_word);
	if (o->present & SLUICE_QOPT_WD_PRIOS && o->wd_prios &&
	    o->present & SLUICE_QOPT_RATE && !o->rate)
		return fail(&p->c,
			    "\"watchdog %s\" needs a \"rate\" above 0: pauses are honoured only with one",
			    p->wd_word);
	if (o->present & SLUICE_QOPT_WD_PRIOS && o->present & SLUICE_QOPT_PFC &&
	    o->wd_prios & ~o->pfc && !(o->present & SLUICE_QOPT_PORTFC && o->portfc))
		return fail(&p->c,
			    "\"watchdog %s\" watches lossless priorities only, not all in \"pfc %s\"",
			    p->wd_word, p->pfc_word);
	if (o->present & SLUICE_QOPT_WD_POLL &&
	    o->present & SLUICE_QOPT_WD_DETECT &&
	    o->wd_poll_ms > o->wd_detect_ms)
		return fail(&p->c,
			    "\"watchdog-poll\" must be at most \"detection-time\" (%s), not \"%s\"",
			    p->detect_word, p->poll_word);
	return 0;
}

/*
 * What "xoff auto" needs from the same command: the parser cannot read the
 * kernel's current rate and limit, and the headroom is its to set.
 */
static int check_xoff_auto(struct qopt_parser *p)
{
	const struct sluice_qopt *o = p->o;

	if (!(o->present & SLUICE_QOPT_XOFF_AUTO))
		return 0;
	if (!(o->present & SLUICE_QOPT_RATE))
		return fail(&p->c,
			    "\"xoff auto\" needs \"rate\" in the same command: the headroom follows the link's rate");
	if (!o->rate)
		return fail(&p->c,
			    "\"xoff auto\" needs a \"rate\" above 0, not \"%s\"",
			    p->rate_word);
	if (!(o->present & SLUICE_QOPT_LIMIT))
		return fail(&p->c,
			    "\"xoff auto\" needs \"limit\" in the same command: xoff is the limit less the headroom");
	if (o->present & SLUICE_QOPT_HEADROOM)
		return fail(&p->c,
			    "\"headroom\" and \"xoff auto\" conflict: \"xoff auto\" computes the headroom");
	return 0;
}

/*
 * The classes a PortFC role gets from n and k: "classes", if given, must
 * be that count, and a server's count must fit the qdisc.
 */
static int check_portfc_classes(struct qopt_parser *p)
{
	const struct sluice_qopt *o = p->o;
	const char *role = sluice_portfc_role_name(o->portfc);
	unsigned int k, need;
	char with_k[32] = "";

	if (!(o->present & SLUICE_QOPT_PORTFC_N))
		return 0;
	/*
	 * A server's classes depend on k, which a "tc qdisc change" that
	 * does not repeat it leaves as the qdisc has it: unknown here, so the
	 * kernel checks (it defaults to 1 only at creation).
	 */
	if (o->portfc == TC_SLUICE_PORTFC_SERVER &&
	    !(o->present & SLUICE_QOPT_PORTFC_K))
		return 0;
	k = o->present & SLUICE_QOPT_PORTFC_K ? o->portfc_k :
						  SLUICE_PORTFC_K_DEFAULT;
	/* A switch's classes do not depend on k. */
	if (o->portfc == TC_SLUICE_PORTFC_SERVER)
		snprintf(with_k, sizeof(with_k), " and portfc-k %u", k);
	need = sluice_portfc_classes(o->portfc, o->portfc_n, k);
	if (need > TC_SLUICE_MAX_CLASSES)
		return fail(&p->c,
			    "\"portfc %s\" with portfc-n %u%s needs %u classes, more than %u",
			    role, o->portfc_n, with_k, need,
			    TC_SLUICE_MAX_CLASSES);
	if (o->present & SLUICE_QOPT_CLASSES && o->classes != need)
		return fail(&p->c,
			    "\"classes\" must be %u for \"portfc %s\" with portfc-n %u%s, not \"%s\"",
			    need, role, o->portfc_n, with_k, p->classes_word);
	return 0;
}

/*
 * "portfc-rtt": the four thresholds from the command's rate.  Explicit
 * thresholds beside it would be overwritten or half-kept; both are
 * surprises, so they are refused.
 */
static int resolve_portfc_rtt(struct qopt_parser *p)
{
	struct sluice_qopt *o = p->o;
	struct sluice_portfc_thresholds t;
	unsigned int i;

	if (!(o->present & SLUICE_QOPT_PORTFC_RTT))
		return 0;
	for (i = 0; i < 4; i++)
		if (o->present & SLUICE_QOPT_PORTFC_XOFF_A << i)
			return fail(&p->c,
				    "\"%s\" and \"portfc-rtt\" conflict: \"portfc-rtt\" sets xoff and xon of both queue types",
				    portfc_thresh_names[i]);
	if (!(o->present & SLUICE_QOPT_RATE))
		return fail(&p->c,
			    "\"portfc-rtt\" needs \"rate\" in the same command: the thresholds are bandwidth-delay products of the link's rate");
	if (!o->rate)
		return fail(&p->c,
			    "\"portfc-rtt\" needs a \"rate\" above 0, not \"%s\"",
			    p->rate_word);
	if (sluice_portfc_thresholds(o->rate, o->portfc_rtt_ns, &t))
		return fail(&p->c,
			    "\"portfc-rtt %s\" at \"rate %s\": xoff, %u times the bandwidth-delay product of %llu bytes, would be above %u bytes",
			    p->portfc_rtt_word, p->rate_word,
			    SLUICE_PORTFC_XOFF_BDPS, (unsigned long long)t.bdp,
			    TC_SLUICE_MAX_LIMIT);
	o->portfc_xoff_a = o->portfc_xoff_b = t.xoff;
	o->portfc_xon_a = o->portfc_xon_b = t.xon;
	o->present |= SLUICE_QOPT_PORTFC_THRESHOLDS;
	return 0;
}

/*
 * The checks between PortFC options, and against the link and PFC.  As
 * in check_pfc(), only what one command gives is known here.
 */
static int check_portfc(struct qopt_parser *p)
{
	const struct sluice_qopt *o = p->o;
	const char *role = sluice_portfc_role_name(o->portfc);
	const __u32 *thresh[] = {
		&o->portfc_xoff_a, &o->portfc_xon_a,
		&o->portfc_xoff_b, &o->portfc_xon_b,
	};
	unsigned int i;
	int ret;

	if (o->present & SLUICE_QOPT_PORTFC) {
		if (o->present & SLUICE_QOPT_RATE && !o->rate)
			return fail(&p->c,
				    "\"portfc %s\" needs a \"rate\" above 0: pause quanta are bit times",
				    role);
		if (o->present & SLUICE_QOPT_PFC && o->pfc)
			return fail(&p->c,
				    "\"pfc %s\" and \"portfc %s\" conflict: PortFC is the port's flow control",
				    p->pfc_word, role);
		ret = check_portfc_classes(p);
		if (ret)
			return ret;
	}
	if (o->present & SLUICE_QOPT_PORTFC_INDEX &&
	    o->present & SLUICE_QOPT_PORTFC_N && o->portfc_index >= o->portfc_n)
		return fail(&p->c,
			    "\"portfc-index\" must be below \"portfc-n\" (%s), not \"%s\"",
			    p->portfc_n_word, p->portfc_index_word);
	if (o->present & SLUICE_QOPT_PORTFC_LABEL_BASE &&
	    o->present & SLUICE_QOPT_PORTFC_N &&
	    o->portfc_label_base > SLUICE_MPLS_LABEL_MAX - (o->portfc_n - 1))
		return fail(&p->c,
			    "\"portfc-label-base %s\" with portfc-n %s: port %u's label would be above %u",
			    p->portfc_label_word, p->portfc_n_word,
			    o->portfc_n - 1, SLUICE_MPLS_LABEL_MAX);
	/* xon A and B, each against its xoff: bits and words go in pairs. */
	for (i = 0; i < 4; i += 2)
		if ((o->present & SLUICE_QOPT_PORTFC_XOFF_A << i) &&
		    (o->present & SLUICE_QOPT_PORTFC_XOFF_A << (i + 1)) &&
		    *thresh[i + 1] > *thresh[i])
			return fail(&p->c,
				    "\"%s\" must be at most \"%s\" (%s), not \"%s\"",
				    portfc_thresh_names[i + 1],
				    portfc_thresh_names[i],
				    p->portfc_thresh_word[i],
				    p->portfc_thresh_word[i + 1]);
	return resolve_portfc_rtt(p);
}

/**
 * sluice_qopt_parse() - parse the options of a sluice qdisc
 * @o:		the options given; zeroed first
 * @argc:	number of words
 * @argv:	the words after "sluice"
 * @err:	where the message of a rejected command goes (may be NULL)
 * @errlen:	size of @err, SLUICE_ERRLEN is always enough
 *
 * Return: 0; SLUICE_PARSE_HELP if a word is "help" (the caller prints the
 * usage); -EINVAL with one message in @err otherwise.  @o is meaningful only
 * on success.  O(@argc).  With "xoff auto" (SLUICE_QOPT_XOFF_AUTO), the
 * caller then calls sluice_qopt_xoff_auto(); "portfc-rtt" is resolved
 * already (the four PortFC thresholds are set).
 */
int sluice_qopt_parse(struct sluice_qopt *o, int argc, char *const argv[],
		      char *err, size_t errlen)
{
	struct qopt_parser p = {
		.c = { .argc = argc, .argv = argv, .err = err, .errlen = errlen },
		.o = o,
	};
	int ret;

	memset(o, 0, sizeof(*o));
	if (err && errlen)
		err[0] = '\0';
	while (p.c.pos < argc) {
		ret = parse_keyword(&p);
		if (ret)
			return ret;
	}
	return check_classes(&p) ?: check_pfc(&p) ?: check_xoff_auto(&p) ?:
	       check_portfc(&p);
}

/**
 * sluice_qopt_xoff_auto() - compute the thresholds of "xoff auto"
 * @o:		options from sluice_qopt_parse()
 * @dev:	the device, for the message if its MTU is needed; may be NULL
 * @dev_mtu:	the device's MTU, 0 if unknown; used without "mtu"
 * @err:	where the message of a rejected command goes (may be NULL)
 * @errlen:	size of @err, SLUICE_ERRLEN is always enough
 *
 * Without SLUICE_QOPT_XOFF_AUTO, does nothing.  Otherwise computes, with
 * sluice_xoff_auto(), the headroom of @o->rate over @o->cable_m metres for
 * frames of @o->mtu bytes (default @dev_mtu + SLUICE_ETH_HLEN) and a
 * neighbour reacting in SLUICE_PFC_RESPONSE_QUANTA, and sets headroom,
 * xoff = limit - headroom and, unless the command gave it, xon = xoff - the
 * frame size (at least 0), with their present bits.  @o->mtu is set to the
 * frame size used.
 *
 * Return: 0, or -EINVAL with one message in @err (@o is then unchanged).
 */
int sluice_qopt_xoff_auto(struct sluice_qopt *o, const char *dev,
			  __u32 dev_mtu, char *err, size_t errlen)
{
	struct cursor c = { .err = err, .errlen = errlen };
	struct sluice_headroom h = {
		.rate = o->rate,
		.cable_m = o->cable_m,
		.response = SLUICE_PFC_RESPONSE_QUANTA,
	};
	__u32 xoff, xon;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (!(o->present & SLUICE_QOPT_XOFF_AUTO))
		return 0;
	if (o->present & SLUICE_QOPT_MTU)
		h.mtu = o->mtu;
	else if (!dev_mtu && dev)
		return fail(&c,
			    "\"xoff auto\" needs \"mtu\": cannot read the MTU of \"%s\"",
			    dev);
	else if (!dev_mtu)
		return fail(&c,
			    "\"xoff auto\" needs \"mtu\": no device to read the MTU of");
	else if (dev_mtu > TC_SLUICE_MAX_LIMIT - SLUICE_ETH_HLEN)
		return fail(&c,
			    "\"xoff auto\" needs \"mtu\": the MTU of \"%s\", %u, is above %u",
			    dev ? dev : "the device", dev_mtu,
			    TC_SLUICE_MAX_LIMIT - SLUICE_ETH_HLEN);
	else
		h.mtu = dev_mtu + SLUICE_ETH_HLEN;

	ret = sluice_xoff_auto(&h, o->limit, &xoff, &xon);
	if (ret == -ERANGE)
		return fail(&c,
			    "\"limit\" %u bytes is too small for \"xoff auto\": the headroom does not fit 64 bits",
			    o->limit);
	if (ret)
		return fail(&c,
			    "\"limit\" %u bytes is too small for \"xoff auto\": the headroom alone is %llu bytes",
			    o->limit, (unsigned long long)h.bytes);
	if (o->present & SLUICE_QOPT_XON && o->xon > xoff)
		return fail(&c,
			    "\"xon\" %u bytes must be at most the xoff of \"xoff auto\", %u bytes",
			    o->xon, xoff);
	o->headroom = h.bytes;
	o->xoff = xoff;
	if (!(o->present & SLUICE_QOPT_XON))
		o->xon = xon;
	o->mtu = h.mtu;
	o->present |= SLUICE_QOPT_XOFF | SLUICE_QOPT_XON | SLUICE_QOPT_HEADROOM;
	return 0;
}

static int parse_class_limit(struct cursor *c, struct sluice_copt *o,
			     const char *word)
{
	return parse_limit(c, word, &o->limit);
}

/* A threshold of the class's backlog; "off" is 0, as the kernel reads 0. */
static int parse_class_ecn(struct cursor *c, struct sluice_copt *o,
			   const char *word)
{
	if (!strcmp(word, "off")) {
		o->ecn = 0;
		return 0;
	}
	if (sluice_parse_size(word, &o->ecn) || o->ecn > TC_SLUICE_MAX_LIMIT)
		return fail(c, "\"ecn\" must be off (0) or 1..%u bytes, not \"%s\"",
			    TC_SLUICE_MAX_LIMIT, word);
	return 0;
}

/* A DWRR quantum; "strict" is 0, which leaves the class strict. */
static int parse_class_quantum(struct cursor *c, struct sluice_copt *o,
			       const char *word)
{
	if (!strcmp(word, "strict")) {
		o->quantum = 0;
		return 0;
	}
	if (sluice_parse_size(word, &o->quantum) ||
	    (o->quantum && (o->quantum < TC_SLUICE_MIN_QUANTUM ||
			    o->quantum > TC_SLUICE_MAX_LIMIT)))
		return fail(c,
			    "\"quantum\" must be strict (0) or %u..%u bytes, not \"%s\"",
			    TC_SLUICE_MIN_QUANTUM, TC_SLUICE_MAX_LIMIT, word);
	return 0;
}

/* The options of a class, each of which takes one value. */
static const struct class_scalar {
	const char	*name;
	unsigned int	bit;
	int		(*parse)(struct cursor *c, struct sluice_copt *o,
				 const char *word);
} class_scalars[] = {
	{ "limit",	SLUICE_COPT_LIMIT,	parse_class_limit },
	{ "ecn",	SLUICE_COPT_ECN,	parse_class_ecn },
	{ "quantum",	SLUICE_COPT_QUANTUM,	parse_class_quantum },
};

#define N_CLASS_SCALARS	(sizeof(class_scalars) / sizeof(class_scalars[0]))

static const struct class_scalar *find_class_scalar(const char *word)
{
	size_t i;

	for (i = 0; i < N_CLASS_SCALARS; i++)
		if (!strcmp(word, class_scalars[i].name))
			return &class_scalars[i];
	return NULL;
}

/**
 * sluice_copt_parse() - parse the options of a sluice class
 * @o:		the options given; zeroed first
 * @argc:	number of words
 * @argv:	the words after "sluice"
 * @err:	where the message of a rejected command goes (may be NULL)
 * @errlen:	size of @err, SLUICE_ERRLEN is always enough
 *
 * Return: as sluice_qopt_parse().
 */
int sluice_copt_parse(struct sluice_copt *o, int argc, char *const argv[],
		      char *err, size_t errlen)
{
	struct cursor c = {
		.argc = argc, .argv = argv, .err = err, .errlen = errlen,
	};
	const struct class_scalar *s;
	const char *word, *value;
	int ret;

	memset(o, 0, sizeof(*o));
	if (err && errlen)
		err[0] = '\0';
	while (c.pos < argc) {
		word = argv[c.pos];
		if (!strcmp(word, "help"))
			return SLUICE_PARSE_HELP;
		s = find_class_scalar(word);
		if (!s)
			return fail(&c, "unknown option \"%s\"", word);
		if (o->present & s->bit)
			return fail(&c, "duplicate option \"%s\"", word);
		o->present |= s->bit;
		value = take_value(&c);
		if (!value)
			return fail(&c, "missing value after \"%s\"", word);
		ret = s->parse(&c, o, value);
		if (ret)
			return ret;
	}
	return 0;
}
