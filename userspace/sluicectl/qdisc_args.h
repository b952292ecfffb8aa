/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sluice qdisc's options as --OPTION VALUE (qdisc_args.c), shared by
 * "fabric up" and "route load": each puts QDISC_OPTS(first) at the end of
 * its option table, so that one opts_parse() reads both.
 */
#ifndef _SLUICECTL_QDISC_ARGS_H
#define _SLUICECTL_QDISC_ARGS_H

#include <stddef.h>
#include <sluice/fabric_nl.h>
#include "opts.h"
#include "sluicectl.h"

/* as tc takes them without the dashes; "xoff auto [cable M] [mtu B]" last */
enum qdisc_opt_id {
	QOPT_RATE, QOPT_PFC, QOPT_XON, QOPT_HEADROOM, QOPT_LIMIT,
	QOPT_CLASSES, QOPT_TAG, QOPT_DEFAULT, QOPT_PAUSE_RX, QOPT_PAUSE_TIME,
	QOPT_PCP_MAP, QOPT_DSCP_MAP, QOPT_MPLS_TC_MAP, QOPT_PRIO_MAP,
	QOPT_WATCHDOG, QOPT_WD_ACTION, QOPT_DETECT, QOPT_RESTORE, QOPT_WD_POLL,
	QOPT_INT_PORT, QOPT_XOFF, QOPT_CABLE, QOPT_MTU,
	N_QOPTS,
};

#define QDISC_OPTS(first) \
	[(first) + QOPT_RATE]		= { "--rate", NULL, true }, \
	[(first) + QOPT_PFC]		= { "--pfc", NULL, true }, \
	[(first) + QOPT_XON]		= { "--xon", NULL, true }, \
	[(first) + QOPT_HEADROOM]	= { "--headroom", NULL, true }, \
	[(first) + QOPT_LIMIT]		= { "--limit", NULL, true }, \
	[(first) + QOPT_CLASSES]	= { "--classes", NULL, true }, \
	[(first) + QOPT_TAG]		= { "--tag", NULL, true }, \
	[(first) + QOPT_DEFAULT]	= { "--default", NULL, true }, \
	[(first) + QOPT_PAUSE_RX]	= { "--pause-rx", NULL, true }, \
	[(first) + QOPT_PAUSE_TIME]	= { "--pause-time", NULL, true }, \
	[(first) + QOPT_PCP_MAP]	= { "--pcp-map", NULL, true }, \
	[(first) + QOPT_DSCP_MAP]	= { "--dscp-map", NULL, true }, \
	[(first) + QOPT_MPLS_TC_MAP]	= { "--mpls-tc-map", NULL, true }, \
	[(first) + QOPT_PRIO_MAP]	= { "--prio-map", NULL, true }, \
	[(first) + QOPT_WATCHDOG]	= { "--watchdog", NULL, true }, \
	[(first) + QOPT_WD_ACTION]	= { "--watchdog-action", NULL, true }, \
	[(first) + QOPT_DETECT]		= { "--detection-time", NULL, true }, \
	[(first) + QOPT_RESTORE]	= { "--restoration-time", NULL, true }, \
	[(first) + QOPT_WD_POLL]	= { "--watchdog-poll", NULL, true }, \
	[(first) + QOPT_INT_PORT]	= { "--int-port", NULL, true }, \
	[(first) + QOPT_XOFF]		= { "--xoff", NULL, true }, \
	[(first) + QOPT_CABLE]		= { "--cable", NULL, true }, \
	[(first) + QOPT_MTU]		= { "--mtu", NULL, true }

/* The bits of opts_parse()'s @allowed for the qdisc options. */
#define QDISC_OPTS_BITS(first)	(((1ull << N_QOPTS) - 1) << (first))

#define QDISC_OPTS_USAGE \
	"\t[--rate RATE] [--pfc PRIOS] [--xoff { BYTES | auto }] [--xon BYTES] [--headroom BYTES]\n" \
	"\t[--cable METRES] [--mtu BYTES] [--limit BYTES] [--classes N]\n" \
	"\t[--tag { priority | pcp | dscp | mpls-tc }] [--default CLASS] [--pause-rx { on | off }]\n" \
	"\t[--pause-time QUANTA] [--pcp-map MAP] [--dscp-map MAP] [--mpls-tc-map MAP]\n" \
	"\t[--prio-map MAP] [--watchdog PRIOS] [--watchdog-action { drop | forward | alert }]\n" \
	"\t[--detection-time MS] [--restoration-time MS] [--watchdog-poll MS] [--int-port PORT]"

int qdisc_args_words(const struct command *cmd, const struct opt *q,
		     const char *const *val, char *buf, size_t len);
int qdisc_args_add(const struct command *cmd, char *buf, size_t len,
		   const char *name, const char *value);
int qdisc_args_parse(const char *words, struct sluice_fabric_qdisc *q);

#endif /* _SLUICECTL_QDISC_ARGS_H */
