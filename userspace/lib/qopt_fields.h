/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The qdisc's scalar options as netlink attributes, one table for the
 * encoder (qopt_enc.c) and the decoder (qopt_dec.c), so that an option
 * added to one is in the other (internal, not installed).
 */
#ifndef _SLUICE_LIB_QOPT_FIELDS_H
#define _SLUICE_LIB_QOPT_FIELDS_H

#include <stddef.h>
#include <linux/types.h>

/* Attribute @type carries the member at @off of struct sluice_qopt. */
struct sluice_i_qopt_field {
	unsigned int	type;		/* TCA_SLUICE_* */
	size_t		off;
	size_t		size;		/* the member's, the payload's */
	__u64		bit;		/* SLUICE_QOPT_* */
};

/*
 * In the order the plugin sends them; the maps and
 * TCA_SLUICE_DEFAULT_MAPS follow them, and are not in the table.
 */
extern const struct sluice_i_qopt_field sluice_i_qopt_fields[];
extern const size_t sluice_i_qopt_n_fields;

#endif /* _SLUICE_LIB_QOPT_FIELDS_H */
