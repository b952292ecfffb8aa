// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Lists of PFC priorities: "none", or items "P" and "LOW-HIGH" separated by
 * commas, with no spaces, so that a list is one word of a tc command.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sluice/pfc.h>
#include "parse.h"

/* A priority of an item; a number past 7 is well formed, just too large. */
static int parse_prio(const char *s, char **end, unsigned long *prio)
{
	int ret = parse_decimal(s, end, prio);

	if (ret == -ERANGE)
		*prio = SLUICE_PFC_PRIOS;
	return ret == -EINVAL ? -EINVAL : 0;
}

/**
 * sluice_pfc_parse() - read a list of PFC priorities
 * @str:	"none", or a comma-separated list of "P" and "LOW-HIGH" items,
 *		e.g. "3", "3,4" or "0-2,5"
 * @prios:	BIT(p) for each priority listed, set only on success
 * @item:	if not NULL, set to where the item at fault starts in @str when
 *		a well-formed list is refused; it ends at the next ',' or at the
 *		end of @str
 *
 * Return: 0; -EINVAL if @str is not "none" nor a list; -ERANGE if an item
 * names a priority past 7; -EDOM if an item's range is reversed ("5-3");
 * -EEXIST if an item names a priority an earlier item named.
 */
int sluice_pfc_parse(const char *str, __u8 *prios, const char **item)
{
	unsigned long low, high, p;
	const char *start = str;
	unsigned int bits = 0;
	char *end;
	int ret;

	if (!strcmp(str, "none")) {
		*prios = 0;
		return 0;
	}
	/* Syntax first, so that a typo is never reported as a range. */
	do {
		if (parse_prio(start, &end, &low))
			return -EINVAL;
		if (*end == '-' && parse_prio(end + 1, &end, &high))
			return -EINVAL;
		if (*end && *end != ',')
			return -EINVAL;
		start = end + 1;
	} while (*end);

	start = str;
	do {
		parse_prio(start, &end, &low);
		high = low;
		if (*end == '-')
			parse_prio(end + 1, &end, &high);
		ret = 0;
		if (low >= SLUICE_PFC_PRIOS || high >= SLUICE_PFC_PRIOS)
			ret = -ERANGE;
		else if (low > high)
			ret = -EDOM;
		for (p = low; !ret && p <= high; p++) {
			if (bits & (1u << p))
				ret = -EEXIST;
			bits |= 1u << p;
		}
		if (ret) {
			if (item)
				*item = start;
			return ret;
		}
		start = end + 1;
	} while (*end);
	*prios = bits;
	return 0;
}

/**
 * sluice_pfc_format() - write a set of PFC priorities as a list
 * @prios:	BIT(p) for each priority
 * @buf:	where to write, SLUICE_PFC_STRLEN bytes are always enough
 * @len:	size of @buf
 *
 * Writes "none" or each priority in order, "3,4": at most eight numbers,
 * as plain to read as to grep.  sluice_pfc_parse() reads it back.
 *
 * Return: @buf.
 */
char *sluice_pfc_format(__u8 prios, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int p;
	int n;

	if (!len)
		return buf;
	snprintf(buf, len, "none");
	for (p = 0; p < SLUICE_PFC_PRIOS; p++) {
		if (!(prios & (1u << p)))
			continue;
		n = snprintf(buf + off, len - off, "%s%u", off ? "," : "", p);
		if (n < 0 || (size_t)n >= len - off)
			break;
		off += n;
	}
	return buf;
}
