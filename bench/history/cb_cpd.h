/* cb_cpd: change-point detection on one series, E-divisive means with a
 * Student's t-test, as Hunter (Fleming et al., "Hunter: Using Change Point
 * Detection to Hunt for Performance Regressions", ICPE 2023,
 * arXiv:2301.03034) and Apache Otava (docs/MATH.md) describe it; written here
 * from those descriptions. Deterministic: no permutations, no randomness.
 *
 * 1. Candidate (Matteson and James, arXiv:1306.4933, alpha = 1): in an
 *    interval [s, e) of the series, the split tau and end kappa
 *    (s < tau < kappa <= e) that maximise
 *      Q = 2/(n+m) sum|X_i - Y_j| - 2m/((n+m)(n-1)) sum_{i<k}|X_i - X_k|
 *                                 - 2n/((n+m)(m-1)) sum_{j<k}|Y_j - Y_k|
 *    with X = x[s, tau), n = tau - s, Y = x[tau, kappa), m = kappa - tau (a
 *    within-sum of one point is 0). tau, the first point of the new
 *    segment, is the candidate; ties go to the smallest tau, then kappa.
 * 2. Significance: a two-sided Student's t-test (pooled variance, sample
 *    standard deviations) between the points of the interval left and right
 *    of tau. Within a window the best candidate over all intervals between
 *    the change points found so far is tested; significant ones split their
 *    interval and the search goes on, the first that is not ends it.
 * 3. Split: windows of `window` points, each starting half a window after
 *    the previous one (or at its last change point, if later), with the
 *    relaxed level (10 x max_pvalue below 0.05, 2 x below 0.5, as Otava):
 *    the union of their change points ("weak" ones), re-tested between
 *    their neighbours over the whole series.
 * 4. Merge: repeatedly drop the change point with the largest p-value if it
 *    is not below max_pvalue, else the one with the smallest magnitude if that
 *    is at or below min_magnitude, re-testing its two neighbours (Otava
 *    re-tests the one after and the one after that; the two whose segments
 *    changed are the one before and the one after), until all pass.
 * Magnitude: max(|after/before - 1|, |before/after - 1|) of the means.
 * Floor (noise_floor, not in Otava): the t-test's pooled standard deviation
 * is at least noise_floor x the larger |mean| of the two segments. Without
 * it, segments without spread (runs that give the same value to the last
 * digit: a copied run, a quantised metric) have variance 0, and any step
 * between them, even 0.03%, gives t = inf and p = 0; a step is evidence only
 * against the noise a run can have, so steps that are small next to the
 * floor are not change points. With noise_floor 0, a step between segments
 * without spread has p = 1 (no evidence either way), not p = 0.
 * Two deliberate differences from Otava's code (otava/analysis.py): sample
 * standard deviations in the t-test (Otava passes numpy's population ones to
 * scipy's ttest_ind_from_stats, which makes its p-values smaller), and the
 * neighbours re-tested in step 4. With those two changed in Otava, both gave
 * the same change points on 300 random series (20-160 points, 0-3 steps of
 * 5-20%, 3% noise, levels 1e-3..1e-5, windows 20-50; issue 15's report). */
#ifndef CB_CPD_H
#define CB_CPD_H

#include <stddef.h>

#include "cb_status.h"

struct cb_cpd_opts {
	double max_pvalue;    /* significance level, e.g. 0.001; in (0, 1] */
	size_t window;        /* points per window, >= 4 */
	double min_magnitude; /* a fraction; 0 keeps every significant change */
	double noise_floor;   /* a fraction >= 0, the least relative standard
			       * deviation the t-test assumes (see the top) */
};

struct cb_cpd_change {
	size_t index;                      /* first point after the change */
	double qhat;                       /* the candidate's Q */
	double mean_before, mean_after;    /* of the segments next to it */
	double std_before, std_after;      /* sample standard deviations */
	size_t n_before, n_after;
	double pvalue;                     /* two-sided t-test between the segments */
};

/* Finds the change points of x[0..n-1] (finite values) under o into a new
 * array *out of *nout entries in index order (NULL, 0 when none). Errors:
 * CB_ERR_ARG (o out of range), CB_ERR_NOMEM. Pure otherwise. */
enum cb_status cb_cpd_detect(const double *x, size_t n, const struct cb_cpd_opts *o,
			     struct cb_cpd_change **out, size_t *nout);

/* Two-sided p-value of Student's t with df degrees of freedom (df > 0):
 * P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2), the regularized incomplete beta
 * (Abramowitz and Stegun 26.7.1), by its continued fraction (DLMF 8.17.22). */
double cb_cpd_t_pvalue(double t, double df);

/* The t-test of x[a0, a1) against x[a1, a2) into c (index = a1), its
 * pooled standard deviation at least floor x max(|mean before|, |mean
 * after|) (see the top; floor 0: none, and p = 1 where both segments are
 * constant). */
void cb_cpd_ttest(const double *x, size_t a0, size_t a1, size_t a2, double floor,
		  struct cb_cpd_change *c);

/* max(|after/before - 1|, |before/after - 1|); 0 when a mean is 0. */
double cb_cpd_magnitude(const struct cb_cpd_change *c);

#endif
