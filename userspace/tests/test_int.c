// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * INT probes without a kernel port to stamp them (sluice/int.h):
 *
 * - the wire layout: a probe built here has the header's bytes where
 *   <linux/sluice.h> puts them, and records written byte by byte at the
 *   offsets a port writes (big-endian) read back as the values meant;
 * - the reader is strict: another magic, another version, no records,
 *   more than 32, more filled than allocated, or a payload shorter than
 *   its stack are each refused with their own error;
 * - the echo: flag and time set in place, nothing else changed;
 * - the two ends on loopback: `int echo` answers, the prober gets its own
 *   probe back (seq, flags, time) with no hop (lo has no sluice port), a
 *   probe with nobody answering times out;
 * - the CLI refuses bad arguments before sending anything;
 * - captures: the probe found in frames as the ports see them (plain,
 *   under a VLAN tag, under two MPLS labels, with IP options) and not in
 *   others (another port, TCP, a later fragment, ARP), a frame cut short
 *   refused; `int decode` reads a pcap file of them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/wait.h>
#include <linux/sluice.h>
#include <sluice/int.h>
#include "cli.h"
#include "ktap.h"

static char err[256];

static void be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void be64(uint8_t *p, uint64_t v)
{
	be32(p, v >> 32);
	be32(p + 4, v);
}

static void test_layout(void)
{
	struct sluice_int_probe p;
	uint8_t buf[512], *r;

	KTAP_EXPECT_INT(sizeof(struct sluice_int_hdr), 32);
	KTAP_EXPECT_INT(sizeof(struct sluice_int_rec), 48);
	KTAP_EXPECT_INT(sluice_int_probe_size(3), 32 + 3 * 48);
	KTAP_EXPECT_INT(sluice_int_probe_size(0), 0);
	KTAP_EXPECT_INT(sluice_int_probe_size(33), 0);
	KTAP_EXPECT_INT(sluice_int_probe_build(buf, sizeof(buf), 3, 5,
					       0x01020304, 0x1122334455667788ull),
			32 + 3 * 48);
	/* "SLIT", version 1, 3 records, none used, no flags, prio 5 */
	KTAP_EXPECT(!memcmp(buf, "SLIT\x01\x03\x00\x00\x05\x00\x00\x00"
			    "\x01\x02\x03\x04"
			    "\x11\x22\x33\x44\x55\x66\x77\x88", 24));
	KTAP_EXPECT_INT(sluice_int_probe_build(buf, 32 + 2 * 48, 3, 0, 0, 0),
			-EINVAL);

	/* two records filled as a port fills them */
	sluice_int_probe_build(buf, sizeof(buf), 3, SLUICE_INT_PRIO_OWN, 7,
			       1000);
	buf[6] = 2;
	r = buf + 32;
	be32(r, 0xa1a2a3a4);
	be32(r + 4, 5);
	be32(r + 8, 100007);
	be32(r + 12, 3028);
	be32(r + 16, 4542);
	r[20] = 3;
	r[21] = 1;
	be64(r + 24, 0x100000001ull);
	be64(r + 32, 2000);
	be64(r + 40, 4000000);
	r += 48;
	be32(r, 2);
	be64(r + 32, 3000);
	KTAP_EXPECT_INT(sluice_int_probe_parse(buf, 32 + 3 * 48, &p), 0);
	KTAP_EXPECT_INT(p.nrec, 3);
	KTAP_EXPECT_INT(p.nused, 2);
	KTAP_EXPECT_INT(p.prio, SLUICE_INT_PRIO_OWN);
	KTAP_EXPECT_INT(p.seq, 7);
	KTAP_EXPECT_INT(p.tx_ns, 1000);
	KTAP_EXPECT_INT(p.hop[0].node, 0xa1a2a3a4);
	KTAP_EXPECT_INT(p.hop[0].ifindex, 5);
	KTAP_EXPECT_INT(p.hop[0].link, 100007);
	KTAP_EXPECT_INT(p.hop[0].backlog, 3028);
	KTAP_EXPECT_INT(p.hop[0].port_backlog, 4542);
	KTAP_EXPECT_INT(p.hop[0].class, 3);
	KTAP_EXPECT_INT(p.hop[0].paused, 1);
	KTAP_EXPECT(p.hop[0].tx_bytes == 0x100000001ull);
	KTAP_EXPECT_INT(p.hop[0].ts_ns, 2000);
	KTAP_EXPECT_INT(p.hop[0].rate, 4000000);
	KTAP_EXPECT_INT(p.hop[1].node, 2);
	KTAP_EXPECT_INT(p.hop[1].ts_ns, 3000);
	/* the third record is not read: a port has not filled it */
	KTAP_EXPECT_INT(p.hop[2].node, 0);

	KTAP_EXPECT_INT(sluice_int_probe_echo(buf, 32 + 3 * 48, 0xabcdefull), 0);
	KTAP_EXPECT_INT(sluice_int_probe_parse(buf, 32 + 3 * 48, &p), 0);
	KTAP_EXPECT_INT(p.flags, SLUICE_INT_F_ECHO);
	KTAP_EXPECT_INT(p.echo_ns, 0xabcdef);
	KTAP_EXPECT_INT(p.nused, 2);
	KTAP_EXPECT_INT(p.hop[0].link, 100007);
	ktap_result("layout");
}

static void test_strict(void)
{
	struct sluice_int_probe p;
	uint8_t buf[32 + 32 * 48 + 1];
	size_t len = sluice_int_probe_size(2);

	sluice_int_probe_build(buf, sizeof(buf), 2, 0, 1, 1);
	KTAP_EXPECT_INT(sluice_int_probe_parse(buf, len, &p), 0);
	/* one byte short of its stack */
	KTAP_EXPECT_INT(sluice_int_probe_parse(buf, len - 1, &p), -EINVAL);
	/* shorter than a header: nothing says it is a probe */
	KTAP_EXPECT_INT(sluice_int_probe_parse(buf, 31, &p), -EBADMSG);
	buf[0] = 'X';
	KTAP_EXPECT_INT(sluice_int_probe_parse(buf, len, &p), -EBADMSG);
	KTAP_EXPECT_INT(sluice_int_probe_echo(buf, len, 1), -EBADMSG);
	buf[0] = 'S';
	buf[4] = 2;
	KTAP_EXPECT_INT(sluice_int_probe_parse(buf, len, &p), -EPROTO);
	buf[4] = 1;
	buf[5] = 0;
	KTAP_EXPECT_INT(sluice_int_probe_parse(buf, len, &p), -EINVAL);
	buf[5] = 33;
	KTAP_EXPECT_INT(sluice_int_probe_parse(buf, sizeof(buf), &p), -EINVAL);
	buf[5] = 2;
	buf[6] = 3;
	KTAP_EXPECT_INT(sluice_int_probe_parse(buf, len, &p), -EINVAL);
	buf[6] = 2;
	KTAP_EXPECT_INT(sluice_int_probe_parse(buf, len, &p), 0);
	KTAP_EXPECT_INT(p.nused, 2);
	ktap_result("strict");
}

/* A port free on loopback for the echo, found by binding to it. */
static uint16_t free_port(void)
{
	int fd = sluice_int_socket(0, 0, err, sizeof(err));
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	uint16_t port = 0;

	if (fd >= 0 && !getsockname(fd, (struct sockaddr *)&sin, &len))
		port = ntohs(sin.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

static void test_loopback(void)
{
	struct sluice_int_probe p;
	struct sluice_int_req req;
	uint64_t rtt, before;
	char portstr[8];
	int fd, status;
	struct run r;
	char *out;
	pid_t pid;

	snprintf(portstr, sizeof(portstr), "%u", free_port());
	cli_mkdtemp("int");
	pid = fork();
	if (!pid) {
		/* what it printed is checked below, not mixed with KTAP's */
		if (!freopen(cli_path("echo.out"), "w", stdout) ||
		    !freopen(cli_path("echo.err"), "w", stderr))
			_exit(126);
		execl(sluicectl, sluicectl, "int", "echo", "--port", portstr,
		      "--count", "1", "--timeout", "5s", "-j", (char *)NULL);
		_exit(127);
	}
	fd = sluice_int_socket(0, 0, err, sizeof(err));
	KTAP_EXPECT(fd >= 0);
	req = (struct sluice_int_req){
		.dst = htonl(INADDR_LOOPBACK), .port = atoi(portstr),
		.nrec = 4, .prio = 3, .seq = 42, .timeout_ns = 200000000,
	};
	/* the responder takes a moment to start: probe until it answers */
	before = sluice_int_now();
	for (int k = 0; k < 20; k++)
		if (!sluice_int_ping(fd, &req, &p, &rtt, err, sizeof(err)))
			break;
	KTAP_EXPECT_INT(p.seq, 42);
	KTAP_EXPECT_INT(p.flags, SLUICE_INT_F_ECHO);
	KTAP_EXPECT_INT(p.nrec, 4);
	KTAP_EXPECT_INT(p.nused, 0);
	KTAP_EXPECT_INT(p.prio, 3);
	KTAP_EXPECT(p.tx_ns >= before && p.echo_ns >= p.tx_ns);
	KTAP_EXPECT(rtt > 0);
	KTAP_EXPECT(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		    !WEXITSTATUS(status));
	out = cli_read_all(cli_path("echo.out"));
	KTAP_EXPECT(out && strstr(out, "{\"seq\":42,") &&
		    strstr(out, "\"hops\":0,") &&
		    strstr(out, "\"from\":\"127.0.0.1\"}"));
	free(out);
	out = cli_read_all(cli_path("echo.err"));
	KTAP_EXPECT(out && strstr(out, "1 probe answered, 0 datagrams not probes"));
	free(out);
	cli_rmdir();
	/* nobody answers now */
	req.timeout_ns = 50000000;
	KTAP_EXPECT_INT(sluice_int_ping(fd, &req, &p, &rtt, err, sizeof(err)),
			-ETIMEDOUT);
	close(fd);

	RUN(&r, "int", "probe", "--to", "127.0.0.1", "--port", portstr,
	    "--timeout", "100ms");
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "probe 1: no echo from 127.0.0.1:"));
	ktap_result("loopback");
}

static void test_cli_errors(void)
{
	static const struct {
		const char *args[6];
		const char *msg;
	} cases[] = {
		{ { "probe" }, "--to ADDR: where to probe" },
		{ { "probe", "--to", "10.0.0" }, "\"10.0.0\" is not an IPv4 address" },
		{ { "probe", "--to", "10.0.0.1", "--records", "33" },
		  "--records: \"33\" is not a number from 1 to 32" },
		{ { "probe", "--to", "10.0.0.1", "--prio", "8" },
		  "--prio: \"8\" is not a PFC priority (0..7) or \"own\"" },
		{ { "probe", "--to", "10.0.0.1", "--sport", "0" },
		  "sluicectl int probe: --sport: \"0\" is not a number from 1 to 65535\n" },
		{ { "probe", "--to", "10.0.0.1", "--timeout", "0" },
		  "sluicectl int probe: --timeout: \"0\" is not a time from 1ns to 3600s (a bare number is microseconds)\n" },
		{ { "probe", "--to", "10.0.0.1", "--interval", "1.5x" },
		  "sluicectl int probe: --interval: \"1.5x\" is not a time from 0s to 3600s (a bare number is microseconds)\n" },
		{ { "echo", "--to", "10.0.0.1" }, "--to" },
	};
	struct run r;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(cases); k++)
		cli_expect_usage("int", cases[k].args, cases[k].msg);
	RUN(&r, "int", "probe", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "--records N"));
	ktap_result("cli_errors");
}

/*
 * An Ethernet frame to @buf: @vlan tag (0: none), @labels MPLS entries,
 * IPv4 with @optlen bytes of options (a multiple of 4), UDP from 40001
 * to @dport (protocol @proto, fragment offset @frag), and a probe of 2
 * records, one filled.  Returns its length.
 */
static size_t frame(uint8_t *buf, int vlan, int labels, int optlen,
		    uint16_t dport, uint8_t proto, uint16_t frag)
{
	size_t off = 12, ip, n;
	int k;

	memset(buf, 0, 256);
	memcpy(buf, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01", 12);
	if (vlan) {
		memcpy(buf + off, "\x81\x00", 2);
		buf[off + 2] = vlan >> 8;
		buf[off + 3] = vlan;
		off += 4;
	}
	memcpy(buf + off, labels ? "\x88\x47" : "\x08\x00", 2);
	off += 2;
	for (k = 0; k < labels; k++, off += 4) {
		be32(buf + off, (100u + k) << 12 | 64);
		if (k == labels - 1)
			buf[off + 2] |= 1;	/* bottom of stack */
	}
	ip = off;
	n = sluice_int_probe_size(2);
	buf[ip] = 0x40 | (5 + optlen / 4);
	buf[ip + 6] = frag >> 8;
	buf[ip + 7] = frag;
	buf[ip + 8] = 64;
	buf[ip + 9] = proto;
	memcpy(buf + ip + 12, "\x0a\x00\x00\x01\x0a\x00\x01\x01", 8);
	off = ip + 20 + optlen;
	buf[off] = 40001 >> 8;
	buf[off + 1] = 40001 & 0xff;
	buf[off + 2] = dport >> 8;
	buf[off + 3] = dport;
	buf[off + 4] = (8 + n) >> 8;
	buf[off + 5] = (8 + n) & 0xff;
	off += 8;
	sluice_int_probe_build(buf + off, n, 2, SLUICE_INT_PRIO_OWN, 9, 100);
	buf[off + 6] = 1;			/* one record filled */
	be32(buf + off + 32, 77);		/* its node */
	return off + n;
}

static void put_le32(FILE *f, uint32_t v)
{
	uint8_t b[4] = { v, v >> 8, v >> 16, v >> 24 };

	fwrite(b, 1, 4, f);
}

static void test_capture(void)
{
	struct sluice_int_frame f;
	struct sluice_int_probe p;
	uint8_t buf[6][256];
	size_t len[6];
	struct run r;
	FILE *pcap;
	int k;

	len[0] = frame(buf[0], 0, 0, 0, 7771, 17, 0);
	KTAP_EXPECT_INT(sluice_int_frame_find(buf[0], len[0], 7771, &f), 0);
	KTAP_EXPECT_INT(f.offset, 14 + 20 + 8);
	KTAP_EXPECT_INT(f.len, sluice_int_probe_size(2));
	KTAP_EXPECT_INT(f.sport, 40001);
	KTAP_EXPECT_INT(ntohl(f.daddr), 0x0a000101);
	KTAP_EXPECT_INT(sluice_int_probe_parse(buf[0] + f.offset, f.len, &p), 0);
	KTAP_EXPECT_INT(p.hop[0].node, 77);
	len[1] = frame(buf[1], 0x6005, 0, 4, 7771, 17, 0);
	KTAP_EXPECT_INT(sluice_int_frame_find(buf[1], len[1], 7771, &f), 0);
	KTAP_EXPECT_INT(f.vlans, 1);
	KTAP_EXPECT_INT(f.offset, 18 + 24 + 8);
	len[2] = frame(buf[2], 0, 2, 0, 7771, 17, 0);
	KTAP_EXPECT_INT(sluice_int_frame_find(buf[2], len[2], 7771, &f), 0);
	KTAP_EXPECT_INT(f.labels, 2);
	KTAP_EXPECT_INT(f.offset, 14 + 8 + 20 + 8);
	/* not probes: another port, TCP, a later fragment */
	len[3] = frame(buf[3], 0, 0, 0, 7772, 17, 0);
	KTAP_EXPECT_INT(sluice_int_frame_find(buf[3], len[3], 7771, &f), -ENOENT);
	len[4] = frame(buf[4], 0, 0, 0, 7771, 6, 0);
	KTAP_EXPECT_INT(sluice_int_frame_find(buf[4], len[4], 7771, &f), -ENOENT);
	len[5] = frame(buf[5], 0, 0, 0, 7771, 17, 185);
	KTAP_EXPECT_INT(sluice_int_frame_find(buf[5], len[5], 7771, &f), -ENOENT);
	/* cut short: the UDP length says more than there is */
	KTAP_EXPECT_INT(sluice_int_frame_find(buf[0], len[0] - 1, 7771, &f),
			-EINVAL);

	/* the six as a capture (pcap's own format, written by hand) */
	cli_mkdtemp("int-decode");
	pcap = fopen(cli_path("probes.pcap"), "w");
	if (!KTAP_EXPECT(pcap))
		return;
	put_le32(pcap, 0xa1b2c3d4);
	put_le32(pcap, 2 | 4 << 16);		/* version 2.4 */
	put_le32(pcap, 0);
	put_le32(pcap, 0);
	put_le32(pcap, 65535);			/* snap length */
	put_le32(pcap, 1);			/* Ethernet */
	for (k = 0; k < 6; k++) {
		put_le32(pcap, 1000 + k);
		put_le32(pcap, 0);
		put_le32(pcap, len[k]);
		put_le32(pcap, len[k]);
		fwrite(buf[k], 1, len[k], pcap);
	}
	fclose(pcap);
	RUN(&r, "int", "decode", "-j", cli_path("probes.pcap"));
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.err, "6 frames, 3 probes, 0 malformed, 3 others"));
	KTAP_EXPECT(strstr(r.out, "\"frame\":1,") && strstr(r.out, "\"frame\":2,") &&
		    strstr(r.out, "\"frame\":3,") && !strstr(r.out, "\"frame\":4,"));
	KTAP_EXPECT(strstr(r.out, "\"labels\":2"));
	KTAP_EXPECT(strstr(r.out, "\"node\":77,"));
	RUN(&r, "int", "decode", cli_path("probes.pcap"));
	KTAP_EXPECT(strstr(r.out, "frame 3, 10.0.0.1:40001 > 10.0.1.1:7771 (0 VLAN tags, 2 labels), probe 9: 1 hop"));
	RUN(&r, "int", "decode", cli_path("missing.pcap"));
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "missing.pcap: "));
	cli_rmdir();
	ktap_result("capture");
}

int main(void)
{
	cli_init();
	ktap_plan(5);
	test_layout();
	test_strict();
	test_loopback();
	test_cli_errors();
	test_capture();
	return ktap_exit();
}
