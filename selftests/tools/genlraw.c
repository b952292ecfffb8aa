// SPDX-License-Identifier: GPL-2.0
/*
 * genlraw: send one hand-built request to the "sluice" generic netlink
 * family and print what comes back, so selftests can check the kernel's
 * own validation and replies without sluicectl in between.
 *
 *   genlraw [-N NETNS] [-d|-D] [-q] [-n] [-b SIZE] [-w MS] [-W FILE] CMD [ATTR...]
 *   genlraw [-N NETNS] monitor [COUNT [TIMEOUT]]
 *
 *   CMD  := switch-get | switch-set | map-load | map-get | map-flush
 *         | stats-get | event | NUMBER
 *   ATTR := source NAME|N              SLUICE_A_TAG_SOURCE: none ip-ttl
 *                                      mpls-ttl dscp mpls-tc pcp
 *                                      mpls-depth
 *         | gen N                      SLUICE_A_GENERATION
 *         | ifindex DEV|N              SLUICE_A_IFINDEX
 *         | entry PORT MAP TAG VALUE [out]
 *                                      SLUICE_A_MAP_ENTRY: PORT a device,
 *                                      an ifindex or * (0); MAP in|eg|tag
 *                                      or a number; out: SLUICE_MAP_F_OUT_PORT
 *         | entries N RANGE PORT...    N valid entries: for each PORT in
 *                                      turn, in, eg and eg-out entries of
 *                                      tags 0..RANGE-1 (no tag entries;
 *                                      no eg-out for *)
 *         | u8|u16|u32 TYPE VALUE | str TYPE STRING | hex TYPE HEXBYTES
 *         | nest TYPE ... end          (with NLA_F_NESTED)
 *
 *   -N NETNS  work in network namespace NETNS (a name under /run/netns,
 *       as "ip -n"): what "ip netns exec NETNS genlraw" does, but without
 *       starting ip too (a tenth of a second under the selftests' TCG)
 *   -d  send as a dump (the default for map-get and stats-get)
 *   -D  send as a do (the default for the others; NLM_F_ACK is set)
 *   -q  print only the last line
 *   -n  print the MAP_ENTRY attributes the request would carry, as
 *       map-get prints them, and send nothing
 *   -b SIZE  read replies SIZE bytes at a time (the kernel sizes dump
 *       messages to the reader's buffer: a small one splits big ports)
 *   -w MS  wait MS milliseconds before each read but the first, so that
 *       a dump can span a change made meanwhile
 *   -W FILE  after the first read, create FILE (empty) and wait until
 *       something is written to it (at most 60 s), then read on: a dump
 *       surely spans a change made meanwhile (the test waits for FILE,
 *       makes its change, then writes to FILE), however long it is
 *
 * Output: a line per reply message (entries of map-get: one line each,
 * "entry IFINDEX MAP TAG VALUE FLAGS", MAP by name if known), then "ok"
 * ("ok intr" if a dump was flagged NLM_F_DUMP_INTR) or "error: ERRNO:
 * MESSAGE" (the extack message, or strerror if there is none), followed
 * by " [attribute N]" when the kernel names the offending attribute
 * (NLMSGERR_ATTR_OFFS): N counts the request's top-level attributes from
 * 0.  Exit 0 on ok, 1 on error, 2 for bad usage.  monitor prints "monitoring" once subscribed, then one
 * "event ..." line per event, and exits 0 after COUNT events (default:
 * never) or TIMEOUT seconds (default 10).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <sched.h>
#include <net/if.h>
#include <poll.h>
#include <sys/stat.h>
#include <time.h>

#include <linux/sluice.h>

#include "nlraw.h"

#define SEQ		0x5eed

static struct nlraw_msg msg;
static struct sluice_map_entry *dry;	/* -n: the entries put */
static size_t ndry;
static int quiet;
static int dry_run;
static size_t rcvsize = NLRAW_RCVBUF;
static unsigned long wait_ms;
static const char *sync_file;

static void usage(void)
{
	fprintf(stderr,
		"usage: genlraw [-N NETNS] [-d|-D] [-q] [-n] [-b SIZE] [-w MS] [-W FILE] CMD [ATTR...]\n"
		"       genlraw [-N NETNS] monitor [COUNT [TIMEOUT]]\n");
	exit(2);
}

static const char *const cmd_names[] = {
	[SLUICE_CMD_SWITCH_GET]	= "switch-get",
	[SLUICE_CMD_SWITCH_SET]	= "switch-set",
	[SLUICE_CMD_MAP_LOAD]	= "map-load",
	[SLUICE_CMD_MAP_GET]	= "map-get",
	[SLUICE_CMD_MAP_FLUSH]	= "map-flush",
	[SLUICE_CMD_STATS_GET]	= "stats-get",
	[SLUICE_CMD_EVENT]	= "event",
};

static const char *const source_names[] = {
	[SLUICE_TAG_SOURCE_NONE]	= "none",
	[SLUICE_TAG_SOURCE_IP_TTL]	= "ip-ttl",
	[SLUICE_TAG_SOURCE_MPLS_TTL]	= "mpls-ttl",
	[SLUICE_TAG_SOURCE_DSCP]	= "dscp",
	[SLUICE_TAG_SOURCE_MPLS_TC]	= "mpls-tc",
	[SLUICE_TAG_SOURCE_PCP]		= "pcp",
	[SLUICE_TAG_SOURCE_MPLS_DEPTH]	= "mpls-depth",
};

static const char *const map_names[] = {
	[SLUICE_MAP_IN]		= "in",
	[SLUICE_MAP_EG]		= "eg",
	[SLUICE_MAP_TAG]	= "tag",
};

static const char *const event_names[] = {
	[SLUICE_EVENT_SWITCH]	= "switch",
	[SLUICE_EVENT_MAPS]	= "maps",
	[SLUICE_EVENT_PORT_ADD]	= "port-add",
	[SLUICE_EVENT_PORT_DEL]	= "port-del",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static unsigned long number(const char *s, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (end == s || *end || errno || v > max) {
		fprintf(stderr, "genlraw: bad number \"%s\"\n", s);
		exit(2);
	}
	return v;
}

/* A name of the table, or a number up to max. */
static unsigned long name_or_number(const char *s, const char *const *names,
				    size_t n, unsigned long max)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return i;
	return number(s, max);
}

/* A device name, "*" (0) or an ifindex. */
static uint32_t port(const char *s)
{
	unsigned int ifindex;

	if (!strcmp(s, "*"))
		return 0;
	if (isdigit((unsigned char)s[0]))
		return number(s, UINT32_MAX);
	ifindex = if_nametoindex(s);
	if (!ifindex) {
		fprintf(stderr, "genlraw: no device \"%s\"\n", s);
		exit(2);
	}
	return ifindex;
}

static void put_entry(const struct sluice_map_entry *e)
{
	if (dry_run) {
		if (!(ndry & (ndry - 1)))
			dry = nlraw_xrealloc(dry, (ndry ? 2 * ndry : 1) *
					     sizeof(*dry));
		dry[ndry++] = *e;
	}
	nlraw_put(&msg, SLUICE_A_MAP_ENTRY, e, sizeof(*e));
}

/* entries N RANGE PORT...: in, eg, eg-out of tags 0..RANGE-1 per port. */
static int put_entries(char **argv, int argc)
{
	unsigned long n, range, done = 0;
	int nports = 0, i;

	if (argc < 3)
		usage();
	n = number(argv[0], UINT32_MAX);
	range = number(argv[1], SLUICE_TAG_VALUES);
	while (nports + 2 < argc && strcmp(argv[2 + nports], "end"))
		nports++;
	if (!nports || !range)
		usage();
	for (i = 0; i < nports && done < n; i++) {
		struct sluice_map_entry e = { .ifindex = port(argv[2 + i]) };

		unsigned int m, t;

		/* Out-port entries name one port: none for every port. */
		for (m = 0; m < (e.ifindex ? 3 : 2) && done < n; m++) {
			for (t = 0; t < range && done < n; t++, done++) {
				e.map = m ? SLUICE_MAP_EG : SLUICE_MAP_IN;
				e.flags = m == 2 ? SLUICE_MAP_F_OUT_PORT : 0;
				e.tag = t;
				e.value = m ? (t + m) % 16 : t % 8;
				put_entry(&e);
			}
		}
	}
	if (done < n) {
		fprintf(stderr, "genlraw: only %lu entries fit %d ports\n",
			done, nports);
		exit(2);
	}
	return 2 + nports;
}

static void put_hex(uint16_t type, const char *hex)
{
	size_t i, n = strlen(hex) / 2;
	unsigned char *buf;

	if (strlen(hex) % 2)
		usage();
	buf = nlraw_xrealloc(NULL, n + 1);
	for (i = 0; i < n; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			usage();
		buf[i] = b;
	}
	nlraw_put(&msg, type, buf, n);
	free(buf);
}

/* Appends the attributes of argv; returns how many words it used. */
static int put_attrs(char **argv, int argc)
{
	int i = 0;

	while (i < argc) {
		const char *what = argv[i++];
		int left = argc - i;

		if (!strcmp(what, "end"))
			return i;
		if (!strcmp(what, "source") && left >= 1) {
			nlraw_put_u8(&msg, SLUICE_A_TAG_SOURCE,
				     name_or_number(argv[i++], source_names,
						    ARRAY_SIZE(source_names),
						    UINT8_MAX));
		} else if (!strcmp(what, "gen") && left >= 1) {
			nlraw_put_u32(&msg, SLUICE_A_GENERATION,
				      number(argv[i++], UINT32_MAX));
		} else if (!strcmp(what, "ifindex") && left >= 1) {
			nlraw_put_u32(&msg, SLUICE_A_IFINDEX, port(argv[i++]));
		} else if (!strcmp(what, "entry") && left >= 4) {
			struct sluice_map_entry e = {
				.ifindex = port(argv[i]),
				.map = name_or_number(argv[i + 1], map_names,
						      ARRAY_SIZE(map_names),
						      UINT8_MAX),
				.tag = number(argv[i + 2], UINT8_MAX),
				.value = number(argv[i + 3], UINT8_MAX),
			};

			i += 4;
			if (i < argc && !strcmp(argv[i], "out")) {
				e.flags = SLUICE_MAP_F_OUT_PORT;
				i++;
			} else if (i + 1 < argc && !strcmp(argv[i], "flags")) {
				e.flags = number(argv[i + 1], UINT8_MAX);
				i += 2;
			}
			put_entry(&e);
		} else if (!strcmp(what, "entries")) {
			i += put_entries(argv + i, left);
		} else if (!strcmp(what, "u8") && left >= 2) {
			nlraw_put_u8(&msg, number(argv[i], UINT16_MAX),
				     number(argv[i + 1], UINT8_MAX));
			i += 2;
		} else if (!strcmp(what, "u16") && left >= 2) {
			uint16_t v = number(argv[i + 1], UINT16_MAX);

			nlraw_put(&msg, number(argv[i], UINT16_MAX), &v,
				  sizeof(v));
			i += 2;
		} else if (!strcmp(what, "u32") && left >= 2) {
			nlraw_put_u32(&msg, number(argv[i], UINT16_MAX),
				      number(argv[i + 1], UINT32_MAX));
			i += 2;
		} else if (!strcmp(what, "str") && left >= 2) {
			nlraw_put(&msg, number(argv[i], UINT16_MAX), argv[i + 1],
				  strlen(argv[i + 1]) + 1);
			i += 2;
		} else if (!strcmp(what, "hex") && left >= 2) {
			put_hex(number(argv[i], UINT16_MAX), argv[i + 1]);
			i += 2;
		} else if (!strcmp(what, "nest") && left >= 1) {
			if (!nlraw_nest_start(&msg, number(argv[i++], UINT16_MAX) |
					      NLA_F_NESTED))
				usage();
			i += put_attrs(argv + i, argc - i);
			nlraw_nest_end(&msg);
		} else {
			usage();
		}
	}
	return i;
}

/* A struct attribute, zero-filled where the kernel's is shorter. */
static void copy_struct(void *dst, size_t size, const struct nlattr *a)
{
	size_t n = nlraw_len(a) < (int)size ? (size_t)nlraw_len(a) : size;

	memset(dst, 0, size);
	memcpy(dst, nlraw_data(a), n);
}

static void print_counts(const struct nlattr *a)
{
	struct sluice_map_counts c;

	copy_struct(&c, sizeof(c), a);
	printf(" in=%u eg=%u tag=%u map_ports=%u", c.in, c.eg, c.tag, c.ports);
}

static void print_switch_stats(const struct nlattr *a)
{
	struct sluice_switch_stats s;

	copy_struct(&s, sizeof(s), a);
	printf(" tagged=%llu untagged=%llu in_miss=%llu eg_miss=%llu tag_miss=%llu"
	       " retagged=%llu retag_failed=%llu class_invalid=%llu",
	       (unsigned long long)s.tagged, (unsigned long long)s.untagged,
	       (unsigned long long)s.in_miss, (unsigned long long)s.eg_miss,
	       (unsigned long long)s.tag_miss, (unsigned long long)s.retagged,
	       (unsigned long long)s.retag_failed,
	       (unsigned long long)s.class_invalid);
}

static void print_port_stats(const struct nlattr *a)
{
	struct sluice_port_stats s;

	copy_struct(&s, sizeof(s), a);
	printf(" rate=%llu xoff=%u xon=%u headroom=%u pause_time=%u pfc=0x%x"
	       " classes=%u pfc_tx=%llu pfc_rx=%llu pause_rx=%llu"
	       " pause_malformed=%llu pause_untrusted=%llu limit_drops=%llu"
	       " headroom_drops=%llu untagged=%llu backlog=%u qlen=%u",
	       (unsigned long long)s.rate, s.xoff, s.xon, s.headroom,
	       s.pause_time, s.pfc, s.classes, (unsigned long long)s.pfc_tx,
	       (unsigned long long)s.pfc_rx, (unsigned long long)s.pause_rx,
	       (unsigned long long)s.pause_malformed,
	       (unsigned long long)s.pause_untrusted,
	       (unsigned long long)s.limit_drops,
	       (unsigned long long)s.headroom_drops,
	       (unsigned long long)s.untagged, s.backlog, s.qlen);
}

static void print_prio_stats(uint32_t ifindex, const struct nlattr *a)
{
	struct sluice_prio_stats s;

	copy_struct(&s, sizeof(s), a);
	printf("prio ifindex=%u index=%u flags=0x%x packets=%llu bytes=%llu"
	       " drops=%llu backlog=%u qlen=%u pfc_rx=%llu xon_rx=%llu"
	       " paused_us=%llu ecn_marks=%llu ingress_bytes=%u"
	       " ingress_peak=%u xoff_tx=%llu xon_tx=%llu\n",
	       ifindex, s.index, s.flags, (unsigned long long)s.packets,
	       (unsigned long long)s.bytes, (unsigned long long)s.drops,
	       s.backlog, s.qlen, (unsigned long long)s.pfc_rx,
	       (unsigned long long)s.xon_rx, (unsigned long long)s.paused_us,
	       (unsigned long long)s.ecn_marks, s.ingress_bytes,
	       s.ingress_peak, (unsigned long long)s.xoff_tx,
	       (unsigned long long)s.xon_tx);
}

static void print_entry(const struct sluice_map_entry *e)
{
	if (e->map < ARRAY_SIZE(map_names))
		printf("entry %u %s %u %u %u\n", e->ifindex, map_names[e->map],
		       e->tag, e->value, e->flags);
	else
		printf("entry %u %u %u %u %u\n", e->ifindex, e->map, e->tag,
		       e->value, e->flags);
}

static uint32_t u32_of(const struct nlattr *a)
{
	uint32_t v = 0;

	if (nlraw_len(a) == sizeof(v))
		memcpy(&v, nlraw_data(a), sizeof(v));
	return v;
}

static uint8_t u8_of(const struct nlattr *a)
{
	return nlraw_len(a) >= 1 ? *(const uint8_t *)nlraw_data(a) : 0;
}

/* One reply or event message of the family, as one line or more. */
static void print_msg(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	int len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	const struct nlattr *a, *prio[32];
	unsigned int nprio = 0, i;
	uint32_t ifindex = 0;
	int rem, line = 0;

	if (len < 0)
		return;
	if (g->cmd == SLUICE_CMD_EVENT) {
		printf("event");
		line = 1;
	} else if (g->cmd != SLUICE_CMD_MAP_GET) {
		printf("%s", g->cmd == SLUICE_CMD_STATS_GET ? "port" :
		       g->cmd < ARRAY_SIZE(cmd_names) && cmd_names[g->cmd] ?
		       cmd_names[g->cmd] : "?");
		line = 1;
	}
	nlraw_for_each_attr(a, (const char *)g + GENL_HDRLEN, len, rem) {
		switch (nlraw_type(a)) {
		case SLUICE_A_EVENT:
			i = u8_of(a);
			printf(" %s", i < ARRAY_SIZE(event_names) &&
			       event_names[i] ? event_names[i] : "?");
			break;
		case SLUICE_A_TAG_SOURCE:
			i = u8_of(a);
			printf(" tag_source=%s", i < ARRAY_SIZE(source_names) ?
			       source_names[i] : "?");
			break;
		case SLUICE_A_GENERATION:
			if (line)
				printf(" generation=%u", u32_of(a));
			break;
		case SLUICE_A_MAP_ENTRIES:
			print_counts(a);
			break;
		case SLUICE_A_PORTS:
			printf(" ports=%u", u32_of(a));
			break;
		case SLUICE_A_SWITCH_STATS:
			print_switch_stats(a);
			break;
		case SLUICE_A_IFINDEX:
			ifindex = u32_of(a);
			printf(" ifindex=%u", ifindex);
			break;
		case SLUICE_A_IFNAME:
			printf(" ifname=%.*s", (int)strnlen(nlraw_data(a),
							    nlraw_len(a)),
			       (const char *)nlraw_data(a));
			break;
		case SLUICE_A_PORT_STATS:
			print_port_stats(a);
			break;
		case SLUICE_A_PRIO_STATS:
			if (nprio < ARRAY_SIZE(prio))
				prio[nprio++] = a;
			break;
		case SLUICE_A_MAP_ENTRY: {
			struct sluice_map_entry e;

			copy_struct(&e, sizeof(e), a);
			print_entry(&e);
			break;
		}
		case SLUICE_A_PAD:
			break;
		default:
			printf(" attr%d(%d bytes)", nlraw_type(a), nlraw_len(a));
		}
	}
	if (line)
		printf("\n");
	for (i = 0; i < nprio; i++)
		print_prio_stats(ifindex, prio[i]);
}

static const char *errno_name(int err)
{
	static char buf[16];

	switch (err) {
	case EINVAL: return "EINVAL";
	case ERANGE: return "ERANGE";
	case EPERM: return "EPERM";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ESTALE: return "ESTALE";
	case ENODEV: return "ENODEV";
	case ENOENT: return "ENOENT";
	case E2BIG: return "E2BIG";
	case EEXIST: return "EEXIST";
	case ENOMEM: return "ENOMEM";
	case EMSGSIZE: return "EMSGSIZE";
	case EBUSY: return "EBUSY";
	case ENOSPC: return "ENOSPC";
	}
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static int open_family(uint16_t *family, uint32_t *grp)
{
	int fd = nlraw_open();
	int id;

	if (fd < 0) {
		perror("genlraw: netlink socket");
		exit(1);
	}
	id = nlraw_family(fd, SLUICE_GENL_NAME, SLUICE_GENL_MCGRP_EVENTS, grp);
	if (id <= 0) {
		if (id == 0)
			fprintf(stderr, "genlraw: no generic netlink family \"%s\" (is sch_sluice loaded?)\n",
				SLUICE_GENL_NAME);
		else
			perror("genlraw: resolving the family");
		exit(1);
	}
	*family = id;
	return fd;
}

/*
 * The index among the request's top-level attributes of the one starting
 * at byte @offs of the request (NLMSGERR_ATTR_OFFS), or -1.
 */
static int attr_index(uint32_t offs)
{
	size_t at = NLMSG_HDRLEN + GENL_HDRLEN;
	int i;

	for (i = 0; at + NLA_HDRLEN <= msg.len; i++) {
		const struct nlattr *a = (const void *)(msg.buf + at);

		if (at == offs)
			return i;
		if (a->nla_len < NLA_HDRLEN)
			break;
		at += NLA_ALIGN(a->nla_len);
	}
	return -1;
}

/* NLMSGERR_ATTR_OFFS of an error message, or 0 if it carries none. */
static uint32_t error_offset(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	size_t len = nlh->nlmsg_len - NLMSG_HDRLEN, off = sizeof(*e);
	const struct nlattr *a;
	uint32_t offs = 0;
	int rem;

	if (nlh->nlmsg_type != NLMSG_ERROR || len < off ||
	    !(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += NLMSG_ALIGN(e->msg.nlmsg_len) - sizeof(e->msg);
	if (off > len)
		return 0;
	nlraw_for_each_attr(a, (const unsigned char *)e + off, len - off, rem) {
		if (nlraw_type(a) == NLMSGERR_ATTR_OFFS && nlraw_len(a) == 4)
			memcpy(&offs, nlraw_data(a), 4);
	}
	return offs;
}

/* -W: creates sync_file, waits until it is not empty; false on timeout. */
static bool sync_wait(void)
{
	struct stat st;
	int fd, i;

	fd = open(sync_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return false;
	close(fd);
	for (i = 0; i < 6000; i++) {
		if (stat(sync_file, &st) == 0 && st.st_size > 0)
			return true;
		usleep(10000);
	}
	return false;
}

/* Reads until the request's ack, error or NLMSG_DONE; prints the result. */
static int run(int fd, uint16_t family)
{
	static unsigned char buf[NLRAW_RCVBUF];
	bool intr = false, first = true, synced = false;

	for (;;) {
		const struct nlmsghdr *nlh = (const void *)buf;
		ssize_t n;
		int left;

		if (!first && wait_ms)
			usleep(wait_ms * 1000);
		if (!first && sync_file && !synced) {
			if (!sync_wait()) {
				printf("error: -W %s: nothing written to it\n",
				       sync_file);
				return 1;
			}
			synced = true;
		}
		first = false;
		n = recv(fd, buf, rcvsize, MSG_TRUNC);
		if (n < 0) {
			printf("error: %s: %s\n", errno_name(errno),
			       strerror(errno));
			return 1;
		}
		if ((size_t)n > rcvsize) {
			printf("error: a reply of %zd bytes did not fit %zu\n",
			       n, rcvsize);
			return 1;
		}
		for (left = (int)n; NLMSG_OK(nlh, left);
		     nlh = NLMSG_NEXT(nlh, left)) {
			const char *emsg;
			int err;

			if (nlh->nlmsg_seq != SEQ)
				continue;
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				intr = true;
			if (nlh->nlmsg_type == NLMSG_ERROR ||
			    nlh->nlmsg_type == NLMSG_DONE) {
				if (!nlraw_status(nlh, &err, &emsg)) {
					printf("error: short status message\n");
					return 1;
				}
				if (err) {
					int at = attr_index(error_offset(nlh));

					printf("error: %s: %s", errno_name(-err),
					       emsg ? emsg : strerror(-err));
					if (at >= 0)
						printf(" [attribute %d]", at);
					printf("\n");
					return 1;
				}
				printf("ok%s\n", intr ? " intr" : "");
				return 0;
			}
			if (nlh->nlmsg_type == family && !quiet)
				print_msg(nlh);
		}
	}
}

static int monitor(int argc, char **argv)
{
	unsigned long count = argc > 0 ? number(argv[0], UINT32_MAX) : 0;
	unsigned long timeout = argc > 1 ? number(argv[1], 86400) : 10;
	static unsigned char buf[NLRAW_RCVBUF];
	struct timespec start, now;
	unsigned long seen = 0;
	uint16_t family;
	uint32_t grp;
	int fd;

	fd = open_family(&family, &grp);
	if (!grp || setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp,
			       sizeof(grp)) < 0) {
		fprintf(stderr, "genlraw: cannot join the events group\n");
		return 1;
	}
	printf("monitoring\n");
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!count || seen < count) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		const struct nlmsghdr *nlh = (const void *)buf;
		long ms;
		ssize_t n;
		int left;

		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = timeout * 1000 - ((now.tv_sec - start.tv_sec) * 1000 +
				       (now.tv_nsec - start.tv_nsec) / 1000000);
		if (ms <= 0 || poll(&p, 1, ms) <= 0)
			break;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			perror("genlraw: recv");
			return 1;
		}
		for (left = (int)n; NLMSG_OK(nlh, left);
		     nlh = NLMSG_NEXT(nlh, left)) {
			if (nlh->nlmsg_type != family)
				continue;
			print_msg(nlh);
			fflush(stdout);
			seen++;
		}
	}
	close(fd);
	return 0;
}

/* -N: joins the network namespace /run/netns/NAME. */
static int enter_netns(const char *name)
{
	char path[256];
	int fd;

	if (snprintf(path, sizeof(path), "/run/netns/%s", name) >=
	    (int)sizeof(path)) {
		fprintf(stderr, "genlraw: netns name too long\n");
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET) < 0) {
		fprintf(stderr, "genlraw: netns %s: %s\n", name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int dump = -1, opt, fd, i, rc;
	unsigned long cmd;
	uint16_t family;
	uint32_t grp;

	while ((opt = getopt(argc, argv, "+N:dDqnb:w:W:")) != -1) {
		switch (opt) {
		case 'N':
			if (enter_netns(optarg))
				return 1;
			break;
		case 'w':
			wait_ms = number(optarg, 60000);
			break;
		case 'W':
			sync_file = optarg;
			break;
		case 'b':
			rcvsize = number(optarg, NLRAW_RCVBUF);
			if (rcvsize < 1024)
				usage();
			break;
		case 'd':
			dump = 1;
			break;
		case 'D':
			dump = 0;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'n':
			dry_run = 1;
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	if (!strcmp(argv[optind], "monitor"))
		return monitor(argc - optind - 1, argv + optind + 1);

	cmd = name_or_number(argv[optind], cmd_names, ARRAY_SIZE(cmd_names),
			     UINT8_MAX);
	if (dump < 0)
		dump = cmd == SLUICE_CMD_MAP_GET || cmd == SLUICE_CMD_STATS_GET;

	fd = dry_run ? -1 : open_family(&family, &grp);
	if (fd >= 0 && rcvsize != NLRAW_RCVBUF) {
		/* Resolving read big: a fresh socket has not. */
		close(fd);
		fd = nlraw_open();
		if (fd < 0) {
			perror("genlraw: netlink socket");
			return 1;
		}
	}
	nlraw_start(&msg, dry_run ? 0 : family,
		    NLM_F_REQUEST | (dump ? NLM_F_DUMP : NLM_F_ACK), SEQ, cmd,
		    SLUICE_GENL_VERSION);
	i = optind + 1;
	i += put_attrs(argv + i, argc - i);
	if (i != argc)
		usage();
	nlraw_end(&msg);

	if (dry_run) {
		size_t k;

		for (k = 0; k < ndry; k++)
			print_entry(&dry[k]);
		free(dry);
		free(msg.buf);
		return 0;
	}
	/* One request of tens of thousands of entries is megabytes. */
	{
		int size = msg.len + 4096;

		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size,
			       sizeof(size)) < 0)
			setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size,
				   sizeof(size));
	}
	nlraw_timeout(fd, 60000);
	if (nlraw_send(fd, msg.buf, msg.len) < 0) {
		printf("error: %s: %s\n", errno_name(errno), strerror(errno));
		return 1;
	}
	rc = run(fd, family);
	free(msg.buf);
	close(fd);
	return rc;
}
