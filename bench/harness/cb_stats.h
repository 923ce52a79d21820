/* cb_stats: statistics over iterations and the bandwidth formulas.
 * Formulas from nccl-tests doc/PERFORMANCE.md:
 *   algbw = S / t                          (S bytes per rank, 1 GB = 1e9 B)
 *   busbw = algbw * 2(n-1)/n for allreduce (the same factor for every
 *           algorithm, so rows compare; 0 for n = 1) */
#ifndef CB_STATS_H
#define CB_STATS_H

#include <stddef.h>
#include <stdint.h>

struct cb_stats {
	double mean, median, min, max;
	double p90, p99; /* nearest-rank percentiles: the ceil(p n)-th smallest */
	double cv;       /* coefficient of variation: population standard
			  * deviation / mean (0 for n = 1; NaN for a zero mean) */
};

/* Stats of x[0..n-1], n >= 1 (median of an even n: mean of the middle two;
 * percentiles by nearest rank, as in NIST's handbook and fio's clat
 * percentiles, so p99 of fewer than 100 values is the maximum). Does not
 * modify x; uses O(n) scratch. Returns -1 if n == 0 or out of memory. */
int cb_stats_compute(const double *x, size_t n, struct cb_stats *out);

/* One time from each rank's own mean time t[0..n-1] (n >= 1), as
 * nccl-tests' -a reports a row (src/common.cu, its --average): how 0
 * rank 0's, 1 the mean, 2 the min, 3 the max over ranks. */
double cb_stats_over_ranks(const double *t, int n, int how);

/* algbw in GB/s for bytes per rank moved in time_us microseconds. */
double cb_algbw_GBps(size_t bytes, double time_us);

/* max over ranks of (tx+rx) / mean over ranks of (tx+rx); NaN when all are 0. */
double cb_imbalance(const uint64_t *tx, const uint64_t *rx, int nranks);

#endif
