/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening the files a user names as input, for every reader of libsluice
 * and sluicectl: "-" is standard input, and a directory is refused as such
 * (fopen() opens one, and the first read fails with a bare EISDIR, which
 * readers reported as "Input/output error").  Writing files whole or not
 * at all, for sluicectl's -o FILE and a fabric's saved state
 * (sluice/fabric_state.h).
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

/*
 * Writes what @path is to hold to @f; returns 0, or nonzero with the
 * reason in @err (which it may leave empty when it has told its user
 * itself).
 */
typedef int (*sluice_write_fn)(const void *arg, FILE *f, char *err,
			       size_t errlen);

/*
 * sluice_file_write() - write @path through @write
 * @path:	the file
 * @write:	writes the contents; called once
 * @arg:	passed to @write
 * @err:	the reason on failure ("" when @write failed and left it so)
 * @errlen:	room in @err
 *
 * A regular file, or a new one, is written whole or not at all: into a
 * temporary file beside it (mode 0666 less the umask), synced, then
 * renamed over it.  A symbolic link is followed first, so that the link
 * stays and its target is replaced.  Anything else that exists (a device,
 * a FIFO, /dev/stdout) is written in place: renaming over it would replace
 * the node itself, /dev/null included.  A directory, or a link to a
 * missing file, is refused.
 *
 * Time: O(what @write writes).
 *
 * Return: 0, what @write returned when it failed, or a negative errno
 * (-EISDIR, -ENOENT for a dangling link, -ENOMEM, -EIO or what open(),
 * rename() and the like set).
 */
int sluice_file_write(const char *path, sluice_write_fn write,
		      const void *arg, char *err, size_t errlen);

#endif /* _SLUICE_FILE_H */
