/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sluicectl faca's commands of the host agent (faca_agent.c), listed in
 * faca.c's table with the hook's.
 */
#ifndef _SLUICECTL_CMD_FACA_H
#define _SLUICECTL_CMD_FACA_H

#include "sluicectl.h"

#define FACA_AGENT_HELP \
	"Run FaCa's host agent: probe paths, estimate their load, lease source ports"
#define FACA_AGENT_USAGE \
	"[--socket PATH] [--port PORT] [--sports A-B[,C-D...]]\n" \
	"\t[--fabric NAME --routes FILE [--per-path N]] [--k K] [--interval TIME]\n" \
	"\t[--timeout TIME] [--lease TIME] [--tos TOS] [--load { time | bdp }]\n" \
	"\t[--demand BYTES] [--records N] [--sweep N] [--seed N]\n" \
	"\t[--hook [--dst PREFIX[,PREFIX...]] [--queue N] [--udp]] [-v | --verbose] [DST...]\n" \
	"\tProbes every destination DST (IPv4), and those flows ask for, every --interval\n" \
	"\t(default 100ms) from each source port of --sports (default 20000-20063; several\n" \
	"\tranges, e.g. an exact fabric's per path: 20000-20007,20064-20071) until the\n" \
	"\tport's path is known, then from a port of each path, learning which port\n" \
	"\ttakes which path from the records sluice ports write (int-port PORT on them).\n" \
	"\t--fabric NAME --routes FILE (the routes it holds) names each path by the\n" \
	"\troute it matches, on a fabric brought up with --int-port (its ports' records\n" \
	"\tname their node and link); without --sports, on a fabric in multipath mode\n" \
	"\texact, the pool is --per-path ports (8) of each path's range from this host's\n" \
	"\tswitch.  Answers other hosts' probes on UDP --port (default 7771): run one\n" \
	"\tagent on every host.  Per path: B (the lowest rate), the bottleneck\n" \
	"\tutilisation, D (the probe's one-way delay), and E, the EWMA of the load metric\n" \
	"\twith Eq. 3's k (--k, default 5 per second).  --load time (default): D +\n" \
	"\t--demand bytes (64k) at the bandwidth left; bdp: the paper's B * D, which can\n" \
	"\tread a path slowed by a lower rate as the lighter (docs/faca.md, \"FaCa agent\").  New\n" \
	"\tflows get a port of the path Flowing&Jumping chooses, leased for at least\n" \
	"\t--lease (default 10s) and as long as a TCP socket uses it.  --tos: the probes'\n" \
	"\tTOS byte (default 0, a lossy class, so that a pause does not read as load).\n" \
	"\t--timeout: an echo's wait (default 500ms).  --records: per probe (default 8).\n" \
	"\t--sweep: pool ports probed again each round to see them move (default 2).\n" \
	"\t--seed: of Flowing&Jumping's draws (default random).  --hook: unmodified programs, through\n" \
	"\tthe netfilter hook (as \"faca hook\" installs it, the table ip sluice_faca): the\n" \
	"\tfirst packet of every new TCP flow (and UDP flow, with --udp) to --dst (default:\n" \
	"\tany but loopback) waits on NFQUEUE --queue (default 0) while Flowing&Jumping\n" \
	"\tplaces it, and NAT rewrites its source port to the port leased; a flow to a\n" \
	"\tdestination not probed yet waits for its first round (at most --timeout and\n" \
	"\t500ms), one with no path known keeps its own port; the lease lasts while\n" \
	"\tconntrack has the flow open.  Agent stopped or killed, new flows bypass the\n" \
	"\tqueue with their own ports and rewritten flows keep their translation.  Serves\n" \
	"\trequests on --socket (default /run/sluice/faca-net<inode>.sock, one per network\n" \
	"\tnamespace) until SIGINT or SIGTERM; -v prints what it learns, and each hooked\n" \
	"\tflow, on stderr."

#define FACA_SHOW_HELP \
	"Print the agent's table: destinations, paths, their load, ports and leases"
#define FACA_SHOW_USAGE \
	"[--socket PATH] [-j | --json]\n" \
	"\tAsks the agent of this network namespace (or at --socket).  Per path: the\n" \
	"\tnodes of the route it matches (an agent given --fabric and --routes), its\n" \
	"\trecords (node/ifindex/link), B, utilisation, the bandwidth left, D, round\n" \
	"\ttrip, beta and E (seconds for --load time, bits for bdp), ports and leases,\n" \
	"\teach hooked flow's with the flow; with --hook, the hook's counters."

#define FACA_SPORT_HELP \
	"Ask the agent for a source port for a new flow to DST, and print it"
#define FACA_SPORT_USAGE \
	"DST [--socket PATH] [--lease TIME] [-j | --json]\n" \
	"\tThe port is leased to the flow for --lease (default: the agent's), or as long\n" \
	"\tas a TCP socket of the namespace uses it toward DST.  Without an agent it fails\n" \
	"\t(exit 1), and the caller falls back to a port of the kernel's (plain ECMP)."

struct sluice_faca_prefix;

/*
 * --dst "A/N,B/M,...": every prefix checked, at most
 * SLUICE_FACA_HOOK_MAX_DST into @dst, their count in *@n; usage errors
 * printed (faca.c, for the hook and the agent's).
 */
int faca_parse_dst(const struct command *cmd, const char *list,
		   struct sluice_faca_prefix *dst, size_t *n);

int faca_agent_main(const struct command *cmd, int argc, char **argv);
int faca_show_main(const struct command *cmd, int argc, char **argv);
int faca_sport_main(const struct command *cmd, int argc, char **argv);

#endif /* _SLUICECTL_CMD_FACA_H */
