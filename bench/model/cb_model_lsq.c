/* cb_model_lsq: least squares for the cost model's fit: QR by Givens
 * rotations on unit-norm columns and a non-negative active-set search
 * (contract in cb_model_lsq.h). */
#include "cb_model_lsq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXP CB_LSQ_MAXP
#define DEP_TOL 1e-9 /* |R_kk| of a unit-norm column below this: dependent */

/* Folds row v (q + 1 entries: q columns, then the right-hand side) into the
 * upper triangle R ((q + 1) x (q + 1)) by Givens rotations: R^T R + v v^T
 * before is R^T R after. */
static void fold_row(double R[MAXP + 1][MAXP + 1], double *v, int q)
{
	for (int c = 0; c <= q; c++) {
		double r, cs, sn;

		if (v[c] == 0)
			continue;
		r = sqrt(R[c][c] * R[c][c] + v[c] * v[c]); /* unit-norm columns: no overflow */
		cs = R[c][c] / r, sn = v[c] / r;
		R[c][c] = r;
		for (int d = c + 1; d <= q; d++) {
			double t = R[c][d];

			R[c][d] = cs * t + sn * v[d];
			v[d] = cs * v[d] - sn * t;
		}
	}
}

/* The QR factorisation of [A b] (b NULL: all 1) over the columns of A in
 * mask, cols[0 .. q) (p columns in all), by Givens rotations row by row on
 * the columns scaled to unit norm (scale[c]; 1 for a zero column): R, upper
 * triangular (q + 1) x (q + 1), R^T R = [A b]^T [A b] scaled, its last
 * column Q^T b and R[q][q] the norm of b's part outside A's columns. Returns
 * q, or -1 with *bad the first zero column where zero_bad. */
static int factor(const double *A, const double *b, size_t m, int p, unsigned mask, int zero_bad,
		  int *cols, double *scale, double R[MAXP + 1][MAXP + 1], int *bad)
{
	int q = 0;

	for (int j = 0; j < p; j++)
		if (mask >> j & 1)
			scale[q] = 0, cols[q++] = j;
	for (size_t i = 0; i < m; i++)
		for (int c = 0; c < q; c++)
			scale[c] += A[i * (size_t)p + cols[c]] * A[i * (size_t)p + cols[c]];
	for (int c = 0; c < q; c++) {
		if (!(scale[c] > 0) && zero_bad) {
			*bad = cols[c];
			return -1;
		}
		scale[c] = scale[c] > 0 ? sqrt(scale[c]) : 1;
	}
	memset(R, 0, sizeof(double[MAXP + 1][MAXP + 1]));
	for (size_t i = 0; i < m; i++) {
		double v[MAXP + 1];

		for (int c = 0; c < q; c++)
			v[c] = A[i * (size_t)p + cols[c]] / scale[c];
		v[q] = b ? b[i] : 1;
		fold_row(R, v, q);
	}
	return q;
}

/* min ||A x - b|| (b NULL: all 1) over the columns in use (mask), A m x p
 * row-major (factor). Returns 0 with x (0 where not in use), *rss and covd
 * (diag of (A^T A)^-1 = R^-1 R^-T, row c of R^-1 squared); -1 with *bad the
 * first column that is zero or depends on the ones before it. */
static int lsq(const double *A, const double *b, size_t m, int p, unsigned mask, double *x,
	       double *rss, double *covd, int *bad)
{
	int cols[MAXP], q;
	double scale[MAXP], R[MAXP + 1][MAXP + 1];

	q = factor(A, b, m, p, mask, 1, cols, scale, R, bad);
	if (q < 0)
		return -1;
	for (int c = 0; c < q; c++)
		if (fabs(R[c][c]) < DEP_TOL) {
			*bad = cols[c];
			return -1;
		}
	*rss = R[q][q] * R[q][q];
	memset(x, 0, (size_t)p * sizeof(double));
	for (int c = q - 1; c >= 0; c--) {
		double s = R[c][q];

		for (int d = c + 1; d < q; d++)
			s -= R[c][d] * x[cols[d]] * scale[d];
		x[cols[c]] = s / R[c][c] / scale[c];
	}
	for (int c = 0; c < q; c++) {
		double inv[MAXP] = { 0 }, t = 0;

		inv[c] = 1 / R[c][c];
		for (int d = c + 1; d < q; d++) {
			double acc = 0;

			for (int e = c; e < d; e++)
				acc -= inv[e] * R[e][d];
			inv[d] = acc / R[d][d];
		}
		for (int d = c; d < q; d++)
			t += inv[d] * inv[d];
		covd[cols[c]] = t / (scale[c] * scale[c]);
	}
	return 0;
}

static int search(const double *A, const double *b, size_t m, int p, unsigned present,
		  unsigned clampable, double *x, double *rss, double *covd, unsigned *used,
		  int *bad, double *x0);

/* The problem min ||A x - b|| over the columns in mask as one of q + 1 rows
 * (q: the columns in mask) with the same residual for every x: A2 = R and
 * b2 = Q^T b of factor in the first q rows (scaled back), and a last row of
 * 0s with the norm of b's part outside A's columns. The same x, rss and
 * (A^T A)^-1 for any subset of mask, at the cost of q columns rather than m
 * rows per solve. A2 ((q+1) x p) and b2 (q+1) are the caller's. */
static void reduce(const double *A, const double *b, size_t m, int p, unsigned mask, double *A2,
		   double *b2)
{
	int cols[MAXP], q, bad;
	double scale[MAXP], R[MAXP + 1][MAXP + 1];

	q = factor(A, b, m, p, mask, 0, cols, scale, R, &bad);
	memset(A2, 0, (size_t)(q + 1) * (size_t)p * sizeof(double));
	for (int r = 0; r < q; r++) {
		for (int c = r; c < q; c++)
			A2[(size_t)r * (size_t)p + cols[c]] = R[r][c] * scale[c];
		b2[r] = R[r][q];
	}
	b2[q] = R[q][q];
}

/* The unconstrained solution if it is feasible, else the best feasible one
 * with some clampable columns held at 0 (contract in cb_model_lsq.h). Every
 * subset is solved on the problem reduced to q + 1 rows (reduce). */
int cb_lsq_nnls(const double *A, const double *b, size_t m, int p, unsigned present,
		unsigned clampable, double *x, double *rss, double *covd, unsigned *used, int *bad,
		double *x0)
{
	int q = __builtin_popcount(present), rc;
	double *A2, *b2;

	if (m <= (size_t)q + 1)
		return search(A, b, m, p, present, clampable, x, rss, covd, used, bad, x0);
	A2 = malloc((size_t)(q + 1) * ((size_t)p + 1) * sizeof(double));
	if (!A2)
		return -2;
	b2 = A2 + (size_t)(q + 1) * (size_t)p;
	reduce(A, b, m, p, present, A2, b2);
	rc = search(A2, b2, (size_t)q + 1, p, present, clampable, x, rss, covd, used, bad,
			    x0);
	free(A2);
	return rc;
}

/* cb_lsq_nnls on the problem as given. */
static int search(const double *A, const double *b, size_t m, int p, unsigned present,
		  unsigned clampable, double *x, double *rss, double *covd, unsigned *used,
		  int *bad, double *x0)
{
	int rc = -3, neg = -1;
	unsigned all = present, cl = clampable & present;
	double best = INFINITY;

	/* subsets of the clampable set, the empty one (unconstrained) first */
	for (unsigned z = 0; z <= cl; z = ((z | ~cl) + 1) & cl) {
		double xs[MAXP], r, cd[MAXP] = { 0 };
		unsigned use = all & ~z;
		int bd = -1, ok = 1, st = lsq(A, b, m, p, use, xs, &r, cd, &bd);

		if (st == -2 || (st == -1 && z == 0)) {
			rc = st;
			*bad = bd;
			break;
		}
		if (z == 0 && x0)
			memcpy(x0, xs, (size_t)p * sizeof(double));
		for (int j = 0; st == 0 && j < p; j++)
			if ((use & (1u << j)) && (xs[j] < 0 || (!(cl & (1u << j)) && !(xs[j] > 0)))) {
				ok = 0;
				if (!(cl & (1u << j)) && neg < 0)
					neg = j;
			}
		if (st == 0 && ok && r < best) {
			best = r;
			memcpy(x, xs, (size_t)p * sizeof(double));
			memcpy(covd, cd, (size_t)p * sizeof(double));
			*used = use;
			rc = 0;
			if (z == 0)
				break; /* the unconstrained solution is feasible */
		}
		if (z == cl)
			break;
	}
	if (rc == -3)
		*bad = neg;
	if (rc == 0)
		*rss = best;
	return rc;
}
