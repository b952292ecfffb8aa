// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl stats [-n NETNS] [-j | --json | --format FORMAT] [DEV]
 *
 * FORMAT: text (the default), json (-j), sai (a line per counter under
 * SAI's and SONiC's names: "DEV NAME VALUE"), openmetrics (Prometheus's
 * node_exporter textfile collector takes it).  JSON's rows carry the SAI
 * names too ("sai"), beside sluice's own (sluice/opnames.h).
 *
 * The ports of the switch: each one's link and PFC settings and counters
 * (struct sluice_port_stats), then a row per egress class and ingress
 * priority (struct sluice_prio_stats), under the uapi's field names.
 * Numbers throughout, as the uapi has them (pfc and wd_prios are bitmaps,
 * wd_action enum tc_sluice_wd_action); flags by name.
 *
 * A PortFC port (portfc not TC_SLUICE_PORTFC_NONE) adds PortFC's settings
 * and counters to its lines, and portfc_relayed to its rows (portfc is
 * enum tc_sluice_portfc_role, portfc_keys the bitmap BIT(type * 16 +
 * index) of what it asserts).  A port with any in-band telemetry setting
 * (int_port, int_node, int_link) adds them and INT's counters the same
 * way.  A kernel before PortFC or INT sends shorter structs, which the
 * library zero-fills: its ports read as neither and print as before.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/opnames.h>
#include "opts.h"
#include "sw.h"

enum opt_id { OPT_NETNS, OPT_JSON, OPT_FORMAT };

static const struct opt opts[] = {
	[OPT_NETNS]	= { "--netns", "-n", true },
	[OPT_JSON]	= { "--json", "-j", false },
	[OPT_FORMAT]	= { "--format", NULL, true },
};

enum format { FMT_TEXT, FMT_JSON, FMT_SAI, FMT_OPENMETRICS };

static const char *const formats[] = {
	[FMT_TEXT] = "text", [FMT_JSON] = "json", [FMT_SAI] = "sai",
	[FMT_OPENMETRICS] = "openmetrics",
};

#define N_OPTS	ARRAY_SIZE(opts)

/* A field of a uapi struct: its name, place and width. */
struct field {
	const char	*name;
	size_t		off;
	size_t		size;
};

#define F(type, f)	{ #f, offsetof(type, f), sizeof(((type *)0)->f) }

/* The first line of a port: its settings. */
static const struct field port_settings[] = {
	F(struct sluice_port_stats, classes),
	F(struct sluice_port_stats, rate),
	F(struct sluice_port_stats, pfc),
	F(struct sluice_port_stats, xoff),
	F(struct sluice_port_stats, xon),
	F(struct sluice_port_stats, headroom),
	F(struct sluice_port_stats, pause_time),
	F(struct sluice_port_stats, wd_prios),
	F(struct sluice_port_stats, wd_action),
	F(struct sluice_port_stats, wd_detect_ms),
	F(struct sluice_port_stats, wd_restore_ms),
	F(struct sluice_port_stats, wd_poll_ms),
};

static const struct field port_counters[] = {
	F(struct sluice_port_stats, pfc_tx),
	F(struct sluice_port_stats, pfc_rx),
	F(struct sluice_port_stats, pause_rx),
	F(struct sluice_port_stats, pause_malformed),
	F(struct sluice_port_stats, pause_untrusted),
	F(struct sluice_port_stats, pause_ignored),
	F(struct sluice_port_stats, pfc_tx_failed),
	F(struct sluice_port_stats, limit_drops),
	F(struct sluice_port_stats, headroom_drops),
	F(struct sluice_port_stats, untagged),
	F(struct sluice_port_stats, backlog),
	F(struct sluice_port_stats, qlen),
};

/* Appended to a PortFC port's first line and second line. */
static const struct field portfc_settings[] = {
	F(struct sluice_port_stats, portfc),
	F(struct sluice_port_stats, portfc_n),
	F(struct sluice_port_stats, portfc_k),
	F(struct sluice_port_stats, portfc_index),
	F(struct sluice_port_stats, portfc_xoff_a),
	F(struct sluice_port_stats, portfc_xon_a),
	F(struct sluice_port_stats, portfc_xoff_b),
	F(struct sluice_port_stats, portfc_xon_b),
};

static const struct field portfc_counters[] = {
	F(struct sluice_port_stats, portfc_keys),
	F(struct sluice_port_stats, portfc_rx),
	F(struct sluice_port_stats, portfc_malformed),
	F(struct sluice_port_stats, portfc_ignored),
	F(struct sluice_port_stats, portfc_relayed),
	F(struct sluice_port_stats, portfc_unknown),
	F(struct sluice_port_stats, portfc_hq),
};

/* Appended to the first and second line of a port with INT settings. */
static const struct field int_settings[] = {
	F(struct sluice_port_stats, int_port),
	F(struct sluice_port_stats, int_node),
	F(struct sluice_port_stats, int_link),
};

static const struct field int_counters[] = {
	F(struct sluice_port_stats, int_stamped),
	F(struct sluice_port_stats, int_full),
	F(struct sluice_port_stats, int_malformed),
	F(struct sluice_port_stats, int_unwritable),
};

/* Appended to each row of a PortFC port. */
static const struct field portfc_prio_counters[] = {
	F(struct sluice_prio_stats, portfc_relayed),
};

static const struct field prio_counters[] = {
	F(struct sluice_prio_stats, packets),
	F(struct sluice_prio_stats, bytes),
	F(struct sluice_prio_stats, drops),
	F(struct sluice_prio_stats, backlog),
	F(struct sluice_prio_stats, qlen),
	F(struct sluice_prio_stats, pfc_rx),
	F(struct sluice_prio_stats, xon_rx),
	F(struct sluice_prio_stats, paused_us),
	F(struct sluice_prio_stats, ecn_marks),
	F(struct sluice_prio_stats, ingress_bytes),
	F(struct sluice_prio_stats, ingress_peak),
	F(struct sluice_prio_stats, xoff_tx),
	F(struct sluice_prio_stats, xon_tx),
	F(struct sluice_prio_stats, wd_storms),
	F(struct sluice_prio_stats, wd_restored),
	F(struct sluice_prio_stats, wd_drops),
	F(struct sluice_prio_stats, wd_forwarded),
	F(struct sluice_prio_stats, wd_ingress_drops),
};

#undef F

static const struct {
	uint32_t	bit;
	const char	*name;
} prio_flags[] = {
	{ SLUICE_PRIO_F_CLASS, "class" },
	{ SLUICE_PRIO_F_PAUSED, "paused" },
	{ SLUICE_PRIO_F_XOFF, "xoff" },
	{ SLUICE_PRIO_F_LOSSLESS, "lossless" },
	{ SLUICE_PRIO_F_WATCHED, "watched" },
	{ SLUICE_PRIO_F_STORM, "storm" },
};

static uint64_t value(const void *s, const struct field *f)
{
	const char *p = (const char *)s + f->off;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;

	switch (f->size) {
	case 8:
		memcpy(&v64, p, 8);
		return v64;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	}
	return *(const uint8_t *)p;
}

static void print_fields(const void *s, const struct field *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf(" %s %llu", f[i].name,
		       (unsigned long long)value(s, &f[i]));
}

static bool add_fields(json_object *o, const void *s, const struct field *f,
		       size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!jadd(o, f[i].name, jnum(value(s, &f[i]))))
			return false;
	return true;
}

/* "class,lossless", or "-" for none; unknown bits in hex. */
static void flag_names(uint32_t flags, char *buf, size_t size)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(prio_flags); i++)
		if (flags & prio_flags[i].bit) {
			len += snprintf(buf + len, size - len, "%s%s",
					len ? "," : "", prio_flags[i].name);
			flags &= ~prio_flags[i].bit;
		}
	if (flags)
		len += snprintf(buf + len, size - len, "%s%#x", len ? "," : "",
				flags);
	if (!len)
		snprintf(buf, size, "-");
}

static bool is_portfc(const struct sluice_port_info *p)
{
	return p->port.portfc != TC_SLUICE_PORTFC_NONE;
}

static bool has_int(const struct sluice_port_info *p)
{
	return p->port.int_port || p->port.int_node || p->port.int_link;
}

static void print_text(const struct sluice_port_info *p, uint32_t n)
{
	char flags[64];
	uint32_t i, k;
	bool portfc, in_band;

	for (i = 0; i < n; i++) {
		portfc = is_portfc(&p[i]);
		in_band = has_int(&p[i]);
		printf("port %s ifindex %u", p[i].ifname, p[i].ifindex);
		print_fields(&p[i].port, port_settings,
			     ARRAY_SIZE(port_settings));
		if (portfc)
			print_fields(&p[i].port, portfc_settings,
				     ARRAY_SIZE(portfc_settings));
		if (in_band)
			print_fields(&p[i].port, int_settings,
				     ARRAY_SIZE(int_settings));
		putchar('\n');
		putchar(' ');
		print_fields(&p[i].port, port_counters,
			     ARRAY_SIZE(port_counters));
		if (portfc)
			print_fields(&p[i].port, portfc_counters,
				     ARRAY_SIZE(portfc_counters));
		if (in_band)
			print_fields(&p[i].port, int_counters,
				     ARRAY_SIZE(int_counters));
		putchar('\n');
		for (k = 0; k < p[i].n_prio; k++) {
			flag_names(p[i].prio[k].flags, flags, sizeof(flags));
			printf("  prio %u flags %s", p[i].prio[k].index, flags);
			print_fields(&p[i].prio[k], prio_counters,
				     ARRAY_SIZE(prio_counters));
			if (portfc)
				print_fields(&p[i].prio[k],
					     portfc_prio_counters,
					     ARRAY_SIZE(portfc_prio_counters));
			putchar('\n');
		}
	}
}

static json_object *jflags(uint32_t flags)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; a && i < ARRAY_SIZE(prio_flags); i++) {
		if (!(flags & prio_flags[i].bit))
			continue;
		if (json_object_array_add(a, json_object_new_string(prio_flags[i].name))) {
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

/* A row's counters under SAI's and SONiC's names. */
static json_object *jsai(const struct sluice_prio_stats *s)
{
	json_object *o = json_object_new_object();
	char name[64];
	unsigned int j;

	for (j = 0; o && j < sluice_n_opnames; j++) {
		sluice_opname_sai(&sluice_opnames[j], s->index, name,
				  sizeof(name));
		if (!jadd(o, name, jnum(sluice_opnames[j].value(s)))) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

/* "DEV NAME VALUE", a line per counter of every class a port has. */
static void print_sai(const struct sluice_port_info *p, uint32_t n)
{
	char name[64];
	uint32_t i, k;
	unsigned int j;

	for (i = 0; i < n; i++)
		for (k = 0; k < p[i].n_prio; k++) {
			if (!(p[i].prio[k].flags & SLUICE_PRIO_F_CLASS))
				continue;
			for (j = 0; j < sluice_n_opnames; j++) {
				sluice_opname_sai(&sluice_opnames[j],
						  p[i].prio[k].index, name,
						  sizeof(name));
				/* a port counter's name holds its priority */
				if (!strstr(sluice_opnames[j].sai, "%u"))
					snprintf(name + strlen(name),
						 sizeof(name) - strlen(name),
						 ":%u", p[i].prio[k].index);
				printf("%s %s %llu\n", p[i].ifname, name,
				       (unsigned long long)
				       sluice_opnames[j].value(&p[i].prio[k]));
			}
		}
}

static json_object *jport(const struct sluice_port_info *p)
{
	json_object *o = json_object_new_object(), *rows = NULL, *r;
	bool ok, portfc = is_portfc(p);
	uint32_t k;

	ok = o && jadd(o, "ifname", json_object_new_string(p->ifname)) &&
	     jadd(o, "ifindex", jnum(p->ifindex)) &&
	     add_fields(o, &p->port, port_settings, ARRAY_SIZE(port_settings)) &&
	     add_fields(o, &p->port, port_counters, ARRAY_SIZE(port_counters));
	if (ok && portfc)
		ok = add_fields(o, &p->port, portfc_settings,
				ARRAY_SIZE(portfc_settings)) &&
		     add_fields(o, &p->port, portfc_counters,
				ARRAY_SIZE(portfc_counters));
	if (ok && has_int(p))
		ok = add_fields(o, &p->port, int_settings,
				ARRAY_SIZE(int_settings)) &&
		     add_fields(o, &p->port, int_counters,
				ARRAY_SIZE(int_counters));
	if (ok) {
		rows = json_object_new_array_ext(p->n_prio);
		ok = jadd(o, "prios", rows);
	}
	for (k = 0; ok && k < p->n_prio; k++) {
		r = json_object_new_object();
		ok = r && !json_object_array_add(rows, r);
		if (!ok) {
			json_object_put(r);
			break;
		}
		ok = jadd(r, "index", jnum(p->prio[k].index)) &&
		     jadd(r, "flags", jflags(p->prio[k].flags)) &&
		     add_fields(r, &p->prio[k], prio_counters,
				ARRAY_SIZE(prio_counters)) &&
		     (!portfc || add_fields(r, &p->prio[k], portfc_prio_counters,
					 ARRAY_SIZE(portfc_prio_counters))) &&
		     jadd(r, "sai", jsai(&p->prio[k]));
	}
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

static int print_json(const struct sluice_port_info *p, uint32_t n)
{
	json_object *a = json_object_new_array_ext(n), *o;
	bool ok = a;
	uint32_t i;

	for (i = 0; ok && i < n; i++) {
		o = jport(&p[i]);
		ok = o && !json_object_array_add(a, o);
		if (!ok)
			json_object_put(o);
	}
	return sw_jprint(a, ok);
}

static void print_help(const struct command *cmd)
{
	printf("Usage: sluicectl %s %s\n\n%s.\n", cmd->name, cmd->usage,
	       cmd->help);
}

int port_stats_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_port_info *ports = NULL;
	const char *val[N_OPTS], *dev[8];
	char err[SLUICE_ERRLEN];
	struct sluice_nl *nl;
	uint32_t ifindex = 0, n;
	unsigned int fmt;
	int n_dev, ret;

	ret = opts_parse(argc, argv, opts, N_OPTS,
			 OPT_BIT(OPT_NETNS) | OPT_BIT(OPT_JSON) |
			 OPT_BIT(OPT_FORMAT), val, dev,
			 ARRAY_SIZE(dev), &n_dev, err, sizeof(err));
	if (ret > 0) {
		print_help(cmd);
		return 0;
	}
	if (ret)
		return usage_error(cmd, "%s", err);
	fmt = val[OPT_JSON] ? FMT_JSON : FMT_TEXT;
	if (val[OPT_FORMAT]) {
		for (fmt = 0; fmt < ARRAY_SIZE(formats) &&
		     strcmp(val[OPT_FORMAT], formats[fmt]); fmt++)
			;
		if (fmt == ARRAY_SIZE(formats))
			return usage_error(cmd, "--format: \"%s\" is not text, json, sai or openmetrics",
					   val[OPT_FORMAT]);
		if (val[OPT_JSON] && fmt != FMT_JSON)
			return usage_error(cmd, "-j and --format %s: one format",
					   val[OPT_FORMAT]);
	}
	if (n_dev > 1)
		return usage_error(cmd, "one device at most, not %d", n_dev);
	if (n_dev && !sluice_ifname_ok(dev[0]))
		return usage_error(cmd, "\"%s\" is not a device name", dev[0]);
	ret = sw_open(val[OPT_NETNS], &nl);
	if (ret)
		return ret;
	if (n_dev) {
		ret = sluice_nl_ifindex(nl, dev[0], &ifindex);
		if (ret) {
			fprintf(stderr, "sluicectl: stats: device \"%s\": %s\n",
				dev[0], strerror(-ret));
			sluice_nl_close(nl);
			return EXIT_RUNTIME;
		}
	}
	ret = sluice_nl_stats_get(nl, ifindex, &ports, &n, err, sizeof(err));
	sluice_nl_close(nl);
	if (ret)
		return sw_fail(err);
	if (n_dev && !n) {
		fprintf(stderr, "sluicectl: stats: %s is not a port of the switch (no sluice root qdisc)\n",
			dev[0]);
		ret = EXIT_RUNTIME;
	} else if (fmt == FMT_JSON) {
		ret = print_json(ports, n);
	} else if (fmt == FMT_SAI) {
		print_sai(ports, n);
	} else if (fmt == FMT_OPENMETRICS) {
		if (sluice_openmetrics_write(stdout, val[OPT_NETNS] ?
					     val[OPT_NETNS] : "", ports, n))
			ret = EXIT_RUNTIME;
	} else {
		print_text(ports, n);
	}
	free(ports);
	return ret;
}
