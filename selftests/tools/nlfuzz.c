// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz: send random generic netlink requests to the "sluice" family and
 * count what comes back, so a selftest can check that no request, however
 * malformed, upsets the kernel (dmesg stays clean).
 *
 *   nlfuzz [-n COUNT] [-s|--seed SEED] [-t MS] [-v]
 *
 *   -n COUNT   requests to send (default 100000)
 *   -s SEED    the generator's seed (default: from the clock; the summary
 *              prints it, and the same seed sends the same requests)
 *   -t MS      how long to wait for the end of a dump (default 2000)
 *   -v         one line per request
 *
 * Each request has a random command (unknown ones included), random flags
 * (NLM_F_DUMP and NLM_F_ACK among them), a random genetlink header now and
 * then, and either a random attribute tree (types 0..SLUICE_A_MAX + 3, any
 * length including 0 and odd ones, nests with and without NLA_F_NESTED)
 * or attributes of the command's own types, mostly well formed, so valid
 * requests get through too (map entries with random fields, tag sources
 * in and out of range, the namespace's real ifindexes).  Every reply is
 * read before the next request: a do's replies are queued when sendmsg
 * returns; a dump is read to its NLMSG_DONE.
 *
 * Prints one summary line:
 *   sent=N ok=A errors=B noreply=C replies=R intr=I timeouts=T stray=S
 *   truncated=U seed=SEED time=SECONDS EINVAL=count ...
 * (ok: acked or answered without error; errors: by errno name after that;
 * noreply: nothing came back, as for a request without NLM_F_ACK that
 * succeeded without a reply or lacks NLM_F_REQUEST)
 * and exits 0, or 1 if the family does not exist or the socket fails.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <net/if.h>
#include <time.h>

#include <linux/sluice.h>

#include "nlraw.h"

#define MAX_ERRNO	4096
#define MAX_IFINDEXES	64

static uint64_t rng_state;

/* splitmix64: small, fast, and the same sequence everywhere. */
static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* 0..n-1 */
static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)(rnd64() % n) : 0;
}

/* true with probability pct percent */
static bool chance(unsigned int pct)
{
	return rnd(100) < pct;
}

static uint32_t ifindexes[MAX_IFINDEXES];
static unsigned int nifindexes;

static void load_ifindexes(void)
{
	struct if_nameindex *ifs = if_nameindex(), *i;

	if (!ifs)
		return;
	for (i = ifs; i->if_index && nifindexes < MAX_IFINDEXES; i++)
		ifindexes[nifindexes++] = i->if_index;
	if_freenameindex(ifs);
}

/* An ifindex: mostly a real one or 0, sometimes anything. */
static uint32_t rnd_ifindex(void)
{
	uint32_t r = rnd(100);

	if (r < 60 && nifindexes)
		return ifindexes[rnd(nifindexes)];
	if (r < 80)
		return 0;
	if (r < 90)
		return rnd(100);
	return (uint32_t)rnd64();
}

static void rnd_bytes(unsigned char *p, size_t n)
{
	while (n--)
		*p++ = rnd64();
}

/* A map entry, valid with fair odds under a DSCP or TTL source. */
static void rnd_entry(struct sluice_map_entry *e)
{
	e->ifindex = rnd_ifindex();
	e->map = chance(90) ? rnd(SLUICE_MAP_MAX + 1) : rnd(256);
	e->tag = chance(80) ? rnd(64) : rnd(256);
	switch (e->map) {
	case SLUICE_MAP_IN:
		e->value = chance(85) ? rnd(8) : rnd(256);
		break;
	case SLUICE_MAP_EG:
		e->value = chance(85) ? rnd(16) : rnd(256);
		break;
	default:
		e->value = chance(85) ? rnd(64) : rnd(256);
	}
	if (chance(80))
		e->flags = e->map == SLUICE_MAP_EG && chance(50) ?
			   SLUICE_MAP_F_OUT_PORT : 0;
	else
		e->flags = rnd(256);
}

/* The attribute's own length, as the family's policies want it. */
static size_t right_len(unsigned int type)
{
	switch (type) {
	case SLUICE_A_TAG_SOURCE:
	case SLUICE_A_EVENT:
		return 1;
	case SLUICE_A_GENERATION:
	case SLUICE_A_PORTS:
	case SLUICE_A_IFINDEX:
		return 4;
	case SLUICE_A_MAP_ENTRY:
		return sizeof(struct sluice_map_entry);
	case SLUICE_A_MAP_ENTRIES:
		return sizeof(struct sluice_map_counts);
	case SLUICE_A_SWITCH_STATS:
		return sizeof(struct sluice_switch_stats);
	case SLUICE_A_IFNAME:
		return 1 + rnd(IFNAMSIZ);
	case SLUICE_A_PORT_STATS:
		return sizeof(struct sluice_port_stats);
	case SLUICE_A_PRIO_STATS:
		return sizeof(struct sluice_prio_stats);
	}
	return 0;
}

/* One attribute of the given type with a mostly plausible payload. */
static void put_typed(struct nlraw_msg *m, unsigned int type, uint16_t flags)
{
	unsigned char buf[256];
	size_t n = chance(60) ? right_len(type) : rnd(24);

	rnd_bytes(buf, n);
	if (type == SLUICE_A_TAG_SOURCE && n == 1 && chance(70))
		buf[0] = rnd(SLUICE_TAG_SOURCE_MAX + 3);
	else if (type == SLUICE_A_MAP_ENTRY && n == sizeof(struct sluice_map_entry))
		rnd_entry((struct sluice_map_entry *)buf);
	else if (type == SLUICE_A_IFINDEX && n == 4 && chance(70)) {
		uint32_t v = rnd_ifindex();

		memcpy(buf, &v, 4);
	} else if (type == SLUICE_A_GENERATION && n == 4 && chance(50)) {
		uint32_t v = rnd(8);

		memcpy(buf, &v, 4);
	} else if (type == SLUICE_A_IFNAME && n && chance(80)) {
		buf[n - 1] = 0;
	}
	nlraw_put(m, type | flags, buf, n);
}

/* A random tree: any types, any lengths, nests of nests. */
static void put_tree(struct nlraw_msg *m, unsigned int depth)
{
	unsigned int i, count = rnd(7);

	for (i = 0; i < count && m->len < 3000; i++) {
		unsigned int type = rnd(SLUICE_A_MAX + 4);
		uint16_t flags = 0;

		if (chance(3))
			flags |= NLA_F_NET_BYTEORDER;
		if (depth < 3 && chance(15)) {
			if (chance(85))
				flags |= NLA_F_NESTED;
			if (!nlraw_nest_start(m, type | flags))
				return;
			put_tree(m, depth + 1);
			nlraw_nest_end(m);
			continue;
		}
		if (chance(3))
			flags |= NLA_F_NESTED;
		put_typed(m, type, flags);
	}
}

/* The attributes the command takes, mostly well formed. */
static void put_for_cmd(struct nlraw_msg *m, uint8_t cmd)
{
	unsigned int i, n;

	switch (cmd) {
	case SLUICE_CMD_SWITCH_SET:
		if (chance(90))
			put_typed(m, SLUICE_A_TAG_SOURCE, 0);
		break;
	case SLUICE_CMD_MAP_LOAD:
		if (chance(30))
			put_typed(m, SLUICE_A_GENERATION, 0);
		n = chance(10) ? rnd(200) : rnd(8);
		for (i = 0; i < n; i++) {
			struct sluice_map_entry e;

			rnd_entry(&e);
			if (chance(97))
				nlraw_put(m, SLUICE_A_MAP_ENTRY, &e, sizeof(e));
			else
				put_typed(m, SLUICE_A_MAP_ENTRY, 0);
		}
		break;
	case SLUICE_CMD_STATS_GET:
		if (chance(50))
			put_typed(m, SLUICE_A_IFINDEX, 0);
		break;
	}
	if (chance(5))
		put_tree(m, 1);
}

/* Flags: mostly a do or a dump as the command wants, then anything. */
static uint16_t rnd_flags(uint8_t cmd)
{
	bool dumps = cmd == SLUICE_CMD_MAP_GET || cmd == SLUICE_CMD_STATS_GET;
	uint16_t flags = chance(97) ? NLM_F_REQUEST : 0;

	if (chance(50))
		flags |= NLM_F_ACK;
	if (chance(80) ? dumps : chance(50))
		flags |= NLM_F_DUMP;
	else if (chance(3))
		flags |= chance(50) ? NLM_F_ROOT : NLM_F_MATCH;
	if (chance(5))
		flags |= NLM_F_ECHO;
	if (chance(3))
		flags |= 1 << (4 + rnd(12));
	return flags;
}

static uint8_t rnd_cmd(void)
{
	uint32_t r = rnd(100);

	if (r < 85)
		return 1 + rnd(SLUICE_CMD_MAX);
	if (r < 95)
		return chance(30) ? 0 : SLUICE_CMD_MAX + 1 + rnd(3);
	return rnd(256);
}

struct stats {
	unsigned long sent, ok, errors, noreply, replies, intr, timeouts;
	unsigned long stray, truncated;
	unsigned long by_errno[MAX_ERRNO];
};

static struct stats st;
static unsigned char rbuf[NLRAW_RCVBUF];

/*
 * Reads the replies of request seq: what is queued, and for a dump up
 * to its end.  Returns the request's errno (0: ok, -1: no reply).
 */
static int read_replies(int fd, uint16_t family, uint32_t seq, bool dump)
{
	bool finished = false, replied = false;
	int result = -1;

	while (!finished) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)rbuf;
		ssize_t n;
		int left;

		n = recv(fd, rbuf, sizeof(rbuf), MSG_TRUNC |
			 (dump ? 0 : MSG_DONTWAIT));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (dump && (errno == EAGAIN || errno == EWOULDBLOCK))
				st.timeouts++;
			else if (errno != EAGAIN && errno != EWOULDBLOCK)
				st.by_errno[errno < MAX_ERRNO ? errno : 0]++;
			break;
		}
		if ((size_t)n > sizeof(rbuf)) {
			st.truncated++;
			n = sizeof(rbuf);
		}
		for (left = (int)n; NLMSG_OK(nlh, left);
		     nlh = NLMSG_NEXT(nlh, left)) {
			const char *msg;
			int err;

			if (nlh->nlmsg_seq != seq) {
				st.stray++;
				continue;
			}
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				st.intr++;
			if (nlh->nlmsg_type == NLMSG_ERROR ||
			    nlh->nlmsg_type == NLMSG_DONE) {
				if (!nlraw_status(nlh, &err, &msg))
					err = -EPROTO;
				result = -err;
				finished = true;
			} else if (nlh->nlmsg_type == family) {
				st.replies++;
				replied = true;
			}
		}
	}
	if (result < 0 && replied)
		result = 0;
	return result;
}

static void usage(void)
{
	fprintf(stderr, "usage: nlfuzz [-n COUNT] [-s|--seed SEED] [-t MS] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long count = 100000, i, timeout_ms = 2000;
	struct timespec t0, t1;
	struct nlraw_msg m = { 0 };
	int opt, fd, id, verbose = 0;
	uint64_t seed;
	char *end;

	clock_gettime(CLOCK_REALTIME, &t0);
	seed = (uint64_t)t0.tv_sec * 1000000007ULL + t0.tv_nsec;
	while ((opt = getopt_long(argc, argv, "n:s:t:v", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			count = strtoul(optarg, &end, 0);
			if (*end || !*optarg)
				usage();
			break;
		case 's':
			seed = strtoull(optarg, &end, 0);
			if (*end || !*optarg)
				usage();
			break;
		case 't':
			timeout_ms = strtoul(optarg, &end, 0);
			if (*end || !*optarg || !timeout_ms)
				usage();
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	fd = nlraw_open();
	if (fd < 0) {
		perror("nlfuzz: netlink socket");
		return 1;
	}
	id = nlraw_family(fd, SLUICE_GENL_NAME, NULL, NULL);
	if (id <= 0) {
		if (id == 0)
			fprintf(stderr, "nlfuzz: no generic netlink family \"%s\": is sch_sluice loaded?\n",
				SLUICE_GENL_NAME);
		else
			perror("nlfuzz: resolving the family");
		close(fd);
		return 1;
	}
	nlraw_timeout(fd, timeout_ms);
	load_ifindexes();
	rng_state = seed;
	clock_gettime(CLOCK_MONOTONIC, &t0);

	for (i = 0; i < count; i++) {
		uint32_t seq = 100 + i;
		uint8_t cmd = rnd_cmd();
		uint16_t flags = rnd_flags(cmd);
		bool dump;
		size_t len;
		int res;

		nlraw_start(&m, id, flags, seq, cmd,
			    chance(90) ? SLUICE_GENL_VERSION : rnd(256));
		if (chance(3))
			((struct genlmsghdr *)NLMSG_DATA(nlraw_hdr(&m)))->reserved = rnd(65536);
		if (chance(50))
			put_for_cmd(&m, cmd);
		else
			put_tree(&m, 0);
		len = nlraw_end(&m);
		if (chance(2)) {
			/* A short genetlink header: nlmsg_len says less. */
			len = NLMSG_HDRLEN + rnd(GENL_HDRLEN);
			nlraw_hdr(&m)->nlmsg_len = len;
		} else if (chance(2)) {
			/* Bytes that are not a whole attribute. */
			nlraw_append(&m, NULL, 4);
			len += 1 + rnd(3);
			nlraw_hdr(&m)->nlmsg_len = len;
		}
		if (nlraw_send(fd, m.buf, len) < 0) {
			st.by_errno[errno < MAX_ERRNO ? errno : 0]++;
			st.errors++;
			continue;
		}
		st.sent++;
		dump = (flags & NLM_F_REQUEST) &&
		       (flags & NLM_F_DUMP) == NLM_F_DUMP;
		res = read_replies(fd, id, seq, dump);
		if (res < 0) {
			st.noreply++;
		} else if (res == 0) {
			st.ok++;
		} else {
			st.errors++;
			st.by_errno[res < MAX_ERRNO ? res : 0]++;
		}
		if (verbose)
			printf("%lu cmd=%u flags=0x%x len=%zu -> %d\n", i, cmd,
			       flags, len, res);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	free(m.buf);
	close(fd);

	printf("sent=%lu ok=%lu errors=%lu noreply=%lu replies=%lu intr=%lu timeouts=%lu stray=%lu truncated=%lu seed=%llu time=%.1f",
	       st.sent, st.ok, st.errors, st.noreply, st.replies, st.intr,
	       st.timeouts, st.stray, st.truncated, (unsigned long long)seed,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (i = 0; i < MAX_ERRNO; i++) {
		const char *name = strerrorname_np(i);

		if (!st.by_errno[i])
			continue;
		if (name)
			printf(" %s=%lu", name, st.by_errno[i]);
		else
			printf(" E%lu=%lu", i, st.by_errno[i]);
	}
	printf("\n");
	return 0;
}
