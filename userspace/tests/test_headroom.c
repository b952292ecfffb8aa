// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libsluice's PFC headroom, eq. (1) of Tagger.  Expected values are worked
 * out by hand in the comments, never by the code under test.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/headroom.h>
#include "ktap.h"

static const struct headroom_case {
	const char	*name;
	__u64		rate;
	__u32		cable_m, mtu, response;
	/* expected */
	__u64		wire_ns, wire_bits;
	__u32		wire_nbits;
	__u64		response_bits, total_bits;
	__u32		total_nbits;
	__u64		bytes;
} cases[] = {
	/*
	 * The paper's example: r * t_wire = 40e9 b/s * 1.5 us = 60000 bits
	 * (7500 bytes); 2 * (1500 + 64 + 7500) + 30720 / 8 = 21968 bytes.
	 */
	{ "Tagger's 40 Gbit/s, 300 m, MTU 1500", 40000000000ull, 300, 1500, 60,
	  1500, 60000, 0, 30720, 175744, 0, 21968 },
	/* 10e9 * 500 ns = 5000 bits; 2 * (9000 + 64 + 625) + 3840 = 23218 */
	{ "10 Gbit/s, 100 m, jumbo frames", 10000000000ull, 100, 9000, 60,
	  500, 5000, 0, 30720, 185744, 0, 23218 },
	/*
	 * 25e9 * 10 ns = 250 bits; 2 * (12144 + 512 + 250) + 30720 = 56532
	 * bits = 7066.5 bytes, rounded up.
	 */
	{ "25 Gbit/s, 2 m, VLAN frames", 25000000000ull, 2, 1518, 60,
	  10, 250, 0, 30720, 56532, 0, 7067 },
	/*
	 * 1e8 * 15 ns = 1.5 bits; 2 * (12112 + 512 + 1.5) + 30720 = 55971
	 * bits = 6996.375 bytes.
	 */
	{ "100 Mbit/s, 3 m, half bits", 100000000, 3, 1514, 60,
	  15, 1, 500000000, 30720, 55971, 0, 6997 },
	/*
	 * 1 b/s * 5 ns = 5e-9 bits; 2 * (512 + 512 + 5e-9) + 0 = 2048.00000001
	 * bits: a hair over 256 bytes is 257.
	 */
	{ "a hair over whole bytes rounds up", 1, 1, 64, 0,
	  5, 0, 5, 0, 2048, 10, 257 },
	/* No cable, no response time: 2 * (1500 + 64) = 3128 */
	{ "no cable, instant response", 40000000000ull, 0, 1500, 0,
	  0, 0, 0, 0, 25024, 0, 3128 },
	/* 65535 quanta * 512 = 33553920 bits = 4194240 bytes, + 2 * 1564 */
	{ "the longest response", 1000000000, 0, 1500, 65535,
	  0, 0, 0, 33553920, 33578944, 0, 4197368 },
	/*
	 * The largest rate over 100 km: 18446744073709551615 b/s * 500 us
	 * = 9223372036854775.8075 bits; 2 * (12000 + 512 + that) + 30720
	 * = 18446744073765295.615 bits = 2305843009220661.95... bytes.
	 */
	{ "2^64 - 1 b/s over 100 km", UINT64_MAX, 100000, 1500, 60,
	  500000, 9223372036854775ull, 807500000, 30720,
	  18446744073765295ull, 615000000, 2305843009220662ull },
};

static void test_case(const struct headroom_case *c)
{
	struct sluice_headroom h = {
		.rate = c->rate, .cable_m = c->cable_m, .mtu = c->mtu,
		.response = c->response,
	};

	KTAP_EXPECT_INT(sluice_headroom_bytes(&h), 0);
	/* The inputs are left as they were. */
	KTAP_EXPECT(h.rate == c->rate);
	KTAP_EXPECT_INT(h.cable_m, c->cable_m);
	KTAP_EXPECT_INT(h.mtu, c->mtu);
	KTAP_EXPECT_INT(h.response, c->response);
	KTAP_EXPECT(h.wire_ns == c->wire_ns);
	if (!KTAP_EXPECT(h.wire_bits == c->wire_bits))
		ktap_diag("wire_bits %llu", (unsigned long long)h.wire_bits);
	KTAP_EXPECT_INT(h.wire_nbits, c->wire_nbits);
	KTAP_EXPECT(h.response_bits == c->response_bits);
	if (!KTAP_EXPECT(h.total_bits == c->total_bits))
		ktap_diag("total_bits %llu", (unsigned long long)h.total_bits);
	KTAP_EXPECT_INT(h.total_nbits, c->total_nbits);
	if (!KTAP_EXPECT(h.bytes == c->bytes))
		ktap_diag("bytes %llu", (unsigned long long)h.bytes);
	ktap_result("%s", c->name);
}

/* The constants of the formula, as the paper and 802.1Qbb give them. */
static void test_constants(void)
{
	KTAP_EXPECT_INT(SLUICE_PFC_FRAME_BYTES, 64);
	KTAP_EXPECT_INT(SLUICE_CABLE_NS_PER_M, 5);
	KTAP_EXPECT_INT(SLUICE_QUANTUM_BITS, 512);
	KTAP_EXPECT_INT(SLUICE_PFC_RESPONSE_QUANTA, 60);
	ktap_result("constants");
}

/* A headroom past 2^64 bytes is refused, and the terms left alone. */
static void test_range(void)
{
	struct sluice_headroom h = {
		.rate = UINT64_MAX, .cable_m = UINT32_MAX, .mtu = UINT32_MAX,
		.response = UINT32_MAX, .bytes = 12345,
	};

	KTAP_EXPECT_INT(sluice_headroom_bytes(&h), -ERANGE);
	KTAP_EXPECT(h.bytes == 12345);
	ktap_result("a headroom past 64 bits is -ERANGE");
}

/*
 * xoff = limit - b_hr, xon = xoff - s_MTU (at least 0).  10 Mbit/s over
 * 100 m: r * t_wire = 1e7 * 500e-9 = 5 bits, b_hr = 2 * (12112 + 512 + 5)
 * + 30720 = 55978 bits = 6997.25 bytes, 6998 rounded up.
 */
static void test_xoff_auto(void)
{
	struct sluice_headroom h = {
		.rate = 10000000, .cable_m = 100, .mtu = 1514,
		.response = SLUICE_PFC_RESPONSE_QUANTA,
	};
	__u32 xoff = 1, xon = 2;

	KTAP_EXPECT_INT(sluice_xoff_auto(&h, 204800, &xoff, &xon), 0);
	KTAP_EXPECT(h.bytes == 6998);
	KTAP_EXPECT_INT(xoff, 204800 - 6998);
	KTAP_EXPECT_INT(xon, 204800 - 6998 - 1514);
	/* xoff 1: xon floors at 0. */
	KTAP_EXPECT_INT(sluice_xoff_auto(&h, 6999, &xoff, &xon), 0);
	KTAP_EXPECT_INT(xoff, 1);
	KTAP_EXPECT_INT(xon, 0);
	/* xoff exactly s_MTU: xon 0. */
	KTAP_EXPECT_INT(sluice_xoff_auto(&h, 6998 + 1514, &xoff, &xon), 0);
	KTAP_EXPECT_INT(xoff, 1514);
	KTAP_EXPECT_INT(xon, 0);
	/* A limit not above the headroom: -ENOSPC, the headroom is set. */
	xoff = 1;
	xon = 2;
	h.bytes = 0;
	KTAP_EXPECT_INT(sluice_xoff_auto(&h, 6998, &xoff, &xon), -ENOSPC);
	KTAP_EXPECT(h.bytes == 6998);
	KTAP_EXPECT_INT(xoff, 1);
	KTAP_EXPECT_INT(xon, 2);
	/* A headroom past 64 bits is sluice_headroom_bytes()'s -ERANGE. */
	h.rate = UINT64_MAX;
	h.cable_m = UINT32_MAX;
	KTAP_EXPECT_INT(sluice_xoff_auto(&h, UINT32_MAX, &xoff, &xon), -ERANGE);
	KTAP_EXPECT_INT(xoff, 1);
	ktap_result("xoff auto: limit less the headroom");
}

int main(void)
{
	size_t i;

	ktap_plan(ARRAY_SIZE(cases) + 3);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		test_case(&cases[i]);
	test_constants();
	test_range();
	test_xoff_auto();
	return ktap_exit();
}
