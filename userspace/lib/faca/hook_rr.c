// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hook's fixed policy (sluice/faca_hook.h): a range's ports in turn,
 * each checked against conntrack as NAT would check it, so that a port
 * already carrying a flow to the same destination is skipped rather than
 * handed out (NAT would keep the clashing port, and the kernel would drop
 * the flow's first packet as a duplicate).
 */
#include <errno.h>
#include <string.h>
#include <sluice/faca_hook.h>

void sluice_faca_rr_init(struct sluice_faca_rr *c,
			 const struct sluice_sport_range *r)
{
	memset(c, 0, sizeof(*c));
	sluice_sport_rr_init(&c->rr, r);
}

static int rr_taken(void *ctx, uint16_t port)
{
	struct sluice_faca_rr *c = ctx;

	return sluice_faca_hook_port_taken(c->hook, c->saddr, c->daddr, port,
					   c->dport, c->proto);
}

int sluice_faca_rr_choose(void *ctx, uint32_t saddr, uint32_t daddr,
			  uint16_t sport, uint16_t dport, uint8_t proto,
			  uint16_t *new_sport)
{
	struct sluice_faca_rr *c = ctx;
	int port;

	(void)sport;
	if (!c->hook)
		return -EINVAL;
	c->saddr = saddr;
	c->daddr = daddr;
	c->dport = dport;
	c->proto = proto;
	port = sluice_sport_rr_next(&c->rr, rr_taken, c);
	if (port < 0)
		return port;
	*new_sport = port;
	return 0;
}
