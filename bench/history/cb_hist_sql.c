/* cb_hist_sql: SQLite helpers shared by the history's files (contract in
 * cb_hist_sql.h). */
#include "cb_hist_sql.h"

#include <sqlite3.h>
#include <stdio.h>

enum cb_status cb_hist_sql_fail(struct cb_hist_db *db, const char *what, char *err,
				size_t errlen)
{
	int code = sqlite3_extended_errcode(db->sql);

	snprintf(err, errlen, "%s: %s: %s%s", db->path, what, sqlite3_errmsg(db->sql),
		 (code & 0xff) == SQLITE_BUSY ? " (another process held the database longer "
		 "than the busy timeout)" : "");
	return (code & 0xff) == SQLITE_NOTADB ? CB_ERR_ARG : CB_ERR_IO;
}

enum cb_status cb_hist_sql_exec(struct cb_hist_db *db, const char *sql, const char *what,
				char *err, size_t errlen)
{
	if (sqlite3_exec(db->sql, sql, NULL, NULL, NULL) != SQLITE_OK)
		return cb_hist_sql_fail(db, what, err, errlen);
	return CB_OK;
}

long long cb_hist_sql_int(struct cb_hist_db *db, const char *sql)
{
	sqlite3_stmt *s;
	long long v = -1;

	if (sqlite3_prepare_v2(db->sql, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}
