// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A switch's port statistics as "sluicectl stats" writes them, text and
 * JSON, and the JSON read back (sluice/port_stats.h has the format).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>
#include <json_tokener.h>
#include <sluice/file.h>
#include <sluice/opnames.h>
#include <sluice/port_stats.h>
#include "graph/internal.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define STATE_FILE_MAX	(64u << 20)

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

const struct sluice_prio_flag sluice_prio_flags[] = {
	{ SLUICE_PRIO_F_CLASS, "class" },
	{ SLUICE_PRIO_F_PAUSED, "paused" },
	{ SLUICE_PRIO_F_XOFF, "xoff" },
	{ SLUICE_PRIO_F_LOSSLESS, "lossless" },
	/* the PFC watchdog's */
	{ SLUICE_PRIO_F_WATCHED, "watched" },
	{ SLUICE_PRIO_F_STORM, "storm" },
};

const unsigned int sluice_n_prio_flags = ARRAY_SIZE(sluice_prio_flags);

/* Adds @v (NULL if its creation failed) to @o; puts @v on failure. */
static bool jadd(json_object *o, const char *key, json_object *v)
{
	if (v && !json_object_object_add(o, key, v))
		return true;
	json_object_put(v);
	return false;
}

static json_object *jnum(uint64_t v)
{
	return json_object_new_uint64(v);
}

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

static void print_fields(FILE *out, const void *s, const struct field *f,
			 size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, " %s %llu", f[i].name,
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
	for (i = 0; i < sluice_n_prio_flags; i++)
		if (flags & sluice_prio_flags[i].bit) {
			len += snprintf(buf + len, size - len, "%s%s",
					len ? "," : "", sluice_prio_flags[i].name);
			flags &= ~sluice_prio_flags[i].bit;
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

/* See sluice/port_stats.h. */
void sluice_port_stats_text(FILE *f, const struct sluice_port_info *p,
			    uint32_t n)
{
	char flags[64];
	uint32_t i, k;
	bool portfc, in_band;

	for (i = 0; i < n; i++) {
		portfc = is_portfc(&p[i]);
		in_band = has_int(&p[i]);
		fprintf(f, "port %s ifindex %u", p[i].ifname, p[i].ifindex);
		print_fields(f, &p[i].port, port_settings,
			     ARRAY_SIZE(port_settings));
		if (portfc)
			print_fields(f, &p[i].port, portfc_settings,
				     ARRAY_SIZE(portfc_settings));
		if (in_band)
			print_fields(f, &p[i].port, int_settings,
				     ARRAY_SIZE(int_settings));
		fputc('\n', f);
		fputc(' ', f);
		print_fields(f, &p[i].port, port_counters,
			     ARRAY_SIZE(port_counters));
		if (portfc)
			print_fields(f, &p[i].port, portfc_counters,
				     ARRAY_SIZE(portfc_counters));
		if (in_band)
			print_fields(f, &p[i].port, int_counters,
				     ARRAY_SIZE(int_counters));
		fputc('\n', f);
		for (k = 0; k < p[i].n_prio; k++) {
			flag_names(p[i].prio[k].flags, flags, sizeof(flags));
			fprintf(f, "  prio %u flags %s", p[i].prio[k].index,
				flags);
			print_fields(f, &p[i].prio[k], prio_counters,
				     ARRAY_SIZE(prio_counters));
			if (portfc)
				print_fields(f, &p[i].prio[k],
					     portfc_prio_counters,
					     ARRAY_SIZE(portfc_prio_counters));
			fputc('\n', f);
		}
	}
}

static json_object *jflags(uint32_t flags)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; a && i < sluice_n_prio_flags; i++) {
		if (!(flags & sluice_prio_flags[i].bit))
			continue;
		if (json_object_array_add(a, json_object_new_string(sluice_prio_flags[i].name))) {
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

/* See sluice/port_stats.h. */
char *sluice_port_stats_json(const struct sluice_port_info *p, uint32_t n,
			     bool pretty)
{
	json_object *a = json_object_new_array_ext(n), *o;
	char *text = NULL;
	bool ok = a;
	uint32_t i;

	for (i = 0; ok && i < n; i++) {
		o = jport(&p[i]);
		ok = o && !json_object_array_add(a, o);
		if (!ok)
			json_object_put(o);
	}
	if (ok)
		text = strdup(json_object_to_json_string_ext(a, pretty ?
							      JSON_C_TO_STRING_PRETTY :
							      JSON_C_TO_STRING_PLAIN));
	json_object_put(a);
	return text;
}

/* --- reading it back --- */

/* A file being read: its name and where to say what is wrong with it. */
struct reader {
	const char	*path;
	char		*err;
	size_t		errlen;
};

__attribute__((format(printf, 3, 4)))
static int bad(const struct reader *rd, int ret, const char *fmt, ...)
{
	char msg[SLUICE_ERRLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sluice_i_errf(rd->err, rd->errlen, ret, "%s: %s", rd->path, msg);
}

/* Field @key of @o, a number from 0 to @max. */
static bool jfield(const struct reader *rd, json_object *o, const char *key,
		   uint64_t max, uint64_t *v, const char *where)
{
	json_object *f;

	if (!json_object_object_get_ex(o, key, &f) ||
	    !json_object_is_type(f, json_type_int) ||
	    json_object_get_int64(f) < 0 ||
	    json_object_get_uint64(f) > max) {
		bad(rd, -EINVAL, "%s: \"%s\" is %s", where, key,
		    f ? "not a number in range" : "missing");
		return false;
	}
	*v = json_object_get_uint64(f);
	return true;
}

/* A "prios" row; flags a newer sluicectl knows and this one not are left. */
static bool read_prio(const struct reader *rd, json_object *r,
		      struct sluice_prio_stats *ps, const char *where)
{
	static const struct {
		const char	*key;
		uint64_t	max;
	} f[] = {
		{ "index", TC_SLUICE_MAX_CLASSES - 1 },
		{ "packets", UINT64_MAX },
		{ "bytes", UINT64_MAX },
		{ "backlog", UINT32_MAX },
		{ "qlen", UINT32_MAX },
		{ "pfc_rx", UINT64_MAX },
		{ "paused_us", UINT64_MAX },
		{ "ingress_bytes", UINT32_MAX },
		{ "ingress_peak", UINT32_MAX },
		{ "xoff_tx", UINT64_MAX },
	};
	json_object *flags, *fl;
	uint64_t v[ARRAY_SIZE(f)];
	size_t i, k;

	if (!json_object_is_type(r, json_type_object)) {
		bad(rd, -EINVAL, "%s: not an object", where);
		return false;
	}
	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (!jfield(rd, r, f[i].key, f[i].max, &v[i], where))
			return false;
	ps->index = v[0];
	ps->packets = v[1];
	ps->bytes = v[2];
	ps->backlog = v[3];
	ps->qlen = v[4];
	ps->pfc_rx = v[5];
	ps->paused_us = v[6];
	ps->ingress_bytes = v[7];
	ps->ingress_peak = v[8];
	ps->xoff_tx = v[9];
	if (!json_object_object_get_ex(r, "flags", &flags) ||
	    !json_object_is_type(flags, json_type_array)) {
		bad(rd, -EINVAL, "%s: \"flags\" is not an array", where);
		return false;
	}
	for (i = 0; i < json_object_array_length(flags); i++) {
		fl = json_object_array_get_idx(flags, i);
		if (!json_object_is_type(fl, json_type_string)) {
			bad(rd, -EINVAL, "%s: flags[%zu] is not a string",
			    where, i);
			return false;
		}
		for (k = 0; k < sluice_n_prio_flags; k++)
			if (!strcmp(json_object_get_string(fl),
				    sluice_prio_flags[k].name))
				ps->flags |= sluice_prio_flags[k].bit;
	}
	return true;
}

/*
 * A port's PortFC settings and keys, each one optional, as the output of a
 * sluicectl or a kernel from before PortFC has none: absent is 0, not
 * PortFC.
 */
static bool read_portfc(const struct reader *rd, json_object *o,
			struct sluice_port_stats *ps, const char *where)
{
	static const struct {
		const char	*key;
		uint64_t	max;
	} f[] = {
		/* a role a newer kernel has is read, and acts as none */
		{ "portfc", UINT8_MAX },
		{ "portfc_n", UINT8_MAX },
		{ "portfc_k", UINT8_MAX },
		{ "portfc_index", UINT8_MAX },
		{ "portfc_keys", UINT32_MAX },
	};
	uint64_t v[ARRAY_SIZE(f)] = { 0 };
	json_object *x;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (json_object_object_get_ex(o, f[i].key, &x) &&
		    !jfield(rd, o, f[i].key, f[i].max, &v[i], where))
			return false;
	ps->portfc = v[0];
	ps->portfc_n = v[1];
	ps->portfc_k = v[2];
	ps->portfc_index = v[3];
	ps->portfc_keys = v[4];
	return true;
}

static bool read_port(const struct reader *rd, json_object *o,
		      struct sluice_port_info *p, size_t i)
{
	char where[96];
	json_object *name, *prios;
	uint64_t ifindex;
	size_t k, n;

	snprintf(where, sizeof(where), "port %zu", i);
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "ifname", &name) ||
	    !json_object_is_type(name, json_type_string) ||
	    !sluice_ifname_ok(json_object_get_string(name))) {
		bad(rd, -EINVAL, "%s: no \"ifname\" that is a device name",
		    where);
		return false;
	}
	snprintf(p->ifname, sizeof(p->ifname), "%s",
		 json_object_get_string(name));
	snprintf(where, sizeof(where), "port %s", p->ifname);
	if (!jfield(rd, o, "ifindex", UINT32_MAX, &ifindex, where))
		return false;
	p->ifindex = ifindex;
	if (!read_portfc(rd, o, &p->port, where))
		return false;
	if (!json_object_object_get_ex(o, "prios", &prios) ||
	    !json_object_is_type(prios, json_type_array)) {
		bad(rd, -EINVAL, "%s: \"prios\" is not an array", where);
		return false;
	}
	n = json_object_array_length(prios);
	if (n > TC_SLUICE_MAX_CLASSES) {
		bad(rd, -EINVAL, "%s: %zu priorities, at most %d", where, n,
		    TC_SLUICE_MAX_CLASSES);
		return false;
	}
	p->n_prio = n;
	for (k = 0; k < n; k++) {
		snprintf(where, sizeof(where), "port %s prios[%zu]", p->ifname, k);
		if (!read_prio(rd, json_object_array_get_idx(prios, k),
			       &p->prio[k], where))
			return false;
	}
	return true;
}

/* See sluice/port_stats.h. */
int sluice_port_stats_json_read(const char *path,
				struct sluice_port_info **ports, uint32_t *n,
				char *err, size_t errlen)
{
	const struct reader rd = { .path = path, .err = err, .errlen = errlen };
	enum json_tokener_error jerr;
	json_tokener *tok;
	json_object *top;
	size_t len = 0, end, i;
	char *buf = NULL;
	int ret;

	*ports = NULL;
	*n = 0;
	ret = sluice_file_read(path, STATE_FILE_MAX, &buf, &len, err, errlen);
	if (ret)
		return ret;
	tok = json_tokener_new();
	if (!tok) {
		free(buf);
		return bad(&rd, -ENOMEM, "out of memory");
	}
	top = json_tokener_parse_ex(tok, buf, len > INT32_MAX ? INT32_MAX : len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr == json_tokener_success)
		for (i = end; i < len; i++)
			if (!strchr(" \t\r\n", buf[i])) {
				jerr = json_tokener_error_parse_unexpected;
				end = i;
				break;
			}
	free(buf);
	if (jerr != json_tokener_success) {
		json_object_put(top);
		return bad(&rd, -EINVAL, "invalid JSON at byte %zu: %s", end,
			   jerr == json_tokener_continue ?
			   "unexpected end of input" :
			   json_tokener_error_desc(jerr));
	}
	if (!json_object_is_type(top, json_type_array)) {
		json_object_put(top);
		return bad(&rd, -EINVAL, "not an array of ports (the output of \"sluicectl stats -j\")");
	}
	len = json_object_array_length(top);
	*ports = calloc(len ? len : 1, sizeof(**ports));
	ret = *ports ? 0 : bad(&rd, -ENOMEM, "out of memory");
	for (i = 0; !ret && i < len; i++)
		if (!read_port(&rd, json_object_array_get_idx(top, i),
			       &(*ports)[i], i))
			ret = -EINVAL;
	json_object_put(top);
	if (!ret) {
		*n = len;
		return 0;
	}
	free(*ports);
	*ports = NULL;
	return ret;
}
