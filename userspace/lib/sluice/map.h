/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Maps from a tag value to a class, written as entries "VALUE:CLASS" and
 * "LOW-HIGH:CLASS": "0-7:0 8-15:1 46:5".
 */
#ifndef _SLUICE_MAP_H
#define _SLUICE_MAP_H

#include <stddef.h>
#include <linux/types.h>
#include <linux/sluice.h>

/* The largest map, DSCP's; map bitmaps are __u64 because of it. */
#define SLUICE_MAP_MAX_VALUES	TC_SLUICE_DSCP_VALUES

/* Room for sluice_map_format() of any map: 64 x "63:15 ". */
#define SLUICE_MAP_STRLEN	512

/* Some entries of one map: tclass[v] is meaningful when bit v of given is set. */
struct sluice_class_map {
	__u64	given;
	__u8	tclass[SLUICE_MAP_MAX_VALUES];
};

/* One entry as written; the numbers are not range-checked (see .c). */
struct sluice_map_range {
	unsigned int	low;
	unsigned int	high;
	unsigned int	tclass;
};

int sluice_map_entry_parse(const char *str, struct sluice_map_range *r);
int sluice_map_format(const __u8 *tclass, unsigned int values, char *buf,
		      size_t len);

#endif /* _SLUICE_MAP_H */
