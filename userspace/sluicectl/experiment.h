/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "sluicectl experiment deadlock" (experiment.c): its usage, shared with
 * the command table.
 */
#ifndef _SLUICECTL_EXPERIMENT_H
#define _SLUICECTL_EXPERIMENT_H

#define EXPERIMENT_DEADLOCK_USAGE \
	"[--name NAME] [--topo FILE] [--routes SETS] [--duration S] [--interval MS]\n" \
	"\t[--hosts-per-switch H] [--rate RATE] [--send-rate RATE] [--frame BYTES]\n" \
	"\t[--xoff BYTES] [--xon BYTES] [--headroom BYTES] [--quiet MS]\n" \
	"\t[--watchdog { drop | forward | alert } [--detection-time MS] [--restoration-time MS]]\n" \
	"\t[--svg FILE] [--keep] [-j | --json] [-v | --verbose]\n" \
	"SETS: route algorithms, comma-separated (default ecmp-cw,fc,edst); each runs on a\n" \
	"fresh fabric NAME (default sluice) of FC's testbed (or --topo), priority 3 lossless,\n" \
	"links shaped to --rate (default 1mbit), every host sending UDP DSCP 24 to every host\n" \
	"under another switch at --send-rate (default twice the link rate) in --frame-byte frames\n" \
	"(default 1442), for --duration seconds (default 20), sampled every --interval ms\n" \
	"(default 500).  xoff/xon default 20Kb/17Kb; headroom default Tagger's eq. 1 at\n" \
	"--rate plus 10 ms of it (8486 bytes at 1mbit).  A deadlock: nothing delivered for\n" \
	"the last --quiet ms (default 2000) and a wait-for cycle.  Exit 0 when every set\n" \
	"did what its CBD check predicts, 3 when not, 1 on errors."

#endif /* _SLUICECTL_EXPERIMENT_H */
