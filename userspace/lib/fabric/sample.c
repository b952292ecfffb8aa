// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A run of the traffic engine (udpgen.c) sampled at a fixed interval, and
 * the machine's readings a run is judged beside: how busy its CPUs were
 * (a run whose CPUs were saturated measures the emulation, not the
 * fabric) and how many frames the kernel's ARP layer discarded (lost
 * outside every sluice queue).  The experiments "deadlock", "bcube" and
 * "faca-micro" take their samples through it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sluice/experiment.h>

/**
 * sluice_cpu_times() - busy and total jiffies of every CPU
 * @busy:	set to the jiffies not idle and not waiting for I/O
 * @total:	set to every jiffy
 *
 * From /proc/stat's first line, summed over the machine's CPUs.
 *
 * Return: 0, or -1 if /proc/stat cannot be read.
 */
int sluice_cpu_times(uint64_t *busy, uint64_t *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n, i;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 4)
		return -1;
	*total = 0;
	for (i = 0; i < 8; i++)
		*total += v[i];
	*busy = *total - v[3] - v[4];
	return 0;
}

/**
 * sluice_arp_discards() - frames discarded with their next hop unresolved
 *
 * The kernel's unresolved_discards of /proc/net/stat/arp_cache, summed
 * over its per-CPU rows.  One table for the whole machine: frames a switch
 * routes to a neighbour that fails to answer ARP wait outside every
 * sluice queue and are lost there, counted only here.
 *
 * Return: the count, or -1 if it cannot be read.
 */
int64_t sluice_arp_discards(void)
{
	unsigned long long v[12];
	char line[512];
	int64_t sum = 0;
	FILE *f = fopen("/proc/net/stat/arp_cache", "r");
	int rows = 0;

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %llx %llx %llx %llx %llx %llx %llx %llx %llx %llx %llx",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7], &v[8], &v[9], &v[10], &v[11]) != 12)
			break;
		sum += v[11];
		rows++;
	}
	fclose(f);
	return rows ? sum : -1;
}

/**
 * sluice_udpgen_sample() - run the traffic, a sample every interval
 * @t:		opened (and warmed up, if wanted); its counters are reset
 * @o:		how many samples, how long each, what to do with each
 * @cpu_busy:	set to the CPUs' busy share over the run (0 to 1); left 0
 *		if /proc/stat could not be read
 *
 * Sample i ends at start + (i + 1) * interval, on the clock, whatever the
 * engine's steps took: a slow step makes the next sample shorter, not the
 * run longer.  After each, @o->sample sees the flows' counters as they
 * stand (cumulative since the start).
 *
 * Return: 0, or -EINTR if *@o->stop was set (the samples before it were
 * taken; @cpu_busy is left 0).
 */
int sluice_udpgen_sample(struct sluice_udpgen *t,
			 const struct sluice_udpgen_sample_opts *o,
			 double *cpu_busy)
{
	uint64_t busy0 = 0, total0 = 0, busy1, total1;
	bool cpu = !sluice_cpu_times(&busy0, &total0);
	double t0 = sluice_now();
	uint32_t i;

	*cpu_busy = 0;
	sluice_udpgen_reset(t, t0);
	for (i = 0; i < o->n; i++) {
		if (o->stop && *o->stop)
			return -EINTR;
		sluice_udpgen_run_until(t, t0 + (i + 1) * o->interval_ms / 1000.0,
					o->tick);
		if (o->sample)
			o->sample(o->arg, i, t);
	}
	if (cpu && !sluice_cpu_times(&busy1, &total1) && total1 > total0)
		*cpu_busy = (double)(busy1 - busy0) / (total1 - total0);
	return 0;
}
