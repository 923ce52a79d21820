/* cb_model_params: a fit as a JSON file, schema "collbench-model-fit-1":
 *   {"schema": "collbench-model-fit-1", "source": CSV, "machine": TEXT,
 *    "model": TEXT, "min_bytes": N, "oversubscribed": BOOL,
 *    "groups": [{"backend": B, "transport": T, "collective": C (absent: allreduce),
 *                "algos": "ps,ring,copy",
 *                "rows": N, "overhead_us": X, "overhead_us_se": X|null,
 *                "overhead_us_repeats": [fastest, slowest]|null,
 *                "alpha_us": X, "alpha_us_se": X|null,
 *                "alpha_us_repeats": [fastest, slowest]|null,
 *                "gamma_fitted": BOOL,
 *                "fit_error_pct": {"median": X, "max": X},
 *                "tiers": [{"min_bytes": N, "max_bytes": N|null, "rows": N,
 *                           "beta_GBps": X, "beta_GBps_se": X|null,
 *                           "beta_GBps_repeats": [fastest, slowest]|null,
 *                           "gamma_GBps": X|null (null: free), "gamma_GBps_se": ...,
 *                           "gamma_GBps_repeats": ..., "fused_GBps": X|null (null:
 *                           no one-sided reduce seen), "fused_GBps_se": ...,
 *                           "fused_GBps_repeats": ...}, ...]},
 *               {"backend": B, "transport": T, "collective": C, "refused": WHY}, ...]}
 * 1 GB = 1e9 B; alpha in microseconds; a tier holds lo <= bytes < hi. The
 * bounds of every value are one check, cb_fit_params_check, which the fit
 * meets before it is written. */
#ifndef CB_MODEL_PARAMS_H
#define CB_MODEL_PARAMS_H

#include <stdio.h>

#include "cb_model_verbs.h"

/* The one check of a fit's parameters, for its writer (cb_fit_run refuses a
 * fit that fails it) and for the readers of fit files (cb_fit_set_read: fit,
 * check --fit and predict --fit), so fit never writes what its readers
 * refuse. The rule: 1 to CB_FIT_MAX_TIERS tiers, the first from 0 bytes, each
 * from the previous one's max_bytes, max_bytes growing and infinite in the
 * last tier only; beta in [CB_MODEL_MIN_GBPS, CB_MODEL_MAX_GBPS] GB/s, gamma
 * there or infinite (free), fused there or NaN (none seen); alpha and the
 * overhead in [0, CB_MODEL_MAX_US] us (cb_model.h: beyond these, modelled
 * times overflow to inf or vanish to 0), compared in the file's units (GB/s,
 * us). Errors: CB_ERR_ARG
 * with "KEY must be ..." naming the file's key, the tier and the value in
 * why. Pure. */
enum cb_status cb_fit_params_check(const struct cb_fit_params *p, char *why, size_t whylen);

/* Writes f to out. Errors: CB_ERR_NOMEM, CB_ERR_IO. */
enum cb_status cb_fit_set_write(FILE *out, const struct cb_fit_set *f);

/* Reads a fit file. Errors: CB_ERR_IO (cannot read), CB_ERR_ARG ("path: key:
 * what is wrong": not JSON, another schema, a missing or out-of-range value,
 * tiers out of order). */
enum cb_status cb_fit_set_read(const char *path, struct cb_fit_set *f, char *err, size_t errlen);

#endif
