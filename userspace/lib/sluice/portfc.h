/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PortFC (ICS'25) as tc and sluicectl write it: the port's role, its HQ
 * list ("ack,arp", "none"), the classes a role needs and the thresholds
 * derived from a round trip.  See "PortFC" in <linux/sluice.h>.
 */
#ifndef _SLUICE_PORTFC_H
#define _SLUICE_PORTFC_H

#include <stddef.h>
#include <linux/types.h>
#include <linux/sluice.h>

/* The kernel's default k (the uapi says it in prose only). */
#define SLUICE_PORTFC_K_DEFAULT		1

/* The largest MPLS label, which bounds the label base. */
#define SLUICE_MPLS_LABEL_MAX		((1u << 20) - 1)

/*
 * The paper's thresholds (Section 3): Xoff is 6 and Xon 4 bandwidth-delay
 * products, for type A and type B alike.
 */
#define SLUICE_PORTFC_XOFF_BDPS		6
#define SLUICE_PORTFC_XON_BDPS		4

/* The longest round trip "portfc-rtt" takes, in ns: 1 s. */
#define SLUICE_PORTFC_RTT_MAX_NS	1000000000ull

/* Room for sluice_portfc_hq_format() of any set: "ack,arp". */
#define SLUICE_PORTFC_HQ_STRLEN		16

struct sluice_portfc_thresholds {
	__u64	bdp;		/* bytes, rounded up */
	__u32	xoff;		/* SLUICE_PORTFC_XOFF_BDPS * bdp */
	__u32	xon;		/* SLUICE_PORTFC_XON_BDPS * bdp */
};

const char *sluice_portfc_role_name(unsigned int role);
int sluice_portfc_role_parse(const char *str, __u8 *role);
unsigned int sluice_portfc_classes(unsigned int role, unsigned int n,
				   unsigned int k);
const char *sluice_portfc_hq_name(unsigned int bit);
int sluice_portfc_hq_parse(const char *str, __u8 *hq, const char **item);
char *sluice_portfc_hq_format(__u8 hq, char *buf, size_t len);
int sluice_parse_time(const char *str, __u64 max, __u64 *ns);
int sluice_parse_ns(const char *str, __u64 *ns);
/* Time: O(1). */
int sluice_portfc_thresholds(__u64 rate, __u64 rtt_ns,
			     struct sluice_portfc_thresholds *t);

#endif /* _SLUICE_PORTFC_H */
