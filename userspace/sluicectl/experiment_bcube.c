// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl experiment bcube [OPTIONS]
 *
 * PortFC's case (Wang et al., ICS'25) on BCube(n,1) in software: servers
 * that are their own hosts and relay, every port a sluice qdisc, and the
 * fabric's flow control one of plain PFC, PFC* (Tagger's cut-over per hop),
 * PortFC, and lossy tail drop.  Each part runs once per mode on a fresh
 * fabric:
 *
 *   deadlock  Section 2.2.3, Fig. 5: flows of four hops (two switches, a
 *             relay server between them) around a ring of four servers and
 *             four switches, each link carrying two of them; pinned paths.
 *   holb      Section 2.2.2, Fig. 4: a congested flow X -> M -> P and a
 *             victim V -> M share the switch port into relay M; two more
 *             servers send to P directly, so that P's port is
 *             oversubscribed three times; the victim's throughput beside
 *             its max-min fair share (2/3 of a link).
 *   incast    Section 5.1: 8 servers to one, on BuildPathSet's routes of
 *             at most 4 hops (the multipath hash picks among a pair's
 *             paths; the detours are left out, see bcube_routes()); the
 *             queue length of the receiver's switch ports over time
 *             (Fig. 10), and lossless drops, which must be none.
 *   websearch, hadoop
 *             Section 5.2: flow completion times over TCP
 *             (experiment_fct.c).
 *
 * Everything is done in this process through libsluice, as "fabric up",
 * "route load" and "fabric deadlock" do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include <sluice/cbd.h>
#include <sluice/experiment.h>
#include <sluice/fabric.h>
#include <sluice/fabric_load.h>
#include <sluice/fabric_nl.h>
#include <sluice/portfc.h>
#include <sluice/rate.h>
#include <sluice/route.h>
#include <sluice/switch.h>
#include <sluice/tagger.h>
#include <sluice/topo.h>
#include "cmd_experiment.h"
#include "experiment_bcube.h"
#include "cmd_fabric.h"
#include "jout.h"
#include "args.h"
#include "qdisc_args.h"
#include "progress.h"
#include "sluicectl.h"

const char *const part_names[N_PARTS] = {
	"deadlock", "holb", "incast", "websearch", "hadoop",
};

const char *const part_titles[N_PARTS] = {
	"deadlock (Section 2.2.3, Fig. 5)",
	"head-of-line blocking (Section 2.2.2, Fig. 4)",
	"incast (Section 5.1, Fig. 10)",
	"flow completion, WebSearch and incast (Section 5.2, Figs. 9, 11, 12)",
	"flow completion, Hadoop and incast (Section 5.2, Figs. 9, 11, 12)",
};

const uint8_t modes_all[N_MODES] = {
	SLUICE_FABRIC_FC_PFC, SLUICE_FABRIC_FC_PFC_STAR,
	SLUICE_FABRIC_FC_PORTFC, SLUICE_FABRIC_FC_NONE,
};

static const char *const mode_names[N_MODES] = {
	"pfc", "pfc-star", "portfc", "lossy",
};

static const struct arg_opt opts[] = {
	[OPT_NAME]	= ARG_S("--name", 0, "NAME", "the fabric, default sluice"),
	[OPT_N]		= ARG_N("--n", 0, "N", 4, TC_SLUICE_PORTFC_MAX_N,
				"BCube(n,1)'s n, default 4"),
	[OPT_PARTS]	= ARG_S("--parts", 0, "PARTS",
				"deadlock, holb, incast, websearch, hadoop, comma-separated; default all"),
	[OPT_MODES]	= ARG_S("--modes", 0, "MODES",
				"pfc, pfc-star, portfc, lossy, comma-separated; default all"),
	[OPT_RATE]	= ARG_R("--rate", "RATE", 1, UINT64_MAX, "the links' rate, default 1mbit"),
	[OPT_DURATION]	= ARG_SEC("--duration", 2, 3600, "how long each run lasts, default 10s"),
	[OPT_INTERVAL]	= ARG_MS("--interval", 10, 60000, "between samples, default 500ms"),
	[OPT_FRAME]	= ARG_N("--frame", 0, "BYTES", SLUICE_UDPGEN_OVERHEAD + SLUICE_UDPGEN_HDR,
				SLUICE_FABRIC_HOST_MTU + 14, "the frames' size, default 1442"),
	[OPT_QUIET]	= ARG_MS("--quiet", 1, 3600000,
				 "nothing delivered this long is a deadlock, default 2s"),
	[OPT_LOAD]	= ARG_S("--load", 0, "FRACTION",
				"flow completion: a fraction of a link above 0, at most 1, default 0.5"),
	[OPT_FCT_DURATION] = ARG_SEC("--fct-duration", 1, 3600,
				     "flow completion: how long flows arrive, default 10s"),
	[OPT_SEED]	= ARG_N("--seed", 0, "S", 0, UINT64_MAX, "the workloads' seed, default 1"),
	[OPT_SVG]	= ARG_P("--svg", 0, "PREFIX", "draw each part and mode into PREFIX-PART-MODE.svg"),
	[OPT_KEEP]	= ARG_F("--keep", 0, "leave the last run's fabric up"),
	[OPT_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
	[OPT_VERBOSE]	= ARG_F("--verbose", 'v', "say what is being done, on stderr"),
};

static const struct args_spec spec = ARGS_SPEC(opts, 0, 0, NULL);

/* A lossless run dropped frames: not as predicted, and where. */
void drops_why(struct brun *run)
{
	run->as_predicted = false;
	snprintf(run->why, sizeof(run->why),
		 "%llu frames dropped (%llu at a class limit, %llu past the headroom; most at %s, %llu)",
		 (unsigned long long)run->drops,
		 (unsigned long long)run->limit_drops,
		 (unsigned long long)run->headroom_drops, run->drop_port,
		 (unsigned long long)run->drop_port_n);
}

void progress(const struct bexp *e, const char *fmt, ...)
{
	va_list ap;

	if (!e->verbose)
		return;
	fputs("experiment: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* "pfc", "pfc-star", "portfc" or "lossy". */
const char *mode_name(uint8_t fc)
{
	int m = mode_index(fc);

	return m < 0 ? "?" : mode_names[m];
}

int mode_index(uint8_t fc)
{
	int m;

	for (m = 0; m < N_MODES; m++)
		if (modes_all[m] == fc)
			return m;
	return -1;
}

/* A comma-separated list of names into @on; EXIT_USAGE if one is wrong. */
static int parse_list(const struct command *cmd, const char *opt,
		      const char *list, const char *const *names,
		      unsigned int n, bool *on)
{
	char buf[128], *tok, *save;
	unsigned int k;
	char all[128] = "";
	bool any = false;

	for (k = 0; k < n; k++)
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s",
			 k ? ", " : "", names[k]);
	if (strlen(list) >= sizeof(buf))
		return cmd_error(cmd, "%s: too long", opt);
	snprintf(buf, sizeof(buf), "%s", list);
	memset(on, 0, n * sizeof(*on));
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < n && strcmp(tok, names[k]); k++)
			;
		if (k == n)
			return cmd_error(cmd, "%s: \"%s\" is not one of %s",
					       opt, tok, all);
		on[k] = any = true;
	}
	if (!any)
		return cmd_error(cmd, "%s: none given", opt);
	return 0;
}

static int parse(const struct command *cmd, struct bexp *e, int argc,
		 char **argv)
{
	struct sluice_portfc_thresholds t;
	const char **val = e->val;
	const uint64_t *num = e->num;
	struct args a = { .val = e->val, .num = e->num };
	char msg[128];
	int n_files, ret;

	if (args_parse(cmd, &spec, argc, argv, &a))
		return a.exit ? a.exit : -1;
	e->name = val[OPT_NAME] ? val[OPT_NAME] : SLUICE_FABRIC_DEFAULT_NAME;
	if (sluice_fabric_name_check(e->name, msg, sizeof(msg)))
		return cmd_error(cmd, "--name: %s", msg);
	e->n = 4;
	e->duration_s = 10;
	e->interval_ms = 500;
	e->quiet_ms = 2000;
	e->frame = 1442;
	e->rate = 1000000;
	ret = parse_list(cmd, "--parts", val[OPT_PARTS] ? val[OPT_PARTS] :
			 "deadlock,holb,incast,websearch,hadoop", part_names,
			 N_PARTS, e->parts);
	if (!ret)
		ret = parse_list(cmd, "--modes", val[OPT_MODES] ?
				 val[OPT_MODES] : "pfc,pfc-star,portfc,lossy",
				 mode_names, N_MODES, e->modes);
	/* BCube(n,1): a ring and the HoLB case need n >= 4; PortFC n <= 16 */
	if (val[OPT_N])
		e->n = num[OPT_N];
	if (val[OPT_DURATION])
		e->duration_s = num[OPT_DURATION];
	if (val[OPT_INTERVAL])
		e->interval_ms = num[OPT_INTERVAL];
	if (val[OPT_QUIET])
		e->quiet_ms = num[OPT_QUIET];
	if (val[OPT_FRAME])
		e->frame = num[OPT_FRAME];
	e->load = 0.5;
	e->fct_duration = 10;
	e->seed = 1;
	if (!ret && val[OPT_LOAD] &&
	    (sscanf(val[OPT_LOAD], "%lf%n", &e->load, &n_files) != 1 ||
	     val[OPT_LOAD][n_files] || !(e->load > 0 && e->load <= 1)))
		return cmd_error(cmd, "--load: \"%s\" is not a fraction of a link above 0, at most 1 (0.5)",
				       val[OPT_LOAD]);
	if (val[OPT_FCT_DURATION])
		e->fct_duration = num[OPT_FCT_DURATION];
	if (val[OPT_SEED])
		e->seed = num[OPT_SEED];
	if (ret)
		return ret;
	if ((uint64_t)e->duration_s * 1000 / e->interval_ms > SAMPLES_MAX)
		return cmd_error(cmd, "--duration / --interval: more than %d samples",
				       SAMPLES_MAX);
	if (e->duration_s * 1000ull < 2ull * e->interval_ms)
		return cmd_error(cmd, "--interval: at least two samples in --duration");
	if (val[OPT_RATE])
		e->rate = num[OPT_RATE];
	/*
	 * The paper's thresholds (Section 5.1): PortFC's Xoff and Xon are 6
	 * and 4 BDPs, and "PFC/PFC* adopts the same X_OFF and X_ON values".
	 * The round trip is the one "fabric up --flow-control portfc"
	 * derives: two MTU frames at the rate.
	 */
	e->portfc_rtt_ns = (2ull * (SLUICE_FABRIC_HOST_MTU + 14) * 8 *
			    1000000000ull + e->rate - 1) / e->rate;
	if (sluice_portfc_thresholds(e->rate, e->portfc_rtt_ns, &t) ||
	    exp_derive_headroom(e->rate, &e->headroom))
		return cmd_error(cmd, "--rate: too fast for the thresholds the experiment derives");
	e->xoff = e->portfc_xoff = t.xoff;
	e->xon = e->portfc_xon = t.xon;
	/* lossy: tail drop past what PFC lets a lossless class hold */
	e->lossy_limit = e->xoff + e->headroom;
	/*
	 * Flow sizes scale by the ratio of the bandwidth-delay products: the
	 * paper's 100 Gbit/s links with 1 us each, 8 us round a 4-hop path,
	 * 100 KB; ours two MTU frames at any rate, 3028 bytes.
	 */
	e->scale = t.bdp / 100000.0;
	e->verbose = val[OPT_VERBOSE] || cli_progress_wanted();
	return 0;
}

/* BCube(n,1) addressing: server (d1, d0) is node d1 n + d0. */
static uint32_t srv(const struct bexp *e, uint32_t d1, uint32_t d0)
{
	return d1 * e->n + d0;
}

/* The level-@l link of server @s: l n^2 + s (sluice_topo_bcube()). */
static uint32_t up_link(const struct bexp *e, uint32_t l, uint32_t s)
{
	return l * e->n * e->n + s;
}

/*
 * A four-hop flow @a -> @m -> @b: up a's level-@la switch to relay @m, up
 * m's level-@lb switch to @b.
 */
static void four_hops(const struct bexp *e, struct bflow *f, uint32_t a,
		      uint32_t la, uint32_t m, uint32_t lb, uint32_t b,
		      const char *role)
{
	f->src = a;
	f->dst = b;
	f->links[0] = up_link(e, la, a);
	f->links[1] = up_link(e, la, m);
	f->links[2] = up_link(e, lb, m);
	f->links[3] = up_link(e, lb, b);
	f->n_links = 4;
	f->role = role;
}

static void two_hops(const struct bexp *e, struct bflow *f, uint32_t a,
		     uint32_t l, uint32_t b, const char *role)
{
	f->src = a;
	f->dst = b;
	f->links[0] = up_link(e, l, a);
	f->links[1] = up_link(e, l, b);
	f->n_links = 2;
	f->role = role;
}

/*
 * The pinned flows' route set: every pair of servers (a route set names
 * them all), a path only for the flows' pairs, their own.
 */
static int pinned_routes(const struct bexp *e, struct scenario *sc,
			 char *err, size_t errlen)
{
	struct sluice_routes *r = &sc->r;
	uint32_t servers = e->n * e->n, a, b, k, h, hops = 0;
	uint64_t pairs = (uint64_t)servers * (servers - 1), p = 0, q = 0;

	for (k = 0; k < sc->n_flows; k++)
		hops += sc->fl[k].n_links;
	memset(r, 0, sizeof(*r));
	snprintf(r->algo, sizeof(r->algo), "%s",
		 sluice_route_algo_name(SLUICE_ROUTE_BCUBE));
	r->opts.algo = SLUICE_ROUTE_BCUBE;
	r->n_nodes = e->g.n_nodes;
	r->n_links = e->g.n_links;
	r->topo_hash = sluice_graph_hash(&e->g);
	r->shard_count = 1;
	r->pair_src = calloc(pairs, sizeof(*r->pair_src));
	r->pair_dst = calloc(pairs, sizeof(*r->pair_dst));
	r->pair_path = calloc(pairs + 1, sizeof(*r->pair_path));
	r->path_hop = calloc(sc->n_flows + 1, sizeof(*r->path_hop));
	r->path_lane = calloc(sc->n_flows, sizeof(*r->path_lane));
	r->hops = calloc(hops, sizeof(*r->hops));
	if (!r->pair_src || !r->pair_dst || !r->pair_path || !r->path_hop ||
	    !r->path_lane || !r->hops) {
		sluice_routes_free(r);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	hops = 0;
	for (a = 0; a < servers; a++)
		for (b = 0; b < servers; b++) {
			if (a == b)
				continue;
			r->pair_src[p] = a;
			r->pair_dst[p] = b;
			r->pair_path[p++] = q;
			for (k = 0; k < sc->n_flows; k++) {
				if (sc->fl[k].src != a || sc->fl[k].dst != b)
					continue;
				r->path_hop[q++] = hops;
				for (h = 0; h < sc->fl[k].n_links; h++)
					r->hops[hops++] = sc->fl[k].links[h];
			}
		}
	r->pair_path[p] = q;
	r->path_hop[q] = hops;
	r->n_pairs = p;
	r->n_paths = q;
	r->n_hops = hops;
	return sluice_routes_validate(r, &e->g, err, errlen);
}

/*
 * BuildPathSet's routes of every pair (the incast's), its detours left
 * out: every path of at most 2 (k + 1) = 4 hops.  A detour (6 hops at
 * k = 1) crosses a relay whose RQ no PortFC signal pauses (type-A signals
 * pause a server's own queues, Algorithm 4), so the type-A queue of the
 * switch after the relay can grow to the qdisc's limit (docs/experiment-bcube.md,
 * "Experiment: PortFC on BCube").  Kept paths keep their order; every
 * pair keeps its shortest.
 */
static int bcube_routes(const struct bexp *e, struct scenario *sc,
			char *err, size_t errlen)
{
	struct sluice_route_opts o = { .algo = SLUICE_ROUTE_BCUBE };
	struct sluice_compute_opts c = { .threads = 1 };
	struct sluice_routes *r = &sc->r;
	uint64_t p, q, h, nq = 0, nh = 0, first;
	int ret;

	ret = sluice_routes_compute(&e->g, &o, &c, r, err, errlen);
	if (ret)
		return ret;
	/* in place: a kept path only moves down, to where nq and nh are */
	for (p = 0; p < r->n_pairs; p++) {
		first = nq;
		for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
			if (sluice_routes_path_len(r, q) > 4)
				continue;
			r->path_lane[nq] = r->path_lane[q];
			h = r->path_hop[q];
			r->path_hop[nq++] = nh;
			for (; h < r->path_hop[q + 1]; h++)
				r->hops[nh++] = r->hops[h];
		}
		r->pair_path[p] = first;
	}
	r->pair_path[p] = nq;
	r->path_hop[nq] = nh;
	r->n_paths = nq;
	r->n_hops = nh;
	return sluice_routes_validate(r, &e->g, err, errlen);
}

static void set_qport(const struct bexp *e, struct scenario *sc,
		      uint32_t level)
{
	const struct sluice_graph *g = &e->g;
	uint32_t link = up_link(e, level, sc->receiver), p = sc->n_qports++;

	sc->qnode[p] = g->links[link].b;	/* the switch end */
	snprintf(sc->qdev[p], sizeof(sc->qdev[p]), "l%u", link);
	snprintf(sc->qname[p], sizeof(sc->qname[p]), "%s/l%u",
		 g->nodes[sc->qnode[p]].name, link);
}

/*
 * The flows of each part, from the addressing alone (the top of the file
 * says what they are), their routes, and what the routes predict.
 */
static int build_scenarios(struct bexp *e)
{
	struct sluice_tagger_opts to = { .mode = SLUICE_TAGGER_DEPTH };
	struct sluice_routes own;
	struct sluice_tagging tg;
	char err[SLUICE_ERRLEN];
	struct scenario *sc;
	uint32_t A, B, C, D, X, M, P, V, k, s;
	int ret = 0, p;

	ret = sluice_topo_bcube(&e->g, e->n, 1, err, sizeof(err));
	for (p = 0; !ret && p < N_PARTS; p++) {
		sc = &e->sc[p];
		sc->part = p;
		if (!e->parts[p])
			continue;
		switch (p) {
		case PART_DEADLOCK:
			/* the ring A -L0- B -L1- C -L0- D -L1- A */
			A = srv(e, 0, 0);
			B = srv(e, 0, 1);
			C = srv(e, 1, 1);
			D = srv(e, 1, 0);
			four_hops(e, &sc->fl[0], A, 0, B, 1, C, "ring");
			four_hops(e, &sc->fl[1], B, 1, C, 0, D, "ring");
			four_hops(e, &sc->fl[2], C, 0, D, 1, A, "ring");
			four_hops(e, &sc->fl[3], D, 1, A, 0, B, "ring");
			sc->n_flows = 4;
			sc->pinned = true;
			break;
		case PART_HOLB:
			X = srv(e, 0, 0);
			M = srv(e, 0, 1);
			P = srv(e, 1, 1);
			V = srv(e, 0, 2);
			four_hops(e, &sc->fl[0], X, 0, M, 1, P, "congested");
			two_hops(e, &sc->fl[1], V, 0, M, "victim");
			two_hops(e, &sc->fl[2], srv(e, 2, 1), 1, P, "to P");
			two_hops(e, &sc->fl[3], srv(e, 3, 1), 1, P, "to P");
			sc->n_flows = 4;
			sc->pinned = true;
			sc->victim = 1;
			/*
			 * P's port takes three flows: the congested one gets
			 * 1/3 there, and the victim the 2/3 it leaves on the
			 * links the two share.
			 */
			sc->victim_fair = 2.0 / 3;
			break;
		case PART_INCAST:
			sc->receiver = srv(e, 0, 0);
			for (k = 0, s = 1; k < 8; k++, s++) {
				sc->fl[k].src = s;
				sc->fl[k].dst = sc->receiver;
				sc->fl[k].role = "incast";
			}
			sc->n_flows = 8;
			set_qport(e, sc, 0);
			set_qport(e, sc, 1);
			break;
		default:
			/* an FCT part: its flows are a plan, below */
			sc->dist = p == PART_WEBSEARCH ?
				   &sluice_tcpgen_websearch :
				   &sluice_tcpgen_hadoop;
			break;
		}
		ret = sc->pinned ? pinned_routes(e, sc, err, sizeof(err)) :
		      bcube_routes(e, sc, err, sizeof(err));
		if (!ret && part_is_fct(p))
			ret = fct_plan(e, sc, err, sizeof(err));
		if (ret)
			break;
		/* the flows' own paths: the whole route set when pinned */
		own = sc->r;
		ret = sluice_cbd_check(&e->g, &own, &sc->cbd, err, sizeof(err));
		if (!ret)
			ret = sluice_tagger_assign(&e->g, &sc->r, &to, &tg, err,
						   sizeof(err));
		if (!ret) {
			sc->star_prios = tg.priorities;
			sluice_tagging_free(&tg);
		}
	}
	if (ret)
		fprintf(stderr, "sluicectl: %s\n", err);
	return ret ? EXIT_RUNTIME : 0;
}

/*
 * @sc's routes loaded into every node of @fs, under PFC* with their
 * tables (Tagger's depth mode, tag source mpls-depth), all or nothing.
 */
static int load_routes(struct sluice_fabric_state *fs,
		       const struct scenario *sc, bool star)
{
	struct sluice_tagger_opts to = { .mode = SLUICE_TAGGER_DEPTH };
	struct sluice_fabric_load_opts o = { .state = fs, .routes = &sc->r };
	struct sluice_tagger_tables tab;
	struct sluice_tagging tg;
	char err[SLUICE_ERRLEN];
	int ret;

	if (!star)
		return exp_load(&o);
	if (sluice_tagger_compute(&fs->g, &sc->r, &to, &tg, &tab, err,
				  sizeof(err))) {
		fprintf(stderr, "sluicectl: PFC*'s tag tables: %s\n", err);
		sluice_tagging_free(&tg);
		sluice_tagger_tables_free(&tab);
		return EXIT_RUNTIME;
	}
	sluice_tagging_free(&tg);
	o.tags = &tab;
	o.tag_source = SLUICE_TAG_SOURCE_MPLS_DEPTH;
	ret = exp_load(&o);
	sluice_tagger_tables_free(&tab);
	return ret;
}

/* The qdisc options of mode @fc, as "fabric up --flow-control" takes them. */
static void mode_words(const struct bexp *e, uint8_t fc, char *buf,
		       size_t len)
{
	char r[SLUICE_RATE_STRLEN];

	sluice_format_rate(e->rate, r, sizeof(r));
	if (fc == SLUICE_FABRIC_FC_NONE)
		snprintf(buf, len, "rate %s limit %u", r, e->lossy_limit);
	else if (fc == SLUICE_FABRIC_FC_PORTFC)
		snprintf(buf, len, "rate %s portfc-xoff-a %u portfc-xon-a %u portfc-xoff-b %u portfc-xon-b %u",
			 r, e->portfc_xoff, e->portfc_xon, e->portfc_xoff,
			 e->portfc_xon);
	else
		snprintf(buf, len, "rate %s xoff %u xon %u headroom %u", r,
			 e->xoff, e->xon, e->headroom);
}

/* Per-port counters of every node: drops, signals; @q's ports' backlog. */
static int read_counters(const struct bexp *e, const struct sluice_fabric_state *fs,
			 struct brun *run)
{
	char err[SLUICE_ERRLEN], ns[SLUICE_NETNS_NAME_MAX];
	struct sluice_port_counters *p;
	struct sluice_port_info *pi;
	struct sluice_rtnl *rt;
	uint32_t u, n, k, c;
	int self, ret = 0;

	(void)e;
	self = sluice_netns_self(err, sizeof(err));
	if (self < 0) {
		fprintf(stderr, "sluicectl: %s\n", err);
		return EXIT_RUNTIME;
	}
	for (u = 0; !ret && u < fs->g.n_nodes; u++) {
		sluice_fabric_switch_ns(&fs->f, u, ns, sizeof(ns));
		p = NULL;
		ret = sluice_rtnl_open_in(ns, self, &rt, err, sizeof(err));
		if (!ret) {
			ret = sluice_port_counters_read(rt, &p, &n, err,
							sizeof(err));
			sluice_rtnl_close(rt);
		}
		if (ret)
			fprintf(stderr, "sluicectl: switch %s: %s\n",
				fs->g.nodes[u].name, err);
		for (k = 0; !ret && k < n; k++) {
			uint64_t port = 0;

			for (c = 0; c < p[k].classes; c++)
				port += p[k].cls_drops[c];
			run->drops += port;
			if (port > run->drop_port_n) {
				run->drop_port_n = port;
				snprintf(run->drop_port, sizeof(run->drop_port),
					 "%s/%s", fs->g.nodes[u].name,
					 p[k].dev);
			}
		}
		free(p);
		if (ret)
			break;
		/* the qdiscs' own counters: STATS_GET, as every experiment */
		ret = exp_switch_stats(fs, u, &pi, &n);
		for (k = 0; !ret && k < n; k++) {
			run->limit_drops += pi[k].port.limit_drops;
			run->headroom_drops += pi[k].port.headroom_drops;
			run->pfc_tx += pi[k].port.pfc_tx;
			run->portfc_rx += pi[k].port.portfc_rx;
		}
		free(pi);
	}
	close(self);
	return ret ? EXIT_RUNTIME : 0;
}

/* The backlog of the scenario's queue ports, all classes, into @out. */
static void read_queues(const struct scenario *sc, struct sluice_rtnl **rt,
			uint64_t *out)
{
	char err[SLUICE_ERRLEN];
	struct sluice_port_counters *p = NULL;
	uint32_t i, n, k, c;

	for (i = 0; i < sc->n_qports; i++) {
		out[i] = 0;
		if (!rt[i] || sluice_port_counters_read(rt[i], &p, &n, err,
							sizeof(err)))
			continue;
		for (k = 0; k < n; k++)
			if (!strcmp(p[k].dev, sc->qdev[i]))
				for (c = 0; c < p[k].classes; c++)
					out[i] += p[k].cls_backlog[c];
		free(p);
		p = NULL;
	}
}

static double mbps(const struct bexp *e, uint64_t bytes)
{
	return bytes * 8e-3 / e->interval_ms;
}

/* What a part's samples go to (sluice_udpgen_sample()'s @arg). */
struct bsample {
	const struct bexp	*e;
	const struct scenario	*sc;
	struct brun		*run;
	const uint32_t		*src, *dst;	/* the flows' hosts */
	uint64_t		prev[FLOWS_MAX];	/* bytes at the last */
	struct sluice_rtnl	**qrt;
};

/* Sample @i: each flow's bytes, the sampled queues, a progress line. */
static void bcube_sample(void *arg, uint32_t i, const struct sluice_udpgen *t)
{
	struct bsample *bs = arg;
	const struct scenario *sc = bs->sc;
	struct brun *run = bs->run;
	uint64_t *q = &run->q[(size_t)i * QPORTS_MAX], all = 0;
	uint32_t k, f;

	/* t's flows are in (source, destination) order, as ours */
	for (k = 0; k < t->n_flows; k++) {
		for (f = 0; f < sc->n_flows; f++)
			if (bs->src[f] == t->fl[k].src &&
			    bs->dst[f] == t->fl[k].dst)
				break;
		run->rx[(size_t)i * sc->n_flows + f] =
			t->fl[k].rx_bytes - bs->prev[k];
		bs->prev[k] = t->fl[k].rx_bytes;
	}
	read_queues(sc, bs->qrt, q);
	for (k = 0; k < sc->n_qports; k++)
		if (q[k] > run->q_peak[k])
			run->q_peak[k] = q[k];
	if (!bs->e->verbose)
		return;
	for (f = 0; f < sc->n_flows; f++)
		all += run->rx[(size_t)i * sc->n_flows + f];
	progress(bs->e, "%s, %s: %5.1f s %7.3f Mbit/s delivered",
		 part_names[sc->part], mode_name(run->fc),
		 (i + 1) * bs->e->interval_ms / 1000.0, mbps(bs->e, all));
}

/* One part under one mode: a fresh fabric, its routes, the traffic. */
static int run_one(struct bexp *e, struct scenario *sc, struct brun *run,
		   bool keep)
{
	struct sluice_udpgen_opts uo = {
		.frame = e->frame, .rate = e->rate, .tos = DSCP << 2,
		.port = UDP_PORT, .sndbuf = 4096,
		/* lossy: a lost frame would count as in flight for ever */
		.window = run->fc == SLUICE_FABRIC_FC_NONE ? 0 : WINDOW,
	};
	uint32_t src[FLOWS_MAX], dst[FLOWS_MAX], i, k, f;
	struct sluice_rtnl *qrt[QPORTS_MAX] = { NULL };
	struct bsample bs = {
		.e = e, .sc = sc, .run = run, .src = src, .dst = dst,
		.qrt = qrt,
	};
	struct sluice_udpgen_sample_opts so = {
		.interval_ms = e->interval_ms, .tick = TICK,
		.stop = &exp_interrupted, .sample = bcube_sample,
	};
	int64_t unres0 = sluice_arp_discards(), unres1;
	struct sluice_fabric_qdisc q = { 0 };
	struct sluice_udpgen t = { 0 };
	char err[SLUICE_ERRLEN], ns[SLUICE_NETNS_NAME_MAX];
	struct sluice_fabric_state fs;
	int self = -1, ret;

	memset(&fs, 0, sizeof(fs));
	snprintf(fs.name, sizeof(fs.name), "%s", e->name);
	snprintf(fs.topo_path, sizeof(fs.topo_path), "BCube(%u,1)", e->n);
	fs.hash = sluice_graph_hash(&e->g);
	fs.hosts_per_switch = SLUICE_FABRIC_HOSTS_DEFAULT;
	fs.qdisc = true;
	fs.fc = run->fc;
	mode_words(e, run->fc, fs.qdisc_args, sizeof(fs.qdisc_args));
	ret = qdisc_args_parse(fs.qdisc_args, &q);
	if (ret)
		return EXIT_RUNTIME;
	q.fc = run->fc;
	if (sluice_topo_bcube(&fs.g, e->n, 1, err, sizeof(err)) ||
	    sluice_fabric_plan(&fs.f, &fs.g, fs.name,
			       SLUICE_FABRIC_HOSTS_DEFAULT, err, sizeof(err)) ||
	    sluice_fabric_fc_apply(&fs.f, &q, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		sluice_fabric_state_free(&fs);
		return EXIT_RUNTIME;
	}
	progress(e, "%s, %s: fabric %s up (%s)", part_names[sc->part],
		 mode_name(run->fc), fs.name, fs.qdisc_args);
	ret = exp_fabric_up(&fs, &q);
	if (ret)
		return ret;
	ret = load_routes(&fs, sc, run->fc == SLUICE_FABRIC_FC_PFC_STAR);
	if (!ret && part_is_fct(sc->part)) {
		ret = fct_run(e, sc, &fs, run);
		if (!ret)
			goto measured;
		goto out;
	}
	for (f = 0; f < sc->n_flows; f++) {
		/* a server's only host is global host index = its node */
		src[f] = fs.f.host_first[sc->fl[f].src];
		dst[f] = fs.f.host_first[sc->fl[f].dst];
	}
	if (!ret && (sluice_udpgen_init_flows(&t, &fs.f, &uo, src, dst,
					      sc->n_flows, err, sizeof(err)) ||
		     sluice_udpgen_open(&t, err, sizeof(err)))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		ret = EXIT_RUNTIME;
	}
	if (!ret && sc->n_qports) {
		self = sluice_netns_self(err, sizeof(err));
		for (i = 0; i < sc->n_qports; i++) {
			sluice_fabric_switch_ns(&fs.f, sc->qnode[i], ns,
						sizeof(ns));
			if (self < 0 || sluice_rtnl_open_in(ns, self, &qrt[i],
							    err, sizeof(err))) {
				qrt[i] = NULL;
				fprintf(stderr, "sluicectl: warning: queue %s is not sampled: %s\n",
					sc->qname[i], err);
			}
		}
	}
	if (ret)
		goto out;
	sluice_udpgen_warmup(&t, 1.0);
	run->n = e->duration_s * 1000 / e->interval_ms;
	run->rx = calloc((size_t)run->n * sc->n_flows, sizeof(*run->rx));
	run->q = calloc((size_t)run->n * QPORTS_MAX, sizeof(*run->q));
	if (!run->rx || !run->q) {
		fputs("sluicectl: out of memory\n", stderr);
		ret = EXIT_RUNTIME;
		goto out;
	}
	so.n = run->n;
	so.arg = &bs;
	if (sluice_udpgen_sample(&t, &so, &run->cpu_busy)) {
		fputs("sluicectl: interrupted: taking the fabric down\n", stderr);
		ret = EXIT_RUNTIME;
		goto out;
	}
	for (k = 0; k < t.n_hosts; k++) {
		run->eagain += t.h[k].eagain;
		run->held += t.h[k].held;
	}
measured:
	unres1 = sluice_arp_discards();
	run->neigh_discards = unres0 >= 0 && unres1 >= unres0 ?
			      unres1 - unres0 : -1;
	run->cycle = sluice_deadlock_summary(&fs.f, run->cycle_text,
					     sizeof(run->cycle_text));
	ret = read_counters(e, &fs, run);
	run->ran = !ret;
out:
	for (i = 0; i < QPORTS_MAX; i++)
		sluice_rtnl_close(qrt[i]);
	if (self >= 0)
		close(self);
	sluice_udpgen_free(&t);
	if (!keep || ret)
		exp_fabric_down(&fs);
	sluice_fabric_state_free(&fs);
	return ret;
}

/* Means per flow, the total's verdict, and whether the mode did as said. */
static void judge(const struct bexp *e, const struct scenario *sc,
		  struct brun *run)
{
	uint64_t *tot = calloc(run->n ? run->n : 1, sizeof(*tot));
	struct sluice_verdict_in in = {
		.n = run->n, .interval_ms = e->interval_ms,
		.quiet_ms = e->quiet_ms, .cycle = run->cycle,
	};
	uint32_t i, f, half = run->n / 2;
	double link = e->rate / 1e6, v, pfc_victim = -1;
	const struct brun *pfc;

	if (part_is_fct(sc->part)) {
		free(tot);
		fct_judge(e, sc, run);
		return;
	}
	if (!tot) {
		snprintf(run->why, sizeof(run->why), "out of memory");
		return;
	}
	for (i = 0; i < run->n; i++)
		for (f = 0; f < sc->n_flows; f++) {
			uint64_t b = run->rx[(size_t)i * sc->n_flows + f];

			tot[i] += b;
			run->mean[f] += mbps(e, b) / run->n;
			if (i >= half)
				run->tail[f] += mbps(e, b) / (run->n - half);
		}
	for (i = 0; i < run->n; i++) {
		run->total_mean += mbps(e, tot[i]) / run->n;
		if (i >= half)
			run->total_final += mbps(e, tot[i]) / (run->n - half);
	}
	in.rx = tot;
	sluice_verdict(&in, &run->v);
	free(tot);
	run->as_predicted = true;
	if (run->fc == SLUICE_FABRIC_FC_NONE) {
		/* lossy: it drops; it must not stop */
		run->as_predicted = run->v.verdict == SLUICE_VERDICT_FLOWING;
		if (!run->as_predicted)
			snprintf(run->why, sizeof(run->why),
				 "delivery stopped without flow control (%s)",
				 sluice_verdict_name(run->v.verdict));
		return;
	}
	if (run->drops) {
		drops_why(run);
		return;
	}
	switch (sc->part) {
	case PART_DEADLOCK:
		if (run->fc == SLUICE_FABRIC_FC_PFC) {
			run->as_predicted = run->v.verdict ==
					    SLUICE_VERDICT_DEADLOCK;
			if (!run->as_predicted)
				snprintf(run->why, sizeof(run->why),
					 "no deadlock formed in this run (%s); the ring's CBD makes one possible, not certain",
					 sluice_verdict_name(run->v.verdict));
			return;
		}
		/* PFC* and PortFC: every flow keeps delivering */
		for (f = 0; f < sc->n_flows; f++)
			if (run->tail[f] <= 0)
				run->as_predicted = false;
		if (run->v.verdict != SLUICE_VERDICT_FLOWING)
			run->as_predicted = false;
		if (!run->as_predicted)
			snprintf(run->why, sizeof(run->why),
				 "a flow stopped (%s)",
				 sluice_verdict_name(run->v.verdict));
		return;
	case PART_HOLB:
		v = run->tail[sc->victim];
		pfc = &e->runs[PART_HOLB][mode_index(SLUICE_FABRIC_FC_PFC)];
		if (pfc->ran && run->fc != SLUICE_FABRIC_FC_PFC)
			pfc_victim = pfc->tail[sc->victim];
		if (run->fc == SLUICE_FABRIC_FC_PFC) {
			/* blocked: near the congested flow's 1/3 of a link */
			run->as_predicted = v < 0.6 * sc->victim_fair * link;
			if (!run->as_predicted)
				snprintf(run->why, sizeof(run->why),
					 "the victim got %.3f Mbit/s, 60%% of its fair share %.3f or more: not blocked",
					 v, sc->victim_fair * link);
			return;
		}
		/* PFC* here: different depths, different priorities */
		if (run->fc == SLUICE_FABRIC_FC_PFC_STAR) {
			run->as_predicted = v >= 0.75 * sc->victim_fair * link;
			if (!run->as_predicted)
				snprintf(run->why, sizeof(run->why),
					 "the victim got %.3f Mbit/s, below 3/4 of its fair share %.3f",
					 v, sc->victim_fair * link);
			return;
		}
		/*
		 * PortFC: the victim gets most of its fair share; where PFC
		 * ran beside it, more than under PFC.
		 */
		run->as_predicted = v >= 0.75 * sc->victim_fair * link &&
				    (pfc_victim < 0 || v > pfc_victim);
		if (!run->as_predicted)
			snprintf(run->why, sizeof(run->why),
				 "the victim got %.3f Mbit/s, below 3/4 of its fair share %.3f%s",
				 v, sc->victim_fair * link,
				 pfc_victim >= 0 && v <= pfc_victim ?
				 " or no more than under PFC" : "");
		return;
	case PART_INCAST:
		/*
		 * Lossless (checked above), delivering throughout, near the
		 * receiver's two links.  The queues are shown, not judged: a
		 * PFC port's egress queue is bounded only per ingress account.
		 */
		run->as_predicted = run->v.verdict == SLUICE_VERDICT_FLOWING &&
				    run->total_final >= 0.9 * 2 * link;
		if (!run->as_predicted)
			snprintf(run->why, sizeof(run->why),
				 "%s, %.3f Mbit/s delivered in the last half, below 90%% of two links",
				 sluice_verdict_name(run->v.verdict),
				 run->total_final);
		return;
	default:
		return;
	}
}

static void cbd_text(const struct bexp *e, const struct scenario *sc,
		     char *buf, size_t len)
{
	size_t at;
	uint32_t k;

	if (sc->cbd.cbd_free) {
		snprintf(buf, len, "CBD-free");
		return;
	}
	at = snprintf(buf, len, "a CBD:");
	for (k = 0; k < sc->cbd.n_cycle && at < len; k++)
		at += snprintf(buf + at, len - at, " %s ->",
			       e->g.nodes[sc->cbd.cycle[k].from].name);
	if (sc->cbd.n_cycle && at < len)
		snprintf(buf + at, len - at, " %s",
			 e->g.nodes[sc->cbd.cycle[0].from].name);
}

/* "srv00->srv11"; @buf holds two node names and the arrow. */
static void flow_name(const struct bexp *e, const struct bflow *f,
		      char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s->%s", e->g.nodes[f->src].name,
			 e->g.nodes[f->dst].name);

	if (n < 0 || (size_t)n >= len)
		snprintf(buf, len, "%u->%u", f->src, f->dst);
}

static void print_prediction(const struct bexp *e, const struct scenario *sc)
{
	char cbd[512];

	cbd_text(e, sc, cbd, sizeof(cbd));
	switch (sc->part) {
	case PART_DEADLOCK:
		printf("predict: the four flows' paths have %s.\n"
		       "  pfc: a deadlock (paused queues wait on each other round the ring; delivery falls to 0).\n"
		       "  pfc-star: Tagger's depth priorities need %u lossless priorities here; no deadlock.\n"
		       "  portfc: no deadlock (a type-B queue drains into its destination, type-A waits on B only).\n"
		       "  lossy: no pauses, so no deadlock; frames dropped where queues overflow.\n"
		       "  paper: PFC deadlocks (Fig. 5: two flows; with ingress accounting at servers, as here, a\n"
		       "  flow that ends at a server does not hold its buffers, so the smallest loop takes four)\n",
		       cbd, sc->star_prios);
		break;
	case PART_HOLB:
		printf("predict: the victim's fair share is %.3f Mbit/s (2/3 of a link).\n"
		       "  pfc: M pauses the switch port into it as a whole, and the victim waits behind the\n"
		       "  congested flow: near the congested flow's 1/3.\n"
		       "  pfc-star: here the victim (2 hops) and the congested flow (4) leave that port at different\n"
		       "  depths, so Tagger gives them different priorities and no HoLB (it would for equal depths).\n"
		       "  portfc: the switch pauses only the type-A queue for P's port; the victim keeps at least\n"
		       "  3/4 of its fair share.  lossy: no pauses; the congested flow's frames are dropped.\n"
		       "  paper: PFC pauses the victim (Fig. 4), PortFC does not.\n",
		       sc->victim_fair * e->rate / 1e6);
		break;
	case PART_INCAST:
		printf("predict: 8 servers to %s at the link rate each, 4x what its two links take, on\n"
		       "  BuildPathSet's paths of at most 4 hops.\n"
		       "  every lossless mode: no drop, 90%% of 2 links delivered or more; the queues at %s and %s\n"
		       "  follow the thresholds (PFC xoff %u bytes per ingress account; PortFC xoff %u a queue type).\n"
		       "  lossy: tail drop at %u bytes a class.  paper: PortFC keeps the shortest switch queues (Fig. 10).\n",
		       e->g.nodes[sc->receiver].name, sc->qname[0],
		       sc->qname[1], e->xoff, e->portfc_xoff, e->lossy_limit);
		break;
	default:
		break;
	}
}

static void print_text(const struct bexp *e)
{
	char r[SLUICE_RATE_STRLEN], name[2 * SLUICE_NAME_MAX + 3];
	const struct scenario *sc;
	const struct brun *run;
	uint32_t f, k;
	int p, m;

	printf("BCube(%u,1): %u servers, %u switches, links %s; PortFC xoff %u xon %u (6 and 4 BDPs of a %.3f ms round trip); PFC and PFC* the same, headroom %u\n",
	       e->n, e->n * e->n, 2 * e->n,
	       sluice_format_rate(e->rate, r, sizeof(r)), e->portfc_xoff,
	       e->portfc_xon, e->portfc_rtt_ns / 1e6, e->headroom);
	for (p = 0; p < N_PARTS; p++) {
		if (!e->parts[p])
			continue;
		sc = &e->sc[p];
		printf("\n== %s\n", part_titles[p]);
		if (part_is_fct(p)) {
			fct_print_prediction(e, sc);
			for (m = 0; m < N_MODES; m++)
				if (e->runs[p][m].ran)
					fct_print_run(e, &e->runs[p][m]);
			fct_print_compare(e, p);
			continue;
		}
		printf("flows:");
		for (f = 0; f < sc->n_flows; f++) {
			flow_name(e, &sc->fl[f], name, sizeof(name));
			printf(" %s (%s)", name, sc->fl[f].role);
		}
		putchar('\n');
		print_prediction(e, sc);
		for (m = 0; m < N_MODES; m++) {
			run = &e->runs[p][m];
			if (!run->ran)
				continue;
			printf("%-8s %s: delivered %.3f Mbit/s, last half %.3f; drops %llu; pause frames sent %llu, PortFC signals received %llu\n",
			       mode_name(run->fc),
			       run->as_predicted ? "as predicted" :
			       "NOT as predicted",
			       run->total_mean, run->total_final,
			       (unsigned long long)run->drops,
			       (unsigned long long)run->pfc_tx,
			       (unsigned long long)run->portfc_rx);
			printf("         verdict %s", sluice_verdict_name(run->v.verdict));
			if (run->v.stopped_at >= 0)
				printf(" (stopped at %.1f s)", run->v.stopped_at);
			printf("; detector: %s\n", run->cycle_text);
			printf("         per flow, last half (Mbit/s):");
			for (f = 0; f < sc->n_flows; f++)
				printf(" %s %.3f", sc->fl[f].role, run->tail[f]);
			putchar('\n');
			if (sc->part == PART_HOLB)
				printf("         victim %.3f Mbit/s = %.0f%% of its fair share\n",
				       run->tail[sc->victim],
				       100 * run->tail[sc->victim] /
				       (sc->victim_fair * e->rate / 1e6));
			for (k = 0; k < sc->n_qports; k++)
				printf("         queue %s: peak %llu bytes\n",
				       sc->qname[k],
				       (unsigned long long)run->q_peak[k]);
			if (run->cpu_busy > 0.9)
				printf("         warning: the machine's CPUs were %.0f%% busy: the emulation may be the bottleneck\n",
				       100 * run->cpu_busy);
			if (!run->as_predicted)
				printf("         why: %s\n", run->why);
		}
	}
	printf("\nnot reproduced here: the paper's lossy RDMA baselines (IRN, Go-Back-N): NIC transports sluice cannot emulate; \"lossy\" is tail drop with TCP's own recovery.\n");
}

static json_object *run_json(const struct bexp *e, const struct scenario *sc,
			     const struct brun *run)
{
	json_object *o = json_object_new_object(), *fl, *x, *s, *q;
	char name[2 * SLUICE_NAME_MAX + 3];
	uint32_t f, i, k;
	bool ok;

	ok = o && jadd(o, "mode", json_object_new_string(mode_name(run->fc))) &&
	     jadd(o, "as_predicted", json_object_new_boolean(run->as_predicted)) &&
	     jadd(o, "why", json_object_new_string(run->why)) &&
	     jadd(o, "verdict", json_object_new_string(sluice_verdict_name(run->v.verdict))) &&
	     jadd(o, "stopped_at", json_object_new_double(run->v.stopped_at)) &&
	     jadd(o, "detector_cycle", json_object_new_int(run->cycle)) &&
	     jadd(o, "detector", json_object_new_string(run->cycle_text)) &&
	     jadd(o, "delivered_mbps", json_object_new_double(run->total_mean)) &&
	     jadd(o, "delivered_last_half_mbps", json_object_new_double(run->total_final)) &&
	     jadd(o, "drops", jnum(run->drops)) &&
	     jadd(o, "limit_drops", jnum(run->limit_drops)) &&
	     jadd(o, "headroom_drops", jnum(run->headroom_drops)) &&
	     jadd(o, "drops_most_at", json_object_new_string(run->drop_port)) &&
	     jadd(o, "pfc_tx", jnum(run->pfc_tx)) &&
	     jadd(o, "portfc_rx", jnum(run->portfc_rx)) &&
	     jadd(o, "eagain", jnum(run->eagain)) &&
	     jadd(o, "window_held", jnum(run->held)) &&
	     jadd(o, "neigh_discards", json_object_new_int64(run->neigh_discards)) &&
	     jadd(o, "cpu_busy", json_object_new_double(run->cpu_busy)) &&
	     (!part_is_fct(sc->part) || fct_json(o, run)) &&
	     jadd(o, "flows", fl = json_object_new_array());
	for (f = 0; ok && f < sc->n_flows; f++) {
		flow_name(e, &sc->fl[f], name, sizeof(name));
		x = json_object_new_object();
		ok = x && !json_object_array_add(fl, x) &&
		     jadd(x, "flow", json_object_new_string(name)) &&
		     jadd(x, "role", json_object_new_string(sc->fl[f].role)) &&
		     jadd(x, "mean_mbps", json_object_new_double(run->mean[f])) &&
		     jadd(x, "last_half_mbps", json_object_new_double(run->tail[f])) &&
		     jadd(x, "samples_mbps", s = json_object_new_array());
		for (i = 0; ok && i < run->n; i++)
			ok = !json_object_array_add(s, json_object_new_double(
				mbps(e, run->rx[(size_t)i * sc->n_flows + f])));
	}
	for (k = 0; ok && k < sc->n_qports; k++) {
		x = json_object_new_object();
		ok = x && jadd(o, k ? "queue_b" : "queue_a", x) &&
		     jadd(x, "port", json_object_new_string(sc->qname[k])) &&
		     jadd(x, "peak_bytes", jnum(run->q_peak[k])) &&
		     jadd(x, "samples_bytes", q = json_object_new_array());
		for (i = 0; ok && i < run->n; i++)
			ok = !json_object_array_add(q, jnum(run->q[(size_t)i * QPORTS_MAX + k]));
	}
	if (ok)
		return o;
	json_object_put(o);
	return NULL;
}

static int print_json(const struct bexp *e, bool all_ok)
{
	json_object *o = json_object_new_object(), *parts, *po, *runs, *r;
	char cbd[512];
	bool ok;
	int p, m;

	ok = o && jadd(o, "experiment", json_object_new_string("bcube")) &&
	     jadd(o, "n", jnum(e->n)) && jadd(o, "k", jnum(1)) &&
	     jadd(o, "rate_bps", jnum(e->rate)) &&
	     jadd(o, "interval_ms", jnum(e->interval_ms)) &&
	     jadd(o, "portfc_rtt_ns", jnum(e->portfc_rtt_ns)) &&
	     jadd(o, "xoff", jnum(e->xoff)) && jadd(o, "xon", jnum(e->xon)) &&
	     jadd(o, "headroom", jnum(e->headroom)) &&
	     jadd(o, "all_as_predicted", json_object_new_boolean(all_ok)) &&
	     jadd(o, "parts", parts = json_object_new_array());
	for (p = 0; ok && p < N_PARTS; p++) {
		if (!e->parts[p])
			continue;
		cbd_text(e, &e->sc[p], cbd, sizeof(cbd));
		po = json_object_new_object();
		ok = po && !json_object_array_add(parts, po) &&
		     jadd(po, "part", json_object_new_string(part_names[p])) &&
		     jadd(po, "cbd", json_object_new_string(cbd)) &&
		     jadd(po, "pfc_star_priorities", jnum(e->sc[p].star_prios)) &&
		     (p != PART_HOLB ||
		      jadd(po, "victim_fair_mbps",
			   json_object_new_double(e->sc[p].victim_fair * e->rate / 1e6))) &&
		     jadd(po, "runs", runs = json_object_new_array());
		for (m = 0; ok && m < N_MODES; m++) {
			if (!e->runs[p][m].ran)
				continue;
			r = run_json(e, &e->sc[p], &e->runs[p][m]);
			ok = r && !json_object_array_add(runs, r);
		}
	}
	return jprint(o, ok);
}

struct svg_arg {
	const struct bexp	*e;
	int			part;
	int			mode;	/* per-flow plot of this mode's run */
};

/* One run's flows over time, each its own series (deadlock and holb). */
static int write_flows_svg(const void *arg, FILE *f)
{
	const struct svg_arg *a = arg;
	const struct bexp *e = a->e;
	const struct scenario *sc = &e->sc[a->part];
	const struct brun *run = &e->runs[a->part][a->mode];
	struct sluice_svg_series ser[FLOWS_MAX];
	char names[FLOWS_MAX][2 * SLUICE_NAME_MAX + 24], title[192];
	char r[SLUICE_RATE_STRLEN], flow[2 * SLUICE_NAME_MAX + 3];
	double *y = calloc((size_t)sc->n_flows * (run->n ? run->n : 1),
			   sizeof(*y));
	struct sluice_svg_plot p = {
		.title = title,
		.x_label = "time (s)",
		.y_label = "delivered (Mbit/s)",
		.x_step = e->interval_ms / 1000.0,
		.series = ser,
		.n_series = sc->n_flows,
	};
	uint32_t fl, i;
	int ret = 0;

	if (!y)
		return -ENOMEM;
	snprintf(title, sizeof(title), "BCube(%u,1) %s under %s, %s links, per flow",
		 e->n, part_titles[a->part], mode_name(run->fc),
		 sluice_format_rate(e->rate, r, sizeof(r)));
	for (fl = 0; fl < sc->n_flows; fl++) {
		for (i = 0; i < run->n; i++)
			y[(size_t)fl * run->n + i] =
				mbps(e, run->rx[(size_t)i * sc->n_flows + fl]);
		flow_name(e, &sc->fl[fl], flow, sizeof(flow));
		snprintf(names[fl], sizeof(names[fl]), "%s (%s)", flow,
			 sc->fl[fl].role);
		ser[fl].name = names[fl];
		ser[fl].y = &y[(size_t)fl * run->n];
		ser[fl].n = run->n;
	}
	if (sluice_svg_write(&p, f))
		ret = -EIO;
	free(y);
	return ret;
}

/*
 * Deadlock: total delivered per mode; HoLB: the victim per mode; incast:
 * the receiver's first switch port's queue per mode (KB).
 */
static int write_svg(const void *arg, FILE *f)
{
	const struct svg_arg *a = arg;
	const struct bexp *e = a->e;
	const struct scenario *sc = &e->sc[a->part];
	struct sluice_svg_series ser[N_MODES * QPORTS_MAX];
	double *y[N_MODES * QPORTS_MAX] = { NULL };
	char names[N_MODES * QPORTS_MAX][64], title[160], r[SLUICE_RATE_STRLEN];
	struct sluice_svg_plot p = {
		.title = title,
		.x_label = part_is_fct(a->part) ? "percentile of finished flows" :
			   "time (s)",
		.y_label = a->part == PART_INCAST ? "queued (KB)" :
			   a->part == PART_HOLB ? "victim delivered (Mbit/s)" :
			   part_is_fct(a->part) ? "flow completion time (ms)" :
			   "delivered (Mbit/s)",
		.x_step = part_is_fct(a->part) ? 100.0 / FCT_POINTS :
			  e->interval_ms / 1000.0,
		.series = ser,
	};
	uint32_t i, fl, k, nq;
	int m, ret = 0;

	snprintf(title, sizeof(title), "BCube(%u,1) %s, %s links", e->n,
		 part_titles[a->part],
		 sluice_format_rate(e->rate, r, sizeof(r)));
	nq = a->part == PART_INCAST ? sc->n_qports : 1;
	for (m = 0; m < N_MODES && !ret; m++) {
		const struct brun *run = &e->runs[a->part][m];

		if (!run->ran)
			continue;
		for (k = 0; k < nq && !ret; k++) {
			uint32_t len = part_is_fct(a->part) ? FCT_POINTS : run->n;
			double *v = calloc(len ? len : 1, sizeof(*v));

			if (!v) {
				ret = -ENOMEM;
				break;
			}
			for (i = 0; part_is_fct(a->part) && i < len; i++)
				v[i] = run->fct_pct[i];
			for (i = 0; !part_is_fct(a->part) && i < run->n; i++) {
				if (a->part == PART_INCAST) {
					v[i] = run->q[(size_t)i * QPORTS_MAX + k] / 1000.0;
					continue;
				}
				for (fl = 0; fl < sc->n_flows; fl++)
					if (a->part != PART_HOLB ||
					    fl == sc->victim)
						v[i] += mbps(e, run->rx[(size_t)i * sc->n_flows + fl]);
			}
			snprintf(names[p.n_series], sizeof(names[0]), "%s%s%s",
				 mode_name(run->fc),
				 nq > 1 ? " " : "", nq > 1 ? sc->qname[k] : "");
			y[p.n_series] = v;
			ser[p.n_series].name = names[p.n_series];
			ser[p.n_series].y = v;
			ser[p.n_series].n = len;
			p.n_series++;
		}
	}
	if (!ret && sluice_svg_write(&p, f))
		ret = -EIO;
	for (k = 0; k < N_MODES * QPORTS_MAX; k++)
		free(y[k]);
	return ret;
}

static void free_all(struct bexp *e)
{
	int p, m;

	for (p = 0; p < N_PARTS; p++) {
		fct_free(&e->sc[p], e->runs[p]);
		sluice_routes_free(&e->sc[p].r);
		sluice_cbd_result_free(&e->sc[p].cbd);
		for (m = 0; m < N_MODES; m++) {
			free(e->runs[p][m].rx);
			free(e->runs[p][m].q);
		}
	}
	sluice_graph_free(&e->g);
}

int experiment_bcube_main(const struct command *cmd, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = exp_on_signal }, old_int, old_term;
	struct sluice_fabric_state old;
	char path[PATH_MAX];
	struct bexp *e;
	bool all_ok = true, handlers = false, last;
	int ret, p, m, lp = -1, lm = -1, total = 0, done = 0;

	e = calloc(1, sizeof(*e));
	if (!e) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	ret = parse(cmd, e, argc, argv);
	if (ret) {
		free(e);
		return ret < 0 ? 0 : ret;
	}
	ret = build_scenarios(e);
	if (ret)
		goto out;
	if (!fabric_state_load(e->name, &old, true)) {
		sluice_fabric_state_free(&old);
		fprintf(stderr, "sluicectl: fabric %s is up: take it down first (sluicectl fabric down --name %s) or give another --name\n",
			e->name, e->name);
		ret = EXIT_RUNTIME;
		goto out;
	}
	for (p = 0; p < N_PARTS; p++)
		for (m = 0; m < N_MODES; m++)
			if (e->parts[p] && e->modes[m])
				lp = p, lm = m, total++;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	handlers = true;
	for (p = 0; !ret && p < N_PARTS; p++)
		for (m = 0; !ret && m < N_MODES; m++) {
			if (!e->parts[p] || !e->modes[m])
				continue;
			e->runs[p][m].part = p;
			e->runs[p][m].fc = modes_all[m];
			last = p == lp && m == lm;
			/* progress, one line a run, on stderr */
			fprintf(stderr, "experiment: %s under %s (%d of %d)\n",
				part_names[p], mode_names[m], ++done, total);
			ret = run_one(e, &e->sc[p], &e->runs[p][m],
				      e->val[OPT_KEEP] && last);
			if (!ret)
				judge(e, &e->sc[p], &e->runs[p][m]);
			all_ok &= ret || e->runs[p][m].as_predicted;
			if (!ret && exp_interrupted) {
				fputs("sluicectl: interrupted\n", stderr);
				ret = EXIT_RUNTIME;
			}
		}
	if (ret)
		goto out;
	if (e->val[OPT_JSON])
		ret = print_json(e, all_ok);
	else
		print_text(e);
	for (p = 0; !ret && e->val[OPT_SVG] && p < N_PARTS; p++) {
		struct svg_arg a = { .e = e, .part = p, .mode = -1 };

		if (!e->parts[p])
			continue;
		snprintf(path, sizeof(path), "%s-%s.svg", e->val[OPT_SVG],
			 part_names[p]);
		if (write_out(path, write_svg, &a))
			ret = EXIT_RUNTIME;
		else if (!e->val[OPT_JSON])
			printf("plot: %s\n", path);
		/* per-flow throughput, each run of the pinned parts */
		for (m = 0; !ret && e->sc[p].pinned && m < N_MODES; m++) {
			if (!e->runs[p][m].ran)
				continue;
			a.mode = m;
			snprintf(path, sizeof(path), "%s-%s-%s.svg",
				 e->val[OPT_SVG], part_names[p], mode_names[m]);
			if (write_out(path, write_flows_svg, &a))
				ret = EXIT_RUNTIME;
			else if (!e->val[OPT_JSON])
				printf("plot: %s\n", path);
		}
	}
	if (!ret && !all_ok)
		ret = EXIT_UNEXPECTED;
out:
	if (handlers) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	free_all(e);
	free(e);
	return ret;
}
