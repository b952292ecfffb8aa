// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl experiment faca --parts micro: FaCa's micro-benchmark
 * (Section 7.3) on a fabric of namespaces, scaled to what the VM fills.
 *
 *                spine0   spine1   spine2   spine3
 *                 fast     fast     slow     slow
 *                   (every leaf linked to every spine)
 *   leaf0-h0..h7 -- leaf0   leaf1 -- leaf1-h0..h7        senders
 *   leaf2-h0..h7 -- leaf2   leaf3 -- leaf3-h0..h7        receivers
 *
 * Leaf a's host i keeps one long TCP flow to leaf a + 2's host i (FaCa's
 * IP pairs); each round adds --flows of them a leaf pair, --stagger
 * apart, so the load grows round by round.  A spine's capacity is its
 * ports down to the leaves, which carry the paper's 3120 of 3200 (97.5 %)
 * of a leaf's full load: the slow spines' at --slow of the fast ones',
 * the leaves' uplinks at twice a fast port's, so that a spine's port is
 * where a path's flows queue (the paper's "congestion on core switches").
 * Every port runs PFC on priority 3 (the flows' DSCP 24) and stamps INT
 * probes.
 *
 * The policies, each on the same fabric in turn:
 *
 *   ecmp   multipath hash5 (the 5-tuple), each flow from a random source
 *          port of the pool, drawn from --seed
 *   wcmp   multipath wcmp (hash5, the nexthops weighted by their paths'
 *          bottleneck rates), the same random ports
 *   faca   multipath sport (the addresses and the source port), an agent
 *          in every host (threads of this process) probing its partner
 *          from the pool, each flow's port from its host's agent: under
 *          sport a UDP probe from a port and a TCP flow from it take one
 *          path, so the agent learns paths as FaCa does on plain ECMP
 *          hashing (exact would give it each path's ports by a table)
 *
 * Sampled every --interval on the run's own clock (sluice_stream_opts'
 * bin_end): every spine port down to a receiving leaf, its lossless
 * class's backlog and bytes sent, and the PFC frames the spines sent.
 * A round is measured over its last part, once its flows are in.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sluice/experiment.h>
#include <sluice/fabric.h>
#include <sluice/fabric_load.h>
#include <sluice/fabric_nl.h>
#include <sluice/faca.h>
#include <sluice/host.h>
#include <sluice/int.h>
#include <sluice/multipath.h>
#include <sluice/portfc.h>
#include <sluice/rate.h>
#include <sluice/route.h>
#include <sluice/size.h>
#include <sluice/switch.h>
#include <sluice/tcpstream.h>
#include <sluice/topo.h>
#include "cmd_experiment.h"
#include "experiment_faca.h"
#include "cmd_fabric.h"
#include "jout.h"
#include "qdisc_args.h"

#define DSCP		24		/* class 3 by the default DSCP map */
#define LOSSLESS	3
/* Probes above the flows' class, lossy: never paused nor starved */
#define PROBE_DSCP	32
#define XOFF		20000
#define XON		17000
/* The pool: the agents' ports, and ECMP's and WCMP's random ones */
#define POOL_LO		20000
#define POOL_HI		20031
/*
 * A probe's round trip costs the emulated CPU some ms (8 stamped hops,
 * the agents' sockets): 16 agents probing 4 paths every second took a
 * fifth of the VM's CPU, every 2 s a tenth.
 */
#define AGENT_INTERVAL_NS	2000000000ull
/* A round's flows are in and settled this long after its last start */
#define SETTLE		2.0
#define MTU		SLUICE_FABRIC_HOST_MTU
/*
 * Headroom for the emulated machine's late timers besides the derived one
 * (exp_derive_headroom()): TCG wakes a port tens of ms late at times (the
 * kernel logs hrtimer interrupts of 40 ms), and a leaf's uplink sends on
 * until its pause is seen.
 */
#define TCG_LATE_NS	50000000ull
/* A congested port carries at least this share of its rate (links limit) */
#define LINK_BOUND	0.85

/*
 * Section 7.3's spines (4 of 380, 4 of 400) carry 3120 of what its 16
 * leaves of 200 send at full load: the last round overloads them a little.
 */
#define PAPER_SPINE_SHARE	(3120.0 / 3200.0)

static const char *const micro_policy_names[N_MICRO] = {
	"ecmp", "wcmp", "faca",
};

static const char *const policy_titles[N_MICRO] = {
	"ECMP", "WCMP", "FaCa",
};

static const unsigned int policy_mode[N_MICRO] = {
	SLUICE_MP_HASH5, SLUICE_MP_WCMP, SLUICE_MP_SPORT,
};

/* ---- options ---- */

/* A round's flows are in and settled by this many s into it. */
static double settle(const struct micro *m, uint32_t flows)
{
	return (flows - 1) * m->stagger + SETTLE;
}

int micro_parse(const struct command *cmd, struct fexp *e,
		const struct micro_args *a)
{
	struct micro *m = &e->m;
	char msg[SLUICE_ERRLEN], *end;
	__u32 bytes;
	int ret;

	m->name = a->name ? a->name : SLUICE_FABRIC_DEFAULT_NAME;
	if (sluice_fabric_name_check(m->name, msg, sizeof(msg)))
		return cmd_error(cmd, "--name: %s", msg);
	m->policies = (1u << N_MICRO) - 1;
	ret = a->policies ? exp_parse_names(cmd, "--policies", a->policies,
					    micro_policy_names, N_MICRO,
					    &m->policies) : 0;
	if (ret)
		return ret;
	m->rate = a->rate ? a->rate : 500000;
	m->slow = 0.75;
	if (a->slow) {
		errno = 0;
		m->slow = strtod(a->slow, &end);
		if (!a->slow[0] || *end || errno || !(m->slow >= 0.1) ||
		    m->slow > 1)
			return cmd_error(cmd, "--slow: \"%s\" is not a fraction from 0.1 to 1 (0.75; the paper's 380 of 400 is 0.95)",
					       a->slow);
	}
	m->duration = a->duration_ms ? a->duration_ms / 1000.0 : 12;
	m->interval = a->interval_ms ? a->interval_ms / 1000.0 : 0.25;
	m->stagger = a->has_stagger ? a->stagger_ms / 1000.0 : 3;
	m->threshold = XOFF / 2;
	if (a->threshold) {
		if (sluice_parse_size(a->threshold, &bytes) || !bytes ||
		    bytes > XOFF)
			return cmd_error(cmd, "--threshold: \"%s\" is not a size from 1 byte to xoff, %u bytes (10kb)",
					       a->threshold, XOFF);
		m->threshold = bytes;
	}
	m->keep = a->keep;
	m->flows = e->flows;
	m->seed = e->seed;
	if (m->runs > MICRO_RUNS_MAX)
		return cmd_error(cmd, "--runs %u: at most %u on a fabric (each runs every policy)",
				       m->runs, MICRO_RUNS_MAX);
	if ((uint64_t)m->rounds * m->flows > MICRO_HOSTS_MAX)
		return cmd_error(cmd, "--rounds %u x --flows %u: a host a flow, at most %u hosts a leaf on a fabric",
				       m->rounds, m->flows, MICRO_HOSTS_MAX);
	/* a window of 4 samples and 2 s at least once the flows are in */
	if (m->duration - settle(m, m->flows) < fmax(2, 4 * m->interval))
		return cmd_error(cmd, "--duration %.1f s: a round needs its flows in (%.1f s: --flows %u, --stagger %.1f s, %.0f s to settle) and then 2 s and 4 samples of --interval to measure",
				       m->duration, settle(m, m->flows),
				       m->flows, m->stagger, SETTLE);
	m->hosts = m->rounds * m->flows;
	/* the spines carry the paper's share of a leaf's full load */
	m->fast_rate = (uint64_t)llround(PAPER_SPINE_SHARE * m->hosts *
					 m->rate / (MICRO_SPINES - MICRO_SLOW +
						    MICRO_SLOW * m->slow));
	m->uplink_rate = 2 * m->fast_rate;
	m->slow_rate = (uint64_t)llround(m->fast_rate * m->slow);
	return 0;
}

/* ---- the prediction ---- */

static double path_rate(const struct micro *m, uint32_t s)
{
	return s < MICRO_SPINES - MICRO_SLOW ? m->fast_rate : m->slow_rate;
}

/* A leaf pair's offered load in round @k over its spines' capacity. */
static double load(const struct micro *m, uint32_t k)
{
	double cap = 0;
	uint32_t s;

	for (s = 0; s < MICRO_SPINES; s++)
		cap += path_rate(m, s);
	return (k + 1.0) * m->flows * m->rate / cap;
}

/*
 * The placement's part, a leaf pair per round: ECMP and WCMP as their
 * expectations over random ports, FaCa as the balanced placement.
 */
static int micro_expect(struct micro *m)
{
	double cap[MICRO_SPINES];
	char err[SLUICE_ERRLEN];
	uint32_t s, k, n;
	int p, ret = 0;

	for (s = 0; s < MICRO_SPINES; s++)
		cap[s] = path_rate(m, s);
	for (p = 0; p < N_MICRO; p++) {
		m->expect[p] = calloc(m->rounds, sizeof(*m->expect[p]));
		if (!m->expect[p])
			return -ENOMEM;
	}
	for (k = 0; !ret && k < m->rounds; k++) {
		n = (k + 1) * m->flows;
		ret = sluice_faca_expect_random(cap, NULL, MICRO_SPINES, n,
						m->rate, &m->expect[MP_ECMP][k],
						err, sizeof(err)) ||
		      sluice_faca_expect_random(cap, cap, MICRO_SPINES, n,
						m->rate, &m->expect[MP_WCMP][k],
						err, sizeof(err)) ||
		      sluice_faca_expect_balanced(cap, MICRO_SPINES, n,
						  m->rate,
						  &m->expect[MP_FACA][k], err,
						  sizeof(err));
	}
	if (ret)
		fprintf(stderr, "sluicectl: micro: %s\n", err);
	return ret ? -EINVAL : 0;
}

/* ---- the fabric ---- */

/* Host @i of leaf @leaf, in the fabric's host order. */
static uint32_t host_of(const struct sluice_fabric_state *fs, uint32_t leaf,
			uint32_t i)
{
	return fs->f.host_first[leaf] + i;
}

/*
 * Up: the leaf-spine, every port's PFC and INT, the hosts' links, the
 * spines' ports down and the leaves' uplinks at their rates; ECMP's
 * routes computed once (every mode loads them its way).
 */
static int micro_fabric(struct fexp *e, struct sluice_fabric_state *fs,
			struct sluice_routes *r)
{
	struct micro *m = &e->m;
	struct sluice_route_opts ro = { .algo = SLUICE_ROUTE_ECMP };
	struct sluice_compute_opts co = { 0 };
	struct sluice_fabric_qdisc q = { 0 };
	char err[SLUICE_ERRLEN];
	uint64_t *link_rate = NULL, *port_rate = NULL;
	uint32_t headroom, u, k, s;
	size_t at = 0;
	int ret;

	memset(fs, 0, sizeof(*fs));
	if (exp_derive_headroom(m->uplink_rate, &headroom))
		return EXIT_RUNTIME;
	headroom += m->uplink_rate * TCG_LATE_NS / 8000000000ull;
	snprintf(fs->name, sizeof(fs->name), "%s", m->name);
	snprintf(fs->topo_path, sizeof(fs->topo_path), "leafspine(%u,%u,%u)",
		 MICRO_LEAVES, MICRO_SPINES, m->hosts);
	fs->hosts_per_switch = SLUICE_FABRIC_HOSTS_DEFAULT;
	fs->qdisc = true;
	fs->multipath = SLUICE_MP_HASH5;
	snprintf(fs->qdisc_args, sizeof(fs->qdisc_args),
		 "rate %llubit pfc %d xoff %u xon %u headroom %u int-port %u",
		 (unsigned long long)m->uplink_rate, LOSSLESS, XOFF, XON,
		 headroom, SLUICE_INT_PORT_DEFAULT);
	for (s = 0; s < MICRO_SPINES; s++)
		at += snprintf(fs->node_rates + at, sizeof(fs->node_rates) - at,
			       "%sspine%u=%llubit", s ? "," : "", s,
			       (unsigned long long)path_rate(m, s));
	ret = qdisc_args_parse(fs->qdisc_args, &q);
	if (ret)
		return EXIT_RUNTIME;
	q.host.rate = m->rate;
	if (sluice_topo_leafspine(&fs->g, MICRO_LEAVES, MICRO_SPINES, 1,
				  m->hosts, err, sizeof(err)))
		goto fail_msg;
	if (sluice_fabric_plan(&fs->f, &fs->g, fs->name,
			       SLUICE_FABRIC_HOSTS_DEFAULT, err, sizeof(err))) {
		sluice_graph_free(&fs->g);
		goto fail_msg;
	}
	fs->f.multipath = fs->multipath;
	fs->hash = sluice_graph_hash(&fs->g);
	port_rate = calloc(2 * (size_t)fs->g.n_links, sizeof(*port_rate));
	if (!port_rate ||
	    sluice_fabric_link_rates(&fs->g, m->uplink_rate, fs->node_rates,
				     &link_rate, err, sizeof(err))) {
		if (!port_rate)
			snprintf(err, sizeof(err), "out of memory");
		sluice_fabric_state_free(fs);
		goto fail_msg;
	}
	/* the leaves' uplinks faster: the spines' ports queue */
	for (u = 0; u < MICRO_LEAVES; u++)
		for (k = fs->g.off[u]; k < fs->g.off[u + 1]; k++)
			port_rate[k] = m->uplink_rate;
	q.link_rate = link_rate;
	q.port_rate = port_rate;
	ret = exp_fabric_up(fs, &q);
	free(link_rate);
	free(port_rate);
	if (ret)
		return ret;
	if (sluice_routes_compute(&fs->g, &ro, &co, r, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		exp_fabric_down(fs);
		sluice_fabric_state_free(fs);
		return EXIT_RUNTIME;
	}
	return 0;
fail_msg:
	free(link_rate);
	free(port_rate);
	fprintf(stderr, "sluicectl: micro: %s\n", err);
	return EXIT_RUNTIME;
}

/*
 * The fabric in policy @p's multipath mode, its routes loaded so: the
 * state, every switch's hash, then the routes, as "route load --multipath
 * MODE" (each step put back if a later one fails).
 */
static int set_mode(struct sluice_fabric_state *fs,
		    const struct sluice_routes *r, int p)
{
	struct sluice_fabric_load_opts o = {
		.state = fs, .routes = r,
		.set_multipath = true, .multipath = policy_mode[p],
	};

	return exp_load(&o);
}

/* ---- sampling the spines ---- */

struct sampler {
	struct sluice_nl	*nl[MICRO_SPINES];
	uint32_t		down_if[MICRO_SPINES][MICRO_PAIRS];
	uint32_t		n_bins;
	/* per bin, [spine][pair] of the ports down */
	uint32_t		*backlog;
	uint64_t		*bytes;
	uint64_t		*pauses;	/* the spines', by bin */
	int			ret;
	char			err[SLUICE_ERRLEN];
};

static size_t at_port(uint32_t bin, uint32_t s, uint32_t a)
{
	return ((size_t)bin * MICRO_SPINES + s) * MICRO_PAIRS + a;
}

static void sample(void *arg, uint32_t bin)
{
	struct sampler *sm = arg;
	struct sluice_port_info *pi;
	uint64_t pauses = 0;
	uint32_t s, a, n, k;

	if (bin >= sm->n_bins)
		return;
	for (s = 0; s < MICRO_SPINES; s++) {
		pi = NULL;
		n = 0;
		if (sluice_nl_stats_get(sm->nl[s], 0, &pi, &n, sm->err,
					sizeof(sm->err))) {
			sm->ret = sm->ret ? sm->ret : -EIO;
			continue;
		}
		for (k = 0; k < n; k++) {
			pauses += pi[k].port.pfc_tx;
			for (a = 0; a < MICRO_PAIRS; a++)
				if (pi[k].ifindex == sm->down_if[s][a]) {
					sm->backlog[at_port(bin, s, a)] =
						pi[k].prio[LOSSLESS].backlog;
					sm->bytes[at_port(bin, s, a)] =
						pi[k].prio[LOSSLESS].bytes;
				}
		}
		free(pi);
	}
	sm->pauses[bin] = pauses;
}

static void sampler_free(struct sampler *sm)
{
	uint32_t s;

	for (s = 0; s < MICRO_SPINES; s++)
		if (sm->nl[s])
			sluice_nl_close(sm->nl[s]);
	free(sm->backlog);
	free(sm->bytes);
	free(sm->pauses);
}

static int sampler_open(struct sampler *sm, const struct sluice_fabric_state *fs,
			uint32_t n_bins)
{
	char ns[SLUICE_NETNS_NAME_MAX];
	uint32_t s, a, spine, link;
	size_t n = (size_t)n_bins * MICRO_SPINES * MICRO_PAIRS;

	memset(sm, 0, sizeof(*sm));
	sm->n_bins = n_bins;
	sm->backlog = calloc(n, sizeof(*sm->backlog));
	sm->bytes = calloc(n, sizeof(*sm->bytes));
	sm->pauses = calloc(n_bins, sizeof(*sm->pauses));
	if (!sm->backlog || !sm->bytes || !sm->pauses) {
		snprintf(sm->err, sizeof(sm->err), "out of memory");
		return -ENOMEM;
	}
	for (s = 0; s < MICRO_SPINES; s++) {
		spine = MICRO_LEAVES + s;
		sluice_fabric_switch_ns(&fs->f, spine, ns, sizeof(ns));
		if (sluice_nl_open(&sm->nl[s], ns, sm->err, sizeof(sm->err)))
			return -EIO;
		/* links go leaf by leaf, spine by spine: leaf l's is l S + s */
		for (a = 0; a < MICRO_PAIRS; a++) {
			link = (a + MICRO_PAIRS) * MICRO_SPINES + s;
			sm->down_if[s][a] = 2 + sluice_fabric_port_index(&fs->g,
									 spine,
									 link);
		}
	}
	return 0;
}

/* ---- one policy ---- */

struct prun {
	struct fexp			*e;
	int				p;
	uint32_t			run;	/* which draw */
	struct sluice_fabric_state		*fs;
	struct sluice_tcpgen_host	*h;
	struct sluice_stream_flow	*fl;
	uint32_t			n_flows;
	int				*spine;		/* per flow, -1 */
	struct sluice_stream_opts	so;
	struct sampler			sm;
};

/* Flow @q's leaf pair and round: plan_flows() goes round by round. */
static uint32_t flow_pair(uint32_t q)
{
	return q % MICRO_PAIRS;
}

static uint32_t flow_round(const struct micro *m, uint32_t q)
{
	return q / MICRO_PAIRS / m->flows;
}

/* Round by round, a flow a leaf pair --stagger apart, to the end. */
static int plan_flows(struct prun *pr)
{
	const struct micro *m = &pr->e->m;
	const struct sluice_fabric_state *fs = pr->fs;
	uint32_t k, j, a, q = 0, i;

	pr->n_flows = m->rounds * m->flows * MICRO_PAIRS;
	pr->fl = calloc(pr->n_flows, sizeof(*pr->fl));
	pr->spine = calloc(pr->n_flows, sizeof(*pr->spine));
	pr->h = calloc(fs->f.n_hosts, sizeof(*pr->h));
	if (!pr->fl || !pr->spine || !pr->h)
		return -ENOMEM;
	for (k = 0; k < m->rounds; k++)
		for (j = 0; j < m->flows; j++)
			for (a = 0; a < MICRO_PAIRS; a++, q++) {
				i = k * m->flows + j;
				pr->fl[q] = (struct sluice_stream_flow){
					.src = host_of(fs, a, i),
					.dst = host_of(fs, a + MICRO_PAIRS, i),
					.start = k * m->duration + j * m->stagger,
					.stop = m->rounds * m->duration,
				};
				pr->spine[q] = -1;
			}
	for (a = 0; a < MICRO_LEAVES; a++)
		for (i = 0; i < m->hosts; i++) {
			struct sluice_tcpgen_host *h = &pr->h[host_of(fs, a, i)];

			sluice_fabric_host_ns(&fs->f, a, i, h->ns, sizeof(h->ns));
			h->addr = sluice_fabric_host_addr(a, i, true);
		}
	return 0;
}

/*
 * Every agent holds a socket per pool port and two more: past the usual
 * 1024 descriptors with 32 hosts.  The soft limit goes up to what is
 * needed, as far as the hard one allows.
 */
static int raise_nofile(uint32_t agents)
{
	rlim_t want = (rlim_t)agents * (POOL_HI - POOL_LO + 1 + 8) + 512;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	if (rl.rlim_cur >= want)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want) {
		fprintf(stderr, "sluicectl: micro: %u agents need %llu open files, the hard limit is %llu (ulimit -Hn)\n",
			agents, (unsigned long long)want,
			(unsigned long long)rl.rlim_max);
		return -EMFILE;
	}
	rl.rlim_cur = want;
	return setrlimit(RLIMIT_NOFILE, &rl) ? -errno : 0;
}

/* The agents: every host's, the senders' probing their partners. */
static int agents_start(struct prun *pr, struct sluice_faca_agents **ag)
{
	const struct sluice_fabric_state *fs = pr->fs;
	struct sluice_faca_opts o;
	char err[SLUICE_ERRLEN];
	uint32_t *dst, q;
	int ret;

	sluice_faca_opts_default(&o);
	o.n_ranges = 1;
	o.sports[0] = (struct sluice_sport_range){ POOL_LO, POOL_HI };
	o.port = SLUICE_INT_PORT_DEFAULT;
	o.tos = PROBE_DSCP << 2;
	o.records = 4;
	o.interval_ns = AGENT_INTERVAL_NS;
	o.sweep = 0;		/* no port moves to another path here */
	o.seed = pr->e->m.seed + pr->run;
	ret = raise_nofile(fs->f.n_hosts);
	if (ret)
		return ret;
	dst = calloc(fs->f.n_hosts, sizeof(*dst));
	if (!dst)
		return -ENOMEM;
	for (q = 0; q < pr->n_flows; q++)
		dst[pr->fl[q].src] = htonl(pr->h[pr->fl[q].dst].addr);
	ret = sluice_faca_agents_start(ag, &fs->f, &o, dst, err, sizeof(err));
	free(dst);
	if (ret)
		fprintf(stderr, "sluicectl: micro: %s\n", err);
	return ret;
}

/*
 * The paths each sending host's agent knows to its partner, fewest and
 * most (its table's "show"): every path known is what lets it choose.
 */
static int agents_paths(struct prun *pr, const struct sluice_faca_agents *ag,
			struct micro_run *run)
{
	json_object *o, *d, *paths;
	char err[SLUICE_ERRLEN], *text;
	uint32_t q, n;
	int ret = 0;

	for (q = 0; !ret && q < pr->n_flows; q++) {
		ret = sluice_faca_show(sluice_faca_agents_socket(ag,
								 pr->fl[q].src),
				       &text, err, sizeof(err));
		if (ret)
			break;
		o = json_tokener_parse(text);
		free(text);
		n = 0;
		if (json_object_object_get_ex(o, "destinations", &d) &&
		    json_object_array_length(d) &&
		    json_object_object_get_ex(json_object_array_get_idx(d, 0),
					      "paths", &paths))
			n = json_object_array_length(paths);
		json_object_put(o);
		run->paths_min = n < run->paths_min ? n : run->paths_min;
		run->paths_max = n > run->paths_max ? n : run->paths_max;
	}
	if (ret)
		fprintf(stderr, "sluicectl: micro: an agent's table: %s\n",
			err);
	return ret ? EXIT_RUNTIME : 0;
}

/* Where each flow went: the kernel's route at its leaf, for its ports. */
static int flow_spines(struct prun *pr, struct micro_run *run)
{
	const struct sluice_fabric_state *fs = pr->fs;
	struct sluice_rtnl *rt[MICRO_PAIRS] = { 0 };
	char err[SLUICE_ERRLEN], ns[SLUICE_NETNS_NAME_MAX];
	uint32_t a, q, link, i;
	int self, ret = 0;

	self = sluice_netns_self(err, sizeof(err));
	for (a = 0; self >= 0 && !ret && a < MICRO_PAIRS; a++) {
		sluice_fabric_switch_ns(&fs->f, a, ns, sizeof(ns));
		ret = sluice_rtnl_open_in(ns, self, &rt[a], err, sizeof(err));
	}
	for (q = 0; self >= 0 && !ret && q < pr->n_flows; q++) {
		const struct sluice_stream_flow *f = &pr->fl[q];
		struct sluice_flow_key k = {
			.src = pr->h[f->src].addr, .dst = pr->h[f->dst].addr,
			.proto = IPPROTO_TCP, .sport = f->sport,
			.dport = pr->h[f->dst].port,
		};

		a = flow_pair(q);
		i = f->src - fs->f.host_first[a];
		if (!f->sport ||
		    sluice_fabric_flow_link(&fs->f, rt[a], a, i, &k, &link,
					    err, sizeof(err))) {
			if (!run->unknown_path++)
				faca_progress(pr->e, "micro: flow %u: %s", q,
					      f->sport ? err : "no port");
			continue;
		}
		pr->spine[q] = sluice_fabric_peer(&fs->g, a, link) -
			       MICRO_LEAVES;
	}
	for (a = 0; a < MICRO_PAIRS; a++)
		sluice_rtnl_close(rt[a]);
	if (self >= 0)
		close(self);
	if (self < 0 || ret)
		fprintf(stderr, "sluicectl: micro: %s\n", err);
	return self < 0 || ret ? EXIT_RUNTIME : 0;
}

static double pop_sd(const double *v, uint32_t n)
{
	double mean = 0, sum = 0;
	uint32_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		mean += v[i] / n;
	for (i = 0; i < n; i++)
		sum += (v[i] - mean) * (v[i] - mean);
	return sqrt(sum / n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The median of port (@s, @a)'s throughput sample by sample over bins
 * [@b0, @b1), bit/s: a window's mean counts the moments the emulated
 * machine itself stalls (every port at once, the host's other work),
 * which are no limit of the port's.  @tmp has room for the bins.
 */
static double median_rate(const struct sampler *sm, double interval,
			  uint32_t s, uint32_t a, uint32_t b0, uint32_t b1,
			  double *tmp)
{
	uint32_t b, n = b1 - b0;

	for (b = b0; b < b1; b++)
		tmp[b - b0] = (sm->bytes[at_port(b, s, a)] -
			       sm->bytes[at_port(b - 1, s, a)]) * 8.0 /
			      interval;
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* Round @k's window, in whole bins: once its flows settled, to its end. */
static void window(const struct micro *m, uint32_t k, uint32_t *b0,
		   uint32_t *b1)
{
	*b0 = (uint32_t)ceil((k * m->duration + settle(m, m->flows)) /
			     m->interval - 1e-9);
	*b1 = (uint32_t)floor((k + 1) * m->duration / m->interval + 1e-9);
}

static int measure_round(struct prun *pr, struct micro_run *run, uint32_t k)
{
	const struct micro *m = &pr->e->m;
	const struct sampler *sm = &pr->sm;
	struct micro_round *rd = &run->round[pr->run * m->rounds + k];
	double tp[MICRO_PAIRS][MICRO_SPINES], rates[MICRO_HOSTS_MAX];
	double secs, hot, r, *tmp;
	uint32_t b0, b1, b, s, a, q, n, above = 0;

	window(m, k, &b0, &b1);
	secs = (b1 - b0) * m->interval;
	tmp = calloc(b1 - b0, sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	rd->port_util = -1;
	for (s = 0; s < MICRO_SPINES; s++)
		for (a = 0; a < MICRO_PAIRS; a++) {
			for (b = b0, n = 0; b < b1; b++)
				n += sm->backlog[at_port(b, s, a)] >
				     m->threshold;
			above += n;
			tp[a][s] = (sm->bytes[at_port(b1 - 1, s, a)] -
				    sm->bytes[at_port(b0 - 1, s, a)]) * 8.0 /
				   secs;
			/* a port above the threshold most of the window */
			if (2 * n <= b1 - b0)
				continue;
			hot = median_rate(sm, m->interval, s, a, b0, b1, tmp) /
			      path_rate(m, s);
			if (rd->port_util < 0 || hot < rd->port_util)
				rd->port_util = hot;
		}
	rd->congestion = (double)above / ((b1 - b0) * MICRO_SPINES *
					  MICRO_PAIRS);
	rd->pauses = sm->pauses[b1 - 1] - sm->pauses[b0 - 1];
	rd->flows = 0;
	rd->throughput = rd->port_sd = rd->pair_sd = 0;
	for (a = 0; a < MICRO_PAIRS; a++) {
		for (q = 0, n = 0; q < pr->n_flows; q++) {
			if (flow_pair(q) != a || flow_round(m, q) > k)
				continue;
			r = sluice_stream_rate(&pr->fl[q], &pr->so, b0, b1);
			rates[n++] = r;
			rd->throughput += r;
			if (pr->spine[q] >= 0)
				rd->on_spine[a][pr->spine[q]]++;
		}
		rd->flows += n;
		rd->pair_sd += pop_sd(rates, n) / MICRO_PAIRS;
		rd->port_sd += pop_sd(tp[a], MICRO_SPINES) / MICRO_PAIRS;
	}
	free(tmp);
	return 0;
}

/*
 * What the fabric's switches count so far: frames a lossless class
 * dropped (none, if PFC held), and the pauses the receiving leaves sent
 * up to the spines (few: a receiving host's link takes its one flow).
 */
static int switch_totals(const struct sluice_fabric_state *fs, uint64_t *drops,
			 uint64_t *leaf_pauses)
{
	struct sluice_port_info *pi;
	uint32_t u, n, k;
	int ret = 0;

	*drops = *leaf_pauses = 0;
	for (u = 0; !ret && u < fs->g.n_nodes; u++) {
		ret = exp_switch_stats(fs, u, &pi, &n);
		for (k = 0; !ret && k < n; k++) {
			*drops += pi[k].port.limit_drops +
				  pi[k].port.headroom_drops;
			if (u >= MICRO_PAIRS && u < MICRO_LEAVES)
				*leaf_pauses += pi[k].port.pfc_tx;
		}
		free(pi);
	}
	return ret;
}

static int run_flows(struct prun *pr, struct micro_run *run)
{
	const struct micro *m = &pr->e->m;
	char err[SLUICE_ERRLEN];
	uint64_t busy0 = 0, total0 = 0, busy1, total1, drops0, pauses0;
	uint64_t drops1 = 0, pauses1 = 0;
	uint32_t q, k;
	int ret;

	pr->so = (struct sluice_stream_opts){
		.interval = m->interval, .duration = m->rounds * m->duration,
		.cc = "cubic", .tos = DSCP << 2, .stop = &exp_interrupted,
		.bin_end = sample, .bin_arg = &pr->sm,
	};
	if (pr->p == MP_FACA) {
		pr->so.sport.faca = true;
	} else {
		pr->so.sport.range = (struct sluice_sport_range){ POOL_LO,
								  POOL_HI };
		pr->so.sport.seed = pr->e->m.seed + pr->run;
	}
	if (sampler_open(&pr->sm, pr->fs, sluice_stream_bins(&pr->so))) {
		fprintf(stderr, "sluicectl: micro: %s\n", pr->sm.err);
		return EXIT_RUNTIME;
	}
	if (switch_totals(pr->fs, &drops0, &pauses0))
		return EXIT_RUNTIME;
	sluice_cpu_times(&busy0, &total0);
	ret = sluice_stream_run(pr->h, pr->fs->f.n_hosts, pr->fl, pr->n_flows,
				&pr->so, err, sizeof(err));
	if (!sluice_cpu_times(&busy1, &total1) && total1 > total0)
		run->cpu_busy += (double)(busy1 - busy0) / (total1 - total0);
	if (!ret && switch_totals(pr->fs, &drops1, &pauses1))
		return EXIT_RUNTIME;
	run->drops += drops1 - drops0;
	run->leaf_pauses += pauses1 - pauses0;
	if (ret) {
		fprintf(stderr, "sluicectl: micro: %s\n", err);
		return EXIT_RUNTIME;
	}
	if (pr->sm.ret) {
		fprintf(stderr, "sluicectl: micro: the spines' counters: %s\n",
			pr->sm.err);
		return EXIT_RUNTIME;
	}
	run->flows += pr->n_flows;
	for (q = 0; q < pr->n_flows; q++) {
		run->failed += pr->fl[q].error != 0;
		run->from_agent += pr->fl[q].faca;
		if (!run->agent_error)
			run->agent_error = pr->fl[q].faca_error;
	}
	ret = flow_spines(pr, run);
	for (k = 0; !ret && k < m->rounds; k++)
		ret = measure_round(pr, run, k) ? EXIT_RUNTIME : 0;
	return ret;
}

static int run_policy(struct fexp *e, int p, uint32_t r,
		      struct sluice_fabric_state *fs, const struct sluice_routes *routes)
{
	struct micro_run *run = &e->m.run[p];
	struct sluice_faca_agents *ag = NULL;
	struct prun pr = { .e = e, .p = p, .run = r, .fs = fs };
	char err[SLUICE_ERRLEN];
	double t0 = sluice_now();
	int ret;

	faca_progress(e, "micro: run %u of %u: %s, multipath %s", r + 1,
		      e->m.runs, policy_titles[p],
		      sluice_multipath_name(policy_mode[p]));
	ret = set_mode(fs, routes, p);
	if (!ret && plan_flows(&pr))
		ret = EXIT_RUNTIME;
	if (!ret && p == MP_FACA && agents_start(&pr, &ag))
		ret = EXIT_RUNTIME;
	if (!ret)
		ret = run_flows(&pr, run);
	if (!ret && ag)
		ret = agents_paths(&pr, ag, run);
	if (sluice_faca_agents_stop(ag, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: micro: %s\n", err);
		ret = ret ? ret : EXIT_RUNTIME;
	}
	sampler_free(&pr.sm);
	sluice_stream_free(pr.fl, pr.n_flows);
	free(pr.fl);
	free(pr.spine);
	free(pr.h);
	run->seconds += sluice_now() - t0;
	if (ret)
		return ret;
	run->ran++;
	faca_progress(e, "micro: %s: %u flows, %u failed, %u ports from the agents, %.0f s",
		      policy_titles[p], pr.n_flows, run->failed,
		      run->from_agent, sluice_now() - t0);
	/* the queues drain before the next policy's flows */
	sleep(1);
	return 0;
}

int micro_run(struct fexp *e)
{
	struct micro *m = &e->m;
	struct sluice_routes r = { 0 };
	struct sluice_fabric_state fs;
	double t0 = sluice_now();
	uint32_t k;
	int p, ret;

	if (micro_expect(m))
		return EXIT_RUNTIME;
	for (p = 0; p < N_MICRO; p++) {
		m->run[p].round = calloc((size_t)m->runs * m->rounds,
					 sizeof(*m->run[p].round));
		if (!m->run[p].round)
			return EXIT_RUNTIME;
		m->run[p].paths_min = UINT32_MAX;
	}
	faca_progress(e, "micro: fabric %s up: %u leaves of %u hosts, %u spines",
		      m->name, MICRO_LEAVES, m->hosts, MICRO_SPINES);
	ret = micro_fabric(e, &fs, &r);
	if (ret)
		return ret;
	for (k = 0; !ret && k < m->runs; k++)
		for (p = 0; !ret && p < N_MICRO; p++)
			if (m->policies & 1u << p)
				ret = run_policy(e, p, k, &fs, &r);
	sluice_routes_free(&r);
	if (!m->keep)
		exp_fabric_down(&fs);
	sluice_fabric_state_free(&fs);
	m->seconds = sluice_now() - t0;
	faca_progress(e, "micro: done in %.0f s", m->seconds);
	return ret;
}

bool micro_ran(const struct fexp *e)
{
	int p;

	for (p = 0; p < N_MICRO; p++)
		if (e->m.run[p].ran)
			return true;
	return false;
}

/* ---- judging ---- */

/* Round @k of policy @p, the mean of its runs (ports: the lowest). */
static void round_mean(const struct micro *m, int p, uint32_t k,
		       struct micro_round *out)
{
	const struct micro_run *run = &m->run[p];
	const struct micro_round *rd;
	uint32_t r, n = run->ran;

	memset(out, 0, sizeof(*out));
	out->port_util = -1;
	for (r = 0; r < n; r++) {
		rd = &run->round[r * m->rounds + k];
		out->flows = rd->flows;
		out->congestion += rd->congestion / n;
		out->pauses += rd->pauses / n;
		out->port_sd += rd->port_sd / n;
		out->pair_sd += rd->pair_sd / n;
		out->throughput += rd->throughput / n;
		if (rd->port_util >= 0 &&
		    (out->port_util < 0 || rd->port_util < out->port_util))
			out->port_util = rd->port_util;
	}
}

/* Policy @p's congestion rate over its rounds and runs. */
static double mean_congestion(const struct micro *m, int p)
{
	struct micro_round rd;
	double sum = 0;
	uint32_t k;

	for (k = 0; k < m->rounds; k++) {
		round_mean(m, p, k, &rd);
		sum += rd.congestion;
	}
	return sum / m->rounds;
}

/* The links, not the CPU, held the flows back: congested ports full. */
static bool links_ok(const struct micro *m, int p)
{
	struct micro_round rd;
	uint32_t k;

	for (k = 0; k < m->rounds; k++) {
		round_mean(m, p, k, &rd);
		if (rd.port_util >= 0 && rd.port_util < LINK_BOUND)
			return false;
	}
	return true;
}

/*
 * The claims: every flow ran on a fabric whose links, not its CPU, were
 * the bottleneck, and FaCa's from its agents' ports; FaCa's congestion
 * rate over the rounds and runs below ECMP's and WCMP's (Fig. 9a), and
 * its host pairs' throughput at full load at least ECMP's (Section 7.1).
 */
bool micro_ok(const struct fexp *e)
{
	const struct micro *m = &e->m;
	const struct micro_run *f = &m->run[MP_FACA];
	struct micro_round rf, re;
	bool ok = true;
	int p;

	for (p = 0; p < N_MICRO; p++)
		if (m->run[p].ran)
			ok &= !m->run[p].failed && links_ok(m, p);
	if (!f->ran)
		return ok;
	ok &= f->from_agent == f->flows && !f->unknown_path;
	for (p = 0; p < MP_FACA; p++)
		if (m->run[p].ran)
			ok &= mean_congestion(m, MP_FACA) <
			      mean_congestion(m, p);
	if (m->run[MP_ECMP].ran) {
		round_mean(m, MP_FACA, m->rounds - 1, &rf);
		round_mean(m, MP_ECMP, m->rounds - 1, &re);
		ok &= rf.throughput >= re.throughput;
	}
	return ok;
}

/* ---- output ---- */

static double mbit(double bps)
{
	return bps / 1e6;
}

static double kbit(double bps)
{
	return bps / 1e3;
}

/* A goodput's share of its wire bytes: TCP's headers, Ethernet's. */
static double goodput(double wire)
{
	return wire * (MTU - SLUICE_HOST_TCP_OVERHEAD) / (MTU + 14);
}

static void print_setup(const struct micro *m)
{
	uint32_t b0, b1;

	window(m, 0, &b0, &b1);
	printf("micro (Section 7.3 on a fabric of namespaces): %u leaves, %u spines; leaf0 -> leaf2 and leaf1 -> leaf3, %u host pairs each, a long TCP flow a host pair (cubic over PFC on priority 3); links in Mbit/s: hosts %.3f, spine0-1's ports down %.3f, spine2-3's %.3f (%.2f of a fast one's), the leaves' uplinks %.3f (twice a fast port: the spines' ports are where paths queue)\n",
	       MICRO_LEAVES, MICRO_SPINES, m->hosts, mbit(m->rate),
	       mbit(m->fast_rate), mbit(m->slow_rate), m->slow,
	       mbit(m->uplink_rate));
	printf("  %u rounds of %.0f s, each adding %u flow%s a leaf pair %.1f s apart (load %.0f %% to %.0f %% of a pair's spines); each round measured from %.2f s to its end; each policy %u time%s (seed %llu on)\n",
	       m->rounds, m->duration, m->flows, m->flows == 1 ? "" : "s",
	       m->stagger, 100 * load(m, 0), 100 * load(m, m->rounds - 1),
	       b0 * m->interval, m->runs, m->runs == 1 ? "" : "s",
	       (unsigned long long)m->seed);
	printf("  congested: a spine port down to a receiving leaf holding more than %u bytes in its lossless class (under PFC an overloaded port holds xon %u to xoff %u and more; one at or under its rate a few frames), sampled every %.0f ms; pauses: PFC frames the spines sent\n",
	       m->threshold, XON, XOFF, m->interval * 1000);
}

static void print_expect(const struct micro *m)
{
	uint32_t k;
	int p;

	printf("  predicts (the placement alone, flow level, both leaf pairs alike; ECMP and WCMP the expectations over their random ports, FaCa the balanced placement its probes aim at):\n");
	printf("  %5s %5s %5s | %-28s | %-31s\n", "round", "flows", "load",
	       "congestion %: ECMP WCMP FaCa", "goodput Mbit/s: ECMP WCMP FaCa");
	for (k = 0; k < m->rounds; k++) {
		printf("  %5u %5u %4.0f%% |%14s", k + 1,
		       (k + 1) * m->flows * MICRO_PAIRS, 100 * load(m, k), "");
		for (p = 0; p < N_MICRO; p++)
			printf(" %4.0f", 100 * m->expect[p][k].congestion);
		printf(" |%15s", "");
		for (p = 0; p < N_MICRO; p++)
			printf(" %5.2f",
			       mbit(goodput(m->expect[p][k].throughput)) *
			       MICRO_PAIRS);
		printf("\n");
	}
}

static void print_spines(const struct micro_round *rd)
{
	uint32_t a, s;

	for (a = 0; a < MICRO_PAIRS; a++) {
		printf("%s", a ? " | " : " ");
		for (s = 0; s < MICRO_SPINES; s++)
			printf("%s%u", s ? "," : "", rd->on_spine[a][s]);
	}
}

static void print_measured(const struct micro *m)
{
	struct micro_round rd;
	uint32_t k, r;
	int p;

	printf("  measured, the mean of %u run%s (congestion: %% of spine-port samples; std: kbit/s, a leaf pair's, the mean of the two):\n",
	       m->runs, m->runs == 1 ? "" : "s");
	printf("  %-6s %5s %5s %10s %7s %8s %8s %9s %6s\n", "policy", "round",
	       "flows", "congestion", "pauses", "port sd", "pair sd",
	       "goodput", "ports");
	for (p = 0; p < N_MICRO; p++) {
		const struct micro_run *run = &m->run[p];

		if (!run->ran)
			continue;
		for (k = 0; k < m->rounds; k++) {
			round_mean(m, p, k, &rd);
			printf("  %-6s %5u %5u %9.1f%% %7.0f %8.1f %8.1f %9.3f ",
			       policy_titles[p], k + 1, rd.flows,
			       100 * rd.congestion, rd.pauses,
			       kbit(rd.port_sd), kbit(rd.pair_sd),
			       mbit(rd.throughput));
			if (rd.port_util < 0)
				printf("%6s\n", "-");
			else
				printf("%5.0f%%\n", 100 * rd.port_util);
		}
		printf("  %-6s flows on spine0..3 at full load, leaf pair 0 | 1, run by run:",
		       "");
		for (r = 0; r < run->ran; r++) {
			printf("%s", r ? ";" : "");
			print_spines(&run->round[r * m->rounds + m->rounds - 1]);
		}
		printf("\n  %-6s %u flows, %u failed, %u ports from the agents",
		       "", run->flows, run->failed, run->from_agent);
		if (p == MP_FACA)
			printf(" (each knowing %u to %u paths)", run->paths_min,
			       run->paths_max);
		printf(", %u paths unknown; %llu frames dropped, %llu pauses from the receiving leaves; %.0f %% of the VM's CPU busy; %.0f s\n",
		       run->unknown_path, (unsigned long long)run->drops,
		       (unsigned long long)run->leaf_pauses,
		       100 * run->cpu_busy / run->ran, run->seconds);
	}
	printf("  (ports: of the ports congested most of a window, the lowest median throughput over its rate, sample by sample: the links, not the CPU, are the bottleneck when it is near 100 %%)\n");
}

static double gain(double ours, double theirs)
{
	return theirs > 0 ? ours / theirs - 1 : 0;
}

static void print_paper(const struct micro *m)
{
	struct micro_round rf, re;
	double cf, ce, g;

	if (!m->run[MP_FACA].ran || !m->run[MP_ECMP].ran)
		return;
	cf = mean_congestion(m, MP_FACA);
	ce = mean_congestion(m, MP_ECMP);
	g = ce > 0 ? 1 - cf / ce : 0;
	round_mean(m, MP_FACA, m->rounds - 1, &rf);
	round_mean(m, MP_ECMP, m->rounds - 1, &re);
	printf("  beside the paper:\n");
	printf("    congestion rate over the rounds: FaCa %.1f %%, ECMP %.1f %% (%.0f %% %s; the paper: about %.0f %% lower)",
	       100 * cf, 100 * ce, 100 * fabs(g), g >= 0 ? "lower" : "higher",
	       100 * PAPER_CONG_GAIN);
	if (m->run[MP_WCMP].ran)
		printf(", WCMP %.1f %%", 100 * mean_congestion(m, MP_WCMP));
	printf("\n");
	printf("    per-port throughput std at full load: ECMP %.1f, FaCa %.1f kbit/s (%.1fx; the paper: %.2f against %.2f, %.0fx, on equal ports)\n",
	       kbit(re.port_sd), kbit(rf.port_sd),
	       rf.port_sd > 0 ? re.port_sd / rf.port_sd : 0, PAPER_SD_ECMP,
	       PAPER_SD_FACA, PAPER_SD_ECMP / PAPER_SD_FACA);
	g = gain(rf.throughput, re.throughput);
	printf("    host pairs' throughput at full load: FaCa's %.1f %% %s ECMP's (the paper: %.1f %% above); per-pair std ECMP %.1f, FaCa %.1f kbit/s\n",
	       100 * fabs(g), g >= 0 ? "above" : "below",
	       100 * PAPER_TPUT_GAIN, kbit(re.pair_sd), kbit(rf.pair_sd));
}

void micro_print(const struct fexp *e)
{
	const struct micro *m = &e->m;

	print_setup(m);
	print_expect(m);
	print_measured(m);
	print_paper(m);
	printf("  what emulation changes: %u host pairs a leaf pair stand for hundreds of RNICs, so one draw of ECMP's ports decides much (the prediction is its expectation, %u run%s its sample); TCP cubic over PFC stands for RDMA's DCQCN and never backs off, so a port offered more than its rate stays full and the congestion rate measures the placement, not the transport; at a few Mbit/s a probe every %.0f s sees a port's utilisation over tens of frames; ",
	       m->hosts, m->runs, m->runs == 1 ? "" : "s",
	       AGENT_INTERVAL_NS / 1e9);
	if (m->stagger > 0)
		printf("a leaf pair's new flows start %.1f s apart, as long-lived flows arriving over time, so that an agent's probes see the flows placed before (the paper's sources decide at once: --stagger 0s)\n",
		       m->stagger);
	else
		printf("a round's flows start at once, as the paper's sources decide, on the loads their agents saw before the round\n");
	printf("  %s\n", micro_ok(e) ? "as predicted" : "NOT as predicted");
}

static json_object *jd(double v)
{
	return json_object_new_double(v);
}

static json_object *expect_json(const struct sluice_faca_expect *x)
{
	json_object *o = json_object_new_object();

	if (o && jadd(o, "congestion", jd(x->congestion)) &&
	    jadd(o, "throughput_bps", jd(x->throughput)) &&
	    jadd(o, "port_sd_bps", jd(x->port_sd)) &&
	    jadd(o, "flow_sd_bps", jd(x->flow_sd)))
		return o;
	json_object_put(o);
	return NULL;
}

/* A round's numbers; @spines: where its flows went (one run's). */
static json_object *round_json(const struct micro_round *rd, bool spines)
{
	json_object *o = json_object_new_object(), *on, *row;
	uint32_t a, s;
	bool ok;

	ok = o && jadd(o, "flows", jnum(rd->flows)) &&
	     jadd(o, "congestion", jd(rd->congestion)) &&
	     jadd(o, "pauses", jd(rd->pauses)) &&
	     jadd(o, "port_sd_bps", jd(rd->port_sd)) &&
	     jadd(o, "pair_sd_bps", jd(rd->pair_sd)) &&
	     jadd(o, "goodput_bps", jd(rd->throughput)) &&
	     (rd->port_util < 0 || jadd(o, "congested_port_util",
					jd(rd->port_util))) &&
	     (!spines || jadd(o, "on_spine", on = json_object_new_array()));
	for (a = 0; ok && spines && a < MICRO_PAIRS; a++) {
		ok = !json_object_array_add(on, row = json_object_new_array());
		for (s = 0; ok && s < MICRO_SPINES; s++)
			ok = !json_object_array_add(row,
						    jnum(rd->on_spine[a][s]));
	}
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

static json_object *run_json(const struct micro *m, int p)
{
	const struct micro_run *run = &m->run[p];
	json_object *o = json_object_new_object(), *mean, *runs, *rounds;
	struct micro_round rd;
	uint32_t k, r;
	bool ok;

	ok = o && jadd(o, "multipath",
		       json_object_new_string(sluice_multipath_name(policy_mode[p]))) &&
	     jadd(o, "runs", jnum(run->ran)) &&
	     jadd(o, "flows", jnum(run->flows)) &&
	     jadd(o, "failed", jnum(run->failed)) &&
	     jadd(o, "from_agent", jnum(run->from_agent)) &&
	     /* why a flow got the kernel's port instead of the agent's */
	     (!run->agent_error ||
	      jadd(o, "agent_error",
		   json_object_new_string(strerror(run->agent_error)))) &&
	     (p != MP_FACA ||
	      (jadd(o, "agent_paths_min", jnum(run->paths_min)) &&
	       jadd(o, "agent_paths_max", jnum(run->paths_max)))) &&
	     jadd(o, "unknown_path", jnum(run->unknown_path)) &&
	     jadd(o, "drops", jnum(run->drops)) &&
	     jadd(o, "leaf_pauses", jnum(run->leaf_pauses)) &&
	     jadd(o, "cpu_busy", jd(run->cpu_busy / run->ran)) &&
	     jadd(o, "seconds", jd(run->seconds)) &&
	     jadd(o, "mean_congestion", jd(mean_congestion(m, p))) &&
	     jadd(o, "links_limit", json_object_new_boolean(links_ok(m, p))) &&
	     jadd(o, "mean", mean = json_object_new_array()) &&
	     jadd(o, "each", runs = json_object_new_array());
	for (k = 0; ok && k < m->rounds; k++) {
		round_mean(m, p, k, &rd);
		ok = !json_object_array_add(mean, round_json(&rd, false));
	}
	for (r = 0; ok && r < run->ran; r++) {
		ok = !json_object_array_add(runs,
					    rounds = json_object_new_array());
		for (k = 0; ok && k < m->rounds; k++)
			ok = !json_object_array_add(rounds,
				round_json(&run->round[r * m->rounds + k], true));
	}
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

static json_object *fabric_json(const struct micro *m)
{
	json_object *o = json_object_new_object();
	uint32_t b0, b1;

	window(m, 0, &b0, &b1);
	if (o && jadd(o, "leaves", jnum(MICRO_LEAVES)) &&
	    jadd(o, "spines", jnum(MICRO_SPINES)) &&
	    jadd(o, "hosts_per_leaf", jnum(m->hosts)) &&
	    jadd(o, "host_rate", jnum(m->rate)) &&
	    jadd(o, "fast_rate", jnum(m->fast_rate)) &&
	    jadd(o, "slow_rate", jnum(m->slow_rate)) &&
	    jadd(o, "uplink_rate", jnum(m->uplink_rate)) &&
	    jadd(o, "rounds", jnum(m->rounds)) &&
	    jadd(o, "flows_per_round", jnum(m->flows)) &&
	    jadd(o, "runs", jnum(m->runs)) &&
	    jadd(o, "seed", jnum(m->seed)) &&
	    jadd(o, "duration_s", jd(m->duration)) &&
	    jadd(o, "interval_s", jd(m->interval)) &&
	    jadd(o, "stagger_s", jd(m->stagger)) &&
	    jadd(o, "window_from_s", jd(b0 * m->interval)) &&
	    jadd(o, "threshold_bytes", jnum(m->threshold)) &&
	    jadd(o, "xoff", jnum(XOFF)) && jadd(o, "xon", jnum(XON)))
		return o;
	json_object_put(o);
	return NULL;
}

json_object *micro_json(const struct fexp *e)
{
	const struct micro *m = &e->m;
	json_object *o = json_object_new_object(), *ex, *row, *paper;
	uint32_t k;
	bool ok;
	int p;

	ok = o && jadd(o, "fabric", fabric_json(m)) &&
	     jadd(o, "expect", ex = json_object_new_array());
	for (k = 0; ok && k < m->rounds; k++) {
		ok = !json_object_array_add(ex, row = json_object_new_object()) &&
		     jadd(row, "flows", jnum((k + 1) * m->flows)) &&
		     jadd(row, "load", jd(load(m, k)));
		for (p = 0; ok && p < N_MICRO; p++)
			ok = jadd(row, micro_policy_names[p],
				  expect_json(&m->expect[p][k]));
	}
	for (p = 0; ok && p < N_MICRO; p++)
		if (m->run[p].ran)
			ok = jadd(o, micro_policy_names[p], run_json(m, p));
	ok = ok && jadd(o, "paper", paper = json_object_new_object()) &&
	     jadd(paper, "port_sd_ecmp", jd(PAPER_SD_ECMP)) &&
	     jadd(paper, "port_sd_faca", jd(PAPER_SD_FACA)) &&
	     jadd(paper, "congestion_below_ecmp", jd(PAPER_CONG_GAIN)) &&
	     jadd(paper, "flow_throughput_above_ecmp", jd(PAPER_TPUT_GAIN)) &&
	     jadd(o, "seconds", jd(m->seconds)) &&
	     jadd(o, "as_predicted", json_object_new_boolean(micro_ok(e)));
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

/* ---- plots ---- */

struct plot_arg {
	const struct micro	*m;
	bool			throughput;
};

static int micro_svg(const void *arg, FILE *f)
{
	const struct plot_arg *pa = arg;
	const struct micro *m = pa->m;
	struct sluice_svg_series ser[2 * N_MICRO];
	char names[2 * N_MICRO][48];
	double *y = calloc((size_t)2 * N_MICRO * m->rounds, sizeof(*y));
	struct sluice_svg_plot pl = {
		.title = pa->throughput ?
			 "FaCa's micro-benchmark on a fabric: goodput of all host pairs" :
			 "FaCa's micro-benchmark on a fabric: congestion rate",
		.x_label = "offered load, % of the spines' ports down",
		.y_label = pa->throughput ? "goodput, Mbit/s" :
			   "congestion rate, % of spine-port samples",
		.x_step = 100 * load(m, 0),
		.series = ser,
	};
	struct micro_round rd;
	uint32_t k, n = 0;
	int p, ret;

	if (!y)
		return -ENOMEM;
	for (p = 0; p < 2 * N_MICRO; p++) {
		int q = p % N_MICRO;
		bool measured = p < N_MICRO;
		double *v = &y[(size_t)n * m->rounds];

		if (measured && !m->run[q].ran)
			continue;
		for (k = 0; k < m->rounds; k++) {
			if (measured)
				round_mean(m, q, k, &rd);
			v[k] = measured ?
			       (pa->throughput ? mbit(rd.throughput) :
				100 * rd.congestion) :
			       (pa->throughput ?
				mbit(goodput(m->expect[q][k].throughput)) *
				MICRO_PAIRS :
				100 * m->expect[q][k].congestion);
		}
		snprintf(names[n], sizeof(names[n]), "%s%s", policy_titles[q],
			 measured ? "" : q == MP_FACA ? ", balanced" :
			 ", expected");
		ser[n].name = names[n];
		ser[n].y = v;
		ser[n].n = m->rounds;
		n++;
	}
	pl.n_series = n;
	ret = sluice_svg_write(&pl, f) ? -EIO : 0;
	free(y);
	return ret;
}

/* PREFIX-micro.svg (congestion rate), PREFIX-micro-goodput.svg. */
int micro_plot(const struct fexp *e)
{
	struct plot_arg pa = { .m = &e->m };
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s-micro.svg", e->svg);
	if (write_out(path, micro_svg, &pa))
		return EXIT_RUNTIME;
	pa.throughput = true;
	snprintf(path, sizeof(path), "%s-micro-goodput.svg", e->svg);
	return write_out(path, micro_svg, &pa) ? EXIT_RUNTIME : 0;
}

void micro_free(struct fexp *e)
{
	int p;

	for (p = 0; p < N_MICRO; p++) {
		free(e->m.expect[p]);
		free(e->m.run[p].round);
		e->m.expect[p] = NULL;
		e->m.run[p].round = NULL;
	}
}
