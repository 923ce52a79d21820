/* cb_model_pcoll: predict's plans of any collective (contract in
 * cb_model_pcoll.h). */
#define _POSIX_C_SOURCE 200809L
#include "cb_model_pcoll.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cb_coll.h"
#include "cb_model_topo.h"

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

/* Algorithm name at count elements into row. */
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
	/* the whole plan only where its fresh reads or waits are priced */
	c.stream = !(t->fresh_bw > 0) && !(cb_model_ranks_per_cpu(t, n) > 0);
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
	struct cb_topo t = *o->topo;
	size_t count = cb_coll_count((enum cb_coll)a->coll, n, (size_t)(bytes / (double)o->esize));

	*nrows = 0;
	if (o->fit) /* the fitted rates of bytes' tier on o->topo's layout */
		cb_fit_topo(&o->fit->p, bytes, &t);
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

struct grid_part {
	const struct cb_pred_opts *o;
	const struct cb_pred_algos *a;
	struct cb_pred_point *pts;
	struct cb_pcoll_row *rows;
	size_t np, first, step;
};

static void *grid_part(void *arg)
{
	struct grid_part *g = arg;

	for (size_t i = g->first; i < g->np; i += g->step)
		g->pts[i].st = cb_model_predict_coll(g->o, g->a, g->pts[i].n, g->pts[i].bytes,
						     g->rows + i * g->a->n, &g->pts[i].got,
						     g->pts[i].why, sizeof(g->pts[i].why));
	return NULL;
}

void cb_model_predict_grid(const struct cb_pred_opts *o, const struct cb_pred_algos *a,
			   struct cb_pred_point *pts, size_t np, struct cb_pcoll_row *rows,
			   int threads)
{
	struct grid_part part[8];
	pthread_t tid[8];
	int nt = threads < 1 ? 1 : threads > 8 ? 8 : threads, started[8] = { 0 };

	for (int k = 0; k < nt; k++) {
		part[k] = (struct grid_part){ o, a, pts, rows, np, (size_t)k, (size_t)nt };
		started[k] = k > 0 && pthread_create(&tid[k], NULL, grid_part, &part[k]) == 0;
	}
	grid_part(&part[0]);
	for (int k = 1; k < nt; k++)
		if (started[k])
			pthread_join(tid[k], NULL);
		else
			grid_part(&part[k]); /* no thread: this one does its share */
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

/* The next count in (clo, chi), gaps dlo <= 0 < dhi at its ends: the zero
 * interpolated in log count (regula falsi, Illinois: each probe builds the
 * plans), 0.05% inside the bracket; else the middle. */
static double next_probe(double clo, double chi, double dlo, double dhi)
{
	double x = exp(log(clo) + (log(chi) - log(clo)) * (-dlo / (dhi - dlo)));
	double mid = floor(fmin(fmax(x, clo * 1.0005), chi / 1.0005));

	if (!isfinite(x) || mid <= clo || mid >= chi)
		mid = floor(sqrt(clo * chi));
	if (mid <= clo || mid >= chi)
		mid = floor((clo + chi) / 2);
	return mid;
}

enum cb_status cb_model_crossover(const struct cb_pred_opts *o, const struct cb_pred_algos *a,
				  int n, double lo, double hi, double *bytes, int *kind, char *why,
				  size_t whylen)
{
	double clo = fmax(1, floor(lo / (double)o->esize)), chi = floor(hi / (double)o->esize);
	double dlo, dhi;
	int side = 0;
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
		double mid = next_probe(clo, chi, dlo, dhi), d;

		if (mid <= clo || mid >= chi)
			break;
		st = gap(o, a, n, mid, &d, why, whylen);
		if (st != CB_OK)
			return st;
		if (d > 0) /* Illinois: the end kept twice in a row has its gap halved */
			chi = mid, dhi = d, dlo /= side > 0 ? 2 : 1, side = 1;
		else
			clo = mid, dlo = d, dhi /= side < 0 ? 2 : 1, side = -1;
	}
	*bytes = clo * (double)o->esize;
	return CB_OK;
}
