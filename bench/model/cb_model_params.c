/* cb_model_params: fit files, and the bounds of a fit's parameters (contract
 * in cb_model_params.h). */
#include "cb_model_params.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "cb_coll.h"
#include "cb_status.h"
#include "cb_text.h"

#define FIT_SCHEMA "collbench-model-fit-1"
#define GB 1e9 /* the fit file's units: GB/s and us */
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
	const double lat[] = { p->alpha / US, p->overhead / US, p->switch_s / US, p->wait_frac };
	static const char *const key[] = { "alpha_us", "overhead_us", "switch_us", "wait_frac" };

	for (int j = 0; j < 4; j++)
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
	if (bad_rate(p->fresh, 1))
		return cb_refuse(why, whylen, "groups: fresh_GBps must be a number in [%g, %g] or "
				 "null (free) (%.4g)", CB_MODEL_MIN_GBPS, CB_MODEL_MAX_GBPS,
				 p->fresh / GB);
	return CB_OK;
}

/* A number, or null when not finite. */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* [a, b] scaled by mul (bandwidths: B/s to GB/s), or null when a is NaN. */
static json_t *pair(const double *v, double mul)
{
	if (isnan(v[0]) || isnan(v[1]))
		return json_null();
	return json_pack("[o, o]", num(v[0] * mul), num(v[1] * mul));
}

static json_t *tier_json(const struct cb_fit_tier *t)
{
	return json_pack("{s:f, s:o, s:I, s:f, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "min_bytes", t->lo, "max_bytes", num(t->hi), "rows", (json_int_t)t->nobs,
			 "beta_GBps", t->beta / GB, "beta_GBps_se", num(t->beta_se / GB),
			 "beta_GBps_repeats", pair(t->beta_rep, 1 / GB), "gamma_GBps",
			 num(t->gamma / GB), "gamma_GBps_se", num(t->gamma_se / GB),
			 "gamma_GBps_repeats", pair(t->gamma_rep, 1 / GB), "fused_GBps",
			 num(t->fused / GB), "fused_GBps_se", num(t->fused_se / GB),
			 "fused_GBps_repeats", pair(t->fused_rep, 1 / GB));
}

static json_t *group_json(const struct cb_fit_group *g)
{
	const struct cb_fit_params *p = &g->p;
	json_t *o, *tiers;

	const char *coll = cb_coll_get((enum cb_coll)g->coll)->name;

	if (!g->fitted)
		return json_pack("{s:s, s:s, s:s, s:o}", "backend", g->backend, "transport",
				 g->transport, "collective", coll, "refused", cb_json_text(g->why));
	tiers = json_array();
	for (int t = 0; tiers && t < p->ntiers; t++)
		json_array_append_new(tiers, tier_json(&p->tier[t]));
	o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:f, s:o, s:o, s:f, s:o, s:o, s:b, "
		      "s:{s:o, s:o}, s:o}", "backend", g->backend, "transport", g->transport,
		      "collective", coll, "algos", g->algos,
		      "rows", (json_int_t)p->nobs, "overhead_us", p->overhead / US,
		      "overhead_us_se", num(p->overhead_se / US), "overhead_us_repeats",
		      pair(p->overhead_rep, 1 / US), "alpha_us", p->alpha / US, "alpha_us_se",
		      num(p->alpha_se / US), "alpha_us_repeats", pair(p->alpha_rep, 1 / US),
		      "gamma_fitted", p->gamma_fitted,
		      "fit_error_pct", "median", num(100 * p->med_abs), "max", num(100 * p->max_abs),
		      "tiers", tiers);
	if (o && (json_object_set_new(o, "fresh_GBps", num(p->fresh / GB)) ||
		  json_object_set_new(o, "fresh_GBps_se", num(p->fresh_se / GB)) ||
		  json_object_set_new(o, "fresh_GBps_repeats", pair(p->fresh_rep, 1 / GB)) ||
		  json_object_set_new(o, "switch_us", json_real(p->switch_s / US)) ||
		  json_object_set_new(o, "wait_frac", json_real(p->wait_frac)) ||
		  json_object_set_new(o, "switch_rows", json_integer((json_int_t)p->switch_nobs)))) {
		json_decref(o);
		o = NULL;
	}
	return o;
}

enum cb_status cb_fit_set_write(FILE *out, const struct cb_fit_set *f)
{
	json_t *groups = json_array(), *o;
	enum cb_status st;

	for (size_t g = 0; groups && g < f->ngroups; g++)
		json_array_append_new(groups, group_json(&f->groups[g]));
	o = json_pack("{s:s, s:o, s:o, s:s, s:f, s:b, s:o}", "schema", FIT_SCHEMA, "source",
		      cb_json_text(f->source), "machine", cb_json_text(f->machine), "model",
		      "t = overhead + msgs * alpha + link_bytes / beta + reduce_bytes / gamma + "
		      "fused_bytes * max(1/beta, 1/fused) + fresh_bytes / fresh, rates per size tier "
		      "but fresh (docs/model.md)",
		      "min_bytes", f->min_bytes, "oversubscribed", f->oversubscribed, "groups",
		      groups);
	if (!o)
		return CB_ERR_NOMEM;
	st = json_dumpf(o, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 && fputc('\n', out) != EOF
		     ? CB_OK
		     : CB_ERR_IO;
	json_decref(o);
	return st;
}

/* The string member key of o, or "" when absent or not a string. */
static const char *str_of(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "";
}

/* Member key of o times mul: a number, null_value for null, and -1 (a value
 * cb_fit_params_check refuses wherever it is read) when absent or of
 * another type. */
static double get_num(const json_t *o, const char *key, double mul, double null_value)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_null(v))
		return null_value;
	return json_is_number(v) ? json_number_value(v) * mul : -1;
}

/* A tier as the file holds it; its ranges are cb_fit_params_check's. */
static void read_tier(const json_t *o, struct cb_fit_tier *t)
{
	memset(t, 0, sizeof(*t));
	t->beta_se = t->gamma_se = t->fused_se = NAN;
	t->beta_rep[0] = t->beta_rep[1] = t->gamma_rep[0] = t->gamma_rep[1] = NAN;
	t->fused_rep[0] = t->fused_rep[1] = NAN;
	t->lo = get_num(o, "min_bytes", 1, -1);
	t->hi = get_num(o, "max_bytes", 1, INFINITY);
	t->beta = get_num(o, "beta_GBps", GB, -1);
	t->gamma = get_num(o, "gamma_GBps", GB, INFINITY);
	/* absent in files from before the fused rate: none seen */
	t->fused = json_object_get(o, "fused_GBps") ? get_num(o, "fused_GBps", GB, NAN) : NAN;
}

static enum cb_status read_group(const json_t *o, struct cb_fit_group *g, char *err,
				 size_t errlen)
{
	const char *b = json_string_value(json_object_get(o, "backend"));
	const char *t = json_string_value(json_object_get(o, "transport"));
	const json_t *tiers = json_object_get(o, "tiers"), *refused = json_object_get(o, "refused");
	enum cb_status st;

	memset(g, 0, sizeof(*g));
	if (!b || !t || strlen(b) >= CB_MIN_NAME || strlen(t) >= CB_MIN_NAME)
		return cb_refuse(err, errlen,
				 "groups: backend and transport must be short strings");
	strcpy(g->backend, b);
	strcpy(g->transport, t);
	/* absent in files from before the other collectives: allreduce's */
	g->coll = json_object_get(o, "collective") ? cb_coll_find(str_of(o, "collective"))
						    : CB_COLL_ALLREDUCE;
	if (g->coll < 0)
		return cb_refuse(err, errlen, "groups: collective '%s' is not one collbench has",
				 str_of(o, "collective"));
	if (refused) {
		snprintf(g->why, sizeof(g->why), "%s", str_of(o, "refused"));
		return CB_OK;
	}
	snprintf(g->algos, sizeof(g->algos), "%s", str_of(o, "algos"));
	g->p.alpha = get_num(o, "alpha_us", US, -1);
	/* absent in files from before the overhead: none */
	g->p.overhead = json_object_get(o, "overhead_us") ? get_num(o, "overhead_us", US, -1) : 0;
	/* absent in files from before time slicing: free */
	g->p.switch_s = json_object_get(o, "switch_us") ? get_num(o, "switch_us", US, -1) : 0;
	g->p.wait_frac = json_object_get(o, "wait_frac") ? get_num(o, "wait_frac", 1, -1) : 0;
	/* absent in files from before the fresh reads: free */
	g->p.fresh = get_num(o, "fresh_GBps", GB, INFINITY);
	if (!json_object_get(o, "fresh_GBps"))
		g->p.fresh = INFINITY;
	g->p.fresh_se = g->p.fresh_rep[0] = g->p.fresh_rep[1] = NAN;
	g->p.alpha_se = g->p.alpha_rep[0] = g->p.alpha_rep[1] = NAN;
	g->p.overhead_se = g->p.overhead_rep[0] = g->p.overhead_rep[1] = NAN;
	g->p.gamma_fitted = json_is_true(json_object_get(o, "gamma_fitted"));
	if (!json_is_array(tiers) || json_array_size(tiers) < 1 ||
	    json_array_size(tiers) > CB_FIT_MAX_TIERS)
		return cb_refuse(err, errlen, "groups: tiers must be an array of 1 to %d tiers",
				 CB_FIT_MAX_TIERS);
	g->p.ntiers = (int)json_array_size(tiers);
	for (int k = 0; k < g->p.ntiers; k++)
		read_tier(json_array_get(tiers, (size_t)k), &g->p.tier[k]);
	/* the fit's own check (cb_model_fit.h): fit writes only what passes it */
	st = cb_fit_params_check(&g->p, err, errlen);
	g->fitted = st == CB_OK;
	return st;
}

enum cb_status cb_fit_set_read(const char *path, struct cb_fit_set *f, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	const json_t *groups;
	char why[384] = "";
	enum cb_status st = CB_OK;
	const char *schema;

	memset(f, 0, sizeof(*f));
	if (!root) {
		FILE *probe = fopen(path, "r");

		snprintf(err, errlen, "%s: %s%s", path, probe ? "not valid JSON: " : "cannot read: ",
			 probe ? jerr.text : strerror(errno));
		if (probe)
			fclose(probe);
		return probe ? CB_ERR_ARG : CB_ERR_IO;
	}
	schema = json_string_value(json_object_get(root, "schema"));
	groups = json_object_get(root, "groups");
	if (!schema || strcmp(schema, FIT_SCHEMA) != 0)
		st = cb_refuse(why, sizeof(why), "schema: must be \"%s\"", FIT_SCHEMA);
	else if (!json_is_array(groups) || json_array_size(groups) > CB_FIT_MAX_GROUPS)
		st = cb_refuse(why, sizeof(why), "groups: must be an array of at most %d",
			       CB_FIT_MAX_GROUPS);
	for (size_t g = 0; st == CB_OK && g < json_array_size(groups); g++)
		st = read_group(json_array_get(groups, g), &f->groups[f->ngroups++], why,
				sizeof(why));
	if (st == CB_OK) {
		snprintf(f->source, sizeof(f->source), "%s", str_of(root, "source"));
		snprintf(f->machine, sizeof(f->machine), "%s", str_of(root, "machine"));
		f->min_bytes = fmax(get_num(root, "min_bytes", 1, 0), 0);
		f->oversubscribed = json_is_true(json_object_get(root, "oversubscribed"));
	} else {
		snprintf(err, errlen, "%s: %s", path, why);
		memset(f, 0, sizeof(*f));
	}
	json_decref(root);
	return st;
}
