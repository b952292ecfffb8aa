// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Output files that are whole or absent, for every command that writes one:
 * "-" is stdout, anything else the library writes (sluice_file_write(),
 * which has the rules for links, devices and directories).
 */
#include <stdio.h>
#include <string.h>
#include <sluice/file.h>
#include <sluice/graph.h>
#include "sluicectl.h"

/* A command's writer, which prints its own reasons, as the library's. */
struct writer {
	int		(*write)(const void *arg, FILE *f);
	const void	*arg;
};

static int call_writer(const void *arg, FILE *f, char *err, size_t errlen)
{
	const struct writer *w = arg;

	(void)err;
	(void)errlen;
	return w->write(w->arg, f);
}

/*
 * Writes @arg to @path ("-" or NULL: stdout) through @write, which prints
 * why it fails.  Returns 0 or EXIT_RUNTIME (the reason printed).
 */
int write_out(const char *path, int (*write)(const void *arg, FILE *f),
	      const void *arg)
{
	struct writer w = { .write = write, .arg = arg };
	char err[SLUICE_ERRLEN];

	if (!path || !strcmp(path, "-"))
		return write(arg, stdout) ? EXIT_RUNTIME : 0;
	if (!sluice_file_write(path, call_writer, &w, err, sizeof(err)))
		return 0;
	if (err[0])
		fprintf(stderr, "sluicectl: %s\n", err);
	return EXIT_RUNTIME;
}
