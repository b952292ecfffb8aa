// SPDX-License-Identifier: GPL-2.0
/*
 * Live deadlock detection's wait-for graph (sluice/deadlock.h) on
 * hand-built switch dumps: FC's 4-switch ring (Fig. 4a) with a clockwise
 * deadlock and with one hop of it missing, Tagger's priority changes, a
 * fully paused chain (no cycle), progress between the two snapshots,
 * parallel links and a frame's in port, the errors; the iterative Tarjan
 * against a brute force (Floyd-Warshall) on random digraphs, the whole
 * detector against the wait-for graph written out naively on random
 * fabrics and random pause states, and a ring of 5000 switches
 * deadlocked (a deep search).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/deadlock.h>
#include <sluice/graph.h>
#include <sluice/rng.h>
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

int main(void)
{
	ktap_plan(9);
	test_ring();
	test_tagger();
	test_chain();
	test_progress();
	test_parallel();
	test_errors();
	test_scc_random();
	test_detector_random();
	test_big_ring();
	return ktap_exit();
}
