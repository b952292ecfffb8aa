// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl map { load | show | flush } ...
 *
 * The switch's three Tagger maps (uapi: "Tagger's switch model").  "load"
 * takes a map file (the format is in lib/sluice/switch.h; "show" prints
 * one) or a node's tables from a tag file ("sluicectl tag compute"), and
 * replaces all three maps with it in one MAP_LOAD, so that no frame ever
 * sees half of it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "load.h"
#include "opts.h"
#include "sw.h"

static int load_main(const struct command *cmd, int argc, char **argv);
static int show_main(const struct command *cmd, int argc, char **argv);
static int flush_main(const struct command *cmd, int argc, char **argv);

static const struct command map_commands[] = {
	{ "load", load_main,
	  "Replace the maps with a map file's, or with a node's tag tables",
	  "[-n NETNS] FILE [--node NAME] [--port LINK=DEV]... [--initial-ttl N]\n"
	  "\t[--generation G] [-j | --json]", "map" },
	{ "show", show_main, "Print the maps as a map file",
	  "[-n NETNS] [-j | --json]", "map" },
	{ "flush", flush_main, "Empty the maps (the tag source stays)",
	  "[-n NETNS]", "map" },
};

int map_main(const struct command *cmd, int argc, char **argv)
{
	return group_main(cmd, map_commands, ARRAY_SIZE(map_commands), argc,
			  argv);
}

enum opt_id {
	OPT_NETNS, OPT_JSON, OPT_NODE, OPT_TTL, OPT_GENERATION,
};

static const struct opt opts[] = {
	[OPT_NETNS]	 = { "--netns", "-n", true },
	[OPT_JSON]	 = { "--json", "-j", false },
	[OPT_NODE]	 = { "--node", NULL, true },
	[OPT_TTL]	 = { "--initial-ttl", NULL, true },
	[OPT_GENERATION] = { "--generation", NULL, true },
};

#define N_OPTS		ARRAY_SIZE(opts)
/* --port options a load takes: a switch has no more ports than this. */
#define MAX_PORTS	SLUICE_MAP_MAX_PORTS

/* What "map load" was told. */
struct load_args {
	const char		*val[N_OPTS];
	const char		*file;
	struct sluice_port_dev	*ports;		/* --port, in order */
	uint32_t		n_ports;
	uint32_t		initial_ttl;	/* 0: not given */
	bool			has_generation;
	uint32_t		generation;
};

/* "LINK=DEV": a link id and a device name. */
static bool parse_port(const char *s, struct sluice_port_dev *p)
{
	const char *eq = strchr(s, '=');
	char link[16];
	uint64_t v;

	if (!eq || eq == s || (size_t)(eq - s) >= sizeof(link))
		return false;
	memcpy(link, s, eq - s);
	link[eq - s] = '\0';
	if (!opts_number(link, 0, UINT32_MAX - 1, &v) ||
	    !sluice_ifname_ok(eq + 1))
		return false;
	p->link = v;
	snprintf(p->dev, sizeof(p->dev), "%s", eq + 1);
	return true;
}

/*
 * --port may be given many times, which opts_parse() refuses of any
 * option: take them out of argv first (into @rest, argv without them),
 * stepping over the values of the other options.
 */
static int take_ports(const struct command *cmd, int argc, char **argv,
		      struct load_args *a, char **rest, int *n_rest)
{
	uint32_t j;
	size_t k;
	int i;

	*n_rest = 0;
	for (i = 0; i < argc; i++) {
		if (i == 0 || strcmp(argv[i], "--port")) {
			for (k = 0; i && k < N_OPTS; k++)
				if (opts[k].value &&
				    (!strcmp(argv[i], opts[k].name) ||
				     (opts[k].alt && !strcmp(argv[i], opts[k].alt))))
					break;
			rest[(*n_rest)++] = argv[i];
			if (i && k < N_OPTS && i + 1 < argc)
				rest[(*n_rest)++] = argv[++i];
			continue;
		}
		if (++i == argc)
			return sub_usage_error(cmd, "--port needs a value");
		if (a->n_ports == MAX_PORTS)
			return sub_usage_error(cmd, "more than %d --port options",
					       MAX_PORTS);
		if (!parse_port(argv[i], &a->ports[a->n_ports]))
			return sub_usage_error(cmd, "--port: \"%s\" is not LINK=DEV (a link id and a device name)",
					       argv[i]);
		for (j = 0; j < a->n_ports; j++)
			if (a->ports[j].link == a->ports[a->n_ports].link)
				return sub_usage_error(cmd, "--port: link %u given twice",
						       a->ports[j].link);
		a->n_ports++;
	}
	rest[*n_rest] = NULL;
	return 0;
}

/* Returns 0, EXIT_USAGE (message printed) or -1 (help printed). */
static int parse_load(const struct command *cmd, int argc, char **argv,
		      struct load_args *a, char **rest)
{
	const char *files[2];
	char msg[128];
	uint64_t v;
	int n_rest, n, ret;

	ret = take_ports(cmd, argc, argv, a, rest, &n_rest);
	if (ret)
		return ret;
	ret = opts_parse(n_rest, rest, opts, N_OPTS,
			 OPT_BIT(OPT_NETNS) | OPT_BIT(OPT_JSON) |
			 OPT_BIT(OPT_NODE) | OPT_BIT(OPT_TTL) |
			 OPT_BIT(OPT_GENERATION), a->val, files,
			 ARRAY_SIZE(files), &n, msg, sizeof(msg));
	if (ret > 0) {
		sub_help(cmd);
		return -1;
	}
	if (ret)
		return sub_usage_error(cmd, "%s", msg);
	if (n != 1)
		return sub_usage_error(cmd, n ? "one file, not %d" :
				       "no file given%.0d", n);
	a->file = files[0];
	if (a->val[OPT_TTL]) {
		if (!opts_number(a->val[OPT_TTL], 1, 255, &v))
			return sub_usage_error(cmd, "--initial-ttl: \"%s\" is not a number from 1 to 255",
					       a->val[OPT_TTL]);
		a->initial_ttl = v;
	}
	if (a->val[OPT_GENERATION]) {
		if (!opts_number(a->val[OPT_GENERATION], 0, UINT32_MAX, &v))
			return sub_usage_error(cmd, "--generation: \"%s\" is not a number from 0 to %u",
					       a->val[OPT_GENERATION],
					       UINT32_MAX);
		a->has_generation = true;
		a->generation = v;
	}
	return 0;
}

/* The whole of @path ("-": stdin); NULL after printing why not. */
static char *read_all(const char *path, const char **name, size_t *len)
{
	char err[SLUICE_ERRLEN], *buf;

	*name = strcmp(path, "-") ? path : "<stdin>";
	if (sluice_file_read(path, SIZE_MAX, &buf, len, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return NULL;
	}
	return buf;
}

enum kind { KIND_MAPS, KIND_TAGS, KIND_OTHER };

/* What the first line that is no comment says the file is. */
static enum kind kind_of(const char *text, size_t len)
{
	const char *s = text, *end = text + len, *nl;

	while (s < end && (*s == '#' || *s == '\n')) {
		nl = memchr(s, '\n', end - s);
		if (!nl)
			return KIND_OTHER;
		s = nl + 1;
	}
	if (end - s >= 12 && !memcmp(s, "sluice-maps ", 12))
		return KIND_MAPS;
	if (end - s >= 12 && !memcmp(s, "sluice-tags ", 12))
		return KIND_TAGS;
	return KIND_OTHER;
}

/*
 * The host devices of a node: every port of the switch that is none of
 * the node's link devices.  @hosts points into *@ports.
 */
static int host_devs(struct sluice_nl *nl, const struct sluice_switch_node *node,
		     const struct sluice_convert_opts *o,
		     struct sluice_port_info **ports, const char ***hosts,
		     uint32_t *n_hosts)
{
	char err[SLUICE_ERRLEN], dev[SLUICE_IFNAMSIZ];
	uint32_t n, i, k;
	uint64_t host_entries = 0;

	*hosts = NULL;
	*n_hosts = 0;
	if (sluice_nl_stats_get(nl, 0, ports, &n, err, sizeof(err)))
		return sw_fail(err);
	*hosts = calloc(n ? n : 1, sizeof(**hosts));
	if (!*hosts) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < node->n_links; k++) {
			sluice_switch_link_dev(o, node->links[k], dev);
			if (!strcmp(dev, (*ports)[i].ifname))
				break;
		}
		if (k == node->n_links)
			(*hosts)[(*n_hosts)++] = (*ports)[i].ifname;
	}
	for (i = 0; i < node->n_in; i++)
		host_entries += node->in[i].port == SLUICE_TAGGER_HOST;
	for (i = 0; i < node->n_out; i++)
		host_entries += node->out[i].port == SLUICE_TAGGER_HOST;
	if (host_entries && !*n_hosts)
		fprintf(stderr, "sluicectl: warning: node %s: the switch has no port besides its links: %llu host entries left out\n",
			node->name, (unsigned long long)host_entries);
	return 0;
}

/* The maps of a tag file's node (kept in @node), for the switch's tag source. */
static int maps_of_tags(struct sluice_nl *nl, const struct load_args *a,
			char *text, size_t len, const char *name,
			struct sluice_switch_node *node, struct sluice_maps *m)
{
	struct sluice_convert_opts o = {
		.initial_ttl = a->initial_ttl,
		.ports = a->ports,
		.n_ports = a->n_ports,
	};
	struct sluice_port_info *ports = NULL;
	struct sluice_switch_info si;
	char err[SLUICE_ERRLEN];
	const char **hosts = NULL;
	FILE *f;
	int ret;

	if (sluice_nl_switch_get(nl, &si, err, sizeof(err)))
		return sw_fail(err);
	if (a->initial_ttl && !sluice_tag_source_is_ttl(si.tag_source)) {
		fprintf(stderr, "sluicectl: --initial-ttl: the switch's tag source is %s, not a TTL\n",
			sw_source(si.tag_source, err));
		return EXIT_RUNTIME;
	}
	f = fmemopen(text, len ? len : 1, "r");
	if (!f) {
		fprintf(stderr, "sluicectl: %s\n", strerror(errno));
		return EXIT_RUNTIME;
	}
	ret = sluice_switch_read_tags(node, f, name, a->val[OPT_NODE], err,
				      sizeof(err));
	fclose(f);
	if (ret == -ENOENT && !a->val[OPT_NODE])
		fprintf(stderr, "sluicectl: %s; give --node NAME\n", err);
	else if (ret)
		fprintf(stderr, "sluicectl: %s\n", err);
	if (ret)
		return EXIT_RUNTIME;
	o.source = si.tag_source;
	ret = host_devs(nl, node, &o, &ports, &hosts, &o.n_hosts);
	if (!ret) {
		o.hosts = hosts;
		if (sluice_switch_convert(node, &o, m, err, sizeof(err)))
			ret = sw_fail(err);
	}
	free(hosts);
	free(ports);
	return ret;
}

/* Which link of the node device @dev is, for messages; "" if none. */
static void dev_origin(const struct sluice_convert_opts *o,
		       const struct sluice_switch_node *node, const char *dev,
		       char *buf, size_t size)
{
	char d[SLUICE_IFNAMSIZ];
	uint32_t k;

	buf[0] = '\0';
	for (k = 0; node && k < node->n_links; k++) {
		sluice_switch_link_dev(o, node->links[k], d);
		if (!strcmp(d, dev)) {
			snprintf(buf, size, " (link %u of node %s)",
				 node->links[k], node->name);
			return;
		}
	}
}


/*
 * A load the kernel refused: its message says what is wrong, and when it
 * names an entry, the entry is shown as the map file writes it.
 */
static int refused(const struct sluice_maps *m, uint64_t bad, const char *err)
{
	const struct sluice_maps_entry *e;

	if (bad >= m->n)
		return sw_fail(err);
	e = &m->e[bad];
	fprintf(stderr, "sluicectl: %s: \"%s %s %u %u\"\n", err,
		sluice_map_entry_kind(e->map, e->flags) ?: "?",
		e->dev == SLUICE_DEV_ALL ? "*" : m->devs[e->dev], e->tag,
		e->value);
	return EXIT_RUNTIME;
}
/* The entries of @m by ifindex in the connection's namespace. */
static int resolve(struct sluice_nl *nl, const struct sluice_maps *m,
		   const struct load_args *a,
		   const struct sluice_switch_node *node,
		   struct sluice_map_entry **out)
{
	struct sluice_convert_opts o = { .ports = a->ports,
					 .n_ports = a->n_ports };
	uint32_t *ifindex = calloc(m->n_devs ? m->n_devs : 1, sizeof(*ifindex));
	struct sluice_map_entry *e = calloc(m->n ? m->n : 1, sizeof(*e));
	char where[80];
	uint64_t i;
	uint32_t d;
	int ret = 0;

	if (!ifindex || !e) {
		fputs("sluicectl: out of memory\n", stderr);
		ret = EXIT_RUNTIME;
		goto out;
	}
	for (d = 0; d < m->n_devs; d++) {
		ret = sluice_nl_ifindex(nl, m->devs[d], &ifindex[d]);
		if (!ret)
			continue;
		/* a tag file's link devices follow a convention: say which */
		dev_origin(&o, node, m->devs[d], where, sizeof(where));
		fprintf(stderr, "sluicectl: map load: device \"%s\"%s: %s%s%s\n",
			m->devs[d], where, strerror(-ret),
			a->val[OPT_NETNS] ? " in netns " : "",
			a->val[OPT_NETNS] ? a->val[OPT_NETNS] : "");
		ret = EXIT_RUNTIME;
		goto out;
	}
	for (i = 0; i < m->n; i++) {
		e[i].ifindex = m->e[i].dev == SLUICE_DEV_ALL ? 0 :
			       ifindex[m->e[i].dev];
		e[i].map = m->e[i].map;
		e[i].tag = m->e[i].tag;
		e[i].value = m->e[i].value;
		e[i].flags = m->e[i].flags;
	}
out:
	free(ifindex);
	if (ret) {
		free(e);
		e = NULL;
	}
	*out = e;
	return ret;
}

static int print_load(uint32_t generation, const struct sluice_map_counts *c,
		      bool json)
{
	json_object *o;

	if (!json) {
		printf("generation %u in %u eg %u tag %u ports %u\n",
		       generation, c->in, c->eg, c->tag, c->ports);
		return 0;
	}
	o = json_object_new_object();
	return sw_jprint(o, o && jadd(o, "generation", jnum(generation)) &&
			    jadd(o, "map_entries", sw_jcounts(c)));
}

static int load_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_switch_node node = { 0 };
	struct sluice_map_entry *e = NULL;
	struct sluice_maps m = { 0 };
	struct sluice_map_counts counts;
	struct load_args a = { 0 };
	struct sluice_nl *nl = NULL;
	char err[SLUICE_ERRLEN], **rest;
	uint32_t generation;
	const char *name;
	char *text = NULL;
	enum kind kind;
	size_t len;
	FILE *f;
	uint64_t bad;
	int ret;

	a.ports = calloc(MAX_PORTS, sizeof(*a.ports));
	rest = calloc(argc + 1, sizeof(*rest));
	if (!a.ports || !rest) {
		free(a.ports);
		free(rest);
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	ret = parse_load(cmd, argc, argv, &a, rest);
	if (ret)
		goto out;
	text = read_all(a.file, &name, &len);
	if (!text) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	kind = kind_of(text, len);
	if (kind == KIND_OTHER) {
		fprintf(stderr, "sluicectl: %s: neither a map file (\"sluice-maps 1\") nor a tag file (\"sluice-tags 1\")\n",
			name);
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (kind == KIND_MAPS && (a.val[OPT_NODE] || a.n_ports || a.initial_ttl)) {
		ret = sub_usage_error(cmd, "%s is a map file: --node, --port and --initial-ttl are for tag files",
				      name);
		goto out;
	}
	if (kind == KIND_MAPS) {
		/* the file is checked before anything goes to the kernel */
		f = fmemopen(text, len, "r");
		if (!f) {
			ret = sw_fail(strerror(errno));
			goto out;
		}
		if (sluice_maps_read(&m, f, name, err, sizeof(err)))
			ret = sw_fail(err);
		fclose(f);
		if (ret)
			goto out;
	}
	ret = sw_open(a.val[OPT_NETNS], &nl);
	if (!ret && kind == KIND_TAGS)
		ret = maps_of_tags(nl, &a, text, len, name, &node, &m);
	if (!ret)
		ret = resolve(nl, &m, &a, kind == KIND_TAGS ? &node : NULL,
			      &e);
	if (ret)
		goto out;
	if (sluice_nl_map_load(nl, e, m.n,
			       a.has_generation ? &a.generation : NULL,
			       &generation, &counts, &bad, err, sizeof(err)))
		ret = refused(&m, bad, err);
	else
		ret = print_load(generation, &counts, a.val[OPT_JSON]);
out:
	sluice_nl_close(nl);
	sluice_switch_node_free(&node);
	sluice_maps_free(&m);
	free(e);
	free(text);
	free(rest);
	free(a.ports);
	return ret < 0 ? 0 : ret;
}

/* The dump as maps by device name. */
static int named(struct sluice_nl *nl, const struct sluice_map_dump *d,
		 struct sluice_maps *m)
{
	uint32_t last_ifindex = 0, dev = SLUICE_DEV_ALL;
	char name[SLUICE_IFNAMSIZ];
	uint64_t i;
	int ret;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < d->n; i++) {
		const struct sluice_map_entry *e = &d->e[i];

		if (!e->ifindex) {
			dev = SLUICE_DEV_ALL;
		} else if (e->ifindex != last_ifindex || dev == SLUICE_DEV_ALL) {
			ret = sluice_nl_ifname(nl, e->ifindex, name);
			if (ret) {
				fprintf(stderr, "sluicectl: map show: ifindex %u: %s (the device went away?)\n",
					e->ifindex, strerror(-ret));
				return EXIT_RUNTIME;
			}
			if (sluice_maps_dev(m, name, &dev))
				goto nomem;
		}
		last_ifindex = e->ifindex;
		if (!sluice_map_entry_kind(e->map, e->flags)) {
			fprintf(stderr, "sluicectl: map show: an entry of map %u with flags %#x: unknown to this sluicectl\n",
				e->map, e->flags);
			return EXIT_RUNTIME;
		}
		if (sluice_maps_add(m, dev, e->map, e->tag, e->value, e->flags))
			goto nomem;
	}
	return 0;
nomem:
	fputs("sluicectl: out of memory\n", stderr);
	return EXIT_RUNTIME;
}

static int show_json(const struct sluice_map_dump *d,
		     const struct sluice_maps *m)
{
	static const char *const value_key[] = {
		[SLUICE_MAP_IN] = "prio",
		[SLUICE_MAP_EG] = "class",
		[SLUICE_MAP_TAG] = "new_tag",
	};
	json_object *o = json_object_new_object(), *arr = NULL, *j;
	const struct sluice_maps_entry *e;
	bool ok;
	uint64_t i;

	ok = o && jadd(o, "generation", jnum(d->generation));
	if (ok) {
		arr = json_object_new_array_ext(m->n);
		ok = jadd(o, "entries", arr);
	}
	for (i = 0; ok && i < m->n; i++) {
		e = &m->e[i];
		j = json_object_new_object();
		ok = j && !json_object_array_add(arr, j);
		if (!ok) {
			json_object_put(j);
			break;
		}
		ok = jadd(j, "map", json_object_new_string(sluice_map_entry_kind(e->map, e->flags))) &&
		     jadd(j, "dev", json_object_new_string(e->dev == SLUICE_DEV_ALL ?
							   "*" : m->devs[e->dev])) &&
		     jadd(j, "ifindex", jnum(d->e[i].ifindex)) &&
		     jadd(j, "tag", jnum(e->tag)) &&
		     jadd(j, value_key[e->map], jnum(e->value));
	}
	return sw_jprint(o, ok);
}

static int show_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_map_dump d = { 0 };
	struct sluice_maps m = { 0 };
	const char *val[N_OPTS];
	char err[SLUICE_ERRLEN];
	struct sluice_nl *nl;
	int n, ret;

	ret = opts_parse(argc, argv, opts, N_OPTS,
			 OPT_BIT(OPT_NETNS) | OPT_BIT(OPT_JSON), val, NULL, 0,
			 &n, err, sizeof(err));
	if (ret > 0)
		return sub_help(cmd);
	if (ret)
		return sub_usage_error(cmd, "%s", err);
	ret = sw_open(val[OPT_NETNS], &nl);
	if (ret)
		return ret;
	if (sluice_nl_map_get(nl, &d, err, sizeof(err)))
		ret = sw_fail(err);
	if (!ret)
		ret = named(nl, &d, &m);
	sluice_nl_close(nl);
	if (!ret && val[OPT_JSON])
		ret = show_json(&d, &m);
	else if (!ret && sluice_maps_write(&m, stdout, err, sizeof(err)))
		ret = sw_fail(err);
	sluice_maps_free(&m);
	sluice_map_dump_free(&d);
	return ret;
}

static int flush_main(const struct command *cmd, int argc, char **argv)
{
	const char *val[N_OPTS];
	char err[SLUICE_ERRLEN];
	struct sluice_nl *nl;
	int n, ret;

	ret = opts_parse(argc, argv, opts, N_OPTS, OPT_BIT(OPT_NETNS), val,
			 NULL, 0, &n, err, sizeof(err));
	if (ret > 0)
		return sub_help(cmd);
	if (ret)
		return sub_usage_error(cmd, "%s", err);
	ret = sw_open(val[OPT_NETNS], &nl);
	if (ret)
		return ret;
	ret = sluice_nl_map_flush(nl, err, sizeof(err));
	sluice_nl_close(nl);
	return ret ? sw_fail(err) : 0;
}
