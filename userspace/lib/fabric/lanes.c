// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fabric's lanes ("fabric up --lanes L"): what they ask of every port's
 * qdisc options.  Lane i's frames carry DSCP i (sluice/fabric.h has why
 * DSCP, and why 0 to 7), and every port, link and host ports alike, must
 * put them in lane i's own lossless priority: the qdisc classifies by
 * DSCP, the DSCP map sends DSCP d to the priority of the lane the
 * switches route it on (lane d & 7 if there is one, else lane 0: the main
 * table), and every lane's priority is in the PFC mask.
 *
 * The priorities are the lowest L of --pfc if it is given, else L in a
 * row from 3 (the plain PFC default), moved down as far as needed to fit
 * below 8.  The options that would undo that are refused: another tag
 * source, a DSCP map of one's own, too few lossless priorities, too few
 * classes, and flow control that chooses priorities by other means
 * (PFC*'s tag tables, PortFC's per-port queues).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sluice/fabric_nl.h>
#include <sluice/route.h>
#include "graph/internal.h"

/* The priorities of @lanes lanes when --pfc does not give them. */
static uint8_t default_pfc(uint32_t lanes)
{
	uint32_t first = lanes > 5 ? 8 - lanes : 3;

	return ((1u << lanes) - 1) << first;
}

static int lanes_qopt(struct sluice_qopt *o, uint32_t lanes,
		      const uint8_t *prio, const char *what, char *err,
		      size_t errlen)
{
	uint32_t d, lane;

	if ((o->present & SLUICE_QOPT_TAG) && o->tag != TC_SLUICE_TAG_DSCP)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "lanes are told apart by DSCP: %s: --tag must be dscp (or left out)",
				     what);
	if ((o->present & SLUICE_QOPT_DSCP_MAP) ||
	    (o->default_maps & SLUICE_DEFAULT_MAP(TC_SLUICE_TAG_DSCP)))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s: --lanes makes the DSCP map (DSCP i to lane i's priority): leave --dscp-map out",
				     what);
	if ((o->present & SLUICE_QOPT_CLASSES) && o->classes <= prio[lanes - 1])
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s: lane %u's priority %u is class %u: --classes must be more than %u",
				     what, lanes - 1, prio[lanes - 1],
				     prio[lanes - 1], prio[lanes - 1]);
	o->tag = TC_SLUICE_TAG_DSCP;
	o->present |= SLUICE_QOPT_TAG | SLUICE_QOPT_DSCP_MAP;
	for (d = 0; d < TC_SLUICE_DSCP_VALUES; d++) {
		lane = d & 7;
		o->maps[TC_SLUICE_TAG_DSCP].tclass[d] =
			prio[lane < lanes ? lane : 0];
	}
	o->maps[TC_SLUICE_TAG_DSCP].given = ~0ull;
	return 0;
}

/**
 * sluice_fabric_lanes_apply() - check and complete the qdisc options of a
 * fabric of @q->lanes lanes
 * @q:		the options as given, @q->lanes 1 to SLUICE_LANES_MAX (0: no
 *		lanes, nothing done), @q->fc set; completed in place, and
 *		@q->lane_prio[] set
 * @err:	the reason, if they do not fit
 * @errlen:	room in @err
 *
 * Called by sluice_fabric_fc_apply() first, so that plain PFC then checks
 * one lossless priority per lane.
 *
 * Return: 0 or -EINVAL.
 */
int sluice_fabric_lanes_apply(struct sluice_fabric_qdisc *q, char *err,
			      size_t errlen)
{
	uint32_t lanes = q->lanes, lane = 0, p;
	uint8_t pfc;
	int ret;

	if (!lanes)
		return 0;
	if (lanes > SLUICE_LANES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%u lanes: at most %d (DSCP 0 to 7, see sluicectl-fabric(8))",
				     lanes, SLUICE_LANES_MAX);
	if (q->fc == SLUICE_FABRIC_FC_PFC_STAR ||
	    q->fc == SLUICE_FABRIC_FC_PORTFC)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "lanes choose each frame's priority by its DSCP; %s chooses it by other means: use --flow-control pfc or none",
				     sluice_fabric_fc_name(q->fc));
	if ((q->link.present ^ q->host.present) & SLUICE_QOPT_PFC ||
	    q->link.pfc != q->host.pfc)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "lanes need the same lossless priorities on link and host ports");
	pfc = q->link.present & SLUICE_QOPT_PFC ? q->link.pfc :
	      default_pfc(lanes);
	if ((uint32_t)__builtin_popcount(pfc) < lanes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%u lanes need %u lossless priorities, one each: --pfc gives %d",
				     lanes, lanes, __builtin_popcount(pfc));
	for (p = 0; p < 8 && lane < lanes; p++)
		if (pfc & 1u << p)
			q->lane_prio[lane++] = p;
	q->link.pfc = q->host.pfc = pfc;
	q->link.present |= SLUICE_QOPT_PFC;
	q->host.present |= SLUICE_QOPT_PFC;
	ret = lanes_qopt(&q->link, lanes, q->lane_prio, "link ports", err,
			 errlen);
	return ret ? ret : lanes_qopt(&q->host, lanes, q->lane_prio,
				      "host ports", err, errlen);
}
