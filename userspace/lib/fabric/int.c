// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The in-band telemetry labels of a fabric's ports (sluice/fabric.h):
 * with "fabric up --int-port", a probe's records name each port by the
 * topology, so that the links a path takes can be read from them.
 */
#include <sluice/fabric.h>
#include <sluice/fabric_nl.h>
#include <sluice/qopt.h>

/**
 * sluice_fabric_int_label() - a port's int-node and int-link
 * @f:		the plan
 * @u:		a node
 * @port:	one of its link ports (below its degree, in link id order), or
 *		degree + i for host i's cable
 * @host_side:	with a host port, host i's own eth0 rather than the
 *		switch's port to it
 * @o:		the port's options: labelled when int_port is set (stamping
 *		is on), left alone otherwise
 */
void sluice_fabric_int_label(const struct sluice_fabric *f, uint32_t u,
			     uint32_t port, bool host_side,
			     struct sluice_qopt *o)
{
	uint32_t deg = sluice_graph_degree(f->g, u), host;

	if (!(o->present & SLUICE_QOPT_INT_PORT) || !o->int_port)
		return;
	o->present |= SLUICE_QOPT_INT_NODE | SLUICE_QOPT_INT_LINK;
	if (port < deg) {
		o->int_node = u;
		o->int_link = f->g->adj[f->g->off[u] + port].link;
		return;
	}
	host = SLUICE_FABRIC_INT_HOST | (f->host_first[u] + port - deg);
	o->int_node = host_side ? host : u;
	o->int_link = host;
}
