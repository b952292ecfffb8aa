/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * All-pairs connectivity of a fabric's hosts from one process
 * (lib/fabric/ping.c; "sluicectl fabric ping"): a raw ICMP socket opened
 * inside every host's namespace (a socket stays in the namespace it was
 * made in), echo requests from every host to every other, at most 64
 * unanswered at a time so that no queue overflows, and each reply matched
 * to its request by a tag in the payload.  Under emulation a process
 * costs more than a hundred pings, so this is what makes checking
 * thousands of pairs practical.
 */
#ifndef _SLUICE_FABRIC_PING_H
#define _SLUICE_FABRIC_PING_H

#include <stddef.h>
#include <stdint.h>
#include <sluice/fabric.h>

struct sluice_ping_opts {
	uint32_t	count;		/* requests per pair; 0: 1 */
	double		timeout;	/* seconds a reply may take; 0: 2 */
	uint16_t	id;		/* the ICMP id; 0: the process's */
};

struct sluice_ping_host {
	char		name[SLUICE_NETNS_NAME_MAX];
	char		ns[SLUICE_NETNS_NAME_MAX];
	uint32_t	addr;		/* IPv4, host order */
};

/* A request without a reply: from host @src to host @dst (indexes). */
struct sluice_ping_lost {
	uint32_t	src, dst;
};

struct sluice_ping_result {
	uint32_t		n_hosts;
	struct sluice_ping_host	*hosts;		/* by the fabric's order */
	uint64_t		pairs;		/* ordered pairs of hosts */
	uint64_t		sent, received;
	/* seconds, over the replies (0 without any) */
	double			rtt_min, rtt_avg, rtt_max;
	uint64_t		n_lost;
	struct sluice_ping_lost	*lost;		/* in the order sent */
};

/*
 * sluice_fabric_ping() - ping every host of a fabric from every other
 * @f:		the fabric, planned and up
 * @o:		how many rounds and how long to wait; NULL: the defaults
 * @res:	what was sent, received and lost;
 *		sluice_ping_result_free() it, also after a failure
 * @err:	the reason on failure
 * @errlen:	room in @err
 *
 * Round by round, every ordered pair of hosts once a round.  A lost
 * request is no failure: see @res->lost.  Must run as root (the hosts'
 * namespaces, raw sockets); leaves the caller in its namespace.
 *
 * Time: O(hosts^2 x count) requests, each waited on at most @o->timeout.
 *
 * Return: 0, or a negative errno: -EINVAL for a fabric of fewer than two
 * hosts, -ENOENT for a missing namespace, -ENOMEM, or what a socket,
 * setns() or sendto() failed with.
 */
int sluice_fabric_ping(const struct sluice_fabric *f,
		       const struct sluice_ping_opts *o,
		       struct sluice_ping_result *res, char *err,
		       size_t errlen);

/* Frees what a ping's result holds.  Time: O(1). */
void sluice_ping_result_free(struct sluice_ping_result *res);

#endif /* _SLUICE_FABRIC_PING_H */
