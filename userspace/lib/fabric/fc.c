// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fabric's flow control, chosen once for all its ports ("fabric up
 * --flow-control"): what each choice asks of the qdisc options, checked
 * and completed before anything is made, and the options of each port
 * where they differ by port (PortFC's role and index).
 *
 *   pfc       plain PFC (IEEE 802.1Qbb): one lossless priority, ingress
 *             accounting at every node that forwards, switches and
 *             servers alike;
 *   pfc-star  PFC* (PortFC, ICS'25, Section 5.1): PFC with Tagger's
 *             priority cut-over per hop (every priority lossless; the
 *             tables "sluicectl tag compute --mode depth" writes for the
 *             fabric's routes pick the priority of each hop, loaded with
 *             them by "route load --tags ... --tag-source mpls-depth");
 *   portfc    PortFC (Sections 3.2-3.4): per-port queues at every switch
 *             and server port of a BCube, egress detection at switches,
 *             relay at servers; thresholds by the paper's rule (6 and 4
 *             BDPs) from the round trip of the emulated link.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sluice/fabric_nl.h>
#include <sluice/portfc.h>
#include "graph/internal.h"

static const char *const fc_names[] = {
	[SLUICE_FABRIC_FC_NONE]		= "none",
	[SLUICE_FABRIC_FC_PFC]		= "pfc",
	[SLUICE_FABRIC_FC_PFC_STAR]	= "pfc-star",
	[SLUICE_FABRIC_FC_PORTFC]	= "portfc",
};

/* The name of flow control @fc ("none" ... "portfc"), "?" if none. O(1). */
const char *sluice_fabric_fc_name(unsigned int fc)
{
	return fc < sizeof(fc_names) / sizeof(fc_names[0]) ? fc_names[fc] :
	       "?";
}

/* The flow control named @s, or -EINVAL. O(1). */
int sluice_fabric_fc_parse(const char *s)
{
	unsigned int fc;

	for (fc = 0; fc < sizeof(fc_names) / sizeof(fc_names[0]); fc++)
		if (!strcmp(s, fc_names[fc]))
			return fc;
	return -EINVAL;
}

/* The value of the generator's parameter @name, or -1. O(params). */
static int64_t graph_param(const struct sluice_graph *g, const char *name)
{
	uint32_t i;

	for (i = 0; i < g->n_params; i++)
		if (!strcmp(g->params[i].name, name))
			return (int64_t)g->params[i].value;
	return -1;
}

/**
 * sluice_fabric_bcube() - BCube(n, k)'s n and k, if the topology is one
 * @g:	a topology
 * @n:	set to n
 * @k:	set to k
 *
 * Return: true if @g was made by the BCube generator (its family and
 * parameters say so).
 */
bool sluice_fabric_bcube(const struct sluice_graph *g, uint32_t *n,
			 uint32_t *k)
{
	int64_t pn = graph_param(g, "n"), pk = graph_param(g, "k");

	if (strcmp(g->family, "bcube") || pn < 2 || pk < 0)
		return false;
	*n = pn;
	*k = pk;
	return true;
}

/*
 * The round trip PortFC's thresholds are derived from on an emulated
 * link, in ns: the link has no propagation delay worth counting, so the
 * time a pause takes to act is serialisation, a frame of the host MTU the
 * upstream port has begun to send when the signal arrives, and the signal
 * itself queued behind at most one such frame on the reverse link (HQ is
 * strict, but does not preempt a frame on the wire).
 */
static uint64_t portfc_rtt_ns(uint64_t rate)
{
	uint64_t bits = 2ull * (SLUICE_FABRIC_HOST_MTU + 14) * 8;

	return (bits * 1000000000ull + rate - 1) / rate;
}

static int check_pfc(struct sluice_qopt *o, const char *what,
		     char *err, size_t errlen)
{
	if (!(o->present & (SLUICE_QOPT_XOFF | SLUICE_QOPT_XOFF_AUTO)))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s needs an xoff (--xoff BYTES, or --xoff auto with --rate)",
				     what);
	if (o->present & SLUICE_QOPT_PORTFC)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s: the portfc options belong to --flow-control portfc",
				     what);
	return 0;
}

/*
 * Plain PFC: one lossless priority, priority 3 unless another is given;
 * with lanes, one per lane (sluice_fabric_lanes_apply() chose them).
 */
static int apply_pfc(struct sluice_qopt *o, uint32_t lanes, char *err,
		     size_t errlen)
{
	if (!(o->present & SLUICE_QOPT_PFC)) {
		o->pfc = 1u << 3;
		o->present |= SLUICE_QOPT_PFC;
	}
	if (lanes > 1 && __builtin_popcount(o->pfc) != (int)lanes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "plain PFC has one lossless priority per lane (%u), not %d",
				     lanes, __builtin_popcount(o->pfc));
	if (lanes <= 1 && o->pfc & (o->pfc - 1))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "plain PFC has one lossless priority, not %d (pfc-star gives each hop its own)",
				     __builtin_popcount(o->pfc));
	return check_pfc(o, "PFC", err, errlen);
}

/* PFC*: every priority lossless; Tagger's tables pick them per hop. */
static int apply_pfc_star(struct sluice_qopt *o, char *err, size_t errlen)
{
	if ((o->present & SLUICE_QOPT_PFC) && o->pfc != 0xff)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "PFC* makes every priority lossless (the routes' tag tables choose among them): leave --pfc out");
	o->pfc = 0xff;
	o->present |= SLUICE_QOPT_PFC;
	return check_pfc(o, "PFC*", err, errlen);
}

static int apply_portfc(const struct sluice_graph *g, struct sluice_qopt *o,
			char *err, size_t errlen)
{
	struct sluice_portfc_thresholds t;
	uint32_t n, k;

	if (!sluice_fabric_bcube(g, &n, &k))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "PortFC needs a BCube topology (sluicectl topo gen bcube), not %s",
				     g->family[0] ? g->family : "this one");
	if (n > TC_SLUICE_PORTFC_MAX_N || k > TC_SLUICE_PORTFC_MAX_K)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "PortFC takes BCube(n, k) with n up to %d and k up to %d, not BCube(%u,%u)",
				     TC_SLUICE_PORTFC_MAX_N,
				     TC_SLUICE_PORTFC_MAX_K, n, k);
	if (o->present & (SLUICE_QOPT_PFC | SLUICE_QOPT_XOFF |
			  SLUICE_QOPT_XON | SLUICE_QOPT_XOFF_AUTO |
			  SLUICE_QOPT_HEADROOM))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "PortFC replaces PFC: --pfc, --xoff, --xon and --headroom do not apply");
	if (o->present & (SLUICE_QOPT_PORTFC | SLUICE_QOPT_PORTFC_N |
			  SLUICE_QOPT_PORTFC_K | SLUICE_QOPT_PORTFC_INDEX |
			  SLUICE_QOPT_CLASSES))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "PortFC's role, n, k, index and classes follow from the topology");
	if (!o->rate)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "PortFC's thresholds are derived from the link rate: give --rate");
	o->portfc_n = n;
	o->portfc_k = k;
	o->present |= SLUICE_QOPT_PORTFC_N | SLUICE_QOPT_PORTFC_K;
	if (o->present & SLUICE_QOPT_PORTFC_THRESHOLDS)
		return 0;
	if (!(o->present & SLUICE_QOPT_PORTFC_RTT))
		o->portfc_rtt_ns = portfc_rtt_ns(o->rate);
	if (sluice_portfc_thresholds(o->rate, o->portfc_rtt_ns, &t))
		return sluice_i_errf(err, errlen, -ERANGE,
				     "PortFC: a round trip of %llu ns at %llu bit/s needs an xoff past the qdisc's limit",
				     (unsigned long long)o->portfc_rtt_ns,
				     (unsigned long long)o->rate);
	o->portfc_xoff_a = o->portfc_xoff_b = t.xoff;
	o->portfc_xon_a = o->portfc_xon_b = t.xon;
	o->present |= SLUICE_QOPT_PORTFC_THRESHOLDS | SLUICE_QOPT_PORTFC_RTT;
	return 0;
}

/**
 * sluice_fabric_fc_apply() - check and complete a fabric's qdisc options
 * for its flow control
 * @f:		the plan
 * @q:		the options as given, with @q->fc set; completed in place
 * @err:	the reason, if they do not fit it
 * @errlen:	room in @err
 *
 * Lanes first (sluice_fabric_lanes_apply()).  Plain PFC defaults to
 * priority 3 and refuses more than one (one per lane); PFC* makes
 * every priority lossless; both need an xoff.  PortFC needs a BCube of n up
 * to 16 and k up to 4 and a rate, refuses the PFC options, and takes n
 * and k from the topology and, unless thresholds or "portfc-rtt" are
 * given, derives the thresholds from the round trip of two MTU frames at
 * the rate.  The role and index of each port come later, per port
 * (sluice_fabric_port_qopt()).
 *
 * Return: 0, -EINVAL, -E2BIG or -ERANGE.
 */
int sluice_fabric_fc_apply(const struct sluice_fabric *f,
			   struct sluice_fabric_qdisc *q, char *err,
			   size_t errlen)
{
	int ret;

	ret = sluice_fabric_lanes_apply(q, err, errlen);
	if (ret)
		return ret;
	switch (q->fc) {
	case SLUICE_FABRIC_FC_NONE:
		return 0;
	case SLUICE_FABRIC_FC_PFC:
		ret = apply_pfc(&q->link, q->lanes, err, errlen);
		return ret ? ret : apply_pfc(&q->host, q->lanes, err, errlen);
	case SLUICE_FABRIC_FC_PFC_STAR:
		ret = apply_pfc_star(&q->link, err, errlen);
		return ret ? ret : apply_pfc_star(&q->host, err, errlen);
	case SLUICE_FABRIC_FC_PORTFC:
		/* BCube has no host ports: every port is a link port */
		return apply_portfc(f->g, &q->link, err, errlen);
	}
	return sluice_i_errf(err, errlen, -EINVAL, "flow control %u unknown",
			     q->fc);
}

/**
 * sluice_fabric_port_qopt() - the options of one link port of a fabric
 * @f:		the plan
 * @q:		the fabric's options (sluice_fabric_fc_apply() done)
 * @u:		a node
 * @port:	its link port (link id order, as its label 100 + @port)
 * @o:		set to the port's options
 *
 * The fabric's link options at the port's own rate (@q->port_rate) or the
 * link's (@q->link_rate), its INT labels when it stamps probes
 * (sluice_fabric_int_label()), and for PortFC the port's role (a server's
 * or a switch's) and a switch port's index, its port number, which is what
 * a label stack names it by
 * (sluice/fabric.h).
 */
void sluice_fabric_port_qopt(const struct sluice_fabric *f,
			     const struct sluice_fabric_qdisc *q, uint32_t u,
			     uint32_t port, struct sluice_qopt *o)
{
	uint64_t adj = f->g->off[u] + port;

	*o = q->link;
	if (q->port_rate && q->port_rate[adj]) {
		o->rate = q->port_rate[adj];
		o->present |= SLUICE_QOPT_RATE;
	} else if (q->link_rate) {
		o->rate = q->link_rate[f->g->adj[adj].link];
	}
	sluice_fabric_int_label(f, u, port, false, o);
	if (q->fc != SLUICE_FABRIC_FC_PORTFC)
		return;
	o->present |= SLUICE_QOPT_PORTFC;
	if (sluice_fabric_self_hosted(f, u)) {
		o->portfc = TC_SLUICE_PORTFC_SERVER;
		return;
	}
	o->portfc = TC_SLUICE_PORTFC_SWITCH;
	o->portfc_index = port;
	o->present |= SLUICE_QOPT_PORTFC_INDEX;
}
