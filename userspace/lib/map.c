// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Map entries: "VALUE:CLASS" and "LOW-HIGH:CLASS".
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sluice/map.h>
#include "parse.h"

/*
 * Numbers too large for unsigned int saturate instead of failing: the entry
 * is well formed, just out of range, and the caller says which range.
 */
static int parse_number(const char *s, char **end, unsigned int *val)
{
	unsigned long n;
	int ret;

	ret = parse_decimal(s, end, &n);
	if (ret == -EINVAL)
		return ret;
	*val = ret || n > UINT_MAX ? UINT_MAX : n;
	return 0;
}

/**
 * sluice_map_entry_parse() - read one map entry
 * @str:	"VALUE:CLASS" or "LOW-HIGH:CLASS", decimal numbers only
 * @r:		the entry; VALUE:CLASS gives low == high
 *
 * Only the syntax is checked: the ranges depend on the map and on the class
 * count, which the caller knows.  A number past UINT_MAX reads as UINT_MAX.
 *
 * Return: 0 or -EINVAL.
 */
int sluice_map_entry_parse(const char *str, struct sluice_map_range *r)
{
	char *end;

	if (parse_number(str, &end, &r->low))
		return -EINVAL;
	r->high = r->low;
	if (*end == '-' && parse_number(end + 1, &end, &r->high))
		return -EINVAL;
	if (*end != ':' || parse_number(end + 1, &end, &r->tclass) || *end)
		return -EINVAL;
	return 0;
}

/**
 * sluice_map_format() - write a whole map as entries
 * @tclass:	class of each value
 * @values:	number of values, the map's size
 * @buf:	where to write, SLUICE_MAP_STRLEN bytes are always enough
 * @len:	size of @buf
 *
 * Consecutive values with the same class become one range, so the identity
 * map of PCP is "0:0 1:1 ... 7:7" and the default DSCP map with 8 classes is
 * "0-7:0 8-15:1 ... 56-63:7".  sluice_map_entry_parse() reads every entry
 * back.  O(@values).
 *
 * Return: 0, or -ENOSPC if @buf is too short (it then holds a truncated,
 * terminated string).
 */
int sluice_map_format(const __u8 *tclass, unsigned int values, char *buf,
		      size_t len)
{
	unsigned int low, high;
	size_t off = 0;
	int n;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	for (low = 0; low < values; low = high + 1) {
		high = low;
		while (high + 1 < values && tclass[high + 1] == tclass[low])
			high++;
		if (low == high)
			n = snprintf(buf + off, len - off, "%s%u:%u",
				     off ? " " : "", low, tclass[low]);
		else
			n = snprintf(buf + off, len - off, "%s%u-%u:%u",
				     off ? " " : "", low, high, tclass[low]);
		if (n < 0 || (size_t)n >= len - off)
			return -ENOSPC;
		off += n;
	}
	return 0;
}
