// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wait-for graph of a fabric's pause state, and its cycles
 * (sluice/deadlock.h says what the vertices and edges are).  Pure: the
 * switches' dumps come in as arrays.
 *
 * The graph has, besides the stuck and holding vertices, two relay
 * vertices per port: Pre(P) reaches every stuck class of the switch's
 * ports up to P (itself, then Pre(P - 1)), Suf(P) those from P on.  An
 * ingress vertex of port k points at Pre(k - 1) and Suf(k + 1), so it
 * reaches exactly the stuck classes of the other ports, with two edges
 * instead of one per class.  The relays form no cycle among themselves,
 * so two real vertices are in one component, or on a cycle, exactly when
 * they are in the graph with the edges written out.
 *
 * PortFC's edges are written out: a stuck PortFC class points at the
 * congestions of the one or two switches its pause came from (a port
 * index names at most a few ports per switch), a congestion at its own
 * port's stuck classes of its type, so they stay linear in the vertices
 * times the degree of a node.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/deadlock.h>
#include "graph/internal.h"

#define NONE		UINT32_MAX
#define NR_PRIOS	8	/* ingress accounts: 802.1Qbb priorities */

/* PortFC keys (portfc_keys' bits): type * 16 + port index, as the kernel's */
#define FC_KEY(t, i)	(1u << ((t) * TC_SLUICE_PORTFC_MAX_N + (i)))
#define FC_A		SLUICE_PORTFC_QA
#define FC_B		SLUICE_PORTFC_QB

const char *sluice_dl_role_name(enum sluice_dl_role role)
{
	switch (role) {
	case SLUICE_DL_EGRESS:
		return "egress class";
	case SLUICE_DL_INGRESS:
		return "ingress prio";
	default:
		return "portfc type";
	}
}

/**
 * sluice_scc() - strongly connected components, iteratively (Tarjan)
 * @n:		vertices
 * @off:	n + 1 offsets into @adj
 * @adj:	successors
 * @comp:	set to each vertex's component, 0 to the return value - 1,
 *		in the order they complete (every edge leaving a component
 *		goes to one numbered lower)
 *
 * An explicit stack of (vertex, next edge) frames replaces recursion, so
 * depth is not limited by the C stack.  Time and room: O(n + edges).
 *
 * Return: the number of components, or -ENOMEM.
 */
int64_t sluice_scc(uint32_t n, const uint32_t *off, const uint32_t *adj,
		   uint32_t *comp)
{
	uint32_t *index = sluice_i_calloc(n, sizeof(*index));
	uint32_t *low = sluice_i_calloc(n, sizeof(*low));
	uint32_t *stack = sluice_i_calloc(n, sizeof(*stack));
	uint32_t *call = sluice_i_calloc(n, sizeof(*call));
	uint32_t *next = sluice_i_calloc(n, sizeof(*next));
	uint32_t s, v, w, x, sp = 0, top, idx = 0, ncomp = 0;

	if (n && (!index || !low || !stack || !call || !next)) {
		free(index);
		free(low);
		free(stack);
		free(call);
		free(next);
		return -ENOMEM;
	}
	for (v = 0; v < n; v++) {
		index[v] = NONE;
		comp[v] = NONE;
	}
	for (s = 0; s < n; s++) {
		if (index[s] != NONE)
			continue;
		index[s] = low[s] = idx++;
		stack[sp++] = s;
		call[0] = s;
		next[0] = off[s];
		top = 1;
		while (top) {
			v = call[top - 1];
			if (next[top - 1] < off[v + 1]) {
				w = adj[next[top - 1]++];
				if (index[w] == NONE) {
					index[w] = low[w] = idx++;
					stack[sp++] = w;
					call[top] = w;
					next[top] = off[w];
					top++;
				} else if (comp[w] == NONE && index[w] < low[v]) {
					/* visited, no component yet: on the stack */
					low[v] = index[w];
				}
				continue;
			}
			if (low[v] == index[v]) {
				do {
					x = stack[--sp];
					comp[x] = ncomp;
				} while (x != v);
				ncomp++;
			}
			if (--top && low[v] < low[call[top - 1]])
				low[call[top - 1]] = low[v];
		}
	}
	free(index);
	free(low);
	free(stack);
	free(call);
	free(next);
	return ncomp;
}

void sluice_deadlock_free(struct sluice_deadlock *dl)
{
	free(dl->v);
	free(dl->cycles);
	free(dl->scc);
	free(dl->cycle);
	memset(dl, 0, sizeof(*dl));
}

/* "l17" or "h3" with @kind 'l' or 'h': decimal, no sign or leading zero. */
static bool port_number(const char *name, char kind, uint32_t *num)
{
	uint64_t v = 0;
	const char *p;

	if (name[0] != kind || !name[1] || (name[1] == '0' && name[2]))
		return false;
	for (p = name + 1; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		v = v * 10 + (*p - '0');
		if (v >= NONE)
			return false;
	}
	*num = v;
	return true;
}

static const struct sluice_port_info *port_by_name(const struct sluice_dl_snap *s,
						   const char *name)
{
	uint32_t k;

	for (k = 0; k < s->n; k++)
		if (!strncmp(s->ports[k].ifname, name, SLUICE_IFNAMSIZ))
			return &s->ports[k];
	return NULL;
}

static const struct sluice_prio_stats *prio_by_index(const struct sluice_port_info *p,
						     uint32_t j, uint32_t index)
{
	uint32_t k;

	if (!p)
		return NULL;
	if (j < p->n_prio && p->prio[j].index == index)
		return &p->prio[j];
	for (k = 0; k < p->n_prio && k < TC_SLUICE_MAX_CLASSES; k++)
		if (p->prio[k].index == index)
			return &p->prio[k];
	return NULL;
}

/* Stuck: paused with frames queued, and (two snapshots) nothing sent. */
static bool egress_stuck(const struct sluice_prio_stats *then,
			 const struct sluice_prio_stats *now, bool two)
{
	if (!(now->flags & SLUICE_PRIO_F_CLASS) ||
	    !(now->flags & SLUICE_PRIO_F_PAUSED) || !now->backlog)
		return false;
	if (!two)
		return true;
	return then && (then->flags & SLUICE_PRIO_F_PAUSED) &&
	       then->bytes == now->bytes && then->packets == now->packets;
}

/* Holding: XOFF and (two snapshots) the same bytes held. */
static bool ingress_holding(const struct sluice_prio_stats *then,
			    const struct sluice_prio_stats *now, bool two)
{
	if (now->index >= NR_PRIOS || !(now->flags & SLUICE_PRIO_F_XOFF))
		return false;
	if (!two)
		return true;
	return then && (then->flags & SLUICE_PRIO_F_XOFF) &&
	       then->ingress_bytes == now->ingress_bytes;
}

/* Everything sluice_deadlock_find() builds on the way. */
struct build {
	const struct sluice_graph	*g;
	struct sluice_deadlock		*dl;
	bool				two;		/* snapshots */
	uint64_t			v_cap, vport_cap;
	uint32_t			*vport;		/* per vertex: its port */
	/* per port: its rows now and (two) then, its link or NONE */
	const struct sluice_port_info	**pnow, **pthen;
	uint32_t			*plink;
	uint32_t			*c_first, *c_n;	/* PortFC vertices */
	uint32_t			n_ports;	/* all switches' */
	uint32_t			*port_base;	/* per node, + 1 */
	uint32_t			*link_port;	/* 2 per link */
	uint32_t			*port_node;
	uint32_t			*e_first, *e_n;	/* per port */
	uint32_t			*i_first, *i_n;
	uint32_t			*iv;		/* port * 8 + prio */
	/* the graph: real vertices, then Pre, then Suf */
	uint32_t			n;
	uint64_t			n_edges, edges_cap;
	uint32_t			(*edges)[2];
	uint32_t			*off, *adj, *comp;
};

static void build_free(struct build *b)
{
	free(b->vport);
	free(b->pnow);
	free(b->pthen);
	free(b->plink);
	free(b->c_first);
	free(b->c_n);
	free(b->port_base);
	free(b->link_port);
	free(b->port_node);
	free(b->e_first);
	free(b->e_n);
	free(b->i_first);
	free(b->i_n);
	free(b->iv);
	free(b->edges);
	free(b->off);
	free(b->adj);
	free(b->comp);
}

static int no_memory(char *err, size_t errlen)
{
	return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
}

/* A vertex of port @gp, its fields but the role's own zero; NULL: no room. */
static struct sluice_dl_vertex *new_vertex(struct build *b, uint32_t gp,
					   uint32_t host, enum sluice_dl_role role)
{
	const struct sluice_port_info *p = b->pnow[gp];
	struct sluice_deadlock *dl = b->dl;
	struct sluice_dl_vertex *x;

	if (dl->n_v == NONE - 1 || SLUICE_I_GROW(dl->v, b->v_cap, dl->n_v + 1) ||
	    SLUICE_I_GROW(b->vport, b->vport_cap, dl->n_v + 1))
		return NULL;
	b->vport[dl->n_v] = gp;
	x = &dl->v[dl->n_v++];
	memset(x, 0, sizeof(*x));
	x->node = b->port_node[gp];
	x->link = b->plink[gp];
	x->host = host;
	memcpy(x->port, p->ifname, SLUICE_IFNAMSIZ);
	x->port[SLUICE_IFNAMSIZ - 1] = '\0';
	x->role = role;
	x->portfc = p->port.portfc <= TC_SLUICE_PORTFC_ROLE_MAX ?
		    p->port.portfc : TC_SLUICE_PORTFC_NONE;
	x->portfc_index = p->port.portfc_index;
	return x;
}

static int add_vertex(struct build *b, uint32_t gp, uint32_t host,
		      enum sluice_dl_role role,
		      const struct sluice_prio_stats *ps)
{
	struct sluice_deadlock *dl = b->dl;
	struct sluice_dl_vertex *x = new_vertex(b, gp, host, role);

	if (!x)
		return -ENOMEM;
	x->prio = ps->index;
	x->flags = ps->flags;
	if (role == SLUICE_DL_EGRESS) {
		x->backlog = ps->backlog;
		x->qlen = ps->qlen;
		x->bytes = ps->bytes;
		x->pfc_rx = ps->pfc_rx;
		x->paused_us = ps->paused_us;
		dl->stuck++;
	} else {
		x->ingress_bytes = ps->ingress_bytes;
		x->ingress_peak = ps->ingress_peak;
		x->xoff_tx = ps->xoff_tx;
		dl->holding++;
	}
	return 0;
}

/* PortFC settings in the uapi's ranges (a kernel checks them; a file may not). */
static int fc_check(const struct build *b, uint32_t u,
		    const struct sluice_port_info *p, char *err, size_t errlen)
{
	const struct sluice_port_stats *s = &p->port;

	/* A role this library does not know (a newer kernel's) acts as none. */
	if (!s->portfc || s->portfc > TC_SLUICE_PORTFC_ROLE_MAX)
		return 0;
	if (s->portfc_n < 2 ||
	    s->portfc_n > TC_SLUICE_PORTFC_MAX_N ||
	    s->portfc_k > TC_SLUICE_PORTFC_MAX_K ||
	    (s->portfc == TC_SLUICE_PORTFC_SWITCH &&
	     s->portfc_index >= s->portfc_n))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "switch %s: port %s: portfc role %u n %u k %u index %u out of range",
				     b->g->nodes[u].name, p->ifname, s->portfc,
				     s->portfc_n, s->portfc_k, s->portfc_index);
	return 0;
}

static uint8_t fc_role(const struct build *b, uint32_t gp)
{
	uint8_t role = b->pnow[gp]->port.portfc;

	return role <= TC_SLUICE_PORTFC_ROLE_MAX ? role : TC_SLUICE_PORTFC_NONE;
}

/*
 * Port @gp's sender asserts PortFC key(s) @key now and, with two
 * snapshots, then too: a pause refreshed all along, not one that came and
 * went.
 */
static bool fc_held(const struct build *b, uint32_t gp, uint32_t key)
{
	const struct sluice_port_info *then = b->pthen[gp];

	if (!fc_role(b, gp) || !(b->pnow[gp]->port.portfc_keys & key))
		return false;
	return !b->two || (then && then->port.portfc &&
			   (then->port.portfc_keys & key));
}

/* The type of switch port class @c (A below n, B n), or -1: HQ. */
static int fc_type(const struct sluice_port_stats *s, uint32_t c)
{
	if (c < s->portfc_n)
		return FC_A;
	return c == s->portfc_n ? FC_B : -1;
}

/*
 * The type-@t congestion of PortFC switch port @gp, if holding: frames of
 * that type queued, none of them sent between the snapshots, and its key
 * asserted by another PortFC switch port of the switch (the detection's
 * broadcast: the port itself never carries its own key).
 */
static int fc_congestion(struct build *b, uint32_t gp, uint32_t host, int t)
{
	const struct sluice_port_info *p = b->pnow[gp], *q = b->pthen[gp];
	const struct sluice_prio_stats *ps, *then, *first = NULL;
	uint64_t backlog = 0, qlen = 0, bytes = 0;
	uint32_t u = b->port_node[gp], key, j, o;
	struct sluice_dl_vertex *x;
	bool asserted = false;

	for (j = 0; j < p->n_prio && j < TC_SLUICE_MAX_CLASSES; j++) {
		ps = &p->prio[j];
		if (!(ps->flags & SLUICE_PRIO_F_CLASS) ||
		    fc_type(&p->port, ps->index) != t)
			continue;
		if (b->two) {
			then = prio_by_index(q, j, ps->index);
			if (!then || then->bytes != ps->bytes ||
			    then->packets != ps->packets)
				return 0;
		}
		first = first ? first : ps;
		backlog += ps->backlog;
		qlen += ps->qlen;
		bytes += ps->bytes;
	}
	if (!backlog)
		return 0;
	key = FC_KEY(t, p->port.portfc_index);
	for (o = b->port_base[u]; o < b->port_base[u + 1] && !asserted; o++)
		asserted = o != gp &&
			   fc_role(b, o) == TC_SLUICE_PORTFC_SWITCH &&
			   fc_held(b, o, key);
	if (!asserted)
		return 0;
	x = new_vertex(b, gp, host, SLUICE_DL_PORTFC);
	if (!x)
		return -ENOMEM;
	x->prio = t;
	x->backlog = backlog > UINT32_MAX ? UINT32_MAX : backlog;
	x->qlen = qlen > UINT32_MAX ? UINT32_MAX : qlen;
	x->bytes = bytes;
	x->xoff_tx = first->xoff_tx;
	b->dl->congested++;
	return 0;
}

/* Ports of every switch: named, checked, and their vertices made. */
static int scan_ports(struct build *b, const struct sluice_dl_snap *a,
		      const struct sluice_dl_snap *sb, char *err, size_t errlen)
{
	const struct sluice_graph *g = b->g;
	const struct sluice_dl_snap *last = sb ? sb : a;
	const struct sluice_port_info *p, *q;
	const struct sluice_prio_stats *ps, *then;
	uint32_t u, k, j, gp, link, host, end;
	uint64_t total = 0;
	int ret;

	b->port_base = sluice_i_calloc((size_t)g->n_nodes + 1,
				       sizeof(*b->port_base));
	b->link_port = sluice_i_calloc((size_t)g->n_links * 2 + 1,
				       sizeof(*b->link_port));
	if (!b->port_base || !b->link_port)
		return no_memory(err, errlen);
	for (u = 0; u < g->n_nodes; u++) {
		b->port_base[u] = total;
		total += last[u].n;
		if (total >= NONE / (2 * NR_PRIOS))
			return sluice_i_errf(err, errlen, -E2BIG,
					     "too many ports: %llu",
					     (unsigned long long)total);
	}
	b->port_base[g->n_nodes] = total;
	b->n_ports = total;
	b->dl->ports = total;
	for (k = 0; k < 2 * g->n_links; k++)
		b->link_port[k] = NONE;
	b->port_node = sluice_i_calloc(total + 1, sizeof(*b->port_node));
	b->e_first = sluice_i_calloc(total + 1, sizeof(*b->e_first));
	b->e_n = sluice_i_calloc(total + 1, sizeof(*b->e_n));
	b->i_first = sluice_i_calloc(total + 1, sizeof(*b->i_first));
	b->i_n = sluice_i_calloc(total + 1, sizeof(*b->i_n));
	b->c_first = sluice_i_calloc(total + 1, sizeof(*b->c_first));
	b->c_n = sluice_i_calloc(total + 1, sizeof(*b->c_n));
	b->pnow = sluice_i_calloc(total + 1, sizeof(*b->pnow));
	b->pthen = sluice_i_calloc(total + 1, sizeof(*b->pthen));
	b->plink = sluice_i_calloc(total + 1, sizeof(*b->plink));
	b->iv = sluice_i_calloc(total * NR_PRIOS + 1, sizeof(*b->iv));
	if (!b->port_node || !b->e_first || !b->e_n || !b->i_first ||
	    !b->i_n || !b->c_first || !b->c_n || !b->pnow || !b->pthen ||
	    !b->plink || !b->iv)
		return no_memory(err, errlen);
	for (k = 0; k < total * NR_PRIOS; k++)
		b->iv[k] = NONE;

	/*
	 * First every port's rows and link: a PortFC congestion is holding
	 * only while another port of its switch asserts its key, and a port
	 * later in the dump may be that one.
	 */
	for (u = 0; u < g->n_nodes; u++) {
		for (k = 0; k < last[u].n; k++) {
			p = &last[u].ports[k];
			gp = b->port_base[u] + k;
			b->port_node[gp] = u;
			b->pnow[gp] = p;
			b->plink[gp] = NONE;
			if (!memchr(p->ifname, '\0', SLUICE_IFNAMSIZ))
				return sluice_i_errf(err, errlen, -EINVAL,
						     "switch %s: port %u: a name without its NUL",
						     g->nodes[u].name, k);
			for (j = 0; j < k; j++)
				if (!strcmp(last[u].ports[j].ifname, p->ifname))
					return sluice_i_errf(err, errlen, -EINVAL,
							     "switch %s: port %s twice in its stats",
							     g->nodes[u].name, p->ifname);
			b->pthen[gp] = sb ? port_by_name(&a[u], p->ifname) : NULL;
			ret = fc_check(b, u, p, err, errlen);
			if (!ret && b->pthen[gp])
				ret = fc_check(b, u, b->pthen[gp], err, errlen);
			if (ret)
				return ret;
			if (port_number(p->ifname, 'l', &link)) {
				if (link >= g->n_links ||
				    (g->links[link].a != u && g->links[link].b != u))
					return sluice_i_errf(err, errlen, -EINVAL,
							     "switch %s: port %s: link %u of the topology does not end at %s",
							     g->nodes[u].name, p->ifname, link,
							     g->nodes[u].name);
				end = g->links[link].a == u ? 0 : 1;
				b->link_port[2 * link + end] = gp;
				b->plink[gp] = link;
			}
		}
	}

	for (u = 0; u < g->n_nodes; u++) {
		for (k = 0; k < last[u].n; k++) {
			p = &last[u].ports[k];
			gp = b->port_base[u] + k;
			link = b->plink[gp];
			host = NONE;
			if (link == NONE && !port_number(p->ifname, 'h', &host)) {
				b->dl->ignored_ports++;
				continue;
			}
			q = b->pthen[gp];
			if (p->n_prio > TC_SLUICE_MAX_CLASSES)
				return sluice_i_errf(err, errlen, -EINVAL,
						     "switch %s: port %s: %u priorities, at most %d",
						     g->nodes[u].name, p->ifname,
						     p->n_prio, TC_SLUICE_MAX_CLASSES);
			if (p->port.portfc &&
			    p->port.portfc <= TC_SLUICE_PORTFC_ROLE_MAX)
				b->dl->portfc_ports++;
			b->e_first[gp] = b->dl->n_v;
			for (j = 0; j < p->n_prio; j++) {
				ps = &p->prio[j];
				then = prio_by_index(q, j, ps->index);
				if (egress_stuck(then, ps, sb) &&
				    add_vertex(b, gp, host, SLUICE_DL_EGRESS, ps))
					return no_memory(err, errlen);
			}
			b->e_n[gp] = b->dl->n_v - b->e_first[gp];
			b->i_first[gp] = b->dl->n_v;
			for (j = 0; j < p->n_prio; j++) {
				ps = &p->prio[j];
				then = prio_by_index(q, j, ps->index);
				if (!ingress_holding(then, ps, sb))
					continue;
				if (b->iv[gp * NR_PRIOS + ps->index] != NONE)
					return sluice_i_errf(err, errlen, -EINVAL,
							     "switch %s: port %s: priority %u twice in its stats",
							     g->nodes[u].name, p->ifname,
							     ps->index);
				b->iv[gp * NR_PRIOS + ps->index] = b->dl->n_v;
				if (add_vertex(b, gp, host, SLUICE_DL_INGRESS,
					       ps))
					return no_memory(err, errlen);
			}
			b->i_n[gp] = b->dl->n_v - b->i_first[gp];
			b->c_first[gp] = b->dl->n_v;
			if (p->port.portfc == TC_SLUICE_PORTFC_SWITCH &&
			    (fc_congestion(b, gp, host, FC_A) ||
			     fc_congestion(b, gp, host, FC_B)))
				return no_memory(err, errlen);
			b->c_n[gp] = b->dl->n_v - b->c_first[gp];
		}
	}
	return 0;
}

static int add_edge(struct build *b, uint32_t from, uint32_t to)
{
	if (SLUICE_I_GROW(b->edges, b->edges_cap, b->n_edges + 1))
		return -ENOMEM;
	b->edges[b->n_edges][0] = from;
	b->edges[b->n_edges][1] = to;
	b->n_edges++;
	return 0;
}

#define PRE(b, gp)	((b)->dl->n_v + (gp))
#define SUF(b, gp)	((b)->dl->n_v + (b)->n_ports + (gp))

/* The port at link @link's other end from node @u, or NONE. */
static uint32_t peer_port(const struct build *b, uint32_t link, uint32_t u)
{
	return b->link_port[2 * link + (b->g->links[link].a == u ? 1 : 0)];
}

/*
 * Vertex @v waits on the type-@t congestions of node @s's ports of index
 * @i but @except (the port that said it: a detection asserts its key on
 * the other ports only).  *@added counts the edges.
 */
static int fc_to_congestion(struct build *b, uint32_t v, uint32_t s,
			    uint32_t except, int t, uint32_t i,
			    uint32_t *added)
{
	uint32_t gp, k, w;

	for (gp = b->port_base[s]; gp < b->port_base[s + 1]; gp++) {
		if (gp == except ||
		    fc_role(b, gp) != TC_SLUICE_PORTFC_SWITCH ||
		    b->pnow[gp]->port.portfc_index != i)
			continue;
		for (k = 0; k < b->c_n[gp]; k++) {
			w = b->c_first[gp] + k;
			if (b->dl->v[w].prio != t)
				continue;
			if (add_edge(b, v, w))
				return -ENOMEM;
			(*added)++;
		}
	}
	return 0;
}

/*
 * Stuck PortFC class @v of port @gp: the key that pauses it (Algorithms
 * 3 and 4), asserted by the port @peer facing it, and who asserted that:
 * the congestion of a switch's port, directly or through a server's
 * relay.  No edge (*@added 0): paused from outside.
 */
static int fc_edges(struct build *b, uint32_t v, uint32_t gp, uint32_t peer,
		    uint32_t *added)
{
	const struct sluice_port_stats *s = &b->pnow[gp]->port;
	uint32_t c = b->dl->v[v].prio, n = s->portfc_n, i, y, r, peer2;
	int t;

	*added = 0;
	if (s->portfc == TC_SLUICE_PORTFC_SERVER) {
		/* own traffic: g 0 waits on (B, i), g >= 1 on (A, i) */
		if (c >= (s->portfc_k + 1u) * n)
			return 0;	/* RQ or HQ: nothing pauses them */
		i = c % n;
		t = c / n ? FC_A : FC_B;
	} else {
		/* a switch pauses only type-A class i, on a relayed (B, i) */
		if (c >= n)
			return 0;
		i = c;
		t = FC_B;
	}
	if (peer == NONE || !fc_held(b, peer, FC_KEY(t, i)))
		return 0;
	y = b->port_node[peer];
	if (fc_role(b, peer) == TC_SLUICE_PORTFC_SWITCH) {
		/* a switch heeds no switch's signal */
		if (s->portfc != TC_SLUICE_PORTFC_SERVER)
			return 0;
		return fc_to_congestion(b, v, y, peer, t, i, added);
	}
	/*
	 * A server asserts only the type-B keys it relays, each while one
	 * of its other ports is paused by a switch asserting it.
	 */
	if (t != FC_B)
		return 0;
	for (r = b->port_base[y]; r < b->port_base[y + 1]; r++) {
		if (r == peer || fc_role(b, r) != TC_SLUICE_PORTFC_SERVER ||
		    b->plink[r] == NONE)
			continue;
		peer2 = peer_port(b, b->plink[r], y);
		if (peer2 == NONE ||
		    fc_role(b, peer2) != TC_SLUICE_PORTFC_SWITCH ||
		    !fc_held(b, peer2, FC_KEY(FC_B, i)))
			continue;
		if (fc_to_congestion(b, v, b->port_node[peer2], peer2, FC_B, i,
				     added))
			return -ENOMEM;
	}
	return 0;
}

static int make_edges(struct build *b, char *err, size_t errlen)
{
	struct sluice_deadlock *dl = b->dl;
	const struct sluice_graph *g = b->g;
	uint32_t gp, peer, u, v, w, first, last, added;
	uint64_t e_u, k;
	int ret = 0, t;

	/*
	 * E -> the peer's ingress account of the same priority, or on a
	 * PortFC port the congestions its pause came from
	 */
	for (v = 0; v < dl->n_v; v++) {
		const struct sluice_dl_vertex *x = &dl->v[v];

		if (x->role != SLUICE_DL_EGRESS)
			continue;
		if (x->link == NONE) {
			dl->host_waits++;
			continue;
		}
		peer = peer_port(b, x->link, x->node);
		if (x->portfc) {
			if (fc_edges(b, v, b->vport[v], peer, &added))
				return no_memory(err, errlen);
			dl->edges += added;
			dl->outside += !added;
			continue;
		}
		w = peer != NONE && x->prio < NR_PRIOS ?
		    b->iv[peer * NR_PRIOS + x->prio] : NONE;
		if (w == NONE) {
			dl->outside++;
			continue;
		}
		ret = add_edge(b, v, w);
		if (ret)
			return no_memory(err, errlen);
		dl->edges++;
	}
	/* C -> the stuck classes of its type of its own port */
	for (v = 0; v < dl->n_v; v++) {
		if (dl->v[v].role != SLUICE_DL_PORTFC)
			continue;
		gp = b->vport[v];
		for (k = 0; k < b->e_n[gp]; k++) {
			w = b->e_first[gp] + k;
			t = fc_type(&b->pnow[gp]->port, dl->v[w].prio);
			if (t != dl->v[v].prio)
				continue;
			if (add_edge(b, v, w))
				return no_memory(err, errlen);
			dl->edges++;
		}
	}
	/* I -> Pre(k - 1), Suf(k + 1); the relays -> their classes */
	for (u = 0; u < g->n_nodes; u++) {
		first = b->port_base[u];
		last = b->port_base[u + 1];
		e_u = 0;
		for (gp = first; gp < last; gp++)
			e_u += b->e_n[gp];
		for (gp = first; gp < last; gp++) {
			dl->edges += (uint64_t)b->i_n[gp] * (e_u - b->e_n[gp]);
			for (k = 0; k < b->i_n[gp]; k++) {
				v = b->i_first[gp] + k;
				if (gp > first)
					ret |= add_edge(b, v, PRE(b, gp - 1));
				if (gp + 1 < last)
					ret |= add_edge(b, v, SUF(b, gp + 1));
			}
			if (gp > first)
				ret |= add_edge(b, PRE(b, gp), PRE(b, gp - 1));
			if (gp + 1 < last)
				ret |= add_edge(b, SUF(b, gp), SUF(b, gp + 1));
			for (k = 0; k < b->e_n[gp]; k++) {
				ret |= add_edge(b, PRE(b, gp), b->e_first[gp] + k);
				ret |= add_edge(b, SUF(b, gp), b->e_first[gp] + k);
			}
			if (ret)
				return no_memory(err, errlen);
		}
	}
	return 0;
}

/* The edge list as CSR, and its components. */
static int components(struct build *b, int64_t *ncomp, char *err,
		      size_t errlen)
{
	uint64_t i;
	uint32_t v;

	if (b->n_edges >= NONE)
		return sluice_i_errf(err, errlen, -E2BIG, "too many edges: %llu",
				     (unsigned long long)b->n_edges);
	b->off = sluice_i_calloc((size_t)b->n + 2, sizeof(*b->off));
	b->adj = sluice_i_calloc(b->n_edges + 1, sizeof(*b->adj));
	b->comp = sluice_i_calloc((size_t)b->n + 1, sizeof(*b->comp));
	if (!b->off || !b->adj || !b->comp)
		return no_memory(err, errlen);
	for (i = 0; i < b->n_edges; i++)
		b->off[b->edges[i][0] + 2]++;
	for (v = 0; v < b->n; v++)
		b->off[v + 2] += b->off[v + 1];
	for (i = 0; i < b->n_edges; i++)
		b->adj[b->off[b->edges[i][0] + 1]++] = b->edges[i][1];
	/* off[v + 1] moved to where v's successors end: off[] is CSR now */
	*ncomp = sluice_scc(b->n, b->off, b->adj, b->comp);
	if (*ncomp < 0)
		return no_memory(err, errlen);
	return 0;
}

/*
 * Component @c's shortest cycle through @start, its real vertices into
 * dl->cycle[] from @at; their number.  @parent is all NONE and stays so.
 */
static uint32_t example_cycle(struct build *b, uint32_t c, uint32_t start,
			      uint32_t at, uint32_t *parent, uint32_t *queue,
			      uint32_t *path)
{
	struct sluice_deadlock *dl = b->dl;
	uint32_t head = 0, tail = 0, v, w, last = NONE, len = 0, x = 0;
	uint64_t e;

	queue[tail++] = start;
	parent[start] = start;
	while (head < tail && last == NONE) {
		v = queue[head++];
		for (e = b->off[v]; e < b->off[v + 1]; e++) {
			w = b->adj[e];
			if (b->comp[w] != c)
				continue;
			if (w == start) {
				last = v;
				break;
			}
			if (parent[w] != NONE)
				continue;
			parent[w] = v;
			queue[tail++] = w;
		}
	}
	/* last, parent[last], ..., start: a component with a cycle has one */
	for (v = last; v != NONE; v = v == start ? NONE : parent[v])
		path[x++] = v;
	for (v = 0; v < tail; v++)
		parent[queue[v]] = NONE;
	while (x--)
		if (path[x] < dl->n_v)
			dl->cycle[at + len++] = path[x];
	return len;
}

/* The components with a cycle, in the order of their first vertex. */
static int find_cycles(struct build *b, uint32_t ncomp, char *err,
		       size_t errlen)
{
	struct sluice_deadlock *dl = b->dl;
	uint32_t *size = sluice_i_calloc((size_t)ncomp + 1, sizeof(*size));
	uint32_t *cyc = sluice_i_calloc((size_t)ncomp + 1, sizeof(*cyc));
	uint32_t *parent = sluice_i_calloc((size_t)b->n + 1, sizeof(*parent));
	uint32_t *queue = sluice_i_calloc((size_t)b->n + 1, sizeof(*queue));
	uint32_t *path = sluice_i_calloc((size_t)b->n + 1, sizeof(*path));
	uint32_t *seen = sluice_i_calloc((size_t)b->g->n_nodes + 1,
					 sizeof(*seen));
	uint32_t v, c, i, k, at, start;
	struct sluice_dl_cycle *cy;
	int ret = 0;

	dl->cycles = sluice_i_calloc((size_t)dl->n_v / 2 + 1,
				     sizeof(*dl->cycles));
	dl->scc = sluice_i_calloc((size_t)dl->n_v + 1, sizeof(*dl->scc));
	dl->cycle = sluice_i_calloc((size_t)dl->n_v + 1, sizeof(*dl->cycle));
	if (!size || !cyc || !parent || !queue || !path || !seen ||
	    !dl->cycles || !dl->scc || !dl->cycle) {
		ret = no_memory(err, errlen);
		goto out;
	}
	for (v = 0; v < b->n; v++) {
		size[b->comp[v]]++;
		parent[v] = NONE;
	}
	for (c = 0; c < ncomp; c++)
		cyc[c] = NONE;
	/* no vertex has an edge to itself: a cycle needs two vertices */
	for (v = 0; v < dl->n_v; v++) {
		c = b->comp[v];
		if (size[c] < 2)
			continue;
		if (cyc[c] == NONE)
			cyc[c] = dl->n_cycles++;
		dl->cycles[cyc[c]].scc_len++;
	}
	for (i = 0, at = 0; i < dl->n_cycles; i++) {
		dl->cycles[i].scc_first = at;
		dl->cycles[i].cycle_first = at;
		at += dl->cycles[i].scc_len;
		dl->cycles[i].scc_len = 0;
	}
	for (v = 0; v < dl->n_v; v++) {
		c = b->comp[v];
		if (size[c] < 2)
			continue;
		cy = &dl->cycles[cyc[c]];
		dl->scc[cy->scc_first + cy->scc_len++] = v;
		if (seen[dl->v[v].node] != cyc[c] + 1) {
			seen[dl->v[v].node] = cyc[c] + 1;
			cy->switches++;
		}
	}
	for (i = 0; i < dl->n_cycles; i++) {
		cy = &dl->cycles[i];
		start = dl->scc[cy->scc_first];
		for (k = 0; k < cy->scc_len; k++)
			if (dl->v[dl->scc[cy->scc_first + k]].role ==
			    SLUICE_DL_EGRESS) {
				start = dl->scc[cy->scc_first + k];
				break;
			}
		cy->cycle_len = example_cycle(b, b->comp[start], start,
					      cy->cycle_first, parent, queue,
					      path);
		/* seen[] holds i + 1 for this component's switches: now + n */
		for (k = 0; k < cy->cycle_len; k++) {
			v = dl->cycle[cy->cycle_first + k];
			if (seen[dl->v[v].node] != dl->n_cycles + i + 1) {
				seen[dl->v[v].node] = dl->n_cycles + i + 1;
				cy->cycle_switches++;
			}
		}
	}
out:
	free(size);
	free(cyc);
	free(parent);
	free(queue);
	free(path);
	free(seen);
	return ret;
}

/**
 * sluice_deadlock_find() - the deadlocks of a fabric's pause state
 * @g:		the topology (finalized): its links say which ports face
 *		which
 * @a:		per node, its switch's STATS_GET dump
 * @b:		per node, a later one, or NULL (progress is then not
 *		checked)
 * @dl:		filled; sluice_deadlock_free() it, also after a failure
 * @err:	the reason, on failure
 * @errlen:	room in @err
 *
 * Ports are matched between the two dumps by name; a port only in @b has
 * no stuck or holding vertex.  Ports named neither l<LINK> nor h<I> are
 * counted in dl->ignored_ports.  Time and room: linear in the ports and
 * priorities of the dumps.
 *
 * Return: 0, -EINVAL on dumps that do not fit @g, -ENOMEM, -E2BIG.
 */
int sluice_deadlock_find(const struct sluice_graph *g,
			 const struct sluice_dl_snap *a,
			 const struct sluice_dl_snap *b,
			 struct sluice_deadlock *dl, char *err, size_t errlen)
{
	struct build bld = { .g = g, .dl = dl, .two = b != NULL };
	int64_t ncomp = 0;
	int ret;

	memset(dl, 0, sizeof(*dl));
	dl->progress_checked = b != NULL;
	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the topology is not finalized");
	ret = scan_ports(&bld, a, b, err, errlen);
	if (!ret && (uint64_t)dl->n_v + 2ull * bld.n_ports >= NONE)
		ret = sluice_i_errf(err, errlen, -E2BIG,
				    "too many vertices: %u and %u ports",
				    dl->n_v, bld.n_ports);
	if (!ret) {
		bld.n = dl->n_v + 2 * bld.n_ports;
		ret = make_edges(&bld, err, errlen);
	}
	if (!ret)
		ret = components(&bld, &ncomp, err, errlen);
	if (!ret)
		ret = find_cycles(&bld, ncomp, err, errlen);
	build_free(&bld);
	return ret;
}
