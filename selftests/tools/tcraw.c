// SPDX-License-Identifier: GPL-2.0
/*
 * tcraw: send a qdisc or class request with hand-built TCA_OPTIONS, so
 * selftests can check the kernel's own validation of values that tc's
 * plugin would refuse before they reach the kernel.
 *
 *   tcraw [-n NETNS] DEV qdisc-add|qdisc-change HANDLE KIND ATTR...
 *   tcraw [-n NETNS] DEV class-change CLASSID KIND ATTR...
 *
 *   ATTR := u8 TYPE VALUE | u16 TYPE VALUE | u32 TYPE VALUE
 *         | hex TYPE HEXBYTES            (raw payload, e.g. 2e030000)
 *         | nest TYPE ... end            (with NLA_F_NESTED)
 *         | nest-noflag TYPE ... end     (without it)
 *         | empty TYPE                   (a nest with no payload)
 *
 * -n enters the network namespace NETNS (/run/netns/NETNS, as "ip netns
 * add" makes them) first: what "ip netns exec NETNS tcraw" does, without
 * the process more (a start costs ~0.1 s under the selftests' emulated
 * CPU).  The qdisc is the root qdisc of DEV.  Prints "ok" or "error: MESSAGE"
 * (the kernel's extack message, or strerror if there is none) and exits
 * 0 or 1; 2 for bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_DEPTH 8

static void usage(void)
{
	fprintf(stderr,
		"usage: tcraw [-n NETNS] DEV qdisc-add|qdisc-change HANDLE KIND ATTR...\n"
		"       tcraw [-n NETNS] DEV class-change CLASSID KIND ATTR...\n");
	exit(2);
}

static unsigned long number(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (end == s || *end) {
		fprintf(stderr, "tcraw: bad number \"%s\"\n", s);
		exit(2);
	}
	return v;
}

/* "1:" or "1:3" -> handle */
static __u32 handle(const char *s)
{
	unsigned int maj, min = 0;

	if (sscanf(s, "%x:%x", &maj, &min) < 1)
		usage();
	return (maj << 16) | min;
}

static int put_hex(struct nl_msg *msg, int type, const char *hex)
{
	unsigned char buf[256];
	size_t i, n = strlen(hex) / 2;

	if (strlen(hex) % 2 || n > sizeof(buf))
		usage();
	for (i = 0; i < n; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			usage();
		buf[i] = b;
	}
	return nla_put(msg, type, n, buf);
}

/* Appends the attributes of argv to msg inside TCA_OPTIONS. */
static void put_attrs(struct nl_msg *msg, int argc, char **argv)
{
	struct nlattr *nests[MAX_DEPTH];
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
		if (i + 1 >= argc)
			usage();
		type = number(argv[++i]);

		/* libnl drops empty nests at nla_nest_end(), so build it here. */
		if (!strcmp(kind, "empty")) {
			err = nla_put(msg, type | NLA_F_NESTED, 0, NULL);
			continue;
		}
		if (!strcmp(kind, "nest") || !strcmp(kind, "nest-noflag")) {
			if (depth == MAX_DEPTH)
				usage();
			nests[depth] = nla_nest_start(msg, type);
			if (!nests[depth]) {
				err = -1;
				continue;
			}
			/* Whatever libnl's default, set the flag as asked. */
			if (!strcmp(kind, "nest"))
				nests[depth]->nla_type |= NLA_F_NESTED;
			else
				nests[depth]->nla_type &= ~NLA_F_NESTED;
			depth++;
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
		else if (!strcmp(kind, "hex"))
			err = put_hex(msg, type, argv[++i]);
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

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	const char *msg = extack_msg(nlh);

	(void)who;
	*(int *)arg = e->error;
	if (e->error)
		printf("error: %s\n", msg ? msg : strerror(-e->error));
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	(void)msg;
	*(int *)arg = 0;
	return NL_STOP;
}

int main(int argc, char **argv)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC };
	int type, flags = NLM_F_REQUEST | NLM_F_ACK, one = 1, result = 1;
	struct nlattr *opts;
	struct nl_sock *sk;
	struct nl_msg *msg;
	struct nl_cb *cb;

	if (argc > 2 && !strcmp(argv[1], "-n")) {
		char path[4096];
		int fd;

		snprintf(path, sizeof(path), "/run/netns/%s", argv[2]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || setns(fd, CLONE_NEWNET)) {
			fprintf(stderr, "tcraw: cannot enter network namespace %s: %s\n",
				argv[2], strerror(errno));
			return 2;
		}
		close(fd);
		argc -= 2;
		argv += 2;
	}
	if (argc < 5)
		usage();
	tcm.tcm_ifindex = if_nametoindex(argv[1]);
	if (!tcm.tcm_ifindex) {
		fprintf(stderr, "tcraw: no device \"%s\"\n", argv[1]);
		return 2;
	}
	if (!strcmp(argv[2], "qdisc-add")) {
		type = RTM_NEWQDISC;
		flags |= NLM_F_CREATE | NLM_F_EXCL;
		tcm.tcm_parent = TC_H_ROOT;
	} else if (!strcmp(argv[2], "qdisc-change")) {
		type = RTM_NEWQDISC;
		tcm.tcm_parent = TC_H_ROOT;
	} else if (!strcmp(argv[2], "class-change")) {
		type = RTM_NEWTCLASS;
	} else {
		usage();
	}
	tcm.tcm_handle = handle(argv[3]);

	sk = nl_socket_alloc();
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	msg = nlmsg_alloc_simple(type, flags);
	if (!sk || !cb || !msg || nl_connect(sk, NETLINK_ROUTE)) {
		fprintf(stderr, "tcraw: cannot open a netlink socket\n");
		return 1;
	}
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one,
		   sizeof(one));
	if (nlmsg_append(msg, &tcm, sizeof(tcm), NLMSG_ALIGNTO) ||
	    nla_put_string(msg, TCA_KIND, argv[4]))
		usage();
	opts = nla_nest_start(msg, TCA_OPTIONS);
	if (!opts)
		usage();
	opts->nla_type |= NLA_F_NESTED;
	put_attrs(msg, argc - 5, argv + 5);
	nla_nest_end(msg, opts);

	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &result);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &result);
	if (nl_send_auto(sk, msg) < 0 || nl_recvmsgs(sk, cb) < 0) {
		if (result == 1)
			printf("error: netlink exchange failed\n");
	}
	if (!result)
		printf("ok\n");
	nlmsg_free(msg);
	nl_cb_put(cb);
	nl_socket_free(sk);
	return result ? 1 : 0;
}
