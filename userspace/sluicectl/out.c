// SPDX-License-Identifier: GPL-2.0
/*
 * Output files that are whole or absent, for every command that writes one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "sluicectl.h"

static mode_t current_umask(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return mask;
}

/*
 * Writes @arg to @path ("-" or NULL: stdout) through @write.  A file is
 * written whole or not at all: into a temporary file beside it, renamed
 * over @path only once everything is on disk.
 */
int write_out(const char *path, int (*write)(const void *arg, FILE *f),
	      const void *arg)
{
	char *tmp;
	FILE *f;
	int fd, ret;

	if (!path || !strcmp(path, "-"))
		return write(arg, stdout) ? EXIT_RUNTIME : 0;
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	fd = mkstemp(tmp);
	/* mkstemp() makes it 0600: give it the mode any new file gets */
	if (fd >= 0 && fchmod(fd, 0666 & ~current_umask())) {
		close(fd);
		fd = -1;
	}
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		fprintf(stderr, "sluicectl: %s: %s\n", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return EXIT_RUNTIME;
	}
	ret = write(arg, f);
	if (fflush(f) || ferror(f) || fsync(fileno(f))) {
		if (!ret)
			fprintf(stderr, "sluicectl: %s: %s\n", path,
				strerror(errno));
		ret = -EIO;
	}
	if (fclose(f) && !ret) {
		fprintf(stderr, "sluicectl: %s: %s\n", path, strerror(errno));
		ret = -EIO;
	}
	if (!ret && rename(tmp, path)) {
		fprintf(stderr, "sluicectl: %s: %s\n", path, strerror(errno));
		ret = -EIO;
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret ? EXIT_RUNTIME : 0;
}
