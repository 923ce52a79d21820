/* cb_straggler: whether a row's straggler figures name a straggler. The
 * figures (straggler_rank, straggler_share, straggler_ratio: cb_schema.h) are
 * written for every measured row with n > 1; some rank is always the slowest
 * most often, so the table names it only where the data say so (docs/timing.md,
 * "Stragglers"):
 *   - its share is well above chance: under "no straggler" each of the n
 *     ranks is an iteration's slowest with probability 1/n, so its count c of
 *     the k timed iterations is Binomial(k, 1/n); the one-sided tail
 *     P(X >= c), times n because the straggler is the most frequent of n
 *     ranks (Bonferroni), must be below CB_STRAGGLER_ALPHA; and
 *   - it is slower by more than timer noise: straggler_ratio (its mean time
 *     not waiting / the others' mean) at least CB_STRAGGLER_RATIO. */
#ifndef CB_STRAGGLER_H
#define CB_STRAGGLER_H

#include "cb_schema.h"

/* The significance of the share test (as Chromium's Pinpoint, p = 0.001) */
#define CB_STRAGGLER_ALPHA 0.001
/* The smallest ratio named: 5% more time not waiting than the others */
#define CB_STRAGGLER_RATIO 1.05

/* P(X >= c) for X ~ Binomial(k, p), 0 < p < 1, 0 <= c: the exact sum of the
 * terms from c up (log-gamma terms), stopped where they no longer change it;
 * 1 for c <= 0, 0 for c > k. */
double cb_binom_tail(long long k, long long c, double p);

/* 1 when a straggler with share (fraction of the k timed iterations in which
 * it was the slowest of n ranks) and ratio passes both tests above, else 0
 * (also for n < 2, k < 1, or a share or ratio that is NaN). */
int cb_straggler_named(int n, long long k, double share, double ratio);

/* cb_straggler_named for a summary row: n = nranks, k = iters x repeats
 * (all timed iterations; repeats empty: 1). */
int cb_straggler_row_named(const struct cb_summary *s);

#endif
