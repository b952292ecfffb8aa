/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared inside libsluice's FaCa code (not installed).
 */
#ifndef _SLUICE_LIB_FACA_INTERNAL_H
#define _SLUICE_LIB_FACA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A local port and the peer it is used toward: a TCP socket of the
 * namespace (sock_diag), or a flow conntrack tracks (the port on the wire,
 * after NAT).  What keeps a lease past its time (peers.c).
 */
struct sluice_i_port_peer {
	uint16_t	sport;		/* host order */
	uint32_t	dst;		/* network order */
};

/* Sorts @v (@n of them) by (sport, dst). Time: O(n log n). */
void sluice_i_port_peers_sort(struct sluice_i_port_peer *v, size_t n);
/* Whether @v (@n of them, sorted) holds (@sport, @dst). O(log n). */
bool sluice_i_port_peer_has(const struct sluice_i_port_peer *v, size_t n,
			    uint16_t sport, uint32_t dst);

/*
 * Every IPv4 TCP socket of the calling thread's namespace but listeners,
 * TIME_WAIT included (sock_diag), sorted, into *@out (malloc()ed).
 * Returns how many, or -errno.  Time: O(s log s) for s sockets.
 */
int sluice_i_tcp_socks(struct sluice_i_port_peer **out);

struct json_object;
struct sluice_faca;
struct sluice_faca_serve;
struct sluice_faca_hook_cfg;
struct sluice_faca_hook_stats;

/* The table as a JSON object (json.c), NULL when out of memory. */
struct json_object *sluice_i_faca_json(const struct sluice_faca *a,
				       uint64_t now_ns);
/* A hook's settings and counters as a JSON object (json.c). */
struct json_object *
sluice_i_faca_hook_json(const struct sluice_faca_hook_cfg *cfg,
			const struct sluice_faca_hook_stats *st);
/* @o as text (malloc()ed, NULL when out of memory); @o is put. */
char *sluice_i_json_text(struct json_object *o);

/*
 * The netfilter hook in the agent's loop (serve_hook.c): opened with the
 * agent's table and serve settings (s->hook), @added told of each
 * destination a hooked flow adds, so that the loop probes it at once.
 */
struct sluice_i_agent_hook;

int sluice_i_agent_hook_open(struct sluice_i_agent_hook **out,
			     struct sluice_faca *a,
			     const struct sluice_faca_serve *s,
			     void (*added)(void *arg, uint32_t dst,
					   uint64_t now_ns),
			     void *arg, char *err, size_t errlen);
int sluice_i_agent_hook_fd(const struct sluice_i_agent_hook *k);
/*
 * At @now_ns: the flows waiting for their destination's first round asked
 * again, and with @queued the new ones decided.  0 or -errno.
 */
int sluice_i_agent_hook_run(struct sluice_i_agent_hook *k, bool queued,
			    uint64_t now_ns, char *err, size_t errlen);
/* The earlier of @until and when a waiting flow's wait ends. */
uint64_t sluice_i_agent_hook_wake(const struct sluice_i_agent_hook *k,
				  uint64_t until);
/* The open flows conntrack has, as faca_ct_open_flows() lists them. */
int sluice_i_agent_hook_flows(struct sluice_i_agent_hook *k,
			      struct sluice_i_port_peer **out);
struct json_object *
sluice_i_agent_hook_json(const struct sluice_i_agent_hook *k);
/* What sluice_faca_hook_close() returns; NULL: 0. */
int sluice_i_agent_hook_close(struct sluice_i_agent_hook *k);

#endif /* _SLUICE_LIB_FACA_INTERNAL_H */
