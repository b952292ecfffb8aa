// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Live deadlock detection's wait-for graph (sluice/deadlock.h) on
 * hand-built switch dumps: FC's 4-switch ring (Fig. 4a) with a clockwise
 * deadlock and with one hop of it missing, Tagger's priority changes, a
 * fully paused chain (no cycle), progress between the two snapshots,
 * parallel links and a frame's in port, the errors; the iterative Tarjan
 * against a brute force (Floyd-Warshall) on random digraphs, the whole
 * detector against the wait-for graph written out naively on random
 * fabrics and random pause states, and a ring of 5000 switches
 * deadlocked (a deep search).  PortFC on BCube: a pause followed three
 * hops (server, switch, relaying server, switch) with no cycle, each link
 * of it cut, progress; a BCube paused everywhere that deadlocks under PFC
 * and not under PortFC; the PortFC edges against their rules written out
 * naively on random BCube pause states.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/deadlock.h>
#include <sluice/graph.h>
#include <sluice/rng.h>
#include <sluice/topo.h>
#include "ktap.h"

static char err[SLUICE_ERRLEN];

#define NONE		UINT32_MAX
#define PORTS_MAX	24

/* FC's testbed: s1..s4, links 0,1 s1-s2, 2,3 s2-s3, 4,5 s3-s4, 6,7 s4-s1. */
static const char fig4a[] =
	"{\"format\":\"sluice-topology\",\"version\":1,\"layers\":[1,2,1],"
	"\"nodes\":[{\"name\":\"s1\",\"hosts\":4},{\"name\":\"s2\",\"hosts\":4},"
	"{\"name\":\"s3\",\"hosts\":4},{\"name\":\"s4\",\"hosts\":4}],"
	"\"links\":[{\"a\":0,\"b\":1,\"la\":1,\"lb\":2},{\"a\":0,\"b\":1,\"la\":2,\"lb\":3},"
	"{\"a\":1,\"b\":2,\"la\":1,\"lb\":2},{\"a\":1,\"b\":2,\"la\":2,\"lb\":3},"
	"{\"a\":2,\"b\":3,\"la\":1,\"lb\":2},{\"a\":2,\"b\":3,\"la\":2,\"lb\":3},"
	"{\"a\":3,\"b\":0,\"la\":1,\"lb\":2},{\"a\":3,\"b\":0,\"la\":2,\"lb\":3}]}";

/* Two dumps of every switch: its link ports l<L>, then h0 .. h<hosts-1>. */
struct fx {
	const struct sluice_graph	*g;
	struct sluice_dl_snap		*a, *b;
};

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();
	return p;
}

static void snap_init(const struct sluice_graph *g, struct sluice_dl_snap *s,
		      uint32_t hosts, uint32_t prios)
{
	uint32_t u, k, i, deg;
	struct sluice_port_info *p;

	for (u = 0; u < g->n_nodes; u++) {
		deg = sluice_graph_degree(g, u);
		s[u].n = deg + hosts;
		s[u].ports = xcalloc(s[u].n, sizeof(*s[u].ports));
		for (k = 0; k < s[u].n; k++) {
			p = &s[u].ports[k];
			p->ifindex = k + 2;
			if (k < deg)
				snprintf(p->ifname, sizeof(p->ifname), "l%u",
					 g->adj[g->off[u] + k].link);
			else
				snprintf(p->ifname, sizeof(p->ifname), "h%u",
					 k - deg);
			p->port.classes = prios;
			p->n_prio = prios > 8 ? prios : 8;
			for (i = 0; i < p->n_prio; i++) {
				p->prio[i].index = i;
				if (i < prios)
					p->prio[i].flags = SLUICE_PRIO_F_CLASS |
							   SLUICE_PRIO_F_LOSSLESS;
			}
		}
	}
}

static void fx_init(struct fx *f, const struct sluice_graph *g,
		    uint32_t hosts, uint32_t prios)
{
	f->g = g;
	f->a = xcalloc(g->n_nodes, sizeof(*f->a));
	f->b = xcalloc(g->n_nodes, sizeof(*f->b));
	snap_init(g, f->a, hosts, prios);
	snap_init(g, f->b, hosts, prios);
}

static void fx_free(struct fx *f)
{
	uint32_t u;

	for (u = 0; u < f->g->n_nodes; u++) {
		free(f->a[u].ports);
		free(f->b[u].ports);
	}
	free(f->a);
	free(f->b);
}

static uint32_t node_of(const struct sluice_graph *g, const char *name)
{
	uint32_t u;

	for (u = 0; u < g->n_nodes; u++)
		if (!strcmp(g->nodes[u].name, name))
			return u;
	abort();
}

static struct sluice_prio_stats *prio(struct sluice_dl_snap *s,
				      const struct sluice_graph *g,
				      const char *node, const char *port,
				      uint32_t p)
{
	uint32_t u = node_of(g, node), k;

	for (k = 0; k < s[u].n; k++)
		if (!strcmp(s[u].ports[k].ifname, port))
			return &s[u].ports[k].prio[p];
	abort();
}

/* Egress class @p of @node's @port: paused with @backlog bytes queued. */
static void paused(struct fx *f, const char *node, const char *port,
		   uint32_t p, uint32_t backlog)
{
	struct sluice_dl_snap *s;
	struct sluice_prio_stats *ps;

	for (s = f->a; s; s = s == f->a ? f->b : NULL) {
		ps = prio(s, f->g, node, port, p);
		ps->flags |= SLUICE_PRIO_F_PAUSED;
		ps->backlog = backlog;
		ps->qlen = backlog / 1000;
		ps->bytes = 123456;
		ps->packets = 100;
		ps->pfc_rx = 40;
	}
}

/* Ingress account @p of @node's @port: XOFF, holding @bytes. */
static void xoff(struct fx *f, const char *node, const char *port,
		 uint32_t p, uint32_t bytes)
{
	struct sluice_dl_snap *s;
	struct sluice_prio_stats *ps;

	for (s = f->a; s; s = s == f->a ? f->b : NULL) {
		ps = prio(s, f->g, node, port, p);
		ps->flags |= SLUICE_PRIO_F_XOFF;
		ps->ingress_bytes = bytes;
		ps->ingress_peak = bytes + 100;
		ps->xoff_tx = 7;
	}
}

static int read_topo(struct sluice_graph *g, const char *json)
{
	int ret = sluice_graph_read_buf(g, json, strlen(json), err,
					sizeof(err));

	if (ret)
		ktap_diag("topology: %s", err);
	return ret;
}

/* "s1 l0 E3" for the vertex, into @buf */
static const char *vname(const struct sluice_graph *g,
			 const struct sluice_dl_vertex *v, char *buf,
			 size_t len)
{
	snprintf(buf, len, "%s %s %c%u", g->nodes[v->node].name, v->port,
		 v->role == SLUICE_DL_EGRESS ? 'E' : 'I', v->prio);
	return buf;
}

/* The example cycle of @c as "s1 l0 E3, s2 l0 I3, ..." */
static const char *cycle_text(const struct sluice_graph *g,
			      const struct sluice_deadlock *dl, uint32_t c)
{
	static char out[4096];
	const struct sluice_dl_cycle *cy = &dl->cycles[c];
	char one[64];
	size_t len = 0;
	uint32_t k;

	out[0] = '\0';
	for (k = 0; k < cy->cycle_len && len < sizeof(out) - 64; k++)
		len += snprintf(out + len, sizeof(out) - len, "%s%s",
				k ? ", " : "",
				vname(g, &dl->v[dl->cycle[cy->cycle_first + k]],
				      one, sizeof(one)));
	return out;
}

/* The clockwise deadlock of priority 3 on the ring. */
static void ring_clockwise(struct fx *f)
{
	paused(f, "s1", "l0", 3, 52000);
	xoff(f, "s2", "l0", 3, 53000);
	paused(f, "s2", "l2", 3, 51000);
	xoff(f, "s3", "l2", 3, 54000);
	paused(f, "s3", "l4", 3, 50000);
	xoff(f, "s4", "l4", 3, 55000);
	paused(f, "s4", "l6", 3, 49000);
	xoff(f, "s1", "l6", 3, 56000);
}

static void test_ring(void)
{
	struct sluice_deadlock dl;
	struct sluice_graph g = { 0 };
	struct fx f;

	if (read_topo(&g, fig4a)) {
		ktap_result("ring");
		return;
	}
	fx_init(&f, &g, 4, 8);
	ring_clockwise(&f);
	/* and an idle port beside it, paused but empty: not stuck */
	paused(&f, "s2", "l3", 3, 0);
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT(dl.progress_checked);
	KTAP_EXPECT_INT(dl.stuck, 4);
	KTAP_EXPECT_INT(dl.holding, 4);
	/* 4 E -> I, and each I to the one stuck class of its switch */
	KTAP_EXPECT_INT(dl.edges, 8);
	KTAP_EXPECT_INT(dl.outside, 0);
	KTAP_EXPECT_INT(dl.host_waits, 0);
	KTAP_EXPECT_INT(dl.ignored_ports, 0);
	KTAP_EXPECT_INT(dl.ports, 4 * 8);
	if (KTAP_EXPECT_INT(dl.n_cycles, 1)) {
		KTAP_EXPECT_INT(dl.cycles[0].scc_len, 8);
		KTAP_EXPECT_INT(dl.cycles[0].cycle_len, 8);
		KTAP_EXPECT_INT(dl.cycles[0].switches, 4);
		KTAP_EXPECT_INT(dl.cycles[0].cycle_switches, 4);
		KTAP_EXPECT_STR(cycle_text(&g, &dl, 0),
				"s1 l0 E3, s2 l0 I3, s2 l2 E3, s3 l2 I3, "
				"s3 l4 E3, s4 l4 I3, s4 l6 E3, s1 l6 I3");
		KTAP_EXPECT_INT(dl.v[dl.cycle[0]].backlog, 52000);
		KTAP_EXPECT_INT(dl.v[dl.cycle[0]].qlen, 52);
		KTAP_EXPECT_INT(dl.v[dl.cycle[1]].ingress_bytes, 53000);
		KTAP_EXPECT_INT(dl.v[dl.cycle[1]].link, 0);
		KTAP_EXPECT_INT(dl.v[dl.cycle[1]].host, NONE);
	}
	sluice_deadlock_free(&dl);

	/*
	 * and counter-clockwise too, on the other link of each pair: one
	 * component of 16, its shortest cycle through s1's l0 two switches
	 * long (s2's account on l0 waits on s2's l1 back to s1 too)
	 */
	paused(&f, "s2", "l1", 3, 52000);
	xoff(&f, "s1", "l1", 3, 53000);
	paused(&f, "s1", "l7", 3, 51000);
	xoff(&f, "s4", "l7", 3, 54000);
	paused(&f, "s4", "l5", 3, 50000);
	xoff(&f, "s3", "l5", 3, 55000);
	paused(&f, "s3", "l3", 3, 49000);
	xoff(&f, "s2", "l3", 3, 56000);
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	if (KTAP_EXPECT_INT(dl.n_cycles, 1)) {
		KTAP_EXPECT_INT(dl.cycles[0].scc_len, 16);
		KTAP_EXPECT_INT(dl.cycles[0].switches, 4);
		KTAP_EXPECT_INT(dl.cycles[0].cycle_switches, 2);
		KTAP_EXPECT_STR(cycle_text(&g, &dl, 0),
				"s1 l0 E3, s2 l0 I3, s2 l1 E3, s1 l1 I3");
	}
	/* 8 E -> I; each switch: 2 I, each to the 2 E of the other ports */
	KTAP_EXPECT_INT(dl.edges, 8 + 4 * 4);
	sluice_deadlock_free(&dl);
	fx_free(&f);
	fx_init(&f, &g, 4, 8);
	ring_clockwise(&f);

	/* one snapshot: the same, progress not checked */
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, NULL, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT(!dl.progress_checked);
	KTAP_EXPECT_INT(dl.n_cycles, 1);
	sluice_deadlock_free(&dl);

	/* s1's l6 account below XON: s4's l6 is paused from outside */
	prio(f.a, &g, "s1", "l6", 3)->flags &= ~SLUICE_PRIO_F_XOFF;
	prio(f.b, &g, "s1", "l6", 3)->flags &= ~SLUICE_PRIO_F_XOFF;
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.n_cycles, 0);
	KTAP_EXPECT_INT(dl.stuck, 4);
	KTAP_EXPECT_INT(dl.holding, 3);
	KTAP_EXPECT_INT(dl.outside, 1);
	sluice_deadlock_free(&dl);

	/* an XOFF of another priority does not pause class 3 */
	xoff(&f, "s1", "l6", 4, 60000);
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.n_cycles, 0);
	KTAP_EXPECT_INT(dl.outside, 1);
	sluice_deadlock_free(&dl);
	fx_free(&f);
	sluice_graph_free(&g);
	ktap_result("ring");
}

/* Tagger: each hop's frames change priority, and the cycle follows them. */
static void test_tagger(void)
{
	struct sluice_deadlock dl;
	struct sluice_graph g = { 0 };
	struct fx f;

	if (read_topo(&g, fig4a)) {
		ktap_result("tagger");
		return;
	}
	fx_init(&f, &g, 4, 8);
	paused(&f, "s1", "l0", 3, 52000);
	xoff(&f, "s2", "l0", 3, 53000);
	paused(&f, "s2", "l2", 4, 51000);
	xoff(&f, "s3", "l2", 4, 54000);
	paused(&f, "s3", "l4", 5, 50000);
	xoff(&f, "s4", "l4", 5, 55000);
	paused(&f, "s4", "l6", 6, 49000);
	xoff(&f, "s1", "l6", 6, 56000);
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	if (KTAP_EXPECT_INT(dl.n_cycles, 1))
		KTAP_EXPECT_STR(cycle_text(&g, &dl, 0),
				"s1 l0 E3, s2 l0 I3, s2 l2 E4, s3 l2 I4, "
				"s3 l4 E5, s4 l4 I5, s4 l6 E6, s1 l6 I6");
	sluice_deadlock_free(&dl);

	/*
	 * Tagger's point: the last hop's priority (6 at s1) has its own
	 * queue, which is not stuck: s1's account 6 is not blocked by class
	 * 3, so with class 6 of s1 moving (not paused) there is no cycle.
	 * Here: s1's account 6 below XON, its frames gone on.
	 */
	prio(f.a, &g, "s1", "l6", 6)->flags &= ~SLUICE_PRIO_F_XOFF;
	prio(f.b, &g, "s1", "l6", 6)->flags &= ~SLUICE_PRIO_F_XOFF;
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.n_cycles, 0);
	KTAP_EXPECT_INT(dl.outside, 1);
	sluice_deadlock_free(&dl);
	fx_free(&f);
	sluice_graph_free(&g);
	ktap_result("tagger");
}

/* Paused all along a chain that ends at a host: no cycle. */
static void test_chain(void)
{
	struct sluice_deadlock dl;
	struct sluice_graph g = { 0 };
	struct fx f;

	if (read_topo(&g, fig4a)) {
		ktap_result("chain");
		return;
	}
	fx_init(&f, &g, 4, 8);
	paused(&f, "s1", "l0", 3, 52000);
	xoff(&f, "s2", "l0", 3, 53000);
	paused(&f, "s2", "l2", 3, 51000);
	xoff(&f, "s3", "l2", 3, 54000);
	paused(&f, "s3", "l4", 3, 50000);
	xoff(&f, "s4", "l4", 3, 55000);
	paused(&f, "s4", "h2", 3, 49000);
	/* and the hosts of s1 paused by s1 */
	xoff(&f, "s1", "h0", 3, 56000);
	xoff(&f, "s1", "h1", 3, 56000);
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.n_cycles, 0);
	KTAP_EXPECT_INT(dl.stuck, 4);
	KTAP_EXPECT_INT(dl.holding, 5);
	KTAP_EXPECT_INT(dl.host_waits, 1);
	KTAP_EXPECT_INT(dl.outside, 0);
	/* 3 E -> I; s2, s3, s4: one I to one E; s1: two I to one E */
	KTAP_EXPECT_INT(dl.edges, 8);
	sluice_deadlock_free(&dl);
	fx_free(&f);
	sluice_graph_free(&g);
	ktap_result("chain");
}

/* Progress between the two snapshots: nothing is stuck for good. */
static void test_progress(void)
{
	struct sluice_deadlock dl;
	struct sluice_graph g = { 0 };
	struct fx f;

	if (read_topo(&g, fig4a)) {
		ktap_result("progress");
		return;
	}
	fx_init(&f, &g, 4, 8);
	ring_clockwise(&f);
	/* s3's class 3 on l4 sent a frame between the snapshots */
	prio(f.b, &g, "s3", "l4", 3)->bytes += 1500;
	prio(f.b, &g, "s3", "l4", 3)->packets++;
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.n_cycles, 0);
	KTAP_EXPECT_INT(dl.stuck, 3);
	sluice_deadlock_free(&dl);
	/* a single snapshot cannot tell */
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.b, NULL, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.n_cycles, 1);
	sluice_deadlock_free(&dl);
	prio(f.b, &g, "s3", "l4", 3)->bytes -= 1500;
	prio(f.b, &g, "s3", "l4", 3)->packets--;

	/* s4's l4 account took frames in (or let some go) */
	prio(f.b, &g, "s4", "l4", 3)->ingress_bytes -= 1500;
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.n_cycles, 0);
	KTAP_EXPECT_INT(dl.holding, 3);
	sluice_deadlock_free(&dl);
	prio(f.b, &g, "s4", "l4", 3)->ingress_bytes += 1500;

	/* paused in the second snapshot only */
	prio(f.a, &g, "s2", "l2", 3)->flags &= ~SLUICE_PRIO_F_PAUSED;
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.n_cycles, 0);
	sluice_deadlock_free(&dl);
	prio(f.a, &g, "s2", "l2", 3)->flags |= SLUICE_PRIO_F_PAUSED;

	/* and all still: the deadlock again */
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.n_cycles, 1);
	sluice_deadlock_free(&dl);
	fx_free(&f);
	sluice_graph_free(&g);
	ktap_result("progress");
}

/*
 * Two switches, two links: frames that came in on l0 cannot wait in l0's
 * own queue, those of the other link can.
 */
static void test_parallel(void)
{
	static const char two[] =
		"{\"format\":\"sluice-topology\",\"version\":1,"
		"\"nodes\":[{\"name\":\"a\",\"hosts\":1},{\"name\":\"b\",\"hosts\":1}],"
		"\"links\":[{\"a\":0,\"b\":1},{\"a\":0,\"b\":1}]}";
	struct sluice_deadlock dl;
	struct sluice_graph g = { 0 };
	struct fx f;

	if (read_topo(&g, two)) {
		ktap_result("parallel");
		return;
	}
	fx_init(&f, &g, 1, 4);
	paused(&f, "a", "l0", 1, 3000);
	xoff(&f, "b", "l0", 1, 3000);
	paused(&f, "b", "l0", 1, 3000);
	xoff(&f, "a", "l0", 1, 3000);
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.n_cycles, 0);
	KTAP_EXPECT_INT(dl.edges, 2);
	sluice_deadlock_free(&dl);
	paused(&f, "a", "l1", 2, 3000);
	xoff(&f, "b", "l1", 2, 3000);
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	if (KTAP_EXPECT_INT(dl.n_cycles, 1)) {
		KTAP_EXPECT_INT(dl.cycles[0].switches, 2);
		/* a l0 E1 -> b l0 I1 -> b l0 E1 is not an edge */
		KTAP_EXPECT_INT(dl.cycles[0].scc_len, 4);
		KTAP_EXPECT_STR(cycle_text(&g, &dl, 0),
				"a l1 E2, b l1 I2, b l0 E1, a l0 I1");
	}
	sluice_deadlock_free(&dl);
	fx_free(&f);
	sluice_graph_free(&g);
	ktap_result("parallel");
}

static void test_errors(void)
{
	struct sluice_deadlock dl;
	struct sluice_graph g = { 0 };
	struct fx f;

	if (read_topo(&g, fig4a)) {
		ktap_result("errors");
		return;
	}
	fx_init(&f, &g, 2, 8);
	ring_clockwise(&f);
	/* a port of another name: counted, not in the graph */
	snprintf(f.b[0].ports[4].ifname, SLUICE_IFNAMSIZ, "eth0");
	snprintf(f.a[0].ports[4].ifname, SLUICE_IFNAMSIZ, "eth0");
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.ignored_ports, 1);
	KTAP_EXPECT_INT(dl.n_cycles, 1);
	sluice_deadlock_free(&dl);
	/* "l01" is not l1 */
	snprintf(f.b[0].ports[4].ifname, SLUICE_IFNAMSIZ, "l01");
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.ignored_ports, 1);
	sluice_deadlock_free(&dl);
	/* link 4 is s3-s4 */
	snprintf(f.b[0].ports[4].ifname, SLUICE_IFNAMSIZ, "l4");
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "switch s1: port l4: link 4 of the topology does not end at s1");
	sluice_deadlock_free(&dl);
	snprintf(f.b[0].ports[4].ifname, SLUICE_IFNAMSIZ, "l99");
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "switch s1: port l99: link 99 of the topology does not end at s1");
	sluice_deadlock_free(&dl);
	snprintf(f.b[0].ports[4].ifname, SLUICE_IFNAMSIZ, "h0");
	snprintf(f.b[0].ports[5].ifname, SLUICE_IFNAMSIZ, "h0");
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "switch s1: port h0 twice in its stats");
	sluice_deadlock_free(&dl);
	snprintf(f.b[0].ports[5].ifname, SLUICE_IFNAMSIZ, "h1");
	f.b[0].ports[0].prio[5].index = 3;
	f.b[0].ports[0].prio[5].flags = SLUICE_PRIO_F_XOFF;
	f.b[0].ports[0].prio[3].flags = SLUICE_PRIO_F_XOFF;
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.b, NULL, &dl, err,
					     sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "switch s1: port l0: priority 3 twice in its stats");
	sluice_deadlock_free(&dl);
	fx_free(&f);
	sluice_graph_free(&g);
	ktap_result("errors");
}

/* Floyd-Warshall: reach[u * n + v], u reaches v over at least one edge. */
static void closure(uint32_t n, bool *reach)
{
	uint32_t k, u, v;

	for (k = 0; k < n; k++)
		for (u = 0; u < n; u++)
			if (reach[u * n + k])
				for (v = 0; v < n; v++)
					if (reach[k * n + v])
						reach[u * n + v] = true;
}

static void test_scc_random(void)
{
	uint32_t off[17], adj[16 * 16], comp[16], size[16];
	bool reach[16 * 16], edge[16 * 16];
	struct sluice_rng rng;
	uint32_t n, u, v, e, bad = 0, cyclic = 0;
	int64_t nc;
	int t;

	sluice_rng_seed(&rng, 8);
	for (t = 0; t < 3000; t++) {
		n = 1 + sluice_rng_below(&rng, 16);
		/* from sparse to dense */
		uint32_t pct = 2 + sluice_rng_below(&rng, 30);

		e = 0;
		for (u = 0; u < n; u++) {
			off[u] = e;
			for (v = 0; v < n; v++) {
				edge[u * n + v] = sluice_rng_below(&rng, 100) < pct;
				reach[u * n + v] = edge[u * n + v];
				if (edge[u * n + v])
					adj[e++] = v;
			}
		}
		off[n] = e;
		closure(n, reach);
		nc = sluice_scc(n, off, adj, comp);
		if (nc < 1 || nc > n) {
			bad++;
			continue;
		}
		memset(size, 0, sizeof(size));
		for (u = 0; u < n; u++)
			size[comp[u]]++;
		for (u = 0; u < n; u++) {
			bool on_cycle = size[comp[u]] > 1 || edge[u * n + u];

			cyclic += on_cycle;
			if (on_cycle != reach[u * n + u])
				bad++;
			for (v = 0; v < n; v++) {
				if (u != v && (comp[u] == comp[v]) !=
				    (reach[u * n + v] && reach[v * n + u]))
					bad++;
				/* components complete sinks first */
				if (edge[u * n + v] && comp[u] < comp[v])
					bad++;
			}
		}
	}
	KTAP_EXPECT_INT(bad, 0);
	KTAP_EXPECT(cyclic > 1000);
	/* none at all */
	KTAP_EXPECT_INT(sluice_scc(0, off, adj, comp), 0);
	ktap_result("scc_random");
}

/*
 * The detector against the wait-for graph written out naively: random
 * fabrics of 2 to 5 switches (parallel links, 0 to 2 hosts), 3
 * priorities, each class and account stuck or holding at random, some
 * of them moving between the snapshots.
 */
struct nv {
	uint32_t	node, port, prio;	/* port: index in the dump */
	uint8_t		role;
};

static bool naive_edge(const struct sluice_graph *g,
		       const struct sluice_dl_snap *s, const struct nv *x,
		       const struct nv *y)
{
	const char *px = s[x->node].ports[x->port].ifname;
	const char *py = s[y->node].ports[y->port].ifname;
	uint32_t l;

	if (x->role == SLUICE_DL_EGRESS) {
		/* the same link, the other end, the same priority */
		if (y->role != SLUICE_DL_INGRESS || px[0] != 'l' ||
		    strcmp(px, py) || x->prio != y->prio || x->node == y->node)
			return false;
		l = atoi(px + 1);
		return (g->links[l].a == x->node && g->links[l].b == y->node) ||
		       (g->links[l].b == x->node && g->links[l].a == y->node);
	}
	return y->role == SLUICE_DL_EGRESS && x->node == y->node &&
	       x->port != y->port;
}

static void random_graph(struct sluice_graph *g, struct sluice_rng *rng)
{
	uint32_t n = 2 + sluice_rng_below(rng, 4), links, u, a, b, i;
	char name[16];

	if (sluice_graph_init(g, n, err, sizeof(err)))
		abort();
	for (u = 0; u < n; u++) {
		snprintf(name, sizeof(name), "s%u", u + 1);
		if (sluice_graph_set_node(g, u, name, SLUICE_NODE_SWITCH, 1, 0,
					  err, sizeof(err)))
			abort();
	}
	links = n - 1 + sluice_rng_below(rng, 2 * n);
	for (i = 0; i < links; i++) {
		a = i < n - 1 ? i : sluice_rng_below(rng, n);
		b = i < n - 1 ? i + 1 : sluice_rng_below(rng, n - 1);
		if (i >= n - 1 && b >= a)
			b++;
		if (sluice_graph_add_link(g, a, b, 0, 0, err, sizeof(err)) < 0)
			abort();
	}
	if (sluice_graph_finalize(g, err, sizeof(err)))
		abort();
}

static void test_detector_random(void)
{
	struct sluice_graph g;
	struct sluice_rng rng;
	struct sluice_deadlock dl;
	struct sluice_dl_snap *a, *b;
	struct sluice_prio_stats *pa, *pb;
	struct nv *nv;
	bool *reach, *in_cycle, ok;
	uint32_t n_nv, u, k, p, i, j, x, y, bad = 0, deadlocks = 0;
	int t, ret;
	struct fx f;

	sluice_rng_seed(&rng, 88);
	for (t = 0; t < 400; t++) {
		random_graph(&g, &rng);
		fx_init(&f, &g, sluice_rng_below(&rng, 3), 3);
		a = f.a;
		b = f.b;
		nv = xcalloc(PORTS_MAX * 3 * 2 * g.n_nodes, sizeof(*nv));
		n_nv = 0;
		for (u = 0; u < g.n_nodes; u++)
			for (k = 0; k < b[u].n; k++) {
				bool e[3] = { 0 }, in[3] = { 0 };

				for (p = 0; p < 3; p++) {
					pa = &a[u].ports[k].prio[p];
					pb = &b[u].ports[k].prio[p];
					/* egress: often stuck */
					if (sluice_rng_below(&rng, 100) < 60) {
						pa->flags |= SLUICE_PRIO_F_PAUSED;
						pb->flags |= SLUICE_PRIO_F_PAUSED;
						pa->backlog = pb->backlog = 1000;
						pa->bytes = pb->bytes = 5000;
						switch (sluice_rng_below(&rng, 8)) {
						case 0:
							pb->bytes += 100;
							break;
						case 1:
							pa->flags &= ~SLUICE_PRIO_F_PAUSED;
							break;
						case 2:
							pa->backlog = pb->backlog = 0;
							break;
						default:
							e[p] = true;
						}
					}
					if (sluice_rng_below(&rng, 100) < 60) {
						pa->flags |= SLUICE_PRIO_F_XOFF;
						pb->flags |= SLUICE_PRIO_F_XOFF;
						pa->ingress_bytes = pb->ingress_bytes = 7000;
						switch (sluice_rng_below(&rng, 8)) {
						case 0:
							pb->ingress_bytes += 100;
							break;
						case 1:
							pb->flags &= ~SLUICE_PRIO_F_XOFF;
							break;
						default:
							in[p] = true;
						}
					}
				}
				/* the detector's order: a port's classes, then its accounts */
				for (p = 0; p < 3; p++)
					if (e[p])
						nv[n_nv++] = (struct nv){ u, k, p, SLUICE_DL_EGRESS };
				for (p = 0; p < 3; p++)
					if (in[p])
						nv[n_nv++] = (struct nv){ u, k, p, SLUICE_DL_INGRESS };
			}
		reach = xcalloc((size_t)n_nv * n_nv, sizeof(*reach));
		in_cycle = xcalloc(n_nv, sizeof(*in_cycle));
		for (x = 0; x < n_nv; x++)
			for (y = 0; y < n_nv; y++)
				reach[x * n_nv + y] = naive_edge(&g, b, &nv[x], &nv[y]);
		closure(n_nv, reach);
		ret = sluice_deadlock_find(&g, a, b, &dl, err, sizeof(err));
		if (ret) {
			ktap_diag("find: %s", err);
			bad++;
		}
		/* the same vertices */
		if (!ret && dl.n_v != n_nv)
			bad++;
		for (x = 0; !ret && x < n_nv && x < dl.n_v; x++) {
			const struct sluice_dl_vertex *v = &dl.v[x];

			if (v->node != nv[x].node || v->prio != nv[x].prio ||
			    v->role != nv[x].role ||
			    strcmp(v->port, b[nv[x].node].ports[nv[x].port].ifname))
				bad++;
		}
		/* in a reported component exactly when on a cycle */
		for (i = 0; !ret && i < dl.n_cycles; i++)
			for (j = 0; j < dl.cycles[i].scc_len; j++)
				in_cycle[dl.scc[dl.cycles[i].scc_first + j]] = true;
		ok = true;
		for (x = 0; !ret && x < n_nv && dl.n_v == n_nv; x++)
			if (in_cycle[x] != reach[x * n_nv + x])
				ok = false;
		/* components: mutually reachable; cycles: edges, closed */
		for (i = 0; !ret && ok && i < dl.n_cycles; i++) {
			const struct sluice_dl_cycle *cy = &dl.cycles[i];

			for (j = 0; j < cy->scc_len; j++) {
				x = dl.scc[cy->scc_first];
				y = dl.scc[cy->scc_first + j];
				if (!reach[x * n_nv + y] || !reach[y * n_nv + x])
					ok = false;
			}
			if (cy->cycle_len < 2)
				ok = false;
			for (j = 0; j < cy->cycle_len; j++) {
				x = dl.cycle[cy->cycle_first + j];
				y = dl.cycle[cy->cycle_first +
					     (j + 1) % cy->cycle_len];
				if (!naive_edge(&g, b, &nv[x], &nv[y]))
					ok = false;
			}
		}
		bad += !ok;
		deadlocks += !ret && dl.n_cycles;
		sluice_deadlock_free(&dl);
		free(reach);
		free(in_cycle);
		free(nv);
		fx_free(&f);
		sluice_graph_free(&g);
	}
	KTAP_EXPECT_INT(bad, 0);
	/* both kinds of answer were seen */
	KTAP_EXPECT(deadlocks > 50 && deadlocks < 350);
	ktap_diag("random pause states: %u of 400 deadlocked", deadlocks);
	ktap_result("detector_random");
}

/* A ring of 5000 switches, all in one deadlock: deep, not recursive. */
static void test_big_ring(void)
{
	const uint32_t n = 5000;
	struct sluice_deadlock dl;
	struct sluice_graph g;
	char name[16], l[16], r[16];
	uint32_t u;
	struct fx f;
	int ret;

	ret = sluice_graph_init(&g, n, err, sizeof(err));
	for (u = 0; !ret && u < n; u++) {
		snprintf(name, sizeof(name), "s%u", u);
		ret = sluice_graph_set_node(&g, u, name, SLUICE_NODE_SWITCH, 1,
					    0, err, sizeof(err));
	}
	for (u = 0; !ret && u < n; u++)
		ret = sluice_graph_add_link(&g, u, (u + 1) % n, 0, 0, err,
					    sizeof(err)) < 0;
	if (!ret)
		ret = sluice_graph_finalize(&g, err, sizeof(err));
	if (!KTAP_EXPECT_INT(ret, 0)) {
		ktap_result("big_ring");
		return;
	}
	fx_init(&f, &g, 1, 4);
	/* link u is s<u> - s<u+1>: each egress waits on the next switch */
	for (u = 0; u < n; u++) {
		snprintf(name, sizeof(name), "s%u", u);
		snprintf(l, sizeof(l), "l%u", u);
		snprintf(r, sizeof(r), "l%u", (u + n - 1) % n);
		paused(&f, name, l, 2, 1500);
		xoff(&f, name, r, 2, 1500);
	}
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	if (KTAP_EXPECT_INT(dl.n_cycles, 1)) {
		KTAP_EXPECT_INT(dl.cycles[0].scc_len, 2 * n);
		KTAP_EXPECT_INT(dl.cycles[0].cycle_len, 2 * n);
		KTAP_EXPECT_INT(dl.cycles[0].switches, n);
		KTAP_EXPECT_INT(dl.cycles[0].cycle_switches, n);
	}
	sluice_deadlock_free(&dl);
	fx_free(&f);
	sluice_graph_free(&g);
	ktap_result("big_ring");
}

/* --- PortFC --- */

static struct sluice_port_info *port_of(struct sluice_dl_snap *s,
					const struct sluice_graph *g,
					const char *node, const char *port)
{
	uint32_t u = node_of(g, node), k;

	for (k = 0; k < s[u].n; k++)
		if (!strcmp(s[u].ports[k].ifname, port))
			return &s[u].ports[k];
	abort();
}

/* n^e */
static uint32_t upow(uint32_t n, uint32_t e)
{
	uint32_t r = 1;

	while (e--)
		r *= n;
	return r;
}

/*
 * BCube(@n, @k) (lib/topo/bcube.c: servers first, the level-l link of
 * server s is l n^(k+1) + s) and its dumps; with @portfc every port is a
 * PortFC one as a fabric would set it up: a switch port's index is the
 * digit l of the server at its other end, and it has n + 2 classes, a
 * server's (k + 1) n + 2.  Without, every port has (k + 1) n + 2 classes
 * and no PortFC.
 */
static void fc_init(struct fx *f, struct sluice_graph *g, uint32_t n,
		    uint32_t k, bool portfc)
{
	uint32_t servers = upow(n, k + 1), u, j, c, link, w, classes;
	struct sluice_port_info *p;
	struct sluice_dl_snap *s;

	if (sluice_topo_bcube(g, n, k, err, sizeof(err)))
		abort();
	fx_init(f, g, 0, (k + 1) * n + 2);
	for (s = f->a; s; s = s == f->a ? f->b : NULL)
		for (u = 0; portfc && u < g->n_nodes; u++)
			for (j = 0; j < s[u].n; j++) {
				p = &s[u].ports[j];
				link = atoi(p->ifname + 1);
				w = g->links[link].a == u ? g->links[link].b :
				    g->links[link].a;
				p->port.portfc = u < servers ?
						 TC_SLUICE_PORTFC_SERVER :
						 TC_SLUICE_PORTFC_SWITCH;
				p->port.portfc_n = n;
				p->port.portfc_k = k;
				if (u >= servers)
					p->port.portfc_index =
						w / upow(n, link / servers) % n;
				classes = u < servers ? (k + 1) * n + 2 : n + 2;
				p->port.classes = classes;
				for (c = classes; c < p->n_prio; c++)
					p->prio[c].flags = 0;
			}
}

/* @node's @port asserts PortFC key (@t, @i) to its neighbour (both). */
static void fc_key(struct fx *f, const char *node, const char *port,
		   uint32_t t, uint32_t i)
{
	port_of(f->a, f->g, node, port)->port.portfc_keys |= 1u << (t * 16 + i);
	port_of(f->b, f->g, node, port)->port.portfc_keys |= 1u << (t * 16 + i);
}

/* Class @c of @node's @port: @backlog bytes queued, not paused, not sent. */
static void queued(struct fx *f, const char *node, const char *port,
		   uint32_t c, uint32_t backlog)
{
	struct sluice_dl_snap *s;
	struct sluice_prio_stats *ps;

	for (s = f->a; s; s = s == f->a ? f->b : NULL) {
		ps = prio(s, f->g, node, port, c);
		ps->backlog = backlog;
		ps->qlen = backlog / 1000;
		ps->bytes = 99000;
		ps->packets = 66;
		ps->xoff_tx = 5;
	}
}

/* The vertex @role @prio of @node's @port, or -1. */
static int vfind(const struct sluice_graph *g, const struct sluice_deadlock *dl,
		 const char *node, const char *port, int role, uint32_t prio)
{
	uint32_t v;

	for (v = 0; v < dl->n_v; v++)
		if (!strcmp(g->nodes[dl->v[v].node].name, node) &&
		    !strcmp(dl->v[v].port, port) && dl->v[v].role == role &&
		    dl->v[v].prio == prio)
			return v;
	return -1;
}

/*
 * BCube(2, 1), the paper's Eq. 1 then Eq. 2: srv11's switch port on
 * sw1-1 (l7, index 1) is congested with type-B frames that do not move;
 * its key (B, 1) pauses srv01's 2-hop class 1 on l5 and is relayed by
 * srv01 to sw0-0, which pauses its type-A class 1 on l1 (towards srv01);
 * that congestion (A, 1) pauses srv00's 4-hop class 3 (g 1, i 1) on l0.
 * Three hops, and no cycle.
 */
static void fc_chain(struct fx *f)
{
	paused(f, "srv00", "l0", 3, 40000);
	fc_key(f, "sw0-0", "l0", SLUICE_PORTFC_QA, 1);
	paused(f, "sw0-0", "l1", 1, 41000);
	fc_key(f, "srv01", "l1", SLUICE_PORTFC_QB, 1);
	paused(f, "srv01", "l5", 1, 42000);
	fc_key(f, "sw1-1", "l5", SLUICE_PORTFC_QB, 1);
	queued(f, "sw1-1", "l7", 2, 30000);
}

static void test_portfc_chain(void)
{
	struct sluice_deadlock dl;
	struct sluice_graph g;
	struct fx f;
	int c1, c2;

	fc_init(&f, &g, 2, 1, true);
	fc_chain(&f);
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.n_cycles, 0);
	KTAP_EXPECT_INT(dl.portfc_ports, 16);
	KTAP_EXPECT_INT(dl.stuck, 3);
	KTAP_EXPECT_INT(dl.holding, 0);
	KTAP_EXPECT_INT(dl.congested, 2);
	/*
	 * srv00 l0 E3 -> sw0-0 l1 A -> sw0-0 l1 E1 -> sw1-1 l7 B and
	 * srv01 l5 E1 -> sw1-1 l7 B
	 */
	KTAP_EXPECT_INT(dl.edges, 4);
	KTAP_EXPECT_INT(dl.outside, 0);
	c1 = vfind(&g, &dl, "sw0-0", "l1", SLUICE_DL_PORTFC, SLUICE_PORTFC_QA);
	c2 = vfind(&g, &dl, "sw1-1", "l7", SLUICE_DL_PORTFC, SLUICE_PORTFC_QB);
	if (KTAP_EXPECT(c1 >= 0 && c2 >= 0)) {
		KTAP_EXPECT_INT(dl.v[c1].backlog, 41000);
		KTAP_EXPECT_INT(dl.v[c1].portfc_index, 1);
		KTAP_EXPECT_INT(dl.v[c1].portfc, TC_SLUICE_PORTFC_SWITCH);
		KTAP_EXPECT_INT(dl.v[c2].backlog, 30000);
		KTAP_EXPECT_INT(dl.v[c2].qlen, 30);
		KTAP_EXPECT_INT(dl.v[c2].xoff_tx, 5);
		KTAP_EXPECT_INT(dl.v[c2].link, 7);
	}
	KTAP_EXPECT(vfind(&g, &dl, "srv00", "l0", SLUICE_DL_EGRESS, 3) >= 0);
	sluice_deadlock_free(&dl);
	/* one snapshot: the same */
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.b, NULL, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.edges, 4);
	KTAP_EXPECT_INT(dl.congested, 2);
	sluice_deadlock_free(&dl);

	/*
	 * sw1-1's (B, 1) only in the later snapshot: not the pause that
	 * has held all along; the relay and the 2-hop class wait on nothing
	 * in the graph, and sw1-1's congestion asserts nothing for good
	 */
	port_of(f.a, &g, "sw1-1", "l5")->port.portfc_keys = 0;
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.congested, 1);
	KTAP_EXPECT_INT(dl.edges, 2);
	KTAP_EXPECT_INT(dl.outside, 2);
	sluice_deadlock_free(&dl);
	fc_key(&f, "sw1-1", "l5", SLUICE_PORTFC_QB, 1);

	/* the type-B frames at sw1-1 moved: that congestion is not holding */
	prio(f.b, &g, "sw1-1", "l7", 2)->bytes += 1500;
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.congested, 1);
	KTAP_EXPECT_INT(dl.edges, 2);
	KTAP_EXPECT_INT(dl.outside, 2);
	sluice_deadlock_free(&dl);
	prio(f.b, &g, "sw1-1", "l7", 2)->bytes -= 1500;

	/* srv01 does not relay (B, 1): sw0-0's class 1 waits on nothing */
	port_of(f.a, &g, "srv01", "l1")->port.portfc_keys = 0;
	port_of(f.b, &g, "srv01", "l1")->port.portfc_keys = 0;
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.edges, 3);
	KTAP_EXPECT_INT(dl.outside, 1);
	sluice_deadlock_free(&dl);
	fc_key(&f, "srv01", "l1", SLUICE_PORTFC_QB, 1);

	/* the wrong type: (A, 1) does not pause srv01's 2-hop class 1 */
	port_of(f.a, &g, "sw1-1", "l5")->port.portfc_keys = 1u << 1;
	port_of(f.b, &g, "sw1-1", "l5")->port.portfc_keys = 1u << 1;
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	KTAP_EXPECT_INT(dl.outside, 2);
	sluice_deadlock_free(&dl);
	fc_key(&f, "sw1-1", "l5", SLUICE_PORTFC_QB, 1);

	/*
	 * sw0-0's port l0 (index 0) is srv00's own: a key naming index 0
	 * there cannot be about frames srv00 sends, so srv00's class 2
	 * (g 1, i 0) paused by (A, 0) waits on no port of sw0-0
	 */
	paused(&f, "srv00", "l0", 2, 1000);
	paused(&f, "sw0-0", "l0", 0, 1000);
	fc_key(&f, "sw0-0", "l0", SLUICE_PORTFC_QA, 0);
	fc_key(&f, "sw0-0", "l1", SLUICE_PORTFC_QA, 0);
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), 0);
	/* sw0-0 l0's congestion (A, 0) holds, seen by srv01's side only */
	KTAP_EXPECT(vfind(&g, &dl, "sw0-0", "l0", SLUICE_DL_PORTFC,
			  SLUICE_PORTFC_QA) >= 0);
	KTAP_EXPECT_INT(dl.stuck, 5);
	/* srv00's class 2; sw0-0's l0 class 0: no relayed key from srv00 */
	KTAP_EXPECT_INT(dl.outside, 2);
	KTAP_EXPECT_INT(dl.edges, 4 + 1);
	KTAP_EXPECT_INT(dl.n_cycles, 0);
	sluice_deadlock_free(&dl);

	/* a dump out of the uapi's ranges */
	port_of(f.b, &g, "sw1-0", "l6")->port.portfc_index = 2;
	KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
					     sizeof(err)), -EINVAL);
	KTAP_EXPECT_STR(err, "switch sw1-0: port l6: portfc role 1 n 2 k 1 index 2 out of range");
	sluice_deadlock_free(&dl);
	fx_free(&f);
	sluice_graph_free(&g);
	ktap_result("portfc_chain");
}

/*
 * Every data class of every port paused with frames that do not move,
 * every key asserted everywhere: under PFC (every priority XOFF) the
 * servers' forwarding closes cycles; under PortFC nothing can.
 */
static void all_stuck(struct fx *f, bool portfc)
{
	struct sluice_port_info *p;
	struct sluice_dl_snap *s;
	uint32_t u, j, c, hq;

	for (s = f->a; s; s = s == f->a ? f->b : NULL)
		for (u = 0; u < f->g->n_nodes; u++)
			for (j = 0; j < s[u].n; j++) {
				p = &s[u].ports[j];
				hq = p->port.classes - 1;
				for (c = 0; c < p->n_prio; c++) {
					if (!(p->prio[c].flags & SLUICE_PRIO_F_CLASS))
						continue;
					if (c != hq || !portfc)
						p->prio[c].flags |= SLUICE_PRIO_F_PAUSED;
					p->prio[c].backlog = 3000;
					p->prio[c].bytes = 77;
					if (!portfc && c < 8) {
						p->prio[c].flags |= SLUICE_PRIO_F_XOFF;
						p->prio[c].ingress_bytes = 3000;
					}
				}
				if (portfc)
					p->port.portfc_keys =
						((1u << p->port.portfc_n) - 1) * 0x10001u;
			}
}

static void test_portfc_bcube(void)
{
	struct sluice_deadlock dl;
	struct sluice_graph g;
	uint32_t n;
	struct fx f;

	for (n = 2; n <= 4; n++) {
		fc_init(&f, &g, n, 1, false);
		all_stuck(&f, false);
		KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
						     sizeof(err)), 0);
		KTAP_EXPECT(dl.n_cycles >= 1);
		KTAP_EXPECT_INT(dl.congested, 0);
		sluice_deadlock_free(&dl);
		fx_free(&f);
		sluice_graph_free(&g);

		fc_init(&f, &g, n, 1, true);
		all_stuck(&f, true);
		KTAP_EXPECT_INT(sluice_deadlock_find(&g, f.a, f.b, &dl, err,
						     sizeof(err)), 0);
		KTAP_EXPECT_INT(dl.n_cycles, 0);
		/* n^2 servers of 2 ports, 2n switches of n ports */
		KTAP_EXPECT_INT(dl.stuck, n * n * 2 * (2 * n + 1) +
				2 * n * n * (n + 1));
		KTAP_EXPECT_INT(dl.congested, 2 * n * n * 2);
		KTAP_EXPECT(dl.edges > 0);
		ktap_diag("BCube(%u,1) paused everywhere: %u stuck, %u congested, %llu edges, %u from outside, no cycle",
			  n, dl.stuck, dl.congested,
			  (unsigned long long)dl.edges, dl.outside);
		sluice_deadlock_free(&dl);
		fx_free(&f);
		sluice_graph_free(&g);
	}
	ktap_result("portfc_bcube");
}

/*
 * The PortFC edges against their rules written out pair by pair: random
 * BCube(2..3, 0..1) and BCube(2, 2) pause states, classes stuck, queued
 * or moving, keys asserted in both snapshots or one, a few ports not
 * PortFC at all.
 */
struct fv {
	uint32_t	node, port, prio;	/* port: index in the dump */
	uint8_t		role;
};

static const struct sluice_port_info *fv_port(const struct sluice_dl_snap *s,
					      const struct fv *x)
{
	return &s[x->node].ports[x->port];
}

/* The port of the dump at link @link's end that is not node @u. */
static void other_end(const struct sluice_graph *g,
		      const struct sluice_dl_snap *s, uint32_t u, uint32_t link,
		      uint32_t *w, uint32_t *port)
{
	char name[16];
	uint32_t j;

	*w = g->links[link].a == u ? g->links[link].b : g->links[link].a;
	snprintf(name, sizeof(name), "l%u", link);
	for (j = 0; j < s[*w].n; j++)
		if (!strcmp(s[*w].ports[j].ifname, name))
			break;
	*port = j;
}

static bool naive_held(const struct sluice_dl_snap *a,
		       const struct sluice_dl_snap *b, uint32_t u,
		       uint32_t j, uint32_t key)
{
	return b[u].ports[j].port.portfc && a[u].ports[j].port.portfc &&
	       (b[u].ports[j].port.portfc_keys & key) &&
	       (a[u].ports[j].port.portfc_keys & key);
}

/* The type of switch class @c: 0 A, 1 B, 2 HQ. */
static uint32_t naive_type(const struct sluice_port_stats *s, uint32_t c)
{
	return c < s->portfc_n ? 0 : c == s->portfc_n ? 1 : 2;
}

static bool naive_fc_edge(const struct sluice_graph *g,
			  const struct sluice_dl_snap *a,
			  const struct sluice_dl_snap *b, const struct fv *x,
			  const struct fv *y)
{
	const struct sluice_port_stats *s = &fv_port(b, x)->port;
	const struct sluice_port_stats *ys = &fv_port(b, y)->port;
	uint32_t c = x->prio, n = s->portfc_n, t, i, key, w, r, j, sw, q;

	if (x->role == SLUICE_DL_PORTFC)
		return y->role == SLUICE_DL_EGRESS && y->node == x->node &&
		       y->port == x->port &&
		       naive_type(ys, y->prio) == x->prio;
	if (x->role != SLUICE_DL_EGRESS || y->role != SLUICE_DL_PORTFC ||
	    !s->portfc)
		return false;
	if (s->portfc == TC_SLUICE_PORTFC_SERVER) {
		if (c >= (s->portfc_k + 1) * n)
			return false;
		t = c >= n ? 0 : 1;
		i = c % n;
	} else {
		if (c >= n)
			return false;
		t = 1;
		i = c;
	}
	key = 1u << (t * 16 + i);
	if (y->prio != t || ys->portfc_index != i)
		return false;
	other_end(g, b, x->node, atoi(fv_port(b, x)->ifname + 1), &w, &r);
	if (!naive_held(a, b, w, r, key))
		return false;
	if (b[w].ports[r].port.portfc == TC_SLUICE_PORTFC_SWITCH)
		return s->portfc == TC_SLUICE_PORTFC_SERVER &&
		       y->node == w && y->port != r;
	if (t != 1)
		return false;
	/* the relay: a switch beyond w said (B, i) to w */
	for (j = 0; j < b[w].n; j++) {
		if (j == r ||
		    b[w].ports[j].port.portfc != TC_SLUICE_PORTFC_SERVER)
			continue;
		other_end(g, b, w, atoi(b[w].ports[j].ifname + 1), &sw, &q);
		if (b[sw].ports[q].port.portfc == TC_SLUICE_PORTFC_SWITCH &&
		    naive_held(a, b, sw, q, key) && y->node == sw &&
		    y->port != q)
			return true;
	}
	return false;
}

static void random_fc_state(struct fx *f, struct sluice_rng *rng)
{
	struct sluice_prio_stats *pa, *pb;
	struct sluice_port_info *qa, *qb;
	uint32_t u, j, c, key;

	for (u = 0; u < f->g->n_nodes; u++)
		for (j = 0; j < f->b[u].n; j++) {
			qa = &f->a[u].ports[j];
			qb = &f->b[u].ports[j];
			if (sluice_rng_below(rng, 100) < 5)
				qa->port.portfc = qb->port.portfc = 0;
			for (key = 0; key < 32; key++) {
				if (key % 16 >= qb->port.portfc_n ||
				    sluice_rng_below(rng, 100) >= 35)
					continue;
				qb->port.portfc_keys |= 1u << key;
				if (sluice_rng_below(rng, 10))
					qa->port.portfc_keys |= 1u << key;
			}
			for (c = 0; c < qb->n_prio; c++) {
				pa = &qa->prio[c];
				pb = &qb->prio[c];
				if (!(pb->flags & SLUICE_PRIO_F_CLASS) ||
				    sluice_rng_below(rng, 100) >= 60)
					continue;
				pa->backlog = pb->backlog = 1000 + c;
				pa->bytes = pb->bytes = 5000;
				if (sluice_rng_below(rng, 100) < 70) {
					pa->flags |= SLUICE_PRIO_F_PAUSED;
					pb->flags |= SLUICE_PRIO_F_PAUSED;
				}
				switch (sluice_rng_below(rng, 10)) {
				case 0:
					pb->bytes += 100;
					break;
				case 1:
					pa->flags &= ~SLUICE_PRIO_F_PAUSED;
					break;
				case 2:
					pa->backlog = pb->backlog = 0;
					break;
				}
			}
		}
}

static void test_portfc_random(void)
{
	static const uint32_t nk[][2] = { { 2, 0 }, { 3, 0 }, { 2, 1 },
					  { 3, 1 }, { 2, 2 } };
	uint32_t u, j, c, o, t, x, y, n_fv, bad = 0, edges, outside;
	uint32_t key, pairs = 0, total_edges = 0, total_c = 0, lo, hi;
	const struct sluice_port_info *pb, *pa;
	struct sluice_deadlock dl;
	struct sluice_graph g;
	struct sluice_rng rng;
	uint64_t backlog;
	bool moved, asserted, any;
	struct fv *fv;
	struct fx f;
	int r, ret;

	sluice_rng_seed(&rng, 16);
	for (r = 0; r < 300; r++) {
		fc_init(&f, &g, nk[r % 5][0], nk[r % 5][1], true);
		random_fc_state(&f, &rng);
		fv = xcalloc(g.n_nodes * PORTS_MAX * (TC_SLUICE_MAX_CLASSES + 2),
			     sizeof(*fv));
		n_fv = 0;
		for (u = 0; u < g.n_nodes; u++)
			for (j = 0; j < f.b[u].n; j++) {
				pb = &f.b[u].ports[j];
				pa = &f.a[u].ports[j];
				for (c = 0; c < pb->n_prio; c++)
					if ((pb->prio[c].flags & SLUICE_PRIO_F_CLASS) &&
					    (pb->prio[c].flags & SLUICE_PRIO_F_PAUSED) &&
					    (pa->prio[c].flags & SLUICE_PRIO_F_PAUSED) &&
					    pb->prio[c].backlog &&
					    pb->prio[c].bytes == pa->prio[c].bytes)
						fv[n_fv++] = (struct fv){ u, j, c, SLUICE_DL_EGRESS };
				if (pb->port.portfc != TC_SLUICE_PORTFC_SWITCH)
					continue;
				for (t = 0; t < 2; t++) {
					lo = t ? pb->port.portfc_n : 0;
					hi = t ? lo + 1 : pb->port.portfc_n;
					backlog = 0;
					moved = false;
					for (c = lo; c < hi; c++) {
						backlog += pb->prio[c].backlog;
						moved |= pb->prio[c].bytes != pa->prio[c].bytes;
					}
					key = 1u << (t * 16 + pb->port.portfc_index);
					asserted = false;
					for (o = 0; o < f.b[u].n; o++)
						asserted |= o != j &&
							    f.b[u].ports[o].port.portfc == TC_SLUICE_PORTFC_SWITCH &&
							    naive_held(f.a, f.b, u, o, key);
					if (backlog && !moved && asserted)
						fv[n_fv++] = (struct fv){ u, j, t, SLUICE_DL_PORTFC };
				}
			}
		edges = outside = 0;
		for (x = 0; x < n_fv; x++) {
			any = false;
			for (y = 0; y < n_fv; y++)
				if (naive_fc_edge(&g, f.a, f.b, &fv[x], &fv[y])) {
					edges++;
					any = true;
				}
			outside += fv[x].role == SLUICE_DL_EGRESS && !any;
		}
		ret = sluice_deadlock_find(&g, f.a, f.b, &dl, err, sizeof(err));
		if (ret) {
			ktap_diag("find: %s", err);
			bad++;
		} else if (dl.n_v != n_fv || dl.edges != edges ||
			   dl.outside != outside || dl.n_cycles ||
			   dl.host_waits) {
			ktap_diag("round %d: %u vertices, %llu edges, %u outside, %u cycles; naively %u, %u, %u",
				  r, dl.n_v, (unsigned long long)dl.edges,
				  dl.outside, dl.n_cycles, n_fv, edges, outside);
			bad++;
		}
		for (x = 0; !ret && x < n_fv && x < dl.n_v; x++)
			if (dl.v[x].node != fv[x].node ||
			    dl.v[x].prio != fv[x].prio ||
			    dl.v[x].role != fv[x].role ||
			    strcmp(dl.v[x].port, f.b[fv[x].node].ports[fv[x].port].ifname))
				bad++;
		pairs += n_fv;
		total_edges += edges;
		total_c += dl.congested;
		sluice_deadlock_free(&dl);
		free(fv);
		fx_free(&f);
		sluice_graph_free(&g);
	}
	KTAP_EXPECT_INT(bad, 0);
	/* the states were not all trivial */
	KTAP_EXPECT(total_edges > 1000 && total_c > 300);
	ktap_diag("random PortFC states: %u vertices, %u of them congestions, %u edges",
		  pairs, total_c, total_edges);
	ktap_result("portfc_random");
}

int main(void)
{
	ktap_plan(12);
	test_ring();
	test_tagger();
	test_chain();
	test_progress();
	test_parallel();
	test_errors();
	test_scc_random();
	test_detector_random();
	test_big_ring();
	test_portfc_chain();
	test_portfc_bcube();
	test_portfc_random();
	return ktap_exit();
}
