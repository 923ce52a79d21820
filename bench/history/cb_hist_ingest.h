/* cb_hist_ingest: runs into the history database, one transaction each,
 * and what the database holds: its consistency check and the list of its
 * runs (the database itself, its schema and migrations: cb_hist_db.h;
 * reading series back: cb_hist_query.h). */
#ifndef CB_HIST_INGEST_H
#define CB_HIST_INGEST_H

#include <stddef.h>
#include <stdio.h>

#include "cb_hist_db.h"
#include "cb_hist_run.h"
#include "cb_status.h"

/* Adds run in one transaction, after its machine's last run (seq). A run
 * already there changes nothing: *added = 0 and *run_id is the stored
 * one's. Already there: a run of the same run key (machine, start time,
 * rows: cb_hist_key.h, computed here) and command key (or one stored
 * without a command key), or of the same files (hash). Errors: CB_ERR_IO
 * (SQLite error, the database then holds no part of the run),
 * CB_ERR_NOMEM. */
enum cb_status cb_hist_db_ingest(struct cb_hist_db *db, const struct cb_hist_run *run,
				 long long *run_id, int *added, char *err, size_t errlen);

/* Consistency: SQLite's integrity and foreign-key checks, and every run
 * holding the number of rows it was ingested with. Writes one line per
 * problem on out; *problems is their number. Also notes (not problems)
 * runs that are one run ingested twice (the same run key: copies a version
 * before schema 4 took for new runs). Errors: CB_ERR_IO. */
enum cb_status cb_hist_db_check(struct cb_hist_db *db, FILE *out, size_t *problems, char *err,
				size_t errlen);

/* Writes "id<TAB>time<TAB>machine label<TAB>name<TAB>commit<TAB>rows<TAB>
 * label<TAB>launcher<TAB>job id" per run, in the order they were ingested
 * (id), with a header line. Errors: CB_ERR_IO. */
enum cb_status cb_hist_db_list_runs(struct cb_hist_db *db, FILE *out, char *err, size_t errlen);

#endif
