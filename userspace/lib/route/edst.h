/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside libsluice: what an edst / edst-shallow context (edst.c) holds, for
 * the tests and the statistics that look at the trees themselves rather
 * than at the paths.
 */
#ifndef _SLUICE_LIB_ROUTE_EDST_H
#define _SLUICE_LIB_ROUTE_EDST_H

#include <stdint.h>

uint32_t sluice_i_edst_trees(const void *ctx);
uint32_t sluice_i_edst_sets(const void *ctx);
int sluice_i_edst_tree_links(const void *ctx, uint32_t set, uint32_t tree,
			     uint32_t *links);

#endif /* _SLUICE_LIB_ROUTE_EDST_H */
