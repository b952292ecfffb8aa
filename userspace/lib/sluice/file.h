/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening the files a user names as input, for every reader of libsluice
 * and sluicectl: "-" is standard input, and a directory is refused as such
 * (fopen() opens one, and the first read fails with a bare EISDIR, which
 * readers reported as "Input/output error").
 *
 * Messages are "PATH: reason", PATH as given.
 */
#ifndef _SLUICE_FILE_H
#define _SLUICE_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Opens @path for reading into *@f: stdin for "-", else the file, which
 * must not be a directory ("PATH: is a directory, not a file").  Close it
 * with sluice_file_close().  Return: 0, or -errno (-EISDIR for a
 * directory) with @err set and *@f NULL.  Time: O(1).
 */
int sluice_file_open(const char *path, FILE **f, char *err, size_t errlen);
/* Closes what sluice_file_open() opened (not stdin); NULL is fine. */
void sluice_file_close(FILE *f);
/*
 * The whole of @path ("-": stdin) in *@buf (malloc()ed, NUL-terminated
 * after its *@len bytes, which may hold NULs), at most @max bytes ("PATH:
 * larger than MAX bytes" beyond).  Return: 0, or -errno, -E2BIG, -ENOMEM
 * with @err set and *@buf NULL.  Time: O(size).
 */
int sluice_file_read(const char *path, uint64_t max, char **buf, size_t *len,
		     char *err, size_t errlen);

#endif /* _SLUICE_FILE_H */
