/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Link rates as tc writes them: "100mbit", "2.5gbit", "10gbps".
 */
#ifndef _SLUICE_RATE_H
#define _SLUICE_RATE_H

#include <stddef.h>
#include <linux/types.h>

/*
 * Room for any sluice_format_rate() output: the longest,
 * "18446744073709551615bit", is 23 characters.
 */
#define SLUICE_RATE_STRLEN	32

int sluice_parse_rate(const char *str, __u64 *bps);
char *sluice_format_rate(__u64 bps, char *buf, size_t len);

#endif /* _SLUICE_RATE_H */
