// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TCP-Bolt's host side and its switch side, without a kernel to talk to:
 *
 * - the profile's first window: the bandwidth-delay product in segments of
 *   MTU - 52, rounded up, against values worked out by hand (TCP-Bolt's
 *   testbed, 10 Gbit/s and 240 us, is 208 segments; 4 Mbit/s and 86 ms is
 *   30), never under Linux's 10, and refused past 65535 segments or for a
 *   zero rate, round trip or an MTU with no room for a segment;
 * - the profile as ip-route(8) prints it, equality, and its names;
 * - DCTCP's K: C x RTT / 7 rounded up (42858 bytes at 10 Gbit/s and
 *   240 us), two frames at the least, TC_SLUICE_MAX_LIMIT at the most;
 * - long-lived flows on loopback (sluice/tcpstream.h), every host in this
 *   namespace at 127.0.0.x: each flow delivers only between its start and
 *   its stop (plus the bin in flight), the bins add up to its bytes, a
 *   flow to a closed port keeps its error while the others run, the
 *   caller is told of every bin once, in order, after it ended, and bad
 *   runs are refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <linux/sluice.h>
#include <sluice/experiment.h>
#include <sluice/host.h>
#include <sluice/tcpstream.h>
#include "ktap.h"

static char err[256];

static void test_bolt_window(void)
{
	struct sluice_host_profile p;

	KTAP_EXPECT_INT(sluice_host_profile_bolt(&p, 10000000000ull, 240000,
						 1500, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(p.initcwnd, 208);	/* 300000 / 1448 = 207.2 */
	KTAP_EXPECT_INT(p.initrwnd, 208);
	KTAP_EXPECT_STR(p.cc, "dctcp");
	KTAP_EXPECT(p.cc_lock && p.ecn);
	KTAP_EXPECT_INT(sluice_host_profile_bolt(&p, 4000000, 86000000, 1500,
						 err, sizeof(err)), 0);
	KTAP_EXPECT_INT(p.initcwnd, 30);	/* 43000 / 1448 = 29.7 */
	/* 4 Mbit/s, 10 ms: 5000 bytes, 4 segments: Linux's 10 stays */
	KTAP_EXPECT_INT(sluice_host_profile_bolt(&p, 4000000, 10000000, 1500,
						 err, sizeof(err)), 0);
	KTAP_EXPECT_INT(p.initcwnd, SLUICE_HOST_INIT_CWND);
	/* jumbo frames: 9000 - 52 a segment */
	KTAP_EXPECT_INT(sluice_host_profile_bolt(&p, 10000000000ull, 240000,
						 9000, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(p.initcwnd, 34);	/* 300000 / 8948 = 33.5 */
	KTAP_EXPECT_INT(sluice_host_profile_bolt(&p, 100000000000ull,
						 1000000000, 1500, err,
						 sizeof(err)), -ERANGE);
	KTAP_EXPECT(strstr(err, "exceeds 65535 segments"));
	KTAP_EXPECT_INT(sluice_host_profile_bolt(&p, 0, 1000, 1500, err,
						 sizeof(err)), -EINVAL);
	KTAP_EXPECT_INT(sluice_host_profile_bolt(&p, 1000, 0, 1500, err,
						 sizeof(err)), -EINVAL);
	KTAP_EXPECT_INT(sluice_host_profile_bolt(&p, 1000, 1000, 60, err,
						 sizeof(err)), -EINVAL);
	ktap_result("bolt_window");
}

static void test_profile_text(void)
{
	struct sluice_host_profile p = { 0 }, q;
	char buf[128];

	sluice_host_profile_format(&p, buf, sizeof(buf));
	KTAP_EXPECT_STR(buf, "none");
	sluice_host_profile_bolt(&p, 4000000, 86000000, 1500, err,
				 sizeof(err));
	sluice_host_profile_format(&p, buf, sizeof(buf));
	KTAP_EXPECT_STR(buf, "congctl lock dctcp features ecn initcwnd 30 initrwnd 30");
	q = p;
	KTAP_EXPECT(sluice_host_profile_equal(&p, &q));
	q.cc_lock = false;
	KTAP_EXPECT(!sluice_host_profile_equal(&p, &q));
	sluice_host_profile_format(&q, buf, sizeof(buf));
	KTAP_EXPECT_STR(buf, "congctl dctcp features ecn initcwnd 30 initrwnd 30");
	/* a short buffer: cut, terminated, the full length returned */
	KTAP_EXPECT(sluice_host_profile_format(&p, buf, 8) > 8);
	KTAP_EXPECT_STR(buf, "congctl");
	KTAP_EXPECT_INT(sluice_host_profile_parse("bolt"),
			SLUICE_HOST_PROFILE_BOLT);
	KTAP_EXPECT_INT(sluice_host_profile_parse("off"),
			SLUICE_HOST_PROFILE_OFF);
	KTAP_EXPECT_INT(sluice_host_profile_parse("Bolt"), -EINVAL);
	KTAP_EXPECT_STR(sluice_host_profile_name(SLUICE_HOST_PROFILE_BOLT),
			"bolt");
	KTAP_EXPECT(!sluice_host_profile_name(7));
	ktap_result("profile_text");
}

static void test_ecn_threshold(void)
{
	KTAP_EXPECT_INT(sluice_ecn_threshold(10000000000ull, 240000, 1500),
			42858);		/* 300000 / 7, rounded up */
	KTAP_EXPECT_INT(sluice_ecn_threshold(4000000, 3000000, 1500), 3000);
	KTAP_EXPECT_INT(sluice_ecn_threshold(100000000, 10000000, 1500),
			17858);
	KTAP_EXPECT_INT(sluice_ecn_threshold(400000000000ull, 1000000000,
					     1500), TC_SLUICE_MAX_LIMIT);
	ktap_result("ecn_threshold");
}

#define LO(k)	((127u << 24) | ((k) + 1))

/* What the run told of its bins, each as it ended. */
struct bins_seen {
	uint32_t	n, in_order;
	double		t0, at[8];
	uint64_t	bytes[8];	/* flow 0's bytes so far */
	const struct sluice_stream_flow *fl;
};

static void bin_end(void *arg, uint32_t bin)
{
	struct bins_seen *s = arg;
	uint32_t b;

	s->in_order += bin == s->n;
	if (s->n < 8) {
		s->at[s->n] = sluice_now() - s->t0;
		for (b = 0; b <= bin; b++)
			s->bytes[s->n] += s->fl[0].bins[b];
	}
	s->n++;
}

static void test_streams(void)
{
	struct sluice_tcpgen_host h[3] = { 0 };
	struct sluice_stream_flow fl[3] = {
		{ .src = 0, .dst = 1, .start = 0.0, .stop = 0.6 },
		{ .src = 2, .dst = 1, .start = 0.4, .stop = 1.0 },
		{ .src = 0, .dst = 2, .start = 0.2, .stop = 0.8 },
	};
	struct bins_seen seen = { .fl = fl };
	struct sluice_stream_opts o = {
		.interval = 0.2, .duration = 1.2, .bin_end = bin_end,
		.bin_arg = &seen,
	};
	uint32_t k, b, n = sluice_stream_bins(&o);
	uint64_t sum;

	for (k = 0; k < 3; k++)
		h[k].addr = LO(k);
	KTAP_EXPECT_INT(n, 6);
	seen.t0 = sluice_now();
	KTAP_EXPECT_INT(sluice_stream_run(h, 3, fl, 3, &o, err, sizeof(err)),
			0);
	/* every bin told once, in order, not before it ended */
	KTAP_EXPECT_INT(seen.n, 6);
	KTAP_EXPECT_INT(seen.in_order, 6);
	for (b = 0; b < 6; b++)
		KTAP_EXPECT(seen.at[b] >= (b + 1) * o.interval);
	/* flow 0 (0 to 0.6 s) had its bytes counted by the end of bin 2 */
	KTAP_EXPECT(seen.bytes[1] > 0 && seen.bytes[1] <= seen.bytes[2]);
	for (k = 0; k < 3; k++) {
		for (b = 0, sum = 0; b < n; b++)
			sum += fl[k].bins[b];
		KTAP_EXPECT(sum == fl[k].bytes && fl[k].bytes > 100000);
		KTAP_EXPECT_INT(fl[k].error, 0);
		/* nothing arrives a bin before the start or after the stop */
		for (b = 0; b < n; b++)
			if ((b + 1) * o.interval < fl[k].start - 1e-9 ||
			    b * o.interval > fl[k].stop + o.interval + 1e-9)
				KTAP_EXPECT(fl[k].bins[b] == 0);
		KTAP_EXPECT(sluice_stream_rate(&fl[k], &o, 0, n) > 0);
	}
	/* flow 1 starts at 0.4 s: bins 0 and 1 are empty */
	KTAP_EXPECT(fl[1].bins[0] == 0 && fl[1].bins[1] == 0);
	sluice_stream_free(fl, 3);
	KTAP_EXPECT(!fl[0].bins);
	ktap_result("streams");
}

static void test_stream_errors(void)
{
	struct sluice_tcpgen_host h[2] = { { .addr = LO(0) }, { .addr = LO(1) } };
	struct sluice_stream_flow fl[1] = {
		{ .src = 0, .dst = 1, .start = 0.5, .stop = 0.2 },
	};
	struct sluice_stream_opts o = { .interval = 0.1, .duration = 0.4 };

	KTAP_EXPECT_INT(sluice_stream_run(h, 2, fl, 1, &o, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT(strstr(err, "flow 0: hosts 0 -> 1, 0.500 s to 0.200 s"));
	fl[0].start = 0;
	fl[0].dst = 0;
	KTAP_EXPECT_INT(sluice_stream_run(h, 2, fl, 1, &o, err, sizeof(err)),
			-EINVAL);
	fl[0].dst = 1;
	o.interval = 0;
	KTAP_EXPECT_INT(sluice_stream_run(h, 2, fl, 1, &o, err, sizeof(err)),
			-EINVAL);
	KTAP_EXPECT_INT(sluice_stream_run(h, 2, fl, 0, &o, err, sizeof(err)),
			-EINVAL);
	ktap_result("stream_errors");
}

int main(void)
{
	ktap_plan(5);
	test_bolt_window();
	test_profile_text();
	test_ecn_threshold();
	test_streams();
	test_stream_errors();
	return ktap_exit();
}
