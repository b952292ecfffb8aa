// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>
#include "tagfiles.h"

/*
 * A ring of 4 with all shortest paths: each two-hop path turns clockwise
 * or anticlockwise, four turns each way, one cycle each way.  In path
 * order, the pass keeps every turn until s3's paths: s3 s1 "2 1" closes
 * the anticlockwise cycle into s2->s1, which no turn enters yet, so s2->s1
 * climbs at 0; "3 0" closes the clockwise one into s0->s1 likewise.
 * Neither can be reclaimed.  Two priorities, two climbs, no conflict.
 */
const char ring4_tags[] =
	"sluice-tags 1\n"
	"topology nodes 4 links 4 hash 9620bf35d2278935\n"
	"routes algo ecmp pairs 12 paths 16 hops 24 hash a5ec95c3308affba\n"
	"mode greedy priorities 2 tags 3\n"
	"node s0 hosts 0 ports 2 ingress 3 egress 5\n"
	"port 0 s1\n"
	"port 3 s3\n"
	"in 0 1 0\n"
	"in 3 1 0\n"
	"in host 0 0\n"
	"out 0 0 0 1\n"
	"out 0 1 1 2\n"
	"out 3 0 0 1\n"
	"out 3 1 0 1\n"
	"out host 1 0 1\n"
	"node s1 hosts 0 ports 2 ingress 5 egress 6\n"
	"port 0 s0\n"
	"port 1 s2\n"
	"in 0 1 0\n"
	"in 0 2 1\n"
	"in 1 1 0\n"
	"in 1 2 1\n"
	"in host 0 0\n"
	"out 0 0 0 1\n"
	"out 0 1 0 1\n"
	"out 1 0 0 1\n"
	"out 1 1 0 1\n"
	"out host 1 0 1\n"
	"out host 2 1 2\n"
	"node s2 hosts 0 ports 2 ingress 3 egress 5\n"
	"port 1 s1\n"
	"port 2 s3\n"
	"in 1 1 0\n"
	"in 2 1 0\n"
	"in host 0 0\n"
	"out 1 0 0 1\n"
	"out 1 1 1 2\n"
	"out 2 0 0 1\n"
	"out 2 1 0 1\n"
	"out host 1 0 1\n"
	"node s3 hosts 0 ports 2 ingress 3 egress 5\n"
	"port 2 s2\n"
	"port 3 s0\n"
	"in 2 1 0\n"
	"in 3 1 0\n"
	"in host 0 0\n"
	"out 2 0 0 1\n"
	"out 2 1 0 1\n"
	"out 3 0 0 1\n"
	"out 3 1 0 1\n"
	"out host 1 0 1\n"
	"end\n";

FILE *text_file(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	if (!f)
		abort();
	return f;
}
