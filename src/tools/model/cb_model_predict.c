/* cb_model_predict: ps and ring at scale on a topology, and where ps stops
 * beating the ring (contract in cb_model_verbs.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cb_model_verbs.h"

/* The topology for message size bytes: the preset's, or with the fitted
 * link, reduce and copy rates of bytes' tier. */
static struct cb_topo topo_for(const struct cb_pred_opts *o, double bytes)
{
	struct cb_topo t = *o->topo;

	if (o->fit) {
		const struct cb_fit_tier *tr = cb_fit_tier_of(&o->fit->p, bytes);

		t.intra.alpha = o->fit->p.alpha;
		t.intra.bw = tr->beta;
		t.copy_bw = tr->beta;
		t.gamma = tr->gamma;
		t.fused_bw = tr->fused > 0 ? tr->fused : 0;
	}
	return t;
}

enum cb_status cb_model_predict(const struct cb_pred_opts *o, int n, double bytes,
				struct cb_pred_row *row, char *why, size_t whylen)
{
	struct cb_topo t = topo_for(o, bytes);
	static const enum cb_model_algo algos[2] = { CB_MODEL_PS, CB_MODEL_RING };

	memset(row, 0, sizeof(*row));
	row->n = n;
	row->bytes = bytes;
	for (int a = 0; a < 2; a++) {
		struct cb_model_case c = { algos[a], n, (size_t)(bytes / (double)o->esize), o->esize,
					   o->root < n ? o->root : 0, 0, o->two_sided, 1 };
		struct cb_model_result r;
		enum cb_status st = cb_model_eval(&t, &c, &r, why, whylen);

		if (st != CB_OK)
			return st;
		if (!isfinite(r.time) || !(r.time >= 0)) {
			snprintf(why, whylen, "%s at %d ranks, %.0f bytes: predicted time %g s is not "
				 "finite (a parameter out of range)", a ? "ring" : "ps", n, bytes,
				 r.time);
			return CB_ERR_ARG;
		}
		row->t[a] = r.time;
		row->rank_max[a] = r.txrx_max;
		row->rank_min[a] = r.txrx_min;
		row->host_max[a] = r.host_max;
		row->host_min[a] = r.host_min;
	}
	return CB_OK;
}

/* ps time - ring time at count elements per rank. */
static enum cb_status gap(const struct cb_pred_opts *o, int n, double count, double *d,
			  char *why, size_t whylen)
{
	struct cb_pred_row row;
	enum cb_status st = cb_model_predict(o, n, count * (double)o->esize, &row, why, whylen);

	*d = row.t[0] - row.t[1];
	return st;
}

enum cb_status cb_model_crossover(const struct cb_pred_opts *o, int n, double lo, double hi,
				  double *bytes, int *kind, char *why, size_t whylen)
{
	double clo = fmax(1, floor(lo / (double)o->esize)), chi = floor(hi / (double)o->esize);
	double dlo, dhi;
	enum cb_status st = gap(o, n, clo, &dlo, why, whylen);

	if (st == CB_OK)
		st = gap(o, n, chi, &dhi, why, whylen);
	if (st != CB_OK)
		return st;
	*kind = dlo > 0 ? 1 : dhi <= 0 ? 2 : 0;
	*bytes = *kind == 1 ? clo * (double)o->esize : chi * (double)o->esize;
	if (*kind)
		return CB_OK;
	while (chi > clo + 1 && chi / clo > 1.001) { /* ps no slower at clo, slower at chi */
		double mid = floor(sqrt(clo * chi)), d;

		if (mid <= clo || mid >= chi)
			mid = floor((clo + chi) / 2);
		if (mid <= clo || mid >= chi)
			break;
		st = gap(o, n, mid, &d, why, whylen);
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
