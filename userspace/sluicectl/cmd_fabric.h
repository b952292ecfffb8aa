/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fabric's state, shared by the fabric, route and experiment commands
 * (fabric_state.c): the library reads, writes and removes it
 * (sluice/fabric_state.h has the layout); these print its reasons.
 */
#ifndef _SLUICECTL_CMD_FABRIC_H
#define _SLUICECTL_CMD_FABRIC_H

#include <stdbool.h>
#include <sluice/fabric.h>
#include <sluice/fabric_state.h>
#include <sluice/graph.h>

#define FABRIC_QDISC_MAX	SLUICE_FABRIC_QDISC_MAX

int fabric_state_save(const struct sluice_fabric_state *s);
int fabric_state_load(const char *name, struct sluice_fabric_state *s,
		      bool quiet_missing);

#endif /* _SLUICECTL_CMD_FABRIC_H */
