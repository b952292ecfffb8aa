// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The state "fabric up" leaves for the other fabric and route commands
 * (fabric.h has the layout, the library's state.c an example).  It is
 * written before the first namespace is made, so that "fabric down" finds
 * everything even after a crash half-way, and it holds a copy of the
 * topology, so that the fabric does not depend on the file it came from.
 * The library prints the "fabric" file (sluice_fabric_state_print()); this
 * file puts it and the topology in place.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sluice/fabric_nl.h>
#include <sluice/fabric_state.h>
#include "fabric.h"
#include "sluicectl.h"

/* $SLUICE_RUN_DIR, for tests, else /run/sluice. */
const char *fabric_run_dir(void)
{
	return sluice_fabric_run_dir();
}

/* RUN_DIR/NAME/FILE (RUN_DIR/NAME without @file). */
int fabric_state_path(const char *name, const char *file, char *buf,
		      size_t len)
{
	return sluice_fabric_state_path(name, file, buf, len);
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
	sluice_fabric_state_print(arg, f);
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

/**
 * fabric_state_load() - read fabric @name's state and plan the fabric
 * @name:		the fabric's name
 * @s:			filled; fabric_state_free() it
 * @quiet_missing:	print nothing if the fabric has no state
 *
 * The library reads it (sluice_fabric_state_read()).
 *
 * Return: 0, -ENOENT if there is no such fabric, EXIT_RUNTIME (printed).
 */
int fabric_state_load(const char *name, struct fabric_state *s,
		      bool quiet_missing)
{
	char err[SLUICE_ERRLEN];
	int ret;

	ret = sluice_fabric_state_read(name, s, err, sizeof(err));
	if (ret && (ret != -ENOENT || !quiet_missing))
		fprintf(stderr, "sluicectl: %s\n", err);
	if (ret == -ENOENT)
		return ret;
	return ret ? EXIT_RUNTIME : 0;
}

void fabric_state_free(struct fabric_state *s)
{
	sluice_fabric_state_free(s);
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
