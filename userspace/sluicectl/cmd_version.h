/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _SLUICECTL_CMD_VERSION_H
#define _SLUICECTL_CMD_VERSION_H

/* sluicectl is libsluice's: one version, written in sluice/version.h. */
#include <sluice/version.h>

#endif /* _SLUICECTL_CMD_VERSION_H */
