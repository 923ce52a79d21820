/* cb_model_params: a fit as a JSON file, schema "collbench-model-fit-1":
 *   {"schema": "collbench-model-fit-1", "source": CSV, "machine": TEXT,
 *    "model": TEXT, "min_bytes": N, "oversubscribed": BOOL,
 *    "groups": [{"backend": B, "transport": T, "algos": "ps,ring,copy",
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
 *               {"backend": B, "transport": T, "refused": WHY}, ...]}
 * 1 GB = 1e9 B; alpha in microseconds; a tier holds lo <= bytes < hi. */
#ifndef CB_MODEL_PARAMS_H
#define CB_MODEL_PARAMS_H

#include <stdio.h>

#include "cb_model_verbs.h"

/* Writes f to out. Errors: CB_ERR_NOMEM, CB_ERR_IO. */
enum cb_status cb_fit_set_write(FILE *out, const struct cb_fit_set *f);

/* Reads a fit file. Errors: CB_ERR_IO (cannot read), CB_ERR_ARG ("path: key:
 * what is wrong": not JSON, another schema, a missing or out-of-range value,
 * tiers out of order). */
enum cb_status cb_fit_set_read(const char *path, struct cb_fit_set *f, char *err, size_t errlen);

#endif
