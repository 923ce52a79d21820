/* cb_hist_db: open, create and migrate the history database (contract in
 * cb_hist_db.h). */
#define _GNU_SOURCE
#include "cb_hist_db.h"

#include <errno.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>

#include "cb_hist_cols.h"
#include "cb_hist_migrate.h"
#include "cb_hist_sql.h"

/* migrations[v] takes the schema from version v to v + 1: its SQL (when not
 * NULL), then its C step (cb_hist_migrate.h, when not NULL) after the
 * measured columns are there; those are added from the schema table
 * (ensure_columns) before each C step and at the end. */
static const struct {
	const char *sql;
	enum cb_status (*step)(struct cb_hist_db *db, char *err, size_t errlen);
} migrations[CB_HIST_SCHEMA_VERSION] = {
	{
	"CREATE TABLE history_info(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"INSERT INTO history_info VALUES('format', '" CB_HIST_FORMAT "');"
	"CREATE TABLE machines(id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE,"
	" label TEXT NOT NULL);"
	"CREATE TABLE runs(id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE,"
	" time_utc TEXT NOT NULL, machine_id INTEGER NOT NULL REFERENCES machines(id),"
	" name TEXT NOT NULL, source TEXT NOT NULL, version TEXT NOT NULL,"
	" git_commit TEXT NOT NULL, versions TEXT NOT NULL, launcher TEXT NOT NULL,"
	" job_id TEXT NOT NULL, label TEXT NOT NULL, nrows INTEGER NOT NULL,"
	" ingested_utc TEXT NOT NULL);"
	"CREATE INDEX runs_machine_time ON runs(machine_id, time_utc, id);"
	"CREATE TABLE rows(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" backend TEXT NOT NULL, algo TEXT NOT NULL, nranks INTEGER NOT NULL,"
	" bytes INTEGER NOT NULL, dtype TEXT NOT NULL, op TEXT NOT NULL,"
	" in_place INTEGER NOT NULL, transport TEXT NOT NULL DEFAULT '',"
	" status TEXT NOT NULL,"
	" PRIMARY KEY(run_id, backend, algo, nranks, bytes, dtype, op, in_place, transport));"
	"CREATE INDEX rows_key ON rows(backend, algo, nranks, bytes, dtype, op, in_place,"
	" transport, run_id);", NULL },
	/* 2: machine identities without memory (cb_machine.h) */
	{ NULL, cb_hist_migrate_machines },
	/* 3: a machine's runs in the order they were ingested (seq), times in UTC */
	{ "ALTER TABLE runs ADD COLUMN seq INTEGER;"
	  "DROP INDEX runs_machine_time;"
	  "CREATE INDEX runs_machine_seq ON runs(machine_id, seq, id);", cb_hist_migrate_order },
	/* 4: a run known by what it is (cb_hist_key.h), not by its files' bytes */
	{ "ALTER TABLE runs ADD COLUMN run_key TEXT;"
	  "ALTER TABLE runs ADD COLUMN command_key TEXT;"
	  "CREATE INDEX runs_key ON runs(run_key);", cb_hist_migrate_keys },
	/* 5: the library configuration a run was made under (cb_libconf.h) */
	{ "ALTER TABLE runs ADD COLUMN libconf TEXT NOT NULL DEFAULT '';", NULL },
	/* 6: rows keyed by collective too: the rows table rebuilt with it in its
	 * primary key, older rows copied as allreduce's (cb_hist_migrate.h) */
	{ "ALTER TABLE rows RENAME TO " CB_HIST_ROWS_V5 ";"
	  "DROP INDEX rows_key;"
	  "CREATE TABLE rows(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	  " backend TEXT NOT NULL, algo TEXT NOT NULL, nranks INTEGER NOT NULL,"
	  " bytes INTEGER NOT NULL, dtype TEXT NOT NULL, op TEXT NOT NULL,"
	  " in_place INTEGER NOT NULL, transport TEXT NOT NULL DEFAULT '',"
	  " collective TEXT NOT NULL DEFAULT 'allreduce', status TEXT NOT NULL,"
	  " PRIMARY KEY(run_id, backend, algo, nranks, bytes, dtype, op, in_place, transport,"
	  " collective));"
	  "CREATE INDEX rows_key ON rows(backend, algo, nranks, bytes, dtype, op, in_place,"
	  " transport, collective, run_id);", cb_hist_migrate_collective },
	/* 7: the plan files behind a run's rows (--plan), by name and digest */
	{ "CREATE TABLE run_plans(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	  " name TEXT NOT NULL, digest TEXT NOT NULL, PRIMARY KEY(run_id, name));", NULL },
};

/* 1 when rows has a column named name. */
static int has_column(struct cb_hist_db *db, const char *name)
{
	sqlite3_stmt *s;
	int found = 0;

	if (sqlite3_prepare_v2(db->sql, "SELECT 1 FROM pragma_table_info('rows') WHERE name = ?",
			       -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return found;
}

/* Adds the stored columns (cb_hist_cols.h) the rows table lacks. */
static enum cb_status ensure_columns(struct cb_hist_db *db, char *err, size_t errlen)
{
	const struct cb_schema *sc = &cb_schema_summary;

	for (size_t i = 0; i < sc->ncols; i++) {
		const struct cb_column *c = &sc->cols[i];
		char sql[256];
		int has;

		if (!cb_hist_col_stored(c))
			continue;
		has = has_column(db, c->name);
		if (has < 0)
			return cb_hist_sql_fail(db, "reading the rows table's columns", err, errlen);
		if (has)
			continue;
		snprintf(sql, sizeof(sql), "ALTER TABLE rows ADD COLUMN \"%s\" %s", c->name,
			 cb_hist_col_sqltype(c));
		if (cb_hist_sql_exec(db, sql, "adding a column", err, errlen) != CB_OK)
			return CB_ERR_IO;
	}
	return CB_OK;
}

/* Inside the open transaction: refuses files that are not ours, applies the
 * migrations from the stored version on. */
static enum cb_status migrate_locked(struct cb_hist_db *db, char *err, size_t errlen)
{
	long long v = cb_hist_sql_int(db, "PRAGMA user_version");
	long long tables = cb_hist_sql_int(db, "SELECT count(*) FROM sqlite_master");
	char sql[64];

	if (v < 0 || tables < 0)
		return cb_hist_sql_fail(db, "reading the schema version", err, errlen);
	if (v > CB_HIST_SCHEMA_VERSION) {
		snprintf(err, errlen, "%s: schema version %lld is newer than this program's (%d): "
			 "use a newer collbench-history", db->path, v, CB_HIST_SCHEMA_VERSION);
		return CB_ERR_ARG;
	}
	if (v == 0 && tables > 0) {
		snprintf(err, errlen, "%s: an SQLite database that is not a collbench history "
			 "(it has tables but no history schema version): not touching it", db->path);
		return CB_ERR_ARG;
	}
	for (; v < CB_HIST_SCHEMA_VERSION; v++) {
		enum cb_status st = CB_OK;

		if (migrations[v].sql)
			st = cb_hist_sql_exec(db, migrations[v].sql, "updating the schema", err, errlen);
		if (st == CB_OK && migrations[v].step)
			st = ensure_columns(db, err, errlen);
		if (st == CB_OK && migrations[v].step)
			st = migrations[v].step(db, err, errlen);
		if (st != CB_OK)
			return st;
	}
	if (ensure_columns(db, err, errlen) != CB_OK)
		return CB_ERR_IO;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", CB_HIST_SCHEMA_VERSION);
	return cb_hist_sql_exec(db, sql, "recording the schema version", err, errlen);
}

/* Whether the schema needs work: version below ours or a column missing. */
static int needs_migration(struct cb_hist_db *db)
{
	const struct cb_schema *sc = &cb_schema_summary;

	if (cb_hist_sql_int(db, "PRAGMA user_version") != CB_HIST_SCHEMA_VERSION)
		return 1;
	for (size_t i = 0; i < sc->ncols; i++)
		if (cb_hist_col_stored(&sc->cols[i]) && has_column(db, sc->cols[i].name) != 1)
			return 1;
	return 0;
}

/* Checks the format marker of a history at the current version. */
static enum cb_status check_format(struct cb_hist_db *db, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	int ok = 0;

	if (sqlite3_prepare_v2(db->sql, "SELECT value FROM history_info WHERE key = 'format'", -1,
			       &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		ok = strcmp((const char *)sqlite3_column_text(s, 0), CB_HIST_FORMAT) == 0;
	sqlite3_finalize(s);
	if (!ok) {
		snprintf(err, errlen, "%s: not a collbench history (no format marker)", db->path);
		return CB_ERR_ARG;
	}
	return CB_OK;
}

static enum cb_status migrate(struct cb_hist_db *db, char *err, size_t errlen)
{
	enum cb_status st;

	if (cb_hist_sql_int(db, "PRAGMA user_version") < 0)
		return cb_hist_sql_fail(db, "reading the schema version", err, errlen);
	if (!needs_migration(db))
		return check_format(db, err, errlen);
	/* IMMEDIATE: two processes creating the file at once take turns */
	st = cb_hist_sql_exec(db, "BEGIN IMMEDIATE", "starting the schema update (a history "
			      "written by an older collbench-history is updated at its first open, "
			      "which needs write access to the file and its folder)", err, errlen);
	if (st != CB_OK)
		return st;
	st = migrate_locked(db, err, errlen);
	if (st == CB_OK)
		st = cb_hist_sql_exec(db, "COMMIT", "committing the schema update", err, errlen);
	if (st != CB_OK)
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return st == CB_OK ? check_format(db, err, errlen) : st;
}

enum cb_status cb_hist_db_open(const char *path, int create, struct cb_hist_db *db, char *err,
			       size_t errlen)
{
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	struct stat sb;
	enum cb_status st;

	memset(db, 0, sizeof(*db));
	snprintf(db->path, sizeof(db->path), "%s", path);
	if (!create && stat(path, &sb) != 0) {
		snprintf(err, errlen, "%s: no history there (%s): ingest a run first", path,
			 strerror(errno));
		return CB_ERR_IO;
	}
	if (sqlite3_open_v2(path, &db->sql, flags, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
			 db->sql ? sqlite3_errmsg(db->sql) : "out of memory");
		cb_hist_db_close(db);
		return CB_ERR_IO;
	}
	sqlite3_busy_timeout(db->sql, CB_HIST_BUSY_MS);
	st = cb_hist_sql_exec(db, "PRAGMA foreign_keys = ON", "enabling foreign keys", err, errlen);
	if (st == CB_OK)
		st = migrate(db, err, errlen);
	if (st != CB_OK)
		cb_hist_db_close(db);
	return st;
}

void cb_hist_db_close(struct cb_hist_db *db)
{
	if (db->sql)
		sqlite3_close(db->sql);
	db->sql = NULL;
}
