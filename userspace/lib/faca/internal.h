/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared inside libsluice's FaCa code (not installed).
 */
#ifndef _SLUICE_LIB_FACA_INTERNAL_H
#define _SLUICE_LIB_FACA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A TCP socket of the namespace: its local port and its peer's address. */
struct sluice_i_tcp_sock {
	uint16_t	sport;		/* host order */
	uint32_t	dst;		/* network order */
};

/*
 * Every IPv4 TCP socket of the calling thread's namespace but listeners,
 * TIME_WAIT included (sock_diag), sorted by (sport, dst), into *@out
 * (malloc()ed).  Returns how many, or -errno.  Time: O(s log s) for s
 * sockets.
 */
int sluice_i_tcp_socks(struct sluice_i_tcp_sock **out);
/* Whether @v (@n of them, sorted) holds (@sport, @dst). O(log n). */
bool sluice_i_tcp_sock_has(const struct sluice_i_tcp_sock *v, size_t n,
			   uint16_t sport, uint32_t dst);

#endif /* _SLUICE_LIB_FACA_INTERNAL_H */
