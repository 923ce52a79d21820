/* cb_compare: joins two loaded results on (backend, algo, transport, nranks,
 * bytes, dtype, op, in_place) and gives each pair a noise-aware verdict.
 *
 * The rule (cb_verdict_of), for a higher-is-better metric (busbw, algbw) with
 * baseline b and current c, each with its repeat band [lo, hi] (the extremes
 * over --repeat blocks of each repeat's mean or median: the *_rep_min/max columns;
 * a point when there was one repeat), tolerance tol and noise cap cap
 * (fractions, cap >= tol), and p, the two-sided Mann-Whitney p-value of the
 * two runs' per-iteration times (cb_samples.h; NaN where either run lacks
 * them):
 *   worse        c < b (1 - tol): beyond the tolerance
 *     regression   if c < b (1 - cap)            beyond the bound: whatever
 *                                                the noise says
 *                  or c.hi < b.lo                bands apart
 *                  or p < CB_COMPARE_ALPHA       the samples differ
 *     unknown      otherwise: the noise of the runs cannot tell (run again)
 *   better       c > b (1 + tol): improvement or unknown, mirrored
 *   same         otherwise (within the tolerance)
 * and mirrored for time (lower is better). The noise (a band, the samples)
 * may thus widen the tolerance at most to cap: a baseline with wide bands
 * cannot turn a change beyond cap into "same" or "unknown". The three
 * outcomes beyond the tolerance (different, or unknown: run again) follow
 * Chromium's Pinpoint, which compares samples with Mann-Whitney U and calls
 * p below its low threshold different; CB_COMPARE_ALPHA is the 0.001 that
 * issue 19 cites for it.
 *
 * Rows by status (ok / skipped / error) in baseline and current:
 *   ok / ok              the rule above
 *   any / error          failed: counts as a regression (the current run has
 *                        wrong results or could not run the row)
 *   error / ok           improvement (it works again)
 *   ok / skipped, ok / absent:
 *                        vanished: measured before, not now (a driver that
 *                        breaks a transport skips its rows): counts as a
 *                        regression, unless allow_missing (then missing)
 *   error / skipped or absent, skipped / ok, absent / any:
 *                        missing (a warning; a failure with --strict)
 *   skipped / skipped    skipped (counted, not listed)
 * A bandwidth that is absent or 0 cannot show a slower row, so such rows are
 * compared on the next metric down, busbw -> algbw -> time, and each row
 * names the metric it used: copy rows (no busbw) and n = 1 rows (busbw is 0
 * by definition) on algbw, 0-byte rows (algbw 0 too) on time. Likewise a
 * pair where one side lacks the median columns (an older file) is read on
 * the mean on both sides. How a row is read (metric, median or mean, band)
 * is cb_rowval.h's, shared with collbench-history. */
#ifndef CB_COMPARE_H
#define CB_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "cb_results.h"
#include "cb_rowval.h"
#include "cb_samples.h"
#include "cb_status.h"

/* Below this two-sided p-value the per-iteration samples of two runs differ
 * (the rule at the top). */
#define CB_COMPARE_ALPHA 0.001

/* In the order of severity (markdown lists rows so). */
enum cb_verdict {
	CB_V_FAILED, CB_V_VANISHED, CB_V_REGRESSION, CB_V_UNKNOWN, CB_V_IMPROVEMENT, CB_V_MISSING,
	CB_V_SAME, CB_V_SKIPPED, CB_V_COUNT
};

/* What a comparison means to a gate (cb_compare_gate). */
enum cb_gate {
	CB_GATE_PASS,    /* no regression, no failed or vanished row */
	CB_GATE_FAIL,    /* a regression, a failed or vanished row (strict: a missing one) */
	CB_GATE_UNKNOWN, /* no failure, but a row worse beyond the tolerance that the
			  * noise cannot confirm: run again */
};

struct cb_compare_opts {
	enum cb_metric metric;
	enum cb_stat stat;
	double tolerance;              /* a fraction: 0.05 = 5% */
	double noise_cap;              /* a fraction >= tolerance: beyond it the noise
					* cannot make a change same or unknown */
	unsigned long long min_bytes;  /* rows with fewer bytes are ignored */
	const char *algos;             /* comma list to keep; NULL or "" = all */
	int strict;                    /* missing rows fail the gate too */
	int allow_missing;             /* vanished rows are only missing */
};

struct cb_cmp_row {
	const struct cb_res_row *base, *cur; /* NULL on the side that lacks it */
	enum cb_metric metric;               /* the one compared (see the top) */
	struct cb_band b, c;                 /* NaN bands where not measured */
	double change;                       /* (c - b) / b; NaN if b is 0 or absent */
	double p;                            /* Mann-Whitney p of the samples; NaN: none */
	int worse;                           /* beyond the tolerance, the worse way */
	enum cb_verdict verdict;
	char note[96];                       /* why, for anything but ok/ok rows */
};

struct cb_comparison {
	struct cb_cmp_row *rows;             /* join-key order; skipped/skipped left out */
	size_t nrows;
	size_t count[CB_V_COUNT];            /* rows per verdict, skipped included */
	size_t fallback;                     /* rows compared on algbw instead of busbw */
	size_t fallback_time;                /* rows compared on time: bandwidth 0 */
	size_t inconsistent;                 /* rows whose repeat band was ignored */
	size_t no_median;                    /* rows compared on the mean, both sides: one lacks the median */
	size_t unknown_worse;                /* unknown rows that are worse */
	size_t tested;                       /* rows with samples on both sides */
};

/* The verdict of current c against baseline b by the rule at the top: tol
 * and cap fractions with 0 <= tol <= cap; p the samples' p-value or NaN;
 * higher_is_better 1 for bandwidths, 0 for time. Bands must hold finite
 * values. Returns CB_V_SAME, CB_V_REGRESSION, CB_V_IMPROVEMENT or
 * CB_V_UNKNOWN. Pure. */
enum cb_verdict cb_verdict_of(const struct cb_band *b, const struct cb_band *c, double p,
			      double tol, double cap, int higher_is_better);

/* Joins base and cur under o (filters: o->min_bytes, o->algos) into *out;
 * bs and cs are their per-iteration samples (cb_samples_load) or NULL.
 * Errors (message in err, *out empty): CB_ERR_NOMEM. */
enum cb_status cb_compare_runs(const struct cb_results *base, const struct cb_results *cur,
			       const struct cb_samples *bs, const struct cb_samples *cs,
			       const struct cb_compare_opts *o, struct cb_comparison *out,
			       char *err, size_t errlen);

/* What the comparison means to a gate (enum cb_gate); strict: missing rows
 * fail it too. */
enum cb_gate cb_compare_gate(const struct cb_comparison *c, int strict);

/* "3 regressions, 1 improvement, 52 same, 2 missing" (singular or plural),
 * then ", N unknown" and ", N skipped" where there are such rows; failed
 * and vanished rows are counted as regressions and named: "3 regressions
 * (1 failed, 1 vanished), ...". */
void cb_compare_summary(const struct cb_comparison *c, char *buf, size_t len);

/* A row's name for people: "ring np2 64M float sum" (+ " in-place", the
 * backend first when it is not host, and " over p2p" when the transport is
 * not the one of a one-host run, cb_transport_one_host). Uses whichever
 * side is present. */
void cb_cmp_row_name(const struct cb_cmp_row *r, char *buf, size_t len);

/* Names: "regression", "same", "unknown", "vanished", ... */
const char *cb_verdict_name(enum cb_verdict v);

void cb_comparison_free(struct cb_comparison *c);

#endif
