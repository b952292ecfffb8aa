/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json-c helpers for -j output (jout.c).
 */
#ifndef _SLUICECTL_JOUT_H
#define _SLUICECTL_JOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <json.h>

/* Adds @v (NULL if its creation failed) to @o; puts @v on failure. */
bool jadd(json_object *o, const char *key, json_object *v);
json_object *jnum(uint64_t v);
/* A fixed number of decimals, so that the output is the same everywhere. */
json_object *jfixed(double v);
/* {"min":..,"max":..[,"avg":..]}; takes @avg (may be NULL). */
json_object *jrange(uint64_t min, uint64_t max, json_object *avg);
/* Prints @o if @ok, else "out of memory"; puts @o; 0 or EXIT_RUNTIME. */
int jprint(json_object *o, bool ok);
/* @o's text as every -j output prints it: one line, or pretty with -p. */
const char *jtext(json_object *o);
/* sluicectl -p: every -j output pretty, indented. */
void jout_pretty(bool pretty);
/* Whether it is (for JSON the library writes as text). */
bool jout_is_pretty(void);

#endif /* _SLUICECTL_JOUT_H */
