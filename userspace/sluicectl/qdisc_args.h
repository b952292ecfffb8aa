/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sluice qdisc's options as --OPTION VALUE (qdisc_args.c), shared by
 * "fabric up" and "route load": each puts QDISC_OPTS(first) at the end of
 * its option table, so that one args_parse() reads both.
 */
#ifndef _SLUICECTL_QDISC_ARGS_H
#define _SLUICECTL_QDISC_ARGS_H

#include <stddef.h>
#include <sluice/fabric_nl.h>
#include <linux/sluice.h>
#include "args.h"
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

extern const char *const qdisc_tag_words[], *const qdisc_onoff_words[],
	*const qdisc_wd_action_words[];

/*
 * The entries of the option table, from index @first on.  Times are checked
 * here (tc's TIME; a bare number is milliseconds, as tc-sluice takes
 * them); the rest by the library's qdisc parser (lib/qopt.c), as tc's.
 */
#define QDISC_WD_MS(l, h) \
	ARG_MS(l, TC_SLUICE_WD_MIN_MS, TC_SLUICE_WD_MAX_MS, h)
#define QDISC_OPTS(first) \
	[(first) + QOPT_RATE]	= ARG_S("--rate", 0, "RATE", "the port's rate, as tc writes it"), \
	[(first) + QOPT_PFC]	= ARG_S("--pfc", 0, "PRIOS", "the lossless priorities (\"3\", \"3,4\")"), \
	[(first) + QOPT_XON]	= ARG_S("--xon", 0, "BYTES", "resume the upstream below this backlog"), \
	[(first) + QOPT_HEADROOM] = ARG_S("--headroom", 0, "BYTES", "room above xoff for what is in flight"), \
	[(first) + QOPT_LIMIT]	= ARG_S("--limit", 0, "BYTES", "the queue's limit"), \
	[(first) + QOPT_CLASSES] = ARG_S("--classes", 0, "N", "egress classes"), \
	[(first) + QOPT_TAG]	= ARG_E("--tag", 0, qdisc_tag_words, "what a frame's priority is read from"), \
	[(first) + QOPT_DEFAULT] = ARG_S("--default", 0, "CLASS", "the class of untagged frames"), \
	[(first) + QOPT_PAUSE_RX] = ARG_E("--pause-rx", 0, qdisc_onoff_words, "obey PFC frames received"), \
	[(first) + QOPT_PAUSE_TIME] = ARG_S("--pause-time", 0, "QUANTA", "the pause time PFC frames ask for"), \
	[(first) + QOPT_PCP_MAP] = ARG_S("--pcp-map", 0, "MAP", "PCP to priority, as tc-sluice(8)"), \
	[(first) + QOPT_DSCP_MAP] = ARG_S("--dscp-map", 0, "MAP", "DSCP to priority (\"26:3 46:5\")"), \
	[(first) + QOPT_MPLS_TC_MAP] = ARG_S("--mpls-tc-map", 0, "MAP", "MPLS TC to priority"), \
	[(first) + QOPT_PRIO_MAP] = ARG_S("--prio-map", 0, "MAP", "priority to class"), \
	[(first) + QOPT_WATCHDOG] = ARG_S("--watchdog", 0, "PRIOS", "the priorities the PFC watchdog watches"), \
	[(first) + QOPT_WD_ACTION] = ARG_E("--watchdog-action", 0, qdisc_wd_action_words, \
					   "what the watchdog does to a stormed queue"), \
	[(first) + QOPT_DETECT]	= QDISC_WD_MS("--detection-time", \
					      "paused this long is a storm"), \
	[(first) + QOPT_RESTORE] = QDISC_WD_MS("--restoration-time", \
					       "unpaused this long ends the storm"), \
	[(first) + QOPT_WD_POLL] = QDISC_WD_MS("--watchdog-poll", \
					       "how often the watchdog looks, default 100ms"), \
	[(first) + QOPT_INT_PORT] = ARG_S("--int-port", 0, "PORT", "the UDP port of INT probes"), \
	[(first) + QOPT_XOFF]	= ARG_S("--xoff", 0, "{ BYTES | auto }", \
					"pause the upstream above this backlog; auto: by rate, cable and MTU"), \
	[(first) + QOPT_CABLE]	= ARG_S("--cable", 0, "METRES", "with --xoff auto: the cable's length"), \
	[(first) + QOPT_MTU]	= ARG_S("--mtu", 0, "BYTES", "with --xoff auto: the largest frame")

/* The qdisc options in a command's pick list (args_spec.pick), as the usage orders them. */
#define QDISC_PICKS(first) \
	(first) + QOPT_RATE, (first) + QOPT_PFC, (first) + QOPT_XOFF, \
	(first) + QOPT_XON, (first) + QOPT_HEADROOM, (first) + QOPT_CABLE, \
	(first) + QOPT_MTU, (first) + QOPT_LIMIT, (first) + QOPT_CLASSES, \
	(first) + QOPT_TAG, (first) + QOPT_DEFAULT, (first) + QOPT_PAUSE_RX, \
	(first) + QOPT_PAUSE_TIME, (first) + QOPT_PCP_MAP, \
	(first) + QOPT_DSCP_MAP, (first) + QOPT_MPLS_TC_MAP, \
	(first) + QOPT_PRIO_MAP, (first) + QOPT_WATCHDOG, \
	(first) + QOPT_WD_ACTION, (first) + QOPT_DETECT, (first) + QOPT_RESTORE, \
	(first) + QOPT_WD_POLL, (first) + QOPT_INT_PORT

#define QDISC_OPTS_USAGE \
	"\t[--rate RATE] [--pfc PRIOS] [--xoff { BYTES | auto }] [--xon BYTES] [--headroom BYTES]\n" \
	"\t[--cable METRES] [--mtu BYTES] [--limit BYTES] [--classes N]\n" \
	"\t[--tag { priority | pcp | dscp | mpls-tc }] [--default CLASS] [--pause-rx { on | off }]\n" \
	"\t[--pause-time QUANTA] [--pcp-map MAP] [--dscp-map MAP] [--mpls-tc-map MAP]\n" \
	"\t[--prio-map MAP] [--watchdog PRIOS] [--watchdog-action { drop | forward | alert }]\n" \
	"\t[--detection-time TIME] [--restoration-time TIME] [--watchdog-poll TIME] [--int-port PORT]"

int qdisc_args_words(const struct command *cmd, const struct arg_opt *q,
		     const char *const *val, const uint64_t *num, char *buf,
		     size_t len);
int qdisc_args_add(const struct command *cmd, char *buf, size_t len,
		   const char *name, const char *value);
int qdisc_args_parse(const char *words, struct sluice_fabric_qdisc *q);

#endif /* _SLUICECTL_QDISC_ARGS_H */
