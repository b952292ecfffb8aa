/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the commands that talk to a switch share (sw.c): the connection to
 * a namespace's switch, kernel errors as messages, and their -j pieces.
 */
#ifndef _SLUICECTL_SW_H
#define _SLUICECTL_SW_H

#include <sluice/switch.h>
#include "jout.h"
#include "sluicectl.h"

int sw_open(const char *netns, struct sluice_nl **nl);
int sw_fail(const char *err);
const char *sw_source(uint8_t source, char buf[16]);
json_object *sw_jsource(uint8_t source);
json_object *sw_jcounts(const struct sluice_map_counts *c);
int sw_jprint(json_object *o, bool ok);

#endif /* _SLUICECTL_SW_H */
