/* cb_model_pcoll: predict for the collectives other than allreduce
 * (collbench-model predict --coll NAME): every plan algorithm of the
 * collective (collectives/plans/cb_plan_lib.h, cb_plan_coll_algos) priced from its plan
 * (CB_MODEL_PLAN: the same round-by-round costing as a measured row's,
 * cb_model.h) on a topology, at rank counts and sizes. allreduce's own
 * predict (ps and ring at scale, without building plans) is
 * cb_model_predict (cb_model_verbs.h). */
#ifndef CB_MODEL_PCOLL_H
#define CB_MODEL_PCOLL_H

#include <stddef.h>

#include "cb_coll.h"
#include "cb_model_verbs.h"

/* Plans priced by predict have at most this many steps by the bound
 * n (n + S / slice + 1), which holds every built-in plan of the four
 * collectives (their rounds of n-1 steps or their slices): a larger point
 * is skipped rather than built (a plan step is ~80 bytes of memory). */
#define CB_PCOLL_MAX_STEPS (1u << 20)
#define CB_PCOLL_MAX_ALGOS 8

struct cb_pcoll_row {
	int n;
	double bytes;               /* the collective's count x element size: -b/-e's
				     * size rounded down to whole elements (split
				     * collectives: to a multiple of n) */
	const char *algo;           /* its plan's name (static) */
	double t;                   /* seconds */
	double rank_max, rank_min;  /* bytes in + out of the busiest / least busy rank */
	double host_max, host_min;  /* of the busiest / least busy host network link */
};

/* Prices every plan algorithm of coll (not allreduce) at n ranks and bytes
 * (rows' bytes, as above) on o's topology (o->fit: its parameters), one row
 * each into rows[0 .. *nrows) (at most CB_PCOLL_MAX_ALGOS). Errors:
 * CB_ERR_UNSUPPORTED (the point is skipped: fewer elements than the
 * collective splits, a plan beyond CB_PCOLL_MAX_STEPS, or cb_model_eval's:
 * the reason in why), CB_ERR_ARG (a time not finite, why says so),
 * CB_ERR_NOMEM. */
enum cb_status cb_model_predict_coll(const struct cb_pred_opts *o, enum cb_coll coll, int n,
				     double bytes, struct cb_pcoll_row *rows, size_t *nrows,
				     char *why, size_t whylen);

#endif
