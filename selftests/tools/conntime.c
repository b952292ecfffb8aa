// SPDX-License-Identifier: GPL-2.0
/*
 * conntime: TCP connections timed from one process, where a shell loop
 * would time its own process starts (a tenth of a second each under TCG).
 *
 *   conntime -l PORT
 *	serve: accept connections one after another, echo each one's bytes
 *	back until its end, print "peer PORT" for each (line-buffered)
 *   conntime [-n N] [-b BYTES] [-w FILE] [-t SECONDS] ADDR PORT
 *	N connections one after another (default 1); each connect() is
 *	timed and, with -b, BYTES are sent and their echo read back and
 *	compared; a line per connection "port LOCAL connect_us US" (with
 *	-b also "bytes B transfer_us US"), then "median_connect_us US".
 *	-w holds each connection, once connected and its line begun, until
 *	FILE exists (a test changes the network meanwhile).  -t bounds each
 *	connect and transfer, and the wait (default 10 s).  Exits 1 if a
 *	connection fails or its echo differs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

static void die(const char *what)
{
	fprintf(stderr, "conntime: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ull + ts.tv_nsec / 1000;
}

static void serve(uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	socklen_t alen = sizeof(a);
	int s, c, one = 1;
	char buf[65536];
	ssize_t n;

	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 64))
		die("listen");
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (;;) {
		alen = sizeof(a);
		c = accept(s, (struct sockaddr *)&a, &alen);
		if (c < 0)
			die("accept");
		printf("peer %u\n", ntohs(a.sin_port));
		while ((n = read(c, buf, sizeof(buf))) > 0)
			if (write(c, buf, n) != n)
				break;
		close(c);
	}
}

/* The byte at @i of what a client sends: no period a buffer could hide. */
static uint8_t pattern(uint64_t i)
{
	return (i * 2654435761u) >> 13;
}

/* Sends @bytes and reads their echo at once (the echo may fill buffers). */
static int transfer(int s, uint64_t bytes, int timeout_ms)
{
	uint64_t sent = 0, got = 0, i;
	uint8_t out[16384], in[16384];
	struct pollfd p = { .fd = s };
	ssize_t n;

	while (got < bytes) {
		p.events = POLLIN | (sent < bytes ? POLLOUT : 0);
		if (poll(&p, 1, timeout_ms) <= 0)
			return -ETIMEDOUT;
		if ((p.revents & POLLOUT) && sent < bytes) {
			n = bytes - sent < sizeof(out) ? bytes - sent : sizeof(out);
			for (i = 0; i < (uint64_t)n; i++)
				out[i] = pattern(sent + i);
			n = write(s, out, n);
			if (n < 0)
				return -errno;
			sent += n;
			if (sent == bytes)
				shutdown(s, SHUT_WR);
		}
		if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
			n = read(s, in, sizeof(in));
			if (n <= 0)
				return n ? -errno : -EPIPE;
			for (i = 0; i < (uint64_t)n; i++)
				if (in[i] != pattern(got + i))
					return -EBADMSG;
			got += n;
		}
	}
	return 0;
}

/* Polls for @path every 10 ms, at most @timeout_s seconds. */
static void wait_for(const char *path, int timeout_s)
{
	struct timespec tick = { .tv_nsec = 10000000 };
	uint64_t end = now_us() + timeout_s * 1000000ull;

	while (access(path, F_OK)) {
		if (now_us() > end) {
			errno = ETIMEDOUT;
			die(path);
		}
		nanosleep(&tick, NULL);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int client(const char *addr, uint16_t port, unsigned int n,
		  uint64_t bytes, const char *hold, int timeout_s)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct timeval tv = { .tv_sec = timeout_s };
	socklen_t alen;
	uint64_t *us, t0, t1;
	unsigned int k;
	int s, ret;

	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
		fprintf(stderr, "conntime: %s is not an IPv4 address\n", addr);
		return 2;
	}
	us = calloc(n, sizeof(*us));
	if (!us)
		die("calloc");
	for (k = 0; k < n; k++) {
		s = socket(AF_INET, SOCK_STREAM, 0);
		if (s < 0 || setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
			die("socket");
		t0 = now_us();
		if (connect(s, (struct sockaddr *)&a, sizeof(a)))
			die("connect");
		t1 = now_us();
		us[k] = t1 - t0;
		alen = sizeof(a);
		if (getsockname(s, (struct sockaddr *)&a, &alen))
			die("getsockname");
		printf("port %u connect_us %llu", ntohs(a.sin_port),
		       (unsigned long long)us[k]);
		inet_pton(AF_INET, addr, &a.sin_addr);
		a.sin_port = htons(port);
		if (hold) {
			fflush(stdout);
			wait_for(hold, timeout_s);
			t1 = now_us();
		}
		if (bytes) {
			ret = transfer(s, bytes, timeout_s * 1000);
			if (ret) {
				errno = -ret;
				die("transfer");
			}
			printf(" bytes %llu transfer_us %llu",
			       (unsigned long long)bytes,
			       (unsigned long long)(now_us() - t1));
		}
		putchar('\n');
		close(s);
	}
	qsort(us, n, sizeof(*us), cmp_u64);
	printf("median_connect_us %llu\n", (unsigned long long)us[n / 2]);
	free(us);
	return 0;
}

static void usage(void)
{
	fputs("usage: conntime -l PORT\n"
	      "       conntime [-n N] [-b BYTES] [-w FILE] [-t SECONDS] ADDR PORT\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long long bytes = 0;
	const char *hold = NULL;
	int opt, timeout_s = 10;
	unsigned int n = 1;
	long listen_port = -1;

	while ((opt = getopt(argc, argv, "l:n:b:w:t:")) != -1) {
		switch (opt) {
		case 'l':
			listen_port = strtol(optarg, NULL, 10);
			break;
		case 'n':
			n = strtoul(optarg, NULL, 10);
			break;
		case 'b':
			bytes = strtoull(optarg, NULL, 10);
			break;
		case 'w':
			hold = optarg;
			break;
		case 't':
			timeout_s = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (listen_port > 0 && listen_port < 65536 && optind == argc)
		serve(listen_port);
	if (listen_port != -1 || optind + 2 != argc || !n || timeout_s <= 0)
		usage();
	return client(argv[optind], strtoul(argv[optind + 1], NULL, 10), n,
		      bytes, hold, timeout_s);
}
