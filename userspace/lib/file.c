// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Files written whole or not at all (sluice/file.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sluice/file.h>
#include "graph/internal.h"

static mode_t current_umask(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return mask;
}

/*
 * Writes @arg to @f through @write, then flushes (and with @sync, syncs)
 * and closes @f.  Returns 0, what @write returned, or -EIO.
 */
static int write_close(FILE *f, const char *path, bool sync,
		       sluice_write_fn write, const void *arg, char *err,
		       size_t errlen)
{
	int ret = write(arg, f, err, errlen);

	if ((fflush(f) || ferror(f) || (sync && fsync(fileno(f)))) && !ret)
		ret = sluice_i_errf(err, errlen, -EIO, "%s: %s", path,
				    strerror(errno));
	if (fclose(f) && !ret)
		ret = sluice_i_errf(err, errlen, -EIO, "%s: %s", path,
				    strerror(errno));
	return ret;
}

/* Writes into an existing file that is not a regular one, in place. */
static int write_in_place(const char *path, sluice_write_fn write,
			  const void *arg, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return sluice_i_errf(err, errlen, -errno, "%s: %s", path,
				     strerror(errno));
	return write_close(f, path, false, write, arg, err, errlen);
}

/* Into a temporary file beside @path, renamed over it once on disk. */
static int write_replace(const char *path, sluice_write_fn write,
			 const void *arg, char *err, size_t errlen)
{
	char *tmp;
	FILE *f;
	int fd, ret, e;

	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	fd = mkstemp(tmp);
	/* mkstemp() makes it 0600: give it the mode any new file gets */
	if (fd >= 0 && fchmod(fd, 0666 & ~current_umask())) {
		e = errno;
		close(fd);
		unlink(tmp);
		errno = e;
		fd = -1;
	}
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		ret = sluice_i_errf(err, errlen, -errno, "%s: %s", path,
				    strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return ret;
	}
	ret = write_close(f, path, true, write, arg, err, errlen);
	if (!ret && rename(tmp, path))
		ret = sluice_i_errf(err, errlen, -errno, "%s: %s", path,
				    strerror(errno));
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

/* See sluice/file.h. */
int sluice_file_write(const char *path, sluice_write_fn write,
		      const void *arg, char *err, size_t errlen)
{
	struct stat st;
	char *real;
	int ret;

	if (errlen)
		err[0] = '\0';
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return sluice_i_errf(err, errlen, -EISDIR,
					     "%s: is a directory: give a file name",
					     path);
		if (!S_ISREG(st.st_mode))
			return write_in_place(path, write, arg, err, errlen);
		/* A regular file, maybe through links: replace the target. */
		real = realpath(path, NULL);
		if (!real)
			return sluice_i_errf(err, errlen, -errno, "%s: %s",
					     path, strerror(errno));
		ret = write_replace(real, write, arg, err, errlen);
		free(real);
		return ret;
	}
	if (errno == ENOENT && !lstat(path, &st))
		return sluice_i_errf(err, errlen, -ENOENT,
				     "%s: a symbolic link to a missing file: give the file itself",
				     path);
	return write_replace(path, write, arg, err, errlen);
}
