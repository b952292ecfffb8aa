// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A sink on a thread of its own (sluice/route.h): the chunks of a stream
 * are copied into a ring of a few slots and handed over in order, so that
 * what produces them (a file's parsing and checks) and what takes them
 * (the CBD check, a writer) run at once on two cores.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/route.h>
#include "graph/internal.h"

#define SLOTS	3

struct slot {
	struct sluice_routes	r;
	uint64_t		pairs, pairs2, pairs3, paths, paths2, hops;
};

struct sluice_routes_async {
	sluice_routes_sink_fn	sink;
	void			*arg;
	pthread_t		tid;
	pthread_mutex_t		lock;
	pthread_cond_t		cond;
	struct slot		slot[SLOTS];
	uint32_t		head, count;	/* the next to take, how many */
	bool			ended;	/* no more chunks will come */
	int			ret;	/* the sink's error, which ends it all */
	char			err[SLUICE_ERRLEN];
};

static void *consume(void *arg)
{
	struct sluice_routes_async *a = arg;
	struct slot *sl;
	int ret;

	pthread_mutex_lock(&a->lock);
	for (;;) {
		while (!a->count && !a->ended)
			pthread_cond_wait(&a->cond, &a->lock);
		if (!a->count)
			break;
		sl = &a->slot[a->head];
		pthread_mutex_unlock(&a->lock);
		ret = a->sink(a->arg, &sl->r, a->err, sizeof(a->err));
		pthread_mutex_lock(&a->lock);
		a->head = (a->head + 1) % SLOTS;
		a->count--;
		pthread_cond_broadcast(&a->cond);
		if (ret) {
			a->ret = ret;
			break;
		}
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

/**
 * sluice_routes_async_start() - a sink that runs on a thread of its own
 * @ap:		set to it; sluice_routes_async_end() ends and frees it
 * @sink:	the sink the chunks go to, in order, on that thread
 * @arg:	@sink's
 * @err:	why it failed
 * @errlen:	room in @err
 *
 * Then sluice_routes_async_add() as the stream's sink, with *@ap as its
 * arg: it copies each chunk (the producer may reuse its arrays at once)
 * into one of three slots, waiting while all are full.  Memory: three
 * chunks.
 *
 * Return: 0, -ENOMEM or -EAGAIN (no thread).
 */
int sluice_routes_async_start(struct sluice_routes_async **ap,
			      sluice_routes_sink_fn sink, void *arg,
			      char *err, size_t errlen)
{
	struct sluice_routes_async *a;

	*ap = a = calloc(1, sizeof(*a));
	if (!a)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	a->sink = sink;
	a->arg = arg;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->cond, NULL);
	if (pthread_create(&a->tid, NULL, consume, a)) {
		pthread_cond_destroy(&a->cond);
		pthread_mutex_destroy(&a->lock);
		free(a);
		*ap = NULL;
		return sluice_i_errf(err, errlen, -EAGAIN,
				     "cannot start a thread");
	}
	return 0;
}

/* A copy of @c in @sl, its arrays grown as needed; 0 or -ENOMEM. */
static int copy_chunk(struct slot *sl, const struct sluice_routes *c)
{
	struct sluice_routes *r = &sl->r;

	if (SLUICE_I_GROW(r->pair_src, sl->pairs, c->n_pairs + 1) ||
	    SLUICE_I_GROW(r->pair_dst, sl->pairs2, c->n_pairs + 1) ||
	    SLUICE_I_GROW(r->pair_path, sl->pairs3, c->n_pairs + 1) ||
	    SLUICE_I_GROW(r->path_hop, sl->paths, c->n_paths + 1) ||
	    SLUICE_I_GROW(r->path_lane, sl->paths2, c->n_paths + 1) ||
	    SLUICE_I_GROW(r->hops, sl->hops, c->n_hops + 1))
		return -ENOMEM;
	memcpy(r->algo, c->algo, sizeof(r->algo));
	r->opts = c->opts;
	r->n_nodes = c->n_nodes;
	r->n_links = c->n_links;
	r->topo_hash = c->topo_hash;
	r->shard_index = c->shard_index;
	r->shard_count = c->shard_count;
	r->truncated_pairs = c->truncated_pairs;
	r->n_pairs = c->n_pairs;
	r->n_paths = c->n_paths;
	r->n_hops = c->n_hops;
	/* a chunk without pairs or paths may have NULL arrays */
	if (c->n_pairs) {
		memcpy(r->pair_src, c->pair_src,
		       c->n_pairs * sizeof(uint32_t));
		memcpy(r->pair_dst, c->pair_dst,
		       c->n_pairs * sizeof(uint32_t));
	}
	memcpy(r->pair_path, c->pair_path,
	       (c->n_pairs + 1) * sizeof(uint64_t));
	memcpy(r->path_hop, c->path_hop,
	       (c->n_paths + 1) * sizeof(uint64_t));
	if (c->n_paths)
		memcpy(r->path_lane, c->path_lane, c->n_paths);
	if (c->n_hops)
		memcpy(r->hops, c->hops, c->n_hops * sizeof(uint32_t));
	return 0;
}

/*
 * sluice_routes_async_add() - the next chunk, copied, to the sink's
 * thread: a sluice_routes_sink_fn.  0, -ENOMEM, or the sink's error (its
 * message in @err) once it failed.
 */
int sluice_routes_async_add(void *async, const struct sluice_routes *chunk,
			    char *err, size_t errlen)
{
	struct sluice_routes_async *a = async;
	struct slot *sl;
	int ret;

	pthread_mutex_lock(&a->lock);
	while (a->count == SLOTS && !a->ret)
		pthread_cond_wait(&a->cond, &a->lock);
	ret = a->ret;
	/* the slot after the last full one is the producer's alone */
	sl = &a->slot[(a->head + a->count) % SLOTS];
	pthread_mutex_unlock(&a->lock);
	if (ret)
		return sluice_i_errf(err, errlen, ret, "%s", a->err);
	if (copy_chunk(sl, chunk))
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	pthread_mutex_lock(&a->lock);
	a->count++;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	return 0;
}

/**
 * sluice_routes_async_end() - wait for the sink to take every chunk
 * @a:		from sluice_routes_async_start(), or NULL; freed
 * @err:	the sink's message, if it failed
 * @errlen:	room in @err
 *
 * Return: 0 or the sink's error.
 */
int sluice_routes_async_end(struct sluice_routes_async *a, char *err,
			    size_t errlen)
{
	int ret, i;

	if (!a)
		return 0;
	pthread_mutex_lock(&a->lock);
	a->ended = true;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->tid, NULL);
	ret = a->ret;
	if (ret)
		sluice_i_errf(err, errlen, ret, "%s", a->err);
	for (i = 0; i < SLOTS; i++) {
		free(a->slot[i].r.pair_src);
		free(a->slot[i].r.pair_dst);
		free(a->slot[i].r.pair_path);
		free(a->slot[i].r.path_hop);
		free(a->slot[i].r.path_lane);
		free(a->slot[i].r.hops);
	}
	pthread_cond_destroy(&a->cond);
	pthread_mutex_destroy(&a->lock);
	free(a);
	return ret;
}
