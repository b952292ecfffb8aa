/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the "sluicectl topo" files: topo.c (the group, show, dot) and
 * topo_gen.c (gen).
 */
#ifndef _SLUICECTL_CMD_TOPO_H
#define _SLUICECTL_CMD_TOPO_H

#include <stdio.h>
#include <sluice/graph.h>
#include "sluicectl.h"

int topo_gen_main(const struct command *cmd, int argc, char **argv);

#endif /* _SLUICECTL_CMD_TOPO_H */
