// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PortFC's words and numbers (see "PortFC" in <linux/sluice.h>): the role,
 * the HQ list, the classes each role gets and the thresholds of the paper's
 * rule, Xoff = 6 and Xon = 4 bandwidth-delay products.  Kept apart from the
 * option parser so that sluicectl's stats print the same words.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sluice/portfc.h>
#include "parse.h"

static const char *const roles[] = {
	[TC_SLUICE_PORTFC_SWITCH]	= "switch",
	[TC_SLUICE_PORTFC_SERVER]	= "server",
};

_Static_assert(sizeof(roles) / sizeof(roles[0]) ==
	       TC_SLUICE_PORTFC_ROLE_MAX + 1, "a PortFC role has no name");

/**
 * sluice_portfc_role_name() - "switch" or "server"
 * @role:	enum tc_sluice_portfc_role
 *
 * Return: the name, or NULL for TC_SLUICE_PORTFC_NONE (not a PortFC port)
 * and for a role newer than this library.
 */
const char *sluice_portfc_role_name(unsigned int role)
{
	return role <= TC_SLUICE_PORTFC_ROLE_MAX ? roles[role] : NULL;
}

/**
 * sluice_portfc_role_parse() - read "switch" or "server"
 * @str:	the word
 * @role:	set only on success
 *
 * "none" is not taken: a change cannot turn PortFC off, and a new qdisc
 * without "portfc" is not a PortFC port already.
 *
 * Return: 0 or -EINVAL.
 */
int sluice_portfc_role_parse(const char *str, __u8 *role)
{
	unsigned int r;

	for (r = TC_SLUICE_PORTFC_SWITCH; r <= TC_SLUICE_PORTFC_ROLE_MAX; r++)
		if (!strcmp(str, roles[r])) {
			*role = r;
			return 0;
		}
	return -EINVAL;
}

/**
 * sluice_portfc_classes() - the classes the kernel gives a PortFC port
 * @role:	TC_SLUICE_PORTFC_SWITCH or _SERVER
 * @n:		ports of a BCube switch
 * @k:		BCube's k (a server's levels less one)
 *
 * A switch has a type-A class per port index, type B and HQ: n + 2.  A
 * server has a class per (hops, next port) of its own traffic, k + 1 hop
 * counts of n ports, then RQ and HQ: (k + 1) n + 2.
 *
 * Return: the count, which may exceed TC_SLUICE_MAX_CLASSES; 0 for another
 * role.
 */
unsigned int sluice_portfc_classes(unsigned int role, unsigned int n,
				   unsigned int k)
{
	switch (role) {
	case TC_SLUICE_PORTFC_SWITCH:
		return n + 2;
	case TC_SLUICE_PORTFC_SERVER:
		return (k + 1) * n + 2;
	default:
		return 0;
	}
}

static const struct {
	const char	*name;
	__u8		bit;
} hq_kinds[] = {
	{ "ack",	TC_SLUICE_PORTFC_HQ_ACK },
	{ "arp",	TC_SLUICE_PORTFC_HQ_ARP },
};

#define N_HQ_KINDS	(sizeof(hq_kinds) / sizeof(hq_kinds[0]))

/**
 * sluice_portfc_hq_name() - the word of one HQ bit
 * @bit:	a TC_SLUICE_PORTFC_HQ_* bit
 *
 * Return: "ack" or "arp", or NULL for anything else.
 */
const char *sluice_portfc_hq_name(unsigned int bit)
{
	size_t i;

	for (i = 0; i < N_HQ_KINDS; i++)
		if (hq_kinds[i].bit == bit)
			return hq_kinds[i].name;
	return NULL;
}

/**
 * sluice_portfc_hq_parse() - read what HQ holds
 * @str:	"none", or a comma-separated list of "ack" and "arp"
 * @hq:		TC_SLUICE_PORTFC_HQ_* bits, set only on success
 * @item:	if not NULL, set to where the item at fault starts in @str; it
 *		ends at the next ',' or at the end of @str
 *
 * Return: 0; -EINVAL if an item is empty (",ack", "ack,,arp", ""),
 * -ENOENT if an item is not "ack" or "arp", -EEXIST if an item was listed
 * before.
 */
int sluice_portfc_hq_parse(const char *str, __u8 *hq, const char **item)
{
	const char *start = str;
	unsigned int bits = 0;
	size_t len, i;

	if (!strcmp(str, "none")) {
		*hq = 0;
		return 0;
	}
	for (;;) {
		len = strcspn(start, ",");
		if (item)
			*item = start;
		if (!len)
			return -EINVAL;
		for (i = 0; i < N_HQ_KINDS; i++)
			if (strlen(hq_kinds[i].name) == len &&
			    !strncmp(start, hq_kinds[i].name, len))
				break;
		if (i == N_HQ_KINDS)
			return -ENOENT;
		if (bits & hq_kinds[i].bit)
			return -EEXIST;
		bits |= hq_kinds[i].bit;
		if (!start[len])
			break;
		start += len + 1;
	}
	*hq = bits;
	return 0;
}

/**
 * sluice_portfc_hq_format() - write what HQ holds as the parser reads it
 * @hq:		TC_SLUICE_PORTFC_HQ_* bits; bits this library does not know
 *		(a newer kernel's) are left out, as they could not be read back
 * @buf:	where the text goes
 * @len:	its room, SLUICE_PORTFC_HQ_STRLEN is always enough
 *
 * Return: @buf: "ack,arp", "ack", "arp" or "none".
 */
char *sluice_portfc_hq_format(__u8 hq, char *buf, size_t len)
{
	size_t at = 0, i;
	int n;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < N_HQ_KINDS; i++) {
		if (!(hq & hq_kinds[i].bit))
			continue;
		n = snprintf(buf + at, len - at, "%s%s", at ? "," : "",
			     hq_kinds[i].name);
		if (n < 0 || (size_t)n >= len - at)
			break;
		at += n;
	}
	if (!at)
		snprintf(buf, len, "none");
	return buf;
}

static const struct {
	const char	*suffix;
	__u64		ns;
} time_units[] = {
	{ "ns",	1 },
	{ "us",	1000 },
	{ "ms",	1000000 },
	{ "s",	1000000000 },
};

/**
 * sluice_parse_time() - read a time with its unit, to the nanosecond
 * @str:	digits, an optional fraction and a unit: "200us", "1.5ms",
 *		"0.2s", "500ns"; the unit is required, as tc's bare numbers
 *		are microseconds and sluice's watchdog's are milliseconds
 * @max:	the largest time taken, ns
 * @ns:		set only on success
 *
 * Return: 0; -EINVAL if @str is not such a time or is not a whole number
 * of nanoseconds; -ERANGE if it is above @max.
 */
int sluice_parse_time(const char *str, __u64 max, __u64 *ns)
{
	unsigned long whole, frac = 0;
	__u64 scale, div = 1;
	const char *p;
	char *end;
	size_t i, digits = 0;

	if (parse_decimal(str, &end, &whole))
		return -EINVAL;
	p = end;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
			if (digits == 9)
				return -EINVAL;	/* below 1 ns in any unit */
			frac = frac * 10 + (*p - '0');
			div *= 10;
		}
		if (!digits)
			return -EINVAL;
	}
	for (i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++)
		if (!strcmp(p, time_units[i].suffix))
			break;
	if (i == sizeof(time_units) / sizeof(time_units[0]))
		return -EINVAL;
	scale = time_units[i].ns;
	if (whole > max / scale)
		return -ERANGE;
	if (frac * scale % div)
		return -EINVAL;
	if (whole * scale + frac * scale / div > max)
		return -ERANGE;
	*ns = whole * scale + frac * scale / div;
	return 0;
}

/* sluice_parse_time() up to SLUICE_PORTFC_RTT_MAX_NS: a round trip. */
int sluice_parse_ns(const char *str, __u64 *ns)
{
	return sluice_parse_time(str, SLUICE_PORTFC_RTT_MAX_NS, ns);
}

/**
 * sluice_portfc_thresholds() - the paper's thresholds for a link
 * @rate:	the link's rate, bits/s
 * @rtt_ns:	the round trip, ns
 * @t:		bdp = rate * rtt / 8 bytes rounded up, xoff and xon its
 *		multiples; set only on success
 *
 * Rounding up keeps a BDP of a slow link or a short round trip from
 * becoming 0, which would pause at once.
 *
 * The product of rate and round trip is taken in 128 bits: 100 Gbit/s for
 * 1 s is already past 64 bits of bit-nanoseconds.
 *
 * Return: 0; -ERANGE if xoff would be above TC_SLUICE_MAX_LIMIT (bdp is
 * still set, for the message).
 */
int sluice_portfc_thresholds(__u64 rate, __u64 rtt_ns,
			     struct sluice_portfc_thresholds *t)
{
	const unsigned __int128 ns_bits_per_byte = 8 * 1000000000ull;
	unsigned __int128 bits = (unsigned __int128)rate * rtt_ns;

	/* rate < 2^64 and rtt_ns <= 1 s: bdp fits 64 bits */
	t->bdp = bits / ns_bits_per_byte + !!(bits % ns_bits_per_byte);
	if (t->bdp > TC_SLUICE_MAX_LIMIT / SLUICE_PORTFC_XOFF_BDPS)
		return -ERANGE;
	t->xoff = SLUICE_PORTFC_XOFF_BDPS * t->bdp;
	t->xon = SLUICE_PORTFC_XON_BDPS * t->bdp;
	return 0;
}
