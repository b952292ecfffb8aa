// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The table of qopt_fields.h: every scalar option of the qdisc, its
 * attribute, member and present bit, in the order the plugin sends them.
 * Each member has its attribute's uapi type, so the sizes agree.
 */
#include <sluice/qopt.h>
#include "qopt_fields.h"

#define FIELD(attr, member, bit) \
	{ attr, offsetof(struct sluice_qopt, member), \
	  sizeof(((struct sluice_qopt *)0)->member), bit }

const struct sluice_i_qopt_field sluice_i_qopt_fields[] = {
	FIELD(TCA_SLUICE_CLASSES, classes, SLUICE_QOPT_CLASSES),
	FIELD(TCA_SLUICE_TAG, tag, SLUICE_QOPT_TAG),
	FIELD(TCA_SLUICE_DEFAULT, defclass, SLUICE_QOPT_DEFAULT),
	FIELD(TCA_SLUICE_LIMIT, limit, SLUICE_QOPT_LIMIT),
	FIELD(TCA_SLUICE_RATE, rate, SLUICE_QOPT_RATE),
	FIELD(TCA_SLUICE_PFC, pfc, SLUICE_QOPT_PFC),
	FIELD(TCA_SLUICE_PAUSE_RX, pause_rx, SLUICE_QOPT_PAUSE_RX),
	FIELD(TCA_SLUICE_XOFF, xoff, SLUICE_QOPT_XOFF),
	FIELD(TCA_SLUICE_XON, xon, SLUICE_QOPT_XON),
	FIELD(TCA_SLUICE_HEADROOM, headroom, SLUICE_QOPT_HEADROOM),
	FIELD(TCA_SLUICE_PAUSE_TIME, pause_time, SLUICE_QOPT_PAUSE_TIME),
	FIELD(TCA_SLUICE_WD_PRIOS, wd_prios, SLUICE_QOPT_WD_PRIOS),
	FIELD(TCA_SLUICE_WD_ACTION, wd_action, SLUICE_QOPT_WD_ACTION),
	FIELD(TCA_SLUICE_WD_DETECT, wd_detect_ms, SLUICE_QOPT_WD_DETECT),
	FIELD(TCA_SLUICE_WD_RESTORE, wd_restore_ms, SLUICE_QOPT_WD_RESTORE),
	FIELD(TCA_SLUICE_WD_POLL, wd_poll_ms, SLUICE_QOPT_WD_POLL),
	FIELD(TCA_SLUICE_PORTFC, portfc, SLUICE_QOPT_PORTFC),
	FIELD(TCA_SLUICE_PORTFC_N, portfc_n, SLUICE_QOPT_PORTFC_N),
	FIELD(TCA_SLUICE_PORTFC_K, portfc_k, SLUICE_QOPT_PORTFC_K),
	FIELD(TCA_SLUICE_PORTFC_INDEX, portfc_index, SLUICE_QOPT_PORTFC_INDEX),
	FIELD(TCA_SLUICE_PORTFC_LABEL_BASE, portfc_label_base,
	      SLUICE_QOPT_PORTFC_LABEL_BASE),
	FIELD(TCA_SLUICE_PORTFC_XOFF_A, portfc_xoff_a, SLUICE_QOPT_PORTFC_XOFF_A),
	FIELD(TCA_SLUICE_PORTFC_XON_A, portfc_xon_a, SLUICE_QOPT_PORTFC_XON_A),
	FIELD(TCA_SLUICE_PORTFC_XOFF_B, portfc_xoff_b, SLUICE_QOPT_PORTFC_XOFF_B),
	FIELD(TCA_SLUICE_PORTFC_XON_B, portfc_xon_b, SLUICE_QOPT_PORTFC_XON_B),
	FIELD(TCA_SLUICE_PORTFC_HQ, portfc_hq, SLUICE_QOPT_PORTFC_HQ),
	FIELD(TCA_SLUICE_PORTFC_HQ_DSCP, portfc_hq_dscp,
	      SLUICE_QOPT_PORTFC_HQ_DSCP),
	FIELD(TCA_SLUICE_INT_PORT, int_port, SLUICE_QOPT_INT_PORT),
	FIELD(TCA_SLUICE_INT_NODE, int_node, SLUICE_QOPT_INT_NODE),
	FIELD(TCA_SLUICE_INT_LINK, int_link, SLUICE_QOPT_INT_LINK),
};

const size_t sluice_i_qopt_n_fields =
	sizeof(sluice_i_qopt_fields) / sizeof(sluice_i_qopt_fields[0]);
