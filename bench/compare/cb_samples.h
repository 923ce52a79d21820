/* cb_samples: the per-iteration times of a run's rows, and the two-sample
 * test collbench-compare applies to them (cb_compare.h's rule).
 *
 * Where they are: the "iterations"."time_us" array of each JSON line that
 * allreduce_perf --json writes (every timed iteration of every --repeat block,
 * each the max over ranks, in microseconds): the *.jsonl files of a
 * sweep.sh folder (np<N>.jsonl), or X.jsonl next to a file argument X.csv.
 * A line is matched to its summary row by the join key; its samples are
 * used only when there are at least CB_SAMPLES_MIN of them, all positive
 * numbers, and their median is the row's time_us_median (its mean the row's
 * time_us where the row has no median) to CSV rounding: a JSON file from
 * another run, or a summary.csv edited after the run, gives no samples for
 * that row. Files that cannot be read or parsed are left out with a note:
 * the samples are evidence beyond the bands, never required. */
#ifndef CB_SAMPLES_H
#define CB_SAMPLES_H

#include <stddef.h>

#include "cb_results.h"
#include "cb_status.h"

/* Fewer samples per side than this give no p-value: below about 8 the
 * normal approximation of U is poor (and 5 against 5 cannot reach 0.001). */
#define CB_SAMPLES_MIN 8

struct cb_row_samples {
	double *t;  /* microseconds, in file order; NULL when none */
	size_t n;
};

struct cb_samples {
	struct cb_row_samples *row; /* [nrows], parallel to the results' rows */
	size_t nrows, with;         /* rows, and rows with samples */
	char note[512];             /* files or rows left out and why; "" if none */
};

/* Reads the samples of res (loaded from res->csv, see the top) into *out.
 * Errors: CB_ERR_NOMEM only (*out empty); everything else is a note in
 * out->note and rows without samples. */
enum cb_status cb_samples_load(const struct cb_results *res, struct cb_samples *out);

void cb_samples_free(struct cb_samples *s);

/* The two-sided p-value of the Mann-Whitney U test of x[0..nx-1] against
 * y[0..ny-1] (Mann and Whitney 1947): U from the rank sum with tied values
 * given their mean rank, compared with its normal approximation, mean
 * nx ny / 2 and variance nx ny / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1)))
 * over the tie groups of size t, N = nx + ny, with a continuity correction
 * of 1/2 (as scipy.stats.mannwhitneyu's asymptotic method). 1 when every
 * value is tied; NaN when nx or ny is 0 or memory runs out. */
double cb_mann_whitney_p(const double *x, size_t nx, const double *y, size_t ny);

#endif
