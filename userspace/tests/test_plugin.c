// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * q_sluice.c as tc runs it, against the fakes of tests/fake_tc.c.
 *
 * Requests that parse_qopt and parse_copt build are walked by a decoder of
 * this file's own that accepts exactly what the kernel's strict parsing of
 * the uapi header would, and no more.  Dumps for print_qopt, print_copt and
 * print_xstats are built here byte by byte.
 */
#include <json.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sluice.h>
#include <sluice/qopt.h>
#include "../tc/tc_abi.h"
#include "fake_tc.h"
#include "ktap.h"
#include "words.h"

extern struct qdisc_util sluice_qdisc_util;

/* The four maps in attribute order: pcp, dscp, mpls-tc, prio. */
#define MAPS		4
#define MAP_INDEX(attr)	((attr) - TCA_SLUICE_PCP_MAP)

static const unsigned int map_values[MAPS] = {
	TC_SLUICE_PCP_VALUES, TC_SLUICE_DSCP_VALUES,
	TC_SLUICE_MPLS_TC_VALUES, TC_SLUICE_PRIO_VALUES,
};

/* Bits of TCA_SLUICE_DEFAULT_MAPS, BIT(enum tc_sluice_tag), spelt out. */
#define RESET_PRIO	0x1
#define RESET_PCP	0x2
#define RESET_DSCP	0x4
#define RESET_MPLS	0x8

/* The map attribute of each bit of TCA_SLUICE_DEFAULT_MAPS. */
static const unsigned int reset_attr[] = {
	TCA_SLUICE_PRIO_MAP, TCA_SLUICE_PCP_MAP, TCA_SLUICE_DSCP_MAP,
	TCA_SLUICE_MPLS_TC_MAP,
};

/* A request as tc_qdisc_modify() and tc_class_modify() prepare it. */
struct request {
	struct nlmsghdr	n;
	struct tcmsg	t;
	char		buf[65536];
};

static void request_init(struct request *req)
{
	memset(req, 0, sizeof(*req));
	req->n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
}

/* What a request carried inside TCA_OPTIONS. */
struct decoded {
	__u64		attrs;		/* bit per TCA_SLUICE_* present */
	__u8		classes, tag, defclass;
	__u32		limit;
	__u8		default_maps;
	__u64		rate;
	__u8		pfc, pause_rx;
	__u32		xoff, xon, headroom;
	__u16		pause_time;
	__u8		wd_prios, wd_action;
	__u32		wd_detect, wd_restore, wd_poll;
	__u8		portfc, portfc_n, portfc_k, portfc_index;
	__u8		portfc_hq, portfc_hq_dscp;
	__u32		portfc_label_base;
	__u32		portfc_thresh[4];	/* XOFF_A, XON_A, XOFF_B, XON_B */
	__u16		int_port;
	__u32		int_node, int_link;
	int		map[MAPS][64];	/* class of each value, -1 if not sent */
	unsigned int	entries[MAPS];
	char		err[256];
};

__attribute__((format(printf, 2, 3)))
static int bad(struct decoded *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->err, sizeof(d->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* Attributes one after the other, each within @len and 4-aligned. */
static const struct rtattr *next_attr(struct decoded *d, const char *where,
				      const char *p, int *len)
{
	const struct rtattr *rta = (const struct rtattr *)p;

	if (*len < (int)sizeof(*rta) || rta->rta_len < sizeof(*rta) ||
	    rta->rta_len > *len) {
		bad(d, "%s: attribute overruns its container", where);
		return NULL;
	}
	*len -= RTA_ALIGN(rta->rta_len);
	if (*len < 0) {
		bad(d, "%s: padding overruns its container", where);
		return NULL;
	}
	return rta;
}

static int decode_map(struct decoded *d, const struct rtattr *nest)
{
	unsigned int i = MAP_INDEX(nest->rta_type & NLA_TYPE_MASK);
	const char *p = RTA_DATA(nest);
	int len = RTA_PAYLOAD(nest);
	struct tc_sluice_map_entry e;
	const struct rtattr *rta;

	while (len > 0) {
		rta = next_attr(d, "map", p, &len);
		if (!rta)
			return -1;
		if (rta->rta_type != TCA_SLUICE_MAP_ENTRY)
			return bad(d, "map %u: attribute type %#x", i,
				   rta->rta_type);
		if (RTA_PAYLOAD(rta) != sizeof(e))
			return bad(d, "map %u: entry of %d bytes", i,
				   (int)RTA_PAYLOAD(rta));
		memcpy(&e, RTA_DATA(rta), sizeof(e));
		if (e.reserved)
			return bad(d, "map %u: reserved is %u", i, e.reserved);
		if (e.value >= map_values[i] || d->map[i][e.value] >= 0)
			return bad(d, "map %u: value %u out of range or repeated",
				   i, e.value);
		if (e.tclass >= TC_SLUICE_MAX_CLASSES)
			return bad(d, "map %u: class %u", i, e.tclass);
		d->map[i][e.value] = e.tclass;
		d->entries[i]++;
		p += RTA_ALIGN(rta->rta_len);
	}
	return 0;
}

/* The payload size of each scalar, from the uapi header's comments. */
static int scalar_size(unsigned int type)
{
	switch (type) {
	case TCA_SLUICE_LIMIT:
	case TCA_SLUICE_XOFF:
	case TCA_SLUICE_XON:
	case TCA_SLUICE_HEADROOM:
	case TCA_SLUICE_WD_DETECT:
	case TCA_SLUICE_WD_RESTORE:
	case TCA_SLUICE_WD_POLL:
	case TCA_SLUICE_PORTFC_LABEL_BASE:
	case TCA_SLUICE_PORTFC_XOFF_A:
	case TCA_SLUICE_PORTFC_XON_A:
	case TCA_SLUICE_PORTFC_XOFF_B:
	case TCA_SLUICE_PORTFC_XON_B:
	case TCA_SLUICE_INT_NODE:
	case TCA_SLUICE_INT_LINK:
		return 4;
	case TCA_SLUICE_RATE:
		return 8;
	case TCA_SLUICE_PAUSE_TIME:
	case TCA_SLUICE_INT_PORT:
		return 2;
	default:	/* CLASSES, TAG, DEFAULT, DEFAULT_MAPS, PFC, PAUSE_RX, WD_*,
			 * PORTFC, PORTFC_{N,K,INDEX,HQ,HQ_DSCP} */
		return 1;
	}
}

static int decode_scalar(struct decoded *d, const struct rtattr *rta)
{
	int want = scalar_size(rta->rta_type);
	const void *p = RTA_DATA(rta);

	if ((int)RTA_PAYLOAD(rta) != want)
		return bad(d, "attribute %u: %d bytes, not %d", rta->rta_type,
			   (int)RTA_PAYLOAD(rta), want);
	switch (rta->rta_type) {
	case TCA_SLUICE_CLASSES:
		memcpy(&d->classes, p, 1);
		break;
	case TCA_SLUICE_TAG:
		memcpy(&d->tag, p, 1);
		break;
	case TCA_SLUICE_DEFAULT:
		memcpy(&d->defclass, p, 1);
		break;
	case TCA_SLUICE_LIMIT:
		memcpy(&d->limit, p, 4);
		break;
	case TCA_SLUICE_DEFAULT_MAPS:
		memcpy(&d->default_maps, p, 1);
		break;
	case TCA_SLUICE_RATE:
		memcpy(&d->rate, p, 8);
		break;
	case TCA_SLUICE_PFC:
		memcpy(&d->pfc, p, 1);
		break;
	case TCA_SLUICE_PAUSE_RX:
		memcpy(&d->pause_rx, p, 1);
		break;
	case TCA_SLUICE_XOFF:
		memcpy(&d->xoff, p, 4);
		break;
	case TCA_SLUICE_XON:
		memcpy(&d->xon, p, 4);
		break;
	case TCA_SLUICE_HEADROOM:
		memcpy(&d->headroom, p, 4);
		break;
	case TCA_SLUICE_PAUSE_TIME:
		memcpy(&d->pause_time, p, 2);
		break;
	case TCA_SLUICE_WD_PRIOS:
		memcpy(&d->wd_prios, p, 1);
		break;
	case TCA_SLUICE_WD_ACTION:
		memcpy(&d->wd_action, p, 1);
		break;
	case TCA_SLUICE_WD_DETECT:
		memcpy(&d->wd_detect, p, 4);
		break;
	case TCA_SLUICE_WD_RESTORE:
		memcpy(&d->wd_restore, p, 4);
		break;
	case TCA_SLUICE_WD_POLL:
		memcpy(&d->wd_poll, p, 4);
		break;
	case TCA_SLUICE_PORTFC:
		memcpy(&d->portfc, p, 1);
		break;
	case TCA_SLUICE_PORTFC_N:
		memcpy(&d->portfc_n, p, 1);
		break;
	case TCA_SLUICE_PORTFC_K:
		memcpy(&d->portfc_k, p, 1);
		break;
	case TCA_SLUICE_PORTFC_INDEX:
		memcpy(&d->portfc_index, p, 1);
		break;
	case TCA_SLUICE_PORTFC_LABEL_BASE:
		memcpy(&d->portfc_label_base, p, 4);
		break;
	case TCA_SLUICE_PORTFC_XOFF_A:
	case TCA_SLUICE_PORTFC_XON_A:
	case TCA_SLUICE_PORTFC_XOFF_B:
	case TCA_SLUICE_PORTFC_XON_B:
		memcpy(&d->portfc_thresh[rta->rta_type -
					 TCA_SLUICE_PORTFC_XOFF_A], p, 4);
		break;
	case TCA_SLUICE_PORTFC_HQ:
		memcpy(&d->portfc_hq, p, 1);
		break;
	case TCA_SLUICE_PORTFC_HQ_DSCP:
		memcpy(&d->portfc_hq_dscp, p, 1);
		break;
	case TCA_SLUICE_INT_PORT:
		memcpy(&d->int_port, p, 2);
		break;
	case TCA_SLUICE_INT_NODE:
		memcpy(&d->int_node, p, 4);
		break;
	case TCA_SLUICE_INT_LINK:
		memcpy(&d->int_link, p, 4);
		break;
	}
	return 0;
}

/* A reset names known maps only, none of them also given entries. */
static int check_default_maps(struct decoded *d)
{
	unsigned int bit;

	if (d->default_maps >> ARRAY_SIZE(reset_attr))
		return bad(d, "TCA_SLUICE_DEFAULT_MAPS %#x: unknown map",
			   d->default_maps);
	for (bit = 0; bit < ARRAY_SIZE(reset_attr); bit++)
		if (d->default_maps & (1u << bit) &&
		    d->attrs & (1ull << reset_attr[bit]))
			return bad(d, "map %u both reset and given entries",
				   reset_attr[bit]);
	return 0;
}

static int decode_option(struct decoded *d, const struct rtattr *rta)
{
	unsigned int type = rta->rta_type & NLA_TYPE_MASK;
	bool nested = rta->rta_type & NLA_F_NESTED;

	/* TCA_SLUICE_PAD only pads dumps: requests have no use for it. */
	if (type < TCA_SLUICE_CLASSES || type > TCA_SLUICE_MAX ||
	    type == TCA_SLUICE_PAD)
		return bad(d, "unknown attribute %#x", rta->rta_type);
	if (rta->rta_type & NLA_F_NET_BYTEORDER)
		return bad(d, "attribute %u in network byte order", type);
	if (d->attrs & (1ull << type))
		return bad(d, "attribute %u twice", type);
	d->attrs |= 1ull << type;
	if (type >= TCA_SLUICE_PCP_MAP && type <= TCA_SLUICE_PRIO_MAP) {
		if (!nested)
			return bad(d, "map %u without NLA_F_NESTED", type);
		return decode_map(d, rta);
	}
	if (nested)
		return bad(d, "scalar %u with NLA_F_NESTED", type);
	return decode_scalar(d, rta);
}

/* The request must end in exactly one TCA_OPTIONS nest of sluice options. */
static int decode(const struct request *req, struct decoded *d)
{
	int len = req->n.nlmsg_len - NLMSG_LENGTH(sizeof(struct tcmsg));
	const struct rtattr *opts, *rta;
	const char *p;

	memset(d, 0, sizeof(*d));
	memset(d->map, 0xff, sizeof(d->map));
	opts = next_attr(d, "request", req->buf, &len);
	if (!opts)
		return -1;
	if (len)
		return bad(d, "%d bytes after TCA_OPTIONS", len);
	if (opts->rta_type != (TCA_OPTIONS | NLA_F_NESTED))
		return bad(d, "TCA_OPTIONS type is %#x", opts->rta_type);
	p = RTA_DATA(opts);
	len = RTA_PAYLOAD(opts);
	while (len > 0) {
		rta = next_attr(d, "TCA_OPTIONS", p, &len);
		if (!rta || decode_option(d, rta))
			return -1;
		p += RTA_ALIGN(rta->rta_len);
	}
	return check_default_maps(d);
}

/* What a class request carried inside TCA_OPTIONS. */
struct class_decoded {
	unsigned int	attrs;		/* bit per TCA_SLUICE_CLASS_* present */
	__u32		limit, ecn, quantum;
};

/*
 * A class request: exactly one TCA_OPTIONS nest of TCA_SLUICE_CLASS_*
 * attributes, each a u32 as the uapi header says, none twice, none
 * nested, none in network byte order.  @d gets the message.
 */
static int decode_class(const struct request *req, struct decoded *d,
			struct class_decoded *cd)
{
	int len = req->n.nlmsg_len - NLMSG_LENGTH(sizeof(struct tcmsg));
	const struct rtattr *opts, *rta;
	const char *p;
	__u32 *val;

	memset(d, 0, sizeof(*d));
	memset(cd, 0, sizeof(*cd));
	opts = next_attr(d, "request", req->buf, &len);
	if (!opts)
		return -1;
	if (len || opts->rta_type != (TCA_OPTIONS | NLA_F_NESTED))
		return bad(d, "not one TCA_OPTIONS nest");
	p = RTA_DATA(opts);
	len = RTA_PAYLOAD(opts);
	while (len > 0) {
		rta = next_attr(d, "TCA_OPTIONS", p, &len);
		if (!rta)
			return -1;
		switch (rta->rta_type) {
		case TCA_SLUICE_CLASS_LIMIT:
			val = &cd->limit;
			break;
		case TCA_SLUICE_CLASS_ECN:
			val = &cd->ecn;
			break;
		case TCA_SLUICE_CLASS_QUANTUM:
			val = &cd->quantum;
			break;
		default:	/* unknown, nested or network byte order */
			return bad(d, "class attribute type %#x", rta->rta_type);
		}
		if (cd->attrs & (1u << rta->rta_type))
			return bad(d, "class attribute %u twice", rta->rta_type);
		cd->attrs |= 1u << rta->rta_type;
		if (RTA_PAYLOAD(rta) != sizeof(*val))
			return bad(d, "class attribute %u: %d bytes, not 4",
				   rta->rta_type, (int)RTA_PAYLOAD(rta));
		memcpy(val, RTA_DATA(rta), sizeof(*val));
		p += RTA_ALIGN(rta->rta_len);
	}
	return 0;
}

/* Captures what the code under test writes to stderr. */
struct capture {
	FILE	*file;
	int	saved;
	char	text[4096];
};

static void capture_start(struct capture *c)
{
	fflush(stderr);
	c->file = tmpfile();
	c->saved = dup(STDERR_FILENO);
	dup2(fileno(c->file), STDERR_FILENO);
}

static const char *capture_end(struct capture *c)
{
	size_t n;

	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	rewind(c->file);
	n = fread(c->text, 1, sizeof(c->text) - 1, c->file);
	c->text[n] = '\0';
	fclose(c->file);
	return c->text;
}

static int run_parse_dev(bool class, const char *line, const char *dev,
			 struct request *req, struct capture *err)
{
	struct qdisc_util *qu = &sluice_qdisc_util;
	struct words w;
	int ret;

	words_split(&w, line);
	request_init(req);
	capture_start(err);
	if (class)
		ret = qu->parse_copt(qu, w.argc, w.argv, &req->n, dev);
	else
		ret = qu->parse_qopt(qu, w.argc, w.argv, &req->n, dev);
	capture_end(err);
	return ret;
}

static int run_parse(bool class, const char *line, struct request *req,
		     struct capture *err)
{
	return run_parse_dev(class, line, "lo", req, err);
}

/* Parses @line as qdisc options and decodes the request; 0 if all went well. */
static int parse_decode(const char *line, struct decoded *d)
{
	static struct request req;
	struct capture err;

	if (!KTAP_EXPECT_INT(run_parse(false, line, &req, &err), 0) ||
	    !KTAP_EXPECT_STR(err.text, "") ||
	    !KTAP_EXPECT_INT(decode(&req, d), 0)) {
		ktap_diag("for \"%s\": %s", line, d->err);
		return -1;
	}
	return 0;
}

static void expect_map(const struct decoded *d, unsigned int attr,
		       const int *want)
{
	unsigned int i = MAP_INDEX(attr), v, n = 0;

	for (v = 0; v < map_values[i]; v++) {
		n += want[v] >= 0;
		if (!KTAP_EXPECT_INT(d->map[i][v], want[v]))
			ktap_diag("map attribute %u, value %u", attr, v);
	}
	KTAP_EXPECT_INT(d->entries[i], n);
}

static void test_parse_empty(void)
{
	struct decoded d;

	if (!parse_decode("", &d))
		KTAP_EXPECT_INT(d.attrs, 0);
	ktap_result("parse no options: empty nest");
}

static void test_parse_scalars(void)
{
	struct decoded d;

	if (!parse_decode("classes 4 tag pcp default 1 limit 64k", &d)) {
		KTAP_EXPECT_INT(d.attrs, 1u << TCA_SLUICE_CLASSES |
				1u << TCA_SLUICE_TAG | 1u << TCA_SLUICE_DEFAULT |
				1u << TCA_SLUICE_LIMIT);
		KTAP_EXPECT_INT(d.classes, 4);
		KTAP_EXPECT_INT(d.tag, TC_SLUICE_TAG_PCP);
		KTAP_EXPECT_INT(d.defclass, 1);
		KTAP_EXPECT_INT(d.limit, 65536);
	}
	ktap_result("parse scalars");
}

#define PFC_ATTRS	(1u << TCA_SLUICE_RATE | 1u << TCA_SLUICE_PFC |	\
			 1u << TCA_SLUICE_PAUSE_RX | 1u << TCA_SLUICE_XOFF |	\
			 1u << TCA_SLUICE_XON | 1u << TCA_SLUICE_HEADROOM |	\
			 1u << TCA_SLUICE_PAUSE_TIME)

/* Whether @text starts with @prefix, with both shown if not. */
static void expect_prefix(const char *text, const char *prefix)
{
	if (!KTAP_EXPECT(!strncmp(text, prefix, strlen(prefix))))
		ktap_diag("got \"%s\", expected it to start \"%s\"", text,
			  prefix);
}

/* The MTU of lo as sysfs has it, or 0. */
static unsigned int lo_mtu(void)
{
	unsigned int mtu = 0;
	FILE *f = fopen("/sys/class/net/lo/mtu", "r");

	if (f) {
		if (fscanf(f, "%u", &mtu) != 1)
			mtu = 0;
		fclose(f);
	}
	return mtu;
}

#define AUTO_ATTRS	(1u << TCA_SLUICE_RATE | 1u << TCA_SLUICE_LIMIT |	\
			 1u << TCA_SLUICE_XOFF | 1u << TCA_SLUICE_XON |	\
			 1u << TCA_SLUICE_HEADROOM)

/*
 * "xoff auto" reaches the kernel as plain numbers.  b_hr = 2 * (s_MTU +
 * s_PFC + r * t_wire) + 60 quanta of 512 bits, worked out by hand.
 */
static void test_parse_xoff_auto(void)
{
	struct request req;
	struct capture err;
	struct decoded d;

	/*
	 * 10 Mbit/s, 100 m (default): r * t_wire = 5 bits; b_hr = 2 * (12112
	 * + 512 + 5) + 30720 = 55978 bits, 6998 bytes; xoff = 204800 - 6998.
	 */
	if (!parse_decode("rate 10mbit limit 200Kb xoff auto mtu 1514", &d)) {
		KTAP_EXPECT_INT(d.attrs, AUTO_ATTRS);
		KTAP_EXPECT_INT(d.headroom, 6998);
		KTAP_EXPECT_INT(d.xoff, 197802);
		KTAP_EXPECT_INT(d.xon, 196288);
	}
	/* A given xon is sent as given. */
	if (!parse_decode("rate 10mbit limit 200Kb xoff auto mtu 1514 cable 100 "
			  "xon 100k pfc 3", &d)) {
		KTAP_EXPECT_INT(d.attrs, AUTO_ATTRS | 1u << TCA_SLUICE_PFC);
		KTAP_EXPECT_INT(d.headroom, 6998);
		KTAP_EXPECT_INT(d.xoff, 197802);
		KTAP_EXPECT_INT(d.xon, 102400);
	}
	/*
	 * lo's MTU, if it is the usual 65536: frames of 65550 bytes; b_hr =
	 * 2 * (524400 + 512 + 5) + 30720 = 1080554 bits = 135069.25 bytes,
	 * 135070; xoff = 1048576 - 135070 = 913506, xon = 913506 - 65550.
	 */
	if (lo_mtu() != 65536)
		ktap_diag("lo's MTU is %u, not 65536: its case is skipped",
			  lo_mtu());
	else if (!parse_decode("rate 10mbit limit 1m xoff auto", &d)) {
		KTAP_EXPECT_INT(d.attrs, AUTO_ATTRS);
		KTAP_EXPECT_INT(d.headroom, 135070);
		KTAP_EXPECT_INT(d.xoff, 913506);
		KTAP_EXPECT_INT(d.xon, 847956);
	}
	/* A device whose MTU cannot be read needs "mtu". */
	KTAP_EXPECT_INT(run_parse_dev(false, "rate 10mbit limit 1m xoff auto",
				      "nosuch-sluice0", &req, &err), -1);
	expect_prefix(err.text,
		      "sluice: \"xoff auto\" needs \"mtu\": cannot read "
		      "the MTU of \"nosuch-sluice0\"\nUsage: ");
	KTAP_EXPECT_INT(req.n.nlmsg_len, NLMSG_LENGTH(sizeof(struct tcmsg)));
	KTAP_EXPECT_INT(run_parse_dev(false, "rate 10mbit limit 1m xoff auto "
				      "mtu 1514", "nosuch-sluice0", &req, &err),
			0);
	KTAP_EXPECT_STR(err.text, "");
	/* Computing fails: nothing is added. */
	KTAP_EXPECT_INT(run_parse(false, "rate 10mbit limit 6k xoff auto mtu 1514",
				  &req, &err), -1);
	expect_prefix(err.text,
		      "sluice: \"limit\" 6144 bytes is too small for "
		      "\"xoff auto\": the headroom alone is 6998 bytes\n"
		      "Usage: ");
	KTAP_EXPECT_INT(req.n.nlmsg_len, NLMSG_LENGTH(sizeof(struct tcmsg)));
	KTAP_EXPECT_INT(run_parse(false, "rate 10mbit xoff auto", &req, &err), -1);
	expect_prefix(err.text,
		      "sluice: \"xoff auto\" needs \"limit\" in the same "
		      "command: xoff is the limit less the headroom\n"
		      "Usage: ");
	KTAP_EXPECT_INT(req.n.nlmsg_len, NLMSG_LENGTH(sizeof(struct tcmsg)));
	ktap_result("parse xoff auto: plain numbers");
}

/* Each of the link's and PFC's options, with its type and size. */
static void test_parse_pfc(void)
{
	struct decoded d;

	if (!parse_decode("rate 100mbit pfc 3,4 pause-rx off xoff 50Kb "
			  "xon 47Kb headroom 20Kb pause-time 1000", &d)) {
		KTAP_EXPECT_INT(d.attrs, PFC_ATTRS);
		KTAP_EXPECT(d.rate == 100000000);
		KTAP_EXPECT_INT(d.pfc, 0x18);
		KTAP_EXPECT_INT(d.pause_rx, 0);
		KTAP_EXPECT_INT(d.xoff, 51200);
		KTAP_EXPECT_INT(d.xon, 48128);
		KTAP_EXPECT_INT(d.headroom, 20480);
		KTAP_EXPECT_INT(d.pause_time, 1000);
	}
	/* All 64 bits of the rate, and the other ends of the ranges. */
	if (!parse_decode("rate 18446744073709551615 pfc none pause-rx on "
			  "xoff 134217727 xon 0 headroom 0 pause-time 65535",
			  &d)) {
		KTAP_EXPECT_INT(d.attrs, PFC_ATTRS);
		KTAP_EXPECT(d.rate == 18446744073709551615ull);
		KTAP_EXPECT_INT(d.pfc, 0);
		KTAP_EXPECT_INT(d.pause_rx, 1);
		KTAP_EXPECT_INT(d.xoff, 134217727);
		KTAP_EXPECT_INT(d.xon, 0);
		KTAP_EXPECT_INT(d.headroom, 0);
		KTAP_EXPECT_INT(d.pause_time, 65535);
	}
	if (!parse_decode("rate 0", &d)) {
		KTAP_EXPECT_INT(d.attrs, 1u << TCA_SLUICE_RATE);
		KTAP_EXPECT(d.rate == 0);
	}
	if (!parse_decode("pfc 0-2,5", &d)) {
		KTAP_EXPECT_INT(d.attrs, 1u << TCA_SLUICE_PFC);
		KTAP_EXPECT_INT(d.pfc, 0x27);
	}
	ktap_result("parse rate and PFC options");
}

static void test_parse_tags(void)
{
	static const char *const lines[] = {
		"tag priority", "tag pcp", "tag dscp", "tag mpls-tc",
	};
	static const __u8 tags[] = {
		TC_SLUICE_TAG_PRIORITY, TC_SLUICE_TAG_PCP, TC_SLUICE_TAG_DSCP,
		TC_SLUICE_TAG_MPLS_TC,
	};
	struct decoded d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		if (parse_decode(lines[i], &d))
			continue;
		KTAP_EXPECT_INT(d.attrs, 1u << TCA_SLUICE_TAG);
		KTAP_EXPECT_INT(d.tag, tags[i]);
	}
	ktap_result("parse tag sources");
}

static void test_parse_pcp_map(void)
{
	static const int want[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	struct decoded d;

	if (!parse_decode("pcp-map 4-7:1 0-3:0", &d)) {
		KTAP_EXPECT_INT(d.attrs, 1u << TCA_SLUICE_PCP_MAP);
		expect_map(&d, TCA_SLUICE_PCP_MAP, want);
	}
	ktap_result("parse pcp-map ranges");
}

static void test_parse_sparse_maps(void)
{
	static const int none[64] = {
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	};
	int dscp[64], prio[16], mpls[8];
	struct decoded d;
	unsigned int v;

	memcpy(dscp, none, sizeof(dscp));
	dscp[46] = 5;
	for (v = 10; v <= 12; v++)
		dscp[v] = 2;
	memcpy(prio, none, sizeof(prio));
	prio[15] = 3;
	memcpy(mpls, none, sizeof(mpls));
	mpls[0] = 1;
	if (!parse_decode("dscp-map 46:5 10-12:2 prio-map 15:3 mpls-tc-map 0:1",
			  &d)) {
		KTAP_EXPECT_INT(d.attrs, 1u << TCA_SLUICE_DSCP_MAP |
				1u << TCA_SLUICE_PRIO_MAP |
				1u << TCA_SLUICE_MPLS_TC_MAP);
		expect_map(&d, TCA_SLUICE_DSCP_MAP, dscp);
		expect_map(&d, TCA_SLUICE_PRIO_MAP, prio);
		expect_map(&d, TCA_SLUICE_MPLS_TC_MAP, mpls);
	}
	ktap_result("parse sparse maps");
}

/* A reset map is a bit of TCA_SLUICE_DEFAULT_MAPS and sends no nest. */
static void test_parse_default_maps(void)
{
	static const struct {
		const char	*line;
		unsigned int	attrs;
		__u8		default_maps;
	} cases[] = {
		{ "pcp-map default", 1u << TCA_SLUICE_DEFAULT_MAPS, RESET_PCP },
		{ "dscp-map default", 1u << TCA_SLUICE_DEFAULT_MAPS, RESET_DSCP },
		{ "mpls-tc-map default", 1u << TCA_SLUICE_DEFAULT_MAPS,
		  RESET_MPLS },
		{ "prio-map default", 1u << TCA_SLUICE_DEFAULT_MAPS, RESET_PRIO },
		{ "pcp-map default dscp-map default",
		  1u << TCA_SLUICE_DEFAULT_MAPS, RESET_PCP | RESET_DSCP },
		{ "prio-map default mpls-tc-map default dscp-map default "
		  "pcp-map default", 1u << TCA_SLUICE_DEFAULT_MAPS, 0xf },
		{ "classes 4 prio-map default default 1",
		  1u << TCA_SLUICE_CLASSES | 1u << TCA_SLUICE_DEFAULT |
		  1u << TCA_SLUICE_DEFAULT_MAPS, RESET_PRIO },
	};
	static const int pcp[8] = { -1, 3, -1, -1, -1, -1, -1, -1 };
	struct decoded d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (parse_decode(cases[i].line, &d))
			continue;
		if (!KTAP_EXPECT_INT(d.attrs, cases[i].attrs) ||
		    !KTAP_EXPECT_INT(d.default_maps, cases[i].default_maps))
			ktap_diag("for \"%s\"", cases[i].line);
	}

	/* One map reset, another given entries: a nest for that one only. */
	if (!parse_decode("dscp-map default pcp-map 1:3 mpls-tc-map default",
			  &d)) {
		KTAP_EXPECT_INT(d.attrs, 1u << TCA_SLUICE_DEFAULT_MAPS |
				1u << TCA_SLUICE_PCP_MAP);
		KTAP_EXPECT_INT(d.default_maps, RESET_DSCP | RESET_MPLS);
		expect_map(&d, TCA_SLUICE_PCP_MAP, pcp);
	}
	ktap_result("parse map default: TCA_SLUICE_DEFAULT_MAPS, no nest");
}

/* The largest request: every option and every value of every map. */
static void test_parse_everything(void)
{
	struct decoded d;
	unsigned int i, v;

	if (!parse_decode("classes 32 tag mpls-tc default 31 limit 134217727 "
			  "rate 400gbit pfc 0-7 pause-rx on xoff 127m xon 126m "
			  "headroom 1m pause-time 65535 "
			  "pcp-map 0-7:31 dscp-map 0-63:30 mpls-tc-map 0-7:29 "
			  "prio-map 0-15:28", &d)) {
		KTAP_EXPECT_INT(d.attrs, 0x1fe | PFC_ATTRS);
		KTAP_EXPECT(d.rate == 400000000000ull);
		KTAP_EXPECT_INT(d.pfc, 0xff);
		KTAP_EXPECT_INT(d.classes, 32);
		KTAP_EXPECT_INT(d.tag, TC_SLUICE_TAG_MPLS_TC);
		KTAP_EXPECT_INT(d.defclass, 31);
		KTAP_EXPECT_INT(d.limit, 134217727);
		for (i = 0; i < MAPS; i++) {
			KTAP_EXPECT_INT(d.entries[i], map_values[i]);
			for (v = 0; v < map_values[i]; v++)
				if (!KTAP_EXPECT_INT(d.map[i][v], 31 - i))
					ktap_diag("map %u value %u", i, v);
		}
	}
	ktap_result("parse every option");
}

#define PORTFC_ATTR(type)	(1ull << TCA_SLUICE_PORTFC##type)

/* PortFC's options: each attribute with its size and value. */
static void test_parse_portfc(void)
{
	struct decoded d;

	if (!parse_decode("rate 100mbit portfc switch portfc-n 4 portfc-k 2 "
			  "portfc-index 1 portfc-label-base 200 "
			  "portfc-rtt 200us portfc-hq ack "
			  "portfc-hq-dscp none", &d)) {
		KTAP_EXPECT(d.attrs == (1u << TCA_SLUICE_RATE |
			    PORTFC_ATTR() | PORTFC_ATTR(_N) | PORTFC_ATTR(_K) |
			    PORTFC_ATTR(_INDEX) | PORTFC_ATTR(_LABEL_BASE) |
			    PORTFC_ATTR(_XOFF_A) | PORTFC_ATTR(_XON_A) |
			    PORTFC_ATTR(_XOFF_B) | PORTFC_ATTR(_XON_B) |
			    PORTFC_ATTR(_HQ) | PORTFC_ATTR(_HQ_DSCP)));
		KTAP_EXPECT_INT(d.portfc, TC_SLUICE_PORTFC_SWITCH);
		KTAP_EXPECT_INT(d.portfc_n, 4);
		KTAP_EXPECT_INT(d.portfc_k, 2);
		KTAP_EXPECT_INT(d.portfc_index, 1);
		KTAP_EXPECT_INT(d.portfc_label_base, 200);
		/* 100 Mbit/s for 200 us: 2500 bytes, xoff 6 and xon 4 of them */
		KTAP_EXPECT_INT(d.portfc_thresh[0], 15000);
		KTAP_EXPECT_INT(d.portfc_thresh[1], 10000);
		KTAP_EXPECT_INT(d.portfc_thresh[2], 15000);
		KTAP_EXPECT_INT(d.portfc_thresh[3], 10000);
		KTAP_EXPECT_INT(d.portfc_hq, TC_SLUICE_PORTFC_HQ_ACK);
		KTAP_EXPECT_INT(d.portfc_hq_dscp, 255);
	}
	/* A change of the thresholds alone sends just those. */
	if (!parse_decode("portfc-xon-b 1k portfc-xoff-a 64k", &d)) {
		KTAP_EXPECT(d.attrs == (PORTFC_ATTR(_XOFF_A) |
					PORTFC_ATTR(_XON_B)));
		KTAP_EXPECT_INT(d.portfc_thresh[0], 65536);
		KTAP_EXPECT_INT(d.portfc_thresh[3], 1024);
	}
	if (!parse_decode("portfc server portfc-hq none portfc-hq-dscp 46", &d)) {
		KTAP_EXPECT(d.attrs == (PORTFC_ATTR() | PORTFC_ATTR(_HQ) |
					PORTFC_ATTR(_HQ_DSCP)));
		KTAP_EXPECT_INT(d.portfc, TC_SLUICE_PORTFC_SERVER);
		KTAP_EXPECT_INT(d.portfc_hq, 0);
		KTAP_EXPECT_INT(d.portfc_hq_dscp, 46);
	}
	ktap_result("parse PortFC options");
}

#define INT_ATTR(type)	(1ull << TCA_SLUICE_INT_##type)

/* In-band telemetry's options: each alone, with its size and value. */
static void test_parse_int(void)
{
	struct decoded d;

	if (!parse_decode("int-port 5555 int-node 7 int-link 4294967295", &d)) {
		KTAP_EXPECT(d.attrs == (INT_ATTR(PORT) | INT_ATTR(NODE) |
					INT_ATTR(LINK)));
		KTAP_EXPECT_INT(d.int_port, 5555);
		KTAP_EXPECT_INT(d.int_node, 7);
		KTAP_EXPECT(d.int_link == 4294967295u);
	}
	/* Turning it off sends the port alone, as 0. */
	if (!parse_decode("int-port 0", &d)) {
		KTAP_EXPECT(d.attrs == INT_ATTR(PORT));
		KTAP_EXPECT_INT(d.int_port, 0);
	}
	ktap_result("parse INT options");
}

static void test_parse_error(void)
{
	struct request req;
	struct capture err;

	KTAP_EXPECT_INT(run_parse(false, "classes 99", &req, &err), -1);
	KTAP_EXPECT(!strncmp(err.text,
			     "sluice: \"classes\" must be 1..32, not \"99\"\n"
			     "Usage: ... sluice [ classes N ]", 72));
	KTAP_EXPECT_INT(req.n.nlmsg_len, NLMSG_LENGTH(sizeof(struct tcmsg)));

	KTAP_EXPECT_INT(run_parse(false, "tag pcp pcp-map 1:1 bogus", &req,
				  &err), -1);
	KTAP_EXPECT(!strncmp(err.text,
			     "sluice: \"pcp-map\" entry \"bogus\" is not "
			     "VALUE[-VALUE]:CLASS\nUsage: ", 64));
	KTAP_EXPECT_INT(req.n.nlmsg_len, NLMSG_LENGTH(sizeof(struct tcmsg)));

	KTAP_EXPECT_INT(run_parse(false, "pcp-map default 3:1", &req, &err),
			-1);
	KTAP_EXPECT(!strncmp(err.text,
			     "sluice: \"pcp-map default\" takes no entries, "
			     "not \"3:1\"\nUsage: ", 61));
	KTAP_EXPECT_INT(req.n.nlmsg_len, NLMSG_LENGTH(sizeof(struct tcmsg)));

	KTAP_EXPECT_INT(run_parse(false, "pcp-map 3:1 pcp-map default", &req,
				  &err), -1);
	KTAP_EXPECT(!strncmp(err.text,
			     "sluice: \"pcp-map\" cannot be both reset to "
			     "\"default\" and given entries\nUsage: ", 77));
	KTAP_EXPECT_INT(req.n.nlmsg_len, NLMSG_LENGTH(sizeof(struct tcmsg)));

	/* Checks across options: nothing is added for the first of them. */
	KTAP_EXPECT_INT(run_parse(false, "rate 0 pfc 3", &req, &err), -1);
	KTAP_EXPECT(!strncmp(err.text,
			     "sluice: \"pfc 3\" needs a \"rate\" above 0: pause "
			     "quanta are bit times\nUsage: ", 74));
	KTAP_EXPECT_INT(req.n.nlmsg_len, NLMSG_LENGTH(sizeof(struct tcmsg)));

	KTAP_EXPECT_INT(run_parse(false, "xoff 10k xon 11k", &req, &err), -1);
	KTAP_EXPECT(!strncmp(err.text,
			     "sluice: \"xon\" must be at most \"xoff\" (10k), "
			     "not \"11k\"\nUsage: ", 61));
	KTAP_EXPECT_INT(req.n.nlmsg_len, NLMSG_LENGTH(sizeof(struct tcmsg)));
	ktap_result("parse error: message, usage, nothing added");
}

#define CLASS_USAGE \
	"Usage: ... sluice [ limit BYTES ] [ ecn { BYTES | off } ]\n" \
	"                  [ quantum { BYTES | strict } ]\n" \
	"       BYTES is 1..134217727, e.g. 1500, 64k, 1m; 256..134217727 for quantum\n" \
	"       ecn marks CE on ECT frames while the class holds more than BYTES;\n" \
	"       off (or 0) marks none\n" \
	"       quantum shares the link by DWRR among the classes that have one,\n" \
	"       BYTES per round; strict (or 0) serves the class by priority\n"

static void test_parse_help(void)
{
	struct request req;
	struct capture err;

	KTAP_EXPECT_INT(run_parse(false, "help", &req, &err), -1);
	KTAP_EXPECT_STR(err.text,
		"Usage: ... sluice [ classes N ] [ tag { priority | pcp | dscp | mpls-tc } ]\n"
		"                  [ default CLASS ] [ limit BYTES ] [ rate RATE ] [ pfc PRIOS ]\n"
		"                  [ pause-rx { on | off } ] [ xoff { BYTES | AUTO } ]\n"
		"                  [ xon BYTES ] [ headroom BYTES ] [ pause-time QUANTA ]\n"
		"                  [ pcp-map MAP ] [ dscp-map MAP ] [ mpls-tc-map MAP ]\n"
		"                  [ prio-map MAP ] [ watchdog { PRIOS | all } ]\n"
		"                  [ watchdog-action { drop | forward | alert } ]\n"
		"                  [ detection-time TIME ] [ restoration-time TIME ]\n"
		"                  [ watchdog-poll TIME ] [ portfc { switch | server } ]\n"
		"                  [ portfc-n N ] [ portfc-k K ] [ portfc-index I ]\n"
		"                  [ portfc-label-base LABEL ] [ portfc-rtt RTT ]\n"
		"                  [ portfc-xoff-a BYTES ] [ portfc-xon-a BYTES ]\n"
		"                  [ portfc-xoff-b BYTES ] [ portfc-xon-b BYTES ]\n"
		"                  [ portfc-hq { none | KIND[,KIND] } ] [ portfc-hq-dscp { DSCP | none } ]\n"
		"                  [ int-port PORT ] [ int-node NODE ] [ int-link LINK ]\n"
		"       MAP := ENTRY [ ENTRY ... ] | default    ENTRY := VALUE[-VALUE]:CLASS\n"
		"       PRIOS := none | P[-P][,P[-P]...]    P is a PFC priority, 0-7\n"
		"       AUTO := auto [ cable METRES ] [ mtu BYTES ]\n"
		"       N is 1..32, CLASS is 0..N-1, BYTES is 1..134217727, e.g. 1500, 64k, 1m\n"
		"       (0..134217727 for xoff, xon and headroom)\n"
		"       RATE is bits/s, e.g. 100mbit, 2.5gbit, 10gbit; 0 leaves the port unshaped\n"
		"       QUANTA is 1..65535 pause quanta of 512 bit times\n"
		"       VALUE is pcp 0-7, dscp 0-63, mpls-tc 0-7, prio 0-15\n"
		"       a MAP of \"default\" resets the map to its default, which follows N\n"
		"       xoff auto: headroom is the PFC headroom (sluicectl headroom) of RATE\n"
		"       over METRES of cable (0..100000, default 100) with frames of mtu BYTES\n"
		"       (default the device's MTU + 14), xoff is limit - headroom, and xon,\n"
		"       unless given, xoff - mtu; it needs rate and limit, and excludes headroom\n"
		"       watchdog: the PFC watchdog on those priorities' classes; TIME is\n"
		"       10..60000 ms, as 200, 200ms or 0.2s (defaults: detection-time 200,\n"
		"       restoration-time 200, watchdog-poll 100, at most detection-time)\n"
		"       portfc: a port of a BCube(n, k) switch or server (PortFC); N is\n"
		"       2..16, K 0..4 (default 1), I 0..N-1, LABEL that of port index 0\n"
		"       (default 100), KIND ack or arp (default ack,arp), DSCP 0..63 (default\n"
		"       none); portfc-rtt sets xoff 6 and xon 4 bandwidth-delay products of\n"
		"       rate over RTT (e.g. 200us, 1.5ms) for both queue types; needs rate\n"
		"       int-port: in-band telemetry, on a root qdisc; the port stamps a\n"
		"       record into each probe (IPv4 UDP to PORT, 0..65535, 0: off) it\n"
		"       sends, naming itself by NODE and LINK (0..4294967295, default 0)\n");
	KTAP_EXPECT_INT(req.n.nlmsg_len, NLMSG_LENGTH(sizeof(struct tcmsg)));

	KTAP_EXPECT_INT(run_parse(true, "help", &req, &err), -1);
	KTAP_EXPECT_STR(err.text, CLASS_USAGE);
	KTAP_EXPECT_INT(req.n.nlmsg_len, NLMSG_LENGTH(sizeof(struct tcmsg)));
	ktap_result("parse help");
}

/* Parses @line as class options and decodes the request; 0 if all went well. */
static int parse_decode_class(const char *line, struct class_decoded *cd)
{
	static struct request req;
	struct capture err;
	struct decoded d = {};

	if (!KTAP_EXPECT_INT(run_parse(true, line, &req, &err), 0) ||
	    !KTAP_EXPECT_STR(err.text, "") ||
	    !KTAP_EXPECT_INT(decode_class(&req, &d, cd), 0)) {
		ktap_diag("for \"%s\": %s", line, d.err);
		return -1;
	}
	return 0;
}

#define CLASS_ATTR(type)	(1u << (type))

static void test_parse_class(void)
{
	struct class_decoded cd;

	if (!parse_decode_class("limit 50k", &cd)) {
		KTAP_EXPECT_INT(cd.attrs, CLASS_ATTR(TCA_SLUICE_CLASS_LIMIT));
		KTAP_EXPECT_INT(cd.limit, 51200);
	}
	if (!parse_decode_class("", &cd))
		KTAP_EXPECT_INT(cd.attrs, 0);
	if (!parse_decode_class("limit 134217727", &cd))
		KTAP_EXPECT_INT(cd.limit, 134217727);
	ktap_result("parse class options");
}

/* ECN and the quantum, each a u32, and their words for 0. */
static void test_parse_class_ecn_quantum(void)
{
	struct class_decoded cd;

	if (!parse_decode_class("ecn 30Kb", &cd)) {
		KTAP_EXPECT_INT(cd.attrs, CLASS_ATTR(TCA_SLUICE_CLASS_ECN));
		KTAP_EXPECT_INT(cd.ecn, 30720);
	}
	if (!parse_decode_class("quantum 1514", &cd)) {
		KTAP_EXPECT_INT(cd.attrs, CLASS_ATTR(TCA_SLUICE_CLASS_QUANTUM));
		KTAP_EXPECT_INT(cd.quantum, 1514);
	}
	if (!parse_decode_class("quantum 3028 ecn 134217727 limit 1m", &cd)) {
		KTAP_EXPECT_INT(cd.attrs, CLASS_ATTR(TCA_SLUICE_CLASS_LIMIT) |
				CLASS_ATTR(TCA_SLUICE_CLASS_ECN) |
				CLASS_ATTR(TCA_SLUICE_CLASS_QUANTUM));
		KTAP_EXPECT_INT(cd.limit, 1048576);
		KTAP_EXPECT_INT(cd.ecn, 134217727);
		KTAP_EXPECT_INT(cd.quantum, 3028);
	}
	/* "off" and "strict" are sent, as 0: they turn the feature off. */
	if (!parse_decode_class("ecn off quantum strict", &cd)) {
		KTAP_EXPECT_INT(cd.attrs, CLASS_ATTR(TCA_SLUICE_CLASS_ECN) |
				CLASS_ATTR(TCA_SLUICE_CLASS_QUANTUM));
		KTAP_EXPECT_INT(cd.ecn, 0);
		KTAP_EXPECT_INT(cd.quantum, 0);
	}
	if (!parse_decode_class("ecn 0 quantum 0", &cd)) {
		KTAP_EXPECT_INT(cd.attrs, CLASS_ATTR(TCA_SLUICE_CLASS_ECN) |
				CLASS_ATTR(TCA_SLUICE_CLASS_QUANTUM));
		KTAP_EXPECT_INT(cd.ecn, 0);
		KTAP_EXPECT_INT(cd.quantum, 0);
	}
	if (!parse_decode_class("quantum 256", &cd))
		KTAP_EXPECT_INT(cd.quantum, 256);
	ktap_result("parse class ecn and quantum: u32 each");
}

/* A rejected class command prints its message and the usage, adds nothing. */
static void test_parse_class_error(void)
{
	static const struct {
		const char	*line;
		const char	*msg;
	} cases[] = {
		{ "limit 0",
		  "\"limit\" must be 1..134217727 bytes, not \"0\"" },
		{ "limit 128m",
		  "\"limit\" must be 1..134217727 bytes, not \"128m\"" },
		{ "ecn 128m",
		  "\"ecn\" must be off (0) or 1..134217727 bytes, not \"128m\"" },
		{ "ecn on",
		  "\"ecn\" must be off (0) or 1..134217727 bytes, not \"on\"" },
		{ "quantum 100",
		  "\"quantum\" must be strict (0) or 256..134217727 bytes, not \"100\"" },
		{ "limit 50k quantum off",
		  "\"quantum\" must be strict (0) or 256..134217727 bytes, not \"off\"" },
		{ "ecn off ecn 30k", "duplicate option \"ecn\"" },
		{ "quantum", "missing value after \"quantum\"" },
		{ "classes 4", "unknown option \"classes\"" },
	};
	char want[512];
	struct request req;
	struct capture err;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(want, sizeof(want), "sluice: %s\n%s", cases[i].msg,
			 CLASS_USAGE);
		if (!KTAP_EXPECT_INT(run_parse(true, cases[i].line, &req, &err),
				     -1) ||
		    !KTAP_EXPECT_STR(err.text, want) ||
		    !KTAP_EXPECT_INT(req.n.nlmsg_len,
				     NLMSG_LENGTH(sizeof(struct tcmsg))))
			ktap_diag("for \"%s\"", cases[i].line);
	}
	ktap_result("parse class error: message, usage, nothing added");
}

/* A dump as the kernel sends it: the attributes of one TCA_OPTIONS nest. */
struct dump {
	union {
		struct rtattr	opts;
		char		buf[4096];
		__u64		align;	/* offsets in buf are alignments */
	};
	int	len;
};

static void dump_init(struct dump *m)
{
	memset(m, 0, sizeof(*m));
	m->opts.rta_type = TCA_OPTIONS | NLA_F_NESTED;
	m->len = RTA_LENGTH(0);
}

static int dump_put(struct dump *m, unsigned short type, const void *data,
		    int len)
{
	struct rtattr *rta = (struct rtattr *)(m->buf + m->len);
	int at = m->len;

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	m->len += RTA_ALIGN(rta->rta_len);
	m->opts.rta_len = m->len;
	return at;
}

static void dump_end_nest(struct dump *m, int at)
{
	((struct rtattr *)(m->buf + at))->rta_len = m->len - at;
}

static void dump_u8(struct dump *m, unsigned short type, __u8 v)
{
	dump_put(m, type, &v, 1);
}

static void dump_u16(struct dump *m, unsigned short type, __u16 v)
{
	dump_put(m, type, &v, 2);
}

static void dump_u32(struct dump *m, unsigned short type, __u32 v)
{
	dump_put(m, type, &v, 4);
}

/*
 * A u64 as nla_put_u64_64bit() puts it: after a TCA_SLUICE_PAD if that
 * makes its payload 8-aligned.  Without @pad, exactly where it falls.
 */
static void dump_u64(struct dump *m, unsigned short type, __u64 v, bool pad)
{
	if (pad && (m->len + RTA_LENGTH(0)) % 8)
		dump_put(m, TCA_SLUICE_PAD, NULL, 0);
	dump_put(m, type, &v, 8);
}

/* A map from @tclass; entries in reverse, so no order is assumed. */
static void dump_map(struct dump *m, unsigned short attr, const __u8 *tclass,
		     unsigned int values)
{
	struct tc_sluice_map_entry e = {};
	int nest = dump_put(m, attr | NLA_F_NESTED, NULL, 0);

	while (values--) {
		e.value = values;
		e.tclass = tclass[values];
		dump_put(m, TCA_SLUICE_MAP_ENTRY, &e, sizeof(e));
	}
	dump_end_nest(m, nest);
}

static __u8 pcp_identity[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
static __u8 mpls_reverse[8] = { 7, 6, 5, 4, 3, 2, 1, 0 };
static __u8 dscp_cs_ef[64];	/* d >> 3, but 46 (EF) -> 6 */
static __u8 prio_half[16];	/* p / 2 */

static void init_maps(void)
{
	unsigned int v;

	for (v = 0; v < 64; v++)
		dscp_cs_ef[v] = v >> 3;
	dscp_cs_ef[46] = 6;
	for (v = 0; v < 16; v++)
		prio_half[v] = v / 2;
}

/* A dump of a kernel before PFC: no rate nor PFC attributes. */
static void pre_pfc_dump(struct dump *m)
{
	dump_init(m);
	dump_u8(m, TCA_SLUICE_CLASSES, 8);
	dump_u8(m, TCA_SLUICE_TAG, TC_SLUICE_TAG_DSCP);
	dump_u8(m, TCA_SLUICE_DEFAULT, 0);
	dump_u32(m, TCA_SLUICE_LIMIT, 1048576);
	dump_map(m, TCA_SLUICE_PCP_MAP, pcp_identity, 8);
	dump_map(m, TCA_SLUICE_DSCP_MAP, dscp_cs_ef, 64);
	dump_map(m, TCA_SLUICE_MPLS_TC_MAP, mpls_reverse, 8);
	dump_map(m, TCA_SLUICE_PRIO_MAP, prio_half, 16);
}

static const char pre_pfc_text[] =
	"classes 8 tag dscp default 0 limit 1Mb "
	"pcp-map 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 "
	"dscp-map 0-7:0 8-15:1 16-23:2 24-31:3 32-39:4 40-45:5 46:6 47:5 "
	"48-55:6 56-63:7 "
	"mpls-tc-map 0:7 1:6 2:5 3:4 4:3 5:2 6:1 7:0 "
	"prio-map 0-1:0 2-3:1 4-5:2 6-7:3 8-9:4 10-11:5 12-13:6 14-15:7 ";

/* Every attribute, in the kernel's order, the rate padded as it pads it. */
static void full_dump(struct dump *m)
{
	dump_init(m);
	dump_u8(m, TCA_SLUICE_CLASSES, 8);
	dump_u8(m, TCA_SLUICE_TAG, TC_SLUICE_TAG_DSCP);
	dump_u8(m, TCA_SLUICE_DEFAULT, 0);
	dump_u32(m, TCA_SLUICE_LIMIT, 1048576);
	dump_map(m, TCA_SLUICE_PCP_MAP, pcp_identity, 8);
	dump_map(m, TCA_SLUICE_DSCP_MAP, dscp_cs_ef, 64);
	dump_map(m, TCA_SLUICE_MPLS_TC_MAP, mpls_reverse, 8);
	dump_map(m, TCA_SLUICE_PRIO_MAP, prio_half, 16);
	dump_u64(m, TCA_SLUICE_RATE, 100000000, true);
	dump_u8(m, TCA_SLUICE_PFC, 0x18);
	dump_u8(m, TCA_SLUICE_PAUSE_RX, 1);
	dump_u32(m, TCA_SLUICE_XOFF, 51200);
	dump_u32(m, TCA_SLUICE_XON, 48128);
	dump_u32(m, TCA_SLUICE_HEADROOM, 20480);
	dump_u16(m, TCA_SLUICE_PAUSE_TIME, 65535);
}

#define PFC_TEXT \
	"rate 100Mbit pfc 3,4 pause-rx on xoff 50Kb xon 47Kb headroom 20Kb " \
	"pause-time 65535 "

static const char full_text[] =
	"classes 8 tag dscp default 0 limit 1Mb " PFC_TEXT
	"pcp-map 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 "
	"dscp-map 0-7:0 8-15:1 16-23:2 24-31:3 32-39:4 40-45:5 46:6 47:5 "
	"48-55:6 56-63:7 "
	"mpls-tc-map 0:7 1:6 2:5 3:4 4:3 5:2 6:1 7:0 "
	"prio-map 0-1:0 2-3:1 4-5:2 6-7:3 8-9:4 10-11:5 12-13:6 14-15:7 ";

/* How many qdisc text dumps sluice_qopt_format() was held against, refused. */
static unsigned int lib_compared, lib_refused;

/*
 * libsluice's reading of a dump (sluice_qopt_decode(), then
 * sluice_qopt_format(), what "sluicectl fabric show" prints) against the
 * plugin's text for the same attributes, on every qdisc text dump the tests
 * print: the two must not drift.  Dumps the library refuses (a map missing
 * a value, an attribute of the wrong size: the defensive tests) are left
 * to the plugin, which prints around them.
 */
static void expect_lib_format(struct rtattr *rta, const char *plugin)
{
	static char text[SLUICE_QOPT_STRLEN + 1];
	char err[SLUICE_ERRLEN];
	struct sluice_qopt o;
	size_t n;

	if (!rta)
		return;
	if (sluice_qopt_decode(&o, RTA_DATA(rta), RTA_PAYLOAD(rta), err,
			       sizeof(err))) {
		lib_refused++;
		return;
	}
	if (!KTAP_EXPECT_INT(sluice_qopt_format(&o, text, sizeof(text) - 1), 0))
		return;
	/* the plugin ends every word with a space */
	n = strlen(text);
	if (n) {
		text[n] = ' ';
		text[n + 1] = '\0';
	}
	if (!KTAP_EXPECT_STR(text, plugin))
		ktap_diag("sluice_qopt_format() differs from the plugin");
	lib_compared++;
}

static const char *print_with(int (*print)(struct qdisc_util *, FILE *,
					   struct rtattr *),
			      bool json, struct rtattr *rta)
{
	fake_tc_reset(json);
	print(&sluice_qdisc_util, stdout, rta);
	if (!json && print == sluice_qdisc_util.print_qopt)
		expect_lib_format(rta, fake_tc_output());
	return fake_tc_output();
}

static void test_print_text(void)
{
	struct dump m;

	full_dump(&m);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			full_text);
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	ktap_result("print qdisc text");
}

static json_object *parse_json_members(const char *members)
{
	char text[16384];

	snprintf(text, sizeof(text), "{%s}", members);
	return json_tokener_parse(text);
}

static void expect_json_array(json_object *obj, const char *key,
			      const __u8 *want, unsigned int values)
{
	json_object *arr, *elem;
	unsigned int v;

	if (!KTAP_EXPECT(json_object_object_get_ex(obj, key, &arr)) ||
	    !KTAP_EXPECT(json_object_is_type(arr, json_type_array)) ||
	    !KTAP_EXPECT_INT(json_object_array_length(arr), values)) {
		ktap_diag("for key \"%s\"", key);
		return;
	}
	for (v = 0; v < values; v++) {
		elem = json_object_array_get_idx(arr, v);
		if (!KTAP_EXPECT(json_object_is_type(elem, json_type_int)) ||
		    !KTAP_EXPECT_INT(json_object_get_int(elem), want[v]))
			ktap_diag("\"%s\"[%u]", key, v);
	}
}

static void expect_json_int(json_object *obj, const char *key, long long want)
{
	json_object *val;

	if (!KTAP_EXPECT(json_object_object_get_ex(obj, key, &val)) ||
	    !KTAP_EXPECT(json_object_is_type(val, json_type_int)) ||
	    !KTAP_EXPECT_INT(json_object_get_int64(val), want))
		ktap_diag("for key \"%s\"", key);
}

static void expect_json_bool(json_object *obj, const char *key, bool want)
{
	json_object *val;

	if (!KTAP_EXPECT(json_object_object_get_ex(obj, key, &val)) ||
	    !KTAP_EXPECT(json_object_is_type(val, json_type_boolean)) ||
	    !KTAP_EXPECT_INT(json_object_get_boolean(val), want))
		ktap_diag("for key \"%s\"", key);
}

/* "{...}" of print_qopt's JSON members for @m, or NULL and a diagnostic. */
static json_object *print_json(struct dump *m)
{
	const char *out;
	json_object *obj;

	out = print_with(sluice_qdisc_util.print_qopt, true, &m->opts);
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	obj = parse_json_members(out);
	if (!KTAP_EXPECT(obj))
		ktap_diag("not JSON: {%s}", out);
	return obj;
}

/* full_dump()'s options in JSON: every map, default or not. */
static void expect_full_json(json_object *obj)
{
	static const __u8 pfc[] = { 3, 4 };
	json_object *val;

	expect_json_int(obj, "classes", 8);
	expect_json_int(obj, "default", 0);
	expect_json_int(obj, "limit", 1048576);
	expect_json_int(obj, "rate", 100000000);
	expect_json_array(obj, "pfc", pfc, ARRAY_SIZE(pfc));
	expect_json_bool(obj, "pause_rx", true);
	expect_json_int(obj, "xoff", 51200);
	expect_json_int(obj, "xon", 48128);
	expect_json_int(obj, "headroom", 20480);
	expect_json_int(obj, "pause_time", 65535);
	if (KTAP_EXPECT(json_object_object_get_ex(obj, "tag", &val)))
		KTAP_EXPECT_STR(json_object_get_string(val), "dscp");
	expect_json_array(obj, "pcp_map", pcp_identity, 8);
	expect_json_array(obj, "dscp_map", dscp_cs_ef, 64);
	expect_json_array(obj, "mpls_tc_map", mpls_reverse, 8);
	expect_json_array(obj, "prio_map", prio_half, 16);
}

/* "default_maps" is an array of exactly the tag names @want, in order. */
static void expect_json_names(json_object *obj, const char *const *want,
			      size_t n)
{
	json_object *arr, *elem;
	size_t i;

	if (!KTAP_EXPECT(json_object_object_get_ex(obj, "default_maps", &arr)) ||
	    !KTAP_EXPECT(json_object_is_type(arr, json_type_array)) ||
	    !KTAP_EXPECT_INT(json_object_array_length(arr), n))
		return;
	for (i = 0; i < n; i++) {
		elem = json_object_array_get_idx(arr, i);
		if (!KTAP_EXPECT(json_object_is_type(elem, json_type_string)) ||
		    !KTAP_EXPECT_STR(json_object_get_string(elem), want[i]))
			ktap_diag("\"default_maps\"[%zu]", i);
	}
}

/* A kernel without TCA_SLUICE_DEFAULT_MAPS: no "default_maps" key. */
static void test_print_json(void)
{
	json_object *obj;
	struct dump m;

	full_dump(&m);
	obj = print_json(&m);
	if (obj) {
		KTAP_EXPECT_INT(json_object_object_length(obj), 15);
		expect_full_json(obj);
		KTAP_EXPECT(!json_object_object_get_ex(obj, "default_maps",
						       NULL));
		json_object_put(obj);
	}
	ktap_result("print qdisc JSON");
}

/* @text re-parses to full_dump()'s options but for the @omitted maps. */
static void expect_full_reparse(const char *text, unsigned int omitted)
{
	const __u8 *maps[MAPS] = {
		pcp_identity, dscp_cs_ef, mpls_reverse, prio_half,
	};
	struct decoded d;
	unsigned int i, v;

	if (parse_decode(text, &d))
		return;
	KTAP_EXPECT_INT(d.attrs, (0x1fe | PFC_ATTRS) & ~omitted);
	KTAP_EXPECT_INT(d.classes, 8);
	KTAP_EXPECT_INT(d.tag, TC_SLUICE_TAG_DSCP);
	KTAP_EXPECT_INT(d.defclass, 0);
	KTAP_EXPECT_INT(d.limit, 1048576);
	KTAP_EXPECT_INT(d.default_maps, 0);
	KTAP_EXPECT(d.rate == 100000000);
	KTAP_EXPECT_INT(d.pfc, 0x18);
	KTAP_EXPECT_INT(d.pause_rx, 1);
	KTAP_EXPECT_INT(d.xoff, 51200);
	KTAP_EXPECT_INT(d.xon, 48128);
	KTAP_EXPECT_INT(d.headroom, 20480);
	KTAP_EXPECT_INT(d.pause_time, 65535);
	for (i = 0; i < MAPS; i++) {
		if (omitted & (1u << (TCA_SLUICE_PCP_MAP + i))) {
			KTAP_EXPECT_INT(d.entries[i], 0);
			continue;
		}
		KTAP_EXPECT_INT(d.entries[i], map_values[i]);
		for (v = 0; v < map_values[i]; v++)
			if (!KTAP_EXPECT_INT(d.map[i][v], maps[i][v]))
				ktap_diag("map %u value %u", i, v);
	}
}

/* "tc qdisc show" output, typed back in, is the same configuration. */
static void test_print_reparse(void)
{
	char text[sizeof(full_text)];
	struct dump m;

	full_dump(&m);
	snprintf(text, sizeof(text), "%s",
		 print_with(sluice_qdisc_util.print_qopt, false, &m.opts));
	expect_full_reparse(text, 0);
	ktap_result("print qdisc text re-parses");
}

/*
 * In-band telemetry's options: printed when the kernel dumps them, after
 * PortFC's, and the text re-parses to the same request.
 */
static void test_print_int(void)
{
	static const char text[] = "int-port 5555 int-node 3 int-link 4294967295 ";
	struct decoded again;
	json_object *obj;
	struct dump m;

	dump_init(&m);
	dump_u16(&m, TCA_SLUICE_INT_PORT, 5555);
	dump_u32(&m, TCA_SLUICE_INT_NODE, 3);
	dump_u32(&m, TCA_SLUICE_INT_LINK, 4294967295u);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			text);
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	if (KTAP_EXPECT_INT(parse_decode(text, &again), 0)) {
		KTAP_EXPECT_INT(again.int_port, 5555);
		KTAP_EXPECT_INT(again.int_node, 3);
		KTAP_EXPECT(again.int_link == 4294967295u);
	}
	obj = print_json(&m);
	if (obj) {
		KTAP_EXPECT_STR(json_object_to_json_string_ext(obj,
							       JSON_C_TO_STRING_PLAIN),
				"{\"int_port\":5555,\"int_node\":3,"
				"\"int_link\":4294967295}");
		json_object_put(obj);
	}
	/* Ids with the port off (0) print too: they are set. */
	dump_init(&m);
	dump_u16(&m, TCA_SLUICE_INT_PORT, 0);
	dump_u32(&m, TCA_SLUICE_INT_NODE, 9);
	dump_u32(&m, TCA_SLUICE_INT_LINK, 0);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			"int-port 0 int-node 9 int-link 0 ");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	ktap_result("print INT options");
}

/* A PortFC switch port's options as a kernel dumps them, role first. */
static void portfc_dump(struct dump *m, __u8 role, __u8 hq, __u8 dscp)
{
	dump_init(m);
	dump_u8(m, TCA_SLUICE_PORTFC, role);
	dump_u8(m, TCA_SLUICE_PORTFC_N, 4);
	dump_u8(m, TCA_SLUICE_PORTFC_K, 1);
	dump_u8(m, TCA_SLUICE_PORTFC_INDEX, 1);
	dump_u32(m, TCA_SLUICE_PORTFC_LABEL_BASE, 100);
	dump_u32(m, TCA_SLUICE_PORTFC_XOFF_A, 15000);
	dump_u32(m, TCA_SLUICE_PORTFC_XON_A, 10000);
	dump_u32(m, TCA_SLUICE_PORTFC_XOFF_B, 61440);
	dump_u32(m, TCA_SLUICE_PORTFC_XON_B, 40960);
	dump_u8(m, TCA_SLUICE_PORTFC_HQ, hq);
	dump_u8(m, TCA_SLUICE_PORTFC_HQ_DSCP, dscp);
}

/*
 * PortFC's options: printed on a PortFC port only, thresholds as xoff is,
 * and the text re-parses to the same request.
 */
static void test_print_portfc(void)
{
	static const char text[] =
		"portfc switch portfc-n 4 portfc-k 1 portfc-index 1 "
		"portfc-label-base 100 portfc-xoff-a 15000b portfc-xon-a 10000b "
		"portfc-xoff-b 60Kb portfc-xon-b 40Kb portfc-hq ack,arp "
		"portfc-hq-dscp none ";
	struct decoded again;
	json_object *obj;
	struct dump m;

	portfc_dump(&m, TC_SLUICE_PORTFC_SWITCH, 3, 255);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			text);
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	if (KTAP_EXPECT_INT(parse_decode(text, &again), 0)) {
		KTAP_EXPECT_INT(again.portfc, TC_SLUICE_PORTFC_SWITCH);
		KTAP_EXPECT_INT(again.portfc_n, 4);
		KTAP_EXPECT_INT(again.portfc_k, 1);
		KTAP_EXPECT_INT(again.portfc_index, 1);
		KTAP_EXPECT_INT(again.portfc_label_base, 100);
		KTAP_EXPECT_INT(again.portfc_thresh[0], 15000);
		KTAP_EXPECT_INT(again.portfc_thresh[1], 10000);
		KTAP_EXPECT_INT(again.portfc_thresh[2], 61440);
		KTAP_EXPECT_INT(again.portfc_thresh[3], 40960);
		KTAP_EXPECT_INT(again.portfc_hq, 3);
		KTAP_EXPECT_INT(again.portfc_hq_dscp, 255);
	}
	obj = print_json(&m);
	if (obj) {
		KTAP_EXPECT_STR(json_object_to_json_string_ext(obj,
							       JSON_C_TO_STRING_PLAIN),
				"{\"portfc\":\"switch\",\"portfc_n\":4,"
				"\"portfc_k\":1,\"portfc_index\":1,"
				"\"portfc_label_base\":100,\"portfc_xoff_a\":15000,"
				"\"portfc_xon_a\":10000,\"portfc_xoff_b\":61440,"
				"\"portfc_xon_b\":40960,\"portfc_hq\":[\"ack\",\"arp\"],"
				"\"portfc_hq_dscp\":255}");
		json_object_put(obj);
	}

	/* A server, HQ empty, a DSCP; a kind newer than the plugin is left out. */
	portfc_dump(&m, TC_SLUICE_PORTFC_SERVER, 0x4, 46);
	KTAP_EXPECT(strstr(print_with(sluice_qdisc_util.print_qopt, false,
				      &m.opts),
			   "portfc server portfc-n 4 ") &&
		    strstr(fake_tc_output(),
			   " portfc-hq none portfc-hq-dscp 46 "));
	KTAP_EXPECT(strstr(print_with(sluice_qdisc_util.print_qopt, true,
				      &m.opts),
			   "\"portfc_hq\":[],\"portfc_hq_dscp\":46"));
	/* Its watchdog watches every data class: "all", not priorities. */
	dump_u8(&m, TCA_SLUICE_WD_PRIOS, 0xff);
	KTAP_EXPECT(strstr(print_with(sluice_qdisc_util.print_qopt, false,
				      &m.opts), "watchdog all "));
	KTAP_EXPECT(strstr(print_with(sluice_qdisc_util.print_qopt, true,
				      &m.opts), "\"watchdog\":\"all\""));
	/* A role newer than the plugin: by number. */
	portfc_dump(&m, 7, 1, 0);
	KTAP_EXPECT(!strncmp(print_with(sluice_qdisc_util.print_qopt, false,
					&m.opts), "portfc 7 portfc-n 4 ", 20));
	/* Not a PortFC port: nothing of PortFC, whatever else is dumped. */
	portfc_dump(&m, TC_SLUICE_PORTFC_NONE, 3, 255);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			"");
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, true, &m.opts),
			"");
	/* A short role attribute is skipped, and so is the block. */
	dump_init(&m);
	dump_put(&m, TCA_SLUICE_PORTFC, NULL, 0);
	dump_u8(&m, TCA_SLUICE_PORTFC_N, 4);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			"");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	ktap_result("print PortFC options");
}

/*
 * The watchdog's options: sent as their attributes, printed back whole
 * (also "watchdog none"), and the text re-parses to the same request.
 */
static void test_watchdog(void)
{
	static const char text[] =
		"watchdog 3,5 watchdog-action forward detection-time 1000ms "
		"restoration-time 300ms watchdog-poll 50ms ";
	struct decoded d, again;
	json_object *obj;
	struct dump m;

	if (KTAP_EXPECT_INT(parse_decode("rate 1mbit watchdog 3,5 watchdog-action forward "
					 "detection-time 1s restoration-time 300ms "
					 "watchdog-poll 0.05s", &d), 0)) {
		KTAP_EXPECT_INT(d.attrs, 1u << TCA_SLUICE_RATE |
				1u << TCA_SLUICE_WD_PRIOS | 1u << TCA_SLUICE_WD_ACTION |
				1u << TCA_SLUICE_WD_DETECT | 1u << TCA_SLUICE_WD_RESTORE |
				1u << TCA_SLUICE_WD_POLL);
		KTAP_EXPECT_INT(d.wd_prios, 0x28);
		KTAP_EXPECT_INT(d.wd_action, TC_SLUICE_WD_FORWARD);
		KTAP_EXPECT_INT(d.wd_detect, 1000);
		KTAP_EXPECT_INT(d.wd_restore, 300);
		KTAP_EXPECT_INT(d.wd_poll, 50);
	}

	dump_init(&m);
	dump_u8(&m, TCA_SLUICE_WD_PRIOS, 0x28);
	dump_u8(&m, TCA_SLUICE_WD_ACTION, TC_SLUICE_WD_FORWARD);
	dump_u32(&m, TCA_SLUICE_WD_DETECT, 1000);
	dump_u32(&m, TCA_SLUICE_WD_RESTORE, 300);
	dump_u32(&m, TCA_SLUICE_WD_POLL, 50);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			text);
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	if (KTAP_EXPECT_INT(parse_decode(text, &again), 0)) {
		KTAP_EXPECT_INT(again.wd_prios, 0x28);
		KTAP_EXPECT_INT(again.wd_action, TC_SLUICE_WD_FORWARD);
		KTAP_EXPECT_INT(again.wd_detect, 1000);
		KTAP_EXPECT_INT(again.wd_restore, 300);
		KTAP_EXPECT_INT(again.wd_poll, 50);
	}
	obj = print_json(&m);
	if (obj) {
		KTAP_EXPECT_STR(json_object_to_json_string_ext(obj,
							       JSON_C_TO_STRING_PLAIN),
				"{\"watchdog\":[3,5],\"watchdog_action\":\"forward\","
				"\"detection_time\":1000,\"restoration_time\":300,"
				"\"watchdog_poll\":50}");
		json_object_put(obj);
	}

	/* Off, and an action newer than the plugin: by number. */
	dump_init(&m);
	dump_u8(&m, TCA_SLUICE_WD_PRIOS, 0);
	dump_u8(&m, TCA_SLUICE_WD_ACTION, 7);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			"watchdog none watchdog-action 7 ");
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, true, &m.opts),
			"\"watchdog\":[],\"watchdog_action\":7");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	ktap_result("watchdog options: request, text, JSON");
}

/*
 * The PCP and priority maps of full_dump() are the defaults of 8 classes.
 * A kernel that says so gets them left out of the text, which typed back
 * in leaves them default; JSON still prints them, and names them.
 */
static const char default_text[] =
	"classes 8 tag dscp default 0 limit 1Mb " PFC_TEXT
	"dscp-map 0-7:0 8-15:1 16-23:2 24-31:3 32-39:4 40-45:5 46:6 47:5 "
	"48-55:6 56-63:7 "
	"mpls-tc-map 0:7 1:6 2:5 3:4 4:3 5:2 6:1 7:0 ";

static void test_print_default_maps(void)
{
	static const char *const names[] = { "priority", "pcp" };
	char text[sizeof(full_text)];
	json_object *obj;
	struct dump m;

	full_dump(&m);
	dump_u8(&m, TCA_SLUICE_DEFAULT_MAPS, RESET_PRIO | RESET_PCP);
	snprintf(text, sizeof(text), "%s",
		 print_with(sluice_qdisc_util.print_qopt, false, &m.opts));
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	KTAP_EXPECT_STR(text, default_text);
	expect_full_reparse(text, 1u << TCA_SLUICE_PCP_MAP |
			    1u << TCA_SLUICE_PRIO_MAP);

	obj = print_json(&m);
	if (obj) {
		KTAP_EXPECT_INT(json_object_object_length(obj), 16);
		expect_full_json(obj);
		expect_json_names(obj, names, ARRAY_SIZE(names));
		json_object_put(obj);
	}
	ktap_result("print qdisc with default maps");
}

/*
 * No map default: text as without the attribute, JSON with an empty list.
 * Every map default: text without maps, re-parsing to no map at all.
 */
static void test_print_default_maps_edges(void)
{
	static const char *const all[] = {
		"priority", "pcp", "dscp", "mpls-tc",
	};
	char text[sizeof(full_text)];
	json_object *obj;
	struct dump m;

	full_dump(&m);
	dump_u8(&m, TCA_SLUICE_DEFAULT_MAPS, 0);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			full_text);
	obj = print_json(&m);
	if (obj) {
		KTAP_EXPECT_INT(json_object_object_length(obj), 16);
		expect_full_json(obj);
		expect_json_names(obj, NULL, 0);
		json_object_put(obj);
	}

	full_dump(&m);
	dump_u8(&m, TCA_SLUICE_DEFAULT_MAPS, 0xf);
	snprintf(text, sizeof(text), "%s",
		 print_with(sluice_qdisc_util.print_qopt, false, &m.opts));
	KTAP_EXPECT_STR(text, "classes 8 tag dscp default 0 limit 1Mb " PFC_TEXT);
	expect_full_reparse(text, 0x1e0);
	obj = print_json(&m);
	if (obj) {
		KTAP_EXPECT_INT(json_object_object_length(obj), 16);
		expect_full_json(obj);
		expect_json_names(obj, all, ARRAY_SIZE(all));
		json_object_put(obj);
	}
	ktap_result("print qdisc with no map or every map default");
}

/*
 * A short TCA_SLUICE_DEFAULT_MAPS is as good as none: every map printed.
 * A bit of a tag source this plugin does not know is not named, as that
 * source's map, which it cannot read either, is not printed.
 */
static void test_print_default_maps_defensive(void)
{
	static const char *const pcp[] = { "pcp" };
	json_object *obj;
	struct dump m;

	full_dump(&m);
	dump_put(&m, TCA_SLUICE_DEFAULT_MAPS, NULL, 0);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			full_text);
	obj = print_json(&m);
	if (obj) {
		KTAP_EXPECT_INT(json_object_object_length(obj), 15);
		json_object_put(obj);
	}

	full_dump(&m);
	dump_u8(&m, TCA_SLUICE_DEFAULT_MAPS, 0x80 | RESET_PCP);
	KTAP_EXPECT(!strncmp(print_with(sluice_qdisc_util.print_qopt, false,
					&m.opts),
			     "classes 8 tag dscp default 0 limit 1Mb " PFC_TEXT
			     "dscp-map ", 48 + sizeof(PFC_TEXT) - 1));
	obj = print_json(&m);
	if (obj) {
		expect_json_names(obj, pcp, ARRAY_SIZE(pcp));
		json_object_put(obj);
	}
	ktap_result("print qdisc default maps defensive");
}

/*
 * Broken and foreign dumps: short scalars and unknown attributes are
 * skipped, an unknown tag source is printed as its number, and only
 * complete, consistent maps are printed.
 */
static void test_print_defensive(void)
{
	static const __u8 mpls_values[] = { 0, 1, 2, 3, 3, 5, 6, 7 };
	struct tc_sluice_map_entry e = {};
	struct dump m;
	__u16 half;
	size_t i;
	int nest;

	dump_init(&m);
	dump_put(&m, TCA_SLUICE_CLASSES, NULL, 0);
	dump_u8(&m, TCA_SLUICE_TAG, 9);
	dump_u8(&m, TCA_SLUICE_DEFAULT, 3);
	half = 1;
	dump_put(&m, TCA_SLUICE_LIMIT, &half, sizeof(half));
	dump_u32(&m, 30, 1234);
	/* pcp: value 7 missing */
	dump_map(&m, TCA_SLUICE_PCP_MAP, pcp_identity, 7);
	/* mpls-tc: 8 entries, but value 3 twice and no value 4 */
	nest = dump_put(&m, TCA_SLUICE_MPLS_TC_MAP | NLA_F_NESTED, NULL, 0);
	for (i = 0; i < ARRAY_SIZE(mpls_values); i++) {
		e.value = mpls_values[i];
		dump_put(&m, TCA_SLUICE_MAP_ENTRY, &e, sizeof(e));
	}
	dump_end_nest(&m, nest);
	/* dscp: 65 entries, the last for value 64 */
	nest = dump_put(&m, TCA_SLUICE_DSCP_MAP | NLA_F_NESTED, NULL, 0);
	for (e.value = 0; e.value <= 64; e.value++)
		dump_put(&m, TCA_SLUICE_MAP_ENTRY, &e, sizeof(e));
	dump_end_nest(&m, nest);
	/* prio: complete, with an attribute of an unknown type inside */
	nest = dump_put(&m, TCA_SLUICE_PRIO_MAP | NLA_F_NESTED, NULL, 0);
	dump_u32(&m, 5, 0);
	e.tclass = 1;
	for (e.value = 0; e.value < 16; e.value++)
		dump_put(&m, TCA_SLUICE_MAP_ENTRY, &e, sizeof(e));
	dump_end_nest(&m, nest);

	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			"tag 9 default 3 prio-map 0-15:1 ");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, true, &m.opts),
			"\"tag\":9,\"default\":3,\"prio_map\":[1,1,1,1,1,1,1,1,"
			"1,1,1,1,1,1,1,1]");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, NULL),
			"");
	ktap_result("print qdisc defensive");
}

/* A kernel before PFC dumps no such option: none is printed. */
static void test_print_pre_pfc(void)
{
	json_object *obj;
	struct dump m;

	pre_pfc_dump(&m);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			pre_pfc_text);
	obj = print_json(&m);
	if (obj) {
		KTAP_EXPECT_INT(json_object_object_length(obj), 8);
		KTAP_EXPECT(!json_object_object_get_ex(obj, "rate", NULL));
		KTAP_EXPECT(!json_object_object_get_ex(obj, "pfc", NULL));
		json_object_put(obj);
	}
	ktap_result("print qdisc of a kernel before PFC");
}

/*
 * An unshaped port without PFC: the zeros print, and re-parse, as zeros;
 * JSON has an empty "pfc" and "pause_rx" false.
 */
static void test_print_pfc_off(void)
{
	static const char text[] =
		"rate 0bit pfc none pause-rx off xoff 0b xon 0b headroom 0b "
		"pause-time 1 ";
	json_object *obj;
	struct decoded d;
	struct dump m;

	dump_init(&m);
	dump_u64(&m, TCA_SLUICE_RATE, 0, true);
	dump_u8(&m, TCA_SLUICE_PFC, 0);
	dump_u8(&m, TCA_SLUICE_PAUSE_RX, 0);
	dump_u32(&m, TCA_SLUICE_XOFF, 0);
	dump_u32(&m, TCA_SLUICE_XON, 0);
	dump_u32(&m, TCA_SLUICE_HEADROOM, 0);
	dump_u16(&m, TCA_SLUICE_PAUSE_TIME, 1);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			text);
	if (!parse_decode(text, &d)) {
		KTAP_EXPECT_INT(d.attrs, PFC_ATTRS);
		KTAP_EXPECT(d.rate == 0);
		KTAP_EXPECT_INT(d.pfc, 0);
		KTAP_EXPECT_INT(d.pause_rx, 0);
		KTAP_EXPECT_INT(d.xoff | d.xon | d.headroom, 0);
		KTAP_EXPECT_INT(d.pause_time, 1);
	}
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, true, &m.opts),
			"\"rate\":0,\"pfc\":[],\"pause_rx\":false,\"xoff\":0,"
			"\"xon\":0,\"headroom\":0,\"pause_time\":1");
	obj = print_json(&m);
	if (obj) {
		expect_json_array(obj, "pfc", NULL, 0);
		expect_json_bool(obj, "pause_rx", false);
		json_object_put(obj);
	}
	ktap_result("print unshaped port without PFC");
}

/*
 * The rate's payload at 4 bytes past 8-byte alignment, no TCA_SLUICE_PAD,
 * every byte of it significant; and rates that are not whole units.
 */
static void test_print_rate(void)
{
	static const struct {
		__u64		rate;
		const char	*text;
		const char	*json;
	} cases[] = {
		{ 0x0123456789abcdefull, "rate 81985529216486895bit ",
		  "\"rate\":81985529216486895" },
		{ 18446744073709551615ull, "rate 18446744073709551615bit ",
		  "\"rate\":18446744073709551615" },
		{ 2500000000ull, "rate 2500Mbit ", "\"rate\":2500000000" },
		{ 400000000000ull, "rate 400Gbit ", "\"rate\":400000000000" },
		{ 12345, "rate 12345bit ", "\"rate\":12345" },
		{ 64000, "rate 64Kbit ", "\"rate\":64000" },
	};
	const struct rtattr *rta;
	struct decoded d;
	struct dump m;
	size_t i;
	int pad;

	for (i = 0; i < 2 * ARRAY_SIZE(cases); i++) {
		pad = i % 2;
		dump_init(&m);
		/* an attribute newer than this plugin; the next is at 8 */
		dump_put(&m, TCA_SLUICE_MAX + 1, NULL, 0);
		dump_u64(&m, TCA_SLUICE_RATE, cases[i / 2].rate, pad);
		rta = (const struct rtattr *)(m.buf + 8);
		if (pad) {
			/* As the kernel's: TCA_SLUICE_PAD, then 8-aligned. */
			KTAP_EXPECT_INT(rta->rta_type, TCA_SLUICE_PAD);
			KTAP_EXPECT_INT(rta->rta_len, RTA_LENGTH(0));
			rta = (const struct rtattr *)(m.buf + 12);
			KTAP_EXPECT_INT(((const char *)RTA_DATA(rta) - m.buf) % 8,
					0);
		} else {
			KTAP_EXPECT_INT(((const char *)RTA_DATA(rta) - m.buf) % 8,
					4);
		}
		KTAP_EXPECT_INT(rta->rta_type, TCA_SLUICE_RATE);
		KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false,
					   &m.opts),
				cases[i / 2].text);
		KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, true,
					   &m.opts), cases[i / 2].json);
		if (!parse_decode(cases[i / 2].text, &d) &&
		    !KTAP_EXPECT(d.rate == cases[i / 2].rate))
			ktap_diag("for \"%s\"", cases[i / 2].text);
	}
	ktap_result("print rate: u64 padded or not, exact units");
}

/* Options too short for their type are skipped, not misread. */
static void test_print_pfc_defensive(void)
{
	__u32 four = 1000;
	struct dump m;

	dump_init(&m);
	dump_put(&m, TCA_SLUICE_RATE, &four, 4);
	dump_put(&m, TCA_SLUICE_PFC, NULL, 0);
	dump_put(&m, TCA_SLUICE_PAUSE_RX, NULL, 0);
	dump_put(&m, TCA_SLUICE_XOFF, &four, 2);
	dump_put(&m, TCA_SLUICE_XON, &four, 3);
	dump_put(&m, TCA_SLUICE_HEADROOM, NULL, 0);
	dump_put(&m, TCA_SLUICE_PAUSE_TIME, &four, 1);
	dump_u8(&m, TCA_SLUICE_CLASSES, 2);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, false, &m.opts),
			"classes 2 ");
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_qopt, true, &m.opts),
			"\"classes\":2");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	ktap_result("print rate and PFC defensive");
}

/* A class dump as the kernel sends it: every option. */
static void class_dump(struct dump *m, __u32 limit, __u32 ecn, __u32 quantum)
{
	dump_init(m);
	dump_u32(m, TCA_SLUICE_CLASS_LIMIT, limit);
	dump_u32(m, TCA_SLUICE_CLASS_ECN, ecn);
	dump_u32(m, TCA_SLUICE_CLASS_QUANTUM, quantum);
}

static void test_print_class(void)
{
	struct dump m;

	class_dump(&m, 51200, 30720, 1514);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_copt, false, &m.opts),
			"limit 50Kb ecn 30Kb quantum 1514b ");
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_copt, true, &m.opts),
			"\"limit\":51200,\"ecn\":30720,\"quantum\":1514");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);

	/* 0 is named in text, a number in JSON. */
	class_dump(&m, 1500, 0, 0);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_copt, false, &m.opts),
			"limit 1500b ecn off quantum strict ");
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_copt, true, &m.opts),
			"\"limit\":1500,\"ecn\":0,\"quantum\":0");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);

	class_dump(&m, 134217727, 134217727, 3028);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_copt, false, &m.opts),
			"limit 134217727b ecn 134217727b quantum 3028b ");
	ktap_result("print class");
}

/* A kernel before ECN dumps the limit alone; broken options are skipped. */
static void test_print_class_old(void)
{
	struct dump m;

	dump_init(&m);
	dump_u32(&m, TCA_SLUICE_CLASS_LIMIT, 1500);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_copt, false, &m.opts),
			"limit 1500b ");
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_copt, true, &m.opts),
			"\"limit\":1500");

	dump_init(&m);
	dump_u32(&m, TCA_SLUICE_CLASS_LIMIT, 1500);
	dump_put(&m, TCA_SLUICE_CLASS_ECN, &m.len, 2);
	dump_put(&m, TCA_SLUICE_CLASS_QUANTUM, NULL, 0);
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_copt, false, &m.opts),
			"limit 1500b ");
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_copt, true, &m.opts),
			"\"limit\":1500");
	KTAP_EXPECT_STR(print_with(sluice_qdisc_util.print_copt, false, NULL),
			"");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	ktap_result("print class of a kernel before ECN, and defensive");
}

/* "tc class show" output, typed back in, gives the same values. */
static void test_print_class_reparse(void)
{
	static const __u32 values[][3] = {
		{ 51200, 30720, 1514 },
		{ 1500, 0, 0 },
		{ 1, 1, 256 },
		{ 134217727, 134217727, 134217727 },
		{ 1048576, 1000, 3028 },
		{ 65535, 0, 1048576 },
	};
	struct class_decoded cd;
	char text[256];
	struct dump m;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(values); i++) {
		class_dump(&m, values[i][0], values[i][1], values[i][2]);
		snprintf(text, sizeof(text), "%s",
			 print_with(sluice_qdisc_util.print_copt, false,
				    &m.opts));
		if (parse_decode_class(text, &cd))
			continue;
		if (!KTAP_EXPECT_INT(cd.attrs, CLASS_ATTR(TCA_SLUICE_CLASS_LIMIT) |
				     CLASS_ATTR(TCA_SLUICE_CLASS_ECN) |
				     CLASS_ATTR(TCA_SLUICE_CLASS_QUANTUM)) ||
		    !KTAP_EXPECT_INT(cd.limit, values[i][0]) ||
		    !KTAP_EXPECT_INT(cd.ecn, values[i][1]) ||
		    !KTAP_EXPECT_INT(cd.quantum, values[i][2]))
			ktap_diag("for \"%s\"", text);
	}
	ktap_result("print class text re-parses");
}

/* An xstats attribute of @len bytes of @st. */
static struct rtattr *xstats_attr(struct dump *m,
				  const struct tc_sluice_xstats *st, int len)
{
	struct rtattr *rta = &m->opts;

	memset(m, 0, sizeof(*m));
	rta->rta_type = TCA_STATS_APP;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), st, len);
	return rta;
}

/* Sizes of the xstats payload, written out: type and reserved, then ... */
#define XSTATS_V1_LEN		24	/* ... the first release's 16 bytes */
#define XSTATS_QDISC_LEN	72	/* ... struct tc_sluice_qdisc_xstats */
#define XSTATS_PFC_LEN		88	/* ... the union before ECN, the class's 80 */
#define XSTATS_ECN_LEN		96	/* ... the union before the watchdog */
#define XSTATS_WD_LEN		136	/* ... the union before the hardening */
#define XSTATS_HARD_LEN		144	/* ... the union before PortFC, the class's 136 */
#define XSTATS_PORTFC_LEN	168	/* ... the union before INT, the qdisc's 160 */
#define XSTATS_LEN		200	/* ... the union, the qdisc's 192 */

static void test_print_xstats_v1(void)
{
	int (*print)(struct qdisc_util *, FILE *, struct rtattr *) =
		sluice_qdisc_util.print_xstats;
	struct tc_sluice_xstats q = {
		.type = TC_SLUICE_XSTATS_QDISC,
		.qdisc = { .untagged = 5, .limit_drops = 1099511627777ull,
			   .pause_rx = 1, .pfc_rx = 2 },
	};
	struct tc_sluice_xstats c = {
		.type = TC_SLUICE_XSTATS_CLASS,
		.cls = { .limit_drops = 7, .peak_backlog = 3000, .pfc_rx = 1 },
	};
	struct tc_sluice_xstats unknown = { .type = 2 };
	struct dump m;

	KTAP_EXPECT_INT(sizeof(struct tc_sluice_xstats), XSTATS_LEN);
	/* A kernel before PFC: the appended fields are not there to print. */
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &q, XSTATS_V1_LEN)),
			" untagged 5 limit_drops 1099511627777");
	KTAP_EXPECT_STR(print_with(print, true,
				   xstats_attr(&m, &q, XSTATS_V1_LEN)),
			"\"untagged\":5,\"limit_drops\":1099511627777");
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &c, XSTATS_V1_LEN)),
			" limit_drops 7 peak_backlog 3000b");
	KTAP_EXPECT_STR(print_with(print, true,
				   xstats_attr(&m, &c, XSTATS_V1_LEN)),
			"\"limit_drops\":7,\"peak_backlog\":3000");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);

	/* Too short for the type's first fields, or for the type itself. */
	KTAP_EXPECT_STR(print_with(print, false, xstats_attr(&m, &q, 23)), "");
	KTAP_EXPECT_STR(print_with(print, false, xstats_attr(&m, &c, 19)), "");
	/* Without the reserved tail: the first fields are all there. */
	KTAP_EXPECT_STR(print_with(print, false, xstats_attr(&m, &c, 20)),
			" limit_drops 7 peak_backlog 3000b");
	KTAP_EXPECT_STR(print_with(print, false, xstats_attr(&m, &q, 3)), "");
	/* A type this plugin does not know. */
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &unknown, sizeof(unknown))),
			"");
	ktap_result("print xstats of a kernel before PFC");
}

static const struct tc_sluice_xstats pfc_qdisc_xstats = {
	.type = TC_SLUICE_XSTATS_QDISC,
	.qdisc = {
		.untagged = 5, .limit_drops = 6, .pause_rx = 1, .pfc_rx = 2,
		.pfc_tx = 3, .pause_malformed = 4, .pause_untrusted = 8,
		.headroom_drops = 1099511627777ull,
	},
};

static const struct tc_sluice_xstats pfc_class_xstats = {
	.type = TC_SLUICE_XSTATS_CLASS,
	.cls = {
		.limit_drops = 7, .peak_backlog = 9000, .pfc_rx = 3,
		.xon_rx = 1, .xoff_tx = 0, .xon_tx = 0, .paused_us = 120,
		.headroom_drops = 0, .paused = 1, .ingress_bytes = 3000,
		.ingress_peak = 6000, .reserved2 = 0xffffffff,
	},
};

static const char pfc_qdisc_text[] =
	" untagged 5 limit_drops 6 pause_rx 1 pfc_rx 2 pfc_tx 3"
	" pause_malformed 4 pause_untrusted 8 headroom_drops 1099511627777";

static const char pfc_class_text[] =
	" limit_drops 7 peak_backlog 9000b pfc_rx 3 xon_rx 1 xoff_tx 0"
	" xon_tx 0 paused_us 120 headroom_drops 0 paused 1 ingress_bytes 3000b"
	" ingress_peak 6000b";

/* Every field of a kernel before ECN, text and JSON. */
static void test_print_xstats_pfc(void)
{
	int (*print)(struct qdisc_util *, FILE *, struct rtattr *) =
		sluice_qdisc_util.print_xstats;
	struct tc_sluice_xstats c = pfc_class_xstats;
	struct dump m;

	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &pfc_qdisc_xstats, XSTATS_LEN)),
			pfc_qdisc_text);
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &pfc_qdisc_xstats,
					       XSTATS_PFC_LEN)),
			pfc_qdisc_text);
	/* The qdisc's struct ends before the union does. */
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &pfc_qdisc_xstats,
					       XSTATS_QDISC_LEN)),
			pfc_qdisc_text);
	KTAP_EXPECT_STR(print_with(print, true,
				   xstats_attr(&m, &pfc_qdisc_xstats, XSTATS_LEN)),
			"\"untagged\":5,\"limit_drops\":6,\"pause_rx\":1,"
			"\"pfc_rx\":2,\"pfc_tx\":3,\"pause_malformed\":4,"
			"\"pause_untrusted\":8,\"headroom_drops\":1099511627777");
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &pfc_class_xstats,
					       XSTATS_PFC_LEN)),
			pfc_class_text);
	KTAP_EXPECT_STR(print_with(print, true,
				   xstats_attr(&m, &pfc_class_xstats,
					       XSTATS_PFC_LEN)),
			"\"limit_drops\":7,\"peak_backlog\":9000,\"pfc_rx\":3,"
			"\"xon_rx\":1,\"xoff_tx\":0,\"xon_tx\":0,"
			"\"paused_us\":120,\"headroom_drops\":0,\"paused\":true,"
			"\"ingress_bytes\":3000,\"ingress_peak\":6000");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	/* Without the reserved tail. */
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &pfc_class_xstats, 84)),
			pfc_class_text);
	c.cls.paused = 0;
	KTAP_EXPECT(strstr(print_with(print, true,
				      xstats_attr(&m, &c, XSTATS_PFC_LEN)),
			   "\"paused\":false,"));
	ktap_result("print xstats with PFC counters");
}

/*
 * ecn_marks ends the class's line when the payload holds it whole; a
 * kernel before ECN (88 bytes) or a cut payload prints the line without
 * it, and what a newer kernel appends after it is skipped.
 */
static void test_print_xstats_ecn(void)
{
	int (*print)(struct qdisc_util *, FILE *, struct rtattr *) =
		sluice_qdisc_util.print_xstats;
	struct {
		struct tc_sluice_xstats	st;
		__u64			appended;
	} newer = { .st = pfc_class_xstats, .appended = 9 };
	struct tc_sluice_xstats c = pfc_class_xstats;
	char text[sizeof(pfc_class_text) + 128];
	struct dump m;
	int len;

	c.cls.ecn_marks = 1099511627777ull;
	newer.st.cls.ecn_marks = 42;
	snprintf(text, sizeof(text), "%s ecn_marks 1099511627777",
		 pfc_class_text);
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &c, XSTATS_ECN_LEN)), text);
	KTAP_EXPECT_STR(print_with(print, true,
				   xstats_attr(&m, &c, XSTATS_ECN_LEN)),
			"\"limit_drops\":7,\"peak_backlog\":9000,\"pfc_rx\":3,"
			"\"xon_rx\":1,\"xoff_tx\":0,\"xon_tx\":0,"
			"\"paused_us\":120,\"headroom_drops\":0,\"paused\":true,"
			"\"ingress_bytes\":3000,\"ingress_peak\":6000,"
			"\"ecn_marks\":1099511627777");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);

	/* Every size short of ecn_marks' end leaves it out. */
	for (len = XSTATS_PFC_LEN; len < XSTATS_ECN_LEN; len++) {
		if (!KTAP_EXPECT_STR(print_with(print, false,
						xstats_attr(&m, &c, len)),
				     pfc_class_text))
			ktap_diag("for %d bytes", len);
	}
	KTAP_EXPECT(!strstr(print_with(print, true,
				       xstats_attr(&m, &c, XSTATS_PFC_LEN)),
			    "ecn_marks"));

	snprintf(text, sizeof(text),
		 "%s ecn_marks 42 wd_storms 0 wd_restored 0 wd_drops 0"
		 " wd_forwarded 0 storm 0 wd_ingress_drops 0",
		 pfc_class_text);
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &newer.st, sizeof(newer))),
			text);
	KTAP_EXPECT_INT(sizeof(newer), XSTATS_LEN + 8);
	/* A qdisc's payload of the new size has no class field in it. */
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &pfc_qdisc_xstats, XSTATS_ECN_LEN)),
			pfc_qdisc_text);
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	ktap_result("print xstats with ecn_marks");
}

/*
 * A payload that ends inside the appended fields prints those it holds
 * whole, and none cut short.
 */
/*
 * The watchdog's counters and storm flag follow ecn_marks, each printed
 * when the payload holds it whole; storm is a boolean in JSON.
 */
static void test_print_xstats_wd(void)
{
	int (*print)(struct qdisc_util *, FILE *, struct rtattr *) =
		sluice_qdisc_util.print_xstats;
	struct tc_sluice_xstats c = pfc_class_xstats;
	char text[sizeof(pfc_class_text) + 128];
	struct dump m;

	c.cls.ecn_marks = 2;
	c.cls.wd_storms = 3;
	c.cls.wd_restored = 2;
	c.cls.wd_drops = 1099511627777ull;
	c.cls.wd_forwarded = 5;
	c.cls.storm = 1;
	snprintf(text, sizeof(text),
		 "%s ecn_marks 2 wd_storms 3 wd_restored 2"
		 " wd_drops 1099511627777 wd_forwarded 5 storm 1",
		 pfc_class_text);
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &c, XSTATS_WD_LEN)), text);
	KTAP_EXPECT(strstr(print_with(print, true,
				      xstats_attr(&m, &c, XSTATS_WD_LEN)),
			   "\"ecn_marks\":2,\"wd_storms\":3,\"wd_restored\":2,"
			   "\"wd_drops\":1099511627777,\"wd_forwarded\":5,"
			   "\"storm\":true"));
	/* Cut inside wd_drops: up to wd_restored. */
	snprintf(text, sizeof(text), "%s ecn_marks 2 wd_storms 3 wd_restored 2",
		 pfc_class_text);
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &c, XSTATS_ECN_LEN + 20)),
			text);
	/* Cut inside storm: every counter, no flag. */
	KTAP_EXPECT(!strstr(print_with(print, false,
				       xstats_attr(&m, &c, XSTATS_WD_LEN - 6)),
			    "storm "));
	c.cls.storm = 0;
	KTAP_EXPECT(strstr(print_with(print, true,
				      xstats_attr(&m, &c, XSTATS_WD_LEN)),
			   "\"storm\":false"));
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	ktap_result("print xstats with watchdog counters");
}

/*
 * Since version 1: the class's wd_ingress_drops ends its line when the
 * payload holds it; the qdisc's pause_ignored and pfc_tx_failed are
 * printed only from a version 1 payload, since an older kernel's union
 * tail, of the same length, holds no such fields.
 */
static void test_print_xstats_v1_fields(void)
{
	int (*print)(struct qdisc_util *, FILE *, struct rtattr *) =
		sluice_qdisc_util.print_xstats;
	struct tc_sluice_xstats c = pfc_class_xstats;
	struct tc_sluice_xstats q = pfc_qdisc_xstats;
	char text[sizeof(pfc_qdisc_text) + 128];
	struct dump m;

	c.cls.wd_ingress_drops = 1099511627777ull;
	KTAP_EXPECT(strstr(print_with(print, false,
				      xstats_attr(&m, &c, XSTATS_HARD_LEN)),
			   " storm 0 wd_ingress_drops 1099511627777"));
	KTAP_EXPECT(strstr(print_with(print, true,
				      xstats_attr(&m, &c, XSTATS_HARD_LEN)),
			   "\"storm\":false,\"wd_ingress_drops\":1099511627777"));
	KTAP_EXPECT(!strstr(print_with(print, false,
				       xstats_attr(&m, &c, XSTATS_HARD_LEN - 1)),
			    "wd_ingress_drops"));

	q.qdisc.pause_ignored = 7;
	q.qdisc.pfc_tx_failed = 1099511627777ull;
	/* Version 0 of the full length: an older kernel's garbage tail. */
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &q, XSTATS_HARD_LEN)),
			pfc_qdisc_text);
	q.version = 1;
	snprintf(text, sizeof(text),
		 "%s pause_ignored 7 pfc_tx_failed 1099511627777",
		 pfc_qdisc_text);
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &q, XSTATS_HARD_LEN)), text);
	KTAP_EXPECT(strstr(print_with(print, true,
				      xstats_attr(&m, &q, XSTATS_HARD_LEN)),
			   "\"headroom_drops\":1099511627777,\"pause_ignored\":7,"
			   "\"pfc_tx_failed\":1099511627777"));
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	ktap_result("print xstats of version 1");
}

/*
 * Since version 2: PortFC's qdisc counters after pfc_tx_failed, and the
 * class's portfc_relayed, from a version 2 payload only (the union grew
 * with the qdisc's struct, so a payload's length no longer tells).
 */
static void test_print_xstats_v2_fields(void)
{
	int (*print)(struct qdisc_util *, FILE *, struct rtattr *) =
		sluice_qdisc_util.print_xstats;
	struct tc_sluice_xstats c = pfc_class_xstats;
	struct tc_sluice_xstats q = pfc_qdisc_xstats;
	char text[sizeof(pfc_qdisc_text) + 512];
	struct dump m;

	c.cls.portfc_relayed = 1099511627777ull;
	c.version = 1;
	KTAP_EXPECT(!strstr(print_with(print, false,
				       xstats_attr(&m, &c, XSTATS_PORTFC_LEN)),
			    "portfc_relayed"));
	c.version = 2;
	KTAP_EXPECT(strstr(print_with(print, false,
				      xstats_attr(&m, &c, XSTATS_PORTFC_LEN)),
			   " wd_ingress_drops 0 portfc_relayed 1099511627777"));
	KTAP_EXPECT(strstr(print_with(print, true,
				      xstats_attr(&m, &c, XSTATS_PORTFC_LEN)),
			   "\"wd_ingress_drops\":0,\"portfc_relayed\":1099511627777"));
	KTAP_EXPECT(!strstr(print_with(print, false,
				       xstats_attr(&m, &c, XSTATS_HARD_LEN + 7)),
			    "portfc_relayed"));

	q.qdisc.pause_ignored = 7;
	q.qdisc.portfc_rx = 1;
	q.qdisc.portfc_malformed = 2;
	q.qdisc.portfc_ignored = 3;
	q.qdisc.portfc_relayed = 4;
	q.qdisc.portfc_unknown = 5;
	q.qdisc.portfc_hq = 6;
	q.qdisc.portfc_xoff_a = 7;
	q.qdisc.portfc_xon_a = 8;
	q.qdisc.portfc_xoff_b = 9;
	q.qdisc.portfc_xon_b = 1099511627777ull;
	/* Version 1 of the new length: those bytes are no counters of its. */
	q.version = 1;
	snprintf(text, sizeof(text), "%s pause_ignored 7 pfc_tx_failed 0",
		 pfc_qdisc_text);
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &q, XSTATS_PORTFC_LEN)), text);
	q.version = 2;
	snprintf(text, sizeof(text),
		 "%s pause_ignored 7 pfc_tx_failed 0 portfc_rx 1"
		 " portfc_malformed 2 portfc_ignored 3 portfc_relayed 4"
		 " portfc_unknown 5 portfc_hq 6 portfc_xoff_a 7 portfc_xon_a 8"
		 " portfc_xoff_b 9 portfc_xon_b 1099511627777", pfc_qdisc_text);
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &q, XSTATS_PORTFC_LEN)), text);
	KTAP_EXPECT(strstr(print_with(print, true,
				      xstats_attr(&m, &q, XSTATS_PORTFC_LEN)),
			   "\"pfc_tx_failed\":0,\"portfc_rx\":1,"
			   "\"portfc_malformed\":2,\"portfc_ignored\":3,"
			   "\"portfc_relayed\":4,\"portfc_unknown\":5,"
			   "\"portfc_hq\":6,\"portfc_xoff_a\":7,"
			   "\"portfc_xon_a\":8,\"portfc_xoff_b\":9,"
			   "\"portfc_xon_b\":1099511627777"));
	/* Cut 1 byte short: every counter but the last. */
	KTAP_EXPECT(!strstr(print_with(print, false,
				       xstats_attr(&m, &q, XSTATS_PORTFC_LEN - 1)),
			    "portfc_xon_b") &&
		    strstr(fake_tc_output(), " portfc_xoff_b 9"));
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	ktap_result("print xstats of version 2");
}

/*
 * Since version 3: in-band telemetry's qdisc counters after PortFC's,
 * from a version 3 payload only, each when the payload holds it whole.
 */
static void test_print_xstats_v3_fields(void)
{
	int (*print)(struct qdisc_util *, FILE *, struct rtattr *) =
		sluice_qdisc_util.print_xstats;
	struct tc_sluice_xstats q = pfc_qdisc_xstats;
	char v2[sizeof(pfc_qdisc_text) + 512], text[sizeof(v2) + 128];
	struct dump m;

	q.qdisc.int_stamped = 1;
	q.qdisc.int_full = 2;
	q.qdisc.int_malformed = 3;
	q.qdisc.int_unwritable = 1099511627777ull;
	snprintf(v2, sizeof(v2),
		 "%s pause_ignored 0 pfc_tx_failed 0 portfc_rx 0"
		 " portfc_malformed 0 portfc_ignored 0 portfc_relayed 0"
		 " portfc_unknown 0 portfc_hq 0 portfc_xoff_a 0 portfc_xon_a 0"
		 " portfc_xoff_b 0 portfc_xon_b 0", pfc_qdisc_text);
	/* Version 2 of the new length: those bytes are no counters of its. */
	q.version = 2;
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &q, XSTATS_LEN)), v2);
	q.version = 3;
	snprintf(text, sizeof(text),
		 "%s int_stamped 1 int_full 2 int_malformed 3"
		 " int_unwritable 1099511627777", v2);
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &q, XSTATS_LEN)), text);
	KTAP_EXPECT(strstr(print_with(print, true,
				      xstats_attr(&m, &q, XSTATS_LEN)),
			   "\"portfc_xon_b\":0,\"int_stamped\":1,\"int_full\":2,"
			   "\"int_malformed\":3,\"int_unwritable\":1099511627777"));
	/* Cut 1 byte short: every counter but the last. */
	KTAP_EXPECT(!strstr(print_with(print, false,
				       xstats_attr(&m, &q, XSTATS_LEN - 1)),
			    "int_unwritable") &&
		    strstr(fake_tc_output(), " int_malformed 3"));
	/* A PortFC-era payload of version 3 ends before them. */
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &q, XSTATS_PORTFC_LEN)), v2);
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	ktap_result("print xstats of version 3");
}

static void test_print_xstats_partial(void)
{
	int (*print)(struct qdisc_util *, FILE *, struct rtattr *) =
		sluice_qdisc_util.print_xstats;
	struct dump m;

	/* qdisc: up to pfc_rx (40), then 4 bytes into pfc_tx */
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &pfc_qdisc_xstats, 40)),
			" untagged 5 limit_drops 6 pause_rx 1 pfc_rx 2");
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &pfc_qdisc_xstats, 44)),
			" untagged 5 limit_drops 6 pause_rx 1 pfc_rx 2");
	KTAP_EXPECT_STR(print_with(print, true,
				   xstats_attr(&m, &pfc_qdisc_xstats, 31)),
			"\"untagged\":5,\"limit_drops\":6");
	/* class: up to paused (76), then 2 bytes into ingress_bytes */
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &pfc_class_xstats, 76)),
			" limit_drops 7 peak_backlog 9000b pfc_rx 3 xon_rx 1 xoff_tx 0"
			" xon_tx 0 paused_us 120 headroom_drops 0 paused 1");
	KTAP_EXPECT_STR(print_with(print, false,
				   xstats_attr(&m, &pfc_class_xstats, 78)),
			" limit_drops 7 peak_backlog 9000b pfc_rx 3 xon_rx 1 xoff_tx 0"
			" xon_tx 0 paused_us 120 headroom_drops 0 paused 1");
	KTAP_EXPECT_STR(print_with(print, true,
				   xstats_attr(&m, &pfc_class_xstats, 32)),
			"\"limit_drops\":7,\"peak_backlog\":9000,\"pfc_rx\":3");
	KTAP_EXPECT_STR(fake_tc_misuse(), NULL);
	ktap_result("print xstats cut short");
}

static void test_util(void)
{
	KTAP_EXPECT_STR(sluice_qdisc_util.id, "sluice");
	KTAP_EXPECT(sluice_qdisc_util.parse_qopt && sluice_qdisc_util.print_qopt &&
		    sluice_qdisc_util.print_xstats &&
		    sluice_qdisc_util.parse_copt && sluice_qdisc_util.print_copt);
	KTAP_EXPECT(!sluice_qdisc_util.has_block && !sluice_qdisc_util.next);
	ktap_result("qdisc_util");
}

/*
 * Runs last: the print tests above held sluice_qopt_format() against the
 * plugin on each text dump they printed (expect_lib_format()); that must
 * have been most of them, not none because decoding failed.
 */
static void test_lib_format_compared(void)
{
	if (!KTAP_EXPECT(lib_compared >= 25))
		ktap_diag("only %u dumps compared", lib_compared);
	ktap_diag("sluice_qopt_format() held against the plugin on %u dumps; %u refused by sluice_qopt_decode()",
		  lib_compared, lib_refused);
	ktap_result("libsluice formats dumps as the plugin prints them");
}

static void (*const tests[])(void) = {
	test_util,
	test_parse_empty,
	test_parse_scalars,
	test_parse_pfc,
	test_parse_xoff_auto,
	test_parse_tags,
	test_parse_pcp_map,
	test_parse_sparse_maps,
	test_parse_default_maps,
	test_parse_everything,
	test_parse_portfc,
	test_parse_int,
	test_parse_error,
	test_parse_help,
	test_parse_class,
	test_parse_class_ecn_quantum,
	test_parse_class_error,
	test_print_text,
	test_print_json,
	test_print_reparse,
	test_print_default_maps,
	test_watchdog,
	test_print_portfc,
	test_print_int,
	test_print_default_maps_edges,
	test_print_default_maps_defensive,
	test_print_defensive,
	test_print_pre_pfc,
	test_print_pfc_off,
	test_print_rate,
	test_print_pfc_defensive,
	test_print_class,
	test_print_class_old,
	test_print_class_reparse,
	test_print_xstats_v1,
	test_print_xstats_pfc,
	test_print_xstats_ecn,
	test_print_xstats_wd,
	test_print_xstats_v1_fields,
	test_print_xstats_v2_fields,
	test_print_xstats_v3_fields,
	test_print_xstats_partial,
	test_lib_format_compared,
};

int main(void)
{
	size_t i;

	init_maps();
	ktap_plan(ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
