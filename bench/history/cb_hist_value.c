/* cb_hist_value: a point's metric and band from its stored columns, the way
 * collbench-compare reads a row (cb_compare.h: cb_row_median_view and
 * cb_row_band); contract in cb_hist_query.h. */
#include <math.h>

#include "cb_hist_query.h"

/* The row as time t (mean or median) with band [tlo, thi], and bandwidths
 * busbw, algbw scaled to that time with busbw's band. */
struct view {
	double t, tlo, thi, busbw, blo, bhi, algbw;
};

/* Returns 0 when the median was asked for but is absent (mean used). */
static int make_view(const double *v, enum cb_hist_stat stat, struct view *w)
{
	double med = v[CB_HM_TIME_US_MEDIAN], t = v[CB_HM_TIME_US], k;

	w->t = t;
	w->tlo = v[CB_HM_TIME_US_REP_MIN];
	w->thi = v[CB_HM_TIME_US_REP_MAX];
	w->busbw = v[CB_HM_BUSBW];
	w->blo = v[CB_HM_BUSBW_REP_MIN];
	w->bhi = v[CB_HM_BUSBW_REP_MAX];
	w->algbw = v[CB_HM_ALGBW];
	if (stat != CB_HIST_MEDIAN)
		return 1;
	if (!(med > 0) || !(t > 0))
		return 0;
	k = t / med;
	w->t = med;
	w->tlo = v[CB_HM_TIME_US_MEDIAN_REP_MIN];
	w->thi = v[CB_HM_TIME_US_MEDIAN_REP_MAX];
	w->busbw *= k;
	w->algbw *= k;
	/* bandwidth = constant / time: the slowest repeat gives the lowest */
	w->blo = w->thi > 0 ? w->busbw * med / w->thi : NAN;
	w->bhi = w->tlo > 0 ? w->busbw * med / w->tlo : NAN;
	return 1;
}

/* The metric this point can be read on: m, or the next one down when its
 * bandwidth is absent or 0 (the enum is in that order). */
static enum cb_hist_metric usable(const struct view *w, enum cb_hist_metric m)
{
	if (m == CB_HIST_BUSBW && !(w->busbw > 0))
		m = CB_HIST_ALGBW;
	if (m == CB_HIST_ALGBW && !(w->algbw > 0))
		m = CB_HIST_TIME;
	return m;
}

static void band(double value, double lo, double hi, struct cb_hist_point *p)
{
	p->value = value;
	p->lo = isnan(lo) ? value : fmin(lo, value);
	p->hi = isnan(hi) ? value : fmax(hi, value);
}

static void point_value(const struct view *w, enum cb_hist_metric m, struct cb_hist_point *p)
{
	switch (m) {
	case CB_HIST_BUSBW:
		band(w->busbw, w->blo, w->bhi, p);
		break;
	case CB_HIST_ALGBW: /* algbw = S / t */
		band(w->algbw, w->thi > 0 ? w->algbw * w->t / w->thi : NAN,
		     w->tlo > 0 ? w->algbw * w->t / w->tlo : NAN, p);
		break;
	case CB_HIST_TIME:
		band(w->t, w->tlo, w->thi, p);
		break;
	}
}

void cb_hist_series_values(struct cb_hist_series *s, enum cb_hist_metric metric,
			   enum cb_hist_stat stat)
{
	struct view w;

	s->metric = metric;
	s->no_median = 0;
	for (size_t i = 0; i < s->n; i++) {
		make_view(s->pts[i].v, stat, &w);
		if (usable(&w, metric) > s->metric)
			s->metric = usable(&w, metric);
	}
	for (size_t i = 0; i < s->n; i++) {
		s->no_median += !make_view(s->pts[i].v, stat, &w);
		point_value(&w, s->metric, &s->pts[i]);
	}
}
