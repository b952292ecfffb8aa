/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by lib/fabric's netlink files (not installed).
 */
#ifndef _SLUICE_LIB_FABRIC_INTERNAL_H
#define _SLUICE_LIB_FABRIC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <netlink/msg.h>
#include <sluice/fabric_nl.h>
#include <sluice/tcpgen.h>

/* A request the kernel refused: its tag, errno and extended ack. */
struct sluice_i_nlerr {
	uint64_t	tag;
	int		error;		/* negative errno */
	char		extack[SLUICE_ERRLEN];
};

int sluice_i_rtnl_queue(struct sluice_rtnl *r, struct nl_msg *msg,
			uint64_t tag, char *err, size_t errlen);
int sluice_i_rtnl_wait(struct sluice_rtnl *r, char *err, size_t errlen);
uint32_t sluice_i_rtnl_sent(const struct sluice_rtnl *r);
uint64_t sluice_i_rtnl_n_errors(const struct sluice_rtnl *r);
const struct sluice_i_nlerr *sluice_i_rtnl_error(const struct sluice_rtnl *r,
						 uint64_t i);
void sluice_i_rtnl_clear_errors(struct sluice_rtnl *r);
struct nl_sock *sluice_i_rtnl_sock(struct sluice_rtnl *r);
int sluice_i_rtnl_links(struct sluice_rtnl *r, char *err, size_t errlen);
const char *sluice_i_rtnl_ifname(struct sluice_rtnl *r, int ifindex);

/* Big-endian 32-bit fields of the traffic engines' payload headers. */
static inline void sluice_i_put32(unsigned char *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
}

static inline uint32_t sluice_i_get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ntohl(v);
}

/*
 * Source ports of the traffic engines' flows (sport.c), as struct
 * sluice_sport_opts says: the agents' sockets by host, found in each
 * host's namespace the first time, and what the agents did.
 */
struct sluice_i_sports {
	const struct sluice_sport_opts	*o;
	char				(*sock)[108];	/* sun_path; "" */
	uint32_t			n_hosts;
	uint32_t			faca, fallbacks;
	/* why the last sluice_i_sport_bind() fell back: an errno, 0 */
	int				why;
};

/* -EINVAL with a message for options that do not hold, else 0. */
int sluice_i_sport_check(const struct sluice_sport_opts *o, char *err,
			 size_t errlen);
int sluice_i_sports_init(struct sluice_i_sports *s,
			 const struct sluice_sport_opts *o, uint32_t n_hosts);
void sluice_i_sports_free(struct sluice_i_sports *s);
/*
 * Binds @fd, a TCP socket made in host @src's namespace (the thread is
 * there) for flow @q to @dst (IPv4, host order), to the flow's port.
 * Returns the port the agent leased (to give back), 0 if none; or -errno
 * if the port could not be bound.
 */
int sluice_i_sport_bind(struct sluice_i_sports *s, uint32_t src, uint32_t q,
			uint32_t dst, int fd);
/* The port @fd is bound to, or 0. */
uint16_t sluice_i_local_port(int fd);
/* Gives an agent's lease back, from any namespace. */
void sluice_i_sport_release(struct sluice_i_sports *s, uint32_t src,
			    uint32_t dst, uint16_t port);

#endif /* _SLUICE_LIB_FABRIC_INTERNAL_H */
