/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The loader's pieces (lib/fabric/load.c, load_tags.c; not installed):
 * its messages, and Tagger's tables loaded with the routes.
 */
#ifndef _SLUICE_LIB_FABRIC_LOAD_H
#define _SLUICE_LIB_FABRIC_LOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <sluice/fabric_load.h>
#include <sluice/switch.h>
#include <sluice/tagger.h>

/* Where a load's messages go: the options' callbacks, the first in @err. */
struct sluice_i_say {
	const struct sluice_fabric_load_opts	*o;
	char					*err;
	size_t					errlen;
	bool					said;
};

__attribute__((format(printf, 2, 3)))
void sluice_i_say(struct sluice_i_say *s, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
void sluice_i_warn(struct sluice_i_say *s, const char *fmt, ...);

/* One switch's tag tables: what it held, what it should hold. */
struct sluice_i_ltag_switch {
	const char		*name;		/* for messages */
	struct sluice_nl	*nl;
	struct sluice_switch_info old_info;
	struct sluice_map_dump	old;
	struct sluice_maps	m;		/* wanted, devices by name */
	struct sluice_map_entry	*e;		/* wanted, by ifindex, sorted */
	uint64_t		n;
	bool			touched;	/* changed by _apply() */
};

struct sluice_i_ltags {
	struct sluice_tagger_tables	own;		/* read from a file */
	bool				has_own;
	const struct sluice_tagger_tables *tab;		/* NULL: unloading */
	uint8_t				source;		/* sluice_tag_source */
	uint32_t			n;
	struct sluice_i_ltag_switch	*s;
	struct sluice_i_say		*say;
};

int sluice_i_ltags_init(struct sluice_i_ltags *t, uint32_t n, uint8_t source,
		       struct sluice_i_say *say);
int sluice_i_ltags_read(struct sluice_i_ltags *t, const char *path,
		       const struct sluice_graph *g,
		       const struct sluice_routes *r);
int sluice_i_ltags_prepare(struct sluice_i_ltags *t, uint32_t k, const char *ns,
			  const char *name, const struct sluice_graph *g,
			  uint32_t node, bool quiet_absent);
int sluice_i_ltags_apply(struct sluice_i_ltags *t);
bool sluice_i_ltags_restore(struct sluice_i_ltags *t);
uint32_t sluice_i_ltags_changed(const struct sluice_i_ltags *t);
void sluice_i_ltags_compare(const struct sluice_i_ltags *t, uint32_t k,
			   struct sluice_fabric_load_switch *sw);
void sluice_i_ltags_free(struct sluice_i_ltags *t);

#endif /* _SLUICE_LIB_FABRIC_LOAD_H */
