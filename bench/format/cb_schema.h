/* cb_schema: the one description of collbench's result files. Each column
 * is one row of a table (cb_schema.c): its name, type, unit, where its value
 * lives in the record, how the reader treats it, and a line of
 * documentation. That table writes the CSV header and every CSV row, the
 * JSON Lines keys, the reader's column map and required-column check
 * (cb_results.c) and its check of every field (cb_schema_parse.h), and docs/output.md's column list (tests/unit/test_schema.c checks that
 * list against the table). Adding a column is one line there, a field in the
 * record, and the code that measures the value.
 *
 * The summary columns are a contract (docs/output.md, "Files"; scripts, plots,
 * collbench-compare and users read them by name): new columns go at the
 * end. Numbers are plain decimals (reals as %.6g), or empty when unmeasured
 * or not applicable (never "N/A"); in JSON, null. */
#ifndef CB_SCHEMA_H
#define CB_SCHEMA_H

#include <jansson.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "cb_status.h"

#define CB_SCHEMA_SUMMARY "collbench-summary-3"
#define CB_SCHEMA_RANK "collbench-rank-3"
/* The previous schemas, which the reader still accepts: their files lack
 * the columns added since (-1: transport, nhosts and collective; -2:
 * collective; see cb_results.h). */
#define CB_SCHEMA_SUMMARY_1 "collbench-summary-1"
#define CB_SCHEMA_SUMMARY_2 "collbench-summary-2"
#define CB_SCHEMA_RANK_2 "collbench-rank-2"

#define CB_NAME_MAX 32    /* backend, algo, dtype and op names, with the NUL */
#define CB_REASON_MAX 184 /* a status reason, with the NUL */

/* ---- row state --------------------------------------------------------- */

/* What became of a row. A wrong row is an error of a particular kind: the
 * check found elements that differ from the exact result. */
enum cb_row_state { CB_ROW_OK, CB_ROW_SKIPPED, CB_ROW_ERROR, CB_ROW_WRONG };

struct cb_row_status {
	enum cb_row_state state;
	char reason[CB_REASON_MAX]; /* "" for ok; never holds a comma or a quote */
};

/* Sets the state and the reason (printf-style; truncated to fit), each
 * comma written as ';' and each double quote as ', so that the reason
 * keeps its promise above whatever text made it. */
void cb_row_status_set(struct cb_row_status *s, enum cb_row_state state, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The one text form: "ok", "skipped:<reason>", "error:<reason>"; a wrong
 * row is "error:N wrong elements" (its reason, cb_row_status_wrong). */
void cb_row_status_format(const struct cb_row_status *s, char *buf, size_t len);

/* A wrong row with n mismatching elements. */
void cb_row_status_wrong(struct cb_row_status *s, long long n);

/* Parses the text form back (the reason truncated to fit); "error:N wrong
 * elements" is CB_ROW_WRONG. Returns 0, or -1 for any other text (s
 * untouched). */
int cb_row_status_parse(const char *text, struct cb_row_status *s);

/* 1 for a row that failed (error or wrong), else 0. */
int cb_row_state_failed(enum cb_row_state state);

/* ---- records ----------------------------------------------------------- */

/* Empty values (written as an empty CSV field, JSON null): NaN for reals,
 * these for integers. */
#define CB_NO_INT (-1)
#define CB_NO_U64 ULLONG_MAX

/* One summary row: written by allreduce_perf, read by collbench-compare. */
struct cb_summary {
	char backend[CB_NAME_MAX], algo[CB_NAME_MAX];
	int nranks;
	unsigned long long bytes, count;          /* per rank: bytes, elements of dtype */
	char dtype[CB_NAME_MAX], op[CB_NAME_MAX];
	int in_place, iters, warmup_iters, repeats;
	double time_us, time_us_median, time_us_min, time_us_max; /* us, over iterations */
	double algbw, busbw;                      /* GB/s */
	unsigned long long wrong;                 /* CB_NO_U64: not checked */
	unsigned long long tx_total, txrx_max;    /* B per allreduce; CB_NO_U64: unmeasured */
	double imbalance;
	struct cb_row_status status;
	double time_us_rep_min, time_us_rep_max;  /* over the repeats' means */
	double busbw_rep_min, busbw_rep_max;      /* GB/s, from those */
	double minflt_per_iter;                   /* max over ranks */
	double time_us_median_rep_min, time_us_median_rep_max; /* over the repeats' medians */
	char transport[CB_NAME_MAX];              /* shm ipc p2p, library, local */
	int nhosts;                               /* hosts of the run's ranks */
	double time_us_p90, time_us_p99, time_us_cv; /* over the timed iterations */
	double busy_imbalance;                    /* max / mean of ranks' busy time */
	int straggler_rank;                       /* CB_NO_INT: none (n = 1) */
	double straggler_share, straggler_ratio;
	char collective[CB_NAME_MAX];             /* a cb_coll.h name: "allreduce", ... */
	/* what NCCL chose for an nccl row's timed calls (the most frequent):
	 * its algorithm and protocol names, channels; "", CB_NO_INT: unknown or
	 * not an nccl row */
	char nccl_algo[CB_NAME_MAX], nccl_proto[CB_NAME_MAX];
	int nccl_channels;
	char nccl_note[192];                      /* not a column: the table's note on it */
	double pct_line, pct_copy;                /* % of the line rate, of copy's algbw
						   * (cb_linerate.h); NaN: not known */
	char hw_traffic[CB_NAME_MAX];             /* "nvml", or why unmeasured (a token) */
};

/* One per-rank row: a rank's traffic and time in a summary row. */
struct cb_rank_rec {
	char backend[CB_NAME_MAX], algo[CB_NAME_MAX];
	int nranks;
	unsigned long long bytes;
	int rank;
	unsigned long long tx, rx;                /* B per allreduce; CB_NO_U64: unmeasured */
	double time_us;                           /* this rank's own mean */
	char dtype[CB_NAME_MAX], op[CB_NAME_MAX];
	int in_place;
	char transport[CB_NAME_MAX];              /* as in the summary row */
	int host;                                 /* the rank's host: 0 .. nhosts-1 */
	double busy_us, wait_us, barrier_us;      /* means per timed iteration; NaN: unmeasured */
	double busy_cpu_us;                       /* CPU time of the busy spans, likewise */
	char collective[CB_NAME_MAX];             /* as in the summary row */
	unsigned long long hw_tx, hw_rx;          /* B per call, NVML; CB_NO_U64: unmeasured */
};

/* ---- the schema -------------------------------------------------------- */

enum cb_col_type {
	CB_COL_SCHEMA, /* no field: the schema's id, the same on every row */
	CB_COL_NAME,   /* char[CB_NAME_MAX]: [A-Za-z0-9_.+-], 1..31 characters (0 where
			* CB_COL_EMPTY_OK: "" empty, JSON null) */
	CB_COL_INT,    /* int; CB_NO_INT empty */
	CB_COL_BOOL,   /* int 0 or 1; CSV 0/1, JSON false/true */
	CB_COL_U64,    /* unsigned long long; CB_NO_U64 empty */
	CB_COL_REAL,   /* double; NaN empty; CSV %.6g */
	CB_COL_STATUS, /* struct cb_row_status; its text form */
};

/* Column flags: what a column may hold (with lo, hi: for every reader),
 * and which columns collbench-compare's reader loads and requires. */
#define CB_COL_READ 1u       /* the compare reader loads it; it ignores the others */
#define CB_COL_REQUIRED 2u   /* a file without it is not a summary CSV */
#define CB_COL_EMPTY_OK 4u   /* may be empty (unmeasured, not applicable) */
#define CB_COL_NEED_IF_OK 8u /* may be empty only where the row is not ok */

struct cb_column {
	const char *name;
	enum cb_col_type type;
	size_t offset;          /* of the field in the record */
	unsigned flags;         /* CB_COL_* */
	double lo, hi;          /* the accepted range of a number */
	const char *json_after; /* NULL; else the column this one follows in JSON */
	const char *unit;       /* "B", "us", "GB/s", ... or "" */
	const char *doc;        /* one line for docs/output.md's list */
};

struct cb_schema {
	const char *id;               /* CB_SCHEMA_SUMMARY, ... */
	const char *const *older;     /* the previous ids the reader accepts, newest
				       * first, NULL-terminated */
	const struct cb_column *cols; /* in CSV order */
	size_t ncols;
};

extern const struct cb_schema cb_schema_summary; /* struct cb_summary */
extern const struct cb_schema cb_schema_rank;    /* struct cb_rank_rec */

/* Index of the column named name, or -1. */
int cb_schema_find(const struct cb_schema *s, const char *name);

/* Sets every column of rec to its empty value (names and reasons "", state
 * ok). */
void cb_schema_clear(const struct cb_schema *s, void *rec);

/* The header line, "schema,backend,...\n", into buf. Returns its length, or
 * -1 when it does not fit. */
int cb_schema_csv_header(const struct cb_schema *s, char *buf, size_t len);

/* One CSV line of rec, with its newline, into buf. Returns its length, or
 * -1 when it does not fit. */
int cb_schema_csv_row(const struct cb_schema *s, const void *rec, char *buf, size_t len);

/* rec as a JSON object, keys in JSON order (CSV order, but a column with
 * json_after right after that column). NULL when out of memory. */
json_t *cb_schema_json(const struct cb_schema *s, const void *rec);

/* docs/output.md's column list: a markdown table (column, type, unit, meaning). */
void cb_schema_markdown(const struct cb_schema *s, FILE *f);

#endif
