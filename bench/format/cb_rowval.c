/* cb_rowval: a row as one number with its band (contract in cb_rowval.h). */
#define _GNU_SOURCE
#include "cb_rowval.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cb_size.h"
#include "cb_catalog.h"
#include "cb_coll.h"

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

int cb_row_has_median(const struct cb_res_row *r)
{
	return r->v.time_us_median > 0 && r->v.time_us > 0;
}

int cb_row_median_view(const struct cb_res_row *r, struct cb_res_row *view)
{
	const struct cb_summary *x = &r->v;
	struct cb_summary *v = &view->v;
	double k, lo = x->time_us_median_rep_min, hi = x->time_us_median_rep_max;

	*view = *r;
	if (!cb_row_has_median(r))
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

enum cb_metric cb_row_metric(const struct cb_res_row *r, enum cb_metric m)
{
	if (m == CB_METRIC_BUSBW && !(r->v.busbw > 0))
		m = CB_METRIC_ALGBW;
	if (m == CB_METRIC_ALGBW && !(r->v.algbw > 0))
		m = CB_METRIC_TIME;
	return m;
}

void cb_row_read(const struct cb_res_row *r, enum cb_metric m, enum cb_stat stat,
		 struct cb_band *out, int *inconsistent, int *no_median)
{
	struct cb_res_row view;

	if (stat == CB_STAT_MEDIAN && !cb_row_median_view(r, &view))
		*no_median = 1;
	if (stat != CB_STAT_MEDIAN)
		view = *r;
	if (cb_row_band(&view, m, out) == 1)
		*inconsistent = 1;
}

int cb_metric_higher_is_better(enum cb_metric m)
{
	return m != CB_METRIC_TIME;
}

const char *cb_metric_name(enum cb_metric m)
{
	return m == CB_METRIC_BUSBW ? "busbw" : m == CB_METRIC_ALGBW ? "algbw" : "time";
}

const char *cb_metric_unit(enum cb_metric m)
{
	return m == CB_METRIC_TIME ? "us" : "GB/s";
}

const char *cb_stat_name(enum cb_stat s)
{
	return s == CB_STAT_MEDIAN ? "median" : "mean";
}

void cb_row_name(const struct cb_summary *x, char *buf, size_t len)
{
	int host = strcmp(x->backend, "host") == 0;
	const char *usual = cb_transport_one_host(x->backend, x->algo);
	int other = !usual || strcmp(usual, x->transport) != 0;
	int coll = x->collective[0] && strcmp(x->collective, cb_coll_get(CB_COLL_ALLREDUCE)->name);
	char size[32];

	cb_format_size((size_t)x->bytes, size, sizeof(size));
	snprintf(buf, len, "%s%s%s%s%s np%d %s %s %s%s%s%s", coll ? x->collective : "",
		 coll ? " " : "", host ? "" : x->backend, host ? "" : " ", x->algo, x->nranks, size,
		 x->dtype, x->op, x->in_place ? " in-place" : "", other ? " over " : "",
		 other ? x->transport : "");
}
