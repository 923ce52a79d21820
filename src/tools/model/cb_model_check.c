/* cb_model_check: every measured row next to the model (contract in
 * cb_model_verbs.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_model_verbs.h"

/* Bus bandwidth of a modelled time, with the measured rows' factor. */
static double busbw_of(const struct cb_mrow *r, double t)
{
	double algbw = (double)r->bytes / t / 1e9;

	if (strcmp(r->algo, "copy") == 0 || r->nranks < 2)
		return algbw;
	return algbw * 2.0 * (r->nranks - 1) / r->nranks;
}

/* Checks one row into c; 0, or -1 when the model's result is not finite. */
/* The model's time of row r (its case mc) into c->t_model: on hosts for a
 * row of several hosts when given, else on its fit group's parameters. 0, or
 * -1 with c->note set. */
static int model_time(const struct cb_mrow *r, const struct cb_model_case *mc,
		      const struct cb_fit_set *f, const struct cb_topo *hosts,
		      struct cb_check_row *c, struct cb_model_result *res)
{
	char name[CB_MIN_NAME];
	const struct cb_fit_group *g;
	const struct cb_fit_tier *tr;
	struct cb_topo t;

	if (r->nhosts > 1 && hosts) {
		t = cb_row_topo_hosts(r, hosts);
		if (cb_model_eval(&t, mc, res, c->note, sizeof(c->note)) != CB_OK)
			return -1;
		c->t_model = res->time;
		return 0;
	}
	cb_row_group(r, name, sizeof(name));
	g = cb_fit_set_group(f, r->backend, name);
	/* copy's rows join the backend's p2p group where it has no one-sided
	 * group (cb_model_fitrun.c) */
	if (!g && strcmp(r->algo, "copy") == 0)
		g = cb_fit_set_group(f, r->backend, "p2p");
	if (r->nhosts > 1 && r->nhosts < r->nranks && strcmp(r->algo, "copy") != 0) {
		snprintf(c->note, sizeof(c->note), "%d ranks share %d hosts: intra-host and "
			 "network links needed (check --topo FILE)", r->nranks, r->nhosts);
		return -1;
	}
	if (!g) {
		snprintf(c->note, sizeof(c->note), "no fit for backend %s, transport %s", r->backend,
			 name);
		return -1;
	}
	tr = cb_fit_tier_of(&g->p, (double)r->bytes);
	t = cb_row_topo(r, g->p.alpha, tr->beta, tr->gamma, tr->fused);
	if (cb_model_eval(&t, mc, res, c->note, sizeof(c->note)) != CB_OK)
		return -1;
	c->t_model = res->time + res->terms.calls * g->p.overhead;
	return 0;
}

static int check_row(const struct cb_mrow *r, const struct cb_fit_set *f, double far,
		     const struct cb_topo *hosts, struct cb_check_row *c)
{
	struct cb_model_case mc;
	struct cb_model_result res;

	memset(c, 0, sizeof(*c));
	c->row = r;
	if (!r->ok) {
		snprintf(c->note, sizeof(c->note), "not measured (status not ok)");
		return 0;
	}
	if (cb_row_case(r, &mc, c->note, sizeof(c->note)) != 0)
		return 0;
	if (model_time(r, &mc, f, hosts, c, &res) != 0)
		return 0;
	if (!(res.time > 0) || !(r->t > 0)) {
		snprintf(c->note, sizeof(c->note), "nothing to model (%s)", res.what);
		return 0;
	}
	c->modelled = 1;
	c->err = c->t_model / r->t - 1;
	c->busbw_model = busbw_of(r, c->t_model);
	if (!isfinite(c->t_model) || !isfinite(c->busbw_model) || !(c->busbw_model > 0)) {
		snprintf(c->note, sizeof(c->note), "model time %g s, bandwidth %g GB/s: not a "
			 "finite result (the fit's parameters are out of range)", c->t_model,
			 c->busbw_model);
		c->modelled = 0;
		c->not_finite = 1;
		return -1;
	}
	c->far = fabs(c->err) > far && !(c->t_model >= r->t_lo && c->t_model <= r->t_hi);
	c->oversubscribed = r->oversubscribed ||
			    (r->cpus_per_host > 0 && r->ranks_per_host > r->cpus_per_host);
	if (c->oversubscribed)
		snprintf(c->note, sizeof(c->note), "oversubscribed: time slicing is not modelled");
	else if (r->nranks < 2 && strcmp(r->algo, "copy") != 0)
		snprintf(c->note, sizeof(c->note), "n = 1: a local copy");
	return 0;
}

enum cb_status cb_model_check(const struct cb_minput *in, const struct cb_fit_set *f, double far,
			      const struct cb_topo *hosts, struct cb_check_row **rows)
{
	struct cb_check_row *out = calloc(in->nrows ? in->nrows : 1, sizeof(*out));
	enum cb_status st = CB_OK;

	*rows = NULL;
	if (!out)
		return CB_ERR_NOMEM;
	for (size_t i = 0; i < in->nrows; i++)
		if (check_row(&in->rows[i], f, far, hosts, &out[i]) != 0)
			st = CB_ERR_ARG;
	*rows = out;
	return st;
}
