/* cb_model_lsq: least squares for the cost model's fit: Householder QR on
 * unit-norm columns and a non-negative active-set search (contract in
 * cb_model_lsq.h). */
#include "cb_model_lsq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXP CB_LSQ_MAXP
#define DEP_TOL 1e-9 /* |R_kk| of a unit-norm column below this: dependent */

/* A QR factorisation in progress: the columns in use of A, scaled to unit
 * norm, and the right-hand side, overwritten by Householder reflections. */
struct qr {
	size_t m;
	int q, cols[MAXP];
	double *w, *y;  /* [m * MAXP], [m] */
	double scale[MAXP], R[MAXP][MAXP];
};

/* Copies the columns of A in mask (p columns in all) and scales them.
 * Returns 0, or -1 with *bad a zero column. */
static int qr_load(struct qr *z, const double *A, const double *b, int p, unsigned mask,
		   int *bad)
{
	for (int j = 0; j < p; j++)
		if (mask & (1u << j))
			z->cols[z->q++] = j;
	for (size_t i = 0; i < z->m; i++) {
		z->y[i] = b ? b[i] : 1;
		for (int c = 0; c < z->q; c++)
			z->w[i * MAXP + c] = A[i * (size_t)p + z->cols[c]];
	}
	for (int c = 0; c < z->q; c++) {
		double s = 0;

		for (size_t i = 0; i < z->m; i++)
			s += z->w[i * MAXP + c] * z->w[i * MAXP + c];
		z->scale[c] = sqrt(s);
		if (!(z->scale[c] > 0)) {
			*bad = z->cols[c];
			return -1;
		}
		for (size_t i = 0; i < z->m; i++)
			z->w[i * MAXP + c] /= z->scale[c];
	}
	return 0;
}

/* Householder QR of the loaded columns, applied to y as well. Returns 0, or
 * -1 with *bad the first column that depends on the ones before it. */
static int qr_factor(struct qr *z, int *bad)
{
	double *w = z->w;

	for (int c = 0; c < z->q; c++) {
		double nrm = 0, v0, beta;

		for (size_t i = (size_t)c; i < z->m; i++)
			nrm += w[i * MAXP + c] * w[i * MAXP + c];
		nrm = sqrt(nrm);
		if (nrm < DEP_TOL) {
			*bad = z->cols[c];
			return -1;
		}
		v0 = w[(size_t)c * MAXP + c];
		z->R[c][c] = v0 > 0 ? -nrm : nrm;
		w[(size_t)c * MAXP + c] = v0 - z->R[c][c]; /* v = x - R_cc e1, kept in column c */
		beta = 0;
		for (size_t i = (size_t)c; i < z->m; i++)
			beta += w[i * MAXP + c] * w[i * MAXP + c];
		for (int d = c + 1; d <= z->q; d++) { /* column d, or y for d == q */
			double dot = 0, *col = d < z->q ? w + d : z->y;
			size_t stride = d < z->q ? MAXP : 1;

			for (size_t i = (size_t)c; i < z->m; i++)
				dot += w[i * MAXP + c] * col[i * stride];
			dot = 2 * dot / beta;
			for (size_t i = (size_t)c; i < z->m; i++)
				col[i * stride] -= dot * w[i * MAXP + c];
		}
		for (int d = c + 1; d < z->q; d++)
			z->R[c][d] = w[(size_t)c * MAXP + d];
	}
	return 0;
}

/* x from R x = Q^T y (unscaled), the residual sum of squares, and covd: the
 * diagonal of (A^T A)^-1 = R^-1 R^-T, row c of R^-1 squared. */
static void qr_solve(const struct qr *z, int p, double *x, double *rss, double *covd)
{
	*rss = 0;
	for (size_t i = (size_t)z->q; i < z->m; i++)
		*rss += z->y[i] * z->y[i];
	memset(x, 0, (size_t)p * sizeof(double));
	for (int c = z->q - 1; c >= 0; c--) {
		double s = z->y[c];

		for (int d = c + 1; d < z->q; d++)
			s -= z->R[c][d] * x[z->cols[d]] * z->scale[d];
		x[z->cols[c]] = s / z->R[c][c] / z->scale[c];
	}
	for (int c = 0; c < z->q; c++) {
		double inv[MAXP] = { 0 }, s = 0;

		inv[c] = 1 / z->R[c][c];
		for (int d = c + 1; d < z->q; d++) {
			double acc = 0;

			for (int e = c; e < d; e++)
				acc -= inv[e] * z->R[e][d];
			inv[d] = acc / z->R[d][d];
		}
		for (int d = c; d < z->q; d++)
			s += inv[d] * inv[d];
		covd[z->cols[c]] = s / (z->scale[c] * z->scale[c]);
	}
}

/* min ||A x - b|| (b NULL: all 1) over the columns in use (mask), A m x p
 * row-major, by Householder QR with unit-norm columns. Returns 0 with x (0
 * where not in use), *rss and covd (diag of (A^T A)^-1); -1 with *bad the
 * first column that is zero or depends on the ones before it; -2 out of
 * memory. */
static int lsq(const double *A, const double *b, size_t m, int p, unsigned mask, double *x,
	       double *rss, double *covd, int *bad)
{
	struct qr z = { .m = m };
	int rc;

	z.w = malloc(m * (MAXP + 1) * sizeof(double));
	if (!z.w)
		return -2;
	z.y = z.w + m * MAXP;
	rc = qr_load(&z, A, b, p, mask, bad);
	if (rc == 0)
		rc = qr_factor(&z, bad);
	if (rc == 0)
		qr_solve(&z, p, x, rss, covd);
	free(z.w);
	return rc;
}

static int search(const double *A, const double *b, size_t m, int p, unsigned present,
		  unsigned clampable, double *x, double *rss, double *covd, unsigned *used,
		  int *bad, double *x0);

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

/* The problem min ||A x - b|| (b NULL: all 1) over the columns in mask as one
 * of q + 1 rows (q: the columns in mask) with the same residual for every x:
 * the QR factorisation of [A b] by Givens rotations, row by row (columns
 * scaled to unit norm, then scaled back): A2 = R and b2 = Q^T b in the first
 * q rows, and a last row of 0s with the norm of b's part outside A's
 * columns. The same x, rss and (A^T A)^-1 = (R^T R)^-1 for any subset of
 * mask, at the cost of q columns rather than m rows per solve. A2 ((q+1) x
 * p) and b2 (q+1) are the caller's. */
static void reduce(const double *A, const double *b, size_t m, int p, unsigned mask, double *A2,
		   double *b2)
{
	int q = 0, cols[MAXP];
	double scale[MAXP] = { 0 }, R[MAXP + 1][MAXP + 1] = { { 0 } };

	for (int j = 0; j < p; j++)
		if (mask >> j & 1)
			cols[q++] = j;
	for (size_t i = 0; i < m; i++)
		for (int c = 0; c < q; c++)
			scale[c] += A[i * (size_t)p + cols[c]] * A[i * (size_t)p + cols[c]];
	for (int c = 0; c < q; c++)
		scale[c] = scale[c] > 0 ? sqrt(scale[c]) : 1;
	for (size_t i = 0; i < m; i++) {
		double v[MAXP + 1];

		for (int c = 0; c < q; c++)
			v[c] = A[i * (size_t)p + cols[c]] / scale[c];
		v[q] = b ? b[i] : 1;
		fold_row(R, v, q);
	}
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
