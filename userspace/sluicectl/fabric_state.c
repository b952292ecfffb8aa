// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fabric's state (sluice/fabric_state.h: the library reads, writes and
 * removes it) with the library's reason printed, for the commands.
 */
#include <errno.h>
#include <stdio.h>
#include <sluice/fabric_state.h>
#include "cmd_fabric.h"
#include "sluicectl.h"

/* Writes fabric @s's state; 0 or EXIT_RUNTIME (the message printed). */
int fabric_state_save(const struct sluice_fabric_state *s)
{
	char err[SLUICE_ERRLEN];

	if (!sluice_fabric_state_write(s, err, sizeof(err)))
		return 0;
	fprintf(stderr, "sluicectl: %s\n", err);
	return EXIT_RUNTIME;
}

/*
 * Reads fabric @name's state and plans the fabric into @s
 * (sluice_fabric_state_free() it); @quiet_missing: print nothing if the
 * fabric has no state.  0, -ENOENT if there is no such fabric, or
 * EXIT_RUNTIME (printed).
 */
int fabric_state_load(const char *name, struct sluice_fabric_state *s,
		      bool quiet_missing)
{
	char err[SLUICE_ERRLEN];
	int ret;

	ret = sluice_fabric_state_read(name, s, err, sizeof(err));
	if (ret && (ret != -ENOENT || !quiet_missing))
		fprintf(stderr, "sluicectl: %s\n", err);
	if (ret == -ENOENT)
		return ret;
	return ret ? EXIT_RUNTIME : 0;
}
