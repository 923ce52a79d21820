/* cb_hist_run: what the history keeps of one run, reading it, and a row's
 * key.
 *
 * A run's rows are the results reader's (struct cb_res_row, cb_results.h):
 * what is stored of each is the schema table's (cb_hist_cols.h). A row's
 * key is the one collbench-compare joins on (cb_res_key_cmp: backend,
 * algo, nranks, bytes, dtype, op, in_place, transport and collective):
 * transport is how bytes move (docs/architecture.md; the summary's
 * "transport" column from collbench-summary-2 on, the one-host transport
 * for older files as the reader gives it), collective the summary's
 * "collective" column (collbench-summary-3; allreduce for older files, as
 * the reader gives it). A reduce_scatter row and an allreduce row of one
 * algorithm and size are two series.
 *
 * Reading a run (cb_hist_run_load) is the only code of collbench-history
 * that calls the results reader (cb_results_load) and knows the metadata
 * keys the reader does not give. A run is what
 * cb_results_load reads (a run folder of sweep.sh, or a summary CSV of
 * allreduce_perf --csv with its X.meta.json); its rows stay the reader's
 * records (struct cb_res_row), which the rest of the history stores and
 * reads back by the schema table (cb_hist_cols.h).
 *
 * What is taken from where:
 *   rows        every summary row (ok, skipped and error) as the reader
 *               gives it (the schema table's read columns, cb_hist_cols.h);
 *   machine     the identity and its label as cb_results_parse_meta derives
 *               them (its "machine" object, else the same facts from "host"
 *               for older files); every launch of the run must agree on it;
 *   time_utc    the earliest "start_utc" of the launches, else the folder's
 *               meta.json "created_utc", parsed and normalised to UTC
 *               (cb_hist_time.h: a text that is not a time is refused);
 *   name        meta.json "run_id", else the folder's (or CSV's) base name;
 *   version, git_commit, versions (collbench, the MPI library's first
 *               field, the CUDA/NCCL part of "device") from the first
 *               launch's sidecar;
 *   launcher, job_id  from the first launch's sidecar, else the folder's
 *               meta.json: "launcher" as an object {"name": ..., "job_id":
 *               ...} or as a string (the name), else a top-level "job_id";
 *               a job id may be a string or an integer; absent or null: "";
 *   hash        SHA-256 over the summary CSV, every sidecar and meta.json
 *               (name, length and bytes of each, in a fixed order): the same
 *               files give the same run, wherever they are copied;
 *   command_key the launches' "command_line" strings (cb_hist_key.h; an
 *               absent one counts as ""). What identifies a run is its run
 *               key (machine, start time, rows: cb_hist_key.h), made where it
 *               is stored (cb_hist_db_ingest). */

#ifndef CB_HIST_RUN_H
#define CB_HIST_RUN_H

#include <stddef.h>

#include "cb_results.h"
#include "cb_status.h"

#define CB_HIST_TEXT 256
#define CB_HIST_PATH 1024

/* A series' key: the key fields of row.v, and the transport. */
struct cb_hist_key {
	struct cb_res_row row;
	char transport[CB_NAME_MAX];
	char libconf[CB_LIBCONF_MAX]; /* the runs' library configuration: a series
				       * never mixes two (cb_libconf.h) */
	char plan_digest[CB_NAME_MAX]; /* the digest of the plan file behind the
					* rows (--plan, cb_plan_file.h), "" none or
					* not recorded: a series never mixes two */
};

/* The machine a run belongs to (issue 8's identity): identity is the text
 * collbench-compare matches baselines on, "label (cpu, N CPUs[, GPU
 * model])" (cb_machine.h); a history series never mixes two identities. */
struct cb_hist_machine {
	char identity[2 * CB_HIST_TEXT];
	char label[CB_HIST_TEXT];
};

struct cb_hist_run {
	char hash[65];                /* SHA-256 (hex) of the summary and metadata files */
	char command_key[65];         /* SHA-256 (hex) of the launches' command lines
				       * (cb_hist_key.h); "" when not known */
	char time_utc[32];            /* "2026-11-29T10:21:50Z": first launch's start,
				       * normalised to UTC (cb_hist_time.h) */
	long long epoch;              /* the same in seconds since 1970 */
	char name[CB_HIST_TEXT];      /* run id of the folder (meta.json), else its name */
	char source[CB_HIST_PATH];    /* the path it was ingested from */
	struct cb_hist_machine machine;
	char version[64];             /* collbench version */
	char git_commit[64];
	char versions[2 * CB_HIST_TEXT]; /* "collbench V; MPI ...[; CUDA ..., NCCL ...]" */
	char launcher[64], job_id[64];   /* "" where the metadata does not say */
	char label[CB_HIST_TEXT];     /* --label at ingest (a branch, a build), else "" */
	char libconf[CB_LIBCONF_MAX]; /* the launches' library configuration */
	char plans[CB_LIBCONF_MAX];   /* the launches' plan files: "NAME=DIGEST\n"
				       * each, those that record a digest */
	int complete;                 /* every launch's metadata says "complete" */
	struct cb_res_row *rows;      /* every summary row, as the reader gives them */
	size_t nrows;
};

/* Loads the run at path into *run (label: stored as the run's label, may be
 * NULL). Errors, with a one-line message naming the file in err and *run
 * left empty: CB_ERR_IO (unreadable), CB_ERR_ARG (invalid content, no
 * metadata sidecar: the machine would be unknown, launches of two machines,
 * no start time, a start time that is not a time), CB_ERR_NOMEM. */
enum cb_status cb_hist_run_load(const char *path, const char *label, struct cb_hist_run *run,
				char *err, size_t errlen);

void cb_hist_run_free(struct cb_hist_run *run);

/* 1 when a and b are the same key (see the top), else 0. */
int cb_hist_key_eq(const struct cb_hist_key *a, const struct cb_hist_key *b);

/* Room for a series' name: the row's (128 B) and its library configuration. */
#define CB_HIST_NAME (128 + CB_LIBCONF_MAX)

/* "ring np2 64M float sum" (cb_row_name: + " in-place", the backend first
 * when it is not host, " over p2p" when the transport is not the one the
 * algorithm has on one host, the collective first when it is not
 * allreduce: "reduce_scatter ring np2 ..."), + " [NAME=VALUE ...]" for a
 * library configuration, + " [plan DIGEST]" for a plan file's. */
void cb_hist_key_name(const struct cb_hist_key *k, char *buf, size_t len);

#endif
