/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files written whole or not at all (lib/file.c): what sluicectl's -o
 * FILE and a fabric's saved state (sluice/fabric_state.h) are written
 * through.
 */
#ifndef _SLUICE_FILE_H
#define _SLUICE_FILE_H

#include <stddef.h>
#include <stdio.h>

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
