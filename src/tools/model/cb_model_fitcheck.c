/* cb_model_fitcheck: the bounds of a fit's parameters, one check for the fit
 * and for the readers of fit files (contract in cb_model_fit.h). */
#include <math.h>

#include "cb_model_fit.h"
#include "cb_status.h"

#define GB 1e9 /* the fit file's units: GB/s and us (cb_model_params.h) */
#define US 1e-6

/* 1 when a rate in B/s is outside [CB_MODEL_MIN_GBPS, CB_MODEL_MAX_GBPS]
 * GB/s and is not the absent value allowed (absent 1: INFINITY, free; 2:
 * NaN, none seen; 0: none allowed). */
static int bad_rate(double bps, int absent)
{
	double g = bps / GB;

	if ((absent == 1 && isinf(bps) && bps > 0) || (absent == 2 && isnan(bps)))
		return 0;
	return !(g >= CB_MODEL_MIN_GBPS && g <= CB_MODEL_MAX_GBPS);
}

/* Tier k's range and rates (cb_fit_params_check). */
static enum cb_status check_tier(const struct cb_fit_tier *t, int k, int last, double prev_hi,
				 char *why, size_t whylen)
{
	static const char *const key[] = { "beta_GBps", "gamma_GBps", "fused_GBps" };
	static const char *const absent[] = { "", " or null (free)", " or null" };
	const double rate[] = { t->beta, t->gamma, t->fused };

	if (t->lo != prev_hi)
		return cb_refuse(why, whylen, "tiers: min_bytes must be 0, then the previous "
				 "max_bytes (tier %d: %.0f)", k + 1, t->lo);
	if (!(t->hi > t->lo) || (isinf(t->hi) != 0) != last)
		return cb_refuse(why, whylen, "tiers: max_bytes must grow, null in the last "
				 "tier only (tier %d)", k + 1);
	for (int r = 0; r < 3; r++)
		if (bad_rate(rate[r], r))
			return cb_refuse(why, whylen, "tiers: %s must be a number in [%g, %g]%s "
					 "(tier %d: %.4g)", key[r], CB_MODEL_MIN_GBPS,
					 CB_MODEL_MAX_GBPS, absent[r], k + 1, rate[r] / GB);
	return CB_OK;
}

enum cb_status cb_fit_params_check(const struct cb_fit_params *p, char *why, size_t whylen)
{
	const double lat[] = { p->alpha / US, p->overhead / US };
	static const char *const key[] = { "alpha_us", "overhead_us" };

	for (int j = 0; j < 2; j++)
		if (!(lat[j] >= 0 && lat[j] <= CB_MODEL_MAX_US))
			return cb_refuse(why, whylen, "groups: %s must be a number in [0, %g] "
					 "(%.4g)", key[j], CB_MODEL_MAX_US, lat[j]);
	if (p->ntiers < 1 || p->ntiers > CB_FIT_MAX_TIERS)
		return cb_refuse(why, whylen, "groups: tiers must be an array of 1 to %d tiers",
				 CB_FIT_MAX_TIERS);
	for (int k = 0; k < p->ntiers; k++) {
		enum cb_status st = check_tier(&p->tier[k], k, k == p->ntiers - 1,
					       k ? p->tier[k - 1].hi : 0, why, whylen);

		if (st != CB_OK)
			return st;
	}
	return CB_OK;
}
