// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The source port of a traffic engine's flow (struct sluice_sport_opts):
 * the kernel's, a seeded random one, or the FaCa agent's.  The agent's
 * socket is its namespace's own, found while the engine's thread is in
 * the flow's source namespace, and remembered by host, so that a lease is
 * given back from whatever namespace the thread is in when the flow
 * closes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sluice/faca.h>
#include <sluice/rng.h>

#include "graph/internal.h"
#include "fabric/internal.h"

int sluice_i_sport_check(const struct sluice_sport_opts *o, char *err,
			 size_t errlen)
{
	if ((o->range.min || o->range.max) &&
	    (!o->range.min || o->range.max < o->range.min))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "source ports %u-%u: not a range from 1 up",
				     o->range.min, o->range.max);
	if (o->faca && o->range.min)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "source ports from the FaCa agent or at random, not both");
	return 0;
}

int sluice_i_sports_init(struct sluice_i_sports *s,
			 const struct sluice_sport_opts *o, uint32_t n_hosts)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->n_hosts = n_hosts;
	if (!o->faca)
		return 0;
	s->sock = sluice_i_calloc(n_hosts ? n_hosts : 1, sizeof(*s->sock));
	return s->sock ? 0 : -ENOMEM;
}

void sluice_i_sports_free(struct sluice_i_sports *s)
{
	free(s->sock);
	s->sock = NULL;
}

/* Flow @q's random port: the same for a seed whatever order flows start. */
static uint16_t random_port(const struct sluice_sport_opts *o, uint32_t q)
{
	struct sluice_rng r;

	sluice_rng_seed(&r, o->seed * 0x9e3779b97f4a7c15ull + q);
	return o->range.min + sluice_rng_below(&r, (uint64_t)o->range.max -
					       o->range.min + 1);
}

/* The agent of host @src asked for a port to @dst; 0 if it cannot give. */
static uint16_t agent_port(struct sluice_i_sports *s, uint32_t src,
			   uint32_t dst)
{
	char *sock = s->sock[src];
	uint16_t port;
	int ret;

	if (!sock[0]) {
		if (s->o->faca_socket)
			snprintf(sock, sizeof(s->sock[0]), "%s",
				 s->o->faca_socket);
		else if (sluice_faca_socket_path(sock, sizeof(s->sock[0]),
						 NULL, 0))
			return 0;
	}
	ret = sluice_faca_sport(sock, htonl(dst), 0, &port, NULL, 0);
	/*
	 * An agent slowed past the call's bound (a loaded machine, a VM
	 * under emulation) gets a second chance before the kernel's port.
	 */
	if (ret == -ETIMEDOUT)
		ret = sluice_faca_sport(sock, htonl(dst), 0, &port, NULL, 0);
	if (ret) {
		s->why = -ret;
		s->fallbacks++;
		return 0;
	}
	s->faca++;
	return port;
}

static int bind_port(int fd, uint16_t port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
	};
	int one = 1;

	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)))
		return -errno;
	return 0;
}

int sluice_i_sport_bind(struct sluice_i_sports *s, uint32_t src, uint32_t q,
			uint32_t dst, int fd)
{
	uint16_t port;
	int ret;

	s->why = 0;
	if (s->o->faca && src < s->n_hosts) {
		port = agent_port(s, src, dst);
		if (!port)
			return 0;
		ret = bind_port(fd, port);
		if (!ret)
			return port;
		/* taken after all: the kernel's, as without an agent */
		s->why = -ret;
		sluice_i_sport_release(s, src, dst, port);
		s->faca--;
		s->fallbacks++;
		return 0;
	}
	if (!s->o->range.min)
		return 0;
	ret = bind_port(fd, random_port(s->o, q));
	return ret ? ret : 0;
}

uint16_t sluice_i_local_port(int fd)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);

	if (getsockname(fd, (struct sockaddr *)&a, &len) ||
	    a.sin_family != AF_INET)
		return 0;
	return ntohs(a.sin_port);
}

void sluice_i_sport_release(struct sluice_i_sports *s, uint32_t src,
			    uint32_t dst, uint16_t port)
{
	if (port && s->sock && src < s->n_hosts && s->sock[src][0])
		sluice_faca_release_port(s->sock[src], htonl(dst), port,
					 NULL, 0);
}
