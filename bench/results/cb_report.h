/* cb_report: result rows on stdout (aligned table), in CSV (summary and
 * per-rank) and JSON Lines. Written by rank 0 only; every row is written as
 * one complete line and flushed when it completes, so a later failure never
 * loses it and never leaves half a line.
 *
 * The summary CSV columns are a contract (DESIGN.md section 4; scripts, plots,
 * collbench-compare and users read them by name); new columns go at the end:
 *   schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,
 *   time_us_median,time_us_min,time_us_max,algbw_GBps,busbw_GBps,wrong,
 *   tx_total_bytes,txrx_max_bytes,imbalance,status,
 *   then: warmup_iters,repeats,time_us_rep_min,time_us_rep_max,
 *   busbw_GBps_rep_min,busbw_GBps_rep_max,minflt_per_iter,
 *   time_us_median_rep_min,time_us_median_rep_max
 * Per-rank CSV: schema,backend,algo,nranks,bytes,rank,tx_bytes,rx_bytes,
 *   time_us, then: dtype,op,in_place. Its time_us is the rank's own mean over
 *   the timed iterations (its own clock, not the max over ranks).
 * Numbers are plain decimals, or empty when unmeasured or not applicable
 * (never "N/A"). */
#ifndef CB_REPORT_H
#define CB_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cb_dtype.h"
#include "cb_stats.h"
#include "cb_status.h"

#define CB_SCHEMA_SUMMARY "collbench-summary-1"
#define CB_SCHEMA_RANK "collbench-rank-1"

struct cb_row {
	const char *backend, *algo;
	int nranks;
	size_t bytes, count;
	enum cb_dtype dt;
	enum cb_op op;
	int in_place, iters, warmup, repeats;
	struct cb_stats time_us;   /* over iterations; NaN fields when not run */
	double time_us_rep_min, time_us_rep_max; /* over repeats' means */
	double time_us_median_rep_min, time_us_median_rep_max; /* over repeats' medians */
	double algbw, busbw, busbw_rep_min, busbw_rep_max; /* GB/s; NaN = empty */
	long long wrong;           /* -1: not checked */
	int traffic_measured;
	uint64_t tx_total, txrx_max;
	double imbalance;          /* NaN = empty */
	const uint64_t *tx, *rx;   /* [nranks] per rank, or NULL */
	const double *rank_time_us; /* [nranks] mean per rank, or NULL */
	double minflt_per_iter;    /* max over ranks; NaN = empty */
	char status[192];          /* ok, skipped:<reason>, error:<reason> */
};

struct cb_report;

/* Opens the files named in the paths (NULL or "" = not written) without
 * changing them, so that a run that cannot open every output (or its
 * metadata) leaves an earlier run's files as they were. table: the stream of
 * the aligned table (stdout), NULL for none (-q). Errors: CB_ERR_IO with a
 * message on stderr; nothing is left open. */
enum cb_status cb_report_open(struct cb_report **out, const char *csv, const char *rank_csv,
			      const char *json, FILE *table);

/* Empties the opened files and writes their header rows. Errors: CB_ERR_IO. */
enum cb_status cb_report_start(struct cb_report *r);

/* Prints the table's column header (after the run header). Errors:
 * CB_ERR_IO (logged, naming the stream). */
enum cb_status cb_report_table_header(struct cb_report *r);

/* Writes one row everywhere, each stream flushed: every row of the CSV is a
 * row of the table too, with its status last (measured or not: a skipped or
 * failed row shows "-" where it has no number). Errors: CB_ERR_IO when a
 * write to any stream (table, CSV, JSON) failed now or before; the first
 * failure is logged once, naming the stream and the reason. */
enum cb_status cb_report_row(struct cb_report *r, const struct cb_row *w);

/* Closes the files (fclose checked). Returns CB_ERR_IO if a write failed at
 * any point, on any stream (logged). */
enum cb_status cb_report_close(struct cb_report *r);

#endif
