/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the "sluicectl topo" files: topo.c (the group, show, dot),
 * topo_gen.c (gen) and topo_io.c (import, export).
 */
#ifndef _SLUICECTL_CMD_TOPO_H
#define _SLUICECTL_CMD_TOPO_H

#include <stdio.h>
#include <sluice/graph.h>
#include "sluicectl.h"

int topo_gen_main(const struct command *cmd, int argc, char **argv);
int topo_import_main(const struct command *cmd, int argc, char **argv);
int topo_export_main(const struct command *cmd, int argc, char **argv);
int topo_write(const void *arg, FILE *f);

#endif /* _SLUICECTL_CMD_TOPO_H */
