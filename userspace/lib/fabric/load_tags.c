// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Each switch's Tagger tables, loaded with its routes (sluice/fabric_load.h;
 * "sluicectl route load ROUTES --tags TAGFILE [--tag-source SOURCE]").
 *
 * A tag file must be the one "sluicectl tag compute" wrote for the same
 * topology and the same route set (both hashes are checked, and named when
 * they differ); tables built in memory are taken as they are.  Per switch, its node's tables become maps
 * (sluice_switch_node_of(), sluice_switch_convert(): link L is device
 * l<L>, "host" every other port of the switch), resolved to ifindexes in
 * the switch's namespace.  Before anything changes, each switch's tag
 * source and maps are read, so that a refusal anywhere - by the switch's
 * generic netlink family or by the routes' rtnetlink - gives every switch
 * its old tag source and maps back.
 *
 * A load sets the tag source and then the maps; when the source changes,
 * the maps are emptied first, as the kernel refuses a source that an entry
 * held does not fit.  Unloading (no file) empties the maps and sets the
 * source to none.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/file.h>
#include "load.h"

static int entry_cmp(const void *a, const void *b)
{
	const struct sluice_map_entry *x = a, *y = b;

	if (x->ifindex != y->ifindex)
		return x->ifindex < y->ifindex ? -1 : 1;
	if (x->map != y->map)
		return x->map - y->map;
	if (x->flags != y->flags)
		return x->flags - y->flags;
	if (x->tag != y->tag)
		return x->tag - y->tag;
	return x->value - y->value;
}

/* @n switches to load with @source (SLUICE_TAG_SOURCE_NONE: unloading). */
int sluice_i_ltags_init(struct sluice_i_ltags *t, uint32_t n, uint8_t source,
		       struct sluice_i_say *say)
{
	memset(t, 0, sizeof(*t));
	t->source = source;
	t->say = say;
	t->n = n;
	t->s = calloc(n ? n : 1, sizeof(*t->s));
	if (!t->s) {
		sluice_i_say(say, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* The tag file, checked against the topology and the routes. */
int sluice_i_ltags_read(struct sluice_i_ltags *t, const char *path,
		       const struct sluice_graph *g,
		       const struct sluice_routes *r)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	char err[SLUICE_ERRLEN];
	uint64_t want;
	FILE *f;
	int ret;

	ret = sluice_file_open(path, &f, err, sizeof(err));
	if (ret) {
		sluice_i_say(t->say, "%s", err);
		return ret;
	}
	ret = sluice_tagger_read(&t->own, g, f, name, NULL, err, sizeof(err));
	sluice_file_close(f);
	if (ret) {
		sluice_i_say(t->say, "%s", err);
		return ret;
	}
	t->has_own = true;
	t->tab = &t->own;
	want = sluice_tagger_routes_hash(r);
	if (t->own.routes_hash != want) {
		sluice_i_say(t->say, "%s: the tag file is for routes with hash %016llx (algo %s), the route file's hash is %016llx: compute the tags for these routes (sluicectl tag compute)",
			     path, (unsigned long long)t->own.routes_hash,
			     t->own.algo, (unsigned long long)want);
		return -EINVAL;
	}
	return 0;
}

/* The maps of @node's tables, for switch @s, by ifindex. */
static int wanted(struct sluice_i_ltags *t, struct sluice_i_ltag_switch *s,
		  const struct sluice_graph *g, uint32_t node)
{
	struct sluice_convert_opts o = { .source = t->source };
	struct sluice_switch_node sn = { 0 };
	struct sluice_port_info *ports = NULL;
	char err[SLUICE_ERRLEN], dev[SLUICE_IFNAMSIZ];
	const char **hosts = NULL;
	uint32_t np = 0, i, k, *ifindex = NULL;
	uint64_t j;
	int ret;

	ret = sluice_switch_node_of(t->tab, g, node, &sn, err, sizeof(err));
	if (!ret)
		ret = sluice_nl_stats_get(s->nl, 0, &ports, &np, err,
					  sizeof(err));
	if (!ret) {
		/* "host": every port of the switch that is not a link's */
		hosts = calloc(np ? np : 1, sizeof(*hosts));
		ret = hosts ? 0 : -ENOMEM;
		for (i = 0; hosts && i < np; i++) {
			for (k = 0; k < sn.n_links; k++) {
				sluice_switch_link_dev(&o, sn.links[k], dev);
				if (!strcmp(dev, ports[i].ifname))
					break;
			}
			if (k == sn.n_links)
				hosts[o.n_hosts++] = ports[i].ifname;
		}
		o.hosts = hosts;
		if (ret)
			snprintf(err, sizeof(err), "out of memory");
	}
	if (!ret)
		ret = sluice_switch_convert(&sn, &o, &s->m, err, sizeof(err));
	if (!ret) {
		ifindex = calloc(s->m.n_devs ? s->m.n_devs : 1,
				 sizeof(*ifindex));
		s->e = calloc(s->m.n ? s->m.n : 1, sizeof(*s->e));
		if (!ifindex || !s->e) {
			ret = -ENOMEM;
			snprintf(err, sizeof(err), "out of memory");
		}
	}
	for (i = 0; !ret && i < s->m.n_devs; i++) {
		ret = sluice_nl_ifindex(s->nl, s->m.devs[i], &ifindex[i]);
		if (ret)
			snprintf(err, sizeof(err), "device %s: %s",
				 s->m.devs[i], strerror(-ret));
	}
	for (j = 0; !ret && j < s->m.n; j++) {
		s->e[j].ifindex = s->m.e[j].dev == SLUICE_DEV_ALL ? 0 :
				  ifindex[s->m.e[j].dev];
		s->e[j].map = s->m.e[j].map;
		s->e[j].tag = s->m.e[j].tag;
		s->e[j].value = s->m.e[j].value;
		s->e[j].flags = s->m.e[j].flags;
	}
	if (!ret)
		s->n = s->m.n;
	free(ifindex);
	free(hosts);
	free(ports);
	sluice_switch_node_free(&sn);
	if (ret)
		sluice_i_say(t->say, "switch %s: tag tables: %s", s->name, err);
	return ret;
}

/*
 * Switch @k in namespace @ns ("" for this one): a connection, what it
 * holds, and, with a tag file, what it should.  @quiet_absent: a missing
 * sluice family is no error (unloading a fabric without sch_sluice).
 */
int sluice_i_ltags_prepare(struct sluice_i_ltags *t, uint32_t k, const char *ns,
			  const char *name, const struct sluice_graph *g,
			  uint32_t node, bool quiet_absent)
{
	struct sluice_i_ltag_switch *s = &t->s[k];
	char err[SLUICE_ERRLEN];
	int ret;

	s->name = name;
	ret = sluice_nl_open(&s->nl, ns[0] ? ns : NULL, err, sizeof(err));
	if (ret == -ENOENT && quiet_absent)
		return 0;
	if (!ret)
		ret = sluice_nl_switch_get(s->nl, &s->old_info, err,
					   sizeof(err));
	if (!ret)
		ret = sluice_nl_map_get(s->nl, &s->old, err, sizeof(err));
	if (ret) {
		sluice_i_say(t->say, "switch %s: %s", name, err);
		return ret;
	}
	if (s->old.n)
		qsort(s->old.e, s->old.n, sizeof(*s->old.e), entry_cmp);
	if (!t->tab)
		return 0;
	ret = wanted(t, s, g, node);
	if (!ret && s->n)
		qsort(s->e, s->n, sizeof(*s->e), entry_cmp);
	return ret;
}

/* Whether switch @s holds what it should. */
static bool in_sync(const struct sluice_i_ltags *t,
		    const struct sluice_i_ltag_switch *s)
{
	return s->old_info.tag_source == t->source && s->old.n == s->n &&
	       (!s->n || !memcmp(s->old.e, s->e, s->n * sizeof(*s->e)));
}

/* Sets switch @s to @source with entries @e; its first refusal in @err. */
static int put(struct sluice_i_ltag_switch *s, uint8_t from, uint8_t source,
	       const struct sluice_map_entry *e, uint64_t n, uint64_t *bad,
	       char *err, size_t errlen)
{
	uint32_t gen;
	int ret = 0;

	*bad = UINT64_MAX;
	if (from != source) {
		ret = sluice_nl_map_load(s->nl, NULL, 0, NULL, &gen, NULL,
					 NULL, err, errlen);
		if (!ret)
			ret = sluice_nl_switch_set(s->nl, source, err, errlen);
	}
	if (!ret)
		ret = sluice_nl_map_load(s->nl, e, n, NULL, &gen, NULL, bad,
					 err, errlen);
	return ret;
}

/* Prints which entry switch @s refused. */
static void refusal(struct sluice_i_say *say,
		    const struct sluice_i_ltag_switch *s, uint64_t bad,
		    const char *err)
{
	const struct sluice_maps_entry *e;
	uint64_t i;

	if (bad == UINT64_MAX || bad >= s->n) {
		sluice_i_say(say, "switch %s: tag tables: %s", s->name, err);
		return;
	}
	/* s->e is sorted: find the entry of s->m it came from */
	for (i = 0; i < s->m.n; i++) {
		e = &s->m.e[i];
		if (e->map == s->e[bad].map && e->tag == s->e[bad].tag &&
		    e->value == s->e[bad].value && e->flags == s->e[bad].flags)
			break;
	}
	if (i == s->m.n) {
		sluice_i_say(say, "switch %s: tag tables: %s", s->name, err);
		return;
	}
	sluice_i_say(say, "switch %s: tag tables: %s: \"%s %s %u %u\"",
		     s->name, err,
		     sluice_map_entry_kind(e->map, e->flags) ?: "?",
		     e->dev == SLUICE_DEV_ALL ? "*" : s->m.devs[e->dev], e->tag,
		     e->value);
}

/*
 * Every switch its tag source and maps; on a refusal, every switch
 * touched gets its old ones back (sluice_i_ltags_restore()).
 */
int sluice_i_ltags_apply(struct sluice_i_ltags *t)
{
	char err[SLUICE_ERRLEN];
	struct sluice_i_ltag_switch *s;
	uint64_t bad;
	uint32_t k;
	int ret;

	for (k = 0; k < t->n; k++) {
		s = &t->s[k];
		if (!s->nl || in_sync(t, s))
			continue;
		s->touched = true;
		ret = put(s, s->old_info.tag_source, t->source, s->e, s->n,
			  &bad, err, sizeof(err));
		if (!ret)
			continue;
		refusal(t->say, s, bad, err);
		return ret;
	}
	return 0;
}

/* Every switch touched gets its old tag source and maps back. */
bool sluice_i_ltags_restore(struct sluice_i_ltags *t)
{
	char err[SLUICE_ERRLEN];
	struct sluice_i_ltag_switch *s;
	bool ok = true;
	uint64_t bad;
	uint32_t k;

	for (k = 0; k < t->n; k++) {
		s = &t->s[k];
		if (!s->touched)
			continue;
		/* from a source that may or may not have been set */
		if (put(s, (uint8_t)~s->old_info.tag_source,
			s->old_info.tag_source, s->old.e, s->old.n, &bad, err,
			sizeof(err))) {
			sluice_i_say(t->say, "switch %s: could not restore its tag tables: %s",
				     s->name, err);
			ok = false;
		}
		s->touched = false;
	}
	return ok;
}

/* How many switches sluice_i_ltags_apply() changed. */
uint32_t sluice_i_ltags_changed(const struct sluice_i_ltags *t)
{
	uint32_t k, n = 0;

	for (k = 0; k < t->n; k++)
		n += t->s[k].touched;
	return n;
}

/* How switch @k's tables differ from what it should hold, into @sw. */
void sluice_i_ltags_compare(const struct sluice_i_ltags *t, uint32_t k,
			   struct sluice_fabric_load_switch *sw)
{
	const struct sluice_i_ltag_switch *s = &t->s[k];
	uint64_t i = 0, j = 0, missing = 0, extra = 0;
	int c;

	if (!s->nl)
		return;
	while (i < s->n || j < s->old.n) {
		c = i == s->n ? 1 : j == s->old.n ? -1 :
		    entry_cmp(&s->e[i], &s->old.e[j]);
		missing += c < 0;
		extra += c > 0;
		i += c <= 0;
		j += c >= 0;
	}
	sw->tags = true;
	sw->tag_source = s->old_info.tag_source;
	sw->tag_source_want = t->source;
	sw->tag_entries = s->n;
	sw->tags_missing = missing;
	sw->tags_extra = extra;
	sw->tags_changed = s->touched;
}

void sluice_i_ltags_free(struct sluice_i_ltags *t)
{
	uint32_t k;

	for (k = 0; t->s && k < t->n; k++) {
		sluice_nl_close(t->s[k].nl);
		sluice_map_dump_free(&t->s[k].old);
		sluice_maps_free(&t->s[k].m);
		free(t->s[k].e);
	}
	free(t->s);
	if (t->has_own)
		sluice_tagger_tables_free(&t->own);
	memset(t, 0, sizeof(*t));
}
