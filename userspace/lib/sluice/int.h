/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * In-band telemetry probes (lib/faca/int.c): building, reading and echoing
 * the UDP datagrams whose stack of hop records sch_sluice's ports fill as
 * the probe leaves them.  The wire layout is the kernel's ABI, struct
 * sluice_int_hdr and struct sluice_int_rec in <linux/sluice.h>; here it is
 * in host order.
 *
 * A prober sends a probe to a destination's echo responder (sluicectl int
 * echo, or a FaCa agent) from a chosen source port, so the probe takes
 * the path that port's flows take; the responder sends it back with
 * SLUICE_INT_F_ECHO and its arrival time set.  The echo travels to the
 * prober's source port, not to the probe port, so no sluice port stamps
 * it on the way back: the records are the forward path's.
 */
#ifndef _SLUICE_INT_H
#define _SLUICE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include <linux/sluice.h>

/* The port probes go to unless told otherwise (FaCa's agent, the CLI). */
#define SLUICE_INT_PORT_DEFAULT	7771

/* One port's record, as struct sluice_int_rec says. */
struct sluice_int_hop {
	uint32_t	node;
	uint32_t	ifindex;
	uint32_t	link;
	uint32_t	backlog;	/* bytes, the class of prio */
	uint32_t	port_backlog;	/* bytes, all classes */
	uint8_t		class;
	uint8_t		paused;
	uint64_t	tx_bytes;	/* the port's, before the probe */
	uint64_t	ts_ns;		/* CLOCK_REALTIME of the stamping kernel */
	uint64_t	rate;		/* bits/s, 0: unshaped */
};

struct sluice_int_probe {
	uint8_t		nrec;		/* records allocated */
	uint8_t		nused;		/* records filled, in path order */
	uint8_t		flags;		/* SLUICE_INT_F_* */
	uint8_t		prio;
	uint32_t	seq;
	uint64_t	tx_ns;
	uint64_t	echo_ns;	/* 0 unless echoed */
	struct sluice_int_hop hop[SLUICE_INT_MAX_RECS];
};

/*
 * Bytes of UDP payload a probe of @nrec records takes (header and
 * records), 0 if @nrec is not 1..SLUICE_INT_MAX_RECS.  Time: O(1).
 */
size_t sluice_int_probe_size(unsigned int nrec);

/*
 * Writes an empty probe of @nrec records into @buf (@len bytes at least
 * sluice_int_probe_size(nrec)): records zeroed, nused 0.  @prio is the
 * priority whose class backlog ports record (SLUICE_INT_PRIO_OWN: the
 * probe's own class).  Returns the bytes written, or -EINVAL.
 * Time: O(nrec).
 */
int sluice_int_probe_build(void *buf, size_t len, unsigned int nrec,
			   uint8_t prio, uint32_t seq, uint64_t tx_ns);

/*
 * Reads a probe from a UDP payload of @len bytes.  Strict: the magic, the
 * version, 1 <= nrec <= SLUICE_INT_MAX_RECS, nused <= nrec, and a payload
 * of at least sluice_int_probe_size(nrec) bytes.  Returns 0; -EBADMSG if
 * it is not a probe (magic, or too short for its header); -EPROTO for
 * another version; -EINVAL for counts that do not hold.  Time: O(nused).
 */
int sluice_int_probe_parse(const void *buf, size_t len,
			   struct sluice_int_probe *p);

/*
 * Turns the probe in @buf into its echo, in place: SLUICE_INT_F_ECHO and
 * echo_ns set.  Returns 0, or what sluice_int_probe_parse() says of it.
 * Time: O(1).
 */
int sluice_int_probe_echo(void *buf, size_t len, uint64_t echo_ns);

/* CLOCK_REALTIME in nanoseconds: the clock the ports stamp with. */
uint64_t sluice_int_now(void);

/*
 * A UDP socket for probing or echoing: bound to @port of any address (0:
 * an ephemeral port), with IP_TOS @tos (a probe's class).  Returns the
 * descriptor, or -errno with @err set.  Time: O(1).
 */
int sluice_int_socket(uint16_t port, uint8_t tos, char *err, size_t errlen);

/* What one probe asks. */
struct sluice_int_req {
	uint32_t	dst;		/* IPv4, network order */
	uint16_t	port;		/* the responder's (probe) port */
	uint8_t		nrec;
	uint8_t		prio;
	uint32_t	seq;
	uint64_t	timeout_ns;	/* for the echo */
};

/*
 * Sends a probe from @fd (a sluice_int_socket()) and waits for its echo:
 * a datagram from @req->dst:@req->port carrying the same seq (others are
 * skipped).  Fills @p with the echo and @rtt_ns with the round trip.
 * Returns 0, -ETIMEDOUT, or -errno with @err set.  Time: O(datagrams
 * received until the echo).
 */
int sluice_int_ping(int fd, const struct sluice_int_req *req,
		    struct sluice_int_probe *p, uint64_t *rtt_ns, char *err,
		    size_t errlen);

/*
 * Receives one datagram on @fd within @timeout_ns (0: wait forever); if
 * it is a probe, echoes it to its sender and fills @p (the probe as it
 * arrived, echo_ns set) and, when not NULL, @from_addr / @from_port
 * (network order).  Returns 0; -EBADMSG, -EPROTO or -EINVAL for a
 * datagram that is not a valid probe (not answered); -ETIMEDOUT; or
 * -errno with @err set.  Time: O(1).
 */
int sluice_int_echo_one(int fd, uint64_t timeout_ns,
			struct sluice_int_probe *p, uint32_t *from_addr,
			uint16_t *from_port, char *err, size_t errlen);

/* Where a probe sits in a captured frame (sluice_int_frame_find()). */
struct sluice_int_frame {
	uint32_t	saddr, daddr;	/* network order */
	uint16_t	sport, dport;	/* host order */
	uint8_t		vlans;		/* VLAN tags looked through */
	uint8_t		labels;		/* MPLS label stack entries */
	size_t		offset;		/* of the UDP payload in the frame */
	size_t		len;		/* of the UDP payload, as UDP says */
};

/*
 * Finds the UDP payload of an IPv4 datagram to @port in the Ethernet frame
 * @frame of @len bytes (as tcpdump captures it: from the destination MAC
 * on), the way the ports look: up to two VLAN tags, then an MPLS label
 * stack (the IPv4 header under its bottom entry), then IPv4 (options
 * skipped; not a later fragment), then UDP.  Fills @f and returns 0;
 * -ENOENT if the frame is no such datagram; -EINVAL if it claims to be
 * but is cut short (the capture's snap length, or a lying header).
 * Time: O(labels).
 */
int sluice_int_frame_find(const uint8_t *frame, size_t len, uint16_t port,
			  struct sluice_int_frame *f);

#endif /* _SLUICE_INT_H */
