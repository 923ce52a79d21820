/* cb_hist_ingest: one run into the database in one transaction, the
 * consistency check and the list of runs (contract in cb_hist_ingest.h). */
#define _GNU_SOURCE
#include "cb_hist_ingest.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cb_coll.h"
#include "cb_hist_cols.h"
#include "cb_hist_key.h"
#include "cb_hist_sql.h"
#include "cb_text.h"

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

/* The machine's id, inserted when new. */
static enum cb_status machine_id(struct cb_hist_db *db, const struct cb_hist_machine *m,
				 long long *id, char *err, size_t errlen)
{
	sqlite3_stmt *s = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db->sql, "INSERT INTO machines(identity, label) VALUES(?, ?) "
				"ON CONFLICT(identity) DO NOTHING", -1, &s, NULL);
	if (rc == SQLITE_OK) {
		bind_text(s, 1, m->identity);
		bind_text(s, 2, m->label);
		rc = sqlite3_step(s) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db->sql, "SELECT id FROM machines WHERE identity = ?", -1, &s,
					NULL);
	if (rc == SQLITE_OK) {
		bind_text(s, 1, m->identity);
		rc = sqlite3_step(s) == SQLITE_ROW ? SQLITE_OK : SQLITE_ERROR;
		*id = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	return rc == SQLITE_OK ? CB_OK : cb_hist_sql_fail(db, "storing the machine", err, errlen);
}

/* *id of the run that is r (cb_hist_key.h: the same run key and command
 * key, or no command key known; or the same files), 0 when there is none. */
static enum cb_status find_run(struct cb_hist_db *db, const struct cb_hist_run *r,
			       const char *key, long long *id, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(db->sql, "SELECT id FROM runs WHERE hash = ?1 OR (run_key = ?2"
				    " AND (command_key IS NULL OR command_key = ?3)) ORDER BY id"
				    " LIMIT 1", -1, &s, NULL);

	*id = 0;
	if (rc != SQLITE_OK)
		return cb_hist_sql_fail(db, "looking the run up", err, errlen);
	bind_text(s, 1, r->hash);
	bind_text(s, 2, key);
	bind_text(s, 3, r->command_key);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return cb_hist_sql_fail(db, "looking the run up", err, errlen);
	return CB_OK;
}

static enum cb_status insert_run(struct cb_hist_db *db, const struct cb_hist_run *r,
				 const char *key, long long mid, long long *id, char *err,
				 size_t errlen)
{
	const char *const text[] = { r->hash, r->time_utc, NULL, r->name, r->source, r->version,
				     r->git_commit, r->versions, r->launcher, r->job_id, r->label,
				     NULL, NULL, key, r->command_key, r->libconf };
	char now[32];
	time_t t = time(NULL);
	sqlite3_stmt *s;
	int rc;

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	rc = sqlite3_prepare_v2(db->sql, "INSERT INTO runs(hash, time_utc, machine_id, name, source,"
				" version, git_commit, versions, launcher, job_id, label, nrows,"
				" ingested_utc, seq, run_key, command_key, libconf) VALUES(?1,?2,?3,?4,"
				"?5,?6,?7,?8,?9,?10,?11,?12,?13, (SELECT coalesce(max(seq), 0) + 1 FROM"
				" runs WHERE machine_id = ?3), ?14, ?15, ?16)", -1, &s, NULL);
	if (rc != SQLITE_OK)
		return cb_hist_sql_fail(db, "storing the run", err, errlen);
	for (int i = 0; i < 16; i++)
		if (text[i])
			bind_text(s, i + 1, text[i]);
	sqlite3_bind_int64(s, 3, mid);
	sqlite3_bind_int64(s, 12, (sqlite3_int64)r->nrows);
	bind_text(s, 13, now);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return cb_hist_sql_fail(db, "storing the run", err, errlen);
	*id = sqlite3_last_insert_rowid(db->sql);
	return CB_OK;
}

/* The run's plan files (run->plans, "NAME=DIGEST\n" each) into run_plans. */
static enum cb_status insert_plans(struct cb_hist_db *db, const struct cb_hist_run *r,
				   long long id, char *err, size_t errlen)
{
	const char *line = r->plans;
	sqlite3_stmt *s;
	int rc = SQLITE_DONE;

	if (!*line)
		return CB_OK;
	if (sqlite3_prepare_v2(db->sql, "INSERT INTO run_plans(run_id, name, digest)"
			       " VALUES(?1, ?2, ?3)", -1, &s, NULL) != SQLITE_OK)
		return cb_hist_sql_fail(db, "storing the run's plans", err, errlen);
	while (*line && rc == SQLITE_DONE) {
		const char *eq = strchr(line, '='), *end = strchr(line, '\n');

		if (!eq || !end || eq > end)
			break; /* fill_plans writes only whole entries */
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, line, (int)(eq - line), SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 3, eq + 1, (int)(end - eq - 1), SQLITE_TRANSIENT);
		rc = sqlite3_step(s);
		line = end + 1;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return cb_hist_sql_fail(db, "storing the run's plans", err, errlen);
	return CB_OK;
}

/* "INSERT INTO rows(run_id, <stored columns>) VALUES(?, ...)"; transport
 * is among them when the schema has it, else its default (''). */
static char *row_insert_sql(void)
{
	size_t cap = 1024 + cb_schema_summary.ncols * 64, k;
	char *sql = malloc(cap);
	int n;

	if (!sql)
		return NULL;
	snprintf(sql, cap, "INSERT INTO rows(run_id");
	n = cb_hist_col_list(sql, cap, "");
	if (n < 0) {
		free(sql);
		return NULL;
	}
	k = strlen(sql);
	k += (size_t)snprintf(sql + k, cap - k, ") VALUES(?");
	for (int i = 0; i < n; i++)
		k += (size_t)snprintf(sql + k, cap - k, ", ?");
	snprintf(sql + k, cap - k, ")");
	return sql;
}

/* Binds row r of run run_id and steps s; a row without a collective (one
 * made in code, not by the reader, which gives every row one) is stored as
 * allreduce's, as the run key reads it (cb_hist_key.h). */
static int bind_row(sqlite3_stmt *s, long long run_id, const struct cb_res_row *r)
{
	const struct cb_schema *sc = &cb_schema_summary;
	struct cb_summary v = r->v;
	int idx = 1, rc;

	if (!v.collective[0])
		snprintf(v.collective, sizeof(v.collective), "%s",
			 cb_coll_get(CB_COLL_ALLREDUCE)->name);
	sqlite3_reset(s);
	rc = sqlite3_bind_int64(s, idx++, run_id);
	for (size_t i = 0; i < sc->ncols && rc == SQLITE_OK; i++)
		if (cb_hist_col_stored(&sc->cols[i]))
			rc = cb_hist_col_bind(s, idx++, &sc->cols[i], &v);
	return rc == SQLITE_OK ? sqlite3_step(s) : rc;
}

/* The test hook (CB_HIST_PAUSE_ENV): a pause inside the transaction. */
static void test_pause(void)
{
	const char *v = getenv(CB_HIST_PAUSE_ENV);
	long ms = v ? strtol(v, NULL, 10) : 0;

	if (ms <= 0)
		return;
	cb_eprintf("collbench-history: test hook: pausing %ld ms inside the transaction\n",
		ms);
	fflush(stderr);
	usleep((useconds_t)(ms * 1000));
}

static enum cb_status insert_rows(struct cb_hist_db *db, const struct cb_hist_run *r,
				  long long run_id, char *err, size_t errlen)
{
	char *sql = row_insert_sql();
	sqlite3_stmt *s = NULL;
	enum cb_status st = CB_OK;

	if (!sql || sqlite3_prepare_v2(db->sql, sql, -1, &s, NULL) != SQLITE_OK)
		st = sql ? cb_hist_sql_fail(db, "storing the rows", err, errlen) : CB_ERR_NOMEM;
	for (size_t i = 0; i < r->nrows && st == CB_OK; i++) {
		if (i == r->nrows / 2)
			test_pause();
		if (bind_row(s, run_id, &r->rows[i]) != SQLITE_DONE)
			st = cb_hist_sql_fail(db, "storing a row", err, errlen);
	}
	if (st == CB_ERR_NOMEM)
		snprintf(err, errlen, "%s: out of memory", db->path);
	sqlite3_finalize(s);
	free(sql);
	return st;
}

enum cb_status cb_hist_db_ingest(struct cb_hist_db *db, const struct cb_hist_run *run,
				 long long *run_id, int *added, char *err, size_t errlen)
{
	long long mid = 0;
	char key[CB_HIST_KEY_HEX];
	enum cb_status st;

	*added = 0;
	*run_id = 0;
	if (cb_hist_run_key(run->machine.identity, run->time_utc, run->rows, run->nrows, key) !=
	    CB_OK) {
		snprintf(err, errlen, "%s: out of memory", db->path);
		return CB_ERR_NOMEM;
	}
	st = cb_hist_sql_exec(db, "BEGIN IMMEDIATE", "starting the ingest", err, errlen);
	if (st != CB_OK)
		return st;
	st = find_run(db, run, key, run_id, err, errlen);
	if (st == CB_OK && *run_id == 0) {
		st = machine_id(db, &run->machine, &mid, err, errlen);
		if (st == CB_OK)
			st = insert_run(db, run, key, mid, run_id, err, errlen);
		if (st == CB_OK)
			st = insert_plans(db, run, *run_id, err, errlen);
		if (st == CB_OK)
			st = insert_rows(db, run, *run_id, err, errlen);
		*added = st == CB_OK;
	}
	if (st == CB_OK)
		st = cb_hist_sql_exec(db, "COMMIT", "committing the run", err, errlen);
	if (st != CB_OK) {
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
		*added = 0;
	}
	return st;
}

/* Runs a query whose every result row is a problem (its columns joined by
 * spaces after prefix); counts them. */
static enum cb_status report_rows(struct cb_hist_db *db, const char *sql, const char *prefix,
				  const char *skip, FILE *out, size_t *problems, char *err,
				  size_t errlen)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(db->sql, sql, -1, &s, NULL);

	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *first = (const char *)sqlite3_column_text(s, 0);

		rc = SQLITE_OK;
		if (skip && first && strcmp(first, skip) == 0)
			continue;
		fprintf(out, "%s", prefix);
		for (int c = 0; c < sqlite3_column_count(s); c++)
			fprintf(out, " %s", (const char *)sqlite3_column_text(s, c) ?
				(const char *)sqlite3_column_text(s, c) : "NULL");
		fputc('\n', out);
		(*problems)++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return cb_hist_sql_fail(db, "checking", err, errlen);
	return CB_OK;
}

/* Notes runs that are one run ingested twice (see cb_hist_db_check). */
static enum cb_status note_copies(struct cb_hist_db *db, FILE *out, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(db->sql, "SELECT b.id, a.id FROM runs a JOIN runs b ON"
				    " b.run_key = a.run_key AND b.id > a.id AND (a.command_key IS NULL"
				    " OR b.command_key IS NULL OR a.command_key = b.command_key) AND NOT"
				    " EXISTS (SELECT 1 FROM runs c WHERE c.run_key = a.run_key AND"
				    " c.id < a.id) ORDER BY b.id", -1, &s, NULL);

	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		rc = SQLITE_OK;
		fprintf(out, "note: run %lld is run %lld again (the same machine, start time and "
			"rows: a copy ingested as a new run before schema version 4)\n",
			(long long)sqlite3_column_int64(s, 0), (long long)sqlite3_column_int64(s, 1));
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? CB_OK : cb_hist_sql_fail(db, "checking", err, errlen);
}

enum cb_status cb_hist_db_check(struct cb_hist_db *db, FILE *out, size_t *problems, char *err,
				size_t errlen)
{
	enum cb_status st;

	*problems = 0;
	st = report_rows(db, "PRAGMA integrity_check", "integrity:", "ok", out, problems, err,
			 errlen);
	if (st == CB_OK)
		st = report_rows(db, "PRAGMA foreign_key_check", "foreign key:", NULL, out, problems,
				 err, errlen);
	if (st == CB_OK)
		st = report_rows(db, "SELECT 'run', r.id, 'has', (SELECT count(*) FROM rows w"
				 " WHERE w.run_id = r.id), 'rows, ingested with', r.nrows FROM runs r"
				 " WHERE r.nrows != (SELECT count(*) FROM rows w WHERE w.run_id = r.id)",
				 "incomplete:", NULL, out, problems, err, errlen);
	if (st == CB_OK)
		st = note_copies(db, out, err, errlen);
	return st;
}

enum cb_status cb_hist_db_list_runs(struct cb_hist_db *db, FILE *out, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(db->sql, "SELECT r.id, r.time_utc, m.label, r.name,"
				    " r.git_commit, r.nrows, r.label, r.launcher, r.job_id FROM runs r"
				    " JOIN machines m ON m.id = r.machine_id ORDER BY r.id",
				    -1, &s, NULL);

	fprintf(out, "id\ttime_utc\tmachine\tname\tgit_commit\trows\tlabel\tlauncher\tjob_id\n");
	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		rc = SQLITE_OK;
		for (int c = 0; c < 9; c++)
			fprintf(out, "%s%s", (const char *)sqlite3_column_text(s, c), c < 8 ? "\t" : "\n");
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? CB_OK : cb_hist_sql_fail(db, "listing the runs", err, errlen);
}
