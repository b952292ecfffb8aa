// SPDX-License-Identifier: GPL-2.0-or-later
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
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sluice.h>
#include <sluice/headroom.h>
#include <sluice/map.h>
#include <sluice/pfc.h>
#include <sluice/portfc.h>
#include <sluice/qopt.h>
#include <sluice/rate.h>
#include <sluice/size.h>
#include <sluice/tag.h>
#include "tc_abi.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * Bounds for addattr_l().  tc does not pass the size of its request buffer;
 * tc_qdisc_modify()'s has 64 KiB after the headers and tc_class_modify()'s
 * 4 KiB.  The largest qdisc request, every option and every map entry, is
 * under 1 KiB.
 */
#define QDISC_MSG_MAX	16384
#define CLASS_MSG_MAX	4096
/* Room for the qdisc's options, with every map entry: four times that. */
#define QOPT_MAX	4096

static void usage(void)
{
	fprintf(stderr,
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
		"       N is 1..%u, CLASS is 0..N-1, BYTES is 1..%u, e.g. 1500, 64k, 1m\n"
		"       (0..%u for xoff, xon and headroom)\n"
		"       RATE is bits/s, e.g. 100mbit, 2.5gbit, 10gbit; 0 leaves the port unshaped\n"
		"       QUANTA is 1..65535 pause quanta of 512 bit times\n"
		"       VALUE is pcp 0-7, dscp 0-63, mpls-tc 0-7, prio 0-15\n"
		"       a MAP of \"default\" resets the map to its default, which follows N\n"
		"       xoff auto: headroom is the PFC headroom (sluicectl headroom) of RATE\n"
		"       over METRES of cable (0..%u, default %u) with frames of mtu BYTES\n"
		"       (default the device's MTU + 14), xoff is limit - headroom, and xon,\n"
		"       unless given, xoff - mtu; it needs rate and limit, and excludes headroom\n"
		"       watchdog: the PFC watchdog on those priorities' classes; TIME is\n"
		"       %u..%u ms, as 200, 200ms or 0.2s (defaults: detection-time %u,\n"
		"       restoration-time %u, watchdog-poll %u, at most detection-time)\n"
		"       portfc: a port of a BCube(n, k) switch or server (PortFC); N is\n"
		"       2..%u, K 0..%u (default %u), I 0..N-1, LABEL that of port index 0\n"
		"       (default %u), KIND ack or arp (default ack,arp), DSCP 0..63 (default\n"
		"       none); portfc-rtt sets xoff 6 and xon 4 bandwidth-delay products of\n"
		"       rate over RTT (e.g. 200us, 1.5ms) for both queue types; needs rate\n"
		"       int-port: in-band telemetry, on a root qdisc; the port stamps a\n"
		"       record into each probe (IPv4 UDP to PORT, 0..65535, 0: off) it\n"
		"       sends, naming itself by NODE and LINK (0..4294967295, default 0)\n",
		TC_SLUICE_MAX_CLASSES, TC_SLUICE_MAX_LIMIT, TC_SLUICE_MAX_LIMIT,
		SLUICE_CABLE_MAX_M, SLUICE_CABLE_DEFAULT_M,
		TC_SLUICE_WD_MIN_MS, TC_SLUICE_WD_MAX_MS,
		TC_SLUICE_WD_DETECT_DEFAULT, TC_SLUICE_WD_RESTORE_DEFAULT,
		TC_SLUICE_WD_POLL_DEFAULT, TC_SLUICE_PORTFC_MAX_N,
		TC_SLUICE_PORTFC_MAX_K, SLUICE_PORTFC_K_DEFAULT,
		TC_SLUICE_PORTFC_LABEL_BASE_DEFAULT);
}

static void class_usage(void)
{
	fprintf(stderr,
		"Usage: ... sluice [ limit BYTES ] [ ecn { BYTES | off } ]\n"
		"                  [ quantum { BYTES | strict } ]\n"
		"       BYTES is 1..%u, e.g. 1500, 64k, 1m; %u..%u for quantum\n"
		"       ecn marks CE on ECT frames while the class holds more than BYTES;\n"
		"       off (or 0) marks none\n"
		"       quantum shares the link by DWRR among the classes that have one,\n"
		"       BYTES per round; strict (or 0) serves the class by priority\n",
		TC_SLUICE_MAX_LIMIT, TC_SLUICE_MIN_QUANTUM, TC_SLUICE_MAX_LIMIT);
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

/*
 * libsluice encodes the options, so that tc and sluicectl's fabric send
 * the same bytes; they go in whole as the TCA_OPTIONS nest.
 */
static int put_qopt(struct nlmsghdr *n, const struct sluice_qopt *o)
{
	unsigned char buf[QOPT_MAX];
	size_t used;

	if (sluice_qopt_encode(o, buf, sizeof(buf), &used))
		return -1;
	return addattr_l(n, QDISC_MSG_MAX, TCA_OPTIONS | NLA_F_NESTED, buf,
			 used);
}

/*
 * The MTU of @dev in the current network namespace (tc -n has switched to
 * it), or 0 if it cannot be read.  Any socket reaches the device ioctls.
 */
static __u32 dev_mtu(const char *dev)
{
	struct ifreq ifr = {};
	int fd, ret;

	if (!dev || strlen(dev) >= sizeof(ifr.ifr_name))
		return 0;
	strcpy(ifr.ifr_name, dev);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	ret = ioctl(fd, SIOCGIFMTU, &ifr);
	close(fd);
	return ret || ifr.ifr_mtu < 0 ? 0 : (__u32)ifr.ifr_mtu;
}

static int parse_opt(struct qdisc_util *qu, int argc, char **argv,
		     struct nlmsghdr *n, const char *dev)
{
	char err[SLUICE_ERRLEN];
	struct sluice_qopt o;
	__u32 mtu = 0;
	int ret;

	(void)qu;
	ret = sluice_qopt_parse(&o, argc, argv, err, sizeof(err));
	if (!ret && o.present & SLUICE_QOPT_XOFF_AUTO) {
		if (!(o.present & SLUICE_QOPT_MTU))
			mtu = dev_mtu(dev);
		ret = sluice_qopt_xoff_auto(&o, dev, mtu, err, sizeof(err));
	}
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
	if ((o.present & SLUICE_COPT_LIMIT &&
	     addattr_l(n, CLASS_MSG_MAX, TCA_SLUICE_CLASS_LIMIT, &o.limit, 4)) ||
	    (o.present & SLUICE_COPT_ECN &&
	     addattr_l(n, CLASS_MSG_MAX, TCA_SLUICE_CLASS_ECN, &o.ecn, 4)) ||
	    (o.present & SLUICE_COPT_QUANTUM &&
	     addattr_l(n, CLASS_MSG_MAX, TCA_SLUICE_CLASS_QUANTUM, &o.quantum,
		       4)))
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

static int get_u16(const struct rtattr *rta, __u16 *val)
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

/*
 * A u64 is 4-aligned in netlink: the kernel's nla_put_u64_64bit() puts a
 * TCA_SLUICE_PAD before it only where 8-byte alignment matters, so the
 * payload may sit anywhere.  memcpy() reads it whatever its address.
 */
static int get_u64(const struct rtattr *rta, __u64 *val)
{
	if (!rta || RTA_PAYLOAD(rta) < (int)sizeof(*val))
		return -1;
	memcpy(val, RTA_DATA(rta), sizeof(*val));
	return 0;
}

/*
 * An enum option: "TEXT NAME " in text and NAME in JSON, or the number
 * where @name is NULL (a value newer than this plugin).
 */
static void print_enum(const char *json, const char *text, const char *name,
		       unsigned int val)
{
	print_string(PRINT_FP, NULL, "%s ", text);
	if (name)
		print_string(PRINT_ANY, json, "%s ", name);
	else
		print_uint(PRINT_ANY, json, "%u ", val);
}

static void print_tag(const struct rtattr *rta)
{
	__u8 tag;

	if (get_u8(rta, &tag))
		return;
	print_enum("tag", "tag", sluice_tag_name(tag), tag);
}

/* A size in bytes: a number in JSON, "TEXT 50Kb " in text. */
static void print_size_as(const struct rtattr *rta, const char *json,
			  const char *text)
{
	char buf[SLUICE_SIZE_STRLEN];
	__u32 bytes;

	if (get_u32(rta, &bytes))
		return;
	print_uint(PRINT_JSON, json, NULL, bytes);
	print_string(PRINT_FP, NULL, "%s ", text);
	print_string(PRINT_FP, NULL, "%s ",
		     sluice_format_size(bytes, buf, sizeof(buf)));
}

static void print_size(const struct rtattr *rta, const char *name)
{
	print_size_as(rta, name, name);
}

static void print_limit(const struct rtattr *rta)
{
	print_size(rta, "limit");
}

/*
 * A size whose 0 has a name ("ecn off", "quantum strict"): text prints the
 * name, which re-parses to 0; JSON prints 0.
 */
static void print_size_or(const struct rtattr *rta, const char *name,
			  const char *zero)
{
	__u32 bytes;

	if (get_u32(rta, &bytes))
		return;
	if (bytes) {
		print_size(rta, name);
		return;
	}
	print_uint(PRINT_JSON, name, NULL, 0);
	print_string(PRINT_FP, NULL, "%s ", name);
	print_string(PRINT_FP, NULL, "%s ", zero);
}

/* bits/s: a number in JSON, the largest exact unit in text, "10Gbit". */
static void print_rate(const struct rtattr *rta)
{
	char buf[SLUICE_RATE_STRLEN];
	__u64 rate;

	if (get_u64(rta, &rate))
		return;
	print_u64(PRINT_JSON, "rate", NULL, rate);
	print_string(PRINT_FP, NULL, "rate %s ",
		     sluice_format_rate(rate, buf, sizeof(buf)));
}

/* The lossless priorities: an array in JSON, "pfc 3,4" or "pfc none". */
static void print_pfc(const struct rtattr *rta)
{
	char buf[SLUICE_PFC_STRLEN];
	unsigned int p;
	__u8 pfc;

	if (get_u8(rta, &pfc))
		return;
	open_json_array(PRINT_JSON, "pfc");
	for (p = 0; p < SLUICE_PFC_PRIOS; p++)
		if (pfc & (1u << p))
			print_uint(PRINT_JSON, NULL, NULL, p);
	close_json_array(PRINT_JSON, NULL);
	print_string(PRINT_FP, NULL, "pfc %s ",
		     sluice_pfc_format(pfc, buf, sizeof(buf)));
}

/* The link and PFC, in the order of the usage. */
static void print_pfc_opts(struct rtattr *tb[])
{
	__u16 quanta;
	__u8 val;

	print_rate(tb[TCA_SLUICE_RATE]);
	print_pfc(tb[TCA_SLUICE_PFC]);
	if (!get_u8(tb[TCA_SLUICE_PAUSE_RX], &val)) {
		print_bool(PRINT_JSON, "pause_rx", NULL, val);
		print_string(PRINT_FP, NULL, "pause-rx %s ", val ? "on" : "off");
	}
	print_size(tb[TCA_SLUICE_XOFF], "xoff");
	print_size(tb[TCA_SLUICE_XON], "xon");
	print_size(tb[TCA_SLUICE_HEADROOM], "headroom");
	if (!get_u16(tb[TCA_SLUICE_PAUSE_TIME], &quanta))
		print_uint(PRINT_ANY, "pause_time", "pause-time %u ", quanta);
}

/*
 * A number under a JSON key and a text word that differ: "TEXT " then
 * @val by @fmt ("%u ", "%ums ") in text, the bare number in JSON.
 */
static void print_num_as(const char *json, const char *text, const char *fmt,
			 unsigned int val)
{
	print_uint(PRINT_JSON, json, NULL, val);
	print_string(PRINT_FP, NULL, "%s ", text);
	print_uint(PRINT_FP, NULL, fmt, val);
}

/* A watchdog time: ms in JSON, "NAME 200ms" in text. */
static void print_ms(const struct rtattr *rta, const char *json,
		     const char *text)
{
	__u32 ms;

	if (!get_u32(rta, &ms))
		print_num_as(json, text, "%ums ", ms);
}

/*
 * The PFC watchdog, printed whole whenever the kernel dumps it (also
 * "watchdog none"), so that the text re-parses to the same settings.  A
 * PortFC port watches all its data classes for any priority set: "all"
 * (JSON: the string "all").
 */
static void print_wd_opts(struct rtattr *tb[])
{
	char buf[SLUICE_PFC_STRLEN];
	unsigned int p;
	__u8 val, role;

	if (!get_u8(tb[TCA_SLUICE_WD_PRIOS], &val) && val &&
	    !get_u8(tb[TCA_SLUICE_PORTFC], &role) && role) {
		print_string(PRINT_ANY, "watchdog", "watchdog %s ", "all");
	} else if (!get_u8(tb[TCA_SLUICE_WD_PRIOS], &val)) {
		open_json_array(PRINT_JSON, "watchdog");
		for (p = 0; p < SLUICE_PFC_PRIOS; p++)
			if (val & (1u << p))
				print_uint(PRINT_JSON, NULL, NULL, p);
		close_json_array(PRINT_JSON, NULL);
		print_string(PRINT_FP, NULL, "watchdog %s ",
			     sluice_pfc_format(val, buf, sizeof(buf)));
	}
	if (!get_u8(tb[TCA_SLUICE_WD_ACTION], &val)) {
		print_enum("watchdog_action", "watchdog-action",
			   sluice_wd_action_name(val), val);
	}
	print_ms(tb[TCA_SLUICE_WD_DETECT], "detection_time", "detection-time");
	print_ms(tb[TCA_SLUICE_WD_RESTORE], "restoration_time",
		 "restoration-time");
	print_ms(tb[TCA_SLUICE_WD_POLL], "watchdog_poll", "watchdog-poll");
}

/* A u8 option: "TEXT 4 " in text, a number in JSON. */
static void print_u8_opt(const struct rtattr *rta, const char *json,
			 const char *text)
{
	__u8 val;

	if (!get_u8(rta, &val))
		print_num_as(json, text, "%u ", val);
}

/* What HQ holds: an array of names in JSON, "portfc-hq ack,arp" in text. */
static void print_portfc_hq(const struct rtattr *rta)
{
	char buf[SLUICE_PORTFC_HQ_STRLEN];
	const char *name;
	unsigned int bit;
	__u8 hq;

	if (get_u8(rta, &hq))
		return;
	/* A kind newer than this plugin is left out, as in the text. */
	open_json_array(PRINT_JSON, "portfc_hq");
	for (bit = 1; bit <= 0x80; bit <<= 1) {
		name = sluice_portfc_hq_name(bit);
		if (hq & bit && name)
			print_string(PRINT_JSON, NULL, NULL, name);
	}
	close_json_array(PRINT_JSON, NULL);
	print_string(PRINT_FP, NULL, "portfc-hq %s ",
		     sluice_portfc_hq_format(hq, buf, sizeof(buf)));
}

/*
 * PortFC's settings, on a PortFC port only: an older kernel's dump, and a
 * port whose role is NONE, print as before.  The thresholds print as xoff
 * does, the HQ DSCP's 255 as "none" in text (JSON has the number), so the
 * text re-parses.
 */
static void print_portfc_opts(struct rtattr *tb[])
{
	__u32 label;
	__u8 role, dscp;

	if (get_u8(tb[TCA_SLUICE_PORTFC], &role) ||
	    role == TC_SLUICE_PORTFC_NONE)
		return;
	print_enum("portfc", "portfc", sluice_portfc_role_name(role), role);
	print_u8_opt(tb[TCA_SLUICE_PORTFC_N], "portfc_n", "portfc-n");
	print_u8_opt(tb[TCA_SLUICE_PORTFC_K], "portfc_k", "portfc-k");
	print_u8_opt(tb[TCA_SLUICE_PORTFC_INDEX], "portfc_index",
		     "portfc-index");
	if (!get_u32(tb[TCA_SLUICE_PORTFC_LABEL_BASE], &label))
		print_uint(PRINT_ANY, "portfc_label_base",
			   "portfc-label-base %u ", label);
	print_size_as(tb[TCA_SLUICE_PORTFC_XOFF_A], "portfc_xoff_a",
		      "portfc-xoff-a");
	print_size_as(tb[TCA_SLUICE_PORTFC_XON_A], "portfc_xon_a",
		      "portfc-xon-a");
	print_size_as(tb[TCA_SLUICE_PORTFC_XOFF_B], "portfc_xoff_b",
		      "portfc-xoff-b");
	print_size_as(tb[TCA_SLUICE_PORTFC_XON_B], "portfc_xon_b",
		      "portfc-xon-b");
	print_portfc_hq(tb[TCA_SLUICE_PORTFC_HQ]);
	if (!get_u8(tb[TCA_SLUICE_PORTFC_HQ_DSCP], &dscp)) {
		print_uint(PRINT_JSON, "portfc_hq_dscp", NULL, dscp);
		if (dscp == TC_SLUICE_PORTFC_DSCP_NONE)
			print_string(PRINT_FP, NULL, "portfc-hq-dscp %s ",
				     "none");
		else
			print_uint(PRINT_FP, NULL, "portfc-hq-dscp %u ", dscp);
	}
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

/*
 * In-band telemetry, where the kernel dumps it (any of it set): older
 * kernels' dumps, and ports without it, print as before.
 */
static void print_int_opts(struct rtattr *tb[])
{
	__u16 port;
	__u32 id;

	if (!get_u16(tb[TCA_SLUICE_INT_PORT], &port))
		print_uint(PRINT_ANY, "int_port", "int-port %u ", port);
	if (!get_u32(tb[TCA_SLUICE_INT_NODE], &id))
		print_uint(PRINT_ANY, "int_node", "int-node %u ", id);
	if (!get_u32(tb[TCA_SLUICE_INT_LINK], &id))
		print_uint(PRINT_ANY, "int_link", "int-link %u ", id);
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
	print_pfc_opts(tb);
	print_maps(tb);
	print_wd_opts(tb);
	print_portfc_opts(tb);
	print_int_opts(tb);
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
	print_size_or(tb[TCA_SLUICE_CLASS_ECN], "ecn", "off");
	print_size_or(tb[TCA_SLUICE_CLASS_QUANTUM], "quantum", "strict");
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

/* How an appended xstats field reads. */
enum xstat_kind {
	XSTAT_COUNT,	/* "name 3", JSON number */
	XSTAT_BYTES,	/* "name 3000b", JSON number */
	XSTAT_FLAG,	/* "name 1", JSON true or false */
};

struct xstat {
	const char	*name;
	int		offset;		/* in struct tc_sluice_xstats */
	int		end;
	int		size;		/* 4 or 8 */
	enum xstat_kind	kind;
};

#define XSTAT(_name, field, _kind) {					\
	.name = _name,							\
	.offset = offsetof(struct tc_sluice_xstats, field),		\
	.end = XSTATS_END(field),					\
	.size = sizeof(((struct tc_sluice_xstats *)0)->field),		\
	.kind = _kind,							\
}

/*
 * Appended since the first release, in the order of the struct; each is
 * printed only if the payload reaches its end.
 */
static const struct xstat qdisc_pfc_xstats[] = {
	XSTAT("pause_rx", qdisc.pause_rx, XSTAT_COUNT),
	XSTAT("pfc_rx", qdisc.pfc_rx, XSTAT_COUNT),
	XSTAT("pfc_tx", qdisc.pfc_tx, XSTAT_COUNT),
	XSTAT("pause_malformed", qdisc.pause_malformed, XSTAT_COUNT),
	XSTAT("pause_untrusted", qdisc.pause_untrusted, XSTAT_COUNT),
	XSTAT("headroom_drops", qdisc.headroom_drops, XSTAT_COUNT),
};

/* The qdisc's fields since xstats version 1 (see the uapi). */
static const struct xstat qdisc_v1_xstats[] = {
	XSTAT("pause_ignored", qdisc.pause_ignored, XSTAT_COUNT),
	XSTAT("pfc_tx_failed", qdisc.pfc_tx_failed, XSTAT_COUNT),
};

/*
 * Since version 2, PortFC's.  The payload does not say whether the qdisc
 * is a PortFC port, so every version 2 qdisc prints them (zero on the
 * others): a line whose fields depend on the configuration would be
 * harder for scripts than a few zeros.
 */
static const struct xstat qdisc_v2_xstats[] = {
	XSTAT("portfc_rx", qdisc.portfc_rx, XSTAT_COUNT),
	XSTAT("portfc_malformed", qdisc.portfc_malformed, XSTAT_COUNT),
	XSTAT("portfc_ignored", qdisc.portfc_ignored, XSTAT_COUNT),
	XSTAT("portfc_relayed", qdisc.portfc_relayed, XSTAT_COUNT),
	XSTAT("portfc_unknown", qdisc.portfc_unknown, XSTAT_COUNT),
	XSTAT("portfc_hq", qdisc.portfc_hq, XSTAT_COUNT),
	XSTAT("portfc_xoff_a", qdisc.portfc_xoff_a, XSTAT_COUNT),
	XSTAT("portfc_xon_a", qdisc.portfc_xon_a, XSTAT_COUNT),
	XSTAT("portfc_xoff_b", qdisc.portfc_xoff_b, XSTAT_COUNT),
	XSTAT("portfc_xon_b", qdisc.portfc_xon_b, XSTAT_COUNT),
};

/* Since version 3, in-band telemetry's, on every qdisc (as PortFC's). */
static const struct xstat qdisc_v3_xstats[] = {
	XSTAT("int_stamped", qdisc.int_stamped, XSTAT_COUNT),
	XSTAT("int_full", qdisc.int_full, XSTAT_COUNT),
	XSTAT("int_malformed", qdisc.int_malformed, XSTAT_COUNT),
	XSTAT("int_unwritable", qdisc.int_unwritable, XSTAT_COUNT),
};

static const struct xstat class_appended_xstats[] = {
	/* Since PFC: */
	XSTAT("pfc_rx", cls.pfc_rx, XSTAT_COUNT),
	XSTAT("xon_rx", cls.xon_rx, XSTAT_COUNT),
	XSTAT("xoff_tx", cls.xoff_tx, XSTAT_COUNT),
	XSTAT("xon_tx", cls.xon_tx, XSTAT_COUNT),
	XSTAT("paused_us", cls.paused_us, XSTAT_COUNT),
	XSTAT("headroom_drops", cls.headroom_drops, XSTAT_COUNT),
	XSTAT("paused", cls.paused, XSTAT_FLAG),
	XSTAT("ingress_bytes", cls.ingress_bytes, XSTAT_BYTES),
	XSTAT("ingress_peak", cls.ingress_peak, XSTAT_BYTES),
	/* Since ECN: */
	XSTAT("ecn_marks", cls.ecn_marks, XSTAT_COUNT),
	/* Since the PFC watchdog: */
	XSTAT("wd_storms", cls.wd_storms, XSTAT_COUNT),
	XSTAT("wd_restored", cls.wd_restored, XSTAT_COUNT),
	XSTAT("wd_drops", cls.wd_drops, XSTAT_COUNT),
	XSTAT("wd_forwarded", cls.wd_forwarded, XSTAT_COUNT),
	XSTAT("storm", cls.storm, XSTAT_FLAG),
	/* Since the kernel hardening: */
	XSTAT("wd_ingress_drops", cls.wd_ingress_drops, XSTAT_COUNT),
};

/*
 * Since version 2 (PortFC): the union grew with the qdisc's struct, so the
 * length alone no longer tells (uapi).
 */
static const struct xstat class_v2_xstats[] = {
	XSTAT("portfc_relayed", cls.portfc_relayed, XSTAT_COUNT),
};

/*
 * Text keeps every field a " name value" pair on the xstats line, so that
 * scripts can pair the words up.
 */
static void print_appended(const struct tc_sluice_xstats *st, int len,
			   const struct xstat *x, size_t n)
{
	__u64 v64;
	__u32 v32;
	size_t i;

	for (i = 0; i < n && len >= x[i].end; i++) {
		if (x[i].size == sizeof(v64)) {
			memcpy(&v64, (const char *)st + x[i].offset, sizeof(v64));
		} else {
			memcpy(&v32, (const char *)st + x[i].offset, sizeof(v32));
			v64 = v32;
		}
		print_string(PRINT_FP, NULL, " %s", x[i].name);
		switch (x[i].kind) {
		case XSTAT_COUNT:
			print_u64(PRINT_ANY, x[i].name, " %" PRIu64, v64);
			break;
		case XSTAT_BYTES:
			print_u64(PRINT_ANY, x[i].name, " %" PRIu64 "b", v64);
			break;
		case XSTAT_FLAG:
			print_bool(PRINT_JSON, x[i].name, NULL, v64);
			print_u64(PRINT_FP, NULL, " %" PRIu64, v64);
			break;
		}
	}
}

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
		print_appended(&st, len, qdisc_pfc_xstats,
			       ARRAY_SIZE(qdisc_pfc_xstats));
		/* An older kernel's union tail is not these fields. */
		if (st.version >= 1)
			print_appended(&st, len, qdisc_v1_xstats,
				       ARRAY_SIZE(qdisc_v1_xstats));
		if (st.version >= 2)
			print_appended(&st, len, qdisc_v2_xstats,
				       ARRAY_SIZE(qdisc_v2_xstats));
		if (st.version >= 3)
			print_appended(&st, len, qdisc_v3_xstats,
				       ARRAY_SIZE(qdisc_v3_xstats));
		break;
	case TC_SLUICE_XSTATS_CLASS:
		if (len < XSTATS_END(cls.peak_backlog))
			return -1;
		print_u64(PRINT_ANY, "limit_drops", " limit_drops %" PRIu64,
			  st.cls.limit_drops);
		print_uint(PRINT_ANY, "peak_backlog", " peak_backlog %ub",
			   st.cls.peak_backlog);
		print_appended(&st, len, class_appended_xstats,
			       ARRAY_SIZE(class_appended_xstats));
		if (st.version >= 2)
			print_appended(&st, len, class_v2_xstats,
				       ARRAY_SIZE(class_v2_xstats));
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
