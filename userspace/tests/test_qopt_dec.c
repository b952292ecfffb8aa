// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluice_qopt_decode() and sluice_qopt_format(): options parsed from a
 * command line and encoded as the plugin sends them decode to what was
 * given, format to words that parse and encode to the same bytes; bad
 * attributes are refused with their reason; a short buffer is -ENOSPC.
 * test_plugin holds the format against the plugin's text dumps.
 */
#include <errno.h>
#include <string.h>
#include <linux/netlink.h>
#include <sluice/qopt.h>
#include "ktap.h"
#include "words.h"

static const char *const lines[] = {
	"",
	"classes 4 tag mpls-tc default 1 limit 256Kb",
	"rate 100mbit pfc 3 xoff 50Kb xon 47Kb headroom 20Kb pause-time 1000",
	"rate 2.5gbit pfc 0-2,5 pause-rx off",
	"dscp-map 26:3 46:5 0-7:1 pcp-map 1:2 mpls-tc-map 7:7 prio-map 3:1",
	"dscp-map 0-63:7 classes 8",
	"rate 1mbit watchdog 3,5 watchdog-action forward detection-time 1s "
	"restoration-time 300ms watchdog-poll 50",
	"watchdog none watchdog-action alert",
	"classes 10 rate 1gbit portfc server portfc-n 4 portfc-k 1 "
	"portfc-label-base 16 portfc-hq none portfc-hq-dscp none",
	"rate 100mbit portfc switch portfc-n 4 portfc-index 1 portfc-xoff-a 60k "
	"portfc-xon-a 40k portfc-xoff-b 30k portfc-xon-b 20k portfc-hq arp "
	"portfc-hq-dscp 46",
	"rate 10mbit int-port 5555 int-node 3 int-link 4294967295",
};

/* parse @line, encode it into @buf: the bytes, or 0 on failure. */
static size_t encode_line(const char *line, unsigned char *buf, size_t len,
			  struct sluice_qopt *o)
{
	char err[SLUICE_ERRLEN];
	struct words w;
	size_t used = 0;

	words_split(&w, line);
	if (!KTAP_EXPECT_INT(sluice_qopt_parse(o, w.argc, w.argv, err,
					       sizeof(err)), 0)) {
		ktap_diag("\"%s\": %s", line, err);
		return 0;
	}
	if (!KTAP_EXPECT_INT(sluice_qopt_encode(o, buf, len, &used), 0))
		return 0;
	return used;
}

static void test_round_trip(void)
{
	static unsigned char a[8192], b[8192];
	static char text[SLUICE_QOPT_STRLEN];
	char err[SLUICE_ERRLEN];
	struct sluice_qopt o, d, again;
	size_t i, la, lb;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		la = encode_line(lines[i], a, sizeof(a), &o);
		if (!la && lines[i][0])
			continue;
		if (!KTAP_EXPECT_INT(sluice_qopt_decode(&d, a, la, err,
							sizeof(err)), 0)) {
			ktap_diag("\"%s\": %s", lines[i], err);
			continue;
		}
		/* what was given is what was decoded */
		KTAP_EXPECT_INT(d.present, o.present &
				~(SLUICE_QOPT_PORTFC_RTT | SLUICE_QOPT_XOFF_AUTO));
		KTAP_EXPECT_INT(d.rate, o.rate);
		KTAP_EXPECT_INT(d.xoff, o.xoff);
		KTAP_EXPECT_INT(d.wd_detect_ms, o.wd_detect_ms);
		KTAP_EXPECT_INT(d.portfc_xon_b, o.portfc_xon_b);
		KTAP_EXPECT_INT(d.int_link, o.int_link);
		KTAP_EXPECT(!memcmp(d.maps, o.maps, sizeof(d.maps)));
		if (!KTAP_EXPECT_INT(sluice_qopt_format(&d, text, sizeof(text)), 0))
			continue;
		lb = encode_line(text, b, sizeof(b), &again);
		if (!KTAP_EXPECT_INT(lb, la) || !KTAP_EXPECT(!memcmp(a, b, la)))
			ktap_diag("\"%s\" formatted as \"%s\"", lines[i], text);
	}
	ktap_result("parse, encode, decode, format, parse: the same bytes");
}

static void test_format_words(void)
{
	static unsigned char a[8192];
	static char text[SLUICE_QOPT_STRLEN];
	char err[SLUICE_ERRLEN];
	struct sluice_qopt o, d;
	size_t la;

	la = encode_line("classes 4 rate 10gbit pfc 3,4 xoff 50Kb xon 47Kb "
			 "headroom 20Kb watchdog 3 dscp-map 0-45:1 46:3 47-63:1",
			 a, sizeof(a), &o);
	KTAP_EXPECT_INT(sluice_qopt_decode(&d, a, la, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_qopt_format(&d, text, sizeof(text)), 0);
	KTAP_EXPECT_STR(text, "classes 4 rate 10Gbit pfc 3,4 xoff 50Kb xon 47Kb "
			"headroom 20Kb dscp-map 0-45:1 46:3 47-63:1 watchdog 3");
	memset(&d, 0, sizeof(d));
	KTAP_EXPECT_INT(sluice_qopt_format(&d, text, sizeof(text)), 0);
	KTAP_EXPECT_STR(text, "");
	ktap_result("format: tc's words and units, in tc's order");
}

/* An attribute of @type with @len bytes of @fill at @buf; its length. */
static size_t attr(unsigned char *buf, unsigned int type, size_t len, int fill)
{
	struct nlattr *a = (struct nlattr *)buf;

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memset(buf + NLA_HDRLEN, fill, NLA_ALIGN(len));
	return NLA_ALIGN(a->nla_len);
}

static void test_refused(void)
{
	struct tc_sluice_map_entry e = { .value = 3, .tclass = 1 };
	unsigned char buf[256];
	char err[SLUICE_ERRLEN];
	struct sluice_qopt d;
	size_t n, at;

	n = attr(buf, TCA_SLUICE_LIMIT, 2, 0);
	KTAP_EXPECT_INT(sluice_qopt_decode(&d, buf, n, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "attribute 4 has 2 bytes, not 4");

	n = attr(buf, TCA_SLUICE_CLASSES, 1, 8);
	KTAP_EXPECT_INT(sluice_qopt_decode(&d, buf, n + 2, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "a truncated attribute at byte 8");

	/* a PCP map naming 3 twice */
	at = attr(buf, TCA_SLUICE_PCP_MAP | NLA_F_NESTED, 0, 0);
	at += attr(buf + at, TCA_SLUICE_MAP_ENTRY, sizeof(e), 0);
	memcpy(buf + at - NLA_ALIGN(sizeof(e)), &e, sizeof(e));
	at += attr(buf + at, TCA_SLUICE_MAP_ENTRY, sizeof(e), 0);
	memcpy(buf + at - NLA_ALIGN(sizeof(e)), &e, sizeof(e));
	((struct nlattr *)buf)->nla_len = at;
	KTAP_EXPECT_INT(sluice_qopt_decode(&d, buf, at, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_STR(err, "pcp-map: value 3 out of range or repeated");

	/* an attribute newer than this library is skipped */
	n = attr(buf, TCA_SLUICE_MAX + 1, 3, 0);
	n += attr(buf + n, TCA_SLUICE_CLASSES, 1, 5);
	KTAP_EXPECT_INT(sluice_qopt_decode(&d, buf, n, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(d.present, SLUICE_QOPT_CLASSES);
	KTAP_EXPECT_INT(d.classes, 5);
	ktap_result("decode: wrong sizes, truncation, bad maps refused; new attributes skipped");
}

static void test_no_room(void)
{
	static unsigned char a[8192];
	struct sluice_qopt o;
	char text[16];

	encode_line("classes 4 rate 100mbit", a, sizeof(a), &o);
	KTAP_EXPECT_INT(sluice_qopt_format(&o, text, sizeof(text)), -ENOSPC);
	KTAP_EXPECT_INT(sluice_qopt_format(&o, text, 0), -ENOSPC);
	KTAP_EXPECT_INT(sluice_qopt_format(&o, text, 10), 0 - ENOSPC);
	ktap_result("format: -ENOSPC when the buffer is short");
}

int main(void)
{
	ktap_plan(4);
	test_round_trip();
	test_format_words();
	test_refused();
	test_no_room();
	return ktap_exit();
}
