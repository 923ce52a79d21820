/* cb_model_lsq: the least squares of the cost model's fit (cb_model_fit.c):
 * min || A x - b || over x (b all 1 unless given), A an m x p design matrix
 * (row-major: a row per measured row, its terms divided by its time, so the
 * residuals are relative errors), by QR (Givens rotations, row by row) on
 * columns scaled to unit norm, with a non-negative active-set search over
 * the columns that may be held at 0. The m rows are first reduced to p + 1
 * by the same rotations (the same residual for every x), so each of the
 * search's solves costs p columns, not m rows. */
#ifndef CB_MODEL_LSQ_H
#define CB_MODEL_LSQ_H

#include <stddef.h>

/* The most columns: the fit's parameters, 3 + 3 * CB_FIT_MAX_TIERS
 * (cb_model_fit.c checks that they fit). */
#define CB_LSQ_MAXP 15

/* Against b[m] (NULL: all 1): the unconstrained solution over the columns
 * in present (bit j: column j, j < p <= CB_LSQ_MAXP) if it is feasible,
 * else the feasible one of least residual with some columns of clampable
 * held at 0. Feasible: every column
 * in use of clampable >= 0, every other one in use > 0. Returns 0 with x[p]
 * (0 where not in use), *rss, covd[p] (the diagonal of (A^T A)^-1) and *used
 * (the columns in use); -1 when column *bad is zero or depends on the ones
 * before it (in the unconstrained problem); -2 out of memory; -3 no feasible
 * solution (*bad: the first column not in clampable that came out <= 0).
 * x0[p], unless NULL, gets the unconstrained solution on returns 0 and -3. */
int cb_lsq_nnls(const double *A, const double *b, size_t m, int p, unsigned present,
		unsigned clampable, double *x, double *rss, double *covd, unsigned *used, int *bad,
		double *x0);

#endif
