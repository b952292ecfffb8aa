// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Small json-c helpers for the commands' -j output: each takes ownership of
 * the value it is given, so a chain of jadd() calls leaks nothing when one
 * fails half-way.
 */
#include <stdio.h>
#include "jout.h"
#include "sluicectl.h"

bool jadd(json_object *o, const char *key, json_object *v)
{
	if (v && !json_object_object_add(o, key, v))
		return true;
	json_object_put(v);
	return false;
}

json_object *jnum(uint64_t v)
{
	return json_object_new_uint64(v);
}

/* A fixed number of decimals, so that the output is the same everywhere. */
json_object *jfixed(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.4f", v);
	return json_object_new_double_s(v, buf);
}

/* {"min":..,"max":..[,"avg":..]}; takes @avg (may be NULL). */
json_object *jrange(uint64_t min, uint64_t max, json_object *avg)
{
	json_object *o = json_object_new_object();

	if (o && jadd(o, "min", jnum(min)) && jadd(o, "max", jnum(max)) &&
	    (!avg || jadd(o, "avg", avg)))
		return o;
	json_object_put(o);
	return NULL;
}

/* One line for scripts; "sluicectl -p" makes it indented, for people. */
static int flags = JSON_C_TO_STRING_PLAIN;

void jout_pretty(bool pretty)
{
	flags = pretty ? JSON_C_TO_STRING_PRETTY : JSON_C_TO_STRING_PLAIN;
}

bool jout_is_pretty(void)
{
	return flags == JSON_C_TO_STRING_PRETTY;
}

/* The text of @o, as every -j output prints it: all of them come here. */
const char *jtext(json_object *o)
{
	return json_object_to_json_string_ext(o, flags);
}

/*
 * Prints @o (on one line, or pretty) if @ok (every jadd() succeeded), else
 * says that memory ran out; puts @o either way.  Returns 0 or EXIT_RUNTIME.
 */
int jprint(json_object *o, bool ok)
{
	if (ok)
		puts(jtext(o));
	else
		fputs("sluicectl: out of memory\n", stderr);
	json_object_put(o);
	return ok ? 0 : EXIT_RUNTIME;
}
