// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Files by name (sluice/file.h): input opened and read, output written
 * whole or not at all.
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

int sluice_file_open(const char *path, FILE **f, char *err, size_t errlen)
{
	struct stat st;
	int e;

	*f = NULL;
	if (!strcmp(path, "-")) {
		*f = stdin;
		return 0;
	}
	*f = fopen(path, "r");
	if (!*f) {
		e = errno;
		return sluice_i_errf(err, errlen, -e, "%s: %s", path,
				     strerror(e));
	}
	e = fstat(fileno(*f), &st) ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
	if (e) {
		fclose(*f);
		*f = NULL;
		if (e == EISDIR)
			return sluice_i_errf(err, errlen, -EISDIR,
					     "%s: is a directory, not a file",
					     path);
		return sluice_i_errf(err, errlen, -e, "%s: %s", path,
				     strerror(e));
	}
	return 0;
}

void sluice_file_close(FILE *f)
{
	if (f && f != stdin)
		fclose(f);
}

int sluice_file_read(const char *path, uint64_t max, char **buf, size_t *len,
		     char *err, size_t errlen)
{
	/* one byte more than @max tells a file of @max bytes from a larger */
	size_t limit = max < SIZE_MAX / 2 ? max + 1 : SIZE_MAX / 2;
	size_t cap = 0, n = 0, got;
	char *p = NULL, *q;
	FILE *f;
	int ret;

	*buf = NULL;
	*len = 0;
	ret = sluice_file_open(path, &f, err, errlen);
	if (ret)
		return ret;
	do {
		if (n == cap) {
			if (cap == limit) {
				ret = sluice_i_errf(err, errlen, -E2BIG,
						    "%s: larger than %llu bytes",
						    path,
						    (unsigned long long)max);
				break;
			}
			cap = cap ? 2 * cap : 1 << 16;
			if (cap > limit)
				cap = limit;
			q = realloc(p, cap + 1);
			if (!q) {
				ret = sluice_i_errf(err, errlen, -ENOMEM,
						    "%s: out of memory", path);
				break;
			}
			p = q;
		}
		got = fread(p + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (!ret && n > max)
		ret = sluice_i_errf(err, errlen, -E2BIG,
				    "%s: larger than %llu bytes", path,
				    (unsigned long long)max);
	if (!ret && ferror(f))
		ret = sluice_i_errf(err, errlen, -EIO, "%s: %s", path,
				    strerror(errno ? errno : EIO));
	sluice_file_close(f);
	if (ret) {
		free(p);
		return ret;
	}
	if (!p) {
		p = malloc(1);
		if (!p)
			return sluice_i_errf(err, errlen, -ENOMEM,
					     "%s: out of memory", path);
	}
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
}

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
