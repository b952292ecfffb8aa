/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sets of PFC priorities, TCA_SLUICE_PFC's bitmap, written as lists:
 * "3", "3,4", "0-2,5" or "none".
 */
#ifndef _SLUICE_PFC_H
#define _SLUICE_PFC_H

#include <stddef.h>
#include <linux/types.h>

/* PFC's class-enable vector names priorities 0..7. */
#define SLUICE_PFC_PRIOS	8

/* Room for sluice_pfc_format() of any set: "0,1,2,3,4,5,6,7". */
#define SLUICE_PFC_STRLEN	16

int sluice_pfc_parse(const char *str, __u8 *prios, const char **item);
char *sluice_pfc_format(__u8 prios, char *buf, size_t len);

#endif /* _SLUICE_PFC_H */
