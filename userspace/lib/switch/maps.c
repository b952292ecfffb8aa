// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Maps by device name (sluice/switch.h): the tag sources' names, the
 * container, its duplicate check, and the map file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/switch.h>
#include "graph/internal.h"
#include "text.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define FORMAT		"sluice-maps"
#define VERSION		1

static const struct {
	const char	*name;
	unsigned int	values;
	bool		ttl;
} sources[] = {
	[SLUICE_TAG_SOURCE_NONE]	= { "none", SLUICE_TAG_VALUES, false },
	[SLUICE_TAG_SOURCE_IP_TTL]	= { "ip-ttl", 256, true },
	[SLUICE_TAG_SOURCE_MPLS_TTL]	= { "mpls-ttl", 256, true },
	[SLUICE_TAG_SOURCE_DSCP]	= { "dscp", 64, false },
	[SLUICE_TAG_SOURCE_MPLS_TC]	= { "mpls-tc", 8, false },
	[SLUICE_TAG_SOURCE_PCP]		= { "pcp", 8, false },
	[SLUICE_TAG_SOURCE_MPLS_DEPTH]	= { "mpls-depth",
					    SLUICE_MPLS_DEPTH_VALUES, false },
};

_Static_assert(sizeof(sources) / sizeof(sources[0]) == __SLUICE_TAG_SOURCE_MAX,
	       "every tag source needs a name");

/* The source's keyword, or NULL for one this library does not know. */
const char *sluice_tag_source_name(unsigned int source)
{
	return source < __SLUICE_TAG_SOURCE_MAX ? sources[source].name : NULL;
}

/* enum sluice_tag_source of a keyword, or -EINVAL. */
int sluice_tag_source_parse(const char *name)
{
	unsigned int i;

	for (i = 0; i < __SLUICE_TAG_SOURCE_MAX; i++)
		if (!strcmp(name, sources[i].name))
			return i;
	return -EINVAL;
}

/* How many tag values the source has (SLUICE_TAG_VALUES if unknown). */
unsigned int sluice_tag_source_values(unsigned int source)
{
	return source < __SLUICE_TAG_SOURCE_MAX ? sources[source].values :
						   SLUICE_TAG_VALUES;
}

bool sluice_tag_source_is_ttl(unsigned int source)
{
	return source < __SLUICE_TAG_SOURCE_MAX && sources[source].ttl;
}

/* The map file's word for an entry of @map with @flags; NULL if none. */
const char *sluice_map_entry_kind(uint8_t map, uint8_t flags)
{
	switch (map) {
	case SLUICE_MAP_IN:
		return flags ? NULL : "in";
	case SLUICE_MAP_EG:
		if (flags == SLUICE_MAP_F_OUT_PORT)
			return "eg-out";
		return flags ? NULL : "eg";
	case SLUICE_MAP_TAG:
		return flags ? NULL : "tag";
	}
	return NULL;
}

void sluice_maps_free(struct sluice_maps *m)
{
	free(m->devs);
	free(m->e);
	memset(m, 0, sizeof(*m));
}

/*
 * A name the kernel takes for a device (dev_valid_name()): 1 to 15 bytes,
 * not "." or "..", no '/', ':' or white space.
 */
bool sluice_ifname_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= SLUICE_IFNAMSIZ || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return false;
	return strcspn(name, "/: \t\n\v\f\r") == n;
}

/**
 * sluice_maps_dev() - the device number of @name in @m, added if new
 * @m:		the maps
 * @name:	a device name (sluice_ifname_ok())
 * @dev:	set to its index in m->devs
 *
 * Return: 0, -EINVAL (not a device name) or -ENOMEM.
 */
int sluice_maps_dev(struct sluice_maps *m, const char *name, uint32_t *dev)
{
	uint32_t d;

	if (!sluice_ifname_ok(name))
		return -EINVAL;
	for (d = 0; d < m->n_devs; d++)
		if (!strcmp(m->devs[d], name)) {
			*dev = d;
			return 0;
		}
	if (m->n_devs == SLUICE_DEV_ALL - 1 ||
	    SLUICE_I_GROW(m->devs, m->devs_cap, m->n_devs + 1ULL))
		return -ENOMEM;
	strcpy(m->devs[m->n_devs], name);
	*dev = m->n_devs++;
	return 0;
}

/* Appends an entry; 0 or -ENOMEM.  Amortized O(1). */
int sluice_maps_add(struct sluice_maps *m, uint32_t dev, uint8_t map,
		    uint8_t tag, uint8_t value, uint8_t flags)
{
	struct sluice_maps_entry *e;

	if (SLUICE_I_GROW(m->e, m->cap, m->n + 1))
		return -ENOMEM;
	e = &m->e[m->n++];
	e->dev = dev;
	e->map = map;
	e->tag = tag;
	e->value = value;
	e->flags = flags;
	return 0;
}

/* The key of an entry: what the kernel refuses twice. */
static uint64_t key_of(const struct sluice_maps_entry *e)
{
	return (uint64_t)e->map << 48 | (uint64_t)e->flags << 40 |
	       (uint64_t)e->dev << 8 | e->tag;
}

static int by_key(const void *a, const void *b, void *arg)
{
	const struct sluice_maps_entry *e = arg;
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	uint64_t kx = key_of(&e[x]), ky = key_of(&e[y]);

	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x < y ? -1 : x > y;
}

/**
 * sluice_maps_find_dup() - two entries with the same key
 * @m:		the maps
 * @first:	set to the index of the earlier of the two
 * @second:	and the later one, the first entry that repeats a key
 *
 * A key is the map, the flags (an eg entry keyed by the out port is not
 * the one keyed by the in port), the device and the tag.  Of all repeats,
 * the one whose second entry comes first is reported.
 *
 * Returns false (no duplicate) also when the memory is missing, as the
 * kernel checks again.
 *
 * Return: whether there is a duplicate.
 */
bool sluice_maps_find_dup(const struct sluice_maps *m, uint64_t *first,
			  uint64_t *second)
{
	uint64_t *idx = sluice_i_calloc(m->n, sizeof(*idx)), i;
	bool found = false;

	if (!idx)
		return false;
	for (i = 0; i < m->n; i++)
		idx[i] = i;
	qsort_r(idx, m->n, sizeof(*idx), by_key, m->e);
	for (i = 1; i < m->n; i++) {
		if (key_of(&m->e[idx[i - 1]]) != key_of(&m->e[idx[i]]))
			continue;
		if (!found || idx[i] < *second) {
			*first = idx[i - 1];
			*second = idx[i];
			found = true;
		}
	}
	free(idx);
	return found;
}

/**
 * sluice_maps_write() - the map file of @m
 * @m:		the maps
 * @f:		where to write
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * One line per entry, in the order of @m.
 *
 * Return: 0, -EINVAL (an entry no map file line can say) or -EIO.
 */
int sluice_maps_write(const struct sluice_maps *m, FILE *f, char *err,
		      size_t errlen)
{
	const struct sluice_maps_entry *e;
	const char *kind;
	uint64_t i;

	fprintf(f, "%s %d\n", FORMAT, VERSION);
	for (i = 0; i < m->n; i++) {
		e = &m->e[i];
		kind = sluice_map_entry_kind(e->map, e->flags);
		if (!kind || (e->dev != SLUICE_DEV_ALL && e->dev >= m->n_devs))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "entry %llu: map %u flags %#x device %u: not a map file entry",
					     (unsigned long long)i, e->map,
					     e->flags, e->dev);
		fprintf(f, "%s %s %u %u\n", kind,
			e->dev == SLUICE_DEV_ALL ? "*" : m->devs[e->dev],
			e->tag, e->value);
	}
	fputs("end\n", f);
	if (fflush(f) || ferror(f))
		return sluice_i_errf(err, errlen, -EIO, "cannot write: %s",
				     strerror(errno));
	return 0;
}

/* The next line that is neither blank nor a comment, or NULL. */
static const char *next_line(struct text_reader *rd)
{
	const char *s;

	while ((s = text_next(rd)))
		if (*s && *s != '#')
			return s;
	return NULL;
}

/* The kernel's bound on an eg entry's class, as the messages spell it. */
_Static_assert(TC_SLUICE_MAX_CLASSES == 32, "\"CLASS 0 to 31\" is out of date");

/* One entry line, after the header; adds the entry to @m. */
static int read_entry(struct text_reader *rd, struct sluice_maps *m,
		      const char *s)
{
	static const struct {
		const char	*word;
		uint8_t		map, flags;
		uint64_t	max;
		const char	*what;
	} kinds[] = {
		{ "in ", SLUICE_MAP_IN, 0, 7, "PRIO 0 to 7" },
		{ "eg-out ", SLUICE_MAP_EG, SLUICE_MAP_F_OUT_PORT,
		  TC_SLUICE_MAX_CLASSES - 1, "CLASS 0 to 31" },
		{ "eg ", SLUICE_MAP_EG, 0, TC_SLUICE_MAX_CLASSES - 1,
		  "CLASS 0 to 31" },
		{ "tag ", SLUICE_MAP_TAG, 0, 255, "NEWTAG 0 to 255" },
	};
	char name[SLUICE_ERRLEN];
	uint64_t tag, value;
	uint32_t dev;
	size_t k;
	int ret;

	for (k = 0; k < ARRAY_SIZE(kinds); k++)
		if (text_lit(&s, kinds[k].word))
			break;
	if (k == ARRAY_SIZE(kinds))
		return text_bad(rd, "expected \"in\", \"eg\", \"eg-out\" or \"tag\" and DEV TAG VALUE, or \"end\"");
	if (!text_word(&s, name, sizeof(name)))
		return text_bad(rd, "%sDEV TAG VALUE: no DEV", kinds[k].word);
	if (!strcmp(name, "*")) {
		dev = SLUICE_DEV_ALL;
	} else {
		ret = sluice_maps_dev(m, name, &dev);
		if (ret == -EINVAL)
			return text_bad(rd, "\"%s\" is not a device name (1 to %d characters, no '/', ':' or space) nor \"*\"",
					name, SLUICE_IFNAMSIZ - 1);
		if (ret)
			return ret;
	}
	if (!text_lit(&s, " ") || !text_u64(&s, 255, &tag))
		return text_bad(rd, "%s%s TAG ...: TAG must be 0 to 255",
				kinds[k].word, name);
	if (!text_lit(&s, " ") || !text_u64(&s, kinds[k].max, &value))
		return text_bad(rd, "%s%s %llu VALUE: VALUE must be %s",
				kinds[k].word, name, (unsigned long long)tag,
				kinds[k].what);
	if (*s)
		return text_bad(rd, "unexpected \"%.24s\" at the end of the line",
				s);
	return sluice_maps_add(m, dev, kinds[k].map, tag, value,
			       kinds[k].flags);
}

/**
 * sluice_maps_read() - maps from a map file
 * @m:		filled; free with sluice_maps_free(), even on an error
 * @f:		the file
 * @name:	its name, for messages
 * @err:	what is wrong, "NAME:LINE: ..."
 * @errlen:	room in @err
 *
 * Checks the syntax, the ranges that do not depend on the tag source and
 * that no key is given twice.
 *
 * Return: 0, -EINVAL (malformed) or -ENOMEM.
 */
int sluice_maps_read(struct sluice_maps *m, FILE *f, const char *name,
		     char *err, size_t errlen)
{
	struct text_reader rd = {
		.f = f, .name = name, .err = err, .errlen = errlen,
	};
	uint64_t *lines = NULL, cap = 0, version, a, b;
	const char *s;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	s = next_line(&rd);
	if (!s || !text_lit(&s, FORMAT " ") ||
	    !text_u64(&s, UINT64_MAX, &version) || *s)
		ret = text_bad(&rd, "not a map file: the first line must be \"%s %d\"",
			       FORMAT, VERSION);
	else if (version != VERSION)
		ret = text_bad(&rd, "version %llu: this sluicectl reads version %d",
			       (unsigned long long)version, VERSION);
	while (!ret) {
		s = next_line(&rd);
		if (!s) {
			ret = text_truncated(&rd, NULL);
			break;
		}
		if (!strcmp(s, "end"))
			break;
		ret = read_entry(&rd, m, s);
		if (!ret && SLUICE_I_GROW(lines, cap, m->n))
			ret = -ENOMEM;
		if (!ret)
			lines[m->n - 1] = rd.lineno;
	}
	if (!ret && next_line(&rd))
		ret = text_bad(&rd, "something after \"end\"");
	if (!ret && rd.ret)
		ret = rd.ret;
	if (!ret && sluice_maps_find_dup(m, &a, &b)) {
		/* the file was whole: the message is about line lines[b] */
		rd.eof = rd.partial = false;
		rd.lineno = lines[b];
		ret = text_bad(&rd, "%s %s %u: given twice (first on line %llu)",
			       sluice_map_entry_kind(m->e[b].map, m->e[b].flags),
			       m->e[b].dev == SLUICE_DEV_ALL ? "*" :
			       m->devs[m->e[b].dev], m->e[b].tag,
			       (unsigned long long)lines[a]);
	}
	if (ret == -ENOMEM)
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	free(lines);
	free(rd.line);
	if (ret)
		sluice_maps_free(m);
	return ret;
}
