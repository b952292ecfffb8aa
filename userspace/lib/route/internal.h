/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared inside libsluice's route code (not installed).
 */
#ifndef _SLUICE_LIB_ROUTE_INTERNAL_H
#define _SLUICE_LIB_ROUTE_INTERNAL_H

#include <sluice/route.h>

#define SLUICE_I_AT_SET		UINT64_MAX

int sluice_i_routes_check(const struct sluice_routes *r,
			  const struct sluice_graph *g, uint64_t *at,
			  char *err, size_t errlen);

#endif /* _SLUICE_LIB_ROUTE_INTERNAL_H */
