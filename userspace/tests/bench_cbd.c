// SPDX-License-Identifier: GPL-2.0
/*
 * Times sluice_cbd_check() on a synthetic all-pairs route set as large as
 * FC's for a thousand 40-port switches (10^6 pairs, 1.4 * 10^7 paths).
 * Not a unit test, and not built by "make":
 *
 *	make -C userspace libsluice.a && mkdir -p build
 *	cc -O2 -g -std=gnu11 -Wall -Wextra -Werror -Iuserspace/lib \
 *		-o build/bench_cbd userspace/tests/bench_cbd.c \
 *		userspace/libsluice.a -lm
 *	build/bench_cbd wide 1000 40 14 1
 *
 * Arguments: the kind of paths, switches, inter-switch ports, paths per
 * ordered pair, seed.  The topology is a jellyfish; the paths of a pair are
 * random walks of one of these kinds:
 *
 *	updown:	 up*_/down* over a BFS from switch 0, up towards it, then down
 *		 (CBD-free by FC's Theorem 8, so the search visits everything)
 *	wide:	 up*_/down* too, with up towards lower (BFS distance, id):
 *		 each step up is a random one, along the same BFS level a
 *		 quarter of the time, so that every link is used both ways
 *	vlb:	 a random shortest path to a random switch, then a random
 *		 shortest path on (Valiant; has CBDs, so a witness is named)
 *	shortest: random shortest paths
 *
 * Prints the set's size, the check's wall time, and its peak memory beyond
 * the route set's (VmHWM, reset just before, and after).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sluice/cbd.h>
#include <sluice/graph.h>
#include <sluice/rng.h>
#include <sluice/route.h>
#include <sluice/topo.h>

static char err[SLUICE_ERRLEN];

static void *xalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}

/* Makes VmHWM the current resident set size (Linux 4.0 on). */
static void reset_hwm(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");

	if (f) {
		fputs("5", f);
		fclose(f);
	}
}

/* Peak resident set size so far, in kB. */
static long vm_hwm(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			kb = strtol(line + 6, NULL, 10);
	fclose(f);
	return kb;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * A uniformly random neighbour v of @u with @d[v] + 1 == @d[u] (one step
 * closer to wherever @d measures from); appends its link to @links.
 */
static uint32_t closer(const struct sluice_graph *g, const uint8_t *d,
		       struct sluice_rng *rng, uint32_t u, uint32_t *links,
		       uint32_t *n)
{
	uint32_t x, c = 0, pick = 0;

	for (x = g->off[u]; x < g->off[u + 1]; x++)
		if (d[g->adj[x].peer] + 1 == d[u] &&
		    !sluice_rng_below(rng, ++c))
			pick = x;
	links[(*n)++] = g->adj[pick].link;
	return g->adj[pick].peer;
}

/*
 * A random walk from @u up to the root (@d: distances to it), up being
 * towards lower (distance, id): a step along a level with probability 1/4.
 */
static void up_wide(const struct sluice_graph *g, const uint8_t *d,
		    struct sluice_rng *rng, uint32_t u, uint32_t *links,
		    uint32_t *n)
{
	uint32_t x, c, pick;

	while (d[u]) {
		c = 0;
		pick = UINT32_MAX;
		if (sluice_rng_below(rng, 4) == 0)
			for (x = g->off[u]; x < g->off[u + 1]; x++)
				if (d[g->adj[x].peer] == d[u] &&
				    g->adj[x].peer < u &&
				    !sluice_rng_below(rng, ++c))
					pick = x;
		if (pick == UINT32_MAX) {
			u = closer(g, d, rng, u, links, n);
			continue;
		}
		links[(*n)++] = g->adj[pick].link;
		u = g->adj[pick].peer;
	}
}

/* A random shortest walk from @u to @t (@dist: rows of distances to t). */
static void shortest(const struct sluice_graph *g, const uint8_t *dist,
		     struct sluice_rng *rng, uint32_t u, uint32_t t,
		     uint32_t *links, uint32_t *n)
{
	const uint8_t *d = dist + (size_t)t * g->n_nodes;

	while (u != t)
		u = closer(g, d, rng, u, links, n);
}

/* One random path of @kind from @u to @v into @links; returns its length. */
static uint32_t one_path(const char *kind, const struct sluice_graph *g,
			 const uint8_t *dist, struct sluice_rng *rng,
			 uint32_t u, uint32_t v, uint32_t *links)
{
	bool wide = !strcmp(kind, "wide");
	uint32_t n = 0, m, i, t;

	if (wide || !strcmp(kind, "updown")) {
		/* up to 0, then down: v's walk up to 0, reversed */
		if (wide)
			up_wide(g, dist, rng, u, links, &n);
		else
			shortest(g, dist, rng, u, 0, links, &n);
		m = n;
		if (wide)
			up_wide(g, dist, rng, v, links, &n);
		else
			shortest(g, dist, rng, v, 0, links, &n);
		for (i = 0; i < (n - m) / 2; i++) {
			t = links[m + i];
			links[m + i] = links[n - 1 - i];
			links[n - 1 - i] = t;
		}
	} else if (!strcmp(kind, "vlb")) {
		t = sluice_rng_below(rng, g->n_nodes);
		shortest(g, dist, rng, u, t, links, &n);
		shortest(g, dist, rng, t, v, links, &n);
	} else {
		shortest(g, dist, rng, u, v, links, &n);
	}
	return n;
}

int main(int argc, char **argv)
{
	const char *kind = argc > 1 ? argv[1] : "updown";
	uint32_t N = argc > 2 ? atoi(argv[2]) : 1000;
	uint32_t s = argc > 3 ? atoi(argv[3]) : 40;
	uint32_t k = argc > 4 ? atoi(argv[4]) : 14;
	uint64_t seed = argc > 5 ? strtoull(argv[5], NULL, 0) : 1;
	uint32_t *queue, *d32, u, v, i, n, links[256];
	struct sluice_cbd_result res;
	struct sluice_routes r;
	struct sluice_graph g;
	struct sluice_rng rng;
	uint64_t cap_hops, p;
	uint8_t *dist;
	long hwm0, hwm1;
	double t0, t1;
	int ret;

	if (sluice_topo_jellyfish(&g, N, s, 1, seed, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	/* dist[t * N + u]: hops from u to t (diameters are small) */
	dist = xalloc((size_t)N * N);
	queue = xalloc(N * sizeof(*queue));
	d32 = xalloc(N * sizeof(*d32));
	for (v = 0; v < N; v++) {
		sluice_graph_bfs(&g, v, d32, queue);
		for (u = 0; u < N; u++)
			dist[(size_t)v * N + u] = d32[u] > 250 ? 250 : d32[u];
	}
	sluice_rng_seed(&rng, seed);
	memset(&r, 0, sizeof(r));
	r.n_nodes = g.n_nodes;
	r.n_links = g.n_links;
	r.shard_count = 1;
	r.n_pairs = (uint64_t)N * (N - 1);
	r.pair_src = xalloc(r.n_pairs * sizeof(*r.pair_src));
	r.pair_dst = xalloc(r.n_pairs * sizeof(*r.pair_dst));
	r.pair_path = xalloc((r.n_pairs + 1) * sizeof(*r.pair_path));
	r.path_hop = xalloc((r.n_pairs * k + 1) * sizeof(*r.path_hop));
	r.path_lane = xalloc(r.n_pairs * k + 1);
	cap_hops = r.n_pairs * k * 6;
	r.hops = xalloc(cap_hops * sizeof(*r.hops));
	p = 0;
	t0 = now();
	for (u = 0; u < N; u++)
		for (v = 0; v < N; v++) {
			if (u == v)
				continue;
			r.pair_src[p] = u;
			r.pair_dst[p] = v;
			r.pair_path[p++] = r.n_paths;
			for (i = 0; i < k; i++) {
				n = one_path(kind, &g, dist, &rng, u, v, links);
				if (r.n_hops + n > cap_hops) {
					cap_hops *= 2;
					r.hops = realloc(r.hops, cap_hops *
							 sizeof(*r.hops));
					if (!r.hops)
						return 1;
				}
				if (!n) {	/* updown/vlb through u == v */
					fprintf(stderr, "empty walk\n");
					return 1;
				}
				memcpy(r.hops + r.n_hops, links, 4 * n);
				r.path_hop[r.n_paths] = r.n_hops;
				r.path_lane[r.n_paths++] = 0;
				r.n_hops += n;
			}
		}
	r.pair_path[p] = r.n_paths;
	r.path_hop[r.n_paths] = r.n_hops;
	t1 = now();
	printf("jellyfish N=%u s=%u seed=%llu, %s x %u: %llu pairs, %llu paths, %llu hops (%.2f per path), built in %.1f s\n",
	       N, s, (unsigned long long)seed, kind, k,
	       (unsigned long long)r.n_pairs, (unsigned long long)r.n_paths,
	       (unsigned long long)r.n_hops,
	       (double)r.n_hops / r.n_paths, t1 - t0);
	free(dist);
	free(queue);
	free(d32);
	reset_hwm();
	hwm0 = vm_hwm();
	t0 = now();
	ret = sluice_cbd_check(&g, &r, &res, err, sizeof(err));
	t1 = now();
	hwm1 = vm_hwm();
	if (ret) {
		fprintf(stderr, "cbd: %s\n", err);
		return 1;
	}
	printf("check: %.3f s (%.2f ns per hop), peak memory +%ld kB (VmHWM %ld -> %ld kB)\n",
	       t1 - t0, (t1 - t0) * 1e9 / r.n_hops, hwm1 - hwm0, hwm0, hwm1);
	printf("cbd_free=%d link_lanes=%llu dependencies=%llu cycle=%u\n",
	       res.cbd_free, (unsigned long long)res.link_lanes,
	       (unsigned long long)res.dependencies, res.n_cycle);
	for (i = 0; i < res.n_cycle; i++)
		printf("  link %u %s -> %s lane %u, path %llu\n",
		       res.cycle[i].link, g.nodes[res.cycle[i].from].name,
		       g.nodes[res.cycle[i].to].name, res.cycle[i].lane,
		       (unsigned long long)res.cycle[i].path);
	sluice_cbd_result_free(&res);
	free(r.pair_src);
	free(r.pair_dst);
	free(r.pair_path);
	free(r.path_hop);
	free(r.path_lane);
	free(r.hops);
	sluice_graph_free(&g);
	return 0;
}
