// SPDX-License-Identifier: GPL-2.0
/*
 * The state "fabric up" leaves for the other fabric and route commands
 * (fabric.h has the layout).  It is written before the first namespace is
 * made, so that "fabric down" finds everything even after a crash
 * half-way, and it holds a copy of the topology, so that the fabric does
 * not depend on the file it came from.
 *
 *	sluice-fabric 1
 *	name sluice
 *	topology /home/me/fc4.json
 *	hash ad2c6e89336629e9
 *	hosts-per-switch default
 *	qdisc yes rate 100mbit pfc 3
 *	flow-control pfc
 *	ecn 7500
 *	host-profile bolt initcwnd 42
 *	lanes 2
 *	end
 *
 * ("flow-control", "ecn", "host-profile" and "lanes" are left out when not
 * set, as states written before them had them.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sluice/fabric_nl.h>
#include <sluice/host.h>
#include <sluice/route.h>
#include "fabric.h"
#include "sluicectl.h"

/* $SLUICE_RUN_DIR, for tests, else /run/sluice. */
const char *fabric_run_dir(void)
{
	const char *dir = getenv("SLUICE_RUN_DIR");

	return dir && dir[0] ? dir : FABRIC_RUN_DIR;
}

/* RUN_DIR/NAME/FILE (RUN_DIR/NAME without @file). */
int fabric_state_path(const char *name, const char *file, char *buf,
		      size_t len)
{
	int n = snprintf(buf, len, "%s/%s%s%s", fabric_run_dir(), name,
			 file ? "/" : "", file ? file : "");

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int mkdir_p(const char *path)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int write_state(const void *arg, FILE *f)
{
	const struct fabric_state *s = arg;

	fprintf(f, "sluice-fabric 1\nname %s\ntopology %s\nhash %016llx\n",
		s->name, s->topo_path, (unsigned long long)s->hash);
	if (s->hosts_per_switch == SLUICE_FABRIC_HOSTS_DEFAULT)
		fputs("hosts-per-switch default\n", f);
	else
		fprintf(f, "hosts-per-switch %d\n", s->hosts_per_switch);
	fprintf(f, "qdisc %s%s%s\n", s->qdisc ? "yes" : "no",
		s->qdisc_args[0] ? " " : "", s->qdisc_args);
	if (s->fc != SLUICE_FABRIC_FC_NONE)
		fprintf(f, "flow-control %s\n", sluice_fabric_fc_name(s->fc));
	if (s->ecn)
		fprintf(f, "ecn %u\n", s->ecn);
	if (s->host_profile)
		fprintf(f, "host-profile %s initcwnd %u\n",
			sluice_host_profile_name(s->host_profile),
			s->initcwnd);
	if (s->lanes)
		fprintf(f, "lanes %u\n", s->lanes);
	fputs("end\n", f);
	return 0;
}

static int write_topo(const void *arg, FILE *f)
{
	char err[SLUICE_ERRLEN];

	if (!sluice_graph_write(arg, f, err, sizeof(err)))
		return 0;
	fprintf(stderr, "sluicectl: %s\n", err);
	return -EIO;
}

/**
 * fabric_state_save() - write a fabric's state, the topology first
 * @s:	the state, its topology loaded
 *
 * Return: 0 or EXIT_RUNTIME (the message printed).
 */
int fabric_state_save(const struct fabric_state *s)
{
	char dir[PATH_MAX], path[PATH_MAX];
	int ret;

	if (fabric_state_path(s->name, NULL, dir, sizeof(dir)) ||
	    fabric_state_path(s->name, "topology.json", path, sizeof(path))) {
		fprintf(stderr, "sluicectl: %s/%s: path too long\n",
			fabric_run_dir(), s->name);
		return EXIT_RUNTIME;
	}
	ret = mkdir_p(dir);
	if (ret) {
		fprintf(stderr, "sluicectl: %s: %s\n", dir, strerror(-ret));
		return EXIT_RUNTIME;
	}
	ret = write_out(path, write_topo, &s->g);
	if (ret)
		return ret;
	fabric_state_path(s->name, "fabric", path, sizeof(path));
	return write_out(path, write_state, s);
}

/* The value of line "KEY value" of @line, or NULL. */
static const char *value_of(const char *line, const char *key)
{
	size_t len = strlen(key);

	if (strncmp(line, key, len) || (line[len] != ' ' && line[len]))
		return NULL;
	return line[len] ? line + len + 1 : line + len;
}

static int parse_state(FILE *f, const char *path, struct fabric_state *s)
{
	char *line = NULL, *end;
	const char *v;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, ret = -EINVAL;
	unsigned long long hash;
	long h;

	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (lineno == 1) {
			if (strcmp(line, "sluice-fabric 1"))
				break;
		} else if ((v = value_of(line, "name"))) {
			if (snprintf(s->name, sizeof(s->name), "%s", v) >=
			    (int)sizeof(s->name))
				break;
		} else if ((v = value_of(line, "topology"))) {
			snprintf(s->topo_path, sizeof(s->topo_path), "%s", v);
		} else if ((v = value_of(line, "hash"))) {
			hash = strtoull(v, &end, 16);
			if (*end || !*v)
				break;
			s->hash = hash;
		} else if ((v = value_of(line, "hosts-per-switch"))) {
			if (!strcmp(v, "default")) {
				s->hosts_per_switch = SLUICE_FABRIC_HOSTS_DEFAULT;
			} else {
				h = strtol(v, &end, 10);
				if (*end || !*v || h < 0 ||
				    h > SLUICE_FABRIC_HOSTS_MAX)
					break;
				s->hosts_per_switch = h;
			}
		} else if ((v = value_of(line, "qdisc"))) {
			s->qdisc = !strncmp(v, "yes", 3);
			v += strncmp(v, "yes", 3) ? 2 : 3;
			snprintf(s->qdisc_args, sizeof(s->qdisc_args), "%s",
				 *v ? v + 1 : "");
		} else if ((v = value_of(line, "flow-control"))) {
			h = sluice_fabric_fc_parse(v);
			if (h < 0)
				break;
			s->fc = h;
		} else if ((v = value_of(line, "ecn"))) {
			h = strtol(v, &end, 10);
			if (*end || !*v || h <= 0)
				break;
			s->ecn = h;
		} else if ((v = value_of(line, "host-profile"))) {
			char name[16];
			unsigned int cwnd;

			if (sscanf(v, "%15s initcwnd %u", name, &cwnd) != 2 ||
			    sluice_host_profile_parse(name) <= 0)
				break;
			s->host_profile = sluice_host_profile_parse(name);
			s->initcwnd = cwnd;
		} else if ((v = value_of(line, "lanes"))) {
			h = strtol(v, &end, 10);
			if (*end || !*v || h < 1 || h > SLUICE_LANES_MAX)
				break;
			s->lanes = h;
		} else if (!strcmp(line, "end")) {
			ret = 0;
			break;
		} else {
			break;
		}
	}
	free(line);
	if (ret)
		fprintf(stderr, "sluicectl: %s:%d: not a fabric state file\n",
			path, lineno);
	return ret;
}

/**
 * fabric_state_load() - read fabric @name's state and plan the fabric
 * @name:		the fabric's name
 * @s:			filled; fabric_state_free() it
 * @quiet_missing:	print nothing if the fabric has no state
 *
 * Return: 0, -ENOENT if there is no such fabric, EXIT_RUNTIME (printed).
 */
int fabric_state_load(const char *name, struct fabric_state *s,
		      bool quiet_missing)
{
	char path[PATH_MAX], err[SLUICE_ERRLEN];
	FILE *f;
	int ret;

	memset(s, 0, sizeof(*s));
	if (sluice_fabric_name_check(name, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	fabric_state_path(name, "fabric", path, sizeof(path));
	f = fopen(path, "r");
	if (!f && errno == ENOENT) {
		if (!quiet_missing)
			fprintf(stderr, "sluicectl: no fabric %s (no %s): sluicectl fabric up\n",
				name, path);
		return -ENOENT;
	}
	if (!f) {
		fprintf(stderr, "sluicectl: %s: %s\n", path, strerror(errno));
		return EXIT_RUNTIME;
	}
	ret = parse_state(f, path, s);
	fclose(f);
	if (!ret && strcmp(s->name, name)) {
		fprintf(stderr, "sluicectl: %s names fabric \"%s\"\n", path,
			s->name);
		ret = -EINVAL;
	}
	if (ret)
		return EXIT_RUNTIME;
	fabric_state_path(name, "topology.json", path, sizeof(path));
	if (sluice_graph_read_file(&s->g, path, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	if (sluice_graph_hash(&s->g) != s->hash) {
		fprintf(stderr, "sluicectl: %s: the topology's hash is %016llx, the fabric's %016llx\n",
			path, (unsigned long long)sluice_graph_hash(&s->g),
			(unsigned long long)s->hash);
		sluice_graph_free(&s->g);
		return EXIT_RUNTIME;
	}
	/*
	 * An older sluicectl gave BCube servers host namespaces and took
	 * --hosts-per-switch for them: plan such a state as servers are
	 * planned now (sluice_fabric_down() still removes the old hosts).
	 */
	if (sluice_fabric_plan(&s->f, &s->g, s->name, s->hosts_per_switch,
			       err, sizeof(err)) &&
	    (s->hosts_per_switch == SLUICE_FABRIC_HOSTS_DEFAULT ||
	     sluice_fabric_plan(&s->f, &s->g, s->name,
				SLUICE_FABRIC_HOSTS_DEFAULT, err,
				sizeof(err)))) {
		fprintf(stderr, "sluicectl: fabric %s: %s\n", name, err);
		sluice_graph_free(&s->g);
		return EXIT_RUNTIME;
	}
	return 0;
}

void fabric_state_free(struct fabric_state *s)
{
	sluice_fabric_free(&s->f);
	sluice_graph_free(&s->g);
}

/* Removes RUN_DIR/NAME and its two files; 0 or EXIT_RUNTIME (printed). */
int fabric_state_remove(const char *name)
{
	static const char *const files[] = { "fabric", "topology.json" };
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		fabric_state_path(name, files[i], path, sizeof(path));
		if (unlink(path) && errno != ENOENT) {
			fprintf(stderr, "sluicectl: %s: %s\n", path,
				strerror(errno));
			return EXIT_RUNTIME;
		}
	}
	fabric_state_path(name, NULL, path, sizeof(path));
	if (rmdir(path) && errno != ENOENT) {
		fprintf(stderr, "sluicectl: %s: %s\n", path, strerror(errno));
		return EXIT_RUNTIME;
	}
	return 0;
}
