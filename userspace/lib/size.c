// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Byte sizes in tc's units.  tc's get_size() is 1024-based and reads the bit
 * units as bytes divided by 8; sluice does the same so that a size means one
 * thing in every sluice and tc command.  Unlike get_size() it takes whole
 * numbers only: a fraction ("1.5k") would need rounding, and a limit that
 * silently differs from what was typed is worse than an error.
 */
#include <stdio.h>
#include <stdint.h>
#include <strings.h>
#include <sluice/size.h>
#include "parse.h"

static const struct unit {
	const char	*suffix;
	__u32		scale;
} units[] = {
	{ "",		1 },
	{ "b",		1 },
	{ "k",		1u << 10 },
	{ "kb",		1u << 10 },
	{ "m",		1u << 20 },
	{ "mb",		1u << 20 },
	{ "g",		1u << 30 },
	{ "gb",		1u << 30 },
	{ "kbit",	(1u << 10) / 8 },
	{ "mbit",	(1u << 20) / 8 },
	{ "gbit",	(1u << 30) / 8 },
};

static const struct unit *find_unit(const char *suffix)
{
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(suffix, units[i].suffix))
			return &units[i];
	return NULL;
}

/**
 * sluice_parse_size() - read a byte size: digits and an optional unit
 * @str:	"1500", "1500b", "64k", "64kb", "1m", "1Mb", "2g", "2gb", "8kbit",
 *		"8mbit", "8gbit" (units case-insensitive)
 * @bytes:	the size, set only on success
 *
 * Return: 0; -EINVAL if @str is empty, has no digits first, or ends in
 * anything but a unit; -ERANGE if the size does not fit in 32 bits.  0 is a
 * valid size: callers that need more check it themselves.
 */
int sluice_parse_size(const char *str, __u32 *bytes)
{
	const struct unit *unit;
	unsigned long n;
	char *end;
	int ret;

	ret = parse_decimal(str, &end, &n);
	if (ret == -EINVAL)
		return ret;
	unit = find_unit(end);
	if (!unit)
		return -EINVAL;
	if (ret || n > UINT32_MAX / unit->scale)
		return -ERANGE;
	*bytes = n * unit->scale;
	return 0;
}

/**
 * sluice_format_size() - write a byte size in the largest exact unit
 * @bytes:	the size
 * @buf:	where to write, SLUICE_SIZE_STRLEN bytes are always enough
 * @len:	size of @buf
 *
 * Writes "3Gb", "5Mb", "50Kb" or "1500b": the largest unit that divides
 * @bytes, so that sluice_parse_size() reads back exactly @bytes.  "Kb" is
 * kibibytes here as in tc, never kilobits.
 *
 * Return: @buf.
 */
char *sluice_format_size(__u32 bytes, char *buf, size_t len)
{
	static const struct {
		__u32		scale;
		const char	*suffix;
	} fmt[] = {
		{ 1u << 30, "Gb" },
		{ 1u << 20, "Mb" },
		{ 1u << 10, "Kb" },
	};
	size_t i;

	for (i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		if (bytes && bytes % fmt[i].scale == 0) {
			snprintf(buf, len, "%u%s", bytes / fmt[i].scale,
				 fmt[i].suffix);
			return buf;
		}
	}
	snprintf(buf, len, "%ub", bytes);
	return buf;
}
