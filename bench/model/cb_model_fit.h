/* cb_model_fit: alpha, beta and gamma of one (backend, transport) from
 * measured rows, by least squares.
 *
 * Every row's modelled time is linear in (overhead, alpha, 1/beta, 1/gamma)
 * on one host (cb_model_terms): t = calls * overhead + msgs * alpha +
 * link_bytes / beta + reduce_bytes / gamma + fused_bytes * max(1/beta,
 * 1/fused), where fused is the rate of a one-sided step that reduces its
 * peer's bytes as it reads them (ps's root reduces bytes already in its own
 * memory at gamma; the ring's reduce-scatter steps read the peer's at
 * fused). Where the fit finds fused faster than beta, that tier's fused
 * bytes are fitted at beta (the step is bound by moving). One-sided rows add
 * fresh_bytes / fresh: the extra of reading bytes another rank wrote in the
 * call (cb_model.h), one rate for every tier, kept >= 0 (free), and held
 * free where the rows' fresh bytes move in step with their other terms. The overhead is a
 * call's fixed cost (timer, function calls), fitted where rows without any
 * message (copy, n = 1) tell it from alpha. The fit minimises the sum of squared relative errors
 * ((t_model - t) / t)^2, so an 8-byte row and a 64 MiB row count alike, with
 * QR (Givens rotations) on columns scaled to unit norm. Bandwidths may differ by
 * size tier (a host's memory is faster while a message fits its caches):
 * beta and gamma per tier of message size [lo, hi), alpha shared. Tier
 * boundaries are given, or chosen among the measured sizes by the Bayesian
 * information criterion (m ln(RSS/m) + p ln m) over 1..max_tiers tiers:
 * every choice of boundaries among at most 32 candidates (every size but the
 * smallest where there are up to 33, else 32 spread evenly in log size), so
 * the search's cost does not grow with the number of sizes beyond that.
 * alpha and 1/gamma are kept >= 0 (non-negative least squares by active
 * sets: 1/gamma = 0 means the reduce costs nothing measurable); a negative
 * 1/beta is refused.
 *
 * Time slicing's cost per waited round (switch_s, wait_frac) is fitted
 * second, with the rest held: on the group's rows with more ranks than
 * CPUs, whose waits term (cb_model_terms) is not 0, by the same relative
 * least squares in its two unknowns, kept >= 0 (cb_fit_switch).
 *
 * Uncertainty, two ways: standard errors from the residuals (sigma^2 =
 * RSS / (m - p) times (A^T A)^-1, carried to beta and gamma by the delta
 * method), and the spread over repeats: the same fit on every row's fastest
 * and slowest repeat (allreduce_perf -R: the repeats' median times). */
#ifndef CB_MODEL_FIT_H
#define CB_MODEL_FIT_H

#include <stddef.h>

#include "cb_model.h"
#include "cb_status.h"

#define CB_FIT_MAX_TIERS 4

struct cb_fit_obs {
	struct cb_model_terms terms; /* the row's modelled terms */
	double t;                    /* measured seconds (median over iterations) */
	double t_lo, t_hi;           /* fastest and slowest repeat, seconds; NaN: none */
	double bytes;                /* message size per rank, for the tiers */
};

struct cb_fit_tier {
	double lo, hi;             /* bytes: lo <= S < hi; hi INFINITY for the last */
	double beta, gamma;        /* bytes per second; gamma INFINITY: free */
	double fused;              /* one-sided move-and-reduce rate, B/s; NaN: no
				    * such rows (the slower of beta and gamma) */
	double beta_se, gamma_se, fused_se; /* standard errors, B/s; NaN: undefined */
	double beta_rep[2], gamma_rep[2], fused_rep[2]; /* fits on the fastest /
							 * slowest repeats */
	size_t nobs;
};

struct cb_fit_params {
	double overhead, overhead_se, overhead_rep[2]; /* seconds per call */
	double alpha, alpha_se, alpha_rep[2]; /* seconds */
	double fresh, fresh_se, fresh_rep[2]; /* the fresh reads' extra (cb_model_terms),
					       * B/s; INFINITY: free (fitted 0, no such
					       * rows, or not determined) */
	int ntiers;
	struct cb_fit_tier tier[CB_FIT_MAX_TIERS];
	size_t nobs;
	int gamma_fitted;          /* 0: gamma left out (free) */
	double med_abs, max_abs;   /* |relative error| of the fit on its rows */
	double switch_s;           /* time slicing: seconds per unit of the waits
				    * term (cb_model.h), fitted after the rest on
				    * the oversubscribed rows with a waited round;
				    * 0 where there are none (or where the fit,
				    * kept >= 0, gives 0) */
	double wait_frac;          /* and the share of wait_time (a rank's mean
				    * time in a waited round) */
	size_t switch_nobs;        /* the rows it was fitted on */
	size_t tier_sets;          /* tier boundaries the fit tried: 1 where given,
				    * the search's count with --tiers auto */
};

struct cb_fit_opts {
	int max_tiers;             /* 1..CB_FIT_MAX_TIERS */
	int nbreaks;               /* -1: choose (auto); else the breaks below */
	double breaks[CB_FIT_MAX_TIERS - 1]; /* ascending tier boundaries, bytes */
	int fit_gamma;
	int no_fresh;              /* 1: leave the fresh reads' extra out (free) */
};

/* Fits m observations. Errors: CB_ERR_ARG with the reason in why when the
 * rows cannot determine the parameters (too few rows, one size in a tier,
 * gamma moving in step with beta in every row, a negative time per byte, or
 * parameters that cb_fit_params_check (cb_model_params.h) refuses: times that do not grow with
 * message size give a bandwidth beyond any machine's), CB_ERR_NOMEM. p is
 * filled on CB_OK only. */
enum cb_status cb_fit_run(const struct cb_fit_obs *obs, size_t m, const struct cb_fit_opts *o,
			  struct cb_fit_params *p, char *why, size_t whylen);

/* Time slicing's switch_s and wait_frac from m observations: measured
 * seconds t[i], the model's seconds without either model[i], and their
 * terms waits[i] and wtime[i] (cb_model_terms): the s, f >= 0 minimising the
 * sum of ((model + s waits + f wtime - t) / t)^2 into *s and *f (both 0 for
 * m = 0), by the fit's least squares. Errors: CB_ERR_NOMEM (*s = *f = 0). */
enum cb_status cb_fit_switch(const double *t, const double *model, const double *waits,
			     const double *wtime, size_t m, double *s, double *f);

/* The median of v[0 .. n), which it sorts ascending; NaN for n = 0 (the
 * fit's, check's and the choice's medians of |relative error|). */
double cb_fit_median(double *v, size_t n);

/* Sets t's rates and costs to fit p's at message size bytes (its tier's):
 * intra.alpha, intra.bw and copy_bw (beta), gamma, fused_bw (0, the
 * default, where p has none), fresh_bw (0 where free), switch_s, wait_frac;
 * the rest of t (layout, network, slice) stays. */
void cb_fit_topo(const struct cb_fit_params *p, double bytes, struct cb_topo *t);

/* The tier holding message size bytes. */
const struct cb_fit_tier *cb_fit_tier_of(const struct cb_fit_params *p, double bytes);

#endif
