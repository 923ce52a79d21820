/* cb_hist_migrate: schema updates in C (contract in cb_hist_migrate.h). */
#define _GNU_SOURCE
#include "cb_hist_migrate.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Normalises the start time of every run that has one in another form. */
static int normalise_times(struct cb_hist_db *db)
{
	sqlite3_stmt *s, *u = NULL;
	int rc = sqlite3_prepare_v2(db->sql, "SELECT id, time_utc FROM runs", -1, &s, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db->sql, "UPDATE runs SET time_utc = ?2 WHERE id = ?1", -1,
					&u, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 1);
		char norm[CB_HIST_TIME], why[160];

		rc = SQLITE_OK;
		if (!t || cb_hist_time_parse(t, norm, NULL, why, sizeof(why)) != CB_OK ||
		    strcmp(norm, t) == 0)
			continue;
		sqlite3_reset(u);
		sqlite3_bind_int64(u, 1, sqlite3_column_int64(s, 0));
		sqlite3_bind_text(u, 2, norm, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(u) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	}
	sqlite3_finalize(s);
	sqlite3_finalize(u);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* seq of every run: 1, 2, ... per machine in (time, id) order. */
static int number_runs(struct cb_hist_db *db)
{
	sqlite3_stmt *s, *u = NULL;
	long long machine = -1, seq = 0;
	int rc = sqlite3_prepare_v2(db->sql, "SELECT id, machine_id FROM runs ORDER BY machine_id,"
				    " time_utc, id", -1, &s, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db->sql, "UPDATE runs SET seq = ?2 WHERE id = ?1", -1, &u,
					NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		long long m = sqlite3_column_int64(s, 1);

		seq = m == machine ? seq + 1 : 1;
		machine = m;
		sqlite3_reset(u);
		sqlite3_bind_int64(u, 1, sqlite3_column_int64(s, 0));
		sqlite3_bind_int64(u, 2, seq);
		rc = sqlite3_step(u) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	}
	sqlite3_finalize(s);
	sqlite3_finalize(u);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

enum cb_status cb_hist_migrate_order(struct cb_hist_db *db, char *err, size_t errlen)
{
	int rc = normalise_times(db);

	if (rc == SQLITE_OK)
		rc = number_runs(db);
	return rc == SQLITE_OK ? CB_OK : cb_hist_sql_fail(db, "ordering the runs", err, errlen);
}
