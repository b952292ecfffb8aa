// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flattened Clos (FC): Zhang et al., "Flattened Clos: Designing
 * High-performance Deadlock-free Expander Data Center Networks Using Graph
 * Contraction", NSDI'23.
 *
 * Section 3.1: each of the N ToRs is split into k virtual switches
 * S_i^1..S_i^k; S_i^j has l_j ports to other ToRs, sum l_j = s (Eq. 1).  For
 * j = 1..k-1 a random bipartite graph joins layer j to layer j + 1 in which
 * every virtual switch has degree a_j, so l_1 = a_1, l_j = a_{j-1} + a_j,
 * l_k = a_{k-1} (Eq. 2), and never S_i^j to S_i^{j+1} (the same switch).
 * Section 3.1.1 treats the result as a random s-regular graph: no two ToRs
 * share two links, across all layers.
 *
 * Section 3.2.3: k_min is the smallest k with
 *	(1 + s / (2 (k - 1)))^(k - 1) > sqrt((2 + eps) N ln N)	(Eq. 4)
 * and strategy (*) tries k_min, then k_min + 1 if k_min "is not working".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sluice/topo.h>
#include "wire.h"
#include "graph/internal.h"

/* Pairings tried for one layer before all layers are drawn again. */
#define LAYER_ATTEMPTS	10

static uint32_t max_layers(uint32_t inter_ports)
{
	uint32_t k = inter_ports / 2 + 1;	/* every a_j at least 1 */

	return k < SLUICE_LAYERS_MAX ? k : SLUICE_LAYERS_MAX;
}

/**
 * sluice_fc_kmin() - the smallest k that satisfies Eq. 4 of the FC paper
 * @switches:	N
 * @inter_ports: s
 *
 * Eq. 4 with eps -> 0: (1 + s / (2 (k - 1)))^(k - 1) > sqrt(2 N ln N).  The
 * left side is the most top-layer ancestors a layer-1 virtual switch can
 * have, (a_1 + 1)...(a_{k-1} + 1) with the a_j equal (Eq. 3); Lemma 5
 * says more than the right side give every pair a common ancestor.
 *
 * Return: k_min, at least 2; 0 if no k up to the most layers s allows
 * satisfies Eq. 4.
 */
uint32_t sluice_fc_kmin(uint32_t switches, uint32_t inter_ports)
{
	double n = switches, need = n > 1 ? sqrt(2 * n * log(n)) : 0;
	uint32_t k;

	for (k = 2; k <= max_layers(inter_ports); k++)
		if (pow(1 + inter_ports / (2.0 * (k - 1)), k - 1) > need)
			return k;
	return 0;
}

/**
 * sluice_fc_layer_ports() - the port counts l_1..l_k of k virtual layers
 * @inter_ports: s, even
 * @layers:	k, 2 to min(s / 2 + 1, SLUICE_LAYERS_MAX)
 * @layer_ports: k entries, filled
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * The a_j sum to s / 2 (Eqs. 1, 2) and are as equal as they can be, which
 * maximises Eq. 3's number of up-paths.  The remainder goes to the
 * outermost bipartite graphs, the top one first: a_{k-1}, a_1, a_{k-2}...
 * That reproduces every split the paper uses: s = 18 gives 3,6,6,3 (k = 4)
 * and 2,4,4,5,3 (k = 5); s = 40 gives 7,13,13,7 (k = 4) and 5,10,10,10,5
 * (k = 5) (Tables 2, 6, 7).
 *
 * Return: 0 or -EINVAL.
 */
int sluice_fc_layer_ports(uint32_t inter_ports, uint32_t layers,
			  uint32_t *layer_ports, char *err, size_t errlen)
{
	uint32_t a[SLUICE_LAYERS_MAX], half = inter_ports / 2, q, e, j, t;

	if (inter_ports < 2 || inter_ports % 2)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: inter-ports must be even and at least 2, not %u: each link between two layers takes a port in both",
				     inter_ports);
	if (layers < 2 || layers > max_layers(inter_ports))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: layers must be 2 to %u with %u inter-ports, not %u",
				     max_layers(inter_ports), inter_ports, layers);
	q = half / (layers - 1);
	e = half % (layers - 1);
	for (j = 0; j < layers - 1; j++)
		a[j] = q;
	for (t = 0; t < e; t++)
		a[t % 2 ? t / 2 : layers - 2 - t / 2]++;
	for (j = 0; j < layers; j++)
		layer_ports[j] = (j ? a[j - 1] : 0) + (j < layers - 1 ? a[j] : 0);
	return 0;
}

/* The degrees a_j of the k - 1 bipartite graphs from l_1..l_k (Eq. 2). */
static int degrees_of(const struct sluice_fc_params *p, uint32_t *a,
		      char *err, size_t errlen)
{
	uint32_t k = p->layers, j, sum = 0, prev = 0;

	for (j = 0; j < k; j++) {
		if (p->layer_ports[j] <= prev && j < k - 1)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "fc: layer %u has %u ports and links to layer %u take %u: none go up to layer %u (Eq. 2)",
					     j + 1, p->layer_ports[j], j, prev,
					     j + 2);
		if (j < k - 1)
			a[j] = p->layer_ports[j] - prev;
		else if (p->layer_ports[j] != prev)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "fc: the top layer %u has %u ports but the links from layer %u take %u (l_k = a_{k-1}, Eq. 2)",
					     k, p->layer_ports[j], k - 1, prev);
		prev = j < k - 1 ? a[j] : 0;
		sum += p->layer_ports[j];
	}
	if (sum != p->inter_ports)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: the layer ports add up to %u, not inter-ports %u (Eq. 1)",
				     sum, p->inter_ports);
	return 0;
}

static int check_params(const struct sluice_fc_params *p, char *err,
			size_t errlen)
{
	uint32_t j;

	if (p->switches < 2 || p->switches > SLUICE_NODES_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: switches must be 2 to %u, not %u",
				     SLUICE_NODES_MAX, p->switches);
	if (p->inter_ports < 2 || p->inter_ports % 2)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: inter-ports must be even and at least 2, not %u: each link between two layers takes a port in both",
				     p->inter_ports);
	if (p->inter_ports >= p->switches)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: inter-ports (%u) must be less than switches (%u): no two switches share two links",
				     p->inter_ports, p->switches);
	if ((uint64_t)p->switches * p->inter_ports / 2 > SLUICE_LINKS_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "fc: more than %u links", SLUICE_LINKS_MAX);
	if (p->host_ports > SLUICE_HOSTS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: host-ports must be at most %u, not %u",
				     SLUICE_HOSTS_MAX, p->host_ports);
	if (p->layers > SLUICE_LAYERS_MAX)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: layers must be 2 to %u, not %u",
				     SLUICE_LAYERS_MAX, p->layers);
	if (!p->layers && p->layer_ports[0])
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: layer ports given without layers");
	for (j = p->layers; j < SLUICE_LAYERS_MAX; j++)
		if (p->layer_ports[j])
			return sluice_i_errf(err, errlen, -EINVAL,
					     "fc: layer ports given past layer %u",
					     p->layers);
	return 0;
}

/*
 * The random a-regular bipartite graph between layers j and j + 1: layer
 * j's stubs in switch order against layer j + 1's shuffled, then made
 * simple against every pair already linked (wire.c).
 */
static int wire_layer(struct sluice_rng *r, struct sluice_i_pairs *pairs,
		      uint32_t n, uint32_t a, uint32_t *eu, uint32_t *ev)
{
	uint32_t m = n * a, i, attempt;
	int ret = -EAGAIN;

	for (attempt = 0; attempt < LAYER_ATTEMPTS && ret == -EAGAIN;
	     attempt++) {
		for (i = 0; i < m; i++)
			eu[i] = ev[i] = i / a;
		sluice_rng_shuffle(r, ev, m);
		ret = sluice_i_wire(r, pairs, eu, ev, m, true);
	}
	if (!ret)
		ret = sluice_i_sort_edges(eu, ev, m, false);
	return ret;
}

/*
 * All k - 1 bipartite graphs; edges of layer j come before layer j + 1's.
 * In dense fabrics an early layer can leave a later one no simple wiring:
 * then every layer is drawn again.
 */
static int wire_fc(const struct sluice_fc_params *p, const uint32_t *a,
		   uint32_t *eu, uint32_t *ev, uint8_t *layer)
{
	struct sluice_i_pairs pairs;
	struct sluice_rng r;
	uint32_t j, m, i, attempt;
	int ret = -EAGAIN;

	sluice_rng_seed(&r, p->seed);
	for (attempt = 0; attempt < SLUICE_I_ATTEMPTS && ret == -EAGAIN;
	     attempt++) {
		if (sluice_i_pairs_init(&pairs, p->switches, p->inter_ports))
			return -ENOMEM;
		ret = 0;
		for (j = 0, m = 0; j < p->layers - 1 && !ret; j++) {
			ret = wire_layer(&r, &pairs, p->switches, a[j],
					 eu + m, ev + m);
			for (i = 0; i < p->switches * a[j]; i++)
				layer[m + i] = j + 1;
			m += p->switches * a[j];
		}
		sluice_i_pairs_free(&pairs);
	}
	return ret;
}

static int describe_fc(struct sluice_graph *g, const struct sluice_fc_params *p,
		       char *err, size_t errlen)
{
	static const char *const names[] = {
		"switches", "inter_ports", "host_ports", "layers"
	};
	uint64_t values[] = {
		p->switches, p->inter_ports, p->host_ports, p->layers
	};
	int ret;

	sluice_graph_set_seed(g, p->seed);
	ret = sluice_i_describe(g, "fc", names, values, 4, err, errlen);
	if (!ret)
		ret = sluice_graph_set_layers(g, p->layers, p->layer_ports,
					      err, errlen);
	return ret;
}

/* FC with every layer count fixed: the generator proper. */
static int fc_fixed(struct sluice_graph *g, const struct sluice_fc_params *p,
		    char *err, size_t errlen)
{
	uint32_t a[SLUICE_LAYERS_MAX], m = p->switches * (p->inter_ports / 2);
	uint32_t *eu, *ev;
	uint8_t *layer;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = degrees_of(p, a, err, errlen);
	if (ret)
		return ret;
	eu = sluice_i_calloc(m, sizeof(*eu));
	ev = sluice_i_calloc(m, sizeof(*ev));
	layer = sluice_i_calloc(m, sizeof(*layer));
	ret = eu && ev && layer ? wire_fc(p, a, eu, ev, layer) : -ENOMEM;
	if (!ret)
		ret = sluice_i_build_flat(g, p->switches, p->host_ports, eu, ev,
					  layer, m, err, errlen);
	else if (ret == -EAGAIN)
		sluice_i_errf(err, errlen, ret,
			      "fc: could not wire the layers without parallel links after %d attempts; try another seed or fewer inter-ports",
			      SLUICE_I_ATTEMPTS);
	else
		sluice_i_errf(err, errlen, ret, "out of memory");
	free(eu);
	free(ev);
	free(layer);
	if (!ret)
		ret = describe_fc(g, p, err, errlen);
	if (!ret)
		ret = sluice_graph_finalize(g, err, errlen);
	if (ret)
		sluice_graph_free(g);
	return ret;
}

/* Strategy (*): k_min, then k_min + 1 if some pair has no up-down path. */
static int fc_auto(struct sluice_graph *g, struct sluice_fc_params *p,
		   char *err, size_t errlen)
{
	uint32_t kmin = sluice_fc_kmin(p->switches, p->inter_ports), k;
	bool ok = false;
	int ret = 0;

	if (!kmin)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "fc: no number of layers up to %u satisfies Eq. 4 for %u switches with %u inter-ports; give layers",
				     max_layers(p->inter_ports), p->switches,
				     p->inter_ports);
	for (k = kmin; k <= kmin + 1 && k <= max_layers(p->inter_ports); k++) {
		p->layers = k;
		ret = sluice_fc_layer_ports(p->inter_ports, k, p->layer_ports,
					    err, errlen);
		if (!ret)
			ret = fc_fixed(g, p, err, errlen);
		if (!ret)
			ret = sluice_fc_updown_connected(g, &ok, err, errlen);
		if (ret || ok)
			break;
		sluice_graph_free(g);
	}
	if (ret && g->n_nodes)
		sluice_graph_free(g);
	if (ret || ok)
		return ret;
	memset(g, 0, sizeof(*g));
	return sluice_i_errf(err, errlen, -EAGAIN,
			     "fc: some switch pairs have no virtual up-down path with k_min = %u layers nor with %u (strategy (*)); give layers",
			     kmin, kmin + 1);
}

/**
 * sluice_topo_fc() - a Flattened Clos fabric
 * @g:		the graph, uninitialized
 * @p:		the parameters (struct sluice_fc_params)
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * With @p->layers 0, k follows the paper's strategy (*) (Section 3.2.3):
 * k_min from Eq. 4 (sluice_fc_kmin()); if some ordered switch pair then has
 * no virtual up-down path at all (sluice_fc_updown_connected()), k_min + 1;
 * if that fails too, -EAGAIN.  The topology for a k is the same whether k
 * was given or chosen: each attempt starts from @p->seed.  With layer ports
 * all zero they are derived from k (sluice_fc_layer_ports()).
 *
 * The result is a simple s-regular graph whose links carry the virtual
 * layer of each end (la = j, lb = j + 1) and lie in layer order.
 *
 * Return: 0, -EINVAL, -E2BIG, -EAGAIN or -ENOMEM.
 */
int sluice_topo_fc(struct sluice_graph *g, const struct sluice_fc_params *p,
		   char *err, size_t errlen)
{
	struct sluice_fc_params q = *p;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = check_params(p, err, errlen);
	if (ret)
		return ret;
	if (!q.layers)
		return fc_auto(g, &q, err, errlen);
	if (!q.layer_ports[0]) {
		ret = sluice_fc_layer_ports(q.inter_ports, q.layers,
					    q.layer_ports, err, errlen);
		if (ret)
			return ret;
	}
	return fc_fixed(g, &q, err, errlen);
}

struct bitsets {
	size_t		words;	/* per set */
	uint64_t	*bits;	/* n sets */
};

static uint64_t *row(const struct bitsets *b, uint32_t i)
{
	return b->bits + (size_t)i * b->words;
}

static void or_row(const struct bitsets *dst, uint32_t d,
		   const struct bitsets *src, uint32_t s)
{
	uint64_t *x = row(dst, d);
	const uint64_t *y = row(src, s);
	size_t w;

	for (w = 0; w < dst->words; w++)
		x[w] |= y[w];
}

static bool has_bit(const struct bitsets *b, uint32_t i, uint32_t bit)
{
	return row(b, i)[bit / 64] >> (bit % 64) & 1;
}

/*
 * Climbs one layer: up[y] (layer j + 1) is the set of switches whose layer-1
 * virtual switch reaches S_y^{j+1} going up, through y's own layer j
 * (dashed links) or a link from layer j of another switch.
 */
static void climb(const struct sluice_graph *g, uint32_t j,
		  const struct bitsets *cur, const struct bitsets *up)
{
	uint32_t id;

	memcpy(up->bits, cur->bits, g->n_nodes * up->words * sizeof(uint64_t));
	for (id = 0; id < g->n_links; id++) {
		const struct sluice_link *l = &g->links[id];

		if (l->la == j && l->lb == j + 1)
			or_row(up, l->b, cur, l->a);
		else if (l->lb == j && l->la == j + 1)
			or_row(up, l->a, cur, l->b);
	}
}

/* Whether every pair of switches shares an ancestor in the top layer. */
static bool all_pairs_meet(uint32_t n, const struct bitsets *top,
			   uint64_t *meet)
{
	uint32_t i, t, w;

	for (i = 0; i < n; i++) {
		memset(meet, 0, top->words * sizeof(*meet));
		for (t = 0; t < n; t++)
			if (has_bit(top, t, i))
				for (w = 0; w < top->words; w++)
					meet[w] |= row(top, t)[w];
		for (t = 0; t < n; t++)
			if (!(meet[t / 64] >> (t % 64) & 1))
				return false;
	}
	return true;
}

/**
 * sluice_fc_updown_connected() - whether every switch pair has an up-down path
 * @g:		a finalized FC graph (with layers)
 * @connected:	set to the answer
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * A virtual up-down path from S_i to S_j (Section 3.2.1) climbs from S_i^1
 * to some top-layer S_t^k and comes down to S_j^1; a path that turns lower
 * can climb to the top inside its turning switch.  So FC's routing finds a
 * path for the pair exactly when S_i^1 and S_j^1 share an ancestor in layer
 * k: Lemma 5's event.  This is "working" in strategy (*) at its weakest;
 * the number of edge-disjoint paths per pair is the routing's business.
 *
 * Return: 0, -EINVAL if @g has no layers or is not finalized, -ENOMEM.
 */
int sluice_fc_updown_connected(const struct sluice_graph *g, bool *connected,
			       char *err, size_t errlen)
{
	struct bitsets cur, up, t;
	uint32_t n = g->n_nodes, i, j;
	uint64_t *meet;

	if (!g->finalized || g->n_layers < 2)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "not a finalized FC topology with layers");
	cur.words = up.words = (n + 63) / 64;
	cur.bits = sluice_i_calloc((size_t)n * cur.words, sizeof(uint64_t));
	up.bits = sluice_i_calloc((size_t)n * up.words, sizeof(uint64_t));
	meet = sluice_i_calloc(cur.words, sizeof(uint64_t));
	if (!cur.bits || !up.bits || !meet) {
		free(cur.bits);
		free(up.bits);
		free(meet);
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++)
		row(&cur, i)[i / 64] |= 1ull << (i % 64);
	for (j = 1; j < g->n_layers; j++) {
		climb(g, j, &cur, &up);
		t = cur;
		cur = up;
		up = t;
	}
	*connected = all_pairs_meet(n, &cur, meet);
	free(cur.bits);
	free(up.bits);
	free(meet);
	return 0;
}
