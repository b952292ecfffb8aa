// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The compute driver: runs an algorithm over the sources of a fabric on
 * several threads and joins the per-source results in source order, so
 * that the route set is the same bytes for any thread count.  Also the
 * route set's validation and release.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sluice/route.h>
#include "graph/internal.h"
#include "route/algo.h"
#include "route/internal.h"

#define THREADS_MAX		256
#define PROGRESS_NS		200000000L	/* between progress calls */

static const struct sluice_algo_ops *const algo_ops[SLUICE_ROUTE__COUNT] = {
	[SLUICE_ROUTE_FC]		= &sluice_algo_fc,
	[SLUICE_ROUTE_EDST]		= &sluice_algo_edst,
	[SLUICE_ROUTE_EDST_SHALLOW]	= &sluice_algo_edst,
	[SLUICE_ROUTE_ECMP]		= &sluice_algo_ecmp,
	[SLUICE_ROUTE_KSP]		= &sluice_algo_ksp,
	[SLUICE_ROUTE_UPDOWN]		= &sluice_algo_updown,
	[SLUICE_ROUTE_BCUBE]		= &sluice_algo_bcube,
	[SLUICE_ROUTE_ECMP_CW]		= &sluice_algo_ecmp_cw,
};

/*
 * One source's paths between the worker that computes them and the sink
 * that takes them: its buffer, with room for the index arrays' ends, and
 * its pairs' source, repeated, so that it reads as a route set.
 */
struct slot {
	struct sluice_path_buf	b;
	uint32_t		*src;
	uint64_t		cap_src;
	uint32_t		done;	/* the source index it holds + 1 */
};

/*
 * What the threads share.  Only the atomics, the error, the count of
 * running workers, the slots' done marks and the count of sources handed
 * over change; all but the atomics under @lock.
 */
struct job {
	const struct sluice_algo_ops	*ops;
	void				*ctx;
	const uint32_t			*ep;	/* endpoints */
	uint32_t			n_ep;
	uint32_t			first;	/* sources: ep[first..last) */
	uint32_t			last;
	struct slot			*slots;	/* source i in i % n_slots */
	uint32_t			n_slots;
	uint32_t			emitted;	/* sources handed over */
	atomic_uint			next;
	atomic_uint			done;
	atomic_bool			failed;
	pthread_mutex_t			lock;
	pthread_cond_t			ready;	/* a slot filled, a worker ended */
	pthread_cond_t			room;	/* a slot freed, or failure */
	uint32_t			running;
	uint32_t			err_src;	/* lowest failed source */
	int				err_ret;
	char				err[SLUICE_ERRLEN];
};

static int no_memory(char *err, size_t errlen)
{
	return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
}

/* Keeps the failure of the lowest source, so the message is reproducible. */
static void job_fail(struct job *j, uint32_t src, int ret, const char *msg)
{
	pthread_mutex_lock(&j->lock);
	if (!j->err_ret || src < j->err_src) {
		j->err_ret = ret;
		j->err_src = src;
		snprintf(j->err, sizeof(j->err), "%s", msg);
	}
	atomic_store(&j->failed, true);
	pthread_cond_broadcast(&j->room);
	pthread_cond_broadcast(&j->ready);
	pthread_mutex_unlock(&j->lock);
}

/* The destinations of ep[i]: every other endpoint, in order. */
static void dsts_of(const struct job *j, uint32_t i, uint32_t *dsts)
{
	memcpy(dsts, j->ep, i * sizeof(*dsts));
	memcpy(dsts + i, j->ep + i + 1, (j->n_ep - i - 1) * sizeof(*dsts));
}

/* An algorithm must give every destination, in order: check it did. */
static bool complete(const struct sluice_path_buf *b, const uint32_t *dsts,
		     uint32_t n)
{
	return b->n_pairs == n &&
	       (!n || !memcmp(b->pair_dst, dsts, (size_t)n * sizeof(*dsts)));
}

/*
 * Makes the slot's buffer read as a route set: the ends of its index
 * arrays, its pairs' source.  Each array pair that shares a capacity
 * grows together.
 */
static int seal(struct slot *sl)
{
	struct sluice_path_buf *b = &sl->b;
	uint64_t cap;
	uint32_t k;

	if (b->n_pairs >= b->cap_pairs) {
		cap = b->cap_pairs;
		if (SLUICE_I_GROW(b->pair_dst, cap, b->n_pairs + 1))
			return -ENOMEM;
		cap = b->cap_pairs;
		if (SLUICE_I_GROW(b->pair_path, cap, b->n_pairs + 1))
			return -ENOMEM;
		b->cap_pairs = cap;
	}
	if (b->n_paths >= b->cap_paths) {
		cap = b->cap_paths;
		if (SLUICE_I_GROW(b->path_hop, cap, b->n_paths + 1))
			return -ENOMEM;
		cap = b->cap_paths;
		if (SLUICE_I_GROW(b->path_lane, cap, b->n_paths + 1))
			return -ENOMEM;
		b->cap_paths = cap;
	}
	if (SLUICE_I_GROW(sl->src, sl->cap_src, b->n_pairs + 1))
		return -ENOMEM;
	b->pair_path[b->n_pairs] = b->n_paths;
	b->path_hop[b->n_paths] = b->n_hops;
	for (k = 0; k < b->n_pairs; k++)
		sl->src[k] = b->src;
	return 0;
}

/* Waits for the slot of source index @i to be handed over; false if failed. */
static bool wait_room(struct job *j, uint32_t i)
{
	bool ok;

	pthread_mutex_lock(&j->lock);
	while (i - j->first >= j->emitted + j->n_slots &&
	       !atomic_load(&j->failed))
		pthread_cond_wait(&j->room, &j->lock);
	ok = !atomic_load(&j->failed);
	pthread_mutex_unlock(&j->lock);
	return ok;
}

static void work(struct job *j)
{
	char err[SLUICE_ERRLEN] = "";
	struct slot *sl;
	uint32_t *dsts;
	void *w = NULL;
	uint32_t i;
	int ret;

	dsts = sluice_i_calloc(j->n_ep, sizeof(*dsts));
	if (!dsts) {
		job_fail(j, 0, -ENOMEM, "out of memory");
		return;
	}
	ret = j->ops->worker_init(j->ctx, &w);
	if (ret) {
		job_fail(j, 0, ret, "out of memory");
		free(dsts);
		return;
	}
	while (!atomic_load(&j->failed)) {
		i = atomic_fetch_add(&j->next, 1);
		if (i >= j->last || !wait_room(j, i))
			break;
		sl = &j->slots[(i - j->first) % j->n_slots];
		sluice_path_buf_reset(&sl->b, j->ep[i]);
		dsts_of(j, i, dsts);
		ret = j->ops->source(j->ctx, w, dsts, j->n_ep - 1, &sl->b,
				     err, sizeof(err));
		if (!ret && !complete(&sl->b, dsts, j->n_ep - 1)) {
			ret = -EPROTO;
			snprintf(err, sizeof(err),
				 "internal error: the algorithm left out destinations of source %u",
				 j->ep[i]);
		}
		if (!ret)
			ret = seal(sl);
		if (ret) {
			job_fail(j, i, ret, ret == -ENOMEM ?
				 "out of memory" : err);
			break;
		}
		pthread_mutex_lock(&j->lock);
		sl->done = i + 1;
		pthread_cond_broadcast(&j->ready);
		pthread_mutex_unlock(&j->lock);
		/* counted for the progress callback */
		atomic_fetch_add(&j->done, 1);
	}
	j->ops->worker_free(w);
	free(dsts);
}

static void *worker(void *arg)
{
	struct job *j = arg;

	work(j);
	/* wakes the sink's thread at once if this was the last one */
	pthread_mutex_lock(&j->lock);
	j->running--;
	pthread_cond_broadcast(&j->ready);
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

static uint32_t online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > THREADS_MAX ? THREADS_MAX : (uint32_t)n;
}

/* @t plus PROGRESS_NS. */
static void tick_next(struct timespec *t)
{
	t->tv_nsec += PROGRESS_NS;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

/* The slot of source index @i as a route set of its pairs alone. */
static void chunk_of(const struct job *j, const struct slot *sl,
		     const struct sluice_routes *head,
		     struct sluice_routes *chunk)
{
	*chunk = *head;
	chunk->n_pairs = sl->b.n_pairs;
	chunk->pair_src = sl->src;
	chunk->pair_dst = sl->b.pair_dst;
	chunk->pair_path = sl->b.pair_path;
	chunk->n_paths = sl->b.n_paths;
	chunk->path_hop = sl->b.path_hop;
	chunk->path_lane = sl->b.path_lane;
	chunk->n_hops = sl->b.n_hops;
	chunk->hops = sl->b.hops;
	chunk->truncated_pairs = sl->b.truncated_pairs;
	(void)j;
}

/*
 * Hands the sources to the sink in order from the calling thread, as the
 * workers fill their slots; reports progress every PROGRESS_NS meanwhile,
 * waiting on @ready in between so that a filled slot is seen at once
 * rather than at the next tick.  The sink and the callback run without
 * the lock held.
 */
static int emit(struct job *j, const struct sluice_compute_opts *c,
		struct sluice_routes *head, sluice_routes_sink_fn sink,
		void *arg, char *err, size_t errlen)
{
	uint32_t total = j->last - j->first, k, done;
	struct sluice_routes chunk;
	struct timespec tick;
	struct slot *sl;
	bool ready;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &tick);
	tick_next(&tick);
	for (k = 0; k < total; k++) {
		sl = &j->slots[k % j->n_slots];
		pthread_mutex_lock(&j->lock);
		for (;;) {
			ready = sl->done == j->first + k + 1;
			if (ready || atomic_load(&j->failed) || !j->running)
				break;
			if (!c->progress) {
				pthread_cond_wait(&j->ready, &j->lock);
				continue;
			}
			if (pthread_cond_timedwait(&j->ready, &j->lock,
						   &tick) == ETIMEDOUT) {
				done = atomic_load(&j->done);
				pthread_mutex_unlock(&j->lock);
				c->progress(c->progress_arg, done, total);
				tick_next(&tick);
				pthread_mutex_lock(&j->lock);
			}
		}
		pthread_mutex_unlock(&j->lock);
		if (!ready || atomic_load(&j->failed))
			return -ECANCELED;
		chunk_of(j, sl, head, &chunk);
		ret = sink(arg, &chunk, err, errlen);
		if (ret) {
			/* the sink's message stands: no source failed */
			atomic_store(&j->failed, true);
			pthread_mutex_lock(&j->lock);
			pthread_cond_broadcast(&j->room);
			pthread_mutex_unlock(&j->lock);
			return ret;
		}
		head->n_pairs += chunk.n_pairs;
		head->n_paths += chunk.n_paths;
		head->n_hops += chunk.n_hops;
		head->truncated_pairs += chunk.truncated_pairs;
		pthread_mutex_lock(&j->lock);
		j->emitted = k + 1;
		pthread_cond_broadcast(&j->room);
		pthread_mutex_unlock(&j->lock);
	}
	return 0;
}

/* Runs the workers while the calling thread hands their sources over. */
static int run(struct job *j, const struct sluice_compute_opts *c,
	       struct sluice_routes *head, sluice_routes_sink_fn sink,
	       void *arg, char *err, size_t errlen)
{
	uint32_t total = j->last - j->first, n, i, started = 0;
	pthread_t tid[THREADS_MAX];
	int ret;

	n = c->threads ? c->threads : online_cpus();
	if (n > total)
		n = total ? total : 1;
	j->n_slots = 2 * n + 2;
	j->slots = sluice_i_calloc(j->n_slots, sizeof(*j->slots));
	if (!j->slots)
		return no_memory(err, errlen);
	for (i = 0; i < n; i++) {
		/* counted first: a worker may end before create returns */
		pthread_mutex_lock(&j->lock);
		j->running++;
		pthread_mutex_unlock(&j->lock);
		if (pthread_create(&tid[i], NULL, worker, j)) {
			pthread_mutex_lock(&j->lock);
			j->running--;
			pthread_mutex_unlock(&j->lock);
			job_fail(j, 0, -EAGAIN, "cannot start a thread");
			break;
		}
		started++;
	}
	ret = emit(j, c, head, sink, arg, err, errlen);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	if (j->err_ret)
		ret = sluice_i_errf(err, errlen, j->err_ret, "%s", j->err);
	else if (!ret && c->progress)
		c->progress(c->progress_arg, total, total);
	for (i = 0; i < j->n_slots; i++) {
		sluice_path_buf_free(&j->slots[i].b);
		free(j->slots[i].src);
	}
	free(j->slots);
	return ret;
}

/**
 * sluice_routes_compute_stream() - the routes of a fabric, a source at a time
 * @g:		a finalized graph
 * @o:		the algorithm and its options
 * @c:		threads, shard and progress (NULL: all CPUs, the whole set)
 * @head:	filled at once with what a route file's header says but the
 *		totals (algorithm, options, topology, shard), which it counts
 *		as the sources go by: whole once this returns 0
 * @sink:	called for each source, in order, from the calling thread,
 *		with its pairs alone as a route set (arrays valid only during
 *		the call); a non-zero return stops the run and is returned
 * @arg:	@sink's
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * The sources are the endpoints (sluice_graph_endpoints()), or shard i of
 * n: the endpoints from index i * E / n up to (i + 1) * E / n.  The
 * workers run at most 2 T + 2 sources ahead of the sink for T threads, so
 * memory holds that many sources' paths, never the set: the same sources
 * in the same order, the same bytes, for any thread count.
 *
 * Return: 0 or a negative errno.
 */
int sluice_routes_compute_stream(const struct sluice_graph *g,
				 const struct sluice_route_opts *o,
				 const struct sluice_compute_opts *c,
				 struct sluice_routes *head,
				 sluice_routes_sink_fn sink, void *arg,
				 char *err, size_t errlen)
{
	static const struct sluice_compute_opts defaults;
	pthread_condattr_t ca;
	struct job j = { 0 };
	uint32_t shards;
	int ret;

	memset(head, 0, sizeof(*head));
	if (!c)
		c = &defaults;
	if (!g->finalized)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the graph is not finalized");
	if ((unsigned int)o->algo >= SLUICE_ROUTE__COUNT)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "unknown routing algorithm %d", o->algo);
	/* what the route file must be able to hold, whatever the algorithm */
	if ((unsigned int)o->orient > SLUICE_ORIENT_BFS)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "unknown orientation %d", o->orient);
	if (o->has_root && o->root >= g->n_nodes)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "root %u is not a node (0 to %u)",
				     o->root, g->n_nodes - 1);
	if (o->algo == SLUICE_ROUTE_KSP && o->paths > SLUICE_KSP_PATHS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "ksp: k = %u paths: at most %d",
				     o->paths, SLUICE_KSP_PATHS_MAX);
	if (o->lanes > SLUICE_LANES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "lanes %u: at most %d", o->lanes,
				     SLUICE_LANES_MAX);
	if (c->threads > THREADS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "threads: at most %d", THREADS_MAX);
	shards = c->shard_count ? c->shard_count : 1;
	if (c->shard_index >= shards)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "shard %u/%u: the index must be below the count",
				     c->shard_index, shards);
	j.ep = sluice_i_calloc(g->n_nodes, sizeof(*j.ep));
	if (!j.ep)
		return no_memory(err, errlen);
	j.n_ep = sluice_graph_endpoints(g, (uint32_t *)j.ep);
	if (shards > j.n_ep) {
		free((void *)j.ep);
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%u shards for %u sources: at most one shard per source",
				     shards, j.n_ep);
	}
	j.first = (uint64_t)c->shard_index * j.n_ep / shards;
	j.last = (uint64_t)(c->shard_index + 1) * j.n_ep / shards;
	j.ops = algo_ops[o->algo];
	snprintf(head->algo, sizeof(head->algo), "%s",
		 sluice_route_algo_name(o->algo));
	head->opts = *o;
	head->n_nodes = g->n_nodes;
	head->n_links = g->n_links;
	head->topo_hash = sluice_graph_hash(g);
	head->shard_index = c->shard_index;
	head->shard_count = shards;
	atomic_init(&j.next, j.first);
	atomic_init(&j.done, 0);
	atomic_init(&j.failed, false);
	pthread_mutex_init(&j.lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&j.ready, &ca);
	pthread_cond_init(&j.room, &ca);
	pthread_condattr_destroy(&ca);

	ret = j.ops->prepare(g, o, &j.ctx, err, errlen);
	if (!ret) {
		ret = run(&j, c, head, sink, arg, err, errlen);
		j.ops->release(j.ctx);
	}
	free((void *)j.ep);
	pthread_cond_destroy(&j.ready);
	pthread_cond_destroy(&j.room);
	pthread_mutex_destroy(&j.lock);
	return ret;
}

/* Appends a chunk's pairs, paths and hops to a whole route set. */
int sluice_i_collect(void *arg, const struct sluice_routes *chunk, char *err,
		     size_t errlen)
{
	struct sluice_i_collector *cap = arg;
	struct sluice_routes *r = cap->r;
	uint64_t k, pairs = r->n_pairs + chunk->n_pairs;

	if (SLUICE_I_GROW(r->pair_src, cap->pairs, pairs) ||
	    SLUICE_I_GROW(r->pair_dst, cap->pairs2, pairs) ||
	    SLUICE_I_GROW(r->pair_path, cap->pairs3, pairs + 1) ||
	    SLUICE_I_GROW(r->path_hop, cap->paths,
			  r->n_paths + chunk->n_paths + 1) ||
	    SLUICE_I_GROW(r->path_lane, cap->paths2,
			  r->n_paths + chunk->n_paths + 1) ||
	    SLUICE_I_GROW(r->hops, cap->hops, r->n_hops + chunk->n_hops + 1))
		return no_memory(err, errlen);
	if (chunk->n_pairs) {
		memcpy(r->pair_src + r->n_pairs, chunk->pair_src,
		       chunk->n_pairs * sizeof(*r->pair_src));
		memcpy(r->pair_dst + r->n_pairs, chunk->pair_dst,
		       chunk->n_pairs * sizeof(*r->pair_dst));
	}
	for (k = 0; k < chunk->n_pairs; k++)
		r->pair_path[r->n_pairs + k] = r->n_paths + chunk->pair_path[k];
	for (k = 0; k < chunk->n_paths; k++)
		r->path_hop[r->n_paths + k] = r->n_hops + chunk->path_hop[k];
	/* a source without paths has no arrays: no memcpy(NULL) */
	if (chunk->n_paths) {
		memcpy(r->path_lane + r->n_paths, chunk->path_lane,
		       chunk->n_paths);
		memcpy(r->hops + r->n_hops, chunk->hops,
		       chunk->n_hops * sizeof(*r->hops));
	}
	r->n_pairs += chunk->n_pairs;
	r->n_paths += chunk->n_paths;
	r->n_hops += chunk->n_hops;
	r->pair_path[r->n_pairs] = r->n_paths;
	r->path_hop[r->n_paths] = r->n_hops;
	return 0;
}

/*
 * The set sluice_i_collect() gathered gets @head's fields, and its index
 * arrays their ends even when empty.  0 or -ENOMEM.
 */
int sluice_i_collect_end(struct sluice_i_collector *col,
			 const struct sluice_routes *head, char *err,
			 size_t errlen)
{
	struct sluice_routes *r = col->r;

	if (SLUICE_I_GROW(r->pair_path, col->pairs3, r->n_pairs + 1) ||
	    SLUICE_I_GROW(r->path_hop, col->paths, r->n_paths + 1))
		return no_memory(err, errlen);
	r->pair_path[r->n_pairs] = r->n_paths;
	r->path_hop[r->n_paths] = r->n_hops;
	memcpy(r->algo, head->algo, sizeof(r->algo));
	r->opts = head->opts;
	r->n_nodes = head->n_nodes;
	r->n_links = head->n_links;
	r->topo_hash = head->topo_hash;
	r->shard_index = head->shard_index;
	r->shard_count = head->shard_count;
	r->truncated_pairs = head->truncated_pairs;
	return 0;
}

/**
 * sluice_routes_compute() - the routes of a fabric, or of one shard of it
 * @g:		a finalized graph
 * @o:		the algorithm and its options
 * @c:		threads, shard and progress (NULL: all CPUs, the whole set)
 * @r:		filled on success; all zeroes on failure
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * sluice_routes_compute_stream() with every source kept, in order.
 * Memory: the route set, and its arrays' room to grow.
 *
 * Return: 0 or a negative errno.
 */
int sluice_routes_compute(const struct sluice_graph *g,
			  const struct sluice_route_opts *o,
			  const struct sluice_compute_opts *c,
			  struct sluice_routes *r, char *err, size_t errlen)
{
	struct sluice_i_collector col = { .r = r };
	struct sluice_routes head;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = sluice_routes_compute_stream(g, o, c, &head, sluice_i_collect,
					   &col, err, errlen);
	if (!ret)
		ret = sluice_i_collect_end(&col, &head, err, errlen);
	if (ret)
		sluice_routes_free(r);
	return ret;
}

/**
 * sluice_routes_lanes() - how many lanes a route set's paths use
 * @r:	a route set
 *
 * The highest lane of any path plus one; 1 for a set without paths.
 *
 * Return: 1 to SLUICE_LANES_MAX for a validated set.
 */
uint32_t sluice_routes_lanes(const struct sluice_routes *r)
{
	uint32_t lanes = 1;
	uint64_t q;

	for (q = 0; q < r->n_paths; q++)
		if (r->path_lane[q] + 1u > lanes)
			lanes = r->path_lane[q] + 1u;
	return lanes;
}

void sluice_routes_free(struct sluice_routes *r)
{
	free(r->pair_src);
	free(r->pair_dst);
	free(r->pair_path);
	free(r->path_hop);
	free(r->path_lane);
	free(r->hops);
	memset(r, 0, sizeof(*r));
}

/* The node a walk reaches over @link from @at, or UINT32_MAX. */
static uint32_t step(const struct sluice_graph *g, uint32_t link, uint32_t at)
{
	const struct sluice_link *l = &g->links[link];

	if (l->a == at)
		return l->b;
	if (l->b == at)
		return l->a;
	return UINT32_MAX;
}

/* Endpoints are all nodes (@n_ep == n_nodes) or those that carry hosts. */
static bool is_endpoint(const struct sluice_graph *g, uint32_t n_ep,
			uint32_t u)
{
	return n_ep == g->n_nodes || sluice_node_is_endpoint(&g->nodes[u]);
}

static void expect_init(struct sluice_i_expect *x, const uint32_t *ep,
			uint32_t n_ep, uint32_t first, uint32_t last)
{
	x->ep = ep;
	x->n_ep = n_ep;
	x->last = last;
	x->si = first;
	x->di = first ? 0 : 1;
	if (x->di >= n_ep)
		x->si = last;
}

static bool expect_done(const struct sluice_i_expect *x)
{
	return x->si >= x->last;
}

static void expect_next(struct sluice_i_expect *x)
{
	if (++x->di == x->si)
		x->di++;
	if (x->di >= x->n_ep) {
		x->si++;
		x->di = x->si ? 0 : 1;
	}
}

/* Pair (s, d) against the expected one: <0 before it, 0 it, >0 after. */
static int expect_cmp(const struct sluice_i_expect *x, uint32_t s, uint32_t d)
{
	uint32_t es = x->ep[x->si], ed = x->ep[x->di];

	if (s != es)
		return s < es ? -1 : 1;
	return d < ed ? -1 : d > ed;
}

/* The index arrays of @r add up: no reading out of the arrays below. */
static int check_indices(const struct sluice_routes *r, char *err,
			 size_t errlen)
{
	uint64_t p, q;

	for (p = 0; p < r->n_pairs; p++)
		if ((!p && r->pair_path[0]) ||
		    r->pair_path[p + 1] < r->pair_path[p] ||
		    r->pair_path[p + 1] > r->n_paths ||
		    (p + 1 == r->n_pairs && r->pair_path[p + 1] != r->n_paths))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "the path index of pair %llu is not within the %llu paths",
					     (unsigned long long)p,
					     (unsigned long long)r->n_paths);
	if (!r->n_pairs && r->n_paths)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%llu paths but no pair",
				     (unsigned long long)r->n_paths);
	for (q = 0; q < r->n_paths; q++)
		if ((!q && r->path_hop[0]) ||
		    r->path_hop[q + 1] < r->path_hop[q] ||
		    r->path_hop[q + 1] > r->n_hops ||
		    (q + 1 == r->n_paths && r->path_hop[q + 1] != r->n_hops))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "the hop index of path %llu is not within the %llu hops",
					     (unsigned long long)q,
					     (unsigned long long)r->n_hops);
	if (!r->n_paths && r->n_hops)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%llu hops but no path",
				     (unsigned long long)r->n_hops);
	return 0;
}

/*
 * Paths up to this long are checked for a link walked twice against their
 * own hops; longer ones mark the links they walk in an array over every
 * link, which costs a cache miss a hop.
 */
#define SHORT_PATH	16

/*
 * Path @q of pair @p: a walk from its source to its destination.  @no is
 * its index in the whole set, whose stamp (+ 1) marks the directed links
 * it walked in @seen.
 */
static int check_path(const struct sluice_routes *r,
		      const struct sluice_graph *g, uint64_t p, uint64_t q,
		      uint64_t no_set, uint64_t *seen, char *err,
		      size_t errlen)
{
	const char *s = g->nodes[r->pair_src[p]].name;
	const char *d = g->nodes[r->pair_dst[p]].name;
	unsigned long long no = q - r->pair_path[p] + 1;
	uint32_t at = r->pair_src[p], next, link, walked[SHORT_PATH], n = 0, i;
	uint64_t h, len = r->path_hop[q + 1] - r->path_hop[q];
	bool twice;

	if (r->path_lane[q] >= SLUICE_LANES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s %s, path %llu: lane %u is not below %d",
				     s, d, no, r->path_lane[q],
				     SLUICE_LANES_MAX);
	if (!len)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s %s, path %llu: no links", s, d, no);
	if (len > SLUICE_PATH_HOPS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s %s, path %llu: more than %d links",
				     s, d, no, SLUICE_PATH_HOPS_MAX);
	for (h = r->path_hop[q]; h < r->path_hop[q + 1]; h++) {
		link = r->hops[h];
		next = link < g->n_links ? step(g, link, at) : UINT32_MAX;
		if (next == UINT32_MAX)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "%s %s, path %llu: link %u does not leave %s",
					     s, d, no, link, g->nodes[at].name);
		link = 2 * link + (next == g->links[link].a);
		if (len > SHORT_PATH) {
			twice = seen[link] == no_set + 1;
			seen[link] = no_set + 1;
		} else {
			for (i = 0, twice = false; i < n && !twice; i++)
				twice = walked[i] == link;
			walked[n++] = link;
		}
		if (twice)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "%s %s, path %llu: walks link %u from %s twice",
					     s, d, no, r->hops[h],
					     g->nodes[at].name);
		at = next;
	}
	if (at != r->pair_dst[p])
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%s %s, path %llu: ends at %s", s, d, no,
				     g->nodes[at].name);
	return 0;
}

/**
 * sluice_i_checker_init() - check a route set chunk by chunk
 * @ck:		the checker, filled
 * @head:	the set's header: its topology, shard and totals
 * @g:		its topology, finalized
 * @err:	what is wrong with the set as a whole
 * @errlen:	room in @err
 *
 * Then sluice_i_checker_add() for each chunk in order and
 * sluice_i_checker_end(): what sluice_i_routes_check() checks of a whole
 * set, in its order, with a mark per directed link and the endpoints as
 * memory.  sluice_i_checker_free() in every case.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_i_checker_init(struct sluice_i_checker *ck,
			  const struct sluice_routes *head,
			  const struct sluice_graph *g, char *err,
			  size_t errlen)
{
	memset(ck, 0, sizeof(*ck));
	ck->g = g;
	if (head->topo_hash != sluice_graph_hash(g) ||
	    head->n_nodes != g->n_nodes || head->n_links != g->n_links)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the routes were computed for another topology (hash %016llx, this one %016llx)",
				     (unsigned long long)head->topo_hash,
				     (unsigned long long)sluice_graph_hash(g));
	if (head->shard_index >= head->shard_count)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "shard %u/%u: the index must be below the count",
				     head->shard_index, head->shard_count);
	if (head->truncated_pairs > head->n_pairs)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "truncated pairs %llu: more than the %llu pairs",
				     (unsigned long long)head->truncated_pairs,
				     (unsigned long long)head->n_pairs);
	return 0;
}

/* The endpoints and marks, once the set's own checks passed. */
static int checker_start(struct sluice_i_checker *ck,
			 const struct sluice_routes *head, char *err,
			 size_t errlen)
{
	const struct sluice_graph *g = ck->g;

	ck->ep = sluice_i_calloc(g->n_nodes, sizeof(*ck->ep));
	/* seen[d] == q + 1: path q walked directed link d already */
	ck->seen = sluice_i_calloc(2 * (size_t)g->n_links, sizeof(*ck->seen));
	if (!ck->ep || !ck->seen)
		return no_memory(err, errlen);
	ck->n_ep = sluice_graph_endpoints(g, ck->ep);
	if (head->shard_count > ck->n_ep)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "%u shards for %u sources: at most one shard per source",
				     head->shard_count, ck->n_ep);
	ck->shard_index = head->shard_index;
	ck->shard_count = head->shard_count;
	expect_init(&ck->x, ck->ep, ck->n_ep,
		    (uint64_t)head->shard_index * ck->n_ep / head->shard_count,
		    (uint64_t)(head->shard_index + 1) * ck->n_ep /
		    head->shard_count);
	ck->started = true;
	return 0;
}

/**
 * sluice_i_checker_add() - the next chunk of a set
 * @ck:		from sluice_i_checker_init(), which passed
 * @chunk:	the next pairs, a route set of their own (index arrays that
 *		add up: sluice_i_checker_add() trusts them)
 * @at:		set to the pair at fault, counted in the whole set
 * @err:	the first problem
 * @errlen:	room in @err
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_i_checker_add(struct sluice_i_checker *ck,
			 const struct sluice_routes *chunk, uint64_t *at,
			 char *err, size_t errlen)
{
	const struct sluice_graph *g = ck->g;
	uint64_t p, q;
	int ret = 0;

	if (!ck->started) {
		*at = SLUICE_I_AT_SET;
		ret = checker_start(ck, chunk, err, errlen);
		if (ret)
			return ret;
	}
	for (p = 0; p < chunk->n_pairs && !ret; p++) {
		uint32_t s = chunk->pair_src[p], d = chunk->pair_dst[p];
		const char *sn, *dn;

		*at = ck->pairs + p;
		if (s >= g->n_nodes || d >= g->n_nodes || s == d ||
		    !is_endpoint(g, ck->n_ep, s) ||
		    !is_endpoint(g, ck->n_ep, d))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "pair %llu: not two distinct endpoints of the topology",
					     (unsigned long long)*at);
		sn = g->nodes[s].name;
		dn = g->nodes[d].name;
		if (ck->pairs + p && (s < ck->last_s ||
				      (s == ck->last_s && d <= ck->last_d)))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "pair %s %s: out of order", sn, dn);
		if (!expect_done(&ck->x) && expect_cmp(&ck->x, s, d) > 0)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "pair %s %s is missing",
					     g->nodes[ck->ep[ck->x.si]].name,
					     g->nodes[ck->ep[ck->x.di]].name);
		if (expect_done(&ck->x) || expect_cmp(&ck->x, s, d))
			return sluice_i_errf(err, errlen, -EINVAL,
					     "pair %s %s: %s is not a source of shard %u/%u",
					     sn, dn, sn, ck->shard_index,
					     ck->shard_count);
		expect_next(&ck->x);
		for (q = chunk->pair_path[p];
		     q < chunk->pair_path[p + 1] && !ret; q++)
			ret = check_path(chunk, g, p, q, ck->paths + q, ck->seen,
					 err, errlen);
		ck->last_s = s;
		ck->last_d = d;
	}
	ck->pairs += chunk->n_pairs;
	ck->paths += chunk->n_paths;
	return ret;
}

/*
 * sluice_i_checker_end() - no pair missing at the end; @at set to the
 * pair count (where the missing one belongs).  0 or -EINVAL.
 */
int sluice_i_checker_end(struct sluice_i_checker *ck,
			 const struct sluice_routes *head, uint64_t *at,
			 char *err, size_t errlen)
{
	int ret;

	if (!ck->started) {
		*at = SLUICE_I_AT_SET;
		ret = checker_start(ck, head, err, errlen);
		if (ret)
			return ret;
	}
	*at = ck->pairs;
	if (!expect_done(&ck->x))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "pair %s %s is missing",
				     ck->g->nodes[ck->ep[ck->x.si]].name,
				     ck->g->nodes[ck->ep[ck->x.di]].name);
	return 0;
}

void sluice_i_checker_free(struct sluice_i_checker *ck)
{
	free(ck->ep);
	free(ck->seen);
	memset(ck, 0, sizeof(*ck));
}

/**
 * sluice_i_routes_check() - sluice_routes_validate(), saying where
 * @r:		the route set
 * @g:		its topology, finalized
 * @at:		set to the pair at fault: p for pair p, r->n_pairs for a
 *		pair missing at the end, SLUICE_I_AT_SET for the set as a whole
 * @err:	the first problem
 * @errlen:	room in @err
 *
 * Time: O(nodes + pairs + hops).
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_i_routes_check(const struct sluice_routes *r,
			  const struct sluice_graph *g, uint64_t *at,
			  char *err, size_t errlen)
{
	struct sluice_i_checker ck;
	int ret;

	*at = SLUICE_I_AT_SET;
	ret = sluice_i_checker_init(&ck, r, g, err, errlen);
	if (!ret)
		ret = check_indices(r, err, errlen);
	if (!ret)
		ret = sluice_i_checker_add(&ck, r, at, err, errlen);
	if (!ret)
		ret = sluice_i_checker_end(&ck, r, at, err, errlen);
	sluice_i_checker_free(&ck);
	return ret;
}

/**
 * sluice_routes_validate() - check a route set against its topology
 * @r:		the route set
 * @g:		its topology, finalized
 * @err:	the first problem, naming the pair and path
 * @errlen:	room in @err
 *
 * Beyond route.h's list: the shard is possible (one source at least) and
 * holds exactly its pairs, each once, and the index arrays add up.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sluice_routes_validate(const struct sluice_routes *r,
			   const struct sluice_graph *g,
			   char *err, size_t errlen)
{
	uint64_t at;

	return sluice_i_routes_check(r, g, &at, err, errlen);
}
