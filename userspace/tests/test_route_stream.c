// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Route sets streamed a chunk at a time (sluice/route.h, sluice/cbd.h)
 * against the same sets whole: computed a source at a time on 1 and 3
 * threads and written in pieces, read back in chunks of 4096 pairs (a
 * sink's refusal, a broken walk past the first chunk), checked for CBDs a
 * source at a time (a cycle whose paths, of several sources, are named in
 * a second stream) and summarised, also through a sink on a thread of
 * its own, on ECMP over an 80-switch jellyfish (6320 pairs); the bytes,
 * the verdicts, the witness and the statistics must be the whole set's.
 * Clean under memcheck and helgrind.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/cbd.h>
#include <sluice/graph.h>
#include <sluice/route.h>
#include <sluice/topo.h>
#include "ktap.h"

static char err[SLUICE_ERRLEN];

/* A file's bytes in memory. */
struct text {
	char	*buf;
	size_t	len;
	FILE	*f;
};

static void text_open(struct text *t)
{
	memset(t, 0, sizeof(*t));
	t->f = open_memstream(&t->buf, &t->len);
	if (!t->f)
		abort();
}

static void text_close(struct text *t)
{
	fclose(t->f);
	t->f = NULL;
}

/* What a streaming writer needs: the topology and its pairs' file. */
struct writer {
	const struct sluice_graph	*g;
	struct text			pairs;
	uint32_t			chunks;
};

static int write_chunk(void *arg, const struct sluice_routes *chunk,
		       char *e, size_t elen)
{
	struct writer *w = arg;
	struct sluice_routes_pairs_out o = { .g = w->g, .f = w->pairs.f };

	w->chunks++;
	return sluice_routes_pairs_sink(&o, chunk, e, elen);
}

/* The whole set's file, as sluicectl route compute writes it. */
static int streamed_file(const struct sluice_graph *g,
			 const struct sluice_route_opts *o, uint32_t threads,
			 struct text *out, uint32_t *chunks)
{
	struct sluice_compute_opts c = { .threads = threads };
	struct sluice_routes head;
	struct writer w = { .g = g };
	int ret;

	text_open(&w.pairs);
	ret = sluice_routes_compute_stream(g, o, &c, &head, write_chunk, &w,
					   err, sizeof(err));
	text_close(&w.pairs);
	text_open(out);
	if (!ret)
		ret = sluice_routes_write_head(&head, g, out->f, err,
					       sizeof(err));
	if (!ret)
		fwrite(w.pairs.buf, 1, w.pairs.len, out->f);
	if (!ret)
		ret = sluice_routes_write_end(out->f, err, sizeof(err));
	text_close(out);
	free(w.pairs.buf);
	*chunks = w.chunks;
	return ret;
}

static int whole_file(const struct sluice_graph *g,
		      const struct sluice_routes *r, struct text *out)
{
	int ret;

	text_open(out);
	ret = sluice_routes_write(r, g, out->f, err, sizeof(err));
	text_close(out);
	return ret;
}

static FILE *reading(const struct text *t)
{
	FILE *f = fmemopen(t->buf, t->len, "r");

	if (!f)
		abort();
	return f;
}

/* ECMP on a jellyfish of 80 switches: 6320 pairs, and a CBD. */
static int jellyfish(struct sluice_graph *g)
{
	int ret = sluice_topo_jellyfish(g, 80, 6, 1, 5, err, sizeof(err));

	if (ret)
		ktap_diag("jellyfish: %s", err);
	return ret;
}

static const struct sluice_route_opts ecmp = { .algo = SLUICE_ROUTE_ECMP };

/* Computed a source at a time, written in pieces: the whole set's bytes. */
static void test_compute(void)
{
	struct sluice_routes r;
	struct sluice_graph g;
	struct text whole, t;
	uint32_t threads, chunks;

	if (!KTAP_EXPECT_INT(jellyfish(&g), 0))
		goto out;
	if (!KTAP_EXPECT_INT(sluice_routes_compute(&g, &ecmp, NULL, &r, err,
						   sizeof(err)), 0))
		goto graph;
	KTAP_EXPECT_INT(whole_file(&g, &r, &whole), 0);
	for (threads = 1; threads <= 3; threads += 2) {
		KTAP_EXPECT_INT(streamed_file(&g, &ecmp, threads, &t, &chunks),
				0);
		/* a chunk a source */
		KTAP_EXPECT_INT(chunks, 80);
		if (!KTAP_EXPECT(t.len == whole.len &&
				 !memcmp(t.buf, whole.buf, t.len)))
			ktap_diag("%u threads: %zu bytes, the whole set's %zu",
				  threads, t.len, whole.len);
		free(t.buf);
	}
	free(whole.buf);
	sluice_routes_free(&r);
graph:
	sluice_graph_free(&g);
out:
	ktap_result("compute: a source at a time on 1 and 3 threads, the whole set's bytes");
}

/* Counts chunks and pairs, and gathers the set back. */
struct counter {
	uint32_t		chunks;
	uint64_t		pairs, paths, hops;
	int			fail_at;	/* the chunk to refuse, or -1 */
};

static int count_chunk(void *arg, const struct sluice_routes *chunk,
		       char *e, size_t elen)
{
	struct counter *c = arg;

	if ((int)c->chunks == c->fail_at) {
		snprintf(e, elen, "refused by the test");
		return -ECANCELED;
	}
	c->chunks++;
	c->pairs += chunk->n_pairs;
	c->paths += chunk->n_paths;
	c->hops += chunk->n_hops;
	return chunk->pair_path[chunk->n_pairs] == chunk->n_paths &&
	       chunk->path_hop[chunk->n_paths] == chunk->n_hops ? 0 : -EDOM;
}

/*
 * Read back in chunks of 4096 pairs: the header's totals, chunks that add
 * up, a sink's refusal stopping the read with its message, and a bad line
 * after the first chunk refused with its line though the sink had that
 * chunk.
 */
static void test_read(void)
{
	struct counter c = { .fail_at = -1 };
	struct sluice_routes r, head, whole;
	struct sluice_graph g;
	struct text t;
	char *bad;
	FILE *f;

	if (!KTAP_EXPECT_INT(jellyfish(&g), 0))
		goto out;
	if (!KTAP_EXPECT_INT(sluice_routes_compute(&g, &ecmp, NULL, &whole,
						   err, sizeof(err)), 0))
		goto graph;
	KTAP_EXPECT_INT(whole_file(&g, &whole, &t), 0);
	f = reading(&t);
	KTAP_EXPECT_INT(sluice_routes_read_stream(&g, f, "t", &head,
						  count_chunk, &c, err,
						  sizeof(err)), 0);
	fclose(f);
	/* 6320 pairs: 4096 and 2224 */
	KTAP_EXPECT_INT(c.chunks, 2);
	KTAP_EXPECT_INT(c.pairs, 6320);
	KTAP_EXPECT_INT(head.n_pairs, 6320);
	KTAP_EXPECT_INT(c.paths, whole.n_paths);
	KTAP_EXPECT_INT(c.hops, whole.n_hops);
	KTAP_EXPECT_INT(head.n_paths, whole.n_paths);
	KTAP_EXPECT_INT(head.topo_hash, sluice_graph_hash(&g));
	/* the whole read gathers the same set */
	f = reading(&t);
	if (KTAP_EXPECT_INT(sluice_routes_read(&r, &g, f, "t", err,
					       sizeof(err)), 0)) {
		KTAP_EXPECT_INT(r.n_pairs, whole.n_pairs);
		KTAP_EXPECT(!memcmp(r.hops, whole.hops,
				    whole.n_hops * sizeof(*r.hops)));
		KTAP_EXPECT(!memcmp(r.pair_path, whole.pair_path,
				    (whole.n_pairs + 1) * sizeof(*r.pair_path)));
		sluice_routes_free(&r);
	}
	fclose(f);
	/* the sink's refusal stops the read, with its message */
	memset(&c, 0, sizeof(c));
	c.fail_at = 1;
	f = reading(&t);
	KTAP_EXPECT_INT(sluice_routes_read_stream(&g, f, "t", &head,
						  count_chunk, &c, err,
						  sizeof(err)), -ECANCELED);
	KTAP_EXPECT_STR(err, "refused by the test");
	KTAP_EXPECT_INT(c.chunks, 1);
	fclose(f);
	/*
	 * A broken walk in the second chunk, the counts kept: every link of
	 * line 5000 made link 0.  Refused with its line, once the file is
	 * read through; the sink had the first chunk, not the second.
	 */
	bad = malloc(t.len + 1);
	if (bad) {
		const char *line = t.buf, *end;
		size_t n = 0;
		int i;

		for (i = 1; i < 5000; i++)
			line = strchr(line, '\n') + 1;
		end = strchr(line, '\n');
		memcpy(bad, t.buf, line - t.buf);
		n = line - t.buf;
		for (; *line != ':'; line++)
			bad[n++] = *line;
		for (; line < end; line++) {
			if (*line >= '0' && *line <= '9') {
				while (line[1] >= '0' && line[1] <= '9')
					line++;
				bad[n++] = '0';
			} else {
				bad[n++] = *line;
			}
		}
		memcpy(bad + n, end, t.buf + t.len - end);
		n += t.buf + t.len - end;
		memset(&c, 0, sizeof(c));
		c.fail_at = -1;
		f = fmemopen(bad, n, "r");
		KTAP_EXPECT_INT(sluice_routes_read_stream(&g, f, "t", &head,
							  count_chunk, &c,
							  err, sizeof(err)),
				-EINVAL);
		KTAP_EXPECT(!strncmp(err, "t:5000: ", 8) &&
			    strstr(err, ", path 1: link 0 "));
		ktap_diag("%s", err);
		KTAP_EXPECT_INT(c.chunks, 1);
		fclose(f);
		free(bad);
	}
	free(t.buf);
	sluice_routes_free(&whole);
graph:
	sluice_graph_free(&g);
out:
	ktap_result("read: chunks of 4096 pairs that add up, a sink's refusal, a bad line after a chunk");
}

/* The statistics, fed the chunks of a read. */
static int stats_chunk(void *arg, const struct sluice_routes *chunk,
		       char *e, size_t elen)
{
	return sluice_route_stats_add(arg, chunk, e, elen);
}

/*
 * The CBD check of a set computed a source at a time (a chunk a source),
 * and its statistics read in two chunks, against the whole set's: the
 * same verdict and sizes, the same cycle, each hop's path named by a
 * second stream of the same chunks, the same sums.
 */
static void test_cbd_stats(void)
{
	struct sluice_cbd_result whole_res, res;
	struct sluice_route_stats whole_st, st;
	struct sluice_route_stats_stream *sts = NULL;
	struct sluice_cbd_stream *cbd = NULL;
	struct sluice_cbd_witness wt;
	struct sluice_routes r, head;
	struct sluice_graph g;
	uint64_t first = UINT64_MAX, last = 0;
	struct text t;
	uint32_t i;
	FILE *f;

	memset(&res, 0, sizeof(res));
	if (!KTAP_EXPECT_INT(jellyfish(&g), 0))
		goto out;
	if (!KTAP_EXPECT_INT(sluice_routes_compute(&g, &ecmp, NULL, &r, err,
						   sizeof(err)), 0))
		goto graph;
	KTAP_EXPECT_INT(sluice_cbd_check(&g, &r, &whole_res, err, sizeof(err)),
			0);
	KTAP_EXPECT_INT(sluice_route_stats(&r, &g, &whole_st, err, sizeof(err)),
			0);
	/* ECMP on an expander deadlocks: a cycle to name */
	KTAP_EXPECT(!whole_res.cbd_free && whole_res.n_cycle >= 2);

	KTAP_EXPECT_INT(sluice_cbd_stream_start(&cbd, &g, &r, err, sizeof(err)),
			0);
	KTAP_EXPECT_INT(sluice_routes_compute_stream(&g, &ecmp, NULL, &head,
						     sluice_cbd_stream_add,
						     cbd, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_cbd_stream_end(cbd, &res, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(res.cbd_free, whole_res.cbd_free);
	KTAP_EXPECT_INT(res.link_lanes, whole_res.link_lanes);
	KTAP_EXPECT_INT(res.dependencies, whole_res.dependencies);
	KTAP_EXPECT_INT(res.n_cycle, whole_res.n_cycle);
	wt.s = cbd;
	wt.res = &res;
	KTAP_EXPECT_INT(sluice_routes_compute_stream(&g, &ecmp, NULL, &head,
						     sluice_cbd_stream_witness,
						     &wt, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_cbd_stream_witness_end(cbd, &res, err,
						      sizeof(err)), 0);
	for (i = 0; i < res.n_cycle && i < whole_res.n_cycle; i++) {
		KTAP_EXPECT_INT(res.cycle[i].link, whole_res.cycle[i].link);
		KTAP_EXPECT_INT(res.cycle[i].from, whole_res.cycle[i].from);
		KTAP_EXPECT_INT(res.cycle[i].path, whole_res.cycle[i].path);
		if (res.cycle[i].path < first)
			first = res.cycle[i].path;
		if (res.cycle[i].path > last)
			last = res.cycle[i].path;
	}
	/* paths of two sources at least: chunks crossed */
	KTAP_EXPECT(r.pair_src[sluice_routes_path_pair(&r, first)] !=
		    r.pair_src[sluice_routes_path_pair(&r, last)]);
	ktap_diag("a cycle of %u hops, by paths %llu to %llu of %llu",
		  res.n_cycle, (unsigned long long)first,
		  (unsigned long long)last, (unsigned long long)r.n_paths);

	KTAP_EXPECT_INT(whole_file(&g, &r, &t), 0);
	KTAP_EXPECT_INT(sluice_route_stats_start(&sts, &g, &r, &st, err,
						 sizeof(err)), 0);
	f = reading(&t);
	KTAP_EXPECT_INT(sluice_routes_read_stream(&g, f, "t", &head,
						  stats_chunk, sts, err,
						  sizeof(err)), 0);
	fclose(f);
	sluice_route_stats_end(sts);
	KTAP_EXPECT(!memcmp(&st, &whole_st, sizeof(st)));
	sluice_cbd_result_free(&res);
	sluice_cbd_result_free(&whole_res);
	sluice_cbd_stream_free(cbd);
	sluice_route_stats_free(sts);
	free(t.buf);
	sluice_routes_free(&r);
graph:
	sluice_graph_free(&g);
out:
	ktap_result("cbd a chunk a source, stats in two chunks: the whole set's verdict, cycle, witness and sums");
}

/*
 * A sink on a thread of its own: the same chunks in the same order (their
 * totals, the statistics' sums), and a refusal there stopping the read.
 */
static void test_async(void)
{
	struct counter c = { .fail_at = -1 };
	struct sluice_route_stats_stream *sts = NULL;
	struct sluice_route_stats whole_st, st;
	struct sluice_routes_async *as;
	struct sluice_routes r, head;
	struct sluice_graph g;
	struct text t;
	FILE *f;
	int ret;

	if (!KTAP_EXPECT_INT(jellyfish(&g), 0))
		goto out;
	if (!KTAP_EXPECT_INT(sluice_routes_compute(&g, &ecmp, NULL, &r, err,
						   sizeof(err)), 0))
		goto graph;
	KTAP_EXPECT_INT(sluice_route_stats(&r, &g, &whole_st, err, sizeof(err)),
			0);
	KTAP_EXPECT_INT(whole_file(&g, &r, &t), 0);
	/* the statistics, fed on their own thread */
	KTAP_EXPECT_INT(sluice_route_stats_start(&sts, &g, &r, &st, err,
						 sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_routes_async_start(&as, stats_chunk, sts, err,
						  sizeof(err)), 0);
	f = reading(&t);
	ret = sluice_routes_read_stream(&g, f, "t", &head,
					sluice_routes_async_add, as, err,
					sizeof(err));
	fclose(f);
	KTAP_EXPECT_INT(ret, 0);
	KTAP_EXPECT_INT(sluice_routes_async_end(as, err, sizeof(err)), 0);
	sluice_route_stats_end(sts);
	KTAP_EXPECT(!memcmp(&st, &whole_st, sizeof(st)));
	sluice_route_stats_free(sts);
	/* every chunk of a computed set, a chunk a source, in order */
	KTAP_EXPECT_INT(sluice_routes_async_start(&as, count_chunk, &c, err,
						  sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_routes_compute_stream(&g, &ecmp, NULL, &head,
						     sluice_routes_async_add,
						     as, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(sluice_routes_async_end(as, err, sizeof(err)), 0);
	KTAP_EXPECT_INT(c.chunks, 80);
	KTAP_EXPECT_INT(c.pairs, r.n_pairs);
	KTAP_EXPECT_INT(c.hops, r.n_hops);
	/* a refusal on the sink's thread stops the read with its message */
	memset(&c, 0, sizeof(c));
	c.fail_at = 1;
	KTAP_EXPECT_INT(sluice_routes_async_start(&as, count_chunk, &c, err,
						  sizeof(err)), 0);
	f = reading(&t);
	ret = sluice_routes_read_stream(&g, f, "t", &head,
					sluice_routes_async_add, as, err,
					sizeof(err));
	fclose(f);
	/* the read may end before the sink's thread refuses: then at end */
	if (!ret)
		ret = sluice_routes_async_end(as, err, sizeof(err));
	else
		sluice_routes_async_end(as, NULL, 0);
	KTAP_EXPECT_INT(ret, -ECANCELED);
	KTAP_EXPECT_STR(err, "refused by the test");
	KTAP_EXPECT_INT(c.chunks, 1);
	free(t.buf);
	sluice_routes_free(&r);
graph:
	sluice_graph_free(&g);
out:
	ktap_result("async: a sink on its own thread, the same chunks and sums, a refusal stopping the read");
}

static void (*const tests[])(void) = {
	test_compute,
	test_read,
	test_cbd_stats,
	test_async,
};

int main(void)
{
	size_t i;

	ktap_plan(ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i]();
	return ktap_exit();
}
