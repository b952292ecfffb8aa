// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl switch { show | set } ...
 *
 * The switch of a namespace (all its sluice root qdiscs): its tag source,
 * the generation and size of its maps, its ports and its Tagger counters;
 * and setting the tag source.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "args.h"
#include "sw.h"

static int show_main(const struct command *cmd, int argc, char **argv);
static int set_main(const struct command *cmd, int argc, char **argv);

static const struct command switch_commands[] = {
	{ "show", show_main,
	  "Tag source, maps, ports and Tagger counters of the switch",
	  "[-n NETNS] [-j | --json]", "switch" },
	{ "set", set_main, "Set the switch's tag source",
	  "[-n NETNS] tag-source { none | ip-ttl | mpls-ttl | dscp | mpls-tc | pcp | mpls-depth }",
	  "switch" },
};

int switch_main(const struct command *cmd, int argc, char **argv)
{
	return group_main(cmd, switch_commands, ARRAY_SIZE(switch_commands),
			  argc, argv);
}

enum opt_id { OPT_NETNS, OPT_JSON, N_OPTS };

#define OPT_NETNS_ENTRY \
	[OPT_NETNS] = ARG_S("--netns", 'n', "NETNS", \
			    "the switch of namespace NETNS (default sluicectl's own)")

static const struct arg_opt show_opts[] = {
	OPT_NETNS_ENTRY,
	[OPT_JSON]	= ARG_F("--json", 'j', "print the switch as one JSON object"),
};

static const struct arg_opt set_opts[] = { OPT_NETNS_ENTRY };

static const struct args_spec show_spec = ARGS_SPEC(show_opts, 0, 0, NULL);
static const struct args_spec set_spec = {
	.opts = set_opts, .n_opts = ARRAY_SIZE(set_opts), .max_operands = -1,
	.operands = "tag-source SOURCE",
};

/* The counters of struct sluice_switch_stats, by their field names. */
static const struct {
	const char	*name;
	size_t		off;
} counters[] = {
#define C(f)	{ #f, offsetof(struct sluice_switch_stats, f) }
	C(tagged), C(untagged), C(in_miss), C(eg_miss), C(tag_miss),
	C(retagged), C(retag_failed), C(class_invalid),
#undef C
};

static uint64_t counter(const struct sluice_switch_stats *st, size_t i)
{
	uint64_t v;

	memcpy(&v, (const char *)st + counters[i].off, sizeof(v));
	return v;
}

static int print_json(const struct sluice_switch_info *si)
{
	json_object *o = json_object_new_object(), *st = NULL;
	bool ok;
	size_t i;

	ok = o && jadd(o, "tag_source", sw_jsource(si->tag_source)) &&
	     jadd(o, "generation", jnum(si->generation)) &&
	     jadd(o, "ports", jnum(si->ports)) &&
	     jadd(o, "map_entries", sw_jcounts(&si->counts));
	if (ok) {
		st = json_object_new_object();
		ok = jadd(o, "stats", st);
	}
	for (i = 0; ok && i < ARRAY_SIZE(counters); i++)
		ok = jadd(st, counters[i].name, jnum(counter(&si->stats, i)));
	return sw_jprint(o, ok);
}

static int show_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_switch_info si;
	char err[SLUICE_ERRLEN], buf[16];
	const char **val;
	struct sluice_nl *nl;
	size_t i;
	int ret;
	ARGS_DECLARE(a, N_OPTS);

	if (args_parse(cmd, &show_spec, argc, argv, &a))
		return a.exit;
	val = a.val;
	ret = sw_open(val[OPT_NETNS], &nl);
	if (ret)
		return ret;
	ret = sluice_nl_switch_get(nl, &si, err, sizeof(err));
	sluice_nl_close(nl);
	if (ret)
		return sw_fail(err);
	if (val[OPT_JSON])
		return print_json(&si);
	printf("tag-source %s generation %u ports %u\n",
	       sw_source(si.tag_source, buf), si.generation, si.ports);
	printf("maps in %u eg %u tag %u ports %u\n", si.counts.in, si.counts.eg,
	       si.counts.tag, si.counts.ports);
	for (i = 0; i < ARRAY_SIZE(counters); i++)
		printf("%s%s %llu", i ? " " : "", counters[i].name,
		       (unsigned long long)counter(&si.stats, i));
	putchar('\n');
	return 0;
}

static int set_main(const struct command *cmd, int argc, char **argv)
{
	char err[SLUICE_ERRLEN], **words;
	struct sluice_nl *nl;
	int n, ret, source;
	ARGS_DECLARE(a, ARRAY_SIZE(set_opts));

	if (args_parse(cmd, &set_spec, argc, argv, &a))
		return a.exit;
	words = a.operands;
	n = a.n_operands;
	if (!n)
		return args_error(&a, "nothing to set");
	if (strcmp(words[0], "tag-source"))
		return args_error(&a, "unknown setting \"%s\"", words[0]);
	if (n < 2)
		return args_error(&a, "tag-source needs a value");
	if (n > 2)
		return args_error(&a, "unexpected argument \"%s\"", words[2]);
	source = sluice_tag_source_parse(words[1]);
	if (source < 0)
		return args_error(&a, "tag-source: \"%s\" is not none, ip-ttl, mpls-ttl, dscp, mpls-tc, pcp or mpls-depth",
				       words[1]);
	ret = sw_open(a.val[OPT_NETNS], &nl);
	if (ret)
		return ret;
	ret = sluice_nl_switch_set(nl, source, err, sizeof(err));
	sluice_nl_close(nl);
	return ret ? sw_fail(err) : 0;
}
