/* cb_model_pcoll: predict's plans of the collectives other than allreduce
 * (contract in cb_model_pcoll.h). */
#include "cb_model_pcoll.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cb_plan_lib.h"

/* One plan algorithm al at the point into row. */
static enum cb_status price(const struct cb_topo *t, const struct cb_pred_opts *o,
			    const struct cb_plan_algo *al, int n, size_t count,
			    struct cb_pcoll_row *row, char *why, size_t whylen)
{
	struct cb_model_case c = { .algo = CB_MODEL_PLAN, .n = n, .count = count,
				   .esize = o->esize, .root = o->root < n ? o->root : 0,
				   .two_sided = o->two_sided, .slice_auto = 1, .plan = al };
	struct cb_model_result r;
	enum cb_status st = cb_model_eval(t, &c, &r, why, whylen);

	if (st != CB_OK)
		return st;
	if (!isfinite(r.time) || !(r.time >= 0)) {
		snprintf(why, whylen, "%s at %d ranks, %zu elements: predicted time %g s is not "
			 "finite (a parameter out of range)", al->name, n, count, r.time);
		return CB_ERR_ARG;
	}
	row->algo = al->name;
	row->t = r.time;
	row->rank_max = r.txrx_max;
	row->rank_min = r.txrx_min;
	row->host_max = r.host_max;
	row->host_min = r.host_min;
	return CB_OK;
}

enum cb_status cb_model_predict_coll(const struct cb_pred_opts *o, enum cb_coll coll, int n,
				     double bytes, struct cb_pcoll_row *rows, size_t *nrows,
				     char *why, size_t whylen)
{
	struct cb_topo t = cb_pred_topo(o, bytes);
	size_t na, count = cb_coll_count(coll, n, (size_t)(bytes / (double)o->esize));
	const struct cb_plan_algo *al = cb_plan_coll_algos(coll, &na);
	double steps = (double)n * ((double)n + bytes / (double)t.slice_bytes + 1);

	*nrows = 0;
	if (count == 0) {
		snprintf(why, whylen, "%s at %d ranks: %.0f bytes hold no element per rank",
			 cb_coll_get(coll)->name, n, bytes);
		return CB_ERR_UNSUPPORTED;
	}
	if (steps > CB_PCOLL_MAX_STEPS) {
		snprintf(why, whylen, "%s at %d ranks, %.0f bytes: its plans may have up to %.3g "
			 "steps; predict builds plans of up to %u (fewer ranks, or a topology with "
			 "larger slice_bytes)", cb_coll_get(coll)->name, n, bytes, steps,
			 CB_PCOLL_MAX_STEPS);
		return CB_ERR_UNSUPPORTED;
	}
	for (size_t k = 0; k < na && k < CB_PCOLL_MAX_ALGOS; k++) {
		enum cb_status st = price(&t, o, &al[k], n, count, &rows[k], why, whylen);

		if (st != CB_OK)
			return st;
		rows[k].n = n;
		rows[k].bytes = (double)count * (double)o->esize;
		++*nrows;
	}
	return CB_OK;
}
