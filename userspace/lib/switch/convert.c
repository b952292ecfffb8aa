// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A node's tag tables as its switch's maps (sluice/switch.h, "Tag tables
 * to maps").  Pure: no kernel, no devices; the caller says which devices
 * the links and the hosts are.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/switch.h>
#include "graph/internal.h"

/* Ingress priorities of the switch, egress classes of a port. */
#define PRIOS		8
#define CLASSES		TC_SLUICE_MAX_CLASSES

/**
 * sluice_switch_link_dev() - the device of link @link
 * @o:		the overrides (o->ports)
 * @link:	a link id
 * @dev:	set to the override's device, else "l<LINK>"
 */
void sluice_switch_link_dev(const struct sluice_convert_opts *o,
			    uint32_t link, char dev[SLUICE_IFNAMSIZ])
{
	uint32_t i;

	for (i = 0; i < o->n_ports; i++)
		if (o->ports[i].link == link) {
			memcpy(dev, o->ports[i].dev, SLUICE_IFNAMSIZ);
			dev[SLUICE_IFNAMSIZ - 1] = '\0';
			return;
		}
	snprintf(dev, SLUICE_IFNAMSIZ, "l%u", link);
}

static bool has_link(const struct sluice_switch_node *node, uint32_t link)
{
	uint32_t i;

	for (i = 0; i < node->n_links; i++)
		if (node->links[i] == link)
			return true;
	return false;
}

/* The devices the options name, checked. */
static int check_opts(const struct sluice_switch_node *node,
		      const struct sluice_convert_opts *o, uint32_t *ttl0,
		      char *err, size_t errlen)
{
	const char *name = sluice_tag_source_name(o->source);
	uint32_t i, j;

	if (!name)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "tag source %u: unknown to this sluicectl",
				     o->source);
	if (o->source == SLUICE_TAG_SOURCE_NONE)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the switch has no tag source: tag tables need one (ip-ttl, mpls-ttl, dscp, mpls-tc, pcp or mpls-depth)");
	/*
	 * Depth tables are keyed by the tag a frame leaves with, the label
	 * stack's depth; every other mode's by the tag it arrived with.
	 */
	if (o->source == SLUICE_TAG_SOURCE_MPLS_DEPTH &&
	    node->mode != SLUICE_TAGGER_DEPTH)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "node %s: %s tables under mpls-depth: the label stack's depth needs tables of mode depth (tag compute --mode depth)",
				     node->name,
				     sluice_tagger_mode_name(node->mode) ?: "unknown");
	if (o->source != SLUICE_TAG_SOURCE_MPLS_DEPTH &&
	    node->mode == SLUICE_TAGGER_DEPTH)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "node %s: depth tables under %s: they are keyed by the label stack's depth, which only the mpls-depth tag source reads",
				     node->name, name);
	*ttl0 = o->initial_ttl ? o->initial_ttl : SLUICE_INITIAL_TTL;
	if (sluice_tag_source_is_ttl(o->source) && *ttl0 > 255)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "initial TTL %u: a TTL is 1 to 255",
				     *ttl0);
	for (i = 0; i < o->n_ports; i++) {
		if (!has_link(node, o->ports[i].link))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "port %u=%.15s: node %s has no link %u",
					     o->ports[i].link, o->ports[i].dev,
					     node->name, o->ports[i].link);
		if (!memchr(o->ports[i].dev, '\0', SLUICE_IFNAMSIZ) ||
		    !sluice_ifname_ok(o->ports[i].dev))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "port %u=%.15s: not a device name",
					     o->ports[i].link, o->ports[i].dev);
		for (j = 0; j < i; j++)
			if (o->ports[j].link == o->ports[i].link)
				return sluice_i_errf(err, errlen, -EINVAL,
						     "link %u: two devices given",
						     o->ports[i].link);
	}
	for (i = 0; i < o->n_hosts; i++)
		if (!sluice_ifname_ok(o->hosts[i]))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "host device \"%s\": not a device name",
					     o->hosts[i]);
	return 0;
}

/*
 * Appends entries for (@port, @tag) -> @value to @m: one for the link's
 * device, or one per host device.
 */
static int add_port(struct sluice_maps *m, const struct sluice_convert_opts *o,
		    uint32_t port, uint8_t map, uint8_t tag, uint8_t value, uint8_t flags)
{
	char dev[SLUICE_IFNAMSIZ];
	uint32_t d, i;
	int ret;

	if (port != SLUICE_TAGGER_HOST) {
		sluice_switch_link_dev(o, port, dev);
		ret = sluice_maps_dev(m, dev, &d);
		return ret ? ret : sluice_maps_add(m, d, map, tag, value, flags);
	}
	for (i = 0; i < o->n_hosts; i++) {
		ret = sluice_maps_dev(m, o->hosts[i], &d);
		if (!ret)
			ret = sluice_maps_add(m, d, map, tag, value, flags);
		if (ret)
			return ret;
	}
	return 0;
}

/* "3" or "host", as the tag file says a port. */
static const char *port_word(uint32_t port, char *buf, size_t size)
{
	if (port == SLUICE_TAGGER_HOST)
		return "host";
	snprintf(buf, size, "%u", port);
	return buf;
}

/* Tag @t of the tables as the switch's tag source reads it, or -1. */
static int wire_tag(const struct sluice_convert_opts *o, uint32_t ttl0,
		    uint32_t t)
{
	if (sluice_tag_source_is_ttl(o->source))
		return t < ttl0 ? (int)(ttl0 - t) : -1;
	return t < sluice_tag_source_values(o->source) ? (int)t : -1;
}

static int bad_tag(const struct sluice_switch_node *node,
		   const struct sluice_convert_opts *o, uint32_t ttl0,
		   const char *entry, uint32_t t, char *err, size_t errlen)
{
	if (sluice_tag_source_is_ttl(o->source))
		return sluice_i_errf(err, errlen, -ERANGE,
				     "node %s: \"%s\": tag %u would be TTL %d with initial TTL %u",
				     node->name, entry, t, (int)ttl0 - (int)t,
				     ttl0);
	return sluice_i_errf(err, errlen, -ERANGE,
			     "node %s: \"%s\": tag %u does not fit %s (0 to %u)",
			     node->name, entry, t,
			     sluice_tag_source_name(o->source),
			     sluice_tag_source_values(o->source) - 1);
}

static int convert_in(const struct sluice_switch_node *node,
		      const struct sluice_convert_opts *o, uint32_t ttl0,
		      struct sluice_maps *m, char *err, size_t errlen)
{
	const struct sluice_tagger_in *in;
	char buf[16], entry[64];
	uint64_t i;
	int t, ret;

	for (i = 0; i < node->n_in; i++) {
		in = &node->in[i];
		snprintf(entry, sizeof(entry), "in %s %u %u",
			 port_word(in->port, buf, sizeof(buf)), in->tag,
			 in->prio);
		t = wire_tag(o, ttl0, in->tag);
		if (t < 0)
			return bad_tag(node, o, ttl0, entry, in->tag, err,
				       errlen);
		if (in->prio >= PRIOS)
			return sluice_i_errf(err, errlen, -ERANGE,
					     "node %s: \"%s\": a switch has priorities 0 to %d",
					     node->name, entry, PRIOS - 1);
		ret = add_port(m, o, in->port, SLUICE_MAP_IN, t,
			       in->prio, 0);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Under a TTL source, routing takes the TTL from t to t + 1: tables that
 * want anything else cannot be expressed.  Frames to hosts leave the
 * fabric, nobody reads their tag, and the tables keep it (t -> t): that
 * is allowed too.
 */
static bool ttl_rewrite_ok(const struct sluice_tagger_out *out)
{
	return out->new_tag == out->tag + 1 ||
	       (out->port == SLUICE_TAGGER_HOST && out->new_tag == out->tag);
}

static int convert_out(const struct sluice_switch_node *node,
		       const struct sluice_convert_opts *o, uint32_t ttl0,
		       struct sluice_maps *m, char *err, size_t errlen)
{
	bool ttl = sluice_tag_source_is_ttl(o->source);
	bool depth = o->source == SLUICE_TAG_SOURCE_MPLS_DEPTH;
	const struct sluice_tagger_out *out;
	char buf[16], entry[64];
	uint64_t i;
	int t, nt, ret;

	for (i = 0; i < node->n_out; i++) {
		out = &node->out[i];
		snprintf(entry, sizeof(entry), "out %s %u %u %u",
			 port_word(out->port, buf, sizeof(buf)), out->tag,
			 out->cls, out->new_tag);
		t = wire_tag(o, ttl0, out->tag);
		if (t < 0)
			return bad_tag(node, o, ttl0, entry, out->tag, err,
				       errlen);
		if (out->cls >= CLASSES)
			return sluice_i_errf(err, errlen, -ERANGE,
					     "node %s: \"%s\": a port has classes 0 to %d",
					     node->name, entry, CLASSES - 1);
		if (ttl && !ttl_rewrite_ok(out))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "node %s: \"%s\": under %s the tag can only go from t to t + 1 (a routed hop), not from %u to %u",
					     node->name, entry,
					     sluice_tag_source_name(o->source),
					     out->tag, out->new_tag);
		if (depth && out->new_tag != out->tag)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "node %s: \"%s\": under mpls-depth the tag is the label stack's depth, which the switch never rewrites (%u to %u)",
					     node->name, entry, out->tag,
					     out->new_tag);
		nt = wire_tag(o, ttl0, out->new_tag);
		if (!ttl && nt < 0)
			return bad_tag(node, o, ttl0, entry, out->new_tag,
				       err, errlen);
		ret = add_port(m, o, out->port, SLUICE_MAP_EG, t,
			       out->cls, SLUICE_MAP_F_OUT_PORT);
		if (ret)
			return ret;
	}
	/* TTL and depth tags are rewritten by routing, never by the switch */
	for (i = 0; !ttl && !depth && i < node->n_out; i++) {
		out = &node->out[i];
		ret = add_port(m, o, out->port, SLUICE_MAP_TAG,
			       out->tag, out->new_tag, 0);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * sluice_switch_convert() - @node's tables as maps of its switch
 * @node:	the node's tables
 * @o:		the tag source, the devices of links and hosts
 * @m:		filled; free with sluice_maps_free(), even on an error
 * @err:	what is wrong, naming the entry as the tag file writes it
 * @errlen:	room in @err
 *
 * Every ingress entry (P, t) -> p becomes in entries (P's device, t) ->
 * p; every egress entry (P, t) -> (c, t') eg entries keyed by the out
 * port (P's device, t) -> c and, unless the source is a TTL or the depth,
 * tag entries (P's device, t) -> t'.  P is link L's device (o->ports, else
 * "l<L>") or, for "host", each of o->hosts (none: host entries vanish).
 * Entries come in that order: in, eg, tag, each in table order.
 *
 * Tags are the tag source's values as they are, or under a TTL source the
 * TTL o->initial_ttl - t, which must be 1 or more; the tables must then
 * take tags from t to t + 1 only (or keep them, towards hosts).  Under
 * mpls-depth tag t is depth t (0 to 32), the tables must be of mode depth
 * (and tables of mode depth need mpls-depth), keep every tag, and give no
 * tag entries.  A table
 * that does not fit the source, or two entries that land on one key (two
 * links given one device, a host device that is also a link's) are
 * refused with the entry named.
 *
 * Return: 0, -EINVAL, -ERANGE or -ENOMEM.
 */
int sluice_switch_convert(const struct sluice_switch_node *node,
			  const struct sluice_convert_opts *o,
			  struct sluice_maps *m, char *err, size_t errlen)
{
	const struct sluice_maps_entry *e;
	uint32_t ttl0 = 0;
	uint64_t a, b;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = check_opts(node, o, &ttl0, err, errlen);
	if (!ret)
		ret = convert_in(node, o, ttl0, m, err, errlen);
	if (!ret)
		ret = convert_out(node, o, ttl0, m, err, errlen);
	if (!ret && sluice_maps_find_dup(m, &a, &b)) {
		e = &m->e[b];
		ret = sluice_i_errf(err, errlen, -EINVAL,
				    "node %s: two %s entries for device %s tag %u: two ports are one device",
				    node->name,
				    sluice_map_entry_kind(e->map, e->flags),
				    m->devs[e->dev], e->tag);
	}
	if (ret == -ENOMEM)
		ret = sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	if (ret)
		sluice_maps_free(m);
	return ret;
}
