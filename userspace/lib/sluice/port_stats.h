/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A switch's port statistics (struct sluice_port_info, STATS_GET) as
 * "sluicectl stats" writes them, and its JSON read back
 * (lib/switch/port_stats.c): the format's one place, so that the writer
 * and the reader ("sluicectl fabric deadlock --state DIR", which takes
 * every switch's "sluicectl stats -j" collected from real hosts) agree.
 *
 * Every field goes under the uapi's name, as a number as the uapi has it
 * (pfc and wd_prios are bitmaps, wd_action enum tc_sluice_wd_action);
 * flags by name (sluice_prio_flags).  Text: a port's settings on its
 * first line ("port DEV ifindex N classes ..."), its counters on the
 * second, then a line per egress class and ingress priority ("  prio I
 * flags NAME,NAME ..."; "-" for none, an unknown bit in hexadecimal).
 * JSON: an array of ports, each an object with "ifname", "ifindex", the
 * settings and counters, and "prios", an array of rows with "index",
 * "flags" (an array of names) and the counters, and "sai" (the row's
 * counters under SAI's and SONiC's names, sluice/opnames.h).
 *
 * A PortFC port (portfc not TC_SLUICE_PORTFC_NONE) adds PortFC's
 * settings and counters, and portfc_relayed to its rows; a port with an
 * in-band telemetry setting (int_port, int_node, int_link) adds those and
 * INT's counters.  A kernel before them sends shorter structs, which the
 * library zero-fills: such ports read as neither and print as before.
 */
#ifndef _SLUICE_PORT_STATS_H
#define _SLUICE_PORT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sluice/switch.h>

/* A row's flag (SLUICE_PRIO_F_*) and its name in both formats. */
struct sluice_prio_flag {
	uint32_t	bit;
	const char	*name;
};

extern const struct sluice_prio_flag sluice_prio_flags[];
extern const unsigned int sluice_n_prio_flags;

/* The ports as text, a line each as above.  Time: O(ports x classes). */
void sluice_port_stats_text(FILE *f, const struct sluice_port_info *p,
			    uint32_t n);

/*
 * The ports as JSON on one line (@pretty: indented, on several), without
 * a final newline: malloc()ed (free() it), NULL when out of memory.
 * Time: O(ports x classes x fields).
 */
char *sluice_port_stats_json(const struct sluice_port_info *p, uint32_t n,
			     bool pretty);

/*
 * sluice_port_stats_json_read() - a switch's "sluicectl stats -j", read
 * @path:	the file
 * @ports:	set to its ports (malloc()ed; free() it), NULL on failure
 * @n:		set to their number
 * @err:	what is wrong, "PATH: ..." (the port, row and field named)
 * @errlen:	room in @err
 *
 * What the deadlock detector needs of each port (struct
 * sluice_dl_snap): its name (a device name) and ifindex, PortFC's
 * settings and keys (each optional, absent read as 0: not PortFC), and
 * each row's index, packets, bytes, backlog, qlen, pfc_rx, paused_us,
 * ingress_bytes, ingress_peak and xoff_tx (each required, a number in
 * its field's range) and flags (names a newer sluicectl writes and this
 * one does not know are left out).  Other fields are not read.  At most
 * 64 MiB; nothing but white space after the array.
 *
 * Time: O(the file's size).
 *
 * Return: 0, what sluice_file_read() fails with (-ENOENT, -EISDIR,
 * -E2BIG, -ENOMEM...), or -EINVAL for a file that is not such an array.
 */
int sluice_port_stats_json_read(const char *path,
				struct sluice_port_info **ports, uint32_t *n,
				char *err, size_t errlen);

#endif /* _SLUICE_PORT_STATS_H */
