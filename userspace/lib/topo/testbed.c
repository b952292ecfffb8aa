// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FC's testbed (NSDI'23 Section 6.1, Fig. 4a): 4 switches s1..s4, each
 * with 4 inter-switch ports split into virtual layers of 1, 2 and 1 ports
 * and 4 host ports, wired as the ring s1 s2 s3 s4 of the paper's Fig. 2
 * with every link doubled (which "topo gen fc" cannot make: it never puts
 * two links between two switches).  The only definition of it:
 * "sluicectl topo gen fc-testbed" writes it (selftests/topo/fc-testbed.json
 * is that output) and "sluicectl experiment deadlock" builds on it.  Node
 * i's clockwise neighbour is node i + 1 mod 4, as ecmp-cw reads it.
 */
#include <string.h>
#include <sluice/topo.h>

static const char fc_testbed[] =
	"{\n"
	"  \"format\": \"sluice-topology\",\n"
	"  \"version\": 1,\n"
	"  \"layers\": [1,2,1],\n"
	"  \"nodes\": [\n"
	"    {\"name\":\"s1\",\"hosts\":4},\n"
	"    {\"name\":\"s2\",\"hosts\":4},\n"
	"    {\"name\":\"s3\",\"hosts\":4},\n"
	"    {\"name\":\"s4\",\"hosts\":4}\n"
	"  ],\n"
	"  \"links\": [\n"
	"    {\"id\":0,\"a\":\"s1\",\"b\":\"s2\",\"la\":1,\"lb\":2},\n"
	"    {\"id\":1,\"a\":\"s1\",\"b\":\"s2\",\"la\":2,\"lb\":3},\n"
	"    {\"id\":2,\"a\":\"s2\",\"b\":\"s3\",\"la\":1,\"lb\":2},\n"
	"    {\"id\":3,\"a\":\"s2\",\"b\":\"s3\",\"la\":2,\"lb\":3},\n"
	"    {\"id\":4,\"a\":\"s3\",\"b\":\"s4\",\"la\":1,\"lb\":2},\n"
	"    {\"id\":5,\"a\":\"s3\",\"b\":\"s4\",\"la\":2,\"lb\":3},\n"
	"    {\"id\":6,\"a\":\"s4\",\"b\":\"s1\",\"la\":1,\"lb\":2},\n"
	"    {\"id\":7,\"a\":\"s4\",\"b\":\"s1\",\"la\":2,\"lb\":3}\n"
	"  ]\n"
	"}\n";

/**
 * sluice_topo_fc_testbed() - FC's 4-switch testbed of Fig. 4a
 * @g:		the graph, uninitialized
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Return: 0 or -ENOMEM.
 */
int sluice_topo_fc_testbed(struct sluice_graph *g, char *err, size_t errlen)
{
	return sluice_graph_read_buf(g, fc_testbed, strlen(fc_testbed), err,
				     errlen);
}
