// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Conntrack lookups for the hook (sluice/faca_hook.h): whether a source
 * port is free for a new flow is whether NAT would find its tuple taken,
 * and NAT asks the conntrack table, so this asks it too.
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <libnetfilter_conntrack/libnetfilter_conntrack.h>
#include <libnetfilter_conntrack/libnetfilter_conntrack_tcp.h>

#include "../graph/internal.h"
#include "hook.h"

/*
 * CONTINUE, not STOP: a GET's reply is followed by its acknowledgement,
 * and a query that stopped early would leave that in the socket for the
 * next query to take as its answer.
 */
static int found(enum nf_conntrack_msg_type type, struct nf_conntrack *ct,
		 void *data)
{
	(void)type;
	(void)ct;
	(void)data;
	return NFCT_CB_CONTINUE;
}

struct nfct_handle *faca_ct_open(char *err, size_t errlen)
{
	struct nfct_handle *ct = nfct_open(CONNTRACK, 0);

	if (!ct) {
		sluice_i_errf(err, errlen, -errno, "cannot open conntrack's netlink socket: %s",
			      strerror(errno));
		return NULL;
	}
	if (nfct_callback_register(ct, NFCT_T_ALL, found, NULL)) {
		sluice_i_errf(err, errlen, -errno, "cannot register a conntrack callback: %s",
			      strerror(errno));
		nfct_close(ct);
		return NULL;
	}
	return ct;
}

void faca_ct_close(struct nfct_handle *ct)
{
	if (ct)
		nfct_close(ct);
}

struct open_count {
	const uint8_t	*ports;
	int		n;
};

/*
 * A flow the hook rewrote (source NAT to one of its ports) that still
 * needs its translation: TCP short of TIME_WAIT and CLOSE (the sockets
 * are done with it), any UDP entry (conntrack cannot tell when UDP ends).
 */
static int count_open(enum nf_conntrack_msg_type type, struct nf_conntrack *ct,
		      void *data)
{
	struct open_count *c = data;
	uint16_t orig, repl;
	uint8_t state;

	(void)type;
	if (!(nfct_get_attr_u32(ct, ATTR_STATUS) & IPS_SRC_NAT))
		return NFCT_CB_CONTINUE;
	orig = ntohs(nfct_get_attr_u16(ct, ATTR_ORIG_PORT_SRC));
	repl = ntohs(nfct_get_attr_u16(ct, ATTR_REPL_PORT_DST));
	if (orig == repl || !(c->ports[repl / 8] & (1u << (repl % 8))))
		return NFCT_CB_CONTINUE;
	switch (nfct_get_attr_u8(ct, ATTR_L4PROTO)) {
	case IPPROTO_TCP:
		state = nfct_get_attr_u8(ct, ATTR_TCP_STATE);
		if (state != TCP_CONNTRACK_TIME_WAIT &&
		    state != TCP_CONNTRACK_CLOSE)
			c->n++;
		break;
	case IPPROTO_UDP:
		c->n++;
		break;
	}
	return NFCT_CB_CONTINUE;
}

int faca_ct_count_open(struct nfct_handle *h, const uint8_t *ports)
{
	struct open_count c = { .ports = ports };
	uint32_t family = AF_INET;
	int ret;

	if (nfct_callback_register(h, NFCT_T_ALL, count_open, &c))
		return -errno;
	ret = nfct_query(h, NFCT_Q_DUMP, &family) ? -errno : c.n;
	if (nfct_callback_register(h, NFCT_T_ALL, found, NULL) && !ret)
		ret = -errno;
	return ret;
}

/*
 * The kernel's lookup of a tuple searches both directions of every entry
 * (nf_conntrack_find_get), as NAT's nf_nat_used_tuple does: so the tuple
 * goes as it is, whichever direction it stands for.
 */
int faca_ct_tuple_taken(struct nfct_handle *h, uint8_t proto, uint32_t src,
			uint16_t sport, uint32_t dst, uint16_t dport)
{
	struct nf_conntrack *ct = nfct_new();
	int ret;

	if (!ct)
		return -ENOMEM;
	nfct_set_attr_u8(ct, ATTR_L3PROTO, AF_INET);
	nfct_set_attr_u32(ct, ATTR_IPV4_SRC, src);
	nfct_set_attr_u32(ct, ATTR_IPV4_DST, dst);
	nfct_set_attr_u8(ct, ATTR_L4PROTO, proto);
	nfct_set_attr_u16(ct, ATTR_PORT_SRC, htons(sport));
	nfct_set_attr_u16(ct, ATTR_PORT_DST, htons(dport));
	if (!nfct_query(h, NFCT_Q_GET, ct))
		ret = 1;
	else
		ret = errno == ENOENT ? 0 : -errno;
	nfct_destroy(ct);
	return ret;
}
