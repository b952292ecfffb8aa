/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _SLUICECTL_VERSION_H
#define _SLUICECTL_VERSION_H

/* The one place the version is written. */
#define SLUICE_VERSION "0.1.0"

#endif /* _SLUICECTL_VERSION_H */
