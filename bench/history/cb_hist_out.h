/* cb_hist_out: trends and change points as text: an aligned table, CSV
 * (named columns, empty for absent numbers), markdown, and TSV for
 * scripts/plot_history.sh (scripts/plot/history.awk). Results go to the FILE given (stdout). */
#ifndef CB_HIST_OUT_H
#define CB_HIST_OUT_H

#include <stdio.h>

#include "cb_hist_analyze.h"

enum cb_hist_fmt { CB_HIST_FMT_TABLE, CB_HIST_FMT_CSV, CB_HIST_FMT_MARKDOWN, CB_HIST_FMT_TSV };

/* "table", "csv", "markdown", "tsv". */
const char *cb_hist_fmt_name(enum cb_hist_fmt f);

/* One series with its change points. */
struct cb_hist_analysis {
	const struct cb_hist_series *s;
	struct cb_hist_change *c;
	size_t nc;
};

struct cb_hist_out_info {
	const char *machine;                /* identity */
	enum cb_stat stat;
	const struct cb_cpd_opts *cpd;
};

/* Every point of every series: run, time, commit, value and band, the mean
 * of its segment between change points, and the change that starts there.
 * TSV: "# series I<TAB>name<TAB>metric" lines, then "I<TAB>time<TAB>value
 * <TAB>lo<TAB>hi<TAB>segment mean<TAB>mark<TAB>run id" (mark 0, 1
 * regression, 2 improvement). Returns 0, or -1 when a write failed. */
int cb_hist_print_trend(FILE *f, enum cb_hist_fmt fmt, const struct cb_hist_analysis *a,
			size_t n, const struct cb_hist_out_info *in);

/* One line per change point (TSV prints as CSV). Returns 0 or -1. */
int cb_hist_print_changes(FILE *f, enum cb_hist_fmt fmt, const struct cb_hist_analysis *a,
			  size_t n, const struct cb_hist_out_info *in);

/* "what coincides": "commit A -> B", "versions X -> Y", both joined by
 * "; ", or "no commit or version change". */
void cb_hist_coincides(const struct cb_hist_change *c, char *buf, size_t len);

#endif
