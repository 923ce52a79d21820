/* cb_rowval: one summary row read as one number with its noise band, the
 * same way for every tool that judges rows (collbench-compare's verdicts,
 * collbench-history's series), and a row's name for people.
 *
 * A row is read on
 *   a metric: busbw, algbw or time. A bandwidth that is absent or 0 cannot
 *     show a slower row, so such a row is read on the next metric down,
 *     busbw -> algbw -> time (cb_row_metric): copy rows (no busbw) and n = 1
 *     rows (busbw is 0 by definition) on algbw, 0-byte rows (algbw 0 too) on
 *     time;
 *   a statistic: the mean time over iterations (allreduce_perf's headline,
 *     as nccl-tests) or the median, which one preempted iteration cannot
 *     move (cb_row_median_view);
 *   a band [lo, hi]: the extremes over the --repeat blocks of each repeat's mean
 *     (or median): the *_rep_min/max columns; a point when there was one
 *     repeat (cb_row_band). */
#ifndef CB_ROWVAL_H
#define CB_ROWVAL_H

#include <stddef.h>

#include "cb_results.h"

/* In fallback order (see the top): busbw, then algbw, then time. */
enum cb_metric { CB_METRIC_BUSBW, CB_METRIC_ALGBW, CB_METRIC_TIME };

/* Which time a row stands for (see the top). */
enum cb_stat { CB_STAT_MEDIAN, CB_STAT_MEAN };

/* A measured value with its repeat band, lo <= value <= hi; all NaN when
 * there is no value. Units: GB/s (busbw, algbw) or microseconds (time). */
struct cb_band {
	double value, lo, hi;
};

/* The band of row r for metric m: busbw from busbw_GBps and its _rep_ columns;
 * algbw = bytes / time, its band from time_us_rep_max (lo) and
 * time_us_rep_min (hi) scaled the same way (algbw x time_us / time_us_rep_*);
 * time from time_us and its _rep_ columns. Missing repeat columns give a
 * point (lo = hi = value). A band that does not hold the value (beyond the
 * 6-digit rounding of the CSV: an edited or inconsistent file) is ignored:
 * a point, and returns 1. Returns 0 for a band or point from the file, -1
 * (all NaN) when r has no value for m. */
int cb_row_band(const struct cb_res_row *r, enum cb_metric m, struct cb_band *out);

/* For CB_STAT_MEDIAN: a copy of r standing for its median time: time_us =
 * time_us_median, algbw and busbw scaled by time_us / time_us_median, the
 * time band from time_us_median_rep_min/max and the busbw band scaled from
 * it. Returns 1, or 0 with *v = *r when r lacks the median (older files). */
int cb_row_median_view(const struct cb_res_row *r, struct cb_res_row *v);

/* 1 when r has a median time to stand for (cb_row_median_view would give
 * the median), 0 for a row without the median columns (older files). Rows
 * judged together are read on the mean when any of them has none: like with
 * like, never one row's mean against another's median. Pure. */
int cb_row_has_median(const struct cb_res_row *r);

/* The metric row r can be read on: m itself, or, for a bandwidth that is
 * absent or 0, the next one down (see the top). The enum is in that order,
 * so rows judged together use the largest of their metrics. Pure. */
enum cb_metric cb_row_metric(const struct cb_res_row *r, enum cb_metric m);

/* The band of r for metric m under statistic stat (the median view, then
 * cb_row_band). Sets *inconsistent to 1 when the file's repeat band had to
 * be ignored, *no_median to 1 when the median was asked for but is absent
 * (the mean is read instead); leaves them as they are otherwise. */
void cb_row_read(const struct cb_res_row *r, enum cb_metric m, enum cb_stat stat,
		 struct cb_band *out, int *inconsistent, int *no_median);

/* 1 for the bandwidths (higher is better), 0 for time. */
int cb_metric_higher_is_better(enum cb_metric m);

/* Names: "busbw", "algbw", "time"; "median", "mean"; the unit: "GB/s", "us". */
const char *cb_metric_name(enum cb_metric m);
const char *cb_metric_unit(enum cb_metric m);
const char *cb_stat_name(enum cb_stat s);

/* A row's name for people: "ring np2 64M float sum" (+ " in-place", the
 * backend first when it is not host, " over p2p" when the row's transport
 * is not the algorithm's usual one on one host, cb_transport_one_host, and
 * the collective first when it is neither allreduce nor "":
 * "all_gather ring np2 ..."). */
void cb_row_name(const struct cb_summary *x, char *buf, size_t len);

#endif
