/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Byte sizes as tc writes them: "1500", "64k", "1Mb", "2gbit".
 */
#ifndef _SLUICE_SIZE_H
#define _SLUICE_SIZE_H

#include <stddef.h>
#include <linux/types.h>

/* Room for the longest sluice_format_size() output, "4294967295b". */
#define SLUICE_SIZE_STRLEN	16

int sluice_parse_size(const char *str, __u32 *bytes);
char *sluice_format_size(__u32 bytes, char *buf, size_t len);

#endif /* _SLUICE_SIZE_H */
