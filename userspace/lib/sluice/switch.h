/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The switch of a network namespace (the uapi's "The switch and its generic
 * netlink family"): its three Tagger maps as data, as the map file, as
 * converted from a node's tag tables, and a client of the "sluice" generic
 * netlink family that reads and loads them.
 *
 * Maps by device name
 * -------------------
 * struct sluice_maps holds map entries that name their port by device
 * name, as a map file and a tag file do, not by ifindex: an ifindex only
 * means something inside one namespace, so names are resolved there, by
 * the caller (sluice_nl_ifindex()), just before a load.
 *
 * The map file ("sluicectl map show" prints it, "map load" reads it):
 *
 *	sluice-maps 1
 *	in DEV TAG PRIO		in map: (in port DEV, TAG) -> ingress PRIO
 *	eg DEV TAG CLASS	eg map keyed by the in port DEV
 *	eg-out DEV TAG CLASS	eg map keyed by the out port DEV
 *				(SLUICE_MAP_F_OUT_PORT)
 *	tag DEV TAG NEWTAG	tag map keyed by the out port DEV
 *	end
 *
 * DEV is a device name or "*" for every port (ifindex 0).  TAG and NEWTAG
 * are 0..255 (the tag source bounds them further: the kernel says so),
 * PRIO 0..7, CLASS 0..31.  Input may hold blank lines and lines starting
 * with '#'; anything else is strict (one space between fields, decimal
 * numbers without sign or leading zeros, each key once, "end" last) and
 * errors name the file and line.
 *
 * Tag tables to maps
 * ------------------
 * A node's tag tables (sluice/tagger.h) key entries by link id or "host";
 * sluice_switch_convert() turns them into maps for the node's switch: link
 * L is a device given by the caller or else "l<L>" (the fabric
 * convention), "host" is every host device the caller lists.  An ingress
 * entry (P, t) -> p becomes in entries, an egress entry (P, t) -> (c, t')
 * an eg entry keyed by the out port and a tag entry.  Under a TTL tag
 * source a tag t is the TTL initial_ttl - t (a host sends tag 0 with the
 * initial TTL, each routed hop takes one off, which is the t -> t + 1 of
 * the tables), and the switch writes no tag: see sluice_switch_convert().
 *
 * Functions that fail return a negative errno with a message in @err
 * (SLUICE_ERRLEN bytes are enough).
 */
#ifndef _SLUICE_SWITCH_H
#define _SLUICE_SWITCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/sluice.h>
#include <sluice/graph.h>
#include <sluice/tagger.h>

/* A device name with its NUL (IFNAMSIZ). */
#define SLUICE_IFNAMSIZ		16
/* The device of struct sluice_maps_entry that means every port ("*"). */
#define SLUICE_DEV_ALL		UINT32_MAX
/* TTL tag sources: the TTL a host sends frames with, unless told. */
#define SLUICE_INITIAL_TTL	64

const char *sluice_tag_source_name(unsigned int source);
int sluice_tag_source_parse(const char *name);
unsigned int sluice_tag_source_values(unsigned int source);
bool sluice_tag_source_is_ttl(unsigned int source);
/* "in", "eg", "eg-out" or "tag": the map file's word for an entry. */
const char *sluice_map_entry_kind(uint8_t map, uint8_t flags);

/* A map entry whose port is a device of struct sluice_maps. */
struct sluice_maps_entry {
	uint32_t	dev;	/* index in devs[], or SLUICE_DEV_ALL */
	uint8_t		map;	/* enum sluice_map */
	uint8_t		tag;
	uint8_t		value;
	uint8_t		flags;	/* SLUICE_MAP_F_* */
};

struct sluice_maps {
	uint32_t		n_devs;
	char			(*devs)[SLUICE_IFNAMSIZ];
	uint64_t		n;
	struct sluice_maps_entry *e;
	/* room */
	uint64_t		devs_cap, cap;
};

void sluice_maps_free(struct sluice_maps *m);
/* Time: O(devices) (a switch has tens of ports). */
int sluice_maps_dev(struct sluice_maps *m, const char *name, uint32_t *dev);
int sluice_maps_add(struct sluice_maps *m, uint32_t dev, uint8_t map,
		    uint8_t tag, uint8_t value, uint8_t flags);
/* Time: O(n log n); O(n) memory. */
bool sluice_maps_find_dup(const struct sluice_maps *m, uint64_t *first,
			  uint64_t *second);
bool sluice_ifname_ok(const char *name);

/* Time: O(entries). */
int sluice_maps_write(const struct sluice_maps *m, FILE *f, char *err,
		      size_t errlen);
/* Time: O(n log n) for n entries. */
int sluice_maps_read(struct sluice_maps *m, FILE *f, const char *name,
		     char *err, size_t errlen);

/*
 * One node's tag tables and its ports, all a switch needs: from tables
 * and their topology (sluice_switch_node_of()) or from a tag file alone
 * (sluice_switch_read_tags()).  Entries are sorted as in the tag file.
 */
struct sluice_switch_node {
	char			name[SLUICE_NAME_MAX];
	enum sluice_tagger_mode	mode;
	uint32_t		hosts;
	uint32_t		n_links;
	uint32_t		*links;		/* link ids of its ports */
	uint64_t		n_in, n_out;
	struct sluice_tagger_in	*in;
	struct sluice_tagger_out *out;
};

void sluice_switch_node_free(struct sluice_switch_node *node);
/* Time: O(degree + entries of @v). */
int sluice_switch_node_of(const struct sluice_tagger_tables *tab,
			  const struct sluice_graph *g, uint32_t v,
			  struct sluice_switch_node *node,
			  char *err, size_t errlen);
/* Time: O(lines + ports^2 of a section); memory for the node kept. */
int sluice_switch_read_tags(struct sluice_switch_node *node, FILE *f,
			    const char *name, const char *only,
			    char *err, size_t errlen);

/* A device for a link, overriding "l<LINK>". */
struct sluice_port_dev {
	uint32_t	link;
	char		dev[SLUICE_IFNAMSIZ];
};

struct sluice_convert_opts {
	unsigned int			source;	/* enum sluice_tag_source */
	/* TTL sources: the TTL of tag 0; 0 means SLUICE_INITIAL_TTL */
	uint32_t			initial_ttl;
	const struct sluice_port_dev	*ports;
	uint32_t			n_ports;
	/* the devices of "host" */
	const char *const		*hosts;
	uint32_t			n_hosts;
};

/* Time: O(overrides). */
void sluice_switch_link_dev(const struct sluice_convert_opts *o,
			    uint32_t link, char dev[SLUICE_IFNAMSIZ]);
/*
 * Time: O((entries + overrides) * (links + hosts) + n log n) for the n entries
 * made.
 */
int sluice_switch_convert(const struct sluice_switch_node *node,
			  const struct sluice_convert_opts *o,
			  struct sluice_maps *m, char *err, size_t errlen);

/*
 * The "sluice" generic netlink family (lib/switch/nl.c).  A struct
 * sluice_nl is a connection to the switch of one namespace.
 */
struct sluice_nl;

/* SWITCH_GET's reply. */
struct sluice_switch_info {
	uint8_t				tag_source;
	uint32_t			generation;
	struct sluice_map_counts	counts;
	uint32_t			ports;
	struct sluice_switch_stats	stats;
};

/* MAP_GET's dump: the entries of every port, by ifindex. */
struct sluice_map_dump {
	uint32_t		generation;
	uint64_t		n;
	struct sluice_map_entry	*e;
	uint64_t		cap;
};

/* One port of STATS_GET's dump. */
struct sluice_port_info {
	uint32_t			ifindex;
	char				ifname[SLUICE_IFNAMSIZ];
	struct sluice_port_stats	port;
	uint32_t			n_prio;
	struct sluice_prio_stats	prio[TC_SLUICE_MAX_CLASSES];
};

/* A notification of the "events" group. */
struct sluice_nl_event {
	uint8_t				event;	/* enum sluice_event */
	/* what the event carried (the has_* say which) */
	bool				has_tag_source, has_generation;
	bool				has_counts, has_ifindex, has_ifname;
	uint8_t				tag_source;
	uint32_t			generation;
	struct sluice_map_counts	counts;
	uint32_t			ifindex;
	char				ifname[SLUICE_IFNAMSIZ];
	/* the PFC watchdog's STORM and RESTORED */
	bool				has_prio, has_wd_action, has_prio_stats;
	uint8_t				prio;
	uint8_t				wd_action;	/* enum tc_sluice_wd_action */
	struct sluice_prio_stats	prio_stats;
};

/* An event of this kind, made up by the client: events were dropped. */
#define SLUICE_EVENT_LOST	0xff

int sluice_nl_open(struct sluice_nl **nl, const char *netns, char *err,
		   size_t errlen);
void sluice_nl_close(struct sluice_nl *nl);
int sluice_nl_ifindex(struct sluice_nl *nl, const char *name,
		      uint32_t *ifindex);
int sluice_nl_ifname(struct sluice_nl *nl, uint32_t ifindex,
		     char name[SLUICE_IFNAMSIZ]);

int sluice_nl_switch_get(struct sluice_nl *nl, struct sluice_switch_info *si,
			 char *err, size_t errlen);
int sluice_nl_switch_set(struct sluice_nl *nl, uint8_t tag_source,
			 char *err, size_t errlen);
int sluice_nl_map_load(struct sluice_nl *nl, const struct sluice_map_entry *e,
		       uint64_t n, const uint32_t *generation,
		       uint32_t *new_generation,
		       struct sluice_map_counts *counts, uint64_t *bad,
		       char *err, size_t errlen);
int sluice_nl_map_get(struct sluice_nl *nl, struct sluice_map_dump *d,
		      char *err, size_t errlen);
void sluice_map_dump_free(struct sluice_map_dump *d);
int sluice_nl_map_flush(struct sluice_nl *nl, char *err, size_t errlen);
int sluice_nl_stats_get(struct sluice_nl *nl, uint32_t ifindex,
			struct sluice_port_info **ports, uint32_t *n,
			char *err, size_t errlen);
int sluice_nl_subscribe(struct sluice_nl *nl, char *err, size_t errlen);
int sluice_nl_events(struct sluice_nl *nl, int timeout_ms,
		     int (*fn)(const struct sluice_nl_event *ev, void *arg),
		     void *arg, char *err, size_t errlen);

#endif /* _SLUICE_SWITCH_H */
