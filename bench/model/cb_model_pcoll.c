/* cb_model_pcoll: predict's plans of any collective (contract in
 * cb_model_pcoll.h). */
#define _POSIX_C_SOURCE 200809L
#include "cb_model_pcoll.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cb_coll.h"

int cb_pred_algos(int coll, const char *list, struct cb_pred_algos *a, char *why, size_t whylen)
{
	const char *pl[CB_PCOLL_MAX_ALGOS];
	struct cb_mreg_algo ma;
	char buf[1024], *save = NULL;

	memset(a, 0, sizeof(*a));
	a->coll = coll;
	if (!list || !*list) {
		a->n = cb_mreg_plan_names(coll, pl, CB_PCOLL_MAX_ALGOS);
		for (size_t k = 0; k < a->n; k++)
			snprintf(a->name[k], CB_PCOLL_NAME, "%s", pl[k]);
	}
	snprintf(buf, sizeof(buf), "%s", list ? list : "");
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (a->n == CB_PCOLL_MAX_ALGOS) {
			snprintf(why, whylen, "more than %d algorithms", CB_PCOLL_MAX_ALGOS);
			return -1;
		}
		if (cb_mreg_algo(coll, w, 2, 8, 2, &ma, why, whylen) != 0) {
			snprintf(why, whylen, "%s is no algorithm of %s that the model prices", w,
				 cb_coll_get((enum cb_coll)coll)->name);
			return -1;
		}
		snprintf(a->name[a->n++], CB_PCOLL_NAME, "%s", w);
	}
	if (a->n == 0)
		snprintf(why, whylen, "no algorithm to price for %s", cb_coll_get((enum cb_coll)coll)->name);
	return a->n ? 0 : -1;
}

/* Algorithm name of a at count elements into row. */
static enum cb_status price(const struct cb_topo *t, const struct cb_pred_opts *o, int coll,
			    const char *name, int n, size_t count, struct cb_pcoll_row *row,
			    char *why, size_t whylen)
{
	struct cb_mreg_algo ma;
	struct cb_model_case c = { .n = n, .count = count, .esize = o->esize,
				   .root = o->root < n ? o->root : 0, .two_sided = o->two_sided,
				   .slice_auto = 1 };
	struct cb_model_result r;
	enum cb_status st;

	if (cb_mreg_algo(coll, name, n, count * o->esize, count, &ma, why, whylen) != 0)
		return CB_ERR_UNSUPPORTED;
	c.plan = ma.plan;
	c.unsliced = ma.unsliced;
	c.two_sided |= ma.library;
	st = cb_model_eval(t, &c, &r, why, whylen);
	if (st != CB_OK)
		return st;
	if (!isfinite(r.time) || !(r.time >= 0)) {
		snprintf(why, whylen, "%s at %d ranks, %zu elements: predicted time %g s is not "
			 "finite (a parameter out of range)", name, n, count, r.time);
		return CB_ERR_ARG;
	}
	row->algo = name;
	row->t = r.time;
	row->rank_max = r.txrx_max;
	row->rank_min = r.txrx_min;
	row->host_max = r.host_max;
	row->host_min = r.host_min;
	return CB_OK;
}

enum cb_status cb_model_predict_coll(const struct cb_pred_opts *o, const struct cb_pred_algos *a,
				     int n, double bytes, struct cb_pcoll_row *rows, size_t *nrows,
				     char *why, size_t whylen)
{
	struct cb_topo t = cb_pred_topo(o, bytes);
	size_t count = cb_coll_count((enum cb_coll)a->coll, n, (size_t)(bytes / (double)o->esize));

	*nrows = 0;
	if (count == 0) {
		snprintf(why, whylen, "%s at %d ranks: %.0f bytes hold no element per rank",
			 cb_coll_get((enum cb_coll)a->coll)->name, n, bytes);
		return CB_ERR_UNSUPPORTED;
	}
	for (size_t k = 0; k < a->n; k++) {
		enum cb_status st = price(&t, o, a->coll, a->name[k], n, count, &rows[k], why, whylen);

		if (st != CB_OK)
			return st;
		rows[k].n = n;
		rows[k].bytes = (double)count * (double)o->esize;
		++*nrows;
	}
	return CB_OK;
}

/* The first algorithm's time - the second's at count elements. */
static enum cb_status gap(const struct cb_pred_opts *o, const struct cb_pred_algos *a, int n,
			  double count, double *d, char *why, size_t whylen)
{
	struct cb_pred_algos two = *a;
	struct cb_pcoll_row row[2];
	size_t got;
	enum cb_status st;

	two.n = 2;
	st = cb_model_predict_coll(o, &two, n, count * (double)o->esize, row, &got, why, whylen);
	*d = st == CB_OK ? row[0].t - row[1].t : 0;
	return st;
}

enum cb_status cb_model_crossover(const struct cb_pred_opts *o, const struct cb_pred_algos *a,
				  int n, double lo, double hi, double *bytes, int *kind, char *why,
				  size_t whylen)
{
	double clo = fmax(1, floor(lo / (double)o->esize)), chi = floor(hi / (double)o->esize);
	double dlo, dhi;
	enum cb_status st = a->n < 2 ? CB_ERR_ARG : gap(o, a, n, clo, &dlo, why, whylen);

	if (a->n < 2)
		snprintf(why, whylen, "--crossover compares two algorithms (--algo A,B)");
	if (st == CB_OK)
		st = gap(o, a, n, chi, &dhi, why, whylen);
	if (st != CB_OK)
		return st;
	*kind = dlo > 0 ? 1 : dhi <= 0 ? 2 : 0;
	*bytes = *kind == 1 ? clo * (double)o->esize : chi * (double)o->esize;
	if (*kind)
		return CB_OK;
	while (chi > clo + 1 && chi / clo > 1.001) { /* the first no slower at clo, slower at chi */
		double mid = floor(sqrt(clo * chi)), d;

		if (mid <= clo || mid >= chi)
			mid = floor((clo + chi) / 2);
		if (mid <= clo || mid >= chi)
			break;
		st = gap(o, a, n, mid, &d, why, whylen);
		if (st != CB_OK)
			return st;
		if (d > 0)
			chi = mid;
		else
			clo = mid;
	}
	*bytes = clo * (double)o->esize;
	return CB_OK;
}
