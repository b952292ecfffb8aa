// SPDX-License-Identifier: GPL-2.0
/*
 * Tagger's three maps (uapi: "Tagger's switch model") as one immutable
 * table.  A load builds a new table beside the current one and the switch
 * swaps it in under RCU; a frame looks the table up once, so it never sees
 * entries of two loads, nor the maps of one with the tag source of another.
 *
 * A table is one kvmalloc'd block:
 *
 *   struct sluice_tagmap
 *   ports[]    every ifindex the entries name, ascending, so ifindex 0
 *              (every port) comes first; each points at one array per kind
 *              of entry (in, eg keyed by the in port, eg keyed by the out
 *              port, tag), indexed by the tag, SLUICE_TAGMAP_NONE where
 *              there is no entry
 *   hash[]     open addressing on the ifindex, linear probing, at most half
 *              full: the port's index + 1, 0 for a free slot; ifindex 0 is
 *              not in it, the table points at that port directly
 *   entries[]  every entry in dump order (port, kind, tag), which is what
 *              MAP_GET returns and what a new tag source is checked against
 *   arrays     one per (port, kind) that has entries, as many bytes as the
 *              source has tags; the first is all NONE and stands in for
 *              every array a port lacks, so lookups never test for one
 *
 * A frame costs two hash probes (its out and in port) and at most seven
 * array reads.  A port costs sizeof(struct tagmap_port) (48 bytes on 64
 * bits), four to eight bytes of hash, eight bytes per entry and, per kind
 * it has entries of, an array of 8 (PCP, MPLS TC), 33 (label stack
 * depth), 64 (DSCP) or 256 (TTL) bytes.  A port with every entry a DSCP
 * source allows (256) takes about 2.4 KiB, one with every entry of a TTL
 * source (768, no tag map) 6.9 KiB.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stringify.h>

#include "sluice.h"

enum {
	KIND_IN,	/* in map */
	KIND_EG,	/* eg map, keyed by the in port */
	KIND_EG_OUT,	/* eg map, keyed by the out port */
	KIND_TAG,	/* tag map */
	NR_KINDS,
};

struct tagmap_port {
	u32		ifindex;
	u32		first;		/* its entries in entries[] */
	u32		count;
	u8		*map[NR_KINDS];
};

struct sluice_tagmap {
	struct rcu_head			rcu;
	u8				source;
	unsigned int			values;	/* tags of the source */
	struct sluice_map_counts	counts;
	unsigned int			hash_bits;
	unsigned int			hash_mask;
	const struct tagmap_port	*any;	/* ifindex 0, or &empty */
	struct tagmap_port		*ports;	/* counts.ports of them */
	u16				*hash;
	struct sluice_map_entry		*entries;
	struct tagmap_port		empty;	/* every lookup misses */
};

static unsigned int sluice_entry_kind(const struct sluice_map_entry *e)
{
	switch (e->map) {
	case SLUICE_MAP_IN:
		return KIND_IN;
	case SLUICE_MAP_EG:
		return e->flags & SLUICE_MAP_F_OUT_PORT ? KIND_EG_OUT : KIND_EG;
	default:
		return KIND_TAG;
	}
}

/* Dump order: by port, then kind, then tag; equal keys are duplicates. */
static u64 sluice_entry_key(const struct sluice_map_entry *e)
{
	return (u64)e->ifindex << 16 | sluice_entry_kind(e) << 8 | e->tag;
}

static int sluice_entry_cmp(const void *a, const void *b)
{
	u64 ka = sluice_entry_key(a), kb = sluice_entry_key(b);

	return ka < kb ? -1 : ka > kb;
}

/* Sources whose tags the switch never rewrites: no tag entries. */
static bool sluice_source_no_retag(u8 source)
{
	return source == SLUICE_TAG_SOURCE_IP_TTL ||
	       source == SLUICE_TAG_SOURCE_MPLS_TTL ||
	       source == SLUICE_TAG_SOURCE_MPLS_DEPTH;
}

/* Tag values of a source; with no source, any byte. */
static unsigned int sluice_source_values(u8 source)
{
	switch (source) {
	case SLUICE_TAG_SOURCE_DSCP:
		return TC_SLUICE_DSCP_VALUES;
	case SLUICE_TAG_SOURCE_MPLS_TC:
		return TC_SLUICE_MPLS_TC_VALUES;
	case SLUICE_TAG_SOURCE_PCP:
		return TC_SLUICE_PCP_VALUES;
	case SLUICE_TAG_SOURCE_MPLS_DEPTH:
		return SLUICE_MPLS_DEPTH_VALUES;
	default:
		return SLUICE_TAG_VALUES;
	}
}

/*
 * Linux 6.1's extack holds a pointer to a constant message and one to the
 * attribute at fault (the ack carries its offset): the message says what
 * is wrong, the attribute which entry.  @bad points into the request's array (genl.c turns it into
 * the request's MAP_ENTRY attribute), or is NULL for an entry of the
 * current table, which the request did not send.
 */
#define ENTRY_MSG(msg)	KBUILD_MODNAME ": map entry: " msg
#define TOO_MANY_PORTS	\
	ENTRY_MSG("more than " __stringify(SLUICE_MAP_MAX_PORTS) " ports")

static void sluice_entry_err(struct netlink_ext_ack *extack,
			     const struct sluice_map_entry *bad, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	/* Not an attribute yet: genl.c swaps it for one or clears it. */
	extack->bad_attr = (const struct nlattr *)bad;
}

/* What is wrong with an entry on its own under @source, or NULL. */
static const char *sluice_entry_problem(const struct sluice_map_entry *e, u8 source)
{
	unsigned int values = sluice_source_values(source);

	if (e->map > SLUICE_MAP_MAX)
		return ENTRY_MSG("unknown map");
	if (e->flags & ~SLUICE_MAP_F_OUT_PORT)
		return ENTRY_MSG("unknown flag");
	if (e->flags && e->map != SLUICE_MAP_EG)
		return ENTRY_MSG("only eg entries take flags");
	if (e->flags && !e->ifindex)
		return ENTRY_MSG("out-port entries name one port");
	if (e->tag >= values)
		return ENTRY_MSG("tag beyond the tag source's range");
	switch (e->map) {
	case SLUICE_MAP_IN:
		if (e->value >= SLUICE_NR_PRIOS)
			return ENTRY_MSG("priority above 7");
		break;
	case SLUICE_MAP_EG:
		if (e->value >= TC_SLUICE_MAX_CLASSES)
			return ENTRY_MSG("class above 31");
		break;
	case SLUICE_MAP_TAG:
		if (source == SLUICE_TAG_SOURCE_MPLS_DEPTH)
			return ENTRY_MSG("the label stack depth takes no tag entries");
		if (sluice_source_no_retag(source))
			return ENTRY_MSG("a TTL tag source takes no tag entries");
		if (e->value >= values)
			return ENTRY_MSG("new tag beyond the tag source's range");
		break;
	}
	return NULL;
}

/* The first entry of e[] with the key of @key, and the one after it. */
static void sluice_find_pair(const struct sluice_map_entry *e, unsigned int n,
			     const struct sluice_map_entry *key, int *first,
		      int *second)
{
	u64 k = sluice_entry_key(key);
	unsigned int i;

	*first = -1;
	*second = -1;
	for (i = 0; i < n; i++) {
		if (sluice_entry_key(&e[i]) != k)
			continue;
		if (*first < 0) {
			*first = i;
		} else {
			*second = i;
			return;
		}
	}
}

/* The size of a table's parts, counted over its sorted entries. */
struct tagmap_size {
	unsigned int	ports;
	unsigned int	arrays;
	unsigned int	hash_bits;
	size_t		ports_off, hash_off, entries_off, arrays_off, total;
};

/*
 * Counts ports and arrays of sorted entries, rejecting duplicate keys and
 * too many ports.  @orig, the entries as the request gave them, only
 * serves to point the error at one of them (NULL: entries of a table).
 */
static int sluice_tagmap_measure(struct tagmap_size *sz,
				 const struct sluice_map_entry *e, unsigned int n,
			  u8 source, const struct sluice_map_entry *orig,
			  struct netlink_ext_ack *extack)
{
	unsigned int i, values = sluice_source_values(source);
	int first, second;

	memset(sz, 0, sizeof(*sz));
	for (i = 0; i < n; i++) {
		if (i && sluice_entry_key(&e[i]) == sluice_entry_key(&e[i - 1])) {
			if (orig)
				sluice_find_pair(orig, n, &e[i], &first, &second);
			sluice_entry_err(extack, orig ? &orig[second] : NULL,
					 ENTRY_MSG("duplicate of an earlier entry"));
			return -EINVAL;
		}
		if (!i || e[i].ifindex != e[i - 1].ifindex) {
			if (++sz->ports > SLUICE_MAP_MAX_PORTS) {
				if (orig)
					sluice_find_pair(orig, n, &e[i], &first, &second);
				sluice_entry_err(extack, orig ? &orig[first] : NULL,
						 TOO_MANY_PORTS);
				return -E2BIG;
			}
			sz->arrays++;
		} else if (sluice_entry_kind(&e[i]) != sluice_entry_kind(&e[i - 1])) {
			sz->arrays++;
		}
	}
	/* With no source, nothing is looked up: the arrays stay out. */
	if (source == SLUICE_TAG_SOURCE_NONE)
		sz->arrays = 0;

	sz->hash_bits = max_t(unsigned int, 1, order_base_2(2 * sz->ports));
	sz->ports_off = ALIGN(sizeof(struct sluice_tagmap),
			      __alignof__(struct tagmap_port));
	sz->hash_off = sz->ports_off +
		       (size_t)sz->ports * sizeof(struct tagmap_port);
	sz->entries_off = ALIGN(sz->hash_off +
				(sizeof(u16) << sz->hash_bits),
				__alignof__(struct sluice_map_entry));
	sz->arrays_off = sz->entries_off +
			 (size_t)n * sizeof(struct sluice_map_entry);
	sz->total = sz->arrays_off + (size_t)(sz->arrays + 1) * values;
	return 0;
}

static void sluice_port_hash(struct sluice_tagmap *map, unsigned int idx)
{
	unsigned int slot = hash_32(map->ports[idx].ifindex, map->hash_bits);

	while (map->hash[slot])
		slot = (slot + 1) & map->hash_mask;
	map->hash[slot] = idx + 1;
}

static void sluice_port_init(struct tagmap_port *p, u32 ifindex, u32 first,
			     u8 *none)
{
	unsigned int k;

	p->ifindex = ifindex;
	p->first = first;
	p->count = 0;
	for (k = 0; k < NR_KINDS; k++)
		p->map[k] = none;
}

/* Lays the table out from valid, sorted entries measured by @sz. */
static void sluice_tagmap_fill(struct sluice_tagmap *map,
			       const struct tagmap_size *sz, u8 source,
			const struct sluice_map_entry *e, unsigned int n)
{
	u8 *none, *next;
	struct tagmap_port *p = NULL;
	unsigned int i, kind;

	map->source = source;
	map->values = sluice_source_values(source);
	map->hash_bits = sz->hash_bits;
	map->hash_mask = (1U << sz->hash_bits) - 1;
	map->ports = (void *)map + sz->ports_off;
	map->hash = (void *)map + sz->hash_off;
	map->entries = (void *)map + sz->entries_off;
	none = (u8 *)map + sz->arrays_off;
	next = none + map->values;
	memset(none, SLUICE_TAGMAP_NONE, (size_t)(sz->arrays + 1) * map->values);
	sluice_port_init(&map->empty, 0, 0, none);
	map->any = &map->empty;
	if (n)
		memcpy(map->entries, e, n * sizeof(*e));

	for (i = 0; i < n; i++) {
		kind = sluice_entry_kind(&e[i]);
		if (!p || e[i].ifindex != p->ifindex) {
			p = p ? p + 1 : map->ports;
			sluice_port_init(p, e[i].ifindex, i, none);
		}
		p->count++;
		switch (e[i].map) {
		case SLUICE_MAP_IN:
			map->counts.in++;
			break;
		case SLUICE_MAP_EG:
			map->counts.eg++;
			break;
		default:
			map->counts.tag++;
			break;
		}
		if (!sz->arrays)
			continue;
		if (p->map[kind] == none) {
			p->map[kind] = next;
			next += map->values;
		}
		p->map[kind][e[i].tag] = e[i].value;
	}

	map->counts.ports = sz->ports;
	for (i = 0; i < sz->ports; i++) {
		if (map->ports[i].ifindex)
			sluice_port_hash(map, i);
		else
			map->any = &map->ports[i];
	}
}

/* A table of @n sorted entries, each valid on its own under @source. */
static struct sluice_tagmap *sluice_tagmap_create(u8 source,
						  const struct sluice_map_entry *e,
					   unsigned int n,
					   const struct sluice_map_entry *orig,
					   struct netlink_ext_ack *extack)
{
	struct sluice_tagmap *map;
	struct tagmap_size sz;
	int err;

	err = sluice_tagmap_measure(&sz, e, n, source, orig, extack);
	if (err)
		return ERR_PTR(err);
	map = kvzalloc(sz.total, GFP_KERNEL_ACCOUNT);
	if (!map) {
		SLUICE_ERR(extack, NULL, "no memory for the maps");
		return ERR_PTR(-ENOMEM);
	}
	sluice_tagmap_fill(map, &sz, source, e, n);
	return map;
}

/* Whether @ifindex names a device of @net (ifindex 0: every port). */
static bool sluice_port_exists(struct net *net, u32 ifindex)
{
	bool found;

	if (!ifindex)
		return true;
	if (ifindex > INT_MAX)
		return false;
	rcu_read_lock();
	found = dev_get_by_index_rcu(net, ifindex);
	rcu_read_unlock();
	return found;
}

struct sluice_tagmap *sluice_tagmap_build(struct net *net, u8 source,
					  const struct sluice_map_entry *e,
					  unsigned int n,
					  struct netlink_ext_ack *extack)
{
	struct sluice_map_entry *sorted;
	struct sluice_tagmap *map;
	const char *why;
	unsigned int i;

	if (source > SLUICE_TAG_SOURCE_MAX) {
		SLUICE_ERR(extack, NULL, "unknown tag source");
		return ERR_PTR(-EINVAL);
	}
	for (i = 0; i < n; i++) {
		why = sluice_entry_problem(&e[i], source);
		if (!why && !sluice_port_exists(net, e[i].ifindex))
			why = ENTRY_MSG("no such device in the namespace");
		if (why) {
			sluice_entry_err(extack, &e[i], why);
			return ERR_PTR(-EINVAL);
		}
	}
	if (!n)
		return sluice_tagmap_create(source, NULL, 0, NULL, extack);

	sorted = kvmalloc_array(n, sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!sorted) {
		SLUICE_ERR(extack, NULL, "no memory for the maps");
		return ERR_PTR(-ENOMEM);
	}
	memcpy(sorted, e, n * sizeof(*e));
	sort(sorted, n, sizeof(*sorted), sluice_entry_cmp, NULL);
	map = sluice_tagmap_create(source, sorted, n, e, extack);
	kvfree(sorted);
	return map;
}

struct sluice_tagmap *sluice_tagmap_with_source(const struct sluice_tagmap *old,
						u8 source,
						struct netlink_ext_ack *extack)
{
	unsigned int i, n = old->counts.in + old->counts.eg + old->counts.tag;
	const char *why;

	if (source > SLUICE_TAG_SOURCE_MAX) {
		SLUICE_ERR(extack, NULL, "unknown tag source");
		return ERR_PTR(-EINVAL);
	}
	for (i = 0; i < n; i++) {
		why = sluice_entry_problem(&old->entries[i], source);
		if (why) {
			sluice_entry_err(extack, NULL, why);
			return ERR_PTR(-EINVAL);
		}
	}
	return sluice_tagmap_create(source, old->entries, n, NULL, extack);
}

struct sluice_tagmap *sluice_tagmap_without_port(const struct sluice_tagmap *old,
						 int ifindex)
{
	unsigned int i, m = 0, n = old->counts.in + old->counts.eg +
				   old->counts.tag;
	struct sluice_map_entry *e;
	struct sluice_tagmap *map;

	for (i = 0; i < n && old->entries[i].ifindex != ifindex; i++)
		;
	if (i == n)
		return NULL;
	e = kvmalloc_array(n, sizeof(*e), GFP_KERNEL);
	if (!e)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < n; i++)
		if (old->entries[i].ifindex != ifindex)
			e[m++] = old->entries[i];
	/* Still sorted, and checked when they were loaded. */
	map = sluice_tagmap_create(old->source, m ? e : NULL, m, NULL, NULL);
	kvfree(e);
	return map;
}

void sluice_tagmap_free(struct sluice_tagmap *map)
{
	if (map)
		kvfree_rcu(map, rcu);
}

u8 sluice_tagmap_source(const struct sluice_tagmap *map)
{
	return map->source;
}

void sluice_tagmap_counts(const struct sluice_tagmap *map,
			  struct sluice_map_counts *counts)
{
	*counts = map->counts;
}

int sluice_tagmap_port_entries(const struct sluice_tagmap *map,
			       unsigned int pos, int *ifindex,
			       struct sluice_map_entry *e, unsigned int max)
{
	const struct tagmap_port *p;
	unsigned int n;

	if (pos >= map->counts.ports)
		return -ENOENT;
	p = &map->ports[pos];
	n = min(p->count, max);
	*ifindex = p->ifindex;
	memcpy(e, &map->entries[p->first], n * sizeof(*e));
	return n;
}

/* The port's entries, or none (ifindex 0 is never in the hash). */
static const struct tagmap_port *sluice_port_find(const struct sluice_tagmap *map,
						  u32 ifindex)
{
	unsigned int slot = hash_32(ifindex, map->hash_bits);
	u16 idx;

	while ((idx = map->hash[slot])) {
		if (map->ports[idx - 1].ifindex == ifindex)
			return &map->ports[idx - 1];
		slot = (slot + 1) & map->hash_mask;
	}
	return &map->empty;
}

void sluice_tagmap_lookup(const struct sluice_tagmap *map, int out, int in,
			  unsigned int tag, struct sluice_tagmap_hit *hit)
{
	const struct tagmap_port *o, *i, *any = map->any;

	if (tag >= map->values) {
		hit->in = SLUICE_TAGMAP_NONE;
		hit->eg = SLUICE_TAGMAP_NONE;
		hit->tag = SLUICE_TAGMAP_NONE;
		return;
	}
	o = sluice_port_find(map, out);
	i = sluice_port_find(map, in);

	hit->in = i->map[KIND_IN][tag];
	if (hit->in == SLUICE_TAGMAP_NONE)
		hit->in = any->map[KIND_IN][tag];

	hit->eg = o->map[KIND_EG_OUT][tag];
	if (hit->eg == SLUICE_TAGMAP_NONE)
		hit->eg = i->map[KIND_EG][tag];
	if (hit->eg == SLUICE_TAGMAP_NONE)
		hit->eg = any->map[KIND_EG][tag];

	hit->tag = o->map[KIND_TAG][tag];
	if (hit->tag == SLUICE_TAGMAP_NONE)
		hit->tag = any->map[KIND_TAG][tag];
}
