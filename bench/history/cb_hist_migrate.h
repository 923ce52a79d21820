/* cb_hist_migrate: the schema updates of the history database that SQL
 * alone cannot make (internal to cb_hist_db.c). Each runs inside the open
 * transaction of cb_hist_db_open's migration, after the SQL of its version;
 * on error the transaction is rolled back and the file stays as it was.
 * Errors: CB_ERR_IO (SQLite error, message in err), CB_ERR_NOMEM. */
#ifndef CB_HIST_MIGRATE_H
#define CB_HIST_MIGRATE_H

#include <stddef.h>

#include "cb_hist_db.h"

/* Version 1 -> 2: machine identities without memory
 * (cb_machine_identity_upgrade). Machines whose identities become equal
 * (the same machine with its memory on both sides of a rounding edge) are
 * merged into the one of the lowest id: their runs move to it. */
enum cb_status cb_hist_migrate_machines(struct cb_hist_db *db, char *err, size_t errlen);

/* Version 2 -> 3: runs get their place in their machine's history, seq
 * (1, 2, ... per machine: the order of the series and of the gate's newest
 * run; new runs come after the machine's last, cb_hist_db_ingest), given
 * here in the order of the runs' start times, then ids, as versions before
 * it ordered them; start times stored as a run's metadata wrote them are
 * normalised to UTC (cb_hist_time.h; a text that is not a time is left as
 * it was). */
enum cb_status cb_hist_migrate_order(struct cb_hist_db *db, char *err, size_t errlen);

/* Version 3 -> 4: the run key of every run (cb_hist_key.h), made from its
 * stored machine identity, start time and rows; command_key stays NULL
 * (the metadata is not stored), so such a run matches on its run key. Runs
 * that are copies of one run (ingested as new runs before) get equal keys
 * and are kept (cb_hist_db_check notes them). */
enum cb_status cb_hist_migrate_keys(struct cb_hist_db *db, char *err, size_t errlen);

/* Version 5 -> 6: the collective in the rows' key. The SQL of the version
 * renamed the old rows table to CB_HIST_ROWS_V5 and made the new one (the
 * collective in its primary key, 'allreduce' by default); this copies
 * every old row into it, each column the two tables share but collective
 * (an older rows table may have gained one, NULL, at an earlier step: its
 * rows are allreduce's all the same, the only collective versions before 6
 * ingested), and drops the old table. */
#define CB_HIST_ROWS_V5 "rows_v5"
enum cb_status cb_hist_migrate_collective(struct cb_hist_db *db, char *err, size_t errlen);

#endif
