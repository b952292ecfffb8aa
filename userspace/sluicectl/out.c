// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Output files that are whole or absent, for every command that writes one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
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
 * Writes @arg to @f through @write, then flushes (and with @sync, syncs)
 * and closes @f.  Returns 0, or nonzero with the reason printed (by
 * @write, or here).
 */
static int write_close(FILE *f, const char *path, bool sync,
		       int (*write)(const void *arg, FILE *f), const void *arg)
{
	int ret = write(arg, f);

	if (fflush(f) || ferror(f) || (sync && fsync(fileno(f)))) {
		if (!ret)
			fprintf(stderr, "sluicectl: %s: %s\n", path,
				strerror(errno));
		ret = -EIO;
	}
	if (fclose(f) && !ret) {
		fprintf(stderr, "sluicectl: %s: %s\n", path, strerror(errno));
		ret = -EIO;
	}
	return ret;
}

/* Writes into an existing file that is not a regular one, in place. */
static int write_in_place(const char *path,
			  int (*write)(const void *arg, FILE *f),
			  const void *arg)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "sluicectl: %s: %s\n", path, strerror(errno));
		return EXIT_RUNTIME;
	}
	return write_close(f, path, false, write, arg) ? EXIT_RUNTIME : 0;
}

/*
 * Writes @arg to @path ("-" or NULL: stdout) through @write.  A regular
 * file, or a new one, is written whole or not at all: into a temporary
 * file beside it, renamed over it only once everything is on disk.  A
 * symbolic link is followed first, so that the link stays and its target
 * is replaced.  Anything else that exists (a device, a FIFO, /dev/stdout)
 * is written in place: renaming over it would replace the node itself,
 * /dev/null included.  A directory, or a link to a missing file, is
 * refused.
 */
int write_out(const char *path, int (*write)(const void *arg, FILE *f),
	      const void *arg)
{
	char *tmp, *real = NULL;
	struct stat st;
	FILE *f;
	int fd, ret;

	if (!path || !strcmp(path, "-"))
		return write(arg, stdout) ? EXIT_RUNTIME : 0;
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode)) {
			fprintf(stderr, "sluicectl: %s: is a directory: give a file name\n",
				path);
			return EXIT_RUNTIME;
		}
		if (!S_ISREG(st.st_mode))
			return write_in_place(path, write, arg);
		/* A regular file, maybe through links: replace the target. */
		real = realpath(path, NULL);
		if (!real) {
			fprintf(stderr, "sluicectl: %s: %s\n", path, strerror(errno));
			return EXIT_RUNTIME;
		}
		path = real;
	} else if (errno == ENOENT && !lstat(path, &st)) {
		fprintf(stderr, "sluicectl: %s: a symbolic link to a missing file: give the file itself\n",
			path);
		return EXIT_RUNTIME;
	}
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		fputs("sluicectl: out of memory\n", stderr);
		free(real);
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
		free(real);
		return EXIT_RUNTIME;
	}
	ret = write_close(f, path, true, write, arg);
	if (!ret && rename(tmp, path)) {
		fprintf(stderr, "sluicectl: %s: %s\n", path, strerror(errno));
		ret = -EIO;
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	free(real);
	return ret ? EXIT_RUNTIME : 0;
}
