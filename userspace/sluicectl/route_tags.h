/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tagger's tables loaded with a route set (route_tags.c): "route load
 * ROUTES --tags TAGFILE" gives each switch its node's tables as maps
 * through the "sluice" generic netlink family, all or nothing with the
 * routes.
 */
#ifndef _SLUICECTL_ROUTE_TAGS_H
#define _SLUICECTL_ROUTE_TAGS_H

#include <stdbool.h>
#include <stdint.h>
#include <sluice/route.h>
#include <sluice/switch.h>
#include <sluice/tagger.h>

/* One switch: what it held, what it should hold. */
struct rtag_switch {
	const char		*name;		/* for messages */
	struct sluice_nl	*nl;
	struct sluice_switch_info old_info;
	struct sluice_map_dump	old;
	struct sluice_maps	m;		/* wanted, devices by name */
	struct sluice_map_entry	*e;		/* wanted, by ifindex, sorted */
	uint64_t		n;
	bool			touched;	/* changed by rtags_apply() */
};

struct rtags {
	struct sluice_tagger_tables	tab;
	bool				has_tab;
	uint8_t				source;	/* enum sluice_tag_source */
	uint32_t			n;
	struct rtag_switch		*s;
};

int rtags_init(struct rtags *t, uint32_t n, const char *source);
int rtags_read(struct rtags *t, const char *path,
	       const struct sluice_graph *g, const struct sluice_routes *r);
int rtags_prepare(struct rtags *t, uint32_t k, const char *ns,
		  const char *name, const struct sluice_graph *g,
		  uint32_t node, bool quiet_absent);
int rtags_apply(struct rtags *t);
bool rtags_restore(struct rtags *t);
uint32_t rtags_changed(const struct rtags *t);
bool rtags_show(const struct rtags *t, uint32_t k, bool print);
void rtags_free(struct rtags *t);

#endif /* _SLUICECTL_ROUTE_TAGS_H */
