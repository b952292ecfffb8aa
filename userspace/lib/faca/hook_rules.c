// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hook's nftables table as text (sluice/faca_hook.h), handed to
 * libnftables whole (hook_nft.c) so that installing it is one
 * transaction; and the destination prefixes it matches.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <sluice/faca_hook.h>

#include "../parse.h"
#include "hook.h"

int sluice_faca_prefix_parse(const char *s, struct sluice_faca_prefix *p)
{
	const char *slash = strchr(s, '/');
	char addr[INET_ADDRSTRLEN];
	unsigned long len = 32;
	struct in_addr in;
	uint32_t mask;
	size_t n;
	char *end;

	n = slash ? (size_t)(slash - s) : strlen(s);
	if (!n || n >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, s, n);
	addr[n] = '\0';
	if (inet_pton(AF_INET, addr, &in) != 1)
		return -EINVAL;
	if (slash && (parse_decimal(slash + 1, &end, &len) || *end || len > 32))
		return -EINVAL;
	mask = len ? htonl(~0u << (32 - len)) : 0;
	if (in.s_addr & ~mask)
		return -EINVAL;
	p->addr = in.s_addr;
	p->len = len;
	return 0;
}

/* Appends to a bounded buffer; remembers that it ran out of room. */
struct text {
	char	*buf;
	size_t	len, used;
	bool	full;
};

__attribute__((format(printf, 2, 3)))
static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->len - t->used)
		t->full = true;
	else
		t->used += n;
}

static bool cfg_valid(const struct sluice_faca_hook_cfg *cfg)
{
	size_t i;

	if (cfg->n_dst > SLUICE_FACA_HOOK_MAX_DST || (cfg->n_dst && !cfg->dst))
		return false;
	for (i = 0; i < cfg->n_dst; i++)
		if (cfg->dst[i].len > 32)
			return false;
	if (!cfg->sport_min != !cfg->sport_max ||
	    cfg->sport_min > cfg->sport_max)
		return false;
	return true;
}

/*
 * The queue rule matches a conntrack entry not yet confirmed: only the
 * flow's very first packet has one (the entry is confirmed as that packet
 * leaves postrouting), so a SYN sent again is not queued again.  Marked
 * packets belong to someone else's policy; loopback has no paths.  The
 * counters show what the hook did, a packet per flow queued and one per
 * flow rewritten, however much the flows carry.
 */
static void put_chains(struct text *t, const struct sluice_faca_hook_cfg *cfg)
{
	const char *l4 = cfg->udp ? "{ tcp, udp }" : "tcp";

	put(t, "\tchain new_flows {\n"
	       "\t\ttype filter hook output priority filter; policy accept;\n"
	       "\t\tmeta l4proto %s ct state new ct status ! confirmed meta mark 0 meta oiftype != loopback%s counter queue num %u bypass\n"
	       "\t}\n", l4, cfg->n_dst ? " ip daddr @dests" : "", cfg->queue);
	/* nat statements take a port only after a protocol match */
	put(t, "\tchain rewrite {\n"
	       "\t\ttype nat hook postrouting priority srcnat; policy accept;\n"
	       "\t\tmeta l4proto %s meta mark & 0x%08x == 0x%08x counter snat ip to ip saddr : meta mark map @ports\n"
	       "\t}\n", l4, SLUICE_FACA_HOOK_MARK_MASK, SLUICE_FACA_HOOK_MARK);
	put(t, "\tchain clear_mark {\n"
	       "\t\ttype filter hook postrouting priority srcnat + 1; policy accept;\n"
	       "\t\tmeta mark & 0x%08x == 0x%08x meta mark set 0\n"
	       "\t}\n", SLUICE_FACA_HOOK_MARK_MASK, SLUICE_FACA_HOOK_MARK);
}

int sluice_faca_hook_ruleset(const struct sluice_faca_hook_cfg *cfg,
			     char *buf, size_t len)
{
	struct text t = { .buf = buf, .len = len };
	char addr[INET_ADDRSTRLEN];
	unsigned int p;
	size_t i;

	if (!cfg_valid(cfg))
		return -EINVAL;
	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	/* add, delete, add: one transaction whether or not a table is there */
	put(&t, "table ip %s {}\ndelete table ip %s\ntable ip %s {\n",
	    SLUICE_FACA_HOOK_TABLE, SLUICE_FACA_HOOK_TABLE,
	    SLUICE_FACA_HOOK_TABLE);
	put(&t, "\tcomment \"" FACA_HOOK_COMMENT_PREFIX "%u\"\n", cfg->queue);
	if (cfg->n_dst) {
		put(&t, "\tset dests {\n\t\ttype ipv4_addr\n\t\tflags interval\n"
			"\t\tauto-merge\n\t\telements = { ");
		for (i = 0; i < cfg->n_dst; i++) {
			inet_ntop(AF_INET, &cfg->dst[i].addr, addr, sizeof(addr));
			put(&t, "%s%s/%u", i ? ", " : "", addr, cfg->dst[i].len);
		}
		put(&t, " }\n\t}\n");
	}
	put(&t, "\tmap ports {\n\t\ttype mark : inet_service\n");
	for (p = cfg->sport_min; cfg->sport_min && p <= cfg->sport_max; p++)
		put(&t, "%s0x%08x : %u", p == cfg->sport_min ?
		    "\t\telements = { " : ", ", SLUICE_FACA_HOOK_MARK | p, p);
	put(&t, "%s\t}\n", cfg->sport_min ? " }\n" : "");
	put_chains(&t, cfg);
	put(&t, "}\n");
	return t.full ? -ENOSPC : (int)t.used;
}
