/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by lib/fabric's netlink files (not installed).
 */
#ifndef _SLUICE_LIB_FABRIC_INTERNAL_H
#define _SLUICE_LIB_FABRIC_INTERNAL_H

#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <netlink/msg.h>
#include <sluice/fabric_nl.h>

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

#endif /* _SLUICE_LIB_FABRIC_INTERNAL_H */
