/* cb_compare: join and verdicts (contract and rule in cb_compare.h). */
#define _GNU_SOURCE
#include "cb_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cb_size.h"
#include "cb_transport.h"

enum cb_verdict cb_verdict_of(const struct cb_band *b, const struct cb_band *c, double tol,
			      int higher_is_better)
{
	if (higher_is_better) {
		if (c->value < b->value * (1 - tol) && c->hi < b->lo)
			return CB_V_REGRESSION;
		if (c->value > b->value * (1 + tol) && c->lo > b->hi)
			return CB_V_IMPROVEMENT;
	} else {
		if (c->value > b->value * (1 + tol) && c->lo > b->hi)
			return CB_V_REGRESSION;
		if (c->value < b->value * (1 - tol) && c->hi < b->lo)
			return CB_V_IMPROVEMENT;
	}
	return CB_V_SAME;
}

/* Relative slack for a value just outside its band: the CSV holds 6
 * significant digits, and the mean and the repeat means are rounded apart. */
#define BAND_SLACK 1e-5

/* value with [lo, hi]. A missing end, or a band that does not hold the value
 * (beyond rounding: an edited or inconsistent file), gives a point: returns 1
 * for the latter, else 0. */
static int make_band(double value, double lo, double hi, struct cb_band *out)
{
	out->value = out->lo = out->hi = value;
	if (isnan(lo) || isnan(hi))
		return 0;
	if (lo > value * (1 + BAND_SLACK) || hi < value * (1 - BAND_SLACK))
		return 1;
	out->lo = fmin(lo, value);
	out->hi = fmax(hi, value);
	return 0;
}

int cb_row_band(const struct cb_res_row *r, enum cb_metric m, struct cb_band *out)
{
	double t = r->v.time_us, tlo = r->v.time_us_rep_min, thi = r->v.time_us_rep_max;

	out->value = out->lo = out->hi = NAN;
	switch (m) {
	case CB_METRIC_BUSBW:
		if (isnan(r->v.busbw))
			return -1;
		return make_band(r->v.busbw, r->v.busbw_rep_min, r->v.busbw_rep_max, out);
	case CB_METRIC_ALGBW:
		if (isnan(r->v.algbw))
			return -1;
		/* algbw = S / t: the slowest repeat gives the lowest algbw */
		if (t > 0 && tlo > 0 && thi > 0 && make_band(t, tlo, thi, out) == 0)
			return make_band(r->v.algbw, r->v.algbw * t / thi, r->v.algbw * t / tlo, out);
		make_band(r->v.algbw, NAN, NAN, out);
		return t > 0 && tlo > 0 && thi > 0; /* 1: the time band was inconsistent */
	case CB_METRIC_TIME:
		if (isnan(t))
			return -1;
		return make_band(t, tlo, thi, out);
	}
	return -1;
}

/* Whether algo is in the comma list (NULL or "" = everything). */
static int algo_selected(const char *list, const char *algo)
{
	size_t n = strlen(algo);

	if (!list || !*list)
		return 1;
	for (const char *p = list; *p;) {
		size_t k = strcspn(p, ",");

		if (k == n && strncmp(p, algo, n) == 0)
			return 1;
		p += k + (p[k] == ',');
	}
	return 0;
}

static int kept(const struct cb_res_row *r, const struct cb_compare_opts *o)
{
	return r && r->v.bytes >= o->min_bytes && algo_selected(o->algos, r->v.algo);
}

int cb_row_median_view(const struct cb_res_row *r, struct cb_res_row *view)
{
	const struct cb_summary *x = &r->v;
	struct cb_summary *v = &view->v;
	double k, lo = x->time_us_median_rep_min, hi = x->time_us_median_rep_max;

	*view = *r;
	if (!(x->time_us_median > 0) || !(x->time_us > 0))
		return 0;
	k = x->time_us / x->time_us_median;
	v->time_us = x->time_us_median;
	v->algbw = x->algbw * k;
	v->busbw = x->busbw * k; /* NaN stays NaN (copy rows) */
	v->time_us_rep_min = lo;
	v->time_us_rep_max = hi;
	/* bandwidth = constant / time: the slowest repeat's median gives the lowest */
	v->busbw_rep_min = hi > 0 ? v->busbw * v->time_us / hi : NAN;
	v->busbw_rep_max = lo > 0 ? v->busbw * v->time_us / lo : NAN;
	return 1;
}

/* The metric row r can be judged on: m itself, or, for a bandwidth that is
 * absent or 0, the next one down, busbw -> algbw -> time: copy has no busbw,
 * busbw is 0 by definition for n = 1, and both are 0 for 0-byte rows, where
 * a slower row would otherwise look the same as the baseline. The enum is in
 * that order, so a pair uses the larger of its two sides' metrics. */
static enum cb_metric usable_metric(const struct cb_res_row *r, enum cb_metric m)
{
	if (m == CB_METRIC_BUSBW && !(r->v.busbw > 0))
		m = CB_METRIC_ALGBW;
	if (m == CB_METRIC_ALGBW && !(r->v.algbw > 0))
		m = CB_METRIC_TIME;
	return m;
}

/* The band of one side for metric m and the chosen statistic. Sets
 * *inconsistent when the file's repeat band had to be ignored, *no_median
 * when the median was asked for but absent. */
static void side_band(const struct cb_res_row *r, enum cb_metric m, enum cb_stat stat,
		      struct cb_band *out, int *inconsistent, int *no_median)
{
	struct cb_res_row view;

	if (stat == CB_STAT_MEDIAN && !cb_row_median_view(r, &view))
		*no_median = 1;
	if (stat != CB_STAT_MEDIAN)
		view = *r;
	*inconsistent |= cb_row_band(&view, m, out) == 1;
}

/* Both sides ok: the metric (o->metric, or the one both rows can be judged
 * on), the bands, the change and the rule's verdict. */
static void judge_measured(struct cb_cmp_row *row, const struct cb_compare_opts *o,
			   struct cb_comparison *out)
{
	enum cb_metric mb = usable_metric(row->base, o->metric);
	enum cb_metric mc = usable_metric(row->cur, o->metric);
	enum cb_metric m = mb > mc ? mb : mc;
	int bad = 0, no_median = 0;

	out->fallback += m != o->metric && m == CB_METRIC_ALGBW;
	out->fallback_time += m != o->metric && m == CB_METRIC_TIME;
	row->metric = m;
	side_band(row->base, m, o->stat, &row->b, &bad, &no_median);
	side_band(row->cur, m, o->stat, &row->c, &bad, &no_median);
	out->no_median += no_median;
	if (bad) {
		out->inconsistent++;
		snprintf(row->note, sizeof(row->note), "repeat band without the value: ignored");
	}
	/* no change in percent from a zero or absent baseline (never a NaN verdict:
	 * the rule compares finite values only) */
	row->change = row->b.value > 0 ? (row->c.value - row->b.value) / row->b.value : NAN;
	row->verdict = cb_verdict_of(&row->b, &row->c, o->tolerance, m != CB_METRIC_TIME);
}

/* The verdict of one joined pair (either side may be NULL), by status. */
static void judge(struct cb_cmp_row *row, const struct cb_compare_opts *o,
		  struct cb_comparison *out)
{
	const struct cb_res_row *b = row->base, *c = row->cur;
	enum cb_row_state bs = b ? b->v.status.state : CB_ROW_SKIPPED;
	enum cb_row_state cs = c ? c->v.status.state : CB_ROW_SKIPPED;
	char text[CB_REASON_MAX + 16];
	int ignored = 0, no_median = 0; /* one side only: shown, not judged */

	row->metric = o->metric;
	row->b.value = row->b.lo = row->b.hi = NAN;
	row->c = row->b;
	row->change = NAN;
	if (bs == CB_ROW_OK && cs == CB_ROW_OK) {
		judge_measured(row, o, out);
		return;
	}
	if (b && bs == CB_ROW_OK) {
		row->metric = usable_metric(b, o->metric);
		side_band(b, row->metric, o->stat, &row->b, &ignored, &no_median);
	}
	if (c && cs == CB_ROW_OK) {
		row->metric = usable_metric(c, o->metric);
		side_band(c, row->metric, o->stat, &row->c, &ignored, &no_median);
	}
	if (cb_row_state_failed(cs)) {
		row->verdict = CB_V_FAILED;
		cb_row_status_format(&c->v.status, text, sizeof(text));
		snprintf(row->note, sizeof(row->note), "current %.80s", text);
	} else if (cb_row_state_failed(bs) && cs == CB_ROW_OK) {
		row->verdict = CB_V_IMPROVEMENT;
		cb_row_status_format(&b->v.status, text, sizeof(text));
		snprintf(row->note, sizeof(row->note), "baseline %.80s", text);
	} else if (bs == CB_ROW_SKIPPED && cs == CB_ROW_SKIPPED && b && c) {
		row->verdict = CB_V_SKIPPED;
	} else {
		row->verdict = CB_V_MISSING;
		snprintf(row->note, sizeof(row->note), "%s", !b ? "only in current" :
			 !c ? "only in baseline" : bs == CB_ROW_SKIPPED ? "skipped in baseline" :
			 "skipped in current");
	}
}

enum cb_status cb_compare_runs(const struct cb_results *base, const struct cb_results *cur,
			       const struct cb_compare_opts *o, struct cb_comparison *out,
			       char *err, size_t errlen)
{
	size_t i = 0, j = 0;

	memset(out, 0, sizeof(*out));
	out->rows = calloc(base->nrows + cur->nrows + 1, sizeof(*out->rows));
	if (!out->rows) {
		snprintf(err, errlen, "out of memory");
		return CB_ERR_NOMEM;
	}
	/* merge join: both row lists are sorted by key and unique */
	while (i < base->nrows || j < cur->nrows) {
		const struct cb_res_row *b = i < base->nrows ? &base->rows[i] : NULL;
		const struct cb_res_row *c = j < cur->nrows ? &cur->rows[j] : NULL;
		int d = !b ? 1 : !c ? -1 : cb_res_key_cmp(b, c);
		struct cb_cmp_row *row = &out->rows[out->nrows];

		i += d <= 0;
		j += d >= 0;
		if (!kept(d <= 0 ? b : c, o))
			continue;
		memset(row, 0, sizeof(*row));
		row->base = d <= 0 ? b : NULL;
		row->cur = d >= 0 ? c : NULL;
		judge(row, o, out);
		out->count[row->verdict]++;
		if (row->verdict != CB_V_SKIPPED)
			out->nrows++;
	}
	return CB_OK;
}

int cb_compare_failed(const struct cb_comparison *c, int strict)
{
	return c->count[CB_V_REGRESSION] || c->count[CB_V_FAILED] ||
	       (strict && c->count[CB_V_MISSING]);
}

void cb_compare_summary(const struct cb_comparison *c, char *buf, size_t len)
{
	size_t reg = c->count[CB_V_REGRESSION] + c->count[CB_V_FAILED];
	size_t imp = c->count[CB_V_IMPROVEMENT];
	int k;

	k = snprintf(buf, len, "%zu regression%s", reg, reg == 1 ? "" : "s");
	if (c->count[CB_V_FAILED] && k >= 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, " (%zu failed)", c->count[CB_V_FAILED]);
	if (k >= 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, ", %zu improvement%s, %zu same, %zu missing",
			      imp, imp == 1 ? "" : "s", c->count[CB_V_SAME],
			      c->count[CB_V_MISSING]);
	if (c->count[CB_V_SKIPPED] && k >= 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, ", %zu skipped", c->count[CB_V_SKIPPED]);
}

void cb_cmp_row_name(const struct cb_cmp_row *r, char *buf, size_t len)
{
	const struct cb_summary *x = &(r->base ? r->base : r->cur)->v;
	const char *usual = cb_transport_one_host(x->backend, x->algo);
	int other = !usual || strcmp(usual, x->transport) != 0;
	char size[32];

	cb_format_size((size_t)x->bytes, size, sizeof(size));
	snprintf(buf, len, "%s%s%s np%d %s %s %s%s%s%s", strcmp(x->backend, "host") ? x->backend : "",
		 strcmp(x->backend, "host") ? " " : "", x->algo, x->nranks, size, x->dtype, x->op,
		 x->in_place ? " in-place" : "", other ? " over " : "", other ? x->transport : "");
}

const char *cb_metric_name(enum cb_metric m)
{
	return m == CB_METRIC_BUSBW ? "busbw" : m == CB_METRIC_ALGBW ? "algbw" : "time";
}

const char *cb_verdict_name(enum cb_verdict v)
{
	static const char *const names[CB_V_COUNT] = {
		"failed", "regression", "improvement", "missing", "same", "skipped",
	};

	return v < CB_V_COUNT ? names[v] : "?";
}

void cb_comparison_free(struct cb_comparison *c)
{
	free(c->rows);
	memset(c, 0, sizeof(*c));
}
