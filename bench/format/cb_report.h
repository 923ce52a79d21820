/* cb_report: result rows on stdout (aligned table), in CSV (summary and
 * per-rank) and JSON Lines. Written by rank 0 only; every row is written as
 * one complete line and flushed when it completes, so a later failure never
 * loses it and never leaves half a line. The files' columns and keys come
 * from the schema table (cb_schema.h); the table on stdout is for people and
 * has its own, shorter columns. */
#ifndef CB_REPORT_H
#define CB_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cb_schema.h"
#include "cb_status.h"

/* Every iteration of a measured row, for the JSON line (key "iterations"):
 * k timed iterations (all repeats, in order), w warm-up iterations, n ranks;
 * rank r's value of iteration i at [r * k + i] (warm-up: [r * w + i]). */
struct cb_iter_values {
	int k, warmup, nranks;
	const double *time_us;        /* [k] the max over ranks */
	const double *warmup_us;      /* [w] the max over ranks */
	const double *rank_time_us;   /* [n k] each rank's own */
	const double *rank_warmup_us; /* [n w] */
	const double *rank_busy_us, *rank_wait_us; /* [n k]; NULL: unmeasured */
	const int *slowest;           /* [k] the straggler rank of each iteration */
};

/* Each rank's values of a measured row: arrays of the row's nranks. */
struct cb_rank_values {
	const uint64_t *tx, *rx;   /* bytes per allreduce; NULL: unmeasured */
	const double *time_us;     /* the rank's own mean over the timed iterations */
	const int *host;           /* each rank's host index (cb_rank_rec.host) */
	/* means per timed iteration (us); NULL: unmeasured (cb_rank_rec) */
	const double *busy_us, *wait_us, *barrier_us, *busy_cpu_us;
	const struct cb_iter_values *iters; /* NULL: not kept (no --json) */
	const uint64_t *hw_tx, *hw_rx; /* hardware bytes per call (NVML); NULL: unmeasured */
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

/* The width of the table's algo column: the longest algorithm name the run
 * may print (a plan file's name is up to 31 characters), at least
 * CB_TABLE_ALGO_WIDTH (the default), so every row stays under the header.
 * Call it before cb_report_table_header. */
void cb_report_set_algo_width(struct cb_report *r, int width);

/* both (1): the table shows out-of-place and in-place rows of one
 * (algorithm, size, dtype, op) on one line (cb_report_modes.h): a row with
 * in_place 0 is printed with the next row when that is its in-place pair,
 * else alone (at the latest when r closes); the files keep a row per mode.
 * 0 (the default): a line per row. Call it before cb_report_table_header. */
void cb_report_set_modes(struct cb_report *r, int both);

/* Writes one row everywhere, each stream flushed: every row of the CSV is a
 * row of the table too, with its status last (measured or not: a skipped or
 * failed row shows "-" where it has no number), and a note line under it
 * naming the straggler where there is one; ranks (NULL for a row that
 * was not measured) gives the per-rank rows and, with ranks->iters, the
 * JSON line's "iterations" object (after the schema's keys): "time_us",
 * "warmup_us", "slowest_rank", and "ranks": per rank {"time_us",
 * "warmup_us", "busy_us", "wait_us"} (the last two null where unmeasured). Errors: CB_ERR_IO when a write
 * to any stream (table, CSV, JSON) failed now or before; the first failure
 * is logged once, naming the stream and the reason. A row whose collective
 * is "" is written as allreduce's. */
enum cb_status cb_report_row(struct cb_report *r, const struct cb_summary *s,
			     const struct cb_rank_values *ranks);

/* The table's columns: algo size count type redop ip time median algbw
 * busbw #wrong tx_total txrx_max imbal status. */
#define CB_TABLE_COLS 15
#define CB_TABLE_ALGO_WIDTH 6

/* One row of the table from its CB_TABLE_COLS fields as they print ("-" for
 * none), aligned under the header of algo column width algo_width
 * (cb_report_set_algo_width), with its newline, into buf. For
 * cb_report_row and for tools that rewrite a table (collbench-results). */
void cb_report_table_line(char *buf, size_t len, int algo_width,
			  const char *const f[CB_TABLE_COLS]);

struct cb_nct;

/* From now on every row cb_report_row writes is also added to t (cb_nct.h:
 * nccl-tests' footer and JSON); NULL: none. */
void cb_report_set_nct(struct cb_report *r, struct cb_nct *t);

/* Closes the files (fclose checked). Returns CB_ERR_IO if a write failed at
 * any point, on any stream (logged). */
enum cb_status cb_report_close(struct cb_report *r);

#endif
