// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluice_qopt_encode() against the tc plugin: for the same command line,
 * the attributes it writes are byte for byte those the plugin puts in
 * TCA_OPTIONS (the plugin runs against tests/fake_tc.c, as in
 * test_plugin).  Also the errors: an unresolved "xoff auto", no room.
 */
#include <errno.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sluice/qopt.h>
#include "../tc/tc_abi.h"
#include "fake_tc.h"
#include "ktap.h"
#include "words.h"

extern struct qdisc_util sluice_qdisc_util;

struct request {
	struct nlmsghdr	n;
	struct tcmsg	t;
	char		buf[65536];
};

static const char *const lines[] = {
	"",
	"classes 4",
	"classes 4 tag mpls-tc default 1 limit 256Kb",
	"rate 100mbit pfc 3 xoff 50Kb xon 47Kb headroom 20Kb pause-time 1000",
	"rate 2.5gbit pfc 0-2,5 pause-rx off",
	"dscp-map 26:3 46:5 0-7:1 pcp-map 1:2 mpls-tc-map 7:7 prio-map 3:1",
	"pcp-map default dscp-map default",
	"tag priority prio-map 0-15:3 classes 16",
	"rate 10gbit limit 1Mb xoff auto cable 100 mtu 9000 pfc 3",
	"dscp-map 0-63:7",
	"rate 1mbit watchdog 3,5 watchdog-action forward detection-time 1s "
	"restoration-time 300ms watchdog-poll 50",
	"watchdog none watchdog-action alert",
	"pcp-map 3:3 watchdog 3 detection-time 0.5s",
	"rate 100mbit portfc switch portfc-n 4 portfc-index 1 portfc-rtt 200us "
	"portfc-hq arp portfc-hq-dscp 46",
	"classes 10 rate 1gbit portfc server portfc-n 4 portfc-k 1 "
	"portfc-label-base 16 portfc-hq none portfc-hq-dscp none",
	"portfc-xoff-a 60k portfc-xon-a 40k portfc-xoff-b 30k portfc-xon-b 20k",
	"rate 10mbit int-port 5555 int-node 3 int-link 4294967295",
	"int-link 7",
};

static void test_same_bytes(void)
{
	static unsigned char mine[65536];
	char err[SLUICE_ERRLEN];
	struct request req;
	struct sluice_qopt o;
	struct rtattr *opts;
	struct words w;
	size_t i, used;
	int ret;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		words_split(&w, lines[i]);
		memset(&req, 0, sizeof(req));
		req.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
		fake_tc_reset(false);
		ret = sluice_qdisc_util.parse_qopt(&sluice_qdisc_util, w.argc,
						   w.argv, &req.n, "lo");
		if (!KTAP_EXPECT_INT(ret, 0))
			continue;
		opts = (struct rtattr *)((char *)&req.n +
					 NLMSG_LENGTH(sizeof(struct tcmsg)));
		KTAP_EXPECT_INT(opts->rta_type, TCA_OPTIONS | NLA_F_NESTED);
		words_split(&w, lines[i]);
		KTAP_EXPECT_INT(sluice_qopt_parse(&o, w.argc, w.argv, err,
						  sizeof(err)), 0);
		if (o.present & SLUICE_QOPT_XOFF_AUTO)
			KTAP_EXPECT_INT(sluice_qopt_xoff_auto(&o, "lo", 0, err,
							      sizeof(err)), 0);
		memset(mine, 0xa5, sizeof(mine));
		if (!KTAP_EXPECT_INT(sluice_qopt_encode(&o, mine, sizeof(mine),
							&used), 0))
			continue;
		if (!KTAP_EXPECT_INT(used, opts->rta_len - RTA_LENGTH(0)) ||
		    !KTAP_EXPECT(!memcmp(mine, RTA_DATA(opts), used)))
			ktap_diag("line \"%s\"", lines[i]);
	}
	ktap_result("same_bytes");
}

static void test_errors(void)
{
	unsigned char buf[64];
	char err[SLUICE_ERRLEN];
	struct sluice_qopt o;
	struct words w;
	size_t used = 1;

	words_split(&w, "rate 10gbit limit 1Mb xoff auto pfc 3");
	KTAP_EXPECT_INT(sluice_qopt_parse(&o, w.argc, w.argv, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_qopt_encode(&o, buf, sizeof(buf), &used), -EINVAL);
	KTAP_EXPECT_INT(used, 0);
	words_split(&w, "dscp-map 0-63:7");
	KTAP_EXPECT_INT(sluice_qopt_parse(&o, w.argc, w.argv, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_qopt_encode(&o, buf, sizeof(buf), &used), -ENOSPC);
	/* exactly enough room: a header and one u8, padded to 8 */
	words_split(&w, "classes 3");
	KTAP_EXPECT_INT(sluice_qopt_parse(&o, w.argc, w.argv, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_qopt_encode(&o, buf, 8, &used), 0);
	KTAP_EXPECT_INT(used, 8);
	KTAP_EXPECT_INT(sluice_qopt_encode(&o, buf, 7, &used), -ENOSPC);
	ktap_result("errors");
}

/* Appends one attribute, as the kernel's nla_put() lays it out. */
static size_t expect_attr(unsigned char *buf, size_t at, __u16 type,
			  const void *data, __u16 len)
{
	__u16 nla_len = NLA_HDRLEN + len;

	memcpy(buf + at, &nla_len, 2);
	memcpy(buf + at + 2, &type, 2);
	memcpy(buf + at + NLA_HDRLEN, data, len);
	return at + NLA_ALIGN(nla_len);
}

/*
 * PortFC's attributes, laid out by hand: u8 role, u32 label base, then u8
 * HQ and HQ DSCP, each padded to 4 bytes, in attribute order whatever the
 * order of the words.
 */
static void test_portfc(void)
{
	unsigned char want[64] = {}, got[64];
	const __u8 role = TC_SLUICE_PORTFC_SERVER, hq = 0, dscp = 255;
	const __u32 label = 300;
	char err[SLUICE_ERRLEN];
	struct sluice_qopt o;
	struct words w;
	size_t at = 0, used = 0;

	at = expect_attr(want, at, TCA_SLUICE_PORTFC, &role, 1);
	at = expect_attr(want, at, TCA_SLUICE_PORTFC_LABEL_BASE, &label, 4);
	at = expect_attr(want, at, TCA_SLUICE_PORTFC_HQ, &hq, 1);
	at = expect_attr(want, at, TCA_SLUICE_PORTFC_HQ_DSCP, &dscp, 1);
	KTAP_EXPECT_INT(at, 32);
	words_split(&w, "portfc-hq-dscp none portfc-hq none "
			"portfc-label-base 300 portfc server");
	KTAP_EXPECT_INT(sluice_qopt_parse(&o, w.argc, w.argv, err, sizeof(err)), 0);
	memset(got, 0xa5, sizeof(got));
	KTAP_EXPECT_INT(sluice_qopt_encode(&o, got, sizeof(got), &used), 0);
	KTAP_EXPECT_INT(used, at);
	KTAP_EXPECT(!memcmp(got, want, at));
	/* one byte short of the last attribute */
	KTAP_EXPECT_INT(sluice_qopt_encode(&o, got, at - 1, &used), -ENOSPC);
	ktap_result("portfc");
}

/*
 * In-band telemetry's attributes by hand: a u16 port and two u32 ids, the
 * port padded to 4 bytes, in attribute order whatever the words' order.
 */
static void test_int(void)
{
	unsigned char want[32] = {}, got[32];
	const __u32 node = 0x01020304, link = 4294967295u;
	const __u16 port = 5555;
	char err[SLUICE_ERRLEN];
	struct sluice_qopt o;
	struct words w;
	size_t at = 0, used = 0;

	at = expect_attr(want, at, TCA_SLUICE_INT_PORT, &port, 2);
	at = expect_attr(want, at, TCA_SLUICE_INT_NODE, &node, 4);
	at = expect_attr(want, at, TCA_SLUICE_INT_LINK, &link, 4);
	KTAP_EXPECT_INT(at, 24);
	words_split(&w, "int-link 4294967295 int-node 16909060 int-port 5555");
	KTAP_EXPECT_INT(sluice_qopt_parse(&o, w.argc, w.argv, err, sizeof(err)), 0);
	memset(got, 0xa5, sizeof(got));
	KTAP_EXPECT_INT(sluice_qopt_encode(&o, got, sizeof(got), &used), 0);
	KTAP_EXPECT_INT(used, at);
	KTAP_EXPECT(!memcmp(got, want, at));
	ktap_result("int");
}

int main(void)
{
	ktap_plan(4);
	test_same_bytes();
	test_errors();
	test_portfc();
	test_int();
	return ktap_exit();
}
