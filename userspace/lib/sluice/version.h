/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libsluice's version: the one place it is written.  The macros say which
 * headers a program was compiled against, sluice_version() which library
 * it runs with (lib/version.c); pkg-config reads the same numbers
 * ("pkg-config --modversion sluice").
 */
#ifndef _SLUICE_VERSION_H
#define _SLUICE_VERSION_H

#define SLUICE_VERSION_MAJOR	0
#define SLUICE_VERSION_MINOR	1
#define SLUICE_VERSION_PATCH	0
#define SLUICE_VERSION		"0.1.0"

/* Comparable: SLUICE_VERSION_CODE >= SLUICE_VERSION_AT(0, 1, 0). */
#define SLUICE_VERSION_AT(major, minor, patch) \
	((major) << 16 | (minor) << 8 | (patch))
#define SLUICE_VERSION_CODE \
	SLUICE_VERSION_AT(SLUICE_VERSION_MAJOR, SLUICE_VERSION_MINOR, \
			  SLUICE_VERSION_PATCH)

/* The library's own version string, SLUICE_VERSION when it was built. O(1). */
const char *sluice_version(void);

#endif /* _SLUICE_VERSION_H */
