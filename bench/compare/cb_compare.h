/* cb_compare: joins two loaded results on (backend, algo, transport, nranks,
 * bytes, dtype, op, in_place) and gives each pair a noise-aware verdict.
 *
 * The rule (cb_verdict_of), for a higher-is-better metric (busbw, algbw) with
 * baseline b and current c, each with its repeat band [lo, hi] (the extremes
 * over -R repeats of each repeat's mean: the *_rep_min/max columns; a point
 * when there was one repeat), tolerance tol (a fraction):
 *   regression   iff c < b (1 - tol)  and  c.hi < b.lo
 *   improvement  iff c > b (1 + tol)  and  c.lo > b.hi
 *   same         otherwise (a change within the tolerance or within the
 *                noise of either run)
 * and mirrored for time (lower is better):
 *   regression   iff c > b (1 + tol)  and  c.lo > b.hi
 *   improvement  iff c < b (1 - tol)  and  c.hi < b.lo
 *
 * Rows by status (ok / skipped / error) in baseline and current:
 *   ok / ok              the rule above
 *   any / error          failed: counts as a regression (the current run has
 *                        wrong results or could not run the row)
 *   error / ok           improvement (it works again)
 *   ok or error / skipped, skipped / ok, absent on one side:
 *                        missing (a warning; a failure with --strict)
 *   skipped / skipped    skipped (counted, not listed)
 * A bandwidth that is absent or 0 cannot show a slower row, so such rows are
 * compared on the next metric down, busbw -> algbw -> time, and each row
 * names the metric it used: copy rows (no busbw) and n = 1 rows (busbw is 0
 * by definition) on algbw, 0-byte rows (algbw 0 too) on time. How a row is
 * read (metric, median or mean, band) is cb_rowval.h's, shared with
 * collbench-history. */
#ifndef CB_COMPARE_H
#define CB_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "cb_results.h"
#include "cb_rowval.h"
#include "cb_status.h"

enum cb_verdict {
	CB_V_FAILED, CB_V_REGRESSION, CB_V_IMPROVEMENT, CB_V_MISSING, CB_V_SAME, CB_V_SKIPPED,
	CB_V_COUNT
};

struct cb_compare_opts {
	enum cb_metric metric;
	enum cb_stat stat;
	double tolerance;              /* a fraction: 0.05 = 5% */
	unsigned long long min_bytes;  /* rows with fewer bytes are ignored */
	const char *algos;             /* comma list to keep; NULL or "" = all */
	int strict;                    /* missing rows make the exit code 1 */
};

struct cb_cmp_row {
	const struct cb_res_row *base, *cur; /* NULL on the side that lacks it */
	enum cb_metric metric;               /* the one compared (see the top) */
	struct cb_band b, c;                 /* NaN bands where not measured */
	double change;                       /* (c - b) / b; NaN if b is 0 or absent */
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
	size_t no_median;                    /* rows compared on the mean: no median columns */
};

/* The verdict of current c against baseline b by the rule at the top; tol is
 * a fraction >= 0; higher_is_better is 1 for bandwidths, 0 for time. Bands
 * must hold finite values. Returns CB_V_SAME, CB_V_REGRESSION or
 * CB_V_IMPROVEMENT. Pure. */
enum cb_verdict cb_verdict_of(const struct cb_band *b, const struct cb_band *c, double tol,
			      int higher_is_better);

/* Joins base and cur under o (filters: o->min_bytes, o->algos) into *out.
 * Errors (message in err, *out empty): CB_ERR_NOMEM. */
enum cb_status cb_compare_runs(const struct cb_results *base, const struct cb_results *cur,
			       const struct cb_compare_opts *o, struct cb_comparison *out,
			       char *err, size_t errlen);

/* 1 when the comparison should fail a gate: a regression, a failed row, or
 * (strict) a missing row; else 0. */
int cb_compare_failed(const struct cb_comparison *c, int strict);

/* "3 regressions, 1 improvement, 52 same, 2 missing" (singular or plural),
 * then ", N skipped" when rows were skipped in both runs; failed rows are
 * counted as regressions and named: "3 regressions (1 failed), ...". */
void cb_compare_summary(const struct cb_comparison *c, char *buf, size_t len);

/* A row's name for people: "ring np2 64M float sum" (+ " in-place", the
 * backend first when it is not host, and " over p2p" when the transport is
 * not the one of a one-host run, cb_transport_one_host). Uses whichever
 * side is present. */
void cb_cmp_row_name(const struct cb_cmp_row *r, char *buf, size_t len);

/* Names: "regression", "same", ... */
const char *cb_verdict_name(enum cb_verdict v);

void cb_comparison_free(struct cb_comparison *c);

#endif
