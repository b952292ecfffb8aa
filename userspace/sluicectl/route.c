// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluicectl route { compute | check | stats | dot | merge | export } ...
 * (load, unload and show are route_kernel.c's, sport route_sport.c's)
 *
 * Route sets as files (the format is in lib/route/file.c and man/sluice-routes.5):
 * compute one for a topology, check it for cyclic buffer dependencies,
 * summarise it in the columns of FC's tables, draw a pair's paths or a
 * dependency cycle, and join the shards of a set computed in slices.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sluice/cbd.h>
#include <sluice/interop.h>
#include <sluice/route.h>
#include "jout.h"
#include "load.h"
#include "progress.h"
#include "args.h"
#include "qdisc_args.h"
#include "sluicectl.h"

/* Exit code of "route check" when the set has a CBD. */
#define EXIT_CBD	3
/* The most files a command takes: route merge's shards. */
#define SHARDS_MAX	4096

static int compute_main(const struct command *cmd, int argc, char **argv);
static int check_main(const struct command *cmd, int argc, char **argv);
static int stats_main(const struct command *cmd, int argc, char **argv);
static int dot_main(const struct command *cmd, int argc, char **argv);
static int merge_main(const struct command *cmd, int argc, char **argv);
static int export_main(const struct command *cmd, int argc, char **argv);

static const struct command route_commands[] = {
	{ "compute", compute_main, "Compute the routes of a topology",
	  "--topo FILE --algo { fc | edst | edst-shallow | ecmp | ecmp-cw | ksp | updown | bcube }\n"
	  "\t[--paths K] [--lanes L] [--seed S] [--orient { auto | tier | bfs }] [--root NODE]\n"
	  "\t[--threads T] [--shard I/N] [-o FILE] [-j | --json]", "route" },
	{ "check", check_main,
	  "Check routes for cyclic buffer dependencies (exit 3 if there is one)",
	  "--topo FILE ROUTES... [-j | --json]\n"
	  "\tROUTES: a route file, or every shard of one (route compute --shard), read in turn", "route" },
	{ "stats", stats_main,
	  "Paths per pair, path lengths, shortest paths, fabric distance",
	  "--topo FILE { ROUTES | --algo ALGO [OPTIONS] } [--pairs] [-j | --json]", "route" },
	{ "dot", dot_main,
	  "Draw a pair's paths, or a dependency cycle, in Graphviz's language",
	  "--topo FILE ROUTES { --pair SOURCE,DESTINATION | --cbd [--cycle-only] } [-o FILE]\n"
	  "\t--cycle-only: only the cycle's switches and the paths that make its\n"
	  "\tdependencies, not the whole fabric.", "route" },
	{ "merge", merge_main, "Join the shards of a route set into one file",
	  "--topo FILE -o FILE [-j | --json] SHARD...", "route" },
	{ "export", export_main,
	  "Write routes as other tools load them: OpenSM's LFT dump, or next hops as JSON",
	  "--topo FILE ROUTES --to { lft | nexthops-json } [--first] [-o FILE]\n"
	  "\tAn LFT holds one port per destination: where a switch sends a destination's\n"
	  "\tpaths by several ports the export is refused, unless --first keeps the first\n"
	  "\tpath's. nexthops-json holds every next hop.", "route" },
	{ "load", route_load_main, "Install routes in a fabric's switches, or in this switch",
	  ROUTE_LOAD_USAGE, "route" },
	{ "unload", route_unload_main, "Remove the routes sluice installed", ROUTE_UNLOAD_USAGE, "route" },
	{ "show", route_show_main, "Compare the routes the kernel holds with a route file",
	  ROUTE_SHOW_USAGE, "route" },
	{ "sport", route_sport_main,
	  "The source ports that take each path in multipath mode exact",
	  "--topo FILE ROUTES [--pair SOURCE,DESTINATION [--port PORT]] [-j | --json]\n"
	  "\tEvery pair's paths in the file's order, each with its source ports; with --port, the\n"
	  "\tpath that port takes (none: outside every range, the multipath hash picks).", "route" },
};

#define N_ROUTE (sizeof(route_commands) / sizeof(route_commands[0]))

int route_main(const struct command *cmd, int argc, char **argv)
{
	return group_main(cmd, route_commands, N_ROUTE, argc, argv);
}

/* The options of the route commands; each command picks some. */
enum opt_id {
	OPT_TOPO, OPT_OUT, OPT_JSON, OPT_ALGO, OPT_PATHS, OPT_LANES, OPT_SEED,
	OPT_ORIENT, OPT_ROOT, OPT_THREADS, OPT_SHARD, OPT_PAIR, OPT_CBD,
	OPT_PAIRS, OPT_TO, OPT_FIRST, OPT_CYCLE_ONLY,
	N_OPTS
};

static const char *const orients[] = { "auto", "tier", "bfs", NULL };
static const char *const export_formats[] = { "lft", "nexthops-json", NULL };

static const struct arg_opt opts[] = {
	[OPT_TOPO]	= ARG_P("--topo", 0, "FILE", "the topology (sluice-topology(5))",
				.flags = ARG_REQUIRED),
	[OPT_OUT]	= ARG_OUTPUT,
	[OPT_JSON]	= ARG_F("--json", 'j', "print JSON instead of text"),
	[OPT_ALGO]	= ARG_S("--algo", 0, "ALGO",
				"the algorithm: fc, edst, edst-shallow, ecmp, ecmp-cw, ksp, updown or bcube"),
	[OPT_PATHS]	= ARG_N("--paths", 0, "K", 1, SLUICE_KSP_PATHS_MAX,
				"ksp: paths per pair; ecmp, updown: at most K equal-cost paths"),
	[OPT_LANES]	= ARG_N("--lanes", 0, "L", 1, SLUICE_LANES_MAX,
				"edst: tree sets, one per lane, default 1"),
	[OPT_SEED]	= ARG_N("--seed", 0, "S", 0, UINT64_MAX,
				"edst: the seed of the trees' random order, default 0"),
	[OPT_ORIENT]	= ARG_E("--orient", 0, orients,
				"updown: how links are oriented, by tier or by BFS from a root"),
	[OPT_ROOT]	= ARG_S("--root", 0, "NODE", "updown: the BFS root (implies bfs)"),
	[OPT_THREADS]	= ARG_N("--threads", 0, "T", 1, 256,
				"sources computed in parallel, default every online CPU"),
	[OPT_SHARD]	= ARG_S("--shard", 0, "I/N",
				"compute only the I-th of N equal parts of the sources (0 <= I < N)"),
	[OPT_PAIR]	= ARG_S("--pair", 0, "SOURCE,DESTINATION", "the pair to draw, by node names"),
	[OPT_CBD]	= ARG_F("--cbd", 0, "draw the dependency cycle"),
	[OPT_PAIRS]	= ARG_F("--pairs", 0, "each pair's paths, shortest and average length too"),
	[OPT_TO]	= ARG_E("--to", 0, export_formats, "the format (required)"),
	[OPT_FIRST]	= ARG_F("--first", 0,
				"lft: where a node sends a destination by several ports, keep the first path's"),
	[OPT_CYCLE_ONLY] = ARG_F("--cycle-only", 0,
				 "draw the cycle and the paths that make it, not the whole fabric"),
};

#define ALGO_PICKS	OPT_ALGO, OPT_PATHS, OPT_LANES, OPT_SEED, OPT_ORIENT, \
			OPT_ROOT, OPT_THREADS, OPT_SHARD

static const struct args_spec compute_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = 0,
	.pick = ARGS_PICK(OPT_TOPO, ALGO_PICKS, OPT_OUT, OPT_JSON),
};
static const struct args_spec check_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = SHARDS_MAX,
	.operands = "ROUTES..., a route file (\"-\": stdin) or every shard of one",
	.pick = ARGS_PICK(OPT_TOPO, OPT_JSON),
};
static const struct args_spec stats_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = SHARDS_MAX,
	.operands = "ROUTES, a route file (\"-\": stdin), or --algo to compute one",
	.pick = ARGS_PICK(OPT_TOPO, ALGO_PICKS, OPT_PAIRS, OPT_JSON),
};
static const struct args_spec dot_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = SHARDS_MAX,
	.operands = "ROUTES, a route file (\"-\": stdin)",
	.pick = ARGS_PICK(OPT_TOPO, OPT_PAIR, OPT_CBD, OPT_CYCLE_ONLY, OPT_OUT),
};
static const struct args_spec merge_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = SHARDS_MAX,
	.operands = "SHARD..., the files of route compute --shard",
	.pick = ARGS_PICK(OPT_TOPO, OPT_OUT, OPT_JSON),
};
static const struct args_spec export_spec = {
	.opts = opts, .n_opts = N_OPTS, .max_operands = SHARDS_MAX,
	.operands = "ROUTES, a route file (\"-\": stdin)",
	.pick = ARGS_PICK(OPT_TOPO, OPT_TO, OPT_FIRST, OPT_OUT),
};

/* What the options said; each command reads the ones it picks. */
struct rargs {
	const char	**val;		/* NULL: not given; "" for flags */
	const char	**files;	/* the operands */
	int		n_files;
	int		algo;
	uint32_t	paths, lanes, threads;
	uint64_t	seed;
	const char	*vals[N_OPTS];
	uint64_t	num[N_OPTS];
	struct args	args;
};

/*
 * Parses argv as @spec says; the values are checked there, the algorithm
 * by its name here.  Returns 0, EXIT_USAGE (the message printed), or -1
 * after printing --help.
 */
static int parse(const struct command *cmd, const struct args_spec *spec,
		 int argc, char **argv, struct rargs *a)
{
	memset(a, 0, sizeof(*a));
	a->algo = -1;
	a->args.val = a->vals;
	a->args.num = a->num;
	if (args_parse(cmd, spec, argc, argv, &a->args))
		return a->args.exit ? a->args.exit : -1;
	a->val = a->vals;
	a->files = (const char **)a->args.operands;
	a->n_files = a->args.n_operands;
	if (a->val[OPT_ALGO]) {
		a->algo = sluice_route_algo_parse(a->val[OPT_ALGO]);
		if (a->algo < 0)
			return args_error(&a->args, "--algo: unknown algorithm \"%s\"",
					  a->val[OPT_ALGO]);
	}
	a->paths = a->num[OPT_PATHS];
	a->lanes = a->num[OPT_LANES];
	a->seed = a->num[OPT_SEED];
	a->threads = a->num[OPT_THREADS];
	return 0;
}

/* "routing 120/1000 sources" on a terminal, redrawn in place. */
static struct cli_progress routing_progress = {
	.what = "routing", .unit = "sources",
};

/* Whether -o names a file: without -o, or with "-", routes go to stdout. */
static bool to_file(const char *out)
{
	return out && strcmp(out, "-");
}

/* After the routes went to a file, what is in it: one line, or JSON. */
static void print_summary(const struct sluice_routes *r, bool json)
{
	json_object *o;

	if (!json) {
		printf("algo %s shard %u/%u pairs %llu paths %llu hops %llu truncated %llu\n",
		       r->algo, r->shard_index, r->shard_count,
		       (unsigned long long)r->n_pairs,
		       (unsigned long long)r->n_paths,
		       (unsigned long long)r->n_hops,
		       (unsigned long long)r->truncated_pairs);
		return;
	}
	o = json_object_new_object();
	if (o && jadd(o, "algo", json_object_new_string(r->algo)) &&
	    jadd(o, "shard", jnum(r->shard_index)) &&
	    jadd(o, "shards", jnum(r->shard_count)) &&
	    jadd(o, "pairs", jnum(r->n_pairs)) &&
	    jadd(o, "paths", jnum(r->n_paths)) &&
	    jadd(o, "hops", jnum(r->n_hops)) &&
	    jadd(o, "truncated_pairs", jnum(r->truncated_pairs)))
		puts(jtext(o));
	else
		fputs("sluicectl: out of memory\n", stderr);
	json_object_put(o);
}

/* "I/N", two whole numbers with I < N; no sign, no space. */
static bool parse_shard(const char *s, uint64_t *i, uint64_t *n)
{
	const char *slash = strchr(s, '/');
	char index[12];
	size_t len;

	if (!slash)
		return false;
	len = slash - s;
	if (len >= sizeof(index))
		return false;
	memcpy(index, s, len);
	index[len] = '\0';
	return args_number(index, 0, UINT32_MAX - 1, i) &&
	       args_number(slash + 1, 1, UINT32_MAX, n) && *i < *n;
}

/* The algorithm, its options and how to run it, from the arguments. */
static int compute_opts(const struct command *cmd, const struct rargs *a,
			struct sluice_route_opts *o,
			struct sluice_compute_opts *c)
{
	const char *orient = a->val[OPT_ORIENT], *shard = a->val[OPT_SHARD];
	char msg[SLUICE_ERRLEN];
	uint64_t si, sc;

	memset(o, 0, sizeof(*o));
	memset(c, 0, sizeof(*c));
	if (a->algo < 0)
		return cmd_error(cmd, "--algo is required");
	o->algo = a->algo;
	o->paths = a->paths;
	o->lanes = a->lanes;
	o->seed = a->seed;
	if (route_opts_check(o, a->val[OPT_PATHS], a->val[OPT_LANES],
			     a->val[OPT_SEED], "--seed", orient, a->val[OPT_ROOT],
			     msg, sizeof(msg)))
		return cmd_error(cmd, "%s", msg);
	if (shard) {
		if (!parse_shard(shard, &si, &sc))
			return cmd_error(cmd, "--shard: \"%s\" is not I/N with 0 <= I < N",
					       shard);
		c->shard_index = si;
		c->shard_count = sc;
	}
	c->threads = a->threads;
	if (cli_progress_wanted()) {
		c->progress = cli_progress;
		c->progress_arg = &routing_progress;
	}
	return 0;
}

/* Loads the topology and resolves --root as the arguments say. */
static int load_for(const struct rargs *a, struct sluice_route_opts *o,
		    struct sluice_graph *g)
{
	const char *root = a->val[OPT_ROOT];
	int ret;

	ret = load_topo(a->val[OPT_TOPO], g);
	if (ret)
		return ret;
	ret = load_root(g, root, a->val[OPT_TOPO], o);
	if (ret) {
		sluice_graph_free(g);
		return ret;
	}
	return 0;
}

/* Loads the topology and computes its routes whole. */
static int compute(const struct rargs *a, struct sluice_route_opts *o,
		   const struct sluice_compute_opts *c,
		   struct sluice_graph *g, struct sluice_routes *r)
{
	char err[SLUICE_ERRLEN];
	int ret;

	ret = load_for(a, o, g);
	if (ret)
		return ret;
	if (sluice_routes_compute(g, o, c, r, err, sizeof(err))) {
		/* end the progress line, if there is one, before the error */
		cli_progress_end(&routing_progress);
		fprintf(stderr, "sluicectl: %s: %s\n", a->val[OPT_TOPO], err);
		sluice_graph_free(g);
		return EXIT_RUNTIME;
	}
	return 0;
}

/*
 * Computes the routes of @g as the arguments say, a source at a time into
 * @sink; @head gets the set's header and totals.  Prints the error.
 */
static int compute_to(const struct rargs *a, const struct sluice_route_opts *o,
		      const struct sluice_compute_opts *c,
		      const struct sluice_graph *g, struct sluice_routes *head,
		      sluice_routes_sink_fn sink, void *arg)
{
	char err[SLUICE_ERRLEN];

	if (sluice_routes_compute_stream(g, o, c, head, sink, arg, err,
					 sizeof(err))) {
		/* end the progress line, if there is one, before the error */
		if (c->progress)
			fputc('\n', stderr);
		fprintf(stderr, "sluicectl: %s: %s\n", a->val[OPT_TOPO], err);
		return EXIT_RUNTIME;
	}
	return 0;
}

/*
 * A file for a route file's pairs while their totals, which its header
 * gives first, are not known: beside @out when that is a regular file (or
 * new), so that the pairs stay on its file system, else in TMPDIR.
 * Unlinked at once.  NULL with a message printed.
 */
static FILE *body_file(const char *out)
{
	struct stat st;
	char *tmp;
	FILE *f;
	int fd;

	if (to_file(out) && (stat(out, &st) ? errno == ENOENT :
			     S_ISREG(st.st_mode)) &&
	    asprintf(&tmp, "%s.pairs.XXXXXX", out) >= 0) {
		fd = mkstemp(tmp);
		if (fd >= 0)
			unlink(tmp);
		free(tmp);
		f = fd >= 0 ? fdopen(fd, "w+") : NULL;
		if (f)
			return f;
		if (fd >= 0)
			close(fd);
	}
	f = tmpfile();
	if (!f)
		fprintf(stderr, "sluicectl: no temporary file for the pairs: %s\n",
			strerror(errno));
	return f;
}

/* Writes all @n bytes of @buf to @fd; 0 or -1. */
static int write_all(int fd, const char *buf, ssize_t n)
{
	ssize_t w, k;

	for (w = 0; w < n; w += k) {
		k = write(fd, buf + w, n - w);
		if (k < 0)
			return -1;
	}
	return 0;
}

/*
 * Copies all of @from after what @to holds so far, in the kernel where it
 * can (copy_file_range()), else through a buffer; 0 or -EIO.
 */
static int copy_file(FILE *from, FILE *to)
{
	static char buf[1 << 16];
	int in = fileno(from), out = fileno(to);
	ssize_t n;

	if (fflush(from) || fflush(to) || lseek(in, 0, SEEK_SET))
		return -EIO;
	do
		n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0);
	while (n > 0);
	if (!n)
		return 0;
	if (errno != EXDEV && errno != EINVAL && errno != ENOSYS &&
	    errno != EOPNOTSUPP && errno != EBADF)
		return -EIO;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write_all(out, buf, n))
			return -EIO;
	return n < 0 ? -EIO : 0;
}

/* A streamed route file: its pairs in @body.f, its header in @head. */
struct streamed {
	const struct sluice_graph	*g;
	struct sluice_routes		head;
	struct sluice_routes_pairs_out	body;
};

/* The header, now that the totals are known, then the pairs, then end. */
static int write_streamed(const void *arg, FILE *f)
{
	const struct streamed *s = arg;
	char err[SLUICE_ERRLEN];
	int ret;

	ret = sluice_routes_write_head(&s->head, s->g, f, err, sizeof(err));
	if (!ret && copy_file(s->body.f, f)) {
		snprintf(err, sizeof(err), "cannot write: %s", strerror(errno));
		ret = -EIO;
	}
	if (!ret)
		ret = sluice_routes_write_end(f, err, sizeof(err));
	if (!ret)
		return 0;
	fprintf(stderr, "sluicectl: %s\n", err);
	return -EIO;
}

static int compute_main(const struct command *cmd, int argc, char **argv)
{
	struct streamed out = { 0 };
	struct sluice_route_opts o;
	struct sluice_compute_opts c;
	struct sluice_graph g;
	struct rargs a;
	int ret;

	ret = parse(cmd, &compute_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (a.val[OPT_JSON] && !to_file(a.val[OPT_OUT]))
		return cmd_error(cmd, "-j needs -o FILE: without it the routes go to stdout");
	ret = compute_opts(cmd, &a, &o, &c);
	if (!ret)
		ret = load_for(&a, &o, &g);
	if (ret)
		return ret;
	/*
	 * The pairs go to a file of their own as the sources are done, the
	 * route file last: never the whole set in memory.
	 */
	out.g = out.body.g = &g;
	out.body.f = body_file(a.val[OPT_OUT]);
	ret = out.body.f ? compute_to(&a, &o, &c, &g, &out.head,
				      sluice_routes_pairs_sink, &out.body) :
			   EXIT_RUNTIME;
	if (!ret)
		ret = write_out(a.val[OPT_OUT], write_streamed, &out);
	if (!ret && to_file(a.val[OPT_OUT]))
		print_summary(&out.head, a.val[OPT_JSON]);
	if (out.body.f)
		fclose(out.body.f);
	sluice_graph_free(&g);
	return ret;
}
/* Loads the topology and the one route file a command takes. */
static int load_both(const struct command *cmd, const struct rargs *a,
		     struct sluice_graph *g, struct sluice_routes *r)
{
	int ret;

	if (a->n_files != 1)
		return cmd_error(cmd, a->n_files ?
				       "one route file, not %d" :
				       "no route file given%.0d", a->n_files);
	ret = load_topo(a->val[OPT_TOPO], g);
	if (ret)
		return ret;
	ret = load_routes(a->files[0], g, r);
	if (ret)
		sluice_graph_free(g);
	return ret;
}

static int print_cycle_json(const struct sluice_graph *g,
			    const struct sluice_cbd_result *res,
			    const struct cycle_pair *cp)
{
	json_object *o = json_object_new_object();
	bool ok;

	ok = o && jadd(o, "cbd_free", json_object_new_boolean(res->cbd_free)) &&
	     jadd(o, "buffers", jnum(res->link_lanes)) &&
	     jadd(o, "dependencies", jnum(res->dependencies));
	if (ok && !res->cbd_free)
		ok = jadd(o, "cycle", cycle_json(g, res, "lane", cp));
	return jprint(o, ok);
}

/* The witness's pass over a stream: names the pairs behind its paths. */
struct witness_pairs {
	struct sluice_cbd_witness	wt;
	struct cycle_pair		*cp;
	uint64_t			base;	/* paths before the chunk */
};

static int witness_chunk(void *arg, const struct sluice_routes *chunk,
			 char *err, size_t errlen)
{
	struct witness_pairs *w = arg;
	const struct sluice_cbd_result *res = w->wt.res;
	uint64_t q, p;
	uint32_t i;
	int ret;

	ret = sluice_cbd_stream_witness(&w->wt, chunk, err, errlen);
	for (i = 0; !ret && i < res->n_cycle; i++) {
		q = res->cycle[i].path;
		if (q == UINT64_MAX || q < w->base ||
		    q >= w->base + chunk->n_paths)
			continue;
		p = pair_of(chunk, q - w->base, &w->cp[i].nth);
		w->cp[i].src = chunk->pair_src[p];
		w->cp[i].dst = chunk->pair_dst[p];
	}
	w->base += chunk->n_paths;
	return ret;
}

/*
 * Streams the @n files of @files in the order @order gives (NULL: as
 * given) through @sink.  Prints nothing; 0 or the error, in @err.
 */
static int stream_files(const struct sluice_graph *g, const char **files,
			int n, const uint32_t *order,
			sluice_routes_sink_fn sink, void *arg, char *err,
			size_t errlen)
{
	struct sluice_routes head;
	const char *name;
	int i, ret = 0;
	FILE *f;

	for (i = 0; !ret && i < n; i++) {
		f = open_in(files[order ? order[i] : (uint32_t)i], &name);
		if (!f) {
			/* open_in() said why */
			snprintf(err, errlen, "%s: cannot open",
				 files[order ? order[i] : (uint32_t)i]);
			return -ENOENT;
		}
		ret = sluice_routes_read_stream(g, f, name, &head, sink, arg,
						err, errlen);
		fclose(f);
	}
	return ret;
}

/*
 * The headers of the @n route files of @files into @head: the one file's,
 * or the whole set's its @n shards make (sluice_routes_merge_plan(), the
 * shards' order in @order).  0, or EXIT_RUNTIME with the error printed.
 */
static int plan_files(const struct sluice_graph *g, const char **files, int n,
		      struct sluice_routes *head, uint32_t *order)
{
	struct sluice_routes *heads = calloc(n, sizeof(*heads));
	char err[SLUICE_ERRLEN];
	const char *name;
	int i, ret = 0;
	FILE *f;

	if (!heads) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	for (i = 0; !ret && i < n; i++) {
		f = open_in(files[i], &name);
		if (!f) {
			ret = EXIT_RUNTIME;
			break;
		}
		if (sluice_routes_read_head(g, f, name, &heads[i], err,
					    sizeof(err)))
			ret = -EINVAL;
		fclose(f);
	}
	if (!ret && n == 1) {
		*head = heads[0];
		order[0] = 0;
	} else if (!ret) {
		ret = sluice_routes_merge_plan(head, heads, n, order, err,
					       sizeof(err));
	}
	free(heads);
	if (ret == -EINVAL)
		fprintf(stderr, "sluicectl: %s\n", err);
	return ret ? EXIT_RUNTIME : 0;
}

/*
 * The CBD check of route file @files[0], or of the whole set its @n
 * shards make, read a chunk at a time, and once more to name the paths of
 * a cycle: the set is never held.  Prints the error.
 */
static int check_stream(const char **files, int n,
			const struct sluice_graph *g,
			struct sluice_cbd_result *res, struct cycle_pair **cp)
{
	struct sluice_routes_async *as = NULL;
	struct sluice_cbd_stream *s = NULL;
	struct witness_pairs w = { 0 };
	struct sluice_routes head;
	char err[SLUICE_ERRLEN];
	uint32_t *order;
	int ret, end;

	*cp = NULL;
	memset(res, 0, sizeof(*res));
	order = calloc(n, sizeof(*order));
	if (!order) {
		fputs("sluicectl: out of memory\n", stderr);
		return EXIT_RUNTIME;
	}
	/* the header first: the check starts from its topology */
	ret = plan_files(g, files, n, &head, order);
	if (ret) {
		free(order);
		return ret;
	}
	/* the check on a thread of its own while the files are read */
	ret = sluice_cbd_stream_start(&s, g, &head, err, sizeof(err));
	if (!ret)
		ret = sluice_routes_async_start(&as, sluice_cbd_stream_add, s,
						err, sizeof(err));
	if (!ret)
		ret = stream_files(g, files, n, order, sluice_routes_async_add,
				   as, err, sizeof(err));
	end = sluice_routes_async_end(as, ret ? NULL : err,
				      ret ? 0 : sizeof(err));
	ret = ret ? ret : end;
	if (!ret)
		ret = sluice_cbd_stream_end(s, res, err, sizeof(err));
	if (!ret && res->n_cycle) {
		w.wt.s = s;
		w.wt.res = res;
		w.cp = calloc(res->n_cycle, sizeof(*w.cp));
		ret = w.cp ? stream_files(g, files, n, order, witness_chunk,
					  &w, err, sizeof(err)) : -ENOMEM;
		if (!ret)
			ret = sluice_cbd_stream_witness_end(s, res, err,
							    sizeof(err));
		if (ret == -ENOMEM)
			snprintf(err, sizeof(err), "out of memory");
	}
	sluice_cbd_stream_free(s);
	free(order);
	if (ret) {
		if (ret != -ENOENT)
			fprintf(stderr, "sluicectl: %s\n", err);
		sluice_cbd_result_free(res);
		free(w.cp);
		return EXIT_RUNTIME;
	}
	*cp = w.cp;
	return 0;
}

static int check_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_routes r = { 0 };
	struct sluice_cbd_result res;
	struct cycle_pair *cp = NULL;
	char err[SLUICE_ERRLEN];
	struct sluice_graph g;
	struct rargs a;
	int i, ret;

	ret = parse(cmd, &check_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	for (i = 0; a.n_files > 1 && i < a.n_files; i++)
		if (!strcmp(a.files[i], "-"))
			return cmd_error(cmd, "a shard is read twice: give a file, not \"-\"");
	if (a.n_files && strcmp(a.files[0], "-")) {
		/* files read twice if need be: streamed */
		ret = load_topo(a.val[OPT_TOPO], &g);
		if (ret)
			return ret;
		ret = check_stream(a.files, a.n_files, &g, &res, &cp);
		if (ret) {
			sluice_graph_free(&g);
			return ret;
		}
	} else {
		ret = load_both(cmd, &a, &g, &r);
		if (ret)
			return ret;
		if (sluice_cbd_check(&g, &r, &res, err, sizeof(err))) {
			fprintf(stderr, "sluicectl: %s\n", err);
			ret = EXIT_RUNTIME;
			goto out;
		}
		if (!res.cbd_free && cycle_pairs(&r, &res, &cp)) {
			ret = EXIT_RUNTIME;
			goto out;
		}
	}
	if (a.val[OPT_JSON]) {
		ret = print_cycle_json(&g, &res, cp);
	} else {
		printf("cbd-free %s buffers %llu dependencies %llu\n",
		       res.cbd_free ? "yes" : "no",
		       (unsigned long long)res.link_lanes,
		       (unsigned long long)res.dependencies);
		if (!res.cbd_free)
			print_cycle_text(&g, &res, "lane", cp);
	}
	if (!ret && !res.cbd_free)
		ret = EXIT_CBD;
out:
	sluice_cbd_result_free(&res);
	free(cp);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	return ret;
}
static void print_stats_text(const struct sluice_route_stats *st,
			     const struct sluice_routes *r)
{
	printf("algo %s pairs %llu without-path %llu truncated %llu lanes %u\n",
	       r->algo, (unsigned long long)st->pairs,
	       (unsigned long long)st->pairs_without_path,
	       (unsigned long long)st->truncated_pairs, st->lanes);
	printf("paths %llu per-pair min %llu max %llu avg %.4f\n",
	       (unsigned long long)st->paths,
	       (unsigned long long)st->paths_min,
	       (unsigned long long)st->paths_max, st->paths_avg);
	printf("path-length avg %.4f max %u\n", st->path_len_avg,
	       st->path_len_max);
	printf("shortest-path-length avg %.4f\n", st->shortest_len_avg);
	printf("distance avg %.4f\n", st->distance_avg);
}

/* Per pair: its paths, shortest and average length. */
static void pair_lengths(const struct sluice_routes *r, uint64_t p,
			 uint32_t *shortest, double *avg)
{
	uint64_t q, sum = 0;
	uint32_t len;

	*shortest = 0;
	*avg = 0;
	for (q = r->pair_path[p]; q < r->pair_path[p + 1]; q++) {
		len = sluice_routes_path_len(r, q);
		if (!*shortest || len < *shortest)
			*shortest = len;
		sum += len;
	}
	if (sluice_routes_pair_paths(r, p))
		*avg = (double)sum / sluice_routes_pair_paths(r, p);
}

static int print_stats_json(const struct sluice_route_stats *st,
			    const struct sluice_routes *r,
			    const struct sluice_graph *g, bool pairs)
{
	json_object *o = json_object_new_object(), *arr, *e;
	uint32_t shortest;
	double avg;
	uint64_t p;
	bool ok;

	ok = o && jadd(o, "algo", json_object_new_string(r->algo)) &&
	     jadd(o, "pairs", jnum(st->pairs)) &&
	     jadd(o, "pairs_without_path", jnum(st->pairs_without_path)) &&
	     jadd(o, "truncated_pairs", jnum(st->truncated_pairs)) &&
	     jadd(o, "lanes", jnum(st->lanes)) &&
	     jadd(o, "paths", jnum(st->paths)) &&
	     jadd(o, "paths_per_pair", jrange(st->paths_min, st->paths_max,
					      jfixed(st->paths_avg))) &&
	     jadd(o, "path_length", jrange(st->path_len_min, st->path_len_max,
					   jfixed(st->path_len_avg))) &&
	     jadd(o, "shortest_path_length_avg",
		  jfixed(st->shortest_len_avg)) &&
	     jadd(o, "distance_avg", jfixed(st->distance_avg));
	if (ok && pairs) {
		arr = json_object_new_array_ext(r->n_pairs);
		ok = jadd(o, "per_pair", arr);
		for (p = 0; ok && p < r->n_pairs; p++) {
			pair_lengths(r, p, &shortest, &avg);
			e = json_object_new_object();
			ok = e && !json_object_array_add(arr, e);
			if (!ok) {
				json_object_put(e);
				break;
			}
			ok = jadd(e, "src", json_object_new_string(name_of(g, r->pair_src[p]))) &&
			     jadd(e, "dst", json_object_new_string(name_of(g, r->pair_dst[p]))) &&
			     jadd(e, "paths", jnum(sluice_routes_pair_paths(r, p))) &&
			     jadd(e, "shortest", jnum(shortest)) &&
			     jadd(e, "avg_length", jfixed(avg));
		}
	}
	return jprint(o, ok);
}

/* Statistics fed by a stream, started on its first chunk's header. */
struct stats_run {
	const struct sluice_graph		*g;
	struct sluice_route_stats		*st;
	struct sluice_route_stats_stream	*s;
};

static int stats_chunk(void *arg, const struct sluice_routes *chunk,
		       char *err, size_t errlen)
{
	struct stats_run *run = arg;
	int ret;

	if (!run->s) {
		ret = sluice_route_stats_start(&run->s, run->g, chunk, run->st,
					       err, errlen);
		if (ret)
			return ret;
	}
	return sluice_route_stats_add(run->s, chunk, err, errlen);
}

/*
 * The statistics of routes computed (@a has --algo, or no file) or read
 * from a file, streamed: the set is never held.  Prints the error; frees
 * @g on failure.
 */
static int stats_stream(const struct command *cmd, const struct rargs *a,
			struct sluice_graph *g, struct sluice_routes *head,
			struct sluice_route_stats *st)
{
	struct stats_run run = { .g = g, .st = st };
	struct sluice_route_opts o;
	struct sluice_compute_opts c;
	char err[SLUICE_ERRLEN];
	const char *name;
	FILE *f;
	int ret;

	if (a->algo >= 0 || !a->n_files) {
		ret = compute_opts(cmd, a, &o, &c);
		if (!ret)
			ret = load_for(a, &o, g);
		if (ret)
			return ret;
		ret = compute_to(a, &o, &c, g, head, stats_chunk, &run);
	} else {
		if (a->n_files != 1)
			return cmd_error(cmd, "one route file, not %d",
					       a->n_files);
		ret = load_topo(a->val[OPT_TOPO], g);
		if (ret)
			return ret;
		f = open_in(a->files[0], &name);
		if (!f) {
			sluice_graph_free(g);
			return EXIT_RUNTIME;
		}
		ret = sluice_routes_read_stream(g, f, name, head, stats_chunk,
						&run, err, sizeof(err));
		if (f != stdin)
			fclose(f);
		if (ret) {
			fprintf(stderr, "sluicectl: %s\n", err);
			ret = EXIT_RUNTIME;
		}
	}
	if (!ret && !run.s &&
	    sluice_route_stats_start(&run.s, g, head, st, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		ret = EXIT_RUNTIME;
	}
	if (!ret) {
		sluice_route_stats_end(run.s);
		/* known at the end when computed */
		st->truncated_pairs = head->truncated_pairs;
	}
	sluice_route_stats_free(run.s);
	if (ret)
		sluice_graph_free(g);
	return ret;
}

static int stats_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_routes r = { 0 };
	struct sluice_route_opts o;
	struct sluice_compute_opts c;
	struct sluice_route_stats st;
	char err[SLUICE_ERRLEN];
	struct sluice_graph g;
	uint32_t shortest;
	struct rargs a;
	double avg;
	uint64_t p;
	size_t i;
	int ret;

	ret = parse(cmd, &stats_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (a.algo >= 0 || !a.n_files) {
		if (a.n_files)
			return cmd_error(cmd, "give a route file or --algo, not both");
	} else {
		static const int algo_opts[] = { ALGO_PICKS };

		for (i = 0; i < ARRAY_SIZE(algo_opts); i++)
			if (a.val[algo_opts[i]])
				return cmd_error(cmd, "%s needs --algo, not a route file",
						 opts[algo_opts[i]].name);
	}
	if (!a.val[OPT_PAIRS]) {
		/* the totals alone: the routes stream past, never held */
		ret = stats_stream(cmd, &a, &g, &r, &st);
		if (ret)
			return ret;
		if (a.val[OPT_JSON])
			ret = print_stats_json(&st, &r, &g, false);
		else
			print_stats_text(&st, &r);
		sluice_graph_free(&g);
		return ret;
	}
	/* a line for every pair: the set whole */
	if (a.algo >= 0 || !a.n_files) {
		ret = compute_opts(cmd, &a, &o, &c);
		if (!ret)
			ret = compute(&a, &o, &c, &g, &r);
	} else {
		ret = load_both(cmd, &a, &g, &r);
	}
	if (ret)
		return ret;
	if (sluice_route_stats(&r, &g, &st, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		ret = EXIT_RUNTIME;
	} else if (a.val[OPT_JSON]) {
		ret = print_stats_json(&st, &r, &g, true);
	} else {
		print_stats_text(&st, &r);
		for (p = 0; p < r.n_pairs; p++) {
			pair_lengths(&r, p, &shortest, &avg);
			printf("pair %s %s paths %llu shortest %u avg %.4f\n",
			       name_of(&g, r.pair_src[p]),
			       name_of(&g, r.pair_dst[p]),
			       (unsigned long long)sluice_routes_pair_paths(&r, p),
			       shortest, avg);
		}
	}
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	return ret;
}
/* Graphviz colours for paths, in turn. */
static const char *const colours[] = {
	"blue", "forestgreen", "darkorange", "purple", "brown", "deeppink",
	"cyan4", "gold3",
};

#define N_COLOURS (sizeof(colours) / sizeof(colours[0]))

struct dot_in {
	const struct sluice_graph	*g;
	const struct sluice_routes	*r;
	uint64_t			pair;	/* --pair */
	const struct sluice_cbd_result	*res;	/* --cbd */
	bool				cycle_only;
};

/* The walk of path @q as directed edges in @colour, labelled @label. */
static void dot_path(FILE *f, const struct sluice_graph *g,
		     const struct sluice_routes *r, uint64_t q,
		     const char *colour, const char *label)
{
	uint32_t at = r->pair_src[sluice_routes_path_pair(r, q)], id, next;
	uint64_t h;

	for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
		id = r->hops[h];
		next = g->links[id].a == at ? g->links[id].b : g->links[id].a;
		fprintf(f, "\t\"%s\" -> \"%s\" [color=%s penwidth=2 label=\"%s\"];\n",
			name_of(g, at), name_of(g, next), colour, label);
		at = next;
	}
}

/*
 * --cycle-only: the switches of the cycle and of the paths that make its
 * dependencies, nothing else of the fabric; each such path in its own
 * colour, labelled with its pair and index, and the cycle over them in
 * red, labelled with its order.  A path making several hops is drawn once.
 */
static int write_cycle_dot(const struct dot_in *in, FILE *f)
{
	const struct sluice_cbd_result *res = in->res;
	const struct sluice_graph *g = in->g;
	const struct sluice_routes *r = in->r;
	char label[3 * SLUICE_NAME_MAX + 32];
	uint64_t p, nth, h;
	uint32_t i, j, u, at, id;
	bool *seen = calloc(g->n_nodes ? g->n_nodes : 1, sizeof(*seen));

	if (!seen) {
		fputs("sluicectl: out of memory\n", stderr);
		return -ENOMEM;
	}
	for (i = 0; i < res->n_cycle; i++) {
		seen[res->cycle[i].from] = seen[res->cycle[i].to] = true;
		at = r->pair_src[sluice_routes_path_pair(r, res->cycle[i].path)];
		seen[at] = true;
		for (h = r->path_hop[res->cycle[i].path];
		     h < r->path_hop[res->cycle[i].path + 1]; h++) {
			id = r->hops[h];
			at = g->links[id].a == at ? g->links[id].b : g->links[id].a;
			seen[at] = true;
		}
	}
	fputs("digraph cycle {\n\tnode [shape=box];\n", f);
	for (u = 0; u < g->n_nodes; u++)
		if (seen[u])
			fprintf(f, "\t\"%s\"%s;\n", name_of(g, u),
				g->nodes[u].kind == SLUICE_NODE_SERVER ?
				" [shape=ellipse]" : "");
	free(seen);
	for (i = 0; i < res->n_cycle; i++) {
		for (j = 0; j < i && res->cycle[j].path != res->cycle[i].path; j++)
			;
		if (j < i)
			continue;
		p = pair_of(r, res->cycle[i].path, &nth);
		snprintf(label, sizeof(label), "%s>%s p%llu",
			 name_of(g, r->pair_src[p]), name_of(g, r->pair_dst[p]),
			 (unsigned long long)nth);
		dot_path(f, g, r, res->cycle[i].path,
			 colours[i % N_COLOURS], label);
	}
	for (i = 0; i < res->n_cycle; i++) {
		const struct sluice_cbd_hop *c = &res->cycle[i];

		fprintf(f, "\t\"%s\" -> \"%s\" [color=red penwidth=3 label=\"%u: l%u@%u\"];\n",
			name_of(g, c->from), name_of(g, c->to), i + 1,
			c->link, c->lane);
	}
	fputs("}\n", f);
	return 0;
}

/*
 * The topology in grey, then the highlighted walks as directed edges over
 * it: each path of the pair in its own colour, labelled "pN" (and "@L"
 * for a lane), or the dependency cycle in red, labelled with its order.
 */
static int write_route_dot(const void *arg, FILE *f)
{
	const struct dot_in *in = arg;
	const struct sluice_graph *g = in->g;
	const struct sluice_routes *r = in->r;
	char label[32];
	uint64_t q, n;
	uint32_t u, id;

	if (in->cycle_only)
		return write_cycle_dot(in, f);
	fputs("digraph routes {\n\tnode [shape=box];\n", f);
	for (u = 0; u < g->n_nodes; u++)
		fprintf(f, "\t\"%s\"%s;\n", name_of(g, u),
			g->nodes[u].kind == SLUICE_NODE_SERVER ?
			" [shape=ellipse]" : "");
	for (id = 0; id < g->n_links; id++)
		fprintf(f, "\t\"%s\" -> \"%s\" [dir=none color=gray80 id=\"l%u\"];\n",
			name_of(g, g->links[id].a), name_of(g, g->links[id].b),
			id);
	if (in->res) {
		for (u = 0; u < in->res->n_cycle; u++) {
			const struct sluice_cbd_hop *c = &in->res->cycle[u];

			fprintf(f, "\t\"%s\" -> \"%s\" [color=red penwidth=3 label=\"%u: l%u@%u\"];\n",
				name_of(g, c->from), name_of(g, c->to), u + 1,
				c->link, c->lane);
		}
	} else {
		fprintf(f, "\t\"%s\" [style=filled fillcolor=lightblue];\n"
			"\t\"%s\" [style=filled fillcolor=lightpink];\n",
			name_of(g, r->pair_src[in->pair]),
			name_of(g, r->pair_dst[in->pair]));
		for (q = r->pair_path[in->pair];
		     q < r->pair_path[in->pair + 1]; q++) {
			n = q - r->pair_path[in->pair];
			if (r->path_lane[q])
				snprintf(label, sizeof(label), "p%llu@%u",
					 (unsigned long long)n + 1,
					 r->path_lane[q]);
			else
				snprintf(label, sizeof(label), "p%llu",
					 (unsigned long long)n + 1);
			dot_path(f, g, r, q, colours[n % N_COLOURS], label);
		}
	}
	fputs("}\n", f);
	return 0;
}

static int dot_main(const struct command *cmd, int argc, char **argv)
{
	struct sluice_cbd_result res = { 0 };
	struct dot_in in = { 0 };
	char err[SLUICE_ERRLEN];
	struct sluice_routes r;
	struct sluice_graph g;
	uint32_t src, dst;
	const char *comma;
	struct rargs a;
	uint64_t p;
	int ret;

	ret = parse(cmd, &dot_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (!a.val[OPT_PAIR] == !a.val[OPT_CBD])
		return cmd_error(cmd, "give one of --pair SOURCE,DESTINATION and --cbd");
	if (a.val[OPT_CYCLE_ONLY] && !a.val[OPT_CBD])
		return cmd_error(cmd, "--cycle-only applies to --cbd");
	in.cycle_only = a.val[OPT_CYCLE_ONLY];
	comma = a.val[OPT_PAIR] ? strchr(a.val[OPT_PAIR], ',') : NULL;
	if (a.val[OPT_PAIR] && !comma)
		return cmd_error(cmd, "--pair: \"%s\" is not SOURCE,DESTINATION",
				       a.val[OPT_PAIR]);
	ret = load_both(cmd, &a, &g, &r);
	if (ret)
		return ret;
	in.g = &g;
	in.r = &r;
	if (a.val[OPT_PAIR]) {
		if (sluice_graph_node_find(&g, a.val[OPT_PAIR], comma - a.val[OPT_PAIR], &src) ||
		    sluice_graph_node_find(&g, comma + 1, strlen(comma + 1), &dst)) {
			fprintf(stderr, "sluicectl: --pair %s: no such node in %s\n",
				a.val[OPT_PAIR], a.val[OPT_TOPO]);
			ret = EXIT_RUNTIME;
			goto out;
		}
		for (p = 0; p < r.n_pairs; p++)
			if (r.pair_src[p] == src && r.pair_dst[p] == dst)
				break;
		if (p == r.n_pairs) {
			fprintf(stderr, "sluicectl: --pair %s: not a pair of %s\n",
				a.val[OPT_PAIR], a.files[0]);
			ret = EXIT_RUNTIME;
			goto out;
		}
		in.pair = p;
	} else {
		if (sluice_cbd_check(&g, &r, &res, err, sizeof(err))) {
			fprintf(stderr, "sluicectl: %s\n", err);
			ret = EXIT_RUNTIME;
			goto out;
		}
		if (res.cbd_free) {
			fprintf(stderr, "sluicectl: %s has no CBD: nothing to draw\n",
				a.files[0]);
			ret = EXIT_RUNTIME;
			goto out;
		}
		in.res = &res;
	}
	ret = write_out(a.val[OPT_OUT], write_route_dot, &in);
out:
	sluice_cbd_result_free(&res);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	return ret;
}

/* Shards to merge, their headers read, to write in order. */
struct merging {
	const struct sluice_graph	*g;
	struct sluice_routes		head;	/* the whole set's */
	int				n;
	const char			**files;
	struct sluice_routes		*heads;
	uint32_t			*order;
	struct sluice_routes_pairs_out	out;
};

/*
 * The merged file: its header from the shards', then each shard read
 * through, checked, in shard order, then end.  One file open at a time,
 * however many shards.
 */
static int write_merged(const void *arg, FILE *f)
{
	struct merging *m = (struct merging *)arg;
	struct sluice_routes_async *as = NULL;
	char err[SLUICE_ERRLEN];
	int ret, end;

	m->out.g = m->g;
	m->out.f = f;
	ret = sluice_routes_write_head(&m->head, m->g, f, err, sizeof(err));
	/* the writing on a thread of its own while the shards are read */
	if (!ret)
		ret = sluice_routes_async_start(&as, sluice_routes_pairs_sink,
						&m->out, err, sizeof(err));
	if (!ret)
		ret = stream_files(m->g, m->files, m->n, m->order,
				   sluice_routes_async_add, as, err,
				   sizeof(err));
	end = sluice_routes_async_end(as, ret ? NULL : err,
				      ret ? 0 : sizeof(err));
	ret = ret ? ret : end;
	if (ret == -ENOENT)
		return -EIO;
	if (!ret)
		ret = sluice_routes_write_end(f, err, sizeof(err));
	if (!ret)
		return 0;
	fprintf(stderr, "sluicectl: %s\n", err);
	return -EIO;
}

static int merge_main(const struct command *cmd, int argc, char **argv)
{
	struct merging m = { 0 };
	char err[SLUICE_ERRLEN];
	struct sluice_graph g;
	const char *name;
	struct rargs a;
	int i, ret;
	FILE *f;

	ret = parse(cmd, &merge_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (!a.val[OPT_OUT])
		return cmd_error(cmd, "-o FILE is required");
	if (a.val[OPT_JSON] && !to_file(a.val[OPT_OUT]))
		return cmd_error(cmd, "-j needs -o FILE: with -o - the routes go to stdout");
	if (!a.n_files)
		return cmd_error(cmd, "no shard files given");
	for (i = 0; i < a.n_files; i++)
		if (!strcmp(a.files[i], "-"))
			return cmd_error(cmd, "a shard is read twice: give a file, not \"-\"");
	ret = load_topo(a.val[OPT_TOPO], &g);
	if (ret)
		return ret;
	m.g = &g;
	m.n = a.n_files;
	m.files = a.files;
	m.heads = calloc(a.n_files, sizeof(*m.heads));
	m.order = calloc(a.n_files, sizeof(*m.order));
	if (!m.heads || !m.order) {
		fputs("sluicectl: out of memory\n", stderr);
		ret = EXIT_RUNTIME;
	}
	/*
	 * The headers first, to check that the shards join and total them;
	 * then each shard streams through, read and checked as it is
	 * written: never a shard, let alone the set, in memory.
	 */
	for (i = 0; !ret && i < a.n_files; i++) {
		f = open_in(a.files[i], &name);
		if (!f) {
			ret = EXIT_RUNTIME;
			break;
		}
		if (sluice_routes_read_head(&g, f, name, &m.heads[i], err,
					    sizeof(err))) {
			fprintf(stderr, "sluicectl: %s\n", err);
			ret = EXIT_RUNTIME;
		}
		fclose(f);
	}
	if (!ret && sluice_routes_merge_plan(&m.head, m.heads, a.n_files,
					     m.order, err, sizeof(err))) {
		fprintf(stderr, "sluicectl: %s\n", err);
		ret = EXIT_RUNTIME;
	}
	if (!ret) {
		ret = write_out(a.val[OPT_OUT], write_merged, &m);
		if (!ret && to_file(a.val[OPT_OUT]))
			print_summary(&m.head, a.val[OPT_JSON]);
	}
	free(m.heads);
	free(m.order);
	sluice_graph_free(&g);
	return ret;
}

struct export_out {
	const struct sluice_routes	*r;
	const struct sluice_graph	*g;
	int				fmt;
	struct sluice_route_export_opts	o;
};

static int write_export(const void *arg, FILE *f)
{
	const struct export_out *e = arg;
	char err[SLUICE_ERRLEN];

	if (!sluice_routes_export(e->r, e->g, e->fmt, &e->o, f, err,
				  sizeof(err)))
		return 0;
	fprintf(stderr, "sluicectl: %s\n", err);
	return -EINVAL;
}

static int export_main(const struct command *cmd, int argc, char **argv)
{
	struct export_out e = { 0 };
	struct sluice_routes r;
	struct sluice_graph g;
	struct rargs a;
	int ret;

	ret = parse(cmd, &export_spec, argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (!a.val[OPT_TO])
		return cmd_error(cmd, "--to { lft | nexthops-json } is required");
	e.fmt = sluice_route_format_parse(a.val[OPT_TO]);
	if (e.fmt < 0)
		return cmd_error(cmd, "--to: \"%s\" is not lft or nexthops-json",
				       a.val[OPT_TO]);
	if (a.val[OPT_FIRST] && e.fmt != SLUICE_ROUTES_LFT)
		return cmd_error(cmd, "--first is for --to lft: nexthops-json holds every next hop");
	ret = load_both(cmd, &a, &g, &r);
	if (ret)
		return ret;
	e.r = &r;
	e.g = &g;
	e.o.first = a.val[OPT_FIRST];
	/* nothing is written before the whole export is worked out */
	ret = write_out(a.val[OPT_OUT], write_export, &e);
	sluice_routes_free(&r);
	sluice_graph_free(&g);
	return ret;
}
