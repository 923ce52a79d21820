#include "cb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int cb_stats_compute(const double *x, size_t n, struct cb_stats *out)
{
	double *s, sum = 0;

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
	free(s);
	return 0;
}

double cb_algbw_GBps(size_t bytes, double time_us)
{
	return (double)bytes / (time_us * 1e-6) / 1e9;
}

double cb_allreduce_bus_factor(int nranks)
{
	return 2.0 * (nranks - 1) / nranks;
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
