/* cb_hist_cols: the rows table's columns from the schema table (contract in
 * cb_hist_cols.h). */
#define _GNU_SOURCE
#include "cb_hist_cols.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

/* The field of column c in record v. */
#define FIELD(c, v, type) ((type *)(void *)((char *)(v) + (c)->offset))
#define CFIELD(c, v, type) ((const type *)(const void *)((const char *)(v) + (c)->offset))

int cb_hist_col_stored(const struct cb_column *c)
{
	return (c->flags & CB_COL_READ) && c->type != CB_COL_SCHEMA;
}

const char *cb_hist_col_sqltype(const struct cb_column *c)
{
	switch (c->type) {
	case CB_COL_INT:
	case CB_COL_BOOL:
	case CB_COL_U64:
		return "INTEGER";
	case CB_COL_REAL:
		return "REAL";
	default:
		return "TEXT";
	}
}

int cb_hist_col_list(char *buf, size_t len, const char *prefix)
{
	const struct cb_schema *s = &cb_schema_summary;
	size_t k = strlen(buf);
	int n = 0;

	for (size_t i = 0; i < s->ncols; i++) {
		int w;

		if (!cb_hist_col_stored(&s->cols[i]))
			continue;
		w = snprintf(buf + k, len - k, ", %s\"%s\"", prefix, s->cols[i].name);
		if (w < 0 || (size_t)w >= len - k)
			return -1;
		k += (size_t)w;
		n++;
	}
	return n;
}

int cb_hist_col_bind(sqlite3_stmt *s, int idx, const struct cb_column *c,
		     const struct cb_summary *v)
{
	char text[CB_REASON_MAX + 16];
	double d;

	switch (c->type) {
	case CB_COL_NAME:
		return sqlite3_bind_text(s, idx, CFIELD(c, v, char), -1, SQLITE_TRANSIENT);
	case CB_COL_STATUS:
		cb_row_status_format(CFIELD(c, v, struct cb_row_status), text, sizeof(text));
		return sqlite3_bind_text(s, idx, text, -1, SQLITE_TRANSIENT);
	case CB_COL_INT:
	case CB_COL_BOOL:
		if (*CFIELD(c, v, int) == CB_NO_INT)
			return sqlite3_bind_null(s, idx);
		return sqlite3_bind_int(s, idx, *CFIELD(c, v, int));
	case CB_COL_U64:
		if (*CFIELD(c, v, unsigned long long) == CB_NO_U64)
			return sqlite3_bind_null(s, idx);
		/* the schema's ranges keep these below 2^62 */
		return sqlite3_bind_int64(s, idx, (sqlite3_int64)*CFIELD(c, v, unsigned long long));
	case CB_COL_REAL:
		d = *CFIELD(c, v, double);
		return isnan(d) ? sqlite3_bind_null(s, idx) : sqlite3_bind_double(s, idx, d);
	default:
		return sqlite3_bind_null(s, idx);
	}
}

/* A text result column into a name field of cap bytes; -1 when it does not
 * fit (the field is then ""). */
static int read_name(sqlite3_stmt *s, int idx, char *dst, size_t cap)
{
	const char *t = (const char *)sqlite3_column_text(s, idx);

	dst[0] = '\0';
	if (!t)
		return 0;
	if (strlen(t) >= cap)
		return -1;
	strcpy(dst, t);
	return 0;
}

int cb_hist_col_read(sqlite3_stmt *s, int idx, const struct cb_column *c, struct cb_summary *v)
{
	int null = sqlite3_column_type(s, idx) == SQLITE_NULL;
	const char *t;

	switch (c->type) {
	case CB_COL_NAME:
		return read_name(s, idx, FIELD(c, v, char), CB_NAME_MAX);
	case CB_COL_STATUS:
		t = (const char *)sqlite3_column_text(s, idx);
		if (t && cb_row_status_parse(t, FIELD(c, v, struct cb_row_status)) == 0)
			return 0;
		cb_row_status_set(FIELD(c, v, struct cb_row_status), CB_ROW_ERROR, "unreadable status");
		return -1;
	case CB_COL_INT:
	case CB_COL_BOOL:
		*FIELD(c, v, int) = null ? CB_NO_INT : sqlite3_column_int(s, idx);
		return 0;
	case CB_COL_U64:
		*FIELD(c, v, unsigned long long) =
			null ? CB_NO_U64 : (unsigned long long)sqlite3_column_int64(s, idx);
		return 0;
	case CB_COL_REAL:
		*FIELD(c, v, double) = null ? NAN : sqlite3_column_double(s, idx);
		return 0;
	default:
		return 0;
	}
}

void cb_hist_col_text(const struct cb_column *c, const struct cb_summary *v, char *buf,
		      size_t len)
{
	buf[0] = '\0';
	switch (c->type) {
	case CB_COL_NAME:
		snprintf(buf, len, "%s", CFIELD(c, v, char));
		break;
	case CB_COL_STATUS:
		cb_row_status_format(CFIELD(c, v, struct cb_row_status), buf, len);
		break;
	case CB_COL_INT:
	case CB_COL_BOOL:
		if (*CFIELD(c, v, int) != CB_NO_INT)
			snprintf(buf, len, "%d", *CFIELD(c, v, int));
		break;
	case CB_COL_U64:
		if (*CFIELD(c, v, unsigned long long) != CB_NO_U64)
			snprintf(buf, len, "%llu", *CFIELD(c, v, unsigned long long));
		break;
	case CB_COL_REAL:
		if (!isnan(*CFIELD(c, v, double)))
			snprintf(buf, len, "%.17g", *CFIELD(c, v, double));
		break;
	default:
		break;
	}
}

void cb_hist_transport(const struct cb_summary *v, char *buf, size_t len)
{
	int i = cb_schema_find(&cb_schema_summary, "transport");
	const struct cb_column *c = i >= 0 ? &cb_schema_summary.cols[i] : NULL;

	snprintf(buf, len, "%s", c && c->type == CB_COL_NAME && cb_hist_col_stored(c) ?
		 CFIELD(c, v, char) : "");
}
