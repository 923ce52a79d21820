/* cb_hist_sql: helpers shared by the history's SQL files (internal). */
#ifndef CB_HIST_SQL_H
#define CB_HIST_SQL_H

#include <stddef.h>

#include "cb_hist_db.h"

/* Writes "<path>: <what>: <SQLite's message>" into err. Returns CB_ERR_ARG
 * for a file that is not a database, else CB_ERR_IO. */
enum cb_status cb_hist_sql_fail(struct cb_hist_db *db, const char *what, char *err,
				size_t errlen);

/* Runs sql (no parameters, no rows wanted); on error as cb_hist_sql_fail. */
enum cb_status cb_hist_sql_exec(struct cb_hist_db *db, const char *sql, const char *what,
				char *err, size_t errlen);

/* The first column of the first row of sql (no parameters) as an integer;
 * -1 on error or when there is no row. */
long long cb_hist_sql_int(struct cb_hist_db *db, const char *sql);

#endif
