/* cb_results: summary CSV rows, validated (contract in cb_results.h). */
#define _GNU_SOURCE
#include "cb_results.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_csv.h"
#include "cb_catalog.h"
#include "cb_coll.h"
#include "cb_schema_parse.h"

#define MAX_COLS 64 /* columns of the summary schema */

/* The reading context of one file: its name, column map and error buffer. */
struct ctx {
	const char *name;
	int col[MAX_COLS]; /* schema column -> file column; -1: absent or not read */
	int schema_col;    /* the file column of "schema" */
	int has_transport, has_nhosts, has_collective;
	int version;        /* the first row's schema: 1, 2 or 3 (a file holds one); 0 before */
	size_t schema_line;
	char *err;
	size_t errlen;
};

static enum cb_status fail(struct ctx *x, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum cb_status fail(struct ctx *x, size_t line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(x->err, x->errlen, "%s: line %zu: %s", x->name, line, msg);
	else
		snprintf(x->err, x->errlen, "%s: %s", x->name, msg);
	return CB_ERR_ARG;
}

/* The required columns' names: "schema backend algo ...". */
static void required_names(char *buf, size_t len)
{
	const struct cb_schema *s = &cb_schema_summary;
	size_t k = 0;

	buf[0] = '\0';
	for (size_t c = 0; c < s->ncols && k + 1 < len; c++)
		if (s->cols[c].flags & CB_COL_REQUIRED) {
			snprintf(buf + k, len - k, "%s%s", k ? " " : "", s->cols[c].name);
			k = strlen(buf);
		}
}

/* Maps the read columns to the file's; every required one exactly once. */
static enum cb_status map_columns(struct ctx *x, const struct cb_table *t)
{
	const struct cb_schema *s = &cb_schema_summary;
	char need[512];

	if (s->ncols > MAX_COLS)
		return fail(x, 0, "the summary schema has more than %d columns (a bug)", MAX_COLS);
	for (size_t c = 0; c < s->ncols; c++) {
		x->col[c] = -1;
		if (!(s->cols[c].flags & CB_COL_READ))
			continue;
		for (size_t i = 0; i < t->ncols; i++) {
			if (strcmp(t->header[i], s->cols[c].name) != 0)
				continue;
			if (x->col[c] >= 0)
				return fail(x, 1, "column '%s' appears twice", s->cols[c].name);
			x->col[c] = (int)i;
		}
		if (s->cols[c].type == CB_COL_SCHEMA)
			x->schema_col = x->col[c];
		x->has_transport |= strcmp(s->cols[c].name, "transport") == 0 && x->col[c] >= 0;
		x->has_nhosts |= strcmp(s->cols[c].name, "nhosts") == 0 && x->col[c] >= 0;
		x->has_collective |= strcmp(s->cols[c].name, "collective") == 0 && x->col[c] >= 0;
		if (s->cols[c].flags & CB_COL_REQUIRED && x->col[c] < 0) {
			required_names(need, sizeof(need));
			return fail(x, 1, "no column '%s': not a collbench summary CSV (needs: %s)",
				    s->cols[c].name, need);
		}
	}
	return CB_OK;
}

/* A row without a transport (a file of CB_SCHEMA_SUMMARY_1, which ran on one
 * host): what the row would say now, so it joins with the rows of newer runs. */
static enum cb_status old_transport(struct ctx *x, size_t line, struct cb_summary *v)
{
	const char *t;

	if (*v->transport)
		return CB_OK;
	t = cb_transport_one_host(v->backend, v->algo);
	if (!t)
		return fail(x, line, "no transport column, and no transport is known for %s on "
			    "backend %s", v->algo, v->backend);
	snprintf(v->transport, sizeof(v->transport), "%s", t);
	return CB_OK;
}

/* A row's collective: a -1 or -2 row's is allreduce (those files ran
 * nothing else), and any row's a collective cb_coll.h knows. */
static enum cb_status check_collective(struct ctx *x, size_t line, struct cb_summary *v)
{
	char names[256];

	if (!*v->collective)
		snprintf(v->collective, sizeof(v->collective), "%s",
			 cb_coll_get(CB_COLL_ALLREDUCE)->name);
	if (cb_coll_find(v->collective) < 0) {
		cb_coll_names(names, sizeof(names));
		return fail(x, line, "collective '%s' is none of %s", v->collective, names);
	}
	return CB_OK;
}

/* The column a row of schema version v needs that the header lacks, or NULL:
 * -2 added transport and nhosts, -3 collective. */
static const char *missing_column(const struct ctx *x, int v)
{
	if (v >= 2 && !x->has_transport)
		return "transport";
	if (v >= 2 && !x->has_nhosts)
		return "nhosts";
	return v >= 3 && !x->has_collective ? "collective" : NULL;
}

/* One schema per file, and a row with the columns its schema added
 * (schema-1 files have none: old_transport; -1 and -2 no collective:
 * check_collective). text: the row's schema field, already checked to be
 * one the reader accepts. */
static enum cb_status check_schema(struct ctx *x, size_t line, const char *text)
{
	static const char *const names[4] = { "", CB_SCHEMA_SUMMARY_1, CB_SCHEMA_SUMMARY_2,
					      CB_SCHEMA_SUMMARY };
	int v = strcmp(text, CB_SCHEMA_SUMMARY) == 0 ? 3
		: strcmp(text, CB_SCHEMA_SUMMARY_2) == 0 ? 2 : 1;
	const char *miss = missing_column(x, v);

	if (!x->version) {
		x->version = v;
		x->schema_line = line;
	} else if (x->version != v) {
		return fail(x, line, "schema %s, but line %zu is %s: one file holds rows of one "
			    "schema", names[v], x->schema_line, names[x->version]);
	}
	if (miss)
		return fail(x, line, "a %s row, but the header has no column '%s' (a column of "
			    "that schema)", names[v], miss);
	return CB_OK;
}

/* A transport the row's algorithm, backend and hosts can have. */
static enum cb_status check_transport(struct ctx *x, size_t line, const struct cb_summary *v)
{
	int coll = cb_coll_find(v->collective); /* "" in files before the column: allreduce */
	const struct cb_algo_desc *a = cb_catalog_coll_algo(coll >= 0 ? (enum cb_coll)coll
								      : CB_COLL_ALLREDUCE, v->algo);
	const struct cb_backend_desc *be = cb_catalog_backend(v->backend);
	char why[256];
	int id = cb_transport_id_of(v->transport);

	if (!cb_transport_known(v->transport))
		return fail(x, line, "transport '%s' is not shm, ipc, p2p, library or local",
			    v->transport);
	if (a && a->moves && strcmp(a->moves, v->transport) != 0)
		return fail(x, line, "transport %s for algorithm %s, whose bytes move %s",
			    v->transport, v->algo, a->moves);
	if (a && !a->moves && id < 0)
		return fail(x, line, "transport %s for algorithm %s (shm, ipc or p2p)",
			    v->transport, v->algo);
	if (id >= 0 && be && cb_transport_refuses(id, be, why, sizeof(why)))
		return fail(x, line, "transport %s on backend %s, which does not offer it",
			    v->transport, v->backend);
	if (v->nhosts != CB_NO_INT && v->nhosts > v->nranks)
		return fail(x, line, "nhosts %d is more than the %d ranks", v->nhosts, v->nranks);
	if (id >= 0 && cb_transport_get(id)->one_sided && v->nhosts > 1)
		return fail(x, line, "transport %s reaches the ranks of one host, but nhosts is %d",
			    v->transport, v->nhosts);
	return CB_OK;
}

/* An ok row of a non-zero size took time: its mean and median times and
 * their repeat bands are above 0 where given (0 is an edited or broken
 * file, which would read as an improvement of -100%). */
static enum cb_status check_times(struct ctx *x, size_t line, const struct cb_summary *v)
{
	const struct {
		const char *name;
		double t;
	} times[] = {
		{ "time_us", v->time_us },
		{ "time_us_median", v->time_us_median },
		{ "time_us_rep_min", v->time_us_rep_min },
		{ "time_us_rep_max", v->time_us_rep_max },
		{ "time_us_median_rep_min", v->time_us_median_rep_min },
		{ "time_us_median_rep_max", v->time_us_median_rep_max },
	};

	if (v->status.state != CB_ROW_OK || v->bytes == 0)
		return CB_OK;
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		if (times[i].t == 0)
			return fail(x, line, "column %s: 0 us for %llu bytes: a measured time is "
				    "above 0", times[i].name, (unsigned long long)v->bytes);
	return CB_OK;
}

/* The read columns of one row, in table order; the ones that may be empty
 * only where the row is not ok come after the status (second pass). */
static enum cb_status parse_row(struct ctx *x, size_t line, char **row, struct cb_res_row *r)
{
	const struct cb_schema *s = &cb_schema_summary;
	char msg[512];

	cb_schema_clear(s, &r->v);
	r->line = line;
	for (int pass = 0; pass < 2; pass++)
		for (size_t c = 0; c < s->ncols; c++) {
			const struct cb_column *col = &s->cols[c];
			int late = (col->flags & CB_COL_NEED_IF_OK) != 0;

			if (x->col[c] < 0 || late != pass)
				continue;
			if (cb_schema_parse_field(s, col, row[x->col[c]], &r->v, r->v.status.state, msg,
						  sizeof(msg)) != CB_OK)
				return fail(x, line, "%s", msg);
		}
	if (check_schema(x, line, row[x->schema_col]) != CB_OK ||
	    old_transport(x, line, &r->v) != CB_OK || check_collective(x, line, &r->v) != CB_OK ||
	    check_times(x, line, &r->v) != CB_OK)
		return CB_ERR_ARG;
	return check_transport(x, line, &r->v);
}

int cb_res_key_cmp(const struct cb_res_row *ra, const struct cb_res_row *rb)
{
	const struct cb_summary *a = &ra->v, *b = &rb->v;
	int d = strcmp(a->backend, b->backend);

	if (!d) d = (a->nranks > b->nranks) - (a->nranks < b->nranks);
	if (!d) d = strcmp(a->dtype, b->dtype);
	if (!d) d = strcmp(a->op, b->op);
	if (!d) d = a->in_place - b->in_place;
	if (!d) d = strcmp(a->algo, b->algo);
	if (!d) d = strcmp(a->transport, b->transport);
	if (!d) d = strcmp(a->collective, b->collective);
	if (!d) d = (a->bytes > b->bytes) - (a->bytes < b->bytes);
	return d;
}

static int qsort_cmp(const void *a, const void *b)
{
	int d = cb_res_key_cmp(a, b);
	const struct cb_res_row *x = a, *y = b;

	return d ? d : (x->line > y->line) - (x->line < y->line);
}

/* Sorts the rows by key; two rows with one key are an error. */
static enum cb_status sort_unique(struct ctx *x, struct cb_res_row *rows, size_t n)
{
	qsort(rows, n, sizeof(*rows), qsort_cmp);
	for (size_t i = 1; i < n; i++)
		if (cb_res_key_cmp(&rows[i - 1], &rows[i]) == 0)
			return fail(x, rows[i].line, "same row as line %zu (%s %s %s %s np%d %llu B %s "
				    "%s in_place=%d): one input must not hold a row twice",
				    rows[i - 1].line, rows[i].v.collective, rows[i].v.backend,
				    rows[i].v.algo, rows[i].v.transport, rows[i].v.nranks,
				    rows[i].v.bytes, rows[i].v.dtype, rows[i].v.op, rows[i].v.in_place);
	return CB_OK;
}

/* Validates a parsed table into res->rows. */
static enum cb_status from_table(const struct cb_table *t, const char *name,
				 struct cb_results *res, char *err, size_t errlen)
{
	struct ctx x = { .name = name, .err = err, .errlen = errlen };
	enum cb_status st = map_columns(&x, t);

	if (st != CB_OK)
		return st;
	res->rows = calloc(t->nrows ? t->nrows : 1, sizeof(*res->rows));
	if (!res->rows) {
		snprintf(err, errlen, "%s: out of memory", name);
		return CB_ERR_NOMEM;
	}
	for (size_t i = 0; i < t->nrows && st == CB_OK; i++)
		st = parse_row(&x, i + 2, t->rows[i], &res->rows[i]);
	if (st == CB_OK)
		st = sort_unique(&x, res->rows, t->nrows);
	if (st != CB_OK) {
		free(res->rows);
		res->rows = NULL;
		return st;
	}
	res->nrows = t->nrows;
	return CB_OK;
}

/* Prefixes a cb_csv message with the file name. */
static void csv_error(const char *name, const char *msg, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", name, msg);
}

enum cb_status cb_results_parse_csv(const char *buf, size_t len, const char *name,
				    struct cb_results *res, char *err, size_t errlen)
{
	struct cb_table t;
	char msg[256];
	enum cb_status st = cb_table_parse(buf, len, &t, msg, sizeof(msg));

	if (st != CB_OK) {
		csv_error(name, msg, err, errlen);
		return st;
	}
	st = from_table(&t, name, res, err, errlen);
	cb_table_free(&t);
	return st;
}

enum cb_status cb_results_read_csv(const char *path, struct cb_results *res, char *err,
				   size_t errlen)
{
	struct cb_table t;
	char msg[256];
	enum cb_status st = cb_table_read(path, (size_t)256 << 20, &t, msg, sizeof(msg));

	if (st != CB_OK) {
		if (st == CB_ERR_IO && strncmp(msg, "cannot open", 11) == 0)
			snprintf(err, errlen, "%s", msg);
		else
			csv_error(path, msg, err, errlen);
		return st;
	}
	st = from_table(&t, path, res, err, errlen);
	cb_table_free(&t);
	return st;
}

void cb_results_free(struct cb_results *res)
{
	free(res->rows);
	free(res->launches);
	memset(res, 0, sizeof(*res));
}
