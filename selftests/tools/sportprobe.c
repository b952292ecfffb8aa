// SPDX-License-Identifier: GPL-2.0
/*
 * sportprobe: send from chosen source ports and count, on devices of other
 * network namespaces, where each port's frames went: which path a fabric
 * gives a source port, measured in one process (under the selftests'
 * emulated CPU a process start costs about 0.1 s).
 *
 *   sportprobe -d ADDR [-p DPORT] [-t | -u] [-c COUNT] -w NS/DEV[,NS/DEV...]
 *              SPORT...
 *
 * For each SPORT in turn (a port may repeat): COUNT probes from it to ADDR
 * port DPORT (default 5001), then a wait until the watched devices'
 * transmitted packets together rose by COUNT (2 s at most), and a line
 * "SPORT D1 D2 ..." with each device's rise.
 *
 *   -u  (the default) a UDP datagram each, from one unconnected socket
 *       bound to SPORT: no socket hash rides with it;
 *   -t  a TCP connection attempt each, from a new socket bound to SPORT
 *       (SO_REUSEADDR): the SYN carries the socket's own random hash, as
 *       any TCP connection's frames do.  Aim at a port nothing listens on:
 *       the peer's RST ends the attempt, so each sends one frame, and
 *       SO_LINGER 0 leaves no TIME_WAIT behind.
 *
 * The devices are read in their namespaces (/run/netns/NS, as ip-netns
 * names them): /proc/self/net/dev shows the namespace of the reading
 * thread, which enters each in turn with setns().  Exit 1 on a failure, 2
 * for bad usage.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_WATCH	16

struct watch {
	char			dev[32];
	int			fd;		/* its namespace */
	unsigned long long	base;
};

static struct watch w[MAX_WATCH];
static int n_watch, self_fd;

static void die(const char *what)
{
	fprintf(stderr, "sportprobe: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: sportprobe -d ADDR [-p DPORT] [-t | -u] [-c COUNT] -w NS/DEV[,NS/DEV...] SPORT...\n");
	exit(2);
}

/* The tx_packets of @dev in this thread's namespace, from /proc/self/net/dev. */
static unsigned long long tx_packets(const char *dev)
{
	unsigned long long v[16];
	char line[512], name[64];
	FILE *f = fopen("/proc/self/net/dev", "r");

	if (!f)
		die("/proc/self/net/dev");
	while (fgets(line, sizeof(line), f)) {
		/* "  dev: rx bytes packets errs drop fifo frame compressed
		 * multicast, tx bytes packets ..."
		 */
		if (sscanf(line, " %63[^:]: %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
			   name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7], &v[8], &v[9]) == 11 && !strcmp(name, dev)) {
			fclose(f);
			return v[9];
		}
	}
	fclose(f);
	fprintf(stderr, "sportprobe: no device %s\n", dev);
	exit(1);
}

static unsigned long long read_watch(const struct watch *x)
{
	unsigned long long v;

	if (setns(x->fd, CLONE_NEWNET))
		die("setns");
	v = tx_packets(x->dev);
	if (setns(self_fd, CLONE_NEWNET))
		die("setns back");
	return v;
}

static void add_watches(char *list)
{
	char *item, *save, *slash, path[256];

	for (item = strtok_r(list, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		slash = strchr(item, '/');
		if (!slash || n_watch == MAX_WATCH)
			usage();
		*slash = '\0';
		snprintf(path, sizeof(path), "/run/netns/%s", item);
		w[n_watch].fd = open(path, O_RDONLY | O_CLOEXEC);
		if (w[n_watch].fd < 0)
			die(path);
		snprintf(w[n_watch].dev, sizeof(w[n_watch].dev), "%s",
			 slash + 1);
		n_watch++;
	}
}

static int bound_socket(int type, int sport)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(sport),
	};
	int fd = socket(AF_INET, type, 0), one = 1;

	if (fd < 0)
		die("socket");
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
		die("SO_REUSEADDR");
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)))
		die("bind");
	return fd;
}

static void probe_udp(const struct sockaddr_in *dst, int sport, int count)
{
	int fd = bound_socket(SOCK_DGRAM, sport), i;
	char payload[64] = "sportprobe";

	for (i = 0; i < count; i++)
		if (sendto(fd, payload, sizeof(payload), 0,
			   (const struct sockaddr *)dst, sizeof(*dst)) < 0)
			die("sendto");
	close(fd);
}

static void probe_tcp(const struct sockaddr_in *dst, int sport, int count)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	struct timeval tv = { .tv_sec = 2 };
	int fd, i;

	for (i = 0; i < count; i++) {
		fd = bound_socket(SOCK_STREAM, sport);
		if (setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)) ||
		    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
			die("setsockopt");
		/* refused (the RST) is the expected end; a timeout too */
		if (!connect(fd, (const struct sockaddr *)dst, sizeof(*dst)))
			fprintf(stderr, "sportprobe: %d: connected: the frames counted are more than the SYN\n",
				sport);
		close(fd);
	}
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET, .sin_port = htons(5001) };
	unsigned long long d[MAX_WATCH], sum;
	int opt, count = 1, tcp = 0, i, k, sport;
	double t0;

	while ((opt = getopt(argc, argv, "d:p:tuc:w:")) != -1) {
		switch (opt) {
		case 'd':
			if (inet_pton(AF_INET, optarg, &dst.sin_addr) != 1)
				usage();
			break;
		case 'p':
			dst.sin_port = htons(atoi(optarg));
			break;
		case 't':
			tcp = 1;
			break;
		case 'u':
			tcp = 0;
			break;
		case 'c':
			count = atoi(optarg);
			break;
		case 'w':
			add_watches(optarg);
			break;
		default:
			usage();
		}
	}
	if (!dst.sin_addr.s_addr || !n_watch || optind == argc || count < 1)
		usage();
	self_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self_fd < 0)
		die("/proc/self/ns/net");
	for (i = optind; i < argc; i++) {
		sport = atoi(argv[i]);
		if (sport < 1 || sport > 65535)
			usage();
		for (k = 0; k < n_watch; k++)
			w[k].base = read_watch(&w[k]);
		if (tcp)
			probe_tcp(&dst, sport, count);
		else
			probe_udp(&dst, sport, count);
		t0 = now();
		do {
			for (sum = 0, k = 0; k < n_watch; k++) {
				d[k] = read_watch(&w[k]) - w[k].base;
				sum += d[k];
			}
		} while (sum < (unsigned long long)count && now() - t0 < 2 &&
			 !usleep(1000));
		printf("%d", sport);
		for (k = 0; k < n_watch; k++)
			printf(" %llu", d[k]);
		putchar('\n');
		fflush(stdout);
	}
	return 0;
}
