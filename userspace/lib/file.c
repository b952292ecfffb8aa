// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Input files by name (sluice/file.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
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
