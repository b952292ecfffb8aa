// SPDX-License-Identifier: GPL-2.0
/*
 * sendframes: transmit crafted Ethernet frames on a device through an
 * AF_PACKET socket, so selftests can put any tag (PCP, DSCP, MPLS TC,
 * skb->priority) on a frame and count where it lands.
 *
 *   sendframes -i DEV [-c COUNT] [-s SIZE] [-d DSTMAC] [-p SKBPRIO]
 *              [-v VID:PCP [-Q VID]] [-a SRCIP,DSTIP] [-x HEX] [-E ECN]
 *              [-T TTL] [-L LABELS] [-A | -P | -U DPORT [-Z]] [-r RATE] [-t]
 *              (-4 DSCP | -6 DSCP | -m TC | -e ETHERTYPE)
 *   sendframes -i DEV -B      frame specs on stdin, one a line
 *
 * -B (batch) reads lines of the options above but -i, e.g. "-4 46 -c 3",
 * and sends each line's frames in turn on DEV, printing one result line
 * per spec line: one process for what would be dozens (under the
 * selftests' emulated CPU a process start costs about 0.1 s).  Blank
 * lines and lines starting with # are skipped; -c 0 is refused there.
 *
 * -L puts an MPLS label stack (TC 0, TTL 64, bottom of stack on the last
 * entry) in front of a -4 or -6 payload, as a switch that pins paths with
 * label stacks forwards it.  LABELS without a comma is a count N: N
 * entries with labels 1000, 1001, ...; with a comma it is the labels
 * themselves, top first: "-L 101,103" is 101 over 103, and a single label
 * is written with a trailing comma, "-L 101,".  Up to 32 entries.
 *
 * -A makes a -4 or -6 payload a TCP pure ACK (flag ACK, no payload: the
 * IP length says header only, whatever SIZE pads the frame to with
 * Ethernet padding); -P a TCP data segment (ACK|PSH, the payload filling
 * SIZE).  Both from port 40000 to 5001, with a valid TCP checksum.
 * -U makes a -4 payload a UDP datagram from port 40000 to DPORT, its
 * payload the -x bytes, then zeros up to SIZE, with a valid checksum; -Z
 * sends it with checksum 0 (none).  -Q puts an 802.1ad tag (VID, PCP 0) in
 * front of -v's 802.1Q tag: two tags in the frame (QinQ).
 *
 * -T sets the IPv4 TTL, IPv6 hop limit or MPLS TTL (default 64).  -r paces
 * the frames at RATE frames per second (on an absolute schedule, so a late
 * frame does not slow the ones after it); with -c 0 the sender runs until
 * SIGINT or SIGTERM and then prints its count as usual: a steady sender
 * for tests that change something under traffic.
 * -E sets the ECN field of IPv4/IPv6 frames (0 not-ECT, 1 ECT(1), 2 ECT(0),
 * 3 CE); -a sets the IPv4 addresses (default 198.18.0.1,198.18.0.2), so frames
 * can be routed; -x puts bytes right after the EtherType of an -e frame
 * (e.g. a MAC control frame: -e 0x8808 -x 0101000800000000...).
 *
 * The frame is padded to SIZE bytes (without FCS, default 100).  SIZE
 * only grows a frame to hold its headers, 40 bytes of IP and what -A or
 * -P need; an -e frame is only grown to hold its -x bytes, so
 * "-e 0x88b5 -x 534c -s 16" sends a 16-byte frame, shorter than Ethernet
 * allows (a veth carries it).  A frame
 * the qdisc drops makes sendto() fail with ENOBUFS; those are counted, not
 * fatal, and the last line of output is "sent=N refused=M"; -t adds
 * " cpu_ns=C", the CPU time the sending loop took (user and system,
 * CLOCK_PROCESS_CPUTIME_ID).  IPv4
 * frames carry a valid header checksum and protocol 253 (RFC 3692
 * experimentation), so hosts that receive them drop them quietly.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_FRAME	9000
#define IP_PROTO_TEST	253

enum payload { P_NONE, P_IPV4, P_IPV6, P_MPLS, P_RAW };

struct opts {
	const char *dev;
	unsigned long count;
	unsigned int size;
	uint8_t dst[ETH_ALEN];
	long skbprio;
	int vid, pcp;			/* vid < 0: no tag in the frame */
	enum payload payload;
	unsigned int value;		/* DSCP, MPLS TC or EtherType */
	struct in_addr ip_src, ip_dst;	/* IPv4 addresses */
	unsigned int ecn;		/* ECN bits of IP frames */
	unsigned int ttl;		/* IPv4 TTL, IPv6 hop limit, MPLS TTL */
	unsigned long rate;		/* frames per second; 0: as fast as possible */
	unsigned int labels;		/* -L: label stack entries before IP */
	uint32_t label[32];		/* their labels, top first */
	int tcp;			/* -A or -P: a TCP segment, else 0 */
	int udp_port;			/* -U: a UDP datagram to it, else -1 */
	bool udp_nocsum;		/* -Z: its checksum 0 */
	int svid;			/* -Q: outer 802.1ad tag, else -1 */
	uint8_t raw[256];		/* -x bytes after the EtherType */
	size_t raw_len;
	bool cputime;			/* -t: report the loop's CPU time */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: sendframes -i DEV [-c COUNT] [-s SIZE] [-d DSTMAC] [-p SKBPRIO]\n"
		"                  [-v VID:PCP [-Q VID]] [-a SRCIP,DSTIP] [-x HEX] [-E ECN]\n"
		"                  [-T TTL] [-L N|LABEL,[LABEL...]] [-A | -P | -U DPORT [-Z]]\n"
		"                  [-r RATE] [-t]\n"
		"                  (-4 DSCP | -6 DSCP | -m TC | -e ETHERTYPE)\n"
		"       sendframes -i DEV -B     (the options but -i, a line a spec, on stdin)\n");
}

static void die(const char *what)
{
	fprintf(stderr, "sendframes: %s\n", what);
	exit(1);
}

static unsigned long number(const char *s, unsigned long max, const char *what)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > max) {
		fprintf(stderr, "sendframes: bad %s \"%s\" (0..%lu)\n", what, s, max);
		exit(2);
	}
	return v;
}

static void parse_mac(const char *s, uint8_t *mac)
{
	unsigned int b[ETH_ALEN];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5]) != ETH_ALEN) {
		fprintf(stderr, "sendframes: bad MAC \"%s\"\n", s);
		exit(2);
	}
	for (i = 0; i < ETH_ALEN; i++)
		mac[i] = b[i];
}

static void parse_addrs(struct opts *o, char *arg)
{
	char *comma = strchr(arg, ',');

	if (!comma)
		die("-a takes SRCIP,DSTIP");
	*comma = '\0';
	if (!inet_aton(arg, &o->ip_src) || !inet_aton(comma + 1, &o->ip_dst))
		die("bad IPv4 address in -a");
}

static void parse_hex(struct opts *o, const char *hex)
{
	size_t i, n = strlen(hex);

	if (n % 2 || n / 2 > sizeof(o->raw))
		die("-x takes an even number of hex digits, at most 512");
	for (i = 0; i < n / 2; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			die("bad hex digit in -x");
		o->raw[i] = b;
	}
	o->raw_len = n / 2;
}

/* -L N (labels 1000, 1001, ...) or -L LABEL,[LABEL...] (these, top first). */
static void parse_labels(struct opts *o, char *arg)
{
	char *tok, *save;
	unsigned int i;

	if (!strchr(arg, ',')) {
		o->labels = number(arg, 32, "label count");
		for (i = 0; i < o->labels; i++)
			o->label[i] = 1000 + i;
		return;
	}
	o->labels = 0;
	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->labels == 32)
			die("-L takes at most 32 labels");
		o->label[o->labels++] = number(tok, 0xfffff, "label");
	}
	if (!o->labels)
		die("-L takes N or LABEL,[LABEL...]");
}

static void set_payload(struct opts *o, enum payload p, unsigned long v)
{
	if (o->payload != P_NONE)
		die("give one of -4, -6, -m, -e");
	o->payload = p;
	o->value = v;
}

/*
 * Parses one spec.  In a batch line (dev given) -i and -B are not options
 * and -c 0 is refused; *batch is set when the command line asks for -B.
 */
static void parse_args(struct opts *o, int argc, char **argv, const char *dev,
		       bool *batch)
{
	const char *optstring = dev ? "c:s:d:p:v:Q:a:x:E:T:L:APU:Zr:t4:6:m:e:h" :
				      "i:c:s:d:p:v:Q:a:x:E:T:L:APU:Zr:t4:6:m:e:hB";
	char *colon;
	int c;

	memset(o, 0, sizeof(*o));
	o->dev = dev;
	o->count = 1;
	o->size = 100;
	o->skbprio = -1;
	o->vid = -1;
	o->svid = -1;
	o->udp_port = -1;
	o->ttl = 64;
	memset(o->dst, 0xff, ETH_ALEN);
	inet_aton("198.18.0.1", &o->ip_src);
	inet_aton("198.18.0.2", &o->ip_dst);
	optind = 0;		/* glibc: start afresh for every batch line */
	while ((c = getopt(argc, argv, optstring)) != -1) {
		switch (c) {
		case 'i': o->dev = optarg; break;
		case 'B': *batch = true; break;
		case 'c': o->count = number(optarg, 10000000, "count"); break;
		case 's': o->size = number(optarg, MAX_FRAME, "size"); break;
		case 'd': parse_mac(optarg, o->dst); break;
		case 'p': o->skbprio = number(optarg, UINT32_MAX, "priority"); break;
		case 'a': parse_addrs(o, optarg); break;
		case 'x': parse_hex(o, optarg); break;
		case 'E': o->ecn = number(optarg, 3, "ECN"); break;
		case 'T': o->ttl = number(optarg, 255, "TTL"); break;
		case 'L': parse_labels(o, optarg); break;
		case 'A':
		case 'P':
			if (o->tcp && o->tcp != c)
				die("give one of -A, -P");
			o->tcp = c;
			break;
		case 'U': o->udp_port = number(optarg, 65535, "UDP port"); break;
		case 'Z': o->udp_nocsum = true; break;
		case 'Q': o->svid = number(optarg, 4095, "VLAN id"); break;
		case 'r': o->rate = number(optarg, 1000000, "rate"); break;
		case 't': o->cputime = true; break;
		case 'v':
			colon = strchr(optarg, ':');
			if (!colon)
				die("-v takes VID:PCP");
			*colon = '\0';
			o->vid = number(optarg, 4095, "VLAN id");
			o->pcp = number(colon + 1, 7, "PCP");
			break;
		case '4': set_payload(o, P_IPV4, number(optarg, 63, "DSCP")); break;
		case '6': set_payload(o, P_IPV6, number(optarg, 63, "DSCP")); break;
		case 'm': set_payload(o, P_MPLS, number(optarg, 7, "MPLS TC")); break;
		case 'e': set_payload(o, P_RAW, number(optarg, 0xffff, "EtherType")); break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (batch && *batch) {
		if (!o->dev || optind != argc || argc != 4)
			die("-B takes only -i DEV");
		return;
	}
	if (!o->dev || o->payload == P_NONE || optind != argc) {
		usage(stderr);
		exit(2);
	}
	if (o->labels && o->payload != P_IPV4 && o->payload != P_IPV6)
		die("-L needs -4 or -6");
	if (o->tcp && o->payload != P_IPV4 && o->payload != P_IPV6)
		die("-A and -P need -4 or -6");
	if (o->udp_port >= 0 && (o->payload != P_IPV4 || o->tcp))
		die("-U needs -4, and excludes -A and -P");
	if (o->udp_nocsum && o->udp_port < 0)
		die("-Z needs -U");
	if (o->raw_len && o->payload != P_RAW && o->udp_port < 0)
		die("-x needs -e or -U");
	if (o->svid >= 0 && o->vid < 0)
		die("-Q needs -v");
	if (!o->count && !o->rate)
		die("-c 0 (until stopped) needs -r");
	if (dev && !o->count)
		die("-c 0 (until stopped) is not for a batch line");
}

/* The ones' complement sum of len bytes (an odd last byte padded with 0). */
static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (p[i] << 8) | p[i + 1];
	if (len & 1)
		sum += p[len - 1] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

static uint16_t ip_checksum(const uint8_t *p, size_t len)
{
	return csum_fold(csum_add(0, p, len));
}

static long long ts_ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000LL + t->tv_nsec;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

#define TCP_HLEN	20
#define TCP_ACK		0x10
#define TCP_PSH		0x08

/*
 * The TCP header of -A or -P at l4, its segment tcplen bytes long, and
 * its checksum over the pseudo-header: IPv4 (ip6 false) or IPv6 addresses
 * at addr, each alen bytes.
 */
static void put_tcp(const struct opts *o, uint8_t *l4, size_t tcplen,
		    const uint8_t *addr, size_t alen)
{
	uint32_t sum;
	size_t i;

	put16(l4, 40000);			/* source port */
	put16(l4 + 2, 5001);			/* destination port */
	put16(l4 + 4, 0x0001);			/* sequence 0x00010000 */
	put16(l4 + 8, 0x0002);			/* acknowledgment 0x00020000 */
	l4[12] = (TCP_HLEN / 4) << 4;
	l4[13] = o->tcp == 'P' ? TCP_ACK | TCP_PSH : TCP_ACK;
	put16(l4 + 14, 65535);			/* window */
	for (i = TCP_HLEN; i < tcplen; i++)
		l4[i] = i;			/* payload */
	sum = csum_add(0, addr, 2 * alen);
	sum += IPPROTO_TCP + tcplen;
	sum = csum_add(sum, l4, tcplen);
	put16(l4 + 16, csum_fold(sum));
}

#define UDP_HLEN	8

/*
 * The UDP header of -U at l4, its datagram udplen bytes long (the -x
 * bytes already after it), and its checksum over the IPv4 pseudo-header
 * at addr, unless -Z.
 */
static void put_udp(const struct opts *o, uint8_t *l4, size_t udplen,
		    const uint8_t *addr)
{
	uint32_t sum;
	uint16_t csum;

	put16(l4, 40000);			/* source port */
	put16(l4 + 2, o->udp_port);
	put16(l4 + 4, udplen);
	if (o->udp_nocsum)
		return;
	sum = csum_add(0, addr, 8);
	sum += IPPROTO_UDP + udplen;
	sum = csum_add(sum, l4, udplen);
	csum = csum_fold(sum);
	put16(l4 + 6, csum ? csum : 0xffff);	/* 0 is "none" */
}

/* Returns the frame length. */
static size_t build(const struct opts *o, const uint8_t *src, uint8_t *f)
{
	size_t off = 2 * ETH_ALEN, len = o->size, stack = 4 * o->labels;
	size_t min = 40, iplen;
	unsigned int i;
	uint8_t *l3;

	memset(f, 0, MAX_FRAME);
	memcpy(f, o->dst, ETH_ALEN);
	memcpy(f + ETH_ALEN, src, ETH_ALEN);
	if (o->svid >= 0) {
		put16(f + off, ETH_P_8021AD);
		put16(f + off + 2, o->svid);
		off += 4;
	}
	if (o->vid >= 0) {
		put16(f + off, ETH_P_8021Q);
		put16(f + off + 2, (o->pcp << 13) | o->vid);
		off += 4;
	}
	l3 = f + off + 2;
	if (o->tcp)		/* an IP and a TCP header, a byte of data for -P */
		min = (o->payload == P_IPV6 ? 40 : 20) + TCP_HLEN +
		      (o->tcp == 'P');
	else if (o->payload == P_RAW)	/* as short as asked, -x bytes kept */
		min = o->raw_len;
	else if (o->udp_port >= 0)	/* the headers and the -x bytes */
		min = 20 + UDP_HLEN + o->raw_len;
	if (len < off + 2 + stack + min)
		len = off + 2 + stack + min;
	for (i = 0; i < o->labels; i++) {
		uint32_t lse = o->label[i] << 12 | 64;

		if (i + 1 == o->labels)
			lse |= 1 << 8;			/* bottom of stack */
		put16(l3, lse >> 16);
		put16(l3 + 2, lse);
		l3 += 4;
	}
	switch (o->payload) {
	case P_IPV4:
		put16(f + off, stack ? ETH_P_MPLS_UC : ETH_P_IP);
		/* A pure ACK's IP length leaves the Ethernet padding out. */
		iplen = o->tcp == 'A' ? 20 + TCP_HLEN : len - off - 2 - stack;
		l3[0] = 0x45;
		l3[1] = o->value << 2 | o->ecn;
		put16(l3 + 2, iplen);
		l3[8] = o->ttl;
		l3[9] = o->tcp ? IPPROTO_TCP : o->udp_port >= 0 ? IPPROTO_UDP :
			IP_PROTO_TEST;
		memcpy(l3 + 12, &o->ip_src, 4);
		memcpy(l3 + 16, &o->ip_dst, 4);
		put16(l3 + 10, ip_checksum(l3, 20));
		if (o->tcp)
			put_tcp(o, l3 + 20, iplen - 20, l3 + 12, 4);
		if (o->udp_port >= 0) {
			memcpy(l3 + 20 + UDP_HLEN, o->raw, o->raw_len);
			put_udp(o, l3 + 20, iplen - 20, l3 + 12);
		}
		break;
	case P_IPV6:
		put16(f + off, stack ? ETH_P_MPLS_UC : ETH_P_IPV6);
		iplen = o->tcp == 'A' ? 40 + TCP_HLEN : len - off - 2 - stack;
		l3[0] = 0x60 | (o->value >> 2);
		l3[1] = (o->value & 3) << 6 | o->ecn << 4;
		put16(l3 + 4, iplen - 40);
		l3[6] = o->tcp ? IPPROTO_TCP : IP_PROTO_TEST;
		l3[7] = o->ttl;
		l3[8] = 0x20; l3[9] = 0x01; l3[10] = 0x0d; l3[11] = 0xb8;
		l3[23] = 1;				/* 2001:db8::1 */
		l3[24] = 0x20; l3[25] = 0x01; l3[26] = 0x0d; l3[27] = 0xb8;
		l3[39] = 2;				/* 2001:db8::2 */
		if (o->tcp)
			put_tcp(o, l3 + 40, iplen - 40, l3 + 8, 16);
		break;
	case P_MPLS:
		put16(f + off, ETH_P_MPLS_UC);
		/* Label 1000, TC, bottom of stack, TTL. */
		l3[0] = 1000 >> 12;
		l3[1] = (1000 >> 4) & 0xff;
		l3[2] = ((1000 & 0xf) << 4) | (o->value << 1) | 1;
		l3[3] = o->ttl;
		break;
	default:
		put16(f + off, o->value);
		memcpy(l3, o->raw, o->raw_len);
		break;
	}
	return len;
}

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * Sleeps until frame i's slot of the -r schedule that started at t0; a
 * signal ends the sleep early (stop is then set).
 */
static void pace(const struct opts *o, const struct timespec *t0,
		 unsigned long i)
{
	long long at = ts_ns(t0) + (long long)(i * (1000000000.0 / o->rate));
	struct timespec ts = {
		.tv_sec = at / 1000000000LL,
		.tv_nsec = at % 1000000000LL,
	};

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/*
 * Sends the frames of one spec on fd, bound to nothing: sll names the
 * device, src is its MAC address.  Prints the result line; returns 0, or 1
 * on a send error other than the qdisc's refusal.
 */
static int send_spec(int fd, const struct opts *o, const struct sockaddr_ll *sll,
		     const uint8_t *src)
{
	static uint8_t frame[MAX_FRAME];
	unsigned long i, refused = 0;
	struct timespec t0, t1, start;
	int prio = o->skbprio >= 0 ? o->skbprio : 0;
	size_t len;

	/* Set every time: a batch line without -p sends at priority 0. */
	if (setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &prio, sizeof(prio)))
		die("SO_PRIORITY: needs CAP_NET_ADMIN above 6");
	len = build(o, src, frame);
	clock_gettime(CLOCK_MONOTONIC, &start);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	for (i = 0; (!o->count || i < o->count) && !stop; i++) {
		if (o->rate) {
			pace(o, &start, i);
			if (stop)
				break;
		}
		if (sendto(fd, frame, len, 0, (const struct sockaddr *)sll,
			   sizeof(*sll)) == (ssize_t)len)
			continue;
		if (errno == ENOBUFS) {
			refused++;
		} else if (errno == EINTR && stop) {
			break;
		} else {
			fprintf(stderr, "sendframes: frame %lu: %s\n", i + 1,
				strerror(errno));
			return 1;
		}
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	printf("sent=%lu refused=%lu", i - refused, refused);
	if (o->cputime)
		printf(" cpu_ns=%lld", ts_ns(&t1) - ts_ns(&t0));
	printf("\n");
	return 0;
}

/* -B: a spec a line on stdin, each parsed as a command line would be. */
static int send_batch(int fd, const char *dev, const struct sockaddr_ll *sll,
		      const uint8_t *src)
{
	char line[1024], *argv[64], *tok;
	unsigned long lineno = 0;
	int sndbuf = 4 << 20;
	struct opts o;
	int argc;

	/*
	 * Frames a paused qdisc holds stay charged to this one socket's send
	 * buffer, where each spec used to have a socket of its own: make room
	 * for a batch's worth, so that no sendto() blocks behind a pause.
	 */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)))
		die("SO_SNDBUFFORCE: -B needs CAP_NET_ADMIN");
	while (fgets(line, sizeof(line), stdin) && !stop) {
		lineno++;
		if (!strchr(line, '\n') && !feof(stdin)) {
			fprintf(stderr, "sendframes: line %lu: longer than %zu bytes\n",
				lineno, sizeof(line) - 2);
			return 2;
		}
		argc = 0;
		argv[argc++] = "sendframes";
		for (tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
			if (argc == 63) {
				fprintf(stderr, "sendframes: line %lu: too many words\n", lineno);
				return 2;
			}
			argv[argc++] = tok;
		}
		argv[argc] = NULL;
		if (argc == 1 || argv[1][0] == '#')
			continue;
		parse_args(&o, argc, argv, dev, NULL);
		if (send_spec(fd, &o, sll, src))
			return 1;
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct sigaction sa = { .sa_handler = on_stop };
	struct ifreq ifr = { 0 };
	uint8_t src[ETH_ALEN];
	bool batch = false;
	struct opts o;
	int fd, rc;

	parse_args(&o, argc, argv, NULL, &batch);
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		die("socket(AF_PACKET): needs CAP_NET_RAW");
	if (strlen(o.dev) >= IFNAMSIZ)
		die("device name too long");
	strcpy(ifr.ifr_name, o.dev);
	if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0)
		die("no such device");
	sll.sll_ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		die("cannot read the device's MAC address");
	memcpy(src, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	/* No SA_RESTART: a stop signal interrupts the pacing sleep. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (batch)
		rc = send_batch(fd, o.dev, &sll, src);
	else
		rc = send_spec(fd, &o, &sll, src);
	close(fd);
	return rc;
}
