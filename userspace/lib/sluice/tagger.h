/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tagger (Hu et al., "Tagger: Practical PFC Deadlock Prevention in Data
 * Center Networks", CoNEXT'17): lossless priorities for any route set, the
 * priority changing along a path by a tag the frames carry, so that no
 * cyclic buffer dependency (sluice/cbd.h) can form and PFC cannot deadlock.
 *
 * Priorities per hop
 * ------------------
 * A path crosses hops h_0, h_1, ... (link directions) and its frames queue
 * on hop i at priority p_i.  A buffer is a link direction on a priority; a
 * frame makes buffer (h_i, p_i) wait on (h_i+1, p_i+1).  Tagger asks for
 * p_0 <= p_1 <= ... on every path and no cycle among the dependencies
 * within one priority (Section 4.2): a dependency between two priorities
 * only ever climbs, so no cycle can use one, and the whole dependency graph
 * is acyclic.  Three modes assign the p_i:
 *
 *   ttl     p_i = i, the hops travelled (Section 4.2's TTL tagging): no
 *           dependency stays within a priority, so it is always safe, and
 *           needs as many priorities as the longest path has hops.
 *   greedy  as few priorities as a greedy pass finds (Section 4.3), never
 *           more than ttl: see "The greedy pass" below.
 *   depth   p_i = L - 1 - i on a path of L hops, the hops still to go
 *           after hop i: ttl read backwards, for switches that read the
 *           depth of the MPLS label stack a fabric pins the path with
 *           (see "Depth mode" below).
 *
 * The switch model (Section 6) and what the tables hold
 * ------------------------------------------------------
 * Every node (a switch, or a BCube server, which forwards) has two match
 * tables, both keyed by the tag the frame arrived with:
 *
 *   ingress (in port I, tag t)  -> priority: the ingress account of I the
 *                                  frame is charged to while it is in the
 *                                  node; past XOFF, the node sends a PFC
 *                                  pause for that priority on I.
 *   egress  (out port O, tag t) -> (class c, new tag t'): the egress queue
 *                                  of O the frame waits in - the queue a
 *                                  pause received on O for priority c
 *                                  stops - and the tag it leaves with.
 *
 * A port is a link (its id; a node's end of it) or "host", all the node's
 * host ports at once.  Ingress and egress priorities are decoupled (Section
 * 6.3): a frame that moves from priority p_i-1 to p_i at a node is charged
 * at ingress to p_i-1, the class its upstream egress queued it in, and
 * queued at egress in p_i.  So when the ingress account for priority p on I
 * fills, the pause stops exactly the upstream queue that holds those frames;
 * charging them to p_i instead would pause a queue upstream that does not
 * hold them and leave the one that does free to overrun the buffer.
 *
 * Tags are not priority numbers: the tag of a frame on a fabric link is
 * the priority it crosses that link on plus one, and hosts send tag 0.  A
 * node's tables are therefore
 *
 *   ingress (I, t) = t - 1 for a fabric port I; (host, 0) = 0,
 *   egress  (O, t) = (p, p + 1), p the priority of the hop leaving on O,
 *   egress  (host, t) = (t - 1, t): frames for local hosts keep the
 *                       priority of their last hop,
 *
 * listing only the (port, tag) pairs some path uses; priorities + 1 tag
 * values in all (PCP's 8 values carry up to 7 priorities, DSCP's 64 all 8).
 * A frame that matches no entry is on none of the routes: Tagger makes it
 * lossy, which is the datapath's business, not the tables'.
 * Tag 0 apart from tag 1 ("crossed a link at priority 0") is what lets a
 * first hop always start at priority 0 and lets ttl (p_i = i) be expressed
 * at all: with tag = priority, the egress key (O, 0) would have to send
 * frames fresh from a host at 0 and frames that crossed a hop at 0 at 1.
 *
 * The egress key has no in port.  Two frames that arrive at a node with the
 * same tag and leave on the same port get the same class and new tag, even
 * when they came in on different ports: the priority of hop i is a function
 * F(h_i, p_i-1) of its link direction and the priority of the hop before
 * (0 with the host's tag for a first hop).  This is a real constraint.  The
 * paper's greedy pass decides per turn (in link, out link, priority): two
 * paths arriving on different links at priority q and leaving on the same
 * one may be told to stay at q and to climb to q + 1, and no (out port,
 * tag) entry can serve both.  Carrying the in port in the tag would lift it
 * at the cost of up to degree times more tag values and table entries;
 * sluice decides per (link direction, priority) instead, which keeps one
 * tag value per priority.  sluice_tagger_tables_build() refuses a per-hop
 * assignment that breaks the rule, naming the node, port and tag.
 *
 * Depth mode
 * ----------
 * A fabric that pins paths with label stacks (one label per hop still to
 * go after the first, one popped per hop) sends hop i of a path of L hops
 * with L - 1 - i labels: the stack's depth, which the switch reads as the
 * frame leaves (the uapi's SLUICE_TAG_SOURCE_MPLS_DEPTH), where TTL tags
 * do not survive labels.  The depth cannot be rewritten and says nothing
 * of the hops travelled: the same (port, depth) is hop i of one path and
 * hop i' of a longer one, so ttl's p_i = i cannot be read from it, but
 * p_i = L - 1 - i can.  Priorities then go down along every path instead
 * of up, strictly: a dependency (h_i, p_i) -> (h_i+1, p_i - 1) always
 * descends, none stays within a priority, and a cycle would have to climb
 * somewhere: the dependency graph is acyclic, as ttl's is with every
 * dependency climbing.  (Tagger's proof needs the tag to change
 * monotonically, in either direction.)  It needs as many priorities as the
 * longest path has hops.
 *
 * Its tables are keyed by the tag the frame leaves with, the depth, which
 * is also the hop's priority (no tag 0 from hosts: a first hop leaves with
 * its path's depth):
 *
 *   ingress (I, t) = t + 1 for a fabric port I; (host, t) = 0,
 *   egress  (O, t) = (t, t), the tag unchanged (the switch never writes
 *                    it: the next switch's pop is the rewrite),
 *   egress  (host, 0) = (0, 0).
 *
 * One charge is wrong: a frame delivered to the destination's hosts
 * leaves with depth 0, the depth it arrived with on its last hop (at
 * priority 0), and so does a frame that node sends on its own last hop,
 * which arrived at priority 1.  Both are (I, 0): the ingress entry
 * charges both to 1, the choice that keeps every wait-for edge descending
 * (a pause for 1 stops the upstream queue of the transit frames, and the
 * delivered frames' queues drain to hosts), at the price that delivered
 * frames are not held back by a pause for priority 0: on their last hop
 * they are lossless only while the destination keeps up.
 * sluice_tagger_check() expects exactly that charge there.
 *
 * The greedy pass
 * ---------------
 * Priorities are filled one at a time, q = 0, 1, ...  Level q holds the
 * segments of paths that cross a hop at q: every path from its first hop
 * at level 0, and at level q + 1 the rest of each path from the hop where
 * it climbed.  One pass over the segments, in path order, keeps each hop of
 * a segment at q unless the dependency on it (from the hop before) would
 * close a cycle among q's dependencies; then the hop's link direction is
 * marked "climbs at q" and the segment climbs there, as will every segment
 * that reaches that link direction at q later.  A link direction that has a
 * dependency into it at q is committed to staying: when a later
 * dependency into it would close a cycle, the cycle is broken by marking the
 * link direction on it with the fewest dependencies into it so far as
 * climbing and dropping its dependencies at q.  Being online, the pass
 * makes some link directions climb that no longer close a cycle once later
 * climbs dropped dependencies, so each climbing link direction is then
 * offered back the segments that climb there first (those moving the most
 * segments first, in sweeps until nothing changes): it stays if all their
 * dependencies up to their next climb keep q's graph acyclic.  Fewer
 * segments at q + 1 leave fewer cycles to break there: on the 24 jellyfish
 * route sets of scripts/reproduce-tagger this saved a priority on 8.
 * A last walk over the level cuts every segment at its first climbing hop:
 * q's dependencies are then a subgraph of the acyclic graph kept, and the
 * cut tails are level q + 1.  Every tail starts after its segment's first
 * hop, so segments shrink level by level: greedy never needs more priorities
 * than ttl.  The cycle test is Pearce and Kelly's dynamic topological order
 * ("A dynamic topological sort algorithm for directed acyclic graphs", JEA
 * 2006): a dependency that agrees with the order costs O(1), one that does
 * not searches only the buffers between its ends in the order.
 *
 * Everything here is deterministic and single-threaded: the same topology
 * and routes give the same priorities and the same file, byte for byte.
 * The route set's own lanes are ignored: Tagger's priorities replace them.
 * Functions that fail return a negative errno with a message in @err.
 */
#ifndef _SLUICE_TAGGER_H
#define _SLUICE_TAGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sluice/cbd.h>
#include <sluice/graph.h>
#include <sluice/route.h>

/* Tag values a table may hold: DSCP's range, the widest tag source. */
#define SLUICE_TAGGER_TAGS_MAX	64
/* The port of a node's hosts in a table entry. */
#define SLUICE_TAGGER_HOST	UINT32_MAX

enum sluice_tagger_mode {
	SLUICE_TAGGER_GREEDY,
	SLUICE_TAGGER_TTL,
	SLUICE_TAGGER_DEPTH,
	SLUICE_TAGGER__COUNT,
};

struct sluice_tagger_opts {
	enum sluice_tagger_mode	mode;
	/* the most priorities the assignment may use; 0: SLUICE_LANES_MAX */
	uint32_t		max_priorities;
	/*
	 * Long work's progress; NULL: none.  sluice_tagger_assign(): the
	 * hops of the path tails it has placed, of all the set's hops (a
	 * tail greedy places again at the next priority counts again, the
	 * count held below the total until the end).  The tables of
	 * sluice_tagger_compute(): the paths walked, of all.
	 */
	sluice_progress_fn	progress;
	void			*progress_arg;
	sluice_progress_fn	tables_progress;
	void			*tables_progress_arg;
};

/* The priority of every hop of a route set. */
struct sluice_tagging {
	enum sluice_tagger_mode	mode;
	uint64_t	n_hops;
	uint8_t		*prio;		/* prio[k]: hop k of the route set */
	uint32_t	priorities;	/* highest + 1; 0 without hops */
	/*
	 * greedy: link directions marked climbing (over all priorities),
	 * and of those, the ones marked to break a cycle through a link
	 * direction already committed to staying
	 */
	uint64_t	climbs;
	uint64_t	conflicts;
};

/* An ingress entry: (port, tag) -> prio. */
struct sluice_tagger_in {
	uint32_t	port;	/* link id, or SLUICE_TAGGER_HOST */
	uint8_t		tag;
	uint8_t		prio;
};

/* An egress entry: (port, tag) -> (cls, new_tag). */
struct sluice_tagger_out {
	uint32_t	port;	/* link id, or SLUICE_TAGGER_HOST */
	uint8_t		tag;
	uint8_t		cls;
	uint8_t		new_tag;
};

/*
 * The tables of every node, and what they were computed for.  Node u's
 * entries are in[in_off[u]] to in[in_off[u + 1] - 1] (and likewise out),
 * sorted by port (links by id, host last), then tag, each key once.
 */
struct sluice_tagger_tables {
	enum sluice_tagger_mode	mode;
	uint32_t	priorities;	/* highest priority or class + 1 */
	uint32_t	tags;		/* highest tag value + 1 */
	/* the topology (sluice_graph_hash()) */
	uint32_t	n_nodes;
	uint32_t	n_links;
	uint64_t	topo_hash;
	/* the routes (sluice_tagger_routes_hash()) */
	char		algo[SLUICE_ALGO_NAME_MAX];
	uint64_t	n_pairs, n_paths, n_hops;
	uint64_t	routes_hash;
	uint64_t	*in_off;	/* n_nodes + 1 */
	struct sluice_tagger_in	*in;
	uint64_t	*out_off;	/* n_nodes + 1 */
	struct sluice_tagger_out *out;
};

/* What sluice_tagger_check() found. */
struct sluice_tagger_check {
	/* consistent and CBD-free: the tables are safe for the routes */
	bool		ok;
	/*
	 * Every path finds its entries (egress at each node it leaves,
	 * ingress at each it enters, host entries at its ends), is charged
	 * at each ingress to the class it was queued in upstream, and never
	 * goes down in priority.  If not, @problem says where first.
	 */
	bool		consistent;
	char		problem[SLUICE_ERRLEN];
	uint32_t	priorities;	/* highest class a path uses + 1 */
	uint64_t	entries_unused;	/* entries no path looks up */
	/*
	 * When consistent: the dependency graph per priority; a cycle's
	 * hops name paths of the route set that was checked.
	 */
	struct sluice_cbd_result cbd;
};

/* Table sizes (Tagger Section 7.3.1's resource counts). */
struct sluice_tagger_stats {
	uint32_t	priorities;
	uint32_t	tags;
	uint64_t	in_entries;
	uint64_t	out_entries;
	uint64_t	entries;	/* in + out */
	uint64_t	node_min;	/* entries of a node */
	uint64_t	node_max;
	double		node_avg;
	uint32_t	bottleneck;	/* a node with node_max (lowest id) */
};

/* Time: O(1). */
const char *sluice_tagger_mode_name(enum sluice_tagger_mode mode);
/* Time: O(1). */
int sluice_tagger_mode_parse(const char *name);

/* Time: O(pairs + paths + hops). */
uint64_t sluice_tagger_routes_hash(const struct sluice_routes *r);

/*
 * Time: ttl and depth O(hops); greedy, per priority, O(hops) for the pass, each
 * reclaim sweep (at most RECLAIM_SWEEPS) and the cut, plus the dynamic order's
 * searches, each bounded by the buffers placed between the ends of the
 * dependency (at most 2 * links) and their turns, and made at most once per new
 * dependency, conflict and reclaimed dependency.
 */
int sluice_tagger_assign(const struct sluice_graph *g,
			 const struct sluice_routes *r,
			 const struct sluice_tagger_opts *o,
			 struct sluice_tagging *t, char *err, size_t errlen);
/* Time: O(1). */
void sluice_tagging_free(struct sluice_tagging *t);

/*
 * Time: O(nodes + pairs + hops * log(degree) + (2 * links + nodes) *
 * priorities); memory 3 bytes per (port, tag value) for the lookup.
 */
int sluice_tagger_tables_build(const struct sluice_graph *g,
			       const struct sluice_routes *r,
			       const struct sluice_tagging *t,
			       struct sluice_tagger_tables *tab,
			       char *err, size_t errlen);
/* Time: O(1). */
void sluice_tagger_tables_free(struct sluice_tagger_tables *tab);

/*
 * sluice_tagger_assign() then sluice_tagger_tables_build(), with @o's
 * progress for both: what "sluicectl tag compute" and the fabric loader
 * do.  @t and @tab filled; free both, even on an error.  Time: the sum.
 */
int sluice_tagger_compute(const struct sluice_graph *g,
			  const struct sluice_routes *r,
			  const struct sluice_tagger_opts *o,
			  struct sluice_tagging *t,
			  struct sluice_tagger_tables *tab,
			  char *err, size_t errlen);

/*
 * Time: O(nodes + pairs + hops * log(degree)) and sluice_cbd_check()'s time on
 * the runs; memory 3 bytes per (port, tag value up to 64) and about 40 bytes
 * per run.
 */
int sluice_tagger_check(const struct sluice_graph *g,
			const struct sluice_routes *r,
			const struct sluice_tagger_tables *tab,
			struct sluice_tagger_check *res,
			char *err, size_t errlen);
/* Time: O(1). */
void sluice_tagger_check_free(struct sluice_tagger_check *res);

/* The tag file (lib/tagger/file.c has the format). */
/* Time: O(nodes + links + entries). */
int sluice_tagger_write(const struct sluice_tagger_tables *tab,
			const struct sluice_graph *g, FILE *f,
			const char *only, char *err, size_t errlen);
/* Time: O(nodes + links + entries); memory for the entries kept. */
int sluice_tagger_read(struct sluice_tagger_tables *tab,
		       const struct sluice_graph *g, FILE *f,
		       const char *name, const char *only,
		       char *err, size_t errlen);

/* Time: O(nodes + entries). */
int sluice_tagger_stats(const struct sluice_tagger_tables *tab,
			const struct sluice_graph *g,
			struct sluice_tagger_stats *st,
			char *err, size_t errlen);

#endif /* _SLUICE_TAGGER_H */
