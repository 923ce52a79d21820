/* cb_compare_out: a comparison as an aligned table, CSV, GitHub markdown or
 * JSON, on a stream (stdout in collbench-compare).
 *
 * Every format lists the joined rows (rows skipped in both runs are only
 * counted) with: verdict, the row's key, the metric compared, baseline and
 * current values with their repeat bands [lo, hi], the relative change
 * (c - b) / b in percent, the p-value of the per-iteration samples where
 * both runs have them (csv and json), and a note. Units: GB/s for busbw and
 * algbw, microseconds for time. table and csv keep join-key order; markdown
 * puts rows in enum cb_verdict's order: failed, vanished, regressions,
 * unknown, improvements, missing, same.
 * table and markdown end with the summary line (cb_compare_summary); csv and
 * json stay machine-readable (json holds the summary; collbench-compare
 * prints the line on stderr for them). */
#ifndef CB_COMPARE_OUT_H
#define CB_COMPARE_OUT_H

#include <stdio.h>

#include "cb_compare.h"

enum cb_format { CB_FMT_TABLE, CB_FMT_CSV, CB_FMT_MARKDOWN, CB_FMT_JSON };

struct cb_out_info {
	const char *base_name, *cur_name;     /* the paths given */
	const struct cb_compare_opts *opts;
	enum cb_gate gate;                    /* cb_compare_gate() */
};

/* Writes c in format fmt to f. Errors: CB_ERR_IO (a write failed),
 * CB_ERR_NOMEM. */
enum cb_status cb_compare_print(FILE *f, enum cb_format fmt, const struct cb_comparison *c,
				const struct cb_out_info *info);

#endif
