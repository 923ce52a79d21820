/* cb_hist_query: series out of the history. A series is one row key (see
 * cb_hist_run.h) on one machine, its points the runs that measured the key
 * with status ok, in the order they were ingested (seq, cb_hist_db.h), not
 * by start time: a clock can be wrong. Each point is
 * read the way collbench-compare reads a row (cb_rowval.h, the same code):
 *   stat median (default): the row stands for its median time over
 *     iterations, bandwidths scaled by time_us / time_us_median, band from
 *     the repeats' medians; a series with a point without the median
 *     columns (an older file; counted in no_median) is read on the mean, all
 *     its points: like with like (its `stat` says which);
 *   stat mean: time_us, busbw, algbw and their *_rep_min/max bands;
 *   metric busbw -> algbw -> time: a series with a point whose bandwidth is
 *     absent or 0 (copy: no busbw; n = 1: busbw 0; 0 bytes) uses the next
 *     one down for all its points, and says which in `metric`. */
#ifndef CB_HIST_QUERY_H
#define CB_HIST_QUERY_H

#include <stddef.h>

#include "cb_hist_db.h"
#include "cb_hist_run.h"
#include "cb_rowval.h"

/* Which rows: NULL strings and -1 numbers match anything. algos is a comma
 * list; rows below min_bytes are left out. */
struct cb_hist_filter {
	const char *backend, *algos, *dtype, *op, *transport, *collective;
	int nranks, in_place;
	long long bytes;
	unsigned long long min_bytes;
};

struct cb_hist_point {
	long long run_id;
	char time_utc[32];
	char run_name[CB_HIST_TEXT], label[CB_HIST_TEXT];
	char git_commit[64];
	char versions[2 * CB_HIST_TEXT];
	struct cb_res_row row;              /* the stored columns (others empty) */
	double value, lo, hi;               /* the metric and its repeat band */
};

struct cb_hist_series {
	struct cb_hist_key key;
	enum cb_metric metric;              /* the one used (see the top) */
	enum cb_stat stat;                  /* the one used (see the top) */
	struct cb_hist_point *pts;
	size_t n, cap;
	size_t not_ok;                      /* runs whose row was skipped or an error */
	long long last_run;                 /* the newest run with the key's row, */
	struct cb_row_status last_status;   /* whatever its status, and that status */
	size_t no_median;                   /* points without the median columns */
	size_t inconsistent;                /* points whose repeat band was ignored */
};

struct cb_hist_machine_sel {
	long long id;
	char identity[2 * CB_HIST_TEXT];
	char label[CB_HIST_TEXT];
};

/* The machine named want: its full identity, else its label (which must then
 * belong to one identity). When want is NULL: the only machine of the
 * history, else, with several, this machine (cb_machine_here: its identity as
 * a run made here now records it; label CB_MACHINE else the short host name).
 * This machine may have two identities, one without a GPU (host runs) and one
 * with (cuda runs): backend ("host", "cuda" or NULL for any) picks among them.
 * Errors (message in err listing the machines): CB_ERR_ARG (none; ambiguous;
 * several and this machine not among them), CB_ERR_IO. */
enum cb_status cb_hist_machine_find(struct cb_hist_db *db, const char *want,
				    const char *backend, struct cb_hist_machine_sel *out,
				    char *err, size_t errlen);

/* The series of machine mid under f, in key order (backend, nranks, dtype,
 * op, in_place, collective, algo, bytes, transport) into a new array *out
 * of *n: rows of two collectives are two series. Series
 * without an ok point are left out, unless their newest row failed (error or
 * wrong: cb_row_state_failed; the gate fails on it): those have n = 0.
 * Errors: CB_ERR_IO, CB_ERR_NOMEM. */
enum cb_status cb_hist_series_load(struct cb_hist_db *db, long long mid,
				   const struct cb_hist_filter *f, enum cb_metric metric,
				   enum cb_stat stat, struct cb_hist_series **out, size_t *n,
				   char *err, size_t errlen);

/* The id of the newest run (the last ingested, seq) of machine mid; 0 if
 * none. */
long long cb_hist_newest_run(struct cb_hist_db *db, long long mid);

/* Of the other runs of run_id's machine, the one with the latest start time
 * (ties: the last ingested): its id, its time into time[32]. 0 when there is
 * none or on error. */
long long cb_hist_latest_dated(struct cb_hist_db *db, long long run_id, char *time);

/* Computes value, lo and hi of every point of s from its stored columns,
 * for metric and stat (after the fallbacks at the top, recorded in
 * s->metric and s->stat; cb_row_read); a missing band end gives lo = hi = value. Pure. */
void cb_hist_series_values(struct cb_hist_series *s, enum cb_metric metric,
			   enum cb_stat stat);

void cb_hist_series_free(struct cb_hist_series *s, size_t n);

#endif
