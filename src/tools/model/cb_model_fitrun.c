/* cb_model_fitrun: the fit verb: rows of a results folder grouped by
 * (backend, transport), each group's terms from the step model, then
 * cb_fit_run (contract in cb_model_verbs.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_model_lib.h"
#include "cb_model_verbs.h"

int cb_row_case(const struct cb_mrow *r, struct cb_model_case *c, char *why, size_t whylen)
{
	memset(c, 0, sizeof(*c));
	if (cb_model_algo_find(r->algo, &c->algo) != 0) {
		snprintf(why, whylen, "algorithm %s is not modelled", r->algo);
		return -1;
	}
	if (r->esize == 0 || r->bytes % r->esize) {
		snprintf(why, whylen, "dtype %s: unknown element size", r->dtype);
		return -1;
	}
	c->n = r->nranks;
	c->count = (size_t)(r->bytes / r->esize);
	c->esize = r->esize;
	c->root = r->root;
	c->in_place = r->in_place;
	c->two_sided = strcmp(r->transport, "shm") != 0 && strcmp(r->transport, "ipc") != 0;
	c->slice_auto = r->slice_auto;
	return 0;
}

void cb_row_group(const struct cb_mrow *r, char *out, size_t len)
{
	if (r->nhosts > 1 && strcmp(r->algo, "copy") != 0)
		snprintf(out, len, "%.*s@net", (int)(len > 5 ? len - 5 : 0), r->transport);
	else
		snprintf(out, len, "%s", r->transport);
}

struct cb_topo cb_row_topo_hosts(const struct cb_mrow *r, const struct cb_topo *links)
{
	struct cb_topo t = *links;

	t.ranks_per_host = r->ranks_per_host > 0 ? r->ranks_per_host : r->nranks;
	t.rank_host = r->rank_host;
	t.rank_host_n = r->rank_host ? r->nranks : 0;
	t.slice_bytes = r->slice_bytes ? r->slice_bytes : links->slice_bytes;
	t.cpus_per_host = r->cpus_per_host;
	return t;
}

struct cb_topo cb_row_topo(const struct cb_mrow *r, double alpha, double beta, double gamma,
			   double fused)
{
	struct cb_topo t;

	memset(&t, 0, sizeof(t));
	snprintf(t.name, sizeof(t.name), "fit");
	t.ranks_per_host = r->nranks;
	t.intra.alpha = alpha;
	t.intra.bw = beta;
	t.gamma = gamma;
	t.fused_bw = fused > 0 ? fused : 0;
	t.copy_bw = beta;
	t.slice_bytes = r->slice_bytes ? r->slice_bytes : (size_t)256 * 1024;
	t.cpus_per_host = r->cpus_per_host;
	return t;
}

/* 1 when the row enters the fit under sel. */
static int selected(const struct cb_mrow *r, const struct cb_fit_sel *sel)
{
	char list[256];

	if (!r->ok || r->bytes == 0 || (double)r->bytes < sel->min_bytes || !(r->t > 0))
		return 0;
	if (r->oversubscribed && !sel->oversubscribed)
		return 0;
	if (r->nranks < 2 && strcmp(r->algo, "copy") != 0)
		return 0; /* n = 1: nothing crosses ranks */
	if (r->nhosts > 1 && r->nhosts < r->nranks && strcmp(r->algo, "copy") != 0)
		return 0; /* both kinds of link: check --topo models them */
	if (!sel->algos)
		return 1;
	snprintf(list, sizeof(list), ",%s,", sel->algos);
	for (char *p = strstr(list, r->algo); p; p = strstr(p + 1, r->algo))
		if (p[-1] == ',' && p[strlen(r->algo)] == ',')
			return 1;
	return 0;
}

/* The group of (backend, transport), added when new; NULL when full. */
static struct cb_fit_group *group_of(struct cb_fit_set *f, const struct cb_mrow *r)
{
	char name[CB_MIN_NAME];

	cb_row_group(r, name, sizeof(name));
	for (size_t g = 0; g < f->ngroups; g++)
		if (strcmp(f->groups[g].backend, r->backend) == 0 &&
		    strcmp(f->groups[g].transport, name) == 0)
			return &f->groups[g];
	if (f->ngroups == CB_FIT_MAX_GROUPS)
		return NULL;
	snprintf(f->groups[f->ngroups].backend, CB_MIN_NAME, "%s", r->backend);
	snprintf(f->groups[f->ngroups].transport, CB_MIN_NAME, "%s", name);
	return &f->groups[f->ngroups++];
}

static void add_algo(struct cb_fit_group *g, const char *algo)
{
	char key[40];
	size_t len = strlen(g->algos);

	snprintf(key, sizeof(key), ",%s,", algo);
	if (strstr(g->algos, key) || len + strlen(algo) + 2 >= sizeof(g->algos))
		return;
	snprintf(g->algos + (len ? len - 1 : 0), sizeof(g->algos) - (len ? len - 1 : 0), ",%s,",
		 algo);
}

/* 1 when row r is fitted in group g: its backend and transport, and copy's
 * rows (a memory copy on one rank, its transport the one-sided one) in the
 * backend's p2p group too, whose copy rate they measure as well. */
static int in_group(const struct cb_mrow *r, const struct cb_fit_group *g)
{
	char name[CB_MIN_NAME];

	if (strcmp(r->backend, g->backend) != 0)
		return 0;
	cb_row_group(r, name, sizeof(name));
	return strcmp(name, g->transport) == 0 ||
	       (strcmp(r->algo, "copy") == 0 && strcmp(g->transport, "p2p") == 0);
}

/* Fits group g on the selected rows of in; returns CB_ERR_NOMEM or CB_OK. */
static enum cb_status fit_group(const struct cb_minput *in, const struct cb_fit_sel *sel,
				struct cb_fit_group *g, struct cb_fit_obs *obs)
{
	size_t m = 0;
	enum cb_status st;

	for (size_t i = 0; i < in->nrows; i++) {
		const struct cb_mrow *r = &in->rows[i];
		struct cb_model_case c;
		struct cb_model_result res;
		struct cb_topo t;
		char why[256];

		if (!selected(r, sel) || !in_group(r, g) || cb_row_case(r, &c, why, sizeof(why)))
			continue;
		t = cb_row_topo(r, 1e-6, 1e9, 1e9, 0); /* terms do not depend on the values */
		st = cb_model_eval(&t, &c, &res, why, sizeof(why));
		if (st == CB_ERR_NOMEM)
			return st;
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
	st = cb_fit_run(obs, m, &sel->opts, &g->p, g->why, sizeof(g->why));
	g->fitted = st == CB_OK;
	return st == CB_ERR_NOMEM ? st : CB_OK;
}

/* 1 when the selected row r makes its group: in pass 0 every row but
 * copy's, in pass 1 copy's, unless its backend has a p2p group already
 * (which the copy rows join, in_group) and no group of their own transport. */
static int needs_group(const struct cb_fit_set *f, const struct cb_mrow *r,
		       const struct cb_fit_sel *sel, int pass)
{
	int copy = strcmp(r->algo, "copy") == 0, p2p = 0;

	if (!selected(r, sel) || copy != pass)
		return 0;
	for (size_t g = 0; copy && g < f->ngroups; g++) {
		if (strcmp(f->groups[g].backend, r->backend) != 0)
			continue;
		if (strcmp(f->groups[g].transport, r->transport) == 0)
			return 1;
		p2p |= strcmp(f->groups[g].transport, "p2p") == 0;
	}
	return !p2p;
}

/* "ps,ring" from ",ps,ring,". */
static void tidy_algos(char *a)
{
	size_t len = strlen(a);

	if (len >= 2) {
		memmove(a, a + 1, len - 2);
		a[len - 2] = '\0';
	}
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
	for (size_t g = 0; g < out->ngroups && st == CB_OK; g++) {
		st = fit_group(in, sel, &out->groups[g], obs);
		tidy_algos(out->groups[g].algos);
	}
out:
	free(obs);
	return st;
}

const struct cb_fit_group *cb_fit_set_group(const struct cb_fit_set *f, const char *backend,
					    const char *transport)
{
	for (size_t g = 0; g < f->ngroups; g++)
		if (f->groups[g].fitted && strcmp(f->groups[g].backend, backend) == 0 &&
		    strcmp(f->groups[g].transport, transport) == 0)
			return &f->groups[g];
	return NULL;
}
