// SPDX-License-Identifier: GPL-2.0
/*
 * genlraw: send one request of the "sluice" generic netlink family with
 * hand-built attributes, so selftests can check the kernel's own
 * validation of what sluicectl would never send (values out of range,
 * unknown attributes, wrong lengths, trailing bytes).
 *
 *   genlraw [-d] CMD ATTR...
 *
 *   CMD  := switch-get | switch-set | map-load | map-get | map-flush
 *         | stats-get | NUMBER
 *   ATTR := u8 TYPE VALUE | u16 TYPE VALUE | u32 TYPE VALUE
 *         | u64 TYPE VALUE | string TYPE TEXT
 *         | hex TYPE HEXBYTES            (raw payload)
 *         | entry DEV MAP TAG VALUE FLAGS
 *                                        (SLUICE_A_MAP_ENTRY; DEV is a
 *                                        device name, or a number for an
 *                                        ifindex, 0 for every port)
 *         | nest TYPE ... end            (with NLA_F_NESTED)
 *         | empty TYPE                   (an attribute with no payload)
 *         | trailing HEXBYTES            (bytes after the last attribute,
 *                                        not an attribute)
 *
 * It acts on the switch of the namespace it runs in.  Prints "ok" (with
 * -d, a dump: "ok N" for N messages received) or "error: MESSAGE" (the
 * kernel's extack message, or strerror if there is none) and exits 0 or
 * 1; 2 for bad usage.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sluice.h>
#include <net/if.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 8

static const struct {
	const char *name;
	int cmd;
} cmds[] = {
	{ "switch-get", SLUICE_CMD_SWITCH_GET },
	{ "switch-set", SLUICE_CMD_SWITCH_SET },
	{ "map-load", SLUICE_CMD_MAP_LOAD },
	{ "map-get", SLUICE_CMD_MAP_GET },
	{ "map-flush", SLUICE_CMD_MAP_FLUSH },
	{ "stats-get", SLUICE_CMD_STATS_GET },
};

static void usage(void)
{
	fprintf(stderr, "usage: genlraw [-d] CMD ATTR...\n");
	exit(2);
}

static unsigned long long number(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (end == s || *end) {
		fprintf(stderr, "genlraw: bad number \"%s\"\n", s);
		exit(2);
	}
	return v;
}

static size_t parse_hex(const char *hex, unsigned char *buf, size_t max)
{
	size_t i, n = strlen(hex) / 2;

	if (strlen(hex) % 2 || n > max)
		usage();
	for (i = 0; i < n; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			usage();
		buf[i] = b;
	}
	return n;
}

static int put_entry(struct nl_msg *msg, char **argv)
{
	struct sluice_map_entry e = { 0 };
	char *end;

	e.ifindex = strtoul(argv[0], &end, 0);
	if (end == argv[0] || *end) {
		e.ifindex = if_nametoindex(argv[0]);
		if (!e.ifindex) {
			fprintf(stderr, "genlraw: no device \"%s\"\n", argv[0]);
			exit(2);
		}
	}
	e.map = number(argv[1]);
	e.tag = number(argv[2]);
	e.value = number(argv[3]);
	e.flags = number(argv[4]);
	return nla_put(msg, SLUICE_A_MAP_ENTRY, sizeof(e), &e);
}

/*
 * Appends bytes that are not an attribute: libnl has no call for it, so
 * reserve the room (aligned) and shrink the header's length back.
 */
static int put_trailing(struct nl_msg *msg, const char *hex)
{
	unsigned char buf[64];
	size_t n = parse_hex(hex, buf, sizeof(buf));
	void *p = nlmsg_reserve(msg, n, 1);

	if (!p)
		return -1;
	memcpy(p, buf, n);
	return 0;
}

/* Appends the attributes of argv to msg. */
static void put_attrs(struct nl_msg *msg, int argc, char **argv)
{
	struct nlattr *nests[MAX_DEPTH];
	unsigned char buf[1024];
	int depth = 0, i, err = 0;

	for (i = 0; i < argc && !err; i++) {
		const char *kind = argv[i];
		int type;

		if (!strcmp(kind, "end")) {
			if (!depth)
				usage();
			err = nla_nest_end(msg, nests[--depth]);
			continue;
		}
		if (!strcmp(kind, "entry")) {
			if (i + 5 >= argc)
				usage();
			err = put_entry(msg, argv + i + 1);
			i += 5;
			continue;
		}
		if (i + 1 >= argc)
			usage();
		if (!strcmp(kind, "trailing")) {
			err = put_trailing(msg, argv[++i]);
			continue;
		}
		type = number(argv[++i]);
		if (!strcmp(kind, "empty")) {
			err = nla_put(msg, type, 0, NULL);
			continue;
		}
		if (!strcmp(kind, "nest")) {
			if (depth == MAX_DEPTH)
				usage();
			nests[depth] = nla_nest_start(msg, type);
			if (!nests[depth]) {
				err = -1;
				continue;
			}
			nests[depth++]->nla_type |= NLA_F_NESTED;
			continue;
		}
		if (i + 1 >= argc)
			usage();
		if (!strcmp(kind, "u8"))
			err = nla_put_u8(msg, type, number(argv[++i]));
		else if (!strcmp(kind, "u16"))
			err = nla_put_u16(msg, type, number(argv[++i]));
		else if (!strcmp(kind, "u32"))
			err = nla_put_u32(msg, type, number(argv[++i]));
		else if (!strcmp(kind, "u64"))
			err = nla_put_u64(msg, type, number(argv[++i]));
		else if (!strcmp(kind, "string"))
			err = nla_put_string(msg, type, argv[++i]);
		else if (!strcmp(kind, "hex"))
			err = nla_put(msg, type,
				      parse_hex(argv[++i], buf, sizeof(buf)), buf);
		else
			usage();
	}
	if (err || depth)
		usage();
}

/* The extack message carried after the echoed request, if any. */
static const char *extack_msg(struct nlmsghdr *nlh)
{
	struct nlmsgerr *e = nlmsg_data(nlh);
	size_t off = sizeof(*e);
	struct nlattr *a;
	int rem;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	nla_for_each_attr(a, (struct nlattr *)((char *)e + NLMSG_ALIGN(off)),
			  nlmsg_datalen(nlh) - NLMSG_ALIGN(off), rem) {
		if (nla_type(a) == NLMSGERR_ATTR_MSG)
			return nla_data(a);
	}
	return NULL;
}

struct result {
	int error;		/* 1 until an answer arrives */
	unsigned long msgs;	/* dump messages */
};

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct result *r = arg;
	const char *msg = extack_msg(nlh);

	(void)who;
	r->error = e->error;
	if (e->error)
		printf("error: %s\n", msg ? msg : strerror(-e->error));
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	(void)msg;
	((struct result *)arg)->error = 0;
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	(void)msg;
	((struct result *)arg)->msgs++;
	return NL_OK;
}

/* A dump ends with NLMSG_DONE, which may carry an error and extack. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	const char *text = NULL;
	struct result *r = arg;
	struct nlattr *a;
	int err = 0, rem;

	if (nlmsg_datalen(nlh) >= (int)sizeof(int))
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
	r->error = err;
	if (!err)
		return NL_STOP;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		nla_for_each_attr(a, (struct nlattr *)((char *)nlmsg_data(nlh) +
						       NLMSG_ALIGN(sizeof(int))),
				  nlmsg_datalen(nlh) - NLMSG_ALIGN(sizeof(int)),
				  rem) {
			if (nla_type(a) == NLMSGERR_ATTR_MSG)
				text = nla_data(a);
		}
	}
	printf("error: %s\n", text ? text : strerror(-err));
	return NL_STOP;
}

int main(int argc, char **argv)
{
	int family, cmd = -1, one = 1, first = 1, flags = NLM_F_ACK;
	struct result r = { .error = 1 };
	bool dump = false;
	struct nl_sock *sk;
	struct nl_msg *msg;
	struct nl_cb *cb;
	size_t i;

	if (argc > 1 && !strcmp(argv[1], "-d")) {
		dump = true;
		flags = NLM_F_DUMP;
		first++;
	}
	if (argc <= first)
		usage();
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[first], cmds[i].name))
			cmd = cmds[i].cmd;
	if (cmd < 0)
		cmd = number(argv[first]);

	sk = nl_socket_alloc();
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	msg = nlmsg_alloc();
	if (!sk || !cb || !msg || genl_connect(sk)) {
		fprintf(stderr, "genlraw: cannot open a netlink socket\n");
		return 1;
	}
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one,
		   sizeof(one));
	family = genl_ctrl_resolve(sk, SLUICE_GENL_NAME);
	if (family < 0) {
		printf("error: no \"%s\" family: %s\n", SLUICE_GENL_NAME,
		       nl_geterror(family));
		return 1;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags, cmd,
			 SLUICE_GENL_VERSION))
		usage();
	put_attrs(msg, argc - first - 1, argv + first + 1);

	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &r);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &r);
	if (nl_send_auto(sk, msg) < 0) {
		printf("error: cannot send the request\n");
	} else {
		while (r.error == 1 && nl_recvmsgs(sk, cb) >= 0)
			;
		if (r.error == 1)
			printf("error: netlink exchange failed\n");
	}
	if (!r.error) {
		if (dump)
			printf("ok %lu\n", r.msgs);
		else
			printf("ok\n");
	}
	nlmsg_free(msg);
	nl_cb_put(cb);
	nl_socket_free(sk);
	return r.error ? 1 : 0;
}
