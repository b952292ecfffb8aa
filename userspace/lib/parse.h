/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Number parsing shared by the libsluice parsers (internal, not installed).
 */
#ifndef _SLUICE_LIB_PARSE_H
#define _SLUICE_LIB_PARSE_H

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

/*
 * A decimal number at the start of @s, ending at *@end.  Unlike bare
 * strtoul() it takes digits only: no sign, no leading space, no "0x", so
 * "-1" is rejected rather than read as ULONG_MAX.  Returns 0, -EINVAL if @s
 * does not start with a digit, or -ERANGE if the number overflows.
 */
static inline int parse_decimal(const char *s, char **end, unsigned long *val)
{
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*val = strtoul(s, end, 10);
	return errno ? -ERANGE : 0;
}

#endif /* _SLUICE_LIB_PARSE_H */
