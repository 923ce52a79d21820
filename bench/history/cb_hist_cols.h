/* cb_hist_cols: the measured columns of the history's rows table, taken from
 * the results schema table (cb_schema.h) and from nowhere else.
 *
 * Stored: every column of cb_schema_summary that the results reader loads
 * (flag CB_COL_READ), under its CSV name, the schema column aside: today
 * the key (backend, algo, nranks, bytes, dtype, op, in_place, collective),
 * status, the mean and median times, algbw, busbw, their repeat bands and
 * repeats. A
 * column added to the schema with CB_COL_READ reaches the history with no
 * change to its code: the database gains the column at its next open (NULL
 * in the runs ingested before), ingest writes it, the queries read it back
 * into struct cb_summary. A column without CB_COL_READ does not: the reader,
 * shared with collbench-compare, does not load it (loading would validate
 * it, and compare would refuse files over columns it does not use); giving
 * it the flag is the one change that keeps it.
 *
 * SQL types by column type: NAME, STATUS -> TEXT (a status in its text form,
 * cb_row_status_format), INT, BOOL, U64 -> INTEGER, REAL -> REAL; an empty
 * value (NaN, CB_NO_INT, CB_NO_U64) is NULL.
 *
 * transport is part of the history's row key (cb_hist_run.h), so the rows
 * table has it from the start (TEXT, '' by default: the primary key cannot
 * take a column added later). Its value is the summary's "transport" column
 * (collbench-summary-2; for collbench-summary-1 files the reader supplies
 * the transport such a one-host row has, cb_transport_one_host). collective
 * is a key column too, in the primary key since schema version 6 (rows
 * table rebuilt, cb_hist_migrate.h; TEXT, 'allreduce' by default): the
 * summary's "collective" column (collbench-summary-3; older files' rows are
 * allreduce's, as the reader gives them). */
#ifndef CB_HIST_COLS_H
#define CB_HIST_COLS_H

#include <stddef.h>

#include "cb_schema.h"

struct sqlite3_stmt;

/* 1 when the history stores column c of the summary schema, else 0. */
int cb_hist_col_stored(const struct cb_column *c);

/* The SQL type of a stored column: "TEXT", "INTEGER" or "REAL". */
const char *cb_hist_col_sqltype(const struct cb_column *c);

/* Appends "<prefix>"name"" for every stored column, each after ", ", to
 * buf[len] (which holds a string). Returns the number of columns, or -1
 * when buf is too small. */
int cb_hist_col_list(char *buf, size_t len, const char *prefix);

/* Binds column c of v to parameter idx of s (NULL for an empty value).
 * Returns SQLite's result code. */
int cb_hist_col_bind(struct sqlite3_stmt *s, int idx, const struct cb_column *c,
		     const struct cb_summary *v);

/* Reads result column idx of s's current row into column c of v. A value
 * the column cannot hold (a status that does not parse, a name too long) is
 * read as the column's empty value, and returns -1; else 0. */
int cb_hist_col_read(struct sqlite3_stmt *s, int idx, const struct cb_column *c,
		     struct cb_summary *v);

/* Column c of v as text into buf[len]: a name as it is, a status in its
 * text form, integers in decimal, reals as "%.17g" (the double exactly), an
 * empty value as "". */
void cb_hist_col_text(const struct cb_column *c, const struct cb_summary *v, char *buf,
		      size_t len);

/* The transport of row v (see the top) into buf[len]. */
void cb_hist_transport(const struct cb_summary *v, char *buf, size_t len);

#endif
