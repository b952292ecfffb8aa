// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exact path-restricted maximum concurrent flow, as a linear program
 * solved by GLPK's simplex method:
 *
 *	maximise theta
 *	subject to	sum over q in P_j of x_q = theta	for each commodity j
 *			sum over q through a of d_j x_q <= 1	for each arc a
 *			x_q >= 0, theta >= 0
 *
 * x_q is the fraction of commodity j's demand d_j that path q carries
 * (scaled by theta), so every coefficient is 1 or a demand, which keeps
 * the program well scaled.  One column per path: for small route sets
 * (tens of thousands of paths); the approximation (fptas.c) is for more.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <glpk.h>
#include "graph/internal.h"
#include "internal.h"

static int no_memory(char *err, size_t errlen)
{
	return sluice_i_errf(err, errlen, -ENOMEM, "out of memory");
}

/* The coefficient arrays of glp_load_matrix(), 1-based. */
struct coefs {
	int	n;
	int	*row;
	int	*col;
	double	*val;
};

static void coef(struct coefs *c, int row, int col, double val)
{
	c->n++;
	c->row[c->n] = row;
	c->col[c->n] = col;
	c->val[c->n] = val;
}

/*
 * Rows 1..n_com are the commodities; arcs that some path uses get rows
 * after them (@arc_row, 0 for unused).  Column 1 is theta, column 2 + q
 * path q.  A path that used an arc twice adds to one coefficient: GLPK
 * refuses duplicates.
 */
static void fill(const struct sluice_i_mcf *m, const int *arc_row,
		 struct coefs *c)
{
	uint64_t j, q, h, k;
	double d;
	int col;

	for (j = 0; j < m->n_com; j++) {
		coef(c, (int)j + 1, 1, -1.0);
		d = m->demand[j];
		for (q = m->com_path[j]; q < m->com_path[j + 1]; q++) {
			col = (int)q + 2;
			coef(c, (int)j + 1, col, 1.0);
			for (h = m->path_arc[q]; h < m->path_arc[q + 1]; h++) {
				for (k = m->path_arc[q]; k < h; k++)
					if (m->arcs[k] == m->arcs[h])
						break;
				if (k < h)
					continue;	/* counted below */
				for (k = h + 1; k < m->path_arc[q + 1]; k++)
					if (m->arcs[k] == m->arcs[h])
						d += m->demand[j];
				coef(c, arc_row[m->arcs[h]], col, d);
				d = m->demand[j];
			}
		}
	}
}

/**
 * sluice_i_flow_lp() - theta by linear programming (GLPK)
 * @m:		the problem, at least one commodity
 * @res:	theta, theta_upper (the same) and saturated are set
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * GLPK's primal simplex with its presolver and automatic scaling, quiet.
 * The optimum is exact up to GLPK's tolerances (about 1e-9 relative).
 *
 * Return: 0, -E2BIG (beyond GLPK's int indices), -ENOMEM or -EIO (GLPK
 * found no optimum).  Time: the simplex method's, in practice a few
 * iterations per row; memory O(hops).
 */
int sluice_i_flow_lp(const struct sluice_i_mcf *m,
		     struct sluice_flow_result *res, char *err, size_t errlen)
{
	uint64_t nnz = m->n_com + m->n_paths + m->n_hops, a, h;
	struct coefs c = { 0 };
	int *arc_row, rows, ret = 0, st, term;
	glp_prob *lp = NULL;
	glp_smcp parm;

	if (nnz >= INT_MAX || m->n_paths + 2 >= INT_MAX)
		return sluice_i_errf(err, errlen, -E2BIG,
				     "lp: %llu coefficients are too many for GLPK; use fptas",
				     (unsigned long long)nnz);
	arc_row = sluice_i_calloc(m->n_arcs, sizeof(*arc_row));
	c.row = sluice_i_calloc(nnz + 1, sizeof(*c.row));
	c.col = sluice_i_calloc(nnz + 1, sizeof(*c.col));
	c.val = sluice_i_calloc(nnz + 1, sizeof(*c.val));
	if (!arc_row || !c.row || !c.col || !c.val) {
		ret = no_memory(err, errlen);
		goto out;
	}
	rows = (int)m->n_com;
	for (h = 0; h < m->n_hops; h++)
		if (!arc_row[m->arcs[h]])
			arc_row[m->arcs[h]] = ++rows;
	fill(m, arc_row, &c);

	lp = glp_create_prob();
	glp_set_obj_dir(lp, GLP_MAX);
	glp_add_rows(lp, rows);
	glp_add_cols(lp, (int)m->n_paths + 1);
	for (st = 1; st <= (int)m->n_com; st++)
		glp_set_row_bnds(lp, st, GLP_FX, 0.0, 0.0);
	for (; st <= rows; st++)
		glp_set_row_bnds(lp, st, GLP_UP, 0.0, 1.0);
	for (st = 1; st <= (int)m->n_paths + 1; st++)
		glp_set_col_bnds(lp, st, GLP_LO, 0.0, 0.0);
	glp_set_obj_coef(lp, 1, 1.0);
	glp_load_matrix(lp, c.n, c.row, c.col, c.val);
	/* the scaler talks unless told not to; put the terminal back after */
	term = glp_term_out(GLP_OFF);
	glp_scale_prob(lp, GLP_SF_AUTO);
	glp_term_out(term);

	glp_init_smcp(&parm);
	parm.msg_lev = GLP_MSG_OFF;
	parm.presolve = GLP_ON;
	st = glp_simplex(lp, &parm);
	if (st || glp_get_status(lp) != GLP_OPT) {
		ret = sluice_i_errf(err, errlen, -EIO,
				    "lp: GLPK's simplex found no optimum (code %d, status %d)",
				    st, glp_get_status(lp));
		goto out;
	}
	res->theta = glp_get_obj_val(lp);
	res->theta_upper = res->theta;
	res->saturated = 0;
	for (a = 0; a < m->n_arcs; a++)
		if (arc_row[a] &&
		    glp_get_row_prim(lp, arc_row[a]) >= 1 - SLUICE_I_SATURATED)
			res->saturated++;
out:
	if (lp)
		glp_delete_prob(lp);
	free(arc_row);
	free(c.row);
	free(c.col);
	free(c.val);
	return ret;
}
