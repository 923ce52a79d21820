#include "cb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The ceil(p n)-th smallest of sorted s[0..n-1] (1-based), n >= 1. */
static double nearest_rank(const double *s, size_t n, double p)
{
	size_t k = (size_t)ceil(p * (double)n);

	return s[k < 1 ? 0 : k > n ? n - 1 : k - 1];
}

int cb_stats_compute(const double *x, size_t n, struct cb_stats *out)
{
	double *s, sum = 0, var = 0;

	if (n == 0)
		return -1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	out->min = s[0];
	out->max = s[n - 1];
	out->p90 = nearest_rank(s, n, 0.90);
	out->p99 = nearest_rank(s, n, 0.99);
	for (size_t i = 0; i < n; i++)
		var += (s[i] - out->mean) * (s[i] - out->mean);
	out->cv = out->mean != 0 ? sqrt(var / (double)n) / out->mean : NAN;
	free(s);
	return 0;
}

double cb_stats_over_ranks(const double *t, int n, int how)
{
	double v = t[0];

	for (int r = 1; r < n; r++)
		v = how == 1 ? v + t[r] : how == 2 ? fmin(v, t[r]) : how == 3 ? fmax(v, t[r]) : v;
	return how == 1 ? v / n : v;
}

double cb_algbw_GBps(size_t bytes, double time_us)
{
	return (double)bytes / (time_us * 1e-6) / 1e9;
}

double cb_imbalance(const uint64_t *tx, const uint64_t *rx, int nranks)
{
	double max = 0, sum = 0;

	for (int r = 0; r < nranks; r++) {
		double v = (double)tx[r] + (double)rx[r];

		sum += v;
		if (v > max)
			max = v;
	}
	if (sum == 0)
		return NAN;
	return max / (sum / nranks);
}
