// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Link rates in tc's units.  tc's get_rate() reads a plain number as bits/s,
 * "bit", "kbit" ... "tbit" as 1000-based bits/s, "kibit" ... "tibit" as
 * 1024-based bits/s, and "bps", "kbps" ... (bytes/s) as eight times that,
 * all case-insensitive; sluice reads the same units, so that "rate 10gbit"
 * means one thing in sluice and in tc.  Unlike get_rate(), which rounds a
 * double, a rate here is exact: "2.5gbit" is 2500000000 bits/s, and a rate
 * that is not a whole number of bits/s ("1.5bit") is refused, not rounded.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <strings.h>
#include <sluice/rate.h>

typedef unsigned __int128 u128;

/* Digits read at most: 20 is more than any rate that fits 64 bits has. */
#define INT_DIGITS_MAX	20
#define FRAC_DIGITS_MAX	18

static const struct unit {
	const char	*suffix;
	__u64		scale;		/* bits/s per unit */
} units[] = {
	{ "",		1 },
	{ "bit",	1 },
	{ "kbit",	1000ull },
	{ "mbit",	1000000ull },
	{ "gbit",	1000000000ull },
	{ "tbit",	1000000000000ull },
	{ "kibit",	1ull << 10 },
	{ "mibit",	1ull << 20 },
	{ "gibit",	1ull << 30 },
	{ "tibit",	1ull << 40 },
	{ "bps",	8 },
	{ "kbps",	8 * 1000ull },
	{ "mbps",	8 * 1000000ull },
	{ "gbps",	8 * 1000000000ull },
	{ "tbps",	8 * 1000000000000ull },
	{ "kibps",	8ull << 10 },
	{ "mibps",	8ull << 20 },
	{ "gibps",	8ull << 30 },
	{ "tibps",	8ull << 40 },
};

static const struct unit *find_unit(const char *suffix)
{
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(suffix, units[i].suffix))
			return &units[i];
	return NULL;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/**
 * sluice_parse_rate() - read a rate: a decimal number and an optional unit
 * @str:	"100000", "100kbit", "2.5gbit", "10Gbit", "1gibit", "125mbps"
 *		(units case-insensitive; "bps" is bytes per second, as in tc)
 * @bps:	the rate in bits/s, set only on success
 *
 * The number is digits, optionally followed by "." and more digits (at
 * most 18 of them, trailing zeros aside); no sign, no exponent, no space.
 *
 * Return: 0; -EINVAL if @str is not a number with a known unit; -EDOM if
 * it is not a whole number of bits/s; -ERANGE if it does not fit 64 bits.
 * 0 is a valid rate: callers that need more check it themselves.
 */
int sluice_parse_rate(const char *str, __u64 *bps)
{
	unsigned int int_digits = 0, frac_digits = 0, i;
	const struct unit *unit;
	u128 mantissa = 0, pow10 = 1, bits;
	const char *p = str, *frac, *end;

	if (!is_digit(*p))
		return -EINVAL;
	for (; is_digit(*p); p++) {
		if (mantissa || *p != '0')
			int_digits++;
		if (int_digits > INT_DIGITS_MAX)
			break;
		mantissa = mantissa * 10 + (*p - '0');
	}
	if (int_digits > INT_DIGITS_MAX) {
		/* Too large for 64 bits whatever follows, if it is a rate. */
		while (is_digit(*p))
			p++;
		if (*p == '.')
			for (p++; is_digit(*p); p++)
				;
		return find_unit(p) ? -ERANGE : -EINVAL;
	}
	if (*p == '.') {
		frac = ++p;
		while (is_digit(*p))
			p++;
		if (p == frac)
			return -EINVAL;
		/* Trailing zeros change nothing: "2.50gbit" is "2.5gbit". */
		for (end = p; end > frac && end[-1] == '0'; end--)
			;
		if (end - frac > FRAC_DIGITS_MAX)
			return -EINVAL;
		for (; frac < end; frac++, frac_digits++)
			mantissa = mantissa * 10 + (*frac - '0');
	}
	unit = find_unit(p);
	if (!unit)
		return -EINVAL;
	/* mantissa < 10^38 and scale < 2^46: the product can pass 2^128. */
	if (mantissa > ~(u128)0 / unit->scale)
		return -ERANGE;
	for (i = 0; i < frac_digits; i++)
		pow10 *= 10;
	bits = mantissa * unit->scale;
	if (bits % pow10)
		return -EDOM;
	bits /= pow10;
	if (bits > UINT64_MAX)
		return -ERANGE;
	*bps = bits;
	return 0;
}

/**
 * sluice_format_rate() - write a rate in the largest exact 1000-based unit
 * @bps:	the rate in bits/s
 * @buf:	where to write, SLUICE_RATE_STRLEN bytes are always enough
 * @len:	size of @buf
 *
 * Writes "10Gbit", "100Mbit", "2500Mbit", "64Kbit" or "12345bit", as tc
 * spells its units, and only if the unit divides @bps: sluice_parse_rate()
 * reads back exactly @bps.  0 is "0bit".
 *
 * Return: @buf.
 */
char *sluice_format_rate(__u64 bps, char *buf, size_t len)
{
	static const struct {
		__u64		scale;
		const char	*suffix;
	} fmt[] = {
		{ 1000000000000ull, "Tbit" },
		{ 1000000000ull, "Gbit" },
		{ 1000000ull, "Mbit" },
		{ 1000ull, "Kbit" },
	};
	size_t i;

	for (i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		if (bps && bps % fmt[i].scale == 0) {
			snprintf(buf, len, "%llu%s",
				 (unsigned long long)(bps / fmt[i].scale),
				 fmt[i].suffix);
			return buf;
		}
	}
	snprintf(buf, len, "%llubit", (unsigned long long)bps);
	return buf;
}
