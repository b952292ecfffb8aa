// SPDX-License-Identifier: GPL-2.0
/*
 * dcbraw: one dcbnl set request, and what the kernel answered to it.
 *
 *   dcbraw DEV pfc PFC_EN DELAY [MBC]     DCB_CMD_IEEE_SET, an ieee_pfc
 *   dcbraw DEV app-add SEL PROTOCOL PRIO  DCB_CMD_IEEE_SET, one APP entry
 *   dcbraw DEV app-del SEL PROTOCOL PRIO  DCB_CMD_IEEE_DEL, one APP entry
 *   dcbraw DEV cee-app IDTYPE ID UP       DCB_CMD_SAPP (CEE)
 *
 * Prints "error=E status=S": E the netlink ack's error, S the op's own
 * result, which dcbnl puts in the reply as a u8 (DCB_ATTR_IEEE,
 * DCB_ATTR_APP) holding a negative errno.  The dcb tool of iproute2 6.1
 * loses S when it also read something first (dcb pfc set reads, then
 * sets): it takes the read's ack for the set's (fixed in 6.2 by
 * d0e02f35 "dcb: Do not leave ACKs in socket receive buffer").  Exits 0
 * once the kernel answered, 1 otherwise.
 */
#include <errno.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdlib.h>

#include "nlraw.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: dcbraw DEV pfc PFC_EN DELAY [MBC]\n"
		"       dcbraw DEV { app-add | app-del } SEL PROTOCOL PRIO\n"
		"       dcbraw DEV cee-app IDTYPE ID UP\n");
	exit(1);
}

static unsigned long num(const char *s, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || end == s || v > max)
		usage();
	return v;
}

/* nlmsghdr and dcbmsg; the seq is 1. */
static void dcb_start(struct nlraw_msg *m, uint8_t cmd)
{
	struct nlmsghdr nlh = {
		.nlmsg_type = RTM_SETDCB,
		.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		.nlmsg_seq = 1,
	};
	struct dcbmsg d = { .dcb_family = AF_UNSPEC, .cmd = cmd };

	m->len = 0;
	m->depth = 0;
	nlraw_append(m, &nlh, sizeof(nlh));
	nlraw_append(m, &d, sizeof(d));
}

static void put_app(struct nlraw_msg *m, char **argv)
{
	struct dcb_app app = {
		.selector = num(argv[0], 255),
		.protocol = num(argv[1], 65535),
		.priority = num(argv[2], 255),
	};

	nlraw_nest_start(m, DCB_ATTR_IEEE | NLA_F_NESTED);
	nlraw_nest_start(m, DCB_ATTR_IEEE_APP_TABLE | NLA_F_NESTED);
	nlraw_put(m, DCB_ATTR_IEEE_APP, &app, sizeof(app));
	nlraw_nest_end(m);
	nlraw_nest_end(m);
}

int main(int argc, char **argv)
{
	static unsigned char buf[NLRAW_RCVBUF];
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd, error = 0, status = 0, status_attr, done = 0;
	struct nlraw_msg m = { 0 };
	const char *cmd;
	ssize_t n;

	if (argc < 3 || strlen(argv[1]) >= IFNAMSIZ)
		usage();
	cmd = argv[2];
	if (!strcmp(cmd, "pfc") && (argc == 5 || argc == 6)) {
		struct ieee_pfc pfc = {
			.pfc_cap = IEEE_8021QAZ_MAX_TCS,
			.pfc_en = num(argv[3], 255),
			.delay = num(argv[4], 65535),
			.mbc = argc == 6 ? num(argv[5], 255) : 0,
		};

		dcb_start(&m, DCB_CMD_IEEE_SET);
		nlraw_put(&m, DCB_ATTR_IFNAME, argv[1], strlen(argv[1]) + 1);
		nlraw_nest_start(&m, DCB_ATTR_IEEE | NLA_F_NESTED);
		nlraw_put(&m, DCB_ATTR_IEEE_PFC, &pfc, sizeof(pfc));
		nlraw_nest_end(&m);
		status_attr = DCB_ATTR_IEEE;
	} else if ((!strcmp(cmd, "app-add") || !strcmp(cmd, "app-del")) &&
		   argc == 6) {
		dcb_start(&m, cmd[4] == 'a' ? DCB_CMD_IEEE_SET : DCB_CMD_IEEE_DEL);
		nlraw_put(&m, DCB_ATTR_IFNAME, argv[1], strlen(argv[1]) + 1);
		put_app(&m, argv + 3);
		status_attr = DCB_ATTR_IEEE;
	} else if (!strcmp(cmd, "cee-app") && argc == 6) {
		dcb_start(&m, DCB_CMD_SAPP);
		nlraw_put(&m, DCB_ATTR_IFNAME, argv[1], strlen(argv[1]) + 1);
		nlraw_nest_start(&m, DCB_ATTR_APP | NLA_F_NESTED);
		nlraw_put_u8(&m, DCB_APP_ATTR_IDTYPE, num(argv[3], 255));
		nlraw_put(&m, DCB_APP_ATTR_ID, &(uint16_t){ num(argv[4], 65535) },
			  sizeof(uint16_t));
		nlraw_put_u8(&m, DCB_APP_ATTR_PRIORITY, num(argv[5], 255));
		nlraw_nest_end(&m);
		status_attr = DCB_ATTR_APP;
	} else {
		usage();
	}

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("netlink socket");
		return 1;
	}
	nlraw_timeout(fd, 5000);
	if (nlraw_send(fd, m.buf, nlraw_end(&m)) < 0) {
		perror("send");
		return 1;
	}
	free(m.buf);
	/* The reply (if the op ran), then the ack. */
	while (!done) {
		const struct nlmsghdr *nlh = (const void *)buf;
		int left;

		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			perror("recv");
			return 1;
		}
		for (left = (int)n; NLMSG_OK(nlh, left); nlh = NLMSG_NEXT(nlh, left)) {
			const struct nlattr *a;
			const char *msg;
			int rem;

			if (nlh->nlmsg_seq != 1)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				if (!nlraw_status(nlh, &error, &msg)) {
					fprintf(stderr, "short ack\n");
					return 1;
				}
				done = 1;
				continue;
			}
			if (nlh->nlmsg_type != RTM_SETDCB)
				continue;
			nlraw_for_each_attr(a, (const char *)NLMSG_DATA(nlh) +
						sizeof(struct dcbmsg),
					    nlh->nlmsg_len - NLMSG_HDRLEN -
						sizeof(struct dcbmsg), rem) {
				if (nlraw_type(a) == status_attr && nlraw_len(a) == 1)
					status = *(const int8_t *)nlraw_data(a);
			}
		}
	}
	printf("error=%d status=%d\n", error, status);
	close(fd);
	return 0;
}
