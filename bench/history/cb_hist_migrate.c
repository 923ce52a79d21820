/* cb_hist_migrate: schema updates in C (contract in cb_hist_migrate.h). */
#define _GNU_SOURCE
#include "cb_hist_migrate.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_hist_key.h"
#include "cb_hist_sql.h"
#include "cb_hist_time.h"
#include "cb_machine.h"

struct machine_row {
	long long id;
	char identity[2 * CB_HIST_TEXT];
};

/* Every machine, in id order, into a new array *out of *n. */
static enum cb_status load_machines(struct cb_hist_db *db, struct machine_row **out,
				    size_t *n, char *err, size_t errlen)
{
	sqlite3_stmt *s;
	size_t cap = 0;
	int rc = sqlite3_prepare_v2(db->sql, "SELECT id, identity FROM machines ORDER BY id", -1,
				    &s, NULL);

	*out = NULL;
	*n = 0;
	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		rc = SQLITE_OK;
		if (*n == cap) {
			struct machine_row *v = realloc(*out, (cap = cap ? 2 * cap : 16) * sizeof(*v));

			if (!v) {
				rc = SQLITE_NOMEM;
				break;
			}
			*out = v;
		}
		(*out)[*n].id = sqlite3_column_int64(s, 0);
		snprintf((*out)[(*n)++].identity, sizeof((*out)->identity), "%s",
			 (const char *)sqlite3_column_text(s, 1));
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return CB_OK;
	free(*out);
	*out = NULL;
	return rc == SQLITE_NOMEM ? CB_ERR_NOMEM : cb_hist_sql_fail(db, "reading the machines",
								   err, errlen);
}

/* Runs sql with the integer parameters ?1 = a and ?2 = b and the text ?3 =
 * t (those it does not name are ignored); SQLITE_DONE or SQLite's error. */
static int exec_bound(struct cb_hist_db *db, const char *sql, long long a, long long b,
		      const char *t)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(db->sql, sql, -1, &s, NULL);

	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(s, 1, a);
	sqlite3_bind_int64(s, 2, b);
	if (t)
		sqlite3_bind_text(s, 3, t, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc;
}

/* The id of the machine with this identity other than id, 0 if none. */
static long long other_machine(struct cb_hist_db *db, const char *identity, long long id)
{
	sqlite3_stmt *s;
	long long found = 0;

	if (sqlite3_prepare_v2(db->sql, "SELECT id FROM machines WHERE identity = ?1 AND id != ?2",
			       -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(s, 1, identity, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, id);
	if (sqlite3_step(s) == SQLITE_ROW)
		found = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return found;
}

/* Machine m to its identity text new: renamed, or merged into the machine
 * that already has it. Returns SQLITE_DONE or SQLite's error. */
static int upgrade_one(struct cb_hist_db *db, const struct machine_row *m, const char *new)
{
	long long into = other_machine(db, new, m->id);
	int rc;

	if (into < 0)
		return SQLITE_ERROR;
	if (into == 0)
		return exec_bound(db, "UPDATE machines SET identity = ?3 WHERE id = ?1",
				  m->id, 0, new);
	rc = exec_bound(db, "UPDATE runs SET machine_id = ?2 WHERE machine_id = ?1", m->id, into,
			NULL);
	if (rc == SQLITE_DONE)
		rc = exec_bound(db, "DELETE FROM machines WHERE id = ?1", m->id, 0, NULL);
	return rc;
}

enum cb_status cb_hist_migrate_machines(struct cb_hist_db *db, char *err, size_t errlen)
{
	struct machine_row *v;
	size_t n;
	enum cb_status st = load_machines(db, &v, &n, err, errlen);
	int rc = SQLITE_DONE;

	for (size_t i = 0; st == CB_OK && i < n && rc == SQLITE_DONE; i++) {
		char new[sizeof(v->identity)];

		if (cb_machine_identity_upgrade(v[i].identity, new, sizeof(new)))
			rc = upgrade_one(db, &v[i], new);
	}
	free(v);
	if (st == CB_OK && rc != SQLITE_DONE)
		st = cb_hist_sql_fail(db, "updating the machine identities", err, errlen);
	return st;
}


/* The first column (an integer) of every row of sql, into a new array *out
 * of *n: what a step walks over before it changes the table it read. */
static int load_ids(struct cb_hist_db *db, const char *sql, long long **out, size_t *n)
{
	sqlite3_stmt *s;
	size_t cap = 0;
	int rc = sqlite3_prepare_v2(db->sql, sql, -1, &s, NULL);

	*out = NULL;
	*n = 0;
	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		rc = SQLITE_OK;
		if (*n == cap) {
			long long *v = realloc(*out, (cap = cap ? 2 * cap : 256) * sizeof(*v));

			if (!v) {
				rc = SQLITE_NOMEM;
				break;
			}
			*out = v;
		}
		(*out)[(*n)++] = sqlite3_column_int64(s, 0);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Normalises the start time of every run that has one in another form. */
static int normalise_times(struct cb_hist_db *db)
{
	sqlite3_stmt *s = NULL, *u = NULL;
	long long *ids;
	size_t n;
	int rc = load_ids(db, "SELECT id FROM runs", &ids, &n);

	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db->sql, "SELECT time_utc FROM runs WHERE id = ?1", -1, &s,
					NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db->sql, "UPDATE runs SET time_utc = ?2 WHERE id = ?1", -1,
					&u, NULL);
	for (size_t i = 0; rc == SQLITE_OK && i < n; i++) {
		const char *t;
		char norm[CB_HIST_TIME], why[160];

		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, ids[i]);
		if (sqlite3_step(s) != SQLITE_ROW || !(t = (const char *)sqlite3_column_text(s, 0)) ||
		    cb_hist_time_parse(t, norm, NULL, why, sizeof(why)) != CB_OK ||
		    strcmp(norm, t) == 0)
			continue;
		sqlite3_reset(u);
		sqlite3_bind_int64(u, 1, ids[i]);
		sqlite3_bind_text(u, 2, norm, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(u) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	}
	sqlite3_finalize(s);
	sqlite3_finalize(u);
	free(ids);
	return rc;
}

/* seq of every run: 1, 2, ... per machine in (time, id) order. */
static int number_runs(struct cb_hist_db *db)
{
	sqlite3_stmt *u = NULL;
	long long *ids, *machines = NULL, seq = 0;
	size_t n, nm = 0;
	int rc = load_ids(db, "SELECT id FROM runs ORDER BY machine_id, time_utc, id", &ids, &n);

	if (rc == SQLITE_OK)
		rc = load_ids(db, "SELECT machine_id FROM runs ORDER BY machine_id, time_utc, id",
			      &machines, &nm);
	if (rc == SQLITE_OK && nm != n)
		rc = SQLITE_ERROR;
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db->sql, "UPDATE runs SET seq = ?2 WHERE id = ?1", -1, &u,
					NULL);
	for (size_t i = 0; rc == SQLITE_OK && i < n; i++) {
		seq = i > 0 && machines[i] == machines[i - 1] ? seq + 1 : 1;
		sqlite3_reset(u);
		sqlite3_bind_int64(u, 1, ids[i]);
		sqlite3_bind_int64(u, 2, seq);
		rc = sqlite3_step(u) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	}
	sqlite3_finalize(u);
	free(ids);
	free(machines);
	return rc;
}

enum cb_status cb_hist_migrate_order(struct cb_hist_db *db, char *err, size_t errlen)
{
	int rc = normalise_times(db);

	if (rc == SQLITE_OK)
		rc = number_runs(db);
	if (rc == SQLITE_NOMEM) {
		snprintf(err, errlen, "%s: out of memory while ordering the runs", db->path);
		return CB_ERR_NOMEM;
	}
	return rc == SQLITE_OK ? CB_OK : cb_hist_sql_fail(db, "ordering the runs", err, errlen);
}

/* The rows of run id (the key columns) into a new array *rows of *n. */
static int run_rows(struct cb_hist_db *db, sqlite3_stmt *s, long long id,
		    struct cb_res_row **rows, size_t *n)
{
	size_t cap = 0;
	int rc;

	*rows = NULL;
	*n = 0;
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == cap) {
			struct cb_res_row *v = realloc(*rows, (cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!v)
				return SQLITE_NOMEM;
			*rows = v;
		}
		cb_hist_key_read_row(s, &(*rows)[(*n)++]);
	}
	(void)db;
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The run key of run id (s: its identity and time; rs: its rows) stored
 * with u. */
static int key_one(struct cb_hist_db *db, long long id, sqlite3_stmt *s, sqlite3_stmt *rs,
		   sqlite3_stmt *u)
{
	struct cb_res_row *rows = NULL;
	char key[CB_HIST_KEY_HEX];
	size_t n = 0;
	int rc;

	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s) == SQLITE_ROW ? run_rows(db, rs, id, &rows, &n) : SQLITE_ERROR;
	if (rc == SQLITE_OK && cb_hist_run_key((const char *)sqlite3_column_text(s, 0),
					       (const char *)sqlite3_column_text(s, 1), rows, n,
					       key) != CB_OK)
		rc = SQLITE_NOMEM;
	free(rows);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_reset(u);
	sqlite3_bind_int64(u, 1, id);
	sqlite3_bind_text(u, 2, key, -1, SQLITE_TRANSIENT);
	return sqlite3_step(u) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
}

enum cb_status cb_hist_migrate_keys(struct cb_hist_db *db, char *err, size_t errlen)
{
	sqlite3_stmt *s = NULL, *rs = NULL, *u = NULL;
	char sel[1024];
	long long *ids = NULL;
	size_t n = 0;
	int rc = cb_hist_key_select(sel, sizeof(sel)) == 0 ? SQLITE_OK : SQLITE_NOMEM;

	if (rc == SQLITE_OK)
		rc = load_ids(db, "SELECT id FROM runs", &ids, &n);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db->sql, "SELECT m.identity, r.time_utc FROM runs r JOIN "
					"machines m ON m.id = r.machine_id WHERE r.id = ?1", -1, &s,
					NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db->sql, sel, -1, &rs, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db->sql, "UPDATE runs SET run_key = ?2 WHERE id = ?1", -1, &u,
					NULL);
	for (size_t i = 0; rc == SQLITE_OK && i < n; i++)
		rc = key_one(db, ids[i], s, rs, u);
	sqlite3_finalize(s);
	sqlite3_finalize(rs);
	sqlite3_finalize(u);
	free(ids);
	if (rc == SQLITE_NOMEM) {
		snprintf(err, errlen, "%s: out of memory while making the run keys", db->path);
		return CB_ERR_NOMEM;
	}
	return rc == SQLITE_OK ? CB_OK : cb_hist_sql_fail(db, "making the run keys", err, errlen);
}

/* "INSERT INTO rows(<cols>) SELECT <cols> FROM rows_v5" of the columns the
 * two tables share but collective, into a new string (NULL: no memory). */
static char *copy_rows_sql(struct cb_hist_db *db)
{
	sqlite3_stmt *s;
	size_t cap = 8192, k = 0;
	char *cols = malloc(cap), *sql = NULL;
	int rc = sqlite3_prepare_v2(db->sql, "SELECT o.name FROM pragma_table_info('"
				    CB_HIST_ROWS_V5 "') o WHERE o.name != 'collective' AND o.name IN"
				    " (SELECT n.name FROM pragma_table_info('rows') n) ORDER BY o.cid",
				    -1, &s, NULL);

	if (!cols || rc != SQLITE_OK) {
		sqlite3_finalize(s);
		free(cols);
		return NULL;
	}
	cols[0] = '\0';
	while (sqlite3_step(s) == SQLITE_ROW && k < cap)
		k += (size_t)snprintf(cols + k, cap - k, "%s\"%s\"", k ? ", " : "",
				      (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	if (k < cap && asprintf(&sql, "INSERT INTO rows(%s) SELECT %s FROM " CB_HIST_ROWS_V5,
				cols, cols) < 0)
		sql = NULL;
	free(cols);
	return sql;
}

enum cb_status cb_hist_migrate_collective(struct cb_hist_db *db, char *err, size_t errlen)
{
	char *sql = copy_rows_sql(db);
	enum cb_status st;

	if (!sql) {
		snprintf(err, errlen, "%s: out of memory (or an unreadable rows table) while "
			 "keying the rows by collective", db->path);
		return CB_ERR_NOMEM;
	}
	st = cb_hist_sql_exec(db, sql, "copying the rows (keyed by collective)", err, errlen);
	free(sql);
	if (st == CB_OK)
		st = cb_hist_sql_exec(db, "DROP TABLE " CB_HIST_ROWS_V5, "dropping the old rows "
				      "table", err, errlen);
	return st;
}
