/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A deadlock report (sluice/deadlock.h) as "sluicectl fabric deadlock"
 * prints it, for the commands that find one too (fabric_deadlock.c).
 */
#ifndef _SLUICECTL_FABRIC_DEADLOCK_H
#define _SLUICECTL_FABRIC_DEADLOCK_H

#include <stdbool.h>
#include <sluice/deadlock.h>
#include <sluice/graph.h>
#include "jout.h"

/* Exit status of a command that found a deadlock (as a CBD's). */
#define EXIT_DEADLOCK	3

void deadlock_print_cycles(const struct sluice_graph *g,
			   const struct sluice_deadlock *dl);
bool deadlock_json_add(json_object *o, const struct sluice_graph *g,
		       const struct sluice_deadlock *dl);

#endif /* _SLUICECTL_FABRIC_DEADLOCK_H */
