/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fabric's state, shared by the fabric and route commands
 * (fabric_state.c): what "fabric up" was given, kept under
 * $SLUICE_RUN_DIR/NAME (default /run/sluice/NAME) so that later commands
 * find the namespaces again:
 *
 *   fabric          "sluice-fabric 1", the name, the topology's path and
 *                   hash, the hosts per switch, the qdisc's options, the
 *                   flow control, the lanes, the multipath mode and the
 *                   node rates
 *   topology.json   the topology itself, as sluice_graph_write() writes it
 */
#ifndef _SLUICECTL_FABRIC_H
#define _SLUICECTL_FABRIC_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sluice/fabric.h>
#include <sluice/fabric_state.h>
#include <sluice/graph.h>

#define FABRIC_QDISC_MAX	SLUICE_FABRIC_QDISC_MAX

/*
 * The state is the library's (sluice/fabric_state.h), which reads it for
 * other programs too; the commands keep calling it by its old name.
 */
#define fabric_state		sluice_fabric_state

const char *fabric_run_dir(void);
int fabric_state_path(const char *name, const char *file, char *buf,
		      size_t len);
int fabric_state_save(const struct fabric_state *s);
int fabric_state_load(const char *name, struct fabric_state *s,
		      bool quiet_missing);
void fabric_state_free(struct fabric_state *s);
int fabric_state_remove(const char *name);

#endif /* _SLUICECTL_FABRIC_H */
