// SPDX-License-Identifier: GPL-2.0
/*
 * portfcdump: decode the PortFC signal frames (EtherType 0x88B5, struct
 * sluice_portfc_hdr and its records, include/uapi/linux/sluice.h) of a
 * capture, so selftests can check what a port sent without a dissector
 * for it.
 *
 *   portfcdump [-c] FILE.pcap      (- or no FILE: standard input)
 *
 * FILE is a classic pcap file as "tcpdump -w" writes it (either byte
 * order, microsecond or nanosecond timestamps) of link type Ethernet;
 * frames with one or two 802.1Q/802.1ad tags are read under them.  Every
 * record of a signal frame is one line:
 *
 *   t=SECONDS.USEC src=MAC origin=N seq=N op=pause|resume type=A|B port=N flags=relayed|- quanta=N
 *
 * (an unknown opcode prints as op=?N, an unknown type as type=?N, other
 * flag bits as flags=0xN).  A frame of EtherType 0x88B5 that the kernel
 * must ignore whole prints one line "t=... src=MAC malformed: REASON",
 * REASON one of:
 *
 *   dst MAC      not sent to 01:80:c2:00:00:01
 *   short        too short for the header
 *   magic 0xN    not SLUICE_PORTFC_MAGIC
 *   version N    not SLUICE_PORTFC_VERSION
 *   count N      0, above SLUICE_PORTFC_MAX_RECS, or more records than
 *                the frame holds
 *   truncated    the capture kept too little of the frame to tell
 *                (a snap length); the frame itself may be good
 *
 * Other frames are skipped.  -c prints one line of counts instead:
 * "frames=N pause=N resume=N other=N relayed=N malformed=N" (frames: the
 * well-formed signal frames; other: records with an unknown opcode).
 * Exit status: 0, 1 if the file cannot be read as a pcap of Ethernet, 2
 * for a bad command line.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/sluice.h>

#define PCAP_MAGIC_US	0xa1b2c3d4
#define PCAP_MAGIC_NS	0xa1b23c4d
#define LINKTYPE_ETHERNET 1
#define MAX_SNAP	262144

static const uint8_t signal_dst[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

struct counts {
	unsigned long frames, pause, resume, other, relayed, malformed;
};

static bool swapped, nsec, counts_only;
static struct counts cnt;

static void die(const char *what)
{
	fprintf(stderr, "portfcdump: %s\n", what);
	exit(1);
}

static uint32_t u32(uint32_t v)
{
	return swapped ? __builtin_bswap32(v) : v;
}

static uint16_t be16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

static void prefix(uint32_t sec, uint32_t frac, const uint8_t *src)
{
	printf("t=%u.%06u src=%02x:%02x:%02x:%02x:%02x:%02x ", sec,
	       nsec ? frac / 1000 : frac, src[0], src[1], src[2], src[3],
	       src[4], src[5]);
}

static void malformed(uint32_t sec, uint32_t frac, const uint8_t *f,
		      const char *reason, int v)
{
	cnt.malformed++;
	if (counts_only)
		return;
	prefix(sec, frac, f + 6);
	printf("malformed: %s", reason);
	if (v >= 0)
		printf(strcmp(reason, "magic") ? " %d" : " 0x%04x", v);
	printf("\n");
}

/*
 * One captured frame: caplen bytes of a frame len bytes long.  Decides as
 * the kernel does (uapi: "Frames that are short, to another address, of
 * another magic or version, or whose count overruns the frame").
 */
static void frame(uint32_t sec, uint32_t frac, const uint8_t *f,
		  uint32_t caplen, uint32_t len)
{
	const struct sluice_portfc_hdr *h;
	size_t off = 12, hl = sizeof(*h), rl = sizeof(struct sluice_portfc_rec);
	uint16_t type;
	unsigned int i, n;

	if (caplen < 14)
		return;
	type = be16(f + off);
	/* Up to two VLAN tags. */
	for (i = 0; i < 2 && (type == 0x8100 || type == 0x88a8); i++) {
		off += 4;
		if (caplen < off + 2)
			return;
		type = be16(f + off);
	}
	if (type != SLUICE_PORTFC_ETHERTYPE)
		return;
	off += 2;
	if (memcmp(f, signal_dst, 6)) {
		malformed(sec, frac, f, "dst MAC", -1);
		return;
	}
	if (len < off + hl) {
		malformed(sec, frac, f, "short", -1);
		return;
	}
	if (caplen < off + hl) {
		malformed(sec, frac, f, "truncated", -1);
		return;
	}
	h = (const struct sluice_portfc_hdr *)(f + off);
	if (ntohs(h->magic) != SLUICE_PORTFC_MAGIC) {
		malformed(sec, frac, f, "magic", ntohs(h->magic));
		return;
	}
	if (h->version != SLUICE_PORTFC_VERSION) {
		malformed(sec, frac, f, "version", h->version);
		return;
	}
	n = h->count;
	if (!n || n > SLUICE_PORTFC_MAX_RECS || len < off + hl + n * rl) {
		malformed(sec, frac, f, "count", n);
		return;
	}
	if (caplen < off + hl + n * rl) {
		malformed(sec, frac, f, "truncated", -1);
		return;
	}
	cnt.frames++;
	for (i = 0; i < n; i++) {
		const struct sluice_portfc_rec *r =
			(const void *)(f + off + hl + i * rl);

		if (r->opcode == SLUICE_PORTFC_PAUSE)
			cnt.pause++;
		else if (r->opcode == SLUICE_PORTFC_RESUME)
			cnt.resume++;
		else
			cnt.other++;
		if (r->flags & SLUICE_PORTFC_F_RELAYED)
			cnt.relayed++;
		if (counts_only)
			continue;
		prefix(sec, frac, f + 6);
		printf("origin=%u seq=%u ", ntohl(h->origin), ntohl(h->seq));
		if (r->opcode == SLUICE_PORTFC_PAUSE)
			printf("op=pause ");
		else if (r->opcode == SLUICE_PORTFC_RESUME)
			printf("op=resume ");
		else
			printf("op=?%u ", r->opcode);
		if (r->qtype == SLUICE_PORTFC_QA)
			printf("type=A ");
		else if (r->qtype == SLUICE_PORTFC_QB)
			printf("type=B ");
		else
			printf("type=?%u ", r->qtype);
		printf("port=%u ", r->port);
		if (r->flags == SLUICE_PORTFC_F_RELAYED)
			printf("flags=relayed ");
		else if (!r->flags)
			printf("flags=- ");
		else
			printf("flags=0x%x ", r->flags);
		printf("quanta=%u\n", ntohs(r->quanta));
	}
}

static bool get(FILE *in, void *buf, size_t len, bool eof_ok)
{
	size_t got = fread(buf, 1, len, in);

	if (got == len)
		return true;
	if (got == 0 && eof_ok && feof(in))
		return false;
	die(ferror(in) ? strerror(errno) : "the capture ends inside a record");
	return false;
}

int main(int argc, char **argv)
{
	struct {
		uint32_t magic;
		uint16_t major, minor;
		int32_t zone;
		uint32_t sigfigs, snaplen, linktype;
	} gh;
	struct {
		uint32_t sec, frac, caplen, len;
	} ph;
	static uint8_t buf[MAX_SNAP];
	FILE *in = stdin;
	int c;

	while ((c = getopt(argc, argv, "ch")) != -1) {
		switch (c) {
		case 'c': counts_only = true; break;
		case 'h':
			printf("usage: portfcdump [-c] [FILE.pcap]\n");
			return 0;
		default:
			fprintf(stderr, "usage: portfcdump [-c] [FILE.pcap]\n");
			return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "usage: portfcdump [-c] [FILE.pcap]\n");
		return 2;
	}
	if (optind < argc && strcmp(argv[optind], "-")) {
		in = fopen(argv[optind], "rb");
		if (!in) {
			fprintf(stderr, "portfcdump: %s: %s\n", argv[optind],
				strerror(errno));
			return 1;
		}
	}
	if (!get(in, &gh, sizeof(gh), true))
		die("empty file: not a pcap capture");
	if (gh.magic == PCAP_MAGIC_US || gh.magic == PCAP_MAGIC_NS) {
		swapped = false;
	} else if (gh.magic == __builtin_bswap32(PCAP_MAGIC_US) ||
		   gh.magic == __builtin_bswap32(PCAP_MAGIC_NS)) {
		swapped = true;
	} else {
		die("not a classic pcap file (pcapng? write it with tcpdump -w)");
	}
	nsec = u32(gh.magic) == PCAP_MAGIC_NS;
	if ((u32(gh.linktype) & 0x0fffffff) != LINKTYPE_ETHERNET)
		die("not an Ethernet capture (capture on a device, not \"any\")");
	while (get(in, &ph, sizeof(ph), true)) {
		uint32_t caplen = u32(ph.caplen);

		if (caplen > sizeof(buf))
			die("a record longer than 256 KiB: a corrupt capture");
		get(in, buf, caplen, false);
		frame(u32(ph.sec), u32(ph.frac), buf, caplen, u32(ph.len));
	}
	if (counts_only)
		printf("frames=%lu pause=%lu resume=%lu other=%lu relayed=%lu malformed=%lu\n",
		       cnt.frames, cnt.pause, cnt.resume, cnt.other, cnt.relayed,
		       cnt.malformed);
	if (in != stdin)
		fclose(in);
	return 0;
}
