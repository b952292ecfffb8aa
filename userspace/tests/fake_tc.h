/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stand-ins for the tc functions q_sluice.c calls (tc/tc_abi.h), so that the
 * plugin runs inside a test.  The netlink helpers build real attributes in
 * the caller's nlmsghdr; the printers write what tc would print to stdout,
 * text or JSON, into a buffer instead.
 */
#ifndef _SLUICE_FAKE_TC_H
#define _SLUICE_FAKE_TC_H

#include <stdbool.h>

/*
 * Empties the output and selects tc's mode: text, or JSON (tc -j).  In JSON
 * mode the output is the members of the object tc opens around the plugin's
 * output: wrap it in braces to parse it.
 */
void fake_tc_reset(bool json);
const char *fake_tc_output(void);
/* The first misuse of the tc API seen since the reset, or NULL. */
const char *fake_tc_misuse(void);

#endif /* _SLUICE_FAKE_TC_H */
