/* cb_hist_input: reads one run for the history, the only file of
 * collbench-history that calls the results reader (cb_results_load) and
 * knows the metadata keys the reader does not give. A run is what
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
#ifndef CB_HIST_INPUT_H
#define CB_HIST_INPUT_H

#include <stddef.h>

#include "cb_hist_run.h"
#include "cb_status.h"

/* Loads the run at path into *run (label: stored as the run's label, may be
 * NULL). Errors, with a one-line message naming the file in err and *run
 * left empty: CB_ERR_IO (unreadable), CB_ERR_ARG (invalid content, no
 * metadata sidecar: the machine would be unknown, launches of two machines,
 * no start time, a start time that is not a time), CB_ERR_NOMEM. */
enum cb_status cb_hist_run_load(const char *path, const char *label, struct cb_hist_run *run,
				char *err, size_t errlen);

#endif
