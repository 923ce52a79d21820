/* cb_hist_schema: what the history keeps of one run and one summary row.
 *
 * The metric columns of the rows table come from CB_HIST_METRICS below and
 * from nowhere else: the database's CREATE/ALTER statements, the INSERT, the
 * SELECTs of the trend queries and the adapter that fills a row from the
 * results reader all expand this list. A new summary column to keep is one
 * line here (the database gains the column on its next open, see
 * cb_hist_db.h); the names are the summary CSV's column names (DESIGN.md
 * section 4), so the list can later be pointed at the results schema table.
 *
 * A row's key is the one collbench-compare joins on (backend, algo, nranks,
 * bytes, dtype, op, in_place) plus transport (DESIGN.md section 2: one-sided
 * or two-sided; "" until the summary records it). */
#ifndef CB_HIST_SCHEMA_H
#define CB_HIST_SCHEMA_H

#include <stddef.h>

/* X(ENUM_SUFFIX, "summary column name"): stored as REAL, NULL when empty.
 * Units as in the CSV: microseconds, GB/s (1 GB = 1e9 B), a count. */
#define CB_HIST_METRICS(X)                                      \
	X(TIME_US, "time_us")                                   \
	X(TIME_US_MEDIAN, "time_us_median")                     \
	X(TIME_US_REP_MIN, "time_us_rep_min")                   \
	X(TIME_US_REP_MAX, "time_us_rep_max")                   \
	X(TIME_US_MEDIAN_REP_MIN, "time_us_median_rep_min")     \
	X(TIME_US_MEDIAN_REP_MAX, "time_us_median_rep_max")     \
	X(ALGBW, "algbw_GBps")                                  \
	X(BUSBW, "busbw_GBps")                                  \
	X(BUSBW_REP_MIN, "busbw_GBps_rep_min")                  \
	X(BUSBW_REP_MAX, "busbw_GBps_rep_max")                  \
	X(REPEATS, "repeats")

#define CB_HIST_ENUM_(e, name) CB_HM_##e,
enum cb_hist_metric_col { CB_HIST_METRICS(CB_HIST_ENUM_) CB_HIST_NMETRICS };
#undef CB_HIST_ENUM_

/* The column names in CB_HIST_METRICS order. */
extern const char *const cb_hist_metric_names[CB_HIST_NMETRICS];

#define CB_HIST_NAME 32
#define CB_HIST_TEXT 256
#define CB_HIST_PATH 1024

struct cb_hist_key {
	char backend[CB_HIST_NAME], algo[CB_HIST_NAME], dtype[CB_HIST_NAME], op[CB_HIST_NAME];
	char transport[CB_HIST_NAME];                 /* "" today */
	int nranks, in_place;
	unsigned long long bytes;                     /* per rank */
};

struct cb_hist_row {
	struct cb_hist_key key;
	char status[CB_HIST_TEXT];                    /* ok, skipped:..., error:... */
	double v[CB_HIST_NMETRICS];                   /* NaN: empty in the CSV */
};

/* The machine a run belongs to (issue 8's identity): identity is the text
 * collbench-compare matches baselines on, "label (cpu, N CPUs, M GiB[, GPU
 * model])"; a history series never mixes two identities. */
struct cb_hist_machine {
	char identity[2 * CB_HIST_TEXT];
	char label[CB_HIST_TEXT];
};

struct cb_hist_run {
	char hash[65];                /* SHA-256 (hex) of the summary and metadata files */
	char time_utc[32];            /* "2026-11-29T10:21:50Z": first launch's start */
	char name[CB_HIST_TEXT];      /* run id of the folder (meta.json), else its name */
	char source[CB_HIST_PATH];    /* the path it was ingested from */
	struct cb_hist_machine machine;
	char version[64];             /* collbench version */
	char git_commit[64];
	char versions[2 * CB_HIST_TEXT]; /* "collbench V; MPI ...[; CUDA ..., NCCL ...]" */
	char launcher[64], job_id[64];   /* "" where the metadata does not say */
	char label[CB_HIST_TEXT];     /* --label at ingest (a branch, a build), else "" */
	int complete;                 /* every launch's metadata says "complete" */
	struct cb_hist_row *rows;
	size_t nrows;
};

void cb_hist_run_free(struct cb_hist_run *run);

/* "ring np2 64M float sum" (+ " in-place", the backend first when it is not
 * host, the transport last when set). */
void cb_hist_key_name(const struct cb_hist_key *k, char *buf, size_t len);

#endif
