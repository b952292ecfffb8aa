// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FaCa's host agent (sluice/faca.h), fed synthetic probes:
 *
 * - paths: ports grouped by the records their echoes carry, numbered in
 *   ring order whatever order they were found in; compared on random
 *   small cases with a brute force (sort the distinct record sequences,
 *   look each port's up);
 * - estimates: B, utilisation, available bandwidth, D, beta (both load
 *   metrics) and E worked out by hand for a two-probe path, E following
 *   Eq. 2-3 over uneven intervals;
 * - placement: the lighter path first, the provisional increment, never
 *   one port leased twice (-EBUSY when all are), release, expiry that
 *   keeps a lease a socket still uses; the literal B * D sends the first
 *   flow to the slower of two idle paths, time to the faster;
 * - a hooked flow's placement: ports NAT could not give passed over, a
 *   path without any left out, the lease recording the flow (and "show"
 *   listing it); against a brute force on random leases and refusals;
 * - unanswered probes: a port belongs to no path after three;
 * - the agent on loopback: its unix socket's requests (sport, release,
 *   add, show, a bad one), sluice_faca_connect() binding the leased
 *   port, sock_diag seeing that connection, SIGTERM removing the socket;
 * - no agent: the documented errors, and the fallback to port 0;
 * - the CLI refuses bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sluice/faca.h>
#include <sluice/fj.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "faca/internal.h"
#include "cli.h"
#include "ktap.h"

static char err[256];

#define T0	1000000000000ull	/* a probe's tx_ns */
#define DST	htonl(0x0a000101)	/* 10.0.1.1 */

struct hopspec {
	uint32_t	node, ifindex, link;
	uint64_t	rate;
};

/* A leaf-spine's two paths from h0 of leaf0 to h0 of leaf1. */
static const struct hopspec via0[] = {	/* spine0, 8 Mbit/s */
	{ 100, 2, 0, 4000000 }, { 0, 2, 0, 8000000 },
	{ 2, 3, 2, 8000000 }, { 1, 4, 5, 4000000 },
};
static const struct hopspec via1[] = {	/* spine1, 2 Mbit/s */
	{ 100, 2, 0, 4000000 }, { 0, 3, 1, 2000000 },
	{ 3, 3, 3, 2000000 }, { 1, 4, 5, 4000000 },
};

/* An echo of a probe sent at @tx that met @n ports @dt_ns[i] after it. */
static void mkprobe(struct sluice_int_probe *p, const struct hopspec *h,
		    unsigned int n, uint64_t tx, const uint64_t *dt_ns,
		    const uint64_t *tx_bytes)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->nrec = 8;
	p->nused = n;
	p->flags = SLUICE_INT_F_ECHO;
	p->tx_ns = tx;
	for (i = 0; i < n; i++) {
		p->hop[i].node = h[i].node;
		p->hop[i].ifindex = h[i].ifindex;
		p->hop[i].link = h[i].link;
		p->hop[i].rate = h[i].rate;
		p->hop[i].ts_ns = tx + (dt_ns ? dt_ns[i] : 100000 * (i + 1));
		p->hop[i].tx_bytes = tx_bytes ? tx_bytes[i] : 0;
	}
}

static bool near(double x, double want)
{
	return fabs(x - want) <= 1e-9 * fmax(1, fabs(want));
}

#define EXPECT_NEAR(x, want) \
	do { \
		if (!KTAP_EXPECT(near((x), (want)))) \
			ktap_diag("%s = %.12g, want %.12g", #x, (double)(x), \
				  (double)(want)); \
	} while (0)

static void table(struct sluice_faca *a, uint16_t lo, uint16_t hi,
		  enum sluice_faca_load load)
{
	struct sluice_faca_opts o;

	sluice_faca_opts_default(&o);
	o.sports[0] = (struct sluice_sport_range){ lo, hi };
	o.load = load;
	if (sluice_faca_init(a, &o, err, sizeof(err)))
		ktap_diag("init: %s", err);
}

/* Ports of 8: even ones take spine1 (found first), odd ones spine0. */
static void test_paths(void)
{
	struct sluice_int_probe p;
	struct sluice_faca a;
	int d, k, idx;

	table(&a, 30000, 30007, SLUICE_FACA_LOAD_TIME);
	d = sluice_faca_dst_add(&a, DST, 0);
	KTAP_EXPECT_INT(d, 0);
	KTAP_EXPECT_INT(sluice_faca_dst_add(&a, DST, 5), 0);
	KTAP_EXPECT_INT(sluice_faca_dst_add(&a, 0, 0), -EINVAL);
	KTAP_EXPECT_INT(sluice_faca_dst_add(&a, htonl(0xe0000001), 0), -EINVAL);
	KTAP_EXPECT_INT(sluice_faca_dst_find(&a, htonl(0x0a000202)), -ENOENT);
	KTAP_EXPECT(!sluice_faca_placeable(&a, d));
	for (k = 0; k < 8; k += 2) {
		mkprobe(&p, via1, 4, T0, NULL, NULL);
		idx = sluice_faca_learn(&a, d, 30000 + k, &p, 1000, 1);
		KTAP_EXPECT_INT(idx, 0);
	}
	KTAP_EXPECT_INT(a.dst[0].n_paths, 1);
	/* spine0's path sorts first: spine1's becomes path 1 */
	for (k = 1; k < 8; k += 2) {
		mkprobe(&p, via0, 4, T0, NULL, NULL);
		KTAP_EXPECT_INT(sluice_faca_learn(&a, d, 30000 + k, &p, 1000, 2),
				0);
	}
	KTAP_EXPECT_INT(a.dst[0].n_paths, 2);
	for (k = 0; k < 8; k++)
		KTAP_EXPECT_INT(sluice_faca_path_of(&a, d, 30000 + k), k & 1 ? 0 : 1);
	KTAP_EXPECT_INT(a.dst[0].path[0].n_sports, 4);
	KTAP_EXPECT_INT(a.dst[0].path[1].n_sports, 4);
	KTAP_EXPECT_INT(a.dst[0].path[0].hop[1].link, 0);
	KTAP_EXPECT_INT(a.dst[0].path[1].hop[1].link, 1);
	/* a port that moves: its count goes with it */
	mkprobe(&p, via0, 4, T0, NULL, NULL);
	KTAP_EXPECT_INT(sluice_faca_learn(&a, d, 30000, &p, 1000, 3), 0);
	KTAP_EXPECT_INT(a.dst[0].path[0].n_sports, 5);
	KTAP_EXPECT_INT(a.dst[0].path[1].n_sports, 3);
	/* a shorter path that is a prefix sorts before */
	mkprobe(&p, via0, 3, T0, NULL, NULL);
	KTAP_EXPECT_INT(sluice_faca_learn(&a, d, 30007, &p, 1000, 4), 0);
	KTAP_EXPECT_INT(sluice_faca_path_of(&a, d, 30001), 1);
	KTAP_EXPECT_INT(sluice_faca_path_of(&a, d, 30002), 2);
	/* refused: outside the pool, no records, no destination */
	KTAP_EXPECT_INT(sluice_faca_learn(&a, d, 30008, &p, 1000, 5), -ERANGE);
	KTAP_EXPECT_INT(sluice_faca_learn(&a, 7, 30001, &p, 1000, 5), -EINVAL);
	p.nused = 0;
	KTAP_EXPECT_INT(sluice_faca_learn(&a, d, 30001, &p, 1000, 5), -ENODATA);
	KTAP_EXPECT(sluice_faca_placeable(&a, d));
	sluice_faca_free(&a);
	ktap_result("paths");
}

/* A pool of several ranges: parsed, printed back, each port found. */
static void test_pool(void)
{
	struct sluice_faca_opts o;
	struct sluice_int_probe p;
	struct sluice_faca a;
	char buf[64];
	uint16_t sport;

	sluice_faca_opts_default(&o);
	KTAP_EXPECT_INT(sluice_faca_ranges_parse("30000-30003,30010,30020-30021",
						 &o, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(o.n_ranges, 3);
	KTAP_EXPECT_STR(sluice_faca_ranges_format(&o, buf, sizeof(buf)),
			"30000-30003,30010,30020-30021");
	KTAP_EXPECT_INT(sluice_faca_init(&a, &o, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(a.n_sports, 7);
	KTAP_EXPECT_INT(sluice_faca_sport_index(&a, 30000), 0);
	KTAP_EXPECT_INT(sluice_faca_sport_index(&a, 30010), 4);
	KTAP_EXPECT_INT(sluice_faca_sport_index(&a, 30021), 6);
	KTAP_EXPECT_INT(sluice_faca_sport_index(&a, 30005), -1);
	KTAP_EXPECT_INT(sluice_faca_sport_index(&a, 29999), -1);
	/* the one port of 30010 learned: placed there, the others unknown */
	sluice_faca_dst_add(&a, DST, 0);
	mkprobe(&p, via0, 4, T0, NULL, NULL);
	KTAP_EXPECT_INT(sluice_faca_learn(&a, 0, 30010, &p, 1, 1), 0);
	KTAP_EXPECT_INT(sluice_faca_learn(&a, 0, 30005, &p, 1, 1), -ERANGE);
	KTAP_EXPECT_INT(sluice_faca_place(&a, 0, 1, 1, &sport), 0);
	KTAP_EXPECT_INT(sport, 30010);
	sluice_faca_free(&a);
	KTAP_EXPECT_INT(sluice_faca_ranges_parse("30000-30003,30002", &o, err,
						 sizeof(err)), -EINVAL);
	KTAP_EXPECT_INT(sluice_faca_ranges_parse("70000", &o, err, sizeof(err)),
			-EINVAL);
	ktap_result("pool");
}

/*
 * An exact fabric's pool: 3 paths a pair (a leaf-spine of 3 spines), the
 * first ports of each path's range (20000 + 64 k).
 */
static void test_exact_pool(void)
{
	struct sluice_route_opts ro = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_compute_opts c = { .threads = 1 };
	struct sluice_faca_opts o;
	struct sluice_routes r;
	struct sluice_graph g;
	char buf[128];

	sluice_faca_opts_default(&o);
	if (!KTAP_EXPECT_INT(sluice_topo_leafspine(&g, 2, 3, 1, 1, err,
						   sizeof(err)), 0))
		return;
	if (KTAP_EXPECT_INT(sluice_routes_compute(&g, &ro, &c, &r, err,
						  sizeof(err)), 0)) {
		KTAP_EXPECT_INT(sluice_faca_exact_pool(&r, 0, 8, &o, err,
						       sizeof(err)), 0);
		KTAP_EXPECT_STR(sluice_faca_ranges_format(&o, buf, sizeof(buf)),
				"20000-20007,20064-20071,20128-20135");
		KTAP_EXPECT_INT(sluice_faca_exact_pool(&r, 1, 64, &o, err,
						       sizeof(err)), 0);
		KTAP_EXPECT_STR(sluice_faca_ranges_format(&o, buf, sizeof(buf)),
				"20000-20063,20064-20127,20128-20191");
		/* a spine is no endpoint: no pair from it */
		KTAP_EXPECT_INT(sluice_faca_exact_pool(&r, 2, 8, &o, err,
						       sizeof(err)), -ENOENT);
		KTAP_EXPECT_INT(sluice_faca_exact_pool(&r, 0, 65, &o, err,
						       sizeof(err)), -EINVAL);
		sluice_routes_free(&r);
	}
	sluice_graph_free(&g);
	ktap_result("exact_pool");
}

/* Random paths over a few nodes, against sorting them all at the end. */
static void test_paths_brute(void)
{
	struct sluice_faca_hop key[8][4];
	unsigned int len[8], order[8];
	struct hopspec h[4];
	struct sluice_int_probe p;
	struct sluice_rng rng;
	struct sluice_faca a;
	int taken[16], bad = 0;
	unsigned int c, k, i, j, n, want, tmp;

	sluice_rng_seed(&rng, 19);
	for (c = 0; c < 300; c++) {
		table(&a, 40000, 40015, SLUICE_FACA_LOAD_TIME);
		sluice_faca_dst_add(&a, DST, 0);
		n = 1 + sluice_rng_below(&rng, 8);
		for (k = 0; k < n; k++) {
			len[k] = 1 + sluice_rng_below(&rng, 4);
			for (i = 0; i < len[k]; i++)
				key[k][i] = (struct sluice_faca_hop){
					.node = sluice_rng_below(&rng, 3),
					.ifindex = sluice_rng_below(&rng, 2),
					.link = sluice_rng_below(&rng, 2),
				};
		}
		/* every port learns one of the candidates, at random */
		for (k = 0; k < 16; k++) {
			taken[k] = sluice_rng_below(&rng, n);
			for (i = 0; i < len[taken[k]]; i++)
				h[i] = (struct hopspec){
					key[taken[k]][i].node,
					key[taken[k]][i].ifindex,
					key[taken[k]][i].link, 1000000,
				};
			mkprobe(&p, h, len[taken[k]], T0, NULL, NULL);
			sluice_faca_learn(&a, 0, 40000 + k, &p, 1, k + 1);
		}
		/* brute force: sort the candidates taken, ties merged */
		for (k = 0; k < n; k++)
			order[k] = k;
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				unsigned int x = order[i], y = order[j], m;
				int cmp = 0;

				for (m = 0; !cmp && m < len[x] && m < len[y]; m++)
					cmp = key[x][m].node != key[y][m].node ?
					      (key[x][m].node < key[y][m].node ? -1 : 1) :
					      key[x][m].link != key[y][m].link ?
					      (key[x][m].link < key[y][m].link ? -1 : 1) :
					      key[x][m].ifindex != key[y][m].ifindex ?
					      (key[x][m].ifindex < key[y][m].ifindex ? -1 : 1) : 0;
				if (!cmp)
					cmp = len[x] == len[y] ? 0 : len[x] < len[y] ? -1 : 1;
				if (cmp > 0) {
					tmp = order[i];
					order[i] = order[j];
					order[j] = tmp;
				}
			}
		for (k = 0; k < 16; k++) {
			/* the rank of the port's candidate among distinct ones taken */
			want = 0;
			for (i = 0; i < n && order[i] != (unsigned int)taken[k]; i++) {
				bool used = false, dup = false;

				for (j = 0; j < 16; j++)
					used |= taken[j] == (int)order[i];
				for (j = 0; j < i; j++)
					dup |= len[order[j]] == len[order[i]] &&
					       !memcmp(key[order[j]], key[order[i]],
						       len[order[i]] * sizeof(key[0][0]));
				/* a duplicate of the port's own counts as it */
				if (len[order[i]] == len[taken[k]] &&
				    !memcmp(key[order[i]], key[taken[k]],
					    len[taken[k]] * sizeof(key[0][0])))
					break;
				if (used && !dup)
					want++;
			}
			if (sluice_faca_path_of(&a, 0, 40000 + k) != (int)want)
				bad++;
		}
		sluice_faca_free(&a);
	}
	KTAP_EXPECT_INT(bad, 0);
	ktap_result("paths_brute_force");
}

static void test_estimates(void)
{
	/* probe 1: the ports 0.1, 0.3, 0.6 and 1 ms after it was sent */
	static const uint64_t dt1[] = { 100000, 300000, 600000, 1000000 };
	static const uint64_t dt2[] = { 100000, 300000, 600000, 2000000 };
	static const uint64_t tx1[] = { 1000000, 2000000, 3000000, 4000000 };
	/* 100 ms later (101 at the last): 25000, 50000, 90000, 10100 more */
	static const uint64_t tx2[] = { 1025000, 2050000, 3090000, 4010100 };
	const struct sluice_faca_path *pa;
	struct sluice_int_probe p;
	struct sluice_faca a;
	double alpha, e1, beta2;

	table(&a, 30000, 30007, SLUICE_FACA_LOAD_TIME);
	sluice_faca_dst_add(&a, DST, 0);
	mkprobe(&p, via0, 4, T0, dt1, tx1);
	sluice_faca_learn(&a, 0, 30000, &p, 3000000, 5000000000ull);
	pa = &a.dst[0].path[0];
	EXPECT_NEAR(pa->B, 4e6);		/* the host links' */
	EXPECT_NEAR(pa->util, -1);		/* one probe: none yet */
	EXPECT_NEAR(pa->avail, 4e6);
	EXPECT_NEAR(pa->D, 0.001);
	EXPECT_NEAR(pa->rtt, 0.003);
	/* 1 ms + 64 KiB * 8 at 4 Mbit/s */
	e1 = 0.001 + 65536.0 * 8 / 4e6;
	EXPECT_NEAR(pa->beta, e1);
	EXPECT_NEAR(pa->E, e1);

	mkprobe(&p, via0, 4, T0 + 100000000, dt2, tx2);
	sluice_faca_learn(&a, 0, 30001, &p, 4000000, 5100000000ull);
	/* 2, 4, 7.2 and 0.8 Mbit/s of 4, 8, 8 and 4 */
	EXPECT_NEAR(pa->hop[0].util, 0.5);
	EXPECT_NEAR(pa->hop[1].util, 0.5);
	EXPECT_NEAR(pa->hop[2].util, 0.9);
	EXPECT_NEAR(pa->hop[3].util, 0.2);
	EXPECT_NEAR(pa->util, 0.9);
	EXPECT_NEAR(pa->avail, 8e6 * (1 - 0.9));	/* spine0's 0.8 Mbit/s */
	EXPECT_NEAR(pa->D, 0.002);
	beta2 = 0.002 + 65536.0 * 8 / 0.8e6;
	EXPECT_NEAR(pa->beta, beta2);
	alpha = exp(-5.0 * 0.1);		/* k 5/s, 100 ms since */
	EXPECT_NEAR(pa->E, alpha * e1 + (1 - alpha) * beta2);
	EXPECT_NEAR(pa->E, sluice_faca_ewma(e1, beta2, 5.0, 0.1));

	/*
	 * 40 ms later at the ports, under half the 100 ms interval: a
	 * window too short for a utilisation (it would be the probe before
	 * alone), kept
	 */
	mkprobe(&p, via0, 4, T0 + 140000000, dt2, tx2);
	p.hop[2].tx_bytes += 5000;
	sluice_faca_learn(&a, 0, 30001, &p, 4000000, 5140000000ull);
	EXPECT_NEAR(pa->hop[2].util, 0.9);
	/* an older probe's echo taken after a newer one's: kept as it was */
	mkprobe(&p, via0, 4, T0 + 50000000, dt1, tx1);
	sluice_faca_learn(&a, 0, 30002, &p, 4000000, 5141000000ull);
	EXPECT_NEAR(pa->util, 0.9);
	EXPECT_NEAR(pa->hop[3].util, 0.2);
	/* a counter that went back (a new qdisc): no utilisation there */
	mkprobe(&p, via0, 4, T0 + 300000000, dt2, tx1);
	sluice_faca_learn(&a, 0, 30001, &p, 4000000, 5300000000ull);
	EXPECT_NEAR(pa->hop[2].util, -1);
	EXPECT_NEAR(pa->util, -1);
	/* a record stamped before the probe left: D 0 */
	mkprobe(&p, via0, 4, T0 + 400000000, dt2, tx1);
	p.hop[3].ts_ns = p.tx_ns - 5;
	sluice_faca_learn(&a, 0, 30001, &p, 4000000, 5400000000ull);
	EXPECT_NEAR(pa->D, 0);
	KTAP_EXPECT_INT(pa->probes, 6);
	sluice_faca_free(&a);

	/* bdp: B * D in bits */
	table(&a, 30000, 30007, SLUICE_FACA_LOAD_BDP);
	sluice_faca_dst_add(&a, DST, 0);
	mkprobe(&p, via1, 4, T0, dt1, tx1);
	sluice_faca_learn(&a, 0, 30000, &p, 3000000, 1);
	EXPECT_NEAR(a.dst[0].path[0].B, 2e6);
	EXPECT_NEAR(a.dst[0].path[0].beta, 2e6 * 0.001);
	EXPECT_NEAR(a.dst[0].path[0].E, 2000);
	sluice_faca_free(&a);
	ktap_result("estimates");
}

/* E over probes at uneven intervals: Eq. 2 with Eq. 3's alpha each time. */
static void test_ewma(void)
{
	static const uint64_t gap_ms[] = { 50, 100, 400, 10, 1000, 250 };
	static const uint64_t d_us[] = { 900, 2500, 700, 4100, 1300, 3000 };
	uint64_t now = 1000000000, dt[4];
	struct sluice_int_probe p;
	struct sluice_faca a;
	double want = 0, beta;
	size_t k;
	int bad = 0;

	table(&a, 30000, 30000, SLUICE_FACA_LOAD_BDP);
	a.o.k = 3;
	sluice_faca_dst_add(&a, DST, 0);
	for (k = 0; k < ARRAY_SIZE(gap_ms); k++) {
		now += gap_ms[k] * 1000000;
		dt[0] = dt[1] = dt[2] = 10;
		dt[3] = d_us[k] * 1000;
		mkprobe(&p, via1, 4, T0 + now, dt, NULL);
		sluice_faca_learn(&a, 0, 30000, &p, 1, now);
		beta = 2e6 * d_us[k] / 1e6;
		want = k ? exp(-3.0 * gap_ms[k] / 1e3) * want +
			   (1 - exp(-3.0 * gap_ms[k] / 1e3)) * beta : beta;
		if (!near(a.dst[0].path[0].E, want))
			bad++;
	}
	KTAP_EXPECT_INT(bad, 0);
	EXPECT_NEAR(sluice_faca_alpha(3, 0.4), exp(-1.2));
	sluice_faca_free(&a);
	ktap_result("ewma");
}

/*
 * Both paths probed once, idle: 8 and 2 Mbit/s (4 at the hosts), D 0.4
 * and 0.6 ms.
 */
static void two_paths(struct sluice_faca *a, enum sluice_faca_load load)
{
	static const uint64_t d0[] = { 100000, 200000, 300000, 400000 };
	static const uint64_t d1[] = { 100000, 200000, 300000, 600000 };
	struct sluice_int_probe p;
	int k;

	table(a, 30000, 30007, load);
	sluice_faca_dst_add(a, DST, 0);
	for (k = 0; k < 8; k++) {
		mkprobe(&p, k & 1 ? via1 : via0, 4, T0, k & 1 ? d1 : d0, NULL);
		sluice_faca_learn(a, 0, 30000 + k, &p, 1000, 1000);
	}
}

static bool in_use_20004(void *arg, uint32_t addr, uint16_t sport)
{
	(*(int *)arg)++;
	return addr == DST && sport == 30004;
}

static void test_place(void)
{
	const double inc[2] = { 65536.0 * 8 / 4e6, 65536.0 * 8 / 2e6 };
	struct sluice_faca_path *pa;
	uint16_t sport, seen[8];
	struct sluice_faca a;
	double before;
	int k, j, idx, want, calls = 0, dup = 0, wrong = 0;

	two_paths(&a, SLUICE_FACA_LOAD_TIME);
	pa = a.dst[0].path;
	KTAP_EXPECT_INT(sluice_faca_place(&a, 3, 1, 1, &sport), -EINVAL);
	/* time: 0.4 ms + 64 KiB at 4 Mbit/s, 0.6 ms + 64 KiB at 2 */
	EXPECT_NEAR(pa[0].E, 0.0004 + 65536.0 * 8 / 4e6);
	EXPECT_NEAR(pa[1].E, 0.0006 + 65536.0 * 8 / 2e6);
	for (k = 0; k < 8; k++) {
		/* with two paths, Flowing&Jumping takes the lighter one */
		want = -1;
		for (j = 0; j < 2; j++)
			if (pa[j].n_sports > pa[j].leases &&
			    (want < 0 || pa[j].E < pa[want].E))
				want = j;
		before = pa[want].E;
		idx = sluice_faca_place(&a, 0, 2000, 1000000, &sport);
		if (idx != want || sluice_faca_path_of(&a, 0, sport) != idx ||
		    !near(pa[want].E, before + inc[want]))
			wrong++;
		for (j = 0; j < k; j++)
			dup += seen[j] == sport;
		seen[k] = sport;
	}
	KTAP_EXPECT_INT(wrong, 0);
	KTAP_EXPECT_INT(dup, 0);
	/* the first two flows went to the faster path, the third not */
	KTAP_EXPECT_INT(sluice_faca_path_of(&a, 0, seen[0]), 0);
	KTAP_EXPECT_INT(sluice_faca_path_of(&a, 0, seen[1]), 0);
	KTAP_EXPECT_INT(sluice_faca_path_of(&a, 0, seen[2]), 1);
	KTAP_EXPECT_INT(pa[0].leases + pa[1].leases, 8);
	KTAP_EXPECT_INT(pa[0].placed + pa[1].placed, 8);
	KTAP_EXPECT_INT(sluice_faca_place(&a, 0, 2000, 1000000, &sport), -EBUSY);
	/* one back: the next flow gets that very port */
	KTAP_EXPECT_INT(sluice_faca_release(&a, DST, seen[5], 3000), 0);
	KTAP_EXPECT_INT(sluice_faca_release(&a, DST, seen[5], 3000), -ENOENT);
	KTAP_EXPECT_INT(sluice_faca_release(&a, htonl(0x0a000102), seen[4], 3000),
			-ENOENT);
	KTAP_EXPECT(sluice_faca_place(&a, 0, 4000, 1000000, &sport) >= 0);
	KTAP_EXPECT_INT(sport, seen[5]);
	/* past their time: all end but the one a socket still holds */
	KTAP_EXPECT_INT(sluice_faca_expire(&a, 1004000, in_use_20004, &calls),
			7);
	KTAP_EXPECT_INT(calls, 8);
	KTAP_EXPECT(a.dst[0].sport[4].lease_until > 1004000);
	KTAP_EXPECT_INT(pa[0].leases + pa[1].leases, 1);
	KTAP_EXPECT_INT(sluice_faca_expire(&a, 1004000, NULL, NULL), 0);
	sluice_faca_free(&a);

	/* the literal B * D: the slower path reads lighter when idle */
	two_paths(&a, SLUICE_FACA_LOAD_BDP);
	pa = a.dst[0].path;
	EXPECT_NEAR(pa[0].E, 4e6 * 0.0004);
	EXPECT_NEAR(pa[1].E, 2e6 * 0.0006);
	KTAP_EXPECT_INT(sluice_faca_place(&a, 0, 2000, 1000000, &sport), 1);
	/* its increment: 64 KiB in flight */
	EXPECT_NEAR(pa[1].E, 2e6 * 0.0006 + 65536.0 * 8);
	sluice_faca_free(&a);
	ktap_result("place");
}

/* Refuses the ports whose bit is set in the 64-bit mask @arg (from 30000). */
static bool usable_mask(void *arg, uint16_t sport)
{
	return !(*(uint64_t *)arg >> (sport - 30000) & 1);
}

/* A hooked flow: ports refused passed over, the lease recording it. */
static void test_place_flow(void)
{
	const struct sluice_faca_hooked f = {
		.saddr = htonl(0x0a000001), .sport = 52790, .dport = 5001,
		.proto = IPPROTO_TCP,
	};
	struct sluice_faca_path *pa;
	uint64_t refused;
	struct sluice_faca a;
	uint16_t sport;
	double E0, E1;
	char *json;

	/* path 0 (the lighter) has 30000, 30002, 30004, 30006 */
	two_paths(&a, SLUICE_FACA_LOAD_TIME);
	pa = a.dst[0].path;
	refused = 1u << 0 | 1u << 2;
	KTAP_EXPECT_INT(sluice_faca_place_flow(&a, 0, 1, 1000, &f, usable_mask,
					       &refused, &sport), 0);
	KTAP_EXPECT_INT(sport, 30004);
	KTAP_EXPECT_INT(a.dst[0].sport[4].flow.sport, 52790);
	KTAP_EXPECT_INT(a.dst[0].sport[4].flow.proto, IPPROTO_TCP);
	json = sluice_faca_json(&a, 1);
	if (!KTAP_EXPECT(json && strstr(json, "\"flow\":{\"proto\":\"tcp\",\"saddr\":\"10.0.0.1\",\"sport\":52790,\"dport\":5001}}]},{\"index\":1")))
		ktap_diag("%s", json);
	free(json);
	/* path 0's free ports all refused: Flowing&Jumping without it */
	refused = 1u << 0 | 1u << 2 | 1u << 6;
	E0 = pa[0].E;
	KTAP_EXPECT_INT(sluice_faca_place_flow(&a, 0, 1, 1000, &f, usable_mask,
					       &refused, &sport), 1);
	KTAP_EXPECT_INT(sport, 30001);
	EXPECT_NEAR(pa[0].E, E0);
	/* every free port refused: -EBUSY, nothing leased nor added */
	refused = ~0ull;
	E0 = pa[0].E;
	E1 = pa[1].E;
	KTAP_EXPECT_INT(sluice_faca_place_flow(&a, 0, 1, 1000, &f, usable_mask,
					       &refused, &sport), -EBUSY);
	KTAP_EXPECT_INT(pa[0].leases + pa[1].leases, 2);
	EXPECT_NEAR(pa[0].E, E0);
	EXPECT_NEAR(pa[1].E, E1);
	/* a client's lease records no flow; a release forgets the flow */
	KTAP_EXPECT_INT(sluice_faca_place(&a, 0, 1, 1000, &sport), 0);
	KTAP_EXPECT_INT(a.dst[0].sport[sluice_faca_sport_index(&a, sport)].flow.proto, 0);
	KTAP_EXPECT_INT(sluice_faca_release(&a, DST, 30004, 2), 0);
	KTAP_EXPECT_INT(a.dst[0].sport[4].flow.proto, 0);
	sluice_faca_free(&a);
	ktap_result("place_flow");
}

/*
 * Random leases, releases and refusals on the two paths, against the
 * rule worked out by hand: of the paths with a usable free port, the
 * lighter (Flowing&Jumping between two), and on it the usable free port
 * given back longest ago, the lowest among equals.
 */
static void test_place_flow_brute(void)
{
	struct sluice_faca_sport *s;
	struct sluice_rng rng;
	struct sluice_faca a;
	uint64_t refused, now;
	int c, k, j, want, port, got, bad = 0;
	uint16_t sport;

	sluice_rng_seed(&rng, 23);
	for (c = 0; c < 400; c++) {
		two_paths(&a, SLUICE_FACA_LOAD_TIME);
		now = 2000;
		/* a random history: leases and releases at random times */
		for (k = 0; k < 8; k++) {
			if (sluice_rng_below(&rng, 2))
				continue;
			a.dst[0].sport[k].lease_until = now + 1000000;
			a.dst[0].path[a.dst[0].sport[k].path].leases++;
			if (sluice_rng_below(&rng, 2))
				sluice_faca_release(&a, DST, 30000 + k,
						    now + sluice_rng_below(&rng, 3));
		}
		a.dst[0].path[0].E = sluice_rng_below(&rng, 100) / 1e3;
		a.dst[0].path[1].E = sluice_rng_below(&rng, 100) / 1e3 + 1e-6;
		refused = sluice_rng_below(&rng, 256);
		/* brute force */
		want = -1;
		port = -1;
		for (j = 0; j < 2; j++) {
			int best = -1;

			for (k = 0; k < 8; k++) {
				s = &a.dst[0].sport[k];
				if (s->path != j || s->lease_until || refused >> k & 1)
					continue;
				if (best < 0 || s->released_ns < a.dst[0].sport[best].released_ns)
					best = k;
			}
			if (best >= 0 && (want < 0 || a.dst[0].path[j].E < a.dst[0].path[want].E)) {
				want = j;
				port = best;
			}
		}
		got = sluice_faca_place_flow(&a, 0, now + 10, 1000, NULL,
					     usable_mask, &refused, &sport);
		if (want < 0 ? got != -EBUSY :
		    got != want || sport != 30000 + port)
			bad++;
		sluice_faca_free(&a);
	}
	KTAP_EXPECT_INT(bad, 0);
	ktap_result("place_flow_brute_force");
}

/*
 * A path slowed by delay, not rate (spine1 as fast as spine0, 20 ms
 * further): both metrics send the flow to the other.
 */
static void test_delay(void)
{
	static const struct hopspec via1_fast[] = {
		{ 100, 2, 0, 4000000 }, { 0, 3, 1, 8000000 },
		{ 3, 3, 3, 8000000 }, { 1, 4, 5, 4000000 },
	};
	static const uint64_t near_[] = { 100000, 200000, 300000, 400000 };
	static const uint64_t far_[] = { 100000, 200000, 20300000, 20400000 };
	static const enum sluice_faca_load loads[] = {
		SLUICE_FACA_LOAD_TIME, SLUICE_FACA_LOAD_BDP,
	};
	struct sluice_int_probe p;
	struct sluice_faca a;
	uint16_t sport;
	size_t m;

	for (m = 0; m < ARRAY_SIZE(loads); m++) {
		table(&a, 30000, 30001, loads[m]);
		sluice_faca_dst_add(&a, DST, 0);
		mkprobe(&p, via0, 4, T0, near_, NULL);
		sluice_faca_learn(&a, 0, 30000, &p, 1000, 1000);
		mkprobe(&p, via1_fast, 4, T0, far_, NULL);
		sluice_faca_learn(&a, 0, 30001, &p, 1000, 1000);
		KTAP_EXPECT_INT(sluice_faca_place(&a, 0, 2000, 1000000, &sport), 0);
		KTAP_EXPECT_INT(sport, 30000);
		sluice_faca_free(&a);
	}
	ktap_result("delay");
}

static void test_miss(void)
{
	struct sluice_int_probe p;
	struct sluice_faca a;
	uint16_t sport;
	int k;

	table(&a, 30000, 30001, SLUICE_FACA_LOAD_TIME);
	sluice_faca_dst_add(&a, DST, 0);
	KTAP_EXPECT_INT(sluice_faca_place(&a, 0, 1, 1, &sport), -EAGAIN);
	mkprobe(&p, via0, 4, T0, NULL, NULL);
	sluice_faca_learn(&a, 0, 30000, &p, 1, 1);
	sluice_faca_learn(&a, 0, 30001, &p, 1, 1);
	sluice_faca_miss(&a, 0, 30000);
	sluice_faca_miss(&a, 0, 30000);
	KTAP_EXPECT_INT(sluice_faca_path_of(&a, 0, 30000), 0);
	sluice_faca_miss(&a, 0, 30000);
	KTAP_EXPECT_INT(sluice_faca_path_of(&a, 0, 30000), -1);
	KTAP_EXPECT_INT(a.dst[0].path[0].n_sports, 1);
	for (k = 0; k < 3; k++)
		sluice_faca_miss(&a, 0, 30001);
	KTAP_EXPECT(!sluice_faca_placeable(&a, 0));
	KTAP_EXPECT_INT(sluice_faca_place(&a, 0, 1, 1, &sport), -EAGAIN);
	/* an echo puts it back */
	sluice_faca_learn(&a, 0, 30001, &p, 1, 2);
	KTAP_EXPECT_INT(sluice_faca_place(&a, 0, 1, 1, &sport), 0);
	KTAP_EXPECT_INT(sport, 30001);
	sluice_faca_free(&a);
	ktap_result("miss");
}

/* A free port to use on loopback: UDP and TCP. */
static uint16_t free_port(int type)
{
	int fd = socket(AF_INET, type, 0);
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	uint16_t port = 0;

	if (fd >= 0 && !bind(fd, (struct sockaddr *)&sin, sizeof(sin)) &&
	    !getsockname(fd, (struct sockaddr *)&sin, &len))
		port = ntohs(sin.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/* A TCP listener on loopback, its address in @to. */
static int listener(struct sockaddr_in *to)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	*to = (struct sockaddr_in){
		.sin_family = AF_INET,
		.sin_port = htons(free_port(SOCK_STREAM)),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	if (fd >= 0 && (bind(fd, (struct sockaddr *)to, sizeof(*to)) ||
			listen(fd, 4))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* A raw request line, its reply line. */
static void raw(const char *sock, const char *req, char *out, size_t len)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ssize_t n, got = 0;

	out[0] = '\0';
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", sock);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof(sun)) ||
	    write(fd, req, strlen(req)) != (ssize_t)strlen(req)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while (got < (ssize_t)len - 1 &&
	       (n = read(fd, out + got, len - 1 - got)) > 0) {
		got += n;
		if (memchr(out, '\n', got))
			break;
	}
	out[got] = '\0';
	close(fd);
}

static volatile sig_atomic_t agent_stop;

static void on_term(int sig)
{
	(void)sig;
	agent_stop = 1;
}

static pid_t start_agent(const char *sock, uint16_t port, uint16_t lo)
{
	struct sluice_faca_serve s = { .socket = sock, .stop = &agent_stop };
	struct sigaction sa = { .sa_handler = on_term };
	struct sluice_faca_opts o;
	struct sluice_int_probe p;
	struct sluice_faca a;
	char e[256];
	pid_t pid;
	int k, d, ret;

	pid = fork();
	if (pid)
		return pid;
	sluice_faca_opts_default(&o);
	o.port = port;
	o.sports[0] = (struct sluice_sport_range){ lo, lo + 3 };
	o.lease_ns = 60000000000ull;
	/*
	 * Two paths to 127.0.0.1, .3 and .4 learned beforehand: the agent's
	 * own probes to them come back without records (no sluice port on
	 * lo), which keeps the ports where they are
	 */
	ret = sluice_faca_init(&a, &o, e, sizeof(e));
	for (d = 0; d < 3; d++) {
		sluice_faca_dst_add(&a, htonl(INADDR_LOOPBACK + (d ? d + 1 : 0)),
				    0);
		for (k = 0; k < 4; k++) {
			mkprobe(&p, k & 1 ? via1 : via0, 4, T0, NULL, NULL);
			sluice_faca_learn(&a, d, lo + k, &p, 1000, 1);
		}
	}
	sigaction(SIGTERM, &sa, NULL);
	if (!ret)
		ret = sluice_faca_serve(&a, &s, e, sizeof(e));
	if (ret)
		fprintf(stderr, "agent: %s\n", e);
	_exit(ret ? 1 : 0);
}

static bool wait_socket(const char *sock)
{
	struct stat st;
	int k;

	for (k = 0; k < 100; k++) {
		if (!stat(sock, &st))
			return true;
		usleep(20000);
	}
	return false;
}

static void test_agent(void)
{
	struct sockaddr_in to, me;
	struct sluice_i_port_peer *socks = NULL;
	uint16_t port, lo, sport, sport2;
	uint32_t lb = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof(me);
	char sock[100], line[512], *json = NULL, *text;
	int status, lfd, fd, n;
	struct run r;
	pid_t pid;

	cli_mkdtemp("faca");
	snprintf(sock, sizeof(sock), "%s", cli_path("agent.sock"));
	port = free_port(SOCK_DGRAM);
	lo = 41000 + getpid() % 4000;
	/*
	 * The agent listens under "SOCK~" and renames it into place, so
	 * that a client that sees SOCK is never refused; a dead agent's
	 * half-made one is no obstacle, and none is left
	 */
	snprintf(line, sizeof(line), "%s~", sock);
	fd = open(line, O_CREAT | O_WRONLY, 0600);
	KTAP_EXPECT(fd >= 0);
	if (fd >= 0)
		close(fd);
	pid = start_agent(sock, port, lo);
	KTAP_EXPECT(wait_socket(sock));
	KTAP_EXPECT(access(line, F_OK) && errno == ENOENT);

	KTAP_EXPECT_INT(sluice_faca_sport(sock, lb, 0, &sport, err,
					  sizeof(err)), 0);
	KTAP_EXPECT(sport >= lo && sport <= lo + 3);
	KTAP_EXPECT_INT(sluice_faca_sport(sock, lb, 500, &sport2, err,
					  sizeof(err)), 0);
	KTAP_EXPECT(sport2 != sport && sport2 >= lo && sport2 <= lo + 3);
	KTAP_EXPECT_INT(sluice_faca_release_port(sock, lb, sport2, err,
						 sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_faca_release_port(sock, lb, sport, err,
						 sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_faca_release_port(sock, lb, sport, err,
						 sizeof(err)), -ENOENT);
	KTAP_EXPECT(strstr(err, "no lease of port"));
	/* a destination without a path: probed, found wanting */
	KTAP_EXPECT_INT(sluice_faca_sport(sock, htonl(0x7f000002), 0, &sport,
					  err, sizeof(err)), -EHOSTUNREACH);
	KTAP_EXPECT(strstr(err, "no probe to 127.0.0.2 came back with a path"));
	KTAP_EXPECT_INT(sluice_faca_add(sock, htonl(0x7f000003), err,
					sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_faca_add(sock, htonl(0xe0000001), err,
					sizeof(err)), -EINVAL);
	KTAP_EXPECT_INT(sluice_faca_show(sock, &json, err, sizeof(err)), 0);
	if (!KTAP_EXPECT(json && strstr(json, "\"addr\":\"127.0.0.1\"") &&
			 strstr(json, "\"addr\":\"127.0.0.3\"") &&
			 strstr(json, "\"B\":4000000.0")))
		ktap_diag("%s", json ? json : err);
	free(json);
	raw(sock, "bogus\n", line, sizeof(line));
	KTAP_EXPECT_STR(line, "err 22 unknown request (sport, release, add, show)\n");
	raw(sock, "sport 127.0.0.1 x\n", line, sizeof(line));
	KTAP_EXPECT_STR(line, "err 22 \"x\" is not a lease in ms\n");

	/* connect(): bound to the leased port, seen by sock_diag */
	lfd = listener(&to);
	KTAP_EXPECT(lfd >= 0);
	fd = sluice_faca_connect(sock, &to, SOCK_CLOEXEC, 0, &sport, err,
				 sizeof(err));
	KTAP_EXPECT(fd >= 0);
	KTAP_EXPECT(!getsockname(fd, (struct sockaddr *)&me, &len) &&
		    ntohs(me.sin_port) == sport && sport >= lo);
	n = sluice_i_tcp_socks(&socks);
	KTAP_EXPECT(n > 0 && sluice_i_port_peer_has(socks, n, sport, lb));
	KTAP_EXPECT(!sluice_i_port_peer_has(socks, n, sport, htonl(0x7f000002)));
	free(socks);
	close(fd);
	close(lfd);
	KTAP_EXPECT_INT(sluice_faca_release_port(sock, lb, sport, err,
						 sizeof(err)), 0);

	/* the flow generator's pairs, 127.0.0.1 to .3 and .2 to .4 */
	cli_init_binary("FLOWGEN", "../flowgen/sluice-flowgen");
	snprintf(line, sizeof(line), "--faca=%s", sock);
	RUN(&r, "--loopback", "4", "--workload", "pairs", "--duration", "0.3",
	    line, "-o", cli_path("pairs.txt"));
	cli_init();
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "source ports: 2 from the FaCa agents, 0 the kernel's"));
	text = cli_read_all(cli_path("pairs.txt"));
	KTAP_EXPECT(text && sscanf(text, "%*[^\n]\n%*x %*x %hu %*u %*u %d\n%*x %*x %hu",
				   &sport, &n, &sport2) == 3 &&
		    n == 1 && sport >= lo && sport <= lo + 3 && sport2 >= lo &&
		    sport2 <= lo + 3);
	free(text);
	/* and their leases given back when they stopped */
	KTAP_EXPECT_INT(sluice_faca_show(sock, &json, err, sizeof(err)), 0);
	KTAP_EXPECT(json && strstr(json, "\"leases\":[]") &&
		    !strstr(json, "\"sport\":"));
	free(json);

	kill(pid, SIGTERM);
	KTAP_EXPECT(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		    !WEXITSTATUS(status));
	KTAP_EXPECT(access(sock, F_OK) && errno == ENOENT);
	cli_rmdir();
	ktap_result("agent_loopback");
}

static void test_no_agent(void)
{
	struct sockaddr_in to, me;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	uint32_t lb = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof(me);
	char sock[100];
	uint16_t sport = 7;
	int fd, lfd;
	struct run r;

	cli_mkdtemp("faca");
	snprintf(sock, sizeof(sock), "%s", cli_path("none.sock"));
	KTAP_EXPECT_INT(sluice_faca_sport(sock, lb, 0, &sport, err,
					  sizeof(err)), -ENOENT);
	KTAP_EXPECT(strstr(err, "no FaCa agent at ") &&
		    strstr(err, "No such file or directory"));
	KTAP_EXPECT_INT(sport, 7);
	/* a dead agent's socket */
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", sock);
	KTAP_EXPECT(!bind(fd, (struct sockaddr *)&sun, sizeof(sun)));
	close(fd);
	KTAP_EXPECT_INT(sluice_faca_sport(sock, lb, 0, &sport, err,
					  sizeof(err)), -ECONNREFUSED);
	/* connect() falls back to the kernel's port, or says why not */
	lfd = listener(&to);
	KTAP_EXPECT(lfd >= 0);
	KTAP_EXPECT_INT(sluice_faca_connect(sock, &to, 0, 0, &sport, err,
					    sizeof(err)), -ECONNREFUSED);
	fd = sluice_faca_connect(sock, &to, 0, SLUICE_FACA_FALLBACK, &sport,
				 err, sizeof(err));
	KTAP_EXPECT(fd >= 0 && sport == 0 && strstr(err, "no FaCa agent"));
	KTAP_EXPECT(fd >= 0 && !getsockname(fd, (struct sockaddr *)&me, &len) &&
		    me.sin_port != 0);
	if (fd >= 0)
		close(fd);
	close(lfd);
	RUN(&r, "faca", "sport", "10.0.1.1", "--socket", sock);
	KTAP_EXPECT_INT(r.status, 1);
	KTAP_EXPECT(strstr(r.err, "no FaCa agent at "));
	RUN(&r, "faca", "show", "--socket", sock);
	KTAP_EXPECT_INT(r.status, 1);
	cli_rmdir();
	ktap_result("no_agent");
}

static void test_cli_errors(void)
{
	static const struct {
		const char *args[10];
		const char *msg;
	} cases[] = {
		{ { "agent", "--sports", "5-3" }, "--sports: \"5-3\" is not ranges of ports" },
		{ { "agent", "--sports", "9-10,10-12" }, "\"9-10,10-12\" is not ranges of ports" },
		{ { "agent", "--sports", "9-10," }, "\"9-10,\" is not ranges of ports" },
		{ { "agent", "--sports", "0-10" }, "\"0-10\" is not ranges of ports" },
		{ { "agent", "--sports", "1-5000" }, "5000 source ports: at most 4096" },
		{ { "agent", "--sports", "7000-7999", "--port", "7771" },
		  "the probe port 7771 is among the source ports 7000-7999" },
		{ { "agent", "--k", "0" }, "--k: \"0\" is not a number above 0" },
		{ { "agent", "--load", "bdq" }, "--load: \"bdq\" is not time or bdp" },
		{ { "agent", "--interval", "0" },
		  "sluicectl faca agent: --interval: \"0\" is not a time from 1ns to 3600s (a bare number is microseconds)\n" },
		{ { "agent", "--demand", "0" },
		  "sluicectl faca agent: --demand: \"0\" is not bytes from 1 to 4294967295, or with a unit as 64k\n" },
		{ { "agent", "--records", "0" }, "--records: \"0\" is not a number from 1 to 32" },
		{ { "agent", "--port", "20001" },
		  "the probe port 20001 is among the source ports 20000-20063" },
		{ { "agent", "10.0.0" }, "\"10.0.0\" is not an IPv4 address" },
		{ { "agent", "224.0.0.1" }, "224.0.0.1: not a unicast address" },
		{ { "agent", "-j" }, "unknown option \"-j\"" },
		{ { "sport" }, "DST: the destination's IPv4 address" },
		{ { "sport", "10.0.0.1", "--lease", "0" }, "--lease: \"0\" is not a time" },
		{ { "show", "10.0.0.1" }, "unexpected argument \"10.0.0.1\"" },
		{ { "agent", "--fabric", "f" }, "--fabric NAME and --routes FILE go together" },
		{ { "agent", "--routes", "r" }, "--fabric NAME and --routes FILE go together" },
		{ { "agent", "--per-path", "3" }, "--per-path goes with --fabric NAME, without --sports" },
		{ { "agent", "--fabric", "f", "--routes", "r", "--sports", "1-2", "--per-path", "3" },
		  "--per-path goes with --fabric NAME, without --sports" },
		{ { "agent", "--udp" }, "--dst, --queue and --udp go with --hook" },
		{ { "agent", "--dst", "10.0.0.0/8" }, "--dst, --queue and --udp go with --hook" },
		{ { "agent", "--hook", "--queue", "65536" },
		  "sluicectl faca agent: --queue: \"65536\" is not a number from 0 to 65535\n" },
		{ { "agent", "--hook", "--dst", "10.0.0.1/24" },
		  "--dst: \"10.0.0.1/24\" is not an IPv4 prefix" },
	};
	struct run r;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(cases); k++)
		cli_expect_usage("faca", cases[k].args, cases[k].msg);
	RUN(&r, "faca", "agent", "--help");
	KTAP_EXPECT_INT(r.status, 0);
	KTAP_EXPECT(strstr(r.out, "--load { time | bdp }"));
	ktap_result("cli_errors");
}

int main(void)
{
	cli_init();
	ktap_plan(14);
	test_paths();
	test_pool();
	test_exact_pool();
	test_paths_brute();
	test_estimates();
	test_ewma();
	test_place();
	test_place_flow();
	test_place_flow_brute();
	test_delay();
	test_miss();
	test_agent();
	test_no_agent();
	test_cli_errors();
	return ktap_exit();
}
