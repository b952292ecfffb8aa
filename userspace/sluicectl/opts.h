/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Option parsing shared by the commands with many options (opts.c).
 */
#ifndef _SLUICECTL_OPTS_H
#define _SLUICECTL_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sluicectl.h"

struct opt {
	const char	*name;	/* "--topo" */
	const char	*alt;	/* a short form ("-o"), or NULL */
	bool		value;	/* takes a value; else a flag */
};

#define OPT_BIT(id)	(1ull << (id))

int opts_parse(int argc, char **argv, const struct opt *opts, size_t n,
	       uint64_t allowed, const char **val, const char **files,
	       int max_files, int *n_files, char *msg, size_t msglen);
bool opts_number(const char *s, uint64_t min, uint64_t max, uint64_t *v);

#endif /* _SLUICECTL_OPTS_H */
