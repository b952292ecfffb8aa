// SPDX-License-Identifier: GPL-2.0
/*
 * gsoprobe: send N INT probes (uapi: "In-band telemetry") of R records to
 * ADDR:PORT in one send, as one GSO super-packet (UDP_SEGMENT, each
 * segment a probe), which the stack and veth carry whole to the qdisc.
 *
 *   gsoprobe ADDR PORT N R
 *
 * Exit 1 on a failure, 2 for bad usage.
 */
#include <arpa/inet.h>
#include <linux/types.h>
#include <linux/udp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/sluice.h>

#ifndef SOL_UDP
#define SOL_UDP		17
#endif
#ifndef UDP_SEGMENT
#define UDP_SEGMENT	103
#endif

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	static unsigned char buf[60000];
	struct sluice_int_hdr h;
	int fd, gso, n, r, k;
	size_t size;

	if (argc != 5 || inet_pton(AF_INET, argv[1], &to.sin_addr) != 1) {
		fputs("usage: gsoprobe ADDR PORT N R\n", stderr);
		return 2;
	}
	to.sin_port = htons(atoi(argv[2]));
	n = atoi(argv[3]);
	r = atoi(argv[4]);
	size = sizeof(h) + r * sizeof(struct sluice_int_rec);
	if (n < 2 || r < 1 || r > SLUICE_INT_MAX_RECS || n * size > sizeof(buf)) {
		fputs("gsoprobe: N from 2, R 1..32, N probes within 60000 bytes\n",
		      stderr);
		return 2;
	}
	memset(buf, 0, sizeof(buf));
	for (k = 0; k < n; k++) {
		memset(&h, 0, sizeof(h));
		h.magic = htonl(SLUICE_INT_MAGIC);
		h.version = SLUICE_INT_VERSION;
		h.nrec = r;
		h.prio = SLUICE_INT_PRIO_OWN;
		h.seq = htonl(k + 1);
		memcpy(buf + k * size, &h, sizeof(h));
	}
	gso = size;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || setsockopt(fd, SOL_UDP, UDP_SEGMENT, &gso, sizeof(gso)) ||
	    sendto(fd, buf, n * size, 0, (struct sockaddr *)&to, sizeof(to)) !=
	    (ssize_t)(n * size)) {
		perror("gsoprobe");
		return 1;
	}
	return 0;
}
