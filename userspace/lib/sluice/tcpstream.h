/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Long-lived TCP flows between a fabric's hosts, and each one's throughput
 * over time (lib/fabric/tcpstream.c): what TCP-Bolt's Figs. 4, 5, 7, 9 and
 * 10 plot.  A flow is a connection from its source's namespace, made at
 * its start, that writes as fast as TCP lets it until its stop, when it is
 * closed; the destination counts the bytes it reads per interval, so a
 * flow's throughput is what arrived (goodput), binned where it arrived.
 *
 * One thread runs every flow, switching namespaces only to make sockets
 * (a socket stays in the namespace it was made in), as the FCT engine
 * (tcpgen.h) does, so that under emulation a run costs no process per
 * flow.  A flow's first eight bytes name it to the receiver.
 */
#ifndef _SLUICE_TCPSTREAM_H
#define _SLUICE_TCPSTREAM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sluice/tcpgen.h>

struct sluice_stream_flow {
	uint32_t	src, dst;	/* indexes in the hosts given */
	double		start, stop;	/* s from the run's start */
	uint8_t		tos;		/* DSCP << 2; 0: the run's */
	/* filled by sluice_stream_run() */
	uint64_t	*bins;		/* bytes read per interval */
	uint64_t	bytes;		/* read in all */
	uint32_t	retrans;	/* the sender's, at its stop */
	uint32_t	cwnd_max;	/* the sender's largest cwnd seen */
	uint16_t	sport;		/* its source port, once connected */
	bool		faca;		/* the FaCa agent chose it */
	/*
	 * With the sport options' faca, when the kernel's port was taken:
	 * the errno of the agent's call, or of binding the port it gave; 0
	 */
	int		faca_error;
	int		error;		/* errno of a failure, 0: none */
};

struct sluice_stream_opts {
	double		interval;	/* s a bin, > 0 */
	double		duration;	/* s the run lasts */
	const char	*cc;		/* TCP_CONGESTION; NULL: the route's */
	uint8_t		tos;		/* DSCP << 2 | ECN bits 0 */
	struct sluice_sport_opts sport;	/* sluice/tcpgen.h */
	/* set by a signal handler to stop the run (-EINTR); NULL: never */
	const volatile sig_atomic_t *stop;
	/*
	 * Called from the run's thread, in the caller's namespace, as each
	 * bin ends (its index; every bin once, in order, the last ones at
	 * the run's end), so that the caller samples the fabric on the
	 * run's own clock: the queues of a switch, say, through sockets it
	 * opened before.  NULL: never.
	 */
	void		(*bin_end)(void *arg, uint32_t bin);
	void		*bin_arg;
};

/*
 * Runs @n_flows flows among @n_hosts hosts (their namespaces and
 * addresses; listen_fd, ns_fd and port are the engine's) for
 * @o->duration seconds; each flow's @bins gets ceil(duration / interval)
 * bins (freed by sluice_stream_free()).  A flow that fails to connect or
 * is reset keeps its error and what it delivered; the run goes on.
 * Time: the duration, O(bytes) work.
 */
int sluice_stream_run(struct sluice_tcpgen_host *hosts, uint32_t n_hosts,
		      struct sluice_stream_flow *fl, uint32_t n_flows,
		      const struct sluice_stream_opts *o, char *err,
		      size_t errlen);
uint32_t sluice_stream_bins(const struct sluice_stream_opts *o);
void sluice_stream_free(struct sluice_stream_flow *fl, uint32_t n_flows);

/* Mean bit/s of flow @f over bins [@from, @to). O(bins). */
double sluice_stream_rate(const struct sluice_stream_flow *f,
			  const struct sluice_stream_opts *o, uint32_t from,
			  uint32_t to);

#endif /* _SLUICE_TCPSTREAM_H */
