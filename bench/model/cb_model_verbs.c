/* cb_model_verbs: what collbench-model's verbs compute (contract in
 * cb_model_verbs.h): a row's model case and topology; fit: rows of a results
 * folder grouped by (backend, transport), each group's terms from the step
 * model, then cb_fit_run; check: every measured row next to the model
 * (predict: cb_model_pcoll.c). */
#include "cb_model_verbs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_catalog.h"
#include "cb_coll.h"
#include "cb_model_reg.h"
#include "cb_optable.h"

/* The model case of a row; -1 (why set) when the row cannot be modelled. */
static int row_case(const struct cb_mrow *r, struct cb_model_case *c, char *why, size_t whylen)
{
	struct cb_mreg_algo ma;
	size_t count;
	int one = 0;

	memset(c, 0, sizeof(*c));
	if (!cb_catalog_backend(r->backend)) {
		snprintf(why, whylen, "backend %s is not in the catalogue: its rows are not priced",
			 r->backend);
		return -1;
	}
	if (r->esize == 0 || r->bytes % r->esize) {
		snprintf(why, whylen, "dtype %s: unknown element size", r->dtype);
		return -1;
	}
	count = (size_t)(r->bytes / r->esize);
	if (cb_mreg_algo(r->coll, r->algo, r->nranks, (size_t)r->bytes, count, &ma, why, whylen))
		return -1;
	if (!ma.library && !ma.local)
		one = cb_mreg_one_sided(r->transport);
	if (one < 0) {
		snprintf(why, whylen, "transport %s is not in the catalogue: how its bytes move is "
			 "unknown, not priced", r->transport);
		return -1;
	}
	c->plan = ma.plan;
	c->unsliced = ma.unsliced;
	c->n = r->nranks;
	c->count = count;
	c->esize = r->esize;
	c->root = r->root;
	c->in_place = r->in_place;
	c->two_sided = !one; /* a library's bytes land in its buffers, then are reduced */
	c->slice_auto = r->slice_auto;
	c->servers = r->servers;
	return 0;
}

/* The fit group of a row's transport: the transport, with "@net" appended
 * for a row of ranks on more than one host (copy's excepted): its bytes
 * cross the network link, a group of its own. Fit fits such rows where each
 * rank has a host of its own (every transfer crosses hosts, so the one-host
 * terms hold with the network link for the intra-host one); rows with ranks
 * sharing hosts as well need both links: check --topo. */
static void row_group(const struct cb_mrow *r, char *out, size_t len)
{
	if (r->nhosts > 1 && !r->local)
		snprintf(out, len, "%.*s@net", (int)(len > 5 ? len - 5 : 0), r->transport);
	else
		snprintf(out, len, "%s", r->transport);
}

/* links (intra, net, gamma, ...) with the row's launch's placement: ranks
 * per host, each rank's host (r->rank_host), slice, CPUs. links->slice_bytes
 * where the row has none. */
static struct cb_topo row_topo_hosts(const struct cb_mrow *r, const struct cb_topo *links)
{
	struct cb_topo t = *links;

	t.ranks_per_host = r->ranks_per_host > 0 ? r->ranks_per_host : r->nranks;
	t.rank_host = r->rank_host;
	t.rank_host_n = r->rank_host ? r->nranks : 0;
	t.slice_bytes = r->slice_bytes ? r->slice_bytes : links->slice_bytes;
	t.cpus_per_host = r->cpus_per_host;
	return t;
}

/* The one-host topology of a row's launch with fit p's parameters at the
 * row's size (cb_fit_topo), or with NULL unit ones (where only the terms,
 * which do not depend on them, are wanted). */
static struct cb_topo row_topo(const struct cb_mrow *r, const struct cb_fit_params *p)
{
	struct cb_topo t;

	memset(&t, 0, sizeof(t));
	snprintf(t.name, sizeof(t.name), "fit");
	t.ranks_per_host = r->nranks;
	t.slice_bytes = r->slice_bytes ? r->slice_bytes : (size_t)256 * 1024;
	t.cpus_per_host = r->cpus_per_host;
	if (p) {
		cb_fit_topo(p, (double)r->bytes, &t);
		return t;
	}
	t.intra.alpha = 1e-6;
	t.intra.bw = t.copy_bw = t.gamma = 1e9;
	return t;
}

/* 1 when the row enters the fit under sel; over: of the oversubscribed
 * rows, whatever sel says of them (time slicing's fit, fit_switch). */
static int selected_as(const struct cb_mrow *r, const struct cb_fit_sel *sel, int over)
{
	if (!r->ok || r->bytes == 0 || (double)r->bytes < sel->min_bytes || !(r->t > 0))
		return 0;
	if (over ? !r->oversubscribed : r->oversubscribed && !sel->oversubscribed)
		return 0;
	if (r->nranks < 2 && !r->local)
		return 0; /* n = 1: nothing crosses ranks */
	if (r->nhosts > 1 && r->nhosts < r->nranks && !r->local)
		return 0; /* both kinds of link: check --topo models them */
	return cb_list_selects(sel->algos, r->algo);
}

static int selected(const struct cb_mrow *r, const struct cb_fit_sel *sel)
{
	return selected_as(r, sel, 0);
}

/* The group of (backend, transport, collective), added when new; NULL when
 * full. */
static struct cb_fit_group *group_of(struct cb_fit_set *f, const struct cb_mrow *r)
{
	char name[CB_MIN_NAME];

	row_group(r, name, sizeof(name));
	for (size_t g = 0; g < f->ngroups; g++)
		if (strcmp(f->groups[g].backend, r->backend) == 0 &&
		    strcmp(f->groups[g].transport, name) == 0 && f->groups[g].coll == r->coll)
			return &f->groups[g];
	if (f->ngroups == CB_FIT_MAX_GROUPS)
		return NULL;
	snprintf(f->groups[f->ngroups].backend, CB_MIN_NAME, "%s", r->backend);
	snprintf(f->groups[f->ngroups].transport, CB_MIN_NAME, "%s", name);
	f->groups[f->ngroups].coll = r->coll;
	return &f->groups[f->ngroups++];
}

/* Adds algo to g's list of fitted algorithms ("ps,ring") once, while the
 * list stays 4 bytes short of its buffer (of 2 for the first). */
static void add_algo(struct cb_fit_group *g, const char *algo)
{
	size_t len = strlen(g->algos);

	if ((len && cb_list_selects(g->algos, algo)) ||
	    len + strlen(algo) + (len ? 4 : 2) >= sizeof(g->algos))
		return;
	snprintf(g->algos + len, sizeof(g->algos) - len, "%s%s", len ? "," : "", algo);
}

/* 1 when row r is fitted in group g: its backend, transport and
 * collective, and copy's rows (a memory copy on one rank, its transport the
 * one-sided one) in every collective's group of that transport and in the
 * backend's p2p groups too, whose copy rate they measure as well. */
static int in_group(const struct cb_mrow *r, const struct cb_fit_group *g)
{
	char name[CB_MIN_NAME];
	int copy = r->local;

	if (strcmp(r->backend, g->backend) != 0 || (!copy && r->coll != g->coll))
		return 0;
	row_group(r, name, sizeof(name));
	return strcmp(name, g->transport) == 0 || (copy && strcmp(g->transport, cb_mreg_two_sided()) == 0);
}

/* Time slicing's switch_s of the fitted group g (cb_model_fit.h): from its
 * oversubscribed rows, each priced with g's other parameters. Returns
 * CB_ERR_NOMEM or CB_OK. */
static enum cb_status fit_switch(const struct cb_minput *in, const struct cb_fit_sel *sel,
				 struct cb_fit_group *g)
{
	double *v = malloc(4 * (in->nrows ? in->nrows : 1) * sizeof(double));
	size_t m = 0;
	enum cb_status st;

	if (!v)
		return CB_ERR_NOMEM;
	for (size_t i = 0; i < in->nrows; i++) {
		const struct cb_mrow *r = &in->rows[i];
		struct cb_model_case c;
		struct cb_model_result res;
		struct cb_topo t;
		char why[256];

		if (!selected_as(r, sel, 1) || !in_group(r, g) || row_case(r, &c, why, sizeof(why)))
			continue;
		t = row_topo(r, &g->p); /* time slicing's costs are 0 still */
		if (cb_model_eval(&t, &c, &res, why, sizeof(why)) != CB_OK || !res.one_class ||
		    !(res.terms.waits > 0))
			continue;
		v[m] = r->t;
		v[in->nrows + m] = res.time + res.terms.calls * g->p.overhead;
		v[2 * in->nrows + m] = res.terms.waits;
		v[3 * in->nrows + m] = res.terms.wait_time;
		m++;
	}
	st = cb_fit_switch(v, v + in->nrows, v + 2 * in->nrows, v + 3 * in->nrows, m,
			   &g->p.switch_s, &g->p.wait_frac);
	g->p.switch_nobs = m;
	free(v);
	return st;
}

/* Fits group g on the selected rows of in; returns CB_ERR_NOMEM or CB_OK. A
 * group none of whose rows the model prices is refused with the reason of
 * its first row. */
static enum cb_status fit_group(const struct cb_minput *in, const struct cb_fit_sel *sel,
				struct cb_fit_group *g, struct cb_fit_obs *obs)
{
	size_t m = 0, rows = 0;
	char first[256] = "";
	enum cb_status st;

	for (size_t i = 0; i < in->nrows; i++) {
		const struct cb_mrow *r = &in->rows[i];
		struct cb_model_case c;
		struct cb_model_result res;
		struct cb_topo t;
		char why[256] = "";

		if (!selected(r, sel) || !in_group(r, g))
			continue;
		rows++;
		if (row_case(r, &c, why, sizeof(why))) {
			if (!*first)
				snprintf(first, sizeof(first), "%s", why);
			continue;
		}
		t = row_topo(r, NULL);
		st = cb_model_eval(&t, &c, &res, why, sizeof(why));
		if (st == CB_ERR_NOMEM)
			return st;
		if ((st != CB_OK || !res.one_class) && !*first)
			snprintf(first, sizeof(first), "%s %s: %s", r->algo, cb_coll_get(r->coll)->name,
				 st != CB_OK ? why : "a time of more than one class of terms");
		if (st != CB_OK || !res.one_class)
			continue;
		obs[m].terms = res.terms;
		obs[m].t = r->t;
		obs[m].t_lo = r->t_lo;
		obs[m].t_hi = r->t_hi;
		obs[m].bytes = (double)r->bytes;
		m++;
		add_algo(g, r->algo);
	}
	if (m == 0) {
		snprintf(g->why, sizeof(g->why), "the model prices none of its %zu row(s) (%s)", rows,
			 *first ? first : "none selected");
		g->fitted = 0;
		return CB_OK;
	}
	st = cb_fit_run(obs, m, &sel->opts, &g->p, g->why, sizeof(g->why));
	g->fitted = st == CB_OK;
	if (g->fitted)
		st = fit_switch(in, sel, g);
	return st == CB_ERR_NOMEM ? st : CB_OK;
}

/* 1 when the selected row r makes its group: in pass 0 every row but
 * copy's, in pass 1 copy's, unless its backend has a group of their own
 * transport or a p2p group already (of any collective: the copy rows join
 * it, in_group). */
static int needs_group(const struct cb_fit_set *f, const struct cb_mrow *r,
		       const struct cb_fit_sel *sel, int pass)
{
	int copy = r->local, p2p = 0;

	if (!selected(r, sel) || copy != pass)
		return 0;
	for (size_t g = 0; copy && g < f->ngroups; g++) {
		if (strcmp(f->groups[g].backend, r->backend) != 0)
			continue;
		p2p |= strcmp(f->groups[g].transport, cb_mreg_two_sided()) == 0 ||
		       strcmp(f->groups[g].transport, r->transport) == 0;
	}
	return !p2p;
}

enum cb_status cb_model_fit_input(const struct cb_minput *in, const struct cb_fit_sel *sel,
				  struct cb_fit_set *out, char *err, size_t errlen)
{
	struct cb_fit_obs *obs = malloc((in->nrows ? in->nrows : 1) * sizeof(*obs));
	enum cb_status st = CB_OK;

	memset(out, 0, sizeof(*out));
	if (!obs)
		return CB_ERR_NOMEM;
	snprintf(out->source, sizeof(out->source), "%s", in->path);
	snprintf(out->machine, sizeof(out->machine), "%s", in->machine);
	out->min_bytes = sel->min_bytes;
	out->oversubscribed = sel->oversubscribed;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < in->nrows; i++)
			if (needs_group(out, &in->rows[i], sel, pass) && !group_of(out, &in->rows[i])) {
				snprintf(err, errlen, "more than %d (backend, transport) groups",
					 CB_FIT_MAX_GROUPS);
				st = CB_ERR_ARG;
				goto out;
			}
	if (out->ngroups == 0) {
		snprintf(err, errlen, "%s: no ok row to fit (of %zu rows; n = 1, 0-byte, "
			 "oversubscribed%s rows are left out)", in->path, in->nrows,
			 sel->algos || sel->min_bytes > 0 ? " and filtered" : "");
		st = CB_ERR_ARG;
		goto out;
	}
	for (size_t g = 0; g < out->ngroups && st == CB_OK; g++)
		st = fit_group(in, sel, &out->groups[g], obs);
out:
	free(obs);
	return st;
}

/* The fitted group of (backend, transport, collective coll), or NULL; coll
 * -1: of any collective (the first). */
static const struct cb_fit_group *fit_set_group(const struct cb_fit_set *f, const char *backend,
						const char *transport, int coll)
{
	for (size_t g = 0; g < f->ngroups; g++)
		if (f->groups[g].fitted && strcmp(f->groups[g].backend, backend) == 0 &&
		    strcmp(f->groups[g].transport, transport) == 0 &&
		    (coll < 0 || f->groups[g].coll == coll))
			return &f->groups[g];
	return NULL;
}

/* ---- check ------------------------------------------------------------- */

double cb_row_busbw(const struct cb_mrow *r, double t)
{
	double algbw = (double)r->bytes / t / 1e9;

	if (r->local || r->nranks < 2)
		return algbw;
	return algbw * cb_coll_busbw_factor((enum cb_coll)r->coll, r->nranks);
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
	struct cb_topo t;
	int copy;

	if (r->nhosts > 1 && hosts) {
		t = row_topo_hosts(r, hosts);
		c->slice_bytes = t.slice_bytes;
		c->rank_host = t.rank_host;
		if (cb_model_eval(&t, mc, res, c->note, sizeof(c->note)) != CB_OK)
			return -1;
		c->t_model = res->time;
		c->t_latency = res->terms.msgs * fmax(t.intra.alpha, t.net.alpha);
		return 0;
	}
	row_group(r, name, sizeof(name));
	copy = r->local;
	g = fit_set_group(f, r->backend, name, copy ? -1 : r->coll);
	/* copy's rows join the backend's p2p group where it has no one-sided
	 * group (as the fit groups them: in_group above) */
	if (!g && copy)
		g = fit_set_group(f, r->backend, cb_mreg_two_sided(), -1);
	if (r->nhosts > 1 && r->nhosts < r->nranks && !r->local) {
		snprintf(c->note, sizeof(c->note), "%d ranks share %d hosts: intra-host and "
			 "network links needed (check --topo FILE)", r->nranks, r->nhosts);
		return -1;
	}
	if (!g) {
		snprintf(c->note, sizeof(c->note), "no fit for backend %s, transport %s, %s",
			 r->backend, name, cb_coll_get((enum cb_coll)r->coll)->name);
		return -1;
	}
	t = row_topo(r, &g->p);
	c->slice_bytes = t.slice_bytes;
	if (cb_model_eval(&t, mc, res, c->note, sizeof(c->note)) != CB_OK)
		return -1;
	c->t_model = res->time + res->terms.calls * g->p.overhead;
	c->t_latency = res->terms.msgs * t.intra.alpha + res->terms.calls * g->p.overhead;
	return 0;
}

enum cb_status cb_check_row_plan(const struct cb_check_row *c, struct cb_plan *p)
{
	struct cb_model_case mc;
	struct cb_topo t;
	char why[160];

	if (!c->modelled || row_case(c->row, &mc, why, sizeof(why)) != 0 || !mc.plan)
		return CB_ERR_ARG;
	memset(&t, 0, sizeof(t));
	t.slice_bytes = c->slice_bytes;
	t.rank_host = c->rank_host;
	t.rank_host_n = c->rank_host ? c->row->nranks : 0;
	return cb_model_case_plan(&t, &mc, p);
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
	if (row_case(r, &mc, c->note, sizeof(c->note)) != 0)
		return 0;
	if (model_time(r, &mc, f, hosts, c, &res) != 0)
		return 0;
	if (!(res.time > 0) || !(r->t > 0)) {
		snprintf(c->note, sizeof(c->note), "nothing to model (%s)", res.what);
		return 0;
	}
	c->modelled = 1;
	c->rounds = res.terms.msgs;
	c->err = c->t_model / r->t - 1;
	c->busbw_model = cb_row_busbw(r, c->t_model);
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
		snprintf(c->note, sizeof(c->note), "oversubscribed");
	else if (r->nranks < 2 && !r->local)
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
