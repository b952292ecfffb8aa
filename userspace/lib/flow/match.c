// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Maximum-weight perfect matching of a complete bipartite graph (the
 * assignment problem), for the near-worst traffic matrix: the Hungarian
 * method in its O(n^3) form - rows added one at a time, each by a shortest
 * augmenting path under reduced costs, with row and column potentials kept
 * feasible (Kuhn, Munkres; the shortest-path formulation of Jonker and
 * Volgenant).  Integer weights, so the optimum is exact and the same on
 * every machine.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sluice/flow.h>
#include "graph/internal.h"

/* Rows and columns are 1-based inside; column 0 is the search's root. */
struct hungarian {
	uint32_t	n;
	const int64_t	*cost;		/* n x n, to minimise */
	int64_t		*row_pot;	/* n + 1 */
	int64_t		*col_pot;	/* n + 1 */
	int64_t		*slack;		/* n + 1: least reduced cost seen */
	uint32_t	*col_row;	/* n + 1: the row matched to a column */
	uint32_t	*prev;		/* n + 1: the tree edge into a column */
	uint8_t		*used;		/* n + 1 */
};

static int64_t cost_at(const struct hungarian *h, uint32_t row, uint32_t col)
{
	return h->cost[(size_t)(row - 1) * h->n + (col - 1)];
}

/*
 * Matches row @row: grows a tree of tight edges from it, raising the
 * potentials by the least slack until a free column is reached, then flips
 * the path.  O(n^2).
 */
static void add_row(struct hungarian *h, uint32_t row)
{
	uint32_t n = h->n, col = 0, next = 0, j, r;
	int64_t delta, cur;

	h->col_row[0] = row;
	for (j = 0; j <= n; j++) {
		h->slack[j] = INT64_MAX;
		h->used[j] = 0;
	}
	do {
		h->used[col] = 1;
		r = h->col_row[col];
		delta = INT64_MAX;
		for (j = 1; j <= n; j++) {
			if (h->used[j])
				continue;
			cur = cost_at(h, r, j) - h->row_pot[r] - h->col_pot[j];
			if (cur < h->slack[j]) {
				h->slack[j] = cur;
				h->prev[j] = col;
			}
			if (h->slack[j] < delta) {
				delta = h->slack[j];
				next = j;
			}
		}
		for (j = 0; j <= n; j++) {
			if (h->used[j]) {
				h->row_pot[h->col_row[j]] += delta;
				h->col_pot[j] -= delta;
			} else {
				h->slack[j] -= delta;
			}
		}
		col = next;
	} while (h->col_row[col]);
	/* flip the augmenting path back to the root */
	do {
		next = h->prev[col];
		h->col_row[col] = h->col_row[next];
		col = next;
	} while (col);
}

/**
 * sluice_max_matching() - the permutation of largest total weight
 * @n:		rows and columns, at least 1
 * @weight:	n x n, row-major: weight[i n + j] of matching row i to
 *		column j; |weight| at most 2^40 (the potentials stay far
 *		from overflowing)
 * @match:	n entries: the column of each row
 * @total:	the sum of the chosen weights
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * Ties go the same way on every machine (the method is deterministic).
 *
 * Return: 0, -EINVAL, -E2BIG (more than SLUICE_MATCHING_MAX rows) or
 * -ENOMEM.
 */
int sluice_max_matching(uint32_t n, const int64_t *weight, uint32_t *match,
			int64_t *total, char *err, size_t errlen)
{
	const int64_t limit = (int64_t)1 << 40;
	struct hungarian h = { .n = n };
	size_t nn = (size_t)n * n, i;
	int64_t *cost;
	uint32_t j;
	bool ok;

	if (!n)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "matching: no rows");
	/* rows are numbered 1..n in uint32_t, and n^2 weights must fit */
	if (n > SLUICE_MATCHING_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "matching: %u rows, at most %u", n,
				     SLUICE_MATCHING_MAX);
	for (i = 0; i < nn; i++)
		if (weight[i] > limit || weight[i] < -limit)
			return sluice_i_errf(err, errlen, -EINVAL,
					     "matching: weight[%u][%u] is beyond +-2^40",
					     (uint32_t)(i / n), (uint32_t)(i % n));
	cost = sluice_i_calloc(nn, sizeof(*cost));
	h.row_pot = sluice_i_calloc(n + 1, sizeof(int64_t));
	h.col_pot = sluice_i_calloc(n + 1, sizeof(int64_t));
	h.slack = sluice_i_calloc(n + 1, sizeof(int64_t));
	h.col_row = sluice_i_calloc(n + 1, sizeof(uint32_t));
	h.prev = sluice_i_calloc(n + 1, sizeof(uint32_t));
	h.used = sluice_i_calloc(n + 1, 1);
	ok = cost && h.row_pot && h.col_pot && h.slack && h.col_row &&
	     h.prev && h.used;
	if (ok) {
		for (i = 0; i < nn; i++)
			cost[i] = -weight[i];
		h.cost = cost;
		for (j = 1; j <= n; j++)
			add_row(&h, j);
		*total = 0;
		for (j = 1; j <= n; j++) {
			match[h.col_row[j] - 1] = j - 1;
			*total += weight[(size_t)(h.col_row[j] - 1) * n + j - 1];
		}
	}
	free(h.row_pot);
	free(h.col_pot);
	free(h.slack);
	free(h.col_row);
	free(h.prev);
	free(h.used);
	free(cost);
	if (!ok)
		return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
	return 0;
}
