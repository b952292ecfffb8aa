// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The switch commands' shared pieces: "switch", "map", "stats" and
 * "monitor" each open one connection to the switch of a namespace
 * (-n NETNS, as "ip -n") and print a kernel's refusal as
 * "sluicectl: WHAT: STRERROR: EXTACK" with exit code 1.
 */
#include <stdio.h>
#include <string.h>
#include "jout.h"
#include "sw.h"

/* The connection to the switch of @netns (NULL: ours); 0 or EXIT_RUNTIME. */
int sw_open(const char *netns, struct sluice_nl **nl)
{
	char err[SLUICE_ERRLEN];

	if (sluice_nl_open(nl, netns, err, sizeof(err)))
		return sw_fail(err);
	return 0;
}

/* Prints "sluicectl: @err"; returns EXIT_RUNTIME. */
int sw_fail(const char *err)
{
	fprintf(stderr, "sluicectl: %s\n", err);
	return EXIT_RUNTIME;
}

/* A tag source's keyword; a newer kernel's unknown one as its number. */
const char *sw_source(uint8_t source, char buf[16])
{
	const char *name = sluice_tag_source_name(source);

	if (name)
		return name;
	snprintf(buf, 16, "%u", source);
	return buf;
}

/* The keyword as a JSON string, an unknown source as a number. */
json_object *sw_jsource(uint8_t source)
{
	const char *name = sluice_tag_source_name(source);

	return name ? json_object_new_string(name) : jnum(source);
}

/* {"in":..,"eg":..,"tag":..,"ports":..}, struct sluice_map_counts. */
json_object *sw_jcounts(const struct sluice_map_counts *c)
{
	json_object *o = json_object_new_object();

	if (o && jadd(o, "in", jnum(c->in)) && jadd(o, "eg", jnum(c->eg)) &&
	    jadd(o, "tag", jnum(c->tag)) && jadd(o, "ports", jnum(c->ports)))
		return o;
	json_object_put(o);
	return NULL;
}

/* Prints @o on one line if @ok (it was built whole), and puts it. */
int sw_jprint(json_object *o, bool ok)
{
	if (ok && o)
		puts(jtext(o));
	else
		fputs("sluicectl: out of memory\n", stderr);
	json_object_put(o);
	return ok && o ? 0 : EXIT_RUNTIME;
}
