/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A route set loaded into switches, all or nothing (lib/fabric/load.c,
 * load_tags.c): what "sluicectl route load", "route unload", "route show"
 * and every experiment go through.
 *
 * Each switch gets its share of the routes as MPLS label routes and
 * multipath IPv4 routes (sluice/fabric.h), and for a set of several lanes
 * a table of routes and a rule per lane: every switch of a fabric of this
 * machine (its saved state, sluice/fabric_state.h), one of them, or one
 * switch outside a fabric (a topology's node in a namespace, its ports
 * named l<LINK> and addressed as a fabric's are).
 *
 * Loading checks everything first - the request against the fabric (its
 * flow control, lanes and multipath mode), every switch's namespace and
 * devices, every path's label stack, the tag tables against the topology
 * and the routes, the ports' qdiscs - and changes nothing if anything is
 * wrong.  Then, in this order, each step put back if a later one fails:
 *
 *   1. with a new multipath mode, the fabric's state, then every switch's
 *      hash sysctls;
 *   2. with qdisc options, every switch port's sluice qdisc (the kernel
 *      refuses options it cannot check here);
 *   3. with tag tables, every switch's tag source and maps (through the
 *      "sluice" generic netlink family; when the source changes the maps
 *      are emptied first, as the kernel refuses a source an entry does not
 *      fit);
 *   4. every switch's routes: the difference between what it holds and
 *      what it should (only routes of sluice's own protocol are touched),
 *      so that loading a set twice changes nothing.
 *
 * If the kernel refuses anything, that switch is restored at once and the
 * switches already changed are put back too: the fabric is as before, and
 * the refused route, entry or port is named.  Unloading empties each
 * switch of sluice's routes, empties its maps and sets its tag source to
 * none, all or nothing the same way.
 *
 * Messages come a line at a time through the options' @say (the refusal,
 * what was put back and what could not be, "nothing loaded") and @warn;
 * the first refusal is in @err too.  No message ends in a newline, and
 * none names the program.
 */
#ifndef _SLUICE_FABRIC_LOAD_H
#define _SLUICE_FABRIC_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include <sluice/fabric_state.h>
#include <sluice/graph.h>
#include <sluice/route.h>
#include <sluice/tagger.h>

enum sluice_fabric_load_action {
	SLUICE_FABRIC_LOAD,		/* the routes (tags, options, mode) in */
	SLUICE_FABRIC_UNLOAD,		/* sluice's routes and tag tables out */
	SLUICE_FABRIC_COMPARE,		/* nothing changes: what differs */
};

struct sluice_fabric_load_opts {
	enum sluice_fabric_load_action	action;
	/*
	 * A fabric of this machine, its state read: its switches in their
	 * namespaces.  A load in another multipath mode writes the state
	 * back with it (and leaves @state holding it).  NULL: one switch
	 * outside a fabric, @g's node @switch_name in namespace @netns, or
	 * (@g NULL, unloading only) the switch of namespace @netns, no
	 * topology's.
	 */
	struct sluice_fabric_state	*state;
	const struct sluice_graph	*g;
	const char			*topo_name;	/* @g's, for messages */
	/* one switch by its node's name; NULL: every switch of @state */
	const char			*switch_name;
	const char			*netns;		/* NULL or "": this one */
	/* LOAD and COMPARE: the routes, of @state's topology or @g */
	const struct sluice_routes	*routes;
	const char			*routes_name;	/* for messages */
	/*
	 * LOAD into @state: load in mode @multipath (sluice/multipath.h)
	 * and make it the fabric's; else the routes follow the fabric's
	 * own mode.
	 */
	bool				set_multipath;
	uint8_t				multipath;
	/*
	 * LOAD and COMPARE: Tagger's tables, read from @tags_path (made by
	 * "sluicectl tag compute" for the same topology and routes: both
	 * hashes are checked) or given in memory (@tags), with the tag
	 * source they are for (enum sluice_tag_source, not NONE).  Neither:
	 * the switches' tag tables are left alone (UNLOAD empties them).
	 */
	const char			*tags_path;
	const struct sluice_tagger_tables *tags;
	uint8_t				tag_source;
	/*
	 * LOAD: every switch port's sluice qdisc gets @qdisc's link options
	 * (a port l<LINK>) or host options (h<I>), @qdisc_limit if a limit
	 * is among them (the old options are put back with their limit
	 * then); NULL: the qdiscs are left alone.  Refused on a fabric whose
	 * flow control or node rates chose its options.
	 */
	const struct sluice_fabric_qdisc *qdisc;
	bool				qdisc_limit;
	/* Each message, a line; NULL: none. */
	void				(*say)(void *arg, const char *line);
	/* Each warning (loaded all the same), a line; NULL: none. */
	void				(*warn)(void *arg, const char *line);
	void				*say_arg;
};

/* One switch: what it should hold, what it held, what changed. */
struct sluice_fabric_load_switch {
	/* its node's name, else its namespace, else "this namespace" */
	char			name[SLUICE_NETNS_NAME_MAX];
	uint32_t		node;		/* or SLUICE_NONE */
	char			ns[SLUICE_NETNS_NAME_MAX];	/* "": here */
	struct sluice_lroutes	want, have;
	struct sluice_ldiff	d;		/* have -> want */
	uint32_t		qdisc_ports;	/* the ports given options */
	/* the tag tables, when given or unloading and the switch answered */
	bool			tags;
	uint8_t			tag_source;	/* held */
	uint8_t			tag_source_want;
	uint64_t		tag_entries;	/* map entries wanted */
	uint64_t		tags_missing, tags_extra;
	bool			tags_changed;	/* the load changed them */
};

struct sluice_fabric_load_result {
	uint32_t			n;
	struct sluice_fabric_load_switch *sw;
	/* over the switches */
	uint64_t			routes;		/* wanted */
	uint64_t			added, replaced, deleted, unchanged;
	uint32_t			qdisc_ports;
	uint32_t			qdisc_changed;	/* options now differ */
	uint32_t			tags_changed;	/* switches */
	/* a fabric's multipath mode before and after */
	uint8_t				old_multipath, multipath;
	/*
	 * On failure: the request does not fit the fabric or the options
	 * contradict each other (a usage error; nothing was changed or
	 * asked of the kernel), rather than a system's refusal.
	 */
	bool				refused;
};

/*
 * sluice_fabric_routes_load() - load, unload or compare a route set
 * @o:		what, where, and how to say what happens
 * @res:	what each switch should hold, held and how it changed;
 *		sluice_fabric_load_result_free() it, also after a failure
 * @err:	the first refusal
 * @errlen:	room in @err
 *
 * See the top of this file.  COMPARE fills @res's switches (each one's
 * wanted and held routes and their difference, its tag tables missing and
 * extra) and changes nothing.  Must run as root for a fabric's
 * namespaces; leaves the caller in the namespace it was called in.
 *
 * Time: O(routes of the set + routes every switch holds + map entries)
 * plus one batch of netlink requests per switch and step.
 *
 * Return: 0, or a negative errno (-EINVAL with @res->refused set for a
 * request that does not fit; -EREMOTEIO when the kernel refused a change,
 * everything put back if no message says otherwise; -ENOENT for a
 * missing switch, namespace or file; what a step failed with).
 */
int sluice_fabric_routes_load(const struct sluice_fabric_load_opts *o,
			      struct sluice_fabric_load_result *res,
			      char *err, size_t errlen);

/* Frees what a load's result holds.  Time: O(its routes). */
void sluice_fabric_load_result_free(struct sluice_fabric_load_result *res);

#endif /* _SLUICE_FABRIC_LOAD_H */
