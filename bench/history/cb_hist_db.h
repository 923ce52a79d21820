/* cb_hist_db: the history database, one SQLite file (default
 * results/history.sqlite).
 *
 * Schema (version CB_HIST_SCHEMA_VERSION, kept in PRAGMA user_version and
 * reached from an empty file by the migrations in cb_hist_db.c, in one
 * transaction at open):
 *   history_info(key, value)   "format" = "collbench-history"
 *   machines(id, identity UNIQUE, label)   identity: cb_machine.h's text
 *   runs(id, hash UNIQUE, time_utc, machine_id, name, source, version,
 *        git_commit, versions, launcher, job_id, label, nrows, ingested_utc,
 *        seq, run_key, command_key, libconf)   the keys: cb_hist_key.h;
 *        libconf: the launches' library configuration (cb_libconf.h)
 *   run_plans(run_id, name, digest)   a run's plan files (--plan): the
 *        name its rows carry and the digest of what the plan does
 *        (cb_plan_file.h)
 *   rows(run_id, backend, algo, nranks, bytes, dtype, op, in_place,
 *        transport, collective, status, <the schema table's other stored
 *        columns, cb_hist_cols.h>), primary key (run_id, key), index on
 *        (key, run_id)
 *   index runs(machine_id, seq, id): a machine's runs in order; runs(run_key).
 * time_utc is the run's start time in UTC (cb_hist_time.h); seq its place in
 * its machine's history, 1, 2, ...: a run is added after the machine's last
 * (the ingest sequence, not the start time, orders a history: a clock can be
 * wrong, the sequence cannot).
 * A column the schema table gains is added to rows (NULL in older runs) at
 * the next open. Version 2: identities without memory (older ones converted,
 * machines that then coincide merged); version 3: seq (older runs numbered
 * in time order, as they were ordered), times normalised; version 4: run
 * keys (those of older runs made from what is stored, no command key)
 * (cb_hist_migrate.h); version 5: libconf ('' in older runs, whose
 * configuration the history did not keep); version 6: collective in the
 * rows' key (older rows are allreduce's: versions before it stored no
 * other collective; cb_hist_migrate.h); version 7: run_plans (none for
 * older runs, whose plans the history did not keep).
 *
 * Concurrency and crashes: every write is one IMMEDIATE transaction (SQLite's
 * rollback journal) with a busy timeout of CB_HIST_BUSY_MS, so concurrent
 * writers wait for each other, and a process killed in the middle of an
 * ingest leaves the file as it was before that run (the journal is rolled
 * back by the next opener). */
#ifndef CB_HIST_DB_H
#define CB_HIST_DB_H

#include <stddef.h>
#include <stdio.h>

#include "cb_hist_run.h"
#include "cb_status.h"

#define CB_HIST_SCHEMA_VERSION 7
#define CB_HIST_DEFAULT_DB "results/history.sqlite"
#define CB_HIST_FORMAT "collbench-history"
#define CB_HIST_BUSY_MS 60000
/* Test hook: when set to N, ingest sleeps N ms inside its transaction after
 * writing half of a new run's rows (tests kill it there). */
#define CB_HIST_PAUSE_ENV "CB_HISTORY_TEST_PAUSE_MS"

struct sqlite3;
struct cb_hist_db {
	struct sqlite3 *sql;
	char path[CB_HIST_PATH];
};

/* Opens the database at path: create 1 makes the file (and migrates an
 * empty one), 0 needs an existing history. Brings the schema up to
 * CB_HIST_SCHEMA_VERSION. Errors (message in err, *db closed): CB_ERR_IO
 * (cannot open or create; missing when create is 0; locked beyond the busy
 * timeout), CB_ERR_ARG (not an SQLite file, an SQLite file that is not a
 * collbench history, or a schema newer than this program's). */
enum cb_status cb_hist_db_open(const char *path, int create, struct cb_hist_db *db, char *err,
			       size_t errlen);

void cb_hist_db_close(struct cb_hist_db *db);

#endif
