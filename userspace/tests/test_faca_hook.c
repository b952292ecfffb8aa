// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FaCa's hook for unmodified applications, the parts that need no kernel
 * (sluice/faca_hook.h, sluice/sport.h; the table at work is
 * selftests/sluice_faca_hook.sh's):
 *
 * - destination prefixes: dotted quads with or without a length, host
 *   bits under the prefix refused, as are lengths past 32 and junk;
 * - port ranges: "A-B" and "A", 1 <= A <= B <= 65535, nothing else;
 * - the round-robin allocator against a brute force on random ranges and
 *   random sets of ports in use that change between calls: the same port
 *   every time (the first free one in cyclic order after the last given),
 *   -EADDRINUSE with the cursor left alone when all are taken, and the
 *   predicate's own error passed on;
 * - the nftables text: exact for a TCP hook with destinations and ports,
 *   the UDP and any-destination variants' differing lines, bad settings
 *   refused, and every buffer too short by even a byte refused;
 * - the CLI refuses bad arguments before it touches the kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sluice/faca_hook.h>
#include <sluice/rng.h>
#include <sluice/sport.h>
#include "cli.h"
#include "ktap.h"

static void test_prefix(void)
{
	static const char *const bad[] = {
		"", "/24", "10.0.0.1/24", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/-1",
		"10.0.0.0/ 8", "10.0.0", "10.0.0.256", "::1", "10.0.0.0/8x",
		"300.0.0.0/8", "0.0.0.1/0",
	};
	struct sluice_faca_prefix p;
	size_t i;

	KTAP_EXPECT_INT(sluice_faca_prefix_parse("198.18.2.0/24", &p), 0);
	KTAP_EXPECT_INT(p.addr, inet_addr("198.18.2.0"));
	KTAP_EXPECT_INT(p.len, 24);
	KTAP_EXPECT_INT(sluice_faca_prefix_parse("10.0.0.2", &p), 0);
	KTAP_EXPECT_INT(p.addr, inet_addr("10.0.0.2"));
	KTAP_EXPECT_INT(p.len, 32);
	KTAP_EXPECT_INT(sluice_faca_prefix_parse("0.0.0.0/0", &p), 0);
	KTAP_EXPECT_INT(p.len, 0);
	KTAP_EXPECT_INT(sluice_faca_prefix_parse("10.1.2.3/32", &p), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (!KTAP_EXPECT_INT(sluice_faca_prefix_parse(bad[i], &p), -EINVAL))
			ktap_diag("accepted \"%s\"", bad[i]);
	ktap_result("prefix");
}

static void test_range(void)
{
	static const char *const bad[] = {
		"", "0-10", "10-9", "1-65536", "65536", "-5", "5-", "a-b", "5-6-7",
		" 5-6", "5 - 6", "+5-6", "0",
	};
	struct sluice_sport_range r;
	size_t i;

	KTAP_EXPECT_INT(sluice_sport_range_parse("40000-40009", &r), 0);
	KTAP_EXPECT_INT(r.min, 40000);
	KTAP_EXPECT_INT(r.max, 40009);
	KTAP_EXPECT_INT(sluice_sport_range_parse("7", &r), 0);
	KTAP_EXPECT(r.min == 7 && r.max == 7);
	KTAP_EXPECT_INT(sluice_sport_range_parse("1-65535", &r), 0);
	KTAP_EXPECT(r.min == 1 && r.max == 65535);
	KTAP_EXPECT_INT(sluice_sport_range_parse("9-9", &r), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (!KTAP_EXPECT_INT(sluice_sport_range_parse(bad[i], &r), -EINVAL))
			ktap_diag("accepted \"%s\"", bad[i]);
	ktap_result("range");
}

/* Ports in use, as a predicate sees them, and how often it was asked. */
struct in_use {
	uint8_t		taken[65536];
	unsigned int	calls;
	int		fail_at;	/* a port whose question fails, or -1 */
};

static int taken(void *ctx, uint16_t port)
{
	struct in_use *u = ctx;

	u->calls++;
	if (port == u->fail_at)
		return -EIO;
	return u->taken[port];
}

/* The first free port of [min, max] in cyclic order from @from. */
static int brute_next(const struct in_use *u, unsigned int min,
		      unsigned int max, unsigned int from)
{
	unsigned int p;

	for (p = from; p <= max; p++)
		if (!u->taken[p])
			return p;
	for (p = min; p < from; p++)
		if (!u->taken[p])
			return p;
	return -EADDRINUSE;
}

static void test_rr_random(void)
{
	static struct in_use u;
	struct sluice_sport_range r;
	struct sluice_sport_rr rr;
	unsigned int trial, k, p, cursor, size, mismatches = 0;
	struct sluice_rng rng;
	int want, got;

	sluice_rng_seed(&rng, 19);
	u.fail_at = -1;
	for (trial = 0; trial < 300; trial++) {
		size = 1 + sluice_rng_below(&rng, 12);
		r.min = 1 + sluice_rng_below(&rng, 65535 - size + 1);
		r.max = r.min + size - 1;
		memset(u.taken, 0, sizeof(u.taken));
		sluice_sport_rr_init(&rr, &r);
		cursor = r.min;
		for (k = 0; k < 40; k++) {
			/* flows come and go between placements */
			for (p = r.min; p <= r.max; p++)
				if (sluice_rng_below(&rng, 100) < 30)
					u.taken[p] = !u.taken[p];
			want = brute_next(&u, r.min, r.max, cursor);
			u.calls = 0;
			got = sluice_sport_rr_next(&rr, taken, &u);
			if (got != want)
				mismatches++;
			if (want >= 0) {
				cursor = want == r.max ? r.min : want + 1;
				u.taken[want] = 1;	/* its flow now holds it */
				KTAP_EXPECT(u.calls <= size);
			} else {
				KTAP_EXPECT_INT(u.calls, size);
			}
			KTAP_EXPECT_INT(rr.next, cursor);
		}
	}
	KTAP_EXPECT_INT(mismatches, 0);
	ktap_result("rr_vs_brute_force");
}

static void test_rr_edges(void)
{
	static struct in_use u;
	struct sluice_sport_range r = { 65534, 65535 };
	struct sluice_sport_rr rr;

	u.fail_at = -1;
	sluice_sport_rr_init(&rr, &r);
	KTAP_EXPECT_INT(sluice_sport_rr_next(&rr, taken, &u), 65534);
	KTAP_EXPECT_INT(sluice_sport_rr_next(&rr, taken, &u), 65535);
	/* wraps to the start, past the top of the port space */
	KTAP_EXPECT_INT(sluice_sport_rr_next(&rr, taken, &u), 65534);
	u.taken[65535] = 1;
	KTAP_EXPECT_INT(sluice_sport_rr_next(&rr, taken, &u), 65534);
	u.taken[65534] = 1;
	KTAP_EXPECT_INT(sluice_sport_rr_next(&rr, taken, &u), -EADDRINUSE);
	KTAP_EXPECT_INT(rr.next, 65535);
	u.taken[65534] = 0;
	u.fail_at = 65535;
	KTAP_EXPECT_INT(sluice_sport_rr_next(&rr, taken, &u), -EIO);
	ktap_result("rr_edges");
}

static const char tcp_ruleset[] =
	"table ip sluice_faca {}\n"
	"delete table ip sluice_faca\n"
	"table ip sluice_faca {\n"
	"\tcomment \"sluice faca hook, queue 7\"\n"
	"\tset dests {\n"
	"\t\ttype ipv4_addr\n"
	"\t\tflags interval\n"
	"\t\tauto-merge\n"
	"\t\telements = { 198.18.2.0/24, 10.0.0.2/32 }\n"
	"\t}\n"
	"\tmap ports {\n"
	"\t\ttype mark : inet_service\n"
	"\t\telements = { 0x5fac9c40 : 40000, 0x5fac9c41 : 40001 }\n"
	"\t}\n"
	"\tchain new_flows {\n"
	"\t\ttype filter hook output priority filter; policy accept;\n"
	"\t\tmeta l4proto tcp ct state new ct status ! confirmed meta mark 0 meta oiftype != loopback ip daddr @dests counter queue num 7 bypass\n"
	"\t}\n"
	"\tchain rewrite {\n"
	"\t\ttype nat hook postrouting priority srcnat; policy accept;\n"
	"\t\tmeta l4proto tcp meta mark & 0xffff0000 == 0x5fac0000 counter snat ip to ip saddr : meta mark map @ports\n"
	"\t}\n"
	"\tchain clear_mark {\n"
	"\t\ttype filter hook postrouting priority srcnat + 1; policy accept;\n"
	"\t\tmeta mark & 0xffff0000 == 0x5fac0000 meta mark set 0\n"
	"\t}\n"
	"}\n";

static void test_ruleset(void)
{
	struct sluice_faca_prefix dst[SLUICE_FACA_HOOK_MAX_DST + 1];
	struct sluice_faca_hook_cfg cfg = {
		.queue = 7, .dst = dst, .n_dst = 2,
		.sport_min = 40000, .sport_max = 40001,
	};
	char buf[4096], *small;
	int len, n;

	sluice_faca_prefix_parse("198.18.2.0/24", &dst[0]);
	sluice_faca_prefix_parse("10.0.0.2", &dst[1]);
	len = sluice_faca_hook_ruleset(&cfg, buf, sizeof(buf));
	KTAP_EXPECT_INT(len, (int)strlen(tcp_ruleset));
	KTAP_EXPECT_STR(buf, tcp_ruleset);

	/* every room short of the text is refused, its own length suffices */
	small = malloc(len + 1);
	for (n = 0; small && n <= len; n++)
		if (!KTAP_EXPECT_INT(sluice_faca_hook_ruleset(&cfg, small, n),
				     -ENOSPC))
			break;
	KTAP_EXPECT(small && sluice_faca_hook_ruleset(&cfg, small, len + 1) == len);
	free(small);

	cfg.udp = true;
	cfg.n_dst = 0;
	cfg.sport_min = cfg.sport_max = 0;
	sluice_faca_hook_ruleset(&cfg, buf, sizeof(buf));
	KTAP_EXPECT(strstr(buf, "meta l4proto { tcp, udp } ct state new ct status ! confirmed meta mark 0 meta oiftype != loopback counter queue num 7 bypass\n"));
	KTAP_EXPECT(strstr(buf, "\tmap ports {\n\t\ttype mark : inet_service\n\t}\n"));
	KTAP_EXPECT(strstr(buf, "meta l4proto { tcp, udp } meta mark & 0xffff0000 == 0x5fac0000 counter snat"));
	KTAP_EXPECT(!strstr(buf, "dests"));

	cfg.n_dst = SLUICE_FACA_HOOK_MAX_DST + 1;
	KTAP_EXPECT_INT(sluice_faca_hook_ruleset(&cfg, buf, sizeof(buf)), -EINVAL);
	cfg.n_dst = 1;
	cfg.dst = NULL;
	KTAP_EXPECT_INT(sluice_faca_hook_ruleset(&cfg, buf, sizeof(buf)), -EINVAL);
	cfg.dst = dst;
	dst[0].len = 33;
	KTAP_EXPECT_INT(sluice_faca_hook_ruleset(&cfg, buf, sizeof(buf)), -EINVAL);
	dst[0].len = 24;
	cfg.sport_min = 5;
	KTAP_EXPECT_INT(sluice_faca_hook_ruleset(&cfg, buf, sizeof(buf)), -EINVAL);
	cfg.sport_max = 4;
	KTAP_EXPECT_INT(sluice_faca_hook_ruleset(&cfg, buf, sizeof(buf)), -EINVAL);
	cfg.sport_max = 5;
	KTAP_EXPECT(sluice_faca_hook_ruleset(&cfg, buf, sizeof(buf)) > 0);
	KTAP_EXPECT(strstr(buf, "elements = { 0x5fac0005 : 5 }\n"));
	ktap_result("ruleset");
}

/* Each bad command line: exit 2 and its message, nothing installed. */
static void test_cli(void)
{
	static const struct {
		const char *args[8];
		const char *msg;
	} bad[] = {
		{ { "faca", "hook" }, "sluicectl faca hook: --sports A-B: the source ports to give new flows\n" },
		{ { "faca", "hook", "--sports", "9-1" },
		  "sluicectl faca hook: --sports: \"9-1\" is not a port range (A-B, 1 <= A <= B <= 65535)\n" },
		{ { "faca", "hook", "--sports", "1-2", "--dst", "10.0.0.1/24" },
		  "sluicectl faca hook: --dst: \"10.0.0.1/24\" is not an IPv4 prefix (A.B.C.D/LEN, no host bits set, or A.B.C.D)\n" },
		{ { "faca", "hook", "--sports", "1-2", "--dst", "," },
		  "sluicectl faca hook: --dst: no prefix in \",\"\n" },
		{ { "faca", "hook", "--sports", "1-2", "--queue", "65536" },
		  "sluicectl faca hook: --queue: \"65536\" is not a number from 0 to 65535\n" },
		{ { "faca", "hook", "--sports", "1-2", "--udp", "--udp" },
		  "sluicectl faca hook: --udp given twice\n" },
		{ { "faca", "hook", "--sports", "1-2", "extra" },
		  "sluicectl faca hook: unexpected argument \"extra\"\n" },
		{ { "faca", "nope" }, "sluicectl faca: unknown faca command \"nope\"\n" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		cli_run(&r, NULL, bad[i].args);
		KTAP_EXPECT_INT(r.status, 2);
		if (!KTAP_EXPECT(!strncmp(r.err, bad[i].msg, strlen(bad[i].msg))))
			ktap_diag("got: %s", r.err);
	}
	RUN(&r, "faca", "hook", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "Usage: sluicectl faca hook --sports A-B"));
	RUN(&r, "help", "faca");
	KTAP_EXPECT_INT(r.status, 0);
	ktap_result("cli_refuses");
}

int main(void)
{
	cli_init();
	ktap_plan(6);
	test_prefix();
	test_range();
	test_rr_random();
	test_rr_edges();
	test_ruleset();
	test_cli();
	return ktap_exit();
}
