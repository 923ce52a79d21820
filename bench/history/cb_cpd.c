/* cb_cpd: E-divisive means with a t-test (contract and method in cb_cpd.h). */
#include "cb_cpd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A growable, index-sorted list of change points. */
struct cp_list {
	struct cb_cpd_change *v;
	size_t n, cap;
};

static int list_insert(struct cp_list *l, const struct cb_cpd_change *c)
{
	size_t i = 0;

	while (i < l->n && l->v[i].index < c->index)
		i++;
	if (i < l->n && l->v[i].index == c->index)
		return 0; /* already there: windows overlap */
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		struct cb_cpd_change *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	memmove(&l->v[i + 1], &l->v[i], (l->n - i) * sizeof(*l->v));
	l->v[i] = *c;
	l->n++;
	return 0;
}

static void list_remove(struct cp_list *l, size_t i)
{
	memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(*l->v));
	l->n--;
}

/* Continued fraction of the incomplete beta (DLMF 8.17.22), evaluated by the
 * modified Lentz method; converges fast for x < (a+1)/(a+b+2). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 500; m++) {
		double num[2] = { m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
				  -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)) };

		for (int k = 0; k < 2; k++) {
			d = 1 + num[k] * d;
			c = 1 + num[k] / c;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = fabs(c) < tiny ? tiny : c;
			h *= d * c;
		}
		if (fabs(d * c - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b), the regularized incomplete beta function. */
static double inc_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double cb_cpd_t_pvalue(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return 1;
	if (isinf(t))
		return 0;
	return inc_beta(df / 2, 0.5, df / (df + t * t));
}

static void mean_std(const double *x, size_t a, size_t b, double *mean, double *ss)
{
	double s = 0;

	for (size_t i = a; i < b; i++)
		s += x[i];
	*mean = s / (double)(b - a);
	s = 0;
	for (size_t i = a; i < b; i++)
		s += (x[i] - *mean) * (x[i] - *mean);
	*ss = s; /* sum of squares about the mean */
}

void cb_cpd_ttest(const double *x, size_t a0, size_t a1, size_t a2, double floor,
		  struct cb_cpd_change *c)
{
	size_t n1 = a1 - a0, n2 = a2 - a1;
	double ss1, ss2, df = (double)(n1 + n2) - 2, pooled, t, least;

	c->index = a1;
	c->n_before = n1;
	c->n_after = n2;
	mean_std(x, a0, a1, &c->mean_before, &ss1);
	mean_std(x, a1, a2, &c->mean_after, &ss2);
	c->std_before = n1 > 1 ? sqrt(ss1 / (double)(n1 - 1)) : 0;
	c->std_after = n2 > 1 ? sqrt(ss2 / (double)(n2 - 1)) : 0;
	if (df <= 0) {
		c->pvalue = 1;
		return;
	}
	pooled = (ss1 + ss2) / df;
	least = floor * fmax(fabs(c->mean_before), fabs(c->mean_after));
	if (pooled < least * least)
		pooled = least * least;
	if (!(pooled > 0)) { /* both segments constant, no floor: no evidence */
		c->pvalue = 1;
		return;
	}
	t = (c->mean_after - c->mean_before) / sqrt(pooled * (1.0 / (double)n1 + 1.0 / (double)n2));
	c->pvalue = cb_cpd_t_pvalue(t, df);
}

double cb_cpd_magnitude(const struct cb_cpd_change *c)
{
	if (c->mean_before == 0 || c->mean_after == 0)
		return 0;
	return fmax(fabs(c->mean_after / c->mean_before - 1),
		    fabs(c->mean_before / c->mean_after - 1));
}

/* Sums of |x_i - x_j| over blocks of one window [s, s + w): P[i][j] is the
 * sum over a < i, b < j (window-relative), so any block is four lookups. */
struct dist {
	double *p;
	size_t s, w;
};

static double block(const struct dist *d, size_t a0, size_t a1, size_t b0, size_t b1)
{
	size_t w = d->w + 1;

	a0 -= d->s, a1 -= d->s, b0 -= d->s, b1 -= d->s;
	return d->p[a1 * w + b1] - d->p[a0 * w + b1] - d->p[a1 * w + b0] + d->p[a0 * w + b0];
}

static int dist_init(struct dist *d, const double *x, size_t s, size_t w)
{
	size_t k = w + 1;

	d->s = s;
	d->w = w;
	d->p = calloc(k * k, sizeof(*d->p));
	if (!d->p)
		return -1;
	for (size_t i = 1; i <= w; i++)
		for (size_t j = 1; j <= w; j++)
			d->p[i * k + j] = fabs(x[s + i - 1] - x[s + j - 1]) + d->p[(i - 1) * k + j] +
					  d->p[i * k + j - 1] - d->p[(i - 1) * k + j - 1];
	return 0;
}

/* The best (tau, Q) of interval [s, e) (e - s >= 2). */
static void candidate(const struct dist *d, size_t s, size_t e, size_t *tau_out, double *q_out)
{
	*q_out = -INFINITY;
	*tau_out = s + 1;
	for (size_t tau = s + 1; tau < e; tau++) {
		double n = (double)(tau - s), wx = block(d, s, tau, s, tau) / 2;

		for (size_t kappa = tau + 1; kappa <= e; kappa++) {
			double m = (double)(kappa - tau), q;

			q = 2 / (n + m) * block(d, s, tau, tau, kappa);
			if (n > 1)
				q -= 2 * m / ((n + m) * (n - 1)) * wx;
			if (m > 1)
				q -= 2 * n / ((n + m) * (m - 1)) * block(d, tau, kappa, tau, kappa) / 2;
			if (q > *q_out) {
				*q_out = q;
				*tau_out = tau;
			}
		}
	}
}

/* Step 2 on window [ws, we): change points at level p into out; *last is
 * the window's last one (0 when none). */
static int detect_window(const double *x, size_t ws, size_t we, double p, double floor,
			 struct cp_list *out, size_t *last)
{
	struct cp_list found = { 0 };
	struct dist d;
	double q;
	int rc = 0;

	if (dist_init(&d, x, ws, we - ws) != 0)
		return -1;
	for (;;) {
		struct cb_cpd_change best = { .qhat = -INFINITY };
		size_t lo = ws, best_lo = ws, best_hi = we;

		for (size_t k = 0; k <= found.n; k++) {
			size_t hi = k < found.n ? found.v[k].index : we, tau;
			double qk;

			if (hi - lo > 1) {
				candidate(&d, lo, hi, &tau, &qk);
				if (qk > best.qhat) {
					best.qhat = qk;
					best.index = tau;
					best_lo = lo;
					best_hi = hi;
				}
			}
			lo = hi;
		}
		if (best.qhat == -INFINITY)
			break;
		q = best.qhat;
		cb_cpd_ttest(x, best_lo, best.index, best_hi, floor, &best);
		best.qhat = q;
		if (!(best.pvalue <= p))
			break;
		if (list_insert(&found, &best) != 0 || list_insert(out, &best) != 0) {
			rc = -1;
			break;
		}
	}
	*last = found.n ? found.v[found.n - 1].index : 0;
	free(found.v);
	free(d.p);
	return rc;
}

/* Re-tests change point i of l between its neighbours. */
static void retest(const double *x, size_t n, double floor, struct cp_list *l, size_t i)
{
	double q = l->v[i].qhat;

	cb_cpd_ttest(x, i ? l->v[i - 1].index : 0, l->v[i].index,
		     i + 1 < l->n ? l->v[i + 1].index : n, floor, &l->v[i]);
	l->v[i].qhat = q;
}

/* Step 3: windows, union of their change points, re-tested over x. */
static int split(const double *x, size_t n, size_t window, double p, double floor,
		 struct cp_list *weak)
{
	size_t start = 0, step = window / 2;

	while (start < n) {
		size_t end = start + window < n ? start + window : n, last;

		if (detect_window(x, start, end, p, floor, weak, &last) != 0)
			return -1;
		start = last > start + step ? last : start + step;
	}
	for (size_t i = 0; i < weak->n; i++)
		retest(x, n, floor, weak, i);
	return 0;
}

/* Step 4. */
static void merge(const double *x, size_t n, struct cp_list *l, const struct cb_cpd_opts *o)
{
	while (l->n) {
		size_t w = 0;

		for (size_t i = 1; i < l->n; i++)
			if (l->v[i].pvalue > l->v[w].pvalue)
				w = i;
		if (l->v[w].pvalue < o->max_pvalue) {
			w = 0;
			for (size_t i = 1; i < l->n; i++)
				if (cb_cpd_magnitude(&l->v[i]) < cb_cpd_magnitude(&l->v[w]))
					w = i;
			if (cb_cpd_magnitude(&l->v[w]) > o->min_magnitude)
				return;
		}
		list_remove(l, w);
		if (w > 0)
			retest(x, n, o->noise_floor, l, w - 1);
		if (w < l->n)
			retest(x, n, o->noise_floor, l, w);
	}
}

enum cb_status cb_cpd_detect(const double *x, size_t n, const struct cb_cpd_opts *o,
			     struct cb_cpd_change **out, size_t *nout)
{
	struct cp_list l = { 0 };
	double p = o->max_pvalue, first = p < 0.05 ? 10 * p : p < 0.5 ? 2 * p : p;

	*out = NULL;
	*nout = 0;
	if (!(p > 0 && p <= 1) || o->window < 4 || !(o->min_magnitude >= 0) ||
	    !(o->noise_floor >= 0) || isinf(o->noise_floor))
		return CB_ERR_ARG;
	if (n < 2)
		return CB_OK;
	if (split(x, n, o->window, first, o->noise_floor, &l) != 0) {
		free(l.v);
		return CB_ERR_NOMEM;
	}
	merge(x, n, &l, o);
	if (l.n == 0)
		free(l.v);
	else
		*out = l.v;
	*nout = l.n;
	return CB_OK;
}
