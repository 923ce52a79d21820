/* cb_model_fit_int: the least-squares core of cb_model_fit (internal to
 * cb_model_fit.c and cb_model_lsq.c). Parameters x = (overhead, alpha,
 * 1/beta_1..K, 1/gamma_1..K, 1/fused_1..K), rows scaled by their measured
 * time (relative error). A one-sided step's fused bytes cost
 * max(1/beta, 1/fused) each: 1/fused where that is the larger, else 1/beta
 * (the tier's bit in fused_at_beta), so the problem stays linear. */
#ifndef CB_MODEL_FIT_INT_H
#define CB_MODEL_FIT_INT_H

#include "cb_model_fit.h"

#define MAXP (2 + 3 * CB_FIT_MAX_TIERS)
#define IX_T0 0                          /* per-call overhead, s */
#define IX_A 1                           /* alpha, s */
#define IX_U(pb, t) (2 + (t))            /* 1/beta of tier t, s/B */
#define IX_V(pb, t) (2 + (pb)->k + (t))  /* 1/gamma of tier t, s/B */
#define IX_W(pb, t) (2 + 2 * (pb)->k + (t)) /* 1/fused rate of tier t, s/B */

/* A problem: the rows, the tier boundaries, which parameters it has. */
struct prob {
	const struct cb_fit_obs *obs;
	size_t m;
	int k;                    /* tiers */
	double brk[CB_FIT_MAX_TIERS - 1];
	int fit_gamma;
	int with_t0;              /* some row sends no message (copy, n = 1) */
	unsigned has_fused;       /* bit t: tier t has rows with fused bytes */
	unsigned fused_at_beta;   /* bit t: tier t's fused bytes cost 1/beta */
	int *tier_of;             /* [m] */
};

/* Mask of the parameters the problem has, and their number. */
unsigned cb_fit_present(const struct prob *pb);
int cb_fit_np(const struct prob *pb);

/* Tier of a message size for boundaries brk[0..k-2]. */
int cb_fit_tier_index(const double *brk, int k, double bytes);

/* Non-negative least squares on time column `which` (0 median, 1 fastest,
 * 2 slowest repeat): alpha and every 1/gamma may be held at 0, each 1/beta
 * must come out > 0. Returns 0 with x, *rss, covd (diagonal of (A^T A)^-1)
 * and *used (mask of the parameters not held at 0); -1 when column *bad is
 * zero or depends on the ones before it; -2 out of memory; -3 no feasible
 * solution (*bad: the first 1/beta that came out <= 0). */
int cb_fit_nnls(const struct prob *pb, int which, double *x, double *rss, double *covd,
		unsigned *used, int *bad);

#endif
