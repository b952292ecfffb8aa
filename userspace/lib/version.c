// SPDX-License-Identifier: GPL-2.0-or-later
/* The library's version (sluice/version.h). */
#include <sluice/version.h>

_Static_assert(sizeof(SLUICE_VERSION) > 1, "a version string");

const char *sluice_version(void)
{
	return SLUICE_VERSION;
}
