/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sluicectl faca's commands of the host agent (faca_agent.c), listed in
 * faca.c's table with the hook's.
 */
#ifndef _SLUICECTL_FACA_H
#define _SLUICECTL_FACA_H

#include "sluicectl.h"

#define FACA_AGENT_HELP \
	"Run FaCa's host agent: probe paths, estimate their load, lease source ports"
#define FACA_AGENT_USAGE \
	"[--socket PATH] [--port PORT] [--sports A-B[,C-D...] | --fabric NAME --routes FILE\n" \
	"\t[--per-path N]] [--k K] [--interval TIME] [--timeout TIME] [--lease TIME] [--tos TOS]\n" \
	"\t[--load { time | bdp }]\n" \
	"\t[--demand BYTES] [--records N] [--sweep N] [--seed N] [-v | --verbose] [DST...]\n" \
	"\tProbes every destination DST (IPv4), and those flows ask for, every --interval\n" \
	"\t(default 100ms) from each source port of --sports (default 20000-20063; several\n" \
	"\tranges, e.g. an exact fabric's per path: 20000-20007,20064-20071; --fabric NAME\n" \
	"\tin multipath mode exact: --per-path ports (8) of each path's range, for the\n" \
	"\tpaths of --routes FILE, the routes it holds, from this host's switch) until\n" \
	"\tthe port's path is known, then from a port of each path, learning which port\n" \
	"\ttakes which path from the records sluice ports write (int-port PORT on them).\n" \
	"\tAnswers other hosts' probes on UDP --port (default 7771): run one agent on\n" \
	"\tevery host.  Per path: B (the lowest rate), the bottleneck utilisation, D (the\n" \
	"\tprobe's one-way delay), and E, the EWMA of the load metric with Eq. 3's k\n" \
	"\t(--k, default 5 per second).  --load time (default): D + --demand bytes (64k)\n" \
	"\tat the bandwidth left; bdp: the paper's B * D, which can read a path slowed by\n" \
	"\ta lower rate as the lighter (README, \"FaCa agent\").  New flows get a port of the\n" \
	"\tpath Flowing&Jumping chooses, leased for at least --lease (default 10s) and\n" \
	"\tas long as a TCP socket uses it.  --tos: the probes' TOS byte (default 0, a\n" \
	"\tlossy class, so that a pause does not read as load).  --timeout: an echo's\n" \
	"\twait (default 500ms).  --records: per probe (default 8).  --sweep: pool ports\n" \
	"\tprobed again each round to see them move (default 2).  --seed: of\n" \
	"\tFlowing&Jumping's draws.  Serves requests on --socket (default\n" \
	"\t/run/sluice/faca-net<inode>.sock, one per network namespace) until SIGINT or\n" \
	"\tSIGTERM; -v prints what it learns on stderr."

#define FACA_SHOW_HELP \
	"Print the agent's table: destinations, paths, their load, ports and leases"
#define FACA_SHOW_USAGE \
	"[--socket PATH] [-j | --json]\n" \
	"\tAsks the agent of this network namespace (or at --socket).  Per path: its\n" \
	"\trecords (node/ifindex/link), B, utilisation, the bandwidth left, D, round\n" \
	"\ttrip, beta and E (seconds for --load time, bits for bdp), ports and leases."

#define FACA_SPORT_HELP \
	"Ask the agent for a source port for a new flow to DST, and print it"
#define FACA_SPORT_USAGE \
	"DST [--socket PATH] [--lease TIME] [-j | --json]\n" \
	"\tThe port is leased to the flow for --lease (default: the agent's), or as long\n" \
	"\tas a TCP socket of the namespace uses it toward DST.  Without an agent it fails\n" \
	"\t(exit 1), and the caller falls back to a port of the kernel's (plain ECMP)."

int faca_agent_main(const struct command *cmd, int argc, char **argv);
int faca_show_main(const struct command *cmd, int argc, char **argv);
int faca_sport_main(const struct command *cmd, int argc, char **argv);

#endif /* _SLUICECTL_FACA_H */
