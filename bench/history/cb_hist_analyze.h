/* cb_hist_analyze: the change points of a series (cb_cpd on its values), as
 * regressions or improvements, with the run and the commit or version
 * change that coincides with each; and the CI question, "is the newest run
 * after a change point that is a regression?". */
#ifndef CB_HIST_ANALYZE_H
#define CB_HIST_ANALYZE_H

#include <stddef.h>

#include "cb_cpd.h"
#include "cb_hist_query.h"

enum cb_hist_dir { CB_HIST_REGRESSION, CB_HIST_IMPROVEMENT };

struct cb_hist_change {
	struct cb_cpd_change cp;            /* index into the series' points */
	double change;                      /* (after - before) / before of the means */
	enum cb_hist_dir dir;               /* from change and the metric's direction */
	const struct cb_hist_point *at;     /* the first run after the change */
	const struct cb_hist_point *prev;   /* the run before it */
	int commit_changed, versions_changed;
};

/* The change points of s under o into a new array *out of *n, in time
 * order. Errors: CB_ERR_ARG (o out of range), CB_ERR_NOMEM. */
enum cb_status cb_hist_changes(const struct cb_hist_series *s, const struct cb_cpd_opts *o,
			       struct cb_hist_change **out, size_t *n);

/* The gate's rule for one series with changes c[0..n-1]: 1 when its last
 * change is a regression and the series holds the run newest_run (the
 * newest of its machine: a series the newest run did not measure is not
 * judged), with at most `recent` points after the change when recent > 0
 * (an old, accepted regression then no longer fails); else 0. */
int cb_hist_gate_fails(const struct cb_hist_series *s, const struct cb_hist_change *c, size_t n,
		       long long newest_run, size_t recent);

/* The gate's rule for rows that failed, as collbench-compare's for a failed
 * current row: 1 when the newest run of the machine (newest_run) holds the
 * series' row and that row failed (error or wrong: cb_row_state_failed),
 * whatever the change points say; else 0. */
int cb_hist_gate_row_failed(const struct cb_hist_series *s, long long newest_run);

const char *cb_hist_dir_name(enum cb_hist_dir d);

#endif
