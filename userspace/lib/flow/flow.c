// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sluice_flow_theta(): the throughput of a traffic matrix on a route set,
 * by the solver asked for (sluice/flow.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sluice/flow.h>
#include "graph/internal.h"
#include "internal.h"

static const char *const method_names[] = {
	[SLUICE_FLOW_AUTO]	= "auto",
	[SLUICE_FLOW_LP]	= "lp",
	[SLUICE_FLOW_FPTAS]	= "fptas",
};

/**
 * sluice_flow_method_name() - "auto", "lp" or "fptas"
 * @m:	the method
 *
 * Return: its name, or "?".
 */
const char *sluice_flow_method_name(enum sluice_flow_method m)
{
	if ((unsigned int)m >= sizeof(method_names) / sizeof(method_names[0]))
		return "?";
	return method_names[m];
}

/**
 * sluice_flow_method_parse() - the method of a name
 * @name:	"auto", "lp" or "fptas"
 *
 * Return: the method, or -EINVAL.
 */
int sluice_flow_method_parse(const char *name)
{
	int i;

	for (i = 0; i < (int)(sizeof(method_names) / sizeof(method_names[0]));
	     i++)
		if (!strcmp(name, method_names[i]))
			return i;
	return -EINVAL;
}

/**
 * sluice_flow_theta() - the throughput of @t on the paths of @r
 * @g:		a finalized graph
 * @r:		a whole route set of @g (not a shard)
 * @t:		a traffic matrix of @g
 * @o:		the method and its parameters; NULL for the defaults
 * @res:	the result (sluice/flow.h)
 * @err:	the message on failure
 * @errlen:	size of @err
 *
 * A demand whose pair has no path makes theta 0 (res->unrouted says which);
 * no solver runs then.  "auto" runs the LP for up to SLUICE_FLOW_LP_AUTO
 * paths with demand and the approximation above.
 *
 * Return: 0, -EINVAL (mismatched inputs, a bad epsilon, a route set that
 * is not a walk in @g), -E2BIG, -ENOMEM or -EIO (the LP failed).
 */
int sluice_flow_theta(const struct sluice_graph *g,
		      const struct sluice_routes *r,
		      const struct sluice_traffic *t,
		      const struct sluice_flow_opts *o,
		      struct sluice_flow_result *res, char *err, size_t errlen)
{
	static const struct sluice_flow_opts defaults;
	struct sluice_i_mcf m;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!o)
		o = &defaults;
	if ((unsigned int)o->method > SLUICE_FLOW_FPTAS)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "unknown flow method %d", o->method);
	if (o->epsilon != 0 && !(o->epsilon >= SLUICE_FLOW_EPSILON_MIN &&
				 o->epsilon <= SLUICE_FLOW_EPSILON_MAX))
		return sluice_i_errf(err, errlen, -EINVAL,
				     "epsilon %g is not from %g to %g",
				     o->epsilon, SLUICE_FLOW_EPSILON_MIN,
				     SLUICE_FLOW_EPSILON_MAX);
	if (!t->n_dem)
		return sluice_i_errf(err, errlen, -EINVAL,
				     "the traffic matrix has no demand");
	ret = sluice_i_mcf_build(g, r, t, &m, res, err, errlen);
	if (ret)
		return ret;
	ret = sluice_flow_bound(g, t, &res->bound, err, errlen);
	res->method = o->method;
	if (res->method == SLUICE_FLOW_AUTO)
		res->method = m.n_paths <= SLUICE_FLOW_LP_AUTO ?
			      SLUICE_FLOW_LP : SLUICE_FLOW_FPTAS;
	if (!ret && res->unrouted) {
		res->theta = 0;
		res->theta_upper = 0;
		res->converged = true;
	} else if (!ret && res->method == SLUICE_FLOW_LP) {
		ret = sluice_i_flow_lp(&m, res, err, errlen);
	} else if (!ret) {
		ret = sluice_i_flow_fptas(&m, o, res, err, errlen);
	}
	sluice_i_mcf_free(&m);
	return ret;
}
