/* cb_model_pcoll: predict: any list of algorithms of any collective priced
 * from their plans (as a measured row is, cb_model.h) on a topology, at
 * rank counts and sizes, and where one stops beating another. */
#ifndef CB_MODEL_PCOLL_H
#define CB_MODEL_PCOLL_H

#include <stddef.h>

#include "cb_model_reg.h"
#include "cb_model_verbs.h"

#define CB_PCOLL_MAX_ALGOS CB_MREG_MAX_PLANS
#define CB_PCOLL_NAME 40

struct cb_pred_opts {
	const struct cb_topo *topo;
	const struct cb_fit_group *fit; /* NULL, or its parameters replace the topology's
					 * intra link, gamma and copy bandwidth */
	size_t esize;
	int root;
	int two_sided;              /* bytes land, then are reduced (cb_model_case) */
};

struct cb_pred_algos {                        /* the algorithms predict prices */
	int coll;                                 /* enum cb_coll */
	size_t n;
	char name[CB_PCOLL_MAX_ALGOS][CB_PCOLL_NAME];
};

/* list (a comma list of names; NULL or "": every plan algorithm the
 * registry has for coll, in its order) into *a. Returns 0, or -1 with why
 * set (a name that is no algorithm of coll the model can price, more than
 * CB_PCOLL_MAX_ALGOS, or none). */
int cb_pred_algos(int coll, const char *list, struct cb_pred_algos *a, char *why, size_t whylen);

struct cb_pcoll_row {
	int n;
	double bytes;               /* the collective's count x element size: -b/-e's
				     * size rounded down to whole elements (split
				     * collectives: to a multiple of n) */
	const char *algo;           /* its name (in the cb_pred_algos) */
	double t;                   /* seconds */
	double rank_max, rank_min;  /* bytes in + out of the busiest / least busy rank */
	double host_max, host_min;  /* of the busiest / least busy host network link */
};

/* Prices every algorithm of a at n ranks and bytes on o's topology (o->fit:
 * its parameters), one row each into rows[0 .. *nrows) (at most a->n).
 * Errors: CB_ERR_UNSUPPORTED (the point is skipped: fewer elements than the
 * collective splits, or an algorithm with no plan there: the reason in
 * why), CB_ERR_ARG (a time not finite, why says so), CB_ERR_NOMEM. */
enum cb_status cb_model_predict_coll(const struct cb_pred_opts *o, const struct cb_pred_algos *a,
				     int n, double bytes, struct cb_pcoll_row *rows, size_t *nrows,
				     char *why, size_t whylen);

struct cb_pred_point { /* a point of the grid: n, bytes in; status, rows, reason out */
	int n;
	double bytes;
	enum cb_status st;
	size_t got;                 /* its rows, at rows + its index x a->n */
	char why[256];
};

/* cb_model_predict_coll at every point of pts[0 .. np), point i's rows at
 * rows + i * a->n, the points shared among up to threads threads (each
 * plan built and priced by one; 1: the calling thread alone, as where a
 * thread cannot start). Each point's status is in its st. */
void cb_model_predict_grid(const struct cb_pred_opts *o, const struct cb_pred_algos *a,
			   struct cb_pred_point *pts, size_t np, struct cb_pcoll_row *rows,
			   int threads);

/* The largest message size in [lo, hi] bytes at which a's first algorithm
 * is no slower than its second on n ranks (bisection, to 0.1% or one
 * element). *kind: 0 a crossing at *bytes, 1 the second wins already at lo,
 * 2 the first wins up to hi. Errors: cb_model_predict_coll's. */
enum cb_status cb_model_crossover(const struct cb_pred_opts *o, const struct cb_pred_algos *a,
				  int n, double lo, double hi, double *bytes, int *kind, char *why,
				  size_t whylen);

#endif
